//! `.dynsym` and `.dynstr`: which symbols the dynamic symbol table lists, in lld's order
//! (imports, then exports sorted for `.gnu.hash`), the strings of the dynamic section, and the
//! entries written from the final layout.

use super::hash::{build_gnu_hash, build_sysv_hash, gnu_hash};
use super::versions::build_versions;
use crate::config::{Config, HashStyle, OutputKind};
use crate::output::layout::{DynTables, Layout, SymtabEntry};
use crate::output::sections::{put16, put32, put64, Synthetic, SyntheticChunk, ALLOC, SYM_SIZE};
use crate::relocations::scan::ScanResult;
use crate::resolve::symbol_table::{SymKey, SymbolDef, SymbolId};
use crate::resolve::Resolved;
use object::elf;

/// Builds the dynamic tables for the symbols that must appear in `.dynsym`.
pub fn build_tables(config: &Config, res: &Resolved, scan: &ScanResult) -> DynTables {
    let mut t = DynTables::new();

    // Imports (not hashed) first, then exports; GNU hash wants exports sorted by bucket.
    let mut imports = Vec::new();
    let mut exports = Vec::new();
    for (id, s) in res.symtab.symbols.iter().enumerate() {
        let id = id as SymbolId;
        if !(s.in_dynsym || scan.dynamic_refs.contains(&id)) {
            continue;
        }
        let defined_here = matches!(
            s.def,
            SymbolDef::Defined { .. }
                | SymbolDef::Common { .. }
                | SymbolDef::Absolute(_)
                | SymbolDef::Synthetic
        ) || scan.copy_index.contains_key(&id)
            || scan.canonical_plt.contains(&id);
        if defined_here {
            exports.push(id);
        } else {
            imports.push(id);
        }
    }
    let use_gnu = matches!(config.hash_style, HashStyle::Gnu | HashStyle::Both);
    let use_sysv = matches!(config.hash_style, HashStyle::Sysv | HashStyle::Both);
    let nbuckets = if use_gnu {
        // lld's load factor: four symbols per bucket, rounded down (at least one bucket, as an
        // empty table upsets some loaders), so seven exports share a single bucket.
        (exports.len() as u32 / 4).max(1)
    } else {
        1
    };
    if use_gnu {
        exports.sort_by_key(|&id| gnu_hash(res.symtab.get(id).dynamic_name()) % nbuckets);
    }
    t.dynsym = imports.iter().chain(exports.iter()).copied().collect();
    for (i, &id) in t.dynsym.iter().enumerate() {
        t.dynsym_index.insert(id, i as u32 + 1);
    }
    let names: Vec<u32> = t
        .dynsym
        .clone()
        .iter()
        .map(|&id| t.add_str(res.symtab.get(id).dynamic_name()))
        .collect();
    t.name_off = names;
    for (i, shared) in res.shared.iter().enumerate() {
        if !shared.as_needed || res.shared_used[i] {
            let off = t.add_str(shared.soname.as_bytes());
            t.needed.push(off);
        }
    }
    if config.output_kind == OutputKind::SharedObject {
        if let Some(so) = &config.soname {
            t.soname = Some(t.add_str(so.as_bytes()));
        }
    }
    if !config.rpath.is_empty() {
        let joined = config.rpath.join(":");
        t.runpath = Some(t.add_str(joined.as_bytes()));
    }
    if !config.audit.is_empty() {
        t.audit = Some(t.add_str(config.audit.join(":").as_bytes()));
    }
    // GNU ld: the libraries linked against pass their audit libraries on to this output.
    let depaudit: Vec<&str> = config
        .depaudit
        .iter()
        .map(String::as_str)
        .chain(res.shared.iter().filter_map(|s| s.audit.as_deref()))
        .collect();
    if !depaudit.is_empty() {
        t.depaudit = Some(t.add_str(depaudit.join(":").as_bytes()));
    }
    t.filters = config
        .filters
        .iter()
        .map(|f| t.add_str(f.as_bytes()))
        .collect();
    t.auxiliaries = config
        .auxiliaries
        .iter()
        .map(|f| t.add_str(f.as_bytes()))
        .collect();

    if use_gnu {
        t.gnu_hash = build_gnu_hash(res, &exports, imports.len() as u32 + 1, nbuckets);
    }
    if use_sysv {
        t.sysv_hash = build_sysv_hash(res, &t.dynsym);
    }
    build_versions(config, res, &mut t);
    t
}

/// `.dynsym`: imports are undefined (a canonical PLT import keeps its PLT address as value);
/// definitions carry their address and output section.
pub fn write(config: &Config, res: &Resolved, lay: &Layout, buf: &mut [u8]) {
    buf[..SYM_SIZE as usize].fill(0);
    for (i, &id) in lay.dyn_tables.dynsym.iter().enumerate() {
        let o = (i + 1) * SYM_SIZE as usize;
        let s = res.symtab.get(id);
        let e = SymtabEntry::Global {
            id,
            name_off: 0,
            local: false,
        };
        let (mut value, mut shndx) = lay.symtab_value(res, &e);
        let mut size = lay.global_size[id as usize];
        let mut ty = match s.def {
            SymbolDef::Defined { file, index } => {
                res.files[file as usize].symbols[index as usize].st_type()
            }
            SymbolDef::Common { .. } => elf::STT_OBJECT,
            _ => s.sym_type,
        };
        if let SymbolDef::Shared { .. } = s.def {
            if let Some(&c) = lay.scan.copy_index.get(&id) {
                shndx = lay
                    .copy_section(c)
                    .map(|(os, _)| lay.sections[os as usize].shndx as u16)
                    .unwrap_or(0);
            } else {
                shndx = elf::SHN_UNDEF;
                if !lay.scan.canonical_plt.contains(&id) {
                    value = 0;
                }
            }
        }
        if ty == elf::STT_TLS && shndx != elf::SHN_UNDEF {
            value = value.wrapping_sub(lay.tls_start);
        }
        if ty == elf::STT_GNU_IFUNC {
            if let Some((v, sh)) = lay.canonical_iplt(SymKey::Global(id)) {
                // Other modules must see the address this one uses, not the resolver.
                (ty, value, size) = (elf::STT_FUNC, v, 0);
                shndx = sh.unwrap_or(shndx);
            }
        }
        let unique = !config.no_gnu_unique
            && matches!(s.def, SymbolDef::Defined { file, index }
                if res.files[file as usize].symbols[index as usize].st_bind() == elf::STB_GNU_UNIQUE);
        let bind = if unique {
            elf::STB_GNU_UNIQUE
        } else if s.weak {
            elf::STB_WEAK
        } else {
            elf::STB_GLOBAL
        };
        put32(buf, o, lay.dyn_tables.name_off[i]);
        buf[o + 4] = (bind << 4) | ty;
        buf[o + 5] = s.visibility;
        put16(buf, o + 6, shndx);
        put64(buf, o + 8, value);
        put64(buf, o + 16, if shndx == elf::SHN_UNDEF { 0 } else { size });
    }
}

/// `.dynsym`'s chunk: the null symbol, then the tables' symbols.
pub fn dynsym_chunk(t: &DynTables) -> SyntheticChunk {
    SyntheticChunk {
        kind: Synthetic::DynSym,
        osec: ".dynsym",
        sh_type: elf::SHT_DYNSYM,
        flags: ALLOC,
        size: (t.dynsym.len() as u64 + 1) * SYM_SIZE,
        align: 8,
    }
}

/// `.dynstr`'s chunk.
pub fn dynstr_chunk(t: &DynTables) -> SyntheticChunk {
    SyntheticChunk {
        kind: Synthetic::DynStr,
        osec: ".dynstr",
        sh_type: elf::SHT_STRTAB,
        flags: ALLOC,
        size: t.dynstr.len() as u64,
        align: 1,
    }
}
