//! Relocation scanning (before layout: which GOT slots, IPLT entries and dynamic relocations the
//! output needs) and relocation application (during the write, once addresses are final).
//! Both sides call the same decision functions so they always agree on every relaxation.

use crate::arch::x86_64 as arch;
use crate::config::Config;
use crate::err;
use crate::error::{Error, Result};
use crate::input_files::{FileId, ObjectFile, SectionKind};
use crate::resolve::Resolved;
use crate::symbol_table::{SymbolDef, SymbolId};
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela, Sym};
use object::LittleEndian as LE;

/// A symbol as a key for per-symbol linker-created entries (GOT slots, IPLT entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymKey {
    Global(SymbolId),
    Local(FileId, u32),
}

/// A dynamic relocation the output needs (static-pie: RELATIVE and IRELATIVE only).
#[derive(Clone, Copy, Debug)]
pub struct DynReloc {
    pub place: Place,
    pub kind: DynKind,
}

/// Where a dynamic relocation applies.
#[derive(Clone, Copy, Debug)]
pub enum Place {
    /// Offset `offset` of input section `sec` of `file`.
    Input { file: FileId, sec: u32, offset: u64 },
    /// GOT slot `n` of `.got`.
    Got(u32),
    /// Slot `n` of the IPLT's `.got.plt` slots.
    IgotPlt(u32),
}

#[derive(Clone, Copy, Debug)]
pub enum DynKind {
    /// `R_X86_64_RELATIVE`: base + (target's link-time address + addend).
    Relative { target: SymKey, addend: i64 },
    /// `R_X86_64_IRELATIVE`: the resolver of IFUNC `target`.
    IRelative { target: SymKey },
}

/// What scanning found: linker-created entries, in deterministic (input) order.
#[derive(Default, Debug)]
pub struct ScanResult {
    pub got: Vec<SymKey>,
    pub got_index: HashMap<SymKey, u32>,
    pub iplt: Vec<SymKey>,
    pub iplt_index: HashMap<SymKey, u32>,
    pub dyn_relocs: Vec<DynReloc>,
    pub relocation_count: u64,
}

/// Properties of a relocation's target that decide how it is handled.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub key: SymKey,
    pub defined: bool,
    pub undef_weak: bool,
    pub ifunc: bool,
    pub absolute: bool,
    pub tls: bool,
}

/// Looks at what symbol `index` of `file` resolves to.
pub fn target_of(res: &Resolved, file: FileId, index: usize) -> Target {
    let f = &res.files[file as usize];
    if let Some(gid) = res.global_of(file, index) {
        let s = res.symtab.get(gid);
        let (defined, absolute, ifunc, tls) = match s.def {
            SymbolDef::Defined {
                file: df,
                index: di,
            } => {
                let sym = &res.files[df as usize].symbols[di as usize];
                (
                    true,
                    sym.st_shndx(LE) == elf::SHN_ABS,
                    sym.st_type() == elf::STT_GNU_IFUNC,
                    sym.st_type() == elf::STT_TLS,
                )
            }
            SymbolDef::Common { .. } => (true, false, false, false),
            SymbolDef::Synthetic => (true, false, false, false),
            SymbolDef::Absolute(_) => (true, true, false, false),
            SymbolDef::Undefined | SymbolDef::Lazy { .. } => (
                false,
                false,
                false,
                f.symbols[index].st_type() == elf::STT_TLS,
            ),
        };
        return Target {
            key: SymKey::Global(gid),
            defined,
            undef_weak: !defined && s.weak,
            ifunc,
            absolute,
            tls,
        };
    }
    let sym = &f.symbols[index];
    Target {
        key: SymKey::Local(file, index as u32),
        defined: true,
        undef_weak: false,
        ifunc: sym.st_type() == elf::STT_GNU_IFUNC,
        absolute: sym.st_shndx(LE) == elf::SHN_ABS,
        tls: sym.st_type() == elf::STT_TLS,
    }
}

/// Whether a GOTPCRELX-family relocation at `off` can skip its GOT slot.
pub fn got_relax(
    section: &[u8],
    off: usize,
    r_type: u32,
    addend: i64,
    t: &Target,
    is_pic: bool,
) -> Option<arch::GotRelax> {
    // lld relaxes only references to non-preemptible, non-IFUNC, non-absolute, non-TLS symbols.
    if t.ifunc || !t.defined || t.absolute || t.tls {
        return None;
    }
    arch::can_relax_gotpcrelx(section, off, r_type, addend, is_pic)
}

/// Whether a section's relocations are applied (only sections that reach the output).
pub fn section_is_live(kind: SectionKind) -> bool {
    matches!(kind, SectionKind::Regular | SectionKind::Merge)
}

/// One undefined-symbol reference, for lld-style error reports.
pub struct UndefRef {
    pub symbol: SymbolId,
    pub file: FileId,
    pub sec: u32,
    pub offset: u64,
}

/// Scans every live relocation of every file. Returns the needs and the undefined references.
pub fn scan(config: &Config, res: &Resolved) -> std::result::Result<ScanResult, Vec<Error>> {
    let is_pic = config.is_pic();
    let mut out = ScanResult::default();
    let mut errors = Vec::new();
    let mut undefs: Vec<UndefRef> = Vec::new();
    for (fi, file) in res.files.iter().enumerate() {
        let fid = fi as FileId;
        for (si, sec) in file.sections.iter().enumerate() {
            if !section_is_live(sec.kind) && sec.kind != SectionKind::EhFrame {
                continue;
            }
            let alloc = sec.is_alloc();
            let writable = sec.flags() & u64::from(elf::SHF_WRITE) != 0;
            let mut skip = 0usize;
            for r in sec.relocs.iter() {
                out.relocation_count += 1;
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let r_type = r.r_type(LE, false);
                let sym_index = r.r_sym(LE, false) as usize;
                let offset = r.r_offset(LE);
                let Some(info) = arch::rel_info(r_type) else {
                    let e =
                        arch::unknown_relocation_error(r_type, &file.sym_display_name(sym_index));
                    errors.push(err!("{}: {}", file.name, e));
                    continue;
                };
                if info.expr == arch::RelExpr::None
                    || sym_index == 0 && info.expr != arch::RelExpr::GotPc
                {
                    if sym_index == 0 && !matches!(info.expr, arch::RelExpr::None) {
                        // Relocations against symbol 0 resolve to 0 + A; lld accepts them.
                    }
                    continue;
                }
                let t = target_of(res, fid, sym_index);
                if !t.defined && !t.undef_weak {
                    if let SymKey::Global(g) = t.key {
                        undefs.push(UndefRef {
                            symbol: g,
                            file: fid,
                            sec: si as u32,
                            offset,
                        });
                    }
                    continue;
                }
                if !alloc {
                    continue;
                }
                use arch::RelExpr as E;
                match info.expr {
                    E::Abs => {
                        if t.ifunc {
                            add_iplt(&mut out, t.key);
                        }
                        if is_pic && !t.absolute && !t.undef_weak {
                            if info.size == 8 {
                                out.dyn_relocs.push(DynReloc {
                                    place: Place::Input {
                                        file: fid,
                                        sec: si as u32,
                                        offset,
                                    },
                                    kind: DynKind::Relative {
                                        target: t.key,
                                        addend: r.r_addend(LE),
                                    },
                                });
                                if !writable && config.z.text {
                                    errors.push(err!(
                                        "relocation {} cannot be used against {}; recompile with -fPIC\n>>> defined in {}\n>>> referenced by {}",
                                        info.name,
                                        describe_target(res, fid, sym_index),
                                        file.name,
                                        reference_site(file, si, offset)
                                    ));
                                }
                            } else {
                                errors.push(err!(
                                    "relocation {} cannot be used against {}; recompile with -fPIC\n>>> defined in {}\n>>> referenced by {}",
                                    info.name,
                                    describe_target(res, fid, sym_index),
                                    file.name,
                                    reference_site(file, si, offset)
                                ));
                            }
                        }
                    }
                    E::PcRel | E::Plt => {
                        if t.ifunc {
                            add_iplt(&mut out, t.key);
                        }
                    }
                    E::GotPcRel | E::GotRel => {
                        if t.ifunc {
                            add_iplt(&mut out, t.key);
                        } else if got_relax(
                            sec.data,
                            offset as usize,
                            r_type,
                            r.r_addend(LE),
                            &t,
                            is_pic,
                        )
                        .is_none()
                        {
                            add_got(&mut out, t, is_pic);
                        }
                    }
                    E::TlsGd | E::TlsLd => {
                        // Executables relax GD/LD to LE; the call to __tls_get_addr goes too.
                        skip = 1;
                    }
                    _ => {}
                }
            }
        }
    }
    if !undefs.is_empty() {
        errors.extend(undefined_errors(res, &undefs));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn add_iplt(out: &mut ScanResult, key: SymKey) {
    if !out.iplt_index.contains_key(&key) {
        let n = out.iplt.len() as u32;
        out.iplt.push(key);
        out.iplt_index.insert(key, n);
        out.dyn_relocs.push(DynReloc {
            place: Place::IgotPlt(n),
            kind: DynKind::IRelative { target: key },
        });
    }
}

fn add_got(out: &mut ScanResult, t: Target, is_pic: bool) {
    if out.got_index.contains_key(&t.key) {
        return;
    }
    let n = out.got.len() as u32;
    out.got.push(t.key);
    out.got_index.insert(t.key, n);
    if is_pic && !t.absolute && !t.undef_weak {
        out.dyn_relocs.push(DynReloc {
            place: Place::Got(n),
            kind: DynKind::Relative {
                target: t.key,
                addend: 0,
            },
        });
    }
}

fn describe_target(res: &Resolved, file: FileId, index: usize) -> String {
    let f = &res.files[file as usize];
    match res.global_of(file, index) {
        Some(g) => format!("symbol '{}'", res.symtab.get(g).name_str()),
        None => format!("local symbol '{}'", f.sym_display_name(index)),
    }
}

/// `file.o:(function)` or `file.o:(.section+0xoff)` for a place in an input section.
pub fn reference_site(file: &ObjectFile, sec: usize, offset: u64) -> String {
    match file.enclosing_symbol(sec, offset) {
        Some(f) => format!("{}:({})", file.name, f),
        None => format!(
            "{}:({}+0x{:x})",
            file.name,
            file.sections.get(sec).map(|s| s.name_str()).unwrap_or("?"),
            offset
        ),
    }
}

/// lld's "undefined symbol" report: one error per symbol, at most three references each.
fn undefined_errors(res: &Resolved, undefs: &[UndefRef]) -> Vec<Error> {
    let mut order: Vec<SymbolId> = Vec::new();
    let mut by_sym: HashMap<SymbolId, Vec<&UndefRef>> = HashMap::new();
    for u in undefs {
        by_sym.entry(u.symbol).or_insert_with(|| {
            order.push(u.symbol);
            Vec::new()
        });
        by_sym.get_mut(&u.symbol).map(|v| v.push(u));
    }
    let mut errors = Vec::new();
    for sid in order {
        let refs = &by_sym[&sid];
        let mut msg = format!("undefined symbol: {}", res.symtab.get(sid).name_str());
        for u in refs.iter().take(3) {
            let f = &res.files[u.file as usize];
            msg.push_str("\n>>> referenced by ");
            if let Some(src) = f.source_name {
                msg.push_str(&String::from_utf8_lossy(src));
                msg.push_str("\n>>>               ");
            }
            msg.push_str(&reference_site(f, u.sec as usize, u.offset));
        }
        if refs.len() > 3 {
            msg.push_str(&format!("\n>>> referenced {} more times", refs.len() - 3));
        }
        errors.push(Error(msg));
    }
    errors
}

/// Everything relocation application needs to know about the final layout.
pub trait AddressMap {
    /// Address of symbol `index` of `file` plus `addend`, with the addend folded in the way lld
    /// does for section symbols of merged sections (the piece is found at value + addend).
    fn symbol_address(&self, file: FileId, index: usize, addend: i64) -> u64;
    fn iplt_entry_address(&self, key: SymKey) -> Option<u64>;
    fn got_slot_address(&self, key: SymKey) -> Option<u64>;
    fn got_base(&self) -> u64;
    /// Thread pointer relative offset base (variant 2: TP is the end of the TLS block).
    fn tls_tp(&self) -> u64;
    fn tls_start(&self) -> u64;
    fn symbol_size(&self, file: FileId, index: usize) -> u64;
}

/// Applies `relocs` (relocations of input section `sec` of `file`) to `buf`, the output bytes of
/// that section from input offset `in_start` on; `base` is the address of `buf[0]`. Debug
/// sections get lld's tombstone for references into discarded code.
#[allow(clippy::too_many_arguments)]
pub fn apply_relocs(
    config: &Config,
    res: &Resolved,
    map: &dyn AddressMap,
    file: FileId,
    sec: usize,
    relocs: &[crate::input_files::Rela64],
    in_start: u64,
    buf: &mut [u8],
    base: u64,
) -> Result<()> {
    let f = &res.files[file as usize];
    let s = &f.sections[sec];
    let is_pic = config.is_pic();
    let alloc = s.is_alloc();
    let is_debug = !alloc && s.name.starts_with(b".debug");
    let mut skip = 0usize;
    for (ri, r) in relocs.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let r_type = r.r_type(LE, false);
        let sym_index = r.r_sym(LE, false) as usize;
        // `in_off` indexes the input section (for instruction inspection), `off` the buffer.
        let in_off = r.r_offset(LE);
        let off = in_off.wrapping_sub(in_start);
        let addend = r.r_addend(LE);
        let info = arch::rel_info(r_type).ok_or_else(|| {
            err!(
                "{}: {}",
                f.name,
                arch::unknown_relocation_error(r_type, &f.sym_display_name(sym_index))
            )
        })?;
        if info.expr == arch::RelExpr::None {
            continue;
        }
        let p = base.wrapping_add(off);
        let t = target_of(res, file, sym_index);
        // References from debug info into discarded COMDAT copies get lld's tombstone.
        if !alloc && sym_index != 0 && target_in_dead_section(res, file, sym_index) {
            let tomb = if is_debug && (s.name == b".debug_loc" || s.name == b".debug_ranges") {
                1
            } else {
                0
            };
            write(
                f,
                s.name_str(),
                buf,
                off,
                r_type,
                tomb,
                info.name,
                res,
                file,
                sym_index,
            )?;
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
        use arch::RelExpr as E;
        let value: u64 = match info.expr {
            E::None => continue,
            E::Abs => {
                if is_debug && r_type == elf::R_X86_64_DTPOFF32 {
                    sval(addend).wrapping_sub(map.tls_start())
                } else {
                    sval(addend)
                }
            }
            E::PcRel | E::Plt => sval(addend).wrapping_sub(p),
            E::GotPcRel => {
                if let Some(kind) = got_relax(s.data, in_off as usize, r_type, addend, &t, is_pic) {
                    let v = if kind.is_absolute() {
                        sval(addend)
                    } else {
                        sval(addend).wrapping_sub(p)
                    };
                    if !kind.fits(v) {
                        return Err(err!(
                            "{}: relaxed GOTPCRELX reference to {} does not fit in 32 bits (output too large for the small code model)",
                            reference_site(f, sec, in_off),
                            f.sym_display_name(sym_index)
                        ));
                    }
                    arch::apply_gotpcrelx_relax(buf, off as usize, r_type, kind, v)
                        .map_err(|e| err!("{}: {}", f.name, e))?;
                    continue;
                }
                got_address(map, &t, f)?
                    .wrapping_add(addend as u64)
                    .wrapping_sub(p)
            }
            E::GotRel => got_address(map, &t, f)?
                .wrapping_sub(map.got_base())
                .wrapping_add(addend as u64),
            E::GotPc => map.got_base().wrapping_add(addend as u64).wrapping_sub(p),
            E::GotOff | E::PltGotOff => sval(addend).wrapping_sub(map.got_base()),
            E::Size => map.symbol_size(file, sym_index).wrapping_add(addend as u64),
            E::TpOff => sval(addend).wrapping_sub(map.tls_tp()),
            E::DtpOff => {
                if alloc {
                    // After LD->LE relaxation, DTP-relative offsets become TP-relative.
                    sval(addend).wrapping_sub(map.tls_tp())
                } else {
                    sval(addend).wrapping_sub(map.tls_start())
                }
            }
            // Executables relax every TLS access to local-exec (value = S + A - TP).
            E::GotTpOff => {
                let tpoff = sval(addend).wrapping_sub(map.tls_tp());
                arch::relax_tls_ie_to_le(buf, off as usize, r_type, tpoff)
                    .map_err(|e| err!("{}: {}", f.name, e))?;
                continue;
            }
            E::TlsGd => {
                let tpoff = sval(addend).wrapping_sub(map.tls_tp());
                skip = arch::relax_tls_gd_to_le(buf, off as usize, tpoff)
                    .map_err(|e| err!("{}: {}", f.name, e))?;
                continue;
            }
            E::TlsLd => {
                skip = arch::relax_tls_ld_to_le(buf, off as usize)
                    .map_err(|e| err!("{}: {}", f.name, e))?;
                continue;
            }
            E::TlsDesc => {
                let tpoff = sval(addend).wrapping_sub(map.tls_tp());
                arch::relax_tlsdesc_to_le(buf, off as usize, r_type, tpoff)
                    .map_err(|e| err!("{}: {}", f.name, e))?;
                continue;
            }
            E::TlsDescCall => {
                arch::relax_tlsdesc_call(buf, off as usize)
                    .map_err(|e| err!("{}: {}", f.name, e))?;
                continue;
            }
        };
        write(
            f,
            s.name_str(),
            buf,
            off,
            r_type,
            value,
            info.name,
            res,
            file,
            sym_index,
        )?;
    }
    Ok(())
}

fn got_address(map: &dyn AddressMap, t: &Target, f: &ObjectFile) -> Result<u64> {
    if t.ifunc {
        // An IFUNC's GOT entry is its IPLT slot in .got.plt, which IRELATIVE fills.
        if let Some(v) = map.got_slot_address(t.key) {
            return Ok(v);
        }
    }
    map.got_slot_address(t.key)
        .ok_or_else(|| err!("{}: internal error: missing GOT slot", f.name))
}

fn target_in_dead_section(res: &Resolved, file: FileId, index: usize) -> bool {
    let (df, di) = match res.global_of(file, index) {
        Some(g) => match res.symtab.get(g).def {
            SymbolDef::Defined { file, index } => (file, index as usize),
            _ => return false,
        },
        None => (file, index),
    };
    let f = &res.files[df as usize];
    let shndx = f.symbols[di].st_shndx(LE);
    if shndx == elf::SHN_UNDEF || shndx >= elf::SHN_LORESERVE {
        return false;
    }
    matches!(
        f.sections[shndx as usize].kind,
        SectionKind::Discarded | SectionKind::Ignored
    )
}

#[allow(clippy::too_many_arguments)]
fn write(
    f: &ObjectFile,
    sec_name: &str,
    buf: &mut [u8],
    off: u64,
    r_type: u32,
    value: u64,
    rel_name: &str,
    res: &Resolved,
    file: FileId,
    sym_index: usize,
) -> Result<()> {
    arch::write_value(buf, off as usize, r_type, value).map_err(|e| {
        let target = if sym_index == 0 {
            String::new()
        } else {
            match res.global_of(file, sym_index) {
                Some(g) => format!("; references '{}'", res.symtab.get(g).name_str()),
                None => format!("; references section '{}'", f.sym_display_name(sym_index)),
            }
        };
        err!(
            "{}:({}+0x{:x}): relocation {} {}{}",
            f.name,
            sec_name,
            off,
            rel_name,
            e,
            target
        )
    })
}
