//! Kestrel's training data, made and handled: self-play games at a soft
//! node limit with the trainers' filters (`selfplay`: NNUE records and
//! labelled positions), labelled positions from game collections made
//! quiet by a small quiescence search (the Texel tuner's input), and the
//! tools on record files (merge, shuffle, stats, PGN conversion). The formats themselves live in `trainingdata`,
//! which reads and writes them without the engine.

pub mod data_stats;
pub mod dataset;
pub mod merge;
pub mod pgn_records;
pub mod quiet;
pub mod record_error;
pub mod selfplay;
pub mod shuffle;

pub use dataset::{DataError, LabelledPosition};
