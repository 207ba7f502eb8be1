//! Orders the sections of a call graph profile as lld does: call-chain clustering (C3,
//! `--call-graph-profile-sort=hfsort`) and cache-directed sort (`cdsort`, the default, LLVM's
//! `codelayout::computeCacheDirectedLayout`). Both work on an abstract graph of nodes (sections,
//! with their sizes) and weighted edges in the order the profile listed them; the arithmetic
//! (f64, the same operations in the same order) and the tie-breaking are LLVM's, so the same
//! profile gives lld's order.

use std::collections::BTreeMap;

/// A profile edge: caller node, callee node, weight.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub weight: u64,
}

// ---------------------------------------------------------------------------------------------
// hfsort (C3)

/// A cluster's merged density is not allowed to fall below its own density divided by this.
const MAX_DENSITY_DEGRADATION: f64 = 8.0;
/// The largest cluster, in bytes.
const MAX_CLUSTER_SIZE: u64 = 1024 * 1024;

#[derive(Clone, Debug)]
struct Cluster {
    next: usize,
    prev: usize,
    size: u64,
    weight: u64,
    initial_weight: u64,
    /// The heaviest caller and its edge weight.
    best_pred: Option<(usize, u64)>,
}

impl Cluster {
    fn density(&self) -> f64 {
        if self.size == 0 {
            0.0
        } else {
            self.weight as f64 / self.size as f64
        }
    }
}

/// Call-chain clustering over `sizes.len()` nodes: the nodes in their final order (nodes are
/// numbered in order of first appearance in the profile, as lld numbers them). Each node is
/// attached behind its heaviest caller's cluster unless the edge is unlikely or the merged
/// cluster would be too large or too sparse; clusters are then laid out by density.
pub fn hfsort(sizes: &[u64], edges: &[Edge]) -> Vec<usize> {
    let mut clusters: Vec<Cluster> = sizes
        .iter()
        .enumerate()
        .map(|(i, &size)| Cluster {
            next: i,
            prev: i,
            size,
            weight: 0,
            initial_weight: 0,
            best_pred: None,
        })
        .collect();
    for e in edges {
        clusters[e.to].weight += e.weight;
        if e.from == e.to {
            continue;
        }
        let c = &mut clusters[e.to];
        if c.best_pred.is_none_or(|(_, w)| w < e.weight) {
            c.best_pred = Some((e.from, e.weight));
        }
    }
    for c in clusters.iter_mut() {
        c.initial_weight = c.weight;
    }

    let n = clusters.len();
    let mut leaders: Vec<usize> = (0..n).collect();
    let mut sorted: Vec<usize> = (0..n).collect();
    // A stable sort by decreasing density, as llvm::stable_sort with `>`.
    sorted.sort_by(|&a, &b| {
        clusters[b]
            .density()
            .partial_cmp(&clusters[a].density())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    for &l in &sorted {
        let Some((pred, pred_weight)) = clusters[l].best_pred else {
            continue;
        };
        // An unlikely edge is not worth a merge.
        if pred_weight.wrapping_mul(10) <= clusters[l].initial_weight {
            continue;
        }
        let pred_l = leader(&mut leaders, pred);
        if l == pred_l {
            continue;
        }
        if clusters[l].size + clusters[pred_l].size > MAX_CLUSTER_SIZE {
            continue;
        }
        let (a, b) = (&clusters[pred_l], &clusters[l]);
        let new_density = (a.weight + b.weight) as f64 / (a.size + b.size) as f64;
        if new_density < a.density() / MAX_DENSITY_DEGRADATION {
            continue;
        }
        leaders[l] = pred_l;
        merge_clusters(&mut clusters, pred_l, l);
    }

    let mut sorted: Vec<usize> = (0..n).filter(|&i| clusters[i].size > 0).collect();
    sorted.sort_by(|&a, &b| {
        clusters[b]
            .density()
            .partial_cmp(&clusters[a].density())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut order = Vec::with_capacity(n);
    for &l in &sorted {
        let mut i = l;
        loop {
            order.push(i);
            i = clusters[i].next;
            if i == l {
                break;
            }
        }
    }
    order
}

/// The leader of `v`'s cluster, halving the path on the way (union-find).
fn leader(leaders: &mut [usize], mut v: usize) -> usize {
    while leaders[v] != v {
        leaders[v] = leaders[leaders[v]];
        v = leaders[v];
    }
    v
}

/// Appends cluster `from` (a circular list) to cluster `into`.
fn merge_clusters(cs: &mut [Cluster], into: usize, from: usize) {
    let tail1 = cs[into].prev;
    let tail2 = cs[from].prev;
    cs[into].prev = tail2;
    cs[tail2].next = into;
    cs[from].prev = tail1;
    cs[tail1].next = from;
    cs[into].size += cs[from].size;
    cs[into].weight += cs[from].weight;
    cs[from].size = 0;
    cs[from].weight = 0;
}

// ---------------------------------------------------------------------------------------------
// cdsort

/// LLVM's `CDSortConfig` defaults.
const CACHE_ENTRIES: f64 = 16.0;
const CACHE_SIZE: f64 = 2048.0;
const MAX_CHAIN_SIZE: usize = 128;
const DISTANCE_POWER: f64 = 0.25;
const FREQUENCY_SCALE: f64 = 0.25;
/// LLVM's epsilon for comparing gains.
const EPS: f64 = 1e-8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MergeType {
    XY,
    YX,
}

/// A merge's gain; -1 is LLVM's "not computed" value.
#[derive(Clone, Copy, Debug)]
struct Gain {
    score: f64,
    merge: MergeType,
}

impl Default for Gain {
    fn default() -> Gain {
        Gain {
            score: -1.0,
            merge: MergeType::XY,
        }
    }
}

struct Node {
    size: u64,
    count: u64,
    chain: usize,
    addr: u64,
    in_jumps: Vec<usize>,
    out_jumps: Vec<usize>,
}

struct Jump {
    source: usize,
    target: usize,
    count: u64,
    offset: u64,
}

struct Chain {
    id: u64,
    count: u64,
    size: u64,
    nodes: Vec<usize>,
    /// Adjacent chains and the edge to each, in LLVM's order.
    edges: Vec<(usize, usize)>,
}

struct ChainEdge {
    src: usize,
    dst: usize,
    jumps: Vec<usize>,
    gain: Gain,
}

/// An f64 ordered totally (gains are never NaN), for the priority queue's key.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key(f64, u64, u64);

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> std::cmp::Ordering {
        self.0
            .partial_cmp(&other.0)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(self.1.cmp(&other.1))
            .then(self.2.cmp(&other.2))
    }
}

struct CdSort {
    nodes: Vec<Node>,
    jumps: Vec<Jump>,
    chains: Vec<Chain>,
    edges: Vec<ChainEdge>,
    total_samples: u64,
    total_size: u64,
}

/// Cache-directed sort over `sizes.len()` nodes with node counts `counts` and calls `edges`
/// made from `offsets[i]` bytes into the caller: the nodes in their final order.
pub fn cdsort(sizes: &[u64], counts: &[u64], edges: &[Edge], offsets: &[u64]) -> Vec<usize> {
    let mut s = CdSort {
        nodes: Vec::with_capacity(sizes.len()),
        jumps: Vec::new(),
        chains: Vec::with_capacity(sizes.len()),
        edges: Vec::new(),
        total_samples: 0,
        total_size: 0,
    };
    for (i, &size) in sizes.iter().enumerate() {
        let size = size.max(1);
        s.nodes.push(Node {
            size,
            count: counts[i],
            chain: i,
            addr: 0,
            in_jumps: Vec::new(),
            out_jumps: Vec::new(),
        });
        s.total_samples += counts[i];
        if counts[i] > 0 {
            s.total_size += size;
        }
    }
    for (i, e) in edges.iter().enumerate() {
        if e.from == e.to || e.weight == 0 {
            continue;
        }
        let j = s.jumps.len();
        s.jumps.push(Jump {
            source: e.from,
            target: e.to,
            count: e.weight,
            offset: offsets[i],
        });
        s.nodes[e.to].in_jumps.push(j);
        s.nodes[e.from].out_jumps.push(j);
        s.nodes[e.from].count = s.nodes[e.from].count.max(e.weight);
        s.nodes[e.to].count = s.nodes[e.to].count.max(e.weight);
    }
    for i in 0..s.nodes.len() {
        let inc: u64 = s.nodes[i].in_jumps.iter().map(|&j| s.jumps[j].count).sum();
        let out: u64 = s.nodes[i].out_jumps.iter().map(|&j| s.jumps[j].count).sum();
        let n = &mut s.nodes[i];
        n.count = n.count.max(inc).max(out);
        s.chains.push(Chain {
            id: i as u64,
            count: n.count,
            size: n.size,
            nodes: vec![i],
            edges: Vec::new(),
        });
    }
    for pred in 0..s.nodes.len() {
        for k in 0..s.nodes[pred].out_jumps.len() {
            let j = s.nodes[pred].out_jumps[k];
            let succ = s.jumps[j].target;
            let (pc, sc) = (s.nodes[pred].chain, s.nodes[succ].chain);
            if let Some(e) = s.edge_between(pc, sc) {
                s.edges[e].jumps.push(j);
                continue;
            }
            let e = s.edges.len();
            s.edges.push(ChainEdge {
                src: pc,
                dst: sc,
                jumps: vec![j],
                gain: Gain::default(),
            });
            s.chains[pc].edges.push((sc, e));
            s.chains[sc].edges.push((pc, e));
        }
    }
    s.merge_chain_pairs();
    s.concat_chains()
}

impl CdSort {
    fn edge_between(&self, a: usize, b: usize) -> Option<usize> {
        self.chains[a]
            .edges
            .iter()
            .find(|&&(c, _)| c == b)
            .map(|&(_, e)| e)
    }

    fn key(&self, e: usize) -> Key {
        let edge = &self.edges[e];
        Key(
            -edge.gain.score,
            self.chains[edge.src].id,
            self.chains[edge.dst].id,
        )
    }

    fn merge_chain_pairs(&mut self) {
        // LLVM's std::set of edges ordered by (-gain, source id, destination id); the keys of
        // the edges in the queue never change while they are in it.
        let mut queue: BTreeMap<Key, usize> = BTreeMap::new();
        for n in 0..self.nodes.len() {
            if self.nodes[n].count == 0 {
                continue;
            }
            let c = self.nodes[n].chain;
            for k in 0..self.chains[c].edges.len() {
                let e = self.chains[c].edges[k].1;
                if self.edges[e].src == self.edges[e].dst {
                    continue;
                }
                if self.edges[e].gain.score != -1.0 {
                    continue;
                }
                self.edges[e].gain = self.best_merge_gain(e);
                if self.edges[e].gain.score > EPS {
                    queue.entry(self.key(e)).or_insert(e);
                }
            }
        }
        while let Some((_, best)) = queue.pop_first() {
            let src = self.edges[best].src;
            let dst = self.edges[best].dst;
            for c in [src, dst] {
                for k in 0..self.chains[c].edges.len() {
                    let e = self.chains[c].edges[k].1;
                    let key = self.key(e);
                    if queue.get(&key) == Some(&e) {
                        queue.remove(&key);
                    }
                }
            }
            let merge = self.edges[best].gain.merge;
            self.merge_chains(src, dst, merge);
            for k in 0..self.chains[src].edges.len() {
                let e = self.chains[src].edges[k].1;
                let (a, b) = (self.edges[e].src, self.edges[e].dst);
                if a == b {
                    continue;
                }
                if self.chains[a].nodes.len() + self.chains[b].nodes.len() > MAX_CHAIN_SIZE {
                    continue;
                }
                self.edges[e].gain = self.best_merge_gain(e);
                if self.edges[e].gain.score > EPS {
                    queue.entry(self.key(e)).or_insert(e);
                }
            }
        }
    }

    fn best_merge_gain(&mut self, e: usize) -> Gain {
        let (src, dst) = (self.edges[e].src, self.edges[e].dst);
        let mut gain = Gain::default();
        for merge in [MergeType::XY, MergeType::YX] {
            let new = self.merge_gain(src, dst, e, merge);
            // Equal gains: keep the functions' original order.
            if (gain.score - new.score).abs() < EPS {
                let (si, di) = (self.chains[src].id, self.chains[dst].id);
                if (merge == MergeType::XY && si < di) || (merge == MergeType::YX && si > di) {
                    gain = new;
                }
            } else if new.score > gain.score + EPS {
                gain = new;
            }
        }
        gain
    }

    fn merge_gain(&mut self, pred: usize, succ: usize, e: usize, merge: MergeType) -> Gain {
        let freq_gain = self.freq_gain(pred, succ);
        let (first, second) = match merge {
            MergeType::XY => (pred, succ),
            MergeType::YX => (succ, pred),
        };
        let mut addr = 0u64;
        for c in [first, second] {
            for k in 0..self.chains[c].nodes.len() {
                let n = self.chains[c].nodes[k];
                self.nodes[n].addr = addr;
                addr += self.nodes[n].size;
            }
        }
        let mut cur = 0.0;
        let mut new = 0.0;
        for &j in &self.edges[e].jumps {
            let jump = &self.jumps[j];
            let src_addr = self.nodes[jump.source].addr + jump.offset;
            let dst_addr = self.nodes[jump.target].addr;
            new += self.dist_score(src_addr, dst_addr, jump.count);
            cur += self.dist_score(0, self.total_size, jump.count);
        }
        let dist_gain = new - cur;
        let mut score = dist_gain + FREQUENCY_SCALE * freq_gain;
        if score >= 0.0 {
            score /= self.chains[pred].size.min(self.chains[succ].size) as f64;
        }
        Gain { score, merge }
    }

    fn miss_probability(&self, density: f64) -> f64 {
        let page_samples = density * CACHE_SIZE;
        if page_samples >= self.total_samples as f64 {
            return 0.0;
        }
        let p = page_samples / self.total_samples as f64;
        (1.0 - p).powf(CACHE_ENTRIES)
    }

    fn freq_gain(&self, pred: usize, succ: usize) -> f64 {
        let (a, b) = (&self.chains[pred], &self.chains[succ]);
        let density = |c: &Chain| c.count as f64 / c.size as f64;
        let cur = a.count as f64 * self.miss_probability(density(a))
            + b.count as f64 * self.miss_probability(density(b));
        let merged_counts = (a.count + b.count) as f64;
        let merged_size = (a.size + b.size) as f64;
        let new = merged_counts * self.miss_probability(merged_counts / merged_size);
        cur - new
    }

    fn dist_score(&self, src: u64, dst: u64, count: u64) -> f64 {
        let dist = src.abs_diff(dst);
        let d = if dist == 0 { 0.1 } else { dist as f64 };
        count as f64 * d.powf(-DISTANCE_POWER)
    }

    fn merge_chains(&mut self, into: usize, from: usize, merge: MergeType) {
        let mut nodes = Vec::new();
        match merge {
            MergeType::XY => {
                nodes.extend_from_slice(&self.chains[into].nodes);
                nodes.extend_from_slice(&self.chains[from].nodes);
            }
            MergeType::YX => {
                nodes.extend_from_slice(&self.chains[from].nodes);
                nodes.extend_from_slice(&self.chains[into].nodes);
            }
        }
        let (fc, fs) = (self.chains[from].count, self.chains[from].size);
        let c = &mut self.chains[into];
        c.count += fc;
        c.size += fs;
        c.id = nodes[0] as u64;
        for &n in &nodes {
            self.nodes[n].chain = into;
        }
        self.chains[into].nodes = nodes;

        // Move `from`'s edges to `into`, as LLVM's ChainT::mergeEdges.
        let from_edges = std::mem::take(&mut self.chains[from].edges);
        for &(dst_chain, dst_edge) in &from_edges {
            let target = if dst_chain == from { into } else { dst_chain };
            match self.edge_between(into, target) {
                None => {
                    let e = &mut self.edges[dst_edge];
                    if e.src == from {
                        e.src = into;
                    }
                    if e.dst == from {
                        e.dst = into;
                    }
                    self.chains[into].edges.push((target, dst_edge));
                    if dst_chain != into && dst_chain != from {
                        self.chains[dst_chain].edges.push((into, dst_edge));
                    }
                }
                Some(cur) => {
                    let moved = std::mem::take(&mut self.edges[dst_edge].jumps);
                    self.edges[cur].jumps.extend(moved);
                }
            }
            if dst_chain != from {
                let edges = &mut self.chains[dst_chain].edges;
                if let Some(p) = edges.iter().position(|&(c, _)| c == from) {
                    edges.remove(p);
                }
            }
        }
        self.chains[from].nodes.clear();
    }

    fn concat_chains(&self) -> Vec<usize> {
        let mut sorted: Vec<(f64, u64, usize)> = Vec::new();
        for (i, c) in self.chains.iter().enumerate() {
            if c.nodes.is_empty() {
                continue;
            }
            let mut size = 0.0;
            let mut count = 0.0;
            for &n in &c.nodes {
                size += self.nodes[n].size as f64;
                count += self.nodes[n].count as f64;
            }
            sorted.push((count / size, c.id, i));
        }
        // Decreasing density, ties by chain id (ids are distinct, so the order is total).
        sorted.sort_by(|a, b| {
            (-a.0)
                .partial_cmp(&-b.0)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.1.cmp(&b.1))
        });
        sorted
            .iter()
            .flat_map(|&(_, _, i)| self.chains[i].nodes.iter().copied())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(from: usize, to: usize, weight: u64) -> Edge {
        Edge { from, to, weight }
    }

    #[test]
    fn hfsort_puts_a_callee_behind_its_caller() {
        let order = hfsort(&[16, 16, 16], &[e(0, 2, 100), e(1, 1, 5)]);
        assert_eq!(order, vec![0, 2, 1]);
    }

    #[test]
    fn cdsort_keeps_every_node_once() {
        let sizes = [10, 20, 30, 40];
        let edges = [e(0, 1, 10), e(1, 2, 20), e(3, 0, 5)];
        let offsets = [5, 10, 20];
        let mut order = cdsort(&sizes, &[0; 4], &edges, &offsets);
        order.sort_unstable();
        assert_eq!(order, vec![0, 1, 2, 3]);
    }
}
