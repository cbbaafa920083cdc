//! The games' memory as a budget (`--games-memory`): one count of the
//! bytes that the games hold and that requests about them are making,
//! checked before anything is allocated.
//!
//! A game is counted by its size ([`crate::session::Session::recount`]:
//! its engine's table and search state, its move tree, the room to show it
//! and to walk its main line, its analysis results). What a request makes
//! besides (a PGN read into a game, a new engine, a JSON answer or event on
//! its way out, a request body) is a [`Reservation`], taken before it is
//! made and given back when it is gone. A reservation that does not fit is
//! refused: the request gets a 503 saying what to do, and nothing was
//! allocated for it (`AppState::reserve` first drops games left alone to
//! make room).

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use serde::Serialize;

use crate::error::ApiError;
use crate::kept_room::GameRoom;

/// The bytes the games may hold, and the bytes counted now.
#[derive(Debug)]
pub struct Budget {
    limit: usize,
    used: AtomicUsize,
}

impl Budget {
    /// A budget of `limit` bytes, none used.
    pub fn new(limit: usize) -> Arc<Budget> {
        Arc::new(Budget {
            limit,
            used: AtomicUsize::new(0),
        })
    }

    /// The bytes the games may hold.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The bytes counted now: the games' sizes and the reservations held.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }

    /// Room for `bytes` more, if the budget has it now; nothing is
    /// dropped to make it.
    pub fn try_hold(self: &Arc<Budget>, bytes: usize) -> Option<Reservation> {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                used.checked_add(bytes).filter(|&after| after <= self.limit)
            })
            .ok()?;
        Some(Reservation {
            budget: self.clone(),
            bytes,
        })
    }

    /// Counts a game's size changing from `old` to `new` bytes: what it
    /// holds is counted whether or not it fits (the requests that grow a
    /// game reserve the room first).
    pub(crate) fn resize(&self, old: usize, new: usize) {
        if new >= old {
            self.used.fetch_add(new - old, Ordering::SeqCst);
        } else {
            self.give_back(old - new);
        }
    }

    fn give_back(&self, bytes: usize) {
        let _ = self
            .used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                Some(used.saturating_sub(bytes))
            });
    }
}

/// Bytes held against the budget until this is dropped.
#[derive(Debug)]
pub struct Reservation {
    budget: Arc<Budget>,
    bytes: usize,
}

impl Reservation {
    /// A reservation of nothing, to add to.
    pub fn none(budget: &Arc<Budget>) -> Reservation {
        Reservation {
            budget: budget.clone(),
            bytes: 0,
        }
    }

    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Holds `other`'s bytes too (of the same budget).
    pub fn absorb(&mut self, mut other: Reservation) {
        self.bytes += std::mem::take(&mut other.bytes);
    }

    /// Gives back all but `keep` bytes now.
    pub fn shrink_to(&mut self, keep: usize) {
        if keep < self.bytes {
            self.budget.give_back(self.bytes - keep);
            self.bytes = keep;
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.give_back(self.bytes);
    }
}

/// What keeps the room for something a request makes of a game: a
/// reservation, and the room the game keeps for it when this uses it
/// (see [`crate::session::RoomKind`]).
#[derive(Debug)]
pub struct Held {
    /// Bytes taken from the budget for it.
    pub reservation: Reservation,
    /// The game's own room, while this uses it.
    pub game_room: Option<GameRoom>,
}

/// A JSON text written within the room held for it: the bytes count
/// against the budget until the text is dropped (once sent, or once the
/// last event stream has had it).
#[derive(Debug)]
pub struct HeldJson {
    bytes: Vec<u8>,
    _held: Held,
}

impl HeldJson {
    /// Writes `value` as JSON. The text may take `room` bytes without
    /// asking (room the caller holds in `held`); beyond that, `more` is
    /// asked for each growth of the buffer, and its refusal ends the
    /// writing with that refusal. The buffer is reserved fallibly
    /// (`try_reserve_exact`), so that a refusal of the allocator is a 503
    /// too, not the end of the server.
    pub fn write(
        value: &impl Serialize,
        mut held: Held,
        room: usize,
        more: impl FnMut(usize) -> Result<Reservation, ApiError>,
    ) -> Result<HeldJson, ApiError> {
        let mut writer = Writer {
            bytes: Vec::new(),
            covered: room + held.reservation.bytes(),
            held: &mut held,
            more,
            refused: None,
        };
        // The room the game keeps for its view is a bound on the text:
        // asked for at once, its pages are only touched as they are written.
        writer.ensure(writer.covered.max(256))?;
        let written = serde_json::to_writer(&mut writer, value);
        if let Some(refused) = writer.refused.take() {
            return Err(refused);
        }
        written.map_err(|e| ApiError::busy(format!("the answer could not be written: {e}")))?;
        let bytes = writer.bytes;
        Ok(HeldJson { bytes, _held: held })
    }

    /// A short text that holds no room (a few bytes: an event that says
    /// the game expired, or that something could not be sent).
    pub fn unheld(text: String, budget: &Arc<Budget>) -> HeldJson {
        HeldJson {
            bytes: text.into_bytes(),
            _held: Held {
                reservation: Reservation::none(budget),
                game_room: None,
            },
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // serde_json writes UTF-8.
        std::str::from_utf8(&self.bytes).unwrap_or_default()
    }

    /// A 200 answer with the text as its body; the room stays held until
    /// the body has been sent (or dropped).
    pub fn into_response(self) -> Response {
        let mut response = Response::new(Body::from(Bytes::from_owner(self)));
        *response.status_mut() = StatusCode::OK;
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    }
}

impl AsRef<[u8]> for HeldJson {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

/// A text (a PGN file on its way out) whose room stays held until it has
/// been sent.
#[derive(Debug)]
pub struct HeldText {
    text: String,
    _room: Held,
}

impl HeldText {
    /// `text`, made within `room`.
    pub fn new(text: String, room: Held) -> HeldText {
        HeldText { text, _room: room }
    }
}

impl AsRef<[u8]> for HeldText {
    fn as_ref(&self) -> &[u8] {
        self.text.as_bytes()
    }
}

struct Writer<'a, F> {
    bytes: Vec<u8>,
    /// Bytes of capacity the held room covers.
    covered: usize,
    held: &'a mut Held,
    more: F,
    refused: Option<ApiError>,
}

impl<F: FnMut(usize) -> Result<Reservation, ApiError>> Writer<'_, F> {
    /// Capacity for `needed` bytes, the room for it held first.
    fn ensure(&mut self, needed: usize) -> Result<(), ApiError> {
        if needed <= self.bytes.capacity() {
            return Ok(());
        }
        let capacity = needed.max(self.bytes.capacity().saturating_mul(2));
        if capacity > self.covered {
            let extra = (self.more)(capacity - self.covered)?;
            self.covered += extra.bytes();
            self.held.reservation.absorb(extra);
        }
        self.bytes
            .try_reserve_exact(capacity - self.bytes.len())
            .map_err(|_| {
                ApiError::busy(format!(
                    "the system refused {} MiB for this answer; try again later, or start \
                     kestrel gui with a smaller --games-memory",
                    capacity >> 20
                ))
            })
    }
}

impl<F: FnMut(usize) -> Result<Reservation, ApiError>> io::Write for Writer<'_, F> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if let Err(refused) = self.ensure(self.bytes.len() + data.len()) {
            self.refused = Some(refused);
            return Err(io::Error::other("no room"));
        }
        self.bytes.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_fit_the_budget_and_come_back_when_dropped() {
        let budget = Budget::new(1000);
        let a = budget.try_hold(600).expect("fits");
        assert!(budget.try_hold(500).is_none(), "over the limit");
        let mut b = budget.try_hold(400).expect("fits exactly");
        assert_eq!(budget.used(), 1000);
        b.shrink_to(100);
        assert_eq!(budget.used(), 700);
        drop(a);
        let mut c = Reservation::none(&budget);
        c.absorb(budget.try_hold(50).expect("fits"));
        assert_eq!((c.bytes(), budget.used()), (50, 150));
        drop((b, c));
        assert_eq!(budget.used(), 0);
        budget.resize(0, 300);
        budget.resize(300, 200);
        assert_eq!(budget.used(), 200);
        assert!(budget.try_hold(usize::MAX).is_none(), "no overflow");
    }

    #[test]
    fn a_text_past_its_room_asks_for_more_and_a_refusal_is_the_answer() {
        let budget = Budget::new(64 * 1024);
        let value: Vec<String> = (0..1000).map(|i| format!("move {i}")).collect();
        let held = || Held {
            reservation: Reservation::none(&budget),
            game_room: None,
        };
        let text = HeldJson::write(&value, held(), 0, |n| {
            budget
                .try_hold(n)
                .ok_or_else(|| ApiError::busy("full".to_string()))
        })
        .expect("fits");
        assert_eq!(text.as_str(), serde_json::to_string(&value).expect("JSON"));
        assert!(budget.used() >= text.as_str().len(), "its bytes are held");
        drop(text);
        assert_eq!(budget.used(), 0, "and given back");
        let refused = HeldJson::write(&value, held(), 0, |_| {
            Err(ApiError::busy("no room for it".to_string()))
        })
        .expect_err("refused");
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(refused.message, "no room for it");
    }
}
