//! Kestrel's search as a player: an [`engine::Engine`] in this process
//! behind matchcore's [`Player`] trait, so that a game loop plays it the way
//! it plays an engine in a child process. It takes any limit: the same
//! [`SearchLimits`] as the match runner's players (nodes, depth, time per
//! move, and the request's clocks), or a soft node limit (self-play's,
//! [`soft_nodes`]). The arena, the ablation, the genetic tuner and datagen
//! all play through it.

use std::sync::Arc;

use engine::{Engine, Limits, Reporter};
use matchcore::engine_process::EngineError;
use matchcore::player::{MoveRequest, Player, Reply, Thought};
use matchcore::search_limits::SearchLimits;

use engine::soft_nodes;

/// How an [`EnginePlayer`] bounds each search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayerLimit {
    /// A match's limits (clocks, time per move, depth, nodes), the node
    /// count a hard one that may cut an iteration short.
    Search(SearchLimits),
    /// A soft node limit: the search stops after the first iteration that
    /// passes it, so every score comes from a completed iteration.
    SoftNodes(u64),
}

/// An engine in this process with its limit.
pub struct EnginePlayer {
    engine: Engine,
    limit: PlayerLimit,
    /// Nothing listens to the search's events: the result says it all.
    reporter: Reporter,
}

impl EnginePlayer {
    /// `engine` (options, parameters and weights as the caller set them)
    /// searching within `limits`.
    pub fn new(engine: Engine, limits: SearchLimits) -> EnginePlayer {
        EnginePlayer::with_limit(engine, PlayerLimit::Search(limits))
    }

    /// `engine` searching within `limit`.
    pub fn with_limit(engine: Engine, limit: PlayerLimit) -> EnginePlayer {
        EnginePlayer {
            engine,
            limit,
            reporter: Arc::new(|_| {}),
        }
    }

    /// The engine, to change its settings between games.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Searches within `limits` from the next move on.
    pub fn set_limits(&mut self, limits: SearchLimits) {
        self.limit = PlayerLimit::Search(limits);
    }

    /// The engine's limits for `request` under a match's `limits`, with the
    /// request's clocks as UCI's `go` would give them.
    fn search_limits(limits: &SearchLimits, request: &MoveRequest) -> Limits {
        let millis = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let mut found = Limits {
            nodes: limits.nodes,
            depth: limits.depth.map(|d| i32::try_from(d).unwrap_or(i32::MAX)),
            movetime: limits.movetime.map(millis),
            ..Limits::default()
        };
        let me = request.position.turn();
        if let Some(mine) = request.clock(me) {
            // An opponent without a clock is given the mover's, as the UCI player does.
            let theirs = request.clock(!me).unwrap_or(mine);
            let (white, black) = me.fold((mine, theirs), (theirs, mine));
            found.wtime = Some(millis(white.left()));
            found.btime = Some(millis(black.left()));
            found.winc = Some(millis(white.control().increment));
            found.binc = Some(millis(black.control().increment));
            found.movestogo = mine.moves_to_go();
        }
        found
    }
}

impl Player for EnginePlayer {
    fn new_game(&mut self, _start: &chess::Position) -> Result<(), EngineError> {
        self.engine.new_game();
        Ok(())
    }

    fn go(&mut self, request: &MoveRequest) -> Result<(Reply, Thought), EngineError> {
        let found = match &self.limit {
            PlayerLimit::Search(limits) => self.engine.search(
                request.position,
                request.history,
                EnginePlayer::search_limits(limits, request),
                self.reporter.clone(),
            ),
            PlayerLimit::SoftNodes(nodes) => {
                soft_nodes::search(&mut self.engine, request.position, request.history, *nodes)
            }
        };
        let best = found.best.ok_or(EngineError::NoMove)?;
        Ok((
            Reply::Move(best),
            Thought::searched(found.user_score(), found.depth),
        ))
    }

    fn quit(self: Box<Self>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::{Game, Position};
    use matchcore::game_loop::{self, GameRules, Seats, Timing};
    use matchcore::player::Score;
    use matchcore::time_control::{Clock, TimeControl};
    use std::time::{Duration, Instant};

    fn request<'a>(pos: &'a Position, clocks: [Option<&'a Clock>; 2]) -> MoveRequest<'a> {
        MoveRequest {
            start: pos,
            moves: &[],
            history: &[],
            position: pos,
            clocks,
            deadline: Instant::now(),
        }
    }

    #[test]
    fn it_finds_the_mate_and_reports_it() {
        // White mates in one (Rd8#).
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let limits = SearchLimits {
            depth: Some(3),
            ..SearchLimits::default()
        };
        let mut player = EnginePlayer::new(Engine::new(), limits);
        player.new_game(&pos).unwrap();
        let (reply, thought) = player.go(&request(&pos, [None, None])).unwrap();
        let rd8 = pos
            .parse_uci_move("d1d8", chess::CastlingMode::Standard)
            .unwrap();
        assert_eq!(reply, Reply::Move(rd8));
        assert_eq!(thought.score, Some(Score::Mate(1)));
        assert_eq!(thought.depth, Some(3));
    }

    #[test]
    fn a_position_without_moves_is_an_error() {
        let mated =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        let mut player = EnginePlayer::new(Engine::new(), SearchLimits::default());
        assert_eq!(
            player.go(&request(&mated, [None, None])),
            Err(EngineError::NoMove)
        );
    }

    #[test]
    fn the_request_clocks_become_the_search_limits() {
        let tc = TimeControl::parse_seconds("40/60+0.5").unwrap().unwrap();
        let (white, black) = (Clock::new(tc), Clock::new(tc));
        let limits = SearchLimits {
            nodes: Some(1000),
            movetime: Some(Duration::from_millis(250)),
            ..SearchLimits::default()
        };
        let pos = Position::startpos();
        let limits =
            EnginePlayer::search_limits(&limits, &request(&pos, [Some(&white), Some(&black)]));
        assert_eq!(limits.wtime, Some(60_000));
        assert_eq!(limits.binc, Some(500));
        assert_eq!(limits.movestogo, Some(40));
        assert_eq!(limits.nodes, Some(1000));
        assert_eq!(limits.movetime, Some(250));
        assert_eq!(limits.depth, None);
    }

    #[test]
    fn it_plays_a_game_in_the_shared_loop() {
        let limits = SearchLimits {
            nodes: Some(300),
            ..SearchLimits::default()
        };
        let mut player = EnginePlayer::new(Engine::new(), limits);
        let rules = GameRules {
            max_plies: Some(20),
            ..GameRules::default()
        };
        let done = game_loop::play(
            Game::new(Position::startpos()),
            Seats::Both(&mut player),
            [Timing::default(); 2],
            &rules,
            |_, _, thought, _| assert!(thought.score.is_some()),
        );
        assert_eq!(done.ending.broken(), None);
        assert!(done.game.moves().len() <= 20);
    }

    #[test]
    fn a_soft_node_limit_plays_the_soft_node_search() {
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let direct = soft_nodes::search(&mut Engine::new(), &pos, &[], 3000);
        let mut player = EnginePlayer::with_limit(Engine::new(), PlayerLimit::SoftNodes(3000));
        player.new_game(&pos).unwrap();
        let (reply, thought) = player.go(&request(&pos, [None, None])).unwrap();
        assert_eq!(reply, Reply::Move(direct.best.unwrap()));
        assert_eq!(thought.depth, u32::try_from(direct.depth).ok());
        assert_eq!(thought.score, Some(direct.user_score()));
        // As a hard limit the same count cuts the search at a shallower depth.
        let mut hard = EnginePlayer::new(
            Engine::new(),
            SearchLimits {
                nodes: Some(3000),
                ..SearchLimits::default()
            },
        );
        let (_, cut) = hard.go(&request(&pos, [None, None])).unwrap();
        assert!(cut.depth < thought.depth, "{cut:?} vs {thought:?}");
    }
}
