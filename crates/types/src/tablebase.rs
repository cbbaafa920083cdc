//! Endgame tables as a trait: the engine has no third-party dependencies,
//! so the Syzygy reader lives in its own crate (`syzygy`) and implements
//! this; the search and the lab's adjudication ask it.

use chess::Position;

use crate::wdl::Wdl;

/// Endgame tables the search can ask. Implementations must be cheap to call
/// from every search thread at once.
pub trait Tablebase: Send + Sync {
    /// The most pieces (kings included) of any table held; 0 when none.
    fn max_pieces(&self) -> u32;

    /// The value of `pos`, assuming it was reached by a capture or a pawn
    /// move (what the WDL tables store). `None` when the tables cannot say
    /// (too many pieces, castling rights, a missing or unreadable table).
    fn probe_wdl(&self, pos: &Position) -> Option<Wdl>;

    /// The distance to zeroing in plies (DTZ50'', possibly off by one ply
    /// where Syzygy rounds), side to move's view: positive when winning,
    /// negative when losing, 0 for a draw. `None` when the tables cannot say.
    fn probe_dtz(&self, pos: &Position) -> Option<i32>;
}
