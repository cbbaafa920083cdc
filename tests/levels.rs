//! Playing levels over pipes, as a GUI uses them: `UCI_LimitStrength` and
//! `UCI_Elo` are listed (UCI `option`, xboard `feature option=`),
//! out-of-range values are refused with a message, and a limited engine
//! plays legal moves under a clock.

use chess::{CastlingMode, Game, Position};
use engine::strength::{DEFAULT_ELO, MAX_ELO, MIN_ELO};

mod common;

use common::Running as Engine;

#[test]
fn levels_are_listed_and_checked() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until("uciok", 10);
    assert!(lines
        .iter()
        .any(|l| l == "option name UCI_LimitStrength type check default false"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Elo type spin default ")
            && l.ends_with(&format!("min {MIN_ELO} max {MAX_ELO}"))));
    for bad in ["1000", "3500", "strong"] {
        e.send(&format!("setoption name UCI_Elo value {bad}"));
        e.send("isready");
        let lines = e.until("readyok", 10);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error") && l.contains(&MIN_ELO.to_string())),
            "{bad}: {lines:?}"
        );
    }
}

#[test]
fn a_limited_engine_plays_legal_moves_within_its_clock() {
    for elo in [MIN_ELO, 2000, MAX_ELO] {
        let mut e = Engine::start(&[]);
        e.send("uci");
        e.until("uciok", 10);
        e.send("setoption name OwnBook value false");
        e.send("setoption name UCI_LimitStrength value true");
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send("isready");
        let lines = e.until("readyok", 10);
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{elo}: {lines:?}"
        );
        let mut game = Game::new(Position::startpos());
        let mut moves: Vec<String> = Vec::new();
        // 1.5 s each and no increment: each level plays its moves under a
        // clock (how long a move took is for benchmarks: the clock's budget
        // is checked in the engine's time manager).
        let clock = 1_500;
        for _ in 0..16 {
            if game.outcome().is_some() {
                break;
            }
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send(&format!("go wtime {clock} btime {clock}"));
            let lines = e.until("bestmove", 10);
            let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
            let m = game
                .position()
                .parse_uci_move(best, CastlingMode::Standard)
                .unwrap_or_else(|_| panic!("Elo {elo}: illegal {best} after {moves:?}"));
            game.push(m);
            moves.push(best.to_string());
        }
    }
}

#[test]
fn xboard_sets_the_level_through_its_options() {
    let mut e = Engine::start(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1", 10).join("\n");
    e.send("accepted done");
    assert!(
        features.contains("feature option=\"UCI_LimitStrength -check 0\""),
        "{features}"
    );
    assert!(
        features.contains(&format!(
            "feature option=\"UCI_Elo -spin {DEFAULT_ELO} {MIN_ELO} {MAX_ELO}\""
        )),
        "{features}"
    );
    e.send("option UCI_Elo=99");
    e.send("ping 1");
    let lines = e.until("pong 1", 10);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Error") && l.contains(&MIN_ELO.to_string())),
        "{lines:?}"
    );
    e.send("new");
    e.send("option UCI_LimitStrength=1");
    e.send(&format!("option UCI_Elo={MIN_ELO}"));
    e.send("option OwnBook=0");
    e.send("st 1");
    e.send("ping 2");
    let lines = e.until("pong 2", 10);
    assert!(!lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
    let mut game = Game::new(Position::startpos());
    for _ in 0..4 {
        e.send("go");
        let lines = e.until("move ", 10);
        let mv = &lines.last().unwrap()[5..];
        let m = game
            .position()
            .parse_uci_move(mv, CastlingMode::Standard)
            .unwrap_or_else(|_| panic!("illegal {mv}"));
        game.push(m);
        e.send("force");
    }
}
