//! LLVM's own command-line options (`-mllvm`).

use crate::ffi;

/// Parses `-mllvm` options (`-plugin-opt=-...`) into LLVM's process-global
/// option registry, as lld does at startup.
///
/// Call it once, early, before other threads use LLVM: the registry is not
/// synchronized with code reading it. [`crate::Lto::new`] applies
/// [`crate::LtoConfig::llvm_args`] too, but skips a list identical to the
/// last one applied, so calling both is harmless. An unknown option is an
/// error, never LLVM's `exit(1)`.
pub fn set_llvm_options(args: &[String]) -> Result<(), String> {
    ffi::set_options(args)
}
