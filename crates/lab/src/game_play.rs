//! One game between two engines: the runner keeps the clocks, relays the
//! moves, checks each for legality, applies the rules and the adjudication,
//! and records everything the PGN and the results need.

use crate::engine_spec::EngineSpec;
use chess::{Color, Game, Outcome, Position};
use matchcore::adjudication::{absolute_ply, Adjudicator, DrawRule, ResignRule, Verdict};
use matchcore::engine_process::EngineError;
use matchcore::openings::Opening;
use matchcore::player::{MoveRequest, Player, Reply, Thought};
use matchcore::time_control::{Clock, ClockResult};
use pgn::{GameResult, PgnMove};
use std::sync::Arc;
use std::time::{Duration, Instant};
use types::{Tablebase, Wdl};

/// Extra wait past the time left, so that a late move's overrun is measured
/// (and reported) rather than cut off.
const LATE_GRACE: Duration = Duration::from_secs(1);

/// The rules beyond chess's own that end games.
#[derive(Clone, Default)]
pub struct GameRules {
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw after this many full moves.
    pub max_moves: Option<u32>,
    /// How long an engine with no clock may stay silent.
    pub hang_timeout: Duration,
    /// Tablebases for adjudication, with the most pieces to use them for.
    pub tablebase: Option<(Arc<dyn Tablebase>, u32)>,
}

/// How a game ended, as PGN's `Termination` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// By the rules of chess.
    Normal,
    /// By the runner's adjudication (scores, tablebases, move limit).
    Adjudication,
    /// An engine overstepped its time.
    TimeForfeit,
    /// An engine played an illegal move.
    IllegalMove,
    /// An engine crashed or quit.
    Abandoned,
    /// An engine stopped answering.
    StalledConnection,
}

impl Termination {
    /// The PGN tag value (`None` for a normal end).
    pub fn tag(self) -> Option<&'static str> {
        match self {
            Termination::Normal => None,
            Termination::Adjudication => Some("adjudication"),
            Termination::TimeForfeit => Some("time forfeit"),
            Termination::IllegalMove => Some("illegal move"),
            Termination::Abandoned => Some("abandoned"),
            Termination::StalledConnection => Some("stalled connection"),
        }
    }

    /// The termination a PGN `Termination` tag names (the inverse of
    /// [`Termination::tag`]; an unknown or missing tag is a normal end).
    pub fn from_tag(tag: Option<&str>) -> Termination {
        [
            Termination::Adjudication,
            Termination::TimeForfeit,
            Termination::IllegalMove,
            Termination::Abandoned,
            Termination::StalledConnection,
        ]
        .into_iter()
        .find(|t| t.tag() == tag)
        .unwrap_or(Termination::Normal)
    }
}

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

fn name(c: Color) -> &'static str {
    c.fold("White", "Black")
}

fn win_for(c: Color) -> GameResult {
    c.fold(GameResult::WhiteWins, GameResult::BlackWins)
}

struct End {
    result: GameResult,
    termination: Termination,
    reason: String,
}

fn loss(loser: Color, termination: Termination, reason: String) -> End {
    End {
        result: win_for(!loser),
        termination,
        reason,
    }
}

fn rules_end(outcome: Outcome) -> End {
    let reason = match outcome {
        Outcome::Checkmate { winner } => format!("{} mates", name(winner)),
        Outcome::Stalemate => "Draw by stalemate".to_string(),
        Outcome::FiftyMoveRule => "Draw by fifty moves rule".to_string(),
        Outcome::ThreefoldRepetition => "Draw by 3-fold repetition".to_string(),
        Outcome::InsufficientMaterial => "Draw by insufficient mating material".to_string(),
    };
    let result = match outcome.winner() {
        Some(w) => win_for(w),
        None => GameResult::Draw,
    };
    End {
        result,
        termination: Termination::Normal,
        reason,
    }
}

fn tablebase_end(pos: &Position, tb: &(Arc<dyn Tablebase>, u32)) -> Option<End> {
    let pieces = tb.0.max_pieces().min(tb.1);
    // WDL values are exact only just after a capture or pawn move.
    if pos.piece_count() > pieces || pos.halfmove_clock() != 0 || !pos.castling_rights().is_empty()
    {
        return None;
    }
    let (result, reason) = match tb.0.probe_wdl(pos)? {
        Wdl::Win => (
            win_for(pos.turn()),
            format!("{} wins by adjudication: SyzygyTB", name(pos.turn())),
        ),
        Wdl::Loss => (
            win_for(!pos.turn()),
            format!("{} wins by adjudication: SyzygyTB", name(!pos.turn())),
        ),
        Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss => (
            GameResult::Draw,
            "Draw by adjudication: SyzygyTB".to_string(),
        ),
    };
    Some(End {
        result,
        termination: Termination::Adjudication,
        reason,
    })
}

/// The PGN comment of an engine move: `+0.35/12 1.24s`, cutechess-cli's form.
fn move_comment(thought: &Thought, elapsed: Duration) -> String {
    let time = format!("{:.2}s", elapsed.as_secs_f64());
    match (thought.score, thought.depth) {
        (Some(s), Some(d)) => format!("{s}/{d} {time}"),
        (Some(s), None) => format!("{s} {time}"),
        _ => time,
    }
}

/// Plays one game: `players` and `specs` are White's then Black's.
pub fn play_game(
    players: [&mut dyn Player; 2],
    specs: [&EngineSpec; 2],
    opening: &Opening,
    rules: &GameRules,
) -> GameRecord {
    let [white, black] = players;
    let mut players: [&mut dyn Player; 2] = [white, black];
    let mut game = Game::new(opening.start);
    let mut moves: Vec<PgnMove> = Vec::new();
    // The keys of the positions before the current one, for the request.
    let mut history: Vec<u64> = Vec::new();
    for &m in &opening.moves {
        history.push(game.position().key());
        game.push(m);
        moves.push(PgnMove::new(m));
    }
    let mut broken = [false; 2];
    let mut clocks: [Option<Clock>; 2] = [
        specs[0].limits.tc.map(Clock::new),
        specs[1].limits.tc.map(Clock::new),
    ];
    let mut adjudicator = Adjudicator::new(rules.draw, rules.resign);
    let mut end = None;
    for (i, p) in players.iter_mut().enumerate() {
        if end.is_some() {
            break;
        }
        if let Err(e) = p.new_game(&opening.start) {
            broken[i] = true;
            let c = if i == 0 { Color::White } else { Color::Black };
            end = Some(failure_end(c, &e, None));
        }
    }
    let start_fullmove = opening.start.fullmove_number();
    while end.is_none() {
        let pos = *game.position();
        if let Some(outcome) = game.outcome() {
            end = Some(rules_end(outcome));
            break;
        }
        if let Some(max) = rules.max_moves {
            if pos.fullmove_number().saturating_sub(start_fullmove) >= max {
                end = Some(End {
                    result: GameResult::Draw,
                    termination: Termination::Adjudication,
                    reason: "Draw by adjudication: maximum moves".to_string(),
                });
                break;
            }
        }
        let side = pos.turn();
        let i = side.fold(0, 1);
        let spec = specs[i];
        let limit = match (clocks[i], spec.limits.movetime) {
            (Some(c), _) => Some(c.left()),
            (None, Some(st)) => Some(st),
            (None, None) => None,
        };
        let wait = match limit {
            Some(l) => l + spec.time_margin + LATE_GRACE,
            None => rules.hang_timeout,
        };
        let started = Instant::now();
        let answer = {
            let request = MoveRequest {
                start: game.start(),
                moves: game.moves(),
                history: &history,
                position: &pos,
                clocks: [clocks[0].as_ref(), clocks[1].as_ref()],
                deadline: started + wait,
            };
            players[i].go(&request)
        };
        let elapsed = started.elapsed();
        let (reply, thought) = match answer {
            Ok(a) => a,
            Err(e) => {
                broken[i] = true;
                end = Some(failure_end(
                    side,
                    &e,
                    limit.map(|l| elapsed.saturating_sub(l)),
                ));
                break;
            }
        };
        let forfeit = match (&mut clocks[i], spec.limits.movetime) {
            (Some(c), _) => match c.spend(elapsed, spec.time_margin) {
                ClockResult::Forfeit { over } => Some(over),
                ClockResult::Ok => None,
            },
            (None, Some(st)) if elapsed > st + spec.time_margin => Some(elapsed - st),
            _ => None,
        };
        if let Some(over) = forfeit {
            end = Some(loss(
                side,
                Termination::TimeForfeit,
                format!("{} loses on time (by {} ms)", name(side), over.as_millis()),
            ));
            break;
        }
        let mv = match reply {
            Reply::Move(mv) => mv,
            Reply::Resign => {
                end = Some(loss(
                    side,
                    Termination::Normal,
                    format!("{} resigns", name(side)),
                ));
                break;
            }
            Reply::Illegal(text) => {
                // The engine's idea of the game differs from ours: start it afresh.
                broken[i] = true;
                end = Some(loss(
                    side,
                    Termination::IllegalMove,
                    format!("{} makes an illegal move: {text}", name(side)),
                ));
                break;
            }
        };
        let mut pgn_move = PgnMove::new(mv);
        pgn_move.comments.push(move_comment(&thought, elapsed));
        moves.push(pgn_move);
        history.push(pos.key());
        game.push(mv);
        let verdict = adjudicator.record(
            side,
            absolute_ply(&pos),
            thought.score.map(|s| s.centipawns()),
        );
        match verdict {
            Verdict::Continue => {}
            Verdict::Draw => {
                end = Some(End {
                    result: GameResult::Draw,
                    termination: Termination::Adjudication,
                    reason: "Draw by adjudication".to_string(),
                })
            }
            Verdict::Win(c) => {
                end = Some(End {
                    result: win_for(c),
                    termination: Termination::Adjudication,
                    reason: format!("{} wins by adjudication", name(c)),
                })
            }
        }
        if end.is_none() && game.outcome().is_none() {
            if let Some(tb) = &rules.tablebase {
                end = tablebase_end(game.position(), tb);
            }
        }
    }
    let end = end.expect("the loop ends only with an ending");
    if let Some(last) = moves.last_mut() {
        last.comments.push(end.reason.clone());
    }
    GameRecord {
        start: opening.start,
        moves,
        book_plies: opening.moves.len(),
        result: end.result,
        termination: end.termination,
        reason: end.reason,
        broken,
    }
}

fn failure_end(side: Color, e: &EngineError, over: Option<Duration>) -> End {
    match e {
        EngineError::Timeout(_) => match over {
            Some(over) => loss(
                side,
                Termination::TimeForfeit,
                format!(
                    "{} loses on time (by {} ms, no answer)",
                    name(side),
                    over.as_millis()
                ),
            ),
            None => loss(
                side,
                Termination::StalledConnection,
                format!("{}'s connection stalls", name(side)),
            ),
        },
        EngineError::Exited | EngineError::Start { .. } => loss(
            side,
            Termination::Abandoned,
            format!("{} disconnects ({e})", name(side)),
        ),
        EngineError::Protocol(m) => loss(
            side,
            Termination::IllegalMove,
            format!("{}: {m}", name(side)),
        ),
        EngineError::NoMove => loss(
            side,
            Termination::IllegalMove,
            format!("{} returns no move", name(side)),
        ),
    }
}
