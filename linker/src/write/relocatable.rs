//! `-r`/`--relocatable`: one relocatable object out of the link's inputs, which a later link
//! (by weld, ld.lld or GNU ld) turns into the same program the inputs would have made.
//!
//! The inputs are resolved as in any link (archive members loaded, COMDAT groups deduplicated,
//! bitcode compiled by LTO, `--gc-sections` applied), but nothing is given an address: input
//! sections keep their names (`.text.foo` stays `.text.foo`, as lld does under `-r`) and are
//! concatenated into output sections of that name, every relocation is copied with its place and
//! symbol renumbered, and the symbol table keeps every local and global symbol a kept section
//! defines or a kept relocation names. What lld rebuilds in a final link stays as input here:
//! `.eh_frame` keeps its records (less the FDEs of discarded code) and relocations, section
//! groups stay groups (a COMDAT group's members each get an output section of their own, so the
//! final link can still drop the group as a whole), common symbols stay common unless
//! `-d`/`--define-common` allocates them.

use crate::config::{Config, DefsymValue, Discard};
use crate::error::{Error, Result};
use crate::input::input_files::{FileId, SectionKind};
use crate::layout::commands::SectionCommands;
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use crate::synthetic::build_id;
use crate::{bail, err};
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela, SectionHeader, Sym};
use object::LittleEndian as LE;

/// Section indices from here on do not fit `e_shnum`/`st_shndx`: ELF's extended numbering.
const SHN_LORESERVE: usize = elf::SHN_LORESERVE as usize;

/// One relocation of the output, against the output symbol table.
#[derive(Clone, Copy)]
struct OutRela {
    offset: u64,
    sym: u32,
    r_type: u32,
    addend: i64,
}

/// Where a relocation's symbol goes in the output, before output symbol indices exist.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum SymRef {
    None,
    /// A local symbol of an input file kept in the output.
    Local(FileId, u32),
    /// The section symbol of an output section.
    Section(u32),
    Global(SymbolId),
}

/// A relocation of an output section, its symbol not yet numbered.
#[derive(Clone, Copy)]
struct PendingRela {
    offset: u64,
    sym: SymRef,
    r_type: u32,
    addend: i64,
}

/// An output section being built.
struct OutSection {
    name: Vec<u8>,
    sh_type: u32,
    flags: u64,
    entsize: u64,
    align: u64,
    /// `SHF_LINK_ORDER`: the output section (index into the section list) it is ordered by.
    link_order: Option<u32>,
    /// File contents (`SHT_NOBITS`: empty, `size` says how big).
    data: Vec<u8>,
    size: u64,
    relocs: Vec<PendingRela>,
    /// For a `SHT_GROUP` output section: the input file and group section it copies.
    group: Option<(FileId, u32)>,
    /// Whether it belongs to a section group (its relocation section does too).
    in_group: bool,
    /// A linker script's `FILL`/`=fill`: the 4-byte pattern gaps are filled with, from the
    /// start of each gap (else `int3` in code, zeros elsewhere, as lld fills them).
    fill: Option<[u8; 4]>,
}

impl OutSection {
    fn new(name: &[u8], sh_type: u32, flags: u64, entsize: u64) -> OutSection {
        OutSection {
            name: name.to_vec(),
            sh_type,
            flags,
            entsize,
            align: 1,
            link_order: None,
            data: Vec::new(),
            size: 0,
            relocs: Vec::new(),
            group: None,
            in_group: false,
            fill: None,
        }
    }

    /// Grows the section to `size` bytes, the gap filled as [`OutSection::append`] fills one.
    fn pad_to(&mut self, size: u64) {
        if size <= self.size {
            return;
        }
        if self.sh_type != elf::SHT_NOBITS {
            let pattern = match self.fill {
                Some(p) => p,
                // Padding between code is `int3`, as lld fills it.
                None if self.flags & u64::from(elf::SHF_EXECINSTR) != 0 => [0xcc; 4],
                None => [0; 4],
            };
            let gap = (size - self.size) as usize;
            self.data.extend((0..gap).map(|k| pattern[k % 4]));
        }
        self.size = size;
    }

    /// Appends `bytes` (or `size` bytes of nothing for NOBITS) at `align`, returning the offset.
    fn append(&mut self, bytes: &[u8], size: u64, align: u64) -> u64 {
        let align = align.max(1);
        self.align = self.align.max(align);
        let off = self.size.div_ceil(align) * align;
        self.pad_to(off);
        if self.sh_type != elf::SHT_NOBITS {
            self.data.extend_from_slice(bytes);
        }
        self.size = off + size;
        off
    }
}

mod script;

/// Which output sections input sections go to and where.
struct Placement {
    sections: Vec<OutSection>,
    /// Per file, per input section: (output section, offset in it).
    placed: Vec<Vec<Option<(u32, u64)>>>,
    /// Where commons `-d` allocated went: (output section, offset).
    commons: HashMap<SymbolId, (u32, u64)>,
    /// The relocations of each rebuilt `.eh_frame` input, at their offsets in the rebuilt bytes.
    eh_relocs: HashMap<(FileId, u32), Vec<InRela>>,
    /// Deduplicated `SHF_MERGE` output sections, by output section.
    merged: HashMap<u32, crate::output::merge::MergedSection>,
    /// For each `SHF_MERGE` input: its output section and its index among that one's inputs.
    merged_input: HashMap<(FileId, u32), (u32, u32)>,
    /// `--build-id`'s `.note.gnu.build-id` (lld writes one under `-r` too), by output section.
    build_id: Option<u32>,
    /// With a linker script's `SECTIONS`: the order of the output sections and of their
    /// relocation sections (lld's, [`script`]); else each section is followed by its
    /// relocations.
    order: Option<Vec<Slot>>,
    /// The values `SECTIONS` gave its symbols.
    script_symbols: HashMap<String, script::ScriptValue>,
}

/// An output section, or the relocation section of one, in the output's section order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Section(u32),
    Rela(u32),
}

impl Placement {
    /// The output's section order: every output section and, when it has relocations, its
    /// relocation section.
    fn slots(&self) -> Vec<Slot> {
        let has_relocs = |i: u32| !self.sections[i as usize].relocs.is_empty();
        match &self.order {
            Some(order) => order
                .iter()
                .copied()
                .filter(|s| match *s {
                    Slot::Rela(i) => has_relocs(i),
                    Slot::Section(_) => true,
                })
                .collect(),
            None => (0..self.sections.len() as u32)
                .flat_map(|i| {
                    std::iter::once(Slot::Section(i)).chain(has_relocs(i).then_some(Slot::Rela(i)))
                })
                .collect(),
        }
    }

    /// The section header index of each output section and of its relocation section (0 for
    /// none), by output section.
    fn section_indices(&self) -> (Vec<u32>, Vec<u32>) {
        let mut index = vec![0u32; self.sections.len()];
        let mut rela_index = vec![0u32; self.sections.len()];
        for (n, slot) in self.slots().into_iter().enumerate() {
            match slot {
                Slot::Section(i) => index[i as usize] = n as u32 + 1,
                Slot::Rela(i) => rela_index[i as usize] = n as u32 + 1,
            }
        }
        (index, rela_index)
    }

    /// Where offset `offset` of input section `sec` of `file` lands: (output section, offset in
    /// it). A place inside a merged string moves with the string; `None` for sections not kept.
    fn locate(&self, file: FileId, sec: usize, offset: u64) -> Option<(u32, u64)> {
        let (out, base) = self.placed[file as usize].get(sec).copied().flatten()?;
        if let Some(&(o, i)) = self.merged_input.get(&(file, sec as u32)) {
            let m = &self.merged[&o];
            // A place just past a piece (a symbol at the end) or before the section keeps its
            // distance from the section start, as nothing better is known.
            return Some((o, m.output_offset(i as usize, offset).unwrap_or(offset)));
        }
        Some((out, base + offset))
    }
}

/// An input relocation, decoded.
#[derive(Clone, Copy)]
struct InRela {
    offset: u64,
    sym: u32,
    r_type: u32,
    addend: i64,
}

impl InRela {
    fn of(r: &crate::input::input_files::Rela64) -> InRela {
        InRela {
            offset: r.r_offset(LE),
            sym: r.r_sym(LE, false),
            r_type: r.r_type(LE, false),
            addend: r.r_addend(LE),
        }
    }
}

/// Whether input section `si` of `file` is copied to a `-r` output. Unlike a final link, `-r`
/// keeps `SHF_EXCLUDE` sections, `.note.GNU-stack`, the split-stack markers and `.deplibs`,
/// which only mean something to the final link.
fn is_kept(res: &Resolved, file: FileId, si: usize) -> bool {
    let s = &res.files[file as usize].sections[si];
    if si == 0 || crate::input::input_files::is_metadata_type(s.sh_type()) {
        return false;
    }
    !matches!(
        s.kind,
        SectionKind::Discarded | SectionKind::Garbage | SectionKind::Unloaded | SectionKind::Folded
    )
}

/// Whether input section `si` of file `fi` is one a linker script's descriptions may place in
/// a `-r` output (what `ONLY_IF_RO`/`ONLY_IF_RW` look at): a kept section other than a group
/// and the `.note.gnu.property` notes, which the output rebuilds.
pub fn taken_by_script(res: &Resolved, fi: usize, si: usize) -> bool {
    let s = &res.files[fi].sections[si];
    s.sh_type() != elf::SHT_GROUP
        && s.kind != SectionKind::GnuProperty
        && is_kept(res, fi as FileId, si)
}

/// The output section key of an ungrouped input section: lld merges by name; weld also keeps
/// apart what a later link must tell apart (type, element size of mergeable sections, the
/// section a `SHF_LINK_ORDER` one is ordered by).
type SectionKey = (Vec<u8>, u32, u64, Option<u32>);

/// Writes the `-r` output of the resolved link.
pub fn write(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
    and_features: u32,
) -> std::result::Result<(), Vec<Error>> {
    let mut plan = place_sections(config, res, commands, and_features).map_err(|e| vec![e])?;
    let symbols = SymbolPlan::build(config, res, &plan);
    collect_relocations(res, &mut plan, &symbols);
    let mut image = render(config, res, &plan, symbols).map_err(|e| vec![e])?;
    if let Some(note) = plan.build_id {
        fill_build_id(config, &plan, note, &mut image).map_err(|e| vec![e])?;
    }
    if config.oformat_binary {
        image = crate::write::flat_relocatable::from_relocatable(&image)?;
    }
    crate::write::writer::write_image(&config.output, &image, false).map_err(|e| vec![e])
}

/// Hashes the finished `image` into the descriptor of the build-id note, output section `note`.
fn fill_build_id(config: &Config, plan: &Placement, note: u32, image: &mut [u8]) -> Result<()> {
    // Its section header index as `render` numbers them.
    let index = u64::from(plan.section_indices().0[note as usize]);
    let read64 = |image: &[u8], at: u64| -> Option<u64> {
        let b = image.get(at as usize..at as usize + 8)?;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    };
    let shoff = read64(image, 0x28).ok_or_else(|| err!("-r: truncated output header"))?;
    let note_offset = read64(image, shoff + index * 64 + 24)
        .ok_or_else(|| err!("-r: no section header for .note.gnu.build-id"))?;
    if !build_id::fill(config, note_offset, image) {
        bail!("-r: .note.gnu.build-id lies outside the output");
    }
    Ok(())
}

/// Which sections of file `f` are members of a section group (COMDAT or not) that stays one.
fn grouped_sections(config: &Config, f: &crate::input::input_files::ObjectFile) -> Vec<bool> {
    let mut grouped = vec![false; f.sections.len()];
    for s in &f.sections {
        // --force-group-allocation dissolves the groups: their members are placed as any
        // other section (the COMDAT copies that lost are gone already).
        if s.sh_type() == elf::SHT_GROUP && !config.force_group_allocation {
            for m in group_members(s.data).skip(1) {
                if let Some(g) = grouped.get_mut(m as usize) {
                    *g = true;
                }
            }
        }
    }
    grouped
}

/// Decides the output sections and places every kept input section in one.
fn place_sections(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
    and_features: u32,
) -> Result<Placement> {
    let mut sections: Vec<OutSection> = Vec::new();
    let mut by_key: HashMap<SectionKey, u32> = HashMap::new();
    let mut placed: Vec<Vec<Option<(u32, u64)>>> = res
        .files
        .iter()
        .map(|f| vec![None; f.sections.len()])
        .collect();
    let mut merge_inputs: HashMap<u32, Vec<(FileId, u32)>> = HashMap::new();
    let mut merged_input: HashMap<(FileId, u32), (u32, u32)> = HashMap::new();
    let mut merged = HashMap::new();
    let mut property: Option<u32> = None;
    let grouped_by_file: Vec<Vec<bool>> = res
        .files
        .iter()
        .map(|f| grouped_sections(config, f))
        .collect();
    // With `SECTIONS`, the script's output sections come first and take what it describes;
    // the loop below makes the orphans' (lld's `addOrphanSections` under -r).
    let mut scripted = match commands.has_sections() {
        true => Some(script::place(
            config,
            res,
            commands,
            &grouped_by_file,
            &mut sections,
            &mut placed,
            &mut merged,
            &mut merged_input,
        )?),
        false => None,
    };
    // lld makes the one `.note.GNU-stack` of a scripted -r output after every orphan.
    let visits: Vec<(usize, usize)> = {
        let all = res
            .files
            .iter()
            .enumerate()
            .flat_map(|(fi, f)| (0..f.sections.len()).map(move |si| (fi, si)));
        let is_stack_note = |&(fi, si): &(usize, usize)| {
            scripted.is_some() && res.files[fi].sections[si].name == b".note.GNU-stack"
        };
        let (stack, mut rest): (Vec<_>, Vec<_>) = all.partition(is_stack_note);
        rest.extend(stack);
        rest
    };
    for (fi, si) in visits {
        let f = &res.files[fi];
        let s = &f.sections[si];
        let fid = fi as FileId;
        let grouped = &grouped_by_file[fi];
        if let Some(sc) = scripted.as_mut() {
            if sc.visit(res, &placed, &sections, fi, si) {
                continue;
            }
        }
        {
            if s.sh_type() == elf::SHT_GROUP {
                if config.force_group_allocation {
                    continue;
                }
                // A group is kept when its members are (a losing COMDAT copy's are discarded).
                let kept = group_members(s.data)
                    .skip(1)
                    .any(|m| (m as usize) < f.sections.len() && is_kept(res, fid, m as usize));
                if kept {
                    let mut os = OutSection::new(b".group", elf::SHT_GROUP, 0, 4);
                    os.align = 4;
                    os.group = Some((fid, si as u32));
                    sections.push(os);
                    // GCC names some groups by a local symbol defined in the group section.
                    placed[fi][si] = Some(((sections.len() - 1) as u32, 0));
                }
                continue;
            }
            if !is_kept(res, fid, si) {
                continue;
            }
            let flags = s.flags() & !u64::from(elf::SHF_COMPRESSED);
            if s.kind == SectionKind::GnuProperty {
                // One note for all inputs, written once the AND of their features is known.
                let note = crate::cet::gnu_property_note(
                    and_features,
                    crate::cet::isa_needed(config, res),
                );
                if property.is_none() && !note.is_empty() {
                    let mut os = OutSection::new(
                        b".note.gnu.property",
                        elf::SHT_NOTE,
                        u64::from(elf::SHF_ALLOC),
                        0,
                    );
                    os.append(&note, note.len() as u64, 8);
                    sections.push(os);
                    property = Some((sections.len() - 1) as u32);
                }
                continue;
            }
            let link_order = if flags & u64::from(elf::SHF_LINK_ORDER) != 0 {
                let link = s.shdr.sh_link(LE) as usize;
                placed[fi].get(link).copied().flatten().map(|(o, _)| o)
            } else {
                None
            };
            // `.comment` is merged like any mergeable string section (lld: no linker string).
            let merge = matches!(s.kind, SectionKind::Merge | SectionKind::Comment)
                && crate::output::merge::check_merge_section(
                    flags,
                    s.size(),
                    s.shdr.sh_entsize(LE),
                )
                .map_err(|e| err!("{}:({}): {e}", f.name, s.name_str()))?;
            // Mergeable strings of different alignments are merged apart (lld: one synthetic
            // section per alignment); the alignment goes into the key as a fake element size.
            let entsize = match merge {
                true if flags & u64::from(elf::SHF_STRINGS) != 0 => {
                    s.shdr.sh_entsize(LE) | (s.align() << 32)
                }
                true => s.shdr.sh_entsize(LE),
                false => 0,
            };
            // `--unique`: every input section is an output section of its own, as in lld
            // (mergeable ones deduplicated only within themselves), but for the one
            // `.note.GNU-stack` marker lld writes in place of the inputs'.
            let alone = grouped[si] || (config.unique && s.name != b".note.GNU-stack");
            // --relocatable-merge-sections: the final link's output section names.
            let name: &[u8] = if config.relocatable_merge_sections && !grouped[si] {
                s.output_name().as_bytes()
            } else {
                s.name
            };
            let out = if alone {
                None
            } else {
                by_key
                    .get(&(name.to_vec(), s.sh_type(), entsize, link_order))
                    .copied()
            };
            let out = match out {
                Some(o) => o,
                None => {
                    let mut os = OutSection::new(name, s.sh_type(), flags, s.shdr.sh_entsize(LE));
                    os.link_order = link_order;
                    os.in_group = grouped[si];
                    sections.push(os);
                    let o = (sections.len() - 1) as u32;
                    if !alone {
                        by_key.insert((name.to_vec(), s.sh_type(), entsize, link_order), o);
                    }
                    o
                }
            };
            let os = &mut sections[out as usize];
            os.flags |= flags & !u64::from(elf::SHF_GROUP);
            if grouped[si] {
                os.flags |= u64::from(elf::SHF_GROUP);
            }
            let off = if s.kind == SectionKind::EhFrame {
                // Placed below, once its live records are known.
                0
            } else if merge {
                // Deduplicated below with the other inputs of the output section.
                merge_inputs.entry(out).or_default().push((fid, si as u32));
                0
            } else {
                os.append(s.data, s.size(), s.align())
            };
            placed[fi][si] = Some((out, off));
        }
    }
    // SHF_MERGE inputs become one deduplicated section each, laid out as lld lays them out.
    let mut merge_order: Vec<u32> = merge_inputs.keys().copied().collect();
    merge_order.sort_unstable();
    for out in merge_order {
        merge_into(
            res,
            &merge_inputs[&out],
            out,
            &mut sections,
            &mut merged,
            &mut merged_input,
        )?;
    }
    // `.eh_frame` records name the functions they describe: which are live is known only once
    // every section is placed.
    let mut eh_relocs = HashMap::new();
    for (fi, f) in res.files.iter().enumerate() {
        for (si, s) in f.sections.iter().enumerate() {
            if s.kind != SectionKind::EhFrame {
                continue;
            }
            let Some((out, _)) = placed[fi][si] else {
                continue;
            };
            let (bytes, relocs) = live_eh_records(res, &placed, fi as FileId, si)?;
            let os = &mut sections[out as usize];
            // Records follow each other without padding: dropping an FDE can leave an input's
            // records a multiple of 4 bytes long but not of 8, and zeros put between two
            // inputs would read as the terminator that ends `.eh_frame` early.
            os.align = os.align.max(s.align());
            let off = os.append(&bytes, bytes.len() as u64, 1);
            placed[fi][si] = Some((out, off));
            eh_relocs.insert((fi as FileId, si as u32), relocs);
        }
    }
    let mut commons = HashMap::new();
    if config.define_common {
        for id in res.commons_in_order() {
            let SymbolDef::Common { size, align, .. } = res.symtab.get(id).def else {
                continue;
            };
            let idx = match sections
                .iter()
                .position(|s| s.name == b".bss" && s.sh_type == elf::SHT_NOBITS && !s.in_group)
            {
                Some(i) => i,
                None => {
                    sections.push(OutSection::new(
                        b".bss",
                        elf::SHT_NOBITS,
                        u64::from(elf::SHF_ALLOC | elf::SHF_WRITE),
                        0,
                    ));
                    sections.len() - 1
                }
            };
            let off = sections[idx].append(&[], size, align);
            commons.insert(id, (idx as u32, off));
        }
    }
    // The note's descriptor is zero until the whole output exists to be hashed (`write`).
    let note_size = build_id::note_size(config);
    let build_id = (note_size > 0).then(|| {
        let mut note = vec![0; note_size as usize];
        build_id::write_note(config, &mut note);
        let mut os = OutSection::new(
            b".note.gnu.build-id",
            elf::SHT_NOTE,
            u64::from(elf::SHF_ALLOC),
            0,
        );
        os.append(&note, note.len() as u64, 4);
        sections.push(os);
        (sections.len() - 1) as u32
    });
    let (order, script_symbols) = match scripted {
        Some(sc) => {
            let (order, symbols) = sc.finish(&sections);
            (Some(order), symbols)
        }
        None => (None, HashMap::new()),
    };
    Ok(Placement {
        build_id,
        sections,
        placed,
        commons,
        eh_relocs,
        merged,
        merged_input,
        order,
        script_symbols,
    })
}

/// Deduplicates the `SHF_MERGE` input sections `inputs` into output section `out`, as lld lays
/// them out, recording where each input went.
fn merge_into(
    res: &Resolved,
    inputs: &[(FileId, u32)],
    out: u32,
    sections: &mut [OutSection],
    merged: &mut HashMap<u32, crate::output::merge::MergedSection>,
    merged_input: &mut HashMap<(FileId, u32), (u32, u32)>,
) -> Result<()> {
    let mut mi = Vec::with_capacity(inputs.len());
    for &(file, sec) in inputs {
        let f = &res.files[file as usize];
        let s = &f.sections[sec as usize];
        let ctx = |e: Error| err!("{}:({}): {e}", f.name, s.name_str());
        let entsize = s.shdr.sh_entsize(LE).max(1) as usize;
        let pieces = if s.flags() & u64::from(elf::SHF_STRINGS) != 0 {
            crate::output::merge::split_strings(s.data, entsize)
        } else {
            crate::output::merge::split_fixed(s.data, entsize)
        }
        .map_err(ctx)?;
        mi.push(crate::output::merge::MergeInput::new(
            s.data,
            pieces,
            s.align(),
        ));
    }
    let m = crate::output::merge::merge(&mi)?;
    let os = &mut sections[out as usize];
    os.data = m.to_bytes(&mi)?;
    os.size = m.size;
    os.align = os.align.max(m.align);
    for (i, &(file, sec)) in inputs.iter().enumerate() {
        merged_input.insert((file, sec), (out, i as u32));
    }
    merged.insert(out, m);
    Ok(())
}

/// The words of a `SHT_GROUP` section: the flag word, then member section indices.
fn group_members(data: &[u8]) -> impl Iterator<Item = u32> + '_ {
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// The input section (file, index) a symbol of `file` is defined in, following a global to
/// its definition; `None` for undefined, absolute and common symbols.
fn defining_section(res: &Resolved, file: FileId, sym: usize) -> Option<(FileId, usize)> {
    let (df, di) = match res.global_of(file, sym) {
        Some(g) => match res.symtab.get(g).def {
            SymbolDef::Defined { file, index } => (file, index as usize),
            _ => return None,
        },
        None => (file, sym),
    };
    Some((df, res.files[df as usize].sym_section(di)?))
}

/// The CIEs and the FDEs of kept code of one input `.eh_frame`, and their relocations. FDEs
/// of discarded COMDAT copies and collected sections are left out (their relocations would name
/// nothing); the CIE pointers of the FDEs after them are adjusted to the records' new places.
fn live_eh_records(
    res: &Resolved,
    placed: &[Vec<Option<(u32, u64)>>],
    file: FileId,
    si: usize,
) -> Result<(Vec<u8>, Vec<InRela>)> {
    let f = &res.files[file as usize];
    let s = &f.sections[si];
    let records = crate::input::eh_frame::split_eh_frame(s.data).map_err(|e| {
        e.into_error(&format!("{}:(.eh_frame)", f.name), |off| {
            format!("{}:(.eh_frame+0x{off:x})", f.name)
        })
    })?;
    let mut bytes = Vec::with_capacity(s.data.len());
    let mut relocs = Vec::new();
    let mut cie_at: HashMap<u32, usize> = HashMap::new();
    for rec in records {
        let start = u64::from(rec.offset);
        let rels = s.relocs_in(start, rec.end());
        let new_start = bytes.len();
        match rec.kind {
            crate::input::eh_frame::EhRecordKind::Cie => {
                cie_at.insert(rec.offset, new_start);
            }
            crate::input::eh_frame::EhRecordKind::Fde { cie_offset } => {
                let live = rels
                    .iter()
                    .find(|r| r.r_offset(LE) == start + 8)
                    .and_then(|r| defining_section(res, file, r.r_sym(LE, false) as usize))
                    .is_some_and(|(df, ds)| placed[df as usize][ds].is_some());
                if !live {
                    continue;
                }
                let Some(&cie) = cie_at.get(&cie_offset) else {
                    bail!(
                        "{}:(.eh_frame+0x{:x}): FDE refers to an invalid CIE",
                        f.name,
                        rec.offset
                    );
                };
                let mut record = rec.bytes(s.data).to_vec();
                // The CIE pointer counts back from its own field to the CIE.
                let pointer = (new_start + 4 - cie) as u32;
                record[4..8].copy_from_slice(&pointer.to_le_bytes());
                bytes.extend_from_slice(&record);
                for r in rels.iter() {
                    let mut r = InRela::of(r);
                    r.offset = r.offset - start + new_start as u64;
                    relocs.push(r);
                }
                continue;
            }
        }
        bytes.extend_from_slice(rec.bytes(s.data));
        for r in rels.iter() {
            let mut r = InRela::of(r);
            r.offset = r.offset - start + new_start as u64;
            relocs.push(r);
        }
    }
    Ok((bytes, relocs))
}

/// The output symbol table's contents, in order, before indices are final.
struct SymbolPlan {
    /// Per file, the local symbols kept (input indices), in input order.
    locals: Vec<Vec<u32>>,
    /// The global symbols written, in the order they were first met.
    globals: Vec<SymbolId>,
    /// Each global's output position among the globals.
    global_index: HashMap<SymbolId, u32>,
    /// Per file, per local symbol: kept or not.
    local_kept: Vec<Vec<bool>>,
}

impl SymbolPlan {
    fn build(config: &Config, res: &Resolved, plan: &Placement) -> SymbolPlan {
        let mut locals = Vec::with_capacity(res.files.len());
        let mut local_kept = Vec::with_capacity(res.files.len());
        for (fi, f) in res.files.iter().enumerate() {
            let referenced = referenced_locals(res, plan, fi as FileId);
            let mut kept = vec![false; f.first_global];
            let mut list = Vec::new();
            for (i, s) in f.symbols.iter().enumerate().take(f.first_global).skip(1) {
                let section = f.sym_section(i);
                let keep = match s.st_type() {
                    elf::STT_SECTION => false,
                    elf::STT_FILE => true,
                    _ => match section {
                        Some(n) => plan.placed[fi].get(n).copied().flatten().is_some(),
                        None => s.st_shndx(LE) == elf::SHN_ABS,
                    },
                };
                // lld's rule for locals no kept relocation names: `--discard-*` decides, and
                // by default a `.L` temporary in a mergeable section goes (the assembler kept
                // it only for relocations, such as those of a discarded COMDAT copy).
                let keep = keep
                    && (referenced[i] || {
                        let temporary = f.sym_name(i).starts_with(b".L");
                        let in_merge = section.is_some_and(|n| {
                            plan.merged_input.contains_key(&(fi as FileId, n as u32))
                        });
                        match config.discard {
                            Discard::None => true,
                            Discard::All => false,
                            Discard::Locals => !temporary,
                            Discard::Default => !(temporary && in_merge),
                        }
                    });
                if keep {
                    kept[i] = true;
                    list.push(i as u32);
                }
            }
            locals.push(list);
            local_kept.push(kept);
        }
        // Undefined symbols a kept relocation names are written even when resolution never
        // saw a reference to them by name: `--wrap` sends references to `__wrap_foo` after it.
        let mut named = hashbrown::HashSet::new();
        for fi in 0..res.files.len() {
            let file = fi as FileId;
            kept_relocation_symbols(res, plan, file, |sym| {
                if let Some(id) = res.global_of(file, sym as usize) {
                    named.insert(id);
                }
            });
        }
        let mut globals = Vec::new();
        let mut global_index = HashMap::new();
        let mut add = |id: SymbolId, globals: &mut Vec<SymbolId>| {
            let emitted = global_emitted(res, plan, id)
                || (named.contains(&id)
                    && matches!(
                        res.symtab.get(id).def,
                        SymbolDef::Undefined | SymbolDef::Lazy { .. }
                    ));
            if emitted && !global_index.contains_key(&id) {
                global_index.insert(id, globals.len() as u32);
                globals.push(id);
            }
        };
        for ids in &res.file_syms {
            for &id in ids {
                add(id, &mut globals);
            }
        }
        // `--defsym` definitions exist outside any object; `--wrap=foo` leaves `foo` itself
        // mapped by no object (every reference, the definition's own too, goes to
        // `__wrap_foo`), yet its definition stays, as in lld's output. A `-u` name is written
        // only if an object defines or references it (lld drops one left undefined).
        for name in config
            .defsyms
            .iter()
            .map(|d| d.name.as_str())
            .chain(config.wrap.iter().map(String::as_str))
        {
            if let Some(id) = res.symtab.lookup(name.as_bytes()) {
                add(id, &mut globals);
            }
        }
        SymbolPlan {
            locals,
            globals,
            global_index,
            local_kept,
        }
    }
}

/// Which local symbols (by input index, below `first_global`) of `file` the relocations of its
/// kept sections name.
fn referenced_locals(res: &Resolved, plan: &Placement, file: FileId) -> Vec<bool> {
    let mut used = vec![false; res.files[file as usize].first_global];
    kept_relocation_symbols(res, plan, file, |sym| {
        if let Some(u) = used.get_mut(sym as usize) {
            *u = true;
        }
    });
    used
}

/// Calls `visit` with the symbol index of every relocation of `file`'s kept sections (for
/// `.eh_frame`, of its live records).
fn kept_relocation_symbols(
    res: &Resolved,
    plan: &Placement,
    file: FileId,
    mut visit: impl FnMut(u32),
) {
    let f = &res.files[file as usize];
    for (si, s) in f.sections.iter().enumerate() {
        if plan.placed[file as usize][si].is_none() || s.kind == SectionKind::GnuProperty {
            continue;
        }
        if s.kind == SectionKind::EhFrame {
            for r in plan.eh_relocs.get(&(file, si as u32)).into_iter().flatten() {
                visit(r.sym);
            }
        } else {
            for r in s.relocs.iter() {
                visit(r.r_sym(LE, false));
            }
        }
    }
}

/// Whether a global symbol appears in the output: not when its definition was discarded or
/// collected (references to it from kept sections become `R_X86_64_NONE`, as in lld).
fn global_emitted(res: &Resolved, plan: &Placement, id: SymbolId) -> bool {
    match res.symtab.get(id).def {
        SymbolDef::Defined { file, index } => {
            let f = &res.files[file as usize];
            match f.sym_section(index as usize) {
                Some(n) => plan.placed[file as usize]
                    .get(n)
                    .copied()
                    .flatten()
                    .is_some(),
                None => f
                    .symbols
                    .get(index as usize)
                    .is_some_and(|s| s.st_shndx(LE) != elf::SHN_UNDEF),
            }
        }
        SymbolDef::Undefined | SymbolDef::Lazy { .. } => res.symtab.get(id).referenced,
        SymbolDef::Common { .. } | SymbolDef::Absolute(_) | SymbolDef::Synthetic => true,
        SymbolDef::Shared { .. } | SymbolDef::Bitcode { .. } => false,
    }
}

/// Copies every kept input section's relocations to its output section, the place moved by
/// the section's offset and the symbol mapped to what the output will have: a relocation
/// against an input section symbol becomes one against the output section's, its addend moved
/// by where the input section went.
fn collect_relocations(res: &Resolved, plan: &mut Placement, symbols: &SymbolPlan) {
    let mut per_section: Vec<Vec<PendingRela>> = vec![Vec::new(); plan.sections.len()];
    for (fi, f) in res.files.iter().enumerate() {
        let fid = fi as FileId;
        for (si, s) in f.sections.iter().enumerate() {
            let Some((out, base)) = plan.placed[fi][si] else {
                continue;
            };
            if s.kind == SectionKind::GnuProperty {
                continue;
            }
            let owned;
            let relocs: &[InRela] = if s.kind == SectionKind::EhFrame {
                match plan.eh_relocs.get(&(fid, si as u32)) {
                    Some(r) => r,
                    None => continue,
                }
            } else {
                owned = s.relocs.iter().map(InRela::of).collect::<Vec<_>>();
                &owned
            };
            for r in relocs {
                let (sym, addend) = map_symbol(res, plan, symbols, fid, r.sym as usize, r.addend);
                let (sym, r_type, addend) = match sym {
                    Some(sym) => (sym, r.r_type, addend),
                    // Into something discarded, the addend kept as lld keeps it: through a
                    // section symbol the relocation becomes `R_X86_64_NONE`; through a named
                    // symbol the output does not have, lld keeps the type against symbol 0
                    // (the final link then writes the bare addend, which is the same).
                    None => {
                        let by_section = f
                            .symbols
                            .get(r.sym as usize)
                            .is_some_and(|s| s.st_type() == elf::STT_SECTION);
                        let r_type = if by_section {
                            elf::R_X86_64_NONE
                        } else {
                            r.r_type
                        };
                        (SymRef::None, r_type, r.addend)
                    }
                };
                let offset = match s.kind {
                    SectionKind::EhFrame => base + r.offset,
                    _ => plan
                        .locate(fid, si, r.offset)
                        .map_or(base + r.offset, |(_, o)| o),
                };
                per_section[out as usize].push(PendingRela {
                    offset,
                    sym,
                    r_type,
                    addend,
                });
            }
        }
    }
    for (os, relocs) in plan.sections.iter_mut().zip(per_section) {
        os.relocs = relocs;
    }
}

/// Where relocation symbol `sym` of `file` points in the output, with the addend adjusted;
/// `None` when it points into something not kept.
fn map_symbol(
    res: &Resolved,
    plan: &Placement,
    symbols: &SymbolPlan,
    file: FileId,
    sym: usize,
    addend: i64,
) -> (Option<SymRef>, i64) {
    if sym == 0 {
        return (Some(SymRef::None), addend);
    }
    let f = &res.files[file as usize];
    if let Some(id) = res.global_of(file, sym) {
        return if symbols.global_index.contains_key(&id) {
            (Some(SymRef::Global(id)), addend)
        } else {
            (None, 0)
        };
    }
    let Some(s) = f.symbols.get(sym) else {
        return (None, 0);
    };
    if s.st_type() == elf::STT_SECTION {
        let Some(shndx) = f.sym_section(sym) else {
            return (None, 0);
        };
        return match plan.locate(file, shndx, addend as u64) {
            Some((out, place)) => (Some(SymRef::Section(out)), place as i64),
            None => (None, 0),
        };
    }
    if symbols.local_kept[file as usize].get(sym).copied() == Some(true) {
        (Some(SymRef::Local(file, sym as u32)), addend)
    } else {
        (None, 0)
    }
}

/// A growing string table (names are not shared: the tables of a `-r` output are small next
/// to its sections).
struct StringTable {
    bytes: Vec<u8>,
}

impl StringTable {
    fn new() -> StringTable {
        StringTable { bytes: vec![0] }
    }
    fn add(&mut self, s: &[u8]) -> u32 {
        if s.is_empty() {
            return 0;
        }
        let off = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s);
        self.bytes.push(0);
        off
    }
}

fn put_uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// One output section header, with the bytes it covers.
struct Header {
    name: u32,
    sh_type: u32,
    flags: u64,
    size: u64,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
    data: Vec<u8>,
}

/// The output `.symtab` and, for section indices past `SHN_LORESERVE`, its `.symtab_shndx`.
#[derive(Default)]
struct SymtabBuilder {
    bytes: Vec<u8>,
    shndx_words: Vec<u32>,
    count: u32,
}

impl SymtabBuilder {
    /// Appends a symbol in output section `section` (an index), or with the special index
    /// `special` (`SHN_ABS`, `SHN_COMMON`, `SHN_UNDEF`) when `section` is `None`; returns its
    /// index.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        name: u32,
        info: u8,
        other: u8,
        section: Option<u32>,
        special: u16,
        value: u64,
        size: u64,
    ) -> u32 {
        let shndx = match section {
            Some(i) if i as usize >= SHN_LORESERVE => {
                self.shndx_words.push(i);
                elf::SHN_XINDEX
            }
            Some(i) => {
                self.shndx_words.push(0);
                i as u16
            }
            None => {
                self.shndx_words.push(0);
                special
            }
        };
        self.bytes.extend_from_slice(&name.to_le_bytes());
        self.bytes.push(info);
        self.bytes.push(other);
        self.bytes.extend_from_slice(&shndx.to_le_bytes());
        self.bytes.extend_from_slice(&value.to_le_bytes());
        self.bytes.extend_from_slice(&size.to_le_bytes());
        self.count += 1;
        self.count - 1
    }
}

/// Lays the output file out and returns its bytes: the ELF header, every section's contents
/// in section order, then the section header table.
fn render(
    config: &Config,
    res: &Resolved,
    plan: &Placement,
    symbols: SymbolPlan,
) -> Result<Vec<u8>> {
    // Final section indices: each output section, its relocation section right after it (as
    // lld orders them), then the symbol table and the string tables.
    let (index, rela_index) = plan.section_indices();
    let mut next = 1 + plan.slots().len() as u32;
    // `.llvm_addrsig`: the address-significant symbols of every input, renumbered, when every
    // object has a table (one without lists nothing and means "all of them").
    let addrsig_inputs: Option<Vec<(FileId, &[u8])>> = res
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.symbols.len() > 1)
        .map(|(fi, f)| {
            f.sections
                .iter()
                .find(|s| {
                    s.sh_type() == crate::input::input_files::SHT_LLVM_ADDRSIG
                        && s.shdr.sh_link(LE) != 0
                })
                .map(|s| (fi as FileId, s.data))
        })
        .collect();
    if addrsig_inputs.is_some() {
        next += 1;
    }
    let symtab_index = next;
    let mut shndx_table_index = 0;
    // The symbol table's own extension for section indices past 0xff00, when needed.
    if next as usize >= SHN_LORESERVE {
        shndx_table_index = next + 1;
        next += 1;
    }
    let strtab_index = next + 2;
    let section_count = strtab_index + 1;

    // Section symbols: one per output section a relocation or group names through one.
    let mut section_sym_needed = vec![false; plan.sections.len()];
    for os in &plan.sections {
        for r in &os.relocs {
            if let SymRef::Section(o) = r.sym {
                section_sym_needed[o as usize] = true;
            }
        }
    }
    for os in &plan.sections {
        if let Some((file, gsec)) = os.group {
            let f = &res.files[file as usize];
            let sig = f.sections[gsec as usize].shdr.sh_info(LE) as usize;
            if let Some(s) = f.symbols.get(sig) {
                if s.st_type() == elf::STT_SECTION {
                    if let Some((o, _)) = f
                        .sym_section(sig)
                        .and_then(|n| plan.placed[file as usize].get(n).copied().flatten())
                    {
                        section_sym_needed[o as usize] = true;
                    }
                }
            }
        }
    }

    for &(file, data) in addrsig_inputs.iter().flatten() {
        let f = &res.files[file as usize];
        for i in crate::icf::addrsig_indices(data) {
            let i = i as usize;
            if res.global_of(file, i).is_some() {
                continue;
            }
            if f.symbols
                .get(i)
                .is_some_and(|s| s.st_type() == elf::STT_SECTION)
            {
                if let Some((o, _)) = f
                    .sym_section(i)
                    .and_then(|n| plan.placed[file as usize].get(n).copied().flatten())
                {
                    section_sym_needed[o as usize] = true;
                }
            }
        }
    }

    let mut strtab = StringTable::new();
    let mut symtab = SymtabBuilder::default();
    symtab.push(0, 0, 0, None, 0, 0, 0);
    let mut section_sym = vec![0u32; plan.sections.len()];
    for (i, needed) in section_sym_needed.iter().enumerate() {
        if *needed {
            section_sym[i] = symtab.push(0, elf::STT_SECTION, 0, Some(index[i]), 0, 0, 0);
        }
    }
    let mut local_index: HashMap<(FileId, u32), u32> = HashMap::new();
    for (fi, list) in symbols.locals.iter().enumerate() {
        let f = &res.files[fi];
        for &li in list {
            let s = &f.symbols[li as usize];
            let name = strtab.add(f.sym_name(li as usize));
            let in_section = f
                .sym_section(li as usize)
                .filter(|_| s.st_type() != elf::STT_FILE);
            let (section, special, value) = match in_section {
                None => (None, elf::SHN_ABS, s.st_value(LE)),
                Some(n) => match plan.locate(fi as FileId, n, s.st_value(LE)) {
                    Some((o, value)) => (Some(index[o as usize]), 0, value),
                    None => (None, elf::SHN_ABS, s.st_value(LE)),
                },
            };
            let i = symtab.push(
                name,
                s.st_info(),
                s.st_other(),
                section,
                special,
                value,
                s.st_size(LE),
            );
            local_index.insert((fi as FileId, li), i);
        }
    }
    let first_global = symtab.count;
    let mut global_out = HashMap::new();
    for &id in &symbols.globals {
        let s = res.symtab.get(id);
        let other = s.visibility & 3;
        let bind = if s.weak {
            elf::STB_WEAK
        } else {
            elf::STB_GLOBAL
        };
        let i = match s.def {
            SymbolDef::Defined { file, index: di } => {
                let f = &res.files[file as usize];
                let raw = &f.symbols[di as usize];
                let name = strtab.add(f.sym_name(di as usize));
                let other = (raw.st_other() & !3) | other;
                let (section, special, value) = match f.sym_section(di as usize) {
                    None => (None, raw.st_shndx(LE), raw.st_value(LE)),
                    Some(n) => match plan.locate(file, n, raw.st_value(LE)) {
                        Some((o, value)) => (Some(index[o as usize]), 0, value),
                        None => (None, elf::SHN_UNDEF, 0),
                    },
                };
                symtab.push(
                    name,
                    raw.st_info(),
                    other,
                    section,
                    special,
                    value,
                    raw.st_size(LE),
                )
            }
            SymbolDef::Common { size, align, .. } => {
                let name = strtab.add(s.name);
                let info = (bind << 4) | elf::STT_OBJECT;
                match plan.commons.get(&id) {
                    Some(&(o, off)) => {
                        symtab.push(name, info, other, Some(index[o as usize]), 0, off, size)
                    }
                    None => symtab.push(name, info, other, None, elf::SHN_COMMON, align, size),
                }
            }
            SymbolDef::Absolute(v) => {
                let name = strtab.add(s.name);
                symtab.push(
                    name,
                    (bind << 4) | s.sym_type,
                    other,
                    None,
                    elf::SHN_ABS,
                    v,
                    0,
                )
            }
            SymbolDef::Synthetic if plan.script_symbols.contains_key(s.name_str().as_str()) => {
                // A symbol `SECTIONS` assigns: an untyped global, absolute or in the output
                // section its value is relative to; one assigned before any output section
                // goes to the first section, as lld writes it.
                let name = strtab.add(s.name);
                let info = elf::STB_GLOBAL << 4;
                match plan.script_symbols[s.name_str().as_str()] {
                    script::ScriptValue::Absolute(v) => {
                        symtab.push(name, info, other, None, elf::SHN_ABS, v, 0)
                    }
                    script::ScriptValue::InSection(o, v) => {
                        symtab.push(name, info, other, Some(index[o as usize]), 0, v, 0)
                    }
                    script::ScriptValue::BeforeSections(v) => {
                        let first = (!plan.sections.is_empty()).then_some(1);
                        symtab.push(name, info, other, first, elf::SHN_ABS, v, 0)
                    }
                }
            }
            SymbolDef::Synthetic => {
                // A `--defsym` alias: the target's place, plus the addend.
                let name = strtab.add(s.name);
                let target = config.defsyms.iter().find_map(|d| match &d.value {
                    DefsymValue::Symbol(t, add) if d.name.as_bytes() == s.name => {
                        Some((t.clone(), *add))
                    }
                    _ => None,
                });
                let resolved = target.and_then(|(t, add)| {
                    let tid = res.symtab.lookup(t.as_bytes())?;
                    let SymbolDef::Defined { file, index: di } = res.symtab.get(tid).def else {
                        return None;
                    };
                    let raw = &res.files[file as usize].symbols[di as usize];
                    let Some(n) = res.files[file as usize].sym_section(di as usize) else {
                        return Some((
                            None,
                            raw.st_value(LE).wrapping_add(add as u64),
                            raw.st_type(),
                        ));
                    };
                    let (o, value) = plan.locate(file, n, raw.st_value(LE))?;
                    Some((
                        Some(index[o as usize]),
                        value.wrapping_add(add as u64),
                        raw.st_type(),
                    ))
                });
                match resolved {
                    Some((section, value, ty)) => symtab.push(
                        name,
                        (elf::STB_GLOBAL << 4) | ty,
                        other,
                        section,
                        elf::SHN_ABS,
                        value,
                        0,
                    ),
                    None => symtab.push(name, elf::STB_GLOBAL << 4, other, None, 0, 0, 0),
                }
            }
            _ => {
                let name = strtab.add(s.name);
                symtab.push(name, (bind << 4) | s.sym_type, other, None, 0, 0, 0)
            }
        };
        global_out.insert(id, i);
    }

    let sym_index = |r: SymRef| -> u32 {
        match r {
            SymRef::None => 0,
            SymRef::Local(f, i) => local_index.get(&(f, i)).copied().unwrap_or(0),
            SymRef::Section(o) => section_sym[o as usize],
            SymRef::Global(id) => global_out.get(&id).copied().unwrap_or(0),
        }
    };

    // The headers, in index order.
    let mut shstrtab = StringTable::new();
    let mut headers: Vec<Header> = Vec::with_capacity(section_count as usize);
    headers.push(Header {
        name: 0,
        sh_type: 0,
        flags: 0,
        size: 0,
        link: 0,
        info: 0,
        align: 0,
        entsize: 0,
        data: Vec::new(),
    });
    for slot in plan.slots() {
        let (Slot::Section(i) | Slot::Rela(i)) = slot;
        let (i, os) = (i as usize, &plan.sections[i as usize]);
        if matches!(slot, Slot::Section(_)) {
            let name_str = String::from_utf8_lossy(&os.name).into_owned();
            let (mut data, mut flags, mut size, mut align) =
                (os.data.clone(), os.flags, os.size, os.align);
            let (mut link, mut info) = (0, 0);
            if let Some((file, gsec)) = os.group {
                // The group: its flag word, then its members' output sections and their relocations.
                let f = &res.files[file as usize];
                let g = &f.sections[gsec as usize];
                let mut words = Vec::new();
                let mut members = group_members(g.data);
                words.push(members.next().unwrap_or(0));
                // Each member's output section once (a script may put several members, or
                // members of several groups, in one), as lld lists them.
                let mut add = |w: u32| {
                    if w != 0 && !words[1..].contains(&w) {
                        words.push(w);
                    }
                };
                for m in members {
                    let placed_at = |n: usize| plan.placed[file as usize].get(n).copied().flatten();
                    let Some(s) = f.sections.get(m as usize) else {
                        continue;
                    };
                    if matches!(s.sh_type(), elf::SHT_RELA | elf::SHT_REL) {
                        // Relocation sections are named with the section they apply to.
                        continue;
                    }
                    if let Some((o, _)) = placed_at(m as usize) {
                        add(index[o as usize]);
                        if !s.relocs.is_empty() {
                            add(rela_index[o as usize]);
                        }
                    }
                }
                data = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                size = data.len() as u64;
                align = 4;
                link = symtab_index;
                let sig = g.shdr.sh_info(LE) as usize;
                info = match res.global_of(file, sig) {
                    Some(id) => global_out.get(&id).copied().unwrap_or(0),
                    None => match f.symbols.get(sig) {
                        Some(s) if s.st_type() == elf::STT_SECTION => f
                            .sym_section(sig)
                            .and_then(|n| plan.placed[file as usize].get(n).copied().flatten())
                            .map_or(0, |(o, _)| section_sym[o as usize]),
                        _ => local_index.get(&(file, sig as u32)).copied().unwrap_or(0),
                    },
                };
            }
            if let Some(o) = os.link_order {
                link = index[o as usize];
            }
            if os.sh_type != elf::SHT_NOBITS && flags & u64::from(elf::SHF_ALLOC) == 0 {
                let (kind, level) = crate::compress::choice(config, &name_str, flags);
                if let Some(c) = crate::compress::compress(&data, kind, level)? {
                    data = c;
                    size = data.len() as u64;
                    // The alignment stays the section's, as lld keeps it.
                    flags |= u64::from(elf::SHF_COMPRESSED);
                }
            }
            headers.push(Header {
                name: shstrtab.add(&os.name),
                sh_type: os.sh_type,
                flags,
                size,
                link,
                info,
                align,
                entsize: os.entsize,
                data,
            });
        }
        if matches!(slot, Slot::Rela(_)) {
            let mut rela = Vec::with_capacity(os.relocs.len() * 24);
            for r in &os.relocs {
                let out = OutRela {
                    offset: r.offset,
                    sym: sym_index(r.sym),
                    r_type: r.r_type,
                    addend: r.addend,
                };
                rela.extend_from_slice(&out.offset.to_le_bytes());
                rela.extend_from_slice(
                    &((u64::from(out.sym) << 32) | u64::from(out.r_type)).to_le_bytes(),
                );
                rela.extend_from_slice(&out.addend.to_le_bytes());
            }
            let mut name = b".rela".to_vec();
            name.extend_from_slice(&os.name);
            let group_flag = if os.in_group {
                u64::from(elf::SHF_GROUP)
            } else {
                0
            };
            headers.push(Header {
                name: shstrtab.add(&name),
                sh_type: elf::SHT_RELA,
                flags: u64::from(elf::SHF_INFO_LINK) | group_flag,
                size: rela.len() as u64,
                link: symtab_index,
                info: index[i],
                align: 8,
                entsize: 24,
                data: rela,
            });
        }
    }
    if let Some(inputs) = &addrsig_inputs {
        let mut table = Vec::new();
        let mut seen = hashbrown::HashSet::new();
        for &(file, data) in inputs {
            for i in crate::icf::addrsig_indices(data) {
                let (sym, _) = map_symbol(res, plan, &symbols, file, i as usize, 0);
                let out = match sym {
                    Some(SymRef::None) | None => continue,
                    Some(r) => sym_index(r),
                };
                if out != 0 && seen.insert(out) {
                    put_uleb(&mut table, u64::from(out));
                }
            }
        }
        headers.push(Header {
            name: shstrtab.add(b".llvm_addrsig"),
            sh_type: crate::input::input_files::SHT_LLVM_ADDRSIG,
            flags: u64::from(elf::SHF_EXCLUDE),
            size: table.len() as u64,
            link: symtab_index,
            info: 0,
            align: 1,
            entsize: 0,
            data: table,
        });
    }
    let SymtabBuilder {
        bytes: symtab,
        shndx_words,
        ..
    } = symtab;
    let symtab_size = symtab.len() as u64;
    headers.push(Header {
        name: shstrtab.add(b".symtab"),
        sh_type: elf::SHT_SYMTAB,
        flags: 0,
        size: symtab_size,
        link: strtab_index,
        info: first_global,
        align: 8,
        entsize: 24,
        data: symtab,
    });
    if shndx_table_index != 0 {
        let data: Vec<u8> = shndx_words.iter().flat_map(|w| w.to_le_bytes()).collect();
        headers.push(Header {
            name: shstrtab.add(b".symtab_shndx"),
            sh_type: elf::SHT_SYMTAB_SHNDX,
            flags: 0,
            size: data.len() as u64,
            link: symtab_index,
            info: 0,
            align: 4,
            entsize: 4,
            data,
        });
    }
    let shstrtab_name = shstrtab.add(b".shstrtab");
    let strtab_name = shstrtab.add(b".strtab");
    headers.push(Header {
        name: shstrtab_name,
        sh_type: elf::SHT_STRTAB,
        flags: 0,
        size: 0,
        link: 0,
        info: 0,
        align: 1,
        entsize: 0,
        data: Vec::new(),
    });
    let shstrtab_pos = headers.len() - 1;
    headers.push(Header {
        name: strtab_name,
        sh_type: elf::SHT_STRTAB,
        flags: 0,
        size: strtab.bytes.len() as u64,
        link: 0,
        info: 0,
        align: 1,
        entsize: 0,
        data: strtab.bytes,
    });
    headers[shstrtab_pos].size = shstrtab.bytes.len() as u64;
    headers[shstrtab_pos].data = shstrtab.bytes;
    if headers.len() != section_count as usize {
        return Err(err!(
            "internal error: -r output has {} sections, expected {section_count}",
            headers.len()
        ));
    }

    // File offsets: contents in section order after the ELF header, then the header table.
    let mut offsets = vec![0u64; headers.len()];
    let mut pos = 64u64;
    for (i, h) in headers.iter().enumerate().skip(1) {
        let align = h.align.max(1);
        pos = pos.div_ceil(align) * align;
        offsets[i] = pos;
        if h.sh_type != elf::SHT_NOBITS {
            pos += h.data.len() as u64;
        }
    }
    let shoff = pos.div_ceil(8) * 8;
    let total = shoff + 64 * headers.len() as u64;
    let mut out = vec![0u8; total as usize];
    for (i, h) in headers.iter().enumerate() {
        if h.sh_type != elf::SHT_NOBITS && !h.data.is_empty() {
            let o = offsets[i] as usize;
            out[o..o + h.data.len()].copy_from_slice(&h.data);
        }
    }
    // The ELF header; the OS/ABI byte is the first object's (GNU when it uses GNU extensions).
    let osabi = res.files.first().map_or(0, |f| f.data[7]);
    out[0..4].copy_from_slice(b"\x7fELF");
    out[4] = elf::ELFCLASS64;
    out[5] = elf::ELFDATA2LSB;
    out[6] = elf::EV_CURRENT;
    out[7] = osabi;
    let put16 = |b: &mut [u8], o: usize, v: u16| b[o..o + 2].copy_from_slice(&v.to_le_bytes());
    let put32 = |b: &mut [u8], o: usize, v: u32| b[o..o + 4].copy_from_slice(&v.to_le_bytes());
    let put64 = |b: &mut [u8], o: usize, v: u64| b[o..o + 8].copy_from_slice(&v.to_le_bytes());
    put16(&mut out, 16, elf::ET_REL);
    put16(&mut out, 18, elf::EM_X86_64);
    put32(&mut out, 20, u32::from(elf::EV_CURRENT));
    put64(&mut out, 40, shoff);
    put16(&mut out, 52, 64);
    put16(&mut out, 58, 64);
    // Extended numbering: the real counts live in section 0's header.
    let (shnum, shstrndx) = (headers.len(), shstrtab_pos);
    put16(
        &mut out,
        60,
        if shnum >= SHN_LORESERVE {
            0
        } else {
            shnum as u16
        },
    );
    put16(
        &mut out,
        62,
        if shstrndx >= SHN_LORESERVE {
            elf::SHN_XINDEX
        } else {
            shstrndx as u16
        },
    );
    for (i, h) in headers.iter().enumerate() {
        let o = (shoff + 64 * i as u64) as usize;
        let (size, link) = if i == 0 {
            (
                if shnum >= SHN_LORESERVE {
                    shnum as u64
                } else {
                    0
                },
                if shstrndx >= SHN_LORESERVE {
                    shstrndx as u32
                } else {
                    0
                },
            )
        } else {
            (h.size, h.link)
        };
        put32(&mut out, o, h.name);
        put32(&mut out, o + 4, h.sh_type);
        put64(&mut out, o + 8, h.flags);
        put64(&mut out, o + 24, if i == 0 { 0 } else { offsets[i] });
        put64(&mut out, o + 32, size);
        put32(&mut out, o + 40, link);
        put32(&mut out, o + 44, h.info);
        put64(&mut out, o + 48, h.align);
        put64(&mut out, o + 56, h.entsize);
    }
    Ok(out)
}

/// The symbols a `-r` link defines itself: only `--defsym`'s. The final link defines
/// `__start_SEC`, `_end` and the like, so references to them stay undefined here.
pub fn define_symbols(config: &Config, res: &mut Resolved) {
    for d in &config.defsyms {
        if !crate::resolve::scripts::link_defines(d, res) {
            continue;
        }
        let leaked: &'static [u8] = Box::leak(d.name.clone().into_bytes().into_boxed_slice());
        let id = res.symtab.intern(leaked);
        let sym = res.symtab.get_mut(id);
        if d.hidden {
            sym.visibility = elf::STV_HIDDEN;
        }
        sym.def = match d.value {
            DefsymValue::Absolute(v) => SymbolDef::Absolute(v),
            // An alias is written with its target's place (`render`); a script expression
            // never gets here (`resolve::scripts` refuses one under -r).
            DefsymValue::Symbol(..) | DefsymValue::Expr(_) | DefsymValue::Placed(_) => {
                SymbolDef::Synthetic
            }
        };
        sym.weak = false;
    }
}
