//! The contents of the dynamic relocation tables: which table a dynamic relocation goes to,
//! the `.rela.dyn` records in lld's order, and the packed encodings lld offers for them: RELR
//! (`-z pack-relative-relocs`, `--pack-dyn-relocs=relr`) and Android's APS2
//! (`--pack-dyn-relocs=android`). Layout sizes the packed tables (their size depends on the
//! addresses they encode); the writer copies them out.

use crate::config::Config;
use crate::output::layout::Layout;
use crate::output::sections::{put64, Synthetic, SyntheticChunk, ALLOC};
use crate::output::sections::{RELA_SIZE, REL_SIZE};
use crate::relocations::scan::{AddressMap, DynKind, DynReloc, Place, ScanResult};
use crate::resolve::symbol_table::SymKey;
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::elf;
use rayon::prelude::*;

/// One `Elf64_Rela` of `.rela.dyn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DynRela {
    pub offset: u64,
    pub sym: u32,
    pub r_type: u32,
    pub addend: u64,
}

impl DynRela {
    fn info(&self) -> u64 {
        (u64::from(self.sym) << 32) | u64::from(self.r_type)
    }
}

/// Whether a dynamic relocation goes to `.relr.dyn`: with `-z pack-relative-relocs`, a
/// relative relocation at an even place, as lld decides it (from the section's alignment and
/// the offset in it, so that the choice does not depend on addresses). Its addend is then the
/// value already written at the place.
pub fn packs_as_relr(config: &Config, res: &Resolved, d: &DynReloc) -> bool {
    if !config.pack_dyn_relocs_relr || !matches!(d.kind, DynKind::Relative { .. }) {
        return false;
    }
    match d.place {
        Place::Got(_) => true,
        Place::Input { file, sec, offset } => {
            res.files[file as usize].sections[sec as usize].align() >= 2 && offset % 2 == 0
        }
        Place::IgotPlt(_) | Place::Copy(_) => false,
    }
}

/// The records of `.rela.dyn` (the relocations not packed as RELR) in lld's order: relative
/// ones sorted by place, then the symbolic and TLS ones by symbol and place, then `IRELATIVE`.
pub fn rela_dyn_records(
    config: &Config,
    res: &Resolved,
    dyn_relocs: &[DynReloc],
    place_address: &(dyn Fn(Place) -> u64 + Sync),
    dynsym_index: &HashMap<SymbolId, u32>,
    map: &dyn AddressMap,
) -> Vec<DynRela> {
    // Each record's values are computed on its own (in parallel, in order); then the three
    // groups lld writes.
    const RELATIVE: u8 = 0;
    const OTHER: u8 = 1;
    const IRELATIVE: u8 = 2;
    let records: Vec<(u8, DynRela)> = dyn_relocs
        .par_iter()
        .filter(|d| !packs_as_relr(config, res, d))
        .map(|d| {
            let offset = place_address(d.place);
            let rela = |sym: u32, r_type: u32, addend: u64| DynRela {
                offset,
                sym,
                r_type,
                addend,
            };
            match d.kind {
                DynKind::Relative { target, addend } => (
                    RELATIVE,
                    rela(
                        0,
                        elf::R_X86_64_RELATIVE,
                        key_address(res, map, target, addend),
                    ),
                ),
                DynKind::IRelative { target } => (
                    IRELATIVE,
                    rela(
                        0,
                        elf::R_X86_64_IRELATIVE,
                        raw_key_address(res, map, target, 0),
                    ),
                ),
                DynKind::Symbolic {
                    sym,
                    r_type,
                    addend,
                } => {
                    let idx = dynsym_index.get(&sym).copied().unwrap_or(0);
                    (OTHER, rela(idx, r_type, addend as u64))
                }
                DynKind::TlsLocal {
                    r_type,
                    target,
                    addend,
                } => {
                    let a = match target {
                        Some(k) => {
                            raw_key_address(res, map, k, addend).wrapping_sub(map.tls_start())
                        }
                        None => 0,
                    };
                    (OTHER, rela(0, r_type, a))
                }
            }
        })
        .collect();
    let group = |g: u8| -> Vec<DynRela> {
        records
            .iter()
            .filter(|(k, _)| *k == g)
            .map(|&(_, r)| r)
            .collect()
    };
    let (mut relative, mut other, irelative) = (group(RELATIVE), group(OTHER), group(IRELATIVE));
    // lld's `-z combreloc` order: relative ones first (DT_RELACOUNT counts them), then by
    // symbol for the loader's lookup locality, then by place.
    relative.par_sort_by_key(|r| r.offset);
    other.par_sort_by_key(|r| (r.sym, r.offset));
    relative.extend(other);
    relative.extend(irelative);
    relative
}

/// Link-time address of a GOT/IPLT key's symbol: through its IPLT entry for an IFUNC, else
/// the symbol's own (or its canonical PLT / copy) address.
pub fn key_address(res: &Resolved, map: &dyn AddressMap, key: SymKey, addend: i64) -> u64 {
    if let Some(v) = map.iplt_entry_address(key) {
        return v.wrapping_add(addend as u64);
    }
    raw_key_address(res, map, key, addend)
}

/// Link-time address of a key's symbol itself (an IFUNC's resolver, not its IPLT entry).
pub fn raw_key_address(res: &Resolved, map: &dyn AddressMap, key: SymKey, addend: i64) -> u64 {
    match key {
        SymKey::Global(g) => match res.symtab.get(g).def {
            SymbolDef::Defined { file, index } => map.symbol_address(file, index as usize, addend),
            _ => global_value(res, map, g).wrapping_add(addend as u64),
        },
        SymKey::Local(f, i) => map.symbol_address(f, i as usize, addend),
    }
}

/// Value of a global that has no defining object (common, synthetic, copy, canonical PLT):
/// resolved through any object that refers to it.
pub fn global_value(res: &Resolved, map: &dyn AddressMap, g: u32) -> u64 {
    for (fi, ids) in res.file_syms.iter().enumerate() {
        if let Some(k) = ids.iter().position(|&x| x == g) {
            let f = &res.files[fi];
            return map.symbol_address(
                fi as crate::input::input_files::FileId,
                f.first_global + k,
                0,
            );
        }
    }
    0
}

/// The RELR encoding of sorted, 8-byte aligned places: an address word, then bitmap words
/// (odd) whose bit `i` (1..=63) stands for the word `i - 1` places after the ones so far.
pub fn encode_relr(places: &[u64]) -> Vec<u64> {
    const BITS: u64 = 63;
    let mut out = Vec::new();
    let mut i = 0;
    while i < places.len() {
        let mut base = places[i];
        out.push(base);
        i += 1;
        base += 8;
        loop {
            let mut bitmap = 0u64;
            while i < places.len() {
                let d = places[i].wrapping_sub(base);
                if d >= BITS * 8 || !d.is_multiple_of(8) {
                    break;
                }
                bitmap |= 1 << (d / 8);
                i += 1;
            }
            if bitmap == 0 {
                break;
            }
            out.push((bitmap << 1) | 1);
            base += BITS * 8;
        }
    }
    out
}

// APS2 group flags (bionic's linker reads them).
const GROUPED_BY_INFO: i64 = 1;
const GROUPED_BY_OFFSET_DELTA: i64 = 2;
const GROUP_HAS_ADDEND: i64 = 8;

/// Android's packed relocation format (APS2, `--pack-dyn-relocs=android`): `"APS2"`, then
/// SLEB128 numbers: the count, an initial offset, and groups of relocations that share their
/// info, offset delta or addend. The grouping is lld's, so the bytes are lld's: runs of 8 or
/// more relative relocations one word apart become two groups each; the other relative ones
/// one group; non-relative ones with the same info and a zero addend, 3 or more, a group each;
/// the rest one group, sorted by place.
pub fn encode_android_rela(records: &[DynRela]) -> Vec<u8> {
    let mut out = b"APS2".to_vec();
    let mut add = |v: i64| sleb128(&mut out, v);
    add(records.len() as i64);
    add(0);

    let (mut relatives, mut others): (Vec<DynRela>, Vec<DynRela>) = records
        .iter()
        .partition(|r| r.r_type == elf::R_X86_64_RELATIVE);
    relatives.sort_by_key(|r| r.offset);
    let mut runs: Vec<&[DynRela]> = Vec::new();
    let mut loose_relatives: Vec<DynRela> = Vec::new();
    let mut i = 0;
    while i < relatives.len() {
        let mut j = i + 1;
        while j < relatives.len() && relatives[j - 1].offset + 8 == relatives[j].offset {
            j += 1;
        }
        // A run costs two group headers: worth it from 8 relocations on.
        if j - i >= 8 {
            runs.push(&relatives[i..j]);
        } else {
            loose_relatives.extend_from_slice(&relatives[i..j]);
        }
        i = j;
    }

    // Sorting by info keeps relocations against one symbol together (the loader caches its
    // last lookup) and makes equal infos groupable.
    others.sort_by_key(|r| (r.info(), r.addend as i64, r.offset));
    let mut info_groups: Vec<&[DynRela]> = Vec::new();
    let mut loose_others: Vec<DynRela> = Vec::new();
    let mut i = 0;
    while i < others.len() {
        let mut j = i + 1;
        while j < others.len()
            && others[j].info() == others[i].info()
            && others[j].addend == others[i].addend
        {
            j += 1;
        }
        if j - i < 3 || others[i].addend != 0 {
            loose_others.extend_from_slice(&others[i..j]);
        } else {
            info_groups.push(&others[i..j]);
        }
        i = j;
    }
    loose_others.sort_by_key(|r| r.offset);

    let relative = i64::from(elf::R_X86_64_RELATIVE);
    let (mut offset, mut addend) = (0u64, 0u64);
    let delta = |a: u64, b: u64| a.wrapping_sub(b) as i64;
    for run in runs {
        // The first relocation moves the offset to the run's start...
        add(1);
        add(GROUPED_BY_OFFSET_DELTA | GROUPED_BY_INFO | GROUP_HAS_ADDEND);
        add(delta(run[0].offset, offset));
        add(relative);
        add(delta(run[0].addend, addend));
        addend = run[0].addend;
        // ... and the rest follow one word apart.
        add(run.len() as i64 - 1);
        add(GROUPED_BY_OFFSET_DELTA | GROUPED_BY_INFO | GROUP_HAS_ADDEND);
        add(8);
        add(relative);
        for r in &run[1..] {
            add(delta(r.addend, addend));
            addend = r.addend;
        }
        offset = run[run.len() - 1].offset;
    }
    if !loose_relatives.is_empty() {
        add(loose_relatives.len() as i64);
        add(GROUPED_BY_INFO | GROUP_HAS_ADDEND);
        add(relative);
        for r in &loose_relatives {
            add(delta(r.offset, offset));
            offset = r.offset;
            add(delta(r.addend, addend));
            addend = r.addend;
        }
    }
    for g in info_groups {
        add(g.len() as i64);
        add(GROUPED_BY_INFO);
        add(g[0].info() as i64);
        for r in g {
            add(delta(r.offset, offset));
            offset = r.offset;
        }
        addend = 0;
    }
    if !loose_others.is_empty() {
        add(loose_others.len() as i64);
        add(GROUP_HAS_ADDEND);
        for r in &loose_others {
            add(delta(r.offset, offset));
            offset = r.offset;
            add(r.info() as i64);
            add(delta(r.addend, addend));
            addend = r.addend;
        }
    }
    out
}

fn sleb128(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        if done {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The dynamic relocation format: (section type, entry size, `.rel[a].dyn`, `.rel[a].plt`).
pub fn dyn_reloc_format(config: &Config) -> (u32, u64, &'static str, &'static str) {
    if config.z.rel {
        (elf::SHT_REL, REL_SIZE, ".rel.dyn", ".rel.plt")
    } else {
        (elf::SHT_RELA, RELA_SIZE, ".rela.dyn", ".rela.plt")
    }
}

/// Entry `i` of a dynamic relocation table: an `Elf64_Rela`, or under `-z rel` an `Elf64_Rel`
/// (whose addend is written at the place instead, see `write_dynamic_reloc_places`).
fn put_rela(buf: &mut [u8], entsize: u64, i: usize, rela: DynRela) {
    let o = i * entsize as usize;
    put64(buf, o, rela.offset);
    put64(
        buf,
        o + 8,
        (u64::from(rela.sym) << 32) | u64::from(rela.r_type),
    );
    if entsize == RELA_SIZE {
        put64(buf, o + 16, rela.addend);
    }
}

/// `.rela.dyn`: RELATIVE relocations first, sorted by address (lld's `-z combreloc`), then the
/// symbolic ones in scan order, then IRELATIVE (resolvers may need everything else relocated).
pub fn write_rela_dyn(config: &Config, lay: &Layout, records: &[DynRela], buf: &mut [u8]) {
    if let Some(packed) = &lay.android_rela {
        // APS2 bytes, then zeros where an earlier, longer encoding was (never shrunk).
        buf.fill(0);
        buf[..packed.len()].copy_from_slice(packed);
        return;
    }
    let entsize = dyn_reloc_format(config).1;
    for (i, &r) in records.iter().enumerate() {
        put_rela(buf, entsize, i, r);
    }
}

/// `SHT_ANDROID_RELR` and its dynamic tags (`--use-android-relr-tags`).
pub const SHT_ANDROID_RELR: u32 = 0x6fff_ff00;

/// `SHT_ANDROID_RELA` and its dynamic tags (`--pack-dyn-relocs=android`).
pub const SHT_ANDROID_RELA: u32 = 0x6000_0002;

/// The packed dynamic relocation tables at the addresses of `lay`: RELR's places and words,
/// and with `android` `.rela.dyn` in Android's packed format. Their sizes depend on those
/// addresses, so layout repeats this until they fit (`layout::build`).
pub struct Packed {
    /// The places of the relative relocations packed in `.relr.dyn`, sorted.
    pub relr: Vec<u64>,
    pub relr_words: Vec<u64>,
    pub android_rela: Option<Vec<u8>>,
}

/// Packs the tables at the addresses of `lay` (see [`Packed`]).
pub fn pack(config: &Config, res: &Resolved, lay: &Layout, android: bool) -> Packed {
    let mut relr: Vec<u64> = lay
        .scan
        .dyn_relocs
        .iter()
        .filter(|d| packs_as_relr(config, res, d))
        .map(|d| lay.dyn_place_address(d.place))
        .collect();
    relr.sort_unstable();
    let relr_words = encode_relr(&relr);
    let android_rela = android.then(|| {
        let records = laid_out_records(config, res, lay, &lay.address_map(res));
        encode_android_rela(&records)
    });
    Packed {
        relr,
        relr_words,
        android_rela,
    }
}

/// How many dynamic relocations go where (for `.dynamic`).
#[derive(Clone, Copy)]
pub struct DynRelocCounts {
    /// Entries of `.rela.dyn`.
    pub rela: u64,
    /// Of those, `R_X86_64_RELATIVE` (`DT_RELACOUNT`).
    pub relative: u64,
    /// Relative relocations packed in `.relr.dyn`.
    pub relr: u64,
}

/// How many of the scan's dynamic relocations go to `.rela.dyn`, how many of those are
/// relative, and how many `.relr.dyn` packs.
pub fn counts(config: &Config, res: &Resolved, scan: &ScanResult) -> DynRelocCounts {
    let relr = scan
        .dyn_relocs
        .iter()
        .filter(|d| packs_as_relr(config, res, d))
        .count() as u64;
    let relative = scan
        .dyn_relocs
        .iter()
        .filter(|r| matches!(r.kind, DynKind::Relative { .. }))
        .count() as u64
        - relr;
    DynRelocCounts {
        rela: scan.dyn_relocs.len() as u64 - relr,
        relative,
        relr,
    }
}

/// `.rela.dyn`'s chunk (`.rel.dyn` under `-z rel`). As lld, an empty one is removed, dynamic
/// output or not. Android's packed format (`android`) is sized once addresses are known
/// (`size_packed_relocs`).
pub fn rela_dyn_chunk(
    config: &Config,
    counts: DynRelocCounts,
    android: bool,
) -> Option<SyntheticChunk> {
    if counts.rela == 0 && !android {
        return None;
    }
    let (rel_type, entsize, dyn_name, _) = dyn_reloc_format(config);
    let (sh_type, size) = if android {
        (SHT_ANDROID_RELA, 0)
    } else {
        (rel_type, counts.rela * entsize)
    };
    Some(SyntheticChunk {
        kind: Synthetic::RelaDyn,
        osec: dyn_name,
        sh_type,
        flags: ALLOC,
        size,
        align: 8,
    })
}

/// `.relr.dyn`'s chunk: sized once addresses are known (`size_packed_relocs`); at most one
/// word per relocation.
pub fn relr_chunk(config: &Config, counts: DynRelocCounts) -> Option<SyntheticChunk> {
    (counts.relr > 0).then_some(SyntheticChunk {
        kind: Synthetic::RelrDyn,
        osec: ".relr.dyn",
        sh_type: if config.use_android_relr_tags {
            SHT_ANDROID_RELR
        } else {
            elf::SHT_RELR
        },
        flags: ALLOC,
        size: counts.relr * 8,
        align: 8,
    })
}

/// `.rela.plt`'s chunk (`.rel.plt` under `-z rel`): one relocation per PLT entry.
pub fn rela_plt_chunk(config: &Config, scan: &ScanResult) -> Option<SyntheticChunk> {
    let (rel_type, entsize, _, plt_name) = dyn_reloc_format(config);
    (!scan.plt.is_empty()).then_some(SyntheticChunk {
        kind: Synthetic::RelaPlt,
        osec: plt_name,
        sh_type: rel_type,
        flags: ALLOC | u64::from(elf::SHF_INFO_LINK),
        size: scan.plt.len() as u64 * entsize,
        align: 8,
    })
}

/// `.relr.dyn`: the packed words `size_packed_relocs` made.
pub fn write_relr(lay: &Layout, buf: &mut [u8]) {
    for (i, w) in lay.relr_words.iter().enumerate() {
        put64(buf, i * 8, *w);
    }
}

/// `.rela.plt`: one `R_X86_64_JUMP_SLOT` per PLT entry, for its `.got.plt` slot.
pub fn write_rela_plt(config: &Config, lay: &Layout, buf: &mut [u8]) {
    for (i, g) in lay.scan.plt.iter().enumerate() {
        let slot = lay.gotplt_slot(i as u32);
        let sym = lay.dyn_tables.dynsym_index.get(g).copied().unwrap_or(0);
        let jump_slot = DynRela {
            offset: slot,
            sym,
            r_type: elf::R_X86_64_JUMP_SLOT,
            addend: 0,
        };
        put_rela(buf, dyn_reloc_format(config).1, i, jump_slot);
    }
}

/// `.rela.dyn`'s records in lld's order, at the addresses of `lay`.
pub fn laid_out_records(
    config: &Config,
    res: &Resolved,
    lay: &Layout,
    map: &dyn AddressMap,
) -> Vec<DynRela> {
    let place = |p| lay.dyn_place_address(p);
    rela_dyn_records(
        config,
        res,
        &lay.scan.dyn_relocs,
        &place,
        &lay.dyn_tables.dynsym_index,
        map,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rela(offset: u64, sym: u32, r_type: u32, addend: u64) -> DynRela {
        DynRela {
            offset,
            sym,
            r_type,
            addend,
        }
    }

    #[test]
    fn sleb128_matches_llvm() {
        let enc = |v| {
            let mut o = Vec::new();
            sleb128(&mut o, v);
            o
        };
        assert_eq!(enc(0), [0]);
        assert_eq!(enc(63), [0x3f]);
        assert_eq!(enc(64), [0xc0, 0x00]);
        assert_eq!(enc(-1), [0x7f]);
        assert_eq!(enc(0x2730), [0xb0, 0xce, 0x00]);
        assert_eq!(enc(0x1_0000_0006), [0x86, 0x80, 0x80, 0x80, 0x10]);
    }

    /// The bytes ld.lld-22 wrote for mold's pack-dyn-relocs-android program with
    /// `android+relr`: five GLOB_DATs against different symbols, one loose group.
    #[test]
    fn aps2_of_five_glob_dats() {
        let recs: Vec<DynRela> = (0..5)
            .map(|i| rela(0x2900 + 8 * i, i as u32 + 1, elf::R_X86_64_GLOB_DAT, 0))
            .collect();
        let want: &[u8] = &[
            b'A', b'P', b'S', b'2', 0x05, 0x00, 0x05, 0x08, 0x80, 0xd2, 0x00, 0x86, 0x80, 0x80,
            0x80, 0x10, 0x00, 0x08, 0x86, 0x80, 0x80, 0x80, 0x20, 0x00, 0x08, 0x86, 0x80, 0x80,
            0x80, 0x30, 0x00, 0x08, 0x86, 0x80, 0x80, 0x80, 0xc0, 0x00, 0x00, 0x08, 0x86, 0x80,
            0x80, 0x80, 0xd0, 0x00, 0x00,
        ];
        assert_eq!(encode_android_rela(&recs), want);
    }

    #[test]
    fn aps2_runs_and_groups() {
        let mut recs: Vec<DynRela> = (0..10)
            .map(|i| rela(0x1000 + 8 * i, 0, elf::R_X86_64_RELATIVE, 0x500 + i))
            .collect();
        recs.push(rela(0x3000, 0, elf::R_X86_64_RELATIVE, 7));
        recs.extend((0..3).map(|i| rela(0x4000 + 16 * i, 2, elf::R_X86_64_64, 0)));
        let out = encode_android_rela(&recs);
        assert_eq!(&out[..4], b"APS2");
        // count 14, initial offset 0, then the run's first group: 1 relocation, flags 11.
        assert_eq!(&out[4..8], &[14, 0, 1, 11]);
    }
}
