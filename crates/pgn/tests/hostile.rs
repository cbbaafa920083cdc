//! Hostile input (issue 44): the reader's stack, memory and time stay
//! bounded whatever it is given. Each case is generated here, streamed
//! (never written out whole), and read under a counting allocator that
//! measures the peak bytes allocated while it runs.

use peak_alloc::PeakAlloc;
use pgn::{Blocks, PgnErrorKind, PgnReader, ReadOptions, MAX_GAME_BYTES, MAX_VARIATION_DEPTH};
use std::io::{self, BufReader, Cursor, Read};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The system allocator, counting the bytes live and their peak.
#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// One test at a time, so that a measured peak is its case's own: the
/// counter is process-wide, and a test allocating beside it (building its
/// input, or reading unmeasured) would inflate it.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Held for the whole of every test in this file.
fn alone() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `f`, giving its result, the peak bytes allocated above what was
/// live before it, and its time. The caller holds `alone()`.
fn measured<T>(f: impl FnOnce() -> T) -> (T, usize, Duration) {
    let before = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let start = Instant::now();
    let out = f();
    let time = start.elapsed();
    let peak = ALLOCATOR.peak_usage() - before;
    eprintln!("peak {:.1} MiB, {time:.2?}", peak as f64 / MIB as f64);
    (out, ALLOCATOR.peak_usage() - before, time)
}

const MIB: usize = 1 << 20;
const GIB: u64 = 1 << 30;

/// What a reader may hold at most: one game's text (twice, with a vector's
/// doubling) and its buffers.
const READER_BOUND: usize = 2 * MAX_GAME_BYTES + 8 * MIB;

/// The kinds of the items read from `input`, with `Ok` for a good game.
fn kinds(input: impl Read, options: ReadOptions) -> Vec<Result<usize, PgnErrorKind>> {
    PgnReader::with_options(BufReader::new(input), options)
        .map(|item| item.map(|g| g.moves.len()).map_err(|e| e.kind))
        .collect()
}

/// `1. e4 (1. d4 (1. d4 ... ) ) e5 *` nested `levels` deep, then a good game.
fn nested(levels: usize) -> Vec<u8> {
    let mut text = b"[Event \"deep\"]\n\n1. e4 ".to_vec();
    for _ in 0..levels {
        text.extend_from_slice(b"(1. d4 ");
    }
    text.extend(std::iter::repeat_n(b')', levels));
    text.extend_from_slice(b" e5 *\n\n[Event \"next\"]\n\n1. d4 d5 *\n");
    text
}

#[test]
fn a_million_nested_variations_are_refused_not_a_stack_overflow() {
    let _alone = alone();
    let text = nested(1_000_000);
    let (items, peak, _) = measured(|| kinds(&text[..], ReadOptions::default()));
    assert_eq!(
        items,
        [Err(PgnErrorKind::TooDeep(MAX_VARIATION_DEPTH)), Ok(2)],
        "the deep game is refused, the next one read"
    );
    assert!(peak < 8 * MIB + text.len(), "peak {peak} bytes");
    // Main lines only: skipped variations are counted, not kept, and may
    // nest as deep as they like.
    let items = kinds(&text[..], ReadOptions::mainline());
    assert_eq!(items, [Ok(2), Ok(2)]);
}

#[test]
fn nesting_up_to_the_bound_is_read() {
    let _alone = alone();
    let items = kinds(&nested(MAX_VARIATION_DEPTH)[..], ReadOptions::default());
    assert_eq!(items, [Ok(2), Ok(2)]);
    let items = kinds(&nested(MAX_VARIATION_DEPTH + 1)[..], ReadOptions::default());
    assert_eq!(
        items,
        [Err(PgnErrorKind::TooDeep(MAX_VARIATION_DEPTH)), Ok(2)]
    );
}

#[test]
fn a_gigabyte_of_spaces_or_line_ends_is_read_in_bounded_memory() {
    let _alone = alone();
    for byte in [b' ', b'\n'] {
        let (items, peak, _) =
            measured(|| kinds(io::repeat(byte).take(GIB), ReadOptions::default()));
        assert_eq!(items, [], "byte {byte}");
        assert!(peak < READER_BOUND, "byte {byte}: peak {peak} bytes");
    }
}

#[test]
fn a_gigabyte_of_nul_bytes_is_one_game_too_long() {
    let _alone = alone();
    let (items, peak, _) = measured(|| kinds(io::repeat(0).take(GIB), ReadOptions::default()));
    assert_eq!(items, [Err(PgnErrorKind::TooLong(MAX_GAME_BYTES))]);
    assert!(peak < READER_BOUND, "peak {peak} bytes");
}

/// A good game after `head`, 100 MiB of `fill` and `tail`.
fn huge(head: &'static [u8], fill: u8, tail: &'static [u8]) -> impl Read {
    Cursor::new(head)
        .chain(io::repeat(fill).take(100 * MIB as u64))
        .chain(Cursor::new(tail))
        .chain(Cursor::new(&b"\n\n[Event \"next\"]\n\n1. d4 d5 *\n"[..]))
}

#[test]
fn huge_tags_comments_and_tokens_are_skipped_in_bounded_memory() {
    let _alone = alone();
    let cases: [(&[u8], u8, &[u8]); 4] = [
        (b"[Event \"", b'a', b"\"]\n\n1. e4 *"),
        (b"[Event \"a\"]\n\n1. e4 {", b'x', b"} e5 *"),
        (b"[Event \"a\"]\n\n1. e4 {", b'\n', b"} e5 *"),
        (b"[Event \"a\"]\n\n1. e4 ", b'N', b" e5 *"),
    ];
    for (head, fill, tail) in cases {
        let (items, peak, _) = measured(|| {
            let input = huge(head, fill, tail);
            PgnReader::new(BufReader::new(input))
                .map(|item| item.map(|g| g.moves.len()).map_err(|e| (e.kind, e.line)))
                .collect::<Vec<_>>()
        });
        assert_eq!(
            items,
            [Err((PgnErrorKind::TooLong(MAX_GAME_BYTES), 1)), Ok(2)],
            "{}",
            String::from_utf8_lossy(head)
        );
        assert!(peak < READER_BOUND, "peak {peak} bytes");
    }
}

#[cfg(feature = "gzip")]
#[test]
fn a_gzip_bomb_is_read_in_bounded_memory() {
    let _alone = alone();
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let zeros = vec![0u8; MIB];
    for _ in 0..1024 {
        encoder.write_all(&zeros).expect("in memory");
    }
    let bomb = encoder.finish().expect("in memory");
    drop(zeros);
    assert!(bomb.len() < 8 * MIB, "{} bytes compressed", bomb.len());
    let (items, peak, _) = measured(|| {
        let reader = pgn::decompress(Cursor::new(bomb)).expect("gzip");
        PgnReader::new(reader)
            .map(|item| item.map(|g| g.moves.len()).map_err(|e| e.kind))
            .collect::<Vec<_>>()
    });
    assert_eq!(items, [Err(PgnErrorKind::TooLong(MAX_GAME_BYTES))]);
    assert!(peak < READER_BOUND + 8 * MIB, "peak {peak} bytes");
}

/// Cuts `input` into blocks and walks their games as book building does;
/// gives the number of games.
fn through_blocks(input: impl Read) -> usize {
    let mut games = 0;
    for block in Blocks::new(BufReader::new(input)) {
        let block = block.expect("in-memory read");
        let mut cursor = block.games();
        while cursor.next_game(Some(20), &mut |_, _| {}).is_some() {
            games += 1;
        }
    }
    games
}

#[test]
fn blocks_stay_bounded_and_linear_on_huge_lines() {
    let _alone = alone();
    // A gigabyte of spaces: no game, bounded memory.
    let (games, peak, _) = measured(|| through_blocks(io::repeat(b' ').take(GIB)));
    assert_eq!(games, 0);
    assert!(peak < 3 * READER_BOUND, "peak {peak} bytes");
    // A comment (one line) ten times longer takes at most about ten times
    // as long; before, each block read searched the whole line again.
    let comment = |len: u64| {
        Cursor::new(&b"[Event \"a\"]\n\n1. e4 {"[..])
            .chain(io::repeat(b'x').take(len))
            .chain(Cursor::new(&b"} e5 *\n"[..]))
    };
    let (_, _, short) = measured(|| through_blocks(comment(5 * MIB as u64)));
    let (_, peak, long) = measured(|| through_blocks(comment(50 * MIB as u64)));
    assert!(peak < 3 * READER_BOUND, "peak {peak} bytes");
    assert!(
        long < short * 12 + Duration::from_millis(500),
        "5 MiB comment {short:?}, 50 MiB {long:?}"
    );
}

/// The longest error line a test accepts: an error quotes a short excerpt
/// of the offending text (issue 64, item 9), twice at most (where it is
/// and what is wrong with it), with its game, line and message.
const ERROR_LINE_BOUND: usize = 600;

/// Issue 64, item 9: an error kept every byte of its token (a malformed
/// move of 16 MiB made a 16 MiB error, and `pgn stats` printed it whole).
#[test]
fn errors_quote_a_short_excerpt_of_a_huge_token() {
    let _alone = alone();
    let long = |c: char| c.to_string().repeat(MIB);
    let cases = [
        // A malformed move, an illegal one and binary junk.
        (
            format!("[Event \"a\"]\n\n1. e4 N{} *\n", long('x')),
            "is not a move in algebraic notation",
        ),
        (
            format!("[Event \"a\"]\n\n1. e4 e5 2. Qh4{} *\n", long('+')),
            "is not a legal move",
        ),
        (
            format!("[Event \"a\"]\n\n1. e4 {} *\n", long('\u{7f}')),
            "is not a move in algebraic notation",
        ),
        // A variant, a FEN and a tag line.
        (
            format!("[Variant \"{}\"]\n\n1. e4 *\n", long('v')),
            "is not supported",
        ),
        (
            format!(
                "[FEN \"8/8/8/8/8/8/8/K6k w {} - 0 1\"]\n\n1. Kb1 *\n",
                long('Q')
            ),
            "bad FEN tag",
        ),
        (
            format!("[Event \"{}\n\n1. e4 *\n", long('t')),
            "malformed tag pair",
        ),
    ];
    for (text, what) in cases {
        let items: Vec<_> = PgnReader::new(text.as_bytes()).collect();
        let e = items[0].as_ref().expect_err("a broken game");
        let shown = e.to_string();
        assert!(
            shown.len() < ERROR_LINE_BOUND && e.text.len() < ERROR_LINE_BOUND,
            "{} bytes: {}...",
            shown.len(),
            shown.chars().take(200).collect::<String>()
        );
        assert!(shown.contains(what) && shown.contains("...'"), "{shown}");
    }
}

/// Issue 64, item 9: games without tags (or without moves) share one raw
/// text, which the reader parsed whole into a queue before giving its
/// first game: 16 MiB of `1. e4 *` held 2.1 GB. They are read one at a
/// time now, so the reader holds the text and one game.
#[test]
fn games_without_tags_or_moves_are_read_one_at_a_time() {
    let _alone = alone();
    for unit in [&b"1. e4 *\n"[..], b"*\n"] {
        let text = unit.repeat(2 * MIB / unit.len());
        let games = 2 * MIB / unit.len();
        let (read, peak, _) = measured(|| {
            let reader = PgnReader::new(BufReader::new(&text[..]));
            reader.filter(Result::is_ok).count()
        });
        assert_eq!(read, games);
        // The text twice (a vector's doubling) and the reader's buffers.
        assert!(
            peak < 2 * text.len() + 2 * MIB,
            "{games} games of {:?}: peak {peak} bytes",
            String::from_utf8_lossy(unit)
        );
    }
}
