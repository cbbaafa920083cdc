//! Hostile PGN given to book building (issue 44): variations nested a
//! million deep build like any game, and the time grows linearly with the
//! length of a comment or a tag value.

use book::{build_from_pgn, BuildOptions};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Writes `text` to a fresh file in the temporary directory.
fn file(name: &str, text: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "kestrel-book-hostile-{}-{name}.pgn",
        std::process::id()
    ));
    std::fs::write(&path, text).expect("temporary file");
    path
}

/// Builds a book from `text`: (games, bad games) and the time taken.
fn build(name: &str, text: &[u8]) -> ((u64, u64), Duration) {
    let path = file(name, text);
    let start = Instant::now();
    let (_, summary) = build_from_pgn(
        std::slice::from_ref(&path),
        &BuildOptions::default(),
        &|_| {},
    )
    .expect("the file reads");
    let time = start.elapsed();
    std::fs::remove_file(&path).ok();
    ((summary.games, summary.bad_games), time)
}

const NEXT: &[u8] = b"\n\n[Event \"next\"]\n\n1. d4 d5 *\n";

#[test]
fn a_million_nested_variations_build() {
    let mut text = b"[Event \"deep\"]\n\n1. e4 ".to_vec();
    for _ in 0..1_000_000 {
        text.extend_from_slice(b"(1. d4 ");
    }
    text.extend(std::iter::repeat_n(b')', 1_000_000));
    text.extend_from_slice(b" e5 *");
    text.extend_from_slice(NEXT);
    let (counts, _) = build("deep", &text);
    assert_eq!(counts, (2, 0), "variations are skipped, both games read");
}

#[test]
fn time_is_linear_in_comment_and_tag_length() {
    for (what, head, tail) in [
        ("comment", &b"[Event \"a\"]\n\n1. e4 {"[..], &b"} e5 *"[..]),
        ("tag", &b"[Annotator \""[..], &b"\"]\n\n1. e4 e5 *"[..]),
    ] {
        let game = |len: usize| {
            let mut text = head.to_vec();
            text.resize(head.len() + len, b'x');
            text.extend_from_slice(tail);
            text.extend_from_slice(NEXT);
            text
        };
        let (counts, _) = build(what, &game(2 << 20));
        assert_eq!(counts, (2, 0), "{what} of 2 MiB");
        // The fastest of three: other tests and programs on the machine
        // only ever slow a run down, so the minimum is the cost of the work.
        // Both sizes stay under `pgn::MAX_GAME_BYTES` (16 MiB): a longer game
        // is skipped unkept, another path with another cost a byte (about
        // 1.5 ns a byte kept, 11 ns skipped, both linear up to 80 MiB), and
        // a comparison across it would measure the two paths, not the growth.
        let fastest = |len| (0..3).map(|_| build(what, &game(len)).1).min();
        let (short, long) = (
            fastest(1 << 20).expect("runs"),
            fastest(10 << 20).expect("runs"),
        );
        eprintln!("{what}: 1 MiB {short:.2?}, 10 MiB {long:.2?}");
        // Linear is 10 times; quadratic would be 100.
        assert!(
            long < short * 25 + Duration::from_millis(50),
            "{what}: 1 MiB {short:?}, 10 MiB {long:?}"
        );
    }
}

#[test]
fn a_book_file_must_be_a_regular_file() {
    let fifo = std::env::temp_dir().join(format!("kestrel-book-fifo-{}", std::process::id()));
    let mut cases = vec![
        ("/dev/zero".into(), "a character device"),
        (PathBuf::from("/"), "a directory"),
    ];
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        cases.push((fifo.clone(), "a FIFO"));
    }
    for (path, what) in cases {
        // Refused without reading: opened on a thread, so that a read that
        // blocks (a FIFO with no writer) fails the test at the deadline
        // instead of hanging it.
        let (tx, rx) = std::sync::mpsc::channel();
        let opened = path.clone();
        std::thread::spawn(move || {
            let book = book::Book::open(&opened)
                .map(|_| ())
                .map_err(|e| e.to_string());
            let own = book::OwnBook::new(true)
                .load(&opened.display().to_string())
                .map_err(|e| e.to_string());
            let _ = tx.send((book, own));
        });
        let (book, own) = rx
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("{what}: the open blocked"));
        let e = book.expect_err("refused");
        assert!(
            e.contains(what) && e.contains(&path.display().to_string()),
            "{e}"
        );
        let e = own.expect_err("refused");
        assert!(e.contains(what), "{e}");
    }
    std::fs::remove_file(&fifo).ok();
}

/// Issue 64, item 9: each bad game's error kept its whole token (up to
/// 16 MiB), so that a few hundred megabytes of bad games held gigabytes.
/// Errors now quote a short excerpt, and at most `max_errors_kept` of them
/// are kept, however many games are bad.
#[test]
fn bad_games_keep_short_errors_in_a_capped_list() {
    let token = "x".repeat(64 << 10);
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!("[Event \"{i}\"]\n\n1. e4 N{token} *\n\n"));
    }
    text.push_str("[Event \"good\"]\n\n1. d4 d5 *\n");
    let path = file("long-errors", text.as_bytes());
    let options = BuildOptions::default();
    let (_, summary) =
        build_from_pgn(std::slice::from_ref(&path), &options, &|_| {}).expect("the file reads");
    std::fs::remove_file(&path).ok();
    assert_eq!((summary.games, summary.bad_games), (1, 300));
    assert!(
        summary.errors.len() <= options.max_errors_kept,
        "{} errors kept",
        summary.errors.len()
    );
    let longest = summary
        .errors
        .iter()
        .map(|(_, e)| e.to_string().len() + e.text.len())
        .max()
        .unwrap_or(0);
    assert!(longest < 1000, "an error of {longest} bytes");
}
