//! Playing levels through the engine: at every level a mate in one is
//! played, a queen offered for nothing is taken and a queen in danger is
//! saved, and a limited search under a clock answers.

use std::sync::Arc;

use chess::{CastlingMode, Position};
use engine::strength::{MAX_ELO, MIN_ELO};
use engine::{Engine, Limits};

fn limited(elo: i64, seed: u64) -> Engine {
    let mut e = Engine::new();
    e.set_option("UCI_LimitStrength", "true").unwrap();
    e.set_option("UCI_Elo", &elo.to_string()).unwrap();
    e.set_level_seed(seed);
    e
}

/// The moves a level plays in `fen` over several seeds (fresh engine each).
fn moves_played(fen: &str, elo: i64, seeds: u64) -> Vec<String> {
    let pos = Position::from_fen(fen).unwrap();
    (0..seeds)
        .map(|seed| {
            let mut e = limited(elo, seed);
            let r = e.search(&pos, &[], Limits::default(), Arc::new(|_| {}));
            r.best.unwrap().to_uci(CastlingMode::Standard).to_string()
        })
        .collect()
}

#[test]
fn every_level_plays_a_mate_in_one() {
    // Back-rank mate, smothered mate, and a queen mate beside quiet moves that also win.
    let cases = [
        ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8"),
        ("6rk/6pp/7N/8/8/8/6PP/6K1 w - - 0 1", "h6f7"),
        ("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "b1b8"),
    ];
    for elo in [MIN_ELO, 1800, MAX_ELO] {
        for (fen, mate) in cases {
            for mv in moves_played(fen, elo, 12) {
                assert_eq!(mv, mate, "Elo {elo} in {fen}");
            }
        }
    }
}

#[test]
fn the_lowest_level_takes_a_free_queen() {
    let fen = "4k3/pp6/8/3q4/8/8/PP6/3RK3 w - - 0 1";
    for mv in moves_played(fen, MIN_ELO, 30) {
        assert_eq!(mv, "d1d5");
    }
}

#[test]
fn the_lowest_level_saves_its_queen() {
    // The queen on e4 is attacked by the d5 pawn; every other move loses it.
    let fen = "6k1/pp6/8/3p4/4Q3/8/PP6/4K3 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    for mv in moves_played(fen, MIN_ELO, 30) {
        assert!(mv.starts_with("e4"), "{mv} leaves the queen");
        // And not onto a square where it is lost: a full search after the
        // move must not give Black a queen's worth.
        let m = pos
            .parse_uci_move(&mv, CastlingMode::Standard)
            .expect("legal");
        let mut after = pos;
        after.play_unchecked(m);
        let r = Engine::new().search(&after, &[], Limits::depth(6), Arc::new(|_| {}));
        assert!(r.score < 300, "{mv}: Black gets {}", r.score);
    }
}

#[test]
fn a_level_varies_its_moves_but_a_seed_repeats_them() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let moves = moves_played(start, MIN_ELO, 20);
    let distinct: std::collections::BTreeSet<_> = moves.iter().collect();
    assert!(distinct.len() > 1, "always {:?}", moves[0]);
    assert_eq!(moves_played(start, MIN_ELO, 20), moves);
}

#[test]
fn a_level_under_a_clock_answers_with_a_move() {
    // A level searches under the clock's budget like the full engine
    // (timeman's `budget_never_exceeds_the_clock` checks the budget); how
    // long the search took on this machine is for benchmarks, not a test.
    let pos = Position::startpos();
    let mut e = limited(MAX_ELO, 1);
    let limits = Limits {
        wtime: Some(1_000),
        btime: Some(1_000),
        ..Limits::default()
    };
    let r = e.search(&pos, &[], limits, Arc::new(|_| {}));
    assert!(r.best.is_some());
}

#[test]
fn out_of_range_levels_are_refused() {
    let mut e = Engine::new();
    let (low, high) = ((MIN_ELO - 1).to_string(), (MAX_ELO + 1).to_string());
    for bad in [low.as_str(), high.as_str(), "strong", ""] {
        let err = e.set_option("UCI_Elo", bad).unwrap_err().to_string();
        let range = format!("a number from {MIN_ELO} to {MAX_ELO}");
        assert!(err.contains(&range), "{err}");
    }
    assert!(e.set_option("UCI_LimitStrength", "maybe").is_err());
    assert!(e.level().is_none());
    e.set_option("uci_limitstrength", "true").unwrap();
    assert_eq!(e.level().unwrap().elo, engine::strength::DEFAULT_ELO);
}
