//! Asking the memory for data before it is read. Resolution's symbol table spends most of its
//! time waiting for cache lines whose addresses it knows several names ahead (the slot a name
//! hashes to, the symbol in it, that symbol's name); a prefetch lets those misses overlap
//! instead of following one another.

/// Asks the memory for the cache line holding the first byte of `p`, without waiting for it.
/// A hint: a prefetch never faults, whatever the address, and changes no result.
#[inline(always)]
pub fn prefetch<T: ?Sized>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` reads nothing architecturally and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((p as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
