//! The UCI protocol loop. This version knows positions and perft; the search
//! (and with it `go` with time controls) arrives with the engine crate.
//!
//! Bad input never ends the loop: it is answered with `info string error: ...`
//! and the previous valid state is kept.

use chess::perft::{divide, perft};
use chess::{CastlingMode, Position};
use std::io::{BufRead, Write};
use std::time::Instant;

/// The engine's name as UCI reports it.
pub const ENGINE_NAME: &str = concat!("Kestrel ", env!("CARGO_PKG_VERSION"));

/// State kept between UCI commands.
pub struct Uci {
    position: Position,
    chess960: bool,
}

impl Default for Uci {
    fn default() -> Uci {
        Uci {
            position: Position::startpos(),
            chess960: false,
        }
    }
}

impl Uci {
    /// Reads commands from `input` until `quit` or end of input, answering on `out`.
    pub fn run(&mut self, input: impl BufRead, out: &mut impl Write) -> std::io::Result<()> {
        for line in input.lines() {
            let line = line?;
            if !self.handle(line.trim(), out)? {
                break;
            }
            out.flush()?;
        }
        Ok(())
    }

    fn mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Handles one command line; returns false on `quit`.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> std::io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(true);
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => {
                writeln!(out, "id name {ENGINE_NAME}")?;
                writeln!(out, "id author The Kestrel developers")?;
                writeln!(out, "option name UCI_Chess960 type check default false")?;
                writeln!(out, "uciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => self.position = Position::startpos(),
            "setoption" => self.set_option(&rest, out)?,
            "position" => {
                if let Err(e) = self.set_position(&rest) {
                    writeln!(out, "info string error: {e}")?;
                }
            }
            "go" => self.go(&rest, out)?,
            "d" => write!(out, "{}", self.position.pretty())?,
            "quit" => return Ok(false),
            "stop" | "ponderhit" | "debug" | "register" => {}
            other => writeln!(out, "info string error: unknown command '{other}'")?,
        }
        Ok(true)
    }

    fn set_option(&mut self, args: &[&str], out: &mut impl Write) -> std::io::Result<()> {
        // setoption name <id...> [value <x...>]
        let value_at = args.iter().position(|w| *w == "value");
        let name = args
            .get(1..value_at.unwrap_or(args.len()))
            .unwrap_or_default()
            .join(" ");
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "uci_chess960" => match value.as_str() {
                "true" => self.chess960 = true,
                "false" => self.chess960 = false,
                _ => writeln!(
                    out,
                    "info string error: UCI_Chess960 takes true or false, not '{value}'"
                )?,
            },
            _ => writeln!(out, "info string error: unknown option '{name}'")?,
        }
        Ok(())
    }

    /// `position startpos|fen <FEN> [moves ...]`; on error nothing changes.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(args.len());
        let mut pos = match args.first() {
            Some(&"startpos") => Position::startpos(),
            Some(&"fen") => {
                Position::from_fen(&args[1..moves_at].join(" ")).map_err(|e| e.to_string())?
            }
            _ => return Err("expected 'position startpos' or 'position fen <FEN>'".to_string()),
        };
        for text in args.iter().skip(moves_at + 1) {
            let m = pos
                .parse_uci_move(text, self.mode())
                .map_err(|e| e.to_string())?;
            pos.play(m);
        }
        self.position = pos;
        Ok(())
    }

    fn go(&mut self, args: &[&str], out: &mut impl Write) -> std::io::Result<()> {
        if args.first() == Some(&"perft") {
            match args.get(1).and_then(|d| d.parse::<u32>().ok()) {
                Some(depth) => self.perft(depth, out)?,
                None => writeln!(
                    out,
                    "info string error: 'go perft' needs a depth, e.g. 'go perft 5'"
                )?,
            }
            return Ok(());
        }
        writeln!(
            out,
            "info string error: this build has no search yet; only 'go perft N' is supported"
        )?;
        writeln!(out, "bestmove 0000")
    }

    /// Stockfish's format: `move: count` lines, a blank line, `Nodes searched: N`.
    fn perft(&self, depth: u32, out: &mut impl Write) -> std::io::Result<()> {
        let start = Instant::now();
        let mut total = 0;
        if depth > 0 {
            for (m, n) in divide(&self.position, depth) {
                writeln!(out, "{}: {n}", m.to_uci(self.mode()))?;
                total += n;
            }
        } else {
            total = perft(&self.position, 0);
        }
        let ms = start.elapsed().as_millis();
        writeln!(out, "\nNodes searched: {total}\n")?;
        writeln!(out, "info string perft {depth} time {ms} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> String {
        let mut out = Vec::new();
        Uci::default().run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn handshake_and_perft() {
        let out = session("uci\nisready\nposition startpos moves e2e4 e7e5\ngo perft 2\nquit\n");
        assert!(out.contains("uciok\n"));
        assert!(out.contains("readyok\n"));
        assert!(out.contains("g1f3: 32\n"), "{out}");
        assert!(out.contains("Nodes searched: 843\n"), "{out}");
    }

    #[test]
    fn bad_input_keeps_state() {
        let out = session("position startpos moves e2e4\nposition fen 8/8/8 w - - 0 1\nposition startpos moves e2e5\nfoo\nd\n");
        assert_eq!(out.matches("info string error").count(), 3, "{out}");
        // The first valid position is still set.
        assert!(
            out.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            "{out}"
        );
    }

    #[test]
    fn chess960_castling_notation() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let out = session(&format!(
            "setoption name UCI_Chess960 value true\nposition fen {fen}\ngo perft 1\n"
        ));
        assert!(out.contains("Nodes searched: 21"), "{out}");
    }
}
