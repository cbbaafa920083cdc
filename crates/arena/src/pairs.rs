//! The arena: Kestrel configurations playing each other in-process, game
//! pairs (each opening twice, colours reversed), several games at once,
//! one engine per side with one search thread, at fixed nodes or depth.
//! The game loop is matchcore's `game_loop::play`, shared with datagen; the
//! engines play in it as [`EnginePlayer`]s, through the `Player` trait the
//! match runner's child-process engines implement too.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use chess::{Game, Position};
use engine::eval::hce::weights::Weights;
use engine::{Engine, SearchParams};
use matchcore::adjudication::{DrawRule, ResignRule};
use matchcore::ending::Ending;
use matchcore::game_loop::{self, Adjudication, CapVerdict, GameRules, Seats, Timing};
use matchcore::search_limits::SearchLimits;
use matchcore::worker_pool::WorkerPool;

use crate::engine_player::EnginePlayer;

/// How long each move searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// This many nodes (immune to machine load).
    Nodes(u64),
    /// To this depth.
    Depth(i32),
}

impl MoveLimit {
    fn limits(self) -> SearchLimits {
        match self {
            MoveLimit::Nodes(n) => SearchLimits {
                nodes: Some(n),
                ..SearchLimits::default()
            },
            // Depths are checked positive where they are read (`--depth`).
            MoveLimit::Depth(d) => SearchLimits {
                depth: Some(u32::try_from(d).unwrap_or(0)),
                ..SearchLimits::default()
            },
        }
    }
}

impl std::fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveLimit::Nodes(n) => write!(f, "{n} nodes"),
            MoveLimit::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

/// One configuration of Kestrel.
#[derive(Clone, Debug)]
pub struct Contender {
    /// Its name in reports.
    pub name: String,
    /// Search parameters (techniques on/off, numbers).
    pub params: SearchParams,
    /// Evaluation weights.
    pub weights: Arc<Weights>,
    /// Search per move.
    pub limit: MoveLimit,
}

impl Contender {
    /// The default configuration (default search, compiled-in weights).
    pub fn new(name: impl Into<String>, limit: MoveLimit) -> Contender {
        Contender {
            name: name.into(),
            params: SearchParams::default(),
            weights: Weights::default_shared(),
            limit,
        }
    }
}

/// How the arena plays.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Adjudication and move cap.
    pub rules: GameRules,
    /// Games played at once.
    pub threads: usize,
    /// Transposition table of each engine, MiB.
    pub hash_mib: usize,
}

impl Default for ArenaConfig {
    /// Matches at small node counts: 8 MiB tables, one game at a time,
    /// resign at 1000 cp held for 8 plies, draw when both sides see
    /// within 10 cp for 12 plies from ply 80, a 300-ply cap judged a draw.
    fn default() -> ArenaConfig {
        ArenaConfig {
            rules: GameRules {
                max_plies: Some(300),
                adjudication: Adjudication::Streaks {
                    resign: Some(ResignRule::Agreed {
                        score: 1000,
                        plies: 8,
                    }),
                    draw: Some(DrawRule {
                        from_ply: 80,
                        plies: 12,
                        score: 10,
                    }),
                },
                at_cap: CapVerdict::Draw,
                ..GameRules::default()
            },
            threads: 1,
            hash_mib: 8,
        }
    }
}

/// Two players and an opening: `first` plays White in the pair's first
/// game and Black in its second.
#[derive(Clone, Copy, Debug)]
pub struct Pairing {
    /// Index of the first player.
    pub first: usize,
    /// Index of the second player.
    pub second: usize,
    /// The opening both games start from.
    pub opening: Position,
}

/// A game result from one player's point of view.
pub use elo::PlayerResult;

fn from_points(points: f64) -> PlayerResult {
    if points > 0.75 {
        PlayerResult::Win
    } else if points < 0.25 {
        PlayerResult::Loss
    } else {
        PlayerResult::Draw
    }
}

/// The opponent's view of a result.
pub fn reversed(s: PlayerResult) -> PlayerResult {
    match s {
        PlayerResult::Win => PlayerResult::Loss,
        PlayerResult::Draw => PlayerResult::Draw,
        PlayerResult::Loss => PlayerResult::Win,
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// White's player index.
    pub white: usize,
    /// Black's player index.
    pub black: usize,
    /// White's result.
    pub white_score: PlayerResult,
    /// Why it ended.
    pub ending: Ending,
    /// The game.
    pub game: Game,
}

/// A finished game pair.
#[derive(Clone, Debug)]
pub struct PairRecord {
    /// The pairing played.
    pub pairing: Pairing,
    /// The game with `first` as White, then the one with `first` as Black.
    pub games: [GameRecord; 2],
}

impl PairRecord {
    /// The first player's results in the two games.
    pub fn first_scores(&self) -> [PlayerResult; 2] {
        [
            self.games[0].white_score,
            reversed(self.games[1].white_score),
        ]
    }
}

/// Plays every pairing (two games each) on `config.threads` threads and
/// returns the pairs in the order of `pairings`. `progress(games_done)` is
/// called after each game, from the worker threads.
pub fn play_pairs(
    players: &[Contender],
    pairings: &[Pairing],
    config: &ArenaConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<PairRecord> {
    let total = pairings.len() * 2;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameRecord>>> = Mutex::new(vec![None; total]);
    // The searches run on each engine's own threads: the workers only play
    // the games, on an ordinary stack.
    WorkerPool::new(config.threads.clamp(1, total.max(1))).run(
        || {
            let i = next.fetch_add(1, Ordering::Relaxed);
            (i < total).then_some(i)
        },
        |games| {
            let mut engines = [(); 2].map(|()| {
                let mut e = Engine::new();
                e.set_option("Hash", &config.hash_mib.max(1).to_string())
                    .expect("a table size from 1 MiB is accepted");
                EnginePlayer::new(e, SearchLimits::default())
            });
            for i in games {
                let p = &pairings[i / 2];
                let (white, black) = if i.is_multiple_of(2) {
                    (p.first, p.second)
                } else {
                    (p.second, p.first)
                };
                let record = play_game(
                    &mut engines,
                    [&players[white], &players[black]],
                    [white, black],
                    p.opening,
                    &config.rules,
                );
                results.lock().expect("no worker panics holding it")[i] = Some(record);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            }
        },
    );
    let mut games = results
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|g| g.expect("every game was played"));
    pairings
        .iter()
        .map(|&pairing| PairRecord {
            pairing,
            games: [
                games.next().expect("two games a pair"),
                games.next().expect("two games a pair"),
            ],
        })
        .collect()
}

fn play_game(
    engines: &mut [EnginePlayer; 2],
    players: [&Contender; 2],
    indices: [usize; 2],
    opening: Position,
    rules: &GameRules,
) -> GameRecord {
    for (engine, player) in engines.iter_mut().zip(players) {
        engine.engine_mut().set_params(player.params);
        engine.engine_mut().set_weights(player.weights.clone());
        engine.set_limits(player.limit.limits());
    }
    let [white, black] = engines;
    let finished = game_loop::play(
        Game::new(opening),
        Seats::Each([white, black]),
        [Timing::default(); 2],
        rules,
        |_, _, _, _| {},
    );
    GameRecord {
        white: indices[0],
        black: indices[1],
        white_score: from_points(finished.ending.white_score()),
        ending: finished.ending,
        game: finished.game,
    }
}

/// The one head-to-head match: `pairs` game pairs between `players[0]` and
/// `players[1]`, each pair from the next opening of `openings` (from the
/// first again when they run out; none when there are none); returns the
/// results of `players[0]`. The ablation's on/off matches and the GA's
/// matches between weight sets are both this.
pub fn head_to_head(
    players: &[Contender; 2],
    pairs: usize,
    openings: &[Position],
    config: &ArenaConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Tally {
    let pairings: Vec<Pairing> = openings
        .iter()
        .cycle()
        .take(if openings.is_empty() { 0 } else { pairs })
        .map(|&opening| Pairing {
            first: 0,
            second: 1,
            opening,
        })
        .collect();
    let played = play_pairs(players, &pairings, config, progress);
    tally(&played, 0)
}

/// `player`'s results over these pairs (those it played in).
pub fn tally(pairs: &[PairRecord], player: usize) -> Tally {
    let mut t = Tally::default();
    for pair in pairs {
        let [a, b] = if pair.pairing.first == player {
            pair.first_scores()
        } else if pair.pairing.second == player {
            pair.first_scores().map(reversed)
        } else {
            continue;
        };
        for s in [a, b] {
            match s {
                PlayerResult::Win => t.wdl.wins += 1,
                PlayerResult::Draw => t.wdl.draws += 1,
                PlayerResult::Loss => t.wdl.losses += 1,
            }
        }
        t.pairs.add_pair(a, b);
    }
    t
}

/// One player's results over a set of pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won, drawn, lost.
    pub wdl: elo::WdlCounts,
    /// Pairs by the points they brought.
    pub pairs: elo::Pentanomial,
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Color;
    use matchcore::openings;

    #[test]
    fn a_shallow_player_loses_to_a_deep_one() {
        let players = [
            Contender::new("depth 1", MoveLimit::Depth(1)),
            Contender::new("depth 6", MoveLimit::Depth(6)),
        ];
        let pairings: Vec<Pairing> = openings::pick(&openings::embedded(), 6, 3)
            .into_iter()
            .map(|opening| Pairing {
                first: 0,
                second: 1,
                opening,
            })
            .collect();
        let config = ArenaConfig {
            threads: 2,
            ..ArenaConfig::default()
        };
        let progress_calls = AtomicUsize::new(0);
        let pairs = play_pairs(&players, &pairings, &config, &|_| {
            progress_calls.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(progress_calls.load(Ordering::Relaxed), 12);
        assert_eq!(pairs.len(), 6);
        for (pair, pairing) in pairs.iter().zip(&pairings) {
            let [a, b] = &pair.games;
            assert_eq!((a.white, a.black), (0, 1));
            assert_eq!((b.white, b.black), (1, 0));
            for g in [a, b] {
                // Every move was legal: replay it from the opening.
                assert_eq!(g.game.start().key(), pairing.opening.key());
                let mut pos = pairing.opening;
                for &m in g.game.moves() {
                    assert!(pos.legal_moves().contains(&m));
                    pos.play_unchecked(m);
                }
                if let Ending::Rules(outcome) = &g.ending {
                    let expected = outcome.winner().map_or(PlayerResult::Draw, |c| {
                        if c == Color::White {
                            PlayerResult::Win
                        } else {
                            PlayerResult::Loss
                        }
                    });
                    assert_eq!(g.white_score, expected);
                }
            }
        }
        let shallow = tally(&pairs, 0);
        let deep = tally(&pairs, 1);
        assert_eq!(shallow.wdl.games(), 12);
        assert_eq!(shallow.pairs.pairs(), 6);
        assert_eq!(shallow.wdl, deep.wdl.flipped());
        assert_eq!(shallow.pairs.score(), shallow.wdl.score());
        let endings: Vec<_> = pairs
            .iter()
            .flat_map(|p| {
                p.games
                    .iter()
                    .map(|g| (g.ending.clone(), g.game.moves().len()))
            })
            .collect();
        assert!(
            shallow.wdl.score() < 0.3,
            "depth 1 scored {shallow:?}: {endings:?}"
        );
    }

    #[test]
    fn scores_reverse() {
        assert_eq!(reversed(PlayerResult::Win), PlayerResult::Loss);
        assert_eq!(reversed(PlayerResult::Draw), PlayerResult::Draw);
        assert_eq!(from_points(1.0), PlayerResult::Win);
        assert_eq!(from_points(0.5), PlayerResult::Draw);
        assert_eq!(from_points(0.0), PlayerResult::Loss);
    }
}
