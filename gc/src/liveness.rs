//! The result of a walk and the questions the linker asks it: is this live, why, what is dead,
//! which symbols are undefined and who references them.

use crate::bitset::{BitSet, SymbolSet};
use crate::graph::{Graph, GraphError};
use crate::ids::{Cause, NodeId, RootReason, SymId, SYM_TAG};
use crate::loader::Definition;

/// Per-symbol cached answer: the symbol has not been reached (and the loader not asked).
pub(crate) const DEF_UNRESOLVED: u32 = u32::MAX;
/// Per-symbol cached answer: [`Definition::External`].
pub(crate) const DEF_EXTERNAL: u32 = u32::MAX - 1;
/// Per-symbol cached answer: [`Definition::Undefined`] with `weak: false`.
pub(crate) const DEF_UNDEF_STRONG: u32 = u32::MAX - 2;
/// Per-symbol cached answer: [`Definition::Undefined`] with `weak: true`.
pub(crate) const DEF_UNDEF_WEAK: u32 = u32::MAX - 3;
// Any other value is the defining node's id, which is below `ID_LIMIT` and so cannot collide.

/// How a node was first reached; one entry per node, written once when the node is marked.
///
/// Keeping only the first predecessor (not all of them) is what makes why-live chains free: the
/// entries form a tree rooted at the roots, so a chain is a walk up the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Via {
    /// The node is a root.
    Root(RootReason),
    /// A direct edge from this node.
    Node(u32),
    /// An edge through this symbol, whose own first cause is in `Liveness::sym_via`.
    Symbol(u32),
}

/// One hop of a why-live chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The chain starts at a root registered with this reason; always the first step.
    Root(RootReason),
    /// A node on the chain.
    Node(NodeId),
    /// The chain passes through this symbol (a reference from the previous node, or the root
    /// symbol itself, resolved to the next node).
    Symbol(SymId),
}

/// A symbol the walk found undefined, from a live reference or a root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UndefinedSymbol {
    /// The symbol.
    pub sym: SymId,
    /// Every reference is weak (not an error; the symbol resolves to 0).
    pub weak: bool,
    /// What first reached it: a root (e.g. `-u`, which lld does not report) or a live node.
    pub first: Cause,
}

/// A reference from a live node to a symbol that stayed undefined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UndefinedReference {
    /// The undefined symbol.
    pub sym: SymId,
    /// A live node whose edges name it.
    pub from: NodeId,
}

/// Counters for `--stats`-style reporting and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkStats {
    /// Live nodes.
    pub live_nodes: usize,
    /// Symbols reached (resolved at least once).
    pub reached_symbols: usize,
    /// Edges scanned, i.e. the edges of all live nodes.
    pub edges_scanned: u64,
    /// Calls to [`crate::Loader::definition`].
    pub loader_calls: u64,
}

/// Everything a walk found: the live nodes and symbols, how each was first reached, and the
/// undefined symbols. Produced by [`Graph::walk`]; can be extended by [`Graph::resume_walk`].
#[derive(Debug)]
pub struct Liveness {
    /// Identity of the graph this belongs to.
    pub(crate) graph_id: u64,
    /// Mark bit per node.
    pub(crate) marks: BitSet,
    /// First cause per node (meaningful only where marked). Its length is the number of nodes the
    /// walk knows about.
    pub(crate) node_via: Vec<Via>,
    /// Marked nodes in the order they were marked. It doubles as the BFS queue (`head` is the
    /// next node to scan), so the discovery order costs nothing extra.
    pub(crate) queue: Vec<u32>,
    /// Next index of `queue` to scan.
    pub(crate) head: usize,
    /// Cached loader answer per symbol, encoded with the `DEF_*` constants or a node id.
    pub(crate) sym_def: Vec<u32>,
    /// First cause per symbol (meaningful only where `sym_def` is not `DEF_UNRESOLVED`).
    pub(crate) sym_via: Vec<Cause>,
    /// Symbols answered as undefined, in the order they were, with their first cause.
    pub(crate) undefined: Vec<(SymId, Cause)>,
    /// Number of graph roots already processed, so a resumed walk starts at the new ones.
    pub(crate) roots_done: usize,
    /// Counters.
    pub(crate) stats: WalkStats,
}

impl Liveness {
    /// Empty state for a walk of graph `graph_id`.
    pub(crate) fn new(graph_id: u64) -> Self {
        Liveness {
            graph_id,
            marks: BitSet::default(),
            node_via: Vec::new(),
            queue: Vec::new(),
            head: 0,
            sym_def: Vec::new(),
            sym_via: Vec::new(),
            undefined: Vec::new(),
            roots_done: 0,
            stats: WalkStats::default(),
        }
    }

    /// Whether `node` is live. Nodes that did not exist at the end of the walk are not.
    pub fn is_live(&self, node: NodeId) -> bool {
        self.marks.contains(node.index())
    }

    /// Number of live nodes.
    pub fn live_count(&self) -> usize {
        self.queue.len()
    }

    /// Live nodes in increasing id order.
    pub fn live_nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.marks.iter().map(|n| NodeId(n as u32))
    }

    /// Dead nodes in increasing id order (for `--print-gc-sections`), among the nodes that existed
    /// at the end of the walk.
    pub fn dead_nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.node_via.len())
            .filter(|&n| !self.marks.contains(n))
            .map(|n| NodeId(n as u32))
    }

    /// Live nodes in the order the walk reached them (breadth-first from the roots).
    pub fn discovery_order(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        self.queue.iter().map(|&n| NodeId(n))
    }

    /// The chain that made `node` live, from its root to the node, or `None` if it is dead.
    ///
    /// The chain starts with [`Step::Root`], then alternates nodes and symbol hops, and ends with
    /// `Step::Node(node)`; e.g. `[Root(entry), Symbol(main), Node(.text.main), Symbol(foo),
    /// Node(.text.foo)]`. A direct node edge has no symbol hop between its two nodes. Because the
    /// walk is breadth-first, the chain has the fewest node-to-node hops of all chains, except
    /// where a root registered during the walk or a changed definition offered a shorter path
    /// only after the node was reached.
    pub fn why_live(&self, node: NodeId) -> Option<Vec<Step>> {
        if !self.is_live(node) {
            return None;
        }
        let mut rev = vec![Step::Node(node)];
        self.trace_node(node.0, &mut rev);
        rev.reverse();
        Some(rev)
    }

    /// The chain that reached `sym`, from its root to the symbol, or `None` if the walk never
    /// reached it. Ends with `Step::Symbol(sym)`; the symbol's definition is not included (see
    /// [`Liveness::symbol_definition`]).
    pub fn why_live_symbol(&self, sym: SymId) -> Option<Vec<Step>> {
        self.symbol_definition(sym)?;
        let mut rev = vec![Step::Symbol(sym)];
        match self.sym_via[sym.index()] {
            Cause::Root(r) => rev.push(Step::Root(r)),
            Cause::Node(p) => {
                rev.push(Step::Node(p));
                self.trace_node(p.0, &mut rev);
            }
        }
        rev.reverse();
        Some(rev)
    }

    /// Appends, in reverse, the chain leading to live node `n` (excluding `n` itself).
    ///
    /// Terminates because every node's first cause was marked strictly before the node itself,
    /// so following causes always moves to an earlier-marked node and ends at a root.
    fn trace_node(&self, mut n: u32, rev: &mut Vec<Step>) {
        loop {
            match self.node_via[n as usize] {
                Via::Root(r) => {
                    rev.push(Step::Root(r));
                    return;
                }
                Via::Node(p) => {
                    rev.push(Step::Node(NodeId(p)));
                    n = p;
                }
                Via::Symbol(s) => {
                    rev.push(Step::Symbol(SymId(s)));
                    match self.sym_via[s as usize] {
                        Cause::Root(r) => {
                            rev.push(Step::Root(r));
                            return;
                        }
                        Cause::Node(p) => {
                            rev.push(Step::Node(p));
                            n = p.0;
                        }
                    }
                }
            }
        }
    }

    /// The loader's (latest) answer for `sym`, or `None` if the walk never reached it.
    pub fn symbol_definition(&self, sym: SymId) -> Option<Definition> {
        decode_definition(*self.sym_def.get(sym.index())?)
    }

    /// Symbols the walk reached, from a root or a live node, in increasing id order, whatever
    /// their definition. For LTO's "visible to regular objects" see
    /// [`Liveness::symbols_referenced_from`], which can exclude references from bitcode.
    pub fn live_symbols(&self) -> impl Iterator<Item = SymId> + '_ {
        self.sym_def
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d != DEF_UNRESOLVED)
            .map(|(s, _)| SymId(s as u32))
    }

    /// Symbols that are undefined after the walk, in the order the walk found them, each with
    /// the first root or live node that referenced it. Symbols later defined (see
    /// [`Graph::definition_changed`]) are left out. Dead nodes' references are never included:
    /// an undefined symbol referenced only from dead code is not an error.
    pub fn undefined(&self) -> impl Iterator<Item = UndefinedSymbol> + '_ {
        self.undefined.iter().filter_map(|&(sym, first)| {
            match self.sym_def[sym.index()] {
                DEF_UNDEF_STRONG => Some(false),
                DEF_UNDEF_WEAK => Some(true),
                _ => None,
            }
            .map(|weak| UndefinedSymbol { sym, weak, first })
        })
    }

    /// Every (undefined symbol, live referencing node) pair, grouped by symbol in the order of
    /// [`Liveness::undefined`], nodes in increasing id order, without duplicates. This is what an
    /// "undefined symbol ... referenced by ..." diagnostic lists; the caller finds the offsets by
    /// rescanning the node's relocations. One pass over the live nodes' edges, done only on
    /// demand so the walk itself records a single entry per symbol.
    pub fn undefined_references(
        &self,
        graph: &Graph,
    ) -> Result<Vec<UndefinedReference>, GraphError> {
        self.check_graph(graph)?;
        let undefined: Vec<UndefinedSymbol> = self.undefined().collect();
        if undefined.is_empty() {
            return Ok(Vec::new());
        }
        // A dense rank table: no hashing, and sorting by rank gives the discovery order.
        let mut rank = vec![u32::MAX; self.sym_def.len()];
        for (i, u) in undefined.iter().enumerate() {
            rank[u.sym.index()] = i as u32;
        }
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for n in self.marks.iter() {
            for &raw in graph.raw_edges(n).unwrap_or(&[]) {
                if raw & SYM_TAG != 0 {
                    match rank.get((raw & !SYM_TAG) as usize) {
                        Some(&r) if r != u32::MAX => pairs.push((r, n as u32)),
                        _ => {}
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        Ok(pairs
            .into_iter()
            .map(|(r, n)| UndefinedReference {
                sym: undefined[r as usize].sym,
                from: NodeId(n),
            })
            .collect())
    }

    /// Symbols referenced by live nodes whose kind satisfies `filter`.
    ///
    /// This is LTO's `VisibleToRegularObj`: pass a filter selecting native-section kinds, then add
    /// the root symbols, and a bitcode symbol referenced only from other (live) bitcode is left
    /// out, so LTO may internalize it. Computed on demand because the walk keeps only the first
    /// reference to each symbol.
    pub fn symbols_referenced_from<F>(
        &self,
        graph: &Graph,
        mut filter: F,
    ) -> Result<SymbolSet, GraphError>
    where
        F: FnMut(u8) -> bool,
    {
        self.check_graph(graph)?;
        let mut bits = BitSet::default();
        bits.grow(graph.sym_bound as usize);
        for n in self.marks.iter() {
            if !graph.kind(NodeId(n as u32)).is_some_and(&mut filter) {
                continue;
            }
            for &raw in graph.raw_edges(n).unwrap_or(&[]) {
                if raw & SYM_TAG != 0 {
                    bits.insert((raw & !SYM_TAG) as usize);
                }
            }
        }
        Ok(SymbolSet { bits })
    }

    /// Counters of the walk so far.
    pub fn stats(&self) -> WalkStats {
        WalkStats {
            live_nodes: self.queue.len(),
            ..self.stats
        }
    }

    /// Rejects a graph other than the one this liveness was computed on.
    pub(crate) fn check_graph(&self, graph: &Graph) -> Result<(), GraphError> {
        if graph.id == self.graph_id {
            Ok(())
        } else {
            Err(GraphError::WrongGraph)
        }
    }
}

/// Turns a cached `sym_def` entry back into a [`Definition`]; `None` for unresolved.
fn decode_definition(code: u32) -> Option<Definition> {
    match code {
        DEF_UNRESOLVED => None,
        DEF_EXTERNAL => Some(Definition::External),
        DEF_UNDEF_STRONG => Some(Definition::Undefined { weak: false }),
        DEF_UNDEF_WEAK => Some(Definition::Undefined { weak: true }),
        n => Some(Definition::Node(NodeId(n))),
    }
}
