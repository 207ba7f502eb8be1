//! Relocation application, during the write once addresses are final: each input relocation
//! computed and written into the output bytes of its section. It calls the scan's decision
//! functions (`relocations::plan`) so that both sides agree on every relaxation.

use crate::arch::x86_64 as arch;
use crate::config::Config;
use crate::err;
use crate::error::Result;
use crate::input::input_files::{FileId, ObjectFile, SectionKind};

use crate::relocations::scan::{
    passes_to_loader, plan, reference_site, AddressMap, GotKind, OutputShape, Plan, Target,
};
use crate::resolve::symbol_table::{SymKey, SymbolDef};
use crate::resolve::Resolved;
use object::elf;
use object::read::elf::Rela;
use object::LittleEndian as LE;

/// Applies `relocs` (relocations of input section `sec` of `file`) to `buf`, the output bytes of
/// that section from input offset `in_start` on; `base` is the address of `buf[0]`. Debug
/// sections get lld's tombstone for references into discarded code. `edits` (for a whole input
/// section: `relocs` are all of its relocations) redirects or drops some of them
/// (`code_rewrites`). Generic over the map so that the writer's (the layout's) calls inline
/// into the loop, which runs for every relocation of the link.
#[allow(clippy::too_many_arguments)]
pub fn apply_relocs<M: AddressMap + ?Sized>(
    config: &Config,
    res: &Resolved,
    map: &M,
    section_file: FileId,
    sec: usize,
    relocs: &[crate::input::input_files::Rela64],
    in_start: u64,
    buf: &mut [u8],
    base: u64,
    edits: Option<&crate::relocations::code_rewrites::SectionEdits>,
) -> Result<()> {
    use crate::relocations::code_rewrites::RelocEdit;
    let file = section_file;
    let f = &res.files[file as usize];
    let s = &f.sections[sec];
    let shape = OutputShape::of(config);
    let alloc = s.is_alloc();
    let is_debug = !alloc && s.name.starts_with(b".debug");
    let tombstone_folded = !alloc
        && s.name != b".debug_line"
        && (is_debug
            || config
                .dead_reloc_in_nonalloc
                .iter()
                .any(|(glob, _)| crate::glob::matches(glob.as_bytes(), s.name)));
    let tp = map.tls_tp();
    let mut skip = 0usize;
    for (ri, r) in relocs.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let mut r_type = r.r_type(LE, false);
        let mut sym_index = r.r_sym(LE, false) as usize;
        let mut addend = r.r_addend(LE);
        // The file whose symbol table `sym_index` indexes: a redirected branch may name a
        // symbol of the file its new destination is in.
        let mut file = section_file;
        match edits.and_then(|e| e.relocs.get(&(ri as u32))) {
            Some(RelocEdit::Drop) => continue,
            Some(RelocEdit::Retarget(t)) => {
                file = t.file;
                sym_index = t.sym as usize;
                addend = t.addend;
                r_type = t.r_type;
            }
            None => {}
        }
        // `in_off` indexes the input section (for instruction inspection), `off` the buffer.
        let in_off = r.r_offset(LE);
        let off = in_off.wrapping_sub(in_start);
        let info = arch::rel_info(r_type).ok_or_else(|| {
            err!(
                "{}: {}",
                f.location(sec, in_off),
                arch::unknown_relocation_error(
                    r_type,
                    &res.files[file as usize].sym_display_name(sym_index)
                )
            )
        })?;
        if info.expr == arch::RelExpr::None {
            continue;
        }
        let p = base.wrapping_add(off);
        let t = map.target(res, file, sym_index);
        if alloc && passes_to_loader(config, &t) {
            // Its dynamic relocation does the work; the field keeps the input's bytes.
            continue;
        }
        // References from debug info into discarded COMDAT copies get lld's tombstone, and so
        // do those into sections `--icf` folded (where there is a tombstone value: debug
        // sections and `-z dead-reloc-in-nonalloc` ones), but for `.debug_line`, which keeps
        // the kept copy's address so that breakpoints on the folded function still work.
        let tombstoned = || match target_section_kind(res, file, sym_index) {
            Some(
                SectionKind::Discarded
                | SectionKind::Ignored
                | SectionKind::Garbage
                | SectionKind::Unloaded,
            ) => true,
            Some(SectionKind::Folded) => tombstone_folded,
            _ => false,
        };
        if !alloc && sym_index != 0 && tombstoned() {
            let default = if is_debug && (s.name == b".debug_loc" || s.name == b".debug_ranges") {
                1
            } else {
                0
            };
            // -z dead-reloc-in-nonalloc=GLOB=VALUE: the last rule naming the section wins.
            let tomb = config
                .dead_reloc_in_nonalloc
                .iter()
                .rev()
                .find(|(glob, _)| crate::glob::matches(glob.as_bytes(), s.name))
                .map_or(default, |&(_, v)| v);
            write(f, sec, buf, off, &info, tomb, res, file, sym_index)?;
            continue;
        }
        let sval = |a: i64| -> u64 {
            if sym_index == 0 {
                return a as u64;
            }
            if t.ifunc {
                if let Some(v) = map.iplt_entry_address(t.key) {
                    return v.wrapping_add(a as u64);
                }
            }
            map.symbol_address(file, sym_index, a)
        };
        let plan = if alloc {
            plan(
                shape,
                &info,
                r_type,
                &t,
                &|k| map.keeps_got_slot(k),
                s.data,
                in_off,
                addend,
            )
        } else {
            Plan::Direct
        };
        let got = |kind: GotKind| -> Result<u64> {
            map.got_slot_address(t.key, kind).ok_or_else(|| {
                err!(
                    "{}: internal error: missing GOT entry for {}",
                    f.name,
                    res.files[file as usize].sym_display_name(sym_index)
                )
            })
        };
        use arch::RelExpr as E;
        let value: u64 = match plan {
            Plan::None => continue,
            Plan::Relaxed(kind) => {
                let v = if kind.is_absolute() {
                    sval(addend)
                } else {
                    sval(addend).wrapping_sub(p)
                };
                if !kind.fits(v) {
                    return Err(err!(
                        "{}: relaxed GOTPCRELX reference to {} does not fit in 32 bits (output too large for the small code model)",
                        reference_site(f, sec, in_off),
                        res.files[file as usize].sym_display_name(sym_index)
                    ));
                }
                arch::apply_gotpcrelx_relax(buf, off as usize, r_type, kind, v)
                    .map_err(|e| err!("{}: {}", f.name, e))?;
                continue;
            }
            Plan::TlsToLe => {
                // lld: _TLS_MODULE_BASE_ is TP-relative 0 (so TLSDESC against it, plus the
                // DTPOFF of each local, gives the local's TP offset).
                let tpoff = if is_tls_module_base(res, &t) {
                    addend as u64
                } else {
                    sval(addend).wrapping_sub(tp)
                };
                match info.expr {
                    E::GotTpOff => {
                        arch::relax_tls_ie_to_le(buf, off as usize, r_type, tpoff).map(|_| 0)
                    }
                    E::TlsGd => arch::relax_tls_gd_to_le(buf, off as usize, tpoff),
                    E::TlsLd => arch::relax_tls_ld_to_le(buf, off as usize),
                    E::TlsDesc => {
                        arch::relax_tlsdesc_to_le(buf, off as usize, r_type, tpoff).map(|_| 0)
                    }
                    _ => arch::relax_tlsdesc_call(buf, off as usize).map(|_| 0),
                }
                .map(|n| skip = n)
                .map_err(|e| err!("{}: {}", f.name, e))?;
                continue;
            }
            Plan::TlsToIe => {
                let v = got(GotKind::TlsIe)?
                    .wrapping_add(addend as u64)
                    .wrapping_sub(p);
                match info.expr {
                    E::TlsGd => arch::relax_tls_gd_to_ie(buf, off as usize, v),
                    E::TlsDesc => {
                        arch::relax_tlsdesc_to_ie(buf, off as usize, r_type, v).map(|_| 0)
                    }
                    _ => arch::relax_tlsdesc_call(buf, off as usize).map(|_| 0),
                }
                .map(|n| skip = n)
                .map_err(|e| err!("{}: {}", f.name, e))?;
                continue;
            }
            Plan::ViaPlt => {
                let g = match t.key {
                    SymKey::Global(g) => g,
                    SymKey::Local(..) => {
                        return Err(err!("{}: internal error: PLT for a local symbol", f.name))
                    }
                };
                let l = map
                    .plt_entry_address(g)
                    .ok_or_else(|| err!("{}: internal error: missing PLT entry", f.name))?;
                let base = if info.expr == E::PltGotOff {
                    map.got_base()
                } else {
                    p
                };
                l.wrapping_add(addend as u64).wrapping_sub(base)
            }
            Plan::ViaGot(kind) => {
                let slot = got(kind)?;
                match info.expr {
                    E::GotRel => slot
                        .wrapping_sub(map.got_base())
                        .wrapping_add(addend as u64),
                    _ => slot.wrapping_add(addend as u64).wrapping_sub(p),
                }
            }
            Plan::Direct => match info.expr {
                E::None => continue,
                E::Abs => {
                    if is_debug && r_type == elf::R_X86_64_DTPOFF32 {
                        sval(addend).wrapping_sub(map.tls_start())
                    } else if t.preemptible && !t.shared && sym_index != 0 {
                        // A symbolic dynamic relocation fills this word at run time; lld
                        // leaves the addend... with RELA the place gets 0.
                        0
                    } else {
                        sval(addend)
                    }
                }
                E::PcRel | E::Plt => sval(addend).wrapping_sub(p),
                E::GotPc => map.got_base().wrapping_add(addend as u64).wrapping_sub(p),
                E::GotOff | E::PltGotOff => sval(addend).wrapping_sub(map.got_base()),
                E::Size => map.symbol_size(file, sym_index).wrapping_add(addend as u64),
                E::TpOff => sval(addend).wrapping_sub(tp),
                E::DtpOff => {
                    if alloc && shape.exe {
                        // After LD->LE relaxation, DTP-relative offsets become TP-relative.
                        sval(addend).wrapping_sub(tp)
                    } else {
                        sval(addend).wrapping_sub(map.tls_start())
                    }
                }
                // Only reachable from non-allocated sections, where nothing is relaxed.
                E::GotPcRel
                | E::GotRel
                | E::GotTpOff
                | E::TlsGd
                | E::TlsLd
                | E::TlsDesc
                | E::TlsDescCall => sval(addend),
            },
        };
        write(f, sec, buf, off, &info, value, res, file, sym_index)?;
    }
    Ok(())
}

fn is_tls_module_base(res: &Resolved, t: &Target) -> bool {
    matches!(t.key, SymKey::Global(g) if res.symtab.get(g).name == b"_TLS_MODULE_BASE_")
}

/// The kind of the section that defines what symbol `index` of `file` resolves to (`None` for
/// undefined, absolute, common, shared and linker-defined symbols).
fn target_section_kind(res: &Resolved, file: FileId, index: usize) -> Option<SectionKind> {
    let (df, di) = match res.global_of(file, index) {
        Some(g) => match res.symtab.get(g).def {
            SymbolDef::Defined { file, index } => (file, index as usize),
            _ => return None,
        },
        None => (file, index),
    };
    let f = &res.files[df as usize];
    f.sections.get(f.sym_section(di)?).map(|s| s.kind)
}

/// Writes a relocation's value into its field. Small, so that it inlines into the loop; the
/// error is put into words out of line.
#[allow(clippy::too_many_arguments)]
#[inline]
fn write(
    f: &ObjectFile,
    sec: usize,
    buf: &mut [u8],
    off: u64,
    info: &arch::RelInfo,
    value: u64,
    res: &Resolved,
    file: FileId,
    sym_index: usize,
) -> Result<()> {
    match arch::write_info_value(info, buf, off as usize, value) {
        Ok(()) => Ok(()),
        Err(e) => Err(write_error(f, sec, off, e, res, file, sym_index)),
    }
}

/// lld's words for a relocation whose field could not be written.
#[cold]
fn write_error(
    f: &ObjectFile,
    sec: usize,
    off: u64,
    e: arch::RelocError,
    res: &Resolved,
    file: FileId,
    sym_index: usize,
) -> crate::error::Error {
    // lld's wording: the location names the enclosing function, the hint the target and,
    // for a symbol, where it is defined.
    let sym = res.global_of(file, sym_index).map(|g| res.symtab.get(g));
    // The symbol's file (a redirected branch names a symbol of another file).
    let sf = &res.files[file as usize];
    let is_section = sf
        .symbols
        .get(sym_index)
        .is_some_and(|s| s.st_type() == elf::STT_SECTION);
    let mut hint = String::new();
    if sym_index != 0 {
        if is_section {
            hint = format!("; references section '{}'", sf.sym_display_name(sym_index));
        } else {
            let name = sym.map_or_else(|| sf.sym_display_name(sym_index), |s| s.display_name());
            hint = format!("; references '{name}'");
            // lld: the DWARF line of the reference if there is one, else the source file.
            let src = crate::input::debug_info::source_location(f, sec, off).or_else(|| {
                f.source_name
                    .map(|s| String::from_utf8_lossy(s).into_owned())
            });
            if let Some(src) = src {
                hint.push_str(&format!("\n>>> referenced by {src}"));
            }
            let definer = match sym.map(|s| &s.def) {
                Some(SymbolDef::Defined { file: d, .. })
                | Some(SymbolDef::Common { file: d, .. }) => {
                    Some(res.files[*d as usize].name.as_str())
                }
                Some(SymbolDef::Shared { file: d, .. }) => {
                    Some(res.shared[*d as usize].name.as_str())
                }
                Some(_) => None,
                None => Some(sf.name.as_str()),
            };
            if let Some(d) = definer {
                hint.push_str(&format!("\n>>> defined in {d}"));
            }
        }
    }
    err!("{}: {e}{hint}", f.location(sec, off))
}
