//! `kestrel match` against fastchess itself: the same command line, run by
//! both, plays the same games. Kestrel at a fixed node count plays the same
//! game twice, so every game must come out the same: the openings (in order,
//! `order=random -srand N` and `start=` too), colours, moves, results and
//! the plies where `-draw`, `-resign` (one- and two-sided, mate scores
//! included) and `-maxmoves` end them; and both print the same Elo, error,
//! pentanomial counts and SPRT log-likelihood ratio, at the same
//! `-ratinginterval`s, in `-output format=fastchess` and `format=cutechess`.
//! An engine that crashes (a script that relays to Kestrel and dies at its
//! Nth `go`) stops both runs at the same game without `-recover`, and with
//! it both restart the engine and play the same games on.
//!
//! Each case's PGN files are compared as text, with only the documented
//! differences allowed (docs/lab.md, "fastchess's options in `kestrel
//! match`"): what the clock measures (`GameDuration`, `GameStartTime`,
//! `GameEndTime`, each move's time) and fastchess's `ECO` and `Opening`
//! tags, from its own table of openings; so the tags (`Round`,
//! `EngineWhiteName`, `PlyCount`, `Termination`, ...), the moves, each
//! move's score and depth and the reason after the last move are compared
//! as fastchess writes them. The final positions `-epdout` writes are
//! compared too, and Chess960 (`-variant fischerandom`) games move for move.
//! fastchess is found as `$KESTREL_FASTCHESS`, in `../shared/tools/bin/` or
//! on `PATH`; a missing fastchess skips the test outside CI and fails it
//! under CI (see `common::tools`), and so does a missing python3 for the
//! crashing engine.

mod common;

use std::path::{Path, PathBuf};

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

/// The `Event` tag both write (fastchess's own default is "Fastchess
/// Tournament", Kestrel's "?": a documented difference).
const EVENT: &str = "-event differential";

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

/// The PGN file at `path` with what may differ between two runs masked:
/// the clock's tags and times (`0.004s`), and fastchess's `ECO` and
/// `Opening` tags, which Kestrel does not write.
fn comparable_pgn(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("[ECO ") || line.starts_with("[Opening ") {
            continue;
        }
        let timed = ["[GameDuration ", "[GameStartTime ", "[GameEndTime "];
        if let Some(tag) = timed.iter().find(|t| line.starts_with(**t)) {
            out.push_str(tag);
            out.push_str("\"T\"]\n");
            continue;
        }
        out.push_str(&mask_seconds(line));
        out.push('\n');
    }
    out
}

/// `12.345s` as `#.###s` wherever it stands.
fn mask_seconds(line: &str) -> String {
    let b = line.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let tail = &b[i + digits..];
        let starts_number = i == 0 || !b[i - 1].is_ascii_digit();
        if digits > 0
            && starts_number
            && tail.len() >= 5
            && tail[0] == b'.'
            && tail[1..4].iter().all(u8::is_ascii_digit)
            && tail[4] == b's'
        {
            out.push_str("#.###s");
            i += digits + 5;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The first difference of two PGN texts, with a few lines around it.
fn first_difference(fc: &str, k: &str) -> Option<String> {
    let (a, b): (Vec<&str>, Vec<&str>) = (fc.lines().collect(), k.lines().collect());
    let at = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
    let around = |v: &[&str]| v[at.saturating_sub(3)..(at + 3).min(v.len())].join("\n");
    Some(format!(
        "line {}:\nfastchess:\n{}\nkestrel:\n{}",
        at + 1,
        around(&a),
        around(&b)
    ))
}

/// Runs one command line (`words(OUT)`, OUT naming the output files `fc`
/// or `k`) through fastchess and through `kestrel match`: what each printed.
fn run_both(fastchess: &Path, words: impl Fn(&str) -> Vec<String>, dir: &Path) -> (String, String) {
    let fc_text = run(fastchess, &words("fc"), dir);
    let mut k_words = vec!["match".to_string(), "-noprogress".to_string()];
    k_words.extend(words("k"));
    (fc_text, run(Path::new(KESTREL), &k_words, dir))
}

/// As [`run_both`], for runs that may fail: whether each succeeded, and
/// what it printed.
fn run_both_anyway(
    fastchess: &Path,
    words: impl Fn(&str) -> Vec<String>,
    dir: &Path,
) -> ((bool, String), (bool, String)) {
    let fc = common::tools::run_in(fastchess, &words("fc"), dir);
    let mut k_words = vec!["match".to_string(), "-noprogress".to_string()];
    k_words.extend(words("k"));
    (fc, common::tools::run_in(Path::new(KESTREL), &k_words, dir))
}

/// Runs each command line (`engines` then a case) through both, writing
/// `-pgnout` and `-epdout`, and returns what differed: the PGN text (as
/// [`comparable_pgn`] leaves it) or the final positions. `setup` prepares
/// each case's directory (a book, an engine script).
fn differing_games(
    fastchess: &Path,
    name: &str,
    engines: &str,
    cases: &[String],
    setup: impl Fn(&Path),
) -> Vec<String> {
    let mut failures = Vec::new();
    for (n, rest) in cases.iter().enumerate() {
        let dir = scratch(&format!("{name}-{n}"));
        setup(&dir);
        let words = |out: &str| -> Vec<String> {
            format!("{engines} {rest} {EVENT} -pgnout file={out}.pgn -epdout file={out}.epd")
                .split_whitespace()
                .map(String::from)
                .collect()
        };
        let (fc_text, _) = run_both(fastchess, words, &dir);
        let (fc, k) = (
            comparable_pgn(&dir.join("fc.pgn")),
            comparable_pgn(&dir.join("k.pgn")),
        );
        assert!(
            fc.contains("[Event "),
            "{name} {n}: fastchess wrote no games:\n{fc_text}"
        );
        if let Some(difference) = first_difference(&fc, &k) {
            failures.push(format!(
                "{name} {n} ({rest}): the PGN differs at {difference}"
            ));
        }
        let epd = |file: &str| std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        if epd("fc.epd") != epd("k.epd") {
            failures.push(format!("{name} {n} ({rest}): -epdout differs"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    failures
}

/// Four short openings as PGN games, for `format=pgn plies=N`.
const BOOK_PGN: &str = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n\n\
    [Event \"b\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O *\n\n\
    [Event \"c\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n\n\
    [Event \"d\"]\n\n1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5 *\n";

fn write_book(dir: &Path) {
    std::fs::write(dir.join("book.pgn"), BOOK_PGN).unwrap();
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
            format!("{engines} {rest} {EVENT} -pgnout file={out}.pgn -epdout file={out}.epd")
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
        let (fc_pgn, k_pgn) = (
            comparable_pgn(&dir.join("fc.pgn")),
            comparable_pgn(&dir.join("k.pgn")),
        );
        if let Some(difference) = first_difference(&fc_pgn, &k_pgn) {
            failures.push(format!(
                "case {n} ({rest}): the PGN differs at {difference}"
            ));
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
            // `LLR: 0.22 (7.6%) ...`; Kestrel's default: `Elo difference: ...`,
            // `Ptnml(0-2): [..]`, `SPRT: llr 0.22 (7.6%) ...` (the same numbers:
            // both count pairs).
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
             -each proto=uci option.OwnBook=false option.Hash=16 {} -rounds 2 {EVENT} \
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
    let (fc_pgn, k_pgn) = (
        comparable_pgn(&dir.join("fc.pgn")),
        comparable_pgn(&dir.join("k.pgn")),
    );
    if let Some(difference) = first_difference(&fc_pgn, &k_pgn) {
        panic!("the PGN differs at {difference}");
    }
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
                 -rounds 8 {EVENT} -pgnout file={out}.pgn notation={notation} -epdout file={out}.epd"
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
        let (fc_pgn, k_pgn) = (
            comparable_pgn(&dir.join("fc.pgn")),
            comparable_pgn(&dir.join("k.pgn")),
        );
        if let Some(difference) = first_difference(&fc_pgn, &k_pgn) {
            panic!("case {case}: the PGN differs at {difference}");
        }
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

#[test]
fn draw_resign_and_maxmoves_end_games_on_fastchess_s_plies() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let engines = |a: u32, b: u32| {
        format!(
            "-engine cmd={KESTREL} name=A nodes={a} -engine cmd={KESTREL} name=B nodes={b} \
             -each proto=uci option.OwnBook=false option.Hash=8 option.Threads=1"
        )
    };
    let o = openings();
    // The issue's command line: fastchess starts the draw's run afresh at
    // each capture or pawn move (its game 7 is drawn at ply 107, not 101).
    let repro = [format!(
        "{o} -rounds 8 -draw movenumber=20 movecount=4 score=20 \
         -resign movecount=3 score=300 -maxmoves 60"
    )];
    let mut failures = differing_games(&fastchess, "repro", &engines(2000, 1500), &repro, |_| {});
    let cases = [
        // Two-sided: decisive scores of either sign, the last mover's sign.
        format!("{o} -rounds 8 -resign movecount=3 score=300 twosided=true"),
        // Mate scores count for resign (and break the draw's run).
        format!("{o} -rounds 8 -resign movecount=2 score=20000 twosided=true"),
        // The run is counted from the start, the draw called from move N.
        format!("{o} -rounds 8 -draw movenumber=0 movecount=2 score=30"),
        format!(
            "{o} -rounds 8 -draw movenumber=30 movecount=3 score=10 \
             -resign movecount=4 score=500 twosided=true -maxmoves 70"
        ),
        // -maxmoves counts the engines' moves, not the book's.
        "-openings file=book.pgn format=pgn order=sequential plies=6 -rounds 4 -maxmoves 15 \
         -resign movecount=2 score=400"
            .to_string(),
    ];
    failures.extend(differing_games(
        &fastchess,
        "adjudication",
        &engines(1000, 700),
        &cases,
        write_book,
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn order_random_takes_fastchess_s_openings_for_a_seed() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let engines = format!(
        "-engine cmd={KESTREL} name=A nodes=300 -engine cmd={KESTREL} name=B nodes=200 \
         -each proto=uci option.OwnBook=false option.Hash=8"
    );
    let epd = format!(
        "-openings file={}/tests/data/lab_openings.epd format=epd order=random",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases = [
        format!("{epd} -srand 7 -rounds 5"),
        format!("{epd} start=3 -srand 12345678901234567890 -rounds 6"),
        format!("{epd} -srand 1 -games 1 -rounds 8"),
        "-openings file=book.pgn format=pgn order=random plies=4 -srand 3 -rounds 3".to_string(),
    ];
    let failures = differing_games(&fastchess, "random", &engines, &cases, write_book);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every results block a runner printed between fastchess's dashed lines.
fn blocks(text: &str) -> Vec<Vec<String>> {
    let dashes = "-".repeat(50);
    let lines: Vec<&str> = text.lines().collect();
    let marks: Vec<usize> = (0..lines.len()).filter(|&i| lines[i] == dashes).collect();
    marks
        .chunks(2)
        .filter(|m| m.len() == 2)
        .map(|m| {
            lines[m[0] + 1..m[1]]
                .iter()
                .map(ToString::to_string)
                .collect()
        })
        .collect()
}

/// cutechess's result lines as fastchess's cutechess output prints them.
fn cutechess_lines(text: &str) -> Vec<&str> {
    let kinds = ["Finished game ", "Score of ", "Elo difference: ", "SPRT: "];
    text.lines()
        .filter(|l| kinds.iter().any(|k| l.starts_with(k)))
        .collect()
}

#[test]
fn rating_interval_prints_where_fastchess_prints() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let two = format!(
        "-engine cmd={KESTREL} name=A nodes=300 -engine cmd={KESTREL} name=B nodes=200 \
         -each proto=uci option.OwnBook=false option.Hash=8 {}",
        openings()
    );
    let sprt = "-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05";
    // fastchess's block every N game pairs (games with -games 1), and at the end.
    let blocks_cases = [
        format!("{two} -rounds 7 -ratinginterval 3 {sprt} -output format=fastchess"),
        format!("{two} -rounds 21 -output format=fastchess"),
        format!("{two} -games 1 -rounds 7 -ratinginterval 2 -output format=fastchess"),
    ];
    // cutechess's lines: the score every game, Elo and SPRT every N games
    // (the cutechess output counts single games, as fastchess's does).
    let line_cases = [
        format!(
            "{two} -rounds 7 -ratinginterval 3 {sprt} -output format=cutechess -scoreinterval 1"
        ),
        format!("{two} -rounds 5 -ratinginterval 4 -output format=cutechess -scoreinterval 2"),
    ];
    let mut failures = Vec::new();
    for (n, line) in blocks_cases.iter().chain(&line_cases).enumerate() {
        let dir = scratch(&format!("interval-{n}"));
        let words =
            |_: &str| -> Vec<String> { line.split_whitespace().map(String::from).collect() };
        let (fc_text, k_text) = run_both(&fastchess, words, &dir);
        let same = if n < blocks_cases.len() {
            let fc = blocks(&fc_text);
            assert!(fc.len() >= 2, "case {n}: fastchess's blocks:\n{fc_text}");
            fc == blocks(&k_text)
        } else {
            let fc = cutechess_lines(&fc_text);
            assert!(
                fc.iter().any(|l| l.starts_with("Elo difference")),
                "case {n}: fastchess's lines:\n{fc_text}"
            );
            fc == cutechess_lines(&k_text)
        };
        if !same {
            failures.push(format!(
                "case {n} ({line}):\nfastchess said:\n{fc_text}\nkestrel said:\n{k_text}"
            ));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A UCI engine that relays to Kestrel and dies at its `argv[2]`-th `go`
/// (counted from its start, so a restarted one dies again as many moves on).
const CRASHING_ENGINE: &str = r#"import os, subprocess, sys, threading
child = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
crash_at, gos = int(sys.argv[2]), 0
def relay():
    for line in child.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
threading.Thread(target=relay, daemon=True).start()
for line in sys.stdin:
    if line.startswith("go"):
        gos += 1
        if gos == crash_at:
            print("info string about to crash", flush=True)
            child.kill()
            os._exit(3)
    child.stdin.write(line)
    child.stdin.flush()
    if line.strip() == "quit":
        child.wait()
        break
"#;

#[test]
fn a_crash_stops_the_run_unless_recover_restarts_the_engine() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let Some(python) = common::tools::require(common::tools::find_program("python3"), "python3")
    else {
        return;
    };
    for recover in [false, true] {
        let dir = scratch(&format!("crash-{recover}"));
        let script = dir.join("crashing.py");
        std::fs::write(&script, CRASHING_ENGINE).unwrap();
        let words_of =
            |text: String| -> Vec<String> { text.split_whitespace().map(String::from).collect() };
        let mut line = words_of(format!(
            "-engine cmd={KESTREL} name=A nodes=1000 -engine cmd={} name=B nodes=700",
            python.display()
        ));
        // The relay's arguments as one word, for fastchess's args= (kestrel
        // match splits it at spaces as fastchess does).
        line.push(format!("args={} {KESTREL} 25", script.display()));
        line.extend(words_of(format!(
            "-each proto=uci option.OwnBook=false option.Hash=8 {} -rounds 4 {EVENT}",
            openings()
        )));
        if recover {
            line.push("-recover".to_string());
        }
        let words = |out: &str| -> Vec<String> {
            let mut w = line.clone();
            w.push("-pgnout".to_string());
            w.push(format!("file={out}.pgn"));
            w
        };
        let ((fc_ok, fc_text), (k_ok, k_text)) = run_both_anyway(&fastchess, words, &dir);
        let finished = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| l.starts_with("Finished game "))
                .map(String::from)
                .collect()
        };
        let context =
            format!("-recover {recover}\nfastchess said:\n{fc_text}\nkestrel said:\n{k_text}");
        assert!(
            finished(&fc_text)
                .iter()
                .any(|l| l.ends_with("disconnects}")),
            "the engine crashed: {context}"
        );
        assert_eq!(finished(&fc_text), finished(&k_text), "{context}");
        assert_eq!((fc_ok, k_ok), (recover, recover), "{context}");
        let stop = "Game 1 stalled / disconnected and no recover option set for engine, \
                    stopping tournament.";
        assert_eq!(fc_text.contains(stop), !recover, "{context}");
        assert_eq!(k_text.contains(stop), !recover, "{context}");
        let (fc, k) = (
            comparable_pgn(&dir.join("fc.pgn")),
            comparable_pgn(&dir.join("k.pgn")),
        );
        // Without -recover, the crashed game is counted and not written.
        assert_eq!(fc.contains("[Event "), recover, "{context}");
        if let Some(difference) = first_difference(&fc, &k) {
            panic!("the PGN differs at {difference}\n{context}");
        }
        if !recover {
            assert!(
                k_text.contains("the process ended: exit status: 3"),
                "{context}"
            );
            assert!(k_text.contains("info string about to crash"), "{context}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
