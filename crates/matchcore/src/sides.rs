//! Two players seated as one: each request to move goes to the player of
//! the side to move. The in-process game loop asks one player for every
//! move, so that datagen's single engine can play both sides; the arena
//! seats two engines with this.

use crate::engine_process::EngineError;
use crate::player::{MoveRequest, Player, Reply, Thought};
use chess::Position;

/// White's player and Black's, borrowed for a game.
pub struct Sides<'a> {
    players: [&'a mut dyn Player; 2],
}

impl<'a> Sides<'a> {
    /// `white` plays White's moves and `black` Black's.
    pub fn new(white: &'a mut dyn Player, black: &'a mut dyn Player) -> Sides<'a> {
        Sides {
            players: [white, black],
        }
    }
}

impl Player for Sides<'_> {
    fn new_game(&mut self, start: &Position) -> Result<(), EngineError> {
        for player in &mut self.players {
            player.new_game(start)?;
        }
        Ok(())
    }

    fn go(&mut self, request: &MoveRequest) -> Result<(Reply, Thought), EngineError> {
        let side = request.position.turn();
        self.players[side.fold(0, 1)].go(request)
    }

    /// Quits neither: the players are borrowed, and their owners quit them.
    fn quit(self: Box<Self>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Move;
    use std::time::Instant;

    /// Answers with its first legal move and says who it is by its depth.
    struct Named(u32);

    impl Player for Named {
        fn new_game(&mut self, _: &Position) -> Result<(), EngineError> {
            Ok(())
        }
        fn go(&mut self, r: &MoveRequest) -> Result<(Reply, Thought), EngineError> {
            let mv: Move = r.position.legal_moves()[0];
            let thought = Thought {
                score: None,
                depth: Some(self.0),
            };
            Ok((Reply::Move(mv), thought))
        }
        fn quit(self: Box<Self>) {}
    }

    #[test]
    fn each_side_is_asked_of_its_own_player() {
        let (mut white, mut black) = (Named(1), Named(2));
        let mut sides = Sides::new(&mut white, &mut black);
        let start = Position::startpos();
        let mut after = start;
        after.play(start.legal_moves()[0]);
        for (pos, who) in [(start, 1), (after, 2)] {
            let request = MoveRequest {
                start: &start,
                moves: &[],
                history: &[],
                position: &pos,
                clocks: [None, None],
                deadline: Instant::now(),
            };
            assert_eq!(sides.go(&request).unwrap().1.depth, Some(who));
        }
    }
}
