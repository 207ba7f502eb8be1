//! LTO: bitcode inputs linked by weld (LLVM 22 in-process) and by ld.lld-22, through
//! `clang-22 -flto... -fuse-ld=lld --ld-path=<linker>`, both programs run and compared.
//!
//! * `corpus::<case>::<mode>`: the differential corpus compiled with `-flto=thin` and `-flto`
//!   (clang only; hand-written assembly stays native) in static, dynamic-pie and gc-sections
//!   modes.
//! * `cxx_eh_rtti::*`, `tls::*`, `mixed::*`, `archive::*`, `fat_lto::*`, `rust::*`: C++
//!   exceptions and RTTI, thread-locals, native and bitcode objects mixed both ways, bitcode
//!   archives (llvm-ar and GNU ar), fat LTO objects (clang's, and gcc's next to clang
//!   bitcode), Rust with `-C linker-plugin-lto`.
//! * `options::*`: `--lto-O*`, `-plugin-opt=O1`, `--thinlto-jobs` determinism, `--save-temps`,
//!   `--lto-emit-asm`, `--lto-obj-path=`, `-mllvm`, the ThinLTO cache and its pruning.
//! * `errors::*`: corrupt bitcode, bitcode from a future LLVM, bitcode for another target, and a
//!   weld built without LLVM.
//! * `project::lua`: Lua 5.4 (the C sources in crates.io's `lua-src`) built with ThinLTO.
//!
//! Work directories stay under `target/weld-tests/lto/` for inspection.

#[path = "support/external.rs"]
mod external;
// Shared with the other LTO test binaries, which use other parts of it.
#[allow(dead_code)]
#[path = "support/lto.rs"]
mod lto;

use libtest_mimic::{Arguments, Failed, Trial};
use lto::{Expect, Link, Linked, Lto};
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::build::{self, Compiler};
use weld_tests::corpus::{self, Case};
use weld_tests::tools::{self, Linker};
use weld_tests::{paths, run, text_diff, Check};

fn main() {
    let args = Arguments::from_args();
    libtest_mimic::run(&args, trials()).exit();
}

/// A trial working in a fresh `target/weld-tests/lto/<name with :: as />`.
fn trial(name: impl Into<String>, f: impl FnOnce(&Path) -> Check + Send + 'static) -> Trial {
    let name = name.into();
    let dir = paths::work_root().join("lto").join(name.replace("::", "/"));
    Trial::test(name, move || {
        paths::fresh_dir(&dir)?;
        f(&dir).map_err(|e| Failed::from(format!("{e}\nwork directory: {}", dir.display())))
    })
}

fn trials() -> Vec<Trial> {
    let mut t = Vec::new();
    corpus_trials(&mut t);

    for lto in [Lto::Thin, Lto::Full, Lto::Native] {
        for link in [Link::Static, Link::DynamicPie] {
            let v = if lto == Lto::Native {
                "mixed"
            } else {
                lto.name()
            };
            t.push(trial(
                format!("cxx_eh_rtti::{v}::{}", link.name()),
                move |d| cxx_eh_rtti(d, lto, link),
            ));
        }
    }
    for lto in [Lto::Thin, Lto::Full] {
        for link in [Link::Static, Link::DynamicPie] {
            t.push(trial(
                format!("tls::{}::{}", lto.name(), link.name()),
                move |d| tls(d, lto, link),
            ));
            t.push(trial(
                format!("mixed::{}::{}", lto.name(), link.name()),
                move |d| mixed(d, lto, link),
            ));
        }
        for tool in [lto::LLVM_AR, tools::AR] {
            let tname = if tool == tools::AR {
                "gnu_ar"
            } else {
                "llvm_ar"
            };
            t.push(trial(
                format!("archive::{tname}::{}", lto.name()),
                move |d| archives(d, tool, lto),
            ));
        }
    }
    t.push(trial("fat_lto::default_links_native", |d| {
        fat_lto(d, false)
    }));
    t.push(trial(
        "fat_lto::gcc_fat_object_with_bitcode",
        gcc_fat_object,
    ));
    t.push(trial("fat_lto::fat_lto_objects_links_bitcode", |d| {
        fat_lto(d, true)
    }));
    t.push(trial("rust::bin_with_rlib_dependency", rust_bin_with_rlib));
    t.push(trial(
        "rust::staticlib_called_from_c",
        rust_staticlib_from_c,
    ));

    t.push(trial("options::lto_O0", |d| opt_level(d, "-Wl,--lto-O0")));
    t.push(trial("options::lto_O3", |d| opt_level(d, "-Wl,--lto-O3")));
    t.push(trial("options::plugin_opt_O1", |d| {
        opt_level(d, "-Wl,-plugin-opt=O1")
    }));
    t.push(trial("options::thinlto_jobs_deterministic", thinlto_jobs));
    t.push(trial("options::save_temps::thin", |d| {
        save_temps(d, Lto::Thin)
    }));
    t.push(trial("options::save_temps::full", |d| {
        save_temps(d, Lto::Full)
    }));
    t.push(trial("options::lto_emit_asm::thin", |d| {
        emit_asm(d, Lto::Thin)
    }));
    t.push(trial("options::lto_emit_asm::full", |d| {
        emit_asm(d, Lto::Full)
    }));
    t.push(trial("options::lto_obj_path", lto_obj_path));
    t.push(trial("options::mllvm_pass_remarks", mllvm_pass_remarks));
    t.push(trial("options::mllvm_unknown_option", mllvm_unknown_option));
    t.push(trial("options::thinlto_cache::reuse", cache_reuse));
    t.push(trial("options::thinlto_cache::prune_after", |d| {
        cache_prune(d, "prune_after=1h:prune_interval=0s", true)
    }));
    t.push(trial("options::thinlto_cache::size_files", |d| {
        cache_prune(d, "cache_size_files=1:prune_interval=0s", false)
    }));

    t.push(trial("errors::truncated_bitcode", truncated_bitcode));
    t.push(trial("errors::corrupt_bitcode", corrupt_bitcode));
    t.push(trial("errors::future_llvm_bitcode", future_llvm_bitcode));
    t.push(trial("errors::aarch64_bitcode_after_native", |d| {
        wrong_target(d, "aarch64-linux-gnu", false)
    }));
    t.push(trial("errors::aarch64_bitcode_after_bitcode", |d| {
        wrong_target(d, "aarch64-linux-gnu", true)
    }));
    t.push(trial("errors::i686_bitcode_after_bitcode", |d| {
        wrong_target(d, "i686-linux-gnu", true)
    }));
    t.push(trial("errors::no_llvm::bitcode_object", |d| {
        no_llvm_bitcode(d, false)
    }));
    t.push(trial("errors::no_llvm::bitcode_archive_member", |d| {
        no_llvm_bitcode(d, true)
    }));
    t.push(trial(
        "errors::no_llvm::fat_objects_link_natively",
        no_llvm_fat,
    ));

    t.push(trial("project::lua", lua));
    t.push(Trial::test("support::stats_and_patch_helpers", || {
        support_self_test().map_err(Failed::from)
    }));
    t
}

// ---------------------------------------------------------------------------------------------
// Small helpers

fn strs(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Compiles `files` of `testdata/lto/<group>/` (each with its own flavour) into `dir` with the
/// link mode's flags and `extra`; returns the object names, in order.
fn compile_group(
    dir: &Path,
    group: &str,
    files: &[(&str, Lto)],
    link: Link,
    extra: &[&str],
) -> Result<Vec<String>, String> {
    let mut objs = Vec::new();
    for &(src, flavour) in files {
        let obj = format!(
            "{}.{}.o",
            Path::new(src)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            flavour.name()
        );
        let mut flags: Vec<&str> = link.cflags().to_vec();
        flags.extend_from_slice(extra);
        lto::compile(dir, &lto::data(group, src), &obj, flavour, &flags)?;
        objs.push(obj);
    }
    Ok(objs)
}

/// Driver arguments: the mode's link flags, the LTO flag, then `rest`.
fn link_args(link: Link, lto: Lto, rest: &[String]) -> Vec<String> {
    let mut a = strs(link.ldflags());
    a.push(lto.flag().unwrap_or("-flto=thin").to_string());
    a.extend_from_slice(rest);
    a
}

// ---------------------------------------------------------------------------------------------
// The corpus under LTO

/// Corpus cases not run under LTO, and why.
const CORPUS_EXCLUDED: &[(&str, &str)] = &[(
    "ifunc",
    "ld.lld-22 itself crashes (SIGSEGV in llvm::computeDeadSymbolsAndUpdateIndirectCalls, \
     called from LTO::run) on this case's ifuncs, with -flto=thin and with -flto: no oracle",
)];

/// Cases whose `expected.txt` does not hold under full LTO (weld is still compared with lld).
const EXPECTED_NOT_UNDER_FULL_LTO: &[(&str, &str)] = &[(
    "init_fini_order",
    "full LTO merges the units into one module, which moves raw.c's .init_array entry among \
     the constructors of the other units (their relative order is unspecified)",
)];

fn corpus_trials(t: &mut Vec<Trial>) {
    let cases = match corpus::load_all() {
        Ok(c) => c,
        Err(e) => {
            t.push(Trial::test("corpus::load", move || Err(e.into())));
            return;
        }
    };
    for case in cases {
        for lm in lto::CORPUS_MODES {
            // Clang only; a case restricted to other compilers or modes is skipped.
            if !case.runs_in(Compiler::Clang.name(), lm.base)
                || CORPUS_EXCLUDED.iter().any(|(n, _)| *n == case.name)
            {
                continue;
            }
            let (case, lm) = (case.clone(), *lm);
            t.push(trial(
                format!("corpus::{}::{}", case.name, lm.mode.name),
                move |d| corpus_case(d, &case, &lm),
            ));
        }
    }
}

fn corpus_case(dir: &Path, case: &Case, lm: &lto::LtoMode) -> Check {
    let objs = build::objects(case, Compiler::Clang, &lm.mode)?;
    // C and C++ sources are bitcode; assembly stays native.
    let mut bitcode = 0;
    for (src, obj) in &objs.all {
        let is_asm = src.ends_with(".s") || src.ends_with(".S");
        let bc = lto::is_bitcode(obj)?;
        if bc == is_asm {
            return Err(format!(
                "{} should {}be bitcode",
                obj.display(),
                if is_asm { "not " } else { "" }
            ));
        }
        bitcode += usize::from(bc);
    }
    if bitcode == 0 {
        return Err("no bitcode in the case".into());
    }
    let mut linked = Vec::new();
    for linker in [Linker::lld()?, Linker::weld()?] {
        let out = dir.join(format!("prog.{}", linker.label));
        let link = build::link(case, &objs, Compiler::Clang, &lm.mode, &linker, &out)?;
        paths::write(
            &dir.join(format!("link.{}.txt", linker.label)),
            link.report(),
        )?;
        let l = Linked {
            label: linker.label,
            out,
            link,
        };
        lto::check_link(&l)?;
        linked.push(l);
    }
    // Only the case's generic expected.txt: files for one compiler or mode describe that
    // compiler's native code (e.g. the TLS alignment phdr_introspection prints), which LTO's code
    // generation need not reproduce.
    let generic = case.dir.join("expected.txt");
    let skip = lm.lto == Lto::Full
        && EXPECTED_NOT_UNDER_FULL_LTO
            .iter()
            .any(|(n, _)| *n == case.name);
    let stdout = if generic.is_file() && !skip {
        let text = std::fs::read_to_string(&generic)
            .map_err(|e| format!("cannot read {}: {e}", generic.display()))?;
        Some((generic, text))
    } else {
        None
    };
    let expect = Expect {
        exit: case.config.exit,
        stdout,
        args: Vec::new(),
    };
    lto::run_and_compare(dir, &linked[0], &linked[1], &expect)
}

// ---------------------------------------------------------------------------------------------
// Features

/// C++ exceptions and RTTI across units: all ThinLTO, all full LTO, or mixed (`Lto::Native`:
/// thrower.cpp native, shapes.cpp and main.cpp ThinLTO bitcode).
fn cxx_eh_rtti(dir: &Path, lto: Lto, link: Link) -> Check {
    let (thrower, rest) = match lto {
        Lto::Native => (Lto::Native, Lto::Thin),
        l => (l, l),
    };
    let objs = compile_group(
        dir,
        "cxx_eh_rtti",
        &[
            ("main.cpp", rest),
            ("shapes.cpp", rest),
            ("thrower.cpp", thrower),
        ],
        link,
        &[],
    )?;
    lto::differential(
        dir,
        true,
        &link_args(link, rest, &objs),
        &Expect::file("cxx_eh_rtti")?,
    )?;
    Ok(())
}

/// Thread-locals defined in bitcode used from native code and the other way, with threads.
fn tls(dir: &Path, lto: Lto, link: Link) -> Check {
    let objs = compile_group(
        dir,
        "tls",
        &[
            ("main.c", lto),
            ("tls_vars.c", lto),
            ("tls_native.c", Lto::Native),
        ],
        link,
        &[],
    )?;
    let mut rest = objs;
    rest.push("-pthread".into());
    lto::differential(
        dir,
        false,
        &link_args(link, lto, &rest),
        &Expect::file("tls")?,
    )?;
    Ok(())
}

/// Half native, half bitcode: calls, globals, weak/strong overrides and function pointers both
/// ways; a bitcode function referenced only from native code must survive LTO.
fn mixed(dir: &Path, lto: Lto, link: Link) -> Check {
    let objs = compile_group(
        dir,
        "mixed",
        &[
            ("main.c", lto),
            ("nat_a.c", Lto::Native),
            ("bc_a.c", lto),
            ("nat_b.c", Lto::Native),
        ],
        link,
        &[],
    )?;
    let (l, w) = lto::differential(
        dir,
        false,
        &link_args(link, lto, &objs),
        &Expect::file("mixed")?,
    )?;
    let must = [
        "bc_only_called_from_native",
        "bc_square",
        "bc_var",
        "nat_var",
    ];
    let lsyms = lto::symbols_named(&l.out, &must)?;
    if let Some((n, _)) = lsyms.iter().find(|(_, v)| v.is_none()) {
        return Err(format!(
            "the test is broken: lld's output does not define {n}"
        ));
    }
    lto::same_symbols(&w.out, &l.out, &must)
}

/// A native main linked against an archive of bitcode members (and one native member), made by
/// `tool`: the same members are extracted for the same reasons (`--why-extract`), the unused
/// member stays out, and the programs behave alike.
fn archives(dir: &Path, tool: &str, lto: Lto) -> Check {
    let link = Link::DynamicPie;
    let main = compile_group(dir, "archives", &[("main.c", Lto::Native)], link, &[])?;
    let members = compile_group(
        dir,
        "archives",
        &[
            ("ent.c", lto),
            ("chain.c", lto),
            ("natmem.c", Lto::Native),
            ("only_native.c", lto),
            ("data_only.c", lto),
            ("unused.c", lto),
        ],
        link,
        &[],
    )?;
    let refs: Vec<&str> = members.iter().map(String::as_str).collect();
    lto::archive(dir, tool, "libparts.a", &refs)?;
    let (l, w) = lto::link_both_with(dir, "prog", false, |label| {
        let mut rest = main.clone();
        rest.extend(strs(&["-L.", "-lparts"]));
        rest.push(format!("-Wl,--why-extract=why.{label}.txt"));
        link_args(link, lto, &rest)
    })?;
    lto::run_and_compare(dir, &l, &w, &Expect::file("archives")?)?;
    let names = [
        "main",
        "lib_entry",
        "chain_next",
        "native_member_fn",
        "from_native_only",
        "lib_table",
        "never_called",
        "unused_marker",
    ];
    let lsyms = lto::symbols_named(&l.out, &names)?;
    for n in ["never_called", "unused_marker"] {
        if lsyms[n].is_some() {
            return Err(format!(
                "the test is broken: lld linked the unused member ({n})"
            ));
        }
    }
    if lsyms["from_native_only"].is_none() {
        return Err("the test is broken: lld's output lacks from_native_only".into());
    }
    let mut problems = Vec::new();
    if let Err(e) = lto::same_symbols(&w.out, &l.out, &names) {
        problems.push(e);
    }
    let lw = String::from_utf8_lossy(&lto::read(&dir.join("why.lld.txt"))?).into_owned();
    let ww = String::from_utf8_lossy(&lto::read(&dir.join("why.weld.txt"))?).into_owned();
    if !lw.contains("libparts.a(ent.") {
        return Err(format!("the test is broken: lld's --why-extract:\n{lw}"));
    }
    if lw != ww {
        problems.push(format!(
            "--why-extract differs: {}",
            text_diff("weld", &ww, "lld", &lw)
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Fat LTO objects (`-ffat-lto-objects -flto=thin`): by default the native code is linked and no
/// LTO runs; with `-Wl,--fat-lto-objects` the bitcode is linked. Function sizes tell which code
/// went in, and must match lld's.
/// A GCC fat LTO object (`gcc -flto -ffat-lto-objects`: GIMPLE in `.gnu.lto_*` sections next
/// to machine code) linked with clang bitcode: its machine code links as a regular object, as
/// in lld (only slim GCC LTO objects are refused, see tests/errors.rs).
fn gcc_fat_object(dir: &Path) -> Check {
    let link = Link::DynamicPie;
    let main = compile_group(dir, "fat", &[("main.c", Lto::Thin)], link, &[])?;
    let mut gcc = Command::new(tools::find(tools::GCC)?);
    gcc.current_dir(dir)
        .args(link.cflags())
        .args([
            "-c",
            "-O1",
            "-flto",
            "-ffat-lto-objects",
            "-o",
            "helper.gcc.o",
        ])
        .arg(lto::data("fat", "helper.c"));
    run::run(&mut gcc, run::TOOL_TIMEOUT)?.ok("gcc -flto -ffat-lto-objects -c")?;
    let secs = weld_tests::elf::section_names(&dir.join("helper.gcc.o"))?;
    if !secs.iter().any(|s| s.starts_with(".gnu.lto_")) || !secs.iter().any(|s| s == ".text") {
        return Err(format!(
            "helper.gcc.o is not a GCC fat LTO object: sections {secs:?}"
        ));
    }
    let mut rest = main;
    rest.push("helper.gcc.o".into());
    let args = link_args(link, Lto::Thin, &rest);
    let (l, w) = lto::link_both_extra(dir, "prog", false, &args, &[])?;
    lto::run_and_compare(dir, &l, &w, &Expect::file("fat")?)
}

fn fat_lto(dir: &Path, use_bitcode: bool) -> Check {
    let link = Link::DynamicPie;
    let objs = compile_group(
        dir,
        "fat",
        &[("main.c", Lto::Thin), ("helper.c", Lto::Thin)],
        link,
        &["-ffat-lto-objects"],
    )?;
    for o in &objs {
        let secs = weld_tests::elf::section_names(&dir.join(o))?;
        if !secs.iter().any(|s| s == ".llvm.lto") || !secs.iter().any(|s| s == ".text") {
            return Err(format!("{o} is not a fat LTO object: sections {secs:?}"));
        }
    }
    let mut rest = objs.clone();
    if use_bitcode {
        rest.push("-Wl,--fat-lto-objects".into());
    }
    let args = link_args(link, Lto::Thin, &rest);
    let (l, w) = lto::link_both_extra(dir, "prog", false, &args, &strs(&["-Wl,--stats"]))?;
    lto::run_and_compare(dir, &l, &w, &Expect::file("fat")?)?;
    let names = ["main", "fat_helper", "fat_data"];
    // The oracle: lld's outputs with and without the flag must differ, or sizes prove nothing.
    let mut other = objs.clone();
    if !use_bitcode {
        other.push("-Wl,--fat-lto-objects".into());
    }
    let lld = Linker::lld()?;
    let other_out = dir.join("other.lld");
    let other_args = link_args(link, Lto::Thin, &other);
    let lo = lto::link_with(
        "lld",
        lto::driver_command(dir, &lld, false, &other_args, &other_out)?,
        &other_out,
    )?;
    if lto::symbols_named(&lo.out, &names)? == lto::symbols_named(&l.out, &names)? {
        return Err(
            "the test is broken: lld's outputs with and without --fat-lto-objects have the same \
             function sizes"
                .into(),
        );
    }
    let mut problems = Vec::new();
    if let Err(e) = lto::same_symbols(&w.out, &l.out, &names) {
        problems.push(format!(
            "weld linked other code than lld did ({}):\n{e}",
            if use_bitcode {
                "the bitcode"
            } else {
                "the native code"
            }
        ));
    }
    let stats = lto::lto_stats(&w.link.stderr_str())?;
    match (use_bitcode, stats) {
        (false, None) => {}
        (false, Some(s)) => problems.push(format!(
            "without --fat-lto-objects weld ran LTO anyway: {s:?}"
        )),
        (true, Some(s)) if s.modules == objs.len() => {}
        (true, s) => problems.push(format!(
            "with --fat-lto-objects weld's --stats should report {} LTO modules, got {s:?}",
            objs.len()
        )),
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{}", problems.join("\n"), w.link.report()))
    }
}

// ---------------------------------------------------------------------------------------------
// Rust with -C linker-plugin-lto

fn rustc(dir: &Path, args: &[String]) -> Result<run::Output, String> {
    let mut cmd = Command::new(tools::find(lto::RUSTC)?);
    cmd.current_dir(dir)
        .args(args)
        .env_remove("RUSTFLAGS")
        .env_remove("RUST_BACKTRACE");
    run::run(&mut cmd, run::TOOL_TIMEOUT)
}

/// rustc's LLVM must be one LLVM 22 reads: the same major version or older.
fn check_rustc_llvm() -> Check {
    let mut cmd = Command::new(tools::find(lto::RUSTC)?);
    cmd.arg("-vV");
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("rustc -vV")?;
    let text = out.stdout_str();
    let v = text
        .lines()
        .find_map(|l| l.strip_prefix("LLVM version: "))
        .ok_or_else(|| format!("rustc -vV names no LLVM version:\n{text}"))?;
    let major: u32 = v
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .ok_or_else(|| format!("bad LLVM version `{v}`"))?;
    if major > 22 {
        return Err(format!(
            "rustc uses LLVM {v}: its bitcode is newer than LLVM 22 reads; these tests need a \
             rustc on LLVM 22 or older"
        ));
    }
    Ok(())
}

/// The archive members of `lib` that are bitcode (extracted into `dir/<lib>.members/`).
fn bitcode_members(dir: &Path, lib: &str) -> Result<Vec<String>, String> {
    let x = dir.join(format!("{lib}.members"));
    paths::fresh_dir(&x)?;
    let mut cmd = Command::new(tools::find(lto::LLVM_AR)?);
    cmd.current_dir(&x).arg("x").arg(dir.join(lib));
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-ar-22 x")?;
    let mut bc = Vec::new();
    for n in lto::listing(&x)? {
        if lto::is_bitcode(&x.join(&n))? {
            bc.push(n);
        }
    }
    Ok(bc)
}

/// A Rust binary and its rlib dependency, both compiled to bitcode, linked by rustc through
/// clang-22 with ThinLTO (`-C linker-plugin-lto -C linker=clang-22 -C link-arg=-fuse-ld=lld
/// -C link-arg=--ld-path=<linker> -C link-arg=-flto=thin`); std stays native.
fn rust_bin_with_rlib(dir: &Path) -> Check {
    check_rustc_llvm()?;
    let src = lto::data_dir().join("rust");
    let common = strs(&["--edition", "2021", "-O", "-C", "linker-plugin-lto"]);
    let mut a = common.clone();
    a.extend(strs(&["--crate-type", "rlib", "--crate-name", "shapes"]));
    a.push(src.join("shapes.rs").display().to_string());
    a.extend(strs(&["-o", "libshapes.rlib"]));
    rustc(dir, &a)?.ok("rustc (rlib)")?;
    if bitcode_members(dir, "libshapes.rlib")?.is_empty() {
        return Err("libshapes.rlib has no bitcode member".into());
    }
    let mut linked = Vec::new();
    for linker in [Linker::lld()?, Linker::weld()?] {
        let objdir = dir.join(format!("lto-objs.{}", linker.label));
        paths::fresh_dir(&objdir)?;
        let out = dir.join(format!("prog.{}", linker.label));
        let mut a = common.clone();
        a.push(src.join("main.rs").display().to_string());
        a.extend(strs(&["--extern", "shapes=libshapes.rlib", "-L", "."]));
        for arg in [
            "linker=clang-22".to_string(),
            "link-arg=-fuse-ld=lld".to_string(),
            format!("link-arg=--ld-path={}", linker.path.display()),
            "link-arg=-flto=thin".to_string(),
            format!("link-arg=-Wl,--lto-obj-path={}/lto.o", objdir.display()),
        ] {
            a.push("-C".into());
            a.push(arg);
        }
        a.push("-o".into());
        a.push(out.display().to_string());
        let _ = std::fs::remove_file(&out);
        let link = rustc(dir, &a)?;
        let l = Linked {
            label: linker.label,
            out,
            link,
        };
        lto::check_link(&l)?;
        linked.push((l, objdir));
    }
    let (l, lobj) = &linked[0];
    let (w, wobj) = &linked[1];
    lto::run_and_compare(dir, l, w, &Expect::file_named("rust", "expected.bin.txt")?)?;
    // LTO ran in both links, with the same tasks (--lto-obj-path writes one file per task).
    let (ll, wl) = (lto::listing(lobj)?, lto::listing(wobj)?);
    if ll.is_empty() {
        return Err("the test is broken: lld wrote no --lto-obj-path files".into());
    }
    if ll != wl {
        return Err(format!(
            "--lto-obj-path files differ:\n  weld: {wl:?}\n  lld:  {ll:?}"
        ));
    }
    Ok(())
}

/// A Rust staticlib compiled to bitcode, called from C bitcode and calling back into C: one
/// ThinLTO link across both languages.
fn rust_staticlib_from_c(dir: &Path) -> Check {
    check_rustc_llvm()?;
    let src = lto::data_dir().join("rust");
    let mut a = strs(&[
        "--edition",
        "2021",
        "-O",
        "-C",
        "linker-plugin-lto",
        "--crate-type",
        "staticlib",
        "--crate-name",
        "ffi",
    ]);
    a.push(src.join("ffi.rs").display().to_string());
    a.extend(strs(&["-o", "libffi.a", "--print", "native-static-libs"]));
    let out = rustc(dir, &a)?.ok("rustc (staticlib)")?;
    let native_libs: Vec<String> = out
        .stderr_str()
        .lines()
        .find_map(|l| {
            l.split_once("native-static-libs: ")
                .map(|(_, r)| r.to_string())
        })
        .ok_or_else(|| format!("rustc printed no native-static-libs\n{}", out.report()))?
        .split_whitespace()
        .map(String::from)
        .collect();
    let bc = bitcode_members(dir, "libffi.a")?;
    if bc.is_empty() {
        return Err("libffi.a has no bitcode member".into());
    }
    let objs = compile_group(
        dir,
        "rust",
        &[("cmain.c", Lto::Thin)],
        Link::DynamicPie,
        &[],
    )?;
    let mut rest = objs;
    rest.push("libffi.a".into());
    rest.extend(native_libs);
    let args = link_args(Link::DynamicPie, Lto::Thin, &rest);
    let (l, w) = lto::link_both_extra(dir, "prog", false, &args, &strs(&["-Wl,--stats"]))?;
    lto::run_and_compare(dir, &l, &w, &Expect::file_named("rust", "expected.c.txt")?)?;
    match lto::lto_stats(&w.link.stderr_str())? {
        Some(s) if s.modules >= 2 => Ok(()),
        s => Err(format!(
            "weld's --stats should show the C and the Rust bitcode in LTO, got {s:?}\n{}",
            w.link.report()
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// Options

/// The three-file ThinLTO program of `testdata/lto/options`, compiled -fPIE.
fn options_program(dir: &Path) -> Result<Vec<String>, String> {
    compile_group(
        dir,
        "options",
        &[
            ("main.c", Lto::Thin),
            ("stats.c", Lto::Thin),
            ("table.c", Lto::Thin),
        ],
        Link::DynamicPie,
        &[],
    )
}

const OPTIONS_FUNCS: &[&str] = &[
    "main",
    "stats_add",
    "stats_mean",
    "checksum",
    "table_value",
    "table_bytes",
    "table_size",
];

/// An LTO optimisation level option: weld's output behaves like lld's, has the same functions with
/// the same sizes, and differs from the default link exactly when lld's does.
fn opt_level(dir: &Path, option: &str) -> Check {
    let objs = options_program(dir)?;
    let base = link_args(Link::DynamicPie, Lto::Thin, &objs);
    let mut with = base.clone();
    with.push(option.to_string());
    let (l, w) = lto::differential(dir, false, &with, &Expect::file("options")?)?;
    let (ld, wd) = lto::link_both(dir, "default", false, &base)?;
    let mut problems = Vec::new();
    if let Err(e) = lto::same_symbols(&w.out, &l.out, OPTIONS_FUNCS) {
        problems.push(format!("with {option}: {e}"));
    }
    let lld_changed = lto::read(&l.out)? != lto::read(&ld.out)?;
    let weld_changed = lto::read(&w.out)? != lto::read(&wd.out)?;
    if lld_changed != weld_changed {
        problems.push(format!(
            "{option} {} lld's output but {} weld's",
            if lld_changed {
                "changes"
            } else {
                "does not change"
            },
            if weld_changed {
                "changes"
            } else {
                "does not change"
            }
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// `--thinlto-jobs=1` and `=2` give byte-identical outputs (ThinLTO with two backends).
fn thinlto_jobs(dir: &Path) -> Check {
    let objs = options_program(dir)?;
    let weld = Linker::weld()?;
    let mut outs = Vec::new();
    for jobs in [1, 2] {
        let out = dir.join(format!("prog.jobs{jobs}"));
        let mut a = link_args(Link::DynamicPie, Lto::Thin, &objs);
        a.push(format!("-Wl,--thinlto-jobs={jobs}"));
        let l = lto::link_with(
            "weld",
            lto::driver_command(dir, &weld, false, &a, &out)?,
            &out,
        )?;
        let ran = lto::run_program(dir, &l.out, &[])?;
        if !ran.success() {
            return Err(format!(
                "the program linked with --thinlto-jobs={jobs} failed\n{}",
                ran.report()
            ));
        }
        outs.push((jobs, out.clone(), lto::read(&out)?));
    }
    if outs[0].2 != outs[1].2 {
        let first = outs[0]
            .2
            .iter()
            .zip(outs[1].2.iter())
            .position(|(a, b)| a != b);
        return Err(format!(
            "--thinlto-jobs=1 and =2 give different outputs ({} and {} bytes, first difference at \
             {first:?})\n  {}\n  {}",
            outs[0].2.len(),
            outs[1].2.len(),
            outs[0].1.display(),
            outs[1].1.display()
        ));
    }
    Ok(())
}

/// Links `objs` (in `dir`) with `linker` in a directory of its own, `dir/<label>/`, holding copies
/// of the objects, so that files the link writes next to its inputs or output can be compared.
fn link_in_own_dir(
    dir: &Path,
    linker: &Linker,
    objs: &[String],
    lto: Lto,
    extra: &[String],
) -> Result<(PathBuf, Linked), String> {
    let own = dir.join(linker.label);
    paths::fresh_dir(&own)?;
    let files: Vec<PathBuf> = objs.iter().map(|o| dir.join(o)).collect();
    lto::copy_into(&own, &files)?;
    let mut a = link_args(Link::DynamicPie, lto, objs);
    a.extend_from_slice(extra);
    let out = own.join("prog");
    let mut cmd = lto::driver_command(&own, linker, false, &a, &out)?;
    let _ = std::fs::remove_file(&out);
    let link = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    Ok((
        own,
        Linked {
            label: linker.label,
            out,
            link,
        },
    ))
}

/// The options program compiled with `lto` (ThinLTO or full).
fn options_program_as(dir: &Path, lto: Lto) -> Result<Vec<String>, String> {
    compile_group(
        dir,
        "options",
        &[("main.c", lto), ("stats.c", lto), ("table.c", lto)],
        Link::DynamicPie,
        &[],
    )
}

/// `--save-temps` leaves the same files as lld's (same names, next to the inputs and the output).
fn save_temps(dir: &Path, lto: Lto) -> Check {
    let objs = options_program_as(dir, lto)?;
    let extra = strs(&["-Wl,--save-temps"]);
    let (ldir, l) = link_in_own_dir(dir, &Linker::lld()?, &objs, lto, &extra)?;
    lto::check_link(&l)?;
    let (wdir, w) = link_in_own_dir(dir, &Linker::weld()?, &objs, lto, &extra)?;
    lto::check_link(&w)?;
    let (ll, wl) = (lto::listing(&ldir)?, lto::listing(&wdir)?);
    if ll.len() <= objs.len() + 1 {
        return Err(format!(
            "the test is broken: lld left no temporary files: {ll:?}"
        ));
    }
    if ll != wl {
        let only_l: Vec<&String> = ll.difference(&wl).collect();
        let only_w: Vec<&String> = wl.difference(&ll).collect();
        return Err(format!(
            "--save-temps files differ from lld's\n  only lld's: {only_l:?}\n  only weld's: {only_w:?}"
        ));
    }
    Ok(())
}

/// `--lto-emit-asm` writes assembly files with lld's names and contents, and no program.
fn emit_asm(dir: &Path, lto: Lto) -> Check {
    let objs = options_program_as(dir, lto)?;
    let extra = strs(&["-Wl,--lto-emit-asm"]);
    let (ldir, l) = link_in_own_dir(dir, &Linker::lld()?, &objs, lto, &extra)?;
    if !l.link.success() {
        return Err(format!(
            "the test is broken: lld failed\n{}",
            l.link.report()
        ));
    }
    let (wdir, w) = link_in_own_dir(dir, &Linker::weld()?, &objs, lto, &extra)?;
    if !w.link.success() {
        return Err(format!("weld's link failed\n{}", w.link.report()));
    }
    let (ll, wl) = (lto::listing(&ldir)?, lto::listing(&wdir)?);
    let asm: Vec<&String> = ll.iter().filter(|n| !objs.contains(n)).collect();
    if asm.is_empty() {
        return Err(format!("the test is broken: lld wrote no assembly: {ll:?}"));
    }
    if ll != wl {
        let only_l: Vec<&String> = ll.difference(&wl).collect();
        let only_w: Vec<&String> = wl.difference(&ll).collect();
        return Err(format!(
            "--lto-emit-asm files differ from lld's\n  only lld's: {only_l:?}\n  only weld's: {only_w:?}"
        ));
    }
    for n in asm {
        let (lt, wt) = (lto::read(&ldir.join(n))?, lto::read(&wdir.join(n))?);
        let lt = String::from_utf8_lossy(&lt).into_owned();
        if !lt.contains(".text") {
            return Err(format!("the test is broken: lld's {n} is not assembly"));
        }
        let wt = String::from_utf8_lossy(&wt).into_owned();
        if lt != wt {
            return Err(format!(
                "{n} differs: {}",
                text_diff("weld", &wt, "lld", &lt)
            ));
        }
    }
    Ok(())
}

/// `--lto-obj-path=` writes lld's files with lld's bytes, and the program is still linked.
fn lto_obj_path(dir: &Path) -> Check {
    let objs = options_program(dir)?;
    let mut results = Vec::new();
    for linker in [Linker::lld()?, Linker::weld()?] {
        let objdir = dir.join(format!("objs.{}", linker.label));
        paths::fresh_dir(&objdir)?;
        let extra = vec![format!("-Wl,--lto-obj-path={}/lto.o", objdir.display())];
        let (_, l) = link_in_own_dir(dir, &linker, &objs, Lto::Thin, &extra)?;
        lto::check_link(&l)?;
        results.push((l, objdir));
    }
    let (l, lobj) = &results[0];
    let (w, wobj) = &results[1];
    lto::run_and_compare(dir, l, w, &Expect::file("options")?)?;
    let (ll, wl) = (lto::listing(lobj)?, lto::listing(wobj)?);
    if ll.len() < 2 {
        return Err(format!("the test is broken: lld wrote {ll:?}"));
    }
    if ll != wl {
        return Err(format!(
            "--lto-obj-path files differ:\n  weld: {wl:?}\n  lld:  {ll:?}"
        ));
    }
    for n in &ll {
        if lto::read(&lobj.join(n))? != lto::read(&wobj.join(n))? {
            return Err(format!(
                "{n} differs from lld's: LTO was not configured as lld configures it"
            ));
        }
    }
    Ok(())
}

/// `-mllvm -pass-remarks=inline` reaches LLVM: weld prints the same inlining remarks as lld.
fn mllvm_pass_remarks(dir: &Path) -> Check {
    let objs = options_program(dir)?;
    let mut a = link_args(Link::DynamicPie, Lto::Thin, &objs);
    a.extend(strs(&[
        "-Wl,-mllvm,-pass-remarks=inline",
        "-Wl,--thinlto-jobs=1",
    ]));
    let (l, w) = lto::differential(dir, false, &a, &Expect::file("options")?)?;
    // LLVM prints remarks on stdout or stderr, depending on the diagnostic handler.
    let remarks = |o: &run::Output| -> Vec<String> {
        let text = format!("{}\n{}", o.stdout_str(), o.stderr_str());
        let mut v: Vec<String> = text
            .lines()
            .filter(|l| l.contains("inlined into"))
            .map(String::from)
            .collect();
        v.sort();
        v
    };
    let (lr, wr) = (remarks(&l.link), remarks(&w.link));
    if lr.is_empty() {
        return Err(format!(
            "the test is broken: lld printed no remarks\n{}",
            l.link.report()
        ));
    }
    if lr != wr {
        return Err(format!(
            "inlining remarks differ: {}",
            text_diff("weld", &wr.join("\n"), "lld", &lr.join("\n"))
        ));
    }
    Ok(())
}

/// An unknown `-mllvm` option is an error naming it, like lld's.
fn mllvm_unknown_option(dir: &Path) -> Check {
    let objs = options_program(dir)?;
    let mut a = strs(&["-mllvm", "-no-such-llvm-option"]);
    a.extend(objs);
    let lld = lto::run_linker(dir, &tools::lld()?, &a, "out.lld")?;
    let want = "Unknown command line argument '-no-such-llvm-option'";
    if lld.code != Some(1) || !lld.stderr_str().contains(want) {
        return Err(format!("the oracle changed:\n{}", lld.report()));
    }
    let before = lto::listing(dir)?;
    let weld = lto::run_linker(dir, &tools::weld()?, &a, "out.weld")?;
    lto::failed_cleanly(dir, &weld, "out.weld", &before)?;
    let first = lto::first_error_line(&weld.stderr_str()).unwrap_or_default();
    if !first.contains("-mllvm") || !first.contains(want) {
        return Err(format!(
            "weld's first error line should name -mllvm and say `{want}`, like lld's \
             ({}):\n  {first}",
            lto::first_error_line(&lld.stderr_str()).unwrap_or_default()
        ));
    }
    Ok(())
}

/// `--thinlto-cache-dir`: the second, unchanged link takes every object from the cache (weld's
/// `--stats`), and the cache holds the same entries as lld's.
fn cache_reuse(dir: &Path) -> Check {
    let objs = options_program(dir)?;
    let weld = Linker::weld()?;
    let mut seen = Vec::new();
    for round in 1..=2 {
        let out = dir.join(format!("prog.weld{round}"));
        let mut a = link_args(Link::DynamicPie, Lto::Thin, &objs);
        a.extend(strs(&["-Wl,--thinlto-cache-dir=cache.weld", "-Wl,--stats"]));
        let l = lto::link_with(
            "weld",
            lto::driver_command(dir, &weld, false, &a, &out)?,
            &out,
        )?;
        let stats = lto::lto_stats(&l.link.stderr_str())?
            .ok_or_else(|| format!("weld reported no LTO in --stats\n{}", l.link.report()))?;
        seen.push((stats, lto::read(&out)?, l.link.report()));
    }
    let (s1, b1, r1) = &seen[0];
    let (s2, b2, r2) = &seen[1];
    let mut problems = Vec::new();
    if s1.objects == 0 || s1.from_cache != 0 {
        problems.push(format!(
            "first link: expected N > 0 objects, none from the cache: {s1:?}\n{r1}"
        ));
    }
    if s2.objects != s1.objects || s2.from_cache != s2.objects {
        problems.push(format!(
            "second link: expected all {} objects from the cache: {s2:?}\n{r2}",
            s1.objects
        ));
    }
    if b1 != b2 {
        problems.push("the cached relink gave a different output".into());
    }
    // lld's cache after one link.
    let lld = Linker::lld()?;
    let out = dir.join("prog.lld");
    let mut a = link_args(Link::DynamicPie, Lto::Thin, &objs);
    a.push("-Wl,--thinlto-cache-dir=cache.lld".into());
    lto::link_with(
        "lld",
        lto::driver_command(dir, &lld, false, &a, &out)?,
        &out,
    )?;
    let (lc, wc) = (
        lto::listing(&dir.join("cache.lld"))?,
        lto::listing(&dir.join("cache.weld"))?,
    );
    if lc.iter().filter(|n| n.starts_with("llvmcache-")).count() == 0 {
        return Err(format!("the test is broken: lld's cache is {lc:?}"));
    }
    if lc != wc {
        problems.push(format!(
            "cache entries differ from lld's:\n  weld: {wc:?}\n  lld:  {lc:?}"
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// `--thinlto-cache-policy`: the cache is pruned as lld prunes it. The cache starts with an old
/// stale entry and an old unrelated file. With `exact`, the same entries must survive; otherwise
/// (a size limit, where LLVM picks among entries of equal age) the same number of them.
fn cache_prune(dir: &Path, policy: &str, exact: bool) -> Check {
    let objs = options_program(dir)?;
    let mut listings = Vec::new();
    for linker in [Linker::lld()?, Linker::weld()?] {
        let cache = dir.join(format!("cache.{}", linker.label));
        paths::fresh_dir(&cache)?;
        for name in [
            "llvmcache-0123456789ABCDEF0123456789ABCDEF01234567",
            "unrelated.txt",
        ] {
            paths::write(&cache.join(name), "stale\n")?;
            let mut touch = Command::new("touch");
            touch.args(["-d", "3 hours ago"]).arg(cache.join(name));
            run::run(&mut touch, run::TOOL_TIMEOUT)?.ok("touch -d")?;
        }
        let out = dir.join(format!("prog.{}", linker.label));
        let mut a = link_args(Link::DynamicPie, Lto::Thin, &objs);
        a.push(format!("-Wl,--thinlto-cache-dir={}", cache.display()));
        a.push(format!("-Wl,--thinlto-cache-policy={policy}"));
        let l = lto::link_with(
            linker.label,
            lto::driver_command(dir, &linker, false, &a, &out)?,
            &out,
        )?;
        let warnings: Vec<String> = l
            .link
            .stderr_str()
            .lines()
            .filter(|l| l.contains("warning:"))
            .map(|l| {
                l.split_once("warning:")
                    .map(|x| x.1)
                    .unwrap_or(l)
                    .to_string()
            })
            .collect();
        listings.push((lto::listing(&cache)?, warnings));
    }
    let (lc, lw) = &listings[0];
    let (wc, ww) = &listings[1];
    if lc.contains("llvmcache-0123456789ABCDEF0123456789ABCDEF01234567") {
        return Err(format!("the test is broken: lld did not prune: {lc:?}"));
    }
    let mut problems = Vec::new();
    let shape = |c: &std::collections::BTreeSet<String>| {
        let entries = c.iter().filter(|n| n.starts_with("llvmcache-")).count();
        let others: Vec<String> = c
            .iter()
            .filter(|n| !n.starts_with("llvmcache-"))
            .cloned()
            .collect();
        (entries, others)
    };
    if if exact {
        lc != wc
    } else {
        shape(lc) != shape(wc)
    } {
        problems.push(format!(
            "the pruned cache differs from lld's:\n  weld: {wc:?}\n  lld:  {lc:?}"
        ));
    }
    if lw != ww {
        problems.push(format!(
            "pruning warnings differ:\n  weld: {ww:?}\n  lld:  {lw:?}"
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

// ---------------------------------------------------------------------------------------------
// Errors

const MAIN_C: &str = "int helper(int);\nint main(void) { return helper(3) - 9; }\n";
const HELPER_C: &str = "int helper(int x) { return x * 3; }\n";

/// Writes and compiles `name.c` in `dir` (`-O1 -fno-pie`, plus `flags`).
fn compile_text(
    dir: &Path,
    name: &str,
    text: &str,
    lto: Lto,
    flags: &[&str],
) -> Result<String, String> {
    paths::write(&dir.join(format!("{name}.c")), text)?;
    let mut f = vec!["-fno-pie"];
    f.extend_from_slice(flags);
    lto::compile(
        dir,
        Path::new(&format!("{name}.c")),
        &format!("{name}.o"),
        lto,
        &f,
    )?;
    Ok(format!("{name}.o"))
}

/// Runs lld then weld directly on `args`; weld must fail cleanly. Returns (lld, weld) outputs.
fn fail_both(dir: &Path, args: &[String]) -> Result<(run::Output, run::Output), String> {
    let lld = lto::run_linker(dir, &tools::lld()?, args, "out.lld")?;
    if lld.code != Some(1) {
        return Err(format!(
            "the oracle changed: lld did not fail\n{}",
            lld.report()
        ));
    }
    let before = lto::listing(dir)?;
    let weld = lto::run_linker(dir, &tools::weld()?, args, "out.weld")?;
    lto::failed_cleanly(dir, &weld, "out.weld", &before)?;
    Ok((lld, weld))
}

/// weld's first error line must be lld's (with the program name replaced).
fn same_first_error(lld: &run::Output, weld: &run::Output) -> Check {
    let want = lto::first_error_line(&lto::lld_as_weld(&lld.stderr_str(), &tools::weld()?)?)
        .ok_or_else(|| format!("the oracle changed: no error line\n{}", lld.report()))?;
    let got = lto::first_error_line(&weld.stderr_str());
    if got.as_deref() == Some(want.as_str()) {
        Ok(())
    } else {
        Err(format!(
            "first error line differs from lld's\n  weld: {}\n  want: {want}\n{}",
            got.as_deref().unwrap_or("<no error line>"),
            weld.report()
        ))
    }
}

fn truncated_bitcode(dir: &Path) -> Check {
    let main = compile_text(dir, "main", MAIN_C, Lto::Thin, &[])?;
    let helper = compile_text(dir, "helper", HELPER_C, Lto::Thin, &[])?;
    let bytes = lto::read(&dir.join(&helper))?;
    paths::write(&dir.join("trunc.o"), &bytes[..bytes.len() / 3])?;
    let (lld, weld) = fail_both(dir, &[main, "trunc.o".into()])?;
    if !lld.stderr_str().contains("trunc.o: ") {
        return Err(format!("the oracle changed:\n{}", lld.report()));
    }
    same_first_error(&lld, &weld)
}

fn corrupt_bitcode(dir: &Path) -> Check {
    let main = compile_text(dir, "main", MAIN_C, Lto::Thin, &[])?;
    let helper = compile_text(dir, "helper", HELPER_C, Lto::Thin, &[])?;
    let mut bytes = lto::read(&dir.join(&helper))?;
    // Past the identification block and the module header: flip bits in the module's records.
    for b in bytes.iter_mut().skip(200).step_by(7) {
        *b ^= 0x5a;
    }
    paths::write(&dir.join("corrupt.o"), &bytes)?;
    let (lld, weld) = fail_both(dir, &[main, "corrupt.o".into()])?;
    if !lld.stderr_str().contains("corrupt.o: ") {
        return Err(format!("the oracle changed:\n{}", lld.report()));
    }
    same_first_error(&lld, &weld)
}

/// A bitcode file whose identification block says it comes from an LLVM with another bitcode
/// epoch ("LLVM99.9.9", epoch 1): LLVM 22 refuses it. lld's message does not name the file;
/// weld's must, and must give LLVM's reason.
fn future_llvm_bitcode(dir: &Path) -> Check {
    let main = compile_text(dir, "main", MAIN_C, Lto::Thin, &[])?;
    let helper = compile_text(dir, "helper", HELPER_C, Lto::Thin, &[])?;
    let bytes = lto::read(&dir.join(&helper))?;
    let patched = lto::patch_identification(&bytes, 1, |old| {
        old.chars()
            .map(|c| if c.is_ascii_digit() { '9' } else { c })
            .collect()
    })?;
    paths::write(&dir.join("future.o"), &patched)?;
    // The patch did what it says.
    let mut cmd = Command::new(tools::find(lto::BCANALYZER)?);
    cmd.arg("-dump").arg(dir.join("future.o"));
    let dump = run::run(&mut cmd, run::TOOL_TIMEOUT)?.stdout_str();
    let head: String = dump.lines().take(4).collect::<Vec<_>>().join("\n");
    if !head.contains("record string = 'LLVM99.9.9'")
        || !head
            .lines()
            .any(|l| l.contains("<EPOCH") && l.contains("op0=1/>"))
    {
        return Err(format!(
            "the patch did not take: llvm-bcanalyzer-22 -dump says\n{head}"
        ));
    }
    let (lld, weld) = fail_both(dir, &[main, "future.o".into()])?;
    let reason = "Incompatible epoch: Bitcode '1' vs current: '0'";
    if !lld.stderr_str().contains(reason) {
        return Err(format!("the oracle changed:\n{}", lld.report()));
    }
    let first = lto::first_error_line(&weld.stderr_str()).unwrap_or_default();
    if first.contains("future.o") && first.contains(reason) {
        Ok(())
    } else {
        Err(format!(
            "weld's first error line should name future.o and give LLVM's reason `{reason}`:\n  \
             {first}\n{}",
            weld.report()
        ))
    }
}

/// Bitcode for another target after a native x86-64 object or x86-64 bitcode: lld's
/// "X is incompatible with Y" before any LTO runs.
fn wrong_target(dir: &Path, triple: &str, after_bitcode: bool) -> Check {
    let first_lto = if after_bitcode {
        Lto::Thin
    } else {
        Lto::Native
    };
    let main = compile_text(dir, "main", MAIN_C, first_lto, &[])?;
    let target = format!("--target={triple}");
    let other = compile_text(dir, "other", HELPER_C, Lto::Thin, &[&target])?;
    let (lld, weld) = fail_both(dir, &[main, other])?;
    if !lld
        .stderr_str()
        .contains("other.o is incompatible with main.o")
    {
        return Err(format!("the oracle changed:\n{}", lld.report()));
    }
    same_first_error(&lld, &weld)
}

/// weld built without LLVM: bitcode (an object, or an archive member) is refused with a message
/// saying so and naming the file once.
fn no_llvm_bitcode(dir: &Path, in_archive: bool) -> Check {
    let weld = external::weld_without_llvm()?;
    let main = compile_text(dir, "main", MAIN_C, Lto::Native, &[])?;
    let helper = compile_text(dir, "helper", HELPER_C, Lto::Thin, &[])?;
    let (args, name) = if in_archive {
        lto::archive(dir, lto::LLVM_AR, "libhelper.a", &[&helper])?;
        (
            vec![main, "libhelper.a".to_string()],
            "libhelper.a(helper.o)",
        )
    } else {
        (vec![main, helper], "helper.o")
    };
    let before = lto::listing(dir)?;
    let out = lto::run_linker(dir, &weld, &args, "out.weld")?;
    lto::failed_cleanly(dir, &out, "out.weld", &before)?;
    let first = lto::first_error_line(&out.stderr_str()).unwrap_or_default();
    let named = first.matches(name).count();
    if first.contains("without LLVM") && named == 1 {
        Ok(())
    } else {
        Err(format!(
            "the error should say weld was built without LLVM and name {name} once:\n  {first}\n{}",
            out.report()
        ))
    }
}

/// weld built without LLVM still links fat LTO objects (their native code) and the program works.
fn no_llvm_fat(dir: &Path) -> Check {
    let weld = Linker {
        label: "weld",
        path: external::weld_without_llvm()?,
    };
    let objs = compile_group(
        dir,
        "fat",
        &[("main.c", Lto::Thin), ("helper.c", Lto::Thin)],
        Link::DynamicPie,
        &["-ffat-lto-objects"],
    )?;
    let out = dir.join("prog.weld");
    let args = link_args(Link::DynamicPie, Lto::Thin, &objs);
    let l = lto::link_with(
        "weld",
        lto::driver_command(dir, &weld, false, &args, &out)?,
        &out,
    )?;
    let ran = lto::run_program(dir, &l.out, &[])?;
    let (p, want) = Expect::file("fat")?.stdout.unwrap_or_default();
    if ran.success() && ran.stdout_str() == want {
        Ok(())
    } else {
        Err(format!(
            "the program should print {}:\n{}",
            p.display(),
            ran.report()
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// A real project: Lua

const LUA_CRATE: (&str, &str) = ("lua-src", "551.1.0");
const LUA_DIR: &str = "lua-5.4.9";

/// Lua 5.4 from crates.io's lua-src: the library's 32 C files compiled with `-flto=thin` into a
/// bitcode archive (llvm-ar), a driver (bitcode) linked against it, a script run by both programs.
fn lua(dir: &Path) -> Check {
    let crate_dir = external::crate_sources(LUA_CRATE.0, LUA_CRATE.1)?;
    let src = crate_dir.join(LUA_DIR);
    let mut lib_srcs: Vec<String> = lto::listing(&src)?
        .into_iter()
        .filter(|n| n.ends_with(".c") && n != "lua.c" && n != "luac.c")
        .collect();
    lib_srcs.sort();
    if lib_srcs.len() < 30 {
        return Err(format!(
            "{} has only {} C files",
            src.display(),
            lib_srcs.len()
        ));
    }
    let flags = ["-fPIE", "-DLUA_USE_LINUX", "-std=gnu99"];
    let mut members = Vec::new();
    for s in &lib_srcs {
        let obj = s.replace(".c", ".o");
        lto::compile(dir, &src.join(s), &obj, Lto::Thin, &flags)?;
        members.push(obj);
    }
    let refs: Vec<&str> = members.iter().map(String::as_str).collect();
    lto::archive(dir, lto::LLVM_AR, "liblua.a", &refs)?;
    let inc = format!("-I{}", src.display());
    let mut dflags = flags.to_vec();
    dflags.push(&inc);
    lto::compile(
        dir,
        &lto::data("lua", "driver.c"),
        "driver.o",
        Lto::Thin,
        &dflags,
    )?;
    std::fs::copy(lto::data("lua", "script.lua"), dir.join("script.lua"))
        .map_err(|e| format!("cannot copy script.lua: {e}"))?;
    let args = link_args(
        Link::DynamicPie,
        Lto::Thin,
        &strs(&["driver.o", "liblua.a", "-lm", "-ldl"]),
    );
    let (l, w) = lto::link_both_extra(dir, "lua", false, &args, &strs(&["-Wl,--stats"]))?;
    let mut expect = Expect::file("lua")?;
    expect.args = strs(&["script.lua"]);
    lto::run_and_compare(dir, &l, &w, &expect)?;
    match lto::lto_stats(&w.link.stderr_str())? {
        Some(s) if s.modules >= 30 => Ok(()),
        s => Err(format!(
            "weld's --stats should show the driver and the Lua library's members as LTO modules, \
             got {s:?}\n{}",
            w.link.report()
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// The helpers' own checks

fn support_self_test() -> Check {
    let stats =
        "weld stats:\n  input objects:      3\n  LTO modules:        2 (2 thin, 0 full)\n  \
                 LTO objects:        2 (1 from cache)\n";
    let s = lto::lto_stats(stats)?;
    if s != Some(lto::LtoStats {
        modules: 2,
        objects: 2,
        from_cache: 1,
    }) {
        return Err(format!("lto_stats: {s:?}"));
    }
    if lto::lto_stats("weld stats:\n  input objects: 3\n")?.is_some() {
        return Err("lto_stats found LTO in stats without it".into());
    }
    if lto::lto_stats("nothing").is_ok() {
        return Err("lto_stats accepted stderr without stats".into());
    }
    if lto::patch_identification(b"\x7fELF....", 1, |s| s.to_string()).is_ok() {
        return Err("patch_identification accepted an ELF file".into());
    }
    // Every corpus LTO mode has its own object flavour, and modes sharing one share flags.
    for a in lto::CORPUS_MODES {
        if !a.mode.objects.starts_with("lto-") {
            return Err(format!(
                "{}: object flavour {}",
                a.mode.name, a.mode.objects
            ));
        }
        for b in lto::CORPUS_MODES {
            if a.mode.objects == b.mode.objects && a.mode.cflags != b.mode.cflags {
                return Err(format!("{} and {} share objects", a.mode.name, b.mode.name));
            }
        }
    }
    Ok(())
}
