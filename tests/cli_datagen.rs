//! `kestrel datagen` and its tools end to end: self-play records that a
//! reader accepts and that satisfy the filters, merge/shuffle/stats,
//! from-pgn on a PGN made here and on Kestrel's own match PGN, and
//! OpenBench's `genfens` given as command-line UCI commands.

mod common;

use std::path::{Path, PathBuf};

use common::{kestrel, kestrel_ok as ok, stdout};
use trainingdata::{read_file, RecordResult, TrainingRecord};

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("datagen", name)
}

fn records(path: &Path) -> Vec<TrainingRecord> {
    let file = read_file(path).unwrap();
    assert_eq!(file.trailing_bytes, 0);
    file.records
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn selfplay_records_are_readable_and_filtered() {
    let dir = scratch("selfplay");
    let out = dir.join("a.bin");
    let summary = ok(&[
        "datagen",
        "--games",
        "3",
        "--nodes",
        "400",
        "--threads",
        "2",
        "--seed",
        "7",
        "--skip-plies",
        "12",
        "--max-score",
        "1500",
        "-o",
        s(&out),
    ]);
    assert!(summary.starts_with("games 3 positions "), "{summary}");
    let recs = records(&out);
    let claimed: usize = summary.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert_eq!(recs.len(), claimed);
    assert!(!recs.is_empty());
    for r in &recs {
        let pos = r.to_position().unwrap();
        assert!(!pos.in_check(), "{}", r.to_fen());
        assert!(i32::from(r.score()).abs() < 1500);
        // Ply 12 or later of a game from the start position.
        assert!(r.fullmove_number() >= 7, "{}", r.to_fen());
    }

    // The same seed and shard play the same games; another shard others.
    let again = dir.join("b.bin");
    ok(&[
        "datagen",
        "--games",
        "3",
        "--nodes",
        "400",
        "--threads",
        "1",
        "--seed",
        "7",
        "--skip-plies",
        "12",
        "--max-score",
        "1500",
        "-o",
        s(&again),
    ]);
    let mut x: Vec<[u8; 32]> = recs
        .iter()
        .map(trainingdata::TrainingRecord::to_bytes)
        .collect();
    let mut y: Vec<[u8; 32]> = records(&again)
        .iter()
        .map(trainingdata::TrainingRecord::to_bytes)
        .collect();
    x.sort_unstable();
    y.sort_unstable();
    assert_eq!(x, y, "the thread count does not change the games");
    let other = dir.join("c.bin");
    ok(&[
        "datagen",
        "--games",
        "1",
        "--nodes",
        "400",
        "--seed",
        "7",
        "--shard",
        "1",
        "-o",
        s(&other),
    ]);
    let first_other = records(&other)[0].to_bytes();
    assert!(!x.contains(&first_other));
}

#[test]
fn book_openings_and_a_positions_target() {
    let dir = scratch("book");
    let out = dir.join("book.bin");
    let book = format!("{}/tests/data/lab_openings.epd", env!("CARGO_MANIFEST_DIR"));
    let summary = ok(&[
        "datagen",
        "--positions",
        "30",
        "--nodes",
        "300",
        "--openings",
        &book,
        "--skip-plies",
        "0",
        "-o",
        s(&out),
    ]);
    let n = records(&out).len();
    assert!(n >= 30, "{n} records\n{summary}");
}

#[test]
fn merge_shuffle_and_stats() {
    let dir = scratch("tools");
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    ok(&[
        "datagen",
        "--games",
        "1",
        "--nodes",
        "300",
        "--seed",
        "1",
        "-o",
        s(&a),
    ]);
    ok(&[
        "datagen",
        "--games",
        "1",
        "--nodes",
        "300",
        "--seed",
        "2",
        "-o",
        s(&b),
    ]);
    let (ra, rb) = (records(&a), records(&b));

    // An interrupted shard: its partial last record is dropped by merge.
    let mut bytes = std::fs::read(&b).unwrap();
    bytes.extend_from_slice(&[1, 2, 3]);
    std::fs::write(&b, &bytes).unwrap();
    let merged = dir.join("all.bin");
    let text = ok(&["datagen", "merge", s(&merged), s(&a), s(&b)]);
    assert!(
        text.contains("partial last record: 3 bytes dropped"),
        "{text}"
    );
    let all = records(&merged);
    assert_eq!(all, [ra.clone(), rb.clone()].concat());

    let refused = kestrel(&["datagen", "merge", s(&a), s(&a), s(&b)]);
    assert!(!refused.status.success());

    // Shuffled in memory and through buckets: the same records, reordered.
    let sorted = |r: &[TrainingRecord]| {
        let mut v: Vec<[u8; 32]> = r
            .iter()
            .map(trainingdata::TrainingRecord::to_bytes)
            .collect();
        v.sort_unstable();
        v
    };
    for limit in ["1000000", "8"] {
        let shuffled = dir.join(format!("shuffled-{limit}.bin"));
        let text = ok(&[
            "datagen",
            "shuffle",
            s(&merged),
            s(&shuffled),
            "--seed",
            "3",
            "--max-in-memory",
            limit,
        ]);
        let out = records(&shuffled);
        assert_eq!(sorted(&out), sorted(&all));
        assert_ne!(out, all, "{text}");
        if limit == "8" {
            assert!(text.contains("bucket files"), "{text}");
        }
    }
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".tmp")));

    let text = ok(&["datagen", "stats", s(&merged)]);
    assert!(
        text.starts_with(&format!("records {}\n", all.len())),
        "{text}"
    );
    let count = |result| all.iter().filter(|r| r.result() == result).count();
    assert!(
        text.contains(&format!("white won {} ", count(RecordResult::WhiteWin))),
        "{text}"
    );
    assert!(text.contains("score (cp, White's view)") && text.contains("pieces on the board"));

    std::fs::write(dir.join("text.bin"), "not training data at all, no no no\n").unwrap();
    let bad = kestrel(&["datagen", "stats", s(&dir.join("text.bin"))]);
    assert!(!bad.status.success());
    assert!(common::stderr(&bad).contains("damaged"), "{bad:?}");
}

#[test]
fn from_pgn_reads_score_comments() {
    let dir = scratch("pgn");
    let pgn = dir.join("games.pgn");
    // White's scores are positive for White; Black's are Black's own.
    std::fs::write(
        &pgn,
        r#"[Event "datagen"]
[Result "0-1"]

1. e4 {book} e5 {book} 2. Nf3 {+0.35/12 0.2s} Nc6 {-0.20/11 0.2s} 3. Bb5 {+0.40/12}
a6 {-0.55/10, 0.1s} 4. Bxc6 {+0.30/12} Nf6 {-M5/9} 0-1

[Event "unfinished"]
[Result "*"]

1. d4 {+0.10/5} *
"#,
    )
    .unwrap();
    let out = dir.join("pgn.bin");
    let text = ok(&[
        "datagen",
        "from-pgn",
        s(&pgn),
        "-o",
        s(&out),
        "--skip-plies",
        "2",
    ]);
    assert!(text.contains("games 2 (without a result 1"), "{text}");
    let recs = records(&out);
    // Nf3, Nc6, Bb5, a6 are kept; Bxc6 is a capture; Nf6 has a mate score.
    let scores: Vec<i16> = recs
        .iter()
        .map(trainingdata::TrainingRecord::score)
        .collect();
    assert_eq!(scores, [35, 20, 40, 55]);
    assert!(recs.iter().all(|r| r.result() == RecordResult::BlackWin));
    assert_eq!(
        recs[0].to_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2"
    );
    assert!(text.contains("capture or promotion 1, score 1"), "{text}");
}

#[test]
fn from_pgn_reads_kestrels_own_match_pgn() {
    let dir = scratch("match");
    let pgn = dir.join("match.pgn");
    ok(&[
        "match",
        "-engine",
        "cmd=kestrel",
        "name=a",
        "nodes=3000",
        "-engine",
        "cmd=kestrel",
        "name=b",
        "nodes=3000",
        "-each",
        "option.Hash=8",
        "-games",
        "2",
        "-maxmoves",
        "40",
        "-pgnout",
        s(&pgn),
        "-noprogress",
    ]);
    let out = dir.join("match.bin");
    let text = ok(&[
        "datagen",
        "from-pgn",
        s(&pgn),
        "-o",
        s(&out),
        "--skip-plies",
        "0",
    ]);
    let recs = records(&out);
    assert!(recs.len() > 10, "{text}");
    assert!(recs.iter().all(|r| r.to_position().is_ok()));
}

#[test]
fn genfens_as_command_line_uci_commands_is_deterministic() {
    let run = |command: &str| -> Vec<String> {
        let o = kestrel(&[command, "quit"]);
        assert!(o.status.success(), "{o:?}");
        stdout(&o)
            .lines()
            .filter_map(|l| l.strip_prefix("info string genfens "))
            .map(str::to_string)
            .collect()
    };
    // OpenBench leaves a trailing space when there are no extra words.
    let a = run("genfens 6 seed 5 book None ");
    assert_eq!(a.len(), 6);
    assert_eq!(a, run("genfens 6 seed 5 book None"));
    assert_ne!(a, run("genfens 6 seed 6 book None"));
    for fen in &a {
        assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        assert!(chess::Position::from_fen(fen).is_ok());
    }
    let book = format!("{}/tests/data/lab_openings.epd", env!("CARGO_MANIFEST_DIR"));
    assert_eq!(run(&format!("genfens 3 seed 1 book {book} extra")).len(), 3);

    let missing = kestrel(&["genfens 3 seed 1 book /nonexistent.epd", "quit"]);
    assert!(stdout(&missing)
        .contains("info string error: genfens: cannot read openings file /nonexistent.epd"));

    // Other UCI commands work the same way, and toolkit commands still parse.
    let uci = stdout(&kestrel(&["uci", "quit"]));
    assert!(uci.contains("uciok"), "{uci}");
    let alone = stdout(&common::kestrel_with_input(&["uci"], "isready\n"));
    assert!(
        alone.contains("readyok"),
        "`kestrel uci` reads its input: {alone}"
    );
    let bench = kestrel(&["perft", "2"]);
    assert!(stdout(&bench).contains("Nodes searched: 400"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_finished_games() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = scratch("ctrlc");
    let out = dir.join("stopped.bin");
    let child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .args([
            "datagen",
            "--games",
            "100000",
            "--nodes",
            "300",
            "--threads",
            "2",
            "-o",
            s(&out),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first finished game, then interrupt as Ctrl-C does.
    let t0 = Instant::now();
    while std::fs::metadata(&out).map_or(0, |m| m.len()) == 0 {
        assert!(t0.elapsed() < Duration::from_secs(120), "no game finished");
        std::thread::sleep(Duration::from_millis(50));
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(text.starts_with("stopped: games "), "{text}");
    let claimed: usize = text.split_whitespace().nth(4).unwrap().parse().unwrap();
    assert_eq!(records(&out).len(), claimed);
}

#[test]
fn the_oldest_shards_retire_into_git_history_and_come_back() {
    use std::process::Command;
    use trainingdata::store::Store;

    let dir = scratch("retire");
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .output()
            .expect("git runs");
        assert!(o.status.success(), "git {args:?}: {o:?}");
    };
    git(&["init", "-q"]);
    git(&["commit", "-q", "--allow-empty", "-m", "start"]);
    // A store of the three newest shards of the real one.
    let real = Store::open("selfplay").unwrap().manifest().unwrap();
    let present: Vec<_> = real
        .shards
        .iter()
        .filter(|s| s.retired.is_none())
        .cloned()
        .collect();
    let newest = present[present.len().saturating_sub(3)..].to_vec();
    assert_eq!(newest.len(), 3);
    let root = dir.join("selfplay");
    let store = Store::open(&root).unwrap();
    {
        let writing = store.lock().unwrap();
        for shard in &newest {
            let bytes = std::fs::read(Path::new("selfplay/shards").join(&shard.file)).unwrap();
            assert!(writing.receive(shard, |w| w.write_all(&bytes)).unwrap());
        }
    }
    let keep = format!("{}", newest[2].bytes as f64 / 1e6);
    let retire = |extra: &[&str]| {
        let mut args = vec!["datagen", "retire", "--store", s(&root), "--keep-mb", &keep];
        args.extend_from_slice(extra);
        kestrel(&args)
    };

    // Not committed yet: nothing may go.
    let o = retire(&[]);
    assert!(!o.status.success());
    assert!(
        common::stderr(&o).contains("commit them first"),
        "{}",
        common::stderr(&o)
    );
    assert_eq!(store.shard_paths().unwrap().len(), 3);

    git(&["add", "selfplay"]);
    git(&["commit", "-q", "-m", "three shards"]);
    let said = stdout(&retire(&["--dry-run"]));
    assert!(said.contains("dry run: 2 shards"), "{said}");
    assert_eq!(store.shard_paths().unwrap().len(), 3);
    let said = stdout(&retire(&[]));
    assert!(
        said.contains("retired ") && said.contains("2 shards"),
        "{said}"
    );
    let left = store.shard_paths().unwrap();
    assert_eq!(left, [store.shard_dir().join(&newest[2].file)]);
    assert!(!store.shard_dir().join(&newest[0].file).exists());
    let said = ok(&["datagen", "verify", "--store", s(&root)]);
    assert!(
        said.contains("1 shards") && said.contains("2 retired"),
        "{said}"
    );
    let said = stdout(&retire(&[]));
    assert!(said.contains("nothing to retire"), "{said}");
    git(&["add", "-A", "selfplay"]);
    git(&["commit", "-q", "-m", "retire two"]);

    // Back from history into a store of their own, twice (the second finds them).
    let back = dir.join("restored");
    let said = ok(&["datagen", "restore", s(&back), "--store", s(&root)]);
    assert!(said.contains("2 shards"), "{said}");
    let said = ok(&["datagen", "verify", "--store", s(&back), "--deep"]);
    assert!(
        said.contains("2 shards") && said.contains("0 retired"),
        "{said}"
    );
    let said = ok(&["datagen", "restore", s(&back), "--store", s(&root)]);
    assert!(
        said.contains("0 shards") && said.contains("2 were there"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every conversion between the position formats round-trips (issue 61,
/// item 7): Kestrel records and bullet text both hold the board as it is
/// and go to each other and back unchanged; bullet's `ChessBoard` holds
/// the side to move's board, so it comes back from any format as the same
/// bytes, `stats` calls it side-to-move data and gives the same
/// side-to-move results as the records it came from, and `convert` from it
/// says what it writes.
#[test]
fn conversions_round_trip_and_keep_side_to_move_data_as_such() {
    let dir = scratch("round-trip");
    let shard = {
        let store = trainingdata::store::Store::open("selfplay").unwrap();
        store.shard_paths().unwrap().pop().expect("a shard")
    };
    let convert = |from: &Path, to: &Path| ok(&["datagen", "convert", s(from), "-o", s(to)]);
    let bin = dir.join("a.bin");
    convert(&shard, &bin);
    let records = records(&bin);
    assert!(records.iter().any(|r| r.turn() == chess::Color::Black));
    let (text, bullet) = (dir.join("a.txt"), dir.join("a.bullet"));
    convert(&bin, &text);
    convert(&bin, &bullet);

    // The board as it is: records -> text -> records, unchanged.
    let back = dir.join("back.bin");
    convert(&text, &back);
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&bin).unwrap());
    let back_text = dir.join("back.txt");
    convert(&back, &back_text);
    assert_eq!(
        std::fs::read(&back_text).unwrap(),
        std::fs::read(&text).unwrap()
    );
    // Straight from the games, the same as through the records.
    let direct = dir.join("direct.bullet");
    convert(&shard, &direct);
    assert_eq!(
        std::fs::read(&direct).unwrap(),
        std::fs::read(&bullet).unwrap()
    );
    let from_text = dir.join("from-text.bullet");
    convert(&text, &from_text);
    assert_eq!(
        std::fs::read(&from_text).unwrap(),
        std::fs::read(&bullet).unwrap()
    );

    // The side to move's boards: out and back, the same bytes, and said so.
    for (name, to) in [
        ("relative.bin", "relative.bullet"),
        ("relative.txt", "r2.bullet"),
    ] {
        let out = dir.join(name);
        let said = convert(&bullet, &out);
        assert!(said.contains("side-to-move boards"), "{said}");
        let again = dir.join(to);
        convert(&out, &again);
        assert_eq!(
            std::fs::read(&again).unwrap(),
            std::fs::read(&bullet).unwrap(),
            "{name}"
        );
    }
    assert!(all_white_to_move(&dir.join("relative.bin")));

    let stats_of = |path: &Path| ok(&["datagen", "stats", s(path)]);
    let (of_bin, of_bullet) = (stats_of(&bin), stats_of(&bullet));
    assert!(of_bullet.contains("side to move's data"), "{of_bullet}");
    assert!(!of_bullet.contains("to move  white"), "{of_bullet}");
    assert!(of_bullet.contains("side to move's view"), "{of_bullet}");
    let mover_line = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("results for the side to move"))
            .map(str::to_string)
            .expect("the side to move's results")
    };
    assert_eq!(mover_line(&of_bin), mover_line(&of_bullet));
    assert!(of_bin.contains("to move  white"), "{of_bin}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether every record of `path` has White to move.
fn all_white_to_move(path: &Path) -> bool {
    records(path)
        .iter()
        .all(|r| r.turn() == chess::Color::White)
}
