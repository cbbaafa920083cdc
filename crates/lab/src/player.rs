//! What the game loop asks of an engine, whatever its protocol: set up a new
//! game, think about a position under given limits, quit.

use crate::engine_spec::{EngineSpec, Protocol, SearchLimits};
use crate::time_control::Clock;
use crate::uci_player::UciPlayer;
use crate::xboard_player::XboardPlayer;
use chess::{Color, Move, Position};
use matchcore::engine_process::EngineError;
use std::fmt;
use std::time::{Duration, Instant};

/// An engine's evaluation, from its own side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, with mates as very large values, for adjudication.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

impl fmt::Display for Score {
    /// cutechess-cli's PGN form: `+0.35`, `-1.20`, `+M5`, `-M3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                write!(f, "{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
            }
            Score::Mate(n) => write!(f, "{}M{}", if n < 0 { '-' } else { '+' }, n.abs()),
        }
    }
}

/// The engine's last report before it moved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// Its score.
    pub score: Option<Score>,
    /// Its depth.
    pub depth: Option<u32>,
}

/// One request to move.
pub struct MoveRequest<'a> {
    /// The game's first position (before any opening moves).
    pub start: &'a Position,
    /// Every move since `start`.
    pub moves: &'a [Move],
    /// The position now.
    pub position: &'a Position,
    /// The clocks, White's first (`None` when no clock is kept).
    pub clocks: [Option<&'a Clock>; 2],
    /// The engine's limits.
    pub limits: &'a SearchLimits,
    /// When to stop waiting for an answer.
    pub deadline: Instant,
}

impl MoveRequest<'_> {
    /// The clock of `color`.
    pub fn clock(&self, color: Color) -> Option<&Clock> {
        self.clocks[color.fold(0, 1)]
    }
}

/// An engine ready to play games.
pub trait Player: Send {
    /// Prepares for a game from `start` (the engine may be told later).
    fn new_game(&mut self, start: &Position) -> Result<(), EngineError>;

    /// Thinks and answers with its move (as written) and its last report.
    fn go(&mut self, request: &MoveRequest) -> Result<(String, Thought), EngineError>;

    /// Quits the engine.
    fn quit(self: Box<Self>);
}

/// How long an engine may take to start and to answer a ping.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Starts `spec`'s engine and does its protocol's handshake.
pub fn start(spec: &EngineSpec) -> Result<Box<dyn Player>, EngineError> {
    Ok(match spec.protocol {
        Protocol::Uci => Box::new(UciPlayer::start(spec)?),
        Protocol::Xboard => Box::new(XboardPlayer::start(spec)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_as_cutechess_writes_them() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Cp(-5).to_string(), "-0.05");
        assert_eq!(Score::Mate(5).to_string(), "+M5");
        assert_eq!(Score::Mate(-3).to_string(), "-M3");
        assert!(Score::Mate(-3).centipawns() < -10_000);
    }
}
