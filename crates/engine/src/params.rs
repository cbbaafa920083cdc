//! Every search technique as a named parameter: a switch (on/off) or a
//! number, each one a UCI option, defaults the strongest setting. Declared
//! once below; the struct, its defaults, the UCI option list and the setter
//! are generated from that one list, so that adding a technique is one line.

use std::fmt;

/// A parameter's type and range, for listing it as a UCI option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// On/off (UCI `check`).
    Switch {
        /// Default.
        default: bool,
    },
    /// An integer (UCI `spin`).
    Number {
        /// Default.
        default: i32,
        /// Smallest value.
        min: i32,
        /// Largest value.
        max: i32,
    },
}

/// One search parameter as the outside sees it.
#[derive(Clone, Debug)]
pub struct ParamInfo {
    /// UCI option name.
    pub name: &'static str,
    /// Type and range.
    pub kind: ParamKind,
    /// What it does.
    pub help: &'static str,
}

/// Why a parameter value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has this name.
    Unknown(String),
    /// The value is not of the parameter's type or out of its range.
    BadValue {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown(n) => write!(f, "unknown option '{n}'"),
            ParamError::BadValue {
                name,
                value,
                expected,
            } => {
                write!(f, "option '{name}' takes {expected}, not '{value}'")
            }
        }
    }
}

impl std::error::Error for ParamError {}

macro_rules! search_params {
    (
        switches { $( $sw:ident : $sw_name:literal = $sw_default:literal, $sw_help:literal; )* }
        numbers { $( $num:ident : $num_name:literal = $num_default:literal, $num_min:literal ..= $num_max:literal, $num_help:literal; )* }
    ) => {
        /// The search's parameters (see the list in `params.rs`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( #[doc = $sw_help] pub $sw: bool, )*
            $( #[doc = $num_help] pub $num: i32, )*
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $( $sw: $sw_default, )* $( $num: $num_default, )* }
            }
        }

        impl SearchParams {
            /// Every parameter, switches first.
            pub fn list() -> Vec<ParamInfo> {
                vec![
                    $( ParamInfo { name: $sw_name, kind: ParamKind::Switch { default: $sw_default }, help: $sw_help }, )*
                    $( ParamInfo { name: $num_name, kind: ParamKind::Number { default: $num_default, min: $num_min, max: $num_max }, help: $num_help }, )*
                ]
            }

            /// Sets a parameter by UCI name (case-insensitive).
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
                let value = value.trim();
                $(
                    if name.eq_ignore_ascii_case($sw_name) {
                        self.$sw = crate::bool_value::parse_bool(value).map_err(|_| ParamError::BadValue { name: $sw_name, value: value.to_string(), expected: crate::bool_value::BOOL_WORDS.to_string() })?;
                        return Ok(());
                    }
                )*
                $(
                    if name.eq_ignore_ascii_case($num_name) {
                        match value.parse::<i32>() {
                            Ok(v) if ($num_min..=$num_max).contains(&v) => { self.$num = v; return Ok(()); }
                            _ => return Err(ParamError::BadValue { name: $num_name, value: value.to_string(), expected: format!("a number from {} to {}", $num_min, $num_max) }),
                        }
                    }
                )*
                Err(ParamError::Unknown(name.to_string()))
            }
        }
    };
}

search_params! {
    switches {
        tt: "TranspositionTable" = true, "Store and reuse search results (transposition table).";
        aspiration: "AspirationWindows" = true, "Search each iteration in a narrow window around the last score.";
        pvs: "PrincipalVariationSearch" = true, "Null-window searches for moves after the first, re-searched on fail-high.";
        quiescence: "Quiescence" = true, "Resolve captures at the horizon instead of evaluating a position mid-exchange.";
        qs_delta: "QSDeltaPruning" = true, "Skip quiescence captures that cannot raise alpha even with a margin.";
        qs_see: "QSSeePruning" = true, "Skip losing captures (by static exchange) in quiescence.";
        qs_null_move: "QSNullMove" = false, "Try a null move inside quiescence (one seed program's idea).";
        null_move: "NullMove" = true, "Null-move pruning: pass, and if a reduced search still fails high, cut.";
        null_verification: "NullMoveVerification" = true, "Verify null-move cut-offs at high depth with a reduced normal search.";
        see_ordering: "SEEOrdering" = true, "Put captures that lose material (static exchange) after the quiet moves.";
        killers: "KillerMoves" = true, "Try the quiet moves that cut off at the same ply first.";
        countermoves: "Countermoves" = true, "Try the quiet move that last refuted the opponent's previous move.";
        history: "HistoryHeuristic" = true, "Order quiet moves by how often they cut off (butterfly and continuation history).";
        lmr: "LateMoveReductions" = true, "Search late, quiet moves to a reduced depth first.";
        rfp: "ReverseFutilityPruning" = true, "Cut when the static evaluation beats beta by a depth-dependent margin.";
        futility: "FutilityPruning" = true, "Skip quiet moves near the horizon when the evaluation is far below alpha.";
        lmp: "LateMovePruning" = true, "Stop trying quiet moves near the horizon after a move-count limit.";
        see_pruning: "SEEPruning" = true, "Skip moves that lose too much material (static exchange) near the horizon.";
        razoring: "Razoring" = true, "Drop to quiescence when the evaluation is hopeless near the horizon.";
        check_extension: "CheckExtension" = true, "Search moves that give check one ply deeper.";
        singular_extension: "SingularExtension" = true, "Search the hash move deeper when every alternative is clearly worse.";
        iir: "InternalIterativeReduction" = true, "Reduce depth at nodes that have no hash move.";
        mate_distance_pruning: "MateDistancePruning" = true, "Cut when even a mate here could not beat a shorter mate found already.";
        syzygy_50_move_rule: "Syzygy50MoveRule" = true, "Tablebase wins and losses that the fifty-move rule turns into draws count as draws.";
        book_in_search: "BookInSearch" = false, "Score book positions reached near the root by quiescence plus BookBonus, without searching them further.";
    }
    numbers {
        qs_max_depth: "QSearchMaxDepth" = 0, 0..=64, "Maximum quiescence plies (0: unlimited; the seed program used 6).";
        null_move_reduction: "NullMoveReduction" = 3, 1..=6, "Base depth reduction of the null-move search.";
        null_verification_depth: "NullMoveVerifyDepth" = 12, 1..=64, "Depth from which null-move cut-offs are verified.";
        aspiration_delta: "AspirationDelta" = 16, 1..=500, "Initial half-width of the aspiration window (centipawns).";
        contempt: "Contempt" = 0, -200..=200, "Value of avoiding a draw: positive avoids draws, negative seeks them (centipawns).";
        syzygy_probe_depth: "SyzygyProbeDepth" = 1, 1..=100, "Smallest depth at which the search probes the tablebases (with the most pieces they hold).";
        syzygy_probe_limit: "SyzygyProbeLimit" = 7, 0..=7, "Most pieces (kings included) of a position probed in the tablebases; 0 turns probing off.";
        book_search_ply: "BookSearchPly" = 4, 1..=20, "With BookInSearch: the deepest search ply at which the book is asked.";
        book_bonus: "BookBonus" = 20, 0..=200, "With BookInSearch: what reaching a book position is worth to the side to move at the root (centipawns).";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse() {
        let mut p = SearchParams::default();
        assert!(p.null_move);
        p.set("nullmove", "false").unwrap();
        assert!(!p.null_move);
        p.set("Contempt", "25").unwrap();
        assert_eq!(p.contempt, 25);
        assert!(matches!(
            p.set("Contempt", "900"),
            Err(ParamError::BadValue { .. })
        ));
        assert!(matches!(
            p.set("Contempt", "x"),
            Err(ParamError::BadValue { .. })
        ));
        assert!(matches!(
            p.set("NullMove", "maybe"),
            Err(ParamError::BadValue { .. })
        ));
        assert!(matches!(
            p.set("NoSuchThing", "1"),
            Err(ParamError::Unknown(_))
        ));
        let list = SearchParams::list();
        assert!(list.len() >= 25);
        let mut names: Vec<&str> = list.iter().map(|i| i.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), list.len(), "names are unique");
    }
}
