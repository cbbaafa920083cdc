//! Runs `tests/python/client_games.py`: python-chess (an independent UCI
//! client) plays full games against the binary. Skipped, with a message,
//! where python-chess is not installed (`pip install chess`; CI installs it).

use std::process::Command;

#[test]
fn python_chess_plays_full_games() {
    let has_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_chess {
        eprintln!("skipping: python-chess is not installed (pip install chess)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/client_games.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_kestrel"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "client_games.py failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("passed, 0 failed"), "{stdout}");
}
