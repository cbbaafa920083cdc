//! How the Elo estimates of a match or tournament developed game by game:
//! the data for a chart of Elo over games.

use crate::results::{standings, HeadToHead, RunResults};

/// An estimate after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingPoint {
    /// Games finished so far.
    pub games: usize,
    /// The estimate then.
    pub elo: f64,
    /// Its 95% half-width.
    pub error: f64,
}

/// One line of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingLine {
    /// What it measures: `A vs B` for a match, an engine's name otherwise.
    pub name: String,
    /// Estimates in game order (unbounded ones, at 0% or 100%, are left out).
    pub points: Vec<RatingPoint>,
}

/// The estimates after every `step` games and after the last: for two
/// engines without known ratings the first's Elo difference (as the match
/// reports it, from pairs when they are complete); otherwise every
/// participant's fitted rating (anchored by the run's known ratings, or
/// averaging 0).
pub fn rating_history(results: &RunResults, step: usize) -> Vec<RatingLine> {
    let step = step.max(1);
    let n = results.games.len();
    let mut cuts: Vec<usize> = (1..=n / step).map(|k| k * step).collect();
    if cuts.last() != Some(&n) && n > 0 {
        cuts.push(n);
    }
    let finite = |elo: f64, error: f64, games: usize| {
        (elo.is_finite() && error.is_finite()).then_some(RatingPoint { games, elo, error })
    };
    if results.engines.len() == 2 && results.anchors.is_empty() {
        let (a, b) = (&results.engines[0], &results.engines[1]);
        let points = cuts
            .iter()
            .filter_map(|&k| {
                let e = HeadToHead::count_as(a, b, &results.games[..k], results.paired).elo();
                finite(e.elo, e.error, k)
            })
            .collect();
        return vec![RatingLine {
            name: format!("{a} vs {b}"),
            points,
        }];
    }
    let mut lines: Vec<RatingLine> = results
        .engines
        .iter()
        .map(|name| RatingLine {
            name: name.clone(),
            points: Vec::new(),
        })
        .collect();
    for &k in &cuts {
        let table = standings(&results.engines, &results.games[..k], &results.anchors);
        for row in table {
            let Some(line) = lines.iter_mut().find(|l| l.name == row.name) else {
                continue;
            };
            if let (Some(elo), Some(error)) = (row.elo, row.error) {
                if let Some(p) = finite(elo, error, k) {
                    line.points.push(p);
                }
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::GameEntry;
    use crate::schedule::TournamentKind;

    fn game(number: usize, white: &str, black: &str, result: &str) -> GameEntry {
        crate::results::test_game(number, (number - 1) / 2, white, black, result)
    }

    fn run(engines: &[&str], games: Vec<GameEntry>) -> RunResults {
        RunResults::compute(
            engines
                .iter()
                .map(std::string::ToString::to_string)
                .collect(),
            TournamentKind::RoundRobin,
            None,
            games,
            Vec::new(),
            None,
            true,
        )
    }

    #[test]
    fn a_match_gives_one_line_that_ends_at_the_reported_elo() {
        // a wins 3 of every 4 pairs' games against b, with some draws.
        let results: Vec<&str> = [
            "1-0", "1/2-1/2", "1-0", "0-1", "1/2-1/2", "0-1", "1-0", "1/2-1/2",
        ]
        .iter()
        .cycle()
        .take(40)
        .copied()
        .collect();
        let games = results
            .iter()
            .enumerate()
            .map(|(i, r)| {
                if i % 2 == 0 {
                    game(i + 1, "a", "b", r)
                } else {
                    game(i + 1, "b", "a", r)
                }
            })
            .collect();
        let r = run(&["a", "b"], games);
        let lines = rating_history(&r, 10);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].name, "a vs b");
        let games: Vec<usize> = lines[0].points.iter().map(|p| p.games).collect();
        assert_eq!(games, vec![10, 20, 30, 40]);
        let last = lines[0].points.last().unwrap();
        assert_eq!(Some(last.elo), r.summary.as_ref().unwrap().elo);
        // More games, a narrower interval.
        assert!(last.error < lines[0].points[0].error);
    }

    #[test]
    fn a_tournament_gives_a_line_per_engine_ordered_like_the_table() {
        let mut games = Vec::new();
        let mut n = 0;
        // x beats y and z mostly, y and z draw: x on top, y and z level.
        for _ in 0..6 {
            for (w, b, r) in [
                ("x", "y", "1-0"),
                ("y", "x", "1/2-1/2"),
                ("x", "z", "1-0"),
                ("z", "x", "0-1"),
                ("y", "z", "1/2-1/2"),
                ("z", "y", "1-0"),
                ("y", "x", "1-0"),
            ] {
                n += 1;
                games.push(game(n, w, b, r));
            }
        }
        let r = run(&["x", "y", "z"], games);
        let lines = rating_history(&r, 7);
        assert_eq!(lines.len(), 3);
        for line in &lines {
            assert_eq!(line.points.len(), 6, "{}", line.name);
        }
        let last = |i: usize| lines[i].points.last().unwrap().elo;
        assert!(last(0) > last(1) && last(0) > last(2));
        assert_eq!(Some(last(0)), r.standings[0].elo);
    }
}
