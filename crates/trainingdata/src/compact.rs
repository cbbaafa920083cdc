//! Compact viriformat: the same games as viriformat, laid out in columns so
//! that zstd finds their redundancy. The store's shards use it (about 1.7
//! bytes a position compressed against 3.5 for plain viriformat; the
//! measurement is in docs/training-data.md), and it decodes losslessly back
//! to viriformat for bullet (`kestrel datagen convert`).
//!
//! Layout, before compression (little-endian):
//!
//! | part | size | what |
//! |---|---|---|
//! | magic | 4 | `KVFC` |
//! | version | 4 | `u32`, 1 |
//! | games | 8 | `u64`, the number of games *G* |
//! | starts | 32 *G* | each game's packed start position with its result, as viriformat writes it |
//! | lengths | 2 *G* | each game's number of moves, `u16` |
//! | moves | *M* | each move as its index among the position's legal moves sorted by their viriformat code (an order no move generator can change) |
//! | scores | 2 *M* | each move's score as the difference from the game's previous score (the first from 0), wrapping in 16 bits and zigzag-coded: all low bytes, then all high bytes |

use chess::Position;

use crate::viriformat::{self, encode_move, pack, unpack, Game, PackedError, PACKED_SIZE};

/// The first four bytes of a compact file.
pub const MAGIC: &[u8; 4] = b"KVFC";
/// The layout version this code writes and reads.
pub const VERSION: u32 = 1;
const HEADER: usize = 16;

/// Why bytes are not compact games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompactError {
    /// Not the magic, or another version.
    #[error("not compact viriformat version {VERSION} (magic or version differ)")]
    Header,
    /// The columns are shorter or longer than the counts say.
    #[error("the columns do not match the counts ({0})")]
    Size(&'static str),
    /// A game longer than a `u16` counts.
    #[error("a game of {0} moves is longer than the format holds")]
    TooLong(usize),
    /// A start position or a move index is damaged.
    #[error("game {game}: {source}")]
    Game {
        /// The game's index.
        game: u64,
        /// What is wrong.
        source: PackedError,
    },
}

/// The legal moves of `pos` in their canonical order (by viriformat code).
fn sorted_moves(pos: &Position) -> Vec<u16> {
    let mut codes: Vec<u16> = pos.legal_moves().iter().map(|&m| encode_move(m)).collect();
    codes.sort_unstable();
    codes
}

fn zigzag(d: i16) -> u16 {
    ((d << 1) ^ (d >> 15)) as u16
}

fn unzigzag(z: u16) -> i16 {
    ((z >> 1) as i16) ^ -((z & 1) as i16)
}

/// Encodes `games` (each move must be legal in its position).
pub fn encode(games: &[Game]) -> Result<Vec<u8>, CompactError> {
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    let mut out = Vec::with_capacity(HEADER + games.len() * 34 + moves * 3);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(games.len() as u64).to_le_bytes());
    for g in games {
        out.extend_from_slice(&pack(&g.start, 0, g.result));
    }
    for g in games {
        let n = u16::try_from(g.moves.len()).map_err(|_| CompactError::TooLong(g.moves.len()))?;
        out.extend_from_slice(&n.to_le_bytes());
    }
    let mut scores = Vec::with_capacity(moves);
    for (index, g) in games.iter().enumerate() {
        let mut pos = g.start;
        let mut previous = 0i16;
        for &(m, score) in &g.moves {
            let code = encode_move(m);
            let slot = sorted_moves(&pos)
                .binary_search(&code)
                .map_err(|_| CompactError::Game {
                    game: index as u64,
                    source: PackedError::IllegalMove {
                        raw: code,
                        fen: pos.fen(),
                    },
                })?;
            // At most 218 legal moves: an index fits a byte.
            out.push(slot as u8);
            pos.play_unchecked(m);
            scores.push(zigzag(score.wrapping_sub(previous)));
            previous = score;
        }
    }
    out.extend(scores.iter().map(|z| (z & 0xff) as u8));
    out.extend(scores.iter().map(|z| (z >> 8) as u8));
    Ok(out)
}

/// Decodes compact games.
pub fn decode(bytes: &[u8]) -> Result<Vec<Game>, CompactError> {
    if bytes.len() < HEADER
        || &bytes[0..4] != MAGIC
        || u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) != VERSION
    {
        return Err(CompactError::Header);
    }
    let count = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    let rest = &bytes[HEADER..];
    // Checked before allocating: a damaged count cannot ask for memory the
    // bytes cannot fill.
    let count = usize::try_from(count)
        .ok()
        .filter(|&g| {
            g.checked_mul(PACKED_SIZE + 2)
                .is_some_and(|n| n <= rest.len())
        })
        .ok_or(CompactError::Size("games"))?;
    let (starts, rest) = rest.split_at(count * PACKED_SIZE);
    let (lengths, rest) = rest.split_at(count * 2);
    let lengths: Vec<usize> = lengths
        .chunks_exact(2)
        .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])))
        .collect();
    let moves: usize = lengths.iter().sum();
    if rest.len() != moves * 3 {
        return Err(CompactError::Size("moves and scores"));
    }
    let (slots, rest) = rest.split_at(moves);
    let (low, high) = rest.split_at(moves);
    let mut games = Vec::with_capacity(count);
    let mut next = 0;
    for (index, (start, &length)) in starts.chunks_exact(PACKED_SIZE).zip(&lengths).enumerate() {
        let game_err = |source| CompactError::Game {
            game: index as u64,
            source,
        };
        let start: &[u8; PACKED_SIZE] = start.try_into().expect("a whole chunk");
        let (position, _, result) = unpack(start).map_err(game_err)?;
        let mut game = Game::new(position, result);
        game.moves.reserve(length);
        let mut pos = position;
        let mut previous = 0i16;
        for i in next..next + length {
            let codes = sorted_moves(&pos);
            let code = *codes.get(usize::from(slots[i])).ok_or_else(|| {
                game_err(PackedError::IllegalMove {
                    raw: u16::from(slots[i]),
                    fen: pos.fen(),
                })
            })?;
            let m = viriformat::decode_move(code);
            pos.play_unchecked(m);
            let score = previous.wrapping_add(unzigzag(u16::from_le_bytes([low[i], high[i]])));
            game.moves.push((m, score));
            previous = score;
        }
        next += length;
        games.push(game);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RecordResult;

    #[test]
    fn zigzag_round_trips_every_difference() {
        for d in [i16::MIN, -300, -1, 0, 1, 300, i16::MAX] {
            assert_eq!(unzigzag(zigzag(d)), d);
        }
        assert_eq!((zigzag(0), zigzag(-1), zigzag(1)), (0, 1, 2));
    }

    #[test]
    fn games_round_trip_and_damage_is_refused() {
        let mut games = Vec::new();
        for (fen, moves) in [
            (
                "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
                vec!["a2a4", "b4a3", "e1c1", "e8g8", "b7b8n"],
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                vec!["e2e4", "c7c5"],
            ),
            ("8/8/8/8/8/5k2/8/4K3 b - - 99 300", vec![]),
        ] {
            let start = Position::from_fen(fen).unwrap();
            let mut pos = start;
            let mut game = Game::new(start, RecordResult::BlackWin);
            for (i, text) in moves.iter().enumerate() {
                let m = pos.parse_uci_move(text, pos.castling_mode()).unwrap();
                pos.play_unchecked(m);
                game.moves.push((m, [30_999, -31_000, 5, -7, 0][i]));
            }
            games.push(game);
        }
        let bytes = encode(&games).unwrap();
        assert_eq!(decode(&bytes).unwrap(), games);
        assert_eq!(
            decode(&bytes[..bytes.len() - 1]),
            Err(CompactError::Size("moves and scores"))
        );
        assert_eq!(decode(b"KVFC\x02\0\0\0"), Err(CompactError::Header));
        let mut huge = bytes.clone();
        huge[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(decode(&huge), Err(CompactError::Size("games")));
        // A move index beyond the legal moves.
        let mut bad = bytes;
        let first_move = HEADER + 3 * (PACKED_SIZE + 2);
        bad[first_move] = 250;
        assert!(matches!(
            decode(&bad),
            Err(CompactError::Game { game: 0, .. })
        ));
    }
}
