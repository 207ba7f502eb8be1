//! Reading the inputs: ELF objects and their sections (`input_files`), `--format=binary` blobs
//! (`binary_file`), shared libraries (`shared_files`), `-l` search (`library_search`), the
//! input-listing linker scripts (`linker_script`), version scripts (`version_script`), the
//! `.eh_frame` record format (`eh_frame`), DWARF source locations for diagnostics
//! (`debug_info`), and what a section's name and type say about where it goes
//! (`section_rules`).

pub mod binary_file;
pub mod debug_info;
pub mod eh_frame;
pub mod input_files;
pub mod library_search;
pub mod linker_script;
pub mod section_rules;
pub mod shared_files;
pub mod version_script;
