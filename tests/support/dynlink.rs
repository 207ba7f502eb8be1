//! Helpers for tests that build several artifacts (shared libraries, executables, plugins) from
//! one directory of `testdata/dynamic/` or `testdata/rust/`: compiles cached across runs, links
//! through the real compiler drivers with either linker, runs with a chosen library path, and the
//! "four ways" matrix (libraries by weld or lld x executables by weld or lld).
//!
//! ELF readers for the dynamic parts of a file (`-d`, `--dyn-syms`, `-V`, `-r`) are in
//! `support/dynelf.rs`.

use crate::build::{Compiler, BASE_CFLAGS};
use crate::corpus::is_cxx_source;
use crate::run::{self, Output};
use crate::tools::{self, Linker};
use crate::{elf, paths, text_diff, Check};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

/// `testdata/dynamic` in the workspace.
pub fn dynamic_dir() -> PathBuf {
    paths::workspace_root().join("testdata").join("dynamic")
}

/// `testdata/rust` in the workspace.
pub fn rust_dir() -> PathBuf {
    paths::workspace_root().join("testdata").join("rust")
}

/// A path as a command-line argument.
pub fn arg(p: &Path) -> String {
    p.display().to_string()
}

/// Both linkers, lld (the reference) first.
pub fn linkers() -> Result<[Linker; 2], String> {
    Ok([Linker::lld()?, Linker::weld()?])
}

// ---------------------------------------------------------------------------------------------
// Compiling, cached

type Slot = Arc<OnceLock<Result<PathBuf, String>>>;

/// Compiles `case_dir/src` with `compiler` (its C or C++ driver by the file name) and
/// `-O1 -g0 FLAGS` into an object, once per process and once across runs: the object is kept in
/// `<target>/weld-tests/.objects/<case>/` under a name hashed from every file of the case
/// directory, the flags and the compiler binary.
pub fn object(
    case_dir: &Path,
    src: &str,
    compiler: Compiler,
    flags: &[&str],
) -> Result<PathBuf, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();
    let key = compile_key(case_dir, src, compiler, flags)?;
    let case = case_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parent = case_dir
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = Path::new(src)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let out = paths::work_root()
        .join(".objects")
        .join(parent)
        .join(&case)
        .join(format!("{stem}-{}-{key}.o", compiler.name()));
    let slot = {
        let mut map = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        map.entry(out.display().to_string()).or_default().clone()
    };
    slot.get_or_init(|| {
        if out.is_file() {
            return Ok(out.clone());
        }
        let dir = out.parent().expect("object has a directory");
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        // The flags' key too: trials may compile one source with different flags at once.
        let tmp = dir.join(format!(
            ".tmp-{}-{stem}-{}-{key}.o",
            std::process::id(),
            compiler.name()
        ));
        let mut cmd = Command::new(tools::find(compiler.driver(is_cxx_source(src)))?);
        cmd.current_dir(case_dir)
            .arg("-c")
            .arg(src)
            .arg("-o")
            .arg(&tmp)
            .args(BASE_CFLAGS)
            .args(flags);
        run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("compiling {}", src))?;
        std::fs::rename(&tmp, &out)
            .map_err(|e| format!("cannot rename {} to {}: {e}", tmp.display(), out.display()))?;
        Ok(out.clone())
    })
    .clone()
}

/// Compiles several sources with the same flags.
pub fn objects(
    case_dir: &Path,
    srcs: &[&str],
    compiler: Compiler,
    flags: &[&str],
) -> Result<Vec<PathBuf>, String> {
    srcs.iter()
        .map(|s| object(case_dir, s, compiler, flags))
        .collect()
}

fn compile_key(
    case_dir: &Path,
    src: &str,
    compiler: Compiler,
    flags: &[&str],
) -> Result<String, String> {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    crate::paths::hash_dir_files(case_dir, &mut h)?;
    src.hash(&mut h);
    BASE_CFLAGS.hash(&mut h);
    flags.hash(&mut h);
    tools::hash_tool_identity(tools::find(compiler.driver(is_cxx_source(src)))?, &mut h);
    Ok(format!("{:016x}", h.finish()))
}

// ---------------------------------------------------------------------------------------------
// Linking

/// The driver command that links `args` into `out` with `linker` (C++ driver if `cxx`), in
/// `out`'s directory.
pub fn link_command(
    compiler: Compiler,
    cxx: bool,
    linker: &Linker,
    args: &[String],
    out: &Path,
) -> Result<Command, String> {
    let mut cmd = Command::new(tools::find(compiler.driver(cxx))?);
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        cmd.current_dir(dir);
    }
    cmd.args(compiler.use_linker_args(linker)?)
        .args(args)
        .arg("-o")
        .arg(out);
    Ok(cmd)
}

/// Links; Ok(out) only if the driver exited 0, printed no panic and wrote `out`, and `out` really
/// comes from the linker meant (its `.comment`). The error names the linker and holds the
/// full report.
pub fn link(
    compiler: Compiler,
    cxx: bool,
    linker: &Linker,
    args: &[String],
    out: &Path,
) -> Result<PathBuf, String> {
    let _ = std::fs::remove_file(out);
    let mut cmd = link_command(compiler, cxx, linker, args, out)?;
    let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    check_link(&o, linker, out)?;
    Ok(out.to_path_buf())
}

/// What every successful link must satisfy (see `link`).
pub fn check_link(o: &Output, linker: &Linker, out: &Path) -> Check {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let err = o.stderr_str();
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        return Err(format!(
            "{} panicked linking {name}\n{}",
            linker.label,
            o.report()
        ));
    }
    if !o.success() {
        return Err(format!(
            "{}'s link of {name} failed\n{}",
            linker.label,
            o.report()
        ));
    }
    if !out.is_file() {
        return Err(format!(
            "{}'s link of {name} exited 0 but wrote no {}\n{}",
            linker.label,
            out.display(),
            o.report()
        ));
    }
    check_linked_by(linker, out)
}

/// The reference output must really come from ld.lld-22 (and not from rustc's bundled rust-lld or
/// the system `ld`).
pub fn linked_by_lld(out: &Path) -> Check {
    let want = format!("Linker: {}", lld_version()?);
    let comment = elf::section_strings(out, ".comment")?;
    if comment.lines().any(|l| l.trim_end().ends_with(&want)) {
        Ok(())
    } else {
        Err(format!(
            "{} was not linked by ld.lld-22 (no `{want}` in its .comment):\n{comment}",
            out.display()
        ))
    }
}

/// ld.lld-22's version as it writes it into `.comment` (`Debian LLD 22.1.8`): its `--version`
/// line without ` (compatible with GNU linkers)`.
pub fn lld_version() -> Result<String, String> {
    static V: OnceLock<Result<String, String>> = OnceLock::new();
    V.get_or_init(|| {
        let mut cmd = Command::new(tools::lld()?);
        cmd.arg("--version");
        let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("ld.lld-22 --version")?;
        let text = o.stdout_str();
        let line = text.lines().next().unwrap_or("").trim();
        let v = line
            .split(" (compatible")
            .next()
            .unwrap_or(line)
            .to_string();
        if v.contains("LLD 22") {
            Ok(v)
        } else {
            Err(format!("ld.lld-22 --version says `{line}`, not LLD 22"))
        }
    })
    .clone()
}

/// weld's output must say it was linked by weld.
pub fn linked_by_weld(out: &Path) -> Check {
    let comment = elf::section_strings(out, ".comment")?;
    if comment.contains("Linker: weld") {
        Ok(())
    } else {
        Err(format!(
            "{} was not linked by weld: its .comment is\n{comment}",
            out.display()
        ))
    }
}

/// How a test's program is linked: the driver of `compiler` (C++ if `cxx`) with
/// `FLAGS OBJS -L LIBDIR -lNAMES`.
#[derive(Clone, Copy)]
pub struct Prog<'a> {
    pub compiler: Compiler,
    pub cxx: bool,
    pub objs: &'a [PathBuf],
    /// Before the objects: `-pie`, `-no-pie`, `-rdynamic`, `-Wl,...`.
    pub flags: &'a [&'a str],
}

impl Prog<'_> {
    pub fn link(
        &self,
        l: &Linker,
        libdir: &Path,
        names: &[&str],
        out: &Path,
    ) -> Result<PathBuf, String> {
        let mut a: Vec<String> = self.flags.iter().map(|s| s.to_string()).collect();
        a.extend(args_of(self.objs));
        a.extend(libs(libdir, names));
        link(self.compiler, self.cxx, l, &a, out)
    }
}

/// `-L DIR` and `-lNAME` for each name.
pub fn libs(dir: &Path, names: &[&str]) -> Vec<String> {
    let mut v = vec![format!("-L{}", dir.display())];
    v.extend(names.iter().map(|n| format!("-l{n}")));
    v
}

/// Object paths as arguments.
pub fn args_of(objs: &[PathBuf]) -> Vec<String> {
    objs.iter().map(|o| arg(o)).collect()
}

// ---------------------------------------------------------------------------------------------
// Running

/// Runs `exe ARGS` in `cwd` with `LD_LIBRARY_PATH` set to `lib_path` (or removed), and
/// `LD_PRELOAD`/`LD_BIND_NOW` removed.
pub fn run_exe(
    exe: &Path,
    args: &[String],
    lib_path: Option<&Path>,
    cwd: &Path,
) -> Result<Output, String> {
    let mut cmd = Command::new(exe);
    cmd.args(args).current_dir(cwd);
    cmd.env_remove("LD_PRELOAD").env_remove("LD_BIND_NOW");
    match lib_path {
        Some(p) => cmd.env("LD_LIBRARY_PATH", p),
        None => cmd.env_remove("LD_LIBRARY_PATH"),
    };
    run::run(&mut cmd, run::RUN_TIMEOUT)
}

/// Saves a run's stdout, stderr and status as `run.<label>.*` in `dir`.
pub fn save_run(dir: &Path, label: &str, o: &Output) -> Check {
    paths::write(&dir.join(format!("run.{label}.stdout")), &o.stdout)?;
    paths::write(&dir.join(format!("run.{label}.stderr")), &o.stderr)?;
    paths::write(
        &dir.join(format!("run.{label}.status")),
        format!("{}\n{}\n", o.status_text(), o.cmdline),
    )
}

/// The reference run must exit 0 and, if given, print exactly `expected`.
pub fn check_reference(o: &Output, expected: Option<&str>) -> Check {
    if !o.success() {
        return Err(format!(
            "the reference program (all linked by ld.lld-22) failed: the test or the harness is \
             broken\n{}",
            o.report()
        ));
    }
    if let Some(want) = expected {
        if o.stdout_str() != want {
            return Err(format!(
                "the reference program's stdout is not the expected text: {}",
                text_diff("lld", &o.stdout_str(), "expected", want)
            ));
        }
    }
    Ok(())
}

/// Compares a run with the reference run: status, stdout, stderr. `label` names the run.
pub fn compare_runs(label: &str, got: &Output, reference: &Output) -> Check {
    let problems = crate::run::run_differences(label, got, "reference", reference);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{label}: {}\ncommand: {}",
            problems.join("\n"),
            got.cmdline
        ))
    }
}

/// Reads `name` from a test data directory.
pub fn read_text(dir: &Path, name: &str) -> Result<String, String> {
    let p = dir.join(name);
    std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))
}

// ---------------------------------------------------------------------------------------------
// Four ways: libraries by weld and by lld, executables by weld and by lld

/// Links the libraries into the given directory (which exists and is empty).
pub type LibBuilder<'a> = &'a dyn Fn(&Linker, &Path) -> Check;
/// Links the program against the libraries in the first directory, into the second; returns the
/// program.
pub type ExeBuilder<'a> = &'a dyn Fn(&Linker, &Path, &Path) -> Result<PathBuf, String>;
/// The program's arguments, given the directory of the libraries it runs with.
pub type RunArgs<'a> = &'a dyn Fn(&Path) -> Vec<String>;

/// The artifacts of a four-way test, for extra checks.
pub struct FourWay {
    /// lld's and weld's library directories (weld's is `None` if its link failed).
    pub lib_lld: PathBuf,
    pub lib_weld: Option<PathBuf>,
    /// The program linked by lld against lld's libraries.
    pub exe_lld: PathBuf,
    /// The program linked by weld against lld's libraries: compared with `exe_lld`, it shows
    /// what weld makes of the same inputs (`None` if weld's link failed).
    pub exe_weld: Option<PathBuf>,
    /// The program linked by weld against weld's libraries.
    pub exe_weld_own: Option<PathBuf>,
    /// Problems found so far (weld's link failures, differing runs).
    pub problems: Vec<String>,
}

impl FourWay {
    /// Ok if no problem was found, else all of them.
    pub fn result(&self) -> Check {
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(self.problems.join("\n\n"))
        }
    }
}

/// Builds the libraries and the program with each linker (lld first: its build and run check the
/// test itself), then runs the four combinations of program and libraries and compares each
/// with lld+lld, which must exit 0 and print `expected`:
///
/// * lld's program (linked against lld's libraries) with lld's libraries: the reference;
/// * lld's program with weld's libraries;
/// * weld's program linked against lld's libraries, with lld's libraries;
/// * weld's program linked against weld's libraries, with weld's libraries.
///
/// Every failure of weld (link or run) is collected in `problems`; the other combinations still
/// run.
pub fn four_way(
    dir: &Path,
    libs: LibBuilder,
    exe: ExeBuilder,
    run_args: RunArgs,
    expected: Option<&str>,
) -> Result<FourWay, String> {
    let [lld, weld] = linkers()?;
    let lib_lld = dir.join("lib.lld");
    paths::fresh_dir(&lib_lld)?;
    crate::ctx(libs(&lld, &lib_lld), || {
        "the reference link of the libraries with ld.lld-22 failed".to_string()
    })?;
    let exe_lld = crate::ctx(exe(&lld, &lib_lld, &dir.join("exe.lld")), || {
        "the reference link of the program with ld.lld-22 failed".to_string()
    })?;
    let reference = run_exe(&exe_lld, &run_args(&lib_lld), Some(&lib_lld), dir)?;
    save_run(dir, "exe.lld-lib.lld", &reference)?;
    check_reference(&reference, expected)?;

    let mut problems = Vec::new();
    let lib_weld = dir.join("lib.weld");
    paths::fresh_dir(&lib_weld)?;
    let lib_weld = match libs(&weld, &lib_weld) {
        Ok(()) => Some(lib_weld),
        Err(e) => {
            problems.push(format!("linking the libraries with weld failed:\n{e}"));
            None
        }
    };
    let mut weld_exe =
        |libdir: &Path, name: &str, what: &str| match exe(&weld, libdir, &dir.join(name)) {
            Ok(p) => Some(p),
            Err(e) => {
                problems.push(format!("linking the program with weld {what} failed:\n{e}"));
                None
            }
        };
    let exe_weld = weld_exe(&lib_lld, "exe.weld", "against lld's libraries");
    let exe_weld_own = match &lib_weld {
        Some(l) => weld_exe(l, "exe.weld-own", "against weld's libraries"),
        None => None,
    };
    let mut combos: Vec<(&str, &Path, &str, &Path)> = Vec::new();
    if let Some(l) = &lib_weld {
        combos.push(("lld", &exe_lld, "weld", l));
    }
    if let Some(e) = &exe_weld {
        combos.push(("weld", e, "lld", &lib_lld));
    }
    if let (Some(e), Some(l)) = (&exe_weld_own, &lib_weld) {
        combos.push(("weld", e, "weld", l));
    }
    for (el, e, ll, l) in combos {
        let label = format!("program by {el} + libraries by {ll}");
        let o = run_exe(e, &run_args(l), Some(l), dir)?;
        save_run(dir, &format!("exe.{el}-lib.{ll}"), &o)?;
        if let Err(e) = compare_runs(&label, &o, &reference) {
            problems.push(e);
        }
    }
    Ok(FourWay {
        lib_lld,
        lib_weld,
        exe_lld,
        exe_weld,
        exe_weld_own,
        problems,
    })
}

/// Compares one property of lld's and weld's outputs; a difference is described with both values.
pub fn same<T: PartialEq + std::fmt::Debug>(what: &str, weld: &T, lld: &T) -> Check {
    if weld == lld {
        Ok(())
    } else {
        Err(format!(
            "{what} differs:\n  weld: {weld:?}\n  lld:  {lld:?}"
        ))
    }
}

/// Like `same` for sets: a difference lists what only one side has.
pub fn same_set(
    what: &str,
    weld: &std::collections::BTreeSet<String>,
    lld: &std::collections::BTreeSet<String>,
) -> Check {
    if weld == lld {
        return Ok(());
    }
    let only_weld: Vec<&String> = weld.difference(lld).collect();
    let only_lld: Vec<&String> = lld.difference(weld).collect();
    let show = |v: &[&String]| -> String {
        let mut s: Vec<String> = v.iter().take(20).map(|x| x.to_string()).collect();
        if v.len() > 20 {
            s.push(format!("... ({} more)", v.len() - 20));
        }
        s.join(", ")
    };
    Err(format!(
        "{what} differs ({} in weld's output, {} in lld's):\n  only in weld's ({}): {}\n  only in \
         lld's ({}): {}",
        weld.len(),
        lld.len(),
        only_weld.len(),
        show(&only_weld),
        only_lld.len(),
        show(&only_lld)
    ))
}

/// Like `same` for multi-line texts (a line diff).
pub fn same_text(what: &str, weld: &str, lld: &str) -> Check {
    if weld == lld {
        Ok(())
    } else {
        Err(format!(
            "{what} differs: {}\n--- weld\n{weld}--- lld\n{lld}",
            text_diff("weld", weld, "lld", lld)
        ))
    }
}

/// Collects the errors of several checks into one.
pub fn all(checks: Vec<Check>) -> Check {
    let errs: Vec<String> = checks.into_iter().filter_map(|c| c.err()).collect();
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n\n"))
    }
}

/// The cargo binary: `$CARGO` (set when running under cargo), else `cargo` on `$PATH`.
pub fn cargo() -> Result<PathBuf, String> {
    match std::env::var_os("CARGO") {
        Some(c) if !c.is_empty() => Ok(PathBuf::from(c)),
        _ => tools::find("cargo"),
    }
}

/// A hash of a file's contents, as 16 hex digits.
pub fn file_hash(p: &Path) -> Result<String, String> {
    let bytes = std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    Ok(format!("{:016x}", h.finish()))
}

/// Copies a directory tree (files and directories only).
pub fn copy_tree(from: &Path, to: &Path) -> Check {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for e in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let e = e.map_err(|e| format!("{}: {e}", from.display()))?;
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst)
                .map_err(|e| format!("cannot copy {} to {}: {e}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Two ways: everything linked by lld, everything linked by weld

/// Links everything into the given (fresh) directory with the given linker and returns the
/// program.
pub type Builder<'a> = &'a dyn Fn(&Linker, &Path) -> Result<PathBuf, String>;
/// Runs a program (built into the given directory).
pub type Runner<'a> = &'a dyn Fn(&Path, &Path) -> Result<Output, String>;

/// The artifacts of a two-way test.
pub struct TwoWay {
    pub dir_lld: PathBuf,
    pub dir_weld: PathBuf,
    pub exe_lld: PathBuf,
    /// `None` if weld's link failed (the failure is in `problems`).
    pub exe_weld: Option<PathBuf>,
    pub problems: Vec<String>,
}

impl TwoWay {
    pub fn result(&self) -> Check {
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(self.problems.join("\n\n"))
        }
    }
}

/// Builds everything once with lld (in `dir/lld`) and once with weld (in `dir/weld`), runs both
/// programs and compares them; lld's must exit 0 and print `expected`.
pub fn two_way(
    dir: &Path,
    build: Builder,
    run: Runner,
    expected: Option<&str>,
) -> Result<TwoWay, String> {
    let [lld, weld] = linkers()?;
    let dir_lld = dir.join("lld");
    paths::fresh_dir(&dir_lld)?;
    let exe_lld = crate::ctx(build(&lld, &dir_lld), || {
        "the reference link with ld.lld-22 failed".to_string()
    })?;
    let reference = run(&exe_lld, &dir_lld)?;
    save_run(dir, "lld", &reference)?;
    check_reference(&reference, expected)?;
    let dir_weld = dir.join("weld");
    paths::fresh_dir(&dir_weld)?;
    let mut problems = Vec::new();
    let exe_weld = match build(&weld, &dir_weld) {
        Ok(p) => Some(p),
        Err(e) => {
            problems.push(e);
            None
        }
    };
    if let Some(e) = &exe_weld {
        let o = run(e, &dir_weld)?;
        save_run(dir, "weld", &o)?;
        if let Err(e) = compare_runs("weld's program", &o, &reference) {
            problems.push(e);
        }
    }
    Ok(TwoWay {
        dir_lld,
        dir_weld,
        exe_lld,
        exe_weld,
        problems,
    })
}

/// A libtest-mimic trial run in a fresh `target/weld-tests/<group>/<name>/` (`::` in the name
/// becomes `-`), kept afterwards and named in failure reports.
pub fn trial(
    group: &'static str,
    name: String,
    f: impl FnOnce(&Path) -> Check + Send + 'static,
) -> libtest_mimic::Trial {
    let dir = paths::work_root().join(group).join(name.replace("::", "-"));
    libtest_mimic::Trial::test(name, move || {
        paths::fresh_dir(&dir)?;
        f(&dir).map_err(|e| format!("{e}\nwork directory: {}", dir.display()).into())
    })
}

// ---------------------------------------------------------------------------------------------
// Rust

/// RUSTFLAGS that make rustc link through clang-22 with `linker`.
pub fn rustflags(linker: &Linker) -> Result<String, String> {
    tools::find(tools::CLANG)?;
    Ok(format!(
        "-C linker={} -C link-arg=-fuse-ld=lld -C link-arg=--ld-path={}",
        tools::CLANG,
        linker.path.display()
    ))
}

/// Environment that would override RUSTFLAGS or the linker.
pub fn clean_cargo_env(cmd: &mut Command) {
    for v in [
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER",
        "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_TARGET",
    ] {
        cmd.env_remove(v);
    }
}

/// The output must come from the linker it was meant to (rustc has a bundled rust-lld it would
/// otherwise use).
pub fn check_linked_by(linker: &Linker, out: &Path) -> Check {
    if linker.label == "weld" && tools::diag_name(&linker.path) == "weld" {
        linked_by_weld(out)
    } else {
        linked_by_lld(out)
    }
}
