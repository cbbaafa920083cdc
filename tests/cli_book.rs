//! `kestrel pgn ...` and `kestrel book ...` as people and scripts use them.

use std::path::{Path, PathBuf};

mod common;

use common::{kestrel, stderr, stdout};

fn pgn_data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/pgn/tests/data")
        .join(name)
        .display()
        .to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn pgn_stats_counts_games_and_errors() {
    let o = kestrel(&["pgn", "stats", &pgn_data("broken.pgn")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("games      3\n"), "{out}");
    assert!(out.contains("errors     4\n"), "{out}");
    assert!(out.contains("1-0 1  0-1 0  1/2-1/2 1  * 1"), "{out}");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 4, "{err}");
    assert!(err.contains("game 2, line 9, at 'Ke3'"), "{err}");
}

#[test]
fn book_build_probe_convert_dump() {
    let dir = temp_dir("book");
    let bin = dir.join("b.bin");
    let txt = dir.join("b.txt");
    let bin2 = dir.join("b2.bin");
    let o = kestrel(&[
        "book",
        "build",
        "--quiet",
        "--pgn",
        &pgn_data("immortal-games-annotated.pgn"),
        &pgn_data("python-chess/kasparov-deep-blue-1997.pgn"),
        "--out",
        &bin.display().to_string(),
        "--max-ply",
        "200",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("games             38\n"), "{out}");
    assert!(out.contains("bad games         4\n"), "{out}");
    assert!(out.contains("games/s"), "{out}");

    let o = kestrel(&["book", "probe", &bin.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nkey 463b96181691fc9c\n"
        ),
        "{out}"
    );
    assert!(out.contains("e4       e2e4"), "{out}");

    let o = kestrel(&[
        "book",
        "convert",
        &bin.display().to_string(),
        &txt.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = kestrel(&[
        "book",
        "convert",
        &txt.display().to_string(),
        &bin2.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&bin).unwrap(), std::fs::read(&bin2).unwrap());

    let o = kestrel(&["book", "dump", &bin.display().to_string()]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), std::fs::read_to_string(&txt).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn probe_the_built_in_book_and_pick() {
    let o = kestrel(&[
        "book",
        "probe",
        "--moves",
        "e4 e5 Nf3",
        "--pick",
        "best",
        "--seed",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Nc6"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("best: "), "{out}");
}

#[test]
fn bad_input_exits_with_one_clear_line() {
    for args in [
        &["book", "probe", "--fen", "not a fen"][..],
        &["book", "probe", "--moves", "e4 e4"][..],
        &["book", "probe", "/nonexistent.bin"][..],
        &["book", "probe", "--pick", "bestest"][..],
        &["pgn", "stats", "/nonexistent.pgn"][..],
        &[
            "book",
            "build",
            "--pgn",
            "/nonexistent.pgn",
            "--out",
            "/tmp/x.bin",
        ][..],
    ] {
        let o = kestrel(args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn book_explore_shows_the_masters_and_a_collection_of_ones_own() {
    // The shipped master games: 1.e4 c5 2.Nf3 is the main line, every
    // move's games add up to the position's, and a top game prints as PGN.
    let o = kestrel(&["book", "explore", "--moves", "e4 c5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().skip(2).collect();
    assert!(rows[0].starts_with("Nf3 "), "{out}");
    let games = |row: &str| -> u32 {
        row.split_whitespace()
            .nth(2)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let all = out
        .lines()
        .find(|l| l.starts_with("all "))
        .expect("a total line");
    let total: u32 = all
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("total");
    let sum: u32 = rows
        .iter()
        .take_while(|l| !l.starts_with("all "))
        .map(|r| games(r))
        .sum();
    assert_eq!(sum, total, "{out}");
    assert!(
        stderr(&o).contains("games indexed to ply 60"),
        "{}",
        stderr(&o)
    );
    let top = out
        .lines()
        .skip_while(|l| !l.starts_with("top games"))
        .nth(1)
        .expect("a top game");
    let id = top.split_whitespace().next().expect("its number");
    let o = kestrel(&["book", "explore", "--game", id]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pgn = stdout(&o);
    assert!(
        pgn.starts_with("[Event ") && pgn.contains("1. e4 c5"),
        "{pgn}"
    );
    // The ply limit holds for the shipped games too.
    let o = kestrel(&["book", "explore", "--moves", "e4 e5", "--max-ply", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no game of the collection reached this position"),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("indexed to ply 2"), "{}", stderr(&o));
    let o = kestrel(&["book", "explore", "--game", "4000000000"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("numbered from 0"), "{}", stderr(&o));

    // One's own games: two files read one after the other, broken games
    // counted and left out, the ply limit obeyed.
    let o = kestrel(&[
        "book",
        "explore",
        "--pgn",
        &pgn_data("immortal-games-annotated.pgn"),
        &pgn_data("python-chess/kasparov-deep-blue-1997.pgn"),
        "--max-ply",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("games indexed to ply 2") && err.contains("unreadable left out"),
        "{err}"
    );
    let o = kestrel(&[
        "book",
        "explore",
        "--pgn",
        &pgn_data("python-chess/kasparov-deep-blue-1997.pgn"),
        "--moves",
        "e4 e5",
        "--max-ply",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no game of the collection reached this position"),
        "{}",
        stdout(&o)
    );
    let o = kestrel(&["book", "explore", "--pgn", "/dev/zero"]);
    assert!(!o.status.success(), "a device is refused");
}
