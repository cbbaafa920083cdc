//! Self-play training data: fast games at a fixed number of nodes from
//! randomised openings, several games at once, every quiet position
//! written with the game's result.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use chess::{Game, Position};
use engine::selfplay::{self, Ending, GameRules};
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

/// Scores beyond this are decisive: the game is adjudicated (the shared
/// rules' resign score) and such positions are not kept.
const DECISIVE: i32 = 1500;

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
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    let rules = GameRules {
        resign_score: DECISIVE,
        ..GameRules::default()
    };
    let mut fens: Vec<Position> = Vec::new();
    let finished = selfplay::play(
        game,
        &rules,
        |_, game, history| {
            engine.search(game.position(), history, limits.clone(), reporter.clone())
        },
        |game, found| {
            let pos = game.position();
            let Some(best) = found.best else { return };
            let capture = pos.piece_at(best.to()).is_some() && !best.is_castling();
            if !pos.in_check()
                && !capture
                && best.promotion_role().is_none()
                && found.score.abs() < DECISIVE
            {
                fens.push(*pos);
            }
        },
    );
    if finished.ending == Ending::NoMove {
        return None;
    }
    let result = finished.white_score as f32;
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
