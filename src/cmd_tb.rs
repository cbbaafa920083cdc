//! `kestrel tb probe`: what the Syzygy tables say about a position: its
//! value (WDL, Syzygy's -2..2 from the side to move's view, as if the clock
//! had just been zeroed), its distance to zeroing (DTZ), the move the tables
//! recommend, and every legal move's result.

use anyhow::{bail, Context, Result};
use chess::{CastlingMode, Position};
use clap::Subcommand;
use engine::Tablebase;
use std::io::Write;
use syzygy::SyzygyTablebase;

/// Where the tables are when `--syzygy-path` is not given.
const PATH_VARIABLE: &str = "KESTREL_SYZYGY_PATH";

/// The `tb` subcommands.
#[derive(Subcommand)]
pub enum TbCommand {
    /// Probe a position: prints `WDL: n`, `DTZ: n`, the best move, then every move.
    Probe {
        /// The position (at most as many pieces as the tables hold, no castling rights).
        #[arg(long)]
        fen: String,
        /// Table directories, separated like PATH entries (default: $KESTREL_SYZYGY_PATH).
        #[arg(long, value_name = "DIR")]
        syzygy_path: Option<String>,
    },
}

/// Runs a `tb` subcommand.
pub fn run(command: TbCommand) -> Result<()> {
    match command {
        TbCommand::Probe { fen, syzygy_path } => probe(&fen, syzygy_path),
    }
}

fn probe(fen: &str, syzygy_path: Option<String>) -> Result<()> {
    let pos = Position::from_fen(fen).with_context(|| format!("bad --fen '{fen}'"))?;
    let Some(path) = syzygy_path.or_else(|| std::env::var(PATH_VARIABLE).ok()) else {
        bail!("no tables: give --syzygy-path DIR (or set {PATH_VARIABLE})")
    };
    let (tables, problems) = SyzygyTablebase::open(&path)?;
    for p in &problems {
        eprintln!("warning: {p}");
    }
    if !pos.castling_rights().is_empty() {
        bail!("the tables hold no position with castling rights");
    }
    if pos.piece_count() > tables.max_pieces() {
        bail!(
            "the position has {} pieces; the tables hold at most {}",
            pos.piece_count(),
            tables.max_pieces()
        );
    }
    let not_found = || {
        let failures = tables.take_failures().join("; ");
        anyhow::anyhow!("the tables cannot answer for this position: {failures}")
    };
    let wdl = tables.probe_wdl(&pos).ok_or_else(not_found)?;
    let dtz = tables.probe_dtz(&pos).ok_or_else(not_found)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "WDL: {}", wdl.as_i32())?;
    writeln!(out, "DTZ: {dtz}")?;
    if !pos.has_legal_moves() {
        writeln!(out, "Best move: (none)")?;
        return Ok(());
    }
    let uci = |m: chess::Move| m.to_uci(CastlingMode::Standard).to_string();
    let (best, _) = tables.best_move(&pos).ok_or_else(not_found)?;
    writeln!(out, "Best move: {} ({})", uci(best), pos.san(best))?;
    let moves = tables.probe_moves(&pos).ok_or_else(not_found)?;
    writeln!(
        out,
        "Moves (mover's view: WDL after the move, DTZ counting it):"
    )?;
    for v in moves {
        writeln!(
            out,
            "  {:<6} {:<8} WDL {:>2}  DTZ {:>4}",
            uci(v.mv),
            pos.san(v.mv),
            v.wdl.as_i32(),
            v.dtz
        )?;
    }
    Ok(())
}
