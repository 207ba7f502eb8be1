//! Program headers and file offsets under a `SECTIONS` command, once the walk
//! (`script_addresses`) has given every section its address: without `PHDRS`, lld's
//! `createPhdrs` with a script (a new `PT_LOAD` on a change of permissions, after the RELRO
//! run, where the memory region or `AT` starts a new load address; no page alignment of its
//! own); with `PHDRS`, the script's list, each section in the headers its description names
//! (else in those of the section before). Then the headers go below the first section if they
//! fit (`allocateHeaders`), and file offsets follow addresses (`assignFileOffsets`,
//! `setPhdrs`).

use super::addresses::{note_groups, special_headers};
use super::commands::SectionCommands;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::input::section_rules::{align_to, is_relro};
use crate::output::layout::Layout;
use crate::output::script_layout::{Placement, ScriptLayout};
use crate::output::sections::{OutputSection, Segment, Synthetic, EHDR_SIZE};
use crate::script::expr;
use object::elf;

/// One `PT_LOAD` as planned from section flags: its sections (indices), whether the headers
/// are in it, its permissions.
pub(super) struct Load {
    sections: Vec<usize>,
    headers: bool,
    flags: u32,
}

pub(super) fn phdr_flags(config: &Config, os: &OutputSection) -> u32 {
    if config.omagic {
        return elf::PF_R | elf::PF_W | elf::PF_X;
    }
    let mut f = elf::PF_R;
    if os.flags & u64::from(elf::SHF_WRITE) != 0 {
        f |= elf::PF_W;
    }
    if os.flags & u64::from(elf::SHF_EXECINSTR) != 0 {
        f |= elf::PF_X;
    }
    f
}

/// A section lld puts in a `PT_LOAD`: allocated, and not `.tbss` (`PT_TLS` alone gives it
/// room).
pub(super) fn needs_load(os: &OutputSection) -> bool {
    os.is_alloc() && !(os.is_nobits() && os.flags & u64::from(elf::SHF_TLS) != 0)
}

/// The `PT_LOAD`s lld's `createPhdrs` makes with a script, and how many other program
/// headers there are (`PT_PHDR`, `PT_INTERP`, `PT_TLS`, ...).
pub(super) fn plan_loads(
    config: &Config,
    commands: &SectionCommands,
    script: &ScriptLayout,
    lay: &Layout,
    mem_region: &[Option<usize>],
    lma_region: &[Option<usize>],
) -> (Vec<Load>, usize) {
    let paged = !config.paging_disabled();
    let mut loads: Vec<Load> = Vec::new();
    if paged {
        loads.push(Load {
            sections: Vec::new(),
            headers: true,
            flags: elf::PF_R,
        });
    }
    let has_lma = |i: usize| {
        script.bodies[i]
            .as_ref()
            .and_then(|b| commands.output(b.command))
            .is_some_and(|d| d.lma.is_some())
    };
    let relro = |os: &OutputSection| is_relro(&config.z, &os.name, os.sh_type, os.flags);
    let mut flags = if config.omagic {
        elf::PF_R | elf::PF_W | elf::PF_X
    } else {
        elf::PF_R
    };
    let mut open = paged;
    let mut in_relro = false;
    let mut relro_runs = 0usize;
    for (i, os) in lay.sections.iter().enumerate() {
        if !needs_load(os) {
            continue;
        }
        let relro_end = in_relro && !relro(os);
        if relro(os) && !in_relro {
            relro_runs += 1;
        }
        in_relro = relro(os);
        let new_flags = phdr_flags(config, os);
        let mut incompatible = flags ^ new_flags;
        if new_flags & elf::PF_W == 0 && !config.rosegment {
            incompatible &= !elf::PF_X;
        }
        if incompatible != 0 {
            open = false;
        }
        // A new PT_LOAD where the memory region changes, or the load region unless only the
        // headers are in the current one.
        let joins = open
            && !relro_end
            && loads.last().is_some_and(|l| {
                // The headers' load starts with the ELF header, which is in no region.
                let first = l.sections.first().copied().filter(|_| !l.headers);
                let same_mem = first.and_then(|f| mem_region[f]) == mem_region[i];
                let same_lma = !has_lma(i) && first.and_then(|f| lma_region[f]) == lma_region[i];
                same_mem && (same_lma || (l.headers && l.sections.is_empty()))
            });
        if joins {
            if let Some(l) = loads.last_mut() {
                l.flags |= new_flags;
                l.sections.push(i);
            }
        } else {
            loads.push(Load {
                sections: vec![i],
                headers: false,
                flags: new_flags,
            });
            flags = new_flags;
            open = true;
        }
    }
    let has = |k: Synthetic| lay.synthetic_index.contains_key(&k);
    let tls = lay
        .sections
        .iter()
        .any(|s| s.is_alloc() && s.flags & u64::from(elf::SHF_TLS) != 0);
    let others = usize::from(paged)
        + usize::from(has(Synthetic::Interp))
        + usize::from(tls)
        + usize::from(has(Synthetic::Dynamic))
        + relro_runs
        + usize::from(has(Synthetic::EhFrameHdr))
        + usize::from(!config.z.nognustack)
        + usize::from(config.z.wxneeded)
        + usize::from(has(Synthetic::GnuProperty))
        + note_groups(lay).len();
    (loads, others)
}

/// Headers, file offsets and program headers once addresses are final.
pub(super) fn place_segments(
    config: &Config,
    lay: &mut Layout,
    loads: &[Load],
    headers: u64,
    listed: Option<&Listed>,
) -> Result<()> {
    let page = config.max_page_size();
    // allocateHeaders: the headers go at the start of the page below the first section, if
    // they fit there; otherwise they are in no segment and there is no PT_PHDR. A script
    // that puts them in a segment itself (FILEHDR, PHDRS) may put them anywhere below the
    // first section, but they must fit.
    let min = lay
        .sections
        .iter()
        .filter(|s| s.is_alloc())
        .map(|s| s.addr)
        .min()
        .unwrap_or(0);
    let explicit = listed.is_some_and(|l| l.entries.iter().any(|e| e.filehdr || e.phdrs));
    let base = if explicit { 0 } else { min - min % page };
    let paged = !config.paging_disabled();
    let headers_fit = (paged || explicit) && headers <= min - base;
    if explicit && !headers_fit {
        return Err(Error("could not allocate headers".into()));
    }
    let header_addr = if explicit {
        let a = min - headers;
        a - a % page
    } else {
        base
    };

    // File offsets: a load's first section at an offset congruent to its address modulo the
    // load's alignment; the others at their distance from it.
    let mut off = headers;
    let mut load_of: Vec<Option<usize>> = vec![None; lay.sections.len()];
    let mut load_align: Vec<u64> = Vec::with_capacity(loads.len());
    for (li, l) in loads.iter().enumerate() {
        let mut a = page;
        for &s in &l.sections {
            load_of[s] = Some(li);
            a = a.max(lay.sections[s].align);
        }
        load_align.push(a);
    }
    let first_tls = lay
        .sections
        .iter()
        .position(|s| s.is_alloc() && s.flags & u64::from(elf::SHF_TLS) != 0);
    let mut load_first: Vec<Option<(u64, u64)>> = vec![None; loads.len()];
    for (li, l) in loads.iter().enumerate() {
        if l.headers && headers_fit {
            load_first[li] = Some((0, header_addr));
        }
    }
    for (i, os) in lay.sections.iter_mut().enumerate() {
        if !os.is_alloc() {
            continue;
        }
        let (addr, nobits, align, size) = (os.addr, os.is_nobits(), os.align, os.size);
        let offset = match load_of[i].map(|l| (l, load_first[l])) {
            Some((l, None)) => {
                let a = load_align[l];
                let want = addr % a;
                let o = if off % a <= want {
                    off - off % a + want
                } else {
                    off - off % a + a + want
                };
                load_first[l] = Some((o, addr));
                o
            }
            _ if nobits && first_tls != Some(i) => off,
            None => align_to(off, align),
            Some((_, Some((first_off, first_addr)))) => first_off + (addr - first_addr),
        };
        os.offset = offset;
        off = offset + if nobits { 0 } else { size };
    }
    lay.non_alloc_start = off;
    lay.place_non_alloc();

    if let Some(listed) = listed {
        let mut segs = listed.segments(lay, page, headers, header_addr);
        push_spare(config, &mut segs);
        lay.segments = segs;
        return Ok(());
    }

    // Program headers in lld's order.
    let mut segs = Vec::new();
    if paged && headers_fit {
        segs.push(Segment {
            p_type: elf::PT_PHDR,
            flags: elf::PF_R,
            offset: EHDR_SIZE,
            vaddr: header_addr + EHDR_SIZE,
            lma_offset: 0,
            filesz: headers - EHDR_SIZE,
            memsz: headers - EHDR_SIZE,
            align: 8,
        });
    }
    if let Some(&(os, _)) = lay.synthetic_index.get(&Synthetic::Interp) {
        let s = &lay.sections[os as usize];
        segs.push(Segment::of_section(elf::PT_INTERP, elf::PF_R, s, 1));
    }
    for (li, l) in loads.iter().enumerate() {
        let with_headers = l.headers && headers_fit;
        let first = l.sections.first().map(|&s| &lay.sections[s]);
        let last = l.sections.last().map(|&s| &lay.sections[s]);
        let (offset, vaddr, lma_offset) = match (with_headers, first) {
            (true, f) => (0, header_addr, f.map_or(0, |f| f.lma_offset)),
            (false, Some(f)) => (f.offset, f.addr, f.lma_offset),
            (false, None) => continue,
        };
        let (end_off, end_addr) = match last {
            Some(s) => (s.offset + s.file_size(), s.addr + s.size),
            None => (headers, header_addr + headers),
        };
        if end_addr == vaddr {
            // lld removes an empty PT_LOAD.
            continue;
        }
        segs.push(Segment {
            p_type: elf::PT_LOAD,
            flags: l.flags,
            offset,
            vaddr,
            lma_offset,
            filesz: end_off.saturating_sub(offset),
            memsz: end_addr - vaddr,
            align: load_align[li],
        });
    }
    // PT_TLS over the TLS sections.
    let tls_sections: Vec<&OutputSection> = lay
        .sections
        .iter()
        .filter(|s| s.is_alloc() && s.flags & u64::from(elf::SHF_TLS) != 0)
        .collect();
    let tls = match (tls_sections.first(), tls_sections.last()) {
        (Some(f), Some(l)) => {
            let align = tls_sections.iter().map(|s| s.align).max().unwrap_or(1);
            let file_end = tls_sections
                .iter()
                .filter(|s| !s.is_nobits())
                .map(|s| s.addr + s.size)
                .max()
                .unwrap_or(f.addr);
            let seg = Segment {
                p_type: elf::PT_TLS,
                flags: elf::PF_R,
                offset: f.offset,
                vaddr: f.addr,
                lma_offset: f.lma_offset,
                filesz: file_end - f.addr,
                memsz: l.addr + l.size - f.addr,
                align,
            };
            lay.tls_start = f.addr;
            lay.tls_align = align;
            lay.tls_end_aligned = align_to(l.addr + l.size, align);
            Some(seg)
        }
        _ => None,
    };
    // A PT_GNU_RELRO per run of RELRO sections (`.relro_padding`, when there is one, ends
    // the run on a common-page boundary).
    let mut relros = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    let relro = |os: &OutputSection| is_relro(&config.z, &os.name, os.sh_type, os.flags);
    let mut runs = Vec::new();
    for (i, os) in lay.sections.iter().enumerate() {
        if !needs_load(os) {
            continue;
        }
        if relro(os) {
            run = Some(run.map_or((i, i), |(f, _)| (f, i)));
        } else if let Some(r) = run.take() {
            runs.push(r);
        }
    }
    runs.extend(run);
    for (f, l) in runs {
        let (a, b) = (&lay.sections[f], &lay.sections[l]);
        relros.push(Segment {
            p_type: elf::PT_GNU_RELRO,
            flags: elf::PF_R,
            offset: a.offset,
            vaddr: a.addr,
            lma_offset: a.lma_offset,
            filesz: b.offset + b.file_size() - a.offset,
            memsz: b.addr + b.size - a.addr,
            align: 1,
        });
    }
    let notes = note_groups(lay);
    segs.extend(special_headers(config, lay, tls, relros, &notes));
    push_spare(config, &mut segs);
    lay.segments = segs;
    Ok(())
}

/// mold's `--spare-program-headers`: `PT_NULL` entries a later tool may fill in.
fn push_spare(config: &Config, segs: &mut Vec<Segment>) {
    for _ in 0..config.spare_program_headers {
        segs.push(Segment::empty(elf::PT_NULL, 0));
    }
}

/// One program header a `PHDRS` command lists, with the sections that go in it.
pub(super) struct ListedPhdr {
    p_type: u32,
    flags: u32,
    filehdr: bool,
    phdrs: bool,
    /// `AT(...)`: the physical address, once evaluated.
    pub(super) paddr: Option<u64>,
    sections: Vec<usize>,
}

/// The program headers of a `PHDRS` command (lld's `LinkerScript::createPhdrs`).
pub(super) struct Listed {
    pub(super) entries: Vec<ListedPhdr>,
}

impl Listed {
    /// The `PT_LOAD`s, for file offsets: a section is in the last one that lists it.
    pub(super) fn loads(&self) -> Vec<Load> {
        self.entries
            .iter()
            .filter(|e| e.p_type == elf::PT_LOAD)
            .map(|e| Load {
                sections: e.sections.clone(),
                headers: e.filehdr || e.phdrs,
                flags: e.flags,
            })
            .collect()
    }

    /// The program headers once addresses and offsets are final (lld's `setPhdrs`): each
    /// spans its first to its last member, the headers first when it holds them.
    fn segments(&self, lay: &Layout, page: u64, headers: u64, header_addr: u64) -> Vec<Segment> {
        self.entries
            .iter()
            .map(|e| {
                let mut align = if e.p_type == elf::PT_LOAD { page } else { 0 };
                if e.phdrs {
                    align = align.max(8);
                }
                for &s in &e.sections {
                    align = align.max(lay.sections[s].align);
                }
                let first = e.sections.first().map(|&s| &lay.sections[s]);
                let last = e.sections.last().map(|&s| &lay.sections[s]);
                // Where it starts: the ELF header, the program headers, or its first section.
                let start = if e.filehdr {
                    Some((0, header_addr, first.map_or(0, |f| f.lma_offset)))
                } else if e.phdrs {
                    Some((
                        EHDR_SIZE,
                        header_addr + EHDR_SIZE,
                        first.map_or(0, |f| f.lma_offset),
                    ))
                } else {
                    first.map(|f| (f.offset, f.addr, f.lma_offset))
                };
                let Some((offset, vaddr, lma_offset)) = start else {
                    return Segment {
                        p_type: e.p_type,
                        flags: e.flags,
                        offset: 0,
                        vaddr: 0,
                        lma_offset: 0,
                        filesz: 0,
                        memsz: 0,
                        align,
                    };
                };
                let (end_off, end_addr) = match last {
                    Some(s) => (s.offset + s.file_size(), s.addr + s.size),
                    None => (headers, header_addr + headers),
                };
                let lma_offset = match e.paddr {
                    Some(p) => p.wrapping_sub(vaddr),
                    None => lma_offset,
                };
                Segment {
                    p_type: e.p_type,
                    flags: e.flags,
                    offset,
                    vaddr,
                    lma_offset,
                    filesz: end_off.saturating_sub(offset),
                    memsz: end_addr.wrapping_sub(vaddr),
                    align,
                }
            })
            .collect()
    }
}

/// The `PHDRS` plan, or `None` without one: each allocated section goes in the headers its
/// description lists (`:name`, `:NONE` for none), else in those of the section before it,
/// the first section in the first `PT_LOAD`; a header without `FLAGS` takes its sections'
/// permissions.
pub(super) fn plan_listed(
    config: &Config,
    commands: &SectionCommands,
    script: &ScriptLayout,
    lay: &Layout,
) -> Result<Option<Listed>> {
    if commands.phdrs.is_empty() {
        return Ok(None);
    }
    let mut entries = Vec::with_capacity(commands.phdrs.len());
    for p in &commands.phdrs {
        let flags = match &p.flags {
            Some(e) => Some(
                expr::eval_constant(e)
                    .ok_or_else(|| Error(format!("{}: FLAGS must be a constant", p.loc)))??
                    as u32,
            ),
            None => None,
        };
        entries.push((
            flags.is_some(),
            ListedPhdr {
                p_type: p.phdr_type,
                flags: flags.unwrap_or(elf::PF_R),
                filehdr: p.filehdr,
                phdrs: p.phdrs,
                paddr: None,
                sections: Vec::new(),
            },
        ));
    }
    let mut current: Vec<String> = commands
        .phdrs
        .iter()
        .find(|p| p.phdr_type == elf::PT_LOAD)
        .map(|p| vec![p.name.clone()])
        .unwrap_or_default();
    for step in &script.sequence {
        let Placement::Section(i) = *step else {
            continue;
        };
        let i = i as usize;
        let os = &lay.sections[i];
        if !os.is_alloc() {
            continue;
        }
        let desc = script.bodies[i]
            .as_ref()
            .and_then(|b| commands.output(b.command));
        if let Some(d) = desc.filter(|d| !d.phdrs.is_empty()) {
            current = d.phdrs.clone();
        }
        for name in &current {
            if name == "NONE" {
                continue;
            }
            let Some(k) = commands.phdrs.iter().position(|p| &p.name == name) else {
                let loc = desc.map_or(String::new(), |d| d.loc.to_string());
                return Err(Error(format!(
                    "{loc}: program header '{name}' is not listed in PHDRS"
                )));
            };
            let (explicit, e) = &mut entries[k];
            e.sections.push(i);
            if !*explicit {
                e.flags |= phdr_flags(config, os);
            }
        }
    }
    Ok(Some(Listed {
        entries: entries.into_iter().map(|(_, e)| e).collect(),
    }))
}
