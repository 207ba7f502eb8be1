//! Writing the output: the image, its headers and every chunk (`writer`, which has each
//! synthetic section write itself and `crate::relocations::apply` relocate the input
//! sections), the relocations `--emit-relocs` keeps (`emit_relocs`), `-r`'s relocatable
//! output (`relocatable`) and its flat image under `--oformat=binary` (`flat_relocatable`).

pub mod emit_relocs;
pub mod flat_relocatable;
pub mod relocatable;
pub mod writer;
