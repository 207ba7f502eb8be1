//! `-r --oformat=binary`: ld.lld accepts the pair and writes a flat image of the relocatable
//! output (`crate::layout::flat_image` explains flat images). Nothing in a `-r` output has an
//! address, so every allocated section with bytes is at offset 0: a single one is the whole
//! image (its bytes as the object holds them, relocations unapplied), none gives an empty file,
//! and two or more collide, which lld reports as overlapping file ranges (the usual outcome).
//!
//! The relocatable object is rendered as usual and its sections read back, so that this takes
//! exactly the section contents `-r` writes.

use crate::error::Error;
use crate::layout::section_checks::{overlaps, Span};
use object::elf;
use object::read::elf::{ElfFile64, SectionHeader};
use object::{LittleEndian as LE, Object, ObjectSection};

/// The flat image of the relocatable ELF `image`, or lld's overlap errors.
pub fn from_relocatable(image: &[u8]) -> Result<Vec<u8>, Vec<Error>> {
    let internal = |e: object::Error| vec![Error(format!("internal error: -r output: {e}"))];
    let file = ElfFile64::<LE>::parse(image).map_err(internal)?;
    let mut loaded = Vec::new();
    for section in file.sections() {
        let header = section.elf_section_header();
        let flags = header.sh_flags(LE);
        if flags & u64::from(elf::SHF_ALLOC) == 0
            || header.sh_type(LE) == elf::SHT_NOBITS
            || header.sh_size(LE) == 0
        {
            continue;
        }
        let name = section.name().map_err(internal)?.to_string();
        let data = section.data().map_err(internal)?;
        loaded.push((name, data));
    }
    let spans = loaded
        .iter()
        .map(|(name, data)| Span {
            name,
            start: 0,
            size: data.len() as u64,
            in_overlay: false,
        })
        .collect();
    let errors = overlaps("file", spans, false);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(loaded.first().map_or_else(Vec::new, |(_, d)| d.to_vec()))
}
