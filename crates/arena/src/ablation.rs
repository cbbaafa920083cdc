//! Ablation: what each switchable search technique is worth. Nodes, time
//! and effective branching factor to reach a fixed depth over the bench
//! positions with the technique off and on, and optionally an Elo estimate
//! from an arena match between the two. The list of techniques is read
//! from `SearchParams::list()`, so it never goes stale.

use std::time::Duration;

use chess::Position;
use elo::Estimate;
use engine::bench;
use engine::eval::EvalKind;
use engine::params::{ParamKind, SearchParams};

use crate::pairs::{self, ArenaConfig, Contender, MoveLimit, Tally};
use charts::{Bar, BarChart, LineChart, Point, Series};

/// One on/off search technique.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Its UCI option name.
    pub name: &'static str,
    /// Its default setting.
    pub default: bool,
}

/// Every switch of the search, except those that only matter with endgame
/// tables loaded (the ablation runs without tables).
pub fn switches() -> Vec<Switch> {
    SearchParams::list()
        .into_iter()
        .filter_map(|p| match p.kind {
            ParamKind::Switch { default } if !p.name.starts_with("Syzygy") => Some(Switch {
                name: p.name,
                default,
            }),
            _ => None,
        })
        .collect()
}

/// The default parameters with `switch` set to `on`.
pub fn with_switch(switch: &Switch, on: bool) -> SearchParams {
    let mut params = SearchParams::default();
    params
        .set(switch.name, if on { "true" } else { "false" })
        .expect("a listed switch accepts true and false");
    params
}

/// A bench run to a fixed depth.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthRun {
    /// Nodes over all bench positions.
    pub nodes: u64,
    /// Time for all of them.
    pub time: Duration,
    /// Nodes when each depth was complete (index 0: depth 1).
    pub per_depth: Vec<u64>,
}

impl DepthRun {
    /// Runs the bench positions to `depth` with `params` and the default
    /// evaluator ([`EvalKind::default`], which the report names).
    pub fn measure(depth: i32, params: SearchParams) -> DepthRun {
        let r = bench::run(depth, params, EvalKind::default());
        DepthRun {
            nodes: r.nodes,
            time: r.time,
            per_depth: r.per_depth,
        }
    }

    /// Effective branching factor at the last depth: the growth per ply
    /// of the node count over its last two plies, sqrt(N(D) / N(D-2))
    /// (two plies, so that odd and even depths do not alternate). `None`
    /// below depth 3.
    pub fn ebf(&self) -> Option<f64> {
        let n = self.per_depth.len();
        if n < 3 || self.per_depth[n - 3] == 0 {
            return None;
        }
        Some((self.per_depth[n - 1] as f64 / self.per_depth[n - 3] as f64).sqrt())
    }
}

/// One technique's measurements.
#[derive(Clone, Debug)]
pub struct Row {
    /// The technique.
    pub switch: Switch,
    /// Bench with it off.
    pub off: DepthRun,
    /// Bench with it on.
    pub on: DepthRun,
    /// The match: the "on" configuration's results against "off".
    pub games: Option<Tally>,
}

impl Row {
    /// Elo of "on" over "off", from the game pairs.
    pub fn elo(&self) -> Option<Estimate> {
        self.games.map(|t| t.pairs.elo())
    }
}

/// Plays `pairs` game pairs (arena's head-to-head match) between the
/// default configuration and the one with `switch` flipped; returns the
/// results of the configuration with the technique on.
pub fn elo_match(
    switch: &Switch,
    pairs: usize,
    limit: MoveLimit,
    openings: &[Position],
    config: &ArenaConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Tally {
    let players = [
        Contender {
            params: with_switch(switch, true),
            ..Contender::new(format!("{} on", switch.name), limit)
        },
        Contender {
            params: with_switch(switch, false),
            ..Contender::new(format!("{} off", switch.name), limit)
        },
    ];
    pairs::head_to_head(&players, pairs, openings, config, progress)
}

fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("{:.2}x", a / b)
    } else {
        "-".into()
    }
}

fn ebf(run: &DepthRun) -> String {
    run.ebf().map_or("-".into(), |e| format!("{e:.2}"))
}

/// An Elo estimate as the table shows it, saying why when it or its
/// interval has no finite bound (rather than `+/- inf`).
fn elo_cell(e: Estimate) -> String {
    if e.elo.is_infinite() {
        let side = if e.elo > 0.0 { "on" } else { "off" };
        format!(
            "{}inf (every game won by {side}: no finite estimate)",
            if e.elo > 0.0 { "+" } else { "-" }
        )
    } else if !e.error.is_finite() {
        let (side, rare) = if e.elo > 0.0 {
            ("above", "lost or drawn")
        } else {
            ("below", "won or drawn")
        };
        format!(
            "{:+.1} (95% interval unbounded {side}: too few pairs {rare} to bound it)",
            e.elo
        )
    } else {
        e.display()
    }
}

/// The ablation table in Markdown: per technique, nodes, time and EBF with
/// it off and on, and the Elo of "on" over "off" where games were played.
pub fn markdown(depth: i32, rows: &[Row], games_note: Option<&str>) -> String {
    let mut out = format!(
        "Bench positions ({}) searched to depth {depth}, one thread, 16 MiB table, \
         evaluator {} (searches and games); \
         off/on ratios above 1 mean the technique saves nodes or time. \
         EBF = sqrt(N(D)/N(D-2)).\n",
        bench::BENCH_FENS.len(),
        EvalKind::default().name()
    );
    if let Some(note) = games_note {
        out.push_str(&format!("Elo: {note}\n"));
    }
    out.push('\n');
    out.push_str(
        "| technique | default | nodes off | nodes on | nodes off/on | time off (ms) | time on (ms) | time off/on | EBF off | EBF on | Elo on vs off | games (W-D-L of on) |\n",
    );
    out.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let (elo, games) = match (r.elo(), r.games) {
            (Some(e), Some(t)) => (elo_cell(e), t.wdl.games_and_split()),
            _ => ("-".into(), "-".into()),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.switch.name,
            if r.switch.default { "on" } else { "off" },
            r.off.nodes,
            r.on.nodes,
            ratio(r.off.nodes as f64, r.on.nodes as f64),
            r.off.time.as_millis(),
            r.on.time.as_millis(),
            ratio(r.off.time.as_secs_f64(), r.on.time.as_secs_f64()),
            ebf(&r.off),
            ebf(&r.on),
            elo,
            games,
        ));
    }
    out
}

/// Node count by depth: the default configuration and each technique
/// flipped from its default (log scale).
pub fn nodes_chart(default: &DepthRun, rows: &[Row]) -> LineChart {
    let series = |name: String, run: &DepthRun| Series {
        name,
        points: run
            .per_depth
            .iter()
            .enumerate()
            .map(|(d, &n)| Point {
                x: d as f64 + 1.0,
                y: n as f64,
                err: 0.0,
            })
            .collect(),
    };
    let mut all = vec![series("default (all on)".into(), default)];
    for r in rows {
        let (label, run) = if r.switch.default {
            ("off", &r.off)
        } else {
            ("on", &r.on)
        };
        all.push(series(format!("{} {label}", r.switch.name), run));
    }
    LineChart {
        title: "Nodes to reach each depth (bench positions)".into(),
        x_label: "depth".into(),
        y_label: "nodes (log scale)".into(),
        log_y: true,
        series: all,
    }
}

/// Elo of each technique (on over off) with its 95% error, largest first.
pub fn elo_chart(rows: &[Row], limit: MoveLimit) -> BarChart {
    let mut bars: Vec<Bar> = rows
        .iter()
        .filter_map(|r| {
            r.elo().map(|e| {
                // An unbounded interval is drawn as no bar, and the label says so.
                let bounded = e.error.is_finite() && e.elo.is_finite();
                Bar {
                    label: if bounded {
                        r.switch.name.to_string()
                    } else {
                        format!("{} (interval unbounded)", r.switch.name)
                    },
                    value: e.elo,
                    err: if bounded { e.error } else { 0.0 },
                }
            })
        })
        .collect();
    bars.sort_by(|a, b| b.value.total_cmp(&a.value));
    let games = rows
        .iter()
        .find_map(|r| r.games)
        .map_or(0, |t| t.wdl.games());
    BarChart {
        title: format!("Elo of each technique, on vs off ({games} games each, {limit})"),
        value_label: "Elo (technique on minus off), 95% interval".into(),
        bars,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchcore::openings;

    #[test]
    fn every_switch_is_listed_and_flips() {
        let list = switches();
        let names: Vec<&str> = list.iter().map(|s| s.name).collect();
        for expected in [
            "TranspositionTable",
            "NullMove",
            "LateMoveReductions",
            "QSNullMove",
        ] {
            assert!(
                names.contains(&expected),
                "{expected} missing from {names:?}"
            );
        }
        assert!(!names.iter().any(|n| n.starts_with("Syzygy")));
        let every_switch = SearchParams::list()
            .iter()
            .filter(|p| matches!(p.kind, ParamKind::Switch { .. }))
            .count();
        assert_eq!(
            list.len(),
            every_switch - 1,
            "only Syzygy50MoveRule is left out"
        );
        for s in &list {
            assert_ne!(with_switch(s, true), with_switch(s, false), "{}", s.name);
            assert_eq!(with_switch(s, s.default), SearchParams::default());
        }
    }

    #[test]
    fn unbounded_estimates_say_why() {
        let e = |elo: f64, error: f64| elo_cell(Estimate { elo, error });
        assert_eq!(e(12.0, 5.5), "+12.0 +/- 5.5");
        let one_sided = e(381.7, f64::INFINITY);
        assert!(
            one_sided.starts_with("+381.7 (95% interval unbounded above"),
            "{one_sided}"
        );
        assert!(!one_sided.contains("+/- inf"));
        assert!(e(f64::INFINITY, f64::INFINITY).contains("every game won by on"));
        assert!(e(-50.0, f64::NAN).contains("unbounded below"));
    }

    #[test]
    fn the_table_has_a_row_for_every_switch() {
        let depth = 3;
        let default = DepthRun::measure(depth, SearchParams::default());
        let mut rows: Vec<Row> = switches()
            .into_iter()
            .map(|switch| {
                let flipped = DepthRun::measure(depth, with_switch(&switch, !switch.default));
                let (off, on) = if switch.default {
                    (flipped, default.clone())
                } else {
                    (default.clone(), flipped)
                };
                Row {
                    switch,
                    off,
                    on,
                    games: None,
                }
            })
            .collect();
        assert!(default.ebf().is_some());
        // One short match for the first row.
        let config = ArenaConfig {
            threads: 2,
            ..ArenaConfig::default()
        };
        let opening = openings::pick(&openings::embedded(), 1, 1);
        rows[0].games = Some(elo_match(
            &rows[0].switch,
            1,
            MoveLimit::Nodes(300),
            &opening,
            &config,
            &|_| {},
        ));
        let table = markdown(depth, &rows, Some("test"));
        for s in switches() {
            assert!(table.contains(&format!("| {} |", s.name)), "{}", s.name);
        }
        assert_eq!(
            table.lines().filter(|l| l.starts_with("| ")).count(),
            rows.len() + 1
        );
        assert!(rows[0].elo().is_some());
        assert_eq!(rows[0].games.unwrap().wdl.games(), 2);
        let chart = nodes_chart(&default, &rows);
        assert_eq!(chart.series.len(), rows.len() + 1);
        assert_eq!(elo_chart(&rows, MoveLimit::Nodes(300)).bars.len(), 1);
    }
}
