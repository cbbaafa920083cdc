//! One game between searchers in the same process: the loop self-play
//! training data and engine-against-engine experiments share. The caller
//! says who searches each move; this plays the moves, keeps the history for
//! repetitions, and ends the game by the rules, by adjudication (the rules
//! of [`crate::adjudication`]) or at a move cap.

use chess::{Color, Game, Move, Outcome};

use crate::adjudication::{Adjudicator, DrawRule, ResignRule, Verdict};

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

/// What a searcher answers: its move and its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveChoice {
    /// The move (`None`: the searcher found none).
    pub best: Option<Move>,
    /// Centipawns, the mover's view.
    pub score: i32,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules of chess.
    Rules(Outcome),
    /// A side was ahead by the resign score long enough.
    Resigned,
    /// Both searchers saw a dead draw long enough.
    DrawAdjudicated,
    /// The move cap was reached.
    MoveCap,
    /// A searcher returned no move in a position with legal moves (an
    /// engine bug; scored as a loss for that side).
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

/// Plays `game` to its end. `search(side, game, history)` searches the
/// current position for `side` (`history`: keys of the positions before it)
/// and returns its choice; `observe` sees every position with the choice
/// before the move is played.
pub fn play(
    mut game: Game,
    rules: &GameRules,
    mut search: impl FnMut(Color, &Game, &[u64]) -> MoveChoice,
    mut observe: impl FnMut(&Game, &MoveChoice),
) -> Finished {
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
        let found = search(side, &game, &history);
        let Some(best) = found.best else {
            return finish(game, side.fold(0.0, 1.0), Ending::NoMove);
        };
        let white_view = side.fold(found.score, -found.score);
        last[side.fold(0, 1)] = Some(white_view);
        observe(&game, &found);

        let ply = u32::try_from(game.moves().len()).unwrap_or(u32::MAX);
        match adjudicator.record(side, ply, Some(found.score)) {
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
    use chess::Position;
    use engine::{Engine, Limits, SearchResult};
    use std::sync::Arc;

    fn choice(found: SearchResult) -> MoveChoice {
        MoveChoice {
            best: found.best,
            score: found.score,
        }
    }

    fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    #[test]
    fn a_game_ends_with_a_consistent_result() {
        let mut white = Engine::new();
        let mut black = Engine::new();
        let rules = GameRules {
            max_plies: 60,
            ..GameRules::default()
        };
        let mut seen = 0;
        let done = play(
            Game::new(Position::startpos()),
            &rules,
            |side, game, history| {
                let engine = if side == Color::White {
                    &mut white
                } else {
                    &mut black
                };
                choice(engine.search(game.position(), history, nodes(200), Arc::new(|_| {})))
            },
            |_, _| seen += 1,
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
        let mut engine = Engine::new();
        let done = play(
            Game::new(start),
            &GameRules::default(),
            |_, game, history| {
                choice(engine.search(game.position(), history, Limits::depth(3), Arc::new(|_| {})))
            },
            |_, _| {},
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
        let mut engine = Engine::new();
        let rules = GameRules {
            max_plies: 2,
            resign: None,
            at_cap: CapVerdict::Judge { margin: 200 },
            ..GameRules::default()
        };
        let done = play(
            Game::new(start),
            &rules,
            |_, game, history| {
                choice(engine.search(game.position(), history, Limits::depth(2), Arc::new(|_| {})))
            },
            |_, _| {},
        );
        assert_eq!(done.ending, Ending::MoveCap);
        assert_eq!(done.white_score, 1.0);
    }
}
