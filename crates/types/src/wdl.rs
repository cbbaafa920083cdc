//! A position's value in endgame tables (Syzygy's five values).

/// A position's value in the tables, from the side to move's view, with
/// Syzygy's five values: wins and losses that the fifty-move rule turns into
/// draws are "cursed" and "blessed".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss = -2,
    /// Lost, but saved by the fifty-move rule.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won, but spoiled by the fifty-move rule.
    CursedWin = 1,
    /// Won.
    Win = 2,
}

impl Wdl {
    /// Syzygy's number for the value: -2 (loss) to 2 (win).
    pub const fn as_i32(self) -> i32 {
        self as i32
    }

    /// The value from a number -2..=2.
    pub const fn from_i32(n: i32) -> Option<Wdl> {
        Some(match n {
            -2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            2 => Wdl::Win,
            _ => return None,
        })
    }

    /// The same position from the other side's view.
    pub const fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_numbers() {
        for n in -2..=2 {
            let w = Wdl::from_i32(n).unwrap();
            assert_eq!(w.as_i32(), n);
            assert_eq!(w.flip().as_i32(), -n);
        }
        assert_eq!(Wdl::from_i32(3), None);
    }
}
