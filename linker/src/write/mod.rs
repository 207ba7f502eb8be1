//! Writing the output: the image and its headers (`writer`), relocations applied (`relocate`),
//! `--emit-relocs` (`emit_relocs`), section compression (`compress`), and `-r`'s relocatable
//! output (`relocatable`).

pub mod emit_relocs;
pub mod relocatable;
pub mod writer;
