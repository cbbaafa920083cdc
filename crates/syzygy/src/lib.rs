//! Syzygy endgame tablebases for Kestrel: the engine's `Tablebase` trait
//! implemented with the `shakmaty-syzygy` prober (GPL-3.0, like Kestrel).
//! Kestrel's position becomes shakmaty's only where a probe happens, built
//! from the bitboards. Table files are checked when a path is set (names,
//! sizes, magic bytes, tables the others need), so that a damaged or
//! partial set is reported clearly and the engine plays on without it.

pub mod convert;
pub mod embedded;
mod filesystem;
mod load;
mod tables;

pub use load::{split_path, OpenError, Problem};
pub use tables::{MoveVerdict, PositionProbe, SyzygyTablebase};
