//! Hostile input to the `kestrel` binary (issue 44), each case under a time
//! limit: a PGN nested a million levels deep, devices and FIFOs where a
//! file is meant, non-finite training numbers, `go nodes 0`. The library
//! crates' own `tests/hostile.rs` measure memory and time more closely.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// A fresh scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-abuse-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Runs `kestrel ARGS` with `stdin`, killed after `limit`: its output and
/// whether it ended by itself in time.
fn run(args: &[&str], stdin: &str, limit: Duration) -> (Output, bool) {
    common::kestrel_within(args, stdin, limit)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// `1. e4 (1. d4 (1. d4 ... ) ) e5 *` nested a million levels, then a good game.
fn deep_pgn(dir: &Path) -> PathBuf {
    let mut pgn = b"[Event \"deep\"]\n\n1. e4 ".to_vec();
    for _ in 0..1_000_000 {
        pgn.extend_from_slice(b"(1. d4 ");
    }
    pgn.extend(std::iter::repeat_n(b')', 1_000_000));
    pgn.extend_from_slice(b" e5 *\n\n[Event \"next\"]\n\n1. d4 d5 *\n");
    let path = dir.join("deep.pgn");
    std::fs::write(&path, pgn).expect("written");
    path
}

#[test]
fn a_million_nested_variations_in_every_pgn_command() {
    let dir = scratch("deep");
    let pgn = deep_pgn(&dir);
    let limit = Duration::from_secs(60);
    // pgn stats aborted with a stack overflow (rc 134).
    let (out, in_time) = run(&["pgn", "stats", s(&pgn)], "", limit);
    assert!(in_time && out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("games      1") && stdout.contains("errors     1"),
        "{stdout}"
    );
    assert!(
        text(&out.stderr).contains("nested deeper than 256"),
        "{out:?}"
    );
    let (out, in_time) = run(&["pgn", "stats", "--mainline", s(&pgn)], "", limit);
    assert!(in_time && out.status.success(), "{out:?}");
    assert!(text(&out.stdout).contains("games      2"), "{out:?}");
    // Book building and datagen from-pgn read main lines: both games.
    let book = dir.join("deep.bin");
    let (out, in_time) = run(
        &["book", "build", "--pgn", s(&pgn), "--out", s(&book)],
        "",
        limit,
    );
    assert!(in_time && out.status.success(), "{out:?}");
    let records = dir.join("deep-records.bin");
    let (out, in_time) = run(
        &["datagen", "from-pgn", s(&pgn), "-o", s(&records)],
        "",
        limit,
    );
    assert!(in_time && out.status.success(), "{out:?}");
    assert!(text(&out.stdout).contains("games 2"), "{out:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn devices_fifos_and_directories_are_refused_at_once() {
    let dir = scratch("devices");
    let fifo = dir.join("fifo");
    let mut paths = vec![
        ("/dev/zero".to_string(), "a character device"),
        ("/".to_string(), "a directory"),
    ];
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        paths.push((s(&fifo).to_string(), "a FIFO"));
    }
    let limit = Duration::from_secs(20);
    let out_bin = dir.join("out.bin");
    for (path, what) in &paths {
        // UCI: answered at once, and the engine stays responsive.
        for option in ["EvalFile", "BookFile"] {
            let (out, in_time) = run(
                &[],
                &format!("setoption name {option} value {path}\nisready\nquit\n"),
                limit,
            );
            let stdout = text(&out.stdout);
            assert!(
                in_time && stdout.contains("readyok"),
                "{option} {path}: {out:?}"
            );
            assert!(stdout.contains(what), "{option} {path}: {stdout}");
        }
        if *what == "a directory" {
            // A directory is a book probe's error, but a training-data
            // store to datagen and train (its shards are read).
            let (out, in_time) = run(&["book", "probe", path.as_str()], "", limit);
            assert!(in_time && !out.status.success(), "{out:?}");
            assert!(text(&out.stderr).contains(what), "{out:?}");
            continue;
        }
        for args in [
            vec!["book", "probe", path.as_str()],
            vec!["datagen", "stats", path.as_str()],
            vec!["datagen", "merge", s(&out_bin), path.as_str()],
            vec!["datagen", "shuffle", path.as_str(), s(&out_bin)],
            vec!["train", path.as_str(), "--out", s(&dir), "--epochs", "1"],
        ] {
            let (out, in_time) = run(&args, "", limit);
            assert!(in_time && !out.status.success(), "{args:?}: {out:?}");
            let stderr = text(&out.stderr);
            assert!(
                stderr.contains(what) && stderr.contains(path.as_str()),
                "{args:?}: {stderr}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `kestrel pgn stats /dev/zero` read for ever (in bounded memory): the
/// PGN readers now take a file or a pipe and refuse a device at once.
#[test]
fn pgn_readers_refuse_devices_and_read_pipes() {
    let dir = scratch("pgn-devices");
    let limit = Duration::from_secs(20);
    let book = dir.join("book.bin");
    let records = dir.join("records.bin");
    for args in [
        vec!["pgn", "stats", "/dev/zero"],
        vec!["book", "build", "--pgn", "/dev/zero", "--out", s(&book)],
        vec!["datagen", "from-pgn", "--out", s(&records), "/dev/zero"],
    ] {
        let (out, in_time) = run(&args, "", limit);
        assert!(in_time && !out.status.success(), "{args:?}: {out:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("a character device") && stderr.contains("/dev/zero"),
            "{args:?}: {stderr}"
        );
    }
    // A pipe is a stream to read to its end, as `<(zcat games.pgn.gz)` gives one.
    let fifo = dir.join("games.pgn");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(&fifo, "1. e4 e5 *\n\n1. d4 d5 *\n"))
        };
        let (out, in_time) = run(&["pgn", "stats", s(&fifo)], "", limit);
        writer.join().expect("writer").expect("written");
        assert!(in_time && out.status.success(), "{out:?}");
        assert!(text(&out.stdout).contains("games      2"), "{out:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn train_refuses_non_finite_numbers() {
    let dir = scratch("train");
    for (flag, value) in [
        ("--lr", "nan"),
        ("--lr", "inf"),
        ("--weight-decay", "nan"),
        ("--final-lr", "nan"),
    ] {
        let (out, in_time) = run(
            &["train", "never-read.bin", "--out", s(&dir), flag, value],
            "",
            Duration::from_secs(20),
        );
        assert!(in_time && !out.status.success(), "{flag} {value}: {out:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(flag) && stderr.contains("must be"),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn go_nodes_and_mate_below_one_are_refused_and_every_bestmove_is_scored() {
    let (out, in_time) = run(
        &[],
        "position startpos\ngo nodes 0\ngo mate -3\nisready\ngo nodes 1\nisready\nquit\n",
        Duration::from_secs(20),
    );
    assert!(in_time, "{out:?}");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("'go nodes' needs a number of 1 or more"),
        "{stdout}"
    );
    assert!(
        stdout.contains("'go mate' needs a number of 1 or more"),
        "{stdout}"
    );
    let mut scored = false;
    let mut answers = 0;
    for line in stdout.lines() {
        if line.starts_with("info ") && line.contains(" score ") {
            scored = true;
        }
        if line.starts_with("bestmove ") {
            assert!(scored, "no scored line before '{line}' in:\n{stdout}");
            scored = false;
            answers += 1;
        }
    }
    assert_eq!(answers, 3, "{stdout}");
}
