//! An engine as a child process over pipes. A reader thread turns its output
//! into lines on a channel, so the runner waits for a line with a deadline and
//! never blocks on an engine that hangs. The one way to run an engine
//! process: the match runner's players, SPSA, EPD suites and the integration tests.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
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

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<NamedLog>,
}

impl EngineProcess {
    /// Starts `command` (program, arguments, directory, environment and
    /// stderr as the caller set them) with its stdin and stdout piped.
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
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some((log, name)) = &reader_log {
                    log.engine_line(name, false, &line);
                }
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            stdin: child.stdin.take(),
            child,
            lines,
            log,
        })
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
