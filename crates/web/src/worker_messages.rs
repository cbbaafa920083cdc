//! What the page's game Worker is given and what it answers, as JSON
//! messages: the page's requests (as it would send them to `kestrel gui`)
//! and the engine Worker's reports in ([`Input`]); replies, events for
//! the games' streams, orders for the engine's Worker and the games'
//! copies out ([`Output`]). The games behind them are crates/web's `games`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the game's Worker is given.
#[derive(Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Input {
    /// A request of the page, as it would go to `kestrel gui`.
    Request {
        /// The page's number for it, echoed in the reply.
        id: u64,
        /// `GET` or `POST`.
        method: String,
        /// The path with its query (`/api/state?game=ID`).
        path: String,
        /// The JSON body.
        body: Option<Value>,
        /// Today, as PGN writes it (`yyyy.mm.dd`): the module has no clock.
        date: String,
    },
    /// A line from the engine's Worker: a [`Tagged`] report.
    Report {
        /// The line.
        line: String,
    },
    /// The engine's Worker was replaced to stop it (a page that is not
    /// cross-origin isolated cannot stop a search otherwise): the search it
    /// ran ends without another word.
    Replaced {
        /// The game of that search.
        game: String,
        /// Its number.
        search: u64,
    },
}

/// What the game's Worker does after an input.
#[derive(Serialize, Debug, Default)]
pub struct Output {
    /// Answers to requests.
    pub replies: Vec<Reply>,
    /// Events for the games' event streams.
    pub events: Vec<EventOut>,
    /// Orders for the engine's Worker, in order.
    pub orders: Vec<Order>,
    /// The games changed, each as the page keeps it to give it back after
    /// a reload (`POST /api/restore`): this Worker's games go with the page.
    pub saved: Vec<SavedOut>,
}

/// A changed game's copy for the page to keep.
#[derive(Serialize, Debug)]
pub struct SavedOut {
    /// The game.
    pub game: String,
    /// Its copy (gamerecord's `SavedGame`); `null` when it cannot be kept.
    pub data: Value,
}

/// The answer to one request: a status and JSON, or text (a PGN).
#[derive(Serialize, Debug)]
pub struct Reply {
    /// The request's number.
    pub id: u64,
    /// As HTTP would say it.
    pub status: u16,
    /// The JSON answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json: Option<Value>,
    /// The text answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// One event of a game's stream.
#[derive(Serialize, Debug)]
pub struct EventOut {
    /// The game.
    pub game: String,
    /// The event as `kestrel gui`'s stream sends it.
    pub data: String,
}

/// What the engine's Worker is to do.
#[derive(Serialize, Debug, PartialEq)]
#[serde(tag = "do", rename_all = "lowercase")]
pub enum Order {
    /// Search (the JSON of a [`SearchOrder`]).
    Search {
        /// The game.
        game: String,
        /// The search's number.
        search: u64,
        /// The order, as the engine's Worker reads it.
        order: String,
    },
    /// Stop the running search: it answers with its best move, or, where
    /// the engine's Worker is replaced instead, [`Input::Replaced`] comes.
    Stop,
}
