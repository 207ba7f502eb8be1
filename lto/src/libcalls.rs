//! Functions LTO may call that no bitcode symbol mentions.

use crate::ffi;

/// The runtime library functions (`memcpy`, `__udivti3`, `sqrtf`, ...) that
/// code generation for `triple` may emit calls to although the IR does not
/// reference them. The linker must keep (and, with lazy archives, load) their
/// definitions through LTO: if they are themselves bitcode, mark them
/// `visible_to_regular_obj`, or LTO internalizes them before the calls exist.
/// Calls `lto::LTO::getRuntimeLibcallSymbols(Triple)`.
pub fn runtime_libcall_symbols(triple: &str) -> Result<Vec<String>, String> {
    ffi::runtime_libcalls(triple)
}
