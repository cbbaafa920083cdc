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

/// A whole game as the page draws it.
#[derive(Serialize, Debug)]
pub struct GameView {
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
    /// The main line's moves.
    pub plies: Vec<PlyView>,
    /// Every node of the tree, parents before children; the start is node 0.
    pub nodes: Vec<NodeView>,
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

impl GameView {
    /// The view of `record`, known to the page as `id`.
    pub fn new(id: &str, record: &GameRecord) -> GameView {
        let mode = record.mode();
        let tree = &record.tree;
        let mut depth = vec![0usize; tree.ids().last().map_or(1, |i| i + 1)];
        // Whether each node is on the main line, from its parent's (a
        // parent is made before its children): one pass, where asking
        // `is_mainline` of every node walked to the root from each, which
        // made a long game's view quadratic in its length.
        let mut main = vec![false; depth.len()];
        let mut nodes = Vec::new();
        for i in tree.ids() {
            let Some(n) = tree.get(i) else { continue };
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
            nodes.push(NodeView {
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
            });
        }
        let mut before = record.start();
        let plies = tree
            .mainline()
            .into_iter()
            .filter_map(|i| {
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
            .collect();
        let pos = record.position();
        let over = record.over();
        GameView {
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
            legal: if record.may_play_from(record.current) {
                pos.legal_moves()
                    .iter()
                    .map(|&m| MoveView::new(&pos, m, mode))
                    .collect()
            } else {
                Vec::new()
            },
            status: StatusView {
                over: over.is_some(),
                result: over
                    .as_ref()
                    .map_or(record.recorded_result.as_str(), |o| o.result().as_str()),
                reason: over.map_or(String::new(), |o| o.to_string()),
            },
        }
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
