//! The external programs some tests drive (python-chess, GNU XBoard,
//! Fairy-Max, Chromium, GNU Chess's book, fastchess), and the one rule for
//! when one is missing: on a developer's machine the test says "skipping"
//! and passes; under CI (the `CI` variable set, as `.ci/run` and CI services
//! do) it fails, so that a broken install step in `.ci/run` cannot show green.
//!
//! The root crate's tests reach this file as `common::tools`; the member
//! crates' tests include it with `#[path = "../../../tests/common/tools.rs"]`.
// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// True under CI: `CI` is set to anything but empty, `0` or `false`.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// Reports a missing tool: panics under CI (a failure naming what to
/// install), otherwise prints `skipping: WHAT` so that the test can return.
/// `what` names the tool (or says what is wrong) and how to install it.
pub fn missing(what: &str) {
    assert!(
        !under_ci(),
        "a tool this test needs is missing, and under CI every test must run: {what} (see .ci/run)"
    );
    eprintln!("skipping: {what}");
}

/// `found` passed through; when it is `None`, [`missing`] reports `what`.
pub fn require<T>(found: Option<T>, what: &str) -> Option<T> {
    if found.is_none() {
        missing(what);
    }
    found
}

/// Whether `python3` can import `module` (e.g. `chess.engine`).
pub fn python_has(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// python-chess with `module`, or [`missing`] says how to install it.
pub fn require_python_chess(module: &str) -> bool {
    require(
        python_has(module).then_some(()),
        "python3 with python-chess (pip install chess)",
    )
    .is_some()
}

/// A program on `PATH` or in Debian's `/usr/games`.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// fastchess: `$KESTREL_FASTCHESS`, else the project's shared tools folder
/// (`shared/tools/bin/fastchess` in a folder above the crate, as
/// `../shared` sits beside the workspace), else `PATH`.
pub fn fastchess() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("KESTREL_FASTCHESS") {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("shared/tools/bin/fastchess"))
        .find(|p| p.is_file())
        .or_else(|| find_program("fastchess"))
}

/// Runs `program ARGS` in `dir`, without the environment's tablebase path,
/// and returns whether it succeeded and its output (stdout, then stderr).
pub fn run_in(program: &Path, args: &[impl AsRef<OsStr>], dir: &Path) -> (bool, String) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env_remove("KESTREL_SYZYGY_PATH")
        .output()
        .unwrap_or_else(|e| panic!("{} does not start: {e}", program.display()));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}
