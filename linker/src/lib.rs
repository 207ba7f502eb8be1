//! weld: an ELF linker for x86-64 Linux. See ARCHITECTURE.md in the shared folder for the design.
//!
//! The pipeline, one module per concern: `args` (command line) -> `resolve` (inputs and symbols)
//! -> `relocations::scan` -> `layout` -> `writer`.

pub mod arch;
pub mod args;
pub mod bp_section_order;
pub mod call_graph_sort;
pub mod cet;
pub mod code_rewrites;
pub mod compress;
pub mod config;
pub mod debug_info;
pub mod demangle;
pub mod driver;
pub mod eh_frame;
pub mod emit_relocs;
pub mod error;
pub mod gc_report;
pub mod glob;
pub mod icf;
pub mod input_files;
pub mod layout;
pub mod libcalls;
pub mod library_search;
pub mod link_reports;
pub mod linker_script;
pub mod lto_link;
pub mod map_file;
pub mod mark_live;
pub mod merge;
pub mod option_docs;
pub mod option_values;
pub mod options;
pub mod output_sections;
pub mod parse_state;
pub mod relocatable;
pub mod relocate;
pub mod relocations;
pub mod resolve;
pub mod section_order;
pub mod section_rules;
pub mod shared_files;
pub mod symbol_flags;
pub mod symbol_table;
pub mod synthetic;
pub mod verify_graph;
pub mod version_script;
pub mod writer;
