//! The page's requests about a game, as every host answers them: the body
//! each request of the API takes (`POST /api/move` `{"game", "move",
//! "from"?}`...) and what it does to the game. `kestrel gui` (crates/gui,
//! `api.rs`) and the page without a server (crates/web, `games.rs`) route
//! requests here, so that each check is written once.
//!
//! What is the host's own: finding the game by its id, and stopping the
//! game's search before a change that would leave it searching a position
//! no longer there. A host checks such a request on a copy of the game
//! first ([`GameRecord::clone`]), so that a refused one leaves the search
//! running, then stops the search and applies it to the game.

use std::collections::BTreeMap;

use chess::Position;
use engine::Limits;
use serde::{Deserialize, Serialize};

use crate::error::{Conflict, GameError, Invalid};
use crate::game_end::{PlayersEnd, Side};
use crate::record::{GameRecord, SearchAt, SearchTarget};
use crate::review::PassLimit;
use crate::search_gate::{Begun, Purpose};
use crate::settings::EngineSettings;
use crate::tree::NodeId;

pub use crate::limits::{MAX_TAG_CHARS, OWN_TAGS};

/// The position of a FEN (surrounding spaces ignored).
pub fn parse_fen(fen: &str) -> Result<Position, GameError> {
    Position::from_fen(fen.trim()).map_err(|e| Invalid::BadFen(e).into())
}

/// The position of `fen`, or the usual start without one.
pub fn start_position(fen: Option<&str>) -> Result<Position, GameError> {
    fen.map_or(Ok(Position::startpos()), parse_fen)
}

/// Refuses what would tell the evaluation of a game that hides it; `what`
/// says what it is ("the book's statistics").
pub fn not_hidden(record: &GameRecord, what: &'static str) -> Result<(), GameError> {
    if record.eval_hidden() {
        return Err(Conflict::Hidden(what).into());
    }
    Ok(())
}

/// A body naming a game and nothing else.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GameBody {
    /// The game's id.
    pub game: String,
}

/// `POST /api/game` `{"fen"?}`: a new game for a tab.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Its start (default: the usual one).
    pub fen: Option<String>,
}

impl NewGame {
    /// The new game's start.
    pub fn start(&self) -> Result<Position, GameError> {
        start_position(self.fen.as_deref())
    }
}

/// `POST /api/move` `{"game", "move", "from"?}`: a move in UCI or SAN,
/// played from node `from` (default: the position on view).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// The game's id.
    pub game: String,
    /// The move, UCI or SAN.
    #[serde(rename = "move")]
    pub mv: String,
    /// The node it is played from.
    pub from: Option<NodeId>,
}

impl MoveBody {
    /// Whether the move may be played, and why not, without changing the
    /// game (nor copying it): what [`MoveBody::apply`] would refuse.
    pub fn check(&self, record: &GameRecord) -> Result<(), GameError> {
        let from = self.from.unwrap_or(record.current);
        record.tree.node(from)?;
        record.playable_from(from)?;
        record.parse_move_at(from, &self.mv)?;
        Ok(())
    }

    /// Plays the move, which goes on view: a new variation when it leaves
    /// the line, or the existing node when it was played there already.
    pub fn apply(&self, record: &mut GameRecord) -> Result<NodeId, GameError> {
        self.check(record)?;
        let from = self.from.unwrap_or(record.current);
        let m = record.parse_move_at(from, &self.mv)?;
        let id = record.play_from(from, m, None)?;
        record.current = id;
        Ok(id)
    }
}

/// `POST /api/goto` `{"game", "node"}`: puts a node of the tree on view.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GotoBody {
    /// The game's id.
    pub game: String,
    /// The node.
    pub node: NodeId,
}

impl GotoBody {
    /// Goes there.
    pub fn apply(&self, record: &mut GameRecord) -> Result<(), GameError> {
        record.goto(self.node)
    }
}

/// `POST /api/promote` `{"game", "node", "main"?}`: moves the variation
/// holding `node` up one place, or with `main` makes it the main line.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PromoteBody {
    /// The game's id.
    pub game: String,
    /// A node of the variation.
    pub node: NodeId,
    /// Make it the main line.
    #[serde(default)]
    pub main: bool,
}

impl PromoteBody {
    /// Promotes it.
    pub fn apply(&self, record: &mut GameRecord) -> Result<(), GameError> {
        record.promote(self.node, self.main)
    }
}

/// `POST /api/annotate` `{"game", "node", "comment"?, "nags"?}`: the
/// comment after a move (empty: none) and/or its NAGs; a part left out
/// stays as it is.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AnnotateBody {
    /// The game's id.
    pub game: String,
    /// The move's node.
    pub node: NodeId,
    /// The comment after it.
    pub comment: Option<String>,
    /// Its NAGs.
    pub nags: Option<Vec<u8>>,
}

impl AnnotateBody {
    /// Annotates the move.
    pub fn apply(&self, record: &mut GameRecord) -> Result<(), GameError> {
        record.annotate(self.node, self.comment.as_deref(), self.nags.as_deref())
    }
}

/// `POST /api/clock` `{"game", "node", "ms"}`: the mover's clock after a
/// move of a game against the engine, for the move list and the PGN's
/// `[%clk]` (the page keeps the clocks and sends each move's once).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ClockBody {
    /// The game's id.
    pub game: String,
    /// The move's node.
    pub node: NodeId,
    /// The mover's clock after it, milliseconds.
    pub ms: u64,
}

impl ClockBody {
    /// Records it (see [`GameRecord::set_clock`] for what is refused).
    pub fn apply(&self, record: &mut GameRecord) -> Result<(), GameError> {
        record.set_clock(self.node, self.ms)
    }
}

/// `POST /api/delete` `{"game", "node"}`: deletes a move and all that follows it.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct DeleteBody {
    /// The game's id.
    pub game: String,
    /// The first node to go.
    pub node: NodeId,
}

impl DeleteBody {
    /// Whether the node may be deleted, and why not, without changing the
    /// game: what [`DeleteBody::apply`] would refuse.
    pub fn check(&self, record: &GameRecord) -> Result<(), GameError> {
        record.may_delete(self.node)
    }

    /// Deletes from the node on (a host stops its search first: it may
    /// search a deleted position).
    pub fn apply(&self, record: &mut GameRecord) -> Result<(), GameError> {
        record.delete(self.node)
    }
}

/// `POST /api/undo` `{"game", "plies"?}` (default 1).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct UndoBody {
    /// The game's id.
    pub game: String,
    /// How many moves to take back.
    pub plies: Option<usize>,
}

impl UndoBody {
    /// Whether moves may be taken back, and why not, without changing the
    /// game: what [`UndoBody::apply`] would refuse (a finished game, no
    /// move on the line on view, a takeback of no moves).
    pub fn check(&self, record: &GameRecord) -> Result<(), GameError> {
        record.may_undo()?;
        if self.plies == Some(0) {
            return Err(Conflict::NothingToUndo.into());
        }
        Ok(())
    }

    /// Takes moves back (a host stops its search first: it may search a
    /// position taken back).
    pub fn apply(&self, record: &mut GameRecord) -> Result<(), GameError> {
        self.check(record)?;
        record.undo(self.plies.unwrap_or(1))?;
        Ok(())
    }
}

/// `POST /api/end` `{"game", "end": "resign"|"flag", "side": "white"|"black"}`
/// or `{"game", "end": "draw"}`: the players end the game.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EndBody {
    /// The game's id.
    pub game: String,
    /// How.
    pub end: PlayersEnd,
    /// The side that resigns or lost on time.
    pub side: Option<Side>,
}

impl EndBody {
    /// Whether the game may end so, and why not (an end that needs a side
    /// without one, a game over already), without ending it: what
    /// [`EndBody::apply`] would refuse.
    pub fn check(&self, record: &GameRecord) -> Result<(), GameError> {
        self.end.ending(self.side)?;
        record.may_end()
    }

    /// Ends the game by resignation, agreement or the page's clock.
    pub fn apply(&self, record: &mut GameRecord) -> Result<(), GameError> {
        record.end(self.end.ending(self.side)?)
    }
}

/// `POST /api/tags` `{"game", "tags": {"White": "...", ...}}`: PGN tags
/// for the export (the players' names, the time control).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TagsBody {
    /// The game's id.
    pub game: String,
    /// The tags; an empty value removes one.
    pub tags: BTreeMap<String, String>,
}

impl TagsBody {
    /// Sets the tags, all or none: a name of letters, digits and `_`
    /// (not one of [`OWN_TAGS`]), a value of one short line.
    pub fn apply(&self, record: &mut GameRecord) -> Result<(), GameError> {
        for (name, value) in &self.tags {
            let name_ok = (1..=40).contains(&name.len())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !OWN_TAGS.contains(&name.as_str());
            if !name_ok {
                return Err(Invalid::TagName(name.clone()).into());
            }
            if value.chars().count() > MAX_TAG_CHARS || value.chars().any(char::is_control) {
                return Err(Invalid::TagValue(name.clone()).into());
            }
        }
        for (name, value) in &self.tags {
            record.tags.retain(|(n, _)| n != name);
            if !value.is_empty() {
                record.tags.push((name.clone(), value.clone()));
            }
        }
        Ok(())
    }
}

/// `POST /api/position` `{"game", "fen"?, "hide_eval"?, "vs_engine"?}`: a
/// new game from a FEN (default: the start); `vs_engine`: a game against
/// the engine, one line without variations until it ends; `hide_eval`:
/// one whose evaluation the host keeps to itself until the game ends.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PositionBody {
    /// The game's id.
    pub game: String,
    /// The start.
    pub fen: Option<String>,
    /// Hide the evaluation until the game ends.
    #[serde(default)]
    pub hide_eval: bool,
    /// A game against the engine.
    #[serde(default)]
    pub vs_engine: bool,
}

impl PositionBody {
    /// The new start (a host checks it before it stops its search).
    pub fn start(&self) -> Result<Position, GameError> {
        start_position(self.fen.as_deref())
    }

    /// Whether the game may start again from the position, and why not
    /// (a bad FEN, a finished game, which stays as played), without
    /// changing it.
    pub fn check(&self, record: &GameRecord) -> Result<(), GameError> {
        self.start()?;
        record.may_replace()
    }

    /// Starts the game again from the position.
    pub fn apply(&self, record: &mut GameRecord) -> Result<(), GameError> {
        self.check(record)?;
        let start = self.start()?;
        record.reset(start, self.hide_eval, self.vs_engine || self.hide_eval);
        Ok(())
    }
}

/// `POST /api/pgn` `{"game", "pgn", "vs_engine"?, "hide_eval"?}`: replaces
/// the game with the first game of the text, a game to study; with
/// `vs_engine` a game against the engine, for a page restoring a game its
/// host no longer has: one that goes on goes on (as `/api/position` makes
/// one), one that had ended comes back final. A finished game is not
/// replaced.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PgnBody {
    /// The game's id.
    pub game: String,
    /// The PGN text.
    pub pgn: String,
    /// Hide the evaluation (a game against the engine).
    #[serde(default)]
    pub hide_eval: bool,
    /// Go on against the engine.
    #[serde(default)]
    pub vs_engine: bool,
}

impl PgnBody {
    /// `record` with the imported game in its place (the game itself is
    /// left as it was, for the host to swap in).
    pub fn imported(&self, record: &GameRecord) -> Result<GameRecord, GameError> {
        record.may_replace()?;
        // The game's numbers go on; its moves, replaced, are not copied.
        let mut imported = record.without_moves();
        imported.import_pgn(&self.pgn)?;
        if self.vs_engine || self.hide_eval {
            imported.resume_against_engine(self.hide_eval)?;
        }
        Ok(imported)
    }
}

/// `POST /api/go` `{"game", "settings", "play", "ply"?, "node"?}`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GoBody {
    /// The game's id.
    pub game: String,
    /// How the engine searches.
    #[serde(default)]
    pub settings: EngineSettings,
    /// Play the move found (an engine player); else only analyse.
    #[serde(default)]
    pub play: bool,
    /// Analyse the position after this many plies of the main line.
    pub ply: Option<usize>,
    /// Analyse this node of the tree (default: the position on view).
    pub node: Option<NodeId>,
}

impl GoBody {
    /// What the search is for.
    pub fn purpose(&self) -> Purpose {
        if self.play {
            Purpose::Move
        } else {
            Purpose::Analysis
        }
    }

    /// The search's limits and where it looks in `record`, checked: an
    /// engine move needs an end (a time, a depth or a clock).
    pub fn target(&self, record: &GameRecord) -> Result<(Limits, SearchTarget), GameError> {
        let limits = self.settings.limits()?;
        if self.play && limits.infinite {
            return Err(Invalid::InfiniteMove.into());
        }
        let at = SearchAt {
            ply: self.ply,
            node: self.node,
        };
        Ok((limits, record.search_target(at, self.play)?))
    }

    /// Whether the book is asked before the engine: for an engine
    /// player's move whose settings use it.
    pub fn asks_book(&self) -> bool {
        self.play && self.settings.own_book()
    }
}

/// The answer to `POST /api/go`: the search that serves the request.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoAnswer {
    /// Its number; its events carry it.
    pub search: u64,
    /// What it is for: an analysis request during an engine player's
    /// move gets the move's search, whose lines are the analysis.
    pub purpose: Purpose,
    /// False when a search already running serves the request.
    pub started: bool,
}

impl GoAnswer {
    /// The answer for a request for `purpose` that the game's gate
    /// `begun` (a new search, or the engine player's running one kept).
    pub fn of(begun: Begun, purpose: Purpose) -> GoAnswer {
        match begun {
            Begun::New(search) => GoAnswer {
                search,
                purpose,
                started: true,
            },
            Begun::Kept(search) => GoAnswer {
                search,
                purpose: Purpose::Move,
                started: false,
            },
        }
    }
}

/// The answer to `POST /api/stop`.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StopAnswer {
    /// A search was running and is stopped.
    pub stopped: bool,
}

/// `POST /api/stop` `{"game", "purpose"?}`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct StopBody {
    /// The game's id.
    pub game: String,
    /// Stop the search only when it is for this (`analysis`: never an
    /// engine player's move).
    pub purpose: Option<Purpose>,
}

/// `POST /api/engine` `{"game", "threads"?, "hash_mib"?}`: the game's
/// engine's search threads and table size.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EngineBody {
    /// The game's id.
    pub game: String,
    /// Search threads.
    pub threads: Option<usize>,
    /// The table's size, MiB.
    pub hash_mib: Option<usize>,
}

impl EngineBody {
    /// Refuses a number out of range: threads from 1 to `max_threads`
    /// (the machine's cores), a table from 1 MiB to `max_hash_mib`.
    pub fn check(&self, max_threads: usize, max_hash_mib: usize) -> Result<(), GameError> {
        if let Some(asked) = self.threads.filter(|n| !(1..=max_threads).contains(n)) {
            return Err(Invalid::ThreadsRange {
                max: max_threads,
                asked,
            }
            .into());
        }
        if let Some(asked) = self.hash_mib.filter(|m| !(1..=max_hash_mib).contains(m)) {
            return Err(Invalid::HashRange {
                max: max_hash_mib,
                asked,
            }
            .into());
        }
        Ok(())
    }
}

/// `POST /api/analysis` `{"game", "depth"? | "movetime_ms"?}`: the whole-game pass.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReviewBody {
    /// The game's id.
    pub game: String,
    /// Search each position to this depth.
    pub depth: Option<i32>,
    /// Or for this long.
    pub movetime_ms: Option<u64>,
}

impl ReviewBody {
    /// The pass's limit, unchecked ([`PassLimit::checked`]).
    pub fn limit(&self) -> PassLimit {
        PassLimit {
            depth: self.depth,
            movetime_ms: self.movetime_ms,
        }
    }
}

/// `POST /api/analysis/lines` `{"game", "ply"?}`: the pass's best line
/// after each judged move (or the one at `ply`) as a variation.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct LinesBody {
    /// The game's id.
    pub game: String,
    /// Only after this move of the main line.
    pub ply: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn game() -> GameRecord {
        GameRecord::dated(Position::startpos(), "2026.11.28")
    }

    fn body<T: serde::de::DeserializeOwned>(json: &str) -> T {
        serde_json::from_str(json).expect("a body")
    }

    #[test]
    fn a_move_is_checked_then_played_and_goes_on_view() {
        let mut r = game();
        let m: MoveBody = body(r#"{"game":"g","move":"e4"}"#);
        let id = m.apply(&mut r).expect("legal");
        assert_eq!(r.current, id);
        let other: MoveBody = body(r#"{"game":"g","move":"d2d4","from":0}"#);
        let side = other.apply(&mut r).expect("a variation from the start");
        assert_ne!(side, id);
        let wrong: MoveBody = body(r#"{"game":"g","move":"Ke3"}"#);
        let e = wrong.apply(&mut r).expect_err("illegal");
        assert_eq!(e.kind(), ErrorKind::Invalid);
        assert!(serde_json::from_str::<MoveBody>(r#"{"game":"g","move":"e4","x":1}"#).is_err());
    }

    #[test]
    fn undo_tags_and_fens_refuse_with_the_words_the_page_shows() {
        let mut r = game();
        let undo: UndoBody = body(r#"{"game":"g"}"#);
        let e = undo.apply(&mut r).expect_err("nothing to undo");
        assert_eq!(
            (e.kind(), e.to_string().as_str()),
            (ErrorKind::Conflict, "no move to take back")
        );
        let tags: TagsBody = body(r#"{"game":"g","tags":{"Result":"1-0"}}"#);
        assert_eq!(
            tags.apply(&mut r).expect_err("own tag").to_string(),
            "'Result' is not a tag the page may set (letters, digits and _; not Result, FEN, SetUp, Termination)"
        );
        let long: TagsBody = body(&format!(
            r#"{{"game":"g","tags":{{"White":"{}"}}}}"#,
            "x".repeat(201)
        ));
        assert!(long.apply(&mut r).is_err());
        let ok: TagsBody = body(r#"{"game":"g","tags":{"White":"You","Black":"Kestrel"}}"#);
        ok.apply(&mut r).expect("tags");
        assert!(r.export_pgn().contains(r#"[White "You"]"#));
        let e = parse_fen("8/8 w").expect_err("bad");
        assert!(e.to_string().starts_with("bad FEN: "), "{e}");
        assert_eq!(e.kind(), ErrorKind::Invalid);
    }

    #[test]
    fn an_engine_move_needs_an_end_and_a_hidden_game_hides() {
        let mut r = game();
        let go: GoBody = body(r#"{"game":"g","play":true,"settings":{"infinite":true}}"#);
        assert_eq!(
            go.target(&r).expect_err("no end").to_string(),
            "an engine move needs a time or a depth, not infinite"
        );
        let go: GoBody = body(r#"{"game":"g","settings":{"infinite":true}}"#);
        let (limits, target) = go.target(&r).expect("analysis");
        assert!(limits.infinite && target.node == r.current);
        assert_eq!(go.purpose(), Purpose::Analysis);
        r.reset(Position::startpos(), true, true);
        assert_eq!(
            not_hidden(&r, "the book's statistics")
                .expect_err("hidden")
                .to_string(),
            "the evaluation of this game is hidden until it ends, the book's statistics with it"
        );
        let engine: EngineBody = body(r#"{"game":"g","threads":3}"#);
        assert_eq!(
            engine.check(2, 64).expect_err("too many").to_string(),
            "threads must be from 1 to 2 (this machine's cores), not 3"
        );
    }
}
