//! The whole configuration of a run, stored beside its PGN (`FILE.config.json`
//! for `-pgnout FILE`, as fastchess keeps its `config.json`), so that
//! `-resume` continues only the run that wrote the games: the engines (command,
//! arguments, directory, protocol, options, limits), the schedule, the
//! openings (the file's name, order and a hash of its contents), the seed,
//! the adjudication and the SPRT. A difference is named, with both values.
//!
//! The configuration is a flat map from a readable key (`engine 2
//! nodes`) to a value as text, so that the file can be read by people and
//! compared key by key.

use crate::cli_args::MatchArgs;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What a run is: readable key to value.
pub type RunConfig = BTreeMap<String, String>;

/// Why a stored configuration cannot be used.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a configuration.
    #[error("{path} is not a run configuration written by kestrel match: {reason}")]
    Malformed {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The games were written by a run that differs from this one.
    #[error(
        "-resume: the games in {pgn} were played by another run; it differs in {}:\n{}\n\
         run the command of that run again with -resume, or write to another -pgnout file",
        .differences.len(),
        .differences.iter().map(|d| format!("  {d}")).collect::<Vec<_>>().join("\n")
    )]
    Differs {
        /// The PGN file resumed.
        pgn: String,
        /// One line a difference: `KEY: THEN then, NOW now`.
        differences: Vec<String>,
    },
}

/// The key of the command line that started the run (a JSON list of its
/// words): what `-config file=` runs again. Not compared by `-resume`,
/// which compares what the words mean.
const COMMAND: &str = "command";

/// The command line `words` with `-config file=F` replaced by the command
/// line of the run whose configuration F holds (then the other words, so
/// that a later option overrides the stored one), as fastchess's `-config
/// file=` loads its `config.json`: the run goes on where it stopped
/// (`-resume`, when it wrote a PGN) unless `stats=false`; `discard=true`
/// leaves F unread.
/// `-config outname=F` is kept for the parser.
pub fn expand(words: &[String]) -> Result<Vec<String>, ConfigError> {
    // A stray word is left for the parser to report.
    let Ok(groups) = crate::cli_args::group(words) else {
        return Ok(words.to_vec());
    };
    let mut file = None;
    let mut resume = true;
    let mut discard = false;
    let mut rest = Vec::new();
    for (option, values) in groups {
        if option != "config" {
            rest.push(format!("-{option}"));
            rest.extend(values);
            continue;
        }
        let mut kept = Vec::new();
        for v in values {
            match v.split_once('=') {
                Some(("file", f)) => file = Some(PathBuf::from(f)),
                Some(("stats", b)) => resume = b != "false",
                Some(("discard", b)) => discard = b == "true",
                _ => kept.push(v),
            }
        }
        if !kept.is_empty() {
            rest.push("-config".into());
            rest.extend(kept);
        }
    }
    let Some(file) = file.filter(|_| !discard) else {
        return Ok(if discard { rest } else { words.to_vec() });
    };
    let shown = file.display().to_string();
    let config = read(&file)?.ok_or_else(|| ConfigError::Io {
        path: shown.clone(),
        source: std::io::Error::from(std::io::ErrorKind::NotFound),
    })?;
    let stored = config.get(COMMAND).ok_or_else(|| ConfigError::Malformed {
        path: shown.clone(),
        reason: "it holds no command line (written by an older kestrel match)".into(),
    })?;
    let stored: Vec<String> = serde_json::from_str(stored).map_err(|e| ConfigError::Malformed {
        path: shown.clone(),
        reason: format!("its command line: {e}"),
    })?;
    let mut out: Vec<String> = stored
        .into_iter()
        .filter(|w| w != "-resume" && w != "--resume")
        .collect();
    // Only a run with a PGN has games to go on from.
    let has_pgn = out.iter().any(|w| w.trim_start_matches('-') == "pgnout");
    if resume && has_pgn {
        out.push("-resume".into());
    }
    out.extend(rest);
    Ok(out)
}

/// Where the configuration of the run writing `pgn` is kept.
pub fn path_for(pgn: &Path) -> PathBuf {
    let mut name = pgn.as_os_str().to_owned();
    name.push(".config.json");
    PathBuf::from(name)
}

/// A 64-bit FNV-1a hash of `bytes`, as hex: openings files are compared by
/// content, not only by name.
fn content_hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The configuration of `args`, run with `seed` (the `-srand` given or drawn).
pub fn of(args: &MatchArgs, seed: u64) -> RunConfig {
    let mut c = RunConfig::new();
    let mut put = |k: String, v: String| {
        c.insert(k, v);
    };
    for (i, e) in args.engines.iter().enumerate() {
        let key = |what: &str| format!("engine {} {what}", i + 1);
        put(key("name"), e.name.clone());
        put(key("cmd"), e.cmd.clone());
        put(key("args"), e.args.join(" "));
        put(
            key("dir"),
            e.dir
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
        );
        put(key("proto"), e.protocol.to_string());
        for (name, value) in &e.options {
            put(key(&format!("option.{name}")), value.clone());
        }
        put(key("initstr"), e.init.join(" | "));
        let l = &e.limits;
        put(key("tc"), l.tc.map(|t| t.to_string()).unwrap_or_default());
        put(
            key("st"),
            l.movetime
                .map(|d| d.as_secs_f64().to_string())
                .unwrap_or_default(),
        );
        put(
            key("depth"),
            l.depth.map(|d| d.to_string()).unwrap_or_default(),
        );
        put(
            key("nodes"),
            l.nodes.map(|n| n.to_string()).unwrap_or_default(),
        );
        put(key("timemargin"), e.time_margin.as_millis().to_string());
    }
    put("engines".into(), args.engines.len().to_string());
    put("games".into(), args.games.to_string());
    put("rounds".into(), args.rounds.to_string());
    put("noswap".into(), args.colours.noswap.to_string());
    put("reverse".into(), args.colours.reverse.to_string());
    put("tournament".into(), format!("{:?}", args.tournament));
    // Named only when not the default, so that older stored runs match.
    if args.seeds != 1 {
        put("seeds".into(), args.seeds.to_string());
    }
    put("srand".into(), seed.to_string());
    match &args.openings {
        Some(o) => {
            put("openings file".into(), o.file.display().to_string());
            put(
                "openings contents".into(),
                std::fs::read(&o.file)
                    .map_or_else(|e| format!("unreadable: {e}"), |b| content_hash(&b)),
            );
            put("openings format".into(), format!("{:?}", o.format));
            put("openings order".into(), format!("{:?}", o.order));
            put(
                "openings plies".into(),
                o.plies.map(|p| p.to_string()).unwrap_or_default(),
            );
            put("openings start".into(), o.start.to_string());
        }
        None => put("openings file".into(), "(the standard position)".into()),
    }
    let text = |x: Option<String>| x.unwrap_or_else(|| "none".into());
    put("draw".into(), text(args.draw.map(|d| format!("{d:?}"))));
    put("resign".into(), text(args.resign.map(|r| format!("{r:?}"))));
    put(
        "maxmoves".into(),
        text(args.max_moves.map(|m| m.to_string())),
    );
    put("tb".into(), text(args.tb.clone()));
    put(
        "tbpieces".into(),
        text(args.tb_pieces.map(|p| p.to_string())),
    );
    put(
        "sprt".into(),
        text(args.sprt.map(|s| {
            format!(
                "elo0={} elo1={} alpha={} beta={} model={}",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                s.model.name()
            )
        })),
    );
    put("report penta".into(), args.report_penta.to_string());
    put(
        COMMAND.into(),
        serde_json::to_string(&args.command).expect("strings serialise"),
    );
    // Only a Chess960 run names its variant, so that the configurations
    // of standard runs stored before -variant existed still match.
    if args.variant != chess::CastlingMode::Standard {
        put("variant".into(), crate::variant::name(args.variant).into());
    }
    c
}

/// Writes `config` to `path`.
pub fn write(path: &Path, config: &RunConfig) -> Result<(), ConfigError> {
    let text = serde_json::to_string_pretty(config).expect("a map of strings serialises");
    types::output::write(path, text + "\n").map_err(|source| ConfigError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The longest configuration file read: a run's command line and settings
/// take a few kilobytes; a device or a huge file named by `-config file=`
/// is refused instead of read without bound.
pub const MAX_CONFIG_LEN: u64 = 1 << 20;

/// The configuration stored at `path` (a regular file of at most
/// [`MAX_CONFIG_LEN`] bytes); `None` when there is none.
pub fn read(path: &Path) -> Result<Option<RunConfig>, ConfigError> {
    let shown = path.display().to_string();
    let text = match types::file::read_regular_text(path, MAX_CONFIG_LEN) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(ConfigError::Io {
                path: shown,
                source,
            })
        }
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| ConfigError::Malformed {
            path: shown,
            reason: e.to_string(),
        })
}

/// The differences between the run that wrote the games (`then`) and this
/// one (`now`), one line each, in key order. `-rounds` may change in a
/// match of two engines: more (or fewer) rounds continue the same schedule,
/// whose games keep their openings and colours (with more engines the
/// rounds decide how many openings the encounters share, so they may not).
pub fn differences(then: &RunConfig, now: &RunConfig) -> Vec<String> {
    let two = |c: &RunConfig| c.get("engines").map(String::as_str) == Some("2");
    let may_change = |k: &str| k == "rounds" && two(then) && two(now);
    let shown = |v: Option<&String>| match v.map(String::as_str) {
        None => "(not set)".to_string(),
        Some("") => "(none)".to_string(),
        Some(v) => v.to_string(),
    };
    let mut keys: Vec<&String> = then.keys().chain(now.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| then.get(*k) != now.get(*k) && !may_change(k) && *k != COMMAND)
        .map(|k| {
            format!(
                "{k}: {} then, {} now",
                shown(then.get(k)),
                shown(now.get(k))
            )
        })
        .collect()
}

/// Checks that `now` continues the run whose configuration is stored for
/// `pgn` (nothing stored: nothing to continue, or a PGN from an older
/// Kestrel or another program, which the schedule check still guards).
pub fn check_resume(pgn: &Path, now: &RunConfig) -> Result<(), ConfigError> {
    let Some(then) = read(&path_for(pgn))? else {
        return Ok(());
    };
    let differences = differences(&then, now);
    if differences.is_empty() {
        Ok(())
    } else {
        Err(ConfigError::Differs {
            pgn: pgn.display().to_string(),
            differences,
        })
    }
}

/// The seed the stored run used, for a `-resume` that gives no `-srand`.
pub fn stored_seed(pgn: &Path) -> Option<u64> {
    read(&path_for(pgn)).ok()??.get("srand")?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> MatchArgs {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        MatchArgs::parse(&words).unwrap()
    }

    const RUN: &str = "-engine cmd=kestrel name=A -engine cmd=kestrel name=B \
                       -each nodes=20000 option.Hash=16 -rounds 10 -pgnout g.pgn -resume";

    #[test]
    fn an_unchanged_run_has_no_differences() {
        let a = of(&args(RUN), 9);
        assert!(differences(&a, &of(&args(RUN), 9)).is_empty());
    }

    #[test]
    fn each_change_is_named_with_both_values() {
        let then = of(&args(RUN), 9);
        let cases = [
            (
                RUN.replace("nodes=20000", "nodes=2000"),
                "engine 1 nodes: 20000 then, 2000 now",
            ),
            (
                RUN.replace("Hash=16", "Hash=64"),
                "engine 2 option.Hash: 16 then, 64 now",
            ),
            (
                RUN.replace("nodes=20000", "tc=10+0.1"),
                "engine 1 tc: (none) then, 10+0.1 now",
            ),
            (
                RUN.replace("-rounds 10", "-games 1 -rounds 20"),
                "games: 2 then, 1 now",
            ),
            (
                RUN.replace("cmd=kestrel name=B", "cmd=./old name=B"),
                "engine 2 cmd: kestrel then, ./old now",
            ),
            (
                format!("{RUN} -variant fischerandom -openings file=o.epd"),
                "variant: (not set) then, fischerandom now",
            ),
        ];
        for (line, want) in &cases {
            let d = differences(&then, &of(&args(line), 9));
            assert!(d.iter().any(|l| l == want), "{line}: {d:?}");
        }
        let seed = differences(&then, &of(&args(RUN), 10));
        assert_eq!(seed, ["srand: 9 then, 10 now"]);
        // A longer run continues the same schedule.
        let longer = of(&args(&RUN.replace("-rounds 10", "-rounds 20")), 9);
        assert!(differences(&then, &longer).is_empty());
    }

    #[test]
    fn config_file_runs_the_stored_command_again() {
        let dir = std::env::temp_dir().join(format!("kestrel-runconfig-x-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("run.json");
        let first = args(RUN);
        write(&file, &of(&first, 9)).unwrap();
        let w = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
        let given = w(&format!(
            "-config file={} -ratinginterval 3",
            file.display()
        ));
        let expanded = expand(&given).unwrap();
        let again = MatchArgs::parse(&expanded).unwrap();
        // The same run, resumed, with the later option on top.
        assert!(differences(&of(&first, 9), &of(&again, 9)).is_empty());
        assert!(again.resume);
        assert_eq!(again.rating_interval, 3);
        assert_eq!(again.engines, first.engines);
        // stats=false starts it afresh; discard=true leaves the file unread.
        let fresh = expand(&w(&format!(
            "-config file={} stats=false outname=x.json",
            file.display()
        )))
        .unwrap();
        assert!(!fresh.contains(&"-resume".to_string()));
        assert!(fresh.ends_with(&w("-config outname=x.json")));
        let discarded = expand(&w(&format!(
            "-engine cmd=a -config file={} discard=true",
            file.display()
        )))
        .unwrap();
        assert_eq!(discarded, w("-engine cmd=a"));
        assert!(expand(&w("-config file=/nonexistent/run.json")).is_err());
        // A device is refused at once, not read without bound.
        assert!(expand(&w("-config file=/dev/zero")).is_err());
        let mut old = of(&first, 9);
        old.remove(COMMAND);
        write(&file, &old).unwrap();
        let e = expand(&given).unwrap_err().to_string();
        assert!(e.contains("no command line"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_stored_configuration_is_read_back_and_checked() {
        let dir = std::env::temp_dir().join(format!("kestrel-runconfig-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("g.pgn");
        let config = of(&args(RUN), 9);
        write(&path_for(&pgn), &config).unwrap();
        assert_eq!(stored_seed(&pgn), Some(9));
        check_resume(&pgn, &config).unwrap();
        let changed = of(&args(&RUN.replace("nodes=20000", "nodes=2000")), 10);
        let err = check_resume(&pgn, &changed).unwrap_err().to_string();
        assert!(err.contains("differs in 3"), "{err}");
        assert!(err.contains("srand: 9 then, 10 now"), "{err}");
        // No stored configuration: nothing to compare with.
        check_resume(&dir.join("other.pgn"), &changed).unwrap();
        std::fs::write(path_for(&pgn), "not json").unwrap();
        assert!(check_resume(&pgn, &config).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }
}
