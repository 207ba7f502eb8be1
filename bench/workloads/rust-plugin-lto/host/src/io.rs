//! Memory and output for textkit.
use std::alloc::{alloc, dealloc, Layout};
use std::cell::RefCell;
use std::io::Write;

thread_local! {
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn layout(size: usize) -> Layout {
    Layout::from_size_align(size.max(1), 16).expect("allocation too large")
}

/// `void *host_alloc(size_t size)`
#[no_mangle]
pub extern "C" fn host_alloc(size: usize) -> *mut u8 {
    let p = unsafe { alloc(layout(size)) };
    if p.is_null() {
        std::alloc::handle_alloc_error(layout(size));
    }
    p
}

/// `void host_free(void *ptr, size_t size)`
#[no_mangle]
pub unsafe extern "C" fn host_free(ptr: *mut u8, size: usize) {
    if !ptr.is_null() {
        dealloc(ptr, layout(size));
    }
}

/// `void host_emit(const char *text, size_t len)`: buffered until [`flush`].
#[no_mangle]
pub unsafe extern "C" fn host_emit(text: *const u8, len: usize) {
    let s = std::slice::from_raw_parts(text, len);
    OUT.with(|o| o.borrow_mut().extend_from_slice(s));
}

/// Writes what textkit emitted to stdout.
pub fn flush() -> std::io::Result<()> {
    let data = OUT.with(|o| std::mem::take(&mut *o.borrow_mut()));
    let mut out = std::io::stdout().lock();
    out.write_all(&data)?;
    out.flush()
}
