//! Kestrel against itself, in-process: the engine as matchcore's `Player`
//! at any limit, time, nodes or a soft node limit (`engine_player`, the one
//! interface the match runner's child processes share; `soft_nodes`, the
//! limit self-play and genfens search at), game pairs between search and
//! evaluation configurations (`pairs`), and what each search technique is
//! worth (`ablation`).

pub mod ablation;
pub mod engine_player;
pub mod pairs;
pub mod soft_nodes;
