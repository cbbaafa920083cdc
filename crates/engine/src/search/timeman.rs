//! Time management: how long to think about a move.
//!
//! From the clock, increment and moves to go comes an optimum ("soft") time,
//! checked between iterations, and a maximum ("hard") time, checked during
//! the search and never exceeded. The soft limit stretches when the best
//! move keeps changing or the score drops, and shrinks when the best move
//! is stable, and (node time management) when the best move took most of
//! the nodes searched. `Move Overhead` is kept in reserve for communication delays.

use std::time::Duration;

use crate::limits::Limits;
use crate::params::tuned;

/// The time budget of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Stop starting new iterations after this (before scaling by stability).
    pub soft: Duration,
    /// Never search longer than this.
    pub hard: Duration,
    /// A fixed time per move (`go movetime`): use all of it, as UCI asks,
    /// instead of stopping early when the next iteration looks too long.
    pub exact: bool,
}

/// Works out the budget for the side to move, or `None` when the search is
/// not limited by time (depth, nodes, infinite).
pub fn budget(limits: &Limits, white_to_move: bool, overhead_ms: u64) -> Option<TimeBudget> {
    if let Some(ms) = limits.movetime {
        let t = Duration::from_millis(ms.saturating_sub(overhead_ms).max(1));
        return Some(TimeBudget {
            soft: t,
            hard: t,
            exact: true,
        });
    }
    let (time, inc) = if white_to_move {
        (limits.wtime?, limits.winc)
    } else {
        (limits.btime?, limits.binc)
    };
    let inc = inc.unwrap_or(0);
    // Keep the overhead in reserve, and never plan on the last few milliseconds.
    let usable = time.saturating_sub(overhead_ms).max(1);
    let moves_to_go = u64::from(
        limits
            .movestogo
            .map_or(tuned::tm_moves_to_go() as u32, |m| m.clamp(1, 50)),
    );
    let base = usable / moves_to_go + inc * tuned::tm_increment_percent() as u64 / 100;
    let hard_cap = if moves_to_go == 1 {
        usable * 9 / 10
    } else {
        usable / 2
    };
    let hard = (base * tuned::tm_hard_factor() as u64 / 10)
        .min(hard_cap)
        .max(1);
    let soft = (base * tuned::tm_soft_percent() as u64 / 100)
        .min(hard)
        .max(1);
    Some(TimeBudget {
        soft: Duration::from_millis(soft),
        hard: Duration::from_millis(hard),
        exact: false,
    })
}

/// Decides between iterations and during the search whether to stop.
#[derive(Clone, Debug)]
pub struct TimeManager {
    budget: Option<TimeBudget>,
    best_move_changes: f64,
    last_best: Option<chess::Move>,
    previous_score: Option<i32>,
    score_drop: i32,
    best_share: Option<f64>,
}

impl TimeManager {
    /// A manager for a search with this budget (`None`: no time limit).
    pub fn new(budget: Option<TimeBudget>) -> TimeManager {
        TimeManager {
            budget,
            best_move_changes: 0.0,
            last_best: None,
            previous_score: None,
            score_drop: 0,
            best_share: None,
        }
    }

    /// The budget, if any.
    pub fn budget(&self) -> Option<TimeBudget> {
        self.budget
    }

    /// Records a finished iteration's best move, its score, and (with node
    /// time management) the share of the search's nodes spent below it.
    pub fn iteration_done(&mut self, best: chess::Move, score: i32, best_share: Option<f64>) {
        self.best_share = best_share;
        self.best_move_changes *= 0.5;
        if self.last_best.is_some_and(|m| m != best) {
            self.best_move_changes += 1.0;
        }
        self.last_best = Some(best);
        if let Some(prev) = self.previous_score {
            self.score_drop = (prev - score).max(0);
        }
        self.previous_score = Some(score);
    }

    /// The soft limit scaled by how settled the search is.
    pub fn optimum(&self) -> Option<Duration> {
        let b = self.budget?;
        let instability = (f64::from(tuned::tm_stability_base())
            + f64::from(tuned::tm_stability_scale()) * self.best_move_changes.min(3.0))
            / 100.0;
        let falling =
            1.0 + f64::from(self.score_drop.min(100)) / f64::from(tuned::tm_score_drop_divisor());
        let effort = self.best_share.map_or(1.0, |share| {
            (f64::from(tuned::tm_node_base()) / 100.0 - share.clamp(0.0, 1.0))
                * f64::from(tuned::tm_node_scale())
                / 100.0
        });
        let scaled = b.soft.as_secs_f64() * instability * falling * effort;
        Some(Duration::from_secs_f64(scaled).min(b.hard))
    }

    /// True when no new iteration should start.
    pub fn soft_limit_reached(&self, elapsed: Duration) -> bool {
        // No new iteration once `TmNextIterationPercent` of the optimum is
        // spent: by default all of it, as most engines do (stopping at 60 %,
        // for fear that the next iteration overruns, lost 27 Elo at 5 s + 0.05 s).
        if self.budget.is_some_and(|b| b.exact) {
            return false;
        }
        self.optimum().is_some_and(|o| {
            elapsed.as_secs_f64()
                >= o.as_secs_f64() * f64::from(tuned::tm_next_iteration_percent()) / 100.0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock_limits(time: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            wtime: Some(time),
            btime: Some(time),
            winc: Some(inc),
            binc: Some(inc),
            movestogo: mtg,
            ..Limits::default()
        }
    }

    #[test]
    fn budget_never_exceeds_the_clock() {
        for time in [1, 5, 20, 50, 100, 500, 1_000, 10_000, 60_000, 3_600_000] {
            for inc in [0, 10, 100, 1_000, 30_000] {
                for mtg in [None, Some(1), Some(2), Some(10), Some(40), Some(500)] {
                    for overhead in [0, 10, 30, 1_000] {
                        let b = budget(&clock_limits(time, inc, mtg), true, overhead).unwrap();
                        let usable = time.saturating_sub(overhead).max(1);
                        assert!(
                            b.hard.as_millis() as u64 <= usable,
                            "{time} {inc} {mtg:?} {overhead}: {b:?}"
                        );
                        assert!(b.soft <= b.hard);
                        assert!(b.soft.as_millis() >= 1);
                    }
                }
            }
        }
    }

    #[test]
    fn a_stable_search_stops_on_the_soft_limit_well_before_the_hard_one() {
        let b = budget(&clock_limits(10_000, 100, None), false, 30).unwrap();
        let mut tm = TimeManager::new(Some(b));
        let mv = chess::Position::startpos().legal_moves()[0];
        for _ in 0..8 {
            tm.iteration_done(mv, 20, None);
        }
        let stop = (1..=b.hard.as_millis() as u64)
            .map(Duration::from_millis)
            .find(|&t| tm.soft_limit_reached(t))
            .expect("the soft limit comes before the hard one");
        assert!(stop < b.hard / 2, "{stop:?} of {b:?}");
    }

    #[test]
    fn stable_best_move_uses_less_time() {
        let b = budget(&clock_limits(60_000, 0, None), true, 0).unwrap();
        let mv = chess::Position::startpos().legal_moves()[0];
        let other = chess::Position::startpos().legal_moves()[1];
        let mut stable = TimeManager::new(Some(b));
        let mut unstable = TimeManager::new(Some(b));
        for i in 0..8 {
            stable.iteration_done(mv, 20, None);
            unstable.iteration_done(if i % 2 == 0 { mv } else { other }, 20, None);
        }
        assert!(stable.optimum().unwrap() < unstable.optimum().unwrap());
        assert!(unstable.optimum().unwrap() <= b.hard);
    }

    #[test]
    fn a_best_move_that_took_most_nodes_uses_less_time() {
        let b = budget(&clock_limits(60_000, 0, None), true, 0).unwrap();
        let mv = chess::Position::startpos().legal_moves()[0];
        let mut settled = TimeManager::new(Some(b));
        let mut contested = TimeManager::new(Some(b));
        let mut plain = TimeManager::new(Some(b));
        settled.iteration_done(mv, 20, Some(0.95));
        contested.iteration_done(mv, 20, Some(0.3));
        plain.iteration_done(mv, 20, None);
        let (s, c, p) = (
            settled.optimum().unwrap(),
            contested.optimum().unwrap(),
            plain.optimum().unwrap(),
        );
        assert!(s < p && p < c, "{s:?} {p:?} {c:?}");
    }

    #[test]
    fn movetime_and_unlimited() {
        let b = budget(&Limits::movetime(1000), true, 50).unwrap();
        assert_eq!(b.hard, Duration::from_millis(950));
        // The whole fixed time is used: no iteration is skipped early.
        let mut tm = TimeManager::new(Some(b));
        tm.iteration_done(chess::Position::startpos().legal_moves()[0], 0, None);
        assert!(!tm.soft_limit_reached(Duration::from_millis(900)));
        assert!(budget(&Limits::depth(5), true, 50).is_none());
        assert!(budget(
            &Limits {
                infinite: true,
                ..Limits::default()
            },
            true,
            50
        )
        .is_none());
    }
}
