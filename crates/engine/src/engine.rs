//! The engine as the protocols see it: options, new game, and searches that
//! run in the background (so `stop`, `ponderhit` and `isready` are answered
//! while it thinks) or that the caller waits for. Either way the search runs
//! on the engine's own threads ([`crate::search::pool`]), started with the engine
//! and when `Threads` changes, not per search.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use chess::Position;

use crate::book_hint::BookHint;
use crate::eval::hce::weights::Weights;
use crate::eval::nnue::Network;
use crate::eval::EvalKind;
use crate::events::{Reporter, SearchResult};
use crate::limits::Limits;
use crate::option::{find_option, EngineOption, OptionKind, OptionValue};
use crate::option_error::{OptionError, StartError};
use crate::params::{ParamError, ParamInfo, ParamKind, SearchParams};
use crate::search::pool::{panic_message, Answer, Outcome, Panic, Pool, Search};
use crate::search::shared::{SearchConfig, Shared};
use crate::search::tablebase::Tablebase;
use crate::search::timeman::budget;
use crate::search::tt::TranspositionTable;
use crate::strength::{Level, Rng, DEFAULT_ELO, MAX_ELO, MIN_ELO};

const DEFAULT_HASH_MIB: usize = 16;
const MAX_HASH_MIB: i64 = crate::search::tt::MAX_MIB as i64;
const MAX_THREADS: i64 = 256;
const DEFAULT_OVERHEAD_MS: u64 = 30;

/// The search engine with its options and its table.
pub struct Engine {
    tt: Arc<TranspositionTable>,
    hash_mib: usize,
    params: SearchParams,
    multipv: usize,
    move_overhead: u64,
    eval_kind: EvalKind,
    weights: Arc<Weights>,
    net: Option<Arc<Network>>,
    /// The network's file (`None`: built in) and the weight file's.
    net_file: Option<String>,
    weights_file: Option<String>,
    /// What the last `EvalFile` loaded: true for a network.
    last_was_net: bool,
    /// The search threads, each with its worker.
    pool: Pool,
    /// The shared state of the background search started last, until
    /// `wait` collects it.
    running: Option<Arc<Shared>>,
    tablebase: Option<Arc<dyn Tablebase>>,
    book: Option<Arc<dyn BookHint>>,
    limit_strength: bool,
    elo: i64,
    /// `UCI_AnalyseMode`: every search is an analysis
    /// ([`SearchParams::for_analysis`]).
    analyse_mode: bool,
    /// How long a search runs before lines that fail high or low at the
    /// root's aspiration window are reported too.
    bound_lines_after: Duration,
    rng: Rng,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with default options (16 MiB table, one thread). Panics
    /// when the system cannot give them; a host that must go on (a server
    /// making an engine per game) calls [`Engine::try_new`].
    pub fn new() -> Engine {
        Engine::try_new().unwrap_or_else(|e| panic!("{e}"))
    }

    /// An engine with default options, or why the system cannot give its
    /// table or its search thread (nothing is left allocated or running).
    pub fn try_new() -> Result<Engine, StartError> {
        let tt = TranspositionTable::try_new(DEFAULT_HASH_MIB).map_err(StartError::Table)?;
        let pool = Pool::try_new(1).map_err(|e| StartError::Thread(e.reason.to_string()))?;
        Ok(Engine {
            tt: Arc::new(tt),
            hash_mib: DEFAULT_HASH_MIB,
            params: SearchParams::default(),
            multipv: 1,
            move_overhead: DEFAULT_OVERHEAD_MS,
            eval_kind: EvalKind::default(),
            weights: Weights::default_shared(),
            net: Some(crate::eval::nnue::embedded_network()),
            net_file: None,
            weights_file: None,
            last_was_net: true,
            pool,
            running: None,
            tablebase: None,
            book: None,
            limit_strength: false,
            elo: DEFAULT_ELO,
            analyse_mode: false,
            bound_lines_after: crate::search::shared::BOUND_LINES_AFTER,
            rng: Rng::from_time(),
        })
    }

    /// Every option: the standard ones, then each search parameter. The
    /// list is the same for every engine; front ends render and check
    /// values from it ([`EngineOption::parse`]).
    pub fn options() -> Vec<EngineOption> {
        let mut list = vec![
            EngineOption {
                name: "Hash",
                kind: OptionKind::Spin {
                    default: DEFAULT_HASH_MIB as i64,
                    min: 1,
                    max: MAX_HASH_MIB,
                },
                help: "Transposition table size in MiB; a size the machine cannot give is refused and the old table kept.",
            },
            EngineOption {
                name: "Clear Hash",
                kind: OptionKind::Button,
                help: "Empty the transposition table.",
            },
            EngineOption {
                name: "Threads",
                kind: OptionKind::Spin {
                    default: 1,
                    min: 1,
                    // A host without threads searches on its own one.
                    max: if crate::host::host().is_some() { 1 } else { MAX_THREADS },
                },
                help: "Search threads (lazy SMP).",
            },
            EngineOption {
                name: "MultiPV",
                kind: OptionKind::Spin {
                    default: 1,
                    min: 1,
                    max: 256,
                },
                help: "Best lines to search and report.",
            },
            EngineOption {
                name: "Ponder",
                kind: OptionKind::Check { default: false },
                help: "Whether the GUI may let the engine think on the opponent's time.",
            },
            EngineOption {
                name: "Move Overhead",
                kind: OptionKind::Spin {
                    default: DEFAULT_OVERHEAD_MS as i64,
                    min: 0,
                    max: 5_000,
                },
                help: "Milliseconds kept back per move for communication delays.",
            },
            EngineOption {
                name: "UCI_LimitStrength",
                kind: OptionKind::Check { default: false },
                help: "Play at the level UCI_Elo (always with the hand-crafted evaluation the levels were calibrated with).",
            },
            EngineOption {
                name: "UCI_Elo",
                kind: OptionKind::Spin {
                    default: DEFAULT_ELO,
                    min: MIN_ELO,
                    max: MAX_ELO,
                },
                help: "The playing level's Elo when UCI_LimitStrength is on.",
            },
            EngineOption {
                name: "UCI_AnalyseMode",
                kind: OptionKind::Check { default: false },
                help: "Analysis, not a game: search to prove mates sooner (QSTableDepth and SacrificeSearch on), as go infinite and go mate always do.",
            },
            EngineOption {
                name: "Evaluator",
                kind: OptionKind::Combo {
                    default: EvalKind::default().name(),
                    choices: &["Full", "Simple", "NNUE"],
                },
                help: "Full: the hand-crafted evaluation; Simple: material and mobility; NNUE: the network (built in, or EvalFile's).",
            },
            EngineOption {
                name: "EvalFile",
                kind: OptionKind::Text {
                    default: "<default>",
                },
                help: "A weight file (kestrel tune texel) or a network file (kestrel train); <default> restores the built-in ones.",
            },
        ];
        for ParamInfo { name, kind, help } in SearchParams::list() {
            list.push(EngineOption {
                name,
                kind: match kind {
                    ParamKind::Switch { default } => OptionKind::Check { default },
                    ParamKind::Number { default, min, max } => OptionKind::Spin {
                        default: i64::from(default),
                        min: i64::from(min),
                        max: i64::from(max),
                    },
                },
                help,
            });
        }
        list
    }

    /// The current search parameters.
    pub fn params(&self) -> SearchParams {
        self.params
    }

    /// Replaces the search parameters.
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Evaluates with these weights from the next search on (what
    /// `EvalFile` does with a file, for weight sets built in memory).
    pub fn set_weights(&mut self, weights: Arc<Weights>) {
        self.weights = weights;
    }

    /// Evaluates with this network from the next search on when the
    /// evaluator is `NNUE` (what `EvalFile` does with a network file).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
    }

    /// How long a search runs before it also reports the lines that fail
    /// high or low at the root's aspiration window (3 s by default, as
    /// Stockfish: a short search shows only its completed iterations). A
    /// test of those reports sets none. Reporting only: what is searched
    /// does not change.
    pub fn set_bound_lines_after(&mut self, after: Duration) {
        self.bound_lines_after = after;
    }

    /// Sets an option by name (case-insensitive). The value is checked
    /// against the option's declaration first ([`Engine::options`]). Waits
    /// for a running search first when the option changes the table or the
    /// threads. A refused value leaves the engine as it was: a `Hash` size
    /// the machine cannot give keeps the old table, a `Threads` count the
    /// system will not start keeps the old threads.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let options = Engine::options();
        let option =
            find_option(&options, name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        let parsed = option.parse(value)?;
        match (option.name, parsed) {
            ("Hash", OptionValue::Spin(mib)) => {
                let mib = mib as usize;
                self.wait();
                // The old table stays until the new one is held.
                let tt = TranspositionTable::try_new(mib).map_err(|refused| OptionError::Hash {
                    refused,
                    kept_mib: self.hash_mib,
                })?;
                self.tt = Arc::new(tt);
                self.hash_mib = mib;
            }
            ("Clear Hash", _) => {
                self.wait();
                self.tt.clear();
            }
            ("Threads", OptionValue::Spin(n)) => {
                self.wait();
                // The threads kept keep their history, as before; threads
                // the system will not start are refused, the old ones kept.
                let kept = self.pool.len();
                self.pool
                    .try_resize(n as usize)
                    .map_err(|refused| OptionError::Threads {
                        wanted: n as usize,
                        refused_at: kept + refused.started + 1,
                        reason: refused.reason.to_string(),
                        kept,
                    })?;
            }
            ("Evaluator", OptionValue::Combo(choice)) => {
                let kind = EvalKind::parse(choice).expect("the combo lists evaluator names");
                if kind == EvalKind::Nnue && self.net.is_none() {
                    return Err(ParamError::BadValue {
                        name: "Evaluator",
                        value: value.to_string(),
                        expected: "Full or Simple: no network is loaded (EvalFile loads one)"
                            .into(),
                    }
                    .into());
                }
                self.eval_kind = kind;
            }
            ("EvalFile", OptionValue::Text(path)) => self.load_eval_file(&path)?,
            ("MultiPV", OptionValue::Spin(n)) => self.multipv = n as usize,
            ("Move Overhead", OptionValue::Spin(ms)) => self.move_overhead = ms as u64,
            ("UCI_LimitStrength", OptionValue::Check(on)) => self.limit_strength = on,
            ("UCI_Elo", OptionValue::Spin(elo)) => self.elo = elo,
            ("UCI_AnalyseMode", OptionValue::Check(on)) => self.analyse_mode = on,
            // Pondering is the protocol's business: the value is checked above.
            ("Ponder", _) => {}
            (param, _) => self.params.set(param, value)?,
        }
        Ok(())
    }

    /// `EvalFile`: a network file (it starts with its magic) is for the
    /// NNUE evaluator; anything else is a weight file; `<default>` (or
    /// nothing) brings back the built-in weights and network. A file that
    /// cannot be read leaves both as they were.
    fn load_eval_file(&mut self, path: &str) -> Result<(), ParamError> {
        if !(path.is_empty() || path == "<default>") {
            // A device, a FIFO (whose open would wait for ever) or a
            // directory is refused before it is opened.
            let max = crate::eval::nnue::MAX_FILE_LEN.max(crate::eval::hce::weights::MAX_FILE_LEN);
            if let Err(e) = types::file::check_regular(std::path::Path::new(path), Some(max)) {
                return Err(ParamError::BadValue {
                    name: "EvalFile",
                    value: path.to_string(),
                    expected: format!(
                        "a network or weight file ({e}); the previous evaluation is kept"
                    ),
                });
            }
        }
        let magic = std::fs::File::open(path).ok().and_then(|mut f| {
            let mut magic = [0u8; 8];
            std::io::Read::read_exact(&mut f, &mut magic)
                .ok()
                .map(|()| magic)
        });
        if magic == Some(crate::eval::nnue::MAGIC) {
            let net = Network::from_file(std::path::Path::new(path)).map_err(|e| {
                ParamError::BadValue {
                    name: "EvalFile",
                    value: path.to_string(),
                    expected: format!("a network Kestrel can read ({e}); the previous one is kept"),
                }
            })?;
            self.net = Some(Arc::new(net));
            self.net_file = Some(path.to_string());
            self.last_was_net = true;
            return Ok(());
        }
        if path.is_empty() || path == "<default>" {
            self.net = Some(crate::eval::nnue::embedded_network());
            self.weights = Weights::default_shared();
            (self.net_file, self.weights_file, self.last_was_net) = (None, None, true);
            return Ok(());
        }
        if looks_like_bullet(std::path::Path::new(path)) {
            return Err(ParamError::BadValue {
                name: "EvalFile",
                value: path.to_string(),
                expected: "a Kestrel network: this looks like a bullet quantised net (no header, \
                           bullet's padding at its end); import it first with `kestrel net import \
                           FILE --hidden H --output-buckets B -o NET.nnue` and load NET.nnue; the \
                           previous evaluation is kept"
                    .into(),
            });
        }
        let weights =
            Weights::load(std::path::Path::new(path)).map_err(|e| ParamError::BadValue {
                name: "EvalFile",
                value: path.to_string(),
                expected: format!("a weight file Kestrel can read ({e})"),
            })?;
        self.weights = Arc::new(weights);
        self.weights_file = Some(path.to_string());
        self.last_was_net = false;
        Ok(())
    }

    /// What evaluates now, for the protocols to confirm an `EvalFile`: the
    /// network (its shape, and the file it came from or "built in") and the
    /// hand-crafted weights' source, e.g. `EvalFile loaded: r13.nnue
    /// (network 768->256x2->8 screlu)`.
    pub fn describe_evaluation(&self) -> String {
        let shape = self
            .net
            .as_ref()
            .map_or_else(|| "none".to_string(), |n| n.shape());
        match (&self.net_file, &self.weights_file, self.last_was_net) {
            (None, None, _) => {
                format!(
                    "EvalFile <default>: the built-in network ({shape}) and hand-crafted weights"
                )
            }
            (Some(file), _, true) => format!("EvalFile loaded: {file} (network {shape})"),
            (net, Some(file), false) => format!(
                "EvalFile loaded: {file} (hand-crafted weights; the network is still {}, {shape})",
                net.as_deref().unwrap_or("the built-in one")
            ),
            // A weight file without a last weights load, or the reverse:
            // no `EvalFile` leaves these.
            _ => format!("EvalFile: network {shape}"),
        }
    }

    /// Uses these endgame tables from the next search on (`None`: none).
    /// Waits for a running search first.
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<dyn Tablebase>>) {
        self.wait();
        self.tablebase = tablebase;
    }

    /// Sets the opening book the search asks when `BookInSearch` is on
    /// (from the next search on; a running search keeps its own).
    pub fn set_book(&mut self, book: Option<Arc<dyn BookHint>>) {
        self.book = book;
    }

    /// The endgame tables in use.
    pub fn tablebase(&self) -> Option<&Arc<dyn Tablebase>> {
        self.tablebase.as_ref()
    }

    /// The playing level in force (`None`: full strength).
    pub fn level(&self) -> Option<Level> {
        self.limit_strength
            .then(|| Level::new(self.elo).expect("UCI_Elo is checked when set"))
    }

    /// Seeds the playing level's choices, so that a game can be repeated.
    pub fn set_level_seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// The search threads to use: one with a playing level (its strength
    /// is a node budget, which helper threads would blur).
    fn thread_count(&self) -> usize {
        if self.limit_strength {
            1
        } else {
            self.pool.len()
        }
    }

    /// The table size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// Forgets the table and the history (a new game).
    pub fn new_game(&mut self) {
        self.wait();
        self.tt.clear();
        self.pool.for_each_worker(|w| {
            w.history.clear();
            w.correction.clear();
        });
    }

    fn shared(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: Limits,
        reporter: Reporter,
    ) -> (Arc<Shared>, Option<crate::search::timeman::TimeBudget>) {
        let budget = budget(
            &limits,
            root.turn() == chess::Color::White,
            self.move_overhead,
        );
        // Analysis looks for mates: a search told to, one that waits for
        // `stop` (a GUI's analysis, xboard's `analyze`, but not pondering),
        // or any under `UCI_AnalyseMode`.
        let params = if self.analyse_mode || limits.infinite || limits.mate.is_some() {
            self.params.for_analysis()
        } else {
            self.params
        };
        let mut config = SearchConfig::new(limits, params, self.multipv, budget, reporter)
            .with_tablebase(self.tablebase.clone(), root, history)
            .with_level(self.level(), self.rng.next_u64());
        config.bound_lines_after = self.bound_lines_after;
        // The levels' node budgets were calibrated with the hand-crafted
        // evaluation, so a level plays with it whatever `Evaluator` says.
        config.eval_kind = if self.limit_strength {
            EvalKind::Full
        } else {
            self.eval_kind
        };
        if config.params.book_in_search {
            config.book = self.book.clone();
        }
        config.weights = self.weights.clone();
        config.net = self.net.clone();
        let shared = Shared::new(config, self.tt.clone(), self.thread_count());
        (Arc::new(shared), budget)
    }

    /// Starts a search in the background. `history` holds the keys of the
    /// game's positions before `root` (for repetitions). Events, ending with
    /// `Stats` and `BestMove`, go to `reporter`. A search already running is
    /// stopped first.
    pub fn go(&mut self, root: Position, history: Vec<u64>, limits: Limits, reporter: Reporter) {
        self.stop();
        self.wait();
        let (shared, budget) = self.shared(&root, &history, limits, reporter);
        self.pool.start(Search {
            shared: shared.clone(),
            root,
            history: history.into(),
            budget,
            threads: self.thread_count(),
            answer: Answer::Report,
        });
        self.running = Some(shared);
    }

    /// Searches and returns the result, blocking the caller until it is
    /// found (the search runs on the engine's threads; events other than
    /// `Stats` and `BestMove` go to `reporter`). A panic in the search
    /// reaches the caller, and the engine is left with fresh threads.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: Limits,
        reporter: Reporter,
    ) -> SearchResult {
        self.wait();
        let (shared, budget) = self.shared(root, history, limits, reporter);
        self.pool.start(Search {
            shared,
            root: *root,
            history: history.into(),
            budget,
            threads: self.thread_count(),
            answer: Answer::Return,
        });
        match self.pool.wait() {
            Some(Outcome::Result(result)) => result,
            Some(Outcome::Panicked(panic)) => {
                self.restart(&panic);
                std::panic::resume_unwind(panic)
            }
            Some(Outcome::Reported) | None => {
                unreachable!("a search asked to return its result returns it")
            }
        }
    }

    /// Asks a running search to stop (it then reports its best move).
    pub fn stop(&self) {
        if let Some(shared) = &self.running {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The opponent played the move being pondered: switch to normal timing.
    pub fn ponderhit(&self) {
        if let Some(shared) = &self.running {
            shared.ponderhit();
        }
    }

    /// True while a background search runs. A search whose result is
    /// settled (its best move is being or has been reported) no longer
    /// counts: a GUI may send options right after `bestmove`, before the
    /// thread has wound down (a race seen as a refused `MultiPV` under load).
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|shared| !shared.finished.load(Ordering::Relaxed) && self.pool.is_busy())
    }

    /// Waits for a background search to end.
    pub fn wait(&mut self) {
        if self.running.take().is_some() {
            if let Some(Outcome::Panicked(panic)) = self.pool.wait() {
                self.restart(&panic);
            }
        }
    }

    /// After a panic in a search thread: a panicked search loses its
    /// history, not the engine. The threads are replaced by fresh ones
    /// (as many), and the panic is told on standard error.
    fn restart(&mut self, panic: &Panic) {
        eprintln!(
            "kestrel: a search thread panicked ({}); the search threads are restarted with fresh history",
            panic_message(panic)
        );
        // Threads the system will not start again: the old ones go on.
        if let Ok(pool) = Pool::try_new(self.pool.len()) {
            self.pool = pool;
        }
    }
}

impl Drop for Engine {
    /// Stops a running search; dropping the pool then waits for it to end
    /// and joins every search thread.
    fn drop(&mut self) {
        self.stop();
    }
}

/// Whether the file at `path` ends with bullet's padding ("bullet"
/// repeated from a 64-byte boundary): a quantised net bullet wrote, which
/// has no header of its own.
fn looks_like_bullet(path: &std::path::Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let Ok(len) = file.seek(SeekFrom::End(0)) else {
        return false;
    };
    // The padding starts after the weights (an even length) and fills up
    // to the next multiple of 64: its last bytes continue "bullet" from
    // wherever it began, so at least the last 6 bytes are a rotation of it.
    if len < 64 || len % 64 != 0 || file.seek(SeekFrom::Start(len - 6)).is_err() {
        return false;
    }
    let mut tail = [0u8; 6];
    if file.read_exact(&mut tail).is_err() {
        return false;
    }
    let pattern = b"bulletbullet";
    (0..6).any(|shift| pattern[shift..shift + 6] == tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared_kind(engine: &mut Engine) -> EvalKind {
        let reporter: Reporter = Arc::new(|_| {});
        let (shared, _) = engine.shared(&Position::startpos(), &[], Limits::depth(1), reporter);
        shared.config.eval_kind
    }

    #[test]
    fn nnue_needs_no_file_and_levels_keep_the_hand_crafted_evaluation() {
        let mut engine = Engine::new();
        engine.set_option("Evaluator", "NNUE").unwrap();
        assert_eq!(shared_kind(&mut engine), EvalKind::Nnue);
        // The levels were calibrated with the hand-crafted evaluation.
        engine.set_option("UCI_LimitStrength", "true").unwrap();
        assert_eq!(shared_kind(&mut engine), EvalKind::Full);
        engine.set_option("UCI_LimitStrength", "false").unwrap();
        assert_eq!(shared_kind(&mut engine), EvalKind::Nnue);
    }

    fn shared_params(engine: &mut Engine, limits: Limits) -> SearchParams {
        let reporter: Reporter = Arc::new(|_| {});
        let (shared, _) = engine.shared(&Position::startpos(), &[], limits, reporter);
        shared.config.params
    }

    #[test]
    fn analysis_searches_with_the_mate_finding_switches_and_games_without() {
        let mut engine = Engine::new();
        let analysis = SearchParams::default().for_analysis();
        assert_ne!(analysis, SearchParams::default());
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mate = Limits {
            mate: Some(3),
            ..Limits::default()
        };
        let ponder = Limits {
            ponder: true,
            wtime: Some(60_000),
            btime: Some(60_000),
            ..Limits::default()
        };
        assert_eq!(shared_params(&mut engine, infinite.clone()), analysis);
        assert_eq!(shared_params(&mut engine, mate), analysis);
        // A game's searches, pondering included, keep the defaults.
        assert_eq!(
            shared_params(&mut engine, Limits::depth(5)),
            SearchParams::default()
        );
        assert_eq!(shared_params(&mut engine, ponder), SearchParams::default());
        engine.set_option("UCI_AnalyseMode", "true").unwrap();
        assert_eq!(shared_params(&mut engine, Limits::depth(5)), analysis);
        engine.set_option("UCI_AnalyseMode", "false").unwrap();
        assert_eq!(
            shared_params(&mut engine, Limits::movetime(100)),
            SearchParams::default()
        );
        // Other parameters set by the user stay as set.
        engine.set_option("AspirationWindows", "false").unwrap();
        assert!(!shared_params(&mut engine, infinite).aspiration);
    }

    #[test]
    fn eval_file_default_brings_the_built_in_network_back() {
        let mut engine = Engine::new();
        engine.set_network(None);
        assert!(engine.set_option("Evaluator", "NNUE").is_err());
        engine.set_option("EvalFile", "<default>").unwrap();
        engine.set_option("Evaluator", "NNUE").unwrap();
        assert_eq!(shared_kind(&mut engine), EvalKind::Nnue);
    }
}
