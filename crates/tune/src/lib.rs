//! Tuning Kestrel's evaluation: labelled positions (from game collections
//! or from fast self-play, `datagen`), made quiet by a small quiescence
//! search, and the Texel tuner, which fits the weights to the game results.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod datagen;
pub mod dataset;
pub mod quiet;
pub mod texel;

pub use dataset::{DataError, LabelledPosition};
