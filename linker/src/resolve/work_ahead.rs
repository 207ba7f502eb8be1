//! Work done ahead of need on the thread pool. Resolution stays sequential (the order in which
//! files and members load decides which definitions win, as in lld), but reading an input does
//! not depend on the symbol table: resolution hands the pool what it will read next (archive
//! members its references are about to load, the archives further down the command line), and
//! by the time it gets there the result is usually ready. Work the pool has not started yet is
//! done by resolution itself, so the result is the same whatever the thread count, and with
//! one thread nothing is handed out at all.

use hashbrown::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Jobs of one kind (key `K`, input `J`, result `R`) handed to the pool, and their results.
pub(super) struct Ahead<K, J, R> {
    shared: Option<Arc<Shared<K, J, R>>>,
}

type Work<J, R> = Box<dyn Fn(J) -> R + Send + Sync>;

struct Shared<K, J, R> {
    work: Work<J, R>,
    /// Resolution's own thread needs a CPU too: the pool works ahead on one thread fewer than
    /// it has (on two CPUs, two pool threads and resolution took turns, slowing resolution,
    /// which is what the link waits for).
    max_workers: usize,
    state: Mutex<State<K, J, R>>,
    done: Condvar,
}

struct State<K, J, R> {
    /// Jobs waiting for a thread, the one wanted soonest last.
    waiting: Vec<(K, J)>,
    /// Pool tasks working through `waiting`, at most `Shared::max_workers`.
    workers: usize,
    cells: HashMap<K, Cell<R>>,
    /// Resolution is over: threads still holding a request drop it.
    closed: bool,
}

enum Cell<R> {
    Waiting,
    Working,
    Done(Box<std::thread::Result<R>>),
    /// Resolution took the result (or the job, to do itself).
    Taken,
}

impl<K, J, R> Ahead<K, J, R>
where
    K: Eq + Hash + Clone + Send + 'static,
    J: Send + 'static,
    R: Send + 'static,
{
    /// Works ahead only when the pool has a thread besides the one resolving.
    pub(super) fn new(work: impl Fn(J) -> R + Send + Sync + 'static) -> Self {
        let threads = rayon::current_num_threads();
        let shared = (threads > 1).then(|| {
            Arc::new(Shared {
                work: Box::new(work),
                max_workers: threads - 1,
                state: Mutex::new(State {
                    waiting: Vec::new(),
                    workers: 0,
                    cells: HashMap::new(),
                    closed: false,
                }),
                done: Condvar::new(),
            })
        });
        Ahead { shared }
    }

    pub(super) fn enabled(&self) -> bool {
        self.shared.is_some()
    }

    /// How many results the pool produced that resolution never took.
    pub(super) fn unused(&self) -> usize {
        self.shared.as_ref().map_or(0, |s| {
            s.lock()
                .cells
                .values()
                .filter(|c| matches!(c, Cell::Done(_)))
                .count()
        })
    }

    /// Whether `key` was handed out already (done, waiting or taken).
    pub(super) fn requested(&self, key: &K) -> bool {
        self.shared
            .as_ref()
            .is_some_and(|s| s.lock().cells.contains_key(key))
    }

    /// Hands jobs to the pool, in the order resolution will want them; keys handed out before
    /// are skipped.
    pub(super) fn request(&self, jobs: Vec<(K, J)>) {
        let Some(shared) = &self.shared else {
            return;
        };
        let mut state = shared.lock();
        let mut added = 0;
        // The first one wanted goes on top of the stack.
        for (key, job) in jobs.into_iter().rev() {
            if state.cells.contains_key(&key) {
                continue;
            }
            state.cells.insert(key.clone(), Cell::Waiting);
            state.waiting.push((key, job));
            added += 1;
        }
        let start = added.min(shared.max_workers.saturating_sub(state.workers));
        state.workers += start;
        drop(state);
        for _ in 0..start {
            let shared = Arc::clone(shared);
            rayon::spawn(move || shared.work_through());
        }
    }

    /// The result for `key` if the pool produced it (waiting for it if a thread is on it);
    /// `None` when resolution must do the work itself.
    pub(super) fn take(&self, key: &K) -> Option<R> {
        let shared = self.shared.as_ref()?;
        let mut state = shared.lock();
        loop {
            let cell = state.cells.get_mut(key)?;
            match cell {
                Cell::Taken => return None,
                Cell::Waiting => {
                    *cell = Cell::Taken;
                    return None;
                }
                Cell::Working => state = shared.wait(state),
                Cell::Done(_) => {
                    let Cell::Done(result) = std::mem::replace(cell, Cell::Taken) else {
                        unreachable!("matched as done above");
                    };
                    // A job that panicked panics here, where it would have without the pool.
                    return Some((*result).unwrap_or_else(|p| std::panic::resume_unwind(p)));
                }
            }
        }
    }
}

impl<K, J, R> Drop for Ahead<K, J, R> {
    fn drop(&mut self) {
        if let Some(shared) = &self.shared {
            let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
            state.closed = true;
            state.waiting.clear();
        }
    }
}

impl<K: Eq + Hash, J, R> Shared<K, J, R> {
    fn lock(&self) -> MutexGuard<'_, State<K, J, R>> {
        // A thread that panicked holding the lock left the state consistent (every change
        // is one assignment), so the poison is ignored.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, State<K, J, R>>) -> MutexGuard<'a, State<K, J, R>> {
        self.done.wait(guard).unwrap_or_else(|e| e.into_inner())
    }

    /// One pool task: takes the most recently requested job nobody took yet, then the next,
    /// until none is left.
    fn work_through(&self) {
        loop {
            let (key, job) = {
                let mut state = self.lock();
                loop {
                    let next = if state.closed {
                        None
                    } else {
                        state.waiting.pop()
                    };
                    let Some((key, job)) = next else {
                        state.workers -= 1;
                        return;
                    };
                    if let Some(cell @ Cell::Waiting) = state.cells.get_mut(&key) {
                        *cell = Cell::Working;
                        break (key, job);
                    }
                }
            };
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.work)(job)));
            let mut state = self.lock();
            state.cells.insert(key, Cell::Done(Box::new(result)));
            drop(state);
            self.done.notify_all();
        }
    }
}
