//! Drives the `kestrel` binary over pipes as a GUI would: a whole game
//! against itself, with `isready` during the search, `stop` of an infinite
//! search, pondering with `ponderhit` and with `stop`, and bad input mixed in.

use chess::{CastlingMode, Game, Position};

mod common;

use common::Running as Engine;

impl Engine {
    fn bestmove(&mut self, secs: u64) -> (String, Option<String>) {
        let lines = self.until("bestmove", secs);
        let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
        (
            words[1].to_string(),
            words.get(3).map(std::string::ToString::to_string),
        )
    }
}

#[test]
fn full_game_over_pipes() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok", 10);
    e.send("setoption name Hash value 8");
    // This test is about the search: book moves would answer at once.
    e.send("setoption name OwnBook value false");
    e.send("ucinewgame");
    e.send("isready");
    e.until("readyok", 10);

    let mut game = Game::new(Position::startpos());
    let mut moves: Vec<String> = Vec::new();
    let (mut wtime, mut btime) = (3_000u64, 3_000u64);
    for ply in 0..80 {
        if game.outcome().is_some() {
            break;
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send(&format!("go wtime {wtime} btime {btime} winc 20 binc 20"));
        if ply % 7 == 3 {
            // isready must be answered while the engine thinks.
            e.send("isready");
            let lines = e.until("readyok", 5);
            assert!(
                !lines.iter().any(|l| l.starts_with("bestmove")),
                "isready answered only after the search: {lines:?}"
            );
        }
        let start = std::time::Instant::now();
        let (best, _) = e.bestmove(10);
        let used = start.elapsed().as_millis() as u64;
        let m = game
            .position()
            .parse_uci_move(&best, CastlingMode::Standard)
            .unwrap_or_else(|err| panic!("illegal bestmove {best}: {err}"));
        let clock = if game.position().turn() == chess::Color::White {
            &mut wtime
        } else {
            &mut btime
        };
        assert!(used < *clock + 500, "used {used} ms with {clock} ms left");
        *clock = clock.saturating_sub(used) + 20;
        game.push(m);
        moves.push(best);
    }
    // A game may end early (self-play can repeat); otherwise it must have gone on.
    assert!(
        moves.len() >= 20 || game.outcome().is_some(),
        "the game stopped after {} plies without an outcome: {moves:?}",
        moves.len()
    );
}

#[test]
fn analysis_shows_a_short_mate_at_its_depth() {
    // `go infinite` is analysis: WAC.001's mate in 2 (1.Qg6) shows as
    // `score mate 2` by depth 6 (issue 45; a game's search needs 14), and
    // the option is offered to GUIs that say when they analyse.
    let mut e = Engine::start(&[]);
    e.send("uci");
    let options = e.until("uciok", 10);
    assert!(
        options.contains(&"option name UCI_AnalyseMode type check default false".to_string()),
        "{options:?}"
    );
    e.send("position fen 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    e.send("go infinite");
    let lines = e.until_line(|l| l.contains(" score mate 2 "), 30);
    let mate = lines.last().unwrap();
    let depth: i32 = mate.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(depth <= 6, "{mate}");
    assert!(mate.contains(" pv g3g6 "), "{mate}");
    e.send("stop");
    let (best, _) = e.bestmove(5);
    assert_eq!(best, "g3g6");
}

#[test]
fn stop_ends_an_infinite_search_and_pondering_works() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok", 10);
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    // Depth 6 done: an infinite search that were to answer by itself would
    // have had its chance (waited for, not slept on).
    let searched = e.until_line(
        |l| l.starts_with("info depth 6 ") || l.starts_with("bestmove"),
        10,
    );
    assert!(
        !searched.iter().any(|l| l.starts_with("bestmove")),
        "infinite search must not answer by itself"
    );
    e.send("isready");
    let lines = e.until("readyok", 5);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "infinite search must not answer by itself"
    );
    e.send("stop");
    let (best, _) = e.bestmove(5);
    let mut after_e4 = Position::startpos();
    after_e4.play_unchecked(
        after_e4
            .parse_uci_move("e2e4", CastlingMode::Standard)
            .unwrap(),
    );
    assert!(
        after_e4
            .parse_uci_move(&best, CastlingMode::Standard)
            .is_ok(),
        "illegal bestmove {best} after stop"
    );

    // Ponder, then the opponent plays the expected move: ponderhit.
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000");
    // The ponder search is under way once it reports its first iteration.
    e.until("info depth", 10);
    e.send("ponderhit");
    let (best, _) = e.bestmove(5);
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5"] {
        pos.play_unchecked(pos.parse_uci_move(m, CastlingMode::Standard).unwrap());
    }
    assert!(
        pos.parse_uci_move(&best, CastlingMode::Standard).is_ok(),
        "{best}"
    );

    // Ponder, then the opponent plays something else: stop, and a new search.
    e.send("go ponder wtime 2000 btime 2000");
    e.until("info depth", 10);
    e.send("stop");
    e.bestmove(5);
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go movetime 100");
    e.bestmove(5);

    // Garbage and odd commands while idle and while searching.
    e.send("stop");
    e.send("go depth 3 nodes -5 wtime 99999999999999999999999");
    e.bestmove(10);
    e.send("go movetime 2000");
    e.send("go movetime 50");
    e.until("bestmove", 5);
    e.bestmove(5);
    e.send(&"x".repeat(100_000));
    e.send("position fen this is not a fen");
    e.send("isready");
    e.until("readyok", 5);
}

/// Match runners (fastchess) check that `bestmove` is the first move of the
/// last line shown: a move found in an unfinished iteration, or by a helper
/// thread, must come with its line. Node limits stop searches mid-iteration.
#[test]
fn bestmove_is_the_last_line_shown() {
    for threads in [1, 2] {
        let mut e = Engine::start(&[]);
        e.send("uci");
        e.until("uciok", 10);
        e.send("setoption name OwnBook value false");
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("ucinewgame");
        let mut game = Game::new(Position::startpos());
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..60u64 {
            if game.outcome().is_some() {
                break;
            }
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send(&format!("go nodes {}", 4_000 + 1_733 * (ply % 11)));
            let lines = e.until("bestmove", 10);
            let best = lines
                .last()
                .unwrap()
                .split_whitespace()
                .nth(1)
                .unwrap()
                .to_string();
            let last_pv = lines
                .iter()
                .rev()
                .find_map(|l| l.split(" pv ").nth(1))
                .and_then(|pv| pv.split_whitespace().next())
                .unwrap_or_else(|| panic!("no line shown: {lines:?}"));
            assert_eq!(last_pv, best, "threads {threads}, ply {ply}: {lines:?}");
            let m = game
                .position()
                .parse_uci_move(&best, CastlingMode::Standard)
                .unwrap();
            game.push(m);
            moves.push(best);
        }
        e.send("quit");
    }
}
