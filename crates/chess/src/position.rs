//! The position: where the pieces stand and whose move it is, with the state
//! the rules need (castling rights, en passant, move counters) and the keys
//! and check information kept up to date by `make.rs`.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::{
    zobrist, Bitboard, CastlingMode, CastlingRights, CastlingSide, Color, File, Piece, Rank, Role,
    Square,
};

/// A chess position. Small and `Copy`, so that callers may copy-make or
/// make/unmake as they prefer.
#[derive(Clone, Copy)]
pub struct Position {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) board: [Option<Piece>; 64],
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    /// Rook square of each castling right (index `CastlingRights::index_of`);
    /// meaningful only while the right is held.
    pub(crate) castling_rooks: [Square; 4],
    /// Set only when a pawn of the side to move attacks it (Polyglot's rule).
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u16,
    pub(crate) fullmove_number: u32,
    pub(crate) key: u64,
    pub(crate) structure: StructureKeys,
    pub(crate) checkers: Bitboard,
}

/// Zobrist keys of parts of the position (the pawns, each side's pieces,
/// the minor and the major pieces), kept up to date by `make.rs` like the
/// full key: the keys of the caches and correction tables that remember
/// what a structure is worth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct StructureKeys {
    pub(crate) pawn: u64,
    /// Each colour's pieces other than pawns, king included.
    pub(crate) non_pawn: [u64; 2],
    /// Knights, bishops and kings of both colours.
    pub(crate) minor: u64,
    /// Rooks, queens and kings of both colours.
    pub(crate) major: u64,
}

impl StructureKeys {
    /// Puts `piece` on `sq` into (or takes it out of) the keys of the
    /// structures it belongs to.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, piece: Piece, sq: Square) {
        let z = zobrist::piece(piece, sq);
        match piece.role {
            Role::Pawn => self.pawn ^= z,
            role => {
                self.non_pawn[piece.color.index()] ^= z;
                if matches!(role, Role::Knight | Role::Bishop | Role::King) {
                    self.minor ^= z;
                }
                if matches!(role, Role::Rook | Role::Queen | Role::King) {
                    self.major ^= z;
                }
            }
        }
    }
}

impl Position {
    /// A board with no pieces, White to move, no rights: the seed of FEN parsing.
    pub(crate) fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            board: [None; 64],
            turn: Color::White,
            castling: CastlingRights::NONE,
            castling_rooks: [Square::new(0); 4],
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            structure: StructureKeys::default(),
            checkers: Bitboard::EMPTY,
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All pieces of `role`, both colours.
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The pieces of `color` and `role`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king (a valid position has exactly one).
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }

    /// Bishops and queens of `color`.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
            & (self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()])
    }

    /// Rooks and queens of `color`.
    #[inline(always)]
    pub fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
            & (self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()])
    }

    /// The castling rights still held.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The rook square of `color`'s castling right on `side`, if held.
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.castling
            .has(color, side)
            .then(|| self.castling_rooks[CastlingRights::index_of(color, side)])
    }

    /// Standard when every castling right has its king on the e-file and its
    /// rook in the corner, Chess960 otherwise.
    pub fn castling_mode(&self) -> CastlingMode {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling_rook(color, side) {
                    let corner = side.fold_file(File::H, File::A);
                    if self.king(color).file() != File::new(4).expect("e-file")
                        || rook.file() != corner
                    {
                        return CastlingMode::Chess960;
                    }
                }
            }
        }
        CastlingMode::Standard
    }

    /// The en-passant target square, present only when a pawn of the side to
    /// move attacks it (as Polyglot keys and repetition detection want).
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        u32::from(self.halfmove_clock)
    }

    /// The move number, starting at 1 and counting up after each Black move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The Zobrist key, equal to the position's Polyglot book key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// A Zobrist key of the pawns alone (for pawn-structure caches).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.structure.pawn
    }

    /// A Zobrist key of `color`'s pieces other than pawns (king included).
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.structure.non_pawn[color.index()]
    }

    /// A Zobrist key of the knights, bishops and kings of both colours.
    #[inline(always)]
    pub fn minor_key(&self) -> u64 {
        self.structure.minor
    }

    /// A Zobrist key of the rooks, queens and kings of both colours.
    #[inline(always)]
    pub fn major_key(&self) -> u64 {
        self.structure.major
    }

    /// The enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of either colour attacking `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let diag = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        let orth = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
            | (knight_attacks(sq) & self.by_role[Role::Knight.index()])
            | (king_attacks(sq) & self.by_role[Role::King.index()])
            | (bishop_attacks(sq, occupied) & diag)
            | (rook_attacks(sq, occupied) & orth)
    }

    /// True when a piece of `by` attacks `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn is_attacked_by(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        (pawn_attacks(!by, sq) & them & self.by_role[Role::Pawn.index()]).any()
            || (knight_attacks(sq) & them & self.by_role[Role::Knight.index()]).any()
            || (king_attacks(sq) & them & self.by_role[Role::King.index()]).any()
            || (bishop_attacks(sq, occupied) & self.diagonal_sliders(by)).any()
            || (rook_attacks(sq, occupied) & self.orthogonal_sliders(by)).any()
    }

    /// Every square `color` attacks, with `occupied` as the blockers.
    #[inline]
    pub fn attacked_squares(&self, color: Color, occupied: Bitboard) -> Bitboard {
        let pawns = self.pieces(color, Role::Pawn).forward(color);
        let mut attacked = pawns.east() | pawns.west();
        for sq in self.pieces(color, Role::Knight) {
            attacked |= knight_attacks(sq);
        }
        for sq in self.diagonal_sliders(color) {
            attacked |= bishop_attacks(sq, occupied);
        }
        for sq in self.orthogonal_sliders(color) {
            attacked |= rook_attacks(sq, occupied);
        }
        attacked | king_attacks(self.king(color))
    }

    /// Pieces of either colour that alone stand between `color`'s king and an
    /// enemy slider aimed at it (pinned pieces when they are `color`'s own).
    #[inline]
    pub fn king_blockers(&self, color: Color) -> Bitboard {
        let ksq = self.king(color);
        let them = !color;
        let occupied = self.occupied();
        let snipers = (rook_attacks(ksq, self.by_color(them)) & self.orthogonal_sliders(them))
            | (bishop_attacks(ksq, self.by_color(them)) & self.diagonal_sliders(them));
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let b = between(ksq, sniper) & occupied;
            if !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// `color`'s own pieces pinned to its king.
    #[inline]
    pub fn pinned(&self, color: Color) -> Bitboard {
        self.king_blockers(color) & self.by_color(color)
    }

    /// The castling rights a move starting or ending on `sq` takes away:
    /// those whose king or rook stands there. (Per-game data such as a
    /// square-to-rights table would make every copy of the position larger.)
    #[inline]
    pub(crate) fn castling_rights_on(&self, sq: Square) -> CastlingRights {
        let mut lost = CastlingRights::NONE;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.castling.has(color, side)
                    && (self.castling_rooks[CastlingRights::index_of(color, side)] == sq
                        || self.king(color) == sq)
                {
                    lost = lost.with(CastlingRights::single(color, side));
                }
            }
        }
        lost
    }

    /// The number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        self.occupied().count()
    }

    // --- Low-level board editing: bitboards and mailbox only, keys untouched. ---

    #[inline(always)]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] |= b;
        self.by_color[piece.color.index()] |= b;
        self.board[sq.index()] = Some(piece);
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, piece: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= b;
        self.by_color[piece.color.index()] ^= b;
        self.board[sq.index()] = None;
    }

    #[inline(always)]
    pub(crate) fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        let b = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_role[piece.role.index()] ^= b;
        self.by_color[piece.color.index()] ^= b;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
    }

    /// Recomputes the keys and checkers from scratch (after set-up).
    pub(crate) fn refresh(&mut self) {
        let mut key = 0;
        let mut structure = StructureKeys::default();
        for sq in self.occupied() {
            if let Some(piece) = self.board[sq.index()] {
                key ^= zobrist::piece(piece, sq);
                structure.toggle(piece, sq);
            }
        }
        key ^= zobrist::castling(self.castling);
        if let Some(ep) = self.ep_square {
            key ^= zobrist::en_passant(ep.file());
        }
        if self.turn == Color::White {
            key ^= zobrist::white_to_move();
        }
        self.key = key;
        self.structure = structure;
        self.checkers = if self.pieces(self.turn, Role::King).any() {
            self.attackers_to(self.king(self.turn), self.occupied()) & self.by_color(!self.turn)
        } else {
            Bitboard::EMPTY
        };
    }

    /// The board as text, rank 8 on top, with the FEN and key below.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        for rank in Rank::ALL.iter().rev() {
            s.push_str(" +---+---+---+---+---+---+---+---+\n");
            for file in File::ALL {
                let c = self
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or(' ', Piece::char);
                s.push_str(" | ");
                s.push(c);
            }
            s.push_str(&format!(" | {}\n", rank.char()));
        }
        s.push_str(" +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n\n");
        s.push_str(&format!(
            "Fen: {}\nKey: {:016X}\nCheckers:",
            self.fen(),
            self.key
        ));
        for sq in self.checkers {
            s.push_str(&format!(" {sq}"));
        }
        s.push('\n');
        s
    }
}

impl CastlingSide {
    /// `king` for the kingside, `queen` for the queenside.
    pub fn fold_file(self, king: File, queen: File) -> File {
        match self {
            CastlingSide::King => king,
            CastlingSide::Queen => queen,
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

/// Equal when everything the rules see is equal: the pieces, the side to
/// move, the castling rights held (with their rooks), the en-passant square
/// and the counters. (Bookkeeping for rights already lost is ignored.)
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        let held_rooks = |p: &Position| {
            let mut rooks = [None; 4];
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    rooks[CastlingRights::index_of(color, side)] = p.castling_rook(color, side);
                }
            }
            rooks
        };
        self.by_role == other.by_role
            && self.by_color == other.by_color
            && self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && held_rooks(self) == held_rooks(other)
            && self.ep_square == other.ep_square
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
            && self.key == other.key
            && self.structure == other.structure
            && self.checkers == other.checkers
    }
}

impl Eq for Position {}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

#[cfg(test)]
mod size_tests {
    /// The search copies the position at every node: keep per-game data
    /// out (the square-to-castling-rights table made it 296 bytes). The
    /// structure keys of the correction tables are 32 of its bytes, which
    /// cost no measurable speed (docs/search.md).
    #[test]
    fn position_stays_small() {
        let size = std::mem::size_of::<super::Position>();
        assert!(size <= 264, "Position is {size} bytes");
    }
}
