//! A refused request as every host answers it: an HTTP status and the
//! message the page shows (`{"error": "..."}`). `kestrel gui` sends it as
//! its HTTP answer, the page without a server as the Worker's reply; both
//! take the status of a game's refusal from its kind
//! ([`ErrorKind::status`](crate::ErrorKind::status)) and the words of the
//! refusals that are not the game's (no game named, no such request, a
//! body that does not read) from here, so that the two answer alike.

use crate::GameError;

/// The message for a request that names no game (`?game=` left out).
pub const NO_GAME_NAMED: &str =
    "the request names no game: add ?game=ID (the id that POST /api/game returned)";

/// The message for a path the API has not got.
pub const NO_SUCH_REQUEST: &str = "no such page or API request";

/// What a request's body that does not read as its type is refused with,
/// before the reader's own words.
pub const BAD_JSON: &str = "bad JSON request: ";

/// A refused request: the status and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status (4xx, or 501 for what only a server can do).
    pub status: u16,
    /// The message shown to the user.
    pub message: String,
}

impl Refusal {
    /// A refusal with this status and message.
    pub fn new(status: u16, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }

    /// 404 for game `id`, which the host has not got; `why` says why it
    /// may be gone, as the host knows ("the server restarted, ...").
    pub fn no_game(id: &str, why: &str) -> Refusal {
        Refusal::new(404, format!("no game '{id}' ({why}): start a new one"))
    }

    /// 422 for a body that does not read as the request's type; `why` is
    /// the reader's message.
    pub fn bad_json(why: impl std::fmt::Display) -> Refusal {
        Refusal::new(422, format!("{BAD_JSON}{why}"))
    }

    /// 400 for a request without `?game=`.
    pub fn no_game_named() -> Refusal {
        Refusal::new(400, NO_GAME_NAMED)
    }

    /// 404 for a path the API has not got.
    pub fn no_such_request() -> Refusal {
        Refusal::new(404, NO_SUCH_REQUEST)
    }
}

impl From<GameError> for Refusal {
    /// The game's refusal with the status of its kind, in the game's words.
    fn from(e: GameError) -> Refusal {
        Refusal::new(e.kind().status(), e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Conflict, Invalid};
    use crate::tree::TreeError;

    #[test]
    fn a_games_refusal_takes_its_status_from_its_kind() {
        let cases: [(GameError, u16); 3] = [
            (Invalid::InfiniteMove.into(), 400),
            (Conflict::NothingToUndo.into(), 409),
            (TreeError::NoNode(3).into(), 404),
        ];
        for (e, status) in cases {
            let words = e.to_string();
            assert_eq!(Refusal::from(e), Refusal::new(status, words));
        }
        assert_eq!(Refusal::bad_json("x").message, "bad JSON request: x");
        assert_eq!(
            Refusal::no_game("ab", "gone").message,
            "no game 'ab' (gone): start a new one"
        );
    }
}
