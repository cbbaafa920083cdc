//! Kestrel's browser GUI: `kestrel gui` serves a single page (board, move
//! list, analysis, edit mode, book, sounds) and a JSON API under `/api/`
//! that the page, or any script, uses to play and analyse. Each browser tab
//! gets its own game and engine; engine output streams as server-sent
//! events. The page's files are compiled in; the server reads and writes
//! no file but the book and tables named on the command line.

pub mod api;
pub mod assets;
pub mod book_source;
pub mod budget;
pub mod change_host;
pub mod connections;
pub mod draw;
pub mod error;
pub mod events;
pub mod host_guard;
pub mod kept_room;
pub mod review_run;
pub mod review_state;
pub mod search_run;
pub mod session;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

use book_source::BookSource;
use host_guard::Access;
use session::AppState;

/// The largest request body: a long PGN game fits many times over. A
/// request whose `Content-Length` is larger is answered 413 at once.
pub const BODY_LIMIT: usize = 1 << 20;

pub use connections::{ConnectionLimits, HEADER_TIMEOUT, MAX_CONNECTIONS};

/// Request bodies at least this long count against the games' memory
/// while they are read and used ([`budget`]); shorter ones are too small
/// to matter.
pub const COUNTED_BODY: usize = 64 << 10;

/// The time a client has to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// What `kestrel gui` was asked for.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (127.0.0.1 unless told otherwise).
    pub host: String,
    /// Port (0: any free port).
    pub port: u16,
    /// The opening book (default: the embedded one).
    pub book: Option<PathBuf>,
    /// Syzygy table directories.
    pub syzygy_path: Option<String>,
    /// The player's own PGN files: the explorer's second collection.
    pub explorer: Vec<PathBuf>,
    /// The memory all games together may hold, MiB (`None`: the default,
    /// [`session::DEFAULT_BUDGET_MIB`] or half the memory available, if less).
    pub games_memory_mib: Option<usize>,
    /// How long a game must be left alone before it may be dropped to make
    /// room (`None`: [`session::KEEP_USED_WITHIN`]).
    pub games_idle: Option<Duration>,
}

/// Why the server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The book cannot be used.
    #[error(transparent)]
    Book(#[from] book_source::BookSourceError),
    /// The tables cannot be used.
    #[error("cannot use the Syzygy tables: {0}")]
    Tables(String),
    /// The player's own games cannot be explored.
    #[error("--explorer: {0}")]
    Explorer(String),
    /// The memory for games is too small for one game, or more than the machine has.
    #[error("--games-memory {mib}: {why}")]
    Memory {
        /// The size asked for, MiB.
        mib: usize,
        /// Why it cannot be.
        why: String,
    },
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
}

/// The shared state for `config`: opens the book and the tables.
pub fn state(config: &Config) -> Result<Arc<AppState>, StartError> {
    let book = match &config.book {
        Some(path) => BookSource::open(path)?,
        None => BookSource::embedded(),
    };
    let tables = match &config.syzygy_path {
        Some(path) => Some(open_tables(path).map_err(StartError::Tables)?),
        None => default_tables(),
    };
    let own = if config.explorer.is_empty() {
        None
    } else {
        Some(Arc::new(
            own_games(&config.explorer).map_err(StartError::Explorer)?,
        ))
    };
    let budget = games_budget(config.games_memory_mib, engine::memory::available_mib())?;
    let state = AppState::with_budget(book, tables, budget)
        .keeping_games_used_within(config.games_idle.unwrap_or(session::KEEP_USED_WITHIN))
        .with_own_games(own);
    Ok(Arc::new(state))
}

/// The player's own PGN files indexed for the explorer (`--explorer`), as
/// `kestrel book explore --pgn` indexes them; refused, saying what to do,
/// past the size checked before reading (gamerecord's `MAX_OWN_BYTES`, the
/// files on disk together) or the games' limit, or with nothing to explore.
pub fn own_games(paths: &[PathBuf]) -> Result<gamerecord::explorer::OwnGames, String> {
    let mut bytes = 0u64;
    for path in paths {
        let meta =
            std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        bytes += meta.len();
    }
    gamerecord::explorer::own_size(bytes).map_err(|e| e.to_string())?;
    let (explorer, summary) =
        book::Explorer::from_files(paths, gamerecord::explorer::own_options())
            .map_err(|e| e.to_string())?;
    let files = paths
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect();
    gamerecord::explorer::OwnGames::checked(files, explorer, summary).map_err(|e| e.to_string())
}

/// The variable that names the tables' directories when `--syzygy-path`
/// is not given (as for `kestrel tb probe`).
pub const TABLES_VARIABLE: &str = "KESTREL_SYZYGY_PATH";

/// Where tables are looked for when neither `--syzygy-path` nor
/// [`TABLES_VARIABLE`] names them: the first of these that holds some
/// (`~` is the home directory). The 3- and 4-piece tables are compiled in
/// whatever is found (`syzygy::embedded`).
pub const STANDARD_TABLE_DIRS: [&str; 4] = [
    "~/.local/share/syzygy",
    "~/syzygy",
    "/usr/local/share/syzygy",
    "/usr/share/syzygy",
];

/// The tables in `path` (directories as in PATH), their problems printed
/// as warnings; why none can be used.
fn open_tables(path: &str) -> Result<Arc<syzygy::SyzygyTablebase>, String> {
    let (tables, problems) = syzygy::SyzygyTablebase::open(path).map_err(|e| e.to_string())?;
    for p in problems {
        eprintln!("warning: Syzygy: {p}");
    }
    Ok(Arc::new(tables))
}

/// The tables [`TABLES_VARIABLE`] names, else those of the first of
/// [`STANDARD_TABLE_DIRS`] that holds some; none (a warning) when what
/// the variable names cannot be used.
fn default_tables() -> Option<Arc<syzygy::SyzygyTablebase>> {
    if let Ok(path) = std::env::var(TABLES_VARIABLE) {
        return open_tables(&path)
            .inspect_err(|e| {
                eprintln!(
                    "warning: {TABLES_VARIABLE}: {e}; using the compiled-in 3- and 4-piece tables"
                );
            })
            .ok();
    }
    let home = std::env::var("HOME").unwrap_or_default();
    STANDARD_TABLE_DIRS
        .iter()
        .map(|dir| match dir.strip_prefix('~') {
            Some(rest) if !home.is_empty() => format!("{home}{rest}"),
            Some(_) => String::new(),
            None => dir.to_string(),
        })
        .filter(|dir| !dir.is_empty() && std::path::Path::new(dir).is_dir())
        .find_map(|dir| open_tables(&dir).ok())
}

/// The memory for games in bytes: `asked` MiB, checked against one game's
/// needs and the memory `available` now (MiB, where the system says), or
/// by default [`session::DEFAULT_BUDGET_MIB`], lowered to half of what
/// is available.
pub fn games_budget(asked: Option<usize>, available: Option<u64>) -> Result<usize, StartError> {
    let available = available.map(|a| a as usize);
    let mib = match asked {
        None => available
            .map_or(session::DEFAULT_BUDGET_MIB, |a| {
                session::DEFAULT_BUDGET_MIB.min(a / 2)
            })
            .max(session::MIN_BUDGET_MIB),
        Some(mib) if mib < session::MIN_BUDGET_MIB => {
            return Err(StartError::Memory {
                mib,
                why: format!(
                    "one game and its engine need at least {} MiB",
                    session::MIN_BUDGET_MIB
                ),
            })
        }
        Some(mib) => match available {
            Some(a) if mib > a => {
                return Err(StartError::Memory {
                    mib,
                    why: format!("only {a} MiB of memory are available now; give less"),
                })
            }
            _ => mib,
        },
    };
    Ok(mib.saturating_mul(1 << 20))
}

/// The page and the API, answering only requests that `access` allows
/// (see [`host_guard`]), every refusal a JSON error.
pub fn router(state: Arc<AppState>, access: Access) -> Router {
    let mut router = Router::new().route("/", get(assets::index));
    // The page's own pages (pages.js): one document, each with its address.
    for page in assets::PAGES {
        router = router.route(&format!("/{page}"), get(assets::index));
    }
    for (name, body) in assets::SCRIPTS {
        router = router.route(
            &format!("/{name}"),
            get(move || async move { assets::script(body) }),
        );
    }
    for (name, body) in assets::STYLES {
        router = router.route(
            &format!("/{name}"),
            get(move || async move { assets::style(body) }),
        );
    }
    // The requests that change a game, from the table every host reads.
    for route in gamerecord::change::Change::ROUTES {
        router = router.route(route, post(api::change));
    }
    let router = router
        .route("/pieces/{name}", get(assets::piece))
        .route("/pieces/{set}/{name}", get(assets::piece_of_set))
        .route("/api/game", post(api::new_game))
        .route("/api/state", get(api::get_state))
        .route("/api/pgn", get(api::export_pgn))
        .route("/api/legal", get(api::legal))
        .route("/api/go", post(api::go))
        .route("/api/stop", post(api::stop))
        .route("/api/draw", post(api::draw))
        .route("/api/events", get(events::events))
        .route("/api/options", get(api::options))
        .route("/api/book", get(api::book_moves))
        .route("/api/book/add", post(api::book_add))
        .route("/api/explorer", get(api::explorer))
        .route("/api/explorer/game", get(api::explorer_game))
        .route("/api/tablebase", get(api::tablebase))
        .route("/api/syzygy", post(api::syzygy_path))
        .route("/api/analysis", get(api::review).post(api::start_review))
        .route("/api/analysis/cancel", post(api::cancel_review))
        .route("/api/engine", post(api::engine_resources))
        .route("/api/opening", get(api::opening))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            hold_body,
        ));
    guarded(router.with_state(state), access)
}

/// Middleware: a request body of [`COUNTED_BODY`] bytes or more (by its
/// `Content-Length`, or [`BODY_LIMIT`] when it comes in chunks) counts
/// against the games' memory twice over (its bytes, and the JSON strings
/// read from them) from before it is read until the answer is made;
/// refused with 503 when the games in use leave no room for it.
async fn hold_body(
    axum::extract::State(state): axum::extract::State<Arc<AppState>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let headers = req.headers();
    let declared = headers
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = headers.contains_key(axum::http::header::TRANSFER_ENCODING);
    let length = match (declared, chunked) {
        (Some(n), _) => n.min(BODY_LIMIT),
        (None, true) => BODY_LIMIT,
        (None, false) => 0,
    };
    if length < COUNTED_BODY {
        return next.run(req).await;
    }
    match state.reserve(2 * length, None) {
        Ok(_room) => next.run(req).await,
        Err(full) => full.into_response(),
    }
}

/// `router` behind the server's guards: a `Content-Length` over
/// [`BODY_LIMIT`] answered 413 before the body is read, a body that takes
/// longer than [`BODY_TIMEOUT`] to arrive refused, foreign hosts refused
/// ([`host_guard`]), every 4xx a JSON error, and a handler's panic a 500
/// for that request alone.
pub fn guarded(router: Router, access: Access) -> Router {
    router
        .layer(tower_http::limit::RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            BODY_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(access),
            host_guard::guard,
        ))
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            error::panic_response,
        ))
}

/// A loud warning for a `--host` that other machines can reach, `None`
/// for a loopback address. Such a server needs its token (see
/// [`host_guard`]); the warning says so.
pub fn exposure_warning(host: &str) -> Option<String> {
    let bare = host.trim().trim_start_matches('[').trim_end_matches(']');
    let loopback = bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    (!loopback).then(|| {
        format!(
            "WARNING: --host {host} lets other machines reach this GUI. It has no login, only the \
             token in the URL above: anyone who has that URL (or can read this traffic: it is \
             plain HTTP) can play, read and replace your games and run the engine. Use it only \
             on a network you trust."
        )
    })
}

/// Serves `app` on `listener` until `shutdown` completes, each client
/// held to `limits` (see [`connections`]): a connection in a regular slot
/// has `limits.header_timeout` to send its headers and is kept alive; one
/// in a spare slot has `limits.spare_header_timeout`, one request, and may
/// be closed for a newer one before its request arrives; one for which
/// there is no slot is answered 503 and closed at once.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let held = connections::Connections::new(limits);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                // Out of file descriptors and the like: wait, then go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => return Ok(()),
        };
        match held.admit(peer.ip()) {
            connections::Slot::Regular(slot) => {
                let service = hyper_util::service::TowerToHyperService::new(app.clone());
                tokio::spawn(async move {
                    let _slot = slot;
                    let mut http = hyper::server::conn::http1::Builder::new();
                    http.timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(limits.header_timeout);
                    // A client that goes away ends its connection: nothing to report.
                    let _ = http
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                        .await;
                });
            }
            connections::Slot::Spare(slot) => {
                use tower::ServiceExt;
                let started = slot.started();
                let app = app
                    .clone()
                    .map_request(move |req: axum::extract::Request<_>| {
                        started.store(true, std::sync::atomic::Ordering::SeqCst);
                        req
                    });
                let service = hyper_util::service::TowerToHyperService::new(app);
                tokio::spawn(async move {
                    let mut http = hyper::server::conn::http1::Builder::new();
                    http.timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(limits.spare_header_timeout)
                        .keep_alive(false);
                    let connection =
                        http.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                    tokio::pin!(connection);
                    tokio::select! {
                        _ = connection.as_mut() => return,
                        () = slot.evicted() => {}
                    }
                    // Taken back for a newer connection: closed, unless its
                    // request came in the meantime, which is answered first.
                    if slot.has_started() {
                        connection.as_mut().graceful_shutdown();
                        let _ = connection.await;
                    }
                });
            }
            connections::Slot::Refused => {
                tokio::spawn(refuse_busy(stream));
            }
        }
    }
}

/// Answers a connection over the limit with 503 and closes it.
async fn refuse_busy(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let body = r#"{"error":"the server has as many connections as it serves at once; try again in a few seconds"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let write = async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), write).await;
}

/// Serves until Ctrl-C. `on_ready` gets the page's URL once the port is open.
pub fn run(config: Config, on_ready: impl FnOnce(&str)) -> Result<(), StartError> {
    let state = state(&config)?;
    // The explorer's games are indexed while the page loads, not when it
    // first asks.
    std::thread::spawn(|| {
        gamerecord::explorer::masters();
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| StartError::Listen {
            addr: config.host.clone(),
            source,
        })?;
    runtime.block_on(async move {
        let addr = format!("{}:{}", config.host, config.port);
        let listener = tokio::net::TcpListener::bind(&addr)
            .await
            .map_err(|source| StartError::Listen {
                addr: addr.clone(),
                source,
            })?;
        let local: SocketAddr = listener.local_addr().map_err(|source| StartError::Listen {
            addr: addr.clone(),
            source,
        })?;
        let host = if local.ip().is_unspecified() {
            "127.0.0.1".to_string()
        } else {
            local.ip().to_string()
        };
        let host = if host.contains(':') {
            format!("[{host}]")
        } else {
            host
        };
        let mut access = Access::new(&config.host, local.port());
        match exposure_warning(&config.host) {
            // Reachable from other machines: a token, printed once, in the URL.
            Some(warning) => {
                let token = host_guard::new_token();
                on_ready(&format!("http://{host}:{}/?token={token}", local.port()));
                eprintln!("{warning}");
                access = access.with_token(token);
            }
            None => on_ready(&format!("http://{host}:{}/", local.port())),
        }
        serve(
            listener,
            router(state, access),
            ConnectionLimits::default(),
            async {
                let _ = tokio::signal::ctrl_c().await;
            },
        )
        .await
        .map_err(|source| StartError::Listen { addr, source })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_memory_is_checked() {
        let mib = |m: usize| m << 20;
        assert_eq!(games_budget(None, None).ok(), Some(mib(2048)));
        assert_eq!(
            games_budget(None, Some(1000)).ok(),
            Some(mib(500)),
            "half what is free"
        );
        assert_eq!(
            games_budget(None, Some(20)).ok(),
            Some(mib(32)),
            "never less than one game"
        );
        assert_eq!(games_budget(Some(100), Some(1000)).ok(), Some(mib(100)));
        assert_eq!(games_budget(Some(100), None).ok(), Some(mib(100)));
        let small = games_budget(Some(0), Some(1000))
            .expect_err("too small")
            .to_string();
        assert!(
            small.contains("--games-memory 0") && small.contains("at least 32"),
            "{small}"
        );
        let big = games_budget(Some(5000), Some(1000))
            .expect_err("too big")
            .to_string();
        assert!(big.contains("only 1000 MiB"), "{big}");
        assert!(games_budget(Some(usize::MAX), None).is_ok(), "no overflow");
    }
}
