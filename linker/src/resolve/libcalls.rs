//! Functions code generation may call on its own: names no bitcode symbol table or summary
//! mentions, because the calls appear only when LTO lowers the IR to machine code (a 128-bit
//! division becomes `__udivti3`, a `memcpy` intrinsic a call to `memcpy`, a function with
//! `-finstrument-functions-after-inlining` calls `__cyg_profile_func_enter`).
//!
//! The reference graph cannot see these edges before LTO runs, so whenever bitcode takes part
//! the names are treated as referenced by a regular object: their definitions are roots of the
//! walk before LTO (so that whatever a native definition calls back into bitcode stays
//! visible), bitcode definitions of them stay visible to regular objects, and archive members
//! whose bitcode defines one are loaded before LTO, as lld's `handleLibcall` does.

use hashbrown::HashSet;

/// Hooks that LLVM passes running inside LTO (instrumentation after inlining, profiling, stack
/// protection, split stacks, emulated TLS) insert calls to, beyond the target's runtime library
/// call list. An over-approximation: a name on this list that nothing calls only costs
/// precision.
const CODEGEN_HOOKS: &[&str] = &[
    "__cyg_profile_func_enter",
    "__cyg_profile_func_exit",
    "__cyg_profile_func_enter_bare",
    "mcount",
    "_mcount",
    "__mcount",
    ".mcount",
    "__fentry__",
    "__stack_chk_fail",
    "__stack_chk_guard",
    "__stack_chk_fail_local",
    "__morestack",
    "__emutls_get_address",
    "__tls_get_addr",
    "__safestack_pointer_address",
    "__llvm_deoptimize",
];

/// The target's runtime library calls (LLVM's own list, for the first bitcode module's triple,
/// as lld asks: `Resolved::bitcode_triple`). Empty without a triple (no bitcode).
pub fn runtime_libcalls(triple: Option<&str>) -> HashSet<Vec<u8>> {
    match triple.filter(|t| !t.is_empty()) {
        Some(t) => lto::runtime_libcall_symbols(t)
            .map(|list| list.into_iter().map(String::into_bytes).collect())
            .unwrap_or_default(),
        None => HashSet::new(),
    }
}

/// The names code generation may call for the link's bitcode: [`runtime_libcalls`] and
/// [`CODEGEN_HOOKS`]. Empty when no bitcode takes part (`triple` is `None`).
pub fn codegen_callees(triple: Option<&str>) -> HashSet<Vec<u8>> {
    if triple.is_none() {
        return HashSet::new();
    }
    let mut names = runtime_libcalls(triple);
    names.extend(CODEGEN_HOOKS.iter().map(|h| h.as_bytes().to_vec()));
    names
}
