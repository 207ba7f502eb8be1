//! What `--emit-relocs` adds to layout: a `.rela<name>` output section for each output section
//! whose inputs have relocations, made where lld makes them and linked to their targets.
//! Writing the relocations is `write::emit_relocs`.

use crate::config::{Config, Strip};
use crate::input::input_files::SectionKind;
use crate::output::sections::{ChunkKind, OutputSection, Synthetic};
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::read::elf::SectionHeader;
use object::LittleEndian as LE;

/// `--emit-relocs`: the section a relocation section applies to, when its relocations go to the
/// output: the section is copied to the output (not discarded, collected or stripped), or it
/// is an `.eh_frame` (whose relocations lld drops under `--gc-sections`, where the relocation
/// sections of `.eh_frame` are never marked live).
pub fn emitted_reloc_target(
    config: &Config,
    file: &crate::input::input_files::ObjectFile,
    rela: &crate::input::input_files::InputSection,
) -> Option<usize> {
    let target = rela.shdr.sh_info(LE) as usize;
    let t = file.sections.get(target)?;
    if t.relocs.is_empty() {
        return None;
    }
    if crate::synthetic::gdb_index::drops_input_section(config, t.name)
        || crate::synthetic::debug_names::drops_input_section(config, t)
    {
        return None;
    }
    match t.kind {
        SectionKind::Regular => {
            let debug = t.name.starts_with(b".debug") || t.name.starts_with(b".zdebug");
            (config.strip == Strip::None || t.is_alloc() || !debug).then_some(target)
        }
        SectionKind::EhFrame => (!config.gc_sections).then_some(target),
        _ => None,
    }
}

/// `--emit-relocs`: each `.rela<name>` links to `.symtab` and names the section it applies to.
pub fn link_reloc_sections(
    res: &Resolved,
    sections: &mut [OutputSection],
    sec_osec: &[Vec<u32>],
    synthetic_index: &HashMap<Synthetic, (u32, u32)>,
) {
    let symtab = synthetic_index
        .get(&Synthetic::Symtab)
        .map_or(0, |&(o, _)| sections[o as usize].shndx);
    let eh = synthetic_index
        .get(&Synthetic::EhFrame)
        .map(|&(o, _)| sections[o as usize].shndx);
    for i in 0..sections.len() {
        let Some(ChunkKind::Relocs { file, sec }) = sections[i].chunks.first().map(|c| c.kind)
        else {
            continue;
        };
        let target = if res.files[file as usize].sections[sec as usize].kind == SectionKind::EhFrame
        {
            eh.unwrap_or(0)
        } else {
            let o = sec_osec[file as usize][sec as usize];
            sections.get(o as usize).map_or(0, |s| s.shndx)
        };
        sections[i].link = symtab;
        sections[i].info = target;
    }
}
