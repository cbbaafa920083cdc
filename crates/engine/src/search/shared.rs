//! What the threads of one search share: the search's configuration, fixed
//! before the first thread starts ([`SearchConfig`]), and the state they
//! change while it runs ([`Shared`]: the stop flag, the clock, the node
//! counts), beside the transposition table that outlives the search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chess::Position;

use super::tablebase::{rank_root_moves, RootTbMove, Tablebase};
use super::timeman::TimeBudget;
use super::tt::TranspositionTable;
use crate::book_hint::BookHint;
use crate::eval::hce::weights::Weights;
use crate::eval::nnue::Network;
use crate::eval::EvalKind;
use crate::events::Reporter;
use crate::host::Stopwatch;
use crate::limits::Limits;
use crate::params::SearchParams;
use crate::strength::Level;

/// How long a search runs before it reports lines that fail high or low
/// at the root, as Stockfish does: a short search shows only its
/// completed iterations.
pub const BOUND_LINES_AFTER: Duration = Duration::from_secs(3);

/// What one search was asked to do and with what: set before its threads
/// start and never changed while they run. The one source of the search
/// parameters for every thread.
pub struct SearchConfig {
    /// The limits of this search.
    pub limits: Limits,
    /// The search parameters.
    pub params: SearchParams,
    /// Lines to search (with a level, more lines than shown).
    pub multipv: usize,
    /// Lines to report.
    pub shown_lines: usize,
    /// Lines that fail high or low at the root are reported once the
    /// search has run this long ([`BOUND_LINES_AFTER`] unless the engine
    /// says otherwise).
    pub bound_lines_after: Duration,
    /// Never search longer than this (after `ponderhit`).
    pub hard_limit: Option<Duration>,
    /// Where events go.
    pub reporter: Reporter,
    /// The evaluator to use.
    pub eval_kind: EvalKind,
    /// Its weights.
    pub weights: Arc<Weights>,
    /// The network for `EvalKind::Nnue`.
    pub net: Option<Arc<Network>>,
    /// Endgame tables, when configured.
    pub tablebase: Option<Arc<dyn Tablebase>>,
    /// Most pieces of a position probed inside the search (0: no probes).
    pub tb_limit: u32,
    /// The root moves ranked by the tables, when the root is in them.
    pub root_tb: Option<Vec<RootTbMove>>,
    /// The opening book, when `BookInSearch` is on and a book is set.
    pub book: Option<Arc<dyn BookHint>>,
    /// The playing level, when `UCI_LimitStrength` is on.
    pub level: Option<Level>,
    /// The seed of the level's choice.
    pub level_seed: u64,
}

impl SearchConfig {
    /// A search of `limits` with `params`, showing `multipv` lines, within
    /// `budget` when the clock gives one; the hand-crafted evaluation, no
    /// tables, book or level until the `with_` methods add them.
    pub fn new(
        limits: Limits,
        params: SearchParams,
        multipv: usize,
        budget: Option<TimeBudget>,
        reporter: Reporter,
    ) -> SearchConfig {
        SearchConfig {
            limits,
            params,
            multipv,
            shown_lines: multipv,
            bound_lines_after: BOUND_LINES_AFTER,
            hard_limit: budget.map(|b| b.hard),
            reporter,
            eval_kind: EvalKind::Full,
            weights: Weights::default_shared(),
            net: None,
            tablebase: None,
            tb_limit: 0,
            root_tb: None,
            book: None,
            level: None,
            level_seed: 0,
        }
    }

    /// Plays at `level`: searches at least its lines and chooses among them.
    pub fn with_level(mut self, level: Option<Level>, seed: u64) -> SearchConfig {
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
    ) -> SearchConfig {
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
}

/// The threads of one search: its configuration, the table they share, and
/// what changes while they run.
pub struct Shared {
    /// The search's configuration.
    pub config: SearchConfig,
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
    /// Tablebase hits of all threads.
    pub tb_hits: AtomicU64,
}

impl Shared {
    /// The state of a search of `config` on `threads` threads; its clock
    /// starts now.
    pub fn new(config: SearchConfig, tt: Arc<TranspositionTable>, threads: usize) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            finished: AtomicBool::new(false),
            ponder: AtomicBool::new(config.limits.ponder),
            ponderhit_us: AtomicU64::new(0),
            start: Stopwatch::start(),
            node_counts: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            tb_hits: AtomicU64::new(0),
            config,
            tt,
        }
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
