//! GNU XBoard itself, with no display (under `xvfb-run`), plays two games
//! between `kestrel xboard` and Fairy-Max; the saved PGN is read back with
//! every move checked on the board, and both games must have a result.
//! Skipped, with a message, where xboard, xvfb-run or fairymax are missing
//! (`apt-get install xboard xvfb fairymax`), except under CI, where that
//! fails (`common::tools`).

mod common;

use common::tools::find_program as find;
use std::path::Path;
use std::process::Command;

#[test]
fn gnu_xboard_plays_two_games_against_fairymax() {
    let (Some(xboard), Some(xvfb), Some(fairymax)) =
        (find("xboard"), find("xvfb-run"), find("fairymax"))
    else {
        common::tools::missing(
            "xboard, xvfb-run and fairymax (apt-get install xboard xvfb fairymax)",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("kestrel-xboard-gui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn_path = dir.join("games.pgn");
    let kestrel = format!("{} xboard", env!("CARGO_BIN_EXE_kestrel"));
    let status = Command::new(xvfb)
        .arg("-a")
        .arg(xboard)
        .args(["-fcp", &kestrel, "-scp"])
        .arg(&fairymax)
        // Fairy-Max 5.0b (Debian 12) does not know `computer`, which
        // xboard sends an engine whose opponent is an engine, and after
        // its error message it crashes now and then (4 of 6 tries when
        // fed xboard's commands by hand): send it nothing instead.
        .args(["-secondComputerString", ""])
        .arg("-fd")
        .arg(&dir)
        .arg("-sd")
        .arg(&dir)
        // 6 s + 0.1 s: at 3 s + 0.05 s Kestrel's clock settles near 0.25 s
        // (what it spends a move meets the increment there), and on a busy
        // machine it once lost a won game on time (stop 57).
        .args(["-matchGames", "2", "-tc", "0:06", "-inc", "0.1"])
        .args([
            "-xexit",
            "-autoCallFlag",
            "true",
            "-popupExitMessage",
            "false",
        ])
        .args(["-adjudicateDrawMoves", "100", "-saveGameFile"])
        .arg(&pgn_path)
        .output()
        .expect("xvfb-run starts");
    assert!(
        status.status.success(),
        "xboard failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    check_games(&pgn_path);
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_games(path: &Path) {
    let text = std::fs::read_to_string(path).expect("xboard saved the games");
    let games: Vec<_> = pgn::PgnReader::new(text.as_bytes()).collect();
    assert_eq!(games.len(), 2, "{text}");
    for game in games {
        // Reading the game replays and checks every move.
        let game = game.unwrap_or_else(|e| panic!("bad game: {e}\n{text}"));
        let names = [
            game.tag("White").unwrap_or(""),
            game.tag("Black").unwrap_or(""),
        ];
        assert!(names.iter().any(|n| n.starts_with("Kestrel")), "{names:?}");
        assert!(game.moves.len() >= 10, "{text}");
        let result = game.tag("Result").unwrap_or("*");
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&result),
            "no result: {text}"
        );
        // No forfeit on time or illegal move by Kestrel.
        let kestrel_white = names[0].starts_with("Kestrel");
        let lost = (kestrel_white && result == "0-1") || (!kestrel_white && result == "1-0");
        let ending = text.to_lowercase();
        assert!(
            !(lost && (ending.contains("time forfeit") || ending.contains("illegal"))),
            "{text}"
        );
    }
}
