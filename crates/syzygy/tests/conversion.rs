//! With the tables, Kestrel plays endgames out correctly against itself at
//! a short, fixed node budget per move (deterministic, and quick under
//! load): it mates with KQ against KR, KB+N against K and K+P against K
//! (positions where few moves win, found with python-chess), and holds the
//! draw with KB against KR from a position where 13 of 14 moves lose.
//! Both sides use the tables, so the defence is the best there is.

use std::sync::Arc;

use chess::{Color, Game, Outcome, Position};
use engine::{Engine, Limits};
use syzygy::SyzygyTablebase;

fn engine_with_tables() -> Engine {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/syzygy");
    let (tables, problems) = SyzygyTablebase::open(dir).expect("tables");
    assert!(problems.is_empty(), "{problems:?}");
    let mut engine = Engine::new();
    engine.set_tablebase(Some(Arc::new(tables)));
    engine
}

/// Plays the game out (at most `max_plies`) and returns its outcome.
fn play_out(fen: &str, nodes: u64, max_plies: usize) -> (Option<Outcome>, Game) {
    let mut engine = engine_with_tables();
    let mut game = Game::new(Position::from_fen(fen).unwrap());
    let mut keys = Vec::new();
    for _ in 0..max_plies {
        if game.outcome().is_some() {
            break;
        }
        let pos = *game.position();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let result = engine.search(&pos, &keys, limits, Arc::new(|_| {}));
        let mv = result.best.expect("a move");
        keys.push(pos.key());
        game.push(mv);
    }
    (game.outcome(), game)
}

fn moves(game: &Game) -> String {
    let mut pos = *game.start();
    let mut text = Vec::new();
    for &m in game.moves() {
        text.push(pos.san(m));
        pos.play_unchecked(m);
    }
    text.join(" ")
}

fn assert_win(fen: &str, winner: Color) {
    let (outcome, game) = play_out(fen, 4_000, 200);
    assert_eq!(
        outcome.and_then(chess::Outcome::winner),
        Some(winner),
        "{fen}: {outcome:?} after {}",
        moves(&game)
    );
}

#[test]
fn queen_beats_rook() {
    // DTZ 57 for White.
    assert_win("7K/3r4/4k3/8/8/6Q1/8/8 w - - 0 1", Color::White);
}

#[test]
fn bishop_and_knight_mate() {
    // DTZ 62: the longest of 3,000 random KBNvK wins.
    assert_win("7K/8/5k2/8/1B6/3N4/8/8 w - - 0 1", Color::White);
}

#[test]
fn pawn_promotes_and_mates() {
    // Only 1 of White's 9 moves wins.
    assert_win("8/8/5k2/8/8/1P4K1/8/8 w - - 0 1", Color::White);
}

#[test]
fn bishop_holds_the_rook() {
    // Black to move: 13 of 14 moves lose.
    let (outcome, game) = play_out("1k6/5b2/7R/2K5/8/8/8/8 b - - 0 1", 4_000, 300);
    assert!(
        outcome.is_some_and(|o| o.winner().is_none()),
        "{outcome:?} after {}",
        moves(&game)
    );
}

#[test]
fn search_probes_below_a_root_outside_the_tables() {
    // KQ v KRN: five pieces, so the root is not in the tables, but taking
    // the knight leads into KQvKR, which is (and is won).
    let pos = Position::from_fen("8/8/4k3/8/3r4/5n2/8/2K4Q w - - 0 1").unwrap();
    let mut engine = engine_with_tables();
    let result = engine.search(&pos, &[], Limits::depth(8), Arc::new(|_| {}));
    assert!(result.stats.tb_hits > 0, "{:?}", result.stats);
    // The search knows the capture wins, from the tables.
    assert_eq!(result.best.map(|m| pos.san(m)).as_deref(), Some("Qxf3"));
    assert!(
        result.score >= engine::score::TB_WIN_BOUND,
        "{}",
        result.score
    );
}
