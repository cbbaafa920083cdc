//! What a side threatens: were it to move again now (its opponent doing
//! nothing), the mate in one it has, or the capture that wins the most by
//! static exchange. The analysis board says what the opponent threatens in
//! the position on view; a move's idea includes what it threatens.

use chess::{Color, Position, Role};

use crate::board::{best_capture, captured, mates_in_one, passed, placed, value};
use crate::motif::Placed;
use crate::words::{piece, role, side};

/// Material a capture must win to be a threat worth naming.
const MIN_WON: i32 = 150;

/// A threat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Threat {
    /// A mate in one.
    Mate {
        /// The side that threatens.
        by: Color,
        /// The mating move, in SAN.
        san: String,
    },
    /// A capture that wins material.
    Wins {
        /// The side that threatens.
        by: Color,
        /// The capture, in SAN.
        san: String,
        /// The piece that takes.
        taker: Placed,
        /// What it takes.
        target: Placed,
        /// What the exchange wins, centipawns.
        won: i32,
    },
}

/// What the side not to move in `pos` threatens; none in check (the side
/// to move must answer the check) or when it threatens nothing.
pub fn threat(pos: &Position) -> Option<Threat> {
    let again = passed(pos)?;
    let by = again.turn();
    if let Some(&m) = mates_in_one(&again).first() {
        return Some(Threat::Mate {
            by,
            san: again.san(m),
        });
    }
    let (m, won) = best_capture(&again)?;
    let target = captured(&again, m)?;
    let taker = placed(&again, m.from())?;
    (won >= MIN_WON && target.role() != Role::Pawn).then(|| Threat::Wins {
        by,
        san: again.san(m),
        taker,
        target,
        won,
    })
}

impl Threat {
    /// The threat in words, without its side: "Qh7#", "Bxf6, winning the
    /// knight on f6".
    pub fn words(&self) -> String {
        match self {
            Threat::Mate { san, .. } => san.clone(),
            Threat::Wins {
                san,
                taker,
                target,
                won,
                ..
            } => {
                let given_back = value(target.role()) - won;
                let what = if given_back <= 20 {
                    piece(*target)
                } else if (given_back - value(taker.role())).abs() <= 60 {
                    format!("{} for the {}", piece(*target), role(taker.role()))
                } else {
                    format!("material on {}", target.square)
                };
                format!("{san}, winning {what}")
            }
        }
    }

    /// "White threatens Qh7#."
    pub fn sentence(&self) -> String {
        let by = match self {
            Threat::Mate { by, .. } | Threat::Wins { by, .. } => *by,
        };
        format!("{} threatens {}.", side(by), self.words())
    }
}
