//! The whole-game review's pass as a sequence of steps: which position to
//! search next, what to do with a search's result, when the pass is over
//! and when the page is to be shown its progress. A host drives it with
//! the engine it has: `kestrel gui` (crates/gui, `review_run.rs`) from a
//! thread that waits for its engine, the page without a server (crates/web)
//! from the engine Worker's reports, each search yielding to every search
//! the page asks for. What the pass found is the game's [`Review`].

use chess::Position;
use engine::Limits;

use crate::error::GameError;
use crate::record::GameRecord;
use crate::review::{PassGame, PassLimit, PositionEval, Review, Stored};
use crate::settings::EngineSettings;

/// One pass over a game's main line, as it was when the pass was asked for.
#[derive(Debug, Clone)]
pub struct ReviewPass {
    /// Its number in the game's [`Review`] (0 until it begins).
    pass: u64,
    /// The game as it was.
    game: PassGame,
    /// How each position is searched (checked).
    limit: PassLimit,
}

/// What the host does next for a pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Search position `index` (0: the start), `root`, reached through
    /// the positions of `history` (their keys, for repetitions), then give
    /// its result to [`ReviewPass::found`].
    Search {
        /// The position's number.
        index: usize,
        /// The position (boxed: a position is large beside the other steps).
        root: Box<Position>,
        /// The keys of the positions before it.
        history: Vec<u64>,
    },
    /// The results changed: show the page the review as it is now (an
    /// `analysis` event); with `goes_on`, ask for the next step after.
    Show {
        /// The pass goes on.
        goes_on: bool,
    },
    /// The pass is over (cancelled, or another began), with nothing new to show.
    End,
}

impl ReviewPass {
    /// A pass over `record`'s main line at `limit`, checked (default
    /// filled in); refused while the game's evaluation is hidden. It has
    /// not begun: a host stops what the pass replaces first, then
    /// [`ReviewPass::begin`]s it.
    pub fn new(record: &GameRecord, limit: PassLimit) -> Result<ReviewPass, GameError> {
        let limit = limit.checked()?;
        let game = PassGame::of(record)?;
        Ok(ReviewPass {
            pass: 0,
            game,
            limit,
        })
    }

    /// Begins the pass in `review` (a pass that ran there ends: its
    /// results are no longer stored).
    pub fn begin(&mut self, review: &mut Review) {
        self.pass = review.begin(&self.game, self.limit);
    }

    /// Each position's search limits.
    pub fn limits(&self) -> Limits {
        self.limit.limits()
    }

    /// Each position's search as engine settings: the pass's limit, at full
    /// strength, without the book (for a host that sends its engine
    /// settings rather than limits).
    pub fn settings(&self) -> EngineSettings {
        EngineSettings {
            movetime_ms: self.limit.movetime_ms,
            depth: self.limit.depth,
            own_book: Some(false),
            ..EngineSettings::default()
        }
    }

    /// The next step: the first position without its result searched; a
    /// position without a legal move is judged here, at once; the pass
    /// done when every position has its result. `review` holds the
    /// results; `record` is the game now (a result is kept only while the
    /// game still holds its position).
    pub fn next(&self, review: &mut Review, record: &GameRecord) -> Step {
        let positions = &self.game.positions;
        let Some(index) = (0..positions.len()).find(|&i| !review.searched(i)) else {
            review.finish(self.pass);
            return Step::Show { goes_on: false };
        };
        let root = positions[index];
        if root.legal_moves().is_empty() {
            return self.found(review, record, index, PositionEval::terminal(&root));
        }
        Step::Search {
            index,
            root: Box::new(root),
            history: positions[..index].iter().map(Position::key).collect(),
        }
    }

    /// Position `index`'s result: kept while the pass runs and the game
    /// holds the position (see [`Review::store`]), and what to do next.
    pub fn found(
        &self,
        review: &mut Review,
        record: &GameRecord,
        index: usize,
        eval: PositionEval,
    ) -> Step {
        match review.store(self.pass, index, eval, record) {
            Stored::Kept => Step::Show { goes_on: true },
            Stored::GameChanged => Step::Show { goes_on: false },
            Stored::Stale => Step::End,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::{self, PassState};
    use engine::Score;

    fn game(pgn: &str) -> GameRecord {
        let mut record = GameRecord::dated(Position::startpos(), "2026.12.02");
        record.import_pgn(pgn).expect("a game");
        record
    }

    fn eval(root: &Position) -> PositionEval {
        let best = root.legal_moves().first().copied();
        PositionEval::searched(Score::Cp(10), root.turn(), best, &[], 5)
    }

    /// Drives a pass to its end as a host would, each search answered at once.
    fn drive(pass: &ReviewPass, review: &mut Review, record: &GameRecord) -> (usize, usize) {
        let (mut searches, mut shown) = (0, 0);
        loop {
            match pass.next(review, record) {
                Step::Search { index, root, .. } => {
                    searches += 1;
                    match pass.found(review, record, index, eval(&root)) {
                        Step::Show { goes_on: true } => shown += 1,
                        other => panic!("{other:?}"),
                    }
                }
                Step::Show { goes_on } => {
                    shown += 1;
                    if !goes_on {
                        return (searches, shown);
                    }
                }
                Step::End => return (searches, shown),
            }
        }
    }

    #[test]
    fn every_position_is_searched_in_turn_a_mate_judged_without_a_search() {
        let record = game("1. f3 e5 2. g4 Qh4# 0-1");
        let mut review = Review::default();
        let mut pass = ReviewPass::new(&record, PassLimit::default()).expect("a pass");
        pass.begin(&mut review);
        let Step::Search { index, history, .. } = pass.next(&mut review, &record) else {
            panic!("the start is searched first");
        };
        assert_eq!((index, history.len()), (0, 0));
        // Five positions: four searched, the mate judged; each shown, and the end.
        let mut fresh = Review::default();
        pass.begin(&mut fresh);
        assert_eq!(drive(&pass, &mut fresh, &record), (4, 6));
        assert_eq!(review::view(&fresh, &record).state, PassState::Done);
    }

    #[test]
    fn a_result_for_a_game_that_changed_ends_the_pass_and_a_stale_one_is_dropped() {
        let record = game("1. e4 e5 *");
        let mut review = Review::default();
        let mut pass = ReviewPass::new(&record, PassLimit::default()).expect("a pass");
        pass.begin(&mut review);
        let other = game("1. d4 *");
        let root = Position::startpos();
        // The start is still the game's: kept. After e4, no longer.
        assert_eq!(
            pass.found(&mut review, &other, 0, eval(&root)),
            Step::Show { goes_on: true }
        );
        let after = record.positions()[1];
        assert_eq!(
            pass.found(&mut review, &other, 1, eval(&after)),
            Step::Show { goes_on: false }
        );
        let mut next = ReviewPass::new(&record, PassLimit::default()).expect("a pass");
        next.begin(&mut review);
        assert_eq!(pass.found(&mut review, &record, 1, eval(&after)), Step::End);
    }

    #[test]
    fn a_hidden_game_or_a_bad_limit_is_refused_and_settings_match_the_limits() {
        let mut record = game("1. e4 *");
        let bad = PassLimit {
            depth: Some(3),
            movetime_ms: Some(100),
        };
        assert!(ReviewPass::new(&record, bad).is_err());
        let pass = ReviewPass::new(&record, PassLimit::default()).expect("a pass");
        let limits = pass.settings().limits().expect("settings in range");
        assert_eq!(limits.movetime, pass.limits().movetime);
        record.reset(Position::startpos(), true, true);
        assert!(ReviewPass::new(&record, PassLimit::default()).is_err());
    }
}
