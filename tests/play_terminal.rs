//! Drives `kestrel play` through standard input, as a person would type:
//! a scripted two-person game (moves in SAN, undo, redo, bad moves, flip,
//! fen, PGN save, a set-up mate, edit mode with a promotion, PGN load) whose
//! whole output must equal `tests/data/play_transcript.txt`; a game
//! against the engine with undo, pv, stats, settings and autoplay; and the
//! player's habits: one board per move, lower-case SAN, scores from White's
//! view, hint, draw offers, resigning, clocks, and quit's warning; `pv`
//! only for the position on the board; and in a real terminal (tmux, so
//! that rustyline edits the lines), lines typed while Kestrel thinks kept
//! and played after its move.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `kestrel play ARGS` in a fresh directory with `input`; returns the
/// output and the directory.
fn play(args: &[&str], input: &str, name: &str) -> (String, PathBuf) {
    let dir = std::env::temp_dir().join(format!("kestrel-play-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .arg("play")
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("kestrel starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "kestrel play failed");
    (String::from_utf8(out.stdout).unwrap(), dir)
}

#[test]
fn scripted_game_matches_the_transcript() {
    let script = include_str!("data/play_script.txt");
    let expected = include_str!("data/play_transcript.txt");
    let args = [
        "--white", "human", "--black", "human", "--ascii", "--color", "never",
    ];
    let (out, dir) = play(&args, script, "script");
    if out != expected {
        // Show the first differing line rather than two 200-line texts.
        for (i, (a, b)) in out.lines().zip(expected.lines()).enumerate() {
            assert_eq!(a, b, "line {} differs", i + 1);
        }
        assert_eq!(out.lines().count(), expected.lines().count(), "{out}");
    }
    let pgn = std::fs::read_to_string(dir.join("game.pgn")).unwrap();
    let pgn: Vec<&str> = pgn.lines().filter(|l| !l.starts_with("[Date ")).collect();
    assert_eq!(
        pgn,
        [
            "[Event \"Kestrel terminal game\"]",
            "[Site \"kestrel play\"]",
            "[Round \"?\"]",
            "[White \"Human\"]",
            "[Black \"Human\"]",
            "[Result \"*\"]",
            "",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 *",
            "",
        ]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn against_the_engine_with_undo_pv_stats_and_autoplay() {
    let script = "\
e4
undo
history
e2e4
pv
pv 1
stats
settings
set black option NullMove=false
set both depth 2
save vs-engine.pgn
book add my-book.txt
fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1
auto on
new
quit
";
    let args = ["--depth", "3", "--no-book", "--ascii", "--color", "never"];
    let (out, dir) = play(&args, script, "engine");
    let at = |needle: &str| {
        out.find(needle)
            .unwrap_or_else(|| panic!("'{needle}' not in the output:\n{out}"))
    };
    // The engine answers 1. e4 at depth 3; undo takes both moves back.
    assert!(at("White: human. Black: Kestrel (depth 3, book off).") < at("1... Kestrel plays "));
    assert!(out.contains("1. White> history\n(no moves yet)\n"), "{out}");
    assert!(at("1. White> e2e4") < at("2. White> pv"));
    assert!(out.contains("Expected line (depth 3, score "), "{out}");
    assert!(out.contains("Line, 1 of "), "{out}");
    assert!(
        out.contains("Last search: ") && out.contains("Search: tthit "),
        "{out}"
    );
    assert!(
        out.contains("Black: Kestrel (depth 2, book off) NullMove=false."),
        "{out}"
    );
    assert!(out.contains("Saved 2 moves to vs-engine.pgn."), "{out}");
    assert!(out.contains("to my-book.txt."), "{out}");
    // Autoplay from a mate in one: the engine finds it and the game ends.
    assert!(out.contains("1. Kestrel plays Rd8# (depth "), "{out}");
    assert!(out.contains("Game over: 1-0 (White mates)."), "{out}");
    // After `new` both sides are the engine: a whole game is played, and it ends.
    let after_new = &out[at("> new")..];
    assert!(after_new.contains("Game over: "), "{after_new}");

    let pgn = std::fs::read_to_string(dir.join("vs-engine.pgn")).unwrap();
    assert!(
        pgn.contains("[White \"Human\"]") && pgn.contains("[Black \"Kestrel "),
        "{pgn}"
    );
    assert!(pgn.contains("1. e4 "), "{pgn}");
    let book = std::fs::read_to_string(dir.join("my-book.txt")).unwrap();
    assert!(!book.trim().is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

/// The number of boards in `text` (each ends with the file letters).
fn boards(text: &str) -> usize {
    text.lines()
        .filter(|l| l.trim() == "a  b  c  d  e  f  g  h")
        .count()
}

#[test]
fn a_players_habits_hint_draw_resign_clock_and_quit() {
    let script = "\
nf3
hint
draw
fen 4k3/8/8/8/8/8/8/Q3K3 w - - 0 1
draw
new
fen q3k3/8/8/8/8/8/8/4K3 w - - 0 1
draw
Kd2
resign
e4
undo
quit
time 1+2
new
e4
time
save clocked.pgn
quit
";
    let args = ["--depth", "3", "--no-book", "--ascii", "--color", "never"];
    let (out, dir) = play(&args, script, "habits");
    let between = |from: &str, to: &str| {
        let start = out
            .find(from)
            .unwrap_or_else(|| panic!("'{from}' in:\n{out}"));
        let end = out[start..]
            .find(to)
            .unwrap_or_else(|| panic!("'{to}' after '{from}' in:\n{out}"));
        &out[start..start + end]
    };
    // Lower-case SAN is read; the engine's reply and its board, one board in all.
    let first = between("1. White> nf3", "2. White>");
    assert_eq!(boards(first), 1, "one board per move:\n{first}");
    assert!(first.contains("1... Kestrel plays "), "{first}");
    assert!(
        between("2. White> hint", "2. White> draw").contains("Hint: "),
        "{out}"
    );
    // A queen up for White: Kestrel (Black) stands worse and takes the draw.
    let worse = between("fen 4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "> new");
    assert!(
        worse.contains("Kestrel accepts the draw (it sees +"),
        "{worse}"
    );
    assert!(
        out.contains("Draw agreed). Type new, save FILE or fen.\nGame over (1/2-1/2)> new"),
        "the prompt says the game is over:\n{worse}"
    );
    // A queen up for Kestrel: it declines, and its scores are from White's view (negative).
    let better = between("fen q3k3/8/8/8/8/8/8/4K3 w - - 0 1", "> quit");
    assert!(
        better.contains("Kestrel declines the draw (it sees -"),
        "{better}"
    );
    let reply = between("1. White> Kd2", "2. White> resign");
    assert!(
        reply.contains("score -") || reply.contains("score Black mates"),
        "Black's advantage shows negative:\n{reply}"
    );
    let resigned = between("2. White> resign", "> quit");
    assert!(resigned.contains("0-1 (White resigns)"), "{resigned}");
    assert!(
        resigned.contains("Game over (0-1)> e4\nThe game is over: 0-1 (White resigns)."),
        "{resigned}"
    );
    // A finished game is final: undo takes nothing back (issue 63).
    assert!(
        resigned.contains("Game over (0-1)> undo\nThe game is over: 0-1 (White resigns); its moves stand as played."),
        "{resigned}"
    );
    // quit warns about the unsaved game once; the clock session goes on.
    assert!(
        out.contains("is not saved: save FILE keeps it; quit again leaves without saving."),
        "{out}"
    );
    let clocked = between("> time 1+2", "> save clocked.pgn");
    assert!(
        clocked.contains(
            "Clock 1+2 for both sides, each side's from its first move on: White 1:00  Black 1:00"
        ),
        "{clocked}"
    );
    // After 1. e4 and the engine's reply: both first moves were free and
    // earned no increment (as on lichess and in kestrel gui; issue 63).
    assert!(
        clocked.lines().any(|l| l == "White 1:00  Black 1:00"),
        "{clocked}"
    );
    let pgn = std::fs::read_to_string(dir.join("clocked.pgn")).unwrap();
    assert!(pgn.contains("[TimeControl \"60+2\"]"), "{pgn}");
    // Saved: the last quit leaves without a warning.
    assert!(out.trim_end().ends_with("> quit"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn pv_shows_only_the_line_of_the_position_on_the_board() {
    let script = "\
e4
pv
undo
pv
pv next
e4
pv 1
quit
quit
";
    let args = ["--depth", "3", "--no-book", "--ascii", "--color", "never"];
    let (out, dir) = play(&args, script, "pv");
    let after = |prompt: &str| {
        let start = out
            .find(prompt)
            .unwrap_or_else(|| panic!("'{prompt}' in:\n{out}"));
        let rest = &out[start + prompt.len()..];
        rest[..rest.find("> ").unwrap_or(rest.len())].to_string()
    };
    // After Kestrel's reply the board is on its line: shown.
    assert!(
        after("2. White> pv\n").starts_with("Expected line (depth 3, score "),
        "{out}"
    );
    // After undo the board is back before 1. e4: that line is another position's.
    let stale = "The engine's last line was of another position";
    assert!(after("1. White> pv\n").starts_with(stale), "{out}");
    assert!(after("1. White> pv next\n").starts_with(stale), "{out}");
    // A new reply, a new line: its first move on the board.
    assert!(
        after("2. White> pv 1\n").starts_with("Line, 1 of "),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_book_reply_leaves_no_line() {
    let args = ["--depth", "3", "--ascii", "--color", "never"];
    let (out, dir) = play(&args, "e4\npv\nquit\nquit\n", "book-pv");
    assert!(
        out.contains("1... Kestrel plays ") && out.contains("(book)"),
        "{out}"
    );
    assert!(
        out.contains("2. White> pv\nThe last engine move came from the book: no line."),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `kestrel play` in a tmux pane: a real terminal, so rustyline edits the
/// lines as it does for a person. The server (its own socket) goes when
/// the test ends.
struct Pane {
    tmux: PathBuf,
    socket: String,
}

impl Pane {
    /// Starts `kestrel play ARGS` in a 100x50 pane; `None` (the test
    /// skips, or fails under CI) without tmux.
    fn start(args: &[&str], name: &str) -> Option<Pane> {
        let tmux = common::tools::require(
            common::tools::find_program("tmux"),
            "tmux is not installed (apt-get install tmux)",
        )?;
        let socket = format!("kestrel-play-{name}-{}", std::process::id());
        let command = std::iter::once(env!("CARGO_BIN_EXE_kestrel"))
            .chain(["play"])
            .chain(args.iter().copied())
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(" ");
        let status = Command::new(&tmux)
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", "100", "-y", "50", &command])
            .env_remove("TMUX")
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux starts the game");
        Some(Pane { tmux, socket })
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new(&self.tmux)
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types `text` and presses Enter, as a person does.
    fn line(&self, text: &str) {
        self.tmux(&["send-keys", "-l", text]);
        self.tmux(&["send-keys", "Enter"]);
    }

    /// Everything the pane shows and showed (its scrollback), lines joined.
    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-J", "-S", "-"])
    }

    /// Waits until the pane shows `text`; the screen then.
    fn wait_for(&self, text: &str, within: Duration) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < within,
                "'{text}' not shown within {within:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}

/// Two moves typed while Kestrel thinks about its reply to 1. e4: the
/// first is played after Kestrel's move, and the second after its next
/// one (rustyline read both lines at once and used to drop the second).
#[test]
fn moves_typed_while_kestrel_thinks_are_played_after_its_move() {
    let args = ["--time", "2", "--no-book", "--ascii", "--color", "never"];
    let Some(pane) = Pane::start(&args, "typeahead") else {
        return;
    };
    pane.wait_for("1. White> ", Duration::from_secs(30));
    pane.line("e4");
    pane.wait_for("1. White> e4\n", Duration::from_secs(10));
    // Kestrel thinks for 2 s: both lines are typed meanwhile.
    pane.line("Nf3");
    pane.line("Bc4");
    let screen = pane.wait_for("3... Kestrel plays ", Duration::from_secs(60));
    let at = |text: &str| {
        screen
            .find(text)
            .unwrap_or_else(|| panic!("'{text}' in:\n{screen}"))
    };
    assert!(at("1... Kestrel plays ") < at("2. White> Nf3"), "{screen}");
    assert!(at("2... Kestrel plays ") < at("3. White> Bc4"), "{screen}");
}
