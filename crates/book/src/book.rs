//! The one book model under every format: position key (Polyglot Zobrist)
//! -> candidate moves, each with a weight, a learn field and win/draw/loss
//! counts from the side to move's view.

use crate::key_hash::KeyMap;
use crate::poly_move::uci;
use crate::{Policy, PolyMove};
use chess::{Move, Position};
use rand::Rng;

/// One move of one position in a book.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BookMove {
    /// The move, in Polyglot's position-independent encoding.
    pub mv: PolyMove,
    /// How much the book likes the move (Polyglot: 2 x wins + draws).
    pub weight: u32,
    /// Polyglot's learn field (kept as read, written back as is).
    pub learn: u32,
    /// Games the side to move won after this move.
    pub wins: u32,
    /// Games drawn after this move.
    pub draws: u32,
    /// Games the side to move lost after this move.
    pub losses: u32,
}

impl BookMove {
    /// Games counted for the move (0 when the format has no statistics).
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// A book move that is legal in a given position, ready to show or play.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// The move in SAN.
    pub san: String,
    /// The move in UCI notation for the position's castling mode.
    pub uci: String,
    /// The book's weight for it.
    pub weight: u32,
    /// Its share of the position's total weight, in percent.
    pub percent: f64,
    /// Wins for the side to move.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses for the side to move.
    pub losses: u32,
    /// Polyglot's learn field.
    pub learn: u32,
}

/// An opening book: for each position key, the moves the book knows.
///
/// Held like a Polyglot file in memory: one array of entries sorted by key
/// (and by weight, highest first, within a key), probed by binary search.
/// Building from many entries at once (`from_entries`) is a sort; `add`
/// inserts one entry in place, for small edits.
#[derive(Clone, Debug, Default)]
pub struct Book {
    keys: Vec<u64>,
    moves: Vec<BookMove>,
    /// Positions known by their full description (from text books and
    /// `add_move`), so that text output can show them as FEN.
    positions: KeyMap<u64, Position>,
    /// Move sequences from the start position known to reach a key (from
    /// text books and `add_game_move`), used as the history in text output.
    histories: KeyMap<u64, Vec<Move>>,
}

/// Sums the statistics of `m` into `e`.
fn accumulate(e: &mut BookMove, m: &BookMove) {
    e.weight = e.weight.saturating_add(m.weight);
    e.wins = e.wins.saturating_add(m.wins);
    e.draws = e.draws.saturating_add(m.draws);
    e.losses = e.losses.saturating_add(m.losses);
    e.learn = m.learn;
}

/// Book order within a position: weight, highest first, then move bits.
fn book_order(a: &BookMove, b: &BookMove) -> std::cmp::Ordering {
    b.weight.cmp(&a.weight).then(a.mv.cmp(&b.mv))
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// A book from entries in any order; entries for the same position and
    /// move are summed.
    pub fn from_entries(mut entries: Vec<(u64, BookMove)>) -> Book {
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.mv.cmp(&b.1.mv)));
        let mut keys = Vec::with_capacity(entries.len());
        let mut moves: Vec<BookMove> = Vec::with_capacity(entries.len());
        for (key, m) in entries {
            match (keys.last(), moves.last_mut()) {
                (Some(&k), Some(last)) if k == key && last.mv == m.mv => accumulate(last, &m),
                _ => {
                    keys.push(key);
                    moves.push(m);
                }
            }
        }
        let mut book = Book {
            keys,
            moves,
            ..Book::default()
        };
        book.sort_moves();
        book
    }

    /// True when the book has no moves.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Number of positions with at least one move.
    pub fn position_count(&self) -> usize {
        self.keys.chunk_by(|a, b| a == b).count()
    }

    /// Number of (position, move) entries.
    pub fn entry_count(&self) -> usize {
        self.keys.len()
    }

    /// The index range of `key`'s entries.
    fn range(&self, key: u64) -> std::ops::Range<usize> {
        let start = self.keys.partition_point(|&k| k < key);
        let end = start + self.keys[start..].partition_point(|&k| k == key);
        start..end
    }

    /// Adds `m` to position `key`, summing weight and statistics with an
    /// existing entry for the same move.
    pub fn add(&mut self, key: u64, m: BookMove) {
        let range = self.range(key);
        match self.moves[range.clone()].iter_mut().find(|e| e.mv == m.mv) {
            Some(e) => accumulate(e, &m),
            None => {
                self.keys.insert(range.end, key);
                self.moves.insert(range.end, m);
            }
        }
        let range = self.range(key);
        self.moves[range].sort_by(book_order);
    }

    /// Records the legal move `m` in `pos` with `weight` added to it; the
    /// position is remembered for text output. This is what "add the move
    /// just played to my book" calls.
    pub fn add_move(&mut self, pos: &Position, m: Move, weight: u32) {
        self.add(
            pos.key(),
            BookMove {
                mv: PolyMove::from_move(m),
                weight,
                ..BookMove::default()
            },
        );
        self.positions.insert(pos.key(), *pos);
    }

    /// Records the move `m` played in the current position of `game` (the
    /// game's moves are kept as the history shown in text books).
    pub fn add_game_move(&mut self, game: &chess::Game, m: Move, weight: u32) {
        let pos = *game.position();
        self.add_move(&pos, m, weight);
        if *game.start() == Position::startpos() {
            self.histories.insert(pos.key(), game.moves().to_vec());
        }
    }

    /// Remembers that `history` (moves from the start position) reaches `key`.
    pub fn remember_history(&mut self, key: u64, history: Vec<Move>) {
        self.histories.entry(key).or_insert(history);
    }

    /// A move sequence from the start position known to reach `key`.
    pub fn history(&self, key: u64) -> Option<&[Move]> {
        self.histories.get(&key).map(Vec::as_slice)
    }

    /// Remembers the full position for `pos.key()` (used by text output).
    pub fn remember_position(&mut self, pos: &Position) {
        self.positions.insert(pos.key(), *pos);
    }

    /// The position remembered for `key`, if any.
    pub fn position(&self, key: u64) -> Option<&Position> {
        self.positions.get(&key)
    }

    /// The moves stored for `key`, highest weight first.
    pub fn moves(&self, key: u64) -> &[BookMove] {
        &self.moves[self.range(key)]
    }

    /// Every position's key with its moves, in increasing key order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &[BookMove])> + '_ {
        let mut start = 0;
        self.keys.chunk_by(|a, b| a == b).map(move |run| {
            let moves = &self.moves[start..start + run.len()];
            start += run.len();
            (run[0], moves)
        })
    }

    /// Removes the entries for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(u64, &BookMove) -> bool) {
        let keys = std::mem::take(&mut self.keys);
        let moves = std::mem::take(&mut self.moves);
        for (k, m) in keys.into_iter().zip(moves) {
            if keep(k, &m) {
                self.keys.push(k);
                self.moves.push(m);
            }
        }
    }

    /// Every key with moves, in increasing order (Polyglot file order).
    pub fn sorted_keys(&self) -> Vec<u64> {
        let mut keys = self.keys.clone();
        keys.dedup();
        keys
    }

    /// Sorts each position's moves by weight, highest first (ties by move bits).
    fn sort_moves(&mut self) {
        let mut start = 0;
        for run in self.keys.chunk_by(|a, b| a == b) {
            self.moves[start..start + run.len()].sort_by(book_order);
            start += run.len();
        }
    }

    /// Adds every entry of `other` to this book.
    pub fn merge(&mut self, other: &Book) {
        let mut entries: Vec<(u64, BookMove)> = self
            .keys
            .iter()
            .copied()
            .zip(self.moves.iter().copied())
            .collect();
        entries.extend(other.keys.iter().copied().zip(other.moves.iter().copied()));
        let merged = Book::from_entries(entries);
        self.keys = merged.keys;
        self.moves = merged.moves;
        for (&k, p) in &other.positions {
            self.positions.entry(k).or_insert(*p);
        }
        for (&k, h) in &other.histories {
            self.histories.entry(k).or_insert_with(|| h.clone());
        }
    }

    /// The book moves that are legal in `pos`, highest weight first, with
    /// their share of the total weight. Entries whose move is not legal here
    /// (a key collision or a corrupt file) are left out.
    pub fn candidates(&self, pos: &Position) -> Vec<Candidate> {
        let legal = pos.legal_moves();
        let mut out: Vec<Candidate> = Vec::new();
        for bm in self.moves(pos.key()) {
            let Some(&m) = legal.iter().find(|&&m| PolyMove::from_move(m) == bm.mv) else {
                continue;
            };
            if out.iter().any(|c| c.mv == m) {
                continue;
            }
            out.push(Candidate {
                mv: m,
                san: pos.san(m),
                uci: uci(pos, m),
                weight: bm.weight,
                percent: 0.0,
                wins: bm.wins,
                draws: bm.draws,
                losses: bm.losses,
                learn: bm.learn,
            });
        }
        let total: u64 = out.iter().map(|c| u64::from(c.weight)).sum();
        let count = out.len();
        for c in &mut out {
            c.percent = if total == 0 {
                100.0 / count as f64
            } else {
                100.0 * f64::from(c.weight) / total as f64
            };
        }
        // Stable: equal weights keep book order.
        out.sort_by_key(|c| std::cmp::Reverse(c.weight));
        out
    }

    /// Chooses a book move for `pos` by `policy`, or `None` when the book has
    /// no legal move for it.
    pub fn pick<R: Rng + ?Sized>(
        &self,
        pos: &Position,
        policy: Policy,
        rng: &mut R,
    ) -> Option<Move> {
        let all = self.candidates(pos);
        let weighted: Vec<&Candidate> = all.iter().filter(|c| c.weight > 0).collect();
        let pool: Vec<&Candidate> = if weighted.is_empty() {
            all.iter().collect()
        } else {
            weighted
        };
        if pool.is_empty() {
            return None;
        }
        let chosen = match policy {
            Policy::Best => pool[0],
            Policy::Worst => pool[pool.len() - 1],
            Policy::UniformRandom => pool[rng.random_range(0..pool.len())],
            Policy::WeightedRandom => {
                let total: u64 = pool.iter().map(|c| u64::from(c.weight)).sum();
                if total == 0 {
                    pool[rng.random_range(0..pool.len())]
                } else {
                    let mut r = rng.random_range(0..total);
                    let mut chosen = pool[pool.len() - 1];
                    for c in &pool {
                        if r < u64::from(c.weight) {
                            chosen = c;
                            break;
                        }
                        r -= u64::from(c.weight);
                    }
                    chosen
                }
            }
        };
        Some(chosen.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn small_book() -> (Book, Position) {
        let pos = Position::startpos();
        let mut book = Book::new();
        for (san, w) in [("e4", 60), ("d4", 30), ("c4", 10), ("a3", 0)] {
            let m = pos.parse_san(san).expect("legal");
            book.add_move(&pos, m, w);
        }
        (book, pos)
    }

    #[test]
    fn candidates_are_sorted_with_percentages() {
        let (book, pos) = small_book();
        let c = book.candidates(&pos);
        let sans: Vec<&str> = c.iter().map(|c| c.san.as_str()).collect();
        assert_eq!(sans, ["e4", "d4", "c4", "a3"]);
        assert!((c[0].percent - 60.0).abs() < 1e-9);
        assert_eq!(c[0].uci, "e2e4");
    }

    #[test]
    fn policies() {
        let (book, pos) = small_book();
        let mut rng = SmallRng::seed_from_u64(1);
        let san = |m: Option<Move>| pos.san(m.expect("book move"));
        assert_eq!(san(book.pick(&pos, Policy::Best, &mut rng)), "e4");
        // Zero-weight moves are never picked while others have weight.
        assert_eq!(san(book.pick(&pos, Policy::Worst, &mut rng)), "c4");
        let mut counts = std::collections::HashMap::new();
        for _ in 0..10_000 {
            *counts
                .entry(san(book.pick(&pos, Policy::WeightedRandom, &mut rng)))
                .or_insert(0) += 1;
        }
        assert!((5_500..6_500).contains(&counts["e4"]), "{counts:?}");
        assert!(!counts.contains_key("a3"));
        let mut seen = std::collections::HashSet::new();
        for _ in 0..1000 {
            seen.insert(san(book.pick(&pos, Policy::UniformRandom, &mut rng)));
        }
        assert_eq!(seen.len(), 3);
        let after = {
            let mut p = pos;
            p.play_unchecked(pos.parse_san("h3").expect("legal"));
            p
        };
        assert_eq!(book.pick(&after, Policy::Best, &mut rng), None);
    }

    #[test]
    fn add_sums_statistics() {
        let mut book = Book::new();
        let m = BookMove {
            mv: PolyMove(1),
            weight: 3,
            wins: 1,
            draws: 1,
            ..BookMove::default()
        };
        book.add(7, m);
        book.add(7, m);
        assert_eq!(book.moves(7)[0].weight, 6);
        assert_eq!(book.moves(7)[0].games(), 4);
        assert_eq!((book.position_count(), book.entry_count()), (1, 1));
    }
}
