//! LTO settings, in lld's terms.

use std::path::PathBuf;

/// The relocation model LTO generates code for. lld picks it from the output
/// kind: `Pic` for `-shared` and `-pie`, `Static` for other executables, and
/// `Default` (whatever the bitcode says) for `-r`. An explicit
/// `-mllvm -relocation-model=` overrides it, as in lld.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocModel {
    /// Keep the model recorded in the bitcode (lld: `-r`).
    Default,
    /// Non-PIC code for a position-dependent executable.
    Static,
    /// Position-independent code (shared objects and PIEs).
    Pic,
    /// Non-PIC code that may still call into shared objects.
    DynamicNoPic,
}

/// Which backend compiles the modules (lld's `--lto=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LtoKind {
    /// Each module as it was compiled: ThinLTO modules by the ThinLTO
    /// backend, the others merged into one full-LTO module.
    #[default]
    Default,
    /// Every module merged into one full-LTO module (`--lto=full`). The
    /// bitcode must have been compiled with `-funified-lto`.
    UnifiedRegular,
    /// Every module through the ThinLTO backend (`--lto=thin`), likewise
    /// only for `-funified-lto` bitcode.
    UnifiedThin,
}

/// Basic block sections for LTO's code generation
/// (`--lto-basic-block-sections=`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BasicBlockSections {
    /// Not given: whatever `-mllvm -basic-block-sections=` says (off by default).
    #[default]
    Default,
    /// A section for every basic block (`all`).
    All,
    /// No basic block sections (`none`).
    None,
    /// Sections for the functions and blocks a profile lists: the contents of
    /// the file given (LLVM's basic block sections list format).
    List(Vec<u8>),
}

/// Distributed ThinLTO's index files (lld's `--thinlto-index-only`,
/// `--thinlto-emit-index-files` and the options that shape them). Each
/// ThinLTO module `M` gets `M.thinlto.bc`, its slice of the combined summary
/// index as LLVM's own writer makes it, from which `clang -fthinlto-index=`
/// compiles the module elsewhere; a module with no ThinLTO index (full LTO)
/// gets an empty file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThinIndexFiles {
    /// Write the index files instead of compiling the ThinLTO modules
    /// (`--thinlto-index-only`); otherwise they are written while compiling
    /// (`--thinlto-emit-index-files`).
    pub index_only: bool,
    /// Also write `M.imports`, the modules `M` imports from, one per line.
    pub emit_imports_files: bool,
    /// `--thinlto-prefix-replace=OLD;NEW;NATIVE`: a module path starting with
    /// `prefix_old` has its files written under `prefix_new` instead, and is
    /// listed under `native_prefix` (or `prefix_new` if empty) in
    /// `linked_objects_file`. Missing directories are created.
    pub prefix_old: String,
    /// See [`prefix_old`](Self::prefix_old).
    pub prefix_new: String,
    /// See [`prefix_old`](Self::prefix_old).
    pub native_prefix: String,
    /// With `index_only`, where to list the native object each ThinLTO module
    /// becomes, in link order, for the final link (`--thinlto-index-only=FILE`).
    pub linked_objects_file: Option<PathBuf>,
}

/// DTLTO: the ThinLTO backends run out of process, through LLVM's own
/// out-of-process backend (`createOutOfProcessThinBackend`) and its `DTLTO`
/// driver, as lld 22 runs them (`--thinlto-distributor=` and companions).
///
/// After the thin link, LLVM writes each module's index file and one JSON
/// job file, `{"common": {"linker_output", "args", "inputs"}, "jobs":
/// [{"args", "inputs", "outputs"}]}` (a job's command line is `common.args`
/// followed by its own `args`, the remote compiler first), and runs
/// `distributor distributor_args... JSON`. The native objects it leaves are
/// read back as if compiled in process; the ThinLTO cache works as in
/// process (only the modules it misses are sent). Archive members (bitcode
/// with no file of its own) are written next to the output for the remote
/// compiler and removed afterwards; a thin archive's members are named by
/// their own paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dtlto {
    /// The distributor program, run as given (not searched in `PATH`).
    pub distributor: String,
    /// Its arguments, before the JSON file's path.
    pub distributor_args: Vec<String>,
    /// The compiler each job runs (`common.args[0]`); lld leaves it empty
    /// when not given (clang's driver passes its own path).
    pub remote_compiler: String,
    /// Arguments put before the compiler's own in every job.
    pub remote_compiler_prepend_args: Vec<String>,
    /// Arguments added after the compiler's own in every job.
    pub remote_compiler_args: Vec<String>,
    /// The linker's output file: it names the link in the JSON
    /// (`common.linker_output`) and its directory receives the archive
    /// members written for the remote compiler.
    pub linker_output: String,
}

/// How to run LTO. `Default` matches lld's defaults.
#[derive(Clone, Debug)]
pub struct LtoConfig {
    /// Optimization level 0..=3 (`--lto-O`, `-plugin-opt=O`); lld's default is 2.
    pub opt_level: u8,
    /// Codegen optimization level 0..=3 (`--lto-CGO`). `None` does what lld
    /// does: 3 for `--lto-O3`, otherwise 2.
    pub cg_opt_level: Option<u8>,
    /// Target CPU (`-plugin-opt=mcpu=`); `None` takes `-mllvm -mcpu=` or the
    /// bitcode's own.
    pub cpu: Option<String>,
    /// Options for LLVM itself (`-mllvm`, `-plugin-opt=-...`). They are parsed
    /// into LLVM's process-global option registry (see
    /// [`crate::set_llvm_options`]) and are part of the ThinLTO cache key.
    pub llvm_args: Vec<String>,
    /// ThinLTO backend threads (`--thinlto-jobs`); 0 means one per physical
    /// core. The output does not depend on it.
    pub thin_jobs: u32,
    /// Full-LTO codegen partitions (`--lto-partitions`), at least 1. More than
    /// one yields that many objects for the full-LTO module.
    pub partitions: u32,
    /// ThinLTO cache directory (`--thinlto-cache-dir`).
    pub cache_dir: Option<PathBuf>,
    /// Cache pruning policy (`--thinlto-cache-policy`), in LLVM's syntax;
    /// `None` uses LLVM's defaults. Pruning runs after each cached link, as in lld.
    pub cache_policy: Option<String>,
    /// `--save-temps`: write the intermediate bitcode of every LTO phase to
    /// files whose names start with this prefix (lld passes `<output>.`).
    pub save_temps: Option<String>,
    /// `--lto-obj-path`: also write the native objects to this path (task
    /// 0) and `<path><task>` (other tasks), and always emit the full-LTO
    /// object even if empty, as lld does.
    pub obj_path: Option<PathBuf>,
    /// `--lto-emit-asm`: produce assembly text instead of objects.
    pub emit_asm: bool,
    /// Relocation model (see [`RelocModel`]).
    pub reloc_model: RelocModel,
    /// A section per function. lld 22 always turns this on for LTO, with or
    /// without `--gc-sections`; so does the default here.
    pub function_sections: bool,
    /// A section per variable; on by default, as in lld.
    pub data_sections: bool,
    /// `--lto-debug-pass-manager`: LLVM prints the passes it runs.
    pub debug_pass_manager: bool,
    /// `--disable-verify`: skip the IR verifier.
    pub disable_verify: bool,
    /// With [`save_temps`](Self::save_temps), the stages to save
    /// (`--save-temps=`: `resolution`, `preopt`, `promote`, `internalize`,
    /// `import`, `opt`, `precodegen`, `combinedindex`); empty saves them all.
    /// lld's `prelink` (the native objects) is the linker's to write.
    pub save_temps_stages: Vec<String>,
    /// `--lto-emit-llvm`: stop before code generation and hand back each
    /// task's optimized module as bitcode ([`crate::LtoOutput::bitcode`])
    /// instead of objects.
    pub emit_llvm: bool,
    /// Which backend compiles the modules (`--lto=`).
    pub kind: LtoKind,
    /// `--lto-newpm-passes=`: the optimization pipeline, in `opt -passes=`
    /// syntax, instead of LLVM's default for the level.
    pub opt_pipeline: Option<String>,
    /// `--lto-aa-pipeline=`: the alias analyses, in `opt -aa-pipeline=` syntax.
    pub aa_pipeline: Option<String>,
    /// `--opt-remarks-filename`: write optimization remarks there (ThinLTO
    /// backends write `<file>.thin.<task>.<format>`).
    pub remarks_filename: Option<PathBuf>,
    /// `--opt-remarks-passes`: a regex of the passes whose remarks are kept.
    pub remarks_passes: Option<String>,
    /// `--opt-remarks-format`: `yaml` (LLVM's default) or `bitstream`.
    pub remarks_format: Option<String>,
    /// `--opt-remarks-with-hotness`: add profile hotness to each remark.
    pub remarks_with_hotness: bool,
    /// `--opt-remarks-hotness-threshold`: the least hotness a remark needs to
    /// be written; `None` takes it from the profile summary (`auto`).
    pub remarks_hotness_threshold: Option<u64>,
    /// `-plugin-opt=stats-file=`: LLVM's statistics as JSON.
    pub stats_file: Option<PathBuf>,
    /// `--lto-sample-profile=`: a sample (AutoFDO) profile to optimize with.
    pub sample_profile: Option<PathBuf>,
    /// `--lto-cs-profile-generate`: add context-sensitive PGO
    /// instrumentation after inlining.
    pub cs_profile_generate: bool,
    /// `--lto-cs-profile-file=`: with `cs_profile_generate`, where the
    /// instrumented program writes its profile; without it, the
    /// context-sensitive profile to optimize with.
    pub cs_profile: Option<PathBuf>,
    /// `--lto-pgo-warn-mismatch` (the default) or `--no-`: whether a profile
    /// that does not match the code is reported.
    pub pgo_warn_mismatch: bool,
    /// `-plugin-opt=dwo_dir=`: with `-gsplit-dwarf` bitcode, where the
    /// `.dwo` files go (`<dir>/<task>.dwo`).
    pub dwo_dir: Option<PathBuf>,
    /// `--lto-whole-program-visibility`: the link sees every class
    /// hierarchy, so virtual calls may be devirtualized.
    pub whole_program_visibility: bool,
    /// `--lto-validate-all-vtables-have-type-infos`: keep vtables whose type
    /// info native code can see out of the whole-program assumption.
    pub validate_all_vtables_have_type_infos: bool,
    /// The outcome of that validation: every vtable of the native inputs has
    /// a type info (else whole-program visibility is off).
    pub all_vtables_have_type_infos: bool,
    /// `--load-pass-plugin=`: pass plugins LLVM loads into its pipelines.
    pub pass_plugins: Vec<PathBuf>,
    /// `--lto-basic-block-sections=`.
    pub basic_block_sections: BasicBlockSections,
    /// `--lto-basic-block-address-map`: emit `.llvm_bb_addr_map`.
    pub basic_block_address_map: bool,
    /// `--lto-unique-basic-block-section-names`.
    pub unique_basic_block_section_names: bool,
    /// Distributed ThinLTO index files to write, if any (see
    /// [`ThinIndexFiles`]).
    pub thin_index_files: Option<ThinIndexFiles>,
    /// `--thinlto-single-module=`: compile only the ThinLTO modules whose id
    /// contains one of these strings (for debugging); empty compiles all.
    pub thin_modules_to_compile: Vec<String>,
    /// DTLTO: compile the ThinLTO modules through a distributor (see
    /// [`Dtlto`]); `None` compiles them in process. Index-only runs
    /// ([`ThinIndexFiles::index_only`]) ignore it, as lld does.
    pub dtlto: Option<Dtlto>,
}

impl Default for LtoConfig {
    fn default() -> Self {
        LtoConfig {
            opt_level: 2,
            cg_opt_level: None,
            cpu: None,
            llvm_args: Vec::new(),
            thin_jobs: 0,
            partitions: 1,
            cache_dir: None,
            cache_policy: None,
            save_temps: None,
            obj_path: None,
            emit_asm: false,
            reloc_model: RelocModel::Pic,
            function_sections: true,
            data_sections: true,
            debug_pass_manager: false,
            disable_verify: false,
            save_temps_stages: Vec::new(),
            emit_llvm: false,
            kind: LtoKind::Default,
            opt_pipeline: None,
            aa_pipeline: None,
            remarks_filename: None,
            remarks_passes: None,
            remarks_format: None,
            remarks_with_hotness: false,
            remarks_hotness_threshold: Some(0),
            stats_file: None,
            sample_profile: None,
            cs_profile_generate: false,
            cs_profile: None,
            pgo_warn_mismatch: true,
            dwo_dir: None,
            whole_program_visibility: false,
            validate_all_vtables_have_type_infos: false,
            all_vtables_have_type_infos: false,
            pass_plugins: Vec::new(),
            basic_block_sections: BasicBlockSections::Default,
            basic_block_address_map: false,
            unique_basic_block_section_names: false,
            thin_index_files: None,
            thin_modules_to_compile: Vec::new(),
            dtlto: None,
        }
    }
}

impl LtoConfig {
    /// The codegen level LTO will actually use (see
    /// [`cg_opt_level`](Self::cg_opt_level)).
    pub fn effective_cg_opt_level(&self) -> u8 {
        self.cg_opt_level
            .unwrap_or(if self.opt_level >= 3 { 3 } else { 2 })
    }

    /// Checks the ranges LLVM would otherwise reject less clearly.
    pub(crate) fn validate(&self) -> Result<(), String> {
        if self.opt_level > 3 {
            return Err(format!(
                "invalid optimization level for LTO: {}",
                self.opt_level
            ));
        }
        if let Some(l) = self.cg_opt_level {
            if l > 3 {
                return Err(format!("invalid codegen optimization level for LTO: {l}"));
            }
        }
        if self.partitions == 0 {
            return Err("--lto-partitions: number of threads must be > 0".to_string());
        }
        Ok(())
    }
}
