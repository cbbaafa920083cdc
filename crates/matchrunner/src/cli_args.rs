//! cutechess-cli's command line (`-engine cmd=a name=b -each tc=10+0.1
//! -games 100 ...`) read into a [`MatchArgs`]. Its single-dash options take
//! several `key=value` words, which no argument parser supports, so this small
//! reader groups the words under their option first and then interprets each
//! group.

use crate::engine_spec::{EngineSpec, Protocol};
use crate::move_comments::MoveDetail;
use crate::report::OutputFormat;
use crate::results::SprtSpec;
use crate::run_log::{Level, LogSpec};
use crate::schedule::{Colours, TournamentKind};
use chess::CastlingMode;
use matchcore::adjudication::{FastchessDraw, FastchessResign};
use matchcore::openings::{OpeningFormat, OpeningOrder, OpeningsSpec};
use matchcore::time_control::TimeControl;
use pgn::Notation;
use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

/// A command line that cannot be used, with what to change.
#[derive(Debug, Error, PartialEq)]
pub enum ArgsError {
    /// An option nobody knows.
    #[error("unknown option '-{0}' (see kestrel match --help)")]
    UnknownOption(String),
    /// A word outside any option.
    #[error("'{0}' belongs to no option; options start with '-'")]
    Stray(String),
    /// A value that cannot be read.
    #[error("-{option}: {message}")]
    Bad {
        /// The option.
        option: String,
        /// What is wrong.
        message: String,
    },
}

fn bad(option: &str, message: impl Into<String>) -> ArgsError {
    ArgsError::Bad {
        option: option.to_string(),
        message: message.into(),
    }
}

/// Everything `kestrel match` and `kestrel tournament` are asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchArgs {
    /// The engines, in command-line order.
    pub engines: Vec<EngineSpec>,
    /// Games per encounter per round, 1 or 2 (`-games`, `-repeat [N]`; 2 by
    /// default, as in fastchess). Two games form a pair: one opening, both
    /// colours.
    pub games: u32,
    /// Rounds (`-rounds`; 2 by default, as in fastchess).
    pub rounds: u32,
    /// How colours are given (`-noswap`, `-reverse`).
    pub colours: Colours,
    /// Whether the statistics count game pairs (pentanomial) when games come
    /// in pairs (`-report penta=true|false`, on by default; off by itself
    /// with one game a round or the bayesian SPRT model, as in fastchess).
    pub report_penta: bool,
    /// Games played at once (`-concurrency`).
    pub concurrency: usize,
    /// Where openings come from; the standard position when `None`.
    pub openings: Option<OpeningsSpec>,
    /// PGN output file (`-pgnout`).
    pub pgn_out: Option<PathBuf>,
    /// Minimal PGN: no move comments (`-pgnout FILE min`).
    pub pgn_min: bool,
    /// What the PGN records of each engine move (fastchess's `-pgnout`
    /// keys), and whether the file is appended to.
    pub pgn_detail: MoveDetail,
    /// Each game's final position as an EPD line (fastchess's `-epdout
    /// file=F`), appended to.
    pub epd_out: Option<PathBuf>,
    /// SPRT settings.
    pub sprt: Option<SprtSpec>,
    /// Draw adjudication (`-draw movenumber=N movecount=M score=CP`: both
    /// engines' scores within CP for M moves each since the last capture or
    /// pawn move, called after move N; fastchess's rule).
    pub draw: Option<FastchessDraw>,
    /// Resign adjudication (`-resign movecount=M score=CP [twosided=B]`:
    /// a side whose score is at most -CP for M moves loses; two-sided, when
    /// both sides' scores are at least CP from zero for M moves each and
    /// the loser's own is below zero; fastchess's rule).
    pub resign: Option<FastchessResign>,
    /// Games longer than this many full moves are drawn (`-maxmoves`).
    pub max_moves: Option<u32>,
    /// Seed for the opening order (`-srand`).
    pub seed: Option<u64>,
    /// Syzygy tablebase directories for adjudication (`-tb`).
    pub tb: Option<String>,
    /// The most pieces for tablebase adjudication (`-tbpieces`).
    pub tb_pieces: Option<u32>,
    /// Results are printed every this many game pairs, or games when the
    /// statistics count games (`-ratinginterval`, fastchess's count; 10 by
    /// default; 0: only at the end).
    pub rating_interval: u32,
    /// A crashed or stalled engine is started afresh and the run goes on
    /// (`-recover`); without it the run stops there, as fastchess's does.
    pub recover: bool,
    /// Pause between games (`-wait`, ms).
    pub wait: Duration,
    /// The pairing scheme (`-tournament`).
    pub tournament: TournamentKind,
    /// Known ratings (`-rating NAME=ELO`, repeatable) for the tournament fit.
    pub anchors: Vec<(String, f64)>,
    /// JSON results file (`-json`).
    pub json_out: Option<PathBuf>,
    /// Result files of earlier runs to combine (`-merge`).
    pub merge: Vec<PathBuf>,
    /// The PGN `Event` tag (`-event`).
    pub event: String,
    /// The PGN `Site` tag (`-site`; `?` by default).
    pub site: String,
    /// How long a silent engine is waited for when no clock bounds it
    /// (`-hangtimeout`, seconds).
    pub hang_timeout: Duration,
    /// Whether the progress bar is drawn (`-noprogress` turns it off).
    pub progress: bool,
    /// Go on with a stopped run: the games already in the `-pgnout` file
    /// count and are not played again (`-resume`; needs the same arguments).
    pub resume: bool,
    /// The command line as given (`kestrel match` and `-config file=` left
    /// out), stored with the run so that `-config file=` can run it again.
    pub command: Vec<String>,
    /// Where the run's configuration is also written (`-config outname=F`;
    /// it is always written beside `-pgnout FILE`, as `FILE.config.json`).
    pub config_out: Option<PathBuf>,
    /// The runner's log (`-log file=F level=L engine=B append=B`).
    pub log: Option<LogSpec>,
    /// In a gauntlet, how many of the first engines play all the others
    /// (fastchess's `-seeds`; 1 by default).
    pub seeds: usize,
    /// The score line is printed every this many games (`-scoreinterval`;
    /// 0, the default: never, the progress bar shows the running score).
    pub score_interval: u32,
    /// How results are printed (`-output format=cutechess|fastchess`).
    pub output: OutputFormat,
    /// The variant (`-variant standard|fischerandom`): Chess960 castling,
    /// `UCI_Chess960`, Shredder-FENs and the PGN's `Variant` tag.
    pub variant: CastlingMode,
}

impl Default for MatchArgs {
    fn default() -> MatchArgs {
        MatchArgs {
            engines: Vec::new(),
            games: 2,
            rounds: 2,
            colours: Colours::default(),
            report_penta: true,
            concurrency: 1,
            openings: None,
            pgn_out: None,
            pgn_min: false,
            pgn_detail: MoveDetail::default(),
            epd_out: None,
            sprt: None,
            draw: None,
            resign: None,
            max_moves: None,
            seed: None,
            tb: None,
            tb_pieces: None,
            rating_interval: 10,
            recover: false,
            wait: Duration::ZERO,
            tournament: TournamentKind::RoundRobin,
            anchors: Vec::new(),
            json_out: None,
            merge: Vec::new(),
            event: "?".to_string(),
            site: "?".to_string(),
            hang_timeout: Duration::from_secs(60),
            progress: true,
            resume: false,
            command: Vec::new(),
            config_out: None,
            log: None,
            seeds: 1,
            score_interval: 0,
            output: OutputFormat::Cutechess,
            variant: CastlingMode::Standard,
        }
    }
}

/// Whether a word starts an option: a dash followed by a letter (so that
/// `-5` or `arg=-x` stay values).
fn is_option(word: &str) -> bool {
    let name = word.strip_prefix("--").or_else(|| word.strip_prefix('-'));
    name.and_then(|n| n.chars().next())
        .is_some_and(|c| c.is_ascii_alphabetic())
}

/// The words grouped under their options: `("engine", ["cmd=a", "name=b"])`.
pub fn group(words: &[String]) -> Result<Vec<(String, Vec<String>)>, ArgsError> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for word in words {
        if is_option(word) {
            let name = word.trim_start_matches('-').to_string();
            groups.push((name, Vec::new()));
        } else {
            match groups.last_mut() {
                Some((_, values)) => values.push(word.clone()),
                None => return Err(ArgsError::Stray(word.clone())),
            }
        }
    }
    Ok(groups)
}

fn key_value<'a>(option: &str, word: &'a str) -> Result<(&'a str, &'a str), ArgsError> {
    word.split_once('=')
        .ok_or_else(|| bad(option, format!("'{word}' must be KEY=VALUE")))
}

fn one<'a>(option: &str, values: &'a [String]) -> Result<&'a str, ArgsError> {
    match values {
        [v] => Ok(v),
        [] => Err(bad(option, "needs a value")),
        _ => Err(bad(
            option,
            format!("takes one value, got {}", values.join(" ")),
        )),
    }
}

fn number<T: std::str::FromStr>(option: &str, text: &str) -> Result<T, ArgsError> {
    text.parse()
        .map_err(|_| bad(option, format!("'{text}' is not a valid number")))
}

/// Applies one `key=value` of `-engine` or `-each` to `spec`.
fn engine_key(
    spec: &mut EngineSpec,
    option: &str,
    key: &str,
    value: &str,
) -> Result<(), ArgsError> {
    if let Some(name) = key.strip_prefix("option.") {
        spec.options.retain(|(n, _)| n != name);
        spec.options.push((name.to_string(), value.to_string()));
        return Ok(());
    }
    match key {
        "cmd" => spec.cmd = value.to_string(),
        "name" => spec.name = value.to_string(),
        "dir" => spec.dir = Some(PathBuf::from(value)),
        "arg" => spec.args.push(value.to_string()),
        // fastchess: all arguments in one word, split at spaces.
        "args" => spec.args.extend(value.split_whitespace().map(String::from)),
        "initstr" => spec.init.push(value.to_string()),
        "proto" => {
            spec.protocol = match value {
                "uci" => Protocol::Uci,
                "xboard" | "cecp" => Protocol::Xboard,
                _ => return Err(bad(option, format!("proto={value}: use uci or xboard"))),
            }
        }
        "tc" => {
            spec.limits.tc =
                TimeControl::parse_seconds(value).map_err(|e| bad(option, e.to_string()))?;
        }
        "st" => {
            let s: f64 = number(option, value)?;
            if !(s > 0.0 && s.is_finite()) {
                return Err(bad(option, format!("st={value}: give seconds above 0")));
            }
            spec.limits.movetime = Some(Duration::from_secs_f64(s));
        }
        // fastchess also calls the depth limit plies=.
        "depth" | "plies" => spec.limits.depth = Some(number(option, value)?),
        "nodes" => spec.limits.nodes = Some(number(option, value)?),
        "timemargin" => spec.time_margin = Duration::from_millis(number(option, value)?),
        // Accepted for scripts' sake; they change nothing here (see docs/lab.md).
        "restart" | "trust" | "stderr" | "whitepov" | "ponder" => {}
        _ => {
            return Err(bad(
                option,
                format!("unknown key '{key}' (use cmd, name, dir, arg, args, proto, tc, st, depth, nodes, timemargin, initstr, option.NAME)"),
            ))
        }
    }
    Ok(())
}

fn engine_group(option: &str, values: &[String], spec: &mut EngineSpec) -> Result<(), ArgsError> {
    for word in values {
        let (k, v) = key_value(option, word)?;
        engine_key(spec, option, k, v)?;
    }
    Ok(())
}

impl MatchArgs {
    /// Reads cutechess-cli style words (the command line after `kestrel match`).
    pub fn parse(words: &[String]) -> Result<MatchArgs, ArgsError> {
        let groups = group(words)?;
        let mut args = MatchArgs {
            command: words.to_vec(),
            ..MatchArgs::default()
        };
        let mut norepeat = false;
        let mut seeds_given = false;
        // fastchess's cutechess output counts single games (its fixConfig).
        let mut cutechess_output = false;
        // -each applies to every engine wherever it is written; each engine's own keys win.
        let mut each = EngineSpec::new("");
        for (option, values) in groups.iter().filter(|(o, _)| o == "each") {
            engine_group(option, values, &mut each)?;
        }
        for (option, values) in &groups {
            let o = option.as_str();
            match o {
                "each" => {}
                "engine" => {
                    let mut spec = each.clone();
                    engine_group(o, values, &mut spec)?;
                    args.engines.push(spec);
                }
                "games" => args.games = number(o, one(o, values)?)?,
                "rounds" => args.rounds = number(o, one(o, values)?)?,
                // fastchess: `-repeat` is `-games 2`, `-repeat N` is `-games N`.
                "repeat" => {
                    args.games = match values.as_slice() {
                        [] => 2,
                        _ => number(o, one(o, values)?)?,
                    }
                }
                // cutechess's: every game its own opening (below).
                "norepeat" => norepeat = true,
                "noswap" => args.colours.noswap = true,
                "reverse" => args.colours.reverse = true,
                "report" => {
                    for word in values {
                        match key_value(o, word)? {
                            ("penta", v) => {
                                args.report_penta = types::parse_bool(v)
                                    .map_err(|e| bad(o, format!("penta: {e}")))?;
                            }
                            (k, _) => return Err(bad(o, format!("unknown key '{k}' (use penta)"))),
                        }
                    }
                }
                "concurrency" => args.concurrency = number(o, one(o, values)?)?,
                "openings" => args.openings = Some(openings(o, values)?),
                "pgnout" => {
                    let (file, min, detail) = pgn_out(o, values)?;
                    args.pgn_out = Some(file);
                    args.pgn_min = min;
                    args.pgn_detail = detail;
                }
                "epdout" => {
                    for word in values {
                        match key_value(o, word)? {
                            ("file", v) => args.epd_out = Some(PathBuf::from(v)),
                            // Kestrel appends, as to -pgnout.
                            ("append", v) => {
                                types::parse_bool(v).map_err(|e| bad(o, format!("append: {e}")))?;
                            }
                            (k, _) => return Err(bad(o, format!("unknown key '{k}' (use file=)"))),
                        }
                    }
                    if args.epd_out.is_none() {
                        return Err(bad(o, "give file=F"));
                    }
                }
                "sprt" => args.sprt = Some(sprt(o, values)?),
                "draw" => args.draw = Some(draw(o, values)?),
                "resign" => args.resign = Some(resign(o, values)?),
                "maxmoves" => args.max_moves = Some(number(o, one(o, values)?)?),
                "srand" => args.seed = Some(number(o, one(o, values)?)?),
                "tb" => args.tb = Some(one(o, values)?.to_string()),
                "tbpieces" => args.tb_pieces = Some(number(o, one(o, values)?)?),
                "ratinginterval" => args.rating_interval = number(o, one(o, values)?)?,
                "wait" => args.wait = Duration::from_millis(number(o, one(o, values)?)?),
                "tournament" => {
                    args.tournament = match one(o, values)? {
                        "round-robin" | "roundrobin" => TournamentKind::RoundRobin,
                        "gauntlet" => TournamentKind::Gauntlet,
                        t => return Err(bad(o, format!("'{t}': use round-robin or gauntlet"))),
                    }
                }
                "rating" => {
                    for word in values {
                        let (name, elo) = key_value(o, word)?;
                        args.anchors.push((name.to_string(), number(o, elo)?));
                    }
                }
                "json" => args.json_out = Some(PathBuf::from(one(o, values)?)),
                "merge" => {
                    if values.is_empty() {
                        return Err(bad(o, "give the JSON files to merge"));
                    }
                    args.merge.extend(values.iter().map(PathBuf::from));
                }
                "event" => args.event = values.join(" "),
                "site" => args.site = values.join(" "),
                "hangtimeout" => {
                    args.hang_timeout = Duration::from_secs_f64(number(o, one(o, values)?)?);
                }
                "output" => {
                    for word in values {
                        match key_value(o, word)? {
                            ("format", v) => {
                                args.output = OutputFormat::from_name(v).ok_or_else(|| {
                                    bad(o, format!("format={v}: use cutechess or fastchess"))
                                })?;
                                cutechess_output = args.output == OutputFormat::Cutechess;
                            }
                            (k, _) => {
                                return Err(bad(o, format!("unknown key '{k}' (use format=)")))
                            }
                        }
                    }
                }
                "variant" => {
                    let name = one(o, values)?;
                    args.variant = crate::variant::from_name(name)
                        .ok_or_else(|| bad(o, format!("'{name}': use standard or fischerandom")))?;
                }
                "seeds" => {
                    args.seeds = number(o, one(o, values)?)?;
                    seeds_given = true;
                }
                "scoreinterval" => args.score_interval = number(o, one(o, values)?)?,
                "log" => args.log = Some(log(o, values)?),
                "quick" => {
                    quick(o, values, &each, &mut args)?;
                    cutechess_output = true;
                }
                // `-config file=` is read before this (run_config::expand).
                "config" => {
                    for word in values {
                        match key_value(o, word)? {
                            ("outname", v) => args.config_out = Some(PathBuf::from(v)),
                            (k, _) => {
                                return Err(bad(
                                    o,
                                    format!(
                                        "unknown key '{k}' (use file=, outname=, stats=, discard=)"
                                    ),
                                ))
                            }
                        }
                    }
                }
                "noprogress" => args.progress = false,
                "resume" => args.resume = true,
                "recover" => args.recover = true,
                _ => {
                    return Err(match not_supported(o) {
                        Some(why) => bad(o, why),
                        None => ArgsError::UnknownOption(option.clone()),
                    })
                }
            }
        }
        // fastchess's fixConfig: more than 2 games a round is read as games
        // and rounds written the wrong way round; still more is an error.
        if args.games > 2 {
            std::mem::swap(&mut args.games, &mut args.rounds);
            if args.games > 2 {
                return Err(bad(
                    "games",
                    format!(
                        "at most 2 games a round (fastchess's rule: 2 is a game pair, one \
                         opening with both colours); ask for more with -rounds, e.g. \
                         -games 2 -rounds {}",
                        (u64::from(args.games) * u64::from(args.rounds)).div_ceil(2)
                    ),
                ));
            }
        }
        if seeds_given && args.tournament != TournamentKind::Gauntlet {
            return Err(bad(
                "seeds",
                "the seeds of a gauntlet play everyone: give -tournament gauntlet",
            ));
        }
        if seeds_given && args.seeds == 0 {
            return Err(bad("seeds", "give at least 1"));
        }
        if norepeat {
            // Every game its own opening, colours alternating: fastchess's -games 1.
            args.rounds *= args.games;
            args.games = 1;
        }
        if cutechess_output {
            args.report_penta = false;
        }
        args.check()?;
        Ok(args)
    }

    fn check(&mut self) -> Result<(), ArgsError> {
        if !self.merge.is_empty() {
            return Ok(());
        }
        if self.resume && self.pgn_out.is_none() {
            return Err(bad(
                "resume",
                "it reads the finished games back from -pgnout FILE: give the run's PGN file",
            ));
        }
        if self.resume && !self.pgn_detail.append {
            return Err(bad(
                "resume",
                "-pgnout append=false would erase the games it goes on from: leave append out",
            ));
        }
        if self.engines.len() < 2 {
            return Err(bad("engine", "give at least two engines"));
        }
        if self.variant == CastlingMode::Chess960 {
            // fastchess's rule: no Chess960 without Chess960 openings.
            if self.openings.is_none() {
                return Err(bad(
                    "variant",
                    "fischerandom needs Chess960 start positions: give -openings file=F",
                ));
            }
            if let Some(e) = self.engines.iter().find(|e| e.protocol == Protocol::Xboard) {
                return Err(bad(
                    "variant",
                    format!(
                        "fischerandom is played over UCI only (as in fastchess); '{}' speaks xboard",
                        if e.name.is_empty() { &e.cmd } else { &e.name }
                    ),
                ));
            }
        }
        for (i, e) in self.engines.iter_mut().enumerate() {
            e.variant = self.variant;
            if e.cmd.is_empty() {
                return Err(bad("engine", format!("engine {} has no cmd=", i + 1)));
            }
            if e.name.is_empty() {
                e.name = e.cmd.rsplit('/').next().unwrap_or(&e.cmd).to_string();
            }
            if !e.limits.is_bounded() {
                return Err(bad(
                    "engine",
                    format!(
                        "{}: give a limit (tc=, st=, depth= or nodes=), with -each or -engine",
                        e.name
                    ),
                ));
            }
        }
        let mut names: Vec<&str> = self.engines.iter().map(|e| e.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(bad(
                "engine",
                format!("two engines are named '{}': give name=", w[0]),
            ));
        }
        if self.games == 0 || self.rounds == 0 || self.concurrency == 0 {
            return Err(bad(
                "games",
                "-games, -rounds and -concurrency must be at least 1",
            ));
        }
        // fastchess's fixConfig and SPRT::isValid: pairs are counted only
        // with two games a round, and never by the bayesian model.
        if self.games != 2
            || self
                .sprt
                .is_some_and(|s| s.model == elo::SprtModel::Bayesian)
        {
            self.report_penta = false;
        }
        for (name, _) in &self.anchors {
            if !self.engines.iter().any(|e| &e.name == name) {
                return Err(bad("rating", format!("no engine is named '{name}'")));
            }
        }
        Ok(())
    }
}

/// Why a fastchess option `kestrel match` does not take is refused.
fn not_supported(option: &str) -> Option<&'static str> {
    Some(match option {
        "show-latency" => {
            "not supported (fastchess writes each move's latency to its -log); \
             -pgnout file=F latency=true records it with every move"
        }
        "autosaveinterval" => {
            "not needed: every game is written to -pgnout as it ends, with the run's \
             configuration beside it, and -resume goes on from there"
        }
        "use-affinity" => "not supported: engines are not pinned to CPUs",
        "force-concurrency" => {
            "not needed: -concurrency is never capped at the number of CPUs here"
        }
        _ => return None,
    })
}

/// fastchess's `-log file=F [level=trace|info|warn|err|fatal] [engine=B]
/// [append=B] [realtime=true]`.
fn log(o: &str, values: &[String]) -> Result<LogSpec, ArgsError> {
    let mut spec = LogSpec {
        file: PathBuf::new(),
        level: Level::Warn,
        engine: false,
        append: true,
    };
    let flag = |key: &str, v: &str| types::parse_bool(v).map_err(|e| bad(o, format!("{key}: {e}")));
    for word in values {
        match key_value(o, word)? {
            ("file", v) => spec.file = PathBuf::from(v),
            ("level", v) => {
                spec.level = Level::from_name(v).ok_or_else(|| {
                    bad(o, format!("level={v}: use trace, info, warn, err or fatal"))
                })?;
            }
            ("engine", v) => spec.engine = flag("engine", v)?,
            ("append", v) => spec.append = flag("append", v)?,
            // Each line is written as it happens: fastchess's realtime=true.
            ("realtime", v) => {
                if !flag("realtime", v)? {
                    return Err(bad(
                        o,
                        "realtime=false: every line is written as it happens here",
                    ));
                }
            }
            ("compress", v) => {
                if flag("compress", v)? {
                    return Err(bad(o, "compress=true: the log is written as plain text"));
                }
            }
            (k, _) => {
                return Err(bad(
                    o,
                    format!("unknown key '{k}' (use file, level, engine, append, realtime)"),
                ))
            }
        }
    }
    if spec.file.as_os_str().is_empty() {
        return Err(bad(o, "give file=F"));
    }
    Ok(spec)
}

/// fastchess's `-quick cmd=A cmd=B book=FILE`: two engines at 10+0.1,
/// 25000 rounds of game pairs on the book's openings in random order,
/// as many games at once as the CPUs less two, a draw adjudication at
/// move 30 after 8 moves within 8 cp, crashed engines restarted
/// (`-recover`), cutechess's output (statistics on single games).
fn quick(
    o: &str,
    values: &[String],
    each: &EngineSpec,
    args: &mut MatchArgs,
) -> Result<(), ArgsError> {
    let mut cmds = Vec::new();
    let mut book = None;
    for word in values {
        match key_value(o, word)? {
            ("cmd", v) => cmds.push(v.to_string()),
            ("book", v) => book = Some(PathBuf::from(v)),
            (k, _) => {
                return Err(bad(
                    o,
                    format!("unknown key '{k}' (use cmd= twice and book=)"),
                ))
            }
        }
    }
    let [first, second] = &cmds[..] else {
        return Err(bad(o, "give exactly two cmd= entries"));
    };
    let book = book.ok_or_else(|| bad(o, "give book=FILE"))?;
    let format = match book.extension().and_then(|e| e.to_str()) {
        Some("pgn") => OpeningFormat::Pgn,
        Some("epd") => OpeningFormat::Epd,
        _ => return Err(bad(o, "the book must be a .pgn or .epd file")),
    };
    let same = first == second;
    for (i, cmd) in [first, second].into_iter().enumerate() {
        let mut spec = each.clone();
        spec.cmd = cmd.clone();
        spec.name = if same {
            format!("{cmd}{}", i + 1)
        } else {
            cmd.clone()
        };
        spec.limits.tc = TimeControl::parse_seconds("10+0.1").expect("a valid time control");
        args.engines.push(spec);
    }
    args.openings = Some(OpeningsSpec {
        file: book,
        format,
        order: OpeningOrder::Random,
        plies: None,
        start: 1,
    });
    args.games = 2;
    args.rounds = 25_000;
    args.concurrency = std::thread::available_parallelism()
        .map_or(1, |n| n.get().saturating_sub(2))
        .max(1);
    args.draw = Some(FastchessDraw {
        move_number: 30,
        move_count: 8,
        score: 8,
    });
    args.recover = true;
    args.output = OutputFormat::Cutechess;
    Ok(())
}

fn openings(o: &str, values: &[String]) -> Result<OpeningsSpec, ArgsError> {
    let mut file = None;
    let mut format = None;
    let mut order = OpeningOrder::Sequential;
    let mut plies = None;
    let mut start = 1;
    for word in values {
        match key_value(o, word)? {
            ("file", v) => file = Some(PathBuf::from(v)),
            ("format", "epd") => format = Some(OpeningFormat::Epd),
            ("format", "pgn") => format = Some(OpeningFormat::Pgn),
            ("format", v) => return Err(bad(o, format!("format={v}: use epd or pgn"))),
            ("order", "random") => order = OpeningOrder::Random,
            ("order", "sequential") => order = OpeningOrder::Sequential,
            ("order", v) => return Err(bad(o, format!("order={v}: use random or sequential"))),
            ("plies", v) => plies = Some(number(o, v)?),
            ("start", v) => start = number::<usize>(o, v)?.max(1),
            // cutechess's policy=default|encounter|round: every pair shares its opening here.
            ("policy", _) => {}
            (k, _) => {
                return Err(bad(
                    o,
                    format!("unknown key '{k}' (use file, format, order, plies, start)"),
                ))
            }
        }
    }
    let file = file.ok_or_else(|| bad(o, "give file=PATH"))?;
    let format = format.unwrap_or_else(|| OpeningFormat::of_file(&file));
    Ok(OpeningsSpec {
        file,
        format,
        order,
        plies,
        start,
    })
}

fn pgn_out(o: &str, values: &[String]) -> Result<(PathBuf, bool, MoveDetail), ArgsError> {
    // cutechess: `-pgnout FILE [min]`; fastchess: `-pgnout file=FILE
    // [min=true] [notation=san|lan|uci] [nodes=true] ... [match_line=REGEX]`.
    let mut file = None;
    let mut min = false;
    let mut d = MoveDetail::default();
    for word in values {
        let flag =
            |key: &str, v: &str| types::parse_bool(v).map_err(|e| bad(o, format!("{key}: {e}")));
        match word.split_once('=') {
            Some(("file", v)) => file = Some(PathBuf::from(v)),
            Some(("min", v)) => min = flag("min", v)?,
            Some(("append", v)) => d.append = flag("append", v)?,
            Some(("nodes", v)) => d.nodes = flag("nodes", v)?,
            Some(("seldepth", v)) => d.seldepth = flag("seldepth", v)?,
            Some(("nps", v)) => d.nps = flag("nps", v)?,
            Some(("hashfull", v)) => d.hashfull = flag("hashfull", v)?,
            Some(("tbhits", v)) => d.tbhits = flag("tbhits", v)?,
            Some(("timeleft", v)) => d.timeleft = flag("timeleft", v)?,
            Some(("latency", v)) => d.latency = flag("latency", v)?,
            Some(("pv", v)) => d.pv = flag("pv", v)?,
            Some(("notation", v)) => {
                d.notation = match v {
                    "san" => Notation::San,
                    "lan" => Notation::Lan,
                    "uci" => Notation::Uci,
                    _ => return Err(bad(o, format!("notation: '{v}' (use san, lan or uci)"))),
                }
            }
            Some(("match_line", v)) => {
                regex::Regex::new(v).map_err(|e| {
                    bad(
                        o,
                        format!("match_line: '{v}' is not a regular expression: {e}"),
                    )
                })?;
                d.match_lines.push(v.to_string());
            }
            Some((k, _)) => {
                return Err(bad(
                    o,
                    format!(
                    "unknown key '{k}' (use file=, min=, append=, notation=, nodes=, seldepth=, \
                         nps=, hashfull=, tbhits=, timeleft=, latency=, pv=, match_line=)"
                ),
                ))
            }
            None if word == "min" => min = true,
            None if word == "fi" => {
                return Err(bad(
                    o,
                    "'fi' (a FEN per ply) is not supported; leave it out",
                ))
            }
            None if file.is_none() => file = Some(PathBuf::from(word)),
            None => return Err(bad(o, format!("'{word}': give one file"))),
        }
    }
    Ok((file.ok_or_else(|| bad(o, "give a file"))?, min, d))
}

fn sprt(o: &str, values: &[String]) -> Result<SprtSpec, ArgsError> {
    let mut s = SprtSpec {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: elo::SprtModel::Normalized,
    };
    for word in values {
        match key_value(o, word)? {
            ("model", v) => {
                s.model = elo::SprtModel::from_name(v).ok_or_else(|| {
                    bad(
                        o,
                        format!("model={v}: use normalized, logistic or bayesian"),
                    )
                })?;
            }
            ("elo0", v) => s.elo0 = number(o, v)?,
            ("elo1", v) => s.elo1 = number(o, v)?,
            ("alpha", v) => s.alpha = number(o, v)?,
            ("beta", v) => s.beta = number(o, v)?,
            (k, _) => {
                return Err(bad(
                    o,
                    format!("unknown key '{k}' (use elo0, elo1, alpha, beta, model)"),
                ))
            }
        }
    }
    if s.elo0.is_nan() || s.elo1.is_nan() || s.elo0 >= s.elo1 {
        return Err(bad(o, "give elo0= and elo1= with elo0 < elo1"));
    }
    let rate = |r: f64| r > 0.0 && r < 0.5;
    if !rate(s.alpha) || !rate(s.beta) {
        return Err(bad(o, "alpha and beta must lie between 0 and 0.5"));
    }
    Ok(s)
}

fn draw(o: &str, values: &[String]) -> Result<FastchessDraw, ArgsError> {
    let (mut move_number, mut move_count, mut score) = (0, 0, 0);
    let mut seen = (false, false, false);
    for word in values {
        match key_value(o, word)? {
            ("movenumber", v) => (move_number, seen.0) = (number(o, v)?, true),
            ("movecount", v) => (move_count, seen.1) = (number(o, v)?, true),
            ("score", v) => (score, seen.2) = (number(o, v)?, true),
            (k, _) => {
                return Err(bad(
                    o,
                    format!("unknown key '{k}' (use movenumber, movecount, score)"),
                ))
            }
        }
    }
    if seen != (true, true, true) || move_count == 0 || score < 0 {
        return Err(bad(
            o,
            "give movenumber=, movecount= (at least 1) and score= (0 or more)",
        ));
    }
    Ok(FastchessDraw {
        move_number,
        move_count,
        score,
    })
}

fn resign(o: &str, values: &[String]) -> Result<FastchessResign, ArgsError> {
    let (mut move_count, mut score, mut two_sided) = (0, 0, false);
    for word in values {
        match key_value(o, word)? {
            ("movecount", v) => move_count = number(o, v)?,
            ("score", v) => score = number(o, v)?,
            ("twosided", v) => {
                two_sided = types::parse_bool(v).map_err(|e| bad(o, format!("twosided: {e}")))?;
            }
            (k, _) => {
                return Err(bad(
                    o,
                    format!("unknown key '{k}' (use movecount, score, twosided)"),
                ))
            }
        }
    }
    if move_count == 0 || score <= 0 {
        return Err(bad(o, "give movecount= (at least 1) and score= (above 0)"));
    }
    Ok(FastchessResign {
        move_count,
        score,
        two_sided,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn a_cutechess_command_line_reads_as_written() {
        let a = MatchArgs::parse(&words(
            "-engine cmd=./new name=new option.Hash=64 arg=-x \
             -engine cmd=/usr/games/fairymax proto=xboard st=0.5 \
             -each tc=40/60+0.6 option.Threads=1 \
             -games 2 -rounds 50 -repeat -concurrency 4 \
             -openings file=book.pgn order=random plies=8 \
             -pgnout out.pgn min -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 \
             -draw movenumber=40 movecount=8 score=10 \
             -resign movecount=3 score=600 twosided=true \
             -maxmoves 200 -srand 7 -recover -ratinginterval 20 -wait 5",
        ))
        .unwrap();
        let new = &a.engines[0];
        assert_eq!(new.name, "new");
        assert_eq!(new.args, ["-x"]);
        assert_eq!(
            new.options,
            [
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "64".to_string())
            ]
        );
        assert_eq!(new.limits.tc.unwrap().moves, Some(40));
        let fm = &a.engines[1];
        assert_eq!(fm.name, "fairymax");
        assert_eq!(fm.protocol, Protocol::Xboard);
        assert_eq!(fm.limits.movetime, Some(Duration::from_millis(500)));
        assert_eq!((a.games, a.rounds, a.concurrency), (2, 50, 4));
        let o = a.openings.unwrap();
        assert_eq!(
            (o.format, o.order, o.plies),
            (OpeningFormat::Pgn, OpeningOrder::Random, Some(8))
        );
        assert_eq!(a.pgn_out, Some(PathBuf::from("out.pgn")));
        assert!(a.pgn_min);
        assert_eq!(a.sprt.unwrap().beta, 0.1);
        let draw = FastchessDraw {
            move_number: 40,
            move_count: 8,
            score: 10,
        };
        assert_eq!(a.draw, Some(draw));
        let resign = FastchessResign {
            move_count: 3,
            score: 600,
            two_sided: true,
        };
        assert_eq!(a.resign, Some(resign));
        assert_eq!(
            (a.max_moves, a.seed, a.rating_interval),
            (Some(200), Some(7), 20)
        );
        assert_eq!(a.wait, Duration::from_millis(5));
    }

    #[test]
    fn pgnout_keys_are_fastchess_keys() {
        let base = "-engine cmd=a -engine cmd=b -each nodes=200";
        let a = MatchArgs::parse(&words(&format!(
            "{base} -site Lab -pgnout file=g.pgn notation=lan nodes=true seldepth=true nps=true \
             hashfull=true tbhits=true timeleft=true latency=true pv=true append=false \
             match_line=^info.string"
        )))
        .unwrap();
        assert_eq!(a.site, "Lab");
        assert_eq!(
            a.pgn_detail,
            MoveDetail {
                notation: Notation::Lan,
                match_lines: vec!["^info.string".to_string()],
                append: false,
                ..crate::move_comments::every_figure()
            }
        );
        let plain = MatchArgs::parse(&words(&format!("{base} -pgnout g.pgn"))).unwrap();
        assert_eq!(
            (plain.site.as_str(), &plain.pgn_detail),
            ("?", &MoveDetail::default())
        );
        let err = |s: &str| {
            MatchArgs::parse(&words(&format!("{base} {s}")))
                .unwrap_err()
                .to_string()
        };
        assert!(err("-pgnout file=g.pgn notation=fen").contains("use san, lan or uci"));
        assert!(err("-pgnout file=g.pgn match_line=(").contains("not a regular expression"));
        assert!(err("-pgnout file=g.pgn nodes=maybe").contains("nodes"));
        assert!(err("-pgnout file=g.pgn seldepht=true").contains("unknown key 'seldepht'"));
        assert!(err("-pgnout file=g.pgn append=false -resume").contains("append"));
    }

    #[test]
    fn negative_values_and_double_dashes_are_read() {
        let a = MatchArgs::parse(&words(
            "--engine cmd=a depth=2 arg=-v --engine cmd=b nodes=1000 -tournament gauntlet -json r.json",
        ))
        .unwrap();
        assert_eq!(a.engines[0].args, ["-v"]);
        assert_eq!(a.engines[1].limits.nodes, Some(1000));
        assert_eq!(a.tournament, TournamentKind::Gauntlet);
        assert_eq!(a.json_out, Some(PathBuf::from("r.json")));
    }

    #[test]
    fn mistakes_are_reported_with_what_to_fix() {
        let err = |s: &str| MatchArgs::parse(&words(s)).unwrap_err().to_string();
        assert!(err("stray -engine cmd=a").contains("belongs to no option"));
        assert!(err("-engine cmd=a tc=1 -engine cmd=b tc=1 -frobnicate")
            .contains("unknown option '-frobnicate'"));
        assert!(err("-engine cmd=a -engine cmd=b tc=1").contains("give a limit"));
        assert!(err("-engine cmd=a tc=1").contains("at least two engines"));
        assert!(err("-engine cmd=a tc=x -engine cmd=b").contains("bad time control"));
        assert!(err("-engine cmd=a tc=1 -engine cmd=a tc=1").contains("two engines are named 'a'"));
        assert!(
            err("-each tc=1 -engine cmd=a -engine cmd=b -sprt elo0=5 elo1=0")
                .contains("elo0 < elo1")
        );
        assert!(
            err("-each tc=1 -engine cmd=a -engine cmd=b -games ten").contains("not a valid number")
        );
        assert!(
            err("-each tc=1 -engine cmd=a color=red -engine cmd=b").contains("unknown key 'color'")
        );
        assert!(err("-each tc=1 -engine cmd=a -engine cmd=b -rating c=1500")
            .contains("no engine is named 'c'"));
    }

    #[test]
    fn games_rounds_and_repeat_mean_what_they_mean_to_fastchess() {
        let parse = |extra: &str| {
            MatchArgs::parse(&words(&format!(
                "-engine cmd=a -engine cmd=b -each nodes=200 {extra}"
            )))
        };
        let shape = |extra: &str| {
            let a = parse(extra).unwrap();
            (a.games, a.rounds, a.report_penta)
        };
        // fastchess's defaults: -games 2 -rounds 2, pairs counted.
        assert_eq!(shape(""), (2, 2, true));
        assert_eq!(shape("-rounds 3"), (2, 3, true));
        assert_eq!(shape("-rounds 2 -repeat"), (2, 2, true));
        assert_eq!(shape("-games 1 -rounds 5"), (1, 5, false));
        assert_eq!(shape("-games 1 -repeat -rounds 5"), (2, 5, true));
        assert_eq!(shape("-repeat 1 -rounds 5"), (1, 5, false));
        // More than 2 games a round: games and rounds swapped, as fastchess does.
        assert_eq!(shape("-games 10 -rounds 1"), (1, 10, false));
        assert_eq!(shape("-games 4"), (2, 4, true));
        assert!(parse("-games 5 -rounds 3")
            .unwrap_err()
            .to_string()
            .contains("at most 2 games a round"));
        // cutechess's -norepeat: every game its own opening.
        assert_eq!(shape("-games 2 -rounds 3 -norepeat"), (1, 6, false));
        assert_eq!(shape("-rounds 3 -report penta=false"), (2, 3, false));
        let a = parse("-noswap -reverse").unwrap();
        assert!(a.colours.noswap && a.colours.reverse);
        let a = parse("-sprt elo0=0 elo1=5 model=logistic").unwrap();
        assert_eq!(a.sprt.unwrap().model, elo::SprtModel::Logistic);
        assert!(a.report_penta);
        let a = parse("-sprt elo0=0 elo1=5 model=bayesian").unwrap();
        assert!(!a.report_penta, "the bayesian model counts games");
        assert!(parse("-sprt elo0=0 elo1=5 model=gaussian").is_err());
    }

    #[test]
    fn variant_fischerandom_is_chess960_for_every_engine() {
        let base = "-engine cmd=a -engine cmd=b -each nodes=200";
        let a = MatchArgs::parse(&words(&format!(
            "{base} -variant fischerandom -openings file=frc.epd"
        )))
        .unwrap();
        assert_eq!(a.variant, CastlingMode::Chess960);
        assert!(a
            .engines
            .iter()
            .all(|e| e.variant == CastlingMode::Chess960));
        let plain = MatchArgs::parse(&words(&format!("{base} -variant standard"))).unwrap();
        assert_eq!(plain.engines[1].variant, CastlingMode::Standard);
        let err = |s: &str| {
            MatchArgs::parse(&words(&format!("{base} {s}")))
                .unwrap_err()
                .to_string()
        };
        assert!(err("-variant fischerandom").contains("give -openings"));
        assert!(err("-variant atomic").contains("use standard or fischerandom"));
        assert!(
            err("-engine cmd=c proto=xboard -variant fischerandom -openings file=frc.epd")
                .contains("'c' speaks xboard")
        );
    }

    #[test]
    fn quick_seeds_and_intervals_mean_what_they_mean_to_fastchess() {
        let a = MatchArgs::parse(&words("-quick cmd=./new cmd=./new book=b.epd")).unwrap();
        let names: Vec<&str> = a.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["./new1", "./new2"]);
        assert_eq!(a.engines[0].limits.tc.unwrap().to_string(), "10+0.1");
        assert_eq!((a.games, a.rounds), (2, 25_000));
        assert_eq!(a.openings.unwrap().order, OpeningOrder::Random);
        let draw = FastchessDraw {
            move_number: 30,
            move_count: 8,
            score: 8,
        };
        assert_eq!(a.draw, Some(draw));
        assert!(a.concurrency >= 1);
        let err = |s: &str| MatchArgs::parse(&words(s)).unwrap_err().to_string();
        assert!(err("-quick cmd=a book=b.epd").contains("exactly two cmd="));
        assert!(err("-quick cmd=a cmd=b book=b.txt").contains(".pgn or .epd"));
        let base = "-engine cmd=a -engine cmd=b -engine cmd=c -engine cmd=d -each nodes=9";
        let a = MatchArgs::parse(&words(&format!(
            "{base} -tournament gauntlet -seeds 2 -scoreinterval 5"
        )))
        .unwrap();
        assert_eq!((a.seeds, a.score_interval), (2, 5));
        assert!(err(&format!("{base} -seeds 2")).contains("give -tournament gauntlet"));
        // What does not apply is refused, with why.
        assert!(err(&format!("{base} -autosaveinterval 10")).contains("-resume goes on"));
        assert!(err(&format!("{base} -show-latency")).contains("latency=true"));
        let logged = MatchArgs::parse(&words(&format!(
            "{base} -log file=x.log level=info engine=true"
        )))
        .unwrap()
        .log
        .unwrap();
        assert_eq!(
            (logged.level, logged.engine, logged.append),
            (Level::Info, true, true)
        );
        assert!(err(&format!("{base} -log level=info")).contains("give file=F"));
        assert!(err(&format!("{base} -log file=x level=debug")).contains("use trace"));
    }

    #[test]
    fn merge_needs_no_engines() {
        let a = MatchArgs::parse(&words("-merge a.json b.json -pgnout all.pgn")).unwrap();
        assert_eq!(a.merge.len(), 2);
    }
}
