//! The linker-made sections (lld's `SyntheticSections.cpp`), one module each: what the
//! section holds, its size, and how it is written. Layout asks each module for its size and
//! gives it a place; the writer asks it for its bytes.

pub mod build_id;
pub mod debug_names;
pub mod dynsym;
pub mod gdb_index;
pub mod hash;
pub mod symtab;
pub mod versions;
