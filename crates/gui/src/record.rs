//! One tab's game: the rules' `Game` with what the page shows beside it
//! (PGN tags, the time each engine move took) and a version number that
//! grows with every change, so an engine move found for an older version
//! of the game is not played into a newer one.

use chess::{CastlingMode, Game, Move, Position};
use pgn::{GameResult, PgnGame, PgnMove, PgnReader};

use crate::error::ApiError;
use crate::game_end::GameEnd;

/// A game as the GUI keeps it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The moves and positions.
    pub game: Game,
    /// PGN tags other than the result (imported, or the GUI's own).
    pub tags: Vec<(String, String)>,
    /// For each ply, how long the engine thought about it (None: a person's move or a book move).
    pub move_times: Vec<Option<u64>>,
    /// Changes with every move, undo and new position.
    pub version: u64,
    /// An end the players gave the game (resignation, agreed draw, flag).
    pub ending: Option<GameEnd>,
    /// A person plays the engine and asked not to see evaluations until
    /// the game ends: the server then gives out no analysis of it.
    pub hide_eval: bool,
}

impl GameRecord {
    /// A new game from `start`.
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            game: Game::new(start),
            tags: vec![
                ("Event".into(), "Kestrel GUI game".into()),
                ("Site".into(), "localhost".into()),
                ("Date".into(), pgn::today()),
            ],
            move_times: Vec::new(),
            version: 0,
            ending: None,
            hide_eval: false,
        }
    }

    /// How the game ended, if it did: the players' end, else the rules'
    /// (result and reason).
    pub fn over(&self) -> Option<GameEnd> {
        self.ending.clone().or_else(|| {
            self.game.outcome().map(|o| GameEnd {
                result: o.result(),
                reason: o.to_string(),
            })
        })
    }

    /// Ends the game by the players' word; refused when it is over already.
    pub fn end(&mut self, end: GameEnd) -> Result<(), ApiError> {
        if let Some(over) = self.over() {
            return Err(ApiError::conflict(format!(
                "the game is over already ({}, {})",
                over.result, over.reason
            )));
        }
        self.ending = Some(end);
        self.version += 1;
        Ok(())
    }

    /// Reads a move in UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `O-O`).
    pub fn parse_move(&self, text: &str) -> Result<Move, ApiError> {
        let pos = self.game.position();
        let text = text.trim();
        if text.is_empty() {
            return Err(ApiError::bad_request("no move given"));
        }
        if let Ok(m) = pos.parse_uci_move(text, pos.castling_mode()) {
            return Ok(m);
        }
        pos.parse_san(text).map_err(|e| {
            ApiError::bad_request(format!(
                "'{text}' is not a legal move here ({e}); give it in UCI (e2e4) or SAN (e4)"
            ))
        })
    }

    /// Plays a legal move; `time_ms` is the engine's thinking time.
    pub fn play(&mut self, m: Move, time_ms: Option<u64>) -> Result<(), ApiError> {
        if let Some(over) = self.over() {
            return Err(ApiError::conflict(format!(
                "the game is over ({}); undo or start a new game",
                over.reason
            )));
        }
        if !self.game.position().is_legal(m) {
            return Err(ApiError::bad_request("that move is not legal here"));
        }
        self.game.push(m);
        self.move_times.push(time_ms);
        self.version += 1;
        Ok(())
    }

    /// Takes back `plies` moves (fewer when the game is shorter); how many were taken back.
    pub fn undo(&mut self, plies: usize) -> usize {
        let mut n = 0;
        while n < plies && self.game.pop().is_some() {
            self.move_times.pop();
            n += 1;
        }
        if n > 0 {
            // A takeback reopens a game the players had ended.
            self.ending = None;
            self.version += 1;
        }
        n
    }

    /// Starts again from `start`, keeping the tags; `hide_eval`: a game
    /// against the engine whose evaluation stays hidden until it ends.
    pub fn reset(&mut self, start: Position, hide_eval: bool) {
        self.game = Game::new(start);
        self.move_times.clear();
        self.ending = None;
        self.hide_eval = hide_eval;
        self.version += 1;
    }

    /// True while the evaluation of this game may not be given out: it
    /// is hidden and the game goes on.
    pub fn eval_hidden(&self) -> bool {
        self.hide_eval && self.over().is_none()
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = *self.game.start();
        let mut out = Vec::with_capacity(self.game.moves().len() + 1);
        out.push(pos);
        for &m in self.game.moves() {
            pos.play(m);
            out.push(pos);
        }
        out
    }

    /// The keys of the positions before the current one (for the search's repetition checks).
    pub fn history_keys(&self) -> Vec<u64> {
        let mut keys: Vec<u64> = self.positions().iter().map(Position::key).collect();
        keys.pop();
        keys
    }

    /// The castling notation of this game (Chess960 starts use king-takes-rook).
    pub fn mode(&self) -> CastlingMode {
        self.game.start().castling_mode()
    }

    /// Replaces the game with the first game of a PGN text (its main line).
    pub fn import_pgn(&mut self, text: &str) -> Result<(), ApiError> {
        let first = PgnReader::new(text.as_bytes())
            .next()
            .ok_or_else(|| ApiError::bad_request("the PGN text holds no game"))?;
        let imported =
            first.map_err(|e| ApiError::bad_request(format!("cannot read the PGN: {e}")))?;
        let mut game = Game::new(imported.start);
        for m in imported.mainline() {
            if m.is_null() || !game.position().is_legal(m) {
                return Err(ApiError::bad_request(
                    "the PGN has a null move in its main line, which the GUI cannot play",
                ));
            }
            game.push(m);
        }
        self.move_times = vec![None; game.moves().len()];
        self.game = game;
        self.ending = None;
        // An imported game is for study: nothing is hidden.
        self.hide_eval = false;
        self.tags = imported
            .tags
            .into_iter()
            .filter(|(name, _)| name != "Result" && name != "FEN" && name != "SetUp")
            .collect();
        self.version += 1;
        Ok(())
    }

    /// The game as PGN, with the result when the game is over and the
    /// engine's thinking time as a comment after each engine move.
    pub fn export_pgn(&self) -> String {
        let mut out = PgnGame::new(*self.game.start());
        for (name, value) in &self.tags {
            out.set_tag(name, value);
        }
        for (i, &m) in self.game.moves().iter().enumerate() {
            let mut pm = PgnMove::new(m);
            if let Some(Some(ms)) = self.move_times.get(i) {
                pm.comments.push(format!("{:.2}s", *ms as f64 / 1000.0));
            }
            out.moves.push(pm);
        }
        let over = self.over();
        let result = over.as_ref().map_or("*", |o| o.result);
        out.result = GameResult::from_tag(result);
        out.set_tag("Result", result);
        if let Some(termination) = self.ending.as_ref().and_then(GameEnd::termination) {
            out.set_tag("Termination", termination);
        }
        if self.game.start().fen() != chess::fen::STARTPOS {
            out.set_tag("SetUp", "1");
            out.set_tag("FEN", &self.game.start().fen());
        }
        pgn::write_game(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_in_uci_and_san_and_illegal_ones_refused() {
        let mut r = GameRecord::new(Position::startpos());
        let e4 = r.parse_move("e2e4").expect("uci");
        r.play(e4, None).expect("legal");
        let e5 = r.parse_move("e5").expect("san");
        r.play(e5, Some(1200)).expect("legal");
        assert!(r.parse_move("Ke3").is_err());
        assert!(r.parse_move("e2e4").is_err());
        assert_eq!(r.game.moves().len(), 2);
        assert_eq!(r.version, 2);
        assert_eq!(r.undo(5), 2);
        assert_eq!(r.game.moves().len(), 0);
    }

    #[test]
    fn pgn_round_trips_with_tags_times_and_set_up_positions() {
        let mut r = GameRecord::new(Position::startpos());
        let text = "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        r.import_pgn(text).expect("reads");
        assert_eq!(r.game.moves().len(), 4);
        let out = r.export_pgn();
        assert!(out.contains("[White \"Ann\"]"), "{out}");
        assert!(out.contains("2. g4 Qh4# 0-1"), "{out}");

        let start = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").expect("fen");
        let mut r = GameRecord::new(start);
        let m = r.parse_move("e4").expect("move");
        r.play(m, Some(1500)).expect("legal");
        let out = r.export_pgn();
        assert!(
            out.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]"),
            "{out}"
        );
        assert!(out.contains("1. e4 {1.50s} *"), "{out}");
        let mut back = GameRecord::new(Position::startpos());
        back.import_pgn(&out).expect("reads its own output");
        assert_eq!(back.game.position().fen(), r.game.position().fen());
    }

    #[test]
    fn the_players_end_a_game_and_a_takeback_reopens_it() {
        let mut r = GameRecord::new(Position::startpos());
        let m = r.parse_move("e4").expect("move");
        r.play(m, None).expect("legal");
        r.tags.push(("White".into(), "Human".into()));
        r.tags.push(("Black".into(), "Kestrel (Elo 1500)".into()));
        r.end(GameEnd::new("1-0", "Black resigns").expect("end"))
            .expect("ends");
        assert!(r
            .end(GameEnd::new("0-1", "White resigns").expect("end"))
            .is_err());
        let e5 = r.parse_move("e5").expect("move");
        assert!(r.play(e5, None).is_err(), "no move after the end");
        let out = r.export_pgn();
        assert!(
            out.contains("[Black \"Kestrel (Elo 1500)\"]") && out.contains("1. e4 1-0"),
            "{out}"
        );
        r.undo(1);
        assert!(r.over().is_none());
    }

    #[test]
    fn broken_pgn_leaves_the_game_as_it_was() {
        let mut r = GameRecord::new(Position::startpos());
        let m = r.parse_move("d4").expect("move");
        r.play(m, None).expect("legal");
        assert!(r.import_pgn("1. e4 Ke7 Kxe9 *").is_err());
        assert!(r.import_pgn("").is_err());
        assert_eq!(r.game.moves().len(), 1);
    }

    #[test]
    fn a_new_game_is_dated_today() {
        let out = GameRecord::new(Position::startpos()).export_pgn();
        assert!(
            out.contains(&format!("[Date \"{}\"]", pgn::today())),
            "{out}"
        );
    }
}
