//! What a `go` command asks for: clocks, fixed limits, pondering.

use chess::Move;

/// The limits of one search (UCI `go` parameters).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's remaining time, milliseconds.
    pub wtime: Option<u64>,
    /// Black's remaining time, milliseconds.
    pub btime: Option<u64>,
    /// White's increment per move, milliseconds.
    pub winc: Option<u64>,
    /// Black's increment per move, milliseconds.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Exactly this many milliseconds.
    pub movetime: Option<u64>,
    /// Stop after this depth.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<i32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Ponder: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed-time search.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    /// True when the search must wait for `stop` (or `ponderhit`) before answering.
    pub fn waits_for_stop(&self) -> bool {
        self.infinite || self.ponder
    }
}
