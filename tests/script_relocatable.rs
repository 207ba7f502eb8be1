//! `-r` with a linker script's `SECTIONS`, differential against ld.lld-22: C files compiled by
//! clang-22 with `-ffunction-sections -fdata-sections` are linked by `ld.lld-22 -r -T s.lds`
//! and `weld -r -T s.lds`, and the two outputs compared by structure: the sections in order
//! (name, type, flags, size, alignment), the symbols (name, binding, type, visibility, section
//! name, value) and the relocations of every section (offset, type, symbol, addend). Then each
//! `-r` output is linked into a program by both linkers (no script) and every program must
//! print what the sources say. Scripts weld does not handle yet must fail with exit 1, one
//! `linker script command not supported yet` message naming the script line, and no output;
//! scripts lld refuses must fail in weld with lld's first error.
//!
//! The C files are compiled without unwind tables: under `-r --gc-sections` lld collects
//! `.eh_frame` (nothing references it), which weld does not, and `.eh_frame` placed by a
//! script is not supported yet. `.eh_frame` is still compared without its size and without offsets and `R_X86_64_NONE` entries in
//! its relocations: lld copies it whole under `-r`, weld leaves out the FDEs of discarded code
//! (as `tests/relocatable.rs` explains). `.symtab` is compared by its symbols, not its size
//! (lld writes a section symbol for every section). A missing tool is a failure.

use libtest_mimic::Arguments;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::linkerr::{self, link_both};
use weld_tests::{paths, run, tools, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "script_relocatable",
        &[
            ("merge_text_and_data", merge_text_and_data),
            ("renamed_section_and_discard", renamed_section_and_discard),
            ("sort_align_data_and_symbols", sort_align_data_and_symbols),
            ("keep_with_gc_sections", keep_with_gc_sections),
            ("exclude_file_and_orphans", exclude_file_and_orphans),
            (
                "types_regions_and_constraints",
                types_regions_and_constraints,
            ),
            ("overlay", overlay),
            ("type_mismatch_is_an_error", type_mismatch_is_an_error),
            ("comdat_members_placed", comdat_members_placed),
            ("unsupported_is_an_error", unsupported_is_an_error),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

const A_C: &str = "int counter = 5;\n\
    int zero_var;\n\
    const char msg[] = \"hello\";\n\
    static int helper(int x) { return x * 2; }\n\
    __attribute__((noinline)) int foo(int x) { return helper(x) + counter; }\n\
    __attribute__((noinline)) int bar(int x) { return foo(x) + 1 + zero_var; }\n\
    __attribute__((noinline)) int unused_fn(int x) { return x * 7; }\n\
    __attribute__((constructor)) static void init(void) { counter++; }\n";

const B_C: &str = "#include <stdio.h>\n\
    extern int counter; extern const char msg[];\n\
    int foo(int); int bar(int);\n\
    __attribute__((noinline)) int baz(void) { return 7; }\n\
    static const char *names[] = { \"one\", \"two\" };\n\
    int main(void) {\n\
      printf(\"%s %d %d %d %s %s\\n\", msg, foo(1), bar(2), baz(), names[0], names[1]);\n\
      return 0;\n\
    }\n";

/// What the program of `A_C` and `B_C` prints.
const OUT: &str = "hello 8 11 7 one two\n";

/// `main` for `sort_align_data_and_symbols`: reads the symbols and data the script made.
const SYMS_C: &str = "#include <stdio.h>\n\
    extern const unsigned char text_start[], text_end[], data_end[];\n\
    extern int counter;\n\
    int main(void) {\n\
      printf(\"span=%ld byte=%d long=%x data=%ld\\n\", (long)(text_end - text_start), text_end[0],\n\
             *(const unsigned int *)(text_end + 1), (long)(data_end - (const unsigned char *)&counter));\n\
      return 0;\n\
    }\n";

fn merge_text_and_data(dir: &Path) -> Check {
    let script = "SECTIONS {\n\
        .text : { *(.text .text.*) }\n\
        .data : { *(.data .data.*) }\n\
        .bss : { *(.bss .bss.*) }\n\
        .rodata : { *(.rodata .rodata.msg) }\n\
        }\n";
    differential(dir, script, &[A_C, B_C], &[], OUT)
}

fn renamed_section_and_discard(dir: &Path) -> Check {
    let script = "SECTIONS {\n\
        .code : { *(.text.main) *(.text.*) }\n\
        .mydata : { *(.data*) }\n\
        /DISCARD/ : { *(.comment) }\n\
        }\n";
    differential(dir, script, &[A_C, B_C], &[], OUT)
}

fn sort_align_data_and_symbols(dir: &Path) -> Check {
    let script = "SECTIONS {\n\
        . = 0x1000;\n\
        start_all = .;\n\
        .text 0x2000 : { text_start = .; *(SORT(.text.*)) . = ALIGN(32); text_end = .;\n\
                         BYTE(0x11) LONG(0x22334455) FILL(0x90) . = ALIGN(16); }\n\
        mid = .;\n\
        .data : { *(.data*) data_end = .; }\n\
        HIDDEN(hidden_sym = .);\n\
        PROVIDE(unused_provide = .);\n\
        abs_sym = 42;\n\
        rel_sym = text_start + 4;\n\
        }\n";
    let out = "span=128 byte=17 long=22334455 data=4\n";
    differential(dir, script, &[A_C, SYMS_C], &[], out)
}

fn keep_with_gc_sections(dir: &Path) -> Check {
    let script = "SECTIONS {\n\
        .text : { *(.text.main) KEEP(*(.text.unused_fn)) *(.text*) }\n\
        .data : { *(.data*) }\n\
        }\n";
    differential(
        dir,
        script,
        &[A_C, B_C],
        &["--gc-sections", "-e", "main"],
        OUT,
    )?;
    // The kept function survived collection in both outputs.
    for out in ["r.lld.o", "r.weld.o"] {
        let syms = readelf(&["-s"], &dir.join(out))?;
        if !syms.contains("unused_fn") {
            return Err(format!("{out} lost unused_fn, which KEEP keeps:\n{syms}"));
        }
    }
    Ok(())
}

fn exclude_file_and_orphans(dir: &Path) -> Check {
    let script = "SECTIONS {\n\
        .text_a : { *(EXCLUDE_FILE(*b.o) .text.*) }\n\
        .data : { *(.data*) }\n\
        }\n";
    differential(dir, script, &[A_C, B_C], &[], OUT)
}

/// Output section types, `SUBALIGN`, `ONLY_IF_RO`/`ONLY_IF_RW`, and what -r ignores: load
/// addresses, memory regions (`ORIGIN`/`LENGTH` still read them), program headers.
fn types_regions_and_constraints(dir: &Path) -> Check {
    let script = "MEMORY { ram (rwx) : ORIGIN = 0x10000, LENGTH = 0x1000\n\
          rom (rx) : ORIGIN = 0x80000, LENGTH = 16 }\n\
        REGION_ALIAS(\"alias\", ram);\n\
        PHDRS { text PT_LOAD; data PT_LOAD; }\n\
        SECTIONS {\n\
        .text : SUBALIGN(32) { *(.text*) } >alias AT>rom :text\n\
        .rw_only : ONLY_IF_RW { *(.rodata.msg) }\n\
        .ro_only : ONLY_IF_RO { *(.rodata.msg) }\n\
        .nb (TYPE=SHT_NOBITS) : { *(.data.counter) }\n\
        .data (TYPE=SHT_PROGBITS) : AT(0x4000) SUBALIGN(2) { *(.data*) d_end = .; } >ram :data\n\
        .bss (NOLOAD) : { *(.bss*) }\n\
        .cm (INFO) : { *(.comment) }\n\
        .ty (TYPE=0x80000001) : { BYTE(1) }\n\
        .cp (COPY) : { LONG(2) }\n\
        org = ORIGIN(ram); len = LENGTH(rom); t = ADDR(.text); l = LOADADDR(.data);\n\
        }\n";
    // `counter` is in a NOBITS section: 0, not the 6 clang folded its constructor into.
    differential(dir, script, &[A_C, B_C], &[], "hello 2 5 7 one two\n")
}

/// An `OVERLAY`: its sections share an address; of the empty ones only the first is made.
fn overlay(dir: &Path) -> Check {
    let script = "SECTIONS {\n\
        .text : { *(.text*) }\n\
        OVERLAY 0x1000 : AT (0x4000) { .ov0 { *(.nothing) } .ov1 { *(.data.counter) }\n\
          .ov2 { *(.nothing2) } .ov3 { *(.bss*) } }\n\
        after = .;\n\
        .data : { *(.data*) }\n\
        }\n";
    differential(dir, script, &[A_C, B_C], &[], OUT)
}

/// C++ with COMDAT groups (an inline function both files define, a template instance).
const G_CC: &str = "inline int twice(int x) { return x * 2; }\n\
    template <class T> T add(T a, T b) { return a + b; }\n\
    int use1(int x) { return twice(x) + add(x, 1); }\n";

const H_CC: &str = "#include <stdio.h>\n\
    inline int twice(int x) { return x * 2; }\n\
    int use1(int);\n\
    int main() { printf(\"%d %d\\n\", use1(3), twice(5)); return 0; }\n";

/// Members of section groups placed by descriptions: the output section they go to is the
/// member, in every group that had one there (the losing copy of `twice` is dropped first).
fn comdat_members_placed(dir: &Path) -> Check {
    let script = "SECTIONS {\n\
        .text : { *(.text.main) *(.text._Z5*) }\n\
        .t2 : { *(.text*) }\n\
        }\n";
    let objs = [("g.cc", G_CC), ("h.cc", H_CC)]
        .iter()
        .map(|(name, src)| {
            linkerr::compile(
                dir,
                name,
                src,
                &[
                    "-O0",
                    "-ffunction-sections",
                    "-fno-addrsig",
                    "-fno-asynchronous-unwind-tables",
                ],
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = objs.iter().map(|o| file_name(o)).collect();
    compare(dir, script, &names, &[], "10 10\n")?;
    // Both outputs have the groups the comparison saw; a script that lost them is a failure.
    let g = groups(&dir.join("r.weld.o"))?;
    if g.len() != 2 {
        return Err(format!("expected two groups in r.weld.o, got {g:?}"));
    }
    Ok(())
}

/// `TYPE=` an input section of another type has is lld's error.
fn type_mismatch_is_an_error(dir: &Path) -> Check {
    let objs = compile_all(dir, &[A_C, B_C])?;
    paths::write(
        &dir.join("s.lds"),
        "SECTIONS {\n  .text : { *(.text*) }\n  .data (TYPE=SHT_NOTE) : { *(.data*) }\n}\n",
    )?;
    let names: Vec<String> = objs.iter().map(|o| file_name(o)).collect();
    let mut args = vec!["-r", "-T", "s.lds"];
    args.extend(names.iter().map(String::as_str));
    link_both(dir, &args)?.same_first_error("section type mismatch for .data.counter")
}

fn unsupported_is_an_error(dir: &Path) -> Check {
    let objs = compile_all(dir, &[A_C, B_C])?;
    paths::write(
        &dir.join("s.lds"),
        "SECTIONS {\n  .foo : { *(.text.foo) }\n}\nINSERT AFTER .text;\n",
    )?;
    let mut args = vec!["-r", "-T", "s.lds"];
    let names: Vec<String> = objs.iter().map(|o| file_name(o)).collect();
    args.extend(names.iter().map(String::as_str));
    let both = link_both(dir, &args);
    // lld accepts the script: `link_both` expects two failures, so run lld on its own.
    let lld = Command::new(tools::lld()?)
        .current_dir(dir)
        .args(&args)
        .args(["-o", "lld.o"])
        .status()
        .map_err(|e| format!("running ld.lld-22: {e}"))?;
    if !lld.success() {
        return Err("ld.lld-22 should accept the script".into());
    }
    let weld = match both {
        Ok(b) => b.weld,
        // Failing the lld side of `link_both`'s checks is expected; weld's are in the message.
        Err(e) if e.contains("weld should") || e.contains("weld left") || e.contains("panic") => {
            return Err(e)
        }
        Err(_) => {
            let mut cmd = Command::new(tools::weld()?);
            cmd.current_dir(dir).args(&args).args(["-o", "out.weld"]);
            run::run(&mut cmd, run::LINK_TIMEOUT)?
        }
    };
    let err = weld.stderr_str();
    let lines: Vec<&str> = err.lines().collect();
    let want = "s.lds:4: linker script command not supported yet: INSERT with -r";
    if weld.code != Some(1) || lines.len() != 1 || !lines[0].contains(want) {
        return Err(format!(
            "weld should fail with exit 1 and one message containing {want:?}, got {:?}: {err}",
            weld.code
        ));
    }
    if dir.join("out.weld").exists() {
        return Err("weld left an output file".into());
    }
    Ok(())
}

// =============================================================================================
// The comparison

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn compile_all(dir: &Path, sources: &[&str]) -> Result<Vec<PathBuf>, String> {
    let names = ["a.c", "b.c", "c.c"];
    sources
        .iter()
        .zip(names)
        .map(|(src, name)| {
            linkerr::compile(
                dir,
                name,
                src,
                &[
                    "-ffunction-sections",
                    "-fdata-sections",
                    "-fno-addrsig",
                    "-fno-asynchronous-unwind-tables",
                ],
            )
        })
        .collect()
}

/// Both linkers make `r.{lld,weld}.o` with `-r -T s.lds`; the outputs must have the same
/// structure, and the programs linked from each by each linker must print `expected`.
fn differential(
    dir: &Path,
    script: &str,
    sources: &[&str],
    extra: &[&str],
    expected: &str,
) -> Check {
    let objs = compile_all(dir, sources)?;
    let names: Vec<String> = objs.iter().map(|o| file_name(o)).collect();
    compare(dir, script, &names, extra, expected)
}

/// [`differential`] on objects already in `dir`.
fn compare(dir: &Path, script: &str, objs: &[String], extra: &[&str], expected: &str) -> Check {
    paths::write(&dir.join("s.lds"), script)?;
    for (linker, out) in [(tools::lld()?, "r.lld.o"), (tools::weld()?, "r.weld.o")] {
        let mut cmd = Command::new(&linker);
        cmd.current_dir(dir)
            .args(["-r", "-T", "s.lds"])
            .args(extra)
            .args(objs)
            .args(["-o", out]);
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
    }
    let (lld, weld) = (dir.join("r.lld.o"), dir.join("r.weld.o"));
    let mut problems = Vec::new();
    for (what, f) in [
        (
            "sections (in order)",
            sections as fn(&Path) -> Result<Vec<String>, String>,
        ),
        ("symbols", symbols),
        ("relocations", relocations),
        ("groups", groups),
    ] {
        let (w, l) = (f(&weld)?, f(&lld)?);
        paths::write(&dir.join(format!("{what}.weld.txt")), w.join("\n"))?;
        paths::write(&dir.join(format!("{what}.lld.txt")), l.join("\n"))?;
        if w != l {
            problems.push(format!(
                "the {what} differ from lld's:\n--- weld\n{}\n--- lld\n{}",
                w.join("\n"),
                l.join("\n")
            ));
        }
    }
    // Each -r output, linked into a program by each linker, runs as the sources say.
    for r in ["r.lld.o", "r.weld.o"] {
        for (name, linker) in [("lld", tools::lld()?), ("weld", tools::weld()?)] {
            let exe = dir.join(format!("{r}.{name}.exe"));
            let mut cmd = Command::new(tools::find(tools::CLANG)?);
            cmd.current_dir(dir)
                .arg("-fuse-ld=lld")
                .arg(format!("--ld-path={}", linker.display()))
                .arg(r)
                .arg("-o")
                .arg(&exe);
            run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {r} by {name}"))?;
            let out = run::run(&mut Command::new(&exe), run::TOOL_TIMEOUT)?
                .ok(&format!("running {}", exe.display()))?
                .stdout_str();
            if out != expected {
                problems.push(format!(
                    "{r} linked by {name} prints {out:?}, expected {expected:?}"
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

fn readelf(args: &[&str], file: &Path) -> Result<String, String> {
    let mut cmd = Command::new(tools::find(tools::READELF)?);
    cmd.args(args).arg("-W").arg(file);
    Ok(run::run(&mut cmd, run::TOOL_TIMEOUT)?
        .ok(&format!("llvm-readelf {args:?}"))?
        .stdout_str())
}

/// The section headers as (index, fields after the index: name type address offset size es
/// [flags] link info align).
fn headers(file: &Path) -> Result<Vec<(usize, Vec<String>)>, String> {
    let text = readelf(&["-S"], file)?;
    Ok(weld_tests::dynelf::parse_section_header_rows(&text)
        .into_iter()
        .filter_map(|(num, t)| {
            let index = num.parse::<usize>().ok()?;
            (index > 0 && t.len() >= 9).then_some((index, t))
        })
        .collect())
}

/// Every section in order: name, type, flags, size, alignment, and the section its `sh_info`
/// names for a relocation section. Sizes of `.eh_frame`, its relocations and the symbol and
/// string tables are left out (see the module documentation).
fn sections(file: &Path) -> Result<Vec<String>, String> {
    let h = headers(file)?;
    let name_of = |i: &str| -> String {
        let i: usize = i.parse().unwrap_or(0);
        h.iter()
            .find(|(n, _)| *n == i)
            .map_or(String::new(), |(_, t)| t[0].clone())
    };
    Ok(h.iter()
        .map(|(_, t)| {
            let flags = if t.len() >= 10 { t[6].as_str() } else { "" };
            let size = match t[0].as_str() {
                ".eh_frame" | ".rela.eh_frame" | ".symtab" | ".strtab" | ".shstrtab" => "-",
                _ => t[4].as_str(),
            };
            let info = if t[1] == "RELA" {
                name_of(&t[t.len() - 2])
            } else {
                String::new()
            };
            format!(
                "{} {} {flags} size={size} align={} {info}",
                t[0],
                t[1],
                t[t.len() - 1]
            )
        })
        .collect())
}

/// Non-section symbols as sorted `name bind type visibility section value` lines.
fn symbols(file: &Path) -> Result<Vec<String>, String> {
    let h = headers(file)?;
    let text = readelf(&["-s"], file)?;
    let mut v = Vec::new();
    for line in text.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 8 || !t[0].ends_with(':') || t[3] == "SECTION" {
            continue;
        }
        let section = match t[6].parse::<usize>() {
            Ok(i) => h
                .iter()
                .find(|(n, _)| *n == i)
                .map_or(String::from("?"), |(_, s)| s[0].clone()),
            Err(_) => t[6].to_string(),
        };
        v.push(format!(
            "{} {} {} {} {section} 0x{}",
            t[7], t[4], t[3], t[5], t[1]
        ));
    }
    v.sort();
    Ok(v)
}

/// The section groups, in order: `signature: member member ...` (members by name).
fn groups(file: &Path) -> Result<Vec<String>, String> {
    let text = readelf(&["-g"], file)?;
    let mut v: Vec<String> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t
            .strip_prefix("COMDAT group section")
            .or_else(|| t.strip_prefix("group section"))
        {
            // `[    4] `.group' [sig] contains N sections:`
            let sig = rest
                .split('[')
                .nth(2)
                .and_then(|r| r.split(']').next())
                .unwrap_or("?");
            v.push(format!("{sig}:"));
        } else if let (Some(last), Some(rest)) = (v.last_mut(), t.strip_prefix('[')) {
            if let Some((_, name)) = rest.split_once(']') {
                if !name.trim().is_empty() && !rest.starts_with("Index") {
                    last.push(' ');
                    last.push_str(name.trim());
                }
            }
        }
    }
    Ok(v)
}

/// Per relocation section, in section order: `offset type symbol addend` lines (for
/// `.eh_frame`, without offsets and `R_X86_64_NONE`).
fn relocations(file: &Path) -> Result<Vec<String>, String> {
    let text = readelf(&["-r"], file)?;
    let mut v = Vec::new();
    let mut eh = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Relocation section '") {
            let name = rest.split('\'').next().unwrap_or("");
            eh = name == ".rela.eh_frame";
            v.push(format!("[{name}]"));
            continue;
        }
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 3 || !t[2].starts_with("R_X86_64") {
            continue;
        }
        if eh && t[2] == "R_X86_64_NONE" {
            continue;
        }
        let rest = t[3..].join(" ");
        // Offset Info Type [Value Name +|- Addend]: the symbol's value is its own business.
        let rest = match t.len() {
            n if n >= 7 => format!("{} {}{}", t[4], t[5], t[6]),
            _ => rest,
        };
        let offset = if eh { "-" } else { t[0] };
        v.push(format!("{offset} {} {rest}", t[2]));
    }
    Ok(v)
}
