//! The page's requests that change a game, and the one order in which
//! every host makes them: room for what the change adds, the change
//! checked against the game as it is (or made on a copy of it, where
//! only making it can tell), the game's search stopped when the change
//! may take away the position it searches, the change applied, and the
//! engine's table forgotten when the game starts again.
//!
//! A host ([`GameHost`]) says only how it does each of those things:
//! `kestrel gui` (crates/gui) locks its session's game, reserves memory in
//! its budget and stops its engine's thread; the page without a server
//! (crates/web) holds its game in hand and orders the engine's Worker. So
//! the order, the checks, and which request stops a search or clears the
//! table are written once, here, and a refused request leaves the game and
//! its search as they were on both hosts.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::GameError;
use crate::game_state::GameState;
use crate::memory;
use crate::record::GameRecord;
use crate::request::{
    AnnotateBody, ClockBody, DeleteBody, EndBody, GotoBody, LinesBody, MoveBody, PgnBody,
    PositionBody, PromoteBody, TagsBody, UndoBody,
};
use crate::review::{self, Review};

/// A request that changes a game (each `POST` of [`Change::ROUTES`]); the
/// answer to every one is the game's view.
#[derive(Debug)]
pub enum Change {
    /// `POST /api/move`: a move, which goes on view.
    Move(MoveBody),
    /// `POST /api/goto`: a node on view (the search goes on: the page
    /// starts analysis of the new position itself).
    Goto(GotoBody),
    /// `POST /api/promote`: a variation moved up.
    Promote(PromoteBody),
    /// `POST /api/annotate`: a move's comment and NAGs.
    Annotate(AnnotateBody),
    /// `POST /api/clock`: a move's clock.
    Clock(ClockBody),
    /// `POST /api/delete`: a move and all that follows it.
    Delete(DeleteBody),
    /// `POST /api/undo`: moves taken back.
    Undo(UndoBody),
    /// `POST /api/end`: the players end the game.
    End(EndBody),
    /// `POST /api/tags`: PGN tags.
    Tags(TagsBody),
    /// `POST /api/position`: the game started again from a position.
    Position(PositionBody),
    /// `POST /api/pgn`: the game replaced by an imported one.
    Pgn(PgnBody),
    /// `POST /api/analysis/lines`: the review's best lines added.
    Lines(LinesBody),
}

/// What [`Change::prepare`] found: nothing more than that the change may
/// be made, or the game as the change makes it (made on a copy).
#[derive(Debug)]
pub enum Prepared {
    /// Apply the change to the game.
    Checked,
    /// Put this in the game's place.
    Made(Box<GameRecord>),
}

fn read<T: DeserializeOwned>(body: Value) -> Result<T, serde_json::Error> {
    serde_json::from_value(body)
}

impl Change {
    /// The path of each change, all `POST`, as [`Change::parse`] reads them.
    pub const ROUTES: [&'static str; 12] = [
        "/api/move",
        "/api/goto",
        "/api/promote",
        "/api/annotate",
        "/api/clock",
        "/api/delete",
        "/api/undo",
        "/api/end",
        "/api/tags",
        "/api/position",
        "/api/pgn",
        "/api/analysis/lines",
    ];

    /// The change a `POST` to `route` asks for with `body`: `None` for a
    /// route that is not a change, else the body read as the change's type
    /// (or why it does not read).
    pub fn parse(route: &str, body: Value) -> Option<Result<Change, serde_json::Error>> {
        let change = match route {
            "/api/move" => read(body).map(Change::Move),
            "/api/goto" => read(body).map(Change::Goto),
            "/api/promote" => read(body).map(Change::Promote),
            "/api/annotate" => read(body).map(Change::Annotate),
            "/api/clock" => read(body).map(Change::Clock),
            "/api/delete" => read(body).map(Change::Delete),
            "/api/undo" => read(body).map(Change::Undo),
            "/api/end" => read(body).map(Change::End),
            "/api/tags" => read(body).map(Change::Tags),
            "/api/position" => read(body).map(Change::Position),
            "/api/pgn" => read(body).map(Change::Pgn),
            "/api/analysis/lines" => read(body).map(Change::Lines),
            _ => return None,
        };
        Some(change)
    }

    /// The game's id.
    pub fn game(&self) -> &str {
        match self {
            Change::Move(b) => &b.game,
            Change::Goto(b) => &b.game,
            Change::Promote(b) => &b.game,
            Change::Annotate(b) => &b.game,
            Change::Clock(b) => &b.game,
            Change::Delete(b) => &b.game,
            Change::Undo(b) => &b.game,
            Change::End(b) => &b.game,
            Change::Tags(b) => &b.game,
            Change::Position(b) => &b.game,
            Change::Pgn(b) => &b.game,
            Change::Lines(b) => &b.game,
        }
    }

    /// Whether the game's search stops before the change: it may search a
    /// position the change takes away (a move leaves it, a deletion or a
    /// takeback removes it, an end or a new game leaves nothing to play).
    pub fn stops_search(&self) -> bool {
        matches!(
            self,
            Change::Move(_)
                | Change::Delete(_)
                | Change::Undo(_)
                | Change::End(_)
                | Change::Position(_)
                | Change::Pgn(_)
        )
    }

    /// Whether the game starts again, a new game to its engine: what the
    /// engine's table holds of the old one is no use to it.
    pub fn starts_again(&self) -> bool {
        matches!(self, Change::Position(_) | Change::Pgn(_))
    }

    /// The most bytes the change adds to `record` while it is made and
    /// after (see [`crate::memory`]), for a host that keeps a budget: a
    /// move's node, a comment, tags, an imported game, the review's lines
    /// with the copy they are made on; 0 for one that adds nothing.
    pub fn adds(&self, record: &GameRecord) -> usize {
        match self {
            Change::Move(_) => memory::nodes_bytes(record, 1),
            Change::Annotate(b) => {
                memory::annotation_bytes(b.comment.as_deref(), b.nags.as_deref())
            }
            Change::Tags(b) => memory::tags_bytes(&b.tags),
            Change::Pgn(b) => memory::import_bound(&b.pgn),
            Change::Lines(b) => memory::best_lines_bytes(record, b.ply),
            _ => 0,
        }
    }

    /// Whether the change may be made to `record` (whose review's results
    /// are `review`), without changing it: checked where a check says all
    /// that applying would refuse, else made on a copy. Refused here, a
    /// change has stopped nothing.
    pub fn prepare(&self, record: &GameRecord, review: &Review) -> Result<Prepared, GameError> {
        match self {
            Change::Move(b) => b.check(record)?,
            Change::Delete(b) => b.check(record)?,
            Change::Undo(b) => b.check(record)?,
            Change::End(b) => b.check(record)?,
            Change::Position(b) => b.check(record)?,
            Change::Pgn(b) => return Ok(Prepared::Made(Box::new(b.imported(record)?))),
            // All the lines or none: one that fails leaves the game as it was.
            Change::Lines(b) => {
                let mut copy = record.clone();
                review::add_best_lines(review, &mut copy, b.ply)?;
                return Ok(Prepared::Made(Box::new(copy)));
            }
            // Each of these checks all before it changes anything.
            Change::Goto(_)
            | Change::Promote(_)
            | Change::Annotate(_)
            | Change::Clock(_)
            | Change::Tags(_) => {}
        }
        Ok(Prepared::Checked)
    }

    /// Makes the change to `record`, as `prepared` found it may be made.
    pub fn apply(&self, record: &mut GameRecord, prepared: Prepared) -> Result<(), GameError> {
        if let Prepared::Made(made) = prepared {
            *record = *made;
            return Ok(());
        }
        match self {
            Change::Move(b) => b.apply(record).map(drop),
            Change::Goto(b) => b.apply(record),
            Change::Promote(b) => b.apply(record),
            Change::Annotate(b) => b.apply(record),
            Change::Clock(b) => b.apply(record),
            Change::Delete(b) => b.apply(record),
            Change::Undo(b) => b.apply(record),
            Change::End(b) => b.apply(record),
            Change::Tags(b) => b.apply(record),
            Change::Position(b) => b.apply(record),
            // Made on a copy in `prepare`; never left to here.
            Change::Pgn(b) => b.imported(record).map(|made| *record = made),
            Change::Lines(_) => Ok(()),
        }
    }

    /// Makes the change to the game `host` holds, in the one order every
    /// host keeps: room for what it adds, checked (nothing stopped when
    /// refused), the search stopped if it must be, applied, the host
    /// told the game changed, and the table forgotten when the game
    /// starts again.
    pub fn make<H: GameHost>(&self, host: &mut H) -> Result<(), H::Error> {
        let adds = host.with_game(|game| self.adds(&game.record));
        let room = host.room(adds)?;
        let prepared = host.with_game(|game| self.prepare(&game.record, &game.review))?;
        if self.stops_search() {
            host.stop_search();
        }
        let done = host.with_game(|game| self.apply(&mut game.record, prepared));
        host.changed();
        drop(room);
        done?;
        if self.starts_again() {
            host.forget_table();
        }
        Ok(())
    }
}

/// What a host does for a change that the game cannot do itself (see
/// [`Change::make`]).
pub trait GameHost {
    /// What the host refuses with: a game's refusal, or its own (no room).
    type Error: From<GameError>;
    /// Room held for the change until it is made (a host without a
    /// budget: `()`).
    type Room;

    /// Room for `bytes` more, or why there is none.
    fn room(&mut self, bytes: usize) -> Result<Self::Room, Self::Error>;

    /// Runs `f` on the game and its review's results, held for no longer
    /// than `f` (a server holds a lock for it; the search is never stopped
    /// while it is held).
    fn with_game<T>(&mut self, f: impl FnOnce(&mut GameState) -> T) -> T;

    /// Stops whatever search the game's engine runs for it; the page is
    /// told (`stopped`).
    fn stop_search(&mut self);

    /// The game started again: its engine's next search starts from an
    /// empty table.
    fn forget_table(&mut self);

    /// The game changed, or a change of it was refused (a host that
    /// counts its games' memory counts this one again).
    fn changed(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refusal::Refusal;
    use chess::Position;
    use serde_json::json;

    /// A host that writes down what it is asked to do.
    struct Notebook {
        game: GameState,
        done: Vec<&'static str>,
        room_left: usize,
    }

    impl Notebook {
        fn new() -> Notebook {
            Notebook {
                game: GameState::new(GameRecord::dated(Position::startpos(), "2026.12.02")),
                done: Vec::new(),
                room_left: usize::MAX,
            }
        }
    }

    impl GameHost for Notebook {
        type Error = Refusal;
        type Room = ();

        fn room(&mut self, bytes: usize) -> Result<(), Refusal> {
            if bytes > self.room_left {
                return Err(Refusal::new(503, "no room"));
            }
            self.done.push("room");
            Ok(())
        }

        fn with_game<T>(&mut self, f: impl FnOnce(&mut GameState) -> T) -> T {
            f(&mut self.game)
        }

        fn stop_search(&mut self) {
            self.done.push("stop");
        }

        fn forget_table(&mut self) {
            self.done.push("forget");
        }

        fn changed(&mut self) {
            self.done.push("changed");
        }
    }

    fn change(route: &str, body: Value) -> Change {
        Change::parse(route, body)
            .expect("a change's route")
            .expect("a change's body")
    }

    #[test]
    fn every_route_reads_its_own_body_and_names_its_game() {
        for route in Change::ROUTES {
            let Some(Err(_)) = Change::parse(route, json!({"x": 1})) else {
                panic!("{route} took a body of another shape");
            };
        }
        assert!(Change::parse("/api/go", json!({"game": "g"})).is_none());
        let undo = change("/api/undo", json!({"game": "g7"}));
        assert_eq!(undo.game(), "g7");
    }

    #[test]
    fn a_move_stops_the_search_then_is_played_and_a_refused_one_stops_nothing() {
        let mut host = Notebook::new();
        change("/api/move", json!({"game": "g", "move": "e4"}))
            .make(&mut host)
            .expect("legal");
        assert_eq!(host.done, ["room", "stop", "changed"]);
        assert_eq!(host.game.record.mainline_moves().len(), 1);
        host.done.clear();
        let e = change("/api/move", json!({"game": "g", "move": "Ke3"}))
            .make(&mut host)
            .expect_err("illegal");
        assert!(e.message.contains("Ke3"), "{e:?}");
        assert_eq!(host.done, ["room"], "checked before the search stops");
        host.room_left = 0;
        let e = change("/api/move", json!({"game": "g", "move": "e5"}))
            .make(&mut host)
            .expect_err("no room");
        assert_eq!(e.status, 503);
        assert_eq!(host.game.record.mainline_moves().len(), 1);
    }

    #[test]
    fn a_new_start_forgets_the_table_once_it_is_made_and_an_end_is_checked_first() {
        let mut host = Notebook::new();
        change(
            "/api/position",
            json!({"game": "g", "fen": "8/8/8/8/8/8/8/K1k5 w - - 0 1"}),
        )
        .make(&mut host)
        .expect("a position");
        assert_eq!(host.done, ["room", "stop", "changed", "forget"]);
        host.done.clear();
        change("/api/pgn", json!({"game": "g", "pgn": "1. e4 e5 *"}))
            .make(&mut host)
            .expect("a game");
        assert_eq!(host.done, ["room", "stop", "changed", "forget"]);
        assert_eq!(host.game.record.mainline_moves().len(), 2);
        host.done.clear();
        let bad = change("/api/pgn", json!({"game": "g", "pgn": "1. e5 *"}));
        bad.make(&mut host).expect_err("an illegal move");
        assert_eq!(host.done, ["room"], "nothing stopped, nothing forgotten");
        assert_eq!(
            host.game.record.mainline_moves().len(),
            2,
            "the game as it was"
        );
        let resign = change("/api/end", json!({"game": "g", "end": "draw"}));
        resign.make(&mut host).expect("agreed");
        host.done.clear();
        resign.make(&mut host).expect_err("over already");
        assert_eq!(host.done, ["room"], "a second end stops nothing");
    }

    #[test]
    fn lines_without_a_review_leave_the_game_as_it_was() {
        let mut host = Notebook::new();
        change("/api/move", json!({"game": "g", "move": "e4"}))
            .make(&mut host)
            .expect("legal");
        let before = host.game.record.export_pgn();
        let e = change("/api/analysis/lines", json!({"game": "g"}))
            .make(&mut host)
            .expect_err("nothing judged");
        assert_eq!(e.status, 409, "{e:?}");
        assert_eq!(host.game.record.export_pgn(), before);
    }
}
