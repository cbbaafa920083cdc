//! Ablation: what each switchable search technique is worth. Nodes, CPU
//! time and effective branching factor to reach a fixed depth over the
//! bench positions with the technique off and on, and optionally an Elo
//! estimate from an arena match between the two. The list of techniques
//! is read from `SearchParams::list()`, so it never goes stale.
//!
//! Time is the process's CPU time, not the wall clock: on a loaded machine
//! the wall clock counts the time other processes had the core, and the
//! ratio of two runs moved by a factor of two between runs of the same
//! switch. CPU time still moves with cache and frequency contention, so
//! the runs are repeated, in pairs of alternating order, and the ratio is
//! reported with its 95% interval ([`RatioEstimate`]).

use std::time::Duration;

use chess::Position;
use cpu_time::ProcessTime;
use elo::{Pentanomial, RatioError, RatioEstimate};
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
    /// CPU time of the process while it searched them.
    pub cpu: Duration,
    /// Nodes when each depth was complete (index 0: depth 1).
    pub per_depth: Vec<u64>,
}

impl DepthRun {
    /// Runs the bench positions to `depth` with `params` and the default
    /// evaluator ([`EvalKind::default`], which the report names). An error
    /// only where the system has no CPU-time clock.
    pub fn measure(depth: i32, params: SearchParams) -> std::io::Result<DepthRun> {
        // The process's clock rather than the thread's: the search may run
        // on a thread of its own, and nothing else here uses the CPU.
        let start = ProcessTime::try_now()?;
        let r = bench::run(depth, params, EvalKind::default());
        let cpu = ProcessTime::try_now()?.duration_since(start);
        Ok(DepthRun {
            nodes: r.nodes,
            cpu,
            per_depth: r.per_depth,
        })
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
    /// Bench with it off (the first run; nodes do not change between runs).
    pub off: DepthRun,
    /// Bench with it on (the first run).
    pub on: DepthRun,
    /// CPU time of every pair of runs, (off, on), the first included.
    pub cpu: Vec<(Duration, Duration)>,
    /// The match: the "on" configuration's results against "off".
    pub games: Option<Tally>,
}

impl Row {
    /// Measures `switch` with `runs` pairs of bench runs (at least one),
    /// the default configuration and the one with `switch` flipped, in
    /// alternating order (default first in even pairs, flipped first in
    /// odd ones) so that a load that rises or falls over the runs weighs
    /// on both sides alike. `progress` is called after every run.
    pub fn measure(
        switch: Switch,
        depth: i32,
        runs: usize,
        progress: &dyn Fn(),
    ) -> std::io::Result<Row> {
        let flipped_params = with_switch(&switch, !switch.default);
        let mut measured: Vec<(DepthRun, DepthRun)> = Vec::with_capacity(runs.max(1));
        for k in 0..runs.max(1) {
            let run = |params: SearchParams| {
                let r = DepthRun::measure(depth, params);
                progress();
                r
            };
            let (default, flipped) = if k % 2 == 0 {
                let d = run(SearchParams::default())?;
                (d, run(flipped_params)?)
            } else {
                let f = run(flipped_params)?;
                (run(SearchParams::default())?, f)
            };
            measured.push(if switch.default {
                (flipped, default)
            } else {
                (default, flipped)
            });
        }
        let cpu = measured.iter().map(|(off, on)| (off.cpu, on.cpu)).collect();
        let (off, on) = measured.swap_remove(0);
        Ok(Row {
            switch,
            off,
            on,
            cpu,
            games: None,
        })
    }

    /// The run of the default configuration (nodes by depth).
    pub fn default_run(&self) -> &DepthRun {
        if self.switch.default {
            &self.on
        } else {
            &self.off
        }
    }

    /// Mean CPU time with the technique off and on.
    pub fn mean_cpu(&self) -> (Duration, Duration) {
        let n = u32::try_from(self.cpu.len().max(1)).unwrap_or(u32::MAX);
        let (off, on) = self
            .cpu
            .iter()
            .fold((Duration::ZERO, Duration::ZERO), |(a, b), (x, y)| {
                (a + *x, b + *y)
            });
        (off / n, on / n)
    }

    /// CPU time off over on (above 1: the technique saves time), with its
    /// 95% interval over the pairs of runs.
    pub fn time_ratio(&self) -> Result<RatioEstimate, RatioError> {
        let pairs: Vec<(f64, f64)> = self
            .cpu
            .iter()
            .map(|(off, on)| (off.as_secs_f64(), on.as_secs_f64()))
            .collect();
        RatioEstimate::from_pairs(&pairs)
    }

    /// Elo of "on" over "off", from the game pairs.
    pub fn elo(&self) -> Option<EloCell> {
        self.games.map(|t| EloCell::new(&t.pairs))
    }
}

/// The fewest game pairs from which an Elo interval is given: below it
/// the pairs' spread says nothing (two pairs drawn alike gave `+0.0 +/-
/// 0.0`), and the cell says how many to play instead.
pub const MIN_PAIRS_FOR_INTERVAL: u64 = 10;

/// The Elo of a match as the report gives it: the estimate, the ends of
/// its 95% interval, and, where an end is open, why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloCell {
    /// The estimate (infinite at a 100% or 0% score).
    pub elo: f64,
    /// The interval's low end (`-inf`: unbounded below).
    pub low: f64,
    /// The interval's high end (`+inf`: unbounded above).
    pub high: f64,
    /// The game pairs behind it.
    pub pairs: u64,
}

impl EloCell {
    /// From the game pairs of "on" against "off". Pairs that all scored
    /// alike (no spread), or fewer than [`MIN_PAIRS_FOR_INTERVAL`] whose
    /// interval would be finite, bound nothing: both ends open.
    pub fn new(pairs: &Pentanomial) -> EloCell {
        let (mut low, mut high) = pairs.elo_bounds();
        let alike = pairs.counts.iter().filter(|&&c| c > 0).count() <= 1;
        let few = pairs.pairs() < MIN_PAIRS_FOR_INTERVAL && low.is_finite() && high.is_finite();
        if alike || few {
            (low, high) = (f64::NEG_INFINITY, f64::INFINITY);
        }
        EloCell {
            elo: pairs.elo().elo,
            low,
            high,
            pairs: pairs.pairs(),
        }
    }

    /// Why the interval is open, `None` where both ends are finite.
    pub fn open_because(&self) -> Option<&'static str> {
        Some(
            match (
                self.elo.is_finite(),
                self.low.is_finite(),
                self.high.is_finite(),
            ) {
                (_, true, true) => return None,
                (false, _, _) if self.elo > 0.0 => {
                    "on scored 100%: no finite estimate, play more games"
                }
                (false, _, _) => "off scored 100%: no finite estimate, play more games",
                (true, true, false) => {
                    "unbounded above: too few games lost or drawn by on to bound it"
                }
                (true, false, true) => {
                    "unbounded below: too few games won or drawn by on to bound it"
                }
                (true, false, false) if self.pairs < MIN_PAIRS_FOR_INTERVAL => {
                    "too few game pairs for an interval: play at least 10 (--games 20)"
                }
                (true, false, false) => {
                    "every pair scored alike: no spread to bound it, play more games"
                }
            },
        )
    }

    /// `+12.0 +/- 5.5`, or the estimate, the finite end and why the other
    /// is open (never `+/- inf`).
    pub fn display(&self) -> String {
        let Some(why) = self.open_because() else {
            let e = elo::Estimate {
                elo: self.elo,
                error: (self.high - self.low) / 2.0,
            };
            return e.display();
        };
        if !self.elo.is_finite() {
            return format!("none ({why})");
        }
        let end = |v: f64| {
            if v.is_finite() {
                format!("{v:+.1}")
            } else {
                "open".into()
            }
        };
        format!(
            "{:+.1} (95% interval {} to {}; {why})",
            self.elo,
            end(self.low),
            end(self.high)
        )
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

fn time_cell(row: &Row) -> String {
    match row.time_ratio() {
        Ok(r) => r.display(),
        Err(e) => format!("- ({e})"),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1000.0)
}

/// The ablation table in Markdown: per technique, nodes, CPU time and EBF
/// with it off and on, and the Elo of "on" over "off" where games were
/// played.
pub fn markdown(depth: i32, rows: &[Row], games_note: Option<&str>) -> String {
    let runs = rows.first().map_or(0, |r| r.cpu.len());
    let mut out = format!(
        "Bench positions ({}) searched to depth {depth}, one thread, 16 MiB table, \
         evaluator {} (searches and games); \
         off/on ratios above 1 mean the technique saves nodes or time. \
         EBF = sqrt(N(D)/N(D-2)).\n\
         Time: CPU time of the process (not the wall clock), mean of {runs} run{} each \
         with the technique off and on, in pairs of alternating order; time off/on is \
         the geometric mean of the pairs' ratios with its 95% t-interval.\n",
        bench::BENCH_FENS.len(),
        EvalKind::default().name(),
        if runs == 1 { "" } else { "s" },
    );
    if let Some(note) = games_note {
        out.push_str(&format!("Elo: {note}\n"));
    }
    out.push('\n');
    out.push_str(
        "| technique | default | nodes off | nodes on | nodes off/on | CPU off (ms) | CPU on (ms) | time off/on (95%) | EBF off | EBF on | Elo on vs off | games (W-D-L of on) |\n",
    );
    out.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let (elo, games) = match (r.elo(), r.games) {
            (Some(e), Some(t)) => (e.display(), t.wdl.games_and_split()),
            _ => ("-".into(), "-".into()),
        };
        let (cpu_off, cpu_on) = r.mean_cpu();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.switch.name,
            if r.switch.default { "on" } else { "off" },
            r.off.nodes,
            r.on.nodes,
            ratio(r.off.nodes as f64, r.on.nodes as f64),
            ms(cpu_off),
            ms(cpu_on),
            time_cell(r),
            ebf(&r.off),
            ebf(&r.on),
            elo,
            games,
        ));
    }
    out
}

/// The same measurements as CSV, one row per technique, for a spreadsheet
/// or a script: every CPU time measured (space-separated, in the order of
/// the runs), the time ratio and the Elo with the ends of their 95%
/// intervals (an empty cell where there is none, `elo_note` saying why).
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "technique,default,nodes_off,nodes_on,ebf_off,ebf_on,cpu_ms_off,cpu_ms_on,\
         cpu_ms_off_runs,cpu_ms_on_runs,time_ratio,time_ratio_low,time_ratio_high,\
         games,wins,draws,losses,elo,elo_low,elo_high,elo_note\n",
    );
    let num = |v: Option<f64>, decimals: usize| match v {
        // `+ 0.0` turns -0.0 into 0.0.
        Some(v) if v.is_finite() => format!("{:.decimals$}", v + 0.0),
        _ => String::new(),
    };
    let runs = |pick: fn(&(Duration, Duration)) -> Duration, r: &Row| {
        r.cpu
            .iter()
            .map(|p| format!("{:.1}", pick(p).as_secs_f64() * 1000.0))
            .collect::<Vec<_>>()
            .join(" ")
    };
    for r in rows {
        let (cpu_off, cpu_on) = r.mean_cpu();
        let t = r.time_ratio().ok();
        let interval = t.and_then(|t| t.interval);
        let elo = r.elo();
        let wdl = r.games.map(|g| g.wdl);
        let fields = [
            r.switch.name.to_string(),
            if r.switch.default { "on" } else { "off" }.to_string(),
            r.off.nodes.to_string(),
            r.on.nodes.to_string(),
            num(r.off.ebf(), 3),
            num(r.on.ebf(), 3),
            format!("{:.1}", cpu_off.as_secs_f64() * 1000.0),
            format!("{:.1}", cpu_on.as_secs_f64() * 1000.0),
            runs(|p| p.0, r),
            runs(|p| p.1, r),
            num(t.map(|t| t.ratio), 4),
            num(interval.map(|i| i.0), 4),
            num(interval.map(|i| i.1), 4),
            wdl.map_or(String::new(), |w| w.games().to_string()),
            wdl.map_or(String::new(), |w| w.wins.to_string()),
            wdl.map_or(String::new(), |w| w.draws.to_string()),
            wdl.map_or(String::new(), |w| w.losses.to_string()),
            num(elo.map(|e| e.elo), 1),
            num(elo.map(|e| e.low), 1),
            num(elo.map(|e| e.high), 1),
            // The reasons hold commas: quoted.
            elo.and_then(|e| e.open_because())
                .map_or(String::new(), |why| format!("\"{why}\"")),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
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

/// Elo of each technique (on over off) with its 95% interval, largest
/// first; where the interval is open, the label says why and the error
/// bar runs to the edge of the chart.
pub fn elo_chart(rows: &[Row], limit: MoveLimit) -> BarChart {
    let mut bars: Vec<Bar> = rows
        .iter()
        .filter_map(|r| {
            r.elo().map(|e| {
                let short = match e.open_because() {
                    None => String::new(),
                    Some(_) if !e.elo.is_finite() => " (100% score: no finite estimate)".into(),
                    Some(_) => match (e.low.is_finite(), e.high.is_finite()) {
                        (true, false) => " (interval unbounded above)".into(),
                        (false, true) => " (interval unbounded below)".into(),
                        _ => " (interval unbounded)".into(),
                    },
                };
                Bar {
                    label: format!("{}{short}", r.switch.name),
                    value: e.elo,
                    interval: e.elo.is_finite().then_some((e.low, e.high)),
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
        origin: 0.0,
        bars,
    }
}

/// CPU time off over on for each technique (above 1: it saves time), with
/// its 95% interval, largest first.
pub fn time_chart(rows: &[Row], depth: i32) -> BarChart {
    let mut bars: Vec<Bar> = rows
        .iter()
        .map(|r| match r.time_ratio() {
            Ok(t) => Bar {
                label: match t.interval {
                    Some(_) => r.switch.name.to_string(),
                    None => format!("{} (1 run: no interval)", r.switch.name),
                },
                value: t.ratio,
                interval: t.interval,
            },
            Err(e) => Bar {
                label: format!("{} ({e})", r.switch.name),
                value: 1.0,
                interval: None,
            },
        })
        .collect();
    bars.sort_by(|a, b| b.value.total_cmp(&a.value));
    let runs = rows.first().map_or(0, |r| r.cpu.len());
    BarChart {
        title: format!("CPU time to depth {depth}, technique off / on ({runs} runs each)"),
        value_label: "time off / on (above 1: the technique saves time), 95% interval".into(),
        origin: 1.0,
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
        let cell = |counts: [u64; 5]| EloCell::new(&Pentanomial { counts });
        let bounded = cell([5, 20, 45, 22, 8]);
        assert_eq!(bounded.open_because(), None);
        let e = Pentanomial {
            counts: [5, 20, 45, 22, 8],
        }
        .elo();
        assert_eq!(bounded.display(), e.display());
        assert!(!bounded.display().contains("inf"));
        // Three pairs won outright, one drawn: a lower end and no upper one.
        let one_sided = cell([0, 0, 1, 0, 3]);
        let text = one_sided.display();
        assert!(
            text.starts_with(&format!(
                "{:+.1} (95% interval {:+.1} to open; unbounded above: too few games lost or drawn by on",
                one_sided.elo, one_sided.low
            )),
            "{text}"
        );
        assert_eq!(
            text,
            "+338.0 (95% interval +117.4 to open; unbounded above: \
             too few games lost or drawn by on to bound it)",
            "the example docs/search.md quotes"
        );
        let below = cell([3, 0, 1, 0, 0]).display();
        assert!(
            below.contains("to -") && below.contains("unbounded below"),
            "{below}"
        );
        assert!(cell([1, 0, 0, 0, 1])
            .display()
            .contains("too few game pairs"));
        // Two pairs drawn alike gave "+0.0 +/- 0.0"; ten alike bound nothing either.
        assert!(cell([0, 0, 2, 0, 0])
            .display()
            .contains("too few game pairs"));
        let alike = cell([0, 0, 12, 0, 0]).display();
        assert!(alike.contains("every pair scored alike"), "{alike}");
        assert!(!alike.contains("+/-"), "{alike}");
        let won_all = cell([0, 0, 0, 0, 4]);
        assert_eq!(
            won_all.display(),
            "none (on scored 100%: no finite estimate, play more games)"
        );
        assert!(cell([2, 0, 0, 0, 0]).display().contains("off scored 100%"));
        for c in [one_sided, won_all, cell([3, 0, 1, 0, 0])] {
            assert!(!c.display().contains("inf"), "{}", c.display());
        }
    }

    fn tally(counts: [u64; 5]) -> Tally {
        let mut wdl = elo::WdlCounts::default();
        // Enough for the table: a pair's points as wins and losses.
        for (k, &c) in counts.iter().enumerate() {
            let k = k as u64;
            wdl.wins += c * k.saturating_sub(2);
            wdl.losses += c * 2u64.saturating_sub(k);
            wdl.draws += c * (2 - k.abs_diff(2));
        }
        Tally {
            wdl,
            pairs: Pentanomial { counts },
        }
    }

    fn row(cpu: &[(u64, u64)], counts: Option<[u64; 5]>) -> Row {
        let run = |ms: u64| DepthRun {
            nodes: 1000,
            cpu: Duration::from_millis(ms),
            per_depth: vec![10, 100, 1000],
        };
        Row {
            switch: switches()[0],
            off: run(cpu[0].0),
            on: run(cpu[0].1),
            cpu: cpu
                .iter()
                .map(|&(a, b)| (Duration::from_millis(a), Duration::from_millis(b)))
                .collect(),
            games: counts.map(tally),
        }
    }

    #[test]
    fn time_is_a_ratio_of_pairs_with_its_interval_everywhere() {
        let rows = [
            row(&[(300, 200), (330, 220), (270, 180)], Some([0, 0, 1, 0, 3])),
            row(&[(100, 200)], None),
        ];
        let t = rows[0].time_ratio().unwrap();
        assert!((t.ratio - 1.5).abs() < 1e-9);
        assert_eq!(
            rows[0].mean_cpu(),
            (Duration::from_millis(300), Duration::from_millis(200))
        );
        let table = markdown(3, &rows, None);
        assert!(
            table.contains("| 300 | 200 | 1.50x [1.50, 1.50] |"),
            "{table}"
        );
        assert!(table.contains("| 0.50x (1 run: no interval) |"), "{table}");
        assert!(table.contains("mean of 3 runs"), "{table}");
        assert!(!table.contains("inf"), "{table}");
        let csv = csv(&rows);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        let header: Vec<&str> = lines[0].split(',').collect();
        let first: Vec<&str> = lines[1].splitn(header.len(), ',').collect();
        let field = |name: &str| first[header.iter().position(|h| *h == name).unwrap()];
        assert_eq!(field("cpu_ms_off_runs"), "300.0 330.0 270.0");
        assert_eq!(field("time_ratio"), "1.5000");
        assert_eq!(field("time_ratio_low"), "1.5000");
        assert_eq!(field("elo_high"), "", "an open end is an empty cell");
        assert!(!field("elo_low").is_empty());
        assert!(field("elo_note").starts_with("\"unbounded above"));
        assert_eq!(field("games"), "8");
        assert!(lines[2].contains(",0.5000,,,"), "{}", lines[2]);
        let chart = time_chart(&rows, 3);
        assert_eq!(chart.origin, 1.0);
        assert_eq!(
            chart.bars[0].interval.map(|i| (i.0 * 100.0).round()),
            Some(150.0)
        );
        assert!(chart.bars[1].label.ends_with("(1 run: no interval)"));
        let elo = elo_chart(&rows, MoveLimit::Nodes(300));
        assert_eq!(elo.bars.len(), 1);
        assert!(elo.bars[0].label.ends_with("(interval unbounded above)"));
        assert_eq!(elo.bars[0].interval.unwrap().1, f64::INFINITY);
    }

    #[test]
    fn the_table_has_a_row_for_every_switch() {
        let depth = 3;
        let runs = std::cell::Cell::new(0);
        let mut rows: Vec<Row> = switches()
            .into_iter()
            .map(|switch| Row::measure(switch, depth, 2, &|| runs.set(runs.get() + 1)).unwrap())
            .collect();
        assert_eq!(runs.get(), rows.len() * 4);
        for r in &rows {
            assert_eq!(r.cpu.len(), 2);
            assert!(r
                .cpu
                .iter()
                .all(|&(a, b)| a > Duration::ZERO && b > Duration::ZERO));
            assert!(r.time_ratio().unwrap().interval.is_some());
            assert_eq!(r.default_run().nodes, rows[0].default_run().nodes);
        }
        let default = rows[0].default_run().clone();
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
        assert_eq!(time_chart(&rows, depth).bars.len(), rows.len());
        assert_eq!(csv(&rows).lines().count(), rows.len() + 1);
    }
}
