//! Kestrel's explanations of moves, in words a coach would use.
//!
//! The finder ([`tactics`]) looks at a move and the engine's line after it
//! ([`Walk`]) and names the tactical [`Motif`]s the board shows and the
//! line proves: a piece hanging or en prise, a fork, a pin, a skewer, a
//! discovered attack or check, a mate (back rank, smothered) or a mate
//! threat, a removed or overloaded defender, a trapped piece, a promotion
//! or a passed pawn's run, a perpetual check or a stalemate. Where the
//! tactics say nothing, [`positional`] names the hand-crafted evaluation's
//! terms that set the played move and the best one apart. [`explain`]
//! gives one move's [`Explanation`] and its sentence; [`compare`] the two
//! sentences of a reviewed move (why the played move goes wrong, what the
//! best one does); [`threat`] what a side threatens.
//!
//! Pure logic with no threads, files or clocks, so the static site's Worker
//! runs it as the GUI's server does; only [`search`] (native) runs the
//! engine, for `kestrel explain` and the terminal game.

pub mod analysis;
pub mod board;
#[cfg(not(target_family = "wasm"))]
pub mod command;
mod compare;
mod explanation;
#[cfg(not(target_family = "wasm"))]
pub mod labelled;
mod motif;
pub mod phrase;
pub mod positional;
#[cfg(not(target_family = "wasm"))]
pub mod search;
pub mod tactics;
pub mod threat;
mod walk;
pub mod words;

pub use compare::{compare, Comparison};
pub use explanation::{explain, explain_after, Explanation};
pub use motif::{MatePattern, Motif, Placed, KINDS};
pub use walk::Walk;
