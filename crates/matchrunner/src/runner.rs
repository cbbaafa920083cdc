//! Runs a match or tournament: K worker threads each own their engine
//! processes and take games from a shared queue; the calling thread collects
//! the results, writes the PGN, prints progress and results, and stops the
//! run when the SPRT decides.

use crate::cli_args::MatchArgs;
use crate::engine_spec::Protocol;
use crate::game_play::{play_game, GameRecord};
use crate::pgn_record::{self, GameTags, GameTimes};
use crate::player;
use crate::report::{self, Matchup};
use crate::results::{GameEntry, HeadToHead, RunResults};
use crate::resume;
use crate::run_config;
use crate::run_log::{Level, RunLog};
use crate::schedule::{schedule, GameJob};
use crate::uci_player::UciPlayer;
use crate::variant;
use anyhow::{Context, Result};
use chess::{CastlingMode, Color};
use matchcore::ending::Termination;
use matchcore::engine_process::IoLog;
use matchcore::game_loop::{Adjudication, CapVerdict, GameRules};
use matchcore::openings::{self, Opening};
use matchcore::player::Player;
use matchcore::progress;
use matchcore::worker_pool::WorkerPool;
use pgn::GameResult;
use regex::Regex;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

/// An engine that failed in a game: it is started afresh for its next one.
struct Failure {
    /// Which engine (by index).
    engine: usize,
    /// What went wrong.
    why: String,
    /// How its process ended and its last lines of output.
    post_mortem: Vec<String>,
}

/// A finished game as a worker hands it back.
struct Done {
    job: GameJob,
    record: GameRecord,
    /// When it started and ended.
    times: GameTimes,
    /// Engines that failed.
    failures: Vec<Failure>,
    /// Told when the collector has counted the game, so that the worker
    /// takes its next game only after a stop that this one caused (the
    /// SPRT's decision): as fastchess starts a game after the last one's
    /// end is counted.
    counted: mpsc::Sender<()>,
}

/// What the workers share.
struct Shared<'a> {
    args: &'a MatchArgs,
    openings: Vec<Opening>,
    rules: GameRules,
    queue: Mutex<VecDeque<GameJob>>,
    stop: AtomicBool,
    /// `-pgnout match_line=` patterns, compiled.
    watch: Vec<Regex>,
    /// The runner's log (`-log`).
    log: Option<Arc<dyn IoLog>>,
}

/// A game lost before it started, because an engine could not be started.
fn unplayed(opening: &Opening, loser: Color, why: &str) -> GameRecord {
    let winner = !loser;
    GameRecord {
        start: opening.start,
        moves: opening
            .moves
            .iter()
            .map(|&m| pgn::PgnMove::new(m))
            .collect(),
        book_plies: opening.moves.len(),
        result: winner.fold(GameResult::WhiteWins, GameResult::BlackWins),
        termination: Termination::Abandoned,
        reason: format!("{} disconnects", loser.fold("White", "Black")),
        illegal: None,
        broken: [loser == Color::White, loser == Color::Black],
        failure: Some(why.to_string()),
    }
}

/// The next game to play; `None` when all are started or the run stops.
fn next_job(shared: &Shared) -> Option<GameJob> {
    if shared.stop.load(Ordering::Relaxed) {
        return None;
    }
    shared.queue.lock().expect("queue lock").pop_front()
}

/// One worker: plays `jobs` with engines it starts when first needed (and
/// again after one breaks), sending each result to `tx`.
fn worker(shared: &Shared, jobs: &mut dyn Iterator<Item = GameJob>, tx: mpsc::Sender<Done>) {
    let specs = &shared.args.engines;
    let (counted, wait_counted) = mpsc::channel();
    let mut players: Vec<Option<Box<dyn Player>>> = specs.iter().map(|_| None).collect();
    for job in jobs {
        let opening = &shared.openings[job.opening % shared.openings.len()];
        let mut failures = Vec::new();
        let mut start_error = None;
        let mut times = GameTimes::start();
        for (idx, color) in [(job.white, Color::White), (job.black, Color::Black)] {
            if players[idx].is_none() && start_error.is_none() {
                match player::start_logged(&specs[idx], &shared.watch, shared.log.as_ref()) {
                    Ok(p) => players[idx] = Some(p),
                    Err(e) => start_error = Some((color, e.to_string())),
                }
            }
        }
        let record = if let Some((color, why)) = start_error {
            failures.push(Failure {
                engine: color.fold(job.white, job.black),
                why: why.clone(),
                post_mortem: Vec::new(),
            });
            unplayed(opening, color, &why)
        } else {
            let mut white = players[job.white].take().expect("started above");
            let mut black = players[job.black].take().expect("started above");
            let record = play_game(
                [white.as_mut(), black.as_mut()],
                [&specs[job.white], &specs[job.black]],
                opening,
                &shared.rules,
                &shared.args.pgn_detail,
            );
            // A broken engine is killed (by dropping it) and started afresh next game.
            for (mut p, idx, broken) in [
                (white, job.white, record.broken[0]),
                (black, job.black, record.broken[1]),
            ] {
                if broken {
                    failures.push(Failure {
                        engine: idx,
                        why: record.failure.clone().unwrap_or_default(),
                        post_mortem: p.post_mortem(),
                    });
                } else {
                    players[idx] = Some(p);
                }
            }
            record
        };
        times.end();
        // Without -recover a crash or a stall ends the run: no game after it
        // starts (the collector says why).
        let lost_engine = matches!(
            record.termination,
            Termination::Abandoned | Termination::StalledConnection
        );
        if lost_engine && !shared.args.recover {
            shared.stop.store(true, Ordering::Relaxed);
        }
        let sent = tx.send(Done {
            job,
            record,
            times,
            failures,
            counted: counted.clone(),
        });
        if sent.is_err() || wait_counted.recv().is_err() {
            break;
        }
        if !shared.args.wait.is_zero() {
            thread::sleep(shared.args.wait);
        }
    }
    for p in players.into_iter().flatten() {
        p.quit();
    }
}

fn open_tablebase(args: &MatchArgs) -> Result<Option<(Arc<dyn types::Tablebase>, u32)>> {
    let Some(path) = &args.tb else {
        return Ok(None);
    };
    let (tb, _problems) =
        syzygy::SyzygyTablebase::open(path).map_err(|e| anyhow::anyhow!("-tb {path}: {e}"))?;
    let pieces = args.tb_pieces.unwrap_or(u32::MAX);
    Ok(Some((Arc::new(tb), pieces)))
}

/// Starts each engine once and quits it, so that a wrong command or a
/// broken engine is reported before any game; notes what fastchess's
/// results header says of each (limit, threads, hash).
fn check_engines(args: &MatchArgs, log: Option<&Arc<dyn IoLog>>) -> Result<Matchup> {
    let mut matchup = Matchup {
        book: args
            .openings
            .as_ref()
            .and_then(|o| o.file.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        ..Matchup::default()
    };
    for spec in &args.engines {
        let context = || format!("engine '{}' ({})", spec.name, spec.cmd);
        let (threads, hash, id) = match spec.protocol {
            Protocol::Uci => {
                let named = log.map(|l| (Arc::clone(l), Arc::from(spec.name.as_str())));
                let p = UciPlayer::start(spec, &[], named).with_context(context)?;
                let value = |name: &str| p.option_value(name).map(str::to_string);
                let (name, author) = p.id();
                let found = (
                    value("Threads"),
                    value("Hash"),
                    (name.to_string(), author.to_string()),
                );
                Box::new(p).quit();
                found
            }
            Protocol::Xboard => {
                player::start_logged(spec, &[], log)
                    .with_context(context)?
                    .quit();
                (None, None, Default::default())
            }
        };
        matchup.ids.push(id);
        let null = || "NULL".to_string();
        matchup.limits.push(report::fastchess_limit(&spec.limits));
        matchup
            .threads
            .push(threads.map_or_else(null, |t| format!("{t}t")));
        matchup
            .hash
            .push(hash.map_or_else(null, |h| format!("{h}MB")));
    }
    Ok(matchup)
}

fn entry(job: &GameJob, record: &GameRecord, args: &MatchArgs) -> GameEntry {
    GameEntry {
        number: job.number + 1,
        round: job.round,
        pair: job.pair,
        white: args.engines[job.white].name.clone(),
        black: args.engines[job.black].name.clone(),
        result: record.result.as_str().to_string(),
        termination: record.termination,
        reason: record.reason.clone(),
        plies: record.moves.len(),
    }
}

/// A game's final position as fastchess's `-epdout` writes it: the first
/// four FEN fields, then `hmvc N; fmvn M;`.
fn final_epd(record: &GameRecord, variant: CastlingMode) -> String {
    let mut pos = record.start;
    for m in &record.moves {
        pos.play_unchecked(m.mv);
    }
    let fen = variant::fen(&pos, variant);
    let fields: Vec<&str> = fen.split_whitespace().collect();
    format!(
        "{} hmvc {}; fmvn {};",
        fields[..4].join(" "),
        pos.halfmove_clock(),
        pos.fullmove_number()
    )
}

/// Refuses Chess960 openings in a standard game: their castling rights
/// would be played, and written, as standard chess has them.
fn check_standard(openings: &[Opening]) -> Result<()> {
    if let Some((i, o)) = openings
        .iter()
        .enumerate()
        .find(|(_, o)| o.start.castling_mode() == CastlingMode::Chess960)
    {
        anyhow::bail!(
            "the run's opening {} ({}) is a Chess960 position: give -variant fischerandom",
            i + 1,
            variant::fen(&o.start, CastlingMode::Chess960)
        );
    }
    Ok(())
}

/// A run's end: its results, and what fastchess's results header says of
/// its engines.
pub struct Finished {
    /// The results.
    pub results: RunResults,
    /// The engines as fastchess's header describes them.
    pub matchup: Matchup,
    /// Why the run stopped before its end: an engine crashed or stalled
    /// and `-recover` was not given (`None`: it ran its course, or the
    /// SPRT decided).
    pub stopped: Option<String>,
    /// fastchess's line when the SPRT decided (`SPRT ([0.00, 10.00])
    /// completed - H1 was accepted`), which it prints after the results.
    pub sprt_completed: Option<String>,
}

impl Finished {
    /// The final report in the format `-output` asked for.
    pub fn report(&self, format: report::OutputFormat) -> String {
        report::report_in(&self.results, format, Some(&self.matchup))
    }
}

/// Runs the games `args` describes and returns the results (printed as
/// they come, and written to `-pgnout`/`-json` when asked).
pub fn run(args: &MatchArgs) -> Result<Finished> {
    // A resumed run without -srand takes the seed its first sitting drew.
    let stored_seed = match (&args.pgn_out, args.resume) {
        (Some(path), true) => run_config::stored_seed(path),
        _ => None,
    };
    let seed = args.seed.or(stored_seed).unwrap_or_else(|| {
        rand::RngCore::next_u64(&mut <rand::rngs::StdRng as rand::SeedableRng>::from_os_rng())
    });
    let run_log = args
        .log
        .as_ref()
        .map(|spec| {
            RunLog::open(spec)
                .map(Arc::new)
                .with_context(|| format!("cannot open -log file={}", spec.file.display()))
        })
        .transpose()?;
    let note = |level: Level, text: &str| {
        if let Some(log) = &run_log {
            log.message(level, text);
        }
    };
    note(
        Level::Info,
        &format!("kestrel {}", env!("CARGO_PKG_VERSION")),
    );
    note(Level::Info, &format!("Setting seed to: {seed}"));
    let io_log: Option<Arc<dyn IoLog>> = run_log.clone().map(|l| l as Arc<dyn IoLog>);
    if let Some(path) = &args.pgn_out {
        let config = run_config::of(args, seed);
        if args.resume {
            run_config::check_resume(path, &config)?;
        }
        run_config::write(&run_config::path_for(path), &config)?;
    }
    if let Some(path) = &args.config_out {
        run_config::write(path, &run_config::of(args, seed))?;
    }
    let mut openings = match &args.openings {
        Some(spec) => openings::load(spec, seed)?,
        None => vec![Opening::startpos()],
    };
    // fastchess keeps only the first `-rounds` openings (after start= and
    // the shuffle), and each encounter takes the next of those in turn:
    // one opening a round with two engines, and openings shared among the
    // encounters of a tournament's rounds.
    openings.truncate(args.rounds as usize);
    if args.variant == CastlingMode::Standard {
        check_standard(&openings)?;
    }
    let matchup = check_engines(args, io_log.as_ref())?;
    note(Level::Info, "Starting tournament...");
    let rules = GameRules {
        adjudication: Adjudication::Fastchess {
            draw: args.draw,
            resign: args.resign,
        },
        // -maxmoves counts full moves, of the engines' own moves (fastchess).
        max_plies: args.max_moves.map(|moves| 2 * moves as usize),
        at_cap: CapVerdict::Draw,
        hang_timeout: args.hang_timeout,
        tablebase: open_tablebase(args)?,
    };
    let jobs = schedule(
        args.engines.len(),
        args.tournament,
        args.seeds,
        args.games,
        args.rounds,
        args.colours,
    );
    let total = jobs.len();
    let names: Vec<String> = args.engines.iter().map(|e| e.name.clone()).collect();
    // With -resume the games the PGN already holds count and are not played.
    let resumed = match (&args.pgn_out, args.resume) {
        (Some(path), true) => resume::read_played(path, &jobs, &names)?,
        _ => resume::Resumed::default(),
    };
    let jobs: Vec<GameJob> = {
        let done: std::collections::HashSet<usize> =
            resumed.games.iter().map(|(j, _)| j.number).collect();
        jobs.into_iter()
            .filter(|j| !done.contains(&j.number))
            .collect()
    };
    let mut games: Vec<GameEntry> = resumed.games.into_iter().map(|(_, e)| e).collect();
    // cutechess appends, so that several runs can share one file;
    // fastchess's `-pgnout append=false` starts it afresh.
    let appender = |path: &Option<std::path::PathBuf>, option: &str, append: bool| -> Result<_> {
        path.as_ref()
            .map(|path| {
                OpenOptions::new()
                    .create(true)
                    .append(append)
                    .write(true)
                    .truncate(!append)
                    .open(path)
                    .map(BufWriter::new)
                    .with_context(|| format!("cannot open {option} {}", path.display()))
            })
            .transpose()
    };
    let mut pgn_out = appender(&args.pgn_out, "-pgnout", args.pgn_detail.append)?;
    let mut epd_out = appender(&args.epd_out, "-epdout", true)?;
    let watch = args
        .pgn_detail
        .match_lines
        .iter()
        .map(|p| Regex::new(p).with_context(|| format!("-pgnout match_line={p}")))
        .collect::<Result<Vec<_>>>()?;
    let shared = Shared {
        args,
        openings,
        rules,
        queue: Mutex::new(jobs.into()),
        stop: AtomicBool::new(false),
        watch,
        log: io_log,
    };
    let bar = progress::bar_if(
        args.progress,
        total as u64,
        "{bar:30} {pos}/{len} games {msg} [{elapsed_precise}, eta {eta}]",
    );
    if let (Some(spec), 2) = (args.sprt, names.len()) {
        if !args.report_penta {
            // fastchess falls back in silence; say why the test counts games.
            let why = if spec.model == elo::SprtModel::Bayesian {
                "the bayesian model counts games"
            } else if args.games != 2 {
                "one game a round: no game pairs (give -games 2 or -repeat for pairs)"
            } else if args.output == report::OutputFormat::Cutechess {
                "-output format=cutechess counts single games, as fastchess's does \
                 (or -report penta=false was given)"
            } else {
                "-report penta=false"
            };
            println!("SPRT on single games (trinomial), not on game pairs: {why}");
        }
    }
    let date = pgn_record::today();
    let say = |line: &str| bar.suspend(|| println!("{line}"));
    bar.inc(games.len() as u64);
    if args.resume {
        say(&format!(
            "Resumed: {} finished games read back from the PGN{}; {} to play",
            games.len(),
            match resumed.unreadable {
                0 => String::new(),
                n => format!(" ({n} unreadable, played again)"),
            },
            shared.queue.lock().map_or(0, |q| q.len())
        ));
        if names.len() == 2 {
            if let Some(spec) = args.sprt {
                // Where the test stands; decided before this sitting, nothing more is played.
                let s = HeadToHead::count_as(&names[0], &names[1], &games, args.report_penta)
                    .sprt(spec);
                say(&report::sprt_line(&s));
                if let Some(done) = report::sprt_completed_line(&s) {
                    say(&done);
                    shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }
    let mut stopped = None;
    let mut sprt_completed = None;
    thread::scope(|scope| -> Result<()> {
        let (tx, rx) = mpsc::channel();
        let shared = &shared;
        // The pool runs beside this thread, which writes the results as
        // they come; `tx` goes when the last worker ends, and so does `rx`.
        scope.spawn(move || {
            WorkerPool::new(args.concurrency.min(total.max(1)))
                .run(|| next_job(shared), |jobs| worker(shared, jobs, tx.clone()));
        });
        for done in rx {
            let Done {
                job,
                record,
                times,
                failures,
                counted,
            } = done;
            let white = &args.engines[job.white];
            let black = &args.engines[job.black];
            // fastchess stops the run at an engine that crashes or stalls
            // (a developer's build that breaks should be seen), unless
            // -recover asks it to start the engine afresh and play on.
            let lost_engine = matches!(
                record.termination,
                Termination::Abandoned | Termination::StalledConnection
            );
            let stops = lost_engine && !args.recover && stopped.is_none();
            if stops {
                let line = format!(
                    "Game {} stalled / disconnected and no recover option set for engine, \
                     stopping tournament.",
                    job.number + 1
                );
                say(&line);
                note(Level::Warn, &line);
            }
            let finished = format!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                job.number + 1,
                white.name,
                black.name,
                record.result,
                record.reason
            );
            say(&finished);
            note(Level::Info, &finished);
            for failure in &failures {
                let name = &names[failure.engine];
                if stops {
                    let mut text = format!("Engine {name} failed: {}", failure.why);
                    for line in &failure.post_mortem {
                        write!(text, "\n  {line}").expect("writing to a String");
                    }
                    say(&text);
                    note(Level::Warn, &text);
                    stopped = Some(format!(
                        "engine {name} failed in game {} ({}): the run stopped there; give \
                         -recover to start a failed engine afresh and play on",
                        job.number + 1,
                        failure.why
                    ));
                } else {
                    let next = if lost_engine && !args.recover {
                        "" // the run is stopping already
                    } else {
                        "; it is restarted for its next game"
                    };
                    let warning = format!("Warning: engine {name} failed ({}){next}", failure.why);
                    say(&warning);
                    note(Level::Warn, &warning);
                }
            }
            // The game that stopped the run is counted, not written (fastchess's way).
            if let (Some(out), false) = (&mut pgn_out, stops) {
                let tags = GameTags {
                    event: &args.event,
                    site: &args.site,
                    round: (job.pair + 1).to_string(),
                    white: &white.name,
                    black: &black.name,
                    ids: [job.white, job.black].map(|i| {
                        matchup
                            .ids
                            .get(i)
                            .map_or(("", ""), |(n, a)| (n.as_str(), a.as_str()))
                    }),
                    time_controls: [white.limits.pgn_tag(), black.limits.pgn_tag()],
                    date: &date,
                    times: Some(&times),
                    variant: args.variant,
                };
                let text =
                    pgn_record::write(&record, &tags, args.pgn_detail.notation, args.pgn_min);
                out.write_all(text.as_bytes())
                    .and_then(|()| out.flush())
                    .context("writing the PGN output")?;
            }
            if let (Some(out), false) = (&mut epd_out, stops) {
                writeln!(out, "{}", final_epd(&record, args.variant))
                    .and_then(|()| out.flush())
                    .context("writing the EPD output")?;
            }
            games.push(entry(&job, &record, args));
            bar.inc(1);
            let all_played = games.len() == total;
            // fastchess's order after a game: the score line (cutechess's
            // output, every -scoreinterval games), the rating interval, the SPRT.
            if args.score_interval > 0
                && games.len().is_multiple_of(args.score_interval as usize)
                && !all_played
                && args.output == report::OutputFormat::Cutechess
                && names.len() == 2
            {
                let h = HeadToHead::count_as(&names[0], &names[1], &games, args.report_penta);
                say(&report::score_line(&h));
            }
            // -ratinginterval counts game pairs when the statistics count
            // pairs (printed once the pair is complete), else games.
            let interval = args.rating_interval as usize;
            let due = interval > 0
                && if args.report_penta {
                    let pair_games = games.iter().filter(|g| g.pair == job.pair).count();
                    (job.pair + 1).is_multiple_of(interval) && pair_games == args.games as usize
                } else {
                    games.len().is_multiple_of(interval)
                };
            if due && !all_played {
                let r = RunResults::compute(
                    names.clone(),
                    args.tournament,
                    None,
                    games.clone(),
                    args.anchors.clone(),
                    args.sprt,
                    args.report_penta,
                );
                say(report::interval_in(&r, args.output, Some(&matchup)).trim_end());
            }
            if names.len() == 2 {
                let h = HeadToHead::count_as(&names[0], &names[1], &games, args.report_penta);
                let e = h.elo();
                bar.set_message(format!(
                    "{}-{}-{} [{:.3}] Elo {:+.1} +/- {:.1}",
                    h.wdl.wins,
                    h.wdl.losses,
                    h.wdl.draws,
                    h.wdl.score(),
                    e.elo,
                    e.error
                ));
                if let Some(spec) = args.sprt {
                    let s = h.sprt(spec);
                    if let Some(done) = report::sprt_completed_line(&s) {
                        if !shared.stop.swap(true, Ordering::Relaxed) {
                            note(Level::Info, &done);
                            sprt_completed = Some(done);
                        }
                    }
                }
            }
            // The worker may go on (or find the run stopped).
            let _ = counted.send(());
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let pgn = args.pgn_out.as_ref().map(|p| p.display().to_string());
    let results = RunResults::compute(
        names,
        args.tournament,
        pgn,
        games,
        args.anchors.clone(),
        args.sprt,
        args.report_penta,
    );
    if let Some(path) = &args.json_out {
        write_json(path, &results)?;
    }
    Ok(Finished {
        results,
        matchup,
        stopped,
        sprt_completed,
    })
}

/// Writes `results` as pretty JSON.
pub fn write_json(path: &std::path::Path, results: &RunResults) -> Result<()> {
    let text = serde_json::to_vec_pretty(results).expect("results serialise");
    types::output::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
