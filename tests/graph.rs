//! One reference graph across native sections and bitcode symbols, walked before LTO (issue 6 §5
//! and §7). Small programs from `testdata/graph/` (and the seed example of `testdata/gc/seed`)
//! mixing bitcode and native objects, linked through `clang-22 -flto[=thin] -fuse-ld=lld
//! --ld-path=<linker>` with weld and with ld.lld-22; every link writes its LTO objects with
//! `--lto-obj-path=` so that what LTO compiled can be inspected with llvm-nm-22. Tests whose name
//! ends in `::thin` or `::full` run with ThinLTO or full-LTO bitcode; the others with ThinLTO.
//!
//! * `seed::*`: the seed example (`main.o` bitcode, `bar.o` native, `libzip.a(zip.o)` bitcode
//!   reached only from `bar.o`'s dead `bar()`): with `--gc-sections` the same program as lld's,
//!   `removing unused bitcode symbol libzip.a(zip.o):(zip)`, and no `zip` in weld's LTO output
//!   or `--save-temps` pre-codegen bitcode (lld compiles it); with `--gc-archive-members` the
//!   member is never loaded or compiled.
//! * `precise::*`: where the precise `VisibleToRegularObj` rule matters: bitcode reached only from
//!   dead native code (a function, a variable, a C++ vtable) is dropped; bitcode reached from live
//!   code or from a root (`.init_array`, `-u`, `--export-dynamic`) is kept.
//! * `undefined::*`: undefined symbols referenced only from dead code, natively or through a
//!   bitcode function only dead native code calls: links with `--gc-sections`, lld's error
//!   without.
//! * `why_live::*`: `--why-live` chains across the LTO boundary (golden: lld's report for the
//!   same program built all native), and roots in bitcode (`llvm.used`).
//! * `archive_chain::*`: `--gc-archive-members` over liba.a (bitcode) -> libb.a (native) ->
//!   libcc.a (bitcode), cut by dead native code and not.
//!
//! Work directories stay under `target/weld-tests/graph/`.

#[allow(dead_code)]
#[path = "support/lto.rs"]
mod lto;

#[path = "support/graph.rs"]
mod graph;

use graph::{
    bitcode_lines_last, bitcode_removals, expect_stdout, extraction_lines, link, link_any,
    lto_modules, lto_objects_define, lto_objects_reference, member_stats, nm_defined,
    output_defines, removal_line, removal_symbol, run_ok, strs, why_extract, Build, Flavor, Link,
    C_THIN,
};
use libtest_mimic::{Arguments, Failed, Trial};
use lto::Lto;
use std::collections::BTreeSet;
use std::path::Path;
use weld_tests::gc::{self, Extraction};
use weld_tests::tools::Linker;
use weld_tests::{paths, text_diff, Check, DirTest};

fn main() {
    let args = Arguments::from_args();
    libtest_mimic::run(&args, trials()).exit();
}

/// A trial working in a fresh `target/weld-tests/graph/<name with :: as />`.
fn trial(name: String, f: impl FnOnce(&Path) -> Check + Send + 'static) -> Trial {
    let dir = paths::work_root()
        .join("graph")
        .join(name.replace("::", "/"));
    Trial::test(name, move || {
        paths::fresh_dir(&dir)?;
        f(&dir).map_err(|e| Failed::from(format!("{e}\nwork directory: {}", dir.display())))
    })
}

fn trials() -> Vec<Trial> {
    type Flavoured = fn(&Path, Lto) -> Check;
    // Tests run with ThinLTO and with full LTO bitcode.
    let flavoured: &[(&str, Flavoured)] = &[
        ("seed::gc_sections", seed_gc_sections),
        ("seed::gc_archive_members", seed_gcam),
        ("precise::dead_native_caller", precise_dead_caller),
        (
            "precise::live_and_dead_native_callers",
            precise_live_and_dead,
        ),
        ("precise::dead_native_data", precise_dead_data),
        ("precise::native_init_array_root", precise_ctor_root),
        ("precise::export_dynamic", precise_export_dynamic),
        ("precise::undefined_flag", precise_undefined_flag),
        ("precise::cxx_vtable_from_dead_code", precise_cxx_vtable),
        (
            "undefined::through_dead_bitcode::gc_sections",
            undefined_bitcode_gc,
        ),
        ("archive_chain::cut_by_dead_native_code", chain_cut),
        ("archive_chain::live", chain_live),
    ];
    // ThinLTO only.
    let thin: &[(&str, DirTest)] = &[
        ("seed::save_temps_precodegen", seed_save_temps),
        (
            "seed::gc_archive_members_without_gc_sections",
            seed_gcam_nogc,
        ),
        (
            "undefined::dead_native_reference::gc_sections",
            undefined_native_gc,
        ),
        (
            "undefined::dead_native_reference::no_gc_sections",
            undefined_native_nogc,
        ),
        (
            "undefined::through_dead_bitcode::no_gc_sections",
            undefined_bitcode_nogc,
        ),
        (
            "why_live::native_from_bitcode_main",
            why_live_native_from_bitcode,
        ),
        (
            "why_live::bitcode_from_native_caller",
            why_live_bitcode_from_native,
        ),
        (
            "why_live::bitcode_from_native_main",
            why_live_bitcode_from_native_main,
        ),
        ("why_live::glob", why_live_glob),
        ("why_live::dead_bitcode_not_reported", why_live_dead),
        ("why_live::through_static_bitcode_function", why_live_static),
        ("why_live::llvm_compiler_used", why_live_llvm_used),
        ("why_live::llvm_used_retain", why_live_retain),
    ];
    let mut t = Vec::new();
    for lto in [Lto::Thin, Lto::Full] {
        for &(n, f) in flavoured {
            t.push(trial(format!("{n}::{}", lto.name()), move |d| f(d, lto)));
        }
    }
    for &(n, f) in thin {
        t.push(trial(n.to_string(), f));
    }
    t.push(Trial::test("support::graph_helpers", || {
        graph::self_test().map_err(Failed::from)
    }));
    t
}

/// How an input is compiled: to bitcode (of the test's flavour) or natively.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bitcode,
    Native,
}
use Kind::{Bitcode, Native};

fn c(lto: Lto) -> Flavor {
    Flavor { cxx: false, lto }
}

fn both() -> Result<(Linker, Linker), String> {
    Ok((Linker::lld()?, Linker::weld()?))
}

/// `problems` as one report, or Ok.
fn report(problems: Vec<String>, links: &[&Link]) -> Check {
    if problems.is_empty() {
        return Ok(());
    }
    let mut s = problems.join("\n");
    s.push('\n');
    for l in links {
        s.push_str(&format!("{}: {}\n", l.linked.label, l.cmdline()));
    }
    Err(s)
}

/// The `removing unused section` lines of a link's stdout, minus those of LTO objects (named
/// differently by the two linkers, and with other contents under weld's rule).
fn native_removals(stdout: &str) -> BTreeSet<String> {
    gc::removed_sections(stdout)
        .into_iter()
        .filter(|l| !l.contains(".lto."))
        .collect()
}

/// Every bitcode symbol weld reports as removed is absent from its output.
fn removed_are_absent(weld: &Link, problems: &mut Vec<String>) -> Check {
    let defined = output_defines(weld)?;
    for line in bitcode_removals(&weld.stdout()) {
        match removal_symbol(&line) {
            Some(sym) if defined.contains(sym) => problems.push(format!(
                "weld reports `{line}`, but its output defines {sym}"
            )),
            Some(_) => {}
            None => problems.push(format!("malformed line `{line}`")),
        }
    }
    Ok(())
}

// =============================================================================================
// 1. The seed example

fn seed_build(dir: &Path, lto: Lto) -> Result<Build, String> {
    let b = Build::from(dir, graph::seed_dir(), lto);
    b.bitcode("main.c", "main.o")?;
    b.native("bar.c", "bar.o")?;
    b.bitcode("zip.c", "zip.o")?;
    b.archive("libzip.a", &["zip.o"])?;
    Ok(b)
}

const SEED_INPUTS: &[&str] = &["main.o", "bar.o", "libzip.a"];
const SEED_LLD_STDOUT: &str = "zip init\nlive_in_bar\nmain done\n";

/// `SEED_INPUTS`, `extra`, and `--why-extract=why.<out>.txt`.
fn seed_args(out: &str, extra: &[&str]) -> Vec<String> {
    let mut a = strs(SEED_INPUTS);
    a.extend(strs(extra));
    a.push(format!("-Wl,--why-extract=why.{out}.txt"));
    a
}

/// lld's default `--gc-sections` link of the seed, checked to be what the scenario says.
fn seed_lld(dir: &Path, lto: Lto) -> Result<(Link, Vec<Extraction>), String> {
    let (lld, _) = both()?;
    let l = link(
        dir,
        &lld,
        "prog.lld",
        c(lto),
        &seed_args(
            "prog.lld",
            &["-Wl,--gc-sections", "-Wl,--print-gc-sections"],
        ),
    )?;
    expect_stdout(
        "lld (the scenario is broken)",
        &run_ok(dir, &l)?,
        SEED_LLD_STDOUT,
    )?;
    let why = why_extract(&dir.join("why.prog.lld.txt"))?;
    let want = vec![Extraction {
        reference: "bar.o".into(),
        extracted: "libzip.a(zip.o)".into(),
        symbol: "zip".into(),
    }];
    if why != want {
        return Err(format!(
            "lld's --why-extract is not the scenario's (the scenario is broken):\n{}",
            extraction_lines(&why)
        ));
    }
    if !lto_objects_define(&l)?.contains("zip") {
        return Err("lld's LTO objects do not define zip (the scenario is broken)".into());
    }
    Ok((l, why))
}

/// Default mode with `--gc-sections`: lld's member selection and program (`zip init` printed),
/// `removing unused bitcode symbol libzip.a(zip.o):(zip)` after lld's section lines, and `zip`
/// never compiled by weld's LTO (while zip.o's constructor is).
fn seed_gc_sections(dir: &Path, lto: Lto) -> Check {
    seed_build(dir, lto)?;
    let (l, lwhy) = seed_lld(dir, lto)?;
    let (_, weld) = both()?;
    let w = link(
        dir,
        &weld,
        "prog.weld",
        c(lto),
        &seed_args(
            "prog.weld",
            &["-Wl,--gc-sections", "-Wl,--print-gc-sections"],
        ),
    )?;
    let mut p = Vec::new();
    let wout = run_ok(dir, &w)?;
    if wout != SEED_LLD_STDOUT {
        p.push(format!(
            "the programs differ: {}",
            text_diff("weld", &wout, "lld", SEED_LLD_STDOUT)
        ));
    }
    let wwhy = why_extract(&dir.join("why.prog.weld.txt"))?;
    if wwhy != lwhy {
        p.push(format!(
            "--why-extract differs from lld's: {}",
            text_diff(
                "weld",
                &extraction_lines(&wwhy),
                "lld",
                &extraction_lines(&lwhy)
            )
        ));
    }
    let ws = w.stdout();
    let want = removal_line("libzip.a(zip.o)", "zip");
    if !ws.lines().any(|x| x == want) {
        p.push(format!("weld's --print-gc-sections lacks `{want}`:\n{ws}"));
    }
    if let Err(e) = bitcode_lines_last(&ws) {
        p.push(e);
    }
    let (ln, wn) = (native_removals(&l.stdout()), native_removals(&ws));
    if !ln.contains("removing unused section bar.o:(.text.bar)") {
        return Err(format!(
            "lld does not remove bar.o:(.text.bar) (the scenario is broken)\n{}",
            l.stdout()
        ));
    }
    if ln != wn {
        p.push(format!(
            "the removed native sections differ from lld's:\n  only lld's: {:?}\n  only weld's: {:?}",
            ln.difference(&wn).collect::<Vec<_>>(),
            wn.difference(&ln).collect::<Vec<_>>()
        ));
    }
    let objs = lto_objects_define(&w)?;
    if objs.contains("zip") {
        p.push(format!(
            "weld's LTO objects ({}) define zip: LTO compiled it although only dead code refers to it (lld's rule)",
            w.lto_objs.display()
        ));
    }
    if !objs.contains("zip_init") {
        p.push(format!(
            "weld's LTO objects ({}) do not define zip_init: zip.o's module was not compiled, \
             yet its constructor must run (defined: {objs:?})",
            w.lto_objs.display()
        ));
    }
    if output_defines(&w)?.contains("zip") {
        p.push("weld's output defines zip".into());
    }
    removed_are_absent(&w, &mut p)?;
    report(p, &[&w, &l])
}

/// `--save-temps`: weld's temporaries for zip.o's module before code generation
/// (`*.precodegen.bc`) no longer define `zip`; lld's do.
fn seed_save_temps(dir: &Path) -> Check {
    seed_build(dir, Lto::Thin)?;
    let inputs: Vec<std::path::PathBuf> = SEED_INPUTS.iter().map(|n| dir.join(n)).collect();
    let (lld, weld) = both()?;
    let mut found = Vec::new();
    for linker in [&lld, &weld] {
        let sub = dir.join(format!("temps.{}", linker.label));
        lto::copy_into(&sub, &inputs)?;
        let args = strs(&[
            "main.o",
            "bar.o",
            "libzip.a",
            "-Wl,--gc-sections",
            "-Wl,--save-temps",
        ]);
        let l = link(&sub, linker, "prog", C_THIN, &args)?;
        let names = lto::listing(&sub)?;
        let pre: Vec<&String> = names
            .iter()
            .filter(|n| n.contains("zip.o") && n.ends_with(".precodegen.bc"))
            .collect();
        if pre.len() != 1 {
            return Err(format!(
                "{} should leave one `*zip.o*.precodegen.bc` with --save-temps, found {pre:?} among {names:?}\n{}",
                linker.label,
                l.linked.link.report()
            ));
        }
        let defined = nm_defined(&sub.join(pre[0]), false)?;
        found.push((sub.join(pre[0]), defined, l));
    }
    let (lp, ld, _) = &found[0];
    if !ld.contains("zip") {
        return Err(format!(
            "lld's {} does not define zip (the scenario is broken): {ld:?}",
            lp.display()
        ));
    }
    let (wp, wd, w) = &found[1];
    if wd.contains("zip") {
        return Err(format!(
            "weld's {} still defines zip before code generation: LTO was told a dead native \
             section's reference keeps it\n{}",
            wp.display(),
            w.cmdline()
        ));
    }
    Ok(())
}

/// `--gc-sections --gc-archive-members`: zip.o is never loaded: no `--why-extract` line, no
/// `zip init`, one LTO module (main.o's), nothing of it in the LTO objects or the output, and no
/// report line about it.
fn seed_gcam(dir: &Path, lto: Lto) -> Check {
    seed_build(dir, lto)?;
    let (_, lwhy) = seed_lld(dir, lto)?;
    let (_, weld) = both()?;
    let w = link(
        dir,
        &weld,
        "prog.weld",
        c(lto),
        &seed_args(
            "prog.weld",
            &[
                "-Wl,--gc-sections",
                "-Wl,--gc-archive-members",
                "-Wl,--print-gc-sections",
                "-Wl,--stats",
            ],
        ),
    )?;
    let mut p = Vec::new();
    if let Err(e) = expect_stdout(
        "--gc-archive-members",
        &run_ok(dir, &w)?,
        "live_in_bar\nmain done\n",
    ) {
        p.push(e);
    }
    let want: Vec<Extraction> = lwhy
        .into_iter()
        .filter(|e| e.extracted != "libzip.a(zip.o)")
        .collect();
    let got = why_extract(&dir.join("why.prog.weld.txt"))?;
    if got != want {
        p.push(format!(
            "--why-extract should list lld's lines without libzip.a(zip.o): {}",
            text_diff(
                "weld",
                &extraction_lines(&got),
                "expected",
                &extraction_lines(&want)
            )
        ));
    }
    match lto_modules(&w) {
        Ok(1) => {}
        Ok(n) => p.push(format!(
            "--stats: {n} LTO modules; only main.o's should reach LTO (zip.o is never loaded)"
        )),
        Err(e) => p.push(e),
    }
    let ws = w.stdout();
    let mentions: Vec<&str> = ws.lines().filter(|l| l.contains("zip.o")).collect();
    if !mentions.is_empty() {
        p.push(format!(
            "--print-gc-sections mentions the never-loaded member: {mentions:?}"
        ));
    }
    let objs = lto_objects_define(&w)?;
    let out = output_defines(&w)?;
    for s in ["zip", "zip_init"] {
        if objs.contains(s) {
            p.push(format!("weld's LTO objects define {s}: zip.o was compiled"));
        }
        if out.contains(s) {
            p.push(format!("weld's output defines {s}: zip.o was loaded"));
        }
    }
    report(p, &[&w])
}

/// `--gc-archive-members` without `--gc-sections`: every loaded section is a root, so members
/// are selected as lld selects them: zip.o is loaded and its constructor runs.
fn seed_gcam_nogc(dir: &Path) -> Check {
    seed_build(dir, Lto::Thin)?;
    let (lld, weld) = both()?;
    let l = link(dir, &lld, "prog.lld", C_THIN, &seed_args("prog.lld", &[]))?;
    let lo = run_ok(dir, &l)?;
    expect_stdout("lld (the scenario is broken)", &lo, SEED_LLD_STDOUT)?;
    let w = link(
        dir,
        &weld,
        "prog.weld",
        C_THIN,
        &seed_args("prog.weld", &["-Wl,--gc-archive-members", "-Wl,--stats"]),
    )?;
    let mut p = Vec::new();
    if let Err(e) = expect_stdout("weld --gc-archive-members", &run_ok(dir, &w)?, &lo) {
        p.push(e);
    }
    let (lw, ww) = (
        why_extract(&dir.join("why.prog.lld.txt"))?,
        why_extract(&dir.join("why.prog.weld.txt"))?,
    );
    if lw != ww {
        p.push(format!(
            "--why-extract differs from lld's: {}",
            text_diff(
                "weld",
                &extraction_lines(&ww),
                "lld",
                &extraction_lines(&lw)
            )
        ));
    }
    match lto_modules(&w) {
        Ok(2) => {}
        Ok(n) => p.push(format!(
            "--stats: {n} LTO modules, expected 2 (main.o, zip.o)"
        )),
        Err(e) => p.push(e),
    }
    report(p, &[&w, &l])
}

// =============================================================================================
// 2. The precise rule

/// A program where precise visibility matters.
struct Precise {
    group: &'static str,
    /// Sources in link order, each compiled to `<stem>.o` as bitcode or natively.
    inputs: &'static [(&'static str, Kind)],
    cxx: bool,
    /// Driver arguments after the objects (both linkers).
    extra: &'static [&'static str],
    /// The program's exact stdout (lld's, checked first).
    stdout: &'static str,
    /// (object, symbol): bitcode symbols reachable only from dead native code. lld's LTO compiles
    /// them (checked: the case is what it says); weld must report them as removed and its LTO
    /// objects and output must not define them.
    dropped: &'static [(&'static str, &'static str)],
    /// (object, symbol): bitcode symbols that must stay: lld's output defines them (checked), and
    /// so must weld's and its LTO objects, with no removal line.
    kept: &'static [(&'static str, &'static str)],
    /// `kept` symbols must also be in `.dynsym` (as lld's are).
    kept_dynamic: bool,
}

fn object_name(src: &str) -> String {
    format!(
        "{}.o",
        Path::new(src)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    )
}

/// Compiles `inputs` of `group` into `dir`, bitcode of flavour `lto`; returns the object names
/// in order.
fn build_inputs(
    dir: &Path,
    group: &str,
    inputs: &[(&str, Kind)],
    lto: Lto,
) -> Result<Vec<String>, String> {
    let b = Build::new(dir, group, lto);
    let mut objs = Vec::new();
    for &(src, kind) in inputs {
        let obj = object_name(src);
        match kind {
            Native => b.native(src, &obj)?,
            Bitcode => b.bitcode(src, &obj)?,
        };
        objs.push(obj);
    }
    Ok(objs)
}

fn precise(dir: &Path, lto: Lto, c: &Precise) -> Check {
    let objs = build_inputs(dir, c.group, c.inputs, lto)?;
    let flavor = Flavor { cxx: c.cxx, lto };
    let mut args = objs.clone();
    args.extend(strs(&["-Wl,--gc-sections", "-Wl,--print-gc-sections"]));
    args.extend(strs(c.extra));
    let (lld, weld) = both()?;
    let l = link(dir, &lld, "prog.lld", flavor, &args)?;
    let lo = run_ok(dir, &l)?;
    expect_stdout("lld (the test is broken)", &lo, c.stdout)?;
    let lobjs = lto_objects_define(&l)?;
    let lout = output_defines(&l)?;
    let ldyn = nm_defined(&l.linked.out, true)?;
    for (f, s) in c.dropped {
        if !lobjs.contains(*s) {
            return Err(format!(
                "lld's LTO objects do not define {f}'s {s}: under lld's rule it is compiled, \
                 so the case does not test the precise rule (the test is broken)\n{}",
                l.cmdline()
            ));
        }
    }
    for (f, s) in c.kept {
        if !lout.contains(*s) || (c.kept_dynamic && !ldyn.contains(*s)) {
            return Err(format!(
                "lld's output does not define {f}'s {s}{} (the test is broken)\n{}",
                if c.kept_dynamic { " in .dynsym" } else { "" },
                l.cmdline()
            ));
        }
    }

    let w = link(dir, &weld, "prog.weld", flavor, &args)?;
    let mut p = Vec::new();
    let wo = run_ok(dir, &w)?;
    if wo != lo {
        p.push(format!(
            "the programs differ: {}",
            text_diff("weld", &wo, "lld", &lo)
        ));
    }
    let ws = w.stdout();
    let removed = bitcode_removals(&ws);
    let wobjs = lto_objects_define(&w)?;
    let wout = output_defines(&w)?;
    let wdyn = nm_defined(&w.linked.out, true)?;
    for (f, s) in c.dropped {
        let line = removal_line(f, s);
        if !removed.contains(&line) {
            p.push(format!("--print-gc-sections lacks `{line}`"));
        }
        if wobjs.contains(*s) {
            p.push(format!(
                "weld's LTO objects ({}) define {s}: LTO compiled it although only dead native \
                 code refers to it",
                w.lto_objs.display()
            ));
        }
        if wout.contains(*s) {
            p.push(format!("weld's output defines {s}"));
        }
    }
    for (f, s) in c.kept {
        let line = removal_line(f, s);
        if removed.contains(&line) {
            p.push(format!("weld reports `{line}`, but {s} must be kept"));
        }
        if !wobjs.contains(*s) {
            p.push(format!(
                "weld's LTO objects ({}) do not define {s}",
                w.lto_objs.display()
            ));
        }
        if !wout.contains(*s) {
            p.push(format!("weld's output does not define {s} (lld's does)"));
        }
        if c.kept_dynamic && !wdyn.contains(*s) {
            p.push(format!("weld's .dynsym does not define {s} (lld's does)"));
        }
    }
    if let Err(e) = bitcode_lines_last(&ws) {
        p.push(e);
    }
    let (ln, wn) = (native_removals(&l.stdout()), native_removals(&ws));
    if ln != wn {
        p.push(format!(
            "the removed native sections differ from lld's:\n  only lld's: {:?}\n  only weld's: {:?}",
            ln.difference(&wn).collect::<Vec<_>>(),
            wn.difference(&ln).collect::<Vec<_>>()
        ));
    }
    removed_are_absent(&w, &mut p)?;
    report(p, &[&w, &l])
}

/// (a) A bitcode function referenced only from a dead native function is dropped.
fn precise_dead_caller(dir: &Path, lto: Lto) -> Check {
    precise(
        dir,
        lto,
        &Precise {
            group: "dead_caller",
            inputs: &[("main.c", Bitcode), ("native.c", Native), ("bc.c", Bitcode)],
            cxx: false,
            extra: &[],
            stdout: "native_live\nbc_live\nmain done\n",
            dropped: &[("bc.o", "bc_dead_only")],
            kept: &[("bc.o", "bc_live")],
            kept_dynamic: false,
        },
    )
}

/// (b) A bitcode function referenced from a live and from a dead native function is kept.
fn precise_live_and_dead(dir: &Path, lto: Lto) -> Check {
    precise(
        dir,
        lto,
        &Precise {
            group: "live_and_dead_caller",
            inputs: &[("main.c", Bitcode), ("native.c", Native), ("bc.c", Bitcode)],
            cxx: false,
            extra: &[],
            stdout: "native_live\nbc_shared\nbc_live\nmain done\n",
            dropped: &[],
            kept: &[("bc.o", "bc_shared")],
            kept_dynamic: false,
        },
    )
}

/// (c) A bitcode global variable referenced only from dead native data is dropped.
fn precise_dead_data(dir: &Path, lto: Lto) -> Check {
    precise(
        dir,
        lto,
        &Precise {
            group: "dead_data",
            inputs: &[("main.c", Bitcode), ("native.c", Native), ("bc.c", Bitcode)],
            cxx: false,
            extra: &[],
            stdout: "live_ptr -> 7\n",
            dropped: &[("bc.o", "bc_var")],
            kept: &[("bc.o", "bc_live_var")],
            kept_dynamic: false,
        },
    )
}

/// (e) A bitcode function called only from a native constructor (`.init_array`, a root) is kept.
fn precise_ctor_root(dir: &Path, lto: Lto) -> Check {
    precise(
        dir,
        lto,
        &Precise {
            group: "ctor_root",
            inputs: &[("main.c", Bitcode), ("native.c", Native), ("bc.c", Bitcode)],
            cxx: false,
            extra: &[],
            stdout: "bc_from_ctor\nbc_live\nmain done\n",
            dropped: &[],
            kept: &[("bc.o", "bc_from_ctor")],
            kept_dynamic: false,
        },
    )
}

/// (f) A bitcode function nobody references, exported by `--export-dynamic`, is kept (and found
/// by `dlsym` at run time).
fn precise_export_dynamic(dir: &Path, lto: Lto) -> Check {
    precise(
        dir,
        lto,
        &Precise {
            group: "export_dynamic",
            inputs: &[("main.c", Bitcode), ("bc.c", Bitcode)],
            cxx: false,
            extra: &["-Wl,--export-dynamic"],
            stdout: "bc_live\nexported_unused\nmain done\n",
            dropped: &[],
            kept: &[("bc.o", "exported_unused")],
            kept_dynamic: true,
        },
    )
}

/// (g) `-u forced_fn` keeps a bitcode function nobody references.
fn precise_undefined_flag(dir: &Path, lto: Lto) -> Check {
    precise(
        dir,
        lto,
        &Precise {
            group: "undefined_flag",
            inputs: &[("main.c", Bitcode), ("bc.c", Bitcode)],
            cxx: false,
            extra: &["-Wl,-u,forced_fn"],
            stdout: "bc_live\nmain done\n",
            dropped: &[],
            kept: &[("bc.o", "forced_fn")],
            kept_dynamic: false,
        },
    )
}

/// (h) C++: a class with virtual functions, defined in bitcode, instantiated only by dead native
/// code: its vtable, typeinfo and methods are dropped; the program still runs.
fn precise_cxx_vtable(dir: &Path, lto: Lto) -> Check {
    precise(
        dir,
        lto,
        &Precise {
            group: "cxx_vtable",
            inputs: &[
                ("main.cpp", Bitcode),
                ("native.cpp", Native),
                ("widget.cpp", Bitcode),
            ],
            cxx: true,
            extra: &[],
            stdout: "native_live\nwidget api 3\n",
            dropped: &[
                ("widget.o", "_ZTV6Widget"),
                ("widget.o", "_ZTI6Widget"),
                ("widget.o", "_ZTS6Widget"),
                ("widget.o", "_ZNK6Widget4drawEv"),
                ("widget.o", "_ZN6WidgetD0Ev"),
                ("widget.o", "_ZN6WidgetD2Ev"),
            ],
            kept: &[],
            kept_dynamic: false,
        },
    )
}

// =============================================================================================
// (d) Undefined symbols referenced only from dead code

const UNDEF_NATIVE: &[(&str, Kind)] = &[
    ("main.c", Bitcode),
    ("native_direct.c", Native),
    ("bc.c", Bitcode),
];
const UNDEF_BITCODE: &[(&str, Kind)] = &[
    ("main.c", Bitcode),
    ("native_via_bc.c", Native),
    ("bc.c", Bitcode),
];
const UNDEF_STDOUT: &str = "native_live\nbc_live\nmain done\n";

/// With `--gc-sections` both linkers link and the programs print the same. Returns weld's link.
fn undefined_links(dir: &Path, inputs: &[(&str, Kind)], lto: Lto) -> Result<(Link, Link), String> {
    let mut args = build_inputs(dir, "undefined", inputs, lto)?;
    args.extend(strs(&["-Wl,--gc-sections", "-Wl,--print-gc-sections"]));
    let (lld, weld) = both()?;
    let l = link(dir, &lld, "prog.lld", c(lto), &args)?;
    expect_stdout("lld (the test is broken)", &run_ok(dir, &l)?, UNDEF_STDOUT)?;
    let w = link(dir, &weld, "prog.weld", c(lto), &args)?;
    expect_stdout("weld", &run_ok(dir, &w)?, UNDEF_STDOUT)?;
    Ok((l, w))
}

/// Without `--gc-sections` both linkers fail the same way: the same driver status, weld's stderr
/// lld's (lld's program name replaced by weld's), no output file. Each linker links copies of the
/// objects in a directory of its own into `prog`, so that the names of LTO objects in the
/// messages (derived from the output's name) can be the same.
fn undefined_fails(dir: &Path, inputs: &[(&str, Kind)], lld_says: &str) -> Check {
    let objs = build_inputs(dir, "undefined", inputs, Lto::Thin)?;
    let paths: Vec<std::path::PathBuf> = objs.iter().map(|o| dir.join(o)).collect();
    let (lld, weld) = both()?;
    let (ldir, wdir) = (dir.join("lld"), dir.join("weld"));
    lto::copy_into(&ldir, &paths)?;
    lto::copy_into(&wdir, &paths)?;
    let l = link_any(&ldir, &lld, "prog", C_THIN, &objs)?;
    if l.success() || !l.stderr_str().contains(lld_says) {
        return Err(format!(
            "lld should fail with `{lld_says}` (the test is broken)\n{}",
            l.report()
        ));
    }
    let w = link_any(&wdir, &weld, "prog", C_THIN, &objs)?;
    let mut p = Vec::new();
    if w.code != l.code {
        p.push(format!(
            "the driver's status differs: weld: {}, lld: {}",
            w.status_text(),
            l.status_text()
        ));
    }
    let expected = gc::lld_stderr_as_weld(&l, weld_tests::build::Compiler::Clang)?;
    if w.stderr_str() != expected {
        p.push(format!(
            "stderr differs from lld's: {}",
            text_diff("weld", &w.stderr_str(), "lld", &expected)
        ));
    }
    if wdir.join("prog").exists() {
        p.push("weld left an output file".into());
    }
    if p.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{}", p.join("\n"), w.report()))
    }
}

fn undefined_native_gc(dir: &Path) -> Check {
    undefined_links(dir, UNDEF_NATIVE, Lto::Thin).map(drop)
}

fn undefined_native_nogc(dir: &Path) -> Check {
    undefined_fails(dir, UNDEF_NATIVE, "undefined symbol: missing_native")
}

/// The only reference to `missing_from_bc` is in bitcode `bc_calls_missing`, which only dead
/// native code calls: weld drops it before LTO, so nothing refers to `missing_from_bc` at all.
fn undefined_bitcode_gc(dir: &Path, lto: Lto) -> Check {
    let (l, w) = undefined_links(dir, UNDEF_BITCODE, lto)?;
    if !lto_objects_reference(&l)?.contains("missing_from_bc") {
        return Err(
            "lld's LTO objects do not refer to missing_from_bc (the test is broken)".into(),
        );
    }
    let mut p = Vec::new();
    let line = removal_line("bc.o", "bc_calls_missing");
    if !bitcode_removals(&w.stdout()).contains(&line) {
        p.push(format!("--print-gc-sections lacks `{line}`"));
    }
    if lto_objects_reference(&w)?.contains("missing_from_bc") {
        p.push(format!(
            "weld's LTO objects ({}) refer to missing_from_bc: bc_calls_missing was compiled",
            w.lto_objs.display()
        ));
    }
    removed_are_absent(&w, &mut p)?;
    report(p, &[&w, &l])
}

fn undefined_bitcode_nogc(dir: &Path) -> Check {
    undefined_fails(dir, UNDEF_BITCODE, "undefined symbol: missing_from_bc")
}

// =============================================================================================
// 3. --why-live across the boundary

/// Links the program made of `inputs` of `group` with `--gc-sections --why-live=PATTERN` by weld
/// (with ThinLTO bitcode as given), and by lld built all native in `native/` (same object names).
/// lld's report must match `lld_lines` (patterns, one per line: the chain is what the test says);
/// weld's must be exactly lld's, and both programs must print the same.
fn why_live_vs_native(
    dir: &Path,
    group: &str,
    inputs: &[(&str, Kind)],
    pattern: &str,
    lld_lines: &[&str],
) -> Check {
    let objs = build_inputs(dir, group, inputs, Lto::Thin)?;
    let b = Build::new(dir, group, Lto::Thin);
    for (src, _) in inputs {
        b.native_in("native", src, &object_name(src))?;
    }
    let mut args = objs;
    args.push("-Wl,--gc-sections".into());
    args.push(format!("-Wl,--why-live={pattern}"));
    let (lld, weld) = both()?;
    let l = link(&dir.join("native"), &lld, "prog.lld", C_THIN, &args)?;
    let lt = l.stdout();
    if !graph::lines_match(&lt, lld_lines) {
        return Err(format!(
            "lld's report for the all-native program is not the expected chain (the test is broken):\n{lt}\nexpected (patterns):\n{}",
            lld_lines.join("\n")
        ));
    }
    let w = link(dir, &weld, "prog.weld", C_THIN, &args)?;
    let wt = w.stdout();
    let mut p = Vec::new();
    if wt != lt {
        p.push(format!(
            "weld's --why-live report for the LTO program differs from lld's for the same program \
             built all native: {}",
            text_diff("weld", &wt, "lld native", &lt)
        ));
    }
    let (lo, wo) = (run_ok(&dir.join("native"), &l)?, run_ok(dir, &w)?);
    if lo != wo {
        p.push(format!(
            "the programs differ: {}",
            text_diff("weld", &wo, "lld", &lo)
        ));
    }
    report(p, &[&w, &l])
}

/// main.o (bitcode) -> mid.o (native) -> leaf.o (bitcode).
const WHY_LIVE_PROGRAM: &[(&str, Kind)] =
    &[("main.c", Bitcode), ("mid.c", Native), ("leaf.c", Bitcode)];

/// A native function reached from a bitcode `main`.
fn why_live_native_from_bitcode(dir: &Path) -> Check {
    why_live_vs_native(
        dir,
        "why_live",
        WHY_LIVE_PROGRAM,
        "mid_fn",
        &[
            "live symbol: mid.o:(mid_fn)",
            ">>> referenced by: main.o:(main)",
            ">>> referenced by: */Scrt1.o:(_start) (entry point)",
        ],
    )
}

/// A bitcode function reached from a native caller, reached from a bitcode `main`, reached from
/// `_start`.
fn why_live_bitcode_from_native(dir: &Path) -> Check {
    why_live_vs_native(
        dir,
        "why_live",
        WHY_LIVE_PROGRAM,
        "leaf_fn",
        &[
            "live symbol: leaf.o:(leaf_fn)",
            ">>> referenced by: mid.o:(mid_fn)",
            ">>> referenced by: main.o:(main)",
            ">>> referenced by: */Scrt1.o:(_start) (entry point)",
        ],
    )
}

/// A bitcode function called by a native `main`, which `_start` calls.
fn why_live_bitcode_from_native_main(dir: &Path) -> Check {
    why_live_vs_native(
        dir,
        "why_live",
        &[("native_main.c", Native), ("leaf.c", Bitcode)],
        "leaf_fn",
        &[
            "live symbol: leaf.o:(leaf_fn)",
            ">>> referenced by: native_main.o:(main)",
            ">>> referenced by: */Scrt1.o:(_start) (entry point)",
        ],
    )
}

/// A glob matching a native and a bitcode function: both chains, in lld's order.
fn why_live_glob(dir: &Path) -> Check {
    why_live_vs_native(
        dir,
        "why_live",
        WHY_LIVE_PROGRAM,
        "*_fn",
        &[
            "live symbol: mid.o:(mid_fn)",
            ">>> referenced by: main.o:(main)",
            ">>> referenced by: */Scrt1.o:(_start) (entry point)",
            "live symbol: leaf.o:(leaf_fn)",
            ">>> referenced by: mid.o:(mid_fn)",
            ">>> referenced by: main.o:(main)",
            ">>> referenced by: */Scrt1.o:(_start) (entry point)",
        ],
    )
}

/// Dead symbols, native or bitcode, are never reported (lld prints nothing for them).
fn why_live_dead(dir: &Path) -> Check {
    why_live_vs_native(
        dir,
        "dead_caller",
        &[("main.c", Bitcode), ("native.c", Native), ("bc.c", Bitcode)],
        "*dead*",
        &[],
    )
}

/// A chain through a static bitcode function: weld names it, as lld names the local symbol of
/// the native build (lld's native report has one more line, `>>> in live section:
/// static_main.o:(.text.helper)`, for the section that holds it: a bitcode function has none).
fn why_live_static(dir: &Path) -> Check {
    let inputs = [
        ("static_main.c", Bitcode),
        ("mid.c", Native),
        ("leaf.c", Bitcode),
    ];
    let mut args = build_inputs(dir, "why_live", &inputs, Lto::Thin)?;
    args.push("-Wl,--gc-sections".into());
    args.push("-Wl,--why-live=leaf_fn".into());
    let (_, weld) = both()?;
    let w = link(dir, &weld, "prog.weld", C_THIN, &args)?;
    let want = [
        "live symbol: leaf.o:(leaf_fn)",
        ">>> referenced by: mid.o:(mid_fn)",
        ">>> referenced by: static_main.o:(helper)",
        ">>> referenced by: static_main.o:(main)",
        ">>> referenced by: */Scrt1.o:(_start) (entry point)",
    ];
    let wt = w.stdout();
    if !graph::lines_match(&wt, &want) {
        return Err(format!(
            "weld's --why-live report:\n{wt}\nexpected (patterns):\n{}\n{}",
            want.join("\n"),
            w.cmdline()
        ));
    }
    expect_stdout("weld", &run_ok(dir, &w)?, "mid_fn\nleaf_fn\nmain done\n")
}

/// A root inside bitcode (`llvm.used`/`llvm.compiler.used`): weld's own report, one line with
/// the root as its suffix, as lld prints a symbol that is itself a root.
fn why_live_bitcode_root(dir: &Path, src: &str, sym: &str, in_output: bool) -> Check {
    let mut inputs = WHY_LIVE_PROGRAM.to_vec();
    inputs.push((src, Bitcode));
    let mut args = build_inputs(dir, "why_live", &inputs, Lto::Thin)?;
    args.push("-Wl,--gc-sections".into());
    args.push(format!("-Wl,--why-live={sym}"));
    let (lld, weld) = both()?;
    let l = link(dir, &lld, "prog.lld", C_THIN, &args)?;
    if output_defines(&l)?.contains(sym) != in_output {
        return Err(format!(
            "lld's output should {}define {sym} (the test is broken)",
            if in_output { "" } else { "not " }
        ));
    }
    let w = link(dir, &weld, "prog.weld", C_THIN, &args)?;
    let mut p = Vec::new();
    let want = format!("live symbol: {}:({sym}) (llvm.used)\n", object_name(src));
    if w.stdout() != want {
        p.push(format!(
            "weld's --why-live report: {}",
            text_diff("weld", &w.stdout(), "expected", &want)
        ));
    }
    if output_defines(&w)?.contains(sym) != in_output {
        p.push(format!(
            "weld's output should {}define {sym}, as lld's does",
            if in_output { "" } else { "not " }
        ));
    }
    let (lo, wo) = (run_ok(dir, &l)?, run_ok(dir, &w)?);
    if lo != wo {
        p.push(format!(
            "the programs differ: {}",
            text_diff("weld", &wo, "lld", &lo)
        ));
    }
    report(p, &[&w, &l])
}

/// `__attribute__((used))`: in `llvm.compiler.used`, a root of the walk before LTO (LTO must keep
/// it); as in lld's output, its section is not retained afterwards.
fn why_live_llvm_used(dir: &Path) -> Check {
    why_live_bitcode_root(dir, "used.c", "kept_by_used", false)
}

/// `__attribute__((used, retain))`: in `llvm.used`, and kept in the output.
fn why_live_retain(dir: &Path) -> Check {
    why_live_bitcode_root(dir, "retained.c", "kept_by_retain", true)
}

// =============================================================================================
// 4. --gc-archive-members over a chain of bitcode and native archives

/// main.o (bitcode) -> liba.a(a.o) (bitcode) -> libb.a(b.o) (native) -> libcc.a(c.o) (bitcode),
/// with `b_src` as b.o. Checks lld's default `--gc-sections` link (the scenario), weld's default
/// mode against it, then weld with `--gc-archive-members`: lld's members and `--why-extract` lines
/// minus libcc.a(c.o) when `cut`, lld's program minus `c init`, and `modules` LTO modules.
fn chain(dir: &Path, lto: Lto, b_src: &str, cut: bool) -> Check {
    let b = Build::new(dir, "archive_chain", lto);
    b.bitcode("main.c", "main.o")?;
    b.bitcode("a.c", "a.o")?;
    b.native(b_src, "b.o")?;
    b.bitcode("c.c", "c.o")?;
    b.archive("liba.a", &["a.o"])?;
    b.archive("libb.a", &["b.o"])?;
    b.archive("libcc.a", &["c.o"])?;
    let args = |out: &str, extra: &[&str]| {
        let mut a = strs(&["main.o", "liba.a", "libb.a", "libcc.a"]);
        a.extend(strs(&["-Wl,--gc-sections", "-Wl,--print-gc-sections"]));
        a.extend(strs(extra));
        a.push(format!("-Wl,--why-extract=why.{out}.txt"));
        a
    };
    let (lld, weld) = both()?;
    let l = link(dir, &lld, "prog.lld", c(lto), &args("prog.lld", &[]))?;
    let lo = run_ok(dir, &l)?;
    let lwhy = why_extract(&dir.join("why.prog.lld.txt"))?;
    let x = |r: &str, e: &str, s: &str| Extraction {
        reference: r.into(),
        extracted: e.into(),
        symbol: s.into(),
    };
    let scenario = vec![
        x("main.o", "liba.a(a.o)", "a_fn"),
        x("liba.a(a.o)", "libb.a(b.o)", "b_fn"),
        x("libb.a(b.o)", "libcc.a(c.o)", "c_fn"),
    ];
    let c_line = if cut { "" } else { "c_fn\n" };
    let lld_stdout = format!("b init\na init\nc init\na_fn\nb_fn\n{c_line}main done\n");
    if lwhy != scenario || lo != lld_stdout {
        return Err(format!(
            "lld's link is not the scenario's (the scenario is broken)\n--why-extract:\n{}program:\n{lo}",
            extraction_lines(&lwhy)
        ));
    }
    let mut p = Vec::new();

    // weld, default mode: lld's members and program; every module reaches LTO.
    let wd = link(
        dir,
        &weld,
        "prog.weld",
        c(lto),
        &args("prog.weld", &["-Wl,--stats"]),
    )?;
    let wdo = run_ok(dir, &wd)?;
    if wdo != lo {
        p.push(format!(
            "default mode: the programs differ: {}",
            text_diff("weld", &wdo, "lld", &lo)
        ));
    }
    let wdwhy = why_extract(&dir.join("why.prog.weld.txt"))?;
    if wdwhy != lwhy {
        p.push(format!(
            "default mode: --why-extract differs from lld's: {}",
            text_diff(
                "weld",
                &extraction_lines(&wdwhy),
                "lld",
                &extraction_lines(&lwhy)
            )
        ));
    }
    match lto_modules(&wd) {
        Ok(3) => {}
        Ok(n) => p.push(format!(
            "default mode: --stats: {n} LTO modules, expected 3 (main.o, a.o, c.o)"
        )),
        Err(e) => p.push(e),
    }

    // weld --gc-archive-members.
    let w = link(
        dir,
        &weld,
        "prog.gcam",
        c(lto),
        &args("prog.gcam", &["-Wl,--gc-archive-members", "-Wl,--stats"]),
    )?;
    let what = "--gc-archive-members";
    let wo = run_ok(dir, &w)?;
    let want_out = if cut {
        lo.replace("c init\n", "")
    } else {
        lo.clone()
    };
    if let Err(e) = expect_stdout(what, &wo, &want_out) {
        p.push(e);
    }
    let want_why: Vec<Extraction> = lwhy
        .iter()
        .filter(|e| !(cut && e.extracted == "libcc.a(c.o)"))
        .cloned()
        .collect();
    let wwhy = why_extract(&dir.join("why.prog.gcam.txt"))?;
    if wwhy != want_why {
        p.push(format!(
            "{what}: --why-extract should be lld's{}: {}",
            if cut {
                " without libcc.a(c.o), reached only from dead native code"
            } else {
                ""
            },
            text_diff(
                "weld",
                &extraction_lines(&wwhy),
                "expected",
                &extraction_lines(&want_why)
            )
        ));
    }
    let modules = if cut { 2 } else { 3 };
    match lto_modules(&w) {
        Ok(n) if n == modules => {}
        Ok(n) => p.push(format!(
            "{what}: --stats: {n} LTO modules, expected {modules}{}",
            if cut {
                " (main.o, a.o: libcc.a(c.o) is never loaded)"
            } else {
                ""
            }
        )),
        Err(e) => p.push(e),
    }
    // Members: resolution reads the symbols of what lld loads (bitcode included); the walk
    // keeps what it reaches, and only that is read in full (a bitcode member left out is not
    // compiled).
    let distinct = |v: &[Extraction]| {
        v.iter()
            .map(|e| e.extracted.clone())
            .collect::<BTreeSet<_>>()
            .len()
    };
    let (lld_members, kept) = (distinct(&lwhy), distinct(&want_why));
    match member_stats(&w) {
        Ok((_, resolved, parsed, loaded))
            if resolved == lld_members && parsed == kept && loaded == kept => {}
        Ok((indexed, resolved, parsed, loaded)) => p.push(format!(
            "{what}: --stats: members {indexed} indexed, {resolved} resolved, {parsed} parsed, \
             {loaded} loaded; expected {lld_members} resolved (lld's), {kept} parsed and loaded"
        )),
        Err(e) => p.push(e),
    }
    let objs = lto_objects_define(&w)?;
    let out = output_defines(&w)?;
    for s in ["c_fn", "c_init"] {
        if cut && (objs.contains(s) || out.contains(s)) {
            p.push(format!(
                "{what}: {s} is defined in weld's LTO objects or output: libcc.a(c.o) was loaded"
            ));
        }
        if !cut && !objs.contains(s) {
            p.push(format!("{what}: weld's LTO objects do not define {s}"));
        }
    }
    let ws = w.stdout();
    if cut {
        let mentions: Vec<&str> = ws.lines().filter(|l| l.contains("c.o)")).collect();
        if !mentions.is_empty() {
            p.push(format!(
                "{what}: --print-gc-sections mentions the never-loaded libcc.a(c.o): {mentions:?}"
            ));
        }
    }
    report(p, &[&w, &wd, &l])
}

fn chain_cut(dir: &Path, lto: Lto) -> Check {
    chain(dir, lto, "b_cut.c", true)
}

fn chain_live(dir: &Path, lto: Lto) -> Check {
    chain(dir, lto, "b.c", false)
}
