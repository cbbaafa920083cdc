//! A search the game's Worker orders from the engine's Worker, and the
//! reports that come back: in the page without a server the game logic
//! and the engine run in two Workers (a search blocks its Worker), so an
//! order crosses as JSON ([`SearchOrder`]) and each report comes back as
//! JSON ([`Tagged`], gamerecord's `SearchReport` with the search it
//! belongs to). The engine's side is [`run`]: the same settings
//! (`EngineSettings::apply`) and the same reports (`SearchReport::of`) as
//! `kestrel gui`'s searches.

use std::sync::Arc;

use chess::Position;
use engine::host::Stopwatch;
use engine::Engine;
use gamerecord::search_report::SearchReport;
use gamerecord::settings::EngineSettings;
use serde::{Deserialize, Serialize};

/// One search, as the game's Worker orders it.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SearchOrder {
    /// The game it is for (echoed in its reports).
    pub game: String,
    /// Its number in that game (echoed too).
    pub search: u64,
    /// The position searched, as FEN.
    pub root: String,
    /// The keys of the positions before it (repetitions).
    pub history: Vec<u64>,
    /// How the engine searches: limits and options, checked by the game.
    pub settings: EngineSettings,
    /// The engine's table size, MiB.
    pub hash_mib: usize,
    /// Clear the table and the move histories first (`ucinewgame`): the
    /// search is for another game than the last, or its game started again
    /// from a position or an import. On the server each game has an engine
    /// of its own, and those events call its `new_game`.
    #[serde(default)]
    pub new_game: bool,
}

/// One report of a search, with the search it belongs to.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Tagged {
    /// The game.
    pub game: String,
    /// The search's number in it.
    pub search: u64,
    /// What it reports.
    pub report: SearchReport,
}

/// Runs `order` on `engine`, sending each report (as JSON) to `emit`; the
/// last is always a `best` report, so that the game hears the search end
/// even when the order cannot be searched (then with no move). Natively
/// the search runs in the background; in the browser it returns when the
/// search is over.
#[allow(clippy::semicolon_if_nothing_returned)]
pub fn run(engine: &mut Engine, order: &SearchOrder, emit: Arc<dyn Fn(String) + Send + Sync>) {
    let tag = |report: SearchReport| {
        let tagged = Tagged {
            game: order.game.clone(),
            search: order.search,
            report,
        };
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string(&tagged).unwrap_or_default()
    };
    let nothing = || {
        emit(tag(SearchReport::Best {
            best: None,
            time_ms: 0,
        }))
    };
    let Ok(root) = Position::from_fen(&order.root) else {
        return nothing();
    };
    let Ok(limits) = order.settings.limits() else {
        return nothing();
    };
    if order.new_game {
        engine.new_game();
    }
    if engine.hash_mib() != order.hash_mib {
        // A size the memory cannot give keeps the old table.
        let _ = engine.set_option("Hash", &order.hash_mib.to_string());
    }
    if order.settings.apply(engine).is_err() {
        return nothing();
    }
    let (game, search) = (order.game.clone(), order.search);
    let watch = Stopwatch::start();
    let reporter: engine::Reporter = Arc::new(move |event| {
        let Some(report) = SearchReport::of(&event, &root, watch.elapsed()) else {
            return;
        };
        let tagged = Tagged {
            game: game.clone(),
            search,
            report,
        };
        emit(serde_json::to_string(&tagged).unwrap_or_default());
    });
    engine.go(root, order.history.clone(), limits, reporter);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn an_order_is_searched_and_reported_to_its_best_move() {
        let order = SearchOrder {
            game: "g1".into(),
            search: 4,
            root: Position::startpos().fen(),
            history: Vec::new(),
            settings: serde_json::from_str(r#"{"depth":3,"options":{"MultiPV":2}}"#)
                .expect("settings"),
            hash_mib: 16,
            new_game: true,
        };
        let text = serde_json::to_string(&order).expect("an order serialises");
        let order: SearchOrder = serde_json::from_str(&text).expect("and reads back");
        let (tx, rx) = mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        let mut engine = Engine::new();
        run(
            &mut engine,
            &order,
            Arc::new(move |line: String| {
                let _ = tx.lock().map(|tx| tx.send(line));
            }),
        );
        let mut lines = Vec::new();
        let mut seen_second_line = false;
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(30))
                .expect("the search reports");
            let tagged: Tagged = serde_json::from_str(&line).expect("a tagged report");
            assert_eq!((tagged.game.as_str(), tagged.search), ("g1", 4));
            if let SearchReport::Line { multipv: 2, .. } = tagged.report {
                seen_second_line = true;
            }
            let done = matches!(tagged.report, SearchReport::Best { best: Some(_), .. });
            lines.push(tagged);
            if done {
                break;
            }
        }
        assert!(seen_second_line, "MultiPV 2 gives two lines: {lines:?}");
        // A wrong order still ends with a best report, without a move.
        let (tx, rx) = mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        let bad = SearchOrder {
            root: "not a fen".into(),
            ..order
        };
        run(
            &mut engine,
            &bad,
            Arc::new(move |line: String| {
                let _ = tx.lock().map(|tx| tx.send(line));
            }),
        );
        let line = rx.recv_timeout(Duration::from_secs(5)).expect("an answer");
        assert!(line.contains(r#""type":"best","best":null"#), "{line}");
    }
}
