//! A score as people and protocols see it: centipawns, or mate in moves.
//! The engine turns its internal values into this (`engine::user_score`);
//! UCI and xboard print it, the lab parses it back from other engines, the
//! match core adjudicates on it and the GUI and terminal game show it. One
//! type, so that its conversions (xboard's mate numbers, cutechess's PGN
//! comments, adjudication's centipawns) are written once.

use std::fmt;

use chess::Color;

/// A score from one side's view: centipawns, or mate in moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when this side is mated.
    Mate(i32),
}

/// Where mates sit as numbers, above every evaluation: xboard's thinking
/// output shows mate in N moves as `100000 + N` and being mated in N as
/// `-100000 - N` (WinBoard's convention).
const XBOARD_MATE: i32 = 100_000;

/// The longest mate counted as such in numbers: longer ones (only a broken
/// engine reports them) count as this long, so that every mate stays
/// beyond every evaluation and no sum overflows.
const LONGEST_MATE: i32 = 10_000;

impl Score {
    /// The same score from the other side's view.
    pub fn negated(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(cp.saturating_neg()),
            Score::Mate(n) => Score::Mate(n.saturating_neg()),
        }
    }

    /// A score for `side` seen from White's side, as boards show scores.
    pub fn white_view(self, side: Color) -> Score {
        side.fold(self, self.negated())
    }

    /// Centipawns, with mates as very large values (nearer mates larger),
    /// for comparing scores and adjudicating on them.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => XBOARD_MATE - n.min(LONGEST_MATE),
            Score::Mate(n) => -XBOARD_MATE - n.max(-LONGEST_MATE),
        }
    }

    /// The number xboard's thinking output shows for this score.
    pub fn to_xboard(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => XBOARD_MATE + n.min(LONGEST_MATE),
            Score::Mate(n) => -XBOARD_MATE + n.max(-LONGEST_MATE),
        }
    }

    /// A score from xboard's thinking output: the inverse of [`Score::to_xboard`].
    pub fn from_xboard(number: i32) -> Score {
        if number >= XBOARD_MATE || number <= -XBOARD_MATE {
            Score::Mate(number - number.signum() * XBOARD_MATE)
        } else {
            Score::Cp(number)
        }
    }

    /// The score at the start of a PGN move comment, as cutechess-cli,
    /// fastchess, OpenBench and `kestrel match` write it (the inverse of
    /// `Display`): `+0.35`, `-1.20/12 0.2s`, `0.00/0`, `+M5/20`, `-M3`;
    /// `None` for any other comment (`book`, text).
    pub fn from_pgn_comment(comment: &str) -> Option<Score> {
        let first = comment.split_whitespace().next()?;
        let value = first.split('/').next()?.trim_end_matches(',');
        let (negative, digits) = match value.as_bytes().first()? {
            b'+' => (false, &value[1..]),
            b'-' => (true, &value[1..]),
            _ => (false, value),
        };
        if let Some(moves) = digits
            .strip_prefix('M')
            .or_else(|| digits.strip_prefix('#'))
        {
            let n: i32 = moves.parse().ok()?;
            return Some(Score::Mate(if negative { -n } else { n }));
        }
        // Pawns with a decimal point: the digits before and after it.
        let (whole, frac) = digits.split_once('.')?;
        if whole.is_empty()
            || frac.is_empty()
            || !(whole
                .bytes()
                .chain(frac.bytes())
                .all(|b| b.is_ascii_digit()))
        {
            return None;
        }
        let pawns: f64 = digits.parse().ok()?;
        let cp = (pawns * 100.0).round();
        if !(0.0..=1e6).contains(&cp) {
            return None;
        }
        let cp = cp as i32;
        Some(Score::Cp(if negative { -cp } else { cp }))
    }
}

impl fmt::Display for Score {
    /// cutechess-cli's PGN form: `+0.35`, `-1.20`, `+M5`, `-M3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let cp = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", cp / 100, cp % 100)
            }
            Score::Mate(n) => write!(f, "{}M{}", if n < 0 { '-' } else { '+' }, n.unsigned_abs()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_comments_use_cutechess_form() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Cp(-5).to_string(), "-0.05");
        assert_eq!(Score::Mate(5).to_string(), "+M5");
        assert_eq!(Score::Mate(-3).to_string(), "-M3");
    }

    #[test]
    fn pgn_comments_read_back_in_the_usual_forms() {
        use Score::*;
        assert_eq!(Score::from_pgn_comment("+0.35/12 0.2s"), Some(Cp(35)));
        assert_eq!(Score::from_pgn_comment("-1.20/9 0.105s"), Some(Cp(-120)));
        assert_eq!(Score::from_pgn_comment("0.00/0 0s"), Some(Cp(0)));
        assert_eq!(Score::from_pgn_comment("+12.07/30"), Some(Cp(1207)));
        assert_eq!(Score::from_pgn_comment("-0.05"), Some(Cp(-5)));
        assert_eq!(Score::from_pgn_comment("+M5/20 0.1s"), Some(Mate(5)));
        assert_eq!(Score::from_pgn_comment("-M3"), Some(Mate(-3)));
        assert_eq!(Score::from_pgn_comment("+0.35/12, 0.2s"), Some(Cp(35)));
        assert_eq!(Score::from_pgn_comment("book"), None);
        assert_eq!(Score::from_pgn_comment("White mates"), None);
        assert_eq!(Score::from_pgn_comment("1.5s"), None);
        assert_eq!(Score::from_pgn_comment("12"), None);
        assert_eq!(Score::from_pgn_comment(""), None);
        for s in [Cp(0), Cp(7), Cp(-1234), Mate(4), Mate(-1)] {
            assert_eq!(Score::from_pgn_comment(&s.to_string()), Some(s), "{s}");
        }
    }

    #[test]
    fn mates_outrank_every_evaluation_and_nearer_mates_rank_higher() {
        assert!(Score::Mate(-3).centipawns() < -10_000);
        assert!(Score::Mate(2).centipawns() > Score::Mate(5).centipawns());
        assert!(Score::Mate(-2).centipawns() < Score::Mate(-5).centipawns());
        assert!(Score::Mate(9).centipawns() > Score::Cp(5_000).centipawns());
    }

    #[test]
    fn xboard_numbers_round_trip() {
        for s in [
            Score::Cp(0),
            Score::Cp(-35),
            Score::Cp(1234),
            Score::Mate(1),
            Score::Mate(3),
            Score::Mate(-2),
        ] {
            assert_eq!(Score::from_xboard(s.to_xboard()), s);
        }
        assert_eq!(Score::Mate(3).to_xboard(), 100_003);
        assert_eq!(Score::Mate(-2).to_xboard(), -100_002);
    }

    #[test]
    fn numbers_from_other_engines_at_the_ends_of_the_range_do_not_overflow() {
        for n in [i32::MIN, i32::MIN + 1, i32::MAX] {
            for s in [Score::Cp(n), Score::Mate(n), Score::from_xboard(n)] {
                let _ = (s.negated(), s.centipawns(), s.to_xboard(), s.to_string());
            }
        }
        assert_eq!(
            Score::from_xboard(i32::MIN),
            Score::Mate(i32::MIN + 100_000)
        );
        assert!(Score::Mate(i32::MIN).centipawns() < -10_000);
        assert!(Score::Mate(i32::MAX).centipawns() > 10_000);
    }

    #[test]
    fn views_turn_with_the_side() {
        assert_eq!(Score::Cp(50).white_view(Color::Black), Score::Cp(-50));
        assert_eq!(Score::Mate(2).white_view(Color::Black), Score::Mate(-2));
        assert_eq!(Score::Cp(50).white_view(Color::White), Score::Cp(50));
        assert_eq!(Score::Mate(-4).negated(), Score::Mate(4));
    }
}
