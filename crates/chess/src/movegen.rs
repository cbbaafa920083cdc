//! Legal move generation.
//!
//! Checkers, the check mask (squares that capture or block a single checker)
//! and pinned pieces are computed up front, so every move generated is legal
//! without trying it: pinned pieces move only along their pin line, the king
//! only to squares the enemy does not attack (computed with the king lifted
//! off the board), and en passant gets a full discovered-check test (it
//! removes two pieces from one rank). Captures and promotions ("noisy") and
//! the remaining ("quiet") moves can be generated separately for staged search.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::make::castling_targets;
use crate::movelist::{MoveCounter, MoveList, MoveSink};
use crate::{Bitboard, CastlingRights, CastlingSide, Color, Move, Position, Role, Square};

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Captures (en passant included) and promotions (quiet ones included).
    Noisy,
    /// Everything else: non-capturing, non-promoting moves and castling.
    Quiet,
}

impl Position {
    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, true, true>(&mut list);
        list
    }

    /// Appends the legal moves of `gen` type to `list` (a [`MoveList`], or
    /// any other [`MoveSink`]).
    #[inline]
    pub fn generate_moves<S: MoveSink>(&self, gen: GenType, list: &mut S) {
        match gen {
            GenType::All => self.generate::<_, true, true>(list),
            GenType::Noisy => self.generate::<_, true, false>(list),
            GenType::Quiet => self.generate::<_, false, true>(list),
        }
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate::<_, true, true>(&mut counter);
        counter.0
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Generates into `sink` the legal moves selected by `NOISY` and `QUIET`.
    #[inline(always)]
    pub fn generate<S: MoveSink, const NOISY: bool, const QUIET: bool>(&self, sink: &mut S) {
        let us = self.turn;
        let them = !us;
        let occupied = self.occupied();
        let theirs = self.by_color(them);
        let ksq = self.king(us);

        // Squares moves may go to, by kind: captures land on enemy pieces,
        // quiet moves on empty squares.
        let mut kinds = Bitboard::EMPTY;
        if NOISY {
            kinds |= theirs;
        }
        if QUIET {
            kinds |= !occupied;
        }

        let king_targets = king_attacks(ksq) & kinds;
        if king_targets.any() {
            let danger = self.attacked_squares(them, occupied.without(ksq));
            sink.push_targets(ksq, king_targets - danger);
        }

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let check_mask = match checkers.first() {
            Some(checker) => between(ksq, checker).with(checker),
            None => Bitboard::FULL,
        };
        let pinned = self.pinned(us);
        let targets = kinds & check_mask;

        for from in self.pieces(us, Role::Knight) - pinned {
            sink.push_targets(from, knight_attacks(from) & targets);
        }
        for from in self.diagonal_sliders(us) {
            let mut att = bishop_attacks(from, occupied) & targets;
            if pinned.contains(from) {
                att &= line(ksq, from);
            }
            sink.push_targets(from, att);
        }
        for from in self.orthogonal_sliders(us) {
            let mut att = rook_attacks(from, occupied) & targets;
            if pinned.contains(from) {
                att &= line(ksq, from);
            }
            sink.push_targets(from, att);
        }

        self.generate_pawn_moves::<S, NOISY, QUIET>(sink, check_mask, pinned);

        if QUIET
            && checkers.is_empty()
            && (self.castling.bits() & CastlingRights::both(us).bits()) != 0
        {
            self.generate_castling(sink);
        }
    }

    #[inline(always)]
    fn generate_pawn_moves<S: MoveSink, const NOISY: bool, const QUIET: bool>(
        &self,
        sink: &mut S,
        check_mask: Bitboard,
        pinned: Bitboard,
    ) {
        let us = self.turn;
        let them = !us;
        let occupied = self.occupied();
        let empty = !occupied;
        let theirs = self.by_color(them);
        let ksq = self.king(us);
        let pawns = self.pieces(us, Role::Pawn);
        let seventh = Bitboard::relative_rank(us, 6);
        let third = Bitboard::relative_rank(us, 2);
        let up: i8 = if us == Color::White { 8 } else { -8 };

        // Pawns free of pins, set-wise.
        let free = pawns - pinned;
        let (movers, promoters) = (free - seventh, free & seventh);
        if QUIET {
            let single = movers.forward(us) & empty;
            let double = (single & third).forward(us) & empty;
            sink.push_pawn_moves(single & check_mask, up);
            sink.push_pawn_moves(double & check_mask, 2 * up);
        }
        if NOISY {
            let advanced = movers.forward(us);
            sink.push_pawn_moves(advanced.west() & theirs & check_mask, up - 1);
            sink.push_pawn_moves(advanced.east() & theirs & check_mask, up + 1);
            let advanced = promoters.forward(us);
            sink.push_promotions(advanced & empty & check_mask, up);
            sink.push_promotions(advanced.west() & theirs & check_mask, up - 1);
            sink.push_promotions(advanced.east() & theirs & check_mask, up + 1);
        }

        // Pinned pawns one by one, each held to its pin line.
        for from in pawns & pinned {
            let pin_line = line(ksq, from);
            let promoting = seventh.contains(from);
            let mut to_squares = Bitboard::EMPTY;
            // Pushes are quiet, except those that promote.
            if (QUIET && !promoting) || (NOISY && promoting) {
                let single = Bitboard::from_square(from).forward(us) & empty;
                to_squares |= single | ((single & third).forward(us) & empty);
            }
            if NOISY {
                to_squares |= pawn_attacks(us, from) & theirs;
            }
            for to in to_squares & pin_line & check_mask {
                if promoting {
                    for role in Role::PROMOTIONS {
                        sink.push(Move::promotion(from, to, role));
                    }
                } else {
                    sink.push(Move::normal(from, to));
                }
            }
        }

        if NOISY {
            if let Some(ep) = self.ep_square {
                self.generate_en_passant(sink, ep, check_mask);
            }
        }
    }

    /// En passant: legal only if it answers any check (taking the checking
    /// pawn, or blocking on the en-passant square) and uncovers no slider.
    #[inline(always)]
    pub(crate) fn generate_en_passant<S: MoveSink>(
        &self,
        sink: &mut S,
        ep: Square,
        check_mask: Bitboard,
    ) {
        let us = self.turn;
        let them = !us;
        let captured = Square::new(ep.index() as u8 ^ 8);
        if !check_mask.contains(ep) && !check_mask.contains(captured) {
            return;
        }
        let ksq = self.king(us);
        for from in pawn_attacks(them, ep) & self.pieces(us, Role::Pawn) {
            let occupied = (self.occupied().without(from).without(captured)).with(ep);
            let exposed = (rook_attacks(ksq, occupied) & self.orthogonal_sliders(them))
                | (bishop_attacks(ksq, occupied) & self.diagonal_sliders(them));
            if exposed.is_empty() {
                sink.push(Move::en_passant(from, ep));
            }
        }
    }

    /// Castling (standard and Chess960): the squares between king and rook
    /// and their destinations empty, and no square the king crosses or lands
    /// on attacked once king and rook have left their squares.
    pub(crate) fn generate_castling<S: MoveSink>(&self, sink: &mut S) {
        let us = self.turn;
        let ksq = self.king(us);
        for side in CastlingSide::ALL {
            if !self.castling.has(us, side) {
                continue;
            }
            let rook = self.castling_rooks[CastlingRights::index_of(us, side)];
            let (_, king_to, rook_to) = castling_targets(ksq, rook);
            let occupied = self.occupied().without(ksq).without(rook);
            let king_path = between(ksq, king_to).with(king_to);
            let path = king_path | between(rook, rook_to).with(rook_to);
            if (path & occupied).any() {
                continue;
            }
            if king_path
                .into_iter()
                .any(|sq| self.is_attacked_by(sq, !us, occupied))
            {
                continue;
            }
            sink.push(Move::castling(ksq, rook));
        }
    }
}
