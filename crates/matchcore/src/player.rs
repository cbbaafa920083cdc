//! What a game loop asks of a player, whatever kind it is: an engine in a
//! child process speaking UCI or xboard (the match runner's players) or a search in
//! this process (the arena's and datagen's). A player sets up a new game,
//! answers a request to move with its move and the thinking behind it, and
//! quits. How long it thinks is the player's own setting, given when it is
//! made; the request brings the game and the clocks.

use crate::engine_process::EngineError;
use crate::time_control::Clock;
use chess::{CastlingMode, Color, Move, Position};
use std::time::Instant;

/// An engine's evaluation, from its own side's view (the one score type
/// of every crate: `types::Score`).
pub use types::Score;

/// The engine's last report before it moved: its last line with a score
/// (the first of a multi-PV report), as fastchess reads it. The in-process
/// players fill only the score and depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// Its score.
    pub score: Option<Score>,
    /// Its depth.
    pub depth: Option<u32>,
    /// Its selective depth.
    pub seldepth: Option<u32>,
    /// The nodes it searched.
    pub nodes: Option<u64>,
    /// Its nodes a second.
    pub nps: Option<u64>,
    /// How full its hash table is, per mille.
    pub hashfull: Option<u32>,
    /// Its tablebase hits.
    pub tbhits: Option<u64>,
    /// The search time it last reported (any report with a time): the
    /// runner's measured time less this is the latency of its answer.
    pub time: Option<std::time::Duration>,
    /// Its principal variation, the moves as it wrote them.
    pub pv: Vec<String>,
    /// The score is a bound (`lowerbound`/`upperbound`): a later exact
    /// report replaces it, and it replaces no exact one (fastchess's rule).
    pub bound: bool,
    /// For each pattern the runner watches (fastchess's `-pgnout
    /// match_line=`), the engine's last output line of this move matching it.
    pub lines: Vec<String>,
}

impl Thought {
    /// A search's report: its score and the depth it completed.
    pub fn searched(score: Score, depth: i32) -> Thought {
        Thought {
            score: Some(score),
            depth: u32::try_from(depth).ok(),
            ..Thought::default()
        }
    }
}

/// What a player answers to a request to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A legal move in the position.
    Move(Move),
    /// It gives up the game.
    Resign,
    /// Its answer, which is no legal move in the position: its idea of the
    /// game differs from the game loop's.
    Illegal(String),
}

impl Reply {
    /// An engine's answer as it wrote it: a move in UCI notation (castling
    /// written as `mode` writes it: the king's two-square move, or king
    /// takes rook in Chess960) or SAN, or `resign`.
    pub fn from_text(position: &Position, text: &str, mode: CastlingMode) -> Reply {
        if text == "resign" {
            return Reply::Resign;
        }
        match position
            .parse_uci_move(text, mode)
            .or_else(|_| position.parse_san(text).map_err(|_| ()))
        {
            Ok(mv) => Reply::Move(mv),
            Err(()) => Reply::Illegal(text.to_string()),
        }
    }
}

/// One request to move.
pub struct MoveRequest<'a> {
    /// The game's first position (before any opening moves).
    pub start: &'a Position,
    /// Every move since `start`.
    pub moves: &'a [Move],
    /// The keys of the positions from `start` up to `position` (not
    /// included), for a search that must see repetitions.
    pub history: &'a [u64],
    /// The position now.
    pub position: &'a Position,
    /// The clocks, White's first (`None` when no clock is kept).
    pub clocks: [Option<&'a Clock>; 2],
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

    /// Thinks and answers with its move and its last report.
    fn go(&mut self, request: &MoveRequest) -> Result<(Reply, Thought), EngineError>;

    /// Quits the engine.
    fn quit(self: Box<Self>);

    /// What a player that failed left behind, for the user to see: how its
    /// process ended and its last lines of output (nothing, by default and
    /// for players in this process).
    fn post_mortem(&mut self) -> Vec<String> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_read_in_uci_or_san() {
        let start = Position::startpos();
        let e4 = start
            .parse_uci_move("e2e4", CastlingMode::Standard)
            .unwrap();
        let standard = CastlingMode::Standard;
        assert_eq!(Reply::from_text(&start, "e2e4", standard), Reply::Move(e4));
        assert_eq!(Reply::from_text(&start, "e4", standard), Reply::Move(e4));
        assert_eq!(Reply::from_text(&start, "resign", standard), Reply::Resign);
        assert_eq!(
            Reply::from_text(&start, "e2e5", standard),
            Reply::Illegal("e2e5".to_string())
        );
        // Chess960: castling is king takes rook, and the king's two-square
        // move is no move at all.
        let frc =
            Position::from_fen("r1bqkbnr/p1ppp1pp/1pn5/5p2/4P3/5N2/PPPPBPPP/RNBQK2R w HAha - 2 4")
                .unwrap();
        let Reply::Move(castles) = Reply::from_text(&frc, "e1h1", CastlingMode::Chess960) else {
            panic!("e1h1 castles in Chess960");
        };
        assert_eq!(frc.san(castles), "O-O");
        assert_eq!(
            Reply::from_text(&frc, "e1g1", CastlingMode::Chess960),
            Reply::Illegal("e1g1".to_string())
        );
    }
}
