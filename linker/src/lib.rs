//! weld: an ELF linker for x86-64 Linux. See ARCHITECTURE.md in the shared folder for the design.

pub mod config;
pub mod eh_frame;
pub mod error;
pub mod merge;
