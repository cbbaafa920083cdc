//! A move and the engine's line after it, played out: every position on
//! the way, what each move captured, and the material the line ends with.

use chess::{Color, Move, Position, Square};

use crate::board::{balance, best_capture, captured, passed};
use crate::motif::Placed;

/// The move explained (ply 0) and the line after it (ply 1: the reply),
/// with the position before each move and the one after the last.
#[derive(Clone, Debug)]
pub struct Walk {
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Per position: White's material balance with the side to move
    /// allowed its best capture by static exchange.
    settled: Vec<i32>,
    /// Per position: true when neither side has a capture that wins
    /// material by static exchange and no check is pending.
    quiet: Vec<bool>,
    /// What the game's move before the walk captured, and where.
    prior: Option<Placed>,
}

impl Walk {
    /// `mv` from `pos`, then as much of `line` as is legal; none when `mv`
    /// itself is not legal in `pos`.
    pub fn new(pos: &Position, mv: Move, line: &[Move]) -> Option<Walk> {
        let mut walk = Walk {
            positions: vec![*pos],
            moves: Vec::with_capacity(line.len() + 1),
            settled: Vec::new(),
            quiet: Vec::new(),
            prior: None,
        };
        for &m in std::iter::once(&mv).chain(line) {
            let here = walk.end();
            if !here.is_legal(m) {
                break;
            }
            let mut next = *here;
            next.play_unchecked(m);
            walk.moves.push(m);
            walk.positions.push(next);
        }
        if walk.moves.is_empty() {
            return None;
        }
        let last = walk.moves.len();
        for (i, p) in walk.positions.iter().enumerate() {
            let stm = if p.is_checkmate() || p.is_stalemate() {
                None
            } else {
                best_capture(p)
            };
            let gain = stm.map_or(0, |(_, v)| v);
            let white = balance(p, Color::White);
            walk.settled.push(if p.turn() == Color::White {
                white + gain
            } else {
                white - gain
            });
            let other = passed(p).and_then(|q| best_capture(&q));
            // A check is no rest: the checking side's threats wait behind
            // it (unless the line ends there).
            let checked = p.in_check() && i < last;
            walk.quiet
                .push(!checked && stm.is_none() && other.is_none());
        }
        Some(walk)
    }

    /// The walk of a game's move whose previous move, `previous` from
    /// `before`, captured something: a move that takes back on its square
    /// is a recapture (see [`Walk::retaken`]).
    pub fn following(mut self, before: &Position, previous: Move) -> Walk {
        self.prior = captured(before, previous).map(|c| Placed::new(c.piece, previous.to()));
        self
    }

    /// What the opponent's capture on the square the move at `ply` takes
    /// on took, in centipawns, when the capturing piece stayed there since
    /// (0 otherwise): a recapture, even after a move in between, only
    /// restores the balance.
    pub fn retaken(&self, ply: usize) -> i32 {
        let sq = self.mv(ply).to();
        let value = |c: Placed| crate::board::value(c.role());
        for q in (0..ply).rev() {
            let m = self.mv(q);
            if m.from() == sq {
                return 0;
            }
            if m.to() == sq {
                let theirs = self.side(q) != self.side(ply);
                return self.captured(q).filter(|_| theirs).map_or(0, value);
            }
        }
        // The game's move before the walk was the opponent's of ply 0.
        let theirs = self.side(ply) == self.side(0);
        self.prior
            .filter(|c| theirs && c.square == sq)
            .map_or(0, value)
    }

    /// The number of moves (the explained move and the line).
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when the walk has no moves (never: [`Walk::new`] refuses that).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The move at `ply`.
    pub fn mv(&self, ply: usize) -> Move {
        self.moves[ply]
    }

    /// The moves from `ply` on.
    pub fn moves_from(&self, ply: usize) -> &[Move] {
        &self.moves[ply.min(self.moves.len())..]
    }

    /// The position before the move at `ply` (`ply == len()`: the end).
    pub fn before(&self, ply: usize) -> &Position {
        &self.positions[ply]
    }

    /// The position after the move at `ply`.
    pub fn after(&self, ply: usize) -> &Position {
        &self.positions[ply + 1]
    }

    /// The position the line ends in.
    pub fn end(&self) -> &Position {
        self.positions.last().expect("a walk has its start")
    }

    /// Every position, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The side that makes the move at `ply`.
    pub fn side(&self, ply: usize) -> Color {
        self.positions[ply].turn()
    }

    /// What the move at `ply` captures.
    pub fn captured(&self, ply: usize) -> Option<Placed> {
        captured(&self.positions[ply], self.moves[ply])
    }

    /// `color`'s material balance in the position at `index`, settled: the
    /// side to move there allowed its best capture (a line may stop in the
    /// middle of a trade).
    pub fn settled_balance(&self, color: Color, index: usize) -> i32 {
        let white = self.settled[index.min(self.len())];
        if color == Color::White {
            white
        } else {
            -white
        }
    }

    /// The first position from `index` on where the material has come to
    /// rest (no capture that wins for either side), else the last.
    pub fn rest(&self, index: usize) -> usize {
        (index.min(self.len())..=self.len())
            .find(|&i| self.quiet[i])
            .unwrap_or(self.len())
    }

    /// True when neither side has a capture that wins material in the
    /// position at `index`.
    pub fn is_quiet(&self, index: usize) -> bool {
        self.quiet[index.min(self.len())]
    }

    /// What the line wins for the side that makes the move at `ply`, from
    /// the position before it to where the material first comes to rest
    /// after it.
    pub fn gain(&self, ply: usize) -> i32 {
        self.gain_through(ply, ply)
    }

    /// What the side that makes the move at `ply` has won once the move at
    /// `payoff` (its capture that cashes in a motif) and the exchange it
    /// starts are over: to the first position at rest after `payoff`.
    pub fn gain_through(&self, ply: usize, payoff: usize) -> i32 {
        let side = self.side(ply);
        self.settled_balance(side, self.rest(payoff + 1)) - balance(&self.positions[ply], side)
    }

    /// The plies of the side to move at `ply` after it, up to `count` of
    /// them (`ply + 2`, `ply + 4`, ...) that the walk holds.
    pub fn own_plies_after(&self, ply: usize, count: usize) -> impl Iterator<Item = usize> + '_ {
        (1..=count)
            .map(move |k| ply + 2 * k)
            .take_while(|&p| p < self.len())
    }

    /// True when no move of plies `from..to` starts or ends on `sq` (the
    /// piece there stays, untouched, from before `from` to before `to`).
    pub fn untouched(&self, sq: Square, from: usize, to: usize) -> bool {
        self.moves[from.min(self.len())..to.min(self.len())]
            .iter()
            .all(|m| m.from() != sq && m.to() != sq)
    }

    /// The first ply among `plies` whose move captures the piece standing
    /// on `target.square` since before ply `since`, untouched till then.
    pub fn takes(
        &self,
        target: Placed,
        since: usize,
        plies: impl IntoIterator<Item = usize>,
    ) -> Option<usize> {
        plies.into_iter().find(|&p| {
            self.untouched(target.square, since, p) && self.captured(p).is_some_and(|c| c == target)
        })
    }

    /// The first ply, up to `last`, whose move captures `piece` (standing
    /// on its square before ply `since`) wherever its own moves took it.
    pub fn catches(&self, piece: Placed, since: usize, last: usize) -> Option<usize> {
        let mut at = piece.square;
        for p in since..=last.min(self.len().saturating_sub(1)) {
            let m = self.mv(p);
            if self.side(p) == piece.piece.color {
                if m.from() == at {
                    at = m.to();
                }
            } else if self
                .captured(p)
                .is_some_and(|c| c.square == at && c.piece == piece.piece)
            {
                return Some(p);
            } else if m.to() == at {
                return None;
            }
        }
        None
    }

    /// True when the line ends in mate of the side that does not make the
    /// move at `ply`, that side's own move having mated.
    pub fn mates(&self, ply: usize) -> bool {
        let end = self.end();
        end.is_checkmate() && end.turn() != self.side(ply)
    }
}
