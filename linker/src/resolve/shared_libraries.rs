//! Shared libraries in resolution: their dynamic symbols satisfy references (never replacing an
//! object's definition), their own references load archive members, and `--as-needed` keeps
//! only the libraries some object binds to.

use super::Resolver;
use crate::error::Result;
use crate::input::shared_files::SharedFile;
use crate::resolve::symbol_table::SymbolDef;
use object::elf;
use object::read::elf::Sym;
use object::LittleEndian as LE;

impl Resolver<'_> {
    /// Adds a shared library's dynamic symbols. A library whose soname was already seen is
    /// ignored, as lld does. Non-default versions (`foo@V`) do not take part in resolution.
    pub(super) fn add_shared(&mut self, file: SharedFile) -> Result<()> {
        self.trace(&file.name);
        if self.out.shared.iter().any(|s| s.soname == file.soname) {
            return Ok(());
        }
        let mut lazy_needed = Vec::new();
        let index = self.out.shared.len() as u32;
        for i in 1..file.dynsyms.len() {
            let s = &file.dynsyms[i];
            let bind = s.st_bind();
            // STB_GNU_UNIQUE (gcc's template statics) resolves like a global.
            if bind != elf::STB_GLOBAL && bind != elf::STB_WEAK && bind != elf::STB_GNU_UNIQUE {
                continue;
            }
            let name = file.sym_name(i);
            let id = self.out.symtab.intern(name);
            // As lld: an executable exports its definition of any name a shared library
            // references or defines, so the library binds to it (interposition).
            self.out.symtab.get_mut(id).referenced_by_dso = true;
            if s.st_shndx(LE) == elf::SHN_UNDEF {
                if bind != elf::STB_WEAK {
                    lazy_needed.push(id);
                }
                continue;
            }
            let (ver, hidden) = file.version(i);
            // lld also enters a versioned definition as `name@version`, which a reference
            // naming the version (`.symver foo,foo@V`) binds to.
            if let Some(vname) = (ver >= 2).then(|| file.version_name(ver)).flatten() {
                let full = [name, b"@", vname].concat();
                if let Some(vid) = self.out.symtab.lookup(&full) {
                    let vs = self.out.symtab.get_mut(vid);
                    if vs.def == SymbolDef::Undefined {
                        vs.def = SymbolDef::Shared {
                            file: index,
                            index: i as u32,
                        };
                        vs.sym_type = match s.st_type() {
                            elf::STT_GNU_IFUNC => elf::STT_FUNC,
                            t => t,
                        };
                        // Its `.dynsym` name is the bare name; the version comes from the
                        // library, as for any import.
                        vs.symver = Some(vname);
                    }
                }
            }
            if hidden {
                continue;
            }
            let sym = self.out.symtab.get_mut(id);
            sym.dso_defined = true;
            // lld: a shared definition replaces only an undefined symbol (keeping the
            // references' binding); lazy, defined and common symbols win over it.
            if sym.def == SymbolDef::Undefined {
                if self.is_traced(id) {
                    self.trace_symbol(id, &file.name, "shared definition of");
                }
                let sym = self.out.symtab.get_mut(id);
                sym.def = SymbolDef::Shared {
                    file: index,
                    index: i as u32,
                };
                // A library's IFUNC is resolved by the loader inside that library; to this
                // output it is an ordinary function, which is what lld writes in `.symtab`.
                sym.sym_type = match s.st_type() {
                    elf::STT_GNU_IFUNC => elf::STT_FUNC,
                    t => t,
                };
                if !sym.referenced {
                    sym.weak = bind == elf::STB_WEAK;
                }
            }
        }
        self.out.shared.push(file);
        self.out.shared_used.push(false);
        // lld: a library's non-weak undefined reference resolves like an object's, so it loads
        // the archive member that defines the name (now, or when a later archive offers it).
        for id in lazy_needed {
            let sym = self.out.symtab.get_mut(id);
            sym.dso_needs_definition = true;
            if let SymbolDef::Lazy { archive, member } = sym.def {
                self.load_member(archive, member, Some(id), None, false)?;
            }
        }
        Ok(())
    }

    /// A library is used when a non-weak undefined reference of some object binds to it.
    /// Every global of every object is looked at: in parallel, each thread noting the
    /// libraries it saw.
    pub(super) fn mark_used_shared(&mut self) {
        use rayon::prelude::*;
        let libraries = self.out.shared_used.len();
        let symtab = &self.out.symtab;
        let used = self
            .out
            .files
            .par_iter()
            .zip(self.out.file_syms.par_iter())
            .fold(
                || vec![false; libraries],
                |mut used, (f, ids)| {
                    for (s, &id) in f.symbols[f.first_global..].iter().zip(ids) {
                        if s.st_shndx(LE) != elf::SHN_UNDEF || s.st_bind() == elf::STB_WEAK {
                            continue;
                        }
                        if let SymbolDef::Shared { file, .. } = symtab.get(id).def {
                            used[file as usize] = true;
                        }
                    }
                    used
                },
            )
            .reduce(
                || vec![false; libraries],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(a, b)| *a |= b);
                    a
                },
            );
        for (s, u) in self.out.shared_used.iter_mut().zip(used) {
            *s |= u;
        }
    }
}
