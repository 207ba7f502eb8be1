//! What the command line asks for: global settings plus the ordered list of inputs, each carrying
//! the positional state that was in force where it appeared. Filled by `args`, read by every phase.

use std::path::PathBuf;

/// lld's maximum and common page size on x86-64.
pub const DEFAULT_PAGE_SIZE: u64 = 4096;

/// `--icf=`: identical code folding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IcfLevel {
    /// No folding (the default).
    None,
    /// Fold only sections whose address no object or export makes significant.
    Safe,
    /// Fold every identical code section (and data whose address is not significant).
    All,
}

/// `--call-graph-profile-sort=`: how a call graph profile orders input sections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallGraphSort {
    /// The profile is not read at all.
    None,
    /// Call-chain clustering (C3), lld's `hfsort`.
    Hfsort,
    /// Cache-directed sort, lld's default.
    Cdsort,
}

/// The kind of file being produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// An executable: static or dynamic, PIE or not (see `Config::pie`, `Config::is_static`).
    Executable,
    /// `-shared`.
    SharedObject,
    /// `-r`.
    Relocatable,
}

/// `-s` / `--strip-all` and `--strip-debug`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strip {
    None,
    Debug,
    All,
}

/// Which local symbols go to `.symtab`: `-x`/`--discard-all`, `-X`/`--discard-locals`,
/// `--discard-none`; `-s` implies `All`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discard {
    /// lld's default: keep locals except `.L` temporaries in mergeable sections.
    Default,
    /// `-X`: drop temporary (`.L`) locals.
    Locals,
    /// `-x`: drop all locals.
    All,
    /// `--discard-none`: keep every local.
    None,
}

/// `--build-id[=STYLE]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildId {
    None,
    Fast,
    Md5,
    Sha1,
    Uuid,
    Hex(Vec<u8>),
}

/// `--hash-style=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashStyle {
    Sysv,
    Gnu,
    Both,
    /// mold's `none`: no hash table (the loader then cannot look symbols up in the object).
    None,
}

/// `--unresolved-symbols=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnresolvedPolicy {
    ReportAll,
    IgnoreAll,
    IgnoreInObjectFiles,
    IgnoreInSharedLibs,
}

/// A symbol the link defines by assignment: `--defsym=SYM=EXPR` (weld reads a number or a
/// symbol name, optionally plus or minus a number, which covers what drivers and build systems
/// pass) or a linker script's assignment outside `SECTIONS` (any expression).
#[derive(Clone, Debug, PartialEq)]
pub struct Defsym {
    pub name: String,
    pub value: DefsymValue,
    /// From a script's `PROVIDE`/`PROVIDE_HIDDEN`: defined only if something references the
    /// symbol and nothing else defines it.
    pub provide: bool,
    /// From a script's `HIDDEN`/`PROVIDE_HIDDEN`: `STV_HIDDEN`.
    pub hidden: bool,
}

impl Defsym {
    /// The symbols the definition reads: an alias's target, an expression's symbols. The
    /// linker references them (lld's script-referenced symbols): roots of the walk, visible
    /// to LTO, and able to load archive members.
    pub fn referenced_symbols(&self) -> Vec<String> {
        match &self.value {
            DefsymValue::Absolute(_) => Vec::new(),
            DefsymValue::Symbol(target, _) => vec![target.clone()],
            DefsymValue::Expr(e) | DefsymValue::Placed(e) => e.symbols(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum DefsymValue {
    Absolute(u64),
    /// Another symbol's value plus an addend.
    Symbol(String, i64),
    /// A script expression that reads the layout (`ADDR(.text) + SIZEOF(.text)`): evaluated
    /// once addresses are known.
    Expr(crate::script::expr::Expr),
    /// An assignment inside a linker script's `SECTIONS`: its value comes from the walk over
    /// the commands (`layout::script_addresses`), where the location counter is.
    Placed(crate::script::expr::Expr),
}

/// `--orphan-handling=place|warn|error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrphanHandling {
    Place,
    Warn,
    Error,
}

/// `--sort-section=name|alignment`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortSection {
    Name,
    Alignment,
}

/// `-z cet-report=`: what to say about input objects that lack the IBT or SHSTK property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CetReport {
    None,
    Warning,
    Error,
}

/// `-z` keywords that change the output.
#[derive(Clone, Debug)]
pub struct ZOptions {
    /// `-z rel`: dynamic relocations as `Elf64_Rel` (`.rel.dyn`, `.rel.plt`, `DT_REL*`), the
    /// addends written at the places; `-z rela` (the default on x86-64) undoes it.
    pub rel: bool,
    pub relro: bool,
    pub now: bool,
    pub execstack: bool,
    /// `-z execstack-if-needed` (mold): an executable stack when an input's
    /// `.note.GNU-stack` asks for one.
    pub execstack_if_needed: bool,
    pub separate_code: bool,
    /// `-z separate-loadable-segments`: every PT_LOAD in pages of its own.
    pub separate_loadable: bool,
    pub text: bool,
    pub defs: bool,
    pub nodelete: bool,
    pub nodlopen: bool,
    /// `-z nodump` (GNU ld): `DF_1_NODUMP`, the object cannot be dumped by `dldump`.
    pub nodump: bool,
    pub origin: bool,
    pub start_stop_gc: bool,
    /// `-z global`, `-z initfirst`, `-z interpose`, `-z nodefaultlib`: `DT_FLAGS_1` bits.
    pub global: bool,
    pub initfirst: bool,
    pub interpose: bool,
    pub nodefaultlib: bool,
    /// `-z nodynamic-undefined-weak`: weak undefined symbols are not imported (they stay 0).
    pub nodynamic_undefined_weak: bool,
    /// `-z rodynamic`: `.dynamic` is read-only and has no `DT_DEBUG`.
    pub rodynamic: bool,
    /// `-z copyreloc` (default) / `-z nocopyreloc`: whether an executable may copy a shared
    /// library's data into itself.
    pub copyreloc: bool,
    /// `-z keep-text-section-prefix`: `.text.hot` & co. stay separate output sections.
    pub keep_text_section_prefix: bool,
    /// `-z keep-data-section-prefix`: `.data.rel.ro.hot`/`.data.rel.ro.unlikely` count as
    /// RELRO (lld); with the built-in layout their output section is `.data.rel.ro` anyway.
    pub keep_data_section_prefix: bool,
    /// `-z lrodata-after-bss`: `.lrodata` after `.lbss` instead of before `.rodata`.
    pub lrodata_after_bss: bool,
    /// `-z sectionheader` (default) / `-z nosectionheader`: whether the section header table is
    /// written.
    pub section_header: bool,
    /// `-z shstk`: the output claims shadow-stack compatibility whatever the inputs say.
    pub shstk: bool,
    /// `-z force-ibt`: the output claims IBT compatibility (and gets IBT PLT entries) whatever
    /// the inputs say; inputs without the property are warned about.
    pub force_ibt: bool,
    /// `-z ibt` (GNU ld): the IBT property (and IBT PLT) whatever the inputs say, without
    /// `-z force-ibt`'s warnings.
    pub ibt: bool,
    /// `-z x86-64-baseline|v2|v3|v4` (GNU ld): the `GNU_PROPERTY_X86_ISA_1_NEEDED` bits.
    pub isa_level_needed: u32,
    /// `-z cet-report=`.
    pub cet_report: CetReport,
    /// `-z retpolineplt`: PLT entries without indirect branches (Spectre v2).
    pub retpolineplt: bool,
    /// `-z ifunc-noplt` (only with `-z notext`): references to IFUNCs are passed on to the
    /// dynamic loader as dynamic relocations instead of going through PLT entries.
    pub ifunc_noplt: bool,
    /// `-z stack-size=N`: `PT_GNU_STACK`'s `p_memsz`.
    pub stack_size: u64,
    /// `-z nognustack`: no `PT_GNU_STACK` at all.
    pub nognustack: bool,
    /// `-z wxneeded`: a `PT_OPENBSD_WXNEEDED` header.
    pub wxneeded: bool,
    /// `-z start-stop-visibility=`: the `STV_*` of `__start_`/`__stop_` symbols.
    pub start_stop_visibility: u8,
    pub max_page_size: Option<u64>,
    pub common_page_size: Option<u64>,
}

impl Default for ZOptions {
    fn default() -> Self {
        // lld's defaults on x86-64: relro on, lazy binding, noexecstack, noseparate-code.
        ZOptions {
            rel: false,
            relro: true,
            now: false,
            execstack: false,
            execstack_if_needed: false,
            separate_code: false,
            separate_loadable: false,
            text: true,
            defs: false,
            nodelete: false,
            nodlopen: false,
            nodump: false,
            origin: false,
            start_stop_gc: true,
            global: false,
            initfirst: false,
            interpose: false,
            nodefaultlib: false,
            nodynamic_undefined_weak: false,
            rodynamic: false,
            copyreloc: true,
            nognustack: false,
            wxneeded: false,
            start_stop_visibility: object::elf::STV_PROTECTED,
            keep_text_section_prefix: false,
            keep_data_section_prefix: false,
            lrodata_after_bss: false,
            section_header: true,
            shstk: false,
            force_ibt: false,
            ibt: false,
            isa_level_needed: 0,
            cet_report: CetReport::None,
            retpolineplt: false,
            ifunc_noplt: false,
            stack_size: 0,
            max_page_size: None,
            common_page_size: None,
        }
    }
}

/// LTO settings, in lld's terms; both the `-plugin-opt=` and the `--lto-*` spellings land here.
#[derive(Clone, Debug)]
pub struct LtoOptions {
    pub opt_level: u8,
    pub cg_opt_level: Option<u8>,
    pub jobs: Option<usize>,
    pub cache_dir: Option<PathBuf>,
    pub cache_policy: Option<String>,
    pub save_temps: bool,
    pub obj_path: Option<PathBuf>,
    pub emit_asm: bool,
    pub mcpu: Option<String>,
    pub llvm_args: Vec<String>,
    pub partitions: usize,
    pub fat_lto_objects: bool,
    /// `--save-temps=STAGE`s (with `save_temps`); empty: every stage, as `--save-temps`.
    pub save_temps_stages: Vec<String>,
    /// `--lto-emit-llvm`: write the optimized bitcode to the output instead of linking.
    pub emit_llvm: bool,
    /// `--lto=`.
    pub kind: lto::LtoKind,
    pub debug_pass_manager: bool,
    /// `--lto-newpm-passes=`, `--lto-aa-pipeline=` (empty: LLVM's default).
    pub newpm_passes: String,
    pub aa_pipeline: String,
    pub whole_program_visibility: bool,
    pub validate_all_vtables_have_type_infos: bool,
    /// `--lto-known-safe-vtables=` patterns, as given.
    pub known_safe_vtables: Vec<String>,
    /// `--lto-sample-profile=` (an empty value unsets it, as in lld).
    pub sample_profile: Option<PathBuf>,
    /// `--lto-cs-profile-file=`, `-plugin-opt=stats-file=`, `-plugin-opt=dwo_dir=` (empty:
    /// not given, as in lld).
    pub cs_profile_generate: bool,
    pub cs_profile_file: String,
    pub pgo_warn_mismatch: bool,
    pub stats_file: String,
    pub dwo_dir: String,
    /// `--lto-basic-block-sections=` as given (empty: not given).
    pub basic_block_sections: String,
    pub basic_block_address_map: bool,
    pub unique_basic_block_section_names: bool,
    /// `--load-pass-plugin=`.
    pub pass_plugins: Vec<PathBuf>,
    /// `--opt-remarks-*` (empty strings: not given).
    pub remarks_filename: String,
    pub remarks_passes: String,
    pub remarks_format: String,
    pub remarks_with_hotness: bool,
    /// `None`: `auto`, from the profile summary; lld's default is 0.
    pub remarks_hotness_threshold: Option<u64>,
    /// Distributed ThinLTO (see `ThinLtoIndexOptions`).
    pub thin_index: ThinLtoIndexOptions,
    /// DTLTO: ThinLTO backends run by an external distributor.
    pub dtlto: DtltoOptions,
}

/// DTLTO's options (`--thinlto-distributor=` and its companions), as lld reads them: strings
/// passed to LLVM's out-of-process backend unchanged.
#[derive(Clone, Debug, Default)]
pub struct DtltoOptions {
    /// `--thinlto-distributor=` (empty: in-process ThinLTO).
    pub distributor: String,
    /// `--thinlto-distributor-arg=`, in order.
    pub distributor_args: Vec<String>,
    /// `--thinlto-remote-compiler=` (empty when not given, as in lld: clang's driver passes
    /// its own path).
    pub remote_compiler: String,
    /// `--thinlto-remote-compiler-prepend-arg=`, in order.
    pub remote_compiler_prepend_args: Vec<String>,
    /// `--thinlto-remote-compiler-arg=`, in order.
    pub remote_compiler_args: Vec<String>,
}

impl DtltoOptions {
    /// Whether ThinLTO backends go to a distributor. lld's index-only mode wins over it.
    pub fn enabled(&self) -> bool {
        !self.distributor.is_empty()
    }
}

/// Distributed ThinLTO's options, as lld reads them.
#[derive(Clone, Debug, Default)]
pub struct ThinLtoIndexOptions {
    /// `--thinlto-index-only[=FILE]`: write index files, link nothing.
    pub index_only: bool,
    /// The last `--thinlto-index-only=` value (empty: no list of native objects).
    pub index_only_file: String,
    /// `--thinlto-emit-index-files` (also on with `index_only`, as in lld).
    pub emit_index_files: bool,
    /// `--thinlto-emit-imports-files`.
    pub emit_imports_files: bool,
    /// `--thinlto-prefix-replace=OLD;NEW[;NATIVE]` (empty strings: not given).
    pub prefix_old: String,
    pub prefix_new: String,
    pub prefix_native: String,
    /// `--thinlto-object-suffix-replace=OLD;NEW`.
    pub object_suffix_replace: Option<(String, String)>,
    /// `--thinlto-single-module=` values.
    pub single_modules: Vec<String>,
}

impl ThinLtoIndexOptions {
    /// The module path a bitcode file gets in index-only mode: lld's
    /// `--thinlto-object-suffix-replace` applies to the file's own path (or
    /// archive member's name) before it becomes the module id.
    pub fn replace_object_suffix(&self, path: &str) -> String {
        match &self.object_suffix_replace {
            Some((old, new)) if self.index_only => match path.strip_suffix(old.as_str()) {
                Some(stem) => format!("{stem}{new}"),
                None => path.to_string(),
            },
            _ => path.to_string(),
        }
    }
}

impl Default for LtoOptions {
    fn default() -> Self {
        LtoOptions {
            opt_level: 2,
            cg_opt_level: None,
            jobs: None,
            cache_dir: None,
            cache_policy: None,
            save_temps: false,
            obj_path: None,
            emit_asm: false,
            mcpu: None,
            llvm_args: Vec::new(),
            partitions: 1,
            fat_lto_objects: false,
            save_temps_stages: Vec::new(),
            emit_llvm: false,
            kind: lto::LtoKind::Default,
            debug_pass_manager: false,
            newpm_passes: String::new(),
            aa_pipeline: String::new(),
            whole_program_visibility: false,
            validate_all_vtables_have_type_infos: false,
            known_safe_vtables: Vec::new(),
            sample_profile: None,
            cs_profile_generate: false,
            cs_profile_file: String::new(),
            pgo_warn_mismatch: true,
            stats_file: String::new(),
            dwo_dir: String::new(),
            basic_block_sections: String::new(),
            basic_block_address_map: false,
            unique_basic_block_section_names: false,
            pass_plugins: Vec::new(),
            remarks_filename: String::new(),
            remarks_passes: String::new(),
            remarks_format: String::new(),
            remarks_with_hotness: false,
            remarks_hotness_threshold: Some(0),
            thin_index: ThinLtoIndexOptions::default(),
            dtlto: DtltoOptions::default(),
        }
    }
}

/// Positional state in force where an input appeared on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionalState {
    /// `--as-needed`.
    pub as_needed: bool,
    /// `-Bstatic` (also set by `-static`): `-l` finds only `.a`.
    pub link_static: bool,
    /// `--whole-archive`.
    pub whole_archive: bool,
    /// `--format=binary` / `-b binary`: the file is a blob of bytes, not an object
    /// (`input::binary_file`). lld keeps it out of `--push-state`.
    pub format_binary: bool,
    /// How many `--format`/`-b` options came before the input. lld's format is one variable
    /// that a script's `TARGET(...)` sets too, and what a script sets holds until the next
    /// `--format`: the count tells the resolver whether one came since.
    pub format_options: u32,
}

/// What an input names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A file path as written.
    Path(PathBuf),
    /// `-lNAME` (`name` = "NAME") or `-l:FILE` (`name` = ":FILE").
    Library(String),
    /// `--just-symbols=FILE`: only the file's symbols, as absolute ones.
    JustSymbols(PathBuf),
    /// `-T FILE`/`--script=FILE`: read as a linker script whatever it looks like.
    Script(PathBuf),
}

/// One input file or library, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub kind: InputKind,
    pub state: PositionalState,
    /// Index of the `--start-group` this input is inside, if any.
    pub group: Option<u32>,
    /// Between `--start-lib` and `--end-lib`: an object file that joins the link only if it
    /// defines a symbol something needs, like an archive member.
    pub lazy: bool,
}

/// How an output section is compressed (`ch_type` of its `Elf64_Chdr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Zlib,
    Zstd,
}

impl Compression {
    /// lld's names, as `--compress-debug-sections=` and `--compress-sections=` take them.
    pub fn from_name(name: &str) -> Option<Compression> {
        match name {
            "none" => Some(Compression::None),
            "zlib" => Some(Compression::Zlib),
            "zstd" => Some(Compression::Zstd),
            _ => None,
        }
    }
}

/// Everything the command line says.
#[derive(Clone, Debug)]
pub struct Config {
    pub output: PathBuf,
    /// `-o` was given (a linker script's `OUTPUT(file)` names the output only otherwise).
    pub output_given: bool,
    pub output_kind: OutputKind,
    pub pie: bool,
    /// `-static` was given (no dynamic linking at all).
    pub is_static: bool,
    pub entry: Option<String>,
    pub undefined: Vec<String>,
    /// `--undefined-glob=PATTERN`: archive members defining a matching symbol are loaded.
    pub undefined_globs: Vec<String>,
    pub require_defined: Vec<String>,
    pub defsyms: Vec<Defsym>,
    pub wrap: Vec<String>,
    pub threads: Option<usize>,
    pub sysroot: Option<PathBuf>,
    pub search_paths: Vec<PathBuf>,
    pub strip: Strip,
    pub discard: Discard,
    pub build_id: BuildId,
    pub z: ZOptions,
    pub image_base: Option<u64>,
    pub allow_multiple_definition: bool,
    pub eh_frame_hdr: bool,
    pub gc_sections: bool,
    /// `--rosegment` (default) / `--no-rosegment`: read-only sections get a segment apart from
    /// executable ones.
    pub rosegment: bool,
    /// `--unique`: an output section for every input section (all are orphans without a
    /// linker script).
    pub unique: bool,
    /// `--emit-relocs` / `-q`: every output section with input relocations gets a `.rela<name>`
    /// section holding them (offsets and symbols mapped to the output), as lld writes them.
    pub emit_relocs: bool,
    /// `--randomize-section-padding=SEED`.
    pub randomize_section_padding: Option<u64>,
    /// `--shuffle-sections=GLOB=SEED`, in order (seed -1 is `u32::MAX`: reverse).
    pub shuffle_sections: Vec<(String, u32)>,
    /// `--symbol-ordering-file=FILE`: sections holding the named symbols come first, in order.
    pub symbol_ordering_file: Option<PathBuf>,
    /// `--call-graph-ordering-file=FILE`: `FROM TO COUNT` lines replacing the objects'
    /// `.llvm.call-graph-profile` sections.
    pub call_graph_ordering_file: Option<PathBuf>,
    /// `--call-graph-profile-sort=` (default cdsort; `--no-call-graph-profile-sort` is none).
    pub call_graph_profile_sort: CallGraphSort,
    /// `--print-symbol-order=FILE`: the symbols in the order hfsort chose.
    pub print_symbol_order: Option<PathBuf>,
    /// `--bp-compression-sort=`, `--bp-startup-sort=` and their companions: balanced
    /// partitioning orders the sections instead of the call graph profile
    /// (`crate::order::bp_section_order`).
    pub bp: BpOptions,
    /// `--irpgo-profile=FILE`: the temporal profile `--bp-startup-sort=function` reads.
    pub irpgo_profile: Option<PathBuf>,
    /// `--[no-]warn-symbol-ordering` (default on).
    pub warn_symbol_ordering: bool,
    /// `--apply-dynamic-relocs`: places with a `.rela.dyn` relocation also hold the link-time
    /// value (lld writes 0 there by default on x86-64, the addend being in the relocation).
    pub apply_dynamic_relocs: bool,
    /// `-O N`: lld's link optimisation level (default 1); 2 and above turn `--branch-to-branch`
    /// on unless it is given either way.
    pub optimize: u8,
    /// `--branch-to-branch` / `--no-branch-to-branch` as given (`None`: follow `-O`).
    pub branch_to_branch_flag: Option<bool>,
    /// `--optimize-bb-jumps`: delete (or flip) jumps at the end of an executable input section
    /// that only reach the next one (basic-block sections).
    pub optimize_bb_jumps: bool,
    /// `--icf=`: which identical input sections are folded into one (`crate::icf`).
    pub icf: IcfLevel,
    /// `--keep-unique=SYMBOL`: the sections defining these symbols are never folded.
    pub keep_unique: Vec<String>,
    /// `--ignore-data-address-equality`: with `--icf=all`, read-only data may be folded even
    /// when its address is taken.
    pub ignore_data_address_equality: bool,
    /// `--print-icf-sections`: list the folded sections on stdout, as lld does.
    pub print_icf_sections: bool,
    /// `--gdb-index`: write a `.gdb_index` section (`crate::synthetic::gdb_index`) and leave the inputs'
    /// `.debug_gnu_pubnames`/`.debug_gnu_pubtypes` out of the output, as lld does.
    pub gdb_index: bool,
    /// `--debug-names`: replace the inputs' `.debug_names` sections by one merged name index
    /// (`crate::synthetic::debug_names`), as lld does; without it they are concatenated.
    pub debug_names: bool,
    /// `--split-stack-adjust-size=N` (lld's default 16384): validated and kept, though on x86-64
    /// lld 22 always adjusts split-stack prologues by 0x4000 whatever it says.
    pub split_stack_adjust_size: i64,
    /// `--dependent-libraries` (default) / `--no-dependent-libraries`: the libraries objects
    /// name in `.deplibs` join the link.
    pub dependent_libraries: bool,
    /// `-N`/`--omagic`: one read-write-execute PT_LOAD, sections not page aligned, no RELRO.
    pub omagic: bool,
    /// `-n`/`--nmagic`: sections not page aligned and no RELRO; segments keep their permissions.
    pub nmagic: bool,
    /// `--oformat=binary` (or a script's `OUTPUT_FORMAT(binary)`): the output is a flat image,
    /// the loaded sections' bytes at their load addresses less the lowest one, with no ELF
    /// header, program headers or section headers (`crate::layout::flat_image`).
    pub oformat_binary: bool,
    /// `--warn-common`: warn when a common symbol meets another common or a definition.
    pub warn_common: bool,
    /// `--noinhibit-exec`: undefined and duplicate symbols are warnings; the output is written.
    pub noinhibit_exec: bool,
    /// `--no-gnu-unique`: `STB_GNU_UNIQUE` definitions are written `STB_GLOBAL`.
    pub no_gnu_unique: bool,
    /// `--retain-symbols-file=FILE`.
    pub retain_symbols_file: Option<PathBuf>,
    /// `--fortran-common`: an archive member defining a common symbol for real is loaded.
    pub fortran_common: bool,
    /// `-d`/`--define-common`: common symbols get space in a `-r` output (a final link always
    /// allocates them).
    pub define_common: bool,
    /// `--chroot DIR`: absolute input paths are read under DIR.
    pub chroot: Option<PathBuf>,
    /// `--time-trace[=FILE]` (empty: next to the output).
    pub time_trace: Option<PathBuf>,
    /// `--time-trace-granularity=N` microseconds (lld's default 500).
    pub time_trace_granularity: u64,
    /// `--reproduce=FILE.tar`.
    pub reproduce: Option<PathBuf>,
    /// The command line as `--reproduce` replays it: one line per argument, input paths made
    /// relative to the archive's root.
    pub reproduce_args: Vec<String>,
    /// `-y`/`--trace-symbol` names.
    pub trace_symbols: Vec<String>,
    /// `--cref`.
    pub cref: bool,
    /// `--remap-inputs`/`--remap-inputs-file`: (glob, replacement) for input paths, in order.
    pub remap_inputs: Vec<(String, PathBuf)>,
    /// `-z dead-reloc-in-nonalloc=GLOB=VALUE` rules, in order (the last match wins).
    pub dead_reloc_in_nonalloc: Vec<(String, u64)>,
    /// `--compress-debug-sections=` (the last one given).
    pub compress_debug_sections: Compression,
    /// The level of `--compress-debug-sections=zlib:N`/`zstd:N` (mold's syntax; 0: default).
    pub compress_debug_level: u32,
    /// `--compress-sections=GLOB=TYPE[:LEVEL]` rules, in order (the last match wins, over
    /// `--compress-debug-sections` too); level 0 is the compressor's default.
    pub compress_sections: Vec<(String, Compression, u32)>,
    /// `--error-handling-script=SCRIPT`.
    pub error_handling_script: Option<PathBuf>,
    /// `--package-metadata=`: the (percent-decoded) text of `.note.package`.
    pub package_metadata: Option<String>,
    /// `--print-archive-stats=FILE`.
    pub print_archive_stats: Option<PathBuf>,
    /// `--dependency-file=FILE`.
    pub dependency_file: Option<PathBuf>,
    /// `--section-start=NAME=ADDR` and `-Ttext`/`-Tdata`/`-Tbss` (flagged `true`), in order.
    pub section_starts: Vec<(String, u64, bool)>,
    pub print_gc_sections: bool,
    pub gc_archive_members: bool,
    /// `--trace`/`-t`: print each input file as it is read.
    pub trace: bool,
    /// `--demangle` (default) / `--no-demangle`: symbol names in diagnostics.
    pub demangle: bool,
    /// `--verify-precise-graph`: after LTO, check that no symbol the graph hid from regular
    /// objects is referenced by a live native section (see `verify_graph`).
    pub verify_precise_graph: bool,
    pub dynamic_linker: Option<String>,
    pub no_dynamic_linker: bool,
    pub hash_style: HashStyle,
    pub export_dynamic: bool,
    pub export_dynamic_symbols: Vec<String>,
    pub soname: Option<String>,
    pub rpath: Vec<String>,
    pub rpath_link: Vec<String>,
    pub enable_new_dtags: bool,
    pub version_scripts: Vec<PathBuf>,
    /// `VERSION { ... }` blocks of linker scripts, after the `--version-script` files: the
    /// block's text (preceded by newlines, so messages give the script's own line numbers) and
    /// the script's path.
    pub script_versions: Vec<(String, PathBuf)>,
    /// Linker scripts' `ASSERT`s outside `SECTIONS`, checked on the final layout.
    pub script_asserts: Vec<crate::script::ast::Assert>,
    /// Linker scripts' commands that shape the output (`SECTIONS`, `MEMORY`, `REGION_ALIAS`,
    /// `PHDRS`), in command-line order: layout makes its command list of them; `KEEP`
    /// descriptions are roots of the walk.
    pub script_layout: Vec<crate::script::ast::Command>,
    /// `--default-script`/`-dT`: read when no `-T` script is given.
    pub default_script: Option<PathBuf>,
    pub dynamic_lists: Vec<PathBuf>,
    pub no_undefined_version: bool,
    pub unresolved_symbols: UnresolvedPolicy,
    pub allow_shlib_undefined: Option<bool>,
    /// Whether undefined symbols referenced by objects are reported, as the last of
    /// `--unresolved-symbols`, `--no-undefined`, `-z defs`, `-z undefs` says (lld weighs them in
    /// command-line order); `None`: the default, reported unless `-shared`.
    pub report_undefined_in_objects: Option<bool>,
    /// The same for shared libraries' undefined references (`--[no-]allow-shlib-undefined`).
    pub report_undefined_in_shlibs: Option<bool>,
    /// `--warn-unresolved-symbols` (versus `--error-unresolved-symbols`, the default): reported
    /// undefined symbols that may be defined at run time are warnings.
    pub warn_unresolved_symbols: bool,
    pub bsymbolic: bool,
    pub bsymbolic_functions: bool,
    /// `-Bsymbolic-non-weak`: non-weak definitions of a shared object bind locally.
    pub bsymbolic_non_weak: bool,
    /// `-Bsymbolic-non-weak-functions`: non-weak function definitions bind locally.
    pub bsymbolic_non_weak_functions: bool,
    /// `--init=SYM`, `--fini=SYM`: the functions `DT_INIT`/`DT_FINI` name (default `_init`,
    /// `_fini`).
    pub init: String,
    pub fini: String,
    /// `--filter`/`-F` and `--auxiliary`/`-f`: `DT_FILTER` and `DT_AUXILIARY` names.
    pub filters: Vec<String>,
    pub auxiliaries: Vec<String>,
    /// `--audit=LIB` (GNU ld): `DT_AUDIT`, the libraries joined by `:`.
    pub audit: Vec<String>,
    /// `--depaudit=LIB`/`-P LIB` (GNU ld): `DT_DEPAUDIT`, with the `DT_AUDIT` of the shared
    /// libraries linked against.
    pub depaudit: Vec<String>,
    /// `--dynamic-list-data` (GNU ld): every global data symbol is in the dynamic list.
    pub dynamic_list_data: bool,
    /// `--relocatable-merge-sections` (mold): under `-r`, input sections go to the output
    /// sections a final link would give them (`.text.foo` to `.text`).
    pub relocatable_merge_sections: bool,
    /// `--force-group-allocation`: under `-r`, section groups are dissolved and their
    /// members placed like any other section, as in a final link.
    pub force_group_allocation: bool,
    /// `--spare-program-headers=N` (mold): N extra `PT_NULL` program headers.
    pub spare_program_headers: usize,
    /// `-m` was given: the target is known without any input file.
    pub emulation_given: bool,
    /// `--default-symver` (GNU ld): a shared object's unversioned exported definitions get
    /// the version named by its soname (or its file name).
    pub default_symver: bool,
    /// `--section-align=NAME=ALIGN` (mold): the least alignment of an output section.
    pub section_align: Vec<(String, u64)>,
    /// `--exclude-libs=LIB[,:]...` (file names of archives, or `ALL`): what members of those
    /// archives define is not exported.
    pub exclude_libs: Vec<String>,
    /// `--export-dynamic-symbol-list=FILE`: dynamic-list files whose patterns are exported.
    pub export_dynamic_symbol_lists: Vec<PathBuf>,
    /// `--pack-dyn-relocs=android` (or `android+relr`): `.rela.dyn` in Android's APS2 format.
    pub pack_dyn_relocs_android: bool,
    pub pack_dyn_relocs_relr: bool,
    /// `--use-android-relr-tags`: `SHT_ANDROID_RELR` and `DT_ANDROID_RELR*`.
    pub use_android_relr_tags: bool,
    /// `-z pack-relative-relocs` (not `--pack-dyn-relocs=relr`): also require glibc's
    /// `GLIBC_ABI_DT_RELR` version.
    pub relr_glibc: bool,
    pub map_file: Option<PathBuf>,
    /// `-M` / `--print-map`: the map goes to stdout.
    pub print_map: bool,
    /// `--print-memory-usage`: a linker script's memory regions and how full they are.
    pub print_memory_usage: bool,
    /// `--orphan-handling`: what to say of input sections a `SECTIONS` command does not place.
    pub orphan_handling: OrphanHandling,
    /// `--sort-section`: how input section descriptions without a sort keyword sort.
    pub sort_section: Option<SortSection>,
    pub why_extract: Option<PathBuf>,
    pub why_live: Vec<String>,
    pub time: bool,
    pub stats: bool,
    pub verbose: bool,
    pub fatal_warnings: bool,
    /// `--error-limit`: errors printed before lld's "too many errors" notice (0: all).
    pub error_limit: usize,
    /// `-w` / `--no-warnings`: suppress warnings (and cancel `--fatal-warnings`).
    pub no_warnings: bool,
    /// `--relax` (default) / `--no-relax`: GOTPCRELX and TLS relaxations.
    pub relax: bool,
    /// `-nostdlib`: ignore `SEARCH_DIR` in linker scripts (lld has no built-in dirs).
    pub nostdlib: bool,
    pub lto: LtoOptions,
    pub inputs: Vec<Input>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            output: PathBuf::from("a.out"),
            output_kind: OutputKind::Executable,
            pie: false,
            is_static: false,
            entry: None,
            undefined: Vec::new(),
            undefined_globs: Vec::new(),
            require_defined: Vec::new(),
            defsyms: Vec::new(),
            wrap: Vec::new(),
            threads: None,
            sysroot: None,
            search_paths: Vec::new(),
            strip: Strip::None,
            discard: Discard::Default,
            build_id: BuildId::None,
            z: ZOptions::default(),
            image_base: None,
            allow_multiple_definition: false,
            eh_frame_hdr: false,
            gc_sections: false,
            rosegment: true,
            unique: false,
            emit_relocs: false,
            randomize_section_padding: None,
            shuffle_sections: Vec::new(),
            symbol_ordering_file: None,
            call_graph_ordering_file: None,
            call_graph_profile_sort: CallGraphSort::Cdsort,
            print_symbol_order: None,
            bp: Default::default(),
            irpgo_profile: None,
            warn_symbol_ordering: true,
            apply_dynamic_relocs: false,
            optimize: 1,
            branch_to_branch_flag: None,
            optimize_bb_jumps: false,
            icf: IcfLevel::None,
            keep_unique: Vec::new(),
            ignore_data_address_equality: false,
            print_icf_sections: false,
            gdb_index: false,
            debug_names: false,
            split_stack_adjust_size: 16384,
            dependent_libraries: true,
            omagic: false,
            nmagic: false,
            oformat_binary: false,
            warn_common: false,
            noinhibit_exec: false,
            no_gnu_unique: false,
            retain_symbols_file: None,
            fortran_common: false,
            define_common: false,
            chroot: None,
            time_trace: None,
            time_trace_granularity: 500,
            reproduce: None,
            reproduce_args: Vec::new(),
            trace_symbols: Vec::new(),
            cref: false,
            remap_inputs: Vec::new(),
            dead_reloc_in_nonalloc: Vec::new(),
            compress_debug_sections: Compression::None,
            compress_debug_level: 0,
            compress_sections: Vec::new(),
            error_handling_script: None,
            package_metadata: None,
            print_archive_stats: None,
            dependency_file: None,
            section_starts: Vec::new(),
            print_gc_sections: false,
            gc_archive_members: false,
            trace: false,
            demangle: true,
            verify_precise_graph: false,
            dynamic_linker: None,
            no_dynamic_linker: false,
            hash_style: HashStyle::Both,
            export_dynamic: false,
            export_dynamic_symbols: Vec::new(),
            soname: None,
            rpath: Vec::new(),
            rpath_link: Vec::new(),
            enable_new_dtags: true,
            version_scripts: Vec::new(),
            script_versions: Vec::new(),
            default_script: None,
            script_asserts: Vec::new(),
            script_layout: Vec::new(),
            dynamic_lists: Vec::new(),
            // lld 22 reports version-script names that match nothing unless --undefined-version.
            no_undefined_version: true,
            unresolved_symbols: UnresolvedPolicy::ReportAll,
            allow_shlib_undefined: None,
            report_undefined_in_objects: None,
            report_undefined_in_shlibs: None,
            warn_unresolved_symbols: false,
            bsymbolic: false,
            bsymbolic_functions: false,
            bsymbolic_non_weak: false,
            bsymbolic_non_weak_functions: false,
            init: "_init".to_string(),
            fini: "_fini".to_string(),
            filters: Vec::new(),
            auxiliaries: Vec::new(),
            audit: Vec::new(),
            depaudit: Vec::new(),
            dynamic_list_data: false,
            relocatable_merge_sections: false,
            force_group_allocation: false,
            spare_program_headers: 0,
            emulation_given: false,
            default_symver: false,
            section_align: Vec::new(),
            exclude_libs: Vec::new(),
            export_dynamic_symbol_lists: Vec::new(),
            pack_dyn_relocs_relr: false,
            pack_dyn_relocs_android: false,
            use_android_relr_tags: false,
            relr_glibc: false,
            map_file: None,
            print_map: false,
            output_given: false,
            print_memory_usage: false,
            orphan_handling: OrphanHandling::Place,
            sort_section: None,
            why_extract: None,
            why_live: Vec::new(),
            time: false,
            stats: false,
            verbose: false,
            fatal_warnings: false,
            error_limit: 20,
            no_warnings: false,
            relax: true,
            nostdlib: false,
            lto: LtoOptions::default(),
            inputs: Vec::new(),
        }
    }
}

impl Config {
    /// Reports a warning as lld does: `weld: warning: MSG` on standard error; an error under
    /// `--fatal-warnings`; nothing under `--no-warnings`.
    pub fn warn(&self, msg: &str) -> crate::error::Result<()> {
        if self.fatal_warnings {
            return Err(crate::error::Error(msg.to_string()));
        }
        if !self.no_warnings {
            crate::error::print_diagnostic("warning", msg);
        }
        Ok(())
    }

    /// Whether calls and jumps to an unconditional `jmp` go straight to its destination: as lld,
    /// `--[no-]branch-to-branch` (the last one given), else on from `-O2`.
    pub fn branch_to_branch(&self) -> bool {
        self.branch_to_branch_flag.unwrap_or(self.optimize >= 2)
    }

    /// Whether undefined symbols referenced by objects are reported (lld's unresolved-symbol
    /// policy for regular objects).
    pub fn reports_undefined_in_objects(&self) -> bool {
        self.report_undefined_in_objects
            .unwrap_or(self.output_kind != OutputKind::SharedObject)
    }

    /// The address `--section-start` (or `-Ttext`/`-Tdata`/`-Tbss`, which win) gives output
    /// section `name`; the last one given counts.
    pub fn section_start(&self, name: &str) -> Option<u64> {
        let mut found = None;
        for (n, addr, from_t) in &self.section_starts {
            if n == name && (*from_t || !matches!(found, Some((_, true)))) {
                found = Some((*addr, *from_t));
            }
        }
        found.map(|(a, _)| a)
    }

    /// Position-independent output: a PIE or a shared object.
    pub fn is_pic(&self) -> bool {
        self.pie || self.output_kind == OutputKind::SharedObject
    }

    /// `-N` or `-n`: the output is not laid out in pages (lld: "paging disabled"). The headers
    /// are then outside every PT_LOAD and there is no PT_PHDR.
    pub fn paging_disabled(&self) -> bool {
        self.omagic || self.nmagic
    }

    /// The page size segments are aligned to (`-z max-page-size`, 4 KiB by default as lld on
    /// x86-64; 1 when paging is disabled).
    pub fn max_page_size(&self) -> u64 {
        if self.paging_disabled() {
            return 1;
        }
        self.z.max_page_size.unwrap_or(DEFAULT_PAGE_SIZE)
    }

    /// The page size the end of RELRO is aligned to (`-z common-page-size`, at most the maximum
    /// page size).
    pub fn common_page_size(&self) -> u64 {
        if self.paging_disabled() {
            return 1;
        }
        self.z
            .common_page_size
            .unwrap_or(DEFAULT_PAGE_SIZE)
            .min(self.max_page_size())
    }

    /// The address of the ELF header (`--image-base`): lld's 0x200000 for non-PIE, 0 for PIC.
    pub fn image_base(&self) -> u64 {
        self.image_base
            .unwrap_or(if self.is_pic() { 0 } else { 0x200000 })
    }
}

/// What the command line asks of the balanced-partitioning section orderer
/// (`crate::order::bp_section_order`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BpOptions {
    /// `--bp-compression-sort=function|both`.
    pub function_compression: bool,
    /// `--bp-compression-sort=data|both`.
    pub data_compression: bool,
    /// `--bp-startup-sort=function`.
    pub startup_functions: bool,
    /// `--bp-compression-sort-startup-functions`: startup functions also get the utility nodes
    /// of their contents.
    pub compression_sort_startup_functions: bool,
    /// `--verbose-bp-section-orderer`: counts (and, with a profile, the page fault area) on
    /// standard error.
    pub verbose: bool,
}

impl BpOptions {
    /// Whether balanced partitioning decides the order (instead of the call graph profile).
    pub fn enabled(&self) -> bool {
        self.function_compression || self.data_compression || self.startup_functions
    }
}
