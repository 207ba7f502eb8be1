//! `--verify-precise-graph`: the safety net under the precise graph. Before LTO, weld hides
//! from regular objects every bitcode symbol that no *live* native section needs, where lld
//! would keep it visible because some native object names it. That is sound only if the walk
//! before LTO saw every edge. After LTO the walk is done again over native code only (LTO's
//! output included); if a section that ended up live in a native input refers to a symbol the
//! graph hid, the graph missed an edge, and the link is refused with the chain that makes the
//! section live, instead of a puzzling undefined symbol or a wrong program.
//!
//! `WELD_VERIFY_PRECISE_GRAPH=1` in the environment turns the check on as the option does, so
//! that a whole test suite can run with it.

use crate::err;
use crate::error::Error;
use crate::input::input_files::FileId;
use crate::liveness::mark_live::MarkResult;
use crate::resolve::symbol_table::SymbolId;
use crate::resolve::Resolved;
use hashbrown::HashSet;
use object::LittleEndian as LE;

/// Whether the check runs: the option, or `WELD_VERIFY_PRECISE_GRAPH=1`.
pub fn enabled(option: bool) -> bool {
    option || std::env::var_os("WELD_VERIFY_PRECISE_GRAPH").is_some_and(|v| v == "1")
}

/// Checks the final liveness against the bitcode symbols the graph hid from regular objects
/// (`hidden`: lld would have kept them visible). Only sections of the inputs count
/// (`files[..first_lto_file]`): LTO's own output refers to what it kept, by construction.
pub fn verify(
    res: &Resolved,
    mark: &MarkResult,
    hidden: &HashSet<SymbolId>,
    first_lto_file: usize,
) -> Vec<Error> {
    let mut errors = Vec::new();
    if hidden.is_empty() {
        return errors;
    }
    let mut reported: HashSet<SymbolId> = HashSet::new();
    for (fi, f) in res.files.iter().enumerate().take(first_lto_file) {
        for (si, s) in f.sections.iter().enumerate() {
            if !s.kind.is_copied() || !s.is_alloc() {
                continue;
            }
            let node = mark.node_of(fi as FileId, si);
            if !mark.liveness.is_live(node) {
                continue;
            }
            for r in s.relocs {
                let Some(g) = res.global_of(fi as FileId, r.r_sym(LE, false) as usize) else {
                    continue;
                };
                if !hidden.contains(&g) || !reported.insert(g) {
                    continue;
                }
                let chain = crate::liveness::gc_report::why_live_section(res, mark, node);
                errors.push(err!(
                    "--verify-precise-graph: bitcode symbol {} was hidden from regular objects \
                     before LTO, but live section {}:({}) refers to it\n{}",
                    res.symtab.get(g).display_name(),
                    f.name,
                    s.name_str(),
                    chain.trim_end()
                ));
            }
        }
    }
    errors
}
