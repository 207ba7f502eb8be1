//! The one seam between the walk and the linker: resolving a symbol to its definition.

use crate::graph::Graph;
use crate::ids::{Cause, NodeId, SymId};
use std::convert::Infallible;

/// What a symbol resolves to, as answered by a [`Loader`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Definition {
    /// Defined by this node (the section holding the definition, or a bitcode symbol node, or a
    /// synthetic node); the walk makes it live.
    Node(NodeId),
    /// Defined, but by nothing the graph models: a shared library, an absolute symbol
    /// (`--defsym=X=1`), a linker-synthesized symbol without a section. Reaching it keeps nothing
    /// else alive; it is still listed by [`crate::Liveness::live_symbols`] (e.g. for
    /// `--as-needed`).
    External,
    /// Not defined anywhere. `weak` is true when every reference is weak, in which case the linker
    /// resolves it to 0 and does not report an error. Listed by [`crate::Liveness::undefined`].
    Undefined {
        /// All references are weak.
        weak: bool,
    },
}

/// Resolves symbols for the walk, loading archive members on demand.
///
/// The walk calls [`Loader::definition`] the first time it reaches a symbol (from a root or from
/// a live node) and caches the answer, so the loader is asked at most once per symbol per walk
/// (except after [`Graph::definition_changed`]). A symbol referenced only from dead nodes is
/// never asked about: that is what keeps an archive member reachable only from dead code from
/// being loaded.
///
/// The loader may add nodes, edges and roots to `graph` (the nodes of the member it loads, and
/// roots such as the member's `.init_array` sections); the walk continues into them.
///
/// The answers must be a deterministic function of the call sequence, or the walk is not
/// deterministic.
pub trait Loader {
    /// Error a loader can fail with (a corrupt archive member, say); it aborts the walk and is
    /// returned as [`crate::WalkError::Loader`].
    type Error;

    /// Resolves `sym`, first reached because of `cause` (a root, or a reference from a live
    /// node; useful for `--why-extract`).
    fn definition(
        &mut self,
        sym: SymId,
        cause: Cause,
        graph: &mut Graph,
    ) -> Result<Definition, Self::Error>;
}

/// Any `FnMut(SymId, Cause, &mut Graph) -> Result<Definition, E>` is a loader, which keeps small
/// callers and tests free of boilerplate structs.
impl<E, F> Loader for F
where
    F: FnMut(SymId, Cause, &mut Graph) -> Result<Definition, E>,
{
    type Error = E;

    fn definition(&mut self, sym: SymId, cause: Cause, graph: &mut Graph) -> Result<Definition, E> {
        self(sym, cause, graph)
    }
}

/// A loader that never loads anything: the definitions are known up front, indexed by symbol id
/// (symbols past the end are strong undefined).
///
/// This is the loader for the default, lld-compatible mode, where symbol resolution (including
/// archive member selection) is complete before the walk and the walk only computes liveness.
#[derive(Clone, Copy, Debug)]
pub struct Definitions<'a>(pub &'a [Definition]);

impl Loader for Definitions<'_> {
    type Error = Infallible;

    fn definition(
        &mut self,
        sym: SymId,
        _: Cause,
        _: &mut Graph,
    ) -> Result<Definition, Infallible> {
        Ok(self
            .0
            .get(sym.index())
            .copied()
            .unwrap_or(Definition::Undefined { weak: false }))
    }
}
