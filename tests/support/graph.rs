//! Helpers for the one-graph tests (`tests/graph.rs`): building the small mixed native/bitcode
//! programs of `testdata/graph/`, linking them with ThinLTO through clang-22 with weld and with
//! ld.lld-22 (each link writing its LTO objects with `--lto-obj-path=`), and reading what the
//! links report: `removing unused bitcode symbol` lines, `--why-extract`, `--stats`, and the
//! symbols of outputs, LTO objects and bitcode files.
//!
//! Included by `tests/graph.rs` as a module, next to `support/lto.rs` (`crate::lto`).

use crate::lto::{self, Linked, Lto};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::gc::{self, Extraction};
use weld_tests::run::{self, Output};
use weld_tests::tools::{self, Linker};
use weld_tests::{paths, text_diff, Check};

/// `testdata/graph` in the workspace.
pub fn data_dir() -> PathBuf {
    paths::workspace_root().join("testdata").join("graph")
}

/// The seed example's sources (shared with `tests/gc.rs`): `testdata/gc/seed`.
pub fn seed_dir() -> PathBuf {
    paths::workspace_root()
        .join("testdata")
        .join("gc")
        .join("seed")
}

pub const REMOVING_BITCODE: &str = "removing unused bitcode symbol ";

/// Compile flags every object gets (the links are dynamic PIE).
pub const PIE: &[&str] = &["-fPIE"];
/// Native objects are compiled with a section per function and per datum, so that the dead
/// native code is a section of its own.
pub const SECTIONS: &[&str] = &["-fPIE", "-ffunction-sections", "-fdata-sections"];

/// A work directory in which a scenario's sources are compiled (bitcode with `-flto=thin`, native
/// objects with `-ffunction-sections -fdata-sections`) and archived with llvm-ar-22. Names are
/// relative to the directory, so reports read `libzip.a(zip.o)`.
pub struct Build {
    pub dir: PathBuf,
    pub src_dir: PathBuf,
    /// The bitcode flavour: `Lto::Thin` or `Lto::Full`.
    pub lto: Lto,
}

impl Build {
    /// Sources from `testdata/graph/<group>/`, bitcode of flavour `lto`.
    pub fn new(dir: &Path, group: &str, lto: Lto) -> Build {
        Build::from(dir, data_dir().join(group), lto)
    }

    pub fn from(dir: &Path, src_dir: PathBuf, lto: Lto) -> Build {
        Build {
            dir: dir.to_path_buf(),
            src_dir,
            lto,
        }
    }

    fn src(&self, src: &str) -> Result<PathBuf, String> {
        let p = self.src_dir.join(src);
        if p.is_file() {
            Ok(p)
        } else {
            Err(format!("missing test source {}", p.display()))
        }
    }

    /// `src` compiled to bitcode `obj` of the build's flavour (checked to be bitcode).
    pub fn bitcode(&self, src: &str, obj: &str) -> Result<PathBuf, String> {
        lto::compile(&self.dir, &self.src(src)?, obj, self.lto, PIE)
    }

    /// `src` compiled to a native object `obj` with a section per function and datum.
    pub fn native(&self, src: &str, obj: &str) -> Result<PathBuf, String> {
        lto::compile(&self.dir, &self.src(src)?, obj, Lto::Native, SECTIONS)
    }

    /// `src` compiled natively into `subdir/obj` (for the all-native twin of a program).
    pub fn native_in(&self, subdir: &str, src: &str, obj: &str) -> Result<PathBuf, String> {
        let d = self.dir.join(subdir);
        std::fs::create_dir_all(&d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        lto::compile(&d, &self.src(src)?, obj, Lto::Native, SECTIONS)
    }

    /// `llvm-ar-22 rcs lib members...`.
    pub fn archive(&self, lib: &str, members: &[&str]) -> Result<PathBuf, String> {
        lto::archive(&self.dir, lto::LLVM_AR, lib, members)
    }
}

/// One link through the driver (`-pie -flto[=thin] ARGS -Wl,--lto-obj-path=...`), checked to have
/// succeeded, with the directory its LTO objects were written to.
pub struct Link {
    pub linked: Linked,
    /// `<out>.ltoobj/`: `lto.o`, `lto.o1`, ... (one per LTO task).
    pub lto_objs: PathBuf,
}

impl Link {
    pub fn stdout(&self) -> String {
        self.linked.link.stdout_str()
    }
    pub fn cmdline(&self) -> &str {
        &self.linked.link.cmdline
    }
}

/// The driver arguments of a link: `-pie`, the LTO flag of `lto`, `args`, and `--lto-obj-path=`
/// into `objdir` (made afresh).
fn link_args(lto: Lto, args: &[String], objdir: &Path) -> Result<Vec<String>, String> {
    paths::fresh_dir(objdir)?;
    let mut a = vec![
        "-pie".to_string(),
        lto.flag().unwrap_or("-flto=thin").to_string(),
    ];
    a.extend_from_slice(args);
    a.push(format!("-Wl,--lto-obj-path={}/lto.o", objdir.display()));
    Ok(a)
}

/// How a program is linked: with clang++-22 for C++, and the LTO flag of a flavour.
#[derive(Debug, Clone, Copy)]
pub struct Flavor {
    pub cxx: bool,
    pub lto: Lto,
}

pub const C_THIN: Flavor = Flavor {
    cxx: false,
    lto: Lto::Thin,
};

/// Links `args` with `linker` into `dir/<out>`; the link must succeed.
pub fn link(
    dir: &Path,
    linker: &Linker,
    out: &str,
    f: Flavor,
    args: &[String],
) -> Result<Link, String> {
    let out_path = dir.join(out);
    let objdir = dir.join(format!("{out}.ltoobj"));
    let a = link_args(f.lto, args, &objdir)?;
    let cxx = f.cxx;
    let cmd = lto::driver_command(dir, linker, cxx, &a, &out_path)?;
    let label = if linker.label == "lld" { "lld" } else { "weld" };
    let linked = lto::link_with(label, cmd, &out_path)?;
    paths::write(&dir.join(format!("{out}.link.txt")), linked.link.report())?;
    Ok(Link {
        linked,
        lto_objs: objdir,
    })
}

/// Links `args` with `linker` into `dir/<out>` and returns what the driver did, success or not.
pub fn link_any(
    dir: &Path,
    linker: &Linker,
    out: &str,
    f: Flavor,
    args: &[String],
) -> Result<Output, String> {
    let out_path = dir.join(out);
    let _ = std::fs::remove_file(&out_path);
    let objdir = dir.join(format!("{out}.ltoobj"));
    let a = link_args(f.lto, args, &objdir)?;
    let mut cmd = lto::driver_command(dir, linker, f.cxx, &a, &out_path)?;
    let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    paths::write(&dir.join(format!("{out}.link.txt")), o.report())?;
    Ok(o)
}

/// Runs a linked program (no arguments); it must exit with 0. Returns its stdout.
pub fn run_ok(dir: &Path, l: &Link) -> Result<String, String> {
    let o = lto::run_program(dir, &l.linked.out, &[])?;
    paths::write(
        &dir.join(format!(
            "{}.run.txt",
            l.linked
                .out
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        )),
        o.report(),
    )?;
    if o.success() {
        Ok(o.stdout_str())
    } else {
        Err(format!(
            "the program linked by {} failed\n{}\nlinked by: {}",
            l.linked.label,
            o.report(),
            l.cmdline()
        ))
    }
}

/// The `removing unused bitcode symbol FILE:(SYMBOL)` lines of a link's stdout, in order.
pub fn bitcode_removals(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with(REMOVING_BITCODE))
        .map(String::from)
        .collect()
}

/// The line weld prints for a dead bitcode symbol.
pub fn removal_line(file: &str, sym: &str) -> String {
    format!("{REMOVING_BITCODE}{file}:({sym})")
}

/// `--print-gc-sections` prints lld's section lines first, then the bitcode lines: no section
/// line may follow a bitcode line.
pub fn bitcode_lines_last(stdout: &str) -> Check {
    let lines: Vec<&str> = stdout.lines().collect();
    if let Some(first_bc) = lines.iter().position(|l| l.starts_with(REMOVING_BITCODE)) {
        if let Some(late) = lines[first_bc..]
            .iter()
            .find(|l| l.starts_with(gc::REMOVING))
        {
            return Err(format!(
                "a `removing unused section` line follows the bitcode lines: `{late}`\n{stdout}"
            ));
        }
    }
    Ok(())
}

/// `llvm-nm-22 ARGS --format=just-symbols FILE`: one name per line, as a set.
fn nm_names(args: &[&str], file: &Path) -> Result<BTreeSet<String>, String> {
    let mut cmd = Command::new(tools::find(lto::NM)?);
    cmd.args(args).arg("--format=just-symbols").arg(file);
    let out =
        run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("{} {}", lto::NM, file.display()))?;
    Ok(out
        .stdout_str()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect())
}

/// `llvm-nm-22 --defined-only` over one file: the names it defines (ELF or bitcode).
pub fn nm_defined(file: &Path, dynamic: bool) -> Result<BTreeSet<String>, String> {
    let args: &[&str] = if dynamic {
        &["--defined-only", "-D"]
    } else {
        &["--defined-only"]
    };
    nm_names(args, file)
}

/// The symbols defined in a linked output's `.symtab`.
pub fn output_defines(l: &Link) -> Result<BTreeSet<String>, String> {
    nm_defined(&l.linked.out, false)
}

/// The symbols defined by any of the LTO objects a link wrote with `--lto-obj-path=` (empty files,
/// written for empty tasks, are skipped). At least one object must have been written.
pub fn lto_objects_define(l: &Link) -> Result<BTreeSet<String>, String> {
    let names = lto::listing(&l.lto_objs)?;
    let mut all = BTreeSet::new();
    let mut seen = 0;
    for n in &names {
        let p = l.lto_objs.join(n);
        let len = std::fs::metadata(&p)
            .map_err(|e| format!("{}: {e}", p.display()))?
            .len();
        if len == 0 {
            continue;
        }
        seen += 1;
        all.extend(nm_defined(&p, false)?);
    }
    if seen == 0 {
        return Err(format!(
            "{} wrote no LTO object into {} (files: {names:?})\n{}",
            l.linked.label,
            l.lto_objs.display(),
            l.linked.link.report()
        ));
    }
    Ok(all)
}

/// Reads a `--why-extract` file.
pub fn why_extract(path: &Path) -> Result<Vec<Extraction>, String> {
    gc::read_why_extract(path)
}

pub fn extraction_lines(v: &[Extraction]) -> String {
    v.iter().map(|e| format!("{e}\n")).collect()
}

/// weld's `LTO modules:` count from `--stats` on stderr (an error if weld ran no LTO).
pub fn lto_modules(l: &Link) -> Result<usize, String> {
    match lto::lto_stats(&l.linked.link.stderr_str())? {
        Some(s) => Ok(s.modules),
        None => Err(format!(
            "weld's --stats reports no LTO at all\n{}",
            l.linked.link.report()
        )),
    }
}

/// weld's `--stats` archive member counts: (indexed, resolved, parsed, loaded).
pub fn member_stats(l: &Link) -> Result<(usize, usize, usize, usize), String> {
    let stderr = l.linked.link.stderr_str();
    let field = |key: &str| weld_tests::gc::stats_count(&stderr, key);
    Ok((
        field("members indexed:")?,
        field("members resolved:")?,
        field("members parsed:")?,
        field("members loaded:")?,
    ))
}

/// The program's output must be `expected`.
pub fn expect_stdout(what: &str, got: &str, expected: &str) -> Check {
    if got == expected {
        Ok(())
    } else {
        Err(format!(
            "{what}: the program's output is wrong: {}",
            text_diff("actual", got, "expected", expected)
        ))
    }
}

/// Strings for driver arguments.
pub fn strs(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The lines of `text`, each matched against the patterns of `want` in order (`*` matches any
/// text): the text must be exactly those lines.
pub fn lines_match(text: &str, want: &[&str]) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.len() == want.len()
        && lines
            .iter()
            .zip(want)
            .all(|(l, w)| gc::wildcard_match(w, l))
}

/// `llvm-nm-22 --undefined-only` over one file: the names it references without defining.
pub fn nm_undefined(file: &Path) -> Result<BTreeSet<String>, String> {
    nm_names(&["--undefined-only"], file)
}

/// The symbols referenced (undefined) by any of a link's LTO objects.
pub fn lto_objects_reference(l: &Link) -> Result<BTreeSet<String>, String> {
    let mut all = BTreeSet::new();
    for n in lto::listing(&l.lto_objs)? {
        let p = l.lto_objs.join(n);
        if std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0) > 0 {
            all.extend(nm_undefined(&p)?);
        }
    }
    Ok(all)
}

/// The symbol of a `removing unused bitcode symbol FILE:(SYMBOL)` line.
pub fn removal_symbol(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(REMOVING_BITCODE)?;
    let open = rest.rfind(":(")?;
    rest[open + 2..].strip_suffix(')')
}

/// Checks of the helpers above that need no tools (the test binaries run without libtest's
/// harness, so they are a trial of their own).
pub fn self_test() -> Check {
    let ok = "removing unused section a.o:(.text.f)\nremoving unused bitcode symbol l.a(b.o):(g)\n";
    bitcode_lines_last(ok)?;
    if bitcode_removals(ok) != ["removing unused bitcode symbol l.a(b.o):(g)"] {
        return Err(format!("bitcode_removals: {:?}", bitcode_removals(ok)));
    }
    if removal_symbol(&removal_line("l.a(b.o)", "g")) != Some("g") {
        return Err("removal_symbol".into());
    }
    let bad = "removing unused bitcode symbol b.o:(g)\nremoving unused section a.o:(.text.f)\n";
    if bitcode_lines_last(bad).is_ok() {
        return Err("bitcode_lines_last accepted a section line after a bitcode line".into());
    }
    if !lines_match("a\nxyz\n", &["a", "x*z"])
        || lines_match("a\nxyz\nb\n", &["a", "x*z"])
        || lines_match("a\n", &["a", "x*z"])
    {
        return Err("lines_match".into());
    }
    Ok(())
}
