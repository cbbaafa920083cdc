//! Match statistics for engine testing: Elo estimates with their error, the
//! likelihood of superiority, pentanomial (game-pair) counts, the sequential
//! probability ratio test, and ratings for a whole tournament.
//!
//! The conventions follow the tools engine authors use (cutechess-cli,
//! fastchess, fishtest), so that numbers printed by Kestrel's lab can be
//! compared with theirs.

mod elo;
mod normal;
mod pentanomial;
pub mod ratings;
mod sprt;
mod wdl;

pub use elo::{elo_to_score, score_to_elo, Estimate};
pub use pentanomial::{GameResult, Pentanomial};
pub use sprt::{Sprt, SprtDecision, SprtError, SprtModel};
pub use wdl::Wdl;
