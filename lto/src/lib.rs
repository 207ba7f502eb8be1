//! The LLVM LTO bridge: everything weld knows about LLVM bitcode goes through
//! this crate.
//!
//! * [`BitcodeFile`] reads a bitcode input (raw, or inside the `0x0B17C0DE`
//!   wrapper): its symbols in irsymtab order, whether it is ThinLTO, and
//!   ([`BitcodeFile::references`]) the reference graph between its symbols
//!   taken from the module summary, which the linker's liveness walk uses
//!   *before* LTO runs.
//! * [`Lto`] runs LLVM's `lto::LTO` in-process (ThinLTO on its own thread pool,
//!   full LTO optionally split into codegen partitions) on the files the
//!   linker resolved, and returns native ELF objects in task order.
//! * [`balanced_partitioning`] and [`read_temporal_profile`] give the
//!   linker's section orderer LLVM's partitioning and IRPGO temporal traces,
//!   as lld's orderer uses them (`shim/layout_shim.cpp`).
//! * [`runtime_libcall_symbols`] lists the functions LTO may call without any
//!   bitcode symbol saying so, so the linker keeps their definitions.
//!
//! The C++ side is one file, `shim/lto_shim.cpp`, behind a C ABI that never
//! lets an exception, an `llvm::Error` or a Rust panic cross it. With the
//! `llvm` feature disabled no C++ is built and every entry point returns
//! [`NO_LLVM`].
//!
//! # Loading libLLVM
//!
//! `build.rs` builds the shim as its own shared library, `libweld_llvm.so`,
//! linked with `libLLVM-22.so` (found with `llvm-config-22`, or
//! `$LLVM_CONFIG`). Nothing that depends on this crate links LLVM: the shim
//! is opened (`dlopen`) by the first call that needs LLVM — opening a bitcode
//! file, creating an LTO run, reading a temporal profile, demangling a name
//! only LLVM knows — so a link without bitcode never maps libLLVM and the
//! libraries it needs. When the shim cannot be loaded, that first call fails
//! with a message naming what is missing.

//! # What LTO output looks like
//!
//! Objects are ELF relocatables with a section per function and per variable
//! (lld's setting, whatever `--gc-sections` says), constructors in
//! `.init_array`, and an `.llvm_addrsig` section (`SHT_LLVM_ADDRSIG`) that a
//! linker without ICF simply drops.
//!
//! # Distributed ThinLTO
//!
//! With [`LtoConfig::thin_index_files`] the run writes each ThinLTO module's
//! index file (`M.thinlto.bc`) with LLVM's own index-writing backend
//! (`createWriteIndexesThinBackend`, when only the indexes are wanted) or
//! while the in-process backends compile (`--thinlto-emit-index-files`);
//! [`write_empty_thin_index`] writes the file lld writes for a bitcode input
//! that did not join the link. With [`LtoConfig::dtlto`] the ThinLTO
//! backends run out of process: LLVM's `createOutOfProcessThinBackend` and
//! `DTLTO` driver hand the jobs to a distributor program (see [`Dtlto`]);
//! [`BitcodeFile::set_archive_member`] tells them which inputs are archive
//! members, whose bitcode they must write to files of their own.

#![deny(missing_docs)]

mod config;
mod input;
mod libcalls;
mod options;
mod partition;
mod records;
mod run;
mod summary;

#[cfg(feature = "llvm")]
mod ffi;
#[cfg(not(feature = "llvm"))]
#[path = "ffi_stub.rs"]
mod ffi;

pub use config::{BasicBlockSections, Dtlto, LtoConfig, LtoKind, RelocModel, ThinIndexFiles};
pub use input::{
    BitcodeFile, Comdat, ComdatSelection, CommonInfo, Symbol, SymbolFlags, Symbols, Visibility,
};
pub use libcalls::runtime_libcall_symbols;
pub use options::set_llvm_options;
pub use partition::{balanced_partitioning, read_temporal_profile, PartitionNode};
pub use records::{Resolution, Severity};
pub use run::{Diagnostic, EmittedModule, Lto, LtoError, LtoOutput, LtoStats, NativeObject};
pub use summary::{ModuleRefs, RefSource};

/// Whether this build of weld can read bitcode and run LTO (the `llvm`
/// feature).
pub const AVAILABLE: bool = cfg!(feature = "llvm");

/// The error every entry point returns when weld was built without LLVM.
pub const NO_LLVM: &str = "weld was built without LLVM; bitcode inputs are not supported";

/// `name` demangled by LLVM's demangler (Itanium C++, Rust, D, Microsoft),
/// exactly as lld prints symbols and matches `extern "C++"` version script
/// patterns; `None` when `name` is not a mangled name LLVM understands, or
/// without the `llvm` feature (callers fall back to their own demangler).
pub fn demangle(name: &[u8]) -> Option<String> {
    let d = ffi::demangle(name)?;
    (d.as_bytes() != name).then_some(d)
}

/// The failure of LLVM that was contained (a crash by a signal, a fatal error
/// or an allocation failure inside LLVM, while reading a bitcode file or
/// running LTO), as one complete message naming the input: `None` if there
/// was none. After one, LLVM is not used again: every later call into it
/// fails, so this message is the one to report, alone.
pub fn llvm_failure() -> Option<String> {
    ffi::llvm_failure()
}

/// Ends the process with `code` without running exit-time destructors, which
/// after a contained failure would run over LLVM's abandoned state. Flush what
/// must be flushed first.
pub fn exit_after_llvm_failure(code: i32) -> ! {
    ffi::exit_now(code)
}

/// Writes at `path` the index file lld writes for a bitcode input that did
/// not join the link (an archive member nothing extracted): an empty summary
/// index flagged so that a distributed backend skips the module.
pub fn write_empty_thin_index(path: &std::path::Path) -> Result<(), String> {
    ffi::write_empty_index(path)
}

/// The version of the LLVM library weld runs against (e.g. `"22.1.8"`), or
/// `None` without the `llvm` feature. For `--version` output and bug reports.
pub fn llvm_version() -> Option<&'static str> {
    ffi::llvm_version()
}
