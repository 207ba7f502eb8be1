//! A C API implemented in Rust: plain arithmetic, a global registry behind a Mutex, strings
//! handed to C and back, a panic caught at the boundary, threads, a thread-local and exported
//! data. rustc links it with a version script that exports only the `#[no_mangle]` items.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::ffi::{c_char, CStr, CString};
use std::sync::Mutex;

static REGISTRY: Mutex<BTreeMap<String, i64>> = Mutex::new(BTreeMap::new());

thread_local! {
    static CALLS: Cell<u32> = const { Cell::new(0) };
}

#[no_mangle]
pub static RS_VERSION: i32 = 3;

#[no_mangle]
pub extern "C" fn rs_init() {
    std::panic::set_hook(Box::new(|_| {}));
}

#[no_mangle]
pub extern "C" fn rs_add(a: i64, b: i64) -> i64 {
    internal_helper(a) + b
}

#[inline(never)]
fn internal_helper(x: i64) -> i64 {
    std::hint::black_box(x)
}

/// # Safety
/// `name` is a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn rs_register(name: *const c_char, value: i64) -> usize {
    let name = unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned();
    let mut r = REGISTRY.lock().unwrap();
    r.insert(name, value);
    r.len()
}

#[no_mangle]
pub extern "C" fn rs_sum() -> i64 {
    REGISTRY.lock().unwrap().values().sum()
}

#[no_mangle]
pub extern "C" fn rs_describe() -> *mut c_char {
    let r = REGISTRY.lock().unwrap();
    let s: Vec<String> = r.iter().map(|(k, v)| format!("{k}={v}")).collect();
    CString::new(s.join(", ")).unwrap().into_raw()
}

/// # Safety
/// `p` came from `rs_describe`.
#[no_mangle]
pub unsafe extern "C" fn rs_free(p: *mut c_char) {
    if !p.is_null() {
        drop(unsafe { CString::from_raw(p) });
    }
}

/// Divides; a division by zero panics inside and is caught here (`*ok` = 0).
///
/// # Safety
/// `ok` is writable.
#[no_mangle]
pub unsafe extern "C" fn rs_checked_div(a: i64, b: i64, ok: *mut i32) -> i64 {
    let r = std::panic::catch_unwind(|| {
        if b == 0 {
            panic!("division by zero");
        }
        a / b
    });
    unsafe { *ok = r.is_ok() as i32 };
    r.unwrap_or(-1)
}

#[no_mangle]
pub extern "C" fn rs_parallel_sum(n: u64) -> u64 {
    let chunks = 4;
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..chunks)
            .map(|i| s.spawn(move || (i * n / chunks..(i + 1) * n / chunks).sum::<u64>()))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

#[no_mangle]
pub extern "C" fn rs_thread_calls() -> u32 {
    CALLS.with(|c| {
        c.set(c.get() + 1);
        c.get()
    })
}
