//! How long a player thinks for each move: a clock, a fixed time, depth or
//! node count, as a match's engine settings say it (cutechess-cli's `tc=`,
//! `st=`, `depth=`, `nodes=`), whatever kind of player obeys them.

use crate::time_control::TimeControl;
use std::time::Duration;

/// How long an engine may think for each move. Several limits may be set at
/// once (a clock and a depth, say); the engine stops at the first.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchLimits {
    /// A game clock (`tc=`).
    pub tc: Option<TimeControl>,
    /// A fixed time per move (`st=`).
    pub movetime: Option<Duration>,
    /// A fixed depth in plies (`depth=`).
    pub depth: Option<u32>,
    /// A fixed node count (`nodes=`).
    pub nodes: Option<u64>,
}

impl SearchLimits {
    /// Whether any limit is set (an engine with none would think forever).
    pub fn is_bounded(&self) -> bool {
        self.tc.is_some() || self.movetime.is_some() || self.depth.is_some() || self.nodes.is_some()
    }

    /// The PGN `TimeControl` tag for these limits (`-` when there is no clock).
    pub fn pgn_tag(&self) -> String {
        match (self.tc, self.movetime) {
            (Some(tc), _) => tc.to_string(),
            // PGN has no form for a fixed time per move: say it in words.
            (None, Some(st)) => format!("{}/move", st.as_secs_f64()),
            (None, None) => "-".to_string(),
        }
    }
}
