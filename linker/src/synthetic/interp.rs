//! `.interp`: the dynamic loader's path, in a dynamically linked executable.

use crate::config::{Config, OutputKind};
use crate::output::sections::{Synthetic, SyntheticChunk, ALLOC};
use object::elf;

/// The section's contents (NUL-terminated), empty when the output has none: only a dynamic
/// executable has one, and not under `--no-dynamic-linker`.
pub fn contents(config: &Config, dynamic_output: bool) -> Vec<u8> {
    match (&config.dynamic_linker, config.no_dynamic_linker) {
        (Some(p), false) if dynamic_output && config.output_kind == OutputKind::Executable => {
            let mut v = p.as_bytes().to_vec();
            v.push(0);
            v
        }
        _ => Vec::new(),
    }
}

/// The chunk for `contents` (none when empty).
pub fn chunk(contents: &[u8]) -> Option<SyntheticChunk> {
    (!contents.is_empty()).then_some(SyntheticChunk {
        kind: Synthetic::Interp,
        osec: ".interp",
        sh_type: elf::SHT_PROGBITS,
        flags: ALLOC,
        size: contents.len() as u64,
        align: 1,
    })
}
