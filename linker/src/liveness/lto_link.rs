//! Running LTO inside the link (lld's `LTO.cpp`): choosing each bitcode symbol's resolution,
//! configuring LLVM as lld does, and handing the native objects back to resolution.

use crate::config::{Config, OutputKind};
use crate::error::{Error, Result};
use crate::resolve::symbol_table::{Symbol, SymbolDef, SymbolId};
use crate::resolve::Resolved;
use crate::{bail, err};
use hashbrown::HashSet;
use object::read::elf::Sym;
use object::LittleEndian as LE;

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
    /// Prevailing bitcode symbols lld's rule would have kept visible to regular objects and
    /// the precise graph hid (for `--verify-precise-graph`).
    pub hidden_by_graph: HashSet<SymbolId>,
}

/// Inputs to the resolution rule that are not in the symbol table: names that are roots.
pub struct ResolutionContext<'a> {
    pub config: &'a Config,
    /// What is exported and preemptible before the walk (the symbol table's own flags are
    /// stored only after the sweep).
    pub flags: &'a crate::resolve::symbol_flags::SymbolFlags,
    /// Symbol names that something outside LTO needs: the entry point, `-u`, `--require-defined`,
    /// and runtime library calls that code generation may introduce.
    pub extra_roots: HashSet<Vec<u8>>,
}

/// Names that lld's `--wrap` handling marks: the wrapped symbols and their `__real_` names are
/// redefined by the linker after LTO (`LinkerRedefined`, so LTO neither inlines nor
/// internalizes them), and a redirection target is referenced after the renaming
/// (`referencedAfterWrap`): `__wrap_foo` when `foo` is referenced or defined, `foo` when
/// `__real_foo` is.
struct WrapNames {
    redefined: HashSet<Vec<u8>>,
    referenced_after_wrap: HashSet<Vec<u8>>,
}

fn wrap_names(config: &Config, res: &Resolved) -> WrapNames {
    let mut w = WrapNames {
        redefined: HashSet::new(),
        referenced_after_wrap: HashSet::new(),
    };
    let seen = |name: &[u8]| {
        res.symtab
            .lookup(name)
            .map(|id| res.symtab.get(id))
            .is_some_and(|s| s.referenced || s.is_defined())
    };
    for name in &config.wrap {
        let real = format!("__real_{name}").into_bytes();
        if seen(&real) {
            w.referenced_after_wrap.insert(name.as_bytes().to_vec());
        }
        if seen(name.as_bytes()) {
            w.referenced_after_wrap
                .insert(format!("__wrap_{name}").into_bytes());
        }
        w.redefined.insert(name.as_bytes().to_vec());
        w.redefined.insert(real);
    }
    w
}

/// Section names some `__start_NAME`/`__stop_NAME` symbol of the link names: lld keeps bitcode
/// symbols placed in such sections visible to regular objects, since the section is reached
/// through the encapsulation symbols, which LTO knows nothing of.
fn start_stop_sections(res: &Resolved) -> HashSet<Vec<u8>> {
    res.symtab
        .symbols
        .iter()
        .filter(|s| s.referenced || s.is_defined())
        .filter_map(|s| crate::input::section_rules::start_stop_section(s.name))
        .map(|(sec, _)| sec.to_vec())
        .collect()
}

/// Whether a definition has an address that LTO may reach PC-relatively: not an absolute
/// symbol (`--defsym=x=NUMBER`, `SHN_ABS` in an object) nor one the linker defines by
/// expression (`--defsym=x=y`), which lld excludes from `FinalDefinitionInLinkageUnit`.
fn has_section_address(res: &Resolved, def: SymbolDef) -> bool {
    match def {
        SymbolDef::Absolute(_) | SymbolDef::Synthetic => false,
        SymbolDef::Defined { file, index } => res.files[file as usize]
            .symbols
            .get(index as usize)
            .is_some_and(|s| s.st_shndx(LE) != object::elf::SHN_ABS),
        _ => true,
    }
}

/// The resolution of every symbol of every bitcode file, with lld's rule: a prevailing bitcode
/// definition is visible to regular objects when any native object refers to it (or it is a
/// root or exported, a `--wrap` redirection target, or placed in a section some
/// `__start_`/`__stop_` symbol names).
pub fn lld_resolutions(ctx: &ResolutionContext<'_>, res: &Resolved) -> Vec<Vec<lto::Resolution>> {
    resolutions_with(ctx, res, |_, s| s.used_in_regular_obj)
}

/// Resolutions by lld's rule, with `native_reference` deciding which native references count.
fn resolutions_with(
    ctx: &ResolutionContext<'_>,
    res: &Resolved,
    native_reference: impl Fn(SymbolId, &Symbol) -> bool,
) -> Vec<Vec<lto::Resolution>> {
    let exe = ctx.config.output_kind == OutputKind::Executable;
    // lld: every symbol of a -r link stays visible, the later link may use any of them.
    let relocatable = ctx.config.output_kind == OutputKind::Relocatable;
    let wrap = wrap_names(ctx.config, res);
    let defsym_names: HashSet<&[u8]> = ctx
        .config
        .defsyms
        .iter()
        .map(|d| d.name.as_bytes())
        .collect();
    let start_stop = start_stop_sections(res);
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
                    let in_start_stop_section = !start_stop.is_empty()
                        && b.file
                            .as_ref()
                            .and_then(|f| f.symbol(i))
                            .and_then(|sym| sym.section)
                            .is_some_and(|sec| start_stop.contains(sec));
                    let root = ctx.extra_roots.contains(s.name)
                        || wrap.referenced_after_wrap.contains(s.name)
                        || in_start_stop_section;
                    let visible = relocatable
                        || native_reference(sid, s)
                        || s.referenced_by_dso
                        || ctx.flags.flags[sid as usize].in_dynsym
                        || root;
                    let redefined =
                        wrap.redefined.contains(s.name) || defsym_names.contains(s.name);
                    // lld: defined in this output (by anyone), not preemptible, and with an
                    // address in a section.
                    let defined_here = prevailing
                        || (matches!(s.def, SymbolDef::Defined { .. } | SymbolDef::Common { .. })
                            && has_section_address(res, s.def));
                    lto::Resolution {
                        prevailing,
                        visible_to_regular_obj: visible,
                        // Under -r nothing is final but what a non-default visibility keeps
                        // in the later link's output (lld's rule): the code stays fit for a
                        // shared library (TLS by initial-exec, not local-exec, for one).
                        final_definition_in_linkage_unit: defined_here
                            && !redefined
                            && if relocatable {
                                s.visibility != object::elf::STV_DEFAULT
                            } else {
                                exe || !ctx.flags.flags[sid as usize].preemptible
                            },
                        export_dynamic: ctx.flags.flags[sid as usize].in_dynsym,
                        linker_redefined: redefined,
                    }
                })
                .collect()
        })
        .collect()
}

/// weld's rule under `--gc-sections`: the same as lld's, except that a native reference makes
/// a bitcode symbol visible to regular objects only when it comes from a *live* native
/// section. A reference from native code the walk found dead no longer forces LTO to keep and
/// compile the symbol and everything it reaches. Every reference the graph cannot weigh
/// counts as lld counts it (see docs/architecture.md): roots of the walk (CIE personality
/// routines, `--defsym` targets, ...), references from non-allocated sections (kept whatever
/// is live), and every native reference to a symbol inline asm in live bitcode may name.
pub fn precise_resolutions(
    ctx: &ResolutionContext<'_>,
    res: &Resolved,
    graph: &crate::liveness::mark_live::MarkResult,
) -> Vec<Vec<lto::Resolution>> {
    // Inline asm the bridge could not read may name any native symbol: lld's rule for all.
    let asm_unknown = res
        .bitcode
        .iter()
        .zip(&graph.bitcode_active)
        .any(|(b, &active)| active && matches!(b.asm_names, Some(Err(_))));
    if asm_unknown {
        return lld_resolutions(ctx, res);
    }
    let native = crate::liveness::mark_live::NODE_SECTION;
    let live_native_refs = graph
        .liveness
        .symbols_referenced_from(&graph.graph, |k| k == native)
        .ok();
    let unweighed = crate::liveness::mark_live::references_outside_graph(res, graph);
    let whole_program = ctx.config.lto.whole_program_visibility;
    resolutions_with(ctx, res, |sid, s| {
        let from_live_native = live_native_refs
            .as_ref()
            .is_none_or(|set| set.contains(gc::SymId(sid)));
        from_live_native
            || (s.used_in_regular_obj
                && (unweighed.contains(&sid) || (whole_program && is_class_metadata(s.name))))
    })
}

/// C++ class metadata (Itanium special names `_ZT*`: vtables, VTTs, type infos and their
/// names, virtual thunks). Under `--lto-whole-program-visibility`, LLVM decides which class
/// hierarchies it may devirtualize from whether native code can see their type infos and
/// vtables; these keep lld's rule (any native reference counts, live or not), so that the
/// decision, and so the code, is lld's.
fn is_class_metadata(name: &[u8]) -> bool {
    name.starts_with(b"_ZT")
}

/// What LTO's setup reads and checks whether or not any bitcode takes part (lld sets LTO up
/// on every link): the basic block sections list and the vtable validation.
pub struct LtoSetup {
    pub basic_block_sections: lto::BasicBlockSections,
    /// `--lto-validate-all-vtables-have-type-infos` found a type info for every vtable the
    /// native inputs define (or no validation was asked for).
    pub all_vtables_have_type_infos: bool,
}

/// Runs the checks of [`LtoSetup`], printing what lld prints. Call before LTO, after symbol
/// resolution (the vtable validation looks at every native input loaded).
pub fn setup(config: &Config, res: &Resolved) -> Result<LtoSetup> {
    let all_vtables_have_type_infos = if config.lto.validate_all_vtables_have_type_infos {
        validate_vtables(config, res)?
    } else {
        false
    };
    let path = &config.lto.basic_block_sections;
    let basic_block_sections = match path.as_str() {
        "" => lto::BasicBlockSections::Default,
        "all" => lto::BasicBlockSections::All,
        "none" => lto::BasicBlockSections::None,
        // lld warns, and the address map it then turns on is overridden by
        // --[no-]lto-basic-block-address-map: nothing else changes.
        "labels" => {
            config.warn(
                "'--lto-basic-block-sections=labels' is deprecated; Please use \
                 '--lto-basic-block-address-map' instead",
            )?;
            lto::BasicBlockSections::Default
        }
        _ => match std::fs::read(path) {
            Ok(text) => lto::BasicBlockSections::List(text),
            // lld's wording, without a space after the colon.
            Err(e) => bail!(
                "cannot open {path}:{}",
                crate::input::input_files::io_reason(&e)
            ),
        },
    };
    Ok(LtoSetup {
        basic_block_sections,
        all_vtables_have_type_infos,
    })
}

/// `--lto-validate-all-vtables-have-type-infos` as lld does it: every vtable (`_ZTV*`) some
/// native object or shared library defines must have a type info (`_ZTI*`) defined there
/// too, unless `--lto-known-safe-vtables` names it. Each one missing is reported on standard
/// output and turns whole-program visibility off. Returns whether none is missing.
fn validate_vtables(config: &Config, res: &Resolved) -> Result<bool> {
    let mut type_infos: HashSet<&[u8]> = HashSet::new();
    // In the order first seen, as lld reports them.
    let mut vtables: Vec<&[u8]> = Vec::new();
    let mut seen: HashSet<&[u8]> = HashSet::new();
    let mut note = |name: &'static [u8]| {
        if let Some(rest) = name.strip_prefix(b"_ZTI") {
            type_infos.insert(rest);
        } else if let Some(rest) = name.strip_prefix(b"_ZTV") {
            if seen.insert(rest) {
                vtables.push(rest);
            }
        }
    };
    for f in &res.files {
        for sym in f.symbols.iter().skip(f.first_global) {
            if sym.st_shndx(LE) != object::elf::SHN_UNDEF {
                if let Some(name) = crate::input::input_files::sym_name(f.strtab, sym) {
                    note(name);
                }
            }
        }
    }
    for sh in &res.shared {
        for sym in sh.dynsyms {
            if sym.st_shndx(LE) != object::elf::SHN_UNDEF {
                if let Some(name) = crate::input::input_files::sym_name(sh.dynstr, sym) {
                    note(name);
                }
            }
        }
    }
    let mut missing: Vec<&[u8]> = vtables
        .into_iter()
        .filter(|v| !type_infos.contains(v))
        .collect();
    for pattern in &config.lto.known_safe_vtables {
        let Some(rest) = pattern.strip_prefix("_ZTV") else {
            bail!(
                "--lto-known-safe-vtables=: expected symbol to start with _ZTV, but got {pattern}"
            );
        };
        if let Some(e) = crate::glob::pattern_error(rest) {
            bail!("--lto-known-safe-vtables=: {e}");
        }
        missing.retain(|v| !crate::glob::matches(rest.as_bytes(), v));
    }
    for v in &missing {
        println!(
            "--lto-validate-all-vtables-have-type-infos: RTTI missing for vtable _ZTV{}, \
             --lto-whole-program-visibility disabled",
            String::from_utf8_lossy(v)
        );
    }
    Ok(missing.is_empty())
}

fn lto_config(config: &Config, setup: LtoSetup) -> lto::LtoConfig {
    let l = &config.lto;
    let text = |s: &String| (!s.is_empty()).then(|| s.clone());
    let path = |s: &String| (!s.is_empty()).then(|| std::path::PathBuf::from(s));
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
        save_temps_stages: l.save_temps_stages.clone(),
        obj_path: l.obj_path.clone(),
        emit_asm: l.emit_asm,
        emit_llvm: l.emit_llvm,
        reloc_model: if config.output_kind == OutputKind::Relocatable {
            lto::RelocModel::Default
        } else if config.is_pic() {
            lto::RelocModel::Pic
        } else {
            lto::RelocModel::Static
        },
        debug_pass_manager: l.debug_pass_manager,
        kind: l.kind,
        opt_pipeline: text(&l.newpm_passes),
        aa_pipeline: text(&l.aa_pipeline),
        remarks_filename: path(&l.remarks_filename),
        remarks_passes: text(&l.remarks_passes),
        remarks_format: text(&l.remarks_format),
        remarks_with_hotness: l.remarks_with_hotness,
        remarks_hotness_threshold: l.remarks_hotness_threshold,
        stats_file: path(&l.stats_file),
        sample_profile: l.sample_profile.clone(),
        cs_profile_generate: l.cs_profile_generate,
        cs_profile: path(&l.cs_profile_file),
        pgo_warn_mismatch: l.pgo_warn_mismatch,
        dwo_dir: path(&l.dwo_dir),
        whole_program_visibility: l.whole_program_visibility,
        validate_all_vtables_have_type_infos: l.validate_all_vtables_have_type_infos,
        all_vtables_have_type_infos: setup.all_vtables_have_type_infos,
        pass_plugins: l.pass_plugins.clone(),
        basic_block_sections: setup.basic_block_sections,
        basic_block_address_map: l.basic_block_address_map,
        unique_basic_block_section_names: l.unique_basic_block_section_names,
        thin_index_files: crate::resolve::thin_index::lto_index_files(config),
        thin_modules_to_compile: l.thin_index.single_modules.clone(),
        dtlto: l.dtlto.enabled().then(|| lto::Dtlto {
            distributor: l.dtlto.distributor.clone(),
            distributor_args: l.dtlto.distributor_args.clone(),
            remote_compiler: l.dtlto.remote_compiler.clone(),
            remote_compiler_prepend_args: l.dtlto.remote_compiler_prepend_args.clone(),
            remote_compiler_args: l.dtlto.remote_compiler_args.clone(),
            // lld names the link by -o as given.
            linker_output: config.output.display().to_string(),
        }),
        ..Default::default()
    }
}

/// Runs LTO over every bitcode input and returns the native objects (named after their
/// modules), leaking their bytes for the rest of the link like every other input.
pub fn run_lto(
    config: &Config,
    setup: LtoSetup,
    res: &mut Resolved,
    flags: &crate::resolve::symbol_flags::SymbolFlags,
    graph: Option<&crate::liveness::mark_live::MarkResult>,
    report: &mut LtoReport,
) -> std::result::Result<Vec<(String, &'static [u8])>, Vec<Error>> {
    let one = |e: Error| vec![e];
    let lc = lto_config(config, setup);
    if !config.lto.llvm_args.is_empty() {
        lto::set_llvm_options(&config.lto.llvm_args).map_err(|e| one(err!("-mllvm: {e}")))?;
    }
    // Code generation may introduce calls to runtime functions; a bitcode definition of one
    // must survive LTO (lld marks these visible too).
    let mut extra_roots =
        crate::resolve::libcalls::codegen_callees(res.bitcode_triple().as_deref());
    let entry = config
        .entry
        .clone()
        .or_else(|| (config.output_kind != OutputKind::Relocatable).then(|| "_start".to_string()));
    for n in entry
        .iter()
        .chain(&config.undefined)
        .chain(&config.require_defined)
    {
        extra_roots.insert(n.as_bytes().to_vec());
    }
    // A --defsym target is referenced by the linker, outside any object (lld: a script symbol).
    for target in config.defsyms.iter().flat_map(|d| d.referenced_symbols()) {
        extra_roots.insert(target.into_bytes());
    }
    let ctx = ResolutionContext {
        config,
        flags,
        extra_roots,
    };
    let resolutions = match graph {
        Some(g) => {
            let precise = precise_resolutions(&ctx, res, g);
            let lld = lld_resolutions(&ctx, res);
            for ((b, p), l) in res.bitcode.iter().zip(&precise).zip(&lld) {
                for ((&sid, p), l) in b.syms.iter().zip(p).zip(l) {
                    if p.prevailing && l.visible_to_regular_obj && !p.visible_to_regular_obj {
                        report.hidden_by_graph.insert(sid);
                    }
                }
            }
            precise
        }
        None => lld_resolutions(&ctx, res),
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
        // The bridge's messages already start with the module id, which is `b.name`.
        lto.add(file, rs).map_err(|e| one(Error(e)))?;
    }
    // lld reports each of LLVM's errors as it is, one per line.
    let out = lto
        .run()
        .map_err(|e| e.messages.into_iter().map(Error).collect::<Vec<_>>())?;
    for d in &out.diagnostics {
        match d.severity {
            lto::Severity::Warning => crate::error::print_diagnostic("warning", &d.message),
            // lld prints optimization remarks (-mllvm -pass-remarks=...) on standard output.
            lto::Severity::Remark => println!("{}", d.message),
            _ => {}
        }
    }
    let stages = &config.lto.save_temps_stages;
    if config.lto.save_temps && (stages.is_empty() || stages.iter().any(|s| s == "prelink")) {
        // lld also keeps LTO's native objects: OUTPUT.lto.o (full), OUTPUT.lto.MODULE.o (thin).
        for o in &out.objects {
            let path = lto_temp_path(config, &o.module_name, "o");
            std::fs::write(&path, &o.data).map_err(|e| {
                vec![err!(
                    "cannot open {}: {}",
                    path.display(),
                    crate::input::input_files::io_reason(&e)
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
    if config.lto.emit_llvm {
        write_bitcode(config, &out).map_err(one)?;
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

/// `--lto-emit-llvm`: the optimized module goes to the output file and nothing is linked.
/// lld writes each task's module to the output as its backend reaches code generation, so
/// the file holds whichever came last: with ThinLTO and several jobs that depends on thread
/// timing (and concurrent writes can interleave). weld writes them in task order, so the file
/// deterministically holds the last task's module (the last ThinLTO module on the command
/// line, or the full-LTO module when there is no ThinLTO), which is what lld writes with one
/// job whenever that module is also the smallest (LLVM runs the largest first).
fn write_bitcode(config: &Config, out: &lto::LtoOutput) -> Result<()> {
    let Some(last) = out.bitcode.last() else {
        return Ok(());
    };
    if config.output.as_os_str() == "-" {
        use std::io::Write;
        return std::io::stdout().write_all(&last.data).map_err(|e| {
            err!(
                "cannot open -: {}",
                crate::input::input_files::io_reason(&e)
            )
        });
    }
    crate::input::input_files::write_file(&config.output, &last.data)
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
                crate::input::input_files::io_reason(&e)
            )
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_errors_in_llvm_words() {
        for ok in [
            "3Tri", "*", "N3foo*E", "[a-c]*", "[!a]", "[]]", "x\\*", "[0-9-0]",
        ] {
            assert_eq!(crate::glob::pattern_error(ok), None, "{ok}");
        }
        let unmatched = "invalid glob pattern, unmatched '['";
        for (bad, want) in [
            ("[", unmatched.to_string()),
            ("[a", unmatched.to_string()),
            ("[]", unmatched.to_string()),
            ("x\\", "invalid glob pattern, stray '\\'".to_string()),
            ("[b-a]", "invalid glob pattern: [b-a]".to_string()),
            ("x[!z-a]", "invalid glob pattern: x[!z-a]".to_string()),
        ] {
            assert_eq!(crate::glob::pattern_error(bad), Some(want), "{bad}");
        }
    }

    #[test]
    fn class_metadata_names() {
        for n in [
            "_ZTV5Shape",
            "_ZTI5Shape",
            "_ZTS5Shape",
            "_ZTT1D",
            "_ZThn8_N1D1fEv",
        ] {
            assert!(is_class_metadata(n.as_bytes()), "{n}");
        }
        for n in ["_Z4areav", "main", "_ZN5Shape4areaEv"] {
            assert!(!is_class_metadata(n.as_bytes()), "{n}");
        }
    }
}
