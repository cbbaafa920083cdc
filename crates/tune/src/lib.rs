//! Tuning Kestrel's evaluation: labelled positions (from game collections
//! or from fast self-play, `datagen`), made quiet by a small quiescence
//! search, and the Texel tuner, which fits the weights to the game results.
//! Also the NNUE training data: self-play at a soft node limit with the
//! trainers' filters, OpenBench's `genfens` openings, and the tools on
//! record files (merge, shuffle, stats, PGN conversion).

pub mod data_stats;
pub mod datagen;
pub mod dataset;
pub mod genfens;
pub mod merge;
pub mod pgn_records;
pub mod quiet;
pub mod record_error;
pub mod shuffle;
pub mod soft_nodes;
pub mod texel;

pub use dataset::{DataError, LabelledPosition};
