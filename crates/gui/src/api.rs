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
use gamerecord::memory;
use gamerecord::record::GameRecord;
use gamerecord::request::{
    not_hidden, AnnotateBody, ClockBody, DeleteBody, EndBody, EngineBody, GameBody, GoBody,
    GotoBody, LinesBody, MoveBody, NewGame, PgnBody, PositionBody, PromoteBody, ReviewBody,
    StopBody, TagsBody, UndoBody,
};
use gamerecord::settings::OptionsAnswer;
use gamerecord::tablebase_panel::{Probe, TablebasePanel};
use gamerecord::view::{GameJson, MoveView};
use gamerecord::GameError;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error::{ApiError, ApiJson, ApiQuery};
use crate::search_run;
use crate::session::{AppState, RoomKind, Session};

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

/// Changes `session`'s game: the room for what the change adds (`adds`
/// bytes, none for a change that adds nothing) reserved first, the
/// session counted again after, whether the change was made or refused.
fn change<T>(
    state: &AppState,
    session: &Session,
    adds: usize,
    change: impl FnOnce(&mut GameRecord) -> Result<T, GameError>,
) -> Result<T, ApiError> {
    let room = match adds {
        0 => None,
        bytes => Some(state.reserve(bytes, Some(&session.id))?),
    };
    let done = change(&mut session.record());
    session.recount();
    drop(room);
    Ok(done?)
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

/// Plays a move, which goes on view: a new variation when it leaves the
/// line, or the existing node when it was played there already (stopping
/// the engine's search: the position it searched is no longer on view).
pub async fn play_move(
    State(state): Shared,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    // Checked, and its room reserved, before the search stops, so that a
    // refused move leaves it running.
    let adds = {
        let record = session.record();
        body.check(&record)?;
        memory::nodes_bytes(&record, 1)
    };
    let room = state.reserve(adds, Some(&session.id))?;
    session.cancel_search();
    change(&state, &session, 0, |record| body.apply(record))?;
    drop(room);
    view(&state, &session)
}

/// Goes to a position of the game (the engine's search goes on: the page
/// starts analysis of the new position itself).
pub async fn goto(
    State(state): Shared,
    ApiJson(body): ApiJson<GotoBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    body.apply(&mut session.record())?;
    view(&state, &session)
}

/// Promotes a variation.
pub async fn promote(
    State(state): Shared,
    ApiJson(body): ApiJson<PromoteBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    body.apply(&mut session.record())?;
    view(&state, &session)
}

/// Annotates a move.
pub async fn annotate(
    State(state): Shared,
    ApiJson(body): ApiJson<AnnotateBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    // A long comment counts against the games' memory like a long game:
    // refused, the game left as it was, when games in use fill it.
    let adds = memory::annotation_bytes(body.comment.as_deref(), body.nags.as_deref());
    change(&state, &session, adds, |record| body.apply(record))?;
    view(&state, &session)
}

/// Records a move's clock (see [`gamerecord::record::GameRecord::set_clock`]
/// for what is refused).
pub async fn set_clock(
    State(state): Shared,
    ApiJson(body): ApiJson<ClockBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    body.apply(&mut session.record())?;
    view(&state, &session)
}

/// Deletes from a node on (stopping the engine: it may search a deleted position).
pub async fn delete(
    State(state): Shared,
    ApiJson(body): ApiJson<DeleteBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    // Checked first, so that a refused deletion leaves a search running.
    body.check(&session.record())?;
    session.cancel_search();
    change(&state, &session, 0, |record| body.apply(record))?;
    view(&state, &session)
}

/// Takes moves back (stopping the engine: it may search a position taken
/// back); refused, the search left running, for a finished game.
pub async fn undo(
    State(state): Shared,
    ApiJson(body): ApiJson<UndoBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    body.check(&session.record())?;
    session.cancel_search();
    change(&state, &session, 0, |record| body.apply(record))?;
    view(&state, &session)
}

/// Ends the game by resignation, agreement or the page's clock (the engine
/// stops: there is nothing left to play).
pub async fn end_game(
    State(state): Shared,
    ApiJson(body): ApiJson<EndBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    body.end.ending(body.side)?;
    session.cancel_search();
    body.apply(&mut session.record())?;
    view(&state, &session)
}

/// Sets PGN tags (an empty value removes one).
pub async fn set_tags(
    State(state): Shared,
    ApiJson(body): ApiJson<TagsBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    let adds = memory::tags_bytes(&body.tags);
    change(&state, &session, adds, |record| body.apply(record))?;
    view(&state, &session)
}

/// Starts the game again from a position (refused for a finished game,
/// which stays as played).
pub async fn set_position(
    State(state): Shared,
    ApiJson(body): ApiJson<PositionBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    body.check(&session.record())?;
    session.cancel_search();
    session.engine().new_game();
    change(&state, &session, 0, |record| body.apply(record))?;
    view(&state, &session)
}

/// Imports a PGN game. The room for reading it and for the game it makes
/// is reserved first, from what the text holds (a long game refused
/// before a byte of it is read into one, when games in use fill the
/// games' memory); the game it replaces goes as it is swapped in.
pub async fn import_pgn(
    State(state): Shared,
    ApiJson(body): ApiJson<PgnBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    let room = state.reserve(memory::import_bound(&body.pgn), Some(&session.id))?;
    let imported = body.imported(&session.record())?;
    session.cancel_search();
    session.engine().new_game();
    let before = std::mem::replace(&mut *session.record(), imported);
    drop(before);
    session.recount();
    drop(room);
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
) -> Result<Json<search_run::GoAnswer>, ApiError> {
    let session = state.get(&body.game)?;
    let answer = tokio::task::spawn_blocking(move || search_run::start(&state, &session, &body))
        .await
        .map_err(|e| ApiError::conflict(format!("the search could not start: {e}")))??;
    Ok(Json(answer))
}

/// What `POST /api/stop` did.
#[derive(Serialize)]
pub struct StopAnswer {
    /// A search was running and is stopped.
    stopped: bool,
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

/// Adds the best lines (see [`crate::review_run::add_best_lines`]), the
/// room for them (and for the copy that puts the game back if one fails)
/// reserved first; the game is left as it was when one fails.
pub async fn review_lines(
    State(state): Shared,
    ApiJson(body): ApiJson<LinesBody>,
) -> Result<Response, ApiError> {
    let session = state.get(&body.game)?;
    let adds = memory::best_lines_bytes(&session.record(), body.ply);
    change(&state, &session, adds, |record| {
        let before = record.clone();
        crate::review_run::add_best_lines(&session, record, body.ply).inspect_err(|_| {
            *record = before;
        })
    })?;
    view(&state, &session)
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
