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
use crate::err;
use crate::error::Result;
use crate::input::eh_frame;
use crate::input::input_files::{FileId, InputSection, ObjectFile, SectionKind};
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use gc::{Definition, Graph, NodeId, RootReason, SymId, Target};
use hashbrown::HashMap;
use object::elf;
use object::read::elf::{Rela, SectionHeader};
use object::LittleEndian as LE;
use rayon::prelude::*;

/// Below this many relocations in allocated sections, the graph is built on the calling thread:
/// waking the thread pool and splitting the work costs more than it saves (measured on 2 cores:
/// a Lua link, 7k relocations, and weld linking itself, 54k, are faster on one thread; a
/// ripgrep link, 117k, is faster on two).
const PARALLEL_MIN_RELOCS: usize = 100_000;

/// Node kinds in the graph.
pub const NODE_SECTION: u8 = 0;
/// "All sections named X", the target of `__start_X`/`__stop_X` under `-z nostart-stop-gc`.
pub const NODE_START_STOP: u8 = 1;
/// A node of a bitcode module's summary graph: one of its symbols, or an internal value (a
/// static function, `llvm.global_ctors`). Payload: bitcode file << 32 | summary node.
pub const NODE_BITCODE: u8 = 2;
/// The `COMMON` section of a prevailing common symbol (lld gives each its own section, which
/// the walk can collect). Payload: the symbol id.
pub const NODE_COMMON: u8 = 3;
/// What a bitcode module's inline asm names: every node of the module references it, and it
/// references every symbol an identifier in the asm text names. Payload: the bitcode file.
pub const NODE_ASM: u8 = 4;

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
    /// `llvm.used`, `llvm.compiler.used`, `llvm.global_ctors` in a bitcode module.
    pub const LLVM_USED: RootReason = RootReason(9);
    /// Defined or referenced by module-level inline asm (opaque to the summary).
    pub const INLINE_ASM: RootReason = RootReason(10);
    /// The target of a `--defsym` alias (lld's symbols referenced by the linker script).
    pub const DEFSYM: RootReason = RootReason(11);
    /// A function code generation may call on its own, while bitcode takes part (see
    /// [`crate::resolve::libcalls`]): the graph before LTO cannot see those calls.
    pub const CODEGEN_CALLEE: RootReason = RootReason(12);
    /// Taken by a `KEEP(...)` input section description of a linker script.
    pub const SCRIPT_KEEP: RootReason = RootReason(13);
}

/// The graph, its walk, and the mapping between nodes and sections.
pub struct MarkResult {
    pub graph: Graph,
    pub liveness: gc::Liveness,
    /// First node id of each file's sections (node = base + section index).
    pub node_base: Vec<u32>,
    /// Whether each file is part of the link (always, except archive members the walk never
    /// reached under `--gc-archive-members`).
    pub active: Vec<bool>,
    /// `--gc-archive-members`: each member (object or bitcode) the walk loaded, in walk order.
    pub activations: Vec<Activation>,
    /// First node of each bitcode file's summary graph (`u32::MAX` when it has none).
    pub bitcode_base: Vec<u32>,
    /// Whether each bitcode file takes part (always, except archive members the walk never
    /// reached under `--gc-archive-members`).
    pub bitcode_active: Vec<bool>,
    /// Names of bitcode internal nodes (static functions and variables), by node; kept only
    /// when `--why-live` may print them, since their GUIDs cannot be turned back into names.
    pub bitcode_internal_names: HashMap<NodeId, String>,
    /// The node of each prevailing common symbol's `COMMON` section.
    pub common_node: HashMap<SymbolId, NodeId>,
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

/// An archive member the walk loaded under `--gc-archive-members`: the `--why-extract` line.
#[derive(Clone, Debug)]
pub struct Activation {
    /// `lib.a(member.o)`.
    pub member: String,
    /// The symbol through which the walk reached it.
    pub symbol: SymbolId,
    /// The file (object or bitcode) whose live code referred to it; `None` for a root.
    pub referrer: Option<String>,
}

/// The file a walk cause belongs to: the object of a section node, the module of a bitcode node.
fn cause_file(res: &Resolved, g: &Graph, cause: gc::Cause) -> Option<String> {
    let gc::Cause::Node(from) = cause else {
        return None;
    };
    let p = g.payload(from)?;
    match g.kind(from)? {
        NODE_SECTION => res.files.get((p >> 32) as usize).map(|f| f.name.clone()),
        NODE_BITCODE => res.bitcode.get((p >> 32) as usize).map(|b| b.name.clone()),
        _ => None,
    }
}

fn is_c_identifier(s: &[u8]) -> bool {
    !s.is_empty()
        && !s[0].is_ascii_digit()
        && s.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
}

/// What the symbols of one object file point at in the graph, for its relocations: a section
/// node for local and section symbols, the global symbol otherwise. This runs once per
/// relocation of the link, so the file's tables are looked up once, not per relocation.
struct RelocTargets<'a> {
    /// The file's first node.
    base: u32,
    first_global: usize,
    /// Global symbol ids of the file's global symbols (`Resolved::file_syms`).
    globals: &'a [SymbolId],
    symbols: &'a [crate::input::input_files::Sym64],
    file: &'a ObjectFile,
}

impl<'a> RelocTargets<'a> {
    fn new(res: &'a Resolved, fid: FileId, base: u32) -> Self {
        let f = &res.files[fid as usize];
        RelocTargets {
            base,
            first_global: f.first_global,
            globals: res
                .file_syms
                .get(fid as usize)
                .map_or(&[], |g| g.as_slice()),
            symbols: f.symbols,
            file: f,
        }
    }

    fn of(&self, sym: usize) -> Option<Target> {
        if sym == 0 {
            return None;
        }
        if let Some(&g) = sym
            .checked_sub(self.first_global)
            .and_then(|i| self.globals.get(i))
        {
            return Some(Target::Symbol(SymId(g)));
        }
        self.symbols.get(sym)?;
        let shndx = self.file.sym_section(sym)?;
        Some(Target::Node(NodeId(self.base + shndx as u32)))
    }
}

fn gerr(e: gc::GraphError) -> crate::error::Error {
    err!("internal error in the reference graph: {e}")
}

/// The graph contribution of one object file, computed without touching the graph so that
/// files can be done in parallel: the edges of its sections (node ids final: `base` is the
/// file's first node) and the file's roots.
#[derive(Default)]
struct FileEdges {
    block: gc::EdgeBlock,
    roots: Vec<(Target, RootReason)>,
}

/// `sections` are those of file `fid`, with their relocations (the file's own, or read since
/// by the walk: `ObjectFile::sections_with_relocations`).
fn file_edges(
    config: &Config,
    res: &Resolved,
    fid: FileId,
    sections: &[InputSection],
    base: u32,
) -> Result<FileEdges> {
    let f = &res.files[fid as usize];
    let mut out = FileEdges::default();
    let roots = &mut out.roots;
    let targets = RelocTargets::new(res, fid, base);
    let gc_on = config.gc_sections;
    // A linker script's KEEP descriptions: the sections they take are roots.
    let keeps = crate::script::matching::keep_descriptions(&config.script_layout);
    let script_name = (gc_on && !keeps.is_empty()).then(|| {
        let n = f.script_name();
        (n, n.for_script())
    });
    let kept = |s: &InputSection| {
        script_name.as_ref().is_some_and(|(n, full)| {
            keeps
                .iter()
                .any(|d| d.pattern_for(n, full, s.name_str(), s.flags()).is_some())
        })
    };

    // .eh_frame is not a node: as lld's scanEhFrameSection does, CIE personalities and FDE
    // references to non-code sections outside groups (LSDAs) are roots; an FDE is kept later
    // iff its function is.
    for s in sections.iter().filter(|s| s.kind == SectionKind::EhFrame) {
        let records = eh_frame::split_eh_frame(s.data).map_err(|e| {
            e.into_error(&format!("{}:(.eh_frame)", f.name), |off| {
                format!("{}:(.eh_frame+0x{off:x})", f.name)
            })
        })?;
        // Each relocation with the record it lies in, in section order. Sorted relocations
        // (the norm) are matched to records in one merge; others record by record.
        let mut per_record = |rec: &eh_frame::EhRecord, r: &crate::input::input_files::Rela64| {
            let is_cie = rec.kind == eh_frame::EhRecordKind::Cie;
            // An FDE's initial location (offset 8) names its function: not a root.
            if !is_cie && r.r_offset(LE) == u64::from(rec.offset) + 8 {
                return;
            }
            match targets.of(r.r_sym(LE, false) as usize) {
                Some(Target::Symbol(sym)) if is_cie => {
                    roots.push((Target::Symbol(sym), reason::EH_FRAME))
                }
                Some(Target::Node(n)) => {
                    let target = &sections[(n.0 - base) as usize];
                    let follows_function =
                        target.flags() & u64::from(elf::SHF_EXECINSTR | elf::SHF_GROUP) != 0;
                    if is_cie || !follows_function {
                        roots.push((Target::Node(n), reason::EH_FRAME));
                    }
                }
                _ => {}
            }
        };
        if s.relocs_sorted {
            let mut next = records.iter().peekable();
            for r in s.relocs {
                let off = r.r_offset(LE);
                while next.next_if(|rec| rec.end() <= off).is_some() {}
                match next.peek() {
                    Some(rec) if u64::from(rec.offset) <= off => per_record(rec, r),
                    _ => {}
                }
            }
        } else {
            for rec in &records {
                let start = u64::from(rec.offset);
                for r in s.relocs_in(start, start + u64::from(rec.size)).iter() {
                    per_record(rec, r);
                }
            }
        }
    }

    // Edges besides relocations, as (from section, to section) sorted by the first, so that
    // the loop over sections below picks them up with a cursor.
    // An SHF_LINK_ORDER section hangs off the section its sh_link names.
    let mut link_order: Vec<(usize, usize)> = sections
        .iter()
        .enumerate()
        .filter(|(_, s)| s.flags() & u64::from(elf::SHF_LINK_ORDER) != 0)
        .map(|(si, s)| (s.shdr.sh_link(LE) as usize, si))
        .collect();
    link_order.sort_by_key(|&(target, _)| target);
    // Members of a (kept) group live and die together: a cycle of edges.
    let mut group_next: Vec<(usize, usize)> = Vec::new();
    let mut members: Vec<usize> = Vec::new();
    let groups = f
        .comdats
        .iter()
        .map(|g| g.members)
        .chain(f.plain_groups.iter().copied());
    for g in groups {
        members.clear();
        members.extend(
            g.iter()
                .map(|m| m as usize)
                .filter(|&m| sections[m].kind.is_copied()),
        );
        if members.len() > 1 {
            for (w, &m) in members.iter().enumerate() {
                group_next.push((m, members[(w + 1) % members.len()]));
            }
        }
    }
    group_next.sort_by_key(|&(from, _)| from);
    let (mut link_order_at, mut group_at) = (0, 0);
    for (si, s) in sections.iter().enumerate() {
        // Non-allocated sections are kept but keep nothing alive (debug info would keep all).
        if !s.kind.is_copied() || !s.is_alloc() {
            continue;
        }
        let node = NodeId(base + si as u32);
        let relocs = s
            .relocs
            .iter()
            .filter_map(|r| targets.of(r.r_sym(LE, false) as usize));
        let extra = run_of(&link_order, &mut link_order_at, si)
            .iter()
            .chain(run_of(&group_next, &mut group_at, si))
            .map(|&(_, to)| Target::Node(NodeId(base + to as u32)));
        out.block
            .set_edges(si as u32, relocs.chain(extra))
            .map_err(gerr)?;

        let flags = s.flags();
        let why = if !gc_on {
            Some(reason::NO_GC)
        } else if flags & u64::from(elf::SHF_GNU_RETAIN) != 0 {
            Some(reason::RETAINED)
        } else if kept(s) {
            Some(reason::SCRIPT_KEEP)
        } else if s.reserved && flags & u64::from(elf::SHF_LINK_ORDER) == 0 {
            Some(reason::RESERVED)
        } else if (!config.z.start_stop_gc || s.name.starts_with(b"__libc_"))
            && is_c_identifier(s.name)
        {
            // -z nostart-stop-gc: C-identifier sections are kept as GNU ld keeps them. lld
            // keeps `__libc_*` ones whatever -z says: glibc's libc.a before 2.34 reaches
            // `__libc_atexit` and friends only through __start_/__stop_ (PR27492).
            Some(reason::RESERVED)
        } else {
            None
        };
        if let Some(why) = why {
            out.roots.push((Target::Node(node), why));
        }
    }
    Ok(out)
}

/// The entries of `list` (sorted by key) whose key is `key`. Keys must be asked in increasing
/// order: `cursor` moves past smaller keys and never back.
fn run_of<'a>(list: &'a [(usize, usize)], cursor: &mut usize, key: usize) -> &'a [(usize, usize)] {
    while list.get(*cursor).is_some_and(|e| e.0 < key) {
        *cursor += 1;
    }
    let start = *cursor;
    while list.get(*cursor).is_some_and(|e| e.0 == key) {
        *cursor += 1;
    }
    &list[start..*cursor]
}

/// Adds one file's section nodes and their edges (from [`file_edges`]) to the graph.
fn add_file(
    graph: &mut Graph,
    node_base: &mut Vec<u32>,
    fid: FileId,
    num_sections: usize,
    edges: &FileEdges,
) -> Result<()> {
    let payloads: Vec<u64> = (0..num_sections as u64)
        .map(|si| (u64::from(fid) << 32) | si)
        .collect();
    let base = graph
        .add_block(NODE_SECTION, &payloads, &edges.block)
        .map_err(gerr)?;
    node_base.push(base.0);
    Ok(())
}

/// The prevailing common symbols, in id order: each gets a `COMMON` node.
fn prevailing_commons(res: &Resolved) -> Vec<SymbolId> {
    let mut commons: Vec<SymbolId> = res
        .common_candidates
        .iter()
        .copied()
        .filter(|&id| matches!(res.symtab.get(id).def, SymbolDef::Common { .. }))
        .collect();
    commons.sort_unstable();
    commons.dedup();
    commons
}

/// Roots that are symbols: the entry point, `-u`, `--require-defined`, exports, DT_INIT/DT_FINI,
/// `--defsym` targets and, in the walk before LTO, the definitions of functions code
/// generation may call (`codegen_callees`).
fn add_symbol_roots(
    config: &Config,
    res: &Resolved,
    exported: &[SymbolId],
    codegen_callees: &hashbrown::HashSet<Vec<u8>>,
    graph: &mut Graph,
) -> Result<()> {
    let entry = match (&config.entry, config.output_kind) {
        (Some(e), _) => Some(e.clone()),
        // lld's default entry, `_start`, holds for shared objects too (it only does not
        // warn when a shared object lacks one).
        (None, OutputKind::Executable | OutputKind::SharedObject) => Some("_start".to_string()),
        (None, OutputKind::Relocatable) => None,
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
    for &id in exported {
        graph
            .add_root_symbol(SymId(id), reason::EXPORTED)
            .map_err(gerr)?;
    }
    for n in [&config.init, &config.fini] {
        if let Some(id) = res.symtab.lookup(n.as_bytes()) {
            graph
                .add_root_symbol(SymId(id), reason::RESERVED)
                .map_err(gerr)?;
        }
    }
    for target in config.defsyms.iter().flat_map(|d| d.referenced_symbols()) {
        if let Some(id) = res.symtab.lookup(target.as_bytes()) {
            graph
                .add_root_symbol(SymId(id), reason::DEFSYM)
                .map_err(gerr)?;
        }
    }
    // Sorted, so that the graph (and --why-live) does not depend on hash order.
    let mut callees: Vec<SymbolId> = codegen_callees
        .iter()
        .filter_map(|n| res.symtab.lookup(n))
        .filter(|&id| {
            let s = res.symtab.get(id);
            s.is_defined() && !matches!(s.def, SymbolDef::Lazy { .. })
        })
        .collect();
    callees.sort_unstable();
    for id in callees {
        graph
            .add_root_symbol(SymId(id), reason::CODEGEN_CALLEE)
            .map_err(gerr)?;
    }
    Ok(())
}

/// Under `-z nostart-stop-gc`, `__start_X`/`__stop_X` resolve to a node that keeps every
/// section named X (with `-z start-stop-gc`, lld's default, they keep nothing).
fn add_start_stop_nodes(
    config: &Config,
    res: &Resolved,
    graph: &mut Graph,
    node_base: &[u32],
) -> Result<HashMap<SymbolId, NodeId>> {
    let mut start_stop = HashMap::new();
    if config.z.start_stop_gc {
        return Ok(start_stop);
    }
    let mut by_name: HashMap<&[u8], Vec<NodeId>> = HashMap::new();
    for (fi, f) in res.files.iter().enumerate() {
        for (si, s) in f.sections.iter().enumerate() {
            if s.kind.is_copied() && is_c_identifier(s.name) {
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
        let sec = crate::input::section_rules::start_stop_section(s.name);
        if let Some(nodes) = sec.and_then(|(n, _)| by_name.get(n)) {
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
    Ok(start_stop)
}

/// Where the graph's nodes for symbol definitions are: sections by file, bitcode summary
/// nodes by bitcode file, `__start_X`/`__stop_X` and `COMMON` nodes by symbol.
struct DefinitionNodes<'a> {
    node_base: &'a [u32],
    bitcode_base: &'a [u32],
    start_stop: &'a HashMap<SymbolId, NodeId>,
    common_node: &'a HashMap<SymbolId, NodeId>,
}

/// What defines a symbol, in graph terms, given the symbol table as it is now.
fn definition_of(res: &Resolved, nodes: &DefinitionNodes, id: SymbolId) -> Definition {
    let Some(s) = res.symtab.symbols.get(id as usize) else {
        return Definition::Undefined { weak: false };
    };
    match s.def {
        SymbolDef::Defined { file, index } => {
            let f = &res.files[file as usize];
            match f.sym_section(index as usize) {
                None => Definition::External,
                Some(shndx) => {
                    Definition::Node(NodeId(nodes.node_base[file as usize] + shndx as u32))
                }
            }
        }
        // A prevailing bitcode definition is its summary node.
        SymbolDef::Bitcode { file, index }
            if nodes
                .bitcode_base
                .get(file as usize)
                .is_some_and(|&b| b != u32::MAX) =>
        {
            Definition::Node(NodeId(nodes.bitcode_base[file as usize] + index))
        }
        SymbolDef::Synthetic => match nodes.start_stop.get(&id) {
            Some(&n) => Definition::Node(n),
            None => Definition::External,
        },
        SymbolDef::Common { .. } => match nodes.common_node.get(&id) {
            Some(&n) => Definition::Node(n),
            None => Definition::External,
        },
        SymbolDef::Absolute(_) | SymbolDef::Shared { .. } => Definition::External,
        // LTO has replaced every bitcode definition by the time sections are collected.
        SymbolDef::Undefined | SymbolDef::Lazy { .. } | SymbolDef::Bitcode { .. } => {
            Definition::Undefined { weak: s.weak }
        }
    }
}

/// A bitcode module's reference graph: its summary, or seed 003's conservative graph (every
/// defined symbol references every symbol of the module) when the summary cannot be read,
/// which is always sound, just less precise.
fn module_refs(file: &lto::BitcodeFile) -> lto::ModuleRefs {
    file.references()
        .unwrap_or_else(|_| file.conservative_references())
}

/// Reads every bitcode module's reference graph ahead of the walk, one module per thread:
/// reading a summary is reading an input (LLVM decodes the summary block, or builds one from
/// the IR for modules compiled without it), independent for each module, while the walk that
/// follows must run in one order.
pub fn read_bitcode_summaries(res: &mut Resolved) {
    // Fault injection for the safety net's own test: with `WELD_FAULT_IGNORE_INLINE_ASM=1` the
    // walk misses every inline-asm edge, which `--verify-precise-graph` must then catch.
    let ignore_asm = std::env::var_os("WELD_FAULT_IGNORE_INLINE_ASM").is_some_and(|v| v == "1");
    res.bitcode.par_iter_mut().for_each(|b| {
        if ignore_asm {
            b.asm_names = Some(Ok(Vec::new()));
        }
        if b.refs.is_none() {
            b.refs = b.file.as_ref().map(module_refs);
        }
        if b.asm_names.is_none() {
            b.asm_names = b.file.as_ref().map(|f| {
                f.inline_asm()
                    .map(|texts| texts.iter().flat_map(|t| asm_identifiers(t)).collect())
            });
        }
    });
}

/// Every token of assembly text that could name a symbol (`call native_helper`,
/// `lea foo@GOTPCREL(%rip)`, `.quad "quoted name"`): an over-approximation, since a mnemonic
/// or register that happens to be a symbol's name only costs precision. Names are leaked
/// like every other symbol name of the link.
pub fn asm_identifiers(text: &str) -> Vec<&'static [u8]> {
    let b = text.as_bytes();
    let start = |c: u8| c.is_ascii_alphabetic() || matches!(c, b'_' | b'.' | b'$');
    let cont = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$');
    let mut names: Vec<&[u8]> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            let end = b[i + 1..]
                .iter()
                .position(|&c| c == b'"')
                .map_or(b.len(), |p| i + 1 + p);
            names.push(&b[i + 1..end]);
            i = end + 1;
        } else if start(b[i]) && (i == 0 || !cont(b[i - 1])) {
            let end = b[i..]
                .iter()
                .position(|&c| !cont(c))
                .map_or(b.len(), |p| i + p);
            names.push(&b[i..end]);
            i = end;
        } else {
            i += 1;
        }
    }
    let mut seen: hashbrown::HashSet<&[u8]> = hashbrown::HashSet::new();
    names
        .into_iter()
        .filter(|n| !n.is_empty() && seen.insert(n))
        .map(|n| -> &'static [u8] { Box::leak(n.to_vec().into_boxed_slice()) })
        .collect()
}

/// Adds every bitcode module's summary graph: one node per summary node, symbol edges resolved
/// through the symbol table when the walk reaches them (so a call from bitcode reaches a native
/// section, and the reverse), internal edges direct. `llvm.used` and friends, and inline-asm
/// symbols, are roots. A module whose summary cannot be read gets seed 003's conservative graph
/// (every defined symbol references every symbol of the module): always sound, just less precise.
fn add_bitcode_nodes(
    config: &Config,
    res: &Resolved,
    graph: &mut Graph,
    roots: &mut [Vec<(Target, RootReason)>],
    mut internal_names: Option<&mut HashMap<NodeId, String>>,
) -> Result<Vec<u32>> {
    let mut bases = Vec::with_capacity(res.bitcode.len());
    let wrap = crate::resolve::wrap::wrap_redirections(config, res);
    for (bf, b) in res.bitcode.iter().enumerate() {
        let Some(file) = b.file.as_ref() else {
            bases.push(u32::MAX);
            continue;
        };
        let read;
        let refs = match &b.refs {
            Some(refs) => refs,
            None => {
                read = module_refs(file);
                &read
            }
        };
        // Inline asm names what the summary cannot show: one node for all of the module's
        // asm, reached from every node of the module (which function holds the asm is not
        // known without loading IR).
        let asm_node = match &b.asm_names {
            Some(Ok(names)) if !names.is_empty() => {
                let mut targets: Vec<SymbolId> =
                    names.iter().filter_map(|n| res.symtab.lookup(n)).collect();
                targets.sort_unstable();
                targets.dedup();
                let node = graph
                    .add_node_with_edges(
                        NODE_ASM,
                        bf as u64,
                        targets.into_iter().map(|t| Target::Symbol(SymId(t))),
                    )
                    .map_err(gerr)?;
                Some(Target::Node(node))
            }
            _ => None,
        };
        let base = graph.node_count() as u32;
        bases.push(base);
        for n in 0..refs.num_nodes() {
            graph
                .add_node(NODE_BITCODE, ((bf as u64) << 32) | n as u64)
                .map_err(gerr)?;
        }
        if let Some(names) = internal_names.as_deref_mut() {
            for n in refs.num_symbols() as u32..refs.num_nodes() as u32 {
                if let Some(name) = refs.internal_name(n) {
                    names.insert(NodeId(base + n), name.to_string());
                }
            }
        }
        for n in 0..refs.num_nodes() as u32 {
            let edges = refs.edges(n).iter().map(|&t| {
                if refs.is_symbol(t) {
                    let sym = b.syms[t as usize];
                    // LTO's output will be redirected by --wrap after LTO; its references
                    // reach what they will reach then.
                    Target::Symbol(SymId(wrap.get(&sym).copied().unwrap_or(sym)))
                } else {
                    Target::Node(NodeId(base + t))
                }
            });
            graph
                .set_edges(NodeId(base + n), edges.chain(asm_node))
                .map_err(gerr)?;
        }
        for &n in refs.live() {
            // A live symbol node only matters if this copy prevails; resolve it by name.
            let t = if refs.is_symbol(n) {
                Target::Symbol(SymId(b.syms[n as usize]))
            } else {
                Target::Node(NodeId(base + n))
            };
            roots[bf].push((t, reason::LLVM_USED));
        }
        for &n in refs.asm_symbols() {
            roots[bf].push((
                Target::Symbol(SymId(b.syms[n as usize])),
                reason::INLINE_ASM,
            ));
        }
    }
    Ok(bases)
}

/// `--gc-archive-members`: bitcode archive members the walk never reached are left out of LTO
/// entirely (never compiled, no initializers); the symbols they define become undefined.
pub fn unload_bitcode_members(res: &mut Resolved, mark: &MarkResult) {
    res.members_loaded_before_lto = res
        .files
        .iter()
        .enumerate()
        .filter(|(fi, f)| f.archive.is_some() && mark.active.get(*fi).copied().unwrap_or(false))
        .map(|(fi, _)| fi as FileId)
        .collect();
    for (bf, b) in res.bitcode.iter_mut().enumerate() {
        if mark.bitcode_active.get(bf).copied().unwrap_or(true) {
            continue;
        }
        b.file = None;
        b.left_out = true;
        for &sid in &b.syms {
            let s = &mut res.symtab.symbols[sid as usize];
            if matches!(s.def, SymbolDef::Bitcode { file, .. } if file == bf as u32) {
                s.def = SymbolDef::Undefined;
            }
        }
    }
    res.extractions = mark.activations.iter().map(extraction).collect();
    res.extractions_from_walk = true;
}

/// Symbols referenced in ways the walk's section edges do not weigh, which must count as lld
/// counts them when deciding what LTO may internalize: the walk's symbol roots (the entry,
/// `-u`, exports, CIE personality routines, `--defsym` targets, functions code generation may
/// call), and the targets of relocations in non-allocated sections of the files taking part
/// (lld keeps those sections whatever is live, so their references are resolved).
pub fn references_outside_graph(res: &Resolved, mark: &MarkResult) -> hashbrown::HashSet<SymbolId> {
    let mut out: hashbrown::HashSet<SymbolId> = mark
        .graph
        .roots()
        .iter()
        .filter_map(|(t, _)| match t {
            Target::Symbol(s) => Some(s.0),
            Target::Node(_) => None,
        })
        .collect();
    for (fi, f) in res.files.iter().enumerate() {
        if !mark.active.get(fi).copied().unwrap_or(true) {
            continue;
        }
        for s in &f.sections {
            if s.is_alloc() || !s.kind.is_copied() {
                continue;
            }
            out.extend(
                s.relocs
                    .iter()
                    .filter_map(|r| res.global_of(fi as FileId, r.r_sym(LE, false) as usize)),
            );
        }
    }
    out
}

/// The prevailing bitcode symbols the walk did not reach, in file and symbol order, for
/// `removing unused bitcode symbol FILE:(SYMBOL)` lines.
pub fn dead_bitcode_symbols(res: &Resolved, mark: &MarkResult) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (bf, b) in res.bitcode.iter().enumerate() {
        let base = mark.bitcode_base.get(bf).copied().unwrap_or(u32::MAX);
        if base == u32::MAX {
            continue;
        }
        for (i, &sid) in b.syms.iter().enumerate() {
            let prevailing = res.symtab.get(sid).def
                == (SymbolDef::Bitcode {
                    file: bf as u32,
                    index: i as u32,
                });
            if prevailing && !mark.liveness.is_live(NodeId(base + i as u32)) {
                out.push((bf as u32, i as u32));
            }
        }
    }
    out
}

fn add_root(graph: &mut Graph, (t, why): (Target, RootReason)) -> Result<()> {
    match t {
        Target::Node(n) => graph.add_root(n, why),
        Target::Symbol(s) => graph.add_root_symbol(s, why),
    }
    .map_err(gerr)
}

/// Builds the graph for all loaded objects and walks it. Archive members are those lld selects.
///
/// With `--gc-archive-members` (`activate_members`), an archive member only becomes part of the
/// link when the walk reaches one of its symbols from a live node or a root (a strong or a weak
/// reference: a weak reference binds to a member lld would load, exactly as in lld). Until then
/// its roots (constructors, retained sections) do not count, so a member reachable only from
/// dead code is never loaded: its initializers never run and the members its own references
/// would pull in are not loaded either. Members that are never reached are then dropped from
/// the link by [`unload_members`].
///
/// Members whose relocations resolution left unread
/// ([`crate::resolve::defers_member_relocations`]) get their nodes without edges; the walk
/// reads a member's relocations when it loads it, and they are stored in `res` when the walk
/// is over. The relocations of members it never loads are never read.
pub fn mark_live(
    config: &Config,
    res: &mut Resolved,
    exported_definitions: &[SymbolId],
    activate_members: bool,
    include_bitcode: bool,
) -> Result<MarkResult> {
    let (mark, read) = walk(
        config,
        res,
        exported_definitions,
        activate_members,
        include_bitcode,
    )?;
    for (fid, sections) in read {
        let f = &mut res.files[fid as usize];
        f.sections = sections;
        f.relocations_read = true;
    }
    Ok(mark)
}

/// The sections, relocations attached, of the members the walk loaded whose relocations it read.
type ReadMembers = Vec<(FileId, Vec<InputSection>)>;

/// The work of [`mark_live`]: the graph and its walk, and the sections (relocations attached)
/// of the members whose relocations the walk read.
fn walk(
    config: &Config,
    res: &Resolved,
    exported_definitions: &[SymbolId],
    activate_members: bool,
    include_bitcode: bool,
) -> Result<(MarkResult, ReadMembers)> {
    let total: usize = res.files.iter().map(|f| f.sections.len()).sum();
    // Relocations that become edges (debug sections' are not read).
    let relocs: usize = res
        .files
        .iter()
        .flat_map(|f| &f.sections)
        .filter(|s| s.kind.is_copied() && s.is_alloc())
        .map(|s| s.relocs.len())
        .sum();
    let parallel = relocs >= PARALLEL_MIN_RELOCS;
    let mut graph = Graph::with_capacity(total + 16, relocs.max(total));
    let mut node_base = Vec::with_capacity(res.files.len());
    let mut pending: Vec<Vec<(Target, RootReason)>> = Vec::with_capacity(res.files.len());
    let mut active: Vec<bool> = Vec::with_capacity(res.files.len());
    // Sections are nodes `base..base + n` of their file, bases in file order, so every file's
    // edges can be computed in parallel (resolving each relocation's symbol is the costly
    // part) and then added in order.
    let mut bases = Vec::with_capacity(res.files.len());
    let mut next = graph.node_count() as u32;
    for f in &res.files {
        bases.push(next);
        next = next
            .checked_add(f.sections.len() as u32)
            .ok_or_else(|| err!("too many input sections for the liveness graph"))?;
    }
    let is_member = |fid: usize| {
        res.files[fid].archive.is_some()
            && !res.members_loaded_before_lto.contains(&(fid as FileId))
    };
    // A file without relocations is a member the walk reads when it loads it (and only one the
    // walk may leave out can be without them).
    let one_file = |fid: usize| {
        let f = &res.files[fid];
        if f.relocations_read {
            file_edges(config, res, fid as FileId, &f.sections, bases[fid])
        } else if activate_members && is_member(fid) {
            Ok(FileEdges::default())
        } else {
            Err(err!(
                "internal error: the relocations of {} were not read before the liveness walk",
                f.name
            ))
        }
    };
    let per_file: Vec<FileEdges> = if parallel {
        (0..res.files.len())
            .into_par_iter()
            .map(one_file)
            .collect::<Result<_>>()?
    } else {
        (0..res.files.len()).map(one_file).collect::<Result<_>>()?
    };
    for (fid, edges) in per_file.into_iter().enumerate() {
        add_file(
            &mut graph,
            &mut node_base,
            fid as FileId,
            res.files[fid].sections.len(),
            &edges,
        )?;
        if node_base.last() != Some(&bases[fid]) {
            return Err(err!("internal error: liveness graph nodes out of order"));
        }
        let roots = edges.roots;
        if activate_members && is_member(fid) {
            pending.push(roots);
            active.push(false);
        } else {
            for r in roots {
                add_root(&mut graph, r)?;
            }
            pending.push(Vec::new());
            active.push(true);
        }
    }
    let mut pending_bc: Vec<Vec<(Target, RootReason)>> = vec![Vec::new(); res.bitcode.len()];
    let mut bitcode_active: Vec<bool> = res
        .bitcode
        .iter()
        .map(|b| !(activate_members && b.member))
        .collect();
    let mut bitcode_internal_names = HashMap::new();
    let bitcode_base = if include_bitcode {
        let names = (!config.why_live.is_empty()).then_some(&mut bitcode_internal_names);
        add_bitcode_nodes(config, res, &mut graph, &mut pending_bc, names)?
    } else {
        vec![u32::MAX; res.bitcode.len()]
    };
    for (bf, roots) in pending_bc.iter_mut().enumerate() {
        if bitcode_active[bf] {
            for r in std::mem::take(roots) {
                add_root(&mut graph, r)?;
            }
        }
    }

    let codegen_callees = if include_bitcode {
        crate::resolve::libcalls::codegen_callees(res.bitcode_triple().as_deref())
    } else {
        hashbrown::HashSet::new()
    };
    add_symbol_roots(
        config,
        res,
        exported_definitions,
        &codegen_callees,
        &mut graph,
    )?;
    let start_stop = add_start_stop_nodes(config, res, &mut graph, &node_base)?;
    let common_node = add_common_nodes(&prevailing_commons(res), &mut graph)?;
    let nodes = DefinitionNodes {
        node_base: &node_base,
        bitcode_base: &bitcode_base,
        start_stop: &start_stop,
        common_node: &common_node,
    };
    // Working out a symbol's answer costs a few cache misses (symbol, ELF symbol, file). When
    // the walk may reach most symbols (there are more edges than symbols, as in C and C++
    // links), all answers are computed up front in parallel, where those misses overlap; when
    // most symbols cannot be reached (Rust links, whose symbol tables are large next to their
    // relocations), each answer is computed on the walk's first reach, as lld resolves a
    // relocation's symbol when it scans the section. Both give the same answers.
    let precomputed: Option<Vec<Definition>> = (parallel && graph.edge_count() >= res.symtab.len())
        .then(|| {
            (0..res.symtab.len() as SymbolId)
                .into_par_iter()
                .map(|id| definition_of(res, &nodes, id))
                .collect()
        });
    let answer = |sym: SymId| match &precomputed {
        Some(defs) => defs
            .get(sym.index())
            .copied()
            .unwrap_or(Definition::Undefined { weak: false }),
        None => definition_of(res, &nodes, sym.0),
    };
    let mut activations = Vec::new();
    let mut read: ReadMembers = Vec::new();
    let liveness = if activate_members {
        let mut loader = |sym: SymId, cause: gc::Cause, g: &mut Graph| -> Result<Definition> {
            let d = answer(sym);
            if let Definition::Node(n) = d {
                // A bitcode archive member joins the link (and LTO) when first reached.
                if let Some(p) = g.payload(n).filter(|_| g.kind(n) == Some(NODE_BITCODE)) {
                    let bf = (p >> 32) as usize;
                    if !bitcode_active[bf] {
                        bitcode_active[bf] = true;
                        for r in std::mem::take(&mut pending_bc[bf]) {
                            add_root(g, r)?;
                        }
                        let referrer = cause_file(res, g, cause);
                        activations.push(Activation {
                            member: res.bitcode[bf].name.clone(),
                            symbol: sym.0,
                            referrer,
                        });
                    }
                }
                let member_file = match g.kind(n) {
                    Some(NODE_SECTION) => g.payload(n).map(|p| (p >> 32) as usize),
                    // A common symbol's section belongs to the file of its definition.
                    Some(NODE_COMMON) => match res.symtab.get(sym.0).def {
                        SymbolDef::Common { file, .. } => Some(file as usize),
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(file) = member_file {
                    if !active[file] {
                        // First reach from live code: the member joins the link now.
                        active[file] = true;
                        for r in std::mem::take(&mut pending[file]) {
                            add_root(g, r)?;
                        }
                        if !res.files[file].relocations_read {
                            let sections = res.files[file].sections_with_relocations()?;
                            let base = nodes.node_base[file];
                            let edges = file_edges(config, res, file as FileId, &sections, base)?;
                            g.set_block_edges(NodeId(base), &edges.block)
                                .map_err(gerr)?;
                            for r in edges.roots {
                                add_root(g, r)?;
                            }
                            read.push((file as FileId, sections));
                        }
                        let referrer = cause_file(res, g, cause);
                        activations.push(Activation {
                            member: res.files[file].name.clone(),
                            symbol: sym.0,
                            referrer,
                        });
                    }
                }
            }
            Ok(d)
        };
        graph.walk(&mut loader).map_err(|e| match e {
            gc::WalkError::Loader(e) => e,
            other => err!("internal error in the liveness walk: {other:?}"),
        })?
    } else {
        let mut lookup = |sym: SymId, _: gc::Cause, _: &mut Graph| {
            Ok::<_, std::convert::Infallible>(answer(sym))
        };
        graph
            .walk(&mut lookup)
            .map_err(|e| err!("internal error in the liveness walk: {e:?}"))?
    };
    let mark = MarkResult {
        graph,
        liveness,
        node_base,
        active,
        activations,
        bitcode_base,
        bitcode_active,
        bitcode_internal_names,
        common_node,
    };
    Ok((mark, read))
}

/// One node per prevailing common symbol, standing for the `COMMON` section lld makes for it: it
/// references nothing, and is live iff something live refers to the symbol (or it is a root).
fn add_common_nodes(commons: &[SymbolId], graph: &mut Graph) -> Result<HashMap<SymbolId, NodeId>> {
    let mut nodes = HashMap::new();
    for &id in commons {
        let n = graph.add_node(NODE_COMMON, u64::from(id)).map_err(gerr)?;
        nodes.insert(id, n);
    }
    Ok(nodes)
}

/// Something `--gc-sections` removed, for `--print-gc-sections`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removed {
    /// Section `usize` of an object.
    Section(FileId, usize),
    /// The `COMMON` section of a common symbol.
    Common(SymbolId),
}

/// `--gc-archive-members`: removes the archive members the walk never reached. Their sections
/// leave the link (not reported as collected: they were never loaded), the symbols they define
/// become undefined again, and `--why-extract` reports why each loaded member was loaded.
pub fn unload_members(res: &mut Resolved, mark: &MarkResult) {
    for (fi, f) in res.files.iter_mut().enumerate() {
        if mark.active[fi] {
            continue;
        }
        for s in f.sections.iter_mut() {
            if s.kind != SectionKind::Ignored {
                s.kind = SectionKind::Unloaded;
            }
        }
    }
    for s in res.symtab.symbols.iter_mut() {
        match s.def {
            SymbolDef::Defined { file, .. } | SymbolDef::Common { file, .. }
                if !mark.active[file as usize] =>
            {
                s.def = SymbolDef::Undefined;
            }
            _ => {}
        }
    }
    // A walk before LTO (bitcode present) already recorded why each member joined, across
    // the LTO boundary; this walk adds only members LTO's output needed (libcalls).
    let seen: hashbrown::HashSet<String> = if res.extractions_from_walk {
        res.extractions
            .iter()
            .map(|e| e.extracted.clone())
            .collect()
    } else {
        res.extractions.clear();
        hashbrown::HashSet::new()
    };
    let new: Vec<_> = mark
        .activations
        .iter()
        .filter(|a| !seen.contains(&a.member))
        .map(extraction)
        .collect();
    res.extractions.extend(new);
}

fn extraction(a: &Activation) -> crate::resolve::Extraction {
    crate::resolve::Extraction {
        reference: a
            .referrer
            .clone()
            .unwrap_or_else(|| "<internal>".to_string()),
        extracted: a.member.clone(),
        symbol: a.symbol,
    }
}

/// Marks dead sections as garbage so that no later phase sees them. Returns the removed
/// sections in lld's order for `--print-gc-sections`: the `COMMON` sections first (lld creates
/// them before any object's sections, see `Resolved::commons_in_order`), then sections in input
/// order.
pub fn sweep(res: &mut Resolved, mark: &MarkResult) -> Vec<Removed> {
    let dead_commons: Vec<SymbolId> = res
        .commons_in_order()
        .into_iter()
        .filter(|id| {
            mark.common_node
                .get(id)
                .is_some_and(|&n| !mark.liveness.is_live(n))
        })
        .collect();
    let mut removed: Vec<Removed> = dead_commons.iter().map(|&id| Removed::Common(id)).collect();
    res.collected_commons.extend(dead_commons);
    // File by file in parallel; the report keeps file order.
    let per_file: Vec<Vec<Removed>> = res
        .files
        .par_iter_mut()
        .enumerate()
        .map(|(fi, f)| {
            let mut removed = Vec::new();
            for (si, s) in f.sections.iter_mut().enumerate() {
                if !s.kind.is_copied() || !s.is_alloc() {
                    continue;
                }
                if !mark
                    .liveness
                    .is_live(NodeId(mark.node_base[fi] + si as u32))
                {
                    s.kind = SectionKind::Garbage;
                    removed.push(Removed::Section(fi as FileId, si));
                }
            }
            removed
        })
        .collect();
    removed.extend(per_file.into_iter().flatten());
    forget_dead_references(res, mark);
    removed
}

/// With sections collected, lld counts a symbol without a definition in the output (undefined,
/// shared or lazy) as used only when a live section or a root refers to it: one that only dead
/// code names is left out of `.symtab` and `.dynsym`, and a shared library that only dead code
/// needs is not needed for `--as-needed`.
fn forget_dead_references(res: &mut Resolved, mark: &MarkResult) {
    res.shared_used.iter_mut().for_each(|u| *u = false);
    for (id, s) in res.symtab.symbols.iter_mut().enumerate() {
        if !matches!(
            s.def,
            SymbolDef::Undefined | SymbolDef::Shared { .. } | SymbolDef::Lazy { .. }
        ) {
            continue;
        }
        let live = mark.liveness.symbol_definition(SymId(id as u32)).is_some();
        if !live {
            s.referenced = false;
        } else if let SymbolDef::Shared { file, .. } = s.def {
            if s.referenced && !s.weak {
                if let Some(u) = res.shared_used.get_mut(file as usize) {
                    *u = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::asm_identifiers;

    #[test]
    fn asm_identifiers_names_what_asm_may_refer_to() {
        let got = asm_identifiers(
            "call native_helper\n\tlea foo@GOTPCREL(%rip), %rax\n.quad \"odd name\", $x1",
        );
        let got: Vec<&str> = got
            .iter()
            .map(|n| std::str::from_utf8(n).unwrap())
            .collect();
        assert_eq!(
            got,
            [
                "call",
                "native_helper",
                "lea",
                "foo",
                "GOTPCREL",
                "rip",
                "rax",
                ".quad",
                "odd name",
                "$x1"
            ]
        );
        assert!(asm_identifiers("").is_empty());
        // An unterminated quote takes the rest of the text; repeated names once.
        let got = asm_identifiers("a a \"b");
        assert_eq!(got, [&b"a"[..], b"b"]);
    }
}
