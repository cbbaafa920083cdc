//! The words sentences are made of: pieces and sides by name, lists, and
//! material won or lost.

use chess::{Color, Position, Role};

use crate::motif::Placed;

/// A role's name.
pub fn role(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// A side's name.
pub fn side(color: Color) -> &'static str {
    color.fold("White", "Black")
}

/// "the knight on f6" (the king needs no square).
pub fn piece(p: Placed) -> String {
    if p.role() == Role::King {
        "the king".to_string()
    } else {
        format!("the {} on {}", role(p.role()), p.square)
    }
}

/// "a", "a and b", "a, b and c".
pub fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A count in words, for the small counts material comes in.
fn count(n: i32, one: &str, many: &str) -> String {
    let word = match n {
        1 => return format!("a {one}"),
        2 => "two",
        3 => "three",
        4 => "four",
        _ => return format!("{n} {many}"),
    };
    format!("{word} {many}")
}

/// How many pieces of each class (pawns, minor pieces, rooks, queens)
/// `color` has in `pos`.
fn classes(pos: &Position, color: Color) -> [i32; 4] {
    let n = |r: Role| pos.pieces(color, r).count() as i32;
    [
        n(Role::Pawn),
        n(Role::Knight) + n(Role::Bishop),
        n(Role::Rook),
        n(Role::Queen),
    ]
}

/// What `color` lost between `from` and `to`, net of what it took, in
/// words ("the queen", "the exchange", "a piece for a pawn", "two pawns");
/// none when it lost nothing or the trade has no short name.
pub fn material_lost(from: &Position, to: &Position, color: Color) -> Option<String> {
    let (a0, a1) = (classes(from, color), classes(to, color));
    let (b0, b1) = (classes(from, !color), classes(to, !color));
    // Net per class: lost by `color` minus taken from the other side.
    let lost: Vec<i32> = (0..4).map(|i| a0[i] - a1[i]).collect();
    let taken: Vec<i32> = (0..4).map(|i| b0[i] - b1[i]).collect();
    let net: Vec<i32> = (0..4).map(|i| lost[i] - taken[i]).collect();
    let pawns_back = (-net[0]).max(0);
    let for_pawns = |base: String| match pawns_back {
        0 => base,
        n => format!("{base} for {}", count(n, "pawn", "pawns")),
    };
    match (net[3], net[2], net[1], net[0]) {
        (1, 0, 0, _) => Some(for_pawns("the queen".into())),
        (1, -1, 0, _) => Some("the queen for a rook".into()),
        (1, 0, -1, _) => Some("the queen for a piece".into()),
        (1, 0, -2, _) => Some("the queen for two pieces".into()),
        (1, -1, -1, _) => Some("the queen for a rook and a piece".into()),
        (0, 1, -1, _) => Some(for_pawns("the exchange".into())),
        (0, 1, 0, _) => Some(for_pawns("a rook".into())),
        (0, 2, 0, _) => Some("both rooks".into()),
        (0, 0, 1, _) => Some(for_pawns("a piece".into())),
        (0, 0, 2, _) => Some(for_pawns("two pieces".into())),
        (0, 0, 0, n) if n > 0 => Some(count(n, "pawn", "pawns")),
        _ => None,
    }
}
