//! Kestrel's probes against an independent prober: python-chess's
//! `chess.syzygy` on 400 seeded random positions of the tables in
//! `tests/data/syzygy` (WDL and DTZ for each), and the best move the tables
//! give keeps the position's value by python-chess's reckoning. Skipped
//! with a message where python-chess is missing (`pip install chess`),
//! except under CI, where that fails (see `tests/common/tools.rs`).

#[path = "../../../tests/common/tools.rs"]
mod tools;

use std::path::PathBuf;
use std::process::Command;

use chess::{CastlingMode, Position};
use engine::Tablebase;
use syzygy::SyzygyTablebase;

fn tables_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/syzygy")
}

fn python_chess() -> bool {
    tools::require_python_chess("chess.syzygy")
}

/// A small seeded generator (xorshift), so the positions are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random legal position with these pieces (FEN letters, white first).
fn random_position(rng: &mut Rng, pieces: &str) -> Position {
    loop {
        let mut board = ['.'; 64];
        let mut ok = true;
        for c in pieces.chars() {
            let sq = loop {
                let sq = rng.below(64) as usize;
                if board[sq] == '.' {
                    break sq;
                }
            };
            // Pawns never stand on the first or last rank.
            if c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq) {
                ok = false;
            }
            board[sq] = c;
        }
        if !ok {
            continue;
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    '.' => empty += 1,
                    c => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let turn = if rng.below(2) == 0 { "w" } else { "b" };
        // Kestrel refuses impossible positions (the side not to move in check...).
        if let Ok(pos) = Position::from_fen(&format!("{fen} {turn} - - 0 1")) {
            return pos;
        }
    }
}

#[test]
fn probes_agree_with_python_chess() {
    if !python_chess() {
        return;
    }
    let dir = tables_dir();
    let (tables, problems) = SyzygyTablebase::open(dir.to_str().unwrap()).expect("tables");
    assert!(problems.is_empty(), "{problems:?}");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let sets = [
        "KQk", "KRk", "KPk", "KBk", "KNk", "KBNk", "KQkr", "KRkb", "kqK", "krKB", "kpK",
    ];
    let mut rows = Vec::new();
    for i in 0..400 {
        let pos = random_position(&mut rng, sets[i % sets.len()]);
        let wdl = tables.probe_wdl(&pos).expect("in the tables");
        let dtz = tables.probe_dtz(&pos).expect("in the tables");
        let best = tables.best_move(&pos).map_or_else(
            || "-".into(),
            |(m, _)| m.to_uci(CastlingMode::Standard).to_string(),
        );
        rows.push((pos.fen(), wdl.as_i32(), dtz, best));
    }
    let script = r#"
import sys, chess, chess.syzygy
with chess.syzygy.open_tablebase(sys.argv[1]) as tb:
    for line in sys.stdin:
        fen, best = line.rstrip("\n").split("|")
        board = chess.Board(fen)
        wdl, dtz = tb.probe_wdl(board), tb.probe_dtz(board)
        kept = "-"
        if best != "-":
            board.push_uci(best)
            after = 0 if board.is_stalemate() else -2 if board.is_checkmate() else tb.probe_wdl(board)
            kept = "yes" if -after == wdl else "no"
        print(wdl, dtz, kept)
"#;
    let input: String = rows
        .iter()
        .map(|(fen, _, _, best)| format!("{fen}|{best}\n"))
        .collect();
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python-chess failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let theirs: Vec<&str> = text.lines().collect();
    assert_eq!(theirs.len(), rows.len());
    let mut wins = 0;
    for ((fen, wdl, dtz, best), line) in rows.iter().zip(theirs) {
        assert_eq!(
            format!("{wdl} {dtz}"),
            line[..line.rfind(' ').unwrap()],
            "{fen}"
        );
        assert!(
            line.ends_with(" yes") || best == "-",
            "{fen}: {best} changes the value"
        );
        wins += usize::from(*wdl == 2);
    }
    // The sample holds wins, and draws and losses too.
    assert!(wins > 50 && wins < 350, "{wins} wins of 400");
}
