//! The opening book file (`BookFile`, `book probe`, `gui --book`): any
//! bytes, read as the format they look like and as each format. Nothing may
//! panic; a book read must write out and read back as the same book (as
//! text: less the entries the writer says it left out, moves illegal in a
//! position it knows), and every move it offers in a position it knows must
//! be legal there.
#![no_main]

use book::{read_book, Book, Format};
use libfuzzer_sys::fuzz_target;

fn same(a: &Book, b: &Book) {
    assert_eq!(a.position_count(), b.position_count());
    assert_eq!(a.entry_count(), b.entry_count());
    for key in a.sorted_keys() {
        assert_eq!(a.moves(key).len(), b.moves(key).len(), "key {key:016x}");
    }
}

fuzz_target!(|data: &[u8]| {
    for format in [Format::sniff(data), Format::Polyglot, Format::Text] {
        let (book, _problems) = read_book(data, format);
        let (back, problems) = read_book(&book::polyglot::write_polyglot(&book), Format::Polyglot);
        assert!(problems.is_empty(), "{problems:?}");
        same(&book, &back);
        // The text holds every entry but the moves illegal in a position
        // the writer knows (a line names its move by SAN there), and says
        // how many it left out.
        let text = book::text::write_text(&book);
        let (back, _) = book::text::read_text(&text.text);
        assert_eq!(
            back.entry_count() + text.left_out,
            book.entry_count(),
            "{}",
            text.text
        );
        for key in book.sorted_keys() {
            if let Some(pos) = book.position(key) {
                for c in book.candidates(pos) {
                    assert!(pos.is_legal(c.mv), "{:?} in {}", c.mv, pos.fen());
                }
            }
        }
    }
});
