//! `kestrel tune ga`: genetic tuning of evaluation weights by self-play
//! tournaments in the arena.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use arena::pairs::{ArenaConfig, MoveLimit};
use clap::{Args, ValueEnum};
use engine::eval::hce::weights::Weights;
use matchcore::game_loop::{CapVerdict, GameRules};
use matchcore::{openings, progress};
use tune::ga::{self, GaConfig, Mode};

/// How the losers of a generation are replaced.
#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    /// Fresh random weight sets around the starting weights.
    Preservation,
    /// Children of the survivors: crossover term by term, then mutation.
    Mutation,
}

/// Options of `kestrel tune ga`.
#[derive(Args)]
pub struct GaArgs {
    /// Weight sets per generation.
    #[arg(long, default_value_t = 8)]
    population: usize,
    /// Generations.
    #[arg(long, default_value_t = 10)]
    generations: usize,
    /// Survivors per generation (default: half the population).
    #[arg(long)]
    survivors: Option<usize>,
    /// How the rest are replaced.
    #[arg(long, value_enum, default_value_t = ModeArg::Mutation)]
    mode: ModeArg,
    /// Terms to tune, as named in weights.txt (repeatable; default:
    /// material and mobility).
    #[arg(long = "terms", value_delimiter = ',', num_args = 1..)]
    terms: Vec<String>,
    /// Nodes per move.
    #[arg(long, default_value_t = 1000, conflicts_with = "depth")]
    nodes: u64,
    /// Depth per move instead of nodes.
    #[arg(long)]
    depth: Option<i32>,
    /// Game pairs each two members play per generation.
    #[arg(long, default_value_t = 1)]
    pairs: usize,
    /// Games of each generation's best against the starting weights.
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// After the last generation, games of its best against the start
    /// (a larger sample for the final figure; 0: none).
    #[arg(long, default_value_t = 0)]
    final_games: usize,
    /// Move cap of tournament games (full moves); unfinished games are won
    /// by the side both evaluations put --judge-margin ahead, else drawn.
    #[arg(long, default_value_t = 80)]
    max_moves: usize,
    /// Centipawns both evaluations must agree on at the move cap.
    #[arg(long, default_value_t = 100)]
    judge_margin: i32,
    /// Largest change of a mutated or fresh weight, as a share of its size
    /// (plus --step-cp).
    #[arg(long, default_value_t = 0.15)]
    step: f64,
    /// Largest change in centipawns added to --step.
    #[arg(long, default_value_t = 5)]
    step_cp: i32,
    /// Chance that a child's weight mutates.
    #[arg(long, default_value_t = 0.2)]
    mutation_rate: f64,
    /// Start from these weights (default: the compiled-in ones).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Start from the hand-set seed weights instead (the Texel tuner's start).
    #[arg(long, conflicts_with = "init")]
    from_seed: bool,
    /// Openings: a FEN/EPD file (default: 64 compiled in).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the last generation's best weights (weights.txt
    /// format, loadable with the UCI option EvalFile).
    #[arg(long, default_value = "ga-weights.txt")]
    out: PathBuf,
    /// Chart of the Elo of each generation's best against the start (PNG).
    #[arg(long, default_value = "ga-elo.png")]
    plot: PathBuf,
}

/// Runs `kestrel tune ga`.
pub fn run(args: GaArgs) -> Result<()> {
    if args.population < 2 {
        bail!("--population must be at least 2");
    }
    if args.generations == 0 {
        bail!("--generations must be at least 1");
    }
    let survivors = args.survivors.unwrap_or(args.population / 2);
    if survivors == 0 || survivors >= args.population {
        bail!(
            "--survivors must be from 1 to {} (below the population)",
            args.population - 1
        );
    }
    if !(0.0..=1.0).contains(&args.mutation_rate) {
        bail!("--mutation-rate is a probability from 0 to 1");
    }
    if !(0.0..=10.0).contains(&args.step) || args.step_cp < 0 {
        bail!("--step must be from 0 to 10 and --step-cp at least 0");
    }
    let limit = match args.depth {
        Some(d) if (1..=30).contains(&d) => MoveLimit::Depth(d),
        Some(d) => bail!("--depth {d} is out of range; use 1 to 30"),
        None if args.nodes == 0 => bail!("--nodes must be at least 1"),
        None => MoveLimit::Nodes(args.nodes),
    };
    if args.pairs == 0 {
        bail!("--pairs must be at least 1");
    }
    let names: Vec<&str> = if args.terms.is_empty() {
        ga::DEFAULT_TERMS.to_vec()
    } else {
        args.terms.iter().map(String::as_str).collect()
    };
    let terms = ga::terms(&names)?;
    let start = if args.from_seed {
        engine::eval::hce::seed::seed_weights()
    } else if let Some(path) = &args.init {
        Weights::load(path).with_context(|| format!("--init {}", path.display()))?
    } else {
        (*Weights::default_shared()).clone()
    };
    let all_openings = match &args.openings {
        Some(path) => openings::read_positions(path)?,
        None => openings::embedded(),
    };
    let threads = args.threads.max(1);
    let tournament = ArenaConfig {
        threads,
        rules: GameRules {
            max_plies: Some(args.max_moves.max(1) * 2),
            at_cap: CapVerdict::Judge {
                margin: args.judge_margin,
            },
            ..ArenaConfig::default().rules
        },
        ..ArenaConfig::default()
    };
    let elo_match = ArenaConfig {
        threads,
        ..ArenaConfig::default()
    };
    let config = GaConfig {
        population: args.population,
        generations: args.generations,
        survivors,
        mode: match args.mode {
            ModeArg::Preservation => Mode::Preservation,
            ModeArg::Mutation => Mode::Mutation,
        },
        terms,
        limit,
        pairs_per_match: args.pairs,
        elo_pairs: args.games.div_ceil(2),
        step: args.step,
        step_cp: args.step_cp,
        mutation_rate: args.mutation_rate,
        tournament,
        elo_match,
        seed: args.seed,
    };
    let tuned: usize = config.terms.iter().map(|t| t.len * 2).sum();
    eprintln!(
        "{} weight sets x {} generations, {tuned} numbers tuned ({}), {limit} per move, {} games a generation",
        config.population,
        config.generations,
        names.join(", "),
        ga::games_per_generation(&config)
    );
    println!("| generation | best's tournament score | best vs start: Elo | games (W-D-L) |");
    println!("|---:|---:|---:|---:|");
    let progress = progress::bar(
        ga::games_per_generation(&config) as u64,
        "{bar:30} {pos}/{len} games of generation {msg} [{elapsed}]",
    );
    progress.set_message("1");
    let p = progress.clone();
    let start = Arc::new(start);
    let generations = ga::run(
        start.clone(),
        &all_openings,
        &config,
        |g| {
            let (elo, games) = match g.vs_start {
                Some(t) => (t.pairs.elo().display(), t.wdl.games_and_split()),
                None => ("the start itself".into(), "-".into()),
            };
            progress.suspend(|| {
                println!(
                    "| {} | {:.1}% | {elo} | {games} |",
                    g.number,
                    g.ranking[0].1 * 100.0
                );
            });
            progress.set_message((g.number + 1).to_string());
            progress.set_position(0);
        },
        &move |n| p.set_position(n as u64),
    );
    progress.finish_and_clear();
    let best = generations
        .last()
        .expect("at least one generation ran")
        .best();
    if args.final_games > 0 {
        let pairs = args.final_games.div_ceil(2);
        let final_bar = progress::bar(
            pairs as u64 * 2,
            "{bar:30} {pos}/{len} final games [{elapsed}]",
        );
        let fb = final_bar.clone();
        // Openings drawn apart from the generations' (another seed).
        let openings = openings::pick(&all_openings, pairs, args.seed ^ 0x5eed_f1a1);
        let t = ga::versus(
            best,
            &start,
            pairs,
            limit,
            &openings,
            &config.elo_match,
            &move |n| fb.set_position(n as u64),
        );
        final_bar.finish_and_clear();
        println!(
            "\nFinal: best vs start over {} games ({}-{}-{}): {} Elo (pentanomial {:?}), LOS {:.1}%",
            t.wdl.games(),
            t.wdl.wins,
            t.wdl.draws,
            t.wdl.losses,
            t.pairs.elo().display(),
            t.pairs.counts,
            t.pairs.los() * 100.0
        );
    }
    engine::output::write(&args.out, best.to_text())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let title = format!(
        "GA ({:?}, population {}, {limit}): best vs start",
        config.mode, config.population
    );
    charts::line_chart(&ga::elo_chart(&generations, &title), &args.plot)?;
    eprintln!(
        "wrote {} (load it with: setoption name EvalFile value {}) and {}",
        args.out.display(),
        args.out.display(),
        args.plot.display()
    );
    Ok(())
}
