//! Tuning Kestrel's evaluation: the Texel tuner, which fits the weights to
//! the results of labelled positions (made by `datagen`).

pub mod texel;
