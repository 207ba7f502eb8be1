//! `-r`/`--relocatable`, against ld.lld-22 and GNU ld (issue #15, part 1). Every trial compiles
//! real programs from `testdata/relocatable/<case>/` (see its README.md), has ld.lld-22 and weld
//! (called directly) each make a relocatable object of some of the objects, and checks what the
//! README's table says:
//!
//! * the run matrix: the program linked from each `-r` output (lld's and weld's) by ld.lld-22,
//!   by weld (through `clang-22 -fuse-ld=lld --ld-path=<linker>`) and by GNU ld (through
//!   `gcc -B<dir with ld -> ld.bfd>`), and the direct links of the original objects by lld and
//!   by weld: every run prints the same as lld's direct link, which must print the output stated
//!   here (the scenario is broken otherwise);
//! * the structure of weld's `-r` output against lld's: section groups (kind, signature, member
//!   names), content sections (name, type, flags), non-section symbols (name, bind, type,
//!   visibility, section name, value) and the relocations of every section (offset, type,
//!   symbol or section name, addend), normalised where weld legitimately differs (see
//!   `structure`);
//! * merged string and debug sections byte for byte, `llvm-dwarfdump-22 --verify`, gdb's
//!   breakpoints and backtraces, `-d` commons against GNU ld, `--gc-sections` reports, bitcode,
//!   archives, compressed debug sections, `-r` of an `-r` output, and with `-r`: which locals
//!   `--discard-*` keeps, `--wrap`, `--unique`, `--build-id`;
//! * the errors lld gives for options `-r` cannot be combined with, and for a shared library
//!   given to `-r`: exit code, diagnostics but for the program name, no output file left.
//!
//! lld's side failing means the scenario or the harness is broken. A missing tool is a failure,
//! never a skip.

use libtest_mimic::{Arguments, Trial};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::build::Compiler;
use weld_tests::checks::{expect_lld, reference, same_lines, strings, Problems};
use weld_tests::dynlink::{self, arg, trial};
use weld_tests::run::{self, Output};
use weld_tests::tools::{self, Linker};
use weld_tests::{elf, paths, Check};

const GROUP: &str = "relocatable";
const LLVM_AR: &str = "llvm-ar-22";
const NM: &str = "llvm-nm-22";
const OBJCOPY: &str = "llvm-objcopy-22";

fn main() {
    let args = Arguments::from_args();
    libtest_mimic::run(&args, trials()).exit();
}

// =============================================================================================
// Trials

/// What the C program of `c_program/` prints.
const C_PROGRAM_OUT: &str = "hello relocatable world\n\
                             table_sum=62\n\
                             apply square=49 twice=14\n\
                             tls=15 21 ie=40\n\
                             counter=6\n\
                             ctors=3: 101 201 65535\n";

/// What the C++ program of `cxx/` prints.
const CXX_OUT: &str = "total=11 describer:7:2.000000:7\n\
                       parsed 42\n\
                       invalid: not a number: x1\n\
                       range: box over 1000\n\
                       more=7 -1\n\
                       counter=3 sum=11\n";

/// What `gc/main.c` prints.
const GC_OUT: &str = "used string 18\n";

/// `errors`: (variant, linker arguments before `main.o`). `{lib}` is a shared library,
/// `libshared.so` in `{dir}`: `-r` links statically, so `-lshared` does not find it.
const ERROR_VARIANTS: &[(&str, &[&str])] = &[
    ("shared", &["-r", "-shared"]),
    ("pie", &["-r", "-pie"]),
    ("icf_all", &["-r", "--icf=all"]),
    ("export_dynamic", &["-r", "--export-dynamic"]),
    ("export_dynamic_short", &["--relocatable", "-E"]),
    ("shared_pie_icf", &["-r", "-pie", "--icf=safe", "-shared"]),
    ("shared_library", &["-r", "{lib}"]),
    ("shared_library_bdynamic", &["-r", "-Bdynamic", "{lib}"]),
    (
        "shared_library_by_name",
        &["-r", "-Bdynamic", "-L{dir}", "-lshared"],
    ),
];

fn trials() -> Vec<Trial> {
    let mut t = Vec::new();
    for c in [Compiler::Clang, Compiler::Gcc] {
        t.push(trial(GROUP, format!("c_program::{}", c.name()), move |d| {
            c_program(d, c)
        }));
        t.push(trial(GROUP, format!("cxx::{}", c.name()), move |d| {
            cxx(d, c, &[])
        }));
    }
    // GCC's `-g3` puts each header's macros in a COMDAT group named by a local symbol (`wm4.*`)
    // defined in the group section itself.
    t.push(trial(GROUP, "cxx::clang_g".into(), |d| {
        cxx(d, Compiler::Clang, &["-g"])
    }));
    t.push(trial(GROUP, "cxx::gcc_g3".into(), |d| {
        cxx(d, Compiler::Gcc, &["-g3"])
    }));
    for (name, flag) in [
        ("default", ""),
        ("all", "--discard-all"),
        ("locals", "-X"),
        ("none", "--discard-none"),
    ] {
        t.push(trial(GROUP, format!("discard::{name}"), move |d| {
            discard(d, flag)
        }));
    }
    for c in [Compiler::Clang, Compiler::Gcc] {
        t.push(trial(
            GROUP,
            format!("merge_debug::{}", c.name()),
            move |d| merge_debug(d, c),
        ));
    }
    t.push(trial(GROUP, "define_common".into(), define_common));
    t.push(trial(GROUP, "gc_sections".into(), gc_sections));
    t.push(trial(GROUP, "bitcode".into(), bitcode));
    t.push(trial(GROUP, "archive::needed".into(), |d| {
        archive(d, false)
    }));
    t.push(trial(GROUP, "archive::whole".into(), |d| archive(d, true)));
    t.push(trial(GROUP, "compressed::gz_input".into(), |d| {
        compressed(d, false)
    }));
    t.push(trial(GROUP, "compressed::zlib_output".into(), |d| {
        compressed(d, true)
    }));
    t.push(trial(GROUP, "twice".into(), twice));
    for c in [Compiler::Clang, Compiler::Gcc] {
        t.push(trial(GROUP, format!("twice_cxx::{}", c.name()), move |d| {
            twice_cxx(d, c)
        }));
    }
    t.push(trial(GROUP, "wrap".into(), wrap));
    t.push(trial(GROUP, "unique".into(), unique));
    t.push(trial(GROUP, "shared_library".into(), shared_library));
    for (name, flag) in [
        ("default", "--build-id"),
        ("md5", "--build-id=md5"),
        ("hex", "--build-id=0xfeedc0de"),
    ] {
        t.push(trial(GROUP, format!("build_id::{name}"), move |d| {
            build_id(d, flag)
        }));
    }
    for &(name, args) in ERROR_VARIANTS {
        t.push(trial(GROUP, format!("errors::{name}"), move |d| {
            error_case(d, args)
        }));
    }
    t
}

// =============================================================================================
// Building and linking

fn src_dir(case: &str) -> PathBuf {
    paths::workspace_root()
        .join("testdata")
        .join("relocatable")
        .join(case)
}

/// `testdata/relocatable/<case>/<file>` compiled with `c` (`-O1 -g0 FLAGS`, cached across runs).
fn obj(case: &str, file: &str, c: Compiler, flags: &[&str]) -> Result<PathBuf, String> {
    dynlink::object(&src_dir(case), file, c, flags)
}

/// The objects of `c_program/`: `main.o` and the four that go through `-r`, compiled with
/// `flags` (`tls.c` also with `-fPIC`, for the general-dynamic TLS model).
fn c_objects(c: Compiler, flags: &[&str]) -> Result<(PathBuf, Vec<PathBuf>), String> {
    let mut f = vec!["-fcommon"];
    f.extend_from_slice(flags);
    let main = obj("c_program", "main.c", c, &f)?;
    let mut rest = Vec::new();
    for src in ["strings.c", "funcs.c", "tls.c", "counter.c"] {
        let mut f = f.clone();
        if src == "tls.c" {
            f.push("-fPIC");
        }
        rest.push(obj("c_program", src, c, &f)?);
    }
    Ok((main, rest))
}

/// GNU ld, for final links through gcc (`-B<dir>` with `ld` -> `ld.bfd`) and for `-r -d`.
fn bfd() -> Result<Linker, String> {
    Ok(Linker {
        label: "bfd",
        path: tools::find("ld.bfd")?,
    })
}

/// Runs the linker `l` directly: `ARGS -o <dir>/<out>`, in `dir`. The report is saved as
/// `<out>.link.txt`.
fn link_directly(l: &Linker, dir: &Path, args: &[String], out: &str) -> Result<Output, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(out);
    let _ = std::fs::remove_file(&path);
    let mut cmd = Command::new(&l.path);
    cmd.current_dir(dir).args(args).arg("-o").arg(&path);
    let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    paths::write(&dir.join(format!("{out}.link.txt")), o.report())?;
    Ok(o)
}

/// `-r ARGS` by `l` into `<dir>/<out>`: Ok only if the link succeeded, printed no panic and
/// wrote the file.
fn relocatable(l: &Linker, dir: &Path, args: &[String], out: &str) -> Result<PathBuf, String> {
    let mut a = vec!["-r".to_string()];
    a.extend_from_slice(args);
    let o = link_directly(l, dir, &a, out)?;
    let path = dir.join(out);
    let err = o.stderr_str();
    if err.contains("panicked") || !o.success() || !path.is_file() {
        return Err(format!(
            "{}'s `-r` link into {out} failed\n{}",
            l.label,
            o.report()
        ));
    }
    // An ELF64 little-endian x86-64 relocatable object (`ET_REL`).
    let head = paths::read(&path)?;
    let ok = head.starts_with(b"\x7fELF\x02\x01")
        && head.get(16..18) == Some(&[1, 0])
        && head.get(18..20) == Some(&[62, 0]);
    if !ok {
        return Err(format!(
            "{}'s `-r` output {out} is not an x86-64 ET_REL object",
            l.label
        ));
    }
    Ok(path)
}

/// The final link of `args` by `l` into `<dir>/<out>`, through clang (C++: clang++) for lld and
/// weld, through gcc (g++) for GNU ld. Ok only if it succeeded and the program comes from `l`.
fn final_link(
    l: &Linker,
    cxx: bool,
    dir: &Path,
    args: &[String],
    out: &str,
) -> Result<PathBuf, String> {
    let path = dir.join(out);
    let _ = std::fs::remove_file(&path);
    let c = if l.label == "bfd" {
        Compiler::Gcc
    } else {
        Compiler::Clang
    };
    let mut cmd = dynlink::link_command(c, cxx, l, args, &path)?;
    let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    paths::write(&dir.join(format!("{out}.link.txt")), o.report())?;
    if o.stderr_str().contains("panicked") || !o.success() || !path.is_file() {
        return Err(format!(
            "{}'s link of {out} failed\n{}",
            l.label,
            o.report()
        ));
    }
    if l.label == "bfd" {
        let comment = elf::section_strings(&path, ".comment")?;
        if comment.contains("Linker:") {
            return Err(format!(
                "{out} was not linked by GNU ld: .comment is\n{comment}"
            ));
        }
        Ok(path)
    } else {
        dynlink::check_linked_by(l, &path).map(|()| path)
    }
}

/// Runs `exe` in its directory; saved as `<exe>.run.txt`.
fn run_prog(exe: &Path) -> Result<Output, String> {
    let dir = exe.parent().unwrap_or(Path::new("."));
    let o = dynlink::run_exe(exe, &[], None, dir)?;
    paths::write(&exe.with_extension("run.txt"), o.report())?;
    Ok(o)
}

/// The `-r` step of a trial: makes the relocatable object with the linker given, in the
/// directory given.
type RStep<'a> = &'a dyn Fn(&Linker, &Path) -> Result<PathBuf, String>;

/// The run matrix (see the module doc). `outside` are the objects linked next to the `-r`
/// output, `direct` all the original inputs. Returns lld's and weld's `-r` outputs and the
/// problems found.
fn matrix(
    dir: &Path,
    cxx: bool,
    outside: &[String],
    direct: &[String],
    rstep: RStep,
    want: &str,
) -> Result<(PathBuf, PathBuf, Problems), String> {
    let [lld, weld] = dynlink::linkers()?;
    let bfd = bfd()?;
    let l_direct = reference(final_link(
        &lld,
        cxx,
        &dir.join("direct-lld"),
        direct,
        "prog",
    ))?;
    let l_run = run_prog(&l_direct)?;
    expect_lld(l_run.success() && l_run.stdout_str() == want, || {
        format!(
            "the program linked by ld.lld-22 from the objects should print {want:?}\n{}",
            l_run.report()
        )
    })?;
    let mut p = Problems::default();
    let run_check = |p: &mut Problems, what: String, r: Result<PathBuf, String>| match r {
        Ok(exe) => match run_prog(&exe) {
            Ok(o) => p.check(compare_run(&what, &o, &l_run)),
            Err(e) => p.0.push(format!("{what}: {e}")),
        },
        Err(e) => p.0.push(format!("{what}: {e}")),
    };
    run_check(
        &mut p,
        "weld's direct link".into(),
        final_link(&weld, cxx, &dir.join("direct-weld"), direct, "prog"),
    );
    let l_rel = reference(rstep(&lld, &dir.join("r-lld")))?;
    let w_rel = rstep(&weld, &dir.join("r-weld"));
    for (rl, rel) in [("lld", Ok(l_rel.clone())), ("weld", w_rel.clone())] {
        let rel = match rel {
            Ok(r) => r,
            Err(e) => {
                p.0.push(e);
                continue;
            }
        };
        for fl in [&lld, &weld, &bfd] {
            let d = dir
                .join(format!("r-{rl}"))
                .join(format!("final-{}", fl.label));
            let mut args = outside.to_vec();
            args.push(arg(&rel));
            let exe = final_link(fl, cxx, &d, &args, "prog");
            let what = format!("{}'s link of {}'s -r output", fl.label, rl);
            if rl == "lld" {
                // lld's -r output must work everywhere, or the scenario tests nothing.
                let exe = reference(exe)?;
                let o = run_prog(&exe)?;
                reference(compare_run(&what, &o, &l_run))?;
            } else {
                run_check(&mut p, what, exe);
            }
        }
    }
    let w_rel = w_rel?;
    Ok((l_rel, w_rel, p))
}

/// A run must be the reference run: status, stdout, stderr.
fn compare_run(what: &str, got: &Output, reference: &Output) -> Check {
    let d = run::run_differences(what, got, "lld's direct link", reference);
    if d.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{what}: the program behaves differently:\n{}\n{}",
            d.join("\n"),
            got.report()
        ))
    }
}

/// An `RStep` of `-r FLAGS INPUTS` into `r.o`.
fn r_of(flags: &[String], inputs: &[String]) -> impl Fn(&Linker, &Path) -> Result<PathBuf, String> {
    let mut a = flags.to_vec();
    a.extend_from_slice(inputs);
    move |l: &Linker, d: &Path| relocatable(l, d, &a, "r.o")
}

// =============================================================================================
// Reading outputs

/// stdout of tool `name ARGS`, which must succeed.
fn tool(name: &str, args: &[String]) -> Result<String, String> {
    let mut cmd = Command::new(tools::find(name)?);
    cmd.args(args);
    Ok(run::run(&mut cmd, run::TOOL_TIMEOUT)?
        .ok(&format!("{name} {}", args.join(" ")))?
        .stdout_str())
}

fn readelf(args: &[&str], file: &Path) -> Result<String, String> {
    let mut a = strings(args);
    a.push("-W".into());
    a.push(arg(file));
    tool(tools::READELF, &a)
}

/// One section header: index, name, type, flag letters.
#[derive(Debug, Clone)]
struct Shdr {
    index: usize,
    name: String,
    sh_type: String,
    flags: String,
    align: String,
}

/// The section headers of `file` (`llvm-readelf-22 -S`).
fn section_headers(file: &Path) -> Result<Vec<Shdr>, String> {
    let text = readelf(&["-S"], file)?;
    let mut v = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix('[') else {
            continue;
        };
        let Some((num, rest)) = rest.split_once(']') else {
            continue;
        };
        let Ok(index) = num.trim().parse::<usize>() else {
            continue;
        };
        let t: Vec<&str> = rest.split_whitespace().collect();
        if index == 0 || t.len() < 9 {
            continue;
        }
        // Name Type Address Off Size ES [Flg] Lk Inf Al
        let flags = if t.len() >= 10 {
            t[6].to_string()
        } else {
            String::new()
        };
        v.push(Shdr {
            index,
            name: t[0].to_string(),
            sh_type: t[1].to_string(),
            flags,
            align: t.last().map(|s| s.to_string()).unwrap_or_default(),
        });
    }
    Ok(v)
}

/// Section types that describe the object rather than hold contents.
const METADATA_TYPES: &[&str] = &[
    "SYMTAB",
    "STRTAB",
    "RELA",
    "REL",
    "GROUP",
    "SYMTAB SECTION INDICES",
    "LLVM_ADDRSIG",
];

/// Content sections as sorted `name type flags align=N` lines. lld's empty `COMMON` section
/// (where it would put commons, which stay common under `-r`) is left out: weld writes none.
fn content_sections(file: &Path) -> Result<Vec<String>, String> {
    let mut v: Vec<String> = section_headers(file)?
        .into_iter()
        .filter(|s| !METADATA_TYPES.contains(&s.sh_type.as_str()) && s.name != "COMMON")
        .map(|s| format!("{} {} {} align={}", s.name, s.sh_type, s.flags, s.align))
        .collect();
    v.sort();
    Ok(v)
}

/// Section groups as sorted `kind [signature]: members` lines (`llvm-readelf-22 -g`).
fn section_groups(file: &Path) -> Result<Vec<String>, String> {
    let text = readelf(&["--section-groups"], file)?;
    let mut v = Vec::new();
    let mut cur: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        let l = line.trim();
        if l.contains("group section [") {
            if let Some(c) = cur.take() {
                v.push(c);
            }
            let kind = l.split(" group section").next().unwrap_or("").to_string();
            let sig = l
                .split_once("' [")
                .and_then(|(_, r)| r.split_once("] contains"))
                .map(|(s, _)| s.to_string())
                .unwrap_or_default();
            cur = Some((format!("{kind} [{sig}]"), Vec::new()));
        } else if let (Some(c), Some(rest)) = (cur.as_mut(), l.strip_prefix('[')) {
            if let Some((num, name)) = rest.split_once(']') {
                if num.trim().parse::<usize>().is_ok() {
                    c.1.push(name.trim().to_string());
                }
            }
        }
    }
    if let Some(c) = cur.take() {
        v.push(c);
    }
    let mut lines: Vec<String> = v
        .into_iter()
        .map(|(head, members)| format!("{head}: {}", members.join(" ")))
        .collect();
    lines.sort();
    Ok(lines)
}

/// One `.symtab` entry.
#[derive(Debug, Clone)]
struct SymLine {
    value: u64,
    size: u64,
    sym_type: String,
    bind: String,
    vis: String,
    /// `UND`, `ABS`, `COM` or the section's name.
    section: String,
    name: String,
}

/// The symbol table of `file`, in order, without the null entry.
fn symtab(file: &Path) -> Result<Vec<SymLine>, String> {
    let names: BTreeMap<usize, String> = section_headers(file)?
        .into_iter()
        .map(|s| (s.index, s.name))
        .collect();
    let text = readelf(&["-s"], file)?;
    let mut v = Vec::new();
    for line in text.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 7 || !t[0].ends_with(':') || t[0] == "Num:" {
            continue;
        }
        if t[0] == "0:" {
            continue;
        }
        let section = match t[6].parse::<usize>() {
            Ok(i) => names.get(&i).cloned().unwrap_or_else(|| format!("#{i}")),
            Err(_) => t[6].to_string(),
        };
        v.push(SymLine {
            value: u64::from_str_radix(t[1], 16).map_err(|e| format!("{line}: {e}"))?,
            size: t[2].parse().unwrap_or(u64::MAX),
            sym_type: t[3].to_string(),
            bind: t[4].to_string(),
            vis: t[5].to_string(),
            section,
            name: t.get(7).map(|s| s.to_string()).unwrap_or_default(),
        });
    }
    Ok(v)
}

/// Non-section symbols as sorted `name bind type vis section value` lines. Section symbols are
/// left out: lld copies each input's, weld writes one per output section.
fn symbol_lines(file: &Path) -> Result<Vec<String>, String> {
    let mut v: Vec<String> = symtab(file)?
        .into_iter()
        .filter(|s| s.sym_type != "SECTION")
        .map(|s| {
            format!(
                "{} {} {} {} {} 0x{:x}",
                s.name, s.bind, s.sym_type, s.vis, s.section, s.value
            )
        })
        .collect();
    v.sort();
    Ok(v)
}

/// The relocations of allocated sections: per relocated section (sorted by name, then
/// contents), its relocations in order as `offset type symbol addend`. `.eh_frame` is compared
/// without offsets and without lld's `R_X86_64_NONE` entries: lld copies `.eh_frame` whole
/// under `-r`, keeping the FDEs of discarded COMDAT code with their relocations turned to
/// `R_X86_64_NONE`; weld leaves those FDEs out.
fn alloc_relocations(file: &Path) -> Result<Vec<String>, String> {
    relocations(file, true)
}

/// `alloc_relocations`, or (`alloc_only` false) those of every section, debug sections too.
fn relocations(file: &Path, alloc_only: bool) -> Result<Vec<String>, String> {
    let shdrs = section_headers(file)?;
    let alloc: BTreeSet<String> = shdrs
        .iter()
        .filter(|s| (!alloc_only || s.flags.contains('A')) && s.sh_type != "RELA")
        .map(|s| s.name.clone())
        .collect();
    let text = readelf(&["-r"], file)?;
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let mut cur: Option<usize> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Relocation section '") {
            let name = rest.split('\'').next().unwrap_or("");
            let target = name.strip_prefix(".rela").unwrap_or(name).to_string();
            cur = if alloc.contains(&target) {
                groups.push((target, Vec::new()));
                Some(groups.len() - 1)
            } else {
                None
            };
            continue;
        }
        let Some(gi) = cur else { continue };
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 3 || !t[2].starts_with("R_X86_64") {
            continue;
        }
        let eh = groups[gi].0 == ".eh_frame";
        if eh && t[2] == "R_X86_64_NONE" {
            continue;
        }
        // Offset Info Type [Value Name +|- Addend] or, without a symbol, Offset Info Type Addend
        let (sym, addend) = if t.len() >= 7 {
            (t[4].to_string(), format!("{}{}", t[5], t[6]))
        } else {
            (
                String::new(),
                t.get(3).map(|s| s.to_string()).unwrap_or_default(),
            )
        };
        let offset = if eh {
            String::new()
        } else {
            format!("0x{} ", t[0].trim_start_matches('0'))
        };
        groups[gi]
            .1
            .push(format!("{offset}{} {sym} {addend}", t[2]));
    }
    let mut lines: Vec<String> = groups
        .into_iter()
        .map(|(name, rels)| format!("[{name}]\n  {}", rels.join("\n  ")))
        .collect();
    lines.sort();
    Ok(lines)
}

/// The contents of the allocated `PROGBITS` sections whose names occur once in lld's output
/// (all but `.eh_frame`, see `alloc_relocations`) must be lld's byte for byte: code padded
/// with `int3`, merged constants laid out the same.
fn same_alloc_bytes(weld: &Path, lld: &Path) -> Result<Problems, String> {
    let mut p = Problems::default();
    let shdrs = section_headers(lld)?;
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for s in &shdrs {
        *count.entry(s.name.as_str()).or_default() += 1;
    }
    let dumps = lld
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."))
        .join("bytes");
    paths::fresh_dir(&dumps)?;
    let mut compared = 0;
    for s in &shdrs {
        if s.sh_type != "PROGBITS" || !s.flags.contains('A') || count[s.name.as_str()] != 1 {
            continue;
        }
        let l = section_bytes(lld, &s.name, &dumps.join("lld"))?;
        let w = section_bytes(weld, &s.name, &dumps.join("weld"))?;
        compared += 1;
        if w != l {
            p.0.push(format!(
                "the bytes of {} differ from lld's: weld {} bytes, lld {} (dumps in {})",
                s.name,
                w.map_or(0, |b| b.len()),
                l.map_or(0, |b| b.len()),
                dumps.display()
            ));
        }
    }
    expect_lld(compared > 0, || {
        format!("lld's output should have allocated sections to compare: {shdrs:?}")
    })?;
    Ok(p)
}

/// weld's `-r` output against lld's: groups, content sections, symbols, relocations, bytes.
fn structure(weld: &Path, lld: &Path) -> Result<Problems, String> {
    let mut p = Problems::default();
    // The listings compared, kept next to each output.
    for f in [weld, lld] {
        let listing = [
            section_groups(f)?,
            content_sections(f)?,
            symbol_lines(f)?,
            relocations(f, false)?,
        ]
        .map(|v| v.join("\n"))
        .join("\n\n");
        paths::write(&f.with_extension("structure.txt"), listing)?;
    }
    let l_groups = section_groups(lld)?;
    expect_lld(l_groups.iter().any(|g| g.starts_with("COMDAT")), || {
        format!("lld's -r output should have COMDAT groups: {l_groups:?}")
    })?;
    p.check(same_lines(
        "the section groups",
        &section_groups(weld)?,
        &l_groups,
    ));
    p.check(same_lines(
        "the content sections (name type flags alignment)",
        &content_sections(weld)?,
        &content_sections(lld)?,
    ));
    // lld also copies the local signature symbols of the groups it discarded (GCC defines them
    // in the group section), as absolute symbols; weld keeps only the kept group's.
    let signatures: BTreeSet<String> = l_groups
        .iter()
        .filter_map(|g| {
            g.split_once(" [")?
                .1
                .split_once("]:")
                .map(|(s, _)| s.to_string())
        })
        .collect();
    let syms = |f: &Path| -> Result<Vec<String>, String> {
        Ok(symbol_lines(f)?
            .into_iter()
            .filter(|l| {
                let name = l.split(' ').next().unwrap_or("");
                !(l.contains(" LOCAL NOTYPE DEFAULT ABS ") && signatures.contains(name))
            })
            .collect())
    };
    p.check(same_lines(
        "the symbols (name bind type vis section value)",
        &syms(weld)?,
        &syms(lld)?,
    ));
    p.check(same_lines(
        "the relocations (of debug sections too)",
        &relocations(weld, false)?,
        &relocations(lld, false)?,
    ));
    p.0.extend(same_alloc_bytes(weld, lld)?.0);
    Ok(p)
}

/// `nm`'s defined symbols of `file` whose type letter is in `types`, as `name type` lines.
fn nm_defined(file: &Path, types: &str) -> Result<BTreeSet<String>, String> {
    let text = tool(NM, &["--defined-only".into(), arg(file)])?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() == 3 && types.contains(t[1])).then(|| format!("{} {}", t[2], t[1]))
        })
        .collect())
}

/// The bytes of section `name` of `file`, or `None` if it has none.
fn section_bytes(file: &Path, name: &str, dir: &Path) -> Result<Option<Vec<u8>>, String> {
    if !section_headers(file)?.iter().any(|s| s.name == name) {
        return Ok(None);
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let out = dir.join(format!(
        "{}{name}.bin",
        file.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    tool(
        OBJCOPY,
        &[
            "--dump-section".into(),
            format!("{name}={}", out.display()),
            arg(file),
            arg(&dir.join("objcopy-discard.o")),
        ],
    )?;
    paths::read(&out).map(Some)
}

// =============================================================================================
// Cases

/// Case 1: the C program, `-r` of all but `main.o`.
fn c_program(dir: &Path, c: Compiler) -> Check {
    let (main, rest) = c_objects(c, &[])?;
    let inputs: Vec<String> = rest.iter().map(|p| arg(p)).collect();
    let mut direct = vec![arg(&main)];
    direct.extend(inputs.clone());
    let step = r_of(&[], &inputs);
    let (l_rel, w_rel, mut p) = matrix(dir, false, &[arg(&main)], &direct, &step, C_PROGRAM_OUT)?;
    // The pieces the program needs are all there: TLS symbols stay TLS, commons stay common,
    // the constructors keep their priorities.
    let w_syms = symbol_lines(&w_rel)?;
    let l_syms = symbol_lines(&l_rel)?;
    p.check(same_lines(
        "the symbols (name bind type vis section value)",
        &w_syms,
        &l_syms,
    ));
    let mut l_init: Vec<String> = content_sections(&l_rel)?
        .into_iter()
        .filter(|s| {
            s.starts_with(".init_array") || s.starts_with(".tdata") || s.starts_with(".tbss")
        })
        .collect();
    l_init.dedup();
    expect_lld(l_init.iter().any(|s| s.starts_with(".init_array.")), || {
        format!("lld's -r output should keep prioritised .init_array sections: {l_init:?}")
    })?;
    let mut w_init: Vec<String> = content_sections(&w_rel)?
        .into_iter()
        .filter(|s| {
            s.starts_with(".init_array") || s.starts_with(".tdata") || s.starts_with(".tbss")
        })
        .collect();
    w_init.dedup();
    p.0.extend(same_alloc_bytes(&w_rel, &l_rel)?.0);
    p.check(same_lines(
        ".init_array, .tdata and .tbss sections",
        &w_init,
        &l_init,
    ));
    p.check(same_lines(
        "the relocations of allocated sections",
        &alloc_relocations(&w_rel)?,
        &alloc_relocations(&l_rel)?,
    ));
    p.done()
}

/// Case 2: C++ with COMDAT groups and exceptions crossing the `-r` output's boundary.
fn cxx(dir: &Path, c: Compiler, flags: &[&str]) -> Check {
    let main = obj("cxx", "main.cpp", c, flags)?;
    let lib = obj("cxx", "lib.cpp", c, flags)?;
    let text = obj("cxx", "text.cpp", c, flags)?;
    let more = obj("cxx", "more.cpp", c, flags)?;
    let inputs = vec![arg(&lib), arg(&text), arg(&more)];
    let direct = vec![arg(&main), arg(&lib), arg(&text), arg(&more)];
    let step = r_of(&[], &inputs);
    let (l_rel, w_rel, mut p) = matrix(dir, true, &[arg(&main)], &direct, &step, CXX_OUT)?;
    p.0.extend(structure(&w_rel, &l_rel)?.0);
    p.done()
}

/// Case 2b: which local symbols stay, by default (`.L` temporaries in mergeable sections go
/// unless a kept relocation names them, as from a discarded COMDAT copy's code) and with
/// `--discard-all`, `-X`, `--discard-none`: the symbol table of the `-r` output of the C++
/// objects (and two C ones) is lld's.
fn discard(dir: &Path, flag: &str) -> Check {
    let mut inputs = Vec::new();
    for src in ["lib.cpp", "text.cpp", "more.cpp", "main.cpp"] {
        inputs.push(arg(&obj("cxx", src, Compiler::Clang, &[])?));
    }
    for src in ["strings.c", "funcs.c"] {
        inputs.push(arg(&obj("c_program", src, Compiler::Clang, &["-fcommon"])?));
    }
    let mut args: Vec<String> = strings(&[flag])
        .into_iter()
        .filter(|f| !f.is_empty())
        .collect();
    args.extend(inputs);
    let [lld, weld] = dynlink::linkers()?;
    let l_rel = reference(relocatable(&lld, &dir.join("lld"), &args, "r.o"))?;
    let l_syms = symbol_lines(&l_rel)?;
    // `--discard-all` drops the FILE symbols too; the `.L` strings of the C++ objects' mergeable
    // sections stay only with `--discard-none` or when a kept relocation names them.
    let files = l_syms.iter().filter(|l| l.contains(" FILE ")).count();
    let temporaries = l_syms.iter().filter(|l| l.starts_with(".L")).count();
    expect_lld(
        (flag == "--discard-all") == (files == 0) && temporaries > 0,
        || {
            format!("lld's -r {flag} output has {files} FILE symbols and {temporaries} .L ones: {l_syms:?}")
        },
    )?;
    let w_rel = relocatable(&weld, &dir.join("weld"), &args, "r.o")?;
    same_lines(
        "the symbols (name bind type vis section value)",
        &symbol_lines(&w_rel)?,
        &l_syms,
    )
}

/// Case 3: SHF_MERGE and debug sections: merged bytes equal lld's, DWARF verifies, gdb.
fn merge_debug(dir: &Path, c: Compiler) -> Check {
    let (main, rest) = c_objects(c, &["-g"])?;
    let inputs: Vec<String> = rest.iter().map(|p| arg(p)).collect();
    let mut direct = vec![arg(&main)];
    direct.extend(inputs.clone());
    let step = r_of(&[], &inputs);
    let (l_rel, w_rel, mut p) = matrix(dir, false, &[arg(&main)], &direct, &step, C_PROGRAM_OUT)?;
    let dumps = dir.join("dumps");
    paths::fresh_dir(&dumps)?;
    for name in [
        ".rodata.str1.1",
        ".debug_str",
        ".debug_line_str",
        ".comment",
    ] {
        let l = section_bytes(&l_rel, name, &dumps)?;
        expect_lld(l.as_ref().is_some_and(|b| !b.is_empty()), || {
            format!("lld's -r output should have a non-empty {name}")
        })?;
        let w = section_bytes(&w_rel, name, &dumps)?;
        if w != l {
            p.0.push(format!(
                "{name} differs from lld's: weld {} bytes, lld {} bytes (dumps in {})",
                w.map_or(0, |b| b.len()),
                l.map_or(0, |b| b.len()),
                dumps.display()
            ));
        }
    }
    let (l_err, _) = elf::dwarf_verify(&l_rel)?;
    let (w_err, w_text) = elf::dwarf_verify(&w_rel)?;
    if w_err > l_err {
        p.0.push(format!(
            "llvm-dwarfdump-22 --verify finds {w_err} errors in weld's -r output, {l_err} in lld's\n{w_text}"
        ));
    }
    // gdb on the programs linked by each linker from its own -r output.
    let l_exe = dir.join("r-lld").join("final-lld").join("prog");
    let w_exe = dir.join("r-weld").join("final-weld").join("prog");
    let l_bt = reference(gdb_backtrace(&l_exe))?;
    expect_lld(
        l_bt.iter()
            .any(|l| l.contains("twice") && l.contains("funcs.c:7"))
            && l_bt
                .iter()
                .any(|l| l.contains("main") && l.contains("main.c:20")),
        || {
            format!("gdb on lld's program should stop in twice (funcs.c:7) called from main.c:20: {l_bt:?}")
        },
    )?;
    if w_exe.is_file() {
        p.check(same_lines(
            "gdb's breakpoint and backtrace",
            &gdb_backtrace(&w_exe)?,
            &l_bt,
        ));
    }
    p.done()
}

/// gdb's lines for `break funcs.c:7`, `run`, `bt` on `exe`, addresses blanked.
fn gdb_backtrace(exe: &Path) -> Result<Vec<String>, String> {
    let mut cmd = Command::new(tools::find("gdb")?);
    // Nothing downloaded: the programs' own debug information is what is tested.
    cmd.env_remove("DEBUGINFOD_URLS");
    cmd.args([
        "-batch",
        "-nx",
        "-ex",
        "break funcs.c:7",
        "-ex",
        "run",
        "-ex",
        "bt",
    ])
    .arg(exe)
    .current_dir(exe.parent().unwrap_or(Path::new(".")));
    let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("gdb")?;
    Ok(o.stdout_str()
        .lines()
        .filter(|l| l.starts_with('#') || l.starts_with("Breakpoint 1"))
        .map(blank_addresses)
        .collect())
}

fn blank_addresses(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find("0x") {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 2..];
        let n = tail.chars().take_while(|c| c.is_ascii_hexdigit()).count();
        out.push_str("ADDR");
        rest = &tail[n..];
    }
    out.push_str(rest);
    out
}

/// Case 4: `-d`/`--define-common`.
fn define_common(dir: &Path) -> Check {
    let (main, rest) = c_objects(Compiler::Clang, &[])?;
    let counter = &rest[3];
    let [lld, weld] = dynlink::linkers()?;
    let bfd = bfd()?;
    let inputs = vec![arg(counter), arg(&main)];
    let mut p = Problems::default();
    let commons = ["big", "counter"];
    let pick = |f: &Path| -> Result<Vec<SymLine>, String> {
        Ok(symtab(f)?
            .into_iter()
            .filter(|s| commons.contains(&s.name.as_str()))
            .collect())
    };
    // Without -d, commons stay common, as in lld's output.
    let l_plain = reference(relocatable(&lld, &dir.join("lld"), &inputs, "plain.o"))?;
    let l_com = pick(&l_plain)?;
    expect_lld(
        l_com.len() == 2 && l_com.iter().all(|s| s.section == "COM"),
        || format!("lld's -r output should keep big and counter common: {l_com:?}"),
    )?;
    let show = |v: &[SymLine]| -> Vec<String> {
        v.iter()
            .map(|s| {
                format!(
                    "{} {} {} {} 0x{:x} {}",
                    s.name, s.bind, s.sym_type, s.section, s.value, s.size
                )
            })
            .collect()
    };
    let w_plain = relocatable(&weld, &dir.join("weld"), &inputs, "plain.o")?;
    p.check(same_lines(
        "the common symbols without -d",
        &show(&pick(&w_plain)?),
        &show(&l_com),
    ));
    // With -d (and its long spelling): defined in .bss, as GNU ld defines them.
    let b_def = reference(relocatable(
        &bfd,
        &dir.join("bfd"),
        &[vec!["-d".into()], inputs.clone()].concat(),
        "d.o",
    ))
    .map_err(|e| e.replace("ld.lld-22", "GNU ld"))?;
    let b_syms = pick(&b_def)?;
    expect_lld(
        b_syms.len() == 2 && b_syms.iter().all(|s| s.section == ".bss"),
        || format!("GNU ld -r -d should define big and counter in .bss: {b_syms:?}"),
    )?;
    for flag in ["-d", "--define-common"] {
        let mut a = vec![flag.to_string()];
        a.extend(inputs.clone());
        let w_def = match relocatable(&weld, &dir.join("weld"), &a, &format!("{flag}.o")) {
            Ok(f) => f,
            Err(e) => {
                p.0.push(e);
                continue;
            }
        };
        let w_syms = pick(&w_def)?;
        // (name, bind, type, section, size), and each value aligned as the common asked.
        let key = |v: &[SymLine]| -> Vec<String> {
            let mut k: Vec<String> = v
                .iter()
                .map(|s| {
                    format!(
                        "{} {} {} {} {}",
                        s.name, s.bind, s.sym_type, s.section, s.size
                    )
                })
                .collect();
            k.sort();
            k
        };
        p.check(same_lines(
            &format!("the commons defined by {flag} (\"lld\" here is GNU ld -r -d)"),
            &key(&w_syms),
            &key(&b_syms),
        ));
        for s in &w_syms {
            let align = l_com
                .iter()
                .find(|c| c.name == s.name)
                .map_or(1, |c| c.value.max(1));
            if s.value % align != 0 {
                p.0.push(format!(
                    "{flag}: {} at 0x{:x} is not aligned to {align}",
                    s.name, s.value
                ));
            }
        }
        // .bss is big enough for both, and the final program runs.
        let bss = section_headers(&w_def)?;
        if !bss
            .iter()
            .any(|s| s.name == ".bss" && s.sh_type == "NOBITS")
        {
            p.0.push(format!("{flag}: weld's output has no .bss"));
        }
        let mut args: Vec<String> = rest[..3].iter().map(|p| arg(p)).collect();
        args.push(arg(&w_def));
        for fl in [&lld, &weld, &bfd] {
            let d = dir.join(format!("final{flag}-{}", fl.label));
            match final_link(fl, false, &d, &args, "prog").and_then(|e| run_prog(&e)) {
                Ok(o) if o.success() && o.stdout_str() == C_PROGRAM_OUT => {}
                Ok(o) => p.0.push(format!(
                    "{flag}: {}'s program misbehaves\n{}",
                    fl.label,
                    o.report()
                )),
                Err(e) => p.0.push(format!("{flag}: {e}")),
            }
        }
    }
    p.done()
}

/// Case 5: `--gc-sections -r` with `-e main` and `-u kept_by_u`.
fn gc_sections(dir: &Path) -> Check {
    let o = obj(
        "gc",
        "main.c",
        Compiler::Clang,
        &["-ffunction-sections", "-fdata-sections"],
    )?;
    let flags = strings(&[
        "--gc-sections",
        "-e",
        "main",
        "-u",
        "kept_by_u",
        "--print-gc-sections",
    ]);
    let inputs = vec![arg(&o)];
    let step = r_of(&flags, &inputs);
    let (l_rel, w_rel, mut p) = matrix(dir, false, &[], &inputs, &step, GC_OUT)?;
    let l_funcs = nm_defined(&l_rel, "TtDdRrBb")?;
    expect_lld(
        ["kept_by_u T", "reached T", "leaf T", "used_data D"]
            .iter()
            .all(|f| l_funcs.contains(*f))
            && !l_funcs.iter().any(|f| f.starts_with("unreached ")),
        || format!("lld should keep kept_by_u and drop unreached: {l_funcs:?}"),
    )?;
    p.check(dynlink::same_set(
        "the defined symbols kept",
        &nm_defined(&w_rel, "TtDdRrBb")?,
        &l_funcs,
    ));
    // The report (relocation sections too, as lld copies them as sections under `-r`), less
    // lld's lines for `.eh_frame` and its relocations, which lld drops whole under
    // `-r --gc-sections` and weld keeps with the FDEs of the code it keeps.
    let report = |rel: &Path| -> Result<Vec<String>, String> {
        let text = paths::read(&rel.with_file_name("r.o.link.txt"))?;
        let text = String::from_utf8_lossy(&text).into_owned();
        Ok(text
            .lines()
            .filter(|l| l.starts_with("removing unused section"))
            .filter(|l| !l.contains(":(.eh_frame)") && !l.contains(":(.rela.eh_frame)"))
            .map(|l| l.replace(&arg(&o), "main.o"))
            .collect())
    };
    let l_report = report(&l_rel)?;
    expect_lld(
        l_report.iter().any(|l| l.contains(".text.unreached")),
        || format!("lld should report .text.unreached removed: {l_report:?}"),
    )?;
    p.check(same_lines(
        "--print-gc-sections",
        &report(&w_rel)?,
        &l_report,
    ));
    // weld keeps `.eh_frame` and it describes exactly the functions kept.
    let fdes = tool(tools::DWARFDUMP, &["--eh-frame".into(), arg(&w_rel)])?;
    let n_fde = fdes.lines().filter(|l| l.contains(" FDE ")).count();
    let n_text = section_headers(&w_rel)?
        .iter()
        .filter(|s| s.name.starts_with(".text") && s.flags.contains('X'))
        .count();
    if n_fde == 0 || n_fde > n_text {
        p.0.push(format!(
            "weld's .eh_frame has {n_fde} FDEs for {n_text} text sections\n{fdes}"
        ));
    }
    // With -g: the debug sections' relocations into collected code (through section symbols:
    // `R_X86_64_NONE`) and collected data (through symbols the output lacks: the type kept
    // against symbol 0), all but `.eh_frame`'s, which lld drops.
    let g = obj(
        "gc",
        "main.c",
        Compiler::Clang,
        &["-g", "-ffunction-sections", "-fdata-sections"],
    )?;
    let mut a = flags.clone();
    a.push(arg(&g));
    let [lld, weld] = dynlink::linkers()?;
    let l_g = reference(relocatable(&lld, &dir.join("g-lld"), &a, "r.o"))?;
    let w_g = relocatable(&weld, &dir.join("g-weld"), &a, "r.o")?;
    let no_eh = |f: &Path| -> Result<Vec<String>, String> {
        Ok(relocations(f, false)?
            .into_iter()
            .filter(|s| !s.starts_with("[.eh_frame]"))
            .collect())
    };
    let l_rels = no_eh(&l_g)?;
    expect_lld(l_rels.iter().any(|s| s.contains("R_X86_64_NONE")), || {
        format!("lld's -r --gc-sections output of -g code should have R_X86_64_NONE: {l_rels:?}")
    })?;
    p.check(same_lines(
        "the relocations with -g (but .eh_frame's)",
        &no_eh(&w_g)?,
        &l_rels,
    ));
    p.done()
}

/// Case 6: bitcode inputs, ThinLTO and full LTO mixed with a native object.
fn bitcode(dir: &Path) -> Check {
    let main = obj("c_program", "main.c", Compiler::Clang, &["-fcommon"])?;
    let strings_o = obj("c_program", "strings.c", Compiler::Clang, &["-flto=thin"])?;
    let funcs = obj("c_program", "funcs.c", Compiler::Clang, &["-flto"])?;
    let tls = obj("c_program", "tls.c", Compiler::Clang, &["-flto", "-fPIC"])?;
    let counter = obj("c_program", "counter.c", Compiler::Clang, &["-fcommon"])?;
    let inputs = vec![arg(&strings_o), arg(&funcs), arg(&tls), arg(&counter)];
    let mut direct = vec![arg(&main)];
    direct.extend(inputs.clone());
    let step = r_of(&[], &inputs);
    let (l_rel, w_rel, mut p) = matrix(dir, false, &[arg(&main)], &direct, &step, C_PROGRAM_OUT)?;
    let bytes = paths::read(&w_rel)?;
    if !bytes.starts_with(b"\x7fELF") || bytes.get(16) != Some(&1) {
        p.0.push("weld's -r output of bitcode is not an ELF relocatable object".into());
    }
    let lto_sections: Vec<String> = section_headers(&w_rel)?
        .into_iter()
        .filter(|s| {
            s.name.starts_with(".llvm.lto") || s.name == ".llvmbc" || s.name == ".llvm.offloading"
        })
        .map(|s| s.name)
        .collect();
    if !lto_sections.is_empty() {
        p.0.push(format!(
            "weld's -r output still holds bitcode: {lto_sections:?}"
        ));
    }
    let globals = |f: &Path| -> Result<BTreeSet<String>, String> {
        Ok(nm_defined(f, "TDBRCV")?
            .into_iter()
            .map(|l| l.split(' ').next().unwrap_or("").to_string())
            .collect())
    };
    let l_globals = globals(&l_rel)?;
    expect_lld(
        l_globals.contains("greeting") && l_globals.contains("tls_bump"),
        || format!("lld's output should define greeting and tls_bump: {l_globals:?}"),
    )?;
    p.check(dynlink::same_set(
        "the global symbols defined",
        &globals(&w_rel)?,
        &l_globals,
    ));
    // Both compile with LLVM 22's LTO and lld's resolutions (nothing final under -r but hidden
    // symbols: TLS by initial-exec): the objects' sections, symbols and code are the same.
    p.0.extend(same_alloc_bytes(&w_rel, &l_rel)?.0);
    p.check(same_lines(
        "the content sections (name type flags alignment)",
        &content_sections(&w_rel)?,
        &content_sections(&l_rel)?,
    ));
    p.check(same_lines(
        "the symbols (name bind type vis section value)",
        &symbol_lines(&w_rel)?,
        &symbol_lines(&l_rel)?,
    ));
    p.done()
}

/// Case 7: an archive, members loaded as needed or all (`--whole-archive`).
fn archive(dir: &Path, whole: bool) -> Check {
    let (main, rest) = c_objects(Compiler::Clang, &[])?;
    let unused = obj("c_program", "unused.c", Compiler::Clang, &[])?;
    let lib = dir.join("libparts.a");
    let mut a = vec!["rcs".to_string(), arg(&lib)];
    a.extend(rest.iter().map(|p| arg(p)));
    a.push(arg(&unused));
    tool(LLVM_AR, &a)?;
    // `-u` of a name nothing defines: lld writes no symbol for it.
    let mut inputs = strings(&["-u", "absent_symbol", &arg(&main)]);
    if whole {
        inputs.extend(strings(&[
            "--whole-archive",
            &arg(&lib),
            "--no-whole-archive",
        ]));
    } else {
        inputs.push(arg(&lib));
    }
    let mut direct = vec![arg(&main)];
    direct.extend(rest.iter().map(|p| arg(p)));
    let step = r_of(&[], &inputs);
    let (l_rel, w_rel, mut p) = matrix(dir, false, &[], &direct, &step, C_PROGRAM_OUT)?;
    let l_syms = nm_defined(&l_rel, "TDBRCVtdbr")?;
    expect_lld(l_syms.contains("never_called T") == whole, || {
        format!(
            "lld should {}load unused.o: {l_syms:?}",
            if whole { "" } else { "not " }
        )
    })?;
    p.check(dynlink::same_set(
        "the symbols defined",
        &nm_defined(&w_rel, "TDBRCVtdbr")?,
        &l_syms,
    ));
    p.check(same_lines(
        "the symbols (name bind type vis section value)",
        &symbol_lines(&w_rel)?,
        &symbol_lines(&l_rel)?,
    ));
    p.done()
}

/// Case 8: `-gz` inputs (`compress_output`: and `--compress-debug-sections=zlib`).
fn compressed(dir: &Path, compress_output: bool) -> Check {
    let (main, rest) = c_objects(Compiler::Clang, &["-g", "-gz=zlib"])?;
    let inputs: Vec<String> = rest.iter().map(|p| arg(p)).collect();
    let mut direct = vec![arg(&main)];
    direct.extend(inputs.clone());
    let flags = if compress_output {
        strings(&["--compress-debug-sections=zlib"])
    } else {
        Vec::new()
    };
    let step = r_of(&flags, &inputs);
    let (l_rel, w_rel, mut p) = matrix(dir, false, &[arg(&main)], &direct, &step, C_PROGRAM_OUT)?;
    let debug = |f: &Path| -> Result<Vec<String>, String> {
        Ok(section_headers(f)?
            .into_iter()
            .filter(|s| s.name.starts_with(".debug_"))
            .map(|s| {
                format!(
                    "{} compressed={} align={}",
                    s.name,
                    s.flags.contains('C'),
                    s.align
                )
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect())
    };
    let l_debug = debug(&l_rel)?;
    expect_lld(
        l_debug
            .iter()
            .any(|s| s.starts_with(&format!(".debug_info compressed={compress_output} "))),
        || format!("lld's .debug_info should be compressed={compress_output}: {l_debug:?}"),
    )?;
    p.check(same_lines(
        "the debug sections and their compression",
        &debug(&w_rel)?,
        &l_debug,
    ));
    let (l_err, _) = elf::dwarf_verify(&l_rel)?;
    let (w_err, w_text) = elf::dwarf_verify(&w_rel)?;
    if w_err > l_err {
        p.0.push(format!("llvm-dwarfdump-22 --verify: {w_err} errors in weld's output, {l_err} in lld's\n{w_text}"));
    }
    let info = tool(tools::DWARFDUMP, &["--debug-info".into(), arg(&w_rel)])?;
    for unit in ["strings.c", "funcs.c", "tls.c", "counter.c"] {
        if !info.contains(unit) {
            p.0.push(format!(
                "llvm-dwarfdump-22 finds no unit for {unit} in weld's output"
            ));
        }
    }
    // The final program's debug information reads as well as lld's.
    let w_exe = dir.join("r-weld").join("final-weld").join("prog");
    let l_exe = dir.join("r-lld").join("final-lld").join("prog");
    if w_exe.is_file() {
        let (l_err, _) = elf::dwarf_verify(&l_exe)?;
        let (w_err, w_text) = elf::dwarf_verify(&w_exe)?;
        if w_err > l_err {
            p.0.push(format!(
                "the final program: {w_err} DWARF errors, lld's {l_err}\n{w_text}"
            ));
        }
    }
    p.done()
}

/// Case 9: an `-r` output as input of another `-r`, then the final link.
fn twice(dir: &Path) -> Check {
    let (main, rest) = c_objects(Compiler::Clang, &["-g"])?;
    let mut direct = vec![arg(&main)];
    direct.extend(rest.iter().map(|p| arg(p)));
    let first: Vec<String> = rest[..2].iter().map(|p| arg(p)).collect();
    let second: Vec<String> = rest[2..].iter().map(|p| arg(p)).collect();
    let step = move |l: &Linker, d: &Path| -> Result<PathBuf, String> {
        let one = relocatable(l, d, &first, "one.o")?;
        let mut a = vec![arg(&one)];
        a.extend(second.clone());
        relocatable(l, d, &a, "r.o")
    };
    let (l_rel, w_rel, mut p) = matrix(dir, false, &[arg(&main)], &direct, &step, C_PROGRAM_OUT)?;
    p.check(same_lines(
        "the symbols (name bind type vis section value)",
        &symbol_lines(&w_rel)?,
        &symbol_lines(&l_rel)?,
    ));
    p.check(same_lines(
        "the relocations of allocated sections",
        &alloc_relocations(&w_rel)?,
        &alloc_relocations(&l_rel)?,
    ));
    p.done()
}

/// Case 10: options `-r` cannot be combined with, and a shared library given to `-r`.
fn error_case(dir: &Path, args: &[&str]) -> Check {
    let (main, _) = c_objects(Compiler::Clang, &[])?;
    let [lld, weld] = dynlink::linkers()?;
    let lib = dir.join("libshared.so");
    let pic = obj("c_program", "unused.c", Compiler::Clang, &["-fPIC"])?;
    let o = link_directly(&lld, dir, &["-shared".into(), arg(&pic)], "libshared.so")?;
    reference(o.ok("linking libshared.so"))?;
    let mut a: Vec<String> = args
        .iter()
        .map(|s| s.replace("{lib}", &arg(&lib)).replace("{dir}", &arg(dir)))
        .collect();
    a.push(arg(&main));
    let l_dir = dir.join("lld");
    let w_dir = dir.join("weld");
    paths::fresh_dir(&l_dir)?;
    paths::fresh_dir(&w_dir)?;
    let lo = link_directly(&lld, &l_dir, &a, "out.o")?;
    expect_lld(
        lo.code == Some(1) && lo.stderr_str().contains("error:"),
        || format!("ld.lld-22 should refuse this\n{}", lo.report()),
    )?;
    let wo = link_directly(&weld, &w_dir, &a, "out.o")?;
    let mut p = Problems::default();
    if wo.code != lo.code {
        p.0.push(format!(
            "weld should exit as ld.lld-22 does ({}), but: {}",
            lo.status_text(),
            wo.status_text()
        ));
    }
    let lld_prefix = format!("{}: ", tools::LLD);
    let weld_name = tools::diag_name(&weld.path);
    let want: Vec<String> = lo
        .stderr_str()
        .lines()
        .map(|l| match l.strip_prefix(&lld_prefix) {
            Some(rest) => format!("{weld_name}: {rest}"),
            None => l.to_string(),
        })
        .collect();
    let got: Vec<String> = wo.stderr_str().lines().map(str::to_string).collect();
    p.check(same_lines("the diagnostics", &got, &want));
    for (who, d) in [("weld", &w_dir), ("ld.lld-22", &l_dir)] {
        if d.join("out.o").exists() {
            p.0.push(format!("{who} left out.o behind"));
        }
    }
    if !p.0.is_empty() {
        p.0.push(wo.report());
    }
    p.done()
}

/// `--wrap=apply` under `-r`: `main.o`'s calls go to `__wrap_apply` (undefined in the output
/// until `wrap.o` comes with it), `wrap.o`'s `__real_apply` to `apply`, whose definition stays.
fn wrap(dir: &Path) -> Check {
    let (main, rest) = c_objects(Compiler::Clang, &[])?;
    let wrapper = obj("c_program", "wrap.c", Compiler::Clang, &[])?;
    let funcs = arg(&rest[1]);
    let outside: Vec<String> = [&rest[0], &rest[2], &rest[3]]
        .iter()
        .map(|p| arg(p))
        .collect();
    let mut direct = vec![
        "-Wl,--wrap=apply".to_string(),
        arg(&main),
        funcs.clone(),
        arg(&wrapper),
    ];
    direct.extend(outside.clone());
    let want = C_PROGRAM_OUT.replace("square=49 twice=14", "square=1049 twice=1014");
    // Without the wrapper in the `-r`: references stay `__wrap_apply`, `apply` stays defined.
    let [lld, weld] = dynlink::linkers()?;
    let alone = vec!["--wrap=apply".to_string(), arg(&main), funcs.clone()];
    let l_alone = reference(relocatable(&lld, &dir.join("alone-lld"), &alone, "r.o"))?;
    let l_syms = symbol_lines(&l_alone)?;
    expect_lld(
        l_syms
            .iter()
            .any(|l| l.starts_with("__wrap_apply GLOBAL NOTYPE DEFAULT UND "))
            && l_syms
                .iter()
                .any(|l| l.starts_with("apply GLOBAL FUNC DEFAULT .text ")),
        || format!("lld's -r --wrap output should name __wrap_apply and define apply: {l_syms:?}"),
    )?;
    let mut p = Problems::default();
    match relocatable(&weld, &dir.join("alone-weld"), &alone, "r.o") {
        Ok(w_alone) => {
            p.check(same_lines(
                "the symbols of -r --wrap",
                &symbol_lines(&w_alone)?,
                &l_syms,
            ));
            p.check(same_lines(
                "the relocations of -r --wrap",
                &alloc_relocations(&w_alone)?,
                &alloc_relocations(&l_alone)?,
            ));
        }
        Err(e) => p.0.push(e),
    }
    let inputs = vec!["--wrap=apply".to_string(), arg(&main), funcs, arg(&wrapper)];
    let step = r_of(&[], &inputs);
    let (_, _, q) = matrix(dir, false, &outside, &direct, &step, &want)?;
    p.0.extend(q.0);
    p.done()
}

/// The build IDs `llvm-readelf-22 -n` shows in `file`, and the size of its `.note.gnu.build-id`.
fn build_ids(file: &Path) -> Result<(Vec<String>, String), String> {
    let notes = readelf(&["-n"], file)?;
    let ids = notes
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Build ID: "))
        .map(str::to_string)
        .collect();
    let size = readelf(&["-S"], file)?
        .lines()
        .find(|l| l.contains(".note.gnu.build-id"))
        .map(|l| l.split_whitespace().nth(6).unwrap_or("").to_string())
        .unwrap_or_default();
    Ok((ids, size))
}

/// `-r --build-id[=...]`: the output has a build-id note of lld's size (`hex`: lld's bytes),
/// the same each time; the programs linked from it have one note, with their own ID, not the
/// `-r` output's (the final link's note replaces the input's, as in lld).
fn build_id(dir: &Path, flag: &str) -> Check {
    let (main, rest) = c_objects(Compiler::Clang, &[])?;
    let inputs: Vec<String> = rest.iter().map(|p| arg(p)).collect();
    let mut direct = vec![arg(&main)];
    direct.extend(inputs.clone());
    let step = r_of(&strings(&[flag]), &inputs);
    let (l_rel, w_rel, mut p) = matrix(dir, false, &[arg(&main)], &direct, &step, C_PROGRAM_OUT)?;
    let (l_ids, l_size) = build_ids(&l_rel)?;
    expect_lld(l_ids.len() == 1 && !l_size.is_empty(), || {
        format!("lld's -r {flag} output should have one build ID: {l_ids:?}")
    })?;
    let (w_ids, w_size) = build_ids(&w_rel)?;
    p.check(same_lines(
        "the size of .note.gnu.build-id",
        &[w_size],
        &[l_size],
    ));
    if flag.contains("0x") {
        p.check(same_lines("the build ID", &w_ids, &l_ids));
    } else if w_ids.len() != 1 || w_ids[0].chars().all(|c| c == '0') {
        p.0.push(format!(
            "weld's -r output should have one non-zero build ID: {w_ids:?}"
        ));
    }
    let again = relocatable(
        &Linker::weld()?,
        &dir.join("again"),
        &[vec![flag.to_string()], inputs].concat(),
        "r.o",
    )?;
    p.check(same_lines(
        "the build ID of a second run",
        &build_ids(&again)?.0,
        &w_ids,
    ));
    // The programs linked (through the drivers, which pass --build-id) from weld's output.
    for fl in ["lld", "weld"] {
        let exe = dir.join("r-weld").join(format!("final-{fl}")).join("prog");
        if !exe.is_file() {
            continue;
        }
        let (ids, _) = build_ids(&exe)?;
        if ids.len() != 1 || w_ids.contains(&ids[0]) {
            p.0.push(format!(
                "the program {fl} linked from weld's -r output should have one build ID of its \
                 own, not the -r output's {w_ids:?}: {ids:?}"
            ));
        }
    }
    p.done()
}

/// `-r --unique`: every input section an output section of its own (one `.note.GNU-stack`).
fn unique(dir: &Path) -> Check {
    let (main, rest) = c_objects(Compiler::Clang, &["-g"])?;
    let inputs: Vec<String> = rest.iter().map(|p| arg(p)).collect();
    let mut direct = vec![arg(&main)];
    direct.extend(inputs.clone());
    let step = r_of(&strings(&["--unique"]), &inputs);
    let (l_rel, w_rel, mut p) = matrix(dir, false, &[arg(&main)], &direct, &step, C_PROGRAM_OUT)?;
    let l_sections = content_sections(&l_rel)?;
    let texts = l_sections
        .iter()
        .filter(|s| s.starts_with(".text "))
        .count();
    expect_lld(texts == rest.len(), || {
        format!("lld's -r --unique output should have one .text per input: {l_sections:?}")
    })?;
    p.check(same_lines(
        "the content sections (name type flags alignment)",
        &content_sections(&w_rel)?,
        &l_sections,
    ));
    p.check(same_lines(
        "the symbols (name bind type vis section value)",
        &symbol_lines(&w_rel)?,
        &symbol_lines(&l_rel)?,
    ));
    p.check(same_lines(
        "the relocations of allocated sections",
        &alloc_relocations(&w_rel)?,
        &alloc_relocations(&l_rel)?,
    ));
    p.done()
}

/// The `-r` output of `-fPIC` objects made into a shared library by ld.lld-22, weld and GNU ld,
/// which a program (linked by lld) uses: every run prints what the program of `c_program` does.
fn shared_library(dir: &Path) -> Check {
    let (main, rest) = c_objects(Compiler::Clang, &["-fPIC"])?;
    let inputs: Vec<String> = rest.iter().map(|p| arg(p)).collect();
    let [lld, weld] = dynlink::linkers()?;
    let bfd = bfd()?;
    let mut p = Problems::default();
    for r in [&lld, &weld] {
        let rdir = dir.join(format!("r-{}", r.label));
        let rel = relocatable(r, &rdir, &inputs, "r.o");
        let rel = if r.label == "lld" {
            reference(rel)?
        } else {
            match rel {
                Ok(f) => f,
                Err(e) => {
                    p.0.push(e);
                    continue;
                }
            }
        };
        for fl in [&lld, &weld, &bfd] {
            let d = rdir.join(format!("so-{}", fl.label));
            let what = format!("{}'s shared library from {}'s -r output", fl.label, r.label);
            let run = final_link(fl, false, &d, &["-shared".into(), arg(&rel)], "libpr.so")
                .and_then(|_| {
                    let args = vec![
                        arg(&main),
                        format!("-L{}", d.display()),
                        "-lpr".into(),
                        format!("-Wl,-rpath,{}", d.display()),
                    ];
                    final_link(&lld, false, &d, &args, "prog")
                })
                .and_then(|exe| run_prog(&exe));
            let check = match run {
                Ok(o) if o.success() && o.stdout_str() == C_PROGRAM_OUT => Ok(()),
                Ok(o) => Err(format!("{what}: the program misbehaves\n{}", o.report())),
                Err(e) => Err(format!("{what}: {e}")),
            };
            if r.label == "lld" {
                reference(check)?;
            } else {
                p.check(check);
            }
        }
    }
    p.done()
}

/// `-r` twice with C++ (`-g`): `lib.o text.o` first, then `more.o` and that output, whose COMDAT
/// groups come second and lose to `more.o`'s copies: runs and structure.
fn twice_cxx(dir: &Path, c: Compiler) -> Check {
    let main = obj("cxx", "main.cpp", c, &[])?;
    let mut objs = Vec::new();
    for src in ["lib.cpp", "text.cpp", "more.cpp"] {
        objs.push(arg(&obj("cxx", src, c, &["-g"])?));
    }
    let mut direct = vec![arg(&main)];
    direct.extend(objs.clone());
    let step = move |l: &Linker, d: &Path| -> Result<PathBuf, String> {
        let one = relocatable(l, d, &objs[..2], "one.o")?;
        relocatable(l, d, &[objs[2].clone(), arg(&one)], "r.o")
    };
    let (l_rel, w_rel, mut p) = matrix(dir, true, &[arg(&main)], &direct, &step, CXX_OUT)?;
    p.0.extend(structure(&w_rel, &l_rel)?.0);
    p.done()
}
