//! Relocation scanning, before layout: which GOT slots, IPLT entries and dynamic relocations the
//! output needs, and the decisions (relaxations, what a target is) that relocation application
//! (`relocate`) takes again once addresses are final, so both sides always agree. Also the
//! interface application reads the final addresses through (`AddressMap`).

use crate::arch::x86_64 as arch;
use crate::config::Config;
use crate::err;
use crate::error::Error;
use crate::input::input_files::{FileId, ObjectFile, SectionKind};
use crate::resolve::symbol_table::{SymKey, SymbolDef, SymbolId};
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela, Sym};
use object::LittleEndian as LE;

/// A dynamic relocation the output needs.
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
    /// Slot `n` of `.got`.
    Got(u32),
    /// Slot `n` of the IPLT's `.got.plt` slots.
    IgotPlt(u32),
    /// Copy-relocated symbol `n` (index in `ScanResult::copies`).
    Copy(u32),
}

/// The kind of a dynamic relocation.
#[derive(Clone, Copy, Debug)]
pub enum DynKind {
    /// `R_X86_64_RELATIVE`: base + (target's link-time address + addend).
    Relative { target: SymKey, addend: i64 },
    /// `R_X86_64_IRELATIVE`: the resolver of IFUNC `target`.
    IRelative { target: SymKey },
    /// A relocation against a dynamic symbol (`R_X86_64_64`, `GLOB_DAT`, `TPOFF64`, `DTPMOD64`,
    /// `DTPOFF64`, `COPY`, `TLSDESC`).
    Symbolic {
        sym: SymbolId,
        r_type: u32,
        addend: i64,
    },
    /// A TLS relocation without symbol, for this module's own TLS: `DTPMOD64` (addend 0) or
    /// `TPOFF64`/`TLSDESC` whose addend is `target`'s offset in the TLS segment (+ addend).
    TlsLocal {
        r_type: u32,
        target: Option<SymKey>,
        addend: i64,
    },
}

/// What a GOT entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GotKind {
    /// The symbol's address (one slot).
    Addr,
    /// The symbol's TP offset (one slot; initial-exec).
    TlsIe,
    /// Module id + DTP offset (two slots; general-dynamic).
    TlsGd,
    /// This module's id + 0 (two slots; local-dynamic, one pair per output).
    TlsLd,
    /// A TLS descriptor (two slots).
    TlsDesc,
}

impl GotKind {
    pub fn slots(self) -> u32 {
        match self {
            GotKind::Addr | GotKind::TlsIe => 1,
            _ => 2,
        }
    }
}

/// What scanning found: linker-created entries, in deterministic (input) order.
#[derive(Default, Debug)]
pub struct ScanResult {
    /// GOT entries in order; `got_slot` maps an entry to its first slot.
    pub got: Vec<(SymKey, GotKind)>,
    pub got_slot: HashMap<(SymKey, GotKind), u32>,
    pub got_slots: u32,
    /// Preemptible functions called through `.plt` (order = `.plt`/`.rela.plt` order).
    pub plt: Vec<SymbolId>,
    pub plt_index: HashMap<SymbolId, u32>,
    /// Symbols whose address is their PLT entry (non-PIC address taken of a shared function).
    pub canonical_plt: hashbrown::HashSet<SymbolId>,
    /// Non-preemptible IFUNCs, called through `.iplt`.
    pub iplt: Vec<SymKey>,
    pub iplt_index: HashMap<SymKey, u32>,
    /// IFUNCs whose address is taken by a direct (non-call, non-GOT) reference.
    pub iplt_canonical: hashbrown::HashSet<SymKey>,
    /// Shared data symbols copied into the executable (`R_X86_64_COPY`).
    pub copies: Vec<SymbolId>,
    pub copy_index: HashMap<SymbolId, u32>,
    pub dyn_relocs: Vec<DynReloc>,
    pub relocation_count: u64,
    /// Symbols that dynamic relocations name: they must be in `.dynsym`.
    pub dynamic_refs: hashbrown::HashSet<SymbolId>,
    /// Targets whose GOTPCRELX references keep their GOT slot because an earlier layout put
    /// them out of a relaxed reference's reach (lld's `relaxOnce`): the scan's input, kept so
    /// that relocation application decides as the scan did.
    pub got_kept: hashbrown::HashSet<SymKey>,
    /// What each global symbol resolves to, for relocation application.
    pub targets: GlobalTargets,
}

/// Properties of a relocation's target that decide how it is handled.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub key: SymKey,
    pub defined: bool,
    pub undef_weak: bool,
    pub ifunc: bool,
    /// Defined here as `STT_GNU_IFUNC`, preemptible or not (lld's `isGnuIFunc`; a shared
    /// library's IFUNC is a plain function to this output): what `-z ifunc-noplt` looks at.
    pub gnu_ifunc: bool,
    pub absolute: bool,
    pub tls: bool,
    /// May be bound to another module at run time (imported, or exported from a shared object).
    pub preemptible: bool,
    /// Defined by a shared library.
    pub shared: bool,
    /// A function (for choosing between a canonical PLT entry and a copy relocation).
    pub func: bool,
}

/// Looks at what symbol `index` of `file` resolves to.
pub fn target_of(res: &Resolved, file: FileId, index: usize) -> Target {
    match res.global_of(file, index) {
        Some(gid) => with_reference_tls(global_target(res, gid), res, file, index),
        None => local_target(res, file, index),
    }
}

/// What global symbol `gid` resolves to. An undefined symbol's `tls` is left false: it is
/// what each reference says ([`with_reference_tls`]).
fn global_target(res: &Resolved, gid: SymbolId) -> Target {
    let s = res.symtab.get(gid);
    let mut shared = false;
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
        SymbolDef::Shared { .. } => {
            shared = true;
            (true, false, false, s.sym_type == elf::STT_TLS)
        }
        SymbolDef::Undefined | SymbolDef::Lazy { .. } | SymbolDef::Bitcode { .. } => {
            (false, false, false, false)
        }
    };
    let func = matches!(s.sym_type, elf::STT_FUNC | elf::STT_GNU_IFUNC);
    Target {
        key: SymKey::Global(gid),
        defined,
        undef_weak: !defined && s.weak,
        ifunc: ifunc && !s.preemptible,
        gnu_ifunc: ifunc,
        absolute,
        tls,
        preemptible: s.preemptible,
        shared,
        func,
    }
}

/// An undefined global is TLS when the reference (symbol `index` of `file`) says so.
fn with_reference_tls(mut t: Target, res: &Resolved, file: FileId, index: usize) -> Target {
    if !t.defined {
        t.tls = res.files[file as usize].symbols[index].st_type() == elf::STT_TLS;
    }
    t
}

fn local_target(res: &Resolved, file: FileId, index: usize) -> Target {
    let sym = &res.files[file as usize].symbols[index];
    Target {
        key: SymKey::Local(file, index as u32),
        defined: true,
        undef_weak: false,
        ifunc: sym.st_type() == elf::STT_GNU_IFUNC,
        gnu_ifunc: sym.st_type() == elf::STT_GNU_IFUNC,
        absolute: sym.st_shndx(LE) == elf::SHN_ABS,
        tls: sym.st_type() == elf::STT_TLS,
        preemptible: false,
        shared: false,
        func: sym.st_type() == elf::STT_FUNC,
    }
}

/// [`target_of`] for every global symbol, worked out once per scan in parallel: the scan and
/// relocation application ask it for every relocation, and for a global it costs cache misses
/// into the symbol table and the defining file's ELF symbol each time.
#[derive(Default, Debug)]
pub struct GlobalTargets(Vec<Target>);

impl GlobalTargets {
    pub fn compute(res: &Resolved) -> GlobalTargets {
        use rayon::prelude::*;
        GlobalTargets(
            (0..res.symtab.len() as SymbolId)
                .into_par_iter()
                .map(|g| global_target(res, g))
                .collect(),
        )
    }

    /// [`target_of`], from the table for a global symbol.
    pub fn of(&self, res: &Resolved, file: FileId, index: usize) -> Target {
        match res.global_of(file, index) {
            Some(gid) => match self.0.get(gid as usize) {
                Some(&t) => with_reference_tls(t, res, file, index),
                None => target_of(res, file, index),
            },
            None => local_target(res, file, index),
        }
    }
}

/// Whether a GOTPCRELX-family relocation at `off` can skip its GOT slot. `keep_got`: an
/// earlier layout found the target out of reach of a relaxed reference (lld's `relaxOnce`).
pub fn got_relax(
    section: &[u8],
    off: usize,
    r_type: u32,
    addend: i64,
    t: &Target,
    keep_got: bool,
    is_pic: bool,
) -> Option<arch::GotRelax> {
    // lld relaxes only references to non-preemptible, non-IFUNC, non-absolute, non-TLS symbols.
    if t.preemptible || t.ifunc || !t.defined || t.absolute || t.tls || t.shared || keep_got {
        return None;
    }
    arch::can_relax_gotpcrelx(section, off, r_type, addend, is_pic)
}

/// The shape of the output, as relocation handling sees it.
#[derive(Clone, Copy, Debug)]
pub struct OutputShape {
    pub is_pic: bool,
    /// An executable (TLS relaxes; copy relocations and canonical PLTs are possible).
    pub exe: bool,
}

impl OutputShape {
    pub fn of(config: &Config) -> Self {
        OutputShape {
            is_pic: config.is_pic(),
            exe: config.output_kind == crate::config::OutputKind::Executable,
        }
    }
}

/// How one relocation is carried out. Scan and apply both derive it with [`plan`], so they
/// always agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Nothing to write.
    None,
    /// Evaluate the relocation's formula with the symbol's (final) address.
    Direct,
    /// L + A - P through the symbol's `.plt` entry.
    ViaPlt,
    /// Through a GOT entry of this kind.
    ViaGot(GotKind),
    /// GOTPCRELX rewritten to avoid the GOT.
    Relaxed(arch::GotRelax),
    /// TLS sequence rewritten to local-exec.
    TlsToLe,
    /// TLS sequence rewritten to initial-exec.
    TlsToIe,
}

/// Decides how a relocation is carried out. `keeps_got` says whether GOTPCRELX references to
/// a target keep their GOT slot (`ScanResult::got_kept`); it is asked only for those.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    shape: OutputShape,
    info: &arch::RelInfo,
    r_type: u32,
    t: &Target,
    keeps_got: &dyn Fn(SymKey) -> bool,
    section: &[u8],
    off: u64,
    addend: i64,
) -> Plan {
    use arch::RelExpr as E;
    match info.expr {
        E::None => Plan::None,
        // A call through the PLT, PC-relative or (large code model) GOT-relative.
        E::Plt | E::PltGotOff => {
            if t.preemptible {
                Plan::ViaPlt
            } else {
                Plan::Direct
            }
        }
        E::GotPcRel | E::GotRel => {
            match got_relax(
                section,
                off as usize,
                r_type,
                addend,
                t,
                keeps_got(t.key),
                shape.is_pic,
            ) {
                Some(k) => Plan::Relaxed(k),
                None => Plan::ViaGot(GotKind::Addr),
            }
        }
        E::GotTpOff => {
            if shape.exe && !t.preemptible {
                Plan::TlsToLe
            } else {
                Plan::ViaGot(GotKind::TlsIe)
            }
        }
        E::TlsGd => match (shape.exe, t.preemptible) {
            (true, false) => Plan::TlsToLe,
            (true, true) => Plan::TlsToIe,
            (false, _) => Plan::ViaGot(GotKind::TlsGd),
        },
        E::TlsLd => {
            if shape.exe {
                Plan::TlsToLe
            } else {
                Plan::ViaGot(GotKind::TlsLd)
            }
        }
        E::TlsDesc | E::TlsDescCall => match (shape.exe, t.preemptible) {
            (true, false) => Plan::TlsToLe,
            (true, true) => Plan::TlsToIe,
            (false, _) => {
                if info.expr == E::TlsDescCall {
                    Plan::None
                } else {
                    Plan::ViaGot(GotKind::TlsDesc)
                }
            }
        },
        _ => Plan::Direct,
    }
}

/// One undefined-symbol reference, for lld-style error reports.
pub struct UndefRef {
    pub symbol: SymbolId,
    pub file: FileId,
    pub sec: u32,
    pub offset: u64,
}

/// Files whose relocations are read in parallel before what they need is recorded: bounds the
/// needs held at once.
const SCAN_CHUNK: usize = 64;

/// What one relocation needs from the scan's shared state (entries, dynamic relocations,
/// reports), found apart from that state so that files can be read in parallel. Recorded in
/// relocation order and carried out in file order, so every entry, dynamic relocation and
/// report comes in the order of a sequential scan.
enum Need {
    Error(Error),
    Undefined(UndefRef),
    /// `-z ifunc-noplt`: the loader resolves the reference itself.
    ToLoader(Reference),
    /// A GOT, PLT or IPLT entry, a copy, a dynamic relocation or a check, as `plan` says.
    Planned(Reference, Plan),
}

/// A relocation and its target, for [`Need`].
struct Reference {
    file: FileId,
    sec: u32,
    offset: u64,
    sym_index: u32,
    info: arch::RelInfo,
    addend: i64,
    t: Target,
    writable: bool,
}

/// Scans every live relocation of every file. Returns the needs, or the errors (undefined
/// symbols, relocations that cannot be represented in this kind of output).
///
/// Each file's relocations are read on the thread pool ([`file_needs`]: the target, the plan);
/// what they need is then recorded file after file ([`record`]), the same for any thread count.
pub fn scan(
    config: &Config,
    res: &Resolved,
    got_kept: &hashbrown::HashSet<SymKey>,
) -> std::result::Result<ScanResult, Vec<Error>> {
    use rayon::prelude::*;
    let shape = OutputShape::of(config);
    let targets = GlobalTargets::compute(res);
    let mut out = ScanResult {
        got_kept: got_kept.clone(),
        ..Default::default()
    };
    let mut errors = Vec::new();
    let mut undefs: Vec<UndefRef> = Vec::new();
    let reading = Reading {
        config,
        res,
        targets: &targets,
        got_kept,
        shape,
        report_undefined: config.reports_undefined_in_objects(),
    };
    let ids: Vec<FileId> = (0..res.files.len() as FileId).collect();
    for chunk in ids.chunks(SCAN_CHUNK) {
        let needs: Vec<(u64, Vec<Need>)> = chunk
            .par_iter()
            .map(|&fid| file_needs(&reading, fid))
            .collect();
        for (count, needs) in needs {
            out.relocation_count += count;
            for need in needs {
                record(config, shape, res, &mut out, &mut errors, &mut undefs, need);
            }
        }
    }
    // Relocation application asks the same questions.
    out.targets = targets;
    if !undefs.is_empty() {
        // --warn-unresolved-symbols: a symbol that may be defined at run time (default
        // visibility) is a warning; the others stay errors, as in lld, unless
        // --noinhibit-exec makes them all warnings.
        let (warned, erred): (Vec<UndefRef>, Vec<UndefRef>) = undefs.into_iter().partition(|u| {
            config.noinhibit_exec
                || config.warn_unresolved_symbols
                    && res.symtab.get(u.symbol).visibility == elf::STV_DEFAULT
        });
        for w in undefined_errors(res, &warned) {
            if let Err(e) = config.warn(&w.0) {
                errors.push(e);
            }
        }
        let erred_errors = undefined_errors(res, &erred);
        for (e, name) in erred_errors.into_iter().zip(undefined_names(res, &erred)) {
            let script = config.error_handling_script.as_deref().and_then(|script| {
                crate::error::run_error_handling_script(script, "undefined-symbol", &name)
            });
            errors.push(e);
            errors.extend(script);
        }
    }
    if errors.is_empty() {
        reuse_igotplt_slots(&mut out);
        order_entries_like_lld(&mut out);
        Ok(out)
    } else {
        Err(errors)
    }
}

/// What reading a file's relocations for the scan needs, the same for every file.
struct Reading<'a> {
    config: &'a Config,
    res: &'a Resolved,
    targets: &'a GlobalTargets,
    got_kept: &'a hashbrown::HashSet<SymKey>,
    shape: OutputShape,
    report_undefined: bool,
}

/// The relocation count of file `fid` and what its relocations need, in order.
fn file_needs(reading: &Reading, fid: FileId) -> (u64, Vec<Need>) {
    let &Reading {
        config,
        res,
        targets,
        got_kept,
        shape,
        report_undefined,
    } = reading;
    let file = &res.files[fid as usize];
    let mut count = 0u64;
    let mut needs = Vec::new();
    if !file.relocations_read && file.in_link() {
        let e = err!(
            "internal error: the relocations of {} were not read before the relocation scan",
            file.name
        );
        return (0, vec![Need::Error(e)]);
    }
    for (si, sec) in file.sections.iter().enumerate() {
        if !sec.kind.is_copied() && sec.kind != SectionKind::EhFrame {
            continue;
        }
        let alloc = sec.is_alloc();
        let writable = sec.flags() & u64::from(elf::SHF_WRITE) != 0;
        let mut skip = 0usize;
        count += sec.relocs.len() as u64;
        for r in sec.relocs.iter() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let r_type = r.r_type(LE, false);
            let sym_index = r.r_sym(LE, false) as usize;
            let offset = r.r_offset(LE);
            let addend = r.r_addend(LE);
            let Some(info) = arch::rel_info(r_type) else {
                let e = arch::unknown_relocation_error(r_type, &file.sym_display_name(sym_index));
                needs.push(Need::Error(err!("{}: {}", file.location(si, offset), e)));
                continue;
            };
            if info.expr == arch::RelExpr::None
                || sym_index == 0 && info.expr != arch::RelExpr::GotPc
            {
                continue;
            }
            // A non-allocated section (debug info) asks only whether a global it names is
            // undefined; its many references to local symbols ask nothing.
            if !alloc && sym_index < file.first_global {
                continue;
            }
            let mut t = targets.of(res, fid, sym_index);
            if !t.defined && !t.undef_weak {
                // lld's "can be external": a default-visibility global. Unreported (ignored
                // or only warned about), it is imported where the output is dynamic and
                // resolves to 0 where it is not, as a weak undefined symbol does.
                let global = match t.key {
                    SymKey::Global(g) => Some(g),
                    SymKey::Local(..) => None,
                };
                let external =
                    global.is_some_and(|g| res.symtab.get(g).visibility == elf::STV_DEFAULT);
                // --noinhibit-exec makes every report a warning, as in lld.
                let warned = (external && config.warn_unresolved_symbols) || config.noinhibit_exec;
                let ignored = external && !report_undefined;
                if report_undefined || !t.preemptible {
                    if let Some(g) = global.filter(|_| !ignored) {
                        needs.push(Need::Undefined(UndefRef {
                            symbol: g,
                            file: fid,
                            sec: si as u32,
                            offset,
                        }));
                    }
                    if !(warned || ignored) {
                        continue;
                    }
                }
                if !t.preemptible {
                    t.undef_weak = true;
                }
            }
            if !alloc {
                continue;
            }
            let reference = Reference {
                file: fid,
                sec: si as u32,
                offset,
                sym_index: sym_index as u32,
                info,
                addend,
                t,
                writable,
            };
            if passes_to_loader(config, &t) {
                needs.push(Need::ToLoader(reference));
                continue;
            }
            let keeps_got = |k| got_kept.contains(&k);
            let p = plan(
                shape, &info, r_type, &t, &keeps_got, sec.data, offset, addend,
            );
            use arch::RelExpr as E;
            let needed = match p {
                Plan::None | Plan::Relaxed(_) => false,
                Plan::TlsToLe => {
                    if matches!(info.expr, E::TlsGd | E::TlsLd) {
                        // The call to __tls_get_addr disappears with the rewrite.
                        skip = 1;
                    }
                    false
                }
                Plan::TlsToIe => {
                    if info.expr == E::TlsGd {
                        skip = 1;
                    }
                    true
                }
                Plan::ViaPlt | Plan::ViaGot(_) => true,
                Plan::Direct => direct_needs_record(shape, &info, &t),
            };
            if needed {
                needs.push(Need::Planned(reference, p));
            }
        }
    }
    (count, needs)
}

/// Whether a direct reference needs anything of [`record`]: an IPLT entry, or something of
/// [`scan_direct`] (a dynamic relocation, a copy, a canonical PLT entry, an error). A
/// PC-relative reference to a symbol bound here, the bulk of every link, needs nothing.
fn direct_needs_record(shape: OutputShape, info: &arch::RelInfo, t: &Target) -> bool {
    use arch::RelExpr as E;
    if t.ifunc || info.expr == E::TpOff && !shape.exe {
        return true;
    }
    let abs = info.expr == E::Abs;
    if !abs && !matches!(info.expr, E::PcRel | E::Plt) {
        return false;
    }
    t.preemptible || abs && shape.is_pic && !t.absolute && !t.undef_weak
}

/// Carries out what one relocation needs ([`Need`]).
#[allow(clippy::too_many_arguments)]
fn record(
    config: &Config,
    shape: OutputShape,
    res: &Resolved,
    out: &mut ScanResult,
    errors: &mut Vec<Error>,
    undefs: &mut Vec<UndefRef>,
    need: Need,
) {
    use arch::RelExpr as E;
    let (reference, planned) = match need {
        Need::Error(e) => return errors.push(e),
        Need::Undefined(u) => return undefs.push(u),
        Need::ToLoader(r) => (r, None),
        Need::Planned(r, p) => (r, Some(p)),
    };
    let Reference {
        file: fid,
        sec: si,
        offset,
        sym_index,
        info,
        addend,
        t,
        writable,
    } = reference;
    let file = &res.files[fid as usize];
    let sym_index = sym_index as usize;
    let site = || located_reference(file, si as usize, offset);
    let place = Place::Input {
        file: fid,
        sec: si,
        offset,
    };
    let p = match planned {
        Some(p) => p,
        None => {
            // -z ifunc-noplt: no PLT entry, no GOT slot; the loader resolves the reference
            // itself, with a dynamic relocation of the same type against the IFUNC, which is
            // exported for it.
            match t.key {
                SymKey::Global(g) => {
                    out.dyn_relocs.push(DynReloc {
                        place,
                        kind: DynKind::Symbolic {
                            sym: g,
                            r_type: info.r_type,
                            addend,
                        },
                    });
                    out.dynamic_refs.insert(g);
                }
                // lld writes such a relocation against symbol 0 (a local symbol has no
                // `.dynsym` entry), which resolves to nothing; weld refuses instead.
                SymKey::Local(..) => errors.push(err!(
                    "relocation {} cannot be used against local IFUNC symbol '{}' with -z ifunc-noplt\n>>> defined in {}\n>>> referenced by {}",
                    info.name(),
                    file.sym_display_name(sym_index),
                    defined_in(res, &t),
                    site()
                )),
            }
            return;
        }
    };
    match p {
        Plan::None | Plan::Relaxed(_) | Plan::TlsToLe => {}
        Plan::TlsToIe => add_got(out, res, t, GotKind::TlsIe, shape),
        Plan::ViaPlt => {
            if let SymKey::Global(g) = t.key {
                add_plt(out, g);
            }
        }
        Plan::ViaGot(kind) => {
            if t.ifunc && kind == GotKind::Addr {
                // The GOT slot of an IFUNC holds its IPLT entry's address, the same address
                // direct references use, so function pointers compare equal across
                // translation units.
                add_iplt(out, t.key);
            }
            add_got(out, res, t, kind, shape);
        }
        Plan::Direct => {
            if t.ifunc {
                add_iplt(out, t.key);
                // Address taken directly: the IPLT entry is the function's canonical address
                // (lld then lists it as a FUNC there).
                if info.expr != E::Plt {
                    out.iplt_canonical.insert(t.key);
                }
            }
            if let Err(e) = scan_direct(config, shape, res, out, &info, &t, place, addend, writable)
            {
                errors.push(err!(
                    "{e}\n>>> defined in {}\n>>> referenced by {}",
                    defined_in(res, &t),
                    site()
                ));
            }
            if info.expr == E::TpOff && !shape.exe {
                errors.push(err!(
                    "relocation {} against {} cannot be used with -shared\n>>> defined in {}\n>>> referenced by {}",
                    info.name(),
                    describe_target(res, fid, sym_index).trim_start_matches("symbol ").trim_matches('\''),
                    defined_in(res, &t),
                    site()
                ));
            }
        }
    }
}

/// As lld: an IFUNC defined here whose address is only ever loaded from the GOT (never taken
/// directly, so its IPLT entry is not its canonical address) needs no `.got` slot: GOT
/// references use the `.got.plt` slot its IRELATIVE relocation fills with the resolved
/// function (`LayoutAddressMap::got_slot_address` falls back to it).
fn reuse_igotplt_slots(out: &mut ScanResult) {
    let reused: hashbrown::HashSet<u32> = out
        .got
        .iter()
        .filter(|&&(k, kind)| {
            kind == GotKind::Addr
                && out.iplt_index.contains_key(&k)
                && !out.iplt_canonical.contains(&k)
        })
        .map(|&(k, kind)| out.got_slot[&(k, kind)])
        .collect();
    if reused.is_empty() {
        return;
    }
    out.got.retain(|&(k, kind)| {
        let keep = !reused.contains(&out.got_slot[&(k, kind)]);
        if !keep {
            out.got_slot.remove(&(k, kind));
        }
        keep
    });
    out.dyn_relocs
        .retain(|d| !matches!(d.place, Place::Got(n) if reused.contains(&n)));
}

/// Scanning creates GOT, PLT and IPLT entries in the order relocations need them; lld creates
/// them afterwards, walking the global symbols in symbol-table order and then each file's
/// locals (the module's TLS LD pair first; per symbol: address, TLS descriptor, GD pair, IE).
/// The entries are renumbered into that order, and the dynamic relocations that name a slot
/// follow them.
fn order_entries_like_lld(out: &mut ScanResult) {
    fn key_rank(k: SymKey) -> (u8, u32, u32) {
        match k {
            SymKey::Local(u32::MAX, _) => (0, 0, 0),
            SymKey::Global(g) => (1, g, 0),
            SymKey::Local(f, i) => (2, f, i),
        }
    }
    let kind_rank = |k: GotKind| match k {
        GotKind::TlsLd => 0,
        GotKind::Addr => 1,
        GotKind::TlsDesc => 2,
        GotKind::TlsGd => 3,
        GotKind::TlsIe => 4,
    };
    let mut got = std::mem::take(&mut out.got);
    got.sort_by_key(|&(k, kind)| (key_rank(k), kind_rank(kind)));
    let mut new_slot: HashMap<u32, u32> = HashMap::new();
    let mut next = 0;
    for &(k, kind) in &got {
        let old = out.got_slot[&(k, kind)];
        for i in 0..kind.slots() {
            new_slot.insert(old + i, next + i);
        }
        out.got_slot.insert((k, kind), next);
        next += kind.slots();
    }
    out.got = got;
    out.got_slots = next;

    out.plt.sort_unstable();
    for (i, &g) in out.plt.iter().enumerate() {
        out.plt_index.insert(g, i as u32);
    }

    let mut iplt = std::mem::take(&mut out.iplt);
    iplt.sort_by_key(|&k| key_rank(k));
    let mut new_iplt: HashMap<u32, u32> = HashMap::new();
    for (i, &k) in iplt.iter().enumerate() {
        new_iplt.insert(out.iplt_index[&k], i as u32);
        out.iplt_index.insert(k, i as u32);
    }
    out.iplt = iplt;

    for d in out.dyn_relocs.iter_mut() {
        match &mut d.place {
            Place::Got(n) => *n = new_slot.get(n).copied().unwrap_or(*n),
            Place::IgotPlt(n) => *n = new_iplt.get(n).copied().unwrap_or(*n),
            _ => {}
        }
    }
}

/// `-z ifunc-noplt` and an IFUNC defined here: an allocated section's reference is left for
/// the dynamic loader (lld's `handleNonPreemptibleIfunc` is skipped; `processAux` passes the
/// relocation on whatever its type), so nothing is written at its place.
pub fn passes_to_loader(config: &Config, t: &Target) -> bool {
    config.z.ifunc_noplt && t.gnu_ifunc
}

/// A direct (S + A style) relocation: decides whether it needs a dynamic relocation, a copy
/// relocation or a canonical PLT entry, or cannot be represented.
#[allow(clippy::too_many_arguments)]
fn scan_direct(
    config: &Config,
    shape: OutputShape,
    res: &Resolved,
    out: &mut ScanResult,
    info: &arch::RelInfo,
    t: &Target,
    place: Place,
    addend: i64,
    writable: bool,
) -> std::result::Result<(), String> {
    use arch::RelExpr as E;
    let abs = info.expr == E::Abs;
    let pcrel = matches!(info.expr, E::PcRel | E::Plt);
    if !abs && !pcrel {
        return Ok(());
    }
    let g = match t.key {
        SymKey::Global(g) => Some(g),
        SymKey::Local(..) => None,
    };
    let cannot = |what: &str| -> String {
        let name = match g {
            Some(g) => format!("symbol '{}'", res.symtab.get(g).name_str()),
            None => "local symbol".to_string(),
        };
        format!(
            "relocation {} cannot be used against {name}; recompile with {what}",
            info.name()
        )
    };
    if t.preemptible {
        // A word in writable data can carry a symbolic dynamic relocation.
        if abs && info.size == 8 && (writable || !config.z.text) {
            if let Some(g) = g {
                out.dynamic_refs.insert(g);
                out.dyn_relocs.push(DynReloc {
                    place,
                    kind: DynKind::Symbolic {
                        sym: g,
                        r_type: elf::R_X86_64_64,
                        addend,
                    },
                });
            }
            return Ok(());
        }
        // An executable can take the definition over: a copy for data, a canonical PLT entry
        // for functions (their address must be the same everywhere).
        if shape.exe && t.shared {
            let Some(g) = g else { return Ok(()) };
            if !t.func && !config.z.copyreloc {
                return Err(format!(
                    "unresolvable relocation {} against symbol '{}'; recompile with -fPIC or remove '-z nocopyreloc'",
                    info.name(),
                    res.symtab.get(g).name_str()
                ));
            }
            if t.func {
                add_plt(out, g);
                out.canonical_plt.insert(g);
            } else {
                add_copy(out, g);
            }
            out.dynamic_refs.insert(g);
            // The address is now fixed in this module; a PIC output still needs RELATIVE.
            if abs && shape.is_pic && info.size == 8 {
                out.dyn_relocs.push(DynReloc {
                    place,
                    kind: DynKind::Relative {
                        target: t.key,
                        addend,
                    },
                });
            }
            if abs && shape.is_pic && info.size != 8 {
                return Err(cannot("-fPIC"));
            }
            return Ok(());
        }
        if t.undef_weak && !shape.is_pic {
            return Ok(());
        }
        return Err(cannot(if shape.exe { "-fPIE" } else { "-fPIC" }));
    }
    if abs && shape.is_pic && !t.absolute && (!t.undef_weak || t.preemptible) {
        if info.size == 8 {
            if !writable && config.z.text {
                return Err(cannot("-fPIC"));
            }
            out.dyn_relocs.push(DynReloc {
                place,
                kind: DynKind::Relative {
                    target: t.key,
                    addend,
                },
            });
        } else {
            return Err(cannot("-fPIC"));
        }
    }
    Ok(())
}

fn defined_in(res: &Resolved, t: &Target) -> String {
    match t.key {
        SymKey::Local(f, _) => res.files[f as usize].name.clone(),
        SymKey::Global(g) => match res.symtab.get(g).def {
            SymbolDef::Defined { file, .. } | SymbolDef::Common { file, .. } => {
                res.files[file as usize].name.clone()
            }
            SymbolDef::Shared { file, .. } => res.shared[file as usize].name.clone(),
            _ => "<internal>".to_string(),
        },
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

fn add_plt(out: &mut ScanResult, g: SymbolId) {
    if !out.plt_index.contains_key(&g) {
        out.plt_index.insert(g, out.plt.len() as u32);
        out.plt.push(g);
        out.dynamic_refs.insert(g);
    }
}

fn add_copy(out: &mut ScanResult, g: SymbolId) {
    if !out.copy_index.contains_key(&g) {
        let n = out.copies.len() as u32;
        out.copy_index.insert(g, n);
        out.copies.push(g);
        out.dyn_relocs.push(DynReloc {
            place: Place::Copy(n),
            kind: DynKind::Symbolic {
                sym: g,
                r_type: elf::R_X86_64_COPY,
                addend: 0,
            },
        });
    }
}

fn add_got(out: &mut ScanResult, res: &Resolved, t: Target, kind: GotKind, shape: OutputShape) {
    // One local-dynamic pair serves the whole module.
    let key = if kind == GotKind::TlsLd {
        SymKey::Local(u32::MAX, 0)
    } else {
        t.key
    };
    if out.got_slot.contains_key(&(key, kind)) {
        return;
    }
    let slot = out.got_slots;
    out.got_slots += kind.slots();
    out.got.push((key, kind));
    out.got_slot.insert((key, kind), slot);
    let global = match t.key {
        SymKey::Global(g) => Some(g),
        _ => None,
    };
    let _ = res;
    let mut push = |place: Place, kind: DynKind| out.dyn_relocs.push(DynReloc { place, kind });
    match kind {
        GotKind::Addr => {
            if t.preemptible {
                if let Some(g) = global {
                    push(
                        Place::Got(slot),
                        DynKind::Symbolic {
                            sym: g,
                            r_type: elf::R_X86_64_GLOB_DAT,
                            addend: 0,
                        },
                    );
                    out.dynamic_refs.insert(g);
                }
            } else if shape.is_pic && !t.absolute && !t.undef_weak {
                push(
                    Place::Got(slot),
                    DynKind::Relative {
                        target: t.key,
                        addend: 0,
                    },
                );
            }
        }
        GotKind::TlsIe => {
            if t.preemptible {
                if let Some(g) = global {
                    push(
                        Place::Got(slot),
                        DynKind::Symbolic {
                            sym: g,
                            r_type: elf::R_X86_64_TPOFF64,
                            addend: 0,
                        },
                    );
                    out.dynamic_refs.insert(g);
                }
            } else if !shape.exe {
                push(
                    Place::Got(slot),
                    DynKind::TlsLocal {
                        r_type: elf::R_X86_64_TPOFF64,
                        target: Some(t.key),
                        addend: 0,
                    },
                );
            }
            // In an executable the linker knows the TP offset and writes it into the slot.
        }
        GotKind::TlsGd => {
            if t.preemptible {
                if let Some(g) = global {
                    push(
                        Place::Got(slot),
                        DynKind::Symbolic {
                            sym: g,
                            r_type: elf::R_X86_64_DTPMOD64,
                            addend: 0,
                        },
                    );
                    push(
                        Place::Got(slot + 1),
                        DynKind::Symbolic {
                            sym: g,
                            r_type: elf::R_X86_64_DTPOFF64,
                            addend: 0,
                        },
                    );
                    out.dynamic_refs.insert(g);
                }
            } else {
                push(
                    Place::Got(slot),
                    DynKind::TlsLocal {
                        r_type: elf::R_X86_64_DTPMOD64,
                        target: None,
                        addend: 0,
                    },
                );
            }
        }
        GotKind::TlsLd => {
            push(
                Place::Got(slot),
                DynKind::TlsLocal {
                    r_type: elf::R_X86_64_DTPMOD64,
                    target: None,
                    addend: 0,
                },
            );
        }
        GotKind::TlsDesc => {
            if t.preemptible {
                if let Some(g) = global {
                    push(
                        Place::Got(slot),
                        DynKind::Symbolic {
                            sym: g,
                            r_type: elf::R_X86_64_TLSDESC,
                            addend: 0,
                        },
                    );
                    out.dynamic_refs.insert(g);
                }
            } else {
                push(
                    Place::Got(slot),
                    DynKind::TlsLocal {
                        r_type: elf::R_X86_64_TLSDESC,
                        target: Some(t.key),
                        addend: 0,
                    },
                );
            }
        }
    }
}

fn describe_target(res: &Resolved, file: FileId, index: usize) -> String {
    let f = &res.files[file as usize];
    match res.global_of(file, index) {
        Some(g) => format!("symbol '{}'", res.symtab.get(g).name_str()),
        None => format!("local symbol '{}'", f.sym_display_name(index)),
    }
}

/// The `>>> referenced by` text lld prints for a place: the DWARF line or the source file name
/// when known, then [`reference_site`] on a line of its own.
pub fn located_reference(file: &ObjectFile, sec: usize, offset: u64) -> String {
    let src = crate::input::debug_info::source_location(file, sec, offset).or_else(|| {
        file.source_name
            .map(|s| String::from_utf8_lossy(s).into_owned())
    });
    match src {
        Some(src) => format!(
            "{src}\n>>>               {}",
            reference_site(file, sec, offset)
        ),
        None => reference_site(file, sec, offset),
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

/// The names of the symbols `undefined_errors` reports, in its order (for
/// `--error-handling-script`, which gets the name as the symbol table has it).
fn undefined_names(res: &Resolved, undefs: &[UndefRef]) -> Vec<String> {
    let mut seen = hashbrown::HashSet::new();
    undefs
        .iter()
        .filter(|u| seen.insert(u.symbol))
        .map(|u| res.symtab.get(u.symbol).name_str())
        .collect()
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
        if let Some(v) = by_sym.get_mut(&u.symbol) {
            v.push(u);
        }
    }
    let mut errors = Vec::new();
    let mut hinted = false;
    for sid in order {
        let refs = &by_sym[&sid];
        // lld names a visibility that rules out a definition at run time.
        let visibility = match res.symtab.get(sid).visibility {
            elf::STV_INTERNAL => "internal ",
            elf::STV_HIDDEN => "hidden ",
            elf::STV_PROTECTED => "protected ",
            _ => "",
        };
        let mut msg = format!(
            "undefined {visibility}symbol: {}",
            res.symtab.get(sid).display_name()
        );
        for u in refs.iter().take(3) {
            let f = &res.files[u.file as usize];
            msg.push_str("\n>>> referenced by ");
            msg.push_str(&located_reference(f, u.sec as usize, u.offset));
        }
        if refs.len() > 3 {
            msg.push_str(&format!("\n>>> referenced {} more times", refs.len() - 3));
        }
        let name = res.symtab.get(sid).name;
        if !hinted && crate::input::section_rules::start_stop_section(name).is_some() {
            // lld gives this hint once per link.
            hinted = true;
            msg.push_str("\n>>> the encapsulation symbol needs to be retained under --gc-sections properly; consider -z nostart-stop-gc (see https://lld.llvm.org/ELF/start-stop-gc)");
        }
        errors.push(Error(msg));
    }
    errors
}

/// Everything relocation application needs to know about the final layout.
pub trait AddressMap: Sync {
    /// Address of symbol `index` of `file` plus `addend`, with the addend folded in the way lld
    /// does for section symbols of merged sections (the piece is found at value + addend).
    /// For a symbol with a canonical PLT entry or a copy relocation this is that address.
    fn symbol_address(&self, file: FileId, index: usize, addend: i64) -> u64;
    fn iplt_entry_address(&self, key: SymKey) -> Option<u64>;
    fn plt_entry_address(&self, sym: SymbolId) -> Option<u64>;
    /// Address of the first slot of a GOT entry (for IFUNCs: their `.got.plt` slot).
    fn got_slot_address(&self, key: SymKey, kind: GotKind) -> Option<u64>;
    fn got_base(&self) -> u64;
    /// Thread pointer relative offset base (variant 2: TP is the end of the TLS block).
    fn tls_tp(&self) -> u64;
    fn tls_start(&self) -> u64;
    fn symbol_size(&self, file: FileId, index: usize) -> u64;
    /// Whether GOTPCRELX references to `key` keep their GOT slot (`ScanResult::got_kept`).
    fn keeps_got_slot(&self, key: SymKey) -> bool;
    /// [`target_of`]; a map that holds the scan's [`GlobalTargets`] answers from them.
    fn target(&self, res: &Resolved, file: FileId, index: usize) -> Target {
        target_of(res, file, index)
    }
}
