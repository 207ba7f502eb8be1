//! Copy relocations' storage (lld's `.bss` and `.bss.rel.ro` `BssSection`s): room in the
//! executable for shared data it refers to directly. One chunk per copied definition, as lld
//! makes them, so that addresses match lld's; `.bss` is zero-filled, so nothing is written.

use crate::relocations::scan::ScanResult;
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::read::elf::Sym;

/// The copy chunks the scan's copy relocations need.
pub struct Copies {
    /// The copy chunk of each copy-relocated symbol (by index in `ScanResult::copies`).
    pub group_of: Vec<u32>,
    /// The symbols of each copy chunk (one shared definition and its copied aliases).
    pub groups: Vec<Vec<SymbolId>>,
    /// Per copy chunk: its output section (`.bss.rel.ro` for read-only data, which is made
    /// read-only after relocation, else `.bss`), size and alignment.
    pub chunks: Vec<(&'static str, u64, u64)>,
}

/// Groups the copy relocations into chunks: lld creates them walking its symbol table (symbol
/// id order here); a definition reached through an alias already copied (same library, same
/// address) shares that copy.
pub fn plan(res: &Resolved, scan: &ScanResult) -> Copies {
    let mut out = Copies {
        group_of: vec![0; scan.copies.len()],
        groups: Vec::new(),
        chunks: Vec::new(),
    };
    let mut by_symbol: Vec<u32> = (0..scan.copies.len() as u32).collect();
    by_symbol.sort_by_key(|&n| scan.copies[n as usize]);
    let mut group_of_def: HashMap<(u32, u64), u32> = HashMap::new();
    for n in by_symbol {
        let g = scan.copies[n as usize];
        let (def, relro) = match res.symtab.get(g).def {
            SymbolDef::Shared { file, index } => {
                let f = &res.shared[file as usize];
                let value = f
                    .dynsyms
                    .get(index as usize)
                    .map_or(0, |s| s.st_value(object::LittleEndian));
                (Some((file, value)), f.in_read_only_section(index as usize))
            }
            _ => (None, false),
        };
        if let Some(&k) = def.as_ref().and_then(|d| group_of_def.get(d)) {
            out.group_of[n as usize] = k;
            out.groups[k as usize].push(g);
            continue;
        }
        let k = out.groups.len() as u32;
        if let Some(d) = def {
            group_of_def.insert(d, k);
        }
        out.group_of[n as usize] = k;
        out.groups.push(vec![g]);
        let (size, align) = crate::resolve::symbol_flags::shared_symbol_size_align(res, g);
        let name = if relro { ".bss.rel.ro" } else { ".bss" };
        out.chunks.push((name, size.max(1), align));
    }
    out
}
