//! Kestrel's engine as WebAssembly in a Web Worker (`make web`, crates/web),
//! driven in headless Chromium by tests/web/worker.js as a third-party page
//! would: the site in target/web/ served by scripts/serve-web.py (cross-origin
//! isolated: `stop` through shared memory) with the full run (perft on the
//! standard suite, searches with every limit, `stop`, `bench`), and by
//! `python3 -m http.server` (not isolated: `stop` replaces the engine's
//! Worker) with the searches and `stop`. The browser's bench node count must
//! equal `kestrel bench`'s; both speeds are printed with their ratio.
//!
//! The same site is the GUI without a server: `kestrel gui`'s page on the
//! game Worker's backend, served by `python3 -m http.server`, is driven by
//! tests/gui/static_site.js (a move, analysis lines for the position on
//! view and an earlier one, what needs the server saying so, no console
//! error or failed request) and tests/gui/clock_game.js (a whole game
//! against Kestrel at level 1600 on a 3+2 clock, its PGN read by
//! python-chess), and tests/gui/explain.js (moves in words: the review's
//! sentence, the analysis board's threat), as tests/gui_browser.rs drives
//! them against the server.
//!
//! Skips, saying why, when node, chromium, playwright-core (npm, in
//! tests/gui/node_modules) or the built site is missing (`make web`, which
//! needs Debian's rustc-web, cargo-web, rust-web-src and lld-22); `.ci/run`
//! installs and builds them, and under CI a missing one fails the test
//! (`common::tools`). The site is tested as built: run `make web` after
//! changing the engine.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn missing_tool() -> Option<String> {
    if let Some(why) = common::browser::missing_browser() {
        return Some(why);
    }
    // kestrel-game.js: a site built before the GUI was part of it is stale too.
    for file in ["kestrel.wasm", "kestrel-game.js"] {
        if !Path::new(ROOT).join("target/web").join(file).exists() {
            return Some(format!(
                "target/web/{file} is missing: run `make web` (apt-get update && apt-get install --no-install-recommends rustc-web cargo-web rust-web-src lld-22)"
            ));
        }
    }
    None
}

/// Serves target/web on a free port: isolated by scripts/serve-web.py, or
/// plainly by Python's own server. Returns it with its URL.
fn serve(isolated: bool) -> (Server, String) {
    let web = Path::new(ROOT).join("target/web");
    let mut command = Command::new("python3");
    if isolated {
        command
            .arg(Path::new(ROOT).join("scripts/serve-web.py"))
            .args(["--port", "0"])
            .arg(&web);
    } else {
        command
            .args([
                "-u",
                "-m",
                "http.server",
                "0",
                "--bind",
                "127.0.0.1",
                "--directory",
            ])
            .arg(&web);
    }
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the server prints its address");
    // "serving DIR on http://127.0.0.1:PORT/" or Python's
    // "Serving HTTP on 127.0.0.1 port PORT (http://127.0.0.1:PORT/) ...".
    let port = line
        .split(|c: char| !c.is_ascii_digit() && c != ':' && c != '.')
        .filter_map(|w| w.strip_prefix("127.0.0.1:"))
        .find_map(|p| p.parse::<u16>().ok())
        .unwrap_or_else(|| panic!("a port in {line:?}"));
    (server, format!("http://127.0.0.1:{port}/"))
}

/// Runs tests/web/worker.js; returns what it printed, failing the test when
/// it fails.
fn run_worker_test(url: &str, mode: &str, scope: &str) -> String {
    let out = Command::new("nice")
        .args(["-n", "5", "node"])
        .arg(Path::new(ROOT).join("tests/web/worker.js"))
        .arg(url)
        .arg(Path::new(ROOT).join("crates/chess/tests/data/perft.epd"))
        .args([mode, scope])
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{text}");
    assert!(
        out.status.success(),
        "tests/web/worker.js ({mode}) failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// `N nodes M nps` read from the line that holds it.
fn nodes_and_nps(text: &str) -> (u64, u64) {
    let line = text
        .lines()
        .rev()
        .find(|l| l.ends_with(" nps") && l.contains(" nodes "))
        .unwrap_or_else(|| panic!("a line 'N nodes M nps' in {text}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let n = words.len();
    (
        words[n - 4].parse().expect("a node count"),
        words[n - 2].parse().expect("a speed"),
    )
}

#[test]
fn the_worker_equals_native_when_isolated() {
    if let Some(why) = missing_tool() {
        common::tools::missing(&why);
        return;
    }
    let (server, url) = serve(true);
    let text = run_worker_test(&url, "isolated", "full");
    drop(server);
    assert!(text.contains("stop answered"), "{text}");
    let (browser_nodes, browser_nps) = nodes_and_nps(&text);
    let native = Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .arg("bench")
        .output()
        .expect("kestrel bench runs");
    let native = String::from_utf8_lossy(&native.stdout).into_owned();
    let (native_nodes, native_nps) = nodes_and_nps(&native);
    println!(
        "bench: browser {browser_nodes} nodes {browser_nps} nps, native {native_nodes} nodes {native_nps} nps: {:.2}x",
        browser_nps as f64 / native_nps.max(1) as f64
    );
    assert_eq!(
        browser_nodes, native_nodes,
        "the browser's bench searches other trees than the native one"
    );
}

#[test]
fn the_worker_stops_without_shared_memory() {
    if let Some(why) = missing_tool() {
        common::tools::missing(&why);
        return;
    }
    let (server, url) = serve(false);
    let text = run_worker_test(&url, "plain", "quick");
    drop(server);
    assert!(text.contains("stop answered"), "{text}");
}

/// Moves in words without a server (issue 62): tests/gui/explain.js, as
/// against `kestrel gui`, on the static site: the review's sentence for
/// Légal's mate's 5... Bxd1 and the analysis board's threat line, both made
/// by gamerecord in the game Worker.
#[test]
fn the_static_site_explains_moves() {
    if let Some(why) = missing_tool() {
        common::tools::missing(&why);
        return;
    }
    let (server, url) = serve(false);
    let text = common::browser::run_gui_script("explain.js", &url, &[]);
    drop(server);
    assert!(text.contains("explain done"), "{text}");
}

/// A reload of the static site restores exactly what was on screen
/// (issue 63): tests/gui/issue63.js's `reload` scenario, whose game the
/// game Worker loses with the page and the browser's copy gives back, the
/// same game under the same id; and `mygames`, a PGN file chosen in the
/// page, indexed in the game Worker, as the explorer's "My games" (against
/// `kestrel gui`, tests/gui_browser.rs runs both with the other scenarios).
#[test]
fn the_static_site_restores_a_game_and_explores_a_chosen_file() {
    if let Some(why) = missing_tool() {
        common::tools::missing(&why);
        return;
    }
    let (server, url) = serve(false);
    let text = common::browser::run_gui_scenarios("issue63.js", &url, &["reload", "mygames"], &[]);
    drop(server);
    assert!(text.contains("passed: reload"), "{text}");
    assert!(text.contains("passed: mygames"), "{text}");
}

/// The GUI without a server: tests/gui/static_site.js (analysis, the
/// panels that need the server, the games' copies kept for a reload
/// bounded, no console error or failed request), then
/// a whole 3+2 game against Kestrel at level 1600 through the page
/// (tests/gui/clock_game.js, as against `kestrel gui`), its PGN read by
/// python-chess. Served plainly (not cross-origin isolated), so every
/// stopped search replaces the engine's Worker.
#[test]
fn the_gui_plays_and_analyses_without_a_server() {
    if let Some(why) = missing_tool() {
        common::tools::missing(&why);
        return;
    }
    if !common::tools::require_python_chess("chess.pgn") {
        return;
    }
    let (server, url) = serve(false);
    let text = common::browser::run_gui_script("static_site.js", &url, &[]);
    assert!(text.contains("static site done"), "{text}");
    let pgn = std::env::temp_dir().join(format!("kestrel-static-game-{}.pgn", std::process::id()));
    let text =
        common::browser::run_gui_script("clock_game.js", &url, &[("KESTREL_CLOCK_PGN", &pgn)]);
    assert!(text.contains("clock game done"), "{text}");
    drop(server);
    common::browser::check_clocks(&pgn, 180, 2);
    let _ = std::fs::remove_file(&pgn);
}
