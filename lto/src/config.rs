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
