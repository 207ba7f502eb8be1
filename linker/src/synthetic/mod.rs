//! The linker-made sections (lld's `SyntheticSections.cpp`), one module each: what the
//! section holds, its size, and how it is written. Layout asks each module for its size and
//! gives it a place; the writer asks it for its bytes.

pub mod build_id;
pub mod comment;
pub mod copy_relocs;
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
pub mod relro_padding;
pub mod shstrtab;
pub mod symtab;
pub mod versions;

/// The debug indexes built from the inputs before layout (`--gdb-index`, `--debug-names`):
/// layout gives them their sections, the writer fills them in with the final offsets.
#[derive(Default)]
pub struct DebugIndexes {
    pub gdb_index: Option<gdb_index::GdbIndex>,
    pub debug_names: Option<debug_names::DebugNames>,
}
