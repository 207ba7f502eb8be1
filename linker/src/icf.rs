//! Identical code folding (`--icf=all|safe`) with ld.lld 22's rules: input sections with the
//! same flags, output section, contents and relocations (the same types, offsets and addends,
//! and targets that are the same symbol or lie at the same offset of sections that are
//! themselves identical) are folded into the first of them. Equality of targets is found by
//! the optimistic partition refinement lld uses: classes start from a hash of the contents and
//! are split until relocation targets agree, which folds mutually recursive functions too.
//!
//! Folding runs after `--gc-sections` and leaves the liveness graph and its reports alone: a
//! folded section becomes [`SectionKind::Folded`], its symbols keep their definitions and only
//! their addresses move (layout gives a folded section the address of the one kept), and its
//! `.eh_frame` FDE is dropped like a collected section's.

use crate::config::{Config, IcfLevel};
use crate::input::eh_frame;
use crate::input::input_files::{FileId, ObjectFile, SectionKind};
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela as _, SectionHeader as _, Sym as _};
use object::LittleEndian as LE;
use rayon::prelude::*;
use std::fmt::Write as _;

use crate::input::input_files::SHT_LLVM_ADDRSIG;

/// What folding decided: which sections were folded into which, and the alignment a kept
/// section needs so that it still satisfies everything folded into it.
#[derive(Default, Debug)]
pub struct Folding {
    /// Folded section -> the section kept in its place.
    pub repl: HashMap<(FileId, u32), (FileId, u32)>,
    /// Kept sections whose alignment grew to that of a section folded into them.
    pub align: HashMap<(FileId, u32), u64>,
}

impl Folding {
    /// The alignment section `(file, sec)` is placed with (`own`: its header's).
    pub fn align_of(&self, file: FileId, sec: u32, own: u64) -> u64 {
        // Asked for every placed section; without `--icf` nothing is folded.
        if self.align.is_empty() {
            return own;
        }
        self.align.get(&(file, sec)).map_or(own, |&a| a.max(own))
    }
}

/// What a relocation refers to, as folding compares it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Target {
    /// A symbol defined in section `sec` of `file`, at `value`. `id` names the symbol itself
    /// (the global, or the file and index of a local one): two references to the very same
    /// symbol are equal whatever its section.
    InSection {
        id: (Option<SymbolId>, FileId, u32),
        file: FileId,
        sec: u32,
        value: u64,
        is_section_sym: bool,
        preemptible: bool,
        local: bool,
        tls: bool,
    },
    /// An absolute value (`SHN_ABS`) defined by an object.
    Absolute {
        id: (Option<SymbolId>, FileId, u32),
        value: u64,
    },
    /// A common symbol (its own section, never folded).
    Common(SymbolId),
    /// Anything else (undefined, shared, linker-defined, `--defsym`): equal only to itself.
    Other((Option<SymbolId>, FileId, u32)),
}

impl Target {
    fn identity(&self) -> (Option<SymbolId>, FileId, u32) {
        match *self {
            Target::InSection { id, .. } | Target::Absolute { id, .. } | Target::Other(id) => id,
            Target::Common(g) => (Some(g), 0, 0),
        }
    }
}

fn target(res: &Resolved, file: FileId, index: usize) -> Target {
    let global = res.global_of(file, index);
    let id = match global {
        Some(g) => (Some(g), 0, 0),
        None => (None, file, index as u32),
    };
    let (df, di, preemptible) = match global {
        Some(g) => {
            let s = res.symtab.get(g);
            match s.def {
                SymbolDef::Defined { file, index } => (file, index as usize, s.preemptible),
                SymbolDef::Common { .. } => return Target::Common(g),
                _ => return Target::Other(id),
            }
        }
        None => (file, index, false),
    };
    let f = &res.files[df as usize];
    let Some(sym) = f.symbols.get(di) else {
        return Target::Other(id);
    };
    let shndx = sym.st_shndx(LE);
    if shndx == elf::SHN_ABS {
        return Target::Absolute {
            id,
            value: sym.st_value(LE),
        };
    }
    let Some(shndx) = f.sym_section(di).filter(|&s| s < f.sections.len()) else {
        return Target::Other(id);
    };
    Target::InSection {
        id,
        file: df,
        sec: shndx as u32,
        value: sym.st_value(LE),
        is_section_sym: sym.st_type() == elf::STT_SECTION,
        preemptible,
        local: global.is_none(),
        tls: sym.st_type() == elf::STT_TLS,
    }
}

/// Relocations with a side effect of their own (a GOT slot, TLS): lld's non-trivial ones.
fn non_trivial(r_type: u32, t: &Target) -> bool {
    let tls = matches!(t, Target::InSection { tls: true, .. });
    tls || matches!(
        r_type,
        elf::R_X86_64_GOT32
            | elf::R_X86_64_GOTPCREL
            | elf::R_X86_64_GOTPCRELX
            | elf::R_X86_64_REX_GOTPCRELX
            | elf::R_X86_64_GOTPCREL64
            | elf::R_X86_64_GOT64
            | elf::R_X86_64_GOTPLT64
            | elf::R_X86_64_TLSGD
            | elf::R_X86_64_TLSLD
            | elf::R_X86_64_GOTTPOFF
            | elf::R_X86_64_GOTPC32_TLSDESC
            | elf::R_X86_64_TLSDESC_CALL
    )
}

/// lld never folds a section named like a C identifier: `__start_`/`__stop_` may enumerate it.
fn is_c_identifier(s: &[u8]) -> bool {
    !s.is_empty()
        && !s[0].is_ascii_digit()
        && s.iter().all(|&c| c == b'_' || c.is_ascii_alphanumeric())
}

/// Flat numbering of every input section, so classes live in one vector.
struct Index {
    base: Vec<usize>,
}

impl Index {
    fn new(res: &Resolved) -> Self {
        let mut base = Vec::with_capacity(res.files.len() + 1);
        let mut n = 0;
        for f in &res.files {
            base.push(n);
            n += f.sections.len();
        }
        base.push(n);
        Index { base }
    }
    fn of(&self, file: FileId, sec: u32) -> usize {
        self.base[file as usize] + sec as usize
    }
    fn total(&self) -> usize {
        self.base.last().copied().unwrap_or(0)
    }
}

/// Marks the sections lld keeps unique: those `--keep-unique` names, and (unless
/// `--icf=all --ignore-data-address-equality`) those whose address may be significant: defining
/// an exported symbol or one an object's `.llvm_addrsig` lists (every symbol of an object without
/// that table). Under `--icf=all` only data sections are kept unique that way.
fn keep_unique(config: &Config, res: &Resolved, idx: &Index) -> Vec<bool> {
    let mut keep = vec![false; idx.total()];
    for name in &config.keep_unique {
        let sec = res
            .symtab
            .lookup(name.as_bytes())
            .and_then(|g| match res.symtab.get(g).def {
                SymbolDef::Defined { file, index } => res.files[file as usize]
                    .sym_section(index as usize)
                    .map(|sh| (file, sh as u32)),
                _ => None,
            });
        match sec {
            Some((file, sh)) => keep[idx.of(file, sh)] = true,
            None => crate::error::print_diagnostic(
                "warning",
                &format!("could not find symbol {name} to keep unique"),
            ),
        }
    }
    if config.icf == IcfLevel::All && config.ignore_data_address_equality {
        return keep;
    }
    let safe = config.icf == IcfLevel::Safe;
    let mut mark = |t: Target| {
        if let Target::InSection { file, sec, .. } = t {
            let s = &res.files[file as usize].sections[sec as usize];
            if safe || s.flags() & u64::from(elf::SHF_EXECINSTR) == 0 {
                keep[idx.of(file, sec)] = true;
            }
        }
    };
    for s in res.symtab.symbols.iter().filter(|s| s.in_dynsym) {
        if let SymbolDef::Defined { file, index } = s.def {
            mark(target(res, file, index as usize));
        }
    }
    for (fi, f) in res.files.iter().enumerate() {
        let fi = fi as FileId;
        match addrsig_table(config, f) {
            Some(data) => {
                for index in addrsig_indices(data) {
                    if (index as usize) < f.symbols.len() {
                        mark(target(res, fi, index as usize));
                    }
                }
            }
            None => {
                for i in 1..f.symbols.len() {
                    mark(target(res, fi, i));
                }
            }
        }
    }
    keep
}

/// The object's `.llvm_addrsig` contents, when they can be trusted: a table whose `sh_link` is
/// 0 was rewritten by a tool that does not know it (objcopy, `ld -r`), so lld ignores it.
fn addrsig_table(config: &Config, f: &ObjectFile) -> Option<&'static [u8]> {
    let (i, s) = f
        .sections
        .iter()
        .enumerate()
        .find(|(_, s)| s.sh_type() == SHT_LLVM_ADDRSIG)?;
    if s.shdr.sh_link(LE) == 0 {
        if config.icf == IcfLevel::Safe {
            crate::error::print_diagnostic(
                "warning",
                &format!(
                    "{}: --icf=safe conservatively ignores SHT_LLVM_ADDRSIG [index {i}] with \
                     sh_link=0 (likely created using objcopy or ld -r)",
                    f.name
                ),
            );
        }
        return None;
    }
    Some(s.data)
}

/// The symbol indices an `.llvm_addrsig` table lists, in order (ULEB128 numbers).
pub fn addrsig_indices(data: &[u8]) -> impl Iterator<Item = u64> + '_ {
    let mut cur = data;
    std::iter::from_fn(move || {
        let (v, rest) = read_uleb(cur)?;
        cur = rest;
        Some(v)
    })
}

fn read_uleb(data: &[u8]) -> Option<(u64, &[u8])> {
    let mut v = 0u64;
    let mut shift = 0;
    for (i, &b) in data.iter().enumerate() {
        if shift < 64 {
            v |= u64::from(b & 0x7f) << shift;
        }
        shift += 7;
        if b & 0x80 == 0 {
            return Some((v, &data[i + 1..]));
        }
    }
    None
}

/// Sections named by a live FDE whose CIE has an LSDA: two functions with the same code may
/// catch different exceptions, so lld never folds them (it does not compare the tables).
fn sections_with_lsda(res: &Resolved) -> Vec<(FileId, u32)> {
    let mut out = Vec::new();
    for (fi, f) in res.files.iter().enumerate() {
        let fi = fi as FileId;
        for s in f.sections.iter().filter(|s| s.kind == SectionKind::EhFrame) {
            let Ok(records) = eh_frame::split_eh_frame(s.data) else {
                continue;
            };
            let mut lsda_cies = Vec::new();
            for rec in &records {
                match rec.kind {
                    eh_frame::EhRecordKind::Cie => {
                        if eh_frame::parse_cie(rec.bytes(s.data)).is_ok_and(|c| c.has_lsda()) {
                            lsda_cies.push(rec.offset);
                        }
                    }
                    eh_frame::EhRecordKind::Fde { cie_offset } => {
                        if !lsda_cies.contains(&cie_offset) {
                            continue;
                        }
                        let start = u64::from(rec.offset);
                        let rels = s.relocs_in(start, rec.end());
                        let Some(r) = rels.iter().find(|r| r.r_offset(LE) == start + 8) else {
                            continue;
                        };
                        if let Target::InSection { file, sec, .. } =
                            target(res, fi, r.r_sym(LE, false) as usize)
                        {
                            let k = res.files[file as usize].sections[sec as usize].kind;
                            if k == SectionKind::Regular {
                                out.push((file, sec));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Whether lld would consider folding the section at all.
fn eligible(f: &ObjectFile, si: usize) -> bool {
    let s = &f.sections[si];
    if s.kind != SectionKind::Regular || !s.is_alloc() {
        return false;
    }
    let name = s.name;
    // `.data.rel.ro` is writable only to be relocated; it is read-only data otherwise.
    if s.flags() & u64::from(elf::SHF_WRITE) != 0
        && name != b".data.rel.ro"
        && !name.starts_with(b".data.rel.ro.")
    {
        return false;
    }
    if s.flags() & u64::from(elf::SHF_LINK_ORDER) != 0 {
        return false;
    }
    name != b".init" && name != b".fini" && !is_c_identifier(name)
}

/// One candidate: its section and the targets of its relocations, resolved once.
struct Candidate {
    file: FileId,
    sec: u32,
    targets: Vec<Target>,
}

/// Where a reference into a `SHF_MERGE` section ends up, as far as folding can tell before
/// pieces are merged: equal keys land at the same output address.
fn merge_key(
    res: &Resolved,
    file: FileId,
    sec: u32,
    at: u64,
) -> (&'static str, u64, u64, u64, &'static [u8], u64) {
    let s = &res.files[file as usize].sections[sec as usize];
    let ent = s.shdr.sh_entsize(LE).max(1);
    let data = s.data;
    let at_us = (at as usize).min(data.len());
    let (start, end) = if s.flags() & u64::from(elf::SHF_STRINGS) != 0 {
        // A string: from after the previous terminator to its own (entsize-wide units).
        let e = ent as usize;
        let mut st = at_us - at_us % e;
        while st >= e && data[st - e..st].iter().any(|&b| b != 0) {
            st -= e;
        }
        let mut en = at_us - at_us % e;
        while en + e <= data.len() && data[en..en + e].iter().any(|&b| b != 0) {
            en += e;
        }
        (st, (en + e).min(data.len()))
    } else {
        let st = at_us - at_us % ent as usize;
        (st, (st + ent as usize).min(data.len()))
    };
    (
        s.output_name(),
        s.flags(),
        ent,
        s.align(),
        &data[start..end],
        at - start as u64,
    )
}

/// Everything of two candidates but the classes of their targets (lld's `equalsConstant`).
fn equal_constant(res: &Resolved, a: &Candidate, b: &Candidate) -> bool {
    let fa = &res.files[a.file as usize];
    let fb = &res.files[b.file as usize];
    let sa = &fa.sections[a.sec as usize];
    let sb = &fb.sections[b.sec as usize];
    if sa.flags() != sb.flags()
        || sa.size() != sb.size()
        || sa.data != sb.data
        || sa.output_name() != sb.output_name()
        || sa.sh_type() != sb.sh_type()
        || sa.relocs.len() != sb.relocs.len()
    {
        return false;
    }
    for ((ra, rb), (ta, tb)) in sa
        .relocs
        .iter()
        .zip(sb.relocs)
        .zip(a.targets.iter().zip(&b.targets))
    {
        let ty = ra.r_type(LE, false);
        if ra.r_offset(LE) != rb.r_offset(LE) || ty != rb.r_type(LE, false) {
            return false;
        }
        let (add_a, add_b) = (ra.r_addend(LE), rb.r_addend(LE));
        if ta.identity() == tb.identity() {
            if add_a == add_b {
                continue;
            }
            return false;
        }
        match (*ta, *tb) {
            (Target::Absolute { value: va, .. }, Target::Absolute { value: vb, .. }) => {
                if va.wrapping_add(add_a as u64) != vb.wrapping_add(add_b as u64) {
                    return false;
                }
            }
            (
                Target::InSection {
                    file: xf,
                    sec: xs,
                    value: va,
                    is_section_sym: sec_a,
                    preemptible: pa,
                    ..
                },
                Target::InSection {
                    file: yf,
                    sec: ys,
                    value: vb,
                    is_section_sym: sec_b,
                    preemptible: pb,
                    ..
                },
            ) => {
                // A preemptible target may be another module's at run time.
                if pa || pb {
                    return false;
                }
                let kx = res.files[xf as usize].sections[xs as usize].kind;
                let ky = res.files[yf as usize].sections[ys as usize].kind;
                let merge_x = kx == SectionKind::Merge;
                if merge_x != (ky == SectionKind::Merge) {
                    return false;
                }
                if merge_x {
                    let key = |f, s, v: u64, is_sec, add: i64| {
                        if is_sec {
                            (merge_key(res, f, s, v.wrapping_add(add as u64)), 0)
                        } else {
                            (merge_key(res, f, s, v), add)
                        }
                    };
                    if key(xf, xs, va, sec_a, add_a) != key(yf, ys, vb, sec_b, add_b) {
                        return false;
                    }
                } else {
                    if va.wrapping_add(add_a as u64) != vb.wrapping_add(add_b as u64) {
                        return false;
                    }
                    if non_trivial(ty, ta) && add_a != add_b {
                        return false;
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

/// The relocation targets' classes (lld's `equalsVariable`), `class` being the current one of
/// every section (a unique id for sections that are not candidates).
fn equal_variable(
    res: &Resolved,
    idx: &Index,
    class: &[u32],
    a: &Candidate,
    b: &Candidate,
) -> bool {
    let sa = &res.files[a.file as usize].sections[a.sec as usize];
    for (r, (ta, tb)) in sa.relocs.iter().zip(a.targets.iter().zip(&b.targets)) {
        if ta.identity() == tb.identity() {
            continue;
        }
        if let (
            Target::InSection {
                file: xf,
                sec: xs,
                local: la,
                ..
            },
            Target::InSection {
                file: yf,
                sec: ys,
                local: lb,
                ..
            },
        ) = (*ta, *tb)
        {
            // Local symbols are never merged with globals when a GOT slot or TLS is involved.
            if (la || lb) && non_trivial(r.r_type(LE, false), ta) {
                return false;
            }
            if res.files[xf as usize].sections[xs as usize].kind == SectionKind::Merge {
                continue;
            }
            // Class 0 is no section lld compares (a discarded copy, `.eh_frame`): different
            // symbols there are never the same target.
            let cx = class[idx.of(xf, xs)];
            if cx == 0 || cx != class[idx.of(yf, ys)] {
                return false;
            }
        }
    }
    true
}

/// Splits `members` (candidate indices in order) into runs equal to their first, in order of
/// first appearance (lld's `segregate`, whose order decides which section is kept).
fn split(members: &[usize], eq: impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut rest: Vec<usize> = members.to_vec();
    let mut out = Vec::new();
    while let Some(&first) = rest.first() {
        let (same, other): (Vec<usize>, Vec<usize>) =
            rest.iter().partition(|&&m| m == first || eq(first, m));
        out.push(same);
        rest = other;
    }
    out
}

/// Folds identical sections as `config.icf` asks: the folded sections become
/// `SectionKind::Folded`, and what folding decided is returned with what `--print-icf-sections`
/// prints (lld's lines, on stdout).
pub fn fold(config: &Config, res: &mut Resolved) -> (Folding, String) {
    if config.icf == IcfLevel::None {
        return (Folding::default(), String::new());
    }
    let idx = Index::new(res);
    let keep = keep_unique(config, res, &idx);
    let mut class = vec![0u32; idx.total()];
    // Ineligible sections each get a class of their own, numbered as lld numbers them (those
    // with an LSDA first): these numbers enter the candidates' hashes, which order the report.
    let mut unique = 0u32;
    for (f, s) in sections_with_lsda(res) {
        let c = &mut class[idx.of(f, s)];
        if *c == 0 {
            unique += 1;
            *c = unique;
        }
    }
    let mut candidates: Vec<Candidate> = Vec::new();
    for (fi, f) in res.files.iter().enumerate() {
        for si in 0..f.sections.len() {
            let i = idx.of(fi as FileId, si as u32);
            if class[i] != 0 {
                continue;
            }
            if eligible(f, si) && !keep[i] {
                candidates.push(Candidate {
                    file: fi as FileId,
                    sec: si as u32,
                    targets: Vec::new(),
                });
            } else if matches!(
                f.sections[si].kind,
                SectionKind::Regular | SectionKind::Garbage
            ) {
                unique += 1;
                class[i] = unique;
            }
        }
    }
    let common_class: HashMap<SymbolId, u32> = res
        .commons_in_order()
        .into_iter()
        .map(|g| {
            unique += 1;
            (g, unique)
        })
        .collect();
    let res_ref: &Resolved = res;
    candidates.par_iter_mut().for_each(|c| {
        let f = &res_ref.files[c.file as usize];
        c.targets = f.sections[c.sec as usize]
            .relocs
            .iter()
            .map(|r| target(res_ref, c.file, r.r_sym(LE, false) as usize))
            .collect();
    });

    // The hash lld starts from: the contents, then twice the classes of the targets added in.
    let mut hash: Vec<u32> = candidates
        .par_iter()
        .map(|c| {
            let s = &res_ref.files[c.file as usize].sections[c.sec as usize];
            (xxhash_rust::xxh3::xxh3_64(s.data) as u32) | 1 << 31
        })
        .collect();
    for (c, &h) in candidates.iter().zip(&hash) {
        class[idx.of(c.file, c.sec)] = h;
    }
    let target_class = |class: &[u32], t: &Target| -> u32 {
        match *t {
            Target::InSection { file, sec, .. } => {
                let k = res_ref.files[file as usize].sections[sec as usize].kind;
                if matches!(k, SectionKind::Regular | SectionKind::Garbage) {
                    class[idx.of(file, sec)]
                } else {
                    0
                }
            }
            Target::Common(g) => common_class.get(&g).copied().unwrap_or(0),
            _ => 0,
        }
    };
    for _ in 0..2 {
        hash = candidates
            .par_iter()
            .map(|c| {
                let own = class[idx.of(c.file, c.sec)];
                let h = c
                    .targets
                    .iter()
                    .fold(own, |h, t| h.wrapping_add(target_class(&class, t)));
                h | 1 << 31
            })
            .collect();
        for (c, &h) in candidates.iter().zip(&hash) {
            class[idx.of(c.file, c.sec)] = h;
        }
    }

    // Classes in lld's order: by hash, then by input order within.
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by_key(|&i| hash[i]);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if hash[g[0]] == hash[i] => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut groups: Vec<Vec<usize>> = groups
        .into_par_iter()
        .flat_map_iter(|g| {
            split(&g, |a, b| {
                equal_constant(res_ref, &candidates[a], &candidates[b])
            })
        })
        .collect();
    // Refine until relocation targets agree. Each round reads one snapshot of the classes, so
    // classes split in parallel and the result does not depend on the thread count.
    let base = unique + 1;
    loop {
        for (gi, g) in groups.iter().enumerate() {
            for &m in g {
                let c = &candidates[m];
                class[idx.of(c.file, c.sec)] = base.wrapping_add(gi as u32);
            }
        }
        let before = groups.len();
        let snapshot = &class;
        groups = groups
            .into_par_iter()
            .flat_map_iter(|g| {
                if g.len() == 1 {
                    return vec![g];
                }
                split(&g, |a, b| {
                    equal_variable(res_ref, &idx, snapshot, &candidates[a], &candidates[b])
                })
            })
            .collect();
        if groups.len() == before {
            break;
        }
    }

    let mut report = String::new();
    let mut folding = Folding::default();
    for g in groups.iter().filter(|g| g.len() > 1) {
        let kept = &candidates[g[0]];
        let kf = &res.files[kept.file as usize];
        let _ = writeln!(
            report,
            "selected section {}:({})",
            kf.name,
            kf.sections[kept.sec as usize].name_str()
        );
        let mut align = kf.sections[kept.sec as usize].align();
        for &m in &g[1..] {
            let c = &candidates[m];
            let f = &res.files[c.file as usize];
            let _ = writeln!(
                report,
                "  removing identical section {}:({})",
                f.name,
                f.sections[c.sec as usize].name_str()
            );
            align = align.max(f.sections[c.sec as usize].align());
            folding.repl.insert((c.file, c.sec), (kept.file, kept.sec));
        }
        if align > kf.sections[kept.sec as usize].align() {
            folding.align.insert((kept.file, kept.sec), align);
        }
    }
    for &(f, s) in folding.repl.keys() {
        res.files[f as usize].sections[s as usize].kind = SectionKind::Folded;
    }
    // Sections that only describe a folded one (`SHF_LINK_ORDER` to it:
    // `__patchable_function_entries`, `.llvm_bb_addr_map`, ...) would describe the kept one a
    // second time: they go too, as in lld (with no section in their place).
    for f in &mut res.files {
        let linked: Vec<usize> = f
            .sections
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.kind == SectionKind::Regular && s.flags() & u64::from(elf::SHF_LINK_ORDER) != 0
            })
            .map(|(i, _)| i)
            .collect();
        for i in linked {
            let target = f.sections[i].shdr.sh_link(LE) as usize;
            if f.sections.get(target).map(|t| t.kind) == Some(SectionKind::Folded) {
                f.sections[i].kind = SectionKind::Folded;
            }
        }
    }
    if config.print_icf_sections {
        (folding, report)
    } else {
        (folding, String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::{is_c_identifier, read_uleb, split};

    #[test]
    fn uleb_reads_addrsig_indices() {
        let data = [0x05, 0x80, 0x01, 0xff, 0x7f];
        let (a, rest) = read_uleb(&data).expect("first");
        let (b, rest) = read_uleb(rest).expect("second");
        let (c, rest) = read_uleb(rest).expect("third");
        assert_eq!((a, b, c), (5, 128, 16383));
        assert!(rest.is_empty());
        // A truncated number ends the table instead of reading past it.
        assert_eq!(read_uleb(&[0x80]), None);
    }

    #[test]
    fn c_identifier_sections_are_never_folded() {
        assert!(is_c_identifier(b"my_table"));
        assert!(!is_c_identifier(b".text.f"));
        assert!(!is_c_identifier(b"9abc"));
        assert!(!is_c_identifier(b""));
    }

    #[test]
    fn split_keeps_first_appearance_order() {
        // Classes by parity: the first of each run is kept, later members follow in order.
        let groups = split(&[4, 1, 6, 3, 8], |a, b| a % 2 == b % 2);
        assert_eq!(groups, vec![vec![4, 6, 8], vec![1, 3]]);
    }
}
