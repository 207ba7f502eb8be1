//! Shared-object inputs (`.so`): their dynamic symbols, `DT_SONAME`, and symbol versions
//! (`.gnu.version`, `.gnu.version_d`), read zero-copy from the mapped file.

use crate::error::Result;
use crate::{bail, err};
use object::elf;
use object::read::elf::{FileHeader, SectionHeader, Sym};
use object::LittleEndian as LE;

use crate::input::input_files::{FileHeader64, Sym64};

/// `VERSYM_HIDDEN`: the version is not the default one (`foo@V`, not `foo@@V`).
pub const VERSYM_HIDDEN: u16 = 0x8000;

/// A shared library on the command line.
#[derive(Debug)]
pub struct SharedFile {
    /// Path as given (for diagnostics).
    pub name: String,
    /// `DT_SONAME`, or the file name when there is none (what goes into `DT_NEEDED`).
    pub soname: String,
    pub dynsyms: &'static [Sym64],
    pub dynstr: &'static [u8],
    /// `.gnu.version` entries parallel to `dynsyms` (empty when the library is unversioned).
    pub versyms: Vec<u16>,
    /// Version names by version index (index 0 and 1 are "local"/"global": `None`).
    pub verdef_names: Vec<Option<&'static [u8]>>,
    /// `--as-needed` was in force for this library.
    pub as_needed: bool,
    /// `DT_NEEDED` entries of the library itself (for `--no-allow-shlib-undefined` and
    /// `-rpath-link` style checks).
    pub needed: Vec<String>,
    /// `DT_AUDIT` of the library (GNU ld passes it on as the output's `DT_DEPAUDIT`).
    pub audit: Option<String>,
    /// Address ranges that are read-only at run time: non-writable PT_LOADs and PT_GNU_RELRO
    /// (copies of data there go to `.bss.rel.ro`, as lld decides).
    pub read_only_ranges: Vec<(u64, u64)>,
    /// `sh_addralign` of each section (by section index): with a symbol's address, it bounds
    /// the alignment a copy of the symbol needs.
    pub section_aligns: Vec<u64>,
}

/// `DT_AUDIT` and `DT_DEPAUDIT` (GNU extensions the `object` crate does not name).
pub const DT_AUDIT: u32 = 0x6fff_fefc;
pub const DT_DEPAUDIT: u32 = 0x6fff_fefb;

impl SharedFile {
    /// Parses an ELF64 x86-64 shared object.
    /// `default_soname` is what `DT_NEEDED` records when the library has no `DT_SONAME`: as
    /// in lld, the path as the command line wrote it, or the bare file name for `-l`.
    pub fn parse(
        name: String,
        default_soname: String,
        data: &'static [u8],
        as_needed: bool,
    ) -> Result<SharedFile> {
        let (header, table) = crate::input::input_files::x86_64_section_table(&name, data)?;
        let mut dynsym_index = None;
        let mut versym: &[u8] = &[];
        let mut verdef: Option<(&'static [u8], u32)> = None;
        let mut dynamic: &'static [u8] = &[];
        let section_aligns = table.iter().map(|s| s.sh_addralign(LE)).collect();
        for (i, shdr) in table.iter().enumerate() {
            match shdr.sh_type(LE) {
                elf::SHT_DYNSYM => dynsym_index = Some(i),
                elf::SHT_GNU_VERSYM => {
                    versym = shdr
                        .data(LE, data)
                        .map_err(|_| err!("{name}: invalid .gnu.version"))?;
                }
                elf::SHT_GNU_VERDEF => {
                    let d = shdr
                        .data(LE, data)
                        .map_err(|_| err!("{name}: invalid .gnu.version_d"))?;
                    verdef = Some((d, shdr.sh_info(LE)));
                }
                elf::SHT_DYNAMIC => {
                    dynamic = shdr
                        .data(LE, data)
                        .map_err(|_| err!("{name}: invalid .dynamic"))?;
                }
                _ => {}
            }
        }
        let (dynsyms, dynstr): (&'static [Sym64], &'static [u8]) = match dynsym_index {
            Some(i) => {
                let shdr = table
                    .section(object::SectionIndex(i))
                    .map_err(|_| err!("{name}: invalid .dynsym"))?;
                let syms: &'static [Sym64] = shdr
                    .data_as_array(LE, data)
                    .map_err(|_| err!("{name}: invalid .dynsym"))?;
                let link = shdr.sh_link(LE) as usize;
                let strs = table
                    .section(object::SectionIndex(link))
                    .ok()
                    .and_then(|s| s.data(LE, data).ok())
                    .ok_or_else(|| err!("{name}: invalid .dynstr"))?;
                (syms, strs)
            }
            None => (&[], &[]),
        };
        let versyms: Vec<u16> = versym
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        if !versyms.is_empty() && versyms.len() != dynsyms.len() {
            bail!(
                "{name}: .gnu.version has {} entries for {} dynamic symbols",
                versyms.len(),
                dynsyms.len()
            );
        }
        let verdef_names = match verdef {
            Some((d, count)) => parse_verdef(&name, d, count, dynstr)?,
            None => Vec::new(),
        };
        let mut soname = None;
        let mut needed = Vec::new();
        let mut audit = None;
        for e in dynamic.chunks_exact(16) {
            let tag = u64::from_le_bytes(e[0..8].try_into().unwrap_or([0; 8]));
            let val = u64::from_le_bytes(e[8..16].try_into().unwrap_or([0; 8]));
            match tag as u32 {
                elf::DT_NULL if tag == 0 => break,
                elf::DT_SONAME => {
                    soname =
                        cstr(dynstr, val as usize).map(|s| String::from_utf8_lossy(s).into_owned())
                }
                elf::DT_NEEDED => {
                    if let Some(s) = cstr(dynstr, val as usize) {
                        needed.push(String::from_utf8_lossy(s).into_owned());
                    }
                }
                DT_AUDIT => {
                    audit =
                        cstr(dynstr, val as usize).map(|s| String::from_utf8_lossy(s).into_owned())
                }
                _ => {}
            }
        }
        let soname = soname.unwrap_or(default_soname);
        for (i, s) in dynsyms.iter().enumerate() {
            if cstr(dynstr, s.st_name(LE) as usize).is_none() {
                bail!("{name}: invalid symbol name offset for dynamic symbol {i}");
            }
        }
        Ok(SharedFile {
            name,
            soname,
            dynsyms,
            dynstr,
            versyms,
            verdef_names,
            as_needed,
            needed,
            audit,
            read_only_ranges: read_only_ranges(header, data),
            section_aligns,
        })
    }

    pub fn sym_name(&self, i: usize) -> &'static [u8] {
        self.dynsyms
            .get(i)
            .and_then(|s| cstr(self.dynstr, s.st_name(LE) as usize))
            .unwrap_or(b"")
    }

    /// Version index of dynamic symbol `i` (without the hidden bit), and whether it is hidden.
    pub fn version(&self, i: usize) -> (u16, bool) {
        match self.versyms.get(i) {
            Some(&v) => (v & !VERSYM_HIDDEN, v & VERSYM_HIDDEN != 0),
            None => (elf::VER_NDX_GLOBAL, false),
        }
    }

    /// Alignment of dynamic symbol `i`'s definition: the largest power of two dividing its
    /// address, capped by its section's alignment (the library records nothing more precise).
    /// This is what a copy of the symbol is aligned to, as in lld.
    pub fn symbol_align(&self, i: usize) -> u64 {
        let Some(s) = self.dynsyms.get(i) else {
            return 1;
        };
        let value = s.st_value(LE);
        let mut align = if value == 0 {
            u64::MAX
        } else {
            1u64 << value.trailing_zeros()
        };
        if let Some(&a) = self.section_aligns.get(usize::from(s.st_shndx(LE))) {
            if s.st_shndx(LE) != elf::SHN_UNDEF {
                align = align.min(a);
            }
        }
        // Neither says anything (an address of 0 outside any section) or the section claims
        // no alignment: byte alignment.
        if align == u64::MAX || align == 0 {
            1
        } else {
            align
        }
    }

    /// Whether dynamic symbol `i` is defined in a read-only section.
    pub fn in_read_only_section(&self, i: usize) -> bool {
        let Some(s) = self.dynsyms.get(i) else {
            return false;
        };
        let v = s.st_value(LE);
        self.read_only_ranges
            .iter()
            .any(|&(start, end)| start <= v && v < end)
    }

    /// Name of version index `v`, if the library defines it.
    pub fn version_name(&self, v: u16) -> Option<&'static [u8]> {
        self.verdef_names.get(v as usize).copied().flatten()
    }
}

fn read_only_ranges(header: &FileHeader64, data: &'static [u8]) -> Vec<(u64, u64)> {
    use object::read::elf::ProgramHeader;
    let Ok(phdrs) = header.program_headers(LE, data) else {
        return Vec::new();
    };
    phdrs
        .iter()
        .filter(|p| {
            let t = p.p_type(LE);
            (t == elf::PT_LOAD && p.p_flags(LE) & elf::PF_W == 0) || t == elf::PT_GNU_RELRO
        })
        .map(|p| (p.p_vaddr(LE), p.p_vaddr(LE) + p.p_memsz(LE)))
        .collect()
}

fn cstr(tab: &'static [u8], off: usize) -> Option<&'static [u8]> {
    let rest = tab.get(off..)?;
    let end = memchr::memchr(0, rest)?;
    Some(&rest[..end])
}

/// Reads `.gnu.version_d` into a table from version index to name.
fn parse_verdef(
    name: &str,
    d: &'static [u8],
    count: u32,
    dynstr: &'static [u8],
) -> Result<Vec<Option<&'static [u8]>>> {
    let rd16 = |o: usize| d.get(o..o + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let rd32 = |o: usize| {
        d.get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut names: Vec<Option<&'static [u8]>> = Vec::new();
    let mut off = 0usize;
    for _ in 0..count {
        let bad = || err!("{name}: invalid .gnu.version_d");
        let flags = rd16(off + 2).ok_or_else(bad)?;
        let ndx = rd16(off + 4).ok_or_else(bad)? as usize;
        let aux = rd32(off + 12).ok_or_else(bad)? as usize;
        let next = rd32(off + 16).ok_or_else(bad)? as usize;
        let vda_name = rd32(off + aux).ok_or_else(bad)? as usize;
        if names.len() <= ndx {
            names.resize(ndx + 1, None);
        }
        // The base definition (VER_FLG_BASE) names the file itself, not a version.
        if flags & elf::VER_FLG_BASE == 0 {
            names[ndx] = cstr(dynstr, vda_name);
        }
        if next == 0 {
            break;
        }
        off = off.checked_add(next).ok_or_else(bad)?;
    }
    Ok(names)
}
