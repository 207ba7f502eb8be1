//! The order of input sections inside output sections: the symbol ordering file, the call
//! graph profile (`call_graph_sort`), balanced partitioning (`bp_section_order`) and
//! `--shuffle-sections`, combined in `section_order`.

pub mod bp_section_order;
pub mod call_graph_sort;
pub mod section_order;
