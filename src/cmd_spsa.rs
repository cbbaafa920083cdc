//! `kestrel tune spsa`: SPSA tuning of the search's tunables (or any UCI
//! engine's numeric options) by game pairs, with a progress bar, a log that
//! a later run resumes from, a chart of every parameter's path, and the
//! result printed as OpenBench SPSA input.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use charts::{line_chart, LineChart, Point, Series};
use clap::Args;
use matchcore::adjudication::{DrawRule, ResignRule};
use matchcore::game_loop::{Adjudication, CapVerdict, GameRules};
use matchcore::openings::{OpeningFormat, OpeningOrder, OpeningsSpec};
use matchcore::progress;
use matchcore::search_limits::SearchLimits;
use matchcore::time_control::TimeControl;
use matchrunner::engine_spec::EngineSpec;
use tune::spsa::{self, Schedule, SpsaConfig, SpsaParam};

/// Options of `kestrel tune spsa`.
#[derive(Args)]
pub struct SpsaArgs {
    /// The engine to tune: a Kestrel built with `--features tune` (whose
    /// tunables are UCI options), or any UCI engine with --params.
    #[arg(long)]
    engine: PathBuf,
    /// OpenBench SPSA input (`name, int, value, min, max, c_end, r_end`
    /// lines); default: all of this build's tunables at their defaults.
    #[arg(long)]
    params: Option<PathBuf>,
    /// Game pairs in the whole run (the gains' schedule depends on it).
    #[arg(long, default_value_t = 2000)]
    pairs: u64,
    /// Time control per game, cutechess style (`8+0.08`); or use --nodes.
    #[arg(long, conflicts_with = "nodes")]
    tc: Option<String>,
    /// Nodes per move instead of a clock (results do not depend on load).
    #[arg(long)]
    nodes: Option<u64>,
    /// Balanced openings (EPD), taken at random.
    #[arg(long)]
    openings: PathBuf,
    /// Pairs played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the perturbations and opening choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The log: one line per finished pair; an existing log is resumed.
    #[arg(long, default_value = "spsa.csv")]
    log: PathBuf,
    /// Chart of every parameter's change from its start (PNG).
    #[arg(long, default_value = "spsa.png")]
    chart: PathBuf,
    /// An engine option set for both sides (NAME=VALUE, repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// Runs the tuning.
pub fn run(args: SpsaArgs) -> Result<()> {
    let params = match &args.params {
        Some(path) => spsa::parse_params(
            &std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?,
        )?,
        None => {
            let lines: Vec<String> = engine::params::TUNABLES
                .iter()
                .map(|t| t.openbench_line(t.default))
                .collect();
            spsa::parse_params(&lines.join("\n"))?
        }
    };
    let budget = spsa::Budget::check(&params, args.pairs);
    let needed = budget.pairs_needed.map_or_else(
        || "more than a million pairs".to_string(),
        |n| format!("--pairs {n}"),
    );
    if !budget.small_c_end.is_empty() {
        eprintln!(
            "warning: c_end below 0.5 for {}: both engines of a late pair often play the same whole number, and such a pair teaches nothing; OpenBench's guide is about a twentieth of the range",
            budget.small_c_end.join(", ")
        );
    }
    let ints = params.iter().filter(|p| p.integer).count();
    if ints > 0 && budget.frozen.len() == ints {
        bail!(
            "--pairs {} cannot move any value: even if every pair went one way, no parameter would change by half a step (so its rounded value never changes); the smallest run that could move each by a whole step is {needed}, and a tune worth its games takes many times that",
            args.pairs
        );
    }
    if !budget.frozen.is_empty() {
        eprintln!(
            "warning: --pairs {} cannot move {} of the {ints} whole-number parameters by half a step ({}); {needed} could move each",
            args.pairs,
            budget.frozen.len(),
            budget.frozen.join(", ")
        );
    }
    let mut engine = EngineSpec::new(&args.engine.display().to_string());
    engine.name = "kestrel".to_string();
    engine.limits = match (&args.tc, args.nodes) {
        (Some(tc), _) => SearchLimits {
            tc: Some(
                TimeControl::parse_seconds(tc)
                    .map_err(|e| anyhow::anyhow!("--tc: {e}"))?
                    .context("--tc needs a clock, such as 8+0.08")?,
            ),
            ..SearchLimits::default()
        },
        (None, Some(n)) => SearchLimits {
            nodes: Some(n),
            ..SearchLimits::default()
        },
        (None, None) => bail!("give a time control (--tc 8+0.08) or a node budget (--nodes N)"),
    };
    engine.time_margin = Duration::from_millis(100);
    engine
        .options
        .push(("OwnBook".to_string(), "false".to_string()));
    for o in &args.options {
        let (name, value) = o
            .split_once('=')
            .with_context(|| format!("--option {o}: write NAME=VALUE"))?;
        engine.options.push((name.to_string(), value.to_string()));
    }
    spsa::check_options(&engine, &params)?;
    let openings = matchcore::openings::load(
        &OpeningsSpec {
            file: args.openings.clone(),
            format: OpeningFormat::Epd,
            order: OpeningOrder::Sequential,
            plies: None,
            start: 1,
        },
        args.seed,
    )?;
    let config = SpsaConfig {
        engine,
        params: params.clone(),
        schedule: Schedule::new(args.pairs),
        openings,
        // OpenBench's adjudication: decided games end early, dead draws too.
        rules: GameRules {
            adjudication: Adjudication::Streaks {
                draw: Some(DrawRule::cutechess(40, 8, 10)),
                resign: Some(ResignRule::cutechess(3, 1000, true)),
            },
            max_plies: Some(600),
            at_cap: CapVerdict::Draw,
            hang_timeout: Duration::from_secs(60),
            tablebase: None,
        },
        concurrency: args.concurrency,
        seed: args.seed,
    };
    let done = spsa::resume(&args.log, &params)?.map_or(0, |s| s.iteration);
    let bar = progress::bar(
        args.pairs,
        "{bar:30} {pos}/{len} pairs {msg} [{elapsed_precise}, eta {eta}]",
    );
    bar.set_position(done.min(args.pairs));
    let stop = AtomicBool::new(false);
    let state = spsa::run(&config, &args.log, &stop, &|s| {
        bar.set_position(s.iteration);
        bar.set_message(format!("+{} -{} ={}", s.wins, s.losses, s.draws));
    })?;
    bar.finish_and_clear();
    println!(
        "{} pairs: plus side +{} -{} ={}; the values now (OpenBench SPSA input):",
        state.iteration, state.wins, state.losses, state.draws
    );
    // Within a longer report: the lines end as the report's do (`kestrel tune
    // spsa-params` prints the input alone, with no newline after it).
    println!("{}", spsa::as_input(&params, &state.values));
    draw_chart(&args, &params)?;
    println!(
        "log: {}, chart: {}",
        args.log.display(),
        args.chart.display()
    );
    Ok(())
}

/// Each parameter's change from its start, in its c_end steps, over pairs.
fn draw_chart(args: &SpsaArgs, params: &[SpsaParam]) -> Result<()> {
    let path = spsa::trajectory(&args.log, params)?;
    let series = params
        .iter()
        .enumerate()
        .map(|(i, p)| Series {
            name: p.name.clone(),
            points: std::iter::once(Point {
                x: 0.0,
                y: 0.0,
                err: 0.0,
            })
            .chain(path.iter().map(|(k, values)| Point {
                x: *k as f64,
                y: (values[i] - p.start) / p.c_end,
                err: 0.0,
            }))
            .collect(),
        })
        .collect();
    let chart = LineChart {
        title: "SPSA: each parameter's change from its start".to_string(),
        x_label: "game pairs".to_string(),
        y_label: "change (in steps of c_end)".to_string(),
        log_y: false,
        series,
    };
    line_chart(&chart, &args.chart)?;
    Ok(())
}
