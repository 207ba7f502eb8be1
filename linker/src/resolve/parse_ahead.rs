//! Archive members parsed ahead of need on the thread pool. Resolution stays sequential (the
//! order in which members load decides which definitions win, as in lld), but parsing a member
//! does not depend on the symbol table: when an archive is read, the members its index says
//! the references made so far will load, and when an object is added, the members its non-weak
//! references are about to load, are handed to the pool (`Resolver::parse_ahead`), and by the
//! time resolution reaches one it has usually been parsed. A member the pool has not started yet is parsed by
//! resolution itself, so the result is the same whatever the thread count, and with one
//! thread nothing is handed out at all.

use crate::error::Result;
use crate::input::input_files::ObjectFile;
use crate::resolve::symbol_table::{GlobalNames, NameHasher};
use hashbrown::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// An archive member: the archive's index in `Resolved::archives` and the member's header
/// offset.
pub(super) type MemberKey = (u32, u64);

/// What parsing a member needs: its display name, its archive's path and its bytes.
pub(super) struct MemberJob {
    pub display: String,
    pub archive_path: Option<String>,
    pub data: &'static [u8],
}

/// The members handed to the pool and their parses.
pub(super) struct ParseAhead {
    shared: Option<Arc<Shared>>,
}

struct Shared {
    hasher: NameHasher,
    state: Mutex<State>,
    parsed: Condvar,
}

#[derive(Default)]
struct State {
    /// Members waiting for a thread, the most recently requested last: resolution loads
    /// members depth first, so the newest request is the one needed soonest.
    waiting: Vec<(MemberKey, MemberJob)>,
    cells: HashMap<MemberKey, Cell>,
    /// Resolution is over: threads still holding a request drop it.
    closed: bool,
}

/// A member parsed, with its global names hashed as the symbol table hashes them.
pub(super) type Parsed = Result<(ObjectFile, GlobalNames)>;

type Parse = std::thread::Result<Parsed>;

enum Cell {
    Waiting,
    Parsing,
    Parsed(Box<Parse>),
    /// Resolution took the member (parsed, or to parse itself).
    Taken,
}

impl ParseAhead {
    /// Parses ahead only when the pool has a thread besides the one resolving.
    pub(super) fn new(hasher: &NameHasher) -> ParseAhead {
        let shared = (rayon::current_num_threads() > 1).then(|| {
            Arc::new(Shared {
                hasher: hasher.clone(),
                state: Mutex::new(State::default()),
                parsed: Condvar::new(),
            })
        });
        ParseAhead { shared }
    }

    pub(super) fn enabled(&self) -> bool {
        self.shared.is_some()
    }

    /// How many members the pool parsed that resolution never took (`--stats`).
    pub(super) fn unused_parses(&self) -> usize {
        self.shared.as_ref().map_or(0, |s| {
            let state = s.lock();
            state
                .cells
                .values()
                .filter(|c| matches!(c, Cell::Parsed(_)))
                .count()
        })
    }

    /// Whether `key` was handed out already (parsed, waiting or taken).
    pub(super) fn requested(&self, key: MemberKey) -> bool {
        self.shared
            .as_ref()
            .is_some_and(|s| s.lock().cells.contains_key(&key))
    }

    /// Hands members to the pool, in the order resolution will want them.
    pub(super) fn request(&self, jobs: Vec<(MemberKey, MemberJob)>) {
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
            state.cells.insert(key, Cell::Waiting);
            state.waiting.push((key, job));
            added += 1;
        }
        drop(state);
        for _ in 0..added {
            let shared = Arc::clone(shared);
            rayon::spawn(move || shared.parse_one());
        }
    }

    /// The parse of `key` if the pool made it (waiting for it if a thread is on it); `None`
    /// when resolution must parse the member itself.
    pub(super) fn take(&self, key: MemberKey) -> Option<Parsed> {
        let shared = self.shared.as_ref()?;
        let mut state = shared.lock();
        loop {
            let cell = state.cells.get_mut(&key)?;
            match cell {
                Cell::Taken => return None,
                Cell::Waiting => {
                    *cell = Cell::Taken;
                    return None;
                }
                Cell::Parsing => state = shared.wait(state),
                Cell::Parsed(_) => {
                    let Cell::Parsed(parse) = std::mem::replace(cell, Cell::Taken) else {
                        unreachable!("matched as parsed above");
                    };
                    // A parse that panicked panics here, where it would have without the pool.
                    return Some((*parse).unwrap_or_else(|p| std::panic::resume_unwind(p)));
                }
            }
        }
    }
}

impl Drop for ParseAhead {
    fn drop(&mut self) {
        if let Some(shared) = &self.shared {
            let mut state = shared.lock();
            state.closed = true;
            state.waiting.clear();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A thread that panicked holding the lock left the state consistent (every change
        // is one assignment), so the poison is ignored.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        self.parsed.wait(guard).unwrap_or_else(|e| e.into_inner())
    }

    /// One pool task: parses the most recently requested member nobody took yet.
    fn parse_one(&self) {
        let (key, job) = {
            let mut state = self.lock();
            loop {
                if state.closed {
                    return;
                }
                let Some((key, job)) = state.waiting.pop() else {
                    return;
                };
                if let Some(cell @ Cell::Waiting) = state.cells.get_mut(&key) {
                    *cell = Cell::Parsing;
                    break (key, job);
                }
            }
        };
        let parse = std::panic::catch_unwind(move || {
            let file = ObjectFile::parse_for_resolution(job.display, job.archive_path, job.data)?;
            let names = GlobalNames::of(&file, &self.hasher);
            Ok((file, names))
        });
        let mut state = self.lock();
        state.cells.insert(key, Cell::Parsed(Box::new(parse)));
        drop(state);
        self.parsed.notify_all();
    }
}
