//! Layout: decide where everything goes. `build` groups input sections into output sections
//! from the command list (`commands`: lld's ranks and orphan rules, or a script's order) and
//! has each synthetic section (`crate::synthetic`) sized; `addresses` forms segments and gives
//! every section its address and file offset; `linker_defined` gives the linker's own symbols
//! their values; `relayout` says what a first layout changes in the next; `script_values` is
//! what script expressions read of a layout. Under a linker script's `SECTIONS`,
//! `script_sections` gives the described sections their types and chunk order and
//! `script_addresses` (with `script_segments` for program headers and offsets) replaces
//! `addresses`; `section_checks` is lld's last look at the result
//! (address space, overlaps). `flat_image` lays out `--oformat=binary`'s headerless image.
//! The result is `crate::output::layout::Layout`.
//! Nothing is written here.

pub mod addresses;
pub mod build;
pub mod commands;
pub mod flat_image;
pub mod linker_defined;
pub mod relayout;
pub mod reloc_sections;
pub mod script_addresses;
pub mod script_sections;
pub mod script_segments;
pub mod script_values;
pub mod section_checks;
