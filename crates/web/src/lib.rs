//! Kestrel in the browser: the UCI session (`protocol::uci`, with the
//! built-in network and the embedded book) compiled to WebAssembly, for a
//! Web Worker to run. The module's boundary is a handful of raw exports
//! and imports (no generated bindings): `js/kestrel-engine.js` is the glue
//! that feeds it UCI lines and posts its output, and `js/kestrel.js` the
//! Worker a page talks to over `postMessage`, as it would to stockfish.wasm.
//!
//! A search blocks the only thread the module has, so the engine is given
//! a host ([`engine::host`]): the browser's clock, and a `poll` that reads
//! `stop` and `ponderhit` from a `SharedArrayBuffer` the page-facing
//! Worker writes while the engine's Worker searches.
//!
//! The same module also holds the page's games for the GUI without a
//! server ([`games`]: gamerecord's game logic answering the page's API
//! requests in a Web Worker, through the messages of [`worker_messages`]) and runs the searches that Worker orders
//! ([`search`]) in the engine's Worker.
//!
//! Natively the crate is the session, the games and the searches, tested
//! here; only the exports (`wasm.rs`) are the browser's.

pub mod games;
pub mod search;
pub mod session;
pub mod worker_messages;

#[cfg(target_family = "wasm")]
mod wasm;
