//! Symbol flags, computed once after resolution: whether the output is dynamic, which symbols
//! are exported and preemptible, and the checks on them (`--no-allow-shlib-undefined`, version
//! scripts naming symbols that do not exist). The dynamic tables made from these flags are
//! `crate::synthetic::{dynsym, hash, versions}`.

use crate::config::{Config, OutputKind};
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
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

/// One symbol's flags: what lld's `includeInDynsym`, `computeIsPreemptible` and version script
/// assignment decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flags {
    /// Listed in `.dynsym` (exported, or imported from a shared library).
    pub in_dynsym: bool,
    /// May be preempted at run time: references go through the GOT or PLT.
    pub preemptible: bool,
    /// Output version index (`.gnu.version`): 1 = global, 2.. = version-script versions.
    pub version: u16,
    /// Made local by a version script's `local:` or `--exclude-libs`.
    pub version_local: bool,
}

impl Default for Flags {
    fn default() -> Self {
        Flags {
            in_dynsym: false,
            preemptible: false,
            version: elf::VER_NDX_GLOBAL,
            version_local: false,
        }
    }
}

/// Every symbol's [`Flags`] for one state of resolution, indexed by `SymbolId`: a value, so the
/// walks before the sweep can ask what is exported without changing the symbol table. The flags
/// the output is made from are computed once, after the sweep, and stored by [`store`].
pub struct SymbolFlags {
    /// Indexed by `SymbolId`.
    pub flags: Vec<Flags>,
    /// The exported definitions in sections (roots of the liveness walk), in symbol order.
    pub exported_definitions: Vec<SymbolId>,
}

/// Writes `flags` into the symbol table: done once, when the set of live references is final.
pub fn store(res: &mut Resolved, flags: &SymbolFlags) {
    for (s, f) in res.symtab.symbols.iter_mut().zip(&flags.flags) {
        s.in_dynsym = f.in_dynsym;
        s.preemptible = f.preemptible;
        s.version = f.version;
        s.version_local = f.version_local;
    }
}

/// Computes `in_dynsym`, `preemptible` and the version of every global symbol (lld's
/// `includeInDynsym`, `computeIsPreemptible` and version script assignment) from the current
/// resolution, without changing it.
pub fn compute(config: &Config, res: &Resolved) -> SymbolFlags {
    use rayon::prelude::*;
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
    let versions = &res.versions;
    let dynamic_list = &res.dynamic_list;
    let wants_cxx =
        !versions.is_empty() || dynamic_list.iter().chain(&res.export_list).any(|p| p.cxx);
    let matches_any =
        |list: &[crate::input::version_script::Pattern], name: &[u8], demangled: Option<&str>| {
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
    let in_list = |name: &[u8], demangled: Option<&str>| matches_any(dynamic_list, name, demangled);
    let export_list = &res.export_list;
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
    // Each symbol's flags depend on it alone: computed in parallel, then the exported
    // definitions gathered in id order.
    let one = |s: &crate::resolve::symbol_table::Symbol| -> (Flags, bool) {
        let mut f = Flags::default();
        let mut exported_definition = false;
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
            return (f, false);
        }
        let default_vis = s.visibility == elf::STV_DEFAULT;
        let exportable = default_vis || s.visibility == elf::STV_PROTECTED;
        match s.def {
            SymbolDef::Shared { .. } => {
                f.in_dynsym = s.referenced;
                f.preemptible = true;
            }
            // A lazy archive symbol that only weak references reached is not fetched; lld then
            // treats it as a weak undefined symbol, imported like any other.
            SymbolDef::Undefined | SymbolDef::Lazy { .. } => {
                let lazy = matches!(s.def, SymbolDef::Lazy { .. });
                let weak_import = s.weak && !config.z.nodynamic_undefined_weak;
                if s.referenced && default_vis && (weak_import || (may_import && !lazy && !s.weak))
                {
                    f.in_dynsym = true;
                    f.preemptible = true;
                }
            }
            // Linker-defined symbols stay in this output, except --defsym aliases and, as lld
            // exports them, __start_/__stop_ (protected).
            SymbolDef::Synthetic
                if !defsym_names.contains(s.name)
                    && crate::input::section_rules::start_stop_section(s.name).is_none() => {}
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
                    && crate::input::section_rules::start_stop_section(s.name).is_some();
                let assignment = match s.symver {
                    None if start_stop => crate::input::version_script::Assignment::Unassigned,
                    None => versions.assign(s.dynamic_name(), demangled.as_deref()),
                    Some(v) if s.version_hidden => versions.assign_versioned(s.dynamic_name(), v),
                    Some(_) => crate::input::version_script::Assignment::Unassigned,
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
                        || matches_any(export_list, s.dynamic_name(), demangled.as_deref())
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
                    f.version_local = true;
                }
                match assignment {
                    crate::input::version_script::Assignment::Local => {
                        export = false;
                        f.version_local = true;
                    }
                    crate::input::version_script::Assignment::Version(n) => f.version = n,
                    _ => {}
                }
                if let Some(d) = versions.default_index {
                    if f.version <= 1 && export && s.is_defined() && !s.is_shared() {
                        f.version = d;
                    }
                }
                if let Some(v) = s.symver {
                    if let Some(n) = versions.index_of(v) {
                        f.version = n;
                    }
                }
                if !dynamic {
                    return (f, false);
                }
                f.in_dynsym = export;
                exported_definition =
                    export && !matches!(s.def, SymbolDef::Absolute(_) | SymbolDef::Synthetic);
                // In an executable nothing defined can be preempted; in a shared object every
                // exported default-visibility definition can, unless -Bsymbolic (or a dynamic
                // list that does not name it) says otherwise.
                let func = s.sym_type == elf::STT_FUNC;
                // lld: --export-dynamic-symbol(-list) keeps a definition of a shared object
                // preemptible whatever -Bsymbolic says.
                let export_requested = export_named(s.name)
                    || matches_any(export_list, s.dynamic_name(), demangled.as_deref());
                // lld's computeIsPreemptible: under -Bsymbolic (or a dynamic list) and its
                // variants, a symbol stays preemptible only if a dynamic list or
                // --export-dynamic-symbol(-list) names it.
                let symbolic_mode = config.bsymbolic
                    || !dynamic_list.is_empty()
                    || (config.bsymbolic_functions && func)
                    || (config.bsymbolic_non_weak && !s.weak)
                    || (config.bsymbolic_non_weak_functions && func && !s.weak);
                let symbolic = symbolic_mode && !(listed || export_requested);
                f.preemptible = shared_output && export && default_vis && !symbolic;
            }
        }
        (f, exported_definition)
    };
    let computed: Vec<(Flags, bool)> = res.symtab.symbols.par_iter().map(one).collect();
    SymbolFlags {
        exported_definitions: computed
            .iter()
            .enumerate()
            .filter(|(_, &(_, exported))| exported)
            .map(|(id, _)| id as SymbolId)
            .collect(),
        flags: computed.into_iter().map(|(f, _)| f).collect(),
    }
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
