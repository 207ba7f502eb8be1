//! `.dynamic`: the dynamic section's tags in lld's order. Their number is fixed before
//! addresses exist (so the section can be sized); their values are filled in once the layout is
//! final.

use super::dyn_relocs::DynRelocCounts;
use crate::config::{Config, OutputKind};
use crate::output::sections::{
    put64, Synthetic, SyntheticChunk, ALLOC, RELA_SIZE, REL_SIZE, SYM_SIZE, WRITE,
};
use crate::relocations::scan::{GotKind, ScanResult};
use crate::resolve::Resolved;
use object::elf;

/// Android's tags for `--pack-dyn-relocs=android` and `--use-android-relr-tags`.
const DT_ANDROID_RELA: u32 = 0x6000_0011;
const DT_ANDROID_RELASZ: u32 = 0x6000_0012;
const DT_ANDROID_RELR: u32 = 0x6fff_e000;
const DT_ANDROID_RELRSZ: u32 = 0x6fff_e001;
const DT_ANDROID_RELRENT: u32 = 0x6fff_e003;
/// gABI's `DT_RELR*` (the `object` crate does not name them).
const DT_RELRSZ: u32 = 35;
const DT_RELR: u32 = 36;
const DT_RELRENT: u32 = 37;
/// The init/fini array output sections, in the order of [`tags`]'s `arrays_present`.
pub const INIT_FINI_ARRAYS: [&str; 3] = [".preinit_array", ".init_array", ".fini_array"];

/// The `.dynamic` tags in lld's order. `arrays_present` says which of [`INIT_FINI_ARRAYS`] the
/// output has. `synth` gives a synthetic chunk's address and size, `osec` an output section's
/// (by name), `sym` a defined symbol's value; during layout they are dummies (only the number
/// of tags matters then).
#[allow(clippy::too_many_arguments)]
pub fn tags(
    config: &Config,
    res: &Resolved,
    t: &crate::output::layout::DynTables,
    scan: &ScanResult,
    arrays_present: [bool; 3],
    synth: &dyn Fn(Synthetic) -> Option<(u64, u64)>,
    osec: &dyn Fn(&str) -> Option<(u64, u64)>,
    sym: &dyn Fn(&[u8]) -> Option<u64>,
    counts: DynRelocCounts,
) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = Vec::new();
    let mut tag = |k: u32, val: u64| v.push((u64::from(k), val));
    // lld's order: filters, the run path, the needed libraries, the soname.
    for &n in &t.filters {
        tag(elf::DT_FILTER, u64::from(n));
    }
    for &n in &t.auxiliaries {
        tag(elf::DT_AUXILIARY, u64::from(n));
    }
    if let Some(rp) = t.runpath {
        tag(
            if config.enable_new_dtags {
                elf::DT_RUNPATH
            } else {
                elf::DT_RPATH
            },
            u64::from(rp),
        );
    }
    for &n in &t.needed {
        tag(elf::DT_NEEDED, u64::from(n));
    }
    if let Some(so) = t.soname {
        tag(elf::DT_SONAME, u64::from(so));
    }
    if let Some(a) = t.audit {
        tag(crate::input::shared_files::DT_AUDIT, u64::from(a));
    }
    if let Some(a) = t.depaudit {
        tag(crate::input::shared_files::DT_DEPAUDIT, u64::from(a));
    }
    let exe = config.output_kind == OutputKind::Executable;
    let mut flags = 0u64;
    let mut flags1 = 0u64;
    if config.z.now {
        flags |= u64::from(elf::DF_BIND_NOW);
        flags1 |= u64::from(elf::DF_1_NOW);
    }
    if config.z.origin {
        flags |= u64::from(elf::DF_ORIGIN);
        flags1 |= u64::from(elf::DF_1_ORIGIN);
    }
    if config.bsymbolic && !exe {
        flags |= u64::from(elf::DF_SYMBOLIC);
    }
    if !config.z.text {
        flags |= u64::from(elf::DF_TEXTREL);
    }
    // A shared object using initial-exec TLS needs static TLS space (lld's hasTlsIe).
    if config.output_kind == OutputKind::SharedObject
        && scan.got.iter().any(|&(_, k)| k == GotKind::TlsIe)
    {
        flags |= u64::from(elf::DF_STATIC_TLS);
    }
    for (on, bit) in [
        (config.z.global, elf::DF_1_GLOBAL),
        (config.z.initfirst, elf::DF_1_INITFIRST),
        (config.z.interpose, elf::DF_1_INTERPOSE),
        (config.z.nodefaultlib, elf::DF_1_NODEFLIB),
    ] {
        if on {
            flags1 |= u64::from(bit);
        }
    }
    if config.z.nodelete {
        flags1 |= u64::from(elf::DF_1_NODELETE);
    }
    if config.z.nodlopen {
        flags1 |= u64::from(elf::DF_1_NOOPEN);
    }
    if config.z.nodump {
        flags1 |= u64::from(elf::DF_1_NODUMP);
    }
    if exe && config.pie {
        flags1 |= u64::from(elf::DF_1_PIE);
    }
    if flags != 0 {
        tag(elf::DT_FLAGS, flags);
    }
    if flags1 != 0 {
        tag(elf::DT_FLAGS_1, flags1);
    }
    if exe && !config.z.rodynamic {
        tag(elf::DT_DEBUG, 0);
    }
    if let Some((addr, size)) = synth(Synthetic::RelaDyn).filter(|_| counts.rela > 0) {
        if config.pack_dyn_relocs_android {
            // As lld: the packed table's own tags, the entry size still, no count.
            tag(DT_ANDROID_RELA, addr);
            tag(DT_ANDROID_RELASZ, size);
            tag(elf::DT_RELAENT, RELA_SIZE);
        } else if config.z.rel {
            tag(elf::DT_REL, addr);
            tag(elf::DT_RELSZ, size);
            tag(elf::DT_RELENT, REL_SIZE);
            if counts.relative > 0 {
                tag(elf::DT_RELCOUNT, counts.relative);
            }
        } else {
            tag(elf::DT_RELA, addr);
            tag(elf::DT_RELASZ, size);
            tag(elf::DT_RELAENT, RELA_SIZE);
            if counts.relative > 0 {
                tag(elf::DT_RELACOUNT, counts.relative);
            }
        }
    }
    if let Some((addr, size)) = synth(Synthetic::RelrDyn).filter(|_| counts.relr > 0) {
        let (relr, relrsz, relrent) = if config.use_android_relr_tags {
            (DT_ANDROID_RELR, DT_ANDROID_RELRSZ, DT_ANDROID_RELRENT)
        } else {
            (DT_RELR, DT_RELRSZ, DT_RELRENT)
        };
        tag(relr, addr);
        tag(relrsz, size);
        tag(relrent, 8);
    }
    if !scan.plt.is_empty() {
        let (addr, size) = synth(Synthetic::RelaPlt).unwrap_or((0, 0));
        tag(elf::DT_JMPREL, addr);
        tag(elf::DT_PLTRELSZ, size);
        tag(elf::DT_PLTGOT, synth(Synthetic::GotPlt).map_or(0, |x| x.0));
        let format = if config.z.rel {
            elf::DT_REL
        } else {
            elf::DT_RELA
        };
        tag(elf::DT_PLTREL, u64::from(format));
    }
    tag(elf::DT_SYMTAB, synth(Synthetic::DynSym).map_or(0, |x| x.0));
    tag(elf::DT_SYMENT, SYM_SIZE);
    tag(elf::DT_STRTAB, synth(Synthetic::DynStr).map_or(0, |x| x.0));
    tag(elf::DT_STRSZ, t.dynstr.len() as u64);
    if !config.z.text {
        tag(elf::DT_TEXTREL, 0);
    }
    if !t.gnu_hash.is_empty() {
        tag(
            elf::DT_GNU_HASH,
            synth(Synthetic::GnuHash).map_or(0, |x| x.0),
        );
    }
    if !t.sysv_hash.is_empty() {
        tag(elf::DT_HASH, synth(Synthetic::Hash).map_or(0, |x| x.0));
    }
    let arrays = [
        (
            ".preinit_array",
            elf::DT_PREINIT_ARRAY,
            elf::DT_PREINIT_ARRAYSZ,
        ),
        (".init_array", elf::DT_INIT_ARRAY, elf::DT_INIT_ARRAYSZ),
        (".fini_array", elf::DT_FINI_ARRAY, elf::DT_FINI_ARRAYSZ),
    ];
    for ((name, at, sz), present) in arrays.into_iter().zip(arrays_present) {
        if name == ".preinit_array" && !exe {
            continue;
        }
        if present {
            let (addr, size) = osec(name).unwrap_or((0, 0));
            tag(at, addr);
            tag(sz, size);
        }
    }
    let defined = |n: &[u8]| {
        res.symtab
            .lookup(n)
            .is_some_and(|id| res.symtab.get(id).is_defined())
    };
    if defined(config.init.as_bytes()) {
        tag(elf::DT_INIT, sym(config.init.as_bytes()).unwrap_or(0));
    }
    if defined(config.fini.as_bytes()) {
        tag(elf::DT_FINI, sym(config.fini.as_bytes()).unwrap_or(0));
    }
    if !t.versym.is_empty() {
        tag(
            elf::DT_VERSYM,
            synth(Synthetic::GnuVersion).map_or(0, |x| x.0),
        );
    }
    if !t.verdef.is_empty() {
        tag(
            elf::DT_VERDEF,
            synth(Synthetic::GnuVersionD).map_or(0, |x| x.0),
        );
        tag(elf::DT_VERDEFNUM, u64::from(t.verdef_count));
    }
    if !t.verneed.is_empty() {
        tag(
            elf::DT_VERNEED,
            synth(Synthetic::GnuVersionR).map_or(0, |x| x.0),
        );
        tag(elf::DT_VERNEEDNUM, u64::from(t.verneed_count));
    }
    tag(elf::DT_NULL, 0);
    v
}

/// Writes the tags (`tag`, `value` pairs) into `buf`.
pub fn write(tags: &[(u64, u64)], buf: &mut [u8]) {
    for (i, (tag, val)) in tags.iter().enumerate() {
        put64(buf, i * 16, *tag);
        put64(buf, i * 16 + 8, *val);
    }
}

/// `.dynamic`'s chunk for `count` tags (read-only with `-z rodynamic`).
pub fn chunk(config: &Config, count: usize) -> SyntheticChunk {
    SyntheticChunk {
        kind: Synthetic::Dynamic,
        osec: ".dynamic",
        sh_type: elf::SHT_DYNAMIC,
        flags: if config.z.rodynamic {
            ALLOC
        } else {
            ALLOC | WRITE
        },
        size: count as u64 * 16,
        align: 8,
    }
}
