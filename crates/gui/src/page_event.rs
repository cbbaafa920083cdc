//! What a game's event stream tells its pages: one typed enum, serialised
//! as `{"type": "info", ...}`, so that the stream's shape is written down
//! once and checked by the compiler instead of spread over `json!` literals.

use serde::Serialize;

use crate::review::ReviewView;
use crate::view::{GameView, LineMove, MoveView, ScoreView};

/// One event of a game's stream (`GET /api/events`).
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PageEvent {
    /// A search's line at a depth. Only the latest search's lines are
    /// sent: the server drops those of a search stopped or replaced.
    Info {
        /// The search's number (`POST /api/go` answered it).
        search: u64,
        /// The searched position.
        fen: String,
        /// Depth reached.
        depth: i32,
        /// Selective depth.
        seldepth: usize,
        /// The line's rank, 1 the best.
        multipv: usize,
        /// Its score, White's view.
        score: ScoreView,
        /// `lower` or `upper` for a bound, null for an exact score.
        bound: Option<&'static str>,
        /// Nodes searched.
        nodes: u64,
        /// Nodes a second.
        nps: u64,
        /// Time searched.
        time_ms: u64,
        /// Tablebase hits.
        tbhits: u64,
        /// The line, in SAN and UCI with the position after each move.
        pv: Vec<LineMove>,
    },
    /// A search's statistics as it ends; not sent for a search another one
    /// replaced (a search only stopped still reports them).
    Stats {
        /// The search's number.
        search: u64,
        /// The searched position.
        fen: String,
        /// Nodes searched.
        nodes: u64,
        /// Nodes a second.
        nps: u64,
        /// Time searched.
        time_ms: u64,
        /// The engine's statistics, for people.
        text: String,
    },
    /// The move a search (or the book) found, and whether it was played.
    BestMove {
        /// The search's number.
        search: u64,
        /// Found in the book.
        book: bool,
        /// Played into the game.
        played: bool,
        /// Time taken.
        time_ms: u64,
        /// The move; none while the evaluation is hidden and it was not played.
        #[serde(rename = "move")]
        mv: Option<MoveView>,
    },
    /// The game after an engine move.
    State {
        /// The game.
        state: GameView,
    },
    /// The whole-game pass's progress and results.
    Analysis {
        /// As `GET /api/analysis` gives it.
        analysis: ReviewView,
    },
    /// The server let the game go; the stream ends after this.
    Expired,
}

impl PageEvent {
    /// The event as the stream sends it.
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(
                r#"{{"type":"error","error":"{}"}}"#,
                e.to_string().replace('"', "'")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_carry_their_type_as_the_page_reads_it() {
        assert_eq!(PageEvent::Expired.to_json(), r#"{"type":"expired"}"#);
        let best = PageEvent::BestMove {
            search: 3,
            book: false,
            played: true,
            time_ms: 12,
            mv: None,
        };
        assert_eq!(
            best.to_json(),
            r#"{"type":"bestmove","search":3,"book":false,"played":true,"time_ms":12,"move":null}"#
        );
    }
}
