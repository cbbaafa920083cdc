//! The UCI side of a match: `uci`/`uciok`, options, `isready`, `position`
//! and `go` with the runner's clocks, `info` lines for the PGN comments.

use crate::engine_spec::{EngineSpec, HANDSHAKE_TIMEOUT};
use crate::variant;
use chess::{CastlingMode, Color, Position};
use matchcore::engine_process::{EngineError, EngineProcess, NamedLog};
use matchcore::player::{MoveRequest, Player, Reply, Score, Thought};
use matchcore::search_limits::SearchLimits;
use regex::Regex;
use std::time::{Duration, Instant};

/// A UCI engine.
pub struct UciPlayer {
    process: EngineProcess,
    /// How long it thinks, sent with each `go`.
    limits: SearchLimits,
    /// Output lines kept for the PGN: the last line of each move matching
    /// each pattern (`-pgnout match_line=`).
    watch: Vec<Regex>,
    /// How positions and castling moves are written (`-variant`).
    variant: CastlingMode,
    /// Its options' values: the defaults it listed, then those set.
    values: Vec<(String, String)>,
    /// What it calls itself (`id name`, `id author`; empty when not said).
    id: (String, String),
}

/// The UCI option that tells an engine it plays Chess960.
const CHESS960: &str = "UCI_Chess960";

/// What a UCI `info` line says of the search: a line with a score (the
/// first line of a multi-PV report) replaces the thought's figures, as
/// fastchess takes them from the last such line; any line with a `time`
/// sets the reported time.
pub fn parse_info(line: &str, thought: &mut Thought) {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return;
    }
    let mut seen = Thought::default();
    let mut multipv = 1;
    let mut time = None;
    while let Some(w) = words.next() {
        let mut number = || words.next().and_then(|v| v.parse::<u64>().ok());
        match w {
            "depth" => seen.depth = number().and_then(|d| u32::try_from(d).ok()),
            "seldepth" => seen.seldepth = number().and_then(|d| u32::try_from(d).ok()),
            "nodes" => seen.nodes = number(),
            "nps" => seen.nps = number(),
            "hashfull" => seen.hashfull = number().and_then(|h| u32::try_from(h).ok()),
            "tbhits" => seen.tbhits = number(),
            "time" => time = number().map(std::time::Duration::from_millis),
            "multipv" => multipv = number().unwrap_or(1),
            "lowerbound" | "upperbound" => seen.bound = true,
            "score" => {
                seen.score = match (words.next(), words.next().and_then(|v| v.parse().ok())) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                }
            }
            // The principal variation runs to the end of the line (its
            // moves: the words that read as UCI moves).
            "pv" => {
                seen.pv = words
                    .by_ref()
                    .take_while(|m| looks_like_uci_move(m))
                    .map(str::to_string)
                    .collect();
                break;
            }
            "string" => return,
            _ => {}
        }
    }
    if time.is_some() {
        thought.time = time;
    }
    // Only lines with a score describe a finished iteration; an exact
    // score is preferred to a bound, however late the bound came.
    let keeps_exact = seen.bound && thought.score.is_some() && !thought.bound;
    if seen.score.is_some() && multipv == 1 && !keeps_exact {
        let lines = std::mem::take(&mut thought.lines);
        let depth = seen.depth.or(thought.depth);
        *thought = Thought {
            depth,
            time: thought.time,
            lines,
            ..seen
        };
    }
}

/// A word of the shape of a UCI move: `e2e4`, `e7e8q`, `0000`.
fn looks_like_uci_move(word: &str) -> bool {
    let b = word.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    word == "0000"
        || matches!(b.len(), 4 | 5)
            && square(b[0], b[1])
            && square(b[2], b[3])
            && (b.len() == 4 || b"qrbn".contains(&b[4]))
}

/// True for an engine's answer that refuses a `setoption`: Kestrel's
/// `info string error: ...`, Stockfish's `No such option: X`, and the
/// like.
fn refuses_an_option(line: &str) -> bool {
    let l = line.trim().to_ascii_lowercase();
    l.starts_with("info string error")
        || l.starts_with("no such option")
        || l.contains("unknown option")
}

/// The option's name in an engine's `option name NAME type ...` line
/// (names may hold spaces: `option name Clear Hash type button`).
fn listed_option(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("option") || words.next() != Some("name") {
        return None;
    }
    let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
    (!name.is_empty()).then(|| name.join(" "))
}

/// The default in an engine's `option name NAME type spin default 16 ...`
/// line: the word after `default`.
fn option_default(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == "default")?;
    words.next().map(str::to_string)
}

/// The first option asked for that the engine does not list: an engine
/// that ignores unknown options (Ethereal, say) would otherwise play the
/// whole match with its default. UCI option names are not case sensitive.
fn first_unlisted<'a>(asked: &'a [(String, String)], listed: &[String]) -> Option<&'a str> {
    asked
        .iter()
        .map(|(name, _)| name.as_str())
        .find(|name| !listed.iter().any(|l| l.eq_ignore_ascii_case(name)))
}

/// What to tell the user about an option the engine does not list: the
/// listed name nearest to it, or the list itself when it is short.
fn no_such_option(name: &str, listed: &[String]) -> String {
    let nearest = listed
        .iter()
        .map(|l| {
            let similarity =
                strsim::normalized_levenshtein(&l.to_lowercase(), &name.to_lowercase());
            (similarity, l)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .filter(|(similarity, _)| *similarity >= 0.6);
    let hint = match nearest {
        Some((_, l)) => format!("did you mean {l}?"),
        None if listed.is_empty() => "it lists none".to_string(),
        None if listed.len() <= 20 => format!("it lists: {}", listed.join(", ")),
        None => format!(
            "it lists {} options; its answer to `uci` names them",
            listed.len()
        ),
    };
    format!("the engine has no option named {name} ({hint})")
}

fn millis(d: Duration) -> u128 {
    d.as_millis()
}

impl UciPlayer {
    /// Starts the engine, waits for `uciok`, sets its options and waits for
    /// `readyok`; `watch` are the output lines to keep for the PGN.
    pub fn start(
        spec: &EngineSpec,
        watch: &[Regex],
        log: Option<NamedLog>,
    ) -> Result<UciPlayer, EngineError> {
        let mut process = EngineProcess::spawn_logged(spec.command(), log)?;
        process.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut listed = Vec::new();
        let mut values = Vec::new();
        let mut id = (String::new(), String::new());
        process.recv_until(deadline, |l| {
            // As written after the keyword, as fastchess keeps them.
            if let Some(name) = l.strip_prefix("id name ") {
                id.0 = name.to_string();
            } else if let Some(author) = l.strip_prefix("id author ") {
                id.1 = author.to_string();
            }
            if let Some(name) = listed_option(l) {
                if let Some(default) = option_default(l) {
                    values.push((name.clone(), default));
                }
                listed.push(name);
            }
            l.trim() == "uciok"
        })?;
        if let Some(name) = first_unlisted(&spec.options, &listed) {
            return Err(EngineError::Protocol(no_such_option(name, &listed)));
        }
        let chess960 = spec.variant == CastlingMode::Chess960;
        // An engine that cannot be told the variant would read king-takes-rook
        // castling as a capture of its own rook: no game is worth playing.
        if chess960 && !listed.iter().any(|l| l.eq_ignore_ascii_case(CHESS960)) {
            return Err(EngineError::Protocol(format!(
                "the engine has no {CHESS960} option, so it cannot play -variant fischerandom"
            )));
        }
        for (name, value) in &spec.options {
            process.send(&format!("setoption name {name} value {value}"))?;
            values.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            values.push((name.clone(), value.clone()));
        }
        // After the user's options, as fastchess sends it.
        if chess960 {
            process.send(&format!("setoption name {CHESS960} value true"))?;
        }
        for line in &spec.init {
            process.send(line)?;
        }
        // An option the engine refuses would silently leave it at its
        // default for the whole match: stop before the first game instead.
        process.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut refused = None;
        process.recv_until(deadline, |l| {
            if refused.is_none() && refuses_an_option(l) {
                refused = Some(l.trim().to_string());
            }
            l.trim() == "readyok"
        })?;
        if let Some(line) = refused {
            return Err(EngineError::Protocol(format!(
                "the engine refused an option: {line}"
            )));
        }
        Ok(UciPlayer {
            process,
            limits: spec.limits,
            watch: watch.to_vec(),
            variant: spec.variant,
            values,
            id,
        })
    }

    /// What the engine calls itself: its `id name` and `id author` (empty
    /// when it gave none), for the PGN's `EngineWhiteName` and the like.
    pub fn id(&self) -> (&str, &str) {
        (&self.id.0, &self.id.1)
    }

    /// The value of its option `name` (UCI names are not case sensitive):
    /// the one set, else the default it listed.
    pub fn option_value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `isready` until `readyok`, which also drains anything left from before
    /// (a late `bestmove` after a time forfeit, say).
    fn sync(&mut self) -> Result<(), EngineError> {
        self.process.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.process
            .recv_until(deadline, |l| l.trim() == "readyok")?;
        Ok(())
    }
}

impl Player for UciPlayer {
    fn new_game(&mut self, _start: &Position) -> Result<(), EngineError> {
        self.process.send("ucinewgame")?;
        self.sync()
    }

    fn go(&mut self, r: &MoveRequest) -> Result<(Reply, Thought), EngineError> {
        let mut position =
            if *r.start == Position::startpos() && self.variant == CastlingMode::Standard {
                "position startpos".to_string()
            } else {
                format!("position fen {}", variant::fen(r.start, self.variant))
            };
        if !r.moves.is_empty() {
            position.push_str(" moves");
            for &m in r.moves {
                position.push(' ');
                position.push_str(&m.to_uci(self.variant).to_string());
            }
        }
        self.process.send(&position)?;
        let mut go = "go".to_string();
        let me = r.position.turn();
        if let Some(mine) = r.clock(me) {
            // An opponent without a clock (fixed depth or nodes, say) is
            // shown the mover's own clock: UCI has no way to say "none".
            let theirs = r.clock(!me).unwrap_or(mine);
            let (w, b) = if me == Color::White {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            go.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                millis(w.left()),
                millis(b.left()),
                millis(w.control().increment),
                millis(b.control().increment)
            ));
            if let Some(n) = mine.moves_to_go() {
                go.push_str(&format!(" movestogo {n}"));
            }
        }
        if let Some(t) = self.limits.movetime {
            go.push_str(&format!(" movetime {}", millis(t)));
        }
        if let Some(d) = self.limits.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = self.limits.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        self.process.send(&go)?;
        let mut thought = Thought::default();
        let mut kept: Vec<Option<String>> = vec![None; self.watch.len()];
        loop {
            let line = self.process.recv(r.deadline)?;
            for (pattern, last) in self.watch.iter().zip(&mut kept) {
                if pattern.is_match(&line) {
                    *last = Some(line.clone());
                }
            }
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => parse_info(&line, &mut thought),
                Some("bestmove") => {
                    thought.lines = kept.into_iter().flatten().collect();
                    let mv = words
                        .next()
                        .ok_or_else(|| EngineError::Protocol("empty bestmove".to_string()))?;
                    return Ok((Reply::from_text(r.position, mv, self.variant), thought));
                }
                _ => {}
            }
        }
    }

    fn quit(self: Box<Self>) {
        self.process.quit("quit");
    }

    fn post_mortem(&mut self) -> Vec<String> {
        self.process.post_mortem()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_and_depth() {
        let mut t = Thought::default();
        parse_info(
            "info depth 12 seldepth 18 score cp -35 nodes 100 pv e2e4 e7e5",
            &mut t,
        );
        assert_eq!(
            t,
            Thought {
                score: Some(Score::Cp(-35)),
                depth: Some(12),
                seldepth: Some(18),
                nodes: Some(100),
                pv: vec!["e2e4".into(), "e7e5".into()],
                ..Thought::default()
            }
        );
        parse_info("info depth 13 currmove e2e4 currmovenumber 1", &mut t);
        assert_eq!(t.depth, Some(12), "lines without a score change nothing");
        parse_info(
            "info depth 14 multipv 2 score cp 10 nodes 5 time 40 pv d2d4",
            &mut t,
        );
        assert_eq!(t.nodes, Some(100), "only the first line of multi-PV counts");
        assert_eq!(t.time, Some(Duration::from_millis(40)), "a time counts");
        parse_info(
            "info depth 14 seldepth 20 multipv 1 score mate 3 nodes 900 nps 4500 hashfull 12 tbhits 3 time 200 pv a7a8q b8a8 string x",
            &mut t,
        );
        assert_eq!(
            t,
            Thought {
                score: Some(Score::Mate(3)),
                depth: Some(14),
                seldepth: Some(20),
                nodes: Some(900),
                nps: Some(4500),
                hashfull: Some(12),
                tbhits: Some(3),
                time: Some(Duration::from_millis(200)),
                pv: vec!["a7a8q".into(), "b8a8".into()],
                bound: false,
                lines: Vec::new(),
            }
        );
        parse_info("info string score cp 99 time 5", &mut t);
        assert_eq!(t.score, Some(Score::Mate(3)));
        assert_eq!(t.time, Some(Duration::from_millis(200)));
        // A bound after an exact score: only its time counts.
        parse_info(
            "info depth 15 score cp 40 lowerbound nodes 1000 time 300 pv a7a8q",
            &mut t,
        );
        assert_eq!((t.score, t.nodes), (Some(Score::Mate(3)), Some(900)));
        assert_eq!(t.time, Some(Duration::from_millis(300)));
        // A bound with nothing exact before it is taken, and replaced by
        // the next exact score.
        let mut b = Thought::default();
        parse_info("info depth 1 score cp 5 upperbound nodes 7 pv e2e4", &mut b);
        assert_eq!((b.score, b.bound), (Some(Score::Cp(5)), true));
        parse_info("info depth 1 score cp 3 nodes 9 pv d2d4", &mut b);
        assert_eq!(
            (b.score, b.bound, b.nodes),
            (Some(Score::Cp(3)), false, Some(9))
        );
    }

    #[test]
    fn option_refusals_are_recognised() {
        assert!(refuses_an_option(
            "info string error: option 'Contempt' takes a number from -200 to 200, not '900'"
        ));
        assert!(refuses_an_option("No such option: Foo"));
        assert!(refuses_an_option("Unknown option Bar"));
        assert!(!refuses_an_option(
            "info string NNUE evaluation using nn.bin"
        ));
        assert!(!refuses_an_option("readyok"));
    }

    #[test]
    fn listed_options_are_read_and_asked_ones_checked() {
        assert_eq!(
            listed_option("option name Hash type spin default 16 min 1 max 65536"),
            Some("Hash".to_string())
        );
        assert_eq!(
            listed_option("option name Clear Hash type button"),
            Some("Clear Hash".to_string())
        );
        assert_eq!(listed_option("option name  type check"), None);
        assert_eq!(listed_option("id name Kestrel"), None);
        assert_eq!(listed_option("info string option name X"), None);
        let listed = vec!["Hash".to_string(), "Clear Hash".to_string()];
        let asked = |names: &[&str]| -> Vec<(String, String)> {
            names
                .iter()
                .map(|n| (n.to_string(), "1".to_string()))
                .collect()
        };
        assert_eq!(
            first_unlisted(&asked(&["hash", "CLEAR HASH"]), &listed),
            None
        );
        assert_eq!(
            first_unlisted(&asked(&["Hash", "Contmept"]), &listed),
            Some("Contmept")
        );
        assert_eq!(first_unlisted(&asked(&["Threads"]), &[]), Some("Threads"));
        assert_eq!(
            no_such_option("Contmept", &["Hash".to_string(), "Contempt".to_string()]),
            "the engine has no option named Contmept (did you mean Contempt?)"
        );
        assert_eq!(
            no_such_option("Zzz", &listed),
            "the engine has no option named Zzz (it lists: Hash, Clear Hash)"
        );
        assert_eq!(
            no_such_option("Zzz", &[]),
            "the engine has no option named Zzz (it lists none)"
        );
    }
}
