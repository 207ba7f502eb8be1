//! The link, phase by phase: arguments -> resolution -> relocation scan -> layout -> write.
//! Each phase borrows what the previous ones produced; errors are collected and printed once.

use crate::cli::args;
use crate::config::{Config, OutputKind};
use crate::error::Error;
use crate::liveness::lto_link::LtoReport;
use crate::relocations;
use crate::relocations::code_rewrites::CodeRewrites;
use crate::report::link_reports::Timings;
use crate::resolve::symbol_flags;
use crate::write::writer;
use crate::{err, layout, resolve};
use std::time::Instant;

/// Runs weld with `argv` (including the program name) and returns the process exit code.
pub fn main_entry(argv: Vec<String>) -> i32 {
    // A mapped input or output that fails under the link is reported, not a death by SIGBUS.
    crate::mapping_faults::install();
    // lld's default; `--error-limit` replaces it once the arguments are parsed.
    let mut error_limit = 20;
    match run(&argv, &mut error_limit) {
        Ok(()) => 0,
        Err(errors) => {
            // After LLVM failed (crashed, or stopped on a fatal error) every later call into it
            // fails too: those errors are its consequences, and the failure is the one to report.
            match lto::llvm_failure() {
                Some(failure) => crate::error::print_diagnostic("error", &failure),
                None => report(&errors, error_limit),
            }
            1
        }
    }
}

/// Prints errors as lld does: `weld: error: ` before each, stopping after `limit` of them
/// (0: no limit) with lld's notice.
fn report(errors: &[Error], limit: usize) {
    for (i, e) in errors.iter().enumerate() {
        if limit != 0 && i == limit {
            crate::error::print_diagnostic(
                "error",
                "too many errors emitted, stopping now (use --error-limit=0 to see all errors)",
            );
            break;
        }
        crate::error::print_diagnostic("error", &e.0);
    }
}

/// The link, as a table of contents: each step is a function below (or a phase's entry point)
/// that borrows what the steps before it produced.
fn run(argv: &[String], error_limit: &mut usize) -> Result<(), Vec<Error>> {
    let total = Instant::now();
    let mut t = Timings::default();
    let Some((config, ordering_names)) = read_command_line(&mut t, argv, error_limit)? else {
        return Ok(());
    };
    let mut res = t.run("input loading and resolution", || resolve::resolve(&config))?;
    // Linker scripts' ENTRY, VERSION and symbol assignments set the rest of the link up.
    let config = match resolve::scripts::apply(&config, &res.scripts).map_err(|e| vec![e])? {
        Some(amended) => amended,
        None => config,
    };
    resolve::scripts::check_overwrite_symbols(
        &res.scripts,
        resolve::symbol_flags::is_dynamic(&config, &res),
    )
    .map_err(|e| vec![e])?;
    // The output-section commands: a script's `SECTIONS`, else the built-in list.
    let mut commands = if config.script_layout.is_empty() {
        layout::commands::SectionCommands::built_in()
    } else {
        let mut commands = layout::commands::SectionCommands::from_script(&config.script_layout)
            .map_err(|e| vec![e])?;
        // Definitions and `ASSERT`s outside `SECTIONS` may name sections too.
        commands
            .addressed
            .extend(layout::commands::addressed_sections(
                config
                    .defsyms
                    .iter()
                    .filter_map(|d| match &d.value {
                        crate::config::DefsymValue::Expr(e)
                        | crate::config::DefsymValue::Placed(e) => Some(e),
                        _ => None,
                    })
                    .chain(config.script_asserts.iter().map(|a| &a.cond)),
            ));
        commands
    };
    check_target_known(&config, &res)?;
    define_linker_symbols(&config, &mut res);
    read_symbol_lists(&config, &mut res)?;
    resolve::redirect_symver_aliases(&mut res);
    let (mut res, lto) = walk_and_lto(&mut t, &config, res)?;
    let Some(lto) = lto else {
        return write_lto_only_reports(&config, &res);
    };
    collect_garbage(&mut t, &config, &mut res, &lto)?;
    // The references are final (the sweep forgot those only dead code made, so imports they
    // alone asked for leave `.dynsym`): the symbol flags the output is made from, stored once.
    let flags = symbol_flags::compute(&config, &res);
    symbol_flags::store(&mut res, &flags);
    if config.gc_sections {
        layout::linker_defined::drop_collected_start_stop(&mut res);
    }
    if config.output_kind == OutputKind::Relocatable {
        // -r stops here: nothing gets an address, relocations are copied rather than applied.
        let and_features = crate::cet::read_security_notes(&config, &res).0;
        commands.settle_constraints_relocatable(&res, &|fi, si| {
            crate::write::relocatable::taken_by_script(&res, fi, si)
        });
        t.run("write relocatable output", || {
            crate::write::relocatable::write(&config, &res, &commands, and_features)
        })?;
        return finish_reports(&config, &res, &t, total);
    }
    let debug_indexes = read_debug_indexes(&mut t, &config, &res)?;
    let folding = fold_identical_code(&mut t, &config, &mut res);
    // The live sections are known: `ONLY_IF_RO`/`ONLY_IF_RW` descriptions can be decided.
    commands.settle_constraints(&res);
    commands
        .check_overwrite_duplicates(&res)
        .map_err(|e| vec![e])?;
    // The order of input sections comes from what survived collection and folding, as in lld.
    let (section_order, ordering_report) =
        crate::order::section_order::build(&config, &res, &folding, &ordering_names)?;
    // The set of objects is final: their CET properties decide the output's (and the PLT's
    // layout). lld reports `-z cet-report=error` findings here but stops only after the
    // relocation scan, so they go before the errors found up to then.
    let (and_features, cet_errors) = crate::cet::read_security_notes(&config, &res);
    check_symbols(&config, &res, &cet_errors)?;
    let scan = t
        .run("relocation scan", || {
            relocations::scan::scan(&config, &res, &Default::default())
        })
        .map_err(|e| [cet_errors.clone(), e].concat())?;
    if !cet_errors.is_empty() {
        return Err(cet_errors);
    }
    ordering_report.emit(&config)?;
    let relocation_count = scan.relocation_count;
    let decided = layout::build::Decided {
        commands: &commands,
        folding: &folding,
        order: &section_order,
        debug_indexes: &debug_indexes,
        and_features,
    };
    let mut lay = lay_out_until_stable(&mut t, &config, &res, scan, decided)?;
    check_script_asserts(&config, &res, &lay)?;
    let mut checks = layout::section_checks::relro_contiguity(&config, &lay);
    checks.extend(layout::section_checks::cross_references(
        &res, &commands, &lay,
    ));
    checks.extend(layout::section_checks::check(&lay));
    if !checks.is_empty() {
        return Err(checks);
    }
    if config.print_memory_usage {
        if let Some(script) = &lay.script {
            print!("{}", script.memory_usage());
        }
    }
    if config.emit_relocs {
        crate::write::emit_relocs::warn_discarded(&config, &res, &lay).map_err(|e| vec![e])?;
    }
    // Compression needs the final contents and changes only where non-allocated sections go.
    if config.compress_debug_sections != crate::config::Compression::None
        || !config.compress_sections.is_empty()
    {
        t.run("compress sections", || {
            writer::compress_sections(&config, &res, &mut lay, &debug_indexes)
        })
        .map_err(|e| vec![e])?;
    }
    t.run("write", || {
        writer::write_output(&config, &res, &lay, &debug_indexes)
    })?;
    write_map_and_cross_references(&config, &res, &lay)?;
    finish_reports(&config, &res, &t, total)?;
    if config.stats {
        print_stats(&res, &lay, &lto.report, relocation_count);
    }
    // Freeing the link's structures takes tens of milliseconds on a big link, after the
    // output is complete: a thread does it, which the process's exit does not wait for (lld
    // skips its destructors for the same reason). Without a thread they are freed here.
    let _ = std::thread::Builder::new().spawn(move || drop((res, lay)));
    Ok(())
}

/// Reads the command line: the configuration (`None` when the link stops at `--help`,
/// `--version` and the like) and what lld reads with the options: the symbol ordering file
/// and, for `--reproduce`, the sample profile.
fn read_command_line(
    t: &mut Timings,
    argv: &[String],
    error_limit: &mut usize,
) -> Result<Option<(Config, Vec<String>)>, Vec<Error>> {
    let parsed = t.run("argument parsing", || args::parse_args_all(argv))?;
    if let Some(text) = &parsed.print {
        print!("{text}");
    }
    for w in &parsed.warnings {
        crate::error::print_diagnostic("warning", w);
    }
    let Some(config) = parsed.config else {
        return Ok(None);
    };
    *error_limit = config.error_limit;
    crate::demangle::set_demangle(config.demangle);
    // lld reads the symbol ordering file with the options (and warns about repeats then).
    let ordering_names = crate::order::section_order::read_symbol_ordering_file(&config)?;
    // lld reads the sample profile into the --reproduce archive before anything else.
    if let Some(p) = crate::report::link_reports::reproduced_sample_profile(&config) {
        crate::input::input_files::read_bytes(p).map_err(|e| vec![e])?;
    }
    if let Some(n) = config.threads {
        // A second call (in tests running several links in one process) keeps the first pool.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
    Ok(Some((config, ordering_names)))
}

/// lld learns the target from -m or from the first ELF or bitcode input, archive members not
/// loaded included; with neither (only empty archives, scripts or `--format=binary` blobs) it
/// stops.
fn check_target_known(config: &Config, res: &resolve::Resolved) -> Result<(), Vec<Error>> {
    let archive_member = || {
        res.archives.iter().any(|a| match &a.source {
            // A member that could join the link says what the target is (an unreadable thin
            // member counts: loading it will say what is wrong).
            resolve::LazySource::Archive(ar) => ar
                .members()
                .flatten()
                .any(|m| resolve::member_can_join(&a.path, &m) != Some(false)),
            resolve::LazySource::Object(_) => true,
        })
    };
    if !config.emulation_given
        && res.files.iter().all(|f| f.binary)
        && res.shared.is_empty()
        && res.bitcode.is_empty()
        && !archive_member()
    {
        return Err(vec![err!(
            "target emulation unknown: -m or at least one .o file required"
        )]);
    }
    Ok(())
}

/// The symbols the linker defines (`_end`, `__start_SEC`, ...; under `-r` only those `-r`
/// keeps), again after LTO has added its objects.
fn define_linker_symbols(config: &Config, res: &mut resolve::Resolved) {
    if config.output_kind == OutputKind::Relocatable {
        crate::write::relocatable::define_symbols(config, res);
    } else {
        layout::linker_defined::add_linker_defined(config, res);
    }
}

/// The symbol lists of the command line: version scripts (and `--default-symver`),
/// `--retain-symbols-file`, `--export-dynamic-symbol-list`, `--dynamic-list`.
fn read_symbol_lists(config: &Config, res: &mut resolve::Resolved) -> Result<(), Vec<Error>> {
    res.versions =
        crate::input::version_script::Versions::load(&config.version_scripts, &config.search_paths)
            .map_err(|e| vec![e])?;
    for (text, path) in &config.script_versions {
        res.versions.add_text(text, path).map_err(|e| vec![e])?;
    }
    if config.default_symver && config.output_kind == OutputKind::SharedObject {
        // GNU ld names the version after the soname, or the output file without one.
        let name = config.soname.clone().unwrap_or_else(|| {
            config
                .output
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        });
        res.versions.add_default_version(&name);
    }
    if let Some(path) = &config.retain_symbols_file {
        res.versions
            .add_retain_symbols_file(path)
            .map_err(|e| vec![e])?;
    }
    for p in &config.export_dynamic_symbol_lists {
        res.export_list
            .extend(crate::input::version_script::read_dynamic_list(p).map_err(|e| vec![e])?);
    }
    for p in &config.dynamic_lists {
        res.dynamic_list
            .extend(crate::input::version_script::read_dynamic_list(p).map_err(|e| vec![e])?);
    }
    Ok(())
}

/// What the walk before LTO and LTO leave for the rest of the link.
struct LtoOutcome {
    report: LtoReport,
    /// `--print-gc-sections` lines for the bitcode symbols the walk found dead.
    bitcode_report: String,
    /// `--why-live` was answered by the walk before LTO.
    why_live_done: bool,
    /// The first file LTO's output added (`res.files.len()` without bitcode).
    first_lto_file: usize,
}

/// With bitcode: with `--gc-sections`, the walk over one graph of native sections and bitcode
/// symbols *before* LTO, so LTO is told exactly what live code needs; then LTO, whose objects
/// join the link. `None` when LTO's output replaces the linked one (`--lto-emit-asm`, ...).
fn walk_and_lto(
    t: &mut Timings,
    config: &Config,
    mut res: resolve::Resolved,
) -> Result<(resolve::Resolved, Option<LtoOutcome>), Vec<Error>> {
    let mut out = LtoOutcome {
        report: LtoReport::default(),
        bitcode_report: String::new(),
        why_live_done: false,
        first_lto_file: 0,
    };
    // lld sets LTO up on every link, bitcode or not: its checks and messages come here.
    let lto_setup = crate::liveness::lto_link::setup(config, &res).map_err(|e| vec![e])?;
    resolve::thin_index::create_linked_objects_file(config).map_err(|e| vec![e])?;
    if res.bitcode.is_empty() {
        write_unlinked_index_files(config, &res, &Default::default())?;
        let out = (!skips_linked_output(config)).then_some(out);
        return Ok((res, out));
    }
    // What is exported decides the walk's roots and what LTO must keep.
    let flags = symbol_flags::compute(config, &res);
    let pre = if config.gc_sections {
        t.run("bitcode summaries", || {
            crate::liveness::mark_live::read_bitcode_summaries(&mut res)
        });
        let m = t
            .run("liveness (native + bitcode)", || {
                crate::liveness::mark_live::mark_live(
                    config,
                    &mut res,
                    &flags.exported_definitions,
                    config.gc_archive_members,
                    true,
                )
            })
            .map_err(|e| vec![e])?;
        if config.gc_archive_members {
            crate::liveness::mark_live::unload_bitcode_members(&mut res, &m);
        }
        if !config.why_live.is_empty() {
            print!(
                "{}",
                crate::liveness::gc_report::why_live(&res, &m, &config.why_live)
            );
            out.why_live_done = true;
        }
        if config.print_gc_sections {
            out.bitcode_report = crate::liveness::gc_report::print_dead_bitcode(&res, &m);
        }
        Some(m)
    } else {
        None
    };
    // The modules LTO is given (`--gc-archive-members` may have left members out).
    let linked: std::collections::HashSet<String> = res
        .bitcode
        .iter()
        .filter(|b| b.file.is_some())
        .map(|b| b.module_id.clone())
        .collect();
    let objects = t.run("LTO", || {
        crate::liveness::lto_link::run_lto(
            config,
            lto_setup,
            &mut res,
            &flags,
            pre.as_ref(),
            &mut out.report,
        )
    })?;
    write_unlinked_index_files(config, &res, &linked)?;
    if skips_linked_output(config) {
        return Ok((res, None));
    }
    out.first_lto_file = res.files.len();
    let mut res = t.run("resolution of LTO output", || {
        crate::resolve::add_lto_objects(config, res, objects)
    })?;
    define_linker_symbols(config, &mut res);
    Ok((res, Some(out)))
}

/// The final walk over native sections (LTO's output included): `--verify-precise-graph`,
/// archive members the walk did not reach unloaded (`--gc-archive-members`), `--why-live`, the
/// sweep and `--print-gc-sections`.
fn collect_garbage(
    t: &mut Timings,
    config: &Config,
    res: &mut resolve::Resolved,
    lto: &LtoOutcome,
) -> Result<(), Vec<Error>> {
    if !config.gc_sections && (config.why_live.is_empty() || lto.why_live_done) {
        return Ok(());
    }
    // Members are left out only when sections are collected too: --why-live alone explains
    // the link lld would make, it does not change it.
    let gc_members = config.gc_sections && config.gc_archive_members;
    let exported = symbol_flags::compute(config, res).exported_definitions;
    let mark = t
        .run("liveness", || {
            crate::liveness::mark_live::mark_live(config, res, &exported, gc_members, false)
        })
        .map_err(|e| vec![e])?;
    if config.gc_sections && crate::liveness::verify_graph::enabled(config.verify_precise_graph) {
        let errors = crate::liveness::verify_graph::verify(
            res,
            &mark,
            &lto.report.hidden_by_graph,
            lto.first_lto_file,
        );
        if !errors.is_empty() {
            return Err(errors);
        }
    }
    if gc_members {
        crate::liveness::mark_live::unload_members(res, &mark);
    }
    if !config.why_live.is_empty() && !lto.why_live_done {
        print!(
            "{}",
            crate::liveness::gc_report::why_live(res, &mark, &config.why_live)
        );
    }
    if config.gc_sections {
        let removed = crate::liveness::mark_live::sweep(res, &mark);
        if config.print_gc_sections {
            let relocatable = config.output_kind == OutputKind::Relocatable;
            print!(
                "{}",
                crate::liveness::gc_report::print_gc_sections(res, &removed, relocatable)
            );
            // Bitcode symbols the walk found dead come after lld's section lines.
            print!("{}", lto.bitcode_report);
        }
    }
    Ok(())
}

/// The debug indexes, read once liveness is settled and before folding, as lld reads them:
/// ranges in sections ICF folds stay, at the kept section's address. (`.debug_names` does not
/// depend on liveness or folding; it is built with the other index.)
fn read_debug_indexes(
    t: &mut Timings,
    config: &Config,
    res: &resolve::Resolved,
) -> Result<crate::synthetic::DebugIndexes, Vec<Error>> {
    let gdb_index = t.run("gdb index", || {
        crate::synthetic::gdb_index::build(config, res)
    })?;
    let debug_names = t.run("debug names", || {
        crate::synthetic::debug_names::build(config, res)
    })?;
    Ok(crate::synthetic::DebugIndexes {
        gdb_index,
        debug_names,
    })
}

/// Identical sections fold once liveness is settled, as in lld: the GC report and
/// `--why-live` describe the link before folding.
fn fold_identical_code(
    t: &mut Timings,
    config: &Config,
    res: &mut resolve::Resolved,
) -> crate::icf::Folding {
    if config.icf == crate::config::IcfLevel::None {
        return crate::icf::Folding::default();
    }
    let (folding, icf_report) = t.run("identical code folding", || crate::icf::fold(config, res));
    print!("{icf_report}");
    folding
}

/// Linker scripts' `ASSERT`s outside `SECTIONS`, on the final layout: a false condition is an
/// error with the assertion's message alone, as lld prints it.
fn check_script_asserts(
    config: &Config,
    res: &resolve::Resolved,
    lay: &crate::output::layout::Layout,
) -> Result<(), Vec<Error>> {
    let values = layout::script_values::LayoutValues { config, res, lay };
    for a in &config.script_asserts {
        let holds = crate::script::expr::eval(&a.cond, &values).map_err(|e| vec![e])?;
        if holds.value() == 0 {
            return Err(vec![Error(a.message.clone())]);
        }
    }
    Ok(())
}

/// The checks on symbols once the set of objects is final (versions, `--no-allow-shlib-undefined`,
/// `-z execstack` needs), reported after `cet_errors` as lld orders them.
fn check_symbols(
    config: &Config,
    res: &resolve::Resolved,
    cet_errors: &[Error],
) -> Result<(), Vec<Error>> {
    let mut errors = symbol_flags::check_versions(config, res);
    errors.extend(symbol_flags::check_shlib_undefined(config, res));
    errors.extend(layout::addresses::check_executable_stack(config, res));
    if errors.is_empty() {
        return Ok(());
    }
    Err([cet_errors.to_vec(), errors].concat())
}

/// Layout until nothing a layout decides changes the next one: branch-to-branch first (before
/// addresses, as lld), then `--optimize-bb-jumps` on a first layout's addresses, then GOT
/// relaxations that do not reach (outputs over 2 GiB, lld's `relaxOnce`: their targets keep
/// their GOT slots in the next scan; each round only adds symbols, so this ends), and at last
/// the split-stack prologue edits, which need only the final relocations and section sizes.
/// `scan` is the first scan, made with no GOT slot kept.
fn lay_out_until_stable(
    t: &mut Timings,
    config: &Config,
    res: &resolve::Resolved,
    scan: relocations::scan::ScanResult,
    decided: layout::build::Decided,
) -> Result<crate::output::layout::Layout, Vec<Error>> {
    let mut rewrites = CodeRewrites::default();
    if config.branch_to_branch() {
        t.run("branch-to-branch", || {
            crate::relocations::code_rewrites::branch_to_branch(res, &mut rewrites)
        });
    }
    let mut lay = lay_out(t, config, res, scan, decided, &rewrites)?;
    if config.optimize_bb_jumps {
        let changed = {
            let map = lay.address_map(res);
            let neighbours = layout::relayout::fall_throughs(&lay.sections);
            crate::relocations::code_rewrites::optimize_bb_jumps(
                res,
                &map,
                &neighbours,
                &mut rewrites,
            )
        };
        if changed {
            let scan = t.run("relocation scan", || {
                relocations::scan::scan(config, res, &lay.scan.got_kept)
            })?;
            lay = lay_out(t, config, res, scan, decided, &rewrites)?;
        }
    }
    loop {
        let far = layout::relayout::relaxations_out_of_reach(
            config,
            res,
            &lay.sections,
            &lay.address_map(res),
        );
        let mut got_kept = lay.scan.got_kept.clone();
        got_kept.extend(far);
        if got_kept.len() == lay.scan.got_kept.len() {
            break;
        }
        let scan = t.run("relocation scan", || {
            relocations::scan::scan(config, res, &got_kept)
        })?;
        lay = lay_out(t, config, res, scan, decided, &rewrites)?;
    }
    lay.rewrites = crate::relocations::code_rewrites::adjust_split_stack(res, &lay.rewrites)?;
    Ok(lay)
}

/// `-Map`/`--print-map`, with `--cref` inside the map when there is one (as lld), else on
/// standard output.
fn write_map_and_cross_references(
    config: &Config,
    res: &resolve::Resolved,
    lay: &crate::output::layout::Layout,
) -> Result<(), Vec<Error>> {
    if config.map_file.is_some() || config.print_map {
        let mut text = crate::report::map_file::render(res, lay);
        if config.cref {
            text.push_str(&crate::report::link_reports::cross_reference_table(res));
        }
        match &config.map_file {
            Some(path) if path.as_os_str() != "-" => std::fs::write(path, text).map_err(|e| {
                vec![err!(
                    "cannot open map file {}: {}",
                    path.display(),
                    crate::input::input_files::io_reason(&e)
                )]
            })?,
            _ => print!("{text}"),
        }
    } else if config.cref {
        print!(
            "{}",
            crate::report::link_reports::cross_reference_table(res)
        );
    }
    Ok(())
}

/// `--stats`.
fn print_stats(
    res: &resolve::Resolved,
    lay: &crate::output::layout::Layout,
    lto: &LtoReport,
    relocation_count: u64,
) {
    let sections: usize = res.files.iter().map(|f| f.sections.len()).sum();
    eprintln!("weld stats:");
    eprintln!("  input objects:      {}", res.files.len());
    eprintln!("  archives:           {}", res.archives.len());
    eprintln!("  members indexed:    {}", resolve::members_indexed(res));
    eprintln!("  members resolved:   {}", res.members_parsed);
    eprintln!(
        "  members parsed:     {}",
        resolve::members_read_in_full(res)
    );
    eprintln!("  members loaded:     {}", resolve::members_loaded(res));
    eprintln!("  input sections:     {sections}");
    eprintln!("  global symbols:     {}", res.symtab.len());
    eprintln!("  relocations:        {relocation_count}");
    eprintln!("  output sections:    {}", lay.sections.len());
    eprintln!("  output size:        {}", lay.file_size);
    if lto.modules > 0 {
        eprintln!(
            "  LTO modules:        {} ({} thin, {} full)",
            lto.modules, lto.thin_modules, lto.regular_modules
        );
        eprintln!(
            "  LTO symbols:        {} ({} prevailing, {} visible to regular objects)",
            lto.symbols, lto.prevailing, lto.visible_to_regular_obj
        );
        eprintln!("  LTO functions:      {}", lto.functions_compiled);
        eprintln!(
            "  LTO objects:        {} ({} from cache)",
            lto.objects, lto.cache_hits
        );
    }
}

/// Layout, with the rewrites as they stand and the rest of what was decided before it.
fn lay_out(
    t: &mut Timings,
    config: &Config,
    res: &resolve::Resolved,
    scan: relocations::scan::ScanResult,
    decided: layout::build::Decided,
    rewrites: &CodeRewrites,
) -> Result<crate::output::layout::Layout, Vec<Error>> {
    t.run("layout", || {
        layout::build::layout(config, res, scan, &decided, rewrites)
    })
}

/// The reports every link writes once its output exists, in lld's order: `--why-extract`,
/// `--print-archive-stats`, `--dependency-file`, `--reproduce`, `--time-trace`, `--time`.
fn finish_reports(
    config: &Config,
    res: &resolve::Resolved,
    t: &Timings,
    total: Instant,
) -> Result<(), Vec<Error>> {
    if let Some(path) = &config.why_extract {
        crate::report::link_reports::write_why_extract(path, res).map_err(|e| vec![e])?;
    }
    if let Some(path) = &config.print_archive_stats {
        crate::report::link_reports::write_archive_stats(path, res).map_err(|e| vec![e])?;
    }
    if let Some(path) = &config.dependency_file {
        crate::report::link_reports::write_dependency_file(path, config, res)
            .map_err(|e| vec![e])?;
    }
    if let Some(path) = &config.reproduce {
        crate::report::link_reports::write_reproduce(path, config, res).map_err(|e| vec![e])?;
    }
    if let Some(path) = &config.time_trace {
        crate::report::link_reports::write_time_trace(path, config, t).map_err(|e| vec![e])?;
    }
    if config.time {
        // Wall time, then the CPU time of all threads: their ratio is how many threads worked.
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        for p in &t.phases {
            eprintln!(
                "{:>10.3} ms {:>10.3} ms cpu  {}",
                ms(p.wall),
                ms(p.cpu),
                p.name
            );
        }
        eprintln!(
            "{:>10.3} ms {:>10.3} ms cpu  total",
            ms(total.elapsed()),
            ms(crate::report::link_reports::process_cpu_time())
        );
    }
    Ok(())
}

/// `--lto-emit-asm` and `--lto-emit-llvm` write LTO's output instead of a linked one, with or
/// without bitcode in the link (lld then writes nothing at all); so do `--thinlto-index-only`
/// (the index files are the output) and `--thinlto-single-module=` (for debugging LTO).
fn skips_linked_output(config: &Config) -> bool {
    config.lto.emit_asm
        || config.lto.emit_llvm
        || config.lto.thin_index.index_only
        || !config.lto.thin_index.single_modules.is_empty()
}

/// With ThinLTO index files, lld's empty ones for the bitcode inputs that did not join the link
/// (`linked`: the module ids LTO was given).
fn write_unlinked_index_files(
    config: &Config,
    res: &resolve::Resolved,
    linked: &std::collections::HashSet<String>,
) -> Result<(), Vec<Error>> {
    if !config.lto.thin_index.emit_index_files {
        return Ok(());
    }
    let ids = resolve::thin_index::unlinked_bitcode(config, res, linked);
    resolve::thin_index::write_unlinked_index_files(config, &ids).map_err(|e| vec![e])
}

/// What lld still writes when LTO's output replaces the linked one: the reports about symbol
/// resolution, which is complete by then.
fn write_lto_only_reports(config: &Config, res: &resolve::Resolved) -> Result<(), Vec<Error>> {
    if let Some(path) = &config.print_archive_stats {
        crate::report::link_reports::write_archive_stats(path, res).map_err(|e| vec![e])?;
    }
    if let Some(path) = &config.why_extract {
        crate::report::link_reports::write_why_extract(path, res).map_err(|e| vec![e])?;
    }
    Ok(())
}
