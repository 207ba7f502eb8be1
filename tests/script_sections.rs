//! Linker scripts' `SECTIONS` (issue #14), differential against ld.lld-22: the same script and
//! inputs are linked by both and the layouts must be the same — every allocated section's
//! address, file offset, size, flags and alignment, every program header (load addresses
//! included), every symbol's value and section — and the programs run the same. What cannot
//! be the same is named where it is skipped: the bytes of `.comment` (each linker signs it),
//! and so the offsets of the non-allocated sections after it.

use libtest_mimic::Arguments;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use weld_tests::linkerr::{self, link_both};
use weld_tests::tools::Linker;
use weld_tests::{paths, run, tools, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "script_sections",
        &[
            ("freestanding_image", freestanding_image),
            ("kernel_style_image_with_at", kernel_style_image_with_at),
            ("gnu_default_script_hosted", gnu_default_script_hosted),
            ("patterns_sorts_and_keep", patterns_sorts_and_keep),
            ("orphans_placed_like_lld", orphans_placed_like_lld),
            ("dot_backward_like_lld", dot_backward_like_lld),
            ("memory_regions_firmware", memory_regions_firmware),
            ("region_overflow_like_lld", region_overflow_like_lld),
            ("phdrs_listed_by_the_script", phdrs_listed_by_the_script),
            ("phdrs_errors_like_lld", phdrs_errors_like_lld),
            ("options_with_a_script", options_with_a_script),
            ("overlaps_like_lld", overlaps_like_lld),
            ("overlay", overlay),
            ("nocrossrefs_like_lld", nocrossrefs_like_lld),
            (
                "insert_after_a_default_section",
                insert_after_a_default_section,
            ),
            (
                "output_command_names_the_file",
                output_command_names_the_file,
            ),
            ("thin_lto_with_a_script", thin_lto_with_a_script),
            ("compound_assignments", compound_assignments),
            (
                "exclude_file_before_the_file_like_lld",
                exclude_file_before_the_file_like_lld,
            ),
            (
                "addressed_empty_sections_are_kept",
                addressed_empty_sections_are_kept,
            ),
            (
                "assignments_outside_sections_read_the_counter",
                assignments_outside_sections_read_the_counter,
            ),
            (
                "insert_moves_the_location_counter",
                insert_moves_the_location_counter,
            ),
            (
                "overwrite_sections_without_sections",
                overwrite_sections_without_sections,
            ),
            (
                "overwrite_sections_hosted_keep_gc",
                overwrite_sections_hosted_keep_gc,
            ),
            (
                "overwrite_sections_replace_a_description",
                overwrite_sections_replace_a_description,
            ),
            (
                "overwrite_sections_diagnostics_like_lld",
                overwrite_sections_diagnostics_like_lld,
            ),
            ("not_yet_is_an_error", not_yet_is_an_error),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

/// Freestanding code: writes "hi\n" and exits with 0 when the symbols the script defines
/// make sense.
const START_C: &str = r#"
extern char __data_start[], _edata[], __bss_start[], _end[];
int counter = 5;
int zero;
const char msg[] = "hi\n";
static long sys3(long n, long a, long b, long c) {
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
}
void _start(void) {
  sys3(1, 1, (long)msg, 3);
  long ok = _edata > __data_start && (unsigned long)_end >= (unsigned long)__bss_start
            && counter == 5 && zero == 0;
  sys3(60, ok ? 0 : 1, 0, 0);
}
"#;

/// Freestanding code that only exits with 0.
const PLAIN_START_C: &str = "void _start(void) {\n\
      __asm__ volatile(\"syscall\" : : \"a\"(60L), \"D\"(0L));\n\
      __builtin_unreachable();\n\
    }\n";

fn compile(dir: &Path, name: &str, src: &str, flags: &[&str]) -> Check {
    let mut all = vec![
        "-fno-pic",
        "-ffreestanding",
        "-fno-asynchronous-unwind-tables",
    ];
    all.extend_from_slice(flags);
    linkerr::compile(dir, &format!("{name}.c"), src, &all).map(|_| ())
}

/// Both linkers on `args -o out.{lld,weld}` in `dir`; both must succeed.
fn link_ok(dir: &Path, args: &[&str]) -> Check {
    for (linker, out) in [(tools::lld()?, "out.lld"), (tools::weld()?, "out.weld")] {
        let mut cmd = Command::new(&linker);
        cmd.current_dir(dir).args(args).args(["-o", out]);
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
    }
    Ok(())
}

/// Both linkers succeed with the same diagnostics (program names aside).
fn same_warnings(dir: &Path, args: &[&str]) -> Check {
    let mut stderr = Vec::new();
    for (linker, out) in [(tools::lld()?, "out.lld"), (tools::weld()?, "out.weld")] {
        let mut cmd = Command::new(&linker);
        cmd.current_dir(dir).args(args).args(["-o", out]);
        let output = run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
        let name = linker.file_name().unwrap_or_default().to_string_lossy();
        stderr.push(linkerr::rename_program(&output.stderr_str(), &name, "L"));
    }
    if stderr[0].is_empty() || stderr[0] != stderr[1] {
        return Err(format!(
            "{args:?}: expected the same warnings\n--- ld.lld-22\n{}--- weld\n{}",
            stderr[0], stderr[1]
        ));
    }
    Ok(())
}

/// Writes `text` as script `name` (a line end added), links `args` with it by both linkers,
/// and compares the layouts and, with `contents`, the bytes; a difference names the script.
fn same_with_script(dir: &Path, name: &str, text: &str, args: &[&str], contents: bool) -> Check {
    paths::write(&dir.join(name), format!("{}\n", text.trim_end()))?;
    let mut all = vec!["-T", name];
    all.extend_from_slice(args);
    link_ok(dir, &all)?;
    let in_script = |e: String| format!("{name} ({text}): {e}");
    same_layout(dir, "out.lld", "out.weld").map_err(in_script)?;
    if contents {
        same_contents(dir, "out.lld", "out.weld").map_err(in_script)?;
    }
    Ok(())
}

fn runs_with(program: &Path, code: i32, stdout: &str) -> Check {
    let out = run::run(&mut Command::new(program), run::TOOL_TIMEOUT)?;
    if out.code != Some(code) || String::from_utf8_lossy(&out.stdout) != stdout {
        return Err(format!(
            "{} should print {stdout:?} and exit with {code}:\n{}",
            program.display(),
            out.report()
        ));
    }
    Ok(())
}

/// The layout facts of an output: section rows (allocated ones whole; the others by name,
/// type and flags), program header rows, symbols (value and section name).
struct Facts {
    sections: Vec<String>,
    segments: Vec<String>,
    symbols: BTreeMap<String, (String, String)>,
}

fn facts(file: &Path) -> Result<Facts, String> {
    let text = weld_tests::dynelf::readelf(&["-SlW"], file)?;
    let mut sections = Vec::new();
    let mut segments = Vec::new();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some((idx, rest)) = l.strip_prefix('[').and_then(|l| l.split_once(']')) {
            let t: Vec<&str> = rest.split_whitespace().collect();
            if t.len() < 9 || t[0] == "Nr" {
                continue;
            }
            names.insert(idx.trim().to_string(), t[0].to_string());
            // Name Type Address Off Size ES Flg [Lk Inf] Al: flags may be empty, so the
            // columns after ES are read from the end.
            let alloc = t.len() >= 10 && t[6].contains('A');
            if alloc {
                sections.push(t.join(" "));
            } else {
                sections.push(format!("{} {} (not allocated)", t[0], t[1]));
            }
            continue;
        }
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.len() >= 7
            && t[1].starts_with("0x")
            && t[0].chars().all(|c| c.is_ascii_uppercase() || c == '_')
        {
            segments.push(t.join(" "));
        }
    }
    let mut symbols = BTreeMap::new();
    for t in weld_tests::dynelf::symtab_rows(file)? {
        let section = names.get(&t[6]).cloned().unwrap_or_else(|| t[6].clone());
        symbols.insert(
            t[7].clone(),
            (t[1].clone(), format!("{} {}", t[3], section)),
        );
    }
    Ok(Facts {
        sections,
        segments,
        symbols,
    })
}

/// The two outputs in `dir` have the same layout (see [`facts`]).
fn same_layout(dir: &Path, lld: &str, weld: &str) -> Check {
    let a = facts(&dir.join(lld))?;
    let b = facts(&dir.join(weld))?;
    let mut problems = Vec::new();
    if a.sections != b.sections {
        problems.push(format!(
            "section headers differ:\nld.lld-22:\n  {}\nweld:\n  {}",
            a.sections.join("\n  "),
            b.sections.join("\n  ")
        ));
    }
    if a.segments != b.segments {
        problems.push(format!(
            "program headers differ:\nld.lld-22:\n  {}\nweld:\n  {}",
            a.segments.join("\n  "),
            b.segments.join("\n  ")
        ));
    }
    for (name, v) in &a.symbols {
        match b.symbols.get(name) {
            Some(w) if w == v => {}
            other => problems.push(format!("symbol {name}: ld.lld-22 {v:?}, weld {other:?}")),
        }
    }
    for name in b.symbols.keys() {
        if !a.symbols.contains_key(name) {
            problems.push(format!("symbol {name} only in weld's output"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Every allocated section with contents holds the same bytes in both outputs (relocations
/// applied, data commands written).
fn same_contents(dir: &Path, lld: &str, weld: &str) -> Check {
    let mut names = Vec::new();
    for (_, t) in weld_tests::dynelf::section_header_rows(&dir.join(lld))? {
        // The build ID hashes the whole file, `.comment`'s signature included.
        if t.len() >= 10 && t[6].contains('A') && t[1] != "NOBITS" && t[0] != ".note.gnu.build-id" {
            names.push(t[0].clone());
        }
    }
    if names.is_empty() {
        return Err(format!("{lld}: no allocated section with contents"));
    }
    for name in names {
        let a = weld_tests::dynelf::readelf(&["-x", &name], &dir.join(lld))?;
        let b = weld_tests::dynelf::readelf(&["-x", &name], &dir.join(weld))?;
        if a != b {
            return Err(format!("{name} differs:\nld.lld-22:\n{a}\nweld:\n{b}"));
        }
    }
    Ok(())
}

/// The classic hand-written script: a start address, sections in a chosen order with
/// alignment between them, symbols between sections, data commands, fill patterns,
/// `/DISCARD/`.
fn freestanding_image(dir: &Path) -> Check {
    compile(dir, "a", START_C, &[])?;
    paths::write(
        &dir.join("s.lds"),
        "SECTIONS {\n\
           . = 0x400000 + SIZEOF_HEADERS;\n\
           .text : { *(.text .text.*) . = ALIGN(64); } =0x90c3\n\
           . = ALIGN(0x1000);\n\
           .rodata : { *(.rodata .rodata.*) }\n\
           . = ALIGN(0x1000);\n\
           __data_start = .;\n\
           .data : { *(.data .data.*) . += 6; FILL(0x11223344); BYTE(0x11) . = ALIGN(16); QUAD(0x1122334455667788) }\n\
           _edata = .;\n\
           __bss_start = .;\n\
           .bss : { *(.bss .bss.*) *(COMMON) }\n\
           _end = .;\n\
           /DISCARD/ : { *(.comment) *(.note.GNU-stack) }\n\
         }\n",
    )?;
    link_ok(dir, &["-T", "s.lds", "a.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    same_contents(dir, "out.lld", "out.weld")?;
    runs_with(&dir.join("out.lld"), 0, "hi\n")?;
    runs_with(&dir.join("out.weld"), 0, "hi\n")
}

/// A kernel-style image: code linked at a high address and loaded low (`AT`), an entry
/// section kept first, `KEEP` under `--gc-sections`, symbols inside sections, `LOADADDR`,
/// sorted init calls, `NOLOAD`.
fn kernel_style_image_with_at(dir: &Path) -> Check {
    compile(
        dir,
        "k",
        "__attribute__((section(\".head.text\"))) void entry(void) { for (;;) {} }\n\
         int boot_data = 3;\n\
         __attribute__((section(\".initcall.2\"), used)) static int c2 = 2;\n\
         __attribute__((section(\".initcall.1\"), used)) static int c1 = 1;\n\
         __attribute__((section(\".unused_fn\"))) int unused(void) { return 9; }\n\
         __attribute__((section(\".scratch\"))) char scratch[4096];\n\
         char stack[8192];\n",
        &["-ffunction-sections", "-fdata-sections"],
    )?;
    paths::write(
        &dir.join("k.lds"),
        "ENTRY(entry)\n\
         KERNEL_VMA = 0xffffffff80000000;\n\
         SECTIONS {\n\
           . = KERNEL_VMA + 0x100000;\n\
           _text = .;\n\
           .text : AT(ADDR(.text) - KERNEL_VMA) {\n\
             KEEP(*(.head.text))\n\
             *(.text .text.*)\n\
           }\n\
           _etext = .;\n\
           . = ALIGN(4096);\n\
           .rodata : { *(.rodata .rodata.*) }\n\
           .init.data : {\n\
             __initcall_start = .;\n\
             KEEP(*(SORT_BY_NAME(.initcall.*)))\n\
             __initcall_end = .;\n\
           }\n\
           . = ALIGN(4096);\n\
           .data : { *(.data .data.*) LONG(0xdeadbeef) }\n\
           _data_lma = LOADADDR(.data);\n\
           .bss : { __bss_start = .; *(.bss .bss.*) *(COMMON) . = ALIGN(16); __bss_stop = .; }\n\
           .scratch (NOLOAD) : { *(.scratch) }\n\
           _end = .;\n\
           /DISCARD/ : { *(.comment) *(.note.*) *(.eh_frame) }\n\
         }\n",
    )?;
    link_ok(
        dir,
        &[
            "-T",
            "k.lds",
            "--gc-sections",
            "-z",
            "max-page-size=4096",
            "k.o",
        ],
    )?;
    same_layout(dir, "out.lld", "out.weld")?;
    same_contents(dir, "out.lld", "out.weld")?;
    let f = facts(&dir.join("out.weld"))?;
    if f.symbols.contains_key("unused") {
        return Err("--gc-sections kept `unused`, which nothing references".into());
    }
    if !f.symbols.contains_key("c1") || !f.symbols.contains_key("entry") {
        return Err("KEEP did not keep the init calls and the entry section".into());
    }
    Ok(())
}

/// A hosted C program linked by gcc with GNU ld's own default script (`ld --verbose`), which
/// uses most of the language: `PROVIDE`, `SEGMENT_START`, `DATA_SEGMENT_*`, `ONLY_IF_RO`/`RW`,
/// `KEEP` with `SORT_BY_INIT_PRIORITY`, `EXCLUDE_FILE`, orphans.
fn gnu_default_script_hosted(dir: &Path) -> Check {
    let verbose = run::run(Command::new("ld.bfd").arg("--verbose"), run::TOOL_TIMEOUT)?
        .ok("ld.bfd --verbose")?;
    let text = String::from_utf8_lossy(&verbose.stdout).into_owned();
    let script: Vec<&str> = text
        .split("==================================================")
        .collect();
    let Some(body) = script.get(1) else {
        return Err("ld.bfd --verbose printed no default script".into());
    };
    paths::write(&dir.join("gnu.lds"), body)?;
    paths::write(
        &dir.join("h.c"),
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\
         __thread int tls_counter = 3;\n\
         static int ctor_ran;\n\
         __attribute__((constructor)) static void init(void) { ctor_ran = 1; }\n\
         int main(int argc, char **argv) {\n\
           char *p = malloc(32); strcpy(p, \"hello\");\n\
           printf(\"%s %d %d %d\\n\", p, ctor_ran, tls_counter, argc);\n\
           free(p); return 0;\n\
         }\n",
    )?;
    let gcc = tools::find(tools::GCC)?;
    let mut cc = Command::new(&gcc);
    cc.current_dir(dir)
        .args(["-no-pie", "-O1", "-c", "h.c", "-o", "h.o"]);
    run::run(&mut cc, run::TOOL_TIMEOUT)?.ok("compiling h.c")?;
    for (linker, out) in [(Linker::lld()?, "out.lld"), (Linker::weld()?, "out.weld")] {
        let bin = linker.gcc_bin_dir()?;
        let mut cmd = Command::new(&gcc);
        cmd.current_dir(dir)
            .arg("-B")
            .arg(&bin)
            .args(["-no-pie", "-Wl,-T,gnu.lds", "h.o", "-o", out])
            .arg(format!("-Wl,-Map,{out}.map"));
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
    }
    // The maps follow the script: assignments between and inside sections, data commands.
    let map = |f: &str| -> Result<Vec<String>, String> {
        let text = std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"))?;
        Ok(text
            .lines()
            .filter(|l| !l.contains(".comment"))
            .map(str::to_string)
            .collect())
    };
    let (a, b) = (map("out.lld.map")?, map("out.weld.map")?);
    if a != b {
        let first = a
            .iter()
            .zip(&b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        return Err(format!(
            "-Map differs from line {}:\nld.lld-22: {:?}\nweld:      {:?}",
            first + 1,
            a.get(first),
            b.get(first)
        ));
    }
    // The signature in `.comment` differs in length: the sections after it move.
    same_layout(dir, "out.lld", "out.weld")?;
    runs_with(&dir.join("out.lld"), 0, "hello 1 3 1\n")?;
    runs_with(&dir.join("out.weld"), 0, "hello 1 3 1\n")
}

/// Input section descriptions: `archive:member` and `EXCLUDE_FILE` file patterns, the sorts,
/// `INPUT_SECTION_FLAGS`, and which description takes a section when two could.
fn patterns_sorts_and_keep(dir: &Path) -> Check {
    compile(dir, "a", PLAIN_START_C, &[])?;
    compile(
        dir,
        "m",
        "__attribute__((section(\".s.b\"), aligned(4))) int b1 = 1;\n\
         __attribute__((section(\".s.a\"), aligned(16))) int a1 = 2;\n\
         __attribute__((section(\".s.c\"), aligned(8))) int c1 = 3;\n\
         __attribute__((section(\".t.x\"))) const int x1 = 4;\n",
        &[],
    )?;
    compile(
        dir,
        "n",
        "__attribute__((section(\".s.a\"), aligned(4))) int a2 = 5;\n\
         __attribute__((section(\".t.x\"))) const int x2 = 6;\n",
        &[],
    )?;
    let mut ar = Command::new(tools::find(tools::AR)?);
    ar.current_dir(dir).args(["rcs", "libn.a", "n.o"]);
    run::run(&mut ar, run::TOOL_TIMEOUT)?.ok("ar")?;
    paths::write(
        &dir.join("p.lds"),
        "SECTIONS {\n\
           . = 0x500000;\n\
           .text : { *(.text*) }\n\
           .byname : { *(SORT_BY_NAME(.s.*)) }\n\
           .member : { *libn.a:n.o(.t.x) }\n\
           .others : { *(EXCLUDE_FILE(*libn.a:) .t.x) }\n\
           .byalign : { *(SORT_BY_ALIGNMENT(.data*)) }\n\
           .rw : { INPUT_SECTION_FLAGS(SHF_WRITE) *(.rodata*) }\n\
           .ro : { *(.rodata*) }\n\
           .rev : { *(REVERSE(.bss*)) }\n\
         }\n",
    )?;
    link_ok(
        dir,
        &[
            "-T", "p.lds", "a.o", "m.o", "libn.a", "-u", "a2", "-u", "x2",
        ],
    )?;
    same_layout(dir, "out.lld", "out.weld")?;
    // The read-only and writable sections share pages under different permissions here (the
    // script puts them back to back): neither output can run, both must hold the same bytes.
    same_contents(dir, "out.lld", "out.weld")
}

/// Sections the script does not name go where lld puts them: next to the most similar section,
/// not between a section and the symbol after it, after the first `. =`.
fn orphans_placed_like_lld(dir: &Path) -> Check {
    compile(
        dir,
        "o",
        &format!(
            "{PLAIN_START_C}\n\
             __attribute__((section(\"orphan_rw\"))) int orw = 1;\n\
             __attribute__((section(\"orphan_ro\"))) const int oro = 2;\n\
             __attribute__((section(\"orphan_x\"))) int ox(void) {{ return 3; }}\n\
             __attribute__((section(\".tdata\"))) int td = 4;\n"
        ),
        &[],
    )?;
    paths::write(
        &dir.join("o.lds"),
        "SECTIONS {\n\
           start_sym = .;\n\
           . = 0x600000;\n\
           .text : { *(.text) }\n\
           text_end = .;\n\
           .rodata : { *(.rodata*) }\n\
           .data : { *(.data) }\n\
           data_end = .;\n\
           . = ALIGN(0x1000);\n\
           .bss : { *(.bss) }\n\
         }\n",
    )?;
    link_ok(dir, &["-T", "o.lds", "o.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    same_contents(dir, "out.lld", "out.weld")
}

/// Firmware-style: code and constants in flash, data linked in RAM but loaded in flash after
/// the code (`> ram AT> rom`), `REGION_ALIAS`, `ORIGIN`/`LENGTH`, `LOADADDR`; and
/// `--print-memory-usage` prints what lld prints.
fn memory_regions_firmware(dir: &Path) -> Check {
    compile(dir, "a", START_C, &[])?;
    paths::write(
        &dir.join("mem.lds"),
        "MEMORY {\n\
           rom (rx) : ORIGIN = 0x100000, LENGTH = 64K\n\
           ram (rwx) : ORIGIN = 0x200000, LENGTH = 16K\n\
         }\n\
         REGION_ALIAS(\"REGION_DATA\", ram);\n\
         SECTIONS {\n\
           .text : { *(.text .text.*) } > rom\n\
           .rodata : { *(.rodata .rodata.*) } > rom\n\
           _sidata = LOADADDR(.data);\n\
           .data : { __data_start = .; *(.data .data.*) LONG(ORIGIN(ram)) LONG(LENGTH(rom)) _edata = .; } > REGION_DATA AT> rom\n\
           .bss (NOLOAD) : { __bss_start = .; *(.bss .bss.*) *(COMMON) _end = .; } > ram\n\
           /DISCARD/ : { *(.comment) *(.note.GNU-stack) *(.eh_frame) }\n\
         }\n",
    )?;
    let mut usage = Vec::new();
    for (linker, out) in [(tools::lld()?, "out.lld"), (tools::weld()?, "out.weld")] {
        let mut cmd = Command::new(&linker);
        cmd.current_dir(dir)
            .args(["-T", "mem.lds", "a.o", "--print-memory-usage", "-o", out]);
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
        usage.push(String::from_utf8_lossy(&o.stdout).into_owned());
    }
    if usage[0] != usage[1] || !usage[0].contains("Memory region") {
        return Err(format!(
            "--print-memory-usage differs:\nld.lld-22:\n{}\nweld:\n{}",
            usage[0], usage[1]
        ));
    }
    same_layout(dir, "out.lld", "out.weld")?;
    same_contents(dir, "out.lld", "out.weld")
}

/// `PHDRS`: headers in the first load (`FILEHDR PHDRS`), `PT_PHDR`, a note segment, a stack
/// segment with `FLAGS`, a load with `AT`; sections inherit the headers of the one before.
fn phdrs_listed_by_the_script(dir: &Path) -> Check {
    compile(dir, "a", START_C, &[])?;
    compile(
        dir,
        "n",
        "__attribute__((section(\".note.x\"), aligned(4))) const int note[4] = {4, 4, 1, 0};\n\
         __attribute__((section(\".boot\"))) int boot_flag = 1;\n",
        &[],
    )?;
    paths::write(
        &dir.join("ph.lds"),
        "PHDRS {\n\
           headers PT_PHDR PHDRS;\n\
           text PT_LOAD FILEHDR PHDRS;\n\
           data PT_LOAD;\n\
           note PT_NOTE;\n\
           stack PT_GNU_STACK FLAGS(6);\n\
           boot PT_LOAD AT(0x9000) FLAGS(7);\n\
         }\n\
         SECTIONS {\n\
           . = 0x400000 + SIZEOF_HEADERS;\n\
           .text : { *(.text*) } :text\n\
           .rodata : { *(.rodata*) }\n\
           .note : { *(.note.*) } :text :note\n\
           . = ALIGN(0x1000);\n\
           __data_start = .;\n\
           .data : { *(.data*) } :data\n\
           _edata = .;\n\
           __bss_start = .;\n\
           .bss : { *(.bss*) }\n\
           _end = .;\n\
           .boot 0x800000 : { *(.boot) LONG(1) } :boot\n\
           /DISCARD/ : { *(.comment) *(.eh_frame) }\n\
         }\n",
    )?;
    link_ok(dir, &["-T", "ph.lds", "a.o", "n.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    same_contents(dir, "out.lld", "out.weld")?;
    runs_with(&dir.join("out.lld"), 0, "hi\n")?;
    runs_with(&dir.join("out.weld"), 0, "hi\n")
}

/// Headers that do not fit below the first section, and a header no `PHDRS` lists.
fn phdrs_errors_like_lld(dir: &Path) -> Check {
    compile(dir, "a", PLAIN_START_C, &[])?;
    paths::write(
        &dir.join("fit.lds"),
        "PHDRS { text PT_LOAD FILEHDR PHDRS; }\nSECTIONS { . = 0x10; .text : { *(.text) } :text }\n",
    )?;
    link_both(dir, &["-T", "fit.lds", "a.o"])?.same_first_error("could not allocate headers")?;
    paths::write(
        &dir.join("name.lds"),
        "PHDRS { text PT_LOAD; }\nSECTIONS { .text : { *(.text) } :nope }\n",
    )?;
    link_both(dir, &["-T", "name.lds", "a.o"])?
        .same_first_error("name.lds:2: program header 'nope' is not listed in PHDRS")
}

/// Options that act on a script's layout: `-Ttext` (and the orphan placement it changes),
/// `--sort-section`, `--orphan-handling=warn|error` (lld's words).
fn options_with_a_script(dir: &Path) -> Check {
    compile(
        dir,
        "a",
        &format!(
            "{PLAIN_START_C}\n\
             __attribute__((section(\".d.b\"), aligned(4))) int b1 = 1;\n\
             __attribute__((section(\".d.a\"), aligned(16))) int a1 = 2;\n"
        ),
        &[],
    )?;
    paths::write(
        &dir.join("o.lds"),
        "SECTIONS { . = 0x400000; .text : { *(.text) } .d : { *(.d.*) } }\n",
    )?;
    link_ok(
        dir,
        &[
            "-T",
            "o.lds",
            "a.o",
            "-Ttext=0x500000",
            "--sort-section=name",
        ],
    )?;
    same_layout(dir, "out.lld", "out.weld")?;
    link_ok(dir, &["-T", "o.lds", "a.o", "--sort-section=alignment"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    // Every orphan is named (the linker's own sections too, `.symtab` and its string tables
    // last), as an error or a warning; stripping or dropping section headers changes the list.
    let error = link_both(dir, &["-T", "o.lds", "a.o", "--orphan-handling=error"])?;
    error.same_first_error("a.o:(.comment) is being placed in '.comment'")?;
    if linkerr::error_lines(&error.lld_as_weld).len() < 4 {
        return Err(format!(
            "expected lld to name several orphans\n{}",
            error.lld.report()
        ));
    }
    error.same_stderr()?;
    for extra in [&[][..], &["-s"], &["-z", "nosectionheader"]] {
        let mut args = vec!["-T", "o.lds", "a.o", "--orphan-handling=warn"];
        args.extend_from_slice(extra);
        same_warnings(dir, &args)?;
    }
    Ok(())
}

/// `OVERLAY`: sections at one address loaded one after the other, the location counter past
/// the largest; their shared addresses are no overlap error.
fn overlay(dir: &Path) -> Check {
    compile(
        dir,
        "o",
        &format!(
            "{PLAIN_START_C}\n\
             __attribute__((section(\".ov1\"))) int f1(void) {{ return 1; }}\n\
             __attribute__((section(\".ov2\"))) int f2(void) {{ return 2; }}\n\
             __attribute__((section(\".ov2\"))) int f2b(void) {{ return 22; }}\n"
        ),
        &[],
    )?;
    paths::write(
        &dir.join("ovr.lds"),
        "SECTIONS {\n . = 0x400000;\n .text : { *(.text) }\n\
         OVERLAY 0x500000 : AT(0x600000) { .ov1 { *(.ov1) } .ov2 { *(.ov2) } }\n\
         after = .;\n .data : { *(.data) }\n}\n",
    )?;
    link_ok(dir, &["-T", "ovr.lds", "o.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    same_contents(dir, "out.lld", "out.weld")
}

/// `NOCROSSREFS` and `NOCROSSREFS_TO`: a reference between the listed sections is lld's
/// error, naming the place and the symbol.
fn nocrossrefs_like_lld(dir: &Path) -> Check {
    compile(
        dir,
        "n",
        &format!(
            "{PLAIN_START_C}\n\
             __attribute__((section(\".a\"), noinline)) int fa(void) {{ return 1; }}\n\
             __attribute__((section(\".b\"))) int fb(void) {{ return fa() + 1; }}\n\
             static __attribute__((section(\".c\"), used)) int cdata = 3;\n\
             __attribute__((section(\".b\"))) int fb2(void) {{ return cdata; }}\n"
        ),
        &[],
    )?;
    let sections = "SECTIONS { . = 0x400000; .text : { *(.text) } .a : { *(.a) } .b : { *(.b) } .c : { *(.c) } }\n";
    paths::write(
        &dir.join("all.lds"),
        format!("{sections}NOCROSSREFS(.a .b .c)\n"),
    )?;
    let both = link_both(dir, &["-T", "all.lds", "n.o"])?;
    both.same_stderr()?;
    paths::write(
        &dir.join("to.lds"),
        format!("{sections}NOCROSSREFS_TO(.c .b)\n"),
    )?;
    let both = link_both(dir, &["-T", "to.lds", "n.o"])?;
    both.same_first_error(
        "n.o:(function fb2: .b+0x12): prohibited cross reference from '.b' to '.c' in '.c'",
    )?;
    both.same_stderr()
}

/// `SECTIONS { ... } INSERT AFTER .data`: the built-in layout of a hosted PIE, with one
/// described section after `.data` whose symbols and data commands the script gives.
fn insert_after_a_default_section(dir: &Path) -> Check {
    linkerr::compile(
        dir,
        "in.c",
        "__attribute__((section(\".mydata\"))) int md = 5;\n\
         __attribute__((section(\".mydata\"))) int md2 = 6;\n\
         extern char __mydata_start[], __mydata_end[];\n\
         int main(void) { return (__mydata_end - __mydata_start == 8 && md == 5) ? 0 : 1; }\n",
        &[],
    )?;
    paths::write(
        &dir.join("in.lds"),
        "SECTIONS { .mydata : { __mydata_start = .; KEEP(*(.mydata)) LONG(0x12345678) \
         __mydata_end = . - 4; } } INSERT AFTER .data;\nfoo_sym = __mydata_start;\n",
    )?;
    let clang = tools::find(tools::CLANG)?;
    for (linker, out) in [(tools::lld()?, "out.lld"), (tools::weld()?, "out.weld")] {
        let mut cmd = Command::new(&clang);
        cmd.current_dir(dir)
            .arg("-fuse-ld=lld")
            .arg(format!("--ld-path={}", linker.display()))
            .args(["in.o", "-Wl,-T,in.lds", "-o", out]);
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
    }
    same_layout(dir, "out.lld", "out.weld")?;
    same_contents(dir, "out.lld", "out.weld")?;
    runs_with(&dir.join("out.lld"), 0, "")?;
    runs_with(&dir.join("out.weld"), 0, "")
}

/// `INSERT`ed `SECTIONS` that move the location counter, as lld: inside a section the counter
/// spaces the inputs out and the section grows; outside one, lld keeps the commands after every
/// section (only output sections move), so `.` there moves what later assignments read and
/// nothing else. Also the built-in layout of a static program whose only RELRO section is
/// `.tbss` (no `PT_GNU_RELRO`, as lld), and of writable sections inserted before RELRO ones.
fn insert_moves_the_location_counter(dir: &Path) -> Check {
    compile(
        dir,
        "m",
        &format!(
            "{PLAIN_START_C}\n\
             __attribute__((section(\".foo\"))) int f1 = 1;\n\
             __attribute__((section(\".foo\"))) char f2 = 2;\n\
             __attribute__((section(\".bar\"))) int b1 = 3;\n\
             __attribute__((used)) static __thread int tl;\n\
             int bss[100];\nint d = 4;\n"
        ),
        &[],
    )?;
    link_ok(dir, &["m.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    runs_with(&dir.join("out.weld"), 0, "")?;
    let scripts = [
        "SECTIONS { .foo : { *(.foo) . = ALIGN(32); } } INSERT AFTER .data;",
        "SECTIONS { .foo : { s = .; *(.foo) . += 0x40; x = .; *(.bar) } } INSERT BEFORE .data;",
        "SECTIONS { .foo : { *(.foo) } y = .; . = ALIGN(0x100); z = .; w = ADDR(.foo); } \
         INSERT AFTER .data;",
        "SECTIONS { y = .; .foo : { *(.foo) } } INSERT AFTER .data;\n\
         SECTIONS { . += 0x10; z = .; .baz : { *(.bar) } } INSERT BEFORE .data;",
        // Empty descriptions: the flags of the section before them where they end up; an
        // empty PT_LOAD of their own is dropped, its room in the headers kept (as lld).
        "SECTIONS { .e : { x = .; } } INSERT BEFORE .data;",
        "SECTIONS { .e : { x = .; } .f : { *(.foo) } } INSERT AFTER .text;",
    ];
    for (n, text) in scripts.iter().enumerate() {
        for strip in [&[][..], &["-s"]] {
            let mut args = vec!["m.o"];
            args.extend_from_slice(strip);
            same_with_script(dir, &format!("mv{n}.lds"), text, &args, true)?;
            runs_with(&dir.join("out.weld"), 0, "")?;
        }
    }
    // A writable section before the RELRO ones (after `.text`): one PT_LOAD from it through
    // the RELRO region, `PT_GNU_RELRO` starting inside it, as lld lays it out.
    paths::write(
        &dir.join("rw.lds"),
        "SECTIONS { .foo : { *(.foo) } } INSERT AFTER .text;\n",
    )?;
    for extra in [
        &[][..],
        &["-pie"],
        &["-pie", "-z", "separate-code"],
        &["-z", "separate-loadable-segments"],
    ] {
        for script in [&["-T", "rw.lds"][..], &[]] {
            let mut args = vec!["m.o"];
            args.extend_from_slice(script);
            args.extend_from_slice(extra);
            link_ok(dir, &args)?;
            same_layout(dir, "out.lld", "out.weld").map_err(|e| format!("{args:?}: {e}"))?;
            runs_with(&dir.join("out.weld"), 0, "")?;
        }
    }
    // lld makes `.bss`, `.got`, `.plt`, `.rela.dyn`, ... in every link and drops them when
    // empty only after `INSERT`: next to one this link lacks, the section goes where lld's
    // would have been. In a PIE, a writable section after `.got` splits the RELRO region
    // (lld's error).
    compile(
        dir,
        "n",
        &format!("{PLAIN_START_C}\n__attribute__((section(\".foo\"))) int f1 = 1;\nint d = 4;\n"),
        &[],
    )?;
    for (k, anchor) in [
        "AFTER .bss",
        "AFTER .got",
        "BEFORE .plt",
        "BEFORE .rela.dyn",
    ]
    .iter()
    .enumerate()
    {
        let name = format!("anchor{k}.lds");
        paths::write(
            &dir.join(&name),
            format!("SECTIONS {{ .foo : {{ *(.foo) }} }} INSERT {anchor};\n"),
        )?;
        link_ok(dir, &["-T", name.as_str(), "n.o"])?;
        same_layout(dir, "out.lld", "out.weld").map_err(|e| format!("{anchor}: {e}"))?;
        runs_with(&dir.join("out.weld"), 0, "")?;
    }
    let split = link_both(dir, &["-T", "anchor1.lds", "n.o", "-pie"])?;
    split
        .same_first_error("section: .relro_padding is not contiguous with other relro sections")?;
    split.same_stderr()?;
    paths::write(
        &dir.join("back.lds"),
        "SECTIONS { .foo : { *(.foo) . = 0; } } INSERT AFTER .data;\n",
    )?;
    // (A PIE: in a static link lld reports consequences of the failed walk first.)
    link_both(dir, &["-T", "back.lds", "m.o", "-pie"])?.same_first_error(
        "back.lds:1: unable to move location counter (0x332d) backward to 0x0 for section '.foo'",
    )
}

/// ThinLTO under a script: a `KEEP`ed section defined in bitcode survives `--gc-sections`, a
/// symbol only the script references is kept for it, and the program runs as lld's does.
fn thin_lto_with_a_script(dir: &Path) -> Check {
    let clang = tools::find(tools::CLANG)?;
    paths::write(
        &dir.join("m.c"),
        "#include <stdio.h>\n\
         __attribute__((section(\"mytab\"), used)) static const int tab[2] = {7, 8};\n\
         int script_needs(void) { return 42; }\n\
         extern const int __start_mytab[], __stop_mytab[];\n\
         int main(void) { printf(\"%d %d\\n\", (int)(__stop_mytab - __start_mytab), __start_mytab[1]); return 0; }\n",
    )?;
    let mut cc = Command::new(&clang);
    cc.current_dir(dir)
        .args(["-flto=thin", "-O2", "-c", "m.c", "-o", "m.o"]);
    run::run(&mut cc, run::TOOL_TIMEOUT)?.ok("compiling m.c")?;
    paths::write(
        &dir.join("l.lds"),
        "SECTIONS { mytab : { KEEP(*(mytab)) } } INSERT AFTER .data;\nneeded = script_needs;\n",
    )?;
    for (linker, out) in [(tools::lld()?, "out.lld"), (tools::weld()?, "out.weld")] {
        let mut cmd = Command::new(&clang);
        cmd.current_dir(dir)
            .arg("-fuse-ld=lld")
            .arg(format!("--ld-path={}", linker.display()))
            .args([
                "-flto=thin",
                "m.o",
                "-Wl,-T,l.lds",
                "-Wl,--gc-sections",
                "-o",
                out,
            ]);
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
        let f = facts(&dir.join(out))?;
        if !f.symbols.contains_key("script_needs") || !f.symbols.contains_key("needed") {
            return Err(format!("{out}: the symbol the script reads was not kept"));
        }
    }
    runs_with(&dir.join("out.lld"), 0, "2 8\n")?;
    runs_with(&dir.join("out.weld"), 0, "2 8\n")
}

/// Compound assignments outside `SECTIONS` (`+=`, `<<=`, `|=`): lld's values, sections and
/// types (a `+=` keeps its section, `|=` is absolute, neither is an alias).
fn compound_assignments(dir: &Path) -> Check {
    compile(dir, "a", PLAIN_START_C, &[])?;
    paths::write(
        &dir.join("cp.lds"),
        "foo = 0x10;\nfoo += 4;\nfoo <<= 1;\nbar = _start;\nbar += 8;\nbaz = ADDR(.text);\nbaz |= 1;\n",
    )?;
    link_ok(dir, &["-T", "cp.lds", "a.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    // With no earlier assignment lld starts from 0 and repeats the assignment until the value
    // settles: at once for `|=`, `*=`; `+=`, `-=` and `^=` only with a right-hand side of 0, even
    // for a symbol an object defines; inside `SECTIONS` too.
    compile(
        dir,
        "d",
        &format!("{PLAIN_START_C}\nint d = 1;\nint e = 2;\n"),
        &[],
    )?;
    paths::write(
        &dir.join("first.lds"),
        "d |= 0x30;\ne *= 2;\nund |= 4;\nzero += 0;\nat |= ADDR(.text);\n",
    )?;
    link_ok(dir, &["-T", "first.lds", "d.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    let sections = ".text : { *(.text) } .data : { *(.data) e |= 8; }";
    paths::write(&dir.join("in.lds"), format!("SECTIONS {{ {sections} }}\n"))?;
    link_ok(dir, &["-T", "in.lds", "d.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    for (name, text) in [
        ("plus.lds", "d += 4;\n".to_string()),
        ("xor.lds", "d ^= 1;\n".to_string()),
        ("addr.lds", "d -= ADDR(.text);\n".to_string()),
        ("sec.lds", format!("SECTIONS {{ {sections} d += 16; }}\n")),
    ] {
        paths::write(&dir.join(name), text)?;
        let both = link_both(dir, &["-T", name, "d.o"])?;
        both.same_first_error("assignment to symbol d does not converge")?;
        both.same_stderr()?;
    }
    Ok(())
}

/// Assignments outside `SECTIONS` that read or move the location counter take effect where
/// they stand in the script, as lld keeps them in its command list: between two `SECTIONS`,
/// before any section, or after every section when no `SECTIONS` lays the output out.
fn assignments_outside_sections_read_the_counter(dir: &Path) -> Check {
    compile(
        dir,
        "a",
        &format!("{PLAIN_START_C}\nint d = 4;\n__attribute__((section(\".foo\"))) int f = 1;\n"),
        &[],
    )?;
    let scripts = [
        "foo = .; SECTIONS { .text : { *(.text) } .data : { *(.data) } } bar = .; baz = ADDR(.data) + 1;",
        "foo = .; bar = ADDR(.text); baz = . + 4;",
        ". = 0x500000; x = .; SECTIONS { .text : { *(.text) } } . += 0x1000; y = .;\n\
         SECTIONS { .data : { *(.data) } }",
        "SECTIONS { .foo : { *(.foo) } } INSERT AFTER .data; x = .; . = ALIGN(0x100); y = .;",
    ];
    for (n, text) in scripts.iter().enumerate() {
        same_with_script(dir, &format!("top{n}.lds"), text, &["a.o"], false)?;
        // (The first script puts `.text` at 0, where no program can run.)
        if n > 0 {
            runs_with(&dir.join("out.weld"), 0, "")?;
        }
    }
    Ok(())
}

/// A description nothing goes to is kept when an expression names it with `ADDR` or
/// `LOADADDR` (inside `SECTIONS`, outside it, in an `ASSERT`), and reads as empty and 1-aligned
/// for `SIZEOF`/`ALIGNOF` otherwise, as in lld.
fn addressed_empty_sections_are_kept(dir: &Path) -> Check {
    compile(dir, "a", &format!("{PLAIN_START_C}\nint d = 4;\n"), &[])?;
    let layout = ". = 0x400000; .text : { *(.text) } .empty : { *(.nothing) } .data : { *(.data) }";
    let scripts = [
        format!("SECTIONS {{ {layout} x = ADDR(.empty); }}"),
        format!("SECTIONS {{ {layout} x = LOADADDR(.empty); }}"),
        format!("SECTIONS {{ {layout} x = ALIGNOF(.empty); y = SIZEOF(.empty); }}"),
        format!("SECTIONS {{ {layout} }} x = ADDR(.empty);"),
        format!("SECTIONS {{ {layout} }} ASSERT(ADDR(.empty) > 0, \"oops\");"),
    ];
    for (n, text) in scripts.iter().enumerate() {
        // (Not run: `.data` shares the page of `.text`, which neither linker pads.)
        same_with_script(dir, &format!("e{n}.lds"), text, &["a.o"], true)?;
    }
    Ok(())
}

/// GNU ld's `EXCLUDE_FILE(files) file(rules)` form, which lld reads as a file pattern named
/// `EXCLUDE_FILE`: nothing is excluded (and `KEEP` around it is lld's syntax error).
fn exclude_file_before_the_file_like_lld(dir: &Path) -> Check {
    compile(
        dir,
        "a",
        &format!("{PLAIN_START_C}\nvoid fa(void) {{}}\n"),
        &["-ffunction-sections"],
    )?;
    compile(dir, "b", "void fb(void) {}\n", &["-ffunction-sections"])?;
    let layout = ". = 0x400000; .ta : { EXCLUDE_FILE(*b.o) *(.text.*) } .tb : { *(.text.*) }";
    paths::write(&dir.join("x.lds"), format!("SECTIONS {{ {layout} }}\n"))?;
    link_ok(dir, &["-T", "x.lds", "a.o", "b.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    paths::write(
        &dir.join("k.lds"),
        "SECTIONS { .ta : { KEEP(EXCLUDE_FILE(*b.o) *(.text.*)) } }\n",
    )?;
    link_both(dir, &["-T", "k.lds", "a.o", "b.o"])?
        .same_first_error("k.lds:1: ) expected, but got *")
}

/// `OUTPUT(file)` names the output when `-o` does not, as in lld.
fn output_command_names_the_file(dir: &Path) -> Check {
    compile(dir, "a", PLAIN_START_C, &[])?;
    paths::write(
        &dir.join("op.lds"),
        "OUTPUT(named.out)\nSECTIONS { . = 0x400000; .text : { *(.text) } }\n",
    )?;
    for linker in [tools::lld()?, tools::weld()?] {
        let _ = std::fs::remove_file(dir.join("named.out"));
        let mut cmd = Command::new(&linker);
        cmd.current_dir(dir).args(["-T", "op.lds", "a.o"]);
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok("linking")?;
        if !dir.join("named.out").exists() || dir.join("a.out").exists() {
            return Err(format!(
                "{}: OUTPUT(named.out) did not name the output",
                linker.display()
            ));
        }
        runs_with(&dir.join("named.out"), 0, "")?;
    }
    Ok(())
}

/// Two sections at one address: lld's overlap errors, all of them, word for word.
fn overlaps_like_lld(dir: &Path) -> Check {
    compile(dir, "a", &format!("{PLAIN_START_C}\nint d = 1;\n"), &[])?;
    paths::write(
        &dir.join("ovl.lds"),
        "SECTIONS {\n  . = 0x400000;\n  .text : { *(.text) }\n  .data 0x400000 : { *(.data) }\n}\n",
    )?;
    let both = link_both(dir, &["-T", "ovl.lds", "a.o"])?;
    both.same_first_error("section .text virtual address range overlaps with .data")?;
    both.same_stderr()
}

/// A section that does not fit its region: lld's message.
fn region_overflow_like_lld(dir: &Path) -> Check {
    compile(dir, "a", PLAIN_START_C, &[])?;
    paths::write(
        &dir.join("ov.lds"),
        "MEMORY { rom (rx) : ORIGIN = 0x100000, LENGTH = 4 }\n\
         SECTIONS { .text : { *(.text) } > rom }\n",
    )?;
    let both = link_both(dir, &["-T", "ov.lds", "a.o"])?;
    both.same_first_error("section '.text' will not fit in region 'rom': overflowed by 5 bytes")
}

/// `.` moving backward inside an output section is lld's error, word for word.
fn dot_backward_like_lld(dir: &Path) -> Check {
    compile(dir, "a", PLAIN_START_C, &[])?;
    paths::write(
        &dir.join("b.lds"),
        "SECTIONS {\n  . = 0x400000;\n  .text : { *(.text) . = 0x1000; }\n}\n",
    )?;
    let both = link_both(dir, &["-T", "b.lds", "a.o"])?;
    // lld goes on to report what the negative size breaks; the first error is the cause.
    both.same_first_error(
        "b.lds:3: unable to move location counter (0x400009) backward to 0x1000 for section '.text'",
    )
}

/// Freestanding code for the `OVERWRITE_SECTIONS` tests: `.data` holds 8 bytes, `.mydata` (an
/// orphan of `.data`'s rank) and `.foo` 4 each, `.ro1` 4 read-only; it exits with 0 when the
/// symbols the script puts around `.data` and `.foo` enclose them.
const OVERWRITE_C: &str = r#"
int d1 = 1, d2 = 2;
__attribute__((section(".mydata"))) int m1 = 3;
__attribute__((section(".foo"))) int f1 = 4;
__attribute__((section(".ro1"))) const int r1 = 5;
int bss1;
extern char __data_start[], __data_end[], __foo_start[], __foo_end[];
void _start(void) {
  long ok = __data_end - __data_start == 8 && __foo_end - __foo_start == 4
            && (char *)&f1 == __foo_start && d2 == 2 && m1 == 3 && bss1 == 0 && r1 == 5;
  __asm__ volatile("syscall" : : "a"(60L), "D"(ok ? 0L : 1L));
  __builtin_unreachable();
}
"#;

/// `OVERWRITE_SECTIONS` without `SECTIONS`, as lld: the built-in layout, its descriptions
/// placed as orphans — after lld's own orphans of the same rank (`.data` after `.mydata`),
/// in their order among themselves — with their symbols and `ALIGN`.
fn overwrite_sections_without_sections(dir: &Path) -> Check {
    compile(dir, "a", OVERWRITE_C, &[])?;
    let scripts = [
        "OVERWRITE_SECTIONS {\n  .data : { __data_start = .; *(.data) __data_end = .; }\n}\n\
         __foo_start = ADDR(.foo);\n__foo_end = ADDR(.foo) + SIZEOF(.foo);\n",
        "OVERWRITE_SECTIONS {\n  .foo : ALIGN(64) { __foo_start = .; *(.foo) __foo_end = .; }\n\
           .data : { __data_start = .; *(.data) __data_end = .; }\n}\n",
    ];
    for (n, text) in scripts.iter().enumerate() {
        same_with_script(dir, &format!("o{n}.lds"), text, &["a.o"], true)?;
        runs_with(&dir.join("out.lld"), 0, "")?;
        runs_with(&dir.join("out.weld"), 0, "")?;
    }
    // The overwritten `.data` goes after the orphan `.mydata` of its rank, as in lld.
    let lld = weld_tests::dynelf::readelf(&["-SW"], &dir.join("out.lld"))?;
    let at = |name: &str| lld.find(&format!(" {name} ")).unwrap_or(0);
    if !(at(".mydata") > 0 && at(".mydata") < at(".data")) {
        return Err(format!(
            "the oracle changed: expected .mydata before .data\n{lld}"
        ));
    }
    Ok(())
}

/// A hosted C program linked through clang-22 (`-static-pie`) with an `OVERWRITE_SECTIONS`
/// that puts symbols around `.init_array` and keeps an unreferenced section under
/// `--gc-sections`; with `-Map`. In a dynamically linked output lld exports those symbols
/// (and takes them as preemptible): weld refuses that, naming the assignment.
fn overwrite_sections_hosted_keep_gc(dir: &Path) -> Check {
    linkerr::compile(
        dir,
        "h.c",
        "#include <stdio.h>\n\
         __attribute__((section(\".keepme\"), used)) static long kept[2] = {7, 8};\n\
         __attribute__((section(\".dropme\"), used)) static long dropped = 9;\n\
         extern char __ia_start[], __ia_end[], __keep_start[], __keep_end[];\n\
         static int ran;\n\
         __attribute__((constructor)) static void ctor(void) { ran = 1; }\n\
         int main(void) {\n\
           long *k = (long *)__keep_start;\n\
           printf(\"%ld %ld %d\\n\", (long)(__keep_end - __keep_start), k[1], ran);\n\
           return __ia_end - __ia_start >= 8 ? 0 : 1;\n\
         }\n",
        &["-ffunction-sections", "-fdata-sections"],
    )?;
    paths::write(
        &dir.join("h.lds"),
        "OVERWRITE_SECTIONS {\n\
           .init_array : {\n\
             __ia_start = .;\n\
             KEEP(*(SORT_BY_INIT_PRIORITY(.init_array.*) SORT_BY_INIT_PRIORITY(.ctors.*)))\n\
             KEEP(*(.init_array .ctors))\n\
             __ia_end = .;\n\
           }\n\
           .keepme : { __keep_start = .; KEEP(*(.keepme)) __keep_end = .; }\n\
         }\n",
    )?;
    let clang = tools::find(tools::CLANG)?;
    for (linker, out) in [(tools::lld()?, "out.lld"), (tools::weld()?, "out.weld")] {
        let mut cmd = Command::new(&clang);
        cmd.current_dir(dir)
            .arg("-fuse-ld=lld")
            .arg(format!("--ld-path={}", linker.display()))
            .args(["-static-pie", "h.o", "-Wl,-T,h.lds", "-Wl,--gc-sections"])
            .arg(format!("-Wl,-Map,{out}.map"))
            .args(["-o", out]);
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
    }
    // Sections, segments and the script's symbols (static glibc's own symbols are not this
    // test's business: weld still gives some of its undefined weak TLS ones other values).
    let (a, b) = (facts(&dir.join("out.lld"))?, facts(&dir.join("out.weld"))?);
    if a.sections != b.sections || a.segments != b.segments {
        return Err(format!(
            "layouts differ:\nld.lld-22:\n  {}\n  {}\nweld:\n  {}\n  {}",
            a.sections.join("\n  "),
            a.segments.join("\n  "),
            b.sections.join("\n  "),
            b.segments.join("\n  ")
        ));
    }
    for name in [
        "__ia_start",
        "__ia_end",
        "__keep_start",
        "__keep_end",
        "kept",
        "main",
    ] {
        let (x, y) = (a.symbols.get(name), b.symbols.get(name));
        if x.is_none() || x != y {
            return Err(format!("symbol {name}: ld.lld-22 {x:?}, weld {y:?}"));
        }
    }
    // (The contents: the kept section's words, printed by the program.)
    runs_with(&dir.join("out.lld"), 0, "16 8 1\n")?;
    runs_with(&dir.join("out.weld"), 0, "16 8 1\n")?;
    // The map names the overwriting description's symbols where lld does.
    let map = |f: &str| -> Result<Vec<String>, String> {
        let text = std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"))?;
        Ok(text
            .lines()
            .filter(|l| l.contains("__ia_") || l.contains("__keep_"))
            .map(str::to_string)
            .collect())
    };
    let (a, b) = (map("out.lld.map")?, map("out.weld.map")?);
    if a.len() != 4 || a != b {
        return Err(format!(
            "map lines differ:\nld.lld-22:\n{a:#?}\nweld:\n{b:#?}"
        ));
    }
    // A PIE: lld exports the four symbols; weld stops.
    for (linker, out) in [(tools::lld()?, "pie.lld"), (tools::weld()?, "pie.weld")] {
        let mut cmd = Command::new(&clang);
        cmd.current_dir(dir)
            .arg("-fuse-ld=lld")
            .arg(format!("--ld-path={}", linker.display()))
            .args(["-pie", "h.o", "-Wl,-T,h.lds", "-o", out]);
        let r = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        if out == "pie.lld" {
            r.ok("linking pie.lld")?;
            let syms = weld_tests::dynelf::readelf(&["--dyn-syms", "-W"], &dir.join(out))?;
            if syms.matches("__keep_").count() != 2 {
                return Err(format!(
                    "the oracle changed: lld no longer exports __keep_*\n{syms}"
                ));
            }
        } else if r.code == Some(0)
            || !r
                .stderr_str()
                .contains("h.lds:3: linker script command not supported yet")
        {
            return Err(format!("expected weld to refuse:\n{}", r.report()));
        }
    }
    Ok(())
}

/// With a main `SECTIONS`: an `OVERWRITE_SECTIONS` description replaces the one of its name
/// where it stands (and takes input sections before every `SECTIONS` description); one the
/// main script does not name is placed as an orphan (`.new` before `.text` by rank), and one
/// that only assigns a symbol leads the orphans of its rank.
fn overwrite_sections_replace_a_description(dir: &Path) -> Check {
    compile(dir, "a", OVERWRITE_C, &[])?;
    paths::write(
        &dir.join("r.lds"),
        "SECTIONS {\n  . = 0x300000;\n  .text : { *(.text) }\n  .data : { *(.data) }\n\
           .mydata : { *(.mydata) *(.foo) }\n  .bss : { *(.bss) }\n}\n\
         OVERWRITE_SECTIONS {\n\
           .data : ALIGN(32) { __data_start = .; *(.data) __data_end = .; \
             __foo_start = .; *(.foo) __foo_end = .; }\n\
           .new : { __new = .; *(.ro1) }\n\
           .sym : { sym_here = .; }\n}\n",
    )?;
    link_ok(dir, &["-T", "r.lds", "a.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    // (The image starts at 0x300000 with no headers loaded; neither output is run.)
    same_contents(dir, "out.lld", "out.weld")
}

/// lld's diagnostics: a second description of a name is a warning (the first counts), an
/// assignment outside a description is a syntax error.
fn overwrite_sections_diagnostics_like_lld(dir: &Path) -> Check {
    compile(dir, "a", OVERWRITE_C, &[])?;
    paths::write(
        &dir.join("d.lds"),
        "OVERWRITE_SECTIONS {\n  .data : { __data_start = .; *(.data) __data_end = .; }\n}\n\
         OVERWRITE_SECTIONS {\n  .data : { *(.data) }\n\
           .foo : { __foo_start = .; *(.foo) __foo_end = .; }\n}\n",
    )?;
    same_warnings(dir, &["-T", "d.lds", "a.o"])?;
    same_layout(dir, "out.lld", "out.weld")?;
    runs_with(&dir.join("out.weld"), 0, "")?;
    paths::write(
        &dir.join("e.lds"),
        "OVERWRITE_SECTIONS {\n  foo = .;\n  .data : { *(.data) }\n}\n",
    )?;
    let both = link_both(dir, &["-T", "e.lds", "a.o"])?;
    both.same_first_error("e.lds:2: malformed number: =")?;
    both.same_stderr()
}

/// What is not implemented yet stops the link with one error naming it and its place.
fn not_yet_is_an_error(dir: &Path) -> Check {
    // lld would make a second `.foo` output section for `.bar`.
    compile(
        dir,
        "a",
        &format!("{PLAIN_START_C}\n__attribute__((section(\".bar\"))) int b = 1;\n"),
        &[],
    )?;
    paths::write(
        &dir.join("m.lds"),
        "OVERWRITE_SECTIONS {\n  .foo : { *(.foo) }\n  .foo : { *(.bar) }\n}\n",
    )?;
    let weld = tools::weld()?;
    let out = run::run(
        Command::new(&weld)
            .current_dir(dir)
            .args(["-T", "m.lds", "a.o", "-o", "out.weld"]),
        run::LINK_TIMEOUT,
    )?;
    let err = String::from_utf8_lossy(&out.stderr);
    if out.code != Some(1) || !err.contains("not supported yet") || !err.contains("m.lds:") {
        return Err(format!(
            "expected one 'not supported yet' error:\n{}",
            out.report()
        ));
    }
    if dir.join("out.weld").exists() {
        return Err("a failed link left out.weld".into());
    }
    Ok(())
}
