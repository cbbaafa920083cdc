//! Judging an analysed game's moves as lichess does: each score becomes
//! White's winning chances, and a move that throws away 10, 20 or 30
//! percentage points of its side's chances is an inaccuracy, a mistake or
//! a blunder. Per side, the counts, the average centipawn loss and an
//! accuracy figure summarise the game.

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
        ScoreView::Cp(cp) => {
            let cp = f64::from(cp.clamp(-CP_CAP, CP_CAP));
            50.0 + 50.0 * (2.0 / (1.0 + (-WIN_SLOPE * cp).exp()) - 1.0)
        }
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

/// How bad a move was.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// Lost 10 to 20 points of winning chances: `?!`.
    Inaccuracy,
    /// Lost 20 to 30 points: `?`.
    Mistake,
    /// Lost 30 points or more: `??`.
    Blunder,
}

impl Judgement {
    /// The judgement of a move that lost `drop` points of its side's
    /// winning chances (lichess's thresholds), if it deserves one.
    pub fn of_drop(drop: f64) -> Option<Judgement> {
        if drop >= 30.0 {
            Some(Judgement::Blunder)
        } else if drop >= 20.0 {
            Some(Judgement::Mistake)
        } else if drop >= 10.0 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// A move's accuracy in percent from the drop in its side's winning
/// chances: lichess's per-move curve `103.17 * exp(-0.04354 * drop) - 3.17`,
/// kept within 0 to 100 (no drop: 100).
pub fn move_accuracy(drop: f64) -> f64 {
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    raw.clamp(0.0, 100.0)
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
    /// The mean of the moves' accuracies, one decimal.
    pub accuracy: Option<f64>,
}

/// Sums up one side's moves as (winning-chance drop, centipawn loss, judgement).
pub fn summarise(moves: &[(f64, i32, Option<Judgement>)]) -> SideSummary {
    let mut s = SideSummary {
        moves: moves.len(),
        ..SideSummary::default()
    };
    for &(_, _, j) in moves {
        match j {
            Some(Judgement::Inaccuracy) => s.inaccuracies += 1,
            Some(Judgement::Mistake) => s.mistakes += 1,
            Some(Judgement::Blunder) => s.blunders += 1,
            None => {}
        }
    }
    if !moves.is_empty() {
        let n = moves.len() as f64;
        let cp: f64 = moves.iter().map(|m| f64::from(m.1)).sum();
        s.acpl = Some((cp / n).round() as i32);
        let acc: f64 = moves.iter().map(|m| move_accuracy(m.0)).sum();
        s.accuracy = Some((acc / n * 10.0).round() / 10.0);
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
    }

    #[test]
    fn drops_are_judged_by_lichess_thresholds() {
        assert_eq!(Judgement::of_drop(9.99), None);
        assert_eq!(Judgement::of_drop(10.0), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_drop(25.0), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_drop(30.0), Some(Judgement::Blunder));
        // Losing a queen from level (0 to -900 cp) costs about 46 points.
        let drop = win_percent(ScoreView::Cp(0)) - win_percent(ScoreView::Cp(-900));
        assert_eq!(Judgement::of_drop(drop), Some(Judgement::Blunder));
    }

    #[test]
    fn a_side_is_summed_up() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(50.0) < 20.0);
        assert_eq!(move_accuracy(100.0), 0.0);
        let s = summarise(&[
            (0.0, 0, None),
            (12.0, 40, Some(Judgement::Inaccuracy)),
            (45.0, 500, Some(Judgement::Blunder)),
        ]);
        assert_eq!(
            (s.moves, s.inaccuracies, s.mistakes, s.blunders),
            (3, 1, 0, 1)
        );
        assert_eq!(s.acpl, Some(180));
        let acc = s.accuracy.expect("some moves");
        assert!(acc > 40.0 && acc < 80.0, "{acc}");
        assert_eq!(summarise(&[]).acpl, None);
    }
}
