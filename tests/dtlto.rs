//! DTLTO (`--thinlto-distributor=` and its companions), compared with ld.lld-22: the ThinLTO
//! backends of a link run out of process, through a distributor given LLVM's JSON job file.
//!
//! The distributor is a small Python program written into each work directory at run time
//! (`dist.py`): it saves a copy of the JSON it receives (`--save=FILE`), checks that every input
//! a job names exists (archive members must have been written to files of their own), and runs
//! each job's command line (`common.args` then the job's `args`) locally. `--fail` makes it exit
//! 1 at once, `--skip=N` leaves job N undone (its native object missing).
//!
//! * `c_program`: main.c and b.c (ThinLTO), an archive member (and one nothing extracts),
//!   linked through clang-22's `-fthinlto-distributor=` by lld and by weld in directories of
//!   their own: both programs print the expected text, and the job files are the same but for
//!   the process ids LLVM puts in temporary names.
//! * `compiler_args`: `--thinlto-remote-compiler-prepend-arg=` and `-arg=` reach every job's
//!   command line, where lld puts them.
//! * `no_remote_compiler`: without `--thinlto-remote-compiler=`, the compiler is empty, as
//!   lld leaves it.
//! * `emit_index_files`: with `--thinlto-emit-index-files`, the files left beside the program
//!   are lld's (process ids aside).
//! * `rlib`: a Rust rlib's bitcode member built with `-C linker-plugin-lto` goes through
//!   the distributor; the program runs.
//! * `rust_program`: a Rust program (std, a main crate built with `-C linker-plugin-lto`)
//!   linked by rustc through clang-22 and the distributor (`-Wl,--thinlto-distributor=`:
//!   rustc passes no `-flto=thin`, so clang's own DTLTO flags do nothing): both programs run
//!   and print the same, and the job files are the same.
//! * `thin_archive_and_fat_object`: a thin archive's member is named by its own path, a fat
//!   object's `.llvm.lto` bitcode is written to a file of its own (`--fat-lto-objects`).
//! * `distributor_fails`, `missing_object`: lld's errors, exit 1, no output, no file left.
//! * `function_count`: `--stats`'s "LTO functions" is the in-process link's, with and without
//!   `--gc-sections` (where weld's precise graph internalizes what only dead native code
//!   calls: the distributed backends must see the same resolutions).
//! * `cache`: with `--thinlto-cache-dir`, a second link takes every module from the cache and
//!   does not run the distributor, as lld does.
//!
//! Work directories stay under `target/weld-tests/dtlto/` for inspection.

#[allow(dead_code)]
#[path = "support/lto.rs"]
mod lto;

use libtest_mimic::Arguments;
use lto::Lto;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::json::Json;
use weld_tests::run::{self, Output};
use weld_tests::tools::{self, Linker};
use weld_tests::{dir_trials, paths, text_diff, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = dir_trials(
        "dtlto",
        &[
            ("c_program", c_program),
            ("compiler_args", compiler_args),
            ("no_remote_compiler", no_remote_compiler),
            ("emit_index_files", emit_index_files),
            ("rlib", rlib),
            ("rust_program", rust_program),
            ("thin_archive_and_fat_object", thin_archive_and_fat_object),
            ("distributor_fails", distributor_fails),
            ("missing_object", missing_object),
            ("function_count", function_count),
            ("cache", cache),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

// ---------------------------------------------------------------------------------------------
// The distributor

/// A local distributor for LLVM's DTLTO job file (the JSON's path is its last argument).
const DISTRIBUTOR: &str = r#"import json, os, shutil, subprocess, sys

def main(argv):
    job_file = argv[-1]
    opts = {}
    for a in argv[:-1]:
        key, _, value = a.partition("=")
        opts[key] = value
    if "--save" in opts:
        shutil.copyfile(job_file, opts["--save"])
    if "--fail" in opts:
        return 1
    with open(job_file) as f:
        data = json.load(f)
    common = data["common"]
    skip = int(opts.get("--skip", "-1"))
    status = 0
    for i, job in enumerate(data["jobs"]):
        for path in common["inputs"] + job["inputs"]:
            if not os.path.isfile(path):
                print("dist.py: job %d: input %s does not exist" % (i, path), file=sys.stderr)
                return 2
        if i == skip:
            continue
        try:
            done = subprocess.run(common["args"] + job["args"])
        except OSError as e:
            print("dist.py: job %d: %s" % (i, e), file=sys.stderr)
            return 3
        if done.returncode != 0:
            status = 4
    return status

sys.exit(main(sys.argv[1:]))
"#;

/// The Python interpreter, by its full path: LLVM runs the distributor as given, without
/// searching `PATH`.
fn python() -> Result<String, String> {
    let p = tools::find("python3")?;
    Ok(p.to_string_lossy().into_owned())
}

/// Writes `dist.py` into `dir`; the clang-22 arguments that link through it with `extra`
/// distributor arguments. clang's `-fthinlto-distributor=` also passes its own path as
/// `--thinlto-remote-compiler=`, as a real build does.
fn through_distributor(dir: &Path, extra: &[&str]) -> Result<Vec<String>, String> {
    let script = dir.join("dist.py");
    paths::write(&script, DISTRIBUTOR)?;
    let mut args = vec![
        format!("-fthinlto-distributor={}", python()?),
        format!("-Xthinlto-distributor={}", script.display()),
    ];
    args.extend(extra.iter().map(|a| format!("-Xthinlto-distributor={a}")));
    Ok(args)
}

// ---------------------------------------------------------------------------------------------
// The program

const MAIN_C: &str = r#"#include <stdio.h>
int f(int);
int g(int);
static int counter;
int bump(void) { return ++counter; }
int main(void) {
  int s = 0;
  for (int i = 0; i < 5; i++)
    s += f(i) + g(i);
  printf("sum=%d counter=%d\n", s, counter);
  return 0;
}
"#;
const B_C: &str = r#"int bump(void);
static int sq(int x) { return x * x; }
int f(int x) { bump(); return sq(x) + 1; }
int helper(int x) { return x * 7; }
"#;
/// The archive member the program needs.
const G_C: &str = "int bump(void);\nint g(int x) { bump(); return 3 * x; }\n";
/// The archive member nothing extracts.
const U_C: &str = "int unused(int x) { return x - 1; }\n";
/// A native object whose only function nothing calls: under `--gc-sections` it is dead, and
/// weld's graph does not count its reference to `helper`.
const DEAD_C: &str = "int helper(int);\nint dead_fn(int x) { return helper(x); }\n";

const EXPECTED: &str = "sum=65 counter=10\n";

/// The program's ThinLTO bitcode in `dir/inputs`: `main.o`, `b.o` and `lib.a` (`g.o`, `u.o`).
fn build_inputs(dir: &Path) -> Check {
    let d = dir.join("inputs");
    std::fs::create_dir_all(&d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    for (name, text) in [("main.c", MAIN_C), ("b.c", B_C), ("g.c", G_C), ("u.c", U_C)] {
        paths::write(&d.join(name), text)?;
        let obj = name.replace(".c", ".o");
        lto::compile(&d, &d.join(name), &obj, Lto::Thin, &[])?;
    }
    lto::archive(&d, lto::LLVM_AR, "lib.a", &["g.o", "u.o"])?;
    paths::write(&d.join("dead.c"), DEAD_C)?;
    lto::compile(
        &d,
        &d.join("dead.c"),
        "dead.o",
        Lto::Native,
        &["-ffunction-sections"],
    )?;
    Ok(())
}

const PROGRAM: &[&str] = &["-flto=thin", "main.o", "b.o", "lib.a"];

// ---------------------------------------------------------------------------------------------
// Links

struct Linked {
    dir: PathBuf,
    out: Output,
}

/// `dir/<label>/`, a fresh copy of the files of `dir/inputs/`.
fn prepare(dir: &Path, label: &str) -> Result<PathBuf, String> {
    let own = dir.join(label);
    paths::fresh_dir(&own)?;
    for e in std::fs::read_dir(dir.join("inputs")).map_err(|e| e.to_string())? {
        let e = e.map_err(|e| e.to_string())?;
        // Directories are the test's to copy (a thin archive's members).
        if e.path().is_dir() {
            continue;
        }
        std::fs::copy(e.path(), own.join(e.file_name()))
            .map_err(|err| format!("cannot copy {}: {err}", e.path().display()))?;
    }
    Ok(own)
}

/// Links in `own` through clang-22: `args`, then `-o prog`.
fn link(own: &Path, linker: &Linker, args: &[String]) -> Result<Linked, String> {
    let mut cmd = Command::new(tools::find(tools::CLANG)?);
    cmd.current_dir(own)
        .args(lto::use_linker(linker))
        .args(args)
        .args(["-o", "prog"]);
    let out = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    Ok(Linked {
        dir: own.to_path_buf(),
        out,
    })
}

/// Links in `dir/<label>/`, a copy of `dir/inputs/`, through clang-22: `args`, then `-o prog`.
fn link_in(dir: &Path, label: &str, linker: &Linker, args: &[String]) -> Result<Linked, String> {
    link(&prepare(dir, label)?, linker, args)
}

fn strings(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// The link succeeded and its program prints `expected`.
fn runs(l: &Linked, label: &str, expected: &str) -> Check {
    if !l.out.success() || l.out.stderr_str().contains("panicked") {
        return Err(format!("{label}'s link failed\n{}", l.out.report()));
    }
    let mut cmd = Command::new(l.dir.join("prog"));
    cmd.current_dir(&l.dir);
    let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("{label}'s program"))?;
    if o.stdout_str() != expected {
        return Err(format!(
            "{label}'s program printed {:?}, expected {expected:?}",
            o.stdout_str()
        ));
    }
    Ok(())
}

/// Links with lld then weld, through the distributor with `extra` (distributor arguments
/// `dist`), each saving its job file as `job.json` in its directory.
fn link_both(dir: &Path, extra: &[&str], dist: &[&str]) -> Result<(Linked, Linked), String> {
    let mut out = Vec::new();
    for (label, linker) in [("lld", Linker::lld()?), ("weld", Linker::weld()?)] {
        let save = dir.join(label).join("job.json");
        let save_arg = format!("--save={}", save.display());
        let dist: Vec<&str> = [&[save_arg.as_str()], dist].concat();
        let mut args = strings(PROGRAM);
        args.extend(through_distributor(dir, &dist)?);
        args.extend(strings(extra));
        out.push(link_in(dir, label, &linker, &args)?);
    }
    let w = out.pop().ok_or("no weld link")?;
    let l = out.pop().ok_or("no lld link")?;
    Ok((l, w))
}

// ---------------------------------------------------------------------------------------------
// The job file

/// `text` with LLVM's process ids taken out: DTLTO names its temporary files
/// `M.<seq>.<pid>.native.o` (decimal) and an archive member's copy `M.<seq>.<PID>.o` (hex).
/// A dot-separated part of three or more hex digits with a decimal digit in it is a pid here
/// (the test's own names are short).
fn without_pids(text: &str) -> String {
    text.split('.')
        .map(|part| {
            let pid = part.len() >= 3
                && part.bytes().all(|b| b.is_ascii_hexdigit())
                && part.bytes().any(|b| b.is_ascii_digit());
            if pid {
                "PID"
            } else {
                part
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn read_job(l: &Linked) -> Result<String, String> {
    let p = l.dir.join("job.json");
    String::from_utf8(paths::read(&p)?).map_err(|e| format!("{}: {e}", p.display()))
}

/// weld's job file must be lld's, but for the process ids.
fn same_jobs(l: &Linked, w: &Linked) -> Result<String, String> {
    let (lt, wt) = (without_pids(&read_job(l)?), without_pids(&read_job(w)?));
    if lt != wt {
        return Err(format!(
            "the job files differ from lld's\n{}",
            text_diff("weld", &wt, "lld", &lt)
        ));
    }
    Ok(wt)
}

/// The `common.args` of a job file.
fn common_args(text: &str) -> Result<Vec<String>, String> {
    let j = Json::parse(text)?;
    j.path(&["common", "args"])?
        .as_arr()?
        .iter()
        .map(|a| a.as_str().map(String::from))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Tests

fn c_program(dir: &Path) -> Check {
    build_inputs(dir)?;
    let (l, w) = link_both(dir, &[], &[])?;
    runs(&l, "lld", EXPECTED)?;
    runs(&w, "weld", EXPECTED)?;
    let jobs = same_jobs(&l, &w)?;
    // The job file has what this test relies on: a job per linked module (the member nothing
    // extracted has none), the member under lld's name, clang as the compiler.
    let j = Json::parse(&jobs)?;
    let n = j.at("jobs")?.as_arr()?.len();
    if n != 3 {
        return Err(format!(
            "expected 3 jobs (main.o, b.o, lib.a(g.o)), got {n}\n{jobs}"
        ));
    }
    if !jobs.contains("lib.a(g.o at ") || jobs.contains("u.o") {
        return Err(format!(
            "the archive member is not named as lld names it\n{jobs}"
        ));
    }
    let args = common_args(&jobs)?;
    if !args.first().is_some_and(|c| c.contains("clang")) {
        return Err(format!("the remote compiler should be clang: {args:?}"));
    }
    // The archive member's copy is removed after the link, as every temporary file.
    for x in [&l, &w] {
        let left: Vec<String> = lto::listing(&x.dir)?
            .into_iter()
            .filter(|f| f.contains(".native.o") || f.contains(" at "))
            .collect();
        if !left.is_empty() {
            return Err(format!(
                "{}: temporary files left: {left:?}",
                x.dir.display()
            ));
        }
    }
    Ok(())
}

fn compiler_args(dir: &Path) -> Check {
    build_inputs(dir)?;
    let extra = [
        "-Wl,--thinlto-remote-compiler-prepend-arg=-Qunused-arguments",
        "-Wl,--thinlto-remote-compiler-arg=-DWELD_DTLTO_ARG=1",
        "-Wl,--thinlto-remote-compiler-arg=-fno-ident",
    ];
    let (l, w) = link_both(dir, &extra, &[])?;
    runs(&l, "lld", EXPECTED)?;
    runs(&w, "weld", EXPECTED)?;
    let jobs = same_jobs(&l, &w)?;
    let args = common_args(&jobs)?;
    // The prepend argument right after the compiler, the others last, in order.
    if args.get(1).map(String::as_str) != Some("-Qunused-arguments")
        || args[args.len().saturating_sub(2)..] != ["-DWELD_DTLTO_ARG=1", "-fno-ident"]
    {
        return Err(format!(
            "the remote compiler's arguments are not where lld puts them: {args:?}"
        ));
    }
    Ok(())
}

fn no_remote_compiler(dir: &Path) -> Check {
    build_inputs(dir)?;
    paths::write(&dir.join("dist.py"), DISTRIBUTOR)?;
    let mut jobs = Vec::new();
    for (label, linker) in [("lld", Linker::lld()?), ("weld", Linker::weld()?)] {
        let save = dir.join(label).join("job.json");
        let mut args = strings(PROGRAM);
        args.push(format!("-Wl,--thinlto-distributor={}", python()?));
        args.push(format!(
            "-Wl,--thinlto-distributor-arg={}",
            dir.join("dist.py").display()
        ));
        args.push(format!(
            "-Wl,--thinlto-distributor-arg=--save={}",
            save.display()
        ));
        args.push("-Wl,--thinlto-distributor-arg=--fail".to_string());
        let l = link_in(dir, label, &linker, &args)?;
        if l.out.success() {
            return Err(format!(
                "{label}: a failing distributor should fail the link"
            ));
        }
        jobs.push(l);
    }
    let text = same_jobs(&jobs[0], &jobs[1])?;
    let args = common_args(&text)?;
    if args.first().map(String::as_str) != Some("") {
        return Err(format!(
            "the remote compiler should be empty, as lld leaves it: {args:?}"
        ));
    }
    Ok(())
}

fn emit_index_files(dir: &Path) -> Check {
    build_inputs(dir)?;
    let (l, w) = link_both(dir, &["-Wl,--thinlto-emit-index-files"], &[])?;
    runs(&l, "lld", EXPECTED)?;
    runs(&w, "weld", EXPECTED)?;
    same_jobs(&l, &w)?;
    let names = |x: &Linked| -> Result<BTreeSet<String>, String> {
        Ok(lto::listing(&x.dir)?
            .iter()
            .map(|n| without_pids(n))
            .collect())
    };
    let (ln, wn) = (names(&l)?, names(&w)?);
    if ln != wn {
        return Err(format!(
            "the files written differ from lld's\n  only lld's: {:?}\n  only weld's: {:?}",
            ln.difference(&wn).collect::<Vec<_>>(),
            wn.difference(&ln).collect::<Vec<_>>()
        ));
    }
    for want in [
        "main.o.thinlto.bc",
        "b.o.thinlto.bc",
        "lib.a(g.o at 90).thinlto.bc",
    ] {
        if !wn.contains(want) {
            return Err(format!("no {want} among {wn:?}"));
        }
    }
    Ok(())
}

fn rlib(dir: &Path) -> Check {
    let d = dir.join("inputs");
    lto::rlib_and_c_main(&d)?;
    let mut out = Vec::new();
    for (label, linker) in [("lld", Linker::lld()?), ("weld", Linker::weld()?)] {
        let save = dir.join(label).join("job.json");
        let mut args = strings(&["-flto=thin", "m.o", "librs.rlib"]);
        args.extend(through_distributor(
            dir,
            &[&format!("--save={}", save.display())],
        )?);
        let l = link_in(dir, label, &linker, &args)?;
        runs(&l, label, "42\n")?;
        out.push(l);
    }
    let jobs = same_jobs(&out[0], &out[1])?;
    if !jobs.contains("librs.rlib(") {
        return Err(format!("no job for the rlib's bitcode member\n{jobs}"));
    }
    Ok(())
}

fn thin_archive_and_fat_object(dir: &Path) -> Check {
    build_inputs(dir)?;
    let d = dir.join("inputs");
    lto::compile(
        &d,
        &d.join("b.c"),
        "bfat.o",
        Lto::Thin,
        &["-ffat-lto-objects"],
    )?;
    // A thin archive's members stay where they are: `sub/g.o` is read by the remote compiler.
    let sub = d.join("sub");
    std::fs::create_dir_all(&sub).map_err(|e| e.to_string())?;
    std::fs::copy(d.join("g.o"), sub.join("g.o")).map_err(|e| e.to_string())?;
    let mut cmd = Command::new(tools::find(lto::LLVM_AR)?);
    cmd.current_dir(&d).args(["rcsT", "libthin.a", "sub/g.o"]);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-ar-22 rcsT")?;
    let mut out = Vec::new();
    for (label, linker) in [("lld", Linker::lld()?), ("weld", Linker::weld()?)] {
        let own = prepare(dir, label)?;
        let osub = own.join("sub");
        std::fs::create_dir_all(&osub).map_err(|e| e.to_string())?;
        std::fs::copy(sub.join("g.o"), osub.join("g.o")).map_err(|e| e.to_string())?;
        let save = own.join("job.json");
        let mut args = strings(&[
            "-flto=thin",
            "main.o",
            "bfat.o",
            "libthin.a",
            "-Wl,--fat-lto-objects",
        ]);
        args.extend(through_distributor(
            dir,
            &[&format!("--save={}", save.display())],
        )?);
        let l = link(&own, &linker, &args)?;
        runs(&l, label, EXPECTED)?;
        out.push(l);
    }
    let jobs = same_jobs(&out[0], &out[1])?;
    if !jobs.contains("\"sub/g.o\"") || !jobs.contains("\"bfat.o.2.PID.o\"") {
        return Err(format!(
            "expected the thin member as sub/g.o and the fat object's bitcode as \
             bfat.o.2.PID.o\n{jobs}"
        ));
    }
    Ok(())
}

const RUST_MAIN: &str = r#"use std::collections::BTreeMap;
#[inline(never)]
fn count(words: &[&str]) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for w in words {
        *m.entry(w.to_string()).or_insert(0) += 1;
    }
    m
}
fn main() {
    let m = count(&["a", "b", "a", "c", "b", "a"]);
    for (k, v) in &m {
        println!("{k}={v}");
    }
}
"#;

fn rust_program(dir: &Path) -> Check {
    let d = dir.join("inputs");
    std::fs::create_dir_all(&d).map_err(|e| e.to_string())?;
    paths::write(&d.join("main.rs"), RUST_MAIN)?;
    let script = dir.join("dist.py");
    paths::write(&script, DISTRIBUTOR)?;
    let clang = tools::find(tools::CLANG)?;
    let mut out = Vec::new();
    for (label, linker) in [("lld", Linker::lld()?), ("weld", Linker::weld()?)] {
        let own = prepare(dir, label)?;
        let save = own.join("job.json");
        let mut cmd = Command::new(tools::find(lto::RUSTC)?);
        cmd.current_dir(&own)
            .args(["-C", "linker-plugin-lto", "-C", "opt-level=2", "-C"])
            .arg(format!("linker={}", clang.display()));
        for a in lto::use_linker(&linker) {
            cmd.arg("-C").arg(format!("link-arg={a}"));
        }
        for a in [
            format!("--thinlto-distributor={}", python()?),
            format!("--thinlto-distributor-arg={}", script.display()),
            format!("--thinlto-distributor-arg=--save={}", save.display()),
            format!("--thinlto-remote-compiler={}", clang.display()),
        ] {
            cmd.arg("-C").arg(format!("link-arg=-Wl,{a}"));
        }
        cmd.args(["main.rs", "-o", "prog"]);
        let l = Linked {
            dir: own.clone(),
            out: run::run(&mut cmd, run::LINK_TIMEOUT)?,
        };
        runs(&l, label, "a=3\nb=2\nc=1\n")?;
        if !save.exists() {
            return Err(format!("{label}: the distributor was not run"));
        }
        out.push(l);
    }
    let jobs = same_jobs(&out[0], &out[1])?;
    if !jobs.contains(".rcgu.o") {
        return Err(format!("no job for the Rust crate's bitcode\n{jobs}"));
    }
    Ok(())
}

/// Links with each linker through a distributor given `dist`; both must fail with the same
/// error (lld's words, `weld:` for `ld.lld-22:`, process ids aside), exit 1, and leave no
/// output and no file behind.
fn fails_as_lld(dir: &Path, dist: &[&str], want: &str) -> Check {
    build_inputs(dir)?;
    let mut errors = Vec::new();
    for (label, linker) in [("lld", Linker::lld()?), ("weld", Linker::weld()?)] {
        let mut args = strings(PROGRAM);
        args.extend(through_distributor(dir, dist)?);
        let own = prepare(dir, label)?;
        let before: BTreeSet<String> = lto::listing(&own)?;
        let again = link(&own, &linker, &args)?.out;
        if label == "weld" {
            lto::failed_cleanly(&own, &again, "prog", &before)?;
        } else if again.success() {
            return Err(format!("lld's link should fail\n{}", again.report()));
        }
        let err = again.stderr_str();
        let first = err
            .lines()
            .find(|l| l.contains("error: "))
            .map(|l| without_pids(&l[l.find("error: ").unwrap_or(0)..]))
            .ok_or_else(|| format!("{label} printed no error\n{}", again.report()))?;
        errors.push(first);
    }
    if errors[0] != errors[1] {
        return Err(format!(
            "weld's error differs from lld's\n  lld:  {}\n  weld: {}",
            errors[0], errors[1]
        ));
    }
    if !errors[1].contains(want) {
        return Err(format!(
            "unexpected error: {} (expected {want:?})",
            errors[1]
        ));
    }
    Ok(())
}

fn distributor_fails(dir: &Path) -> Check {
    fails_as_lld(
        dir,
        &["--fail"],
        "error: DTLTO backend compilation: distributor execution failed.",
    )
}

fn missing_object(dir: &Path) -> Check {
    fails_as_lld(
        dir,
        &["--skip=0"],
        "error: DTLTO backend compilation: cannot open native object file: main.1.PID.native.o: \
         No such file or directory",
    )
}

/// weld's `LTO functions:` line.
fn functions(out: &Output) -> Result<usize, String> {
    let err = out.stderr_str();
    err.lines()
        .find_map(|l| l.trim_start().strip_prefix("LTO functions:"))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("no `LTO functions:` line\n{}", out.report()))
}

fn function_count(dir: &Path) -> Check {
    build_inputs(dir)?;
    let weld = Linker::weld()?;
    let mut counts = Vec::new();
    for gc in [false, true] {
        let mut args = strings(PROGRAM);
        args.push("dead.o".to_string());
        args.push("-Wl,--stats".to_string());
        if gc {
            args.push("-Wl,--gc-sections".to_string());
        }
        let tag = if gc { "_gc" } else { "" };
        let in_process = link_in(dir, &format!("in_process{tag}"), &weld, &args)?;
        runs(&in_process, "in-process weld", EXPECTED)?;
        args.extend(through_distributor(dir, &[])?);
        let distributed = link_in(dir, &format!("distributed{tag}"), &weld, &args)?;
        runs(&distributed, "weld through the distributor", EXPECTED)?;
        let (a, b) = (functions(&in_process.out)?, functions(&distributed.out)?);
        if a == 0 || a != b {
            return Err(format!(
                "LTO functions{}: {a} in process, {b} through the distributor (must be equal, \
                 not 0)",
                if gc { " with --gc-sections" } else { "" }
            ));
        }
        counts.push(a);
    }
    // `helper` is dropped under --gc-sections (only dead native code calls it): one function
    // fewer, in both modes.
    if counts[1] >= counts[0] {
        return Err(format!(
            "LTO functions: {} without --gc-sections, {} with: weld's precise graph should drop \
             helper",
            counts[0], counts[1]
        ));
    }
    Ok(())
}

fn cache(dir: &Path) -> Check {
    build_inputs(dir)?;
    let weld = Linker::weld()?;
    let cache = dir.join("cache");
    let save = dir.join("job.json");
    let mut args = strings(PROGRAM);
    args.push(format!("-Wl,--thinlto-cache-dir={}", cache.display()));
    args.push("-Wl,--stats".to_string());
    args.extend(through_distributor(
        dir,
        &[&format!("--save={}", save.display())],
    )?);
    let first = link_in(dir, "first", &weld, &args)?;
    runs(&first, "weld (cold cache)", EXPECTED)?;
    let s = lto::lto_stats(&first.out.stderr_str())?.ok_or("no LTO stats")?;
    if s.objects != 3 || s.from_cache != 0 || !save.exists() {
        return Err(format!(
            "cold cache: expected 3 objects compiled by the distributor, got {s:?}\n{}",
            first.out.report()
        ));
    }
    std::fs::remove_file(&save).map_err(|e| e.to_string())?;
    let second = link_in(dir, "second", &weld, &args)?;
    runs(&second, "weld (warm cache)", EXPECTED)?;
    let s = lto::lto_stats(&second.out.stderr_str())?.ok_or("no LTO stats")?;
    if s.objects != 3 || s.from_cache != 3 {
        return Err(format!(
            "warm cache: expected 3 objects from the cache, got {s:?}\n{}",
            second.out.report()
        ));
    }
    if save.exists() {
        return Err("warm cache: the distributor ran although every module was cached".into());
    }
    Ok(())
}
