//! The server refuses what its own page would never send: a `Host` that is
//! not its address (DNS rebinding), a state-changing request from another
//! site's page (`Origin`), and answers every 4xx — its own refusals, a
//! missing `?game=`, an unknown path, a wrong method — with the same JSON
//! error body.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use gui::book_source::BookSource;
use gui::host_guard::Access;
use gui::session::AppState;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

const PORT: u16 = 8080;
const OWN: &str = "127.0.0.1:8080";

fn router(listen: &str) -> axum::Router {
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    gui::router(state, Access::new(listen, PORT))
}

/// Sends a request with these headers; the answer's status and JSON body
/// (every answer checked here must be JSON).
async fn send(
    router: &axum::Router,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(path);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let req = req.body(Body::from(body.to_string())).expect("request");
    let res = router.clone().oneshot(req).await.expect("answers");
    let status = res.status();
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let value = serde_json::from_str(&text)
        .unwrap_or_else(|_| panic!("{method} {path}: a JSON answer, got {status} {text:?}"));
    (status, value)
}

/// A refusal: this status and `{"error": "<message>"}` with nothing else.
fn assert_error(status: StatusCode, body: &Value, expected: StatusCode, needle: &str) {
    assert_eq!(status, expected, "{body}");
    let object = body.as_object().expect("an object");
    assert_eq!(object.len(), 1, "only the error: {body}");
    let message = body["error"].as_str().expect("a message");
    assert!(message.contains(needle), "{needle:?} in {message:?}");
}

async fn new_game(router: &axum::Router) -> String {
    let json = [("host", OWN), ("content-type", "application/json")];
    let (status, v) = send(router, "POST", "/api/game", &json, "{}").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["id"].as_str().expect("id").to_string()
}

#[tokio::test]
async fn a_foreign_host_is_refused_for_the_page_and_the_api() {
    let r = router("127.0.0.1");
    for host in [
        "evil.example.com",
        "evil.example.com:8080",
        "127.0.0.1:9999",
        "localhost.evil.example.com:8080",
    ] {
        for (method, path) in [("GET", "/"), ("GET", "/app.js"), ("GET", "/api/options")] {
            let (status, body) = send(&r, method, path, &[("host", host)], "").await;
            assert_error(status, &body, StatusCode::FORBIDDEN, "answers only to");
        }
        let headers = [("host", host), ("content-type", "application/json")];
        let (status, body) = send(&r, "POST", "/api/game", &headers, "{}").await;
        assert_error(status, &body, StatusCode::FORBIDDEN, host);
    }
    let (status, body) = send(&r, "GET", "/api/options", &[], "").await;
    assert_error(status, &body, StatusCode::BAD_REQUEST, "Host");
}

#[tokio::test]
async fn every_loopback_name_with_the_port_is_served() {
    let r = router("127.0.0.1");
    for host in [OWN, "localhost:8080", "[::1]:8080"] {
        let (status, body) = send(&r, "GET", "/api/options", &[("host", host)], "").await;
        assert_eq!(status, StatusCode::OK, "{host}: {body}");
    }
}

#[tokio::test]
async fn host_option_serves_its_address_and_no_name_it_was_not_given() {
    let lan = router("192.168.7.7");
    let (status, _) = send(
        &lan,
        "GET",
        "/api/options",
        &[("host", "192.168.7.7:8080")],
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let every = router("0.0.0.0");
    let (status, _) = send(
        &every,
        "GET",
        "/api/options",
        &[("host", "10.1.2.3:8080")],
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = send(
        &every,
        "GET",
        "/api/options",
        &[("host", "rebound.example:8080")],
        "",
    )
    .await;
    assert_error(status, &body, StatusCode::FORBIDDEN, "--host");
}

#[tokio::test]
async fn state_changing_requests_from_another_site_are_refused() {
    let r = router("127.0.0.1");
    let id = new_game(&r).await;
    let body = format!(r#"{{"game":"{id}","move":"e4"}}"#);
    for origin in [
        "http://evil.example.com",
        "null",
        "http://127.0.0.1:9999",
        "https://127.0.0.1:8080",
    ] {
        let headers = [
            ("host", OWN),
            ("origin", origin),
            ("content-type", "application/json"),
        ];
        let (status, v) = send(&r, "POST", "/api/move", &headers, &body).await;
        assert_error(status, &v, StatusCode::FORBIDDEN, origin);
    }
    // Nothing was played.
    let (_, state) = send(
        &r,
        "GET",
        &format!("/api/state?game={id}"),
        &[("host", OWN)],
        "",
    )
    .await;
    assert_eq!(state["plies"].as_array().expect("plies").len(), 0);

    // The page's own origin, and a script with none, may.
    let own = [
        ("host", OWN),
        ("origin", "http://127.0.0.1:8080"),
        ("content-type", "application/json"),
    ];
    let (status, v) = send(&r, "POST", "/api/move", &own, &body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let script = [("host", OWN), ("content-type", "application/json")];
    let (status, v) = send(
        &r,
        "POST",
        "/api/undo",
        &script,
        &format!(r#"{{"game":"{id}"}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Reading is not guarded by Origin: the browser keeps other sites from reading answers.
    let headers = [("host", OWN), ("origin", "http://evil.example.com")];
    let (status, _) = send(&r, "GET", &format!("/api/state?game={id}"), &headers, "").await;
    assert_eq!(status, StatusCode::OK);
}

/// Two `Origin` headers (issue 64, item 8) are refused as a foreign one
/// is, whichever comes first: a browser sends one, and a check that reads
/// only the first would let the second through unread.
#[tokio::test]
async fn two_origin_headers_are_refused_like_a_foreign_one() {
    let r = router("127.0.0.1");
    let id = new_game(&r).await;
    let body = format!(r#"{{"game":"{id}","move":"e4"}}"#);
    for (first, second) in [
        ("http://127.0.0.1:8080", "http://evil.example.com"),
        ("http://evil.example.com", "http://127.0.0.1:8080"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
    ] {
        let headers = [
            ("host", OWN),
            ("origin", first),
            ("origin", second),
            ("content-type", "application/json"),
        ];
        let (status, v) = send(&r, "POST", "/api/move", &headers, &body).await;
        assert_error(status, &v, StatusCode::FORBIDDEN, "Origin");
    }
    let (_, state) = send(
        &r,
        "GET",
        &format!("/api/state?game={id}"),
        &[("host", OWN)],
        "",
    )
    .await;
    assert_eq!(
        state["plies"].as_array().expect("plies").len(),
        0,
        "nothing was played"
    );
}

#[tokio::test]
async fn every_4xx_has_the_same_json_body() {
    let r = router("127.0.0.1");
    let host = [("host", OWN)];
    for path in [
        "/api/state",
        "/api/legal",
        "/api/pgn",
        "/api/events",
        "/api/book",
        "/api/state?gme=x",
    ] {
        let (status, body) = send(&r, "GET", path, &host, "").await;
        assert_error(status, &body, StatusCode::BAD_REQUEST, "?game=");
    }
    let (status, body) = send(&r, "GET", "/api/state?game=nope", &host, "").await;
    assert_error(status, &body, StatusCode::NOT_FOUND, "");
    let (status, body) = send(&r, "GET", "/api/nothing", &host, "").await;
    assert_error(status, &body, StatusCode::NOT_FOUND, "no such");
    let (status, body) = send(&r, "GET", "/pieces/xX.svg", &host, "").await;
    assert_error(status, &body, StatusCode::NOT_FOUND, "piece");
    let (status, body) = send(&r, "GET", "/api/move", &host, "").await;
    assert_error(status, &body, StatusCode::METHOD_NOT_ALLOWED, "method");
    let (status, body) = send(&r, "POST", "/api/move", &host, "{}").await;
    assert_error(status, &body, StatusCode::UNSUPPORTED_MEDIA_TYPE, "JSON");
}

#[tokio::test]
async fn a_rebinding_request_over_a_socket_is_refused() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("port");
    let port = listener.local_addr().expect("address").port();
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    let app = gui::router(state, Access::new("127.0.0.1", port));
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    let ask = |host: String| async move {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connects");
        let request = format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.expect("sends");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("reads");
        answer
    };
    let refused = ask(format!("attacker.example:{port}")).await;
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(refused.contains(r#"{"error":"#), "{refused}");
    let served = ask(format!("localhost:{port}")).await;
    assert!(
        served.starts_with("HTTP/1.1 200") && served.contains("<title>Kestrel</title>"),
        "{served}"
    );
    server.abort();
}
