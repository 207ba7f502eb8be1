//! Balanced-partitioning section order (`--bp-compression-sort=`, `--bp-startup-sort=function`
//! with `--irpgo-profile=`, `--bp-compression-sort-startup-functions`,
//! `--verbose-bp-section-orderer`), as ld.lld 22 computes it.
//!
//! The candidates are the plain input sections with contents that a symbol (not a section
//! symbol) is defined in: the global symbols' sections in symbol-table order, then each object's
//! local symbols' sections (a section counts once, at its first symbol). A non-preemptible IFUNC
//! whose address is taken is an `.iplt` entry to lld by then and brings no section. They form up to three
//! groups, each ordered by `llvm::BalancedPartitioning` (through `lto::balanced_partitioning`,
//! the code lld runs):
//!
//! * **startup functions**, the sections of the functions a temporal profile trace names
//!   (names compared without their `.__uniq.N`/`.llvm.N` suffixes). Along each trace the
//!   functions get utility nodes in windows that double in length and in bytes, so that
//!   functions first called close together in time share more of them; the initial order is
//!   the first call's time;
//! * **functions for compression** (the other `SHF_EXECINSTR` sections) and **data for
//!   compression** (the others), whose utility nodes are the 4-byte windows of their contents:
//!   a window shared by more than one section and by at most half of them becomes a node.
//!   Sections whose windows XOR to the same value (among more than 10000 sections, counting
//!   only windows found in more than five) are "duplicates": only the first is partitioned,
//!   the others follow it.
//!
//! The startup functions come first, then the functions and data for compression; the result is
//! a priority per section (`-n`, `-n + 1`, ... for `n` ordered sections) that takes the place of
//! the call graph profile's in `crate::order::section_order`, below the symbol ordering file's.
//!
//! Because the partitioning and its initial order are lld's, the same inputs give lld's order:
//! the test suite compares both linkers' symbol orders.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::icf::Folding;
use crate::input::input_files::{FileId, SectionKind};
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use hashbrown::{HashMap, HashSet};
use object::read::elf::Sym;

/// An input section: its file and index.
type SecKey = (FileId, u32);

/// A symbol name without the suffixes that change from build to build (`.llvm.N` that ThinLTO
/// adds to promoted locals, `.__uniq.N` of `-funique-internal-linkage-names`), so that a
/// profile taken from one build names the functions of another.
fn root_symbol(name: &[u8]) -> &[u8] {
    // Up to the last occurrence of each suffix's marker.
    let cut = |marker: &[u8], n: &[u8]| -> usize {
        n.windows(marker.len())
            .rposition(|w| w == marker)
            .unwrap_or(n.len())
    };
    let n = &name[..cut(b".llvm.", name)];
    &n[..cut(b".__uniq.", n)]
}

/// The candidate sections, in lld's order, with the root names of the symbols defining them.
struct Candidates {
    sections: Vec<SecKey>,
    /// Root symbol name -> indexes into `sections`, in insertion order.
    by_root: HashMap<&'static [u8], Vec<u32>>,
}

/// The section symbol `index` of `file` defines, as lld's `Defined::section` sees it after
/// folding (the kept section for a folded one); `None` for a section symbol, for a symbol
/// without a section, or when that section has no contents, was collected by `--gc-sections`,
/// or is not a plain input section to lld: merged (`SHF_MERGE`), `.eh_frame`, notes lld merges,
/// or a member of a lost COMDAT group (lld makes such symbols undefined).
fn symbol_section(res: &Resolved, folding: &Folding, file: FileId, index: usize) -> Option<SecKey> {
    let f = &res.files[file as usize];
    let sym = f.symbols.get(index)?;
    // A section symbol names the section, not something in it.
    if sym.st_type() == object::elf::STT_SECTION {
        return None;
    }
    let shndx = sym.st_shndx(object::LittleEndian);
    if shndx == object::elf::SHN_UNDEF
        || shndx == object::elf::SHN_ABS
        || shndx == object::elf::SHN_COMMON
    {
        return None;
    }
    let sec = f.sym_section(index).filter(|&i| i < f.sections.len())? as u32;
    // Nothing to compare in a section without contents (`SHT_NOBITS` or empty).
    if f.sections[sec as usize].data.is_empty() {
        return None;
    }
    match f.sections[sec as usize].kind {
        SectionKind::Regular => Some((file, sec)),
        SectionKind::Folded => Some(
            folding
                .repl
                .get(&(file, sec))
                .copied()
                .unwrap_or((file, sec)),
        ),
        _ => None,
    }
}

/// The IFUNCs lld points at their `.iplt` entry by the time it orders sections: those that
/// cannot be preempted and that some relocation refers to directly (an address taken, not a call
/// through the PLT or a GOT load). `.iplt` has no contents to order, so such a symbol brings no
/// section; its resolver's section comes with the resolver's own symbol, if it has one.
fn iplt_redirected(config: &Config, res: &Resolved) -> HashSet<SymbolId> {
    let ifuncs: HashSet<SymbolId> = res
        .symtab
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s.sym_type == object::elf::STT_GNU_IFUNC
                && !s.preemptible
                && matches!(s.def, SymbolDef::Defined { .. })
        })
        .map(|(id, _)| id as SymbolId)
        .collect();
    let mut out = HashSet::new();
    if ifuncs.is_empty() || config.z.ifunc_noplt {
        return out;
    }
    for (fi, f) in res.files.iter().enumerate() {
        for s in &f.sections {
            if !s.is_alloc() || !s.kind.is_copied() {
                continue;
            }
            for r in s.relocs {
                let index = r.r_sym(object::LittleEndian, false) as usize;
                let Some(&id) = index
                    .checked_sub(f.first_global)
                    .and_then(|k| res.file_syms[fi].get(k))
                else {
                    continue;
                };
                if ifuncs.contains(&id) && refers_directly(r.r_type(object::LittleEndian, false)) {
                    out.insert(id);
                }
            }
        }
    }
    out
}

/// x86-64 relocations that use a symbol's address itself (lld's `HAS_DIRECT_RELOC`), not a PLT
/// entry or a GOT slot.
fn refers_directly(r_type: u32) -> bool {
    use object::elf::*;
    matches!(
        r_type,
        R_X86_64_64
            | R_X86_64_PC32
            | R_X86_64_32
            | R_X86_64_32S
            | R_X86_64_16
            | R_X86_64_PC16
            | R_X86_64_8
            | R_X86_64_PC8
            | R_X86_64_PC64
    )
}

fn candidates(config: &Config, res: &Resolved, folding: &Folding) -> Candidates {
    let mut c = Candidates {
        sections: Vec::new(),
        by_root: HashMap::new(),
    };
    let redirected = iplt_redirected(config, res);
    let mut seen: HashSet<SecKey> = HashSet::new();
    let mut add = |c: &mut Candidates, name: &'static [u8], sec: SecKey| {
        if seen.insert(sec) {
            c.by_root
                .entry(root_symbol(name))
                .or_default()
                .push(c.sections.len() as u32);
            c.sections.push(sec);
        }
    };
    for (id, s) in res.symtab.symbols.iter().enumerate() {
        if redirected.contains(&(id as SymbolId)) {
            continue;
        }
        if let SymbolDef::Defined { file, index } = s.def {
            if let Some(sec) = symbol_section(res, folding, file, index as usize) {
                add(&mut c, s.name, sec);
            }
        }
    }
    for (fi, f) in res.files.iter().enumerate() {
        for i in 1..f.first_global.min(f.symbols.len()) {
            if let Some(sec) = symbol_section(res, folding, fi as FileId, i) {
                add(&mut c, f.sym_name(i), sec);
            }
        }
    }
    c
}

/// The utility nodes of the startup functions, from the profile's traces, and the time each
/// was first called.
struct Startup {
    uns: HashMap<u32, Vec<u32>>,
    first_call: HashMap<u32, usize>,
}

fn startup_nodes(
    res: &Resolved,
    c: &Candidates,
    traces: &[Vec<String>],
    max_un: &mut u32,
) -> Startup {
    let mut s = Startup {
        uns: HashMap::new(),
        first_call: HashMap::new(),
    };
    for trace in traces {
        let mut first_un: Vec<(u32, u32)> = Vec::new();
        let mut has_first: HashSet<u32> = HashSet::new();
        let (mut size, mut cutoff_size, mut cutoff_time) = (0u64, 1u64, 1usize);
        for (time, name) in trace.iter().enumerate() {
            let Some(idxs) = c.by_root.get(root_symbol(name.as_bytes())) else {
                continue;
            };
            // A name defined in several sections (identical copies, most likely): the first
            // one's size stands for all, as in lld.
            size += section_size(res, c.sections[idxs[0] as usize]);
            for &i in idxs {
                let t = s.first_call.entry(i).or_insert(time);
                *t = (*t).min(time);
            }
            if time >= cutoff_time || size >= cutoff_size {
                *max_un += 1;
                cutoff_size = size.saturating_mul(2);
                cutoff_time = cutoff_time.saturating_mul(2);
            }
            for &i in idxs {
                if has_first.insert(i) {
                    first_un.push((i, *max_un));
                }
            }
        }
        for (i, first) in first_un {
            s.uns.entry(i).or_default().extend(first..=*max_un);
        }
        *max_un += 1;
    }
    s
}

fn section_size(res: &Resolved, (file, sec): SecKey) -> u64 {
    res.files[file as usize].sections[sec as usize].size()
}

fn section_data(res: &Resolved, (file, sec): SecKey) -> &'static [u8] {
    res.files[file as usize].sections[sec as usize].data
}

/// The distinct 4-byte windows of a section's contents (read as little-endian numbers) and its
/// last three bytes, sorted: what "similar contents" means to the partitioning.
fn content_hashes(data: &[u8]) -> Vec<u64> {
    let mut h: Vec<u64> = data
        .windows(4)
        .map(|w| u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]])))
        .collect();
    h.extend(
        data[data.len().saturating_sub(3)..]
            .iter()
            .map(|&b| u64::from(b)),
    );
    h.sort_unstable();
    h.dedup();
    h
}

/// Utility nodes for grouping `idxs` by contents. With `duplicates`, sections that look the
/// same as an earlier section (see below) are left out of the result and listed under it.
fn compression_nodes(
    res: &Resolved,
    c: &Candidates,
    idxs: &[u32],
    duplicates: Option<&mut HashMap<u32, Vec<u32>>>,
    max_un: &mut u32,
) -> Vec<(u32, Vec<u32>)> {
    let mut hashes: Vec<(u32, Vec<u64>)> = idxs
        .iter()
        .map(|&i| (i, content_hashes(section_data(res, c.sections[i as usize]))))
        .collect();
    let frequency = |hashes: &[(u32, Vec<u64>)]| {
        let mut f: HashMap<u64, u32> = HashMap::new();
        let mut order: Vec<u64> = Vec::new();
        for (_, hs) in hashes {
            for &h in hs {
                let n = f.entry(h).or_insert_with(|| {
                    order.push(h);
                    0
                });
                *n += 1;
            }
        }
        (f, order)
    };
    if let Some(dups) = duplicates {
        // Sections whose windows XOR to the same value are "nearly identical" and ordered
        // once. Among more than 10000 sections only the windows found in more than five of
        // them count (lld's rule: rare windows then say little and cost much).
        let (freq, _) = frequency(&hashes);
        let common = if hashes.len() > 10_000 { 5 } else { 0 };
        let mut first_with: HashMap<u64, u32> = HashMap::new();
        hashes.retain(|(i, hs)| {
            let whole = hs
                .iter()
                .filter(|h| freq[*h] > common)
                .fold(0u64, |acc, h| acc ^ h);
            match first_with.entry(whole) {
                hashbrown::hash_map::Entry::Vacant(e) => {
                    e.insert(*i);
                    true
                }
                hashbrown::hash_map::Entry::Occupied(e) => {
                    dups.entry(*e.get()).or_default().push(*i);
                    false
                }
            }
        });
    }
    let (freq, order) = frequency(&hashes);
    // Windows in one section only, or in more than half of them, say nothing about which
    // sections belong together.
    let mut un_of: HashMap<u64, u32> = HashMap::new();
    for h in order {
        let f = freq[&h] as usize;
        if f > 1 && f * 2 <= hashes.len() {
            *max_un += 1;
            un_of.insert(h, *max_un);
        }
    }
    hashes
        .into_iter()
        .map(|(i, hs)| (i, hs.iter().filter_map(|h| un_of.get(h).copied()).collect()))
        .collect()
}

/// Runs the partitioning over nodes given as (candidate index, utility nodes), in that order.
fn partition(nodes: Vec<(u32, Vec<u32>)>) -> Result<Vec<u32>> {
    let nodes: Vec<lto::PartitionNode> = nodes
        .into_iter()
        .map(|(id, utility_nodes)| lto::PartitionNode {
            id: u64::from(id),
            utility_nodes,
        })
        .collect();
    let order = lto::balanced_partitioning(&nodes).map_err(Error)?;
    Ok(order.into_iter().map(|id| id as u32).collect())
}

/// The order balanced partitioning gives the candidate sections, as section priorities (lower
/// first). Prints lld's statistics with `--verbose-bp-section-orderer`.
pub fn order(config: &Config, res: &Resolved, folding: &Folding) -> Result<HashMap<SecKey, i64>> {
    let bp = &config.bp;
    let c = candidates(config, res, folding);
    let mut max_un = 0u32;
    let traces = match (&config.irpgo_profile, bp.startup_functions) {
        (Some(path), true) => lto::read_temporal_profile(path)
            .map_err(|e| Error(format!("{}: {e}", path.display())))?,
        _ => Vec::new(),
    };
    let Startup {
        uns: mut startup_uns,
        first_call,
    } = startup_nodes(res, &c, &traces, &mut max_un);

    let mut functions = Vec::new();
    let mut data = Vec::new();
    for i in 0..c.sections.len() as u32 {
        if startup_uns.contains_key(&i) {
            continue;
        }
        let (file, sec) = c.sections[i as usize];
        let code = res.files[file as usize].sections[sec as usize].flags()
            & u64::from(object::elf::SHF_EXECINSTR)
            != 0;
        if code && bp.function_compression {
            functions.push(i);
        } else if !code && bp.data_compression {
            data.push(i);
        }
    }

    if bp.compression_sort_startup_functions {
        let mut idxs: Vec<u32> = startup_uns.keys().copied().collect();
        idxs.sort_unstable();
        for (i, more) in compression_nodes(res, &c, &idxs, None, &mut max_un) {
            let uns = startup_uns.entry(i).or_default();
            uns.extend(more);
            uns.sort_unstable();
            uns.dedup();
        }
    }
    let mut duplicates: HashMap<u32, Vec<u32>> = HashMap::new();
    let functions = compression_nodes(res, &c, &functions, Some(&mut duplicates), &mut max_un);
    let data = compression_nodes(res, &c, &data, Some(&mut duplicates), &mut max_un);

    // Startup functions start in the order of their first call; the others in input order,
    // which tends to be a good start already.
    let mut startup: Vec<(u32, Vec<u32>)> = startup_uns.into_iter().collect();
    startup.sort_by_key(|(i, _)| (first_call.get(i).copied().unwrap_or(0), *i));
    let startup = partition(startup)?;
    let functions = partition(functions)?;
    let data = partition(data)?;

    let mut ordered: Vec<SecKey> = Vec::new();
    let mut placed: HashSet<SecKey> = HashSet::new();
    let mut stats = [(0u64, 0u64); 5];
    let mut place = |i: u32, group: usize, ordered: &mut Vec<SecKey>| {
        let key = c.sections[i as usize];
        if placed.insert(key) {
            ordered.push(key);
            stats[group].0 += 1;
            stats[group].1 += section_size(res, key);
        }
    };
    for &i in &startup {
        place(i, 0, &mut ordered);
    }
    for (group, list) in [(1, &functions), (3, &data)] {
        for &i in list {
            place(i, group, &mut ordered);
            for &d in duplicates.get(&i).map_or(&[][..], |v| v.as_slice()) {
                place(d, group + 1, &mut ordered);
            }
        }
    }

    if bp.verbose {
        eprint!(
            "{}",
            statistics(
                res,
                folding,
                &ordered,
                &stats,
                bp.startup_functions.then_some(&traces[..])
            )
        );
    }
    let first = -(ordered.len() as i64);
    Ok(ordered
        .into_iter()
        .enumerate()
        .map(|(n, key)| (key, first + n as i64))
        .collect())
}

/// lld's report: how many sections (and bytes) each group ordered and, with a profile, the
/// area under the page fault curve: for each trace, the sum over its steps of the number of
/// 16 KiB pages touched so far, with the sections laid out from address 0 in the new order.
fn statistics(
    res: &Resolved,
    folding: &Folding,
    ordered: &[SecKey],
    stats: &[(u64, u64); 5],
    traces: Option<&[Vec<String>]>,
) -> String {
    let total = stats.iter().fold((0, 0), |a, s| (a.0 + s.0, a.1 + s.1));
    let mut out = format!(
        "Ordered {} sections ({} bytes) using balanced partitioning:\n",
        total.0, total.1
    );
    let names = [
        "Functions for startup",
        "Functions for compression",
        "Duplicate functions",
        "Data for compression",
        "Duplicate data",
    ];
    for (name, (n, bytes)) in names.iter().zip(stats) {
        out += &format!("  {name}: {n} ({bytes} bytes)\n");
    }
    let Some(traces) = traces else {
        return out;
    };
    const PAGE: u64 = 1 << 14;
    let mut pages: HashMap<&[u8], (u64, u64)> = HashMap::new();
    let mut address = 0u64;
    for &(file, sec) in ordered {
        let f = &res.files[file as usize];
        for i in 1..f.symbols.len() {
            let defined_here = if i < f.first_global {
                true
            } else {
                let id = res.file_syms[file as usize][i - f.first_global];
                matches!(res.symtab.symbols[id as usize].def,
                    SymbolDef::Defined { file: df, index } if df == file && index as usize == i)
            };
            let sym = &f.symbols[i];
            if !defined_here
                || sym.st_size(object::LittleEndian) == 0
                || symbol_section(res, folding, file, i) != Some((file, sec))
            {
                continue;
            }
            let start = address + sym.st_value(object::LittleEndian);
            let end = start + sym.st_size(object::LittleEndian);
            pages
                .entry(root_symbol(f.sym_name(i)))
                .or_insert((start / PAGE, end / PAGE));
        }
        address += section_size(res, (file, sec));
    }
    let mut area = 0u32;
    for trace in traces {
        let mut touched: HashSet<u64> = HashSet::new();
        for name in trace {
            if let Some(&(first, last)) = pages.get(root_symbol(name.as_bytes())) {
                touched.extend(first..=last);
            }
            area = area.wrapping_add(touched.len() as u32);
        }
    }
    out += &format!(
        "Total area under the page fault curve: {}\n",
        printf_e(area as f32 as f64)
    );
    out
}

/// C's `%e`: one digit, six decimals, and an exponent of at least two digits with its sign.
fn printf_e(v: f64) -> String {
    let s = format!("{v:.6e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

#[cfg(test)]
mod tests {
    #[test]
    fn root_symbol_drops_build_suffixes() {
        assert_eq!(super::root_symbol(b"foo.__uniq.123.llvm.456"), b"foo");
        assert_eq!(super::root_symbol(b"foo.llvm.456"), b"foo");
        assert_eq!(super::root_symbol(b"foo.__uniq.1"), b"foo");
        assert_eq!(super::root_symbol(b"foo.cold"), b"foo.cold");
    }

    #[test]
    fn printf_e_is_c_style() {
        assert_eq!(super::printf_e(242534.0), "2.425340e+05");
        assert_eq!(super::printf_e(0.0), "0.000000e+00");
        assert_eq!(super::printf_e(3.0), "3.000000e+00");
    }

    #[test]
    fn content_hashes_are_windows_and_tail() {
        let h = super::content_hashes(&[1, 0, 0, 0, 2]);
        // windows 0x00000001, 0x02000000; tail bytes 0, 0, 2
        assert_eq!(h, vec![0, 1, 2, 0x0200_0000]);
        assert_eq!(super::content_hashes(&[7]), vec![7]);
    }
}
