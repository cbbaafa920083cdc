//! The whole-game analysis pass (`/api/analysis`) and the opening names
//! (`/api/opening`) through the router: a known blunder found and judged,
//! the graph's data complete, a pass cancelled, a pass that yields to an
//! engine move and to live analysis and still finishes, a hidden
//! evaluation kept hidden until the game ends, results kept across an
//! undo, and the bad requests refused with a message.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use gui::book_source::BookSource;
use gui::host_guard::Access;
use gui::session::AppState;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

const PORT: u16 = 8080;

/// Légal's mate: 5... Bxd1 takes the queen and walks into mate in two.
const LEGAL: &str = "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0";

struct Api {
    router: axum::Router,
}

impl Api {
    fn new() -> Api {
        let state = Arc::new(AppState::new(BookSource::embedded(), None));
        Api {
            router: gui::router(state, Access::new("127.0.0.1", PORT)),
        }
    }

    async fn send(&self, req: Request<Body>) -> (StatusCode, Value) {
        let res = self.router.clone().oneshot(req).await.expect("answers");
        let status = res.status();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        let text = String::from_utf8_lossy(&bytes);
        let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON, got {text:?}"));
        (status, value)
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        let req = Request::get(path)
            .header("host", format!("127.0.0.1:{PORT}"))
            .body(Body::empty())
            .expect("request");
        self.send(req).await
    }

    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let req = Request::post(path)
            .header("host", format!("127.0.0.1:{PORT}"))
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        self.send(req).await
    }

    async fn ok(&self, path: &str, body: Value) -> Value {
        let (status, v) = self.post(path, body).await;
        assert_eq!(status, StatusCode::OK, "{path}: {v}");
        v
    }

    async fn game(&self, pgn: &str) -> String {
        let v = self.ok("/api/game", json!({})).await;
        let id = v["id"].as_str().expect("id").to_string();
        self.ok("/api/pgn", json!({"game": id, "pgn": pgn})).await;
        id
    }

    async fn review(&self, id: &str) -> Value {
        let (status, v) = self.get(&format!("/api/analysis?game={id}")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    }

    /// Waits for the pass to have analysed at least `n` positions.
    async fn analysed(&self, id: &str, n: u64) -> Value {
        let t0 = Instant::now();
        loop {
            let v = self.review(id).await;
            if v["analysed"].as_u64() >= Some(n) {
                return v;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(120),
                "the pass finds {n}: {v}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits for the pass to leave "running".
    async fn finished(&self, id: &str) -> Value {
        let t0 = Instant::now();
        loop {
            let v = self.review(id).await;
            if v["state"] != "running" {
                return v;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(120),
                "the pass ends: {v}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn refused(status: StatusCode, body: &Value, expected: StatusCode) {
    assert_eq!(status, expected, "{body}");
    assert!(
        body["error"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pass_finds_the_blunder_of_legals_mate() {
    let api = Api::new();
    let id = api.game(LEGAL).await;
    let v = api.review(&id).await;
    assert_eq!(
        (v["state"].as_str(), v["pass"].as_u64()),
        (Some("idle"), Some(0))
    );

    let v = api
        .ok("/api/analysis", json!({"game": id, "depth": 10}))
        .await;
    assert_eq!(v["state"], "running", "{v}");
    assert_eq!(v["total"], 14);
    let v = api.finished(&id).await;
    assert_eq!(v["state"], "done", "{v}");
    assert_eq!(v["analysed"], 14);
    let positions = v["positions"].as_array().expect("positions");
    assert!(positions.iter().all(|p| p["win"].is_number()), "{v}");
    // The mate at the end is White's: the graph's top edge.
    assert_eq!(positions[13]["win"], 100.0);
    assert_eq!(positions[13]["score"]["kind"], "mate");
    // Each position's best move in SAN and UCI (the page draws its arrow):
    // the mate in one before 7. Nd5#, none in the mated position.
    assert_eq!(
        (
            positions[12]["best"].as_str(),
            positions[12]["best_uci"].as_str()
        ),
        (Some("Nd5#"), Some("c3d5")),
        "{v}"
    );
    assert!(positions[13]["best_uci"].is_null(), "{v}");
    assert!(
        positions[..13]
            .iter()
            .all(|p| p["best_uci"].as_str().is_some_and(|u| u.len() == 4)),
        "{v}"
    );

    let moves = v["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 13);
    let bxd1 = &moves[9];
    assert_eq!(
        (bxd1["san"].as_str(), bxd1["side"].as_str()),
        (Some("Bxd1"), Some("b"))
    );
    assert_eq!(bxd1["judgement"], "blunder", "{bxd1}");
    assert!(bxd1["loss"].as_f64().expect("loss") >= 30.0, "{bxd1}");
    // White's mating moves lose nothing.
    for m in [&moves[10], &moves[12]] {
        assert!(m["judgement"].is_null(), "{m}");
    }
    let black = &v["summary"]["b"];
    assert!(black["blunders"].as_u64().expect("count") >= 1, "{black}");
    assert!(black["acpl"].as_i64().expect("acpl") > 100, "{black}");
    let white = &v["summary"]["w"];
    assert_eq!(white["blunders"], 0, "{white} {}", v["moves"]);
    assert!(
        white["accuracy"].as_f64().expect("accuracy")
            > black["accuracy"].as_f64().expect("accuracy")
    );

    // An undo keeps what was found before the move taken back.
    api.ok("/api/undo", json!({"game": id, "plies": 2})).await;
    let v = api.review(&id).await;
    assert_eq!(
        (v["total"].as_u64(), v["analysed"].as_u64()),
        (Some(12), Some(12)),
        "{v}"
    );
    // A new pass at the same limit has nothing left to search.
    let v = api
        .ok("/api/analysis", json!({"game": id, "depth": 10}))
        .await;
    assert_eq!(v["pass"], 2);
    assert_eq!(api.finished(&id).await["state"], "done");
}

/// The pass's best line of each judged move joins the tree on request,
/// as lichess adds its computer analysis: a variation from the position
/// before the move and lichess's comment on the move; asking again adds
/// nothing twice, and a move that is not judged is refused.
#[tokio::test(flavor = "multi_thread")]
async fn the_best_line_of_a_blunder_joins_the_tree_on_request() {
    let api = Api::new();
    let id = api.game(LEGAL).await;
    let (status, v) = api.post("/api/analysis/lines", json!({"game": id})).await;
    refused(status, &v, StatusCode::CONFLICT); // nothing analysed yet
    api.ok("/api/analysis", json!({"game": id, "depth": 8}))
        .await;
    let review = api.finished(&id).await;
    let best = review["positions"][9]["best"]
        .as_str()
        .expect("a best move before 5... Bxd1")
        .to_string();
    assert_eq!(review["moves"][9]["judgement"], "blunder", "{review}");
    let (status, v) = api
        .post("/api/analysis/lines", json!({"game": id, "ply": 1}))
        .await;
    refused(status, &v, StatusCode::BAD_REQUEST); // 1. e4 is no error

    let game = api
        .ok("/api/analysis/lines", json!({"game": id, "ply": 10}))
        .await;
    let nodes = game["nodes"].as_array().expect("nodes");
    let node = |id: &Value| &nodes[id.as_u64().expect("id") as usize];
    let nxe5 = &game["plies"][8]["node"];
    let bxd1 = &game["plies"][9]["node"];
    let children = node(nxe5)["children"].as_array().expect("children");
    assert_eq!(children.len(), 2, "{game}");
    let line_start = node(&children[1]);
    assert_eq!(
        line_start["san"].as_str(),
        Some(best.as_str()),
        "{line_start}"
    );
    assert!(!line_start["main"].as_bool().expect("main"), "{line_start}");
    let comment = node(bxd1)["comments"][0].as_str().expect("a comment");
    assert!(
        comment.starts_with('(') && comment.ends_with(&format!("Blunder. {best} was best.")),
        "{comment}"
    );
    // The main line and the result stay.
    assert_eq!(game["plies"].as_array().map(Vec::len), Some(13));
    assert_eq!(game["status"]["result"], "1-0");
    // Asked again, for every judged move: no line twice, the comment kept.
    let again = api.ok("/api/analysis/lines", json!({"game": id})).await;
    let again_nodes = again["nodes"].as_array().expect("nodes");
    assert_eq!(
        again_nodes[bxd1.as_u64().expect("id") as usize]["comments"][0].as_str(),
        Some(comment)
    );
    let variations_after_nxe5 = again_nodes[nxe5.as_u64().expect("id") as usize]["children"]
        .as_array()
        .map(Vec::len);
    assert_eq!(variations_after_nxe5, Some(2), "{again}");
    let (_, pgn) = api.get(&format!("/api/state?game={id}")).await;
    assert_eq!(pgn["plies"].as_array().map(Vec::len), Some(13));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pass_belongs_to_the_game_it_analysed() {
    let api = Api::new();
    let id = api.game("1. e4 e5 2. Nf3 d6 3. Bc4 *").await;
    api.ok("/api/analysis", json!({"game": id, "depth": 4}))
        .await;
    let done = api.finished(&id).await;
    assert_eq!(
        (done["state"].as_str(), done["analysed"].as_u64()),
        (Some("done"), Some(6)),
        "{done}"
    );
    // Another game sharing its first moves, imported into the same tab.
    api.ok(
        "/api/pgn",
        json!({"game": id, "pgn": "1. e4 e5 2. Nf3 d6 3. d4 *"}),
    )
    .await;
    let v = api.review(&id).await;
    assert_eq!(v["state"], "idle", "{v}");
    assert_eq!(v["analysed"], 0, "{v}");
    assert!(
        v["summary"].is_null()
            && v["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .all(Value::is_null),
        "{v}"
    );
    // Its own pass searches all of it.
    api.ok("/api/analysis", json!({"game": id, "depth": 4}))
        .await;
    assert_eq!(api.finished(&id).await["analysed"], 6);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pass_is_cancelled_and_keeps_what_it_found() {
    let api = Api::new();
    let id = api.game(LEGAL).await;
    api.ok("/api/analysis", json!({"game": id, "movetime_ms": 400}))
        .await;
    api.analysed(&id, 2).await;
    let v = api.ok("/api/analysis/cancel", json!({"game": id})).await;
    assert_eq!(v["state"], "cancelled", "{v}");
    let found = v["analysed"].as_u64().expect("count");
    assert!(found < 14, "{v}");
    // Nothing marks "no more results": a pass that went on would have
    // added one in this time (a position's search is 400 ms).
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        api.review(&id).await["analysed"].as_u64(),
        Some(found),
        "the pass stopped"
    );
    // A live search runs as usual afterwards.
    api.ok(
        "/api/go",
        json!({"game": id, "settings": {"depth": 3}, "ply": 4}),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pass_yields_to_engine_moves_and_analysis_and_still_finishes() {
    let api = Api::new();
    let id = api.game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6").await;
    api.ok("/api/analysis", json!({"game": id, "depth": 7}))
        .await;
    // An engine move and an analysis while the pass runs: both are served.
    let go = json!({"game": id, "settings": {"depth": 4, "own_book": false}, "play": true});
    api.ok("/api/go", go).await;
    let t0 = Instant::now();
    loop {
        let (_, s) = api.get(&format!("/api/state?game={id}")).await;
        if s["plies"].as_array().expect("plies").len() == 7 {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the engine moved: {s}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    api.ok(
        "/api/go",
        json!({"game": id, "settings": {"depth": 5}, "ply": 2}),
    )
    .await;
    let v = api.finished(&id).await;
    assert_eq!(v["state"], "done", "{v}");
    // The pass covered the game as it was when it started; the engine's
    // move came after it.
    assert_eq!(
        (v["analysed"].as_u64(), v["total"].as_u64()),
        (Some(7), Some(8)),
        "{v}"
    );
    assert!(v["positions"][7].is_null());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hidden_evaluation_stays_hidden_until_the_game_ends() {
    let api = Api::new();
    let id = api.game(LEGAL).await;
    api.ok("/api/analysis", json!({"game": id, "depth": 3}))
        .await;
    api.finished(&id).await;
    // A game against the engine with the evaluation hidden.
    api.ok("/api/position", json!({"game": id, "hide_eval": true}))
        .await;
    api.ok("/api/move", json!({"game": id, "move": "e4"})).await;
    let (status, body) = api.post("/api/analysis", json!({"game": id})).await;
    refused(status, &body, StatusCode::CONFLICT);
    let v = api.review(&id).await;
    assert_eq!(v["hidden"], true, "{v}");
    assert!(v["positions"].as_array().expect("list").is_empty(), "{v}");
    assert!(v["summary"].is_null(), "{v}");
    // Over: the game may be analysed.
    api.ok(
        "/api/end",
        json!({"game": id, "end": "resign", "side": "black"}),
    )
    .await;
    let v = api
        .ok("/api/analysis", json!({"game": id, "depth": 3}))
        .await;
    assert_eq!(v["hidden"], false);
    assert_eq!(api.finished(&id).await["analysed"], 2);
    // The game is final: no takeback reopens it and hides it again.
    let (status, body) = api.post("/api/undo", json!({"game": id})).await;
    refused(status, &body, StatusCode::CONFLICT);
    assert_eq!(api.review(&id).await["hidden"], false);
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_pass_requests_are_refused() {
    let api = Api::new();
    let id = api.game(LEGAL).await;
    for body in [
        json!({"game": id, "depth": 0}),
        json!({"game": id, "depth": 99}),
        json!({"game": id, "movetime_ms": 10_000_000}),
        json!({"game": id, "depth": 5, "movetime_ms": 100}),
        json!({"game": id, "nodes": 5}),
        json!({"game": id, "depth": "deep"}),
    ] {
        let (status, v) = api.post("/api/analysis", body.clone()).await;
        // 400 for a bad value, 422 for a body of the wrong shape.
        assert!(status.is_client_error(), "{body}: {status}");
        refused(status, &v, status);
    }
    assert_eq!(api.review(&id).await["state"], "idle");
    let (status, v) = api.post("/api/analysis", json!({"game": "nope"})).await;
    refused(status, &v, StatusCode::NOT_FOUND);
    let (status, v) = api.get("/api/analysis").await;
    refused(status, &v, StatusCode::BAD_REQUEST);
    let (status, v) = api
        .post("/api/analysis/cancel", json!({"game": "nope"}))
        .await;
    refused(status, &v, StatusCode::NOT_FOUND);
    // Cancelling when nothing runs is harmless.
    let v = api.ok("/api/analysis/cancel", json!({"game": id})).await;
    assert_eq!(v["state"], "idle");
}

#[tokio::test]
async fn openings_are_named_by_position() {
    let api = Api::new();
    let id = api.game("1. e4 c5 2. h3 h5").await;
    let (status, v) = api.get(&format!("/api/opening?game={id}")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let named = v["openings"].as_array().expect("list");
    let last = named.last().expect("named");
    assert_eq!(
        (last["ply"].as_u64(), last["eco"].as_str()),
        (Some(2), Some("B20"))
    );
    assert_eq!(last["name"], "Sicilian Defense");

    // The Queen's Gambit Declined reached from the English.
    let id = api.game("1. c4 e6 2. Nc3 d5 3. d4").await;
    let (_, v) = api.get(&format!("/api/opening?game={id}")).await;
    let last = v["openings"]
        .as_array()
        .and_then(|l| l.last().cloned())
        .expect("named");
    assert_eq!(
        (last["ply"].as_u64(), last["eco"].as_str()),
        (Some(5), Some("D31"))
    );

    let (status, v) = api.get("/api/opening?game=nope").await;
    refused(status, &v, StatusCode::NOT_FOUND);
}
