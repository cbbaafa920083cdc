//! The engine's search threads, started once and kept: one per `Threads`,
//! each named `kestrel-search-N`, with the search's deep stack
//! ([`SEARCH_STACK`]) and its own [`Worker`] (history tables,
//! evaluator caches) for as long as the thread lives. Between searches the
//! threads sleep on a condition variable, so a search costs a wake-up
//! instead of a thread start (and a 64 MiB stack mapping) per thread.
//!
//! A search is handed to thread 0, the leader, which does what a Lazy SMP
//! search always did: starts the helpers on the same root, searches and
//! keeps time, holds an infinite or pondering search until `stop` or
//! `ponderhit`, stops the helpers and waits for them, then chooses the
//! answer from every thread's worker ([`conclude`]) and either reports it
//! (`Stats`, then `BestMove`) or hands it back to whoever waits.
//!
//! A host without threads ([`crate::host`]) gets a pool of one slot and no
//! thread: `start` then runs the whole search on the caller's thread.
//!
//! A panic in any thread is caught where the thread runs its task, so the
//! thread lives on and the search still ends (the leader stops and waits
//! for its helpers whatever happened): the search's outcome is then the
//! panic, and the engine replaces the pool. Dropping the pool waits for a
//! search in progress (stop it first) and ends and joins every thread.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use chess::{Move, Position};

use super::shared::{SearchConfig, Shared};
use super::timeman::{TimeBudget, TimeManager};
use super::worker::{RootMove, Worker};
use crate::events::{SearchEvent, SearchResult};
use crate::score::Value;
use crate::stats::SearchStats;
use crate::strength::{Rng, MIN_DEPTH};

/// Stack size of every search thread.
pub const SEARCH_STACK: usize = 64 << 20;

/// What a panic left: its payload, as `catch_unwind` gives it.
pub(crate) type Panic = Box<dyn Any + Send + 'static>;

/// One search, as the pool runs it.
pub(crate) struct Search {
    /// The state its threads share (limits, table, stop flag, reporter).
    pub shared: Arc<Shared>,
    /// The position searched.
    pub root: Position,
    /// The keys of the game's positions before `root` (for repetitions).
    pub history: Arc<[u64]>,
    /// The clock's budget for this move (`None`: no clock).
    pub budget: Option<TimeBudget>,
    /// Threads to search with, the leader included (at most the pool's).
    pub threads: usize,
    /// Where the result goes.
    pub answer: Answer,
}

/// Where a search's result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// To the reporter, as `Stats` then `BestMove` (a background search).
    Report,
    /// Back to whoever waits for it ([`Pool::wait`]).
    Return,
}

/// How a search ended.
pub(crate) enum Outcome {
    /// Its result (a search asked to return it).
    Result(SearchResult),
    /// Its result went to the reporter.
    Reported,
    /// A thread panicked; the search stopped without a result.
    Panicked(Panic),
}

/// What a thread is doing, as the thread and whoever hands it work see it.
enum State {
    /// Asleep, waiting for a task.
    Idle,
    /// A task waits for the thread to take it.
    Posted(Task),
    /// The thread is at work.
    Running,
    /// The task ended; its outcome waits to be collected.
    Done(Outcome),
    /// The thread is to end.
    Quit,
}

/// What a thread is asked to do.
enum Task {
    /// Thread 0: the whole search, with the crew whose helpers it starts.
    Lead(Search, Arc<[Arc<Slot>]>),
    /// A helper: search the same root until the leader stops it.
    Help {
        shared: Arc<Shared>,
        root: Position,
        history: Arc<[u64]>,
    },
}

/// One thread's mailbox and worker. Only the thread uses the worker during
/// a search; the leader reads a helper's once the helper is done, and the
/// engine clears histories while no search runs.
struct Slot {
    state: Mutex<State>,
    changed: Condvar,
    worker: Mutex<Worker>,
}

impl Slot {
    fn new(id: usize) -> Slot {
        Slot {
            state: Mutex::new(State::Idle),
            changed: Condvar::new(),
            worker: Mutex::new(Worker::new(id)),
        }
    }

    // A panic is caught before it can leave a lock poisoned in a way that
    // matters: the state is always consistent, and a panicked search's
    // workers are thrown away with the pool.
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn worker(&self) -> MutexGuard<'_, Worker> {
        self.worker.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait_while<'a>(
        &self,
        mut state: MutexGuard<'a, State>,
        busy: impl Fn(&State) -> bool,
    ) -> MutexGuard<'a, State> {
        while busy(&state) {
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state
    }

    /// Hands the thread a task; it must be idle.
    fn post(&self, task: Task) {
        let mut state = self.state();
        assert!(
            matches!(*state, State::Idle),
            "a search thread is given one task at a time"
        );
        *state = State::Posted(task);
        self.changed.notify_all();
    }

    /// True while a posted task has not ended.
    fn is_busy(&self) -> bool {
        is_busy(&self.state())
    }

    /// The thread's side: sleeps until a task comes and takes it (`None`:
    /// the thread is to end).
    fn take(&self) -> Option<Task> {
        let mut state = self.wait_while(self.state(), |s| {
            matches!(s, State::Idle | State::Done(_) | State::Running)
        });
        match std::mem::replace(&mut *state, State::Running) {
            State::Posted(task) => Some(task),
            other => {
                *state = other;
                None
            }
        }
    }

    /// The thread's side: the task ended so.
    fn finish(&self, outcome: Outcome) {
        *self.state() = State::Done(outcome);
        self.changed.notify_all();
    }

    /// Waits for the posted task to end and takes its outcome, leaving the
    /// thread idle (`None`: no task was posted).
    fn collect(&self) -> Option<Outcome> {
        let mut state = self.wait_while(self.state(), is_busy);
        match std::mem::replace(&mut *state, State::Idle) {
            State::Done(outcome) => Some(outcome),
            other => {
                *state = other;
                None
            }
        }
    }

    /// Tells the thread to end once its task (if any) has.
    fn quit(&self) {
        let mut state = self.wait_while(self.state(), is_busy);
        *state = State::Quit;
        self.changed.notify_all();
    }
}

fn is_busy(state: &State) -> bool {
    matches!(state, State::Posted(_) | State::Running)
}

/// A search thread's life: take a task, do it, say how it ended; until told
/// to quit. A panic ends the task, not the thread.
fn serve(slot: &Slot) {
    while let Some(task) = slot.take() {
        slot.finish(run(slot, task));
    }
}

/// Does one task on `slot`'s worker. The task (and with it the search's
/// shared state and reporter) is dropped before the outcome is posted, as
/// a finished thread's were.
fn run(slot: &Slot, task: Task) -> Outcome {
    catch_unwind(AssertUnwindSafe(|| match task {
        Task::Lead(search, crew) => lead(&mut slot.worker(), search, &crew),
        Task::Help {
            shared,
            root,
            history,
        } => {
            slot.worker().iterate(&shared, &root, &history, None);
            Outcome::Reported
        }
    }))
    .unwrap_or_else(Outcome::Panicked)
}

/// The leader's part of a search: Lazy SMP's main thread. Whatever happens
/// in the search, every helper has stopped before this returns.
fn lead(main: &mut Worker, search: Search, crew: &[Arc<Slot>]) -> Outcome {
    let Search {
        shared,
        root,
        history,
        budget,
        threads,
        answer,
    } = search;
    let helpers = &crew[1..threads.clamp(1, crew.len())];
    let searched = catch_unwind(AssertUnwindSafe(|| {
        let mut tm = TimeManager::new(budget);
        shared.tt.new_search();
        for helper in helpers {
            helper.post(Task::Help {
                shared: shared.clone(),
                root,
                history: history.clone(),
            });
        }
        main.iterate(&shared, &root, &history, Some(&mut tm));
        main.score_if_unsearched();
        // An infinite or pondering search answers only after stop or ponderhit.
        while !shared.stop.load(Ordering::Relaxed)
            && (shared.config.limits.infinite || shared.ponder.load(Ordering::Relaxed))
        {
            shared.poll_host();
            crate::host::pause(Duration::from_millis(1));
        }
    }));
    shared.stop.store(true, Ordering::Relaxed);
    // Helpers that were never started (a panic before) have nothing to give.
    let mut panic = searched.err();
    for helper in helpers {
        if let Some(Outcome::Panicked(p)) = helper.collect() {
            panic.get_or_insert(p);
        }
    }
    if let Some(p) = panic {
        return Outcome::Panicked(p);
    }
    let result = {
        let guards: Vec<MutexGuard<'_, Worker>> = helpers.iter().map(|h| h.worker()).collect();
        let workers: Vec<&Worker> = std::iter::once(&*main)
            .chain(guards.iter().map(|g| &**g))
            .collect();
        conclude(&workers, &shared, &root)
    };
    match answer {
        Answer::Return => Outcome::Result(result),
        Answer::Report => {
            shared.finished.store(true, Ordering::Relaxed);
            (shared.config.reporter)(SearchEvent::Stats {
                stats: result.stats,
                nodes: result.nodes,
                time: result.time,
            });
            (shared.config.reporter)(SearchEvent::BestMove(result));
            Outcome::Reported
        }
    }
}

/// The search threads of one engine (at least one).
pub(crate) struct Pool {
    /// Every thread's slot, thread 0 (the leader) first.
    crew: Arc<[Arc<Slot>]>,
    /// The threads, in the same order.
    handles: Vec<JoinHandle<()>>,
}

/// A search thread the system would not start: too little memory for its
/// stack ([`SEARCH_STACK`]) or its worker, or too many threads. The pool
/// is left with the threads it had.
#[derive(Debug)]
pub(crate) struct StartRefused {
    /// How many new threads had started (and were ended again).
    pub started: usize,
    /// Why the next one did not.
    pub reason: std::io::Error,
}

impl Pool {
    /// Starts `threads` search threads (at least one), or says why the
    /// system would not start one (none is left running then).
    pub fn try_new(threads: usize) -> Result<Pool, StartRefused> {
        let mut pool = Pool {
            crew: Arc::new([]),
            handles: Vec::new(),
        };
        pool.try_resize(threads)?;
        Ok(pool)
    }

    /// The number of threads.
    pub fn len(&self) -> usize {
        self.crew.len()
    }

    /// Ends the last threads or starts new ones until there are `threads`
    /// (at least one); the threads kept keep their workers. No search may run.
    /// When the system will not start a thread, the threads started are
    /// ended again and the pool keeps the threads it had.
    /// A host without threads ([`crate::host`]) gets one slot and no thread:
    /// its searches run on the caller's thread.
    pub fn try_resize(&mut self, threads: usize) -> Result<(), StartRefused> {
        if crate::host::host().is_some() {
            if self.crew.is_empty() {
                self.crew = Arc::new([Arc::new(Slot::new(0))]);
            }
            return Ok(());
        }
        let threads = threads.max(1);
        let mut crew = self.crew.to_vec();
        while crew.len() > threads {
            let (Some(slot), Some(handle)) = (crew.pop(), self.handles.pop()) else {
                break;
            };
            slot.quit();
            // A thread that panicked outside a task has nothing to give back.
            let _ = handle.join();
        }
        let before = crew.len();
        while crew.len() < threads {
            if let Err(reason) = self.start_thread(&mut crew) {
                let started = crew.len() - before;
                while crew.len() > before {
                    let slot = crew.pop().expect("a thread started here");
                    slot.quit();
                    let handle = self.handles.pop().expect("one handle per thread");
                    let _ = handle.join();
                }
                return Err(StartRefused { started, reason });
            }
        }
        self.crew = crew.into();
        Ok(())
    }

    /// Starts one more thread with a fresh worker, added to `crew`.
    fn start_thread(&mut self, crew: &mut Vec<Arc<Slot>>) -> std::io::Result<()> {
        // Room for a stack is asked for (and given back at once) before
        // the worker is made: a worker is far smaller than a stack, so
        // where memory runs short the refusal comes here or from the
        // thread's start, both errors, rather than from the worker's
        // allocation, which would abort the process.
        if Vec::<u8>::new().try_reserve_exact(SEARCH_STACK).is_err() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                "no memory for another search thread",
            ));
        }
        let id = crew.len();
        let slot = Arc::new(Slot::new(id));
        let its = slot.clone();
        let handle = std::thread::Builder::new()
            .name(format!("kestrel-search-{id}"))
            .stack_size(SEARCH_STACK)
            .spawn(move || serve(&its))?;
        crew.push(slot);
        self.handles.push(handle);
        Ok(())
    }

    /// Starts `search` on the leader and returns at once (on a host without
    /// threads, once the search is over). No search may run.
    pub fn start(&self, search: Search) {
        let task = Task::Lead(search, self.crew.clone());
        let leader = &self.crew[0];
        if self.handles.is_empty() {
            // No thread (a host without them): the search runs here, to its
            // end, and its outcome waits to be collected as a thread's would.
            leader.post(task);
            let task = leader.take().expect("the task was just posted");
            leader.finish(run(leader, task));
        } else {
            leader.post(task);
        }
    }

    /// True while a search started here has not ended.
    pub fn is_busy(&self) -> bool {
        self.crew[0].is_busy()
    }

    /// Waits for the search started last to end and returns how it did
    /// (`None`: it was collected already, or none was started).
    pub fn wait(&self) -> Option<Outcome> {
        self.crew[0].collect()
    }

    /// Calls `f` on every thread's worker. No search may run.
    pub fn for_each_worker(&self, mut f: impl FnMut(&mut Worker)) {
        for slot in self.crew.iter() {
            f(&mut slot.worker());
        }
    }
}

impl Drop for Pool {
    /// Waits for a search in progress, then ends and joins every thread
    /// (the leader first: it waits for its helpers).
    fn drop(&mut self) {
        for slot in self.crew.iter() {
            slot.quit();
        }
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

/// A panic's message, when it has one.
pub(crate) fn panic_message(panic: &Panic) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

/// The result of a search whose threads have all stopped: `workers` are
/// their workers, the main thread's first. Chooses the thread to answer
/// from, reports its line when the main thread's last report did not show
/// it, and sums the counters.
fn conclude(workers: &[&Worker], shared: &Shared, root: &Position) -> SearchResult {
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
    let best = level_choice(&shared.config, w).or(w.root_moves.first());
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
fn level_choice<'a>(config: &SearchConfig, main: &'a Worker) -> Option<&'a RootMove> {
    let level = config.level?;
    if main.completed_depth < MIN_DEPTH || main.level_lines.is_empty() {
        return None;
    }
    let lines: Vec<(Move, Value)> = main
        .level_lines
        .iter()
        .map(|rm| (rm.mv, rm.score))
        .collect();
    let mut rng = Rng::new(config.level_seed);
    main.level_lines.get(level.choose(&lines, &mut rng))
}
