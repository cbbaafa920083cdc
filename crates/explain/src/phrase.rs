//! Each motif in words, three ways: what the move does ("forks the queen on
//! c7 and the rook on e7"), the same as a participle for "Best was Nd5,
//! forking ..." and, for a refutation, what the opponent's move is ("a
//! fork: the knight attacks ...").

use chess::{Color, Move, Position};

use crate::board::{attackers, landing, placed};
use crate::motif::{MatePattern, Motif, Placed};
use crate::words::{list, piece, role, side};

/// How a motif is worded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// "forks the queen on c7 and the rook on e7".
    Present,
    /// "forking the queen on c7 and the rook on e7".
    Participle,
}

fn verb(form: Form, present: &str, participle: &str) -> String {
    match form {
        Form::Present => present.to_string(),
        Form::Participle => participle.to_string(),
    }
}

fn pattern_name(pattern: Option<MatePattern>) -> Option<&'static str> {
    pattern.map(|p| match p {
        MatePattern::BackRank => "a back-rank mate",
        MatePattern::Smothered => "a smothered mate",
    })
}

/// What `motif` (of a move by `mover`) does, in `form`; none for a motif
/// that says nothing about the move on its own.
pub fn does(motif: &Motif, mover: Color, form: Form) -> Option<String> {
    let v = |p: &str, q: &str| verb(form, p, q);
    Some(match motif {
        Motif::Mate {
            moves: 1, pattern, ..
        } => match pattern_name(*pattern) {
            Some(name) => format!("{} {name}", v("gives", "giving")),
            None => v("mates", "mating"),
        },
        Motif::Mate { moves, pattern, .. } => {
            let base = format!("{} mate in {moves}", v("forces", "forcing"));
            match pattern_name(*pattern) {
                Some(name) => format!("{base} ({name})"),
                None => base,
            }
        }
        Motif::MateThreat { mating } => format!("{} {mating}", v("threatens", "threatening")),
        Motif::Fork { targets, .. } => format!(
            "{} {}",
            v("forks", "forking"),
            list(&targets.iter().map(|&t| piece(t)).collect::<Vec<_>>())
        ),
        Motif::Pin { pinned, behind, .. } => format!(
            "{} {} to {}",
            v("pins", "pinning"),
            piece(*pinned),
            piece(*behind)
        ),
        Motif::Skewer { front, behind, .. } => format!(
            "{} {} and {} behind it",
            v("skewers", "skewering"),
            piece(*front),
            piece(*behind)
        ),
        Motif::DiscoveredAttack { slider, target, .. } => format!(
            "{} an attack by {} on {}",
            v("uncovers", "uncovering"),
            piece(*slider),
            piece(*target)
        ),
        Motif::DiscoveredCheck { slider, double, .. } => {
            if *double {
                format!("{} double check", v("gives", "giving"))
            } else {
                format!(
                    "{} a discovered check from {}",
                    v("gives", "giving"),
                    piece(*slider)
                )
            }
        }
        Motif::RemovedDefender { defender, left } => format!(
            "{} {}, the only defender of {}",
            v("removes", "removing"),
            piece(*defender),
            piece(*left)
        ),
        Motif::Overloaded { defender, left } => format!(
            "{} {}, which also has to guard {}",
            v("overloads", "overloading"),
            piece(*defender),
            piece(*left)
        ),
        Motif::Trapped { piece: p } => format!("{} {}", v("traps", "trapping"), piece(*p)),
        Motif::Promotion { square, role: r } => {
            format!(
                "{} to a {} on {square}",
                v("promotes", "promoting"),
                role(*r)
            )
        }
        Motif::PassedPawnRun { pawn, promotes } => format!(
            "{} the passed {}-pawn through to {promotes}",
            v("pushes", "pushing"),
            pawn.square.file().char()
        ),
        Motif::WinsHanging {
            target, defended, ..
        } => {
            let what = if *defended {
                piece(*target)
            } else {
                piece(*target).replacen("the ", "the undefended ", 1)
            };
            format!("{} {what}", v("wins", "winning"))
        }
        Motif::Perpetual { .. } => format!("{} perpetual check", v("gives", "giving")),
        Motif::Stalemate { stalemated } if *stalemated == mover => {
            v("heads for stalemate", "heading for stalemate")
        }
        Motif::Stalemate { stalemated } => {
            format!("{} {}", v("stalemates", "stalemating"), side(*stalemated))
        }
    })
}

/// What the opponent's move that exploits `motif` is, as a refutation
/// names it in brackets; none for motifs a refutation does not name.
/// `before`: the position before the refuted move `mv` (a piece taken
/// where the move put it was not left behind but put there; one the taker
/// attacked already was left to it, not merely undefended).
pub fn refutes(motif: &Motif, before: &Position, mv: Move) -> Option<String> {
    let moved_to = Some(landing(before, mv));
    Some(match motif {
        Motif::Fork { forker, targets } => format!(
            "a fork: the {} attacks {}",
            role(forker.role()),
            list(&targets.iter().map(|&t| piece(t)).collect::<Vec<_>>())
        ),
        Motif::Pin {
            pinner,
            pinned,
            behind,
        } => format!(
            "a pin: the {} pins {} to {}",
            role(pinner.role()),
            piece(*pinned),
            piece(*behind)
        ),
        Motif::Skewer {
            attacker,
            front,
            behind,
        } => format!(
            "a skewer: the {} attacks the {}, then {}",
            role(attacker.role()),
            role(front.role()),
            piece(*behind)
        ),
        Motif::DiscoveredAttack { slider, target, .. } => format!(
            "a discovered attack: {} now attacks {}",
            piece(*slider),
            piece(*target)
        ),
        Motif::DiscoveredCheck { slider, double, .. } => {
            if *double {
                "a double check".to_string()
            } else {
                format!("a discovered check from {}", piece(*slider))
            }
        }
        Motif::RemovedDefender { defender, left } => format!(
            "removing the defender: {} alone guarded {}",
            piece(*defender),
            piece(*left)
        ),
        Motif::Overloaded { defender, left } => format!(
            "an overloaded defender: {} also had to guard {}",
            piece(*defender),
            piece(*left)
        ),
        Motif::Trapped { piece: p } => format!("{} is trapped", piece(*p)),
        Motif::WinsHanging { taker, target, .. }
            if moved_to != Some(target.square) && attacked_already(before, *taker, *target) =>
        {
            format!(
                "{}, attacked by {}, was left there",
                piece(*target),
                piece(*taker)
            )
        }
        Motif::WinsHanging {
            target, defended, ..
        } => match (moved_to == Some(target.square), *defended) {
            (true, false) => format!("nothing defends {} there", piece(*target)),
            (true, true) => format!("{} is en prise there", piece(*target)),
            (false, false) => format!("{} was left undefended", piece(*target)),
            (false, true) => format!("{} was left en prise", piece(*target)),
        },
        Motif::Promotion { square, .. } => format!("the pawn promotes on {square}"),
        Motif::PassedPawnRun { pawn, promotes } => format!(
            "the passed {}-pawn runs through to {promotes}",
            pawn.square.file().char()
        ),
        Motif::Mate { .. }
        | Motif::MateThreat { .. }
        | Motif::Perpetual { .. }
        | Motif::Stalemate { .. } => return None,
    })
}

/// True when `taker` attacked `target`, both where they stand, before the
/// refuted move: the move left the piece to a threat it could see, which
/// says more than "undefended" (Anderssen's 10. Rg1 and the bishop on b5
/// that 9... c6 attacked).
fn attacked_already(before: &Position, taker: Placed, target: Placed) -> bool {
    placed(before, target.square) == Some(target)
        && placed(before, taker.square) == Some(taker)
        && attackers(before, target.square, taker.piece.color).contains(taker.square)
}

/// How much a motif tells, for choosing the one to say: mates first, then
/// promotions, the double attacks and line tactics, removed and overloaded
/// defenders, trapped and hanging pieces, draws, and threats last.
pub fn rank(motif: &Motif) -> u8 {
    match motif {
        Motif::Mate { .. } => 0,
        Motif::Promotion { .. } | Motif::PassedPawnRun { .. } => 1,
        Motif::Fork { .. } => 2,
        Motif::Skewer { .. } => 3,
        Motif::Pin { .. } => 4,
        Motif::DiscoveredAttack { .. } => 5,
        Motif::DiscoveredCheck { .. } => 6,
        Motif::RemovedDefender { .. } => 7,
        Motif::Overloaded { .. } => 8,
        Motif::Trapped { .. } => 9,
        Motif::WinsHanging { .. } => 10,
        Motif::Perpetual { .. } => 11,
        Motif::Stalemate { .. } => 12,
        Motif::MateThreat { .. } => 13,
    }
}
