//! Resolution: read the inputs in command-line order and resolve symbols as lld does. Archives
//! contribute lazy symbols from their index; a member is loaded when a non-weak undefined
//! reference meets one of its symbols (wherever on the command line the reference is, as lld:
//! `--start-group` is accepted but not needed).
//!
//! This file holds what resolution produces (`Resolved`), the walk over the command line and
//! lld's rules for a global symbol meeting the table; each other kind of input and `--wrap`
//! have a file of their own below `resolve/`.

use crate::config::{Config, Input, InputKind, OutputKind};
use crate::error::{Error, Result};
use crate::input::input_files::{self, classify, FileId, FileKind, ObjectFile, SectionKind};
use crate::input::shared_files::SharedFile;
use crate::input::{library_search, linker_script};
use crate::resolve::symbol_table::{
    merge_visibility, ComdatTable, GlobalNames, SymbolDef, SymbolId, SymbolTable,
};
use crate::{bail, err};
use hashbrown::{HashMap, HashSet};
use object::elf;
use object::read::elf::{SectionHeader, Sym};
use object::LittleEndian as LE;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

mod archive_members;
pub use archive_members::member_can_join;
mod bitcode_inputs;
mod diagnostics;
pub mod libcalls;
pub mod scripts;
mod shared_libraries;
pub mod symbol_flags;
pub mod symbol_table;
pub mod thin_index;
mod work_ahead;
pub mod wrap;

/// Where a new definition comes from, for duplicate-symbol messages.
#[derive(Clone, Copy)]
enum Site<'a> {
    /// Symbol `usize` of object `FileId` (already in `Resolved::files`).
    Native(FileId, usize),
    Bitcode(&'a str),
}

/// One global symbol of an input, as resolution sees it.
#[derive(Clone, Copy)]
enum SymbolInput {
    Undefined {
        weak: bool,
        /// `STT_*` of the reference: the first one is the type of a symbol nothing defines.
        sym_type: u8,
    },
    Common {
        size: u64,
        align: u64,
        def: SymbolDef,
    },
    Defined {
        weak: bool,
        def: SymbolDef,
        sym_type: u8,
    },
}

/// An archive on the command line.
pub struct ArchiveInput {
    pub path: PathBuf,
    pub source: LazySource,
    /// Header offsets of members already loaded, so a member is never loaded twice.
    pub loaded: HashSet<u64>,
}

/// Where lazy definitions come from: an archive's members, or one object file named between
/// `--start-lib` and `--end-lib` (lld's lazy object: a one-member archive, member offset 0).
pub enum LazySource {
    Archive(archive::Archive<'static>),
    Object(&'static [u8]),
}

/// One line of `--why-extract` output.
#[derive(Clone, Debug)]
pub struct Extraction {
    pub reference: String,
    pub extracted: String,
    /// The symbol whose reference loaded the member (demangled when printed).
    pub symbol: SymbolId,
}

/// The output of resolution: every loaded object, the global symbol table and, per object, the
/// global symbol id of each of its non-local ELF symbols.
pub struct Resolved {
    pub files: Vec<ObjectFile>,
    /// `file_syms[f][i - first_global]` is the global symbol for ELF symbol `i` of file `f`.
    pub file_syms: Vec<Vec<SymbolId>>,
    pub symtab: SymbolTable,
    pub archives: Vec<ArchiveInput>,
    pub extractions: Vec<Extraction>,
    /// Winning file of each COMDAT signature.
    pub comdats: ComdatTable,
    /// Shared libraries, in command-line order.
    pub shared: Vec<SharedFile>,
    /// Whether each shared library resolves a non-weak reference from an object (for
    /// `--as-needed`: only those get a `DT_NEEDED`).
    pub shared_used: Vec<bool>,
    /// LLVM bitcode inputs, in command-line order (compiled by LTO, then replaced by its output).
    pub bitcode: Vec<BitcodeInput>,
    /// `--version-script` contents (empty without one).
    pub versions: crate::input::version_script::Versions,
    /// Names that `.symver foo, foo@V1` made aliases of `foo@V1` (`redirect_symver_aliases`):
    /// defined, though the symbol table no longer says so.
    pub symver_aliases: Vec<SymbolId>,
    /// Every file opened as input, in order (`--dependency-file`).
    pub opened_files: Vec<PathBuf>,
    /// The linker scripts read (`-T`, `--default-script`, or found among the inputs), in
    /// reading order; `resolve::scripts` applies what they say beyond their inputs.
    pub scripts: Vec<linker_script::ScriptFile>,
    /// `--dynamic-list` patterns.
    pub dynamic_list: Vec<crate::input::version_script::Pattern>,
    /// `--export-dynamic-symbol-list` patterns: exported like `--export-dynamic-symbol`.
    pub export_list: Vec<crate::input::version_script::Pattern>,
    /// `extractions` come from a liveness walk (`--gc-archive-members` with bitcode), not from
    /// lld-style member selection.
    pub extractions_from_walk: bool,
    /// Common symbols whose `COMMON` section `--gc-sections` collected: they get no storage and
    /// no symbol table entry, as a symbol in a collected section.
    pub collected_commons: HashSet<SymbolId>,
    /// Every symbol some input declared common, in the order met (with repeats; some are no
    /// longer common). The liveness graph needs the prevailing common symbols and finds them
    /// here instead of scanning the whole symbol table.
    pub common_candidates: Vec<SymbolId>,
    /// Archive members (and `--start-lib` objects) resolution parsed (section headers, symbols,
    /// groups; not relocations), for `--stats`: every one loaded, those of archives without an
    /// index (read for their names) and those parsed ahead that no reference loaded after all.
    /// (`--fortran-common` also looks into members a common symbol meets; those looks are not
    /// counted.)
    pub members_parsed: usize,
    /// `--gc-archive-members`: native archive members the walk before LTO loaded. They stay
    /// in the link (their constructors run) even if LTO then folds away the call that reached
    /// them, as `--why-extract` reports them loaded.
    pub members_loaded_before_lto: HashSet<FileId>,
}

/// The owner recorded for COMDAT groups won by a bitcode module.
const BITCODE_COMDAT_OWNER: u32 = u32::MAX;

/// `first_referrer` values with this bit set name a bitcode file rather than an object.
pub const BITCODE_REFERRER: u32 = 1 << 31;

/// A bitcode file taking part in the link.
pub struct BitcodeInput {
    /// Display name (`path` or `lib.a(member.o)`).
    pub name: String,
    /// LTO's module id: the display name, made unique; lld's id when ThinLTO index files are
    /// written, since it names them (`thin_index::module_id`).
    pub module_id: String,
    /// The module; taken by LTO when it runs.
    pub file: Option<lto::BitcodeFile>,
    /// Global symbol of each bitcode symbol, in the file's symbol order.
    pub syms: Vec<SymbolId>,
    /// Per symbol: it is in a COMDAT that lost to an earlier copy (so it is not prevailing).
    pub discarded: Vec<bool>,
    /// Loaded from an archive (so `--gc-archive-members` may leave it out of the link).
    pub member: bool,
    /// `--gc-archive-members` left this member out: the walk did not reach it.
    pub left_out: bool,
    /// The module's reference graph (summary), read by `mark_live::read_bitcode_summaries`
    /// before the liveness walk that spans native sections and bitcode symbols.
    pub refs: Option<lto::ModuleRefs>,
    /// The identifiers the module's inline asm (and module-level asm) names, read with the
    /// summary; `Err` when the asm could not be read, in which case nothing about which
    /// native code the module may reach is known.
    pub asm_names: Option<std::result::Result<Vec<&'static [u8]>, String>>,
}

/// `--stats`: the members of every archive (and the `--start-lib` objects), which resolution
/// sees through the archive index alone until a reference loads one.
pub fn members_indexed(res: &Resolved) -> usize {
    res.archives
        .iter()
        .map(|a| match &a.source {
            LazySource::Archive(archive) => archive.members().count(),
            LazySource::Object(_) => 1,
        })
        .sum()
}

/// `--stats`: the members read in full (their relocations too): those in the link
/// ([`members_loaded`]) and those the walk left out after all although their relocations had
/// been read (`-z nostart-stop-gc`, see [`defers_member_relocations`]). Bitcode members the
/// walk left out are not compiled, so not counted.
pub fn members_read_in_full(res: &Resolved) -> usize {
    let left_out_read = res
        .files
        .iter()
        .filter(|f| f.archive.is_some() && f.relocations_read && !f.in_link())
        .count();
    members_loaded(res) + left_out_read
}

/// `--stats`: the members in the link: loaded by resolution and, under
/// `--gc-archive-members`, reached by the walk (bitcode members counted as modules, before LTO).
pub fn members_loaded(res: &Resolved) -> usize {
    let loaded: usize = res.archives.iter().map(|a| a.loaded.len()).sum();
    let left_out = res.files.iter().filter(|f| !f.in_link()).count()
        + res.bitcode.iter().filter(|b| b.left_out).count();
    loaded.saturating_sub(left_out)
}

impl Resolved {
    /// The target triple of the first bitcode file still in the link (possibly empty), which
    /// decides the runtime library calls LTO may add (`crate::resolve::libcalls`); `None` without
    /// bitcode.
    pub fn bitcode_triple(&self) -> Option<String> {
        self.bitcode
            .iter()
            .find_map(|b| b.file.as_ref().map(|f| f.target_triple().to_string()))
    }

    /// The global symbol a relocation's symbol index refers to, if it is a global.
    pub fn global_of(&self, file: FileId, index: usize) -> Option<SymbolId> {
        let f = &self.files[file as usize];
        if index < f.first_global {
            return None;
        }
        self.file_syms[file as usize]
            .get(index - f.first_global)
            .copied()
    }

    /// The prevailing common symbols in the order lld creates their `COMMON` sections: files in
    /// input order, skipping files that define no common symbol; in each, its global symbols in
    /// symbol table order, so a common first met in a file whose own copy lost still comes there.
    pub fn commons_in_order(&self) -> Vec<SymbolId> {
        let mut placed: HashSet<SymbolId> = HashSet::new();
        let mut out = Vec::new();
        // Which files define a common symbol, asked of every global of every file: in parallel.
        let with_commons: Vec<usize> = self
            .files
            .par_iter()
            .enumerate()
            .filter(|(_, f)| {
                let globals = f.symbols.get(f.first_global..).unwrap_or_default();
                globals.iter().any(|s| s.st_shndx(LE) == elf::SHN_COMMON)
            })
            .map(|(fi, _)| fi)
            .collect();
        for fi in with_commons {
            for &id in &self.file_syms[fi] {
                if matches!(self.symtab.get(id).def, SymbolDef::Common { .. }) && placed.insert(id)
                {
                    out.push(id);
                }
            }
        }
        out
    }
}

struct Resolver<'c> {
    config: &'c Config,
    out: Resolved,
    errors: Vec<Error>,
    /// The symbols `-y`/`--trace-symbol` names.
    traced: HashSet<SymbolId>,
    seen_files: HashSet<(u64, u64)>,
    search_paths: Vec<PathBuf>,
    /// The input scripts being read, outermost first: a script that names itself again,
    /// directly or through others, is a cycle, not an endless recursion.
    open_scripts: Vec<PathBuf>,
    /// Symbols scripts' `EXTERN` commands name: roots, as `-u` names are.
    script_externs: Vec<String>,
    /// Objects being added are LTO's output: they replace bitcode definitions.
    adding_lto_output: bool,
    /// The bitcode being added is an archive member.
    loading_member: bool,
    /// `.deplibs` specifiers not added yet, with the file naming each.
    dependent_libraries: Vec<(String, String)>,
    /// Archive members being parsed ahead of need.
    ahead: archive_members::MembersAhead,
    /// The command line's inputs being mapped, and their archives and objects read, ahead of
    /// need.
    inputs_ahead: archive_members::InputsAhead,
    /// The format the last script `TARGET(...)` set (`true`: binary), with the number of
    /// `--format` options before the input that read that script: lld has one format state,
    /// which a script's `TARGET` sets for the rest of the command line too, until the next
    /// `--format`.
    script_format: Option<(u32, bool)>,
}

/// Adds the native objects LTO produced: their definitions replace the bitcode ones, and their
/// references (libcalls such as `memcpy` or `__udivti3`) may load more archive members.
/// Bitcode definitions LTO did not emit are gone afterwards (they were internalized or dropped).
pub fn add_lto_objects(
    config: &Config,
    mut out: Resolved,
    objects: Vec<(String, &'static [u8])>,
) -> std::result::Result<Resolved, Vec<Error>> {
    for s in out.symtab.symbols.iter_mut() {
        // The bitcode symbol is gone unless LTO's output defines it again below.
        if let SymbolDef::Bitcode { .. } = s.def {
            s.def = SymbolDef::Undefined;
        }
    }
    // COMDATs won by bitcode now belong to LTO's output, which carries the same groups.
    out.comdats.retain(|owner| owner != BITCODE_COMDAT_OWNER);
    let ahead = archive_members::members_ahead(out.symtab.hasher());
    let inputs_ahead = archive_members::inputs_ahead(out.symtab.hasher());
    let mut r = Resolver {
        config,
        out,
        errors: Vec::new(),
        traced: HashSet::new(),
        seen_files: HashSet::new(),
        search_paths: config.search_paths.clone(),
        open_scripts: Vec::new(),
        script_externs: Vec::new(),
        adding_lto_output: true,
        loading_member: false,
        dependent_libraries: Vec::new(),
        ahead,
        inputs_ahead,
        script_format: None,
    };
    let first_lto_file = r.out.files.len();
    for (name, data) in objects {
        let res = ObjectFile::parse(name, None, data).and_then(|f| r.add_object(f));
        if let Err(e) = res {
            r.errors.push(e);
        }
    }
    r.redirect_wrapped(first_lto_file);
    r.mark_used_shared();
    if r.errors.is_empty() {
        // Members LTO's objects loaded (libcalls) were parsed for resolution only.
        read_relocations(config, &mut r.out)?;
        Ok(r.out)
    } else {
        Err(r.errors)
    }
}

/// Reads every input and resolves symbols.
pub fn resolve(config: &Config) -> std::result::Result<Resolved, Vec<Error>> {
    let symtab = SymbolTable::default();
    let ahead = archive_members::members_ahead(symtab.hasher());
    let inputs_ahead = archive_members::inputs_ahead(symtab.hasher());
    let mut r = Resolver {
        config,
        out: Resolved {
            files: Vec::new(),
            file_syms: Vec::new(),
            symtab,
            archives: Vec::new(),
            extractions: Vec::new(),
            comdats: ComdatTable::default(),
            shared: Vec::new(),
            shared_used: Vec::new(),
            bitcode: Vec::new(),
            versions: Default::default(),
            symver_aliases: Vec::new(),
            opened_files: Vec::new(),
            scripts: Vec::new(),
            dynamic_list: Vec::new(),
            export_list: Vec::new(),
            extractions_from_walk: false,
            common_candidates: Vec::new(),
            members_parsed: 0,
            members_loaded_before_lto: HashSet::new(),
            collected_commons: HashSet::new(),
        },
        errors: Vec::new(),
        traced: HashSet::new(),
        seen_files: HashSet::new(),
        search_paths: config.search_paths.clone(),
        open_scripts: Vec::new(),
        script_externs: Vec::new(),
        adding_lto_output: false,
        loading_member: false,
        dependent_libraries: Vec::new(),
        ahead,
        inputs_ahead,
        script_format: None,
    };
    if let Err(e) = r.run() {
        r.errors.push(e);
    }
    r.out.members_parsed += r.ahead.unused();
    if r.errors.is_empty() {
        read_relocations(config, &mut r.out)?;
        Ok(r.out)
    } else {
        Err(r.errors)
    }
}

/// Whether archive members' relocations wait for the liveness walk: under
/// `--gc-archive-members` (with `--gc-sections`) the walk reads them for the members it
/// reaches, and the others never have them read. With `-z nostart-stop-gc` every member is
/// read here: a `__start_X` node reaches the sections named X of members the walk has not
/// loaded, and their edges must already be in the graph.
pub fn defers_member_relocations(config: &Config) -> bool {
    config.gc_sections && config.gc_archive_members && config.z.start_stop_gc
}

/// The second half of parsing, after resolution and off its sequential path: every object's
/// relocations are read, one file per thread (those of archive members the walk may leave out
/// wait for it: [`defers_member_relocations`]). Errors are reported in file order.
fn read_relocations(config: &Config, res: &mut Resolved) -> std::result::Result<(), Vec<Error>> {
    let defer = defers_member_relocations(config);
    let errors: Vec<Error> = res
        .files
        .par_iter_mut()
        .filter(|f| !(defer && f.archive.is_some()))
        .filter_map(|f| f.read_relocations().err())
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

impl Resolver<'_> {
    fn run(&mut self) -> Result<()> {
        let inputs = self.config.inputs.clone();
        if inputs.is_empty() {
            bail!("no input files");
        }
        for name in &self.config.trace_symbols {
            let leaked: &'static [u8] = Box::leak(name.clone().into_bytes().into_boxed_slice());
            let id = self.out.symtab.intern(leaked);
            self.traced.insert(id);
        }
        // -u names are undefined references from lld's internal file, made before any input.
        for name in &self.config.undefined {
            let leaked: &'static [u8] = Box::leak(name.clone().into_bytes().into_boxed_slice());
            let id = self.out.symtab.intern(leaked);
            let sym = self.out.symtab.get_mut(id);
            sym.referenced = true;
            sym.weak = false;
            self.trace_symbol(id, "<internal>", "reference to");
        }
        self.read_inputs_ahead();
        for input in &inputs {
            self.add_input(input)?;
        }
        // --default-script: read only when no -T script was given (lld reads it after the
        // inputs).
        if let Some(script) = &self.config.default_script {
            if !inputs
                .iter()
                .any(|i| matches!(i.kind, InputKind::Script(_)))
            {
                let input = Input {
                    kind: InputKind::Script(script.clone()),
                    ..inputs.last().cloned().unwrap_or_else(|| inputs[0].clone())
                };
                self.add_input(&input)?;
            }
        }
        let state = inputs.last().map(|i| i.state).unwrap_or_default();
        self.add_dependent_libraries(state)?;
        self.load_libcall_members()?;
        self.add_roots_and_wraps()?;
        self.mark_used_shared();
        self.trace_unresolved();
        Ok(())
    }

    /// The libraries objects name in `.deplibs`, after every command-line input (as lld adds
    /// them) and under the positional state the command line ended with. A specifier is a
    /// library name (`-l` lookup, then the name in the search directories) or a path; the
    /// libraries they bring may name more.
    fn add_dependent_libraries(&mut self, state: crate::config::PositionalState) -> Result<()> {
        let state = crate::config::PositionalState {
            whole_archive: false,
            ..state
        };
        let mut missing = Vec::new();
        while !self.dependent_libraries.is_empty() {
            for (spec, file) in std::mem::take(&mut self.dependent_libraries) {
                let found =
                    library_search::find_library_fs(&spec, &self.search_paths, state.link_static)
                        .ok()
                        .or_else(|| {
                            library_search::find_in_search_paths(
                                &spec,
                                &self.search_paths,
                                &|p: &Path| p.exists(),
                            )
                        });
                let (path, kind) = match found {
                    Some(p) => (p, InputKind::Library(spec)),
                    None if Path::new(&spec).exists() => {
                        (PathBuf::from(&spec), InputKind::Path(PathBuf::from(&spec)))
                    }
                    None => {
                        missing.push(err!(
                            "{file}: unable to find library from dependent library specifier: {spec}"
                        ));
                        continue;
                    }
                };
                let input = Input {
                    kind,
                    state,
                    group: None,
                    lazy: false,
                };
                self.add_file(&path, &input)?;
            }
        }
        match missing.len() {
            0 => Ok(()),
            _ => {
                let last = missing.pop();
                self.errors.extend(missing);
                Err(last.unwrap_or_else(|| err!("unable to find a dependent library")))
            }
        }
    }

    /// The `--remap-inputs` replacement of an input path, if a pattern matches it (exact
    /// patterns before globs, as lld).
    fn remap(&self, path: &Path) -> Option<PathBuf> {
        let rules = &self.config.remap_inputs;
        if rules.is_empty() {
            return None;
        }
        let text = path.to_string_lossy();
        let is_glob = |p: &str| p.contains(['*', '?', '[']);
        rules
            .iter()
            .find(|(from, _)| !is_glob(from) && *from == text)
            .or_else(|| {
                rules.iter().find(|(from, _)| {
                    is_glob(from) && crate::glob::matches(from.as_bytes(), text.as_bytes())
                })
            })
            .map(|(_, to)| to.clone())
    }

    fn add_input(&mut self, input: &Input) -> Result<()> {
        let path = match &input.kind {
            InputKind::Path(p) => p.clone(),
            InputKind::Script(p) => {
                let data = input_files::map_file(p)?;
                self.out.opened_files.push(p.clone());
                return self.add_linker_script(p, data, input);
            }
            InputKind::JustSymbols(p) => {
                let data = input_files::map_file(p)?;
                self.out.opened_files.push(p.clone());
                let file = ObjectFile::parse_just_symbols(p.display().to_string(), data)?;
                return self.add_object(file);
            }
            InputKind::Library(name) => {
                match library_search::find_library_fs(
                    name,
                    &self.search_paths,
                    input.state.link_static,
                ) {
                    Ok(p) => p,
                    Err(e) => {
                        let Some(script) = &self.config.error_handling_script else {
                            return Err(e);
                        };
                        let lib = name.strip_prefix(':').unwrap_or(name);
                        match crate::error::run_error_handling_script(script, "missing-lib", lib) {
                            Some(failed) => {
                                self.errors.push(e);
                                return Err(failed);
                            }
                            None => return Err(e),
                        }
                    }
                }
            }
        };
        self.add_file(&path, input)
    }

    /// Whether `input` is read in `binary` format: as the command line said before it, unless
    /// a script's `TARGET` said otherwise since.
    fn format_binary(&self, input: &Input) -> bool {
        match self.script_format {
            Some((options, binary)) if options == input.state.format_options => binary,
            _ => input.state.format_binary,
        }
    }

    /// The file an input found at `path` (after `-l` lookup) is read from; `None` when
    /// `--remap-inputs` drops it.
    fn file_to_read(&self, path: &Path) -> Option<PathBuf> {
        // --remap-inputs: the first pattern matching the path as found replaces it;
        // `/dev/null` drops the input.
        let path = match self.remap(path) {
            Some(to) if to == Path::new("/dev/null") => return None,
            Some(to) => to,
            None => path.to_path_buf(),
        };
        // --chroot: an absolute path is read under the new root (as lld's readFile does; the
        // library search is not affected).
        Some(match &self.config.chroot {
            Some(root) if path.is_absolute() => {
                let mut p = root.clone().into_os_string();
                p.push(path.as_os_str());
                PathBuf::from(p)
            }
            _ => path,
        })
    }

    /// Hands the files of the command line's inputs to the pool to map and, for archives and
    /// objects, read (`archive_members::InputsAhead`), in command-line order. A library is
    /// looked for in the search directories of the command line: a script's `SEARCH_DIR` may
    /// later find another, which is then read where it is met.
    fn read_inputs_ahead(&self) {
        if !self.inputs_ahead.enabled() {
            return;
        }
        let paths: Vec<(PathBuf, PathBuf)> = self
            .config
            .inputs
            .iter()
            .filter(|i| !i.lazy)
            .filter_map(|i| match &i.kind {
                InputKind::Path(p) => Some(p.clone()),
                InputKind::Library(name) => {
                    library_search::find_library_fs(name, &self.search_paths, i.state.link_static)
                        .ok()
                }
                InputKind::Script(_) | InputKind::JustSymbols(_) => None,
            })
            .filter_map(|p| self.file_to_read(&p))
            .map(|p| (p.clone(), p))
            .collect();
        self.inputs_ahead.request(paths);
    }

    fn add_file(&mut self, path: &Path, input: &Input) -> Result<()> {
        let Some(path) = self.file_to_read(path) else {
            return Ok(());
        };
        let path = path.as_path();
        let (data, ahead) = match self.inputs_ahead.take(&path.to_path_buf()) {
            Some(Ok(read)) => read,
            // An error is reported by reading the file again, where it would come without
            // the pool.
            _ => (input_files::map_file(path)?, None),
        };
        let (archive, object) = match ahead {
            Some(archive_members::ReadAhead::Archive(a)) => (Some(a), None),
            Some(archive_members::ReadAhead::Object(o)) => (None, Some(o)),
            None => (None, None),
        };
        self.out.opened_files.push(path.to_path_buf());
        // lld: in binary format every file is a blob, whatever it contains (an archive, a
        // shared library or a script too), named by its path as given or found.
        if self.format_binary(input) {
            let name = path.display().to_string();
            let symbols_from = path.as_os_str().as_encoded_bytes();
            let file = crate::input::binary_file::parse(name, symbols_from, data)?;
            return self.add_object(file);
        }
        let kind = classify(data);
        // The same shared library reached by two paths (`/lib` is a symlink to `/usr/lib`) is
        // one input. An object or archive given twice is read twice, as lld does (a whole
        // archive's symbols are then duplicates), and a linker script is read again (what it
        // names may now be needed).
        if kind == FileKind::ElfShared {
            if let Ok(meta) = std::fs::metadata(path) {
                use std::os::unix::fs::MetadataExt;
                if !self.seen_files.insert((meta.dev(), meta.ino())) {
                    // lld reads a library again (and `--trace` lists it again) before finding
                    // its soname taken.
                    self.trace(&path.display().to_string());
                    return Ok(());
                }
            }
        }
        let name = path.display().to_string();
        match kind {
            FileKind::ElfRelocatable | FileKind::Bitcode if input.lazy => {
                self.add_lazy_object(path, data, kind)?
            }
            FileKind::ElfRelocatable => {
                let (file, names) = match object {
                    Some(parsed) => {
                        let (file, names) = parsed?;
                        (file, Some(names))
                    }
                    None => (ObjectFile::parse_for_resolution(name, None, data)?, None),
                };
                self.add_object_or_fat_bitcode(file, names, None)?;
            }
            FileKind::Archive => self.add_archive(path, data, input, archive)?,
            FileKind::ElfShared => {
                // lld: under -static or -Bstatic at this point of the command line.
                if input.state.link_static {
                    bail!("attempted static link of dynamic object {name}");
                }
                // lld: a library found by -l is recorded by its file name, one named by
                // path by the path exactly as written.
                let default_soname = match input.kind {
                    InputKind::Library(_) => path
                        .file_name()
                        .map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned()),
                    InputKind::Path(_) | InputKind::JustSymbols(_) | InputKind::Script(_) => {
                        name.clone()
                    }
                };
                let file = SharedFile::parse(name, default_soname, data, input.state.as_needed)?;
                self.add_shared(file)?;
            }
            FileKind::Bitcode => self.add_bitcode(name, data, None)?,
            FileKind::LinkerScript => self.add_linker_script(path, data, input)?,
            FileKind::Unknown => {
                if data.starts_with(b"\x7fELF") {
                    bail!("{name}: unknown file type or unsupported ELF file");
                }
                bail!("{name}: unknown file type");
            }
        }
        Ok(())
    }

    fn add_linker_script(&mut self, path: &Path, data: &'static [u8], input: &Input) -> Result<()> {
        let text = std::str::from_utf8(data)
            .map_err(|_| err!("{}: linker script is not valid UTF-8", path.display()))?;
        let file = linker_script::read_script(text, path, &self.search_paths)?;
        let entries = file.entries.clone();
        // `EXTERN(sym ...)`: undefined references, as `-u` makes them (lld's
        // `ScriptParser::readExtern`); they may load archive members.
        for c in &file.script.commands {
            if let crate::script::ast::Command::Extern(names) = c {
                self.script_externs.extend(names.iter().cloned());
            }
        }
        self.out.scripts.push(file);
        let mut search_paths = std::mem::take(&mut self.search_paths);
        let resolved = {
            let mut ctx = linker_script::ScriptContext {
                script_path: path,
                sysroot: self.config.sysroot.as_deref(),
                search_paths: &mut search_paths,
                link_static: input.state.link_static,
                nostdlib: self.config.nostdlib,
            };
            linker_script::resolve_script(&entries, &mut ctx, &|p: &Path| p.exists())
        };
        self.search_paths = search_paths;
        let resolved = resolved?;
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if self.open_scripts.contains(&key) {
            bail!(
                "{}: there is a cycle in linker script INPUTs",
                path.display()
            );
        }
        // A chain of distinct scripts may be long, but not endless: the limit keeps the
        // recursion within the stack.
        const MAX_SCRIPT_DEPTH: usize = 256;
        if self.open_scripts.len() >= MAX_SCRIPT_DEPTH {
            bail!(
                "{}: linker scripts nested too deeply (more than {MAX_SCRIPT_DEPTH} levels of INPUT or GROUP)",
                path.display()
            );
        }
        self.open_scripts.push(key);
        let added = resolved.iter().try_for_each(|step| match step {
            linker_script::ScriptStep::Load(entry) => {
                let mut sub = input.clone();
                sub.state.as_needed |= entry.as_needed;
                self.add_file(&entry.path, &sub)
            }
            linker_script::ScriptStep::Format { binary } => {
                self.script_format = Some((input.state.format_options, *binary));
                Ok(())
            }
        });
        self.open_scripts.pop();
        added
    }

    fn add_object(&mut self, file: ObjectFile) -> Result<()> {
        self.add_object_named(file, None)
    }

    /// [`add_object`](Self::add_object) with the global names worked out already, when a
    /// thread parsed the object ahead of resolution.
    fn add_object_named(&mut self, mut file: ObjectFile, names: Option<GlobalNames>) -> Result<()> {
        self.trace(&file.name);
        input_files::check_not_gcc_lto(&file)?;
        if self.config.dependent_libraries && !self.adding_lto_output {
            for spec in file.dependent_libraries() {
                let spec = String::from_utf8_lossy(spec).into_owned();
                self.dependent_libraries.push((spec, file.name.clone()));
            }
        }
        let id = self.out.files.len() as FileId;
        let globals = names.unwrap_or_else(|| GlobalNames::of(&file, self.out.symtab.hasher()));

        // COMDAT: the first group with a signature wins; later copies are discarded whole.
        let mut any_discarded = false;
        for (g, &hash) in file.comdats.iter().zip(&globals.comdat_hashes) {
            if !self.out.comdats.claim(g.signature, hash, id) {
                any_discarded = true;
                for m in g.members.iter() {
                    file.sections[m as usize].kind = SectionKind::Discarded;
                }
            }
        }
        // Sections whose SHF_LINK_ORDER / relocation target is discarded follow it.
        if any_discarded && file.markers.link_order {
            for i in 0..file.sections.len() {
                let s = &file.sections[i];
                if s.flags() & u64::from(elf::SHF_LINK_ORDER) != 0 {
                    let link = s.shdr.sh_link(LE) as usize;
                    if file
                        .sections
                        .get(link)
                        .is_some_and(|t| t.kind == SectionKind::Discarded)
                    {
                        file.sections[i].kind = SectionKind::Discarded;
                    }
                }
            }
        }

        // The file joins the table first: a reference that meets a lazy symbol loads the
        // member right away, in the middle of this file's symbols, exactly as lld does (the
        // order decides which weak or common definition wins and the --why-extract order).
        let symbols = file.symbols;
        let first_global = file.first_global;
        // Definitions in discarded sections count as references (empty when nothing is).
        let discarded_sections: Vec<bool> = if any_discarded {
            file.sections
                .iter()
                .map(|s| s.kind == SectionKind::Discarded)
                .collect()
        } else {
            Vec::new()
        };
        let def_sections: Vec<Option<usize>> = (first_global..symbols.len())
            .map(|i| file.sym_section(i))
            .collect();
        self.out.files.push(file);
        // `.symver` definitions: `foo@@V2` defines `foo` (default version V2); `foo@V1` stays
        // its own symbol (a non-default version). Names enter the table in symbol order, as
        // in lld (reports list symbols in that order).
        let sids: Vec<SymbolId> = self
            .out
            .symtab
            .intern_all(&globals.hashes, |k| globals.split[k].0);
        self.out.file_syms.push(sids);
        // As lld: a file's definitions are resolved before its undefined references (which
        // may load archive members), so the order of the two in the symbol table does not
        // change the outcome.
        let is_undef = |i: usize| symbols[i].st_shndx(LE) == elf::SHN_UNDEF;
        let order: Vec<usize> = (first_global..symbols.len())
            .filter(|&i| !is_undef(i))
            .chain((first_global..symbols.len()).filter(|&i| is_undef(i)))
            .collect();
        if self.ahead.enabled() {
            let members: Vec<(u32, u64)> = order
                .iter()
                .filter(|&&i| is_undef(i) && symbols[i].st_bind() != elf::STB_WEAK)
                .filter_map(|&i| {
                    match self
                        .out
                        .symtab
                        .get(self.out.file_syms[id as usize][i - first_global])
                        .def
                    {
                        SymbolDef::Lazy { archive, member } => Some((archive, member)),
                        _ => None,
                    }
                })
                .collect();
            self.parse_ahead(&members);
        }
        for i in order {
            let k = i - first_global;
            let s = &symbols[i];
            let shndx = s.st_shndx(LE);
            let symver = globals.split[k].1;
            let sid = self.out.file_syms[id as usize][k];
            let weak = s.st_bind() == elf::STB_WEAK;
            let discarded = def_sections[k]
                .is_some_and(|sec| discarded_sections.get(sec).copied().unwrap_or(false));
            let input = if shndx == elf::SHN_UNDEF || discarded {
                SymbolInput::Undefined {
                    weak,
                    sym_type: s.st_type(),
                }
            } else if shndx == elf::SHN_COMMON {
                let (size, align) = (s.st_size(LE), s.st_value(LE).max(1));
                let def = SymbolDef::Common {
                    file: id,
                    index: i as u32,
                    size,
                    align,
                };
                SymbolInput::Common { size, align, def }
            } else {
                let def = SymbolDef::Defined {
                    file: id,
                    index: i as u32,
                };
                SymbolInput::Defined {
                    weak,
                    def,
                    sym_type: s.st_type(),
                }
            };
            self.out.symtab.get_mut(sid).used_in_regular_obj = true;
            if let Some(fetch) =
                self.add_global(sid, input, s.st_other() & 3, id, Site::Native(id, i))
            {
                self.fetch_all(vec![fetch], id)?;
            }
            if let Some((version, hidden)) = symver {
                let sym = self.out.symtab.get_mut(sid);
                if sym.def
                    == (SymbolDef::Defined {
                        file: id,
                        index: i as u32,
                    })
                {
                    sym.symver = Some(version);
                    sym.version_hidden = hidden;
                }
            }
        }
        Ok(())
    }

    /// Resolves one global symbol of a new input against the table, with lld's rules. Returns
    /// an archive member to load if a non-weak reference met a lazy symbol.
    fn add_global(
        &mut self,
        sid: SymbolId,
        input: SymbolInput,
        visibility: u8,
        referrer: u32,
        site: Site<'_>,
    ) -> Option<(u32, u64, SymbolId)> {
        if self.is_traced(sid) {
            let what = match input {
                SymbolInput::Undefined { .. } => "reference to",
                SymbolInput::Common { .. } => "common definition of",
                SymbolInput::Defined { .. } => "definition of",
            };
            self.trace_symbol(sid, &self.referrer_name(Some(referrer)), what);
        }
        let sym = self.out.symtab.get_mut(sid);
        sym.visibility = merge_visibility(sym.visibility, visibility);
        match input {
            SymbolInput::Undefined { weak, sym_type } => {
                if !sym.referenced {
                    sym.first_referrer = Some(referrer);
                    sym.referenced = true;
                    if sym.def == SymbolDef::Undefined {
                        sym.weak = weak;
                    }
                    if matches!(sym.def, SymbolDef::Undefined | SymbolDef::Lazy { .. }) {
                        sym.sym_type = sym_type;
                    }
                } else if sym.def == SymbolDef::Undefined && !weak {
                    sym.weak = false;
                }
                if let SymbolDef::Lazy { archive, member } = sym.def {
                    if !weak {
                        return Some((archive, member, sid));
                    }
                    sym.weak = true;
                }
                None
            }
            SymbolInput::Common { size, align, def } => {
                // --fortran-common: a lazy member with a real definition wins over a common,
                // so it is loaded (its definition then takes the symbol).
                if let SymbolDef::Lazy { archive, member } = sym.def {
                    let name = sym.name;
                    if self.config.fortran_common
                        && self
                            .defines_non_common(archive, member, name)
                            .unwrap_or(false)
                    {
                        return Some((archive, member, sid));
                    }
                }
                let sym = self.out.symtab.get_mut(sid);
                self.out.common_candidates.push(sid);
                if self.config.warn_common {
                    let msg = match sym.def {
                        SymbolDef::Common { .. } => Some("multiple common of"),
                        SymbolDef::Defined { .. } | SymbolDef::Bitcode { .. } if !sym.weak => {
                            Some("common")
                        }
                        _ => None,
                    };
                    if let Some(msg) = msg {
                        self.warn_common(sid, msg);
                    }
                }
                let sym = self.out.symtab.get_mut(sid);
                match sym.def {
                    SymbolDef::Undefined | SymbolDef::Lazy { .. } | SymbolDef::Shared { .. } => {
                        sym.def = def;
                        sym.weak = false;
                        sym.sym_type = elf::STT_OBJECT;
                    }
                    SymbolDef::Common {
                        file: f,
                        index: idx,
                        size: old,
                        align: oalign,
                    } => {
                        // The largest common wins; the alignment is the largest of all.
                        let (nf, ni) = match def {
                            SymbolDef::Common { file, index, .. } if size > old => (file, index),
                            _ => (f, idx),
                        };
                        sym.def = SymbolDef::Common {
                            file: nf,
                            index: ni,
                            size: size.max(old),
                            align: align.max(oalign),
                        };
                    }
                    SymbolDef::Defined { .. } | SymbolDef::Bitcode { .. } if sym.weak => {
                        sym.def = def;
                        sym.weak = false;
                        sym.sym_type = elf::STT_OBJECT;
                    }
                    _ => {}
                }
                None
            }
            SymbolInput::Defined {
                weak,
                def,
                sym_type,
            } => {
                let take = match sym.def {
                    SymbolDef::Undefined | SymbolDef::Lazy { .. } | SymbolDef::Shared { .. } => {
                        true
                    }
                    // LTO's output replaces the bitcode it was compiled from.
                    SymbolDef::Bitcode { .. } if self.adding_lto_output => true,
                    SymbolDef::Common { .. } => {
                        if !weak && self.config.warn_common {
                            self.warn_common(sid, "common");
                        }
                        !weak
                    }
                    SymbolDef::Defined { .. } | SymbolDef::Bitcode { .. } => {
                        let sym = self.out.symtab.get(sid);
                        if sym.weak && !weak {
                            true
                        } else {
                            if !sym.weak
                                && !weak
                                && !self.config.allow_multiple_definition
                                && !self.same_absolute(sym.def, site)
                            {
                                let old = sym.def;
                                let e = self.duplicate_error(sid, old, site);
                                self.error_or_warn(e);
                            }
                            false
                        }
                    }
                    SymbolDef::Synthetic | SymbolDef::Absolute(_) => false,
                };
                if take {
                    let sym = self.out.symtab.get_mut(sid);
                    sym.def = def;
                    sym.weak = weak;
                    sym.sym_type = sym_type;
                }
                None
            }
        }
    }

    /// `-u`, `--require-defined`, the entry symbol, and `--wrap`: each may load archive members.
    fn add_roots_and_wraps(&mut self) -> Result<()> {
        let mut roots: Vec<String> = self.config.undefined.clone();
        roots.extend(self.script_externs.iter().cloned());
        roots.extend(self.config.require_defined.iter().cloned());
        // Symbols `--defsym` and scripts' assignments name may load members, as lld's
        // script-referenced symbols do.
        roots.extend(
            self.config
                .defsyms
                .iter()
                .flat_map(|d| d.referenced_symbols()),
        );
        roots.extend(scripts::referenced_symbols(&self.out.scripts));
        let entry = self
            .config
            .entry
            .clone()
            .or_else(|| scripts::entry(&self.out.scripts));
        if self.config.output_kind == OutputKind::Executable {
            roots.push(entry.unwrap_or_else(|| "_start".to_string()));
        } else if let Some(e) = entry {
            roots.push(e);
        }
        roots.extend(self.wrap_roots());
        // --undefined-glob: every lazy symbol the pattern matches loads its member (lld's
        // handleUndefinedGlob; the matches are collected first, as loading adds symbols).
        if !self.config.undefined_globs.is_empty() {
            let matched: Vec<(u32, u64, SymbolId)> = self
                .out
                .symtab
                .symbols
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    self.config
                        .undefined_globs
                        .iter()
                        .any(|p| crate::glob::matches(p.as_bytes(), s.name))
                })
                .filter_map(|(id, s)| match s.def {
                    SymbolDef::Lazy { archive, member } => Some((archive, member, id as SymbolId)),
                    _ => None,
                })
                .collect();
            for (archive, member, id) in matched {
                if matches!(self.out.symtab.get(id).def, SymbolDef::Lazy { .. }) {
                    self.load_member(archive, member, Some(id), None, false)?;
                }
            }
        }
        for name in roots {
            let leaked: &'static [u8] = Box::leak(name.into_bytes().into_boxed_slice());
            let id = self.out.symtab.intern(leaked);
            if let SymbolDef::Lazy { archive, member } = self.out.symtab.get(id).def {
                let sym = self.out.symtab.get_mut(id);
                sym.referenced = true;
                sym.weak = false;
                self.load_member(archive, member, Some(id), None, false)?;
            }
        }
        for name in &self.config.require_defined {
            let ok = self
                .out
                .symtab
                .lookup(name.as_bytes())
                .is_some_and(|id| self.out.symtab.get(id).is_defined());
            if !ok {
                bail!("required symbol '{name}' not defined");
            }
        }
        self.redirect_wrapped(0);
        Ok(())
    }
}

/// lld's rule for an assembler quirk: `.symver foo, foo@V1` defines both `foo@V1` and `foo`.
/// Unless a version script binds `foo` to another version, `foo` is an alias of `foo@V1`:
/// references to it go to `foo@V1` and `foo` itself leaves the output (`.symtab`, `.dynsym`).
/// Without a version for `foo`, it is an alias only if both name the same place.
pub fn redirect_symver_aliases(res: &mut Resolved) {
    let mut redirect: HashMap<SymbolId, SymbolId> = HashMap::new();
    for (id, s) in res.symtab.symbols.iter().enumerate() {
        let (Some(version), true) = (s.symver, s.version_hidden) else {
            continue;
        };
        let SymbolDef::Defined { file, index } = s.def else {
            continue;
        };
        let Some(at) = s.name.iter().position(|&c| c == b'@') else {
            continue;
        };
        let Some(base_id) = res.symtab.lookup(&s.name[..at]) else {
            continue;
        };
        let base = res.symtab.get(base_id);
        let SymbolDef::Defined {
            file: bfile,
            index: bindex,
        } = base.def
        else {
            continue;
        };
        if base.symver.is_some() {
            continue;
        }
        let alias = match res.versions.assign(base.name, None) {
            crate::input::version_script::Assignment::Version(n) => {
                res.versions
                    .names
                    .get(usize::from(n) - 2)
                    .map(String::as_bytes)
                    == Some(version)
            }
            _ => {
                let place = |f: FileId, i: u32| {
                    let file = &res.files[f as usize];
                    let sym = &file.symbols[i as usize];
                    (
                        f,
                        sym.st_shndx(LE),
                        file.sym_section(i as usize),
                        sym.st_value(LE),
                    )
                };
                place(file, index) == place(bfile, bindex)
            }
        };
        if alias {
            redirect.insert(base_id, id as SymbolId);
        }
    }
    if redirect.is_empty() {
        return;
    }
    for ids in res.file_syms.iter_mut() {
        for id in ids.iter_mut() {
            if let Some(&to) = redirect.get(id) {
                *id = to;
            }
        }
    }
    for &base in redirect.keys() {
        res.symver_aliases.push(base);
        let s = res.symtab.get_mut(base);
        s.def = SymbolDef::Undefined;
        s.referenced = false;
        s.weak = false;
    }
}
