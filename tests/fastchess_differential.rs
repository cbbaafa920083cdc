//! `kestrel match` against fastchess itself: the same command line, run by
//! both, plays the same openings with the same colours in the same order,
//! and (Kestrel at a fixed node count plays the same game twice) gives the
//! same results, so both print the same Elo, error, pentanomial counts and
//! SPRT log-likelihood ratio. Each case's games are compared one by one:
//! the PGN's `FEN`, `White`, `Black`, `Result` and `PlyCount` tags, and
//! the final positions `-epdout` writes.
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
