//! Match statistics for engine testing: Elo estimates with their error, the
//! likelihood of superiority, pentanomial (game-pair) counts, the sequential
//! probability ratio test, ratings for a whole tournament, and the ratio of
//! paired measurements with its t-interval (the timings of an ablation).
//!
//! The conventions follow the tools engine authors use (cutechess-cli,
//! fastchess, fishtest), so that numbers printed by Kestrel's match runner can be
//! compared with theirs.

mod estimate;
mod figures;
mod normal;
mod paired_ratio;
mod pentanomial;
pub mod ratings;
mod sprt;
mod student_t;
mod wdl_counts;

pub use estimate::{elo_to_score, score_to_elo, Estimate};
pub use figures::FastchessFigures;
pub use paired_ratio::{RatioError, RatioEstimate};
pub use pentanomial::{Pentanomial, PlayerResult};
pub use sprt::{Sprt, SprtDecision, SprtError, SprtModel};
pub use student_t::t95;
pub use wdl_counts::WdlCounts;
