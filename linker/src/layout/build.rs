//! The layout itself: input sections grouped into output sections in lld's creation order,
//! merged sections merged, the synthetic sections planned and sized, sections ordered by lld's
//! ranks; then `addresses` and `linker_defined` finish the [`Layout`].

use super::addresses::{assign_addresses, segment_class};
use super::linker_defined::{define_synthetic_symbols, entry_address};
use super::{DebugIndexes, EhLayout, EhPiece, EhSection, Layout};
use crate::arch::x86_64 as arch;
use crate::code_rewrites::CodeRewrites;
use crate::config::OutputKind;
use crate::config::{Config, Strip};
use crate::dyn_relocs::dyn_reloc_format;
use crate::dyn_relocs::{encode_android_rela, encode_relr, packs_as_relr};
use crate::eh_frame;
use crate::emit_relocs::{emitted_reloc_target, link_reloc_sections};
use crate::error::Result;
use crate::icf::Folding;
use crate::input_files::{FileId, SectionKind};
use crate::merge;
use crate::output_sections::{
    Chunk, ChunkKind, OutputSection, Synthetic, RELA_SIZE, REL_SIZE, SYM_SIZE,
};
use crate::relocations::{target_of, GotKind, ScanResult};
use crate::resolve::Resolved;
use crate::section_order::SectionOrder;
use crate::section_rules::{align_to, init_priority, is_relro, section_rank};
use crate::symbol_table::SymKey;
use crate::symbol_table::{SymbolDef, SymbolId};
use crate::synthetic::{build_id, symtab};
use crate::{bail, err};
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela, SectionHeader, Sym};
use object::LittleEndian as LE;
use rayon::prelude::*;

/// What the phases between liveness and layout decided, which layout places and the writer
/// uses: the sections `--icf` folded, the order of input sections, the debug indexes, the CET
/// features. (The
/// code rewrites come separately: they change between the layouts of one link.)
#[derive(Clone, Copy)]
pub struct Decided<'a> {
    pub folding: &'a Folding,
    pub order: &'a SectionOrder,
    pub debug_indexes: &'a DebugIndexes,
    /// The x86 features every object has (`GNU_PROPERTY_X86_FEATURE_1_AND`, `crate::cet`):
    /// the output's `.note.gnu.property` and the PLT's shape.
    pub and_features: u32,
}

/// How many dynamic relocations go where (for `.dynamic`).
#[derive(Clone, Copy)]
struct DynRelocCounts {
    /// Entries of `.rela.dyn`.
    rela: u64,
    /// Of those, `R_X86_64_RELATIVE` (`DT_RELACOUNT`).
    relative: u64,
    /// Relative relocations packed in `.relr.dyn`.
    relr: u64,
}

/// `.note.package`'s note type (the FDO packaging metadata note).
pub const NT_FDO_PACKAGING_METADATA: u32 = 0xcafe_1a7e;

/// `SHT_ANDROID_RELR` and its dynamic tags (`--use-android-relr-tags`).
const SHT_ANDROID_RELR: u32 = 0x6fff_ff00;
/// `SHT_ANDROID_RELA` and its dynamic tags (`--pack-dyn-relocs=android`).
pub const SHT_ANDROID_RELA: u32 = 0x6000_0002;
const DT_ANDROID_RELA: u32 = 0x6000_0011;
const DT_ANDROID_RELASZ: u32 = 0x6000_0012;
/// gABI's `DT_RELR*` (the `object` crate does not name them).
const DT_RELRSZ: u32 = 35;
const DT_RELR: u32 = 36;
const DT_RELRENT: u32 = 37;
const DT_ANDROID_RELR: u32 = 0x6fff_e000;
const DT_ANDROID_RELRSZ: u32 = 0x6fff_e001;
const DT_ANDROID_RELRENT: u32 = 0x6fff_e003;

/// The `.comment` string weld adds, as lld adds "Linker: LLD ...".
pub const LINKER_COMMENT: &[u8] = b"Linker: weld 0.1.0\0";

struct Builder {
    /// `--unique`: every input section gets an output section of its own.
    unique: bool,
    sections: Vec<OutputSection>,
    by_name: HashMap<String, u32>,
    merge_groups: HashMap<(&'static str, u64, u64, u64), u32>,
    /// The last output section [`Builder::osec`] returned: consecutive input sections mostly go
    /// to the same one, which then costs no hash lookup.
    last: Option<(&'static str, u32)>,
    merge_inputs: Vec<Vec<(FileId, u32)>>,
    merge_osec: Vec<u32>,
}

impl Builder {
    /// The output section an input section goes to: the one of its name, or under `--unique`
    /// a new one (the first of a name stays the one found by name).
    fn input_osec(&mut self, name: &str, sh_type: u32, flags: u64) -> u32 {
        if !self.unique {
            return self.osec(name, sh_type, flags);
        }
        let i = self.sections.len() as u32;
        self.sections.push(OutputSection::new(
            name,
            sh_type,
            flags & !u64::from(elf::SHF_GROUP),
        ));
        self.by_name.entry(name.to_string()).or_insert(i);
        i
    }

    fn osec(&mut self, name: &str, sh_type: u32, flags: u64) -> u32 {
        let known = match self.last {
            Some((last, i)) if last == name => Some(i),
            _ => self.by_name.get(name).copied(),
        };
        if let Some(i) = known {
            let os = &mut self.sections[i as usize];
            // lld merges flags; a PROGBITS input turns a NOBITS output into PROGBITS.
            os.flags |= flags & !u64::from(elf::SHF_GROUP);
            if os.sh_type == elf::SHT_NOBITS && sh_type != elf::SHT_NOBITS {
                os.sh_type = sh_type;
            }
            return i;
        }
        let i = self.sections.len() as u32;
        self.sections.push(OutputSection::new(
            name,
            sh_type,
            flags & !u64::from(elf::SHF_GROUP),
        ));
        self.by_name.insert(name.to_string(), i);
        i
    }
}

/// The padding `--randomize-section-padding` puts before each chunk of each output section
/// (`section_order::random_padding` over the allocated sections and their PT_LOADs).
fn random_padding(config: &Config, seed: u64, sections: &[OutputSection]) -> Vec<Vec<u64>> {
    let mut load = 0u32;
    let mut class = None;
    let mut described = Vec::new();
    let mut index = Vec::new();
    for (i, os) in sections.iter().enumerate() {
        let tbss = os.is_nobits() && os.flags & u64::from(elf::SHF_TLS) != 0;
        if !os.is_alloc() || tbss {
            continue;
        }
        let c = segment_class(config, os);
        if class.is_some_and(|k| k != c) {
            load += 1;
        }
        class = Some(c);
        let aligns = os.chunks.iter().map(|c| c.align.max(1)).collect();
        described.push((os.name.as_str(), load, aligns));
        index.push(i);
    }
    let drawn = crate::section_order::random_padding(seed, config.max_page_size(), &described);
    let mut pads: Vec<Vec<u64>> = sections.iter().map(|os| vec![0; os.chunks.len()]).collect();
    for (i, p) in index.into_iter().zip(drawn) {
        pads[i] = p;
    }
    pads
}

/// The command line's section order (`Resolved::section_order`): in each output section the
/// input sections with a priority come first, by priority, and the others follow in input
/// order, as lld sorts them (`.init` and `.fini` never). lld has already turned mergeable
/// inputs into one merged section then, which has no priority: merged chunks, like the
/// linker's own, count as unordered.
fn apply_section_order(b: &mut Builder, order: &HashMap<(FileId, u32), i64>) {
    for os in b.sections.iter_mut() {
        if os.name == ".init" || os.name == ".fini" {
            continue;
        }
        os.chunks.sort_by_key(|c| match c.kind {
            ChunkKind::Input { file, sec } => match order.get(&(file, sec)) {
                Some(&p) => (false, p),
                None => (true, 0),
            },
            _ => (true, 0),
        });
    }
}

/// Lays out the output.
pub fn layout(
    config: &Config,
    res: &Resolved,
    scan: ScanResult,
    decided: &Decided,
    rewrites: &CodeRewrites,
) -> Result<Layout> {
    let Decided {
        folding,
        order,
        debug_indexes,
        and_features,
    } = *decided;
    let mut b = Builder {
        unique: config.unique,
        sections: Vec::new(),
        by_name: HashMap::new(),
        merge_groups: HashMap::new(),
        last: None,
        merge_inputs: Vec::new(),
        merge_osec: Vec::new(),
    };
    let strip_debug = config.strip != Strip::None;
    let nfiles = res.files.len();
    let mut sec_osec: Vec<Vec<u32>> = res
        .files
        .iter()
        .map(|f| vec![u32::MAX; f.sections.len()])
        .collect();
    let mut merge_of = HashMap::new();
    let mut has_comment_input = false;

    // 1. Assign input sections to output sections, in input order (creation order matters).
    for (fi, file) in res.files.iter().enumerate() {
        for (si, sec) in file.sections.iter().enumerate() {
            // -z nosectionheader: lld leaves out what only section headers would describe.
            if !config.z.section_header && !sec.is_alloc() {
                continue;
            }
            let name = sec.name;
            if crate::synthetic::gdb_index::drops_input_section(config, name)
                || crate::synthetic::debug_names::drops_input_section(config, sec)
            {
                continue;
            }
            let oname =
                crate::section_rules::output_name_of(&config.z, sec.name_str(), sec.output_name);
            match sec.kind {
                // lld: the output's own build ID replaces an input's (an `-r` output made with
                // `--build-id` has one), which would otherwise come first in the same section.
                SectionKind::Regular
                    if name == b".note.gnu.build-id"
                        && config.build_id != crate::config::BuildId::None =>
                {
                    continue
                }
                SectionKind::Regular => {}
                SectionKind::Merge => {
                    // --strip-debug drops mergeable debug strings too (.debug_str, .debug_line_str).
                    if strip_debug && !sec.is_alloc() && name.starts_with(b".debug") {
                        continue;
                    }
                    let osec = b.input_osec(oname, sec.sh_type(), sec.flags());
                    b.last = Some((oname, osec));
                    let key = (oname, sec.flags(), sec.shdr.sh_entsize(LE), sec.align());
                    b.sections[osec as usize].add_input_entsize(sec.shdr.sh_entsize(LE));
                    // Under --unique each input's pieces are merged among themselves only.
                    let shared = if b.unique {
                        None
                    } else {
                        b.merge_groups.get(&key).copied()
                    };
                    let g = match shared {
                        Some(g) => g,
                        None => {
                            let g = b.merge_inputs.len() as u32;
                            b.merge_groups.insert(key, g);
                            b.merge_inputs.push(Vec::new());
                            b.merge_osec.push(osec);
                            b.sections[osec as usize].chunks.push(Chunk {
                                kind: ChunkKind::Merged(g),
                                offset: 0,
                                size: 0,
                                align: 1,
                            });
                            g
                        }
                    };
                    let idx = b.merge_inputs[g as usize].len() as u32;
                    b.merge_inputs[g as usize].push((fi as FileId, si as u32));
                    merge_of.insert((fi as FileId, si as u32), (g, idx));
                    sec_osec[fi][si] = osec;
                    continue;
                }
                SectionKind::Comment => {
                    // lld creates .comment where the first input .comment appears.
                    if !has_comment_input {
                        let flags = u64::from(elf::SHF_MERGE | elf::SHF_STRINGS);
                        b.osec(".comment", elf::SHT_PROGBITS, flags);
                    }
                    has_comment_input = true;
                    continue;
                }
                // Under `--emit-relocs` lld makes `.eh_frame` as an orphan where the first input
                // `.eh_frame` appears, not with the other linker-made sections.
                SectionKind::EhFrame if config.emit_relocs => {
                    b.osec(".eh_frame", elf::SHT_PROGBITS, u64::from(elf::SHF_ALLOC));
                    continue;
                }
                // lld makes the `.rela<name>` output section where the relocation section
                // appears in its file, so it comes in creation order among the orphans.
                SectionKind::Ignored if config.emit_relocs && sec.sh_type() == elf::SHT_RELA => {
                    if let Some(target) = emitted_reloc_target(config, file, sec) {
                        let tname = crate::section_rules::output_name_of(
                            &config.z,
                            file.sections[target].name_str(),
                            file.sections[target].output_name,
                        );
                        let osec = b.osec(
                            &format!(".rela{tname}"),
                            elf::SHT_RELA,
                            u64::from(elf::SHF_INFO_LINK),
                        );
                        let n = file.sections[target].relocs.len() as u64;
                        b.sections[osec as usize].chunks.push(Chunk {
                            kind: ChunkKind::Relocs {
                                file: fi as FileId,
                                sec: target as u32,
                            },
                            offset: 0,
                            size: n * RELA_SIZE,
                            align: 8,
                        });
                    }
                    continue;
                }
                _ => continue,
            }
            if strip_debug
                && !sec.is_alloc()
                && (name.starts_with(b".debug") || name.starts_with(b".zdebug"))
            {
                continue;
            }
            let mut sh_type = sec.sh_type();
            if oname == ".init_array" && sh_type == elf::SHT_PROGBITS {
                sh_type = elf::SHT_INIT_ARRAY;
            }
            if oname == ".fini_array" && sh_type == elf::SHT_PROGBITS {
                sh_type = elf::SHT_FINI_ARRAY;
            }
            let osec = b.input_osec(oname, sh_type, sec.flags());
            b.last = Some((oname, osec));
            b.sections[osec as usize].add_input_entsize(sec.shdr.sh_entsize(LE));
            b.sections[osec as usize].chunks.push(Chunk {
                kind: ChunkKind::Input {
                    file: fi as FileId,
                    sec: si as u32,
                },
                offset: 0,
                // `--optimize-bb-jumps` may have cut a jump off the end.
                size: sec.size() - rewrites.dropped(fi as FileId, si as u32),
                // A section that others were folded into meets their alignment too.
                align: folding.align_of(fi as FileId, si as u32, sec.align()),
            });
            sec_osec[fi][si] = osec;
        }
    }
    let _ = has_comment_input;
    // A folded section is placed where the one kept in its place is.
    for (&(f, s), &(kf, ks)) in &folding.repl {
        sec_osec[f as usize][s as usize] = sec_osec[kf as usize][ks as usize];
    }
    if !order.sections.is_empty() {
        apply_section_order(&mut b, &order.sections);
    }
    // Which of the init/fini arrays the output has (DT_*_ARRAY tags name them).
    let arrays_present = INIT_FINI_ARRAYS.map(|name| b.by_name.contains_key(name));
    // Output sections are created by name from here on; the cache served the loop above.
    b.last = None;

    // init/fini arrays run in priority order.
    for os in b.sections.iter_mut() {
        if os.name == ".init_array" || os.name == ".fini_array" || os.name == ".preinit_array" {
            os.chunks.sort_by_key(|c| match c.kind {
                ChunkKind::Input { file, sec } => {
                    init_priority(res.files[file as usize].sections[sec as usize].name_str())
                }
                _ => 65536,
            });
        }
    }

    // 2. Merge SHF_MERGE pieces.
    let mut merged = Vec::with_capacity(b.merge_inputs.len());
    let mut merge_inputs = Vec::with_capacity(b.merge_inputs.len());
    for inputs in &b.merge_inputs {
        let mut mi = Vec::with_capacity(inputs.len());
        for &(f, s) in inputs {
            let file = &res.files[f as usize];
            let sec = &file.sections[s as usize];
            let ctx = |e: crate::error::Error| err!("{}:({}): {}", file.name, sec.name_str(), e);
            let entsize = sec.shdr.sh_entsize(LE);
            merge::check_merge_section(sec.flags(), sec.size(), entsize).map_err(ctx)?;
            let pieces = if sec.flags() & u64::from(elf::SHF_STRINGS) != 0 {
                merge::split_strings(sec.data, entsize.max(1) as usize)
            } else {
                merge::split_fixed(sec.data, entsize.max(1) as usize)
            }
            .map_err(ctx)?;
            let mut input = merge::MergeInput::new(sec.data, pieces, sec.align());
            // Under --gc-sections lld keeps only the pieces live code refers to.
            if config.gc_sections && sec.is_alloc() {
                input.set_all_live(false);
            }
            mi.push(input);
        }
        merge_inputs.push(mi);
    }
    if config.gc_sections {
        mark_live_pieces(res, &merge_of, &mut merge_inputs);
    }
    for mi in &merge_inputs {
        merged.push(merge::merge(mi)?);
    }
    for (g, m) in merged.iter().enumerate() {
        let osec = b.merge_osec[g] as usize;
        for c in b.sections[osec].chunks.iter_mut() {
            if c.kind == ChunkKind::Merged(g as u32) {
                c.size = m.size;
                c.align = m.align;
            }
        }
    }

    // 3. .eh_frame: keep CIEs once, FDEs whose function survives.
    let eh = build_eh_frame(res)?;

    // 4. Synthetic sections, in lld's creation order.
    let is_pic = config.is_pic();
    let static_pie = is_pic && config.is_static;
    let mut synthetic_index = HashMap::new();
    let mut add_synth = |b: &mut Builder,
                         name: &str,
                         sh_type: u32,
                         flags: u64,
                         kind: Synthetic,
                         size: u64,
                         align: u64| {
        let osec = b.osec(name, sh_type, flags);
        let c = b.sections[osec as usize].chunks.len() as u32;
        b.sections[osec as usize].chunks.push(Chunk {
            kind: ChunkKind::Synthetic(kind),
            offset: 0,
            size,
            align,
        });
        synthetic_index.insert(kind, (osec, c));
    };
    let a = u64::from(elf::SHF_ALLOC);
    let w = u64::from(elf::SHF_WRITE);
    let x = u64::from(elf::SHF_EXECINSTR);

    let build_id_size = build_id::note_size(config);
    if build_id_size > 0 {
        add_synth(
            &mut b,
            ".note.gnu.build-id",
            elf::SHT_NOTE,
            a,
            Synthetic::BuildId,
            build_id_size,
            4,
        );
    }
    if let Some(text) = &config.package_metadata {
        // Name "FDO\0", then the text and its NUL, padded to 4 bytes.
        let desc = align_to(text.len() as u64 + 1, 4);
        add_synth(
            &mut b,
            ".note.package",
            elf::SHT_NOTE,
            a,
            Synthetic::PackageNote,
            16 + desc,
            4,
        );
    }
    // lld makes the merged property note after its other notes (and input notes come
    // first), so among the notes it comes last.
    let gnu_property =
        crate::cet::gnu_property_note(and_features, crate::cet::isa_needed(config, res));
    if !gnu_property.is_empty() {
        add_synth(
            &mut b,
            ".note.gnu.property",
            elf::SHT_NOTE,
            a,
            Synthetic::GnuProperty,
            gnu_property.len() as u64,
            8,
        );
    }
    let dynamic_output = crate::symbol_flags::is_dynamic(config, res);
    let has_dynamic = dynamic_output || static_pie;
    let dyn_tables = if has_dynamic {
        crate::synthetic::dynsym::build_tables(config, res, &scan)
    } else {
        crate::layout::DynTables::default()
    };
    let interp: Vec<u8> = match (&config.dynamic_linker, config.no_dynamic_linker) {
        (Some(p), false) if dynamic_output && config.output_kind == OutputKind::Executable => {
            let mut v = p.as_bytes().to_vec();
            v.push(0);
            v
        }
        _ => Vec::new(),
    };
    if !interp.is_empty() {
        add_synth(
            &mut b,
            ".interp",
            elf::SHT_PROGBITS,
            a,
            Synthetic::Interp,
            interp.len() as u64,
            1,
        );
    }
    if has_dynamic {
        let nsyms = dyn_tables.dynsym.len() as u64 + 1;
        add_synth(
            &mut b,
            ".dynsym",
            elf::SHT_DYNSYM,
            a,
            Synthetic::DynSym,
            nsyms * SYM_SIZE,
            8,
        );
        if !dyn_tables.versym.is_empty() {
            let size = dyn_tables.versym.len() as u64 * 2;
            add_synth(
                &mut b,
                ".gnu.version",
                elf::SHT_GNU_VERSYM,
                a,
                Synthetic::GnuVersion,
                size,
                2,
            );
        }
        if !dyn_tables.verdef.is_empty() {
            let size = dyn_tables.verdef.len() as u64;
            add_synth(
                &mut b,
                ".gnu.version_d",
                elf::SHT_GNU_VERDEF,
                a,
                Synthetic::GnuVersionD,
                size,
                4,
            );
        }
        if !dyn_tables.verneed.is_empty() {
            let size = dyn_tables.verneed.len() as u64;
            add_synth(
                &mut b,
                ".gnu.version_r",
                elf::SHT_GNU_VERNEED,
                a,
                Synthetic::GnuVersionR,
                size,
                4,
            );
        }
        if !dyn_tables.gnu_hash.is_empty() {
            let size = dyn_tables.gnu_hash.len() as u64;
            add_synth(
                &mut b,
                ".gnu.hash",
                elf::SHT_GNU_HASH,
                a,
                Synthetic::GnuHash,
                size,
                8,
            );
        }
        if !dyn_tables.sysv_hash.is_empty() {
            let size = dyn_tables.sysv_hash.len() as u64;
            add_synth(&mut b, ".hash", elf::SHT_HASH, a, Synthetic::Hash, size, 4);
        }
        let size = dyn_tables.dynstr.len() as u64;
        add_synth(
            &mut b,
            ".dynstr",
            elf::SHT_STRTAB,
            a,
            Synthetic::DynStr,
            size,
            1,
        );
    }
    // Only a dynamic output has a loader to unpack relocations: a static executable's
    // IRELATIVE relocations stay plain RELA for the C library's startup code.
    let android_rela = config.pack_dyn_relocs_android && has_dynamic;
    let relr_count = scan
        .dyn_relocs
        .iter()
        .filter(|d| packs_as_relr(config, res, d))
        .count() as u64;
    let rela_dyn_count = scan.dyn_relocs.len() as u64 - relr_count;
    let relative_count = scan
        .dyn_relocs
        .iter()
        .filter(|r| matches!(r.kind, crate::relocations::DynKind::Relative { .. }))
        .count() as u64
        - relr_count;
    // As lld: an empty .rela.dyn is removed, dynamic output or not.
    if rela_dyn_count > 0 || android_rela {
        // Android's packed format is sized once addresses are known (`size_packed_relocs`).
        let (rel_type, entsize, dyn_name, _) = dyn_reloc_format(config);
        let (sh_type, size) = if android_rela {
            (SHT_ANDROID_RELA, 0)
        } else {
            (rel_type, rela_dyn_count * entsize)
        };
        add_synth(&mut b, dyn_name, sh_type, a, Synthetic::RelaDyn, size, 8);
    }
    if relr_count > 0 {
        // Sized once addresses are known (`size_packed_relocs`); at most one word per relocation.
        let sh_type = if config.use_android_relr_tags {
            SHT_ANDROID_RELR
        } else {
            elf::SHT_RELR
        };
        add_synth(
            &mut b,
            ".relr.dyn",
            sh_type,
            a,
            Synthetic::RelrDyn,
            relr_count * 8,
            8,
        );
    }
    if !scan.plt.is_empty() {
        let (rel_type, entsize, _, plt_name) = dyn_reloc_format(config);
        let size = scan.plt.len() as u64 * entsize;
        let flags = a | u64::from(elf::SHF_INFO_LINK);
        add_synth(
            &mut b,
            plt_name,
            rel_type,
            flags,
            Synthetic::RelaPlt,
            size,
            8,
        );
    }
    if config.eh_frame_hdr && eh.size > 0 {
        let size = 12 + 8 * eh.fde_count;
        add_synth(
            &mut b,
            ".eh_frame_hdr",
            elf::SHT_PROGBITS,
            a,
            Synthetic::EhFrameHdr,
            size,
            4,
        );
    }
    if eh.size > 0 {
        add_synth(
            &mut b,
            ".eh_frame",
            elf::SHT_PROGBITS,
            a,
            Synthetic::EhFrame,
            eh.size,
            8,
        );
    }
    // With IBT claimed, lld splits the PLT in two: the lazy halves in a `.plt` of their own,
    // made first, and the entries calls go to in `.plt.sec`. lld does so even under
    // `-z retpolineplt`, whose PLT then goes to `.plt.sec` and leaves `.plt` zero-filled.
    let style = plt_style(config, and_features);
    let ibt_sections = and_features & elf::GNU_PROPERTY_X86_FEATURE_1_IBT != 0;
    if ibt_sections && !scan.plt.is_empty() {
        let size = 16 + scan.plt.len() as u64 * style.entry_size();
        add_synth(
            &mut b,
            ".plt",
            elf::SHT_PROGBITS,
            a | x,
            Synthetic::IbtPlt,
            size,
            16,
        );
    }
    // The retpoline `.iplt` entries jump into the PLT's header, so it exists for them alone.
    if !scan.plt.is_empty() || (config.z.retpolineplt && !scan.iplt.is_empty()) {
        let size = style.header_size() + scan.plt.len() as u64 * style.entry_size();
        add_synth(
            &mut b,
            if ibt_sections { ".plt.sec" } else { ".plt" },
            elf::SHT_PROGBITS,
            a | x,
            Synthetic::Plt,
            size,
            16,
        );
    }
    if !scan.iplt.is_empty() {
        let size = scan.iplt.len() as u64 * style.entry_size();
        add_synth(
            &mut b,
            ".iplt",
            elf::SHT_PROGBITS,
            a | x,
            Synthetic::Iplt,
            size,
            16,
        );
    }
    // The tag list's length is fixed now; values are filled after addresses are assigned.
    let dynamic = if has_dynamic {
        dynamic_tags(
            config,
            res,
            &dyn_tables,
            &scan,
            arrays_present,
            &|_| Some((0, 0)),
            &|_| None,
            DynRelocCounts {
                rela: rela_dyn_count,
                relative: relative_count,
                relr: relr_count,
            },
        )
    } else {
        Vec::new()
    };
    if has_dynamic {
        let size = dynamic.len() as u64 * 16;
        add_synth(
            &mut b,
            ".dynamic",
            elf::SHT_DYNAMIC,
            if config.z.rodynamic { a } else { a | w },
            Synthetic::Dynamic,
            size,
            8,
        );
    }
    if scan.got_slots > 0 {
        let size = u64::from(scan.got_slots) * 8;
        add_synth(
            &mut b,
            ".got",
            elf::SHT_PROGBITS,
            a | w,
            Synthetic::Got,
            size,
            8,
        );
    }
    // As lld: without a RELRO section there is no PT_GNU_RELRO, so nothing to pad.
    let has_relro = b
        .sections
        .iter()
        .any(|os| !os.chunks.is_empty() && is_relro(&config.z, &os.name, os.sh_type, os.flags));
    if config.z.relro && has_relro {
        add_synth(
            &mut b,
            ".relro_padding",
            elf::SHT_NOBITS,
            a | w,
            Synthetic::RelroPadding,
            0,
            1,
        );
    }
    // .got.plt: three reserved words, one slot per PLT entry, then one per IPLT entry. lld
    // creates the reserved words whenever something needs a GOT base or a PLT exists; the
    // IPLT's slots alone (a static program without GOT-relative references) do without them.
    let needs_gotplt =
        // needs_got_base reads every relocation: asked last.
        !scan.plt.is_empty() || needs_got_base(res);
    if needs_gotplt {
        let size = 24 + scan.plt.len() as u64 * 8;
        add_synth(
            &mut b,
            ".got.plt",
            elf::SHT_PROGBITS,
            a | w,
            Synthetic::GotPlt,
            size,
            8,
        );
    }
    // IFUNC slots are a piece of their own after the PLT slots (lld's .igot.plt).
    if !scan.iplt.is_empty() {
        let size = scan.iplt.len() as u64 * 8;
        add_synth(
            &mut b,
            ".got.plt",
            elf::SHT_PROGBITS,
            a | w,
            Synthetic::IgotPlt,
            size,
            8,
        );
    }
    // Copy relocations reserve room for shared data the executable refers to directly: one
    // section per copied definition, as lld makes them, so that addresses match lld's. lld
    // creates them walking its symbol table (symbol id order here); a definition reached
    // through an alias already copied (same library, same address) shares that copy. Copies
    // of read-only data go to .bss.rel.ro (made read-only after relocation), the rest to
    // .bss; both after the input sections already there.
    let mut copy_group = vec![0u32; scan.copies.len()];
    let mut copy_groups: Vec<Vec<SymbolId>> = Vec::new();
    let mut copy_chunk: Vec<(u32, u32)> = Vec::new();
    {
        let mut by_symbol: Vec<u32> = (0..scan.copies.len() as u32).collect();
        by_symbol.sort_by_key(|&n| scan.copies[n as usize]);
        let mut group_of_def: HashMap<(u32, u64), u32> = HashMap::new();
        for n in by_symbol {
            let g = scan.copies[n as usize];
            let (def, relro) = match res.symtab.get(g).def {
                SymbolDef::Shared { file, index } => {
                    let f = &res.shared[file as usize];
                    let value = f
                        .dynsyms
                        .get(index as usize)
                        .map_or(0, |s| s.st_value(object::LittleEndian));
                    (Some((file, value)), f.in_read_only_section(index as usize))
                }
                _ => (None, false),
            };
            if let Some(&k) = def.as_ref().and_then(|d| group_of_def.get(d)) {
                copy_group[n as usize] = k;
                copy_groups[k as usize].push(g);
                continue;
            }
            let k = copy_groups.len() as u32;
            if let Some(d) = def {
                group_of_def.insert(d, k);
            }
            copy_group[n as usize] = k;
            copy_groups.push(vec![g]);
            let (size, align) = crate::symbol_flags::shared_symbol_size_align(res, g);
            let name = if relro { ".bss.rel.ro" } else { ".bss" };
            let osec = b.osec(name, elf::SHT_NOBITS, a | w);
            let chunks = &mut b.sections[osec as usize].chunks;
            copy_chunk.push((osec, chunks.len() as u32));
            chunks.push(Chunk {
                kind: ChunkKind::Copy(k),
                offset: 0,
                size: size.max(1),
                align,
            });
        }
    }
    // Each common symbol gets a `COMMON` section of its own at the start of .bss, as lld makes
    // them before reading any object's sections (order: `Resolved::commons_in_order`). Those
    // `--gc-sections` collected get none.
    let commons: Vec<(SymbolId, u64, u64)> = res
        .commons_in_order()
        .into_iter()
        .filter(|id| !res.collected_commons.contains(id))
        .filter_map(|id| match res.symtab.get(id).def {
            SymbolDef::Common { size, align, .. } => Some((id, size, align)),
            _ => None,
        })
        .collect();
    let mut common_index = HashMap::new();
    // (.bss, number of commons): the chunks already there move up behind the commons.
    let mut commons_shift = None;
    if !commons.is_empty() {
        let osec = b.osec(".bss", elf::SHT_NOBITS, a | w);
        commons_shift = Some((osec, commons.len() as u32));
        let chunks = commons.iter().map(|&(id, size, align)| Chunk {
            kind: ChunkKind::Common(id),
            offset: 0,
            size,
            align: align.max(1),
        });
        b.sections[osec as usize].chunks.splice(0..0, chunks);
        // Ordered commons join the ordered input sections of `.bss` (already in front). Only
        // the commons and those move, so the linker's chunks behind them keep their indices.
        if !order.commons.is_empty() {
            b.sections[osec as usize].chunks.sort_by_key(|c| {
                let p = match c.kind {
                    ChunkKind::Input { file, sec } => order.sections.get(&(file, sec)),
                    ChunkKind::Common(id) => order.commons.get(&id),
                    _ => None,
                };
                p.map_or((true, 0), |&p| (false, p))
            });
        }
        for (c, chunk) in b.sections[osec as usize].chunks.iter().enumerate() {
            if let ChunkKind::Common(id) = chunk.kind {
                common_index.insert(id, (osec, c as u32));
            }
        }
    }
    let mut comment = LINKER_COMMENT.to_vec();
    let mut seen_comments: hashbrown::HashSet<&[u8]> = hashbrown::HashSet::new();
    seen_comments.insert(LINKER_COMMENT);
    for f in &res.files {
        for s in &f.sections {
            if s.kind == SectionKind::Comment {
                for piece in s.data.split_inclusive(|&c| c == 0) {
                    if piece.len() > 1 && seen_comments.insert(piece) {
                        comment.extend_from_slice(piece);
                        if piece.last() != Some(&0) {
                            comment.push(0);
                        }
                    }
                }
            }
        }
    }
    if config.z.section_header {
        add_synth(
            &mut b,
            ".comment",
            elf::SHT_PROGBITS,
            u64::from(elf::SHF_MERGE | elf::SHF_STRINGS),
            Synthetic::Comment,
            comment.len() as u64,
            1,
        );
    }
    // lld adds the indexes after its other linker-made sections, so they follow the debug
    // sections (`.debug_names` first).
    if let Some(names) = debug_indexes
        .debug_names
        .as_ref()
        .filter(|_| config.z.section_header)
    {
        add_synth(
            &mut b,
            ".debug_names",
            elf::SHT_PROGBITS,
            0,
            Synthetic::DebugNames,
            names.size(),
            4,
        );
    }
    if let Some(index) = debug_indexes
        .gdb_index
        .as_ref()
        .filter(|_| config.z.section_header)
    {
        add_synth(
            &mut b,
            ".gdb_index",
            elf::SHT_PROGBITS,
            0,
            Synthetic::GdbIndex,
            index.size(),
            1,
        );
    }
    if let Some(&(os, _)) = synthetic_index.get(&Synthetic::Comment) {
        b.sections[os as usize].entsize = 1;
    }
    if let Some((osec, n)) = commons_shift {
        for v in synthetic_index.values_mut().chain(copy_chunk.iter_mut()) {
            if v.0 == osec {
                v.1 += n;
            }
        }
    }

    // 5. Order sections.
    // The `.eh_frame` made early for `--emit-relocs` stays out if no record was kept, as a
    // linker-made section with nothing in it.
    let mut order: Vec<u32> = (0..b.sections.len() as u32)
        .filter(|&i| {
            let s = &b.sections[i as usize];
            !(config.emit_relocs && s.name == ".eh_frame" && s.chunks.is_empty())
        })
        .collect();
    // As lld: sections given an address by `--section-start` come first, by address.
    order.sort_by_key(|&i| {
        let s = &b.sections[i as usize];
        let start = s
            .is_alloc()
            .then(|| config.section_start(&s.name))
            .flatten();
        (
            start.is_none(),
            start.unwrap_or(0),
            section_rank(&config.z, &s.name, s.sh_type, s.flags),
        )
    });
    // Non-alloc synthetic tables go last: .symtab, .shstrtab, .strtab.
    let mut sections: Vec<OutputSection> = Vec::with_capacity(order.len() + 3);
    let mut remap = vec![0u32; b.sections.len()];
    for (new, &old) in order.iter().enumerate() {
        remap[old as usize] = new as u32;
        let mut os = b.sections[old as usize].clone();
        // mold's --section-align=NAME=ALIGN raises an output section's alignment.
        if let Some(&(_, align)) = config
            .section_align
            .iter()
            .rev()
            .find(|(n, _)| *n == os.name)
        {
            os.align = os.align.max(align);
        }
        sections.push(os);
    }
    for v in synthetic_index.values_mut() {
        v.0 = remap[v.0 as usize];
    }
    for v in common_index.values_mut().chain(copy_chunk.iter_mut()) {
        v.0 = remap[v.0 as usize];
    }
    for row in sec_osec.iter_mut() {
        for o in row.iter_mut() {
            if *o != u32::MAX {
                *o = remap[*o as usize];
            }
        }
    }
    let strip_all = config.strip == Strip::All;
    let mut push_table =
        |sections: &mut Vec<OutputSection>, name: &str, ty: u32, kind: Synthetic, align: u64| {
            let mut os = OutputSection::new(name, ty, 0);
            os.align = align;
            os.chunks.push(Chunk {
                kind: ChunkKind::Synthetic(kind),
                offset: 0,
                size: 0,
                align,
            });
            synthetic_index.insert(kind, (sections.len() as u32, 0));
            sections.push(os);
        };
    if !strip_all {
        push_table(
            &mut sections,
            ".symtab",
            elf::SHT_SYMTAB,
            Synthetic::Symtab,
            8,
        );
    }
    if config.z.section_header {
        push_table(
            &mut sections,
            ".shstrtab",
            elf::SHT_STRTAB,
            Synthetic::Shstrtab,
            1,
        );
    }
    if !strip_all {
        push_table(
            &mut sections,
            ".strtab",
            elf::SHT_STRTAB,
            Synthetic::Strtab,
            1,
        );
    }

    // Drop output sections that ended up with nothing in them? lld keeps empty input-backed
    // sections (e.g. .tm_clone_table), so only empty synthetic ones are removed, by not creating them.

    // 6. Sizes of output sections (chunk offsets), with `--randomize-section-padding`'s gaps.
    let padding = config
        .randomize_section_padding
        .map(|seed| random_padding(config, seed, &sections));
    for (oi, os) in sections.iter_mut().enumerate() {
        let mut off = 0u64;
        let mut align = os.align.max(1);
        for (ci, c) in os.chunks.iter_mut().enumerate() {
            off += padding.as_ref().map_or(0, |p| p[oi][ci]);
            off = align_to(off, c.align.max(1));
            c.offset = off;
            off += c.size;
            align = align.max(c.align.max(1));
        }
        os.size = off;
        os.align = align;
        if os.sh_type == elf::SHT_RELA {
            os.entsize = RELA_SIZE;
        }
        if os.sh_type == elf::SHT_REL {
            os.entsize = REL_SIZE;
        }
        if os.sh_type == SHT_ANDROID_RELA {
            os.entsize = 1;
        }
        if os.sh_type == elf::SHT_RELR || os.sh_type == SHT_ANDROID_RELR {
            os.entsize = 8;
        }
        if os.sh_type == elf::SHT_DYNAMIC {
            os.entsize = 16;
        }
        if os.sh_type == elf::SHT_DYNSYM || os.sh_type == elf::SHT_SYMTAB {
            os.entsize = SYM_SIZE;
        }
    }

    // `--emit-relocs`: an STT_SECTION symbol for each output section an input relocation may
    // point into, in creation order, grouped with the file of its first input section.
    let section_syms = if config.emit_relocs {
        symtab::section_symbols(&b.sections, &remap)
    } else {
        Vec::new()
    };
    let referenced_locals = if config.emit_relocs {
        symtab::relocated_locals(config, res, &sec_osec)
    } else {
        hashbrown::HashSet::new()
    };

    // 7. Symbol table contents (names only; values come at write time) and string tables.
    let mut strtab = vec![0u8];
    let mut symtab = Vec::new();
    let mut symtab_first_global = 1u32;
    if !strip_all {
        symtab::build(
            res,
            &sec_osec,
            &merge_of,
            config.discard,
            &section_syms,
            &referenced_locals,
            &mut symtab,
            &mut strtab,
            &mut symtab_first_global,
        );
        let (os, _) = synthetic_index[&Synthetic::Symtab];
        let n = (symtab.len() as u64 + 1) * SYM_SIZE;
        sections[os as usize].set_synthetic_size(n);
        let (os2, _) = synthetic_index[&Synthetic::Strtab];
        sections[os2 as usize].set_synthetic_size(strtab.len() as u64);
    }
    let mut shstrtab = vec![0u8];
    let mut name_offsets = HashMap::new();
    for os in &sections {
        if !name_offsets.contains_key(&os.name) {
            name_offsets.insert(os.name.clone(), shstrtab.len() as u32);
            shstrtab.extend_from_slice(os.name.as_bytes());
            shstrtab.push(0);
        }
    }
    if let Some(&(os, _)) = synthetic_index.get(&Synthetic::Shstrtab) {
        sections[os as usize].set_synthetic_size(shstrtab.len() as u64);
    }
    for (i, os) in sections.iter_mut().enumerate() {
        os.shndx = i as u32 + 1;
    }
    let symtab_index = config.emit_relocs.then(|| {
        link_reloc_sections(res, &mut sections, &sec_osec, &synthetic_index);
        symtab::indices(&symtab)
    });
    // An SHF_LINK_ORDER output section (`.llvm_bb_addr_map`, `__patchable_function_entries`)
    // links to the output section of its first input's linked section, as lld sets it.
    for i in 0..sections.len() {
        if sections[i].flags & u64::from(elf::SHF_LINK_ORDER) == 0 {
            continue;
        }
        let linked = sections[i].chunks.iter().find_map(|c| match c.kind {
            ChunkKind::Input { file, sec } => {
                let s = res.files[file as usize].sections.get(sec as usize)?;
                let target = s.shdr.sh_link(LE) as usize;
                sec_osec[file as usize]
                    .get(target)
                    .copied()
                    .filter(|&o| o != u32::MAX)
            }
            _ => None,
        });
        if let Some(o) = linked {
            sections[i].link = sections[o as usize].shndx;
        }
    }

    // 8. Segments and addresses.
    let mut lay = Layout {
        debug_indexes: debug_indexes.clone(),
        folded: folding.repl.clone(),
        rewrites: rewrites.clone(),
        sections,
        segments: Vec::new(),
        sec_addr: res
            .files
            .iter()
            .map(|f| vec![u64::MAX; f.sections.len()])
            .collect(),
        sec_osec,
        merge_of,
        merged,
        merge_inputs,
        merged_addr: Vec::new(),
        eh,
        global_value: vec![0; res.symtab.len()],
        global_size: vec![0; res.symtab.len()],
        common_index,
        synthetic_index,
        got_addr: 0,
        gotplt_addr: 0,
        iplt_addr: 0,
        tls_start: 0,
        tls_end_aligned: 0,
        tls_align: 1,
        entry: 0,
        file_size: 0,
        non_alloc_start: 0,
        shoff: 0,
        section_headers: config.z.section_header,
        inputs_want_execstack: config.z.execstack_if_needed
            && res.files.iter().any(|f| {
                f.sections.iter().any(|s| {
                    s.name == b".note.GNU-stack" && s.flags() & u64::from(elf::SHF_EXECINSTR) != 0
                })
            }),
        symtab,
        symtab_first_global,
        strtab,
        shstrtab,
        comment,
        gnu_property,
        dynamic,
        rela_dyn_count,
        relative_count,
        relr: Vec::new(),
        relr_words: Vec::new(),
        android_rela: None,
        scan,
        dyn_tables,
        dynamic_output,
        interp,
        copy_group,
        copy_groups,
        copy_chunk,
        plt_addr: 0,
        ibt_plt_addr: 0,
        plt_style: style,
        synthetic_section: HashMap::new(),
        symtab_index,
    };
    let _ = nfiles;
    assign_addresses(config, &mut lay)?;
    lay.fill_addresses(res);
    if relr_count > 0 || android_rela {
        size_packed_relocs(config, res, &mut lay, android_rela)?;
    }
    define_synthetic_symbols(config, res, &mut lay)?;
    // lld refuses impossible compression requests before it looks for the entry point.
    crate::compress::check_sections(
        config,
        lay.sections.iter().map(|s| (s.name.as_str(), s.flags)),
    )?;
    lay.entry = entry_address(config, res, &lay)?;
    if has_dynamic {
        let synth = |k: Synthetic| -> Option<(u64, u64)> {
            let name = match k {
                Synthetic::PreinitArray => Some(".preinit_array"),
                Synthetic::InitArray => Some(".init_array"),
                Synthetic::FiniArray => Some(".fini_array"),
                _ => None,
            };
            if let Some(n) = name {
                return lay
                    .sections
                    .iter()
                    .find(|s| s.name == n)
                    .map(|s| (s.addr, s.size));
            }
            let addr = lay.synthetic_address(k)?;
            let (_, size) = lay.synthetic_offset(k)?;
            Some((addr, size))
        };
        let sym = |n: &[u8]| res.symtab.lookup(n).map(|id| lay.global_value[id as usize]);
        let tags = dynamic_tags(
            config,
            res,
            &lay.dyn_tables,
            &lay.scan,
            arrays_present,
            &synth,
            &sym,
            DynRelocCounts {
                rela: lay.rela_dyn_count,
                relative: lay.relative_count,
                relr: lay.relr.len() as u64,
            },
        );
        lay.dynamic = tags;
    }
    let _ = name_offsets;
    Ok(lay)
}

/// Marks the pieces of merged sections that live sections (and symbols) refer to.
fn mark_live_pieces(
    res: &Resolved,
    merge_of: &HashMap<(FileId, u32), (u32, u32)>,
    inputs: &mut [Vec<merge::MergeInput<'static>>],
) {
    // The piece a symbol (plus addend) points into: (merge group, input, offset). Most
    // relocations point elsewhere; the section kind says so before any hash lookup.
    let piece_of = |file: FileId, index: usize, addend: i64| -> Option<(u32, u32, u64)> {
        let f = &res.files[file as usize];
        let sym = f.symbols.get(index)?;
        let shndx = f.sym_section(index)?;
        if f.sections.get(shndx)?.kind != SectionKind::Merge {
            return None;
        }
        let &(g, i) = merge_of.get(&(file, shndx as u32))?;
        // A section symbol's addend selects the piece; a named symbol's value does.
        let off = if sym.st_type() == elf::STT_SECTION {
            sym.st_value(LE).wrapping_add(addend as u64)
        } else {
            sym.st_value(LE)
        };
        Some((g, i, off))
    };
    // Files are read in parallel (their relocations are the bulk of the work); the marks are
    // applied afterwards, in file order.
    let per_file: Vec<Vec<(u32, u32, u64)>> = res
        .files
        .par_iter()
        .enumerate()
        .map(|(fi, f)| {
            let mut marks = Vec::new();
            for s in &f.sections {
                // Only live allocated code and data keep pieces (debug info does not, as in lld).
                if !matches!(s.kind, SectionKind::Regular | SectionKind::Merge) || !s.is_alloc() {
                    continue;
                }
                for r in s.relocs {
                    let sym = r.r_sym(LE, false) as usize;
                    let piece = match res.global_of(fi as FileId, sym) {
                        Some(g) => match res.symtab.get(g).def {
                            SymbolDef::Defined { file, index } => piece_of(file, index as usize, 0),
                            _ => None,
                        },
                        None => piece_of(fi as FileId, sym, r.r_addend(LE)),
                    };
                    marks.extend(piece);
                }
            }
            marks
        })
        .collect();
    let mut mark = |piece: Option<(u32, u32, u64)>| {
        if let Some((g, i, off)) = piece {
            inputs[g as usize][i as usize].mark_live(off);
        }
    };
    for piece in per_file.into_iter().flatten() {
        mark(Some(piece));
    }
    // Exported symbols defined in merged sections keep their pieces.
    for &id in &res.exported_definitions {
        if let SymbolDef::Defined { file, index } = res.symtab.get(id).def {
            mark(piece_of(file, index as usize, 0));
        }
    }
}

/// The packed tables' sizes (`.relr.dyn`, and `.rela.dyn` in Android's format) depend on the
/// addresses they encode, and those addresses move with the sizes: lay out again until both
/// encodings fit. As lld, a table never shrinks once it has grown (a shorter encoding is
/// padded: empty RELR bitmaps, zero bytes after APS2), so this ends.
fn size_packed_relocs(
    config: &Config,
    res: &Resolved,
    lay: &mut Layout,
    android_rela: bool,
) -> Result<()> {
    let relr_os = lay.synthetic_index.get(&Synthetic::RelrDyn).map(|x| x.0);
    let rela_os = lay
        .synthetic_index
        .get(&Synthetic::RelaDyn)
        .map(|x| x.0)
        .filter(|_| android_rela);
    let mut rounds = 0;
    loop {
        let first_round = rounds == 0;
        // A size fits if it is exact, or (after the first round) larger than needed.
        let fits = |need: u64, have: u64| need == have || (!first_round && need < have);
        let mut ok = true;
        let mut places: Vec<u64> = lay
            .scan
            .dyn_relocs
            .iter()
            .filter(|d| packs_as_relr(config, res, d))
            .map(|d| lay.dyn_place_address(d.place))
            .collect();
        places.sort_unstable();
        let words = encode_relr(&places);
        if let Some(os) = relr_os {
            let (need, have) = (words.len() as u64 * 8, lay.sections[os as usize].size);
            if !fits(need, have) {
                ok = false;
                lay.sections[os as usize].set_synthetic_size(need);
            }
        }
        let mut packed = None;
        if let Some(os) = rela_os {
            let records = lay.rela_dyn_records(config, res, &lay.address_map(res));
            let bytes = encode_android_rela(&records);
            let (need, have) = (bytes.len() as u64, lay.sections[os as usize].size);
            if !fits(need, have) {
                ok = false;
                lay.sections[os as usize].set_synthetic_size(need);
            }
            packed = Some(bytes);
        }
        if ok {
            let mut words = words;
            if let Some(os) = relr_os {
                // An odd word without bits relocates nothing.
                words.resize((lay.sections[os as usize].size / 8) as usize, 1);
            }
            lay.relr = places;
            lay.relr_words = words;
            lay.android_rela = packed;
            return Ok(());
        }
        rounds += 1;
        if rounds > 32 {
            bail!("internal error: the packed dynamic relocations' size does not converge");
        }
        assign_addresses(config, lay)?;
        lay.fill_addresses(res);
    }
}

fn needs_got_base(res: &Resolved) -> bool {
    if res
        .symtab
        .lookup(b"_GLOBAL_OFFSET_TABLE_")
        .is_some_and(|id| res.symtab.get(id).referenced)
    {
        return true;
    }
    for f in &res.files {
        for s in &f.sections {
            if !matches!(s.kind, SectionKind::Regular | SectionKind::Merge) {
                continue;
            }
            for r in s.relocs {
                match r.r_type(LE, false) {
                    elf::R_X86_64_GOTPC32
                    | elf::R_X86_64_GOTPC64
                    | elf::R_X86_64_GOTOFF64
                    | elf::R_X86_64_GOT32
                    | elf::R_X86_64_GOT64
                    | elf::R_X86_64_GOTPC32_TLSDESC => return true,
                    _ => {}
                }
            }
        }
    }
    false
}

/// lld's PLT layout for this link: retpolines when asked for, else IBT when the output claims it.
fn plt_style(config: &Config, and_features: u32) -> arch::PltStyle {
    arch::PltStyle::choose(
        config.z.retpolineplt,
        config.z.now,
        and_features & elf::GNU_PROPERTY_X86_FEATURE_1_IBT != 0,
    )
}

/// The merged `.note.gnu.property`: the AND of every object's x86 feature bits (IBT, SHSTK) as
/// `cet::read_security_notes` computed it (with `-z force-ibt` and `-z shstk`), as lld emits
/// it; absent when the result is zero.
/// Splits every `.eh_frame` input, drops FDEs of discarded functions and deduplicates CIEs. The
/// output follows lld: each CIE followed by its FDEs, then one zero terminator.
fn build_eh_frame(res: &Resolved) -> Result<EhLayout> {
    type CieKey = (&'static [u8], Vec<(u32, Option<SymKey>, i64)>);
    let mut eh = EhLayout::default();
    let mut cie_ids: HashMap<CieKey, usize> = HashMap::new();
    // For each distinct CIE: its first record, and the FDEs that use it (indices into `pieces`).
    let mut cies: Vec<(u32, Vec<u32>)> = Vec::new();
    for (fi, f) in res.files.iter().enumerate() {
        let fid = fi as FileId;
        for (si, s) in f.sections.iter().enumerate() {
            if s.kind != SectionKind::EhFrame {
                continue;
            }
            let records = eh_frame::split_eh_frame(s.data).map_err(|e| {
                e.into_error(&format!("{}:(.eh_frame)", f.name), |off| {
                    format!("{}:(.eh_frame+0x{off:x})", f.name)
                })
            })?;
            let mut sec = EhSection {
                out_start: 0,
                pieces: Vec::new(),
            };
            let mut local_cies: HashMap<u32, usize> = HashMap::new();
            for rec in records {
                let start = rec.offset as usize;
                let end = start + rec.size as usize;
                let rels = s.relocs_in(start as u64, end as u64);
                match rec.kind {
                    eh_frame::EhRecordKind::Cie => {
                        let key_rels: Vec<(u32, Option<SymKey>, i64)> = rels
                            .iter()
                            .map(|r| {
                                let sym = r.r_sym(LE, false) as usize;
                                let k = if sym == 0 {
                                    None
                                } else {
                                    Some(target_of(res, fid, sym).key)
                                };
                                ((r.r_offset(LE) - start as u64) as u32, k, r.r_addend(LE))
                            })
                            .collect();
                        let key = (&s.data[start..end], key_rels);
                        let id = match cie_ids.get(&key) {
                            Some(&id) => id,
                            None => {
                                let idx = eh.pieces.len() as u32;
                                eh.pieces.push(EhPiece {
                                    file: fid,
                                    sec: si as u32,
                                    in_offset: rec.offset,
                                    size: rec.size,
                                    out_offset: 0,
                                    cie_out: None,
                                });
                                let id = cies.len();
                                cies.push((idx, Vec::new()));
                                cie_ids.insert(key, id);
                                id
                            }
                        };
                        local_cies.insert(rec.offset, id);
                        sec.pieces.push(cies[id].0);
                    }
                    eh_frame::EhRecordKind::Fde { cie_offset } => {
                        // The FDE's relocation at pc_begin names its function.
                        let Some(first) = rels.iter().find(|r| r.r_offset(LE) == start as u64 + 8)
                        else {
                            continue;
                        };
                        if !fde_target_alive(res, fid, first.r_sym(LE, false) as usize) {
                            continue;
                        }
                        let Some(&cie) = local_cies.get(&cie_offset) else {
                            bail!(
                                "{}:(.eh_frame+0x{:x}): FDE refers to an invalid CIE",
                                f.name,
                                rec.offset
                            );
                        };
                        let idx = eh.pieces.len() as u32;
                        eh.pieces.push(EhPiece {
                            file: fid,
                            sec: si as u32,
                            in_offset: rec.offset,
                            size: rec.size,
                            out_offset: 0,
                            cie_out: Some(0),
                        });
                        cies[cie].1.push(idx);
                        sec.pieces.push(idx);
                        eh.fde_count += 1;
                    }
                }
            }
            eh.sections.insert((fid, si as u32), sec);
        }
    }
    let mut out = 0u64;
    for (cie, fdes) in &cies {
        let cie_out = out;
        eh.pieces[*cie as usize].out_offset = out;
        out += u64::from(eh.pieces[*cie as usize].size);
        for &fde in fdes {
            let p = &mut eh.pieces[fde as usize];
            p.out_offset = out;
            p.cie_out = Some(cie_out);
            out += u64::from(p.size);
        }
    }
    // Pieces of FDEs that were dropped never got here; CIE pieces shared across sections are
    // referenced from each section's list, so a section's list is not sorted by output offset.
    eh.size = if out == 0 { 0 } else { out + 4 };
    Ok(eh)
}

fn fde_target_alive(res: &Resolved, file: FileId, sym: usize) -> bool {
    let (df, di) = match res.global_of(file, sym) {
        Some(g) => match res.symtab.get(g).def {
            SymbolDef::Defined { file, index } => (file, index as usize),
            _ => return false,
        },
        None => (file, sym),
    };
    let f = &res.files[df as usize];
    let Some(s) = f.symbols.get(di) else {
        return false;
    };
    let Some(shndx) = f.sym_section(di) else {
        return s.st_shndx(LE) == elf::SHN_ABS;
    };
    matches!(
        f.sections[shndx].kind,
        SectionKind::Regular | SectionKind::Merge
    )
}

/// The init/fini array output sections, in the order of [`dynamic_tags`]'s `arrays_present`.
const INIT_FINI_ARRAYS: [&str; 3] = [".preinit_array", ".init_array", ".fini_array"];

/// The `.dynamic` tags in lld's order. `arrays_present` says which of [`INIT_FINI_ARRAYS`] the
/// output has. `synth` gives a synthetic chunk's address and size,
/// `osec` an output section's, `sym` a defined symbol's value; during layout they are dummies
/// (only the number of tags matters then).
#[allow(clippy::too_many_arguments)]
fn dynamic_tags(
    config: &Config,
    res: &Resolved,
    t: &crate::layout::DynTables,
    scan: &ScanResult,
    arrays_present: [bool; 3],
    synth: &dyn Fn(Synthetic) -> Option<(u64, u64)>,
    sym: &dyn Fn(&[u8]) -> Option<u64>,
    counts: DynRelocCounts,
) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = Vec::new();
    let mut tag = |k: u32, val: u64| v.push((u64::from(k), val));
    // lld's order: filters, the run path, the needed libraries, the soname.
    for &n in &t.filters {
        tag(elf::DT_FILTER, u64::from(n));
    }
    for &n in &t.auxiliaries {
        tag(elf::DT_AUXILIARY, u64::from(n));
    }
    if let Some(rp) = t.runpath {
        tag(
            if config.enable_new_dtags {
                elf::DT_RUNPATH
            } else {
                elf::DT_RPATH
            },
            u64::from(rp),
        );
    }
    for &n in &t.needed {
        tag(elf::DT_NEEDED, u64::from(n));
    }
    if let Some(so) = t.soname {
        tag(elf::DT_SONAME, u64::from(so));
    }
    if let Some(a) = t.audit {
        tag(crate::shared_files::DT_AUDIT, u64::from(a));
    }
    if let Some(a) = t.depaudit {
        tag(crate::shared_files::DT_DEPAUDIT, u64::from(a));
    }
    let exe = config.output_kind == OutputKind::Executable;
    let mut flags = 0u64;
    let mut flags1 = 0u64;
    if config.z.now {
        flags |= u64::from(elf::DF_BIND_NOW);
        flags1 |= u64::from(elf::DF_1_NOW);
    }
    if config.z.origin {
        flags |= u64::from(elf::DF_ORIGIN);
        flags1 |= u64::from(elf::DF_1_ORIGIN);
    }
    if config.bsymbolic && !exe {
        flags |= u64::from(elf::DF_SYMBOLIC);
    }
    if !config.z.text {
        flags |= u64::from(elf::DF_TEXTREL);
    }
    // A shared object using initial-exec TLS needs static TLS space (lld's hasTlsIe).
    if config.output_kind == OutputKind::SharedObject
        && scan.got.iter().any(|&(_, k)| k == GotKind::TlsIe)
    {
        flags |= u64::from(elf::DF_STATIC_TLS);
    }
    for (on, bit) in [
        (config.z.global, elf::DF_1_GLOBAL),
        (config.z.initfirst, elf::DF_1_INITFIRST),
        (config.z.interpose, elf::DF_1_INTERPOSE),
        (config.z.nodefaultlib, elf::DF_1_NODEFLIB),
    ] {
        if on {
            flags1 |= u64::from(bit);
        }
    }
    if config.z.nodelete {
        flags1 |= u64::from(elf::DF_1_NODELETE);
    }
    if config.z.nodlopen {
        flags1 |= u64::from(elf::DF_1_NOOPEN);
    }
    if config.z.nodump {
        flags1 |= u64::from(elf::DF_1_NODUMP);
    }
    if exe && config.pie {
        flags1 |= u64::from(elf::DF_1_PIE);
    }
    if flags != 0 {
        tag(elf::DT_FLAGS, flags);
    }
    if flags1 != 0 {
        tag(elf::DT_FLAGS_1, flags1);
    }
    if exe && !config.z.rodynamic {
        tag(elf::DT_DEBUG, 0);
    }
    if let Some((addr, size)) = synth(Synthetic::RelaDyn).filter(|_| counts.rela > 0) {
        if config.pack_dyn_relocs_android {
            // As lld: the packed table's own tags, the entry size still, no count.
            tag(DT_ANDROID_RELA, addr);
            tag(DT_ANDROID_RELASZ, size);
            tag(elf::DT_RELAENT, RELA_SIZE);
        } else if config.z.rel {
            tag(elf::DT_REL, addr);
            tag(elf::DT_RELSZ, size);
            tag(elf::DT_RELENT, REL_SIZE);
            if counts.relative > 0 {
                tag(elf::DT_RELCOUNT, counts.relative);
            }
        } else {
            tag(elf::DT_RELA, addr);
            tag(elf::DT_RELASZ, size);
            tag(elf::DT_RELAENT, RELA_SIZE);
            if counts.relative > 0 {
                tag(elf::DT_RELACOUNT, counts.relative);
            }
        }
    }
    if let Some((addr, size)) = synth(Synthetic::RelrDyn).filter(|_| counts.relr > 0) {
        let (relr, relrsz, relrent) = if config.use_android_relr_tags {
            (DT_ANDROID_RELR, DT_ANDROID_RELRSZ, DT_ANDROID_RELRENT)
        } else {
            (DT_RELR, DT_RELRSZ, DT_RELRENT)
        };
        tag(relr, addr);
        tag(relrsz, size);
        tag(relrent, 8);
    }
    if !scan.plt.is_empty() {
        let (addr, size) = synth(Synthetic::RelaPlt).unwrap_or((0, 0));
        tag(elf::DT_JMPREL, addr);
        tag(elf::DT_PLTRELSZ, size);
        tag(elf::DT_PLTGOT, synth(Synthetic::GotPlt).map_or(0, |x| x.0));
        let format = if config.z.rel {
            elf::DT_REL
        } else {
            elf::DT_RELA
        };
        tag(elf::DT_PLTREL, u64::from(format));
    }
    tag(elf::DT_SYMTAB, synth(Synthetic::DynSym).map_or(0, |x| x.0));
    tag(elf::DT_SYMENT, SYM_SIZE);
    tag(elf::DT_STRTAB, synth(Synthetic::DynStr).map_or(0, |x| x.0));
    tag(elf::DT_STRSZ, t.dynstr.len() as u64);
    if !config.z.text {
        tag(elf::DT_TEXTREL, 0);
    }
    if !t.gnu_hash.is_empty() {
        tag(
            elf::DT_GNU_HASH,
            synth(Synthetic::GnuHash).map_or(0, |x| x.0),
        );
    }
    if !t.sysv_hash.is_empty() {
        tag(elf::DT_HASH, synth(Synthetic::Hash).map_or(0, |x| x.0));
    }
    let arrays = [
        (
            ".preinit_array",
            elf::DT_PREINIT_ARRAY,
            elf::DT_PREINIT_ARRAYSZ,
        ),
        (".init_array", elf::DT_INIT_ARRAY, elf::DT_INIT_ARRAYSZ),
        (".fini_array", elf::DT_FINI_ARRAY, elf::DT_FINI_ARRAYSZ),
    ];
    for ((name, at, sz), present) in arrays.into_iter().zip(arrays_present) {
        if name == ".preinit_array" && !exe {
            continue;
        }
        if present {
            let (addr, size) = synth_osec(synth, name);
            tag(at, addr);
            tag(sz, size);
        }
    }
    let defined = |n: &[u8]| {
        res.symtab
            .lookup(n)
            .is_some_and(|id| res.symtab.get(id).is_defined())
    };
    if defined(config.init.as_bytes()) {
        tag(elf::DT_INIT, sym(config.init.as_bytes()).unwrap_or(0));
    }
    if defined(config.fini.as_bytes()) {
        tag(elf::DT_FINI, sym(config.fini.as_bytes()).unwrap_or(0));
    }
    if !t.versym.is_empty() {
        tag(
            elf::DT_VERSYM,
            synth(Synthetic::GnuVersion).map_or(0, |x| x.0),
        );
    }
    if !t.verdef.is_empty() {
        tag(
            elf::DT_VERDEF,
            synth(Synthetic::GnuVersionD).map_or(0, |x| x.0),
        );
        tag(elf::DT_VERDEFNUM, u64::from(t.verdef_count));
    }
    if !t.verneed.is_empty() {
        tag(
            elf::DT_VERNEED,
            synth(Synthetic::GnuVersionR).map_or(0, |x| x.0),
        );
        tag(elf::DT_VERNEEDNUM, u64::from(t.verneed_count));
    }
    tag(elf::DT_NULL, 0);
    v
}

/// Output sections are looked up through the same closure by a pseudo-kind: the caller's
/// closure for `Synthetic::Comment` is never asked for arrays, so arrays use a separate path.
fn synth_osec(synth: &dyn Fn(Synthetic) -> Option<(u64, u64)>, name: &str) -> (u64, u64) {
    let kind = match name {
        ".preinit_array" => Synthetic::PreinitArray,
        ".init_array" => Synthetic::InitArray,
        _ => Synthetic::FiniArray,
    };
    synth(kind).unwrap_or((0, 0))
}
