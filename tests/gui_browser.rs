//! `kestrel gui` in a real browser: starts the server on a free port and
//! runs tests/gui/e2e.js (Playwright driving Debian's Chromium), which
//! plays by clicking and dragging, sees the engine reply, steps through the
//! game, flips, edits a position (a wrong one first), imports and exports
//! PGN and watches an engine-vs-engine game to its end; and
//! tests/gui/habits.js, the page's habits (keyboard shortcuts, the mouse
//! wheel, the phone layout through 40 moves, board and piece themes, a
//! game kept across reloads, an expired one restored from its PGN); and
//! tests/gui/fixes.js, one scenario per bug a player met (issue 41); and
//! tests/gui/issue63.js, one scenario per item of issue 63 (a finished
//! game final, nothing lost by one click, keys, the header, the phone's
//! layout measured...); and
//! tests/gui/clock_game.js, a whole 3+2 game against Kestrel whose clocks
//! python-chess reads.
//! Skips, saying why,
//! when node, chromium or playwright-core (npm, in tests/gui/node_modules)
//! is missing; `.ci/run` installs them, and under CI a missing one fails
//! the test (`common::tools`). Set KESTREL_GUI_SHOTS=DIR to keep the
//! screenshots.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::browser::{check_clocks, missing_browser, run_gui_script};

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `kestrel gui --port 0` with `args` and returns it with its URL.
fn start_server(args: &[&str]) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .args(["gui", "--port", "0"])
        .args(args)
        .env_remove("KESTREL_SYZYGY_PATH")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("kestrel gui starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("kestrel gui prints its URL");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("a URL on 127.0.0.1 in {line:?}"))
        .to_string();
    (server, url)
}

/// Runs the Playwright script `script` against a GUI server started with
/// `args`, and checks that it got to its last line, `done`. Skips (or,
/// under CI, fails) when Chromium or the npm packages are missing.
fn browser_scenario(script: &str, args: &[&str], done: &str) {
    if let Some(why) = missing_browser() {
        common::tools::missing(&why);
        return;
    }
    let (server, url) = start_server(args);
    let text = run_gui_script(script, &url, &[]);
    assert!(text.contains(done), "{text}");
    drop(server);
}

#[test]
fn the_gui_works_in_chromium() {
    browser_scenario("e2e.js", &[], "engine vs engine finished");
}

/// The habits of tests/gui/habits.js: keyboard shortcuts and the wheel,
/// the phone layout, themes, a game kept across reloads and one that
/// expired. The server keeps little memory for games (`--games-memory
/// 64`, three games) and counts a game idle at once (`--games-idle 0`),
/// so that a few new games push an old one out.
#[test]
fn the_gui_keeps_habits_in_chromium() {
    browser_scenario(
        "habits.js",
        &["--games-memory", "64", "--games-idle", "0"],
        "habits done",
    );
}

/// The bugs of issue 41 a player met, one scenario each in
/// tests/gui/fixes.js: clocks that follow the game and start after a
/// side's first move, a finished game that stays finished, no engine
/// move on a loaded FEN, no review figures for a game nobody analysed,
/// no tablebase requests without tables, move numbers kept with their
/// moves in the exported PGN, one engine settings panel (not on Play),
/// a game against Kestrel from the analysis board's position, the board
/// resized by its handle, the review's best lines added to the moves;
/// and the 1366x768 layout measured.
#[test]
fn the_gui_fixes_stay_fixed_in_chromium() {
    browser_scenario("fixes.js", &[], "fixes done");
}

/// Moves in words (issue 62, tests/gui/explain.js): the review of Légal's
/// mate shows 5... Bxd1's sentence ("Blunder: Bxd1 allows mate in 2 ...")
/// with the move on view, and the analysis board says under its lines that
/// White threatens Qxg7#.
#[test]
fn the_gui_explains_moves_in_chromium() {
    browser_scenario("explain.js", &[], "explain done");
}

/// The items of issue 63 a player met, one scenario each in
/// tests/gui/issue63.js: a finished game that stays final (Undo after a
/// resignation, a side line and Undo after a mate), New game asking before
/// it leaves a game and making one with its own id, the keys after a click
/// on a checkbox or a select, the header saying the game's state and the
/// message area in view, no stale panel after "Analyse this game", the
/// editor, the phone's layout, the whole first line, the tablebase's
/// every move with no set-up, the explorer's rating and year filters and
/// one's own games as its second collection, a reload that restores the
/// game, and
/// /play, its header link, Kestrel's level on its clock and the 1366x768
/// play page without a scroll.
/// The server has tests/data/famous_games.pgn as the player's own games
/// (`--explorer`), the explorer's "My games".
#[test]
fn the_issue_63_items_stay_fixed_in_chromium() {
    let own = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/famous_games.pgn");
    browser_scenario("issue63.js", &["--explorer", own], "issue 63 done");
}

/// A whole game against Kestrel at level 1600 on a 3+2 clock, played
/// through the page to its end (tests/gui/clock_game.js), and its PGN
/// read by python-chess (tests/python/check_clocks.py): a clock on every
/// move, first moves free, no side gaining more than the increment, each
/// of Kestrel's clocks its clock before plus the increment less the time it
/// thought. White moves at once and Kestrel at that level answers within a
/// fraction of a second, so the game takes seconds.
#[test]
fn a_clocked_game_against_kestrel_is_played_to_its_end() {
    if let Some(why) = missing_browser() {
        common::tools::missing(&why);
        return;
    }
    if !common::tools::require_python_chess("chess.pgn") {
        return;
    }
    let pgn = std::env::temp_dir().join(format!("kestrel-clock-game-{}.pgn", std::process::id()));
    let (server, url) = start_server(&[]);
    let text = run_gui_script("clock_game.js", &url, &[("KESTREL_CLOCK_PGN", &pgn)]);
    assert!(text.contains("clock game done"), "{text}");
    drop(server);
    check_clocks(&pgn, 180, 2);
    let _ = std::fs::remove_file(&pgn);
}
