//! The linker-made sections (lld's `SyntheticSections.cpp`), one module each: what the
//! section holds, its size, and how it is written. Layout asks each module for its size and
//! gives it a place; the writer asks it for its bytes.

pub mod build_id;
pub mod comment;
pub mod debug_names;
pub mod dyn_relocs;
pub mod dynamic;
pub mod dynsym;
pub mod eh_frame;
pub mod gdb_index;
pub mod got;
pub mod hash;
pub mod interp;
pub mod notes;
pub mod plt;
pub mod symtab;
pub mod versions;
