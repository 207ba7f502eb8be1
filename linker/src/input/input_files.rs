//! Input files: mapping them, telling their kinds apart, and parsing ELF relocatable objects into
//! flat, borrowed views (sections, symbols, relocations) that later phases index by number.

use crate::error::Result;
use crate::{bail, err};
use object::elf;
use object::read::elf::{FileHeader, Rela, SectionHeader, Sym};
use object::LittleEndian as LE;
use std::path::Path;

pub type FileHeader64 = elf::FileHeader64<LE>;
pub type SectionHeader64 = elf::SectionHeader64<LE>;
pub type Sym64 = elf::Sym64<LE>;
pub type Rela64 = elf::Rela64<LE>;

// LLVM's metadata section types, which the `object` crate does not name.
pub const SHT_LLVM_ADDRSIG: u32 = 0x6fff_4c03;
pub const SHT_LLVM_DEPENDENT_LIBRARIES: u32 = 0x6fff_4c04;
pub const SHT_LLVM_CALL_GRAPH_PROFILE: u32 = 0x6fff_4c09;

/// Index of an object file in `Link::files`.
pub type FileId = u32;

/// Maps a file for the rest of the process. Input bytes must outlive every phase up to the write,
/// and a linker process ends right after it, so the mapping is deliberately leaked: that lets
/// every name and section borrow `&'static` data instead of threading a lifetime through phases.
pub fn map_file(path: &Path) -> Result<&'static [u8]> {
    let file = std::fs::File::open(path)
        .map_err(|e| err!("cannot open {}: {}", path.display(), io_reason(&e)))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        return Ok(&[]);
    }
    // SAFETY: the file is mapped read-only; weld never writes to its inputs. Another process
    // truncating it while we link makes reading its pages raise SIGBUS, which
    // `mapping_faults` turns into an error naming the file.
    let map = unsafe { memmap2::Mmap::map(&file) }
        .map_err(|e| err!("cannot open {}: {}", path.display(), io_reason(&e)))?;
    let map: &'static memmap2::Mmap = Box::leak(Box::new(map));
    crate::mapping_faults::register_input(&map[..], &path.display().to_string());
    Ok(&map[..])
}

/// Reads a whole text file (a symbol list, a rules file), failing as lld does:
/// `cannot open PATH: REASON`.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path)
        .map_err(|e| err!("cannot open {}: {}", path.display(), io_reason(&e)))
}

/// Reads a whole file into memory, failing as [`read_text`] does.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| err!("cannot open {}: {}", path.display(), io_reason(&e)))
}

/// Writes a whole file the link reports into, failing as lld does: `cannot open PATH: REASON`.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes)
        .map_err(|e| err!("cannot open {}: {}", path.display(), io_reason(&e)))
}

/// The OS error text without Rust's " (os error N)" suffix, as lld prints it.
pub fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// What an input file contains, decided from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    ElfRelocatable,
    ElfShared,
    Archive,
    Bitcode,
    LinkerScript,
    Unknown,
}

/// The header and section table of an x86-64 ELF file, with lld's complaints about a short or
/// foreign one.
pub fn x86_64_section_table(
    name: &str,
    data: &'static [u8],
) -> Result<(
    &'static FileHeader64,
    object::read::elf::SectionTable<'static, FileHeader64>,
)> {
    if data.len() < 64 {
        bail!("{name}: corrupted ELF file: file is too short");
    }
    let header = FileHeader64::parse(data)
        .map_err(|_| err!("{name}: corrupted ELF file: invalid ELF header"))?;
    if header.e_machine(LE) != elf::EM_X86_64 {
        bail!("{name} is incompatible with elf_x86_64");
    }
    let table = header
        .sections(LE, data)
        .map_err(|e| err!("{name}: invalid section header table: {e}"))?;
    Ok((header, table))
}

/// True if `data` looks like a text file rather than an ELF object, archive or bitcode: what is
/// left once every binary format has been ruled out is read as a linker script, as lld does.
pub fn looks_like_linker_script(data: &[u8]) -> bool {
    const BINARY: &[&[u8]] = &[
        b"\x7fELF",
        b"!<arch>\n",
        b"!<thin>\n",
        b"BC\xC0\xDE",
        b"\xDE\xC0\x17\x0B",
    ];
    if BINARY.iter().any(|m| data.starts_with(m)) {
        return false;
    }
    let head = &data[..data.len().min(4096)];
    let text = match std::str::from_utf8(head) {
        Ok(t) => t,
        // A multi-byte character cut by the 4096-byte window is still text.
        Err(e) if e.error_len().is_none() => match std::str::from_utf8(&head[..e.valid_up_to()]) {
            Ok(t) => t,
            Err(_) => return false,
        },
        Err(_) => return false,
    };
    text.chars()
        .all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x0b'))
}

/// Classifies a file by its magic numbers.
pub fn classify(data: &[u8]) -> FileKind {
    if data.starts_with(b"\x7fELF") {
        if data.len() >= 18 {
            let ty = u16::from_le_bytes([data[16], data[17]]);
            return match ty {
                elf::ET_REL => FileKind::ElfRelocatable,
                elf::ET_DYN => FileKind::ElfShared,
                _ => FileKind::Unknown,
            };
        }
        return FileKind::Unknown;
    }
    if data.starts_with(b"!<arch>\n") || data.starts_with(b"!<thin>\n") {
        return FileKind::Archive;
    }
    if data.starts_with(b"BC\xc0\xde") || data.starts_with(&[0xde, 0xc0, 0x17, 0x0b]) {
        return FileKind::Bitcode;
    }
    if looks_like_linker_script(data) {
        return FileKind::LinkerScript;
    }
    FileKind::Unknown
}

/// How the pipeline treats an input section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionKind {
    /// Copied to the output (or, for NOBITS, given space).
    Regular,
    /// Not part of the output: metadata (symtab, relocs, groups), a losing COMDAT member,
    /// `SHF_EXCLUDE`, `.note.GNU-stack`, `.llvm_addrsig`, ...
    Ignored,
    /// A member of a COMDAT group that lost to an earlier copy: references into it are tombstoned.
    Discarded,
    /// `.eh_frame`: split into CIEs/FDEs and rebuilt by the linker.
    EhFrame,
    /// `SHF_MERGE`: split into pieces and deduplicated.
    Merge,
    /// `.note.gnu.property`: merged into one synthetic note.
    GnuProperty,
    /// `.comment`: merged into the synthetic `.comment`.
    Comment,
    /// Removed by `--gc-sections`: nothing reached it.
    Garbage,
    /// In an archive member that `--gc-archive-members` never loaded.
    Unloaded,
    /// Folded by `--icf` into an identical section (`icf::Folding` says which): not in the
    /// output, and its symbols take the address of the section kept.
    Folded,
}

impl SectionKind {
    /// A section whose contents go to the output as they are or as merged pieces: what
    /// liveness walks, relocations are applied to, and symbols are placed in (regular and
    /// `SHF_MERGE` sections; `.eh_frame` and the other linker-rebuilt kinds are not).
    pub fn is_copied(self) -> bool {
        matches!(self, SectionKind::Regular | SectionKind::Merge)
    }
}

/// One section of an input object.
#[derive(Clone, Debug)]
pub struct InputSection {
    pub name: &'static [u8],
    pub shdr: &'static SectionHeader64,
    /// File contents (empty for `SHT_NOBITS`).
    pub data: &'static [u8],
    /// The `SHT_RELA` section that applies to this one, if any.
    pub relocs: &'static [Rela64],
    /// Whether `relocs` are in ascending offset order, as compilers emit them; lets
    /// [`InputSection::relocs_in`] find a record's relocations by binary search.
    pub relocs_sorted: bool,
    /// A section `--gc-sections` never collects by its name or type
    /// ([`crate::input::section_rules::is_reserved`]); decided here, where the name is being read anyway,
    /// so that building the liveness graph need not touch every section name again.
    pub reserved: bool,
    /// The output section it goes to by name when that is a prefix of its name (`.text.foo` ->
    /// `.text`, lld's `getOutputSectionName`), decided while the name is read here, in parallel
    /// with other files, so that layout need not read every section name again; `None` when the
    /// name is kept whole (see [`InputSection::output_name`]).
    pub merged_name: crate::input::section_rules::MergedName,
    /// `sh_flags` and `sh_type`, copied out of the section header: nearly every phase tests
    /// them for every section, and reading them through `shdr` costs a cache miss per section
    /// (the headers sit in the mapped file, away from everything else the phase reads).
    flags: u64,
    sh_type: u32,
    pub kind: SectionKind,
}

impl InputSection {
    pub fn flags(&self) -> u64 {
        self.flags
    }
    pub fn sh_type(&self) -> u32 {
        self.sh_type
    }
    pub fn size(&self) -> u64 {
        self.shdr.sh_size(LE)
    }
    pub fn align(&self) -> u64 {
        self.shdr.sh_addralign(LE).max(1)
    }
    pub fn is_alloc(&self) -> bool {
        self.flags() & u64::from(elf::SHF_ALLOC) != 0
    }
    pub fn name_str(&self) -> &'static str {
        std::str::from_utf8(self.name).unwrap_or("<non-utf8>")
    }

    /// The output section it goes to by name. A name kept whole is read as text only here:
    /// half of an object's sections are relocation sections with long names that no output
    /// section is ever named after.
    pub fn output_name(&self) -> &'static str {
        self.merged_name.get().unwrap_or_else(|| self.name_str())
    }

    /// The relocations whose offset lies in `[start, end)`, in section order. Splitting
    /// `.eh_frame` asks this once per record, so it must not scan all of the section's
    /// relocations each time: sorted relocations (the norm) are found by binary search, and only
    /// unsorted ones are filtered.
    pub fn relocs_in(&self, start: u64, end: u64) -> std::borrow::Cow<'static, [Rela64]> {
        if self.relocs_sorted {
            let from = self.relocs.partition_point(|r| r.r_offset(LE) < start);
            let len = self.relocs[from..].partition_point(|r| r.r_offset(LE) < end);
            std::borrow::Cow::Borrowed(&self.relocs[from..from + len])
        } else {
            std::borrow::Cow::Owned(
                self.relocs
                    .iter()
                    .filter(|r| (start..end).contains(&r.r_offset(LE)))
                    .copied()
                    .collect(),
            )
        }
    }
}

/// A COMDAT group as it appears in one object.
#[derive(Clone, Debug)]
pub struct ComdatGroup {
    pub signature: &'static [u8],
    pub members: GroupMembers,
}

/// The section indexes of a section group, as its `SHT_GROUP` section lists them after the
/// flag word (checked at parse): read where they are used, so that parsing, which meets
/// tens of thousands of groups in a big C++ link, allocates nothing for them.
#[derive(Clone, Copy, Debug)]
pub struct GroupMembers(&'static [u8]);

impl GroupMembers {
    /// The flag word and the members of `SHT_GROUP` section contents `data` (a partial last
    /// word is ignored); `None` when there is no flag word.
    fn of_section(data: &'static [u8]) -> Option<(u32, GroupMembers)> {
        let flag = u32::from_le_bytes(*data.first_chunk::<4>()?);
        Some((flag, GroupMembers(&data[4..data.len() / 4 * 4])))
    }

    pub fn iter(self) -> impl Iterator<Item = u32> {
        self.0
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
    }
}

/// A parsed ELF relocatable object. Everything borrows from the mapped bytes.
#[derive(Debug)]
pub struct ObjectFile {
    /// Display name for diagnostics: `path` or `lib.a(member.o)`.
    pub name: String,
    /// The archive this object came from (for `--why-extract` and map files), if any.
    pub archive: Option<String>,
    pub data: &'static [u8],
    pub sections: Vec<InputSection>,
    pub symbols: &'static [Sym64],
    pub strtab: &'static [u8],
    /// Index of the first non-local symbol (`sh_info` of `.symtab`).
    pub first_global: usize,
    pub comdats: Vec<ComdatGroup>,
    /// Members of each section group without `GRP_COMDAT`: nothing to resolve, but its
    /// sections live and die together under `--gc-sections` (profile counters and data).
    pub plain_groups: Vec<GroupMembers>,
    /// Name of the first `STT_FILE` symbol, used as lld does in "referenced by" lines.
    pub source_name: Option<&'static [u8]>,
    /// `.symtab_shndx`: the section index of each symbol whose `st_shndx` is `SHN_XINDEX`
    /// (objects with 0xff00 sections or more); empty when the object has none.
    pub symtab_shndx: &'static [u32],
    /// Made from a `--format=binary` input (`crate::input::binary_file`): its symbols are the
    /// linker's, which lld's map file does not list.
    pub binary: bool,
    /// Whether `sections[..].relocs` hold the relocations: [`ObjectFile::parse_for_resolution`]
    /// leaves them to [`ObjectFile::read_relocations`], which resolution runs for every file
    /// afterwards in parallel (and the liveness walk for the archive members it reaches under
    /// `--gc-archive-members`).
    pub relocations_read: bool,
    /// Marker sections link-wide checks look for, noted as the section names are read.
    pub markers: MarkerSections,
}

/// Sections a few link-wide checks look for (executable stack, split stack, call graph
/// profile, CET properties), noted while [`ObjectFile::parse_for_resolution`] reads the section
/// names, in parallel with other files, so that those checks need not read every section name
/// of every file again on one thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarkerSections {
    /// A `.note.GNU-stack` with `SHF_EXECINSTR`: the object asks for an executable stack.
    pub executable_stack: bool,
    /// A `.note.GNU-split-stack`: the object's functions check the stack (`-fsplit-stack`).
    pub split_stack: bool,
    /// A `.note.GNU-no-split-stack`: some of its functions do not.
    pub no_split_stack: bool,
    /// A `SHT_LLVM_CALL_GRAPH_PROFILE` section.
    pub call_graph_profile: bool,
    /// The `.note.gnu.property` sections (`SectionKind::GnuProperty` when read; a section's
    /// kind only changes to a dropped one later) lie in `first..=last` of the section indexes
    /// (usually one: `first == last`); `None` without one.
    pub gnu_property: Option<(u32, u32)>,
    /// A `.gnu.lto_*` section: GCC's LTO data (slim when `__gnu_lto_slim` is defined too).
    pub gcc_lto: bool,
    /// An `SHF_LINK_ORDER` section, which is discarded with the section it links to.
    pub link_order: bool,
}

impl MarkerSections {
    fn note(&mut self, index: u32, name: &[u8], sh_type: u32, flags: u64, kind: SectionKind) {
        match name {
            b".note.GNU-stack" => {
                self.executable_stack |= flags & u64::from(elf::SHF_EXECINSTR) != 0
            }
            b".note.GNU-split-stack" => self.split_stack = true,
            b".note.GNU-no-split-stack" => self.no_split_stack = true,
            _ => {}
        }
        self.call_graph_profile |= sh_type == SHT_LLVM_CALL_GRAPH_PROFILE;
        if kind == SectionKind::GnuProperty {
            let first = self.gnu_property.map_or(index, |(first, _)| first);
            self.gnu_property = Some((first, index));
        }
        self.gcc_lto |= name.starts_with(b".gnu.lto_");
        self.link_order |= flags & u64::from(elf::SHF_LINK_ORDER) != 0;
    }
}

impl ObjectFile {
    /// How linker scripts name this file: its path, or its archive's path and its member name
    /// (`name` is `ARCHIVE(MEMBER)` then).
    pub fn script_name(&self) -> crate::script::matching::ScriptFileName<'_> {
        use crate::script::matching::ScriptFileName;
        match &self.archive {
            Some(a) => {
                let member = self
                    .name
                    .strip_prefix(a.as_str())
                    .and_then(|r| r.strip_prefix('('))
                    .and_then(|r| r.strip_suffix(')'))
                    .unwrap_or(&self.name);
                ScriptFileName {
                    archive: Some(a),
                    name: member,
                }
            }
            None => ScriptFileName {
                archive: None,
                name: &self.name,
            },
        }
    }

    /// Parses an ELF64 x86-64 relocatable object.
    /// Part of the link, unless `--gc-archive-members` left the member out (its sections are
    /// then all `Unloaded`): lld would never have loaded it.
    pub fn in_link(&self) -> bool {
        !self
            .sections
            .iter()
            .any(|s| s.kind == SectionKind::Unloaded)
    }

    pub fn parse(name: String, archive: Option<String>, data: &'static [u8]) -> Result<ObjectFile> {
        let mut file = Self::parse_for_resolution(name, archive, data)?;
        file.read_relocations()?;
        Ok(file)
    }

    /// Parses what symbol resolution needs (the header, section headers and names, decompressed
    /// contents, symbols, groups) and leaves the relocations, the largest part of most objects
    /// and the one resolution never reads, to [`ObjectFile::read_relocations`].
    pub fn parse_for_resolution(
        name: String,
        archive: Option<String>,
        data: &'static [u8],
    ) -> Result<ObjectFile> {
        if data.len() < 64 {
            bail!("{name}: corrupted ELF file: file is too short");
        }
        let header = FileHeader64::parse(data)
            .map_err(|_| err!("{name}: corrupted ELF file: invalid ELF header"))?;
        // lld's wording for a truncated section header table.
        let shoff = header.e_shoff(LE);
        let shend = u64::from(header.e_shnum(LE))
            .checked_mul(u64::from(header.e_shentsize(LE)))
            .and_then(|n| n.checked_add(shoff));
        // lld distinguishes a table that starts past the end from one that runs past it.
        if shoff > data.len() as u64 {
            bail!(
                "{name}: section header table goes past the end of the file: e_shoff = 0x{shoff:x}"
            );
        }
        if shend.is_none_or(|end| end > data.len() as u64) {
            bail!("{name}: section table goes past the end of file");
        }
        let endian = header
            .endian()
            .map_err(|_| err!("{name}: not a little-endian ELF file"))?;
        let _ = endian;
        if header.e_machine(LE) != elf::EM_X86_64 {
            bail!("{name} is incompatible with elf_x86_64");
        }
        if header.e_type(LE) != elf::ET_REL {
            bail!("{name}: not a relocatable object");
        }
        let table = header
            .sections(LE, data)
            .map_err(|e| err!("{name}: invalid section header table: {e}"))?;
        let shstrndx = header
            .shstrndx(LE, data)
            .map_err(|_| err!("{name}: invalid e_shstrndx"))?;
        let shstrtab = table
            .strings(LE, data, object::SectionIndex(shstrndx as usize))
            .map_err(|_| err!("{name}: invalid section name string table"))?;
        let n = table.len();
        let mut sections = Vec::with_capacity(n);
        let mut markers = MarkerSections::default();
        let mut symtab_index = None;
        for (i, shdr) in table.iter().enumerate() {
            let sname = shdr
                .name(LE, shstrtab)
                .map_err(|_| err!("{name}: invalid section name offset in section {i}"))?;
            let sh_type = shdr.sh_type(LE);
            // lld's limit: an alignment past 4 GiB is corrupt, and honouring it would make an
            // output of that size.
            let align = shdr.sh_addralign(LE);
            if align > u64::from(u32::MAX) {
                bail!("{name}: section sh_addralign is too large");
            }
            if align > 1 && !align.is_power_of_two() {
                bail!(
                    "{name}:({}): sh_addralign is not a power of 2",
                    String::from_utf8_lossy(sname)
                );
            }
            let sdata: &'static [u8] = if sh_type == elf::SHT_NOBITS || i == 0 {
                &[]
            } else {
                shdr.data(LE, data).map_err(|_| {
                    err!(
                        "{name}:({}): section extends past end of file",
                        String::from_utf8_lossy(sname)
                    )
                })?
            };
            if sh_type == elf::SHT_SYMTAB {
                if symtab_index.is_some() {
                    bail!("{name}: multiple SHT_SYMTAB sections");
                }
                symtab_index = Some(i);
            }
            // A compressed section (`-gz`) joins the link decompressed, under a header that
            // describes the decompressed contents.
            let (shdr, sdata) = if shdr.sh_flags(LE) & u64::from(elf::SHF_COMPRESSED) != 0
                && sh_type != elf::SHT_NOBITS
            {
                let what = || format!("{name}:({})", String::from_utf8_lossy(sname));
                decompress_section(shdr, sdata).map_err(|e| err!("{}: {e}", what()))?
            } else {
                (shdr, sdata)
            };
            let kind = initial_kind(sname, sh_type, shdr.sh_flags(LE), i);
            markers.note(i as u32, sname, sh_type, shdr.sh_flags(LE), kind);
            sections.push(InputSection {
                name: sname,
                shdr,
                data: sdata,
                relocs: &[],
                relocs_sorted: true,
                reserved: crate::input::section_rules::is_reserved(sname, sh_type),
                merged_name: crate::input::section_rules::MergedName::of(sname),
                flags: shdr.sh_flags(LE),
                sh_type,
                kind,
            });
        }

        let (symbols, strtab, first_global): (&'static [Sym64], &'static [u8], usize) =
            match symtab_index {
                Some(i) => {
                    let shdr = sections[i].shdr;
                    let syms: &'static [Sym64] = shdr
                        .data_as_array(LE, data)
                        .map_err(|_| err!("{name}: invalid symbol table"))?;
                    let link = shdr.sh_link(LE) as usize;
                    let strtab = sections
                        .get(link)
                        .filter(|s| s.sh_type() == elf::SHT_STRTAB)
                        .map(|s| s.data)
                        .ok_or_else(|| {
                            err!("{name}: symbol table has invalid string table index {link}")
                        })?;
                    let first_global = shdr.sh_info(LE) as usize;
                    if first_global > syms.len() || first_global == 0 && !syms.is_empty() {
                        bail!("{name}: invalid sh_info in symbol table");
                    }
                    (syms, strtab, first_global)
                }
                None => (&[], &[], 0),
            };

        // Extended section indices: the table that belongs to the symbol table, if any.
        let symtab_shndx: &'static [u32] = match sections.iter().find(|s| {
            s.sh_type() == elf::SHT_SYMTAB_SHNDX
                && Some(s.shdr.sh_link(LE) as usize) == symtab_index
        }) {
            Some(s) => {
                let words: &'static [object::U32<LE>] = s
                    .shdr
                    .data_as_array(LE, data)
                    .map_err(|_| err!("{name}: invalid SHT_SYMTAB_SHNDX section"))?;
                // `U32<LE>` is a little-endian `u32`; x86-64 hosts read it as it is.
                let words: Vec<u32> = words.iter().map(|w| w.get(LE)).collect();
                Vec::leak(words)
            }
            None => &[],
        };

        // Validate every symbol's section index and name now, so later phases can index freely.
        // In a string table that ends with a NUL (as the gABI requires) every offset inside it
        // starts a terminated name: then a bounds check does, without reading the name.
        let strtab_terminated = strtab.last() == Some(&0);
        let mut source_name = None;
        for (i, sym) in symbols.iter().enumerate() {
            let mut shndx = u32::from(sym.st_shndx(LE));
            if shndx == u32::from(elf::SHN_XINDEX) {
                shndx = *symtab_shndx
                    .get(i)
                    .ok_or_else(|| err!("{name}: invalid section index for symbol {i}: SHN_XINDEX without SHT_SYMTAB_SHNDX entry"))?;
                if shndx == 0 || shndx as usize >= n {
                    bail!("{name}: invalid section index {shndx} for symbol {i}");
                }
            } else if shndx != u32::from(elf::SHN_UNDEF)
                && shndx < u32::from(elf::SHN_LORESERVE)
                && shndx as usize >= n
            {
                bail!("{name}: invalid section index {shndx} for symbol {i}");
            }
            let bad_name = || err!("{name}: invalid symbol name offset for symbol {i}");
            if strtab_terminated {
                if sym.st_name(LE) as usize >= strtab.len() {
                    return Err(bad_name());
                }
            } else {
                sym_name(strtab, sym).ok_or_else(bad_name)?;
            }
            if source_name.is_none() && sym.st_type() == elf::STT_FILE {
                source_name = Some(sym_name(strtab, sym).ok_or_else(bad_name)?);
            }
            if i >= first_global && sym.st_bind() == elf::STB_LOCAL {
                bail!("{name}: broken object: getLocalSymbols returns a non-local symbol");
            }
        }

        let mut file = ObjectFile {
            name,
            archive,
            data,
            sections,
            symbols,
            strtab,
            first_global,
            comdats: Vec::new(),
            plain_groups: Vec::new(),
            source_name,
            symtab_shndx,
            binary: false,
            relocations_read: false,
            markers,
        };
        file.read_groups()?;
        Ok(file)
    }

    /// Attaches each relocation section to the section it applies to and checks every
    /// relocation's symbol index; does nothing the second time.
    pub fn read_relocations(&mut self) -> Result<()> {
        if self.relocations_read {
            return Ok(());
        }
        let mut sections = std::mem::take(&mut self.sections);
        let read = self.attach_relocations(&mut sections);
        self.sections = sections;
        read?;
        self.relocations_read = true;
        Ok(())
    }

    /// The sections with their relocations attached, the file left as it is: for a reader
    /// that holds the file shared (the liveness walk loading an archive member).
    pub fn sections_with_relocations(&self) -> Result<Vec<InputSection>> {
        let mut sections = self.sections.clone();
        if !self.relocations_read {
            self.attach_relocations(&mut sections)?;
        }
        Ok(sections)
    }

    /// [`ObjectFile::read_relocations`] into `sections`, this file's sections.
    fn attach_relocations(&self, sections: &mut [InputSection]) -> Result<()> {
        let name = &self.name;
        let data = self.data;
        let n = sections.len();
        for i in 0..n {
            let shdr = sections[i].shdr;
            match shdr.sh_type(LE) {
                elf::SHT_RELA => {
                    let target = shdr.sh_info(LE) as usize;
                    if target == 0 || target >= n {
                        bail!("{name}: relocation section {i} has invalid target section index {target}");
                    }
                    let relocs: &'static [Rela64] = shdr
                        .data_as_array(LE, data)
                        .map_err(|_| err!("{name}: invalid relocation section {i}"))?;
                    sections[target].relocs = relocs;
                }
                // LLVM writes the relocations of `.llvm.call-graph-profile` (objects compiled
                // with profile data: PGO, sample profiles, LTO with either) as SHT_REL on every
                // target. The section only feeds lld's call-graph section ordering, which weld
                // does not do; it is dropped, and so are its relocations.
                elf::SHT_REL
                    if sections
                        .get(shdr.sh_info(LE) as usize)
                        .is_some_and(|t| t.sh_type == SHT_LLVM_CALL_GRAPH_PROFILE) => {}
                elf::SHT_REL => bail!("{name}: SHT_REL relocations are not valid on x86-64"),
                elf::SHT_CREL => {
                    let target = shdr.sh_info(LE) as usize;
                    if target == 0 || target >= n {
                        bail!("{name}: relocation section {i} has invalid target section index {target}");
                    }
                    sections[target].relocs = decode_crel(shdr, data)
                        .map_err(|e| err!("{name}: invalid CREL relocation section {i}: {e}"))?;
                }
                _ => {}
            }
        }
        self.check_relocs(sections)
    }

    /// A `--just-symbols` file (an object, executable or shared object): only its symbol table
    /// joins the link, every defined symbol as an absolute one with its value, size, type,
    /// binding and visibility (locals too, as lld copies them to `.symtab`); undefined globals
    /// stay undefined references. Section symbols are left out; none of its sections is output.
    pub fn parse_just_symbols(name: String, data: &'static [u8]) -> Result<ObjectFile> {
        if !data.starts_with(b"\x7fELF") {
            bail!("{name}: not an ELF file");
        }
        let (_, table) = x86_64_section_table(&name, data)?;
        let mut symbols = vec![Sym64::default()];
        let mut globals = Vec::new();
        let mut strtab: &'static [u8] = &[];
        if let Some((i, shdr)) = table
            .iter()
            .enumerate()
            .find(|(_, s)| s.sh_type(LE) == elf::SHT_SYMTAB)
        {
            let syms: &'static [Sym64] = shdr
                .data_as_array(LE, data)
                .map_err(|_| err!("{name}: invalid symbol table"))?;
            strtab = table
                .section(object::SectionIndex(shdr.sh_link(LE) as usize))
                .ok()
                .filter(|s| s.sh_type(LE) == elf::SHT_STRTAB)
                .and_then(|s| s.data(LE, data).ok())
                .ok_or_else(|| err!("{name}: symbol table {i} has an invalid string table"))?;
            for (k, sym) in syms.iter().enumerate().skip(1) {
                if sym_name(strtab, sym).is_none() {
                    bail!("{name}: invalid symbol name offset for symbol {k}");
                }
                let shndx = sym.st_shndx(LE);
                // Undefined globals stay references (they may pull archive members, and lld
                // lists them in `.symtab`); undefined locals mean nothing.
                if sym.st_type() == elf::STT_SECTION
                    || (shndx == elf::SHN_UNDEF && sym.st_bind() == elf::STB_LOCAL)
                {
                    continue;
                }
                let mut abs = *sym;
                if sym.st_type() != elf::STT_FILE && shndx != elf::SHN_UNDEF {
                    abs.st_shndx = object::U16::new(LE, elf::SHN_ABS);
                }
                if sym.st_bind() == elf::STB_LOCAL {
                    symbols.push(abs);
                } else {
                    globals.push(abs);
                }
            }
        }
        let first_global = symbols.len();
        symbols.extend(globals);
        let null = table
            .iter()
            .next()
            .ok_or_else(|| err!("{name}: invalid section header table"))?;
        let source_name = symbols
            .iter()
            .find(|s| s.st_type() == elf::STT_FILE)
            .and_then(|s| sym_name(strtab, s));
        Ok(ObjectFile {
            name,
            archive: None,
            data,
            sections: vec![InputSection {
                name: b"",
                shdr: null,
                data: &[],
                relocs: &[],
                relocs_sorted: true,
                reserved: false,
                merged_name: crate::input::section_rules::MergedName::WHOLE,
                flags: 0,
                sh_type: elf::SHT_NULL,
                kind: SectionKind::Ignored,
            }],
            symbols: Vec::leak(symbols),
            strtab,
            first_global,
            comdats: Vec::new(),
            plain_groups: Vec::new(),
            source_name,
            symtab_shndx: &[],
            binary: false,
            relocations_read: true,
            markers: MarkerSections::default(),
        })
    }

    fn read_groups(&mut self) -> Result<()> {
        for i in 0..self.sections.len() {
            if self.sections[i].sh_type() != elf::SHT_GROUP {
                continue;
            }
            let sec = &self.sections[i];
            let Some((flag, members)) = GroupMembers::of_section(sec.data) else {
                bail!("{}: invalid SHT_GROUP section {i}", self.name);
            };
            if let Some(m) = members
                .iter()
                .find(|&m| m as usize >= self.sections.len() || m == 0)
            {
                bail!("{}: invalid section index {m} in SHT_GROUP {i}", self.name);
            }
            if flag & elf::GRP_COMDAT == 0 {
                // A non-COMDAT group just ties sections together for GC; nothing to resolve.
                self.plain_groups.push(members);
                continue;
            }
            let sig_index = sec.shdr.sh_info(LE) as usize;
            let sig_sym = self.symbols.get(sig_index).ok_or_else(|| {
                err!(
                    "{}: invalid symbol index {sig_index} in SHT_GROUP {i}",
                    self.name
                )
            })?;
            let mut signature = sym_name(self.strtab, sig_sym).unwrap_or(b"");
            // GNU as emits the section symbol as the signature for groups named after a section.
            if sig_sym.st_type() == elf::STT_SECTION {
                signature = self
                    .sym_section(sig_index)
                    .and_then(|s| self.sections.get(s))
                    .map(|s| s.name)
                    .unwrap_or(b"");
            }
            self.comdats.push(ComdatGroup { signature, members });
        }
        Ok(())
    }

    /// Checks every relocation's symbol index and records whether each section's relocations
    /// are sorted by offset (this loop touches them all anyway).
    fn check_relocs(&self, sections: &mut [InputSection]) -> Result<()> {
        let nsyms = self.symbols.len();
        let name = &self.name;
        for sec in sections.iter_mut() {
            // One pass over the relocations: symbol indexes checked, sortedness recorded.
            let mut sorted = true;
            let mut prev = 0;
            for r in sec.relocs {
                let sym = r.r_sym(LE, false) as usize;
                if sym >= nsyms && sym != 0 {
                    bail!(
                        "{name}: invalid symbol index {sym} in relocation of section {}",
                        sec.name_str()
                    );
                }
                let off = r.r_offset(LE);
                sorted &= prev <= off;
                prev = off;
            }
            sec.relocs_sorted = sorted;
        }
        Ok(())
    }

    /// The library specifiers of `.deplibs` (`#pragma comment(lib, "m")`), in order.
    pub fn dependent_libraries(&self) -> Vec<&'static [u8]> {
        self.sections
            .iter()
            .filter(|s| s.sh_type() == SHT_LLVM_DEPENDENT_LIBRARIES)
            .flat_map(|s| s.data.split(|&b| b == 0).filter(|x| !x.is_empty()))
            .collect()
    }

    /// The section symbol `index` is defined in, following `SHN_XINDEX` into `.symtab_shndx`;
    /// `None` for undefined, absolute and common symbols (every reserved index).
    pub fn sym_section(&self, index: usize) -> Option<usize> {
        let shndx = self.symbols.get(index)?.st_shndx(LE);
        if shndx == elf::SHN_XINDEX {
            return self.symtab_shndx.get(index).map(|&s| s as usize);
        }
        (shndx != elf::SHN_UNDEF && shndx < elf::SHN_LORESERVE).then_some(usize::from(shndx))
    }

    pub fn sym_name(&self, index: usize) -> &'static [u8] {
        self.symbols
            .get(index)
            .and_then(|s| sym_name(self.strtab, s))
            .unwrap_or(b"")
    }

    /// The name used in diagnostics for symbol `index`: its own name, or for a section symbol the
    /// section's name.
    pub fn sym_display_name(&self, index: usize) -> String {
        let Some(sym) = self.symbols.get(index) else {
            return String::new();
        };
        if sym.st_type() == elf::STT_SECTION {
            return self
                .sym_section(index)
                .and_then(|s| self.sections.get(s))
                .map(|s| s.name_str().to_string())
                .unwrap_or_default();
        }
        crate::demangle::display_name(self.sym_name(index))
    }

    /// The function or object containing `offset` in section `sec`, as lld prints in
    /// `>>> referenced by file.o:(func)`.
    pub fn enclosing_symbol(&self, sec: usize, offset: u64) -> Option<String> {
        self.enclosing(sec, offset, &[elf::STT_FUNC, elf::STT_OBJECT])
    }

    /// The function containing `offset` of section `sec`, demangled (lld's
    /// `getEnclosingFunction`, for `(function NAME: SEC+0xOFF)` error locations).
    pub fn enclosing_function(&self, sec: usize, offset: u64) -> Option<String> {
        self.enclosing(sec, offset, &[elf::STT_FUNC])
    }

    /// Where `offset` of section `sec` is, as lld names a relocation's place in its errors:
    /// `FILE:(function NAME: SEC+0xOFF)`, or `FILE:(SEC+0xOFF)` outside any function.
    pub fn location(&self, sec: usize, offset: u64) -> String {
        let sec_name = self.sections.get(sec).map_or("?", |s| s.name_str());
        match self.enclosing_function(sec, offset) {
            Some(func) => format!("{}:(function {func}: {sec_name}+0x{offset:x})", self.name),
            None => format!("{}:({sec_name}+0x{offset:x})", self.name),
        }
    }

    fn enclosing(&self, sec: usize, offset: u64, types: &[u8]) -> Option<String> {
        let mut best: Option<(u64, usize)> = None;
        for (i, s) in self.symbols.iter().enumerate() {
            if self.sym_section(i) != Some(sec) || sec == 0 {
                continue;
            }
            if !types.contains(&s.st_type()) {
                continue;
            }
            let v = s.st_value(LE);
            let size = s.st_size(LE);
            if v <= offset && offset < v + size.max(1) && best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, i));
            }
        }
        best.map(|(_, i)| crate::demangle::display_name(self.sym_name(i)))
    }
}

/// Reads a symbol's name, `None` if the offset is outside the string table.
pub fn sym_name(strtab: &'static [u8], sym: &Sym64) -> Option<&'static [u8]> {
    let off = sym.st_name(LE) as usize;
    let rest = strtab.get(off..)?;
    let end = memchr::memchr(0, rest)?;
    Some(&rest[..end])
}

/// Decodes a compact relocation section (`SHT_CREL`, what `clang -Wa,--crel`
/// writes) into the `Rela64` records every later phase reads. The decoded
/// list lives as long as the mapped input it came from: the whole link.
pub(crate) fn decode_crel(
    shdr: &SectionHeader64,
    data: &'static [u8],
) -> Result<&'static [Rela64]> {
    let bytes = shdr
        .data(LE, data)
        .map_err(|_| err!("section data out of bounds"))?;
    let crels = object::read::elf::CrelIterator::new(bytes).map_err(|e| err!("{e}"))?;
    // x86-64 is a RELA target: lld refuses CREL that leaves addends in the
    // section contents, and so does weld.
    if !crels.is_rela() {
        bail!("CREL without explicit addends is not valid on x86-64");
    }
    // The count comes from the file: every entry takes at least one byte, so no more than the
    // section's size is reserved (a corrupt count is an allocation bomb, then an error below).
    let mut relocs = Vec::with_capacity(crels.len().min(bytes.len()));
    for r in crels {
        let r = r.map_err(|e| err!("{e}"))?;
        let mut rela = Rela64 {
            r_offset: object::U64::new(LE, r.r_offset),
            r_info: object::U64::new(LE, 0),
            r_addend: object::I64::new(LE, r.r_addend),
        };
        rela.set_r_info(LE, false, r.r_sym, r.r_type);
        relocs.push(rela);
    }
    Ok(Vec::leak(relocs))
}

/// Section types that describe the object rather than hold output contents: its symbol and
/// string tables, relocations, groups and LLVM's address-significance and call-graph tables.
/// A link (final or `-r`) writes its own.
pub fn is_metadata_type(sh_type: u32) -> bool {
    matches!(
        sh_type,
        elf::SHT_NULL
            | elf::SHT_SYMTAB
            | elf::SHT_STRTAB
            | elf::SHT_RELA
            | elf::SHT_REL
            | elf::SHT_CREL
            | elf::SHT_GROUP
            | elf::SHT_SYMTAB_SHNDX
            | SHT_LLVM_ADDRSIG
            | SHT_LLVM_CALL_GRAPH_PROFILE
    )
}

fn initial_kind(name: &[u8], sh_type: u32, flags: u64, index: usize) -> SectionKind {
    if index == 0 {
        return SectionKind::Ignored;
    }
    if is_metadata_type(sh_type) || sh_type == SHT_LLVM_DEPENDENT_LIBRARIES {
        return SectionKind::Ignored;
    }
    if flags & u64::from(elf::SHF_EXCLUDE) != 0 {
        return SectionKind::Ignored;
    }
    // The split-stack markers only tell how the object was compiled (`code_rewrites` reads
    // them); lld discards them.
    if name == b".note.GNU-stack"
        || crate::input::section_rules::is_split_stack_marker(name)
        || name.starts_with(b".llvm.lto")
    {
        return SectionKind::Ignored;
    }
    if name == b".note.gnu.property" {
        return SectionKind::GnuProperty;
    }
    if name == b".eh_frame" && (sh_type == elf::SHT_PROGBITS || sh_type == elf::SHT_X86_64_UNWIND) {
        return SectionKind::EhFrame;
    }
    if name == b".comment" {
        return SectionKind::Comment;
    }
    if flags & u64::from(elf::SHF_MERGE) != 0 && sh_type == elf::SHT_PROGBITS {
        return SectionKind::Merge;
    }
    SectionKind::Regular
}

/// True for a slim GCC LTO object: GIMPLE bytecode in `.gnu.lto_*` sections and no machine
/// code, marked by GCC's `__gnu_lto_slim` symbol. A fat one (`-ffat-lto-objects`) also holds
/// the machine code and links as a regular object, as in lld; its `.gnu.lto_*` sections are
/// `SHF_EXCLUDE`.
pub fn is_gcc_slim_lto_object(file: &ObjectFile) -> bool {
    file.markers.gcc_lto && (0..file.symbols.len()).any(|i| file.sym_name(i) == b"__gnu_lto_slim")
}

pub fn check_not_gcc_lto(file: &ObjectFile) -> Result<()> {
    if is_gcc_slim_lto_object(file) {
        bail!(
            "{}: GCC LTO objects are not supported; compile with clang -flto or -fno-lto",
            file.name
        );
    }
    Ok(())
}

/// The decompressed contents of an `SHF_COMPRESSED` section (zlib or zstd, after its
/// `Elf64_Chdr`), with a copy of its header that says what they are: their size and alignment,
/// and no `SHF_COMPRESSED`. Messages are lld's.
fn decompress_section(
    shdr: &'static SectionHeader64,
    data: &'static [u8],
) -> std::result::Result<(&'static SectionHeader64, &'static [u8]), String> {
    use std::io::Read;
    if data.len() < 24 {
        return Err("corrupted compressed section".to_string());
    }
    let word = |o: usize, n: usize| -> u64 {
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(&data[o..o + n]);
        u64::from_le_bytes(b)
    };
    let (ch_type, size, align) = (word(0, 4) as u32, word(8, 8), word(16, 8));
    let body = &data[24..];
    let size_usize =
        usize::try_from(size).map_err(|_| "corrupted compressed section".to_string())?;
    let mut out = Vec::with_capacity(size_usize.min(1 << 30));
    match ch_type {
        elf::ELFCOMPRESS_ZLIB => {
            flate2::read::ZlibDecoder::new(body)
                .take(size)
                .read_to_end(&mut out)
                .map_err(|e| format!("decompress failed: {e}"))?;
        }
        elf::ELFCOMPRESS_ZSTD => {
            zstd::stream::read::Decoder::new(body)
                .and_then(|d| d.take(size).read_to_end(&mut out))
                .map_err(|e| format!("decompress failed: {e}"))?;
        }
        other => return Err(format!("unsupported compression type ({other})")),
    }
    if out.len() as u64 != size {
        return Err("decompress failed: the data is shorter than the header says".to_string());
    }
    let mut header = *shdr;
    header.sh_flags = object::U64::new(LE, shdr.sh_flags(LE) & !u64::from(elf::SHF_COMPRESSED));
    header.sh_size = object::U64::new(LE, size);
    header.sh_addralign = object::U64::new(LE, align);
    Ok((
        Box::leak(Box::new(header)),
        Box::leak(out.into_boxed_slice()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_detection() {
        let libc_so = "/* GNU ld script */\nOUTPUT_FORMAT(elf64-x86-64)\nGROUP ( /lib/x86_64-linux-gnu/libc.so.6 )\n";
        assert!(looks_like_linker_script(libc_so.as_bytes()));
        assert!(looks_like_linker_script(b""));
        assert!(looks_like_linker_script("INPUT(caf\u{e9}.o)".as_bytes()));
        assert!(!looks_like_linker_script(b"\x7fELF\x02\x01\x01"));
        assert!(!looks_like_linker_script(b"!<arch>\n"));
        assert!(!looks_like_linker_script(b"!<thin>\n"));
        assert!(!looks_like_linker_script(b"BC\xC0\xDE\x35\x14"));
        assert!(!looks_like_linker_script(b"\xDE\xC0\x17\x0B\x00\x00"));
        assert!(!looks_like_linker_script(b"GROUP(\x00)"));
        assert!(!looks_like_linker_script(b"\xff\xfe\x00"));
        // A multi-byte character cut at the 4096-byte window is still text.
        let mut long = "x".repeat(4095).into_bytes();
        long.extend("\u{e9}".as_bytes());
        assert!(looks_like_linker_script(&long));
    }

    #[test]
    fn group_members_are_the_words_after_the_flag() {
        let (flag, members) =
            GroupMembers::of_section(&[1, 0, 0, 0, 5, 0, 0, 0, 0x10, 0x01, 0, 0, 7]).unwrap();
        assert_eq!(flag, elf::GRP_COMDAT);
        assert_eq!(members.iter().collect::<Vec<_>>(), [5, 0x110]);
        let (_, none) = GroupMembers::of_section(&[0, 0, 0, 0, 9]).unwrap();
        assert_eq!(none.iter().count(), 0);
        assert!(GroupMembers::of_section(&[1, 0, 0]).is_none());
    }

    #[test]
    fn marker_sections_are_noted_by_name_type_and_flags() {
        let exec = u64::from(elf::SHF_EXECINSTR);
        let mut m = MarkerSections::default();
        m.note(
            1,
            b".note.GNU-stack",
            elf::SHT_PROGBITS,
            0,
            SectionKind::Ignored,
        );
        m.note(0, b".text", elf::SHT_PROGBITS, exec, SectionKind::Regular);
        assert!(!m.executable_stack && !m.split_stack && !m.call_graph_profile);
        m.note(
            2,
            b".note.GNU-stack",
            elf::SHT_PROGBITS,
            exec,
            SectionKind::Ignored,
        );
        m.note(
            3,
            b".note.GNU-split-stack",
            elf::SHT_PROGBITS,
            0,
            SectionKind::Ignored,
        );
        m.note(
            4,
            b".llvm.call-graph-profile",
            SHT_LLVM_CALL_GRAPH_PROFILE,
            0,
            SectionKind::Ignored,
        );
        m.note(
            5,
            b".note.gnu.property",
            elf::SHT_NOTE,
            0,
            SectionKind::GnuProperty,
        );
        assert!(m.executable_stack && m.split_stack && m.call_graph_profile);
        assert_eq!(m.gnu_property, Some((5, 5)));
        assert!(!m.no_split_stack && !m.gcc_lto && !m.link_order);
        m.note(
            6,
            b".gnu.lto_.symtab.0",
            elf::SHT_PROGBITS,
            0,
            SectionKind::Regular,
        );
        assert!(m.gcc_lto);
        m.note(
            7,
            b".stack_sizes",
            elf::SHT_PROGBITS,
            u64::from(elf::SHF_LINK_ORDER),
            SectionKind::Regular,
        );
        assert!(m.link_order);
        m.note(
            9,
            b".note.gnu.property",
            elf::SHT_NOTE,
            0,
            SectionKind::GnuProperty,
        );
        assert_eq!(m.gnu_property, Some((5, 9)));
    }
}
