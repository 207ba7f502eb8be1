//! [`Layout`]: where every section, symbol and linker-made entry of the output went, with the
//! data the synthetic sections are made of, and the queries the writer and the synthetic
//! sections ask of it. `crate::layout` builds it.

use crate::arch::x86_64 as arch;
use crate::input::input_files::{FileId, InputSection, Rela64, SectionKind};
use crate::input::section_rules::align_to;
use crate::output::merge;
use crate::output::sections::{
    carve, CarveError, ChunkKind, OutputSection, Segment, Synthetic, EHDR_SIZE, PHDR_SIZE,
    SHDR_SIZE,
};
use crate::relocations::code_rewrites::CodeRewrites;
use crate::relocations::scan::{AddressMap, GotKind, ScanResult};
use crate::resolve::symbol_table::SymKey;
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::elf;
use object::read::elf::Sym;
use object::LittleEndian as LE;
use rayon::prelude::*;

/// A kept `.eh_frame` record, in output order.
#[derive(Clone, Copy, Debug)]
pub struct EhPiece {
    pub file: FileId,
    pub sec: u32,
    pub in_offset: u32,
    pub size: u32,
    pub out_offset: u64,
    /// For an FDE: output offset of its CIE.
    pub cie_out: Option<u64>,
    /// Its relocations, `relocs[start..end]` of its section when those are sorted (found once,
    /// when the section's records are read; see [`EhPiece::relocs`]).
    pub relocs_start: u32,
    pub relocs_end: u32,
}

impl EhPiece {
    /// The record's relocations (`s` is its input section), in section order.
    pub fn relocs(&self, s: &InputSection) -> std::borrow::Cow<'static, [Rela64]> {
        if s.relocs_sorted {
            std::borrow::Cow::Borrowed(
                &s.relocs[self.relocs_start as usize..self.relocs_end as usize],
            )
        } else {
            let start = u64::from(self.in_offset);
            s.relocs_in(start, start + u64::from(self.size))
        }
    }
}

/// Per input `.eh_frame` section: where its kept records start in the output.
#[derive(Clone, Debug, Default)]
pub struct EhSection {
    pub out_start: u64,
    /// Indices into `EhLayout::pieces` of this section's records, in input order (dropped ones absent).
    pub pieces: Vec<u32>,
}

/// The output's `.eh_frame`: the records kept, where each input section's went, the size
/// and the number of FDEs (for `.eh_frame_hdr`); `synthetic::eh_frame` builds it.
#[derive(Clone, Debug, Default)]
pub struct EhLayout {
    pub pieces: Vec<EhPiece>,
    pub sections: HashMap<(FileId, u32), EhSection>,
    pub size: u64,
    pub fde_count: u64,
}

/// `.strtab`'s contents, kept in the parts they were made in (each file's local names, made in
/// parallel, then the globals' names) rather than copied into one buffer: the write phase
/// copies the parts into the output in parallel (11 MB on llvm-static, which a single buffer
/// had copied once more, on one thread).
#[derive(Clone, Debug)]
pub struct StringTable {
    parts: Vec<Vec<u8>>,
    len: usize,
}

impl Default for StringTable {
    /// A table holding the empty name (offset 0), as every ELF string table starts.
    fn default() -> Self {
        StringTable {
            parts: vec![vec![0]],
            len: 1,
        }
    }
}

impl StringTable {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a part made elsewhere; returns the offset it starts at.
    pub fn append_part(&mut self, part: Vec<u8>) -> u32 {
        let at = self.len as u32;
        self.len += part.len();
        self.parts.push(part);
        at
    }

    /// Writes the table into `buf` (its size), the parts in parallel; `Err` if `buf` is too
    /// small for them.
    pub fn write(&self, buf: &mut [u8]) -> Result<(), CarveError> {
        let mut at = 0u64;
        let parts = self.parts.iter().map(|part| {
            let start = at;
            at += part.len() as u64;
            (part, start, part.len() as u64)
        });
        carve(buf, parts)?
            .into_par_iter()
            .with_min_len(64)
            .for_each(|(part, out)| out.copy_from_slice(part));
        Ok(())
    }
}

/// One output symbol-table entry.
#[derive(Clone, Copy, Debug)]
pub enum SymtabEntry {
    Local {
        file: FileId,
        index: u32,
        name_off: u32,
    },
    Global {
        id: SymbolId,
        name_off: u32,
        local: bool,
    },
    /// `--emit-relocs`: the `STT_SECTION` symbol of an output section (index in
    /// `Layout::sections`), which relocations against input section symbols name.
    Section { osec: u32 },
}

/// Everything placed: output sections, segments, the address of every input section and
/// symbol, and what the synthetic sections hold (see the module documentation).
pub struct Layout {
    /// The code rewrites this layout's section sizes and symbol values account for; the
    /// split-stack prologue edits join them once the layout is final.
    pub rewrites: CodeRewrites,
    /// The sections `--icf` folded and the section kept in the place of each: a folded section
    /// has the kept one's address.
    pub folded: HashMap<(FileId, u32), (FileId, u32)>,
    pub sections: Vec<OutputSection>,
    pub segments: Vec<Segment>,
    /// Address of each input section placed whole (`u64::MAX` for the others: not in the
    /// output, or merged or `.eh_frame` sections, whose pieces go their own ways).
    pub sec_addr: Vec<Vec<u64>>,
    /// Output section index of each input section (`u32::MAX` when none).
    pub sec_osec: Vec<Vec<u32>>,
    /// For merged input sections: (merged section, index among its inputs).
    pub merge_of: merge::MergeIndex,
    pub merged: Vec<merge::MergedSection>,
    pub merge_inputs: Vec<Vec<merge::MergeInput<'static>>>,
    pub merged_addr: Vec<u64>,
    pub eh: EhLayout,
    pub global_value: Vec<u64>,
    pub global_size: Vec<u64>,
    /// (output section, chunk) of each common symbol's `COMMON` section.
    pub common_index: HashMap<SymbolId, (u32, u32)>,
    pub synthetic_index: HashMap<Synthetic, (u32, u32)>,
    pub got_addr: u64,
    pub gotplt_addr: u64,
    pub iplt_addr: u64,
    pub tls_start: u64,
    pub tls_end_aligned: u64,
    pub tls_align: u64,
    pub entry: u64,
    pub file_size: u64,
    /// Where the non-allocated sections start in the file (after the last loaded byte).
    pub non_alloc_start: u64,
    pub shoff: u64,
    /// Whether the section header table is written (`-z nosectionheader` says no).
    pub section_headers: bool,
    /// `--oformat=binary`: the output is the loaded sections' bytes alone, placed by load
    /// address (`crate::layout::flat_image`); no headers, no segments, no non-allocated
    /// sections in the file.
    pub flat_image: bool,
    /// `-z execstack-if-needed` and an input's `.note.GNU-stack` is executable.
    pub inputs_want_execstack: bool,
    pub symtab: Vec<SymtabEntry>,
    pub symtab_first_global: u32,
    pub strtab: StringTable,
    pub shstrtab: Vec<u8>,
    /// Where each output section's name is in `shstrtab` (parallel to `sections`).
    pub section_name_offsets: Vec<u32>,
    pub comment: Vec<u8>,
    pub gnu_property: Vec<u8>,
    pub dynamic: Vec<(u64, u64)>,
    pub dyn_tables: DynTables,
    /// The output is dynamically linked (imports, exports or an interpreter).
    pub dynamic_output: bool,
    /// `.interp` contents (NUL-terminated), empty when there is none.
    pub interp: Vec<u8>,
    /// The copy section of each copy-relocated symbol (by index in `ScanResult::copies`).
    pub copy_group: Vec<u32>,
    /// The symbols of each copy section (one shared definition and its copied aliases).
    pub copy_groups: Vec<Vec<SymbolId>>,
    /// (output section, chunk) of each copy section.
    pub copy_chunk: Vec<(u32, u32)>,
    /// Address of the PLT calls go to (`Synthetic::Plt`), 0 without one.
    pub plt_addr: u64,
    /// Address of the IBT scheme's lazy `.plt` (`Synthetic::IbtPlt`), 0 without one.
    pub ibt_plt_addr: u64,
    /// The PLT layout of this link (also the form of `.iplt` entries).
    pub plt_style: arch::PltStyle,
    /// Output section index of linker-defined symbols tied to a section.
    pub synthetic_section: HashMap<SymbolId, u16>,
    pub rela_dyn_count: u64,
    pub relative_count: u64,
    /// The places of the relative relocations packed in `.relr.dyn`, sorted.
    pub relr: Vec<u64>,
    /// `.relr.dyn`'s contents.
    pub relr_words: Vec<u64>,
    /// `.rela.dyn`'s contents in Android's packed format (`--pack-dyn-relocs=android`).
    pub android_rela: Option<Vec<u8>>,
    pub scan: ScanResult,
    /// `--emit-relocs`: where each symbol a relocation may name sits in `.symtab`.
    pub symtab_index: Option<SymtabIndex>,
    /// What a linker script's `SECTIONS` adds (`None` without one).
    pub script: Option<super::script_layout::ScriptLayout>,
}

/// `.symtab` indices of the symbols `--emit-relocs` relocations name (absent: not written, so
/// the relocation names symbol 0, as lld's lookup gives).
#[derive(Default)]
pub struct SymtabIndex {
    pub local: HashMap<(FileId, u32), u32>,
    pub global: HashMap<SymbolId, u32>,
    /// Output section (index in `Layout::sections`) -> its section symbol.
    pub section: HashMap<u32, u32>,
}

impl Layout {
    /// The address a dynamic relocation applies to.
    pub fn dyn_place_address(&self, place: crate::relocations::scan::Place) -> u64 {
        use crate::relocations::scan::Place;
        match place {
            Place::Input { file, sec, offset } => {
                self.sec_addr[file as usize][sec as usize] + offset
            }
            Place::Got(n) => self.got_addr + u64::from(n) * 8,
            Place::IgotPlt(n) => self.igotplt_slot(n),
            Place::Copy(n) => self.copy_address(n),
        }
    }

    /// Address of PLT entry `i` (in `.plt`, or `.plt.sec` with IBT).
    pub fn plt_entry_address(&self, i: u32) -> u64 {
        let style = self.plt_style;
        self.plt_addr + style.header_size() + u64::from(i) * style.entry_size()
    }

    /// Address of `.iplt` entry `i`.
    pub fn iplt_entry_address(&self, i: u32) -> u64 {
        self.iplt_addr + u64::from(i) * self.plt_style.entry_size()
    }

    /// Address of the `.got.plt` slot of PLT entry `i` (after the three reserved words).
    pub fn gotplt_slot(&self, i: u32) -> u64 {
        self.gotplt_addr + 24 + u64::from(i) * 8
    }

    /// Address of the `.got.plt` slot of IPLT entry `i` (after the PLT entries' slots).
    pub fn igotplt_slot(&self, i: u32) -> u64 {
        self.synthetic_address(Synthetic::IgotPlt).unwrap_or(0) + u64::from(i) * 8
    }

    /// Address of copy-relocated symbol `c`.
    pub fn copy_address(&self, c: u32) -> u64 {
        self.copy_section(c).map_or(0, |(os, c)| {
            let s = &self.sections[os as usize];
            s.addr + s.chunks[c as usize].offset
        })
    }

    /// (output section, chunk) holding copy-relocated symbol `c`.
    pub fn copy_section(&self, c: u32) -> Option<(u32, u32)> {
        let k = *self.copy_group.get(c as usize)?;
        self.copy_chunk.get(k as usize).copied()
    }

    /// An IFUNC whose address is taken directly has a canonical IPLT entry: its address in the
    /// output, which symbol tables list as a plain function (as lld). The entry's address and the
    /// index of the section holding the IPLT.
    pub fn canonical_iplt(&self, key: SymKey) -> Option<(u64, Option<u16>)> {
        let &i = self
            .scan
            .iplt_index
            .get(&key)
            .filter(|_| self.scan.iplt_canonical.contains(&key))?;
        let shndx = self
            .synthetic_index
            .get(&Synthetic::Iplt)
            .map(|x| self.sections[x.0 as usize].shndx as u16);
        Some((self.iplt_entry_address(i), shndx))
    }

    /// Address of a synthetic chunk.
    pub fn synthetic_address(&self, k: Synthetic) -> Option<u64> {
        let &(os, c) = self.synthetic_index.get(&k)?;
        let s = &self.sections[os as usize];
        Some(s.addr + s.chunks[c as usize].offset)
    }

    /// Address of a common symbol's `COMMON` section (`None` when it was collected).
    pub fn common_address(&self, id: SymbolId) -> Option<u64> {
        let &(os, c) = self.common_index.get(&id)?;
        let s = &self.sections[os as usize];
        Some(s.addr + s.chunks[c as usize].offset)
    }

    pub fn synthetic_offset(&self, k: Synthetic) -> Option<(u64, u64)> {
        let &(os, c) = self.synthetic_index.get(&k)?;
        let s = &self.sections[os as usize];
        let ch = &s.chunks[c as usize];
        Some((s.offset + ch.offset, ch.size))
    }

    pub fn fill_addresses(&mut self, res: &Resolved) {
        let mut merged_addr = vec![0u64; self.merged.len()];
        for os in &self.sections {
            for c in &os.chunks {
                match c.kind {
                    ChunkKind::Input { file, sec } => {
                        // `local_value` relies on it.
                        debug_assert_ne!(
                            res.files[file as usize].sections[sec as usize].kind,
                            SectionKind::EhFrame
                        );
                        self.sec_addr[file as usize][sec as usize] = os.addr + c.offset
                    }
                    ChunkKind::Merged(g) => merged_addr[g as usize] = os.addr + c.offset,
                    ChunkKind::Synthetic(_)
                    | ChunkKind::Common(_)
                    | ChunkKind::Copy(_)
                    | ChunkKind::Relocs { .. }
                    | ChunkKind::Data(_) => {}
                }
            }
        }
        for (&(f, s), &(kf, ks)) in &self.folded {
            self.sec_addr[f as usize][s as usize] = self.sec_addr[kf as usize][ks as usize];
        }
        self.merged_addr = merged_addr;
        self.got_addr = self.synthetic_address(Synthetic::Got).unwrap_or(0);
        self.gotplt_addr = self.synthetic_address(Synthetic::GotPlt).unwrap_or(0);
        self.iplt_addr = self.synthetic_address(Synthetic::Iplt).unwrap_or(0);
        self.plt_addr = self.synthetic_address(Synthetic::Plt).unwrap_or(0);
        self.ibt_plt_addr = self.synthetic_address(Synthetic::IbtPlt).unwrap_or(0);
        // Global symbol values, in parallel: one per global, each read from its definition.
        let values: Vec<(u64, u64)> = res
            .symtab
            .symbols
            .par_iter()
            .enumerate()
            .map(|(id, s)| match s.def {
                SymbolDef::Defined { file, index } => (
                    self.local_value(res, file, index as usize, 0),
                    self.rewrites.symbol_value_size(res, file, index as usize).1,
                ),
                SymbolDef::Common { size, .. } => {
                    (self.common_address(id as SymbolId).unwrap_or(0), size)
                }
                SymbolDef::Absolute(v) => (v, 0),
                SymbolDef::Shared { file, index } => {
                    // A shared symbol has an address here only if the executable took it over.
                    let s = &res.shared[file as usize].dynsyms[index as usize];
                    let id = id as SymbolId;
                    let v = if let Some(&c) = self.scan.copy_index.get(&id) {
                        self.copy_address(c)
                    } else if self.scan.canonical_plt.contains(&id) {
                        let i = self.scan.plt_index.get(&id).copied().unwrap_or(0);
                        self.plt_entry_address(i)
                    } else {
                        0
                    };
                    (v, s.st_size(LE))
                }
                _ => (0, 0),
            })
            .collect();
        (self.global_value, self.global_size) = values.into_iter().unzip();
    }

    /// Value of symbol `index` of `file` plus `addend`: the resolved definition's value for a
    /// global symbol, the file's own for a local one.
    pub fn value_of(&self, res: &Resolved, file: FileId, index: usize, addend: i64) -> u64 {
        match res.global_of(file, index) {
            Some(g) => self.global_value[g as usize].wrapping_add(addend as u64),
            None => self.local_value(res, file, index, addend),
        }
    }

    /// Value of symbol `index` of `file` read from its own symbol table (no global lookup).
    pub fn local_value(&self, res: &Resolved, file: FileId, index: usize, addend: i64) -> u64 {
        let f = &res.files[file as usize];
        let sym = &f.symbols[index];
        let shndx = sym.st_shndx(LE);
        if shndx == elf::SHN_ABS {
            return sym.st_value(LE).wrapping_add(addend as u64);
        }
        // A symbol past a jump `--optimize-bb-jumps` deleted moves back with the cut.
        let value = self.rewrites.symbol_value_size(res, file, index).0;
        let Some(sec) = f.sym_section(index) else {
            return addend as u64;
        };
        // Most references are to sections placed whole: one index, no look at the section
        // (a cache miss per relocation). Only regular sections are placed whole; merged pieces
        // and `.eh_frame` records never get an address of their own (`fill_addresses`).
        let a = self.sec_addr[file as usize][sec];
        if a != u64::MAX {
            return a.wrapping_add(value).wrapping_add(addend as u64);
        }
        if let Some((g, idx)) = self.merge_of.get(file, sec as u32) {
            // Section symbols fold the addend into the piece lookup (lld's getVA(addend)).
            let is_section = sym.st_type() == elf::STT_SECTION;
            let lookup = if is_section {
                value.wrapping_add(addend as u64)
            } else {
                value
            };
            let out = self.merged[g as usize]
                .output_offset(idx as usize, lookup)
                .unwrap_or(0);
            let base = self.merged_addr[g as usize] + out;
            return if is_section {
                base
            } else {
                base.wrapping_add(addend as u64)
            };
        }
        if f.sections[sec].kind == SectionKind::EhFrame {
            return self
                .eh_frame_address(file, sec as u32, value)
                .wrapping_add(addend as u64);
        }
        addend as u64
    }

    /// Output address of offset `off` of an input `.eh_frame` section: inside the record that
    /// contains it, or the start of `.eh_frame` (where lld points references to empty sections
    /// such as crtbeginT.o's `__EH_FRAME_BEGIN__`, so every frame gets registered).
    fn eh_frame_address(&self, file: FileId, sec: u32, off: u64) -> u64 {
        let base = self.synthetic_address(Synthetic::EhFrame).unwrap_or(0);
        let Some(s) = self.eh.sections.get(&(file, sec)) else {
            return base;
        };
        for &pi in &s.pieces {
            let p = &self.eh.pieces[pi as usize];
            if p.file == file
                && p.sec == sec
                && u64::from(p.in_offset) <= off
                && off < u64::from(p.in_offset) + u64::from(p.size)
            {
                return base + p.out_offset + (off - u64::from(p.in_offset));
            }
        }
        base
    }

    pub fn named_symbol_value(&self, name: &[u8]) -> Option<u64> {
        let _ = name;
        None
    }
}

struct LayoutAddressMap<'a> {
    lay: &'a Layout,
    res: &'a Resolved,
}

impl AddressMap for LayoutAddressMap<'_> {
    fn symbol_address(&self, file: FileId, index: usize, addend: i64) -> u64 {
        match self.res.global_of(file, index) {
            Some(g) => self.lay.global_value[g as usize].wrapping_add(addend as u64),
            None => self.lay.local_value(self.res, file, index, addend),
        }
    }
    fn iplt_entry_address(&self, key: SymKey) -> Option<u64> {
        let i = *self.lay.scan.iplt_index.get(&key)?;
        Some(self.lay.iplt_entry_address(i))
    }
    fn plt_entry_address(&self, sym: SymbolId) -> Option<u64> {
        let i = *self.lay.scan.plt_index.get(&sym)?;
        Some(self.lay.plt_entry_address(i))
    }
    fn got_slot_address(&self, key: SymKey, kind: GotKind) -> Option<u64> {
        let key = if kind == GotKind::TlsLd {
            SymKey::Local(u32::MAX, 0)
        } else {
            key
        };
        match self.lay.scan.got_slot.get(&(key, kind)) {
            Some(&i) => Some(self.lay.got_addr + u64::from(i) * 8),
            // An IFUNC reached only through the GOT uses its IRELATIVE slot
            // (`relocations::reuse_igotplt_slots`).
            None if kind == GotKind::Addr => {
                let &i = self.lay.scan.iplt_index.get(&key)?;
                Some(self.lay.igotplt_slot(i))
            }
            None => None,
        }
    }
    fn got_base(&self) -> u64 {
        self.lay.gotplt_addr
    }
    fn tls_tp(&self) -> u64 {
        self.lay.tls_end_aligned
    }
    fn tls_start(&self) -> u64 {
        self.lay.tls_start
    }
    fn target(
        &self,
        res: &Resolved,
        file: FileId,
        index: usize,
    ) -> crate::relocations::scan::Target {
        self.lay.scan.targets.of(res, file, index)
    }
    fn keeps_got_slot(&self, key: SymKey) -> bool {
        self.lay.scan.got_kept.contains(&key)
    }
    fn symbol_size(&self, file: FileId, index: usize) -> u64 {
        match self.res.global_of(file, index) {
            Some(g) => self.lay.global_size[g as usize],
            None => self.res.files[file as usize].symbols[index].st_size(LE),
        }
    }
}

impl Layout {
    /// Places the non-allocated sections after the loaded ones, then the section header table.
    /// Their offsets matter to nothing else, so compression, which shrinks them after the
    /// layout, places them again.
    pub fn place_non_alloc(&mut self) {
        if self.flat_image {
            // Not written: the file ends with the last loaded section (`flat_image`).
            for os in self.sections.iter_mut().filter(|s| !s.is_alloc()) {
                os.offset = 0;
                os.addr = 0;
            }
            return;
        }
        let mut off = self.non_alloc_start;
        for os in self.sections.iter_mut() {
            if os.is_alloc() {
                continue;
            }
            off = align_to(off, os.align);
            os.offset = off;
            os.addr = 0;
            off += os.file_size();
        }
        off = align_to(off, 8);
        // -z nosectionheader: no table and e_shoff 0, but the file keeps the zeroed room the
        // table would take, as lld's does.
        self.shoff = if self.section_headers { off } else { 0 };
        self.file_size = off + SHDR_SIZE * (self.sections.len() as u64 + 1);
    }

    /// The size of the ELF header and program headers (`SIZEOF_HEADERS`): 0 for a flat image,
    /// which has neither (as lld's `getHeaderSize`).
    pub fn header_size(&self) -> u64 {
        if self.flat_image {
            0
        } else {
            EHDR_SIZE + PHDR_SIZE * self.segments.len() as u64
        }
    }

    /// The view relocation application uses.
    pub fn address_map<'a>(&'a self, res: &'a Resolved) -> impl AddressMap + 'a {
        LayoutAddressMap { lay: self, res }
    }

    /// Value of an output symbol-table entry and its output section index.
    pub fn symtab_value(&self, res: &Resolved, e: &SymtabEntry) -> (u64, u16) {
        match *e {
            SymtabEntry::Section { osec } => {
                let os = &self.sections[osec as usize];
                (os.addr, os.shndx as u16)
            }
            SymtabEntry::Local { file, index, .. } => {
                let f = &res.files[file as usize];
                let sym = &f.symbols[index as usize];
                if sym.st_shndx(LE) == elf::SHN_ABS {
                    return (sym.st_value(LE), elf::SHN_ABS);
                }
                let shndx = f.sym_section(index as usize).unwrap_or(0);
                let os = self.sec_osec[file as usize]
                    .get(shndx)
                    .copied()
                    .unwrap_or(u32::MAX);
                let v = self.local_value(res, file, index as usize, 0);
                if f.sections
                    .get(shndx)
                    .is_some_and(|s| s.kind == SectionKind::EhFrame)
                {
                    let eh = self
                        .synthetic_index
                        .get(&Synthetic::EhFrame)
                        .map(|x| x.0)
                        .unwrap_or(0);
                    return (v, self.sections[eh as usize].shndx as u16);
                }
                (
                    v,
                    if os == u32::MAX {
                        elf::SHN_ABS
                    } else {
                        self.sections[os as usize].shndx as u16
                    },
                )
            }
            SymtabEntry::Global { id, .. } => {
                let v = self.global_value[id as usize];
                let s = res.symtab.get(id);
                let shndx = match s.def {
                    SymbolDef::Defined { file, index } => {
                        let sym = &res.files[file as usize].symbols[index as usize];
                        let sh = res.files[file as usize]
                            .sym_section(index as usize)
                            .unwrap_or(usize::from(sym.st_shndx(LE)));
                        if sym.st_shndx(LE) == elf::SHN_ABS {
                            elf::SHN_ABS
                        } else {
                            let os = self.sec_osec[file as usize]
                                .get(sh)
                                .copied()
                                .unwrap_or(u32::MAX);
                            if os == u32::MAX {
                                if res.files[file as usize]
                                    .sections
                                    .get(sh)
                                    .is_some_and(|s| s.kind == SectionKind::EhFrame)
                                {
                                    self.synthetic_index
                                        .get(&Synthetic::EhFrame)
                                        .map(|x| self.sections[x.0 as usize].shndx as u16)
                                        .unwrap_or(elf::SHN_ABS)
                                } else {
                                    elf::SHN_ABS
                                }
                            } else {
                                self.sections[os as usize].shndx as u16
                            }
                        }
                    }
                    SymbolDef::Common { .. } => self
                        .common_index
                        .get(&id)
                        .map(|x| self.sections[x.0 as usize].shndx as u16)
                        .unwrap_or(elf::SHN_ABS),
                    SymbolDef::Synthetic if s.name == b"_TLS_MODULE_BASE_" => elf::SHN_ABS,
                    SymbolDef::Synthetic => match self.synthetic_section.get(&id) {
                        Some(&shndx) => shndx,
                        None => self
                            .section_containing(v)
                            .map(|s| s.shndx as u16)
                            .unwrap_or(elf::SHN_ABS),
                    },
                    SymbolDef::Absolute(_) => elf::SHN_ABS,
                    // A copy-relocated symbol is defined where its copy is.
                    SymbolDef::Shared { .. } => self
                        .scan
                        .copy_index
                        .get(&id)
                        .and_then(|&c| self.copy_section(c))
                        .map_or(elf::SHN_UNDEF, |(os, _)| {
                            self.sections[os as usize].shndx as u16
                        }),
                    _ => elf::SHN_UNDEF,
                };
                (v, shndx)
            }
        }
    }

    fn section_containing(&self, addr: u64) -> Option<&OutputSection> {
        self.sections
            .iter()
            // .tbss takes no address space outside PT_TLS: `_end` is never in it.
            .filter(|s| s.is_alloc() && !(s.is_nobits() && s.flags & u64::from(elf::SHF_TLS) != 0))
            .find(|s| s.addr <= addr && addr <= s.addr + s.size)
            .or_else(|| self.sections.iter().find(|s| s.is_alloc()))
    }
}

/// Address-independent parts of the dynamic tables (`.dynsym`, `.dynstr`, the hash tables,
/// the version sections), which `synthetic::dynsym::build_tables` makes before layout.
#[derive(Default, Debug)]
pub struct DynTables {
    /// `.dynsym` entries after the null symbol, in output order.
    pub dynsym: Vec<SymbolId>,
    pub dynsym_index: HashMap<SymbolId, u32>,
    /// Offset of each `dynsym` entry's name in `.dynstr`.
    pub name_off: Vec<u32>,
    pub dynstr: Vec<u8>,
    pub gnu_hash: Vec<u8>,
    pub sysv_hash: Vec<u8>,
    /// `.gnu.version`, parallel to `.dynsym` including the null entry.
    pub versym: Vec<u16>,
    /// `.gnu.version_r` bytes, and its entry count (`DT_VERNEEDNUM`).
    pub verneed: Vec<u8>,
    pub verneed_count: u32,
    /// `.gnu.version_d` bytes and its entry count (`DT_VERDEFNUM`).
    pub verdef: Vec<u8>,
    pub verdef_count: u32,
    /// `DT_NEEDED` strings (offsets in `.dynstr`).
    pub needed: Vec<u32>,
    pub soname: Option<u32>,
    pub runpath: Option<u32>,
    /// `DT_AUDIT` and `DT_DEPAUDIT` strings (GNU ld's `--audit`, `--depaudit`).
    pub audit: Option<u32>,
    pub depaudit: Option<u32>,
    /// `DT_FILTER` and `DT_AUXILIARY` names (offsets in `.dynstr`).
    pub filters: Vec<u32>,
    pub auxiliaries: Vec<u32>,
    dynstr_index: HashMap<Vec<u8>, u32>,
}

impl DynTables {
    /// Adds a string once (lld deduplicates `.dynstr`).
    /// Empty tables: `.dynstr` starts with the empty string.
    pub fn new() -> Self {
        DynTables {
            dynstr: vec![0],
            ..Default::default()
        }
    }

    pub fn add_str(&mut self, s: &[u8]) -> u32 {
        if let Some(&off) = self.dynstr_index.get(s) {
            return off;
        }
        let off = self.dynstr.len() as u32;
        self.dynstr.extend_from_slice(s);
        self.dynstr.push(0);
        self.dynstr_index.insert(s.to_vec(), off);
        off
    }
}

#[cfg(test)]
mod tests {
    use super::StringTable;

    #[test]
    fn string_table_parts_are_written_end_to_end_at_the_offsets_given() {
        let mut t = StringTable::default();
        assert_eq!(t.append_part(b"a\0bc\0".to_vec()), 1);
        assert_eq!(t.append_part(b"de\0".to_vec()), 6);
        assert_eq!(t.append_part(Vec::new()), 9);
        assert_eq!(t.append_part(b"f\0\0".to_vec()), 9);
        assert_eq!(t.len(), 12);
        let mut buf = vec![0xffu8; t.len()];
        t.write(&mut buf).unwrap();
        assert_eq!(buf, b"\0a\0bc\0de\0f\0\0");
        assert!(t.write(&mut [0u8; 11]).is_err());
    }
}
