//! Segments, addresses and file offsets: the output sections in rank order are cut into
//! `PT_LOAD`s by their permissions (lld's rules for RELRO, TLS, `-z separate-code`, ...), and
//! every section gets its address and offset.

use crate::bail;
use crate::config::Config;
use crate::error::Result;
use crate::input::section_rules::{align_to, is_relro};
use crate::output::layout::Layout;
use crate::output::sections::{OutputSection, Segment, Synthetic, EHDR_SIZE, PHDR_SIZE};
use crate::resolve::Resolved;
use object::elf;

/// OpenBSD's program header for `-z wxneeded`.
const PT_OPENBSD_WXNEEDED: u32 = 0x65a3_dbe7;

/// Segment class of an allocated output section: 0 = R, 1 = RX, 2 = RW (RELRO), 3 = RW. With
/// `--no-rosegment` read-only and executable sections share class 0, mapped R+X.
pub(super) fn segment_class(config: &Config, os: &OutputSection) -> u8 {
    // -N: one read-write-execute segment for everything.
    if config.omagic {
        return 0;
    }
    let exec = os.flags & u64::from(elf::SHF_EXECINSTR) != 0;
    let write = os.flags & u64::from(elf::SHF_WRITE) != 0;
    if exec && !write && !config.rosegment {
        0
    } else if exec {
        1
    } else if !write {
        0
    } else if is_relro(&config.z, &os.name, os.sh_type, os.flags) {
        2
    } else {
        3
    }
}

fn pflags(config: &Config, class: u8) -> u32 {
    match class {
        _ if config.omagic => elf::PF_R | elf::PF_W | elf::PF_X,
        0 if !config.rosegment => elf::PF_R | elf::PF_X,
        0 => elf::PF_R,
        1 => elf::PF_R | elf::PF_X,
        _ => elf::PF_R | elf::PF_W,
    }
}

/// lld 22's check of the inputs' `.note.GNU-stack`: an object asking for an executable stack
/// is an error (a warning under `--noinhibit-exec`) unless `-z execstack` grants it, or mold's
/// `-z execstack-if-needed` lets the inputs decide.
pub fn check_executable_stack(config: &Config, res: &Resolved) -> Vec<crate::error::Error> {
    if config.z.execstack || config.z.execstack_if_needed {
        return Vec::new();
    }
    let mut errors = Vec::new();
    for f in &res.files {
        if !f.markers.executable_stack {
            continue;
        }
        let msg = format!(
            "{}: requires an executable stack, but -z execstack is not specified",
            f.name
        );
        if !config.noinhibit_exec {
            errors.push(crate::error::Error(msg));
        } else if let Err(e) = config.warn(&msg) {
            errors.push(e);
        }
    }
    errors
}

/// For each allocated section in order: whether it follows a NOBITS section of its own class,
/// which makes lld start a new PT_LOAD there (`.tbss` is in no PT_LOAD and does not count).
fn load_starts(config: &Config, lay: &Layout) -> Vec<bool> {
    let mut prev: Option<(u8, bool)> = None;
    let mut out = Vec::new();
    for s in lay.sections.iter().filter(|s| s.is_alloc()) {
        let class = segment_class(config, s);
        out.push(prev.is_some_and(|(c, nobits)| c == class && nobits && !s.is_nobits()));
        if !is_tbss(s) {
            prev = Some((class, s.is_nobits()));
        }
    }
    out
}

/// A `.tbss`-like section: TLS without contents, which the TLS segment alone gives room.
fn is_tbss(os: &OutputSection) -> bool {
    os.is_nobits() && os.flags & u64::from(elf::SHF_TLS) != 0
}

pub fn assign_addresses(config: &Config, lay: &mut Layout) -> Result<()> {
    let page = config.max_page_size();
    let common_page = config.common_page_size();
    let base = config.image_base();
    let has_dynamic = lay.synthetic_index.contains_key(&Synthetic::Dynamic);
    let has_interp = lay.synthetic_index.contains_key(&Synthetic::Interp);

    // Which program headers exist (their number fixes the header size).
    let alloc: Vec<&OutputSection> = lay.sections.iter().filter(|s| s.is_alloc()).collect();
    let classes: Vec<u8> = alloc.iter().map(|s| segment_class(config, s)).collect();
    // A PT_LOAD per run of sections of one class; as in lld, a section with contents after a
    // NOBITS one (`.ldata` after `.bss`) starts a new PT_LOAD too, as the file cannot hold its
    // bytes where the NOBITS section's memory is.
    let starts_load = load_starts(config, lay);
    let mut load_classes: Vec<u8> = Vec::new();
    for ((&c, &new), s) in classes.iter().zip(&starts_load).zip(&alloc) {
        // `.tbss` is in no PT_LOAD.
        if is_tbss(s) {
            continue;
        }
        match load_classes.last_mut() {
            // lld ends a PT_LOAD where the RELRO region ends, not where it begins: RELRO
            // sections right after writable ones (an `INSERT`ed section) join their PT_LOAD.
            Some(last) if *last == 3 && c == 2 && !new => *last = 2,
            Some(last) if *last == c && !new => {}
            _ => load_classes.push(c),
        }
    }
    if load_classes.first() != Some(&0) {
        load_classes.insert(0, 0);
    }
    let has_tls = lay
        .sections
        .iter()
        .any(|s| s.is_alloc() && s.flags & u64::from(elf::SHF_TLS) != 0);
    // `.tbss` takes no room in a PT_LOAD: alone, it makes no PT_GNU_RELRO (as in lld).
    let has_relro = lay
        .sections
        .iter()
        .any(|s| s.is_alloc() && segment_class(config, s) == 2 && !is_tbss(s));
    let has_eh_hdr = lay.synthetic_index.contains_key(&Synthetic::EhFrameHdr);
    let notes = note_groups(lay);
    let has_gnu_property = lay.synthetic_index.contains_key(&Synthetic::GnuProperty);
    // Without paging (-N, -n) the headers are in no PT_LOAD, so no PT_PHDR describes them.
    let has_phdr = !config.paging_disabled();
    let nphdr = usize::from(has_phdr)
        + usize::from(has_interp)
        + load_classes.len()
        + usize::from(has_dynamic)
        + usize::from(has_tls)
        + usize::from(has_relro)
        + usize::from(has_eh_hdr)
        + usize::from(!config.z.nognustack)
        + usize::from(config.z.wxneeded)
        + notes.len()
        + usize::from(has_gnu_property)
        // mold's --spare-program-headers: PT_NULL entries a later tool may fill in.
        + config.spare_program_headers;
    let headers = EHDR_SIZE + PHDR_SIZE * nphdr as u64;

    let mut addr = base + headers;
    let mut off = headers;
    let mut cur_class = 0u8;
    let mut loads: Vec<Segment> = vec![Segment {
        p_type: elf::PT_LOAD,
        flags: pflags(config, 0),
        offset: 0,
        vaddr: base,
        lma_offset: 0,
        filesz: headers,
        memsz: headers,
        align: page,
    }];
    let mut tls_start = u64::MAX;
    let mut tls_end = 0u64;
    let mut tls_file_end = 0u64;
    let mut tls_align = 1u64;
    let mut tls_off = 0u64;
    let mut relro_start: Option<(u64, u64)> = None;
    let mut relro_end = 0u64;
    let mut relro_file_end = 0u64;
    let mut tbss_end: Option<u64> = None;
    let mut prev_nobits = false;
    let nsec = lay.sections.len();
    // As lld: the first TLS section starts at the alignment of the whole PT_TLS segment, so
    // that the TLS block's layout (the offsets from the thread pointer) honours every TLS
    // variable's alignment.
    let tls_segment_align = lay
        .sections
        .iter()
        .filter(|s| s.is_alloc() && s.flags & u64::from(elf::SHF_TLS) != 0)
        .map(|s| s.align)
        .max()
        .unwrap_or(1);
    for i in 0..nsec {
        if !lay.sections[i].is_alloc() {
            continue;
        }
        let first_tls =
            tls_start == u64::MAX && lay.sections[i].flags & u64::from(elf::SHF_TLS) != 0;
        let sec_align = if first_tls {
            lay.sections[i].align.max(tls_segment_align)
        } else {
            lay.sections[i].align
        };
        let class = segment_class(config, &lay.sections[i]);
        let start = config.section_start(&lay.sections[i].name);
        let is_tbss = is_tbss(&lay.sections[i]);
        if is_tbss && class != cur_class {
            // lld puts .tbss in no PT_LOAD (PT_TLS alone gives it space): at the start of a
            // segment it sits where the previous one ended, before the new one's alignment.
            let os = &mut lay.sections[i];
            let at = align_to(tbss_end.unwrap_or(addr), sec_align);
            os.addr = at;
            // lld: the first section of PT_TLS outside any PT_LOAD has its offset aligned,
            // past the page padding that separate code gets in the file.
            os.offset = if tls_start == u64::MAX {
                // (A writable PT_LOAD goes on: RELRO sections join it, see `load_classes`.)
                let padded = (config.z.separate_loadable && cur_class != 3)
                    || (config.z.separate_code && cur_class == 1);
                let base = if padded { align_to(off, page) } else { off };
                align_to(base, os.align.max(1))
            } else {
                off
            };
            if tls_start == u64::MAX {
                tls_start = at;
                tls_off = os.offset;
            }
            tls_align = tls_align.max(os.align);
            tls_end = tls_end.max(at + os.size);
            tbss_end = Some(at + os.size);
            continue;
        }
        let after_nobits = prev_nobits && !lay.sections[i].is_nobits();
        if !is_tbss {
            prev_nobits = lay.sections[i].is_nobits();
        }
        // See `load_classes`: the RELRO region starts inside the writable PT_LOAD.
        let joins_relro = class == 2 && cur_class == 3 && !after_nobits;
        if joins_relro {
            cur_class = 2;
        }
        if class != cur_class || after_nobits {
            // lld starts a new PT_LOAD on a new page, keeping the address congruent to the offset.
            if cur_class == 2 && config.z.relro {
                // .relro_padding fills the RELRO region to a common-page boundary.
                let pad_end = align_to(addr, common_page);
                if let Some(&(os, _)) = lay.synthetic_index.get(&Synthetic::RelroPadding) {
                    let ps = &mut lay.sections[os as usize];
                    ps.addr = addr;
                    ps.offset = off;
                    ps.set_synthetic_size(pad_end - addr);
                }
                relro_end = pad_end;
            }
            if config.z.separate_loadable
                || (config.z.separate_code && (class == 1 || cur_class == 1))
            {
                // -z separate-code: executable code gets pages of its own, in memory and in
                // the file, so no other bytes are mapped executable.
                addr = align_to(addr, page);
                off = align_to(off, page);
            } else {
                addr = align_to(addr, page) + (addr % page);
            }
            cur_class = class;
            addr = start.unwrap_or_else(|| align_to(addr, sec_align));
            // File offset congruent to the address modulo the segment's alignment: the page
            // size, or more when one of its sections is more aligned (as lld, so that p_offset
            // and p_vaddr agree modulo p_align).
            let seg_align = lay.sections[i..]
                .iter()
                .filter(|s| s.is_alloc())
                .take_while(|s| segment_class(config, s) == class)
                .map(|s| s.align)
                .fold(page, u64::max);
            let want = addr % seg_align;
            off = if off % seg_align <= want {
                off - off % seg_align + want
            } else {
                off - off % seg_align + seg_align + want
            };
            loads.push(Segment {
                p_type: elf::PT_LOAD,
                flags: pflags(config, class),
                offset: off,
                vaddr: addr,
                lma_offset: 0,
                filesz: 0,
                memsz: 0,
                align: page,
            });
            if class == 2 && relro_start.is_none() {
                relro_start = Some((addr, off));
            }
        }
        let os = &mut lay.sections[i];
        if os.name == ".relro_padding" {
            continue;
        }
        let (addr_before, off_before) = (addr, off);
        // Consecutive .tbss sections follow each other inside PT_TLS.
        if is_tbss {
            if let Some(end) = tbss_end {
                addr = end;
            }
        } else {
            tbss_end = None;
        }
        // A `--section-start` address is taken as given; inside a segment the file offset
        // moves with it, as in lld. A NOBITS section's offset only keeps offsets increasing
        // (lld's convention): its alignment padding takes no file space.
        let aligned = start.unwrap_or_else(|| align_to(addr, sec_align));
        if !os.is_nobits() {
            off += aligned.saturating_sub(addr);
        }
        addr = aligned;
        os.addr = addr;
        os.offset = off;
        if joins_relro && relro_start.is_none() {
            relro_start = Some((addr, off));
        }
        if os.flags & u64::from(elf::SHF_TLS) != 0 {
            if tls_start == u64::MAX {
                tls_start = addr;
                tls_off = off;
            }
            tls_align = tls_align.max(os.align);
            tls_end = tls_end.max(addr + os.size);
            if !os.is_nobits() {
                tls_file_end = addr + os.size;
            }
        }
        let Some(seg) = loads.last_mut() else {
            bail!("internal error: no PT_LOAD for section {}", os.name);
        };
        // As lld: a PT_LOAD is aligned to its most aligned section, so a PIE loaded at a
        // page-aligned base still honours over-aligned sections.
        seg.align = seg.align.max(os.align);
        if is_tbss {
            // .tbss takes no space outside PT_TLS, not even its alignment padding: as in lld,
            // the next section starts where the one before .tbss ended.
            os.offset = off_before;
            tbss_end = Some(addr + os.size);
            addr = addr_before;
            off = off_before;
            continue;
        }
        addr += os.size;
        if !os.is_nobits() {
            off += os.size;
            seg.filesz = off - seg.offset;
        }
        seg.memsz = addr - seg.vaddr;
        if class == 2 {
            relro_end = addr;
            relro_file_end = off;
        }
    }
    if cur_class == 2 && config.z.relro {
        let pad_end = align_to(addr, common_page);
        if let Some(&(os, _)) = lay.synthetic_index.get(&Synthetic::RelroPadding) {
            let ps = &mut lay.sections[os as usize];
            ps.addr = addr;
            ps.offset = off;
            ps.set_synthetic_size(pad_end - addr);
        }
        relro_end = pad_end;
        if let Some(seg) = loads.last_mut() {
            seg.memsz = pad_end - seg.vaddr;
        }
    }
    // The relro padding belongs to the RELRO PT_LOAD.
    if let Some(&(os, _)) = lay.synthetic_index.get(&Synthetic::RelroPadding) {
        let ps = &lay.sections[os as usize];
        if ps.size > 0 {
            for seg in loads.iter_mut() {
                if seg.vaddr <= ps.addr
                    && ps.addr <= seg.vaddr + seg.memsz
                    && seg.flags == elf::PF_R | elf::PF_W
                {
                    seg.memsz = seg.memsz.max(ps.addr + ps.size - seg.vaddr);
                    break;
                }
            }
        }
    }

    lay.non_alloc_start = off;
    lay.place_non_alloc();

    // Program headers in lld's order.
    let mut segs = Vec::new();
    if has_phdr {
        segs.push(Segment {
            p_type: elf::PT_PHDR,
            flags: elf::PF_R,
            offset: EHDR_SIZE,
            vaddr: base + EHDR_SIZE,
            lma_offset: 0,
            filesz: headers - EHDR_SIZE,
            memsz: headers - EHDR_SIZE,
            align: 8,
        });
    }
    if has_interp {
        let (os, _) = lay.synthetic_index[&Synthetic::Interp];
        let s = &lay.sections[os as usize];
        segs.push(Segment::of_section(elf::PT_INTERP, elf::PF_R, s, 1));
    }
    // The first PT_LOAD covers the headers and the R sections; without paging (-N, -n) it
    // starts at the first section instead, as in lld.
    let mut loads_iter = loads.into_iter();
    if let Some(mut first) = loads_iter.next() {
        let r_sections = || {
            lay.sections
                .iter()
                .filter(|s| s.is_alloc())
                .take_while(|s| segment_class(config, s) == 0)
                .filter(|s| !(s.is_nobits() && s.flags & u64::from(elf::SHF_TLS) != 0))
        };
        if config.paging_disabled() {
            if let Some(s) = r_sections().next() {
                first.vaddr = s.addr;
                first.offset = s.offset;
            } else {
                first.vaddr = base + headers;
                first.offset = headers;
            }
        }
        let r_end = r_sections()
            .map(|s| (s.addr + s.size, s.offset + s.file_size()))
            .fold((first.vaddr.max(base + headers), headers), |a, b| {
                (a.0.max(b.0), a.1.max(b.1))
            });
        first.memsz = r_end.0 - first.vaddr;
        first.filesz = r_end.1 - first.offset;
        if first.memsz > 0 || !config.paging_disabled() {
            segs.push(first);
        }
    }
    // lld drops a PT_LOAD of empty sections (an empty `INSERT`ed description) after the
    // headers got their size: the table keeps the room, without an entry for it.
    let mut dropped = 0;
    for mut l in loads_iter {
        if l.memsz == 0 && l.filesz == 0 {
            dropped += 1;
            continue;
        }
        l.filesz = l.filesz.min(l.memsz);
        segs.push(l);
    }
    let tls = has_tls.then(|| {
        lay.tls_start = tls_start;
        lay.tls_align = tls_align;
        lay.tls_end_aligned = align_to(tls_end, tls_align);
        Segment {
            p_type: elf::PT_TLS,
            flags: elf::PF_R,
            offset: tls_off,
            vaddr: tls_start,
            lma_offset: 0,
            filesz: tls_file_end.saturating_sub(tls_start),
            memsz: tls_end - tls_start,
            align: tls_align,
        }
    });
    let relro = relro_start.map(|(start, soff)| Segment {
        p_type: elf::PT_GNU_RELRO,
        flags: elf::PF_R,
        offset: soff,
        vaddr: start,
        lma_offset: 0,
        filesz: relro_file_end.saturating_sub(soff),
        memsz: relro_end - start,
        align: 1,
    });
    segs.extend(special_headers(
        config,
        lay,
        tls,
        relro.into_iter().collect(),
        &notes,
    ));
    // Fill in unused slots so the header size computed above stays exact.
    while segs.len() + dropped < nphdr {
        segs.push(Segment::empty(elf::PT_NULL, 0));
    }
    segs.truncate(nphdr);
    lay.segments = segs;
    Ok(())
}

/// Runs of adjacent allocated SHT_NOTE sections with the same alignment: one PT_NOTE each.
pub(super) fn note_groups(lay: &Layout) -> Vec<(usize, usize)> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut prev: Option<usize> = None;
    for (i, s) in lay.sections.iter().enumerate() {
        if !s.is_alloc() {
            prev = None;
            continue;
        }
        if s.sh_type == elf::SHT_NOTE {
            match (prev, groups.last_mut()) {
                (Some(p), Some(g)) if g.1 == p && lay.sections[p].align == s.align => g.1 = i,
                _ => groups.push((i, i)),
            }
            prev = Some(i);
        } else {
            prev = None;
        }
    }
    groups
}

/// The program headers after the `PT_LOAD`s, in lld's order: `PT_TLS` (given), `PT_DYNAMIC`,
/// the `PT_GNU_RELRO`s (given), `PT_GNU_EH_FRAME`, `PT_GNU_STACK`, `PT_OPENBSD_WXNEEDED`,
/// `PT_GNU_PROPERTY`, and a `PT_NOTE` per group of notes.
pub(super) fn special_headers(
    config: &Config,
    lay: &Layout,
    tls: Option<Segment>,
    relros: Vec<Segment>,
    notes: &[(usize, usize)],
) -> Vec<Segment> {
    let mut segs: Vec<Segment> = tls.into_iter().collect();
    if lay.synthetic_index.contains_key(&Synthetic::Dynamic) {
        if let Some(os) = lay.sections.iter().find(|s| s.sh_type == elf::SHT_DYNAMIC) {
            segs.push(Segment {
                p_type: elf::PT_DYNAMIC,
                // The loader reads PF_W to know whether it may relocate `.dynamic` in place.
                flags: if config.z.rodynamic {
                    elf::PF_R
                } else {
                    elf::PF_R | elf::PF_W
                },
                offset: os.offset,
                vaddr: os.addr,
                lma_offset: 0,
                filesz: os.size,
                memsz: os.size,
                align: 8,
            });
        }
    }
    segs.extend(relros);
    if lay.synthetic_index.contains_key(&Synthetic::EhFrameHdr) {
        let (os, _) = lay.synthetic_index[&Synthetic::EhFrameHdr];
        let s = &lay.sections[os as usize];
        segs.push(Segment::of_section(elf::PT_GNU_EH_FRAME, elf::PF_R, s, 4));
    }
    if !config.z.nognustack {
        let flags = if config.z.execstack || lay.inputs_want_execstack {
            elf::PF_R | elf::PF_W | elf::PF_X
        } else {
            elf::PF_R | elf::PF_W
        };
        segs.push(Segment {
            memsz: config.z.stack_size,
            ..Segment::empty(elf::PT_GNU_STACK, flags)
        });
    }
    if config.z.wxneeded {
        segs.push(Segment::empty(PT_OPENBSD_WXNEEDED, elf::PF_X));
    }
    if lay.synthetic_index.contains_key(&Synthetic::GnuProperty) {
        let (os, _) = lay.synthetic_index[&Synthetic::GnuProperty];
        let s = &lay.sections[os as usize];
        segs.push(Segment::of_section(elf::PT_GNU_PROPERTY, elf::PF_R, s, 8));
    }
    for &(first, last) in notes {
        let a = &lay.sections[first];
        let b = &lay.sections[last];
        segs.push(Segment {
            p_type: elf::PT_NOTE,
            flags: elf::PF_R,
            offset: a.offset,
            vaddr: a.addr,
            lma_offset: 0,
            filesz: b.offset + b.size - a.offset,
            memsz: b.addr + b.size - a.addr,
            align: a.align,
        });
    }
    segs
}
