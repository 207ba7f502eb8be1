//! What a link reports about itself: the map file (`map_file`), `--print-gc-sections` and
//! `--why-live` (`gc_report`), and the other reports (`link_reports`: `--why-extract`,
//! `--cref`, `--time`, ...).

pub mod link_reports;
pub mod map_file;
