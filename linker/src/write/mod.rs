//! Writing the output: the image, its headers and every chunk (`writer`, which has each
//! synthetic section write itself and `crate::relocations::apply` relocate the input
//! sections), the relocations `--emit-relocs` keeps (`emit_relocs`), and `-r`'s relocatable
//! output (`relocatable`).

pub mod emit_relocs;
pub mod relocatable;
pub mod writer;
