//! The runner's log (`-log file=F level=L engine=B`), in fastchess's line
//! format: `[INFO  ] [14:02:03.123456] <                    > kestrel ---
//! Finished game 1 ...` for the runner's messages at or above the level
//! asked for, and, with `engine=true`, every line sent to an engine
//! (`[Engine] [...] <   THREAD>  NAME <--- go nodes 300`) and received from
//! one (`NAME ---> bestmove e2e4`), stamped with the time (UTC, to the
//! microsecond) and the thread that wrote or read it. Each line is written
//! as it happens.

use matchcore::engine_process::IoLog;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// How much the runner says (fastchess's levels, least severe first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Every step.
    Trace,
    /// What happens: the seed, each game's end.
    Info,
    /// What went wrong but was recovered from (the default).
    Warn,
    /// Errors.
    Err,
    /// What stops the run.
    Fatal,
}

impl Level {
    /// The level `level=NAME` names.
    pub fn from_name(name: &str) -> Option<Level> {
        Some(match name {
            "trace" => Level::Trace,
            "info" => Level::Info,
            "warn" => Level::Warn,
            "err" => Level::Err,
            "fatal" => Level::Fatal,
            _ => return None,
        })
    }

    fn label(self) -> &'static str {
        match self {
            Level::Trace => "TRACE",
            Level::Info => "INFO",
            Level::Warn => "WARN",
            Level::Err => "ERR",
            Level::Fatal => "FATAL",
        }
    }
}

/// What `-log` asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct LogSpec {
    /// The file.
    pub file: PathBuf,
    /// The least severe message written.
    pub level: Level,
    /// Whether engine input and output are written.
    pub engine: bool,
    /// Whether the file is appended to (else started afresh).
    pub append: bool,
}

/// An open log.
pub struct RunLog {
    out: Mutex<BufWriter<File>>,
    level: Level,
    engine: bool,
}

/// The time of day now (UTC) as fastchess stamps its log: `14:02:03.123456`.
fn now() -> String {
    let t = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let s = t.as_secs() % 86_400;
    format!(
        "{:02}:{:02}:{:02}.{:06}",
        s / 3600,
        s / 60 % 60,
        s % 60,
        t.subsec_micros()
    )
}

/// The calling thread's number, as the log names threads.
fn thread_number() -> String {
    let id = format!("{:?}", std::thread::current().id());
    id.trim_start_matches("ThreadId(")
        .trim_end_matches(')')
        .to_string()
}

/// fastchess's line prefix: `[LABEL ] [time] <thread> `.
fn prefix(label: &str, time: &str, thread: &str) -> String {
    format!("[{label:<6}] [{time:>15}] <{thread:>20}> ")
}

impl RunLog {
    /// Opens the log `spec` names.
    pub fn open(spec: &LogSpec) -> std::io::Result<RunLog> {
        let file = OpenOptions::new()
            .create(true)
            .append(spec.append)
            .write(true)
            .truncate(!spec.append)
            .open(&spec.file)?;
        Ok(RunLog {
            out: Mutex::new(BufWriter::new(file)),
            level: spec.level,
            engine: spec.engine,
        })
    }

    fn write(&self, line: &str) {
        // A log that cannot be written must not stop the games.
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{line}").and_then(|()| out.flush());
        }
    }

    /// Writes a runner message at `level`, if the log takes that level.
    pub fn message(&self, level: Level, text: &str) {
        if level >= self.level {
            self.write(&format!(
                "{}kestrel --- {text}",
                prefix(level.label(), &now(), "")
            ));
        }
    }
}

impl IoLog for RunLog {
    fn engine_line(&self, engine: &str, to_engine: bool, line: &str) {
        if self.engine {
            let arrow = if to_engine { "<---" } else { "--->" };
            self.write(&format!(
                "{} {engine} {arrow} {line}",
                prefix("Engine", &now(), &thread_number())
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_fastchess_writes_them() {
        let dir = std::env::temp_dir().join(format!("kestrel-runlog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let spec = LogSpec {
            file: dir.join("run.log"),
            level: Level::Info,
            engine: true,
            append: false,
        };
        let log = RunLog::open(&spec).unwrap();
        log.message(Level::Trace, "not written");
        log.message(Level::Info, "Setting seed to: 7");
        log.engine_line("A", true, "uci");
        log.engine_line("A", false, "uciok");
        let text = std::fs::read_to_string(&spec.file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        let stamp = |l: &str| l[10..25].to_string();
        assert!(lines[0].starts_with("[INFO  ] ["), "{text}");
        assert!(lines[0].ends_with("<                    > kestrel --- Setting seed to: 7"));
        let t = stamp(lines[0]);
        assert!(t.as_bytes()[2] == b':' && t.as_bytes()[8] == b'.', "{t}");
        assert!(lines[1].starts_with("[Engine] ["), "{text}");
        assert!(lines[1].ends_with(">  A <--- uci"), "{text}");
        assert!(lines[2].ends_with(">  A ---> uciok"), "{text}");
        // engine=false keeps the engines out.
        let quiet = RunLog::open(&LogSpec {
            engine: false,
            ..spec.clone()
        })
        .unwrap();
        quiet.engine_line("A", true, "uci");
        assert_eq!(std::fs::read_to_string(&spec.file).unwrap(), "");
        assert_eq!(Level::from_name("err"), Some(Level::Err));
        assert_eq!(Level::from_name("debug"), None);
        let _ = std::fs::remove_dir_all(dir);
    }
}
