//! NNUE: an efficiently updatable neural network evaluation.
//!
//! The architecture is the perspective network that Rust engines start with:
//! 768 inputs per side (`features.rs`), in one set per king bucket with the
//! board mirrored to put the king on files e-h (`input_buckets.rs`; a net
//! may have one bucket and no mirroring), feed a hidden layer of `H` neurons
//! (one accumulator per perspective, `accumulator.rs`); the two accumulators,
//! side to move's first, are activated (SCReLU or CReLU) and summed into one
//! output with the weights of one of up to 8 output buckets, chosen by the
//! number of pieces on the board (`output.rs`). Weights are integers (`network.rs`), stored in a
//! checked file format (`format.rs`) that `crates/train` writes.
//!
//! Using it in a search: load the [`Network`] once and share it (`Arc`);
//! give each search thread an [`AccumulatorStack`]. At the root call
//! [`AccumulatorStack::reset`]; just before `pos.play_unchecked(m)` call
//! [`AccumulatorStack::push_move`] with the position *before* the move (a
//! null move: `Move::NULL`); after `pos.undo` call [`AccumulatorStack::pop`];
//! [`AccumulatorStack::evaluate`] scores the current position, applying
//! the moves' changes only then (lazily: nodes never evaluated cost
//! nothing). [`Accumulator`] (`refresh`, `update_from`,
//! `add_feature`/`remove_feature`) and [`evaluate`] serve a search that
//! keeps its accumulators elsewhere.
//!
//! A network is built into the binary (`embedded.rs`); `EvalFile` loads
//! another.

mod accumulator;
mod embedded;
mod features;
mod format;
mod input_buckets;
pub(crate) mod network;
mod output;
mod refresh_cache;
mod stack;

pub use accumulator::Accumulator;
pub use embedded::{embedded_network, EMBEDDED_NET, EMBEDDED_NET_SOURCE};
pub use features::feature_index;
pub use format::{
    fnv1a64, header_len, Header, NetError, FORMAT_VERSION, HEADER_LEN, MAGIC, MAX_BUCKETS,
    MAX_HIDDEN, MAX_QB, QA, QB,
};
pub use input_buckets::{InputBuckets, InputBucketsError, KingView, INPUTS, MAX_INPUT_BUCKETS};
pub use network::{Activation, Network, MAX_FILE_LEN};
pub use output::{evaluate, evaluate_position, output_bucket};
pub use stack::AccumulatorStack;

/// The default scale from the network's output to centipawns.
pub const DEFAULT_SCALE: i32 = 400;

/// Every hidden size is a multiple of this, so the hot loops run over whole
/// vector registers with no scalar remainder.
pub const HIDDEN_ALIGN: usize = 32;
