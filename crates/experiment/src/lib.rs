//! Kestrel against itself, in-process: game-pair matches between search
//! and evaluation configurations (the arena), what each search technique is
//! worth (ablation), genetic tuning of the evaluation weights, and the
//! charts they draw. The engine plays as matchcore's `Player`
//! (`engine_player`), the one interface the lab's child processes share.

pub mod ablation;
pub mod arena;
pub mod engine_player;
pub mod ga;
