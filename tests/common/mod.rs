//! Running the `kestrel` binary from the integration tests.
// Each test file uses a different part of this module.
#![allow(dead_code)]

pub mod browser;
pub mod tools;

use matchcore::engine_process::EngineProcess;
use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `kestrel ARGS`, writing `stdin` to it, and waits for it. The
/// environment's tablebase path is removed so that tests see no tables they
/// did not ask for.
pub fn kestrel_with_input(args: &[&str], stdin: &str) -> Output {
    let child = spawn_with_input(args, stdin);
    child.wait_with_output().expect("kestrel ends")
}

/// Starts `kestrel ARGS` (without the environment's tablebase path) and
/// writes `stdin` to it, closing it after.
fn spawn_with_input(args: &[&str], stdin: &str) -> std::process::Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .args(args)
        .env_remove("KESTREL_SYZYGY_PATH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kestrel runs");
    // A process that exits before reading all of it is judged by its output.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes());
    child
}

/// [`kestrel_with_input`], killed once `limit` has passed: its output and
/// whether it ended by itself in time.
pub fn kestrel_within(args: &[&str], stdin: &str, limit: Duration) -> (Output, bool) {
    let mut child = spawn_with_input(args, stdin);
    let start = Instant::now();
    let mut in_time = true;
    while child.try_wait().expect("waits").is_none() {
        if start.elapsed() > limit {
            in_time = false;
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    (child.wait_with_output().expect("kestrel ends"), in_time)
}

/// Runs `kestrel ARGS` with empty input.
pub fn kestrel(args: &[&str]) -> Output {
    kestrel_with_input(args, "")
}

/// Runs `kestrel ARGS` with empty input, checks that it succeeded, and
/// gives its standard output.
pub fn kestrel_ok(args: &[&str]) -> String {
    let o = kestrel(args);
    assert!(o.status.success(), "kestrel {args:?}: {o:?}");
    stdout(&o)
}

/// A fresh, empty scratch directory of this test process, named for the
/// test file (`kind`) and the test (`name`).
pub fn scratch_dir(kind: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-{kind}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Its standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Its standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `kestrel ARGS` running, spoken to over its pipes as a GUI would, through
/// the match core's [`EngineProcess`] (whose reader thread collects its lines,
/// so that a silent engine fails the test after a timeout instead of hanging
/// it). Dropping it sends `quit`.
pub struct Running {
    process: Option<EngineProcess>,
}

impl Running {
    /// Starts `kestrel ARGS` (without the environment's tablebase path).
    pub fn start(args: &[&str]) -> Running {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kestrel"));
        command.args(args).env_remove("KESTREL_SYZYGY_PATH");
        let process = EngineProcess::spawn(command).expect("kestrel starts");
        Running {
            process: Some(process),
        }
    }

    fn process(&mut self) -> &mut EngineProcess {
        self.process.as_mut().expect("running until dropped")
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.process().send(line).expect("kestrel reads its input");
    }

    /// Lines until one matches (that one included); panics when `secs` pass
    /// without a line.
    pub fn until_line(&mut self, done: impl Fn(&str) -> bool, secs: u64) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let deadline = Instant::now() + Duration::from_secs(secs);
            match self.process().recv(deadline) {
                Ok(line) => {
                    let last = done(&line);
                    seen.push(line);
                    if last {
                        return seen;
                    }
                }
                Err(e) => panic!("no expected line within {secs} s ({e}); got {seen:?}"),
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
        if let Some(process) = self.process.take() {
            process.quit("quit");
        }
    }
}
