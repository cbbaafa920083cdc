//! Hostile input to the GUI server (issue 44): a PGN nested as deep as a
//! request body allows is refused with a message, never a stack overflow
//! that would take every game down with the process.

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
    // Refused for what it is, before a byte is read (/dev/zero never ends).
    for (path, what) in [("/dev/zero", "a character device"), ("/", "a directory")] {
        let e = BookSource::open(std::path::Path::new(path))
            .map(|_| ())
            .expect_err(path)
            .to_string();
        assert!(e.contains(what) && e.contains(path), "{e}");
    }
}

/// Starts the server on a free loopback port with `limits`; its address.
async fn start(limits: gui::ConnectionLimits) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port");
    let addr = listener.local_addr().expect("bound");
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    let app = gui::router(state, Access::new("127.0.0.1", addr.port()));
    tokio::spawn(gui::serve(listener, app, limits, std::future::pending()));
    addr
}

/// Sends `request` on a fresh connection; what the server answers until it
/// closes (or `wait` passes).
async fn exchange(addr: std::net::SocketAddr, request: &str, wait: Duration) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(wait, stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

/// Sends `request` on fresh connections, a little apart, until the answer
/// starts with `status` (`HTTP/1.1 503`): that answer, or, by `deadline`,
/// the last one (the caller's assertion then says what came instead).
async fn exchange_until(addr: std::net::SocketAddr, request: &str, status: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let answer = exchange(addr, request, Duration::from_secs(5)).await;
        if answer.starts_with(status) || Instant::now() > deadline {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Eight slots, as many for one address, no spare slot: one more
/// connection than that gets a 503.
fn quick_limits() -> gui::ConnectionLimits {
    gui::ConnectionLimits {
        max_connections: 8,
        per_address: 8,
        header_timeout: Duration::from_secs(1),
        spare_connections: 0,
        spare_header_timeout: Duration::from_secs(1),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_content_length_is_refused_at_once() {
    let addr = start(quick_limits()).await;
    let request = format!(
        "POST /api/pgn HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         content-length: 10000000000\r\n\r\n{{\"game\":"
    );
    // Answered while the client has sent none of the body it announced.
    let answer = exchange(addr, &request, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_are_cut_off_and_connections_beyond_the_limit_get_503() {
    use tokio::io::AsyncWriteExt;
    let limits = quick_limits();
    let addr = start(limits).await;
    // A slow client: a header line now and then, never the end, until the
    // server closes the connection (a write fails) or it has sent lines for
    // far longer than the header timeout.
    let slow = tokio::spawn(async move {
        let mut stream = tokio::net::TcpStream::connect(addr)
            .await
            .expect("connects");
        let _ = stream.write_all(b"GET /api/options HTTP/1.1\r\n").await;
        for _ in 0..100 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if stream.write_all(b"x-slow: 1\r\n").await.is_err() {
                return true;
            }
        }
        false
    });
    assert!(slow.await.expect("the slow client"), "never cut off");
    // Every slot taken by idle connections: one more is answered 503 at once.
    let mut idle = Vec::new();
    for _ in 0..limits.max_connections {
        idle.push(
            tokio::net::TcpStream::connect(addr)
                .await
                .expect("connects"),
        );
    }
    // Once the server has taken them all in, one more is refused.
    let probe = format!("GET /api/options HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
    let answer = exchange_until(addr, &probe, "HTTP/1.1 503").await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
    // Once the idle ones time out, the page is served again.
    let answer = exchange_until(addr, &probe, "HTTP/1.1 200").await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    drop(idle);
}

#[tokio::test]
async fn a_second_host_or_a_foreign_absolute_form_is_refused() {
    let r = router();
    let send = |req: Request<Body>| {
        let r = r.clone();
        async move { r.oneshot(req).await.expect("answers").status() }
    };
    let own = format!("127.0.0.1:{PORT}");
    let mut req = Request::get("/api/options")
        .header("host", own.as_str())
        .body(Body::empty())
        .expect("request");
    req.headers_mut()
        .append("host", "evil.example.com".parse().expect("header"));
    assert_eq!(send(req).await, StatusCode::BAD_REQUEST);
    let req = Request::get("http://evil.example.com/api/options")
        .header("host", own.as_str())
        .body(Body::empty())
        .expect("request");
    assert_eq!(send(req).await, StatusCode::FORBIDDEN);
    let req = Request::get(format!("http://{own}/api/options"))
        .header("host", own.as_str())
        .body(Body::empty())
        .expect("request");
    assert_eq!(send(req).await, StatusCode::OK);
}

#[tokio::test]
async fn a_panicking_handler_answers_500_and_the_server_goes_on() {
    let app = axum::Router::new()
        .route(
            "/boom",
            axum::routing::get(|| async {
                panic!("a bug in one handler");
                #[allow(unreachable_code)]
                ""
            }),
        )
        .route("/fine", axum::routing::get(|| async { "fine" }));
    let app = gui::guarded(app, Access::new("127.0.0.1", PORT));
    let get = |path: &str| {
        Request::get(path)
            .header("host", format!("127.0.0.1:{PORT}"))
            .body(Body::empty())
            .expect("request")
    };
    let res = app.clone().oneshot(get("/boom")).await.expect("answers");
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    let v: Value = serde_json::from_slice(&bytes).expect("JSON");
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|m| m.contains("other games go on")),
        "{v}"
    );
    let res = app.oneshot(get("/fine")).await.expect("answers");
    assert_eq!(res.status(), StatusCode::OK);
}

#[test]
fn a_host_other_than_loopback_is_warned_about() {
    for host in ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"] {
        assert_eq!(gui::exposure_warning(host), None, "{host}");
    }
    for host in ["0.0.0.0", "::", "192.168.1.5", "example.com"] {
        let warning = gui::exposure_warning(host).expect(host);
        assert!(
            warning.starts_with("WARNING") && warning.contains("token"),
            "{warning}"
        );
    }
}

#[tokio::test]
async fn importing_a_game_takes_time_linear_in_its_length() {
    let r = router();
    let (_, v) = post(&r, "/api/game", "{}".into()).await;
    let id = v["id"].as_str().expect("id").to_string();
    // Knights out and back: a legal game of any length.
    let game = |plies: usize| "Nf3 Nf6 Ng1 Ng8 ".repeat(plies / 4) + "*";
    let mut times = Vec::new();
    for plies in [4_000, 40_000] {
        // The fastest of three: other tests and programs on the machine
        // only ever slow a run down, so the minimum is the cost of the work.
        let mut fastest = Duration::MAX;
        for _ in 0..3 {
            let body = json!({"game": id, "pgn": game(plies)}).to_string();
            let start = Instant::now();
            let (status, v) = post(&r, "/api/pgn", body).await;
            fastest = fastest.min(start.elapsed());
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v["plies"].as_array().map(Vec::len), Some(plies));
        }
        times.push(fastest);
    }
    eprintln!("4,000 plies {:?}, 40,000 plies {:?}", times[0], times[1]);
    assert!(
        times[1] < times[0] * 12 + Duration::from_millis(300),
        "4,000 plies {:?}, 40,000 plies {:?}",
        times[0],
        times[1]
    );
}

/// A body that stops coming is cut off after [`gui::BODY_TIMEOUT`] (30 s,
/// on a paused clock that tokio moves on when nothing else can run): an
/// error, not a connection held for good.
#[tokio::test(start_paused = true)]
async fn a_body_that_stops_coming_is_refused_after_the_body_timeout() {
    use futures_util::StreamExt;
    let r = router();
    let (_, v) = post(&r, "/api/game", "{}".into()).await;
    let id = v["id"].as_str().expect("id").to_string();
    let head = format!("{{\"game\":\"{id}\",\"pgn\":\"1. e4");
    let body = futures_util::stream::iter([Ok::<_, std::io::Error>(axum::body::Bytes::from(head))])
        .chain(futures_util::stream::pending());
    let req = Request::post("/api/pgn")
        .header("host", format!("127.0.0.1:{PORT}"))
        .header("content-type", "application/json")
        .body(Body::from_stream(body))
        .expect("request");
    let start = tokio::time::Instant::now();
    let res = tokio::time::timeout(2 * gui::BODY_TIMEOUT, r.oneshot(req))
        .await
        .expect("answered before twice the body timeout")
        .expect("answers");
    let took = start.elapsed();
    assert!(res.status().is_client_error(), "{}", res.status());
    assert!(
        (gui::BODY_TIMEOUT..gui::BODY_TIMEOUT + Duration::from_secs(1)).contains(&took),
        "{took:?}"
    );
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    let answer: Value = serde_json::from_slice(&bytes).expect("JSON");
    assert!(answer["error"].is_string(), "{answer}");
}

/// A server reachable from other machines answers only requests that carry
/// its token: in a header (scripts), a cookie (the page), or the page's URL,
/// whose answer sets the cookie.
#[tokio::test]
async fn a_server_open_to_other_machines_needs_its_token() {
    let state = Arc::new(AppState::new(BookSource::embedded(), None));
    let r = gui::router(
        state,
        Access::new("0.0.0.0", PORT).with_token("t0ken".into()),
    );
    let get = |path: &str, extra: Option<(&str, &str)>| {
        let mut req = Request::get(path).header("host", format!("192.0.2.7:{PORT}"));
        if let Some((name, value)) = extra {
            req = req.header(name, value);
        }
        r.clone().oneshot(req.body(Body::empty()).expect("request"))
    };
    for (path, extra) in [
        ("/api/options", None),
        ("/", None),
        ("/api/options", Some(("x-kestrel-token", "t0ke"))),
        ("/api/options?token=nope", None),
        ("/api/options", Some(("cookie", "kestrel_token=T0KEN"))),
    ] {
        let res = get(path, extra).await.expect("answers");
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{path} {extra:?}");
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        let answer: Value = serde_json::from_slice(&bytes).expect("JSON");
        assert!(
            answer["error"]
                .as_str()
                .is_some_and(|e| e.contains("?token=")),
            "{answer}"
        );
    }
    let res = get("/?token=t0ken", None).await.expect("answers");
    assert_eq!(res.status(), StatusCode::OK);
    let cookie = res.headers()["set-cookie"]
        .to_str()
        .expect("text")
        .to_string();
    assert!(
        cookie.starts_with("kestrel_token=t0ken;") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    for extra in [
        ("x-kestrel-token", "t0ken"),
        ("cookie", "kestrel_token=t0ken"),
    ] {
        let res = get("/api/options", Some(extra)).await.expect("answers");
        assert_eq!(res.status(), StatusCode::OK, "{extra:?}");
    }
    // On loopback no token is asked for.
    let res = router()
        .oneshot(
            Request::get("/api/options")
                .header("host", format!("127.0.0.1:{PORT}"))
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("answers");
    assert_eq!(res.status(), StatusCode::OK);
}
