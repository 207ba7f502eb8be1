//! The x86-64 code rewrites lld 22 makes on input sections, decided before the output is
//! written and carried out by the writer:
//!
//! - `--branch-to-branch` (on from `-O2`): a `R_X86_64_PLT32` reference (call, jump, relative
//!   vtable slot) whose destination is an unconditional `jmp` is pointed at that jump's own
//!   destination, following up to five more jumps.
//! - `--optimize-bb-jumps`: with basic-block sections, a `jmp` ending an executable input
//!   section that only reaches the next section is deleted (the section shrinks by 5 bytes and
//!   the padding after it becomes NOPs), or, when a conditional jump right before it reaches
//!   the next section, the condition is inverted to take the `jmp`'s destination and the `jmp`
//!   goes.
//! - split stacks: in an object compiled with `-fsplit-stack` (it has `.note.GNU-split-stack`),
//!   a function that calls one compiled without it gets its stack check adjusted so the callee
//!   has room (`cmp %fs:0x70,%rsp` becomes `stc; nopl`, `lea -N(%rsp),%r10/%r11` asks for 0x4000
//!   more), and its calls to `__morestack` go to `__morestack_non_split`.
//!
//! The rewrites never change an input: they are recorded per input section ([`SectionEdits`]):
//! relocations redirected or dropped, bytes patched before relocation, bytes dropped from the
//! end. Layout reads the shrunk sizes (and symbol values and sizes past the cut, as lld's
//! `fixSymbolsAfterShrinking`), the writer applies the rest.

use crate::error::Error;
use crate::input::input_files::{FileId, SectionKind};
use crate::relocations::scan::{target_of, AddressMap};
use crate::resolve::symbol_table::SymKey;
use crate::resolve::symbol_table::SymbolDef;
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela, Sym};
use object::LittleEndian as LE;

/// A relocation's new target: symbol `sym` of `file` (a global index resolves through the
/// symbol table as usual) plus `addend`, as relocation type `r_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retarget {
    pub file: FileId,
    pub sym: u32,
    pub addend: i64,
    pub r_type: u32,
}

/// What happens to one relocation of an input section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocEdit {
    Retarget(Retarget),
    /// Not applied: its instruction was deleted.
    Drop,
}

/// The rewrites of one input section.
#[derive(Clone, Debug, Default)]
pub struct SectionEdits {
    /// By index in the section's relocations.
    pub relocs: HashMap<u32, RelocEdit>,
    /// Bytes replaced before relocations are applied: (offset, new bytes).
    pub patches: Vec<(u64, Vec<u8>)>,
    /// Bytes cut from the end of the section.
    pub dropped: u64,
}

/// Every rewrite of the link, by (file, section).
#[derive(Clone, Debug, Default)]
pub struct CodeRewrites {
    pub sections: HashMap<(FileId, u32), SectionEdits>,
    /// Some section was shrunk: symbol values and sizes must be looked at.
    any_dropped: bool,
}

/// A relocation as the rewrites so far leave it.
#[derive(Clone, Copy, Debug)]
struct EffReloc {
    offset: u64,
    r_type: u32,
    file: FileId,
    sym: u32,
    addend: i64,
}

/// How much lld asks for on top of a split-stack frame when the callee has no split stack.
const SPLIT_STACK_EXTRA: u32 = 0x4000;
/// The size of `jmp rel32`.
const JMP_SIZE: u64 = 5;
/// The size of `jcc rel32`.
const JCC_SIZE: u64 = 6;

impl CodeRewrites {
    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }

    pub fn section(&self, file: FileId, sec: u32) -> Option<&SectionEdits> {
        if self.sections.is_empty() {
            return None;
        }
        self.sections.get(&(file, sec))
    }

    /// Bytes cut from the end of input section `sec` of `file`.
    pub fn dropped(&self, file: FileId, sec: u32) -> u64 {
        if !self.any_dropped {
            return 0;
        }
        self.section(file, sec).map_or(0, |e| e.dropped)
    }

    /// A symbol's value and size once its section lost `dropped` bytes at the end, as lld's
    /// `fixSymbolsAfterShrinking`: a symbol in the cut moves back with it, one whose extent
    /// ends in the cut shrinks.
    pub fn symbol_value_size(&self, res: &Resolved, file: FileId, index: usize) -> (u64, u64) {
        let sym = &res.files[file as usize].symbols[index];
        let (value, size) = (sym.st_value(LE), sym.st_size(LE));
        if !self.any_dropped {
            return (value, size);
        }
        let Some(shndx) = res.files[file as usize].sym_section(index) else {
            return (value, size);
        };
        let dropped = self.dropped(file, shndx as u32);
        if dropped == 0 {
            return (value, size);
        }
        let old = res.files[file as usize].sections[shndx].size();
        let new = old - dropped;
        if value > new && value <= old {
            return (value - dropped, size);
        }
        let end = value.saturating_add(size);
        if end > new && value <= old && end <= old {
            // As lld, a symbol that started inside the cut wraps rather than stopping at 0.
            return (value, size.wrapping_sub(dropped));
        }
        (value, size)
    }

    fn edits_mut(&mut self, file: FileId, sec: u32) -> &mut SectionEdits {
        self.sections.entry((file, sec)).or_default()
    }

    /// Relocation `i` of section `sec` of `file` after the rewrites so far (`None`: dropped).
    fn reloc(&self, res: &Resolved, file: FileId, sec: u32, i: usize) -> Option<EffReloc> {
        let r = &res.files[file as usize].sections[sec as usize].relocs[i];
        let offset = r.r_offset(LE);
        match self
            .section(file, sec)
            .and_then(|e| e.relocs.get(&(i as u32)))
        {
            Some(RelocEdit::Drop) => None,
            Some(RelocEdit::Retarget(t)) => Some(EffReloc {
                offset,
                r_type: t.r_type,
                file: t.file,
                sym: t.sym,
                addend: t.addend,
            }),
            None => Some(EffReloc {
                offset,
                r_type: r.r_type(LE, false),
                file,
                sym: r.r_sym(LE, false),
                addend: r.r_addend(LE),
            }),
        }
    }

    /// Index of the first relocation of `sec` at `offset` (lld's lookup by position).
    fn first_reloc_at(res: &Resolved, file: FileId, sec: u32, offset: u64) -> Option<usize> {
        let s = &res.files[file as usize].sections[sec as usize];
        if s.relocs_sorted {
            let i = s.relocs.partition_point(|r| r.r_offset(LE) < offset);
            (i < s.relocs.len() && s.relocs[i].r_offset(LE) == offset).then_some(i)
        } else {
            s.relocs.iter().position(|r| r.r_offset(LE) == offset)
        }
    }

    /// Index of the last relocation of `sec` at `offset` that still applies and is not
    /// `R_X86_64_NONE` (lld's `getRelocationWithOffset`).
    fn last_live_reloc_at(
        &self,
        res: &Resolved,
        file: FileId,
        sec: u32,
        offset: u64,
    ) -> Option<usize> {
        let s = &res.files[file as usize].sections[sec as usize];
        (0..s.relocs.len()).rev().find(|&i| {
            self.reloc(res, file, sec, i)
                .is_some_and(|r| r.offset == offset && r.r_type != elf::R_X86_64_NONE)
        })
    }
}

/// Where symbol `sym` of `file` is defined in an object: (file, index), unless it may be
/// preempted or is not defined by an object.
fn definition(res: &Resolved, file: FileId, sym: u32) -> Option<(FileId, usize)> {
    match res.global_of(file, sym as usize) {
        Some(g) => {
            let s = res.symtab.get(g);
            match s.def {
                SymbolDef::Defined { file, index } if !s.preemptible => {
                    Some((file, index as usize))
                }
                _ => None,
            }
        }
        None => Some((file, sym as usize)),
    }
}

fn is_section_symbol(res: &Resolved, file: FileId, sym: u32) -> bool {
    res.global_of(file, sym as usize).is_none()
        && res.files[file as usize]
            .symbols
            .get(sym as usize)
            .is_some_and(|s| s.st_type() == elf::STT_SECTION)
}

/// The relocated `jmp rel32` at symbol `sym` of `file` plus `addend`, if that is where the
/// reference lands: lld follows only non-preemptible, non-IFUNC symbols defined in a regular,
/// executable, read-only section, and only jumps whose displacement is a `R_X86_64_PC32` or
/// `R_X86_64_PLT32` relocation. Its result carries the jump's destination, with the addend
/// made effective (+4).
fn jump_at(
    rw: &CodeRewrites,
    res: &Resolved,
    file: FileId,
    sym: u32,
    addend: i64,
) -> Option<EffReloc> {
    let (df, di) = definition(res, file, sym)?;
    let f = &res.files[df as usize];
    let s = f.symbols.get(di)?;
    if s.st_type() == elf::STT_GNU_IFUNC {
        return None;
    }
    let shndx = f.sym_section(di)?;
    let sec = f.sections.get(shndx)?;
    let flags = sec.flags();
    if sec.kind != SectionKind::Regular
        || sec.sh_type() == elf::SHT_NOBITS
        || flags & u64::from(elf::SHF_EXECINSTR) == 0
        || flags & u64::from(elf::SHF_WRITE) != 0
    {
        return None;
    }
    let at = s.st_value(LE).wrapping_add(addend as u64);
    if sec.data.get(usize::try_from(at).ok()?) != Some(&0xe9) {
        return None;
    }
    let i = CodeRewrites::first_reloc_at(res, df, shndx as u32, at + 1)?;
    let r = rw.reloc(res, df, shndx as u32, i)?;
    if r.r_type != elf::R_X86_64_PC32 && r.r_type != elf::R_X86_64_PLT32 {
        return None;
    }
    Some(r)
}

/// `--branch-to-branch`: every `R_X86_64_PLT32` reference whose destination is a `jmp` goes to
/// where the chain of jumps ends (five more at most, so a jump to itself ends it too). As in
/// lld, files and sections are visited in order and each redirection is seen by the later ones.
pub fn branch_to_branch(res: &Resolved, rw: &mut CodeRewrites) {
    for (fi, f) in res.files.iter().enumerate() {
        let fi = fi as FileId;
        for (si, s) in f.sections.iter().enumerate() {
            // lld looks at the relocations it scanned: those of live allocated sections.
            if s.kind != SectionKind::Regular || !s.is_alloc() {
                continue;
            }
            let si = si as u32;
            for ri in 0..s.relocs.len() {
                let Some(r) = rw.reloc(res, fi, si, ri) else {
                    continue;
                };
                if r.r_type != elf::R_X86_64_PLT32 {
                    continue;
                }
                // A PLT32 reference is a branch to the symbol itself whatever its addend (relative
                // vtables add the slot's offset), except that the assembler writes a branch to a
                // local label as the section symbol plus the label's offset minus 4.
                let section_sym = is_section_symbol(res, r.file, r.sym);
                let effective = if section_sym {
                    r.addend.wrapping_add(4)
                } else {
                    0
                };
                let Some(mut to) = jump_at(rw, res, r.file, r.sym, effective) else {
                    continue;
                };
                for _ in 0..5 {
                    match jump_at(rw, res, to.file, to.sym, to.addend.wrapping_add(4)) {
                        Some(next) => to = next,
                        None => break,
                    }
                }
                // The last jump's addend is its displacement's (normally -4); a reference to a
                // symbol keeps its own offset from the symbol on top of it.
                let addend = if section_sym {
                    to.addend
                } else {
                    r.addend.wrapping_add(to.addend).wrapping_add(4)
                };
                rw.edits_mut(fi, si).relocs.insert(
                    ri as u32,
                    RelocEdit::Retarget(Retarget {
                        file: to.file,
                        sym: to.sym,
                        addend,
                        r_type: r.r_type,
                    }),
                );
            }
        }
    }
}

/// The address a branch relocation reaches (symbol plus addend; the PLT entry of a preemptible
/// symbol, the IPLT entry of an IFUNC), as lld's `getRelocTargetVA` plus P.
fn branch_destination(res: &Resolved, map: &dyn AddressMap, r: &EffReloc) -> u64 {
    let t = target_of(res, r.file, r.sym as usize);
    if t.preemptible {
        if let SymKey::Global(g) = t.key {
            if let Some(l) = map.plt_entry_address(g) {
                return l.wrapping_add(r.addend as u64);
            }
        }
    }
    if t.ifunc {
        if let Some(v) = map.iplt_entry_address(t.key) {
            return v.wrapping_add(r.addend as u64);
        }
    }
    map.symbol_address(r.file, r.sym as usize, r.addend)
}

/// The inverse of a `jcc rel32` (second opcode byte), for the ten conditions lld flips.
fn inverted_jcc(op: u8) -> Option<u8> {
    Some(match op {
        0x84 => 0x85, // je -> jne
        0x85 => 0x84,
        0x8f => 0x8e, // jg -> jle
        0x8e => 0x8f,
        0x8d => 0x8c, // jge -> jl
        0x8c => 0x8d,
        0x82 => 0x83, // jb -> jae
        0x83 => 0x82,
        0x86 => 0x87, // jbe -> ja
        0x87 => 0x86,
        _ => return None,
    })
}

/// An input section of an executable output section followed there by another chunk, as a
/// first layout placed them: where it starts and where the next chunk starts.
#[derive(Clone, Copy, Debug)]
pub struct FallThrough {
    pub file: FileId,
    pub sec: u32,
    pub size: u64,
    pub base: u64,
    pub next_addr: u64,
}

/// `--optimize-bb-jumps`, decided on the addresses of a first layout (lld's first
/// `assignAddresses`): an input section ending in a `jmp` to the start of the next section
/// loses it; if instead a `jcc` right before that `jmp` reaches the next section, the `jcc` is
/// inverted to go where the `jmp` went and the `jmp` is deleted. Returns whether anything
/// changed (the caller then lays the output out again).
pub fn optimize_bb_jumps(
    res: &Resolved,
    map: &dyn AddressMap,
    neighbours: &[FallThrough],
    rw: &mut CodeRewrites,
) -> bool {
    let mut changed = false;
    for n in neighbours {
        if delete_fall_through_jmp(res, map, rw, n.file, n.sec, n.size, n.base, n.next_addr) {
            changed = true;
        }
    }
    if changed {
        rw.any_dropped = true;
    }
    changed
}

#[allow(clippy::too_many_arguments)]
fn delete_fall_through_jmp(
    res: &Resolved,
    map: &dyn AddressMap,
    rw: &mut CodeRewrites,
    file: FileId,
    sec: u32,
    size: u64,
    base: u64,
    next_addr: u64,
) -> bool {
    if size < JMP_SIZE {
        return false;
    }
    let data = res.files[file as usize].sections[sec as usize].data;
    let Some(ri) = rw.last_live_reloc_at(res, file, sec, size - 4) else {
        return false;
    };
    let Some(r) = rw.reloc(res, file, sec, ri) else {
        return false;
    };
    if data.get((r.offset - 1) as usize) != Some(&0xe9) {
        return false;
    }
    // lld's test: a PC-relative branch relocation whose destination is the next section's start.
    let falls_through = |r: &EffReloc| {
        matches!(
            r.r_type,
            elf::R_X86_64_PLT32 | elf::R_X86_64_PC32 | elf::R_X86_64_PC8
        ) && branch_destination(res, map, r).wrapping_add(4) == next_addr
    };
    let _ = base;
    if falls_through(&r) {
        let e = rw.edits_mut(file, sec);
        e.relocs.insert(ri as u32, RelocEdit::Drop);
        e.dropped = JMP_SIZE;
        return true;
    }
    if size < JMP_SIZE + JCC_SIZE {
        return false;
    }
    let Some(bi) = rw.last_live_reloc_at(res, file, sec, size - JMP_SIZE - 4) else {
        return false;
    };
    let Some(rb) = rw.reloc(res, file, sec, bi) else {
        return false;
    };
    let (Some(&first), Some(&second)) = (
        data.get((rb.offset - 2) as usize),
        data.get((rb.offset - 1) as usize),
    ) else {
        return false;
    };
    if first != 0x0f || !falls_through(&rb) {
        return false;
    }
    let Some(inverted) = inverted_jcc(second) else {
        return false;
    };
    let e = rw.edits_mut(file, sec);
    e.patches.push((rb.offset - 2, vec![0x0f, inverted]));
    // The conditional jump now goes where the deleted `jmp` went.
    e.relocs.insert(
        bi as u32,
        RelocEdit::Retarget(Retarget {
            file: r.file,
            sym: r.sym,
            addend: r.addend,
            r_type: r.r_type,
        }),
    );
    e.relocs.insert(ri as u32, RelocEdit::Drop);
    e.dropped = JMP_SIZE;
    true
}

/// Which objects were compiled with `-fsplit-stack` (`.note.GNU-split-stack`) and which of
/// those have some function without it (`.note.GNU-no-split-stack`).
fn split_stack_files(res: &Resolved) -> (Vec<bool>, Vec<bool>) {
    res.files
        .iter()
        .map(|f| (f.markers.split_stack, f.markers.no_split_stack))
        .unzip()
}

/// A function symbol defined in section `sec` of `file` (value, size, name), as lld's
/// `getEnclosingFunction`: the first in the file's symbol table whose extent holds `offset`
/// (a global counts only where its winning definition is this one).
fn enclosing_function(
    res: &Resolved,
    rw: &CodeRewrites,
    file: FileId,
    sec: u32,
    offset: u64,
) -> Option<(usize, u64, u64)> {
    let f = &res.files[file as usize];
    (0..f.symbols.len()).find_map(|i| {
        let (df, di) = match res.global_of(file, i) {
            Some(g) => match res.symtab.get(g).def {
                SymbolDef::Defined { file, index } => (file, index as usize),
                _ => return None,
            },
            None => (file, i),
        };
        if df != file {
            return None;
        }
        let s = &f.symbols[di];
        if f.sym_section(di) != Some(sec as usize) || s.st_type() != elf::STT_FUNC {
            return None;
        }
        let (v, size) = rw.symbol_value_size(res, file, di);
        (v <= offset && offset < v.saturating_add(size)).then_some((di, v, size))
    })
}

/// lld's x86-64 prologue adjustment for a split-stack function calling a non-split-stack one,
/// on the section's bytes (`end`: its size). `None` when the prologue is not one it knows.
fn adjusted_prologue(data: &[u8], at: u64, end: u64) -> Option<Vec<u8>> {
    if at.saturating_add(8) >= end {
        return None;
    }
    let code = data.get(at as usize..(at + 8) as usize)?;
    // `cmp %fs:0x70,%rsp` (and the branch on it) becomes `stc; nopl 0(%rax,%rax,1)`: the carry
    // makes gcc's `jb`/`jae` always call __morestack, which then allocates a large stack.
    if code.starts_with(&[0x64, 0x48, 0x3b, 0x24, 0x25]) {
        return Some(vec![0xf9, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00]);
    }
    // `lea -N(%rsp),%r10` / `%r11` feeds the comparison: asking for 0x4000 more bytes leaves the
    // callee that much room.
    if code.starts_with(&[0x4c, 0x8d, 0x94, 0x24]) || code.starts_with(&[0x4c, 0x8d, 0x9c, 0x24]) {
        let n = u32::from_le_bytes([code[4], code[5], code[6], code[7]]);
        let mut out = code[..4].to_vec();
        out.extend_from_slice(&n.wrapping_sub(SPLIT_STACK_EXTRA).to_le_bytes());
        return Some(out);
    }
    None
}

/// Split-stack prologues: for every executable section of a `-fsplit-stack` object, each
/// function that calls a function not known to be split-stack (defined by an object without
/// `.note.GNU-split-stack`, or by a shared library, or undefined) gets its prologue adjusted,
/// and its calls to `__morestack` go to `__morestack_non_split`. Errors in lld's words.
pub fn adjust_split_stack(
    res: &Resolved,
    rewrites: &CodeRewrites,
) -> std::result::Result<CodeRewrites, Vec<Error>> {
    let mut rw = rewrites.clone();
    let (split, some_no_split) = split_stack_files(res);
    if !split.iter().any(|&s| s) {
        return Ok(rw);
    }
    let mut errors = Vec::new();
    for (fi, f) in res.files.iter().enumerate() {
        if !split[fi] {
            continue;
        }
        let fi = fi as FileId;
        for (si, s) in f.sections.iter().enumerate() {
            if s.kind != SectionKind::Regular || s.flags() & u64::from(elf::SHF_EXECINSTR) == 0 {
                continue;
            }
            errors.extend(adjust_section(
                res,
                &mut rw,
                fi,
                si as u32,
                &split,
                some_no_split[fi as usize],
            ));
        }
    }
    if errors.is_empty() {
        Ok(rw)
    } else {
        Err(errors)
    }
}

fn symbol_name(res: &Resolved, file: FileId, sym: u32) -> &'static [u8] {
    match res.global_of(file, sym as usize) {
        Some(g) => res.symtab.get(g).name,
        None => res.files[file as usize].sym_name(sym as usize),
    }
}

/// Whether a call to symbol `sym` of `file` may reach code compiled without split stacks: a
/// function, unless lld knows it comes from a section of a split-stack object.
fn callee_may_not_split(res: &Resolved, file: FileId, sym: u32, split: &[bool]) -> bool {
    let (def, ty) = match res.global_of(file, sym as usize) {
        Some(g) => {
            let s = res.symtab.get(g);
            match s.def {
                SymbolDef::Defined { file, index } => (
                    Some((file, index as usize)),
                    res.files[file as usize].symbols[index as usize].st_type(),
                ),
                // Linker-made symbols live in synthetic sections, which lld does not question.
                SymbolDef::Synthetic | SymbolDef::Common { .. } => return false,
                _ => (None, s.sym_type),
            }
        }
        None => (
            Some((file, sym as usize)),
            res.files[file as usize].symbols[sym as usize].st_type(),
        ),
    };
    if ty != elf::STT_FUNC {
        return false;
    }
    match def {
        Some((df, di)) => {
            // An absolute definition has no file to vouch for it.
            res.files[df as usize].sym_section(di).is_none() || !split[df as usize]
        }
        None => true,
    }
}

fn adjust_section(
    res: &Resolved,
    rw: &mut CodeRewrites,
    file: FileId,
    sec: u32,
    split: &[bool],
    some_no_split: bool,
) -> Vec<Error> {
    let f = &res.files[file as usize];
    let s = &f.sections[sec as usize];
    let end = s.size() - rw.dropped(file, sec);
    // Functions whose prologue was looked at: (symbol index, value, size).
    let mut prologues: Vec<(usize, u64, u64)> = Vec::new();
    let mut morestack_calls: Vec<(u64, usize)> = Vec::new();
    let mut patches = Vec::new();
    let mut errors = Vec::new();
    for ri in 0..s.relocs.len() {
        let Some(r) = rw.reloc(res, file, sec, ri) else {
            continue;
        };
        if r.r_type == elf::R_X86_64_NONE {
            continue;
        }
        let name = symbol_name(res, r.file, r.sym);
        // Calls into the split-stack runtime are not calls to non-split-stack code.
        if name.starts_with(b"__morestack") {
            if name == b"__morestack" {
                morestack_calls.push((r.offset, ri));
            }
            continue;
        }
        if !callee_may_not_split(res, r.file, r.sym, split) {
            continue;
        }
        if prologues
            .iter()
            .any(|&(_, v, size)| v <= r.offset && r.offset < v + size)
        {
            continue;
        }
        let Some((fsym, v, size)) = enclosing_function(res, rw, file, sec, r.offset) else {
            continue;
        };
        prologues.push((fsym, v, size));
        if let Some(bytes) = adjusted_prologue(s.data, v, end) {
            patches.push((v, bytes));
            continue;
        }
        // As lld, one error per function, and the link goes on to find the others.
        if !some_no_split {
            errors.push(crate::err!(
                "{}:({}): {} (with -fsplit-stack) calls {} (without -fsplit-stack), but couldn't adjust its prologue",
                f.name,
                s.name_str(),
                String::from_utf8_lossy(f.sym_name(fsym)),
                String::from_utf8_lossy(name)
            ));
        }
    }
    // lld looks `__morestack_non_split` up for every such section, adjusted or not.
    let missing =
        || crate::err!("mixing split-stack objects requires a definition of __morestack_non_split");
    let Some(non_split) = res.symtab.lookup(b"__morestack_non_split") else {
        errors.push(missing());
        return errors;
    };
    if prologues.is_empty() || !errors.is_empty() {
        return errors;
    }
    let non_split = match res.symtab.get(non_split).def {
        SymbolDef::Defined { file, index } => (file, index),
        // lld would call address 0; refuse instead.
        _ => {
            errors.push(missing());
            return errors;
        }
    };
    morestack_calls.sort_by_key(|&(off, _)| off);
    let mut redirected = Vec::new();
    for &(_, v, size) in &prologues {
        for &(off, ri) in &morestack_calls {
            if v <= off && off < v + size {
                redirected.push(ri);
            }
        }
    }
    let e = rw.edits_mut(file, sec);
    e.patches.extend(patches);
    for ri in redirected {
        let r = &s.relocs[ri];
        let old = match e.relocs.get(&(ri as u32)) {
            Some(RelocEdit::Retarget(t)) => (t.addend, t.r_type),
            _ => (r.r_addend(LE), r.r_type(LE, false)),
        };
        e.relocs.insert(
            ri as u32,
            RelocEdit::Retarget(Retarget {
                file: non_split.0,
                sym: non_split.1,
                addend: old.0,
                r_type: old.1,
            }),
        );
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jcc_inversions_are_involutions() {
        for op in [0x82u8, 0x83, 0x84, 0x85, 0x86, 0x87, 0x8c, 0x8d, 0x8e, 0x8f] {
            let inv = inverted_jcc(op).unwrap_or(0);
            assert_eq!(inverted_jcc(inv), Some(op));
        }
        // js/jns, jo/jno, jp/jnp are not flipped by lld.
        for op in [0x80u8, 0x81, 0x88, 0x89, 0x8a, 0x8b] {
            assert_eq!(inverted_jcc(op), None);
        }
    }

    #[test]
    fn prologue_forms() {
        let cmp = [0x64, 0x48, 0x3b, 0x24, 0x25, 0x70, 0, 0, 0, 0x72, 0x11];
        assert_eq!(
            adjusted_prologue(&cmp, 0, cmp.len() as u64),
            Some(vec![0xf9, 0x0f, 0x1f, 0x84, 0, 0, 0, 0])
        );
        let lea = [0x4c, 0x8d, 0x9c, 0x24, 0xf8, 0xdf, 0xff, 0xff, 0x64];
        assert_eq!(
            adjusted_prologue(&lea, 0, lea.len() as u64),
            Some(vec![0x4c, 0x8d, 0x9c, 0x24, 0xf8, 0x9f, 0xff, 0xff])
        );
        // Too close to the end of the section, or another instruction.
        assert_eq!(adjusted_prologue(&lea, 0, 8), None);
        assert_eq!(adjusted_prologue(&[0x90; 16], 0, 16), None);
        assert_eq!(adjusted_prologue(&cmp, 4, cmp.len() as u64), None);
    }
}
