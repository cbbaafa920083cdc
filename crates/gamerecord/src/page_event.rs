//! What a game's event stream tells its pages: one typed enum, serialised
//! as `{"type": "info", ...}`, so that the stream's shape is written down
//! once and checked by the compiler instead of spread over `json!` literals.

use serde::Serialize;

use crate::review::ReviewView;
use crate::search_gate::{Pass, Purpose};
use crate::view::{GameView, LineMove, MoveView, ScoreView};

/// One event of a game's stream (`GET /api/events`, or the game Worker's
/// messages in a page without a server). Every event about a search
/// carries its number; a host sends them through the game's
/// [`SearchGate`](crate::search_gate::SearchGate), which drops those of a
/// search superseded or stopped, so the page draws what arrives.
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PageEvent {
    /// A search began (the one before it, if the page asked for one, was
    /// stopped first): lines shown so far belong to a search that is over.
    Started {
        /// Its number (`POST /api/go` answers it too).
        search: u64,
        /// An engine player's move, or analysis.
        purpose: Purpose,
        /// The searched position.
        fen: String,
    },
    /// A search was stopped before its end (its statistics and best move
    /// may follow; no line does).
    Stopped {
        /// Its number.
        search: u64,
    },
    /// A search's line at a depth.
    Info {
        /// The search's number.
        search: u64,
        /// What it is for: analysis lines are not drawn with analysis off.
        purpose: Purpose,
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
        bound: Option<String>,
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
        /// For the best line: what its move does and what the opponent
        /// threatens now, in words ("Nd5 forks the queen on c7 and the rook
        /// on e7. Black threatens Qxh2#."), when something certain can be said.
        explain: Option<String>,
    },
    /// A search's statistics as it ends (a search only stopped still
    /// reports them).
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
    /// The search an event belongs to and what it is to it; none for the
    /// game's own events, and for `started` and `stopped`, which the gate
    /// sends itself.
    pub fn gate(&self) -> Option<(u64, Pass)> {
        match self {
            PageEvent::Info { search, .. } => Some((*search, Pass::Line)),
            PageEvent::Stats { search, .. } => Some((*search, Pass::End)),
            PageEvent::BestMove { search, .. } => Some((*search, Pass::Last)),
            PageEvent::Started { .. }
            | PageEvent::Stopped { .. }
            | PageEvent::State { .. }
            | PageEvent::Analysis { .. }
            | PageEvent::Expired => None,
        }
    }

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
