//! `--debug-names`: one DWARF 5 `.debug_names` name index for the whole output, merged from the
//! per-object indexes the compiler wrote (`-gpubnames`), as ld.lld 22 merges them.
//!
//! Without the option the inputs' `.debug_names` sections are concatenated like any other debug
//! section, which leaves one name index per object: debuggers then read every one. With it, the
//! inputs' sections are left out of the output ([`drops_input_section`]) and replaced by one
//! index whose parts come from the inputs, in input order (file order, then index order inside
//! a file that holds several, as an `-r` output does):
//!
//! * the header: version 5, DWARF32; the augmentation string of the first file's indexes when
//!   every index has the same one, else none;
//! * the CU list: every input index's CU offsets, each moved to where its unit lands in the
//!   output `.debug_info` (through the input's `.debug_info + X` relocation);
//! * no type-unit lists: lld does not merge them yet, warns "type units are not implemented"
//!   for an input index that has some, and keeps the entries' `DW_IDX_type_unit` values as
//!   they are (so they refer to nothing); weld writes the same;
//! * the abbreviation table: the inputs' abbreviations, each with `DW_IDX_compile_unit` moved
//!   to the end and given the smallest form that holds every merged CU index (added when the
//!   input left it out, as a one-CU index may), deduplicated by (tag, attributes) and numbered
//!   in order of first appearance; an input index's abbreviations are visited in the order of
//!   LLVM's `DenseSet` holding them, which this module reproduces ([`dense_set_order`]) since
//!   it decides the numbers;
//! * the names: deduplicated by string, each keeping the entries of every index that has it.
//!   Their order is lld's: grouped by the top five bits of the (case-folding DJB) hash, each
//!   group in order of first appearance; the hash table puts them in `hash % buckets` buckets
//!   in that order. Name strings are read from the input `.debug_str` through the `DW_FORM_strp`
//!   relocations, and the name table's string offsets are those relocations resolved in the
//!   output, so they point into the merged output `.debug_str`;
//! * the entry pool: each entry with its abbreviation code renumbered, its compile unit index
//!   moved by the number of CUs of the files before (plus the index's position in its file: lld
//!   adds that rather than the CUs of the file's earlier indexes, and weld does the same), and
//!   a `DW_FORM_ref4` `DW_IDX_parent` pointing at the parent entry's new place (one naming no
//!   entry of its index keeps its input value, as in lld).
//!
//! Everything but the CU offsets and the string offsets is computed when the index is built
//! (after `--gc-sections`, before identical code folding; the index does not depend on either);
//! those two come from the layout when the section is written ([`DebugNames::write`]).
//!
//! Malformed input indexes are reported with lld's (and LLVM's `DWARFDebugNames`) messages,
//! `file:(.debug_names): message`, as errors (warnings under `--noinhibit-exec`, lld's
//! `errorOrWarn`).

use crate::config::{Config, Strip};
use crate::error::Result;
use crate::input::input_files::{FileId, InputSection, ObjectFile, SectionKind};
use crate::output::sections::{Synthetic, SyntheticChunk};
use crate::resolve::Resolved;
use crate::{bail, err};
use object::read::elf::{Rela, Sym};
use object::LittleEndian as LE;
use rayon::prelude::*;
use std::collections::HashMap;

/// How names are grouped before they are laid out (lld's shard count): the order of the name
/// table and of the entry pool depends on it.
const SHARDS: usize = 32;
/// The fixed part of the header (DWARF32), before the augmentation string.
const HEADER_SIZE: usize = 36;

const DW_IDX_COMPILE_UNIT: u16 = 1;
const DW_IDX_PARENT: u16 = 4;
const DW_FORM_DATA2: u16 = 0x05;
const DW_FORM_DATA4: u16 = 0x06;
const DW_FORM_DATA1: u16 = 0x0b;
const DW_FORM_REF1: u16 = 0x11;
const DW_FORM_REF2: u16 = 0x12;
const DW_FORM_REF4: u16 = 0x13;
const DW_FORM_FLAG_PRESENT: u16 = 0x19;

/// Whether input section `s` stays out of the output because the merged index replaces it.
pub fn drops_input_section(config: &Config, s: &InputSection) -> bool {
    config.debug_names && s.name == b".debug_names" && !s.is_alloc()
}

/// A computed `.debug_names`: its bytes but for the fields the layout gives.
#[derive(Debug, Default)]
pub struct DebugNames {
    /// The section, with zeros where [`Fixup`]s go.
    bytes: Vec<u8>,
    fixups: Vec<Fixup>,
    /// The input `.debug_names` of each file that contributed (file, section index).
    chunks: Vec<(FileId, u32)>,
}

/// A field of the output filled when the layout is known: the value of the relocation at
/// `field` of chunk `chunk`'s input section (0 when there is none, as in lld).
#[derive(Debug, Clone, Copy)]
struct Fixup {
    out: u32,
    chunk: u32,
    field: u32,
}

/// One abbreviation of an input index.
#[derive(Debug, Clone)]
struct Abbrev {
    code: u32,
    tag: u16,
    attrs: Vec<(u16, u16)>,
}

/// An entry of an input index: its code, its attribute values (size in bytes, value) in input
/// order without the flag-present ones and the compile unit, which comes last.
#[derive(Debug, Clone)]
struct Entry {
    code: u32,
    values: Vec<(u8, u32)>,
    /// The `DW_FORM_ref4` parent: which value holds it and the entry it names (index in the
    /// index's entries), if that entry was read.
    parent: Option<(usize, Option<u32>)>,
    /// Offset in the input section (to find parents).
    at: u64,
}

/// A name of an input index.
#[derive(Debug, Clone)]
struct Name {
    name: &'static [u8],
    hash: u32,
    /// Offset in the input section of the name's string offset.
    str_field: u32,
    /// Its entries: a range of the index's entries.
    first: u32,
    count: u32,
}

/// One input name index (a file has one per `.debug_names` unit).
#[derive(Debug, Default)]
struct Index {
    cu_count: u32,
    augmentation: Vec<u8>,
    /// In LLVM's `DenseSet` iteration order.
    abbrevs: Vec<Abbrev>,
    names: Vec<Name>,
    entries: Vec<Entry>,
}

/// What one file contributes.
#[derive(Debug)]
struct Chunk {
    file: FileId,
    sec: u32,
    /// Offsets in the input section of the CU offsets of all its indexes.
    cu_fields: Vec<u32>,
    indexes: Vec<Index>,
    /// How many of its indexes have type units, counting one whose reading then failed (lld
    /// warns for every index it started to read).
    type_unit_indexes: usize,
}

/// Builds the merged index, or `None` when there is none to write: without `--debug-names`,
/// when debug sections are stripped, or when no input has a `.debug_names` (lld writes none
/// then either).
pub fn build(
    config: &Config,
    res: &Resolved,
) -> std::result::Result<Option<DebugNames>, Vec<crate::error::Error>> {
    if !config.debug_names || config.strip != Strip::None {
        return Ok(None);
    }
    // The files with a `.debug_names`, and the section read: the last one, as lld's DWARF
    // reader keeps the last section of a name.
    let files: Vec<(FileId, usize)> = res
        .files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let sec = f
                .sections
                .iter()
                .rposition(|s| in_link(s) && drops_input_section(config, s))?;
            Some((i as FileId, sec))
        })
        .collect();
    if files.is_empty() {
        return Ok(None);
    }
    let parsed: Vec<(Chunk, Vec<String>)> = files
        .par_iter()
        .map(|&(f, sec)| parse_file(f, &res.files[f as usize], sec))
        .collect();
    let mut errors = Vec::new();
    let mut chunks = Vec::with_capacity(parsed.len());
    for (chunk, problems) in parsed {
        for p in problems {
            if config.noinhibit_exec {
                if let Err(e) = config.warn(&p) {
                    errors.push(e);
                }
            } else {
                errors.push(err!("{p}"));
            }
        }
        chunks.push(chunk);
    }
    // lld warns about type units once every file is read, errors or not.
    for chunk in &chunks {
        let file = &res.files[chunk.file as usize];
        for _ in 0..chunk.type_unit_indexes {
            let msg = format!(
                "{}:({}): type units are not implemented",
                file.name,
                file.sections[chunk.sec as usize].name_str()
            );
            if let Err(e) = config.warn(&msg) {
                errors.push(e);
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    merge(chunks).map(Some).map_err(|e| vec![e])
}

/// Whether an input section takes part in the link.
fn in_link(s: &InputSection) -> bool {
    !matches!(
        s.kind,
        SectionKind::Discarded | SectionKind::Ignored | SectionKind::Unloaded
    )
}

/// Which relocation counts where several apply to one field: LLVM's DWARF reader takes the
/// first, lld's table of output values (filled in order) keeps the last.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pick {
    First,
    Last,
}

/// The relocation at `offset` of section `s`.
fn reloc_at(
    s: &InputSection,
    offset: u64,
    pick: Pick,
) -> Option<&crate::input::input_files::Rela64> {
    let at = |r: &&crate::input::input_files::Rela64| r.r_offset(LE) == offset;
    if s.relocs_sorted {
        let start = s.relocs.partition_point(|r| r.r_offset(LE) < offset);
        let end = s.relocs.partition_point(|r| r.r_offset(LE) <= offset);
        let found = &s.relocs[start..end];
        match pick {
            Pick::First => found.first(),
            Pick::Last => found.last(),
        }
    } else if pick == Pick::First {
        s.relocs.iter().find(at)
    } else {
        s.relocs.iter().rev().find(at)
    }
}

/// The 32-bit field at `at` of `s` as LLVM's DWARF reader sees it in lld: with a relocation,
/// the symbol's value (0 for an undefined one) plus the addend, whatever the field holds;
/// without one, the stored value. (The `.debug_str` offsets are relocated against local
/// symbols, so the file's own symbol table gives the value lld's global lookup would.)
fn relocated32(file: &ObjectFile, s: &InputSection, at: u64, raw: u32) -> u32 {
    let Some(r) = reloc_at(s, at, Pick::First) else {
        return raw;
    };
    let value = match file.symbols.get(r.r_sym(LE, false) as usize) {
        Some(sym) if sym.st_shndx(LE) != object::elf::SHN_UNDEF => sym.st_value(LE),
        _ => 0,
    };
    value.wrapping_add(r.r_addend(LE) as u64) as u32
}

/// A bounds-checked little-endian reader failing with LLVM `DataExtractor`'s messages.
struct Reader<'a> {
    data: &'a [u8],
    pos: u64,
}

impl Reader<'_> {
    fn valid(&self, at: u64, size: u64) -> bool {
        // LLVM's isValidOffsetForDataOfSize: no wrap, and the last byte inside the data.
        at.checked_add(size)
            .is_some_and(|end| end.wrapping_sub(1) < self.data.len() as u64)
    }
    fn uint(&mut self, n: u64) -> std::result::Result<u64, String> {
        let at = self.pos;
        if !self.valid(at, n) {
            let len = self.data.len() as u64;
            return Err(if at <= len {
                format!(
                    "unexpected end of data at offset 0x{len:x} while reading [0x{at:x}, 0x{:x})",
                    at.wrapping_add(n)
                )
            } else {
                format!("offset 0x{at:x} is beyond the end of data at 0x{len:x}")
            });
        }
        let mut v = [0u8; 8];
        v[..n as usize].copy_from_slice(&self.data[at as usize..(at + n) as usize]);
        self.pos = at + n;
        Ok(u64::from_le_bytes(v))
    }
    /// An unsigned LEB128 value (LLVM's `decodeULEB128` rules).
    fn uleb(&mut self) -> std::result::Result<u64, String> {
        let start = self.pos;
        let mut p = start as usize;
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let Some(&b) = self.data.get(p) else {
                return Err(format!(
                    "unable to decode LEB128 at offset 0x{start:08x}: malformed uleb128, extends past end"
                ));
            };
            let slice = u64::from(b & 0x7f);
            if shift >= 63
                && ((shift == 63 && (slice << shift >> shift) != slice)
                    || (shift > 63 && slice != 0))
            {
                return Err(format!(
                    "unable to decode LEB128 at offset 0x{start:08x}: uleb128 too big for uint64"
                ));
            }
            if shift < 64 {
                value = value.wrapping_add(slice << shift);
            }
            shift += 7;
            p += 1;
            if b < 0x80 {
                break;
            }
        }
        self.pos = p as u64;
        Ok(value)
    }
    /// A LEB128 value read the way `DWARFDebugNames` reads abbreviations (no error check: a
    /// bad value reads as 0 and nothing is consumed).
    fn uleb_or_zero(&mut self) -> u64 {
        let at = self.pos;
        self.uleb().unwrap_or_else(|_| {
            self.pos = at;
            0
        })
    }
}

/// An input index's header and the offsets of its parts (LLVM's `findDebugNamesOffsets`).
struct Header {
    dwarf64: bool,
    version: u16,
    cu_count: u32,
    local_tu_count: u32,
    foreign_tu_count: u32,
    name_count: u32,
    augmentation: Vec<u8>,
    cus_base: u64,
    string_offsets_base: u64,
    entry_offsets_base: u64,
    entries_base: u64,
    abbrevs: Vec<Abbrev>,
    next: u64,
}

/// Reads the name index at `base` as `DWARFDebugNames::NameIndex::extract` does.
fn extract_index(data: &[u8], base: u64) -> std::result::Result<Header, String> {
    let mut r = Reader { data, pos: base };
    let header_error = |e: String| format!("parsing .debug_names header at 0x{base:x}: {e}");
    let fields = (|| {
        let length = r.uint(4)?;
        let (length, dwarf64) = match length {
            0xffff_ffff => (r.uint(8)?, true),
            l if l >= 0xffff_fff0 => {
                return Err(format!(
                    "unsupported reserved unit length of value 0x{l:08x}"
                ))
            }
            l => (l, false),
        };
        let version = r.uint(2)? as u16;
        r.uint(2)?;
        let mut v = [0u32; 7];
        for x in &mut v {
            *x = r.uint(4)? as u32;
        }
        Ok((length, dwarf64, version, v))
    })();
    let (length, dwarf64, version, v) = fields.map_err(header_error)?;
    let [cu_count, local_tu_count, foreign_tu_count, bucket_count, name_count, abbrev_size, aug] =
        v;
    // alignTo(size, 4), kept in 32 bits as LLVM keeps it.
    let aug_size = (u64::from(aug) + 3) as u32 & !3;
    if !r.valid(r.pos, u64::from(aug_size)) {
        return Err(header_error("cannot read header augmentation".into()));
    }
    let augmentation = data[r.pos as usize..(r.pos + u64::from(aug_size)) as usize].to_vec();
    r.pos += u64::from(aug_size);
    // LLVM's `findDebugNamesOffsets` and `NameIndex::extract`, with their 32-bit products
    // (the foreign TU, bucket and hash sizes, and the entry offsets' size) wrapping as there.
    let ds: u64 = if dwarf64 { 8 } else { 4 };
    let cus_base = r.pos;
    let buckets_base = cus_base
        + u64::from(cu_count) * ds
        + u64::from(local_tu_count) * ds
        + u64::from(foreign_tu_count.wrapping_mul(8));
    let hashes_base = buckets_base + u64::from(bucket_count.wrapping_mul(4));
    let string_offsets_base = hashes_base
        + if bucket_count > 0 {
            u64::from(name_count.wrapping_mul(4))
        } else {
            0
        };
    let entry_offsets_base = string_offsets_base + u64::from(name_count) * ds;
    let abbrev_base = entry_offsets_base + u64::from(name_count.wrapping_mul(ds as u32));
    if !r.valid(abbrev_base, u64::from(abbrev_size)) {
        return Err("Section too small: cannot read abbreviations.".into());
    }
    let entries_base = abbrev_base + u64::from(abbrev_size);
    let terminated = || "Incorrectly terminated abbreviation table.".to_string();
    r.pos = abbrev_base;
    let mut abbrevs: Vec<Abbrev> = Vec::new();
    let mut codes = HashMap::new();
    loop {
        if r.pos >= entries_base {
            return Err(terminated());
        }
        let code = r.uleb_or_zero() as u32;
        if code == 0 {
            break;
        }
        let tag = r.uleb_or_zero() as u16;
        let mut attrs = Vec::new();
        loop {
            if r.pos >= entries_base {
                return Err(terminated());
            }
            let index = r.uleb_or_zero() as u16;
            let form = r.uleb_or_zero() as u16;
            if index == 0 && form == 0 {
                break;
            }
            attrs.push((index, form));
        }
        if codes.insert(code, abbrevs.len()).is_some() {
            return Err("Duplicate abbreviation code.".into());
        }
        abbrevs.push(Abbrev { code, tag, attrs });
    }
    let order = dense_set_order(&abbrevs.iter().map(|a| a.code).collect::<Vec<_>>());
    let abbrevs = order.into_iter().map(|i| abbrevs[i].clone()).collect();
    Ok(Header {
        dwarf64,
        version,
        cu_count,
        local_tu_count,
        foreign_tu_count,
        name_count,
        augmentation,
        cus_base,
        string_offsets_base,
        entry_offsets_base,
        entries_base,
        abbrevs,
        next: base
            .wrapping_add(if dwarf64 { 12 } else { 4 })
            .wrapping_add(length),
    })
}

/// The order LLVM's `DenseSet<Abbrev>` (keyed by code, hashed as `code * 37`, quadratic
/// probing, 64 buckets at first and doubled when three quarters full) iterates the
/// abbreviations inserted in order with `codes`: the indexes of `codes` in that order.
fn dense_set_order(codes: &[u32]) -> Vec<usize> {
    fn place(buckets: &mut [Option<usize>], codes: &[u32], i: usize) {
        let mask = buckets.len() - 1;
        let mut b = (codes[i].wrapping_mul(37) as usize) & mask;
        let mut probe = 1;
        while buckets[b].is_some() {
            b = (b + probe) & mask;
            probe += 1;
        }
        buckets[b] = Some(i);
    }
    let mut buckets: Vec<Option<usize>> = Vec::new();
    for i in 0..codes.len() {
        if (i + 1) * 4 >= buckets.len() * 3 {
            let old = std::mem::take(&mut buckets);
            buckets = vec![None; (old.len() * 2).max(64)];
            for j in old.into_iter().flatten() {
                place(&mut buckets, codes, j);
            }
        }
        place(&mut buckets, codes, i);
    }
    buckets.into_iter().flatten().collect()
}

/// Reads file `f`'s `.debug_names` (section `sec`) as lld's `parseDebugNames` does, with the
/// messages of what is wrong in it.
fn parse_file(f: FileId, file: &ObjectFile, sec: usize) -> (Chunk, Vec<String>) {
    let s = &file.sections[sec];
    let data = s.data;
    let str_data: &[u8] = file
        .sections
        .iter()
        .rev()
        .find(|x| x.name == b".debug_str" && in_link(x))
        .map_or(&[], |x| x.data);
    let mut chunk = Chunk {
        file: f,
        sec: sec as u32,
        cu_fields: Vec::new(),
        indexes: Vec::new(),
        type_unit_indexes: 0,
    };
    let mut problems = Vec::new();
    let say = |problems: &mut Vec<String>, m: &str| {
        problems.push(format!("{}:({}): {m}", file.name, s.name_str()));
    };
    let mut headers = Vec::new();
    let mut base = 0u64;
    while base < data.len() as u64 {
        match extract_index(data, base) {
            Ok(h) => {
                // A DWARF64 length can wrap the next offset back (LLVM would read forever).
                let next = h.next;
                headers.push(h);
                if next <= base {
                    break;
                }
                base = next;
            }
            Err(e) => {
                say(&mut problems, &e);
                break;
            }
        }
    }
    let len = data.len() as u64;
    for h in headers {
        if h.local_tu_count != 0 || h.foreign_tu_count != 0 {
            chunk.type_unit_indexes += 1;
        }
        if h.dwarf64 {
            say(
                &mut problems,
                "found DWARF64, which is currently unsupported",
            );
            return (chunk, problems);
        }
        if h.version != 5 {
            say(
                &mut problems,
                &format!("unsupported version: {}", h.version),
            );
            return (chunk, problems);
        }
        if h.entries_base > len {
            say(&mut problems, "entry pool start is beyond end of section");
            return (chunk, problems);
        }
        // Both lists end before the entry pool, which starts inside the section.
        for i in 0..u64::from(h.cu_count) {
            chunk.cu_fields.push((h.cus_base + i * 4) as u32);
        }
        // In bounds: the tables end where the abbreviations start, inside the section.
        let read32 = |at: u64| {
            usize::try_from(at)
                .ok()
                .and_then(|at| data.get(at..at.checked_add(4)?))
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let mut index = Index {
            cu_count: h.cu_count,
            augmentation: h.augmentation,
            abbrevs: h.abbrevs,
            names: Vec::with_capacity(h.name_count as usize),
            entries: Vec::new(),
        };
        let by_code: HashMap<u32, usize> = index
            .abbrevs
            .iter()
            .enumerate()
            .map(|(i, a)| (a.code, i))
            .collect();
        for i in 0..u64::from(h.name_count) {
            let field = h.string_offsets_base + i * 4;
            let strp = relocated32(file, s, field, read32(field)) as usize;
            let name: &'static [u8] = match str_data.get(strp..) {
                Some(rest) => rest
                    .iter()
                    .position(|&b| b == 0)
                    .map_or(&[], |n| &rest[..n]),
                None => &[],
            };
            let first = index.entries.len() as u32;
            let mut r = Reader {
                data,
                pos: h.entries_base + u64::from(read32(h.entry_offsets_base + i * 4)),
            };
            while r.pos < len && data[r.pos as usize] != 0 {
                match read_entry(&mut r, &index.abbrevs, &by_code) {
                    Ok(e) => index.entries.push(e),
                    Err(e) => {
                        say(&mut problems, &e);
                        return (chunk, problems);
                    }
                }
            }
            if r.pos >= len {
                say(&mut problems, "index entry is out of bounds");
            }
            index.names.push(Name {
                name,
                hash: case_folding_djb_hash(name),
                str_field: field as u32,
                first,
                count: index.entries.len() as u32 - first,
            });
        }
        // Parents are the entries at the offsets the `DW_FORM_ref4` values give (the last
        // read there, when two names share entries).
        let at: HashMap<u64, u32> = index
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.at, i as u32))
            .collect();
        for e in &mut index.entries {
            if let Some((slot, _)) = e.parent {
                let target = h.entries_base + u64::from(e.values[slot].1);
                e.parent = Some((slot, at.get(&target).copied()));
            }
        }
        chunk.indexes.push(index);
    }
    (chunk, problems)
}

/// Reads the entry at `r` (lld's `readEntry`), its compile unit value last.
fn read_entry(
    r: &mut Reader<'_>,
    abbrevs: &[Abbrev],
    by_code: &HashMap<u32, usize>,
) -> std::result::Result<Entry, String> {
    let at = r.pos;
    let code = r.uleb().map_err(|e| format!("invalid abbrev code: {e}"))?;
    let code =
        u32::try_from(code).map_err(|_| format!("abbrev code too large for DWARF32: {code}"))?;
    // Code 0 (only reachable as a padded LEB128, 0x80 0x00) is the empty key of LLVM's
    // abbreviation set, whose lookup then lands on an empty slot: an abbreviation without
    // attributes, which lld reads and writes (as code 0) like any other.
    const NO_ABBREV: Abbrev = Abbrev {
        code: 0,
        tag: 0,
        attrs: Vec::new(),
    };
    let abbrev = if code == 0 {
        &NO_ABBREV
    } else {
        by_code
            .get(&code)
            .and_then(|&i| abbrevs.get(i))
            .ok_or_else(|| format!("abbrev code not found in abbrev table: {code}"))?
    };
    let mut values = Vec::with_capacity(abbrev.attrs.len());
    let mut parent = None;
    let mut cu = (0u8, 0u32);
    // The value last read stays for a flag-present parent, as in lld (it is not kept).
    let mut attr = (0u8, 0u32);
    for &(index, form) in &abbrev.attrs {
        let read = |r: &mut Reader<'_>, n: u8| -> std::result::Result<(u8, u32), String> {
            r.uint(u64::from(n))
                .map(|v| (n, v as u32))
                .map_err(|e| format!("error while reading attributes: {e}"))
        };
        if index == DW_IDX_PARENT {
            if form == DW_FORM_REF4 {
                attr = read(r, 4)?;
                parent = Some((values.len(), None));
            } else if form != DW_FORM_FLAG_PRESENT {
                return Err("invalid form for DW_IDX_parent".into());
            }
        } else {
            attr = match form {
                DW_FORM_DATA1 | DW_FORM_REF1 => read(r, 1)?,
                DW_FORM_DATA2 | DW_FORM_REF2 => read(r, 2)?,
                DW_FORM_DATA4 | DW_FORM_REF4 => read(r, 4)?,
                _ => return Err(format!("unrecognized form encoding {form} in abbrev table")),
            };
        }
        if index == DW_IDX_COMPILE_UNIT {
            cu = attr;
        } else if form != DW_FORM_FLAG_PRESENT {
            values.push(attr);
        }
    }
    values.push(cu);
    Ok(Entry {
        code,
        values,
        parent,
        at,
    })
}

/// LLVM's `caseFoldingDjbHash`: DJB over the name with letters case-folded (ASCII exactly;
/// other characters through Rust's lower-casing where it gives one character, which matches
/// Unicode simple case folding for the letters names use; invalid UTF-8 as U+FFFD).
fn case_folding_djb_hash(name: &[u8]) -> u32 {
    let mut h: u32 = 5381;
    let add = |h: &mut u32, b: u8| *h = h.wrapping_mul(33).wrapping_add(u32::from(b));
    for chunk in name.utf8_chunks() {
        for c in chunk.valid().chars() {
            let folded = if c.is_ascii() {
                c.to_ascii_lowercase()
            } else if c == '\u{130}' || c == '\u{131}' {
                // DWARF 5 folds both Turkish i's to a plain i.
                'i'
            } else {
                let mut l = c.to_lowercase();
                match (l.next(), l.next()) {
                    (Some(x), None) => x,
                    _ => c,
                }
            };
            let mut buf = [0u8; 4];
            for &b in folded.encode_utf8(&mut buf).as_bytes() {
                add(&mut h, b);
            }
        }
        if !chunk.invalid().is_empty() {
            for &b in "\u{fffd}".as_bytes() {
                add(&mut h, b);
            }
        }
    }
    h
}

/// The size of `v` as an unsigned LEB128.
fn uleb_size(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

fn put_uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// lld's bucket count for `names` names (LLVM's `getDebugNamesBucketCount`).
fn bucket_count(names: u32) -> u32 {
    if names > 1024 {
        names / 4
    } else if names > 16 {
        names / 2
    } else {
        names.max(1)
    }
}

/// A name of the merged index: the first input name with its string, and the entries of all
/// (chunk, index, entry).
struct MergedName {
    hash: u32,
    chunk: u32,
    str_field: u32,
    entries: Vec<(u32, u32, u32)>,
}

/// Merges the inputs' indexes into the output section's bytes (see the module doc).
fn merge(chunks: Vec<Chunk>) -> Result<DebugNames> {
    let cu_count: u64 = chunks
        .iter()
        .flat_map(|c| &c.indexes)
        .map(|i| u64::from(i.cu_count))
        .sum();
    let cu_count =
        u32::try_from(cu_count).map_err(|_| err!("--debug-names: too many compilation units"))?;
    let (cu_size, cu_form) = if cu_count > 0xffff {
        (4u8, DW_FORM_DATA4)
    } else if cu_count > 0xff {
        (2, DW_FORM_DATA2)
    } else {
        (1, DW_FORM_DATA1)
    };
    // The augmentation string: the first file's, unless another index differs.
    let mut augmentation: Vec<u8> = Vec::new();
    for (c, chunk) in chunks.iter().enumerate() {
        for index in &chunk.indexes {
            if c == 0 {
                augmentation.clone_from(&index.augmentation);
            } else if augmentation != index.augmentation {
                augmentation.clear();
            }
        }
    }
    // The merged abbreviations, and each input index's code map.
    let mut table: Vec<(u16, Vec<(u16, u16)>)> = Vec::new();
    let mut known: HashMap<(u16, Vec<(u16, u16)>), u32> = HashMap::new();
    let mut code_maps: Vec<Vec<HashMap<u32, u32>>> = Vec::with_capacity(chunks.len());
    for chunk in &chunks {
        let mut maps = Vec::with_capacity(chunk.indexes.len());
        for index in &chunk.indexes {
            let mut map = HashMap::new();
            for a in &index.abbrevs {
                let mut attrs: Vec<(u16, u16)> = a
                    .attrs
                    .iter()
                    .copied()
                    .filter(|&(i, _)| i != DW_IDX_COMPILE_UNIT)
                    .collect();
                attrs.push((DW_IDX_COMPILE_UNIT, cu_form));
                let key = (a.tag, attrs);
                let code = match known.get(&key) {
                    Some(&c) => c,
                    None => {
                        table.push(key.clone());
                        let c = table.len() as u32;
                        known.insert(key, c);
                        c
                    }
                };
                map.insert(a.code, code);
            }
            maps.push(map);
        }
        code_maps.push(maps);
    }
    let mut abbrev_bytes = Vec::new();
    for (i, (tag, attrs)) in table.iter().enumerate() {
        put_uleb(&mut abbrev_bytes, i as u64 + 1);
        put_uleb(&mut abbrev_bytes, u64::from(*tag));
        for &(index, form) in attrs {
            put_uleb(&mut abbrev_bytes, u64::from(index));
            put_uleb(&mut abbrev_bytes, u64::from(form));
        }
        abbrev_bytes.extend_from_slice(&[0, 0]);
    }
    abbrev_bytes.push(0);

    // The names, unique by string, grouped by the top bits of their hash.
    let shift = 32 - SHARDS.trailing_zeros();
    let mut shards: Vec<Vec<MergedName>> = (0..SHARDS).map(|_| Vec::new()).collect();
    let mut seen: Vec<HashMap<&'static [u8], usize>> =
        (0..SHARDS).map(|_| HashMap::new()).collect();
    for (c, chunk) in chunks.iter().enumerate() {
        for (x, index) in chunk.indexes.iter().enumerate() {
            for n in &index.names {
                let shard = (n.hash >> shift) as usize;
                let entries = (n.first..n.first + n.count).map(|e| (c as u32, x as u32, e));
                match seen[shard].get(n.name) {
                    Some(&i) => shards[shard][i].entries.extend(entries),
                    None => {
                        seen[shard].insert(n.name, shards[shard].len());
                        shards[shard].push(MergedName {
                            hash: n.hash,
                            chunk: c as u32,
                            str_field: n.str_field,
                            entries: entries.collect(),
                        });
                    }
                }
            }
        }
    }
    let names: Vec<MergedName> = shards.into_iter().flatten().collect();
    let name_count =
        u32::try_from(names.len()).map_err(|_| err!("--debug-names: too many names"))?;

    // Entry pool offsets: of each name's entries, and of each input entry (for parents).
    let mut pool_of: Vec<Vec<Vec<u32>>> = chunks
        .iter()
        .map(|c| c.indexes.iter().map(|i| vec![0; i.entries.len()]).collect())
        .collect();
    let mut name_offsets = Vec::with_capacity(names.len());
    let mut off: u64 = 0;
    for n in &names {
        name_offsets.push(off as u32);
        for &(c, x, e) in &n.entries {
            let entry = &chunks[c as usize].indexes[x as usize].entries[e as usize];
            pool_of[c as usize][x as usize][e as usize] = off as u32;
            // Every code read is in its index's map but 0 (see `read_entry`), which stays 0 as
            // lld's map gives it.
            let code = code_maps[c as usize][x as usize]
                .get(&entry.code)
                .copied()
                .unwrap_or(0);
            off += uleb_size(u64::from(code)) as u64;
            let n_values = entry.values.len();
            for (k, &(size, _)) in entry.values.iter().enumerate() {
                off += u64::from(if k + 1 == n_values { cu_size } else { size });
            }
        }
        off += 1;
    }
    if off > u64::from(u32::MAX) {
        bail!("--debug-names: entry pool size ({off}) exceeds UINT32_MAX");
    }
    let mut pool = Vec::with_capacity(off as usize);
    let mut base_cu = Vec::with_capacity(chunks.len());
    let mut n_cus = 0u32;
    for chunk in &chunks {
        base_cu.push(n_cus);
        n_cus = n_cus.wrapping_add(chunk.cu_fields.len() as u32);
    }
    for n in &names {
        for &(c, x, e) in &n.entries {
            let entry = &chunks[c as usize].indexes[x as usize].entries[e as usize];
            let code = code_maps[c as usize][x as usize]
                .get(&entry.code)
                .copied()
                .unwrap_or(0);
            put_uleb(&mut pool, u64::from(code));
            let n_values = entry.values.len();
            for (k, &(size, value)) in entry.values.iter().enumerate() {
                let (size, value) = if k + 1 == n_values {
                    // lld adds the index's position in its file, not its file's earlier CUs.
                    (
                        cu_size,
                        value.wrapping_add(base_cu[c as usize]).wrapping_add(x),
                    )
                } else {
                    match entry.parent {
                        Some((slot, Some(p))) if slot == k => {
                            (size, pool_of[c as usize][x as usize][p as usize])
                        }
                        _ => (size, value),
                    }
                };
                pool.extend_from_slice(&value.to_le_bytes()[..size as usize]);
            }
        }
        pool.push(0);
    }

    // The section: header, CU list, buckets, hashes, string offsets, entry offsets,
    // abbreviations, entry pool.
    let buckets = bucket_count(name_count);
    let mut in_bucket: Vec<Vec<usize>> = vec![Vec::new(); buckets as usize];
    for (i, n) in names.iter().enumerate() {
        in_bucket[(n.hash % buckets) as usize].push(i);
    }
    let order: Vec<usize> = in_bucket.iter().flatten().copied().collect();
    let size = HEADER_SIZE
        + augmentation.len()
        + cu_count as usize * 4
        + buckets as usize * 4
        + names.len() * 12
        + abbrev_bytes.len()
        + pool.len();
    let unit_length = u32::try_from(size - 4)
        .map_err(|_| err!("--debug-names: section size ({size}) exceeds UINT32_MAX"))?;
    let mut out = Vec::with_capacity(size);
    let mut fixups = Vec::new();
    out.extend_from_slice(&unit_length.to_le_bytes());
    out.extend_from_slice(&5u16.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    for v in [
        cu_count,
        0,
        0,
        buckets,
        name_count,
        abbrev_bytes.len() as u32,
        augmentation.len() as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&augmentation);
    for (c, chunk) in chunks.iter().enumerate() {
        for &field in &chunk.cu_fields {
            fixups.push(Fixup {
                out: out.len() as u32,
                chunk: c as u32,
                field,
            });
            out.extend_from_slice(&[0; 4]);
        }
    }
    let mut next = 1u32;
    for b in &in_bucket {
        let v = if b.is_empty() { 0 } else { next };
        out.extend_from_slice(&v.to_le_bytes());
        next += b.len() as u32;
    }
    for &i in &order {
        out.extend_from_slice(&names[i].hash.to_le_bytes());
    }
    for &i in &order {
        fixups.push(Fixup {
            out: out.len() as u32,
            chunk: names[i].chunk,
            field: names[i].str_field,
        });
        out.extend_from_slice(&[0; 4]);
    }
    for &i in &order {
        out.extend_from_slice(&name_offsets[i].to_le_bytes());
    }
    out.extend_from_slice(&abbrev_bytes);
    out.extend_from_slice(&pool);
    if out.len() != size {
        bail!("internal error: .debug_names size mismatch");
    }
    Ok(DebugNames {
        bytes: out,
        fixups,
        chunks: chunks.iter().map(|c| (c.file, c.sec)).collect(),
    })
}

impl DebugNames {
    /// The section's size.
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Writes the section into `buf` (of [`DebugNames::size`] bytes), the CU and string
    /// offsets being the inputs' relocations resolved with `value_of` (the output value of
    /// symbol `index` of `file` plus `addend`).
    pub fn write(
        &self,
        res: &Resolved,
        value_of: impl Fn(FileId, usize, i64) -> u64,
        buf: &mut [u8],
    ) -> Result<()> {
        if buf.len() != self.bytes.len() {
            bail!("internal error: .debug_names size changed");
        }
        buf.copy_from_slice(&self.bytes);
        for f in &self.fixups {
            let Some(&(file, sec)) = self.chunks.get(f.chunk as usize) else {
                bail!("internal error: .debug_names chunk out of range");
            };
            let s = &res.files[file as usize].sections[sec as usize];
            let value = match reloc_at(s, u64::from(f.field), Pick::Last) {
                Some(r) => {
                    let sym = r.r_sym(LE, false) as usize;
                    let addend = r.r_addend(LE);
                    if sym == 0 {
                        addend as u64
                    } else {
                        value_of(file, sym, addend)
                    }
                }
                None => 0,
            };
            let at = f.out as usize;
            buf[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
        }
        Ok(())
    }
}

impl DebugNames {
    /// The section's chunk (none under `-z nosectionheader`).
    pub fn chunk(&self, config: &Config) -> Option<SyntheticChunk> {
        config.z.section_header.then_some(SyntheticChunk {
            kind: Synthetic::DebugNames,
            osec: ".debug_names",
            sh_type: object::elf::SHT_PROGBITS,
            flags: 0,
            size: self.size(),
            align: 4,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn djb_hash_folds_case() {
        assert_eq!(case_folding_djb_hash(b""), 5381);
        assert_eq!(
            case_folding_djb_hash(b"Main"),
            case_folding_djb_hash(b"main")
        );
        assert_eq!(case_folding_djb_hash(b"a"), 5381 * 33 + u32::from(b'a'));
    }

    #[test]
    fn dense_set_iterates_by_bucket() {
        // 1 * 37 = 37, 2 * 37 = 74 -> 10, 3 * 37 = 111 -> 47 (of 64 buckets).
        assert_eq!(dense_set_order(&[1, 2, 3]), vec![1, 0, 2]);
        // Doubling keeps every code.
        let codes: Vec<u32> = (1..=200).collect();
        let mut order = dense_set_order(&codes);
        order.sort_unstable();
        assert_eq!(order, (0..200).collect::<Vec<_>>());
    }

    #[test]
    fn uleb_errors_are_llvm_s() {
        let mut r = Reader {
            data: &[0x80],
            pos: 0,
        };
        assert_eq!(
            r.uleb().unwrap_err(),
            "unable to decode LEB128 at offset 0x00000000: malformed uleb128, extends past end"
        );
        assert_eq!(uleb_size(127), 1);
        assert_eq!(uleb_size(128), 2);
    }
}
