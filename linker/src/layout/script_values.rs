//! What a linker script expression reads of a finished layout (`crate::script::expr`'s
//! `EvalContext`): symbol values, output sections' addresses, sizes and alignments, the size of
//! the headers and the page sizes. Without `SECTIONS` there is no location counter to read.

use crate::config::Config;
use crate::output::layout::Layout;
use crate::resolve::Resolved;
use crate::script::expr::{EvalContext, SectionInfo, Value};

/// A layout seen by the expression evaluator.
pub struct LayoutValues<'a> {
    pub config: &'a Config,
    pub res: &'a Resolved,
    pub lay: &'a Layout,
}

impl EvalContext for LayoutValues<'_> {
    fn dot(&self) -> crate::error::Result<Value> {
        Err(crate::err!(
            "unable to get location counter value: no SECTIONS command"
        ))
    }

    fn symbol(&self, name: &str) -> Option<Value> {
        let id = self.res.symtab.lookup(name.as_bytes())?;
        let s = self.res.symtab.get(id);
        if !s.is_defined() {
            return None;
        }
        let v = self.lay.global_value[id as usize];
        // A symbol defined in a section is relative to its output section (lld's rule: the
        // result of an expression on it stays in that section).
        let in_section = matches!(
            s.def,
            crate::resolve::symbol_table::SymbolDef::Defined { .. }
                | crate::resolve::symbol_table::SymbolDef::Common { .. }
        );
        let section = in_section
            .then(|| {
                self.lay.sections.iter().find(|o| {
                    o.is_alloc()
                        && o.addr <= v
                        && (v < o.addr + o.size || o.size == 0 && v == o.addr)
                })
            })
            .flatten();
        Some(match section {
            Some(o) => Value {
                section: Some(crate::script::expr::SectionBase {
                    name: o.name.clone(),
                    addr: o.addr,
                }),
                offset: v - o.addr,
                ..Value::absolute(0)
            },
            None => Value::absolute(v),
        })
    }

    fn section(&self, name: &str) -> Option<SectionInfo> {
        let s = self.lay.sections.iter().find(|s| s.name == name)?;
        Some(SectionInfo {
            addr: s.addr,
            lma: s.addr,
            size: s.size,
            alignment: s.align,
        })
    }

    fn size_of_headers(&self) -> u64 {
        self.lay.header_size()
    }

    fn max_page_size(&self) -> u64 {
        self.config.max_page_size()
    }

    fn common_page_size(&self) -> u64 {
        self.config.common_page_size()
    }

    fn memory_region(&self, _name: &str) -> Option<(u64, u64)> {
        None
    }

    fn is_defined(&self, name: &str, _order: u32) -> bool {
        self.res
            .symtab
            .lookup(name.as_bytes())
            .is_some_and(|id| self.res.symtab.get(id).is_defined())
    }
}
