//! EPD test suites: `bm` (best move) and `am` (avoid move) suites such as
//! WAC, ECM and Bratko-Kopec, and STS-style suites whose `c0` operation gives
//! points per move. Any UCI engine runs them; the time to solution is when
//! the engine's principal variation last switched to a solution move.

use crate::engine_spec::EngineSpec;
use anyhow::{bail, Context, Result};
use chess::{CastlingMode, Move, Position};
use matchcore::engine_process::{EngineError, EngineProcess};
use matchcore::openings::{epd_position, MAX_EPD_FILE_LEN};
use std::fmt::Write;
use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};
use types::lines::{Line, Lines};

/// One test position.
#[derive(Clone, Debug, PartialEq)]
pub struct EpdTest {
    /// Its `id`, or its line number.
    pub id: String,
    /// The position.
    pub position: Position,
    /// Best moves (`bm`): playing one solves the position.
    pub best: Vec<Move>,
    /// Moves to avoid (`am`).
    pub avoid: Vec<Move>,
    /// Points per move (`c0 "e4=10, d4=5"`, STS); empty when none.
    pub points: Vec<(Move, u32)>,
}

impl EpdTest {
    /// Whether `m` solves the position.
    pub fn solved_by(&self, m: Move) -> bool {
        if !self.best.is_empty() || !self.avoid.is_empty() {
            (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
        } else {
            self.points.iter().map(|p| p.1).max() == self.points_for(m).into()
        }
    }

    /// The points `m` earns (0 when the suite gives none).
    pub fn points_for(&self, m: Move) -> u32 {
        self.points.iter().find(|p| p.0 == m).map_or(0, |p| p.1)
    }

    /// The most points the position gives.
    pub fn max_points(&self) -> u32 {
        self.points.iter().map(|p| p.1).max().unwrap_or(0)
    }
}

/// The operations of an EPD line after the position: `(opcode, operand)`,
/// quotes removed; semicolons inside quotes do not split.
fn operations(text: &str) -> Vec<(String, String)> {
    let mut ops = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                ops.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    ops.push(current);
    ops.iter()
        .filter_map(|op| {
            let op = op.trim();
            let (code, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
            (!code.is_empty()).then(|| {
                (
                    code.to_string(),
                    operand.trim().trim_matches('"').to_string(),
                )
            })
        })
        .collect()
}

/// Reads one EPD line (`line_no` for messages).
pub fn parse_line(line: &str, line_no: usize) -> Result<EpdTest> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        bail!("line {line_no}: an EPD line starts with four FEN fields");
    }
    let position = epd_position(&fields[..4].join(" "))
        .with_context(|| format!("line {line_no}: bad position"))?;
    // The operations start after the fourth field.
    let mut rest = line.trim_start();
    for _ in 0..4 {
        rest = rest.trim_start();
        rest = &rest[rest.find(char::is_whitespace).unwrap_or(rest.len())..];
    }
    let mut test = EpdTest {
        id: format!("line {line_no}"),
        position,
        best: Vec::new(),
        avoid: Vec::new(),
        points: Vec::new(),
    };
    let san = |text: &str| {
        let t = text.trim_end_matches(['!', '?']);
        position
            .parse_san(t)
            .or_else(|_| {
                position
                    .parse_uci_move(t, CastlingMode::Standard)
                    .map_err(|_| ())
            })
            .map_err(|()| anyhow::anyhow!("line {line_no}: '{text}' is not a legal move here"))
    };
    for (code, operand) in operations(rest) {
        match code.as_str() {
            "id" => test.id = operand,
            "bm" => {
                for m in operand.split_whitespace() {
                    test.best.push(san(m)?);
                }
            }
            "am" => {
                for m in operand.split_whitespace() {
                    test.avoid.push(san(m)?);
                }
            }
            "c0" if operand.contains('=') => {
                for part in operand.split(',') {
                    let Some((m, p)) = part.trim().split_once('=') else {
                        continue;
                    };
                    let points = p
                        .trim()
                        .parse()
                        .with_context(|| format!("line {line_no}: c0 points '{p}'"))?;
                    test.points.push((san(m.trim())?, points));
                }
            }
            _ => {}
        }
    }
    if test.best.is_empty() && test.avoid.is_empty() && test.points.is_empty() {
        bail!("line {line_no}: no bm, am or c0 points to test");
    }
    Ok(test)
}

/// The longest line of a suite: a position and its operations take a few
/// hundred bytes.
pub const MAX_LINE_LEN: usize = 64 << 10;

/// Reads a suite file (`-` for standard input) through PGN's reader: a
/// regular file or a pipe, plain or compressed (a device, a directory or a
/// socket is refused at once), at most [`MAX_EPD_FILE_LEN`] bytes, line by
/// line, each line at most [`MAX_LINE_LEN`] bytes. A byte-order mark that
/// starts a line (suites put together) is dropped, and bytes that are not
/// UTF-8 are read as U+FFFD on their line alone: a Latin-1 `id` does not
/// refuse the suite.
pub fn load(path: &Path) -> Result<Vec<EpdTest>> {
    let input = pgn::open(path)?.take(MAX_EPD_FILE_LEN + 1);
    let mut lines = Lines::new(input, MAX_LINE_LEN);
    let mut tests = Vec::new();
    let mut number = 0;
    while let Some(line) = lines.next() {
        number += 1;
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if lines.consumed() > MAX_EPD_FILE_LEN {
            bail!(
                "{} is longer than {MAX_EPD_FILE_LEN} bytes, more than a suite holds",
                path.display()
            );
        }
        let Line::Whole(bytes) = line else {
            bail!(
                "{}: line {number} is longer than {MAX_LINE_LEN} bytes (an EPD line is a position and a few operations)",
                path.display()
            );
        };
        let text = String::from_utf8_lossy(&bytes);
        let line = text.strip_prefix('\u{feff}').unwrap_or(&text).trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        tests.push(parse_line(line, number).with_context(|| path.display().to_string())?);
    }
    if tests.is_empty() {
        bail!("{} holds no test positions", path.display());
    }
    Ok(tests)
}

/// How long the engine thinks per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Milliseconds.
    MoveTime(u64),
    /// Plies.
    Depth(u32),
    /// Nodes.
    Nodes(u64),
}

/// One engine's answer to one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The move played.
    pub mv: Option<Move>,
    /// Whether it solves the position.
    pub solved: bool,
    /// Points earned (c0 suites).
    pub points: u32,
    /// When the engine settled on a solution (ms, the engine's clock).
    pub time_to_solution: Option<u64>,
    /// Thinking time (ms, the runner's clock).
    pub time: u64,
}

/// One engine's run through the suite.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteRun {
    /// The engine's name (from `id name`, else the command).
    pub engine: String,
    /// An answer per position.
    pub answers: Vec<Answer>,
}

/// Runs the suite with the UCI engine `cmd` (words: program, then arguments).
pub fn run(
    cmd: &str,
    options: &[(String, String)],
    tests: &[EpdTest],
    limit: Limit,
    mut progress: impl FnMut(&str),
) -> Result<SuiteRun> {
    let mut words = cmd.split_whitespace();
    let program = words.next().context("--engine is empty")?;
    let mut spec = EngineSpec::new(program);
    spec.args = words.map(String::from).collect();
    let mut p = EngineProcess::spawn(spec.command())?;
    let handshake = Duration::from_secs(10);
    p.send("uci")?;
    let mut name = cmd.to_string();
    p.recv_until(Instant::now() + handshake, |l| {
        if let Some(n) = l.strip_prefix("id name ") {
            name = n.trim().to_string();
        }
        l.trim() == "uciok"
    })
    .with_context(|| format!("{cmd}: no uciok"))?;
    for (n, v) in options {
        p.send(&format!("setoption name {n} value {v}"))?;
    }
    let (go, wait) = match limit {
        Limit::MoveTime(ms) => (
            format!("go movetime {ms}"),
            Duration::from_millis(ms) + Duration::from_secs(10),
        ),
        Limit::Depth(d) => (format!("go depth {d}"), Duration::from_secs(600)),
        Limit::Nodes(n) => (format!("go nodes {n}"), Duration::from_secs(600)),
    };
    let mut answers = Vec::new();
    for t in tests {
        p.send("ucinewgame")?;
        p.send("isready")?;
        p.recv_until(Instant::now() + handshake, |l| l.trim() == "readyok")?;
        p.send(&format!("position fen {}", t.position.fen()))?;
        p.send(&go)?;
        let started = Instant::now();
        let mut since: Option<u64> = None;
        let best = loop {
            let line = match p.recv(started + wait) {
                Ok(l) => l,
                Err(EngineError::Timeout(_)) => {
                    bail!("{name} gave no bestmove for {} within {wait:?}", t.id)
                }
                Err(e) => bail!("{name}: {e} at {}", t.id),
            };
            let mut w = line.split_whitespace();
            match w.next() {
                Some("bestmove") => break w.next().map(String::from),
                Some("info") => {
                    let (mut time, mut pv) = (None, None);
                    while let Some(word) = w.next() {
                        match word {
                            "time" => time = w.next().and_then(|x| x.parse::<u64>().ok()),
                            "pv" => {
                                pv = w.next();
                                break;
                            }
                            "string" => break,
                            _ => {}
                        }
                    }
                    let Some(first) = pv else { continue };
                    let solves = t
                        .position
                        .parse_uci_move(first, CastlingMode::Standard)
                        .is_ok_and(|m| t.solved_by(m));
                    if !solves {
                        since = None;
                    } else if since.is_none() {
                        since = Some(time.unwrap_or(started.elapsed().as_millis() as u64));
                    }
                }
                _ => {}
            }
        };
        let time = started.elapsed().as_millis() as u64;
        let mv = best.and_then(|b| t.position.parse_uci_move(&b, CastlingMode::Standard).ok());
        let solved = mv.is_some_and(|m| t.solved_by(m));
        let answer = Answer {
            mv,
            solved,
            points: mv.map_or(0, |m| t.points_for(m)),
            time_to_solution: if solved {
                Some(since.unwrap_or(time))
            } else {
                None
            },
            time,
        };
        progress(&format!(
            "{name}: {} {} {}",
            t.id,
            mv.map_or("(none)".to_string(), |m| t.position.san(m)),
            if solved { "solved" } else { "not solved" }
        ));
        answers.push(answer);
    }
    p.quit("quit");
    Ok(SuiteRun {
        engine: name,
        answers,
    })
}

/// The per-position table (move played and time to solution per engine)
/// and the summary: solved count, points, total and mean solution time.
pub fn summary(tests: &[EpdTest], runs: &[SuiteRun]) -> String {
    let mut out = String::new();
    let id_width = tests
        .iter()
        .map(|t| t.id.len())
        .max()
        .unwrap_or(2)
        .clamp(2, 40);
    let expected = |t: &EpdTest| {
        let mut parts: Vec<String> = t.best.iter().map(|&m| t.position.san(m)).collect();
        parts.extend(t.avoid.iter().map(|&m| format!("!{}", t.position.san(m))));
        if parts.is_empty() {
            if let Some(top) = t.points.iter().max_by_key(|p| p.1) {
                parts.push(t.position.san(top.0));
            }
        }
        parts.join(" ")
    };
    write!(out, "{:<id_width$} {:<12}", "id", "expected").unwrap();
    for r in runs {
        write!(out, " {:>24}", truncate(&r.engine, 24)).unwrap();
    }
    out.push('\n');
    for (i, t) in tests.iter().enumerate() {
        write!(
            out,
            "{:<id_width$} {:<12}",
            truncate(&t.id, id_width),
            truncate(&expected(t), 12)
        )
        .unwrap();
        for r in runs {
            let a = &r.answers[i];
            let mv = a.mv.map_or("-".to_string(), |m| t.position.san(m));
            let cell = match (a.time_to_solution, t.points.is_empty()) {
                (Some(ms), true) => format!("{mv} ok {ms}ms"),
                (None, true) => format!("{mv} --"),
                (_, false) => format!("{mv} {}/{}", a.points, t.max_points()),
            };
            write!(out, " {cell:>24}").unwrap();
        }
        out.push('\n');
    }
    out.push('\n');
    let max_points: u32 = tests.iter().map(EpdTest::max_points).sum();
    for r in runs {
        let solved = r.answers.iter().filter(|a| a.solved).count();
        let points: u32 = r.answers.iter().map(|a| a.points).sum();
        let total: u64 = r.answers.iter().map(|a| a.time).sum();
        let tts: Vec<u64> = r
            .answers
            .iter()
            .filter_map(|a| a.time_to_solution)
            .collect();
        let mean = if tts.is_empty() {
            0
        } else {
            tts.iter().sum::<u64>() / tts.len() as u64
        };
        write!(
            out,
            "{}: solved {solved}/{} ({:.1}%)",
            r.engine,
            tests.len(),
            100.0 * solved as f64 / tests.len() as f64
        )
        .unwrap();
        if max_points > 0 {
            write!(
                out,
                ", points {points}/{max_points} ({:.1}%)",
                100.0 * f64::from(points) / f64::from(max_points)
            )
            .unwrap();
        }
        writeln!(
            out,
            ", mean time to solution {mean} ms, total time {:.1} s",
            total as f64 / 1000.0
        )
        .unwrap();
    }
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bm_am_and_sts_lines() {
        let t = parse_line(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
            1,
        )
        .unwrap();
        assert_eq!(t.id, "WAC.001");
        assert_eq!(t.position.san(t.best[0]), "Qg6");
        assert!(t.solved_by(t.best[0]));
        let sts = parse_line(
            "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id \"STS(v1.0) Undermine.001\"; \
             c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\"; c9 \"f4f5 d4e5 d4f2 f3g4\";",
            2,
        )
        .unwrap();
        assert_eq!(sts.points.len(), 4);
        assert_eq!(sts.max_points(), 10);
        assert_eq!(sts.points_for(sts.points[2].0), 3);
        let am = parse_line("k7/8/8/8/8/8/8/4K2R w K - am O-O; id \"x; y\";", 3).unwrap();
        assert_eq!(am.id, "x; y");
        assert!(!am.solved_by(am.avoid[0]));
        let other = am
            .position
            .legal_moves()
            .iter()
            .copied()
            .find(|m| *m != am.avoid[0])
            .unwrap();
        assert!(am.solved_by(other));
    }

    #[test]
    fn broken_lines_say_what_is_wrong() {
        let e = parse_line("8/8/8/8/8/8/6k1/4K2R w K - bm Qh8;", 4).unwrap_err();
        assert!(e.to_string().contains("'Qh8' is not a legal move"), "{e}");
        let e = parse_line("8/8/8/8/8/8/6k1/4K2R w K - id \"x\";", 5).unwrap_err();
        assert!(e.to_string().contains("no bm, am or c0"), "{e}");
        assert!(parse_line("8/8/8", 6).is_err());
    }

    /// A suite file in the temporary directory, named for the test.
    fn suite(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("kestrel-epd-{}-{name}.epd", std::process::id()));
        std::fs::write(&path, bytes).expect("temporary file");
        path
    }

    /// Issue 64, item 10: the file was read with `read_to_string`, so one
    /// byte that is not UTF-8 refused all of it, and a byte-order mark
    /// made its line's position unreadable. Both are handled line by line:
    /// a mark starting a line (files put together) is dropped, and a line's
    /// bytes that are not UTF-8 are shown as U+FFFD.
    #[test]
    fn a_bom_and_bytes_that_are_not_utf8_are_handled_line_by_line() {
        let mut bytes =
            b"\xef\xbb\xbf6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"one\";\n".to_vec();
        bytes.extend_from_slice(b"# a comment \xff\r\n\n");
        bytes.extend_from_slice(
            b"\xef\xbb\xbf6k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - bm Rc8#; id \"caf\xe9\";\r\n",
        );
        let path = suite("bom", &bytes);
        let tests = load(&path).expect("every line reads");
        std::fs::remove_file(&path).ok();
        let ids: Vec<&str> = tests.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["one", "caf\u{fffd}"]);
        assert_eq!(tests[1].position.san(tests[1].best[0]), "Rc8#");
    }

    /// Issue 64, item 10: a line longer than the bound is refused by its
    /// number, without being kept.
    #[test]
    fn a_line_longer_than_the_bound_is_refused_with_its_number() {
        let mut bytes = b"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#;\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 1 << 20));
        bytes.push(b'\n');
        let path = suite("long", &bytes);
        let e = load(&path).expect_err("a line too long");
        std::fs::remove_file(&path).ok();
        let e = format!("{e:#}");
        assert!(e.contains("line 2") && e.contains("longer than"), "{e}");
        assert!(e.len() < 500, "{} bytes: the line is not quoted", e.len());
    }
}
