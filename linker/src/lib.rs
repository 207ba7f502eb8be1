//! weld: an ELF linker for x86-64 Linux. `docs/architecture.md` describes the design: one folder
//! per phase of a link (`cli`, `resolve`, `liveness`, `order`, `relocations`, `layout`,
//! `synthetic`, `write`, `report`), and `driver` lists them in order.

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
pub mod mapping_faults;
pub mod order;
pub mod output;
pub mod prefetch;
pub mod relocations;
pub mod report;
pub mod resolve;
pub mod script;
pub mod synthetic;
pub mod write;
