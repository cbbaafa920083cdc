//! Missing, partial and damaged table sets: each problem is reported
//! clearly, probes that need a bad table answer "unknown" (and say why,
//! once), everything else keeps working, and nothing panics.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use chess::Position;
use engine::Tablebase;
use syzygy::{OpenError, Problem, SyzygyTablebase};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/syzygy");

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-syzygy-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy(dir: &Path, names: &[&str]) {
    for name in names {
        fs::copy(Path::new(DATA).join(name), dir.join(name)).unwrap();
    }
}

fn open(dir: &Path) -> (SyzygyTablebase, Vec<Problem>) {
    SyzygyTablebase::open(dir.to_str().unwrap()).expect("some tables")
}

#[test]
fn no_tables_at_all() {
    let dir = scratch("none");
    fs::write(dir.join("README.txt"), "not a table").unwrap();
    let e = SyzygyTablebase::open(dir.to_str().unwrap()).err().unwrap();
    assert!(matches!(e, OpenError::NoTables(_)));
    assert!(e.to_string().contains("no Syzygy table"), "{e}");
    let e = SyzygyTablebase::open("/no/such/dir").err().unwrap();
    assert!(matches!(e, OpenError::NoTables(_)));
}

#[test]
fn several_directories_and_a_missing_one() {
    let a = scratch("a");
    let b = scratch("b");
    copy(&a, &["KQvK.rtbw", "KQvK.rtbz"]);
    copy(&b, &["KRvK.rtbw", "KRvK.rtbz"]);
    let sep = if cfg!(windows) { ";" } else { ":" };
    let path = format!("{}{sep}/no/such/dir{sep}{}", a.display(), b.display());
    let (tables, problems) = SyzygyTablebase::open(&path).unwrap();
    assert_eq!(tables.file_counts(), (2, 2));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(matches!(problems[0], Problem::Directory { .. }));
    let krk = Position::from_fen("8/8/8/4k3/8/8/8/2K4R w - - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&krk), Some(engine::Wdl::Win));
}

#[test]
fn partial_set_is_reported_and_probes_fail_softly() {
    let dir = scratch("partial");
    copy(&dir, &["KQvKR.rtbw", "KQvKR.rtbz", "KQvK.rtbw"]);
    let (tables, problems) = open(&dir);
    let text: Vec<String> = problems
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert!(
        text.iter().any(|t| t.contains("KQvKR needs KRvK")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("KQvK.rtbw has no KQvK.rtbz")),
        "{text:?}"
    );
    // The rook can take the queen: the probe needs KRvK, which is missing.
    let pos = Position::from_fen("8/8/8/4k3/8/1K6/8/3r2Q1 b - - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&pos), None);
    let failures = tables.take_failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("KRvK"), "{failures:?}");
    // Said once.
    assert_eq!(tables.probe_wdl(&pos), None);
    assert!(tables.take_failures().is_empty());
}

#[test]
fn bad_files_are_skipped_with_a_reason() {
    let dir = scratch("bad");
    copy(&dir, &["KRvK.rtbw", "KRvK.rtbz"]);
    // Truncated: not 16 + 64 n bytes.
    let mut bytes = fs::read(Path::new(DATA).join("KQvK.rtbw")).unwrap();
    bytes.truncate(100);
    fs::write(dir.join("KQvK.rtbw"), &bytes).unwrap();
    // Right size, wrong magic bytes.
    fs::write(dir.join("KBvK.rtbw"), [0u8; 80]).unwrap();
    let (tables, problems) = open(&dir);
    assert_eq!(tables.file_counts(), (1, 1));
    let text: Vec<String> = problems
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert!(
        text.iter()
            .any(|t| t.contains("KQvK.rtbw") && t.contains("size")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("KBvK.rtbw") && t.contains("magic")),
        "{text:?}"
    );
}

/// Issue 64, item 11: a FIFO named like a table was opened to read its
/// magic bytes, and the open waited for a writer for ever (in the engine,
/// `quit` too went unread). Only regular files are opened now: the FIFO is
/// skipped with a reason, at once, and the other tables are used.
#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_table_is_skipped_without_waiting() {
    let dir = scratch("fifo");
    copy(&dir, &["KQvK.rtbw", "KQvK.rtbz"]);
    let fifo = dir.join("KNvK.rtbw");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo is missing: skipped");
        return;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let path = dir.to_str().unwrap().to_string();
    std::thread::spawn(move || {
        let opened = SyzygyTablebase::open(&path).map(|(tables, problems)| {
            let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
            (tables.file_counts(), problems)
        });
        let _ = tx.send(opened.map_err(|e| e.to_string()));
    });
    let opened = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the tables open without waiting for the FIFO");
    let (counts, problems) = opened.expect("KQvK is usable");
    assert_eq!(counts, (1, 1));
    assert!(
        problems
            .iter()
            .any(|p| p.contains("KNvK.rtbw") && p.contains("a FIFO (named pipe)")),
        "{problems:?}"
    );
    fs::remove_dir_all(&dir).ok();
}

/// Every answer about `pos`: WDL, DTZ, the recommended move, every move's verdict.
type Answers = (
    Option<engine::Wdl>,
    Option<i32>,
    Option<(chess::Move, i32)>,
    Option<Vec<syzygy::MoveVerdict>>,
);

fn answers(tables: &SyzygyTablebase, pos: &Position) -> Answers {
    (
        tables.probe_wdl(pos),
        tables.probe_dtz(pos),
        tables.best_move(pos),
        tables.probe_moves(pos),
    )
}

#[test]
fn damaged_tables_answer_legal_moves_or_unknown() {
    // Keep the header, scramble the rest, and probe every kind of position.
    let positions: Vec<Position> = [
        "8/8/8/4k3/8/8/8/2K4R w - - 0 1",
        "8/8/8/4k3/8/8/8/2K4R b - - 0 1",
        "7R/8/8/8/8/2k5/8/K7 w - - 0 1",
        "k7/8/1K6/8/8/8/8/7R b - - 0 1",
        "8/8/3k4/8/8/8/3K4/7R w - - 0 1",
    ]
    .iter()
    .map(|f| Position::from_fen(f).unwrap())
    .collect();
    // The intact pair answers everything about these positions: an unknown
    // below comes from the damage.
    let intact = scratch("intact");
    copy(&intact, &["KRvK.rtbw", "KRvK.rtbz"]);
    let (tables, _) = open(&intact);
    for pos in &positions {
        let (wdl, dtz, best, moves) = answers(&tables, pos);
        assert!(
            wdl.is_some() && dtz.is_some() && best.is_some() && moves.is_some(),
            "{}",
            pos.fen()
        );
    }
    assert!(tables.take_failures().is_empty());
    let _ = fs::remove_dir_all(&intact);

    let original = fs::read(Path::new(DATA).join("KRvK.rtbz")).unwrap();
    let wdl = fs::read(Path::new(DATA).join("KRvK.rtbw")).unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for round in 0..40 {
        let dir = scratch(&format!("damaged{round}"));
        let mut w = wdl.clone();
        let mut z = original.clone();
        for bytes in [&mut w, &mut z] {
            for b in bytes.iter_mut().skip(4) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Damage some bytes in each round, more in later rounds.
                if seed % 64 < round as u64 + 1 {
                    *b = (seed >> 32) as u8;
                }
            }
        }
        fs::write(dir.join("KRvK.rtbw"), &w).unwrap();
        fs::write(dir.join("KRvK.rtbz"), &z).unwrap();
        let (tables, _) = open(&dir);
        let mut unknown = false;
        for pos in &positions {
            let fen = pos.fen();
            let (wdl, dtz, best, moves) = answers(&tables, pos);
            // Damaged tables may give wrong values, but never a move that
            // cannot be played: the engine would play it.
            if let Some((m, _)) = best {
                assert!(pos.is_legal(m), "round {round}, {fen}: {m:?}");
            }
            if let Some(moves) = &moves {
                // Each legal move once, nothing else.
                let got: HashSet<_> = moves.iter().map(|v| v.mv).collect();
                let legal: HashSet<_> = pos.legal_moves().iter().copied().collect();
                assert_eq!(moves.len(), legal.len(), "round {round}, {fen}");
                assert_eq!(got, legal, "round {round}, {fen}");
            }
            unknown |= wdl.is_none() || dtz.is_none() || best.is_none() || moves.is_none();
        }
        // An unknown answer about a position the tables hold says why.
        let failures = tables.take_failures();
        assert_eq!(unknown, !failures.is_empty(), "round {round}: {failures:?}");
        let _ = fs::remove_dir_all(&dir);
    }
}
