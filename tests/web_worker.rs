//! Kestrel's engine as WebAssembly in a Web Worker (`make web`, crates/web),
//! driven in headless Chromium by tests/web/worker.js as a third-party page
//! would: the site in target/web/ served by scripts/serve-web.py (cross-origin
//! isolated: `stop` through shared memory) with the full run (perft on the
//! standard suite, searches with every limit, `stop`, `bench`), and by
//! `python3 -m http.server` (not isolated: `stop` replaces the engine's
//! Worker) with the searches and `stop`. The browser's bench node count must
//! equal `kestrel bench`'s; both speeds are printed with their ratio.
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
    if Command::new("node").arg("--version").output().is_err() {
        return Some("node is not installed (apt-get install nodejs npm)".into());
    }
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if !Path::new(&chromium).exists() {
        return Some(format!("{chromium} is missing (apt-get install chromium)"));
    }
    if !Path::new(ROOT)
        .join("tests/gui/node_modules/playwright-core")
        .exists()
    {
        return Some("playwright-core is not installed (npm ci --prefix tests/gui)".into());
    }
    if !Path::new(ROOT).join("target/web/kestrel.wasm").exists() {
        return Some(
            "target/web/kestrel.wasm is missing: run `make web` (apt-get install --no-install-recommends rustc-web cargo-web rust-web-src lld-22)"
                .into(),
        );
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
