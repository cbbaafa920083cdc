//! The JSON API under `/api/`: games (one per tab, by id), moves, undo,
//! positions, PGN, engine searches, the book and the tables. Every request
//! is checked before anything changes, so a bad one leaves the game as it
//! was; one that adds to a game reserves the room first (see
//! [`AppState::reserve`]), and the game's view goes out within the room
//! the game keeps for it ([`AppState::json_answer`]).

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use gamerecord::change::Change;
use gamerecord::memory;
use gamerecord::refusal::Refusal;
use gamerecord::request::{
    not_hidden, EngineBody, GameBody, GoAnswer, GoBody, NewGame, ReviewBody, StopAnswer, StopBody,
};
use gamerecord::settings::OptionsAnswer;
use gamerecord::tablebase_panel::{Probe, TablebasePanel};
use gamerecord::view::{GameJson, MoveView};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{ApiError, ApiJson, ApiQuery};
use crate::session::{AppState, RoomKind, Session};
use crate::{change_host, search_run};

type Shared = State<Arc<AppState>>;

/// `?game=ID`.
#[derive(Deserialize)]
pub struct GameQuery {
    /// The game's id.
    pub game: String,
}

/// The answer every change of a game gets: the game's view
/// ([`GameJson`]), written in the room the game keeps for it.
fn view(state: &AppState, session: &Arc<Session>) -> Result<Response, ApiError> {
    let record = session.record();
    state.json_answer(session, &GameJson::new(&session.id, &record))
}

/// `POST /api/game` `{"fen"?}`: creates a game for a tab.
pub async fn new_game(
    State(state): Shared,
    ApiJson(body): ApiJson<NewGame>,
) -> Result<Response, ApiError> {
    let session = state.create(body.start()?)?;
    view(&state, &session)
}

/// `GET /api/state?game=ID`.
pub async fn get_state(
    State(state): Shared,
    ApiQuery(q): ApiQuery<GameQuery>,
) -> Result<Response, ApiError> {
    let session = state.get(&q.game)?;
    view(&state, &session)
}

/// `POST` to one of gamerecord's [`Change::ROUTES`] (a move, a takeback,
/// a new position, an imported game, ...): the change made as every host
/// makes it ([`Change::make`]: checked before the search stops, so a
/// refused one leaves the game and its search as they were; the room for
/// what it adds reserved first), answered with the game's view.
pub async fn change(
    State(state): Shared,
    uri: axum::http::Uri,
    ApiJson(body): ApiJson<Value>,
) -> Result<Response, ApiError> {
    let change = Change::parse(uri.path(), body)
        .ok_or_else(|| ApiError::from(Refusal::no_such_request()))?
        .map_err(|e| ApiError::from(Refusal::bad_json(e)))?;
    let session = change_host::make(&state, &change)?;
    view(&state, &session)
}

/// `GET /api/pgn?game=ID`: the game as a PGN file.
pub async fn export_pgn(
    State(state): Shared,
    ApiQuery(q): ApiQuery<GameQuery>,
) -> Result<Response, ApiError> {
    let session = state.get(&q.game)?;
    let text = {
        let record = session.record();
        let room = state.game_room(&session, RoomKind::Show, memory::export_bytes(&record))?;
        crate::budget::HeldText::new(record.export_pgn(), room)
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8",
            ),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"kestrel-game.pgn\"",
            ),
        ],
        axum::body::Body::from(axum::body::Bytes::from_owner(text)),
    )
        .into_response())
}

/// `GET /api/legal?game=ID`: the legal moves now.
pub async fn legal(
    State(state): Shared,
    ApiQuery(q): ApiQuery<GameQuery>,
) -> Result<Json<Vec<MoveView>>, ApiError> {
    let session = state.get(&q.game)?;
    let legal = gamerecord::view::legal_moves(&session.record());
    Ok(Json(legal))
}

/// Starts a search; its output comes on the event stream.
pub async fn go(
    State(state): Shared,
    ApiJson(body): ApiJson<GoBody>,
) -> Result<Json<GoAnswer>, ApiError> {
    let session = state.get(&body.game)?;
    let answer = tokio::task::spawn_blocking(move || search_run::start(&state, &session, &body))
        .await
        .map_err(|e| ApiError::conflict(format!("the search could not start: {e}")))??;
    Ok(Json(answer))
}

/// Stops the search and forgets its move (the page stops before undo, a
/// new game or editing, where a move played meanwhile would be wrong), or
/// only the analysis (turned off).
pub async fn stop(
    State(state): Shared,
    ApiJson(body): ApiJson<StopBody>,
) -> Result<Json<StopAnswer>, ApiError> {
    let session = state.get(&body.game)?;
    let stopped = session.stop_search(body.purpose);
    Ok(Json(StopAnswer { stopped }))
}

/// `POST /api/draw` `{"game"}`: the side to move offers the engine a draw
/// in a game against it; the engine weighs it (see [`crate::draw`]).
pub async fn draw(
    State(state): Shared,
    ApiJson(body): ApiJson<GameBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    tokio::task::spawn_blocking(move || crate::draw::offer(&state, &session))
        .await
        .map_err(|e| ApiError::conflict(format!("the offer could not be weighed: {e}")))?
}

/// `GET /api/options`: the engine options a side can set, whether the
/// engine has levels and whether endgame tables are configured.
pub async fn options(State(state): Shared) -> Json<OptionsAnswer> {
    // The list is the engine's and cannot change while the program runs.
    static OPTIONS: std::sync::OnceLock<OptionsAnswer> = std::sync::OnceLock::new();
    let base = OPTIONS.get_or_init(|| OptionsAnswer::new(false, 1, 1));
    use engine::Tablebase;
    Json(OptionsAnswer {
        // The 3- and 4-piece tables are compiled in; --syzygy-path adds more.
        tablebase: true,
        tablebase_pieces: state
            .tables()
            .map_or(0, |t| t.max_pieces())
            .max(syzygy::embedded::EMBEDDED_PIECES),
        syzygy_path: state.tables_path(),
        syzygy_settable: true,
        // What POST /api/engine takes on this machine and server.
        threads_max: crate::session::max_threads(),
        hash_max_mib: state.max_hash_mib(),
        own_games: state.own_games.as_ref().map(|o| o.view()),
        ..base.clone()
    })
}

/// Sets them (its search stops; a new table starts empty) and answers
/// `{"threads", "hash_mib"}`. 400 for a number out of range (threads: 1 to
/// the machine's cores; table: 1 MiB to `hash_max_mib`); 503, the engine
/// left as it was, when the new table and threads would not fit the games'
/// memory with the games in use (the room for them is reserved before
/// they are made, the old table kept until the new one is held), or the
/// system will not give them.
pub async fn engine_resources(
    State(state): Shared,
    ApiJson(body): ApiJson<EngineBody>,
) -> Result<Json<crate::session::Resources>, ApiError> {
    let session = state.get(&body.game)?;
    body.check(crate::session::max_threads(), state.max_hash_mib())?;
    let before = session.resources();
    let after = crate::session::Resources {
        threads: body.threads.unwrap_or(before.threads),
        hash_mib: body.hash_mib.unwrap_or(before.hash_mib),
    };
    let room = state.reserve(after.bytes(), Some(&session.id))?;
    let set = {
        let session = session.clone();
        tokio::task::spawn_blocking(move || session.set_resources(body.threads, body.hash_mib))
    };
    let now = set
        .await
        .map_err(|e| ApiError::conflict(format!("the engine could not be set: {e}")));
    session.recount();
    drop(room);
    Ok(Json(now??))
}

/// `GET /api/book?game=ID`: the book's moves in the current position.
pub async fn book_moves(
    State(state): Shared,
    ApiQuery(q): ApiQuery<GameQuery>,
) -> Result<Json<gamerecord::book_panel::BookPanel>, ApiError> {
    let session = state.get(&q.game)?;
    let record = session.record();
    let book = state
        .book
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let panel =
        gamerecord::book_panel::BookPanel::of(&record, book.name(), book.writable(), |pos| {
            book.candidates(pos)
        })?;
    Ok(Json(panel))
}

/// `GET /api/explorer?game=ID` (and `db`: `masters` or `mine`, the
/// player's own games of `--explorer`; `min_rating`, `max_rating`,
/// `since`, `until`): what the games of the collection the filters admit
/// say about the position on view: each move with its games and results,
/// and the best-rated games through it.
pub async fn explorer(
    State(state): Shared,
    ApiQuery(q): ApiQuery<gamerecord::explorer::ExplorerQuery>,
) -> Result<Json<gamerecord::explorer::ExplorerView>, ApiError> {
    let db = q.database()?;
    let session = state.get(&q.game)?;
    not_hidden(&session.record(), "the explorer's statistics")?;
    let pos = session.record().position();
    let filter = q.filter();
    // The first request may index the master games (under a second): not on an
    // async thread.
    let view = tokio::task::spawn_blocking(move || {
        let explorer = gamerecord::explorer::collection(db, state.own_games.as_deref())?;
        Ok::<_, gamerecord::GameError>(gamerecord::explorer::view(explorer, db, &pos, &filter))
    })
    .await
    .map_err(|e| ApiError::conflict(format!("the games could not be read: {e}")))??;
    Ok(Json(view))
}

/// `?id=N` (and `db`): a game of the explorer's collection.
#[derive(Deserialize)]
pub struct ExplorerGameQuery {
    /// The game's number, as `GET /api/explorer` lists it.
    pub id: book::GameId,
    /// The collection: `masters` (the default) or `mine`.
    #[serde(default)]
    pub db: Option<String>,
}

/// `GET /api/explorer/game?id=N` (and `db`): game N of the collection as
/// PGN (the page loads it on the analysis board).
pub async fn explorer_game(
    State(state): Shared,
    ApiQuery(q): ApiQuery<ExplorerGameQuery>,
) -> Result<Response, ApiError> {
    let id = q.id;
    let db = gamerecord::explorer::Database::named(q.db.as_deref())?;
    let text = tokio::task::spawn_blocking(move || {
        gamerecord::explorer::collection_pgn(db, state.own_games.as_deref(), id)
    })
    .await
    .map_err(|e| ApiError::conflict(format!("the games could not be read: {e}")))??;
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

/// `POST /api/book/add` `{"game"}`: adds the game's last move to the text book.
pub async fn book_add(
    State(state): Shared,
    ApiJson(body): ApiJson<GameBody>,
) -> Result<Json<Value>, ApiError> {
    let session = state.get(&body.game)?;
    let (game, _room) = {
        let record = session.record();
        let plies = record.tree.path(record.current).map_or(0, |p| p.len());
        let room = state.game_room(&session, RoomKind::Line, memory::line_copy_bytes(plies))?;
        (record.current_game(), room)
    };
    let mut book = state
        .book
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let san = book.add_last_move(&game).map_err(ApiError::conflict)?;
    Ok(Json(json!({"added": san, "book": book.name()})))
}

/// `POST /api/syzygy` `{"path"}`: the engine option `SyzygyPath` as the
/// page sets it: the tables of those directories (separated as in PATH)
/// answer the tablebase panel and every game's engine from its next
/// search on; an empty path goes back to the tables the server started
/// with. Answers `{"path", "pieces"}`; 400, the tables left as they were,
/// for directories that hold none.
pub async fn syzygy_path(
    State(state): Shared,
    ApiJson(body): ApiJson<SyzygyBody>,
) -> Result<Json<Value>, ApiError> {
    let path = body.path.trim().to_string();
    if path.is_empty() {
        state.set_tables(None, None);
    } else {
        let opened = {
            let path = path.clone();
            tokio::task::spawn_blocking(move || syzygy::SyzygyTablebase::open(&path))
        };
        let (tables, _problems) = opened
            .await
            .map_err(|e| ApiError::conflict(format!("the tables could not be opened: {e}")))?
            .map_err(|e| ApiError::bad_request(format!("SyzygyPath {path}: {e}")))?;
        state.set_tables(Some(path), Some(Arc::new(tables)));
    }
    use engine::Tablebase;
    let pieces = state
        .tables()
        .map_or(0, |t| t.max_pieces())
        .max(syzygy::embedded::EMBEDDED_PIECES);
    Ok(Json(
        json!({ "path": state.tables_path(), "pieces": pieces }),
    ))
}

/// `POST /api/syzygy`'s body.
#[derive(Deserialize)]
pub struct SyzygyBody {
    /// `SyzygyPath`: directories separated as in PATH; empty for the
    /// server's own tables.
    pub path: String,
}

/// `GET /api/tablebase?game=ID`: what the Syzygy tables say about the
/// position on view and each of its moves (gamerecord's
/// [`TablebasePanel`]): the tables of `--syzygy-path` where they hold it,
/// else the 3- and 4-piece tables compiled into Kestrel.
pub async fn tablebase(
    State(state): Shared,
    ApiQuery(q): ApiQuery<GameQuery>,
) -> Result<Json<TablebasePanel>, ApiError> {
    let session = state.get(&q.game)?;
    not_hidden(&session.record(), "the tables' verdict")?;
    let (pos, mode) = {
        let record = session.record();
        (record.position(), record.mode())
    };
    let tables = state.tables();
    let panel = tokio::task::spawn_blocking(move || {
        let probe = tables
            .as_deref()
            .and_then(|t| t.probe_all(&pos))
            .or_else(|| syzygy::SyzygyTablebase::embedded().probe_all(&pos))
            .map(Probe::from_parts);
        TablebasePanel::of(&pos, mode, probe)
    })
    .await
    .map_err(|e| ApiError::conflict(format!("the probe failed: {e}")))?;
    Ok(Json(panel))
}

/// Starts the analysis pass over the game (409 while its evaluation is hidden).
pub async fn start_review(
    State(state): Shared,
    ApiJson(body): ApiJson<ReviewBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    let limit = body.limit();
    // The pass's copy of the main line, held while it runs, and its results.
    let (copy, results) = {
        let record = session.record();
        let plies = record.tree.first_children(gamerecord::tree::ROOT).count();
        let copy = state.game_room(&session, RoomKind::Line, memory::line_copy_bytes(plies))?;
        let results = state.reserve(memory::pass_results_bytes(plies), Some(&session.id))?;
        (copy, results)
    };
    let started = {
        let session = session.clone();
        tokio::task::spawn_blocking(move || {
            let started = crate::review_run::start(&session, limit, copy);
            // The results are made: the session counts them from here.
            session.recount();
            drop(results);
            started
        })
        .await
        .map_err(|e| ApiError::conflict(format!("the pass could not start: {e}")))?
    };
    state.json_answer(&session, &started?)
}

/// `GET /api/analysis?game=ID`: the pass's progress and results.
pub async fn review(
    State(state): Shared,
    ApiQuery(q): ApiQuery<GameQuery>,
) -> Result<Response, ApiError> {
    let session = state.get(&q.game)?;
    state.json_answer(&session, &crate::review_run::view(&session))
}

/// `POST /api/analysis/cancel` `{"game"}`: stops the pass, keeping what it found.
pub async fn cancel_review(
    State(state): Shared,
    ApiJson(body): ApiJson<GameBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    let cancelled = {
        let session = session.clone();
        tokio::task::spawn_blocking(move || crate::review_run::cancel(&session))
            .await
            .map_err(|e| ApiError::conflict(format!("the pass could not be cancelled: {e}")))?
    };
    state.json_answer(&session, &cancelled)
}

/// `GET /api/opening?game=ID`: every named position of the game, in order.
pub async fn opening(
    State(state): Shared,
    ApiQuery(q): ApiQuery<GameQuery>,
) -> Result<Json<Value>, ApiError> {
    let session = state.get(&q.game)?;
    let (positions, _room) = {
        let record = session.record();
        let plies = record.tree.first_children(gamerecord::tree::ROOT).count();
        let room = state.game_room(&session, RoomKind::Line, memory::line_copy_bytes(plies))?;
        (record.positions(), room)
    };
    let named = tokio::task::spawn_blocking(move || gamerecord::opening::named_plies(&positions))
        .await
        .map_err(|e| ApiError::conflict(format!("the opening table could not be read: {e}")))?;
    Ok(Json(json!({ "openings": named })))
}
