//! The xboard (CECP v2) side of a match. The engine is kept in force mode and
//! told each move; on its turn it gets `time`/`otim` and `go`, and after it
//! moves, `force` again, so that the runner alone decides when it thinks.

use crate::engine_spec::{EngineSpec, HANDSHAKE_TIMEOUT};
use chess::{CastlingMode, Color, Move, Position, Square};
use matchcore::engine_process::{EngineError, EngineProcess, NamedLog};
use matchcore::player::{MoveRequest, Player, Reply, Score, Thought};
use std::time::{Duration, Instant};

/// xboard's spec gives engines two seconds to send `feature ... done=1`.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// An xboard engine.
pub struct XboardPlayer {
    process: EngineProcess,
    usermove: bool,
    setboard: bool,
    ping: bool,
    limits_sent: String,
    /// How many moves of the current game the engine has been told.
    told: usize,
    next_ping: u32,
}

/// The `feature` pairs of a line: `feature ping=1 myname="Fairy-Max 5.0b"`.
fn features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line
        .trim_start()
        .strip_prefix("feature")
        .unwrap_or("")
        .trim();
    while let Some((key, after)) = rest.split_once('=') {
        let key = key.trim().to_string();
        let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
            quoted.split_once('"').unwrap_or((quoted, ""))
        } else {
            after.split_once(' ').unwrap_or((after, ""))
        };
        out.push((key, value.to_string()));
        rest = tail.trim();
    }
    out
}

/// A thinking line `depth score time nodes pv...`, if `line` is one.
pub fn parse_thinking(line: &str, thought: &mut Thought) {
    let mut words = line.split_whitespace();
    let depth = words
        .next()
        .and_then(|d| d.trim_end_matches(['.', '&']).parse::<u32>().ok());
    let score = words.next().and_then(|s| s.parse::<i32>().ok());
    let time = words.next().and_then(|t| t.parse::<u64>().ok());
    if let (Some(depth), Some(score), Some(time)) = (depth, score, time) {
        // `ply score time nodes pv...`: time in centiseconds; the nodes
        // and the line are optional.
        let nodes = words.next().and_then(|n| n.parse::<u64>().ok());
        *thought = Thought {
            score: Some(Score::from_xboard(score)),
            depth: Some(depth),
            nodes,
            time: Some(std::time::Duration::from_millis(time * 10)),
            pv: nodes.map_or_else(Vec::new, |_| words.map(str::to_string).collect()),
            ..Thought::default()
        };
    }
}

fn level_commands(spec: &EngineSpec) -> Vec<String> {
    let l = &spec.limits;
    let mut out = Vec::new();
    if let Some(tc) = l.tc {
        let secs = tc.base.as_secs();
        out.push(format!(
            "level {} {}:{:02} {}",
            tc.moves.unwrap_or(0),
            secs / 60,
            secs % 60,
            tc.increment.as_secs_f64()
        ));
    }
    if let Some(st) = l.movetime {
        out.push(format!("st {}", st.as_secs()));
    }
    if let Some(d) = l.depth {
        out.push(format!("sd {d}"));
    }
    out
}

/// The position in xboard's edit mode, for engines without `setboard`
/// (Fairy-Max): the spec's sequence, with `a2a3` first to put Black on move.
/// Edit mode cannot give an en-passant square, and castling rights follow
/// from the king and rooks standing on their squares.
pub fn edit_commands(pos: &Position) -> Vec<String> {
    let mut out = Vec::new();
    if pos.turn() == Color::Black {
        out.push("a2a3".to_string());
    }
    out.push("edit".to_string());
    out.push("#".to_string());
    for color in [Color::White, Color::Black] {
        if color == Color::Black {
            out.push("c".to_string());
        }
        for sq in Square::ALL {
            if let Some(p) = pos.piece_at(sq).filter(|p| p.color == color) {
                out.push(format!("{}{sq}", p.role.upper_char()));
            }
        }
    }
    out.push(".".to_string());
    out
}

impl XboardPlayer {
    /// Starts the engine and reads its features.
    pub fn start(spec: &EngineSpec, log: Option<NamedLog>) -> Result<XboardPlayer, EngineError> {
        if spec.limits.nodes.is_some() {
            return Err(EngineError::Protocol(format!(
                "{}: xboard engines cannot be limited by nodes; use depth=, st= or tc=",
                spec.name
            )));
        }
        if spec
            .limits
            .movetime
            .is_some_and(|st| st.subsec_nanos() != 0)
        {
            // xboard's `st` command takes whole seconds.
            return Err(EngineError::Protocol(format!(
                "{}: xboard engines take st= in whole seconds",
                spec.name
            )));
        }
        let mut process = EngineProcess::spawn_logged(spec.command(), log)?;
        process.send("xboard")?;
        process.send("protover 2")?;
        let mut player = XboardPlayer {
            process,
            usermove: false,
            setboard: false,
            ping: false,
            limits_sent: level_commands(spec).join("\n"),
            told: 0,
            next_ping: 1,
        };
        let mut deadline = Instant::now() + FEATURE_WAIT;
        loop {
            // Engines that are not CECP v2 send no features: go on after the wait.
            let line = match player.process.recv(deadline) {
                Ok(line) => line,
                Err(EngineError::Timeout(_)) => break,
                Err(e) => return Err(e),
            };
            let mut accepted = Vec::new();
            for (key, value) in features(&line) {
                match key.as_str() {
                    "usermove" => player.usermove = value == "1",
                    "setboard" => player.setboard = value == "1",
                    "ping" => player.ping = value == "1",
                    // done=0 asks for more time than the two seconds.
                    "done" if value == "0" => deadline = Instant::now() + HANDSHAKE_TIMEOUT,
                    "done" => {}
                    _ => {}
                }
                if key != "done" {
                    accepted.push(key.clone());
                }
                if key == "done" && value == "1" {
                    deadline = Instant::now();
                }
            }
            for key in accepted {
                player.process.send(&format!("accepted {key}"))?;
            }
        }
        for (name, value) in &spec.options {
            player.process.send(&format!("option {name}={value}"))?;
        }
        for line in &spec.init {
            player.process.send(line)?;
        }
        player.sync()?;
        Ok(player)
    }

    fn sync(&mut self) -> Result<(), EngineError> {
        if !self.ping {
            return Ok(());
        }
        let n = self.next_ping;
        self.next_ping += 1;
        self.process.send(&format!("ping {n}"))?;
        let pong = format!("pong {n}");
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.process.recv_until(deadline, |l| l.trim() == pong)?;
        Ok(())
    }

    fn send_move(&mut self, m: Move) -> Result<(), EngineError> {
        let text = m.to_uci(CastlingMode::Standard).to_string();
        if self.usermove {
            self.process.send(&format!("usermove {text}"))
        } else {
            self.process.send(&text)
        }
    }
}

impl Player for XboardPlayer {
    fn new_game(&mut self, start: &Position) -> Result<(), EngineError> {
        self.process.send("new")?;
        self.process.send("force")?;
        self.process.send("post")?;
        self.process.send("easy")?;
        for line in self.limits_sent.clone().lines() {
            self.process.send(line)?;
        }
        if *start != Position::startpos() {
            if self.setboard {
                self.process.send(&format!("setboard {}", start.fen()))?;
            } else {
                for line in edit_commands(start) {
                    self.process.send(&line)?;
                }
            }
        }
        self.told = 0;
        self.sync()
    }

    fn go(&mut self, r: &MoveRequest) -> Result<(Reply, Thought), EngineError> {
        for &m in &r.moves[self.told.min(r.moves.len())..] {
            self.send_move(m)?;
        }
        self.told = r.moves.len();
        let me = r.position.turn();
        if let Some(mine) = r.clock(me) {
            let theirs = r.clock(!me).unwrap_or(mine);
            self.process
                .send(&format!("time {}", mine.left().as_millis() / 10))?;
            self.process
                .send(&format!("otim {}", theirs.left().as_millis() / 10))?;
        }
        self.process.send("go")?;
        let mut thought = Thought::default();
        loop {
            let line = self.process.recv(r.deadline)?;
            let trimmed = line.trim();
            if let Some(mv) = trimmed.strip_prefix("move ") {
                self.process.send("force")?;
                // The engine's own move is now part of the game it knows.
                self.told += 1;
                return Ok((
                    Reply::from_text(r.position, mv.trim(), CastlingMode::Standard),
                    thought,
                ));
            }
            if trimmed == "resign" || trimmed.starts_with("tellics resign") {
                self.process.send("force")?;
                return Ok((Reply::Resign, thought));
            }
            if trimmed.starts_with("Illegal move") || trimmed.starts_with("Error") {
                return Err(EngineError::Protocol(format!("engine said: {trimmed}")));
            }
            parse_thinking(trimmed, &mut thought);
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
    fn feature_lines_with_quotes() {
        let f = features(r#"feature ping=1 myname="Fairy-Max 5.0b" setboard=1 done=1"#);
        assert_eq!(f[0], ("ping".to_string(), "1".to_string()));
        assert_eq!(f[1], ("myname".to_string(), "Fairy-Max 5.0b".to_string()));
        assert_eq!(f[3], ("done".to_string(), "1".to_string()));
    }

    #[test]
    fn edit_mode_sets_up_black_to_move() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        assert_eq!(
            edit_commands(&pos),
            ["a2a3", "edit", "#", "Ke1", "Pe2", "c", "Ke8", "."]
        );
    }

    #[test]
    fn thinking_lines() {
        let mut t = Thought::default();
        parse_thinking("9 -35 120 45678 e2e4 e7e5", &mut t);
        assert_eq!(
            t,
            Thought {
                score: Some(Score::Cp(-35)),
                depth: Some(9),
                nodes: Some(45678),
                time: Some(std::time::Duration::from_millis(1200)),
                pv: vec!["e2e4".into(), "e7e5".into()],
                ..Thought::default()
            }
        );
        parse_thinking("move e2e4", &mut t);
        assert_eq!(t.depth, Some(9));
        parse_thinking("12. 100003 50 999 Qh7", &mut t);
        assert_eq!(t.score, Some(Score::Mate(3)));
    }
}
