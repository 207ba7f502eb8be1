//! The LTO options of lld 22 beyond the basic ones (those `tests/lto.rs` covers), other than
//! distributed ThinLTO: each real program is compiled with clang-22 (`-flto` and, where it
//! matters, `-flto=thin`), linked through the driver by ld.lld-22 and by weld with the option,
//! and what lld's behaviour makes observable is compared: the program's output, the files the
//! option writes, LTO's objects (`--lto-obj-path`, byte for byte where the link is the same),
//! LLVM's messages. Bad values must fail as lld fails: exit code 1, lld's message, nothing left.
//!
//! * `emit_llvm::*`: the bitcode written instead of a program, and nothing at all without
//!   bitcode (`--lto-emit-asm` too).
//! * `debug_pass_manager::*`, `pipelines::*` (`--lto-newpm-passes=`, `--lto-aa-pipeline=`),
//!   `pass_plugin::*` (`--load-pass-plugin`, with a plugin built here against LLVM 22).
//! * `remarks::*` (`--opt-remarks-*`), `stats_file`, `save_temps::*` (`--save-temps=`),
//!   `dwo_dir`.
//! * `profiles::*`: `--lto-sample-profile=`, `--lto-cs-profile-generate` (the instrumented
//!   programs' profiles compared), `--lto-cs-profile-file=`, and objects compiled natively
//!   with a profile (whose call-graph section has SHT_REL relocations).
//! * `lto_kind::*`: `--lto=full|thin` on `-funified-lto` bitcode.
//! * `whole_program::*`, `vtables::*`: `--lto-whole-program-visibility`, under
//!   `--gc-sections` too, and `--lto-validate-all-vtables-have-type-infos` with a native class
//!   with and without RTTI, `--lto-known-safe-vtables`.
//! * `bb_sections::*`: `--lto-basic-block-sections=` (all, a list file, labels),
//!   `--lto-basic-block-address-map`, `--lto-unique-basic-block-section-names`.
//! * `errors::*`: every bad value these options can be given.
//!
//! Work directories stay under `target/weld-tests/lto_options/` for inspection.

#[allow(dead_code)]
#[path = "support/lto.rs"]
mod lto;

use libtest_mimic::{Arguments, Failed, Trial};
use lto::{Expect, Isolated, Link, Lto};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::json::Json;
use weld_tests::tools::{self, Linker};
use weld_tests::{paths, run, text_diff, Check};

fn main() {
    let args = Arguments::from_args();
    libtest_mimic::run(&args, trials()).exit();
}

/// A trial working in a fresh `target/weld-tests/lto_options/<name with :: as />`.
fn trial(name: impl Into<String>, f: impl FnOnce(&Path) -> Check + Send + 'static) -> Trial {
    let name = name.into();
    let dir = paths::work_root()
        .join("lto_options")
        .join(name.replace("::", "/"));
    Trial::test(name, move || {
        paths::fresh_dir(&dir)?;
        f(&dir).map_err(|e| Failed::from(format!("{e}\nwork directory: {}", dir.display())))
    })
}

fn trials() -> Vec<Trial> {
    let mut t = Vec::new();
    for lto in [Lto::Full, Lto::Thin] {
        let n = lto.name();
        t.push(trial(format!("emit_llvm::{n}"), move |d| {
            emit_llvm(d, lto, "-Wl,--lto-emit-llvm")
        }));
        t.push(trial(format!("remarks::yaml::{n}"), move |d| {
            remarks(d, lto, &["--opt-remarks-filename", "r.yaml"], None)
        }));
        t.push(trial(format!("pass_plugin::{n}"), move |d| {
            pass_plugin(d, lto)
        }));
        t.push(trial(format!("whole_program::{n}"), move |d| {
            whole_program(d, lto)
        }));
        t.push(trial(
            format!("lto_kind::{n}_from_unified_thin"),
            move |d| lto_kind(d, lto),
        ));
        t.push(trial(format!("profiles::cs_generate::{n}"), move |d| {
            cs_profile_generate(d, lto, false)
        }));
    }
    t.push(trial("emit_llvm::plugin_opt", |d| {
        emit_llvm(d, Lto::Full, "-Wl,-plugin-opt=emit-llvm")
    }));
    t.push(trial("emit_llvm::without_bitcode", |d| {
        no_output_without_bitcode(d, "--lto-emit-llvm")
    }));
    t.push(trial("emit_asm::without_bitcode", |d| {
        no_output_without_bitcode(d, "--lto-emit-asm")
    }));
    t.push(trial("debug_pass_manager::lto", |d| {
        debug_pass_manager(d, "-Wl,--lto-debug-pass-manager")
    }));
    t.push(trial("debug_pass_manager::plugin_opt", |d| {
        debug_pass_manager(d, "-Wl,-plugin-opt=debug-pass-manager")
    }));
    t.push(trial("pipelines::newpm_passes", |d| {
        same_objects_with(d, Lto::Full, &["-Wl,--lto-newpm-passes=default<O1>"], true)
    }));
    t.push(trial("pipelines::newpm_and_aa_passes::thin", |d| {
        same_objects_with(
            d,
            Lto::Thin,
            &[
                // -Xlinker: -Wl, would split the pipeline at its commas.
                "-Xlinker",
                "--lto-newpm-passes=function(sroa,instcombine,gvn),globaldce",
                "-Wl,--lto-aa-pipeline=basic-aa",
            ],
            true,
        )
    }));
    t.push(trial("pipelines::aa_pipeline", |d| {
        same_objects_with(
            d,
            Lto::Full,
            &["-Xlinker", "--lto-aa-pipeline=basic-aa,tbaa"],
            false,
        )
    }));
    t.push(trial("remarks::passes_and_format::full", |d| {
        remarks(
            d,
            Lto::Full,
            &[
                "--opt-remarks-filename",
                "inline.yaml",
                "--opt-remarks-passes",
                "inline",
                "--opt-remarks-format",
                "yaml",
            ],
            Some("inline"),
        )
    }));
    // With a sample profile, hotness and its threshold: 0 keeps every remark, 60 (above every
    // count the profile gives this program) none, as in lld.
    for (threshold, some) in [("0", true), ("60", false)] {
        t.push(trial(
            format!("remarks::plugin_opt_hotness_threshold_{threshold}::thin"),
            move |d| remarks_with_hotness(d, threshold, some),
        ));
    }
    t.push(trial("remarks::bitstream::full", remarks_bitstream));
    t.push(trial(
        "remarks::format_and_passes_unused_without_a_file",
        remarks_without_file,
    ));
    t.push(trial("stats_file", stats_file));
    // Each selection makes lld save something for that flavour (the combined index and the
    // imports exist only with ThinLTO, the pre-optimization module of each input too).
    for (lto, name, stages) in [
        (Lto::Full, "prelink", &["prelink"][..]),
        (Lto::Full, "resolution_opt", &["resolution", "opt"][..]),
        (
            Lto::Full,
            "preopt_precodegen",
            &["preopt", "precodegen"][..],
        ),
        (
            Lto::Full,
            "promote_internalize",
            &["promote", "internalize"][..],
        ),
        (Lto::Thin, "prelink", &["prelink"][..]),
        (Lto::Thin, "resolution_opt", &["resolution", "opt"][..]),
        (
            Lto::Thin,
            "combinedindex_import",
            &["combinedindex", "import"][..],
        ),
        (
            Lto::Thin,
            "promote_internalize",
            &["promote", "internalize"][..],
        ),
    ] {
        t.push(trial(
            format!("save_temps::{name}::{}", lto.name()),
            move |d| save_temps(d, lto, stages),
        ));
    }
    t.push(trial("dwo_dir::thin", dwo_dir));
    t.push(trial("profiles::sample::lto", |d| {
        sample_profile(d, "-Wl,--lto-sample-profile=sample.prof")
    }));
    t.push(trial("profiles::sample::plugin_opt", |d| {
        sample_profile(d, "-Wl,-plugin-opt=sample-profile=sample.prof")
    }));
    t.push(trial(
        "profiles::sample::reproduce",
        sample_profile_reproduce,
    ));
    t.push(trial(
        "profiles::cs_generate::plugin_opt_from_driver",
        |d| cs_profile_generate(d, Lto::Thin, true),
    ));
    t.push(trial("profiles::cs_use::thin", |d| {
        cs_profile_use(d, "-Wl,--lto-cs-profile-file=cs.profdata")
    }));
    t.push(trial("profiles::cs_use::plugin_opt", |d| {
        cs_profile_use(d, "-Wl,-plugin-opt=cs-profile-path=cs.profdata")
    }));
    t.push(trial(
        "profiles::native_objects_with_call_graph_profile",
        native_call_graph_profile,
    ));
    t.push(trial(
        "whole_program::gc_sections_keeps_lld_decisions",
        whole_program_gc,
    ));
    t.push(trial(
        "vtables::rtti_missing_disables_devirtualization",
        |d| vtables(d, &[], "expected_tri.txt", true),
    ));
    t.push(trial("vtables::known_safe_vtables", |d| {
        vtables(
            d,
            &["-Wl,--lto-known-safe-vtables=_ZTV3T*"],
            "expected.txt",
            false,
        )
    }));
    t.push(trial("vtables::known_safe_vtables_no_match", |d| {
        vtables(
            d,
            &["-Wl,--lto-known-safe-vtables", "-Wl,_ZTV4Circ*"],
            "expected_tri.txt",
            true,
        )
    }));
    for (name, opts) in [
        ("all", &["-Wl,--lto-basic-block-sections=all"][..]),
        (
            "list_file",
            &["-Wl,--lto-basic-block-sections=bb_sections.txt"][..],
        ),
        (
            "all_unique_names",
            &[
                "-Wl,--lto-basic-block-sections=all",
                "-Wl,--lto-unique-basic-block-section-names",
            ][..],
        ),
        ("address_map", &["-Wl,--lto-basic-block-address-map"][..]),
    ] {
        t.push(trial(format!("bb_sections::{name}"), move |d| {
            bb_sections(d, opts, true)
        }));
    }
    t.push(trial("bb_sections::none_and_negations", |d| {
        bb_sections(
            d,
            &[
                "-Wl,--lto-basic-block-sections=none",
                "-Wl,--lto-basic-block-address-map",
                "-Wl,--no-lto-basic-block-address-map",
                "-Wl,--lto-unique-basic-block-section-names",
                "-Wl,--no-lto-unique-basic-block-section-names",
            ],
            false,
        )
    }));
    t.push(trial("bb_sections::labels_warns", bb_sections_labels));
    error_trials(&mut t);
    t
}

// ---------------------------------------------------------------------------------------------
// Programs

fn strs(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Compiles `files` of `testdata/lto/<group>/` into `dir` (`-fPIE`, the flavour's flag and
/// `cflags`), naming each `<stem>.<tag>.o`; returns the object names in order.
fn compile(
    dir: &Path,
    group: &str,
    files: &[&str],
    lto: Lto,
    tag: &str,
    cflags: &[&str],
) -> Result<Vec<String>, String> {
    let mut objs = Vec::new();
    for src in files {
        let stem = Path::new(src)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let obj = format!("{stem}.{tag}.o");
        let mut flags = vec!["-fPIE"];
        flags.extend_from_slice(cflags);
        lto::compile(dir, &lto::data(group, src), &obj, lto, &flags)?;
        objs.push(obj);
    }
    Ok(objs)
}

/// The three-file program of `testdata/lto/options` (its output: `expected.txt` there).
fn options_program(dir: &Path, lto: Lto, cflags: &[&str]) -> Result<Vec<String>, String> {
    compile(
        dir,
        "options",
        &["main.c", "stats.c", "table.c"],
        lto,
        lto.name(),
        cflags,
    )
}

/// Driver arguments for a PIE linked with `lto`'s flag: the inputs, then `rest`.
fn pie_args(lto: Lto, inputs: &[String], rest: &[&str]) -> Vec<String> {
    let mut a = strs(Link::DynamicPie.ldflags());
    a.push(lto.flag().unwrap_or("-flto").to_string());
    a.extend_from_slice(inputs);
    a.extend(strs(rest));
    a
}

/// Copies `testdata/lto/<group>/<file>` into `dir`; returns its name.
fn data_file(dir: &Path, group: &str, file: &str) -> Result<String, String> {
    lto::copy_into(dir, &[lto::data(group, file)])?;
    Ok(file.to_string())
}

/// Runs both linked programs and compares them (lld's must meet `expect`).
fn run_both(dir: &Path, l: &Isolated, w: &Isolated, expect: &Expect) -> Check {
    lto::run_and_compare(dir, &l.linked, &w.linked, expect)
}

/// The `--lto-obj-path=objs/lto.o` argument, for a link made in its own directory.
const OBJ_PATH: &str = "-Wl,--lto-obj-path=objs/lto.o";

/// Links `inputs` (names in `dir`) with both linkers in their own directories (lld first, both
/// must succeed), LTO's objects written to `objs/` there.
fn link_with_objs(
    dir: &Path,
    cxx: bool,
    inputs: &[String],
    args: &[String],
) -> Result<(Isolated, Isolated), String> {
    let l = link_objs_in(&dir.join("lld"), &Linker::lld()?, dir, cxx, inputs, args)?;
    let w = link_objs_in(&dir.join("weld"), &Linker::weld()?, dir, cxx, inputs, args)?;
    Ok((l, w))
}

/// One link of [`link_with_objs`], in `own`; it must succeed.
fn link_objs_in(
    own: &Path,
    linker: &Linker,
    dir: &Path,
    cxx: bool,
    inputs: &[String],
    args: &[String],
) -> Result<Isolated, String> {
    let files: Vec<PathBuf> = inputs.iter().map(|f| dir.join(f)).collect();
    let mut a = args.to_vec();
    a.push(OBJ_PATH.to_string());
    let i = lto::link_in_dir(own, linker, cxx, &files, &a, &["objs"])?;
    lto::check_link(&i.linked)?;
    Ok(i)
}

/// lld's link of the same inputs without the option (`args`), in `dir/without/`, to show that
/// the option changes what lld produces.
fn lld_without(
    dir: &Path,
    cxx: bool,
    inputs: &[String],
    args: &[String],
) -> Result<Isolated, String> {
    link_objs_in(
        &dir.join("without"),
        &Linker::lld()?,
        dir,
        cxx,
        inputs,
        args,
    )
}

/// LTO's objects of both links (`objs/`) must be the same files with the same bytes.
fn same_lto_objects(l: &Isolated, w: &Isolated) -> Result<BTreeSet<String>, String> {
    let (lo, wo) = (l.dir.join("objs"), w.dir.join("objs"));
    lto::same_listing(&lo, &wo, "LTO's objects (--lto-obj-path)")?;
    let names = lto::listing(&lo)?;
    if names.is_empty() {
        return Err("the test is broken: lld wrote no LTO objects".into());
    }
    lto::same_bytes(&lo, &wo, &names)?;
    Ok(names)
}

/// The bytes of every object LTO wrote in a link's `objs/`, in name order.
fn lto_objects(i: &Isolated) -> Result<Vec<Vec<u8>>, String> {
    let d = i.dir.join("objs");
    lto::listing(&d)?
        .iter()
        .map(|n| lto::read(&d.join(n)))
        .collect()
}

/// The option changed lld's LTO objects (else the test could not tell whether weld passed it
/// on).
fn changes_lld_objects(with: &Isolated, without: &Isolated, what: &str) -> Check {
    if lto_objects(with)? == lto_objects(without)? {
        return Err(format!(
            "the test is broken: {what} does not change lld's LTO objects"
        ));
    }
    Ok(())
}

/// Links in `dir/<sub>/<label>/` with both linkers (lld first); both must succeed.
fn both_in(
    dir: &Path,
    sub: &str,
    cxx: bool,
    inputs: &[String],
    args: &[String],
) -> Result<(Isolated, Isolated), String> {
    let files: Vec<PathBuf> = inputs.iter().map(|f| dir.join(f)).collect();
    let mut out = Vec::new();
    for linker in [Linker::lld()?, Linker::weld()?] {
        let own = dir.join(sub).join(linker.label);
        let i = lto::link_in_dir(&own, &linker, cxx, &files, args, &[])?;
        lto::check_link(&i.linked)?;
        out.push(i);
    }
    let w = out.pop().ok_or("no weld link")?;
    let l = out.pop().ok_or("no lld link")?;
    Ok((l, w))
}

/// The lines of a link's stderr that contain `needle`, sorted.
fn stderr_lines(i: &Isolated, needle: &str) -> Vec<String> {
    let mut v: Vec<String> = i
        .linked
        .link
        .stderr_str()
        .lines()
        .filter(|l| l.contains(needle))
        .map(String::from)
        .collect();
    v.sort();
    v
}

/// The warnings a link printed, without the linker's name.
fn warnings(i: &Isolated) -> Vec<String> {
    stderr_lines(i, "warning: ")
        .into_iter()
        .filter_map(|l| l.split_once("warning: ").map(|(_, w)| w.to_string()))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// --lto-emit-llvm, --lto-emit-asm

/// `--lto-emit-llvm` writes bitcode instead of a program: both outputs are bitcode modules that
/// disassemble to the same IR (the same functions), and nothing else is written. With ThinLTO
/// lld's output is whichever backend wrote last, so it runs one job, which makes it write the
/// last (and smallest) module last, the one weld writes.
fn emit_llvm(dir: &Path, lto: Lto, flag: &str) -> Check {
    let objs = options_program(dir, lto, &[])?;
    let mut rest = vec![flag];
    if lto == Lto::Thin {
        rest.push("-Wl,--thinlto-jobs=1");
    }
    let (l, w) = lto::link_both_in(dir, false, &objs, &pie_args(lto, &objs, &rest))?;
    lto::same_listing(&l.dir, &w.dir, "the files the link wrote")?;
    for i in [&l, &w] {
        if !lto::is_bitcode(&i.linked.out)? {
            return Err(format!(
                "{}'s output is not LLVM bitcode: {}",
                i.linked.label,
                i.linked.out.display()
            ));
        }
    }
    let (lt, wt) = (lto::ir_text(&l.linked.out)?, lto::ir_text(&w.linked.out)?);
    let (lf, wf) = (
        lto::ir_defined_functions(&lt),
        lto::ir_defined_functions(&wt),
    );
    if lf.is_empty() {
        return Err("the test is broken: lld's module defines no function".into());
    }
    if lf != wf {
        return Err(format!(
            "the modules define different functions:\n  weld: {wf:?}\n  lld:  {lf:?}"
        ));
    }
    if lt != wt {
        return Err(format!(
            "the modules differ: {}",
            text_diff("weld", &wt, "lld", &lt)
        ));
    }
    Ok(())
}

/// Without bitcode, `--lto-emit-llvm` and `--lto-emit-asm` still replace the linked output:
/// lld exits 0 and writes nothing, and so must weld.
fn no_output_without_bitcode(dir: &Path, option: &str) -> Check {
    let objs = options_program(dir, Lto::Native, &[])?;
    let mut args = strs(Link::DynamicPie.ldflags());
    args.extend_from_slice(&objs);
    args.push(format!("-Wl,{option}"));
    let l = lto::link_in(dir, &Linker::lld()?, false, &objs, &args)?;
    let w = lto::link_in(dir, &Linker::weld()?, false, &objs, &args)?;
    if !l.linked.link.success() || l.linked.out.exists() {
        return Err(format!(
            "the oracle changed: lld should exit 0 and write nothing\n{}",
            l.linked.link.report()
        ));
    }
    if !w.linked.link.success() {
        return Err(format!("weld's link failed\n{}", w.linked.link.report()));
    }
    lto::same_listing(&l.dir, &w.dir, "the files the link wrote")
}

// ---------------------------------------------------------------------------------------------
// Pass manager, pipelines, plugins

/// `--lto-debug-pass-manager`: LLVM prints every pass and analysis it runs, the same ones for
/// weld as for lld (full LTO: one module, one thread).
fn debug_pass_manager(dir: &Path, flag: &str) -> Check {
    let objs = options_program(dir, Lto::Full, &[])?;
    let (l, w) = lto::link_both_in(dir, false, &objs, &pie_args(Lto::Full, &objs, &[flag]))?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    let (lp, wp) = (stderr_lines(&l, "Running "), stderr_lines(&w, "Running "));
    if lp.iter().filter(|p| p.contains("Running pass:")).count() < 10 {
        return Err(format!(
            "the test is broken: lld printed few passes\n{}",
            l.linked.link.report()
        ));
    }
    if lp != wp {
        return Err(format!(
            "the passes run differ (sorted): {}",
            text_diff("weld", &wp.join("\n"), "lld", &lp.join("\n"))
        ));
    }
    Ok(())
}

/// An option that only changes how LLVM optimizes: the program works and LTO's objects are
/// lld's, byte for byte; with `changes`, they also differ from lld's without the option.
fn same_objects_with(dir: &Path, lto: Lto, opts: &[&str], changes: bool) -> Check {
    let objs = options_program(dir, lto, &[])?;
    let (l, w) = link_with_objs(dir, false, &objs, &pie_args(lto, &objs, opts))?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    same_lto_objects(&l, &w)?;
    if changes {
        let without = lld_without(dir, false, &objs, &pie_args(lto, &objs, &[]))?;
        changes_lld_objects(&l, &without, &opts.join(" "))?;
    }
    Ok(())
}

/// The pass plugin of `testdata/lto/lto_options/pass_plugin`, built once per test run.
fn plugin() -> Result<PathBuf, String> {
    static BUILT: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = built.as_ref() {
        return Ok(p.clone());
    }
    let dir = paths::work_root().join("lto_options").join(".plugin");
    paths::fresh_dir(&dir)?;
    let mut cfg = Command::new(tools::find("llvm-config-22")?);
    cfg.arg("--cxxflags");
    let flags = run::run(&mut cfg, run::TOOL_TIMEOUT)?
        .ok("llvm-config-22 --cxxflags")?
        .stdout_str();
    let out = dir.join("plugin.so");
    let mut cmd = Command::new(tools::find(tools::CLANGXX)?);
    cmd.args(["-shared", "-fPIC"])
        .args(flags.split_whitespace())
        .arg(lto::data("lto_options/pass_plugin", "plugin.cpp"))
        .arg("-o")
        .arg(&out);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("building the pass plugin")?;
    *built = Some(out.clone());
    Ok(out)
}

/// `--load-pass-plugin`: LLVM runs the plugin's pass in LTO's pipeline (it makes the program
/// print 42 instead of 1, and says so on stderr), as in lld.
fn pass_plugin(dir: &Path, lto: Lto) -> Check {
    let plugin = plugin()?;
    let objs = compile(
        dir,
        "lto_options/pass_plugin",
        &["marker.c"],
        lto,
        lto.name(),
        &[],
    )?;
    let opt = format!("-Wl,--load-pass-plugin={}", plugin.display());
    let (l, w) = lto::link_both_in(dir, false, &objs, &pie_args(lto, &objs, &[&opt]))?;
    run_both(dir, &l, &w, &Expect::file("lto_options/pass_plugin")?)?;
    let (lm, wm) = (
        stderr_lines(&l, "weld-test-plugin: set"),
        stderr_lines(&w, "weld-test-plugin: set"),
    );
    if lm.is_empty() {
        return Err(format!(
            "the test is broken: lld's plugin said nothing\n{}",
            l.linked.link.report()
        ));
    }
    if lm != wm {
        return Err(format!(
            "the plugin ran differently:\n  weld: {wm:?}\n  lld:  {lm:?}"
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Optimization remarks, statistics, intermediate files, split DWARF

/// Linker options given through the driver, one `-Xlinker` each.
fn xlinker(opts: &[&str]) -> Vec<String> {
    opts.iter()
        .flat_map(|o| ["-Xlinker".to_string(), o.to_string()])
        .collect()
}

/// One remark of a YAML remarks file: (kind, pass, name, function).
type Remark = (String, String, String, String);

/// The remarks of a YAML remarks file, sorted (ThinLTO backends append in their own order).
fn yaml_remarks(path: &Path) -> Result<Vec<Remark>, String> {
    let text = String::from_utf8_lossy(&lto::read(path)?).into_owned();
    let mut out = Vec::new();
    let mut cur: Option<Remark> = None;
    for line in text.lines() {
        if let Some(kind) = line.strip_prefix("--- !") {
            out.extend(cur.take());
            cur = Some((
                kind.trim().to_string(),
                String::new(),
                String::new(),
                String::new(),
            ));
            continue;
        }
        let Some(r) = cur.as_mut() else { continue };
        let field = |key: &str| line.strip_prefix(key).map(|v| v.trim().to_string());
        if let Some(v) = field("Pass:") {
            r.1 = v;
        } else if let Some(v) = field("Name:") {
            r.2 = v;
        } else if let Some(v) = field("Function:") {
            r.3 = v;
        }
    }
    out.extend(cur);
    out.sort();
    Ok(out)
}

/// `--opt-remarks-*`: the same remarks files (the main one and, with ThinLTO, one per backend
/// task), holding the same remarks; with `passes`, only that pass's.
fn remarks(dir: &Path, lto: Lto, opts: &[&str], passes: Option<&str>) -> Check {
    let objs = options_program(dir, lto, &[])?;
    let mut args = pie_args(lto, &objs, &[]);
    args.extend(xlinker(opts));
    same_remarks(dir, &objs, &args, passes, true)
}

/// The `-plugin-opt=` spellings of the remarks options, with hotness from a sample profile
/// and a threshold: lld's remarks files, holding lld's remarks (`some`: at least one).
fn remarks_with_hotness(dir: &Path, threshold: &str, some: bool) -> Check {
    let objs = options_program(dir, Lto::Thin, &["-gline-tables-only"])?;
    let mut inputs = objs.clone();
    inputs.push(data_file(dir, "lto_options", "sample.prof")?);
    let threshold = format!("-plugin-opt=opt-remarks-hotness-threshold={threshold}");
    let mut args = pie_args(Lto::Thin, &objs, &["-Wl,--lto-sample-profile=sample.prof"]);
    args.extend(xlinker(&[
        "-plugin-opt=opt-remarks-filename=h.yaml",
        "-plugin-opt=opt-remarks-passes=inline|gvn",
        "-plugin-opt=opt-remarks-format=yaml",
        "-plugin-opt=opt-remarks-with-hotness",
        &threshold,
    ]));
    same_remarks(dir, &inputs, &args, None, some)
}

/// Links `inputs` with `args` in both linkers' directories and compares the remarks files
/// (every file that is neither an input nor the program): the same names, the same remarks
/// in each; `some`: lld wrote at least one remark, else none.
fn same_remarks(
    dir: &Path,
    inputs: &[String],
    args: &[String],
    passes: Option<&str>,
    some: bool,
) -> Check {
    let (l, w) = lto::link_both_in(dir, false, inputs, args)?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    lto::same_listing(&l.dir, &w.dir, "the files the link wrote")?;
    let inputs: BTreeSet<&String> = inputs.iter().collect();
    let mut total = 0;
    for name in lto::listing(&l.dir)? {
        if inputs.contains(&name) || name.starts_with("prog") {
            continue;
        }
        let (lr, wr) = (
            yaml_remarks(&l.dir.join(&name))?,
            yaml_remarks(&w.dir.join(&name))?,
        );
        if lr != wr {
            return Err(format!(
                "{name}: the remarks differ (sorted): {}",
                text_diff("weld", &format!("{wr:#?}"), "lld", &format!("{lr:#?}"))
            ));
        }
        if let Some(p) = passes {
            if let Some(r) = lr.iter().find(|r| r.1 != p) {
                return Err(format!(
                    "the test is broken: lld wrote a remark of another pass: {r:?}"
                ));
            }
        }
        total += lr.len();
    }
    if (total > 0) != some {
        return Err(format!(
            "the test is broken: lld wrote {total} remarks: {:?}",
            lto::listing(&l.dir)?
        ));
    }
    Ok(())
}

/// `--opt-remarks-format bitstream`: the same remarks files with the same bytes, and the same
/// warning (ELF objects cannot carry a remarks section).
fn remarks_bitstream(dir: &Path) -> Check {
    let objs = options_program(dir, Lto::Full, &[])?;
    let mut args = pie_args(Lto::Full, &objs, &[]);
    args.extend(xlinker(&[
        "--opt-remarks-filename",
        "r.bin",
        "--opt-remarks-format",
        "bitstream",
    ]));
    let (l, w) = lto::link_both_in(dir, false, &objs, &args)?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    lto::same_listing(&l.dir, &w.dir, "the files the link wrote")?;
    let remark_files: Vec<String> = lto::listing(&l.dir)?
        .into_iter()
        .filter(|n| n.starts_with("r.bin"))
        .collect();
    if remark_files.is_empty() {
        return Err("the test is broken: lld wrote no remarks file".into());
    }
    lto::same_bytes(&l.dir, &w.dir, &remark_files)?;
    let (lw, ww) = (warnings(&l), warnings(&w));
    if lw != ww {
        return Err(format!("warnings differ:\n  weld: {ww:?}\n  lld:  {lw:?}"));
    }
    Ok(())
}

/// Without `--opt-remarks-filename`, LLVM never looks at the format or the pass regex, so lld
/// accepts bad ones and links; so must weld.
fn remarks_without_file(dir: &Path) -> Check {
    let objs = options_program(dir, Lto::Thin, &[])?;
    let mut args = pie_args(Lto::Thin, &objs, &[]);
    args.extend(xlinker(&[
        "--opt-remarks-format",
        "jsonl",
        "--opt-remarks-passes",
        "inline(",
    ]));
    let (l, w) = lto::link_both_in(dir, false, &objs, &args)?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    lto::same_listing(&l.dir, &w.dir, "the files the link wrote")
}

/// `-plugin-opt=stats-file=`: LLVM's statistics as JSON, with the same members as lld's.
fn stats_file(dir: &Path) -> Check {
    let objs = options_program(dir, Lto::Thin, &[])?;
    let args = pie_args(Lto::Thin, &objs, &["-Wl,-plugin-opt=stats-file=stats.json"]);
    let (l, w) = lto::link_both_in(dir, false, &objs, &args)?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    let keys = |i: &Isolated| -> Result<Vec<String>, String> {
        let path = i.dir.join("stats.json");
        let text = String::from_utf8_lossy(&lto::read(&path)?).into_owned();
        match Json::parse(&text).map_err(|e| format!("{}: {e}", path.display()))? {
            Json::Obj(members) => Ok(members.iter().map(|(k, _)| k.to_string()).collect()),
            _ => Err(format!("{} is not a JSON object", path.display())),
        }
    };
    let (lk, wk) = (keys(&l)?, keys(&w)?);
    if lk != wk {
        return Err(format!(
            "the statistics differ:\n  weld: {wk:?}\n  lld:  {lk:?}"
        ));
    }
    Ok(())
}

/// `--save-temps=STAGE...`: the same intermediate files as lld's, next to the output and the
/// inputs.
fn save_temps(dir: &Path, lto: Lto, stages: &[&str]) -> Check {
    let objs = options_program(dir, lto, &[])?;
    let opts: Vec<String> = stages
        .iter()
        .map(|s| format!("-Wl,--save-temps={s}"))
        .collect();
    let opts: Vec<&str> = opts.iter().map(String::as_str).collect();
    let (l, w) = lto::link_both_in(dir, false, &objs, &pie_args(lto, &objs, &opts))?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    let made = lto::listing(&l.dir)?.len();
    if made <= objs.len() + 1 {
        return Err(format!(
            "the test is broken: lld saved nothing: {:?}",
            lto::listing(&l.dir)?
        ));
    }
    lto::same_listing(&l.dir, &w.dir, "--save-temps= files")
}

/// `-plugin-opt=dwo_dir=`: with `-gsplit-dwarf` bitcode, the same `.dwo` files in the
/// directory, and the program's skeleton units naming them.
fn dwo_dir(dir: &Path) -> Check {
    let objs = options_program(dir, Lto::Thin, &["-g", "-gsplit-dwarf"])?;
    let args = pie_args(Lto::Thin, &objs, &["-Wl,-plugin-opt=dwo_dir=dwo"]);
    let (l, w) = lto::link_both_in(dir, false, &objs, &args)?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    let (ld, wd) = (l.dir.join("dwo"), w.dir.join("dwo"));
    lto::same_listing(&ld, &wd, "the .dwo files")?;
    if lto::listing(&ld)?.is_empty() {
        return Err("the test is broken: lld wrote no .dwo file".into());
    }
    let dwo_names = |p: &Path| -> Result<Vec<String>, String> {
        let mut cmd = Command::new(tools::find(tools::DWARFDUMP)?);
        cmd.arg("--debug-info").arg(p);
        let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(tools::DWARFDUMP)?;
        let mut v: Vec<String> = out
            .stdout_str()
            .lines()
            .filter(|l| l.contains("DW_AT_dwo_name"))
            .map(|l| l.trim().to_string())
            .collect();
        v.sort();
        Ok(v)
    };
    let (ln, wn) = (dwo_names(&l.linked.out)?, dwo_names(&w.linked.out)?);
    if ln.is_empty() || ln != wn {
        return Err(format!(
            "DW_AT_dwo_name differs:\n  weld: {wn:?}\n  lld:  {ln:?}"
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Profiles

/// `--lto-sample-profile=`: LLVM optimizes with the sample profile: the optimized module
/// (`--lto-emit-llvm`) is lld's and carries the profile's summary, and the program works.
fn sample_profile(dir: &Path, flag: &str) -> Check {
    let objs = options_program(dir, Lto::Full, &["-gline-tables-only"])?;
    let mut inputs = objs.clone();
    inputs.push(data_file(dir, "lto_options", "sample.prof")?);
    let (l, w) = both_in(
        dir,
        "emit",
        false,
        &inputs,
        &pie_args(Lto::Full, &objs, &[flag, "-Wl,--lto-emit-llvm"]),
    )?;
    let (lt, wt) = (lto::ir_text(&l.linked.out)?, lto::ir_text(&w.linked.out)?);
    if !lt.contains("!\"ProfileFormat\", !\"SampleProfile\"") {
        return Err("the test is broken: lld's module has no sample profile summary".into());
    }
    if lt != wt {
        return Err(format!(
            "the optimized modules differ: {}",
            text_diff("weld", &wt, "lld", &lt)
        ));
    }
    let (l, w) = both_in(
        dir,
        "run",
        false,
        &inputs,
        &pie_args(Lto::Full, &objs, &[flag]),
    )?;
    run_both(dir, &l, &w, &Expect::file("options")?)
}

/// With `--reproduce`, lld puts the sample profile in the archive (first, and named in the
/// response file by its canonical spelling), which also makes it the first dependency of
/// `--dependency-file`.
fn sample_profile_reproduce(dir: &Path) -> Check {
    let objs = options_program(dir, Lto::Full, &["-gline-tables-only"])?;
    let mut inputs = objs.clone();
    inputs.push(data_file(dir, "lto_options", "sample.prof")?);
    let opts = [
        "-Wl,-plugin-opt=sample-profile=sample.prof",
        "-Wl,--reproduce=repro.tar",
        "-Wl,--dependency-file=deps.d",
    ];
    let (l, w) = lto::link_both_in(dir, false, &inputs, &pie_args(Lto::Full, &objs, &opts))?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    // What each archive holds and says, with the link's own directory written `DIR`.
    let contents = |i: &Isolated| -> Result<(String, String, String), String> {
        let own = i.dir.display().to_string();
        let own = own.trim_start_matches('/').to_string();
        let tar = |args: &[&str]| -> Result<String, String> {
            let mut cmd = Command::new("tar");
            cmd.current_dir(&i.dir).args(args);
            Ok(run::run(&mut cmd, run::TOOL_TIMEOUT)?
                .ok("tar")?
                .stdout_str())
        };
        let list = tar(&["tf", "repro.tar"])?.replace(&own, "DIR");
        let response = tar(&["xOf", "repro.tar", "repro/response.txt"])?
            .replace(&own, "DIR")
            .lines()
            .filter(|l| l.contains("sample"))
            .map(|l| format!("{l}\n"))
            .collect();
        let deps = String::from_utf8_lossy(&lto::read(&i.dir.join("deps.d"))?)
            .replace(&i.dir.display().to_string(), "DIR");
        Ok((list, response, deps))
    };
    let (lc, wc) = (contents(&l)?, contents(&w)?);
    if !lc
        .0
        .lines()
        .nth(2)
        .is_some_and(|n| n.ends_with("/sample.prof"))
    {
        return Err(format!("the oracle changed: lld's archive holds\n{}", lc.0));
    }
    for (what, lt, wt) in [
        ("the archive's files", &lc.0, &wc.0),
        ("the response file's sample profile", &lc.1, &wc.1),
        ("the dependency file", &lc.2, &wc.2),
    ] {
        if lt != wt {
            return Err(format!(
                "{what} differ: {}",
                text_diff("weld", wt, "lld", lt)
            ));
        }
    }
    Ok(())
}

/// The profile runtime's archive, which the driver adds for `-fcs-profile-generate`.
fn profile_runtime() -> Result<String, String> {
    let mut cmd = Command::new(tools::find(tools::CLANG)?);
    cmd.arg("--print-runtime-dir");
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("clang-22 --print-runtime-dir")?;
    let lib = Path::new(out.stdout_str().trim()).join("libclang_rt.profile-x86_64.a");
    if !lib.is_file() {
        return Err(format!("{} is missing", lib.display()));
    }
    Ok(lib.display().to_string())
}

/// Runs a linked program in its directory with `LLVM_PROFILE_FILE=<dir>/run.profraw` and
/// returns `llvm-profdata-22 show --all-functions --counts` of what it wrote.
fn profile_of_run(i: &Isolated, expect: &Expect) -> Result<String, String> {
    let raw = i.dir.join("run.profraw");
    let mut cmd = Command::new(&i.linked.out);
    cmd.current_dir(&i.dir).env("LLVM_PROFILE_FILE", &raw);
    let ran = run::run(&mut cmd, run::RUN_TIMEOUT)?;
    if let Some((p, want)) = &expect.stdout {
        if !ran.success() || ran.stdout_str() != *want {
            return Err(format!(
                "{}'s instrumented program should print {}:\n{}",
                i.linked.label,
                p.display(),
                ran.report()
            ));
        }
    }
    let data = i.dir.join("run.profdata");
    let mut merge = Command::new(tools::find(PROFDATA)?);
    merge.arg("merge").arg("-o").arg(&data).arg(&raw);
    run::run(&mut merge, run::TOOL_TIMEOUT)?.ok("llvm-profdata-22 merge")?;
    let mut show = Command::new(tools::find(PROFDATA)?);
    show.args(["show", "--all-functions", "--counts"])
        .arg(&data);
    Ok(run::run(&mut show, run::TOOL_TIMEOUT)?
        .ok("llvm-profdata-22 show")?
        .stdout_str())
}

const PROFDATA: &str = "llvm-profdata-22";

/// The arguments that make LTO add context-sensitive instrumentation: through the driver
/// (`-fcs-profile-generate`, which passes the `-plugin-opt=` forms and the runtime) or with
/// the `--lto-*` spellings and the runtime named.
fn cs_generate_args(lto: Lto, objs: &[String], from_driver: bool) -> Result<Vec<String>, String> {
    let mut args = pie_args(lto, objs, &[]);
    if from_driver {
        args.push("-fcs-profile-generate".into());
    } else {
        args.extend(strs(&[
            "-Wl,--lto-cs-profile-generate",
            "-Wl,--lto-cs-profile-file=cs.profraw",
            "-Wl,-u,__llvm_profile_runtime",
        ]));
        args.push(profile_runtime()?);
    }
    Ok(args)
}

/// `--lto-cs-profile-generate`: both programs are instrumented alike, so their runs write the
/// same profile (functions, hashes, counts).
fn cs_profile_generate(dir: &Path, lto: Lto, from_driver: bool) -> Check {
    let objs = options_program(dir, lto, &[])?;
    let args = cs_generate_args(lto, &objs, from_driver)?;
    let (l, w) = lto::link_both_in(dir, false, &objs, &args)?;
    let expect = Expect::file("options")?;
    let (lp, wp) = (profile_of_run(&l, &expect)?, profile_of_run(&w, &expect)?);
    if !lp.contains("  main:") {
        return Err(format!(
            "the test is broken: lld's profile has no main:\n{lp}"
        ));
    }
    if lp != wp {
        return Err(format!(
            "the profiles differ: {}",
            text_diff("weld", &wp, "lld", &lp)
        ));
    }
    Ok(())
}

/// `--lto-cs-profile-file=` without `--lto-cs-profile-generate`: LTO optimizes with the
/// context-sensitive profile. The profile is made here: lld's instrumented program runs, and
/// its counts are marked as a context-sensitive IR profile (what a CSPGO build's first stage
/// gives). LTO's objects are lld's and differ from those without the profile (whose
/// call-graph section comes with SHT_REL relocations).
fn cs_profile_use(dir: &Path, flag: &str) -> Check {
    let objs = options_program(dir, Lto::Thin, &[])?;
    let gen = lto::link_in(
        dir,
        &Linker::lld()?,
        false,
        &objs,
        &cs_generate_args(Lto::Thin, &objs, false)?,
    )?;
    lto::check_link(&gen.linked)?;
    profile_of_run(&gen, &Expect::file("options")?)?;
    let text = dir.join("cs.proftext");
    let mut to_text = Command::new(tools::find(PROFDATA)?);
    to_text
        .args(["merge", "--text", "-o"])
        .arg(&text)
        .arg(gen.dir.join("run.profdata"));
    run::run(&mut to_text, run::TOOL_TIMEOUT)?.ok("llvm-profdata-22 merge --text")?;
    let counts = String::from_utf8_lossy(&lto::read(&text)?).into_owned();
    let counts: String = counts
        .lines()
        .filter(|l| !l.starts_with(':') && !l.starts_with("# IR level"))
        .map(|l| format!("{l}\n"))
        .collect();
    paths::write(
        &text,
        format!("# IR level Instrumentation Flag\n:csir\n{counts}"),
    )?;
    let mut to_data = Command::new(tools::find(PROFDATA)?);
    to_data
        .args(["merge", "-o"])
        .arg(dir.join("cs.profdata"))
        .arg(&text);
    run::run(&mut to_data, run::TOOL_TIMEOUT)?.ok("llvm-profdata-22 merge")?;

    let mut inputs = objs.clone();
    inputs.push("cs.profdata".into());
    let args = pie_args(Lto::Thin, &objs, &[flag]);
    let (l, w) = link_with_objs(dir, false, &inputs, &args)?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    same_lto_objects(&l, &w)?;
    let without = lld_without(dir, false, &inputs, &pie_args(Lto::Thin, &objs, &[]))?;
    changes_lld_objects(&l, &without, flag)
}

/// Objects compiled natively with a sample profile carry `.llvm.call-graph-profile`, whose
/// relocations LLVM writes as SHT_REL: they link, and the program works, as with lld.
fn native_call_graph_profile(dir: &Path) -> Check {
    let prof = lto::data("lto_options", "sample.prof");
    let use_prof = format!("-fprofile-sample-use={}", prof.display());
    let objs = options_program(dir, Lto::Native, &["-O2", "-gline-tables-only", &use_prof])?;
    let mut cmd = Command::new(tools::find(tools::READELF)?);
    cmd.arg("-S").arg(dir.join(&objs[0]));
    let sections = run::run(&mut cmd, run::TOOL_TIMEOUT)?
        .ok(tools::READELF)?
        .stdout_str();
    if !sections
        .lines()
        .any(|l| l.contains(".rel.llvm.call-graph-profile") && l.contains(" REL "))
    {
        return Err(format!(
            "the test is broken: {} has no SHT_REL call-graph section:\n{sections}",
            objs[0]
        ));
    }
    let mut args = strs(Link::DynamicPie.ldflags());
    args.extend_from_slice(&objs);
    let (l, w) = lto::link_both_in(dir, false, &objs, &args)?;
    run_both(dir, &l, &w, &Expect::file("options")?)
}

// ---------------------------------------------------------------------------------------------
// --lto=

/// `--lto=full` and `--lto=thin` on `-funified-lto` ThinLTO bitcode: the backend lld picks (one
/// merged module, or one per input), the same objects, and the program works.
fn lto_kind(dir: &Path, kind: Lto) -> Check {
    let objs = compile(
        dir,
        "options",
        &["main.c", "stats.c", "table.c"],
        Lto::Thin,
        "unified",
        &["-funified-lto"],
    )?;
    let opt = format!("-Wl,--lto={}", kind.name());
    let (l, w) = link_with_objs(dir, false, &objs, &pie_args(Lto::Thin, &objs, &[&opt]))?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    same_lto_objects(&l, &w)?;
    // With --lto-obj-path the full-LTO task always makes an object, empty module or not.
    let made = lto_objects(&l)?.iter().filter(|o| !o.is_empty()).count();
    let want = if kind == Lto::Full { 1 } else { objs.len() + 1 };
    if made != want {
        return Err(format!(
            "the test is broken: lld's {opt} made {made} objects, not {want}"
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Whole-program visibility and the vtable validation

/// The shapes program: `main` (`main.cpp` or `main_tri.cpp`) and `square.cpp` as full-LTO
/// bitcode with `-fwhole-program-vtables`, plus `tri.cpp` natively with `tri_flags` (none:
/// left out).
fn shapes(dir: &Path, main: &str, tri_flags: Option<&[&str]>) -> Result<Vec<String>, String> {
    let mut objs = compile(
        dir,
        "lto_options/shapes",
        &[main, "square.cpp"],
        Lto::Full,
        "full",
        &["-O2", "-fwhole-program-vtables"],
    )?;
    if let Some(flags) = tri_flags {
        let mut f = vec!["-O2"];
        f.extend_from_slice(flags);
        objs.extend(compile(
            dir,
            "lto_options/shapes",
            &["tri.cpp"],
            Lto::Native,
            "native",
            &f,
        )?);
    }
    Ok(objs)
}

/// The indirect calls in a link's LTO objects (`call *...`): what devirtualization left.
fn indirect_calls(i: &Isolated) -> Result<usize, String> {
    let d = i.dir.join("objs");
    let mut n = 0;
    for name in lto::listing(&d)? {
        if lto::read(&d.join(&name))?.is_empty() {
            continue;
        }
        let mut cmd = Command::new(tools::find("llvm-objdump-22")?);
        cmd.args(["-d", "--no-show-raw-insn"]).arg(d.join(&name));
        let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-objdump-22 -d")?;
        n += out
            .stdout_str()
            .lines()
            .filter(|l| l.contains("call") && l.contains('*'))
            .count();
    }
    Ok(n)
}

/// `--lto-whole-program-visibility` on a program it is true of: LTO devirtualizes the virtual
/// call as in lld (the same objects, which differ from those without the option).
fn whole_program(dir: &Path, lto: Lto) -> Check {
    let objs = compile(
        dir,
        "lto_options/shapes",
        &["main.cpp", "square.cpp"],
        lto,
        lto.name(),
        &["-O2", "-fwhole-program-vtables"],
    )?;
    let opt = "-Wl,--lto-whole-program-visibility";
    let (l, w) = link_with_objs(dir, true, &objs, &pie_args(lto, &objs, &[opt]))?;
    run_both(dir, &l, &w, &Expect::file("lto_options/shapes")?)?;
    same_lto_objects(&l, &w)?;
    let without = lld_without(dir, true, &objs, &pie_args(lto, &objs, &[]))?;
    changes_lld_objects(&l, &without, opt)
}

/// Under `--gc-sections`, weld's precise graph hides bitcode symbols that only dead native
/// code refers to, but not C++ class metadata under whole-program visibility: here the native
/// triangle (with RTTI) is dead, yet its type info refers to Shape's, so lld's validation
/// keeps Shape's virtual calls, and weld's must too (hiding `_ZTI5Shape` would let LLVM
/// devirtualize them). The symbols' bindings may differ (that is the precise graph); the
/// virtual calls left may not.
fn whole_program_gc(dir: &Path) -> Check {
    let objs = shapes(dir, "main.cpp", Some(&[]))?;
    let args = pie_args(
        Lto::Full,
        &objs,
        &[
            "-Wl,--gc-sections",
            "-Wl,--lto-whole-program-visibility",
            "-Wl,--lto-validate-all-vtables-have-type-infos",
        ],
    );
    let (l, w) = link_with_objs(dir, true, &objs, &args)?;
    run_both(dir, &l, &w, &Expect::file("lto_options/shapes")?)?;
    let (lc, wc) = (indirect_calls(&l)?, indirect_calls(&w)?);
    if lc == 0 {
        return Err("the test is broken: lld devirtualized every call".into());
    }
    if lc != wc {
        return Err(format!(
            "LTO left {wc} indirect calls for weld, {lc} for lld: devirtualization differs"
        ));
    }
    Ok(())
}

/// `--lto-validate-all-vtables-have-type-infos` with a native class compiled without RTTI:
/// lld's message on stdout (unless `--lto-known-safe-vtables` matches the vtable) and lld's
/// decision, so the same objects and the same output (`expected`: 23 when the validation
/// turned whole-program visibility off, 29, wrongly, when the vtable was declared safe).
fn vtables(dir: &Path, extra: &[&str], expected: &str, message: bool) -> Check {
    let objs = shapes(dir, "main_tri.cpp", Some(&["-fno-rtti"]))?;
    let mut opts = vec![
        "-Wl,--lto-whole-program-visibility",
        "-Wl,--lto-validate-all-vtables-have-type-infos",
    ];
    opts.extend_from_slice(extra);
    let (l, w) = link_with_objs(dir, true, &objs, &pie_args(Lto::Full, &objs, &opts))?;
    let (lo, wo) = (l.linked.link.stdout_str(), w.linked.link.stdout_str());
    let want = "--lto-validate-all-vtables-have-type-infos: RTTI missing for vtable _ZTV3Tri, \
                --lto-whole-program-visibility disabled";
    if lo.contains(want) != message {
        return Err(format!("the oracle changed:\n{}", l.linked.link.report()));
    }
    if lo != wo {
        return Err(format!(
            "the links' standard output differs: {}",
            text_diff("weld", &wo, "lld", &lo)
        ));
    }
    run_both(
        dir,
        &l,
        &w,
        &Expect::file_named("lto_options/shapes", expected)?,
    )?;
    same_lto_objects(&l, &w)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Basic block sections

/// The section names of a linked program.
fn section_names(path: &Path) -> Result<BTreeSet<String>, String> {
    let mut cmd = Command::new(tools::find(tools::READELF)?);
    cmd.args(["-S", "-W"]).arg(path);
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(tools::READELF)?;
    Ok(out
        .stdout_str()
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            l.strip_prefix('[')?;
            let rest = l.split_once(']')?.1;
            rest.split_whitespace().next().map(String::from)
        })
        .collect())
}

/// The SHF_LINK_ORDER sections of a linked program with the name of the section each links
/// to (`sh_link`).
fn link_order_links(path: &Path) -> Result<BTreeSet<(String, String)>, String> {
    let mut cmd = Command::new(tools::find(tools::READELF)?);
    cmd.args(["-S", "-W"]).arg(path);
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(tools::READELF)?;
    // [Nr] Name Type Address Off Size ES Flg Lk Inf Al: Flg may be empty.
    let rows: Vec<(usize, Vec<String>)> = out
        .stdout_str()
        .lines()
        .filter_map(|l| {
            let l = l.trim_start().strip_prefix('[')?;
            let (nr, rest) = l.split_once(']')?;
            let nr = nr.trim().parse().ok()?;
            Some((nr, rest.split_whitespace().map(String::from).collect()))
        })
        .collect();
    let name_of = |i: &str| -> Option<String> {
        let i: usize = i.parse().ok()?;
        rows.iter()
            .find(|(n, _)| *n == i)
            .map(|(_, t)| t[0].clone())
    };
    Ok(rows
        .iter()
        .filter(|(_, t)| t.len() == 10 && t[6].contains('L'))
        .map(|(_, t)| (t[0].clone(), name_of(&t[7]).unwrap_or_else(|| t[7].clone())))
        .collect())
}

/// `--lto-basic-block-sections=` and its companions: LTO's objects are lld's (with the
/// option's sections), they differ from those without the option when `changes`, the programs
/// work, and the linked programs have the same sections (`.llvm_bb_addr_map` kept, linked to
/// `.text`).
fn bb_sections(dir: &Path, opts: &[&str], changes: bool) -> Check {
    let objs = options_program(dir, Lto::Full, &[])?;
    let mut inputs = objs.clone();
    inputs.push(data_file(dir, "lto_options", "bb_sections.txt")?);
    let (l, w) = link_with_objs(dir, false, &inputs, &pie_args(Lto::Full, &objs, opts))?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    same_lto_objects(&l, &w)?;
    let without = lld_without(dir, false, &inputs, &pie_args(Lto::Full, &objs, &[]))?;
    let same_as_without = lto_objects(&l)? == lto_objects(&without)?;
    if changes == same_as_without {
        return Err(format!(
            "the test is broken: {} {} lld's LTO objects",
            opts.join(" "),
            if changes {
                "does not change"
            } else {
                "changes"
            }
        ));
    }
    let (ls, ws) = (section_names(&l.linked.out)?, section_names(&w.linked.out)?);
    if ls != ws {
        let only_l: Vec<&String> = ls.difference(&ws).collect();
        let only_w: Vec<&String> = ws.difference(&ls).collect();
        return Err(format!(
            "the programs' sections differ\n  only lld's: {only_l:?}\n  only weld's: {only_w:?}"
        ));
    }
    let (ll, wl) = (
        link_order_links(&l.linked.out)?,
        link_order_links(&w.linked.out)?,
    );
    if ll != wl {
        return Err(format!(
            "the SHF_LINK_ORDER sections link elsewhere:\n  weld: {wl:?}\n  lld:  {ll:?}"
        ));
    }
    Ok(())
}

/// `--lto-basic-block-sections=labels`: lld's deprecation warning, and nothing else changes.
fn bb_sections_labels(dir: &Path) -> Check {
    let objs = options_program(dir, Lto::Full, &[])?;
    let opt = "-Wl,--lto-basic-block-sections=labels";
    let (l, w) = link_with_objs(dir, false, &objs, &pie_args(Lto::Full, &objs, &[opt]))?;
    run_both(dir, &l, &w, &Expect::file("options")?)?;
    same_lto_objects(&l, &w)?;
    let (lw, ww) = (warnings(&l), warnings(&w));
    if !lw
        .iter()
        .any(|w| w.contains("'--lto-basic-block-sections=labels' is deprecated"))
    {
        return Err(format!("the oracle changed:\n{}", l.linked.link.report()));
    }
    if lw != ww {
        return Err(format!("warnings differ:\n  weld: {ww:?}\n  lld:  {lw:?}"));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Bad values

/// How lld fails for a bad value.
#[derive(Clone, Copy)]
enum Oracle {
    /// An error and exit code 1: weld's first error line must be lld's.
    Exit1,
    /// lld reports the error and then crashes, or ends with `LLVM ERROR: MESSAGE`: weld must
    /// fail cleanly with that message as its first error.
    Crashes,
    /// Exit code 1 with an error weld words with the module's name first: weld's first error
    /// line must contain lld's message.
    Contains,
}

fn error_trials(t: &mut Vec<Trial>) {
    let cases: &[(&str, &[&str], Oracle)] = &[
        ("lto_mode", &["--lto=fat"], Oracle::Exit1),
        (
            "save_temps_value",
            &["--save-temps=opt", "--save-temps=bogus"],
            Oracle::Exit1,
        ),
        (
            "remarks_hotness_threshold",
            &["--opt-remarks-hotness-threshold=12x"],
            Oracle::Exit1,
        ),
        (
            "remarks_hotness_threshold_plugin_opt",
            &["-plugin-opt=opt-remarks-hotness-threshold=+5"],
            Oracle::Exit1,
        ),
        (
            "remarks_format",
            &[
                "--opt-remarks-filename",
                "r.yaml",
                "--opt-remarks-format",
                "jsonl",
            ],
            Oracle::Exit1,
        ),
        (
            "remarks_passes_regex",
            &[
                "--opt-remarks-filename",
                "r.yaml",
                "--opt-remarks-passes",
                "inline(",
            ],
            Oracle::Exit1,
        ),
        (
            "sample_profile_missing",
            &["--lto-sample-profile=missing.prof"],
            Oracle::Exit1,
        ),
        (
            "cs_profile_missing",
            &["--lto-cs-profile-file=missing.profdata"],
            Oracle::Exit1,
        ),
        (
            "sample_profile_missing_with_reproduce",
            &["--lto-sample-profile=missing.prof", "--reproduce=r.tar"],
            Oracle::Exit1,
        ),
        (
            "stats_file_directory_missing",
            &["-plugin-opt=stats-file=nodir/stats.json"],
            Oracle::Exit1,
        ),
        (
            "known_safe_vtables_not_a_vtable",
            &[
                "--lto-validate-all-vtables-have-type-infos",
                "--lto-known-safe-vtables=Tri",
            ],
            Oracle::Exit1,
        ),
        (
            "known_safe_vtables_bad_glob",
            &[
                "--lto-validate-all-vtables-have-type-infos",
                "--lto-known-safe-vtables=_ZTV[3",
            ],
            Oracle::Exit1,
        ),
        (
            "bb_sections_file_missing",
            &["--lto-basic-block-sections=missing.txt"],
            Oracle::Crashes,
        ),
        (
            "newpm_passes_unknown",
            &["--lto-newpm-passes=function(no-such-pass)"],
            Oracle::Crashes,
        ),
        (
            "aa_pipeline_unknown",
            &["--lto-aa-pipeline=no-such-aa"],
            Oracle::Crashes,
        ),
        (
            "pass_plugin_missing",
            &["--load-pass-plugin=./missing-plugin.so"],
            Oracle::Crashes,
        ),
        (
            "lto_full_needs_unified_bitcode",
            &["--lto=full"],
            Oracle::Contains,
        ),
    ];
    for &(name, args, oracle) in cases {
        t.push(trial(format!("errors::{name}"), move |d| {
            bad_value(d, args, oracle)
        }));
    }
}

/// The options program (ThinLTO) linked directly, with `args`, by each linker in a directory
/// of its own: lld fails as `oracle` says, and weld fails cleanly (exit code 1, no output, no
/// file left behind, although lld leaves some: its remarks files) with lld's message.
fn bad_value(dir: &Path, args: &[&str], oracle: Oracle) -> Check {
    let objs = options_program(dir, Lto::Thin, &[])?;
    let mut a = objs.clone();
    a.extend(strs(args));
    let files: Vec<PathBuf> = objs.iter().map(|o| dir.join(o)).collect();
    let (ldir, wdir) = (dir.join("lld"), dir.join("weld"));
    for d in [&ldir, &wdir] {
        paths::fresh_dir(d)?;
        lto::copy_into(d, &files)?;
    }
    let lld = lto::run_linker(&ldir, &tools::lld()?, &a, "out")?;
    let before = lto::listing(&wdir)?;
    let weld = lto::run_linker(&wdir, &tools::weld()?, &a, "out")?;
    lto::failed_cleanly(&wdir, &weld, "out", &before)?;
    let lld_first = lto::first_error_line(&lto::lld_as_weld(&lld.stderr_str(), &tools::weld()?)?);
    let got = lto::first_error_line(&weld.stderr_str()).unwrap_or_default();
    let oracle_changed = || format!("the oracle changed:\n{}", lld.report());
    match oracle {
        Oracle::Exit1 | Oracle::Contains if lld.code != Some(1) => Err(oracle_changed()),
        Oracle::Crashes if lld.success() => Err(oracle_changed()),
        Oracle::Exit1 | Oracle::Crashes => {
            let fatal = lld.stderr_str().lines().find_map(|l| {
                l.strip_prefix("LLVM ERROR: ")
                    .map(|m| format!("weld: error: {m}"))
            });
            let want = lld_first.or(fatal).ok_or_else(oracle_changed)?;
            if got == want {
                Ok(())
            } else {
                Err(format!(
                    "first error line differs from lld's\n  weld: {got}\n  want: {want}\n{}",
                    weld.report()
                ))
            }
        }
        Oracle::Contains => {
            let want = lld_first.ok_or_else(oracle_changed)?;
            let message = want.split_once("error: ").map_or(want.as_str(), |(_, m)| m);
            if got.contains(message) {
                Ok(())
            } else {
                Err(format!(
                    "weld's first error line should say `{message}`:\n  {got}\n{}",
                    weld.report()
                ))
            }
        }
    }
}
