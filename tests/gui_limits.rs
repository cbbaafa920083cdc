//! `kestrel gui` at its limits (issue 64, items 6-8), each case against the
//! real binary over loopback sockets: games imported until `--games-memory`
//! is full (the server's resident memory read from `/proc`), engines that
//! the system cannot give (an address-space limit set on the running
//! server with `prlimit`), and a flood of slow connections from one
//! address. Each waits for what it needs with a deadline, never a fixed
//! sleep, and asserts on outcomes, not on times.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The server, killed when the test ends, however it ends.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `kestrel gui --port 0 ARGS` and waits for its URL.
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
            .args(["gui", "--port", "0"])
            .args(args)
            .env_remove("KESTREL_SYZYGY_PATH")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("kestrel gui starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("kestrel gui prints its URL");
        let addr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .and_then(|rest| rest.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("a URL in {line:?}"));
        Server { child, addr }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Fails the test, saying how, when the server has ended: checked
    /// after a request that got no answer (status 0), when an ending
    /// server may still be on its way out.
    fn assert_alive(&mut self, status: u16, after: &str) {
        let ended = if status == 0 {
            poll(Duration::from_secs(10), || {
                self.child.try_wait().expect("waits")
            })
        } else {
            self.child.try_wait().expect("waits")
        };
        if let Some(how) = ended {
            panic!("the server ended ({how}) after {after}");
        }
    }

    /// One request on a fresh connection: the status and the body (an
    /// empty answer, status 0, when the server closed the connection
    /// without one or is gone).
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let Ok(mut stream) = TcpStream::connect(self.addr) else {
            return (0, String::new());
        };
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("timeout");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        if stream.write_all(head.as_bytes()).is_err() || stream.write_all(body.as_bytes()).is_err()
        {
            return (0, String::new());
        }
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        parse_answer(&answer)
    }

    fn post(&self, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
        let (status, text) = self.request("POST", path, &body.to_string());
        (status, serde_json::from_str(&text).unwrap_or_default())
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, "")
    }
}

/// The status and body of an HTTP/1.1 answer (chunked or not).
fn parse_answer(bytes: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(bytes);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return (0, String::new());
    };
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    if !chunked {
        return (status, body.to_string());
    }
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    (status, out)
}

/// A figure of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`, `VmSize`).
fn status_kib(pid: u32, field: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc is there");
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc/{pid}/status"))
}

/// Polls `check` until it gives something or `limit` passes.
fn poll<T>(limit: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(found) = check() {
            return Some(found);
        }
        if Instant::now() > deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn new_game(server: &Server) -> (u16, serde_json::Value) {
    server.post("/api/game", &serde_json::json!({}))
}

/// Knights out and back: a legal game of `plies` plies (a multiple of 4).
fn knights(plies: usize) -> String {
    "Nf3 Nf6 Ng1 Ng8 ".repeat(plies / 4) + "*"
}

/// How many plies the game `id` has, from its PGN.
fn plies_of(server: &Server, id: &str) -> Option<usize> {
    let (status, pgn) = server.get(&format!("/api/pgn?game={id}"));
    (status == 200).then(|| {
        pgn.lines()
            .filter(|l| !l.starts_with('['))
            .flat_map(str::split_whitespace)
            .filter(|w| w.starts_with('N'))
            .count()
    })
}

/// Connections the flood of item 8 holds open, more than the server serves at once.
const FLOOD: usize = 300;

const BUDGET_MIB: u64 = 64;
const IMPORT_PLIES: usize = 16_000;

/// Item 6: games and imports until `--games-memory 64` is full. Each
/// request the budget cannot hold is refused (503, saying what to do),
/// the server's resident memory never grows more than 1.25 times the
/// budget above what it held before the first game, and every game it
/// took is still there as it was.
#[test]
fn games_imported_until_the_budget_keep_the_server_within_it_and_every_game_intact() {
    let mut server = Server::start(&["--games-memory", &BUDGET_MIB.to_string()]);
    let pid = server.pid();
    // The explorer's master games are indexed at start: the first request
    // for one waits for them, so that the baseline holds them.
    let (status, _) = server.get("/api/explorer/game?id=1");
    assert_eq!(status, 200);
    let baseline = status_kib(pid, "VmRSS");
    // The peak (VmHWM) from here on: writing 5 to clear_refs resets it.
    let reset = std::fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok();
    let pgn = knights(IMPORT_PLIES);
    let mut games: Vec<(String, usize)> = Vec::new();
    let (mut refused_games, mut refused_imports) = (0, 0);
    for _ in 0..8 {
        let (status, v) = new_game(&server);
        server.assert_alive(status, &format!("{} games", games.len()));
        match status {
            200 => games.push((v["id"].as_str().expect("id").to_string(), 0)),
            503 => {
                refused_games += 1;
                let message = v["error"].as_str().unwrap_or_default();
                assert!(message.contains("--games-memory"), "{v}");
                continue;
            }
            other => panic!("POST /api/game: {other} {v}"),
        }
        let id = games.last().expect("a game").0.clone();
        let (status, v) = server.post("/api/pgn", &serde_json::json!({"game": id, "pgn": pgn}));
        server.assert_alive(status, &format!("{} games and an import", games.len()));
        match status {
            200 => games.last_mut().expect("a game").1 = IMPORT_PLIES,
            503 => {
                refused_imports += 1;
                let message = v["error"].as_str().unwrap_or_default();
                assert!(message.contains("--games-memory"), "{v}");
            }
            other => panic!("POST /api/pgn: {other} {v}"),
        }
    }
    let intact = games
        .iter()
        .filter(|(id, plies)| plies_of(&server, id) == Some(*plies))
        .count();
    let (status, _) = server.get(&format!(
        "/api/state?game={}",
        games.first().expect("a game").0
    ));
    let peak = status_kib(pid, "VmHWM");
    let grown = peak.saturating_sub(baseline);
    let imported = games.iter().filter(|g| g.1 > 0).count();
    println!(
        "budget {BUDGET_MIB} MiB; RSS before the first game {} MiB, peak {} MiB{} (grown {} MiB, \
         {:.2} of the budget); games {} ({imported} with {IMPORT_PLIES} plies), refused {refused_games} \
         games and {refused_imports} imports; intact {intact} of {}",
        baseline / 1024,
        peak / 1024,
        if reset { "" } else { " (VmHWM not reset)" },
        grown / 1024,
        grown as f64 / (BUDGET_MIB * 1024) as f64,
        games.len(),
        games.len()
    );
    assert!(
        refused_games + refused_imports > 0,
        "the budget was never reached"
    );
    assert!(imported > 0, "no import fitted");
    assert_eq!(intact, games.len(), "every game taken is kept as it was");
    assert_eq!(status, 200, "the first game is shown");
    assert!(
        grown * 4 <= BUDGET_MIB * 1024 * 5,
        "resident memory grew {} MiB, more than 1.25 x {BUDGET_MIB} MiB",
        grown / 1024
    );
}

/// Item 7: an engine the system cannot give (its table or its search
/// thread, under an address-space limit set on the running server) is a
/// 503 for that new game, and the server and the games it has go on.
#[test]
fn an_engine_the_system_cannot_give_is_refused_and_the_server_goes_on() {
    if Command::new("prlimit").arg("--version").output().is_err() {
        common::tools::missing("prlimit (apt-get install util-linux)");
        return;
    }
    let mut server = Server::start(&[]);
    let pid = server.pid();
    let (status, _) = server.get("/api/explorer/game?id=1");
    assert_eq!(status, 200);
    // Room for a few games' tables and search threads, then no more.
    let limit = (status_kib(pid, "VmSize") + 400 * 1024) * 1024;
    let set = Command::new("prlimit")
        .args(["--pid", &pid.to_string(), &format!("--as={limit}:{limit}")])
        .status()
        .expect("prlimit runs");
    assert!(set.success(), "prlimit --as failed");
    let mut games = Vec::new();
    let mut refused = Vec::new();
    for _ in 0..40 {
        let (status, v) = new_game(&server);
        server.assert_alive(status, &format!("{} games", games.len()));
        match status {
            200 => games.push(v["id"].as_str().expect("id").to_string()),
            503 => refused.push(v["error"].as_str().unwrap_or_default().to_string()),
            other => panic!("POST /api/game: {other} {v}"),
        }
        if refused.len() >= 3 {
            break;
        }
    }
    println!(
        "address space limited to {} MiB: {} games, {} refused: {:?}",
        limit >> 20,
        games.len(),
        refused.len(),
        refused.first()
    );
    assert!(!games.is_empty(), "no game fitted");
    assert!(!refused.is_empty(), "the limit was never reached");
    for id in &games {
        let (status, _) = server.post("/api/move", &serde_json::json!({"game": id, "move": "e4"}));
        assert_eq!(status, 200, "game {id} goes on");
    }
    let (status, _) = server.get("/api/options");
    assert_eq!(status, 200);
    server.assert_alive(status, "the games");
}

/// Item 8: one address opens many more connections than it may hold and
/// keeps reopening those the server drops, sending a request's first line
/// and never the rest (slowloris); a request on a further connection from
/// the same address is still answered, and an event stream opened before
/// the flood stays open.
#[test]
fn a_flood_of_slow_connections_leaves_room_for_a_request() {
    let server = Server::start(&[]);
    let addr = server.addr;
    let (status, v) = new_game(&server);
    assert_eq!(status, 200, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    // The page's event stream, open before the flood.
    let mut events = TcpStream::connect(addr).expect("connects");
    events
        .write_all(format!("GET /api/events?game={id} HTTP/1.1\r\nhost: {addr}\r\n\r\n").as_bytes())
        .expect("sent");
    events
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut seen = String::new();
    let mut read_events = |events: &mut TcpStream, want: &str| {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut buf = [0u8; 4096];
        while !seen.contains(want) && Instant::now() < deadline {
            match events.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
            }
        }
        seen.contains(want)
    };
    assert!(read_events(&mut events, "hello"), "the stream opens");
    let stop = Arc::new(AtomicBool::new(false));
    let reopened = Arc::new(AtomicUsize::new(0));
    let flood = {
        let (stop, reopened) = (stop.clone(), reopened.clone());
        std::thread::spawn(move || {
            let open = |addr| {
                let mut s = TcpStream::connect(addr).ok()?;
                s.write_all(b"GET /api/options HTTP/1.1\r\n").ok()?;
                s.set_nonblocking(true).ok()?;
                Some(s)
            };
            let mut conns: Vec<Option<TcpStream>> = (0..FLOOD).map(|_| open(addr)).collect();
            while !stop.load(Ordering::Relaxed) {
                for slot in &mut conns {
                    // Closed by the server (an answer, or the end): open another.
                    let closed = slot.as_mut().is_none_or(|s| {
                        let mut b = [0u8; 512];
                        !matches!(s.read(&mut b), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
                    });
                    if closed {
                        *slot = open(addr);
                        reopened.fetch_add(1, Ordering::Relaxed);
                    }
                }
                std::thread::yield_now();
            }
        })
    };
    // Once the server has cut off many of the flood's connections and the
    // flood has opened them again, ask on a further one.
    poll(Duration::from_secs(60), || {
        (reopened.load(Ordering::Relaxed) >= FLOOD / 2).then_some(())
    })
    .expect("the flood's connections are cut off and reopened");
    let answers: Vec<u16> = (0..5).map(|_| server.get("/api/options").0).collect();
    // The event stream still carries the engine's events.
    let (status, v) = server.post(
        "/api/go",
        &serde_json::json!({"game": id, "settings": {"depth": 1}}),
    );
    let streamed = status == 200 && read_events(&mut events, "\"started\"");
    stop.store(true, Ordering::Relaxed);
    flood.join().expect("the flood");
    let reopened = reopened.load(Ordering::Relaxed);
    println!("probes answered {answers:?}; flood connections reopened {reopened}; go {status} {v}");
    assert!(
        answers.iter().all(|&s| s == 200),
        "a request during the flood is answered: {answers:?}"
    );
    assert!(streamed, "the event stream stays open: {seen}");
}
