//! Dynamic linking metadata: which symbols are exported and preemptible, and the contents of
//! `.dynsym` (order), `.dynstr`, `.gnu.hash`, `.hash`, `.gnu.version`, `.gnu.version_r` and the
//! `.dynamic` tag list. Everything that does not depend on addresses is computed here, before
//! layout, so section sizes are known; addresses are filled in by the writer.

use crate::config::{Config, HashStyle, OutputKind};
use crate::relocations::ScanResult;
use crate::resolve::Resolved;
use crate::symbol_table::{SymbolDef, SymbolId};
use hashbrown::HashMap;
use object::elf;
use object::read::elf::Sym;
use object::LittleEndian as LE;

/// Whether the output is dynamically linked (has `.dynamic`, `.dynsym`, an interpreter or is a
/// shared object). lld links statically when there are no shared libraries, no `-pie`, no
/// `-shared` and no `--export-dynamic`.
pub fn is_dynamic(config: &Config, res: &Resolved) -> bool {
    if config.is_static {
        return false;
    }
    config.output_kind == OutputKind::SharedObject
        || config.pie
        || !res.shared.is_empty()
        || config.export_dynamic
}

/// Sets `in_dynsym`, `preemptible` and the version of every global symbol (lld's
/// `includeInDynsym`, `computeIsPreemptible` and version script assignment).
pub fn compute_symbol_flags(config: &Config, res: &mut Resolved) {
    let dynamic = is_dynamic(config, res);
    let shared_output = config.output_kind == OutputKind::SharedObject;
    // Undefined symbols the link does not reject are imported, to be found at run time.
    let may_import =
        shared_output || !config.reports_undefined_in_objects() || config.warn_unresolved_symbols;
    // --export-dynamic-symbol takes glob patterns.
    let export_patterns: Vec<&[u8]> = config
        .export_dynamic_symbols
        .iter()
        .map(|s| s.as_bytes())
        .collect();
    let export_named = |name: &[u8]| {
        export_patterns
            .iter()
            .any(|p| crate::glob::matches(p, name))
    };
    let versions = std::mem::take(&mut res.versions);
    let dynamic_list = std::mem::take(&mut res.dynamic_list);
    let wants_cxx =
        !versions.is_empty() || dynamic_list.iter().chain(&res.export_list).any(|p| p.cxx);
    let matches_any =
        |list: &[crate::version_script::Pattern], name: &[u8], demangled: Option<&str>| {
            list.iter().any(|p| {
                // An `extern "C++"` pattern sees the demangled name; an unmangled name stands
                // for itself, as in lld.
                let subject = if p.cxx {
                    Some(demangled.map_or(name, str::as_bytes))
                } else {
                    Some(name)
                };
                subject.is_some_and(|s| {
                    if p.glob {
                        crate::glob::matches(p.text.as_bytes(), s)
                    } else {
                        p.text.as_bytes() == s
                    }
                })
            })
        };
    let in_list =
        |name: &[u8], demangled: Option<&str>| matches_any(&dynamic_list, name, demangled);
    let export_list = std::mem::take(&mut res.export_list);
    // --exclude-libs: definitions from members of the named archives are not exported (lld
    // makes them local, as a version script's `local:` would).
    let excluded_file: Vec<bool> = res
        .files
        .iter()
        .map(|f| {
            f.archive
                .as_deref()
                .is_some_and(|a| excluded_archive(config, a))
        })
        .collect();
    let excluded_bitcode: Vec<bool> = res
        .bitcode
        .iter()
        .map(|b| {
            b.member
                && b.name
                    .split_once('(')
                    .is_some_and(|(a, _)| excluded_archive(config, a))
        })
        .collect();
    // --defsym aliases are definitions of this output, exported like any other (lld defines
    // them from the script); the other linker-defined symbols are not.
    let defsym_names: hashbrown::HashSet<&[u8]> =
        config.defsyms.iter().map(|d| d.name.as_bytes()).collect();
    res.exported_definitions.clear();
    for (id, s) in res.symtab.symbols.iter_mut().enumerate() {
        s.in_dynsym = false;
        s.preemptible = false;
        s.version = elf::VER_NDX_GLOBAL;
        s.version_local = false;
        // A static output has no dynamic symbols, but `local:` and `--exclude-libs` still make
        // definitions local in `.symtab`, as in lld.
        let defined = matches!(
            s.def,
            SymbolDef::Defined { .. }
                | SymbolDef::Common { .. }
                | SymbolDef::Absolute(_)
                | SymbolDef::Synthetic
                | SymbolDef::Bitcode { .. }
        );
        if !dynamic && !defined {
            continue;
        }
        let default_vis = s.visibility == elf::STV_DEFAULT;
        let exportable = default_vis || s.visibility == elf::STV_PROTECTED;
        match s.def {
            SymbolDef::Shared { .. } => {
                s.in_dynsym = s.referenced;
                s.preemptible = true;
            }
            // A lazy archive symbol that only weak references reached is not fetched; lld then
            // treats it as a weak undefined symbol, imported like any other.
            SymbolDef::Undefined | SymbolDef::Lazy { .. } => {
                let lazy = matches!(s.def, SymbolDef::Lazy { .. });
                let weak_import = s.weak && !config.z.nodynamic_undefined_weak;
                if s.referenced && default_vis && (weak_import || (may_import && !lazy && !s.weak))
                {
                    s.in_dynsym = true;
                    s.preemptible = true;
                }
            }
            // Linker-defined symbols stay in this output, except --defsym aliases and, as lld
            // exports them, __start_/__stop_ (protected).
            SymbolDef::Synthetic
                if !defsym_names.contains(s.name)
                    && crate::section_rules::start_stop_section(s.name).is_none() => {}
            SymbolDef::Defined { .. }
            | SymbolDef::Common { .. }
            | SymbolDef::Absolute(_)
            | SymbolDef::Synthetic
            | SymbolDef::Bitcode { .. } => {
                let demangled = if wants_cxx {
                    crate::demangle::demangle(s.dynamic_name())
                } else {
                    None
                };
                // lld localizes a `foo@V` definition only by `local: *`, and never `foo@@V`.
                // lld defines __start_/__stop_ after reading version scripts: they never
                // match a pattern (`local: *` included).
                let start_stop = s.def == SymbolDef::Synthetic
                    && crate::section_rules::start_stop_section(s.name).is_some();
                let assignment = match s.symver {
                    None if start_stop => crate::version_script::Assignment::Unassigned,
                    None => versions.assign(s.dynamic_name(), demangled.as_deref()),
                    Some(v) if s.version_hidden => versions.assign_versioned(s.dynamic_name(), v),
                    Some(_) => crate::version_script::Assignment::Unassigned,
                };
                // --dynamic-list-data lists every data symbol (GNU ld).
                let data = matches!(s.sym_type, elf::STT_OBJECT | elf::STT_COMMON | elf::STT_TLS);
                let listed = in_list(s.dynamic_name(), demangled.as_deref())
                    || (config.dynamic_list_data && data);
                // lld: a definition only bitcode made, which LLVM may leave out of the
                // symbol table, is exported only when something outside bitcode names it.
                let omittable = matches!(s.def, SymbolDef::Bitcode { .. })
                    && s.bitcode_omittable
                    && !s.bitcode_not_omittable
                    && !s.used_in_regular_obj
                    && !s.referenced_by_dso
                    && !export_named(s.name);
                let mut export = exportable
                    && !omittable
                    && (shared_output
                        || config.export_dynamic
                        || s.referenced_by_dso
                        || export_named(s.name)
                        || matches_any(&export_list, s.dynamic_name(), demangled.as_deref())
                        || listed
                        || s.symver.is_some());
                let excluded = match s.def {
                    SymbolDef::Defined { file, .. } | SymbolDef::Common { file, .. } => {
                        excluded_file.get(file as usize).copied().unwrap_or(false)
                    }
                    SymbolDef::Bitcode { file, .. } => excluded_bitcode
                        .get(file as usize)
                        .copied()
                        .unwrap_or(false),
                    _ => false,
                };
                if excluded {
                    export = false;
                    s.version_local = true;
                }
                match assignment {
                    crate::version_script::Assignment::Local => {
                        export = false;
                        s.version_local = true;
                    }
                    crate::version_script::Assignment::Version(n) => s.version = n,
                    _ => {}
                }
                if let Some(d) = versions.default_index {
                    if s.version <= 1 && export && s.is_defined() && !s.is_shared() {
                        s.version = d;
                    }
                }
                if let Some(v) = s.symver {
                    if let Some(n) = versions.index_of(v) {
                        s.version = n;
                    }
                }
                if !dynamic {
                    continue;
                }
                s.in_dynsym = export;
                if export && !matches!(s.def, SymbolDef::Absolute(_) | SymbolDef::Synthetic) {
                    res.exported_definitions.push(id as SymbolId);
                }
                // In an executable nothing defined can be preempted; in a shared object every
                // exported default-visibility definition can, unless -Bsymbolic (or a dynamic
                // list that does not name it) says otherwise.
                let func = s.sym_type == elf::STT_FUNC;
                // lld: --export-dynamic-symbol(-list) keeps a definition of a shared object
                // preemptible whatever -Bsymbolic says.
                let export_requested = export_named(s.name)
                    || matches_any(&export_list, s.dynamic_name(), demangled.as_deref());
                // lld's computeIsPreemptible: under -Bsymbolic (or a dynamic list) and its
                // variants, a symbol stays preemptible only if a dynamic list or
                // --export-dynamic-symbol(-list) names it.
                let symbolic_mode = config.bsymbolic
                    || !dynamic_list.is_empty()
                    || (config.bsymbolic_functions && func)
                    || (config.bsymbolic_non_weak && !s.weak)
                    || (config.bsymbolic_non_weak_functions && func && !s.weak);
                let symbolic = symbolic_mode && !(listed || export_requested);
                s.preemptible = shared_output && export && default_vis && !symbolic;
            }
        }
    }
    res.versions = versions;
    res.dynamic_list = dynamic_list;
    res.export_list = export_list;
}

/// Whether `--exclude-libs` names the archive at `path` (by file name, or `ALL`).
fn excluded_archive(config: &Config, path: &str) -> bool {
    if config.exclude_libs.is_empty() {
        return false;
    }
    let name = std::path::Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    config.exclude_libs.iter().any(|l| l == "ALL" || *l == name)
}

/// lld's check of shared libraries' undefined references (`--no-allow-shlib-undefined`, the
/// default for executables): for a library whose `DT_NEEDED` libraries are all in the link, a
/// non-weak undefined reference that nothing defines, or that only a non-exported definition
/// of this output would satisfy, is an error (a warning with `--warn-unresolved-symbols`).
pub fn check_shlib_undefined(config: &Config, res: &Resolved) -> Vec<crate::error::Error> {
    let mut errors = Vec::new();
    let report = config
        .report_undefined_in_shlibs
        .unwrap_or(config.output_kind != OutputKind::SharedObject);
    if !report {
        return errors;
    }
    let sonames: hashbrown::HashSet<&str> = res.shared.iter().map(|s| s.soname.as_str()).collect();
    for file in &res.shared {
        if !file.needed.iter().all(|n| sonames.contains(n.as_str())) {
            continue;
        }
        for (i, d) in file.dynsyms.iter().enumerate().skip(1) {
            if d.st_shndx(LE) != elf::SHN_UNDEF || d.st_bind() == elf::STB_WEAK {
                continue;
            }
            let name = file.sym_name(i);
            let Some(id) = res.symtab.lookup(name) else {
                continue;
            };
            let s = res.symtab.get(id);
            if s.dso_defined {
                continue;
            }
            let msg = match s.def {
                SymbolDef::Undefined | SymbolDef::Lazy { .. } if !s.weak => format!(
                    "undefined reference: {}\n>>> referenced by {} (disallowed by --no-allow-shlib-undefined)",
                    s.display_name(),
                    file.name
                ),
                SymbolDef::Defined { file: def, .. }
                    if matches!(s.visibility, elf::STV_HIDDEN | elf::STV_INTERNAL)
                        || s.version_local =>
                {
                    format!(
                        "non-exported symbol '{}' in '{}' is referenced by DSO '{}'",
                        s.display_name(),
                        res.files[def as usize].name,
                        file.name
                    )
                }
                _ => continue,
            };
            // A versioned reference (`foo@VER_1` through `.gnu.version_r`) is satisfied by a
            // library defining `foo` at a non-default version, which does not take part in
            // resolution by its bare name. weld does not read `.gnu.version_r`, so any
            // library's definition of the name counts (lld would also check the version).
            // Asked last: it reads every library's symbols.
            if file.version(i).0 >= 2 && defined_by_some_library(res, name) {
                continue;
            }
            if config.warn_unresolved_symbols {
                if let Err(e) = config.warn(&msg) {
                    errors.push(e);
                }
            } else {
                errors.push(crate::error::Error(msg));
            }
        }
    }
    errors
}

fn defined_by_some_library(res: &Resolved, name: &[u8]) -> bool {
    res.shared.iter().any(|f| {
        f.dynsyms
            .iter()
            .enumerate()
            .skip(1)
            .any(|(i, d)| d.st_shndx(LE) != elf::SHN_UNDEF && f.sym_name(i) == name)
    })
}

/// Checks version scripts against the symbols (lld's `--no-undefined-version` and `.symver`
/// version checks).
pub fn check_versions(config: &Config, res: &Resolved) -> Vec<crate::error::Error> {
    let mut errors = Vec::new();
    if config.no_undefined_version {
        for (version, name) in res.versions.exact_globals() {
            let defined = res.symtab.lookup(name.as_bytes()).is_some_and(|id| {
                res.symtab.get(id).is_defined() || res.symver_aliases.contains(&id)
            });
            if !defined {
                // lld names the anonymous version by its index's name.
                let version = if version.is_empty() {
                    "global"
                } else {
                    version
                };
                errors.push(crate::err!(
                    "version script assignment of '{version}' to symbol '{name}' failed: symbol not defined"
                ));
            }
        }
    }
    // lld reports a `.symver` version no version script defines only for shared objects: an
    // executable may define `foo@V1` to override a library's, and a local symbol is not
    // exported anyway.
    if config.output_kind != OutputKind::SharedObject {
        return errors;
    }
    for s in &res.symtab.symbols {
        let Some(v) = s.symver else {
            continue;
        };
        if !s.is_defined() || s.version_local || res.versions.index_of(v).is_some() {
            continue;
        }
        let full = if s.version_hidden {
            s.name_str()
        } else {
            format!("{}@@{}", s.name_str(), String::from_utf8_lossy(v))
        };
        let file = match s.def {
            SymbolDef::Defined { file, .. } | SymbolDef::Common { file, .. } => {
                format!("{}: ", res.files[file as usize].name)
            }
            SymbolDef::Bitcode { file, .. } => format!("{}: ", res.bitcode[file as usize].name),
            _ => String::new(),
        };
        errors.push(crate::err!(
            "{file}symbol {full} has undefined version {}",
            String::from_utf8_lossy(v)
        ));
    }
    errors
}

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

/// Address-independent parts of the dynamic tables.
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
    fn add_str(&mut self, s: &[u8]) -> u32 {
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

/// Builds the dynamic tables for the symbols that must appear in `.dynsym`.
pub fn build_tables(config: &Config, res: &Resolved, scan: &ScanResult) -> DynTables {
    let mut t = DynTables {
        dynstr: vec![0],
        ..Default::default()
    };

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

fn build_gnu_hash(res: &Resolved, exports: &[SymbolId], symoffset: u32, nbuckets: u32) -> Vec<u8> {
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

fn build_sysv_hash(res: &Resolved, dynsym: &[SymbolId]) -> Vec<u8> {
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

/// `.gnu.version` and `.gnu.version_r`, laid out as lld does: version indices in order of first
/// use, all `Verneed` records first, then all `Vernaux` records grouped by library.
fn build_versions(config: &Config, res: &Resolved, t: &mut DynTables) {
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
                        crate::shared_files::VERSYM_HIDDEN
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

/// The size and type of a shared data symbol, for its copy relocation.
pub fn shared_symbol_size_align(res: &Resolved, id: SymbolId) -> (u64, u64) {
    if let SymbolDef::Shared { file, index } = res.symtab.get(id).def {
        let s = &res.shared[file as usize].dynsyms[index as usize];
        let size = s.st_size(LE);
        let align = res.shared[file as usize].symbol_align(index as usize);
        return (size, align);
    }
    (0, 1)
}
