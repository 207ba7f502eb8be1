//! The host side of the C library textkit: the `host_*` functions it requires, written in
//! Rust and compiled to LLVM bitcode with `-C linker-plugin-lto`.
//!
//! `io` holds what the program's live code path needs (memory and output); `report` holds the
//! hooks that only textkit's entry points unused by bench-textkit call (sorting, number
//! parsing, histogram and frequency-table reports).

pub mod io;
pub mod report;

pub use io::flush;
