//! The variant a run plays (`-variant standard|fischerandom`, fastchess's
//! names): in Chess960 every castling move is written king takes rook, to
//! the engines and in UCI notation, and every FEN the runner writes (to
//! the engines, in the PGN's `FEN` tag, in `-epdout`) gives its castling
//! rights as rook files (Shredder-FEN, `HFhf`), as fastchess writes them.
//! A Chess960 position whose king and rooks stand where standard chess has
//! them (position 518) is still played as Chess960.

use chess::{CastlingMode, CastlingNotation, Position};

/// The variant named on the command line: `standard` or `fischerandom`
/// (cutechess's and fastchess's name; `chess960` and `frc` are read too).
pub fn from_name(name: &str) -> Option<CastlingMode> {
    match name.to_ascii_lowercase().as_str() {
        "standard" => Some(CastlingMode::Standard),
        "fischerandom" | "chess960" | "frc" => Some(CastlingMode::Chess960),
        _ => None,
    }
}

/// fastchess's name of the variant, as `-variant` takes it.
pub fn name(mode: CastlingMode) -> &'static str {
    match mode {
        CastlingMode::Standard => "standard",
        CastlingMode::Chess960 => "fischerandom",
    }
}

/// `position` as FEN for the variant: X-FEN castling rights in standard
/// chess, Shredder-FEN in Chess960.
pub fn fen(position: &Position, mode: CastlingMode) -> String {
    match mode {
        CastlingMode::Standard => position.fen(),
        CastlingMode::Chess960 => position.fen_with(CastlingNotation::Shredder),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_positions_are_written_with_rook_files() {
        // Position 518 with a few moves played: standard-looking castling
        // rights, still Chess960 under -variant fischerandom.
        let p =
            Position::from_fen("r1bqkbnr/p1ppp1pp/1pn5/5p2/4P3/5N2/PPPPBPPP/RNBQK2R w KQkq - 2 4")
                .unwrap();
        assert_eq!(
            fen(&p, CastlingMode::Chess960),
            "r1bqkbnr/p1ppp1pp/1pn5/5p2/4P3/5N2/PPPPBPPP/RNBQK2R w HAha - 2 4"
        );
        assert_eq!(
            fen(&p, CastlingMode::Standard),
            "r1bqkbnr/p1ppp1pp/1pn5/5p2/4P3/5N2/PPPPBPPP/RNBQK2R w KQkq - 2 4"
        );
        let x = Position::from_fen(
            "qbbnr1kr/ppp1p1pp/6n1/3p1p2/2P1P3/6N1/PP1P1PPP/QBBNR1KR w KQkq - 2 4",
        )
        .unwrap();
        assert_eq!(
            fen(&x, CastlingMode::Chess960),
            "qbbnr1kr/ppp1p1pp/6n1/3p1p2/2P1P3/6N1/PP1P1PPP/QBBNR1KR w HEhe - 2 4"
        );
        assert_eq!(from_name("fischerandom"), Some(CastlingMode::Chess960));
        assert_eq!(from_name("Standard"), Some(CastlingMode::Standard));
        assert_eq!(from_name("crazyhouse"), None);
        assert_eq!(name(CastlingMode::Chess960), "fischerandom");
    }
}
