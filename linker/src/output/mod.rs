//! The output as layout plans it and the writer reads it: output sections and their chunks
//! (`sections`), merged sections (`merge`), what a linker script's `SECTIONS` adds
//! (`script_layout`), and the whole placement (`layout::Layout`).

pub mod layout;
pub mod merge;
pub mod script_layout;
pub mod sections;
