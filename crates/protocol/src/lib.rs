//! Kestrel's protocol front ends: text in, text out, no chess logic of their own.
#![deny(missing_docs)]

pub mod uci;
