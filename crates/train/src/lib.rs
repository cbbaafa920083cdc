//! Kestrel's NNUE trainer: float training of the engine's perspective
//! network (`engine::eval::nnue`) on the CPU, then quantisation to the
//! engine's integer file format.
//!
//! Layers, bottom up: `sample` (a training record as active inputs and a
//! target), `model` (the float network, its forward pass and sparse
//! gradients), `adamw` and `schedule` (the optimiser), `data` (shards and
//! the validation split), `checkpoint` (resumable float state), `quantise`
//! (integer network and its agreement with the float one), `yardstick` (the
//! hand-crafted evaluation's loss on the same positions), `report` (log and
//! chart), and `trainer` (the loop on all cores). Beside them, net files
//! for `kestrel net`: `bullet` (nets in bullet's layouts, both ways) and
//! `net_info` (what a net file is).

pub mod adamw;
pub mod bullet;
pub mod checkpoint;
pub mod data;
pub mod error;
pub mod model;
pub mod net_info;
pub mod quantise;
pub mod report;
pub mod sample;
pub mod schedule;
pub mod trainer;
pub mod yardstick;

pub use error::TrainError;
pub use trainer::{train, Event, TrainConfig};

pub mod testdata;
