//! The JSON API, request by request, through the router (no socket), plus
//! the event stream over a real socket: each endpoint's answer, and the
//! bad requests (malformed JSON, illegal moves, bad FEN and PGN, huge
//! bodies, unknown games) answered 4xx with a message, the game unchanged.

#[path = "../../../tests/common/tools.rs"]
mod tools;

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

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/syzygy");

/// The port the router believes it serves (no socket: requests name it in Host).
const PORT: u16 = 8080;

fn access(port: u16) -> Access {
    Access::new("127.0.0.1", port)
}

struct Api {
    router: axum::Router,
}

impl Api {
    fn new() -> Api {
        Api::with(BookSource::embedded(), None)
    }

    fn with(book: BookSource, tables: Option<&str>) -> Api {
        let tables = tables.map(|p| Arc::new(syzygy::SyzygyTablebase::open(p).expect("tables").0));
        Api {
            router: gui::router(Arc::new(AppState::new(book, tables)), access(PORT)),
        }
    }

    /// Sends `req` as the page would: with Host naming the server unless it has one.
    async fn send(&self, mut req: Request<Body>) -> (StatusCode, String) {
        if !req.headers().contains_key("host") {
            let host = format!("127.0.0.1:{PORT}").parse().expect("header");
            req.headers_mut().insert("host", host);
        }
        let res = self.router.clone().oneshot(req).await.expect("answers");
        let status = res.status();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        let (status, text) = self
            .send(Request::get(path).body(Body::empty()).expect("request"))
            .await;
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    async fn post_raw(&self, path: &str, body: impl Into<Body>) -> (StatusCode, Value) {
        let req = Request::post(path)
            .header("content-type", "application/json")
            .body(body.into())
            .expect("request");
        let (status, text) = self.send(req).await;
        let value =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON answer, got {text:?}"));
        (status, value)
    }

    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.post_raw(path, body.to_string()).await
    }

    async fn new_game(&self) -> String {
        let (status, v) = self.post("/api/game", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v["id"].as_str().expect("id").to_string()
    }

    /// The game's PGN export (`GET /api/pgn`), which must be served.
    async fn pgn(&self, id: &str) -> String {
        let (status, text) = self
            .send(
                Request::get(format!("/api/pgn?game={id}"))
                    .body(Body::empty())
                    .expect("request"),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{text}");
        text
    }

    async fn state(&self, id: &str) -> Value {
        let (status, v) = self.get(&format!("/api/state?game={id}")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    }
}

/// A 4xx answer with a message.
fn assert_refused(status: StatusCode, body: &Value, expected: StatusCode) {
    assert_eq!(status, expected, "{body}");
    assert!(
        body["error"].as_str().is_some_and(|m| !m.is_empty()),
        "a message: {body}"
    );
}

#[tokio::test]
async fn games_moves_and_undo() {
    let api = Api::new();
    let id = api.new_game().await;
    let s = api.state(&id).await;
    assert_eq!(s["legal"].as_array().expect("legal").len(), 20);
    assert_eq!(s["status"]["result"], "*");

    let (status, s) = api
        .post("/api/move", json!({"game": id, "move": "e2e4"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let (status, s2) = api
        .post("/api/move", json!({"game": id, "move": "Nf6"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{s2}");
    assert_eq!(s2["plies"][1]["san"], "Nf6");
    assert_eq!(s2["turn"], "w");
    assert!(s2["version"].as_u64() > s["version"].as_u64());

    let (status, legal) = api.get(&format!("/api/legal?game={id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(legal
        .as_array()
        .expect("list")
        .iter()
        .any(|m| m["san"] == "e5"));

    let (status, s) = api.post("/api/undo", json!({"game": id, "plies": 2})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["plies"].as_array().expect("plies").len(), 0);
    let (status, body) = api.post("/api/undo", json!({"game": id})).await;
    assert_refused(status, &body, StatusCode::CONFLICT);

    // Each tab has its own game.
    let other = api.new_game().await;
    assert_ne!(other, id);
    api.post("/api/move", json!({"game": other, "move": "d4"}))
        .await;
    assert_eq!(
        api.state(&id).await["plies"]
            .as_array()
            .expect("plies")
            .len(),
        0
    );
}

#[tokio::test]
async fn bad_requests_are_refused_with_a_message_and_change_nothing() {
    let api = Api::new();
    let id = api.new_game().await;
    api.post("/api/move", json!({"game": id, "move": "e4"}))
        .await;
    let before = api.state(&id).await;

    let (status, body) = api
        .post("/api/move", json!({"game": id, "move": "e4"}))
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    let (status, body) = api
        .post("/api/move", json!({"game": id, "move": "e7e6q"}))
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    let (status, body) = api.post_raw("/api/move", "{\"game\": ").await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    let (status, body) = api.post("/api/move", json!({"game": id})).await;
    assert!(status.is_client_error(), "{status}");
    assert!(body["error"].is_string());
    let (status, body) = api
        .post("/api/move", json!({"game": "nope", "move": "e5"}))
        .await;
    assert_refused(status, &body, StatusCode::NOT_FOUND);
    let (status, body) = api
        .post(
            "/api/position",
            json!({"game": id, "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}),
        )
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().expect("message").contains("king"),
        "{body}"
    );
    let (status, body) = api
        .post("/api/pgn", json!({"game": id, "pgn": "1. e4 e5 2. Ke3 *"}))
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    let huge = json!({"game": id, "pgn": "1. e4 ".repeat(300_000)}).to_string();
    let (status, body) = api.post_raw("/api/pgn", huge).await;
    assert_refused(status, &body, StatusCode::PAYLOAD_TOO_LARGE);
    let (status, body) = api
        .post("/api/go", json!({"game": id, "settings": {"depth": 0}}))
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    let (status, body) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"depth": 2, "options": {"Hash": 1024}}}),
        )
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    let (status, body) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"depth": 2, "options": {"MultiPV": "many"}}}),
        )
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    let (status, body) = api.get("/api/state?game=missing").await;
    assert_refused(status, &body, StatusCode::NOT_FOUND);

    assert_eq!(api.state(&id).await, before);
}

#[tokio::test]
async fn positions_fen_and_pgn_round_trip() {
    let api = Api::new();
    let id = api.new_game().await;
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let (status, s) = api
        .post("/api/position", json!({"game": id, "fen": fen}))
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["start_fen"], fen);
    let promotions: Vec<&Value> = s["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter(|m| m["from"] == "a7")
        .collect();
    assert_eq!(promotions.len(), 4);
    let (status, s) = api
        .post("/api/move", json!({"game": id, "move": "a8=Q+"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["check"], true);

    let pgn = "[Event \"Test\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
    let (status, s) = api.post("/api/pgn", json!({"game": id, "pgn": pgn})).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["status"]["over"], true);
    assert_eq!(s["status"]["result"], "1-0");
    assert_eq!(s["status"]["reason"], "White mates");
    let (status, body) = api
        .post("/api/move", json!({"game": id, "move": "Ke7"}))
        .await;
    assert_refused(status, &body, StatusCode::CONFLICT);

    let text = api.pgn(&id).await;
    assert!(text.contains("[White \"A\"]"), "{text}");
    assert!(text.contains("4. Qxf7# 1-0"), "{text}");

    let (status, s) = api.post("/api/position", json!({"game": id})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["fen"], chess::fen::STARTPOS);
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let api = Api::new();
    for (path, needle) in [
        ("/", "<title>Kestrel</title>"),
        ("/play", "<title>Kestrel</title>"),
        ("/analysis", "<title>Kestrel</title>"),
        ("/editor", "<title>Kestrel</title>"),
        ("/pages.js", "setPage"),
        ("/board.js", "Chessground"),
        ("/app.js", "EventSource"),
        ("/match.js", "wtime_ms"),
        ("/variations.js", "renderMoveTree"),
        ("/style.css", "#board"),
        ("/keys.js", "SHORTCUTS"),
        ("/annotate.js", "/api/annotate"),
        ("/themes.js", "PIECE_THEMES"),
        ("/chessground.js", "export{"),
        ("/chessground.css", "cg-board"),
        ("/pieces/wK.svg", "<svg"),
        ("/pieces/cburnett/bQ.svg", "<svg"),
        ("/pieces/dejavu/wN.svg", "<svg"),
    ] {
        let (status, text) = api
            .send(Request::get(path).body(Body::empty()).expect("request"))
            .await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(text.contains(needle), "{path}");
    }
    for missing in [
        "/pieces/xX.svg",
        "/pieces/dejavu/xX.svg",
        "/pieces/nope/wK.svg",
    ] {
        let (status, _) = api
            .send(Request::get(missing).body(Body::empty()).expect("request"))
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
    }
    let (status, _) = api
        .send(
            Request::get("/../Cargo.toml")
                .body(Body::empty())
                .expect("request"),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn options_come_from_the_engine() {
    let api = Api::new();
    let (status, v) = api.get("/api/options").await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = v["options"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|o| o["name"].as_str())
        .collect();
    for p in engine::SearchParams::list() {
        assert!(names.contains(&p.name), "{} is offered", p.name);
    }
    assert!(names.contains(&"Evaluator"));
    assert!(!names.contains(&"Hash"));
    let has_levels = names.contains(&"UCI_LimitStrength") && names.contains(&"UCI_Elo");
    assert_eq!(v["levels"], has_levels);
}

#[tokio::test]
async fn the_book_is_shown_and_moves_are_added_to_a_text_book_only() {
    let api = Api::new();
    let id = api.new_game().await;
    let (status, b) = api.get(&format!("/api/book?game={id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!b["moves"].as_array().expect("moves").is_empty());
    assert_eq!(b["writable"], false);
    api.post("/api/move", json!({"game": id, "move": "e4"}))
        .await;
    let (status, body) = api.post("/api/book/add", json!({"game": id})).await;
    assert_refused(status, &body, StatusCode::CONFLICT);

    let dir = std::env::temp_dir().join(format!("kestrel-gui-api-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("added.txt");
    let api = Api::with(BookSource::open(&path).expect("new text book"), None);
    let id = api.new_game().await;
    api.post("/api/move", json!({"game": id, "move": "h3"}))
        .await;
    let (status, v) = api.post("/api/book/add", json!({"game": id})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["added"], "h3");
    api.post("/api/undo", json!({"game": id})).await;
    let (_, b) = api.get(&format!("/api/book?game={id}")).await;
    assert_eq!(b["moves"][0]["san"], "h3");
    assert!(std::fs::read_to_string(&path)
        .expect("written")
        .contains("h3"));
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[tokio::test]
async fn the_explorer_shows_the_master_games_and_loads_one() {
    let api = Api::new();
    let id = api.new_game().await;
    let (status, x) = api.get(&format!("/api/explorer?game={id}")).await;
    assert_eq!(status, StatusCode::OK, "{x}");
    let collection = x["collection"].as_u64().expect("collection");
    assert!(collection > 12_000, "{x}");
    let total = ["white", "draws", "black"].map(|k| x[k].as_u64().expect(k));
    assert_eq!(total.iter().sum::<u64>(), collection);
    let moves = x["moves"].as_array().expect("moves");
    let first: Vec<&str> = moves
        .iter()
        .take(2)
        .filter_map(|m| m["san"].as_str())
        .collect();
    assert!(first.contains(&"e4") && first.contains(&"d4"), "{first:?}");
    for m in moves {
        let sum = ["white", "draws", "black"].map(|k| m[k].as_u64().expect(k));
        assert_eq!(Some(sum.iter().sum::<u64>()), m["games"].as_u64(), "{m}");
    }
    // After 1.e4 c5 the masters mostly play 2.Nf3; transposed or not, the
    // counts are the position's.
    for san in ["e4", "c5"] {
        api.post("/api/move", json!({"game": id, "move": san}))
            .await;
    }
    let (_, x) = api.get(&format!("/api/explorer?game={id}")).await;
    assert_eq!(x["moves"][0]["san"], "Nf3", "{x}");
    assert_eq!(x["moves"][0]["uci"], "g1f3", "{x}");
    // Filtered as lichess's (issue 63): fewer games, each top game within
    // the rating and the years; a bound that is not a number refused.
    let games = |x: &Value| {
        ["white", "draws", "black"]
            .map(|k| x[k].as_u64().unwrap_or(0))
            .iter()
            .sum::<u64>()
    };
    let (status, f) = api
        .get(&format!(
            "/api/explorer?game={id}&min_rating=2600&since=2000&until=2025"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{f}");
    assert_eq!(f["filtered"], true, "{f}");
    assert!(
        games(&f) > 0 && games(&f) < games(&x),
        "{} of {}",
        games(&f),
        games(&x)
    );
    for g in f["top_games"].as_array().expect("top games") {
        let mean =
            (g["white_elo"].as_u64().unwrap_or(0) + g["black_elo"].as_u64().unwrap_or(0)) / 2;
        let year = g["year"].as_u64().unwrap_or(0);
        assert!(mean >= 2600 && (2000..=2025).contains(&year), "{g}");
    }
    let (status, body) = api.get(&format!("/api/explorer?game={id}&since=x")).await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);

    // A top game loads as PGN, read back by the import.
    let game = &x["top_games"][0];
    let number = game["id"].as_u64().expect("id");
    let (status, text) = api
        .send(
            Request::get(format!("/api/explorer/game?id={number}"))
                .body(Body::empty())
                .expect("request"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let white = game["white"].as_str().expect("white");
    assert!(text.contains(&format!("[White \"{white}\"]")), "{text}");
    let (status, v) = api.post("/api/pgn", json!({"game": id, "pgn": text})).await;
    assert_eq!(status, StatusCode::OK, "{v}");

    // Bad numbers are refused with what to do.
    let (status, body) = api.get("/api/explorer/game?id=99999999").await;
    assert_refused(status, &body, StatusCode::NOT_FOUND);
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|m| m.contains("numbered from 0")),
        "{body}"
    );
    let (status, body) = api.get("/api/explorer/game?id=e4").await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
}

/// The tablebase panel (issue 63): without `--syzygy-path` the 3- and
/// 4-piece tables compiled in answer, every legal move with its value and
/// DTZ, win first and the shortest win first; with a path its tables come
/// first; a position of more pieces is not found.
#[tokio::test]
async fn the_tables_answer_every_move_with_no_set_up() {
    let api = Api::new();
    let options = api.get("/api/options").await.1;
    assert_eq!(
        (&options["tablebase"], &options["tablebase_pieces"]),
        (&json!(true), &json!(4))
    );
    // KR v KP, which the test folder has not got: the compiled-in tables.
    let (_, s) = api
        .post(
            "/api/game",
            json!({"fen": "8/8/8/8/8/1k6/1p6/1K2R3 w - - 0 1"}),
        )
        .await;
    let id = s["id"].as_str().expect("id");
    let (status, t) = api.get(&format!("/api/tablebase?game={id}")).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(
        (&t["found"], &t["category"]),
        (&json!(true), &json!("win")),
        "{t}"
    );
    let moves = t["moves"].as_array().expect("moves");
    assert_eq!(
        moves.len(),
        s["legal"].as_array().expect("legal").len(),
        "{t}"
    );
    let rank = |m: &Value| match m["category"].as_str().unwrap_or("") {
        "win" => 4,
        "cursed-win" => 3,
        "draw" => 2,
        "blessed-loss" => 1,
        _ => 0,
    };
    for pair in moves.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert!(
            rank(a) > rank(b) || (rank(a) == rank(b) && a["dtz"].as_i64() <= b["dtz"].as_i64()),
            "sorted: {a} before {b}"
        );
    }
    assert!(moves[0]["san"].is_string() && moves[0]["dtz"].as_i64() > Some(0));

    let api = Api::with(BookSource::embedded(), Some(TABLES));
    let (_, s) = api
        .post("/api/game", json!({"fen": "8/8/8/8/8/2k5/8/K6Q w - - 0 1"}))
        .await;
    let id = s["id"].as_str().expect("id");
    let (status, t) = api.get(&format!("/api/tablebase?game={id}")).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!((&t["found"], &t["category"]), (&json!(true), &json!("win")));
    assert_eq!(t["moves"][0]["category"], "win");
    let (_, s) = api.post("/api/game", json!({})).await;
    let id = s["id"].as_str().expect("id");
    let (_, t) = api.get(&format!("/api/tablebase?game={id}")).await;
    assert_eq!(t["found"], false);
}

/// `SyzygyPath` set in the page (issue 63): its tables are the server's
/// from then on, for the tablebase panel (and the engines' next searches),
/// `/api/options` says so; directories without tables are refused, the
/// tables left as they were; an empty path goes back to the server's own.
#[tokio::test]
async fn syzygy_path_set_in_the_page_feeds_the_tablebase_panel() {
    let api = Api::new();
    let options = api.get("/api/options").await.1;
    assert_eq!(
        (&options["syzygy_path"], &options["syzygy_settable"]),
        (&Value::Null, &json!(true))
    );
    let (status, r) = api.post("/api/syzygy", json!({"path": TABLES})).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!((&r["path"], &r["pieces"]), (&json!(TABLES), &json!(4)));
    assert_eq!(
        api.get("/api/options").await.1["syzygy_path"],
        json!(TABLES)
    );
    let (_, s) = api
        .post("/api/game", json!({"fen": "8/8/8/8/8/2k5/8/K6Q w - - 0 1"}))
        .await;
    let id = s["id"].as_str().expect("id");
    let (status, t) = api.get(&format!("/api/tablebase?game={id}")).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!((&t["found"], &t["category"]), (&json!(true), &json!("win")));
    let empty = std::env::temp_dir();
    let (status, r) = api
        .post(
            "/api/syzygy",
            json!({"path": format!("{}/no-such-tables-{}", empty.display(), std::process::id())}),
        )
        .await;
    assert_refused(status, &r, StatusCode::BAD_REQUEST);
    assert!(
        r["error"].as_str().unwrap_or("").starts_with("SyzygyPath "),
        "{r}"
    );
    assert_eq!(
        api.get("/api/options").await.1["syzygy_path"],
        json!(TABLES),
        "kept as they were"
    );
    let (status, r) = api.post("/api/syzygy", json!({"path": ""})).await;
    assert_eq!((status, &r["path"]), (StatusCode::OK, &Value::Null));
}

/// The player's own games (`--explorer`): "mine" beside the masters in
/// the options and the explorer, a game of theirs as PGN; none given is
/// a 404 that says how to give them.
#[tokio::test]
async fn own_games_are_the_explorers_second_collection() {
    let api = Api::new();
    let id = api.new_game().await;
    let (status, body) = api.get(&format!("/api/explorer?game={id}&db=mine")).await;
    assert_refused(status, &body, StatusCode::NOT_FOUND);
    assert!(
        body["error"].as_str().unwrap_or("").contains("--explorer"),
        "{body}"
    );
    let own = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/famous_games.pgn"
    );
    let games = gui::own_games(&[std::path::PathBuf::from(own)]).expect("indexed");
    let state = AppState::new(BookSource::embedded(), None).with_own_games(Some(Arc::new(games)));
    let api = Api {
        router: gui::router(Arc::new(state), access(PORT)),
    };
    let options = api.get("/api/options").await.1;
    assert_eq!(options["own_games"]["files"], json!(["famous_games.pgn"]));
    assert_eq!(options["own_games"]["games"], json!(3));
    let id = api.new_game().await;
    let (status, x) = api
        .get(&format!("/api/explorer?game={id}&db=mine&since=1900"))
        .await;
    assert_eq!(status, StatusCode::OK, "{x}");
    assert_eq!(
        (&x["source"], &x["collection"], &x["white"]),
        (&json!("mine"), &json!(3), &json!(2))
    );
    let (status, body) = api
        .get(&format!("/api/explorer?game={id}&db=lichess"))
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    let (status, text) = api
        .send(
            Request::get("/api/explorer/game?id=2&db=mine")
                .body(Body::empty())
                .expect("request"),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.contains("Anderssen"), "{text}");
    let missing = gui::own_games(&[std::path::PathBuf::from("/no/such/file.pgn")])
        .err()
        .expect("no file");
    assert!(missing.contains("cannot read"), "{missing}");
}

/// Waits until the game has `plies` moves.
async fn wait_for_plies(api: &Api, id: &str, plies: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let s = api.state(id).await;
        if s["plies"].as_array().expect("plies").len() >= plies {
            return s;
        }
        assert!(Instant::now() < deadline, "no engine move: {s}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_engine_plays_and_analyses() {
    let api = Api::new();
    let id = api.new_game().await;
    // With the book on, the start position's move comes from the book.
    let (status, v) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"depth": 3}, "play": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let s = wait_for_plies(&api, &id, 1).await;
    assert!(s["plies"][0]["time_ms"].is_null(), "a book move: {s}");

    // Without it the engine searches, and its move carries its time.
    let settings = json!({"depth": 3, "own_book": false, "options": {"Evaluator": "Simple"}});
    let (status, v) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": settings, "play": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let s = wait_for_plies(&api, &id, 2).await;
    assert!(
        s["plies"][1]["time_ms"].is_u64(),
        "engine moves carry their time: {s}"
    );

    // Analysis runs until stopped and plays nothing.
    let (status, _) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"infinite": true, "options": {"MultiPV": 2}}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, _) = api.post("/api/stop", json!({"game": id})).await;
    assert_eq!(status, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        api.state(&id).await["plies"]
            .as_array()
            .expect("plies")
            .len(),
        2
    );
    // A stopped engine move is forgotten, not played.
    let settings = json!({"movetime_ms": 20_000, "own_book": false});
    let (status, _) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": settings, "play": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(100)).await;
    api.post("/api/stop", json!({"game": id})).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        api.state(&id).await["plies"]
            .as_array()
            .expect("plies")
            .len(),
        2
    );
    let (status, body) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"infinite": true}, "play": true}),
        )
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    // Analysing a viewed position: a ply past the game, or a move played there, is refused.
    let (status, body) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"depth": 2}, "ply": 99}),
        )
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
}

/// Reads server-sent events from a raw socket until `done` says so.
async fn read_events(
    stream: &mut tokio::net::TcpStream,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    use tokio::io::AsyncReadExt;
    let mut text = String::new();
    let mut events = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut buf = vec![0u8; 65536];
    while !done(&events) {
        assert!(Instant::now() < deadline, "events so far: {events:?}");
        let n = tokio::time::timeout(Duration::from_secs(30), stream.read(&mut buf))
            .await
            .expect("events come")
            .expect("reads");
        assert!(n > 0, "the stream ended");
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
        events = text
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str(d).ok())
            .collect();
    }
    events
}

/// `state` served on a socket (for event streams) and through the router.
struct Served {
    api: Api,
    addr: std::net::SocketAddr,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Served {
    async fn new(state: &Arc<AppState>) -> Served {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("port");
        let addr = listener.local_addr().expect("address");
        let router = gui::router(state.clone(), access(addr.port()));
        let server = tokio::spawn(async move { axum::serve(listener, router).await });
        let api = Api {
            router: gui::router(state.clone(), access(PORT)),
        };
        Served { api, addr, server }
    }

    /// Opens game `id`'s event stream and waits for its greeting.
    async fn events(&self, id: &str) -> tokio::net::TcpStream {
        use tokio::io::AsyncWriteExt;
        let mut stream = tokio::net::TcpStream::connect(self.addr)
            .await
            .expect("connects");
        let request = format!("GET /api/events?game={id} HTTP/1.1\r\nHost: localhost:{}\r\nAccept: text/event-stream\r\n\r\n", self.addr.port());
        stream.write_all(request.as_bytes()).await.expect("sends");
        read_events(&mut stream, |e| e.iter().any(|v| v["type"] == "hello")).await;
        stream
    }
}

/// Has the engine play a move in game `id` and returns the events until
/// the new state and the search's own report of its move (which comes after).
async fn engine_plays(
    api: &Api,
    stream: &mut tokio::net::TcpStream,
    id: &str,
    settings: Value,
) -> Vec<Value> {
    api.post(
        "/api/go",
        json!({"game": id, "settings": settings, "play": true}),
    )
    .await;
    read_events(stream, |e| {
        e.iter().any(|v| v["type"] == "state") && e.iter().any(|v| v["type"] == "bestmove")
    })
    .await
}

#[tokio::test]
async fn engine_output_streams_and_stops_when_the_stream_closes() {
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    let served = Served::new(&state).await;
    let api = &served.api;
    let id = api.new_game().await;

    let mut stream = served.events(&id).await;

    let settings = json!({"depth": 5, "own_book": false, "options": {"MultiPV": 2}});
    let events = engine_plays(api, &mut stream, &id, settings).await;
    let infos: Vec<&Value> = events.iter().filter(|v| v["type"] == "info").collect();
    assert!(
        infos.iter().any(|v| v["multipv"] == 2),
        "MultiPV lines: {infos:?}"
    );
    let last = infos.last().expect("info");
    assert!(last["depth"].as_i64() >= Some(1));
    assert!(last["pv"][0]["san"].is_string() && last["pv"][0]["fen"].is_string());
    assert!(last["score"]["kind"].is_string() && last["nps"].is_u64());
    assert!(events
        .iter()
        .any(|v| v["type"] == "bestmove" && v["played"] == true));
    assert!(events.iter().any(|v| v["type"] == "stats"));

    // The position viewed in the move list is analysed, and its lines name it.
    api.post(
        "/api/go",
        json!({"game": id, "settings": {"depth": 3, "own_book": false}, "ply": 0}),
    )
    .await;
    let earlier = read_events(&mut stream, |e| {
        e.iter()
            .any(|v| v["type"] == "bestmove" && v["move"]["from"].is_string())
    })
    .await;
    let lines: Vec<&Value> = earlier.iter().filter(|v| v["type"] == "info").collect();
    assert!(!lines.is_empty(), "{earlier:?}");
    assert!(
        lines.iter().all(|v| v["fen"] == chess::fen::STARTPOS),
        "{lines:?}"
    );
    // Its statistics name the position too: a page that moved on ignores them.
    assert!(
        earlier
            .iter()
            .any(|v| v["type"] == "stats" && v["fen"] == chess::fen::STARTPOS),
        "{earlier:?}"
    );

    // An endless analysis stops when its tab's stream closes.
    api.post(
        "/api/go",
        json!({"game": id, "settings": {"infinite": true}}),
    )
    .await;
    read_events(&mut stream, |e| {
        e.iter().filter(|v| v["type"] == "info").count() > infos.len() + 1
    })
    .await;
    let session = state.get(&id).expect("session");
    assert!(session.engine().is_searching());
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(10);
    while session.engine().is_searching() {
        assert!(
            Instant::now() < deadline,
            "the search goes on after the tab closed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    served.server.abort();
}

/// The events of search `search` that follow the event `after` in `events`.
fn events_of_after<'a>(events: &'a [Value], search: u64, after: &Value) -> Vec<&'a Value> {
    let at = events
        .iter()
        .position(|v| v == after)
        .expect("the event is there");
    events[at + 1..]
        .iter()
        .filter(|v| v["search"] == search)
        .collect()
}

/// The server owns staleness: once a search is superseded (`started` of
/// the next one) nothing of it reaches the page, and once it is stopped
/// (`stopped`) no line does, though its statistics and move still come.
#[tokio::test(flavor = "multi_thread")]
async fn stale_search_events_stay_on_the_server() {
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    let served = Served::new(&state).await;
    let api = &served.api;
    let id = api.new_game().await;
    let mut stream = served.events(&id).await;
    let endless = json!({"game": id, "settings": {"infinite": true, "own_book": false}});
    let (_, first) = api.post("/api/go", endless.clone()).await;
    assert_eq!(first["purpose"], "analysis", "{first}");
    let first = first["search"].as_u64().expect("a number");
    read_events(&mut stream, |e| {
        e.iter()
            .any(|v| v["type"] == "info" && v["search"] == first)
    })
    .await;
    // Superseded by another analysis while it sends lines as fast as it can.
    let (_, second) = api.post("/api/go", endless).await;
    let second = second["search"].as_u64().expect("a number");
    assert!(second > first);
    let events = read_events(&mut stream, |e| {
        e.iter()
            .filter(|v| v["type"] == "info" && v["search"] == second)
            .count()
            >= 3
    })
    .await;
    let started = json!({"type": "started", "search": second, "purpose": "analysis",
        "fen": chess::fen::STARTPOS});
    let late = events_of_after(&events, first, &started);
    assert!(
        late.is_empty(),
        "the superseded search's events after the next started: {late:?}"
    );
    assert!(
        events.contains(&json!({"type": "stopped", "search": first})),
        "the page is told the first search stopped: {events:?}"
    );
    // Stopped, not replaced: no line after `stopped`, its statistics come.
    api.post("/api/stop", json!({"game": id})).await;
    let events = read_events(&mut stream, |e| {
        e.iter()
            .any(|v| v["type"] == "bestmove" && v["search"] == second)
    })
    .await;
    let stopped = json!({"type": "stopped", "search": second});
    let after = events_of_after(&events, second, &stopped);
    assert!(
        after.iter().all(|v| v["type"] != "info") && after.iter().any(|v| v["type"] == "stats"),
        "after the stop: {after:?}"
    );

    // A book move supersedes an endless analysis at once, without waiting
    // for it to wind down: its end, sent as it stops, stays on the server.
    let (_, third) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"infinite": true, "own_book": false}}),
        )
        .await;
    let third = third["search"].as_u64().expect("a number");
    read_events(&mut stream, |e| {
        e.iter()
            .any(|v| v["type"] == "info" && v["search"] == third)
    })
    .await;
    let (_, book) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"depth": 3}, "play": true}),
        )
        .await;
    let book = book["search"].as_u64().expect("a number");
    let events = read_events(&mut stream, |e| {
        e.iter()
            .any(|v| v["type"] == "bestmove" && v["search"] == book && v["book"] == true)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut events = events;
    events.extend(read_more(&mut stream).await);
    let started = json!({"type": "started", "search": book, "purpose": "move",
        "fen": chess::fen::STARTPOS});
    let late = events_of_after(&events, third, &started);
    assert!(
        late.is_empty(),
        "the analysis's end after the book move's start: {late:?}"
    );
    served.server.abort();
}

/// What the stream has sent and not yet read, waiting a moment for it.
async fn read_more(stream: &mut tokio::net::TcpStream) -> Vec<Value> {
    use tokio::io::AsyncReadExt;
    let mut buf = vec![0u8; 1 << 20];
    let mut text = String::new();
    while let Ok(Ok(n)) =
        tokio::time::timeout(Duration::from_millis(200), stream.read(&mut buf)).await
    {
        if n == 0 {
            break;
        }
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str(d).ok())
        .collect()
}

/// The server knows what each search is for: an analysis request while
/// the engine player thinks gets the player's search (its lines are the
/// analysis), a second request for the same move gets the same search, and
/// stopping the analysis leaves the move to be played.
#[tokio::test(flavor = "multi_thread")]
async fn the_engine_players_move_is_not_superseded_by_analysis() {
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    let served = Served::new(&state).await;
    let api = &served.api;
    let id = api.new_game().await;
    let mut stream = served.events(&id).await;
    let think =
        json!({"game": id, "settings": {"movetime_ms": 1500, "own_book": false}, "play": true});
    let (_, moving) = api.post("/api/go", think.clone()).await;
    assert_eq!(moving["purpose"], "move", "{moving}");
    assert_eq!(moving["started"], true, "{moving}");
    let (_, again) = api.post("/api/go", think).await;
    assert_eq!(again["search"], moving["search"], "the same move: {again}");
    assert_eq!(again["started"], false, "{again}");
    let (_, analysis) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"infinite": true}}),
        )
        .await;
    assert_eq!(analysis["search"], moving["search"], "{analysis}");
    assert_eq!(analysis["purpose"], "move", "{analysis}");
    let (_, stop) = api
        .post("/api/stop", json!({"game": id, "purpose": "analysis"}))
        .await;
    assert_eq!(stop["stopped"], false, "{stop}");
    let events = read_events(&mut stream, |e| e.iter().any(|v| v["type"] == "bestmove")).await;
    assert!(
        events.iter().any(|v| v["type"] == "bestmove"
            && v["played"] == true
            && v["search"] == moving["search"]),
        "{events:?}"
    );
    assert_eq!(
        events.iter().filter(|v| v["type"] == "started").count(),
        1,
        "one search: {events:?}"
    );
    assert!(events
        .iter()
        .filter(|v| v["type"] == "info")
        .all(|v| v["purpose"] == "move"));
    wait_for_plies(api, &id, 1).await;
    served.server.abort();
}

#[tokio::test]
async fn a_hidden_evaluation_is_not_sent_and_draws_are_weighed_by_the_server() {
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    let served = Served::new(&state).await;
    let api = &served.api;
    let id = api.new_game().await;
    let mut stream = served.events(&id).await;

    // A game against the engine, evaluation hidden: the engine's move comes,
    // and nothing else of its search (no score, line, statistics).
    let (_, v) = api
        .post(
            "/api/position",
            json!({"game": id, "hide_eval": true, "vs_engine": true}),
        )
        .await;
    assert_eq!(v["eval_hidden"], true, "{v}");
    api.post("/api/move", json!({"game": id, "move": "e4"}))
        .await;
    let settings = json!({"depth": 6, "own_book": false, "options": {"MultiPV": 3}});
    let events = engine_plays(api, &mut stream, &id, settings).await;
    for e in &events {
        assert!(
            e["type"] != "info" && e["type"] != "stats" && e.get("score").is_none(),
            "{e}"
        );
    }
    // Analysis, the book and the tables are refused while it is hidden.
    let (status, body) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"depth": 3}, "play": false}),
        )
        .await;
    assert_refused(status, &body, StatusCode::CONFLICT);
    for path in ["book", "explorer", "tablebase"] {
        let (status, body) = api.get(&format!("/api/{path}?game={id}")).await;
        assert_refused(status, &body, StatusCode::CONFLICT);
    }
    // An even position early on: the engine declines, saying only that.
    let (status, v) = api.post("/api/draw", json!({"game": id})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["accepted"], false, "{v}");
    assert_eq!(v.as_object().map(serde_json::Map::len), Some(2), "{v}");
    assert_eq!(v["state"]["status"]["over"], false);

    // A queen down, the engine takes the draw, and the game is over: its
    // evaluation may be seen again.
    api.post(
        "/api/position",
        json!({"game": id, "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "hide_eval": true}),
    )
    .await;
    let (status, v) = api.post("/api/draw", json!({"game": id})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["accepted"], true, "{v}");
    assert_eq!(v["state"]["status"]["reason"], "Draw agreed");
    assert_eq!(v["state"]["eval_hidden"], false);
    let (status, body) = api.post("/api/draw", json!({"game": id})).await;
    assert_refused(status, &body, StatusCode::CONFLICT);
    // The drawn game is final: another position is another game.
    let (status, body) = api.post("/api/position", json!({"game": id})).await;
    assert_refused(status, &body, StatusCode::CONFLICT);
    let id = api.new_game().await;
    let mut stream = served.events(&id).await;
    api.post(
        "/api/go",
        json!({"game": id, "settings": {"depth": 4}, "play": false}),
    )
    .await;
    read_events(&mut stream, |e| {
        e.iter()
            .any(|v| v["type"] == "info" && v["score"].is_object())
    })
    .await;
    let (status, body) = api.post("/api/draw", json!({"game": id})).await;
    assert_refused(status, &body, StatusCode::CONFLICT); // not a game against the engine
    served.server.abort();
}

#[tokio::test]
async fn a_dropped_games_stream_says_so_and_ends() {
    // Room for one game: a second one pushes the first out, watched or not,
    // once the first counts as idle (at once here; minutes in the server).
    let one_game = gui::session::Session::new_game_bytes();
    let state = Arc::new(
        AppState::with_budget(BookSource::embedded(), None, one_game * 3 / 2)
            .keeping_games_used_within(Duration::ZERO),
    );
    let served = Served::new(&state).await;
    let api = &served.api;
    let first = api.new_game().await;
    let mut stream = served.events(&first).await;
    let watched = state.get(&first).expect("the first game");
    let second = api.new_game().await;
    read_events(&mut stream, |e| e.iter().any(|v| v["type"] == "expired")).await;
    // The stream has ended: nothing holds the game as listening.
    let deadline = Instant::now() + Duration::from_secs(10);
    while watched.listeners.load(std::sync::atomic::Ordering::SeqCst) > 0 {
        assert!(Instant::now() < deadline, "the stream goes on");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(stream);
    let (status, body) = api.get(&format!("/api/state?game={first}")).await;
    assert_refused(status, &body, StatusCode::NOT_FOUND);
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("make room")),
        "{body}"
    );
    let (status, _) = api.get(&format!("/api/state?game={second}")).await;
    assert_eq!(status, StatusCode::OK);
    served.server.abort();
}

#[tokio::test]
async fn players_end_games_name_themselves_and_the_engine_plays_to_a_clock() {
    let api = Api::new();
    let id = api.new_game().await;
    api.post("/api/move", json!({"game": id, "move": "e4"}))
        .await;
    let (status, v) = api
        .post(
            "/api/tags",
            json!({"game": id, "tags": {"White": "Human", "Black": "Kestrel (Elo 1500)", "TimeControl": "300+3"}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, body) = api
        .post("/api/tags", json!({"game": id, "tags": {"Result": "1-0"}}))
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);

    // A resignation ends the game: no more moves, the result exported.
    let (status, v) = api
        .post(
            "/api/end",
            json!({"game": id, "end": "resign", "side": "black"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["status"]["over"], true);
    assert_eq!(v["status"]["result"], "1-0");
    assert_eq!(v["status"]["reason"], "Black resigns");
    let (status, body) = api
        .post("/api/move", json!({"game": id, "move": "e5"}))
        .await;
    assert_refused(status, &body, StatusCode::CONFLICT);
    let (status, body) = api
        .post(
            "/api/end",
            json!({"game": id, "end": "resign", "side": "white"}),
        )
        .await;
    assert_refused(status, &body, StatusCode::CONFLICT);
    let pgn = api.pgn(&id).await;
    assert!(
        pgn.contains("[White \"Human\"]")
            && pgn.contains("[Black \"Kestrel (Elo 1500)\"]")
            && pgn.contains("[Result \"1-0\"]")
            && pgn.contains("1. e4 1-0"),
        "{pgn}"
    );
    for bad in [
        json!({"game": id, "end": "resign"}),
        json!({"game": id, "end": "draw", "side": "black"}),
    ] {
        let (status, body) = api.post("/api/end", bad).await;
        assert_refused(status, &body, StatusCode::BAD_REQUEST);
    }
    // Words the API does not know are refused as a malformed request.
    for bad in [
        json!({"game": id, "end": "abandon", "side": "white"}),
        json!({"game": id, "end": "flag", "side": "red"}),
        json!({"game": id, "result": "1-0", "reason": "Black resigns"}),
    ] {
        let (status, body) = api.post("/api/end", bad).await;
        assert_refused(status, &body, StatusCode::UNPROCESSABLE_ENTITY);
    }
    // It is final: no takeback reopens it.
    let (status, body) = api.post("/api/undo", json!({"game": id})).await;
    assert_refused(status, &body, StatusCode::CONFLICT);

    // On a clock the engine is told both sides' times and plays.
    let id = api.new_game().await;
    let clock = json!({"wtime_ms": 2000, "btime_ms": 2000, "winc_ms": 100, "binc_ms": 100});
    let (status, body) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"clock": clock, "depth": 3}, "play": true}),
        )
        .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST);
    let (status, v) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"clock": clock, "own_book": false}, "play": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let s = wait_for_plies(&api, &id, 1).await;
    assert!(s["plies"][0]["time_ms"].as_u64() < Some(2000), "{s}");
}

#[tokio::test]
async fn variations_are_made_promoted_deleted_and_exported() {
    let api = Api::new();
    let id = api.new_game().await;
    for mv in ["e4", "e5", "Nf3"] {
        let (status, s) = api.post("/api/move", json!({"game": id, "move": mv})).await;
        assert_eq!(status, StatusCode::OK, "{s}");
    }
    let s = api.state(&id).await;
    let e4 = s["plies"][0]["node"].as_u64().expect("node");
    let version = s["version"].clone();
    // A move from an earlier position starts a variation and goes on view.
    let (status, s) = api
        .post("/api/move", json!({"game": id, "move": "c5", "from": e4}))
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let c5 = s["current"].as_u64().expect("current");
    assert_eq!(s["plies"].as_array().expect("plies").len(), 3);
    assert_eq!(s["nodes"].as_array().expect("nodes").len(), 5);
    let c5_view = &s["nodes"].as_array().expect("nodes")[4];
    assert_eq!(
        (c5_view["san"].as_str(), c5_view["main"].as_bool()),
        (Some("c5"), Some(false))
    );
    // The main line's move again: it is already there, so it goes there.
    let (status, s) = api
        .post("/api/move", json!({"game": id, "move": "e7e5", "from": e4}))
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["nodes"].as_array().expect("nodes").len(), 5);
    assert_eq!(s["current"], s["plies"][1]["node"]);
    assert_ne!(s["version"], version);
    // Going to a node changes what is on view, not the game.
    let (status, s) = api.post("/api/goto", json!({"game": id, "node": c5})).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["turn"], "w");
    assert!(s["fen"].as_str().expect("fen").contains("pp1ppppp"));

    let (status, s) = api
        .post(
            "/api/promote",
            json!({"game": id, "node": c5, "main": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let (_, pgn) = api.get(&format!("/api/pgn?game={id}")).await;
    let pgn = pgn
        .as_str()
        .expect("text")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(pgn.contains("1. e4 c5 (1... e5 2. Nf3) *"), "{pgn}");

    // Refusals: JSON 4xx, nothing changed.
    for (path, body, code) in [
        (
            "/api/goto",
            json!({"game": id, "node": 99}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/promote",
            json!({"game": id, "node": 0}),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/delete",
            json!({"game": id, "node": 0}),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/delete",
            json!({"game": id, "node": 99}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/delete",
            json!({"game": id, "node": -1}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/move",
            json!({"game": id, "move": "e4", "from": 99}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/move",
            json!({"game": id, "move": "Ke2", "from": 0}),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/go",
            json!({"game": id, "node": 99}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/go",
            json!({"game": id, "node": 0, "ply": 0}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (status, reply) = api.post(path, body).await;
        assert_refused(status, &reply, code);
    }
    assert_eq!(
        api.state(&id).await["nodes"]
            .as_array()
            .expect("nodes")
            .len(),
        5
    );

    // Deleting the node on view puts its parent on view.
    let (status, s) = api
        .post("/api/delete", json!({"game": id, "node": c5}))
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["current"].as_u64(), Some(e4));
    let sans: Vec<&str> = s["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .filter_map(|p| p["san"].as_str())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);

    // A game against the engine stays one line.
    let (status, s) = api
        .post("/api/position", json!({"game": id, "vs_engine": true}))
        .await;
    assert_eq!(
        (status, s["linear"].as_bool()),
        (StatusCode::OK, Some(true))
    );
    for mv in ["d4", "d5"] {
        api.post("/api/move", json!({"game": id, "move": mv})).await;
    }
    let (status, reply) = api
        .post("/api/move", json!({"game": id, "move": "c4", "from": 0}))
        .await;
    assert_refused(status, &reply, StatusCode::CONFLICT);
}

#[tokio::test]
async fn moves_are_annotated_and_a_kept_game_against_the_engine_goes_on() {
    let api = Api::new();
    let id = api.new_game().await;
    let (status, s) = api
        .post(
            "/api/pgn",
            json!({"game": id, "pgn": "1. e4 e5 2. Nf3 Nc6 *"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let e5 = s["plies"][1]["node"].as_u64().expect("node");
    let (status, s) = api
        .post(
            "/api/annotate",
            json!({"game": id, "node": e5, "comment": "Symmetry.", "nags": [1, 10]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let node = s["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .find(|n| n["id"].as_u64() == Some(e5))
        .expect("e5")
        .clone();
    assert_eq!(node["nags"], json!([1, 10]));
    assert_eq!(node["comments"], json!(["Symmetry."]));
    let (_, pgn) = api.get(&format!("/api/pgn?game={id}")).await;
    assert!(
        pgn.as_str()
            .expect("text")
            .contains("e5 $1 $10 {Symmetry.}"),
        "{pgn}"
    );
    for body in [
        json!({"game": id, "node": e5, "comment": "a } b"}),
        json!({"game": id, "node": e5, "nags": [3, 4]}),
        json!({"game": id, "node": 0, "comment": "start"}),
    ] {
        let (status, reply) = api.post("/api/annotate", body).await;
        assert_refused(status, &reply, StatusCode::BAD_REQUEST);
    }

    // The page's kept PGN of a game against the engine, restored as one.
    let kept = "1. e4 {0.41s} e5 2. Nf3 {0.38s} *";
    let (status, s) = api
        .post(
            "/api/pgn",
            json!({"game": id, "pgn": kept, "vs_engine": true, "hide_eval": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(
        (s["linear"].as_bool(), s["eval_hidden"].as_bool()),
        (Some(true), Some(true)),
        "{s}"
    );
    let nf3 = s["plies"][2]["node"].as_u64().expect("node");
    let (status, reply) = api
        .post(
            "/api/annotate",
            json!({"game": id, "node": nf3, "comment": "during the game"}),
        )
        .await;
    assert_refused(status, &reply, StatusCode::CONFLICT);
    let (status, reply) = api
        .post(
            "/api/pgn",
            json!({"game": id, "pgn": "1. e4 e5 (1... c5) 2. Nf3 *", "vs_engine": true}),
        )
        .await;
    assert_refused(status, &reply, StatusCode::BAD_REQUEST);
    // A finished game's kept PGN comes back final.
    let (status, s) = api
        .post(
            "/api/pgn",
            json!({"game": id, "pgn": "1. f3 e5 2. g4 Qh4# 0-1", "vs_engine": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(
        (&s["status"]["final"], &s["status"]["reason"]),
        (&json!(true), &json!("Black mates"))
    );
}

// ---------- a finished game is final (issue 63) ----------

/// A game against the engine, `1. e4 e5 2. Nf3`, that White resigned.
async fn finished_game(api: &Api) -> (String, Value) {
    let id = api.new_game().await;
    api.post("/api/position", json!({"game": id, "vs_engine": true}))
        .await;
    for mv in ["e4", "e5", "Nf3"] {
        let (status, v) = api.post("/api/move", json!({"game": id, "move": mv})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (status, v) = api
        .post(
            "/api/end",
            json!({"game": id, "end": "resign", "side": "white"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["status"]["final"], true, "{v}");
    (id, v)
}

/// What a finished game keeps whatever is asked: its main line's moves
/// and its status (result, reason, final, the side to move in it).
fn kept(v: &Value) -> Value {
    let sans: Vec<Value> = v["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .map(|p| p["san"].clone())
        .collect();
    json!({"plies": sans, "status": v["status"]})
}

/// Sends `path` with the body `make` writes from the finished game's id
/// and view, expects `expected` (a 4xx with a message), and checks that
/// the game's record is as it was. Returns the answer.
async fn on_finished(
    path: &str,
    make: impl Fn(&str, &Value) -> Value,
    expected: StatusCode,
) -> Value {
    let api = Api::new();
    let (id, before) = finished_game(&api).await;
    let (status, answer) = api.post(path, make(&id, &before)).await;
    if expected.is_client_error() {
        assert_refused(status, &answer, expected);
    } else {
        assert_eq!(status, expected, "{answer}");
    }
    let after = api.state(&id).await;
    assert_eq!(kept(&after), kept(&before), "{path} changed the record");
    let pgn = api.pgn(&id).await;
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    answer
}

/// The node of main-line move `i` (0: the first) of a view.
fn ply_node(v: &Value, i: usize) -> Value {
    v["plies"][i]["node"].clone()
}

#[tokio::test]
async fn a_finished_game_refuses_a_move_after_its_end() {
    let e = on_finished(
        "/api/move",
        |id, _| json!({"game": id, "move": "Nc6"}),
        StatusCode::CONFLICT,
    )
    .await;
    assert!(
        e["error"].as_str().expect("words").contains("variation"),
        "{e}"
    );
}

#[tokio::test]
async fn a_finished_game_takes_a_move_before_its_end_as_a_variation() {
    let v = on_finished(
        "/api/move",
        |id, _| json!({"game": id, "move": "d4", "from": 0}),
        StatusCode::OK,
    )
    .await;
    assert_eq!(v["nodes"][0]["children"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn a_finished_game_refuses_a_takeback() {
    let e = on_finished(
        "/api/undo",
        |id, _| json!({"game": id, "plies": 2}),
        StatusCode::CONFLICT,
    )
    .await;
    assert!(
        e["error"]
            .as_str()
            .expect("words")
            .starts_with("the game is over (0-1, White resigns)"),
        "{e}"
    );
}

#[tokio::test]
async fn a_finished_game_refuses_deleting_its_moves() {
    on_finished(
        "/api/delete",
        |id, v| json!({"game": id, "node": ply_node(v, 1)}),
        StatusCode::CONFLICT,
    )
    .await;
}

#[tokio::test]
async fn a_finished_game_refuses_a_variation_as_its_main_line() {
    let api = Api::new();
    let (id, before) = finished_game(&api).await;
    let (_, v) = api
        .post("/api/move", json!({"game": id, "move": "d4", "from": 0}))
        .await;
    let side = v["current"].clone();
    for main in [true, false] {
        let (status, body) = api
            .post(
                "/api/promote",
                json!({"game": id, "node": side, "main": main}),
            )
            .await;
        assert_refused(status, &body, StatusCode::CONFLICT);
    }
    // The variation itself may go.
    let (status, v) = api
        .post("/api/delete", json!({"game": id, "node": side}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(kept(&api.state(&id).await), kept(&before));
}

#[tokio::test]
async fn a_finished_game_refuses_a_new_position() {
    on_finished(
        "/api/position",
        |id, _| json!({"game": id}),
        StatusCode::CONFLICT,
    )
    .await;
}

#[tokio::test]
async fn a_finished_game_refuses_an_imported_pgn() {
    on_finished(
        "/api/pgn",
        |id, _| json!({"game": id, "pgn": "1. d4 d5 *"}),
        StatusCode::CONFLICT,
    )
    .await;
}

#[tokio::test]
async fn a_finished_game_refuses_another_end() {
    on_finished(
        "/api/end",
        |id, _| json!({"game": id, "end": "draw"}),
        StatusCode::CONFLICT,
    )
    .await;
}

#[tokio::test]
async fn a_finished_game_refuses_an_engine_move_after_its_end() {
    on_finished(
        "/api/go",
        |id, _| json!({"game": id, "settings": {"depth": 1}, "play": true}),
        StatusCode::CONFLICT,
    )
    .await;
}

#[tokio::test]
async fn a_finished_game_refuses_a_draw_offer() {
    on_finished(
        "/api/draw",
        |id, _| json!({"game": id}),
        StatusCode::CONFLICT,
    )
    .await;
}

#[tokio::test]
async fn a_finished_game_takes_comments_and_clocks_but_keeps_its_record() {
    on_finished(
        "/api/annotate",
        |id, v| json!({"game": id, "node": ply_node(v, 0), "comment": "studied", "nags": [1]}),
        StatusCode::OK,
    )
    .await;
    on_finished(
        "/api/clock",
        |id, v| json!({"game": id, "node": ply_node(v, 2), "ms": 1000}),
        StatusCode::OK,
    )
    .await;
    on_finished(
        "/api/tags",
        |id, _| json!({"game": id, "tags": {"Result": "1-0"}}),
        StatusCode::BAD_REQUEST,
    )
    .await;
    on_finished(
        "/api/analysis/lines",
        |id, _| json!({"game": id}),
        StatusCode::CONFLICT,
    )
    .await;
}

#[tokio::test]
async fn a_mated_game_against_the_engine_is_final_after_a_side_line() {
    // The steps: a mate, a step back, a side line, its end, Undo.
    let api = Api::new();
    let id = api.new_game().await;
    api.post("/api/position", json!({"game": id, "vs_engine": true}))
        .await;
    let mut v = Value::Null;
    for mv in ["f3", "e5", "g4", "Qh4#"] {
        v = api
            .post("/api/move", json!({"game": id, "move": mv}))
            .await
            .1;
    }
    let before = kept(&v);
    assert_eq!(v["status"]["final"], true, "{v}");
    let (status, side) = api
        .post(
            "/api/move",
            json!({"game": id, "move": "Qe7", "from": ply_node(&v, 2)}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{side}");
    for body in [json!({"game": id}), json!({"game": id, "plies": 2})] {
        let (status, e) = api.post("/api/undo", body).await;
        assert_refused(status, &e, StatusCode::CONFLICT);
    }
    let end = ply_node(&v, 3);
    api.post("/api/goto", json!({"game": id, "node": end}))
        .await;
    let (status, e) = api.post("/api/undo", json!({"game": id})).await;
    assert_refused(status, &e, StatusCode::CONFLICT);
    assert_eq!(kept(&api.state(&id).await), before);
}

/// A game against the engine on the page's clock: each move's clock
/// (`POST /api/clock`) in the view, in the PGN as `[%clk]` before the
/// engine's time, read by python-chess, and back from an imported PGN;
/// what is refused, with the game left as it was.
#[tokio::test]
async fn a_game_on_a_clock_keeps_each_moves_clock() {
    let api = Api::new();
    let id = api.new_game().await;
    let (_, v) = api
        .post("/api/move", json!({"game": id, "move": "e4"}))
        .await;
    let node = v["plies"][0]["node"].clone();
    let (status, body) = api
        .post("/api/clock", json!({"game": id, "node": node, "ms": 1000}))
        .await;
    assert_refused(status, &body, StatusCode::CONFLICT);

    let (status, v) = api
        .post("/api/position", json!({"game": id, "vs_engine": true}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, v) = api
        .post("/api/move", json!({"game": id, "move": "e4"}))
        .await;
    let e4 = v["plies"][0]["node"].clone();
    let (status, after) = api
        .post("/api/clock", json!({"game": id, "node": e4, "ms": 180_000}))
        .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["plies"][0]["clock_ms"], 180_000);
    assert_eq!(after["version"], v["version"], "not a change of the game");
    let (status, v) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"depth": 2, "own_book": false}, "play": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let s = wait_for_plies(&api, &id, 2).await;
    let reply = s["plies"][1]["node"].clone();
    let san = s["plies"][1]["san"].as_str().expect("san").to_string();
    let thought = s["plies"][1]["time_ms"]
        .as_u64()
        .expect("the engine's time");
    let (status, v) = api
        .post(
            "/api/clock",
            json!({"game": id, "node": reply, "ms": 178_400}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let node_clock = v["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .find(|n| n["id"] == reply)
        .map(|n| n["clock_ms"].clone());
    assert_eq!(node_clock, Some(json!(178_400)), "the move list's node too");

    let refused = [
        (
            json!({"game": id, "node": e4, "ms": 170_000}),
            StatusCode::CONFLICT,
        ),
        (
            json!({"game": id, "node": 0, "ms": 1000}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"game": id, "node": 999, "ms": 1000}),
            StatusCode::NOT_FOUND,
        ),
        (
            json!({"game": id, "node": reply, "ms": 86_400_001u64}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"game": id, "node": reply, "ms": -1}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"game": id, "node": reply, "ms": 1.5}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"game": id, "node": reply}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"game": id, "node": reply, "ms": 1, "side": "white"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"game": "nope", "node": reply, "ms": 1000}),
            StatusCode::NOT_FOUND,
        ),
    ];
    for (body, expected) in refused {
        let (status, answer) = api.post("/api/clock", body).await;
        assert_refused(status, &answer, expected);
    }
    let s = api.state(&id).await;
    assert_eq!(
        (
            s["plies"][0]["clock_ms"].clone(),
            s["plies"][1]["clock_ms"].clone()
        ),
        (json!(180_000), json!(178_400)),
        "refusals change nothing"
    );

    let pgn = api.pgn(&id).await;
    let time = format!("{:.2}s", thought as f64 / 1000.0);
    assert!(
        pgn.contains(&format!(
            "1. e4 {{[%clk 0:03:00]}} 1... {san} {{[%clk 0:02:58] {time}}}"
        )),
        "{pgn}"
    );
    if tools::require_python_chess("chess.pgn") {
        let file = std::env::temp_dir().join(format!("kestrel-gui-clk-{}.pgn", std::process::id()));
        std::fs::write(&file, &pgn).expect("written");
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/python/check_clocks.py"
        );
        let out = std::process::Command::new("python3")
            .arg(script)
            .arg(&file)
            .output()
            .expect("python3 runs");
        let _ = std::fs::remove_file(&file);
        let text = String::from_utf8_lossy(&out.stdout);
        let read = format!(
            "e4 180 -\n{san} 178 {}\n",
            time.trim_end_matches('s').parse::<f64>().expect("seconds")
        );
        assert_eq!(text, read, "{}", String::from_utf8_lossy(&out.stderr));
    }

    // Imported, the clocks come back on their moves.
    let (status, v) = api.post("/api/pgn", json!({"game": id, "pgn": pgn})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (
            v["plies"][0]["clock_ms"].clone(),
            v["plies"][1]["clock_ms"].clone()
        ),
        (json!(180_000), json!(178_000))
    );
}

/// A game's engine takes search threads and a bigger table from the page's
/// engine settings (`POST /api/engine`): the games' memory counts them,
/// numbers out of range are refused, and a table the games' memory cannot
/// hold beside a game in use is refused with the engine left as it was.
#[tokio::test(flavor = "multi_thread")]
async fn a_games_engine_takes_threads_and_a_table_size() {
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    let api = Api {
        router: gui::router(state.clone(), access(PORT)),
    };
    let (_, opts) = api.get("/api/options").await;
    let threads_max = opts["threads_max"].as_u64().expect("threads_max");
    let hash_max = opts["hash_max_mib"].as_u64().expect("hash_max_mib");
    assert!(threads_max >= 1 && hash_max >= 16, "{opts}");
    let id = api.new_game().await;
    let before = state.memory_used();
    let (status, v) = api
        .post(
            "/api/engine",
            json!({"game": id, "threads": 1, "hash_mib": 64}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v, json!({"threads": 1, "hash_mib": 64}));
    assert_eq!(state.memory_used() - before, 48 << 20);
    for bad in [
        json!({"game": id, "threads": 0}),
        json!({"game": id, "threads": threads_max + 1}),
        json!({"game": id, "hash_mib": 0}),
        json!({"game": id, "hash_mib": hash_max + 1}),
    ] {
        let (status, body) = api.post("/api/engine", bad).await;
        assert_refused(status, &body, StatusCode::BAD_REQUEST);
    }
    let session = state.get(&id).expect("the game");
    assert_eq!(session.resources().hash_mib, 64);
    // It plays on with its new table, and its threads when the machine
    // has two cores or more.
    let threads = threads_max.min(2);
    let (status, v) = api
        .post("/api/engine", json!({"game": id, "threads": threads}))
        .await;
    assert_eq!(v, json!({"threads": threads, "hash_mib": 64}), "{status}");
    let (status, v) = api
        .post(
            "/api/go",
            json!({"game": id, "settings": {"depth": 4, "own_book": false}, "play": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    wait_for_plies(&api, &id, 1).await;

    // 40 MiB for games: two of 18 MiB fit, one of them with a 20 MiB table
    // does not while the other is in use.
    let small = Arc::new(AppState::with_budget(
        BookSource::embedded(),
        None,
        40 << 20,
    ));
    let api = Api {
        router: gui::router(small.clone(), access(PORT)),
    };
    let a = api.new_game().await;
    let _b = api.new_game().await;
    let (status, body) = api
        .post("/api/engine", json!({"game": a, "hash_mib": 20}))
        .await;
    assert_refused(status, &body, StatusCode::SERVICE_UNAVAILABLE);
    let kept = small.get(&a).expect("the game").resources();
    assert_eq!((kept.threads, kept.hash_mib), (1, 16));
    assert_eq!(small.session_count(), 2);
}
