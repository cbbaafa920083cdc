//! The page's files, compiled into the binary so that the server needs no
//! file of its own at run time (and reads none).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The page's scripts, by the path they are served at (`/app.js`...).
/// app.js is the board and the API calls; the others are loaded before it
/// and each does one thing with its state (see the comment atop each file).
pub const SCRIPTS: [(&str, &str); 6] = [
    ("app.js", include_str!("../assets/app.js")),
    ("match.js", include_str!("../assets/match.js")),
    ("review.js", include_str!("../assets/review.js")),
    ("opening.js", include_str!("../assets/opening.js")),
    ("variations.js", include_str!("../assets/variations.js")),
    ("keys.js", include_str!("../assets/keys.js")),
];
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

/// `GET /NAME.js`: one of [`SCRIPTS`].
pub fn script(body: &'static str) -> Response {
    file("text/javascript; charset=utf-8", body)
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
