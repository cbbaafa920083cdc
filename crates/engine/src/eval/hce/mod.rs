//! The hand-crafted evaluation: every term named, its weights as data.
//!
//! `full.rs` adds up the terms of `Full` from the attack maps of both sides
//! (`attacks.rs`): mobility and coverage, `threats.rs`, `king.rs`,
//! `passed.rs`, with the pawn structure from the pawn cache (`pawns.rs`);
//! `simple.rs` is material and mobility only; `endgame.rs` scales drawish
//! endings and drives a bare king to the edge. Each term is a middlegame and
//! endgame pair (`pair.rs`) blended by the game phase, weighted by the named
//! weights of `weights.rs` (tuned values in `weights.txt`, the hand-set start
//! in `seed.rs`) and counted through `terms.rs`, where a trace (`trace.rs`)
//! sees it: how the tuner learns and `kestrel eval` explains a score.
//! `material_sums.rs` keeps material and piece-square sums move by move.

pub mod attacks;
pub mod endgame;
pub mod full;
pub mod king;
pub mod masks;
pub mod material_sums;
pub mod pair;
pub mod passed;
pub mod pawns;
pub mod seed;
pub mod simple;
pub mod terms;
pub mod threats;
pub mod trace;
pub mod weights;

/// Phase weight of each role: knights and bishops 1, rooks 2, queens 4.
pub const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase with all pieces on the board.
pub const MAX_PHASE: i32 = 24;
