//! `kestrel match` against fastchess itself: the same command line, run by
//! both, plays the same openings with the same colours in the same order,
//! and (Kestrel at a fixed node count plays the same game twice) gives the
//! same results, so both print the same Elo, error, pentanomial counts and
//! SPRT log-likelihood ratio. Each case's games are compared one by one:
//! the PGN's `FEN`, `SetUp`, `Variant`, `White`, `Black`, `Result` and
//! `PlyCount` tags, and the final positions `-epdout` writes; Chess960
//! (`-variant fischerandom`) games move for move too.
//! fastchess is found as `$KESTREL_FASTCHESS`, in `../shared/tools/bin/` or
//! on `PATH`; a missing fastchess skips the test outside CI and fails it
//! under CI (see `common::tools`).

mod common;

use std::path::{Path, PathBuf};

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

fn openings() -> String {
    format!(
        "-openings file={}/tests/data/lab_openings.epd format=epd order=sequential",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// One game as the PGN tags say.
#[derive(Debug, PartialEq)]
struct Game {
    white: String,
    black: String,
    fen: String,
    setup: String,
    variant: String,
    result: String,
    plies: String,
}

fn games_of(pgn: &Path) -> Vec<Game> {
    let text = std::fs::read_to_string(pgn).unwrap_or_default();
    let mut games = Vec::new();
    for chunk in text.split("[Event ").skip(1) {
        let tag = |name: &str| {
            let start = format!("[{name} \"");
            chunk
                .lines()
                .find_map(|l| l.strip_prefix(start.as_str()))
                .map(|rest| rest.trim_end_matches("\"]").to_string())
                .unwrap_or_default()
        };
        games.push(Game {
            white: tag("White"),
            black: tag("Black"),
            fen: tag("FEN"),
            setup: tag("SetUp"),
            variant: tag("Variant"),
            result: tag("Result"),
            plies: tag("PlyCount"),
        });
    }
    games
}

/// The value after `key` on the last line holding it: `"Elo: "` gives
/// `"12.34 +/- 5.67"` up to the next comma.
fn last_after(text: &str, key: &str) -> Option<String> {
    let line = text.lines().rev().find(|l| l.contains(key))?;
    let rest = &line[line.find(key)? + key.len()..];
    Some(
        rest.split([',', '('])
            .next()
            .unwrap_or("")
            .split(" lbound")
            .next()
            .unwrap_or("")
            .trim()
            .to_string(),
    )
}

fn run(program: &Path, words: &[String], dir: &Path) -> String {
    let (ok, text) = common::tools::run_in(program, words, dir);
    assert!(ok, "{} failed:\n{text}", program.display());
    text
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "kestrel-fastchess-diff-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs one command line (`words(OUT)`, OUT naming the output files `fc`
/// or `k`) through fastchess and through `kestrel match`: what each printed.
fn run_both(fastchess: &Path, words: impl Fn(&str) -> Vec<String>, dir: &Path) -> (String, String) {
    let fc_text = run(fastchess, &words("fc"), dir);
    let mut k_words = vec!["match".to_string(), "-noprogress".to_string()];
    k_words.extend(words("k"));
    (fc_text, run(Path::new(KESTREL), &k_words, dir))
}

/// fastchess's binary (a missing one skips the test, or fails it under CI).
fn fastchess() -> Option<PathBuf> {
    common::tools::require(
        common::tools::fastchess(),
        "fastchess (../shared/tools/bin/fastchess, or set KESTREL_FASTCHESS)",
    )
}

#[test]
fn kestrel_match_plays_fastchess_schedule_and_prints_its_numbers() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let two = format!(
        "-engine cmd={KESTREL} name=A nodes=300 -engine cmd={KESTREL} name=B nodes=200 \
         -each proto=uci option.OwnBook=false option.Hash=16"
    );
    let three = format!("{two} -engine cmd={KESTREL} name=C nodes=250");
    let four = format!("{three} -engine cmd={KESTREL} name=D nodes=150");
    let o = openings();
    // (engines, the rest of the command line): each row a schedule rule.
    let cases = [
        (&two, format!("{o} -rounds 3")),
        (&two, format!("{o} -rounds 2 -repeat")),
        (&two, format!("{o} -games 1 -rounds 5")),
        (&two, format!("{o} -games 2 -rounds 3 -noswap")),
        (&two, format!("{o} -games 1 -rounds 4 -reverse")),
        (&two, format!("{o} -games 2 -rounds 2 -reverse")),
        (&two, format!("{o} -games 10 -rounds 1")),
        (&two, format!("{o} start=6 -rounds 5")),
        (&two, format!("{o} -rounds 9 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05")),
        (
            &two,
            format!("{o} -rounds 9 -sprt elo0=-5 elo1=5 alpha=0.05 beta=0.05 model=logistic"),
        ),
        (
            &two,
            format!("{o} -games 1 -rounds 12 -sprt elo0=0 elo1=20 alpha=0.05 beta=0.05 model=normalized"),
        ),
        (
            &two,
            format!("{o} -rounds 9 -sprt elo0=0 elo1=20 alpha=0.05 beta=0.05 model=bayesian"),
        ),
        (
            &two,
            format!("{o} -rounds 6 -report penta=false -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05"),
        ),
        (&three, format!("{o} -games 1 -rounds 2")),
        (
            &three,
            format!("{o} -games 2 -rounds 1 -tournament gauntlet"),
        ),
        (&three, format!("{o} -rounds 1 -tournament roundrobin")),
        (
            &four,
            format!("{o} -games 2 -rounds 1 -tournament gauntlet -seeds 2"),
        ),
    ];
    let mut failures = Vec::new();
    for (n, (engines, rest)) in cases.iter().enumerate() {
        let dir = scratch(&n.to_string());
        let words = |out: &str| -> Vec<String> {
            format!("{engines} {rest} -pgnout file={out}.pgn -epdout file={out}.epd")
                .split_whitespace()
                .map(String::from)
                .collect()
        };
        let (fc_text, k_text) = run_both(&fastchess, words, &dir);
        let (fc, k) = (games_of(&dir.join("fc.pgn")), games_of(&dir.join("k.pgn")));
        assert!(
            !fc.is_empty(),
            "case {n}: fastchess wrote no games:\n{fc_text}"
        );
        if fc != k {
            failures.push(format!(
                "case {n} ({rest}): the games differ\nfastchess: {fc:#?}\nkestrel: {k:#?}"
            ));
            continue;
        }
        // -epdout: each game's final position, `FEN hmvc N; fmvn M;`.
        let epd = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        if epd("fc.epd") != epd("k.epd") {
            failures.push(format!(
                "case {n} ({rest}): -epdout differs\nfastchess:\n{}\nkestrel:\n{}",
                epd("fc.epd"),
                epd("k.epd")
            ));
        }
        // With -noswap fastchess counts a pair's games as if colours were
        // swapped (its ScoreBoard::updatePair inverts the first game), so its
        // pentanomial and the Elo from it are wrong there; Kestrel counts
        // each pair from the first engine's view. Only the games are compared.
        if !engines.contains("name=C") && !rest.contains("-noswap") {
            // fastchess: `Elo: 12.34 +/- 5.67, nElo: ...`, `Ptnml(0-2): [..], WL/DD ...`,
            // `LLR: 0.22 (7.6%) ...`; Kestrel: `Elo difference: ...`, `Ptnml(0-2): [..]`, `llr 0.22 (7.6%)`.
            let pairs = [
                (
                    last_after(&fc_text, "Elo: "),
                    last_after(&k_text, "Elo difference: "),
                ),
                (
                    last_after(&fc_text, "Ptnml(0-2): ").map(|p| p.replace(']', "")),
                    last_after(&k_text, "Ptnml(0-2): ").map(|p| p.replace(']', "")),
                ),
                (last_after(&fc_text, "LLR: "), last_after(&k_text, "llr ")),
            ];
            // An unbounded error: fastchess prints the NaN of its formula
            // (`-nan`), Kestrel `inf`.
            let unbounded =
                |t: Option<String>| t.map(|t| t.replace("-nan", "inf").replace("nan", "inf"));
            let pairs = pairs.map(|(f, k)| (unbounded(f), k));
            for (what, (f, k)) in ["Elo", "pentanomial", "LLR"].iter().zip(pairs) {
                // fastchess prints no pentanomial without pairs; Kestrel prints zeros.
                let no_pairs = *what == "pentanomial" && f.is_none();
                if f != k && !no_pairs {
                    failures.push(format!(
                        "case {n} ({rest}): {what}: fastchess {f:?}, kestrel {k:?}\n\
                         fastchess said:\n{fc_text}\nkestrel said:\n{k_text}"
                    ));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Each game's moves as written, and for each engine move the figures its
/// comment gives under fastchess's `-pgnout` keys (`n=`, `sd=`,
/// `hashfull=`, `tbhits=`, `pv=`): the runners' own parts of a comment
/// (score, time, the reason) are left out.
fn movetext_of(pgn: &Path) -> Vec<(Vec<String>, Vec<String>)> {
    let text = std::fs::read_to_string(pgn).unwrap_or_default();
    let keys = ["n=", "sd=", "hashfull=", "tbhits=", "pv="];
    let mut games = Vec::new();
    for chunk in text.split("[Event ").skip(1) {
        // The first line is the rest of the Event tag.
        let body: String = chunk
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        let (mut moves, mut figures) = (Vec::new(), Vec::new());
        let mut rest = body.as_str();
        while let Some(open) = rest.find('{') {
            moves.extend(
                rest[..open]
                    .split_whitespace()
                    .filter(|w| !w.ends_with('.'))
                    .map(String::from),
            );
            let close = open + rest[open..].find('}').expect("a closed comment");
            let comment = &rest[open + 1..close];
            let kept: Vec<&str> = comment
                .split(", ")
                .filter(|part| keys.iter().any(|k| part.starts_with(k)))
                .collect();
            if !kept.is_empty() {
                figures.push(kept.join(", "));
            }
            rest = &rest[close + 1..];
        }
        moves.extend(
            rest.split_whitespace()
                .filter(|w| !w.ends_with('.'))
                .map(String::from),
        );
        games.push((moves, figures));
    }
    games
}

#[test]
fn pgnout_keys_write_what_fastchess_writes() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let dir = scratch("pgnout-keys");
    let words = |out: &str| -> Vec<String> {
        format!(
            "-engine cmd={KESTREL} name=A nodes=300 -engine cmd={KESTREL} name=B nodes=200 \
             -each proto=uci option.OwnBook=false option.Hash=16 {} -rounds 2 \
             -pgnout file={out}.pgn notation=lan nodes=true seldepth=true hashfull=true tbhits=true pv=true",
            openings()
        )
        .split_whitespace()
        .map(String::from)
        .collect()
    };
    let (fc_text, _) = run_both(&fastchess, words, &dir);
    let (fc, k) = (
        movetext_of(&dir.join("fc.pgn")),
        movetext_of(&dir.join("k.pgn")),
    );
    assert_eq!(fc.len(), 4, "fastchess wrote 4 games:\n{fc_text}");
    assert!(
        fc[0].1.len() > 10 && fc[0].1[0].contains("pv=\""),
        "the figures are there: {:?}",
        fc[0].1
    );
    assert!(
        fc[0]
            .0
            .iter()
            .any(|m| m.len() >= 4 && m.as_bytes()[1].is_ascii_digit()),
        "moves in long algebraic: {:?}",
        fc[0].0
    );
    for (i, (f, k)) in fc.iter().zip(&k).enumerate() {
        assert_eq!(f.0, k.0, "game {i}: the moves as written");
        assert_eq!(f.1, k.1, "game {i}: the figures of each move");
    }
    assert_eq!(fc.len(), k.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn variant_fischerandom_plays_and_tags_chess960_as_fastchess_does() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    // Eight Chess960 positions a few moves in, castling near: Shredder-FEN
    // and X-FEN castling fields, and position 518 (king and rooks where
    // standard chess has them, still castling king-takes-rook).
    let book = format!(
        "-openings file={}/tests/data/lab_openings960.epd format=epd order=sequential",
        env!("CARGO_MANIFEST_DIR")
    );
    for (case, notation) in ["san", "uci"].iter().enumerate() {
        let dir = scratch(&format!("frc-{notation}"));
        let words = |out: &str| -> Vec<String> {
            format!(
                "-engine cmd={KESTREL} name=A nodes=300 -engine cmd={KESTREL} name=B nodes=200 \
                 -each proto=uci option.OwnBook=false option.Hash=16 {book} -variant fischerandom \
                 -rounds 8 -pgnout file={out}.pgn notation={notation} -epdout file={out}.epd"
            )
            .split_whitespace()
            .map(String::from)
            .collect()
        };
        let (fc_text, k_text) = run_both(&fastchess, words, &dir);
        let (fc, k) = (games_of(&dir.join("fc.pgn")), games_of(&dir.join("k.pgn")));
        assert_eq!(fc.len(), 16, "fastchess played 16 games:\n{fc_text}");
        assert!(
            fc.iter()
                .all(|g| g.variant == "Chess960" && g.setup == "1" && !g.fen.contains("KQ")),
            "fastchess tags Chess960 games with rook-file castling rights: {fc:#?}"
        );
        assert_eq!(
            fc, k,
            "case {case}: the games' tags\nkestrel said:\n{k_text}"
        );
        let (fc_moves, k_moves) = (
            movetext_of(&dir.join("fc.pgn")),
            movetext_of(&dir.join("k.pgn")),
        );
        // The same games in both notations (fixed nodes): castling in SAN
        // here, king takes rook in UCI there, as fastchess writes it.
        if *notation == "san" {
            assert!(
                fc_moves
                    .iter()
                    .flat_map(|(moves, _)| moves)
                    .any(|m| m.starts_with("O-O")),
                "some game castles, so that castling is compared"
            );
        }
        for (i, (f, k)) in fc_moves.iter().zip(&k_moves).enumerate() {
            assert_eq!(f.0, k.0, "case {case}, game {i}: the moves as written");
        }
        let epd = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        assert_eq!(epd("fc.epd"), epd("k.epd"), "case {case}: -epdout");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The last results block a runner printed between fastchess's dashed lines.
fn last_block(text: &str) -> Vec<String> {
    let dashes = "-".repeat(50);
    let lines: Vec<&str> = text.lines().collect();
    let ends: Vec<usize> = (0..lines.len()).filter(|&i| lines[i] == dashes).collect();
    match ends[..] {
        [.., a, b] => lines[a + 1..b].iter().map(ToString::to_string).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn output_format_fastchess_prints_fastchess_results_block() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let two = format!(
        "-engine cmd={KESTREL} name=A nodes=300 -engine cmd={KESTREL} name=B nodes=200 \
         -each proto=uci option.OwnBook=false option.Hash=16"
    );
    let three = format!("{two} -engine cmd={KESTREL} name=C nodes=250 depth=9");
    let o = openings();
    let cases = [
        format!("{two} {o} -rounds 6 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05"),
        format!("{two} {o} -games 1 -rounds 7"),
        format!("{three} {o} -rounds 2"),
    ];
    for (n, line) in cases.iter().enumerate() {
        let dir = scratch(&format!("output-{n}"));
        let words = |_: &str| -> Vec<String> {
            format!("{line} -output format=fastchess")
                .split_whitespace()
                .map(String::from)
                .collect()
        };
        let (fc_text, k_text) = run_both(&fastchess, words, &dir);
        let fc = last_block(&fc_text);
        assert!(fc.len() >= 2, "case {n}: fastchess's block:\n{fc_text}");
        assert_eq!(
            fc,
            last_block(&k_text),
            "case {n}: the results block\nfastchess said:\n{fc_text}\nkestrel said:\n{k_text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn log_lines_have_fastchess_format() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let dir = scratch("log");
    let words = |out: &str| -> Vec<String> {
        format!(
            "-engine cmd={KESTREL} name=A nodes=300 -engine cmd={KESTREL} name=B nodes=200 \
             -each proto=uci option.OwnBook=false option.Hash=16 {} -rounds 1 \
             -log file={out}.log level=info engine=true",
            openings()
        )
        .split_whitespace()
        .map(String::from)
        .collect()
    };
    run_both(&fastchess, words, &dir);
    // `[Engine] [13:48:32.305074] <     140407403026112>  A <--- uci`: the
    // label, the time, the thread, then the engine's name and the direction.
    let shape = |line: &str| -> Option<(String, String)> {
        let label = line.get(..9)?;
        let time = line.get(9..27)?;
        let thread = line.get(27..50)?;
        let ok = time.starts_with('[')
            && time.ends_with("] ")
            && time.as_bytes()[3] == b':'
            && time.as_bytes()[9] == b'.'
            && thread.starts_with('<')
            && thread.ends_with("> ");
        ok.then(|| (label.to_string(), line[50..].to_string()))
    };
    for name in ["fc.log", "k.log"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        let lines: Vec<(String, String)> = text.lines().filter_map(shape).collect();
        // (fastchess also writes a few empty lines.)
        let written = text.lines().filter(|l| !l.is_empty()).count();
        assert!(written > 20, "{name}: a log:\n{text}");
        assert_eq!(
            lines.len(),
            written,
            "{name}: every line has the prefix:\n{text}"
        );
        let engine: Vec<&String> = lines
            .iter()
            .filter(|(label, _)| label == "[Engine] ")
            .map(|(_, rest)| rest)
            .collect();
        for want in [
            " A <--- uci",
            " A ---> uciok",
            " B <--- ucinewgame",
            " A <--- go nodes 300",
        ] {
            assert!(
                engine
                    .iter()
                    .any(|l| l.as_str() == want || l.starts_with(want)),
                "{name}: a line '{want}'"
            );
        }
        assert!(
            engine.iter().any(|l| l.starts_with(" B ---> bestmove ")),
            "{name}: B's moves"
        );
        assert!(
            lines.iter().any(|(label, _)| label == "[INFO  ] "),
            "{name}: the runner's own messages at level info"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
