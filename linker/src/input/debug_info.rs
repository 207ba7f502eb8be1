//! Source locations from DWARF, for diagnostics only: lld prints `file.c:3 (/dir/file.c:3)`
//! above the object location when an object has line tables. Nothing here is on the link's
//! hot path; it runs only when an error is reported.

use crate::input::input_files::{ObjectFile, SectionKind};
use object::elf;
use object::read::elf::{Rela, Sym};
use object::LittleEndian as LE;
use std::borrow::Cow;

/// `name.c:LINE (/full/path/name.c:LINE)` for offset `offset` of section `sec`, as lld's
/// `getSrcMsg` prints it, or `None` when the object has no line table covering the place.
pub fn source_location(file: &ObjectFile, sec: usize, offset: u64) -> Option<String> {
    let (path, line) = find_line(file, sec, offset)?;
    let name = std::path::Path::new(&path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.clone());
    if name == path {
        Some(format!("{name}:{line}"))
    } else {
        Some(format!("{name}:{line} ({path}:{line})"))
    }
}

/// Each non-debug section is given its own 4 GiB window of "addresses", so that relocated
/// line-table addresses identify the section and the offset within it.
fn section_base(file: &ObjectFile, index: usize) -> u64 {
    if file
        .sections
        .get(index)
        .is_some_and(|s| s.name.starts_with(b".debug"))
    {
        0
    } else {
        (index as u64 + 1) << 32
    }
}

/// A debug section's bytes with its relocations applied against the fake addresses above.
fn relocated(file: &ObjectFile, name: &[u8]) -> Cow<'static, [u8]> {
    let Some(s) = file
        .sections
        .iter()
        .find(|s| s.name == name && s.kind != SectionKind::Discarded)
    else {
        return Cow::Borrowed(&[]);
    };
    if s.relocs.is_empty() {
        return Cow::Borrowed(s.data);
    }
    let mut data = s.data.to_vec();
    for r in s.relocs {
        let index = r.r_sym(LE, false) as usize;
        let Some(sym) = file.symbols.get(index) else {
            continue;
        };
        let Some(shndx) = file.sym_section(index) else {
            continue;
        };
        let value = section_base(file, shndx)
            .wrapping_add(sym.st_value(LE))
            .wrapping_add(r.r_addend(LE) as u64);
        let off = r.r_offset(LE) as usize;
        match r.r_type(LE, false) {
            elf::R_X86_64_64 => {
                if let Some(d) = data.get_mut(off..off + 8) {
                    d.copy_from_slice(&value.to_le_bytes());
                }
            }
            elf::R_X86_64_32 | elf::R_X86_64_32S => {
                if let Some(d) = data.get_mut(off..off + 4) {
                    d.copy_from_slice(&(value as u32).to_le_bytes());
                }
            }
            _ => {}
        }
    }
    Cow::Owned(data)
}

fn find_line(file: &ObjectFile, sec: usize, offset: u64) -> Option<(String, u64)> {
    let target = section_base(file, sec) + offset;
    let sections = gimli::DwarfSections::load(|id| -> Result<Cow<'static, [u8]>, ()> {
        Ok(relocated(file, id.name().as_bytes()))
    })
    .ok()?;
    let dwarf = sections.borrow(|s| gimli::EndianSlice::new(s, gimli::LittleEndian));
    let mut units = dwarf.units();
    while let Ok(Some(header)) = units.next() {
        let Ok(unit) = dwarf.unit(header) else {
            continue;
        };
        let Some(program) = unit.line_program.clone() else {
            continue;
        };
        let mut rows = program.rows();
        let mut prev: Option<(u64, u64, u64)> = None; // (address, file index, line)
        while let Ok(Some((header, row))) = rows.next_row() {
            if let Some((addr, file_index, line)) = prev {
                if addr <= target && target < row.address() && line != 0 {
                    let path = file_path(&dwarf, &unit, header, file_index)?;
                    return Some((path, line));
                }
            }
            prev = if row.end_sequence() {
                None
            } else {
                Some((
                    row.address(),
                    row.file_index(),
                    row.line().map_or(0, |l| l.get()),
                ))
            };
        }
    }
    None
}

type Slice<'a> = gimli::EndianSlice<'a, gimli::LittleEndian>;

fn file_path(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    header: &gimli::LineProgramHeader<Slice<'_>>,
    index: u64,
) -> Option<String> {
    let entry = header.file(index)?;
    let attr_string = |a| {
        dwarf
            .attr_string(unit, a)
            .ok()
            .map(|s: Slice<'_>| s.to_string_lossy().into_owned())
    };
    let name = attr_string(entry.path_name())?;
    if name.starts_with('/') {
        return Some(name);
    }
    let mut dir = entry
        .directory(header)
        .and_then(attr_string)
        .unwrap_or_default();
    if !dir.starts_with('/') {
        if let Some(comp) = unit.comp_dir.map(|c| c.to_string_lossy().into_owned()) {
            dir = if dir.is_empty() {
                comp
            } else {
                format!("{comp}/{dir}")
            };
        }
    }
    if dir.is_empty() {
        Some(name)
    } else {
        Some(format!("{dir}/{name}"))
    }
}
