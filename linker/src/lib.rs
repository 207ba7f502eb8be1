//! weld: an ELF linker for x86-64 Linux. See ARCHITECTURE.md in the shared folder for the design.

pub mod args;
pub mod config;
pub mod error;
pub mod library_search;
pub mod linker_script;
pub mod options;
