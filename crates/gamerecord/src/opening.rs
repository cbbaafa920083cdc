//! Opening names: the ECO code and name of a game's position, from the
//! lichess opening table embedded in the binary (`data/openings.tsv`, CC0;
//! see `data/README.md`). Names are indexed by the position their moves
//! reach, not by the moves, so a transposition finds its name; a game that
//! has left the table keeps the name of the last named position it passed.

use std::collections::HashMap;
use std::sync::OnceLock;

use chess::Position;
use serde::Serialize;

const TABLE: &str = include_str!("../data/openings.tsv");

/// A named opening.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code (`B20`).
    pub eco: &'static str,
    /// The name (`Sicilian Defense: Alapin Variation`).
    pub name: &'static str,
}

/// The table, by position key; built on first use (about 3,800 short lines).
fn index() -> &'static HashMap<u64, Opening> {
    static INDEX: OnceLock<HashMap<u64, Opening>> = OnceLock::new();
    INDEX.get_or_init(|| build(TABLE))
}

/// Indexes `table` (lines `ECO<TAB>name<TAB>SAN moves`) by the position each
/// line reaches. A line that does not read or play is skipped (the table is
/// fixed and tested, so none is); where two lines reach one position the
/// first keeps it, as the table lists the main name before its variations.
fn build(table: &'static str) -> HashMap<u64, Opening> {
    let mut map = HashMap::new();
    for line in table.lines() {
        let mut fields = line.split('\t');
        let (Some(eco), Some(name), Some(moves)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let mut pos = Position::startpos();
        let played = moves
            .split_whitespace()
            .all(|san| match pos.parse_san(san) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    true
                }
                Err(_) => false,
            });
        if played {
            map.entry(pos.key()).or_insert(Opening { eco, name });
        }
    }
    map
}

/// The opening of `pos` itself, when the table names it.
pub fn lookup(pos: &Position) -> Option<Opening> {
    index().get(&pos.key()).cloned()
}

/// How many positions the table names.
pub fn known_positions() -> usize {
    index().len()
}

/// A named position of a game: the opening reached after `ply` plies.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct NamedPly {
    /// Plies from the game's start (0: the start position).
    pub ply: usize,
    /// The opening.
    #[serde(flatten)]
    pub opening: Opening,
}

/// Every position of `positions` (a game's, the start first) that the table
/// names, in order: the opening on view at ply N is the last entry at or
/// before N, which keeps the name once the game leaves the table.
pub fn named_plies(positions: &[Position]) -> Vec<NamedPly> {
    positions
        .iter()
        .enumerate()
        .filter_map(|(ply, pos)| lookup(pos).map(|opening| NamedPly { ply, opening }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &str) -> Vec<Position> {
        let mut pos = Position::startpos();
        let mut out = vec![pos];
        for san in moves.split_whitespace() {
            let m = pos.parse_san(san).expect("legal");
            pos.play_unchecked(m);
            out.push(pos);
        }
        out
    }

    #[test]
    fn every_line_of_the_table_reads_and_plays() {
        let lines = TABLE.lines().count();
        assert!(lines > 3500, "{lines} lines");
        for line in TABLE.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "{line}");
            assert!(
                fields[0].len() == 3 && ('A'..='E').contains(&fields[0].chars().next().unwrap()),
                "{line}"
            );
            assert_eq!(build(line).len(), 1, "the moves of '{line}' play");
        }
        // Some lines reach the same position by other move orders.
        assert!(known_positions() > 3400, "{}", known_positions());
    }

    #[test]
    fn the_sicilian_is_b20_and_keeps_its_name_out_of_the_table() {
        let game = after("e4 c5");
        let named = named_plies(&game);
        let last = named.last().expect("named");
        assert_eq!((last.ply, last.opening.eco), (2, "B20"));
        assert_eq!(last.opening.name, "Sicilian Defense");
        assert_eq!(named[0].ply, 1, "1. e4 is named too: {named:?}");
        assert_eq!(named[0].opening.eco, "B00");

        // A move no table line plays: the name stays the Sicilian's.
        let game = after("e4 c5 h3 h5 h4");
        let last = named_plies(&game).pop().expect("named");
        assert_eq!((last.ply, last.opening.eco), (2, "B20"));
        assert_eq!(lookup(&Position::startpos()), None);
    }

    #[test]
    fn a_transposition_finds_the_same_name() {
        // The Queen's Gambit Declined by 1. c4 e6 2. Nc3 d5 3. d4 and by 1. d4 d5 2. c4 e6 3. Nc3.
        let english = after("c4 e6 Nc3 d5 d4");
        let queens = after("d4 d5 c4 e6 Nc3");
        let a = lookup(english.last().unwrap()).expect("named");
        let b = lookup(queens.last().unwrap()).expect("named");
        assert_eq!(a, b);
        assert_eq!(a.eco, "D31");
        assert_eq!(a.name, "Queen's Gambit Declined: Queen's Knight Variation");
    }
}
