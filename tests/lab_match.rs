//! `kestrel match`, `kestrel tournament` and `kestrel epd` end to end, with
//! Kestrel itself (at small depths) and small fake engines as children.

mod common;

use common::{kestrel, stdout};
use std::path::PathBuf;
use std::process::Command;

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-lab-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> (bool, String) {
    let out = kestrel(args);
    let text = format!("{}{}", stdout(&out), common::stderr(&out));
    (out.status.success(), text)
}

fn json(path: &PathBuf) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// python-chess reads every game without error (the check is skipped where
/// python-chess is missing, except under CI: `common::tools`).
fn python_checks_pgn(pgn: &PathBuf, games: usize) {
    if !common::tools::require_python_chess("chess.pgn") {
        return;
    }
    let out = Command::new("python3")
        .arg(data("../python/check_pgn.py"))
        .arg(pgn)
        .arg(games.to_string())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(" passed, 0 failed"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn tournament_of_three_depths_completes_with_readable_pgn() {
    let dir = scratch("rr");
    let pgn = dir.join("games.pgn");
    let json_path = dir.join("results.json");
    let (ok, text) = run(&[
        "tournament",
        "-engine",
        "cmd=kestrel",
        "name=depth1",
        "depth=1",
        "-engine",
        &format!("cmd={KESTREL}"),
        "name=depth2",
        "depth=2",
        "-engine",
        "cmd=kestrel",
        "name=depth3",
        "depth=3",
        "-each",
        "option.Hash=8",
        "-games",
        "2",
        "-rounds",
        "1",
        "-concurrency",
        "2",
        "-maxmoves",
        "60",
        "-openings",
        &format!("file={}", data("lab_openings.epd")),
        "order=random",
        "-srand",
        "3",
        "-pgnout",
        pgn.to_str().unwrap(),
        "-json",
        json_path.to_str().unwrap(),
        "-rating",
        "depth1=1000",
        "-noprogress",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("Rank Name"), "{text}");
    assert!(text.contains("Crosstable"), "{text}");
    assert!(
        text.contains("(ratings anchored at depth1 = 1000)"),
        "{text}"
    );
    let r = json(&json_path);
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 6);
    let numbers: Vec<u64> = games
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6], "games in schedule order");
    assert_eq!(r["standings"][0]["elo"].as_f64(), Some(1000.0));
    python_checks_pgn(&pgn, 6);

    // The ratings over the games, as a chart.
    let png = dir.join("elo.png");
    let (ok, text) = run(&[
        "plot",
        json_path.to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
        "--every",
        "2",
    ]);
    assert!(ok, "{text}");
    let bytes = std::fs::read(&png).unwrap();
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 5_000,
        "{} bytes",
        bytes.len()
    );
}

#[test]
fn crashing_and_hanging_engines_lose_and_with_recover_the_runner_goes_on() {
    let (ok, text) = run(&[
        "tournament",
        "-recover",
        "-tournament",
        "gauntlet",
        "-engine",
        "cmd=kestrel",
        "name=kestrel",
        "depth=1",
        "-engine",
        "cmd=sh",
        &format!("arg={}", data("engines/crash.sh")),
        "name=crash",
        "depth=1",
        "-engine",
        "cmd=sh",
        &format!("arg={}", data("engines/hang.sh")),
        "name=hang",
        "depth=1",
        "-games",
        "2",
        "-rounds",
        "1",
        "-hangtimeout",
        "1",
        "-noprogress",
        "-ratinginterval",
        "0",
    ]);
    assert!(ok, "{text}");
    let finished = |what: &str| {
        text.lines()
            .filter(|l| l.starts_with("Finished game") && l.contains(what))
            .count()
    };
    assert_eq!(finished("disconnects"), 2, "{text}");
    assert_eq!(finished("connection stalls"), 2, "{text}");
    assert!(text.contains("Warning: engine crash failed"), "{text}");
    assert!(text.contains("Warning: engine hang failed"), "{text}");
    // Kestrel won all four games.
    let row = text
        .lines()
        .find(|l| l.starts_with("#1 kestrel"))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        ["#1", "kestrel", "-", "2/2", "2/2"],
        "{text}"
    );
}

#[test]
fn without_recover_a_crash_stops_the_run_and_shows_the_engines_last_lines() {
    let (ok, text) = run(&[
        "match",
        "-engine",
        "cmd=kestrel",
        "name=kestrel",
        "depth=1",
        "-engine",
        "cmd=sh",
        &format!("arg={}", data("engines/crash.sh")),
        "name=crash",
        "depth=1",
        "-games",
        "2",
        "-rounds",
        "3",
        "-noprogress",
    ]);
    assert!(!ok, "the run failed: {text}");
    assert!(
        text.contains(
            "Game 1 stalled / disconnected and no recover option set for engine, stopping tournament."
        ),
        "{text}"
    );
    assert_eq!(text.matches("Finished game").count(), 1, "{text}");
    // How it ended and what it said last (`id name crash`, from the handshake).
    assert!(text.contains("the process ended: exit status: 3"), "{text}");
    assert!(text.contains("  id name crash"), "{text}");
    assert!(text.contains("give -recover"), "{text}");
}

#[test]
fn an_engine_over_its_time_loses_on_time_with_the_margin() {
    let (ok, text) = run(&[
        "match",
        "-engine",
        "cmd=sh",
        &format!("arg={}", data("engines/slow.sh")),
        "name=slow",
        "tc=0.3",
        "-engine",
        "cmd=kestrel",
        "name=kestrel",
        "depth=1",
        "-games",
        "1",
        "-rounds",
        "1",
        "-noprogress",
    ]);
    assert!(ok, "{text}");
    // It answered after 1 s with 0.3 s on its clock.
    // fastchess's words: `White loses on time (712ms overrun)`.
    let line = text
        .lines()
        .find(|l| l.contains("loses on time"))
        .unwrap_or_else(|| panic!("{text}"));
    let by: u64 = line
        .rsplit(" (")
        .next()
        .and_then(|s| s.split("ms overrun").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!((650..2000).contains(&by), "{line}");
    assert!(
        text.contains("Score of slow vs kestrel: 0 - 1 - 0"),
        "{text}"
    );
}

#[test]
fn a_clocked_engine_against_a_fixed_depth_one_is_told_its_time() {
    // The depth-limited side has no clock; the clocked side must still get
    // wtime/btime (a bare `go` would search forever and stall the game).
    let (ok, text) = run(&[
        "match",
        "-engine",
        "cmd=kestrel",
        "name=timed",
        "tc=2+0.05",
        "option.Hash=8",
        "-engine",
        "cmd=kestrel",
        "name=fixed",
        "depth=1",
        "option.Hash=8",
        "-games",
        "2",
        "-rounds",
        "1",
        "-maxmoves",
        "8",
        "-hangtimeout",
        "5",
        "-noprogress",
    ]);
    assert!(ok, "{text}");
    assert!(
        !text.contains("stalls") && !text.contains("loses on time"),
        "{text}"
    );
    assert_eq!(text.matches("{Draw by adjudication}").count(), 2, "{text}");
}

#[test]
fn sprt_stops_the_match_and_shards_merge() {
    // Kestrel against an engine that crashes at its first move: every game
    // is won, so the SPRT accepts H1 (or H0, seen from the other side) early.
    let dir = scratch("sprt");
    let crash = format!("arg={}", data("engines/crash.sh"));
    let mut shards = Vec::new();
    for (shard, first, verdict) in [
        ("a", "kestrel", "H1 was accepted"),
        ("b", "crash", "H0 was accepted"),
    ] {
        let pgn = dir.join(format!("{shard}.pgn"));
        let json_path = dir.join(format!("{shard}.json"));
        let kestrel_engine = [
            "-engine",
            "cmd=kestrel",
            "name=kestrel",
            "depth=1",
            "option.Hash=8",
        ];
        let crash_engine = ["-engine", "cmd=sh", crash.as_str(), "name=crash", "depth=1"];
        let (a, b) = if first == "kestrel" {
            (kestrel_engine, crash_engine)
        } else {
            (crash_engine, kestrel_engine)
        };
        let openings = format!("file={}", data("lab_openings.epd"));
        let mut args = vec!["match"];
        args.extend(a);
        args.extend(b);
        args.extend([
            "-recover",
            "-games",
            "2",
            "-rounds",
            "100",
            "-openings",
            &openings,
            "-sprt",
            "elo0=0",
            "elo1=50",
            "-pgnout",
            pgn.to_str().unwrap(),
            "-json",
            json_path.to_str().unwrap(),
            "-noprogress",
        ]);
        let (ok, text) = run(&args);
        assert!(ok, "{text}");
        assert!(text.contains(verdict), "{text}");
        let played = json(&json_path)["games"].as_array().unwrap().len();
        assert!(
            played < 60,
            "the SPRT stopped the match early: {played} games\n{text}"
        );
        shards.push((json_path, played));
    }
    let all_pgn = dir.join("all.pgn");
    let all_json = dir.join("all.json");
    let (ok, text) = run(&[
        "match",
        "-merge",
        shards[0].0.to_str().unwrap(),
        shards[1].0.to_str().unwrap(),
        "-pgnout",
        all_pgn.to_str().unwrap(),
        "-json",
        all_json.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let total = shards[0].1 + shards[1].1;
    assert!(
        text.contains(&format!("Score of kestrel vs crash: {total} - 0 - 0")),
        "{text}"
    );
    let merged = json(&all_json);
    assert_eq!(merged["games"].as_array().unwrap().len(), total);
    let pairs: u64 = merged["summary"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    // Each shard may end with one unfinished pair; the others stay pairs.
    assert!(
        pairs as usize * 2 + 2 >= total && pairs as usize * 2 <= total,
        "{pairs} pairs, {total} games"
    );
    python_checks_pgn(&all_pgn, total);
}

#[test]
fn syzygy_tables_adjudicate_after_a_capture() {
    // White is in check from the rook and can only take it, with king or
    // queen, reaching KQ v K: a tablebase win.
    let dir = scratch("tb");
    let epd = dir.join("rook.epd");
    std::fs::write(&epd, "8/8/8/4k3/8/8/r7/KQ6 w - - 0 1\n").unwrap();
    let (ok, text) = run(&[
        "match",
        "-engine",
        "cmd=kestrel",
        "name=a",
        "depth=1",
        "-engine",
        "cmd=kestrel",
        "name=b",
        "depth=1",
        "-games",
        "2",
        "-rounds",
        "1",
        "-openings",
        &format!("file={}", epd.display()),
        "-tb",
        &data("syzygy"),
        "-noprogress",
    ]);
    assert!(ok, "{text}");
    assert_eq!(
        text.matches("White wins by adjudication: SyzygyTB").count(),
        2,
        "{text}"
    );
}

#[test]
fn bad_command_lines_fail_with_one_clear_line() {
    let (ok, text) = run(&[
        "match",
        "-engine",
        "cmd=kestrel",
        "depth=1",
        "-engine",
        "cmd=/no/such/engine",
        "depth=1",
    ]);
    assert!(!ok);
    assert!(
        text.contains("two engines are named") || text.contains("cannot start"),
        "{text}"
    );
    let (ok, text) = run(&[
        "match",
        "-engine",
        "cmd=kestrel",
        "name=a",
        "depth=1",
        "-engine",
        "cmd=/no/such/engine",
        "depth=1",
    ]);
    assert!(!ok);
    assert!(text.contains("cannot start '/no/such/engine'"), "{text}");
    // An option the engine refuses, or one it does not list (misspelt, say,
    // which an engine that ignores unknown options would never answer),
    // stops the match before its first game.
    for (option, told) in [
        ("option.Contempt=900", "the engine refused an option: "),
        (
            "option.Contmept=10",
            "no option named Contmept (did you mean Contempt?)",
        ),
    ] {
        let (ok, text) = run(&[
            "match",
            "-engine",
            &format!("cmd={KESTREL}"),
            "name=a",
            option,
            "depth=1",
            "-engine",
            &format!("cmd={KESTREL}"),
            "name=b",
            "depth=1",
        ]);
        assert!(!ok);
        assert!(text.contains(told) && text.contains("Contempt"), "{text}");
    }
    let (ok, text) = run(&["match", "-games", "2"]);
    assert!(!ok);
    assert!(text.contains("give at least two engines"), "{text}");
    let (ok, text) = run(&["match", "--help"]);
    assert!(ok);
    assert!(text.contains("-sprt elo0=E0 elo1=E1"), "{text}");
}

#[test]
fn epd_suite_with_kestrel_reports_solved_positions() {
    let (ok, text) = run(&["epd", &data("lab_suite.epd"), "--depth", "4"]);
    assert!(ok, "{text}");
    assert!(text.contains("WAC.001"), "{text}");
    assert!(text.contains("solved "), "{text}");
    assert!(text.contains("points "), "c0 points are summed: {text}");
    let (ok, text) = run(&[
        "epd",
        &data("lab_suite.epd"),
        "--depth",
        "2",
        "--engine",
        "/no/such/engine",
    ]);
    assert!(!ok);
    assert!(text.contains("cannot start"), "{text}");
}

/// OpenBench reads the bench output from the last line up, taking the first
/// `N nodes` / `nodes searched N` and `N nps` / `nodes second N` it meets
/// (Client/bench.py, parse_stream_output); the same search here.
#[test]
fn bench_output_is_what_openbench_parses() {
    let out = kestrel(&["bench", "3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let (mut bench, mut nps) = (None, None);
    for line in text.lines().rev() {
        let clean: String = line
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == ' ' {
                    c.to_ascii_lowercase()
                } else {
                    ' '
                }
            })
            .collect();
        let words: Vec<&str> = clean.split_whitespace().collect();
        for w in words.windows(2) {
            if w[1] == "nodes" && bench.is_none() {
                bench = w[0].parse::<u64>().ok();
            }
            if w[1] == "nps" && nps.is_none() {
                nps = w[0].parse::<u64>().ok();
            }
        }
    }
    let last = text.lines().last().unwrap();
    let expected: u64 = last.split_whitespace().next().unwrap().parse().unwrap();
    assert_eq!(bench, Some(expected), "{text}");
    assert!(nps.is_some_and(|n| n > 0), "{text}");
}

#[test]
fn a_stopped_run_resumes_from_its_pgn() {
    let dir = scratch("resume");
    let pgn = dir.join("games.pgn");
    let json_path = dir.join("results.json");
    let openings = format!("file={}", data("lab_openings.epd"));
    let command = |rounds: &str, first: &str, second: &str, resume: bool| {
        let mut args = vec![
            "match".to_string(),
            "-engine".into(),
            "cmd=kestrel".into(),
            format!("name={first}"),
            "depth=1".into(),
            "-engine".into(),
            "cmd=kestrel".into(),
            format!("name={second}"),
            "depth=2".into(),
            "-each".into(),
            "option.Hash=8".into(),
            "-games".into(),
            "2".into(),
            "-rounds".into(),
            rounds.into(),
            "-openings".into(),
            openings.clone(),
            "-srand".into(),
            "5".into(),
            "-pgnout".into(),
            pgn.to_str().unwrap().into(),
            "-json".into(),
            json_path.to_str().unwrap().into(),
            "-noprogress".into(),
        ];
        if resume {
            args.push("-resume".into());
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&refs)
    };
    // A run of two rounds stands for one stopped after its fourth game.
    let (ok, text) = command("2", "one", "two", false);
    assert!(ok, "{text}");
    let (ok, text) = command("3", "one", "two", true);
    assert!(ok, "{text}");
    assert!(
        text.contains("Resumed: 4 finished games read back from the PGN; 2 to play"),
        "{text}"
    );
    assert_eq!(text.matches("Finished game").count(), 2, "{text}");
    let games = json(&json_path)["games"].as_array().unwrap().clone();
    let numbers: Vec<u64> = games
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    python_checks_pgn(&pgn, 6);
    // Resuming with the engines the other way round is another run, and
    // the stored configuration names what differs.
    let (ok, text) = command("3", "two", "one", true);
    assert!(!ok, "{text}");
    assert!(text.contains("played by another run"), "{text}");
    assert!(text.contains("engine 1 name: one then, two now"), "{text}");
    // Without the stored configuration, the schedule check still refuses
    // games by engines the run does not have.
    std::fs::remove_file(dir.join("games.pgn.config.json")).unwrap();
    let (ok, text) = command("3", "one", "three", true);
    assert!(!ok, "{text}");
    assert!(text.contains("resume with the arguments"), "{text}");
    // -resume needs the PGN it reads back.
    let (ok, text) = run(&[
        "match",
        "-engine",
        "cmd=kestrel",
        "-engine",
        "cmd=kestrel",
        "-resume",
    ]);
    assert!(!ok && text.contains("-pgnout"), "{text}");
}

#[test]
fn pgnout_keys_add_the_clock_latency_and_watched_lines() {
    let dir = scratch("pgnout-keys");
    let pgn = dir.join("g.pgn");
    std::fs::write(&pgn, "stale text from an earlier run\n").unwrap();
    let file = format!("file={}", pgn.display());
    let (ok, text) = run(&[
        "match",
        "-engine",
        "cmd=kestrel",
        "name=a",
        "-engine",
        "cmd=kestrel",
        "name=b",
        "-each",
        "tc=4+0.1",
        "option.Hash=8",
        "option.OwnBook=false",
        "-games",
        "2",
        "-rounds",
        "1",
        "-maxmoves",
        "6",
        "-site",
        "The lab",
        "-noprogress",
        "-pgnout",
        &file,
        "notation=uci",
        "timeleft=true",
        "latency=true",
        "nps=true",
        "append=false",
        "match_line=^info string stats",
    ]);
    assert!(ok, "{text}");
    let out = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        !out.contains("stale text"),
        "append=false starts afresh:\n{out}"
    );
    assert_eq!(out.matches("[Site \"The lab\"]").count(), 2, "{out}");
    // Every engine move: the clock left after it (below 4 s plus the
    // increments), the latency, nodes a second and Kestrel's statistics line.
    // (A long comment is wrapped over lines: its words are joined again.)
    let comments: Vec<String> = out
        .split('{')
        .skip(1)
        .filter_map(|c| c.split('}').next())
        .filter(|c| c.contains("tl="))
        .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(comments.len(), 2 * 12, "{out}");
    for c in &comments {
        let tl: f64 = c
            .split("tl=")
            .nth(1)
            .and_then(|t| t.split('s').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("a clock in {c}"));
        assert!(tl > 0.0 && tl < 4.6, "{c}");
        assert!(c.contains("latency=") && c.contains("nps="), "{c}");
        assert!(c.contains("line=\"info string stats nodes"), "{c}");
    }
    let first = out
        .split("\n1. ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .unwrap_or_default()
        .as_bytes()
        .to_vec();
    assert!(
        first.len() == 4 && first[1].is_ascii_digit() && first[3].is_ascii_digit(),
        "moves in UCI:\n{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
