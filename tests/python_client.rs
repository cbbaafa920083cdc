//! Runs `tests/python/client_games.py` and `tests/python/xboard_client.py`:
//! python-chess (an independent UCI and xboard client) plays full games
//! against the binary and analyses with it. Skipped, with a message,
//! where python-chess is not installed (`pip install chess`), except under
//! CI, where that fails (`common::tools`).

mod common;

use std::process::Command;

fn has_python_chess() -> bool {
    common::tools::require_python_chess("chess.engine")
}

#[test]
fn python_chess_plays_full_games() {
    if !has_python_chess() {
        return;
    }
    run_script(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/client_games.py"
    ));
}

#[test]
fn python_chess_plays_and_analyses_over_xboard() {
    if !has_python_chess() {
        return;
    }
    run_script(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/xboard_client.py"
    ));
}

fn run_script(script: &str) {
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_kestrel"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{script} failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("passed, 0 failed"), "{stdout}");
}
