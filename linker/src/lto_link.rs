//! Running LTO inside the link (lld's `LTO.cpp`): choosing each bitcode symbol's resolution,
//! configuring LLVM as lld does, and handing the native objects back to resolution.

use crate::config::{Config, OutputKind};
use crate::error::{Error, Result};
use crate::resolve::Resolved;
use crate::symbol_table::SymbolDef;
use crate::{bail, err};
use hashbrown::HashSet;

/// What LTO did, for `--stats` and `--time`.
#[derive(Clone, Debug, Default)]
pub struct LtoReport {
    pub modules: usize,
    pub thin_modules: usize,
    pub regular_modules: usize,
    pub symbols: usize,
    pub prevailing: usize,
    pub visible_to_regular_obj: usize,
    pub objects: usize,
    pub cache_hits: usize,
    pub functions_compiled: usize,
}

/// Inputs to the resolution rule that are not in the symbol table: names that are roots.
pub struct ResolutionContext<'a> {
    pub config: &'a Config,
    /// Symbol names that something outside LTO needs: the entry point, `-u`, `--require-defined`,
    /// and runtime library calls that code generation may introduce.
    pub extra_roots: HashSet<Vec<u8>>,
}

/// The resolution of every symbol of every bitcode file, with lld's rule: a prevailing bitcode
/// definition is visible to regular objects when any native object refers to it (or it is a
/// root or exported). This is the step the reference graph will make precise; it receives the
/// symbol table (through `res`) and the liveness walk, which lld's rule ignores.
pub fn lld_resolutions(
    ctx: &ResolutionContext<'_>,
    res: &Resolved,
    _graph: Option<&crate::mark_live::MarkResult>,
) -> Vec<Vec<lto::Resolution>> {
    let exe = ctx.config.output_kind == OutputKind::Executable;
    let wrapped: HashSet<&[u8]> = ctx
        .config
        .wrap
        .iter()
        .flat_map(|w| [w.as_bytes()])
        .chain(ctx.config.defsyms.iter().map(|d| d.name.as_bytes()))
        .collect();
    res.bitcode
        .iter()
        .enumerate()
        .map(|(fi, b)| {
            b.syms
                .iter()
                .enumerate()
                .map(|(i, &sid)| {
                    let s = res.symtab.get(sid);
                    let prevailing = !b.discarded[i]
                        && s.def
                            == SymbolDef::Bitcode {
                                file: fi as u32,
                                index: i as u32,
                            };
                    let root = ctx.extra_roots.contains(s.name);
                    let visible =
                        s.used_in_regular_obj || s.referenced_by_dso || s.in_dynsym || root;
                    // lld: defined in this output (by anyone) and not preemptible.
                    let defined_here = prevailing
                        || matches!(
                            s.def,
                            SymbolDef::Defined { .. }
                                | SymbolDef::Common { .. }
                                | SymbolDef::Absolute(_)
                        );
                    lto::Resolution {
                        prevailing,
                        visible_to_regular_obj: visible,
                        final_definition_in_linkage_unit: defined_here && (exe || !s.preemptible),
                        export_dynamic: s.in_dynsym,
                        linker_redefined: wrapped.contains(s.name),
                    }
                })
                .collect()
        })
        .collect()
}

/// weld's rule under `--gc-sections`: the same as lld's, except that a bitcode symbol is
/// visible to regular objects only when a *live* native section (or a root, or the dynamic
/// symbol table) references it. A reference from native code the walk found dead no longer
/// forces LTO to keep and compile the symbol and everything it reaches.
pub fn precise_resolutions(
    ctx: &ResolutionContext<'_>,
    res: &Resolved,
    graph: &crate::mark_live::MarkResult,
) -> Vec<Vec<lto::Resolution>> {
    let native = crate::mark_live::NODE_SECTION;
    let live_native_refs = graph
        .liveness
        .symbols_referenced_from(&graph.graph, |k| k == native)
        .ok();
    let mut out = lld_resolutions(ctx, res, Some(graph));
    for (b, rs) in res.bitcode.iter().zip(out.iter_mut()) {
        for (&sid, r) in b.syms.iter().zip(rs.iter_mut()) {
            let s = res.symtab.get(sid);
            let from_live_native = live_native_refs
                .as_ref()
                .is_none_or(|set| set.contains(gc::SymId(sid)));
            r.visible_to_regular_obj = from_live_native
                || s.in_dynsym
                || s.referenced_by_dso
                || ctx.extra_roots.contains(s.name);
        }
    }
    out
}

fn lto_config(config: &Config) -> lto::LtoConfig {
    let l = &config.lto;
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let jobs = l.jobs.or(config.threads).unwrap_or(threads);
    lto::LtoConfig {
        opt_level: l.opt_level,
        cg_opt_level: l.cg_opt_level,
        cpu: l.mcpu.clone(),
        llvm_args: l.llvm_args.clone(),
        thin_jobs: jobs as u32,
        partitions: l.partitions.max(1) as u32,
        cache_dir: l.cache_dir.clone(),
        cache_policy: l.cache_policy.clone(),
        // lld's temporaries are OUTPUT.0.0.preopt.bc, OUTPUT.index.bc, OUTPUT.resolution.txt...
        save_temps: l
            .save_temps
            .then(|| format!("{}.", config.output.display())),
        obj_path: l.obj_path.clone(),
        emit_asm: l.emit_asm,
        reloc_model: if config.is_pic() {
            lto::RelocModel::Pic
        } else {
            lto::RelocModel::Static
        },
        ..Default::default()
    }
}

/// Runs LTO over every bitcode input and returns the native objects (named after their
/// modules), leaking their bytes for the rest of the link like every other input.
pub fn run_lto(
    config: &Config,
    res: &mut Resolved,
    graph: Option<&crate::mark_live::MarkResult>,
    report: &mut LtoReport,
) -> std::result::Result<Vec<(String, &'static [u8])>, Vec<Error>> {
    let one = |e: Error| vec![e];
    let lc = lto_config(config);
    if !config.lto.llvm_args.is_empty() {
        lto::set_llvm_options(&config.lto.llvm_args).map_err(|e| one(err!("-mllvm: {e}")))?;
    }
    let mut extra_roots: HashSet<Vec<u8>> = HashSet::new();
    let entry = config
        .entry
        .clone()
        .or_else(|| (config.output_kind == OutputKind::Executable).then(|| "_start".to_string()));
    for n in entry
        .iter()
        .chain(&config.undefined)
        .chain(&config.require_defined)
    {
        extra_roots.insert(n.as_bytes().to_vec());
    }
    // Code generation may introduce calls to runtime functions; a bitcode definition of one
    // must survive LTO (lld marks these visible too).
    let triple = res
        .bitcode
        .iter()
        .find_map(|b| b.file.as_ref().map(|f| f.target_triple().to_string()));
    if let Some(t) = triple.filter(|t| !t.is_empty()) {
        if let Ok(names) = lto::runtime_libcall_symbols(&t) {
            extra_roots.extend(names.into_iter().map(String::into_bytes));
        }
    }
    let ctx = ResolutionContext {
        config,
        extra_roots,
    };
    let resolutions = match graph {
        Some(g) => precise_resolutions(&ctx, res, g),
        None => lld_resolutions(&ctx, res, None),
    };

    let mut lto = lto::Lto::new(lc).map_err(|e| one(err!("LTO: {e}")))?;
    for (b, rs) in res.bitcode.iter_mut().zip(&resolutions) {
        let Some(file) = b.file.take() else { continue };
        report.modules += 1;
        if file.is_thin() {
            report.thin_modules += 1;
        } else {
            report.regular_modules += 1;
        }
        report.symbols += rs.len();
        report.prevailing += rs.iter().filter(|r| r.prevailing).count();
        report.visible_to_regular_obj += rs
            .iter()
            .filter(|r| r.prevailing && r.visible_to_regular_obj)
            .count();
        lto.add(file, rs)
            .map_err(|e| one(err!("{}: {e}", b.name)))?;
    }
    let out = lto.run().map_err(|e| one(err!("LTO: {e}")))?;
    for d in &out.diagnostics {
        match d.severity {
            lto::Severity::Warning => eprintln!("weld: warning: {}", d.message),
            // lld prints optimization remarks (-mllvm -pass-remarks=...) on standard output.
            lto::Severity::Remark => println!("{}", d.message),
            _ => {}
        }
    }
    if config.lto.save_temps {
        // lld also keeps LTO's native objects: OUTPUT.lto.o (full), OUTPUT.lto.MODULE.o (thin).
        for o in &out.objects {
            let path = lto_temp_path(config, &o.module_name, "o");
            std::fs::write(&path, &o.data).map_err(|e| {
                vec![err!(
                    "cannot open {}: {}",
                    path.display(),
                    crate::input_files::io_reason(&e)
                )]
            })?;
        }
    }
    report.objects = out.stats.objects;
    report.cache_hits = out.stats.cache_hits;
    report.functions_compiled = out.stats.functions_compiled;
    if config.lto.emit_asm {
        write_asm(config, &out).map_err(one)?;
        return Ok(Vec::new());
    }
    Ok(out
        .objects
        .into_iter()
        .map(|o| {
            // lld names LTO's objects OUTPUT.lto.STEM.o (OUTPUT.lto.o for full LTO) in diagnostics.
            let path = lto_temp_path(config, &o.module_name, "o");
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let data: &'static [u8] = Box::leak(o.data.into_boxed_slice());
            (name, data)
        })
        .collect())
}

/// lld's name for a file LTO produced: `OUTPUT.lto.EXT` for the full-LTO module,
/// `OUTPUT.lto.STEM.EXT` for a ThinLTO module (STEM: the input's file name without `.o`).
fn lto_temp_path(config: &Config, module: &str, ext: &str) -> std::path::PathBuf {
    let out = config.output.display();
    // The merged full-LTO module is lld's `ld-temp.o`.
    if module.is_empty() || module == "ld-temp.o" {
        return format!("{out}.lto.{ext}").into();
    }
    let file = std::path::Path::new(module)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = file.strip_suffix(".o").unwrap_or(&file);
    format!("{out}.lto.{stem}.{ext}").into()
}

/// `--lto-emit-asm`: the assembly of each LTO task goes to `OUTPUT.lto.s` (full LTO) or
/// `OUTPUT.lto.MODULE.s` (ThinLTO) and nothing is linked, as lld does.
fn write_asm(config: &Config, out: &lto::LtoOutput) -> Result<()> {
    if out.objects.is_empty() {
        bail!("LTO produced no output");
    }
    for o in &out.objects {
        let path = lto_temp_path(config, &o.module_name, "s");
        std::fs::write(&path, &o.data).map_err(|e| {
            err!(
                "cannot open {}: {}",
                path.display(),
                crate::input_files::io_reason(&e)
            )
        })?;
    }
    Ok(())
}
