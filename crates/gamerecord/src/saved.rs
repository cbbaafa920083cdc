//! A game kept whole where its host cannot keep it: the static site's game
//! Worker holds its games in memory only, so the page keeps a copy of each
//! ([`SavedGame`], JSON in the browser's storage) and gives it back after a
//! reload, and the game comes back as it was: the same moves, variations,
//! comments, NAGs and clocks (its PGN), the engine's thinking times, the
//! tags, the end and whether it is final, the hidden evaluation, the node
//! on view, the version and the game's number. Everything the server keeps
//! of a game's record, that is; the review's results, a search's state and
//! the engine's table are not kept (a search is started again by the page).

use matchcore::ending::Ending;
use pgn::GameResult;
use serde::{Deserialize, Serialize};

use crate::error::{GameError, Invalid};
use crate::game_end::Side;
use crate::record::GameRecord;

/// The longest kept game a host reads back, in bytes of its PGN: a
/// thousand-move game with comments on every move stays far under it.
pub const MAX_SAVED_PGN_BYTES: usize = 4 << 20;

/// How a game ended, as a kept copy says it: the ends the GUI's games
/// have (the rules', a resignation, an agreed draw, a flag).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum SavedEnd {
    /// By the rules at the end of the main line (read from the moves).
    Rules,
    /// A side resigned.
    Resigned {
        /// Who.
        loser: Side,
    },
    /// The players agreed to a draw.
    DrawAgreed,
    /// A side's flag fell.
    Flag {
        /// Whose.
        loser: Side,
    },
}

impl SavedEnd {
    /// The kept form of `end`; `None` for the match runner's ends
    /// (adjudications, failures), which no GUI game has.
    fn of(end: &Ending) -> Option<SavedEnd> {
        Some(match end {
            Ending::Rules(_) => SavedEnd::Rules,
            Ending::Resigned { loser } => SavedEnd::Resigned {
                loser: (*loser).into(),
            },
            Ending::DrawAgreed => SavedEnd::DrawAgreed,
            Ending::TimeForfeit { loser, .. } => SavedEnd::Flag {
                loser: (*loser).into(),
            },
            _ => return None,
        })
    }

    /// The end back, the rules' read from `record`'s main line.
    fn ending(self, record: &GameRecord) -> Result<Ending, GameError> {
        Ok(match self {
            SavedEnd::Rules => {
                let end = record.tree.mainline_end();
                let outcome = record.tree.game(end)?.outcome();
                Ending::Rules(outcome.ok_or(Invalid::BadSavedGame(
                    "it ends by the rules, but its last move ends nothing",
                ))?)
            }
            SavedEnd::Resigned { loser } => Ending::Resigned {
                loser: loser.into(),
            },
            SavedEnd::DrawAgreed => Ending::DrawAgreed,
            SavedEnd::Flag { loser } => Ending::TimeForfeit {
                loser: loser.into(),
                over: None,
            },
        })
    }
}

/// A game's record as a host keeps it away from its memory.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SavedGame {
    /// Its moves with their variations, comments, NAGs and clocks, and
    /// its start, as PGN (the engine's thinking times left out: `times`).
    pub pgn: String,
    /// Its tags, the GUI's own and imported ones, in order.
    pub tags: Vec<(String, String)>,
    /// The result an imported PGN recorded (`*` for none).
    pub recorded_result: String,
    /// The end the players gave it.
    pub ending: Option<SavedEnd>,
    /// How a played game ended, final since.
    pub concluded: Option<SavedEnd>,
    /// The evaluation is hidden until the game ends.
    pub hide_eval: bool,
    /// A game against the engine (one line until it ends).
    pub linear: bool,
    /// The node on view, as the way to it ([`crate::tree::MoveTree::child_path`]).
    pub current: Vec<usize>,
    /// The engine's thinking times: (node's place in PGN order, ms).
    pub times: Vec<(usize, u64)>,
    /// The game's version (an engine move found for another is not played).
    pub version: u64,
    /// The game's number (the analysis pass's results belong to one).
    pub serial: u64,
}

impl GameRecord {
    /// The game as a host keeps it away from its memory; `None` for an
    /// end no GUI game has (the match runner's adjudications).
    pub fn save(&self) -> Option<SavedGame> {
        let end = |e: &Option<Ending>| match e {
            Some(e) => SavedEnd::of(e).map(Some),
            None => Some(None),
        };
        let order = self.tree.pgn_order();
        let times = order
            .iter()
            .enumerate()
            .filter_map(|(i, &id)| Some((i, self.tree.get(id)?.time_ms?)))
            .collect();
        Some(SavedGame {
            pgn: self.pgn_text(false),
            tags: self.tags.clone(),
            recorded_result: self.recorded_result.as_str().to_string(),
            ending: end(&self.ending)?,
            concluded: end(&self.concluded)?,
            hide_eval: self.hide_eval,
            linear: self.linear,
            current: self.tree.child_path(self.current).unwrap_or_default(),
            times,
            version: self.version,
            serial: self.serial,
        })
    }

    /// The game a host kept ([`GameRecord::save`]), as it was; refused,
    /// saying why, when the copy does not read as one (a PGN that is not
    /// one game, a node on view or a time of a move the game has not got,
    /// an end by the rules where the moves end nothing).
    pub fn restore(saved: &SavedGame) -> Result<GameRecord, GameError> {
        if saved.pgn.len() > MAX_SAVED_PGN_BYTES {
            return Err(Invalid::BadSavedGame("its PGN is longer than a kept game may be").into());
        }
        let mut record = GameRecord::dated(chess::Position::startpos(), "????.??.??");
        record.import_pgn(&saved.pgn)?;
        record.tags = saved.tags.clone();
        record.recorded_result = GameResult::from_tag(&saved.recorded_result);
        record.hide_eval = saved.hide_eval;
        record.linear = saved.linear;
        record.ending = saved.ending.map(|e| e.ending(&record)).transpose()?;
        record.concluded = saved.concluded.map(|e| e.ending(&record)).transpose()?;
        record.current = record
            .tree
            .at_child_path(&saved.current)
            .ok_or(Invalid::BadSavedGame(
                "its move on view is not one of its moves",
            ))?;
        let order = record.tree.pgn_order();
        for &(i, ms) in &saved.times {
            let id = *order
                .get(i)
                .ok_or(Invalid::BadSavedGame("it times a move it has not got"))?;
            record.tree.set_time(id, Some(ms))?;
        }
        record.version = saved.version;
        record.serial = saved.serial;
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_end::Side;
    use chess::{Color, Position};

    fn play(r: &mut GameRecord, sans: &[&str]) {
        for san in sans {
            let m = r.parse_move(san).expect("legal");
            r.play(m, None).expect("plays");
        }
    }

    /// What a kept copy must give back: everything the page is shown and
    /// the rules the game keeps.
    fn same(a: &GameRecord, b: &GameRecord) {
        assert_eq!(a.export_pgn(), b.export_pgn());
        assert_eq!(a.tree.child_path(a.current), b.tree.child_path(b.current));
        assert_eq!(a.over(), b.over());
        assert_eq!(a.final_end(), b.final_end());
        assert_eq!(
            (a.hide_eval, a.linear, a.version, a.serial, &a.tags),
            (b.hide_eval, b.linear, b.version, b.serial, &b.tags)
        );
        assert_eq!(a.recorded_result, b.recorded_result);
        assert_eq!(a.in_match(), b.in_match());
    }

    fn round_trip(r: &GameRecord) -> GameRecord {
        let saved = r.save().expect("a GUI game is kept");
        let text = serde_json::to_string(&saved).expect("JSON");
        let back: SavedGame = serde_json::from_str(&text).expect("reads back");
        assert_eq!(back, saved);
        let restored = GameRecord::restore(&back).expect("restores");
        same(r, &restored);
        restored
    }

    #[test]
    fn a_game_against_the_engine_on_a_clock_comes_back_as_it_goes_on() {
        let mut r = GameRecord::new(Position::startpos());
        r.reset(Position::startpos(), true, true);
        play(&mut r, &["e4", "e5", "Nf3"]);
        let mainline = r.tree.mainline();
        r.set_clock(mainline[0], 178_000).expect("clock");
        r.tree.set_time(mainline[1], Some(1_250)).expect("time");
        r.set_clock(mainline[1], 179_500).expect("clock");
        let back = round_trip(&r);
        assert!(back.in_match() && back.eval_hidden());
        assert_eq!(
            back.tree.get(back.tree.mainline()[1]).unwrap().time_ms,
            Some(1_250)
        );
        // The engine's time is no comment of the move after the trip.
        assert!(back
            .tree
            .get(back.tree.mainline()[1])
            .unwrap()
            .comments
            .is_empty());
        // It goes on: a move is played into it, one line.
        let mut back = back;
        play(&mut back, &["Nc6"]);
        assert_eq!(back.mainline_moves().len(), 4);
    }

    #[test]
    fn a_resigned_game_stays_final_and_its_variations_and_view_come_back() {
        let mut r = GameRecord::new(Position::startpos());
        r.reset(Position::startpos(), false, true);
        play(&mut r, &["e4", "e5", "Nf3", "Nc6"]);
        r.end(Ending::Resigned {
            loser: Color::Black,
        })
        .expect("ends");
        // A variation from move 2 and a comment on it, viewed there.
        let second = r.tree.mainline()[1];
        r.goto(second).expect("goto");
        let m = r.parse_move("d4").expect("legal");
        let side = r.play(m, None).expect("a variation");
        r.annotate(side, Some("the centre"), Some(&[1]))
            .expect("annotates");
        let back = round_trip(&r);
        assert_eq!(back.final_end(), r.final_end());
        let undo = back.clone().undo(1).expect_err("final");
        assert_eq!(undo.kind(), crate::ErrorKind::Conflict);
        assert_eq!(
            back.tree.get(back.current).unwrap().comments,
            vec!["the centre"]
        );
    }

    #[test]
    fn a_mate_a_flag_and_an_imported_game_come_back() {
        let mut mate = GameRecord::new(Position::startpos());
        mate.reset(Position::startpos(), false, true);
        play(&mut mate, &["f3", "e5", "g4", "Qh4#"]);
        assert!(matches!(
            round_trip(&mate).final_end(),
            Some(Ending::Rules(_))
        ));

        let mut flag = GameRecord::new(Position::startpos());
        flag.reset(Position::startpos(), false, true);
        play(&mut flag, &["d4"]);
        flag.end(Ending::TimeForfeit {
            loser: Color::Black,
            over: None,
        })
        .expect("flag");
        round_trip(&flag);

        let mut study = GameRecord::new(Position::startpos());
        study
            .import_pgn(
                "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 (1. d4 d5) e5 {fine} 2. Nf3 1-0\n",
            )
            .expect("imports");
        let back = round_trip(&study);
        assert!(back.final_end().is_none() && back.recorded_result == GameResult::WhiteWins);
    }

    #[test]
    fn a_copy_that_does_not_read_as_its_game_is_refused() {
        let mut r = GameRecord::new(Position::startpos());
        play(&mut r, &["e4"]);
        let saved = r.save().expect("kept");
        let refused = |s: SavedGame| GameRecord::restore(&s).expect_err("refused").to_string();
        assert!(refused(SavedGame {
            current: vec![0, 0, 3],
            ..saved.clone()
        })
        .contains("move on view"));
        assert!(refused(SavedGame {
            times: vec![(7, 10)],
            ..saved.clone()
        })
        .contains("times a move"));
        assert!(refused(SavedGame {
            concluded: Some(SavedEnd::Rules),
            ..saved.clone()
        })
        .contains("ends nothing"));
        assert!(refused(SavedGame {
            pgn: "not a game".into(),
            ..saved.clone()
        })
        .contains("PGN"));
        assert_eq!(
            SavedEnd::of(&Ending::ScoreDraw),
            None,
            "an adjudication is no GUI game's end"
        );
        let _ = Side::White;
    }
}
