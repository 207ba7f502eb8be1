//! `.relro_padding`: a `NOBITS` section after the last RELRO section that takes `PT_GNU_RELRO`
//! to the end of its page (`-z relro`), as lld makes it. Its size is known once
//! addresses are (`layout::addresses`); nothing is written.

use crate::config::Config;
use crate::input::section_rules::is_relro;
use crate::output::sections::{OutputSection, Synthetic, SyntheticChunk, ALLOC, WRITE};
use object::elf;

/// The chunk, with `-z relro` when the output has a RELRO section (without one there is no
/// `PT_GNU_RELRO`, so nothing to pad, as in lld).
pub fn chunk(config: &Config, sections: &[OutputSection]) -> Option<SyntheticChunk> {
    // `.tbss` is RELRO but in no PT_LOAD: alone, it makes no `PT_GNU_RELRO` (as in lld).
    let tbss = |os: &OutputSection| {
        os.sh_type == elf::SHT_NOBITS && os.flags & u64::from(elf::SHF_TLS) != 0
    };
    let has_relro = sections.iter().any(|os| {
        !os.chunks.is_empty() && !tbss(os) && is_relro(&config.z, &os.name, os.sh_type, os.flags)
    });
    (config.z.relro && has_relro).then_some(SyntheticChunk {
        kind: Synthetic::RelroPadding,
        osec: ".relro_padding",
        sh_type: elf::SHT_NOBITS,
        flags: ALLOC | WRITE,
        size: 0,
        align: 1,
    })
}
