//! One game between two engines in child processes, through matchcore's
//! game loop (which keeps the clocks, checks each move, applies the rules
//! and the adjudication), recorded as the PGN and the results need it.

use crate::engine_spec::EngineSpec;
use crate::move_comments::MoveDetail;
use chess::{Game, Position};
use matchcore::ending::Termination;
use matchcore::game_loop::{self, GameRules, Seats, Timing};
use matchcore::openings::Opening;
use matchcore::player::Player;
use pgn::{GameResult, PgnMove};

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The position before the opening moves.
    pub start: Position,
    /// Every move, with the engines' comments (opening moves bare).
    pub moves: Vec<PgnMove>,
    /// How many of `moves` came from the opening.
    pub book_plies: usize,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// The result in words (`White mates`, `Black loses on time by 120 ms`).
    pub reason: String,
    /// Per colour (White, Black): whether that engine must be restarted.
    pub broken: [bool; 2],
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
    let reason = ending.reason();
    if let Some(last) = moves.last_mut() {
        last.comments.push(reason.clone());
    }
    let broken = ending.broken();
    GameRecord {
        start: opening.start,
        moves,
        book_plies: opening.moves.len(),
        result: ending.result(),
        termination: ending.termination(),
        reason,
        broken: [
            broken == Some(chess::Color::White),
            broken == Some(chess::Color::Black),
        ],
    }
}
