//! The JSON the page reads: a game's positions, moves in SAN and UCI, the
//! legal moves of the current position, check and the result; and engine
//! lines turned into SAN with the position after each move (so the page can
//! step through a principal variation without rules of its own).

use chess::{CastlingMode, Move, Position};
use engine::Score;
use serde::Serialize;

use crate::record::GameRecord;

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
            promotion: m.promotion_role().map(|r| r.char()),
            san: pos.san(m),
            uci,
        }
    }
}

/// One ply of the game.
#[derive(Serialize, Debug)]
pub struct PlyView {
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
}

/// Whether and how the game ended.
#[derive(Serialize, Debug)]
pub struct StatusView {
    /// True when the game is over.
    pub over: bool,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// Why it ended (`White mates`, `Draw by stalemate`...), empty while it goes on.
    pub reason: String,
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
    /// The moves played.
    pub plies: Vec<PlyView>,
    /// The legal moves now.
    pub legal: Vec<MoveView>,
    /// The result.
    pub status: StatusView,
}

impl GameView {
    /// The view of `record`, known to the page as `id`.
    pub fn new(id: &str, record: &GameRecord) -> GameView {
        let mode = record.mode();
        let positions = record.positions();
        let plies = record
            .game
            .moves()
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let before = &positions[i];
                let after = &positions[i + 1];
                PlyView {
                    mv: MoveView::new(before, m, mode),
                    fen: after.fen(),
                    check: after.in_check(),
                    capture: after.piece_count() < before.piece_count(),
                    time_ms: record.move_times.get(i).copied().flatten(),
                }
            })
            .collect();
        let pos = record.game.position();
        let over = record.over();
        GameView {
            id: id.to_string(),
            version: record.version,
            start_fen: record.game.start().fen(),
            fen: pos.fen(),
            turn: pos.turn().char(),
            check: pos.in_check(),
            plies,
            legal: pos
                .legal_moves()
                .iter()
                .map(|&m| MoveView::new(pos, m, mode))
                .collect(),
            status: StatusView {
                over: over.is_some(),
                result: over.as_ref().map_or("*", |o| o.result),
                reason: over.map_or(String::new(), |o| o.reason),
            },
        }
    }
}

/// A score for people: centipawns or mate in moves, from White's view
/// (the bar and the numbers on the page do not flip with the side to move).
#[derive(Serialize, Debug, Clone, Copy)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum ScoreView {
    /// Centipawns, White's view.
    Cp(i32),
    /// Mate in moves, White's view (negative: Black mates).
    Mate(i32),
}

impl ScoreView {
    /// `score` (side to move's view) seen from White's side.
    pub fn white_view(score: Score, white_to_move: bool) -> ScoreView {
        let sign = if white_to_move { 1 } else { -1 };
        match score {
            Score::Cp(cp) => ScoreView::Cp(cp * sign),
            Score::Mate(n) => ScoreView::Mate(n * sign),
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
        pos.play(m);
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
            ScoreView::white_view(Score::Cp(50), false),
            ScoreView::Cp(-50)
        ));
        assert!(matches!(
            ScoreView::white_view(Score::Mate(2), true),
            ScoreView::Mate(2)
        ));
    }
}
