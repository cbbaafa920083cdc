//! One game between two engines in child processes, through matchcore's
//! game loop (which keeps the clocks, checks each move, applies the rules
//! and the adjudication), recorded as the PGN and the results need it.

use crate::engine_spec::EngineSpec;
use crate::move_comments::MoveDetail;
use chess::{Color, Game, Position};
use matchcore::ending::{Ending, Termination};
use matchcore::engine_process::EngineError;
use matchcore::game_loop::{self, GameRules, Seats, Timing};
use matchcore::openings::Opening;
use matchcore::player::Player;
use pgn::{GameResult, PgnMove};

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The position before the opening moves.
    pub start: Position,
    /// Every move, each engine move with its comment (opening moves bare;
    /// the reason is the PGN writer's to add).
    pub moves: Vec<PgnMove>,
    /// How many of `moves` came from the opening.
    pub book_plies: usize,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// The result in fastchess's words (`White mates`, `Black loses on
    /// time (120ms overrun)`, `White disconnects`).
    pub reason: String,
    /// The illegal move that ended the game, as the engine wrote it.
    pub illegal: Option<String>,
    /// Per colour (White, Black): whether that engine must be restarted.
    pub broken: [bool; 2],
    /// For a game an engine broke: what went wrong, in full
    /// (`Black disconnects (the engine exited)`).
    pub failure: Option<String>,
}

/// How a game ended in fastchess's words (its `Match` messages), for the
/// `Finished game` line and the PGN: where Kestrel's own words say more
/// (`Draw by adjudication: maximum moves`, `Black loses on time (by 32
/// ms)`, `White disconnects (the engine exited)`), fastchess's say less.
pub fn fastchess_reason(ending: &Ending) -> String {
    let side = |c: Color| c.fold("White", "Black");
    let late = |loser: Color, over: Option<std::time::Duration>| {
        let ms = over.map_or(0, |o| o.as_millis());
        format!("{} loses on time ({ms}ms overrun)", side(loser))
    };
    match ending {
        Ending::MoveCap { winner: None } => "Draw by adjudication".to_string(),
        Ending::TimeForfeit { loser, over } => late(*loser, *over),
        Ending::Illegal { loser, .. } => format!("{} makes an illegal move", side(*loser)),
        Ending::Failed { loser, error, over } => match error {
            EngineError::Timeout(_) if over.is_some() => late(*loser, *over),
            EngineError::Timeout(_) => format!("{}'s connection stalls", side(*loser)),
            EngineError::Exited | EngineError::Start { .. } => {
                format!("{} disconnects", side(*loser))
            }
            EngineError::Protocol(_) | EngineError::NoMove => {
                format!("{} makes an illegal move", side(*loser))
            }
        },
        other => other.reason(),
    }
}

/// Plays one game: `players` and `specs` are White's then Black's; each
/// engine move gets the comment `detail` asks for.
pub fn play_game(
    players: [&mut dyn Player; 2],
    specs: [&EngineSpec; 2],
    opening: &Opening,
    rules: &GameRules,
    detail: &MoveDetail,
) -> GameRecord {
    let mut game = Game::new(opening.start);
    let mut moves: Vec<PgnMove> = Vec::new();
    for &m in &opening.moves {
        game.push(m);
        moves.push(PgnMove::new(m));
    }
    let timing = specs.map(|spec| Timing {
        tc: spec.limits.tc,
        movetime: spec.limits.movetime,
        margin: spec.time_margin,
    });
    let finished = game_loop::play(
        game,
        Seats::Each(players),
        timing,
        rules,
        |_, mv, thought, time| {
            let mut pgn_move = PgnMove::new(mv);
            pgn_move.comments.push(detail.comment(thought, time));
            moves.push(pgn_move);
        },
    );
    let ending = finished.ending;
    let broken = ending.broken();
    GameRecord {
        start: opening.start,
        moves,
        book_plies: opening.moves.len(),
        result: ending.result(),
        termination: ending.termination(),
        reason: fastchess_reason(&ending),
        illegal: match &ending {
            Ending::Illegal { text, .. } => Some(text.clone()),
            _ => None,
        },
        broken: [broken == Some(Color::White), broken == Some(Color::Black)],
        failure: broken.map(|_| ending.reason()),
    }
}
