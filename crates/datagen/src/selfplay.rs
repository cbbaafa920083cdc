//! Self-play training data: games at a soft node limit per move from random
//! openings, several at once, adjudicated so that they end quickly; every
//! position that passes the filter is kept with the search's score and,
//! once the game is over, its result.
//!
//! Every game has an index, and its random opening comes from a generator
//! seeded by `(seed, shard, index)` alone: a run's set of games does not
//! depend on the number of threads, and machines given the same seed and
//! different shards play different games.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use chess::{Color, Position};
use engine::Engine;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use trainingdata::{viriformat, RecordResult, TrainingRecord};

use crate::dataset::LabelledPosition;
use arena::engine_player::{EnginePlayer, PlayerLimit};
use matchcore::adjudication::{DrawRule, ResignRule};
use matchcore::ending::Ending;
use matchcore::engine_process::EngineError;
use matchcore::game_loop::{self, Adjudication, CapVerdict, GameRules, Seats, Timing};
use matchcore::player::{MoveRequest, Player, Reply, Score, Thought};
use matchcore::random_openings::OpeningSource;
use matchcore::worker_pool::WorkerPool;
use trainingdata::{PositionFilter, SkipCounts};

/// How to generate.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play (`None`: until the sink or a stop says enough).
    pub games: Option<u64>,
    /// Soft node limit per move.
    pub nodes: u64,
    /// Where games start.
    pub openings: OpeningSource,
    /// Which positions are kept.
    pub filter: PositionFilter,
    /// Adjudication and the move cap.
    pub rules: GameRules,
    /// The share of games (percent) played out with no win adjudication,
    /// so that won endings are played to mate in the data (draws are still
    /// adjudicated, the cap still holds).
    pub play_out_percent: u32,
    /// Games played at once (one engine thread each).
    pub threads: usize,
    /// Seed of the random openings.
    pub seed: u64,
    /// This machine's shard: shards with the same seed play different games.
    pub shard: u64,
    /// Engine options (`Hash`, `EvalFile`, ...) set on every engine.
    pub options: Vec<(String, String)>,
    /// While this file exists, no search starts: every game waits before
    /// its next move (checked once a move, then every half second), so
    /// that a timed match can have the machine.
    pub pause_file: Option<PathBuf>,
}

/// Datagen's win adjudication: a side both searches put this far ahead
/// (centipawns) for [`WIN_PLIES`] plies in a row wins.
pub const WIN_SCORE: i32 = 2500;
/// See [`WIN_SCORE`].
pub const WIN_PLIES: u32 = 8;
/// Datagen's draw adjudication: from this ply on (move 40), [`DRAW_PLIES`]
/// plies in a row within [`DRAW_SCORE`] centipawns of zero draw.
pub const DRAW_FROM_PLY: u32 = 80;
/// See [`DRAW_FROM_PLY`].
pub const DRAW_SCORE: i32 = 10;
/// See [`DRAW_FROM_PLY`].
pub const DRAW_PLIES: u32 = 12;
/// Games reaching this many plies are drawn.
pub const MAX_PLIES: usize = 400;

/// Datagen's adjudication: the constants above.
pub fn default_rules() -> GameRules {
    GameRules {
        max_plies: Some(MAX_PLIES),
        adjudication: Adjudication::Streaks {
            resign: Some(ResignRule::Agreed {
                score: WIN_SCORE,
                plies: WIN_PLIES,
            }),
            draw: Some(DrawRule {
                from_ply: DRAW_FROM_PLY,
                plies: DRAW_PLIES,
                score: DRAW_SCORE,
            }),
        },
        at_cap: CapVerdict::Draw,
        ..GameRules::default()
    }
}

/// Whether game `index` is one of the share played out (chosen from the
/// game's seed, so the same games for any number of threads).
pub fn plays_out(config: &DatagenConfig, index: u64) -> bool {
    const SALT: u64 = 0x706c_6179_5f6f_7574; // "play_out"
    game_seed(config.seed ^ SALT, config.shard, index) % 100 < u64::from(config.play_out_percent)
}

/// `rules` without the adjudication of wins (score streaks and tables):
/// a played-out game ends in mate, by a draw rule or at the cap.
fn without_win_adjudication(rules: &GameRules) -> GameRules {
    let adjudication = match rules.adjudication {
        Adjudication::Streaks { draw, .. } => Adjudication::Streaks { resign: None, draw },
        Adjudication::Fastchess { draw, .. } => Adjudication::Fastchess { resign: None, draw },
    };
    GameRules {
        adjudication,
        tablebase: None,
        ..rules.clone()
    }
}

/// A kept position before the game's result is known.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// The search's score, centipawns, White's view.
    pub score_white: i16,
}

/// A finished game's kept positions and result.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game's index in its shard.
    pub index: u64,
    /// Every searched move with its score, from the position after the
    /// random opening plies: what the store keeps.
    pub game: viriformat::Game,
    /// The positions the filter kept, in game order.
    pub samples: Vec<Sample>,
    /// The game's result.
    pub result: RecordResult,
    /// How it ended.
    pub ending: Ending,
    /// Plies played (random ones included).
    pub plies: usize,
    /// Positions searched but left out.
    pub skipped: SkipCounts,
}

impl GameRecord {
    /// The kept positions as training records.
    pub fn records(&self) -> impl Iterator<Item = TrainingRecord> + '_ {
        self.samples
            .iter()
            .map(|s| TrainingRecord::from_position(&s.pos, s.score_white, self.result))
    }

    /// The kept positions with White's score in the game, for Texel tuning.
    pub fn labelled(&self) -> Vec<LabelledPosition> {
        let result = self.result.white_score();
        self.samples
            .iter()
            .map(|s| LabelledPosition { pos: s.pos, result })
            .collect()
    }
}

/// The seed of game `index` of `shard`: a SplitMix64 mix, so that nearby
/// seeds, shards and indices give unrelated streams.
pub fn game_seed(seed: u64, shard: u64, index: u64) -> u64 {
    let mut x = seed;
    for word in [shard, index] {
        x = splitmix(x ^ splitmix(word.wrapping_add(0x632b_e59b_d9b4_e019)));
    }
    x
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An engine with `options` set.
pub fn engine_with(options: &[(String, String)]) -> Result<Engine, engine::OptionError> {
    let mut engine = Engine::new();
    for (name, value) in options {
        engine.set_option(name, value)?;
    }
    Ok(engine)
}

/// Datagen's seat: the one engine player for both sides (one table and
/// one history for the whole game), at the run's soft node limit, waiting
/// while the pause file exists and giving up once `halted`.
struct Pausable<'a> {
    player: &'a mut EnginePlayer,
    halted: &'a (dyn Fn() -> bool + Sync),
    pause_file: Option<&'a Path>,
}

impl Player for Pausable<'_> {
    fn new_game(&mut self, start: &Position) -> Result<(), EngineError> {
        self.player.new_game(start)
    }

    fn go(&mut self, request: &MoveRequest) -> Result<(Reply, Thought), EngineError> {
        while self.pause_file.is_some_and(Path::exists) && !(self.halted)() {
            std::thread::sleep(Duration::from_millis(500));
        }
        if (self.halted)() {
            // No move ends the game loop at once.
            return Err(EngineError::NoMove);
        }
        self.player.go(request)
    }

    fn quit(self: Box<Self>) {}
}

/// The player datagen's games are played by: an engine with `config`'s
/// options at its soft node limit.
pub fn player(config: &DatagenConfig) -> Result<EnginePlayer, engine::OptionError> {
    Ok(EnginePlayer::with_limit(
        engine_with(&config.options)?,
        PlayerLimit::SoftNodes(config.nodes),
    ))
}

/// Plays game `index`; `None` when `halted()` became true during it (or,
/// never in practice, when no opening could be made).
pub fn play_game(
    player: &mut EnginePlayer,
    config: &DatagenConfig,
    index: u64,
    halted: &(dyn Fn() -> bool + Sync),
) -> Option<GameRecord> {
    let mut rng = SmallRng::seed_from_u64(game_seed(config.seed, config.shard, index));
    let opening = config.openings.generate(&mut rng)?;
    let mut samples = Vec::new();
    let mut skipped = SkipCounts::default();
    let mut player = Pausable {
        player,
        halted,
        pause_file: config.pause_file.as_deref(),
    };
    let start = *opening.position();
    let mut moves = Vec::new();
    let played_out;
    let rules = if plays_out(config, index) {
        played_out = without_win_adjudication(&config.rules);
        &played_out
    } else {
        &config.rules
    };
    let finished = game_loop::play(
        opening,
        Seats::Both(&mut player),
        [Timing::default(); 2],
        rules,
        |game, best, thought, _| {
            let pos = game.position();
            let white = thought
                .score
                .map_or(Score::Cp(0), |s| s.white_view(pos.turn()));
            let stored = viriformat::stored_score(white);
            moves.push((best, stored));
            // Mates read back as very large scores, which the filter skips
            // as it skips the search's own mate scores.
            match config.filter.check(pos, best, i32::from(stored)) {
                Ok(()) => samples.push(Sample {
                    pos: *pos,
                    score_white: stored,
                }),
                Err(skip) => skipped.count(skip),
            }
        },
    );
    if finished.ending.broken().is_some() {
        return None;
    }
    let winner = match finished.ending.result() {
        pgn::GameResult::WhiteWins => Some(Color::White),
        pgn::GameResult::BlackWins => Some(Color::Black),
        pgn::GameResult::Draw | pgn::GameResult::Unknown => None,
    };
    let result = RecordResult::from_winner(winner);
    Some(GameRecord {
        index,
        game: viriformat::Game {
            start,
            result,
            moves,
        },
        samples,
        result,
        ending: finished.ending,
        plies: finished.game.moves().len(),
        skipped,
    })
}

/// Plays games on `config.threads` threads until `config.games` are done,
/// `stop` is raised, or `sink` returns false; each finished game goes to
/// `sink` (called from the worker threads, one at a time). Games in
/// progress when it stops are dropped. Fails only when an engine option is
/// refused.
pub fn generate(
    config: &DatagenConfig,
    stop: &AtomicBool,
    sink: impl FnMut(GameRecord) -> bool + Send,
) -> Result<(), engine::OptionError> {
    // Refuse bad options before any thread starts.
    player(config)?;
    let next = AtomicU64::new(0);
    let sink = Mutex::new(sink);
    let enough = AtomicBool::new(false);
    let halted = || stop.load(Ordering::Relaxed) || enough.load(Ordering::Relaxed);
    // The searches run on each engine's own threads: the workers only play
    // the games, on an ordinary stack.
    WorkerPool::new(config.threads).run(
        || {
            if halted() {
                return None;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            config.games.is_none_or(|n| index < n).then_some(index)
        },
        |indices| {
            let mut player = player(config).expect("options checked above");
            for index in indices {
                let Some(game) = play_game(&mut player, config, index, &halted) else {
                    continue;
                };
                let mut sink = sink.lock().expect("no sink panics");
                if !halted() && !(sink)(game) {
                    enough.store(true, Ordering::Relaxed);
                }
            }
        },
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(games: u64, threads: usize) -> DatagenConfig {
        DatagenConfig {
            games: Some(games),
            nodes: 300,
            openings: OpeningSource::random(8..=9),
            filter: PositionFilter {
                min_ply: 10,
                max_score: 1500,
            },
            rules: default_rules(),
            play_out_percent: 0,
            threads,
            seed: 1,
            shard: 0,
            options: Vec::new(),
            pause_file: None,
        }
    }

    fn run(config: &DatagenConfig) -> Vec<GameRecord> {
        let mut games = Vec::new();
        generate(config, &AtomicBool::new(false), |g| {
            games.push(g);
            true
        })
        .unwrap();
        games.sort_by_key(|g| g.index);
        games
    }

    #[test]
    fn the_share_played_out_is_the_one_asked_and_keeps_only_draw_rules() {
        let mut c = config(1, 1);
        let share = |c: &DatagenConfig| (0..10_000).filter(|&i| plays_out(c, i)).count();
        assert_eq!(share(&c), 0);
        c.play_out_percent = 10;
        let n = share(&c);
        assert!(
            (900..=1100).contains(&n),
            "{n} of 10,000 played out, not about 10 %"
        );
        let picks = |c: &DatagenConfig| (0..200).map(|i| plays_out(c, i)).collect::<Vec<_>>();
        let shard0 = picks(&c);
        c.shard = 1;
        assert_ne!(picks(&c), shard0, "other shards play out other games");
        c.play_out_percent = 100;
        assert_eq!(share(&c), 10_000);
        let rules = without_win_adjudication(&default_rules());
        let Adjudication::Streaks { resign, draw } = rules.adjudication else {
            panic!("datagen's rules are streaks");
        };
        assert!(resign.is_none());
        assert!(draw.is_some());
        assert_eq!(rules.max_plies, Some(MAX_PLIES));
    }

    #[test]
    fn a_played_out_game_ends_in_mate_a_draw_or_at_the_cap() {
        let mut c = config(4, 2);
        let adjudicated = run(&c)
            .iter()
            .filter(|g| matches!(g.ending, Ending::ScoreWin { .. }))
            .count();
        assert!(adjudicated > 0, "these games need a won one to play out");
        c.play_out_percent = 100;
        let games = run(&c);
        assert!(
            games
                .iter()
                .any(|g| matches!(g.ending, Ending::Rules(chess::Outcome::Checkmate { .. }))),
            "a won game played out ends in mate: {:?}",
            games.iter().map(|g| &g.ending).collect::<Vec<_>>()
        );
        for g in games {
            assert!(
                !matches!(
                    g.ending,
                    Ending::ScoreWin { .. } | Ending::Tablebase { winner: Some(_) }
                ),
                "game {} was adjudicated a win: {:?}",
                g.index,
                g.ending
            );
        }
    }

    #[test]
    fn games_are_played_filtered_and_labelled() {
        let games = run(&config(3, 2));
        assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1, 2]);
        for g in &games {
            assert!(!g.samples.is_empty());
            for (s, r) in g.samples.iter().zip(g.records()) {
                assert!(!s.pos.in_check());
                assert!(i32::from(s.score_white).abs() < 1500);
                assert_eq!(r.result(), g.result);
                assert_eq!(r.score(), s.score_white);
                assert!(r.fullmove_number() >= 5, "ply 10 or later");
            }
        }
    }

    #[test]
    fn the_games_do_not_depend_on_the_thread_count() {
        let one = run(&config(2, 1));
        let two = run(&config(2, 2));
        for (a, b) in one.iter().zip(&two) {
            assert_eq!(a.plies, b.plies);
            assert_eq!(a.result, b.result);
            let fens = |g: &GameRecord| g.samples.iter().map(|s| s.pos.fen()).collect::<Vec<_>>();
            assert_eq!(fens(a), fens(b));
        }
    }

    #[test]
    fn shards_and_seeds_give_different_streams() {
        let seeds: std::collections::HashSet<u64> = (0..4)
            .flat_map(|shard| (0..100).map(move |i| game_seed(1, shard, i)))
            .collect();
        assert_eq!(seeds.len(), 400);
        assert_ne!(game_seed(1, 0, 0), game_seed(2, 0, 0));
    }

    #[test]
    fn the_sink_and_the_stop_flag_end_the_run() {
        let mut config = config(1000, 2);
        config.games = None;
        let mut seen = 0;
        generate(&config, &AtomicBool::new(false), |_| {
            seen += 1;
            seen < 2
        })
        .unwrap();
        assert_eq!(seen, 2);
        let stop = AtomicBool::new(true);
        generate(&config, &stop, |_| panic!("no game after a stop")).unwrap();
    }

    #[test]
    fn bad_engine_options_are_refused() {
        let mut config = config(1, 1);
        config.options = vec![("Hash".into(), "lots".into())];
        assert!(generate(&config, &AtomicBool::new(false), |_| true).is_err());
    }
}
