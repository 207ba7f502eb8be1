//! `.note.package` (`--package-metadata`: the FDO packaging metadata note) and
//! `.note.gnu.property` (the x86 features every input has, `crate::cet`).

use crate::config::Config;
use crate::input::section_rules::align_to;
use crate::output::sections::{put32, Synthetic, SyntheticChunk, ALLOC};
use object::elf;

/// `.note.package`'s note type.
pub const NT_FDO_PACKAGING_METADATA: u32 = 0xcafe_1a7e;

/// `.note.package`'s chunk, with `--package-metadata`.
pub fn package_chunk(config: &Config) -> Option<SyntheticChunk> {
    let text = config.package_metadata.as_ref()?;
    // Name "FDO\0", then the text and its NUL, padded to 4 bytes.
    let desc = align_to(text.len() as u64 + 1, 4);
    Some(SyntheticChunk {
        kind: Synthetic::PackageNote,
        osec: ".note.package",
        sh_type: elf::SHT_NOTE,
        flags: ALLOC,
        size: 16 + desc,
        align: 4,
    })
}

/// Writes `.note.package`.
pub fn write_package(config: &Config, buf: &mut [u8]) {
    let text = config.package_metadata.as_deref().unwrap_or("");
    buf.fill(0);
    put32(buf, 0, 4);
    put32(buf, 4, text.len() as u32 + 1);
    put32(buf, 8, NT_FDO_PACKAGING_METADATA);
    buf[12..15].copy_from_slice(b"FDO");
    buf[16..16 + text.len()].copy_from_slice(text.as_bytes());
}

/// `.note.gnu.property`'s chunk for the note `crate::cet::gnu_property_note` made (none when
/// it is empty).
pub fn property_chunk(note: &[u8]) -> Option<SyntheticChunk> {
    (!note.is_empty()).then_some(SyntheticChunk {
        kind: Synthetic::GnuProperty,
        osec: ".note.gnu.property",
        sh_type: elf::SHT_NOTE,
        flags: ALLOC,
        size: note.len() as u64,
        align: 8,
    })
}
