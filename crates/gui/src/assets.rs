//! The page's files, compiled into the binary so that the server needs no
//! file of its own at run time (and reads none).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The addresses the page answers at besides `/` (the analysis board):
/// the same document, which shows the page its address names (pages.js).
pub const PAGES: [&str; 3] = ["play", "analysis", "editor"];
/// The page's scripts, by the path they are served at (`/app.js`...).
/// app.js is the page's state and the API calls; the others are loaded
/// before it and each does one thing with its state (see the comment atop
/// each file). chessground.js is lichess's board (`@lichess-org/chessground`,
/// GPL-3.0-or-later, vendored unchanged: assets/chessground/README.md),
/// an ES module that app.js imports.
pub const SCRIPTS: [(&str, &str); 15] = [
    ("app.js", include_str!("../assets/app.js")),
    ("match.js", include_str!("../assets/match.js")),
    ("review.js", include_str!("../assets/review.js")),
    ("opening.js", include_str!("../assets/opening.js")),
    ("variations.js", include_str!("../assets/variations.js")),
    ("keys.js", include_str!("../assets/keys.js")),
    ("annotate.js", include_str!("../assets/annotate.js")),
    ("themes.js", include_str!("../assets/themes.js")),
    ("persist.js", include_str!("../assets/persist.js")),
    ("board.js", include_str!("../assets/board.js")),
    ("editor.js", include_str!("../assets/editor.js")),
    ("resize.js", include_str!("../assets/resize.js")),
    ("pages.js", include_str!("../assets/pages.js")),
    (
        "engine_settings.js",
        include_str!("../assets/engine_settings.js"),
    ),
    (
        "chessground.js",
        include_str!("../assets/chessground/chessground.js"),
    ),
];
/// The page's style sheets by the path they are served at: chessground's
/// own (its layout: assets/chessground) and the page's (colours, pieces,
/// panels).
pub const STYLES: [(&str, &str); 2] = [
    (
        "chessground.css",
        include_str!("../assets/chessground/chessground.css"),
    ),
    ("style.css", include_str!("../assets/style.css")),
];

/// The twelve pieces of the set in `assets/pieces/$dir`, by the name the
/// page asks for: colour letter then piece letter.
macro_rules! piece_set {
    ($dir:literal) => {
        [
            (
                "wK",
                include_str!(concat!("../assets/pieces/", $dir, "wK.svg")),
            ),
            (
                "wQ",
                include_str!(concat!("../assets/pieces/", $dir, "wQ.svg")),
            ),
            (
                "wR",
                include_str!(concat!("../assets/pieces/", $dir, "wR.svg")),
            ),
            (
                "wB",
                include_str!(concat!("../assets/pieces/", $dir, "wB.svg")),
            ),
            (
                "wN",
                include_str!(concat!("../assets/pieces/", $dir, "wN.svg")),
            ),
            (
                "wP",
                include_str!(concat!("../assets/pieces/", $dir, "wP.svg")),
            ),
            (
                "bK",
                include_str!(concat!("../assets/pieces/", $dir, "bK.svg")),
            ),
            (
                "bQ",
                include_str!(concat!("../assets/pieces/", $dir, "bQ.svg")),
            ),
            (
                "bR",
                include_str!(concat!("../assets/pieces/", $dir, "bR.svg")),
            ),
            (
                "bB",
                include_str!(concat!("../assets/pieces/", $dir, "bB.svg")),
            ),
            (
                "bN",
                include_str!(concat!("../assets/pieces/", $dir, "bN.svg")),
            ),
            (
                "bP",
                include_str!(concat!("../assets/pieces/", $dir, "bP.svg")),
            ),
        ]
    };
}

type PieceSet = [(&'static str, &'static str); 12];

/// The piece sets the page offers, by the name in `/pieces/{set}/{piece}.svg`:
/// Cburnett (the default; licence in assets/pieces/README.md) and the
/// DejaVu font's glyphs (assets/pieces/dejavu/README.md).
pub const PIECE_SETS: [(&str, PieceSet); 2] = [
    ("cburnett", piece_set!("")),
    ("dejavu", piece_set!("dejavu/")),
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

/// `GET /NAME.css`: one of [`STYLES`].
pub fn style(body: &'static str) -> Response {
    file("text/css; charset=utf-8", body)
}

/// `GET /pieces/{name}.svg`: a Cburnett piece (the page's icon; the
/// address pages used before there were other sets).
pub async fn piece(Path(name): Path<String>) -> Response {
    serve_piece("cburnett", &name)
}

/// `GET /pieces/{set}/{name}.svg`: a piece of one of [`PIECE_SETS`].
pub async fn piece_of_set(Path((set, name)): Path<(String, String)>) -> Response {
    serve_piece(&set, &name)
}

fn serve_piece(set: &str, name: &str) -> Response {
    let name = name.strip_suffix(".svg").unwrap_or(name);
    let svg = PIECE_SETS
        .iter()
        .find(|(s, _)| *s == set)
        .and_then(|(_, pieces)| pieces.iter().find(|(n, _)| *n == name));
    match svg {
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
