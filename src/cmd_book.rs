//! `kestrel book ...`: build, probe, dump and convert opening books.

use anyhow::{bail, Context, Result};
use book::{build_from_pgn, Book, BookProblem, BuildOptions, Format, Policy};
use chess::Position;
use clap::Subcommand;
use matchcore::progress;
use rand::SeedableRng;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The `book` subcommands.
#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book from PGN games (all cores), with a progress bar and a summary.
    Build {
        /// PGN files (- for stdin; .gz/.zst/.bz2 recognised).
        #[arg(long, required = true, num_args = 1..)]
        pgn: Vec<PathBuf>,
        /// The book to write: Polyglot for .bin, text for .txt.
        #[arg(long)]
        out: PathBuf,
        /// Only positions up to this many plies into each game (moves past it
        /// are not read; the result comes from the Result tag).
        #[arg(long, default_value_t = 30)]
        max_ply: usize,
        /// Only moves played in at least this many games.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
        /// Only moves scoring at least this for their side (0.0 to 1.0, or a percentage).
        #[arg(long, default_value_t = 0.0)]
        min_score: f64,
        /// Only moves of the side that won the game.
        #[arg(long)]
        only_winners: bool,
        /// No progress bar and no error lines (the summary is still printed).
        #[arg(long, short)]
        quiet: bool,
    },
    /// List the book moves of a position with weights, percentages and statistics.
    Probe {
        /// The book (Polyglot .bin or text); the built-in book when left out.
        book: Option<PathBuf>,
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves from the position (SAN or UCI, space-separated) before probing.
        #[arg(long)]
        moves: Option<String>,
        /// Also pick a move with this policy: best, weighted, uniform or worst.
        #[arg(long)]
        pick: Option<Policy>,
        /// Seed for the random policies (default: from the system).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Print a book in the text format (every position and move).
    Dump {
        /// The book (Polyglot .bin or text); the built-in book when left out.
        book: Option<PathBuf>,
    },
    /// Convert a book between Polyglot .bin and the text format.
    Convert {
        /// The book to read.
        input: PathBuf,
        /// The book to write.
        output: PathBuf,
        /// Format of the input (bin or txt; default from the extension or contents).
        #[arg(long)]
        from: Option<Format>,
        /// Format of the output (bin or txt; default from the extension, else bin).
        #[arg(long)]
        to: Option<Format>,
    },
}

/// Runs a `book` subcommand.
pub fn run(command: BookCommand) -> Result<()> {
    match command {
        BookCommand::Build {
            pgn,
            out,
            max_ply,
            min_games,
            min_score,
            only_winners,
            quiet,
        } => {
            let min_score = if min_score > 1.0 {
                min_score / 100.0
            } else {
                min_score
            };
            if !(0.0..=1.0).contains(&min_score) {
                bail!("--min-score {min_score} is out of range: give 0.0 to 1.0 (or 0 to 100 %)");
            }
            let options = BuildOptions {
                max_ply,
                min_games,
                min_score,
                only_winners,
                ..BuildOptions::default()
            };
            build(&pgn, &out, &options, quiet)
        }
        BookCommand::Probe {
            book,
            fen,
            moves,
            pick,
            seed,
        } => probe(book.as_deref(), fen, moves, pick, seed),
        BookCommand::Dump { book } => {
            let book = load(book.as_deref())?;
            let mut out = std::io::stdout().lock();
            write!(out, "{}", book::text::write_text(&book))?;
            Ok(())
        }
        BookCommand::Convert {
            input,
            output,
            from,
            to,
        } => {
            let bytes = book::read_book_file(&input)?;
            let format = from
                .or_else(|| Format::from_extension(&input))
                .unwrap_or_else(|| Format::sniff(&bytes));
            let (book, problems) = book::read_book(&bytes, format);
            warn(&input, &problems);
            book.save(&output, to)?;
            eprintln!(
                "{} -> {}: {} positions, {} entries",
                input.display(),
                output.display(),
                book.position_count(),
                book.entry_count()
            );
            Ok(())
        }
    }
}

fn warn(path: &Path, problems: &[BookProblem]) {
    for p in problems {
        eprintln!("warning: {}: {p}", path.display());
    }
}

/// The book at `path`, or the built-in one.
fn load(path: Option<&Path>) -> Result<Book> {
    match path {
        None => Ok(Book::embedded()),
        Some(path) => {
            let (book, problems) = Book::open(path)?;
            warn(path, &problems);
            Ok(book)
        }
    }
}

fn build(pgn: &[PathBuf], out: &Path, options: &BuildOptions, quiet: bool) -> Result<()> {
    let total: u64 = pgn
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let bar = progress::bar_if(
        !quiet,
        total.max(1),
        "{spinner} [{elapsed_precise}] {wide_bar} {binary_bytes}/{binary_total_bytes} ({eta})",
    );
    let (book, summary) = build_from_pgn(pgn, options, &|done| bar.set_position(done))?;
    bar.finish_and_clear();
    if !quiet {
        for (path, e) in &summary.errors {
            eprintln!("{}: {e}", path.display());
        }
        if summary.bad_games as usize > summary.errors.len() {
            eprintln!(
                "... and {} more bad games",
                summary.bad_games as usize - summary.errors.len()
            );
        }
    }
    book.save(out, None)?;
    let path = out;
    let mut out = std::io::stdout().lock();
    writeln!(out, "games             {}", summary.games)?;
    writeln!(out, "bad games         {}", summary.bad_games)?;
    writeln!(out, "positions         {}", summary.positions)?;
    writeln!(out, "unique positions  {}", summary.unique_positions)?;
    writeln!(
        out,
        "entries written   {} ({} positions) to {}",
        summary.entries,
        summary.book_positions,
        path.display()
    )?;
    writeln!(
        out,
        "time              {:.3} s, {:.0} games/s",
        summary.seconds,
        summary.games_per_second()
    )?;
    Ok(())
}

fn probe(
    path: Option<&Path>,
    fen: Option<String>,
    moves: Option<String>,
    pick: Option<Policy>,
    seed: Option<u64>,
) -> Result<()> {
    let book = load(path)?;
    let mut out = std::io::stdout().lock();
    let mut pos = match &fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("bad --fen '{f}'"))?,
        None => Position::startpos(),
    };
    for text in moves.as_deref().unwrap_or("").split_whitespace() {
        let m = pos
            .parse_san(text)
            .or_else(|_| pos.parse_uci_move(text, pos.castling_mode()))
            .map_err(|e| anyhow::anyhow!("--moves: '{text}' in {}: {e}", pos.fen()))?;
        pos.play_unchecked(m);
    }
    writeln!(out, "{}", pos.fen())?;
    writeln!(out, "key {:016x}", pos.key())?;
    let candidates = book.candidates(&pos);
    if candidates.is_empty() {
        writeln!(out, "no book moves")?;
        return Ok(());
    }
    writeln!(
        out,
        "{:<8} {:<6} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "move", "uci", "weight", "share", "games", "wins", "draws", "losses"
    )?;
    for c in &candidates {
        let games = c.wins + c.draws + c.losses;
        // Polyglot books carry no statistics: show "-" rather than zeros.
        let stat = |n: u32| {
            if games == 0 {
                "-".to_string()
            } else {
                n.to_string()
            }
        };
        writeln!(
            out,
            "{:<8} {:<6} {:>7} {:>6.1}% {:>7} {:>7} {:>7} {:>7}",
            c.san,
            c.uci,
            c.weight,
            c.percent,
            stat(games),
            stat(c.wins),
            stat(c.draws),
            stat(c.losses)
        )?;
    }
    if let Some(policy) = pick {
        let mut rng = match seed {
            Some(s) => rand::rngs::StdRng::seed_from_u64(s),
            None => rand::rngs::StdRng::from_os_rng(),
        };
        if let Some(m) = book.pick(&pos, policy, &mut rng) {
            writeln!(out, "{policy}: {}", pos.san(m))?;
        }
    }
    Ok(())
}
