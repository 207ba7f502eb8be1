//! The output's shape as layout builds it and the writer reads it: output sections made of
//! chunks (input sections, merged sections, linker-made contents, ...), program headers, and
//! the sizes of the ELF structures they are written as.

use crate::input::input_files::FileId;
use crate::resolve::symbol_table::SymbolId;
use object::elf;

/// Sizes of the ELF structures the output is made of.
pub const EHDR_SIZE: u64 = 64;
pub const PHDR_SIZE: u64 = 56;
pub const SHDR_SIZE: u64 = 64;
pub const SYM_SIZE: u64 = 24;
pub const RELA_SIZE: u64 = 24;
/// An `Elf64_Rel` (`-z rel`).
pub const REL_SIZE: u64 = 16;

/// Linker-made contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Synthetic {
    Interp,
    GnuVersion,
    GnuVersionR,
    GnuVersionD,
    Hash,
    RelaPlt,
    /// The PLT calls go to (lld's `in.plt`): `.plt`, or `.plt.sec` when the output claims IBT.
    Plt,
    /// The IBT two-PLT scheme's `.plt`, holding the lazy halves of the entries.
    IbtPlt,
    GnuProperty,
    BuildId,
    /// `.note.package` (`--package-metadata`).
    PackageNote,
    DynSym,
    GnuHash,
    DynStr,
    RelaDyn,
    /// `.relr.dyn`: relative relocations packed as RELR (`-z pack-relative-relocs`).
    RelrDyn,
    EhFrameHdr,
    EhFrame,
    Iplt,
    Dynamic,
    Got,
    RelroPadding,
    GotPlt,
    IgotPlt,
    Comment,
    /// `.debug_names` (`--debug-names`, `crate::synthetic::debug_names`).
    DebugNames,
    /// `.gdb_index` (`--gdb-index`, `crate::synthetic::gdb_index`).
    GdbIndex,
    Symtab,
    Shstrtab,
    Strtab,
}

/// A linker-made chunk as the module of its synthetic section asks layout for it: the output
/// section it goes to (made when the first chunk or input section names it), its size and
/// alignment.
#[derive(Clone, Copy, Debug)]
pub struct SyntheticChunk {
    pub kind: Synthetic,
    pub osec: &'static str,
    pub sh_type: u32,
    pub flags: u64,
    pub size: u64,
    pub align: u64,
}

/// `SHF_ALLOC`, `SHF_WRITE`, `SHF_EXECINSTR` as section flag words.
pub const ALLOC: u64 = elf::SHF_ALLOC as u64;
pub const WRITE: u64 = elf::SHF_WRITE as u64;
pub const EXEC: u64 = elf::SHF_EXECINSTR as u64;

/// A piece of an output section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChunkKind {
    Input {
        file: FileId,
        sec: u32,
    },
    Merged(u32),
    Synthetic(Synthetic),
    /// The `COMMON` section of a common symbol: its storage, in `.bss`.
    Common(SymbolId),
    /// Storage of copy-relocated shared definition `n` (index in `Layout::copy_groups`), in
    /// `.bss` or `.bss.rel.ro`.
    Copy(u32),
    /// `--emit-relocs`: the input relocations of section `sec` of `file`, mapped to the output
    /// (see `emit_relocs`).
    Relocs {
        file: FileId,
        sec: u32,
    },
    /// A linker script's `BYTE`/`SHORT`/`LONG`/`QUAD`/`SQUAD` (index in
    /// `ScriptLayout::data`).
    Data(u32),
}

#[derive(Clone, Copy, Debug)]
pub struct Chunk {
    pub kind: ChunkKind,
    /// Offset inside the output section.
    pub offset: u64,
    pub size: u64,
    pub align: u64,
}

/// An output section with its final placement.
#[derive(Clone, Debug)]
pub struct OutputSection {
    pub name: String,
    pub sh_type: u32,
    pub flags: u64,
    pub align: u64,
    pub entsize: u64,
    pub chunks: Vec<Chunk>,
    pub size: u64,
    pub addr: u64,
    pub offset: u64,
    /// Load address minus address (a linker script's `AT`, lld's `lmaOffset`); 0 otherwise.
    pub lma_offset: u64,
    /// A linker script's `=fill` / `FILL(...)`: the 4-byte pattern (big-endian, as lld reads
    /// it) the gaps between chunks are filled with.
    pub fill: Option<[u8; 4]>,
    /// In a linker script's `OVERLAY`: it shares its addresses with the overlay's others.
    pub in_overlay: bool,
    pub link: u32,
    pub info: u32,
    /// Index in the section header table (1-based; 0 is the null section).
    pub shndx: u32,
    /// An input section has joined (its `sh_entsize` is `entsize` unless they disagree).
    has_inputs: bool,
    /// The whole contents as written, `Elf64_Chdr` first, when `--compress-debug-sections` or
    /// `--compress-sections` compressed the section (`writer::compress_sections`): `size` is
    /// then this length and the chunks only describe the uncompressed contents.
    pub compressed: Option<Vec<u8>>,
}

impl OutputSection {
    /// lld's `sh_entsize` rule: that of the first input section, or 0 once two disagree.
    pub fn add_input_entsize(&mut self, entsize: u64) {
        if !self.has_inputs {
            self.has_inputs = true;
            self.entsize = entsize;
        } else if self.entsize != entsize {
            self.entsize = 0;
        }
    }

    pub fn new(name: &str, sh_type: u32, flags: u64) -> Self {
        OutputSection {
            name: name.to_string(),
            sh_type,
            flags,
            align: 1,
            entsize: 0,
            chunks: Vec::new(),
            size: 0,
            addr: 0,
            offset: 0,
            lma_offset: 0,
            fill: None,
            in_overlay: false,
            link: 0,
            info: 0,
            shndx: 0,
            has_inputs: false,
            compressed: None,
        }
    }
    /// Sets the size of a section made of one linker-made chunk (`.symtab`, `.relr.dyn`, ...),
    /// known only once the layout has gone further.
    pub fn set_synthetic_size(&mut self, size: u64) {
        self.size = size;
        if let Some(c) = self.chunks.first_mut() {
            c.size = size;
        }
    }
    pub fn is_alloc(&self) -> bool {
        self.flags & u64::from(elf::SHF_ALLOC) != 0
    }
    pub fn is_nobits(&self) -> bool {
        self.sh_type == elf::SHT_NOBITS
    }
    pub fn file_size(&self) -> u64 {
        if self.is_nobits() {
            0
        } else {
            self.size
        }
    }
}

/// A program header.
#[derive(Clone, Copy, Debug)]
pub struct Segment {
    pub p_type: u32,
    pub flags: u32,
    pub offset: u64,
    pub vaddr: u64,
    /// `p_paddr - p_vaddr`: where a linker script's `AT` loads the segment (lld's
    /// `lmaOffset`); 0 otherwise.
    pub lma_offset: u64,
    pub filesz: u64,
    pub memsz: u64,
    pub align: u64,
}

impl Segment {
    /// A program header spanning one output section (`PT_INTERP`, `PT_GNU_EH_FRAME`, ...).
    pub fn of_section(p_type: u32, flags: u32, os: &OutputSection, align: u64) -> Segment {
        Segment {
            p_type,
            flags,
            offset: os.offset,
            vaddr: os.addr,
            lma_offset: 0,
            filesz: os.size,
            memsz: os.size,
            align,
        }
    }

    /// An empty program header of type `p_type` (`PT_NULL` padding, `PT_GNU_STACK`, ...).
    pub fn empty(p_type: u32, flags: u32) -> Segment {
        Segment {
            p_type,
            flags,
            offset: 0,
            vaddr: 0,
            lma_offset: 0,
            filesz: 0,
            memsz: 0,
            align: 0,
        }
    }
}

/// Why [`carve`] could not give a part a slice of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarveError {
    /// The part at this offset starts before the one before it ends.
    Overlap(u64),
    /// The part at this offset ends past the buffer.
    PastEnd(u64),
}

/// Cuts `buf` into a slice per part (`key`, offset, length; in increasing offset order), no
/// two overlapping, so the parts of an output (chunks, `.eh_frame` records) can be filled in
/// parallel. Bytes between parts belong to none.
pub fn carve<K>(
    buf: &mut [u8],
    parts: impl IntoIterator<Item = (K, u64, u64)>,
) -> Result<Vec<(K, &mut [u8])>, CarveError> {
    let mut out = Vec::new();
    let mut rest = buf;
    let mut pos = 0u64;
    for (key, offset, len) in parts {
        let skip = offset.checked_sub(pos).ok_or(CarveError::Overlap(offset))?;
        if skip.saturating_add(len) > rest.len() as u64 {
            return Err(CarveError::PastEnd(offset));
        }
        let (_, tail) = std::mem::take(&mut rest).split_at_mut(skip as usize);
        let (mine, tail) = tail.split_at_mut(len as usize);
        out.push((key, mine));
        rest = tail;
        pos = offset + len;
    }
    Ok(out)
}

/// Little-endian stores into output bytes.
pub fn put16(b: &mut [u8], o: usize, v: u16) {
    b[o..o + 2].copy_from_slice(&v.to_le_bytes());
}
pub fn put32(b: &mut [u8], o: usize, v: u32) {
    b[o..o + 4].copy_from_slice(&v.to_le_bytes());
}
pub fn put64(b: &mut [u8], o: usize, v: u64) {
    b[o..o + 8].copy_from_slice(&v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carve_gives_each_part_its_bytes_or_says_why_not() {
        let mut buf = [0u8; 10];
        let parts = carve(&mut buf, [('a', 0, 2), ('b', 4, 3), ('c', 7, 0)]).unwrap();
        let lens: Vec<(char, usize)> = parts.iter().map(|(k, s)| (*k, s.len())).collect();
        assert_eq!(lens, [('a', 2), ('b', 3), ('c', 0)]);
        for (_, s) in parts {
            s.fill(1);
        }
        assert_eq!(buf, [1, 1, 0, 0, 1, 1, 1, 0, 0, 0]);
        assert_eq!(
            carve(&mut buf, [(0, 0, 4), (1, 3, 2)]).unwrap_err(),
            CarveError::Overlap(3)
        );
        assert_eq!(
            carve(&mut buf, [(0, 8, 3)]).unwrap_err(),
            CarveError::PastEnd(8)
        );
    }
}
