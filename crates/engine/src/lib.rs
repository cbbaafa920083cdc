//! Kestrel's engine: iterative-deepening principal variation search with
//! quiescence, a shared transposition table, staged move ordering, modern
//! pruning, reductions and extensions (each switchable), time management,
//! Lazy SMP threads, endgame tablebases (through a trait), and the
//! evaluation. No third-party dependencies.

pub mod bench;
pub mod book_hint;
pub mod engine;
pub mod eval;
pub mod history;
pub mod limits;
pub mod memory;
pub mod movepick;
pub mod option;
pub mod option_error;
pub mod params;
mod pool;
pub mod score;
pub mod search;
pub mod see;
pub mod stats;
pub mod strength;
pub mod tablebase;
pub mod thread;
pub mod timeman;
pub mod tt;
pub mod tunable;

pub use book_hint::BookHint;
// The on/off vocabulary lives below the engine, in `types`, for the tools
// that do not depend on the search; it is re-exported for those that do.
pub use engine::Engine;
pub use limits::Limits;
pub use option::{find_option, EngineOption, OptionKind, OptionValue};
pub use option_error::OptionError;
pub use params::{ParamError, SearchParams};
pub use score::{Score, Value};
pub use tablebase::{Tablebase, Wdl};
pub use thread::{IterationInfo, Reporter, ScoreBound, SearchEvent, SearchResult};
pub use types::bool_value;
pub use types::{parse_bool, BoolError, BOOL_WORDS};
