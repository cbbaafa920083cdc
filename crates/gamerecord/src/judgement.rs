//! Judging an analysed game's moves as lichess does (lila's
//! `modules/tree/src/main/Advice.scala` and
//! `modules/analyse/src/main/AccuracyPercent.scala`, scalachess's
//! `WinPercent`): a score becomes winning chances, a move that throws away
//! 0.1, 0.2 or 0.3 of its side's winning chances (on lichess's -1..+1
//! scale: 5, 10 or 15 points of win percentage) is an inaccuracy, a
//! mistake or a blunder, with lichess's own rules where a mate appears or
//! goes; each side's accuracy is lichess's game accuracy. Per side, the
//! counts, the average centipawn loss and the accuracy sum up the game.

use serde::Serialize;

use crate::view::ScoreView;

/// lichess's slope of winning chances against centipawns.
const WIN_SLOPE: f64 = 0.003_682_08;
/// Scores beyond this many centipawns count as this (lichess's cap), and
/// a mate as this for the centipawn loss.
pub const CP_CAP: i32 = 1000;

/// White's winning chances in percent (0 to 100) for a score from White's
/// view: lichess's `50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)` with
/// the score capped at ±1000; a mate is 0 or 100, the graph's edge.
pub fn win_percent(score: ScoreView) -> f64 {
    match score {
        ScoreView::Cp(cp) => win_percent_of_cp(cp),
        ScoreView::Mate(n) if n > 0 => 100.0,
        // Mate(0) is never a search's score; the pass gives a mated
        // position its own value, so only Black's mates come here.
        ScoreView::Mate(_) => 0.0,
    }
}

/// A score as capped centipawns from White's view (a mate: the cap), for
/// the average centipawn loss.
pub fn capped_cp(score: ScoreView) -> i32 {
    match score {
        ScoreView::Cp(cp) => cp.clamp(-CP_CAP, CP_CAP),
        ScoreView::Mate(n) if n > 0 => CP_CAP,
        ScoreView::Mate(_) => -CP_CAP,
    }
}

/// lichess's winning chances (-1 to +1) of a centipawn score, scalachess's
/// `WinPercent.winningChances`: `2 / (1 + exp(-0.00368208 * cp)) - 1`.
pub fn winning_chances(cp: i32) -> f64 {
    (2.0 / (1.0 + (-WIN_SLOPE * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// lichess's `WinPercent.fromCentiPawns`: `50 + 50 * winningChances`, the
/// score capped at ±1000 first (a mate counts as the cap).
pub fn win_percent_of_cp(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp.clamp(-CP_CAP, CP_CAP))
}

/// How bad a move was.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// Lost 0.1 to 0.2 of winning chances (5 to 10 points of win
    /// percentage), or let a mate come from a lost position: `?!`.
    Inaccuracy,
    /// Lost 0.2 to 0.3 (10 to 15 points): `?`.
    Mistake,
    /// Lost 0.3 or more (15 points or more), or a mate: `??`.
    Blunder,
}

/// lichess's thresholds on the winning chances a move loses (Advice.scala,
/// `winningChanceJudgements`), worst first.
const THRESHOLDS: [(f64, Judgement); 3] = [
    (0.3, Judgement::Blunder),
    (0.2, Judgement::Mistake),
    (0.1, Judgement::Inaccuracy),
];

impl Judgement {
    /// The judgement of a move that lost `delta` of its side's winning
    /// chances (-1..+1 scale), if it deserves one.
    pub fn of_chances_lost(delta: f64) -> Option<Judgement> {
        THRESHOLDS
            .iter()
            .find(|(t, _)| *t <= delta)
            .map(|&(_, j)| j)
    }

    /// A move's judgement from the scores before and after it (White's
    /// view), `white` when White made it: lichess's `Advice`. Between two
    /// centipawn scores, the winning chances lost (`CpAdvice`); where a
    /// mate appears against the mover ("Checkmate is now unavoidable") a
    /// blunder, a mistake from a position already 7 pawns down and an
    /// inaccuracy from 10; where the mover's own mate goes ("Lost forced
    /// checkmate sequence") a blunder, a mistake while still 7 pawns up and
    /// an inaccuracy while 10 up (`MateAdvice`); a mate delayed, or found,
    /// is no error.
    pub fn of_move(before: ScoreView, after: ScoreView, white: bool) -> Option<Judgement> {
        let sign = if white { 1 } else { -1 };
        match (before, after) {
            (ScoreView::Cp(b), ScoreView::Cp(a)) => {
                Self::of_chances_lost(f64::from(sign) * (winning_chances(b) - winning_chances(a)))
            }
            _ => {
                // The mover's view; a side without a centipawn score counts 0.
                let mate = |s: ScoreView| match s {
                    ScoreView::Mate(n) => Some(sign * n),
                    ScoreView::Cp(_) => None,
                };
                let cp = |s: ScoreView| match s {
                    ScoreView::Cp(c) => sign * c,
                    ScoreView::Mate(_) => 0,
                };
                match (mate(before), mate(after)) {
                    // A mate against the mover appears.
                    (None, Some(n)) if n < 0 => Some(match cp(before) {
                        c if c < -999 => Judgement::Inaccuracy,
                        c if c < -700 => Judgement::Mistake,
                        _ => Judgement::Blunder,
                    }),
                    // The mover's mate goes.
                    (Some(p), None) if p > 0 => Some(match cp(after) {
                        c if c > 999 => Judgement::Inaccuracy,
                        c if c > 700 => Judgement::Mistake,
                        _ => Judgement::Blunder,
                    }),
                    (Some(p), Some(n)) if p > 0 && n < 0 => Some(Judgement::Blunder),
                    _ => None,
                }
            }
        }
    }
}

/// A move's accuracy in percent from its side's win percentage before and
/// after it: lichess's `AccuracyPercent.fromWinPercents`, 100 when it lost
/// nothing, else `103.1668 * exp(-0.04354 * (before - after)) - 3.1669`
/// plus lichess's 1-point "uncertainty bonus", within 0 to 100.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Population standard deviation (scalalib's `Maths.standardDeviation`).
fn standard_deviation(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// Each side's game accuracy, White's then Black's: lichess's
/// `AccuracyPercent.gameAccuracy`, "a mean of volatility-weighted mean and
/// harmonic mean". `cps` holds every position's score (White's view,
/// capped centipawns, a mate as the cap), the start first, None where not
/// analysed yet; `white_first` when White made the first move. Each move's
/// accuracy is weighted by how much the win percentage moved around it
/// (the standard deviation over a window of `moves / 10` positions, 2 to 8,
/// kept within 0.5 to 12); a move whose window or positions are not all
/// analysed is left out, and a side without moves has none. lichess takes
/// +0.15 for the start; here the start's own search counts, so that a game
/// from a set-up position is weighed from where it began.
pub fn game_accuracy(cps: &[Option<i32>], white_first: bool) -> [Option<f64>; 2] {
    let wins: Vec<Option<f64>> = cps.iter().map(|c| c.map(win_percent_of_cp)).collect();
    let n = wins.len();
    if n < 2 {
        return [None, None];
    }
    let size = ((n - 1) / 10).clamp(2, 8);
    // lichess's windows: the first window repeated for the first moves,
    // then one sliding window per move after (one window in all when the
    // game is shorter than a window).
    let first = &wins[..size.min(n)];
    let mut windows: Vec<&[Option<f64>]> = vec![first; size.min(n).saturating_sub(2)];
    if n > size {
        windows.extend(wins.windows(size));
    } else {
        windows.push(&wins[..]);
    }
    let weight = |w: &[Option<f64>]| -> Option<f64> {
        let xs: Option<Vec<f64>> = w.iter().copied().collect();
        xs.map(|xs| standard_deviation(&xs).clamp(0.5, 12.0))
    };
    // Per side: (accuracy, weight) of each move whose figures are known.
    let mut sides: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, window) in windows.iter().enumerate().take(n - 1) {
        let white = (i % 2 == 0) == white_first;
        let (Some(prev), Some(next), Some(w)) = (wins[i], wins[i + 1], weight(window)) else {
            continue;
        };
        let accuracy = if white {
            move_accuracy(prev, next)
        } else {
            move_accuracy(next, prev)
        };
        sides[usize::from(!white)].push((accuracy, w));
    }
    sides.map(|moves| {
        let total: f64 = moves.iter().map(|m| m.1).sum();
        if moves.is_empty() || total == 0.0 {
            return None;
        }
        let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>() / total;
        // scalalib's harmonicMean: each value taken as at least 1.
        let harmonic =
            moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        Some((weighted + harmonic) / 2.0)
    })
}

/// One side's figures over the moves judged so far.
#[derive(Serialize, Debug, Clone, Default, PartialEq)]
pub struct SideSummary {
    /// Moves judged.
    pub moves: usize,
    /// `?!` moves.
    pub inaccuracies: usize,
    /// `?` moves.
    pub mistakes: usize,
    /// `??` moves.
    pub blunders: usize,
    /// Average centipawn loss (scores capped at ±1000), rounded.
    pub acpl: Option<i32>,
    /// lichess's game accuracy ([`game_accuracy`]), one decimal.
    pub accuracy: Option<f64>,
}

/// Sums up one side's moves as (centipawn loss, judgement), with its game
/// accuracy.
pub fn summarise(moves: &[(i32, Option<Judgement>)], accuracy: Option<f64>) -> SideSummary {
    let mut s = SideSummary {
        moves: moves.len(),
        accuracy: accuracy.map(|a| (a * 10.0).round() / 10.0),
        ..SideSummary::default()
    };
    for &(_, j) in moves {
        match j {
            Some(Judgement::Inaccuracy) => s.inaccuracies += 1,
            Some(Judgement::Mistake) => s.mistakes += 1,
            Some(Judgement::Blunder) => s.blunders += 1,
            None => {}
        }
    }
    if !moves.is_empty() {
        let cp: f64 = moves.iter().map(|m| f64::from(m.0)).sum();
        s.acpl = Some((cp / moves.len() as f64).round() as i32);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_chances_follow_lichess_and_mates_sit_at_the_edge() {
        assert!((win_percent(ScoreView::Cp(0)) - 50.0).abs() < 1e-9);
        // lichess: +1 pawn is about 59.1 %, +3 pawns about 75.1 %.
        assert!((win_percent(ScoreView::Cp(100)) - 59.1).abs() < 0.05);
        assert!((win_percent(ScoreView::Cp(-300)) - 24.9).abs() < 0.05);
        assert_eq!(
            win_percent(ScoreView::Cp(5000)),
            win_percent(ScoreView::Cp(1000))
        );
        assert_eq!(win_percent(ScoreView::Mate(3)), 100.0);
        assert_eq!(win_percent(ScoreView::Mate(-1)), 0.0);
        assert_eq!(capped_cp(ScoreView::Mate(-2)), -CP_CAP);
        assert_eq!(capped_cp(ScoreView::Cp(-1500)), -CP_CAP);
        // For accuracy a mate is the cap: lichess's 97.54 %.
        assert!((win_percent_of_cp(capped_cp(ScoreView::Mate(4))) - 97.5447).abs() < 1e-4);
    }

    #[test]
    fn moves_are_judged_by_lichess_thresholds_on_winning_chances() {
        let j = |b, a, white| Judgement::of_move(ScoreView::Cp(b), ScoreView::Cp(a), white);
        assert_eq!(Judgement::of_chances_lost(0.0999), None);
        assert_eq!(Judgement::of_chances_lost(0.1), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_chances_lost(0.25), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_chances_lost(0.3), Some(Judgement::Blunder));
        // By hand: winningChances(0) - winningChances(-100) = 0.1821 (an
        // inaccuracy; 9.1 points of win percentage), 0 to -150 0.2693 (a
        // mistake), 0 to -300 0.5023 (a blunder); for Black the same
        // scores the other way round.
        assert!((winning_chances(0) - winning_chances(-100) - 0.182_05).abs() < 1e-4);
        assert_eq!(j(0, -100, true), Some(Judgement::Inaccuracy));
        assert_eq!(j(0, -150, true), Some(Judgement::Mistake));
        assert_eq!(j(0, -300, true), Some(Judgement::Blunder));
        assert_eq!(j(0, 150, false), Some(Judgement::Mistake));
        assert_eq!(j(0, -150, false), None);
        // 50 to -60 loses 0.2018: a mistake, where a 10/20/30-point rule
        // on win percentage (10.1 points) saw an inaccuracy.
        assert_eq!(j(50, -60, true), Some(Judgement::Mistake));
        // Mates, lichess's MateAdvice (the mover's view).
        let m = |b, a, white| Judgement::of_move(b, a, white);
        use ScoreView::{Cp, Mate};
        assert_eq!(m(Cp(30), Mate(-3), true), Some(Judgement::Blunder));
        assert_eq!(m(Cp(-800), Mate(-3), true), Some(Judgement::Mistake));
        assert_eq!(m(Cp(-1200), Mate(-3), true), Some(Judgement::Inaccuracy));
        assert_eq!(m(Cp(-30), Mate(3), false), Some(Judgement::Blunder));
        assert_eq!(m(Mate(2), Cp(400), true), Some(Judgement::Blunder));
        assert_eq!(m(Mate(2), Cp(800), true), Some(Judgement::Mistake));
        assert_eq!(m(Mate(2), Cp(1500), true), Some(Judgement::Inaccuracy));
        assert_eq!(m(Mate(-2), Cp(-1500), false), Some(Judgement::Inaccuracy));
        assert_eq!(m(Mate(2), Mate(-5), true), Some(Judgement::Blunder));
        // A mate delayed, a mate found, the mate given: no error.
        assert_eq!(m(Mate(2), Mate(4), true), None);
        assert_eq!(m(Cp(200), Mate(5), true), None);
        assert_eq!(m(Mate(1), Mate(0), true), None);
        assert_eq!(m(Mate(-2), Mate(-1), true), None);
    }

    #[test]
    fn a_move_accuracy_is_lichess_curve_with_its_bonus() {
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        assert_eq!(move_accuracy(40.0, 60.0), 100.0);
        // 103.1668 * exp(-0.04354 * 10) - 3.1669 + 1 = 64.5798
        assert!((move_accuracy(60.0, 50.0) - 64.579_8).abs() < 1e-3);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    /// A hand-worked game: nine positions, White's view in centipawns,
    /// the start first: 15, 40, 35, -120, -110, -420, 250, 240, 260.
    /// Win percentages (lichess's curve): 51.3804 53.6754 53.2174 39.1300
    /// 40.0105 17.5596 71.5148 70.7588 72.2589. Eight moves: windows of
    /// max(2, 8 / 10) = 2 positions, so each move's weight is the standard
    /// deviation of its two positions, 0.5 to 12: 1.1475 0.5 7.0437 0.5
    /// 11.2254 12 0.5 0.75. Move accuracies: White 100, 53.6974 (3. 35 to
    /// -120), 36.6456 (5. -110 to -420), 97.6591; Black 100, 97.1195,
    /// 7.6776 (6. -420 to +250), 94.4764. White: weighted mean 47.8580,
    /// harmonic mean 60.4678, accuracy 54.1629; Black: 19.0219 and 24.8246,
    /// accuracy 21.9233. (Worked with lila's AccuracyPercent.gameAccuracy
    /// and scalalib's Maths, transliterated line by line.) Judgements:
    /// 3. loses 0.2818 of winning chances (a mistake), 5. 0.4490 and 6.
    /// 1.0791 (blunders).
    #[test]
    fn game_accuracy_matches_a_hand_worked_lichess_example() {
        let cps = [15, 40, 35, -120, -110, -420, 250, 240, 260];
        let known: Vec<Option<i32>> = cps.iter().map(|&c| Some(c)).collect();
        let [w, b] = game_accuracy(&known, true);
        assert!((w.expect("white moved") - 54.1629).abs() < 1e-3, "{w:?}");
        assert!((b.expect("black moved") - 21.9233).abs() < 1e-3, "{b:?}");
        let judged: Vec<Option<Judgement>> = cps
            .windows(2)
            .enumerate()
            .map(|(i, p)| Judgement::of_move(ScoreView::Cp(p[0]), ScoreView::Cp(p[1]), i % 2 == 0))
            .collect();
        use Judgement::{Blunder, Mistake};
        assert_eq!(
            judged,
            [
                None,
                None,
                Some(Mistake),
                None,
                Some(Blunder),
                Some(Blunder),
                None,
                None
            ]
        );
        // A position not analysed yet leaves out the moves around it.
        let mut partial = known.clone();
        partial[8] = None;
        let [_, b3] = game_accuracy(&partial, true);
        assert!(b3.is_some() && b3 != b);
        assert_eq!(game_accuracy(&known[..1], true), [None, None]);
    }

    #[test]
    fn a_side_is_summed_up() {
        use Judgement::{Blunder, Inaccuracy};
        let s = summarise(
            &[(0, None), (40, Some(Inaccuracy)), (500, Some(Blunder))],
            Some(61.04),
        );
        assert_eq!(
            (s.moves, s.inaccuracies, s.mistakes, s.blunders),
            (3, 1, 0, 1)
        );
        assert_eq!(s.acpl, Some(180));
        assert_eq!(s.accuracy, Some(61.0));
        assert_eq!(summarise(&[], None).acpl, None);
    }
}
