//! weld: an ELF linker for x86-64 Linux. See ARCHITECTURE.md in the shared folder for the design.

pub mod arch;
pub mod config;
pub mod error;
