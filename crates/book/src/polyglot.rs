//! Polyglot `.bin` books: 16-byte big-endian entries (key u64, move u16,
//! weight u16, learn u32), sorted by key, the format GNU Chess, cutechess,
//! python-chess, Arena and most GUIs read.
//!
//! Reading keeps every good entry of a damaged file and reports the damage:
//! a truncated last entry, entries out of key order (which binary-searching
//! readers would miss), move bits that are no move.

use crate::{Book, BookMove, BookProblem, Location, PolyMove};

/// Bytes per entry.
pub const ENTRY_SIZE: usize = 16;

/// Problems listed one by one before the rest are only counted.
const MAX_LISTED: usize = 20;

/// Reads a Polyglot book from its bytes. Never fails: what cannot be read
/// is skipped and described in the problems.
pub fn read_polyglot(bytes: &[u8]) -> (Book, Vec<BookProblem>) {
    let mut entries = Vec::with_capacity(bytes.len() / ENTRY_SIZE);
    let mut problems = Vec::new();
    let mut unlisted = 0usize;
    let mut report = |problems: &mut Vec<BookProblem>, location, message: String| {
        if problems.len() < MAX_LISTED {
            problems.push(BookProblem { location, message });
        } else {
            unlisted += 1;
        }
    };
    let whole = bytes.len() / ENTRY_SIZE;
    let rest = bytes.len() % ENTRY_SIZE;
    if rest != 0 {
        report(
            &mut problems,
            Location::File,
            format!(
                "the file is {} bytes, not a multiple of {ENTRY_SIZE}: the last {rest} bytes \
                 (a truncated entry) were ignored and the {whole} whole entries read; \
                 is the file cut short, or not a Polyglot book?",
                bytes.len()
            ),
        );
    }
    let mut previous = 0u64;
    let mut unsorted_reported = false;
    for (i, chunk) in bytes.chunks_exact(ENTRY_SIZE).enumerate() {
        let key = u64::from_be_bytes(chunk[0..8].try_into().expect("8 bytes"));
        let mv = PolyMove(u16::from_be_bytes([chunk[8], chunk[9]]));
        let weight = u16::from_be_bytes([chunk[10], chunk[11]]);
        let learn = u32::from_be_bytes(chunk[12..16].try_into().expect("4 bytes"));
        if key < previous && !unsorted_reported {
            unsorted_reported = true;
            report(
                &mut problems,
                Location::Entry(i + 1),
                "entries are not sorted by key: read anyway, but programs that \
                 binary-search the file will miss moves; rewrite it with `kestrel book convert`"
                    .to_string(),
            );
        }
        previous = key;
        if !mv.is_well_formed() {
            report(
                &mut problems,
                Location::Entry(i + 1),
                format!("move bits {:#06x} are not a move; entry skipped", mv.0),
            );
            continue;
        }
        entries.push((
            key,
            BookMove {
                mv,
                weight: u32::from(weight),
                learn,
                ..BookMove::default()
            },
        ));
    }
    if unlisted > 0 {
        problems.push(BookProblem {
            location: Location::File,
            message: format!("{unlisted} more problems like these"),
        });
    }
    (Book::from_entries(entries), problems)
}

/// How far one position's weights are shifted to fit 16 bits, as Polyglot
/// does: all halved together until the largest fits.
fn weight_shift(moves: &[BookMove]) -> u32 {
    let max = moves.iter().map(|m| m.weight).max().unwrap_or(0);
    let mut shift = 0;
    while (max >> shift) > u32::from(u16::MAX) {
        shift += 1;
    }
    shift
}

/// The book as Polyglot bytes: sorted by key, each key's moves by weight
/// (highest first), weights scaled to 16 bits.
pub fn write_polyglot(book: &Book) -> Vec<u8> {
    let mut out = Vec::with_capacity(book.entry_count() * ENTRY_SIZE);
    for (key, moves) in book.iter() {
        let shift = weight_shift(moves);
        for m in moves {
            let w = u16::try_from(m.weight >> shift).unwrap_or(u16::MAX);
            out.extend_from_slice(&key.to_be_bytes());
            out.extend_from_slice(&m.mv.0.to_be_bytes());
            out.extend_from_slice(&w.to_be_bytes());
            out.extend_from_slice(&m.learn.to_be_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Position;

    #[test]
    fn round_trip_and_scaling() {
        let pos = Position::startpos();
        let mut book = Book::new();
        book.add_move(&pos, pos.parse_san("e4").expect("legal"), 200_000);
        book.add_move(&pos, pos.parse_san("d4").expect("legal"), 100_000);
        let bytes = write_polyglot(&book);
        assert_eq!(bytes.len(), 32);
        // The start position's published Polyglot key comes first.
        assert_eq!(&bytes[..8], &0x463b96181691fc9c_u64.to_be_bytes());
        let (back, problems) = read_polyglot(&bytes);
        assert!(problems.is_empty());
        let w: Vec<u32> = back.moves(pos.key()).iter().map(|m| m.weight).collect();
        assert_eq!(w, [200_000 >> 2, 100_000 >> 2]);
    }

    #[test]
    fn damaged_files_keep_their_good_entries() {
        let pos = Position::startpos();
        let mut book = Book::new();
        book.add_move(&pos, pos.parse_san("e4").expect("legal"), 5);
        book.add_move(&pos, pos.parse_san("d4").expect("legal"), 3);
        let mut bytes = write_polyglot(&book);
        bytes.extend_from_slice(&[1, 2, 3]);
        let (back, problems) = read_polyglot(&bytes);
        assert_eq!(back.entry_count(), 2);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.contains("last 3 bytes"));

        let mut bad = write_polyglot(&book);
        bad[8] = 0xff; // move bits of the first entry: top bit set
        bad.extend_from_slice(&[0u8; 16]); // key 0 after a larger key: unsorted, move a1a1
        let (back, problems) = read_polyglot(&bad);
        assert_eq!(back.entry_count(), 1);
        assert_eq!(problems.len(), 3, "{problems:?}");
    }
}
