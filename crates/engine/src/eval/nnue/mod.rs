//! NNUE: an efficiently updatable neural network evaluation.
//!
//! The architecture is the perspective network that Rust engines start with:
//! 768 inputs per side (`features.rs`) feed a hidden layer of `H` neurons
//! (one accumulator per perspective, `accumulator.rs`); the two accumulators,
//! side to move's first, are activated (SCReLU or CReLU) and summed into one
//! output (`output.rs`). Weights are integers (`network.rs`), stored in a
//! checked file format (`format.rs`) that `crates/train` writes.
//!
//! Using it in a search: keep one [`Accumulator`] per ply. At the root call
//! [`Accumulator::refresh`]; before making a move, copy the parent's
//! accumulator into the child's slot ([`Accumulator::copy_from`]) and call
//! [`Accumulator::update_for_move`] with the position *before* the move;
//! unmaking a move is just going back to the parent's slot. At a leaf,
//! [`evaluate`] gives centipawns from the side to move's view.

mod accumulator;
mod features;
mod format;
mod network;
mod output;

pub use accumulator::Accumulator;
pub use features::{feature_index, INPUTS};
pub use format::{fnv1a64, NetError, FORMAT_VERSION, HEADER_LEN, MAGIC};
pub use network::{Activation, Network, MAX_HIDDEN, QA, QB};
pub use output::evaluate;

/// The default scale from the network's output to centipawns.
pub const DEFAULT_SCALE: i32 = 400;

/// Every hidden size is a multiple of this, so the hot loops run over whole
/// vector registers with no scalar remainder.
pub const HIDDEN_ALIGN: usize = 32;
