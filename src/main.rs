//! The `kestrel` command: UCI engine by default, and the toolkit's commands.

use anyhow::{bail, Context, Result};
use chess::perft::{divide, perft, perft_make_unmake};
use chess::{CastlingMode, Position};
use clap::{Parser, Subcommand};
use protocol::uci::Uci;
use std::io::{self, Write};
use std::time::Instant;

mod cmd_book;
mod cmd_pgn;

/// Kestrel: a chess engine and toolkit. Without a command it speaks UCI.
#[derive(Parser)]
#[command(name = "kestrel", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the UCI protocol on stdin/stdout (the default).
    Uci,
    /// Count the leaf nodes of the legal move tree (move generator test).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start position (default: the standard start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print each root move with its count.
        #[arg(long)]
        divide: bool,
        /// Write castling as king takes rook (detected from the FEN when left out).
        #[arg(long)]
        chess960: bool,
        /// Walk the tree by make/unmake instead of copy-make (for comparison).
        #[arg(long, hide = true)]
        make_unmake: bool,
    },
    /// PGN tools.
    #[command(subcommand)]
    Pgn(cmd_pgn::PgnCommand),
    /// Opening books: build from PGN, probe, dump, convert.
    #[command(subcommand)]
    Book(cmd_book::BookCommand),
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Uci) => {
            let stdin = io::stdin();
            Uci::default()
                .run(stdin.lock(), &mut io::stdout().lock())
                .context("UCI session")?;
        }
        Some(Command::Perft {
            depth,
            fen,
            divide: split,
            chess960,
            make_unmake,
        }) => {
            let pos = match fen {
                Some(f) => Position::from_fen(&f).with_context(|| format!("bad --fen '{f}'"))?,
                None => Position::startpos(),
            };
            if depth > 20 {
                bail!("depth {depth} is too deep for perft; use 20 or less");
            }
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                pos.castling_mode()
            };
            let mut out = io::stdout().lock();
            let start = Instant::now();
            let nodes = if split && depth > 0 {
                let mut total = 0;
                for (m, n) in divide(&pos, depth) {
                    writeln!(out, "{}: {n}", m.to_uci(mode))?;
                    total += n;
                }
                total
            } else if make_unmake {
                perft_make_unmake(&mut pos.clone(), depth)
            } else {
                perft(&pos, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            writeln!(out, "Nodes searched: {nodes}")?;
            eprintln!(
                "time {:.3} s, {:.0} nodes/s",
                secs,
                nodes as f64 / secs.max(1e-9)
            );
        }
        Some(Command::Pgn(command)) => cmd_pgn::run(command)?,
        Some(Command::Book(command)) => cmd_book::run(command)?,
    }
    Ok(())
}
