//! `--gc-sections`: the linker's view of the reference graph (lld's `MarkLive`). Every input
//! section is a node; relocations are edges, to sections directly (local and section symbols) or
//! to global symbols resolved through the symbol table when the walk reaches them. The walk
//! itself is the `gc` crate's.
//!
//! Roots are lld's: the entry symbol, `-u`/`--require-defined`, exported symbols, sections lld
//! calls "reserved" (init/fini arrays, `.ctors`/`.dtors`, `.init`/`.fini`, notes), `SHF_GNU_RETAIN`
//! sections, and the personality routines named by `.eh_frame` CIEs. Non-allocated sections are
//! kept but do not keep anything alive (debug info would otherwise keep everything).
//! `.eh_frame` is not a node: as in lld, CIE personality routines and FDE references to
//! non-code sections outside groups (LSDAs) are roots, and an FDE is kept later iff its function
//! is. `SHF_LINK_ORDER` sections hang off their target; members of a group live together.

use crate::config::{Config, OutputKind};
use crate::eh_frame;
use crate::err;
use crate::error::Result;
use crate::input_files::{FileId, SectionKind};
use crate::resolve::Resolved;
use crate::symbol_table::{SymbolDef, SymbolId};
use gc::{Definition, Graph, NodeId, SymId, Target};
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela, SectionHeader, Sym};
use object::LittleEndian as LE;

/// Node kinds in the graph.
pub const NODE_SECTION: u8 = 0;
/// "All sections named X", the target of `__start_X`/`__stop_X` under `-z nostart-stop-gc`.
pub const NODE_START_STOP: u8 = 1;

/// Why something is a root; printed by `--why-live` as lld does.
pub mod reason {
    use gc::RootReason;
    pub const ENTRY: RootReason = RootReason(1);
    pub const UNDEFINED_FLAG: RootReason = RootReason(2);
    pub const EXPORTED: RootReason = RootReason(3);
    pub const RETAINED: RootReason = RootReason(4);
    pub const RESERVED: RootReason = RootReason(5);
    pub const EH_FRAME: RootReason = RootReason(6);
    pub const NO_GC: RootReason = RootReason(7);
    pub const REQUIRE_DEFINED: RootReason = RootReason(8);
}

/// The graph, its walk, and the mapping between nodes and sections.
pub struct MarkResult {
    pub graph: Graph,
    pub liveness: gc::Liveness,
    /// First node id of each file's sections (node = base + section index).
    pub node_base: Vec<u32>,
}

impl MarkResult {
    pub fn node_of(&self, file: FileId, sec: usize) -> NodeId {
        NodeId(self.node_base[file as usize] + sec as u32)
    }

    /// The section a node stands for, if it is a section node.
    pub fn section_of(&self, node: NodeId) -> Option<(FileId, usize)> {
        if self.graph.kind(node)? != NODE_SECTION {
            return None;
        }
        let p = self.graph.payload(node)?;
        Some(((p >> 32) as FileId, (p & 0xffff_ffff) as usize))
    }
}

/// Sections lld never collects (its `isReserved`).
fn is_reserved(name: &[u8], sh_type: u32) -> bool {
    matches!(
        sh_type,
        elf::SHT_INIT_ARRAY | elf::SHT_FINI_ARRAY | elf::SHT_PREINIT_ARRAY | elf::SHT_NOTE
    ) || name.starts_with(b".ctors")
        || name.starts_with(b".dtors")
        || name.starts_with(b".init")
        || name.starts_with(b".fini")
        || name.starts_with(b".jcr")
}

fn is_c_identifier(s: &[u8]) -> bool {
    !s.is_empty()
        && !s[0].is_ascii_digit()
        && s.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
}

/// The node a relocation's symbol points at: a section node for local and section symbols, the
/// global symbol otherwise.
fn reloc_target(res: &Resolved, base: u32, file: FileId, sym: usize) -> Option<Target> {
    if sym == 0 {
        return None;
    }
    if let Some(g) = res.global_of(file, sym) {
        return Some(Target::Symbol(SymId(g)));
    }
    let f = &res.files[file as usize];
    let s = f.symbols.get(sym)?;
    let shndx = s.st_shndx(LE);
    if shndx == elf::SHN_UNDEF || shndx >= elf::SHN_LORESERVE {
        return None;
    }
    Some(Target::Node(NodeId(base + u32::from(shndx))))
}

/// Builds the graph for all loaded objects and walks it.
pub fn mark_live(config: &Config, res: &Resolved) -> Result<MarkResult> {
    let gc_on = config.gc_sections;
    let total: usize = res.files.iter().map(|f| f.sections.len()).sum();
    let mut graph = Graph::with_capacity(total + 16, total * 4);
    let mut node_base = Vec::with_capacity(res.files.len());
    for (fi, f) in res.files.iter().enumerate() {
        node_base.push(graph.node_count() as u32);
        for si in 0..f.sections.len() {
            graph
                .add_node(NODE_SECTION, ((fi as u64) << 32) | si as u64)
                .map_err(|e| err!("internal error: {e}"))?;
        }
    }
    let gerr = |e: gc::GraphError| err!("internal error in the reference graph: {e}");

    // .eh_frame: CIE personalities and FDE references outside code are roots (lld's
    // scanEhFrameSection); FDEs themselves are kept later iff their function is.
    for (fi, f) in res.files.iter().enumerate() {
        let fid = fi as FileId;
        let base = node_base[fi];
        for (si, s) in f.sections.iter().enumerate() {
            if s.kind != SectionKind::EhFrame {
                continue;
            }
            let records = eh_frame::split_eh_frame(s.data).map_err(|e| {
                e.into_error(&format!("{}:(.eh_frame)", f.name), |off| {
                    format!("{}:(.eh_frame+0x{off:x})", f.name)
                })
            })?;
            for rec in records {
                let start = u64::from(rec.offset);
                let end = start + u64::from(rec.size);
                let rels = crate::layout::reloc_range(s.relocs, start, end);
                match rec.kind {
                    eh_frame::EhRecordKind::Cie => {
                        // Personality routines stay alive as long as their CIE exists.
                        for r in rels {
                            if let Some(t) =
                                reloc_target(res, base, fid, r.r_sym(LE, false) as usize)
                            {
                                match t {
                                    Target::Node(n) => {
                                        graph.add_root(n, reason::EH_FRAME).map_err(gerr)?
                                    }
                                    Target::Symbol(sym) => graph
                                        .add_root_symbol(sym, reason::EH_FRAME)
                                        .map_err(gerr)?,
                                }
                            }
                        }
                    }
                    eh_frame::EhRecordKind::Fde { .. } => {
                        // As lld: an FDE's references to code or to group members follow the
                        // function (they die with it); anything else (an LSDA outside a group)
                        // is kept unconditionally.
                        for r in rels.iter().filter(|r| r.r_offset(LE) != start + 8) {
                            let sym = r.r_sym(LE, false) as usize;
                            let Some((tf, ts)) = function_section(res, fid, sym) else {
                                continue;
                            };
                            let target = &res.files[tf as usize].sections[ts];
                            let grouped = target.flags() & u64::from(elf::SHF_GROUP) != 0;
                            if target.flags() & u64::from(elf::SHF_EXECINSTR) != 0 || grouped {
                                continue;
                            }
                            graph
                                .add_root(
                                    NodeId(node_base[tf as usize] + ts as u32),
                                    reason::EH_FRAME,
                                )
                                .map_err(gerr)?;
                        }
                    }
                }
            }
            let _ = si;
        }
    }

    // Section edges, groups, link-order dependants and roots.
    let mut scratch: Vec<Target> = Vec::new();
    for (fi, f) in res.files.iter().enumerate() {
        let fid = fi as FileId;
        let base = node_base[fi];
        let mut link_order: HashMap<usize, Vec<usize>> = HashMap::new();
        for (si, s) in f.sections.iter().enumerate() {
            if s.flags() & u64::from(elf::SHF_LINK_ORDER) != 0 {
                link_order
                    .entry(s.shdr.sh_link(LE) as usize)
                    .or_default()
                    .push(si);
            }
        }
        // Members of a (non-discarded) group live and die together.
        let mut group_next: HashMap<usize, usize> = HashMap::new();
        for g in &f.comdats {
            let live: Vec<usize> = g
                .members
                .iter()
                .map(|&m| m as usize)
                .filter(|&m| {
                    matches!(
                        f.sections[m].kind,
                        SectionKind::Regular | SectionKind::Merge
                    )
                })
                .collect();
            for w in 0..live.len() {
                if live.len() > 1 {
                    group_next.insert(live[w], live[(w + 1) % live.len()]);
                }
            }
        }
        for (si, s) in f.sections.iter().enumerate() {
            if !matches!(s.kind, SectionKind::Regular | SectionKind::Merge) {
                continue;
            }
            let node = NodeId(base + si as u32);
            if !s.is_alloc() {
                // Kept, but its references (debug info) keep nothing alive.
                continue;
            }
            scratch.clear();
            for r in s.relocs {
                if let Some(t) = reloc_target(res, base, fid, r.r_sym(LE, false) as usize) {
                    scratch.push(t);
                }
            }
            if let Some(deps) = link_order.get(&si) {
                scratch.extend(deps.iter().map(|&d| Target::Node(NodeId(base + d as u32))));
            }
            if let Some(&next) = group_next.get(&si) {
                scratch.push(Target::Node(NodeId(base + next as u32)));
            }
            graph
                .set_edges(node, scratch.iter().copied())
                .map_err(gerr)?;

            let flags = s.flags();
            if !gc_on {
                graph.add_root(node, reason::NO_GC).map_err(gerr)?;
            } else if flags & u64::from(elf::SHF_GNU_RETAIN) != 0 {
                graph.add_root(node, reason::RETAINED).map_err(gerr)?;
            } else if is_reserved(s.name, s.sh_type())
                && flags & u64::from(elf::SHF_LINK_ORDER) == 0
            {
                graph.add_root(node, reason::RESERVED).map_err(gerr)?;
            } else if !config.z.start_stop_gc && is_c_identifier(s.name) {
                // -z nostart-stop-gc: C-identifier sections are kept as GNU ld keeps them.
                graph.add_root(node, reason::RESERVED).map_err(gerr)?;
            }
        }
    }

    // Symbol roots.
    let entry = match (&config.entry, config.output_kind) {
        (Some(e), _) => Some(e.clone()),
        (None, OutputKind::Executable) => Some("_start".to_string()),
        _ => None,
    };
    if let Some(e) = entry.and_then(|e| res.symtab.lookup(e.as_bytes())) {
        graph
            .add_root_symbol(SymId(e), reason::ENTRY)
            .map_err(gerr)?;
    }
    for (names, why) in [
        (&config.undefined, reason::UNDEFINED_FLAG),
        (&config.require_defined, reason::REQUIRE_DEFINED),
    ] {
        for n in names {
            if let Some(id) = res.symtab.lookup(n.as_bytes()) {
                graph.add_root_symbol(SymId(id), why).map_err(gerr)?;
            }
        }
    }
    for (id, s) in res.symtab.symbols.iter().enumerate() {
        let defined_here = matches!(s.def, SymbolDef::Defined { .. } | SymbolDef::Common { .. });
        if defined_here && s.in_dynsym {
            graph
                .add_root_symbol(SymId(id as u32), reason::EXPORTED)
                .map_err(gerr)?;
        }
    }
    // Init/fini functions named by DT_INIT/DT_FINI.
    for n in [&b"_init"[..], b"_fini"] {
        if let Some(id) = res.symtab.lookup(n) {
            graph
                .add_root_symbol(SymId(id), reason::RESERVED)
                .map_err(gerr)?;
        }
    }

    // __start_X / __stop_X keep every section X only under -z nostart-stop-gc.
    let mut start_stop: HashMap<SymbolId, NodeId> = HashMap::new();
    if !config.z.start_stop_gc {
        let mut by_name: HashMap<&[u8], Vec<NodeId>> = HashMap::new();
        for (fi, f) in res.files.iter().enumerate() {
            for (si, s) in f.sections.iter().enumerate() {
                if matches!(s.kind, SectionKind::Regular | SectionKind::Merge)
                    && is_c_identifier(s.name)
                {
                    by_name
                        .entry(s.name)
                        .or_default()
                        .push(NodeId(node_base[fi] + si as u32));
                }
            }
        }
        for (id, s) in res.symtab.symbols.iter().enumerate() {
            if s.def != SymbolDef::Synthetic {
                continue;
            }
            let sec = s
                .name
                .strip_prefix(b"__start_")
                .or_else(|| s.name.strip_prefix(b"__stop_"));
            if let Some(nodes) = sec.and_then(|n| by_name.get(n)) {
                let n = graph
                    .add_node_with_edges(
                        NODE_START_STOP,
                        id as u64,
                        nodes.iter().map(|&n| Target::Node(n)),
                    )
                    .map_err(gerr)?;
                start_stop.insert(id as SymbolId, n);
            }
        }
    }

    let defs: Vec<Definition> = res
        .symtab
        .symbols
        .iter()
        .enumerate()
        .map(|(id, s)| match s.def {
            SymbolDef::Defined { file, index } => {
                let f = &res.files[file as usize];
                let shndx = f.symbols[index as usize].st_shndx(LE);
                if shndx == elf::SHN_UNDEF || shndx >= elf::SHN_LORESERVE {
                    Definition::External
                } else {
                    Definition::Node(NodeId(node_base[file as usize] + u32::from(shndx)))
                }
            }
            SymbolDef::Synthetic => match start_stop.get(&(id as SymbolId)) {
                Some(&n) => Definition::Node(n),
                None => Definition::External,
            },
            SymbolDef::Common { .. } | SymbolDef::Absolute(_) | SymbolDef::Shared { .. } => {
                Definition::External
            }
            // LTO has replaced every bitcode definition by the time sections are collected.
            SymbolDef::Undefined | SymbolDef::Lazy { .. } | SymbolDef::Bitcode { .. } => {
                Definition::Undefined { weak: s.weak }
            }
        })
        .collect();
    let mut loader = gc::Definitions(&defs);
    let liveness = graph
        .walk(&mut loader)
        .map_err(|e| err!("internal error in the liveness walk: {e:?}"))?;
    Ok(MarkResult {
        graph,
        liveness,
        node_base,
    })
}

/// The section defining the function an FDE describes (its pc_begin relocation's target).
fn function_section(res: &Resolved, file: FileId, sym: usize) -> Option<(FileId, usize)> {
    let (df, di) = match res.global_of(file, sym) {
        Some(g) => match res.symtab.get(g).def {
            SymbolDef::Defined { file, index } => (file, index as usize),
            _ => return None,
        },
        None => (file, sym),
    };
    let s = res.files[df as usize].symbols.get(di)?;
    let shndx = s.st_shndx(LE);
    if shndx == elf::SHN_UNDEF || shndx >= elf::SHN_LORESERVE {
        return None;
    }
    Some((df, shndx as usize))
}

/// Marks dead sections as garbage so that no later phase sees them. Returns the removed
/// sections in lld's order (input order) for `--print-gc-sections`.
pub fn sweep(res: &mut Resolved, mark: &MarkResult) -> Vec<(FileId, usize)> {
    let mut removed = Vec::new();
    for (fi, f) in res.files.iter_mut().enumerate() {
        for si in 0..f.sections.len() {
            let s = &f.sections[si];
            if !matches!(s.kind, SectionKind::Regular | SectionKind::Merge) || !s.is_alloc() {
                continue;
            }
            if !mark
                .liveness
                .is_live(NodeId(mark.node_base[fi] + si as u32))
            {
                f.sections[si].kind = SectionKind::Garbage;
                removed.push((fi as FileId, si));
            }
        }
    }
    removed
}
