//! Unit tests of the graph, the walk and the results, with a small archive simulator as loader
//! and a naive fixpoint reference for random graphs.

use crate::*;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

const ENTRY: RootReason = RootReason(1);
const INIT_ARRAY: RootReason = RootReason(2);
const RETAIN: RootReason = RootReason(3);
const UNDEF_U: RootReason = RootReason(4);

/// Kind codes used by the tests.
const TEXT: u8 = 1;
const FDE: u8 = 2;
const BITCODE: u8 = 3;

fn n(i: u32) -> NodeId {
    NodeId(i)
}
fn s(i: u32) -> SymId {
    SymId(i)
}
fn tn(i: u32) -> Target {
    Target::Node(NodeId(i))
}
fn ts(i: u32) -> Target {
    Target::Symbol(SymId(i))
}

/// An edge inside a simulated archive member: to a node of the same member, or to a symbol.
#[derive(Clone, Copy, Debug)]
enum Local {
    Node(usize),
    Sym(u32),
}

/// A simulated archive member.
#[derive(Clone, Debug, Default)]
struct Member {
    /// Edges of each node of the member.
    nodes: Vec<Vec<Local>>,
    /// Member nodes that are roots once loaded (`.init_array`, retained sections).
    roots: Vec<(usize, RootReason)>,
    /// Symbols the member defines, with the defining node.
    defines: Vec<(u32, usize)>,
}

/// A loader simulating the linker: symbols defined up front, plus archive members loaded the
/// first time one of their symbols is asked for (unless every reference is weak).
#[derive(Clone, Debug, Default)]
struct Archives {
    fixed: BTreeMap<u32, Definition>,
    /// Symbol -> (member, defining node within the member), from the archive symbol index.
    lazy: BTreeMap<u32, (usize, usize)>,
    members: Vec<Member>,
    /// First node id of each loaded member.
    loaded: BTreeMap<usize, u32>,
    /// Symbols all of whose references are weak: they do not load members.
    weak: BTreeSet<u32>,
    /// Every call, in order.
    calls: Vec<(SymId, Cause)>,
}

impl Archives {
    fn member(&mut self, m: Member) -> usize {
        let id = self.members.len();
        for &(sym, local) in &m.defines {
            self.lazy.insert(sym, (id, local));
        }
        self.members.push(m);
        id
    }

    /// Payload identifying node `local` of member `m` independently of load order.
    fn payload(m: usize, local: usize) -> u64 {
        ((m as u64 + 1) << 32) | local as u64
    }

    fn load(&mut self, m: usize, g: &mut Graph) -> Result<u32, GraphError> {
        if let Some(&base) = self.loaded.get(&m) {
            return Ok(base);
        }
        let member = self.members[m].clone();
        let base = g.node_count() as u32;
        for local in 0..member.nodes.len() {
            g.add_node(TEXT, Self::payload(m, local))?;
        }
        for (local, edges) in member.nodes.iter().enumerate() {
            let targets = edges.iter().map(|e| match *e {
                Local::Node(l) => Target::Node(NodeId(base + l as u32)),
                Local::Sym(sym) => Target::Symbol(SymId(sym)),
            });
            g.set_edges(NodeId(base + local as u32), targets)?;
        }
        for &(local, reason) in &member.roots {
            g.add_root(NodeId(base + local as u32), reason)?;
        }
        for &(sym, _) in &member.defines {
            g.definition_changed(SymId(sym))?;
        }
        self.loaded.insert(m, base);
        Ok(base)
    }

    fn asked(&self, sym: u32) -> bool {
        self.calls.iter().any(|&(x, _)| x.0 == sym)
    }
}

impl Loader for Archives {
    type Error = GraphError;

    fn definition(
        &mut self,
        sym: SymId,
        cause: Cause,
        g: &mut Graph,
    ) -> Result<Definition, GraphError> {
        self.calls.push((sym, cause));
        if let Some(&d) = self.fixed.get(&sym.0) {
            return Ok(d);
        }
        let weak = self.weak.contains(&sym.0);
        match self.lazy.get(&sym.0) {
            Some(&(m, local)) if !weak || self.loaded.contains_key(&m) => {
                let base = self.load(m, g)?;
                Ok(Definition::Node(NodeId(base + local as u32)))
            }
            _ => Ok(Definition::Undefined { weak }),
        }
    }
}

#[test]
fn roots_by_node_and_by_symbol() -> Result<(), Box<dyn std::error::Error>> {
    let mut g = Graph::new();
    let a = g.add_node_with_edges(TEXT, 10, [])?;
    let b = g.add_node_with_edges(TEXT, 11, [])?;
    let c = g.add_node_with_edges(TEXT, 12, [])?;
    g.add_root(a, RETAIN)?;
    g.add_root_symbol(s(0), ENTRY)?;
    let defs = [Definition::Node(b)];
    let live = g.walk(&mut Definitions(&defs[..]))?;
    assert!(live.is_live(a) && live.is_live(b) && !live.is_live(c));
    assert_eq!(
        live.why_live(a),
        Some(vec![Step::Root(RETAIN), Step::Node(a)])
    );
    assert_eq!(
        live.why_live(b),
        Some(vec![Step::Root(ENTRY), Step::Symbol(s(0)), Step::Node(b)])
    );
    assert_eq!(live.why_live(c), None);
    assert_eq!(live.dead_nodes().collect::<Vec<_>>(), vec![c]);
    assert_eq!(live.live_nodes().collect::<Vec<_>>(), vec![a, b]);
    assert_eq!(live.live_symbols().collect::<Vec<_>>(), vec![s(0)]);
    assert_eq!(
        live.why_live_symbol(s(0)),
        Some(vec![Step::Root(ENTRY), Step::Symbol(s(0))])
    );
    assert_eq!(live.symbol_definition(s(0)), Some(Definition::Node(b)));
    Ok(())
}

#[test]
fn first_root_registration_wins() -> Result<(), Box<dyn std::error::Error>> {
    let mut g = Graph::new();
    let a = g.add_node_with_edges(TEXT, 0, [])?;
    g.add_root(a, RETAIN)?;
    g.add_root(a, INIT_ARRAY)?;
    g.add_root_symbol(s(0), ENTRY)?;
    g.add_root_symbol(s(0), UNDEF_U)?;
    let defs = [Definition::Node(a)];
    let live = g.walk(&mut Definitions(&defs))?;
    assert_eq!(
        live.why_live(a),
        Some(vec![Step::Root(RETAIN), Step::Node(a)])
    );
    assert_eq!(
        live.why_live_symbol(s(0)),
        Some(vec![Step::Root(ENTRY), Step::Symbol(s(0))])
    );
    Ok(())
}

#[test]
fn symbol_edges_resolved_once_through_loader() -> Result<(), Box<dyn std::error::Error>> {
    // main -> foo, main -> bar, bar -> foo, foo -> bar: each symbol asked exactly once.
    let mut g = Graph::new();
    let main = g.add_node(TEXT, 0)?;
    let foo = g.add_node(TEXT, 1)?;
    let bar = g.add_node(TEXT, 2)?;
    g.set_edges(main, [ts(1), ts(2), ts(1)])?;
    g.set_edges(foo, [ts(2)])?;
    g.set_edges(bar, [ts(1), ts(3)])?;
    g.add_root_symbol(s(0), ENTRY)?;
    let mut calls = Vec::new();
    let mut loader = |sym: SymId, cause: Cause, _: &mut Graph| -> Result<Definition, ()> {
        calls.push((sym, cause));
        Ok(match sym.0 {
            0 => Definition::Node(main),
            1 => Definition::Node(foo),
            2 => Definition::Node(bar),
            _ => Definition::External,
        })
    };
    let live = g.walk(&mut loader).map_err(|_| "loader failed")?;
    assert_eq!(
        calls,
        vec![
            (s(0), Cause::Root(ENTRY)),
            (s(1), Cause::Node(main)),
            (s(2), Cause::Node(main)),
            (s(3), Cause::Node(bar)),
        ]
    );
    assert_eq!(live.live_count(), 3);
    assert_eq!(live.symbol_definition(s(3)), Some(Definition::External));
    assert_eq!(live.symbol_definition(s(4)), None);
    assert_eq!(live.undefined().count(), 0);
    let stats = live.stats();
    assert_eq!(stats.loader_calls, 4);
    assert_eq!(stats.reached_symbols, 4);
    assert_eq!(stats.edges_scanned, 6);
    assert_eq!(stats.live_nodes, 3);
    Ok(())
}

/// main (object) -> a (archive 1) -> b (archive 2) -> c (archive 3); d is in archive 3 too but
/// only referenced by a dead section of archive 2's member; e's member is only referenced from a
/// dead object section.
fn three_archives() -> Result<(Graph, Archives, NodeId, NodeId), GraphError> {
    let mut g = Graph::new();
    let main = g.add_node(TEXT, 0)?;
    let dead = g.add_node(TEXT, 1)?;
    g.set_edges(main, [ts(1)])?;
    g.set_edges(dead, [ts(5)])?;
    g.add_root_symbol(s(0), ENTRY)?;
    let mut ar = Archives::default();
    ar.fixed.insert(0, Definition::Node(main));
    // Archive 1: a.o with .text.a -> b.
    ar.member(Member {
        nodes: vec![vec![Local::Sym(2)]],
        defines: vec![(1, 0)],
        ..Member::default()
    });
    // Archive 2: b.o with .text.b -> c and a dead .text.b2 -> d.
    ar.member(Member {
        nodes: vec![vec![Local::Sym(3)], vec![Local::Sym(4)]],
        defines: vec![(2, 0), (6, 1)],
        ..Member::default()
    });
    // Archive 3: c.o (.text.c), d.o (.text.d), e.o (.text.e).
    ar.member(Member {
        nodes: vec![vec![]],
        defines: vec![(3, 0)],
        ..Member::default()
    });
    ar.member(Member {
        nodes: vec![vec![]],
        defines: vec![(4, 0)],
        ..Member::default()
    });
    ar.member(Member {
        nodes: vec![vec![]],
        defines: vec![(5, 0)],
        ..Member::default()
    });
    Ok((g, ar, main, dead))
}

#[test]
fn archive_members_load_during_walk() -> Result<(), Box<dyn std::error::Error>> {
    let (mut g, mut ar, main, dead) = three_archives()?;
    let live = g.walk(&mut ar)?;
    // Members 0, 1, 2 loaded in that order; d.o (3) and e.o (4) never.
    assert_eq!(ar.loaded, BTreeMap::from([(0, 2), (1, 3), (2, 5)]));
    assert!(
        !ar.asked(4),
        "d is referenced only by a dead section of a loaded member"
    );
    assert!(
        !ar.asked(5),
        "e is referenced only by a dead object section"
    );
    assert!(!live.is_live(dead));
    let (a, b, b2, c) = (n(2), n(3), n(4), n(5));
    assert_eq!(g.payload(c), Some(Archives::payload(2, 0)));
    assert!(live.is_live(a) && live.is_live(b) && live.is_live(c) && !live.is_live(b2));
    assert_eq!(
        live.why_live(c),
        Some(vec![
            Step::Root(ENTRY),
            Step::Symbol(s(0)),
            Step::Node(main),
            Step::Symbol(s(1)),
            Step::Node(a),
            Step::Symbol(s(2)),
            Step::Node(b),
            Step::Symbol(s(3)),
            Step::Node(c),
        ])
    );
    assert_eq!(live.dead_nodes().collect::<Vec<_>>(), vec![dead, b2]);
    assert_eq!(
        live.discovery_order().collect::<Vec<_>>(),
        vec![main, a, b, c]
    );
    assert_eq!(
        ar.calls,
        vec![
            (s(0), Cause::Root(ENTRY)),
            (s(1), Cause::Node(main)),
            (s(2), Cause::Node(a)),
            (s(3), Cause::Node(b)),
        ]
    );
    Ok(())
}

#[test]
fn undefined_weak_and_strong_from_live_references_only() -> Result<(), Box<dyn std::error::Error>> {
    let mut g = Graph::new();
    let main = g.add_node(TEXT, 0)?;
    let other = g.add_node(TEXT, 1)?;
    let dead = g.add_node(TEXT, 2)?;
    // main: strong undefined 1, weak undefined 2, defined 3 (other). other: 1 again and 4.
    g.set_edges(main, [ts(1), ts(2), ts(3)])?;
    g.set_edges(other, [ts(4), ts(1)])?;
    g.set_edges(dead, [ts(5), ts(1)])?;
    g.add_root_symbol(s(0), ENTRY)?;
    g.add_root_symbol(s(6), UNDEF_U)?;
    let mut ar = Archives::default();
    ar.fixed.insert(0, Definition::Node(main));
    ar.fixed.insert(3, Definition::Node(other));
    ar.weak.insert(2);
    ar.weak.insert(4);
    let live = g.walk(&mut ar)?;
    assert_eq!(
        live.undefined().collect::<Vec<_>>(),
        vec![
            UndefinedSymbol {
                sym: s(6),
                weak: false,
                first: Cause::Root(UNDEF_U)
            },
            UndefinedSymbol {
                sym: s(1),
                weak: false,
                first: Cause::Node(main)
            },
            UndefinedSymbol {
                sym: s(2),
                weak: true,
                first: Cause::Node(main)
            },
            UndefinedSymbol {
                sym: s(4),
                weak: true,
                first: Cause::Node(other)
            },
        ]
    );
    assert!(!ar.asked(5), "5 is referenced only from dead code");
    assert_eq!(
        live.undefined_references(&g)?,
        vec![
            UndefinedReference {
                sym: s(1),
                from: main
            },
            UndefinedReference {
                sym: s(1),
                from: other
            },
            UndefinedReference {
                sym: s(2),
                from: main
            },
            UndefinedReference {
                sym: s(4),
                from: other
            },
        ]
    );
    Ok(())
}

#[test]
fn weak_reference_upgraded_when_member_loaded_for_another_symbol(
) -> Result<(), Box<dyn std::error::Error>> {
    // main -> weak w (asked first: undefined weak, member not loaded), main -> foo (loads the
    // member, which also defines w: the walk re-asks about w and keeps its node).
    let mut g = Graph::new();
    let main = g.add_node_with_edges(TEXT, 0, [ts(1), ts(2)])?;
    g.add_root(main, ENTRY)?;
    let mut ar = Archives::default();
    ar.weak.insert(1);
    ar.member(Member {
        nodes: vec![vec![], vec![Local::Sym(3)]],
        defines: vec![(2, 0), (1, 1), (9, 0)],
        ..Member::default()
    });
    let live = g.walk(&mut ar)?;
    let (foo, w) = (n(1), n(2));
    assert!(live.is_live(foo) && live.is_live(w));
    assert_eq!(live.symbol_definition(s(1)), Some(Definition::Node(w)));
    // w's node references 3, which is undefined.
    assert_eq!(
        live.undefined().collect::<Vec<_>>(),
        vec![UndefinedSymbol {
            sym: s(3),
            weak: false,
            first: Cause::Node(w)
        }]
    );
    assert_eq!(
        live.why_live(w),
        Some(vec![
            Step::Root(ENTRY),
            Step::Node(main),
            Step::Symbol(s(1)),
            Step::Node(w)
        ])
    );
    // 1 asked twice (before and after the load), 9 never (unreached), 2 and 3 once.
    assert_eq!(
        ar.calls.iter().map(|c| c.0 .0).collect::<Vec<_>>(),
        vec![1, 2, 1, 3]
    );
    Ok(())
}

#[test]
fn roots_added_by_loaded_member() -> Result<(), Box<dyn std::error::Error>> {
    // Loading the member for foo brings an .init_array section (a root) that calls ctor.
    let mut g = Graph::new();
    let main = g.add_node_with_edges(TEXT, 0, [ts(1)])?;
    g.add_root(main, ENTRY)?;
    let mut ar = Archives::default();
    ar.member(Member {
        nodes: vec![vec![], vec![Local::Node(2)], vec![]],
        roots: vec![(1, INIT_ARRAY)],
        defines: vec![(1, 0)],
    });
    let live = g.walk(&mut ar)?;
    let (foo, init, ctor) = (n(1), n(2), n(3));
    assert!(live.is_live(foo) && live.is_live(init) && live.is_live(ctor));
    assert_eq!(
        live.why_live(ctor),
        Some(vec![
            Step::Root(INIT_ARRAY),
            Step::Node(init),
            Step::Node(ctor)
        ])
    );
    Ok(())
}

#[test]
fn conditional_edges_do_not_keep_their_source() -> Result<(), Box<dyn std::error::Error>> {
    // .text.f -> FDE(f) -> personality; .text.g -> FDE(g). f is live, g is not.
    let mut g = Graph::new();
    let f = g.add_node(TEXT, 0)?;
    let gtext = g.add_node(TEXT, 1)?;
    let fde_f = g.add_node(FDE, 2)?;
    let fde_g = g.add_node(FDE, 3)?;
    let personality = g.add_node_with_edges(TEXT, 4, [])?;
    g.set_edges(f, [tn(fde_f.0)])?;
    g.set_edges(gtext, [tn(fde_g.0)])?;
    g.set_edges(fde_f, [tn(personality.0)])?;
    g.set_edges(fde_g, [tn(personality.0)])?;
    g.add_root(f, ENTRY)?;
    let live = g.walk(&mut Definitions(&[]))?;
    assert!(live.is_live(fde_f) && live.is_live(personality));
    assert!(!live.is_live(gtext) && !live.is_live(fde_g));
    assert_eq!(
        live.why_live(personality),
        Some(vec![
            Step::Root(ENTRY),
            Step::Node(f),
            Step::Node(fde_f),
            Step::Node(personality)
        ])
    );
    Ok(())
}

#[test]
fn chains_are_shortest() -> Result<(), Box<dyn std::error::Error>> {
    // root -> a -> b -> c -> t, and root -> d -> t (via symbol); BFS picks the 2-hop path even
    // though the first edge of root leads into the longer one.
    let mut g = Graph::new();
    let root = g.add_node(TEXT, 0)?;
    let a = g.add_node(TEXT, 1)?;
    let b = g.add_node(TEXT, 2)?;
    let c = g.add_node(TEXT, 3)?;
    let d = g.add_node(TEXT, 4)?;
    let t = g.add_node_with_edges(TEXT, 5, [])?;
    g.set_edges(root, [tn(a.0), tn(d.0)])?;
    g.set_edges(a, [tn(b.0)])?;
    g.set_edges(b, [tn(c.0)])?;
    g.set_edges(c, [tn(t.0)])?;
    g.set_edges(d, [ts(0)])?;
    g.add_root(root, ENTRY)?;
    let live = g.walk(&mut Definitions(&[Definition::Node(t)]))?;
    assert_eq!(
        live.why_live(t),
        Some(vec![
            Step::Root(ENTRY),
            Step::Node(root),
            Step::Node(d),
            Step::Symbol(s(0)),
            Step::Node(t)
        ])
    );
    Ok(())
}

#[test]
fn resume_after_new_inputs() -> Result<(), Box<dyn std::error::Error>> {
    // First walk: bitcode main references memcpy (undefined for now). Then an "LTO output"
    // node appears, is rooted, references libcall 2 which loads a member.
    let mut g = Graph::new();
    let main = g.add_node_with_edges(BITCODE, 0, [ts(1)])?;
    g.add_root(main, ENTRY)?;
    let mut ar = Archives::default();
    ar.fixed.insert(1, Definition::External);
    ar.member(Member {
        nodes: vec![vec![]],
        defines: vec![(2, 0)],
        ..Member::default()
    });
    let mut live = g.walk(&mut ar)?;
    assert_eq!(live.live_count(), 1);
    let lto = g.add_node_with_edges(TEXT, 1, [ts(2)])?;
    g.add_root(lto, RETAIN)?;
    g.resume_walk(&mut live, &mut ar)?;
    let libcall = n(2);
    assert!(live.is_live(lto) && live.is_live(libcall));
    assert_eq!(
        live.why_live(libcall),
        Some(vec![
            Step::Root(RETAIN),
            Step::Node(lto),
            Step::Symbol(s(2)),
            Step::Node(libcall)
        ])
    );
    // Only the new root's symbol was asked about.
    assert_eq!(ar.calls.len(), 2);
    // A liveness belongs to its graph.
    let mut other = Graph::new();
    assert_eq!(
        other.resume_walk(&mut live, &mut ar),
        Err(WalkError::WrongGraph)
    );
    assert_eq!(
        live.undefined_references(&other),
        Err(GraphError::WrongGraph)
    );
    Ok(())
}

#[test]
fn symbols_referenced_from_native_only() -> Result<(), Box<dyn std::error::Error>> {
    // native .text.main -> bc_a; bitcode bc_a -> bc_b; bc_b is live but referenced only from
    // bitcode, so it is not visible to regular objects.
    let mut g = Graph::new();
    let main = g.add_node_with_edges(TEXT, 0, [ts(1)])?;
    let bc_a = g.add_node_with_edges(BITCODE, 1, [ts(2)])?;
    let bc_b = g.add_node_with_edges(BITCODE, 2, [])?;
    let dead = g.add_node_with_edges(TEXT, 3, [ts(2)])?;
    g.add_root(main, ENTRY)?;
    let defs = [
        Definition::Undefined { weak: false },
        Definition::Node(bc_a),
        Definition::Node(bc_b),
    ];
    let live = g.walk(&mut Definitions(&defs))?;
    assert!(live.is_live(bc_b) && !live.is_live(dead));
    let visible = live.symbols_referenced_from(&g, |k| k == TEXT)?;
    assert_eq!(visible.iter().collect::<Vec<_>>(), vec![s(1)]);
    assert!(visible.contains(s(1)) && !visible.contains(s(2)) && visible.len() == 1);
    assert_eq!(live.live_symbols().collect::<Vec<_>>(), vec![s(1), s(2)]);
    Ok(())
}

#[test]
fn misuse_is_an_error() -> Result<(), Box<dyn std::error::Error>> {
    let mut g = Graph::new();
    let a = g.add_node(TEXT, 0)?;
    assert_eq!(g.set_edges(a, [tn(5)]), Err(GraphError::UnknownNode(n(5))));
    assert_eq!(
        g.set_edges(a, [ts(1), ts(ID_LIMIT)]),
        Err(GraphError::SymbolOutOfRange(s(ID_LIMIT)))
    );
    assert_eq!(g.edge_count(), 0, "failed set_edges leaves nothing behind");
    assert_eq!(g.set_edges(n(7), []), Err(GraphError::UnknownNode(n(7))));
    assert_eq!(g.add_root(n(7), ENTRY), Err(GraphError::UnknownNode(n(7))));
    assert_eq!(
        g.add_root_symbol(s(u32::MAX), ENTRY),
        Err(GraphError::SymbolOutOfRange(s(u32::MAX)))
    );
    assert_eq!(
        g.add_node_with_edges(TEXT, 1, [tn(9)]),
        Err(GraphError::UnknownNode(n(9)))
    );
    assert_eq!(g.node_count(), 1, "failed add_node_with_edges adds no node");
    // Self edges are fine.
    let b = g.add_node_with_edges(TEXT, 1, [tn(1)])?;
    assert_eq!(g.set_edges(b, []), Err(GraphError::EdgesAlreadySet(b)));
    assert_eq!(g.edges(b).map(|e| e.collect::<Vec<_>>()), Some(vec![tn(1)]));
    assert!(g.edges(n(99)).is_none() && g.kind(n(99)).is_none() && g.payload(n(99)).is_none());

    // A node scanned before its edges were set is sealed.
    let c = g.add_node(TEXT, 2)?;
    g.add_root(c, ENTRY)?;
    let live = g.walk(&mut Definitions(&[]))?;
    assert!(live.is_live(c));
    assert_eq!(g.set_edges(c, [tn(0)]), Err(GraphError::EdgesAlreadySet(c)));

    // A loader naming a node that does not exist.
    let mut g = Graph::new();
    g.add_root_symbol(s(0), ENTRY)?;
    let err = g.walk(&mut Definitions(&[Definition::Node(n(3))]));
    assert!(matches!(
        err,
        Err(WalkError::UnknownNode { sym, node }) if sym == s(0) && node == n(3)
    ));

    // A failing loader aborts the walk with its error.
    let mut g = Graph::new();
    g.add_root_symbol(s(0), ENTRY)?;
    let mut failing =
        |_: SymId, _: Cause, _: &mut Graph| -> Result<Definition, String> { Err("bad".into()) };
    match g.walk(&mut failing) {
        Err(WalkError::Loader(e)) => assert_eq!(e, "bad"),
        other => panic!("unexpected {other:?}"),
    }
    Ok(())
}

#[test]
fn edge_blocks_are_checked() -> Result<(), Box<dyn std::error::Error>> {
    let mut b = EdgeBlock::new();
    b.set_edges(1, [tn(0), ts(4)])?;
    assert_eq!(
        b.set_edges(1, [tn(0)]),
        Err(GraphError::EdgesAlreadySet(n(1))),
        "nodes come in increasing order, once"
    );
    assert_eq!(
        b.set_edges(2, [ts(1), ts(ID_LIMIT)]),
        Err(GraphError::SymbolOutOfRange(s(ID_LIMIT)))
    );
    assert_eq!(b.edge_count(), 2, "failed set_edges leaves nothing behind");
    b.set_edges(3, [tn(5)])?;

    let mut g = Graph::new();
    g.add_node(TEXT, 9)?;
    // Four nodes 1..=4: the edge to node 5 names a node that would not exist.
    assert_eq!(
        g.add_block(TEXT, &[0, 1, 2, 3], &b),
        Err(GraphError::UnknownNode(n(5)))
    );
    // Edges for block node 3 with only three nodes.
    assert_eq!(
        g.add_block(TEXT, &[0, 1, 2], &b),
        Err(GraphError::UnknownNode(n(5)))
    );
    assert_eq!(
        (g.node_count(), g.edge_count()),
        (1, 0),
        "failed blocks add nothing"
    );
    let first = g.add_block(TEXT, &[10, 11, 12, 13, 14], &b)?;
    assert_eq!(first, n(1));
    assert_eq!(g.payload(n(5)), Some(14));
    assert_eq!(
        g.edges(n(2)).map(|e| e.collect::<Vec<_>>()),
        Some(vec![tn(0), ts(4)])
    );
    assert_eq!(
        g.edges(n(4)).map(|e| e.collect::<Vec<_>>()),
        Some(vec![tn(5)])
    );
    assert_eq!(g.edges(n(1)).map(|e| e.len()), Some(0));
    // Nodes of a block without edges can still get them, once.
    g.set_edges(n(1), [tn(2)])?;
    assert_eq!(
        g.set_edges(n(2), []),
        Err(GraphError::EdgesAlreadySet(n(2)))
    );
    Ok(())
}

#[test]
fn block_edges_set_on_existing_nodes() -> Result<(), Box<dyn std::error::Error>> {
    // A file's three nodes exist without edges until the loader loads the file: the walk then
    // continues into the edges the loader set.
    let mut g = Graph::new();
    let root = g.add_node(TEXT, 0)?;
    g.set_edges(root, [ts(0)])?;
    let first = g.add_block(TEXT, &[1, 2, 3], &EdgeBlock::new())?;
    g.add_root(root, RootReason(1))?;
    let mut late = EdgeBlock::new();
    late.set_edges(0, [tn(first.0 + 2), ts(7)])?;
    let mut bad = EdgeBlock::new();
    bad.set_edges(0, [tn(99)])?;
    assert_eq!(
        g.set_block_edges(first, &bad),
        Err(GraphError::UnknownNode(n(99))),
        "edges name existing nodes"
    );
    let mut asked = Vec::new();
    let mut loader = |sym: SymId, _: Cause, g: &mut Graph| -> Result<Definition, GraphError> {
        asked.push(sym.0);
        if sym.0 == 0 {
            g.set_block_edges(first, &late)?;
            return Ok(Definition::Node(first));
        }
        Ok(Definition::Undefined { weak: false })
    };
    let live = g.walk(&mut loader)?;
    assert_eq!(asked, vec![0, 7], "the loaded node's edges were followed");
    assert!(live.is_live(n(first.0 + 2)));
    assert!(!live.is_live(n(first.0 + 1)));
    // Node `first + 2` was scanned with no edges: setting them now is refused.
    let mut again = EdgeBlock::new();
    again.set_edges(2, [ts(1)])?;
    assert_eq!(
        g.set_block_edges(first, &again),
        Err(GraphError::EdgesAlreadySet(n(first.0 + 2)))
    );
    assert_eq!(
        g.set_block_edges(first, &late),
        Err(GraphError::EdgesAlreadySet(first)),
        "once"
    );
    Ok(())
}

#[test]
fn blocks_walk_like_set_edges() {
    for seed in [3, 4, 5] {
        let world = random_world(seed, 2000, 3000, 300);
        let (mut one, mut ar1) = build(&world).expect("valid graph");
        // The same nodes and edges, given as one block (the loader's fixed definitions name
        // these node ids, so the block starts at node 0).
        let mut blocked = Graph::new();
        let mut block = EdgeBlock::new();
        for (i, edges) in world.initial.iter().enumerate() {
            let targets = edges.iter().map(|e| match *e {
                Local::Node(l) => tn(l as u32),
                Local::Sym(x) => ts(x),
            });
            block.set_edges(i as u32, targets).expect("valid block");
        }
        let payloads: Vec<u64> = (0..world.initial.len() as u64).collect();
        assert_eq!(blocked.add_block(TEXT, &payloads, &block), Ok(n(0)));
        for &(i, r) in &world.node_roots {
            blocked.add_root(n(i as u32), r).expect("root");
        }
        for &(x, r) in &world.sym_roots {
            blocked.add_root_symbol(s(x), r).expect("root");
        }
        let mut ar2 = world.archives.clone();
        let a = one.walk(&mut ar1).expect("walk");
        let b = blocked.walk(&mut ar2).expect("walk");
        assert_eq!(
            a.discovery_order().collect::<Vec<_>>(),
            b.discovery_order().collect::<Vec<_>>(),
            "seed {seed}"
        );
        assert_eq!(
            a.live_symbols().collect::<Vec<_>>(),
            b.live_symbols().collect::<Vec<_>>(),
            "seed {seed}"
        );
        assert_eq!(ar1.calls, ar2.calls, "seed {seed}");
    }
}

// ---------------------------------------------------------------------------------------------
// Random graphs against a naive reference.

/// splitmix64: tiny, deterministic, good enough for test graphs; avoids a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Identity of a node independent of load order: (member + 1, local) or (0, initial index).
type Ident = (usize, usize);

/// A random world: initial nodes, symbols defined by initial nodes or lazy members or nothing.
struct World {
    initial: Vec<Vec<Local>>,
    archives: Archives,
    node_roots: Vec<(usize, RootReason)>,
    sym_roots: Vec<(u32, RootReason)>,
}

fn random_world(seed: u64, nodes: usize, syms: u32, members: usize) -> World {
    let mut rng = Rng(seed);
    let mut ar = Archives::default();
    let random_edges = |rng: &mut Rng, count: usize| -> Vec<Vec<Local>> {
        (0..count)
            .map(|_| {
                let degree = rng.below(6);
                (0..degree)
                    .map(|_| {
                        if rng.below(4) == 0 {
                            Local::Node(rng.below(count))
                        } else {
                            Local::Sym(rng.below(syms as usize) as u32)
                        }
                    })
                    .collect()
            })
            .collect()
    };
    let initial = random_edges(&mut rng, nodes);
    let mut member_defs: Vec<Member> = (0..members)
        .map(|_| {
            let count = 1 + rng.below(4);
            // Some members carry a root (an `.init_array` section) that is live once loaded.
            let roots = if rng.below(10) == 0 {
                vec![(rng.below(count), INIT_ARRAY)]
            } else {
                Vec::new()
            };
            Member {
                nodes: random_edges(&mut rng, count),
                roots,
                ..Member::default()
            }
        })
        .collect();
    for sym in 0..syms {
        match rng.below(10) {
            0..=3 => {
                let node = rng.below(nodes);
                ar.fixed.insert(sym, Definition::Node(NodeId(node as u32)));
            }
            4..=7 => {
                let m = rng.below(members);
                let local = rng.below(member_defs[m].nodes.len());
                member_defs[m].defines.push((sym, local));
                if rng.below(8) == 0 {
                    ar.weak.insert(sym);
                }
            }
            8 => {
                ar.fixed.insert(sym, Definition::External);
            }
            _ => {
                if rng.below(2) == 0 {
                    ar.weak.insert(sym);
                }
            }
        }
    }
    for m in member_defs {
        ar.member(m);
    }
    let node_roots = (0..3).map(|i| (rng.below(nodes), RootReason(i))).collect();
    let sym_roots = (0..3)
        .map(|i| (rng.below(syms as usize) as u32, RootReason(10 + i)))
        .collect();
    World {
        initial,
        archives: ar,
        node_roots,
        sym_roots,
    }
}

fn build(world: &World) -> Result<(Graph, Archives), GraphError> {
    let mut g = Graph::new();
    for i in 0..world.initial.len() {
        g.add_node(TEXT, i as u64)?;
    }
    for (i, edges) in world.initial.iter().enumerate() {
        let targets = edges.iter().map(|e| match *e {
            Local::Node(l) => tn(l as u32),
            Local::Sym(x) => ts(x),
        });
        g.set_edges(n(i as u32), targets)?;
    }
    for &(i, r) in &world.node_roots {
        g.add_root(n(i as u32), r)?;
    }
    for &(x, r) in &world.sym_roots {
        g.add_root_symbol(s(x), r)?;
    }
    Ok((g, world.archives.clone()))
}

/// What the naive reference computes.
struct Reference {
    /// Live node identities with their BFS distance from the roots.
    dist: BTreeMap<Ident, usize>,
    reached_syms: BTreeSet<u32>,
    loaded: BTreeSet<usize>,
    undefined: BTreeSet<(u32, bool)>,
}

/// Plain textbook BFS over the world description (no loader, no caching, no graph): a symbol's
/// definition is looked up directly, members "exist" from the start, and a member counts as
/// loaded when a reached symbol would load it. Weak references to lazy symbols are modelled as
/// lld does: they do not load, but once the member is loaded for another reason they bind.
fn reference(world: &World) -> Reference {
    let ar = &world.archives;
    let edges_of = |id: Ident| -> &Vec<Local> {
        if id.0 == 0 {
            &world.initial[id.1]
        } else {
            &ar.members[id.0 - 1].nodes[id.1]
        }
    };
    // The set of loaded members depends on which symbols are reached, which depends on which
    // members are loaded: iterate to a fixpoint.
    let mut loaded: BTreeSet<usize> = BTreeSet::new();
    loop {
        let def = |sym: u32| -> Option<Ident> {
            if let Some(d) = ar.fixed.get(&sym) {
                return match d {
                    Definition::Node(x) => Some((0, x.index())),
                    _ => None,
                };
            }
            let &(m, local) = ar.lazy.get(&sym)?;
            (!ar.weak.contains(&sym) || loaded.contains(&m)).then_some((m + 1, local))
        };
        let mut dist: BTreeMap<Ident, usize> = BTreeMap::new();
        let mut queue = VecDeque::new();
        let mut reached = BTreeSet::new();
        let push = |id: Ident, d: usize, dist: &mut BTreeMap<Ident, usize>, q: &mut VecDeque<_>| {
            if let std::collections::btree_map::Entry::Vacant(e) = dist.entry(id) {
                e.insert(d);
                q.push_back(id);
            }
        };
        for &(i, _) in &world.node_roots {
            push((0, i), 0, &mut dist, &mut queue);
        }
        for m in &loaded {
            for &(local, _) in &ar.members[*m].roots {
                push((m + 1, local), 0, &mut dist, &mut queue);
            }
        }
        for &(x, _) in &world.sym_roots {
            reached.insert(x);
            if let Some(id) = def(x) {
                push(id, 0, &mut dist, &mut queue);
            }
        }
        while let Some(id) = queue.pop_front() {
            let d = dist[&id];
            for e in edges_of(id) {
                match *e {
                    Local::Node(l) => push((id.0, l), d + 1, &mut dist, &mut queue),
                    Local::Sym(x) => {
                        reached.insert(x);
                        if let Some(t) = def(x) {
                            push(t, d + 1, &mut dist, &mut queue);
                        }
                    }
                }
            }
        }
        let now: BTreeSet<usize> = reached
            .iter()
            .filter(|&&x| !ar.fixed.contains_key(&x))
            .filter_map(|&x| def(x).map(|t| t.0 - 1))
            .collect();
        if now == loaded {
            let undefined = reached
                .iter()
                .filter(|&&x| !ar.fixed.contains_key(&x) && def(x).is_none())
                .map(|&x| (x, ar.weak.contains(&x)))
                .collect();
            return Reference {
                dist,
                reached_syms: reached,
                loaded,
                undefined,
            };
        }
        loaded = now;
    }
}

fn ident(g: &Graph, node: NodeId) -> Option<Ident> {
    let p = g.payload(node)?;
    Some(if p >> 32 == 0 {
        (0, p as usize)
    } else {
        ((p >> 32) as usize, (p & 0xffff_ffff) as usize)
    })
}

/// Checks that every step of a chain is a real edge (or root) of the graph.
fn check_chain(g: &Graph, live: &Liveness, chain: &[Step]) {
    let Some((Step::Root(reason), rest)) = chain.split_first() else {
        panic!("chain does not start at a root: {chain:?}");
    };
    match rest.first() {
        Some(Step::Node(x)) => {
            assert!(
                g.roots().contains(&(Target::Node(*x), *reason)),
                "{chain:?}"
            )
        }
        Some(Step::Symbol(x)) => {
            assert!(
                g.roots().contains(&(Target::Symbol(*x), *reason)),
                "{chain:?}"
            )
        }
        other => panic!("bad chain start {other:?}"),
    }
    for w in rest.windows(2) {
        match (w[0], w[1]) {
            (Step::Node(a), Step::Node(b)) => {
                assert!(g
                    .edges(a)
                    .is_some_and(|mut e| e.any(|t| t == Target::Node(b))))
            }
            (Step::Node(a), Step::Symbol(x)) => {
                assert!(g
                    .edges(a)
                    .is_some_and(|mut e| e.any(|t| t == Target::Symbol(x))))
            }
            (Step::Symbol(x), Step::Node(b)) => {
                assert_eq!(live.symbol_definition(x), Some(Definition::Node(b)))
            }
            other => panic!("bad chain hop {other:?} in {chain:?}"),
        }
    }
}

/// What a random case exercised, to check that the cases are not trivial.
#[derive(Default)]
struct Coverage {
    loaded: usize,
    dead: usize,
    upgraded: usize,
    member_roots: usize,
    shortest_checked: usize,
    undefined: usize,
}

fn check_against_reference(seed: u64, nodes: usize, syms: u32, members: usize, cov: &mut Coverage) {
    let world = random_world(seed, nodes, syms, members);
    let expect = reference(&world);
    let (mut g, mut ar) = build(&world).expect("valid graph");
    let live = g.walk(&mut ar).expect("walk");

    let live_idents: BTreeSet<Ident> = live.live_nodes().filter_map(|x| ident(&g, x)).collect();
    let expect_idents: BTreeSet<Ident> = expect.dist.keys().copied().collect();
    assert_eq!(live_idents, expect_idents, "seed {seed}: live sets differ");
    assert_eq!(
        live.live_symbols().map(|x| x.0).collect::<BTreeSet<_>>(),
        expect.reached_syms,
        "seed {seed}: reached symbols differ"
    );
    assert_eq!(
        ar.loaded.keys().copied().collect::<BTreeSet<_>>(),
        expect.loaded,
        "seed {seed}: loaded members differ"
    );
    assert_eq!(
        live.undefined()
            .map(|u| (u.sym.0, u.weak))
            .collect::<BTreeSet<_>>(),
        expect.undefined,
        "seed {seed}: undefined symbols differ"
    );
    // Each symbol asked once, except weak ones re-asked after a member load defined them.
    let mut asked = BTreeMap::new();
    for (x, _) in &ar.calls {
        *asked.entry(x.0).or_insert(0) += 1;
    }
    for (x, count) in asked {
        assert!(
            count == 1 || ar.weak.contains(&x),
            "seed {seed}: {x} asked {count} times"
        );
    }
    // Chains are valid; without changed definitions or roots added mid-walk they are also
    // shortest.
    let upgraded = ar.calls.len().saturating_sub(live.stats().reached_symbols);
    let member_roots = ar
        .loaded
        .keys()
        .filter(|&&m| !ar.members[m].roots.is_empty())
        .count();
    let shortest = upgraded == 0 && member_roots == 0;
    cov.loaded += ar.loaded.len();
    cov.dead += live.dead_nodes().count();
    cov.upgraded += upgraded;
    cov.member_roots += member_roots;
    cov.undefined += expect.undefined.len();
    cov.shortest_checked += usize::from(shortest);
    for x in live.live_nodes() {
        let chain = live.why_live(x).expect("live node has a chain");
        check_chain(&g, &live, &chain);
        let hops = chain
            .iter()
            .filter(|st| matches!(st, Step::Node(_)))
            .count()
            - 1;
        let id = ident(&g, x).expect("node exists");
        if shortest {
            assert_eq!(
                hops, expect.dist[&id],
                "seed {seed}: chain of {id:?} not shortest"
            );
        }
    }
    for x in live.live_symbols() {
        let chain = live.why_live_symbol(x).expect("reached symbol has a chain");
        assert_eq!(chain.last(), Some(&Step::Symbol(x)));
    }
    assert_eq!(
        live.dead_nodes().count() + live.live_count(),
        g.node_count(),
        "seed {seed}"
    );
}

#[test]
fn random_graphs_match_naive_reference() {
    let mut cov = Coverage::default();
    for seed in 0..300 {
        let nodes = 1 + seed as usize % 40;
        let syms = 1 + seed as u32 % 50;
        let members = 1 + seed as usize % 12;
        check_against_reference(seed, nodes, syms, members, &mut cov);
    }
    for seed in 1000..1010 {
        check_against_reference(seed, 3000, 4000, 600, &mut cov);
    }
    // The cases exercise lazy loads, dead code, weak upgrades, member roots, undefined symbols,
    // and the shortest-chain check.
    assert!(cov.loaded > 100 && cov.dead > 100 && cov.undefined > 100);
    assert!(cov.upgraded > 0 && cov.member_roots > 0 && cov.shortest_checked > 50);
}

#[test]
fn walks_are_deterministic() {
    for seed in [7, 8, 9] {
        let world = random_world(seed, 2000, 3000, 300);
        let run = || {
            let (mut g, mut ar) = build(&world).expect("valid graph");
            let live = g.walk(&mut ar).expect("walk");
            let chains: Vec<_> = (0..g.node_count() as u32)
                .map(|x| live.why_live(n(x)))
                .collect();
            (
                live.discovery_order().collect::<Vec<_>>(),
                live.live_symbols().collect::<Vec<_>>(),
                live.undefined().collect::<Vec<_>>(),
                live.undefined_references(&g).expect("same graph"),
                chains,
                ar.calls,
                live.stats(),
            )
        };
        assert_eq!(run(), run());
    }
}
