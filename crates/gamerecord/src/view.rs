//! The JSON the page reads: a game's positions, its tree of moves with
//! variations, NAGs and comments, moves in SAN and UCI, the legal moves of
//! the position on view, check and the result; and engine
//! lines turned into SAN with the position after each move (so the page can
//! step through a principal variation without rules of its own).

use chess::{CastlingMode, Color, Move, Position};
use engine::Score;
use serde::{Deserialize, Serialize};

use crate::record::GameRecord;
use crate::tree::NodeId;

/// A move with its notations and squares.
#[derive(Serialize, Debug, Clone)]
pub struct MoveView {
    /// UCI notation (`e2e4`; castling as the king's two-square move in standard chess).
    pub uci: String,
    /// SAN with check suffix.
    pub san: String,
    /// The square the piece leaves.
    pub from: String,
    /// The square the piece goes to (for castling, the king's destination).
    pub to: String,
    /// Promotion piece letter (`q`, `r`, `b`, `n`).
    pub promotion: Option<char>,
}

impl MoveView {
    /// The views of `m` played in `pos`.
    pub fn new(pos: &Position, m: Move, mode: CastlingMode) -> MoveView {
        let uci = m.to_uci(mode).to_string();
        MoveView {
            from: uci[0..2].to_string(),
            to: uci[2..4].to_string(),
            promotion: m.promotion_role().map(chess::Role::char),
            san: pos.san(m),
            uci,
        }
    }
}

/// One ply of the game's main line.
#[derive(Serialize, Debug)]
pub struct PlyView {
    /// Its node in the tree.
    pub node: NodeId,
    /// The move.
    #[serde(flatten)]
    pub mv: MoveView,
    /// The FEN after it.
    pub fen: String,
    /// True when it gives check.
    pub check: bool,
    /// True when it captures.
    pub capture: bool,
    /// The engine's thinking time, milliseconds (engine moves only).
    pub time_ms: Option<u64>,
    /// The mover's clock after the move, milliseconds (a game on a clock).
    pub clock_ms: Option<u64>,
}

/// Whether and how the game ended.
#[derive(Serialize, Debug)]
pub struct StatusView {
    /// True when the game is over.
    pub over: bool,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (an imported game's recorded result
    /// shows even where its moves do not end it).
    pub result: &'static str,
    /// Why it ended (`White mates`, `Draw by stalemate`...), empty while it goes on.
    pub reason: String,
    /// The game is final: a played game that ended, whose main line and
    /// result no request changes ([`GameRecord::final_end`]).
    #[serde(rename = "final")]
    pub is_final: bool,
    /// The side to move in the game (at the end of its main line), `w` or
    /// `b`, whatever position is on view.
    pub to_move: char,
}

/// One position of the tree and the move that reached it.
#[derive(Serialize, Debug)]
pub struct NodeView {
    /// The id that names it in the API.
    pub id: NodeId,
    /// The node before it (none for the start).
    pub parent: Option<NodeId>,
    /// The moves after it: the first continues the line, the others are variations.
    pub children: Vec<NodeId>,
    /// Plies from the start.
    pub ply: usize,
    /// True on the main line.
    pub main: bool,
    /// The move that reached it (absent for the start).
    #[serde(flatten)]
    pub mv: Option<MoveView>,
    /// The FEN after the move.
    pub fen: String,
    /// True when the move gives check.
    pub check: bool,
    /// Numeric annotation glyphs (`1` is `!`, `2` is `?`, ...).
    pub nags: Vec<u8>,
    /// Comments before the move.
    pub comments_before: Vec<String>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// The engine's thinking time, milliseconds (engine moves only).
    pub time_ms: Option<u64>,
    /// The mover's clock after the move, milliseconds (a game on a clock).
    pub clock_ms: Option<u64>,
}

/// A whole game as the page draws it: [`GameView`], its lists made, or
/// [`GameJson`], its lists made one item at a time as they are written
/// (the server's answers, whose memory must not be the game's many
/// times over). Both write the same JSON: the fields are this struct's.
#[derive(Serialize, Debug)]
pub struct GameViewOf<Plies, Nodes> {
    /// The game's id.
    pub id: String,
    /// Grows with every change.
    pub version: u64,
    /// The start position.
    pub start_fen: String,
    /// The current position.
    pub fen: String,
    /// `w` or `b`.
    pub turn: char,
    /// True when the side to move is in check.
    pub check: bool,
    /// The main line's moves ([`PlyView`]s).
    pub plies: Plies,
    /// Every node of the tree ([`NodeView`]s), parents before children;
    /// the start is node 0.
    pub nodes: Nodes,
    /// The node on view (`fen`, `turn`, `check` and `legal` are its).
    pub current: NodeId,
    /// True during a game against the engine: one line, no variations.
    pub linear: bool,
    /// True while the evaluation is hidden (a game against the engine that
    /// goes on): the server gives out no analysis of it.
    pub eval_hidden: bool,
    /// The legal moves in the position on view.
    pub legal: Vec<MoveView>,
    /// The result (of the main line).
    pub status: StatusView,
}

/// A whole game as the page draws it, every list made.
pub type GameView = GameViewOf<Vec<PlyView>, Vec<NodeView>>;

/// A whole game as the page draws it, borrowing the game: its main line
/// and its nodes are made one at a time while the JSON is written, so that
/// writing it takes the JSON's bytes and little more.
pub type GameJson<'a> = GameViewOf<PlyList<'a>, NodeList<'a>>;

/// The main line's [`PlyView`]s of a game, made as they are written.
pub struct PlyList<'a>(&'a GameRecord);

/// Every [`NodeView`] of a game's tree, made as they are written.
pub struct NodeList<'a>(&'a GameRecord);

impl Serialize for PlyList<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(ply_views(self.0))
    }
}

impl Serialize for NodeList<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(node_views(self.0))
    }
}

impl std::fmt::Debug for PlyList<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PlyList({} plies)", self.0.tree.mainline().len())
    }
}

impl std::fmt::Debug for NodeList<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NodeList({} nodes)", self.0.tree.ids().count())
    }
}

/// Every node of `record`'s tree as the page reads it, parents first.
fn node_views(record: &GameRecord) -> impl Iterator<Item = NodeView> + '_ {
    let mode = record.mode();
    let tree = &record.tree;
    let slots = tree.ids().last().map_or(1, |i| i + 1);
    let mut depth = vec![0usize; slots];
    // Whether each node is on the main line, from its parent's (a parent
    // is made before its children): one pass, where asking `is_mainline`
    // of every node walked to the root from each, which made a long
    // game's view quadratic in its length.
    let mut main = vec![false; slots];
    tree.ids().filter_map(move |i| {
        let n = tree.get(i)?;
        let parent = n.parent.and_then(|p| tree.get(p));
        if let Some(p) = n.parent {
            depth[i] = depth[p] + 1;
        }
        main[i] = match (n.parent, parent) {
            (Some(p), Some(pn)) => main[p] && pn.children.first() == Some(&i),
            _ => true,
        };
        let mv = match (n.mv, parent) {
            (Some(m), Some(p)) => Some(MoveView::new(&p.pos, m, mode)),
            _ => None,
        };
        Some(NodeView {
            id: i,
            parent: n.parent,
            children: n.children.clone(),
            ply: depth[i],
            main: main[i],
            mv,
            fen: n.pos.fen(),
            check: n.pos.in_check(),
            nags: n.nags.clone(),
            comments_before: n.comments_before.clone(),
            comments: n.comments.clone(),
            time_ms: n.time_ms,
            clock_ms: n.clock_ms,
        })
    })
}

/// The main line of `record` as the page reads it.
fn ply_views(record: &GameRecord) -> impl Iterator<Item = PlyView> + '_ {
    let mode = record.mode();
    let tree = &record.tree;
    let mut before = record.start();
    let mut line = tree.first_children(crate::tree::ROOT);
    std::iter::from_fn(move || {
        let i = line.next()?;
        let n = tree.get(i)?;
        let m = n.mv?;
        let ply = PlyView {
            node: i,
            mv: MoveView::new(&before, m, mode),
            fen: n.pos.fen(),
            check: n.pos.in_check(),
            capture: n.pos.piece_count() < before.piece_count(),
            time_ms: n.time_ms,
            clock_ms: n.clock_ms,
        };
        before = n.pos;
        Some(ply)
    })
}

impl<Plies, Nodes> GameViewOf<Plies, Nodes> {
    /// The view of `record`, known to the page as `id`, with these lists.
    fn of(id: &str, record: &GameRecord, plies: Plies, nodes: Nodes) -> GameViewOf<Plies, Nodes> {
        let pos = record.position();
        let over = record.over();
        GameViewOf {
            id: id.to_string(),
            version: record.version,
            start_fen: record.start().fen(),
            fen: pos.fen(),
            turn: pos.turn().char(),
            check: pos.in_check(),
            plies,
            nodes,
            current: record.current,
            linear: record.in_match(),
            eval_hidden: record.eval_hidden(),
            legal: legal_moves(record),
            status: StatusView {
                over: over.is_some(),
                result: over
                    .as_ref()
                    .map_or(record.recorded_result.as_str(), |o| o.result().as_str()),
                reason: over.map_or(String::new(), |o| o.to_string()),
                is_final: record.final_end().is_some(),
                to_move: record
                    .tree
                    .get(record.tree.mainline_end())
                    .map_or(pos.turn(), |n| n.pos.turn())
                    .char(),
            },
        }
    }
}

/// The legal moves a person may play in the position on view of
/// `record` (none where no move may be played: after the end, off the
/// line of a game against the engine).
pub fn legal_moves(record: &GameRecord) -> Vec<MoveView> {
    if !record.may_play_from(record.current) {
        return Vec::new();
    }
    let pos = record.position();
    let mode = record.mode();
    pos.legal_moves()
        .iter()
        .map(|&m| MoveView::new(&pos, m, mode))
        .collect()
}

impl GameView {
    /// The view of `record`, known to the page as `id`.
    pub fn new(id: &str, record: &GameRecord) -> GameView {
        GameViewOf::of(
            id,
            record,
            ply_views(record).collect(),
            node_views(record).collect(),
        )
    }
}

impl<'a> GameJson<'a> {
    /// The view of `record`, known to the page as `id`, to be written as
    /// JSON (it writes what [`GameView::new`] would).
    pub fn new(id: &str, record: &'a GameRecord) -> GameJson<'a> {
        GameViewOf::of(id, record, PlyList(record), NodeList(record))
    }
}

/// A score for people: centipawns or mate in moves, from White's view
/// (the bar and the numbers on the page do not flip with the side to move).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum ScoreView {
    /// Centipawns, White's view.
    Cp(i32),
    /// Mate in moves, White's view (negative: Black mates).
    Mate(i32),
}

impl ScoreView {
    /// `score` (the view of `side`, the side to move) seen from White's side.
    pub fn white_view(score: Score, side: Color) -> ScoreView {
        match score.white_view(side) {
            Score::Cp(cp) => ScoreView::Cp(cp),
            Score::Mate(n) => ScoreView::Mate(n),
        }
    }
}

/// One move of an engine line, with the position after it.
#[derive(Serialize, Debug, Clone)]
pub struct LineMove {
    /// The move.
    #[serde(flatten)]
    pub mv: MoveView,
    /// FEN after the move.
    pub fen: String,
}

/// A line of moves from `pos`, stopping at the first move that is not legal
/// (a line from the table can in rare cases be cut short that way).
pub fn line(pos: &Position, moves: &[Move], mode: CastlingMode) -> Vec<LineMove> {
    let mut pos = *pos;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        let mv = MoveView::new(&pos, m, mode);
        pos.play_unchecked(m);
        out.push(LineMove { mv, fen: pos.fen() });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_shows_moves_checks_and_results() {
        let mut r = GameRecord::new(Position::startpos());
        for text in ["f3", "e5", "g4", "Qh4#"] {
            let m = r.parse_move(text).expect("legal");
            r.play(m, None).expect("legal");
        }
        let v = GameView::new("x", &r);
        assert_eq!(v.plies.len(), 4);
        assert_eq!(v.plies[3].mv.san, "Qh4#");
        assert_eq!(v.plies[3].mv.from, "d8");
        assert!(v.plies[3].check && v.check);
        assert!(v.legal.is_empty());
        assert!(v.status.over);
        assert_eq!(v.status.result, "0-1");
        assert_eq!(v.status.reason, "Black mates");
        assert_eq!(v.turn, 'w');
    }

    #[test]
    fn the_streamed_view_writes_what_the_made_one_does() {
        let mut r = GameRecord::new(Position::startpos());
        r.import_pgn(
            "1. e4 {open} e5 $1 (1... c5 {Sicilian} 2. Nf3 (2. c3) d6) 2. Nf3 Nc6 \
             { [%clk 0:03:00] } 3. Bb5 a6 *",
        )
        .expect("reads");
        let second = r.tree.mainline()[1];
        r.goto(second).expect("a node");
        let made = serde_json::to_string(&GameView::new("x", &r)).expect("written");
        let streamed = serde_json::to_string(&GameJson::new("x", &r)).expect("written");
        assert_eq!(made, streamed);
        assert!(made.contains("Sicilian") && made.contains(r#""clock_ms":180000"#));
    }

    #[test]
    fn castling_is_shown_as_the_king_move_and_scores_from_whites_view() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("fen");
        let m = pos.parse_san("O-O").expect("legal");
        let v = MoveView::new(&pos, m, pos.castling_mode());
        assert_eq!((v.from.as_str(), v.to.as_str()), ("e1", "g1"));
        assert!(matches!(
            ScoreView::white_view(Score::Cp(50), Color::Black),
            ScoreView::Cp(-50)
        ));
        assert!(matches!(
            ScoreView::white_view(Score::Mate(2), Color::White),
            ScoreView::Mate(2)
        ));
    }
}
