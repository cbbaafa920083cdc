//! `kestrel pgn ...`: quick checks of PGN files.

use anyhow::Result;
use clap::Subcommand;
use pgn::{GameResult, PgnReader, ReadOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// The `pgn` subcommands.
#[derive(Subcommand)]
pub enum PgnCommand {
    /// Read PGN files (or - for stdin; .gz/.zst/.bz2 recognised), replay every
    /// move, and print games, positions, results, errors and games/s.
    Stats {
        /// PGN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Main lines only: skip (and do not check) variations and comments.
        #[arg(long)]
        mainline: bool,
        /// Print no error lines, only the counts.
        #[arg(long, short)]
        quiet: bool,
    },
}

/// Runs a `pgn` subcommand.
pub fn run(command: PgnCommand) -> Result<()> {
    match command {
        PgnCommand::Stats {
            files,
            mainline,
            quiet,
        } => stats(&files, mainline, quiet),
    }
}

fn stats(files: &[PathBuf], mainline: bool, quiet: bool) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let options = if mainline {
        ReadOptions::mainline()
    } else {
        ReadOptions::default()
    };
    let start = Instant::now();
    let (mut games, mut errors, mut positions) = (0u64, 0u64, 0u64);
    let mut results = [0u64; 4];
    let mut err = std::io::stderr().lock();
    for path in files {
        for item in PgnReader::open(path, options)? {
            match item {
                Ok(game) => {
                    games += 1;
                    positions += game.position_count() as u64;
                    results[match game.result {
                        GameResult::WhiteWins => 0,
                        GameResult::BlackWins => 1,
                        GameResult::Draw => 2,
                        GameResult::Unknown => 3,
                    }] += 1;
                }
                Err(e) => {
                    errors += 1;
                    if !quiet {
                        writeln!(err, "{}: {e}", path.display())?;
                    }
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "games      {games}")?;
    writeln!(out, "errors     {errors}")?;
    writeln!(out, "positions  {positions}")?;
    writeln!(
        out,
        "results    1-0 {}  0-1 {}  1/2-1/2 {}  * {}",
        results[0], results[1], results[2], results[3]
    )?;
    writeln!(
        out,
        "time       {secs:.3} s, {:.0} games/s",
        (games + errors) as f64 / secs.max(1e-9)
    )?;
    Ok(())
}
