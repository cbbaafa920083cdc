//! The search: iterative-deepening principal variation search with a
//! quiescence search at the horizon, run by Lazy SMP threads that share one
//! transposition table.
//!
//! Where each part is: `pool.rs` starts the threads and concludes the
//! answer; `shared.rs` is what they share (the configuration, the stop
//! flag, the clock, the table); `worker.rs` is one thread's state and its
//! moves made and taken back; `iteration.rs` the iterative deepening with
//! aspiration windows and the reports; `node.rs` one node in numbered steps
//! (`grep Step node.rs`); `qsearch.rs` the horizon. What the nodes consult:
//! `movepick.rs` (the staged move picker), `history.rs` (killers,
//! countermoves, the histories), `correction.rs` (correction history),
//! `see.rs` (static exchange), `tt.rs` (the transposition table),
//! `mate_line.rs` (mate lines completed from the table), `tablebase.rs`
//! (the root ranked by the tables) and `timeman.rs` (time management).

pub(crate) mod correction;
pub(crate) mod history;
mod iteration;
pub(crate) mod mate_line;
pub(crate) mod movepick;
mod node;
pub(crate) mod pool;
mod qsearch;
pub mod see;
pub(crate) mod shared;
pub(crate) mod tablebase;
pub(crate) mod timeman;
pub(crate) mod tt;
pub(crate) mod worker;
