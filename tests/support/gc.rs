//! Helpers for the garbage-collection tests (`tests/gc.rs`): parsing and comparing what lld and
//! weld report (`--why-extract`, `--print-gc-sections`, `-Map`), and building the small programs
//! under `testdata/gc/` through the real compiler drivers.

use crate::build::{Compiler, Mode};
use crate::paths;
use crate::run::{self, Output};
use crate::tools::{self, Linker};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `testdata/gc` in the workspace: one directory of sources per scenario.
pub fn data_dir() -> PathBuf {
    paths::workspace_root().join("testdata").join("gc")
}

/// A static link with `--gc-sections` over `-ffunction-sections -fdata-sections` objects: the
/// removed-section report then covers hundreds of libc.a members. Not in the differential suite's
/// mode list; objects are built and cached like those of every other mode.
pub const STATIC_GC_SECTIONS: Mode = Mode {
    name: "static-gc-sections",
    objects: "nopie-sections",
    pic: false,
    cflags: &["-fno-pie", "-ffunction-sections", "-fdata-sections"],
    ldflags: &["-static", "-Wl,--gc-sections"],
};

// ---------------------------------------------------------------------------------------------
// --why-extract

/// One line of lld's `--why-extract` file: `reference<TAB>extracted<TAB>symbol`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Extraction {
    pub reference: String,
    pub extracted: String,
    pub symbol: String,
}

impl std::fmt::Display for Extraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}\t{}\t{}", self.reference, self.extracted, self.symbol)
    }
}

pub const WHY_EXTRACT_HEADER: &str = "reference\textracted\tsymbol";

/// Parses a `--why-extract` file: the header line, then one line per extraction.
pub fn parse_why_extract(text: &str) -> Result<Vec<Extraction>, String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(WHY_EXTRACT_HEADER) => {}
        other => {
            return Err(format!(
            "--why-extract output should start with `{WHY_EXTRACT_HEADER}`, got {other:?}\n{text}"
        ))
        }
    }
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            match f.as_slice() {
                [r, e, s] => Ok(Extraction {
                    reference: r.to_string(),
                    extracted: e.to_string(),
                    symbol: s.to_string(),
                }),
                _ => Err(format!(
                    "--why-extract line is not three tab-separated fields: `{l}`"
                )),
            }
        })
        .collect()
}

/// Reads and parses a `--why-extract` file.
pub fn read_why_extract(path: &Path) -> Result<Vec<Extraction>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read --why-extract file {}: {e}", path.display()))?;
    parse_why_extract(&text)
}

/// The extracted members (column 2) as a sorted multiset.
pub fn members(lines: &[Extraction]) -> BTreeMap<&str, usize> {
    let mut m = BTreeMap::new();
    for l in lines {
        *m.entry(l.extracted.as_str()).or_insert(0) += 1;
    }
    m
}

/// Compares weld's and lld's `--why-extract` lines at three levels, each reported on its own:
/// the set of extracted members, the full lines (reference and symbol: "only the reasons
/// differ"), and their order. Empty if identical.
pub fn compare_extractions(weld: &[Extraction], lld: &[Extraction]) -> Vec<String> {
    let mut problems = Vec::new();
    let (wm, lm) = (members(weld), members(lld));
    if wm != lm {
        let missing: Vec<&&str> = lm.keys().filter(|k| !wm.contains_key(*k)).collect();
        let extra: Vec<&&str> = wm.keys().filter(|k| !lm.contains_key(*k)).collect();
        let mut s = String::from("the set of extracted members differs\n");
        s.push_str(&list_block("extracted by lld, not by weld", &missing));
        s.push_str(&list_block("extracted by weld, not by lld", &extra));
        let twice: Vec<String> = wm
            .iter()
            .filter(|(k, n)| lm.get(*k).is_some_and(|m| m != *n))
            .map(|(k, n)| format!("{k}: {n} lines in weld's file, {} in lld's", lm[k]))
            .collect();
        s.push_str(&list_block("listed a different number of times", &twice));
        problems.push(s);
    }
    let (mut ws, mut ls) = (weld.to_vec(), lld.to_vec());
    ws.sort();
    ls.sort();
    if ws != ls {
        let missing: Vec<String> = ls
            .iter()
            .filter(|l| !ws.contains(l))
            .map(|l| l.to_string())
            .collect();
        let extra: Vec<String> = ws
            .iter()
            .filter(|l| !ls.contains(l))
            .map(|l| l.to_string())
            .collect();
        let mut s = if wm == lm {
            String::from("the same members are extracted, but only the reasons differ (reference or symbol column)\n")
        } else {
            String::from("the full lines differ\n")
        };
        s.push_str(&list_block(
            "lld's lines missing from weld's file",
            &missing,
        ));
        s.push_str(&list_block("weld's lines not in lld's file", &extra));
        problems.push(s);
    }
    // Order, reported on its own whenever the members are the same: lld writes a record when the
    // extraction it describes has finished (after the extractions that one triggered).
    if wm == lm {
        let wseq: Vec<&str> = weld.iter().map(|e| e.extracted.as_str()).collect();
        let lseq: Vec<&str> = lld.iter().map(|e| e.extracted.as_str()).collect();
        if wseq != lseq {
            problems.push(format!(
                "the members are listed in a different order (column 2 as a sequence): {}",
                crate::text_diff("weld", &join_lines(&wseq), "lld", &join_lines(&lseq))
            ));
        }
    }
    problems
}

fn join_lines<T: std::fmt::Display>(v: &[T]) -> String {
    v.iter().map(|l| format!("{l}\n")).collect()
}

/// `  what (N):\n    item\n...` with at most 40 items, or nothing for an empty list.
pub fn list_block<T: std::fmt::Display>(what: &str, items: &[T]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let mut s = format!("  {what} ({}):\n", items.len());
    for i in items.iter().take(40) {
        s.push_str(&format!("    {i}\n"));
    }
    if items.len() > 40 {
        s.push_str(&format!("    ... and {} more\n", items.len() - 40));
    }
    s
}

// ---------------------------------------------------------------------------------------------
// --print-gc-sections

pub const REMOVING: &str = "removing unused section ";

/// The `removing unused section FILE:(SECTION)` lines of a link's stdout, in order.
pub fn removed_sections(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with(REMOVING))
        .map(String::from)
        .collect()
}

/// Compares removed-section lines as sets, then as sequences (lld's order is input order).
pub fn compare_removed(weld: &[String], lld: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    let (mut ws, mut ls) = (weld.to_vec(), lld.to_vec());
    ws.sort();
    ls.sort();
    if ws != ls {
        let wset: std::collections::BTreeSet<&String> = ws.iter().collect();
        let lset: std::collections::BTreeSet<&String> = ls.iter().collect();
        let missing: Vec<&&String> = lset.difference(&wset).collect();
        let extra: Vec<&&String> = wset.difference(&lset).collect();
        let mut s = format!(
            "the removed sections differ as sets (weld: {} lines, lld: {})\n",
            weld.len(),
            lld.len()
        );
        s.push_str(&list_block(
            "removed by lld, not by weld (weld keeps them)",
            &missing,
        ));
        s.push_str(&list_block(
            "removed by weld, not by lld (lld keeps them)",
            &extra,
        ));
        if missing.is_empty() && extra.is_empty() {
            s.push_str("  (the same lines, but some are printed a different number of times)\n");
        }
        problems.push(s);
    } else if weld != lld {
        problems.push(format!(
            "the same sections are removed, but in a different order (lld's order is input order): {}",
            crate::text_diff("weld", &join_lines(weld), "lld", &join_lines(lld))
        ));
    }
    problems
}

// ---------------------------------------------------------------------------------------------
// -Map (lld's format)

/// One input section line of an lld map: `FILE:(SECTION)` with its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapInput {
    pub name: String,
    pub size: u64,
}

/// One output section of an lld map with the input sections listed under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapSection {
    pub name: String,
    pub vma: u64,
    pub lma: u64,
    pub size: u64,
    pub align: u64,
    pub inputs: Vec<MapInput>,
    /// Symbol lines under the section (depth 2), not compared.
    pub symbols: usize,
}

pub const MAP_HEADER: &str =
    "             VMA              LMA     Size Align Out     In      Symbol";

/// Parses lld's `-Map` output:
///
/// ```text
///              VMA              LMA     Size Align Out     In      Symbol
///           200270           200270       20     4 .note.ABI-tag
///           200270           200270       20     4         crt1.o:(.note.ABI-tag)
///           200270           200270       20     1                 __abi_tag
/// ```
///
/// Four columns (`%16llx %16llx %8llx %5u`), one space, then the name indented by 8 spaces per
/// level: output section, input section, symbol.
pub fn parse_map(text: &str) -> Result<Vec<MapSection>, String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(MAP_HEADER) => {}
        other => {
            return Err(format!(
                "the map should start with lld's header line\n  `{MAP_HEADER}`\ngot\n  {other:?}"
            ))
        }
    }
    let mut out: Vec<MapSection> = Vec::new();
    for (n, line) in lines.enumerate() {
        let bad = |why: &str| format!("map line {}: {why}: `{line}`", n + 2);
        let mut rest = line;
        let mut cols = [0u64; 4];
        for (i, c) in cols.iter_mut().enumerate() {
            rest = rest.trim_start_matches(' ');
            let end = rest
                .find(' ')
                .ok_or_else(|| bad("fewer than five columns"))?;
            let tok = &rest[..end];
            *c = if i < 3 {
                u64::from_str_radix(tok, 16)
            } else {
                tok.parse()
            }
            .map_err(|_| bad("a column is not a number"))?;
            rest = &rest[end..];
        }
        let rest = rest
            .strip_prefix(' ')
            .ok_or_else(|| bad("no space after the Align column"))?;
        let name = rest.trim_start_matches(' ');
        let indent = rest.len() - name.len();
        if name.is_empty() || indent % 8 != 0 || indent > 16 {
            return Err(bad("the name is not indented by 0, 8 or 16 spaces"));
        }
        let [vma, lma, size, align] = cols;
        match indent / 8 {
            0 => out.push(MapSection {
                name: name.to_string(),
                vma,
                lma,
                size,
                align,
                inputs: Vec::new(),
                symbols: 0,
            }),
            1 => out
                .last_mut()
                .ok_or_else(|| bad("input section before any output section"))?
                .inputs
                .push(MapInput {
                    name: name.to_string(),
                    size,
                }),
            _ => {
                out.last_mut()
                    .ok_or_else(|| bad("symbol before any output section"))?
                    .symbols += 1
            }
        }
    }
    Ok(out)
}

/// Output sections whose size is not compared: `.comment` holds the linker's own name
/// (`Linker: weld ...` vs `Linker: Debian LLD ...`), so its size differs by design.
pub const MAP_SIZE_EXEMPT: &[&str] = &[".comment"];

/// Compares two parsed maps at the levels this suite asserts, each reported on its own:
///
/// 1. the output sections: the same names in the same order;
/// 2. their sizes and alignments (except `MAP_SIZE_EXEMPT`);
/// 3. for each output section, the input sections (`FILE:(SECTION)`) in the same order.
///
/// Addresses are not asserted (the differential suite compares program headers, not the
/// layout); symbol lines are not compared.
pub fn compare_maps(weld: &[MapSection], lld: &[MapSection]) -> Vec<String> {
    let mut problems = Vec::new();
    let wn: Vec<&str> = weld.iter().map(|s| s.name.as_str()).collect();
    let ln: Vec<&str> = lld.iter().map(|s| s.name.as_str()).collect();
    if wn != ln {
        problems.push(format!(
            "level 1 (output sections and their order) differs: {}",
            crate::text_diff("weld", &join_lines(&wn), "lld", &join_lines(&ln))
        ));
    }
    // Levels 2 and 3 for the sections both maps have (matched by name, first occurrence).
    let mut sizes = Vec::new();
    let mut inputs = Vec::new();
    for l in lld {
        let Some(w) = weld.iter().find(|w| w.name == l.name) else {
            continue;
        };
        if (w.size != l.size && !MAP_SIZE_EXEMPT.contains(&l.name.as_str())) || w.align != l.align {
            sizes.push(format!(
                "{}: weld size {:#x} align {}, lld size {:#x} align {}",
                l.name, w.size, w.align, l.size, l.align
            ));
        }
        let wi: Vec<&str> = w.inputs.iter().map(|i| i.name.as_str()).collect();
        let li: Vec<&str> = l.inputs.iter().map(|i| i.name.as_str()).collect();
        if wi != li {
            inputs.push(format!(
                "in {}: {}",
                l.name,
                crate::text_diff("weld", &join_lines(&wi), "lld", &join_lines(&li))
            ));
        }
    }
    if !sizes.is_empty() {
        problems.push(format!(
            "level 2 (output section sizes and alignments) differs:\n{}",
            list_block("sections", &sizes)
        ));
    }
    if !inputs.is_empty() {
        let shown: Vec<&String> = inputs.iter().take(5).collect();
        let mut s = format!(
            "level 3 (input sections of each output section, in order) differs in {} output sections:\n",
            inputs.len()
        );
        for i in shown {
            s.push_str(i);
        }
        if inputs.len() > 5 {
            s.push_str(&format!("... and {} more sections\n", inputs.len() - 5));
        }
        problems.push(s);
    }
    problems
}

// ---------------------------------------------------------------------------------------------
// Small programs built in a work directory

/// A work directory in which sources from `testdata/gc/<scenario>/` are compiled and archived,
/// and programs are linked through a real compiler driver. Objects, archives and outputs are
/// named relative to the directory (the driver runs in it), so reports read `libzip.a(zip.o)`.
pub struct Workdir {
    pub dir: PathBuf,
    pub compiler: Compiler,
    pub cxx: bool,
}

impl Workdir {
    pub fn new(dir: &Path, compiler: Compiler) -> Workdir {
        Workdir {
            dir: dir.to_path_buf(),
            compiler,
            cxx: false,
        }
    }

    /// Compiles `testdata/gc/<src>` (e.g. `seed/bar.c`) to `<obj>` with `-O1 -g0` and `flags`.
    pub fn compile(&self, src: &str, obj: &str, flags: &[&str]) -> Result<PathBuf, String> {
        let path = data_dir().join(src);
        if !path.is_file() {
            return Err(format!("missing test source {}", path.display()));
        }
        let cxx = src.ends_with(".cpp") || src.ends_with(".cc");
        let mut cmd = Command::new(tools::find(self.compiler.driver(cxx))?);
        cmd.current_dir(&self.dir)
            .args(["-c", "-O1", "-g0"])
            .args(flags)
            .arg(&path)
            .arg("-o")
            .arg(obj);
        run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("compiling {src}"))?;
        Ok(self.dir.join(obj))
    }

    /// `ar rcs <lib> <members...>` (replacing any older archive of that name).
    pub fn archive(&self, lib: &str, members: &[&str]) -> Result<PathBuf, String> {
        let _ = std::fs::remove_file(self.dir.join(lib));
        let mut cmd = Command::new(tools::find(tools::AR)?);
        cmd.current_dir(&self.dir).arg("rcs").arg(lib).args(members);
        run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("archiving {lib}"))?;
        Ok(self.dir.join(lib))
    }

    /// Links `args` into `out` through the compiler driver with `linker` (any older `out` is
    /// removed first). Err only if the driver could not be started.
    pub fn link(&self, linker: &Linker, out: &str, args: &[&str]) -> Result<Output, String> {
        let _ = std::fs::remove_file(self.dir.join(out));
        let mut cmd = Command::new(tools::find(self.compiler.driver(self.cxx))?);
        cmd.current_dir(&self.dir)
            .args(self.compiler.use_linker_args(linker)?)
            .args(args)
            .arg("-o")
            .arg(out);
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        paths::write(&self.dir.join(format!("{out}.link.txt")), o.report())?;
        Ok(o)
    }

    /// Like `link`, but the link must succeed, produce `out`, and print no panic.
    pub fn link_ok(&self, linker: &Linker, out: &str, args: &[&str]) -> Result<Output, String> {
        let o = self.link(linker, out, args)?;
        check_linked(&o, &self.dir.join(out), linker.label)?;
        Ok(o)
    }

    /// Runs `./<program>` in the directory; it must exit with 0.
    pub fn run_ok(&self, program: &str) -> Result<Output, String> {
        let o = crate::build::run_program(&self.dir.join(program))?;
        paths::write(&self.dir.join(format!("{program}.run.txt")), o.report())?;
        if o.success() {
            Ok(o)
        } else {
            Err(format!("{program} should exit with 0\n{}", o.report()))
        }
    }
}

/// A link must have succeeded, written its output, and not panicked.
pub fn check_linked(o: &Output, out: &Path, label: &str) -> Result<(), String> {
    let err = o.stderr_str();
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        return Err(format!("{label} panicked\n{}", o.report()));
    }
    if !o.success() {
        let what = if label == "lld" {
            "the reference link with ld.lld-22 failed: the test or the harness is broken"
        } else {
            "weld's link failed"
        };
        return Err(format!("{what}\n{}", o.report()));
    }
    if !out.is_file() {
        return Err(format!(
            "{label}'s link exited 0 but wrote no {}\n{}",
            out.display(),
            o.report()
        ));
    }
    Ok(())
}

/// lld's diagnostics name the program they were run as: the shared renaming.
pub use crate::linkerr::rename_program;

/// The name a linker puts before `error:` when run by `compiler`'s driver: gcc runs it as
/// `<dir>/ld` (see `Linker::gcc_bin_dir`), clang by its path. weld always says `weld`.
pub fn diag_name_via(compiler: Compiler, linker: &Path) -> String {
    let name = tools::diag_name(linker);
    match compiler {
        Compiler::Gcc if name.starts_with("ld.lld") => "ld".to_string(),
        _ => name,
    }
}

/// lld's stderr as weld would print it through `compiler`'s driver: lld's program name becomes
/// weld's.
pub fn lld_stderr_as_weld(lld: &Output, compiler: Compiler) -> Result<String, String> {
    Ok(rename_program(
        &lld.stderr_str(),
        &diag_name_via(compiler, &tools::lld()?),
        &diag_name_via(compiler, &tools::weld()?),
    ))
}

/// Whether `text` matches `pattern`, in which `*` stands for any run of characters.
pub fn wildcard_match(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Names of the symbols defined (section index not `UND`) in a file's `.symtab` and `.dynsym`.
pub fn defined_symbols(path: &Path) -> Result<std::collections::BTreeSet<String>, String> {
    let mut cmd = Command::new(tools::find(tools::READELF)?);
    cmd.arg("-sW").arg(path);
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-readelf-22 -sW")?;
    Ok(parse_defined_symbols(&out.stdout_str()))
}

/// Parses `llvm-readelf -sW`: `Num: Value Size Type Bind Vis Ndx Name`.
pub fn parse_defined_symbols(text: &str) -> std::collections::BTreeSet<String> {
    text.lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let numbered = t.first()?.strip_suffix(':')?.parse::<u64>().is_ok();
            (numbered && t.len() >= 8 && t[6] != "UND").then(|| t[7].to_string())
        })
        .collect()
}

/// The count of the `KEY N` line of weld's `--stats` (`key` with its colon), in `stderr`.
pub fn stats_count(stderr: &str, key: &str) -> Result<usize, String> {
    stderr
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(key))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("no `{key} N` line in weld's --stats\n{stderr}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(r: &str, e: &str, s: &str) -> Extraction {
        Extraction {
            reference: r.into(),
            extracted: e.into(),
            symbol: s.into(),
        }
    }

    #[test]
    fn why_extract_parses_and_needs_the_header() {
        let l = parse_why_extract("reference\textracted\tsymbol\nbar.o\tlibzip.a(zip.o)\tzip\n")
            .unwrap();
        assert_eq!(l, [x("bar.o", "libzip.a(zip.o)", "zip")]);
        assert!(parse_why_extract("").is_err());
        assert!(parse_why_extract("reference\textracted\tsymbol\nonly two\tfields\n").is_err());
        assert_eq!(
            parse_why_extract("reference\textracted\tsymbol\n").unwrap(),
            []
        );
    }

    #[test]
    fn extraction_differences_are_told_apart() {
        let lld = [x("a.o", "l.a(m.o)", "f"), x("a.o", "l.a(n.o)", "g")];
        assert!(compare_extractions(&lld, &lld).is_empty());
        let reasons = [x("b.o", "l.a(m.o)", "f"), x("a.o", "l.a(n.o)", "g")];
        let p = compare_extractions(&reasons, &lld);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].contains("only the reasons differ"), "{p:?}");
        let order = [x("a.o", "l.a(n.o)", "g"), x("a.o", "l.a(m.o)", "f")];
        let p = compare_extractions(&order, &lld);
        assert!(p.len() == 1 && p[0].contains("different order"), "{p:?}");
        let both = [x("a.o", "l.a(n.o)", "g"), x("b.o", "l.a(m.o)", "f")];
        let p = compare_extractions(&both, &lld);
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("only the reasons differ"), "{p:?}");
        assert!(p[1].contains("different order"), "{p:?}");
        let set = [x("a.o", "l.a(m.o)", "f")];
        let p = compare_extractions(&set, &lld);
        assert!(p[0].contains("set of extracted members"), "{p:?}");
        assert!(p[0].contains("l.a(n.o)"), "{p:?}");
    }

    #[test]
    fn removed_sections_sets_then_order() {
        let s = "removing unused section a.o:(.text.f)\nsomething else\nremoving unused section a.o:(.data.x)\n";
        let r = removed_sections(s);
        assert_eq!(r.len(), 2);
        assert!(compare_removed(&r, &r).is_empty());
        let rev: Vec<String> = r.iter().rev().cloned().collect();
        let p = compare_removed(&rev, &r);
        assert!(p.len() == 1 && p[0].contains("different order"), "{p:?}");
        let p = compare_removed(&r[..1], &r);
        assert!(p[0].contains("a.o:(.data.x)"), "{p:?}");
    }

    const MAP: &str = "             VMA              LMA     Size Align Out     In      Symbol
          200270           200270       20     4 .note.ABI-tag
          200270           200270       20     4         crt1.o:(.note.ABI-tag)
          200270           200270       20     1                 __abi_tag
          200500           200500    1bdd8    32 .rodata
          200500           200500       10     4         <internal>:(.rodata.cst4)
          202600           202600      360    32         libc.a(libc-start.o):(.rodata)
               0                0       6a     1 .comment
               0                0       6a     1         <internal>:(.comment)
";

    #[test]
    fn map_parses_levels() {
        let m = parse_map(MAP).unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!(m[1].name, ".rodata");
        assert_eq!(m[1].size, 0x1bdd8);
        assert_eq!(m[1].align, 32);
        assert_eq!(m[1].inputs[1].name, "libc.a(libc-start.o):(.rodata)");
        assert_eq!(m[0].symbols, 1);
        assert!(parse_map("junk\n").is_err());
        assert!(parse_map(&format!("{MAP_HEADER}\n  1 2 3 4   .x\n")).is_err());
    }

    #[test]
    fn map_comparison_levels() {
        let lld = parse_map(MAP).unwrap();
        assert!(compare_maps(&lld, &lld).is_empty());
        let mut w = lld.clone();
        w[2].size = 0x20; // .comment: exempt
        assert!(compare_maps(&w, &lld).is_empty());
        w[1].size = 1;
        let p = compare_maps(&w, &lld);
        assert!(p.len() == 1 && p[0].starts_with("level 2"), "{p:?}");
        let mut w = lld.clone();
        w[1].inputs.reverse();
        let p = compare_maps(&w, &lld);
        assert!(p.len() == 1 && p[0].starts_with("level 3"), "{p:?}");
        let mut w = lld.clone();
        w.swap(0, 1);
        let p = compare_maps(&w, &lld);
        assert!(p[0].starts_with("level 1"), "{p:?}");
    }

    #[test]
    fn defined_symbols_skip_undefined_ones() {
        let t = "Symbol table '.symtab' contains 3 entries:\n   Num:    Value          Size Type    Bind   Vis       Ndx Name\n     0: 0000000000000000     0 NOTYPE  LOCAL  DEFAULT   UND \n     1: 0000000000001130    11 FUNC    GLOBAL DEFAULT    14 zip\n     2: 0000000000000000     0 NOTYPE  WEAK   DEFAULT   UND weak_fn\n";
        let d = parse_defined_symbols(t);
        assert_eq!(d.into_iter().collect::<Vec<_>>(), ["zip"]);
    }

    #[test]
    fn wildcards() {
        assert!(wildcard_match("a*c", "abc"));
        assert!(wildcard_match("a*c", "ac"));
        assert!(wildcard_match("*/x.so:(f)", "live/lib/x.so:(f)"));
        assert!(!wildcard_match("a*c", "abd"));
        assert!(!wildcard_match("ab*bc", "abc"));
        assert!(wildcard_match("exact", "exact"));
        assert!(!wildcard_match("exact", "exactly"));
    }

    #[test]
    fn renames_the_program_in_diagnostics() {
        assert_eq!(
            rename_program("ld.lld-22: error: x\n>>> y\n", "ld.lld-22", "weld"),
            "weld: error: x\n>>> y\n"
        );
    }
}
