//! Drives `kestrel xboard` over pipes as XBoard would: the handshake, a whole
//! game the engine plays against itself on a clock (with `undo`, `remove`,
//! `ping` and bad input along the way), a human-style game with usermove,
//! `setboard` with a mate and the result claim, `ping` while thinking, draw
//! claims after the opponent's move, and the switch from UCI mode.

use chess::{CastlingMode, Game, Position};

mod common;

use common::Running as Engine;

impl Engine {
    /// Starts `kestrel xboard` and does the protover 2 handshake.
    fn xboard() -> Engine {
        let mut e = Engine::start(&["xboard"]);
        e.handshake();
        e
    }

    fn handshake(&mut self) -> Vec<String> {
        self.send("xboard");
        self.send("protover 2");
        let lines = self.until_line(|l| l == "feature done=1", 5);
        self.send("accepted done");
        lines
    }

    /// Sends `ping n` and returns the lines before `pong n`.
    fn ping(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        let mut lines = self.until_line(|l| l == pong, 10);
        lines.pop();
        lines
    }

    /// Waits for `move X`; returns X and the lines before it.
    fn engine_move(&mut self, secs: u64) -> (String, Vec<String>) {
        let mut lines = self.until_line(|l| l.starts_with("move "), secs);
        let mv = lines.pop().unwrap()[5..].to_string();
        (mv, lines)
    }
}

fn play(game: &mut Game, text: &str) {
    let m = game
        .position()
        .parse_uci_move(text, CastlingMode::Standard)
        .unwrap_or_else(|e| {
            panic!(
                "illegal engine move {text} at {}: {e}",
                game.position().fen()
            )
        });
    game.push(m);
}

#[test]
fn handshake_lists_features_and_options() {
    let mut e = Engine::start(&["xboard"]);
    let lines = e.handshake();
    let all = lines.join("\n");
    for feature in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "playother=1",
        "san=0",
        "time=1",
        "draw=1",
        "sigint=0",
        "sigterm=0",
        "reuse=1",
        "analyze=1",
        "colors=0",
        "variants=\"normal,fischerandom\"",
        "memory=1",
        "smp=1",
        "myname=\"Kestrel",
    ] {
        assert!(all.contains(feature), "missing {feature} in {all}");
    }
    assert!(
        all.contains("feature option=\"NullMove -check 1\""),
        "{all}"
    );
    assert!(
        all.contains("feature option=\"Contempt -spin 0 -200 200\""),
        "{all}"
    );
    assert!(
        all.contains("feature option=\"Clear Hash -button\""),
        "{all}"
    );
    assert!(
        all.contains(
            "feature option=\"BookPolicy -combo best /// *weighted /// uniform /// worst\""
        ),
        "{all}"
    );
}

#[test]
fn full_game_against_itself_with_undo_remove_and_bad_input() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("option OwnBook=0");
    e.send("memory 8");
    e.send("level 0 0:03 0.02");
    e.send("post");
    assert!(e.ping(1).is_empty());

    let mut game = Game::new(Position::startpos());
    let (mut mine, mut theirs) = (300i64, 300i64); // centiseconds: side to move, other side
    let mut ply = 0;
    while game.outcome().is_none() && ply < 160 {
        e.send("force");
        e.send(&format!("time {mine}"));
        e.send(&format!("otim {theirs}"));
        let start = std::time::Instant::now();
        e.send("go");
        let (mv, thinking) = e.engine_move(10);
        let used = start.elapsed().as_millis() as i64 / 10;
        assert!(
            used < mine + 50,
            "used {used} cs with {mine} cs on the clock"
        );
        for line in &thinking {
            // ply score time nodes pv
            let words: Vec<&str> = line.split_whitespace().collect();
            assert!(
                words.len() >= 4 && words[..4].iter().all(|w| w.parse::<i64>().is_ok()),
                "{line}"
            );
        }
        play(&mut game, &mv);
        mine = (mine - used).max(1) + 2;
        std::mem::swap(&mut mine, &mut theirs);
        ply += 1;
        match ply {
            6 => {
                // Bad input of every kind: answered, and nothing changes.
                e.send("force");
                for bad in [
                    "foo",
                    "usermove z9z9",
                    "e2e5",
                    "level 40",
                    "time abc",
                    "sd -3",
                    "st 0",
                    "memory lots",
                    "option NoSuchOption=1",
                    "setboard 8/8/8 w - - 0 1",
                    "variant crazyhouse",
                    "nps x",
                ] {
                    e.send(bad);
                }
                let answers = e.ping(2);
                assert_eq!(answers.len(), 12, "{answers:?}");
                assert!(
                    answers
                        .iter()
                        .all(|l| l.starts_with("Error (") || l.starts_with("Illegal move")),
                    "{answers:?}"
                );
                assert!(
                    answers.contains(&"Illegal move: e2e5".to_string())
                        || answers.iter().any(|l| l.starts_with("Illegal move: e2e5")),
                    "{answers:?}"
                );
            }
            10 => {
                // undo one ply: the same side moves again.
                e.send("force");
                e.send("undo");
                game.pop();
                std::mem::swap(&mut mine, &mut theirs);
                assert!(e.ping(3).is_empty());
            }
            14 => {
                // remove two plies.
                e.send("force");
                e.send("remove");
                game.pop();
                game.pop();
                assert!(e.ping(4).is_empty());
            }
            _ => {}
        }
    }
    if let Some(outcome) = game.outcome() {
        // The engine made the last move and said how the game ended.
        let claim = e.until_line(|l| l.contains(" {"), 5);
        assert!(
            claim.last().unwrap().starts_with(outcome.result()),
            "{claim:?} vs {outcome}"
        );
    }
    assert!(
        ply >= 40 || game.outcome().is_some(),
        "stopped after {ply} plies"
    );
}

#[test]
fn usermoves_setboard_claims_and_ping_while_thinking() {
    let mut e = Engine::xboard();
    // The engine plays Black after `new` and answers each usermove.
    e.send("new");
    e.send("st 0.2");
    let mut game = Game::new(Position::startpos());
    for mv in ["e2e4", "g1f3"] {
        e.send(&format!("usermove {mv}"));
        play(&mut game, mv);
        let (reply, _) = e.engine_move(5);
        play(&mut game, &reply);
    }
    // An illegal move is refused and the engine does not move.
    e.send("usermove e1e3");
    assert_eq!(e.ping(5), vec!["Illegal move: e1e3".to_string()]);

    // setboard + go: mate in one, then the claim.
    e.send("setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("sd 4");
    e.send("go");
    // ping while thinking is answered after the move.
    e.send("ping 6");
    let lines = e.until_line(|l| l == "pong 6", 10);
    let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix));
    assert_eq!(
        lines
            .iter()
            .find(|l| l.starts_with("move"))
            .map(String::as_str),
        Some("move d1d8")
    );
    assert!(at("move").unwrap() < at("pong").unwrap(), "{lines:?}");
    assert!(
        lines.contains(&"1-0 {White mates}".to_string())
            || e.until_line(|l| l.starts_with("1-0"), 5).last().unwrap() == "1-0 {White mates}"
    );

    // A draw by insufficient material after the opponent's move is claimed.
    e.send("new");
    e.send("setboard 8/8/8/4k3/8/8/3rK3/8 w - - 0 1");
    e.send("usermove e2d2");
    assert_eq!(
        e.ping(7),
        vec!["1/2-1/2 {Draw by insufficient material}".to_string()]
    );

    // hint and bk answer; result stops play.
    e.send("new");
    e.send("bk");
    let book = e.until_line(str::is_empty, 5);
    assert!(book.len() > 2 && book[0].starts_with('\t'), "{book:?}");
    e.send("result 1/2-1/2 {agreed}");
    assert!(e.ping(8).is_empty());
}

#[test]
fn analyze_mode_and_the_switch_from_uci() {
    // The line `xboard` in default (UCI) mode switches protocol.
    let mut e = Engine::start(&[]);
    e.handshake();
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    e.send("post");
    e.send("analyze");
    let thinking = e.until_line(|l| l.starts_with("6 "), 10);
    assert!(
        !thinking.iter().any(|l| l.starts_with("move")),
        "{thinking:?}"
    );
    // A move in analysis: analysis goes on from the new position.
    e.send("usermove e7e5");
    e.send("undo");
    e.send("exit");
    let lines = e.ping(9);
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("move") || l.starts_with("Error")),
        "{lines:?}"
    );
    e.send("sd 3");
    e.send("go");
    let (mv, _) = e.engine_move(10);
    let mut game = Game::new(Position::startpos());
    play(&mut game, "e2e4");
    play(&mut game, &mv);
}

#[test]
fn pondering_on_the_expected_reply_hit_and_miss() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("hard");
    e.send("option OwnBook=0");
    e.send("level 0 0:05 0");
    let mut game = Game::new(Position::startpos());
    e.send("usermove e2e4");
    play(&mut game, "e2e4");
    let (reply, _) = e.engine_move(5);
    play(&mut game, &reply);
    for hit in [true, false] {
        // While Kestrel ponders, `hint` says the reply it expects.
        e.send("hint");
        let hint = e.until_line(|l| l.starts_with("Hint: "), 5).pop().unwrap()[6..].to_string();
        let pos = *game.position();
        let mv = if hit {
            hint.clone()
        } else {
            pos.legal_moves()
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .find(|m| *m != hint)
                .unwrap()
        };
        e.send("time 450");
        e.send("otim 450");
        e.send(&format!("usermove {mv}"));
        play(&mut game, &mv);
        let (reply, _) = e.engine_move(5);
        play(&mut game, &reply);
    }
    assert!(e.ping(10).is_empty());
}

#[test]
fn draw_offers_accepted_only_when_worse() {
    let mut e = Engine::xboard();
    // Black (Kestrel) a queen down: it accepts.
    e.send("new");
    e.send("force");
    e.send("setboard 4k3/pppp4/8/8/8/8/PPPPQ3/4K3 b - - 0 1");
    e.send("sd 4");
    e.send("go");
    e.engine_move(10);
    e.send("draw");
    assert_eq!(e.ping(11), vec!["offer draw".to_string()]);
    // Level material: no answer, which declines.
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    e.send("sd 4");
    e.send("option OwnBook=0");
    e.send("go");
    e.engine_move(10);
    e.send("draw");
    assert!(e.ping(12).is_empty());
}

#[test]
fn egtpath_opens_syzygy_tables() {
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    let mut e = Engine::start(&["xboard"]);
    let features = e.handshake();
    assert!(
        features.iter().any(|l| l.contains("egt=\"syzygy\"")),
        "{features:?}"
    );
    e.send(&format!("egtpath syzygy {tables}"));
    let lines = e.ping(1);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("# Syzygy:") && l.contains("WDL")),
        "{lines:?}"
    );
    e.send("egtpath gaviota /nowhere");
    e.send("egtpath syzygy /no/such/dir");
    let lines = e.ping(2);
    assert!(
        lines.iter().any(|l| l.starts_with("Error (only syzygy")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("# error: Syzygy")),
        "{lines:?}"
    );
    // KQ v KR with White to move: a tablebase win, found without a search tree.
    e.send(&format!("egtpath syzygy {tables}"));
    e.send("setboard 8/8/8/8/2k5/8/1r6/K2Q4 w - - 0 1");
    e.send("post");
    e.send("sd 6");
    e.send("go");
    let (_, thinking) = e.engine_move(20);
    assert!(
        !thinking.iter().any(|l| l.starts_with("Error")),
        "{thinking:?}"
    );
}
