//! `--gdb-index`: the `.gdb_index` section (version 7) gdb reads to find a program's
//! compilation units without reading all of their DWARF, built as ld.lld 22 builds it.
//!
//! The section is computed from the inputs, per object file with a `.debug_info` (in parallel),
//! before identical code folding and once `--gc-sections` is done (lld's point):
//!
//! * the CU list: every unit of the file's `.debug_info` that is not in a section group (type
//!   units of DWARF 5 `-fdebug-types-section` are, and lld leaves them out), its offset moved to
//!   where that input section lands in the output `.debug_info`;
//! * the address area: the ranges of each unit's root DIE (`DW_AT_low_pc`/`DW_AT_high_pc`, or
//!   `DW_AT_ranges` through `.debug_ranges`, `.debug_rnglists` or `DW_FORM_rnglistx`, with
//!   `.debug_addr` for the indexed forms), each tied to the input section its relocation names.
//!   Ranges in sections that are not in the output (lost COMDAT members, collected sections)
//!   are dropped; a range in a section later folded by ICF takes the kept section's address;
//! * the symbol table and constant pool: the names of `.debug_gnu_pubnames` and
//!   `.debug_gnu_pubtypes`, each with the CU vector of (attributes << 24 | CU index) values in
//!   input order, in lld's order (sharded by the top bits of gdb's hash) and hash table.
//!
//! The inputs' `.debug_gnu_pubnames`/`.debug_gnu_pubtypes` are not copied to the output: they
//! exist only to build this index (lld drops them too, [`drops_input_section`]).
//!
//! Relocations in the debug sections are resolved as lld's DWARF reader resolves them: to the
//! symbol's value in its own section plus the addend, and only where an address or an offset
//! is read (gimli's `RelocateReader`: nothing is copied). To let gimli decode ranges while keeping
//! the section each address belongs to, every allocated section gets a 4 GiB window of "fake"
//! addresses (`(index + 1) << 32`); an address outside every window has no section, which is
//! lld's "no relocation" case, and is dropped as lld drops it.
//!
//! One deliberate difference from lld: the CU list gives each unit's real size. lld writes the
//! unit length plus 4, which is 8 bytes short for a DWARF64 unit, and gdb aborts on that
//! (mold's test `gdb-index-dwarf64`); for DWARF32 units both agree.

use crate::config::{Config, Strip};
use crate::error::Result;
use crate::input::input_files::{FileId, InputSection, ObjectFile, SectionKind};
use crate::output::sections::{Synthetic, SyntheticChunk};
use crate::resolve::Resolved;
use crate::{bail, err};
use gimli::{AttributeValue, EndianSlice, LittleEndian};
use object::elf;
use object::read::elf::{Rela, Sym};
use object::LittleEndian as LE;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;

/// The index format written (gdb reads versions 7 and 8 the same way; lld writes 7).
const VERSION: u32 = 7;
/// The header: the version and five offsets.
const HEADER_SIZE: u64 = 24;
/// How symbols are grouped before they are numbered (lld's shard count): the order of the
/// symbol table's contents depends on it, so it is part of the output format here.
const SHARDS: u32 = 32;

/// Whether the input section `name` stays out of the output because it only feeds the index.
pub fn drops_input_section(config: &Config, name: &[u8]) -> bool {
    config.gdb_index && (name == b".debug_gnu_pubnames" || name == b".debug_gnu_pubtypes")
}

/// A computed `.gdb_index`: everything but the output addresses, which [`GdbIndex::write`]
/// adds once the layout is final.
#[derive(Debug, Default)]
pub struct GdbIndex {
    files: Vec<FileIndex>,
    symbols: Vec<IndexSymbol>,
    /// Slots of the hash table (a power of two).
    slots: u32,
    /// Size of the constant pool: the CU vectors, then the names.
    pool_size: u64,
}

/// What one object file contributes.
#[derive(Debug)]
struct FileIndex {
    file: FileId,
    /// The `.debug_info` section the units were read from (the last one outside a group).
    info: Option<u32>,
    units: Vec<UnitEntry>,
    areas: Vec<AddressArea>,
}

/// A unit of the CU list: its offset in its input `.debug_info` and its whole size.
#[derive(Debug, Clone, Copy)]
struct UnitEntry {
    offset: u64,
    size: u64,
}

/// An address range of a unit: offsets in input section `sec`, unit index within its file.
#[derive(Debug, Clone, Copy)]
struct AddressArea {
    sec: u32,
    low: u64,
    high: u64,
    unit: u32,
}

/// A name from a pubnames/pubtypes table, with its attributes and the unit (within its file).
#[derive(Debug, Clone, Copy)]
struct NameEntry {
    name: &'static [u8],
    hash: u32,
    value: u32,
}

/// A symbol of the index: a unique name and the units that define it.
#[derive(Debug)]
struct IndexSymbol {
    name: &'static [u8],
    hash: u32,
    cu_vector: Vec<u32>,
    cu_vector_off: u32,
    name_off: u32,
}

/// gdb's string hash for the index's symbol table (`mapped_index_string_hash`, version 5 on:
/// ASCII letters folded to lower case).
fn gdb_hash(name: &[u8]) -> u32 {
    name.iter().fold(0u32, |h, &c| {
        h.wrapping_mul(67)
            .wrapping_add(u32::from(c.to_ascii_lowercase()))
            .wrapping_sub(113)
    })
}

/// Builds the index of the link, or `None` when it has none: without `--gdb-index`, when debug
/// sections are stripped, or when no object has a `.debug_info` (as lld, which then writes no
/// section). Warnings about unreadable DWARF are reported here, in file order (all of them as
/// errors under `--fatal-warnings`, as lld reports them).
pub fn build(
    config: &Config,
    res: &Resolved,
) -> std::result::Result<Option<GdbIndex>, Vec<crate::error::Error>> {
    if !config.gdb_index || config.strip != Strip::None {
        return Ok(None);
    }
    let files: Vec<FileId> = res
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.sections
                .iter()
                .any(|s| s.name == b".debug_info" && in_link(s))
        })
        .map(|(i, _)| i as FileId)
        .collect();
    if files.is_empty() {
        return Ok(None);
    }
    let read: Vec<(FileIndex, Vec<NameEntry>, Vec<String>)> = files
        .par_iter()
        .map(|&f| read_file(f, &res.files[f as usize]))
        .collect();
    let mut file_indexes = Vec::with_capacity(read.len());
    let mut names = Vec::with_capacity(read.len());
    let mut errors = Vec::new();
    for (fi, n, warnings) in read {
        for w in warnings {
            if let Err(e) = config.warn(&w) {
                errors.push(e);
            }
        }
        file_indexes.push(fi);
        names.push(n);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let (symbols, pool_size) = create_symbols(&file_indexes, &names);
    if pool_size > u64::from(u32::MAX) {
        return Err(vec![err!(
            "--gdb-index: constant pool size ({pool_size}) exceeds UINT32_MAX"
        )]);
    }
    // About 75% of the slots used, and at least 1024 (lld's sizing).
    let wanted = (symbols.len() as u64 * 4 / 3 + 1)
        .next_power_of_two()
        .max(1024);
    let slots = u32::try_from(wanted).map_err(|_| vec![err!("--gdb-index: too many symbols")])?;
    Ok(Some(GdbIndex {
        files: file_indexes,
        symbols,
        slots,
        pool_size,
    }))
}

/// Whether an input section takes part in the link (lost COMDAT members and ignored sections
/// do not; collected ones still count, as lld looks before it drops them).
fn in_link(s: &InputSection) -> bool {
    !matches!(
        s.kind,
        SectionKind::Discarded | SectionKind::Ignored | SectionKind::Unloaded
    )
}

/// The debug sections of one file that the index reads (the last of each name, as lld's DWARF
/// reader keeps the last).
#[derive(Default)]
struct DebugSections {
    info: Option<usize>,
    abbrev: Option<usize>,
    addr: Option<usize>,
    ranges: Option<usize>,
    rnglists: Option<usize>,
    pubnames: Option<usize>,
    pubtypes: Option<usize>,
}

fn find_sections(file: &ObjectFile) -> DebugSections {
    let mut d = DebugSections::default();
    for (i, s) in file.sections.iter().enumerate() {
        if s.kind == SectionKind::Discarded || s.kind == SectionKind::Unloaded {
            continue;
        }
        let slot = match s.name {
            // Units in a section group are DWARF 5 type units (`-fdebug-types-section`): not
            // compilation units, so lld leaves them out of the CU list.
            b".debug_info" if s.flags() & u64::from(elf::SHF_GROUP) == 0 => &mut d.info,
            b".debug_abbrev" => &mut d.abbrev,
            b".debug_addr" => &mut d.addr,
            b".debug_ranges" => &mut d.ranges,
            b".debug_rnglists" => &mut d.rnglists,
            b".debug_gnu_pubnames" => &mut d.pubnames,
            b".debug_gnu_pubtypes" => &mut d.pubtypes,
            _ => continue,
        };
        *slot = Some(i);
    }
    d
}

/// The window of fake addresses of section `shndx` (0: not an allocated section).
fn window(file: &ObjectFile, shndx: usize) -> u64 {
    match file.sections.get(shndx) {
        Some(s) if shndx != 0 && s.is_alloc() => (shndx as u64 + 1) << 32,
        _ => 0,
    }
}

/// What relocation `r` of `file` resolves to for the DWARF reader: the symbol's value in its
/// section (in that section's window) plus the addend.
fn reloc_value(file: &ObjectFile, r: &crate::input::input_files::Rela64) -> u64 {
    let Some(sym) = file.symbols.get(r.r_sym(LE, false) as usize) else {
        return r.r_addend(LE) as u64;
    };
    let shndx = sym.st_shndx(LE);
    let (base, value) = if shndx == elf::SHN_UNDEF || shndx >= elf::SHN_LORESERVE {
        (0, 0)
    } else {
        (window(file, usize::from(shndx)), sym.st_value(LE))
    };
    base.wrapping_add(value).wrapping_add(r.r_addend(LE) as u64)
}

/// A debug section's relocations (by offset), applied as gimli reads an address or an offset
/// at a relocated place: only what is read is relocated, as lld's DWARF reader does, and no
/// section is copied.
#[derive(Clone, Copy, Debug)]
struct Relocs<'a> {
    file: &'a ObjectFile,
    relocs: &'a [crate::input::input_files::Rela64],
}

impl Relocs<'_> {
    fn at(&self, offset: usize) -> Option<u64> {
        let at = offset as u64;
        let i = self.relocs.partition_point(|r| r.r_offset(LE) < at);
        let r = self.relocs.get(i).filter(|r| r.r_offset(LE) == at)?;
        Some(reloc_value(self.file, r))
    }
}

impl gimli::Relocate<usize> for Relocs<'_> {
    fn relocate_address(&self, offset: usize, value: u64) -> gimli::Result<u64> {
        Ok(self.at(offset).unwrap_or(value))
    }
    fn relocate_offset(&self, offset: usize, value: usize) -> gimli::Result<usize> {
        Ok(self.at(offset).map_or(value, |v| v as usize))
    }
}

/// Section `index`'s relocations sorted by offset (as compilers write them; sorted here
/// otherwise), `R_X86_64_NONE` left out.
fn sorted_relocs(
    file: &ObjectFile,
    index: Option<usize>,
) -> Cow<'static, [crate::input::input_files::Rela64]> {
    let Some(s) = index.and_then(|i| file.sections.get(i)) else {
        return Cow::Borrowed(&[]);
    };
    let none = |r: &crate::input::input_files::Rela64| r.r_type(LE, false) == elf::R_X86_64_NONE;
    if s.relocs_sorted && !s.relocs.iter().any(none) {
        return Cow::Borrowed(s.relocs);
    }
    let mut v: Vec<_> = s.relocs.iter().filter(|r| !none(r)).copied().collect();
    v.sort_by_key(|r| r.r_offset(LE));
    Cow::Owned(v)
}

/// Section `index`'s contents (empty when the file has none).
fn contents(file: &ObjectFile, index: Option<usize>) -> &'static [u8] {
    index
        .and_then(|i| file.sections.get(i))
        .map_or(&[], |s| s.data)
}

type Reader<'a> = gimli::RelocateReader<EndianSlice<'a, LittleEndian>, Relocs<'a>>;

/// A reader over section `index` of `file` that relocates what it reads with `relocs`.
fn reader<'a>(
    file: &'a ObjectFile,
    index: Option<usize>,
    relocs: &'a [crate::input::input_files::Rela64],
) -> Reader<'a> {
    gimli::RelocateReader::new(
        EndianSlice::new(contents(file, index), LittleEndian),
        Relocs { file, relocs },
    )
}

/// Reads one file's units, address ranges and names (warnings in lld's words where lld has
/// its own; DWARF decoding errors in gimli's).
fn read_file(f: FileId, file: &ObjectFile) -> (FileIndex, Vec<NameEntry>, Vec<String>) {
    let d = find_sections(file);
    let mut warnings = Vec::new();
    let relocs = [d.info, d.abbrev, d.addr, d.ranges, d.rnglists].map(|i| sorted_relocs(file, i));
    let sections = UnitSections {
        info: gimli::DebugInfo::from(reader(file, d.info, &relocs[0])),
        abbrev: gimli::DebugAbbrev::from(reader(file, d.abbrev, &relocs[1])),
        addr: gimli::DebugAddr::from(reader(file, d.addr, &relocs[2])),
        ranges: gimli::RangeLists::new(
            gimli::DebugRanges::from(reader(file, d.ranges, &relocs[3])),
            gimli::DebugRngLists::from(reader(file, d.rnglists, &relocs[4])),
        ),
    };
    let mut units = Vec::new();
    let mut areas = Vec::new();
    let mut failed = None;
    let sec_name = d.info.map_or("", |i| file.sections[i].name_str());
    let mut iter = sections.info.units();
    loop {
        let header = match iter.next() {
            Ok(Some(h)) => h,
            Ok(None) => break,
            // The units before a bad header stay, ranges and all (LLVM stops reading there).
            Err(e) => {
                warnings.push(format!("{}:({sec_name}): {e}", file.name));
                break;
            }
        };
        let offset = header
            .offset()
            .as_debug_info_offset()
            .map_or(0, |o| o.0 as u64);
        let unit = units.len() as u32;
        units.push(UnitEntry {
            offset,
            size: header.length_including_self() as u64,
        });
        if failed.is_some() {
            continue;
        }
        match unit_ranges(&sections, &header) {
            Ok(list) => {
                for (begin, end) in list {
                    if let Some(area) = area_of(file, unit, begin, end) {
                        areas.push(area);
                    }
                }
            }
            Err(e) => failed = Some(e),
        }
    }
    if let Some(e) = failed {
        // lld gives up on the whole file's address area when one unit's ranges cannot be read.
        warnings.push(format!("{}:({sec_name}): {e}", file.name));
        areas.clear();
    }
    let mut names = Vec::new();
    for s in [d.pubnames, d.pubtypes].into_iter().flatten() {
        read_pub_table(file, s, &units, &mut names, &mut warnings);
    }
    let index = FileIndex {
        file: f,
        info: d.info.map(|i| i as u32),
        units,
        areas,
    };
    (index, names, warnings)
}

/// The sections a unit's ranges are read from.
struct UnitSections<'a> {
    info: gimli::DebugInfo<Reader<'a>>,
    abbrev: gimli::DebugAbbrev<Reader<'a>>,
    addr: gimli::DebugAddr<Reader<'a>>,
    ranges: gimli::RangeLists<Reader<'a>>,
}

/// The (begin, end) fake-address ranges of a unit's root DIE, as LLVM's `getAddressRanges`
/// gives them: `DW_AT_low_pc` with `DW_AT_high_pc` first, else `DW_AT_ranges`.
fn unit_ranges(
    s: &UnitSections<'_>,
    header: &gimli::UnitHeader<Reader<'_>>,
) -> gimli::Result<Vec<(u64, u64)>> {
    let abbrevs = header.abbreviations(&s.abbrev)?;
    let mut cursor = header.entries(&abbrevs);
    cursor.next_dfs()?;
    let root = cursor.current().ok_or(gimli::Error::MissingUnitDie)?;
    let encoding = header.encoding();
    let mut low = None;
    let mut entry_pc = None;
    let mut high = None;
    let mut ranges = None;
    let mut addr_base = gimli::DebugAddrBase(0);
    let mut rnglists_base = gimli::DebugRngListsBase(0);
    let mut attrs = root.attrs();
    while let Some(attr) = attrs.next()? {
        match attr.name() {
            gimli::DW_AT_low_pc => low = Some(attr.value()),
            gimli::DW_AT_entry_pc => entry_pc = Some(attr.value()),
            gimli::DW_AT_high_pc => high = Some(attr.value()),
            gimli::DW_AT_ranges => ranges = Some(attr.value()),
            gimli::DW_AT_addr_base | gimli::DW_AT_GNU_addr_base => {
                if let AttributeValue::DebugAddrBase(b) = attr.value() {
                    addr_base = b;
                }
            }
            gimli::DW_AT_rnglists_base => {
                if let AttributeValue::DebugRngListsBase(b) = attr.value() {
                    rnglists_base = b;
                }
            }
            _ => {}
        }
    }
    let address = |v: AttributeValue<Reader<'_>>| -> gimli::Result<Option<u64>> {
        match v {
            AttributeValue::Addr(a) => Ok(Some(a)),
            AttributeValue::DebugAddrIndex(i) => s
                .addr
                .get_address(encoding.address_size, addr_base, i)
                .map(Some),
            _ => Ok(None),
        }
    };
    let low_pc = match low {
        Some(v) => address(v)?,
        None => None,
    };
    if let (Some(begin), Some(h)) = (low_pc, high) {
        let end = match h {
            AttributeValue::Udata(size) => Some(begin.wrapping_add(size)),
            v => address(v)?,
        };
        if let Some(end) = end {
            return Ok(vec![(begin, end)]);
        }
    }
    let offset = match ranges {
        Some(AttributeValue::RangeListsRef(o)) => gimli::RangeListsOffset(o.0),
        Some(AttributeValue::DebugRngListsIndex(i)) => {
            s.ranges.get_offset(encoding, rnglists_base, i)?
        }
        _ => return Ok(Vec::new()),
    };
    // The unit's base address: DW_AT_low_pc, else DW_AT_entry_pc.
    let base = match low_pc {
        Some(b) => b,
        None => match entry_pc {
            Some(v) => address(v)?.unwrap_or(0),
            None => 0,
        },
    };
    let mut list = s
        .ranges
        .ranges(offset, encoding, base, &s.addr, addr_base)?;
    let mut out = Vec::new();
    while let Some(r) = list.next()? {
        out.push((r.begin, r.end));
    }
    Ok(out)
}

/// The address area entry of a fake-address range, if it lies in a section of the output
/// (lld drops empty ranges and those of sections not linked).
fn area_of(file: &ObjectFile, unit: u32, begin: u64, end: u64) -> Option<AddressArea> {
    let k = begin >> 32;
    if k == 0 || begin == end {
        return None;
    }
    let sec = (k - 1) as usize;
    let s = file.sections.get(sec)?;
    if s.kind != SectionKind::Regular {
        return None;
    }
    let base = k << 32;
    Some(AddressArea {
        sec: sec as u32,
        low: begin - base,
        high: end.wrapping_sub(base),
        unit,
    })
}

/// A bounds-checked reader over a name table, failing as LLVM's `DataExtractor` cursor does.
struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> std::result::Result<&[u8], String> {
        let end = self.pos + n;
        if end > self.data.len() {
            return Err(format!(
                "unexpected end of data at offset 0x{:x} while reading [0x{:x}, 0x{:x})",
                self.data.len(),
                self.pos,
                end
            ));
        }
        let b = &self.data[self.pos..end];
        self.pos = end;
        Ok(b)
    }
    fn uint(&mut self, n: usize) -> std::result::Result<u64, String> {
        let b = self.take(n)?;
        let mut v = [0u8; 8];
        v[..n].copy_from_slice(b);
        Ok(u64::from_le_bytes(v))
    }
}

/// Reads a `.debug_gnu_pub{names,types}` section into `names`, with LLVM's warnings for
/// malformed tables (which lld reports as `file:(section): message`).
fn read_pub_table(
    file: &ObjectFile,
    sec: usize,
    units: &[UnitEntry],
    names: &mut Vec<NameEntry>,
    warnings: &mut Vec<String>,
) {
    let s = &file.sections[sec];
    let data: &'static [u8] = s.data;
    let warn = |warnings: &mut Vec<String>, msg: String| {
        warnings.push(format!("{}:({}): {msg}", file.name, s.name_str()));
    };
    let mut offset = 0usize;
    while offset < data.len() {
        let set_offset = offset;
        let mut c = Cursor { data, pos: offset };
        // The initial length: 32 bits, or 0xffffffff and 64 bits (DWARF64).
        let initial = c.uint(4).and_then(|l| match l {
            0xffff_ffff => c.uint(8).map(|l| (l, 8usize)),
            l if l >= 0xffff_fff0 => Err(format!(
                "unsupported reserved unit length of value 0x{l:08x}"
            )),
            l => Ok((l, 4)),
        });
        let (length, osize) = match initial {
            Ok(v) => v,
            Err(e) => {
                warn(
                    warnings,
                    format!("name lookup table at offset 0x{set_offset:x} parsing failed: {e}"),
                );
                return;
            }
        };
        let end = (c.pos as u64).saturating_add(length);
        offset = usize::try_from(end).unwrap_or(usize::MAX);
        let mut c = Cursor {
            data: &data[..offset.min(data.len())],
            pos: c.pos,
        };
        let header = c.uint(2).and_then(|_version| {
            let at = c.pos;
            let raw = c.uint(osize)?;
            c.uint(osize)?;
            Ok(relocated_field(s, file, at, raw))
        });
        let unit_offset = match header {
            Ok(o) => o,
            Err(e) => {
                warn(
                    warnings,
                    format!(
                        "name lookup table at offset 0x{set_offset:x} does not have a complete header: {e}"
                    ),
                );
                continue;
            }
        };
        // The unit of this set among the file's units (by offset, as lld finds it).
        let unit = units.partition_point(|u| u.offset < unit_offset) as u32;
        let mut failed = None;
        loop {
            let die = match c.uint(osize) {
                Ok(0) => break,
                Ok(v) => v,
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            };
            let _ = die;
            let descriptor = match c.uint(1) {
                Ok(v) => v as u32,
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            };
            let start = c.pos;
            let Some(len) = memchr::memchr(0, &c.data[start..]) else {
                failed = Some(format!("no null terminated string at offset 0x{start:x}"));
                break;
            };
            let name = &data[start..start + len];
            c.pos = start + len + 1;
            // The symbol kind and static bit; the CU index goes in the low 24 bits.
            names.push(NameEntry {
                name,
                hash: gdb_hash(name),
                value: ((descriptor & 0xf0) << 24) | unit,
            });
        }
        if let Some(e) = failed {
            warn(
                warnings,
                format!("name lookup table at offset 0x{set_offset:x} parsing failed: {e}"),
            );
            continue;
        }
        if c.pos != offset {
            warn(
                warnings,
                format!(
                    "name lookup table at offset 0x{set_offset:x} has a terminator at offset 0x{:x} before the expected end at 0x{:x}",
                    c.pos - osize,
                    offset.wrapping_sub(osize)
                ),
            );
        }
    }
}

/// The value of the field at `at` of section `s`: its relocation's resolution when it has one
/// (the symbol's value in its section plus the addend), else the stored `raw` value.
fn relocated_field(s: &InputSection, file: &ObjectFile, at: usize, raw: u64) -> u64 {
    let at = at as u64;
    let found = if s.relocs_sorted {
        let i = s.relocs.partition_point(|r| r.r_offset(LE) < at);
        s.relocs.get(i).filter(|r| r.r_offset(LE) == at)
    } else {
        s.relocs.iter().find(|r| r.r_offset(LE) == at)
    };
    match found {
        Some(r) => reloc_value(file, r),
        None => raw,
    }
}

/// The index's symbols, unique by name, in lld's order: grouped by the top five bits of the
/// hash, each group in order of first appearance; then the constant pool's layout (all CU
/// vectors, then all names). Returns the symbols and the pool's size.
fn create_symbols(files: &[FileIndex], names: &[Vec<NameEntry>]) -> (Vec<IndexSymbol>, u64) {
    let mut first_unit = Vec::with_capacity(files.len());
    let mut n = 0u32;
    for f in files {
        first_unit.push(n);
        n += f.units.len() as u32;
    }
    let shift = 32 - SHARDS.trailing_zeros();
    let mut shards: Vec<Vec<IndexSymbol>> = (0..SHARDS).map(|_| Vec::new()).collect();
    let mut seen: Vec<HashMap<&'static [u8], usize>> =
        (0..SHARDS).map(|_| HashMap::new()).collect();
    for (entries, &base) in names.iter().zip(&first_unit) {
        for e in entries {
            let shard = (e.hash >> shift) as usize;
            let v = e.value.wrapping_add(base);
            let syms = &mut shards[shard];
            match seen[shard].get(e.name) {
                Some(&i) => syms[i].cu_vector.push(v),
                None => {
                    seen[shard].insert(e.name, syms.len());
                    syms.push(IndexSymbol {
                        name: e.name,
                        hash: e.hash,
                        cu_vector: vec![v],
                        cu_vector_off: 0,
                        name_off: 0,
                    });
                }
            }
        }
    }
    let mut symbols: Vec<IndexSymbol> = shards.into_iter().flatten().collect();
    let mut off = 0u64;
    for s in &mut symbols {
        s.cu_vector_off = off as u32;
        off += (s.cu_vector.len() as u64 + 1) * 4;
    }
    for s in &mut symbols {
        s.name_off = off as u32;
        off += s.name.len() as u64 + 1;
    }
    (symbols, off)
}

impl GdbIndex {
    /// The section's size.
    pub fn size(&self) -> u64 {
        let units: u64 = self.files.iter().map(|f| f.units.len() as u64).sum();
        let areas: u64 = self.files.iter().map(|f| f.areas.len() as u64).sum();
        HEADER_SIZE + units * 16 + areas * 20 + u64::from(self.slots) * 8 + self.pool_size
    }

    /// Writes the section into `buf` (of [`GdbIndex::size`] bytes) with the output offsets of
    /// the `.debug_info` sections and the addresses of the code sections: `sec_addr[file][sec]`
    /// (`u64::MAX` for a section not in the output).
    pub fn write(&self, sec_addr: &[Vec<u64>], buf: &mut [u8]) -> Result<()> {
        if buf.len() as u64 != self.size() {
            bail!("internal error: .gdb_index size changed");
        }
        buf.fill(0);
        let put32 = |buf: &mut [u8], at: usize, v: u32| {
            buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
        };
        let put64 = |buf: &mut [u8], at: usize, v: u64| {
            buf[at..at + 8].copy_from_slice(&v.to_le_bytes());
        };
        let mut at = HEADER_SIZE as usize;
        put32(buf, 0, VERSION);
        // CU list.
        put32(buf, 4, at as u32);
        for f in &self.files {
            // A non-allocated input section's "address" is its offset in its output section.
            let base = f
                .info
                .map(|s| sec_addr[f.file as usize][s as usize])
                .filter(|&a| a != u64::MAX)
                .unwrap_or(0);
            for u in &f.units {
                put64(buf, at, base + u.offset);
                put64(buf, at + 8, u.size);
                at += 16;
            }
        }
        // No type-unit list (lld reads no `.debug_types`), then the address area.
        put32(buf, 8, at as u32);
        put32(buf, 12, at as u32);
        let mut first_unit = 0u32;
        for f in &self.files {
            for a in &f.areas {
                // A section folded by ICF has the kept section's address: ranges may repeat.
                let base = sec_addr[f.file as usize][a.sec as usize];
                let base = if base == u64::MAX { 0 } else { base };
                put64(buf, at, base.wrapping_add(a.low));
                put64(buf, at + 8, base.wrapping_add(a.high));
                put32(buf, at + 16, a.unit + first_unit);
                at += 20;
            }
            first_unit += f.units.len() as u32;
        }
        // The open-addressing hash table (gdb's probing: step from the hash, odd).
        put32(buf, 16, at as u32);
        let mask = self.slots - 1;
        let table = at;
        for s in &self.symbols {
            let mut i = s.hash & mask;
            let step = (s.hash.wrapping_mul(17) & mask) | 1;
            while buf[table + i as usize * 8..table + i as usize * 8 + 4] != [0; 4] {
                i = (i + step) & mask;
            }
            put32(buf, table + i as usize * 8, s.name_off);
            put32(buf, table + i as usize * 8 + 4, s.cu_vector_off);
        }
        at += self.slots as usize * 8;
        // The constant pool: CU vectors, then names.
        put32(buf, 20, at as u32);
        for s in &self.symbols {
            let v = at + s.cu_vector_off as usize;
            put32(buf, v, s.cu_vector.len() as u32);
            for (k, &cu) in s.cu_vector.iter().enumerate() {
                put32(buf, v + 4 + k * 4, cu);
            }
            let n = at + s.name_off as usize;
            buf[n..n + s.name.len()].copy_from_slice(s.name);
        }
        Ok(())
    }
}

impl GdbIndex {
    /// The section's chunk (none under `-z nosectionheader`).
    pub fn chunk(&self, config: &Config) -> Option<SyntheticChunk> {
        config.z.section_header.then_some(SyntheticChunk {
            kind: Synthetic::GdbIndex,
            osec: ".gdb_index",
            sh_type: elf::SHT_PROGBITS,
            flags: 0,
            size: self.size(),
            align: 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gdb_hash_folds_case() {
        assert_eq!(gdb_hash(b"main"), gdb_hash(b"MAIN"));
        assert_eq!(gdb_hash(b""), 0);
        // h = 'a' - 113 for a one-letter name.
        assert_eq!(gdb_hash(b"a"), (b'a' as u32).wrapping_sub(113));
    }
}
