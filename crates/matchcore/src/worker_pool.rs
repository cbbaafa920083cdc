//! The worker pool every game runner uses (`kestrel match`, SPSA, the
//! arena, datagen): a fixed number of scoped threads, each with its own
//! players, taking jobs from one shared source until it runs dry. Jobs are
//! handed out in the order the source gives them, so what a run plays does
//! not depend on the number of threads; only the order they finish in does.

use std::thread;

/// A fixed number of worker threads, started for one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkerPool {
    threads: usize,
    stack_size: Option<usize>,
}

impl WorkerPool {
    /// `threads` workers (at least one).
    pub fn new(threads: usize) -> WorkerPool {
        WorkerPool {
            threads: threads.max(1),
            stack_size: None,
        }
    }

    /// Each worker's stack size in bytes (for work that recurses deeply in
    /// the worker itself; an engine's searches run on the engine's threads).
    pub fn with_stack_size(self, bytes: usize) -> WorkerPool {
        WorkerPool {
            stack_size: Some(bytes),
            ..self
        }
    }

    /// How many workers there are.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `worker` on every thread and returns when all have ended. Each
    /// worker is given the jobs as an iterator that calls `next` (shared by
    /// all workers; `None`: no more work, the iterator ends); it sets up
    /// its own state (engines, processes) before its loop and tears it down
    /// after, and may leave the loop early.
    pub fn run<J>(
        &self,
        next: impl Fn() -> Option<J> + Sync,
        worker: impl Fn(&mut dyn Iterator<Item = J>) + Sync,
    ) {
        let (next, worker) = (&next, &worker);
        thread::scope(|scope| {
            for _ in 0..self.threads {
                let mut builder = thread::Builder::new();
                if let Some(bytes) = self.stack_size {
                    builder = builder.stack_size(bytes);
                }
                builder
                    .spawn_scoped(scope, move || worker(&mut std::iter::from_fn(next)))
                    .expect("a worker thread starts");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    #[test]
    fn every_job_runs_once_whatever_the_thread_count() {
        for threads in [0, 1, 3, 8] {
            let next_job = AtomicUsize::new(0);
            let seen = Mutex::new(Vec::new());
            let workers = AtomicUsize::new(0);
            WorkerPool::new(threads).with_stack_size(1 << 20).run(
                || {
                    let i = next_job.fetch_add(1, Ordering::Relaxed);
                    (i < 50).then_some(i)
                },
                |jobs| {
                    workers.fetch_add(1, Ordering::Relaxed);
                    for i in jobs {
                        seen.lock().unwrap().push(i);
                    }
                },
            );
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, (0..50).collect::<Vec<_>>());
            assert_eq!(workers.into_inner(), threads.max(1));
        }
    }

    #[test]
    fn a_worker_may_leave_early() {
        let next_job = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        WorkerPool::new(2).run(
            || Some(next_job.fetch_add(1, Ordering::Relaxed)),
            |jobs| {
                for i in jobs {
                    done.fetch_add(1, Ordering::Relaxed);
                    if i >= 10 {
                        break;
                    }
                }
            },
        );
        assert!(done.into_inner() >= 11);
    }
}
