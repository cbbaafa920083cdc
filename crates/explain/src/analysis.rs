//! The analysis board's line under the engine's lines: what the engine's
//! best move does (its idea, from its line) and what the opponent
//! threatens in the position on view.

use chess::{Move, Position};

use crate::explanation::explain;
use crate::threat::threat;

/// The line for `pos` with `pv`, the engine's best line there (its move
/// first): "Nd5 forks the queen on c7 and the rook on e7. White
/// threatens Qh7#." None when nothing certain can be said.
pub fn note(pos: &Position, pv: &[Move]) -> Option<String> {
    let idea = pv
        .split_first()
        .and_then(|(&best, rest)| explain(pos, best, rest))
        .and_then(|e| e.idea());
    let threat = threat(pos).map(|t| t.sentence());
    match (idea, threat) {
        (None, None) => None,
        (Some(a), None) | (None, Some(a)) => Some(a),
        (Some(a), Some(b)) => Some(format!("{a} {b}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_says_what_the_opponent_threatens() {
        // Black to move; White threatens Qxg7# (the bishop on b2 behind the queen).
        let pos =
            Position::from_fen("r5k1/5ppp/8/8/6Q1/8/1B3PPP/6K1 b - - 0 1").expect("a position");
        let note = note(&pos, &[]).expect("a threat");
        assert_eq!(note, "White threatens Qxg7#.");
    }
}
