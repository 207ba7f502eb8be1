//! `.symtab` and `.strtab`: which local and global symbols the output lists (lld's rules for
//! `--discard-*`, section symbols under `--emit-relocs`, the grouping of locals by file), their
//! names, and the entries written from the final layout.

use crate::config::{Config, Discard};
use crate::input::input_files::{FileId, ObjectFile, SectionKind};
use crate::output::layout::{Layout, StringTable, SymtabEntry, SymtabIndex};
use crate::output::sections::{put16, put32, put64, ChunkKind, OutputSection, Synthetic, SYM_SIZE};
use crate::resolve::symbol_table::{SymKey, Symbol, SymbolDef, SymbolId};
use crate::resolve::Resolved;
use object::elf;
use object::read::elf::Sym;
use object::LittleEndian as LE;
use rayon::prelude::*;

/// Which local and global symbols go to `.symtab`, with their names in `.strtab`.
#[allow(clippy::too_many_arguments)]
pub fn build(
    res: &Resolved,
    sec_osec: &[Vec<u32>],
    merge_of: &crate::output::merge::MergeIndex,
    discard: Discard,
    section_syms: &[(u32, Option<FileId>)],
    referenced_locals: &hashbrown::HashSet<(FileId, u32)>,
    symtab: &mut Vec<SymtabEntry>,
    strtab: &mut StringTable,
    first_global: &mut u32,
) {
    let add_name = |names: &mut Vec<u8>, name: &[u8]| -> u32 {
        let off = names.len() as u32;
        names.extend_from_slice(name);
        names.push(0);
        off
    };
    let start = symtab.len();
    // The file each local entry belongs to (`None`: the linker's own symbols), for lld's
    // grouping below.
    let mut owner: Vec<Option<FileId>> = Vec::new();
    // Each file's kept locals and their names, found in parallel, then appended in file order
    // (the same table for any thread count).
    let locals_of = |(fi, f): (usize, &ObjectFile)| {
        let mut kept: Vec<(u32, u32)> = Vec::new();
        let mut names: Vec<u8> = Vec::new();
        for i in 1..f.first_global {
            let s = &f.symbols[i];
            let ty = s.st_type();
            if ty == elf::STT_SECTION {
                continue;
            }
            let in_section = f.sym_section(i);
            if let Some(shndx) = in_section {
                let sec = &f.sections[shndx];
                let placed = sec_osec[fi][shndx] != u32::MAX || sec.kind == SectionKind::EhFrame;
                if !placed {
                    continue;
                }
            }
            let name = f.sym_name(i);
            // lld's `shouldKeepInSymtab`: a local an `--emit-relocs` relocation names stays (its
            // `used`); the others go as `--discard-*` says, and by default a `.L` temporary
            // goes when it is in a mergeable section.
            if !referenced_locals.contains(&(fi as FileId, i as u32)) {
                let temporary = name.starts_with(b".L");
                let in_merge =
                    in_section.is_some_and(|shndx| merge_of.contains(fi as FileId, shndx as u32));
                let drop = match discard {
                    Discard::None => false,
                    Discard::All => true,
                    Discard::Locals => temporary,
                    Discard::Default => temporary && in_merge,
                };
                if drop {
                    continue;
                }
            }
            if name.is_empty() && ty != elf::STT_FILE {
                continue;
            }
            kept.push((i as u32, add_name(&mut names, name)));
        }
        (kept, names)
    };
    let per_file: Vec<_> = res.files.par_iter().enumerate().map(locals_of).collect();
    let local_count: usize = per_file.iter().map(|(kept, _)| kept.len()).sum();
    symtab.reserve(local_count + section_syms.len() + res.symtab.len());
    owner.reserve(local_count + section_syms.len());
    for (fi, (kept, names)) in per_file.into_iter().enumerate() {
        // Each file's names stay a part of their own (most of a big link's `.strtab`).
        let base = strtab.append_part(names);
        for (index, off) in kept {
            symtab.push(SymtabEntry::Local {
                file: fi as FileId,
                index,
                name_off: base + off,
            });
            owner.push(Some(fi as FileId));
        }
    }
    // lld adds the section symbols after the files' locals and before the globals; they join
    // the group of their owner below.
    for &(osec, owner_file) in section_syms {
        symtab.push(SymtabEntry::Section { osec });
        owner.push(owner_file);
    }
    // Hidden globals become locals in an executable, as lld writes them. Which globals are
    // written, and their names, are worked out in parallel over runs of ids (the names are
    // scattered over the inputs' string tables); each run's names become parts of `.strtab`
    // in id order, hidden ones first.
    #[derive(Default)]
    struct Run {
        hidden: Vec<(SymbolId, u32, Option<FileId>)>,
        hidden_names: Vec<u8>,
        visible: Vec<(SymbolId, u32)>,
        visible_names: Vec<u8>,
    }
    const RUN: usize = 4096;
    let runs: Vec<Run> = res
        .symtab
        .symbols
        .par_chunks(RUN)
        .enumerate()
        .map(|(ci, chunk)| {
            let mut run = Run::default();
            for (k, s) in chunk.iter().enumerate() {
                let id = (ci * RUN + k) as SymbolId;
                if !global_written(res, sec_osec, id, s) {
                    continue;
                }
                let hidden = s.visibility == elf::STV_HIDDEN
                    || s.visibility == elf::STV_INTERNAL
                    || s.version_local;
                if hidden {
                    // As lld: `.symtab` names carry no version (`foo@V1` is written `foo`),
                    // except where a version script made the symbol local before its version
                    // was read.
                    let name = if s.version_local {
                        s.name
                    } else {
                        s.dynamic_name()
                    };
                    let owner = match s.def {
                        SymbolDef::Defined { file, .. } | SymbolDef::Common { file, .. } => {
                            Some(file)
                        }
                        _ => None,
                    };
                    run.hidden
                        .push((id, add_name(&mut run.hidden_names, name), owner));
                } else {
                    let off = add_name(&mut run.visible_names, s.dynamic_name());
                    run.visible.push((id, off));
                }
            }
            run
        })
        .collect();
    let mut visible_parts = Vec::with_capacity(runs.len());
    for run in runs {
        let base = strtab.append_part(run.hidden_names);
        for (id, off, file) in run.hidden {
            symtab.push(SymtabEntry::Global {
                id,
                name_off: base + off,
                local: true,
            });
            owner.push(file);
        }
        visible_parts.push((run.visible, run.visible_names));
    }
    // As lld: the local part is grouped by file, in the order files first appear, so a hidden
    // global sits with its file's locals (the names keep their `.strtab` order).
    // Groups are found by file id (the last slot: the linker's own symbols).
    // A counting sort by group keeps each group's entries in their order.
    let mut group_of: Vec<u32> = vec![u32::MAX; res.files.len() + 1];
    let mut groups = 0u32;
    let entry_group: Vec<u32> = owner
        .iter()
        .map(|file| {
            let slot = file.map_or(res.files.len(), |f| f as usize);
            if group_of[slot] == u32::MAX {
                group_of[slot] = groups;
                groups += 1;
            }
            group_of[slot]
        })
        .collect();
    let mut next = vec![0usize; groups as usize + 1];
    for &g in &entry_group {
        next[g as usize + 1] += 1;
    }
    for g in 0..groups as usize {
        next[g + 1] += next[g];
    }
    let mut grouped = vec![SymtabEntry::Section { osec: 0 }; entry_group.len()];
    for (e, g) in symtab.drain(start..).zip(entry_group) {
        grouped[next[g as usize]] = e;
        next[g as usize] += 1;
    }
    symtab.extend(grouped);
    *first_global = symtab.len() as u32 + 1;
    for (visible, names) in visible_parts {
        let base = strtab.append_part(names);
        for (id, off) in visible {
            symtab.push(SymtabEntry::Global {
                id,
                name_off: base + off,
                local: false,
            });
        }
    }
}

/// Whether global `id` (`s`) gets a `.symtab` entry: defined in a kept section, or an undefined
/// or shared symbol something refers to.
fn global_written(res: &Resolved, sec_osec: &[Vec<u32>], id: SymbolId, s: &Symbol) -> bool {
    let include = match s.def {
        // A collected common is a symbol in a collected section: not written.
        SymbolDef::Common { .. } => !res.collected_commons.contains(&id),
        SymbolDef::Defined { .. } | SymbolDef::Synthetic | SymbolDef::Absolute(_) => true,
        SymbolDef::Undefined | SymbolDef::Shared { .. } => s.referenced,
        // lld turns a lazy symbol that only weak references reached into a weak undefined.
        SymbolDef::Lazy { .. } => s.referenced && s.weak,
        // Bitcode definitions are replaced by LTO's output before layout.
        SymbolDef::Bitcode { .. } => false,
    };
    if !include {
        return false;
    }
    if let SymbolDef::Defined { file, index } = s.def {
        let f = &res.files[file as usize];
        if let Some(sh) = f.sym_section(index as usize) {
            let sec = &f.sections[sh];
            if sec_osec[file as usize][sh] == u32::MAX && sec.kind != SectionKind::EhFrame {
                return false;
            }
        }
    }
    true
}

/// `--emit-relocs`: the output sections that get a section symbol, with the file whose group
/// of locals it joins (`None`: the linker's own), in creation order (`b_sections` is in it;
/// `remap` gives the final index). As lld: the first input section that is not a relocation
/// section decides, and sections made only of linker-made contents get none, except merged
/// ones (`.rodata` strings, `.comment`) and `.interp`, which lld makes as a plain section.
pub fn section_symbols(b_sections: &[OutputSection], remap: &[u32]) -> Vec<(u32, Option<FileId>)> {
    let mut out = Vec::new();
    for (old, os) in b_sections.iter().enumerate() {
        let owner = os.chunks.iter().find_map(|c| match c.kind {
            ChunkKind::Input { file, .. } => Some(Some(file)),
            ChunkKind::Merged(_)
            | ChunkKind::Synthetic(Synthetic::Comment)
            | ChunkKind::Synthetic(Synthetic::Interp) => Some(None),
            _ => None,
        });
        if let Some(owner) = owner {
            out.push((remap[old], owner));
        }
    }
    out
}

/// `--emit-relocs`: the local symbols a written relocation names (lld's `used`, which keeps a
/// `.L` symbol of a merged section in `.symtab`). Under `--gc-sections` lld marks them while
/// walking live sections, whose relocations it reads only in allocated sections.
pub fn relocated_locals(
    config: &Config,
    res: &Resolved,
    sec_osec: &[Vec<u32>],
) -> hashbrown::HashSet<(FileId, u32)> {
    let mut used = hashbrown::HashSet::new();
    for (fi, f) in res.files.iter().enumerate() {
        for (si, s) in f.sections.iter().enumerate() {
            let placed = sec_osec[fi][si] != u32::MAX || s.kind == SectionKind::EhFrame;
            if !placed || (config.gc_sections && !s.is_alloc()) {
                continue;
            }
            for r in s.relocs {
                let i = r.r_sym(LE, false) as usize;
                if i == 0 || i >= f.first_global {
                    continue;
                }
                if f.symbols
                    .get(i)
                    .is_some_and(|y| y.st_type() != elf::STT_SECTION)
                {
                    used.insert((fi as FileId, i as u32));
                }
            }
        }
    }
    used
}

/// Where each entry of `.symtab` sits (index 0 is the null symbol).
pub fn indices(symtab: &[SymtabEntry]) -> SymtabIndex {
    let mut idx = SymtabIndex::default();
    for (i, e) in symtab.iter().enumerate() {
        let n = i as u32 + 1;
        match *e {
            SymtabEntry::Local { file, index, .. } => {
                idx.local.insert((file, index), n);
            }
            SymtabEntry::Global { id, .. } => {
                idx.global.insert(id, n);
            }
            SymtabEntry::Section { osec } => {
                idx.section.insert(osec, n);
            }
        }
    }
    idx
}

pub fn write(config: &Config, res: &Resolved, lay: &Layout, buf: &mut [u8]) {
    let (null, entries) = buf.split_at_mut(SYM_SIZE as usize);
    null.fill(0);
    // Each entry on its own, in parallel (their values are scattered over the link).
    entries
        .par_chunks_mut(SYM_SIZE as usize)
        .zip(lay.symtab.par_iter())
        .with_min_len(1024)
        .for_each(|(entry, e)| write_entry(config, res, lay, e, entry));
}

/// One `.symtab` entry (`buf`: its 24 bytes).
fn write_entry(config: &Config, res: &Resolved, lay: &Layout, e: &SymtabEntry, buf: &mut [u8]) {
    let (mut value, shndx) = lay.symtab_value(res, e);
    if let SymtabEntry::Section { .. } = *e {
        // No name: readers show the section's (lld writes them so too).
        put32(buf, 0, 0);
        buf[4] = (elf::STB_LOCAL << 4) | elf::STT_SECTION;
        buf[5] = 0;
        put16(buf, 6, shndx);
        put64(buf, 8, value);
        put64(buf, 16, 0);
        return;
    }
    let (name_off, info, other, mut size) = match *e {
        SymtabEntry::Local {
            file,
            index,
            name_off,
        } => {
            let s = &res.files[file as usize].symbols[index as usize];
            let size = lay.rewrites.symbol_value_size(res, file, index as usize).1;
            (name_off, s.st_info(), s.st_other(), size)
        }
        SymtabEntry::Global {
            id,
            name_off,
            local,
        } => {
            let s = res.symtab.get(id);
            let mut unique = false;
            let (ty, size) = match s.def {
                SymbolDef::Defined { file, index } => {
                    let sym = &res.files[file as usize].symbols[index as usize];
                    unique = sym.st_bind() == elf::STB_GNU_UNIQUE;
                    let size = lay.rewrites.symbol_value_size(res, file, index as usize).1;
                    (sym.st_type(), size)
                }
                SymbolDef::Common { size, .. } => (elf::STT_OBJECT, size),
                // A copy-relocated definition has the library's size.
                SymbolDef::Shared { file, index } if lay.scan.copy_index.contains_key(&id) => {
                    let lib = &res.shared[file as usize];
                    (s.sym_type, lib.dynsyms[index as usize].st_size(LE))
                }
                _ => (s.sym_type, 0),
            };
            let bind = if local {
                elf::STB_LOCAL
            } else if unique && !config.no_gnu_unique {
                elf::STB_GNU_UNIQUE
            } else if s.weak {
                elf::STB_WEAK
            } else {
                elf::STB_GLOBAL
            };
            (name_off, (bind << 4) | ty, s.visibility, size)
        }
        // Written above.
        SymtabEntry::Section { .. } => return,
    };
    let shndx = match *e {
        SymtabEntry::Local { file, index, .. } => {
            let s = &res.files[file as usize].symbols[index as usize];
            if s.st_type() == elf::STT_FILE {
                value = 0;
                elf::SHN_ABS
            } else {
                shndx
            }
        }
        _ => shndx,
    };
    let mut info = info;
    let mut shndx = shndx;
    if info & 0xf == elf::STT_GNU_IFUNC {
        // An IFUNC's address in this output is its IPLT entry (see `relocations::scan`), and lld
        // lists it as a function there.
        let key = match *e {
            SymtabEntry::Local { file, index, .. } => SymKey::Local(file, index),
            SymtabEntry::Global { id, .. } => SymKey::Global(id),
            SymtabEntry::Section { .. } => return,
        };
        if let Some((v, sh)) = lay.canonical_iplt(key) {
            value = v;
            info = (info & 0xf0) | elf::STT_FUNC;
            shndx = sh.unwrap_or(shndx);
            // lld's symbol for the IPLT entry has no size (the resolver's says nothing).
            size = 0;
        }
    }
    // A TLS symbol's value is its offset in the TLS segment; an absolute one
    // (`--just-symbols`) keeps the value it was given, as in lld.
    if info & 0xf == elf::STT_TLS && shndx != elf::SHN_ABS {
        value = value.wrapping_sub(lay.tls_start);
    }
    put32(buf, 0, name_off);
    buf[4] = info;
    buf[5] = other;
    put16(buf, 6, shndx);
    put64(buf, 8, value);
    put64(buf, 16, size);
}
