//! The reference graph of weld and the liveness walk over it.
//!
//! One graph spans native input sections and LLVM bitcode symbols, and one walk over it decides
//! what is live *before* LTO runs, loading archive members as the walk reaches them. The crate
//! knows nothing about ELF or LLVM: the linker describes its world as nodes and edges, and
//! answers one question through the [`Loader`] trait, "what defines this symbol?".
//!
//! # Model
//!
//! * A **node** ([`NodeId`]) is whatever the linker wants liveness for: an input section, a
//!   bitcode symbol, or a synthetic node such as "all sections named `foo`" (the target of
//!   `__start_foo`). It carries a caller-defined `kind: u8` and `payload: u64` so that reports can
//!   be printed without a side table.
//! * An **edge** goes from a node to a [`Target`]: another node directly (a relocation against a
//!   section or local symbol) or a **symbol** ([`SymId`], the linker's global symbol id), resolved
//!   by the loader when the walk first reaches it. Edges are stored in one flat vector, each
//!   node owning a contiguous range.
//! * **Roots** are nodes ([`Graph::add_root`]) or symbols ([`Graph::add_root_symbol`]) that are
//!   live unconditionally, each with a caller-defined [`RootReason`].
//!
//! An edge `A -> B` means exactly "if A is live, B is live". That is also how to express
//! **conditional liveness**, e.g. an `.eh_frame` FDE or a `SHF_LINK_ORDER` section that must be
//! kept when its function is kept but must not keep the function: add the edge
//! `function -> FDE` (and give the FDE its own edges to its personality routine and LSDA), and no
//! edge back. Sections of one `SHF_GROUP` that live and die together are a cycle of edges.
//!
//! # The walk
//!
//! [`Graph::walk`] processes all roots first, then scans nodes breadth-first. The first time a
//! symbol is reached (from a root or a live node) the loader is asked for its [`Definition`]:
//! a node (which becomes live), defined outside the graph (shared library, absolute), or
//! undefined (weak or not). The answer is cached, so the loader is asked at most once per symbol,
//! and a symbol reached only from dead nodes is never asked about. The loader receives
//! `&mut Graph` and may add nodes, edges and roots: this is how an archive member is loaded in the
//! middle of the walk, AIX style, and the walk simply continues into the new nodes.
//!
//! Breadth-first order is chosen over depth-first because it makes every recorded first cause a
//! shortest one, so [`Liveness::why_live`] reports the chain with the fewest hops from any root
//! at no extra cost: the walk stores one predecessor per node and symbol (a flat vector, written
//! once), and a chain is read back by following predecessors, with no second walk.
//!
//! # Results
//!
//! [`Liveness`] answers [`Liveness::is_live`], [`Liveness::why_live`],
//! [`Liveness::dead_nodes`] (id order, for `--print-gc-sections`), [`Liveness::live_symbols`],
//! [`Liveness::undefined`] (only symbols reached from live nodes or roots, so undefined-symbol
//! errors come from live references only), [`Liveness::undefined_references`], and
//! [`Liveness::symbols_referenced_from`] (LTO's `VisibleToRegularObj`).
//!
//! # Driving it from the linker
//!
//! * One node per input section (and per bitcode symbol, and per synthetic target such as
//!   `__start_foo`), created per file before any of its edges so relocations may point forward.
//!   Resolving relocations is the costly part of building the graph: do it per file in parallel
//!   into [`EdgeBlock`]s and append them in file order with [`Graph::add_block`].
//! * Relocations against section or local symbols become `Target::Node`; against global symbols
//!   `Target::Symbol`, so the walk sees the prevailing definition, not the local copy.
//! * Default (lld-compatible) mode: symbol resolution, including archive member selection,
//!   finishes first; the loader is a lookup ([`Definitions`], or a closure over the symbol table).
//! * `--gc-archive-members`: archive symbols stay lazy; the loader loads the member on first
//!   reach, adds its nodes, edges and roots, calls [`Graph::definition_changed`] for the symbols
//!   it defines, and answers with the defining node. Weak references answer
//!   `Undefined { weak: true }` without loading, as in lld.
//! * Without `--gc-sections`, every loaded section is a root.
//!
//! # Determinism
//!
//! Nothing depends on addresses, hashing or threads: roots in registration order, nodes in queue
//! order, edges in the order given. For a deterministic loader, two walks of the same graph give
//! identical live sets, chains, loader call sequences and undefined lists. The walk is
//! single-threaded on purpose: it is memory-bound, runs in milliseconds for 10^6 edges, and
//! interleaves with the loader, whose archive loads must happen in a fixed order anyway.
//!
//! # Errors
//!
//! Misuse of ids (an edge or root naming a node that does not exist, a symbol id beyond
//! [`ID_LIMIT`], setting a node's edges twice or after the walk has scanned it) is reported as a
//! [`GraphError`]; a loader failure or a definition naming a nonexistent node ends the walk with
//! a [`WalkError`]. Nothing panics on caller input.
//!
//! # Example
//!
//! ```
//! use gc::{Cause, Definition, Graph, RootReason, Step, SymId, Target};
//!
//! const ENTRY: RootReason = RootReason(0);
//! let (main_sym, foo_sym) = (SymId(0), SymId(1));
//!
//! let mut g = Graph::new();
//! let main = g.add_node(0, 0)?;
//! let dead = g.add_node(0, 1)?;
//! g.set_edges(main, [Target::Symbol(foo_sym)])?;
//! g.set_edges(dead, [Target::Symbol(SymId(2))])?;
//! g.add_root_symbol(main_sym, ENTRY)?;
//!
//! // `foo` lives in an archive member that is loaded only when the walk reaches it.
//! let mut loader = |sym: SymId, _: Cause, g: &mut Graph| -> Result<Definition, String> {
//!     Ok(match sym.0 {
//!         0 => Definition::Node(main),
//!         1 => Definition::Node(g.add_node_with_edges(0, 2, []).map_err(|e| e.to_string())?),
//!         // Symbol 2 is referenced only from dead code, so it is never asked about.
//!         _ => Definition::Undefined { weak: false },
//!     })
//! };
//! let live = g.walk(&mut loader).map_err(|e| e.to_string())?;
//! assert!(live.is_live(main) && !live.is_live(dead));
//! let foo = gc::NodeId(2);
//! assert_eq!(
//!     live.why_live(foo),
//!     Some(vec![
//!         Step::Root(ENTRY),
//!         Step::Symbol(main_sym),
//!         Step::Node(main),
//!         Step::Symbol(foo_sym),
//!         Step::Node(foo),
//!     ])
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bitset;
mod graph;
mod ids;
mod liveness;
mod loader;
mod walk;

#[cfg(test)]
mod tests;

pub use bitset::SymbolSet;
pub use graph::{EdgeBlock, Graph, GraphError};
pub use ids::{Cause, NodeId, RootReason, SymId, Target, ID_LIMIT};
pub use liveness::{Liveness, Step, UndefinedReference, UndefinedSymbol, WalkStats};
pub use loader::{Definition, Definitions, Loader};
pub use walk::WalkError;
