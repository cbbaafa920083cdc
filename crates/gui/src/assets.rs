//! The page's files, compiled into the binary so that the server needs no
//! file of its own at run time (and reads none).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const MATCH_JS: &str = include_str!("../assets/match.js");
const REVIEW_JS: &str = include_str!("../assets/review.js");
const OPENING_JS: &str = include_str!("../assets/opening.js");
const VARIATIONS_JS: &str = include_str!("../assets/variations.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

/// The Cburnett pieces (see assets/pieces/README.md for their licence), by
/// the name the page asks for: colour letter then piece letter.
const PIECES: [(&str, &str); 12] = [
    ("wK", include_str!("../assets/pieces/wK.svg")),
    ("wQ", include_str!("../assets/pieces/wQ.svg")),
    ("wR", include_str!("../assets/pieces/wR.svg")),
    ("wB", include_str!("../assets/pieces/wB.svg")),
    ("wN", include_str!("../assets/pieces/wN.svg")),
    ("wP", include_str!("../assets/pieces/wP.svg")),
    ("bK", include_str!("../assets/pieces/bK.svg")),
    ("bQ", include_str!("../assets/pieces/bQ.svg")),
    ("bR", include_str!("../assets/pieces/bR.svg")),
    ("bB", include_str!("../assets/pieces/bB.svg")),
    ("bN", include_str!("../assets/pieces/bN.svg")),
    ("bP", include_str!("../assets/pieces/bP.svg")),
];

fn file(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /`.
pub async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`.
pub async fn app_js() -> Response {
    file("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /match.js`: a game against the engine (clocks, resign, draw offers).
pub async fn match_js() -> Response {
    file("text/javascript; charset=utf-8", MATCH_JS)
}

/// `GET /review.js`: the game analysis pass, its graph and judged moves.
pub async fn review_js() -> Response {
    file("text/javascript; charset=utf-8", REVIEW_JS)
}

/// `GET /opening.js`: the opening's name above the moves.
pub async fn opening_js() -> Response {
    file("text/javascript; charset=utf-8", OPENING_JS)
}

/// `GET /variations.js`: the move list as a tree (variations, comments,
/// NAG glyphs) and its promote and delete commands.
pub async fn variations_js() -> Response {
    file("text/javascript; charset=utf-8", VARIATIONS_JS)
}

/// `GET /style.css`.
pub async fn style_css() -> Response {
    file("text/css; charset=utf-8", STYLE_CSS)
}

/// `GET /pieces/{name}.svg`.
pub async fn piece(Path(name): Path<String>) -> Response {
    let name = name.strip_suffix(".svg").unwrap_or(&name);
    match PIECES.iter().find(|(n, _)| *n == name) {
        Some((_, svg)) => (
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                (header::CACHE_CONTROL, "max-age=86400"),
            ],
            *svg,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such piece").into_response(),
    }
}
