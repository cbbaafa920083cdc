//! The GUI's game review ("Analyse game") of the games of a PGN file, run
//! here with the engine in-process, every judged move printed with its
//! sentences as the page shows them (docs/explain.md, "Three famous games").
//!
//! `cargo run --release -p gamerecord --example review_pgn -- tests/data/famous_games.pgn [DEPTH]`
//!
//! The pass is the GUI's own (`review::Review`, its `view` and its
//! judgements); only the searches differ: a fixed depth (default 16),
//! so that the output is the same on every run, instead of 300 ms.

use std::sync::Arc;

use engine::{Engine, Limits};
use gamerecord::record::GameRecord;
use gamerecord::review::{self, PassGame, PassLimit, PositionEval, Review};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: review_pgn FILE.pgn [DEPTH]")?;
    let depth: i32 = match args.next() {
        Some(d) => d.parse().map_err(|e| format!("DEPTH '{d}': {e}"))?,
        None => 16,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let mut engine = Engine::try_new().map_err(|e| e.to_string())?;
    for game in text.split("\n[Event ").filter(|g| !g.trim().is_empty()) {
        let game = if game.starts_with("[Event ") {
            game.to_string()
        } else {
            format!("[Event {game}")
        };
        review_game(&mut engine, &game, depth)?;
    }
    Ok(())
}

fn tag<'a>(pgn: &'a str, name: &str) -> &'a str {
    pgn.lines()
        .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
        .and_then(|l| l.strip_suffix("\"]"))
        .unwrap_or("?")
}

fn review_game(engine: &mut Engine, pgn: &str, depth: i32) -> Result<(), String> {
    let mut record = GameRecord::new(chess::Position::startpos());
    record.import_pgn(pgn).map_err(|e| e.to_string())?;
    println!(
        "### {} – {}, {} {}\n",
        tag(pgn, "White"),
        tag(pgn, "Black"),
        tag(pgn, "Site"),
        tag(pgn, "Date").get(..4).unwrap_or("?")
    );
    let game = PassGame::of(&record).map_err(|e| e.to_string())?;
    let mut results = Review::default();
    let pass = results.begin(&game, PassLimit::default());
    let keys: Vec<u64> = game.positions.iter().map(chess::Position::key).collect();
    for (i, pos) in game.positions.iter().enumerate() {
        let eval = if pos.has_legal_moves() {
            engine.new_game();
            let quiet: engine::Reporter = Arc::new(|_| {});
            let r = engine.search(pos, &keys[..i], Limits::depth(depth), quiet);
            PositionEval::searched(r.user_score(), pos.turn(), r.best, &r.pv, r.depth)
        } else {
            PositionEval::terminal(pos)
        };
        results.store(pass, i, eval, &record);
    }
    results.finish(pass);
    let view = review::view(&results, &record);
    for m in view.moves.iter().flatten() {
        let Some(judgement) = m.judgement else {
            continue;
        };
        let number = format!(
            "{}{}",
            m.ply.div_ceil(2),
            if m.side == 'w' { "." } else { "..." }
        );
        let word = format!("{judgement:?}");
        let said = [m.explain.clone(), m.best_explain.clone()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let said = if said.is_empty() {
            format!(
                "(nothing certain; best was {})",
                m.best.as_deref().unwrap_or("?")
            )
        } else {
            said
        };
        println!(
            "- {number} {} — {word}, −{:.1} % winning chances: {said}",
            m.san, m.loss
        );
    }
    if let Some(s) = &view.summary {
        println!(
            "\nWhite: {} inaccuracies, {} mistakes, {} blunders; Black: {} inaccuracies, {} mistakes, {} blunders.\n",
            s.w.inaccuracies, s.w.mistakes, s.w.blunders, s.b.inaccuracies, s.b.mistakes, s.b.blunders
        );
    }
    Ok(())
}
