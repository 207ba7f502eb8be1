//! `--wrap=foo`: references to `foo` go to `__wrap_foo` and references to `__real_foo` go to
//! `foo`. The wrapper names become roots during resolution; the redirection is applied to
//! objects here and to bitcode by the liveness graph (`wrap_redirections`).

use super::{Resolved, Resolver};
use crate::config::Config;
use crate::resolve::symbol_table::SymbolId;
use hashbrown::HashMap;

impl Resolver<'_> {
    /// The names `--wrap` adds to the link's roots. lld: once `foo` is in the symbol table at all
    /// (referenced, defined, lazy or from a shared library), `__wrap_foo` is an undefined
    /// reference with `foo`'s binding, which loads the archive member defining it unless weak
    /// (gcc -fsplit-stack passes `--wrap=pthread_create` and gets libgcc's
    /// `__wrap_pthread_create` that way); once `__real_foo` is, `foo` is one.
    pub(super) fn wrap_roots(&self) -> Vec<String> {
        let binding_weak = |name: &str| {
            self.out
                .symtab
                .lookup(name.as_bytes())
                .map(|id| self.out.symtab.get(id).weak)
        };
        let mut roots = Vec::new();
        for w in &self.config.wrap {
            if binding_weak(w).is_some_and(|weak| !weak) {
                roots.push(format!("__wrap_{w}"));
            }
            if binding_weak(&format!("__real_{w}")).is_some_and(|weak| !weak) {
                roots.push(w.clone());
            }
        }
        roots
    }

    /// `--wrap`: in the symbol mapping of every object from `first_file` on, references to
    /// `foo` go to `__wrap_foo` and references to `__real_foo` go to `foo`, as lld redirects
    /// them: every reference, also from the file that defines `foo` (lld's rule, unlike GNU
    /// ld's, which renames only undefined references). Bitcode is redirected the same way in
    /// the reference graph before LTO (`wrap_redirections`) and in LTO's output here.
    pub(super) fn redirect_wrapped(&mut self, first_file: usize) {
        let redirect = wrap_redirections(self.config, &self.out);
        if redirect.is_empty() {
            return;
        }
        for ids in self.out.file_syms.iter_mut().skip(first_file) {
            for id in ids.iter_mut() {
                if let Some(&to) = redirect.get(id) {
                    *id = to;
                }
            }
        }
    }
}

/// The `--wrap` redirections of references, by symbol: `foo` -> `__wrap_foo`,
/// `__real_foo` -> `foo` (only for names the link knows).
pub fn wrap_redirections(config: &Config, res: &Resolved) -> HashMap<SymbolId, SymbolId> {
    let mut map = HashMap::new();
    for w in &config.wrap {
        let Some(sym) = res.symtab.lookup(w.as_bytes()) else {
            continue;
        };
        if let Some(wrap) = res.symtab.lookup(format!("__wrap_{w}").as_bytes()) {
            map.insert(sym, wrap);
        }
        if let Some(real) = res.symtab.lookup(format!("__real_{w}").as_bytes()) {
            map.insert(real, sym);
        }
    }
    map
}
