//! The tactical motifs a coach names, each with the squares and pieces it
//! involves. A motif is found for one move of a line (see `find.rs`) and
//! belongs to the side that made it: a fork is that side's fork.

use chess::{Color, Piece, Role, Square};

/// A piece where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The piece.
    pub piece: Piece,
    /// Its square.
    pub square: Square,
}

impl Placed {
    /// `piece` on `square`.
    pub fn new(piece: Piece, square: Square) -> Placed {
        Placed { piece, square }
    }

    /// Its role.
    pub fn role(self) -> Role {
        self.piece.role
    }
}

/// How a mate looks on the board, when it has a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatePattern {
    /// A rook or queen mates on the king's back rank, its own pieces
    /// blocking every square in front of it.
    BackRank,
    /// A knight mates a king whose every neighbouring square holds one of
    /// its own pieces.
    Smothered,
}

/// One motif of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Motif {
    /// The move takes `target`, which stood undefended (hanging) or
    /// defended too little (en prise): the exchange wins material and the
    /// line keeps it.
    WinsHanging {
        /// The piece that takes, before it moves.
        taker: Placed,
        /// What it takes.
        target: Placed,
        /// True when something defended the target (en prise, not hanging).
        defended: bool,
    },
    /// The moved piece attacks two or more pieces (the king among them, or
    /// pieces worth more than it, or undefended ones) and the line wins one.
    Fork {
        /// The forking piece, where the move put it.
        forker: Placed,
        /// What it attacks.
        targets: Vec<Placed>,
    },
    /// A line piece holds an enemy piece that cannot move without exposing
    /// the king or a more valuable piece behind it, and the line wins
    /// material from it.
    Pin {
        /// The pinning piece.
        pinner: Placed,
        /// The pinned piece.
        pinned: Placed,
        /// What stands behind it.
        behind: Placed,
    },
    /// A line piece attacks a valuable piece (or the king) that must move
    /// away, and then takes the piece behind it.
    Skewer {
        /// The skewering piece.
        attacker: Placed,
        /// The piece attacked first.
        front: Placed,
        /// The piece taken behind it.
        behind: Placed,
    },
    /// The move uncovers a line piece's attack on `target`, which the line
    /// then wins.
    DiscoveredAttack {
        /// The piece that moved off the line, where it went.
        moved: Placed,
        /// The line piece whose attack was uncovered.
        slider: Placed,
        /// What it attacks.
        target: Placed,
    },
    /// The move uncovers a check by a line piece (both check when `double`).
    DiscoveredCheck {
        /// The piece that moved off the line, where it went.
        moved: Placed,
        /// The line piece that now gives check.
        slider: Placed,
        /// True when the moved piece gives check too.
        double: bool,
    },
    /// The line ends in mate by the mover, `moves` of its moves from here.
    Mate {
        /// Moves of the mover up to the mate (1: this move mates).
        moves: u32,
        /// The mating move, in SAN.
        mating: String,
        /// The pattern, when it has a name.
        pattern: Option<MatePattern>,
    },
    /// After the move the mover would mate at once if it were its turn.
    MateThreat {
        /// The mate it threatens, in SAN.
        mating: String,
    },
    /// The move takes (or trades off) the only defender of `left`, which
    /// the line then wins.
    RemovedDefender {
        /// The defender taken.
        defender: Placed,
        /// The piece it alone defended.
        left: Placed,
    },
    /// The defender that recaptures had a second piece to guard, which the
    /// line then wins.
    Overloaded {
        /// The overloaded defender.
        defender: Placed,
        /// The piece it could no longer guard.
        left: Placed,
    },
    /// The move attacks a piece that has no safe square, and the line wins it.
    Trapped {
        /// The trapped piece.
        piece: Placed,
    },
    /// The move promotes a pawn, and the line keeps the material it gains.
    Promotion {
        /// The promotion square.
        square: Square,
        /// The new piece.
        role: Role,
    },
    /// The move pushes a passed pawn that the line promotes.
    PassedPawnRun {
        /// The pawn, before the move.
        pawn: Placed,
        /// Where it promotes.
        promotes: Square,
    },
    /// The mover checks on every move of the line until a position repeats.
    Perpetual {
        /// The piece that gives the checks.
        checker: Placed,
    },
    /// The line ends in stalemate.
    Stalemate {
        /// The side that has no move.
        stalemated: Color,
    },
}

/// The kinds of motif, as the labelled set and `--json` name them.
pub const KINDS: [&str; 15] = [
    "hanging",
    "fork",
    "pin",
    "skewer",
    "discovered",
    "mate",
    "back_rank",
    "smothered",
    "mate_threat",
    "removed_defender",
    "overloaded",
    "trapped",
    "promotion",
    "perpetual",
    "stalemate",
];

impl Motif {
    /// Its kind's name (one of [`KINDS`]); a mate with a pattern is named
    /// by the pattern (see [`Motif::kinds`] for both names).
    pub fn kind(&self) -> &'static str {
        match self {
            Motif::WinsHanging { .. } => "hanging",
            Motif::Fork { .. } => "fork",
            Motif::Pin { .. } => "pin",
            Motif::Skewer { .. } => "skewer",
            Motif::DiscoveredAttack { .. } | Motif::DiscoveredCheck { .. } => "discovered",
            Motif::Mate { pattern, .. } => match pattern {
                Some(MatePattern::BackRank) => "back_rank",
                Some(MatePattern::Smothered) => "smothered",
                None => "mate",
            },
            Motif::MateThreat { .. } => "mate_threat",
            Motif::RemovedDefender { .. } => "removed_defender",
            Motif::Overloaded { .. } => "overloaded",
            Motif::Trapped { .. } => "trapped",
            Motif::Promotion { .. } | Motif::PassedPawnRun { .. } => "promotion",
            Motif::Perpetual { .. } => "perpetual",
            Motif::Stalemate { .. } => "stalemate",
        }
    }

    /// Every kind it counts as: a back-rank or smothered mate is a mate too.
    pub fn kinds(&self) -> Vec<&'static str> {
        match self {
            Motif::Mate {
                pattern: Some(_), ..
            } => vec!["mate", self.kind()],
            _ => vec![self.kind()],
        }
    }

    /// The squares it involves, the acting piece's first.
    pub fn squares(&self) -> Vec<Square> {
        match self {
            Motif::WinsHanging { taker, target, .. } => vec![taker.square, target.square],
            Motif::Fork { forker, targets } => std::iter::once(forker.square)
                .chain(targets.iter().map(|t| t.square))
                .collect(),
            Motif::Pin {
                pinner,
                pinned,
                behind,
            } => vec![pinner.square, pinned.square, behind.square],
            Motif::Skewer {
                attacker,
                front,
                behind,
            } => vec![attacker.square, front.square, behind.square],
            Motif::DiscoveredAttack {
                moved,
                slider,
                target,
            } => vec![slider.square, moved.square, target.square],
            Motif::DiscoveredCheck { moved, slider, .. } => vec![slider.square, moved.square],
            Motif::Mate { .. } | Motif::MateThreat { .. } | Motif::Stalemate { .. } => Vec::new(),
            Motif::RemovedDefender { defender, left } | Motif::Overloaded { defender, left } => {
                vec![defender.square, left.square]
            }
            Motif::Trapped { piece } => vec![piece.square],
            Motif::Promotion { square, .. } => vec![*square],
            Motif::PassedPawnRun { pawn, promotes } => vec![pawn.square, *promotes],
            Motif::Perpetual { checker } => vec![checker.square],
        }
    }
}
