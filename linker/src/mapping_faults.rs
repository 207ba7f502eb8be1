//! What happens when a mapped file fails under the link. Inputs are mapped, not read, and the
//! output is built in a mapping of its temporary file: a page of either that the kernel cannot
//! provide (an input truncated by another process while weld links, a disk that fills up under
//! the output) arrives as `SIGBUS` on whichever thread touched it. Instead of dying by the signal,
//! weld reports the file as any other bad input, removes its temporary output and exits 1.
//!
//! The handler runs in signal context: it takes no lock, allocates nothing and calls only
//! async-signal-safe functions (`write`, `unlink`, `_exit`). What it needs is published before
//! the mappings are touched: each input mapping's range and name ([`register_input`]), and the
//! temporary output's path ([`set_temporary_output`]).

use std::ffi::CString;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

/// One registered input mapping. Entries are written once, before their index is published.
struct Entry {
    start: AtomicUsize,
    end: AtomicUsize,
    /// A leaked, NUL-terminated path.
    name: AtomicPtr<u8>,
}

/// Registered mappings live in fixed blocks, allocated as the list grows and never freed or
/// moved, so the handler can walk them without a lock.
const BLOCK: usize = 1024;
const BLOCKS: usize = 1024;

struct Registry {
    blocks: [AtomicPtr<Entry>; BLOCKS],
    /// Entries reserved by writers; a reader checks each entry's `name` to see it published.
    reserved: AtomicUsize,
}

static REGISTRY: Registry = Registry {
    blocks: [const { AtomicPtr::new(std::ptr::null_mut()) }; BLOCKS],
    reserved: AtomicUsize::new(0),
};

/// The temporary output file (a leaked C string), removed by the handler.
static TEMP_OUTPUT: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());
/// The output's final path, for the message about the output mapping.
static OUTPUT_NAME: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());
/// The output mapping's range.
static OUTPUT_START: AtomicUsize = AtomicUsize::new(0);
static OUTPUT_END: AtomicUsize = AtomicUsize::new(0);
/// The output's space was not reserved up front (tmpfs): a fault on its mapping is the file
/// system running out of space as the page is allocated.
static OUTPUT_UNRESERVED: AtomicBool = AtomicBool::new(false);
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Set by the first faulting thread: it alone reports and exits.
static REPORTING: AtomicBool = AtomicBool::new(false);

/// Installs the `SIGBUS` handler (once per process). Called at start-up, before anything is
/// mapped; LLVM's crash recovery, enabled later, chains to it for faults outside LLVM.
pub fn install() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    // SAFETY: a zeroed sigaction with a valid handler and flags is what sigaction expects.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
            on_sigbus;
        action.sa_sigaction = handler as usize;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

/// Records that `bytes` are the mapping of the input named `name`, so a fault in it is reported
/// with that name.
pub fn register_input(bytes: &'static [u8], name: &str) {
    let Ok(name) = CString::new(name) else {
        return;
    };
    let index = REGISTRY.reserved.fetch_add(1, Ordering::SeqCst);
    let (b, i) = (index / BLOCK, index % BLOCK);
    if b >= BLOCKS {
        return; // More than a million mappings: later ones are reported without a name.
    }
    let mut block = REGISTRY.blocks[b].load(Ordering::Acquire);
    if block.is_null() {
        let fresh: Box<[Entry]> = (0..BLOCK)
            .map(|_| Entry {
                start: AtomicUsize::new(0),
                end: AtomicUsize::new(0),
                name: AtomicPtr::new(std::ptr::null_mut()),
            })
            .collect();
        let fresh = Box::leak(fresh).as_mut_ptr();
        block = match REGISTRY.blocks[b].compare_exchange(
            std::ptr::null_mut(),
            fresh,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => fresh,
            // Another thread allocated the block first; ours is a small, one-off leak.
            Err(existing) => existing,
        };
    }
    // SAFETY: `block` points to BLOCK entries that are never freed, and `i < BLOCK`.
    let entry = unsafe { &*block.add(i) };
    let start = bytes.as_ptr() as usize;
    entry.start.store(start, Ordering::Relaxed);
    entry.end.store(start + bytes.len(), Ordering::Relaxed);
    // Publishing the name publishes the entry.
    entry
        .name
        .store(name.into_raw().cast::<u8>(), Ordering::Release);
}

/// Records the temporary output file being written (and the output's final name), so a fault
/// removes it; `None` once it has been renamed into place or removed.
pub fn set_temporary_output(temp: Option<(&std::path::Path, &std::path::Path)>) {
    use std::os::unix::ffi::OsStrExt;
    let to_c = |p: &std::path::Path| {
        CString::new(p.as_os_str().as_bytes()).map_or(std::ptr::null_mut(), CString::into_raw)
    };
    let (t, n) = match temp {
        Some((temp, name)) => (to_c(temp), to_c(name)),
        None => (std::ptr::null_mut(), std::ptr::null_mut()),
    };
    // The previous strings are leaked: the handler may be reading them.
    TEMP_OUTPUT.store(t, Ordering::Release);
    OUTPUT_NAME.store(n, Ordering::Release);
}

/// Records that the output's space is allocated as its pages are first written (tmpfs, where
/// the writer does not preallocate): a fault there is reported as a full file system, in the
/// words preallocation would have used.
pub fn set_output_unreserved(unreserved: bool) {
    OUTPUT_UNRESERVED.store(unreserved, Ordering::Release);
}

/// Records where the output is mapped (an empty range when it is not).
pub fn set_output_mapping(range: std::ops::Range<usize>) {
    OUTPUT_START.store(range.start, Ordering::Release);
    OUTPUT_END.store(range.end, Ordering::Release);
}

/// The name of the registered input whose mapping holds `addr`.
fn input_at(addr: usize) -> *const u8 {
    let count = REGISTRY
        .reserved
        .load(Ordering::Acquire)
        .min(BLOCK * BLOCKS);
    for index in 0..count {
        let block = REGISTRY.blocks[index / BLOCK].load(Ordering::Acquire);
        if block.is_null() {
            continue;
        }
        // SAFETY: as in `register_input`.
        let entry = unsafe { &*block.add(index % BLOCK) };
        let name = entry.name.load(Ordering::Acquire);
        if name.is_null() {
            continue;
        }
        let start = entry.start.load(Ordering::Relaxed);
        let end = entry.end.load(Ordering::Relaxed);
        if (start..end).contains(&addr) {
            return name;
        }
    }
    std::ptr::null()
}

fn write_stderr(bytes: &[u8]) {
    // SAFETY: write(2) on fd 2 with a valid buffer; a short or failed write is ignored.
    unsafe {
        libc::write(2, bytes.as_ptr().cast(), bytes.len());
    }
}

fn write_c_str(s: *const u8) {
    // SAFETY: `s` is a NUL-terminated string leaked by `CString::into_raw`.
    let len = unsafe { libc::strlen(s.cast()) };
    // SAFETY: `len` bytes from `s` are the string.
    write_stderr(unsafe { std::slice::from_raw_parts(s, len) });
}

extern "C" fn on_sigbus(_sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    // Threads that fault while another reports wait for its `_exit`: returning would run the
    // faulting instruction again.
    if REPORTING.swap(true, Ordering::SeqCst) {
        loop {
            // SAFETY: pause is async-signal-safe.
            unsafe { libc::pause() };
        }
    }
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    let input = input_at(addr);
    let output =
        (OUTPUT_START.load(Ordering::Acquire)..OUTPUT_END.load(Ordering::Acquire)).contains(&addr);
    write_stderr(b"weld: error: ");
    if !input.is_null() {
        write_c_str(input);
        write_stderr(b": file was truncated or changed while linking\n");
    } else if output && !OUTPUT_NAME.load(Ordering::Acquire).is_null() {
        write_stderr(b"failed to write output '");
        write_c_str(OUTPUT_NAME.load(Ordering::Acquire).cast());
        if OUTPUT_UNRESERVED.load(Ordering::Acquire) {
            write_stderr(b"': No space left on device\n");
        } else {
            write_stderr(b"': the file system could not provide its space (disk full?)\n");
        }
    } else {
        write_stderr(b"bus error: a mapped file was truncated or could not be written\n");
    }
    let temp = TEMP_OUTPUT.load(Ordering::Acquire);
    // SAFETY: unlink and _exit are async-signal-safe; `temp` is null or a leaked C string.
    unsafe {
        if !temp.is_null() {
            libc::unlink(temp);
        }
        libc::_exit(1);
    }
}
