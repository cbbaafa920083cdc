//! Kestrel against itself, in-process: the engine as matchcore's `Player`
//! at any limit, time, nodes or a soft node limit (`engine_player`, the one
//! interface the match runner's child processes share; the soft node
//! limit is the engine's `soft_nodes`), game pairs between search and
//! evaluation configurations (`pairs`), and what each search technique is
//! worth (`ablation`).

pub mod ablation;
pub mod engine_player;
pub mod pairs;
