//! Identifiers and the packed edge encoding.
//!
//! Every id is a plain `u32` newtype so that the graph, the walk state and the caller's own tables
//! can all be flat vectors indexed by id. Edges are stored as a single `u32` each (one tag bit and a
//! 31-bit id), which halves the memory the walk streams through compared with an enum; that is why
//! node and symbol ids are limited to [`ID_LIMIT`].

/// Exclusive upper bound for [`NodeId`] and [`SymId`] values.
///
/// An edge packs "node or symbol" into the top bit of a `u32`, leaving 31 bits for the id. Two
/// billion sections or symbols is far beyond any real link; exceeding it is reported as an error
/// ([`crate::GraphError::TooManyNodes`], [`crate::GraphError::SymbolOutOfRange`]), never truncated.
pub const ID_LIMIT: u32 = 1 << 31;

/// Tag bit of a packed edge: set for a symbol reference, clear for a direct node reference.
pub(crate) const SYM_TAG: u32 = 1 << 31;

/// A node of the graph: an input section, a bitcode symbol, or a synthetic node the linker invents.
///
/// Ids are handed out by [`crate::Graph::add_node`] in increasing order starting at 0, so the caller
/// can keep per-node data of its own in a vector indexed by [`NodeId::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The id as a vector index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A global symbol, numbered by the linker's symbol table.
///
/// The crate never sees symbol names: it only needs dense ids so that per-symbol walk state is a
/// flat vector. Values must be below [`ID_LIMIT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymId(pub u32);

impl SymId {
    /// The id as a vector index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why a root is a root, as a caller-defined code (entry symbol, `-u`, `.init_array`, exported,
/// `SHF_GNU_RETAIN`, `llvm.used`, ...).
///
/// The crate only stores and returns it (at the start of every
/// [`Liveness::why_live`](crate::Liveness::why_live) chain); the linker turns it into text. A
/// number rather than a string keeps roots allocation-free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RootReason(pub u32);

/// Where an edge points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// A direct reference to a node, e.g. a relocation against a section symbol or a local symbol,
    /// or a "follows" edge (see the crate documentation on conditional liveness).
    Node(NodeId),
    /// A reference through a global symbol, resolved by the [`crate::Loader`] when the walk first
    /// reaches it. This is what lets archive members be loaded during the walk.
    Symbol(SymId),
}

impl Target {
    /// Packs the target into the one-`u32` edge format; the caller has checked the id range.
    #[inline]
    pub(crate) const fn pack(self) -> u32 {
        match self {
            Target::Node(n) => n.0,
            Target::Symbol(s) => s.0 | SYM_TAG,
        }
    }

    /// Inverse of [`Target::pack`].
    #[inline]
    pub(crate) const fn unpack(raw: u32) -> Target {
        if raw & SYM_TAG == 0 {
            Target::Node(NodeId(raw))
        } else {
            Target::Symbol(SymId(raw & !SYM_TAG))
        }
    }
}

/// Who caused something to be reached: a root, or a live node's reference.
///
/// Passed to the [`crate::Loader`] (so the linker can print `--why-extract` lines naming the
/// referencing section) and stored for undefined-symbol reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    /// A root registered with [`crate::Graph::add_root_symbol`] (for symbols) or
    /// [`crate::Graph::add_root`] (for nodes).
    Root(RootReason),
    /// A reference from this live node.
    Node(NodeId),
}
