//! Running LTO: resolutions in, native objects out.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use crate::config::LtoConfig;
use crate::ffi;
use crate::input::{BitcodeFile, Bytes};
use crate::records::{Resolution, Severity};

/// One message LLVM emitted while optimizing or generating code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// The text, as LLVM prints it (inline-asm messages start with the module id).
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
            Severity::Note => "note",
        };
        write!(f, "{kind}: {}", self.message)
    }
}

/// One native object produced by LTO.
#[derive(Clone, Debug)]
pub struct NativeObject {
    /// The LTO task: 0..partitions for the full-LTO module, then one per
    /// ThinLTO module, in the order the modules were added.
    pub task: u32,
    /// The module the object was compiled from: `ld-temp.o` for the full-LTO
    /// module, the module id for ThinLTO. lld derives the object's name from
    /// it (`<output>.lto.<stem>.o`).
    pub module_name: String,
    /// An ELF relocatable object (assembly text with `emit_asm`).
    pub data: Vec<u8>,
    /// Taken from the ThinLTO cache rather than compiled.
    pub from_cache: bool,
}

/// Counters for `--stats`/`--time-trace` style reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LtoStats {
    /// Bitcode files added.
    pub modules: usize,
    /// Of those, ThinLTO ones.
    pub thin_modules: usize,
    /// Of those, full-LTO ones (merged into one module).
    pub regular_modules: usize,
    /// LLVM's upper bound on tasks (`getMaxTasks`).
    pub tasks: usize,
    /// Non-empty objects produced.
    pub objects: usize,
    /// ThinLTO modules whose object came from the cache.
    pub cache_hits: usize,
    /// Functions defined in the objects compiled by this run (cache hits
    /// excluded), counted from their ELF symbol tables.
    pub functions_compiled: usize,
}

/// One module's optimized bitcode ([`LtoConfig::emit_llvm`]).
#[derive(Clone, Debug)]
pub struct EmittedModule {
    /// The LTO task, numbered as [`NativeObject::task`].
    pub task: u32,
    /// The module as LLVM bitcode, as it stood before code generation.
    pub data: Vec<u8>,
}

/// Why [`Lto::run`] failed: one message per error, as LLVM worded it, in the
/// order reported (an error several backends report alike is kept once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LtoError {
    /// The messages; never empty.
    pub messages: Vec<String>,
}

impl fmt::Display for LtoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.messages.join("\n"))
    }
}

impl std::error::Error for LtoError {}

impl From<String> for LtoError {
    fn from(message: String) -> Self {
        LtoError {
            messages: vec![message],
        }
    }
}

/// The result of [`Lto::run`].
#[derive(Clone, Debug, Default)]
pub struct LtoOutput {
    /// Native objects in task order, empty tasks left out. The order depends
    /// only on the inputs, never on thread scheduling.
    pub objects: Vec<NativeObject>,
    /// With [`LtoConfig::emit_llvm`], the modules in task order instead of
    /// objects (tasks without a module left out).
    pub bitcode: Vec<EmittedModule>,
    /// Counters.
    pub stats: LtoStats,
    /// Warnings, remarks and notes LLVM emitted (errors fail the run).
    pub diagnostics: Vec<Diagnostic>,
}

/// An LTO link in progress: create it, [`add`](Self::add) every bitcode file
/// with its resolutions, then [`run`](Self::run) once.
pub struct Lto {
    // Field order is drop order: LLVM's modules point into `buffers`.
    raw: ffi::RawLto,
    buffers: Vec<Bytes>,
    config: LtoConfig,
    module_ids: HashSet<String>,
    stats: LtoStats,
}

impl Lto {
    /// Sets up LTO. Fails on out-of-range levels, a bad `-mllvm` option or
    /// cache policy, or without the `llvm` feature.
    pub fn new(config: LtoConfig) -> Result<Lto, String> {
        config.validate()?;
        let raw = ffi::lto_new(&config)?;
        Ok(Lto {
            raw,
            buffers: Vec::new(),
            config,
            module_ids: HashSet::new(),
            stats: LtoStats::default(),
        })
    }

    /// Adds a file with one resolution per symbol, in [`BitcodeFile::symbols`]
    /// order. The file is consumed (LLVM takes its `InputFile`); read what you
    /// need from it first.
    pub fn add(&mut self, file: BitcodeFile, resolutions: &[Resolution]) -> Result<(), String> {
        let BitcodeFile {
            mut raw,
            data,
            module_id,
            bytes,
            archive_member,
            fat_lto_object,
        } = file;
        if archive_member.is_some() || fat_lto_object {
            let (archive, member) = archive_member.unwrap_or_default();
            ffi::set_input_origin(
                &mut raw,
                archive.as_bytes(),
                member.as_bytes(),
                fat_lto_object,
            );
        }
        if resolutions.len() != data.symbols.len() {
            return Err(format!(
                "{module_id}: {} symbol resolutions given for {} symbols",
                resolutions.len(),
                data.symbols.len()
            ));
        }
        if let Some(i) =
            data.symbols.iter().zip(resolutions).position(|(s, r)| {
                r.prevailing && s.flags & crate::input::SymbolFlags::UNDEFINED != 0
            })
        {
            return Err(format!(
                "{module_id}: undefined symbol #{i} cannot be prevailing"
            ));
        }
        // LLVM keys ThinLTO modules by id; a duplicate would fail later with
        // "Expected at most one ThinLTO module per bitcode file".
        if !self.module_ids.insert(module_id.clone()) {
            return Err(format!(
                "{module_id}: the same LTO module id was added twice; ids must be unique"
            ));
        }
        // The bytes must outlive LLVM's use of them, whatever add() returns.
        self.buffers.push(bytes);
        ffi::lto_add(&mut self.raw, raw, resolutions)?;
        self.stats.modules += 1;
        if data.is_thin {
            self.stats.thin_modules += 1;
        } else {
            self.stats.regular_modules += 1;
        }
        Ok(())
    }

    /// Optimizes and generates code, in-process: ThinLTO backends run on
    /// `thin_jobs` threads and hand their objects over concurrently; they are
    /// returned in task order. Errors carry LLVM's error diagnostics.
    pub fn run(self) -> Result<LtoOutput, LtoError> {
        let Lto {
            mut raw,
            buffers,
            config,
            mut stats,
            ..
        } = self;
        let result = ffi::lto_run(&mut raw);
        // LLVM is done with the inputs once run() returns.
        drop(raw);
        drop(buffers);
        let out = result.map_err(|messages| LtoError { messages })?;

        stats.tasks = out.tasks.len();
        stats.cache_hits = out.cache_hits as usize;
        if let Some(path) = &config.obj_path {
            // Index-only runs compile no ThinLTO module: only the full-LTO
            // object (task 0) exists to be written, as lld writes it.
            let index_only = config
                .thin_index_files
                .as_ref()
                .is_some_and(|i| i.index_only);
            let tasks = if index_only {
                &out.tasks[..out.tasks.len().min(1)]
            } else {
                &out.tasks[..]
            };
            write_obj_path(path, tasks).map_err(LtoError::from)?;
        }
        let mut objects = Vec::new();
        for (task, (data, module_name, from_cache)) in out.tasks.into_iter().enumerate() {
            if data.is_empty() {
                continue;
            }
            if !from_cache && !config.emit_asm {
                stats.functions_compiled += count_functions(&data);
            }
            objects.push(NativeObject {
                task: task as u32,
                module_name,
                data,
                from_cache,
            });
        }
        let bitcode = out
            .bitcode
            .into_iter()
            .enumerate()
            .filter(|(_, data)| !data.is_empty())
            .map(|(task, data)| EmittedModule {
                task: task as u32,
                data,
            })
            .collect();
        stats.objects = objects.len();
        let diagnostics = out
            .diagnostics
            .into_iter()
            .map(|(severity, message)| Diagnostic { severity, message })
            .collect();
        Ok(LtoOutput {
            objects,
            bitcode,
            stats,
            diagnostics,
        })
    }
}

impl fmt::Debug for Lto {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lto")
            .field("config", &self.config)
            .field("stats", &self.stats)
            .finish()
    }
}

/// `--lto-obj-path`: task 0 to `path`, task N to `<path>N`, empty tasks
/// included, as lld does.
fn write_obj_path(path: &Path, tasks: &[(Vec<u8>, String, bool)]) -> Result<(), String> {
    for (i, (data, _, _)) in tasks.iter().enumerate() {
        let p = if i == 0 {
            path.to_path_buf()
        } else {
            let mut s = path.as_os_str().to_os_string();
            s.push(i.to_string());
            s.into()
        };
        std::fs::write(&p, data).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    Ok(())
}

/// Defined functions in an ELF object; 0 if it does not parse.
fn count_functions(data: &[u8]) -> usize {
    use object::read::elf::ElfFile64;
    use object::{Object as _, ObjectSymbol as _, SymbolKind};
    let Ok(file) = ElfFile64::<object::Endianness>::parse(data) else {
        return 0;
    };
    file.symbols()
        .filter(|s| s.kind() == SymbolKind::Text && s.is_definition())
        .count()
}
