//! The GUI server's API (`kestrel gui`) on arbitrary requests, through the
//! whole stack the server runs (guards, JSON extraction, handlers). The
//! first byte picks an endpoint; for a POST the rest is the body (when it
//! is a JSON object, its `game` is set to the one live game, so that the
//! handlers are reached), for a GET it is the query after `game=ID&`.
//! Nothing may panic (libFuzzer aborts on a panic, before the server's
//! catch-panic layer could turn it into a 500), no answer may be a 5xx,
//! and every answer is JSON except the page's files and the PGN export.
//! Endpoints that start the engine (`go`, `analysis`, `draw`) are left
//! out: they would make each input a search. Each input starts from a
//! fresh game (`/api/position`), so that games do not grow without end.
#![no_main]

use std::cell::RefCell;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request};
use gui::book_source::BookSource;
use gui::host_guard::Access;
use gui::session::AppState;
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tower::ServiceExt;

const PORT: u16 = 8080;
const POSTS: [&str; 13] = [
    "/api/move",
    "/api/undo",
    "/api/goto",
    "/api/promote",
    "/api/delete",
    "/api/annotate",
    "/api/end",
    "/api/tags",
    "/api/position",
    "/api/pgn",
    "/api/stop",
    "/api/book/add",
    "/api/analysis/cancel",
];
const GETS: [&str; 7] = [
    "/api/state",
    "/api/legal",
    "/api/pgn",
    "/api/book",
    "/api/tablebase",
    "/api/opening",
    "/api/analysis",
];

struct Server {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    game: String,
}

thread_local! {
    static SERVER: RefCell<Server> = RefCell::new({
        let state = Arc::new(AppState::new(BookSource::embedded(), None));
        let game = state
            .create(chess::Position::startpos())
            .expect("room for one game")
            .id
            .clone();
        Server {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime"),
            router: gui::router(state, Access::new("127.0.0.1", PORT)),
            game,
        }
    });
}

/// Sends one request; panics on a 5xx or an answer that should be JSON and is not.
fn send(server: &Server, method: Method, uri: &str, body: Vec<u8>) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", format!("127.0.0.1:{PORT}"))
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("request");
    let (status, bytes) = server.runtime.block_on(async {
        let response = server
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("answers");
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        (status, bytes)
    });
    assert!(!status.is_server_error(), "{uri}: {status} {bytes:?}");
    let export = uri.starts_with("/api/pgn?") && status.is_success();
    if !export {
        assert!(
            serde_json::from_slice::<Value>(&bytes).is_ok(),
            "{uri}: {status} answered {bytes:?}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    SERVER.with(|server| {
        let server = server.borrow();
        let reset = serde_json::json!({ "game": server.game }).to_string();
        send(&server, Method::POST, "/api/position", reset.into_bytes());
        let pick = usize::from(pick);
        if pick < 128 {
            let path = POSTS[pick % POSTS.len()];
            let body = match serde_json::from_slice::<Value>(rest) {
                Ok(Value::Object(mut fields)) => {
                    fields.insert("game".into(), Value::String(server.game.clone()));
                    serde_json::to_vec(&fields).expect("JSON")
                }
                _ => rest.to_vec(),
            };
            send(&server, Method::POST, path, body);
        } else {
            let path = GETS[(pick - 128) % GETS.len()];
            // Only what a URI may hold: the rest is percent-encoded.
            let query: String = rest
                .iter()
                .map(|&b| {
                    if b.is_ascii_alphanumeric() || b"&=-_.~+".contains(&b) {
                        char::from(b).to_string()
                    } else {
                        format!("%{b:02X}")
                    }
                })
                .collect();
            send(
                &server,
                Method::GET,
                &format!("{path}?game={}&{query}", server.game),
                Vec::new(),
            );
        }
    });
});
