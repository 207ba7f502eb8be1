//! What a `SECTIONS` command does to the output sections once every input and linker-made
//! section has gone to one (lld's `adjustOutputSections` and `computeInputSections`' sorting):
//!
//! - a description no input went to still makes its section when it moves the location
//!   counter, holds data or assigns a symbol; such an empty section takes the allocation and
//!   write flags of the last section with inputs before it, as in lld, so that it does not
//!   change the program headers;
//! - a description's type applies: `NOLOAD` is `SHT_NOBITS`, `COPY`/`INFO`/`OVERLAY` are not
//!   allocated, `TYPE=` sets the type;
//! - `BYTE`/`SHORT`/`LONG`/`QUAD`/`SQUAD` become chunks of their own;
//! - chunks are put in description order: by description, then by section pattern, each
//!   pattern's sections sorted as the pattern says (`SORT_BY_NAME`, `SORT_BY_ALIGNMENT`,
//!   `SORT_BY_INIT_PRIORITY`, `REVERSE`, nested: the inner sort first; `--sort-section` for a
//!   pattern without one), else in input order;
//!   chunks no description took (orphans of the section's name) come last;
//! - `SUBALIGN` replaces the alignment of the description's input sections.

use super::commands::{self, SectionCommands, Taken};
use crate::config::SortSection;
use crate::error::{Error, Result};
use crate::input::input_files::FileId;
use crate::input::section_rules::init_priority;
use crate::output::script_layout::{Body, BodyItem, DataCommand};
use crate::output::sections::{Chunk, ChunkKind, OutputSection, Synthetic, ALLOC, WRITE};
use crate::resolve::symbol_table::SymbolId;
use crate::resolve::Resolved;
use crate::script::ast::{OutputSectionCommand, SectionType, SortKind};
use crate::script::expr;
use hashbrown::HashMap;
use object::elf;

/// Where descriptions took the chunks that are not input sections.
#[derive(Default)]
pub struct TakenOther {
    pub synthetic: HashMap<Synthetic, Taken>,
    pub commons: HashMap<SymbolId, Taken>,
    /// By copy section (`ChunkKind::Copy(k)`).
    pub copies: Vec<Option<Taken>>,
}

/// What [`arrange`] made: the data commands (`ChunkKind::Data(i)` is `data[i]`) and, by
/// output section, the body a description gives it.
pub struct Arranged {
    pub data: Vec<DataCommand>,
    pub bodies: Vec<Option<Body>>,
}

/// See the module documentation.
#[allow(clippy::too_many_arguments)]
pub(super) fn arrange(
    sort_section: Option<SortSection>,
    res: &Resolved,
    commands: &SectionCommands,
    sections: &mut Vec<OutputSection>,
    by_name: &mut HashMap<String, u32>,
    taken: &[Vec<Option<Taken>>],
    other: &TakenOther,
    merge_inputs: &[Vec<(FileId, u32)>],
) -> Result<Arranged> {
    let mut data = Vec::new();
    let mut data_taken: Vec<Taken> = Vec::new();
    // lld: an empty section inherits these from the last section with inputs before it.
    let mut flags = ALLOC;
    for (ci, o) in commands.outputs() {
        if o.name == commands::DISCARD {
            continue;
        }
        let non_alloc = matches!(
            o.section_type,
            Some(SectionType::Copy | SectionType::Info | SectionType::Overlay)
        );
        let existing = by_name.get(&o.name).copied();
        let osec = match existing {
            Some(i) if !sections[i as usize].chunks.is_empty() => {
                flags = sections[i as usize].flags;
                i
            }
            Some(i) => i,
            None if commands::kept_when_empty(o) || commands.addressed.contains(&o.name) => {
                // Without `SECTIONS`, lld ranks such a section before it gives it the flags
                // of the section before it: it goes among the non-allocated sections, after
                // the symbol and string tables, which weld does not do.
                if !commands.has_sections() && commands.is_orphan_placed(ci) {
                    return Err(Error(format!(
                        "{}: linker script command not supported yet: OVERWRITE_SECTIONS \
                         description of {} that takes no input section, without SECTIONS",
                        o.loc, o.name
                    )));
                }
                let f = flags & ((if non_alloc { 0 } else { ALLOC }) | WRITE);
                let i = sections.len() as u32;
                // lld makes an empty `.bss` NOBITS, any other empty section PROGBITS.
                let ty = if o.name == ".bss" {
                    elf::SHT_NOBITS
                } else {
                    elf::SHT_PROGBITS
                };
                sections.push(OutputSection::new(&o.name, ty, f));
                by_name.insert(o.name.clone(), i);
                i
            }
            None => continue,
        };
        let os = &mut sections[osec as usize];
        // Without `SECTIONS` the built-in layout places the section: a description's
        // `ALIGN(n)` raises its alignment, as lld's `adjustOutputSections` does (under
        // `SECTIONS` the walk aligns it).
        if let (false, Some(e)) = (commands.has_sections(), &o.align) {
            let v = expr::eval_constant(e).ok_or_else(|| {
                Error(format!(
                    "{}: linker script command not supported yet: ALIGN of a non-constant \
                     expression without SECTIONS",
                    o.loc
                ))
            })??;
            os.align = os.align.max(v);
        }
        os.in_overlay = o.in_overlay;
        match &o.section_type {
            Some(SectionType::NoLoad) => os.sh_type = elf::SHT_NOBITS,
            Some(SectionType::Copy | SectionType::Info | SectionType::Overlay) => {
                os.flags &= !ALLOC;
            }
            Some(SectionType::Type(e)) => {
                let v = expr::eval_constant(e).ok_or_else(|| {
                    Error(format!("{}: section type must be a constant", o.loc))
                })??;
                os.sh_type = v as u32;
            }
            None => {}
        }
        if let Some(e) = &o.fill {
            let v = expr::eval_constant(e)
                .ok_or_else(|| Error(format!("{}: fill must be a constant", o.loc)))??;
            os.fill = Some((v as u32).to_be_bytes());
        }
        for (bi, c) in o.commands.iter().enumerate() {
            if let OutputSectionCommand::Data { size, text, .. } = c {
                let i = data.len() as u32;
                data.push(DataCommand {
                    command: ci as u32,
                    item: bi as u32,
                    size: *size,
                    text: text.clone(),
                });
                data_taken.push(Taken {
                    command: ci as u32,
                    body: bi as u32,
                    pattern: 0,
                });
                os.chunks.push(Chunk {
                    kind: ChunkKind::Data(i),
                    offset: 0,
                    size: u64::from(*size),
                    align: 1,
                });
            }
        }
    }

    // Each chunk's description, and what its pattern sorts by.
    let taken_of = |c: &Chunk| -> Option<Taken> {
        match c.kind {
            ChunkKind::Input { file, sec } => taken[file as usize][sec as usize],
            ChunkKind::Merged(g) => merge_inputs[g as usize]
                .first()
                .and_then(|&(f, s)| taken[f as usize][s as usize]),
            ChunkKind::Synthetic(k) => other.synthetic.get(&k).copied(),
            ChunkKind::Common(id) => other.commons.get(&id).copied(),
            ChunkKind::Copy(k) => other.copies.get(k as usize).copied().flatten(),
            ChunkKind::Data(i) => data_taken.get(i as usize).copied(),
            ChunkKind::Relocs { .. } => None,
        }
    };
    let name_of = |c: &Chunk| chunk_name(res, merge_inputs, c).to_string();
    let mut bodies = Vec::with_capacity(sections.len());
    for os in sections.iter_mut() {
        let keys: Vec<Option<Taken>> = os.chunks.iter().map(taken_of).collect();
        let mut idx: Vec<usize> = (0..os.chunks.len()).collect();
        idx.sort_by_key(|&i| {
            keys[i].map_or((u32::MAX, u32::MAX, u32::MAX), |t| {
                (t.command, t.body, t.pattern)
            })
        });
        // Sort each pattern's run as the pattern says.
        let mut start = 0;
        while start < idx.len() {
            let key = keys[idx[start]];
            let mut end = start + 1;
            while end < idx.len() && keys[idx[end]] == key {
                end += 1;
            }
            if let Some(t) = key {
                if let Some((mut outer, inner)) = pattern_sorts(commands, t) {
                    // `--sort-section` sorts what the script leaves unsorted.
                    if outer == SortKind::Default {
                        outer = match sort_section {
                            Some(SortSection::Name) => SortKind::Name,
                            Some(SortSection::Alignment) => SortKind::Alignment,
                            None => SortKind::Default,
                        };
                    }
                    let run = &mut idx[start..end];
                    sort_run(run, inner, &os.chunks, &name_of);
                    sort_run(run, outer, &os.chunks, &name_of);
                }
            }
            start = end;
        }
        let subalign: HashMap<u32, u64> = keys
            .iter()
            .flatten()
            .filter_map(|t| {
                let o = commands.output(t.command)?;
                let e = o.subalign.as_ref()?;
                Some((t.command, expr::eval_constant(e)?.ok()?))
            })
            .collect();
        let old = std::mem::take(&mut os.chunks);
        os.chunks = idx
            .iter()
            .map(|&i| {
                let mut c = old[i];
                if let Some(&a) = keys[i].and_then(|t| subalign.get(&t.command)) {
                    c.align = a.max(1);
                }
                c
            })
            .collect();
        let sorted: Vec<Option<Taken>> = idx.iter().map(|&i| keys[i]).collect();
        bodies.push(
            commands
                .position_of(&os.name)
                .map(|ci| body(commands, ci as u32, &sorted)),
        );
    }
    Ok(Arranged { data, bodies })
}

/// The body of the output section described by command `ci` whose chunks, in order, were
/// taken as `keys` say: each description's chunks where the description is, the assignments
/// and `ASSERT`s between them; chunks other descriptions of the same name took, and orphans,
/// last.
fn body(commands: &SectionCommands, ci: u32, keys: &[Option<Taken>]) -> Body {
    let desc = commands
        .output(ci)
        .map_or(&[][..], |o| o.commands.as_slice());
    let is_command = |b: usize| {
        matches!(
            desc[b],
            OutputSectionCommand::Assignment(_) | OutputSectionCommand::Assert(_)
        )
    };
    let mut items = Vec::new();
    let mut next = 0usize;
    let flush = |upto: usize, next: &mut usize, items: &mut Vec<BodyItem>| {
        while *next < upto.min(desc.len()) {
            if is_command(*next) {
                items.push(BodyItem::Command(*next as u32));
            }
            *next += 1;
        }
    };
    let group = |k: Option<Taken>| k.map(|t| (t.command, t.body));
    let mut start = 0usize;
    while start < keys.len() {
        let mut end = start + 1;
        while end < keys.len() && group(keys[end]) == group(keys[start]) {
            end += 1;
        }
        match keys[start] {
            Some(t) if t.command == ci => {
                flush(t.body as usize, &mut next, &mut items);
                next = next.max(t.body as usize + 1);
            }
            _ => flush(desc.len(), &mut next, &mut items),
        }
        items.push(BodyItem::Chunks(start as u32, end as u32));
        start = end;
    }
    flush(desc.len(), &mut next, &mut items);
    Body { command: ci, items }
}

/// The outer and inner sort of the section pattern that took a chunk.
fn pattern_sorts(commands: &SectionCommands, t: Taken) -> Option<(SortKind, SortKind)> {
    let o = commands.output(t.command)?;
    let OutputSectionCommand::Input(d) = o.commands.get(t.body as usize)? else {
        return None;
    };
    let p = d.patterns.get(t.pattern as usize)?;
    Some((p.sort_outer, p.sort_inner))
}

/// The input section name a chunk sorts by.
fn chunk_name<'r>(res: &'r Resolved, merge_inputs: &[Vec<(FileId, u32)>], c: &Chunk) -> &'r str {
    match c.kind {
        ChunkKind::Input { file, sec } => {
            res.files[file as usize].sections[sec as usize].name_str()
        }
        ChunkKind::Merged(g) => merge_inputs[g as usize].first().map_or("", |&(f, s)| {
            res.files[f as usize].sections[s as usize].name_str()
        }),
        ChunkKind::Common(_) => "COMMON",
        _ => "",
    }
}

/// Sorts a run of chunk indices stably by one sort keyword (lld's `sortSections`).
fn sort_run(
    run: &mut [usize],
    kind: SortKind,
    chunks: &[Chunk],
    name_of: &dyn Fn(&Chunk) -> String,
) {
    sort_by_keyword(run, kind, &|i| name_of(&chunks[i]), &|i| chunks[i].align);
}

/// Sorts a run of indices stably by one sort keyword (lld's `sortSections`): the section
/// name of index `i` is `name_of(i)`, its alignment `align_of(i)`. Normal links sort chunks
/// with it, `-r` its input sections.
pub(crate) fn sort_by_keyword(
    run: &mut [usize],
    kind: SortKind,
    name_of: &dyn Fn(usize) -> String,
    align_of: &dyn Fn(usize) -> u64,
) {
    match kind {
        SortKind::Default | SortKind::None => {}
        SortKind::Name => run.sort_by_cached_key(|&i| name_of(i)),
        // Larger alignments first.
        SortKind::Alignment => run.sort_by_key(|&i| std::cmp::Reverse(align_of(i))),
        SortKind::InitPriority => run.sort_by_key(|&i| init_priority(&name_of(i))),
        SortKind::Reverse => run.reverse(),
    }
}
