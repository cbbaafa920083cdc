//! `kestrel book ...`: build, probe, dump and convert opening books.

use anyhow::{bail, Context, Result};
use book::{
    build_from_pgn, Book, BookProblem, BuildOptions, Explorer, ExplorerOptions, Format, GameId,
    Policy,
};
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
    /// The opening explorer: the moves master games played in a position,
    /// with their results, and the best-rated games (the GUI's explorer).
    Explore {
        /// PGN files to explore instead of the master games shipped with
        /// Kestrel (- for stdin; .gz/.zst/.bz2 recognised).
        #[arg(long, num_args = 1..)]
        pgn: Vec<PathBuf>,
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves from the position (SAN or UCI, space-separated) before exploring.
        #[arg(long)]
        moves: Option<String>,
        /// Positions up to this many plies into each game are indexed.
        #[arg(long, default_value_t = ExplorerOptions::default().max_ply)]
        max_ply: usize,
        /// Read at most this many games.
        #[arg(long, default_value_t = ExplorerOptions::default().max_games)]
        max_games: usize,
        /// Print game N of the collection as PGN (numbers as the top games list them) and stop.
        #[arg(long)]
        game: Option<GameId>,
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
        BookCommand::Explore {
            pgn,
            fen,
            moves,
            max_ply,
            max_games,
            game,
        } => {
            let options = ExplorerOptions {
                max_ply,
                max_games,
                ..ExplorerOptions::default()
            };
            explore(&pgn, &options, fen, moves, game)
        }
        BookCommand::Dump { book } => {
            let book = load(book.as_deref())?;
            let mut out = std::io::stdout().lock();
            let text = book::text::write_text(&book);
            write!(out, "{}", text.text)?;
            warn_left_out("the text", text.left_out);
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
            warn_left_out(&output.display().to_string(), book.save(&output, to)?);
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

/// Says how many entries a text book could not hold (`TextBook::left_out`).
fn warn_left_out(written: &str, left_out: usize) {
    if left_out > 0 {
        eprintln!(
            "warning: {written}: {left_out} entries left out: their moves are illegal in the positions they belong to (a damaged book or a key collision)"
        );
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
    let pos = position(fen.as_deref(), moves.as_deref())?;
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

/// The position `--fen` names (the start without it) after `--moves`.
fn position(fen: Option<&str>, moves: Option<&str>) -> Result<Position> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("bad --fen '{f}'"))?,
        None => Position::startpos(),
    };
    for text in moves.unwrap_or("").split_whitespace() {
        let m = pos
            .parse_san(text)
            .or_else(|_| pos.parse_uci_move(text, pos.castling_mode()))
            .map_err(|e| anyhow::anyhow!("--moves: '{text}' in {}: {e}", pos.fen()))?;
        pos.play_unchecked(m);
    }
    Ok(pos)
}

/// The master games shipped with Kestrel, or the games of `pgn` (files read
/// one after the other, each a regular file or standard input).
fn explorer(pgn: &[PathBuf], options: &ExplorerOptions) -> Result<Explorer> {
    let start = std::time::Instant::now();
    let (explorer, summary) = if pgn.is_empty() {
        Explorer::masters_with(*options)
    } else {
        Explorer::from_files(pgn, *options)?
    };
    for e in &summary.errors {
        eprintln!("warning: {e}");
    }
    eprintln!(
        "{} games indexed to ply {} in {:.2} s ({:.1} MiB){}{}{}{}{}",
        summary.games,
        explorer.max_ply(),
        start.elapsed().as_secs_f64(),
        explorer.heap_bytes() as f64 / f64::from(1 << 20),
        skipped(summary.bad_games, "unreadable"),
        skipped(summary.set_up, "from a set-up position"),
        skipped(summary.unfinished, "unfinished"),
        skipped(summary.empty, "without a move"),
        if summary.truncated {
            format!("; stopped at --max-games {}", options.max_games)
        } else {
            String::new()
        }
    );
    Ok(explorer)
}

fn skipped(n: usize, what: &str) -> String {
    if n == 0 {
        String::new()
    } else {
        format!("; {n} {what} left out")
    }
}

fn explore(
    pgn: &[PathBuf],
    options: &ExplorerOptions,
    fen: Option<String>,
    moves: Option<String>,
    game: Option<GameId>,
) -> Result<()> {
    let pos = position(fen.as_deref(), moves.as_deref())?;
    let explorer = explorer(pgn, options)?;
    let mut out = std::io::stdout().lock();
    if let Some(id) = game {
        let Some(text) = explorer.pgn(id) else {
            bail!(
                "no game {id}: the collection has {} (numbered from 0)",
                explorer.game_count()
            );
        };
        write!(out, "{text}")?;
        return Ok(());
    }
    writeln!(out, "{}", pos.fen())?;
    let found = explorer.explore(&pos);
    if found.moves.is_empty() {
        writeln!(
            out,
            "no game of the collection reached this position within its first {} plies",
            explorer.max_ply()
        )?;
        return Ok(());
    }
    let (w, d, b) = found.totals();
    let total = w + d + b;
    let pct = |n: u32| 100.0 * f64::from(n) / f64::from(total.max(1));
    writeln!(
        out,
        "{:<8} {:<6} {:>7} {:>6} {:>6} {:>6} {:>6} {:>7}",
        "move", "uci", "games", "share", "white", "draw", "black", "rating"
    )?;
    for m in &found.moves {
        let games = m.games();
        let of = |n: u32| 100.0 * f64::from(n) / f64::from(games.max(1));
        writeln!(
            out,
            "{:<8} {:<6} {:>7} {:>5.1}% {:>5.1}% {:>5.1}% {:>5.1}% {:>7}",
            m.san,
            m.uci,
            games,
            pct(games),
            of(m.white),
            of(m.draws),
            of(m.black),
            m.average_rating.map_or("-".to_string(), |r| r.to_string())
        )?;
    }
    writeln!(
        out,
        "{:<15} {:>7} {:>6} {:>5.1}% {:>5.1}% {:>5.1}%",
        "all",
        total,
        "",
        pct(w),
        pct(d),
        pct(b)
    )?;
    writeln!(out, "top games (--game N prints one):")?;
    for t in &found.top_games {
        let Some(g) = explorer.game(t.id) else {
            continue;
        };
        let rated = |name: &str, elo: Option<u16>| match elo {
            Some(r) => format!("{name} ({r})"),
            None => name.to_string(),
        };
        writeln!(
            out,
            "{:>6}  {} - {}  {}  {}, {}  [{}]",
            t.id,
            rated(&g.white, g.white_elo),
            rated(&g.black, g.black_elo),
            g.result,
            g.event,
            g.year().map_or("?".to_string(), |y| y.to_string()),
            t.san
        )?;
    }
    Ok(())
}
