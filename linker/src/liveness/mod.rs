//! Liveness: the reference graph walked before LTO and after it (`mark_live`), LTO told
//! what the walk found (`lto_link`), and the check that the walk saw every edge
//! (`verify_graph`).

pub mod gc_report;
pub mod lto_link;
pub mod mark_live;
pub mod verify_graph;
