//! What an engine search tells the game, and what the game makes of it.
//!
//! A search's events ([`engine::SearchEvent`]) become [`SearchReport`]s:
//! plain data (serde), because in a page without a server they cross from
//! the engine's Web Worker to the game's as JSON. A [`SearchRun`] is one
//! search as the game started it (its number, purpose and place); it turns
//! each report into the [`PageEvent`] the page is sent, and says where a
//! move found is played. `kestrel gui` and the page without a server both
//! go through these, so that a line, a statistics line or a best move reads
//! the same on either; the [`SearchGate`](crate::search_gate::SearchGate)
//! then decides whether the page hears it.

use std::time::Duration;

use chess::{CastlingMode, Move, Position};
use engine::{SearchEvent, SearchResult};
use serde::{Deserialize, Serialize};

use crate::page_event::PageEvent;
use crate::record::SearchTarget;
use crate::search_gate::Purpose;
use crate::view::{line, MoveView, ScoreView};

/// One report of a search, in the game's terms.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SearchReport {
    /// A line at a depth.
    Line {
        /// Depth reached.
        depth: i32,
        /// Selective depth.
        seldepth: usize,
        /// The line's rank, 1 the best.
        multipv: usize,
        /// Its score, White's view.
        score: ScoreView,
        /// `lower` or `upper` for a bound, none for an exact score.
        bound: Option<String>,
        /// Nodes searched.
        nodes: u64,
        /// Time searched, milliseconds.
        time_ms: u64,
        /// Tablebase hits.
        tbhits: u64,
        /// The line's moves in UCI.
        pv: Vec<String>,
    },
    /// The search's statistics as it ends.
    Stats {
        /// Nodes searched.
        nodes: u64,
        /// Time searched, milliseconds.
        time_ms: u64,
        /// The engine's statistics, for people.
        text: String,
    },
    /// The move found (none: no legal move), the search's last report.
    Best {
        /// The move in UCI.
        best: Option<String>,
        /// Time from the search's start, milliseconds.
        time_ms: u64,
    },
}

impl SearchReport {
    /// The report of `event`, from a search of `root` that started
    /// `elapsed` ago (the best move's time); none for the current move,
    /// which the page does not show.
    pub fn of(event: &SearchEvent, root: &Position, elapsed: Duration) -> Option<SearchReport> {
        let mode = root.castling_mode();
        let uci = |moves: &[Move]| -> Vec<String> {
            moves.iter().map(|m| m.to_uci(mode).to_string()).collect()
        };
        match event {
            SearchEvent::Iteration(info) => Some(SearchReport::Line {
                depth: info.depth,
                seldepth: info.seldepth,
                multipv: info.multipv,
                score: ScoreView::white_view(info.user_score(), root.turn()),
                bound: info.bound.name().map(str::to_string),
                nodes: info.nodes,
                time_ms: info.time.as_millis() as u64,
                tbhits: info.tbhits,
                pv: uci(&info.pv),
            }),
            SearchEvent::CurrMove { .. } => None,
            SearchEvent::Stats { stats, nodes, time } => Some(SearchReport::Stats {
                nodes: *nodes,
                time_ms: time.as_millis() as u64,
                text: stats.to_string(),
            }),
            SearchEvent::BestMove(SearchResult { best, .. }) => Some(SearchReport::Best {
                best: best.map(|m| m.to_uci(mode).to_string()),
                time_ms: elapsed.as_millis() as u64,
            }),
        }
    }
}

/// One search of the game's, from its start to its best move.
#[derive(Debug, Clone)]
pub struct SearchRun {
    /// Its number in the game's [`SearchGate`](crate::search_gate::SearchGate).
    pub search: u64,
    /// What the page asked it for.
    pub purpose: Purpose,
    /// Where it searches, as the game checked it.
    pub target: SearchTarget,
    root_fen: String,
}

impl SearchRun {
    /// Search number `search` for `purpose` at `target`.
    pub fn new(search: u64, purpose: Purpose, target: SearchTarget) -> SearchRun {
        SearchRun {
            search,
            purpose,
            root_fen: target.root.fen(),
            target,
        }
    }

    /// The searched position's FEN.
    pub fn root_fen(&self) -> &str {
        &self.root_fen
    }

    /// True when the move found is to be played (an engine player's move).
    pub fn plays(&self) -> bool {
        self.purpose == Purpose::Move
    }

    /// The page event of a line or of the statistics; none for the best
    /// move (see [`Self::best_move_event`]) and, while the game hides its
    /// evaluation, for lines and statistics, which are the evaluation.
    pub fn event(&self, report: &SearchReport) -> Option<PageEvent> {
        if self.target.hidden {
            return None;
        }
        match report {
            SearchReport::Line {
                depth,
                seldepth,
                multipv,
                score,
                bound,
                nodes,
                time_ms,
                tbhits,
                pv,
            } => Some(PageEvent::Info {
                explain: (*multipv == 1)
                    .then(|| explain::analysis::note(&self.target.root, &self.moves(pv)))
                    .flatten(),
                search: self.search,
                purpose: self.purpose,
                fen: self.root_fen.clone(),
                depth: *depth,
                seldepth: *seldepth,
                multipv: *multipv,
                score: *score,
                bound: bound.clone(),
                nodes: *nodes,
                nps: nodes * 1000 / (*time_ms).max(1),
                time_ms: *time_ms,
                tbhits: *tbhits,
                pv: line(&self.target.root, &self.moves(pv), self.target.mode),
            }),
            SearchReport::Stats {
                nodes,
                time_ms,
                text,
            } => Some(PageEvent::Stats {
                search: self.search,
                fen: self.root_fen.clone(),
                nodes: *nodes,
                nps: nodes * 1000 / (*time_ms).max(1),
                time_ms: *time_ms,
                text: text.clone(),
            }),
            SearchReport::Best { .. } => None,
        }
    }

    /// UCI moves read one after another from the root, up to the first
    /// that does not read (a line is cut short there, as [`line`] cuts it).
    pub fn moves(&self, uci: &[String]) -> Vec<Move> {
        let mut pos = self.target.root;
        let mut out = Vec::with_capacity(uci.len());
        for text in uci {
            let Ok(m) = pos.parse_uci_move(text, self.target.mode) else {
                break;
            };
            if !pos.is_legal(m) {
                break;
            }
            pos.play_unchecked(m);
            out.push(m);
        }
        out
    }

    /// The move of a [`SearchReport::Best`] (or the first move of a line),
    /// read in the root; none when it does not read there.
    pub fn first_move(&self, uci: Option<&str>) -> Option<Move> {
        let text = uci?;
        self.moves(&[text.to_string()]).first().copied()
    }

    /// The event for the move found: from the book or the search,
    /// `played` into the game or not. A move not played is advice, not
    /// sent while the evaluation is hidden.
    pub fn best_move_event(
        &self,
        best: Option<Move>,
        book: bool,
        played: bool,
        time_ms: u64,
    ) -> PageEvent {
        let shown = best.filter(|_| played || !self.target.hidden);
        PageEvent::BestMove {
            search: self.search,
            book,
            played,
            time_ms,
            mv: shown.map(|m| MoveView::new(&self.target.root, m, self.mode())),
        }
    }

    fn mode(&self) -> CastlingMode {
        self.target.mode
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameRecord, SearchAt};

    fn run(hide: bool) -> SearchRun {
        let mut record = GameRecord::dated(Position::startpos(), "2026.11.28");
        record.reset(Position::startpos(), hide, hide);
        let target = record
            .search_target(SearchAt::default(), true)
            .expect("a target");
        SearchRun::new(3, Purpose::Move, target)
    }

    fn line_report(pv: &[&str]) -> SearchReport {
        SearchReport::Line {
            depth: 5,
            seldepth: 7,
            multipv: 1,
            score: ScoreView::Cp(31),
            bound: None,
            nodes: 2000,
            time_ms: 4,
            tbhits: 0,
            pv: pv.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn a_line_becomes_the_pages_info_in_san_cut_at_a_wrong_move() {
        let report = line_report(&["e2e4", "e7e5", "e1e3", "g1f3"]);
        // The report crosses a Worker boundary as JSON and comes back equal.
        let text = serde_json::to_string(&report).expect("serialises");
        assert!(text.starts_with(r#"{"type":"line","depth":5"#), "{text}");
        let back: SearchReport = serde_json::from_str(&text).expect("reads back");
        assert_eq!(back, report);
        let Some(PageEvent::Info { pv, nps, fen, .. }) = run(false).event(&back) else {
            panic!("an info event");
        };
        let sans: Vec<&str> = pv.iter().map(|m| m.mv.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5"]);
        assert_eq!(nps, 500_000);
        assert_eq!(fen, Position::startpos().fen());
    }

    #[test]
    fn a_hidden_evaluation_sends_only_the_move_played() {
        let hidden = run(true);
        assert!(hidden.event(&line_report(&["e2e4"])).is_none());
        let best = hidden.first_move(Some("e2e4"));
        assert!(best.is_some());
        let not_played = hidden.best_move_event(best, false, false, 10).to_json();
        assert!(not_played.contains(r#""move":null"#), "{not_played}");
        let played = hidden.best_move_event(best, false, true, 10).to_json();
        assert!(played.contains(r#""san":"e4""#), "{played}");
        assert_eq!(hidden.first_move(Some("e2e5")), None);
    }
}
