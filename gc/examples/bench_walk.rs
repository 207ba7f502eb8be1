//! Micro-benchmark of the liveness walk on a random graph of 10^5 nodes and 10^6 edges, the size
//! of the mark phase of a large C++ link with `-ffunction-sections`.
//!
//! Run with `cargo run --release -p gc --example bench_walk [-- NODES EDGES]`.
//!
//! Three scenarios:
//! * `resolved`: every symbol's definition known up front (the default, lld-compatible mode,
//!   where archive members were selected before the walk);
//! * `lazy`: half of the nodes live in 5,000 archive members that the loader adds to the graph
//!   while the walk runs (`--gc-archive-members`);
//! * `why-live`: the cost of printing a chain for every live node afterwards.
//!
//! For comparison with lld, assemble an object of the same shape (10^5 functions, each in its own
//! section with 0 to 20 `call fN` to random functions, i.e. about 10^6 `R_X86_64_PLT32`
//! relocations against global symbols), link it with
//! `ld.lld-22 big.o -e f0 --gc-sections --time-trace` and read the `markLive` event.

use gc::{Cause, Definition, Definitions, Graph, GraphError, NodeId, RootReason, SymId, Target};
use std::time::{Duration, Instant};

/// splitmix64: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }
}

/// A graph description: per node, a range of `edges`. Symbol `i` is defined by node `i % nodes`
/// (one global symbol per section, as with `-ffunction-sections`); 3 of 4 edges go through a
/// symbol, the rest are direct (relocations against section symbols).
struct Shape {
    nodes: u32,
    syms: u32,
    offsets: Vec<usize>,
    edges: Vec<Target>,
}

fn shape(nodes: u32, edges: usize, seed: u64) -> Shape {
    let mut rng = Rng(seed);
    let syms = nodes;
    let mut offsets = Vec::with_capacity(nodes as usize + 1);
    let mut out = Vec::with_capacity(edges);
    let avg = (edges / nodes as usize) as u32;
    offsets.push(0);
    for _ in 0..nodes {
        // Degrees vary between 0 and 2*avg, as relocation counts do.
        let degree = rng.below(2 * avg + 1);
        for _ in 0..degree {
            if rng.below(4) == 0 {
                out.push(Target::Node(NodeId(rng.below(nodes))));
            } else {
                out.push(Target::Symbol(SymId(rng.below(syms))));
            }
        }
        offsets.push(out.len());
    }
    Shape {
        nodes,
        syms,
        offsets,
        edges: out,
    }
}

/// Builds the graph with the first `eager` nodes present up front.
fn build(sh: &Shape, eager: u32) -> Result<Graph, GraphError> {
    let mut g = Graph::with_capacity(sh.nodes as usize, sh.edges.len());
    for i in 0..eager {
        g.add_node(0, u64::from(i))?;
    }
    for i in 0..eager as usize {
        // Direct edges into the lazy half would name nodes that do not exist yet; a real object
        // never has direct edges into another file, so redirect them through the symbol.
        let edges = sh.edges[sh.offsets[i]..sh.offsets[i + 1]]
            .iter()
            .map(|&t| match t {
                Target::Node(n) if n.0 >= eager => Target::Symbol(SymId(n.0)),
                t => t,
            });
        g.set_edges(NodeId(i as u32), edges)?;
    }
    // A few hundred roots, like an executable's entry point, init arrays and retained sections.
    for i in (0..eager).step_by(500) {
        g.add_root(NodeId(i), RootReason(0))?;
    }
    Ok(g)
}

fn time<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let start = Instant::now();
    let out = f();
    (start.elapsed(), out)
}

/// Minimum and median of several runs: the minimum is the least noisy estimate of the cost.
fn report(name: &str, mut times: Vec<Duration>, count: u64, unit: &str) {
    times.sort();
    let (Some(&min), Some(&median)) = (times.first(), times.get(times.len() / 2)) else {
        return;
    };
    println!(
        "{name:>10}: min {:>8.3} ms  median {:>8.3} ms  ({:.2} ns/{unit})",
        min.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3,
        min.as_secs_f64() * 1e9 / count.max(1) as f64
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let nodes: u32 = args.get(1).map_or(Ok(100_000), |s| s.parse())?;
    let edges: usize = args.get(2).map_or(Ok(1_000_000), |s| s.parse())?;
    let runs = 15;
    let sh = shape(nodes, edges, 42);
    println!(
        "graph: {} nodes, {} edges, {} symbols, {runs} runs each",
        sh.nodes,
        sh.edges.len(),
        sh.syms
    );

    // Definitions: all nodes present, definitions known.
    let defs: Vec<Definition> = (0..sh.syms)
        .map(|s| Definition::Node(NodeId(s % sh.nodes)))
        .collect();
    let (build_time, g) = time(|| build(&sh, sh.nodes));
    let mut g = g?;
    println!(
        "     build: {:>8.3} ms (add_node + set_edges for the whole graph)",
        build_time.as_secs_f64() * 1e3
    );
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let (t, live) = time(|| g.walk(&mut Definitions(&defs)));
        times.push(t);
        last = Some(live?);
    }
    let live = last.ok_or("no run")?;
    let stats = live.stats();
    println!(
        "  resolved: {} live nodes, {} symbols reached, {} edges scanned, {} loader calls",
        stats.live_nodes, stats.reached_symbols, stats.edges_scanned, stats.loader_calls
    );
    report("resolved", times, stats.edges_scanned, "edge scanned");

    // why-live for every live node, and the dead-node listing.
    let mut times = Vec::new();
    let mut steps = 0;
    for _ in 0..runs {
        let (t, n) = time(|| {
            live.live_nodes()
                .filter_map(|n| live.why_live(n))
                .map(|c| c.len())
                .sum::<usize>()
        });
        times.push(t);
        steps = n;
    }
    println!(
        "  why-live: {} chains, {:.2} steps on average",
        stats.live_nodes,
        steps as f64 / stats.live_nodes.max(1) as f64
    );
    report("why-live", times, stats.live_nodes as u64, "chain");

    // Lazy: the second half of the nodes belongs to archive members of 10 nodes each, added by
    // the loader when one of their symbols is first reached.
    let eager = sh.nodes / 2;
    let member_size = 10;
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let mut g = build(&sh, eager)?;
        // Per member, the id of its first node once loaded.
        let mut base: Vec<Option<u32>> =
            vec![None; ((sh.nodes - eager) / member_size + 1) as usize];
        let mut loader = |sym: SymId, _: Cause, g: &mut Graph| -> Result<Definition, GraphError> {
            let def = sym.0 % sh.nodes;
            if def < eager {
                return Ok(Definition::Node(NodeId(def)));
            }
            let member = ((def - eager) / member_size) as usize;
            let first = eager + member as u32 * member_size;
            let b = match base[member] {
                Some(b) => b,
                None => {
                    let b = g.node_count() as u32;
                    let last = (first + member_size).min(sh.nodes);
                    for orig in first..last {
                        g.add_node(0, u64::from(orig))?;
                    }
                    for orig in first..last {
                        let o = orig as usize;
                        // Direct edges stay inside the member; others go through symbols.
                        let edges =
                            sh.edges[sh.offsets[o]..sh.offsets[o + 1]]
                                .iter()
                                .map(|&t| match t {
                                    Target::Node(n) if n.0 >= first && n.0 < last => {
                                        Target::Node(NodeId(b + n.0 - first))
                                    }
                                    Target::Node(n) => Target::Symbol(SymId(n.0)),
                                    t => t,
                                });
                        g.set_edges(NodeId(b + orig - first), edges)?;
                    }
                    base[member] = Some(b);
                    b
                }
            };
            Ok(Definition::Node(NodeId(b + def - first)))
        };
        // Time the walk only: the graph was built above, member loading is part of the walk.
        let (t, live) = time(|| g.walk(&mut loader));
        times.push(t);
        last = Some(live?.stats());
    }
    let stats = last.ok_or("no run")?;
    println!(
        "      lazy: {} live nodes, {} symbols reached, {} edges scanned, {} loader calls",
        stats.live_nodes, stats.reached_symbols, stats.edges_scanned, stats.loader_calls
    );
    report("lazy", times, stats.edges_scanned, "edge scanned");
    Ok(())
}
