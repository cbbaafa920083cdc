//! Hostile input to the GUI server (issue 44): a PGN nested as deep as a
//! request body allows is refused with a message, never a stack overflow
//! that would take every game down with the process.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use gui::book_source::BookSource;
use gui::host_guard::Access;
use gui::session::AppState;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

const PORT: u16 = 8080;

fn router() -> axum::Router {
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    gui::router(state, Access::new("127.0.0.1", PORT))
}

/// POSTs `body` as JSON to `path`; the status and the JSON answer.
async fn post(router: &axum::Router, path: &str, body: String) -> (StatusCode, Value) {
    let req = Request::post(path)
        .header("host", format!("127.0.0.1:{PORT}"))
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("request");
    let res = router.clone().oneshot(req).await.expect("answers");
    let status = res.status();
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON, got {text:?}"));
    (status, value)
}

/// `1. e4 (d4 (d4 ... ) ) e5 *` with `levels` nested variations.
fn nested(levels: usize) -> String {
    let mut text = String::from("1. e4 ");
    text.push_str(&"(d4 ".repeat(levels));
    text.push_str(&")".repeat(levels));
    text.push_str(" e5 *");
    text
}

#[tokio::test]
async fn deeply_nested_pgn_is_refused_and_the_server_goes_on() {
    let r = router();
    let (status, v) = post(&r, "/api/game", "{}".into()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    // As deep as the body limit allows (16,000 levels overflowed a worker
    // thread's stack and aborted the server).
    let levels = (gui::BODY_LIMIT - 100) / 5;
    assert!(levels > 200_000);
    let body = json!({"game": id, "pgn": nested(levels)}).to_string();
    let (status, v) = post(&r, "/api/pgn", body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let message = v["error"].as_str().expect("a message");
    assert!(message.contains("nested deeper than 256"), "{message}");
    // A million levels: over the body limit, refused before it is read.
    let body = json!({"game": id, "pgn": nested(1_000_000)}).to_string();
    let (status, v) = post(&r, "/api/pgn", body).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    // The game is still there, and a nesting within the bound is read.
    let body = json!({"game": id, "pgn": nested(pgn::MAX_VARIATION_DEPTH)}).to_string();
    let (status, v) = post(&r, "/api/pgn", body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[test]
fn the_book_must_be_a_regular_file() {
    for (path, what) in [("/dev/zero", "a character device"), ("/", "a directory")] {
        let start = std::time::Instant::now();
        let e = BookSource::open(std::path::Path::new(path))
            .map(|_| ())
            .expect_err(path)
            .to_string();
        assert!(e.contains(what) && e.contains(path), "{e}");
        assert!(start.elapsed().as_secs() < 2, "at once");
    }
}
