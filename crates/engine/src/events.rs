//! What a search tells whoever listens (the protocol front ends, the GUI,
//! the match runner): its iterations, the root move at hand, its counters,
//! and the move it settles on.

use std::sync::Arc;
use std::time::Duration;

use chess::Move;

use crate::score::{user_score, Score, Value};
use crate::stats::SearchStats;

/// Progress of a search, as the engine reports it.
#[derive(Clone, Debug)]
pub enum SearchEvent {
    /// A finished iteration (or an aspiration-window failure) of one line.
    Iteration(IterationInfo),
    /// The root move being searched (long searches only).
    CurrMove {
        /// Current depth.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its number in the root move order, from 1.
        number: usize,
    },
    /// What the search did.
    Stats {
        /// Counters summed over threads.
        stats: SearchStats,
        /// Nodes of all threads.
        nodes: u64,
        /// Time used.
        time: Duration,
    },
    /// The search is over: the move to play, and the expected reply.
    BestMove(SearchResult),
}

/// What a reported score is: the search's value, or only a bound on it
/// because the aspiration window failed (UCI's `lowerbound`/`upperbound`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The value.
    Exact,
    /// At least this (the window failed high).
    Lower,
    /// At most this (the window failed low).
    Upper,
}

impl ScoreBound {
    /// True for an exact score.
    pub fn is_exact(self) -> bool {
        self == ScoreBound::Exact
    }

    /// `lower` or `upper` for a bound, `None` for an exact score.
    pub fn name(self) -> Option<&'static str> {
        match self {
            ScoreBound::Exact => None,
            ScoreBound::Lower => Some("lower"),
            ScoreBound::Upper => Some("upper"),
        }
    }
}

/// One line of the principal variation report.
#[derive(Clone, Debug)]
pub struct IterationInfo {
    /// Nominal depth.
    pub depth: i32,
    /// Selective depth.
    pub seldepth: usize,
    /// Line number (MultiPV), from 1.
    pub multipv: usize,
    /// Search value, side to move's view.
    pub score: Value,
    /// Whether the score is exact or only a bound (an aspiration failure).
    pub bound: ScoreBound,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Hash table use, per mille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Positions found in the tablebases so far (all threads).
    pub tbhits: u64,
}

impl IterationInfo {
    /// The score as users see it.
    pub fn user_score(&self) -> Score {
        user_score(self.score)
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None`: no legal move).
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// The best move's value.
    pub score: Value,
    /// Completed depth.
    pub depth: i32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Counters summed over threads.
    pub stats: SearchStats,
    /// Time used.
    pub time: Duration,
}

impl SearchResult {
    /// The best move's score as users see it.
    pub fn user_score(&self) -> Score {
        user_score(self.score)
    }
}

/// Receives search events (called from the search threads).
pub type Reporter = Arc<dyn Fn(SearchEvent) + Send + Sync>;
