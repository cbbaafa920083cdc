//! One search across threads (Lazy SMP): every thread searches the same root
//! with its own history, sharing only the transposition table and the stop
//! flag; the main thread keeps time and reports, and the answer is chosen
//! from all of them ([`conclude`]). The threads themselves are the engine's
//! pool (`pool.rs`). Also the events a search sends to whoever listens (the
//! protocol front ends).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chess::{Move, Position};

use crate::book_hint::BookHint;
use crate::eval::weights::Weights;
use crate::eval::EvalKind;
use crate::host::Stopwatch;
use crate::limits::Limits;
use crate::params::SearchParams;
use crate::score::{user_score, Score, Value};
use crate::search::{RootMove, Worker};
use crate::stats::SearchStats;
use crate::strength::{Level, Rng, MIN_DEPTH};
use crate::tablebase::{rank_root_moves, RootTbMove, Tablebase};
use crate::timeman::TimeBudget;
use crate::tt::TranspositionTable;

/// Progress of a search, as the engine reports it.
#[derive(Clone, Debug)]
pub enum SearchEvent {
    /// A finished iteration (or an aspiration-window failure) of one line.
    Iteration(IterationInfo),
    /// The root move being searched (long searches only).
    CurrMove {
        /// Current depth.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its number in the root move order, from 1.
        number: usize,
    },
    /// What the search did.
    Stats {
        /// Counters summed over threads.
        stats: SearchStats,
        /// Nodes of all threads.
        nodes: u64,
        /// Time used.
        time: Duration,
    },
    /// The search is over: the move to play, and the expected reply.
    BestMove(SearchResult),
}

/// What a reported score is: the search's value, or only a bound on it
/// because the aspiration window failed (UCI's `lowerbound`/`upperbound`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The value.
    Exact,
    /// At least this (the window failed high).
    Lower,
    /// At most this (the window failed low).
    Upper,
}

impl ScoreBound {
    /// True for an exact score.
    pub fn is_exact(self) -> bool {
        self == ScoreBound::Exact
    }

    /// `lower` or `upper` for a bound, `None` for an exact score.
    pub fn name(self) -> Option<&'static str> {
        match self {
            ScoreBound::Exact => None,
            ScoreBound::Lower => Some("lower"),
            ScoreBound::Upper => Some("upper"),
        }
    }
}

/// One line of the principal variation report.
#[derive(Clone, Debug)]
pub struct IterationInfo {
    /// Nominal depth.
    pub depth: i32,
    /// Selective depth.
    pub seldepth: usize,
    /// Line number (MultiPV), from 1.
    pub multipv: usize,
    /// Search value, side to move's view.
    pub score: Value,
    /// Whether the score is exact or only a bound (an aspiration failure).
    pub bound: ScoreBound,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Hash table use, per mille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Positions found in the tablebases so far (all threads).
    pub tbhits: u64,
}

impl IterationInfo {
    /// The score as users see it.
    pub fn user_score(&self) -> Score {
        user_score(self.score)
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None`: no legal move).
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// The best move's value.
    pub score: Value,
    /// Completed depth.
    pub depth: i32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Counters summed over threads.
    pub stats: SearchStats,
    /// Time used.
    pub time: Duration,
}

impl SearchResult {
    /// The best move's score as users see it.
    pub fn user_score(&self) -> Score {
        user_score(self.score)
    }
}

/// Stack size of every search thread.
pub const SEARCH_STACK: usize = 64 << 20;

/// Receives search events (called from the search threads).
pub type Reporter = Arc<dyn Fn(SearchEvent) + Send + Sync>;

/// State shared by the threads of one search.
pub struct Shared {
    /// The shared transposition table.
    pub tt: Arc<TranspositionTable>,
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// Set once the result is settled, just before it is reported.
    pub finished: AtomicBool,
    /// True while pondering: no time limit until `ponderhit`.
    pub ponder: AtomicBool,
    /// Microseconds from the start to `ponderhit` (the clock starts there).
    pub ponderhit_us: AtomicU64,
    /// When the search started.
    pub start: Stopwatch,
    /// Node counts published by each thread.
    pub node_counts: Vec<AtomicU64>,
    /// The limits of this search.
    pub limits: Limits,
    /// The search parameters.
    pub params: SearchParams,
    /// Lines to report.
    pub multipv: usize,
    /// Never search longer than this (after `ponderhit`).
    pub hard_limit: Option<Duration>,
    /// Where events go.
    pub reporter: Reporter,
    /// The evaluator to use.
    pub eval_kind: EvalKind,
    /// Its weights.
    pub weights: Arc<Weights>,
    /// The network for `EvalKind::Nnue`.
    pub net: Option<Arc<crate::eval::nnue::Network>>,
    /// Endgame tables, when configured.
    pub tablebase: Option<Arc<dyn Tablebase>>,
    /// Most pieces of a position probed inside the search (0: no probes).
    pub tb_limit: u32,
    /// The root moves ranked by the tables, when the root is in them.
    pub root_tb: Option<Vec<RootTbMove>>,
    /// Tablebase hits of all threads.
    pub tb_hits: AtomicU64,
    /// The opening book, when `BookInSearch` is on and a book is set.
    pub book: Option<Arc<dyn BookHint>>,
    /// The playing level, when `UCI_LimitStrength` is on.
    pub level: Option<Level>,
    /// Lines to report (with a level, more lines are searched than shown).
    pub shown_lines: usize,
    /// The seed of the level's choice.
    pub level_seed: u64,
}

impl Shared {
    /// Shared state for a search with `threads` threads.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: Arc<TranspositionTable>,
        threads: usize,
        limits: Limits,
        params: SearchParams,
        multipv: usize,
        budget: Option<TimeBudget>,
        reporter: Reporter,
    ) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            finished: AtomicBool::new(false),
            ponder: AtomicBool::new(limits.ponder),
            ponderhit_us: AtomicU64::new(0),
            start: Stopwatch::start(),
            node_counts: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            limits,
            params,
            multipv,
            hard_limit: budget.map(|b| b.hard),
            reporter,
            eval_kind: EvalKind::Full,
            weights: Weights::default_shared(),
            net: None,
            tablebase: None,
            tb_limit: 0,
            root_tb: None,
            tb_hits: AtomicU64::new(0),
            book: None,
            level: None,
            shown_lines: multipv,
            level_seed: 0,
        }
    }

    /// Plays at `level`: searches at least its lines and chooses among them.
    pub fn with_level(mut self, level: Option<Level>, seed: u64) -> Shared {
        if let Some(l) = level {
            self.multipv = self.multipv.max(l.lines);
        }
        self.level = level;
        self.level_seed = seed;
        self
    }

    /// Adds endgame tables: ranks the root moves when the root is in them,
    /// and sets which positions the search probes. As in Stockfish, a root
    /// ranked by DTZ needs no probes below it (every root move keeps the
    /// best result already), and neither does a root that is not won.
    pub fn with_tablebase(
        mut self,
        tablebase: Option<Arc<dyn Tablebase>>,
        root: &Position,
        history: &[u64],
    ) -> Shared {
        let Some(tb) = tablebase else {
            return self;
        };
        let limit = (self.params.syzygy_probe_limit.max(0) as u32).min(tb.max_pieces());
        self.tb_limit = limit;
        if limit > 0 && root.piece_count() <= limit {
            self.root_tb =
                rank_root_moves(tb.as_ref(), root, history, self.params.syzygy_50_move_rule);
            if let Some(ranked) = &self.root_tb {
                let by_dtz = ranked.iter().all(|r| r.dtz.is_some());
                let best = ranked.iter().map(|r| r.score).max().unwrap_or(0);
                if by_dtz || best <= crate::score::DRAW {
                    self.tb_limit = 0;
                }
            }
        }
        self.tablebase = Some(tb);
        self
    }

    /// Time that counts against the clock: since `ponderhit` when pondering was hit.
    pub fn time_elapsed(&self) -> Duration {
        self.start.elapsed().saturating_sub(Duration::from_micros(
            self.ponderhit_us.load(Ordering::Relaxed),
        ))
    }

    /// Time since the search started.
    pub fn time_since_start(&self) -> Duration {
        self.start.elapsed()
    }

    /// The opponent played the pondered move: the clock starts now.
    pub fn ponderhit(&self) {
        self.ponderhit_us
            .store(self.start.elapsed().as_micros() as u64, Ordering::Relaxed);
        self.ponder.store(false, Ordering::Relaxed);
    }

    /// Takes a `stop` or `ponderhit` that a host without threads got while
    /// this search ran on its only thread ([`crate::host`]); natively
    /// nothing (they come from the protocol's thread).
    pub fn poll_host(&self) {
        if let Some(host) = crate::host::host() {
            let interrupt = (host.poll)();
            if interrupt.ponderhit && self.ponder.load(Ordering::Relaxed) {
                self.ponderhit();
            }
            if interrupt.stop {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Nodes of all threads (the caller's own count is exact, the others' recent).
    pub fn total_nodes(&self, own_id: usize, own_nodes: u64) -> u64 {
        self.node_counts
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if i == own_id {
                    own_nodes
                } else {
                    n.load(Ordering::Relaxed)
                }
            })
            .sum()
    }
}

/// The result of a search whose threads have all stopped: `workers` are
/// their workers, the main thread's first. Chooses the thread to answer
/// from, reports its line when the main thread's last report did not show
/// it, and sums the counters.
pub fn conclude(workers: &[&Worker], shared: &Shared, root: &Position) -> SearchResult {
    // Prefer the main thread; a helper only when it got deeper with a result at least as good.
    let mut chosen = 0;
    for (i, w) in workers.iter().enumerate().skip(1) {
        let (c, best) = (workers[chosen], w);
        if let (Some(a), Some(b)) = (c.root_moves.first(), best.root_moves.first()) {
            if best.completed_depth > c.completed_depth
                && b.score >= a.score
                && b.score > -crate::score::INFINITE
            {
                chosen = i;
            }
        }
    }
    let mut stats = SearchStats::default();
    let mut nodes = 0;
    for w in workers {
        stats += w.stats;
        nodes += w.nodes;
    }
    let w = workers[chosen];
    let best = level_choice(shared, w).or(w.root_moves.first());
    if let Some(answer) = best {
        w.report_answer(shared, answer, workers[0].reported());
    }
    let pv = best
        .map(|rm| rm.shown_line(root, &shared.tt))
        .unwrap_or_default();
    let ponder = pv.get(1).copied().or_else(|| {
        // No second move in the line: ask the table about the position after the best move.
        let mv = best?.mv;
        let mut after = *root;
        after.play_unchecked(mv);
        shared
            .tt
            .probe(after.key())
            .map(|e| e.mv)
            .filter(|m| after.is_legal(*m))
    });
    let score = best.map_or(0, |rm| rm.shown_score(rm.latest_score()));
    SearchResult {
        best: best.map(|rm| rm.mv),
        ponder,
        score,
        depth: w.completed_depth,
        pv,
        nodes,
        stats,
        time: shared.time_since_start(),
    }
}

/// With a playing level, the line it chooses from the main thread's last
/// completed iteration (`None`: play the search's best move, as when time
/// ran out before the level's minimum depth).
fn level_choice<'a>(shared: &Shared, main: &'a Worker) -> Option<&'a RootMove> {
    let level = shared.level?;
    if main.completed_depth < MIN_DEPTH || main.level_lines.is_empty() {
        return None;
    }
    let lines: Vec<(Move, Value)> = main
        .level_lines
        .iter()
        .map(|rm| (rm.mv, rm.score))
        .collect();
    let mut rng = Rng::new(shared.level_seed);
    main.level_lines.get(level.choose(&lines, &mut rng))
}
