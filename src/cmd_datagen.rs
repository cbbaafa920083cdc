//! `kestrel datagen`: self-play training data (NNUE records or Texel text),
//! and the tools on record files: merge, shuffle, stats, from-pgn.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use datagen::data_stats::DataStats;
use datagen::dataset::write_text;
use datagen::selfplay::{self, generate, DatagenConfig};
use datagen::shuffle::DEFAULT_MAX_IN_MEMORY;
use matchcore::adjudication::{DrawRule, ResignRule};
use matchcore::ending::Ending;
use matchcore::game_loop::{Adjudication, CapVerdict, GameRules};
use matchcore::progress;
use matchcore::random_openings::OpeningSource;
use protocol::genfens::{BOOK_PLIES, STARTPOS_PLIES};
use trainingdata::source::{self, DataFormat, ReadCounts};
use trainingdata::store::{self, ShardOrigin, Store};
use trainingdata::PositionFilter;
use trainingdata::RecordWriter;
use trainingdata::SkipCounts;
use trainingdata::{bullet, games_file, store_history};

/// `kestrel datagen [OPTIONS] -o FILE` plays self-play games; its
/// subcommands work on the files it writes.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DatagenCommand {
    #[command(subcommand)]
    tool: Option<DatagenTool>,
    #[command(flatten)]
    generate: GenerateArgs,
}

/// The tools on training-data files.
#[derive(Subcommand)]
enum DatagenTool {
    /// Concatenate record files (shards) into OUT, checking every record and
    /// dropping a partial last record left by an interrupted run.
    Merge {
        /// The merged file (replaced).
        out: PathBuf,
        /// The shards, in order.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Write the records of IN to OUT in a random order. Files of up to
    /// --max-in-memory records are shuffled in memory; larger ones through
    /// temporary bucket files next to OUT, in bounded memory.
    Shuffle {
        /// The file to shuffle.
        input: PathBuf,
        /// The shuffled file (replaced).
        out: PathBuf,
        /// Seed of the order.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Most records held in memory (32 bytes each).
        #[arg(long, default_value_t = DEFAULT_MAX_IN_MEMORY)]
        max_in_memory: u64,
    },
    /// Counts of training data in any format: games and positions with the
    /// read filter's counts (viriformat), results, side to move, a score
    /// histogram and piece counts.
    Stats {
        /// Files (or store folders), in any format `convert` reads.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The inputs' format (default: from each name).
        #[arg(long, value_enum)]
        from: Option<FormatArg>,
        #[command(flatten)]
        filter: FilterArgs,
    },
    /// Convert training data: viriformat games (files or a store folder),
    /// Kestrel's records, bullet's ChessBoard records or bullet's text lines
    /// into Kestrel's records, bullet's records or text, or viriformat
    /// games (games only). Games pass the read filter on the way.
    Convert {
        /// Inputs (files or store folders).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The output file (replaced).
        #[arg(short = 'o', long)]
        out: PathBuf,
        /// The output format (default: from OUT's name: `.vf` viriformat,
        /// `.bullet` bullet records, `.txt` bullet text, else Kestrel's).
        #[arg(long, value_enum)]
        to: Option<FormatArg>,
        /// The inputs' format (default: from each name).
        #[arg(long, value_enum)]
        from: Option<FormatArg>,
        #[command(flatten)]
        filter: FilterArgs,
    },
    /// Self-play into the store (default `selfplay/`), for as long as it
    /// runs: whole games in viriformat, sealed into a compressed shard every
    /// --shard-positions positions and listed in the store's manifest.
    /// Ctrl-C or SIGTERM seals what is finished; `kestrel datagen pause`
    /// holds it between moves.
    Run {
        /// The store folder.
        #[arg(long, default_value = STORE)]
        store: PathBuf,
        /// Seal a shard once it holds this many positions (one a move).
        #[arg(long, default_value_t = 200_000)]
        shard_positions: u64,
        /// Stop (sealing the shard) after this many hours; default: run
        /// until Ctrl-C or SIGTERM.
        #[arg(long)]
        hours: Option<f64>,
        /// Seconds between progress lines.
        #[arg(long, default_value_t = 60)]
        report_secs: u64,
        #[command(flatten)]
        play: PlayArgs,
    },
    /// Hold a running `datagen run` on the store before its next move (it
    /// creates the store's PAUSE file), e.g. around a timed match.
    Pause {
        /// The store folder.
        #[arg(long, default_value = STORE)]
        store: PathBuf,
    },
    /// Let a paused `datagen run` go on (removes the PAUSE file).
    Resume {
        /// The store folder.
        #[arg(long, default_value = STORE)]
        store: PathBuf,
    },
    /// Check the store's manifest against its files: each shard present,
    /// with its size and SHA-256 (and, with --deep, every game replayed and
    /// counted); shard files the manifest does not list.
    Verify {
        /// The store folder.
        #[arg(long, default_value = STORE)]
        store: PathBuf,
        /// Also decode every game and compare the counts.
        #[arg(long)]
        deep: bool,
    },
    /// Take the shards of another store (made on another machine) into this
    /// one: each checked against that store's manifest, copied and listed.
    Adopt {
        /// The other store's folder.
        from: PathBuf,
        /// This store's folder.
        #[arg(long, default_value = STORE)]
        store: PathBuf,
    },
    /// Take the oldest shards out of the working tree until those left take
    /// at most --keep-mb megabytes (the repository stays small; git history
    /// keeps them). Each must be committed unchanged at HEAD; the manifest
    /// marks it `"retired": "DATE COMMIT"`. Commit the result
    /// (`git add -A selfplay`); `datagen restore` brings them back.
    Retire {
        /// Megabytes (10^6 bytes) of shards to keep in the working tree.
        #[arg(long)]
        keep_mb: f64,
        /// The store folder.
        #[arg(long, default_value = STORE)]
        store: PathBuf,
        /// Only say which shards would go.
        #[arg(long)]
        dry_run: bool,
    },
    /// Bring the retired shards back from git history into a store of their
    /// own outside the working tree (each checked against the manifest's
    /// SHA-256), e.g. to train on everything: `kestrel train selfplay DIR`.
    Restore {
        /// The folder to restore into (a store; created when missing).
        to: PathBuf,
        /// The store folder whose manifest lists the retired shards.
        #[arg(long, default_value = STORE)]
        store: PathBuf,
    },
    /// Training records from PGN games whose moves carry the engine's score
    /// in a comment (`{+0.35/12 0.2s}`, as OpenBench, fastchess, cutechess
    /// and `kestrel match -pgnout` write), with datagen's filters.
    FromPgn {
        /// PGN files (gzip, zstd and bzip2 are read too).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The record file.
        #[arg(short = 'o', long)]
        out: PathBuf,
        /// Add to OUT instead of replacing it.
        #[arg(long)]
        append: bool,
        #[command(flatten)]
        filter: FilterArgs,
    },
}

/// Where the store lives unless `--store` says otherwise.
const STORE: &str = "selfplay";

/// Output format of the self-play positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Kestrel's 32-byte training records (docs/training-data.md), appended.
    Binpack,
    /// `FEN | result` lines for `kestrel tune texel`, appended.
    Text,
}

/// A training-data format on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// Whole games in viriformat (`.vf`, `.vf.zst`, a store folder).
    Viriformat,
    /// Kestrel's 32-byte position records.
    Kestrel,
    /// bullet's 32-byte ChessBoard records (side-to-move relative).
    Bullet,
    /// bullet's text lines: `FEN | score | result`, White's view.
    Text,
}

impl FormatArg {
    fn format(self) -> DataFormat {
        match self {
            FormatArg::Viriformat => DataFormat::Viriformat,
            FormatArg::Kestrel => DataFormat::Kestrel,
            FormatArg::Bullet => DataFormat::Bullet,
            FormatArg::Text => DataFormat::Text,
        }
    }
}

/// `kestrel datagen convert`.
fn convert(
    inputs: &[PathBuf],
    out: &Path,
    to: Option<FormatArg>,
    from: Option<FormatArg>,
    filter: &PositionFilter,
) -> Result<()> {
    let to = to.map_or_else(|| DataFormat::of_path(out), FormatArg::format);
    for input in inputs {
        if input.canonicalize().ok() == out.canonicalize().ok() && out.exists() {
            bail!(
                "the output {} is also an input; write to a new file",
                out.display()
            );
        }
    }
    // Replaced only when every input converted: a failure leaves the old
    // output as it was.
    let file =
        engine::output::create(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut w = BufWriter::with_capacity(1 << 16, file);
    let mut counts = ReadCounts::default();
    let mut written = 0u64;
    let mut error: Option<std::io::Error> = None;
    for input in inputs {
        let format = from.map_or_else(|| DataFormat::of_path(input), FormatArg::format);
        if to == DataFormat::Viriformat {
            if format != DataFormat::Viriformat {
                bail!(
                    "{}: only games (viriformat) convert to viriformat",
                    input.display()
                );
            }
            let shards = if input.is_dir() {
                Store::open(input)?.shard_paths()?
            } else {
                vec![input.clone()]
            };
            for shard in shards {
                for game in games_file::open_games(&shard)? {
                    let game = game?;
                    counts.games += 1;
                    counts.positions += game.moves.len() as u64;
                    game.write_to(&mut w)
                        .with_context(|| format!("cannot write {}", out.display()))?;
                    written += 1;
                }
            }
            continue;
        }
        let read = source::read_positions(input, format, filter, |r| {
            if error.is_some() {
                return;
            }
            let result = match to {
                DataFormat::Kestrel => w.write_all(&r.to_bytes()),
                DataFormat::Bullet => w.write_all(&bullet::to_chessboard(&r)),
                DataFormat::Text => writeln!(w, "{}", bullet::to_text(&r)),
                DataFormat::Viriformat => unreachable!("games are copied above"),
            };
            match result {
                Ok(()) => written += 1,
                Err(e) => error = Some(e),
            }
        })?;
        counts.add(&read);
    }
    if let Some(e) = error {
        return Err(anyhow::Error::new(e).context(format!("cannot write {}", out.display())));
    }
    w.into_inner()
        .map_err(std::io::IntoInnerError::into_error)
        .and_then(engine::output::Output::commit)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let unit = if to == DataFormat::Viriformat {
        "games"
    } else {
        "positions"
    };
    let s = &counts.skipped;
    println!(
        "read {} games, {} positions; wrote {written} {unit} ({}) -> {}",
        counts.games,
        counts.positions,
        to.name(),
        out.display()
    );
    if counts.skipped.total() > 0 {
        println!(
            "left out by the read filter: opening plies {}, in check {}, capture or promotion {}, score {}",
            s.opening, s.in_check, s.noisy, s.score
        );
    }
    let relative: Vec<String> = inputs
        .iter()
        .filter(|input| {
            from.map_or_else(|| DataFormat::of_path(input), FormatArg::format)
                .is_side_relative()
        })
        .map(|input| input.display().to_string())
        .collect();
    if !relative.is_empty() && !to.is_side_relative() {
        println!(
            "note: {} holds bullet's side-to-move boards, which do not record which colour moved: its positions are written as the side to move sees them, with White to move (a Black-to-move position mirrored, colours swapped), scores and results the side to move's",
            relative.join(", ")
        );
    }
    Ok(())
}

/// The position filter's options.
#[derive(Args)]
struct FilterArgs {
    /// Positions before this ply of the game are left out; the ply comes
    /// from the position's move number (16: before move 9).
    #[arg(long, default_value_t = PositionFilter::default().min_ply)]
    skip_plies: usize,
    /// Positions scored this far from zero (centipawns) or further are left
    /// out; mate scores always are.
    #[arg(long, default_value_t = PositionFilter::default().max_score)]
    max_score: i32,
}

impl FilterArgs {
    fn filter(&self) -> Result<PositionFilter> {
        if self.max_score <= 0 {
            bail!("--max-score must be positive (centipawns)");
        }
        Ok(PositionFilter {
            min_ply: self.skip_plies,
            max_score: self.max_score,
        })
    }
}

/// How self-play games are played: shared by `kestrel datagen -o FILE` and
/// `kestrel datagen run` (the store).
#[derive(Args)]
struct PlayArgs {
    /// Soft node limit per move: each search ends after the iteration that
    /// passes it.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Start from the positions of this EPD/FEN file (one a line, e.g.
    /// ../shared/data/openings.epd) instead of the start position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random plies played before the engines take over: N or A-B (default
    /// 8-9 from the start position, 2-3 after a book position).
    #[arg(long, value_name = "N|A-B")]
    random_plies: Option<String>,
    /// Adjudicate a win when both sides' scores put one side this far ahead
    /// (centipawns) for --win-plies plies in a row.
    #[arg(long, default_value_t = selfplay::WIN_SCORE)]
    win_score: i32,
    /// See --win-score.
    #[arg(long, default_value_t = selfplay::WIN_PLIES)]
    win_plies: u32,
    /// Adjudicate a draw when, from this ply on, the scores stay within
    /// --draw-score of zero for --draw-plies plies in a row.
    #[arg(long, default_value_t = selfplay::DRAW_FROM_PLY)]
    draw_from_ply: u32,
    /// See --draw-from-ply.
    #[arg(long, default_value_t = selfplay::DRAW_SCORE)]
    draw_score: i32,
    /// See --draw-from-ply.
    #[arg(long, default_value_t = selfplay::DRAW_PLIES)]
    draw_plies: u32,
    /// Games reaching this many plies are drawn.
    #[arg(long, default_value_t = selfplay::MAX_PLIES)]
    max_plies: usize,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The share of games (percent) played out to mate: no win adjudication
    /// (draws are still adjudicated), so that won endings are in the data.
    #[arg(long, value_name = "PERCENT", default_value_t = 0)]
    play_out: u32,
    /// Set an engine option first, e.g. `--option Hash=32` (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// Options of self-play generation into one file.
#[derive(Args)]
struct GenerateArgs {
    /// Stop after this many games (100 when neither --games nor --positions
    /// is given).
    #[arg(long, conflicts_with = "positions")]
    games: Option<u64>,
    /// Stop once this many positions are written.
    #[arg(long)]
    positions: Option<u64>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    filter: FilterArgs,
    /// Seed of the random openings. Machines sharing a seed must use
    /// different --shard numbers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// This machine's shard number: shards of one seed play different games.
    #[arg(long, default_value_t = 0)]
    shard: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Binpack)]
    format: Format,
    /// The output file (appended to).
    #[arg(short = 'o', long, required = true)]
    out: Option<PathBuf>,
}

/// Runs `kestrel datagen`.
pub fn run(command: DatagenCommand) -> Result<()> {
    match command.tool {
        None => generate_games(command.generate),
        Some(DatagenTool::Merge { out, inputs }) => {
            let report = datagen::merge::merge(&out, &inputs)?;
            for (path, count, trailing) in &report.inputs {
                let note = if *trailing > 0 {
                    format!(" (partial last record: {trailing} bytes dropped)")
                } else {
                    String::new()
                };
                println!("{}: {count} records{note}", path.display());
            }
            println!("merged {} records -> {}", report.records, out.display());
            Ok(())
        }
        Some(DatagenTool::Shuffle {
            input,
            out,
            seed,
            max_in_memory,
        }) => {
            let t0 = Instant::now();
            let report = datagen::shuffle::shuffle(&input, &out, seed, max_in_memory)?;
            let how = match report.buckets {
                0 => "in memory".to_string(),
                n => format!("through {n} bucket files"),
            };
            println!(
                "shuffled {} records {how} in {:.1} s -> {}",
                report.records,
                t0.elapsed().as_secs_f64(),
                out.display()
            );
            Ok(())
        }
        Some(DatagenTool::Stats {
            files,
            from,
            filter,
        }) => {
            let filter = filter.filter()?;
            for file in &files {
                if files.len() > 1 {
                    println!("== {}", file.display());
                }
                let format = from.map_or_else(|| DataFormat::of_path(file), FormatArg::format);
                print!("{}", DataStats::of_source(file, format, &filter)?);
            }
            Ok(())
        }
        Some(DatagenTool::Convert {
            inputs,
            out,
            to,
            from,
            filter,
        }) => convert(&inputs, &out, to, from, &filter.filter()?),
        Some(DatagenTool::Run {
            store,
            shard_positions,
            hours,
            report_secs,
            play,
        }) => run_store(&store, shard_positions, hours, report_secs, &play),
        Some(DatagenTool::Pause { store }) => {
            let path = Store::open(&store)?.pause_file();
            std::fs::write(&path, "datagen waits while this file exists\n")
                .with_context(|| format!("cannot create {}", path.display()))?;
            println!(
                "paused: {} (a running datagen holds before its next move)",
                path.display()
            );
            Ok(())
        }
        Some(DatagenTool::Resume { store }) => {
            let path = Store::open(&store)?.pause_file();
            match std::fs::remove_file(&path) {
                Ok(()) => println!("resumed: {} removed", path.display()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    println!("not paused: no {}", path.display());
                }
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot remove {}", path.display()))
                }
            }
            Ok(())
        }
        Some(DatagenTool::Verify { store, deep }) => verify_store(&store, deep),
        Some(DatagenTool::Adopt { from, store }) => {
            let taken = Store::open(&store)?
                .lock()?
                .adopt(&Store::open_existing(&from)?)?;
            let positions: u64 = taken.iter().map(|s| s.positions).sum();
            for s in &taken {
                println!(
                    "adopted {}: {} games, {} positions",
                    s.file, s.games, s.positions
                );
            }
            println!(
                "{} shards, {positions} positions adopted into {}",
                taken.len(),
                store.display()
            );
            Ok(())
        }
        Some(DatagenTool::Retire {
            keep_mb,
            store,
            dry_run,
        }) => retire(&store, keep_mb, dry_run),
        Some(DatagenTool::Restore { to, store }) => restore(&store, &to),
        Some(DatagenTool::FromPgn {
            inputs,
            out,
            append,
            filter,
        }) => from_pgn(&inputs, &out, append, filter.filter()?),
    }
}

/// Parses `N` or `A-B`.
fn parse_plies(text: &str) -> Result<std::ops::RangeInclusive<usize>> {
    let bad = || anyhow::anyhow!("--random-plies '{text}' must be a number N or a range A-B");
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (text.trim(), text.trim()),
    };
    let (a, b): (usize, usize) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a > b {
        bail!("--random-plies '{text}': the range's start is above its end");
    }
    Ok(a..=b)
}

/// Splits `NAME=VALUE` engine options.
fn parse_options(options: &[String]) -> Result<Vec<(String, String)>> {
    options
        .iter()
        .map(|o| {
            o.split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .with_context(|| format!("--option '{o}' must be NAME=VALUE"))
        })
        .collect()
}

/// Where the output goes.
enum Sink {
    Records(RecordWriter<std::fs::File>),
    Text(BufWriter<std::fs::File>),
}

impl PlayArgs {
    /// The generator's configuration for these options.
    fn config(
        &self,
        games: Option<u64>,
        filter: PositionFilter,
        seed: u64,
        shard: u64,
    ) -> Result<DatagenConfig> {
        if self.nodes == 0 || self.threads == 0 {
            bail!("--nodes and --threads must be positive");
        }
        let openings = match &self.openings {
            Some(path) => {
                let plies = self
                    .random_plies
                    .as_deref()
                    .map_or(Ok(BOOK_PLIES), parse_plies)?;
                OpeningSource::from_book(path, plies)?
            }
            None => {
                let plies = self
                    .random_plies
                    .as_deref()
                    .map_or(Ok(STARTPOS_PLIES), parse_plies)?;
                OpeningSource::random(plies)
            }
        };
        if self.play_out > 100 {
            bail!("--play-out is a percentage: 0 to 100");
        }
        if self.win_score <= 0 {
            // A bound of zero or less would call every position won.
            bail!("--win-score must be positive");
        }
        let rules = GameRules {
            max_plies: Some(self.max_plies),
            adjudication: Adjudication::Streaks {
                resign: Some(ResignRule::Agreed {
                    score: self.win_score,
                    plies: self.win_plies,
                }),
                draw: Some(DrawRule {
                    from_ply: self.draw_from_ply,
                    plies: self.draw_plies,
                    score: self.draw_score,
                }),
            },
            at_cap: CapVerdict::Draw,
            ..GameRules::default()
        };
        Ok(DatagenConfig {
            games,
            nodes: self.nodes,
            openings,
            filter,
            rules,
            play_out_percent: self.play_out,
            threads: self.threads,
            seed,
            shard,
            options: parse_options(&self.options)?,
            pause_file: None,
        })
    }
}

fn generate_games(args: GenerateArgs) -> Result<()> {
    let out = args
        .out
        .clone()
        .context("the output file is required: -o FILE")?;
    if args.games == Some(0) || args.positions == Some(0) {
        bail!("--games and --positions must be positive");
    }
    let games = match (args.games, args.positions) {
        (None, None) => Some(100),
        (games, _) => games,
    };
    let config = args
        .play
        .config(games, args.filter.filter()?, args.seed, args.shard)?;

    let mut sink = match args.format {
        Format::Binpack => Sink::Records(
            RecordWriter::append(&out).with_context(|| format!("cannot open {}", out.display()))?,
        ),
        Format::Text => Sink::Text(BufWriter::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&out)
                .with_context(|| format!("cannot open {}", out.display()))?,
        )),
    };

    let stop = stop_on_ctrl_c()?;

    let (total, unit) = match (games, args.positions) {
        (_, Some(p)) => (p, "positions"),
        (Some(g), None) => (g, "games"),
        (None, None) => unreachable!("one target is always set"),
    };
    let progress = progress::bar(
        total,
        &format!(
            "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} {{msg}} ETA {{eta}}"
        ),
    );
    let t0 = Instant::now();
    let mut summary = Summary::default();
    let mut error: Option<anyhow::Error> = None;
    let positions_target = args.positions;
    generate(&config, &stop, |game| {
        let written = match &mut sink {
            Sink::Records(w) => game
                .records()
                .try_for_each(|r| w.write(&r))
                .and_then(|()| w.flush()),
            Sink::Text(w) => write_text(w, &game.labelled()).and_then(|()| w.flush()),
        };
        if let Err(e) = written {
            error = Some(anyhow::Error::new(e).context(format!("cannot write {}", out.display())));
            return false;
        }
        summary.add(&game);
        let per_sec = summary.positions as f64 / t0.elapsed().as_secs_f64().max(1e-9);
        if positions_target.is_some() {
            progress.set_position(summary.positions);
            progress.set_message(format!("({per_sec:.0}/s, {} games)", summary.games));
        } else {
            progress.set_position(summary.games);
            progress.set_message(format!("({} positions, {per_sec:.0}/s)", summary.positions));
        }
        positions_target.is_none_or(|target| summary.positions < target)
    })
    .map_err(|e| anyhow::anyhow!("--option: {e}"))?;
    progress.finish_and_clear();
    if let Some(e) = error {
        return Err(e);
    }
    let secs = t0.elapsed().as_secs_f64();
    summary.print(secs, &out, stop.load(Ordering::SeqCst));
    Ok(())
}

/// The name of the network the engines with `options` play with: the short
/// SHA-256 of `EvalFile` when one is set, else of the built-in network;
/// "hce" when the evaluator is not the network.
fn network_name(options: &[(String, String)]) -> Result<String> {
    let get = |name: &str| {
        options
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    if get("Evaluator").is_some_and(|e| !e.eq_ignore_ascii_case("nnue")) {
        return Ok("hce".into());
    }
    Ok(match get("EvalFile") {
        Some(path) if !path.is_empty() && path != "<empty>" => {
            // Read as the engine reads it: a regular file of at most a
            // network's size (a device or FIFO is refused at once).
            let bytes =
                engine::file::read_regular(Path::new(path), engine::eval::nnue::MAX_FILE_LEN)
                    .with_context(|| format!("cannot read EvalFile {path}"))?;
            store::short_hash(&bytes)
        }
        _ => store::short_hash(engine::eval::nnue::EMBEDDED_NET),
    })
}

/// Self-play into the store until stopped or out of time: one shard after
/// another, each with a fresh random seed.
fn run_store(
    root: &Path,
    shard_positions: u64,
    hours: Option<f64>,
    report_secs: u64,
    play: &PlayArgs,
) -> Result<()> {
    if shard_positions == 0 {
        bail!("--shard-positions must be positive");
    }
    if hours.is_some_and(|h| !(h > 0.0 && h.is_finite())) {
        bail!("--hours must be a positive number");
    }
    let store = Store::open(root)?.lock()?;
    if let Some(line) = crate::background::match_session_to_nice() {
        println!("{line}");
    }
    if !root.join(store::MANIFEST).exists() {
        // A new store is a store from its first moment (others are refused
        // as "not a store", not as "in use", without it).
        store.write_manifest(&store.manifest()?)?;
    }
    for name in store.remove_temporaries()? {
        println!("removed {name}, a temporary file a killed seal left");
    }
    let date = || pgn::today().replace('.', "-");
    for leftover in store.leftovers()? {
        match store.seal(&leftover, &date())? {
            Some(entry) => println!(
                "sealed an earlier run's shard {}: {} games, {} positions, {} bytes",
                entry.file, entry.games, entry.positions, entry.bytes
            ),
            None => println!(
                "dropped an earlier run's empty shard {}",
                leftover.display()
            ),
        }
    }
    let options = parse_options(&play.options)?;
    let net = network_name(&options)?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let build = build_name();
    let stop = stop_on_ctrl_c()?;
    let deadline = hours.map(|h| Instant::now() + std::time::Duration::from_secs_f64(h * 3600.0));
    let t0 = Instant::now();
    let mut made = 0u64;
    let mut last_report = Instant::now();
    loop {
        let seed: u64 = {
            use rand::{Rng, SeedableRng};
            rand::rngs::StdRng::from_os_rng().random()
        };
        let origin = ShardOrigin {
            seed,
            net: net.clone(),
            nodes: play.nodes,
            kestrel: build.clone(),
            command: command.clone(),
        };
        let path = store.start_shard(&origin, &date())?;
        let mut writer = BufWriter::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .with_context(|| format!("cannot open {}", path.display()))?,
        );
        let mut config = play.config(None, PositionFilter::default(), seed, 0)?;
        config.pause_file = Some(store.pause_file());
        let mut positions = 0u64;
        let mut error: Option<anyhow::Error> = None;
        let mut out_of_time = false;
        generate(&config, &stop, |game| {
            if let Err(e) = game.game.write_to(&mut writer).and_then(|()| writer.flush()) {
                error = Some(anyhow::Error::new(e).context(format!("cannot write {}", path.display())));
                return false;
            }
            positions += game.game.moves.len() as u64;
            made += game.game.moves.len() as u64;
            if last_report.elapsed().as_secs() >= report_secs {
                last_report = Instant::now();
                let secs = t0.elapsed().as_secs_f64();
                let paused = if store.pause_file().exists() { " (paused)" } else { "" };
                println!(
                    "[{:.2} h] {made} positions this run, {:.0}/s; shard {positions}/{shard_positions}{paused}",
                    secs / 3600.0,
                    made as f64 / secs.max(1e-9),
                );
            }
            out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
            !out_of_time && positions < shard_positions
        })
        .map_err(|e| anyhow::anyhow!("--option: {e}"))?;
        drop(writer);
        if let Some(e) = error {
            return Err(e);
        }
        if let Some(entry) = store.seal(&path, &date())? {
            let manifest = store.manifest()?;
            let total: u64 = manifest.shards.iter().map(|s| s.positions).sum();
            let bytes: u64 = manifest.shards.iter().map(|s| s.bytes).sum();
            println!(
                "sealed {}: {} games, {} positions, {} bytes ({:.2} bytes a position); store: {} shards, {total} positions, {:.1} MB",
                entry.file,
                entry.games,
                entry.positions,
                entry.bytes,
                entry.bytes as f64 / entry.positions.max(1) as f64,
                manifest.shards.len(),
                bytes as f64 / 1e6,
            );
        }
        if stop.load(Ordering::SeqCst) || out_of_time {
            return Ok(());
        }
    }
}

/// The build that plays: the version and, run inside a git checkout, the
/// commit (`git describe --always --dirty`).
fn build_name() -> String {
    let version = env!("CARGO_PKG_VERSION");
    let commit = std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match commit {
        Some(c) if !c.is_empty() => format!("{version}+{c}"),
        _ => version.to_string(),
    }
}

fn verify_store(root: &Path, deep: bool) -> Result<()> {
    let store = Store::open_existing(root)?;
    let v = store::verify(&store, deep)?;
    println!(
        "{} shards, {} games, {} positions, {} bytes ({:.2} bytes a position); {} retired",
        v.shards,
        v.games,
        v.positions,
        v.bytes,
        v.bytes as f64 / v.positions.max(1) as f64,
        v.retired
    );
    match &v.lock {
        Some(Ok(holder)) => {
            println!("in use by {holder}: its incoming shard is live (sealed when it stops)");
        }
        Some(Err(left)) => println!(
            "a lock file left by {left}, no longer running: harmless, the next writer takes it over"
        ),
        None => {}
    }
    for name in &v.temporaries {
        println!(
            "{name}: a leftover temporary file from a seal that was killed (not damage: the next `datagen run` removes it)"
        );
    }
    for p in &v.problems {
        println!("{}: {}", p.file, p.what);
    }
    if !v.problems.is_empty() {
        bail!("{} problems in {}", v.problems.len(), root.display());
    }
    println!(
        "ok: the manifest matches the files{}",
        if deep { " (every game replayed)" } else { "" }
    );
    Ok(())
}

/// `datagen retire`: the oldest shards out of the tree, once git holds them.
fn retire(root: &Path, keep_mb: f64, dry_run: bool) -> Result<()> {
    if !(keep_mb.is_finite() && keep_mb >= 0.0) {
        bail!("--keep-mb {keep_mb}: give the megabytes to keep, a number of 0 or more");
    }
    let keep_bytes = (keep_mb * 1e6).round() as u64;
    let store = Store::open_existing(root)?.lock()?;
    let plan = store_history::plan_retire(&store, keep_bytes)?;
    let Some(commit) = &plan.commit else {
        println!(
            "nothing to retire: the shards in the tree take {:.2} MB, within {keep_mb} MB",
            plan.present_bytes as f64 / 1e6
        );
        return Ok(());
    };
    for shard in &plan.shards {
        println!(
            "{} {}: {} games, {} positions, {} bytes",
            if dry_run { "would retire" } else { "retired" },
            shard.file,
            shard.games,
            shard.positions,
            shard.bytes
        );
    }
    let positions: u64 = plan.shards.iter().map(|s| s.positions).sum();
    let summary = format!(
        "{} shards ({positions} positions, {:.2} MB) kept in git at {commit}; {:.2} MB left in the tree",
        plan.shards.len(),
        plan.going_bytes as f64 / 1e6,
        (plan.present_bytes - plan.going_bytes) as f64 / 1e6
    );
    if dry_run {
        println!("dry run: {summary}");
        return Ok(());
    }
    store_history::retire(&store, &plan, &pgn::today().replace('.', "-"))?;
    println!("{summary}");
    println!(
        "commit it: git add -A {} && git commit (`kestrel datagen restore DIR` brings them back)",
        root.display()
    );
    Ok(())
}

/// `datagen restore`: the retired shards from git history into `to`.
fn restore(root: &Path, to: &Path) -> Result<()> {
    let store = Store::open_existing(root)?;
    let target = Store::open(to)?.lock()?;
    let done = store_history::restore(&store, &target, |shard, commit| {
        println!("restored {} from {commit}", shard.file);
    })?;
    println!(
        "{} shards, {} positions restored into {} ({} were there already)",
        done.shards,
        done.positions,
        to.display(),
        done.there_already
    );
    Ok(())
}

/// Ctrl-C (or SIGTERM) stops the run after writing the finished games; a
/// second one quits at once (the file then ends with whole records or games
/// at worst cut short, which readers ignore and sealing drops).
fn stop_on_ctrl_c() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nstopping: the games in progress are dropped (Ctrl-C again quits at once)");
    })
    .context("cannot install the Ctrl-C handler")?;
    Ok(stop)
}

/// Counts over the finished games.
#[derive(Default)]
struct Summary {
    games: u64,
    positions: u64,
    plies: u64,
    results: [u64; 3],
    resigned: u64,
    drawn: u64,
    by_rules: u64,
    capped: u64,
    skipped: SkipCounts,
}

impl Summary {
    fn add(&mut self, game: &datagen::selfplay::GameRecord) {
        self.games += 1;
        self.positions += game.samples.len() as u64;
        self.plies += game.plies as u64;
        self.results[game.result.to_byte() as usize] += 1;
        match game.ending {
            Ending::Resigned { .. } | Ending::ScoreWin { .. } => self.resigned += 1,
            Ending::ScoreDraw => self.drawn += 1,
            Ending::MoveCap { .. } => self.capped += 1,
            _ => self.by_rules += 1,
        }
        self.skipped.add(&game.skipped);
    }

    fn print(&self, secs: f64, out: &Path, stopped: bool) {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(
            o,
            "{}games {} positions {} in {secs:.1} s: {:.0} positions/s, {:.1} plies a game",
            if stopped { "stopped: " } else { "" },
            self.games,
            self.positions,
            self.positions as f64 / secs.max(1e-9),
            self.plies as f64 / self.games.max(1) as f64,
        );
        let [black, draw, white] = self.results;
        let _ = writeln!(
            o,
            "results white {white} draw {draw} black {black}; ended by adjudicated win {}, adjudicated draw {}, the rules {}, the move cap {}",
            self.resigned, self.drawn, self.by_rules, self.capped
        );
        let s = &self.skipped;
        let _ = writeln!(
            o,
            "left out: opening plies {}, in check {}, capture or promotion {}, score {} -> {}",
            s.opening,
            s.in_check,
            s.noisy,
            s.score,
            out.display()
        );
    }
}

fn from_pgn(inputs: &[PathBuf], out: &Path, append: bool, filter: PositionFilter) -> Result<()> {
    let warn = |path: &Path, e: &pgn::PgnError| {
        eprintln!("warning: {}: {e}; game skipped", path.display());
    };
    let opened = || format!("cannot open {}", out.display());
    let written = || format!("cannot write {}", out.display());
    // Added to (whole records at a time), or replaced whole once every game
    // is read.
    let counts = if append {
        let mut writer = RecordWriter::append(out).with_context(opened)?;
        let counts = datagen::pgn_records::convert(inputs, &filter, &mut writer, warn)?;
        writer.finish().with_context(written)?;
        counts
    } else {
        let mut writer = RecordWriter::new(engine::output::create(out).with_context(opened)?);
        let counts = datagen::pgn_records::convert(inputs, &filter, &mut writer, warn)?;
        writer
            .finish()
            .and_then(engine::output::Output::commit)
            .with_context(written)?;
        counts
    };
    let s = &counts.skipped;
    println!(
        "games {} (without a result {}, unreadable {}) records {} -> {}",
        counts.games,
        counts.games_without_result,
        counts.bad_games,
        counts.records,
        out.display()
    );
    println!(
        "left out: moves without a score {}, opening plies {}, in check {}, capture or promotion {}, score {}",
        counts.unscored_moves, s.opening, s.in_check, s.noisy, s.score
    );
    if counts.records == 0 && counts.unscored_moves > 0 {
        eprintln!(
            "note: no move carried a score comment such as {{+0.35/12 0.2s}}; were the games written with scores (cutechess/fastchess -pgnout, kestrel match -pgnout)?"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_plies_parse() {
        assert_eq!(parse_plies("8").unwrap(), 8..=8);
        assert_eq!(parse_plies("2-3").unwrap(), 2..=3);
        assert!(parse_plies("3-2").is_err());
        assert!(parse_plies("x").is_err());
        assert!(parse_options(&["Hash".into()]).is_err());
        assert_eq!(
            parse_options(&["Hash=32".into()]).unwrap(),
            [("Hash".to_string(), "32".to_string())]
        );
    }
}
