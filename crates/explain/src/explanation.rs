//! One move explained: its motifs and its reply's, found on the board and
//! the engine's line after it, and the sentences made of them. Finding
//! (`tactics/`) and wording (`phrase.rs`, `words.rs`) stay apart; this
//! file decides which motif a sentence names.

use chess::{Color, Move, Position};

use crate::motif::{MatePattern, Motif};
use crate::phrase::{does, rank, refutes, Form};
use crate::tactics::find;
use crate::threat::{threat, Threat};
use crate::walk::Walk;
use crate::words::material_lost;

/// What the line must win or lose, in centipawns, before a sentence says so.
const MATERIAL: i32 = 100;

/// A move and the engine's line after it, explained.
#[derive(Clone, Debug)]
pub struct Explanation {
    walk: Walk,
    san: String,
    /// The motifs of the move itself (the mover's).
    pub motifs: Vec<Motif>,
    /// The motifs of the reply, the line's next move (the opponent's).
    pub reply: Vec<Motif>,
}

/// Explains `mv` from `pos` with `line`, the engine's line after it (the
/// opponent's reply first; as much of it as is legal is used). None when
/// `mv` is not legal in `pos`.
pub fn explain(pos: &Position, mv: Move, line: &[Move]) -> Option<Explanation> {
    explain_after(None, pos, mv, line)
}

/// [`explain`] for a move of a game whose previous move is known
/// (`previous`: the position before it and the move), so that a
/// recapture is told from a capture that wins.
pub fn explain_after(
    previous: Option<(&Position, Move)>,
    pos: &Position,
    mv: Move,
    line: &[Move],
) -> Option<Explanation> {
    let mut walk = Walk::new(pos, mv, line)?;
    if let Some((before, m)) = previous {
        walk = walk.following(before, m);
    }
    let san = pos.san(mv);
    let motifs = find(&walk, 0);
    let reply = find(&walk, 1);
    Some(Explanation {
        walk,
        san,
        motifs,
        reply,
    })
}

/// The most telling motif of `motifs` that `keep` accepts.
fn first(motifs: &[Motif], keep: impl Fn(&Motif) -> bool) -> Option<&Motif> {
    motifs.iter().filter(|m| keep(m)).min_by_key(|m| rank(m))
}

impl Explanation {
    /// The move in SAN.
    pub fn san(&self) -> &str {
        &self.san
    }

    /// The side that made it.
    pub fn mover(&self) -> Color {
        self.walk.side(0)
    }

    /// The move.
    pub fn mv(&self) -> Move {
        self.walk.mv(0)
    }

    /// The walk: the move and the legal part of the line, played out.
    pub fn walk(&self) -> &Walk {
        &self.walk
    }

    /// The material the line wins for the mover (negative: loses), in
    /// centipawns, to where it comes to rest; a recapture's piece taken
    /// back does not count (it only restores the balance).
    pub fn gain(&self) -> i32 {
        self.walk.gain(0) - self.walk.retaken(0)
    }

    /// True when the line ends in mate of the mover.
    pub fn gets_mated(&self) -> bool {
        self.walk.len() > 1 && self.walk.mates(1)
    }

    /// True when the line shows the move going wrong: it loses material or
    /// allows mate.
    pub fn is_bad(&self) -> bool {
        self.gets_mated() || (self.gain() <= -MATERIAL && !self.walk.mates(0))
    }

    /// Where the material first comes to rest after the move, when it
    /// does: the position material may be counted in.
    fn rest(&self) -> Option<&Position> {
        let i = self.walk.rest(1);
        self.walk.is_quiet(i).then(|| self.walk.before(i))
    }

    /// The material the line wins, in words ("a piece", "the exchange").
    fn won_words(&self) -> Option<String> {
        material_lost(self.walk.before(0), self.rest()?, !self.mover())
    }

    /// The material the line loses, in words ("the queen").
    fn lost_words(&self) -> String {
        self.rest()
            .and_then(|end| material_lost(self.walk.before(0), end, self.mover()))
            .unwrap_or_else(|| "material".to_string())
    }

    /// The move's own motif worth saying first, when the move goes right.
    fn idea_motif(&self) -> Option<&Motif> {
        if self.is_bad() {
            return None;
        }
        first(&self.motifs, |m| {
            does(m, self.mover(), Form::Present).is_some()
        })
    }

    /// What the move does, one sentence in the present tense ("Nd5 forks
    /// the queen on c7 and the rook on e7."): its most telling motif, else
    /// the material its line wins, else what it threatens; none when the
    /// line shows it going wrong or nothing certain can be said.
    pub fn idea(&self) -> Option<String> {
        Some(format!("{} {}.", self.san, self.idea_words(Form::Present)?))
    }

    /// [`Explanation::idea`] without the move, in `form`.
    pub fn idea_words(&self, form: Form) -> Option<String> {
        if let Some(m) = self.idea_motif() {
            return does(m, self.mover(), form);
        }
        if self.is_bad() {
            return None;
        }
        if self.gain() >= MATERIAL {
            let won = self.won_words()?;
            return Some(match form {
                Form::Present => format!("wins {won}"),
                Form::Participle => format!("winning {won}"),
            });
        }
        // A threat the move makes that no motif names (a capture).
        match threat(self.walk.after(0))? {
            Threat::Wins { by, .. } if by == self.mover() => {
                let t = threat(self.walk.after(0))?;
                Some(match form {
                    Form::Present => format!("threatens {}", t.words()),
                    Form::Participle => format!("threatening {}", t.words()),
                })
            }
            _ => None,
        }
    }

    /// Why the move goes wrong, one sentence ("Qxb7 loses the queen to Rb8
    /// (a skewer: the rook attacks the queen, then the knight on b1).");
    /// none when the line shows nothing wrong.
    pub fn refutation(&self) -> Option<String> {
        let san = &self.san;
        let reply_san = (self.walk.len() > 1).then(|| self.walk.before(1).san(self.walk.mv(1)));
        if let Some(Motif::Mate {
            moves,
            mating,
            pattern,
        }) = first(&self.reply, |m| matches!(m, Motif::Mate { .. }))
        {
            let what = match pattern {
                Some(MatePattern::BackRank) => "a back-rank mate",
                Some(MatePattern::Smothered) => "a smothered mate",
                None => "mate",
            };
            return Some(if *moves == 1 {
                format!("{san} allows {what}: {mating}.")
            } else {
                format!(
                    "{san} allows {what} in {moves}, starting with {}.",
                    reply_san.unwrap_or_default()
                )
            });
        }
        if let Some(Motif::Stalemate { stalemated }) =
            first(&self.motifs, |m| matches!(m, Motif::Stalemate { .. }))
        {
            if *stalemated != self.mover() {
                return Some(format!("{san} stalemates: the game is drawn."));
            }
        }
        if first(&self.reply, |m| matches!(m, Motif::Perpetual { .. })).is_some() {
            return Some(format!(
                "{san} allows perpetual check, starting with {}.",
                reply_san.unwrap_or_default()
            ));
        }
        if self.gain() > -MATERIAL || self.walk.mates(0) {
            return None;
        }
        let lost = self.lost_words();
        let reply_san = reply_san?;
        let (before, mv) = (self.walk.before(0), self.mv());
        let clause = first(&self.reply, |m| refutes(m, before, mv).is_some())
            .and_then(|m| refutes(m, before, mv));
        if let Some(clause) = clause {
            return Some(format!("{san} loses {lost} to {reply_san} ({clause})."));
        }
        if self.walk.captured(1).is_some() {
            return Some(format!("{san} loses {lost} to {reply_san}."));
        }
        None
    }

    /// The move's one sentence: why it goes wrong when the line shows that,
    /// else what it does.
    pub fn sentence(&self) -> Option<String> {
        if self.is_bad() {
            self.refutation()
        } else {
            self.idea()
        }
    }

    /// The line in SAN with move numbers ("23. Nd5 Qd8 24. Nxe7+").
    pub fn line_text(&self) -> String {
        let mut out = Vec::new();
        for (p, &m) in self.walk.moves_from(0).iter().enumerate() {
            let pos = self.walk.before(p);
            let number = pos.fullmove_number();
            if pos.turn() == Color::White {
                out.push(format!("{number}. {}", pos.san(m)));
            } else if p == 0 {
                out.push(format!("{number}... {}", pos.san(m)));
            } else {
                out.push(pos.san(m));
            }
        }
        out.join(" ")
    }

    /// Every move of the line with its motifs, one line each (the detail
    /// given on request): "24. Nxe7+ (White): wins the undefended rook on e7".
    pub fn detail(&self) -> Vec<String> {
        let mut out = Vec::new();
        for p in 0..self.walk.len() {
            let pos = self.walk.before(p);
            let mover = pos.turn();
            let found = match p {
                0 => self.motifs.clone(),
                1 => self.reply.clone(),
                _ => find(&self.walk, p),
            };
            let said: Vec<String> = found
                .iter()
                .filter_map(|m| {
                    does(m, mover, Form::Present).map(|w| format!("{} ({w})", m.kind()))
                })
                .collect();
            if !said.is_empty() {
                let dots = if mover == Color::White { "." } else { "..." };
                out.push(format!(
                    "{}{dots} {}: {}",
                    pos.fullmove_number(),
                    pos.san(self.walk.mv(p)),
                    said.join("; ")
                ));
            }
        }
        out
    }

    /// The motifs of every move of the line, by ply (0: the move).
    pub fn motifs_by_ply(&self) -> Vec<Vec<Motif>> {
        (0..self.walk.len())
            .map(|p| match p {
                0 => self.motifs.clone(),
                1 => self.reply.clone(),
                _ => find(&self.walk, p),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `san` then the line `sans` from `fen`, explained.
    fn explained(fen: &str, san: &str, sans: &[&str]) -> Explanation {
        let pos = Position::from_fen(fen).expect("a position");
        let mv = pos.parse_san(san).expect("legal");
        let mut at = pos;
        at.play_unchecked(mv);
        let mut line = Vec::new();
        for s in sans {
            let m = at.parse_san(s).expect("legal in the line");
            at.play_unchecked(m);
            line.push(m);
        }
        explain(&pos, mv, &line).expect("legal")
    }

    #[test]
    fn a_knight_fork_is_named_with_its_targets() {
        let e = explained(
            "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1",
            "Nc7+",
            &["Kd7", "Nxa8", "Kc8"],
        );
        assert!(matches!(&e.motifs[0], Motif::Fork { targets, .. } if targets.len() == 2));
        assert_eq!(
            e.sentence().as_deref(),
            Some("Nc7+ forks the rook on a8 and the king.")
        );
    }

    #[test]
    fn a_move_that_allows_mate_says_so() {
        let e = explained(
            "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
            "Nf6",
            &["Qxf7#"],
        );
        assert!(e.is_bad());
        assert_eq!(e.sentence().as_deref(), Some("Nf6 allows mate: Qxf7#."));
    }

    #[test]
    fn a_skewer_refutes_a_greedy_capture() {
        let e = explained(
            "r5k1/1p3ppp/8/3Q4/8/8/5PPP/1N4K1 w - - 0 1",
            "Qxb7",
            &["Rb8", "Qa6", "Rxb1+"],
        );
        assert_eq!(
            e.sentence().as_deref(),
            Some(
                "Qxb7 loses a piece for a pawn to Rb8 (a skewer: the rook attacks the queen, \
                 then the knight on b1)."
            )
        );
    }

    #[test]
    fn a_piece_left_to_its_attacker_is_said_so() {
        // The pawn on c6 attacked the bishop before h3; "undefended" would
        // miss that the move ignored a threat.
        let e = explained("4k3/8/2p5/1B6/8/8/7P/4K3 w - - 0 1", "h3", &["cxb5"]);
        assert_eq!(
            e.sentence().as_deref(),
            Some("h3 loses a piece to cxb5 (the bishop on b5, attacked by the pawn on c6, was left there).")
        );
    }

    #[test]
    fn a_pin_that_wins_the_queen() {
        let e = explained(
            "4k3/3q4/8/8/P7/8/8/4KB2 w - - 0 1",
            "Bb5",
            &["Qxb5", "axb5", "Kd7"],
        );
        assert!(e
            .motifs
            .iter()
            .any(|m| matches!(m, Motif::Pin { behind, .. } if behind.role() == chess::Role::King)));
        assert_eq!(
            e.sentence().as_deref(),
            Some("Bb5 pins the queen on d7 to the king.")
        );
    }

    #[test]
    fn a_back_rank_mate_has_its_name() {
        let e = explained("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "Rd8#", &[]);
        assert_eq!(e.motifs[0].kind(), "back_rank");
        assert_eq!(
            e.sentence().as_deref(),
            Some("Rd8# gives a back-rank mate.")
        );
    }

    #[test]
    fn a_quiet_move_with_a_quiet_line_says_nothing() {
        let e = explained(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "e4",
            &["e5", "Nf3", "Nc6"],
        );
        assert!(e.motifs.is_empty() && e.reply.is_empty());
        assert_eq!(e.sentence(), None);
    }

    #[test]
    fn an_illegal_line_is_cut_where_it_stops_being_legal() {
        let pos = Position::startpos();
        let e4 = pos.parse_san("e4").expect("legal");
        let e5 = {
            let mut p = pos;
            p.play_unchecked(e4);
            p.parse_san("e5").expect("legal")
        };
        // e4 again is not legal after 1. e4 e5: the line stops before it.
        let e = explain(&pos, e4, &[e5, e4]).expect("e4 is legal");
        assert_eq!(e.walk().len(), 2);
        assert!(explain(&pos, e5, &[]).is_none(), "e5 is Black's move");
    }
}
