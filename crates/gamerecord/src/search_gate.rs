//! Which search a game's pages hear: the host of the game (the server, or
//! the game's Worker in a page without one), not the page, decides what is
//! stale. Every search of a session gets a number; starting one
//! supersedes the one before, whose events are dropped from then on, and
//! stopping one lets its end through (statistics, best move) but no more
//! lines. Deciding and sending happen under one lock, so that on the event
//! stream no event of a superseded search follows the `started` event of
//! the search that replaced it, and no line of a stopped one follows its
//! `stopped` event.
//!
//! The page asks for searches with two purposes, and the gate knows which
//! one runs: an engine player's move is not superseded by an analysis
//! request (its lines are the analysis) nor restarted by a second request
//! for the same move; the game review and the draw probe search for the
//! server itself and report nothing.

use std::sync::{Mutex, MutexGuard};

use crate::tree::NodeId;
use serde::{Deserialize, Serialize};

/// What the page asked a search for.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    /// An engine player's move, played when found.
    Move,
    /// Lines for the page (endless analysis, or "Engine move" lines).
    Analysis,
}

/// Where a search is: a node of the game at a version of it.
pub type SearchSpot = (NodeId, u64);

/// What an event is to its search, which decides whether it passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// A line: only while the search runs (not superseded, not stopped).
    Line,
    /// Part of the search's end (its statistics): while it is the latest,
    /// stopped or not.
    End,
    /// Its last event (the best move): as [`Pass::End`], and the search
    /// is over.
    Last,
}

/// The answer to [`SearchGate::begin`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Begun {
    /// A new search with this number: start it.
    New(u64),
    /// The engine player's search with this number goes on and serves
    /// the request (its lines are the analysis, or it is the same move).
    Kept(u64),
}

#[derive(Debug, Default)]
struct Current {
    /// The latest search's number (0: none yet).
    search: u64,
    /// What the page asked it for; none for the server's own searches.
    purpose: Option<Purpose>,
    /// Where it searches (for a move: a second request is the same one).
    spot: Option<SearchSpot>,
    /// Neither stopped nor over.
    running: bool,
}

/// A session's latest search, and the gate its events pass.
#[derive(Debug, Default)]
pub struct SearchGate {
    current: Mutex<Current>,
}

impl SearchGate {
    fn lock(&self) -> MutexGuard<'_, Current> {
        self.current
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new search for `purpose` (none: the server's own) at `spot`,
    /// unless the engine player's running search serves it. A new one
    /// supersedes the latest: `announce` gets, under the gate's lock, the
    /// number of the search stopped by it (when one was running for the
    /// page) and the new number, to tell the page in that order. Call
    /// with the engine locked, and stop the engine's search after.
    pub fn begin(
        &self,
        purpose: Option<Purpose>,
        spot: Option<SearchSpot>,
        announce: impl FnOnce(Option<u64>, u64),
    ) -> Begun {
        let mut now = self.lock();
        if now.running && now.purpose == Some(Purpose::Move) {
            let serves = match purpose {
                Some(Purpose::Analysis) => true,
                Some(Purpose::Move) => now.spot == spot,
                None => false,
            };
            if serves {
                return Begun::Kept(now.search);
            }
        }
        let stopped = (now.running && now.purpose.is_some()).then_some(now.search);
        *now = Current {
            search: now.search + 1,
            purpose,
            spot,
            running: true,
        };
        announce(stopped, now.search);
        Begun::New(now.search)
    }

    /// Stops the latest search when it runs and has purpose `only` (none:
    /// whatever it is): its lines stop passing, its end still does.
    /// `announce` gets its number under the lock when the page asked for
    /// it. True when it was stopped: then stop the engine's search.
    pub fn stop(&self, only: Option<Purpose>, announce: impl FnOnce(u64)) -> bool {
        let mut now = self.lock();
        if !now.running || only.is_some_and(|p| now.purpose != Some(p)) {
            return false;
        }
        now.running = false;
        if now.purpose.is_some() {
            announce(now.search);
        }
        true
    }

    /// Runs `send` under the lock when an event of search `search` that
    /// is `what` to it may reach the page. True when it ran.
    pub fn pass(&self, search: u64, what: Pass, send: impl FnOnce()) -> bool {
        let mut now = self.lock();
        let open = now.search == search && (now.running || what != Pass::Line);
        if open {
            send();
            if what == Pass::Last {
                now.running = false;
            }
        }
        open
    }

    /// Whether search `search` is the latest and neither stopped nor over:
    /// its move may be played, the review pass's result kept.
    pub fn running(&self, search: u64) -> bool {
        let now = self.lock();
        now.search == search && now.running
    }

    /// Whether a search the page asked for runs (the review pass waits).
    pub fn serving_page(&self) -> bool {
        let now = self.lock();
        now.running && now.purpose.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// A gate and what it let through, as (search, what) pairs.
    fn gate() -> (SearchGate, RefCell<Vec<String>>) {
        (SearchGate::default(), RefCell::new(Vec::new()))
    }

    fn begin(
        g: &SearchGate,
        seen: &RefCell<Vec<String>>,
        p: Option<Purpose>,
        spot: SearchSpot,
    ) -> Begun {
        g.begin(p, Some(spot), |stopped, new| {
            if let Some(s) = stopped {
                seen.borrow_mut().push(format!("stopped {s}"));
            }
            seen.borrow_mut().push(format!("started {new}"));
        })
    }

    fn send(g: &SearchGate, seen: &RefCell<Vec<String>>, search: u64, what: Pass) -> bool {
        g.pass(search, what, || {
            seen.borrow_mut().push(format!("{what:?} {search}"));
        })
    }

    #[test]
    fn a_superseded_search_says_nothing_more() {
        let (g, seen) = gate();
        assert_eq!(
            begin(&g, &seen, Some(Purpose::Analysis), (0, 0)),
            Begun::New(1)
        );
        assert!(send(&g, &seen, 1, Pass::Line));
        assert_eq!(
            begin(&g, &seen, Some(Purpose::Analysis), (1, 0)),
            Begun::New(2)
        );
        for what in [Pass::Line, Pass::End, Pass::Last] {
            assert!(!send(&g, &seen, 1, what), "{what:?} of the old search");
        }
        assert!(send(&g, &seen, 2, Pass::Line));
        assert_eq!(
            *seen.borrow(),
            ["started 1", "Line 1", "stopped 1", "started 2", "Line 2"]
        );
    }

    #[test]
    fn a_stopped_search_ends_but_draws_no_more_lines() {
        let (g, seen) = gate();
        begin(&g, &seen, Some(Purpose::Analysis), (0, 0));
        assert!(g.stop(None, |s| seen.borrow_mut().push(format!("stopped {s}"))));
        assert!(!g.running(1));
        assert!(!send(&g, &seen, 1, Pass::Line));
        assert!(send(&g, &seen, 1, Pass::End) && send(&g, &seen, 1, Pass::Last));
        assert!(!g.stop(None, |_| panic!("nothing runs")), "stopped once");
        assert_eq!(
            *seen.borrow(),
            ["started 1", "stopped 1", "End 1", "Last 1"]
        );
    }

    #[test]
    fn the_engine_players_move_is_kept_by_analysis_and_by_the_same_request() {
        let (g, seen) = gate();
        assert_eq!(begin(&g, &seen, Some(Purpose::Move), (4, 7)), Begun::New(1));
        assert_eq!(
            begin(&g, &seen, Some(Purpose::Analysis), (2, 7)),
            Begun::Kept(1)
        );
        assert_eq!(
            begin(&g, &seen, Some(Purpose::Move), (4, 7)),
            Begun::Kept(1)
        );
        assert!(
            !g.stop(Some(Purpose::Analysis), |_| {}),
            "stopping analysis leaves the move"
        );
        assert!(g.running(1));
        // Another position or version of the game is another move.
        assert_eq!(begin(&g, &seen, Some(Purpose::Move), (4, 8)), Begun::New(2));
        // Once the move is found, analysis may start.
        assert!(send(&g, &seen, 2, Pass::Last));
        assert_eq!(
            begin(&g, &seen, Some(Purpose::Analysis), (5, 8)),
            Begun::New(3)
        );
        // The server's own search supersedes anything, and says so.
        assert_eq!(begin(&g, &seen, None, (5, 8)), Begun::New(4));
        assert_eq!(seen.borrow().last().map(String::as_str), Some("started 4"));
        assert!(seen.borrow().contains(&"stopped 3".to_string()));
    }
}
