//! An engine as a child process over pipes. A reader thread turns its output
//! into lines on a channel, so the runner waits for a line with a deadline and
//! never blocks on an engine that hangs. The one way to run an engine
//! process: the match runner's players, SPSA, EPD suites and the integration tests.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why an engine could not answer.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum EngineError {
    /// It could not be started.
    #[error("cannot start '{cmd}': {reason}")]
    Start {
        /// The command.
        cmd: String,
        /// The system's reason.
        reason: String,
    },
    /// Its output ended: it crashed or quit.
    #[error("the engine exited")]
    Exited,
    /// It said nothing useful before the deadline.
    #[error("engine did not answer within {0:?}")]
    Timeout(Duration),
    /// It said something it should not have (an illegal move, say).
    #[error("{0}")]
    Protocol(String),
    /// It found no move in a position that has legal moves (an in-process
    /// search that failed or was halted).
    #[error("the engine found no move")]
    NoMove,
}

/// Where an engine's input and output lines are copied as they pass (the
/// match runner's `-log ... engine=true`).
pub trait IoLog: Send + Sync {
    /// `line` went to the engine named `engine` (`to_engine`) or came from it.
    fn engine_line(&self, engine: &str, to_engine: bool, line: &str);
}

/// An [`IoLog`] and the engine's name in it.
pub type NamedLog = (Arc<dyn IoLog>, Arc<str>);

/// How many of an engine's last output lines are kept, to show what it
/// said before it failed.
pub const TAIL_LINES: usize = 10;

/// An engine's last output lines, stdout's and (when the caller piped it)
/// stderr's, in the order they came.
type Tail = Arc<Mutex<VecDeque<String>>>;

fn keep(tail: &Tail, line: String) {
    if let Ok(mut tail) = tail.lock() {
        if tail.len() == TAIL_LINES {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<NamedLog>,
    tail: Tail,
}

impl EngineProcess {
    /// Starts `command` (program, arguments, directory, environment and
    /// stderr as the caller set them) with its stdin and stdout piped. A
    /// piped stderr is read here, its lines kept for [`EngineProcess::last_lines`].
    pub fn spawn(command: Command) -> Result<EngineProcess, EngineError> {
        EngineProcess::spawn_logged(command, None)
    }

    /// As [`EngineProcess::spawn`], copying every line sent and received
    /// to `log` (received lines as they are read, by the reader thread).
    pub fn spawn_logged(
        mut command: Command,
        log: Option<NamedLog>,
    ) -> Result<EngineProcess, EngineError> {
        let start_error = |command: &Command, reason: String| EngineError::Start {
            cmd: command.get_program().to_string_lossy().into_owned(),
            reason,
        };
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
        let mut child = command
            .spawn()
            .map_err(|e| start_error(&command, e.to_string()))?;
        let Some(stdout) = child.stdout.take() else {
            return Err(start_error(&command, "no stdout pipe".to_string()));
        };
        let (tx, lines) = mpsc::channel();
        let reader_log = log.clone();
        let tail: Tail = Arc::default();
        let stdout_tail = Arc::clone(&tail);
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some((log, name)) = &reader_log {
                    log.engine_line(name, false, &line);
                }
                keep(&stdout_tail, line.clone());
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        if let Some(stderr) = child.stderr.take() {
            let stderr_tail = Arc::clone(&tail);
            thread::spawn(move || {
                // Drained to the end, so that an engine writing much to
                // stderr never blocks on a full pipe.
                for line in BufReader::new(stderr).split(b'\n') {
                    let Ok(line) = line else { break };
                    let text = String::from_utf8_lossy(&line).trim_end().to_string();
                    keep(&stderr_tail, format!("stderr: {text}"));
                }
            });
        }
        Ok(EngineProcess {
            stdin: child.stdin.take(),
            child,
            lines,
            log,
            tail,
        })
    }

    /// The engine's last lines of output (at most [`TAIL_LINES`]), stderr's
    /// marked `stderr: `, for telling a user what it said before it failed.
    pub fn last_lines(&self) -> Vec<String> {
        self.tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// How the process ended, waiting up to `wait` for it to end (`None`:
    /// still running).
    pub fn exit_status(&mut self, wait: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }

    /// Sends one line. A closed pipe means the engine has gone.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let stdin = self.stdin.as_mut().ok_or(EngineError::Exited)?;
        if let Some((log, name)) = &self.log {
            log.engine_line(name, true, line);
        }
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|_| EngineError::Exited)
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(wait)),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Exited),
        }
    }

    /// Reads lines until one satisfies `done`, returning it.
    pub fn recv_until(
        &mut self,
        deadline: Instant,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        loop {
            let line = self.recv(deadline)?;
            if done(&line) {
                return Ok(line);
            }
        }
    }

    /// How it ended and its last lines, for [`crate::player::Player::post_mortem`]:
    /// `exit status: 3` (or `signal: 11 (SIGSEGV)`, or that it still runs),
    /// then what it last wrote.
    pub fn post_mortem(&mut self) -> Vec<String> {
        let ended = match self.exit_status(Duration::from_millis(300)) {
            Some(status) => format!("the process ended: {status}"),
            None => "the process is still running".to_string(),
        };
        let mut lines = vec![ended];
        lines.extend(self.last_lines());
        lines
    }

    /// Asks the engine to quit, then kills it if it has not within a moment.
    pub fn quit(mut self, quit_line: &str) {
        let _ = self.send(quit_line);
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Never leave an engine behind, whatever state it is in.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
