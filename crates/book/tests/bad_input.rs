//! Damaged book files: truncated or corrupt `.bin`, text books with broken
//! lines. The good part is read, the damage is described, nothing panics.

use book::{polyglot::read_polyglot, text::read_text, Book, Location, DEFAULT_BOOK};
use chess::Position;
use std::path::Path;

#[test]
fn truncated_bin_keeps_every_whole_entry() {
    for cut in [0, 1, 15, 16, 17, 16 * 100 + 7, DEFAULT_BOOK.len() - 1] {
        let (book, problems) = read_polyglot(&DEFAULT_BOOK[..cut]);
        assert_eq!(book.entry_count(), cut / 16, "cut at {cut}");
        assert_eq!(problems.len(), usize::from(cut % 16 != 0), "cut at {cut}");
        if cut % 16 != 0 {
            assert_eq!(problems[0].location, Location::File);
            assert!(problems[0].to_string().contains("truncated"));
        }
    }
}

#[test]
fn corrupt_bin_never_panics_and_keeps_good_entries() {
    // Deterministic pseudo-random damage (xorshift), many seeds.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let start = Position::startpos();
    for _ in 0..200 {
        let mut bytes = DEFAULT_BOOK.to_vec();
        for _ in 0..(next() % 64) {
            let i = (next() as usize) % bytes.len();
            bytes[i] = next() as u8;
        }
        let cut = (next() as usize) % (bytes.len() + 1);
        let (book, _problems) = read_polyglot(&bytes[..cut]);
        // Probing a damaged book only ever yields legal moves.
        for c in book.candidates(&start) {
            assert!(start.is_legal(c.mv));
        }
    }
    // Random bytes: no panic, and an honest count of what was skipped.
    let junk: Vec<u8> = (0..16 * 1000).map(|_| next() as u8).collect();
    let (_, problems) = read_polyglot(&junk);
    assert!(!problems.is_empty());
    assert!(
        problems.len() <= 21,
        "problems are capped: {}",
        problems.len()
    );
}

#[test]
fn text_book_with_broken_lines() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/broken.txt");
    let (book, problems) = Book::open(&path).expect("opens");
    let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let numbers: Vec<Location> = problems.iter().map(|p| p.location).collect();
    assert_eq!(
        numbers,
        [9, 10, 11, 12, 13, 14, 15, 16, 17].map(Location::Line),
        "{lines:#?}"
    );
    assert!(
        lines.iter().all(|l| l.ends_with("line skipped")),
        "{lines:#?}"
    );
    // Lines 4-8 are good: 1.e4 (twice, summed), 1.d4, 1.e4 e5 2.Nf3 Nc6, a FEN line.
    assert_eq!(book.entry_count(), 4);
    let start = Position::startpos();
    let c = book.candidates(&start);
    assert_eq!((c[0].san.as_str(), c[0].weight), ("e4", 15));
    assert_eq!((c[0].wins, c[0].draws, c[0].losses), (3, 4, 5));
}

#[test]
fn binary_junk_as_a_text_book() {
    let mut bytes = b"- | e4 | e2e4 | 3\n".to_vec();
    bytes.extend_from_slice(&[0xff, 0x00, b'|', 0x89, b'\n']);
    bytes.extend_from_slice(b"- | d4\n");
    let (book, problems) = read_text(&String::from_utf8_lossy(&bytes));
    assert_eq!(book.entry_count(), 2);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].location, Location::Line(2));
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let err = Book::open(Path::new("/nonexistent/book.bin")).expect_err("no such file");
    assert!(err.to_string().contains("/nonexistent/book.bin"), "{err}");
}
