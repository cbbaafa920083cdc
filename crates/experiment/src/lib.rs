//! Kestrel against itself, in-process: game-pair matches between search
//! and evaluation configurations (the arena), what each search technique is
//! worth (ablation), genetic tuning of the evaluation weights, and the
//! charts they draw.

pub mod ablation;
pub mod arena;
pub mod ga;
pub mod plot;
