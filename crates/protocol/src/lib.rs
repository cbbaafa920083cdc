//! Kestrel's protocol front ends: text in, text out, no chess logic of their own.
#![deny(missing_docs)]

mod own_book;
mod tablebases;
pub mod uci;
