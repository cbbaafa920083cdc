//! Kestrel's protocol front ends: text in, text out, no chess logic of their own.

pub mod book_options;
#[cfg(feature = "genfens")]
pub mod genfens;
pub mod input;
pub mod options;
pub mod output;
pub mod tablebases;
pub mod uci;
pub mod xboard;
pub mod xboard_level;
