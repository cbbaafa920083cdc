//! The `kestrel` command line as outside tools use it.

mod common;

use common::{kestrel_with_input as kestrel, stdout};

#[test]
fn perft_prints_the_node_count_last() {
    let o = kestrel(&["perft", "4"], "");
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 197281"));
}

#[test]
fn perft_divide_lists_root_moves() {
    let o = kestrel(&["perft", "2", "--divide"], "");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21, "{out}");
    assert!(lines.contains(&"e2e4: 20"));
    assert_eq!(lines[20], "Nodes searched: 400");
}

#[test]
fn perft_chess960_writes_king_takes_rook() {
    let fen = "1r2k2r/8/8/8/8/8/8/1R2K2R w HBhb - 0 1";
    let o = kestrel(&["perft", "1", "--divide", "--fen", fen], "");
    let out = stdout(&o);
    assert!(out.contains("e1h1: 1") && out.contains("e1b1: 1"), "{out}");
    let o = kestrel(
        &[
            "perft",
            "1",
            "--divide",
            "--fen",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        ],
        "",
    );
    assert!(stdout(&o).contains("e1g1: 1"));
}

#[test]
fn bad_fen_exits_non_zero_with_one_clear_line() {
    let o = kestrel(&["perft", "2", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: ") && err.contains("kings"), "{err}");
}

#[test]
fn default_mode_speaks_uci() {
    let o = kestrel(
        &[],
        "uci\nisready\nposition startpos moves e2e4\ngo perft 1\nquit\n",
    );
    let out = stdout(&o);
    assert!(out.contains("id name Kestrel"));
    assert!(out.contains("uciok") && out.contains("readyok"));
    assert!(out.contains("Nodes searched: 20"), "{out}");
}

#[test]
fn gui_refuses_a_games_memory_that_cannot_be() {
    for (mib, says) in [
        ("0", "need at least 32 MiB"),
        ("999999999", "available now"),
    ] {
        let o = kestrel(&["gui", "--port", "0", "--games-memory", mib], "");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(says), "{mib}: {err}");
    }
}
