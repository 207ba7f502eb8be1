//! `.comment`: weld's own string, then every distinct string of the inputs' `.comment`
//! sections, as lld merges them.

use crate::config::Config;
use crate::input::input_files::SectionKind;
use crate::output::sections::{Synthetic, SyntheticChunk};
use crate::resolve::Resolved;
use object::elf;
use rayon::prelude::*;

/// The `.comment` string weld adds, as lld adds "Linker: LLD ...".
pub const LINKER_COMMENT: &[u8] = b"Linker: weld 0.1.0\0";

/// The section's contents: weld's string, then the inputs' strings, each once.
pub fn contents(res: &Resolved) -> Vec<u8> {
    let mut comment = LINKER_COMMENT.to_vec();
    let mut seen: hashbrown::HashSet<&[u8]> = hashbrown::HashSet::new();
    seen.insert(LINKER_COMMENT);
    // Finding the sections means looking at every input section: files in parallel.
    let sections: Vec<Vec<&[u8]>> = res
        .files
        .par_iter()
        .map(|f| {
            f.sections
                .iter()
                .filter(|s| s.kind == SectionKind::Comment)
                .map(|s| s.data)
                .collect()
        })
        .collect();
    for data in sections.into_iter().flatten() {
        for piece in data.split_inclusive(|&c| c == 0) {
            if piece.len() > 1 && seen.insert(piece) {
                comment.extend_from_slice(piece);
                if piece.last() != Some(&0) {
                    comment.push(0);
                }
            }
        }
    }
    comment
}

/// The chunk for `contents` (none under `-z nosectionheader`, which leaves out what only
/// section headers would describe).
pub fn chunk(config: &Config, contents: &[u8]) -> Option<SyntheticChunk> {
    config.z.section_header.then_some(SyntheticChunk {
        kind: Synthetic::Comment,
        osec: ".comment",
        sh_type: elf::SHT_PROGBITS,
        flags: u64::from(elf::SHF_MERGE | elf::SHF_STRINGS),
        size: contents.len() as u64,
        align: 1,
    })
}
