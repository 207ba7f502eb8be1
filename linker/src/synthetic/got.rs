//! `.got`, `.got.plt` and `.igot.plt`: the GOT slots the relocation scan asked for, the PLT's
//! lazy-binding slots after `.got.plt`'s three reserved words, and the IFUNC slots that
//! `R_X86_64_IRELATIVE` fills.

use crate::config::{Config, OutputKind};
use crate::output::layout::Layout;
use crate::output::sections::{put64, Synthetic, SyntheticChunk, ALLOC, WRITE};
use crate::relocations::scan::{AddressMap, GotKind, ScanResult};
use crate::resolve::symbol_table::SymKey;
use crate::resolve::Resolved;
use crate::synthetic::dyn_relocs::{key_address, raw_key_address};
use object::elf;
use object::LittleEndian as LE;

/// `.got`: the values the dynamic loader does not fill (addresses of non-preemptible symbols,
/// TLS offsets known at link time, the module index of a static executable).
pub fn write_got(
    config: &Config,
    res: &Resolved,
    lay: &Layout,
    map: &dyn AddressMap,
    buf: &mut [u8],
) {
    buf.fill(0);
    let exe = config.output_kind == OutputKind::Executable;
    for &(key, kind) in &lay.scan.got {
        let Some(&slot) = lay.scan.got_slot.get(&(key, kind)) else {
            continue;
        };
        let o = slot as usize * 8;
        let preemptible = matches!(key, SymKey::Global(g) if res.symtab.get(g).preemptible);
        let undefined = matches!(key, SymKey::Global(g) if !res.symtab.get(g).is_defined() && !lay.scan.copy_index.contains_key(&g) && !lay.scan.canonical_plt.contains(&g));
        match kind {
            GotKind::Addr if !preemptible && !undefined => {
                put64(buf, o, key_address(res, map, key, 0))
            }
            GotKind::TlsIe if exe && !preemptible => {
                let v = raw_key_address(res, map, key, 0).wrapping_sub(map.tls_tp());
                put64(buf, o, v);
            }
            GotKind::TlsGd if !preemptible => {
                if !lay.dynamic_output {
                    // A static executable's only module is 1.
                    put64(buf, o, 1);
                }
                let v = raw_key_address(res, map, key, 0).wrapping_sub(map.tls_start());
                put64(buf, o + 8, v);
            }
            GotKind::TlsLd if !lay.dynamic_output => put64(buf, o, 1),
            _ => {}
        }
    }
}

/// `.got.plt`: `.dynamic`'s address, two words for the loader, then one slot per PLT entry
/// holding the address of the entry's lazy-binding code.
pub fn write_gotplt(lay: &Layout, buf: &mut [u8]) {
    buf.fill(0);
    let dynamic = lay.synthetic_address(Synthetic::Dynamic).unwrap_or(0);
    put64(buf, 0, dynamic);
    for i in 0..lay.scan.plt.len() as u32 {
        // Lazy binding: the slot starts at the code that pushes the entry's index.
        let entry = lay.plt_entry_address(i);
        let v = lay.plt_style.gotplt_value(entry, lay.ibt_plt_addr, i);
        put64(buf, 24 + i as usize * 8, v);
    }
}

/// Whether the output needs `_GLOBAL_OFFSET_TABLE_`'s base (a reference to the symbol, or a
/// GOT-relative relocation).
fn needs_got_base(res: &Resolved) -> bool {
    if res
        .symtab
        .lookup(b"_GLOBAL_OFFSET_TABLE_")
        .is_some_and(|id| res.symtab.get(id).referenced)
    {
        return true;
    }
    for f in &res.files {
        for s in &f.sections {
            if !s.kind.is_copied() {
                continue;
            }
            for r in s.relocs {
                match r.r_type(LE, false) {
                    elf::R_X86_64_GOTPC32
                    | elf::R_X86_64_GOTPC64
                    | elf::R_X86_64_GOTOFF64
                    | elf::R_X86_64_GOT32
                    | elf::R_X86_64_GOT64
                    | elf::R_X86_64_GOTPC32_TLSDESC => return true,
                    _ => {}
                }
            }
        }
    }
    false
}

/// `.got`'s chunk, when the scan asked for slots.
pub fn got_chunk(scan: &ScanResult) -> Option<SyntheticChunk> {
    (scan.got_slots > 0).then_some(SyntheticChunk {
        kind: Synthetic::Got,
        osec: ".got",
        sh_type: elf::SHT_PROGBITS,
        flags: ALLOC | WRITE,
        size: u64::from(scan.got_slots) * 8,
        align: 8,
    })
}

/// `.got.plt`'s chunk: three reserved words and one slot per PLT entry. lld creates the
/// reserved words whenever something needs a GOT base or a PLT exists; the IPLT's slots alone
/// (a static program without GOT-relative references) do without them.
pub fn gotplt_chunk(res: &Resolved, scan: &ScanResult) -> Option<SyntheticChunk> {
    // needs_got_base reads every relocation: asked last.
    let needed = !scan.plt.is_empty() || needs_got_base(res);
    needed.then_some(SyntheticChunk {
        kind: Synthetic::GotPlt,
        osec: ".got.plt",
        sh_type: elf::SHT_PROGBITS,
        flags: ALLOC | WRITE,
        size: 24 + scan.plt.len() as u64 * 8,
        align: 8,
    })
}

/// The IFUNC slots: a piece of `.got.plt` of their own after the PLT slots (lld's
/// `.igot.plt`).
pub fn igotplt_chunk(scan: &ScanResult) -> Option<SyntheticChunk> {
    (!scan.iplt.is_empty()).then_some(SyntheticChunk {
        kind: Synthetic::IgotPlt,
        osec: ".got.plt",
        sh_type: elf::SHT_PROGBITS,
        flags: ALLOC | WRITE,
        size: scan.iplt.len() as u64 * 8,
        align: 8,
    })
}

/// `.igot.plt`: lld 22 leaves the IFUNC slots zero: their `R_X86_64_IRELATIVE`'s addend names
/// the resolver, which ld.so (or a static program's startup code) calls to fill them. It
/// writes the resolver's address there only for REL targets or `--apply-dynamic-relocs`.
pub fn write_igotplt(buf: &mut [u8]) {
    buf.fill(0);
}
