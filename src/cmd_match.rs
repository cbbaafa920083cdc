//! `kestrel match`, `kestrel tournament` and `kestrel epd`: the match runner's
//! commands. Match and tournament take cutechess-cli's single-dash options,
//! which `matchrunner::cli_args` reads; clap only collects the words and gives `--help`.

use anyhow::{Context, Result};
use clap::Args;
use matchrunner::cli_args::MatchArgs;
use matchrunner::report::OutputFormat;
use std::path::PathBuf;

const MATCH_HELP: &str = "\
Options (cutechess-cli's and fastchess's; -x and --x are the same):
  -engine cmd=CMD [name=N] [proto=uci|xboard] [arg=A]... [args=\"A B\"] [dir=D] [option.NAME=V]...
          [tc=[MOVES/]SECONDS[+INC] | st=SECONDS | depth=D | plies=D | nodes=N] [timemargin=MS] [initstr=LINE]
                         an engine (twice or more); cmd=kestrel runs this program
  -each KEY=VALUE...     keys for every engine (an engine's own keys win)
  -games N -rounds N     fastchess's schedule: N (1 or 2) games per encounter per round, one
                         opening each, colours by game number (default 2, 2; more than 2
                         games a round: games and rounds swapped, as fastchess does)
  -repeat [N]            -games 2 (-games N)
  -norepeat              every game its own opening (-games 1, rounds times games)
  -noswap | -reverse     the first engine always White | every game's colours swapped
  -report penta=BOOL     statistics on game pairs (default true; only with -games 2)
  -concurrency K         games at once (default 1)
  -openings file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=N]
  -srand N               seed for order=random (fastchess's shuffle: the same openings)
  -variant standard|fischerandom   Chess960 openings (UCI_Chess960, Shredder-FENs, Variant tag)
  -pgnout FILE [min]     append the games as PGN, as fastchess writes it (min: no comments)
  -epdout file=F         append each game's final position (FEN hmvc N; fmvn M;)
  -json FILE             write the results and every game as JSON
  -output format=cutechess|fastchess   how results are printed (default: cutechess's lines,
                         with statistics on game pairs; format=cutechess counts single
                         games, as fastchess's does)
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic|bayesian]
                         stop when the SPRT decides (fastchess's LLR)
  -draw movenumber=N movecount=N score=CP           draw adjudication (fastchess's)
  -resign movecount=N score=CP [twosided=false]     resign adjudication (fastchess's)
  -maxmoves N            draw after N moves of the engines
  -tb PATHS [-tbpieces N]   Syzygy adjudication
  -tournament round-robin|roundrobin|gauntlet   pairing (several engines)
  -rating NAME=ELO       known rating (repeatable): the others are rated against it
  -ratinginterval N      print the results every N game pairs (games when the statistics
                         count games; default 10, 0: at the end)
  -wait MS               pause between games
  -hangtimeout SECONDS   how long a silent engine without a clock is waited for (60)
  -noprogress            no progress bar
  -resume                go on with a stopped run: the games in the -pgnout file count and are
                         not played again; a run whose configuration (stored in FILE.config.json)
                         differs is refused, the differences named (-rounds may grow)
  -config file=F [stats=false] [discard=true] [outname=F2]
                         run the command stored in a run's configuration (FILE.config.json)
                         again, going on from its PGN (stats=false: afresh); outname=: also
                         write this run's configuration to F2
  -log file=F [level=trace|info|warn|err|fatal] [engine=true] [append=false]
                         the runner's log in fastchess's format (engine=true: every engine line)
  -tournament gauntlet -seeds N   the first N engines each play all engines after them
  -scoreinterval N       print the score line every N games
  -quick cmd=A cmd=B book=F   fastchess's quick test: 10+0.1, 25000 rounds, random openings
  -recover               restart a crashed or stalled engine and play on (without it the
                         run stops there, the engine's last lines shown)
  -merge A.json B.json... [-pgnout ALL.pgn]   combine shards (PGNs too)

Example:
  kestrel match -engine cmd=kestrel name=new -engine cmd=stockfish option.UCI_LimitStrength=true \\
      option.UCI_Elo=1500 -each tc=10+0.1 -games 2 -rounds 50 -concurrency 2 -pgnout out.pgn";

/// Arguments of `kestrel match` and `kestrel tournament`.
#[derive(Args)]
#[command(after_help = MATCH_HELP)]
pub struct MatchCommand {
    /// cutechess-cli style options (see below).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "OPTIONS"
    )]
    words: Vec<String>,
}

/// The path of this program, for `cmd=kestrel`.
fn resolve_self(args: &mut MatchArgs) -> Result<()> {
    for e in &mut args.engines {
        if e.cmd == "kestrel" {
            e.cmd = std::env::current_exe()
                .context("cannot find this program's path for cmd=kestrel")?
                .display()
                .to_string();
        }
    }
    Ok(())
}

/// Runs a match or tournament (the same thing with more engines: the
/// default pairing is round-robin either way).
pub fn run_match(command: MatchCommand) -> Result<()> {
    let words = matchrunner::run_config::expand(&command.words)?;
    let mut args = MatchArgs::parse(&words)?;
    if !args.merge.is_empty() {
        let results = matchrunner::merge::merge(&args.merge, args.pgn_out.as_deref())?;
        print!(
            "{}",
            matchrunner::report::report_in(&results, args.output, None)
        );
        if let Some(path) = &args.json_out {
            matchrunner::runner::write_json(path, &results)?;
        }
        return Ok(());
    }
    resolve_self(&mut args)?;
    let finished = matchrunner::runner::run(&args)?;
    print!("{}", finished.report(args.output));
    // fastchess's own output ends with it; cutechess's SPRT line says it.
    if let (Some(line), OutputFormat::Fastchess) = (&finished.sprt_completed, args.output) {
        println!("{line}");
    }
    match finished.stopped {
        Some(why) => anyhow::bail!("{why}"),
        None => Ok(()),
    }
}

/// Arguments of `kestrel epd`.
#[derive(Args)]
pub struct EpdCommand {
    /// The EPD file (bm/am operations, or STS-style c0 points).
    file: PathBuf,
    /// A UCI engine to test (repeatable: the results are printed side by
    /// side); Kestrel itself when none is given.
    #[arg(long = "engine", value_name = "CMD")]
    engines: Vec<String>,
    /// Think this long per position.
    #[arg(long, value_name = "MS", conflicts_with_all = ["depth", "nodes"])]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Set an option on every engine, NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Print each position's line.
    #[arg(short, long)]
    verbose: bool,
}

/// Runs the test suite.
pub fn run_epd(command: EpdCommand) -> Result<()> {
    let positions = matchrunner::epd_suite::load(&command.file)?;
    let limit = match (command.movetime, command.depth, command.nodes) {
        (_, Some(d), _) => matchrunner::epd_suite::Limit::Depth(d),
        (_, _, Some(n)) => matchrunner::epd_suite::Limit::Nodes(n),
        (Some(ms), _, _) => matchrunner::epd_suite::Limit::MoveTime(ms),
        (None, None, None) => matchrunner::epd_suite::Limit::MoveTime(1000),
    };
    let mut options = Vec::new();
    for o in &command.options {
        let (n, v) = o
            .split_once('=')
            .with_context(|| format!("--option '{o}' must be NAME=VALUE"))?;
        options.push((n.to_string(), v.to_string()));
    }
    let engines = if command.engines.is_empty() {
        let me = std::env::current_exe().context("cannot find this program's path")?;
        vec![me.display().to_string()]
    } else {
        command.engines
    };
    let mut runs = Vec::new();
    for cmd in &engines {
        let run = matchrunner::epd_suite::run(cmd, &options, &positions, limit, |line| {
            if command.verbose {
                println!("{line}");
            }
        })?;
        runs.push(run);
    }
    print!("{}", matchrunner::epd_suite::summary(&positions, &runs));
    Ok(())
}
