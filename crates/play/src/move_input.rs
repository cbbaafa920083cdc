//! Moves as people type them: SAN with the piece letter in any case
//! (`nf3`, `NF3`), as long as only one legal move fits. The rules
//! library's own SAN reader already tolerates missing `x`, `0-0`, `e8q`
//! and check signs; this adds only the letter case, which SAN itself uses
//! to tell a bishop (`B`) from the b-pawn (`b`).

use chess::{Move, Position};

/// What a typed move names when its letter case is ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseTolerant {
    /// Exactly one legal move fits.
    One(Move),
    /// Several fit (`bxc3` with the b-pawn and a bishop both able to take):
    /// their SAN, to ask which.
    Ambiguous(Vec<String>),
    /// None fits.
    None,
}

/// The legal move `text` names with its letters in any case. Exact SAN
/// should be tried first: this is the fallback for what it refuses.
pub fn parse_any_case(pos: &Position, text: &str) -> CaseTolerant {
    let lower = text.trim().to_ascii_lowercase();
    let mut spellings = vec![lower.clone()];
    let mut chars = lower.chars();
    if let Some(first @ ('n' | 'b' | 'r' | 'q' | 'k' | 'p')) = chars.next() {
        spellings.push(format!("{}{}", first.to_ascii_uppercase(), chars.as_str()));
    }
    let mut found: Vec<Move> = Vec::new();
    for spelling in &spellings {
        // A promotion piece must be upper case for the reader ("e8=Q").
        let spelling = upper_promotion(spelling);
        if let Ok(m) = pos.parse_san(&spelling) {
            if !found.contains(&m) {
                found.push(m);
            }
        }
    }
    match found.as_slice() {
        [] => CaseTolerant::None,
        [m] => CaseTolerant::One(*m),
        many => CaseTolerant::Ambiguous(many.iter().map(|m| pos.san(*m)).collect()),
    }
}

/// `e8=q` → `e8=Q`, `e8q` → `e8Q`: the last letter after a last-rank square.
fn upper_promotion(text: &str) -> String {
    let bytes = text.as_bytes();
    match bytes {
        [.., b'1' | b'8' | b'=', last @ (b'q' | b'r' | b'b' | b'n')] => {
            format!(
                "{}{}",
                &text[..text.len() - 1],
                last.to_ascii_uppercase() as char
            )
        }
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn any(fen: &str, text: &str) -> CaseTolerant {
        parse_any_case(&Position::from_fen(fen).expect("fen"), text)
    }

    fn san(fen: &str, text: &str) -> String {
        let pos = Position::from_fen(fen).expect("fen");
        match parse_any_case(&pos, text) {
            CaseTolerant::One(m) => pos.san(m),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn piece_letters_in_any_case() {
        let start = chess::fen::STARTPOS;
        assert_eq!(san(start, "nf3"), "Nf3");
        assert_eq!(san(start, "NF3"), "Nf3");
        assert_eq!(san(start, "E4"), "e4");
        assert_eq!(
            any(start, "o-o"),
            CaseTolerant::None,
            "castling is not legal yet"
        );
    }

    #[test]
    fn promotions_and_castling() {
        assert_eq!(san("8/4P3/8/8/8/8/k7/4K2R w K - 0 1", "E8=q"), "e8=Q");
        assert_eq!(san("8/4P3/8/8/8/8/k7/4K2R w K - 0 1", "o-o"), "O-O");
    }

    #[test]
    fn the_b_pawn_or_a_bishop_is_asked() {
        // Both the b2-pawn and the bishop on d2 can take on c3.
        let fen = "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1";
        match any(fen, "BXC3") {
            CaseTolerant::Ambiguous(sans) => {
                assert!(sans.contains(&"bxc3".to_string()) && sans.contains(&"Bxc3".to_string()));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(any(chess::fen::STARTPOS, "zz9"), CaseTolerant::None);
        assert_eq!(any(chess::fen::STARTPOS, ""), CaseTolerant::None);
    }
}
