//! Score-based adjudication for every way Kestrel plays games: a draw when
//! the scores stay near zero, a win when the scores keep saying one side is
//! far ahead. Two ways of counting: Kestrel's streaks ([`Adjudicator`]:
//! SPSA's cutechess-cli rules, the arena, the GA and datagen) and
//! fastchess's trackers ([`FastchessAdjudicator`]: `kestrel match`, so that
//! a fastchess command line ends its games on the same plies).

use chess::{Color, Position};
use types::Score;

/// Draw adjudication: from ply `from_ply` on, `plies` plies in a row on
/// which the mover's score is within `score` of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first ply that counts, on the caller's count (see
    /// [`Adjudicator::record`]).
    pub from_ply: u32,
    /// Plies in a row the scores must stay low.
    pub plies: u32,
    /// The score bound in centipawns.
    pub score: i32,
}

impl DrawRule {
    /// cutechess-cli's `-draw movenumber=N movecount=M score=S`: from full
    /// move N, M moves by each side, plies counted as [`absolute_ply`] does.
    pub fn cutechess(move_number: u32, move_count: u32, score: i32) -> DrawRule {
        DrawRule {
            from_ply: 2 * move_number.saturating_sub(1),
            plies: 2 * move_count,
            score,
        }
    }
}

/// Resign adjudication: when the scores say a side has lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResignRule {
    /// The loser's own score is at most `-score` for `moves` of its moves in
    /// a row (cutechess-cli's `-resign`, one-sided).
    OneSided {
        /// The score bound in centipawns.
        score: i32,
        /// The loser's consecutive moves.
        moves: u32,
    },
    /// Both sides agree: `plies` plies in a row on which every mover's score
    /// puts the same side at least `score` ahead (cutechess-cli's
    /// `twosided=true`, two plies a move; datagen's `--win-plies`).
    Agreed {
        /// The score bound in centipawns.
        score: i32,
        /// Consecutive plies, both sides' moves counted.
        plies: u32,
    },
}

impl ResignRule {
    /// cutechess-cli's `-resign movecount=M score=S [twosided=B]`.
    pub fn cutechess(move_count: u32, score: i32, two_sided: bool) -> ResignRule {
        if two_sided {
            ResignRule::Agreed {
                score,
                plies: 2 * move_count,
            }
        } else {
            ResignRule::OneSided {
                score,
                moves: move_count,
            }
        }
    }

    fn score(self) -> i32 {
        match self {
            ResignRule::OneSided { score, .. } | ResignRule::Agreed { score, .. } => score,
        }
    }
}

/// The ply a move made in `pos` is made at, counted from the game's first
/// move as the position's full move number says (cutechess's count).
pub fn absolute_ply(pos: &chess::Position) -> u32 {
    2 * pos.fullmove_number().saturating_sub(1) + pos.turn().fold(0, 1)
}

/// What the scores decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Play on.
    Continue,
    /// Drawn by low scores.
    Draw,
    /// This side wins: the scores say the other has lost.
    Win(Color),
}

/// Counts consecutive qualifying moves during one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Consecutive plies with the scores low.
    draw_plies: u32,
    /// Per side (White, Black): consecutive own moves with score <= -bound.
    losing: [u32; 2],
    /// Per side: consecutive own moves with score >= bound.
    winning: [u32; 2],
}

impl Adjudicator {
    /// A fresh counter for one game.
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            draw_plies: 0,
            losing: [0; 2],
            winning: [0; 2],
        }
    }

    /// Records the score of `mover`'s move (centipawns, mover's view; `None`
    /// when the player gave none), made at `ply` (counted as the draw rule's
    /// `from_ply` is: [`absolute_ply`] for cutechess's rules, plies since the
    /// game's first position for datagen's).
    pub fn record(&mut self, mover: Color, ply: u32, score: Option<i32>) -> Verdict {
        // The draw first, as cutechess-cli does (both can hold only when the
        // resign bound is within the draw bound).
        if let Some(rule) = self.draw {
            match score {
                Some(s) if s.abs() <= rule.score && ply >= rule.from_ply => {
                    self.draw_plies += 1;
                    if self.draw_plies >= rule.plies {
                        return Verdict::Draw;
                    }
                }
                _ => self.draw_plies = 0,
            }
        }
        let Some(rule) = self.resign else {
            return Verdict::Continue;
        };
        let me = mover.fold(0, 1);
        let them = 1 - me;
        let bound = rule.score();
        self.losing[me] = match score {
            Some(s) if s <= -bound => self.losing[me] + 1,
            _ => 0,
        };
        self.winning[me] = match score {
            Some(s) if s >= bound => self.winning[me] + 1,
            _ => 0,
        };
        // How many own moves in a row the loser and the winner need, when
        // the mover loses and when the other side does.
        let (if_mover_loses, if_they_lose) = match rule {
            ResignRule::OneSided { moves, .. } => ((moves, 0), (moves, 0)),
            ResignRule::Agreed { plies, .. } => {
                // A run of `plies` plies ending with this move holds the
                // mover's last ceil(plies/2) moves and the other's last floor.
                let plies = plies.max(1);
                let (mine, theirs) = (plies.div_ceil(2), plies / 2);
                ((mine, theirs), (theirs, mine))
            }
        };
        let loses = |loser: usize, (need_loser, need_winner): (u32, u32)| {
            self.losing[loser] >= need_loser && self.winning[1 - loser] >= need_winner
        };
        if loses(me, if_mover_loses) {
            return Verdict::Win(!mover);
        }
        if loses(them, if_they_lose) {
            return Verdict::Win(mover);
        }
        Verdict::Continue
    }
}

/// fastchess's `-draw movenumber=N movecount=M score=S` (its
/// `DrawTracker`): `2·M` plies in a row with centipawn scores within `S` of
/// zero, the run starting afresh at each capture or pawn move, called once
/// the position's full move number less one has reached `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastchessDraw {
    /// `movenumber`: the full move number, less one, from which a draw is
    /// called (the scores before it count towards the run all the same).
    pub move_number: u32,
    /// `movecount`: moves by each side in the run.
    pub move_count: u32,
    /// `score`: the bound in centipawns.
    pub score: i32,
}

/// fastchess's `-resign movecount=M score=S [twosided=B]` (its
/// `ResignTracker`). One-sided: a side whose own score is at most `-S` (or
/// a mate against it) for `M` of its moves in a row loses. Two-sided: `2·M`
/// plies in a row with every score at least `S` from zero, of either sign,
/// or a mate; then the side that just moved loses if its own last score is
/// below zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastchessResign {
    /// `movecount`.
    pub move_count: u32,
    /// `score`: the bound in centipawns.
    pub score: i32,
    /// `twosided`.
    pub two_sided: bool,
}

/// fastchess's adjudication of one game, tracker for tracker (its
/// `Match::playMove` and `Match::adjudicate`): every engine move is
/// [`recorded`](FastchessAdjudicator::record) with the position after it,
/// and before the next move (after the rules of chess and the tables have
/// had their say) the [`verdict`](FastchessAdjudicator::verdict) is asked,
/// resign first, then the draw.
#[derive(Clone, Debug)]
pub struct FastchessAdjudicator {
    draw: Option<FastchessDraw>,
    resign: Option<FastchessResign>,
    /// The draw tracker's run, in plies.
    draw_plies: u32,
    /// Two-sided: plies in a row with a decisive score, either side's.
    decisive_plies: u32,
    /// One-sided, per side (White, Black): own moves in a row losing.
    losing: [u32; 2],
    /// The side that moved last and its score.
    last: Option<(Color, Option<Score>)>,
}

/// A score's number as fastchess compares it with zero: centipawns, or
/// moves to mate (negative when mated).
fn signed(score: Score) -> i64 {
    match score {
        Score::Cp(v) | Score::Mate(v) => i64::from(v),
    }
}

impl FastchessAdjudicator {
    /// A fresh tracker for one game.
    pub fn new(draw: Option<FastchessDraw>, resign: Option<FastchessResign>) -> Self {
        FastchessAdjudicator {
            draw,
            resign,
            draw_plies: 0,
            decisive_plies: 0,
            losing: [0; 2],
            last: None,
        }
    }

    /// Records `mover`'s move, made with `score` (its own view; `None` when
    /// it reported none, which breaks every run), `after` being the
    /// position it led to.
    pub fn record(&mut self, mover: Color, score: Option<Score>, after: &Position) {
        self.last = Some((mover, score));
        let me = mover.fold(0, 1);
        let Some(score) = score else {
            self.draw_plies = 0;
            self.decisive_plies = 0;
            self.losing[me] = 0;
            return;
        };
        if let Some(rule) = self.draw {
            // A capture or pawn move starts the run afresh (and may begin it).
            if after.halfmove_clock() == 0 {
                self.draw_plies = 0;
            }
            let low =
                matches!(score, Score::Cp(cp) if cp.unsigned_abs() <= rule.score.unsigned_abs());
            self.draw_plies = if low { self.draw_plies + 1 } else { 0 };
        }
        if let Some(rule) = self.resign {
            let bound = i64::from(rule.score);
            if rule.two_sided {
                let decisive = match score {
                    Score::Cp(cp) => i64::from(cp).abs() >= bound,
                    Score::Mate(_) => true,
                };
                self.decisive_plies = if decisive { self.decisive_plies + 1 } else { 0 };
            } else {
                let losing = match score {
                    Score::Cp(cp) => i64::from(cp) <= -bound,
                    Score::Mate(n) => n < 0,
                };
                self.losing[me] = if losing { self.losing[me] + 1 } else { 0 };
            }
        }
    }

    /// What the scores decide before the move in `pos` is asked for:
    /// the side that moved last loses when the resign rule holds and its
    /// own last score is below zero; else a draw when the draw rule holds.
    pub fn verdict(&self, pos: &Position) -> Verdict {
        let Some((mover, score)) = self.last else {
            return Verdict::Continue;
        };
        if let Some(rule) = self.resign {
            let resignable = if rule.two_sided {
                self.decisive_plies >= 2 * rule.move_count
            } else {
                // Either side's run: fastchess asks only that the last
                // mover's own score be below zero.
                self.losing.iter().any(|&m| m >= rule.move_count)
            };
            if resignable && score.is_some_and(|s| signed(s) < 0) {
                return Verdict::Win(!mover);
            }
        }
        if let Some(rule) = self.draw {
            let past = pos.fullmove_number().saturating_sub(1) >= rule.move_number;
            if past && self.draw_plies >= 2 * rule.move_count {
                return Verdict::Draw;
            }
        }
        Verdict::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use Color::{Black, White};

    /// Full move `n`'s ply for `side`, as `kestrel match` counts it.
    fn ply(side: Color, n: u32) -> u32 {
        2 * (n - 1) + side.fold(0, 1)
    }

    #[test]
    fn draw_needs_both_sides_low_for_movecount_moves_after_movenumber() {
        let mut a = Adjudicator::new(Some(DrawRule::cutechess(10, 2, 10)), None);
        let mut at = |side, n, s| a.record(side, ply(side, n), Some(s));
        // Before move 10 nothing counts.
        assert_eq!(at(White, 9, 0), Verdict::Continue);
        assert_eq!(at(Black, 9, 0), Verdict::Continue);
        assert_eq!(at(White, 10, 5), Verdict::Continue);
        assert_eq!(at(Black, 10, -5), Verdict::Continue);
        // A high score resets the count.
        assert_eq!(at(White, 11, 50), Verdict::Continue);
        assert_eq!(at(Black, 11, 0), Verdict::Continue);
        assert_eq!(at(White, 12, 0), Verdict::Continue);
        assert_eq!(at(Black, 12, 0), Verdict::Continue);
        assert_eq!(at(White, 13, -10), Verdict::Draw);
    }

    #[test]
    fn one_sided_resign_and_two_sided_confirmation() {
        let mut a = Adjudicator::new(None, Some(ResignRule::cutechess(2, 500, false)));
        let mut at = |side, n, s| a.record(side, ply(side, n), Some(s));
        assert_eq!(at(White, 30, -600), Verdict::Continue);
        assert_eq!(at(Black, 30, 0), Verdict::Continue);
        assert_eq!(at(White, 31, -700), Verdict::Win(Black));

        let mut a = Adjudicator::new(None, Some(ResignRule::cutechess(2, 500, true)));
        let mut at = |side, n, s| a.record(side, ply(side, n), Some(s));
        at(White, 30, -600);
        at(Black, 30, 100);
        // Black does not agree it is winning: play on.
        assert_eq!(at(White, 31, -700), Verdict::Continue);
        assert_eq!(at(Black, 31, 600), Verdict::Continue);
        assert_eq!(at(White, 32, -700), Verdict::Continue);
        assert_eq!(at(Black, 32, 650), Verdict::Win(Black));
    }

    #[test]
    fn a_missing_score_counts_for_nothing() {
        let mut a = Adjudicator::new(
            Some(DrawRule::cutechess(1, 1, 10)),
            Some(ResignRule::cutechess(1, 500, false)),
        );
        assert_eq!(a.record(White, 0, None), Verdict::Continue);
        assert_eq!(a.record(Black, 1, Some(0)), Verdict::Continue);
        assert_eq!(a.record(White, 2, None), Verdict::Continue);
        assert_eq!(a.record(Black, 3, Some(-900)), Verdict::Win(White));
    }

    /// Plays `uci` moves from `fen` through a fastchess tracker, each with
    /// its score, and returns the verdict asked before each next move.
    fn fastchess_game(
        draw: Option<FastchessDraw>,
        resign: Option<FastchessResign>,
        fen: &str,
        moves: &[(&str, Option<Score>)],
    ) -> Vec<Verdict> {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut a = FastchessAdjudicator::new(draw, resign);
        let mut verdicts = Vec::new();
        for (text, score) in moves {
            let mv = pos
                .parse_uci_move(text, chess::CastlingMode::Standard)
                .unwrap();
            let mover = pos.turn();
            pos.play_unchecked(mv);
            a.record(mover, *score, &pos);
            verdicts.push(a.verdict(&pos));
        }
        verdicts
    }

    const KNIGHTS: &str = "4k3/4p3/8/8/8/8/4P3/1N2K1N1 w - - 0 30";

    #[test]
    fn fastchess_draw_restarts_its_run_at_a_capture_or_pawn_move() {
        let draw = FastchessDraw {
            move_number: 20,
            move_count: 2,
            score: 10,
        };
        let cp = |v| Some(Score::Cp(v));
        // Four quiet low plies: a draw after the fourth.
        let quiet = [
            ("g1f3", cp(0)),
            ("e8d8", cp(0)),
            ("f3g1", cp(0)),
            ("d8e8", cp(0)),
        ];
        let v = fastchess_game(Some(draw), None, KNIGHTS, &quiet);
        assert_eq!(v[3], Verdict::Draw);
        // A pawn move in the middle starts the run afresh: it counts as
        // the first ply of a new run.
        let pushed = [
            ("g1f3", cp(0)),
            ("e7e6", cp(0)),
            ("f3g1", cp(0)),
            ("e8d8", cp(0)),
            ("g1f3", cp(0)),
        ];
        let v = fastchess_game(Some(draw), None, KNIGHTS, &pushed);
        assert_eq!(&v[..4], &[Verdict::Continue; 4]);
        assert_eq!(v[4], Verdict::Draw);
        // After the fourth ply the position is at move 32, and 32 less one
        // is not yet 32: the run is counted, the draw not called until
        // Black's next move makes it move 33.
        let early = FastchessDraw {
            move_number: 32,
            ..draw
        };
        let mut longer = quiet.to_vec();
        longer.extend([("g1f3", cp(0)), ("e8d8", cp(0))]);
        let v = fastchess_game(Some(early), None, KNIGHTS, &longer);
        use Verdict::{Continue, Draw};
        assert_eq!(&v[3..], &[Continue, Continue, Draw]);
        // A mate score or no score breaks the run.
        let broken = [
            ("g1f3", cp(0)),
            ("e8d8", Some(Score::Mate(9))),
            ("f3g1", cp(0)),
            ("d8e8", None),
        ];
        let v = fastchess_game(Some(draw), None, KNIGHTS, &broken);
        assert_eq!(v, [Verdict::Continue; 4]);
    }

    #[test]
    fn fastchess_resign_counts_mates_and_asks_the_last_movers_sign() {
        let cp = |v| Some(Score::Cp(v));
        let one = FastchessResign {
            move_count: 2,
            score: 300,
            two_sided: false,
        };
        // Black's own scores say it is lost (a mate against it counts):
        // after Black's second such move, Black loses.
        let lost = [
            ("g1f3", cp(400)),
            ("e8d8", cp(-400)),
            ("f3g1", cp(400)),
            ("d8e8", Some(Score::Mate(-7))),
        ];
        let v = fastchess_game(None, Some(one), KNIGHTS, &lost);
        assert_eq!(v[3], Verdict::Win(Color::White));
        // Two-sided: decisive scores of either sign, mates included, for
        // 2·M plies; the last mover loses only when its own score is
        // below zero, so a run ending on the winner's move waits a ply.
        let two = FastchessResign {
            two_sided: true,
            ..one
        };
        let v = fastchess_game(None, Some(two), KNIGHTS, &lost);
        assert_eq!(v[3], Verdict::Win(Color::White));
        let ends_on_winner = [
            ("g1f3", cp(0)),
            ("e8d8", cp(-400)),
            ("f3g1", Some(Score::Mate(12))),
            ("d8e8", cp(-500)),
            ("g1f3", cp(600)),
            ("e8d8", cp(-600)),
        ];
        let v = fastchess_game(None, Some(two), KNIGHTS, &ends_on_winner);
        assert_eq!(&v[..5], &[Verdict::Continue; 5]);
        assert_eq!(v[5], Verdict::Win(Color::White));
        // Both sides claiming a win counts as decisive too, and nobody
        // loses while every last score is positive.
        let both_win = [
            ("g1f3", cp(400)),
            ("e8d8", cp(400)),
            ("f3g1", cp(400)),
            ("d8e8", cp(400)),
        ];
        let v = fastchess_game(None, Some(two), KNIGHTS, &both_win);
        assert_eq!(v, [Verdict::Continue; 4]);
    }

    /// The self-play loop's rules before they moved here: a streak of plies
    /// on which White's-view scores have one sign and at least the bound;
    /// the draw from a ply on, counted only while it grows.
    struct StreakReference {
        resign_score: i32,
        resign_plies: u32,
        draw: DrawRule,
        streak: u32,
        sign: i32,
        draw_streak: u32,
    }

    impl StreakReference {
        fn record(&mut self, mover: Color, ply: u32, score: i32) -> Verdict {
            let white_view = mover.fold(score, -score);
            if white_view.abs() >= self.resign_score {
                let sign = white_view.signum();
                self.streak = if sign == self.sign {
                    self.streak + 1
                } else {
                    1
                };
                self.sign = sign;
                if self.streak >= self.resign_plies {
                    return Verdict::Win(if white_view > 0 { White } else { Black });
                }
            } else {
                (self.streak, self.sign) = (0, 0);
            }
            if ply >= self.draw.from_ply && white_view.abs() <= self.draw.score {
                self.draw_streak += 1;
                if self.draw_streak >= self.draw.plies {
                    return Verdict::Draw;
                }
            } else {
                self.draw_streak = 0;
            }
            Verdict::Continue
        }
    }

    #[test]
    fn agreed_resign_is_the_self_play_streak() {
        let mut rng = SmallRng::seed_from_u64(19);
        for game in 0..4000 {
            let resign_plies = 1 + game % 9;
            let draw = DrawRule {
                from_ply: rng.random_range(0..20),
                plies: rng.random_range(1..8),
                score: 10,
            };
            let mut reference = StreakReference {
                resign_score: 300,
                resign_plies,
                draw,
                streak: 0,
                sign: 0,
                draw_streak: 0,
            };
            let rule = ResignRule::Agreed {
                score: 300,
                plies: resign_plies,
            };
            let mut a = Adjudicator::new(Some(draw), Some(rule));
            let first = if game % 2 == 0 { White } else { Black };
            for p in 0..120u32 {
                let mover = if p % 2 == 0 { first } else { !first };
                let score = match rng.random_range(0..4) {
                    0 => rng.random_range(-12..=12),
                    1 => rng.random_range(290..=310),
                    2 => rng.random_range(-310..=-290),
                    _ => rng.random_range(-600..=600),
                };
                let (want, got) = (
                    reference.record(mover, p, score),
                    a.record(mover, p, Some(score)),
                );
                assert_eq!(want, got, "game {game} ply {p}");
                if want != Verdict::Continue {
                    break;
                }
            }
        }
    }
}
