//! `kestrel play`: the terminal game, with its starting settings.

use anyhow::{Context, Result};
use chess::Position;
use clap::{Args, ValueEnum};
use play::session::SessionOptions;
use play::{BoardStyle, EngineSettings, SearchLimit, Session};
use std::io::{self, IsTerminal};

/// Who plays a side at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Who {
    /// A person at the keyboard.
    Human,
    /// Kestrel.
    Engine,
}

/// When to colour the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum When {
    /// When the output is a terminal.
    Auto,
    /// Always.
    Always,
    /// Never (the last move is shown in brackets).
    Never,
}

/// Options of `kestrel play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Who plays White.
    #[arg(long, value_enum, default_value_t = Who::Human)]
    white: Who,
    /// Who plays Black.
    #[arg(long, value_enum, default_value_t = Who::Engine)]
    black: Who,
    /// The engine searches to this depth (instead of a time per move).
    #[arg(long, conflicts_with = "time")]
    depth: Option<i32>,
    /// The engine's time per move, seconds.
    #[arg(long, default_value_t = 1.0)]
    time: f64,
    /// No book moves for the engine.
    #[arg(long)]
    no_book: bool,
    /// Start from this position.
    #[arg(long)]
    fen: Option<String>,
    /// Black at the bottom.
    #[arg(long)]
    flip: bool,
    /// Letters instead of Unicode pieces.
    #[arg(long)]
    ascii: bool,
    /// Colour the board.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    color: When,
}

/// Runs the terminal game on standard input and output.
pub fn run(args: PlayArgs) -> Result<()> {
    let start = match &args.fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("bad --fen '{f}'"))?,
        None => Position::startpos(),
    };
    let limit = match args.depth {
        Some(d) if (1..=64).contains(&d) => SearchLimit::Depth(d),
        Some(d) => anyhow::bail!("--depth {d} is out of range; use 1 to 64"),
        None if args.time.is_finite() && (0.001..=3600.0).contains(&args.time) => {
            SearchLimit::Time((args.time * 1000.0).round() as u64)
        }
        None => anyhow::bail!(
            "--time {} is out of range; use 0.001 to 3600 seconds",
            args.time
        ),
    };
    let settings = EngineSettings::new(limit, !args.no_book);
    let color = match args.color {
        When::Auto => io::stdout().is_terminal(),
        When::Always => true,
        When::Never => false,
    };
    let options = SessionOptions {
        style: BoardStyle {
            color,
            ascii: args.ascii,
        },
        // Piped input is echoed after its prompt, so that the output reads as a transcript.
        echo: !io::stdin().is_terminal(),
    };
    let echo = options.echo;
    let mut session = Session::new(
        io::stdout().lock(),
        options,
        start,
        args.white == Who::Engine,
        args.black == Who::Engine,
        settings,
    );
    session.set_flipped(args.flip);
    // A terminal gets line editing and history; a pipe is read line by line.
    let terminal = if io::stdin().is_terminal() && io::stdout().is_terminal() {
        play::line_input::Terminal::new().ok()
    } else {
        None
    };
    match terminal {
        Some(terminal) => session.run(terminal),
        None => session.run(play::line_input::Reader::new(io::stdin().lock(), !echo)),
    }
    .context("terminal game")
}
