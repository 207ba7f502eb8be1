//! What a link reports about itself: the map file (`map_file`) and the other reports
//! (`link_reports`: `--why-extract`, `--cref`, `--time`, `--reproduce`, ...). The liveness
//! reports (`--print-gc-sections`, `--why-live`) are `crate::liveness::gc_report`.

pub mod link_reports;
pub mod map_file;
