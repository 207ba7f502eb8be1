//! Liveness: the reference graph walked before LTO and after it (`mark_live`), LTO told
//! what the walk found (`lto_link`), the check that the walk saw every edge (`verify_graph`),
//! and what it reports (`gc_report`: `--print-gc-sections`, `--why-live`).

pub mod gc_report;
pub mod lto_link;
pub mod mark_live;
pub mod verify_graph;
