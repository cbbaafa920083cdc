//! The server as the host of a game's changes (gamerecord's
//! [`Change::make`], which says in what order a change is checked, its
//! search stopped and the change made): the session's game locked for
//! each step and never while its search is stopped (the engine's reporter
//! locks the game to play its move), the room for what the change adds
//! reserved in the games' budget, and the session counted again after.

use std::sync::Arc;

use gamerecord::change::{Change, GameHost};
use gamerecord::game_state::GameState;

use crate::budget::Reservation;
use crate::error::ApiError;
use crate::session::{AppState, Session};

/// A session's game while a change is made to it.
pub struct SessionHost<'a> {
    /// The server's state: the games' budget.
    pub state: &'a AppState,
    /// The game's session.
    pub session: &'a Arc<Session>,
}

impl GameHost for SessionHost<'_> {
    type Error = ApiError;
    type Room = Option<Reservation>;

    fn room(&mut self, bytes: usize) -> Result<Option<Reservation>, ApiError> {
        match bytes {
            0 => Ok(None),
            bytes => Ok(Some(self.state.reserve(bytes, Some(&self.session.id))?)),
        }
    }

    fn with_game<T>(&mut self, f: impl FnOnce(&mut GameState) -> T) -> T {
        f(&mut self.session.game())
    }

    fn stop_search(&mut self) {
        self.session.cancel_search();
    }

    fn forget_table(&mut self) {
        self.session.engine().new_game();
    }

    fn changed(&mut self) {
        self.session.recount();
    }
}

/// Makes `change` to the game it names (see [`Change::make`]).
pub fn make(state: &AppState, change: &Change) -> Result<Arc<Session>, ApiError> {
    let session = state.get(change.game())?;
    change.make(&mut SessionHost {
        state,
        session: &session,
    })?;
    Ok(session)
}
