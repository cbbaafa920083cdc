//! The limits on what the page may send about a game: a comment's length,
//! a move's NAGs, a clock, a tag, a search's time and depth, the review
//! pass's. The modules
//! that enforce them and the refusals that quote them ([`crate::error`])
//! both read them here, so that neither imports the other for a number.

use std::ops::RangeInclusive;

/// The longest comment the page may write on a move, in characters.
pub const MAX_COMMENT_CHARS: usize = 2000;
/// The most NAGs on one move.
pub const MAX_NAGS: usize = 8;
/// The longest clock a move may record (`GameRecord::set_clock`): a day.
pub const MAX_CLOCK_MS: u64 = 24 * 3_600_000;

/// Tags the PGN export takes from the game itself, not from a request.
pub const OWN_TAGS: [&str; 4] = ["Result", "FEN", "SetUp", "Termination"];
/// The longest tag value the page may set, in characters.
pub const MAX_TAG_CHARS: usize = 200;

/// The deepest search per position of the review's pass: short searches,
/// so a pass stays minutes at most.
pub const MAX_PASS_DEPTH: i32 = 30;
/// The times the review's pass may search each position, milliseconds.
pub const PASS_MOVETIME_MS: RangeInclusive<u64> = 20..=5000;

/// The longest fixed time per move, milliseconds (ten minutes).
pub const MAX_MOVETIME_MS: u64 = 600_000;
/// The deepest fixed depth.
pub const MAX_DEPTH: i32 = 64;
