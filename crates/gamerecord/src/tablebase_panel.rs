//! What the tablebase panel shows of a position the endgame tables hold,
//! as lichess's does: its value for the side to move, and every legal
//! move with what it leads to (win, cursed win, draw, blessed loss, loss,
//! from the mover's view), its distance to zeroing (DTZ) and whether it
//! mates, stalemates or zeroes the fifty-move count, sorted win first and
//! the shortest win first, then draws, then losses, the longest first.
//! The host probes (its tables, or the ones compiled in); this is what the
//! page is sent, the same from every host.

use chess::{CastlingMode, Move, Position};
use engine::Wdl;
use serde::Serialize;

use crate::view::MoveView;

/// What the tables say about a position: its value and DTZ for the side
/// to move, and each legal move's value and DTZ from the mover's view
/// (counting the move).
#[derive(Debug, Clone)]
pub struct Probe {
    /// The position's value.
    pub wdl: Wdl,
    /// Its distance to zeroing, when a DTZ table has it.
    pub dtz: Option<i32>,
    /// Every legal move: the move, its value and DTZ for the mover.
    pub moves: Vec<(Move, Wdl, i32)>,
}

impl Probe {
    /// From a table set's answer: the value, the DTZ, the moves.
    pub fn from_parts((wdl, dtz, moves): (Wdl, Option<i32>, Vec<(Move, Wdl, i32)>)) -> Probe {
        Probe { wdl, dtz, moves }
    }
}

/// A value as the panel names it (lichess's words).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Lost.
    Loss,
    /// Lost, but drawn by the fifty-move rule.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but drawn by the fifty-move rule.
    CursedWin,
    /// Won.
    Win,
}

impl From<Wdl> for Category {
    fn from(wdl: Wdl) -> Category {
        match wdl {
            Wdl::Loss => Category::Loss,
            Wdl::BlessedLoss => Category::BlessedLoss,
            Wdl::Draw => Category::Draw,
            Wdl::CursedWin => Category::CursedWin,
            Wdl::Win => Category::Win,
        }
    }
}

/// One legal move in the panel.
#[derive(Serialize, Debug, Clone)]
pub struct TablebaseMove {
    /// The move (SAN, UCI, squares).
    #[serde(flatten)]
    pub mv: MoveView,
    /// What it leads to, for the side that makes it.
    pub category: Category,
    /// Its distance to zeroing, for the side that makes it, counting the
    /// move (positive: a win in that many plies to a zeroing move; 0: a
    /// draw).
    pub dtz: i32,
    /// It captures or moves a pawn: the fifty-move count starts again.
    pub zeroing: bool,
    /// It mates.
    pub checkmate: bool,
    /// It stalemates.
    pub stalemate: bool,
}

/// The panel for a position.
#[derive(Serialize, Debug, Clone)]
pub struct TablebasePanel {
    /// The tables hold the position.
    pub found: bool,
    /// Why not, when they do not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// The position's value for the side to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<Category>,
    /// Its distance to zeroing, for the side to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dtz: Option<i32>,
    /// Every legal move, the best first.
    pub moves: Vec<TablebaseMove>,
}

/// Why a position is not in the tables.
pub const NOT_FOUND: &str =
    "the position is not in the tables (too many pieces, castling rights, or a missing table)";

impl TablebasePanel {
    /// The panel for `pos` (its moves written in `mode`'s castling
    /// notation) from what the tables said, `None` when they do not hold it.
    pub fn of(pos: &Position, mode: CastlingMode, probe: Option<Probe>) -> TablebasePanel {
        let Some(probe) = probe else {
            return TablebasePanel {
                found: false,
                reason: Some(NOT_FOUND),
                category: None,
                dtz: None,
                moves: Vec::new(),
            };
        };
        let mut moves: Vec<TablebaseMove> = probe
            .moves
            .iter()
            .map(|&(m, wdl, dtz)| {
                let mut after = *pos;
                after.play_unchecked(m);
                let mate_or_stalemate = after.legal_moves().is_empty();
                TablebaseMove {
                    mv: MoveView::new(pos, m, mode),
                    category: wdl.into(),
                    dtz,
                    zeroing: after.halfmove_clock() == 0,
                    checkmate: mate_or_stalemate && after.in_check(),
                    stalemate: mate_or_stalemate && !after.in_check(),
                }
            })
            .collect();
        // Win first, the mate and then the shortest win first; then draws;
        // losses last, the longest (the best defence) first. Among equals
        // a zeroing move first (it resets the fifty-move count).
        moves.sort_by_key(|m| {
            (
                std::cmp::Reverse(m.category),
                !m.checkmate,
                m.dtz,
                !m.zeroing,
            )
        });
        TablebasePanel {
            found: true,
            reason: None,
            category: Some(probe.wdl.into()),
            dtz: probe.dtz,
            moves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_sorted_as_lichess_sorts_them() {
        let pos = Position::from_fen("8/8/8/8/8/1k6/1p6/1K2R3 w - - 0 1").expect("fen");
        let mv = |uci: &str| {
            pos.parse_uci_move(uci, CastlingMode::Standard)
                .expect("legal")
        };
        let probe = Probe {
            wdl: Wdl::Win,
            dtz: Some(3),
            moves: vec![
                (mv("e1e3"), Wdl::Win, 11),
                (mv("e1d1"), Wdl::Draw, 0),
                (mv("e1c1"), Wdl::Win, 5),
                (mv("e1e2"), Wdl::Loss, -2),
                (mv("e1e8"), Wdl::Loss, -20),
            ],
        };
        let panel = TablebasePanel::of(&pos, CastlingMode::Standard, Some(probe));
        let order: Vec<(&str, Category, i32)> = panel
            .moves
            .iter()
            .map(|m| (m.mv.san.as_str(), m.category, m.dtz))
            .collect();
        assert_eq!(
            order,
            [
                ("Rc1", Category::Win, 5),
                ("Re3+", Category::Win, 11),
                ("Rd1", Category::Draw, 0),
                ("Re8", Category::Loss, -20),
                ("Re2", Category::Loss, -2),
            ]
        );
        assert!(!panel.moves[0].zeroing && !panel.moves[0].checkmate);
        let json = serde_json::to_value(&panel).expect("json");
        assert_eq!(json["category"], "win");
        assert_eq!(json["moves"][0]["san"], "Rc1");
        assert_eq!(json["moves"][0]["category"], "win");
        let none = TablebasePanel::of(&pos, CastlingMode::Standard, None);
        assert!(!none.found && none.reason.is_some());
    }
}
