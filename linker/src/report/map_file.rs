//! `-Map=FILE` / `-M`: lld's link map. One line per output section, per input section (or
//! linker-made piece, shown as `<internal>:(name)`) and per defined symbol, with the VMA, LMA,
//! size and alignment columns lld prints.

use crate::input::input_files::{FileId, SectionKind};
use crate::output::layout::Layout;
use crate::output::script_layout::{BodyItem, Placement, ScriptLayout};
use crate::output::sections::{Chunk, ChunkKind, OutputSection, Synthetic};
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::elf;
use object::read::elf::Sym;
use object::LittleEndian as LE;
use std::fmt::Write as _;

/// Defined symbols of each input section: (address, size, name).
type SymbolsBySection = HashMap<(FileId, u32), Vec<(u64, u64, String)>>;

fn line(out: &mut String, vma: u64, size: u64, align: u64, indent: usize, text: &str) {
    let _ = writeln!(
        out,
        "{vma:>16x} {vma:>16x} {size:>8x} {align:>5} {:indent$}{text}",
        ""
    );
}

/// Renders the map.
pub fn render(res: &Resolved, lay: &Layout) -> String {
    let mut out =
        String::from("             VMA              LMA     Size Align Out     In      Symbol\n");
    // Defined symbols per input section, sorted by address (lld lists them under their section).
    let mut syms: SymbolsBySection = HashMap::new();
    for (fi, f) in res.files.iter().enumerate() {
        // lld lists the symbols of object files only; a binary input's are the linker's.
        if f.binary {
            continue;
        }
        for i in 1..f.symbols.len() {
            let s = &f.symbols[i];
            let Some(shndx) = f.sym_section(i) else {
                continue;
            };
            if matches!(s.st_type(), elf::STT_SECTION | elf::STT_FILE) {
                continue;
            }
            // A global is listed where its winning definition is.
            if let Some(g) = res.global_of(fi as FileId, i) {
                match res.symtab.get(g).def {
                    crate::resolve::symbol_table::SymbolDef::Defined { file, index }
                        if file == fi as FileId && index as usize == i => {}
                    _ => continue,
                }
            }
            let name = f.sym_name(i);
            if name.is_empty() || lay.sec_addr[fi].get(shndx).is_none_or(|&a| a == u64::MAX) {
                continue;
            }
            let sec = &f.sections[shndx];
            // A symbol of a section `--icf` folded is listed under the section kept, as lld
            // lists it.
            let key = match sec.kind {
                SectionKind::Regular => (fi as FileId, shndx as u32),
                SectionKind::Folded => match lay.folded.get(&(fi as FileId, shndx as u32)) {
                    Some(&k) => k,
                    None => continue,
                },
                _ => continue,
            };
            // A TLS symbol's value is its offset in the TLS block, as lld prints it.
            let mut addr = lay.sec_addr[fi][shndx].wrapping_add(s.st_value(LE));
            if s.st_type() == elf::STT_TLS {
                addr = addr.wrapping_sub(lay.tls_start);
            }
            let name = String::from_utf8_lossy(name).into_owned();
            syms.entry(key)
                .or_default()
                .push((addr, s.st_size(LE), name));
        }
    }
    for v in syms.values_mut() {
        v.sort_by_key(|(a, _, _)| *a);
    }
    match &lay.script {
        Some(script) => render_script_order(&mut out, res, lay, script, &syms),
        None => {
            for os in &lay.sections {
                section_lines(&mut out, res, lay, os, &os.chunks, &syms);
            }
        }
    }
    out
}

/// Under a linker script's `SECTIONS`, the map follows the commands: the assignments between
/// sections and inside them, and the data commands, have lines of their own (`. = ALIGN(8)`,
/// `BYTE(0x11)`), as lld prints them.
fn render_script_order(
    out: &mut String,
    res: &Resolved,
    lay: &Layout,
    script: &ScriptLayout,
    syms: &SymbolsBySection,
) {
    let mut shown = vec![false; lay.sections.len()];
    for step in &script.sequence {
        match *step {
            Placement::Command(c) => {
                if let Some((addr, size, text)) = script.assignments.get(&(None, c)) {
                    line(out, *addr, *size, 1, 0, text);
                }
            }
            Placement::Section(i) => {
                let os = &lay.sections[i as usize];
                shown[i as usize] = true;
                let Some(body) = &script.bodies[i as usize] else {
                    section_lines(out, res, lay, os, &os.chunks, syms);
                    continue;
                };
                line(out, os.addr, os.size, os.align, 0, &os.name);
                for item in &body.items {
                    match *item {
                        BodyItem::Chunks(start, end) => {
                            let chunks = &os.chunks[start as usize..end as usize];
                            chunk_lines(out, res, lay, os, chunks, syms);
                        }
                        BodyItem::Command(n) => {
                            if let Some((addr, size, text)) = script.assignments.get(&(Some(i), n))
                            {
                                line(out, *addr, *size, 1, 8, text);
                            }
                        }
                    }
                }
            }
        }
    }
    for (i, os) in lay.sections.iter().enumerate() {
        if !shown[i] {
            section_lines(out, res, lay, os, &os.chunks, syms);
        }
    }
}

/// An output section's line, then its chunks'.
fn section_lines(
    out: &mut String,
    res: &Resolved,
    lay: &Layout,
    os: &OutputSection,
    chunks: &[Chunk],
    syms: &SymbolsBySection,
) {
    line(out, os.addr, os.size, os.align, 0, &os.name);
    chunk_lines(out, res, lay, os, chunks, syms);
}

/// The lines of `chunks` of output section `os`, each with its symbols.
fn chunk_lines(
    out: &mut String,
    res: &Resolved,
    lay: &Layout,
    os: &OutputSection,
    chunks: &[Chunk],
    syms: &SymbolsBySection,
) {
    for c in chunks {
        let addr = os.addr + c.offset;
        match c.kind {
            ChunkKind::Input { file, sec } => {
                let f = &res.files[file as usize];
                let s = &f.sections[sec as usize];
                line(
                    out,
                    addr,
                    c.size,
                    c.align,
                    8,
                    &format!("{}:({})", f.name, s.name_str()),
                );
                if let Some(list) = syms.get(&(file, sec)) {
                    for (a, size, n) in list {
                        line(out, *a, *size, 1, 16, n);
                    }
                }
            }
            ChunkKind::Merged(g) => {
                let first = lay
                    .merge_of
                    .iter()
                    .find(|&(_, (mg, idx))| mg == g && idx == 0)
                    .map(|((f, s), _)| (f, s));
                let name = first
                    .map(|(f, s)| {
                        res.files[f as usize].sections[s as usize]
                            .name_str()
                            .to_string()
                    })
                    .unwrap_or_else(|| os.name.clone());
                line(
                    out,
                    addr,
                    c.size,
                    c.align,
                    8,
                    &format!("<internal>:({name})"),
                );
            }
            ChunkKind::Synthetic(Synthetic::EhFrame) => {
                // As lld: records in output order, consecutive records of one input section
                // that were adjacent there merged into one line.
                let mut order: Vec<&crate::output::layout::EhPiece> =
                    lay.eh.pieces.iter().collect();
                order.sort_by_key(|p| p.out_offset);
                let mut runs: Vec<(FileId, u32, u32, u64, u64)> = Vec::new();
                for p in order {
                    if let Some(last) = runs.last_mut() {
                        if last.0 == p.file
                            && last.1 == p.sec
                            && u64::from(last.2) + last.4 == u64::from(p.in_offset)
                            && last.3 + last.4 == p.out_offset
                        {
                            last.4 += u64::from(p.size);
                            continue;
                        }
                    }
                    runs.push((p.file, p.sec, p.in_offset, p.out_offset, u64::from(p.size)));
                }
                for (f, s, in_off, out_off, size) in runs {
                    let file = &res.files[f as usize];
                    let name = format!(
                        "{}:({}+0x{:x})",
                        file.name,
                        file.sections[s as usize].name_str(),
                        in_off
                    );
                    line(out, addr + out_off, size, 1, 8, &name);
                }
            }
            ChunkKind::Common(id) => {
                // `FILE:(COMMON)`, named by the file of the prevailing definition, then the
                // symbol.
                let sym = res.symtab.get(id);
                let crate::resolve::symbol_table::SymbolDef::Common { file, size, .. } = sym.def
                else {
                    continue;
                };
                let f = &res.files[file as usize];
                line(
                    out,
                    addr,
                    c.size,
                    c.align,
                    8,
                    &format!("{}:(COMMON)", f.name),
                );
                line(out, addr, size, 1, 16, &sym.name_str());
            }
            ChunkKind::Copy(k) => {
                // `<internal>:(.bss)` or `(.bss.rel.ro)`, then the copied symbols, all at
                // its start.
                line(
                    out,
                    addr,
                    c.size,
                    c.align,
                    8,
                    &format!("<internal>:({})", os.name),
                );
                for &id in lay.copy_groups.get(k as usize).into_iter().flatten() {
                    let (size, _) = crate::resolve::symbol_flags::shared_symbol_size_align(res, id);
                    line(out, addr, size, 1, 16, &res.symtab.get(id).name_str());
                }
            }
            // A linker script's data command, as written.
            ChunkKind::Data(i) => {
                if let Some(d) = lay.script.as_ref().and_then(|s| s.data.get(i as usize)) {
                    line(out, addr, c.size, 1, 8, &d.text);
                }
            }
            ChunkKind::Relocs { file, sec } => {
                // The relocation section itself, named as in its file (`.rela` + target).
                let f = &res.files[file as usize];
                let s = &f.sections[sec as usize];
                line(
                    out,
                    addr,
                    c.size,
                    c.align,
                    8,
                    &format!("{}:(.rela{})", f.name, s.name_str()),
                );
            }
            ChunkKind::Synthetic(k) => {
                // lld sizes the padding on the output section only.
                let size = if k == Synthetic::RelroPadding {
                    0
                } else {
                    c.size
                };
                line(
                    out,
                    addr,
                    size,
                    c.align,
                    8,
                    &format!("<internal>:({})", os.name),
                );
            }
        }
    }
}
