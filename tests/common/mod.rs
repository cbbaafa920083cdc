//! Running the `kestrel` binary from the integration tests.
// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

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
