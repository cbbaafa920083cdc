//! What the browser tests share (tests/gui_browser.rs against `kestrel gui`,
//! tests/web_worker.rs against the static site of `make web`): whether
//! node, Chromium and playwright-core are there, running one of the
//! Playwright scripts of tests/gui (which share tests/gui/browser.js), and
//! reading a game's clocks with python-chess.

use std::path::Path;
use std::process::Command;

/// The folder of the Playwright scripts.
pub const GUI_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gui");

/// What is missing to drive Chromium, and how to install it; `None` when
/// node, Chromium and playwright-core are all there.
pub fn missing_browser() -> Option<String> {
    if Command::new("node").arg("--version").output().is_err() {
        return Some("node is not installed (apt-get install nodejs npm)".into());
    }
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if !Path::new(&chromium).exists() {
        return Some(format!("{chromium} is missing (apt-get install chromium)"));
    }
    if !Path::new(GUI_DIR)
        .join("node_modules/playwright-core")
        .exists()
    {
        return Some(format!(
            "playwright-core is not installed (npm ci --prefix {GUI_DIR})"
        ));
    }
    None
}

/// Runs `script` (in tests/gui) against `url`, with `env` added to its
/// environment, and returns what it printed; fails the test when it
/// fails. With KESTREL_GUI_SHOTS=DIR in the environment (the scripts
/// inherit it) the scripts save their screenshots in DIR; it is not passed
/// as an argument, which the scenario scripts read as scenario names.
pub fn run_gui_script(script: &str, url: &str, env: &[(&str, &Path)]) -> String {
    run_gui_scenarios(script, url, &[], env)
}

/// As [`run_gui_script`], only the named scenarios of the script (its
/// arguments after the URL; all of them when none is named).
pub fn run_gui_scenarios(
    script: &str,
    url: &str,
    scenarios: &[&str],
    env: &[(&str, &Path)],
) -> String {
    let mut node = Command::new("node");
    node.arg(Path::new(GUI_DIR).join(script))
        .arg(url)
        .args(scenarios);
    node.envs(env.iter().copied());
    let out = node.output().expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{text}");
    assert!(
        out.status.success(),
        "the browser test {script} failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// Reads the PGN of a game played on a `seconds`+`increment` clock
/// (tests/gui/clock_game.js wrote it) with python-chess
/// (tests/python/check_clocks.py) and fails the test unless its clocks are
/// right.
pub fn check_clocks(pgn: &Path, seconds: u32, increment: u32) {
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python/check_clocks.py"
        ))
        .arg(pgn)
        .args([seconds.to_string(), increment.to_string()])
        .output()
        .expect("python3 runs");
    let read = String::from_utf8_lossy(&out.stdout);
    println!("{read}");
    assert!(
        read.trim_end().ends_with("clocks ok"),
        "{read}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
