//! The 3- and 4-piece tables compiled into Kestrel answer as the same
//! files do from disk (tests/data/syzygy), and answer the endings that
//! folder has not got (KR v KP, KP v KP), every legal move with its value.

use chess::Position;
use engine::{Tablebase, Wdl};
use syzygy::SyzygyTablebase;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/syzygy");

#[test]
fn the_compiled_in_tables_answer_as_the_files_do() {
    let (files, _) = SyzygyTablebase::open(DATA).expect("the test tables");
    let embedded = SyzygyTablebase::embedded();
    assert_eq!(embedded.file_counts(), (35, 35));
    assert_eq!(embedded.max_pieces(), 4);
    for fen in [
        "8/8/8/8/8/8/4P3/4K2k w - - 0 1",
        "8/8/8/8/3k4/8/8/KQ5r w - - 0 1",
        "8/8/4k3/8/8/8/8/KBN5 b - - 0 1",
        "8/8/8/3k4/8/8/8/1R2K1b1 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).expect("fen");
        assert_eq!(embedded.probe_wdl(&pos), files.probe_wdl(&pos), "{fen}");
        assert_eq!(embedded.probe_dtz(&pos), files.probe_dtz(&pos), "{fen}");
        assert_eq!(embedded.probe_moves(&pos), files.probe_moves(&pos), "{fen}");
    }
}

#[test]
fn endings_beyond_the_test_folder_are_answered_move_by_move() {
    let embedded = SyzygyTablebase::embedded();
    // KR v KP: White wins; every legal move listed, the wins first.
    let pos = Position::from_fen("8/8/8/8/8/1k6/1p6/1K2R3 w - - 0 1").expect("fen");
    assert_eq!(embedded.probe_wdl(&pos), Some(Wdl::Win));
    let moves = embedded.probe_moves(&pos).expect("in the tables");
    assert_eq!(moves.len(), pos.legal_moves().len());
    assert_eq!(moves[0].wdl, Wdl::Win);
    // KP v KP.
    let pos = Position::from_fen("8/8/8/3k4/3p4/8/3P4/3K4 w - - 0 1").expect("fen");
    assert!(embedded.probe_wdl(&pos).is_some());
    // Five pieces: not in them.
    let pos = Position::from_fen("8/8/8/3k4/3p4/8/3PP3/3K4 w - - 0 1").expect("fen");
    assert_eq!(embedded.probe_wdl(&pos), None);
}
