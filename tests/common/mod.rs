//! Running the `kestrel` binary from the integration tests.
// Each test file uses a different part of this module.
#![allow(dead_code)]

pub mod tools;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// Runs `kestrel ARGS`, writing `stdin` to it, and waits for it. The
/// environment's tablebase path is removed so that tests see no tables they
/// did not ask for.
pub fn kestrel_with_input(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .args(args)
        .env_remove("KESTREL_SYZYGY_PATH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kestrel runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("kestrel reads its input");
    child.wait_with_output().expect("kestrel ends")
}

/// Runs `kestrel ARGS` with empty input.
pub fn kestrel(args: &[&str]) -> Output {
    kestrel_with_input(args, "")
}

/// Its standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Its standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `kestrel ARGS` running, spoken to over its pipes as a GUI would: a reader
/// thread collects its lines so that a silent engine fails the test after a
/// timeout instead of hanging it. Dropping it sends `quit` and waits.
pub struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Running {
    /// Starts `kestrel ARGS` (without the environment's tablebase path).
    pub fn start(args: &[&str]) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
            .args(args)
            .env_remove("KESTREL_SYZYGY_PATH")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("kestrel starts");
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Running {
            child,
            stdin,
            lines,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("kestrel reads its input");
        self.stdin.flush().expect("kestrel reads its input");
    }

    /// Lines until one matches (that one included); panics after `secs`.
    pub fn until_line(&mut self, done: impl Fn(&str) -> bool, secs: u64) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(secs)) {
                Ok(line) => {
                    let last = done(&line);
                    seen.push(line);
                    if last {
                        return seen;
                    }
                }
                Err(_) => panic!("no expected line within {secs} s; got {seen:?}"),
            }
        }
    }

    /// Lines until one starts with `prefix` (that one included); panics after `secs`.
    pub fn until(&mut self, prefix: &str, secs: u64) -> Vec<String> {
        self.until_line(|l| l.starts_with(prefix), secs)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}
