//! How a game ended, in every form the tools that play games need it: the
//! result, the PGN `Termination` tag, the reason in words (cutechess-cli's
//! wording, which PGN readers and people know), the words shown to a person
//! at the board (`Display`), and which engine, if any, broke and must be
//! restarted. The one vocabulary of the match runner, the arena, datagen and
//! the terminal game.

use std::fmt;
use std::time::Duration;

use chess::{Color, Outcome};
use pgn::GameResult;

use crate::engine_process::EngineError;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// By the rules of chess.
    Rules(Outcome),
    /// A player resigned.
    Resigned {
        /// Who resigned.
        loser: Color,
    },
    /// The players agreed to a draw.
    DrawAgreed,
    /// Both players' scores agreed on a win long enough (resign adjudication).
    ScoreWin {
        /// The side the scores favoured.
        winner: Color,
    },
    /// Both players' scores stayed near zero long enough (draw adjudication).
    ScoreDraw,
    /// The endgame tables know the result.
    Tablebase {
        /// The winner (`None`: drawn).
        winner: Option<Color>,
    },
    /// The move cap was reached.
    MoveCap {
        /// The winner the cap's verdict named (`None`: drawn).
        winner: Option<Color>,
    },
    /// A player's move came after its time ran out.
    TimeForfeit {
        /// Who lost on time.
        loser: Color,
        /// By how much, where the clock measured it (a person's clock in
        /// the terminal game only says that it fell).
        over: Option<Duration>,
    },
    /// A player could not answer: it failed to start, crashed, stalled, said
    /// something it should not have, or (in process) found no move.
    Failed {
        /// The player that failed.
        loser: Color,
        /// Why.
        error: EngineError,
        /// For a player that ran out of time with no answer: by how much.
        over: Option<Duration>,
    },
    /// A player answered with a move that is not legal in the position.
    Illegal {
        /// The player that made it.
        loser: Color,
        /// Its answer as written.
        text: String,
    },
}

/// How a game ended, as PGN's `Termination` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// By the rules of chess.
    Normal,
    /// By the runner's adjudication (scores, tablebases, move limit).
    Adjudication,
    /// An engine overstepped its time.
    TimeForfeit,
    /// An engine played an illegal move.
    IllegalMove,
    /// An engine crashed or quit.
    Abandoned,
    /// An engine stopped answering.
    StalledConnection,
}

impl Termination {
    /// The PGN tag value (`None` for a normal end).
    pub fn tag(self) -> Option<&'static str> {
        match self {
            Termination::Normal => None,
            Termination::Adjudication => Some("adjudication"),
            Termination::TimeForfeit => Some("time forfeit"),
            Termination::IllegalMove => Some("illegal move"),
            Termination::Abandoned => Some("abandoned"),
            Termination::StalledConnection => Some("stalled connection"),
        }
    }

    /// The termination a PGN `Termination` tag names (the inverse of
    /// [`Termination::tag`]; an unknown or missing tag is a normal end).
    pub fn from_tag(tag: Option<&str>) -> Termination {
        [
            Termination::Adjudication,
            Termination::TimeForfeit,
            Termination::IllegalMove,
            Termination::Abandoned,
            Termination::StalledConnection,
        ]
        .into_iter()
        .find(|t| t.tag() == tag)
        .unwrap_or(Termination::Normal)
    }
}

fn name(c: Color) -> &'static str {
    c.fold("White", "Black")
}

impl Ending {
    /// The game's result.
    pub fn result(&self) -> GameResult {
        let won_by = |winner: Option<Color>| match winner {
            Some(c) => c.fold(GameResult::WhiteWins, GameResult::BlackWins),
            None => GameResult::Draw,
        };
        match self {
            Ending::Rules(outcome) => won_by(outcome.winner()),
            Ending::ScoreWin { winner } => won_by(Some(*winner)),
            Ending::ScoreDraw | Ending::DrawAgreed => GameResult::Draw,
            Ending::Tablebase { winner } | Ending::MoveCap { winner } => won_by(*winner),
            Ending::Resigned { loser }
            | Ending::TimeForfeit { loser, .. }
            | Ending::Failed { loser, .. }
            | Ending::Illegal { loser, .. } => won_by(Some(!*loser)),
        }
    }

    /// White's score: 1, 0.5 or 0.
    pub fn white_score(&self) -> f64 {
        match self.result() {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw | GameResult::Unknown => 0.5,
        }
    }

    /// The PGN `Termination` tag's meaning.
    pub fn termination(&self) -> Termination {
        match self {
            Ending::Rules(_) | Ending::Resigned { .. } | Ending::DrawAgreed => Termination::Normal,
            Ending::ScoreWin { .. }
            | Ending::ScoreDraw
            | Ending::Tablebase { .. }
            | Ending::MoveCap { .. } => Termination::Adjudication,
            Ending::TimeForfeit { .. } => Termination::TimeForfeit,
            Ending::Illegal { .. } => Termination::IllegalMove,
            Ending::Failed { error, over, .. } => match error {
                EngineError::Timeout(_) if over.is_some() => Termination::TimeForfeit,
                EngineError::Timeout(_) => Termination::StalledConnection,
                EngineError::Exited | EngineError::Start { .. } => Termination::Abandoned,
                EngineError::Protocol(_) | EngineError::NoMove => Termination::IllegalMove,
            },
        }
    }

    /// The side whose player broke (failed or played an illegal move): its
    /// idea of the game may differ from the loop's, so it is started afresh.
    pub fn broken(&self) -> Option<Color> {
        match self {
            Ending::Failed { loser, .. } | Ending::Illegal { loser, .. } => Some(*loser),
            _ => None,
        }
    }

    /// The result in words, as cutechess-cli writes it in PGN comments.
    pub fn reason(&self) -> String {
        match self {
            Ending::Rules(outcome) => match outcome {
                Outcome::Checkmate { winner } => format!("{} mates", name(*winner)),
                Outcome::Stalemate => "Draw by stalemate".to_string(),
                Outcome::FiftyMoveRule => "Draw by fifty moves rule".to_string(),
                Outcome::ThreefoldRepetition => "Draw by 3-fold repetition".to_string(),
                Outcome::InsufficientMaterial => "Draw by insufficient mating material".to_string(),
            },
            Ending::Resigned { loser } => format!("{} resigns", name(*loser)),
            Ending::DrawAgreed => "Draw by agreement".to_string(),
            Ending::ScoreWin { winner } => format!("{} wins by adjudication", name(*winner)),
            Ending::ScoreDraw => "Draw by adjudication".to_string(),
            Ending::Tablebase { winner: Some(c) } => {
                format!("{} wins by adjudication: SyzygyTB", name(*c))
            }
            Ending::Tablebase { winner: None } => "Draw by adjudication: SyzygyTB".to_string(),
            Ending::MoveCap { winner: Some(c) } => {
                format!("{} wins by adjudication: maximum moves", name(*c))
            }
            Ending::MoveCap { winner: None } => "Draw by adjudication: maximum moves".to_string(),
            Ending::TimeForfeit {
                loser,
                over: Some(over),
            } => format!(
                "{} loses on time (by {} ms)",
                name(*loser),
                over.as_millis()
            ),
            Ending::TimeForfeit { loser, over: None } => format!("{} loses on time", name(*loser)),
            Ending::Illegal { loser, text } => {
                format!("{} makes an illegal move: {text}", name(*loser))
            }
            Ending::Failed { loser, error, over } => {
                let side = name(*loser);
                match error {
                    EngineError::Timeout(_) => match over {
                        Some(over) => format!(
                            "{side} loses on time (by {} ms, no answer)",
                            over.as_millis()
                        ),
                        None => format!("{side}'s connection stalls"),
                    },
                    EngineError::Exited | EngineError::Start { .. } => {
                        format!("{side} disconnects ({error})")
                    }
                    EngineError::Protocol(m) => format!("{side}: {m}"),
                    EngineError::NoMove => format!("{side} returns no move"),
                }
            }
        }
    }
}

/// The words shown to a person at the board: the rules' outcome as the
/// rules say it, "White resigns", "Draw agreed", "Black lost on time";
/// the adjudications and failures as [`Ending::reason`] says them.
impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules(outcome) => write!(f, "{outcome}"),
            Ending::Resigned { loser } => write!(f, "{} resigns", name(*loser)),
            Ending::DrawAgreed => f.write_str("Draw agreed"),
            Ending::TimeForfeit { loser, .. } => write!(f, "{} lost on time", name(*loser)),
            _ => f.write_str(&self.reason()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn termination_tags_round_trip() {
        for t in [
            Termination::Normal,
            Termination::Adjudication,
            Termination::TimeForfeit,
            Termination::IllegalMove,
            Termination::Abandoned,
            Termination::StalledConnection,
        ] {
            assert_eq!(Termination::from_tag(t.tag()), t);
        }
        assert_eq!(
            Termination::from_tag(Some("rules infraction")),
            Termination::Normal
        );
    }

    #[test]
    fn each_ending_has_its_result_tag_and_words() {
        let forfeit = Ending::TimeForfeit {
            loser: Color::White,
            over: Some(Duration::from_millis(120)),
        };
        assert_eq!(forfeit.result(), GameResult::BlackWins);
        assert_eq!(forfeit.termination(), Termination::TimeForfeit);
        assert_eq!(forfeit.reason(), "White loses on time (by 120 ms)");
        assert_eq!(forfeit.broken(), None);

        let stalled = Ending::Failed {
            loser: Color::Black,
            error: EngineError::Timeout(Duration::from_secs(5)),
            over: None,
        };
        assert_eq!(stalled.white_score(), 1.0);
        assert_eq!(stalled.termination(), Termination::StalledConnection);
        assert_eq!(stalled.reason(), "Black's connection stalls");
        assert_eq!(stalled.broken(), Some(Color::Black));

        let capped = Ending::MoveCap { winner: None };
        assert_eq!(capped.white_score(), 0.5);
        assert_eq!(capped.reason(), "Draw by adjudication: maximum moves");

        let mate = Ending::Rules(Outcome::Checkmate {
            winner: Color::Black,
        });
        assert_eq!(mate.result(), GameResult::BlackWins);
        assert_eq!(mate.termination(), Termination::Normal);
        assert_eq!(mate.reason(), "Black mates");
    }

    #[test]
    fn the_players_ends_have_their_results_tags_and_words() {
        let agreed = Ending::DrawAgreed;
        assert_eq!(agreed.result(), GameResult::Draw);
        assert_eq!(agreed.termination(), Termination::Normal);
        assert_eq!(
            (agreed.reason().as_str(), agreed.to_string().as_str()),
            ("Draw by agreement", "Draw agreed")
        );
        let resigned = Ending::Resigned {
            loser: Color::Black,
        };
        assert_eq!(resigned.result(), GameResult::WhiteWins);
        assert_eq!(resigned.termination().tag(), None);
        assert_eq!(resigned.to_string(), "Black resigns");
        let flag = Ending::TimeForfeit {
            loser: Color::Black,
            over: None,
        };
        assert_eq!(flag.result(), GameResult::WhiteWins);
        assert_eq!(flag.termination().tag(), Some("time forfeit"));
        assert_eq!(flag.to_string(), "Black lost on time");
        assert_eq!(flag.reason(), "Black loses on time");
        let mate = Ending::Rules(Outcome::Checkmate {
            winner: Color::White,
        });
        assert_eq!(mate.to_string(), "White mates");
        let stalemate = Ending::Rules(Outcome::Stalemate);
        assert_eq!(stalemate.to_string(), "Draw by stalemate");
        assert_eq!(
            Ending::ScoreDraw.to_string(),
            Ending::ScoreDraw.reason(),
            "an adjudication reads the same everywhere"
        );
    }
}
