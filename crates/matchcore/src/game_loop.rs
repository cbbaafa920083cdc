//! The one game loop, for every way Kestrel plays games: engines in child
//! processes (`kestrel match`, SPSA) and searchers in this process (the
//! arena, the GA, datagen). It asks the [`Seats`] for each move, keeps the
//! clocks (a child process that overruns loses on time), checks each
//! answer, keeps the history for repetitions, and ends the game by the
//! rules, by adjudication (the rules of [`crate::adjudication`], the
//! endgame tables) or at a move cap. How it ended is an [`Ending`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use chess::{Color, Game, Move, Position};
use types::{Tablebase, Wdl};

use crate::adjudication::{
    absolute_ply, Adjudicator, DrawRule, FastchessAdjudicator, FastchessDraw, FastchessResign,
    ResignRule, Verdict,
};
use crate::ending::Ending;
use crate::engine_process::EngineError;
use crate::player::{MoveRequest, Player, Reply, Score, Thought};
use crate::time_control::{Clock, ClockResult, TimeControl};

/// Extra wait past the time left, so that a late move's overrun is measured
/// (and reported) rather than cut off.
const LATE_GRACE: Duration = Duration::from_secs(1);

/// How long a player with neither clock nor move time may think, by
/// default: a day, since an in-process search at a node or depth limit
/// answers when it is done and cannot be cut off.
pub const DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// The score adjudication of a game, and the order in which the loop asks
/// it, the move cap and the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudication {
    /// Kestrel's streaks ([`Adjudicator`]): each move's score is counted
    /// as it is played, and a streak that completes ends the game on that
    /// move; the cap counts every ply from the first position, opening
    /// moves included, and the tables are asked after a move that leaves
    /// the game going. SPSA, the arena, the GA and datagen.
    Streaks {
        /// Resign adjudication (`None`: never).
        resign: Option<ResignRule>,
        /// Draw adjudication (`None`: never); its `from_ply` counts plies as
        /// the positions' move numbers do (cutechess-cli's `movenumber`).
        draw: Option<DrawRule>,
    },
    /// fastchess's trackers ([`FastchessAdjudicator`]), asked as fastchess
    /// asks them before each move: the rules of chess first, then the
    /// tables (in the first position too), resign, the draw, and last the
    /// cap, which counts the engines' moves only. `kestrel match`.
    Fastchess {
        /// `-resign` (`None`: never).
        resign: Option<FastchessResign>,
        /// `-draw` (`None`: never).
        draw: Option<FastchessDraw>,
    },
}

/// The rules beyond chess's own that end games.
#[derive(Clone)]
pub struct GameRules {
    /// Score adjudication, and how the cap and the tables are asked.
    pub adjudication: Adjudication,
    /// Plies after which the game stops and `at_cap` judges it (`None`: no
    /// cap), counted as [`Adjudication`] says.
    pub max_plies: Option<usize>,
    /// How a game that reaches `max_plies` is scored.
    pub at_cap: CapVerdict,
    /// How long a player with neither clock nor move time may stay silent.
    pub hang_timeout: Duration,
    /// Tablebases for adjudication, with the most pieces to use them for.
    pub tablebase: Option<(Arc<dyn Tablebase>, u32)>,
}

impl std::fmt::Debug for GameRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameRules")
            .field("adjudication", &self.adjudication)
            .field("max_plies", &self.max_plies)
            .field("at_cap", &self.at_cap)
            .field("hang_timeout", &self.hang_timeout)
            .field(
                "tablebase",
                &self.tablebase.as_ref().map(|(_, pieces)| pieces),
            )
            .finish()
    }
}

/// How a game stopped at the move cap is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapVerdict {
    /// A draw.
    Draw,
    /// Judged by the evaluations (the seed's GA did this): a win for the
    /// side both searchers' last scores put at least `margin` centipawns
    /// ahead, otherwise a draw.
    Judge {
        /// Centipawns.
        margin: i32,
    },
}

impl Default for GameRules {
    /// 400 plies, a 1500 cp score both searchers agree on for six plies
    /// wins, no draw adjudication, no tables.
    fn default() -> GameRules {
        GameRules {
            max_plies: Some(400),
            adjudication: Adjudication::Streaks {
                resign: Some(ResignRule::Agreed {
                    score: 1500,
                    plies: 6,
                }),
                draw: None,
            },
            at_cap: CapVerdict::Draw,
            hang_timeout: DAY,
            tablebase: None,
        }
    }
}

/// How one side's time is kept.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// A game clock (`None`: none).
    pub tc: Option<TimeControl>,
    /// A fixed time per move, when there is no clock.
    pub movetime: Option<Duration>,
    /// How far past its time a move may come without losing.
    pub margin: Duration,
}

/// Who plays the moves.
pub enum Seats<'a> {
    /// One player for both sides (datagen's single engine, with one table
    /// and one history for the whole game).
    Both(&'a mut dyn Player),
    /// White's player and Black's.
    Each([&'a mut dyn Player; 2]),
}

impl Seats<'_> {
    fn player(&mut self, side: Color) -> &mut dyn Player {
        match self {
            Seats::Both(player) => &mut **player,
            Seats::Each(players) => &mut *players[side.fold(0, 1)],
        }
    }

    /// Starts every player's game; a failure names the side whose player
    /// failed (the side to move, for a player of both).
    fn new_game(&mut self, start: &Position) -> Result<(), (Color, EngineError)> {
        match self {
            Seats::Both(player) => player.new_game(start).map_err(|e| (start.turn(), e)),
            Seats::Each(players) => {
                for (player, side) in players.iter_mut().zip([Color::White, Color::Black]) {
                    player.new_game(start).map_err(|e| (side, e))?;
                }
                Ok(())
            }
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The moves played from the start position (opening moves included).
    pub game: Game,
    /// How it ended.
    pub ending: Ending,
}

/// The time a move took, and what its side's clock kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// How long the player took.
    pub elapsed: Duration,
    /// The time left on its clock after the move (increment added), when it
    /// plays on a clock.
    pub left: Option<Duration>,
}

/// Plays `game` (its moves so far are the opening) to its end, asking
/// `seats` for every move with `timing` for White's and Black's time;
/// `observe(game, move, thought, time)` sees every move played, in the
/// position before it, with the thinking behind it and the time it took.
pub fn play(
    mut game: Game,
    mut seats: Seats<'_>,
    timing: [Timing; 2],
    rules: &GameRules,
    mut observe: impl FnMut(&Game, Move, &Thought, MoveTime),
) -> Finished {
    // The keys of the positions before the current one, for repetitions.
    let mut history: Vec<u64> = Vec::new();
    {
        let mut replay = *game.start();
        for &m in game.moves() {
            history.push(replay.key());
            replay.play_unchecked(m);
        }
    }
    let mut clocks: [Option<Clock>; 2] = timing.map(|t| t.tc.map(Clock::new));
    let mut scores = match rules.adjudication {
        Adjudication::Streaks { draw, resign } => Scores::Streaks(Adjudicator::new(draw, resign)),
        Adjudication::Fastchess { draw, resign } => {
            Scores::Fastchess(FastchessAdjudicator::new(draw, resign))
        }
    };
    let book_plies = game.moves().len();
    // The last score (White's view) each side reported, for the cap's judge.
    let mut last = [None::<i32>; 2];
    if let Err((loser, error)) = seats.new_game(game.start()) {
        let ending = Ending::Failed {
            loser,
            error,
            over: None,
        };
        return Finished { game, ending };
    }
    let ending = loop {
        if let Some(outcome) = game.outcome() {
            break Ending::Rules(outcome);
        }
        let played = match &scores {
            Scores::Streaks(_) => game.moves().len(),
            Scores::Fastchess(tracker) => {
                // fastchess's Match::adjudicate, in its order.
                let tables = rules.tablebase.as_ref();
                if let Some(ending) = tables.and_then(|tb| tablebase_ending(game.position(), tb)) {
                    break ending;
                }
                match tracker.verdict(game.position()) {
                    Verdict::Continue => {}
                    Verdict::Draw => break Ending::ScoreDraw,
                    Verdict::Win(winner) => break Ending::ScoreWin { winner },
                }
                game.moves().len() - book_plies
            }
        };
        if rules.max_plies.is_some_and(|cap| played >= cap) {
            break Ending::MoveCap {
                winner: judge(rules.at_cap, last),
            };
        }
        let pos = *game.position();
        let side = pos.turn();
        let i = side.fold(0, 1);
        let limit = match (clocks[i], timing[i].movetime) {
            (Some(clock), _) => Some(clock.left()),
            (None, movetime) => movetime,
        };
        let wait = limit.map_or(rules.hang_timeout, |l| l + timing[i].margin + LATE_GRACE);
        let started = Instant::now();
        let answer = seats.player(side).go(&MoveRequest {
            start: game.start(),
            moves: game.moves(),
            history: &history,
            position: &pos,
            clocks: [clocks[0].as_ref(), clocks[1].as_ref()],
            deadline: started + wait,
        });
        let elapsed = started.elapsed();
        let (reply, thought) = match answer {
            Ok(answer) => answer,
            Err(error) => {
                break Ending::Failed {
                    loser: side,
                    error,
                    over: limit.map(|l| elapsed.saturating_sub(l)),
                }
            }
        };
        let late = match (&mut clocks[i], timing[i].movetime) {
            (Some(clock), _) => match clock.spend(elapsed, timing[i].margin) {
                ClockResult::Forfeit { over } => Some(over),
                ClockResult::Ok => None,
            },
            (None, Some(st)) if elapsed > st + timing[i].margin => Some(elapsed.saturating_sub(st)),
            _ => None,
        };
        if let Some(over) = late {
            break Ending::TimeForfeit {
                loser: side,
                over: Some(over),
            };
        }
        let mv = match reply {
            Reply::Move(mv) => mv,
            Reply::Resign => break Ending::Resigned { loser: side },
            Reply::Illegal(text) => break Ending::Illegal { loser: side, text },
        };
        let left = clocks[i].as_ref().map(Clock::left);
        observe(&game, mv, &thought, MoveTime { elapsed, left });
        let score = thought.score.map(Score::centipawns);
        if let Some(score) = score {
            last[i] = Some(side.fold(score, -score));
        }
        history.push(pos.key());
        game.push(mv);
        let adjudicator = match &mut scores {
            Scores::Streaks(adjudicator) => adjudicator,
            Scores::Fastchess(tracker) => {
                // Asked before the next move, above.
                tracker.record(side, thought.score, game.position());
                continue;
            }
        };
        match adjudicator.record(side, absolute_ply(&pos), score) {
            Verdict::Continue => {}
            Verdict::Draw => break Ending::ScoreDraw,
            Verdict::Win(winner) => break Ending::ScoreWin { winner },
        }
        if game.outcome().is_none() {
            if let Some(ending) = rules
                .tablebase
                .as_ref()
                .and_then(|tb| tablebase_ending(game.position(), tb))
            {
                break ending;
            }
        }
    };
    Finished { game, ending }
}

/// The counters of a game's score adjudication.
enum Scores {
    Streaks(Adjudicator),
    Fastchess(FastchessAdjudicator),
}

/// The cap's verdict from the sides' last scores (White's view).
fn judge(at_cap: CapVerdict, last: [Option<i32>; 2]) -> Option<Color> {
    match at_cap {
        CapVerdict::Draw => None,
        CapVerdict::Judge { margin } => match last {
            [Some(w), Some(b)] if w >= margin && b >= margin => Some(Color::White),
            [Some(w), Some(b)] if w <= -margin && b <= -margin => Some(Color::Black),
            _ => None,
        },
    }
}

/// The tables' verdict on `pos`, where they are exact: few enough pieces,
/// no castling, and just after a capture or pawn move (so that the
/// fifty-move count cannot turn it).
fn tablebase_ending(pos: &Position, (tables, most): &(Arc<dyn Tablebase>, u32)) -> Option<Ending> {
    let pieces = tables.max_pieces().min(*most);
    if pos.piece_count() > pieces || pos.halfmove_clock() != 0 || !pos.castling_rights().is_empty()
    {
        return None;
    }
    let winner = match tables.probe_wdl(pos)? {
        Wdl::Win => Some(pos.turn()),
        Wdl::Loss => Some(!pos.turn()),
        Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss => None,
    };
    Some(Ending::Tablebase { winner })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::{Outcome, Position};
    use engine::{Engine, Limits};
    use std::sync::Arc;

    /// The real search at fixed limits (the crate itself has no engine:
    /// its in-process players live where the engine is a dependency).
    struct Searcher {
        engine: Engine,
        limits: Limits,
    }

    impl Searcher {
        fn new(limits: Limits) -> Searcher {
            Searcher {
                engine: Engine::new(),
                limits,
            }
        }
    }

    impl Player for Searcher {
        fn new_game(&mut self, _: &chess::Position) -> Result<(), EngineError> {
            self.engine.new_game();
            Ok(())
        }
        fn go(&mut self, r: &MoveRequest) -> Result<(Reply, Thought), EngineError> {
            let found =
                self.engine
                    .search(r.position, r.history, self.limits.clone(), Arc::new(|_| {}));
            let best = found.best.ok_or(EngineError::NoMove)?;
            let thought = Thought::searched(Score::Cp(found.score), found.depth);
            Ok((Reply::Move(best), thought))
        }
        fn quit(self: Box<Self>) {}
    }

    fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    #[test]
    fn a_game_ends_with_a_consistent_result() {
        let mut white = Searcher::new(nodes(200));
        let mut black = Searcher::new(nodes(200));
        let rules = GameRules {
            max_plies: Some(60),
            ..GameRules::default()
        };
        let mut seen = 0;
        let done = play(
            Game::new(Position::startpos()),
            Seats::Each([&mut white, &mut black]),
            [Timing::default(); 2],
            &rules,
            |_, _, _, _| seen += 1,
        );
        assert_eq!(seen, done.game.moves().len());
        assert!(done.game.moves().len() <= 60);
        let score = done.ending.white_score();
        match done.ending {
            Ending::MoveCap { winner: None } => assert_eq!(score, 0.5),
            Ending::Rules(o) => assert_eq!(score, o.winner().map_or(0.5, |c| c.fold(1.0, 0.0))),
            Ending::ScoreWin { winner } => assert_eq!(score, winner.fold(1.0, 0.0)),
            other => panic!("unexpected ending {other:?}"),
        }
    }

    #[test]
    fn mate_is_scored_for_the_mating_side() {
        // White mates in one (Rd8#).
        let start = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let done = play(
            Game::new(start),
            Seats::Both(&mut Searcher::new(Limits::depth(3))),
            [Timing::default(); 2],
            &GameRules::default(),
            |_, _, _, _| {},
        );
        assert_eq!(done.ending.white_score(), 1.0);
        assert!(matches!(
            done.ending,
            Ending::Rules(Outcome::Checkmate {
                winner: Color::White
            })
        ));
    }

    #[test]
    fn the_cap_judge_needs_both_evaluations() {
        // White is a queen up: both sides' scores say so, so the judge gives White the win.
        let start = Position::from_fen("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1").unwrap();
        let rules = GameRules {
            max_plies: Some(2),
            adjudication: Adjudication::Streaks {
                resign: None,
                draw: None,
            },
            at_cap: CapVerdict::Judge { margin: 200 },
            ..GameRules::default()
        };
        let done = play(
            Game::new(start),
            Seats::Both(&mut Searcher::new(Limits::depth(2))),
            [Timing::default(); 2],
            &rules,
            |_, _, _, _| {},
        );
        assert_eq!(
            done.ending,
            Ending::MoveCap {
                winner: Some(Color::White)
            }
        );
    }

    #[test]
    fn a_player_that_fails_loses_and_is_marked_broken() {
        struct Broken;
        impl Player for Broken {
            fn new_game(&mut self, _: &chess::Position) -> Result<(), EngineError> {
                Ok(())
            }
            fn go(&mut self, _: &MoveRequest) -> Result<(Reply, Thought), EngineError> {
                Err(EngineError::NoMove)
            }
            fn quit(self: Box<Self>) {}
        }
        let done = play(
            Game::new(Position::startpos()),
            Seats::Both(&mut Broken),
            [Timing::default(); 2],
            &GameRules::default(),
            |_, _, _, _| {},
        );
        assert_eq!(done.ending.white_score(), 0.0);
        assert_eq!(done.ending.broken(), Some(Color::White));
        assert_eq!(done.ending.reason(), "White returns no move");
    }

    /// Answers with its first legal move after `delay`, and says who it is by its depth.
    struct Named {
        depth: u32,
        delay: Duration,
    }

    impl Named {
        fn new(depth: u32, delay_ms: u64) -> Named {
            Named {
                depth,
                delay: Duration::from_millis(delay_ms),
            }
        }
    }

    impl Player for Named {
        fn new_game(&mut self, _: &Position) -> Result<(), EngineError> {
            Ok(())
        }
        fn go(&mut self, r: &MoveRequest) -> Result<(Reply, Thought), EngineError> {
            std::thread::sleep(self.delay);
            let thought = Thought {
                depth: Some(self.depth),
                ..Thought::default()
            };
            Ok((Reply::Move(r.position.legal_moves()[0]), thought))
        }
        fn quit(self: Box<Self>) {}
    }

    #[test]
    fn each_side_is_asked_of_its_own_player() {
        let (mut white, mut black) = (Named::new(1, 0), Named::new(2, 0));
        let mut depths = Vec::new();
        let rules = GameRules {
            max_plies: Some(6),
            ..GameRules::default()
        };
        play(
            Game::new(Position::startpos()),
            Seats::Each([&mut white, &mut black]),
            [Timing::default(); 2],
            &rules,
            |_, _, thought, _| depths.extend(thought.depth),
        );
        assert_eq!(depths, [1, 2, 1, 2, 1, 2]);
    }

    #[test]
    fn a_move_after_its_time_loses_on_time() {
        let (mut white, mut black) = (Named::new(1, 0), Named::new(2, 60));
        let fast = Timing {
            movetime: Some(Duration::from_millis(10)),
            ..Timing::default()
        };
        let done = play(
            Game::new(Position::startpos()),
            Seats::Each([&mut white, &mut black]),
            [Timing::default(), fast],
            &GameRules::default(),
            |_, _, _, _| {},
        );
        assert_eq!(done.game.moves().len(), 1);
        assert!(matches!(
            done.ending,
            Ending::TimeForfeit {
                loser: Color::Black,
                ..
            }
        ));
        assert_eq!(done.ending.white_score(), 1.0);
        assert_eq!(done.ending.broken(), None);
    }
}
