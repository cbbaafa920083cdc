//! `BookInSearch`: book positions met near the root are scored with a bonus
//! for the side to move at the root, so the search steers into the book.

use std::sync::Arc;

use chess::{CastlingMode, Position};
use engine::{BookHint, Engine, Limits};

/// A book that knows one position.
struct OnePosition(u64);

impl BookHint for OnePosition {
    fn knows(&self, pos: &Position) -> bool {
        pos.key() == self.0
    }
}

fn best_move(engine: &mut Engine, pos: &Position) -> (String, u64) {
    let r = engine.search(pos, &[], Limits::depth(6), Arc::new(|_| {}));
    let best = r.best.expect("a legal move");
    (
        best.to_uci(CastlingMode::Standard).to_string(),
        r.stats.book_hits,
    )
}

#[test]
fn search_steers_toward_a_book_position() {
    let start = Position::startpos();
    let mut after_a3 = start;
    after_a3.play_unchecked(start.parse_san("a3").expect("legal"));
    let mut engine = Engine::new();
    engine.set_book(Some(Arc::new(OnePosition(after_a3.key()))));

    // Off (the default): the book is not asked, and a3 is not the choice.
    let (plain, hits) = best_move(&mut engine, &start);
    assert_eq!(hits, 0);
    assert_ne!(plain, "a2a3");

    // On, with a big bonus: the search plays into the book position.
    engine.set_option("BookInSearch", "true").expect("option");
    engine.set_option("BookBonus", "200").expect("option");
    engine.set_option("Clear Hash", "").ok();
    let (steered, hits) = best_move(&mut engine, &start);
    assert!(hits > 0);
    assert_eq!(steered, "a2a3");

    // A bonus of 0 leaves the choice to the evaluation again.
    engine.set_option("BookBonus", "0").expect("option");
    engine.new_game();
    let (neutral, hits) = best_move(&mut engine, &start);
    assert!(hits > 0);
    assert_ne!(neutral, "a2a3");
}
