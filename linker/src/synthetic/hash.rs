//! `.gnu.hash` and `.hash`: the dynamic symbol hash tables (`--hash-style`).

use crate::output::layout::DynTables;
use crate::output::sections::{Synthetic, SyntheticChunk, ALLOC};
use crate::resolve::symbol_table::SymbolId;
use crate::resolve::Resolved;
use object::elf;

/// The ELF (SysV) hash function.
pub fn elf_hash(name: &[u8]) -> u32 {
    let mut h: u32 = 0;
    for &c in name {
        h = (h << 4).wrapping_add(u32::from(c));
        let g = h & 0xf000_0000;
        if g != 0 {
            h ^= g >> 24;
        }
        h &= !g;
    }
    h
}

/// The GNU hash function (Bernstein's, seed 5381).
pub fn gnu_hash(name: &[u8]) -> u32 {
    let mut h: u32 = 5381;
    for &c in name {
        h = h.wrapping_mul(33).wrapping_add(u32::from(c));
    }
    h
}

pub fn build_gnu_hash(
    res: &Resolved,
    exports: &[SymbolId],
    symoffset: u32,
    nbuckets: u32,
) -> Vec<u8> {
    // One 64-bit bloom word per ~two symbols keeps lookups fast without wasting space.
    // lld's sizing: 12 bloom bits per symbol, rounded up to the next power of two above.
    let maskwords = if exports.is_empty() {
        1
    } else {
        (exports.len() as u32 * 12 / 64 + 1).next_power_of_two()
    };
    let shift2 = 26u32;
    let hashes: Vec<u32> = exports
        .iter()
        .map(|&id| gnu_hash(res.symtab.get(id).dynamic_name()))
        .collect();
    let mut bloom = vec![0u64; maskwords as usize];
    for &h in &hashes {
        let word = (h / 64) % maskwords;
        bloom[word as usize] |= 1u64 << (h % 64);
        bloom[word as usize] |= 1u64 << ((h >> shift2) % 64);
    }
    let mut buckets = vec![0u32; nbuckets as usize];
    let mut chains = vec![0u32; exports.len()];
    for (i, &h) in hashes.iter().enumerate() {
        let b = (h % nbuckets) as usize;
        if buckets[b] == 0 {
            buckets[b] = symoffset + i as u32;
        }
        // The last symbol of a bucket's run has the low bit set.
        let last = i + 1 == hashes.len() || hashes[i + 1] % nbuckets != h % nbuckets;
        chains[i] = (h & !1) | u32::from(last);
    }
    let mut v = Vec::with_capacity(16 + 8 * bloom.len() + 4 * (buckets.len() + chains.len()));
    for x in [nbuckets, symoffset, maskwords, shift2] {
        v.extend_from_slice(&x.to_le_bytes());
    }
    for w in bloom {
        v.extend_from_slice(&w.to_le_bytes());
    }
    for b in buckets {
        v.extend_from_slice(&b.to_le_bytes());
    }
    for c in chains {
        v.extend_from_slice(&c.to_le_bytes());
    }
    v
}

pub fn build_sysv_hash(res: &Resolved, dynsym: &[SymbolId]) -> Vec<u8> {
    let nsyms = dynsym.len() as u32 + 1;
    let nbucket = nsyms.max(1);
    let mut buckets = vec![0u32; nbucket as usize];
    let mut chains = vec![0u32; nsyms as usize];
    for (i, &id) in dynsym.iter().enumerate() {
        let idx = i as u32 + 1;
        let b = (elf_hash(res.symtab.get(id).dynamic_name()) % nbucket) as usize;
        chains[idx as usize] = buckets[b];
        buckets[b] = idx;
    }
    let mut v = Vec::new();
    v.extend_from_slice(&nbucket.to_le_bytes());
    v.extend_from_slice(&nsyms.to_le_bytes());
    for x in buckets.into_iter().chain(chains) {
        v.extend_from_slice(&x.to_le_bytes());
    }
    v
}

/// The hash sections `--hash-style` asked for, in lld's creation order: `.gnu.hash`, `.hash`.
pub fn chunks(t: &DynTables) -> Vec<SyntheticChunk> {
    let gnu = (!t.gnu_hash.is_empty()).then_some(SyntheticChunk {
        kind: Synthetic::GnuHash,
        osec: ".gnu.hash",
        sh_type: elf::SHT_GNU_HASH,
        flags: ALLOC,
        size: t.gnu_hash.len() as u64,
        align: 8,
    });
    let sysv = (!t.sysv_hash.is_empty()).then_some(SyntheticChunk {
        kind: Synthetic::Hash,
        osec: ".hash",
        sh_type: elf::SHT_HASH,
        flags: ALLOC,
        size: t.sysv_hash.len() as u64,
        align: 4,
    });
    gnu.into_iter().chain(sysv).collect()
}
