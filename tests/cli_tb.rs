//! Tablebases through the `kestrel` binary: `kestrel tb probe` and the UCI
//! options, with the tables in `tests/data/syzygy` (and broken paths).

mod common;

use common::{kestrel_with_input as kestrel, stdout};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

#[test]
fn tb_probe_prints_wdl_dtz_and_the_best_move() {
    // KQvK with Black to move: lost in 18 plies to zeroing (python-chess agrees).
    let o = kestrel(
        &[
            "tb",
            "probe",
            "--fen",
            "8/8/8/4k3/8/8/8/2K4Q b - - 0 1",
            "--syzygy-path",
            TABLES,
        ],
        "",
    );
    assert!(o.status.success(), "{o:?}");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "WDL: -2", "{out}");
    assert_eq!(lines[1], "DTZ: -18", "{out}");
    assert!(lines[2].starts_with("Best move: "), "{out}");
    // KPvK: only Kf4 wins.
    let o = kestrel(
        &[
            "tb",
            "probe",
            "--fen",
            "8/8/5k2/8/8/1P4K1/8/8 w - - 0 1",
            "--syzygy-path",
            TABLES,
        ],
        "",
    );
    let out = stdout(&o);
    assert!(
        out.starts_with("WDL: 2\nDTZ: 17\nBest move: g3f4 (Kf4)\n"),
        "{out}"
    );
}

#[test]
fn tb_probe_refuses_what_it_cannot_answer() {
    for (args, expected) in [
        (
            vec!["--fen", "8/8/8/4k3/8/8/8/2K4Q b - - 0 1"],
            "--syzygy-path",
        ),
        (
            vec![
                "--fen",
                "8/8/8/4k3/8/8/8/2K4Q b - - 0 1",
                "--syzygy-path",
                "/no/such/dir",
            ],
            "no Syzygy table",
        ),
        (
            vec![
                "--fen",
                "8/8/4k3/8/3r4/5n2/8/2K4Q w - - 0 1",
                "--syzygy-path",
                TABLES,
            ],
            "5 pieces",
        ),
        (
            vec!["--fen", "not a fen", "--syzygy-path", TABLES],
            "bad --fen",
        ),
        (
            vec![
                "--fen",
                "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
                "--syzygy-path",
                TABLES,
            ],
            "castling",
        ),
    ] {
        let mut all = vec!["tb", "probe"];
        all.extend(args);
        let o = kestrel(&all, "");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains(expected),
            "{all:?}: {err}"
        );
    }
}

#[test]
fn uci_loads_tables_and_reports_tbhits() {
    let input = format!(
        "uci\nsetoption name SyzygyPath value {TABLES}\nposition fen 8/8/4k3/8/3r4/5n2/8/2K4Q w - - 0 1\ngo depth 8\n"
    );
    let out = stdout(&kestrel(&[], &input));
    for option in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Syzygy50MoveRule type check default true",
    ] {
        assert!(out.contains(option), "{option}: {out}");
    }
    assert!(
        out.contains("info string Syzygy: 8 WDL and 8 DTZ tables, up to 4 pieces"),
        "{out}"
    );
    let last_info = out.lines().rfind(|l| l.starts_with("info depth 8 "));
    let hits: u64 = last_info
        .and_then(|l| l.split(" tbhits ").nth(1))
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(hits > 0, "{out}");
    assert!(out.contains("bestmove h1f3"), "{out}");
}

#[test]
fn uci_plays_on_without_broken_tables() {
    let input = "setoption name SyzygyPath value /no/such/dir\nposition fen 8/8/4k3/8/3r4/8/8/2K4Q w - - 0 1\ngo depth 4\nsetoption name SyzygyPath value <empty>\ngo depth 4\n";
    let out = stdout(&kestrel(&[], input));
    assert!(
        out.contains("info string error: Syzygy: no Syzygy table (.rtbw/.rtbz) found in '/no/such/dir'; playing without tablebases"),
        "{out}"
    );
    assert_eq!(out.matches("bestmove ").count(), 2, "{out}");
}
