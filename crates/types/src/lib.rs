//! What the engine and the tools around it share without the search: the
//! tablebase interface (a prober such as `syzygy` implements [`Tablebase`];
//! the engine's search and the match runner's adjudication ask it), the opening
//! book as the search asks it ([`BookHint`]), the one vocabulary for
//! on/off values ([`parse_bool`]) and the one score type people and
//! protocols see ([`Score`]); the bounds on what users give: files
//! ([`file`]: regular files only, within their format's length) and lines
//! ([`lines`]: each kept up to a bound); and how files are written
//! ([`output`]: replaced whole or not at all). Sitting below `engine`,
//! it lets `syzygy` and `matchrunner` leave the search crate out; `engine`
//! re-exports all of it, so `engine::Tablebase` and friends still work.

pub mod book_hint;
pub mod bool_value;
pub mod file;
pub mod lines;
pub mod output;
pub mod score;
pub mod tablebase;
pub mod wdl;

pub use book_hint::BookHint;
pub use bool_value::{parse_bool, BoolError, BOOL_WORDS};
pub use score::Score;
pub use tablebase::Tablebase;
pub use wdl::Wdl;
