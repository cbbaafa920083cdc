//! Positional reasons, for when the tactics say nothing: the terms of the
//! hand-crafted evaluation (`kestrel eval`'s) whose difference between the
//! position after the played move and the one after the best move is
//! largest, each said in words that the board confirms ("leaves the
//! d-pawn isolated", "weakens the king: the h-file opens").

use chess::{Bitboard, Color, File, Move, MoveKind, Position, Role, Square};
use engine::eval::hce::masks::{attack_span, front_span, passed_span, ADJACENT_FILES};
use engine::eval::hce::trace::Coefficients;
use engine::eval::hce::weights::{self, Weights};
use engine::eval::{evaluate_traced, EvalKind, Report};

use crate::words::side;

/// The least difference, in centipawns, a term must make to be named (an
/// isolated centre pawn is worth 13 to 21).
const MIN_CP: i32 = 10;

/// The families of terms that have words, each a range of weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Isolated,
    Doubled,
    KingCover,
    Castling,
    Passed,
    RookFile,
    Outpost,
    Seventh,
}

impl Family {
    const ALL: [Family; 8] = [
        Family::Isolated,
        Family::Doubled,
        Family::KingCover,
        Family::Castling,
        Family::Passed,
        Family::RookFile,
        Family::Outpost,
        Family::Seventh,
    ];

    /// The weights of the family's terms.
    fn weights(self) -> Vec<usize> {
        let range = |first: usize, len: usize| (first..first + len).collect::<Vec<_>>();
        match self {
            Family::Isolated => range(weights::ISOLATED, 8),
            Family::Doubled => range(weights::DOUBLED, 1),
            Family::KingCover => [
                range(weights::KING_SHIELD, 8),
                range(weights::KING_OPEN_FILE, 1),
                range(weights::KING_SEMI_OPEN, 1),
            ]
            .concat(),
            Family::Castling => range(weights::CASTLING_RIGHTS, 1),
            Family::Passed => (weights::PASSED..weights::PASSED_UNSTOPPABLE + 1).collect(),
            Family::RookFile => [
                range(weights::ROOK_OPEN_FILE, 1),
                range(weights::ROOK_SEMI_OPEN_FILE, 1),
            ]
            .concat(),
            Family::Outpost => range(weights::KNIGHT_OUTPOST, 1),
            Family::Seventh => range(weights::ROOK_SEVENTH, 1),
        }
    }
}

/// One position's traced evaluation.
struct Traced {
    pos: Position,
    report: Report,
    counts: Coefficients,
}

impl Traced {
    fn of(pos: Position, w: &Weights) -> Traced {
        let (report, counts) =
            evaluate_traced(&pos, EvalKind::Full, w, None, Coefficients::default());
        Traced {
            pos,
            report,
            counts,
        }
    }

    /// What `family` is worth to `color`, in centipawns at this phase.
    fn worth(&self, family: Family, color: Color, w: &Weights) -> i32 {
        family
            .weights()
            .into_iter()
            .map(|i| {
                w.get(i).blend(self.report.phase, self.report.scale)
                    * self.counts.counts[color.index()][i]
            })
            .sum()
    }
}

fn files_where(pos: &Position, color: Color, test: impl Fn(File) -> bool) -> Vec<File> {
    File::ALL
        .into_iter()
        .filter(|&f| (pos.pieces(color, Role::Pawn) & Bitboard::from_file(f)).any() && test(f))
        .collect()
}

fn isolated_files(pos: &Position, color: Color) -> Vec<File> {
    let pawns = pos.pieces(color, Role::Pawn).bits();
    files_where(pos, color, |f| pawns & ADJACENT_FILES[f.index()] == 0)
}

fn doubled_files(pos: &Position, color: Color) -> Vec<File> {
    files_where(pos, color, |f| {
        (pos.pieces(color, Role::Pawn) & Bitboard::from_file(f)).more_than_one()
    })
}

fn passed_pawns(pos: &Position, color: Color) -> Vec<Square> {
    let own = pos.pieces(color, Role::Pawn).bits();
    let enemy = pos.pieces(!color, Role::Pawn).bits();
    pos.pieces(color, Role::Pawn)
        .into_iter()
        .filter(|&sq| passed_span(color, sq) & enemy == 0 && front_span(color, sq) & own == 0)
        .collect()
}

/// Files beside and of `color`'s king (as king safety counts them) that
/// hold no pawn of `color`.
fn open_king_files(pos: &Position, color: Color) -> Vec<File> {
    let centre = pos.king(color).file().index().clamp(1, 6);
    let own = pos.pieces(color, Role::Pawn);
    (centre - 1..=centre + 1)
        .filter_map(|f| File::new(f as u8))
        .filter(|&f| (own & Bitboard::from_file(f)).is_empty())
        .collect()
}

fn rooks_on_open_files(pos: &Position, color: Color) -> Vec<Square> {
    let own = pos.pieces(color, Role::Pawn);
    pos.pieces(color, Role::Rook)
        .into_iter()
        .filter(|sq| (own & Bitboard::from_file(sq.file())).is_empty())
        .collect()
}

fn knight_outposts(pos: &Position, color: Color) -> Vec<Square> {
    let own = pos.pieces(color, Role::Pawn);
    let enemy = pos.pieces(!color, Role::Pawn).bits();
    pos.pieces(color, Role::Knight)
        .into_iter()
        .filter(|&sq| {
            let rank = sq.rank().relative(color).index();
            let guarded = (chess::attacks::pawn_attacks(!color, sq) & own).any();
            (3..=5).contains(&rank) && guarded && attack_span(color, sq) & enemy == 0
        })
        .collect()
}

fn rooks_on_seventh(pos: &Position, color: Color) -> Vec<Square> {
    pos.pieces(color, Role::Rook)
        .into_iter()
        .filter(|sq| sq.rank().relative(color).index() == 6)
        .collect()
}

/// The first of `now` not in `then`.
fn new_in<T: PartialEq + Copy>(now: &[T], then: &[T]) -> Option<T> {
    now.iter().find(|x| !then.contains(x)).copied()
}

/// A reason in words, present tense and participle.
struct Words {
    present: String,
    participle: String,
}

fn words(present: String, participle: String) -> Option<Words> {
    Some(Words {
        present,
        participle,
    })
}

/// What `family` going wrong for `us` looks like on the board, `worse`
/// being the position after the weaker move and `other` after the other.
fn bad_for(
    family: Family,
    us: Color,
    worse: &Position,
    other: &Position,
    m: Move,
) -> Option<Words> {
    match family {
        Family::Isolated => {
            let f = new_in(&isolated_files(worse, us), &isolated_files(other, us))?.char();
            words(
                format!("leaves the {f}-pawn isolated"),
                format!("leaving the {f}-pawn isolated"),
            )
        }
        Family::Doubled => {
            let f = new_in(&doubled_files(worse, us), &doubled_files(other, us))?.char();
            words(
                format!("doubles the pawns on the {f}-file"),
                format!("doubling the pawns on the {f}-file"),
            )
        }
        Family::KingCover => {
            if let Some(f) = new_in(&open_king_files(worse, us), &open_king_files(other, us)) {
                let f = f.char();
                return words(
                    format!("weakens the king: the {f}-file opens"),
                    format!("weakening the king: the {f}-file opens"),
                );
            }
            let moved_pawn = other.piece_at(m.from()).is_none()
                && worse.piece_at(m.to()).is_some_and(|p| p.role == Role::Pawn);
            moved_pawn.then(|| Words {
                present: "weakens the pawns in front of the king".into(),
                participle: "weakening the pawns in front of the king".into(),
            })
        }
        Family::Castling => {
            let held = |p: &Position| {
                chess::CastlingSide::ALL
                    .iter()
                    .filter(|&&s| p.castling_rights().has(us, s))
                    .count()
            };
            let lost = held(worse) < held(other);
            (lost && m.kind() != MoveKind::Castling).then(|| Words {
                present: "gives up the right to castle".into(),
                participle: "giving up the right to castle".into(),
            })
        }
        Family::Passed => {
            let sq = new_in(&passed_pawns(worse, !us), &passed_pawns(other, !us))?;
            let (them, f) = (side(!us), sq.file().char());
            words(
                format!("gives {them} a passed pawn on the {f}-file"),
                format!("giving {them} a passed pawn on the {f}-file"),
            )
        }
        Family::RookFile | Family::Outpost | Family::Seventh => None,
    }
}

/// What `family` going right for `us` looks like on the board, `better`
/// being the position after the stronger move and `other` after the other.
fn good_for(family: Family, us: Color, better: &Position, other: &Position) -> Option<Words> {
    match family {
        Family::Passed => {
            let sq = new_in(&passed_pawns(better, us), &passed_pawns(other, us))?;
            let f = sq.file().char();
            words(
                format!("creates a passed pawn on the {f}-file"),
                format!("creating a passed pawn on the {f}-file"),
            )
        }
        Family::RookFile => {
            let sq = new_in(
                &rooks_on_open_files(better, us),
                &rooks_on_open_files(other, us),
            )?;
            let f = sq.file().char();
            words(
                format!("puts the rook on the open {f}-file"),
                format!("putting the rook on the open {f}-file"),
            )
        }
        Family::Outpost => {
            let sq = new_in(&knight_outposts(better, us), &knight_outposts(other, us))?;
            words(
                format!("puts the knight on an outpost on {sq}"),
                format!("putting the knight on an outpost on {sq}"),
            )
        }
        Family::Seventh => {
            new_in(&rooks_on_seventh(better, us), &rooks_on_seventh(other, us))?;
            words(
                "puts the rook on the seventh rank".into(),
                "putting the rook on the seventh rank".into(),
            )
        }
        Family::Isolated => {
            let f = new_in(&isolated_files(better, !us), &isolated_files(other, !us))?.char();
            let them = side(!us);
            words(
                format!("leaves {them} an isolated {f}-pawn"),
                format!("leaving {them} an isolated {f}-pawn"),
            )
        }
        Family::Doubled => {
            let f = new_in(&doubled_files(better, !us), &doubled_files(other, !us))?.char();
            let them = side(!us);
            words(
                format!("doubles {them}'s pawns on the {f}-file"),
                format!("doubling {them}'s pawns on the {f}-file"),
            )
        }
        Family::KingCover => {
            let f = new_in(&open_king_files(better, !us), &open_king_files(other, !us))?.char();
            let them = side(!us);
            words(
                format!("opens the {f}-file towards {them}'s king"),
                format!("opening the {f}-file towards {them}'s king"),
            )
        }
        Family::Castling => None,
    }
}

/// Both moves played from `pos`, traced; none when either is illegal.
fn traced_pair(pos: &Position, a: Move, b: Move) -> Option<(Traced, Traced)> {
    if !pos.is_legal(a) || !pos.is_legal(b) {
        return None;
    }
    let w = Weights::default_shared();
    let after = |m: Move| {
        let mut p = *pos;
        p.play_unchecked(m);
        Traced::of(p, &w)
    };
    Some((after(a), after(b)))
}

/// The family whose worth to the mover differs most between the two
/// positions (first minus second, the mover's view, opponent's terms
/// counted against it) in the direction `sign`, with its words.
fn largest(
    first: &Traced,
    second: &Traced,
    us: Color,
    sign: i32,
    say: impl Fn(Family, Color) -> Option<Words>,
) -> Option<Words> {
    let w = Weights::default_shared();
    let mut found: Vec<(i32, Family, Color)> = Vec::new();
    for family in Family::ALL {
        for (who, factor) in [(us, 1), (!us, -1)] {
            let diff = factor * (first.worth(family, who, &w) - second.worth(family, who, &w));
            if sign * diff >= MIN_CP {
                found.push((sign * diff, family, who));
            }
        }
    }
    found.sort_by_key(|&(d, ..)| -d);
    found
        .into_iter()
        .find_map(|(_, family, who)| say(family, who))
}

/// Why `played` is positionally worse than `best` from `pos`, present
/// tense ("leaves the d-pawn isolated"); none when no term with words
/// sets them apart by enough.
pub fn worse(pos: &Position, played: Move, best: Move) -> Option<String> {
    let us = pos.turn();
    let (p, b) = traced_pair(pos, played, best)?;
    largest(&p, &b, us, -1, |family, who| {
        // Our own term worse, or the opponent's better (counted against us).
        if who == us {
            bad_for(family, us, &p.pos, &b.pos, played)
        } else {
            match family {
                Family::Passed => bad_for(family, us, &p.pos, &b.pos, played),
                _ => None,
            }
        }
    })
    .map(|w| w.present)
}

/// Why `best` is positionally better than `played` from `pos`, as a
/// participle ("putting the rook on the open d-file"); none when no term
/// with words sets them apart by enough.
pub fn better(pos: &Position, best: Move, played: Move) -> Option<String> {
    let us = pos.turn();
    let (b, p) = traced_pair(pos, best, played)?;
    largest(&b, &p, us, 1, |family, who| {
        if who == us {
            match family {
                Family::Passed | Family::RookFile | Family::Outpost | Family::Seventh => {
                    good_for(family, us, &b.pos, &p.pos)
                }
                _ => None,
            }
        } else {
            match family {
                Family::Isolated | Family::Doubled | Family::KingCover => {
                    good_for(family, us, &b.pos, &p.pos)
                }
                _ => None,
            }
        }
    })
    .map(|w| w.participle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(fen: &str, a: &str, b: &str) -> (Position, Move, Move) {
        let pos = Position::from_fen(fen).expect("a position");
        let a = pos.parse_san(a).expect("legal");
        let b = pos.parse_san(b).expect("legal");
        (pos, a, b)
    }

    #[test]
    fn taking_away_from_the_centre_isolates_a_pawn() {
        // exd3 leaves the f-pawn alone; cxd3 keeps every pawn connected.
        let (pos, played, best) = moves("4k3/8/8/8/8/3n4/2P1PP2/6K1 w - - 0 1", "exd3", "cxd3");
        assert_eq!(
            worse(&pos, played, best).as_deref(),
            Some("leaves the f-pawn isolated")
        );
        assert_eq!(better(&pos, best, played), None, "no term of its own");
    }

    #[test]
    fn a_rook_on_the_open_file_is_named() {
        // Rd1 takes the open d-file; Ra1 stays behind the a-pawn.
        let (pos, best, played) = moves(
            "r3kbn1/pp3ppp/2n5/8/8/2N5/PP3PPP/1R2KBN1 w - - 0 1",
            "Rd1",
            "Ra1",
        );
        assert_eq!(
            better(&pos, best, played).as_deref(),
            Some("putting the rook on the open d-file")
        );
    }
}
