//! `kestrel ablate`: what each switchable search technique is worth, in
//! nodes, CPU time and branching factor to a fixed depth, and in Elo.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use arena::ablation::{self, Row};
use arena::pairs::{ArenaConfig, MoveLimit};
use clap::Args;
use indicatif::ProgressBar;
use matchcore::{openings, progress};

/// Options of `kestrel ablate`.
#[derive(Args)]
pub struct AblateArgs {
    /// Depth the bench positions are searched to.
    #[arg(long, default_value_t = 10)]
    depth: i32,
    /// Pairs of bench runs per technique (off and on, in alternating
    /// order) whose CPU times give the time ratio and its 95% interval;
    /// 1 gives no interval.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Games per technique in a match with it off vs on (0: no games; an
    /// odd number is rounded up to whole pairs).
    #[arg(long, default_value_t = 0)]
    games: usize,
    /// Nodes per move in those games.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Openings for the games: a FEN/EPD file (default: 64 compiled in).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Seed of the openings' order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only these techniques (UCI option names; repeatable).
    #[arg(long = "only", value_name = "OPTION")]
    only: Vec<String>,
    /// Directory for ablation.md and the charts.
    #[arg(long, default_value = "ablation")]
    out: PathBuf,
}

fn bar(len: u64, what: &str) -> ProgressBar {
    progress::bar(
        len,
        &format!("{{bar:30}} {{pos}}/{{len}} {what} {{msg}} [{{elapsed}}]"),
    )
}

/// Runs `kestrel ablate`.
pub fn run(args: AblateArgs) -> Result<()> {
    if !(3..=30).contains(&args.depth) {
        bail!("--depth {} is out of range; use 3 to 30", args.depth);
    }
    if !(1..=100).contains(&args.runs) {
        bail!("--runs {} is out of range; use 1 to 100", args.runs);
    }
    if args.games > 0 && args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let mut switches = ablation::switches();
    if !args.only.is_empty() {
        for name in &args.only {
            if !switches.iter().any(|s| s.name.eq_ignore_ascii_case(name)) {
                let known: Vec<&str> = switches.iter().map(|s| s.name).collect();
                bail!(
                    "--only {name}: not a search technique; choose from {}",
                    known.join(", ")
                );
            }
        }
        switches.retain(|s| args.only.iter().any(|n| s.name.eq_ignore_ascii_case(n)));
    }
    let pairs = args.games.div_ceil(2);
    if pairs > 0 && (pairs as u64) < ablation::MIN_PAIRS_FOR_INTERVAL {
        eprintln!(
            "note: --games {} plays {pairs} game pairs a technique, too few for an Elo interval (the table says so); {} games give one, and a figure worth reporting takes hundreds",
            args.games,
            2 * ablation::MIN_PAIRS_FOR_INTERVAL
        );
    }
    let openings = match &args.openings {
        Some(path) => openings::read_positions(path)?,
        None => openings::embedded(),
    };
    let openings = openings::pick(&openings, pairs, args.seed);
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create the output directory {}", args.out.display()))?;

    let progress = bar((switches.len() * args.runs * 2) as u64, "bench runs");
    let mut rows: Vec<Row> = Vec::new();
    for switch in &switches {
        progress.set_message(switch.name);
        let row = Row::measure(*switch, args.depth, args.runs, &|| progress.inc(1))
            .context("cannot read the process's CPU time")?;
        rows.push(row);
    }
    progress.finish_and_clear();

    let limit = MoveLimit::Nodes(args.nodes);
    let config = ArenaConfig {
        threads: args.threads.max(1),
        ..ArenaConfig::default()
    };
    if pairs > 0 {
        let progress = bar((rows.len() * pairs * 2) as u64, "games");
        for (i, row) in rows.iter_mut().enumerate() {
            progress.set_message(row.switch.name);
            let before = (i * pairs * 2) as u64;
            let p = progress.clone();
            let tally =
                ablation::elo_match(&row.switch, pairs, limit, &openings, &config, &move |n| {
                    p.set_position(before + n as u64);
                });
            row.games = Some(tally);
        }
        progress.finish_and_clear();
    }

    let note = (pairs > 0).then(|| {
        format!(
            "{} games per technique ({pairs} openings, colours reversed) at {limit} per move, \
             default technique settings otherwise; error = 95% interval from game pairs.",
            pairs * 2
        )
    });
    let table = ablation::markdown(args.depth, &rows, note.as_deref());
    print!("{table}");
    let md = args.out.join("ablation.md");
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    engine::output::write(&md, format!("Command: `{command}`\n\n{table}"))
        .with_context(|| format!("cannot write {}", md.display()))?;
    let csv = args.out.join("ablation.csv");
    engine::output::write(&csv, ablation::csv(&rows))
        .with_context(|| format!("cannot write {}", csv.display()))?;
    let nodes_png = args.out.join("ablation_nodes.png");
    let default = rows
        .first()
        .map(|r| r.default_run().clone())
        .context("no technique to measure")?;
    charts::line_chart(&ablation::nodes_chart(&default, &rows), &nodes_png)?;
    let time_png = args.out.join("ablation_time.png");
    charts::bar_chart(&ablation::time_chart(&rows, args.depth), &time_png)?;
    let mut written = vec![
        md.display().to_string(),
        csv.display().to_string(),
        nodes_png.display().to_string(),
        time_png.display().to_string(),
    ];
    if pairs > 0 {
        let elo_png = args.out.join("ablation_elo.png");
        charts::bar_chart(&ablation::elo_chart(&rows, limit), &elo_png)?;
        written.push(elo_png.display().to_string());
    }
    eprintln!("wrote {}", written.join(", "));
    Ok(())
}
