//! The graph itself: nodes, their edges, and the roots.
//!
//! Storage is CSR-like and append-only. Each node owns one contiguous range of a single flat edge
//! vector, so scanning a node's references is a linear read with no pointer chasing and building a
//! graph of 10^6 edges performs a handful of reallocations rather than 10^5 small allocations. The
//! price is that a node's edges are given all at once ([`Graph::set_edges`]); since the linker
//! knows every relocation of a section when it creates the section's node, that is no restriction.
//! A whole file's nodes and edges can also be prepared apart from the graph, in parallel with
//! other files, as an [`EdgeBlock`] and appended in one copy ([`Graph::add_block`]).
//!
//! Nodes and edges may be appended while a walk is running (the [`crate::Loader`] receives
//! `&mut Graph`); nothing is ever removed, so ids and edge indices stay valid throughout.

use crate::ids::{NodeId, RootReason, SymId, Target, ID_LIMIT};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// Start of the edge range of a node whose edges have not been set yet.
pub(crate) const UNSET: u32 = u32::MAX;

/// Total edges are capped one below `u32::MAX` so that [`UNSET`] can never be a real range start.
const EDGE_LIMIT: usize = (u32::MAX - 1) as usize;

/// Source of [`Graph`] identities, used to reject a [`crate::Liveness`] paired with the wrong
/// graph. A process-wide counter needs no dependency and is only touched when a graph is created.
static NEXT_GRAPH_ID: AtomicU64 = AtomicU64::new(1);

/// A misuse of the graph-building API. None of these can be caused by input files alone; they mean
/// the caller passed an id that does not belong to this graph or broke an ordering rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphError {
    /// More than [`ID_LIMIT`] nodes.
    TooManyNodes,
    /// More than `u32::MAX - 1` edges in total.
    TooManyEdges,
    /// The node id was not created by this graph (an edge, root or definition named it).
    UnknownNode(NodeId),
    /// A symbol id is not below [`ID_LIMIT`].
    SymbolOutOfRange(SymId),
    /// [`Graph::set_edges`] was called a second time for the node, or after a walk had already
    /// scanned the node (which it does with whatever edges the node has at that moment). Refusing
    /// is what guarantees a walk never silently misses edges added too late.
    EdgesAlreadySet(NodeId),
    /// A [`crate::Liveness`] was used with a graph other than the one that produced it.
    WrongGraph,
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::TooManyNodes => write!(f, "too many graph nodes (limit {ID_LIMIT})"),
            GraphError::TooManyEdges => write!(f, "too many graph edges (limit {EDGE_LIMIT})"),
            GraphError::UnknownNode(n) => write!(f, "graph node {} does not exist", n.0),
            GraphError::SymbolOutOfRange(s) => {
                write!(f, "symbol id {} is out of range (limit {ID_LIMIT})", s.0)
            }
            GraphError::EdgesAlreadySet(n) => write!(
                f,
                "edges of graph node {} were already set or already scanned by a walk",
                n.0
            ),
            GraphError::WrongGraph => write!(f, "liveness results used with a different graph"),
        }
    }
}

impl std::error::Error for GraphError {}

/// The reference graph: nodes with caller-defined kinds and payloads, edges to nodes or symbols,
/// and roots.
///
/// Build it, then call [`Graph::walk`]. See the crate documentation for the model.
#[derive(Debug)]
pub struct Graph {
    /// Identity checked by [`crate::Liveness`] methods that take a graph. `Graph` deliberately
    /// does not implement `Clone`, so two graphs never share an identity.
    pub(crate) id: u64,
    /// Caller-defined kind of each node.
    kinds: Vec<u8>,
    /// Caller-defined payload of each node.
    payloads: Vec<u64>,
    /// Edge range `[start, end)` of each node in `edges`; start is [`UNSET`] until edges are set.
    pub(crate) ranges: Vec<(u32, u32)>,
    /// All edges, packed by [`Target::pack`].
    pub(crate) edges: Vec<u32>,
    /// Roots in registration order; the walk processes them in this order.
    pub(crate) roots: Vec<(Target, RootReason)>,
    /// One past the largest symbol id mentioned by an edge or root, so the walk can size its
    /// per-symbol tables once instead of checking bounds per edge.
    pub(crate) sym_bound: u32,
    /// Symbols reported by [`Graph::definition_changed`], consumed by the next walk step.
    pub(crate) changed: Vec<SymId>,
}

impl Default for Graph {
    fn default() -> Self {
        Self::new()
    }
}

impl Graph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::with_capacity(0, 0)
    }

    /// An empty graph with room for `nodes` nodes and `edges` edges, to avoid regrowing the flat
    /// vectors when the caller knows the sizes (section and relocation counts).
    pub fn with_capacity(nodes: usize, edges: usize) -> Self {
        Graph {
            id: NEXT_GRAPH_ID.fetch_add(1, Ordering::Relaxed),
            kinds: Vec::with_capacity(nodes),
            payloads: Vec::with_capacity(nodes),
            ranges: Vec::with_capacity(nodes),
            edges: Vec::with_capacity(edges),
            roots: Vec::new(),
            sym_bound: 0,
            changed: Vec::new(),
        }
    }

    /// Adds a node without edges and returns its id (ids are consecutive from 0).
    ///
    /// `kind` and `payload` are the caller's: typically a kind code (native section, bitcode
    /// symbol, synthetic) and `file << 32 | section index`, so reports can be printed without a
    /// side table. Give the edges later with [`Graph::set_edges`]; creating all nodes of a file
    /// first lets a section's edges point at sections that come after it.
    pub fn add_node(&mut self, kind: u8, payload: u64) -> Result<NodeId, GraphError> {
        let id = self.ranges.len();
        if id >= ID_LIMIT as usize {
            return Err(GraphError::TooManyNodes);
        }
        self.kinds.push(kind);
        self.payloads.push(payload);
        self.ranges.push((UNSET, UNSET));
        Ok(NodeId(id as u32))
    }

    /// Adds a node together with its edges: [`Graph::add_node`] then [`Graph::set_edges`]. The
    /// edges may point at the new node itself. On error the node is not added.
    pub fn add_node_with_edges<I>(
        &mut self,
        kind: u8,
        payload: u64,
        edges: I,
    ) -> Result<NodeId, GraphError>
    where
        I: IntoIterator<Item = Target>,
    {
        let node = self.add_node(kind, payload)?;
        if let Err(e) = self.set_edges(node, edges) {
            // Nothing can refer to the node yet (it was never returned), so dropping it is safe.
            self.kinds.pop();
            self.payloads.pop();
            self.ranges.pop();
            return Err(e);
        }
        Ok(node)
    }

    /// Sets the outgoing edges of `node`, once.
    ///
    /// An edge `A -> B` means "if A is live, B is live". Edges are kept in the given order and not
    /// deduplicated (duplicates cost one mark test each during the walk); the walk follows them in
    /// this order, which decides which of several equally short why-live chains is reported.
    ///
    /// Errors, leaving the graph unchanged: the node or a target node does not exist, a target
    /// symbol is out of range, the node's edges were already set (or a walk already scanned it),
    /// or the edge limit is exceeded.
    pub fn set_edges<I>(&mut self, node: NodeId, edges: I) -> Result<(), GraphError>
    where
        I: IntoIterator<Item = Target>,
    {
        match self.ranges.get(node.index()) {
            None => return Err(GraphError::UnknownNode(node)),
            Some(&(start, _)) if start != UNSET => return Err(GraphError::EdgesAlreadySet(node)),
            Some(_) => {}
        }
        let start = self.edges.len();
        let packed = append_packed(&mut self.edges, edges, self.ranges.len() as u32)?;
        let end = self.edges.len();
        self.sym_bound = self.sym_bound.max(packed.sym_bound);
        self.ranges[node.index()] = (start as u32, end as u32);
        Ok(())
    }

    /// Adds `payloads.len()` nodes of kind `kind` at once, with the edges recorded in `block`
    /// (node `i` of the block becomes `first + i`), and returns `first`.
    ///
    /// This is [`Graph::add_node`] and [`Graph::set_edges`] for a whole input file, with the
    /// per-edge work (checking and packing) already done by [`EdgeBlock::set_edges`], which
    /// needs no graph and so can run for many files in parallel: adding a block is a copy.
    ///
    /// Errors, leaving the graph unchanged: too many nodes or edges, an edge naming a node that
    /// does not exist once the block's nodes are added, or block edges for a node index beyond
    /// `payloads`.
    pub fn add_block(
        &mut self,
        kind: u8,
        payloads: &[u64],
        block: &EdgeBlock,
    ) -> Result<NodeId, GraphError> {
        let first = self.ranges.len();
        let count = payloads.len();
        if first + count > ID_LIMIT as usize {
            return Err(GraphError::TooManyNodes);
        }
        if let Some(n) = block.max_node {
            if n as usize >= first + count {
                return Err(GraphError::UnknownNode(NodeId(n)));
            }
        }
        if let Some(&(local, _, _)) = block.ranges.iter().find(|r| r.0 as usize >= count) {
            return Err(GraphError::UnknownNode(NodeId(
                (first as u32).saturating_add(local),
            )));
        }
        let edge_base = self.edges.len();
        if edge_base + block.edges.len() > EDGE_LIMIT {
            return Err(GraphError::TooManyEdges);
        }
        self.kinds.resize(first + count, kind);
        self.payloads.extend_from_slice(payloads);
        self.ranges.resize(first + count, (UNSET, UNSET));
        self.edges.extend_from_slice(&block.edges);
        let base = edge_base as u32;
        for &(local, start, end) in &block.ranges {
            self.ranges[first + local as usize] = (base + start, base + end);
        }
        self.sym_bound = self.sym_bound.max(block.sym_bound);
        Ok(NodeId(first as u32))
    }

    /// Sets the edges of nodes that already exist from `block` (node `i` of the block is
    /// `first + i`): [`Graph::set_edges`] for a run of nodes added earlier without edges (by
    /// [`Graph::add_block`] with an empty block, say), typically by the [`crate::Loader`] when it
    /// loads the file those nodes stand for.
    ///
    /// Errors, leaving the graph unchanged: a block node or an edge's target node does not exist,
    /// a block node's edges were already set or a walk already scanned it, or the edge limit is
    /// exceeded.
    pub fn set_block_edges(&mut self, first: NodeId, block: &EdgeBlock) -> Result<(), GraphError> {
        let count = self.ranges.len() as u64;
        if let Some(n) = block.max_node.filter(|&n| u64::from(n) >= count) {
            return Err(GraphError::UnknownNode(NodeId(n)));
        }
        for &(local, _, _) in &block.ranges {
            let node = u64::from(first.0) + u64::from(local);
            if node >= count {
                return Err(GraphError::UnknownNode(NodeId(
                    node.min(u64::from(u32::MAX)) as u32,
                )));
            }
            if self.ranges[node as usize].0 != UNSET {
                return Err(GraphError::EdgesAlreadySet(NodeId(node as u32)));
            }
        }
        let edge_base = self.edges.len();
        if edge_base + block.edges.len() > EDGE_LIMIT {
            return Err(GraphError::TooManyEdges);
        }
        self.edges.extend_from_slice(&block.edges);
        let base = edge_base as u32;
        for &(local, start, end) in &block.ranges {
            self.ranges[(first.0 + local) as usize] = (base + start, base + end);
        }
        self.sym_bound = self.sym_bound.max(block.sym_bound);
        Ok(())
    }

    /// Registers `node` as a root: live regardless of references (`.init_array`, `SHF_GNU_RETAIN`,
    /// `.note*`, every section when not garbage-collecting, ...). A node may be registered several
    /// times; the first registration the walk processes is the reason reported.
    pub fn add_root(&mut self, node: NodeId, reason: RootReason) -> Result<(), GraphError> {
        if node.index() >= self.ranges.len() {
            return Err(GraphError::UnknownNode(node));
        }
        self.roots.push((Target::Node(node), reason));
        Ok(())
    }

    /// Registers `sym` as a root: the walk resolves it through the [`crate::Loader`] (possibly
    /// loading an archive member) and makes its definition live. For the entry symbol, `-u`,
    /// `--require-defined`, exported symbols, `llvm.used`, ...
    pub fn add_root_symbol(&mut self, sym: SymId, reason: RootReason) -> Result<(), GraphError> {
        if sym.0 >= ID_LIMIT {
            return Err(GraphError::SymbolOutOfRange(sym));
        }
        self.sym_bound = self.sym_bound.max(sym.0 + 1);
        self.roots.push((Target::Symbol(sym), reason));
        Ok(())
    }

    /// Tells the walk that the [`crate::Loader`]'s answer for `sym` may have changed.
    ///
    /// The walk caches one answer per symbol, but an answer of "undefined" or "defined outside the
    /// graph" can be superseded: a member loaded for another symbol may also define a symbol that
    /// was reached earlier through a weak reference (weak references load nothing) or that a shared
    /// library defined. Call this for every symbol a newly loaded member defines; the walk asks the
    /// loader again only for symbols it has already resolved to something other than a node, so
    /// over-reporting is cheap. Answers naming a node are final and are never asked again.
    pub fn definition_changed(&mut self, sym: SymId) -> Result<(), GraphError> {
        if sym.0 >= ID_LIMIT {
            return Err(GraphError::SymbolOutOfRange(sym));
        }
        self.changed.push(sym);
        Ok(())
    }

    /// Number of nodes; valid ids are `0..node_count()`.
    pub fn node_count(&self) -> usize {
        self.ranges.len()
    }

    /// Total number of edges over all nodes.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// The caller-defined kind of `node`, or `None` if it does not exist.
    pub fn kind(&self, node: NodeId) -> Option<u8> {
        self.kinds.get(node.index()).copied()
    }

    /// The caller-defined payload of `node`, or `None` if it does not exist.
    pub fn payload(&self, node: NodeId) -> Option<u64> {
        self.payloads.get(node.index()).copied()
    }

    /// The edges of `node` in the order given to [`Graph::set_edges`] (empty if not set yet), or
    /// `None` if the node does not exist.
    pub fn edges(&self, node: NodeId) -> Option<impl ExactSizeIterator<Item = Target> + '_> {
        let raw = self.raw_edges(node.index())?;
        Some(raw.iter().map(|&r| Target::unpack(r)))
    }

    /// The roots in registration order.
    pub fn roots(&self) -> &[(Target, RootReason)] {
        &self.roots
    }

    /// The packed edges of node index `n`, `None` if it does not exist.
    pub(crate) fn raw_edges(&self, n: usize) -> Option<&[u32]> {
        let &(start, end) = self.ranges.get(n)?;
        if start == UNSET {
            return Some(&[]);
        }
        self.edges.get(start as usize..end as usize)
    }
}

/// The edges of a run of consecutive nodes, built apart from the [`Graph`] and added to it in one
/// step by [`Graph::add_block`].
///
/// A linker computes a file's edges by resolving each relocation's symbol, which is the costly
/// part of building the graph; doing it into an `EdgeBlock` per file lets files be processed in
/// parallel (the block borrows nothing) while the graph's node and edge order stays the files'
/// order, so the walk is as deterministic as with [`Graph::set_edges`]. Targets are node ids of
/// the final graph, so the caller must know where the block's nodes will start.
#[derive(Clone, Debug, Default)]
pub struct EdgeBlock {
    /// Packed edges of all nodes of the block, node after node.
    edges: Vec<u32>,
    /// `(node index in the block, start, end)` into `edges`, for the nodes that have edges.
    ranges: Vec<(u32, u32, u32)>,
    /// Largest node id named by an edge, checked against the graph when the block is added.
    max_node: Option<u32>,
    /// One past the largest symbol id named by an edge.
    sym_bound: u32,
}

impl EdgeBlock {
    /// An empty block.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the edges of node `local` of the block (the `local`-th payload given to
    /// [`Graph::add_block`]), with the meaning and order rules of [`Graph::set_edges`]. Nodes
    /// are given in increasing `local` order, each at most once (nodes without edges are
    /// skipped), which keeps the block a plain append.
    ///
    /// Errors, leaving the block unchanged: a symbol id is not below [`ID_LIMIT`], a node id is
    /// not below [`ID_LIMIT`], `local` is not above the previous call's (reported as
    /// [`GraphError::EdgesAlreadySet`]), or the block holds more than `u32::MAX - 1` edges.
    pub fn set_edges<I>(&mut self, local: u32, edges: I) -> Result<(), GraphError>
    where
        I: IntoIterator<Item = Target>,
    {
        if self.ranges.last().is_some_and(|r| r.0 >= local) {
            return Err(GraphError::EdgesAlreadySet(NodeId(local)));
        }
        let start = self.edges.len();
        let packed = append_packed(&mut self.edges, edges, ID_LIMIT)?;
        self.max_node = self.max_node.max(packed.max_node);
        self.sym_bound = self.sym_bound.max(packed.sym_bound);
        self.ranges
            .push((local, start as u32, self.edges.len() as u32));
        Ok(())
    }

    /// Number of edges in the block.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }
}

/// What [`append_packed`] learned about the edges it appended.
struct Packed {
    /// Largest node id named, if any.
    max_node: Option<u32>,
    /// One past the largest symbol id named (0 if none).
    sym_bound: u32,
}

/// Checks and packs `edges` onto the end of `out`: node ids must be below `node_limit`, symbol
/// ids below [`ID_LIMIT`], and `out` must stay within the edge limit. On error `out` is left as
/// it was. Shared by [`Graph::set_edges`] (nodes must exist) and [`EdgeBlock::set_edges`] (nodes
/// are checked when the block is added).
fn append_packed<I>(out: &mut Vec<u32>, edges: I, node_limit: u32) -> Result<Packed, GraphError>
where
    I: IntoIterator<Item = Target>,
{
    let start = out.len();
    let mut packed = Packed {
        max_node: None,
        sym_bound: 0,
    };
    for target in edges {
        let check = match target {
            Target::Node(n) if n.0 >= node_limit => Err(GraphError::UnknownNode(n)),
            Target::Symbol(s) if s.0 >= ID_LIMIT => Err(GraphError::SymbolOutOfRange(s)),
            Target::Node(n) => {
                packed.max_node = packed.max_node.max(Some(n.0));
                Ok(())
            }
            Target::Symbol(s) => {
                packed.sym_bound = packed.sym_bound.max(s.0 + 1);
                Ok(())
            }
        };
        if let Err(e) = check {
            out.truncate(start);
            return Err(e);
        }
        out.push(target.pack());
    }
    if out.len() > EDGE_LIMIT {
        out.truncate(start);
        return Err(GraphError::TooManyEdges);
    }
    Ok(packed)
}
