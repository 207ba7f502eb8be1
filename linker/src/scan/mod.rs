//! The relocation scan before layout (`relocations`): which GOT, PLT and dynamic relocation
//! entries the output needs; and the code rewrites decided between the scan and the write
//! (`code_rewrites`).

pub mod code_rewrites;
pub mod relocations;
