//! Why a request about a game is refused: one typed error, [`GameError`],
//! whose variants say what was wrong, grouped by whose fault it is
//! ([`ErrorKind`]): the request itself ([`Invalid`]), the game's state
//! now ([`Conflict`]), or a tree operation ([`TreeError`], a node that is
//! not there among them). A server turns the kind into its status (400,
//! 409, 404) and shows the message as it is.

use matchcore::ending::Ending;
use thiserror::Error;

use crate::limits::{
    MAX_CLOCK_MS, MAX_COMMENT_CHARS, MAX_DEPTH, MAX_MOVETIME_MS, MAX_NAGS, MAX_PASS_DEPTH,
    MAX_TAG_CHARS, OWN_TAGS, PASS_MOVETIME_MS,
};
use crate::tree::TreeError;

/// Whose fault a refusal is: what a server answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request is wrong, whatever the game's state (HTTP 400).
    Invalid,
    /// The request is right but the game's state forbids it now (HTTP 409).
    Conflict,
    /// The request names something the game has not got (HTTP 404).
    Missing,
}

impl ErrorKind {
    /// The HTTP status every host answers a refusal of this kind with (the
    /// page without a server answers as `kestrel gui` does).
    pub fn status(self) -> u16 {
        match self {
            ErrorKind::Invalid => 400,
            ErrorKind::Conflict => 409,
            ErrorKind::Missing => 404,
        }
    }
}

/// Why a request about a game was refused; the message is the one the
/// page shows.
#[derive(Clone, Debug, Error)]
pub enum GameError {
    /// The request itself is wrong.
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// The game's state forbids it now.
    #[error(transparent)]
    Conflict(#[from] Conflict),
    /// The move tree refused it.
    #[error(transparent)]
    Tree(#[from] TreeError),
    /// A game of the player's own the explorer has not got.
    #[error("no game {id} among your games: they are {count} (numbered from 0)")]
    NoOwnGame {
        /// The number asked for.
        id: book::GameId,
        /// How many they are.
        count: usize,
    },
    /// The player's own games asked for where none were given.
    #[error("no games of your own to explore: start kestrel gui with --explorer FILE.pgn, or, in the page without a server, choose a PGN file in the explorer")]
    NoOwnGames,
    /// A master game the explorer's collection has not got.
    #[error("no master game {id}: the collection has {count} (numbered from 0)")]
    NoMasterGame {
        /// The number asked for.
        id: book::GameId,
        /// How many games the collection has.
        count: usize,
    },
}

impl GameError {
    /// Whose fault it is: a node that is not there is missing, the tree's
    /// other refusals are the request's.
    pub fn kind(&self) -> ErrorKind {
        match self {
            GameError::Invalid(_) => ErrorKind::Invalid,
            GameError::Conflict(_) => ErrorKind::Conflict,
            GameError::Tree(TreeError::NoNode(_))
            | GameError::NoMasterGame { .. }
            | GameError::NoOwnGame { .. }
            | GameError::NoOwnGames => ErrorKind::Missing,
            GameError::Tree(TreeError::Illegal | TreeError::Root | TreeError::NullMove) => {
                ErrorKind::Invalid
            }
        }
    }
}

/// A request that is wrong whatever the game's state.
#[derive(Clone, Debug, Error)]
pub enum Invalid {
    /// A move request without a move.
    #[error("no move given")]
    NoMove,
    /// A move that does not read as UCI or SAN, or is illegal in the position.
    #[error("'{text}' is not a legal move here ({why}); give it in UCI (e2e4) or SAN (e4)")]
    NotAMove {
        /// The move as given (trimmed).
        text: String,
        /// Why SAN does not read it.
        why: chess::SanError,
    },
    /// A move that is not legal where it is played.
    #[error("that move is not legal here")]
    IllegalMove,
    /// A comment longer than [`MAX_COMMENT_CHARS`].
    #[error("a comment holds at most {MAX_COMMENT_CHARS} characters")]
    CommentTooLong,
    /// A comment with `}`, which ends a PGN comment.
    #[error("a comment cannot hold '}}'")]
    CommentBrace,
    /// A NAG of 0, or more than [`MAX_NAGS`] on a move.
    #[error("NAGs are numbers 1 to 255, at most {MAX_NAGS} on a move")]
    BadNags,
    /// Two move judgements (`!`, `?`, ...) on one move.
    #[error("a move takes one judgement of !, ?, !!, ??, !? and ?!")]
    TwoJudgements,
    /// A search asked for at a ply and at a node.
    #[error("give ply or node, not both")]
    PlyAndNode,
    /// A search asked for past the main line's end.
    #[error("ply {ply} is past the game's last move (it has {plies} plies)")]
    PlyPastEnd {
        /// The ply asked for.
        ply: usize,
        /// The main line's plies.
        plies: usize,
    },
    /// A PGN import of a text without a game.
    #[error("the PGN text holds no game")]
    NoPgnGame,
    /// A PGN import of a game that does not read.
    #[error("cannot read the PGN: {0}")]
    BadPgn(pgn::PgnError),
    /// A game with variations asked to go on against the engine.
    #[error("this game has variations: a game against the computer goes on from one line")]
    ResumeVariations,
    /// A move's clock over [`MAX_CLOCK_MS`].
    #[error("a clock reads at most {MAX_CLOCK_MS} ms (a day), not {0}")]
    ClockTooLong(u64),
    /// A draw agreed, with a side named.
    #[error("a draw is agreed by both sides: give no \"side\"")]
    DrawWithSide,
    /// A resignation or a flag without the side.
    #[error("say which side resigns or lost on time: \"side\": \"white\" or \"black\"")]
    NoSide,
    /// A clock given with another limit.
    #[error("give one of movetime_ms, depth, clock and infinite, not several")]
    ClockAndLimit,
    /// A clock's time out of range.
    #[error("clock times must be from 1 ms to a day (86400000 ms)")]
    ClockRange,
    /// A time per move out of range.
    #[error("movetime_ms must be from 1 to {MAX_MOVETIME_MS}, not {0}")]
    MovetimeRange(u64),
    /// A depth out of range.
    #[error("depth must be from 1 to {MAX_DEPTH}, not {0}")]
    DepthRange(i32),
    /// More than one of time, depth and infinite.
    #[error("give one of movetime_ms, depth and infinite, not several")]
    SeveralLimits,
    /// An option the page does not set.
    #[error("'{0}' is not an engine option the GUI sets")]
    UnknownOption(String),
    /// An option's value that is not a boolean, a number or a word.
    #[error("option '{name}' takes a boolean, a number or a word, not {value}")]
    OptionType {
        /// The option.
        name: String,
        /// The value given, as JSON.
        value: String,
    },
    /// An option's value that its parser refuses.
    #[error("{0}")]
    OptionValue(engine::ParamError),
    /// An option the engine refused to set.
    #[error("{0}")]
    OptionRefused(engine::OptionError),
    /// A pass given a depth and a time.
    #[error("give depth or movetime_ms for the pass, not both")]
    PassLimits,
    /// A pass's depth or time out of range.
    #[error(
        "a pass searches each position to a depth from 1 to {} or for {} to {} ms",
        MAX_PASS_DEPTH,
        PASS_MOVETIME_MS.start(),
        PASS_MOVETIME_MS.end()
    )]
    PassLimitRange,
    /// Lines asked for at a move the pass did not judge an error.
    #[error("move {0} of the main line is not judged an inaccuracy, mistake or blunder")]
    NotJudged(usize),
    /// A position that does not read as FEN.
    #[error("bad FEN: {0}")]
    BadFen(chess::FenError),
    /// A tag the page may not set (see [`OWN_TAGS`]).
    #[error(
        "'{0}' is not a tag the page may set (letters, digits and _; not {tags})",
        tags = OWN_TAGS.join(", ")
    )]
    TagName(String),
    /// A tag's value that is not one short line.
    #[error("the value of {0} must be one line of at most {MAX_TAG_CHARS} characters")]
    TagValue(String),
    /// An engine move asked for without an end to its search.
    #[error("an engine move needs a time or a depth, not infinite")]
    InfiniteMove,
    /// Search threads out of range.
    #[error("threads must be from 1 to {max} (this machine's cores), not {asked}")]
    ThreadsRange {
        /// The most the host has.
        max: usize,
        /// The number asked for.
        asked: usize,
    },
    /// Own games for the explorer larger than it takes.
    #[error("your PGN is {} MB; the explorer indexes at most {} MB of your games: keep the games you want to explore (by year, by player) in a smaller file", .bytes.div_ceil(1_000_000), .max / 1_000_000)]
    OwnGamesTooLarge {
        /// Their size.
        bytes: u64,
        /// The most it takes.
        max: u64,
    },
    /// More own games than the explorer indexes.
    #[error("your PGN holds more than {max} games, the most the explorer indexes: keep the games you want to explore in a smaller file")]
    OwnGamesTooMany {
        /// The most it indexes.
        max: usize,
    },
    /// Own games of which none can be explored.
    #[error("no game in your PGN can be explored ({unreadable} unreadable, {set_up} from a set-up position, {unfinished} unfinished or without a move): the explorer takes finished games from the start position")]
    OwnGamesNone {
        /// Games that could not be read.
        unreadable: usize,
        /// Games from a set-up position.
        set_up: usize,
        /// Games without a result or a move.
        unfinished: usize,
    },
    /// A collection the explorer has not got.
    #[error("?db= takes masters or mine, not '{0}'")]
    NoDatabase(String),
    /// A kept game ([`crate::saved::SavedGame`]) that does not read as one.
    #[error("the kept copy of this game cannot be read back: {0}")]
    BadSavedGame(&'static str),
    /// A table size out of range.
    #[error("hash_mib must be from 1 to {max}, not {asked}")]
    HashRange {
        /// The largest the host gives.
        max: usize,
        /// The size asked for.
        asked: usize,
    },
}

/// A request that is right but that the game's state forbids now.
#[derive(Clone, Debug, Error)]
pub enum Conflict {
    /// The players end a game that is over.
    #[error("the game is over already ({result}, {0})", result = .0.result().as_str())]
    EndAfterEnd(Ending),
    /// A move after the end of a game that is over.
    #[error("the game is over ({0}): no move follows its last one; step back and play a move for a variation, or start a new game")]
    MoveAfterEnd(Ending),
    /// A takeback in a finished game.
    #[error("the game is over ({result}, {0}) and its moves stand as played: a takeback is for a game in progress; step back and play a move for a variation", result = .0.result().as_str())]
    TakebackAfterEnd(Ending),
    /// A move of a finished game's main line deleted.
    #[error("the game is over ({result}, {0}) and its moves stand as played: delete a variation, not a move of the game", result = .0.result().as_str())]
    DeleteAfterEnd(Ending),
    /// A variation of a finished game made its main line.
    #[error("the game is over ({result}, {0}) and its moves stand as played: a variation cannot replace them", result = .0.result().as_str())]
    PromoteAfterEnd(Ending),
    /// A finished game replaced by a new position or an imported PGN.
    #[error("the game is over ({result}, {0}) and is kept as played: start a new game for another position or PGN (POST /api/game)", result = .0.result().as_str())]
    ReplaceAfterEnd(Ending),
    /// A variation during a game against the engine.
    #[error("a game against the computer stays one line: take moves back to play another")]
    OneLine,
    /// A promotion during a game against the engine.
    #[error("a game against the computer has no variations to promote")]
    PromoteInMatch,
    /// An annotation during a game against the engine.
    #[error("a game against the computer can be annotated once it ends")]
    AnnotateInMatch,
    /// Analysis of a game whose evaluation is hidden.
    #[error("the evaluation of this game is hidden until it ends: analyse it afterwards")]
    EvalHidden,
    /// An engine move where a person's move would be refused.
    #[error("no engine move can be played there{}", in_parens(.0.as_ref()))]
    NoEngineMove(Option<Ending>),
    /// A search of a position without a move: the game's end, or mate or
    /// stalemate (`None`).
    #[error("the game is over ({})", .0.as_ref().map_or("no legal move".to_string(), Ending::to_string))]
    SearchAfterEnd(Option<Ending>),
    /// A clock for a game not played on one.
    #[error("only a game against the computer is played on a clock")]
    NotOnClock,
    /// A clock for a variation's move.
    #[error("a clock belongs to a move of the game played, not to a variation")]
    ClockOffMainLine,
    /// A move's clock given twice.
    #[error("that move's clock is recorded already")]
    ClockRecorded,
    /// A draw offered in a game that is over.
    #[error("the game is over already ({0})")]
    DrawAfterEnd(Ending),
    /// A draw offered outside a game against the engine.
    #[error("a draw is offered to the engine in a game against it")]
    DrawOutsideMatch,
    /// The pass's lines asked for while the evaluation is hidden.
    #[error("the evaluation of this game is hidden until it ends")]
    LinesHidden,
    /// The pass's lines asked for when it judged no move an error.
    #[error("no inaccuracy, mistake or blunder to add a line for: analyse the game first")]
    NothingJudged,
    /// The pass's lines asked for during a game against the engine.
    #[error("a game against the computer takes lines once it ends")]
    LinesInMatch,
    /// The pass's lines asked for after the game changed.
    #[error("the game changed since it was analysed: analyse it again")]
    ChangedSinceReview,
    /// An undo with no move left to take back.
    #[error("no move to take back")]
    NothingToUndo,
    /// What would tell the evaluation of a game that hides it (the book's
    /// or the explorer's statistics, the tables' verdict).
    #[error("the evaluation of this game is hidden until it ends, {0} with it")]
    Hidden(&'static str),
}

/// ` (end)`, or nothing without an end.
fn in_parens(end: Option<&Ending>) -> String {
    end.map_or(String::new(), |e| format!(" ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_has_its_kind_and_message() {
        // The words the API answered before they were typed, kept byte for byte.
        let cases: [(GameError, ErrorKind, &str); 9] = [
            (
                TreeError::NoNode(42).into(),
                ErrorKind::Missing,
                "no move with node id 42 in this game",
            ),
            (
                TreeError::Root.into(),
                ErrorKind::Invalid,
                "the start position has no move to delete, promote, annotate or time",
            ),
            (
                Conflict::EndAfterEnd(Ending::DrawAgreed).into(),
                ErrorKind::Conflict,
                "the game is over already (1/2-1/2, Draw agreed)",
            ),
            (
                Conflict::NoEngineMove(None).into(),
                ErrorKind::Conflict,
                "no engine move can be played there",
            ),
            (
                Conflict::SearchAfterEnd(None).into(),
                ErrorKind::Conflict,
                "the game is over (no legal move)",
            ),
            (
                Invalid::CommentBrace.into(),
                ErrorKind::Invalid,
                "a comment cannot hold '}'",
            ),
            (
                Invalid::ClockTooLong(5).into(),
                ErrorKind::Invalid,
                "a clock reads at most 86400000 ms (a day), not 5",
            ),
            (
                Invalid::MovetimeRange(0).into(),
                ErrorKind::Invalid,
                "movetime_ms must be from 1 to 600000, not 0",
            ),
            (
                Invalid::PassLimitRange.into(),
                ErrorKind::Invalid,
                "a pass searches each position to a depth from 1 to 30 or for 20 to 5000 ms",
            ),
        ];
        for (error, kind, words) in cases {
            assert_eq!((error.kind(), error.to_string().as_str()), (kind, words));
        }
    }
}
