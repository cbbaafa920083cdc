//! Kestrel's engine: iterative-deepening principal variation search with
//! quiescence, a shared transposition table, staged move ordering, modern
//! pruning, reductions and extensions (each switchable), time management,
//! Lazy SMP threads, endgame tablebases (through a trait), and the
//! evaluation. No third-party dependencies.
//!
//! The public API is the [`Engine`] facade (positions, options, `go`, the
//! events a search reports) with the types it takes and gives, re-exported
//! here, plus the modules other crates build on: [`eval`] (the evaluators,
//! their weights and the network, for the tuner and trainer), [`params`]
//! (switches and tunables, for ablation and SPSA), [`score`], [`strength`]
//! (the levels), [`see`] (static exchange, which move explanations use
//! too), [`soft_nodes`] (a search stopped after the first iteration past a
//! node count: self-play, genfens, the arena), [`bench`], [`memory`] and
//! [`host`] (what a host without clock or threads, WebAssembly in a
//! browser, gives the engine instead). The search itself (`search/`: tree
//! search, move ordering, histories, transposition table, time management,
//! threads) is private to this crate.

pub mod bench;
pub(crate) mod book_hint;
pub(crate) mod draw_offer;
pub(crate) mod engine;
pub mod eval;
pub(crate) mod events;
pub mod host;
pub(crate) mod limits;
pub mod memory;
pub(crate) mod option;
pub(crate) mod option_error;
pub mod params;
pub mod score;
pub(crate) mod search;
pub mod soft_nodes;
pub(crate) mod stats;
pub mod strength;
pub(crate) mod tunable;

pub use book_hint::BookHint;
pub use draw_offer::accepts_draw;
// The on/off vocabulary lives below the engine, in `types`, for the tools
// that do not depend on the search; it is re-exported for those that do.
pub use engine::Engine;
pub use events::{IterationInfo, Reporter, ScoreBound, SearchEvent, SearchResult};
pub use limits::Limits;
pub use option::{find_option, EngineOption, OptionKind, OptionValue};
pub use option_error::{OptionError, StartError};
pub use params::{ParamError, SearchParams};
pub use score::{user_score, Score, Value};
pub use search::see;
pub use search::tablebase::{Tablebase, Wdl};
pub use stats::SearchStats;
pub use types::bool_value;
pub use types::file;
pub use types::lines;
pub use types::output;
pub use types::{parse_bool, BoolError, BOOL_WORDS};
