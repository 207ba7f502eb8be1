//! What resolution reports as it goes: `--trace` and `-y` lines on standard output, duplicate
//! symbol errors with lld's definition sites, and `--warn-common` warnings.

use super::{Resolver, Site};
use crate::err;
use crate::error::Error;
use crate::input::input_files::{FileId, ObjectFile};
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use object::elf;
use object::read::elf::Sym;
use object::LittleEndian as LE;

impl Resolver<'_> {
    /// Whether `-y`/`--trace-symbol` names `id`.
    pub(super) fn is_traced(&self, id: SymbolId) -> bool {
        // Asked for every symbol of every input: most links trace nothing.
        !self.traced.is_empty() && self.traced.contains(&id)
    }

    /// `-y`/`--trace-symbol`: one line on standard output for an event of a traced symbol, in
    /// lld's words (`FILE: reference to NAME`, `definition of`, `common definition of`,
    /// `shared definition of`, `lazy definition of`).
    pub(super) fn trace_symbol(&self, id: SymbolId, file: &str, what: &str) {
        if self.is_traced(id) && !self.adding_lto_output {
            println!("{file}: {what} {}", self.out.symtab.get(id).display_name());
        }
    }

    /// The end of `-y`: a common that stayed becomes a definition (lld turns commons into
    /// `.bss` definitions), and a traced symbol still lazy is reported referenced by lld's
    /// internal file.
    pub(super) fn trace_unresolved(&self) {
        let mut ids: Vec<SymbolId> = self.traced.iter().copied().collect();
        ids.sort_unstable();
        for &id in &ids {
            if let SymbolDef::Common { file, .. } = self.out.symtab.get(id).def {
                self.trace_symbol(id, &self.out.files[file as usize].name, "definition of");
            }
        }
        for &id in &ids {
            if matches!(self.out.symtab.get(id).def, SymbolDef::Lazy { .. }) {
                self.trace_symbol(id, "<internal>", "reference to");
            }
        }
    }

    /// `--trace`: each input file as it is read, on standard output (LTO's objects are not
    /// inputs).
    pub(super) fn trace(&self, name: &str) {
        if self.config.trace && !self.adding_lto_output {
            println!("{name}");
        }
    }

    /// An error that `--noinhibit-exec` turns into a warning (lld's `errorOrWarn`).
    pub(super) fn error_or_warn(&mut self, e: Error) {
        if !self.config.noinhibit_exec {
            self.errors.push(e);
        } else if let Err(e) = self.config.warn(&e.0) {
            self.errors.push(e);
        }
    }

    /// `--warn-common`: lld's `multiple common of NAME` and `common NAME is overridden`.
    pub(super) fn warn_common(&mut self, sid: SymbolId, what: &str) {
        let name = self.out.symtab.get(sid).display_name();
        let msg = if what == "common" {
            format!("common {name} is overridden")
        } else {
            format!("{what} {name}")
        };
        if let Err(e) = self.config.warn(&msg) {
            self.errors.push(e);
        }
    }

    /// Two absolute definitions of the same non-zero value: lld lets them be, for GNU ld
    /// compatibility (two `--format=binary` copies of a file define the same `_size`, say).
    pub(super) fn same_absolute(&self, old: SymbolDef, new: Site<'_>) -> bool {
        let absolute_value = |file: FileId, index: usize| {
            let sym = self.out.files.get(file as usize)?.symbols.get(index)?;
            (sym.st_shndx(LE) == elf::SHN_ABS).then(|| sym.st_value(LE))
        };
        match (old, new) {
            (SymbolDef::Defined { file, index }, Site::Native(new_file, new_index)) => {
                match (
                    absolute_value(file, index as usize),
                    absolute_value(new_file, new_index),
                ) {
                    (Some(a), Some(b)) => a == b && b != 0,
                    _ => false,
                }
            }
            _ => false,
        }
    }

    pub(super) fn duplicate_error(&self, sid: SymbolId, old: SymbolDef, new: Site<'_>) -> Error {
        let name = self.out.symtab.get(sid).display_name();
        let old_site = match old {
            SymbolDef::Defined { file, index } => {
                location_of_symbol(&self.out.files[file as usize], index as usize, true)
            }
            SymbolDef::Bitcode { file, .. } => self.out.bitcode[file as usize].name.clone(),
            _ => String::from("<internal>"),
        };
        let new_site = match new {
            Site::Native(f, i) => location_of_symbol(&self.out.files[f as usize], i, false),
            Site::Bitcode(name) => name.to_string(),
        };
        err!("duplicate symbol: {name}\n>>> defined at {old_site}\n>>> defined at {new_site}")
    }
}

/// `file.o:(symbol)` or `file.o:(.text+0x10)`, as lld prints definition sites: lld names the
/// existing definition by its symbol and the new one by section and offset.
fn location_of_symbol(file: &ObjectFile, index: usize, by_name: bool) -> String {
    let Some(sym) = file.symbols.get(index) else {
        return file.name.clone();
    };
    let shndx = file
        .sym_section(index)
        .unwrap_or(usize::from(sym.st_shndx(LE)));
    let sec_name = file.sections.get(shndx).map(|s| s.name_str()).unwrap_or("");
    let mut loc = String::new();
    let src = if shndx < file.sections.len() && shndx != 0 {
        crate::input::debug_info::source_location(file, shndx, sym.st_value(LE))
    } else {
        None
    };
    if let Some(src) = src.or_else(|| {
        file.source_name
            .map(|s| String::from_utf8_lossy(s).into_owned())
    }) {
        loc.push_str(&src);
        loc.push_str("\n>>>            ");
    }
    let name = file.sym_display_name(index);
    // A binary input is no object file to lld, which then names no symbol.
    if by_name
        && !file.binary
        && (sym.st_type() == elf::STT_FUNC || sym.st_type() == elf::STT_OBJECT)
    {
        loc.push_str(&format!("{}:({})", file.name, name));
    } else {
        loc.push_str(&format!(
            "{}:({}+0x{:x})",
            file.name,
            sec_name,
            sym.st_value(LE)
        ));
    }
    loc
}
