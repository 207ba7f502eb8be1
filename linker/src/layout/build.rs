//! The layout itself: input sections grouped into output sections in lld's creation order,
//! merged sections merged, the synthetic sections planned and sized, sections ordered by lld's
//! ranks; then `addresses` and `linker_defined` finish the [`Layout`].

use super::addresses::{assign_addresses, segment_class};
use super::commands::{self, Placement, SectionCommands, Taken};
use super::flat_image;
use super::linker_defined::{define_synthetic_symbols, entry_address};
use super::reloc_sections::{emitted_reloc_target, link_reloc_sections};
use super::script_sections::TakenOther;
use crate::bail;
use crate::config::{Config, Strip};
use crate::err;
use crate::error::Result;
use crate::icf::Folding;
use crate::input::input_files::{FileId, InputSection, SectionKind};
use crate::input::section_rules::{align_to, init_priority, output_name_of, section_rank};
use crate::order::section_order::SectionOrder;
use crate::output::layout::{DynTables, Layout, StringTable};
use crate::output::merge;
use crate::output::script_layout::{Body, ScriptLayout};
use crate::output::sections::{
    Chunk, ChunkKind, OutputSection, Synthetic, SyntheticChunk, ALLOC, RELA_SIZE, REL_SIZE,
    SYM_SIZE, WRITE,
};
use crate::relocations::code_rewrites::CodeRewrites;
use crate::relocations::scan::ScanResult;
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use crate::script::matching::ScriptFileName;
use crate::synthetic::dyn_relocs::{SHT_ANDROID_RELA, SHT_ANDROID_RELR};
use crate::synthetic::DebugIndexes;
use crate::synthetic::{
    build_id, comment, copy_relocs, dyn_relocs, dynamic, dynsym, eh_frame, got, hash, interp,
    notes, plt, relro_padding, shstrtab, symtab, versions,
};
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela, SectionHeader, Sym};
use object::LittleEndian as LE;
use rayon::prelude::*;

/// What the phases between liveness and layout decided, which layout places and the writer
/// uses: the output-section commands, the sections `--icf` folded, the order of input
/// sections, the debug indexes, the CET features. (The code rewrites come separately: they
/// change between the layouts of one link.)
#[derive(Clone, Copy)]
pub struct Decided<'a> {
    /// The command list output sections are made from (the built-in one without a script).
    pub commands: &'a SectionCommands,
    pub folding: &'a Folding,
    pub order: &'a SectionOrder,
    pub debug_indexes: &'a DebugIndexes,
    /// The x86 features every object has (`GNU_PROPERTY_X86_FEATURE_1_AND`, `crate::cet`):
    /// the output's `.note.gnu.property` and the PLT's shape.
    pub and_features: u32,
}

struct Builder<'a> {
    /// `--unique`: every input section gets an output section of its own.
    unique: bool,
    sections: Vec<OutputSection>,
    by_name: HashMap<String, u32>,
    merge_groups: HashMap<(&'a str, u64, u64, u64), u32>,
    /// The last output section [`Builder::osec`] returned: consecutive input sections mostly go
    /// to the same one, which then costs no hash lookup.
    last: Option<(&'a str, u32)>,
    merge_inputs: Vec<Vec<(FileId, u32)>>,
    merge_osec: Vec<u32>,
}

impl Builder<'_> {
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
    let drawn =
        crate::order::section_order::random_padding(seed, config.max_page_size(), &described);
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

/// lld's rank bit for sections `--section-start` gives no address.
const RF_NOT_ADDR_SET: u32 = 1 << 27;

/// `--orphan-handling`: each input section no `SECTIONS` description takes is reported as lld
/// reports it (`a.o:(.text.x) is being placed in '.text'`), as a warning or an error.
#[derive(Default)]
struct OrphanReport {
    /// The errors (`--orphan-handling=error`), returned once all were seen: lld names every
    /// orphan, not only the first.
    errors: Vec<crate::error::Error>,
}

impl OrphanReport {
    fn report(&mut self, config: &Config, what: &str, name: &str) -> Result<()> {
        let msg = format!("{what} is being placed in '{name}'");
        match config.orphan_handling {
            crate::config::OrphanHandling::Place => Ok(()),
            crate::config::OrphanHandling::Warn => config.warn(&msg),
            crate::config::OrphanHandling::Error => {
                self.errors.push(crate::error::Error(msg));
                Ok(())
            }
        }
    }
}

/// An input section that goes to an output section as itself (lld's input sections: not
/// `.eh_frame`, whose records the linker rebuilds, nor metadata).
fn places_output(sec: &InputSection) -> bool {
    sec.kind.is_copied() || sec.kind == SectionKind::Comment
}

/// Where the commands put the input sections of one file (`None` for orphans), when a
/// `SECTIONS` command is given: computed as each file's sections go to output sections, read
/// again when each output section's chunks are put in description order.
type TakenByFile = Vec<Vec<Option<Taken>>>;

/// The output section an input section goes to, and where a description took it: the one a
/// command names, or for an orphan the one of its name.
fn place_input<'a>(
    config: &Config,
    commands: &'a SectionCommands,
    script_name: Option<&(ScriptFileName, String)>,
    sec: &'a InputSection,
) -> (&'a str, Option<Taken>) {
    let taken = script_name
        .and_then(|(f, full)| commands.description_of(f, full, sec.name_str(), sec.flags()));
    match taken {
        Some(t) => (commands.output_name(t), Some(t)),
        None => (
            output_name_of(&config.z, || sec.name_str(), sec.output_name()),
            None,
        ),
    }
}

/// Addresses, offsets and program headers (by the script's commands under `SECTIONS`), then
/// every input section's and symbol's address.
fn place(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
    lay: &mut Layout,
) -> Result<()> {
    if lay.script.as_ref().is_some_and(|s| !s.insert_only) {
        // The walk fills addresses in as it goes: expressions read symbol values.
        super::script_addresses::assign(config, res, commands, lay)?;
    } else {
        if lay.flat_image {
            flat_image::assign_addresses(config, lay)?;
        } else {
            assign_addresses(config, lay)?;
        }
        lay.fill_addresses(res);
        if lay.script.is_some() {
            // `INSERT`ed commands on the built-in layout: their symbols where they stand.
            super::script_addresses::assign_in_place(config, res, commands, lay)?;
        }
    }
    if lay.flat_image {
        // Offsets follow from load addresses alone, whoever chose them.
        flat_image::assign_file_offsets(lay);
    }
    Ok(())
}

/// Under `INSERT` only, an inserted description nothing went to takes the allocation and
/// write flags of the section before it where it ends up (lld's `adjustOutputSections` runs
/// on the final order); the arrangement could only look at the script's order.
fn inherit_flags_in_place(sections: &mut [OutputSection], bodies: &[Option<Body>]) {
    let mut flags = u64::from(elf::SHF_ALLOC);
    for (os, body) in sections.iter_mut().zip(bodies) {
        if !os.is_alloc() {
            continue;
        }
        if body.is_some() && os.chunks.is_empty() {
            os.flags = flags & u64::from(elf::SHF_ALLOC | elf::SHF_WRITE);
        }
        flags = os.flags;
    }
}

/// Lays out the output. Errors come as a list: `--orphan-handling=error` reports every orphan.
pub fn layout(
    config: &Config,
    res: &Resolved,
    scan: ScanResult,
    decided: &Decided,
    rewrites: &CodeRewrites,
) -> std::result::Result<Layout, Vec<crate::error::Error>> {
    let Decided {
        commands,
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
    let mut merge_of = merge::MergeIndex::default();
    let mut has_comment_input = false;
    // A script's descriptions say where input sections go; only a `SECTIONS` without `INSERT`
    // replaces the built-in layout (lld's `hasSectionsCommand`).
    let scripted = commands.has_descriptions();
    let sections_command = commands.has_sections();
    let mut orphans = OrphanReport::default();
    let mut taken: TakenByFile = if scripted {
        res.files
            .iter()
            .map(|f| vec![None; f.sections.len()])
            .collect()
    } else {
        Vec::new()
    };

    // 1. Assign input sections to output sections, in input order (creation order matters).
    for (fi, file) in res.files.iter().enumerate() {
        let script_name = scripted.then(|| {
            let n = file.script_name();
            (n, n.for_script())
        });
        for (si, sec) in file.sections.iter().enumerate() {
            // Without `SECTIONS` only these kinds go anywhere (below); the rest of a big
            // link's half a million sections (collected, discarded, symbol and relocation
            // tables) need no look at their names.
            let placed = match sec.kind {
                SectionKind::Regular | SectionKind::Merge | SectionKind::Comment => true,
                SectionKind::EhFrame | SectionKind::Ignored => config.emit_relocs,
                SectionKind::Discarded
                | SectionKind::GnuProperty
                | SectionKind::Garbage
                | SectionKind::Unloaded
                | SectionKind::Folded => false,
            };
            if !placed && !scripted && !sections_command {
                continue;
            }
            let name = sec.name;
            if crate::synthetic::gdb_index::drops_input_section(config, name)
                || crate::synthetic::debug_names::drops_input_section(config, sec)
            {
                continue;
            }
            let (oname, t) = place_input(config, commands, script_name.as_ref(), sec);
            if oname == commands::DISCARD {
                continue;
            }
            if t.is_none() && sections_command && places_output(sec) {
                orphans.report(
                    config,
                    &format!("{}:({})", file.name, sec.name_str()),
                    oname,
                )?;
            }
            // -z nosectionheader: lld leaves out what only section headers would describe
            // (having reported it as an orphan all the same).
            if !config.z.section_header && !sec.is_alloc() {
                continue;
            }
            if let Some(t) = t {
                taken[fi][si] = Some(t);
            }
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
                    merge_of.insert(fi as FileId, si as u32, g, idx);
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
                        let tname = place_input(
                            config,
                            commands,
                            script_name.as_ref(),
                            &file.sections[target],
                        )
                        .0;
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
    // lld tags an array a script describes even when the section ends up empty and gone (its
    // address and size are then 0).
    let arrays_present = dynamic::INIT_FINI_ARRAYS
        .map(|name| b.by_name.contains_key(name) || commands.position_of(name).is_some());
    // Output sections are created by name from here on; the cache served the loop above.
    b.last = None;

    // init/fini arrays run in priority order; under a `SECTIONS` command the script orders
    // them (lld sorts only without one).
    for os in b.sections.iter_mut() {
        let array =
            os.name == ".init_array" || os.name == ".fini_array" || os.name == ".preinit_array";
        if array && !commands.has_sections() {
            os.chunks.sort_by_key(|c| match c.kind {
                ChunkKind::Input { file, sec } => {
                    init_priority(res.files[file as usize].sections[sec as usize].name_str())
                }
                _ => 65536,
            });
        }
    }

    // 2. Merge SHF_MERGE pieces.
    // Every input section is split on its own (in parallel); the first error in input order
    // is the one reported, whatever the thread count.
    let split_one = |&(f, s): &(FileId, u32)| -> Result<merge::MergeInput> {
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
        Ok(input)
    };
    let flat: Vec<&(FileId, u32)> = b.merge_inputs.iter().flatten().collect();
    let mut split = flat
        .into_par_iter()
        .map(split_one)
        .collect::<Vec<_>>()
        .into_iter();
    let mut merge_inputs = Vec::with_capacity(b.merge_inputs.len());
    for inputs in &b.merge_inputs {
        let mi = split
            .by_ref()
            .take(inputs.len())
            .collect::<Result<Vec<_>>>()?;
        merge_inputs.push(mi);
    }
    if config.gc_sections {
        mark_live_pieces(res, &merge_of, &mut merge_inputs);
    }
    let merged = merge_inputs
        .par_iter()
        .map(|mi| merge::merge(mi))
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<Vec<_>>>()?;
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
    let eh = eh_frame::build(res)?;

    // 4. Synthetic sections, in lld's creation order; each module says what its section needs.
    let static_pie = config.is_pic() && config.is_static;
    let mut synthetic_index = HashMap::new();
    // Under `SECTIONS`, a linker-made section is an input section of lld's internal file:
    // descriptions take it by its name (`*(.got)`), or discard it.
    let mut synth_taken: HashMap<Synthetic, Taken> = HashMap::new();
    let internal = ScriptFileName {
        archive: None,
        name: commands::INTERNAL_FILE,
    };
    let place_synthetic = |name: &'static str, flags: u64| -> (&str, Option<Taken>) {
        if !scripted {
            return (name, None);
        }
        match commands.description_of(&internal, commands::INTERNAL_FILE, name, flags) {
            Some(t) => (commands.output_name(t), Some(t)),
            None => (name, None),
        }
    };
    let eh_frame_discarded =
        place_synthetic(".eh_frame", u64::from(elf::SHF_ALLOC)).0 == commands::DISCARD;
    let mut orphan_reports: Vec<String> = Vec::new();
    let mut orphan_names: Vec<&str> = Vec::new();
    let mut add_synth = |b: &mut Builder, chunk: Option<SyntheticChunk>| {
        let Some(c) = chunk else {
            return;
        };
        let (oname, t) = place_synthetic(c.osec, c.flags);
        // lld does not report its `.relro_padding`, which no script is expected to place.
        if sections_command && t.is_none() && c.kind != Synthetic::RelroPadding {
            orphan_reports.push(format!("<internal>:({})", c.osec));
            orphan_names.push(oname);
        }
        // Without `.eh_frame` there is nothing for `.eh_frame_hdr` to index.
        if oname == commands::DISCARD || c.kind == Synthetic::EhFrameHdr && eh_frame_discarded {
            return;
        }
        if let Some(t) = t {
            synth_taken.insert(c.kind, t);
        }
        let osec = b.osec(oname, c.sh_type, c.flags);
        let index = b.sections[osec as usize].chunks.len() as u32;
        b.sections[osec as usize].chunks.push(Chunk {
            kind: ChunkKind::Synthetic(c.kind),
            offset: 0,
            size: c.size,
            align: c.align,
        });
        synthetic_index.insert(c.kind, (osec, index));
    };
    add_synth(&mut b, build_id::chunk(config));
    add_synth(&mut b, notes::package_chunk(config));
    // lld makes the merged property note after its other notes (and input notes come
    // first), so among the notes it comes last.
    let gnu_property =
        crate::cet::gnu_property_note(and_features, crate::cet::isa_needed(config, res));
    add_synth(&mut b, notes::property_chunk(&gnu_property));
    let dynamic_output = crate::resolve::symbol_flags::is_dynamic(config, res);
    let has_dynamic = dynamic_output || static_pie;
    let dyn_tables = if has_dynamic {
        dynsym::build_tables(config, res, &scan)
    } else {
        DynTables::default()
    };
    let interp = interp::contents(config, dynamic_output);
    // A script listing program headers without a PT_INTERP has no room for `.interp` (lld).
    let interp_listed =
        commands.phdrs.is_empty() || commands.phdrs.iter().any(|p| p.phdr_type == elf::PT_INTERP);
    if interp_listed {
        add_synth(&mut b, interp::chunk(&interp));
    }
    if has_dynamic {
        add_synth(&mut b, Some(dynsym::dynsym_chunk(&dyn_tables)));
        for c in versions::chunks(&dyn_tables) {
            add_synth(&mut b, Some(c));
        }
        for c in hash::chunks(&dyn_tables) {
            add_synth(&mut b, Some(c));
        }
        add_synth(&mut b, Some(dynsym::dynstr_chunk(&dyn_tables)));
    }
    // Only a dynamic output has a loader to unpack relocations: a static executable's
    // IRELATIVE relocations stay plain RELA for the C library's startup code.
    let android_rela = config.pack_dyn_relocs_android && has_dynamic;
    let counts = dyn_relocs::counts(config, res, &scan);
    add_synth(
        &mut b,
        dyn_relocs::rela_dyn_chunk(config, counts, android_rela),
    );
    add_synth(&mut b, dyn_relocs::relr_chunk(config, counts));
    add_synth(&mut b, dyn_relocs::rela_plt_chunk(config, &scan));
    add_synth(&mut b, eh_frame::hdr_chunk(config, &eh));
    add_synth(&mut b, eh_frame::chunk(&eh));
    let style = plt::style(config, and_features);
    add_synth(&mut b, plt::ibt_plt_chunk(&scan, style, and_features));
    add_synth(&mut b, plt::plt_chunk(config, &scan, style, and_features));
    add_synth(&mut b, plt::iplt_chunk(&scan, style));
    // The tag list's length is fixed now; values are filled after addresses are assigned.
    let dynamic = if has_dynamic {
        dynamic::tags(
            config,
            res,
            &dyn_tables,
            &scan,
            arrays_present,
            &|_| Some((0, 0)),
            &|_| Some((0, 0)),
            &|_| None,
            counts,
        )
    } else {
        Vec::new()
    };
    if has_dynamic {
        add_synth(&mut b, Some(dynamic::chunk(config, dynamic.len())));
    }
    add_synth(&mut b, got::got_chunk(&scan));
    // Under `SECTIONS`, lld pads the RELRO region only where the script marks its end.
    let relro_padding = relro_padding::chunk(config, &b.sections)
        .filter(|_| !sections_command || commands.relro_end().is_some());
    add_synth(&mut b, relro_padding);
    add_synth(&mut b, got::gotplt_chunk(res, &scan));
    add_synth(&mut b, got::igotplt_chunk(&scan));
    // Copy relocations' storage, after the input sections already in `.bss` and
    // `.bss.rel.ro`.
    let copies = copy_relocs::plan(res, &scan);
    let mut copy_chunk: Vec<(u32, u32)> = Vec::with_capacity(copies.chunks.len());
    let mut taken_other = TakenOther::default();
    for (k, &(name, size, align)) in copies.chunks.iter().enumerate() {
        let (oname, t) = place_synthetic(name, ALLOC | WRITE);
        taken_other.copies.push(t);
        let osec = b.osec(oname, elf::SHT_NOBITS, ALLOC | WRITE);
        let chunks = &mut b.sections[osec as usize].chunks;
        copy_chunk.push((osec, chunks.len() as u32));
        chunks.push(Chunk {
            kind: ChunkKind::Copy(k as u32),
            offset: 0,
            size,
            align,
        });
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
    if scripted {
        // A description takes a file's commons by the name `COMMON` (`*(COMMON)`); they keep
        // the order of `Resolved::commons_in_order` and are put in description order below.
        for &(id, size, align) in &commons {
            let SymbolDef::Common { file, .. } = res.symtab.get(id).def else {
                continue;
            };
            let n = res.files[file as usize].script_name();
            let t = commands.description_of(&n, &n.for_script(), "COMMON", ALLOC | WRITE);
            let oname = t.map_or(".bss", |t| commands.output_name(t));
            let osec = b.osec(oname, elf::SHT_NOBITS, ALLOC | WRITE);
            b.sections[osec as usize].chunks.push(Chunk {
                kind: ChunkKind::Common(id),
                offset: 0,
                size,
                align: align.max(1),
            });
            if let Some(t) = t {
                taken_other.commons.insert(id, t);
            }
        }
    } else if !commons.is_empty() {
        let osec = b.osec(".bss", elf::SHT_NOBITS, ALLOC | WRITE);
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
    let comment = comment::contents(res);
    add_synth(&mut b, comment::chunk(config, &comment));

    // lld adds the indexes after its other linker-made sections, so they follow the debug
    // sections (`.debug_names` first).
    if let Some(names) = &debug_indexes.debug_names {
        add_synth(&mut b, names.chunk(config));
    }
    if let Some(index) = &debug_indexes.gdb_index {
        add_synth(&mut b, index.chunk(config));
    }
    // The tables the writer makes come last, as lld adds them last; a script may place them.
    if sections_command {
        let headers = config.z.section_header;
        let symtab = headers && config.strip != Strip::All;
        // Without section headers lld still makes (and reports) its `.comment`, dropped later.
        let tables = [
            (".comment", !headers),
            (".symtab", symtab),
            (".shstrtab", headers),
            (".strtab", symtab),
        ];
        for (name, made) in tables {
            if made && place_synthetic(name, 0).1.is_none() {
                orphan_reports.push(format!("<internal>:({name})"));
                orphan_names.push(name);
            }
        }
    }
    // lld reports its own sections in the order it makes them: `.comment` first.
    let mut reports: Vec<(&String, &&str)> = orphan_reports.iter().zip(&orphan_names).collect();
    reports.sort_by_key(|(what, _)| !what.ends_with("(.comment)"));
    for (what, name) in reports {
        orphans.report(config, what, name)?;
    }
    if !orphans.errors.is_empty() {
        return Err(orphans.errors);
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
    let mut arranged = None;
    if scripted {
        taken_other.synthetic = synth_taken;
        arranged = Some(super::script_sections::arrange(
            config.sort_section,
            res,
            commands,
            &mut b.sections,
            &mut b.by_name,
            &taken,
            &taken_other,
            &b.merge_inputs,
        )?);
        // Chunks moved: find the linker's own again.
        synthetic_index.clear();
        common_index.clear();
        for (oi, os) in b.sections.iter().enumerate() {
            for (ci, c) in os.chunks.iter().enumerate() {
                let at = (oi as u32, ci as u32);
                match c.kind {
                    ChunkKind::Synthetic(k) => {
                        synthetic_index.insert(k, at);
                    }
                    ChunkKind::Common(id) => {
                        common_index.insert(id, at);
                    }
                    ChunkKind::Copy(k) => copy_chunk[k as usize] = at,
                    _ => {}
                }
            }
        }
    }

    // 5. Order sections.
    // The `.eh_frame` made early for `--emit-relocs` stays out if no record was kept, as a
    // linker-made section with nothing in it.
    let kept: Vec<u32> = (0..b.sections.len() as u32)
        .filter(|&i| {
            let s = &b.sections[i as usize];
            !(config.emit_relocs && s.name == ".eh_frame" && s.chunks.is_empty())
        })
        .collect();
    let placed: Vec<commands::Placed> = kept
        .iter()
        .map(|&i| {
            let s = &b.sections[i as usize];
            // As lld: sections given an address by `--section-start` come first.
            let start = s
                .is_alloc()
                .then(|| config.section_start(&s.name))
                .flatten();
            commands::Placed {
                name: &s.name,
                // lld's rank has a top bit for "no address set": an orphan is then as unlike
                // a section with a `--section-start` address as can be.
                rank: match start {
                    Some(_) => 0,
                    None => section_rank(&config.z, &s.name, s.sh_type, s.flags) | RF_NOT_ADDR_SET,
                },
                alloc: s.is_alloc(),
                has_inputs: !s.chunks.is_empty(),
                start,
            }
        })
        .collect();
    let mut placed = placed;
    placed.extend(commands::insert_anchors(commands, &placed, |name, t, f| {
        section_rank(&config.z, name, t, f) | RF_NOT_ADDR_SET
    }));
    let placements: Vec<Placement> = commands::order(commands, &placed)?
        .into_iter()
        .filter(|p| !matches!(*p, Placement::Section(k) if k as usize >= kept.len()))
        .collect();
    let order: Vec<u32> = placements
        .iter()
        .filter_map(|p| match *p {
            Placement::Section(k) => Some(kept[k as usize]),
            Placement::Command(_) => None,
        })
        .collect();
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
    let script = arranged.map(|a| {
        let mut bodies: Vec<Option<Body>> = vec![None; sections.len()];
        for (old, body) in a.bodies.into_iter().enumerate() {
            if let Some(&new) = order.iter().position(|&o| o as usize == old).as_ref() {
                bodies[new] = body;
            }
        }
        if !sections_command {
            inherit_flags_in_place(&mut sections, &bodies);
        }
        ScriptLayout {
            sequence: placements
                .iter()
                .map(|p| match *p {
                    Placement::Section(k) => Placement::Section(remap[kept[k as usize] as usize]),
                    c => c,
                })
                .collect(),
            bodies,
            data_values: vec![0; a.data.len()],
            data: a.data,
            insert_only: !sections_command,
            symbols: Vec::new(),
            regions: Vec::new(),
            assignments: Default::default(),
        }
    });
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
    let mut strtab = StringTable::default();
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
    let (shstrtab, section_name_offsets) = shstrtab::build(&sections);
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
        flat_image: config.oformat_binary,
        inputs_want_execstack: config.z.execstack_if_needed
            && res.files.iter().any(|f| f.markers.executable_stack),
        symtab,
        symtab_first_global,
        strtab,
        shstrtab,
        section_name_offsets,
        comment,
        gnu_property,
        dynamic,
        rela_dyn_count: counts.rela,
        relative_count: counts.relative,
        relr: Vec::new(),
        relr_words: Vec::new(),
        android_rela: None,
        scan,
        dyn_tables,
        dynamic_output,
        interp,
        copy_group: copies.group_of,
        copy_groups: copies.groups,
        copy_chunk,
        plt_addr: 0,
        ibt_plt_addr: 0,
        plt_style: style,
        synthetic_section: HashMap::new(),
        symtab_index,
        script,
    };
    let _ = nfiles;
    place(config, res, commands, &mut lay)?;
    if counts.relr > 0 || android_rela {
        size_packed_relocs(config, res, commands, &mut lay, android_rela)?;
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
            let addr = lay.synthetic_address(k)?;
            let (_, size) = lay.synthetic_offset(k)?;
            Some((addr, size))
        };
        let osec = |name: &str| {
            lay.sections
                .iter()
                .find(|s| s.name == name)
                .map(|s| (s.addr, s.size))
        };
        let sym = |n: &[u8]| res.symtab.lookup(n).map(|id| lay.global_value[id as usize]);
        let tags = dynamic::tags(
            config,
            res,
            &lay.dyn_tables,
            &lay.scan,
            arrays_present,
            &synth,
            &osec,
            &sym,
            dyn_relocs::DynRelocCounts {
                rela: lay.rela_dyn_count,
                relative: lay.relative_count,
                relr: lay.relr.len() as u64,
            },
        );
        lay.dynamic = tags;
    }
    Ok(lay)
}

/// The packed tables' sizes (`.relr.dyn`, and `.rela.dyn` in Android's format) depend on the
/// addresses they encode, and those addresses move with the sizes: lay out again until both
/// encodings fit. As lld, a table never shrinks once it has grown (a shorter encoding is
/// padded: empty RELR bitmaps, zero bytes after APS2), so this ends.
fn size_packed_relocs(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
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
        let mut packed = dyn_relocs::pack(config, res, lay, rela_os.is_some());
        if let Some(os) = relr_os {
            let need = packed.relr_words.len() as u64 * 8;
            if !fits(need, lay.sections[os as usize].size) {
                ok = false;
                lay.sections[os as usize].set_synthetic_size(need);
            }
        }
        if let (Some(os), Some(bytes)) = (rela_os, &packed.android_rela) {
            let need = bytes.len() as u64;
            if !fits(need, lay.sections[os as usize].size) {
                ok = false;
                lay.sections[os as usize].set_synthetic_size(need);
            }
        }
        if ok {
            if let Some(os) = relr_os {
                // An odd word without bits relocates nothing.
                let words = (lay.sections[os as usize].size / 8) as usize;
                packed.relr_words.resize(words, 1);
            }
            lay.relr = packed.relr;
            lay.relr_words = packed.relr_words;
            lay.android_rela = packed.android_rela;
            return Ok(());
        }
        rounds += 1;
        if rounds > 32 {
            bail!("internal error: the packed dynamic relocations' size does not converge");
        }
        place(config, res, commands, lay)?;
    }
}

/// Marks the pieces of merged sections that live sections (and symbols) refer to.
fn mark_live_pieces(
    res: &Resolved,
    merge_of: &merge::MergeIndex,
    inputs: &mut [Vec<merge::MergeInput<'static>>],
) {
    // Nothing to keep: no pass over the symbols and relocations.
    if inputs.is_empty() {
        return;
    }
    // The piece a symbol (plus addend) points into: (merge group, input, offset). Most
    // relocations point elsewhere, which the merge index says with two array reads (only
    // sections placed in a merged output section are in it).
    let piece_of = |file: FileId, index: usize, addend: i64| -> Option<(u32, u32, u64)> {
        let f = &res.files[file as usize];
        let sym = f.symbols.get(index)?;
        let shndx = f.sym_section(index)?;
        let (g, i) = merge_of.get(file, shndx as u32)?;
        // A section symbol's addend selects the piece; a named symbol's value does.
        let off = if sym.st_type() == elf::STT_SECTION {
            sym.st_value(LE).wrapping_add(addend as u64)
        } else {
            sym.st_value(LE)
        };
        Some((g, i, off))
    };
    // Where each global's definition points, worked out once (in parallel) rather than for
    // every relocation that names it.
    let global_piece: Vec<Option<(u32, u32, u64)>> = res
        .symtab
        .symbols
        .par_iter()
        .map(|s| match s.def {
            SymbolDef::Defined { file, index } => piece_of(file, index as usize, 0),
            _ => None,
        })
        .collect();
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
                if !s.kind.is_copied() || !s.is_alloc() {
                    continue;
                }
                for r in s.relocs {
                    let sym = r.r_sym(LE, false) as usize;
                    let piece = match res.global_of(fi as FileId, sym) {
                        Some(g) => global_piece[g as usize],
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
    for (s, &piece) in res.symtab.symbols.iter().zip(&global_piece) {
        if s.in_dynsym {
            mark(piece);
        }
    }
}
