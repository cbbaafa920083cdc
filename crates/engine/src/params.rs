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
                .into_iter()
                // A tune build offers the tunables as options too.
                .chain(TUNABLES.iter().filter(|_| cfg!(feature = "tune")).map(|t| ParamInfo {
                    name: t.name,
                    kind: ParamKind::Number { default: t.default, min: t.min, max: t.max },
                    help: t.help,
                }))
                .collect()
            }

            /// These parameters as analysis searches them (`UCI_AnalyseMode`,
            /// `go infinite`, `go mate N`): quiescence table entries that say
            /// whether checks were tried, and sacrifices that threaten mate
            /// searched rather than cut. Both prove short mates at the depth
            /// they exist (WAC.001's mate in 2 at depth 2 instead of 14), at
            /// a cost in games their SPRT could not tell from nothing
            /// (docs/search.md), so games keep the defaults and analysis,
            /// where a person looks for the mate, gets them.
            pub fn for_analysis(self) -> SearchParams {
                SearchParams { qs_table_depth: true, sacrifice_search: true, ..self }
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
                set_tunable(name, value).unwrap_or_else(|| Err(ParamError::Unknown(name.to_string())))
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
        qs_checks: "QSChecks" = true, "Also try quiet moves that give check at the first quiescence ply (sees quiet mate threats at the horizon).";
        qs_table_depth: "QSTableDepth" = false, "Quiescence table entries say whether quiet checks were tried (depth 0) or captures only (depth -1): a captures-only result never settles a node that tries checks.";
        qs_null_move: "QSNullMove" = false, "Try a null move inside quiescence (one seed program's idea).";
        null_move: "NullMove" = true, "Null-move pruning: pass, and if a reduced search still fails high, cut.";
        null_verification: "NullMoveVerification" = true, "Verify null-move cut-offs at high depth with a reduced normal search.";
        see_ordering: "SEEOrdering" = true, "Put captures that lose material (static exchange) after the quiet moves.";
        killers: "KillerMoves" = true, "Try the quiet moves that cut off at the same ply first.";
        countermoves: "Countermoves" = true, "Try the quiet move that last refuted the opponent's previous move.";
        history: "HistoryHeuristic" = true, "Order quiet moves by how often they cut off (butterfly and continuation history).";
        capture_history: "CaptureHistory" = false, "Order captures by how often each (piece, destination, piece taken) cut off, and let that move a capture's static-exchange bar between the good and the bad ones.";
        threat_history: "ThreatHistory" = false, "Split the butterfly history by whether the opponent attacks the move's from and to squares: moving a piece out of an attack, or into one, learns apart from the same move elsewhere.";
        continuation_ply4: "ContinuationHistory4" = true, "Continuation history also pairs a quiet move with the side's own move before last (four plies back).";
        correction: "CorrectionHistory" = true, "Correct the static evaluation by what searches found in positions that share its structures (pawns, each side's pieces, minor and major pieces, the last two moves).";
        lmr: "LateMoveReductions" = true, "Search late, quiet moves to a reduced depth first.";
        rfp: "ReverseFutilityPruning" = true, "Cut when the static evaluation beats beta by a depth-dependent margin.";
        sacrifice_search: "SacrificeSearch" = false, "Never cut by reverse futility pruning where the opponent's last move gave material away within three squares of our king and threatens mate in one: such a sacrifice is searched, not judged by the static evaluation, which cannot see the attack it makes.";
        futility: "FutilityPruning" = true, "Skip quiet moves near the horizon when the evaluation is far below alpha.";
        history_pruning: "HistoryPruning" = false, "Skip a quiet move near the horizon whose history (butterfly and continuation) is below -HistoryPruneMargin per ply of depth: moves that keep failing here are not searched.";
        lmp: "LateMovePruning" = true, "Stop trying quiet moves near the horizon after a move-count limit.";
        see_pruning: "SEEPruning" = true, "Skip moves that lose too much material (static exchange) near the horizon.";
        razoring: "Razoring" = true, "Drop to quiescence when the evaluation is hopeless near the horizon.";
        check_extension: "CheckExtension" = true, "Search moves that give check one ply deeper.";
        singular_extension: "SingularExtension" = true, "Search the hash move deeper when every alternative is clearly worse.";
        double_extension: "DoubleExtensions" = false, "Singular extension: two plies when every alternative is worse by DoubleExtMargin more (not at PV nodes, at most DoubleExtLimit on a line).";
        negative_extension: "NegativeExtensions" = false, "Singular extension: a hash move that is not singular but whose score beats beta (or is no better than the alternatives and alpha) is searched one or two plies shallower.";
        tt_pv: "TtPv" = false, "Remember in the table which positions were on a principal variation; such nodes are reduced one ply less and never cut by reverse futility pruning.";
        lmr_research_depth: "LmrResearchDepth" = false, "When a reduced search fails high, search the move again one ply deeper if it beat the best score by far (LmrDeeperMargin plus two per ply), one ply shallower if it barely did.";
        cutoff_count: "CutoffCount" = false, "Reduce a late move one ply more when more than CutoffCountLimit of this node's earlier moves were refuted at once by a cut-off of the child.";
        fail_high_blend: "FailHighBlend" = false, "A node that fails high returns (score x depth + beta) / (depth + 1) rather than the score: a refutation's margin over beta is less sure than its sign, the less so the shallower the search.";
        probcut: "ProbCut" = false, "Cut when a good capture's reduced search beats beta by a margin (the full search would almost surely fail high too).";
        iir: "InternalIterativeReduction" = true, "Reduce depth at nodes that have no hash move.";
        mate_distance_pruning: "MateDistancePruning" = true, "Cut when even a mate here could not beat a shorter mate found already.";
        syzygy_50_move_rule: "Syzygy50MoveRule" = true, "Tablebase wins and losses that the fifty-move rule turns into draws count as draws.";
        node_time_management: "NodeTimeManagement" = true, "Scale the time for a move by the share of nodes its best move took (a settled choice stops sooner).";
        book_in_search: "BookInSearch" = false, "Score book positions reached near the root by quiescence plus BookBonus, without searching them further.";
    }
    numbers {
        qs_max_depth: "QSearchMaxDepth" = 0, 0..=64, "Maximum quiescence plies (0: unlimited; the seed program used 6).";
        contempt: "Contempt" = 0, -200..=200, "Value of avoiding a draw: positive avoids draws, negative seeks them (centipawns).";
        syzygy_probe_depth: "SyzygyProbeDepth" = 1, 1..=100, "Smallest depth at which the search probes the tablebases (with the most pieces they hold).";
        syzygy_probe_limit: "SyzygyProbeLimit" = 7, 0..=7, "Most pieces (kings included) of a position probed in the tablebases; 0 turns probing off.";
        book_search_ply: "BookSearchPly" = 4, 1..=20, "With BookInSearch: the deepest search ply at which the book is asked.";
        book_bonus: "BookBonus" = 20, 0..=200, "With BookInSearch: what reaching a book position is worth to the side to move at the root (centipawns).";
        mop_up_weight: "MopUpWeight" = 8, 1..=32, "Hand-crafted evaluation: the weight of the mop-up (a lone king driven to the edge, to the bishop's corner with bishop and knight, the kings brought together) in a search of a basic mate, a lone king against pieces without pawns (KR v K, KBB v K, KBN v K...); elsewhere it weighs 1.";
        network_range: "NetworkRange" = 1000, 100..=32000, "NNUE: the largest score (centipawns) taken from the network; a position it scores beyond this goes to the hand-crafted evaluation (32000: the network at any score; a lone king always goes).";
    }
}

crate::tunable::tunables! {
    razor_depth: "RazorDepth" = 3, 1..=8, step 0.5, "Razoring: the deepest depth at which a hopeless node drops to quiescence.";
    razor_margin: "RazorMargin" = 199, 50..=600, step 20.0, "Razoring: how far below alpha (per ply of depth, centipawns) the evaluation must be.";
    rfp_depth: "RfpDepth" = 8, 3..=14, step 0.5, "Reverse futility: the deepest depth at which it cuts.";
    rfp_margin: "RfpMargin" = 200, 30..=400, step 6.0, "Reverse futility: the margin above beta per ply of depth (centipawns).";
    rfp_sacrifice_depth: "RfpSacrificeDepth" = 8, 1..=14, step 0.5, "Reverse futility with SacrificeSearch: the deepest depth at which a node the opponent entered by a sacrifice that threatens mate in one is never cut (8, every depth reverse futility prunes at: the mate threat makes such nodes rare).";
    null_move_reduction: "NullMoveReduction" = 3, 1..=6, step 0.5, "Null move: the base depth reduction.";
    null_verification_depth: "NullMoveVerifyDepth" = 12, 1..=64, step 1.0, "Null move: the depth from which its cut-offs are verified by a reduced normal search.";
    nmp_min_depth: "NmpMinDepth" = 3, 1..=8, step 0.5, "Null move: the shallowest depth at which it is tried.";
    nmp_depth_divisor: "NmpDepthDivisor" = 3, 2..=8, step 0.5, "Null move: one more ply of reduction per this many plies of depth.";
    nmp_eval_divisor: "NmpEvalDivisor" = 198, 50..=500, step 20.0, "Null move: one more ply of reduction per this many centipawns of evaluation above beta.";
    nmp_eval_max: "NmpEvalMax" = 3, 0..=6, step 0.5, "Null move: the most plies the evaluation margin adds to the reduction.";
    probcut_depth: "ProbCutDepth" = 5, 3..=10, step 0.5, "ProbCut: the shallowest depth at which it is tried.";
    probcut_margin: "ProbCutMargin" = 100, 30..=400, step 10.0, "ProbCut: how far above beta (centipawns) a capture's reduced search must score.";
    probcut_reduction: "ProbCutReduction" = 4, 2..=6, step 0.5, "ProbCut: how many plies shallower than the node the capture is searched.";
    iir_depth: "IirDepth" = 4, 2..=10, step 0.5, "Internal iterative reduction: the shallowest depth at which a node without a hash move is reduced.";
    lmp_depth: "LmpDepth" = 8, 2..=14, step 0.5, "Late move pruning: the deepest depth at which it prunes.";
    lmp_base: "LmpBase" = 4, 0..=10, step 0.5, "Late move pruning: quiet moves kept are (base + depth squared), halved when not improving.";
    futility_depth: "FutilityDepth" = 8, 2..=14, step 0.5, "Futility pruning: the deepest depth at which it prunes.";
    futility_base: "FutilityBase" = 101, 0..=400, step 15.0, "Futility pruning: the fixed part of the margin (centipawns).";
    futility_margin: "FutilityMargin" = 120, 30..=300, step 8.0, "Futility pruning: the margin per ply of depth (centipawns).";
    see_quiet_depth: "SeeQuietDepth" = 8, 2..=14, step 0.5, "SEE pruning of quiet moves: the deepest depth.";
    see_quiet_margin: "SeeQuietMargin" = 30, 5..=120, step 3.0, "SEE pruning of quiet moves: the loss allowed per depth squared (centipawns).";
    see_noisy_depth: "SeeNoisyDepth" = 6, 2..=14, step 0.5, "SEE pruning of captures: the deepest depth.";
    see_noisy_margin: "SeeNoisyMargin" = 102, 20..=300, step 8.0, "SEE pruning of captures: the loss allowed per ply of depth (centipawns).";
    singular_depth: "SingularDepth" = 8, 4..=14, step 0.5, "Singular extension: the shallowest depth at which it is tried.";
    singular_tt_depth: "SingularTtDepth" = 3, 1..=8, step 0.5, "Singular extension: how much shallower than the node the hash entry may be.";
    singular_margin: "SingularMargin" = 16, 4..=64, step 2.0, "Singular extension: the margin below the hash score, in eighths of a centipawn per ply of depth.";
    double_ext_margin: "DoubleExtMargin" = 25, 0..=100, step 4.0, "Double extensions: how far below the singular bar (centipawns) the alternatives must stay.";
    double_ext_limit: "DoubleExtLimit" = 10, 1..=30, step 1.0, "Double extensions: the most on one line from the root.";
    history_prune_depth: "HistoryPruneDepth" = 5, 1..=10, step 0.5, "History pruning: the deepest depth at which it prunes.";
    history_prune_margin: "HistoryPruneMargin" = 3000, 500..=12000, step 300.0, "History pruning: a quiet move is skipped when its history is below minus this per ply of depth.";
    lmr_deeper_margin: "LmrDeeperMargin" = 40, 0..=150, step 5.0, "LmrResearchDepth: how far (centipawns, plus two per ply) a reduced search must beat the best score to be searched again a ply deeper.";
    cutoff_count_limit: "CutoffCountLimit" = 3, 1..=10, step 0.5, "Cutoff counts: refuted earlier moves beyond which a late move is reduced one ply more.";
    lmr_min_depth: "LmrMinDepth" = 3, 1..=8, step 0.5, "Late move reductions: the shallowest depth at which a move is reduced.";
    lmr_base: "LmrBase" = 78, 0..=200, step 8.0, "Late move reductions: the table's constant, in hundredths of a ply.";
    lmr_divisor: "LmrDivisor" = 219, 100..=500, step 12.0, "Late move reductions: the divisor of ln(depth) * ln(move number), in hundredths.";
    lmr_cut_node: "LmrCutNode" = 0, 0..=3, step 0.5, "Late move reductions: plies added at a node expected to fail high (a cut node).";
    lmr_history_divisor: "LmrHistoryDivisor" = 8289, 2048..=32768, step 512.0, "Late move reductions: one ply less per this much history score.";
    correction_max: "CorrectionMax" = 64, 8..=127, step 6.0, "Correction history: the largest correction (centipawns).";
    correction_weight_max: "CorrectionWeightMax" = 16, 2..=64, step 2.0, "Correction history: the most weight (of 256) one search result gets.";
    qs_delta_margin: "QsDeltaMargin" = 214, 0..=600, step 20.0, "Quiescence delta pruning: the margin over the captured piece (centipawns).";
    aspiration_depth: "AspirationDepth" = 4, 1..=10, step 0.5, "Aspiration windows: the shallowest depth searched in a window around the last score.";
    aspiration_delta: "AspirationDelta" = 16, 1..=500, step 2.0, "Aspiration windows: the first half-width of the window around the last score (centipawns).";
    aspiration_growth: "AspirationGrowth" = 50, 10..=200, step 5.0, "Aspiration windows: how much the window widens after a failure, in percent.";
    history_bonus_quad: "HistoryBonusQuad" = 16, 0..=64, step 2.0, "History bonus: the factor of depth squared.";
    history_bonus_linear: "HistoryBonusLinear" = 31, 0..=256, step 8.0, "History bonus: the factor of depth.";
    history_bonus_max: "HistoryBonusMax" = 1975, 500..=8000, step 150.0, "History bonus: the largest bonus.";
    history_malus_quad: "HistoryMalusQuad" = 17, 0..=64, step 2.0, "History malus (quiet moves tried before the cut-off): the factor of depth squared.";
    history_malus_linear: "HistoryMalusLinear" = 34, 0..=256, step 8.0, "History malus: the factor of depth.";
    history_malus_max: "HistoryMalusMax" = 2059, 500..=8000, step 150.0, "History malus: the largest malus.";
    history_gravity: "HistoryGravity" = 16614, 4096..=30000, step 1000.0, "History gravity: the bound every history score decays towards.";
    capture_history_divisor: "CaptureHistoryDivisor" = 8, 1..=64, step 1.0, "Capture history: a capture's ordering score adds its history over this (the victim's value counts 16 a centipawn).";
    capture_see_divisor: "CaptureSeeDivisor" = 64, 8..=512, step 8.0, "Capture history: a capture with history h counts as good when it loses at most h over this (centipawns, static exchange).";
    tm_moves_to_go: "TmMovesToGo" = 20, 10..=60, step 2.0, "Time management: the moves left assumed when the clock does not say.";
    tm_increment_percent: "TmIncrementPercent" = 75, 20..=100, step 4.0, "Time management: the share of the increment planned for each move, in percent.";
    tm_hard_factor: "TmHardFactor" = 40, 15..=80, step 3.0, "Time management: the hard limit as a multiple of the planned time, in tenths.";
    tm_soft_percent: "TmSoftPercent" = 70, 30..=120, step 4.0, "Time management: the soft limit as a share of the planned time, in percent.";
    tm_stability_base: "TmStabilityBase" = 70, 30..=120, step 4.0, "Time management: the soft limit's scale with a stable best move, in percent.";
    tm_stability_scale: "TmStabilityScale" = 60, 0..=150, step 5.0, "Time management: what each recent change of best move adds to that scale, in percent.";
    tm_score_drop_divisor: "TmScoreDropDivisor" = 200, 50..=800, step 20.0, "Time management: the soft limit grows by the score's drop (centipawns, at most 100) over this.";
    tm_node_base: "TmNodeBase" = 150, 100..=250, step 5.0, "Node time management: the soft limit is scaled by (this - the best move's share of the nodes) times TmNodeScale, both in percent.";
    tm_node_scale: "TmNodeScale" = 135, 50..=250, step 5.0, "Node time management: the scale of that factor, in percent.";
    tm_next_iteration_percent: "TmNextIterationPercent" = 100, 30..=100, step 4.0, "Time management: no new iteration once this share of the soft limit is spent, in percent.";
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
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), list.len(), "names are unique");
    }

    #[test]
    fn tunables_are_sane() {
        // A tune build lists the tunables among the options already.
        let mut names: Vec<&str> = SearchParams::list().iter().map(|i| i.name).collect();
        if !cfg!(feature = "tune") {
            names.extend(TUNABLES.iter().map(|t| t.name));
        }
        let count = names.len();
        names.sort_by_key(|n| n.to_ascii_lowercase());
        names.dedup_by_key(|n| n.to_ascii_lowercase());
        assert_eq!(names.len(), count, "tunable and option names are unique");
        assert_eq!(tunable_values().len(), TUNABLES.len());
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.step > 0.0 && t.step <= f64::from(t.max - t.min), "{t:?}");
        }
        assert_eq!(
            TUNABLES[0].openbench_line(3),
            "RazorDepth, int, 3, 1, 8, 0.5, 0.002"
        );
    }

    /// The tests that set tunables (process-wide values in a tune build)
    /// take turns.
    #[cfg(feature = "tune")]
    static TUNABLES_SET: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// A normal build compiles the tunables as constants: setting one by name
    /// is refused as an unknown option (which is how `kestrel tune spsa`
    /// tells a normal build from a tune build), and no value moves.
    #[cfg(not(feature = "tune"))]
    #[test]
    fn tunables_are_constants_in_a_normal_build() {
        let before = tunable_values();
        let mut p = SearchParams::default();
        for t in TUNABLES {
            let other = if t.default == t.max { t.min } else { t.max };
            assert!(
                matches!(
                    p.set(t.name, &other.to_string()),
                    Err(ParamError::Unknown(_))
                ),
                "{} can be set in a normal build",
                t.name
            );
        }
        assert_eq!(tunable_values(), before);
        assert_eq!(p, SearchParams::default());
    }

    /// In a tune build each tunable's name reaches its own value: setting
    /// one moves that value and no other (the name's slot and the accessor's
    /// slot are the same).
    #[cfg(feature = "tune")]
    #[test]
    fn each_tunable_name_sets_its_own_value() {
        let _only = TUNABLES_SET
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut p = SearchParams::default();
        let defaults: Vec<i32> = TUNABLES.iter().map(|t| t.default).collect();
        for (i, t) in TUNABLES.iter().enumerate() {
            let other = if t.default == t.max { t.min } else { t.max };
            p.set(&t.name.to_ascii_uppercase(), &other.to_string())
                .unwrap();
            let mut expected = defaults.clone();
            expected[i] = other;
            assert_eq!(tunable_values(), expected, "{}", t.name);
            p.set(t.name, &t.default.to_string()).unwrap();
        }
        assert_eq!(tunable_values(), defaults);
    }

    /// In a tune build the tunables are options: set, read back, refused out of range.
    #[cfg(feature = "tune")]
    #[test]
    fn tunables_are_options_in_a_tune_build() {
        let _only = TUNABLES_SET
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut p = SearchParams::default();
        assert!(SearchParams::list().iter().any(|i| i.name == "RfpMargin"));
        p.set("rfpmargin", "95").unwrap();
        assert_eq!(tuned::rfp_margin(), 95);
        assert!(matches!(
            p.set("RfpMargin", "5000"),
            Err(ParamError::BadValue { .. })
        ));
        p.set(
            "RfpMargin",
            &TUNABLES
                .iter()
                .find(|t| t.name == "RfpMargin")
                .unwrap()
                .default
                .to_string(),
        )
        .unwrap();
    }
}
