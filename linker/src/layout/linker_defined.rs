//! The symbols the linker defines (`_end`, `__bss_start`, `_GLOBAL_OFFSET_TABLE_`,
//! `__start_SEC`/`__stop_SEC`, `__init_array_start`, ...): which names it may define, and their
//! values once the layout is known; and the entry point.

use crate::bail;
use crate::config::Config;
use crate::config::OutputKind;
use crate::error::Result;
use crate::input::section_rules::start_stop_section;
use crate::output::layout::Layout;
use crate::output::sections::{OutputSection, Synthetic};
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use crate::synthetic::dyn_relocs::dyn_reloc_format;
use hashbrown::HashMap;
use object::elf;
use object::read::elf::Sym;
use object::LittleEndian as LE;

/// Gives values to the linker-defined symbols that objects reference.
pub(super) fn define_synthetic_symbols(
    config: &Config,
    res: &Resolved,
    lay: &mut Layout,
) -> Result<()> {
    let base = config.image_base();
    let find = |name: &str| {
        lay.sections
            .iter()
            .find(|s| s.name == name)
            .map(|s| (s.addr, s.size))
    };
    let alloc: Vec<&OutputSection> = lay.sections.iter().filter(|s| s.is_alloc()).collect();
    let first_alloc_addr = alloc.first().map(|s| s.addr).unwrap_or(base);
    let end_of = |pred: &dyn Fn(&OutputSection) -> bool| -> Option<u64> {
        lay.sections
            .iter()
            .filter(|s| {
                s.is_alloc()
                    && pred(s)
                    && !(s.is_nobits() && s.flags & u64::from(elf::SHF_TLS) != 0)
            })
            .map(|s| s.addr + s.size)
            .max()
    };
    let etext = end_of(&|s| s.flags & u64::from(elf::SHF_EXECINSTR) != 0).unwrap_or(base);
    let edata = end_of(&|s| !s.is_nobits()).unwrap_or(base);
    let end = end_of(&|_| true).unwrap_or(base);
    let bss_start = lay
        .sections
        .iter()
        .find(|s| s.name == ".bss")
        .map(|s| s.addr)
        .unwrap_or(end);
    let array = |name: &str| {
        find(name)
            .map(|(a, s)| (a, a + s))
            .unwrap_or((first_alloc_addr, first_alloc_addr))
    };
    let rela_iplt = lay
        .synthetic_offset(Synthetic::RelaDyn)
        .and(lay.synthetic_address(Synthetic::RelaDyn));
    let rela_iplt_bounds = match rela_iplt {
        Some(a) if !config.is_pic() => {
            // In a static non-PIE output .rela.dyn holds only IRELATIVE entries.
            (a, a + lay.rela_dyn_count * dyn_reloc_format(config).1)
        }
        _ => (first_alloc_addr, first_alloc_addr),
    };
    let mut defs: Vec<(&[u8], u64)> = vec![
        (b"__ehdr_start", base),
        (b"__executable_start", base),
        // lld: the marker `__cxa_atexit` gets for this module, where no crtbegin.o defines it.
        (b"__dso_handle", base),
        (b"etext", etext),
        (b"_etext", etext),
        (b"__etext", etext),
        (b"edata", edata),
        (b"_edata", edata),
        (b"end", end),
        (b"_end", end),
        (b"__bss_start", bss_start),
        (b"__init_array_start", array(".init_array").0),
        (b"__init_array_end", array(".init_array").1),
        (b"__fini_array_start", array(".fini_array").0),
        (b"__fini_array_end", array(".fini_array").1),
        (b"__preinit_array_start", array(".preinit_array").0),
        (b"__preinit_array_end", array(".preinit_array").1),
        (b"_GLOBAL_OFFSET_TABLE_", lay.gotplt_addr),
        (b"_TLS_MODULE_BASE_", lay.tls_start),
    ];
    if !config.is_pic() {
        let [start, end] = iplt_bounds_names(config);
        defs.push((start, rela_iplt_bounds.0));
        defs.push((end, rela_iplt_bounds.1));
    }
    if let Some(d) = lay.synthetic_address(Synthetic::Dynamic) {
        defs.push((b"_DYNAMIC", d));
    }
    // The output section each linker-defined symbol belongs to (lld's choice), by name.
    let owner = |name: &[u8]| -> Option<&str> {
        Some(match name {
            b"__init_array_start" | b"__init_array_end" => ".init_array",
            b"__fini_array_start" | b"__fini_array_end" => ".fini_array",
            b"__preinit_array_start" | b"__preinit_array_end" => ".preinit_array",
            b"_GLOBAL_OFFSET_TABLE_" => ".got.plt",
            b"__rela_iplt_start" | b"__rela_iplt_end" => ".rela.dyn",
            b"__rel_iplt_start" | b"__rel_iplt_end" => ".rel.dyn",
            b"_DYNAMIC" => ".dynamic",
            b"__bss_start" => ".bss",
            _ => return None,
        })
    };
    // A linker script's assignment wins over the linker's own value for a name (`_end = .;`).
    let script_defined =
        |id: SymbolId| lay.script.as_ref().is_some_and(|s| s.symbols.contains(&id));
    for (name, v) in defs {
        if let Some(id) = res.symtab.lookup(name) {
            if res.symtab.get(id).def == SymbolDef::Synthetic && !script_defined(id) {
                lay.global_value[id as usize] = v;
                if let Some(os) =
                    owner(name).and_then(|n| lay.sections.iter().find(|s| s.name == n))
                {
                    lay.synthetic_section.insert(id, os.shndx as u16);
                }
            }
        }
    }
    // Script assignments with expressions, in order (one may read another's value).
    for d in &config.defsyms {
        if let crate::config::DefsymValue::Expr(e) = &d.value {
            let Some(id) = res.symtab.lookup(d.name.as_bytes()) else {
                continue;
            };
            if res.symtab.get(id).def != SymbolDef::Synthetic {
                continue;
            }
            let v = crate::script::expr::eval(
                e,
                &super::script_values::LayoutValues { config, res, lay },
            )?;
            lay.global_value[id as usize] = v.value();
            // Section-relative values belong to their section, the others are absolute (lld).
            let shndx = v
                .section
                .filter(|_| !v.force_absolute)
                .and_then(|base| lay.sections.iter().find(|s| s.name == base.name))
                .map_or(elf::SHN_ABS, |os| os.shndx as u16);
            lay.synthetic_section.insert(id, shndx);
        }
    }
    // --defsym=ALIAS=SYM+N.
    for d in &config.defsyms {
        if let crate::config::DefsymValue::Symbol(target, addend) = &d.value {
            let Some(id) = res.symtab.lookup(d.name.as_bytes()) else {
                continue;
            };
            let Some(t) = res
                .symtab
                .lookup(target.as_bytes())
                .filter(|&t| res.symtab.get(t).is_defined())
            else {
                bail!("--defsym:1: symbol not found: {target}");
            };
            lay.global_value[id as usize] =
                lay.global_value[t as usize].wrapping_add(*addend as u64);
            // An alias of a symbol the linker or a script defined is in the same section.
            if let Some(&shndx) = lay.synthetic_section.get(&t) {
                lay.synthetic_section.insert(id, shndx);
            }
        }
    }
    // __start_SEC / __stop_SEC for C-identifier-named output sections.
    for (id, s) in res.symtab.symbols.iter().enumerate() {
        if s.def != SymbolDef::Synthetic {
            continue;
        }
        let Some((sec, is_start)) = start_stop_section(s.name) else {
            continue;
        };
        let Ok(sec) = std::str::from_utf8(sec) else {
            continue;
        };
        if let Some((a, size)) = find(sec) {
            lay.global_value[id] = if is_start { a } else { a + size };
            if let Some(os) = lay.sections.iter().find(|s| s.name == sec) {
                lay.synthetic_section
                    .insert(id as SymbolId, os.shndx as u16);
            }
        }
    }
    Ok(())
}

pub(super) fn entry_address(config: &Config, res: &Resolved, lay: &Layout) -> Result<u64> {
    // lld's default entry is `_start` for shared objects too; only a missing one there goes
    // without a warning.
    let name = config.entry.as_deref().unwrap_or("_start");
    let warn_missing = config.entry.is_some() || config.output_kind == OutputKind::Executable;
    if let Some(id) = res.symtab.lookup(name.as_bytes()) {
        let s = res.symtab.get(id);
        if s.is_defined() {
            return Ok(lay.global_value[id as usize]);
        }
        // lld takes an undefined (referenced) symbol as found: its address is 0.
        if s.referenced {
            return Ok(0);
        }
    }
    // lld also accepts a number.
    let number = match name.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => name.parse::<u64>().ok(),
    };
    if let Some(v) = number {
        return Ok(v);
    }
    if warn_missing {
        config.warn(&format!(
            "cannot find entry symbol {name}; not setting start address"
        ))?;
    }
    Ok(0)
}

/// The symbols bounding a static executable's IRELATIVE relocations (for the C library's
/// startup code): `__rel_iplt_*` under `-z rel`, as in lld.
fn iplt_bounds_names(config: &Config) -> [&'static [u8]; 2] {
    if config.z.rel {
        [b"__rel_iplt_start", b"__rel_iplt_end"]
    } else {
        [b"__rela_iplt_start", b"__rela_iplt_end"]
    }
}

/// The linker-defined names that weld provides when an object refers to them.
pub fn is_linker_defined(config: &Config, name: &[u8]) -> bool {
    let is_pic = config.is_pic();
    let fixed: &[&[u8]] = &[
        b"__ehdr_start",
        b"__executable_start",
        b"__dso_handle",
        b"etext",
        b"_etext",
        b"__etext",
        b"edata",
        b"_edata",
        b"end",
        b"_end",
        b"__bss_start",
        b"__init_array_start",
        b"__init_array_end",
        b"__fini_array_start",
        b"__fini_array_end",
        b"__preinit_array_start",
        b"__preinit_array_end",
        b"_GLOBAL_OFFSET_TABLE_",
        b"_TLS_MODULE_BASE_",
        b"_DYNAMIC",
    ];
    if fixed.contains(&name) {
        return true;
    }
    !is_pic && iplt_bounds_names(config).contains(&name)
}

/// After `--gc-sections`: a `__start_X`/`__stop_X` whose sections X were all collected is
/// undefined again (lld defines them only for output sections that exist).
pub fn drop_collected_start_stop(res: &mut Resolved) {
    // The sections the linker-defined `__start_`/`__stop_` symbols name (few), then which of
    // them still have a live input section.
    let named: Vec<(usize, &[u8])> = res
        .symtab
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.def == SymbolDef::Synthetic)
        .filter_map(|(id, s)| start_stop_section(s.name).map(|(n, _)| (id, n)))
        .collect();
    if named.is_empty() {
        return;
    }
    let mut live_names: hashbrown::HashSet<&[u8]> = named.iter().map(|&(_, n)| n).collect();
    let mut still_live: hashbrown::HashSet<&[u8]> = hashbrown::HashSet::new();
    for f in &res.files {
        for s in &f.sections {
            if s.kind.is_copied() && live_names.remove(s.name) {
                still_live.insert(s.name);
            }
        }
    }
    let gone: Vec<usize> = named
        .iter()
        .filter(|(_, n)| !still_live.contains(n))
        .map(|&(id, _)| id)
        .collect();
    if gone.is_empty() {
        return;
    }
    // Undefined again, with the binding of its references: only weak ones make it a weak
    // undefined symbol that resolves to 0, as in lld.
    // Its visibility is the references' again too (the most constraining one), not the one the
    // linker gave its definition: lld's report says "undefined symbol" for a default one.
    let mut strong: hashbrown::HashSet<usize> = hashbrown::HashSet::new();
    let mut visibility: HashMap<usize, u8> = HashMap::new();
    for (fi, f) in res.files.iter().enumerate() {
        for (k, &id) in res.file_syms[fi].iter().enumerate() {
            let sym = &f.symbols[f.first_global + k];
            if sym.st_shndx(LE) == elf::SHN_UNDEF {
                if sym.st_bind() != elf::STB_WEAK {
                    strong.insert(id as usize);
                }
                let v = sym.st_visibility();
                let e = visibility.entry(id as usize).or_insert(elf::STV_DEFAULT);
                if v != elf::STV_DEFAULT && (*e == elf::STV_DEFAULT || v < *e) {
                    *e = v;
                }
            }
        }
    }
    for id in gone {
        let s = &mut res.symtab.symbols[id];
        s.def = SymbolDef::Undefined;
        s.weak = !strong.contains(&id);
        s.visibility = visibility.get(&id).copied().unwrap_or(elf::STV_DEFAULT);
    }
}

/// Marks referenced-but-undefined linker-defined symbols (and `__start_`/`__stop_` symbols of
/// existing output sections) as `Synthetic`, before relocation scanning, as lld does.
pub fn add_linker_defined(config: &Config, res: &mut Resolved) {
    let is_pic = config.is_pic();
    // lld always defines _DYNAMIC (hidden) when the output has a .dynamic section.
    let has_dynamic_section =
        crate::resolve::symbol_flags::is_dynamic(config, res) || (is_pic && config.is_static);
    if has_dynamic_section {
        let id = res.symtab.intern(b"_DYNAMIC");
        let s = res.symtab.get_mut(id);
        if s.def == SymbolDef::Undefined {
            s.referenced = true;
        }
    }
    // The output names of the sections in the link, gathered only when a `__start_`/`__stop_`
    // reference asks (a pass over every input section).
    let files = &res.files;
    let mut section_names: Option<hashbrown::HashSet<&str>> = None;
    for s in res.symtab.symbols.iter_mut() {
        if s.def != SymbolDef::Undefined && !matches!(s.def, SymbolDef::Lazy { .. }) {
            continue;
        }
        if !s.referenced {
            continue;
        }
        let mut define = is_linker_defined(config, s.name);
        if let Some((sec, _)) = start_stop_section(s.name) {
            let names = section_names.get_or_insert_with(|| {
                files
                    .iter()
                    .flat_map(|f| &f.sections)
                    .filter(|s| s.kind.is_copied())
                    .map(|s| s.output_name())
                    .collect()
            });
            define |= std::str::from_utf8(sec).is_ok_and(|sec| names.contains(sec));
        }
        if s.name == b"_DYNAMIC" && !has_dynamic_section {
            define = false;
        }
        if define {
            s.def = SymbolDef::Synthetic;
            // As lld: the start of this module's TLS block, a TLS symbol of value 0.
            if s.name == b"_TLS_MODULE_BASE_" {
                s.sym_type = elf::STT_TLS;
            }
            // lld gives __start_/__stop_ protected visibility (global in .symtab), the
            // traditional Unix names (`end`, `_edata`, ...) default visibility (the references'
            // still count), and hides the other linker-defined symbols.
            s.visibility = if start_stop_section(s.name).is_some() {
                config.z.start_stop_visibility
            } else if matches!(
                s.name,
                b"__bss_start" | b"end" | b"_end" | b"etext" | b"_etext" | b"edata" | b"_edata"
            ) {
                s.visibility
            } else {
                elf::STV_HIDDEN
            };
            s.weak = false;
        }
    }
    for d in &config.defsyms {
        if !crate::resolve::scripts::link_defines(d, res) {
            continue;
        }
        // An alias has its target's type (lld copies it with the value): `bar = foo` makes a
        // function of `bar` when `foo` is one.
        let alias_type = match &d.value {
            crate::config::DefsymValue::Symbol(target, _) => res
                .symtab
                .lookup(target.as_bytes())
                .map(|t| res.symtab.get(t))
                .filter(|t| t.is_defined())
                .map(|t| t.sym_type),
            crate::config::DefsymValue::Absolute(_)
            | crate::config::DefsymValue::Expr(_)
            | crate::config::DefsymValue::Placed(_) => None,
        };
        let leaked: &'static [u8] = Box::leak(d.name.clone().into_bytes().into_boxed_slice());
        let id = res.symtab.intern(leaked);
        let sym = res.symtab.get_mut(id);
        // Anything else is untyped, even where an object's definition gave a type (lld's
        // definition replaces that one whole).
        sym.sym_type = alias_type.unwrap_or(elf::STT_NOTYPE);
        if d.hidden {
            sym.visibility = elf::STV_HIDDEN;
        }
        sym.def = match d.value {
            crate::config::DefsymValue::Absolute(v) => SymbolDef::Absolute(v),
            // An alias or an expression takes its value after layout
            // (define_synthetic_symbols).
            crate::config::DefsymValue::Symbol(..)
            | crate::config::DefsymValue::Expr(_)
            | crate::config::DefsymValue::Placed(_) => SymbolDef::Synthetic,
        };
        sym.weak = false;
    }
}
