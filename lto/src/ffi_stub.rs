//! Stand-in for `ffi.rs` when the crate is built without the `llvm` feature:
//! the same internal API, where every constructor fails with
//! [`crate::NO_LLVM`] and the handle types cannot exist.

use crate::config::LtoConfig;
use crate::records::{InputData, Resolution, Severity, SummaryGraph};
use crate::NO_LLVM;

pub(crate) fn demangle(_name: &[u8]) -> Option<String> {
    None
}

pub(crate) fn balanced_partitioning(
    _ids: &[u64],
    _starts: &[usize],
    _uns: &[u32],
) -> Result<Vec<u64>, String> {
    Err(NO_LLVM.to_string())
}

pub(crate) fn read_temporal_traces(_path: &[u8]) -> Result<Vec<u8>, String> {
    Err(NO_LLVM.to_string())
}

pub(crate) fn llvm_failure() -> Option<String> {
    None
}

pub(crate) fn exit_now(code: i32) -> ! {
    std::process::exit(code)
}

pub(crate) fn llvm_version() -> Option<&'static str> {
    None
}

pub(crate) fn write_empty_index(_path: &std::path::Path) -> Result<(), String> {
    Err(NO_LLVM.to_string())
}

/// Uninhabited: no input can be opened without LLVM.
pub(crate) enum RawInput {}

/// Uninhabited: no LTO object can be created without LLVM.
pub(crate) enum RawLto {}

// Mirrors the real handles, which free LLVM objects on drop, so code that
// orders drops explicitly reads the same in both builds.
impl Drop for RawInput {
    fn drop(&mut self) {
        match *self {}
    }
}

impl Drop for RawLto {
    fn drop(&mut self) {
        match *self {}
    }
}

pub(crate) fn open_input(_bytes: &[u8], _module_id: &str) -> Result<(RawInput, InputData), String> {
    Err(NO_LLVM.to_string())
}

pub(crate) fn set_input_origin(input: &mut RawInput, _archive: &[u8], _member: &[u8], _fat: bool) {
    match *input {}
}

pub(crate) fn read_summary(raw: &RawInput) -> Result<SummaryGraph, String> {
    match *raw {}
}

pub(crate) fn read_asm(raw: &RawInput) -> Result<Vec<String>, String> {
    match *raw {}
}

pub(crate) fn lto_new(_cfg: &LtoConfig) -> Result<RawLto, String> {
    Err(NO_LLVM.to_string())
}

pub(crate) fn lto_add(
    lto: &mut RawLto,
    _input: RawInput,
    _res: &[Resolution],
) -> Result<(), String> {
    match *lto {}
}

/// See `ffi.rs`.
pub(crate) struct RawOutput {
    pub tasks: Vec<(Vec<u8>, String, bool)>,
    pub bitcode: Vec<Vec<u8>>,
    pub cache_hits: u32,
    pub diagnostics: Vec<(Severity, String)>,
}

pub(crate) fn lto_run(lto: &mut RawLto) -> Result<RawOutput, Vec<String>> {
    match *lto {}
}

pub(crate) fn runtime_libcalls(_triple: &str) -> Result<Vec<String>, String> {
    Err(NO_LLVM.to_string())
}

pub(crate) fn set_options(_args: &[String]) -> Result<(), String> {
    Err(NO_LLVM.to_string())
}
