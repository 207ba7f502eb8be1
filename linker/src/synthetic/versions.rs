//! `.gnu.version`, `.gnu.version_r` and `.gnu.version_d`: symbol versions of the dynamic
//! symbols, the versions needed from shared libraries and those this output defines.

use super::hash::elf_hash;
use crate::config::Config;
use crate::output::layout::DynTables;
use crate::output::sections::{put16, Synthetic, SyntheticChunk, ALLOC};
use crate::resolve::symbol_table::SymbolDef;
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::elf;

/// `.gnu.version` and `.gnu.version_r`, laid out as lld does: version indices in order of first
/// use, all `Verneed` records first, then all `Vernaux` records grouped by library.
pub fn build_versions(config: &Config, res: &Resolved, t: &mut DynTables) {
    // Version definitions (version scripts) take indices 2..; imported versions follow.
    let defined_versions = !res.versions.names.is_empty();
    if defined_versions {
        build_verdef(config, res, t);
    }
    // (library, library's version index) -> output version index.
    let mut assigned: HashMap<(u32, u16), u16> = HashMap::new();
    let mut per_lib: Vec<Vec<(u16, u16)>> = vec![Vec::new(); res.shared.len()];
    let mut next = 2u16 + res.versions.names.len() as u16;
    let mut versym = vec![0u16; t.dynsym.len() + 1];
    let mut any = false;
    for (i, &id) in t.dynsym.iter().enumerate() {
        let s = res.symtab.get(id);
        versym[i + 1] = match s.def {
            SymbolDef::Shared { file, index } => {
                let lib = &res.shared[file as usize];
                let (v, _) = lib.version(index as usize);
                // As lld: only a library in DT_NEEDED lends its versions (an --as-needed one
                // that nothing strong needs is not loaded on its account).
                let needed = !lib.as_needed || res.shared_used[file as usize];
                if !needed || v <= elf::VER_NDX_GLOBAL || lib.version_name(v).is_none() {
                    elf::VER_NDX_GLOBAL
                } else {
                    any = true;
                    *assigned.entry((file, v)).or_insert_with(|| {
                        let n = next;
                        next += 1;
                        per_lib[file as usize].push((v, n));
                        n
                    })
                }
            }
            SymbolDef::Undefined | SymbolDef::Lazy { .. } => elf::VER_NDX_LOCAL,
            _ => {
                s.version
                    | if s.version_hidden {
                        crate::input::shared_files::VERSYM_HIDDEN
                    } else {
                        0
                    }
            }
        };
    }
    t.versym = versym;
    if !any && !defined_versions {
        // lld still emits .gnu.version when a library in DT_NEEDED is versioned; with nothing
        // versioned imported the section carries no information, so it is dropped.
        let versioned_needed = res
            .shared
            .iter()
            .enumerate()
            .any(|(i, s)| (!s.as_needed || res.shared_used[i]) && !s.verdef_names.is_empty());
        if !versioned_needed {
            t.versym.clear();
        }
        return;
    }
    let libs: Vec<usize> = (0..res.shared.len())
        .filter(|&i| !per_lib[i].is_empty())
        .collect();
    let n_need = libs.len();
    let n_aux: usize = libs.iter().map(|&i| per_lib[i].len()).sum();
    let mut need = Vec::with_capacity(16 * n_need + 16 * n_aux);
    let mut aux_off = 16 * n_need;
    let mut aux = Vec::new();
    for (k, &li) in libs.iter().enumerate() {
        let lib = &res.shared[li];
        let mut sorted = per_lib[li].clone();
        sorted.sort_by_key(|&(v, _)| v);
        let mut entries: Vec<(&[u8], u16)> = sorted
            .iter()
            .map(|&(v, out)| (lib.version_name(v).unwrap_or(b""), out))
            .collect();
        // As lld: `-z pack-relative-relocs` tells glibc's loader that DT_RELR is needed, by a
        // version it checks, when the program needs glibc 2 versions at all.
        if config.relr_glibc
            && lib.soname.starts_with("libc.so.")
            && entries.iter().any(|(n, _)| n.starts_with(b"GLIBC_2"))
        {
            entries.push((b"GLIBC_ABI_DT_RELR", next));
            next += 1;
        }
        let file_off = t.add_str(lib.soname.as_bytes());
        let here = 16 * k;
        need.extend_from_slice(&1u16.to_le_bytes());
        need.extend_from_slice(&(entries.len() as u16).to_le_bytes());
        need.extend_from_slice(&file_off.to_le_bytes());
        need.extend_from_slice(&((aux_off - here) as u32).to_le_bytes());
        let next_need = if k + 1 == n_need { 0u32 } else { 16 };
        need.extend_from_slice(&next_need.to_le_bytes());
        for (j, &(name, out)) in entries.iter().enumerate() {
            let name_off = t.add_str(name);
            aux.extend_from_slice(&elf_hash(name).to_le_bytes());
            aux.extend_from_slice(&0u16.to_le_bytes());
            aux.extend_from_slice(&out.to_le_bytes());
            aux.extend_from_slice(&name_off.to_le_bytes());
            let next_aux = if j + 1 == entries.len() { 0u32 } else { 16 };
            aux.extend_from_slice(&next_aux.to_le_bytes());
        }
        aux_off += 16 * entries.len();
    }
    need.extend_from_slice(&aux);
    t.verneed = need;
    t.verneed_count = n_need as u32;
}

/// `.gnu.version_d`: the base definition (the soname or output file name), then one definition
/// per version-script version, each `Verdef` followed by its one `Verdaux` (lld's layout).
fn build_verdef(config: &Config, res: &Resolved, t: &mut DynTables) {
    let base = config.soname.clone().unwrap_or_else(|| {
        config
            .output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let names: Vec<&[u8]> = std::iter::once(base.as_bytes())
        .chain(res.versions.names.iter().map(|n| n.as_bytes()))
        .collect();
    let mut v = Vec::with_capacity(28 * names.len());
    for (i, name) in names.iter().enumerate() {
        let name_off = t.add_str(name);
        let flags: u16 = if i == 0 { elf::VER_FLG_BASE } else { 0 };
        v.extend_from_slice(&1u16.to_le_bytes());
        v.extend_from_slice(&flags.to_le_bytes());
        v.extend_from_slice(&(i as u16 + 1).to_le_bytes());
        v.extend_from_slice(&1u16.to_le_bytes());
        v.extend_from_slice(&elf_hash(name).to_le_bytes());
        v.extend_from_slice(&20u32.to_le_bytes());
        let next: u32 = if i + 1 == names.len() { 0 } else { 28 };
        v.extend_from_slice(&next.to_le_bytes());
        v.extend_from_slice(&name_off.to_le_bytes());
        v.extend_from_slice(&0u32.to_le_bytes());
    }
    t.verdef = v;
    t.verdef_count = names.len() as u32;
}

/// The version sections the tables need, in lld's creation order: `.gnu.version`,
/// `.gnu.version_d`, `.gnu.version_r`.
pub fn chunks(t: &DynTables) -> Vec<SyntheticChunk> {
    let mut out = Vec::new();
    let mut add = |kind, osec, sh_type, size: u64, align| {
        if size > 0 {
            out.push(SyntheticChunk {
                kind,
                osec,
                sh_type,
                flags: ALLOC,
                size,
                align,
            });
        }
    };
    let versym = t.versym.len() as u64 * 2;
    add(
        Synthetic::GnuVersion,
        ".gnu.version",
        elf::SHT_GNU_VERSYM,
        versym,
        2,
    );
    let verdef = t.verdef.len() as u64;
    add(
        Synthetic::GnuVersionD,
        ".gnu.version_d",
        elf::SHT_GNU_VERDEF,
        verdef,
        4,
    );
    let verneed = t.verneed.len() as u64;
    add(
        Synthetic::GnuVersionR,
        ".gnu.version_r",
        elf::SHT_GNU_VERNEED,
        verneed,
        4,
    );
    out
}

/// Writes `.gnu.version`.
pub fn write_versym(t: &DynTables, buf: &mut [u8]) {
    for (i, v) in t.versym.iter().enumerate() {
        put16(buf, i * 2, *v);
    }
}
