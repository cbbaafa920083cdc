//! Kestrel's position to shakmaty's, built from the bitboards (no FEN text
//! in between), only where a probe happens; and shakmaty's moves back to
//! Kestrel's. `benches`-style measurement: `cargo run --release -p syzygy
//! --example conversion_cost`.

use std::num::NonZeroU32;

use chess::{Color, Move, Position, Role};
use shakmaty::{Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, FromSetup, Setup, Square};

/// shakmaty's position for `pos`; `None` when shakmaty refuses it (Kestrel
/// validates positions as strictly, so this is a safety net, not a path).
pub fn to_shakmaty(pos: &Position) -> Option<Chess> {
    let role = |r: Role| Bitboard(pos.by_role(r).bits());
    let board = Board::try_from_bitboards(
        ByRole {
            pawn: role(Role::Pawn),
            knight: role(Role::Knight),
            bishop: role(Role::Bishop),
            rook: role(Role::Rook),
            queen: role(Role::Queen),
            king: role(Role::King),
        },
        ByColor {
            white: Bitboard(pos.by_color(Color::White).bits()),
            black: Bitboard(pos.by_color(Color::Black).bits()),
        },
    )
    .ok()?;
    let setup = Setup {
        board,
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn: match pos.turn() {
            Color::White => shakmaty::Color::White,
            Color::Black => shakmaty::Color::Black,
        },
        // The tables hold no position with castling rights: callers check.
        castling_rights: Bitboard::EMPTY,
        ep_square: pos.ep_square().map(|sq| Square::new(sq.index() as u32)),
        remaining_checks: None,
        halfmoves: pos.halfmove_clock(),
        fullmoves: NonZeroU32::new(pos.fullmove_number()).unwrap_or(NonZeroU32::MIN),
    };
    // Kestrel may keep an en passant square no capture can use; shakmaty
    // would call that invalid. Dropping it changes nothing for the tables.
    match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(pos) => Some(pos),
        Err(e) => e.ignore_invalid_ep_square().ok(),
    }
}

/// Kestrel's move for shakmaty's move `m` in `pos` (the same position).
pub fn from_shakmaty_move(pos: &Position, m: shakmaty::Move) -> Option<Move> {
    let text = m.to_uci(CastlingMode::Standard).to_string();
    pos.parse_uci_move(&text, chess::CastlingMode::Standard)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::EnPassantMode;

    #[test]
    fn same_position_as_through_fen() {
        for fen in [
            "8/8/8/4k3/8/8/8/2K4Q w - - 0 1",
            "8/8/3k4/8/3pP3/8/8/4K3 b - e3 0 1",
            "8/8/8/8/3Pp3/8/7k/4K3 b - d3 0 41",
            "8/2K5/4B3/3N4/8/8/4k3/8 b - - 17 60",
        ] {
            let ours = Position::from_fen(fen).unwrap();
            let theirs = to_shakmaty(&ours).expect("converts");
            let via_fen: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            assert_eq!(
                Fen::from_position(&theirs, EnPassantMode::Legal).to_string(),
                Fen::from_position(&via_fen, EnPassantMode::Legal).to_string()
            );
        }
    }
}
