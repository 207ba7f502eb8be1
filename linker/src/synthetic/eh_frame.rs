//! The output's `.eh_frame` and `.eh_frame_hdr`: which CIEs and FDEs are kept (a CIE once,
//! an FDE when its function survives), where each goes, and the binary search table of
//! `.eh_frame_hdr`. Reading the input records is `crate::input::eh_frame`.

use crate::config::Config;
use crate::error::Result;
use crate::input::input_files::{FileId, Rela64, SectionKind};
use crate::output::layout::{EhLayout, EhPiece, EhSection, Layout};
use crate::output::sections::{carve, put32, CarveError, Synthetic, SyntheticChunk, ALLOC};
use crate::relocations::apply::apply_relocs;
use crate::relocations::scan::{target_of, AddressMap};
use crate::resolve::symbol_table::{SymKey, SymbolDef};
use crate::resolve::Resolved;
use crate::{bail, err};
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela, Sym};
use object::LittleEndian as LE;
use rayon::prelude::*;
use std::ops::Range;

/// `.eh_frame_hdr`, at `addr`: the table of FDEs sorted by the address of their function.
pub fn write_hdr(
    res: &Resolved,
    lay: &Layout,
    map: &dyn AddressMap,
    buf: &mut [u8],
    addr: u64,
) -> Result<()> {
    let eh_addr = lay.synthetic_address(Synthetic::EhFrame).unwrap_or(0);
    // Each FDE's function address: the relocation of its `pc_begin` field, found by binary
    // search in its section's relocations; FDEs in parallel.
    let mut entries: Vec<(u64, u64)> = lay
        .eh
        .pieces
        .par_iter()
        .filter(|p| p.cie_out.is_some())
        .filter_map(|p| {
            let s = &res.files[p.file as usize].sections[p.sec as usize];
            let at = u64::from(p.in_offset) + 8;
            let r = *p.relocs(s).iter().find(|r| r.r_offset(LE) == at)?;
            let pc = map.symbol_address(p.file, r.r_sym(LE, false) as usize, r.r_addend(LE));
            Some((pc, eh_addr + p.out_offset))
        })
        .collect();
    let bytes = crate::input::eh_frame::build_eh_frame_hdr(addr, eh_addr, &mut entries)?;
    let n = bytes.len().min(buf.len());
    buf[..n].copy_from_slice(&bytes[..n]);
    Ok(())
}

/// `.eh_frame`, at `addr`: the kept records, CIE pointers renumbered, relocations applied.
pub fn write<M: AddressMap + ?Sized>(
    config: &Config,
    res: &Resolved,
    lay: &Layout,
    map: &M,
    buf: &mut [u8],
    addr: u64,
) -> Result<()> {
    let base = addr;
    // Records in output order, each given its own part of `buf`, then written in parallel.
    let pieces = &lay.eh.pieces;
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    order.sort_unstable_by_key(|&i| pieces[i].out_offset);
    // Only what no record covers is zeroed: the terminator (the last four bytes), and gaps if
    // there were any.
    let mut covered = 0usize;
    for &i in &order {
        let at = pieces[i].out_offset as usize;
        // Records follow one another with no gap; an empty fill is not free (see
        // `MergedSection::write_to`).
        if at > covered {
            if let Some(gap) = buf.get_mut(covered..at) {
                gap.fill(0);
            }
        }
        covered = covered.max(at + pieces[i].size as usize);
    }
    if let Some(tail) = buf.get_mut(covered..) {
        tail.fill(0);
    }
    let records = order.into_iter().map(|i| {
        let p = &pieces[i];
        (p, p.out_offset, u64::from(p.size))
    });
    let parts = carve(buf, records).map_err(|e| {
        let (CarveError::Overlap(at) | CarveError::PastEnd(at)) = e;
        err!("internal error: .eh_frame record at 0x{at:x} overlaps another or ends past the section")
    })?;
    // The first error in output order, whichever thread meets it first.
    let written: Vec<Result<()>> = parts
        .into_par_iter()
        .map(|(p, out)| {
            let s = &res.files[p.file as usize].sections[p.sec as usize];
            let start = p.in_offset as usize;
            let end = start + p.size as usize;
            out.copy_from_slice(&s.data[start..end]);
            if let Some(cie) = p.cie_out {
                let ptr = (p.out_offset + 4 - cie) as u32;
                put32(out, 4, ptr);
            }
            let rels = p.relocs(s);
            apply_relocs(
                config,
                res,
                map,
                p.file,
                p.sec as usize,
                &rels,
                start as u64,
                out,
                base + p.out_offset,
                None,
            )
        })
        .collect();
    written.into_iter().collect()
}

/// Splits every `.eh_frame` input, drops FDEs of discarded functions and deduplicates CIEs. The
/// output follows lld: each CIE followed by its FDEs, then one zero terminator.
pub fn build(res: &Resolved) -> Result<EhLayout> {
    let mut eh = EhLayout::default();
    let mut cie_ids: HashMap<CieKey, usize> = HashMap::new();
    // For each distinct CIE: its first record, and the FDEs that use it (indices into `pieces`).
    let mut cies: Vec<(u32, Vec<u32>)> = Vec::new();
    // Found in parallel: a big link has half a million sections and a few thousand of these.
    let eh_sections: Vec<(FileId, u32)> = res
        .files
        .par_iter()
        .enumerate()
        .flat_map_iter(|(fi, f)| {
            f.sections
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind == SectionKind::EhFrame)
                .map(move |(si, _)| (fi as FileId, si as u32))
        })
        .collect();
    // Each section's records are read on its own (in parallel); CIEs are then shared and
    // FDEs placed in input order, as lld does.
    let read: Vec<Result<Vec<EhRecord>>> = eh_sections
        .par_iter()
        .map(|&(fid, si)| read_records(res, fid, si))
        .collect();
    for (&(fid, si), records) in eh_sections.iter().zip(read) {
        let f = &res.files[fid as usize];
        let mut sec = EhSection {
            out_start: 0,
            pieces: Vec::new(),
        };
        let mut local_cies: HashMap<u32, usize> = HashMap::new();
        // A record of this section as it goes to the output (offsets set below).
        let piece = |in_offset: u32, size: u32, relocs: Range<u32>, cie_out: Option<u64>| EhPiece {
            file: fid,
            sec: si,
            in_offset,
            size,
            out_offset: 0,
            cie_out,
            relocs_start: relocs.start,
            relocs_end: relocs.end,
        };
        for rec in records? {
            match rec {
                EhRecord::Cie {
                    offset,
                    size,
                    relocs,
                    key,
                } => {
                    let id = match cie_ids.get(&key) {
                        Some(&id) => id,
                        None => {
                            let idx = eh.pieces.len() as u32;
                            eh.pieces.push(piece(offset, size, relocs, None));
                            let id = cies.len();
                            cies.push((idx, Vec::new()));
                            cie_ids.insert(key, id);
                            id
                        }
                    };
                    local_cies.insert(offset, id);
                    sec.pieces.push(cies[id].0);
                }
                EhRecord::Fde {
                    offset,
                    size,
                    relocs,
                    cie_offset,
                } => {
                    let Some(&cie) = local_cies.get(&cie_offset) else {
                        bail!(
                            "{}:(.eh_frame+0x{:x}): FDE refers to an invalid CIE",
                            f.name,
                            offset
                        );
                    };
                    let idx = eh.pieces.len() as u32;
                    eh.pieces.push(piece(offset, size, relocs, Some(0)));
                    cies[cie].1.push(idx);
                    sec.pieces.push(idx);
                    eh.fde_count += 1;
                }
            }
        }
        eh.sections.insert((fid, si), sec);
    }
    let mut out = 0u64;
    for (cie, fdes) in &cies {
        let cie_out = out;
        eh.pieces[*cie as usize].out_offset = out;
        out += u64::from(eh.pieces[*cie as usize].size);
        for &fde in fdes {
            let p = &mut eh.pieces[fde as usize];
            p.out_offset = out;
            p.cie_out = Some(cie_out);
            out += u64::from(p.size);
        }
    }
    // Pieces of FDEs that were dropped never got here; CIE pieces shared across sections are
    // referenced from each section's list, so a section's list is not sorted by output offset.
    eh.size = if out == 0 { 0 } else { out + 4 };
    Ok(eh)
}

/// A CIE's identity: its bytes and its relocations (offset in the record, target, addend).
type CieKey = (&'static [u8], Vec<(u32, Option<SymKey>, i64)>);

/// One record of an input `.eh_frame` section as `build` needs it: a CIE with its identity, or
/// an FDE whose function is live (FDEs of dead functions, and FDEs with no relocation at
/// pc_begin, are left out here). `relocs`: its relocations' indexes when the section's are
/// sorted (`EhPiece::relocs`).
enum EhRecord {
    Cie {
        offset: u32,
        size: u32,
        relocs: Range<u32>,
        key: CieKey,
    },
    Fde {
        offset: u32,
        size: u32,
        relocs: Range<u32>,
        cie_offset: u32,
    },
}

/// The records of `.eh_frame` section `si` of file `fid`, in order.
fn read_records(res: &Resolved, fid: FileId, si: u32) -> Result<Vec<EhRecord>> {
    let f = &res.files[fid as usize];
    let s = &f.sections[si as usize];
    let records = crate::input::eh_frame::split_eh_frame(s.data).map_err(|e| {
        e.into_error(&format!("{}:(.eh_frame)", f.name), |off| {
            format!("{}:(.eh_frame+0x{off:x})", f.name)
        })
    })?;
    let mut out = Vec::with_capacity(records.len());
    // Records come in section order: sorted relocations are found by walking forward once.
    let mut next = 0usize;
    for rec in records {
        let start = rec.offset as usize;
        let end = start + rec.size as usize;
        let (rels, relocs) = if s.relocs_sorted {
            let offset = |i: usize| s.relocs.get(i).map(|r: &Rela64| r.r_offset(LE));
            let mut from = next;
            while offset(from).is_some_and(|o| o < start as u64) {
                from += 1;
            }
            let mut to = from;
            while offset(to).is_some_and(|o| o < end as u64) {
                to += 1;
            }
            next = to;
            (
                std::borrow::Cow::Borrowed(&s.relocs[from..to]),
                from as u32..to as u32,
            )
        } else {
            (s.relocs_in(start as u64, end as u64), 0..0)
        };
        match rec.kind {
            crate::input::eh_frame::EhRecordKind::Cie => {
                let key_rels: Vec<(u32, Option<SymKey>, i64)> = rels
                    .iter()
                    .map(|r| {
                        let sym = r.r_sym(LE, false) as usize;
                        let k = if sym == 0 {
                            None
                        } else {
                            Some(target_of(res, fid, sym).key)
                        };
                        ((r.r_offset(LE) - start as u64) as u32, k, r.r_addend(LE))
                    })
                    .collect();
                out.push(EhRecord::Cie {
                    offset: rec.offset,
                    size: rec.size,
                    relocs,
                    key: (&s.data[start..end], key_rels),
                });
            }
            crate::input::eh_frame::EhRecordKind::Fde { cie_offset } => {
                // The FDE's relocation at pc_begin names its function.
                let Some(first) = rels.iter().find(|r| r.r_offset(LE) == start as u64 + 8) else {
                    continue;
                };
                if fde_target_alive(res, fid, first.r_sym(LE, false) as usize) {
                    out.push(EhRecord::Fde {
                        offset: rec.offset,
                        size: rec.size,
                        relocs,
                        cie_offset,
                    });
                }
            }
        }
    }
    Ok(out)
}

fn fde_target_alive(res: &Resolved, file: FileId, sym: usize) -> bool {
    let (df, di) = match res.global_of(file, sym) {
        Some(g) => match res.symtab.get(g).def {
            SymbolDef::Defined { file, index } => (file, index as usize),
            _ => return false,
        },
        None => (file, sym),
    };
    let f = &res.files[df as usize];
    let Some(s) = f.symbols.get(di) else {
        return false;
    };
    let Some(shndx) = f.sym_section(di) else {
        return s.st_shndx(LE) == elf::SHN_ABS;
    };
    f.sections[shndx].kind.is_copied()
}

/// `.eh_frame_hdr`'s chunk (`--eh-frame-hdr`, when records were kept): a header and one
/// entry per FDE.
pub fn hdr_chunk(config: &Config, eh: &EhLayout) -> Option<SyntheticChunk> {
    (config.eh_frame_hdr && eh.size > 0).then_some(SyntheticChunk {
        kind: Synthetic::EhFrameHdr,
        osec: ".eh_frame_hdr",
        sh_type: elf::SHT_PROGBITS,
        flags: ALLOC,
        size: 12 + 8 * eh.fde_count,
        align: 4,
    })
}

/// `.eh_frame`'s chunk, when records were kept.
pub fn chunk(eh: &EhLayout) -> Option<SyntheticChunk> {
    (eh.size > 0).then_some(SyntheticChunk {
        kind: Synthetic::EhFrame,
        osec: ".eh_frame",
        sh_type: elf::SHT_PROGBITS,
        flags: ALLOC,
        size: eh.size,
        align: 8,
    })
}
