//! Self-play training data: fast games at a fixed number of nodes from
//! randomised openings, several games at once, every quiet position
//! written with the game's result.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use chess::{Game, Position};
use engine::{Engine, Limits};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::dataset::LabelledPosition;

/// How to generate.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play.
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Random moves at the start of each game (then the engine plays).
    pub random_plies: usize,
    /// Games played at once.
    pub threads: usize,
    /// Seed of the random openings.
    pub seed: u64,
}

/// A finished game's positions.
pub struct GameRecord {
    /// Quiet positions (not in check, engine's best move not a capture), labelled.
    pub positions: Vec<LabelledPosition>,
}

/// Scores beyond this for several plies end the game (adjudication).
const DECISIVE: i32 = 1500;
const MAX_PLIES: usize = 400;

/// Plays one game; `None` when the random opening ended the game.
fn play_game(
    engine: &mut Engine,
    config: &DatagenConfig,
    rng: &mut SmallRng,
) -> Option<GameRecord> {
    let mut game = Game::new(Position::startpos());
    for _ in 0..config.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.push(moves[rng.random_range(0..moves.len())]);
    }
    if game.outcome().is_some() {
        return None;
    }
    engine.new_game();
    let reporter: engine::Reporter = Arc::new(|_| {});
    let mut fens: Vec<Position> = Vec::new();
    // Keys of the positions before the current one, for repetitions.
    let mut history: Vec<u64> = Vec::new();
    {
        let mut replay = *game.start();
        for &m in game.moves() {
            history.push(replay.key());
            replay.play(m);
        }
    }
    let mut decisive_streak = 0;
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome.winner() {
                Some(chess::Color::White) => 1.0,
                Some(chess::Color::Black) => 0.0,
                None => 0.5,
            };
        }
        if game.moves().len() >= MAX_PLIES {
            break 0.5;
        }
        let pos = *game.position();
        let limits = Limits {
            nodes: Some(config.nodes),
            ..Limits::default()
        };
        let found = engine.search(&pos, &history, limits, reporter.clone());
        let best = found.best?;
        let white_score = if pos.turn() == chess::Color::White {
            found.score
        } else {
            -found.score
        };
        if white_score.abs() >= DECISIVE {
            decisive_streak += 1;
            if decisive_streak >= 6 {
                break if white_score > 0 { 1.0 } else { 0.0 };
            }
        } else {
            decisive_streak = 0;
        }
        let capture = pos.piece_at(best.to()).is_some() && !best.is_castling();
        if !pos.in_check()
            && !capture
            && best.promotion_role().is_none()
            && found.score.abs() < DECISIVE
        {
            fens.push(pos);
        }
        history.push(pos.key());
        game.push(best);
    };
    Some(GameRecord {
        positions: fens
            .into_iter()
            .map(|pos| LabelledPosition { pos, result })
            .collect(),
    })
}

/// Plays `config.games` games on `config.threads` threads, handing each
/// finished game to `sink` (called from the worker threads, one at a time).
pub fn generate(config: &DatagenConfig, sink: impl FnMut(GameRecord) + Send) {
    let next = AtomicUsize::new(0);
    let sink = Mutex::new(sink);
    std::thread::scope(|scope| {
        for t in 0..config.threads.max(1) {
            let next = &next;
            let sink = &sink;
            std::thread::Builder::new()
                .stack_size(engine::thread::SEARCH_STACK)
                .spawn_scoped(scope, move || {
                    let mut engine = Engine::new();
                    let mut rng = SmallRng::seed_from_u64(
                        config.seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    );
                    while next.fetch_add(1, Ordering::Relaxed) < config.games {
                        // A game the random opening finished is replaced.
                        let record = loop {
                            if let Some(r) = play_game(&mut engine, config, &mut rng) {
                                break r;
                            }
                        };
                        (sink.lock().expect("no sink panics"))(record);
                    }
                })
                .expect("a datagen thread starts");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_played_and_labelled() {
        let config = DatagenConfig {
            games: 2,
            nodes: 300,
            random_plies: 8,
            threads: 2,
            seed: 1,
        };
        let mut records = Vec::new();
        generate(&config, |r| records.push(r));
        assert_eq!(records.len(), 2);
        for r in &records {
            assert!(!r.positions.is_empty());
            let result = r.positions[0].result;
            assert!([0.0, 0.5, 1.0].contains(&result));
            assert!(r
                .positions
                .iter()
                .all(|p| p.result == result && !p.pos.in_check()));
        }
    }
}
