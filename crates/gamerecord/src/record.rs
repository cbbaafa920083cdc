//! One tab's game: a tree of moves with variations ([`MoveTree`]), the
//! position on view in it, what the page shows beside it (PGN tags, the
//! time each engine move took), and a version number that grows with every
//! change of the tree, so an engine move found for an older version of the
//! game is not played into a newer one.

use chess::{CastlingMode, Game, Move, Position};
use matchcore::ending::{Ending, Termination};
use pgn::{GameResult, PgnGame, PgnReader};

use crate::error::{Conflict, GameError, Invalid};
use crate::tree::{MoveTree, NodeId, TreeError, ROOT};

/// Where a search looks: the position on view unless told otherwise.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchAt {
    /// The position after this many plies of the main line.
    pub ply: Option<usize>,
    /// This node of the tree.
    pub node: Option<NodeId>,
}

/// A search's place in the game, as [`GameRecord::search_target`] checked it.
#[derive(Debug, Clone)]
pub struct SearchTarget {
    /// The searched node.
    pub node: NodeId,
    /// Its position.
    pub root: Position,
    /// The keys of the positions before it (repetitions).
    pub history: Vec<u64>,
    /// The game's version: a move found is played only into it.
    pub version: u64,
    /// The game's castling notation.
    pub mode: CastlingMode,
    /// The evaluation is hidden: the search reports nothing but its move.
    pub hidden: bool,
}

/// A game as the GUI keeps it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The moves, their variations and annotations.
    pub tree: MoveTree,
    /// The node on view: moves are played from it, analysis searches it.
    pub current: NodeId,
    /// PGN tags other than the result (imported, or the GUI's own).
    pub tags: Vec<(String, String)>,
    /// Changes with every move added, undo, promotion, deletion and new
    /// position (not when only the node on view changes).
    pub version: u64,
    /// An end the players gave the game (resignation, agreed draw, flag).
    pub ending: Option<Ending>,
    /// The result an imported PGN recorded (kept for the export when the
    /// moves themselves do not end the game).
    pub recorded_result: GameResult,
    /// A person plays the engine and asked not to see evaluations until
    /// the game ends: the server then gives out no analysis of it.
    pub hide_eval: bool,
    /// A game against the engine: one line, no variations, until it ends.
    pub linear: bool,
    /// How a played game ended, fixed the moment it ended: a game against
    /// the engine that reached a result by the rules, or any game the
    /// players ended (resignation, agreed draw, flag). From then on the
    /// game is final: its main line and result stand as played, and no
    /// request changes them (a move after its end, a takeback, deleting or
    /// replacing its moves, a variation made the main line); it is studied
    /// in variations (see [`Self::final_end`]).
    pub concluded: Option<Ending>,
    /// Which game this is: a new number for each new position or imported
    /// PGN, so that what was found about one game (the analysis pass) is
    /// never shown for another that shares its first moves.
    pub serial: u64,
}

pub use crate::limits::{MAX_CLOCK_MS, MAX_COMMENT_CHARS, MAX_NAGS};

impl GameRecord {
    /// A new game from `start`, dated today (by the system's clock).
    pub fn new(start: Position) -> GameRecord {
        GameRecord::dated(start, &pgn::today())
    }

    /// A new game from `start`, dated `date` (PGN's `yyyy.mm.dd`): for a
    /// host whose standard library has no clock (WebAssembly in a page),
    /// where [`Self::new`] cannot read the date.
    pub fn dated(start: Position, date: &str) -> GameRecord {
        GameRecord {
            tree: MoveTree::new(start),
            current: ROOT,
            tags: vec![
                ("Event".into(), "Kestrel GUI game".into()),
                ("Site".into(), "localhost".into()),
                ("Date".into(), date.into()),
            ],
            version: 0,
            ending: None,
            recorded_result: GameResult::Unknown,
            hide_eval: false,
            linear: false,
            concluded: None,
            serial: 0,
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.tree.start()
    }

    /// The position on view.
    pub fn position(&self) -> Position {
        self.node_position(self.current)
    }

    fn node_position(&self, id: NodeId) -> Position {
        self.tree.get(id).map_or(self.start(), |n| n.pos)
    }

    /// The moves from the start to the position on view, as a game.
    pub fn current_game(&self) -> Game {
        self.tree
            .game(self.current)
            .unwrap_or_else(|_| Game::new(self.start()))
    }

    /// The main line's moves (the game, as the analysis pass sees it).
    pub fn mainline_moves(&self) -> Vec<Move> {
        self.tree
            .mainline()
            .iter()
            .filter_map(|&id| self.tree.get(id).and_then(|n| n.mv))
            .collect()
    }

    /// Every position of the main line, the start first.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = vec![self.start()];
        out.extend(
            self.tree
                .mainline()
                .iter()
                .map(|&id| self.node_position(id)),
        );
        out
    }

    /// How the game ended, if it did: a played game's end as it happened,
    /// else the players' end, else the rules' at the end of the main line
    /// (result and reason).
    pub fn over(&self) -> Option<Ending> {
        if let Some(end) = &self.concluded {
            return Some(end.clone());
        }
        self.ending.clone().or_else(|| {
            let game = self.tree.game(self.tree.mainline_end()).ok()?;
            game.outcome().map(Ending::Rules)
        })
    }

    /// True while a game against the engine goes on (it stays one line).
    pub fn in_match(&self) -> bool {
        self.linear && self.over().is_none()
    }

    /// Whether the players may end the game, and why not (it is over
    /// already), without ending it: what [`GameRecord::end`] would refuse.
    pub fn may_end(&self) -> Result<(), GameError> {
        match self.over() {
            Some(over) => Err(Conflict::EndAfterEnd(over).into()),
            None => Ok(()),
        }
    }

    /// Ends the game by the players' word; refused when it is over already.
    pub fn end(&mut self, end: Ending) -> Result<(), GameError> {
        self.may_end()?;
        self.ending = Some(end);
        self.conclude();
        self.version += 1;
        Ok(())
    }

    /// Fixes the end of a played game the moment it ends: a game against
    /// the engine, or one the players ended.
    fn conclude(&mut self) {
        if (self.linear || self.ending.is_some()) && self.concluded.is_none() {
            self.concluded = self.over();
        }
    }

    /// The end of a finished played game, whose main line and result are
    /// final (`None` while it goes on, and for a game of study: an
    /// imported PGN, the analysis board's moves).
    pub fn final_end(&self) -> Option<&Ending> {
        self.concluded.as_ref()
    }

    /// Refuses a change of a final game's main line or result: `why`
    /// makes the refusal from the game's end.
    fn unless_final(&self, why: fn(Ending) -> Conflict) -> Result<(), GameError> {
        match self.final_end() {
            Some(end) => Err(why(end.clone()).into()),
            None => Ok(()),
        }
    }

    /// Reads a move in UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `O-O`) in the position on view.
    pub fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        self.parse_move_at(self.current, text)
    }

    /// Reads a move in the position of node `from`.
    pub fn parse_move_at(&self, from: NodeId, text: &str) -> Result<Move, GameError> {
        let pos = self.tree.node(from)?.pos;
        let text = text.trim();
        if text.is_empty() {
            return Err(Invalid::NoMove.into());
        }
        if let Ok(m) = pos.parse_uci_move(text, pos.castling_mode()) {
            return Ok(m);
        }
        pos.parse_san(text).map_err(|why| {
            Invalid::NotAMove {
                text: text.to_string(),
                why,
            }
            .into()
        })
    }

    /// Plays a legal move in the position on view, which then follows it;
    /// `time_ms` is the engine's thinking time.
    pub fn play(&mut self, m: Move, time_ms: Option<u64>) -> Result<NodeId, GameError> {
        let id = self.play_from(self.current, m, time_ms)?;
        self.current = id;
        Ok(id)
    }

    /// Plays `m` from node `from` and returns the node it reaches: the
    /// existing one when `m` was played there already, else a new one
    /// (a variation when `from` had a move after it). The position on
    /// view stays. Refused after the main line's end when the game is
    /// over, and anywhere but there during a game against the engine.
    pub fn play_from(
        &mut self,
        from: NodeId,
        m: Move,
        time_ms: Option<u64>,
    ) -> Result<NodeId, GameError> {
        self.tree.node(from)?;
        self.playable_from(from)?;
        let before = self.tree.ids().count();
        let id = self.tree.add(from, m).map_err(|e| match e {
            TreeError::Illegal => Invalid::IllegalMove.into(),
            e => GameError::from(e),
        })?;
        if self.tree.ids().count() > before {
            self.tree.set_time(id, time_ms)?;
            self.conclude();
            self.version += 1;
        }
        Ok(id)
    }

    /// Plays the engine's move `m` (found in `ms`) from `node` when the
    /// game is still at `version`, the one its search started in; the
    /// move goes on view when `node` was on view. The new node, or none
    /// when the game changed meanwhile or the move cannot be played there.
    pub fn play_found(
        &mut self,
        version: u64,
        node: NodeId,
        m: Move,
        ms: Option<u64>,
    ) -> Option<NodeId> {
        if self.version != version {
            return None;
        }
        let id = self.play_from(node, m, ms).ok()?;
        if self.current == node {
            self.current = id;
        }
        Some(id)
    }

    /// True when a move may be played from node `id` (see [`Self::play_from`]).
    pub fn may_play_from(&self, id: NodeId) -> bool {
        self.playable_from(id).is_ok()
    }

    /// Whether a move may be played from node `from`, and why not.
    pub fn playable_from(&self, from: NodeId) -> Result<(), GameError> {
        if from == self.tree.mainline_end() {
            if let Some(over) = self.over() {
                return Err(Conflict::MoveAfterEnd(over).into());
            }
        } else if self.in_match() {
            return Err(Conflict::OneLine.into());
        }
        Ok(())
    }

    /// Puts node `id` on view.
    pub fn goto(&mut self, id: NodeId) -> Result<(), GameError> {
        self.tree.node(id)?;
        self.current = id;
        Ok(())
    }

    /// Whether moves may be taken back: not in a final game (a takeback
    /// belongs to a game in progress), and only where the line on view
    /// has a move.
    pub fn may_undo(&self) -> Result<(), GameError> {
        self.unless_final(Conflict::TakebackAfterEnd)?;
        if self.line_end(self.current) == ROOT {
            return Err(Conflict::NothingToUndo.into());
        }
        Ok(())
    }

    /// The last node of the line through `id` (first children from it).
    fn line_end(&self, id: NodeId) -> NodeId {
        self.tree.first_children(id).last().unwrap_or(id)
    }

    /// Takes back the last `plies` moves of the line on view (fewer when
    /// it is shorter); the end of what is left goes on view. How many were
    /// taken back; refused as [`Self::may_undo`] says.
    pub fn undo(&mut self, plies: usize) -> Result<usize, GameError> {
        self.may_undo()?;
        let mut end = self.line_end(self.current);
        let mut n = 0;
        while n < plies {
            match self.tree.delete(end) {
                Ok(parent) => end = parent,
                Err(_) => break,
            }
            n += 1;
        }
        if n > 0 {
            self.current = end;
            self.version += 1;
        }
        Ok(n)
    }

    /// Moves the variation holding node `id` up one place, or with
    /// `to_main` makes it the main line.
    pub fn promote(&mut self, id: NodeId, to_main: bool) -> Result<(), GameError> {
        if self.in_match() {
            return Err(Conflict::PromoteInMatch.into());
        }
        if self.tree.promotion_changes_mainline(id, to_main)? {
            self.unless_final(Conflict::PromoteAfterEnd)?;
        }
        self.tree.promote(id, to_main)?;
        self.version += 1;
        Ok(())
    }

    /// Sets the comment after node `id`'s move (an empty one removes it)
    /// and/or its NAGs (`1` = `!` ... `6` = `?!`, position judgements from
    /// `10`). Refused while a game against the engine goes on, and for a
    /// comment PGN cannot hold or NAGs that are not numbers 1 to 255 with
    /// at most one move judgement.
    pub fn annotate(
        &mut self,
        id: NodeId,
        comment: Option<&str>,
        nags: Option<&[u8]>,
    ) -> Result<(), GameError> {
        if self.in_match() {
            return Err(Conflict::AnnotateInMatch.into());
        }
        let comment = comment.map(str::trim);
        if let Some(text) = comment {
            if text.chars().count() > MAX_COMMENT_CHARS {
                return Err(Invalid::CommentTooLong.into());
            }
            if text.contains('}') {
                // PGN ends a comment at the first '}'.
                return Err(Invalid::CommentBrace.into());
            }
        }
        if let Some(nags) = nags {
            if nags.contains(&0) || nags.len() > MAX_NAGS {
                return Err(Invalid::BadNags.into());
            }
            if nags.iter().filter(|&&n| (1..=6).contains(&n)).count() > 1 {
                return Err(Invalid::TwoJudgements.into());
            }
        }
        self.tree.annotate(id, comment, nags)?;
        self.version += 1;
        Ok(())
    }

    /// Whether node `id` may be deleted, and why not (no such node, the
    /// start, a move of a final game's main line): what [`Self::delete`]
    /// would refuse.
    pub fn may_delete(&self, id: NodeId) -> Result<(), GameError> {
        self.tree.node(id)?.parent.ok_or(TreeError::Root)?;
        if self.tree.is_mainline(id) {
            self.unless_final(Conflict::DeleteAfterEnd)?;
        }
        Ok(())
    }

    /// Whether the game may be replaced by another (a new position, an
    /// imported PGN) under its id: not a final game, which stays as played.
    pub fn may_replace(&self) -> Result<(), GameError> {
        self.unless_final(Conflict::ReplaceAfterEnd)
    }

    /// The game without its moves (the start kept, and everything else):
    /// what a request that replaces the moves starts from, without a copy
    /// of the tree it replaces.
    pub fn without_moves(&self) -> GameRecord {
        GameRecord {
            tree: MoveTree::new(self.start()),
            current: ROOT,
            tags: self.tags.clone(),
            version: self.version,
            ending: self.ending.clone(),
            recorded_result: self.recorded_result,
            hide_eval: self.hide_eval,
            linear: self.linear,
            concluded: self.concluded.clone(),
            serial: self.serial,
        }
    }

    /// Deletes node `id` and every move after it; its parent goes on view
    /// when the node on view was deleted.
    pub fn delete(&mut self, id: NodeId) -> Result<(), GameError> {
        self.may_delete(id)?;
        let deletes_current = self.tree.is_at_or_before(id, self.current);
        let parent = self.tree.delete(id)?;
        if deletes_current {
            self.current = parent;
        }
        self.version += 1;
        Ok(())
    }

    /// Starts again from `start`, keeping the tags; `hide_eval`: a game
    /// against the engine whose evaluation stays hidden until it ends;
    /// `linear`: a game against the engine (no variations until it ends).
    pub fn reset(&mut self, start: Position, hide_eval: bool, linear: bool) {
        self.tree = MoveTree::new(start);
        self.current = ROOT;
        self.ending = None;
        self.concluded = None;
        self.serial += 1;
        self.recorded_result = GameResult::Unknown;
        self.hide_eval = hide_eval;
        self.linear = linear;
        self.version += 1;
    }

    /// Where a search asked for at `at` looks, checked: the node (the
    /// position on view unless told; for an engine move in a game against
    /// the engine, the game's end wherever the person looks), its
    /// position and history, and what the search may give out. With
    /// `play`, refused where a person's move would be (after the game's
    /// end, off the line of a game against the engine).
    pub fn search_target(&self, at: SearchAt, play: bool) -> Result<SearchTarget, GameError> {
        // A hidden evaluation is not given out: no analysis, and an engine
        // player's search reports nothing but its move.
        let hidden = self.eval_hidden();
        if hidden && !play {
            return Err(Conflict::EvalHidden.into());
        }
        let node = match (at.ply, at.node) {
            (Some(_), Some(_)) => return Err(Invalid::PlyAndNode.into()),
            (Some(0), None) => ROOT,
            (Some(ply), None) => {
                let mainline = self.tree.mainline();
                *mainline.get(ply - 1).ok_or(Invalid::PlyPastEnd {
                    ply,
                    plies: mainline.len(),
                })?
            }
            (None, Some(node)) => {
                self.tree.node(node)?;
                node
            }
            (None, None) if play && self.in_match() => self.tree.mainline_end(),
            (None, None) => self.current,
        };
        if play && !self.may_play_from(node) {
            return Err(Conflict::NoEngineMove(self.over()).into());
        }
        let (root, history) = self.root_and_history(node)?;
        let at_end = node == self.tree.mainline_end();
        if root.legal_moves().is_empty() || at_end && self.over().is_some() {
            return Err(Conflict::SearchAfterEnd(self.over().filter(|_| at_end)).into());
        }
        Ok(SearchTarget {
            node,
            root,
            history,
            version: self.version,
            mode: self.mode(),
            hidden,
        })
    }

    /// The position of node `node` and the keys of the positions before it
    /// in its game (the engine's repetition history).
    pub fn root_and_history(&self, node: NodeId) -> Result<(Position, Vec<u64>), GameError> {
        let game = self.tree.game(node)?;
        let mut keys: Vec<u64> = vec![game.start().key()];
        let mut pos = *game.start();
        for &m in game.moves() {
            pos.play_unchecked(m);
            keys.push(pos.key());
        }
        keys.pop();
        Ok((*game.position(), keys))
    }

    /// True while the evaluation of this game may not be given out: it
    /// is hidden and the game goes on.
    pub fn eval_hidden(&self) -> bool {
        self.hide_eval && self.over().is_none()
    }

    /// The bytes the game holds beyond its own size: the tree and the
    /// tags (see [`MoveTree::heap_bytes`]).
    pub fn heap_bytes(&self) -> usize {
        use crate::heap::block;
        let tags: usize = self
            .tags
            .iter()
            .map(|(n, v)| block(n.capacity()) + block(v.capacity()))
            .sum();
        self.tree.heap_bytes()
            + tags
            + block(self.tags.capacity() * std::mem::size_of::<(String, String)>())
    }

    /// The castling notation of this game (Chess960 starts use king-takes-rook).
    pub fn mode(&self) -> CastlingMode {
        self.start().castling_mode()
    }

    /// Replaces the game with the first game of a PGN text: its moves,
    /// variations, NAGs, comments, tags and result.
    pub fn import_pgn(&mut self, text: &str) -> Result<(), GameError> {
        let first = PgnReader::new(text.as_bytes())
            .next()
            .ok_or(Invalid::NoPgnGame)?;
        let imported = first.map_err(Invalid::BadPgn)?;
        self.tree = MoveTree::from_pgn(&imported)?;
        self.current = self.tree.mainline_end();
        self.ending = None;
        self.concluded = None;
        self.serial += 1;
        self.recorded_result = imported.result;
        // An imported game is for study: nothing is hidden, variations welcome.
        self.hide_eval = false;
        self.linear = false;
        self.tags = imported
            .tags
            .into_iter()
            .filter(|(name, _)| name != "Result" && name != "FEN" && name != "SetUp")
            .collect();
        self.version += 1;
        Ok(())
    }

    /// Makes an imported game a game against the engine again (restored
    /// from the PGN a page kept after its host lost it): one that goes on
    /// continues as one line, the evaluation hidden when `hide_eval`; one
    /// that had ended comes back ended and final, its end read from the
    /// moves, or from the result and `Termination` tag the PGN recorded
    /// (see [`Self::recorded_end`]). Refused for a game that goes on with
    /// variations (a game against the engine has none until it ends).
    pub fn resume_against_engine(&mut self, hide_eval: bool) -> Result<(), GameError> {
        if let Some(end) = self.recorded_end() {
            if !matches!(end, Ending::Rules(_)) {
                self.ending = Some(end.clone());
            }
            self.concluded = Some(end);
            self.linear = true;
            self.hide_eval = false;
            self.version += 1;
            return Ok(());
        }
        if self.tree.ids().count() != self.tree.mainline().len() + 1 {
            return Err(Invalid::ResumeVariations.into());
        }
        self.linear = true;
        self.hide_eval = hide_eval;
        self.version += 1;
        Ok(())
    }

    /// How an imported game ended: by the rules at the end of its main
    /// line, else as its recorded result says, a loss on time when its
    /// `Termination` tag says "time forfeit" (as Kestrel and lichess write
    /// it), a resignation or an agreed draw otherwise; `None` for `*`.
    pub fn recorded_end(&self) -> Option<Ending> {
        if let Some(outcome) = self
            .tree
            .game(self.tree.mainline_end())
            .ok()
            .and_then(|g| g.outcome())
        {
            return Some(Ending::Rules(outcome));
        }
        let termination = self
            .tags
            .iter()
            .find(|(name, _)| name == "Termination")
            .map(|(_, value)| value.to_ascii_lowercase());
        let on_time = Termination::from_tag(termination.as_deref()) == Termination::TimeForfeit;
        let loser = match self.recorded_result {
            GameResult::Unknown => return None,
            GameResult::Draw => return Some(Ending::DrawAgreed),
            GameResult::WhiteWins => chess::Color::Black,
            GameResult::BlackWins => chess::Color::White,
        };
        Some(if on_time {
            Ending::TimeForfeit { loser, over: None }
        } else {
            Ending::Resigned { loser }
        })
    }

    /// Records the mover's clock after node `id`'s move in a game against
    /// the engine, as the page's clocks have it (for the move list and
    /// PGN's `[%clk]`). Only for a move of the game played (its main
    /// line), once per move, up to [`MAX_CLOCK_MS`]; allowed after the end,
    /// which the last move's clock reaches after the move that ended it.
    /// Not a change of the game: the version stays, so that an engine
    /// move searched meanwhile still lands.
    pub fn set_clock(&mut self, id: NodeId, ms: u64) -> Result<(), GameError> {
        if ms > MAX_CLOCK_MS {
            return Err(Invalid::ClockTooLong(ms).into());
        }
        if id == ROOT {
            return Err(TreeError::Root.into());
        }
        let node = self.tree.node(id)?;
        if !self.linear {
            return Err(Conflict::NotOnClock.into());
        }
        if !self.tree.is_mainline(id) {
            return Err(Conflict::ClockOffMainLine.into());
        }
        if node.clock_ms.is_some() {
            return Err(Conflict::ClockRecorded.into());
        }
        self.tree.set_clock(id, Some(ms))?;
        Ok(())
    }

    /// The game as PGN, with its variations, NAGs and comments, the result
    /// (the game's end, else the one recorded in an imported PGN), the
    /// mover's clock after each move of a game on a clock (`[%clk 0:02:58]`,
    /// as lichess writes it) and the engine's thinking time after each
    /// engine move.
    pub fn export_pgn(&self) -> String {
        self.pgn_text(true)
    }

    /// The game as PGN, the engine's thinking times written after its
    /// moves when `times` (a copy kept to be read back keeps them apart:
    /// [`crate::saved`]).
    pub(crate) fn pgn_text(&self, times: bool) -> String {
        let mut out = PgnGame::new(self.start());
        for (name, value) in &self.tags {
            out.set_tag(name, value);
        }
        out.moves = self.tree.to_pgn_moves(&|node| {
            node.time_ms
                .filter(|_| times)
                .map(|ms| format!("{:.2}s", ms as f64 / 1000.0))
        });
        out.result = self.over().map_or(self.recorded_result, |o| o.result());
        out.set_tag("Result", out.result.as_str());
        if let Some(termination) = self.ending.as_ref().and_then(|e| e.termination().tag()) {
            out.set_tag("Termination", termination);
        }
        if self.start().fen() != chess::fen::STARTPOS {
            out.set_tag("SetUp", "1");
            out.set_tag("FEN", &self.start().fen());
        }
        pgn::write_game(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game against the engine after `sans`, resigned by White.
    fn resigned_after(sans: &[&str]) -> GameRecord {
        let mut r = GameRecord::new(Position::startpos());
        r.reset(Position::startpos(), false, true);
        for san in sans {
            let m = r.parse_move(san).expect("legal");
            r.play(m, None).expect("plays");
        }
        r.end(Ending::Resigned {
            loser: chess::Color::White,
        })
        .expect("ends");
        r
    }

    /// The main line's SAN-free fingerprint and the result: what a
    /// finished game keeps whatever is asked of it.
    fn record_of(r: &GameRecord) -> (Vec<Move>, String, bool) {
        let over = r.over().map_or(String::new(), |o| o.to_string());
        (r.mainline_moves(), over, r.final_end().is_some())
    }

    #[test]
    fn a_finished_game_is_final_and_studied_in_variations() {
        use crate::error::ErrorKind;
        let mut r = resigned_after(&["e4", "e5", "Nf3"]);
        let kept = record_of(&r);
        assert!(kept.2, "final once resigned");
        let conflict = |e: GameError| {
            assert_eq!(e.kind(), ErrorKind::Conflict, "{e}");
            e.to_string()
        };
        // No takeback, however the line on view lies.
        let words = conflict(r.undo(1).expect_err("no takeback"));
        assert!(
            words.starts_with("the game is over (0-1, White resigns)"),
            "{words}"
        );
        // No move after its end, nor replacing or deleting its moves.
        let end = r.tree.mainline_end();
        let nc6 = r.parse_move_at(end, "Nc6").expect("legal there");
        conflict(r.play_from(end, nc6, None).expect_err("after the end"));
        let e5 = r.tree.mainline()[1];
        conflict(r.delete(e5).expect_err("a move of the game"));
        conflict(r.may_replace().expect_err("kept as played"));
        // A variation is welcome, may be deleted and moved among
        // variations, never made the main line.
        let d4 = r.parse_move_at(ROOT, "d4").expect("legal");
        let side = r.play_from(ROOT, d4, None).expect("a variation");
        let c4 = r.parse_move_at(ROOT, "c4").expect("legal");
        let third = r.play_from(ROOT, c4, None).expect("another");
        conflict(r.promote(side, true).expect_err("not the main line"));
        conflict(r.promote(side, false).expect_err("not first either"));
        r.promote(third, false).expect("up among the variations");
        r.current = side;
        conflict(r.undo(1).expect_err("no takeback in a variation either"));
        r.delete(side).expect("a variation goes");
        r.annotate(e5, Some("a study"), Some(&[1]))
            .expect("annotated");
        assert_eq!(record_of(&r), kept, "the record stands");
        assert!(!r.in_match(), "the game does not go on");
        r.current = r.tree.mainline_end();
        assert!(
            r.search_target(SearchAt::default(), true).is_err(),
            "no engine move after its end"
        );
    }

    #[test]
    fn a_mate_against_the_engine_is_final_whatever_is_played_after() {
        // The steps: step back, a side line, its end, Undo.
        let mut r = GameRecord::new(Position::startpos());
        r.reset(Position::startpos(), false, true);
        for san in ["f3", "e5", "g4", "Qh4#"] {
            let m = r.parse_move(san).expect("legal");
            r.play(m, None).expect("plays");
        }
        let kept = record_of(&r);
        assert_eq!(kept.1, "Black mates");
        let g4 = r.tree.mainline()[2];
        let qe7 = r.parse_move_at(g4, "Qe7").expect("legal");
        let side = r.play_from(g4, qe7, None).expect("a side line");
        r.current = side;
        assert!(r.undo(1).is_err(), "the side line's end: still no takeback");
        r.current = r.tree.mainline_end();
        assert!(r.undo(1).is_err());
        assert!(r.delete(r.tree.mainline_end()).is_err());
        assert!(r.promote(side, true).is_err());
        assert_eq!(record_of(&r), kept);
        assert_eq!(r.tree.node(g4).expect("live").children.len(), 2);
    }

    #[test]
    fn a_study_is_not_final_and_is_edited_freely() {
        let mut r = GameRecord::new(Position::startpos());
        r.import_pgn("1. f3 e5 2. g4 Qh4# 0-1").expect("reads");
        assert!(r.over().is_some() && r.final_end().is_none());
        assert_eq!(r.undo(1).expect("an edit"), 1);
        r.may_replace().expect("replaced at will");
        let d4 = r.parse_move_at(ROOT, "d4").expect("legal");
        let side = r.play_from(ROOT, d4, None).expect("a variation");
        r.promote(side, true).expect("the main line");
        assert_eq!(r.mainline_moves().len(), 1);
    }

    #[test]
    fn annotations_are_checked_written_and_exported() {
        let mut r = GameRecord::new(Position::startpos());
        r.import_pgn("1. e4 e5 2. Nf3 *").expect("reads");
        let e5 = r.tree.mainline()[1];
        let v = r.version;
        r.annotate(e5, Some("  The classical reply. "), Some(&[1, 14]))
            .expect("fine");
        assert!(r.version > v);
        let out = r.export_pgn();
        assert!(out.contains("e5 $1 $14 {The classical reply.}"), "{out}");
        r.annotate(e5, None, Some(&[]))
            .expect("NAGs removed, comment kept");
        r.annotate(e5, Some(""), None).expect("comment removed");
        assert!(r.export_pgn().contains("1. e4 e5 2. Nf3 *"));
        assert!(r.annotate(e5, Some("a } b"), None).is_err());
        assert!(r.annotate(e5, Some(&"x".repeat(2001)), None).is_err());
        assert!(
            r.annotate(e5, None, Some(&[1, 2])).is_err(),
            "two judgements"
        );
        assert!(r.annotate(e5, None, Some(&[0])).is_err());
        assert!(r.annotate(crate::tree::ROOT, Some("start"), None).is_err());
        assert!(r.annotate(999, Some("gone"), None).is_err());

        let mut game = GameRecord::new(Position::startpos());
        game.reset(Position::startpos(), false, true);
        let e4 = game.parse_move("e4").expect("san");
        game.play(e4, None).expect("legal");
        let id = game.tree.mainline()[0];
        assert!(
            game.annotate(id, Some("mine"), None).is_err(),
            "during the game"
        );
    }

    #[test]
    fn a_kept_game_goes_on_against_the_engine_or_comes_back_final() {
        let mut r = GameRecord::new(Position::startpos());
        r.import_pgn("1. e4 {0.50s} e5 2. Nf3 *").expect("reads");
        r.resume_against_engine(true).expect("one line, not over");
        assert!(r.in_match() && r.eval_hidden());

        // A finished game's kept PGN, as the export wrote it: final again.
        let played = resigned_after(&["e4", "e5"]);
        let mut back = GameRecord::new(Position::startpos());
        back.import_pgn(&played.export_pgn()).expect("reads");
        back.resume_against_engine(true).expect("ended, final");
        assert_eq!(record_of(&back), record_of(&played));
        assert!(!back.in_match() && !back.eval_hidden());
        assert!(back.undo(1).is_err());
        for (text, words) in [
            ("1. f3 e5 2. g4 Qh4# 0-1", "Black mates"),
            (
                "[Termination \"Time forfeit\"]\n\n1. e4 e5 1-0",
                "Black lost on time",
            ),
            ("1. e4 (1. d4) e5 1/2-1/2", "Draw agreed"),
        ] {
            let mut over = GameRecord::new(Position::startpos());
            over.import_pgn(text).expect("reads");
            over.resume_against_engine(false).expect("final");
            assert_eq!(
                over.final_end().map(ToString::to_string),
                Some(words.into())
            );
        }

        let mut branched = GameRecord::new(Position::startpos());
        branched.import_pgn("1. e4 (1. d4 d5) e5 *").expect("reads");
        assert!(branched.resume_against_engine(false).is_err());
        assert!(!branched.in_match());
    }

    #[test]
    fn moves_are_read_in_uci_and_san_and_illegal_ones_refused() {
        let mut r = GameRecord::new(Position::startpos());
        let e4 = r.parse_move("e2e4").expect("uci");
        r.play(e4, None).expect("legal");
        let e5 = r.parse_move("e5").expect("san");
        r.play(e5, Some(1200)).expect("legal");
        assert!(r.parse_move("Ke3").is_err());
        assert!(r.parse_move("e2e4").is_err());
        assert_eq!(r.mainline_moves().len(), 2);
        assert_eq!(r.version, 2);
        assert_eq!(r.undo(5).expect("moves"), 2);
        assert_eq!(r.mainline_moves().len(), 0);
    }

    #[test]
    fn pgn_round_trips_with_tags_times_and_set_up_positions() {
        let mut r = GameRecord::new(Position::startpos());
        let text = "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        r.import_pgn(text).expect("reads");
        assert_eq!(r.mainline_moves().len(), 4);
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
        assert_eq!(back.position().fen(), r.position().fen());
    }

    #[test]
    fn a_game_on_a_clock_keeps_each_moves_clock_checked_and_exported() {
        use crate::error::ErrorKind;
        let status = |r: Result<(), GameError>| r.map_err(|e| e.kind()).err();
        let mut r = GameRecord::new(Position::startpos());
        r.reset(Position::startpos(), false, true);
        let m = r.parse_move("e4").expect("legal");
        let e4 = r.play(m, None).expect("plays");
        let m = r.parse_move("e5").expect("legal");
        let e5 = r.play(m, Some(1500)).expect("plays");
        let version = r.version;
        r.set_clock(e4, 180_000).expect("White's clock after 1. e4");
        r.set_clock(e5, 178_600).expect("Black's after 1... e5");
        assert_eq!(r.version, version, "not a change of the game");
        // The mover's clock first, then the engine's time, in one comment.
        let out = r.export_pgn();
        assert!(
            out.contains("1. e4 {[%clk 0:03:00]} 1... e5 {[%clk 0:02:59] 1.50s} *"),
            "{out}"
        );
        assert_eq!(
            status(r.set_clock(e4, 170_000)),
            Some(ErrorKind::Conflict),
            "once"
        );
        assert_eq!(status(r.set_clock(ROOT, 1000)), Some(ErrorKind::Invalid));
        assert_eq!(status(r.set_clock(99, 1000)), Some(ErrorKind::Missing));
        let m = r.parse_move("Nf3").expect("legal");
        let nf3 = r.play(m, None).expect("plays");
        assert_eq!(
            status(r.set_clock(nf3, MAX_CLOCK_MS + 1)),
            Some(ErrorKind::Invalid),
            "more than a day"
        );
        // The move that ends the game gets its clock after the end.
        r.end(Ending::Resigned {
            loser: chess::Color::Black,
        })
        .expect("ends");
        r.set_clock(nf3, MAX_CLOCK_MS)
            .expect("the last move's clock");
        let d4 = r.parse_move_at(ROOT, "d4").expect("legal");
        let d4 = r
            .play_from(ROOT, d4, None)
            .expect("a variation after the end");
        assert_eq!(
            status(r.set_clock(d4, 1000)),
            Some(ErrorKind::Conflict),
            "a variation was not played on the clock"
        );
        // Read back: each clock on its move again, the engine's time a comment.
        let mut back = GameRecord::new(Position::startpos());
        back.import_pgn(&r.export_pgn())
            .expect("reads its own output");
        let clocks: Vec<_> = back
            .tree
            .mainline()
            .iter()
            .map(|&id| back.tree.node(id).expect("live").clock_ms)
            .collect();
        assert_eq!(clocks, [Some(180_000), Some(179_000), Some(MAX_CLOCK_MS)]);
        let e5 = back.tree.node(back.tree.mainline()[1]).expect("live");
        assert_eq!(e5.comments, ["1.50s"]);
        assert_eq!(back.export_pgn().matches("[%clk").count(), 3);
        // An imported game is not played on a clock.
        let first = back.tree.mainline()[0];
        assert_eq!(
            status(back.set_clock(first, 1000)),
            Some(ErrorKind::Conflict)
        );
    }

    #[test]
    fn the_players_end_a_game_for_good() {
        let mut r = GameRecord::new(Position::startpos());
        let m = r.parse_move("e4").expect("move");
        r.play(m, None).expect("legal");
        r.tags.push(("White".into(), "Human".into()));
        r.tags.push(("Black".into(), "Kestrel (Elo 1500)".into()));
        r.end(Ending::Resigned {
            loser: chess::Color::Black,
        })
        .expect("ends");
        assert!(r
            .end(Ending::Resigned {
                loser: chess::Color::White
            })
            .is_err());
        let e5 = r.parse_move("e5").expect("move");
        assert!(r.play(e5, None).is_err(), "no move after the end");
        let out = r.export_pgn();
        assert!(
            out.contains("[Black \"Kestrel (Elo 1500)\"]") && out.contains("1. e4 1-0"),
            "{out}"
        );
        assert!(r.undo(1).is_err(), "a resignation stands");
        assert!(r.final_end().is_some());
    }

    #[test]
    fn broken_pgn_leaves_the_game_as_it_was() {
        let mut r = GameRecord::new(Position::startpos());
        let m = r.parse_move("d4").expect("move");
        r.play(m, None).expect("legal");
        assert!(r.import_pgn("1. e4 Ke7 Kxe9 *").is_err());
        assert!(r.import_pgn("").is_err());
        assert_eq!(r.mainline_moves().len(), 1);
    }

    #[test]
    fn a_new_game_is_dated_today() {
        let out = GameRecord::new(Position::startpos()).export_pgn();
        assert!(
            out.contains(&format!("[Date \"{}\"]", pgn::today())),
            "{out}"
        );
    }

    #[test]
    fn variations_comments_nags_tags_and_result_survive_import_and_export() {
        let text = "[Event \"Lesson\"]\n[Site \"Here\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
                    1. e4 {king's pawn} e5 (1... c5 $1 {Sicilian} 2. Nf3 (2. c3 d5) d6) 2. Nf3 $2 1-0\n";
        let mut r = GameRecord::new(Position::startpos());
        r.import_pgn(text).expect("reads");
        assert_eq!(r.mainline_moves().len(), 3);
        assert!(
            r.over().is_none(),
            "a recorded result does not end the moves"
        );
        let out = r.export_pgn();
        // The writer wraps lines: compare with single spaces.
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        for part in [
            "[Event \"Lesson\"]",
            "[Site \"Here\"]",
            "[White \"Ann\"]",
            "[Result \"1-0\"]",
            "1. e4 {king's pawn} 1... e5 (1... c5 $1 {Sicilian} 2. Nf3 (2. c3 d5) 2... d6) 2. Nf3 $2 1-0",
        ] {
            assert!(flat.contains(part), "{part} in {out}");
        }
        let mut back = GameRecord::new(Position::startpos());
        back.import_pgn(&out).expect("reads its own output");
        assert_eq!(back.tree, r.tree);
    }

    #[test]
    fn annotated_games_round_trip_through_the_tree() {
        for file in [
            "immortal-games-annotated.pgn",
            "variations-nags-and-comments.pgn",
        ] {
            let path = format!("{}/../pgn/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
            let bytes = std::fs::read(&path).expect("test data");
            let mut games = 0;
            for game in PgnReader::new(bytes.as_slice()) {
                // The file keeps some broken games as they were found: the reader's business.
                let Ok(game) = game else { continue };
                let mut r = GameRecord::new(Position::startpos());
                r.import_pgn(&pgn::write_game(&game)).expect("reads");
                let mut back = GameRecord::new(Position::startpos());
                back.import_pgn(&r.export_pgn())
                    .expect("reads its own output");
                assert_eq!(back.tree, r.tree, "{file} game {games}");
                assert_eq!(back.tags, r.tags);
                games += 1;
            }
            assert!(games > 0, "{file}");
        }
    }

    #[test]
    fn a_game_against_the_engine_stays_one_line_until_it_ends() {
        let mut r = GameRecord::new(Position::startpos());
        r.reset(Position::startpos(), false, true);
        for text in ["e4", "e5", "Nf3"] {
            let m = r.parse_move(text).expect("legal");
            r.play(m, None).expect("plays");
        }
        let e4 = r.tree.mainline()[0];
        r.goto(e4).expect("goes back");
        let c5 = r.parse_move("c5").expect("legal");
        assert!(r.play(c5, None).is_err(), "no variation during the game");
        assert!(r.promote(e4, true).is_err());
        assert_eq!(r.undo(2).expect("in play"), 2, "a takeback undoes moves");
        assert_eq!(r.mainline_moves().len(), 1);
        assert_eq!(r.current, e4);
        r.end(Ending::Resigned {
            loser: chess::Color::White,
        })
        .expect("ends");
        assert!(r.play(c5, None).is_err(), "no move after the end");
        // Once it is over, the game is for study: variations are welcome.
        let d4 = r.parse_move_at(ROOT, "d4").expect("legal");
        r.play_from(ROOT, d4, None)
            .expect("a variation after the end");
        assert_eq!(r.tree.node(ROOT).expect("start").children.len(), 2);
    }
}
