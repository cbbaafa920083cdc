//! A played move against the best one, as a game review says it: why the
//! played move goes wrong (the refutation its line shows, else the
//! positional term it spoils) and what the best move does instead.

use chess::{Move, Position};

use crate::explanation::explain_after;
use crate::phrase::Form;
use crate::positional;

/// What material the two lines may differ by for positional reasons to
/// be the ones worth naming.
const LEVEL: i32 = 100;

/// The sentences of one reviewed move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Why the played move goes wrong ("Qxb7 loses the queen to Rb8 (a
    /// skewer: ...)."), when something certain can be said.
    pub played: Option<String>,
    /// What the best move does ("Best was Nd5, forking the queen on c7 and
    /// the rook on e7."), when it is another move and something certain
    /// can be said.
    pub best: Option<String>,
}

/// Compares `played` (with `played_line`, the engine's line after it) to
/// `best` (with `best_line`, the line after it) from `pos`; `previous` is
/// the game's move before (the position before it and the move), when known.
pub fn compare(
    previous: Option<(&Position, Move)>,
    pos: &Position,
    played: Move,
    played_line: &[Move],
    best: Option<Move>,
    best_line: &[Move],
) -> Comparison {
    let Some(p) = explain_after(previous, pos, played, played_line) else {
        return Comparison::default();
    };
    let b = best
        .filter(|&m| m != played)
        .and_then(|m| explain_after(previous, pos, m, best_line));
    let mut out = Comparison {
        played: p.refutation(),
        best: None,
    };
    let Some(b) = b else {
        return out;
    };
    let tactical = |e: &crate::Explanation| {
        e.walk().mates(0) || e.gets_mated() || !e.motifs.iter().all(|m| m.kind() == "mate_threat")
    };
    let level = (p.gain() - b.gain()).abs() < LEVEL && !tactical(&p) && !tactical(&b);
    if out.played.is_none() && level {
        out.played = positional::worse(pos, played, b.mv()).map(|w| format!("{} {w}.", p.san()));
    }
    let idea = b.idea_words(Form::Participle).or_else(|| {
        level
            .then(|| positional::better(pos, b.mv(), played))
            .flatten()
    });
    out.best = idea.map(|w| format!("Best was {}, {w}.", b.san()));
    out
}
