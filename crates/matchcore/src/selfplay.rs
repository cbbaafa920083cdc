//! One game between searchers in the same process: the loop self-play
//! training data and engine-against-engine experiments share. A
//! [`Player`] answers every move (two engines are seated as one with
//! [`crate::sides::Sides`]); this plays the moves, keeps the history for
//! repetitions, and ends the game by the rules, by adjudication (the rules
//! of [`crate::adjudication`]) or at a move cap. No clocks are kept: each
//! player searches as its own limits say.

use std::time::{Duration, Instant};

use chess::{Color, Game, Move, Outcome};

use crate::adjudication::{Adjudicator, DrawRule, ResignRule, Verdict};
use crate::player::{MoveRequest, Player, Reply, Score, Thought};

/// How long a move may take. In-process players answer when their search
/// ends and cannot be cut off; the deadline matters only to a child-process
/// player, which is given a day.
const MOVE_WAIT: Duration = Duration::from_secs(24 * 60 * 60);

/// When a game is stopped before the rules end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// Plies after which the game stops and `at_cap` judges it.
    pub max_plies: usize,
    /// Resign adjudication (`None`: never); plies are counted from the
    /// game's first position.
    pub resign: Option<ResignRule>,
    /// Draw adjudication (`None`: never); its `from_ply` counts plies from
    /// the game's first position.
    pub draw: Option<DrawRule>,
    /// How a game that reaches `max_plies` is scored.
    pub at_cap: CapVerdict,
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
    /// wins, no draw adjudication.
    fn default() -> GameRules {
        GameRules {
            max_plies: 400,
            resign: Some(ResignRule::Agreed {
                score: 1500,
                plies: 6,
            }),
            draw: None,
            at_cap: CapVerdict::Draw,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules of chess.
    Rules(Outcome),
    /// A side was ahead by the resign score long enough, or its opponent
    /// resigned.
    Resigned,
    /// Both searchers saw a dead draw long enough.
    DrawAdjudicated,
    /// The move cap was reached.
    MoveCap,
    /// A player answered with no legal move in a position that has some,
    /// or failed (an engine bug, or a search halted from outside; scored
    /// as a loss for the side to move).
    NoMove,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The moves played from the start position.
    pub game: Game,
    /// White's score: 1, 0.5 or 0.
    pub white_score: f64,
    /// Why it ended.
    pub ending: Ending,
}

/// Plays `game` to its end, asking `player` for every move (after its
/// `new_game`); `observe(game, move, thought)` sees every position with the
/// move chosen there and the thinking behind it, before the move is played.
pub fn play(
    mut game: Game,
    rules: &GameRules,
    player: &mut dyn Player,
    mut observe: impl FnMut(&Game, Move, &Thought),
) -> Finished {
    // The keys of the positions before the current one, for repetitions.
    let mut history: Vec<u64> = Vec::new();
    {
        let mut replay = *game.start();
        for &m in game.moves() {
            history.push(replay.key());
            replay.play(m);
        }
    }
    let mut adjudicator = Adjudicator::new(rules.draw, rules.resign);
    // The last score (White's view) each side reported.
    let mut last = [None::<i32>; 2];
    let finish = |game: Game, white_score: f64, ending: Ending| Finished {
        game,
        white_score,
        ending,
    };
    if player.new_game(game.start()).is_err() {
        let side = game.position().turn();
        return finish(game, side.fold(0.0, 1.0), Ending::NoMove);
    }
    loop {
        if let Some(outcome) = game.outcome() {
            let score = match outcome.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            return finish(game, score, Ending::Rules(outcome));
        }
        if game.moves().len() >= rules.max_plies {
            let score = match rules.at_cap {
                CapVerdict::Draw => 0.5,
                CapVerdict::Judge { margin } => match last {
                    [Some(w), Some(b)] if w >= margin && b >= margin => 1.0,
                    [Some(w), Some(b)] if w <= -margin && b <= -margin => 0.0,
                    _ => 0.5,
                },
            };
            return finish(game, score, Ending::MoveCap);
        }
        let pos = *game.position();
        let side = pos.turn();
        let request = MoveRequest {
            start: game.start(),
            moves: game.moves(),
            history: &history,
            position: &pos,
            clocks: [None, None],
            deadline: Instant::now() + MOVE_WAIT,
        };
        let (best, thought) = match player.go(&request) {
            Ok((Reply::Move(best), thought)) => (best, thought),
            Ok((Reply::Resign, _)) => {
                return finish(game, side.fold(0.0, 1.0), Ending::Resigned);
            }
            Ok((Reply::Illegal(_), _)) | Err(_) => {
                return finish(game, side.fold(0.0, 1.0), Ending::NoMove);
            }
        };
        let score = thought.score.map(Score::centipawns);
        if let Some(score) = score {
            last[side.fold(0, 1)] = Some(side.fold(score, -score));
        }
        observe(&game, best, &thought);

        let ply = u32::try_from(game.moves().len()).unwrap_or(u32::MAX);
        match adjudicator.record(side, ply, score) {
            Verdict::Continue => {}
            Verdict::Draw => return finish(game, 0.5, Ending::DrawAdjudicated),
            Verdict::Win(winner) => return finish(game, winner.fold(1.0, 0.0), Ending::Resigned),
        }
        history.push(pos.key());
        game.push(best);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine_process::EngineError;
    use crate::sides::Sides;
    use chess::Position;
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
            let thought = Thought {
                score: Some(Score::Cp(found.score)),
                depth: None,
            };
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
            max_plies: 60,
            ..GameRules::default()
        };
        let mut seen = 0;
        let done = play(
            Game::new(Position::startpos()),
            &rules,
            &mut Sides::new(&mut white, &mut black),
            |_, _, _| seen += 1,
        );
        assert_eq!(seen, done.game.moves().len());
        assert!(done.game.moves().len() <= 60);
        match done.ending {
            Ending::MoveCap => assert_eq!(done.white_score, 0.5),
            Ending::Rules(o) => assert_eq!(
                done.white_score,
                o.winner().map_or(0.5, |c| c.fold(1.0, 0.0))
            ),
            Ending::Resigned => assert_ne!(done.white_score, 0.5),
            other => panic!("unexpected ending {other:?}"),
        }
    }

    #[test]
    fn mate_is_scored_for_the_mating_side() {
        // White mates in one (Rd8#).
        let start = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let done = play(
            Game::new(start),
            &GameRules::default(),
            &mut Searcher::new(Limits::depth(3)),
            |_, _, _| {},
        );
        assert_eq!(done.white_score, 1.0);
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
            max_plies: 2,
            resign: None,
            at_cap: CapVerdict::Judge { margin: 200 },
            ..GameRules::default()
        };
        let done = play(
            Game::new(start),
            &rules,
            &mut Searcher::new(Limits::depth(2)),
            |_, _, _| {},
        );
        assert_eq!(done.ending, Ending::MoveCap);
        assert_eq!(done.white_score, 1.0);
    }

    #[test]
    fn a_player_that_fails_loses_with_no_move() {
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
            &GameRules::default(),
            &mut Broken,
            |_, _, _| {},
        );
        assert_eq!(done.ending, Ending::NoMove);
        assert_eq!(done.white_score, 0.0);
    }
}
