//! A draw offered to the engine in a game against it: where the engine
//! weighs it (the end of the game, which must go on), how (a short search
//! at full strength, without the book), and the answer it gives
//! (`engine::accepts_draw`: a pawn or more worse, or level from move 30
//! on). The search is the host's; the score never leaves it, so a game
//! whose evaluation is hidden stays hidden, and the answer is only yes or
//! no.

use chess::Position;
use engine::{accepts_draw, Score};
use matchcore::ending::Ending;
use serde::Serialize;

use crate::error::{Conflict, GameError};
use crate::record::GameRecord;
use crate::settings::EngineSettings;
use crate::view::GameView;

/// How long the engine weighs an offer, milliseconds.
pub const PROBE_MS: u64 = 700;

/// The engine's answer, and the game after it.
#[derive(Serialize, Debug)]
pub struct DrawAnswer {
    /// True when the engine agreed: the game is then drawn.
    pub accepted: bool,
    /// The game (over when accepted).
    pub state: GameView,
}

/// The position an offer is weighed in, as the game was when it was made.
#[derive(Debug, Clone)]
pub struct DrawProbe {
    /// The end of the game, the side to move offering.
    pub root: Position,
    /// The keys of the positions before it (repetitions).
    pub history: Vec<u64>,
    /// The game's version: an answer counts only for it.
    pub version: u64,
}

impl DrawProbe {
    /// The offer of the side to move at the end of `record`; refused when
    /// the game is over or is not a game against the engine.
    pub fn of(record: &GameRecord) -> Result<DrawProbe, GameError> {
        if let Some(over) = record.over() {
            return Err(Conflict::DrawAfterEnd(over).into());
        }
        if !record.in_match() {
            return Err(Conflict::DrawOutsideMatch.into());
        }
        let (root, history) = record.root_and_history(record.tree.mainline_end())?;
        Ok(DrawProbe {
            root,
            history,
            version: record.version,
        })
    }

    /// The search that weighs it: [`PROBE_MS`], no book.
    pub fn settings() -> EngineSettings {
        EngineSettings {
            movetime_ms: Some(PROBE_MS),
            own_book: Some(false),
            ..EngineSettings::default()
        }
    }

    /// The engine's answer given `score`, the last score its search
    /// reported (the view of the side offering, to move), and the game
    /// drawn in `record` when it agrees. A game that changed meanwhile (a
    /// takeback, a flag) is not drawn by an old answer; no score, no draw.
    pub fn answer(&self, score: Option<Score>, record: &mut GameRecord) -> Result<bool, GameError> {
        // The engine's own view is the opposite of the side offering.
        let accepted = score
            .is_some_and(|s| accepts_draw(s.negated(), self.root.fullmove_number()))
            && record.version == self.version;
        if accepted {
            record.end(Ending::DrawAgreed)?;
        }
        Ok(accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn an_offer_is_weighed_in_a_game_against_the_engine_and_answered_by_the_score() {
        let mut record = GameRecord::new(Position::startpos());
        let refused = DrawProbe::of(&record).expect_err("a study, not a game");
        assert_eq!(refused.kind(), ErrorKind::Conflict);
        record.reset(Position::startpos(), true, true);
        let probe = DrawProbe::of(&record).expect("a game against the engine");
        assert!(!probe.answer(None, &mut record).expect("no score"));
        assert!(!probe
            .answer(Some(Score::Cp(0)), &mut record)
            .expect("level at move 1: declined"));
        // The side offering is a queen up: the engine, a queen down, agrees.
        let mut later = record.clone();
        later.version += 1;
        assert!(!probe
            .answer(Some(Score::Cp(900)), &mut later)
            .expect("the game changed meanwhile"));
        assert!(probe
            .answer(Some(Score::Cp(900)), &mut record)
            .expect("agreed"));
        assert_eq!(record.over(), Some(Ending::DrawAgreed));
        assert_eq!(
            DrawProbe::of(&record).expect_err("over").to_string(),
            "the game is over already (Draw agreed)"
        );
    }
}
