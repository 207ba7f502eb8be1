//! weld: an ELF linker for x86-64 Linux. See ARCHITECTURE.md in the shared folder for the design.
//!
//! The pipeline, one module per concern: `args` (command line) -> `resolve` (inputs and symbols)
//! -> `relocations::scan` -> `layout` -> `writer`.

pub mod arch;
pub mod cet;
pub mod cli;
pub mod compress;
pub mod config;
pub mod demangle;
pub mod driver;
pub mod error;
pub mod glob;
pub mod icf;
pub mod input;
pub mod layout;
pub mod liveness;
pub mod order;
pub mod output;
pub mod relocations;
pub mod report;
pub mod resolve;
pub mod synthetic;
pub mod write;
