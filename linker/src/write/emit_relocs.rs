//! `--emit-relocs` / `-q`: the input relocations of every output section, written to a
//! `.rela<name>` section the way ld.lld-22 writes them, so that post-link tools (BOLT,
//! profilers, kernel relocators) can still find every place that refers to a symbol.
//!
//! What lld writes, and so what weld writes, for each input relocation of a section that made
//! it to the output (`layout` decides which do and makes the sections):
//! - the offset becomes the place's address in the output (its offset in the output section for
//!   a non-allocated one), inside `.eh_frame` through the record that holds it;
//! - the type is the input's: on x86-64 lld copies the raw relocation even where it relaxed the
//!   instruction (a `R_X86_64_REX_GOTPCRELX` stays one when the `mov` became a `lea`);
//! - a named symbol becomes its `.symtab` index, 0 when `.symtab` does not hold it;
//! - a section symbol becomes the section symbol of the output section, with the addend moved
//!   so that it still points at the same byte (through the merged pieces of a merged section);
//!   one whose section was discarded (a losing COMDAT member, a collected section) gives an
//!   `R_X86_64_NONE` against symbol 0 that keeps its offset and addend, with lld's warning
//!   unless the relocations are those of debug info, `.eh_frame` or `.gcc_except_table`.

use crate::config::Config;
use crate::error::Result;
use crate::input::eh_frame::split_eh_frame;
use crate::input::input_files::{FileId, SectionKind};
use crate::output::layout::Layout;
use crate::output::sections::{ChunkKind, Synthetic, RELA_SIZE};
use crate::resolve::Resolved;
use object::elf;
use object::read::elf::Rela;
use object::LittleEndian as LE;

/// Writes the relocations of input section `sec` of `file` into `buf` (its `.rela` chunk).
pub fn write_relocs(
    res: &Resolved,
    lay: &Layout,
    file: FileId,
    sec: u32,
    buf: &mut [u8],
) -> Result<()> {
    let f = &res.files[file as usize];
    let s = &f.sections[sec as usize];
    let empty = crate::output::layout::SymtabIndex::default();
    let index = lay.symtab_index.as_ref().unwrap_or(&empty);
    let eh_records = if s.kind == SectionKind::EhFrame {
        split_eh_frame(s.data).unwrap_or_default()
    } else {
        Vec::new()
    };
    let place = |off: u64| -> u64 {
        if s.kind == SectionKind::EhFrame {
            eh_frame_place(lay, file, sec, &eh_records, off)
        } else {
            lay.sec_addr[file as usize][sec as usize].wrapping_add(off)
        }
    };
    for (i, r) in s.relocs.iter().enumerate() {
        let o = i * RELA_SIZE as usize;
        let Some(out) = buf.get_mut(o..o + RELA_SIZE as usize) else {
            break;
        };
        let mut r_type = r.r_type(LE, false);
        let sym_index = r.r_sym(LE, false) as usize;
        let mut addend = r.r_addend(LE);
        let mut out_sym = 0u32;
        if sym_index != 0 {
            if let Some(gid) = res.global_of(file, sym_index) {
                out_sym = index.global.get(&gid).copied().unwrap_or(0);
            } else if let Some(sym) = f.symbols.get(sym_index) {
                if sym.st_type() == elf::STT_SECTION {
                    match section_symbol_target(res, lay, file, sym_index, addend) {
                        Some((osec, new_addend)) => {
                            out_sym = index.section.get(&osec).copied().unwrap_or(0);
                            addend = new_addend;
                        }
                        None => {
                            // As lld: a reference into a discarded section becomes a no-op.
                            r_type = elf::R_X86_64_NONE;
                        }
                    }
                } else {
                    out_sym = index
                        .local
                        .get(&(file, sym_index as u32))
                        .copied()
                        .unwrap_or(0);
                }
            }
        }
        out[0..8].copy_from_slice(&place(r.r_offset(LE)).to_le_bytes());
        let info = (u64::from(out_sym) << 32) | u64::from(r_type);
        out[8..16].copy_from_slice(&info.to_le_bytes());
        out[16..24].copy_from_slice(&addend.to_le_bytes());
    }
    Ok(())
}

/// For a relocation against the section symbol `sym_index` of `file`: the output section the
/// target byte went to and the addend relative to that output section's start (lld's
/// `sym.getVA(addend) - osec.addr`). `None` when the section is not in the output.
fn section_symbol_target(
    res: &Resolved,
    lay: &Layout,
    file: FileId,
    sym_index: usize,
    addend: i64,
) -> Option<(u32, i64)> {
    let f = &res.files[file as usize];
    let shndx = f.sym_section(sym_index)?;
    let sec = f.sections.get(shndx)?;
    let osec = if sec.kind == SectionKind::EhFrame {
        lay.synthetic_index.get(&Synthetic::EhFrame)?.0
    } else {
        let o = lay.sec_osec[file as usize][shndx];
        if o == u32::MAX {
            return None;
        }
        o
    };
    let target = lay.local_value(res, file, sym_index, addend);
    let base = lay.sections[osec as usize].addr;
    Some((osec, target.wrapping_sub(base) as i64))
}

/// The output address of offset `off` of an input `.eh_frame` section: inside the kept record
/// that holds it, or, for a record not written (a dead FDE, a CIE kept once from another
/// file), the output `.eh_frame` plus the offset inside that record, as lld computes it.
fn eh_frame_place(
    lay: &Layout,
    file: FileId,
    sec: u32,
    records: &[crate::input::eh_frame::EhRecord],
    off: u64,
) -> u64 {
    let base = lay.synthetic_address(Synthetic::EhFrame).unwrap_or(0);
    let Some(rec) = records
        .iter()
        .find(|r| u64::from(r.offset) <= off && off < r.end())
    else {
        return base.wrapping_add(off);
    };
    let delta = off - u64::from(rec.offset);
    let kept = lay.eh.sections.get(&(file, sec)).and_then(|s| {
        s.pieces
            .iter()
            .map(|&pi| &lay.eh.pieces[pi as usize])
            // A CIE written once for several sections is listed in each, but only its first
            // copy has a place in the output: the others are dead pieces for lld.
            .find(|p| p.file == file && p.sec == sec && p.in_offset == rec.offset)
    });
    match kept {
        Some(p) => base + p.out_offset + delta,
        None => base + delta,
    }
}

/// lld's warning for each written relocation whose section symbol names a discarded section,
/// in output order: `.eh_frame`, `.gcc_except_table` and debug sections are expected to have
/// them and are spared. lld names the place by the relocation section and the place's output
/// address (or output-section offset).
pub fn warn_discarded(config: &Config, res: &Resolved, lay: &Layout) -> Result<()> {
    for os in &lay.sections {
        for c in &os.chunks {
            let ChunkKind::Relocs { file, sec } = c.kind else {
                continue;
            };
            let f = &res.files[file as usize];
            let s = &f.sections[sec as usize];
            let debug = !s.is_alloc() && s.name.starts_with(b".debug");
            if debug || s.kind == SectionKind::EhFrame || s.name == b".gcc_except_table" {
                continue;
            }
            for r in s.relocs {
                let i = r.r_sym(LE, false) as usize;
                if i == 0 || i >= f.first_global {
                    continue;
                }
                let Some(sym) = f.symbols.get(i) else {
                    continue;
                };
                if sym.st_type() != elf::STT_SECTION
                    || section_symbol_target(res, lay, file, i, 0).is_some()
                {
                    continue;
                }
                let target = f
                    .sym_section(i)
                    .and_then(|t| f.sections.get(t))
                    .map_or(String::new(), |t| t.name_str().to_string());
                let place = lay.sec_addr[file as usize][sec as usize].wrapping_add(r.r_offset(LE));
                let archive = f
                    .archive
                    .as_ref()
                    .map_or(String::new(), |a| format!(" in archive {a}"));
                config.warn(&format!(
                    "relocation refers to a discarded section: {target}\n>>> referenced by {}:(.rela{}+0x{place:x}){archive}",
                    f.name,
                    s.name_str()
                ))?;
            }
        }
    }
    Ok(())
}
