//! Every weight of the evaluation, by name, as data: the list of terms, the
//! weight set the evaluator reads, and the text format the tuner writes and
//! the engine loads (`EvalFile`) or compiles in as its defaults.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::pair::{pair, Pair};

/// What a term is about, for the `kestrel eval` breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Piece values, bishop pair, imbalance.
    Material,
    /// Piece-square tables.
    Psqt,
    /// Safe squares each piece attacks.
    Mobility,
    /// Squares the side attacks as a whole.
    Coverage,
    /// Enemy pieces attacked, hanging pieces, own pieces defended.
    Threats,
    /// Pawn structure.
    Pawns,
    /// Passed pawns.
    Passed,
    /// King safety.
    King,
    /// Rooks, knights, bishops and queen on particular squares.
    Pieces,
    /// The side to move's bonus.
    Tempo,
}

impl Group {
    /// Every group, in display order.
    pub const ALL: [Group; 10] = [
        Group::Material,
        Group::Psqt,
        Group::Mobility,
        Group::Coverage,
        Group::Threats,
        Group::Pawns,
        Group::Passed,
        Group::King,
        Group::Pieces,
        Group::Tempo,
    ];

    /// Its name in the breakdown.
    pub fn name(self) -> &'static str {
        match self {
            Group::Material => "Material",
            Group::Psqt => "Piece-square",
            Group::Mobility => "Mobility",
            Group::Coverage => "Coverage",
            Group::Threats => "Threats",
            Group::Pawns => "Pawns",
            Group::Passed => "Passed pawns",
            Group::King => "King safety",
            Group::Pieces => "Pieces",
            Group::Tempo => "Tempo",
        }
    }
}

/// One named term: `len` consecutive weights starting at `first`.
#[derive(Clone, Copy, Debug)]
pub struct Term {
    /// Its name in weight files.
    pub name: &'static str,
    /// Index of its first weight.
    pub first: usize,
    /// Number of weights (1, or a table indexed as `doc` says).
    pub len: usize,
    /// Its group.
    pub group: Group,
    /// What it counts.
    pub doc: &'static str,
}

macro_rules! terms {
    ($($name:ident [$len:expr] $group:ident $doc:literal;)*) => {
        terms!(@offsets 0usize; $($name [$len] $doc;)*);
        /// Every term, in storage order.
        pub const TERMS: &[Term] = &[$(Term {
            name: stringify!($name),
            first: $name,
            len: $len,
            group: Group::$group,
            doc: $doc,
        }),*];
    };
    (@offsets $at:expr; $name:ident [$len:expr] $doc:literal; $($rest:tt)*) => {
        #[doc = $doc]
        pub const $name: usize = $at;
        terms!(@offsets $name + $len; $($rest)*);
    };
    (@offsets $at:expr;) => {
        /// Number of weights.
        pub const COUNT: usize = $at;
    };
}

terms! {
    PIECE_VALUE[5] Material "Value of a pawn, knight, bishop, rook, queen.";
    BISHOP_PAIR[1] Material "Two bishops or more.";
    KNIGHT_PAWNS[1] Material "Per knight, per own pawn above five (knights like closed positions).";
    ROOK_PAWNS[1] Material "Per rook, per own pawn above five (rooks like open ones).";
    ROOK_PAIR[1] Material "Two rooks or more (redundancy).";
    PSQT_PAWN[64] Psqt "Pawn on each square a1..h8, from its own side.";
    PSQT_KNIGHT[64] Psqt "Knight on each square.";
    PSQT_BISHOP[64] Psqt "Bishop on each square.";
    PSQT_ROOK[64] Psqt "Rook on each square.";
    PSQT_QUEEN[64] Psqt "Queen on each square.";
    PSQT_KING[64] Psqt "King on each square.";
    KNIGHT_MOBILITY[9] Mobility "Knight by number of safe squares attacked (0..8).";
    BISHOP_MOBILITY[14] Mobility "Bishop by safe squares attacked (0..13).";
    ROOK_MOBILITY[15] Mobility "Rook by safe squares attacked (0..14).";
    QUEEN_MOBILITY[28] Mobility "Queen by safe squares attacked (0..27).";
    COVERAGE[1] Coverage "Per square the side attacks with any piece.";
    CENTRE_CONTROL[1] Coverage "Per square of the central 4x4 the side attacks.";
    THREAT_BY_PAWN[5] Threats "Enemy pawn..queen attacked by a pawn.";
    THREAT_BY_MINOR[5] Threats "Enemy pawn..queen attacked by a knight or bishop.";
    THREAT_BY_ROOK[5] Threats "Enemy pawn..queen attacked by a rook.";
    THREAT_BY_QUEEN[5] Threats "Enemy pawn..queen attacked by a queen.";
    THREAT_BY_KING[5] Threats "Enemy pawn..queen attacked by the king.";
    HANGING[5] Threats "Enemy pawn..queen attacked and not defended.";
    DEFENDED[5] Threats "Own pawn..queen defended.";
    THREAT_PAWN_PUSH[1] Threats "Safe pawn push that would attack an enemy piece.";
    DOUBLED[1] Pawns "Pawn with another own pawn in front of it on its file.";
    ISOLATED[8] Pawns "Isolated pawn on file a..h.";
    BACKWARD[1] Pawns "Backward pawn (no neighbour behind, stop square held by an enemy pawn).";
    BLOCKED_CENTRE[1] Pawns "Unmoved d- or e-pawn with a piece in front of it.";
    PHALANX[8] Pawns "Pawn with an own pawn beside it, by rank.";
    SUPPORTED[8] Pawns "Pawn defended by an own pawn, by rank.";
    PASSED[8] Passed "Passed pawn by rank.";
    PASSED_FREE[8] Passed "Passed pawn whose stop square is empty and not attacked, by rank.";
    PASSED_OWN_KING[8] Passed "Passed pawn, per square of own king distance to its stop square, by rank.";
    PASSED_ENEMY_KING[8] Passed "Passed pawn, per square of enemy king distance to its stop square, by rank.";
    PASSED_UNSTOPPABLE[1] Passed "Passed pawn the enemy king cannot catch (no enemy pieces).";
    KING_SHIELD[8] King "Per file next to the king: rank of its nearest own pawn in front (0: none).";
    PAWN_STORM[8] King "Per file next to the king: rank of the nearest enemy pawn in front (0: none).";
    BLOCKED_STORM[1] King "Storming pawn blocked by an own pawn.";
    KING_OPEN_FILE[1] King "File next to the king with no pawns.";
    KING_SEMI_OPEN[1] King "File next to the king with no own pawn (but enemy pawns).";
    KING_ATTACK[32] King "King zone attack by attack units (two attackers or a queen).";
    SAFE_CHECK[4] King "Safe checks available to an enemy knight, bishop, rook, queen.";
    CASTLING_RIGHTS[1] King "Per castling right kept.";
    ROOK_OPEN_FILE[1] Pieces "Rook on a file with no pawns.";
    ROOK_SEMI_OPEN_FILE[1] Pieces "Rook on a file with no own pawn.";
    ROOK_SEVENTH[1] Pieces "Rook on the seventh rank, enemy king on the eighth or pawns on the seventh.";
    KNIGHT_OUTPOST[1] Pieces "Knight on an outpost (ranks 4-6, defended by a pawn, no enemy pawn can chase it).";
    BISHOP_OUTPOST[1] Pieces "Bishop on an outpost.";
    BAD_BISHOP[1] Pieces "Per own pawn on the bishop's colour.";
    QUEEN_EARLY[1] Pieces "Queen developed, per own minor piece still at home.";
    TEMPO[1] Tempo "The side to move.";
}

/// First weight of each role's piece-square table (pawn..king).
pub const PSQT: [usize; 6] = [
    PSQT_PAWN,
    PSQT_KNIGHT,
    PSQT_BISHOP,
    PSQT_ROOK,
    PSQT_QUEEN,
    PSQT_KING,
];

/// The full weight set.
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    values: Box<[Pair; COUNT]>,
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weights({COUNT} values)")
    }
}

/// The longest weight file read: the tuned file with every comment is
/// about 17 KB.
pub const MAX_FILE_LEN: u64 = 1 << 20;

/// A weight file Kestrel cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    /// 1-based line number (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for WeightsError {}

/// The compiled-in weights (tuned; see `weights.txt`).
const DEFAULT_TEXT: &str = include_str!("weights.txt");

impl Weights {
    /// All zero.
    pub fn zero() -> Weights {
        Weights {
            values: Box::new([Pair::default(); COUNT]),
        }
    }

    /// The compiled-in default weights, shared.
    pub fn default_shared() -> Arc<Weights> {
        static DEFAULT: OnceLock<Arc<Weights>> = OnceLock::new();
        DEFAULT
            .get_or_init(|| {
                Arc::new(Weights::parse(DEFAULT_TEXT).expect("the compiled-in weights parse"))
            })
            .clone()
    }

    /// Weight `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Pair {
        self.values[i]
    }

    /// Sets weight `i`.
    pub fn set(&mut self, i: usize, value: Pair) {
        self.values[i] = value;
    }

    /// All weights in storage order.
    pub fn as_slice(&self) -> &[Pair] {
        &self.values[..]
    }

    /// Reads a weight file: lines `NAME INDEX MG EG` (`#` starts a comment).
    /// Every weight must be given exactly once, so that a file from an older
    /// term list is refused rather than silently half-used.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights::zero();
        let mut seen = vec![false; COUNT];
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |message: String| WeightsError {
                line: n + 1,
                message,
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [name, index, mg, eg] = fields[..] else {
                // The line itself is not quoted: the file may be anything
                // (an `EvalFile` naming a file that holds secrets).
                return Err(err(format!(
                    "expected the 4 words `NAME INDEX MG EG`, found {}",
                    fields.len()
                )));
            };
            let term = TERMS.iter().find(|t| t.name == name).ok_or_else(|| {
                err("unknown term (the names are those of weights.txt)".to_string())
            })?;
            let index: usize = index
                .parse()
                .ok()
                .filter(|&i| i < term.len)
                .ok_or_else(|| {
                    err(format!(
                        "the index of {name} must be a number below {}",
                        term.len
                    ))
                })?;
            let value = |s: &str| {
                s.parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() <= 10_000)
                    .ok_or_else(|| {
                        err(format!(
                            "{name} {index}: not a weight (an integer within ±10000)"
                        ))
                    })
            };
            let slot = term.first + index;
            if seen[slot] {
                return Err(err(format!("{name} {index} is given twice")));
            }
            seen[slot] = true;
            w.values[slot] = pair(value(mg)?, value(eg)?);
        }
        if let Some(missing) = seen.iter().position(|s| !s) {
            let (term, i) = locate(missing);
            return Err(WeightsError {
                line: 0,
                message: format!(
                    "weight {} {i} is missing ({} of {COUNT} given)",
                    term.name,
                    seen.iter().filter(|s| **s).count()
                ),
            });
        }
        Ok(w)
    }

    /// Reads a weight file from disk.
    pub fn load(path: &std::path::Path) -> Result<Weights, WeightsError> {
        let text =
            types::file::read_regular_text(path, MAX_FILE_LEN).map_err(|e| WeightsError {
                line: 0,
                message: format!("cannot read {}: {e}", path.display()),
            })?;
        Weights::parse(&text)
    }

    /// The weights in the text format `parse` reads, one term after another
    /// with its description.
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "# Kestrel evaluation weights: NAME INDEX MIDDLEGAME ENDGAME (centipawns).\n",
        );
        for term in TERMS {
            out.push_str(&format!("\n# {}\n", term.doc));
            for i in 0..term.len {
                let v = self.values[term.first + i];
                let label = if term.name.starts_with("PSQT_") {
                    let sq = chess::Square::new(i as u8);
                    format!("  # {sq}")
                } else {
                    String::new()
                };
                out.push_str(&format!("{} {i} {} {}{label}\n", term.name, v.mg, v.eg));
            }
        }
        out
    }
}

/// The term holding weight `index`, and the index within it.
pub fn locate(index: usize) -> (&'static Term, usize) {
    let term = TERMS
        .iter()
        .rev()
        .find(|t| t.first <= index)
        .expect("index 0 belongs to the first term");
    (term, index - term.first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_tile_the_weights() {
        let mut next = 0;
        for t in TERMS {
            assert_eq!(t.first, next, "{}", t.name);
            next += t.len;
        }
        assert_eq!(next, COUNT);
    }

    #[test]
    fn default_weights_round_trip_through_text() {
        let w = Weights::default_shared();
        assert_eq!(Weights::parse(&w.to_text()).unwrap(), *w);
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        let w = Weights::default_shared();
        let text = w.to_text();
        let missing: String = text
            .lines()
            .filter(|l| !l.starts_with("TEMPO"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(Weights::parse(&missing)
            .unwrap_err()
            .message
            .contains("TEMPO 0 is missing"));
        let e = Weights::parse("PIECE_VALUE 9 1 1").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("below 5"));
        assert!(Weights::parse("NOPE 0 1 1")
            .unwrap_err()
            .message
            .contains("unknown term"));
        assert!(Weights::parse("TEMPO 0 x 1")
            .unwrap_err()
            .message
            .contains("not a weight"));
        let twice = format!("{text}\nTEMPO 0 1 1\n");
        assert!(Weights::parse(&twice)
            .unwrap_err()
            .message
            .contains("twice"));
    }
}
