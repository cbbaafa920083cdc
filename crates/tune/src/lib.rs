//! Kestrel's tuners, one module each: Texel's fit of the evaluation weights
//! to the results of labelled positions (made by `datagen`), the genetic
//! algorithm whose weight sets play each other in the arena (`ga`), and
//! OpenBench's SPSA over engines run as child processes by the match runner
//! (`spsa`).

pub mod ga;
pub mod spsa;
pub mod texel;
