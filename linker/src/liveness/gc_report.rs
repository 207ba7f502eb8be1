//! Reports on the liveness walk, in lld's formats: `--print-gc-sections` lines and
//! `--why-live` chains. Both go to standard output, as lld 22 prints them.

use crate::input::input_files::{FileId, ObjectFile};
use crate::liveness::mark_live::{reason, MarkResult, Removed, NODE_SECTION};
use crate::resolve::symbol_table::SymbolDef;
use crate::resolve::Resolved;
use gc::{NodeId, RootReason, Step, SymId};
use object::elf;
use object::read::elf::{Rela, SectionHeader, Sym};
use object::LittleEndian as LE;
use std::fmt::Write as _;

/// `removing unused section FILE:(SECTION)` for each removed section, in the order given; a
/// common symbol's section is `FILE:(COMMON)`, named by the file of its definition. Under
/// `-r` (`relocatable`) lld copies relocation sections as sections of their own, so a removed
/// section's relocation section is reported too, after it (compilers put it right after).
pub fn print_gc_sections(res: &Resolved, removed: &[Removed], relocatable: bool) -> String {
    let mut out = String::new();
    for r in removed {
        let (file, sec, index) = match *r {
            Removed::Section(f, s) => {
                let file = &res.files[f as usize];
                (file, file.sections[s].name_str(), Some(s))
            }
            Removed::Common(id) => match res.symtab.get(id).def {
                SymbolDef::Common { file, .. } => (&res.files[file as usize], "COMMON", None),
                _ => continue,
            },
        };
        let _ = writeln!(out, "removing unused section {}:({sec})", file.name);
        let Some(index) = index.filter(|_| relocatable) else {
            continue;
        };
        for rel in file.sections.iter().filter(|x| {
            matches!(x.sh_type(), elf::SHT_RELA | elf::SHT_REL | elf::SHT_CREL)
                && x.shdr.sh_info(LE) as usize == index
        }) {
            let _ = writeln!(
                out,
                "removing unused section {}:({})",
                file.name,
                rel.name_str()
            );
        }
    }
    out
}

/// `removing unused bitcode symbol FILE:(SYMBOL)` for each prevailing bitcode symbol the walk
/// over native sections and bitcode found dead (LTO is told it is not needed).
pub fn print_dead_bitcode(res: &Resolved, mark: &MarkResult) -> String {
    let mut out = String::new();
    for (bf, i) in crate::liveness::mark_live::dead_bitcode_symbols(res, mark) {
        let b = &res.bitcode[bf as usize];
        let name = res.symtab.get(b.syms[i as usize]).name_str();
        let _ = writeln!(out, "removing unused bitcode symbol {}:({name})", b.name);
    }
    out
}

fn root_suffix(r: RootReason) -> &'static str {
    match r {
        reason::ENTRY => " (entry point)",
        reason::RETAINED => " (retained)",
        reason::RESERVED => " (reserved)",
        reason::EH_FRAME => " (exception handling frame)",
        reason::EXPORTED => " (exported)",
        reason::UNDEFINED_FLAG => " (--undefined)",
        reason::REQUIRE_DEFINED => " (--require-defined)",
        reason::NO_GC => " (--no-gc-sections)",
        reason::LLVM_USED => " (llvm.used)",
        reason::INLINE_ASM => " (inline asm)",
        reason::DEFSYM => " (--defsym)",
        reason::CODEGEN_CALLEE => " (may be called by code generation)",
        reason::SCRIPT_KEEP => " (KEEP in linker script)",
        _ => "",
    }
}

/// A symbol a `--why-live` line can name: a global, or a local of some object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sym_ {
    Global(u32),
    Local(FileId, usize),
}

struct WhyLive<'a> {
    res: &'a Resolved,
    mark: &'a MarkResult,
    out: String,
}

/// `--why-live=GLOB` chains for every live symbol matching one of the patterns.
pub fn why_live(res: &Resolved, mark: &MarkResult, patterns: &[String]) -> String {
    let mut w = WhyLive {
        res,
        mark,
        out: String::new(),
    };
    let matches = |name: &[u8]| {
        patterns
            .iter()
            .any(|p| crate::glob::matches(p.as_bytes(), name))
    };
    let versioned = versioned_shared_symbols(res, &matches);
    let mut next_versioned = versioned.iter().peekable();
    for (id, s) in res.symtab.symbols.iter().enumerate() {
        if !matches!(s.def, SymbolDef::Lazy { .. }) && matches(s.name) {
            w.explain_symbol(Sym_::Global(id as u32));
        }
        while let Some((_, line)) = next_versioned.next_if(|(after, _)| *after <= id) {
            w.out.push_str(line);
        }
    }
    for (_, line) in next_versioned {
        w.out.push_str(line);
    }
    for (fi, f) in res.files.iter().enumerate() {
        for i in 1..f.first_global {
            let sym = &f.symbols[i];
            if sym.st_type() == elf::STT_SECTION || !matches(f.sym_name(i)) {
                continue;
            }
            w.explain_symbol(Sym_::Local(fi as FileId, i));
        }
    }
    w.out
}

/// Why one section node is live, in `--why-live`'s wording: the chain from the section back
/// to a root (for `--verify-precise-graph`).
pub fn why_live_section(res: &Resolved, mark: &MarkResult, node: NodeId) -> String {
    let mut w = WhyLive {
        res,
        mark,
        out: String::new(),
    };
    w.explain_section(node, None, 0);
    w.out
}

/// lld enters every versioned definition of a shared library into its symbol table a second
/// time, as `name@version` (so that references naming the version bind to it). Nothing refers to
/// those entries by that name here, so lld reports each as a live symbol without a section.
/// Returns the `live symbol:` lines for those whose bare name matches, each with the id of the
/// global it follows in lld's table (the last one entered when lld reads that definition).
fn versioned_shared_symbols(
    res: &Resolved,
    matches: &dyn Fn(&[u8]) -> bool,
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut seen = hashbrown::HashSet::new();
    let mut last = 0usize;
    for lib in &res.shared {
        for i in 1..lib.dynsyms.len() {
            let s = &lib.dynsyms[i];
            let bind = s.st_bind();
            if bind != elf::STB_GLOBAL && bind != elf::STB_WEAK && bind != elf::STB_GNU_UNIQUE {
                continue;
            }
            let name = lib.sym_name(i);
            if let Some(id) = res.symtab.lookup(name) {
                last = last.max(id as usize);
            }
            if s.st_shndx(LE) == elf::SHN_UNDEF {
                continue;
            }
            let (v, _) = lib.version(i);
            let Some(ver) = lib.version_name(v).filter(|_| v > elf::VER_NDX_GLOBAL) else {
                continue;
            };
            // The first library to define `name@version` owns the entry, as in lld.
            if !seen.insert((name, ver)) || !matches(name) {
                continue;
            }
            out.push((
                last,
                format!(
                    "live symbol: {}:({}@{}) (no section)\n",
                    lib.name,
                    crate::demangle::display_name(name),
                    String::from_utf8_lossy(ver)
                ),
            ));
        }
    }
    out
}

impl WhyLive<'_> {
    /// The `.eh_frame` section of file `f`, named as lld names it in a chain.
    fn eh_frame_label(&self, f: FileId) -> Option<String> {
        let file = self.res.files.get(f as usize)?;
        let s = file
            .sections
            .iter()
            .find(|s| s.kind == crate::input::input_files::SectionKind::EhFrame)?;
        Some(format!("{}:({})", file.name, s.name_str()))
    }

    /// The first `.eh_frame` (in input order) with a relocation against global `g`: lld scans
    /// them in that order, and the first reference is the one it remembers.
    fn eh_frame_referring_to(&self, g: u32) -> Option<String> {
        (0..self.res.files.len()).find_map(|f| {
            if !self.mark.active.get(f).copied().unwrap_or(true) {
                return None;
            }
            let file = &self.res.files[f];
            file.sections
                .iter()
                .filter(|s| s.kind == crate::input::input_files::SectionKind::EhFrame)
                .any(|s| {
                    s.relocs.iter().any(|r| {
                        self.res.global_of(f as FileId, r.r_sym(LE, false) as usize) == Some(g)
                    })
                })
                .then(|| self.eh_frame_label(f as FileId))
                .flatten()
        })
    }

    /// Writes `head` with the root reason `r`. lld does not treat `.eh_frame` as a root of its
    /// own: what it keeps is "referenced by" the `.eh_frame` section, which is live as an
    /// "exception handling frame"; `eh` names that section when `r` is that reason.
    fn write_rooted(
        &mut self,
        head: &str,
        r: RootReason,
        eh: impl FnOnce(&Self) -> Option<String>,
    ) {
        if r == reason::EH_FRAME {
            if let Some(eh) = eh(self) {
                let _ = writeln!(self.out, "{head}");
                let _ = writeln!(
                    self.out,
                    ">>> referenced by: {eh}{}",
                    root_suffix(reason::EH_FRAME)
                );
                return;
            }
        }
        let _ = writeln!(self.out, "{head}{}", root_suffix(r));
    }

    /// `write_rooted` for a symbol that is a root.
    fn write_rooted_symbol(&mut self, head: &str, s: Sym_, r: RootReason) {
        self.write_rooted(head, r, |w| match s {
            Sym_::Global(g) => w.eh_frame_referring_to(g),
            Sym_::Local(f, _) => w.eh_frame_label(f),
        });
    }

    /// `write_rooted` for a section (or bitcode) node that is a root.
    fn write_rooted_node(&mut self, head: &str, n: NodeId, r: RootReason) {
        if r == reason::SCRIPT_KEEP {
            if let Some(rule) = self.keep_rule(n) {
                // lld's words, then the rule itself (lld does not name it).
                let _ = writeln!(self.out, "{head} (KEEP in linker script: {rule})");
                return;
            }
        }
        self.write_rooted(head, r, |w| {
            w.mark.section_of(n).and_then(|(f, _)| w.eh_frame_label(f))
        });
    }

    /// The `KEEP(...)` description of the link's scripts that takes section node `n`, as
    /// `FILE:LINE: KEEP(...)`.
    fn keep_rule(&self, n: NodeId) -> Option<String> {
        let (f, si) = self.mark.section_of(n)?;
        let file = &self.res.files[f as usize];
        let sec = file.sections.get(si)?;
        let name = file.script_name();
        let full = name.for_script();
        self.res.scripts.iter().find_map(|script| {
            crate::script::matching::keep_descriptions(&script.script.commands)
                .into_iter()
                .find(|d| {
                    d.pattern_for(&name, &full, sec.name_str(), sec.flags())
                        .is_some()
                })
                .map(|d| format!("{}: {}", d.loc, d.text))
        })
    }

    /// The symbol lld names as the one keeping section node `n` live when the first relocation
    /// of section node `p` reaching it goes through a local symbol: that symbol itself, or for a
    /// section symbol the symbol enclosing the referenced offset (symbol value plus addend).
    /// `None` when nothing encloses it: lld then says only that `p` refers to the section.
    fn contained_via_local(&self, p: NodeId, n: NodeId) -> Option<Sym_> {
        let (f, s) = self.mark.section_of(p)?;
        let (nf, ns) = self.mark.section_of(n)?;
        if nf != f {
            return None;
        }
        let file = &self.res.files[f as usize];
        let r = file.sections[s].relocs.iter().find(|r| {
            let i = r.r_sym(LE, false) as usize;
            self.res.global_of(f, i).is_none() && file.sym_section(i) == Some(ns)
        })?;
        let i = r.r_sym(LE, false) as usize;
        let sym = file.symbols.get(i)?;
        if sym.st_type() != elf::STT_SECTION {
            return Some(Sym_::Local(f, i));
        }
        let offset = sym.st_value(LE).wrapping_add(r.r_addend(LE) as u64);
        // lld takes the first symbol of the file (locals, then globals defined here) whose
        // range holds the offset.
        file.symbols.iter().enumerate().skip(1).find_map(|(j, x)| {
            let (v, size) = (x.st_value(LE), x.st_size(LE));
            if file.sym_section(j) != Some(ns) || !(v <= offset && offset < v.wrapping_add(size)) {
                return None;
            }
            match self.res.global_of(f, j) {
                None => Some(Sym_::Local(f, j)),
                Some(g) => matches!(
                    self.res.symtab.get(g).def,
                    SymbolDef::Defined { file, index } if file == f && index as usize == j
                )
                .then_some(Sym_::Global(g)),
            }
        })
    }

    fn file_of(&self, s: Sym_) -> Option<(String, String)> {
        match s {
            Sym_::Global(g) => {
                let sym = self.res.symtab.get(g);
                let file = match sym.def {
                    SymbolDef::Defined { file, .. } | SymbolDef::Common { file, .. } => {
                        self.res.files[file as usize].name.clone()
                    }
                    SymbolDef::Shared { file, .. } => self.res.shared[file as usize].name.clone(),
                    SymbolDef::Bitcode { file, .. } => self.res.bitcode[file as usize].name.clone(),
                    _ => "<internal>".to_string(),
                };
                Some((file, sym.display_name()))
            }
            Sym_::Local(f, i) => {
                let file = &self.res.files[f as usize];
                Some((
                    file.name.clone(),
                    crate::demangle::display_name(file.sym_name(i)),
                ))
            }
        }
    }

    /// The section node a symbol is defined in, or `None` for symbols without a section.
    fn section_node(&self, s: Sym_) -> Option<NodeId> {
        let (f, i) = match s {
            Sym_::Global(g) => match self.res.symtab.get(g).def {
                SymbolDef::Defined { file, index } => (file, index as usize),
                // A bitcode symbol is its own node in the graph.
                SymbolDef::Bitcode { file, index } => {
                    let base = self.mark.bitcode_base.get(file as usize).copied()?;
                    return (base != u32::MAX).then_some(NodeId(base + index));
                }
                _ => return None,
            },
            Sym_::Local(f, i) => (f, i),
        };
        let shndx = self.res.files[f as usize].sym_section(i)?;
        Some(self.mark.node_of(f, shndx))
    }

    fn root_reason_of_symbol(&self, s: Sym_) -> Option<RootReason> {
        let Sym_::Global(g) = s else { return None };
        match self.mark.liveness.why_live_symbol(SymId(g))?.as_slice() {
            [Step::Root(r), Step::Symbol(_)] => Some(*r),
            _ => None,
        }
    }

    fn explain_symbol(&mut self, s: Sym_) {
        let Some((file, name)) = self.file_of(s) else {
            return;
        };
        let node = self.section_node(s);
        if let Some(n) = node {
            if !self.mark.liveness.is_live(n) {
                return;
            }
        } else if let Sym_::Global(g) = s {
            // Symbols without a section are live if anything reached them (or they are defined).
            let sym = self.res.symtab.get(g);
            if matches!(sym.def, SymbolDef::Shared { .. }) {
                // lld remembers why a shared definition is used only for a non-weak reference
                // to it; without one it reports the symbol as live without a section.
                let referred = !sym.weak && self.mark.liveness.why_live_symbol(SymId(g)).is_some();
                if !referred {
                    let _ = writeln!(self.out, "live symbol: {file}:({name}) (no section)");
                    return;
                }
                let _ = writeln!(self.out, "live symbol: {file}:({name})");
                self.explain_referrer_of_symbol(g);
                return;
            }
        }
        if let Some(r) = self.root_reason_of_symbol(s) {
            self.write_rooted_symbol(&format!("live symbol: {file}:({name})"), s, r);
            return;
        }
        let Some(n) = node else {
            let _ = writeln!(self.out, "live symbol: {file}:({name}) (no section)");
            return;
        };
        let _ = writeln!(self.out, "live symbol: {file}:({name})");
        self.explain_section(n, Some(s), 0);
    }

    /// Explains why section `n` is live. `via` is the symbol the caller is asking about: when the
    /// section was reached through that very symbol, only the referrer is printed.
    fn explain_section(&mut self, n: NodeId, via: Option<Sym_>, depth: usize) {
        if depth > 64 {
            return;
        }
        let Some(chain) = self.mark.liveness.why_live(n) else {
            return;
        };
        let len = chain.len();
        let (sec_file, sec_name) = self.section_label(n);
        match chain.get(len.wrapping_sub(2)) {
            Some(Step::Root(r)) => {
                self.write_rooted_node(
                    &format!(">>> in live section: {sec_file}:({sec_name})"),
                    n,
                    *r,
                );
            }
            Some(Step::Symbol(g)) => {
                let g = *g;
                if via != Some(Sym_::Global(g.0)) {
                    if via.is_some() {
                        let _ = writeln!(self.out, ">>> in live section: {sec_file}:({sec_name})");
                    }
                    let (f, nm) = self.file_of(Sym_::Global(g.0)).unwrap_or_default();
                    if let Some(r) = self.root_reason_of_symbol(Sym_::Global(g.0)) {
                        self.write_rooted_symbol(
                            &format!(">>> contained live symbol: {f}:({nm})"),
                            Sym_::Global(g.0),
                            r,
                        );
                        return;
                    }
                    let _ = writeln!(self.out, ">>> contained live symbol: {f}:({nm})");
                }
                self.explain_referrer_of_symbol(g.0);
            }
            Some(Step::Node(p)) => {
                let p = *p;
                // A reference through a local symbol keeps that symbol live, and the symbol its
                // section (lld: "contained live symbol"), unless it is the one asked about.
                let contained = self.contained_via_local(p, n);
                if via.is_some() && (contained.is_none() || contained != via) {
                    let _ = writeln!(self.out, ">>> in live section: {sec_file}:({sec_name})");
                }
                if let Some(c) = contained.filter(|&c| Some(c) != via) {
                    let (f, nm) = self.file_of(c).unwrap_or_default();
                    let _ = writeln!(self.out, ">>> contained live symbol: {f}:({nm})");
                }
                self.referenced_by(p, |t| matches!(t, gc::Target::Node(x) if x == n), depth);
            }
            None => {}
        }
    }

    fn explain_referrer_of_symbol(&mut self, g: u32) {
        let Some(chain) = self.mark.liveness.why_live_symbol(SymId(g)) else {
            return;
        };
        match chain.get(chain.len().wrapping_sub(2)) {
            Some(Step::Node(p)) => {
                let p = *p;
                self.referenced_by(p, |t| t == gc::Target::Symbol(SymId(g)), 0);
            }
            Some(Step::Root(r)) => {
                let _ = writeln!(self.out, ">>> {}", root_suffix(*r).trim());
            }
            _ => {}
        }
    }

    /// `>>> referenced by: FILE:(SYMBOL-OR-SECTION)` for the place in node `p` that refers to the
    /// target, then why `p` itself is live.
    fn referenced_by(&mut self, p: NodeId, is_target: impl Fn(gc::Target) -> bool, depth: usize) {
        if matches!(
            self.mark.graph.kind(p),
            Some(crate::liveness::mark_live::NODE_BITCODE | crate::liveness::mark_live::NODE_ASM)
        ) {
            self.referenced_by_bitcode(p, depth);
            return;
        }
        let Some((f, s)) = self.mark.section_of(p) else {
            return;
        };
        let file = &self.res.files[f as usize];
        let base = self.mark.node_base[f as usize];
        let mut offset = None;
        for r in file.sections[s].relocs {
            let sym = r.r_sym(LE, false) as usize;
            let t = match self.res.global_of(f, sym) {
                Some(g) => Some(gc::Target::Symbol(SymId(g))),
                None => file
                    .sym_section(sym)
                    .map(|sh| gc::Target::Node(NodeId(base + sh as u32))),
            };
            if t.is_some_and(&is_target) {
                offset = Some(r.r_offset(LE));
                break;
            }
        }
        let enclosing = offset.and_then(|o| enclosing_symbol(file, s, o));
        match enclosing {
            Some((idx, name)) => {
                let as_sym = match self.res.global_of(f, idx) {
                    Some(g) => Sym_::Global(g),
                    None => Sym_::Local(f, idx),
                };
                if let Some(r) = self.root_reason_of_symbol(as_sym) {
                    let head = format!(">>> referenced by: {}:({name})", file.name);
                    self.write_rooted_symbol(&head, as_sym, r);
                    return;
                }
                let _ = writeln!(self.out, ">>> referenced by: {}:({name})", file.name);
                self.explain_section(p, Some(as_sym), depth + 1);
            }
            None => {
                let chain = self.mark.liveness.why_live(p).unwrap_or_default();
                if let [Step::Root(r), Step::Node(_)] = chain.as_slice() {
                    let head = format!(
                        ">>> referenced by: {}:({})",
                        file.name,
                        file.sections[s].name_str()
                    );
                    self.write_rooted_node(&head, p, *r);
                    return;
                }
                let _ = writeln!(
                    self.out,
                    ">>> referenced by: {}:({})",
                    file.name,
                    file.sections[s].name_str()
                );
                self.explain_section(p, None, depth + 1);
            }
        }
    }

    /// `>>> referenced by: FILE:(SYMBOL)` for a bitcode node (its symbol, or the internal value
    /// it stands for), then why that node is live: the chain crosses the LTO boundary freely.
    fn referenced_by_bitcode(&mut self, p: NodeId, depth: usize) {
        let (file, name) = self.section_label(p);
        let chain = self.mark.liveness.why_live(p).unwrap_or_default();
        match chain.get(chain.len().wrapping_sub(2)) {
            Some(Step::Root(r)) => {
                self.write_rooted_node(&format!(">>> referenced by: {file}:({name})"), p, *r);
            }
            Some(Step::Symbol(g)) => {
                let g = *g;
                if let Some(r) = self.root_reason_of_symbol(Sym_::Global(g.0)) {
                    let head = format!(">>> referenced by: {file}:({name})");
                    self.write_rooted_symbol(&head, Sym_::Global(g.0), r);
                    return;
                }
                let _ = writeln!(self.out, ">>> referenced by: {file}:({name})");
                if depth < 64 {
                    self.explain_referrer_of_symbol(g.0);
                }
            }
            Some(Step::Node(q)) => {
                let _ = writeln!(self.out, ">>> referenced by: {file}:({name})");
                let q = *q;
                if depth < 64 {
                    self.referenced_by(q, |t| t == gc::Target::Node(p), depth + 1);
                }
            }
            None => {}
        }
    }

    fn section_label(&self, n: NodeId) -> (String, String) {
        if self.mark.graph.kind(n) == Some(crate::liveness::mark_live::NODE_ASM) {
            let bf = self.mark.graph.payload(n).unwrap_or(0) as usize;
            let name = self.res.bitcode.get(bf).map(|b| b.name.clone());
            return (name.unwrap_or_default(), "inline asm".to_string());
        }
        if self.mark.graph.kind(n) == Some(crate::liveness::mark_live::NODE_BITCODE) {
            let p = self.mark.graph.payload(n).unwrap_or(0);
            let (bf, node) = ((p >> 32) as usize, (p & 0xffff_ffff) as usize);
            let b = &self.res.bitcode[bf];
            let name = match b.syms.get(node) {
                Some(&sid) => self.res.symtab.get(sid).display_name(),
                None => match self.mark.bitcode_internal_names.get(&n) {
                    Some(name) => crate::demangle::display_name(name.as_bytes()),
                    None => "<internal>".to_string(),
                },
            };
            return (b.name.clone(), name);
        }
        match self.mark.section_of(n) {
            Some((f, s)) => {
                let file = &self.res.files[f as usize];
                (file.name.clone(), file.sections[s].name_str().to_string())
            }
            None => {
                let kind = self.mark.graph.kind(n).unwrap_or(NODE_SECTION);
                ("<internal>".to_string(), format!("node kind {kind}"))
            }
        }
    }
}

/// The sized function or object symbol containing `offset` of section `sec` (lld names the
/// referencing place by it).
fn enclosing_symbol(file: &ObjectFile, sec: usize, offset: u64) -> Option<(usize, String)> {
    let mut best: Option<(u64, usize)> = None;
    for (i, s) in file.symbols.iter().enumerate() {
        if file.sym_section(i) != Some(sec) || i == 0 {
            continue;
        }
        let ty = s.st_type();
        if ty == elf::STT_SECTION || ty == elf::STT_FILE {
            continue;
        }
        let v = s.st_value(LE);
        let size = s.st_size(LE);
        if size > 0 && v <= offset && offset < v + size && best.is_none_or(|(bv, _)| v >= bv) {
            best = Some((v, i));
        }
    }
    best.map(|(_, i)| (i, crate::demangle::display_name(file.sym_name(i))))
}
