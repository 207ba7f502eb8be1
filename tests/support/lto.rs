//! Helpers for the LTO tests (`tests/lto.rs`): compiling to bitcode, linking through clang-22 with
//! weld and with ld.lld-22, running and comparing both programs, reading `--stats`, symbol tables
//! and directory listings, and patching a bitcode file's identification block.
//!
//! Included by `tests/lto.rs` as a module (it uses the shared helpers through `weld_tests::`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::build::Mode;
use weld_tests::run::{self, Output};
use weld_tests::tools::{self, Linker};
use weld_tests::{elf, paths, text_diff, Check};

pub const LLVM_AR: &str = "llvm-ar-22";
pub const NM: &str = "llvm-nm-22";
pub const BCANALYZER: &str = "llvm-bcanalyzer-22";
pub const RUSTC: &str = "rustc";

/// `testdata/lto` in the workspace.
pub fn data_dir() -> PathBuf {
    paths::workspace_root().join("testdata").join("lto")
}

/// One file of `testdata/lto/<group>/`.
pub fn data(group: &str, file: &str) -> PathBuf {
    data_dir().join(group).join(file)
}

// ---------------------------------------------------------------------------------------------
// LTO flavours and the corpus modes built with them

/// How a source is compiled: ThinLTO bitcode, full-LTO bitcode, or a native object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lto {
    Thin,
    Full,
    Native,
}

impl Lto {
    pub fn name(self) -> &'static str {
        match self {
            Lto::Thin => "thin",
            Lto::Full => "full",
            Lto::Native => "native",
        }
    }
    /// The compile (and driver link) flag.
    pub fn flag(self) -> Option<&'static str> {
        match self {
            Lto::Thin => Some("-flto=thin"),
            Lto::Full => Some("-flto"),
            Lto::Native => None,
        }
    }
}

/// A corpus mode under LTO: the plain mode it corresponds to (for `case.conf`'s `modes` and the
/// expected output files) and the harness `Mode` that compiles and links with LTO.
#[derive(Debug, Clone, Copy)]
pub struct LtoMode {
    pub base: &'static str,
    pub lto: Lto,
    pub mode: Mode,
}

/// The corpus modes run under LTO: static and dynamic-pie, and a `--gc-sections` variant, each with
/// ThinLTO and with full LTO. Object flavours are named `lto-*` so that they never share objects
/// with the native modes.
pub const CORPUS_MODES: &[LtoMode] = &[
    LtoMode {
        base: "static",
        lto: Lto::Thin,
        mode: Mode {
            name: "thin-static",
            objects: "lto-thin-nopie",
            pic: false,
            cflags: &["-fno-pie", "-flto=thin"],
            ldflags: &["-static", "-flto=thin"],
        },
    },
    LtoMode {
        base: "dynamic-pie",
        lto: Lto::Thin,
        mode: Mode {
            name: "thin-dynamic-pie",
            objects: "lto-thin-pie",
            pic: true,
            cflags: &["-fPIE", "-flto=thin"],
            ldflags: &["-pie", "-flto=thin"],
        },
    },
    LtoMode {
        base: "gc-sections",
        lto: Lto::Thin,
        mode: Mode {
            name: "thin-gc-sections",
            objects: "lto-thin-pie-sections",
            pic: true,
            cflags: &[
                "-fPIE",
                "-ffunction-sections",
                "-fdata-sections",
                "-flto=thin",
            ],
            ldflags: &["-pie", "-flto=thin", "-Wl,--gc-sections"],
        },
    },
    LtoMode {
        base: "static",
        lto: Lto::Full,
        mode: Mode {
            name: "full-static",
            objects: "lto-full-nopie",
            pic: false,
            cflags: &["-fno-pie", "-flto"],
            ldflags: &["-static", "-flto"],
        },
    },
    LtoMode {
        base: "dynamic-pie",
        lto: Lto::Full,
        mode: Mode {
            name: "full-dynamic-pie",
            objects: "lto-full-pie",
            pic: true,
            cflags: &["-fPIE", "-flto"],
            ldflags: &["-pie", "-flto"],
        },
    },
    LtoMode {
        base: "gc-sections",
        lto: Lto::Full,
        mode: Mode {
            name: "full-gc-sections",
            objects: "lto-full-pie-sections",
            pic: true,
            cflags: &["-fPIE", "-ffunction-sections", "-fdata-sections", "-flto"],
            ldflags: &["-pie", "-flto", "-Wl,--gc-sections"],
        },
    },
];

/// The mode flags of the plain modes used by the hand-written LTO tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    Static,
    DynamicPie,
}

impl Link {
    pub fn name(self) -> &'static str {
        match self {
            Link::Static => "static",
            Link::DynamicPie => "dynamic-pie",
        }
    }
    pub fn cflags(self) -> &'static [&'static str] {
        match self {
            Link::Static => &["-fno-pie"],
            Link::DynamicPie => &["-fPIE"],
        }
    }
    pub fn ldflags(self) -> &'static [&'static str] {
        match self {
            Link::Static => &["-static"],
            Link::DynamicPie => &["-pie"],
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Compiling and archiving

fn is_cxx(src: &Path) -> bool {
    matches!(
        src.extension().and_then(|e| e.to_str()),
        Some("cpp" | "cc" | "cxx")
    )
}

/// Compiles `src` into `dir/out` with clang-22 (clang++-22 for C++): `-O1 -g0`, the LTO flag, then
/// `flags`. Returns the object's path.
pub fn compile(
    dir: &Path,
    src: &Path,
    out: &str,
    lto: Lto,
    flags: &[&str],
) -> Result<PathBuf, String> {
    let driver = if is_cxx(src) {
        tools::CLANGXX
    } else {
        tools::CLANG
    };
    let mut cmd = Command::new(tools::find(driver)?);
    cmd.current_dir(dir).args(["-c", "-O1", "-g0"]);
    if let Some(f) = lto.flag() {
        cmd.arg(f);
    }
    cmd.args(flags).arg(src).arg("-o").arg(out);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("compiling {}", src.display()))?;
    let obj = dir.join(out);
    let bitcode = is_bitcode(&obj)?;
    let want_bitcode = lto != Lto::Native && !flags.contains(&"-ffat-lto-objects");
    if bitcode != want_bitcode {
        return Err(format!(
            "{} should {}be LLVM bitcode",
            obj.display(),
            if want_bitcode { "" } else { "not " }
        ));
    }
    Ok(obj)
}

/// Packs `members` (paths relative to `dir`) into `dir/name` with `tool` (`llvm-ar-22` or GNU
/// `ar`), with a symbol index.
pub fn archive(dir: &Path, tool: &str, name: &str, members: &[&str]) -> Result<PathBuf, String> {
    let _ = std::fs::remove_file(dir.join(name));
    let mut cmd = Command::new(tools::find(tool)?);
    cmd.current_dir(dir).arg("rcs").arg(name).args(members);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("{tool} rcs {name}"))?;
    Ok(dir.join(name))
}

/// True if the file starts with the LLVM bitcode magic (`BC 0xC0DE`).
pub fn is_bitcode(path: &Path) -> Result<bool, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(bytes.starts_with(b"BC\xc0\xde"))
}

// ---------------------------------------------------------------------------------------------
// Linking through the driver with both linkers, running, comparing

/// Arguments for clang-22 that make it link with `linker`.
pub fn use_linker(linker: &Linker) -> Vec<String> {
    vec![
        "-fuse-ld=lld".to_string(),
        format!("--ld-path={}", linker.path.display()),
    ]
}

/// `clang-22`/`clang++-22` in `dir` linking `args` into `out` with `linker`.
pub fn driver_command(
    dir: &Path,
    linker: &Linker,
    cxx: bool,
    args: &[String],
    out: &Path,
) -> Result<Command, String> {
    let driver = if cxx { tools::CLANGXX } else { tools::CLANG };
    let mut cmd = Command::new(tools::find(driver)?);
    cmd.current_dir(dir)
        .args(use_linker(linker))
        .args(args)
        .arg("-o")
        .arg(out);
    Ok(cmd)
}

/// One linker's link (and, once run, its program's run).
#[derive(Debug)]
pub struct Linked {
    pub label: &'static str,
    pub out: PathBuf,
    pub link: Output,
}

/// Checks a link that must succeed: lld's failing means the test itself is broken; weld's
/// failing, panicking or not writing its output is the failure under test.
pub fn check_link(l: &Linked) -> Check {
    let err = l.link.stderr_str();
    if l.label == "lld" {
        if !l.link.success() || !l.out.is_file() {
            return Err(format!(
                "the reference link with ld.lld-22 failed: the test or the harness is broken\n{}",
                l.link.report()
            ));
        }
        return Ok(());
    }
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        return Err(format!("weld panicked\n{}", l.link.report()));
    }
    if !l.link.success() {
        return Err(format!("weld's link failed\n{}", l.link.report()));
    }
    if !l.out.is_file() {
        return Err(format!(
            "weld's link exited 0 but wrote no {}\n{}",
            l.out.display(),
            l.link.report()
        ));
    }
    Ok(())
}

/// Runs `cmd` (a link writing `out`) and checks it as `check_link` does.
pub fn link_with(label: &'static str, mut cmd: Command, out: &Path) -> Result<Linked, String> {
    let _ = std::fs::remove_file(out);
    let link = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    let l = Linked {
        label,
        out: out.to_path_buf(),
        link,
    };
    check_link(&l)?;
    Ok(l)
}

/// Links `args` with both linkers through the driver (`prog.lld`, `prog.weld` in `dir`, or
/// `<stem>.lld`, `<stem>.weld`), lld first.
pub fn link_both(
    dir: &Path,
    stem: &str,
    cxx: bool,
    args: &[String],
) -> Result<(Linked, Linked), String> {
    link_both_extra(dir, stem, cxx, args, &[])
}

/// `link_both`, with `weld_extra` (e.g. `-Wl,--stats`) added to weld's link only.
pub fn link_both_extra(
    dir: &Path,
    stem: &str,
    cxx: bool,
    args: &[String],
    weld_extra: &[String],
) -> Result<(Linked, Linked), String> {
    link_both_with(dir, stem, cxx, |label| {
        let mut a = args.to_vec();
        if label == "weld" {
            a.extend_from_slice(weld_extra);
        }
        a
    })
}

/// `link_both` with arguments that depend on the linker's label (`lld`, `weld`).
pub fn link_both_with(
    dir: &Path,
    stem: &str,
    cxx: bool,
    args_for: impl Fn(&'static str) -> Vec<String>,
) -> Result<(Linked, Linked), String> {
    let lld = Linker::lld()?;
    let weld = Linker::weld()?;
    let lo = dir.join(format!("{stem}.lld"));
    let wo = dir.join(format!("{stem}.weld"));
    let l = link_with(
        "lld",
        driver_command(dir, &lld, cxx, &args_for("lld"), &lo)?,
        &lo,
    )?;
    let w = link_with(
        "weld",
        driver_command(dir, &weld, cxx, &args_for("weld"), &wo)?,
        &wo,
    )?;
    Ok((l, w))
}

/// Runs a program in `dir` with arguments.
pub fn run_program(dir: &Path, program: &Path, args: &[String]) -> Result<Output, String> {
    let mut cmd = Command::new(program);
    cmd.current_dir(dir).args(args);
    run::run(&mut cmd, run::RUN_TIMEOUT)
}

/// What the reference program must do, checked before weld's is looked at.
#[derive(Debug, Clone, Default)]
pub struct Expect {
    pub exit: i32,
    /// Exact stdout, if known (`expected.txt` of a test-data directory).
    pub stdout: Option<(PathBuf, String)>,
    pub args: Vec<String>,
}

impl Expect {
    /// Exit 0 and the stdout in `testdata/lto/<group>/expected.txt`.
    pub fn file(group: &str) -> Result<Expect, String> {
        Expect::file_named(group, "expected.txt")
    }

    /// Exit 0 and the stdout in `testdata/lto/<group>/<name>`.
    pub fn file_named(group: &str, name: &str) -> Result<Expect, String> {
        let p = data(group, name);
        let text =
            std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        Ok(Expect {
            exit: 0,
            stdout: Some((p, text)),
            args: Vec::new(),
        })
    }
}

/// Runs both programs and compares them: lld's must meet `expect`; weld's must exit the same way
/// and print the same stdout and stderr; both must have the same program header types and flags
/// and the same note types.
pub fn run_and_compare(dir: &Path, lld: &Linked, weld: &Linked, expect: &Expect) -> Check {
    let lr = run_program(dir, &lld.out, &expect.args)?;
    save_run(dir, &lld.out, &lr)?;
    if lr.code != Some(expect.exit) {
        return Err(format!(
            "the reference program (linked by ld.lld-22) should exit with {}, but: {}\n{}",
            expect.exit,
            lr.status_text(),
            lr.report()
        ));
    }
    if let Some((path, want)) = &expect.stdout {
        if lr.stdout != want.as_bytes() {
            return Err(format!(
                "the reference program's stdout differs from {}: {}",
                path.display(),
                text_diff("lld", &lr.stdout_str(), "expected", want)
            ));
        }
    }
    let wr = run_program(dir, &weld.out, &expect.args)?;
    save_run(dir, &weld.out, &wr)?;
    let mut problems = run::run_differences("weld", &wr, "lld", &lr);
    if let Err(e) = compare_headers(&weld.out, &lld.out) {
        problems.push(e);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\nweld's link: {}",
            problems.join("\n"),
            weld.link.cmdline
        ))
    }
}

fn save_run(dir: &Path, program: &Path, run: &Output) -> Check {
    let name = program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    paths::write(&dir.join(format!("{name}.stdout")), &run.stdout)?;
    paths::write(&dir.join(format!("{name}.stderr")), &run.stderr)?;
    paths::write(&dir.join(format!("{name}.status")), run.status_text())
}

/// Program header types and flags, and note types, must be the same.
pub fn compare_headers(weld: &Path, lld: &Path) -> Check {
    let problems = elf::header_differences(weld, lld)?;
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// `link_both` then `run_and_compare`.
pub fn differential(
    dir: &Path,
    cxx: bool,
    args: &[String],
    expect: &Expect,
) -> Result<(Linked, Linked), String> {
    let (l, w) = link_both(dir, "prog", cxx, args)?;
    run_and_compare(dir, &l, &w, expect)?;
    Ok((l, w))
}

// ---------------------------------------------------------------------------------------------
// Inspecting outputs

/// The LTO lines of weld's `--stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LtoStats {
    pub modules: usize,
    pub objects: usize,
    pub from_cache: usize,
}

/// Parses `LTO modules: N (...)` and `LTO objects: N (M from cache)` from weld's stderr; `None`
/// if weld ran no LTO (it prints no LTO lines then).
pub fn lto_stats(stderr: &str) -> Result<Option<LtoStats>, String> {
    let field = |key: &str| -> Option<&str> {
        stderr
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(key))
            .map(str::trim)
    };
    let Some(modules) = field("LTO modules:") else {
        if stderr.contains("weld stats:") {
            return Ok(None);
        }
        return Err(format!("no `weld stats:` in weld's stderr:\n{stderr}"));
    };
    let num = |s: &str| -> Result<usize, String> {
        s.split(|c: char| !c.is_ascii_digit())
            .find(|t| !t.is_empty())
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| format!("cannot read a number in `{s}`"))
    };
    let modules = num(modules)?;
    let objects_line = field("LTO objects:")
        .ok_or_else(|| format!("`LTO modules:` but no `LTO objects:` line in\n{stderr}"))?;
    let (objects, rest) = objects_line
        .split_once('(')
        .ok_or_else(|| format!("unexpected `LTO objects:` line: {objects_line}"))?;
    if !rest.contains("from cache") {
        return Err(format!("unexpected `LTO objects:` line: {objects_line}"));
    }
    Ok(Some(LtoStats {
        modules,
        objects: num(objects)?,
        from_cache: num(rest)?,
    }))
}

/// Defined symbols of an ELF file's `.symtab`: name -> (nm type letter, size).
pub fn defined_symbols(file: &Path) -> Result<BTreeMap<String, (String, u64)>, String> {
    let mut cmd = Command::new(tools::find(NM)?);
    cmd.args(["--defined-only", "--format=posix", "-S"])
        .arg(file);
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(NM)?;
    let mut map = BTreeMap::new();
    for line in out.stdout_str().lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 3 {
            continue;
        }
        let size = t
            .get(3)
            .and_then(|s| u64::from_str_radix(s, 16).ok())
            .unwrap_or(0);
        map.insert(t[0].to_string(), (t[1].to_string(), size));
    }
    Ok(map)
}

/// For each name: `Some((type, size))` if defined in `file`, else `None`.
pub fn symbols_named(
    file: &Path,
    names: &[&str],
) -> Result<BTreeMap<String, Option<(String, u64)>>, String> {
    let all = defined_symbols(file)?;
    Ok(names
        .iter()
        .map(|n| (n.to_string(), all.get(*n).cloned()))
        .collect())
}

/// The named symbols must be defined (or not) alike, with the same types and sizes, in weld's and
/// lld's outputs.
pub fn same_symbols(weld: &Path, lld: &Path, names: &[&str]) -> Check {
    let w = symbols_named(weld, names)?;
    let l = symbols_named(lld, names)?;
    if w == l {
        Ok(())
    } else {
        let mut s = String::from("symbols differ (name: weld vs lld, as (nm type, size)):\n");
        for n in names {
            if w[*n] != l[*n] {
                s.push_str(&format!("  {n}: {:?} vs {:?}\n", w[*n], l[*n]));
            }
        }
        Err(s)
    }
}

/// The names of the entries of a directory (not recursive).
pub fn listing(dir: &Path) -> Result<BTreeSet<String>, String> {
    Ok(std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect())
}

/// Copies files into `dir` (which is created).
pub fn copy_into(dir: &Path, files: &[PathBuf]) -> Check {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for f in files {
        let name = f
            .file_name()
            .ok_or_else(|| format!("{} has no file name", f.display()))?;
        std::fs::copy(f, dir.join(name))
            .map_err(|e| format!("cannot copy {}: {e}", f.display()))?;
    }
    Ok(())
}

/// Reads a file.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

// ---------------------------------------------------------------------------------------------
// Failing links

/// Runs `linker ARGS -o OUT` directly (no driver) in `dir`.
pub fn run_linker(dir: &Path, linker: &Path, args: &[String], out: &str) -> Result<Output, String> {
    let _ = std::fs::remove_file(dir.join(out));
    let mut cmd = Command::new(linker);
    cmd.current_dir(dir).args(args).arg("-o").arg(out);
    run::run(&mut cmd, run::LINK_TIMEOUT)
}

/// A failed link as every failed link must be: exit code 1, no panic or LLVM crash text, no
/// output file and no new file at all in `dir` (`before` is the listing taken before the link).
pub fn failed_cleanly(
    dir: &Path,
    out: &Output,
    output_file: &str,
    before: &BTreeSet<String>,
) -> Check {
    let mut problems = Vec::new();
    if out.code != Some(1) {
        problems.push(format!(
            "weld should exit with 1, but: {}",
            out.status_text()
        ));
    }
    let err = out.stderr_str();
    for bad in [
        "panicked",
        "RUST_BACKTRACE",
        "LLVM ERROR",
        "Stack dump",
        "PLEASE submit",
    ] {
        if err.contains(bad) {
            problems.push(format!("weld's stderr contains `{bad}`"));
        }
    }
    if dir.join(output_file).exists() {
        problems.push(format!("weld left its output file {output_file} behind"));
    }
    let after = listing(dir)?;
    let new: Vec<&String> = after.difference(before).collect();
    if !new.is_empty() {
        problems.push(format!("weld left files behind: {new:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{}", problems.join("\n"), out.report()))
    }
}

/// The first line containing `: error: `.
pub fn first_error_line(text: &str) -> Option<String> {
    text.lines()
        .find(|l| l.contains(": error: ") || l.starts_with("error: "))
        .map(String::from)
}

/// lld's diagnostics as weld would print them: `ld.lld-22: ` at line starts becomes `weld: `.
pub fn lld_as_weld(lld_stderr: &str, weld: &Path) -> Result<String, String> {
    let lld = tools::lld()?;
    let lld_name = lld
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let weld_name = tools::diag_name(weld);
    let prefix = format!("{lld_name}: ");
    Ok(lld_stderr
        .lines()
        .map(|l| match l.strip_prefix(&prefix) {
            Some(rest) => format!("{weld_name}: {rest}\n"),
            None => format!("{l}\n"),
        })
        .collect())
}

// ---------------------------------------------------------------------------------------------
// Bitcode: patching the identification block

/// LSB-first bit reader over a bitcode file (LLVM's bitstream format).
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bits<'_> {
    fn fixed(&mut self, n: usize) -> Result<u64, String> {
        let mut v = 0u64;
        for i in 0..n {
            let bit = self.pos + i;
            let byte = *self
                .data
                .get(bit / 8)
                .ok_or("bitcode ends inside the identification block")?;
            v |= u64::from((byte >> (bit % 8)) & 1) << i;
        }
        self.pos += n;
        Ok(v)
    }
    fn vbr(&mut self, n: usize) -> Result<u64, String> {
        let (mut v, mut shift) = (0u64, 0);
        loop {
            let chunk = self.fixed(n)?;
            v |= (chunk & ((1 << (n - 1)) - 1)) << shift;
            if chunk >> (n - 1) == 0 {
                return Ok(v);
            }
            shift += n - 1;
            if shift > 60 {
                return Err("VBR value too long".into());
            }
        }
    }
}

fn set_bits(data: &mut [u8], pos: usize, width: usize, value: u64) {
    for i in 0..width {
        let bit = pos + i;
        let mask = 1u8 << (bit % 8);
        if (value >> i) & 1 == 1 {
            data[bit / 8] |= mask;
        } else {
            data[bit / 8] &= !mask;
        }
    }
}

fn char6(c: u8) -> Option<u64> {
    Some(match c {
        b'a'..=b'z' => u64::from(c - b'a'),
        b'A'..=b'Z' => u64::from(c - b'A') + 26,
        b'0'..=b'9' => u64::from(c - b'0') + 52,
        b'.' => 62,
        b'_' => 63,
        _ => return None,
    })
}

fn char6_to_ascii(v: u64) -> char {
    (match v {
        0..=25 => b'a' + v as u8,
        26..=51 => b'A' + (v - 26) as u8,
        52..=61 => b'0' + (v - 52) as u8,
        62 => b'.',
        _ => b'_',
    }) as char
}

#[derive(Clone, Copy)]
enum Op {
    Literal(u64),
    Fixed(usize),
    Vbr(usize),
    Array,
    Char6,
    Blob,
}

/// One operand of a record: where it is and how it is encoded.
#[derive(Clone, Copy)]
struct Field {
    /// Bit position (none for literal operands).
    pos: Option<usize>,
    width: usize,
    enc: Enc,
    value: u64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Enc {
    Literal,
    Fixed,
    Vbr,
    Char6,
}

impl Bits<'_> {
    fn field(&mut self, op: Op) -> Result<Field, String> {
        let pos = Some(self.pos);
        Ok(match op {
            Op::Literal(v) => Field {
                pos: None,
                width: 0,
                enc: Enc::Literal,
                value: v,
            },
            Op::Fixed(w) => Field {
                pos,
                width: w,
                enc: Enc::Fixed,
                value: self.fixed(w)?,
            },
            Op::Vbr(w) => Field {
                pos,
                width: w,
                enc: Enc::Vbr,
                value: self.vbr(w)?,
            },
            Op::Char6 => Field {
                pos,
                width: 6,
                enc: Enc::Char6,
                value: self.fixed(6)?,
            },
            Op::Array | Op::Blob => {
                return Err("unsupported operand in the IDENTIFICATION block".into())
            }
        })
    }
}

impl Field {
    /// Overwrites the operand with `v`, which must fit its encoding (a VBR operand must stay a
    /// single chunk, so the file's length does not change).
    fn set(&self, out: &mut [u8], v: u64) -> Check {
        let pos = self.pos.ok_or("cannot patch a literal operand")?;
        let fits = match self.enc {
            Enc::Literal => false,
            Enc::Fixed | Enc::Char6 => v < 1 << self.width,
            Enc::Vbr => v < 1 << (self.width - 1) && self.value < 1 << (self.width - 1),
        };
        if !fits {
            return Err(format!(
                "cannot patch {v} into a {}-bit operand holding {}",
                self.width, self.value
            ));
        }
        set_bits(out, pos, self.width, v);
        Ok(())
    }
}

/// Rewrites the IDENTIFICATION block that clang puts first in every bitcode file: the `EPOCH`
/// record gets `epoch` (LLVM refuses any epoch other than its own, 0) and the producer string
/// (`LLVM22.1.8`) becomes `producer(old)`, which must have the same length. This is what a bitcode
/// file from a future, incompatible LLVM looks like to LLVM 22.
pub fn patch_identification(
    bytes: &[u8],
    epoch: u64,
    producer: impl Fn(&str) -> String,
) -> Result<Vec<u8>, String> {
    if !bytes.starts_with(b"BC\xc0\xde") {
        return Err("not a raw bitcode file (no BC 0xC0DE magic)".into());
    }
    let mut out = bytes.to_vec();
    let mut r = Bits {
        data: bytes,
        pos: 32,
    };
    // ENTER_SUBBLOCK (abbreviation id 1 at width 2) for block 13, IDENTIFICATION_BLOCK_ID.
    if r.fixed(2)? != 1 || r.vbr(8)? != 13 {
        return Err("the bitcode does not start with an IDENTIFICATION block".into());
    }
    let width = r.vbr(4)? as usize;
    r.pos = r.pos.div_ceil(32) * 32;
    let _words = r.fixed(32)?;
    let mut abbrevs: Vec<Vec<Op>> = Vec::new();
    let (mut epoch_done, mut producer_done) = (false, false);
    loop {
        let fields: Vec<Field> = match r.fixed(width)? {
            0 => break, // END_BLOCK
            1 => return Err("unexpected sub-block in the IDENTIFICATION block".into()),
            2 => {
                // DEFINE_ABBREV
                let n = r.vbr(5)?;
                let mut ops = Vec::new();
                for _ in 0..n {
                    if r.fixed(1)? == 1 {
                        ops.push(Op::Literal(r.vbr(8)?));
                    } else {
                        ops.push(match r.fixed(3)? {
                            1 => Op::Fixed(r.vbr(5)? as usize),
                            2 => Op::Vbr(r.vbr(5)? as usize),
                            3 => Op::Array,
                            4 => Op::Char6,
                            5 => Op::Blob,
                            e => return Err(format!("unknown abbreviation encoding {e}")),
                        });
                    }
                }
                abbrevs.push(ops);
                continue;
            }
            3 => {
                // UNABBREV_RECORD: code, operand count, operands, all VBR6.
                let mut fields = vec![r.field(Op::Vbr(6))?];
                let n = r.vbr(6)?;
                for _ in 0..n {
                    fields.push(r.field(Op::Vbr(6))?);
                }
                fields
            }
            id => {
                let ops = abbrevs
                    .get(id as usize - 4)
                    .cloned()
                    .ok_or_else(|| format!("undefined abbreviation id {id}"))?;
                let mut fields = Vec::new();
                let mut i = 0;
                while i < ops.len() {
                    if let Op::Array = ops[i] {
                        let n = r.vbr(6)?;
                        i += 1;
                        let elt = *ops.get(i).ok_or("array without an element type")?;
                        for _ in 0..n {
                            fields.push(r.field(elt)?);
                        }
                    } else {
                        fields.push(r.field(ops[i])?);
                    }
                    i += 1;
                }
                fields
            }
        };
        let (code, operands) = fields.split_first().ok_or("empty record")?;
        match code.value {
            1 => {
                // STRING: the producer.
                let old: String = operands
                    .iter()
                    .map(|f| {
                        if f.enc == Enc::Char6 {
                            char6_to_ascii(f.value)
                        } else {
                            f.value as u8 as char
                        }
                    })
                    .collect();
                let producer = producer(&old);
                if operands.len() != producer.len() {
                    return Err(format!(
                        "the producer string has {} characters, `{producer}` has {}",
                        operands.len(),
                        producer.len()
                    ));
                }
                for (f, c) in operands.iter().zip(producer.bytes()) {
                    let v = if f.enc == Enc::Char6 {
                        char6(c).ok_or_else(|| format!("`{}` is not a char6", c as char))?
                    } else {
                        u64::from(c)
                    };
                    f.set(&mut out, v)?;
                }
                producer_done = true;
            }
            2 => {
                // EPOCH
                let f = operands.first().ok_or("EPOCH record without a value")?;
                f.set(&mut out, epoch)?;
                epoch_done = true;
            }
            _ => {}
        }
    }
    if !epoch_done || !producer_done {
        return Err(format!(
            "IDENTIFICATION block without {}",
            if epoch_done { "STRING" } else { "EPOCH" }
        ));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Links in directories of their own, and what LTO options leave there

/// A link made in a directory of its own (`<dir>/<label>/`) holding copies of its inputs, so
/// that the files an option writes next to the output or the inputs can be compared.
#[derive(Debug)]
pub struct Isolated {
    pub dir: PathBuf,
    pub linked: Linked,
}

/// Copies `inputs` (names in `dir`) into a fresh `dir/<label>/` and links there through the
/// driver: `args` (relative paths resolve in that directory), then `-o prog`. The link is not
/// checked: see [`check_link`].
pub fn link_in(
    dir: &Path,
    linker: &Linker,
    cxx: bool,
    inputs: &[String],
    args: &[String],
) -> Result<Isolated, String> {
    let files: Vec<PathBuf> = inputs.iter().map(|i| dir.join(i)).collect();
    link_in_dir(&dir.join(linker.label), linker, cxx, &files, args, &[])
}

/// Links in the fresh directory `own`, holding copies of `files` and the (empty) directories
/// `mkdirs` (for options that write into a directory they do not create), as [`link_in`].
pub fn link_in_dir(
    own: &Path,
    linker: &Linker,
    cxx: bool,
    files: &[PathBuf],
    args: &[String],
    mkdirs: &[&str],
) -> Result<Isolated, String> {
    paths::fresh_dir(own)?;
    copy_into(own, files)?;
    for d in mkdirs {
        std::fs::create_dir_all(own.join(d))
            .map_err(|e| format!("cannot create {}: {e}", own.join(d).display()))?;
    }
    let out = own.join("prog");
    let mut cmd = driver_command(own, linker, cxx, args, &out)?;
    let link = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    Ok(Isolated {
        dir: own.to_path_buf(),
        linked: Linked {
            label: linker.label,
            out,
            link,
        },
    })
}

/// [`link_in`] with ld.lld-22, then with weld; both links must succeed.
pub fn link_both_in(
    dir: &Path,
    cxx: bool,
    inputs: &[String],
    args: &[String],
) -> Result<(Isolated, Isolated), String> {
    let l = link_in(dir, &Linker::lld()?, cxx, inputs, args)?;
    check_link(&l.linked)?;
    let w = link_in(dir, &Linker::weld()?, cxx, inputs, args)?;
    check_link(&w.linked)?;
    Ok((l, w))
}

/// The two directories must hold the same file names.
pub fn same_listing(lld: &Path, weld: &Path, what: &str) -> Check {
    let (l, w) = (listing(lld)?, listing(weld)?);
    if l == w {
        return Ok(());
    }
    let only_l: Vec<&String> = l.difference(&w).collect();
    let only_w: Vec<&String> = w.difference(&l).collect();
    Err(format!(
        "{what} differ from lld's\n  only lld's: {only_l:?}\n  only weld's: {only_w:?}"
    ))
}

/// Each of `names` must have the same bytes in both directories.
pub fn same_bytes<'a>(
    lld: &Path,
    weld: &Path,
    names: impl IntoIterator<Item = &'a String>,
) -> Check {
    for n in names {
        if read(&lld.join(n))? != read(&weld.join(n))? {
            return Err(format!(
                "{n} differs from lld's:\n  {}\n  {}",
                weld.join(n).display(),
                lld.join(n).display()
            ));
        }
    }
    Ok(())
}

/// `llvm-dis-22` of a bitcode file, without the `; ModuleID` line (which names the file).
pub fn ir_text(bitcode: &Path) -> Result<String, String> {
    let mut cmd = Command::new(tools::find(LLVM_DIS)?);
    cmd.arg(bitcode).arg("-o").arg("-");
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(LLVM_DIS)?;
    Ok(out
        .stdout_str()
        .lines()
        .filter(|l| !l.starts_with("; ModuleID"))
        .map(|l| format!("{l}\n"))
        .collect())
}

/// The functions an IR module defines (`define ... @name(`).
pub fn ir_defined_functions(ir: &str) -> BTreeSet<String> {
    ir.lines()
        .filter(|l| l.starts_with("define "))
        .filter_map(|l| {
            let at = l.find(" @")? + 2;
            let end = l[at..].find('(')? + at;
            Some(l[at..end].trim_matches('"').to_string())
        })
        .collect()
}

pub const LLVM_DIS: &str = "llvm-dis-22";

/// In `d` (made if missing): `librs.rlib`, a `no_std` Rust library built with
/// `-C linker-plugin-lto` whose `rs_add` is `extern "C"`, and `m.o`, C ThinLTO bitcode whose
/// `main` prints `rs_add(40, 2)` (42): a C program with an rlib member for the ThinLTO tests.
pub fn rlib_and_c_main(d: &Path) -> Result<(), String> {
    std::fs::create_dir_all(d).map_err(|e| e.to_string())?;
    paths::write(
        &d.join("rs.rs"),
        "#![no_std]\n#[no_mangle]\npub extern \"C\" fn rs_add(a: i32, b: i32) -> i32 { a.wrapping_add(b) }\n",
    )?;
    let mut cmd = Command::new(tools::find(RUSTC)?);
    cmd.current_dir(d).args([
        "--crate-type=rlib",
        "--crate-name",
        "rs",
        "-C",
        "linker-plugin-lto",
        "-C",
        "opt-level=2",
        "-C",
        "panic=abort",
        "rs.rs",
        "-o",
        "librs.rlib",
    ]);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("rustc")?;
    paths::write(
        &d.join("m.c"),
        "#include <stdio.h>\nint rs_add(int, int);\nint main(void) { printf(\"%d\\n\", rs_add(40, 2)); return 0; }\n",
    )?;
    compile(d, &d.join("m.c"), "m.o", Lto::Thin, &[])?;
    Ok(())
}
