//! lld's last checks of a finished layout (`Writer::checkSections`): every section ends inside
//! the address space, and no two sections share file bytes, virtual addresses or load
//! addresses. A linker script can ask for any of these (`. = 0x1000;` inside a section, two
//! sections at one address, `AT` pointing into another section); the built-in layout never
//! does.

use super::addresses::segment_class;
use super::commands::SectionCommands;
use crate::config::Config;
use crate::error::Error;
use crate::output::layout::Layout;
use crate::output::sections::OutputSection;
use crate::resolve::symbol_table::SymbolDef;
use crate::resolve::Resolved;
use object::elf;
use object::read::elf::Rela;
use object::LittleEndian as LE;

/// lld's check as it makes `PT_GNU_RELRO` (`createPhdrs`): the RELRO sections in a PT_LOAD
/// must follow each other, as one segment describes them; each one after a writable section
/// that ended the region is an error (`.tbss`, in no PT_LOAD, does not count).
pub fn relro_contiguity(config: &Config, lay: &Layout) -> Vec<Error> {
    let mut errors = Vec::new();
    let (mut inside, mut ended) = (false, false);
    for os in lay.sections.iter().filter(|s| s.is_alloc()) {
        if os.is_nobits() && os.flags & u64::from(elf::SHF_TLS) != 0 {
            continue;
        }
        if segment_class(config, os) == 2 {
            inside = true;
            if ended {
                errors.push(Error(format!(
                    "section: {} is not contiguous with other relro sections",
                    os.name
                )));
            }
        } else if inside {
            inside = false;
            ended = true;
        }
    }
    errors
}

/// The errors, in lld's order and words.
pub fn check(lay: &Layout) -> Vec<Error> {
    let mut errors = Vec::new();
    for os in &lay.sections {
        if os.addr.checked_add(os.size).is_none() {
            errors.push(Error(format!(
                "section {} at 0x{:X} of size 0x{:X} exceeds available address space",
                os.name, os.addr, os.size
            )));
        }
    }
    let with_size = || lay.sections.iter().filter(|s| s.size > 0);
    fn span(s: &OutputSection, start: u64) -> Span<'_> {
        Span {
            name: &s.name,
            start,
            size: s.size,
            in_overlay: s.in_overlay,
        }
    }
    // A flat image holds the allocated sections only; the others are not written.
    let file: Vec<Span> = with_size()
        .filter(|s| !s.is_nobits() && (!lay.flat_image || s.is_alloc()))
        .map(|s| span(s, s.offset))
        .collect();
    errors.extend(overlaps("file", file, false));
    // TLS sections are mapped elsewhere at run time: their ranges may overlap others.
    let loaded = || with_size().filter(|s| s.is_alloc() && s.flags & u64::from(elf::SHF_TLS) == 0);
    // An OVERLAY's sections share their addresses on purpose.
    errors.extend(overlaps(
        "virtual address",
        loaded().map(|s| span(s, s.addr)).collect(),
        true,
    ));
    errors.extend(overlaps(
        "load address",
        loaded()
            .map(|s| span(s, s.addr.wrapping_add(s.lma_offset)))
            .collect(),
        false,
    ));
    errors
}

/// A section's range in the file or in memory, for the overlap checks.
pub struct Span<'a> {
    pub name: &'a str,
    pub start: u64,
    pub size: u64,
    /// In an `OVERLAY`, whose sections share their addresses on purpose.
    pub in_overlay: bool,
}

/// lld's `checkOverlap` of the file ranges (`what` "file") or of the virtual or load
/// addresses: sorted by start (ties in the given order), each range against the one before it.
pub fn overlaps(what: &str, mut ranges: Vec<Span>, virtual_addresses: bool) -> Vec<Error> {
    ranges.sort_by_key(|s| s.start);
    let range = |start: u64, size: u64| {
        format!(
            "[0x{:X}, 0x{:X}]",
            start,
            start.wrapping_add(size).wrapping_sub(1)
        )
    };
    let mut errors = Vec::new();
    for pair in ranges.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if b.start >= a.start.wrapping_add(a.size)
            || virtual_addresses && a.in_overlay && b.in_overlay
        {
            continue;
        }
        errors.push(Error(format!(
            "section {} {what} range overlaps with {}\n>>> {} range is {}\n>>> {} range is {}",
            a.name,
            b.name,
            a.name,
            range(a.start, a.size),
            b.name,
            range(b.start, b.size)
        )));
    }
    errors
}

/// `NOCROSSREFS(a, b, ...)`: no relocation in one of the output sections may refer to a symbol
/// defined in another of them; `NOCROSSREFS_TO(t, a, ...)`: none in `a, ...` to one in `t`.
/// lld's check (`checkNoCrossRefs`) and words.
pub fn cross_references(res: &Resolved, commands: &SectionCommands, lay: &Layout) -> Vec<Error> {
    let mut errors = Vec::new();
    if commands.no_cross_refs.is_empty() {
        return errors;
    }
    let osec_name = |o: u32| lay.sections.get(o as usize).map(|s| s.name.as_str());
    for (fi, f) in res.files.iter().enumerate() {
        for (si, sec) in f.sections.iter().enumerate() {
            let Some(from) = lay.sec_osec[fi].get(si).copied().and_then(osec_name) else {
                continue;
            };
            for (list, to_first) in &commands.no_cross_refs {
                if !list.iter().any(|n| n == from) || *to_first && list[0] == from {
                    continue;
                }
                for r in sec.relocs {
                    let index = r.r_sym(LE, false) as usize;
                    let Some(sym) = f.symbols.get(index) else {
                        continue;
                    };
                    // Where the symbol is defined: a local in its section, a global where its
                    // winning definition is.
                    let (df, dsec) = match res.global_of(fi as u32, index) {
                        Some(g) => match res.symtab.get(g).def {
                            SymbolDef::Defined { file, index } => {
                                let file_obj = &res.files[file as usize];
                                match file_obj.sym_section(index as usize) {
                                    Some(s) => (file as usize, s),
                                    None => continue,
                                }
                            }
                            _ => continue,
                        },
                        None => match f.sym_section(index) {
                            Some(s) => (fi, s),
                            None => continue,
                        },
                    };
                    let Some(to) = lay.sec_osec[df].get(dsec).copied().and_then(osec_name) else {
                        continue;
                    };
                    if to == from || !list.iter().any(|n| n == to) || *to_first && list[0] != to {
                        continue;
                    }
                    let target = if sym.st_type() == elf::STT_SECTION {
                        res.files[df].sections[dsec].name_str().to_string()
                    } else {
                        String::from_utf8_lossy(f.sym_name(index)).into_owned()
                    };
                    errors.push(Error(format!(
                        "{}: prohibited cross reference from '{from}' to '{target}' in '{to}'",
                        f.location(si, r.r_offset(LE))
                    )));
                }
            }
        }
    }
    errors
}
