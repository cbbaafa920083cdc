//! `GET /api/events?game=ID`: the engine's output as server-sent events,
//! one JSON object per event. When a tab's last stream closes (the tab was
//! closed or reloaded) its search is stopped; when the server drops the
//! game, the stream says so (`{"type":"expired"}`) and ends.

use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use tokio::sync::broadcast::error::RecvError;

use crate::api::GameQuery;
use crate::error::{ApiError, ApiQuery};
use crate::session::{AppState, Session, EXPIRED_EVENT};

/// Counts a stream as listening while it lives.
struct Listener(Arc<Session>);

impl Listener {
    fn new(session: Arc<Session>) -> Listener {
        session.listeners.fetch_add(1, Ordering::SeqCst);
        Listener(session)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        if self.0.listeners.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.cancel_search();
        }
    }
}

/// The event stream of one game.
pub async fn events(
    State(state): State<Arc<AppState>>,
    ApiQuery(q): ApiQuery<GameQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let session = state.get(&q.game)?;
    let receiver = session.events.subscribe();
    let listener = Listener::new(session);
    let hello = Event::default().data(r#"{"type":"hello"}"#);
    let first = stream::iter([Ok(hello)]);
    // The stream ends after the event that says the game was dropped:
    // holding the session would keep its engine's memory.
    let rest = stream::unfold(Some((receiver, listener)), |open| async move {
        let (mut receiver, listener) = open?;
        loop {
            match receiver.recv().await {
                Ok(text) => {
                    let next = (text.as_str() != EXPIRED_EVENT).then_some((receiver, listener));
                    return Some((Ok(Event::default().data(text.as_str())), next));
                }
                // A slow page skips events rather than holding up the engine.
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return None,
            }
        }
    });
    Ok(Sse::new(futures_util::StreamExt::chain(first, rest)).keep_alive(KeepAlive::default()))
}
