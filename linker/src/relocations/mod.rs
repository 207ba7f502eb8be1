//! Relocations: the scan before layout (`scan`: which GOT, PLT and dynamic relocation entries
//! the output needs, and the relaxation decisions), their application once addresses are final
//! (`apply`, which takes the same decisions again), and the code rewrites decided between the
//! two (`code_rewrites`).

pub mod apply;
pub mod code_rewrites;
pub mod scan;
