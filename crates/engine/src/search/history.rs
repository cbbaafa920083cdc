//! Move-ordering memory, all in one place: killer moves per ply, the
//! countermove to each previous move, butterfly history (from-to by colour,
//! and by whether the opponent attacks the from and the to square),
//! continuation history (this move after the move one, two and four
//! plies earlier) and capture history (the moving piece, its destination
//! and what it takes). Moves that caused cut-offs get bonuses, the moves of
//! their kind tried before them maluses, with "gravity" keeping values
//! bounded.

use chess::{Bitboard, Color, Move, Piece, Position};

use crate::params::tuned;
use crate::score::MAX_PLY;

/// History values stay within +-`HistoryGravity` (a tunable), and never
/// beyond this, which the i16 tables hold.
pub const MAX_HISTORY_LIMIT: i32 = 30_000;

/// Index of a piece (0..12) for history tables.
#[inline]
pub fn piece_index(p: Piece) -> usize {
    p.color.index() * 6 + p.role.index()
}

/// A (piece, destination) pair identifying a move for continuation history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceTo(pub u16);

impl PieceTo {
    /// No move (root, or after a null move).
    pub const NONE: PieceTo = PieceTo(0);

    /// The pair for `piece` arriving on `to` (castling: the king on its target).
    #[inline]
    pub fn new(piece: Piece, to: chess::Square) -> PieceTo {
        PieceTo(1 + (piece_index(piece) * 64 + to.index()) as u16)
    }

    /// The destination square, or `None` for `NONE`.
    #[inline]
    pub fn to(self) -> Option<chess::Square> {
        let i = self.0.checked_sub(1)?;
        Some(chess::Square::new((i % 64) as u8))
    }

    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
}

const PIECE_TO: usize = 12 * 64 + 1;

/// The earlier moves that continuation history pairs a move with: one, two
/// and four plies back (the side to move's own previous moves and the
/// opponent's last one). `PieceTo::NONE` where there is none, or where a
/// switch leaves one out; such a pair scores zero and is never updated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrevMoves {
    /// The opponent's last move.
    pub ply1: PieceTo,
    /// Our previous move.
    pub ply2: PieceTo,
    /// Our move before that.
    pub ply4: PieceTo,
}

impl PrevMoves {
    /// None at all (tests).
    #[cfg(test)]
    pub const NONE: PrevMoves = PrevMoves {
        ply1: PieceTo::NONE,
        ply2: PieceTo::NONE,
        ply4: PieceTo::NONE,
    };

    fn all(self) -> [PieceTo; 3] {
        [self.ply1, self.ply2, self.ply4]
    }
}

/// All history tables of one search thread.
pub struct History {
    butterfly: Vec<i16>,
    continuation: Vec<i16>,
    capture: Vec<i16>,
    countermoves: Vec<Move>,
    killers: [[Move; 2]; MAX_PLY + 4],
}

/// Capture history's entries: the moving piece (12), its destination (64)
/// and the role it takes, or none for a promotion that takes nothing (7).
const CAPTURES: usize = 12 * 64 * 7;

/// A noisy move's entry in capture history (en passant takes a pawn).
#[inline]
fn capture_index(pos: &Position, m: Move) -> usize {
    let mover = pos.piece_at(m.from()).map_or(0, piece_index);
    let taken = if m.kind() == chess::MoveKind::EnPassant {
        chess::Role::Pawn.index()
    } else {
        pos.piece_at(m.to()).map_or(6, |p| p.role.index())
    };
    (mover * 64 + m.to().index()) * 7 + taken
}

impl Default for History {
    fn default() -> History {
        History {
            butterfly: vec![0; 2 * BUTTERFLY],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            capture: vec![0; CAPTURES],
            countermoves: vec![Move::NULL; PIECE_TO],
            killers: [[Move::NULL; 2]; MAX_PLY + 4],
        }
    }
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    // The gravity bound stays within i16 (the tunable's range says so).
    let limit = tuned::history_gravity().min(MAX_HISTORY_LIMIT);
    let v = i32::from(*entry);
    let bonus = bonus.clamp(-limit, limit);
    *entry = (v + bonus - v * bonus.abs() / limit) as i16;
}

/// The bonus for a cut-off at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * tuned::history_bonus_quad() + tuned::history_bonus_linear() * depth)
        .min(tuned::history_bonus_max())
}

/// The malus of a quiet move tried before the one that cut off at `depth`.
#[inline]
pub fn malus(depth: i32) -> i32 {
    (depth * depth * tuned::history_malus_quad() + tuned::history_malus_linear() * depth)
        .min(tuned::history_malus_max())
}

impl History {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Forgets the killers (they belong to one search).
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 4];
    }

    /// The two killer moves of `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY + 3)]
    }

    /// The countermove recorded against the previous move.
    #[inline]
    pub fn countermove(&self, prev: PieceTo) -> Move {
        self.countermoves[prev.index()]
    }

    /// Ordering score of a quiet move: butterfly plus continuation history
    /// (`threats`: the squares the opponent attacks, or none when the
    /// butterfly table is not split by them).
    #[inline]
    pub fn quiet_score(
        &self,
        color: Color,
        m: Move,
        pt: PieceTo,
        prev: PrevMoves,
        threats: Bitboard,
    ) -> i32 {
        self.quiet_rows(color, prev, threats).score(m, pt)
    }

    /// Capture history's score of the noisy move `m` (a capture or a
    /// promotion) in `pos`.
    #[inline]
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        i32::from(self.capture[capture_index(pos, m)])
    }

    /// After a cut-off at `depth`: rewards `best` when it is a noisy move
    /// and penalises the noisy moves `tried` before it (all of them when
    /// the cut-off came from a quiet move: the captures did not do it).
    pub fn update_captures(
        &mut self,
        pos: &Position,
        depth: i32,
        best: Option<Move>,
        tried: &[Move],
    ) {
        if let Some(best) = best {
            gravity(&mut self.capture[capture_index(pos, best)], bonus(depth));
        }
        let penalty = malus(depth);
        for &m in tried {
            gravity(&mut self.capture[capture_index(pos, m)], -penalty);
        }
    }

    /// The rows that score the quiet moves of `color` after `prev` with the
    /// opponent attacking `threats`, looked up once for all the moves of a
    /// node.
    #[inline]
    pub fn quiet_rows(&self, color: Color, prev: PrevMoves, threats: Bitboard) -> QuietRows<'_> {
        QuietRows {
            butterfly: &self.butterfly[color.index() * BUTTERFLY..][..BUTTERFLY],
            threats,
            // Row 0 (no earlier move) is never updated and stays zero.
            continuation: prev
                .all()
                .map(|p| &self.continuation[p.index() * PIECE_TO..][..PIECE_TO]),
        }
    }

    /// Rewards the quiet `best` that cut off and penalises the quiets tried before it.
    #[allow(clippy::too_many_arguments)]
    pub fn update_quiets(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        prev: PrevMoves,
        threats: Bitboard,
        use_countermove: bool,
    ) {
        let color = pos.turn();
        let (b, penalty) = (bonus(depth), malus(depth));
        let killers = &mut self.killers[ply.min(MAX_PLY + 3)];
        if killers[0] != best {
            killers[1] = killers[0];
            killers[0] = best;
        }
        if use_countermove && prev.ply1 != PieceTo::NONE {
            self.countermoves[prev.ply1.index()] = best;
        }
        for &m in tried.iter().chain(std::iter::once(&best)) {
            let delta = if m == best { b } else { -penalty };
            let pt = piece_to(pos, m);
            gravity(
                &mut self.butterfly[color.index() * BUTTERFLY + butterfly_entry(m, threats)],
                delta,
            );
            for p in prev.all() {
                if p != PieceTo::NONE {
                    gravity(
                        &mut self.continuation[p.index() * PIECE_TO + pt.index()],
                        delta,
                    );
                }
            }
        }
    }
}

/// The history rows of one side to move and its earlier moves
/// ([`History::quiet_rows`]).
#[derive(Clone, Copy)]
pub struct QuietRows<'a> {
    /// The side to move's butterfly table, by threats to the from and to
    /// square and by the squares.
    butterfly: &'a [i16],
    /// The squares the opponent attacks (none: one quarter of the table).
    threats: Bitboard,
    /// The continuation row of each earlier move, by piece and destination.
    continuation: [&'a [i16]; 3],
}

impl QuietRows<'_> {
    /// The ordering score of the quiet move `m` (`pt`: its piece and destination).
    #[inline]
    pub fn score(&self, m: Move, pt: PieceTo) -> i32 {
        i32::from(self.butterfly[butterfly_entry(m, self.threats)])
            + self
                .continuation
                .iter()
                .map(|row| i32::from(row[pt.index()]))
                .sum::<i32>()
    }
}

/// Entries of one side's butterfly table: one per from and to square.
const FROM_TO: usize = 64 * 64;

/// Entries of one side's butterfly table: a from-to table for each of
/// (from square attacked by the opponent or not) × (to square attacked or
/// not). A quiet move out of an attack or into one is another move than the
/// same from-to elsewhere: Ethereal's, Berserk's and Stockfish's split.
const BUTTERFLY: usize = 4 * FROM_TO;

/// A move's entry in its side's butterfly table, the opponent attacking
/// `threats`.
#[inline]
fn butterfly_entry(m: Move, threats: Bitboard) -> usize {
    let from_attacked = usize::from(threats.contains(m.from()));
    let to_attacked = usize::from(threats.contains(m.to()));
    (from_attacked * 2 + to_attacked) * FROM_TO + m.from().index() * 64 + m.to().index()
}

/// The squares the opponent of the side to move attacks, which split the
/// butterfly history when `split` (`ThreatHistory`); none otherwise.
#[inline]
pub fn threats(pos: &Position, split: bool) -> Bitboard {
    if split {
        pos.attacked_squares(!pos.turn(), pos.occupied())
    } else {
        Bitboard::EMPTY
    }
}

/// The (piece, destination) of a legal move in `pos` (before it is played).
#[inline]
pub fn piece_to(pos: &Position, m: Move) -> PieceTo {
    match pos.piece_at(m.from()) {
        Some(p) => PieceTo::new(p, m.to()),
        None => PieceTo::NONE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::CastlingMode;

    #[test]
    fn continuation_history_pairs_a_cut_with_each_earlier_move() {
        let pos = Position::startpos();
        let mv = |s: &str| pos.parse_uci_move(s, CastlingMode::Standard).unwrap();
        let white_knight = Piece {
            color: Color::White,
            role: chess::Role::Knight,
        };
        let earlier = |sq: &str| PieceTo::new(white_knight, sq.parse().unwrap());
        let prev = PrevMoves {
            ply1: earlier("c3"),
            ply2: earlier("d4"),
            ply4: earlier("e5"),
        };
        let (cut, tried) = (mv("g1f3"), mv("a2a3"));
        let mut h = History::default();
        h.update_quiets(&pos, 3, 6, cut, &[tried], prev, Bitboard::EMPTY, true);
        let only = |p: PrevMoves| {
            h.quiet_score(Color::White, cut, piece_to(&pos, cut), p, Bitboard::EMPTY)
        };
        // The butterfly part is shared; each earlier move adds its own pair.
        let butterfly = only(PrevMoves::NONE);
        assert!(butterfly > 0);
        for alone in [
            PrevMoves {
                ply1: prev.ply1,
                ..PrevMoves::NONE
            },
            PrevMoves {
                ply2: prev.ply2,
                ..PrevMoves::NONE
            },
            PrevMoves {
                ply4: prev.ply4,
                ..PrevMoves::NONE
            },
        ] {
            assert!(only(alone) > butterfly, "{alone:?}");
        }
        assert!(
            h.quiet_score(
                Color::White,
                tried,
                piece_to(&pos, tried),
                prev,
                Bitboard::EMPTY
            ) < 0
        );
        assert_eq!(h.countermove(prev.ply1), cut);
    }

    #[test]
    fn a_move_out_of_an_attack_learns_apart_from_the_same_move_elsewhere() {
        let pos = Position::startpos();
        let m = pos.parse_uci_move("g1f3", CastlingMode::Standard).unwrap();
        let pt = piece_to(&pos, m);
        let from_attacked = Bitboard::from_square(m.from());
        let to_attacked = Bitboard::from_square(m.to());
        let mut h = History::default();
        h.update_quiets(&pos, 3, 6, m, &[], PrevMoves::NONE, from_attacked, false);
        let score = |threats| h.quiet_score(Color::White, m, pt, PrevMoves::NONE, threats);
        assert!(score(from_attacked) > 0);
        assert_eq!(score(Bitboard::EMPTY), 0);
        assert_eq!(score(to_attacked), 0);
        assert_eq!(score(from_attacked | to_attacked), 0);
        // Threats elsewhere on the board do not move the entry.
        let elsewhere = Bitboard::from_square("e4".parse().unwrap());
        assert_eq!(score(from_attacked | elsewhere), score(from_attacked));
    }
}
