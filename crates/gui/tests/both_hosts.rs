//! The page's requests through both of its hosts, answer by answer:
//! `kestrel gui`'s router (no socket) and the page without a server
//! (crates/web's `Games`, as its Worker runs it). Each request of a game's
//! life (every change, the reads, the refusals) goes to both; their
//! statuses and answers must be the same, the games' ids aside (each host
//! makes its own). A request the two answer differently is a drift of one
//! host from gamerecord's request layer.

use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use gui::book_source::BookSource;
use gui::host_guard::Access;
use gui::session::AppState;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;
use web::games::{Games, Input};

/// Where `{game}` stands in a request's path or body.
const GAME: &str = "{game}";

/// A host's answer: its status, and its body (JSON read, its keys in
/// any order; else the text) with the game's id as [`GAME`].
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    body: Value,
}

impl Answer {
    fn new(status: u16, text: &str, game: &str) -> Answer {
        let text = if game.is_empty() {
            text.to_string()
        } else {
            text.replace(game, GAME)
        };
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer { status, body }
    }
}

/// The id in a new game's answer.
fn id_of(answer: &str) -> String {
    let view: Value = serde_json::from_str(answer).expect("a view");
    view["id"].as_str().expect("an id").to_string()
}

/// The server, through its router.
struct Server {
    router: axum::Router,
    game: String,
}

impl Server {
    async fn send(&mut self, method: &str, path: &str, body: &str) -> Answer {
        let path = path.replace(GAME, &self.game);
        let body = body.replace(GAME, &self.game);
        let req = Request::builder()
            .method(method)
            .uri(&path)
            .header("host", "127.0.0.1:8080")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .expect("a request");
        let res = self.router.clone().oneshot(req).await.expect("answers");
        let status = res.status().as_u16();
        let bytes = res.into_body().collect().await.expect("a body").to_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if path == "/api/game" && status == 200 {
            self.game = id_of(&text);
        }
        Answer::new(status, &text, &self.game)
    }
}

/// The page without a server, as its Worker is given requests.
struct Worker {
    games: Games,
    game: String,
    date: String,
}

impl Worker {
    fn send(&mut self, method: &str, path: &str, body: &str) -> Answer {
        let path = path.replace(GAME, &self.game);
        let body: Option<Value> = if method == "GET" {
            None
        } else {
            Some(serde_json::from_str(&body.replace(GAME, &self.game)).expect("a JSON body"))
        };
        let mut out = self.games.handle(Input::Request {
            id: 1,
            method: method.into(),
            path: path.clone(),
            body,
            date: self.date.clone(),
        });
        let reply = out.replies.pop().expect("a reply");
        let text = match (reply.json, reply.text) {
            (Some(json), _) => json.to_string(),
            (None, Some(text)) => text,
            (None, None) => String::new(),
        };
        if path == "/api/game" && reply.status == 200 {
            self.game = id_of(&text);
        }
        Answer::new(reply.status, &text, &self.game)
    }
}

/// What is compared of an answer: its status, and its body unless only
/// the status is the same by design (`Status`: the words name the host).
enum Compare {
    All,
    Status,
}

/// A game's life, request by request, with what each must answer.
fn script() -> Vec<(&'static str, &'static str, Value, u16, Compare)> {
    use Compare::{All, Status};
    let g = GAME;
    vec![
        ("POST", "/api/game", json!({}), 200, All),
        (
            "POST",
            "/api/move",
            json!({"game": g, "move": "e4"}),
            200,
            All,
        ),
        (
            "POST",
            "/api/move",
            json!({"game": g, "move": "e5"}),
            200,
            All,
        ),
        (
            "POST",
            "/api/move",
            json!({"game": g, "move": "Ke3"}),
            400,
            All,
        ),
        (
            "POST",
            "/api/move",
            json!({"game": g, "move": "d4", "from": 0}),
            200,
            All,
        ),
        ("POST", "/api/goto", json!({"game": g, "node": 2}), 200, All),
        (
            "POST",
            "/api/goto",
            json!({"game": g, "node": 99}),
            404,
            All,
        ),
        (
            "POST",
            "/api/promote",
            json!({"game": g, "node": 3}),
            200,
            All,
        ),
        (
            "POST",
            "/api/promote",
            json!({"game": g, "node": 3, "main": true}),
            200,
            All,
        ),
        (
            "POST",
            "/api/annotate",
            json!({"game": g, "node": 1, "comment": "the king's pawn", "nags": [1]}),
            200,
            All,
        ),
        (
            "POST",
            "/api/annotate",
            json!({"game": g, "node": 1, "comment": "}"}),
            400,
            All,
        ),
        (
            "POST",
            "/api/clock",
            json!({"game": g, "node": 1, "ms": 60000}),
            409,
            All,
        ),
        (
            "POST",
            "/api/tags",
            json!({"game": g, "tags": {"White": "You"}}),
            200,
            All,
        ),
        (
            "POST",
            "/api/tags",
            json!({"game": g, "tags": {"Result": "1-0"}}),
            400,
            All,
        ),
        (
            "POST",
            "/api/delete",
            json!({"game": g, "node": 2}),
            200,
            All,
        ),
        (
            "POST",
            "/api/delete",
            json!({"game": g, "node": 0}),
            400,
            All,
        ),
        ("POST", "/api/undo", json!({"game": g}), 200, All),
        (
            "POST",
            "/api/undo",
            json!({"game": g, "plies": 0}),
            409,
            All,
        ),
        ("GET", "/api/state?game={game}", Value::Null, 200, All),
        ("GET", "/api/legal?game={game}", Value::Null, 200, All),
        ("GET", "/api/pgn?game={game}", Value::Null, 200, All),
        ("GET", "/api/opening?game={game}", Value::Null, 200, All),
        ("GET", "/api/tablebase?game={game}", Value::Null, 200, All),
        ("GET", "/api/analysis?game={game}", Value::Null, 200, All),
        ("POST", "/api/analysis/lines", json!({"game": g}), 409, All),
        ("POST", "/api/analysis/cancel", json!({"game": g}), 200, All),
        ("POST", "/api/stop", json!({"game": g}), 200, All),
        (
            "POST",
            "/api/engine",
            json!({"game": g, "hash_mib": 8}),
            200,
            All,
        ),
        (
            "POST",
            "/api/pgn",
            json!({"game": g, "pgn": "1. f3 e5 2. g4 Qh4# 0-1"}),
            200,
            All,
        ),
        (
            "POST",
            "/api/pgn",
            json!({"game": g, "pgn": "1. e5 *"}),
            400,
            All,
        ),
        (
            "POST",
            "/api/position",
            json!({"game": g, "fen": "8/8 w"}),
            400,
            All,
        ),
        (
            "POST",
            "/api/position",
            json!({"game": g, "fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "vs_engine": true}),
            200,
            All,
        ),
        (
            "POST",
            "/api/move",
            json!({"game": g, "move": "e3", "from": 0}),
            200,
            All,
        ),
        (
            "POST",
            "/api/clock",
            json!({"game": g, "node": 1, "ms": 60000}),
            200,
            All,
        ),
        (
            "POST",
            "/api/end",
            json!({"game": g, "end": "resign"}),
            400,
            All,
        ),
        (
            "POST",
            "/api/end",
            json!({"game": g, "end": "resign", "side": "white"}),
            200,
            All,
        ),
        (
            "POST",
            "/api/end",
            json!({"game": g, "end": "draw"}),
            409,
            All,
        ),
        (
            "POST",
            "/api/move",
            json!({"game": g, "move": "Kd8"}),
            409,
            All,
        ),
        ("POST", "/api/undo", json!({"game": g}), 409, All),
        ("GET", "/api/pgn?game={game}", Value::Null, 200, All),
        // Refusals that are not the game's.
        ("POST", "/api/move", json!({"game": g}), 422, All),
        ("POST", "/api/tags", json!({"game": g, "tags": 3}), 422, All),
        ("POST", "/api/nothing", json!({"game": g}), 404, All),
        ("GET", "/api/state", Value::Null, 400, All),
        (
            "POST",
            "/api/move",
            json!({"game": "ffff", "move": "e4"}),
            404,
            Status,
        ),
    ]
}

#[tokio::test]
async fn every_request_is_answered_alike_by_the_server_and_the_page_without_one() {
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    let mut server = Server {
        router: gui::router(state, Access::new("127.0.0.1", 8080)),
        game: String::new(),
    };
    let mut worker = Worker {
        games: Games::seeded(7),
        game: String::new(),
        date: pgn::today(),
    };
    for (method, path, body, status, compare) in script() {
        let body = body.to_string();
        let here = server.send(method, path, &body).await;
        let there = worker.send(method, path, &body);
        let what = format!("{method} {path} {body}");
        assert_eq!(here.status, status, "{what}: the server answered {here:?}");
        match compare {
            Compare::All => assert_eq!(here, there, "{what}: the two hosts differ"),
            Compare::Status => assert_eq!(here.status, there.status, "{what}: {there:?}"),
        }
    }
}
