//! The page's games without a server, as the page's Worker meets them:
//! requests in, replies, events, orders for the engine's Worker and kept
//! copies out (crates/web's `games`), each answered as `kestrel gui`
//! answers it.

use chess::Position;
use gamerecord::search_report::SearchReport;
use gamerecord::view::ScoreView;
use serde_json::{json, Value};
use web::games::{Games, Input, Order, Output, Reply};
use web::search::{SearchOrder, Tagged};

fn request(games: &mut Games, method: &str, path: &str, body: Value) -> (Reply, Output) {
    let mut out = games.handle(Input::Request {
        id: 7,
        method: method.into(),
        path: path.into(),
        body: Some(body),
        date: "2026.11.28".into(),
    });
    let reply = out.replies.remove(0);
    (reply, out)
}

fn report(games: &mut Games, game: &str, search: u64, report: SearchReport) -> Output {
    let line = serde_json::to_string(&Tagged {
        game: game.into(),
        search,
        report,
    })
    .expect("serialises");
    games.handle(Input::Report { line })
}

fn line(pv: &[&str]) -> SearchReport {
    SearchReport::Line {
        depth: 3,
        seldepth: 4,
        multipv: 1,
        score: ScoreView::Cp(20),
        bound: None,
        nodes: 100,
        time_ms: 2,
        tbhits: 0,
        pv: pv.iter().map(ToString::to_string).collect(),
    }
}

fn types(out: &Output) -> Vec<String> {
    out.events
        .iter()
        .map(|e| {
            let v: Value = serde_json::from_str(&e.data).expect("json");
            v["type"].as_str().unwrap_or("").to_string()
        })
        .collect()
}

fn new_game(games: &mut Games) -> String {
    let (reply, _) = request(games, "POST", "/api/game", json!({}));
    assert_eq!(reply.status, 200);
    let view = reply.json.expect("a view");
    view["id"].as_str().expect("an id").to_string()
}

/// A PGN file chosen in the page is the explorer's second collection,
/// with the filters; none given, too large or nothing to explore are
/// refused saying what to do.
#[test]
fn the_players_own_games_are_explored_from_a_chosen_file() {
    let mut games = Games::new();
    let id = new_game(&mut games);
    let (none, _) = request(
        &mut games,
        "GET",
        &format!("/api/explorer?game={id}&db=mine"),
        Value::Null,
    );
    assert_eq!(none.status, 404);
    let pgn = "[White \"Me\"]\n[Black \"You\"]\n[Date \"2024.01.01\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";
    let (own, _) = request(
        &mut games,
        "POST",
        "/api/explorer/own",
        json!({"name": "mine.pgn", "text": pgn}),
    );
    assert_eq!(own.status, 200, "{:?}", own.json);
    assert_eq!(own.json.as_ref().unwrap()["games"], 2);
    let (options, _) = request(&mut games, "GET", "/api/options", Value::Null);
    let options = options.json.expect("options");
    assert_eq!(options["own_games"]["files"][0], "mine.pgn");
    assert_eq!(options["own_games_upload"], true);
    let (x, _) = request(
        &mut games,
        "GET",
        &format!("/api/explorer?game={id}&db=mine&since=2024"),
        Value::Null,
    );
    let x = x.json.expect("a view");
    assert_eq!(
        (
            x["source"].as_str(),
            x["white"].as_u64(),
            x["black"].as_u64()
        ),
        (Some("mine"), Some(1), Some(0))
    );
    let (masters, _) = request(
        &mut games,
        "GET",
        &format!("/api/explorer?game={id}"),
        Value::Null,
    );
    assert_eq!(masters.json.expect("masters")["source"], "masters");
    let (game, _) = request(
        &mut games,
        "GET",
        "/api/explorer/game?id=1&db=mine",
        Value::Null,
    );
    assert!(game.text.expect("PGN").contains("1. d4 d5"));
    let (bad, _) = request(
        &mut games,
        "POST",
        "/api/explorer/own",
        json!({"name": "x.pgn", "text": "[Result \"*\"]\n\n1. e4 *\n"}),
    );
    assert_eq!(bad.status, 400);
    let (db, _) = request(
        &mut games,
        "GET",
        &format!("/api/explorer?game={id}&db=other"),
        Value::Null,
    );
    assert_eq!(db.status, 400);
}

/// A game changed goes out as a copy to keep, once per change; given
/// back after a reload (a fresh Worker) it is the same game under the
/// same id: moves, variation, comment, end, the node on view.
#[test]
fn a_kept_game_comes_back_after_a_reload_as_it_was() {
    let mut games = Games::seeded(5);
    let id = new_game(&mut games);
    let (_, out) = request(
        &mut games,
        "POST",
        "/api/position",
        json!({"game": id, "vs_engine": true}),
    );
    assert_eq!(out.saved.len(), 1, "the new position is kept");
    let mut copy = Value::Null;
    for mv in ["e4", "e5", "Nf3"] {
        let (reply, out) = request(
            &mut games,
            "POST",
            "/api/move",
            json!({"game": id, "move": mv}),
        );
        assert_eq!(reply.status, 200);
        assert_eq!(out.saved.len(), 1, "each move changes the copy");
        assert_eq!(out.saved[0].game, id);
        copy = out.saved[0].data.clone();
    }
    let (_, out) = request(
        &mut games,
        "GET",
        &format!("/api/state?game={id}"),
        Value::Null,
    );
    assert!(out.saved.is_empty(), "a look changes nothing");
    let (_, out) = request(
        &mut games,
        "POST",
        "/api/end",
        json!({"game": id, "end": "resign", "side": "black"}),
    );
    copy = out.saved.first().map_or(copy, |s| s.data.clone());
    let (before, _) = request(
        &mut games,
        "GET",
        &format!("/api/state?game={id}"),
        Value::Null,
    );
    let pgn = |games: &mut Games| {
        request(games, "GET", &format!("/api/pgn?game={id}"), Value::Null)
            .0
            .text
    };
    let before_pgn = pgn(&mut games);

    // The page reloaded: a fresh Worker, which has not got the game
    // until the page gives its copy back.
    let mut fresh = Games::seeded(9);
    let (missing, _) = request(
        &mut fresh,
        "GET",
        &format!("/api/state?game={id}"),
        Value::Null,
    );
    assert_eq!(missing.status, 404);
    let (back, out) = request(
        &mut fresh,
        "POST",
        "/api/restore",
        json!({"game": id, "saved": copy}),
    );
    assert_eq!(back.status, 200, "{:?}", back.json);
    assert!(out.saved.is_empty(), "the copy given back is the one kept");
    assert_eq!(
        back.json, before.json,
        "the same view, id and version included"
    );
    assert_eq!(pgn(&mut fresh), before_pgn);
    let (undo, _) = request(&mut fresh, "POST", "/api/undo", json!({"game": id}));
    assert_eq!(undo.status, 409, "still final");
    let (again, _) = request(
        &mut fresh,
        "POST",
        "/api/restore",
        json!({"game": id, "saved": copy}),
    );
    assert_eq!(again.status, 409, "no game restored over an open one");
    let (bad, _) = request(
        &mut fresh,
        "POST",
        "/api/restore",
        json!({"game": "../x", "saved": copy}),
    );
    assert_eq!(bad.status, 400);
    let mut broken = copy.clone();
    broken["current"] = json!([0, 0, 0, 0, 0, 0]);
    let (bad, _) = request(
        &mut fresh,
        "POST",
        "/api/restore",
        json!({"game": "abc", "saved": broken}),
    );
    assert_eq!(bad.status, 400, "{:?}", bad.json);
}

#[test]
fn the_page_plays_and_reads_its_game_as_from_the_server() {
    let mut games = Games::new();
    let id = new_game(&mut games);
    let (reply, _) = request(
        &mut games,
        "POST",
        "/api/move",
        json!({"game": id, "move": "e4"}),
    );
    assert_eq!(reply.status, 200);
    let view = reply.json.expect("a view");
    assert_eq!(view["plies"][0]["san"], "e4");
    let (pgn, _) = request(
        &mut games,
        "GET",
        &format!("/api/pgn?game={id}"),
        Value::Null,
    );
    let text = pgn.text.expect("PGN text");
    assert!(
        text.contains("[Date \"2026.11.28\"]") && text.contains("1. e4"),
        "{text}"
    );
    let (illegal, _) = request(
        &mut games,
        "POST",
        "/api/move",
        json!({"game": id, "move": "Ke3"}),
    );
    assert_eq!(illegal.status, 400);
    let (missing, _) = request(&mut games, "GET", "/api/state?game=nope", Value::Null);
    assert_eq!(missing.status, 404);
    let message = missing.json.expect("an error")["error"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        message.starts_with("no game 'nope'"),
        "the page's test for a lost game: {message}"
    );
    let (book, _) = request(
        &mut games,
        "GET",
        &format!("/api/book?game={id}"),
        Value::Null,
    );
    assert_eq!(book.status, 200, "the embedded book: {:?}", book.json);
    let moves = book.json.as_ref().unwrap()["moves"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        moves
            .iter()
            .any(|m| m["uci"] == "e7e5" || m["uci"] == "c7c5"),
        "the book's replies to 1.e4: {moves:?}"
    );
    let (add, _) = request(&mut games, "POST", "/api/book/add", json!({"game": id}));
    assert_eq!(add.status, 501, "said, not failed");
    let (explorer, _) = request(
        &mut games,
        "GET",
        &format!("/api/explorer?game={id}"),
        Value::Null,
    );
    let moves = explorer.json.as_ref().expect("the explorer")["moves"]
        .as_array()
        .map_or(0, Vec::len);
    assert!(moves > 0, "the master games' replies to 1. e4");
    // The filters, as the server takes them: fewer games, never more.
    let total = |v: &Value| {
        ["white", "draws", "black"]
            .iter()
            .map(|k| v[k].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    let all = total(explorer.json.as_ref().expect("the explorer"));
    let (some, _) = request(
        &mut games,
        "GET",
        &format!("/api/explorer?game={id}&min_rating=2600&since=2000&until=2020"),
        Value::Null,
    );
    let some = some.json.expect("the filtered explorer");
    assert_eq!(some["filtered"], true);
    assert!(total(&some) > 0 && total(&some) < all, "{some}");
    let (bad, _) = request(
        &mut games,
        "GET",
        &format!("/api/explorer?game={id}&since=x"),
        Value::Null,
    );
    assert_eq!(bad.status, 400);
    let (game, _) = request(&mut games, "GET", "/api/explorer/game?id=0", Value::Null);
    assert!(game.text.expect("a PGN").contains("[White "));
    let (none, _) = request(&mut games, "GET", "/api/explorer/game?id=x", Value::Null);
    assert_eq!(none.status, 400);
    let (options, _) = request(&mut games, "GET", "/api/options", Value::Null);
    let options = options.json.expect("options");
    assert_eq!(
        (options["tablebase"].as_bool(), options["levels"].as_bool()),
        (Some(true), Some(true))
    );
    // The compiled-in tables answer a 4-piece ending, every move listed.
    let (game, _) = request(
        &mut games,
        "POST",
        "/api/game",
        json!({"fen": "8/8/8/8/8/1k6/1p6/1K2R3 w - - 0 1"}),
    );
    let tb_id = game.json.expect("a view")["id"]
        .as_str()
        .expect("id")
        .to_string();
    let (tb, _) = request(
        &mut games,
        "GET",
        &format!("/api/tablebase?game={tb_id}"),
        Value::Null,
    );
    let tb = tb.json.expect("the panel");
    assert_eq!(
        (&tb["found"], &tb["category"]),
        (&json!(true), &json!("win"))
    );
    assert_eq!(tb["moves"].as_array().map(Vec::len), Some(12), "{tb}");
    let (opening, _) = request(
        &mut games,
        "GET",
        &format!("/api/opening?game={id}"),
        Value::Null,
    );
    assert_eq!(opening.status, 200);
}

#[test]
fn analysis_goes_to_the_engine_and_stale_lines_never_reach_the_page() {
    let mut games = Games::new();
    let id = new_game(&mut games);
    let go = json!({"game": id, "settings": {"infinite": true, "own_book": false, "options": {"MultiPV": 2}}});
    let (reply, out) = request(&mut games, "POST", "/api/go", go.clone());
    assert_eq!(reply.json.expect("an answer")["search"], 1);
    assert_eq!(types(&out), ["started"]);
    let Some(Order::Search { order, .. }) = out.orders.first() else {
        panic!("a search order: {:?}", out.orders);
    };
    let order: SearchOrder = serde_json::from_str(order).expect("the engine reads it");
    assert_eq!(order.root, Position::startpos().fen());
    let out = report(&mut games, &id, 1, line(&["e2e4", "e7e5"]));
    assert_eq!(types(&out), ["info"]);
    // A second analysis supersedes the first: stop, then search.
    let (_, out) = request(&mut games, "POST", "/api/go", go);
    assert_eq!(types(&out), ["stopped", "started"]);
    assert_eq!(out.orders.first(), Some(&Order::Stop));
    // The first search's late line and end are dropped; the page
    // stops the second (analysis off): its end comes, its lines not.
    assert!(types(&report(&mut games, &id, 1, line(&["d2d4"]))).is_empty());
    let (_, out) = request(
        &mut games,
        "POST",
        "/api/stop",
        json!({"game": id, "purpose": "analysis"}),
    );
    assert_eq!(types(&out), ["stopped"]);
    assert_eq!(out.orders, [Order::Stop]);
    assert!(types(&report(&mut games, &id, 2, line(&["d2d4"]))).is_empty());
    // Replaced to stop it, the search answers its last line's move.
    let out = games.handle(Input::Replaced {
        game: id.clone(),
        search: 2,
    });
    assert_eq!(types(&out), ["bestmove"]);
    assert!(
        out.events[0].data.contains(r#""played":false"#),
        "{}",
        out.events[0].data
    );
}

/// Whether the search `out` orders starts from a clear table.
fn clears_table(out: &Output) -> bool {
    let Some(Order::Search { order, .. }) = out.orders.last() else {
        panic!("a search order: {:?}", out.orders);
    };
    let order: SearchOrder = serde_json::from_str(order).expect("the engine reads it");
    order.new_game
}

#[test]
fn the_table_is_cleared_for_another_game_or_a_game_started_again() {
    let mut games = Games::new();
    let a = new_game(&mut games);
    let b = new_game(&mut games);
    let go = |id: &str| json!({"game": id, "settings": {"depth": 2, "own_book": false}});
    let (_, out) = request(&mut games, "POST", "/api/go", go(&a));
    assert!(clears_table(&out), "the first search of the page");
    let (_, out) = request(&mut games, "POST", "/api/go", go(&a));
    assert!(
        !clears_table(&out),
        "the same game again keeps what it learnt"
    );
    let (_, out) = request(&mut games, "POST", "/api/go", go(&b));
    assert!(
        clears_table(&out),
        "another game: as its own engine on the server"
    );
    request(
        &mut games,
        "POST",
        "/api/position",
        json!({"game": b, "fen": "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"}),
    );
    let (_, out) = request(&mut games, "POST", "/api/go", go(&b));
    assert!(clears_table(&out), "a new position is ucinewgame");
    let (_, out) = request(&mut games, "POST", "/api/go", go(&b));
    assert!(!clears_table(&out));
    request(
        &mut games,
        "POST",
        "/api/pgn",
        json!({"game": b, "pgn": "1. d4 d5 *"}),
    );
    let (_, out) = request(&mut games, "POST", "/api/go", go(&b));
    assert!(clears_table(&out), "and so is an import");
}

#[test]
fn an_engine_move_is_played_and_a_draw_offer_answered_when_weighed() {
    let mut games = Games::new();
    let id = new_game(&mut games);
    request(
        &mut games,
        "POST",
        "/api/position",
        json!({"game": id, "vs_engine": true, "hide_eval": true}),
    );
    let (refused, _) = request(
        &mut games,
        "POST",
        "/api/go",
        json!({"game": id, "play": true, "settings": {"infinite": true}}),
    );
    assert_eq!(refused.status, 400);
    let go = json!({"game": id, "play": true, "settings": {"depth": 2, "own_book": false}});
    let (_, out) = request(&mut games, "POST", "/api/go", go);
    assert_eq!(types(&out), ["started"]);
    // Hidden: no line reaches the page, the move played does.
    assert!(types(&report(&mut games, &id, 1, line(&["e2e4"]))).is_empty());
    let best = SearchReport::Best {
        best: Some("e2e4".into()),
        time_ms: 40,
    };
    let out = report(&mut games, &id, 1, best);
    assert_eq!(types(&out), ["state", "bestmove"]);
    let mut games_out = games.handle(Input::Request {
        id: 9,
        method: "POST".into(),
        path: "/api/draw".into(),
        body: Some(json!({"game": id})),
        date: "2026.11.28".into(),
    });
    assert!(games_out.replies.is_empty(), "answered once weighed");
    let Some(Order::Search { search, .. }) = games_out.orders.pop() else {
        panic!("the probe's search");
    };
    // Level at move 1, the side offering a fifth of a pawn down: declined.
    report(&mut games, &id, search, line(&["e7e5"]));
    let out = report(
        &mut games,
        &id,
        search,
        SearchReport::Best {
            best: Some("e7e5".into()),
            time_ms: 700,
        },
    );
    assert!(out.events.is_empty(), "the page hears nothing of the probe");
    let answer = &out.replies[0];
    assert_eq!(answer.id, 9);
    assert_eq!(answer.json.as_ref().expect("an answer")["accepted"], false);
}

#[test]
fn the_review_searches_each_position_in_turn_and_yields_to_the_page() {
    let mut games = Games::new();
    let id = new_game(&mut games);
    for mv in ["e4", "e5"] {
        request(
            &mut games,
            "POST",
            "/api/move",
            json!({"game": id, "move": mv}),
        );
    }
    let (reply, mut out) = request(&mut games, "POST", "/api/analysis", json!({"game": id}));
    assert_eq!(reply.json.expect("a view")["state"], "running");
    let lines = [["e2e4"], ["e7e5"], ["g1f3"]];
    for (i, pv) in lines.iter().enumerate() {
        let Some(Order::Search { search, order, .. }) = out.orders.pop() else {
            panic!("a search of position {i}: {:?}", out.orders);
        };
        let order: SearchOrder = serde_json::from_str(&order).expect("an order");
        assert_eq!(order.history.len(), i, "the positions before it");
        if i == 1 {
            // The page's search pre-empts the pass, which searches the
            // position again once it is over.
            let go = json!({"game": id, "play": true, "settings": {"depth": 1, "own_book": false}});
            let (_, page) = request(&mut games, "POST", "/api/go", go);
            let Some(Order::Search { search: theirs, .. }) = page.orders.last() else {
                panic!("the page's search");
            };
            let theirs = *theirs;
            report(
                &mut games,
                &id,
                search,
                SearchReport::Best {
                    best: None,
                    time_ms: 1,
                },
            );
            report(&mut games, &id, theirs, line(&["g1f3"]));
            out = report(
                &mut games,
                &id,
                theirs,
                SearchReport::Best {
                    best: Some("g1f3".into()),
                    time_ms: 5,
                },
            );
            assert_eq!(types(&out)[..2], ["state", "bestmove"]);
            let Some(Order::Search { search, .. }) = out.orders.pop() else {
                panic!("the pass goes on");
            };
            // The engine's move came after this position: its result stands,
            // as on the server (`Review::store` keeps what the game still holds).
            report(&mut games, &id, search, line(pv));
            let out = report(
                &mut games,
                &id,
                search,
                SearchReport::Best {
                    best: Some(pv[0].into()),
                    time_ms: 300,
                },
            );
            assert_eq!(types(&out), ["analysis"]);
            assert!(
                out.events[0].data.contains(r#""analysed":2"#),
                "{}",
                out.events[0].data
            );
            return;
        }
        report(&mut games, &id, search, line(pv));
        out = report(
            &mut games,
            &id,
            search,
            SearchReport::Best {
                best: Some(pv[0].into()),
                time_ms: 300,
            },
        );
        assert_eq!(types(&out), ["analysis"]);
    }
}

// ---------- a finished game is final (issue 63), request by request ----------

/// A game against the engine, `1. e4 e5 2. Nf3`, that White resigned:
/// its id and view.
fn finished_game(games: &mut Games) -> (String, Value) {
    let id = new_game(games);
    request(
        games,
        "POST",
        "/api/position",
        json!({"game": id, "vs_engine": true}),
    );
    for mv in ["e4", "e5", "Nf3"] {
        let (reply, _) = request(games, "POST", "/api/move", json!({"game": id, "move": mv}));
        assert_eq!(reply.status, 200, "{:?}", reply.json);
    }
    let (reply, _) = request(
        games,
        "POST",
        "/api/end",
        json!({"game": id, "end": "resign", "side": "white"}),
    );
    let view = reply.json.expect("a view");
    assert_eq!(view["status"]["final"], true, "{view}");
    (id, view)
}

/// What a finished game keeps: its main line's moves and its status.
fn kept(v: &Value) -> Value {
    let sans: Vec<Value> = v["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .map(|p| p["san"].clone())
        .collect();
    json!({"plies": sans, "status": v["status"]})
}

/// Sends `path` with the body `make` writes from the finished game's
/// id and view, expects `status` (a refusal with a message for 4xx),
/// checks that the record is as it was, and returns the answer.
fn on_finished(path: &str, make: impl Fn(&str, &Value) -> Value, status: u16) -> Value {
    let mut games = Games::new();
    let (id, before) = finished_game(&mut games);
    let (reply, _) = request(&mut games, "POST", path, make(&id, &before));
    let answer = reply.json.unwrap_or(Value::Null);
    assert_eq!(reply.status, status, "{path}: {answer}");
    if status >= 400 {
        assert!(
            answer["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{answer}"
        );
    }
    let (state, _) = request(
        &mut games,
        "GET",
        &format!("/api/state?game={id}"),
        Value::Null,
    );
    assert_eq!(kept(&state.json.expect("a view")), kept(&before), "{path}");
    let (pgn, _) = request(
        &mut games,
        "GET",
        &format!("/api/pgn?game={id}"),
        Value::Null,
    );
    let text = pgn.text.expect("PGN");
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    answer
}

fn ply_node(v: &Value, i: usize) -> Value {
    v["plies"][i]["node"].clone()
}

#[test]
fn a_finished_game_refuses_a_move_after_its_end() {
    on_finished("/api/move", |id, _| json!({"game": id, "move": "Nc6"}), 409);
}

#[test]
fn a_finished_game_takes_a_move_before_its_end_as_a_variation() {
    let v = on_finished(
        "/api/move",
        |id, _| json!({"game": id, "move": "d4", "from": 0}),
        200,
    );
    assert_eq!(v["nodes"][0]["children"].as_array().map(Vec::len), Some(2));
}

#[test]
fn a_finished_game_refuses_a_takeback() {
    let e = on_finished("/api/undo", |id, _| json!({"game": id, "plies": 2}), 409);
    assert!(
        e["error"]
            .as_str()
            .unwrap_or("")
            .starts_with("the game is over (0-1, White resigns)"),
        "{e}"
    );
}

#[test]
fn a_finished_game_refuses_deleting_its_moves() {
    on_finished(
        "/api/delete",
        |id, v| json!({"game": id, "node": ply_node(v, 1)}),
        409,
    );
}

#[test]
fn a_finished_game_refuses_a_variation_as_its_main_line() {
    let mut games = Games::new();
    let (id, before) = finished_game(&mut games);
    let (reply, _) = request(
        &mut games,
        "POST",
        "/api/move",
        json!({"game": id, "move": "d4", "from": 0}),
    );
    let side = reply.json.expect("a view")["current"].clone();
    for main in [true, false] {
        let (reply, _) = request(
            &mut games,
            "POST",
            "/api/promote",
            json!({"game": id, "node": side, "main": main}),
        );
        assert_eq!(reply.status, 409, "{:?}", reply.json);
    }
    let (reply, _) = request(
        &mut games,
        "POST",
        "/api/delete",
        json!({"game": id, "node": side}),
    );
    assert_eq!(reply.status, 200, "the variation goes");
    let (state, _) = request(
        &mut games,
        "GET",
        &format!("/api/state?game={id}"),
        Value::Null,
    );
    assert_eq!(kept(&state.json.expect("a view")), kept(&before));
}

#[test]
fn a_finished_game_refuses_a_new_position() {
    on_finished("/api/position", |id, _| json!({"game": id}), 409);
}

#[test]
fn a_finished_game_refuses_an_imported_pgn() {
    on_finished(
        "/api/pgn",
        |id, _| json!({"game": id, "pgn": "1. d4 d5 *"}),
        409,
    );
}

#[test]
fn a_finished_game_refuses_another_end() {
    on_finished("/api/end", |id, _| json!({"game": id, "end": "draw"}), 409);
}

#[test]
fn a_finished_game_refuses_an_engine_move_after_its_end() {
    on_finished(
        "/api/go",
        |id, _| json!({"game": id, "settings": {"depth": 1}, "play": true}),
        409,
    );
}

#[test]
fn a_finished_game_refuses_a_draw_offer() {
    on_finished("/api/draw", |id, _| json!({"game": id}), 409);
}

#[test]
fn a_finished_game_takes_comments_and_clocks_but_keeps_its_record() {
    on_finished(
        "/api/annotate",
        |id, v| json!({"game": id, "node": ply_node(v, 0), "comment": "studied"}),
        200,
    );
    on_finished(
        "/api/clock",
        |id, v| json!({"game": id, "node": ply_node(v, 2), "ms": 1000}),
        200,
    );
    on_finished(
        "/api/tags",
        |id, _| json!({"game": id, "tags": {"Result": "1-0"}}),
        400,
    );
    on_finished("/api/analysis/lines", |id, _| json!({"game": id}), 409);
}

#[test]
fn a_finished_games_kept_pgn_comes_back_final() {
    let mut games = Games::new();
    let (id, before) = finished_game(&mut games);
    let (pgn, _) = request(
        &mut games,
        "GET",
        &format!("/api/pgn?game={id}"),
        Value::Null,
    );
    // The Worker's games go with a reload: the page restores its copy.
    let fresh = new_game(&mut games);
    let (reply, _) = request(
        &mut games,
        "POST",
        "/api/pgn",
        json!({"game": fresh, "pgn": pgn.text.expect("PGN"), "vs_engine": true}),
    );
    assert_eq!(reply.status, 200, "{:?}", reply.json);
    assert_eq!(kept(&reply.json.expect("a view")), kept(&before));
    let (undo, _) = request(&mut games, "POST", "/api/undo", json!({"game": fresh}));
    assert_eq!(undo.status, 409);
}
