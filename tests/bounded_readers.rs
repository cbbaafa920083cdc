//! Every reader bounded (issue 64, items 9-12), through the `kestrel`
//! binary: PGN errors quote an excerpt and games without tags are read one
//! at a time, `kestrel epd` reads through the bounded reader, a FIFO named
//! like a table hangs nothing, protocol lines are capped and a `Threads`
//! the system cannot start is refused. Where a real memory bound matters
//! the binary runs under `ulimit -d` (the kernel's limit on a process's
//! data, thread stacks included), so that the old code fails by running
//! out of it instead of by taking the machine's memory.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const MIB: usize = 1 << 20;

/// What a capped process may use: 1 GiB of data (heap, thread stacks). An
/// idle engine uses under 100 MiB of it.
const DATA_LIMIT_KIB: usize = 1 << 20;

fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// `kestrel ARGS` under `ulimit -d KIB` (no limit when `None`), without
/// the environment's tablebase path.
fn kestrel(args: &[&str], data_kib: Option<usize>) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(match data_kib {
            Some(_) => r#"ulimit -d "$0" && exec "$@""#,
            None => r#"exec "$@""#,
        })
        .arg(data_kib.unwrap_or(0).to_string())
        .arg(env!("CARGO_BIN_EXE_kestrel"))
        .args(args)
        .env_remove("KESTREL_SYZYGY_PATH");
    command
}

/// Runs `command`, `feed` writing its standard input on a thread of its
/// own (then closing it), until it ends or `limit` passes (then it is
/// killed): its output, and whether it ended by itself in time. Standard
/// output and error are drained as they come, so a talkative process
/// cannot stall on a full pipe.
fn run(
    mut command: Command,
    feed: impl FnOnce(&mut dyn Write) + Send + 'static,
    limit: Duration,
) -> (Output, bool) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || feed(&mut stdin));
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + limit;
    let mut in_time = true;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if Instant::now() > deadline {
            in_time = false;
            let _ = child.kill();
            break child.wait().expect("killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = writer.join();
    let output = Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    };
    (output, in_time)
}

/// Writes `text` as standard input.
fn input(text: &str) -> impl FnOnce(&mut dyn Write) + Send + 'static {
    let text = text.to_string();
    move |w: &mut dyn Write| {
        let _ = w.write_all(text.as_bytes());
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("bounded", name)
}

/// Item 9: 16 MiB of `1. e4 *` without tags took 2.1 GB in `pgn stats` and
/// 3.27 GB in `book build`; both now read it within a 1 GiB data limit.
#[test]
fn pgn_stats_and_book_build_read_games_without_tags_in_bounded_memory() {
    let dir = scratch("tagless");
    let pgn = dir.join("tagless.pgn");
    // Just under the longest game text, so that it is one raw text.
    let games = (16 * MIB - 4096) / 8;
    std::fs::write(&pgn, b"1. e4 *\n".repeat(games)).expect("written");
    let limit = Duration::from_secs(120);
    let (out, in_time) = run(
        kestrel(&["pgn", "stats", s(&pgn)], Some(DATA_LIMIT_KIB)),
        input(""),
        limit,
    );
    assert!(in_time && out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(&format!("games      {games}\n")),
        "{}",
        text(&out.stdout)
    );
    let book = dir.join("book.bin");
    let (out, in_time) = run(
        kestrel(
            &["book", "build", "--pgn", s(&pgn), "--out", s(&book)],
            Some(DATA_LIMIT_KIB),
        ),
        input(""),
        limit,
    );
    assert!(in_time && out.status.success(), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

/// Item 9: error lines quoted whole tokens (943 MB of input gave 943 MB of
/// standard error); now an excerpt.
#[test]
fn pgn_stats_error_lines_quote_an_excerpt() {
    let dir = scratch("excerpt");
    let pgn = dir.join("long-token.pgn");
    let mut games = String::new();
    for _ in 0..4 {
        games.push_str(&format!(
            "[Event \"a\"]\n\n1. e4 N{} *\n\n",
            "x".repeat(MIB)
        ));
    }
    std::fs::write(&pgn, games).expect("written");
    let (out, in_time) = run(
        kestrel(&["pgn", "stats", s(&pgn)], None),
        input(""),
        Duration::from_secs(60),
    );
    assert!(in_time && out.status.success(), "{out:?}");
    assert!(text(&out.stdout).contains("errors     4"), "{out:?}");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 4, "one line per bad game");
    assert!(
        stderr.lines().all(|l| l.len() < 600),
        "{} bytes of errors",
        stderr.len()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Item 10: `kestrel epd` read its file with `read_to_string`: /dev/zero
/// filled memory, and a byte-order mark or one byte that is not UTF-8
/// refused the whole file. Now a device is refused at once, within a 1 GiB
/// data limit, and a suite of files put together reads line by line.
#[test]
fn kestrel_epd_refuses_devices_and_reads_line_by_line() {
    let (out, in_time) = run(
        kestrel(&["epd", "/dev/zero", "--depth", "1"], Some(DATA_LIMIT_KIB)),
        input(""),
        Duration::from_secs(30),
    );
    let stderr = text(&out.stderr);
    assert!(in_time && !out.status.success(), "{out:?}");
    assert!(
        stderr.contains("/dev/zero") && stderr.contains("a character device"),
        "{stderr}"
    );
    // Two suites, each saved with a byte-order mark, put one after the
    // other; an id in Latin-1 (not UTF-8).
    let dir = scratch("epd");
    let suite = dir.join("suite.epd");
    let mut bytes =
        b"\xef\xbb\xbf6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"mate.1\";\n".to_vec();
    bytes.extend_from_slice(
        b"\xef\xbb\xbf6k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - bm Rc8#; id \"caf\xe9\";\r\n",
    );
    std::fs::write(&suite, bytes).expect("written");
    let (out, in_time) = run(
        kestrel(&["epd", s(&suite), "--depth", "2"], None),
        input(""),
        Duration::from_secs(60),
    );
    assert!(in_time && out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("solved 2/2"), "{stdout}");
    assert!(
        stdout.contains("mate.1") && stdout.contains("caf\u{fffd}"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Whether `mkfifo` made a FIFO at `path` (a system without it skips).
fn mkfifo(path: &Path) -> bool {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("mkfifo is missing: skipped");
    }
    made
}

/// Item 11: a FIFO named like a table in `SyzygyPath` hung the engine
/// (even `quit` went unread) and `tb probe`, waiting for a writer. Now it
/// is skipped as not a regular file, and the other tables are used.
#[test]
fn a_fifo_named_like_a_table_hangs_neither_the_engine_nor_tb_probe() {
    let dir = scratch("tb-fifo");
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    for name in ["KQvK.rtbw", "KQvK.rtbz"] {
        std::fs::copy(tables.join(name), dir.join(name)).expect("copied");
    }
    if !mkfifo(&dir.join("KNvK.rtbw")) {
        return;
    }
    let limit = Duration::from_secs(30);
    let (out, in_time) = run(
        kestrel(&[], None),
        input(&format!(
            "setoption name SyzygyPath value {}\nisready\nquit\n",
            s(&dir)
        )),
        limit,
    );
    let stdout = text(&out.stdout);
    assert!(in_time && stdout.contains("readyok"), "{out:?}");
    assert!(
        stdout.contains("KNvK.rtbw") && stdout.contains("a FIFO"),
        "{stdout}"
    );
    assert!(stdout.contains("1 WDL and 1 DTZ tables"), "{stdout}");
    let (out, in_time) = run(
        kestrel(
            &[
                "tb",
                "probe",
                "--fen",
                "8/8/8/4k3/8/8/8/2K4Q b - - 0 1",
                "--syzygy-path",
                s(&dir),
            ],
            None,
        ),
        input(""),
        limit,
    );
    assert!(in_time && out.status.success(), "{out:?}");
    assert!(text(&out.stdout).starts_with("WDL: -2"), "{out:?}");
    assert!(text(&out.stderr).contains("a FIFO"), "{out:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Standard input of `head`, a line of `len` bytes (`x`), then `tail`,
/// written in pieces.
fn long_line(
    head: &'static str,
    len: usize,
    tail: &'static str,
) -> impl FnOnce(&mut dyn Write) + Send {
    move |w: &mut dyn Write| {
        let piece = vec![b'x'; MIB];
        let mut go = || -> std::io::Result<()> {
            w.write_all(head.as_bytes())?;
            for _ in 0..len / MIB {
                w.write_all(&piece)?;
            }
            w.write_all(&piece[..len % MIB])?;
            w.write_all(tail.as_bytes())
        };
        let _ = go();
    }
}

/// Item 12: a UCI or xboard input line had no bound (a 1 GB line took
/// 1.07 GB); a line longer than 1 MiB is refused now, its bytes passed over
/// unkept, and the engine goes on with the next line. Lines of 640 MiB,
/// more than the 512 MiB data limit the engine runs under, are read
/// within it.
#[test]
fn uci_and_xboard_refuse_a_line_longer_than_the_bound() {
    let limit = Duration::from_secs(120);
    let (out, in_time) = run(
        kestrel(&[], Some(DATA_LIMIT_KIB / 2)),
        long_line("uci\n", 640 * MIB, "\nisready\nquit\n"),
        limit,
    );
    let stdout = text(&out.stdout);
    assert!(in_time && stdout.contains("readyok"), "{out:?}");
    assert!(
        stdout.contains("info string error: input line longer than 1048576 bytes, ignored"),
        "{stdout}"
    );
    let (out, in_time) = run(
        kestrel(&["xboard"], Some(DATA_LIMIT_KIB / 2)),
        long_line("xboard\nprotover 2\n", 640 * MIB, "\nping 7\nquit\n"),
        limit,
    );
    let stdout = text(&out.stdout);
    assert!(in_time && stdout.contains("pong 7"), "{out:?}");
    assert!(
        stdout.contains("Error (input line longer than 1048576 bytes, ignored): ?"),
        "{stdout}"
    );
}

/// Item 12: `Threads 64` aborted the engine where 64 thread stacks (64 MiB
/// each) cannot be had. Now the value is refused with a message, and the
/// engine goes on searching with the threads it had.
#[test]
fn threads_the_system_cannot_start_are_refused_and_the_old_count_kept() {
    let limit = Duration::from_secs(60);
    let (out, in_time) = run(
        kestrel(&[], Some(DATA_LIMIT_KIB)),
        input(
            "setoption name Threads value 2\nsetoption name Threads value 64\nisready\n\
             position startpos\ngo depth 6\n",
        ),
        limit,
    );
    let stdout = text(&out.stdout);
    assert!(in_time && out.status.success(), "{out:?}");
    let refusal = stdout
        .lines()
        .find(|l| l.starts_with("info string error: Threads refused"))
        .unwrap_or_else(|| panic!("no refusal: {stdout}"));
    assert!(refusal.contains("the engine keeps 2 threads"), "{refusal}");
    assert!(
        stdout.contains("readyok") && stdout.contains("bestmove "),
        "{stdout}"
    );
    // xboard's `cores`, with the protocol's error form.
    let (out, in_time) = run(
        kestrel(&["xboard"], Some(DATA_LIMIT_KIB)),
        input("xboard\nprotover 2\ncores 64\nping 1\nquit\n"),
        limit,
    );
    let stdout = text(&out.stdout);
    assert!(in_time && stdout.contains("pong 1"), "{out:?}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("Error (Threads refused") && l.ends_with("cores 64")),
        "{stdout}"
    );
}
