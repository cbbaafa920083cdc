//! Whether Kestrel, playing a person, accepts a draw they offer: by its own
//! score of the position, so that it takes a draw when it stands worse and
//! refuses one it is winning. The terminal game and the browser GUI both ask
//! this, after a short search.

use crate::score::Score;

/// It accepts when its own score is this or worse (centipawns): a pawn down.
const WORSE_CP: i32 = -100;
/// ... or, from move `LEVEL_FROM_MOVE` on, when the score is within this of level.
const LEVEL_CP: i32 = 10;
const LEVEL_FROM_MOVE: u32 = 30;

/// True when Kestrel accepts a draw at full move `move_number`, `own` being
/// its score from its own side's view.
pub fn accepts_draw(own: Score, move_number: u32) -> bool {
    match own {
        Score::Mate(n) => n < 0,
        Score::Cp(cp) => cp <= WORSE_CP || (cp.abs() <= LEVEL_CP && move_number >= LEVEL_FROM_MOVE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_a_draw_when_worse_or_level_late() {
        assert!(accepts_draw(Score::Cp(-150), 5), "a pawn and a half down");
        assert!(!accepts_draw(Score::Cp(-50), 5));
        assert!(!accepts_draw(Score::Cp(300), 60), "winning");
        assert!(!accepts_draw(Score::Cp(-5), 20), "level, but early");
        assert!(accepts_draw(Score::Cp(5), 30), "level from move 30");
        assert!(accepts_draw(Score::Mate(-3), 10), "being mated");
        assert!(!accepts_draw(Score::Mate(2), 10), "mating");
    }
}
