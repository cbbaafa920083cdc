//! The pieces one move takes off squares and puts on squares: what the
//! incremental parts of the evaluations (the network's accumulators, the
//! hand-crafted material sums) update by instead of recounting the board.

use chess::{CastlingSide, Color, Move, MoveKind, Piece, Position, Role, Square};

/// At most two pieces removed and two placed (castling moves two pieces;
/// a capture removes the victim too).
#[derive(Clone, Copy, Debug)]
pub struct PieceDelta {
    add: [(Piece, Square); 2],
    adds: usize,
    sub: [(Piece, Square); 2],
    subs: usize,
}

impl Default for PieceDelta {
    /// No change (the null move's).
    fn default() -> PieceDelta {
        PieceDelta::new()
    }
}

impl PieceDelta {
    fn new() -> PieceDelta {
        let none = (Piece::new(Color::White, Role::Pawn), Square::new(0));
        PieceDelta {
            add: [none; 2],
            adds: 0,
            sub: [none; 2],
            subs: 0,
        }
    }

    fn add(&mut self, piece: Piece, sq: Square) {
        self.add[self.adds] = (piece, sq);
        self.adds += 1;
    }

    fn sub(&mut self, piece: Piece, sq: Square) {
        self.sub[self.subs] = (piece, sq);
        self.subs += 1;
    }

    /// The pieces placed, each on its square.
    #[inline(always)]
    pub fn added(&self) -> &[(Piece, Square)] {
        &self.add[..self.adds]
    }

    /// The pieces taken off, each from its square.
    #[inline(always)]
    pub fn removed(&self) -> &[(Piece, Square)] {
        &self.sub[..self.subs]
    }

    /// What `m` played in `before` changes (nothing for the null move).
    #[inline]
    pub fn of_move(before: &Position, m: Move) -> PieceDelta {
        let mut delta = PieceDelta::new();
        if m.is_null() {
            return delta;
        }
        let from = m.from();
        let to = m.to();
        let Some(piece) = before.piece_at(from) else {
            debug_assert!(false, "no piece on {from} for {m:?}");
            return delta;
        };
        match m.kind() {
            MoveKind::Castling => {
                // Encoded as king takes own rook: `to` is the rook's square.
                let side = if to > from {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                let base = from.index() as u8 & 56;
                let rook = Piece::new(piece.color, Role::Rook);
                delta.sub(piece, from);
                delta.sub(rook, to);
                delta.add(piece, Square::new(base + side.king_to_file()));
                delta.add(rook, Square::new(base + side.rook_to_file()));
            }
            MoveKind::EnPassant => {
                let taken = Square::new(to.index() as u8 ^ 8);
                delta.sub(piece, from);
                delta.sub(Piece::new(!piece.color, Role::Pawn), taken);
                delta.add(piece, to);
            }
            MoveKind::Normal | MoveKind::Promotion => {
                let arrives = m
                    .promotion_role()
                    .map_or(piece, |role| Piece::new(piece.color, role));
                delta.sub(piece, from);
                if let Some(captured) = before.piece_at(to) {
                    delta.sub(captured, to);
                }
                delta.add(arrives, to);
            }
        }
        delta
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::CastlingMode;

    /// The board after the move equals the board before with the delta applied.
    #[test]
    fn applying_the_delta_gives_the_next_board() {
        for (fen, uci) in [
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
            ("3nk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8n"),
            ("4k3/8/8/8/8/8/3q4/3QK3 w - - 0 1", "d1d2"),
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d7"),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let m = pos.parse_uci_move(uci, CastlingMode::Standard).unwrap();
            let mut board: Vec<Option<Piece>> =
                Square::ALL.iter().map(|&s| pos.piece_at(s)).collect();
            let delta = PieceDelta::of_move(&pos, m);
            for &(piece, sq) in delta.removed() {
                assert_eq!(board[sq.index()], Some(piece), "{fen} {uci}");
                board[sq.index()] = None;
            }
            for &(piece, sq) in delta.added() {
                assert_eq!(board[sq.index()], None, "{fen} {uci}");
                board[sq.index()] = Some(piece);
            }
            let mut after = pos;
            let _ = after.play_unchecked(m);
            let expected: Vec<Option<Piece>> =
                Square::ALL.iter().map(|&s| after.piece_at(s)).collect();
            assert_eq!(board, expected, "{fen} {uci}");
        }
        let pos = Position::startpos();
        let null = PieceDelta::of_move(&pos, Move::NULL);
        assert!(null.added().is_empty() && null.removed().is_empty());
    }
}
