//! The PGN reader on real, messy files: exact counts of games and errors,
//! errors with game number, line and text, round trips through the writer.
//!
//! Files under `tests/data/` always run. The larger collections in the
//! project's shared data folder (`../../../shared/data` from this crate, or
//! `$KESTREL_DATA`) are used when present; the tests that need them say so
//! and pass when the folder is missing.

use pgn::{write_game, GameResult, PgnError, PgnGame, PgnReader, ReadOptions};
use std::path::{Path, PathBuf};

fn local(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("KESTREL_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    );
    if dir.join("pgn").is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: shared data folder {} not found (set KESTREL_DATA to run this test)",
            dir.display()
        );
        None
    }
}

fn read(path: &Path, options: ReadOptions) -> (Vec<PgnGame>, Vec<PgnError>) {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for item in PgnReader::open(path, options).expect("file opens") {
        match item {
            Ok(g) => games.push(g),
            Err(e) => errors.push(e),
        }
    }
    (games, errors)
}

/// (file, good games, bad games): python-chess reads the same games and finds
/// the same 4 ambiguous moves; the 4 variant games are rejected by design.
const MESSY: &[(&str, usize, usize)] = &[
    ("immortal-games-annotated.pgn", 32, 4),
    ("variations-nags-and-comments.pgn", 1, 0),
    ("python-chess/anastasian-lewis.pgn", 1, 0),
    ("python-chess/antichess-programfox.pgn", 0, 2),
    ("python-chess/chessbase-empty-line.pgn", 1, 0),
    ("python-chess/cutechess-fischerrandom.pgn", 4, 0),
    ("python-chess/kasparov-deep-blue-1997.pgn", 6, 0),
    ("python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 0, 1),
    ("python-chess/molinari-bordais-1979.pgn", 1, 0),
    ("python-chess/nepomniachtchi-liren-game1.pgn", 1, 0),
    ("python-chess/saturs-jannlee-zh-lichess.pgn", 0, 1),
    ("python-chess/stockfish-learning.pgn", 1, 0),
    ("python-chess/uci-moves.pgn", 1, 0),
    ("python-chess/utf8-bom.pgn", 2, 0),
];

#[test]
fn messy_files_exact_counts() {
    for &(name, good, bad) in MESSY {
        let (games, errors) = read(&local(name), ReadOptions::default());
        assert_eq!(
            (games.len(), errors.len()),
            (good, bad),
            "{name}: {errors:?}"
        );
    }
}

#[test]
fn ambiguous_moves_are_reported_like_python_chess() {
    let (_, errors) = read(
        &local("immortal-games-annotated.pgn"),
        ReadOptions::default(),
    );
    let found: Vec<(usize, usize, &str)> = errors
        .iter()
        .map(|e| (e.game, e.line, e.text.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (1, 17, "Nd7"),
            (17, 1139, "Rf8"),
            (25, 1537, "Rd1"),
            (34, 2185, "Nd7")
        ]
    );
    assert!(errors[0]
        .to_string()
        .contains("'Nd7' is ambiguous: it could be Nfd7 or Nbd7"));
}

#[test]
fn broken_games_are_skipped_and_reading_goes_on() {
    let (games, errors) = read(&local("broken.pgn"), ReadOptions::default());
    let events: Vec<&str> = games.iter().filter_map(|g| g.tag("Event")).collect();
    assert_eq!(events, ["good 1", "good 2", "good 3, truncated"]);
    assert_eq!(games[0].result, GameResult::WhiteWins);
    assert_eq!(games[2].result, GameResult::Unknown);
    assert_eq!(games[2].moves.len(), 3);
    let found: Vec<(usize, usize)> = errors.iter().map(|e| (e.game, e.line)).collect();
    assert_eq!(found, [(2, 9), (3, 13), (4, 17), (6, 24)]);
    assert_eq!(errors[0].text, "Ke3");
    assert!(errors[1].text.starts_with("\\0"), "{}", errors[1].text);
    assert!(errors[2].to_string().contains("never closed"));
}

#[test]
fn variations_nags_and_comments_are_kept() {
    let (games, _) = read(
        &local("variations-nags-and-comments.pgn"),
        ReadOptions::default(),
    );
    let g = &games[0];
    let variations: usize = g.moves.iter().map(|m| m.variations.len()).sum();
    let nags: usize = g.moves.iter().map(|m| m.nags.len()).sum();
    assert!(variations > 0 && nags > 0, "{g:?}");
    assert_eq!(g.result, GameResult::Unknown);
}

/// Read -> write -> read gives the same games, and writing is stable.
fn assert_round_trip(path: &Path) {
    let (games, _) = read(path, ReadOptions::default());
    let mut text = String::new();
    for g in &games {
        let written = write_game(g);
        assert!(
            written
                .lines()
                .all(|l| l.starts_with('[') || l.chars().count() <= 80 || !l.contains(' ')),
            "line over 80 columns in {}:\n{written}",
            path.display()
        );
        text.push_str(&written);
    }
    let back: Vec<PgnGame> = PgnReader::new(text.as_bytes())
        .map(|g| g.expect("written games read back"))
        .collect();
    assert_eq!(back.len(), games.len(), "{}", path.display());
    for (a, b) in games.iter().zip(&back) {
        assert_eq!(a.moves, b.moves, "{}", path.display());
        assert_eq!((a.start, a.result), (b.start, b.result));
        for (name, value) in a.tags.iter().filter(|(n, _)| n != "Result") {
            assert_eq!(b.tag(name), Some(value.as_str()), "tag {name}");
        }
        assert_eq!(write_game(a), write_game(b));
    }
}

#[test]
fn round_trips_of_local_files() {
    for &(name, _, _) in MESSY {
        assert_round_trip(&local(name));
    }
}

#[test]
fn round_trips_and_counts_of_shared_files() {
    let Some(data) = shared() else { return };
    let lichess = data.join("pgn/messy/lichess_db_1000k.pgn");
    let (games, errors) = read(&lichess, ReadOptions::default());
    assert_eq!((games.len(), errors.len()), (438, 0));
    let clocks = games
        .iter()
        .flat_map(|g| &g.moves)
        .filter(|m| m.comments.iter().any(|c| c.contains("%clk")))
        .count();
    assert_eq!(clocks, 28_538);
    assert_round_trip(&lichess);
    let mut total = (0, 0);
    for entry in std::fs::read_dir(data.join("pgn/messy/notnil-fixtures")).expect("dir") {
        let path = entry.expect("entry").path();
        let (g, e) = read(&path, ReadOptions::default());
        total.0 += g.len();
        total.1 += e.len();
        assert_round_trip(&path);
    }
    assert_eq!(total, (29, 0));
}

#[test]
fn masters_exact_counts() {
    let Some(data) = shared() else { return };
    let (mut games, mut errors, mut plies) = (0, 0, 0);
    let mut files: Vec<PathBuf> = std::fs::read_dir(data.join("pgn/masters"))
        .expect("masters folder")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for path in files {
        for item in PgnReader::open(&path, ReadOptions::mainline()).expect("opens") {
            match item {
                Ok(g) => {
                    games += 1;
                    plies += g.moves.len();
                }
                Err(e) => {
                    eprintln!("{}: {e}", path.display());
                    errors += 1;
                }
            }
        }
    }
    // The counts python-chess gives (shared/data/SOURCES.md).
    assert_eq!((games, errors, plies), (12_883, 0, 1_083_171));
}

#[test]
#[cfg(all(feature = "gzip", feature = "zstd", feature = "bzip2"))]
fn compressed_input_reads_the_same_games() {
    use std::io::Write;
    let plain = std::fs::read(local("immortal-games-annotated.pgn")).expect("read");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&plain).expect("gzip");
    let gz = gz.finish().expect("gzip");
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(&plain).expect("bzip2");
    let bz = bz.finish().expect("bzip2");
    let zst =
        ruzstd::encoding::compress_to_vec(&plain[..], ruzstd::encoding::CompressionLevel::Fastest);
    for bytes in [gz, bz, zst] {
        let reader = pgn::decompress(std::io::Cursor::new(bytes)).expect("decompress");
        let items: Vec<_> = PgnReader::new(reader).collect();
        assert_eq!(items.iter().filter(|i| i.is_ok()).count(), 32);
        assert_eq!(items.len(), 36);
    }
}

#[test]
#[cfg(feature = "gzip")]
fn truncated_compressed_input_reports_a_read_error() {
    use std::io::Write;
    let plain = std::fs::read(local("immortal-games-annotated.pgn")).expect("read");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&plain).expect("gzip");
    let mut gz = gz.finish().expect("gzip");
    gz.truncate(gz.len() / 2);
    let reader = pgn::decompress(std::io::Cursor::new(gz)).expect("header is fine");
    let items: Vec<_> = PgnReader::new(reader).collect();
    let last = items
        .last()
        .expect("some items")
        .as_ref()
        .expect_err("read error last");
    assert!(matches!(last.kind, pgn::PgnErrorKind::Io(_)), "{last}");
    assert!(items.iter().filter(|i| i.is_ok()).count() > 5);
}

/// What the fuzz target (fuzz/fuzz_targets/pgn.rs) checks, on the inputs it
/// once failed on (tests/data/fuzz/): read with each option set, every game
/// written and read back the same.
#[test]
fn former_fuzz_failures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    for entry in std::fs::read_dir(dir).expect("fuzz folder") {
        let data = std::fs::read(entry.expect("entry").path()).expect("read");
        for options in [
            ReadOptions::default(),
            ReadOptions::mainline(),
            ReadOptions {
                max_plies: Some(3),
                ..ReadOptions::mainline()
            },
        ] {
            for game in PgnReader::with_options(&data[..], options).flatten() {
                let text = write_game(&game);
                let back: Vec<_> = PgnReader::with_options(text.as_bytes(), options).collect();
                assert_eq!(back.len(), 1, "{text}");
                let back = back[0].as_ref().expect("written game reads back");
                assert_eq!(back.moves, game.moves, "{text}");
            }
        }
    }
}

/// Issue 64, item 12: files that each start with a byte-order mark, put
/// one after the other (`cat a.pgn b.pgn`), have one in the middle of the
/// stream; the splitter dropped it only at the stream's start, so the next
/// game's tags read as movetext and that game was lost. Every reader (the
/// streaming reader and the blocks book building cuts) reads every game.
#[test]
fn a_byte_order_mark_between_concatenated_files_starts_the_next_game() {
    let one = "\u{feff}[Event \"one\"]\n\n1. e4 e5 *\n";
    let two = "\u{feff}[Event \"two\"]\n\n1. d4 d5 2. c4 *\n";
    let three = "\u{feff}1. Nf3 *\n";
    for text in [
        format!("{one}\n{two}\n{three}"),
        format!("{one}{two}{three}"),
        format!("{one}\r\n{two}\r\n{three}"),
    ] {
        let items: Vec<_> = PgnReader::new(text.as_bytes()).collect();
        let events: Vec<_> = items
            .iter()
            .map(|g| {
                g.as_ref()
                    .map(|g| (g.tag("Event").map(String::from), g.moves.len()))
            })
            .collect();
        assert_eq!(
            events,
            [
                Ok((Some("one".to_string()), 2)),
                Ok((Some("two".to_string()), 3)),
                Ok((None, 1))
            ],
            "{text:?}"
        );
        // Book building's blocks, plain games read in place.
        let mut plies = Vec::new();
        for block in pgn::Blocks::with_size(text.as_bytes(), 1) {
            let block = block.expect("in-memory read");
            let mut cursor = block.games();
            while let Some(game) = cursor.next_game(None, &mut |_, _| {}) {
                match game {
                    pgn::BlockGame::Plain(line) => plies.push(Ok(line.plies)),
                    pgn::BlockGame::Raw(raw) => plies.extend(
                        pgn::parse_games(&raw, ReadOptions::mainline())
                            .into_iter()
                            .map(|g| g.map(|g| g.moves.len()).map_err(|e| e.to_string())),
                    ),
                }
            }
        }
        assert_eq!(plies, [Ok(2), Ok(3), Ok(1)], "{text:?}");
    }
}
