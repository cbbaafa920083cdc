//! `kestrel tune texel`: tuning of the evaluation weights (the training
//! data comes from `kestrel datagen`, `cmd_datagen.rs`).

use std::io::BufWriter;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use datagen::dataset::{from_pgn, read_text, write_text, LabelledPosition};
use engine::eval::hce::weights::Weights;
use matchcore::progress;
use tune::texel::{tune, TexelConfig, TexelData};

/// Tuning commands.
#[derive(Subcommand)]
pub enum TuneCommand {
    /// Texel tuning: fit the evaluation weights to game results.
    Texel(TexelArgs),
    /// Genetic tuning: weight sets play tournaments among themselves.
    Ga(crate::cmd_ga::GaArgs),
    /// SPSA tuning of the search's tunables by game pairs (OpenBench's method).
    Spsa(crate::cmd_spsa::SpsaArgs),
    /// Print the search tunables in OpenBench's SPSA input format
    /// (`name, int, value, min, max, c_end, r_end`), for a build with
    /// `--features tune`, whose UCI options they are.
    SpsaParams,
    /// Write the hand-set seed weights (the start of a tuning run from
    /// scratch) as a weight file.
    Seed(SeedArgs),
}

/// Options of `kestrel tune seed`.
#[derive(Args)]
pub struct SeedArgs {
    /// Where to write the seed weights.
    #[arg(long, default_value = "seed-weights.txt")]
    out: PathBuf,
}

/// Options of `kestrel tune texel`.
#[derive(Args)]
pub struct TexelArgs {
    /// Labelled positions (`FEN | 1.0` lines, as `kestrel datagen` writes; repeatable).
    #[arg(long, num_args = 1..)]
    data: Vec<PathBuf>,
    /// PGN files whose games become positions (quiet leaves, from --skip-plies on; repeatable).
    #[arg(long, num_args = 1..)]
    pgn: Vec<PathBuf>,
    /// Opening plies of each PGN game left out.
    #[arg(long, default_value_t = 16)]
    skip_plies: usize,
    /// Use at most this many positions (an even sample of all).
    #[arg(long)]
    max_positions: Option<usize>,
    /// Passes over the data.
    #[arg(long, default_value_t = 500)]
    epochs: usize,
    /// Adam step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// L2 penalty per squared centipawn of change from the starting weights
    /// (regularisation; 0 = none).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Start from these weights (default: the compiled-in ones).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Start from the hand-set seed weights instead.
    #[arg(long, conflicts_with = "init")]
    from_seed: bool,
    /// Where to write the tuned weights.
    #[arg(long, default_value = "weights.txt")]
    out: PathBuf,
    /// Also write the (quiet) training positions used, as `FEN | result` lines.
    #[arg(long)]
    save_positions: Option<PathBuf>,
}

/// Runs a tuning command.
pub fn run(command: TuneCommand) -> Result<()> {
    match command {
        TuneCommand::Texel(args) => texel(args),
        TuneCommand::Ga(args) => crate::cmd_ga::run(args),
        TuneCommand::Spsa(args) => crate::cmd_spsa::run(args),
        TuneCommand::SpsaParams => {
            let values = engine::params::tunable_values();
            let lines: Vec<String> = engine::params::TUNABLES
                .iter()
                .zip(values)
                .map(|(t, v)| t.openbench_line(v))
                .collect();
            print_openbench_input(&lines.join("\n"));
            Ok(())
        }
        TuneCommand::Seed(args) => write_seed(&args.out),
    }
}

/// `kestrel tune seed`: the seed weights to a file, as `EvalFile`,
/// `tune texel --init` and `tune ga` read them.
fn write_seed(out: &std::path::Path) -> Result<()> {
    engine::output::write(out, engine::eval::hce::seed::seed_weights().to_text())
        .with_context(|| format!("cannot write the seed weights to {}", out.display()))?;
    eprintln!("seed weights written to {}", out.display());
    Ok(())
}

fn texel(args: TexelArgs) -> Result<()> {
    if args.data.is_empty() && args.pgn.is_empty() {
        bail!("give training positions with --data FILE or games with --pgn FILE");
    }
    let start = if args.from_seed {
        engine::eval::hce::seed::seed_weights()
    } else if let Some(path) = &args.init {
        Weights::load(path)?
    } else {
        (*Weights::default_shared()).clone()
    };
    let t0 = Instant::now();
    let mut positions: Vec<LabelledPosition> = Vec::new();
    for path in &args.data {
        let read = read_text(path)?;
        eprintln!("{}: {} positions", path.display(), read.len());
        positions.extend(read);
    }
    if !args.pgn.is_empty() {
        let (read, games, skipped) = from_pgn(&args.pgn, args.skip_plies)?;
        eprintln!(
            "PGN: {games} games, {} quiet positions, {skipped} unreadable games skipped",
            read.len()
        );
        positions.extend(read);
    }
    if let Some(max) = args.max_positions {
        if positions.len() > max {
            let step = positions.len() as f64 / max as f64;
            positions = (0..max)
                .map(|i| positions[(i as f64 * step) as usize])
                .collect();
        }
    }
    if positions.is_empty() {
        bail!("no positions to tune on");
    }
    if let Some(path) = &args.save_positions {
        let mut w = BufWriter::new(
            engine::output::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        );
        write_text(&mut w, &positions)?;
        w.into_inner()
            .map_err(std::io::IntoInnerError::into_error)
            .and_then(engine::output::Output::commit)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let data = TexelData::build(&positions, &start);
    eprintln!(
        "{} positions traced in {:.1} s",
        data.len(),
        t0.elapsed().as_secs_f64()
    );
    let progress = progress::bar(
        args.epochs as u64,
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} epochs {msg}",
    );
    let outcome = tune(
        &data,
        &start,
        &TexelConfig {
            epochs: args.epochs,
            learning_rate: args.lr,
            l2: args.l2,
        },
        |epoch, loss| {
            progress.set_position(epoch as u64);
            progress.set_message(format!("loss {loss:.6}"));
        },
    );
    progress.finish_and_clear();
    engine::output::write(&args.out, outcome.weights.to_text())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "positions {} K {:.4} loss before {:.6} after {:.6} epochs {} time {:.1} s -> {}",
        data.len(),
        outcome.k,
        outcome.loss_before,
        outcome.loss_after,
        args.epochs,
        t0.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// Prints SPSA input as OpenBench's form takes it: no newline after the
/// last line (OpenBench refuses the empty line one would make), except on a
/// terminal, where the newline goes to stderr so the prompt starts afresh.
pub fn print_openbench_input(text: &str) {
    use std::io::{IsTerminal, Write};
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    if out.is_terminal() {
        eprintln!();
    }
}
