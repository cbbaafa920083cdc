//! The `kestrel` command: UCI engine by default, and the toolkit's commands.

use anyhow::{bail, Context, Result};
use chess::perft::{divide, perft, perft_copy_make};
use chess::{CastlingMode, Position};
use clap::{Parser, Subcommand};
use engine::eval::EvalKind;
use engine::SearchParams;
use protocol::uci::{SessionEnd, Uci};
use protocol::xboard::Xboard;
use std::io::{self, Write};
use std::time::Instant;

mod background;
mod cmd_ablate;
mod cmd_book;
mod cmd_datagen;
mod cmd_eval;
mod cmd_explain;
mod cmd_ga;
mod cmd_gui;
mod cmd_match;
mod cmd_net;
mod cmd_pgn;
mod cmd_play;
mod cmd_plot;
mod cmd_spsa;
mod cmd_tb;
mod cmd_train;
mod cmd_tune;

/// Kestrel: a chess engine and toolkit. Without a command it speaks UCI.
#[derive(Parser)]
#[command(name = "kestrel", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the UCI protocol on stdin/stdout (the default; the line
    /// `xboard` switches to the xboard protocol).
    Uci,
    /// Speak the xboard (CECP version 2) protocol on stdin/stdout.
    Xboard,
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
        /// Walk the tree by copy-make instead of make/unmake (for comparison).
        #[arg(long, hide = true)]
        copy_make: bool,
    },
    /// Search the built-in bench positions to a fixed depth; the last line is
    /// `N nodes M nps` (deterministic node count, OpenBench's format).
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = engine::bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Set a search or engine option first, e.g. `--option NullMove=false`
        /// or `--option EvalFile=crates/engine/nets/round6.nnue` (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// The evaluator: full, simple or nnue (the built-in network); the
        /// engine's default when left out. Several, comma-separated, bench
        /// each in turn and compare their speed.
        #[arg(long, value_delimiter = ',')]
        evaluator: Vec<String>,
    },
    /// Play in the terminal: you against Kestrel, two people, or Kestrel
    /// against itself (type help at the prompt for the commands).
    Play(cmd_play::PlayArgs),
    /// The browser GUI: serves the page on 127.0.0.1 and prints its URL.
    Gui(cmd_gui::GuiArgs),
    /// PGN tools.
    #[command(subcommand)]
    Pgn(cmd_pgn::PgnCommand),
    /// Opening books: build from PGN, probe, dump, convert.
    #[command(subcommand)]
    Book(cmd_book::BookCommand),
    /// Explain the evaluation of a position term by term; the last line is
    /// `Total: N cp (White's view)`.
    Eval(cmd_eval::EvalArgs),
    /// Why a move is good or bad, in words: its tactics (forks, pins,
    /// mates, hanging pieces...) from the engine's line, else the
    /// positional terms that set it apart from the best move.
    Explain(cmd_explain::ExplainArgs),
    /// Tune the evaluation weights.
    #[command(subcommand)]
    Tune(cmd_tune::TuneCommand),
    /// Train an NNUE network on training-data shards (float on all cores,
    /// then quantised; a checkpoint and a net file each epoch).
    Train(cmd_train::TrainArgs),
    /// Net files: print one's header and hash, import a net bullet saved,
    /// export one for bullet.
    #[command(subcommand)]
    Net(cmd_net::NetCommand),
    /// Training data: self-play games at a soft node limit whose positions
    /// are written with the search's score and the result (NNUE records, or
    /// text for `tune texel`); merge, shuffle, stats and from-pgn on record files.
    Datagen(cmd_datagen::DatagenCommand),
    /// What each search technique is worth: nodes, time and branching
    /// factor to a fixed depth with it off vs on, and Elo from games.
    Ablate(cmd_ablate::AblateArgs),
    /// Endgame tablebases (Syzygy): probe a position.
    #[command(subcommand)]
    Tb(cmd_tb::TbCommand),
    /// Engine-vs-engine games with cutechess-cli's options: PGN, Elo, SPRT.
    Match(cmd_match::MatchCommand),
    /// A round-robin (or -tournament gauntlet) tournament with a crosstable and ratings.
    Tournament(cmd_match::MatchCommand),
    /// Run an EPD test suite (bm/am or STS c0 points) with Kestrel or any UCI engine.
    Epd(cmd_match::EpdCommand),
    /// Chart the Elo estimates of a match or tournament over its games,
    /// from the results `-json FILE` wrote.
    Plot(cmd_plot::PlotArgs),
}

fn main() {
    if let Err(e) = run() {
        // A reader that stops early (`kestrel pgn ... | head`) is not an error.
        let broken_pipe = e.chain().any(|cause| {
            cause
                .downcast_ref::<io::Error>()
                .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
        });
        if broken_pipe {
            std::process::exit(0);
        }
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// The words that start UCI commands given as arguments. `uci` is also
/// the subcommand that reads UCI from standard input: alone it stays that.
const UCI_COMMANDS: [&str; 9] = [
    "uci",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "genfens",
    "d",
    "quit",
];

/// UCI commands given as arguments, one an argument, as OpenBench's client
/// runs engines (`kestrel "genfens 10 seed 5 book None" "quit"`): the
/// session's input, or `None` when the arguments are a toolkit command
/// (`kestrel uci` alone still reads standard input).
fn uci_commands_from_args() -> Option<String> {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string().ok())
        .collect::<Option<_>>()?;
    let first = args.first()?;
    let word = first.split_whitespace().next()?;
    let commands = first.contains(char::is_whitespace)
        || (UCI_COMMANDS.contains(&word) && (word != "uci" || args.len() > 1));
    // No toolkit command has a space in its name or one of these names.
    commands.then(|| args.join("\n"))
}

fn run() -> Result<()> {
    if let Some(input) = uci_commands_from_args() {
        let mut session = Uci::new(Box::new(io::stdout()));
        session
            .run(io::Cursor::new(input))
            .context("UCI commands from the command line")?;
        // OpenBench's worker runs `kestrel "genfens ..." "quit"` and reads
        // the exit status: a failed genfens must not look like success.
        if let Some(why) = session.genfens_failure() {
            anyhow::bail!("genfens failed: {why}");
        }
        return Ok(());
    }
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Uci) => {
            let ending = Uci::new(Box::new(io::stdout()))
                .run(io::stdin().lock())
                .context("UCI session")?;
            if ending == SessionEnd::Xboard {
                Xboard::new(Box::new(io::stdout())).run_stdin();
            }
        }
        Some(Command::Xboard) => Xboard::new(Box::new(io::stdout())).run_stdin(),
        Some(Command::Perft {
            depth,
            fen,
            divide: split,
            chess960,
            copy_make,
        }) => {
            run_perft(depth, fen, split, chess960, copy_make)?;
        }
        Some(Command::Bench {
            depth,
            options,
            evaluator,
        }) => run_bench(depth, &options, &evaluator)?,
        Some(Command::Play(args)) => cmd_play::run(args)?,
        Some(Command::Gui(args)) => cmd_gui::run(args)?,
        Some(Command::Pgn(command)) => cmd_pgn::run(command)?,
        Some(Command::Book(command)) => cmd_book::run(command)?,
        Some(Command::Eval(args)) => cmd_eval::run(args)?,
        Some(Command::Explain(args)) => cmd_explain::run(args)?,
        Some(Command::Tune(command)) => cmd_tune::run(command)?,
        Some(Command::Train(args)) => cmd_train::run(args)?,
        Some(Command::Net(command)) => cmd_net::run(command)?,
        Some(Command::Datagen(command)) => cmd_datagen::run(command)?,
        Some(Command::Tb(command)) => cmd_tb::run(command)?,
        Some(Command::Match(command)) => cmd_match::run_match(command)?,
        Some(Command::Tournament(command)) => cmd_match::run_match(command)?,
        Some(Command::Epd(command)) => cmd_match::run_epd(command)?,
        Some(Command::Plot(args)) => cmd_plot::run(args)?,
        Some(Command::Ablate(args)) => cmd_ablate::run(args)?,
    }
    Ok(())
}

fn run_perft(
    depth: u32,
    fen: Option<String>,
    split: bool,
    chess960: bool,
    copy_make: bool,
) -> Result<()> {
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
    } else if copy_make {
        perft_copy_make(&pos, depth)
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
    Ok(())
}

fn run_bench(depth: i32, options: &[String], evaluators: &[String]) -> Result<()> {
    if !(1..=64).contains(&depth) {
        bail!("bench depth {depth} is out of range; use 1 to 64");
    }
    let mut params = SearchParams::default();
    // Search switches go to the parameters; other engine options
    // (`EvalFile`) to the engine, as a UCI session sets them.
    let mut engine_options = Vec::new();
    for option in options {
        let (name, value) = option
            .split_once('=')
            .with_context(|| format!("--option '{option}' must be NAME=VALUE"))?;
        match params.set(name, value) {
            Ok(()) => {}
            Err(engine::ParamError::Unknown(_)) => engine_options.push((name, value)),
            Err(e) => bail!("--option '{option}': {e}"),
        }
    }
    let mut kinds = evaluators
        .iter()
        .map(|name| {
            EvalKind::parse(name)
                .with_context(|| format!("--evaluator '{name}': use full, simple or nnue"))
        })
        .collect::<Result<Vec<_>>>()?;
    if kinds.is_empty() {
        kinds.push(EvalKind::default());
    }
    let mut out = io::stdout().lock();
    let mut runs = Vec::with_capacity(kinds.len());
    for &kind in &kinds {
        let result = engine::bench::run_with_options(depth, params, kind, &engine_options)
            .map_err(|e| anyhow::anyhow!("--option: {e}"))?;
        writeln!(out, "evaluator {}", kind.name())?;
        for (i, nodes) in result.per_position.iter().enumerate() {
            writeln!(
                out,
                "position {:2}/{}: {nodes} nodes",
                i + 1,
                result.per_position.len()
            )?;
        }
        writeln!(out, "time {} ms", result.time.as_millis())?;
        writeln!(out, "{} nodes {} nps", result.nodes, result.nps())?;
        runs.push((kind, result));
    }
    // Several evaluators: their speeds side by side, measured in this run.
    if let [(first, base), rest @ ..] = runs.as_slice() {
        for (kind, run) in rest {
            writeln!(
                out,
                "{} / {}: {:.3}x the nodes per second",
                kind.name(),
                first.name(),
                run.nps() as f64 / base.nps().max(1) as f64
            )?;
        }
    }
    Ok(())
}
