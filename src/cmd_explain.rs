//! `kestrel explain FEN MOVE`: why a move is good or bad, in words (the
//! command's work is the `explain` crate's; this is its command line).

use anyhow::{bail, Result};
use clap::Args;
use engine::{Engine, Limits};

/// The default search of each position: deep enough for the tactics a
/// coach names, short enough for a script.
const DEFAULT_DEPTH: i32 = 12;

/// Options of `kestrel explain`.
#[derive(Args)]
pub struct ExplainArgs {
    /// The position, as FEN (quote it).
    fen: String,
    /// The move to explain, in SAN (Nf3) or UCI (g1f3).
    #[arg(name = "MOVE")]
    mv: String,
    /// Search each position to this depth (default 12).
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<i32>,
    /// Search each position this many nodes instead.
    #[arg(long)]
    nodes: Option<u64>,
    /// JSON for scripts instead of text.
    #[arg(long)]
    json: bool,
    /// Also the lines after the move and after the best move, each move
    /// with the motifs it shows.
    #[arg(long)]
    line: bool,
    /// Also how long the explanation took on top of the searches.
    #[arg(long)]
    timing: bool,
}

/// Explains the move to stdout.
pub fn run(args: ExplainArgs) -> Result<()> {
    let limits = match (args.depth, args.nodes) {
        (Some(d), _) if !(1..=64).contains(&d) => bail!("--depth {d}: give 1 to 64"),
        (Some(d), _) => Limits::depth(d),
        (None, Some(0)) => bail!("--nodes 0: give at least 1"),
        (None, Some(n)) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        (None, None) => Limits::depth(DEFAULT_DEPTH),
    };
    let request = explain::command::Request {
        fen: args.fen,
        mv: args.mv,
        limits,
        json: args.json,
        line: args.line,
        timing: args.timing,
    };
    let mut engine = Engine::try_new()?;
    let mut out = std::io::stdout().lock();
    explain::command::run(&mut engine, &request, &mut out)?;
    Ok(())
}
