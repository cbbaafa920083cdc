//! Kestrel's browser GUI: `kestrel gui` serves a single page (board, move
//! list, analysis, edit mode, book, sounds) and a JSON API under `/api/`
//! that the page, or any script, uses to play and analyse. Each browser tab
//! gets its own game and engine; engine output streams as server-sent
//! events. The page's files are compiled in; the server reads and writes
//! no file but the book and tables named on the command line.

pub mod api;
pub mod assets;
pub mod book_source;
pub mod draw;
pub mod error;
pub mod events;
pub mod game_end;
pub mod host_guard;
pub mod judgement;
pub mod opening;
pub mod record;
pub mod review;
pub mod search_run;
pub mod session;
pub mod settings;
pub mod tree;
pub mod view;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

use book_source::BookSource;
use host_guard::Access;
use session::AppState;

/// The largest request body: a long PGN game fits many times over.
pub const BODY_LIMIT: usize = 1 << 20;

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
    /// The memory all games together may hold, MiB (`None`: the default,
    /// [`session::DEFAULT_BUDGET_MIB`] or half the memory available, if less).
    pub games_memory_mib: Option<usize>,
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
        Some(path) => {
            let (tables, problems) = syzygy::SyzygyTablebase::open(path)
                .map_err(|e| StartError::Tables(e.to_string()))?;
            for p in problems {
                eprintln!("warning: Syzygy: {p}");
            }
            Some(Arc::new(tables))
        }
        None => None,
    };
    let budget = games_budget(config.games_memory_mib, engine::memory::available_mib())?;
    Ok(Arc::new(AppState::with_budget(book, tables, budget)))
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
    for (name, body) in assets::SCRIPTS {
        router = router.route(
            &format!("/{name}"),
            get(move || async move { assets::script(body) }),
        );
    }
    router
        .route("/style.css", get(assets::style_css))
        .route("/pieces/{name}", get(assets::piece))
        .route("/pieces/{set}/{name}", get(assets::piece_of_set))
        .route("/api/game", post(api::new_game))
        .route("/api/state", get(api::get_state))
        .route("/api/move", post(api::play_move))
        .route("/api/undo", post(api::undo))
        .route("/api/goto", post(api::goto))
        .route("/api/promote", post(api::promote))
        .route("/api/delete", post(api::delete))
        .route("/api/annotate", post(api::annotate))
        .route("/api/end", post(api::end_game))
        .route("/api/tags", post(api::set_tags))
        .route("/api/position", post(api::set_position))
        .route("/api/pgn", get(api::export_pgn).post(api::import_pgn))
        .route("/api/legal", get(api::legal))
        .route("/api/go", post(api::go))
        .route("/api/stop", post(api::stop))
        .route("/api/draw", post(api::draw))
        .route("/api/events", get(events::events))
        .route("/api/options", get(api::options))
        .route("/api/book", get(api::book_moves))
        .route("/api/book/add", post(api::book_add))
        .route("/api/tablebase", get(api::tablebase))
        .route("/api/analysis", get(api::review).post(api::start_review))
        .route("/api/analysis/cancel", post(api::cancel_review))
        .route("/api/opening", get(api::opening))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(access),
            host_guard::guard,
        ))
        .layer(axum::middleware::from_fn(error::json_errors))
}

/// Serves until Ctrl-C. `on_ready` gets the page's URL once the port is open.
pub fn run(config: Config, on_ready: impl FnOnce(&str)) -> Result<(), StartError> {
    let state = state(&config)?;
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
        on_ready(&format!("http://{host}:{}/", local.port()));
        let access = Access::new(&config.host, local.port());
        axum::serve(listener, router(state, access))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
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
