//! The reference graph of one bitcode file, from its module summary.
//!
//! A bitcode symbol's outgoing edges for the linker's liveness walk are the
//! summary's reference and call edges (and alias -> aliasee). The summary
//! names values by GUID: a global's GUID hashes its IR name, a local's hashes
//! `"<source_filename>;<name>"`. Locals (static functions and variables) and
//! `llvm.*` globals are not in the irsymtab, so reaching a symbol may go
//! through them: if `main` calls a static `helper` that reads global `bar`,
//! then `main` references `bar`.
//!
//! [`ModuleRefs`] keeps those values as *internal nodes* instead of expanding
//! every symbol's transitive closure, because the closure can be quadratic (a
//! few thousand mutually recursive statics reached from a few thousand
//! globals). A walker that marks nodes visited covers the graph in linear
//! time with [`ModuleRefs::edges`]; [`ModuleRefs::refs`] gives the expanded
//! symbol list for one symbol when that is more convenient.
//!
//! Where the edges come from ([`RefSource`]):
//!
//! * the summary embedded in the bitcode, read without loading any IR. clang-22
//!   writes one for `-flto=thin` *and* for full `-flto`;
//! * for a module without one (old producers, `llvm-as`, plain
//!   `-emit-llvm`), a summary computed from the parsed IR with
//!   `buildModuleSummaryIndex`, exactly as the compiler would have written it
//!   (much slower, but rare);
//! * [`BitcodeFile::conservative_references`] implements seed 003's rule
//!   (every defined symbol references every symbol of the file) for callers
//!   that would rather not parse IR.

use crate::ffi;
use crate::input::BitcodeFile;
use crate::records::SummaryGraph;

/// Where a [`ModuleRefs`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefSource {
    /// The module summary the compiler embedded in the bitcode.
    EmbeddedSummary,
    /// At least one module had no summary; one was computed from its IR.
    ComputedSummary,
    /// Seed 003's conservative rule: every defined symbol references every
    /// symbol of the file.
    Conservative,
}

/// The reference graph of one bitcode file.
///
/// Nodes `0..num_symbols()` are the file's symbols (indices into
/// [`BitcodeFile::symbols`]); nodes from `num_symbols()` up to `num_nodes()`
/// are internal: summary values without a symbol (statics, `llvm.global_ctors`
/// and friends), plus at most one synthetic node standing for "every symbol
/// of the file" where nothing better is known.
#[derive(Clone, Debug)]
pub struct ModuleRefs {
    num_symbols: u32,
    /// CSR: the edges of node `i` are `targets[offsets[i]..offsets[i+1]]`.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// GUID of each internal node (0 for the synthetic all-symbols node).
    internal_guids: Vec<u64>,
    /// IR name of each internal node (empty when unknown).
    internal_names: Vec<String>,
    live: Vec<u32>,
    asm_symbols: Vec<u32>,
    source: RefSource,
}

impl ModuleRefs {
    /// Number of symbols (the file's symbol count); they are nodes
    /// `0..num_symbols()`.
    pub fn num_symbols(&self) -> usize {
        self.num_symbols as usize
    }

    /// Number of nodes, symbols and internal nodes together.
    pub fn num_nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether `node` is a symbol (as opposed to an internal node).
    pub fn is_symbol(&self, node: u32) -> bool {
        node < self.num_symbols
    }

    /// The summary GUID of an internal node; `None` for symbols and the
    /// synthetic all-symbols node. Useful to label internal nodes in
    /// `--why-live` chains when nothing better is known.
    pub fn internal_guid(&self, node: u32) -> Option<u64> {
        let i = node.checked_sub(self.num_symbols)? as usize;
        self.internal_guids.get(i).copied().filter(|&g| g != 0)
    }

    /// The IR name of an internal node (a static function or variable, or
    /// `llvm.global_ctors` and friends), to label it in `--why-live` chains;
    /// `None` for symbols, the synthetic node and nodes without a known name.
    pub fn internal_name(&self, node: u32) -> Option<&str> {
        let i = node.checked_sub(self.num_symbols)? as usize;
        self.internal_names
            .get(i)
            .map(String::as_str)
            .filter(|n| !n.is_empty())
    }

    /// The direct successors of `node` (symbols and internal nodes), sorted.
    /// Undefined symbols have none. Empty for out-of-range nodes.
    pub fn edges(&self, node: u32) -> &[u32] {
        let i = node as usize;
        if i + 1 >= self.offsets.len() {
            return &[];
        }
        &self.targets[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The symbols `symbol` references (refs, calls, aliasee), following
    /// internal nodes transitively, sorted, without `symbol` itself. Costs a
    /// walk of the internal nodes it reaches; for a whole-graph walk use
    /// [`edges`](Self::edges) with a visited set instead.
    pub fn refs(&self, symbol: u32) -> Vec<u32> {
        if !self.is_symbol(symbol) {
            return Vec::new();
        }
        let mut out = self.expand(self.edges(symbol).iter().copied());
        out.retain(|&s| s != symbol);
        out
    }

    /// Nodes the compiler flagged live, which LTO keeps whatever the linker
    /// says: `llvm.used`/`llvm.compiler.used`/`llvm.global_ctors`/
    /// `llvm.global_dtors` (internal nodes whose edges lead to what they keep),
    /// ifunc resolvers, and symbols with the irsymtab `used` flag. Sorted.
    pub fn live(&self) -> &[u32] {
        &self.live
    }

    /// The symbols [`live`](Self::live) nodes are or reach through internal
    /// nodes: e.g. a global called by a static constructor. Sorted.
    pub fn live_symbols(&self) -> Vec<u32> {
        self.expand(self.live.iter().copied())
    }

    /// Symbols without an IR name: defined or referenced by module-level
    /// inline asm. Their code is opaque and always emitted, so the linker
    /// should treat them all as roots. Sorted.
    pub fn asm_symbols(&self) -> &[u32] {
        &self.asm_symbols
    }

    /// [`live_symbols`](Self::live_symbols) and
    /// [`asm_symbols`](Self::asm_symbols) together: the symbols this file
    /// makes GC roots. Sorted, without duplicates.
    pub fn roots(&self) -> Vec<u32> {
        let mut r = self.live_symbols();
        r.extend_from_slice(&self.asm_symbols);
        r.sort_unstable();
        r.dedup();
        r
    }

    /// Where the edges came from.
    pub fn source(&self) -> RefSource {
        self.source
    }

    /// Total number of edges.
    pub fn num_edges(&self) -> usize {
        self.targets.len()
    }

    /// The symbols reachable from `start` nodes through internal nodes only
    /// (symbols in `start` are included as themselves). Sorted.
    fn expand(&self, start: impl Iterator<Item = u32>) -> Vec<u32> {
        let mut seen = vec![false; self.num_nodes() - self.num_symbols()];
        let mut out = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        let mut visit = |n: u32, stack: &mut Vec<u32>, out: &mut Vec<u32>| {
            if self.is_symbol(n) {
                out.push(n);
            } else if let Some(s) = seen.get_mut((n - self.num_symbols) as usize) {
                if !*s {
                    *s = true;
                    stack.push(n);
                }
            }
        };
        for n in start {
            visit(n, &mut stack, &mut out);
        }
        while let Some(n) = stack.pop() {
            for &t in self.edges(n) {
                visit(t, &mut stack, &mut out);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl BitcodeFile {
    /// The reference graph of this file from its module summary (computed
    /// from the IR for modules that have none; see [`RefSource`]).
    ///
    /// Reading an embedded summary does not load the IR: it costs a few
    /// tens of milliseconds for a multi-megabyte module and can run on any
    /// thread, concurrently with other files.
    pub fn references(&self) -> Result<ModuleRefs, String> {
        let graph = ffi::read_summary(&self.raw).map_err(|e| format!("{}: {e}", self.module_id))?;
        Ok(build_refs(self, &graph))
    }

    /// The text of every inline-asm statement and module-level asm block in the file, read
    /// from the bitstream without loading IR (it costs about what reading the summary does).
    ///
    /// The summary has no edge for what inline asm calls or names (`asm("call helper")`), so
    /// a linker walking the summary must look at the text itself to stay sound.
    pub fn inline_asm(&self) -> Result<Vec<String>, String> {
        ffi::read_asm(&self.raw).map_err(|e| format!("{}: {e}", self.module_id))
    }

    /// Seed 003's conservative graph: every defined symbol references every
    /// other symbol of the file (through one synthetic internal node, so the
    /// graph stays linear in size), and `used` and asm symbols are roots.
    /// Sound for any module, but keeps whole files alive.
    pub fn conservative_references(&self) -> ModuleRefs {
        let mut b = Builder::new(self.num_symbols() as u32);
        for s in self.symbols() {
            if s.is_defined() {
                let all = b.all_symbols();
                b.edges[s.index as usize].push(all);
            }
        }
        let live = self
            .symbols()
            .filter(|s| s.flags.is_used())
            .map(|s| s.index)
            .collect();
        b.finish(self, live, RefSource::Conservative)
    }
}

/// Collects edges per node before they are packed into CSR form.
struct Builder {
    num_symbols: u32,
    edges: Vec<Vec<u32>>,
    internal_guids: Vec<u64>,
    internal_names: Vec<String>,
    all_symbols: Option<u32>,
}

impl Builder {
    fn new(num_symbols: u32) -> Builder {
        Builder {
            num_symbols,
            edges: vec![Vec::new(); num_symbols as usize],
            internal_guids: Vec::new(),
            internal_names: Vec::new(),
            all_symbols: None,
        }
    }

    fn add_internal(&mut self, guid: u64, name: String) -> u32 {
        let id = self.num_symbols + self.internal_guids.len() as u32;
        self.internal_guids.push(guid);
        self.internal_names.push(name);
        self.edges.push(Vec::new());
        id
    }

    /// The synthetic node that references every symbol, created on first use.
    fn all_symbols(&mut self) -> u32 {
        if let Some(n) = self.all_symbols {
            return n;
        }
        let n = self.add_internal(0, String::new());
        self.edges[n as usize] = (0..self.num_symbols).collect();
        self.all_symbols = Some(n);
        n
    }

    fn finish(self, file: &BitcodeFile, mut live: Vec<u32>, source: RefSource) -> ModuleRefs {
        let mut offsets = Vec::with_capacity(self.edges.len() + 1);
        let mut targets = Vec::new();
        offsets.push(0u32);
        for (node, mut e) in self.edges.into_iter().enumerate() {
            e.sort_unstable();
            e.dedup();
            // A self-edge (recursion) adds nothing to liveness.
            e.retain(|&t| t as usize != node);
            targets.extend_from_slice(&e);
            offsets.push(targets.len() as u32);
        }
        live.sort_unstable();
        live.dedup();
        ModuleRefs {
            num_symbols: self.num_symbols,
            offsets,
            targets,
            internal_guids: self.internal_guids,
            internal_names: self.internal_names,
            live,
            asm_symbols: file
                .symbols()
                .filter(|s| s.is_asm())
                .map(|s| s.index)
                .collect(),
            source,
        }
    }
}

fn build_refs(file: &BitcodeFile, graph: &SummaryGraph) -> ModuleRefs {
    let n = file.num_symbols() as u32;
    let mut b = Builder::new(n);

    // GUID -> node ids. Symbols first (several symbols may share a GUID only
    // in degenerate cases; all of them get the edges), then internal nodes
    // for summary GUIDs without a symbol.
    let mut guid_nodes: Vec<(u64, u32)> = (0..n)
        .filter_map(|i| file.guid(i as usize).map(|g| (g, i)))
        .collect();
    guid_nodes.sort_unstable();
    let mut internal: Vec<(u64, &str)> = graph
        .nodes
        .iter()
        .map(|node| (node.guid, node.name.as_str()))
        .filter(|(g, _)| guid_nodes.binary_search_by_key(g, |&(x, _)| x).is_err())
        .collect();
    internal.sort_unstable();
    internal.dedup_by_key(|(g, _)| *g);
    for (g, name) in internal {
        let id = b.add_internal(g, name.to_string());
        guid_nodes.push((g, id));
    }
    guid_nodes.sort_unstable();
    let lookup = |guid: u64| -> &[(u64, u32)] {
        let lo = guid_nodes.partition_point(|&(g, _)| g < guid);
        let hi = lo + guid_nodes[lo..].partition_point(|&(g, _)| g == guid);
        &guid_nodes[lo..hi]
    };

    let mut described = vec![false; n as usize];
    let mut live: Vec<u32> = file
        .symbols()
        .filter(|s| s.flags.is_used())
        .map(|s| s.index)
        .collect();
    for node in &graph.nodes {
        let targets = &graph.edges[node.edges.start as usize..node.edges.end as usize];
        for &(_, from) in lookup(node.guid) {
            if from < n {
                // Summaries describe definitions only; an undefined symbol
                // sharing the GUID (impossible within one module) gets nothing.
                if file.symbol(from as usize).is_none_or(|s| !s.is_defined()) {
                    continue;
                }
                described[from as usize] = true;
            }
            if node.live {
                live.push(from);
            }
            for &t in targets {
                // A GUID neither in the symbol table nor summarized (e.g. a
                // declaration LLVM leaves out of the irsymtab) has no edges to
                // contribute and is not a symbol the linker resolves: skip it.
                b.edges[from as usize].extend(lookup(t).iter().map(|&(_, to)| to));
            }
        }
    }
    // A definition the summary does not describe (besides asm symbols, which
    // have no IR): we cannot know what it references, so assume everything.
    for s in file.symbols() {
        if s.is_defined() && !s.is_asm() && !described[s.index as usize] {
            let all = b.all_symbols();
            b.edges[s.index as usize].push(all);
        }
    }
    let source = if graph.built_modules > 0 {
        RefSource::ComputedSummary
    } else {
        RefSource::EmbeddedSummary
    };
    b.finish(file, live, source)
}
