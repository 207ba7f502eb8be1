//! What a first layout may change in the next one: `--optimize-bb-jumps` (jumps to the next
//! section deleted, decided on this layout's addresses) and GOT relaxations that do not reach
//! once laid out (lld's `relaxOnce`). The driver lays the output out again when either changes
//! something.

use crate::arch::x86_64 as arch;
use crate::config::Config;
use crate::output::sections::{ChunkKind, OutputSection};
use crate::relocations::code_rewrites::FallThrough;
use crate::relocations::scan::{plan, target_of, AddressMap, OutputShape, Plan};
use crate::resolve::symbol_table::SymKey;
use crate::resolve::Resolved;
use object::elf;
use object::read::elf::Rela;
use object::LittleEndian as LE;

/// The targets of GOTPCRELX references relaxed by the scan that do not reach them once laid out
/// (only possible when the output spans more than 2 GiB). Like lld's `relaxOnce`, the caller
/// then keeps their GOT slots and lays the output out again, instead of failing the link.
pub fn relaxations_out_of_reach(
    config: &Config,
    res: &Resolved,
    sections: &[OutputSection],
    map: &dyn AddressMap,
) -> hashbrown::HashSet<SymKey> {
    // A relaxed reference is a signed 32-bit displacement (or, without PIC, a 32-bit absolute
    // address): with every allocated byte below 2 GiB, minus a margin for addends, all fit.
    const REACH: u64 = 0x7fff_0000;
    let end = sections
        .iter()
        .filter(|os| os.is_alloc())
        .map(|os| os.addr.saturating_add(os.size))
        .max()
        .unwrap_or(0);
    if end < REACH {
        return hashbrown::HashSet::new();
    }
    let shape = OutputShape::of(config);
    let mut out = hashbrown::HashSet::new();
    for os in sections.iter().filter(|os| os.is_alloc()) {
        for c in &os.chunks {
            let ChunkKind::Input { file, sec } = c.kind else {
                continue;
            };
            let f = &res.files[file as usize];
            let s = &f.sections[sec as usize];
            for r in s.relocs.iter() {
                let r_type = r.r_type(LE, false);
                let Some(info) = arch::rel_info(r_type) else {
                    continue;
                };
                if !matches!(info.expr, arch::RelExpr::GotPcRel | arch::RelExpr::GotRel) {
                    continue;
                }
                let sym_index = r.r_sym(LE, false) as usize;
                let (in_off, addend) = (r.r_offset(LE), r.r_addend(LE));
                let t = target_of(res, file, sym_index);
                let Plan::Relaxed(kind) = plan(
                    shape,
                    &info,
                    r_type,
                    &t,
                    &|k| map.keeps_got_slot(k),
                    s.data,
                    in_off,
                    addend,
                ) else {
                    continue;
                };
                let v = map.symbol_address(file, sym_index, addend);
                let p = os.addr + c.offset + in_off;
                let v = if kind.is_absolute() {
                    v
                } else {
                    v.wrapping_sub(p)
                };
                if !kind.fits(v) {
                    out.insert(t.key);
                }
            }
        }
    }
    out
}

/// The input sections of executable output sections that another chunk follows, with their
/// addresses: what `--optimize-bb-jumps` looks at.
pub fn fall_throughs(sections: &[OutputSection]) -> Vec<FallThrough> {
    let mut out = Vec::new();
    for os in sections {
        if os.flags & u64::from(elf::SHF_EXECINSTR) == 0 {
            continue;
        }
        for (ci, c) in os.chunks.iter().enumerate() {
            let ChunkKind::Input { file, sec } = c.kind else {
                continue;
            };
            let Some(next) = os.chunks.get(ci + 1) else {
                continue;
            };
            out.push(FallThrough {
                file,
                sec,
                size: c.size,
                base: os.addr + c.offset,
                next_addr: os.addr + next.offset,
            });
        }
    }
    out
}
