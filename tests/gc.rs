//! Garbage collection and the link reports, against ld.lld-22 in the same test:
//!
//! - `extract::<case>::<compiler>::<mode>`: `--why-extract` over the whole corpus (static,
//!   static-pie, dynamic-pie): the same archive members as lld, for the same reasons, in lld's
//!   order (each level reported on its own);
//! - `print_gc::<case>::<compiler>::<mode>`: `--gc-sections --print-gc-sections` over the corpus
//!   built `-ffunction-sections -fdata-sections` (dynamic PIE and static): the same removed
//!   sections as lld, as sets and in lld's order;
//! - `map::<case>::<compiler>::<mode>`: `-Map` over the corpus (static, dynamic-pie,
//!   gc-sections) compared structurally with lld's (see `gc::compare_maps` for the levels
//!   asserted: output sections and order, sizes, input sections per output section; not
//!   addresses), and `map::print_map_stdout` for `-M`;
//! - `gc_archive_members::*`: weld's `--gc-archive-members` on small programs from
//!   `testdata/gc/` (the seed example, a chain of archives, groups, `-u`, constructors as roots,
//!   weak references), checked against lld in its default mode where meaningful;
//! - `why_live::*`: `--why-live` output identical to lld's for known chains;
//! - `undefined::*`: undefined symbols matter only in live sections under `--gc-sections`;
//! - `start_stop::*`: `-z start-stop-gc` (lld's default) and `-z nostart-stop-gc`.
//!
//! Work directories are kept under `target/weld-tests/gc/`.

use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use weld_tests::build::{self, Compiler, Mode, COMPILERS};
use weld_tests::corpus::{self, Case};
use weld_tests::gc::{
    self, check_linked, compare_extractions, compare_maps, compare_removed, parse_map,
    read_why_extract, removed_sections, Extraction, Workdir,
};
use weld_tests::run::{self, Output};
use weld_tests::tools::Linker;
use weld_tests::{paths, text_diff, Check};

fn main() {
    let args = Arguments::from_args();
    let mut trials = match corpus_trials() {
        Ok(t) => t,
        Err(e) => vec![Trial::test("corpus::load", move || Err(e.into()))],
    };
    trials.extend(scenario_trials());
    libtest_mimic::run(&args, trials).exit();
}

// =============================================================================================
// The corpus: --why-extract, --print-gc-sections, -Map

const EXTRACT_MODES: &[&str] = &["static", "static-pie", "dynamic-pie"];
const MAP_MODES: &[&str] = &["static", "dynamic-pie", "gc-sections"];

fn corpus_trials() -> Result<Vec<Trial>, String> {
    let cases = corpus::load_all()?;
    let mut trials = Vec::new();
    let mut add = |kind: &'static str, case: &Case, compiler: Compiler, mode: Mode| {
        let name = format!("{kind}::{}::{}::{}", case.name, compiler.name(), mode.name);
        let case = case.clone();
        trials.push(Trial::test(name, move || {
            let dir = paths::work_root()
                .join("gc")
                .join(kind)
                .join(&case.name)
                .join(format!("{}-{}", compiler.name(), mode.name));
            paths::fresh_dir(&dir)?;
            let r = match kind {
                "extract" => corpus_extract(&case, compiler, &mode, &dir),
                "print_gc" => corpus_print_gc(&case, compiler, &mode, &dir),
                _ => corpus_map(&case, compiler, &mode, &dir),
            };
            r.map_err(|e| Failed::from(format!("{e}\nwork directory: {}", dir.display())))
        }));
    };
    for case in &cases {
        for &compiler in COMPILERS {
            let runs = |m: &str| case.runs_in(compiler.name(), m);
            for m in EXTRACT_MODES {
                if runs(m) {
                    add("extract", case, compiler, build::mode(m)?);
                }
            }
            if runs("gc-sections") {
                add("print_gc", case, compiler, build::mode("gc-sections")?);
            }
            if runs("static") && runs("gc-sections") {
                add("print_gc", case, compiler, gc::STATIC_GC_SECTIONS);
            }
            for m in MAP_MODES {
                if runs(m) {
                    add("map", case, compiler, build::mode(m)?);
                }
            }
        }
    }
    Ok(trials)
}

/// Links a corpus case like the differential suite does, with `extra` driver arguments after
/// everything else. The link must succeed.
fn corpus_link(
    case: &Case,
    compiler: Compiler,
    mode: &Mode,
    linker: &Linker,
    dir: &Path,
    extra: &[String],
) -> Result<Output, String> {
    let objs = build::objects(case, compiler, mode)?;
    let out = dir.join(format!("prog.{}", linker.label));
    let mut cmd = build::link_command(case, &objs, compiler, mode, linker, &out)?;
    cmd.args(extra);
    let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    paths::write(&dir.join(format!("link.{}.txt", linker.label)), o.report())?;
    check_linked(&o, &out, linker.label)?;
    Ok(o)
}

fn both() -> Result<[Linker; 2], String> {
    Ok([Linker::lld()?, Linker::weld()?])
}

/// `--why-extract`: the set of extracted members, then the full lines, then their order.
fn corpus_extract(case: &Case, compiler: Compiler, mode: &Mode, dir: &Path) -> Check {
    let mut files = Vec::new();
    for linker in both()? {
        let why = dir.join(format!("why-extract.{}.txt", linker.label));
        let arg = format!("-Wl,--why-extract={}", why.display());
        let link = corpus_link(case, compiler, mode, &linker, dir, &[arg])?;
        if !why.is_file() {
            return Err(format!(
                "{} wrote no --why-extract file {}\n{}",
                linker.label,
                why.display(),
                link.report()
            ));
        }
        files.push(read_why_extract(&why)?);
    }
    let (lld, weld) = (&files[0], &files[1]);
    if mode.name.starts_with("static") && lld.is_empty() {
        return Err("lld extracted no member in a static link: the test checks nothing".into());
    }
    let problems = compare_extractions(weld, lld);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "--why-extract differs from lld's ({} lines in weld's file, {} in lld's)\n{}",
            weld.len(),
            lld.len(),
            problems.join("")
        ))
    }
}

/// `--print-gc-sections`: the removed sections as sets, then in order.
fn corpus_print_gc(case: &Case, compiler: Compiler, mode: &Mode, dir: &Path) -> Check {
    let mut outs = Vec::new();
    for linker in both()? {
        let link = corpus_link(
            case,
            compiler,
            mode,
            &linker,
            dir,
            &["-Wl,--print-gc-sections".to_string()],
        )?;
        paths::write(
            &dir.join(format!("removed.{}.txt", linker.label)),
            &link.stdout,
        )?;
        outs.push(link.stdout_str());
    }
    let (lld, weld) = (removed_sections(&outs[0]), removed_sections(&outs[1]));
    if lld.is_empty() {
        return Err("lld removed no section: the test checks nothing".into());
    }
    let mut problems = compare_removed(&weld, &lld);
    let other = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with(gc::REMOVING))
            .map(String::from)
            .collect()
    };
    let (lo, wo) = (other(&outs[0]), other(&outs[1]));
    if lo != wo {
        problems.push(format!(
            "other lines on stdout differ: {}",
            text_diff("weld", &wo.join("\n"), "lld", &lo.join("\n"))
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join(""))
    }
}

/// `-Map=FILE`: compared structurally (levels 1-3 of `gc::compare_maps`).
fn corpus_map(case: &Case, compiler: Compiler, mode: &Mode, dir: &Path) -> Check {
    let mut maps = Vec::new();
    for linker in both()? {
        let map = dir.join(format!("map.{}.txt", linker.label));
        let link = corpus_link(
            case,
            compiler,
            mode,
            &linker,
            dir,
            &[format!("-Wl,-Map={}", map.display())],
        )?;
        let text = std::fs::read_to_string(&map).map_err(|e| {
            format!(
                "{} wrote no map file {} ({e})\n{}",
                linker.label,
                map.display(),
                link.report()
            )
        })?;
        maps.push(parse_map(&text).map_err(|e| format!("{}'s map: {e}", linker.label))?);
    }
    let problems = compare_maps(&maps[1], &maps[0]);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "weld's map differs from lld's\n{}",
            problems.join("\n")
        ))
    }
}

// =============================================================================================
// Small programs

type ScenarioFn = fn(&Path, Compiler) -> Check;

fn scenario_trials() -> Vec<Trial> {
    let both: &[Compiler] = COMPILERS;
    let clang: &[Compiler] = &[Compiler::Clang];
    let tests: &[(&str, ScenarioFn, &[Compiler])] = &[
        ("map::print_map_stdout", print_map_stdout, clang),
        ("gc_archive_members::seed", gcam_seed, both),
        ("gc_archive_members::chain", gcam_chain, both),
        (
            "gc_archive_members::chain_cut_by_dead_code",
            gcam_chain_cut,
            both,
        ),
        ("gc_archive_members::group", gcam_group, both),
        (
            "gc_archive_members::undefined_flag",
            gcam_undefined_flag,
            both,
        ),
        (
            "gc_archive_members::constructors_are_roots",
            gcam_ctor_roots,
            both,
        ),
        ("gc_archive_members::weak_reference", gcam_weak_ref, both),
        ("why_live::two_calls", why_live_two_calls, clang),
        ("why_live::global_variable", why_live_global_variable, clang),
        ("why_live::static_function", why_live_static_function, clang),
        ("why_live::init_array", why_live_init_array, clang),
        ("why_live::retain", why_live_retain, clang),
        ("why_live::glob", why_live_glob, clang),
        ("why_live::dead_not_reported", why_live_dead, clang),
        (
            "why_live::personality_dynamic",
            why_live_personality_dynamic,
            both,
        ),
        (
            "why_live::personality_static",
            why_live_personality_static,
            both,
        ),
        ("why_live::contained_live_symbol", why_live_contained, clang),
        (
            "undefined::dead_reference_links_with_gc_sections",
            undefined_dead_gc,
            both,
        ),
        (
            "undefined::dead_reference_fails_without_gc_sections",
            undefined_dead_nogc,
            both,
        ),
        (
            "undefined::live_reference_fails_with_gc_sections",
            undefined_live_gc,
            both,
        ),
        (
            "start_stop::only_bounds_reference_default",
            start_stop_only_default,
            both,
        ),
        (
            "start_stop::only_bounds_reference_start_stop_gc",
            start_stop_only_gc,
            both,
        ),
        (
            "start_stop::only_bounds_reference_nostart_stop_gc",
            start_stop_only_nogc,
            both,
        ),
        (
            "start_stop::partly_live_start_stop_gc",
            start_stop_partly_gc,
            both,
        ),
        (
            "start_stop::partly_live_nostart_stop_gc",
            start_stop_partly_nogc,
            both,
        ),
    ];
    let mut trials = Vec::new();
    for &(name, f, compilers) in tests {
        for &compiler in compilers {
            let name = format!("{name}::{}", compiler.name());
            let dir = paths::work_root().join("gc").join(name.replace("::", "/"));
            trials.push(Trial::test(name, move || {
                paths::fresh_dir(&dir)?;
                f(&dir, compiler)
                    .map_err(|e| Failed::from(format!("{e}\nwork directory: {}", dir.display())))
            }));
        }
    }
    trials
}

/// One link and run of a scenario: what the program printed, and what the linker reported.
struct Linked {
    link: Output,
    stdout: String,
    why: Vec<Extraction>,
    removed: Vec<String>,
    out: PathBuf,
}

/// Links `inputs` (objects, archives, driver flags, in order) with `extra` flags into
/// `prog.<tag>` with `--why-extract=why.<tag>.txt`, and runs it; both must succeed.
fn link_and_run(w: &Workdir, linker: &Linker, tag: &str, args: &[&str]) -> Result<Linked, String> {
    let out = format!("prog.{tag}");
    let why = format!("why.{tag}.txt");
    let mut a: Vec<&str> = args.to_vec();
    let why_arg = format!("-Wl,--why-extract={why}");
    a.push(&why_arg);
    let link = w.link_ok(linker, &out, &a)?;
    let ran = w
        .run_ok(&out)
        .map_err(|e| format!("{e}\nlinked by: {}", link.cmdline))?;
    let why = read_why_extract(&w.dir.join(&why))
        .map_err(|e| format!("{e}\nlinked by: {}", link.cmdline))?;
    Ok(Linked {
        removed: removed_sections(&link.stdout_str()),
        stdout: ran.stdout_str(),
        link,
        why,
        out: w.dir.join(out),
    })
}

fn x(reference: &str, extracted: &str, symbol: &str) -> Extraction {
    Extraction {
        reference: reference.into(),
        extracted: extracted.into(),
        symbol: symbol.into(),
    }
}

fn expect_stdout(what: &str, linked: &Linked, expected: &str) -> Check {
    if linked.stdout == expected {
        Ok(())
    } else {
        Err(format!(
            "{what}: the program's output is wrong: {}linked by: {}",
            text_diff("actual", &linked.stdout, "expected", expected),
            linked.link.cmdline
        ))
    }
}

fn expect_same(what: &str, weld: &Linked, lld: &Linked) -> Check {
    let mut problems = Vec::new();
    if weld.stdout != lld.stdout {
        problems.push(format!(
            "the programs' outputs differ: {}",
            text_diff("weld", &weld.stdout, "lld", &lld.stdout)
        ));
    }
    problems.extend(compare_extractions(&weld.why, &lld.why));
    problems.extend(compare_removed(&weld.removed, &lld.removed));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{what}: weld differs from lld\n{}weld: {}\nlld:  {}",
            problems.join(""),
            weld.link.cmdline,
            lld.link.cmdline
        ))
    }
}

/// A `--gc-archive-members` scenario: the inputs, and what lld does with them by default.
struct ArchiveScenario<'a> {
    /// Link inputs in order (objects, archives, flags such as `-Wl,--start-group`).
    inputs: &'a [&'a str],
    /// The program's output when linked by lld (with or without `--gc-sections`).
    lld_stdout: &'a str,
    /// lld's `--why-extract` lines, in order.
    lld_why: Vec<Extraction>,
    /// The program's output when linked by weld with `--gc-sections --gc-archive-members`.
    gcam_stdout: &'a str,
    /// Members (`lib.a(member.o)`) that lld loads but `--gc-archive-members` must not, with a
    /// global symbol each defines: they are reachable only from dead code. (They reference
    /// nothing but libc.so, so no section that lld keeps becomes dead without them.)
    not_loaded: &'a [(&'a str, &'a str)],
}

/// The checks every `--gc-archive-members` scenario makes:
///
/// 1. lld, default: the expected output and `--why-extract` lines (the scenario is what it says);
/// 2. weld, default: the same as lld (output, `--why-extract`);
/// 3. lld and weld with `--gc-sections`: the same output as lld's default, the same members, the
///    same removed sections;
/// 4. weld with `--gc-archive-members` alone: every loaded section is a root without
///    `--gc-sections`, so members are selected as lld selects them;
/// 5. weld with `--gc-sections --gc-archive-members`: the expected output; `--why-extract` lists
///    exactly lld's lines without those of `not_loaded`; `--print-gc-sections` lists lld's
///    `--gc-sections` lines without those of `not_loaded` (a member never loaded has no
///    sections to remove), and the never-loaded members leave no trace in the output file.
fn archive_scenario(w: &Workdir, s: &ArchiveScenario) -> Check {
    let [lld, weld] = both()?;
    let with = |extra: &[&'static str]| -> Vec<&str> {
        let mut v: Vec<&str> = s.inputs.to_vec();
        v.extend(extra);
        v
    };
    let gc = ["-Wl,--gc-sections", "-Wl,--print-gc-sections"];

    let lld_default = link_and_run(w, &lld, "lld", &with(&[]))?;
    expect_stdout(
        "lld, default (the scenario is broken)",
        &lld_default,
        s.lld_stdout,
    )?;
    if lld_default.why != s.lld_why {
        return Err(format!(
            "lld's --why-extract is not what the scenario expects (the scenario is broken): {}",
            text_diff(
                "lld",
                &lines(&lld_default.why),
                "expected",
                &lines(&s.lld_why)
            )
        ));
    }
    let mut problems = Vec::new();
    let weld_default = link_and_run(w, &weld, "weld", &with(&[]))?;
    if let Err(e) = expect_same("default mode", &weld_default, &lld_default) {
        problems.push(e);
    }

    let lld_gc = link_and_run(w, &lld, "lld-gc", &with(&gc))?;
    expect_stdout(
        "lld --gc-sections (the scenario is broken)",
        &lld_gc,
        s.lld_stdout,
    )?;
    let weld_gc = link_and_run(w, &weld, "weld-gc", &with(&gc))?;
    if let Err(e) = expect_same("--gc-sections", &weld_gc, &lld_gc) {
        problems.push(e);
    }

    match link_and_run(
        w,
        &weld,
        "weld-gcam-nogc",
        &with(&["-Wl,--gc-archive-members"]),
    ) {
        Ok(l) => {
            if let Err(e) = expect_same(
                "--gc-archive-members without --gc-sections (must select members as lld)",
                &l,
                &lld_default,
            ) {
                problems.push(e);
            }
        }
        Err(e) => problems.push(format!("--gc-archive-members without --gc-sections: {e}")),
    }

    match link_and_run(
        w,
        &weld,
        "weld-gcam",
        &with(&[
            "-Wl,--gc-sections",
            "-Wl,--print-gc-sections",
            "-Wl,--gc-archive-members",
            "-Wl,--stats",
        ]),
    ) {
        Ok(l) => problems.extend(check_gcam(&l, &lld_default, &lld_gc, s)?),
        Err(e) => problems.push(format!("--gc-sections --gc-archive-members: {e}")),
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

fn check_gcam(
    l: &Linked,
    lld_default: &Linked,
    lld_gc: &Linked,
    s: &ArchiveScenario,
) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    let what = "--gc-sections --gc-archive-members";
    if let Err(e) = expect_stdout(what, l, s.gcam_stdout) {
        problems.push(e);
    }
    let unloaded = |text: &str| s.not_loaded.iter().any(|(m, _)| text.contains(m));
    let mut expected_why: Vec<Extraction> = lld_default
        .why
        .iter()
        .filter(|e| !unloaded(&e.extracted))
        .cloned()
        .collect();
    let mut got = l.why.clone();
    expected_why.sort();
    got.sort();
    if got != expected_why {
        problems.push(format!(
            "{what}: --why-extract should list lld's default lines without the members reachable \
             only from dead code {:?}: {}",
            s.not_loaded,
            text_diff("weld", &lines(&got), "expected", &lines(&expected_why))
        ));
    }
    let expected_removed: Vec<String> = lld_gc
        .removed
        .iter()
        .filter(|r| !unloaded(r))
        .cloned()
        .collect();
    let p = compare_removed(&l.removed, &expected_removed);
    if !p.is_empty() {
        problems.push(format!(
            "{what}: --print-gc-sections should list lld's --gc-sections lines without those of \
             the never-loaded members {:?}\n{}",
            s.not_loaded,
            p.join("")
        ));
    }
    problems.extend(check_member_stats(l, &lld_default.why, &expected_why).err());
    let defined = gc::defined_symbols(&l.out)?;
    let lld_defined = gc::defined_symbols(&lld_default.out)?;
    for (m, sym) in s.not_loaded {
        let lld_loads = lld_default.why.iter().any(|e| e.extracted == *m);
        if lld_loads && !lld_defined.contains(*sym) {
            return Err(format!(
                "lld loads {m} but its output does not define {sym} (the scenario is broken)"
            ));
        }
        if defined.contains(*sym) {
            problems.push(format!(
                "{what}: the output defines {sym}, so {m} was loaded; it must not be"
            ));
        }
    }
    Ok(problems)
}

/// `--stats` of a `--gc-archive-members` link: resolution reads at least lld's members (their
/// symbols), but only the members the walk loads are read in full (relocations), and those are
/// the members `--why-extract` lists.
fn check_member_stats(l: &Linked, lld_why: &[Extraction], why: &[Extraction]) -> Check {
    let stderr = l.link.stderr_str();
    let field = |key: &str| weld_tests::gc::stats_count(&stderr, key);
    let distinct = |v: &[Extraction]| {
        v.iter()
            .map(|e| e.extracted.as_str())
            .collect::<BTreeSet<_>>()
            .len()
    };
    let (resolved, parsed, loaded) = (
        field("members resolved:")?,
        field("members parsed:")?,
        field("members loaded:")?,
    );
    let (lld_members, reached) = (distinct(lld_why), distinct(why));
    if resolved >= lld_members && parsed == reached && loaded == reached {
        Ok(())
    } else {
        Err(format!(
            "--gc-archive-members --stats: members {resolved} resolved, {parsed} parsed, \
             {loaded} loaded; expected at least lld's {lld_members} resolved, and {reached} \
             parsed and loaded (the members the walk reached)"
        ))
    }
}

fn lines(v: &[Extraction]) -> String {
    v.iter().map(|e| format!("{e}\n")).collect()
}

/// Compiles `<scenario>/<name>.c` to `<name>.o` for each name, with `flags`.
fn compile_all(w: &Workdir, scenario: &str, names: &[&str], flags: &[&str]) -> Check {
    for n in names {
        w.compile(&format!("{scenario}/{n}.c"), &format!("{n}.o"), flags)?;
    }
    Ok(())
}

const SECTIONS: &[&str] = &["-ffunction-sections", "-fdata-sections"];

/// (a) The seed example: `bar.o`'s dead `bar()` is the only reference to `libzip.a(zip.o)`.
fn gcam_seed(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    w.compile("seed/main.c", "main.o", &[])?;
    w.compile("seed/bar.c", "bar.o", &["-ffunction-sections"])?;
    w.compile("seed/zip.c", "zip.o", &[])?;
    w.archive("libzip.a", &["zip.o"])?;
    archive_scenario(
        &w,
        &ArchiveScenario {
            inputs: &["main.o", "bar.o", "libzip.a"],
            lld_stdout: "zip init\nlive_in_bar\nmain done\n",
            lld_why: vec![x("bar.o", "libzip.a(zip.o)", "zip")],
            gcam_stdout: "live_in_bar\nmain done\n",
            not_loaded: &[("libzip.a(zip.o)", "zip")],
        },
    )
}

/// (b) main.o -> liba.a(a.o) -> libb.a(b.o) -> libcc.a(c.o), every link from live code.
fn gcam_chain(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(&w, "chain", &["main", "a", "b", "c"], SECTIONS)?;
    chain_archives(&w)?;
    archive_scenario(
        &w,
        &ArchiveScenario {
            inputs: &["main.o", "liba.a", "libb.a", "libcc.a"],
            lld_stdout: "a init\nb init\nc init\na_fn\nb_fn\nc_fn\nmain done\n",
            lld_why: vec![
                x("main.o", "liba.a(a.o)", "a_fn"),
                x("liba.a(a.o)", "libb.a(b.o)", "b_fn"),
                x("libb.a(b.o)", "libcc.a(c.o)", "c_fn"),
            ],
            gcam_stdout: "a init\nb init\nc init\na_fn\nb_fn\nc_fn\nmain done\n",
            not_loaded: &[],
        },
    )
}

fn chain_archives(w: &Workdir) -> Check {
    w.archive("liba.a", &["a.o"])?;
    w.archive("libb.a", &["b.o"])?;
    w.archive("libcc.a", &["c.o"])?;
    Ok(())
}

/// (b') The same chain cut by dead code: only a.o's dead `a_dead()` calls into libb.a, so
/// neither libb.a(b.o) nor libcc.a(c.o) (reached from b.o's live code) may be loaded.
fn gcam_chain_cut(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(&w, "chain", &["main", "b", "c"], SECTIONS)?;
    w.compile("chain/a_cut.c", "a.o", SECTIONS)?;
    chain_archives(&w)?;
    archive_scenario(
        &w,
        &ArchiveScenario {
            inputs: &["main.o", "liba.a", "libb.a", "libcc.a"],
            lld_stdout: "a init\nb init\nc init\na_fn\nmain done\n",
            lld_why: vec![
                x("main.o", "liba.a(a.o)", "a_fn"),
                x("liba.a(a.o)", "libb.a(b.o)", "b_fn"),
                x("libb.a(b.o)", "libcc.a(c.o)", "c_fn"),
            ],
            gcam_stdout: "a init\na_fn\nmain done\n",
            not_loaded: &[("libb.a(b.o)", "b_fn"), ("libcc.a(c.o)", "c_fn")],
        },
    )
}

/// (c) `--start-group libx.a liby.a --end-group` with references both ways; x2.o's dead code is
/// the only reference to liby.a(y2.o).
fn gcam_group(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(&w, "group", &["main", "x1", "x2", "y1", "y2"], SECTIONS)?;
    w.archive("libx.a", &["x1.o", "x2.o"])?;
    w.archive("liby.a", &["y1.o", "y2.o"])?;
    archive_scenario(
        &w,
        &ArchiveScenario {
            inputs: &[
                "main.o",
                "-Wl,--start-group",
                "libx.a",
                "liby.a",
                "-Wl,--end-group",
            ],
            lld_stdout: "y2 init\nx1_fn\ny1_fn\nx2_fn\nmain done\n",
            lld_why: vec![
                // lld's order: a record is written after the extraction it causes is done.
                x("main.o", "libx.a(x1.o)", "x1_fn"),
                x("liby.a(y1.o)", "libx.a(x2.o)", "x2_fn"),
                x("libx.a(x1.o)", "liby.a(y1.o)", "y1_fn"),
                x("libx.a(x2.o)", "liby.a(y2.o)", "y2_fn"),
            ],
            gcam_stdout: "x1_fn\ny1_fn\nx2_fn\nmain done\n",
            not_loaded: &[("liby.a(y2.o)", "y2_fn")],
        },
    )
}

/// (d) `-u forced_sym` loads libf.a(f.o) though nothing references it; `forced_sym` is a root,
/// so what it calls (libg.a(g.o)) is loaded too. Without `-u` neither is loaded.
fn gcam_undefined_flag(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(&w, "undefined_flag", &["main", "f", "g"], SECTIONS)?;
    w.archive("libf.a", &["f.o"])?;
    w.archive("libg.a", &["g.o"])?;
    archive_scenario(
        &w,
        &ArchiveScenario {
            inputs: &["main.o", "libf.a", "libg.a", "-Wl,-u,forced_sym"],
            lld_stdout: "f init\ng init\nmain done\n",
            lld_why: vec![
                x("<internal>", "libf.a(f.o)", "forced_sym"),
                x("libf.a(f.o)", "libg.a(g.o)", "g_fn"),
            ],
            gcam_stdout: "f init\ng init\nmain done\n",
            not_loaded: &[],
        },
    )?;
    // Without -u nothing is loaded, by either linker.
    let [lld, weld] = both()?;
    let plain = ["main.o", "libf.a", "libg.a"];
    let l = link_and_run(&w, &lld, "lld-no-u", &plain)?;
    expect_stdout("lld without -u (the scenario is broken)", &l, "main done\n")?;
    if !l.why.is_empty() {
        return Err(format!(
            "lld without -u extracted members (the scenario is broken):\n{}",
            lines(&l.why)
        ));
    }
    let mut args = plain.to_vec();
    args.extend([
        "-Wl,--gc-sections",
        "-Wl,--print-gc-sections",
        "-Wl,--gc-archive-members",
    ]);
    let g = link_and_run(&w, &weld, "weld-gcam-no-u", &args)?;
    expect_stdout("weld --gc-archive-members without -u", &g, "main done\n")?;
    if !g.why.is_empty() {
        return Err(format!(
            "weld --gc-archive-members without -u extracted members:\n{}",
            lines(&g.why)
        ));
    }
    Ok(())
}

/// (e) A loaded member's constructor references a member of another archive: constructors are
/// roots, so libhelp.a(help.o) is loaded; libhelp.a(help2.o), reached only from the loaded
/// member's dead code, is not.
fn gcam_ctor_roots(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(
        &w,
        "ctor_roots",
        &["main", "mod", "help", "help2"],
        SECTIONS,
    )?;
    w.archive("libmod.a", &["mod.o"])?;
    w.archive("libhelp.a", &["help.o", "help2.o"])?;
    archive_scenario(
        &w,
        &ArchiveScenario {
            inputs: &["main.o", "libmod.a", "libhelp.a"],
            lld_stdout: "helper_fn, called by a constructor\nhelp2 init\nmod_fn\nmain done\n",
            lld_why: vec![
                x("main.o", "libmod.a(mod.o)", "mod_fn"),
                x("libmod.a(mod.o)", "libhelp.a(help.o)", "helper_fn"),
                x("libmod.a(mod.o)", "libhelp.a(help2.o)", "help2_fn"),
            ],
            gcam_stdout: "helper_fn, called by a constructor\nmod_fn\nmain done\n",
            not_loaded: &[("libhelp.a(help2.o)", "help2_fn")],
        },
    )
}

/// (f) A member reached only by a weak undefined reference is not loaded, by lld or by weld in
/// any mode.
fn gcam_weak_ref(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(&w, "weak_ref", &["main", "w"], SECTIONS)?;
    w.archive("libw.a", &["w.o"])?;
    archive_scenario(
        &w,
        &ArchiveScenario {
            inputs: &["main.o", "libw.a"],
            lld_stdout: "weak_fn absent\n",
            lld_why: vec![],
            gcam_stdout: "weak_fn absent\n",
            not_loaded: &[("libw.a(w.o)", "weak_fn")],
        },
    )
}

// ---------------------------------------------------------------------------------------------
// -M

/// `-M` prints the map on stdout: weld's must match lld's at the levels of `compare_maps`.
fn print_map_stdout(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(&w, "seed", &["main", "bar", "zip"], SECTIONS)?;
    w.archive("libzip.a", &["zip.o"])?;
    let args = ["main.o", "bar.o", "libzip.a", "-Wl,--gc-sections", "-Wl,-M"];
    let mut maps = Vec::new();
    for linker in both()? {
        let o = w.link_ok(&linker, &format!("prog.{}", linker.label), &args)?;
        let text = o.stdout_str();
        maps.push(
            parse_map(&text)
                .map_err(|e| format!("{}'s -M output: {e}\n{}", linker.label, o.report()))?,
        );
    }
    let problems = compare_maps(&maps[1], &maps[0]);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "weld's -M output differs from lld's\n{}",
            problems.join("\n")
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// --why-live

/// Builds the `why_live` program (clang, -ffunction-sections -fdata-sections).
fn why_live_program(w: &Workdir) -> Check {
    compile_all(w, "why_live", &["main", "a", "b"], SECTIONS)
}

/// Links `args` with `--gc-sections` and one `--why-live=P` per pattern by both linkers, and
/// requires weld's stdout to be lld's. `lld_must` are lines lld's report must contain (`*` in
/// them matches any text; they check that the test
/// is what it says); `absent` are texts neither report may contain. Returns lld's report.
fn why_live_golden(
    w: &Workdir,
    args: &[&str],
    patterns: &[&str],
    lld_must: &[&str],
    absent: &[&str],
) -> Result<String, String> {
    let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    a.push("-Wl,--gc-sections".into());
    for p in patterns {
        a.push(format!("-Wl,--why-live={p}"));
    }
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let [lld, weld] = both()?;
    let l = w.link_ok(&lld, "prog.lld", &a)?;
    let lt = l.stdout_str();
    for m in lld_must {
        if !lt.lines().any(|line| gc::wildcard_match(m, line)) {
            return Err(format!(
                "lld's --why-live report lacks the line `{m}` (the test is broken)\n{}",
                l.report()
            ));
        }
    }
    for m in absent {
        if lt.contains(m) {
            return Err(format!(
                "lld's --why-live report mentions `{m}` (the test is broken)\n{}",
                l.report()
            ));
        }
    }
    let wl = w.link_ok(&weld, "prog.weld", &a)?;
    let wt = wl.stdout_str();
    let mut problems = Vec::new();
    for m in absent {
        if wt.contains(m) {
            problems.push(format!("weld's report mentions `{m}`, which is dead"));
        }
    }
    if wt != lt {
        problems.push(format!(
            "weld's --why-live report differs from lld's: {}",
            text_diff("weld", &wt, "lld", &lt)
        ));
    }
    if problems.is_empty() {
        Ok(lt)
    } else {
        Err(format!(
            "{}\nweld: {}\nlld:  {}",
            problems.join("\n"),
            wl.cmdline,
            l.cmdline
        ))
    }
}

const WHY_LIVE_OBJS: &[&str] = &["main.o", "a.o", "b.o"];

fn why_live_two_calls(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    why_live_program(&w)?;
    why_live_golden(
        &w,
        WHY_LIVE_OBJS,
        &["deep_fn"],
        &[
            "live symbol: b.o:(deep_fn)",
            ">>> referenced by: a.o:(middle_fn)",
            ">>> referenced by: main.o:(main)",
        ],
        &[],
    )
    .map(drop)
}

fn why_live_global_variable(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    why_live_program(&w)?;
    why_live_golden(
        &w,
        WHY_LIVE_OBJS,
        &["gvar"],
        &[
            "live symbol: a.o:(gvar)",
            ">>> referenced by: a.o:(gvar_user)",
        ],
        &[],
    )
    .map(drop)
}

fn why_live_static_function(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    why_live_program(&w)?;
    why_live_golden(
        &w,
        WHY_LIVE_OBJS,
        &["local_fn"],
        &[
            "live symbol: a.o:(local_fn)",
            ">>> referenced by: a.o:(uses_local)",
        ],
        &[],
    )
    .map(drop)
}

fn why_live_init_array(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    why_live_program(&w)?;
    why_live_golden(
        &w,
        WHY_LIVE_OBJS,
        &["ctor_helper", "ctor_fn"],
        &[
            "live symbol: b.o:(ctor_helper)",
            ">>> referenced by: a.o:(ctor_fn)",
            ">>> referenced by: a.o:(.init_array) (reserved)",
            "live symbol: a.o:(ctor_fn)",
        ],
        &[],
    )
    .map(drop)
}

fn why_live_retain(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    why_live_program(&w)?;
    why_live_golden(
        &w,
        WHY_LIVE_OBJS,
        &["kept_fn"],
        &[
            "live symbol: a.o:(kept_fn)",
            ">>> in live section: a.o:(.text.kept_fn) (retained)",
        ],
        &[],
    )
    .map(drop)
}

fn why_live_glob(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    why_live_program(&w)?;
    why_live_golden(
        &w,
        WHY_LIVE_OBJS,
        &["gl_*", "*_fn"],
        &[
            "live symbol: a.o:(gl_one)",
            "live symbol: a.o:(gl_two)",
            "live symbol: b.o:(deep_fn)",
            "live symbol: a.o:(local_fn)",
            "live symbol: a.o:(kept_fn)",
        ],
        &["gl_dead", "dead_fn"],
    )
    .map(drop)
}

/// Dead symbols are never reported: lld prints nothing for them, and neither may weld.
fn why_live_dead(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    why_live_program(&w)?;
    let report = why_live_golden(
        &w,
        WHY_LIVE_OBJS,
        &["dead_fn", "gl_dead"],
        &[],
        &["dead_fn", "gl_dead"],
    )?;
    if report.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "lld reported something for dead symbols (the test is broken):\n{report}"
        ))
    }
}

fn why_live_personality(dir: &Path, compiler: Compiler, extra: &[&str], file: &str) -> Check {
    let mut w = Workdir::new(dir, compiler);
    w.cxx = true;
    w.compile("why_live/eh.cpp", "eh.o", SECTIONS)?;
    let mut args = vec!["eh.o"];
    args.extend(extra);
    let must = format!("live symbol: */{file}:(__gxx_personality_v0)");
    why_live_golden(
        &w,
        &args,
        &["__gxx_personality_v0"],
        &[
            &must,
            ">>> referenced by: eh.o:(DW.ref.__gxx_personality_v0)",
        ],
        &[],
    )?;
    // Both programs still catch their exception.
    for p in ["prog.lld", "prog.weld"] {
        let o = w.run_ok(p)?;
        if o.stdout_str() != "caught boom\n" {
            return Err(format!("{p} did not catch its exception\n{}", o.report()));
        }
    }
    Ok(())
}

fn why_live_personality_dynamic(dir: &Path, compiler: Compiler) -> Check {
    why_live_personality(dir, compiler, &[], "libstdc++.so")
}

fn why_live_personality_static(dir: &Path, compiler: Compiler) -> Check {
    why_live_personality(dir, compiler, &["-static"], "libstdc++.a(eh_personality.o)")
}

/// A symbol live only because its section is: `zip` shares `.text` with the constructor
/// `zip_init` (lld: `>>> contained live symbol: ...`).
fn why_live_contained(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    w.compile("seed/main.c", "main.o", SECTIONS)?;
    w.compile("seed/bar.c", "bar.o", &["-ffunction-sections"])?;
    w.compile("seed/zip.c", "zip.o", &[])?;
    w.archive("libzip.a", &["zip.o"])?;
    why_live_golden(
        &w,
        &["main.o", "bar.o", "libzip.a"],
        &["zip", "live_in_bar"],
        &[
            "live symbol: libzip.a(zip.o):(zip)",
            ">>> in live section: libzip.a(zip.o):(.text)",
            ">>> contained live symbol: libzip.a(zip.o):(zip_init)",
            "live symbol: bar.o:(live_in_bar)",
        ],
        &["(bar)"],
    )
    .map(drop)
}

// ---------------------------------------------------------------------------------------------
// Undefined symbols in dead sections

/// Both linkers must fail the same way: same driver status, the same stderr (lld's program name
/// replaced by weld's), no output file.
fn expect_same_failure(w: &Workdir, args: &[&str], lld_says: &str) -> Check {
    let [lld, weld] = both()?;
    let l = w.link(&lld, "prog.lld", args)?;
    if l.success() || !l.stderr_str().contains(lld_says) {
        return Err(format!(
            "lld should fail with `{lld_says}` (the test is broken)\n{}",
            l.report()
        ));
    }
    let wl = w.link(&weld, "prog.weld", args)?;
    let mut problems = Vec::new();
    if wl.code != l.code {
        problems.push(format!(
            "the driver's status differs: weld: {}, lld: {}",
            wl.status_text(),
            l.status_text()
        ));
    }
    let expected = gc::lld_stderr_as_weld(&l, w.compiler)?;
    if wl.stderr_str() != expected {
        problems.push(format!(
            "stderr differs from lld's: {}",
            text_diff("weld", &wl.stderr_str(), "lld", &expected)
        ));
    }
    if w.dir.join("prog.weld").exists() {
        problems.push("weld left an output file".to_string());
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{}", problems.join("\n"), wl.report()))
    }
}

/// Both linkers must succeed, and the programs print the same (and `expected`).
fn expect_same_success(w: &Workdir, args: &[&str], expected: &str) -> Check {
    let [lld, weld] = both()?;
    let mut a = args.to_vec();
    a.push("-Wl,--print-gc-sections");
    let mut out = Vec::new();
    for linker in [&lld, &weld] {
        let prog = format!("prog.{}", linker.label);
        let link = w.link_ok(linker, &prog, &a)?;
        let ran = w.run_ok(&prog)?;
        out.push((link, ran.stdout_str()));
    }
    let ((l, lo), (wl, wo)) = (&out[0], &out[1]);
    if lo != expected {
        return Err(format!(
            "lld's program prints the wrong thing (the test is broken): {}",
            text_diff("lld", lo, "expected", expected)
        ));
    }
    let mut problems = Vec::new();
    if wo != lo {
        problems.push(format!(
            "the programs' outputs differ: {}",
            text_diff("weld", wo, "lld", lo)
        ));
    }
    problems.extend(compare_removed(
        &removed_sections(&wl.stdout_str()),
        &removed_sections(&l.stdout_str()),
    ));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}weld: {}\nlld:  {}",
            problems.join(""),
            wl.cmdline,
            l.cmdline
        ))
    }
}

fn undefined_dead_gc(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(&w, "undefined", &["dead_ref"], SECTIONS)?;
    expect_same_success(&w, &["dead_ref.o", "-Wl,--gc-sections"], "main done\n")
}

fn undefined_dead_nogc(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(&w, "undefined", &["dead_ref"], SECTIONS)?;
    expect_same_failure(&w, &["dead_ref.o"], "undefined symbol: missing_fn")
}

fn undefined_live_gc(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    compile_all(&w, "undefined", &["live_ref"], SECTIONS)?;
    expect_same_failure(
        &w,
        &["live_ref.o", "-Wl,--gc-sections"],
        "undefined symbol: missing_fn",
    )
}

// ---------------------------------------------------------------------------------------------
// -z start-stop-gc / -z nostart-stop-gc

fn start_stop_build(w: &Workdir) -> Check {
    compile_all(w, "start_stop", &["main", "only", "t1", "t2"], SECTIONS)
}

/// `gc_items` is referenced only through `__start_gc_items`/`__stop_gc_items`: under
/// `--gc-sections` with `-z start-stop-gc` (lld's default) the section goes and the bounds are
/// undefined; lld's error must be matched word for word.
fn start_stop_only(dir: &Path, compiler: Compiler, z: &[&str]) -> Check {
    let w = Workdir::new(dir, compiler);
    start_stop_build(&w)?;
    let mut args = vec!["only.o", "t2.o", "-Wl,--gc-sections"];
    args.extend(z);
    expect_same_failure(&w, &args, "undefined symbol: __start_gc_items")
}

fn start_stop_only_default(dir: &Path, compiler: Compiler) -> Check {
    start_stop_only(dir, compiler, &[])
}

fn start_stop_only_gc(dir: &Path, compiler: Compiler) -> Check {
    start_stop_only(dir, compiler, &["-Wl,-z,start-stop-gc"])
}

/// With `-z nostart-stop-gc` the bounds references keep every `gc_items` section.
fn start_stop_only_nogc(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    start_stop_build(&w)?;
    expect_same_success(
        &w,
        &[
            "only.o",
            "t2.o",
            "-Wl,--gc-sections",
            "-Wl,-z,nostart-stop-gc",
        ],
        "b=2\nmain done\n",
    )
}

/// t1.o's `gc_items` is live through a direct reference, t2.o's only through the bounds: with
/// `-z start-stop-gc` only t1.o's stays.
fn start_stop_partly_gc(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    start_stop_build(&w)?;
    expect_same_success(
        &w,
        &[
            "main.o",
            "t1.o",
            "t2.o",
            "-Wl,--gc-sections",
            "-Wl,-z,start-stop-gc",
        ],
        "direct: a\na=1\n",
    )
}

fn start_stop_partly_nogc(dir: &Path, compiler: Compiler) -> Check {
    let w = Workdir::new(dir, compiler);
    start_stop_build(&w)?;
    expect_same_success(
        &w,
        &[
            "main.o",
            "t1.o",
            "t2.o",
            "-Wl,--gc-sections",
            "-Wl,-z,nostart-stop-gc",
        ],
        "direct: a\na=1\nb=2\n",
    )
}
