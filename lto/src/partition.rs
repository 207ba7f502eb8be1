//! LLVM's balanced partitioning and temporal profiles, for the linker's
//! section orderer (`--bp-compression-sort=`, `--bp-startup-sort=`).
//!
//! They live in this crate because it is the one that links LLVM: lld's
//! orderer is built on `llvm::BalancedPartitioning` and on
//! `llvm::InstrProfReader`, and using the same two (through
//! `shim/layout_shim.cpp`) gives weld lld's order for the same nodes. Which
//! sections become nodes, and with which utility nodes, is the linker's
//! business (`weld::bp_section_order`).

use crate::ffi;
use std::path::Path;

/// One node of a balanced partitioning: an id the caller chooses and the
/// utility nodes it shares with other nodes (each at most once).
#[derive(Clone, Debug)]
pub struct PartitionNode {
    /// Returned in the new order.
    pub id: u64,
    /// Nodes sharing a utility node are pulled together.
    pub utility_nodes: Vec<u32>,
}

/// Orders `nodes` with `llvm::BalancedPartitioning` in its default
/// configuration (lld's: 18 levels of bisection, 40 iterations per split) and
/// returns their ids in the new order. The result depends on the input order,
/// which is the initial assignment. Fails only without the `llvm` feature.
pub fn balanced_partitioning(nodes: &[PartitionNode]) -> Result<Vec<u64>, String> {
    let ids: Vec<u64> = nodes.iter().map(|n| n.id).collect();
    let mut starts = Vec::with_capacity(nodes.len() + 1);
    let mut uns = Vec::new();
    starts.push(0);
    for n in nodes {
        uns.extend_from_slice(&n.utility_nodes);
        starts.push(uns.len());
    }
    ffi::balanced_partitioning(&ids, &starts, &uns)
}

/// The temporal profile traces of an IRPGO profile (indexed or raw, as
/// `llvm-profdata` writes them), each a list of function names in the order
/// the functions were first called. Names are the function part of the IRPGO
/// name (no `file;` prefix); an entry the profile's symbol table cannot name
/// is an empty string. The error is LLVM's message.
pub fn read_temporal_profile(path: &Path) -> Result<Vec<Vec<String>>, String> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = ffi::read_temporal_traces(path.as_os_str().as_bytes())?;
    let mut r = Reader {
        bytes: &bytes,
        at: 0,
    };
    let count = r.u64()?;
    let mut traces = Vec::new();
    for _ in 0..count {
        let names = r.u64()?;
        let mut trace = Vec::new();
        for _ in 0..names {
            let len = r.u64()? as usize;
            trace.push(String::from_utf8_lossy(r.take(len)?).into_owned());
        }
        traces.push(trace);
    }
    Ok(traces)
}

/// Reads the shim's little-endian trace encoding.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end =
            end.ok_or_else(|| "truncated temporal profile traces from the shim".to_string())?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u64(&mut self) -> Result<u64, String> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(
            b.try_into().map_err(|_| "short read".to_string())?,
        ))
    }
}
