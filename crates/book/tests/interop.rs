//! Interoperability with files and programs no one here wrote: GNU Chess's
//! Polyglot book (Debian package `gnuchess-book`) probed by Kestrel and by
//! python-chess's `chess.polyglot`, and a book Kestrel writes read back by
//! python-chess. Each test says why it skips when a tool is missing
//! (`.ci/run` installs them); under CI a missing tool fails the test (see
//! `tests/common/tools.rs`).

#[path = "../../../tests/common/tools.rs"]
mod tools;

use book::{polyglot::write_polyglot, Book};
use chess::Position;
use std::path::{Path, PathBuf};
use std::process::Command;

const GNU_BOOK: &str = "/usr/share/games/gnuchess/book.bin";

fn python_chess() -> bool {
    tools::require_python_chess("chess.polyglot")
}

fn gnu_book() -> Option<PathBuf> {
    let path = Path::new(GNU_BOOK);
    tools::require(
        path.is_file().then(|| path.to_path_buf()),
        &format!("{GNU_BOOK} (apt-get install gnuchess-book)"),
    )
}

/// Runs a python-chess script with the book path and FENs as arguments; its stdout.
fn run_python(script: &str, book: &Path, fens: &[String]) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(book)
        .args(fens)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// python-chess's entries for each FEN, as "uci weight" lines per position.
fn python_probe(book: &Path, fens: &[String]) -> Vec<Vec<(String, u32)>> {
    let script = r#"
import sys, chess, chess.polyglot
with chess.polyglot.open_reader(sys.argv[1]) as reader:
    for fen in sys.argv[2:]:
        board = chess.Board(fen)
        print(" ".join(f"{e.move.uci()}:{e.weight}" for e in reader.find_all(board)))
"#;
    run_python(script, book, fens)
        .lines()
        .map(|line| {
            let mut v: Vec<(String, u32)> = line
                .split_whitespace()
                .map(|t| {
                    let (m, w) = t.split_once(':').expect("move:weight");
                    (m.to_string(), w.parse().expect("weight"))
                })
                .collect();
            v.sort();
            v
        })
        .collect()
}

fn kestrel_probe(book: &Book, fen: &str) -> Vec<(String, u32)> {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let mut v: Vec<(String, u32)> = book
        .candidates(&pos)
        .into_iter()
        .map(|c| (c.uci, c.weight))
        .collect();
    v.sort();
    v
}

/// Positions after some common openings, castling and a promotion-free middlegame.
fn probe_positions() -> Vec<String> {
    let lines = [
        "",
        "e4",
        "e4 c5",
        "d4 Nf6 c4 e6",
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6",
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7",
        "c4 e5 Nc3 Nf6 Nf3 Nc6",
        "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5",
    ];
    lines
        .iter()
        .map(|line| {
            let mut pos = Position::startpos();
            for san in line.split_whitespace() {
                let m = pos.parse_san(san).expect("legal");
                pos.play_unchecked(m);
            }
            pos.fen()
        })
        .collect()
}

#[test]
fn gnu_chess_book_probes_like_python_chess() {
    let (Some(path), true) = (gnu_book(), python_chess()) else {
        return;
    };
    let (book, problems) = Book::open(&path).expect("GNU Chess book opens");
    assert!(problems.is_empty(), "{problems:?}");
    let fens = probe_positions();
    let theirs = python_probe(&path, &fens);
    let mut nonempty = 0;
    for (fen, expected) in fens.iter().zip(theirs) {
        let ours = kestrel_probe(&book, fen);
        assert_eq!(ours, expected, "{fen}");
        nonempty += usize::from(!ours.is_empty());
    }
    assert!(
        nonempty >= 6,
        "the GNU book should know most of these positions"
    );
    // Every entry was read: 16 bytes each.
    let size = std::fs::metadata(&path).expect("metadata").len() as usize;
    assert_eq!(book.entry_count(), size / 16);
}

#[test]
fn python_chess_reads_the_books_kestrel_writes() {
    if !python_chess() {
        return;
    }
    let book = Book::embedded();
    let dir = std::env::temp_dir().join(format!("kestrel-interop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("default.bin");
    std::fs::write(&path, write_polyglot(&book)).expect("write");
    // Every entry, as python-chess iterates the file: key, raw move, weight.
    let script = r#"
import sys, chess.polyglot
with chess.polyglot.open_reader(sys.argv[1]) as reader:
    n = 0
    for e in reader:
        n += 1
    print(n)
    for fen in sys.argv[2:]:
        print(" ".join(f"{e.move.uci()}:{e.weight}" for e in sorted(reader.find_all(chess.Board(fen)), key=lambda e: e.move.uci())))
"#;
    let fens = probe_positions();
    let stdout = run_python(script, &path, &fens);
    let mut lines = stdout.lines();
    let count: usize = lines.next().expect("count").parse().expect("number");
    assert_eq!(count, book.entry_count());
    for (fen, line) in fens.iter().zip(lines) {
        let ours: Vec<String> = kestrel_probe(&book, fen)
            .into_iter()
            .map(|(m, w)| format!("{m}:{w}"))
            .collect();
        assert_eq!(ours.join(" "), line, "{fen}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gnu_chess_book_survives_conversion_to_text_and_back() {
    let Some(path) = gnu_book() else { return };
    let (book, _) = Book::open(&path).expect("opens");
    let text = book::text::write_text(&book);
    assert_eq!(text.left_out, 0, "every move of GNU Chess's book is legal");
    let (back, problems) = book::text::read_text(&text.text);
    assert!(
        problems.is_empty(),
        "{:?}",
        &problems[..problems.len().min(5)]
    );
    let entries = |b: &Book| -> Vec<(u64, u16, u32)> {
        let mut v: Vec<(u64, u16, u32)> = b
            .iter()
            .flat_map(|(k, ms)| ms.iter().map(move |m| (k, m.mv.0, m.weight)))
            .collect();
        v.sort_unstable();
        v
    };
    assert_eq!(entries(&back), entries(&book));
}
