//! Input files in `binary` format (`-b binary`, `--format=binary`, a script's `TARGET(binary)`),
//! differential against ld.lld-22: the same C program, which reads blobs through
//! `_binary_<name>_{start,end,size}`, is linked by both (through clang-22) and run; the outputs
//! must be the expected text, and the symbols must agree — type, binding, output section, size,
//! value relative to `.data`'s start (the absolute `_size` exactly) — and the bytes at
//! `_start` in the file must be the blob's. `--gc-sections`, `-Map`, `-r`, archives and `-l`
//! under `-b binary`, a missing blob and a duplicate one are compared with lld too.

use libtest_mimic::Arguments;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::build::Compiler;
use weld_tests::linkerr::{self, link_both};
use weld_tests::tools::Linker;
use weld_tests::{dynelf, dynlink, paths, run, tools, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "binary",
        &[
            ("blobs_read_by_a_program", blobs_read_by_a_program),
            ("script_target_binary", script_target_binary),
            (
                "script_target_holds_until_next_format",
                script_target_holds_until_next_format,
            ),
            ("gc_sections_like_lld", gc_sections_like_lld),
            ("map_file_like_lld", map_file_like_lld),
            ("relocatable_keeps_blob", relocatable_keeps_blob),
            (
                "archive_and_library_are_blobs",
                archive_and_library_are_blobs,
            ),
            ("missing_blob_fails_like_lld", missing_blob_fails_like_lld),
            (
                "duplicate_blob_fails_like_lld",
                duplicate_blob_fails_like_lld,
            ),
            ("only_blobs_fail_like_lld", only_blobs_fail_like_lld),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

/// Two blobs: one in the work directory, one whose path has `/`, `.` and `-` (all become `_`).
const BLOBS: &[(&str, &str, &[u8])] = &[
    ("blob.txt", "_binary_blob_txt", b"hello, blob\n"),
    (
        "sub.d/my-data.v1.bin",
        "_binary_sub_d_my_data_v1_bin",
        // Not text: a NUL, high bytes, and a length that is not a multiple of 8.
        b"\x00\x01\xfe\xffbinary-bytes\x7f",
    ),
];

/// A program printing each blob named in `syms` as `<prefix> size=<N> hex=<bytes>`.
fn program(syms: &[&str]) -> String {
    let mut src = String::from("#include <stdio.h>\n");
    for s in syms {
        src += &format!("extern const char {s}_start[], {s}_end[];\nextern char {s}_size[];\n");
    }
    src += "static void show(const char *name, const char *b, const char *e, const char *n) {\n\
            printf(\"%s size=%lu span=%ld hex=\", name, (unsigned long)n, (long)(e - b));\n\
            for (const char *p = b; p < e; p++) printf(\"%02x\", (unsigned char)*p);\n\
            printf(\"\\n\");\n}\n\
            int main(void) {\n";
    for s in syms {
        src += &format!("  show(\"{s}\", {s}_start, {s}_end, {s}_size);\n");
    }
    src + "  return 0;\n}\n"
}

/// What [`program`] must print for these blobs.
fn expected_output(blobs: &[(&str, &[u8])]) -> String {
    blobs
        .iter()
        .map(|(sym, bytes)| {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            format!("{sym} size={n} span={n} hex={hex}\n", n = bytes.len())
        })
        .collect()
}

fn write_blobs(dir: &Path) -> Check {
    for (path, _, bytes) in BLOBS {
        paths::write(&dir.join(path), bytes)?;
    }
    Ok(())
}

fn compile_program(dir: &Path, syms: &[&str]) -> Result<PathBuf, String> {
    linkerr::compile(dir, "main.c", &program(syms), &["-fPIE"])
}

/// Links `args` with the clang-22 driver and `linker` into `dir/out`.
fn link(dir: &Path, linker: &Linker, args: &[&str], out: &str) -> Result<PathBuf, String> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    dynlink::link(Compiler::Clang, false, linker, &args, &dir.join(out))
}

/// Both linkers' outputs of the same link: `out.lld`, `out.weld`.
fn link_pair(dir: &Path, args: &[&str]) -> Result<[PathBuf; 2], String> {
    Ok([
        link(dir, &Linker::lld()?, args, "out.lld")?,
        link(dir, &Linker::weld()?, args, "out.weld")?,
    ])
}

/// Runs `exe` in `dir`; it must exit 0 and print `want`.
fn runs_printing(dir: &Path, exe: &Path, want: &str) -> Check {
    let o = dynlink::run_exe(exe, &[], None, dir)?;
    if !o.success() || o.stdout_str() != want {
        return Err(format!(
            "{} should exit 0 printing:\n{want}{}",
            exe.display(),
            o.report()
        ));
    }
    Ok(())
}

/// A section header: name -> (address, file offset, size).
fn sections(file: &Path) -> Result<BTreeMap<String, (u64, u64, u64)>, String> {
    let mut out = BTreeMap::new();
    for (_, t) in dynelf::section_header_rows(file)? {
        if t.len() < 5 {
            continue;
        }
        let hex = |v: &str| u64::from_str_radix(v, 16);
        if let (Ok(addr), Ok(off), Ok(size)) = (hex(&t[2]), hex(&t[3]), hex(&t[4])) {
            out.insert(t[0].clone(), (addr, off, size));
        }
    }
    Ok(out)
}

/// Section index -> name, from `readelf -SW`.
fn section_names(file: &Path) -> Result<BTreeMap<String, String>, String> {
    Ok(dynelf::section_header_rows(file)?
        .into_iter()
        .filter_map(|(idx, t)| Some((idx, t.into_iter().next()?)))
        .collect())
}

/// One `_binary_*` symbol as both linkers must agree on it: type, binding, visibility, size,
/// and where it is — `ABS value` or `SECTION +offset-from-.data-start`.
type Fact = (String, String, String, String, String);

/// The `_binary_*` symbols of `.symtab`, by name.
fn binary_symbols(file: &Path) -> Result<BTreeMap<String, Fact>, String> {
    let names = section_names(file)?;
    let data_start = sections(file)?.get(".data").map(|s| s.0);
    let mut out = BTreeMap::new();
    for t in dynelf::symtab_rows(file)? {
        if !t[7].starts_with("_binary_") {
            continue;
        }
        let value = u64::from_str_radix(&t[1], 16).map_err(|_| format!("bad value: {t:?}"))?;
        let place = match t[6].as_str() {
            "ABS" => format!("ABS {value}"),
            idx => {
                let sec = names.get(idx).cloned().unwrap_or_else(|| format!("#{idx}"));
                match data_start {
                    Some(start) if sec == ".data" => {
                        format!(".data +{}", value.wrapping_sub(start))
                    }
                    _ => format!("{sec} {value:#x}"),
                }
            }
        };
        out.insert(
            t[7].clone(),
            (
                t[2].clone(),
                t[3].clone(),
                t[4].clone(),
                t[5].clone(),
                place,
            ),
        );
    }
    Ok(out)
}

/// Both outputs' `_binary_*` symbols must agree and be exactly `want` (names); in each output
/// the bytes at `<prefix>_start` must be the blob and `_size` its length.
fn check_symbols(outs: &[PathBuf; 2], blobs: &[(&str, &[u8])]) -> Check {
    let lld = binary_symbols(&outs[0])?;
    let weld = binary_symbols(&outs[1])?;
    if lld != weld {
        return Err(format!(
            "_binary_ symbols differ\n  lld:  {lld:?}\n  weld: {weld:?}"
        ));
    }
    let want: Vec<String> = blobs
        .iter()
        .flat_map(|(p, _)| ["_end", "_size", "_start"].map(|s| format!("{p}{s}")))
        .collect();
    let got: Vec<String> = weld.keys().cloned().collect();
    let mut want_sorted = want.clone();
    want_sorted.sort();
    if got != want_sorted {
        return Err(format!(
            "_binary_ symbols: got {got:?}, want {want_sorted:?}"
        ));
    }
    for out in outs {
        let syms = dynelf::symtab_rows(out)?;
        let value = |name: &str| -> Result<u64, String> {
            syms.iter()
                .find(|t| t[7] == name)
                .and_then(|t| u64::from_str_radix(&t[1], 16).ok())
                .ok_or_else(|| format!("{}: no symbol {name}", out.display()))
        };
        let (addr, off, size) = *sections(out)?
            .get(".data")
            .ok_or_else(|| format!("{}: no .data", out.display()))?;
        let bytes = paths::read(out)?;
        for (prefix, blob) in blobs {
            let start = value(&format!("{prefix}_start"))?;
            let end = value(&format!("{prefix}_end"))?;
            let n = value(&format!("{prefix}_size"))?;
            if n != blob.len() as u64 || end.wrapping_sub(start) != n {
                return Err(format!(
                    "{}: {prefix}: size {n}, end - start {}, blob {} bytes",
                    out.display(),
                    end.wrapping_sub(start),
                    blob.len()
                ));
            }
            if start < addr || end > addr + size {
                return Err(format!("{}: {prefix} lies outside .data", out.display()));
            }
            let at = (off + start - addr) as usize;
            if bytes.get(at..at + blob.len()) != Some(*blob) {
                return Err(format!(
                    "{}: the bytes at {prefix}_start are not the blob's",
                    out.display()
                ));
            }
        }
    }
    Ok(())
}

/// The blobs of [`BLOBS`] as (symbol prefix, bytes).
fn all_blobs() -> Vec<(&'static str, &'static [u8])> {
    BLOBS.iter().map(|(_, s, b)| (*s, *b)).collect()
}

fn blobs_read_by_a_program(dir: &Path) -> Check {
    write_blobs(dir)?;
    let syms: Vec<&str> = BLOBS.iter().map(|b| b.1).collect();
    compile_program(dir, &syms)?;
    let outs = link_pair(
        dir,
        &[
            "main.o",
            "-Wl,-b,binary,blob.txt,--format=binary,sub.d/my-data.v1.bin,-b,default",
        ],
    )?;
    let want = expected_output(&all_blobs());
    for out in &outs {
        runs_printing(dir, out, &want)?;
    }
    check_symbols(&outs, &all_blobs())
}

fn script_target_binary(dir: &Path) -> Check {
    write_blobs(dir)?;
    compile_program(dir, &[BLOBS[1].1])?;
    paths::write(
        &dir.join("blobs.lds"),
        format!(
            "TARGET(binary)\nINPUT({})\nTARGET(elf64-x86-64)\n",
            BLOBS[1].0
        ),
    )?;
    let outs = link_pair(dir, &["main.o", "-Wl,blobs.lds"])?;
    let blobs = [(BLOBS[1].1, BLOBS[1].2)];
    for out in &outs {
        runs_printing(dir, out, &expected_output(&blobs))?;
    }
    check_symbols(&outs, &blobs)
}

/// lld keeps one format state: `TARGET(binary)` in a script holds for the command line after
/// it, until the next `-b`.
fn script_target_holds_until_next_format(dir: &Path) -> Check {
    write_blobs(dir)?;
    compile_program(dir, &[BLOBS[0].1, BLOBS[1].1])?;
    paths::write(&dir.join("blobs.lds"), "TARGET(binary)\nINPUT(blob.txt)\n")?;
    let outs = link_pair(
        dir,
        &["main.o", "-Wl,blobs.lds,sub.d/my-data.v1.bin,-b,default"],
    )?;
    for out in &outs {
        runs_printing(dir, out, &expected_output(&all_blobs()))?;
    }
    check_symbols(&outs, &all_blobs())
}

/// The lines of `text` that name a blob.
fn blob_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| BLOBS.iter().any(|(p, s, _)| l.contains(p) || l.contains(s)))
        .map(str::to_string)
        .collect()
}

/// A blob's `.data` is no GC root: only a reference keeps it (lld's rule).
fn gc_sections_like_lld(dir: &Path) -> Check {
    write_blobs(dir)?;
    compile_program(dir, &[BLOBS[0].1])?;
    let args = [
        "main.o",
        "-Wl,--gc-sections,--print-gc-sections,-b,binary,blob.txt,sub.d/my-data.v1.bin,-b,default",
    ];
    let mut printed = Vec::new();
    let mut outs = Vec::new();
    for linker in [Linker::lld()?, Linker::weld()?] {
        let out = dir.join(format!("out.{}", linker.label));
        let mut cmd = dynlink::link_command(
            Compiler::Clang,
            false,
            &linker,
            &args.map(String::from),
            &out,
        )?;
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        dynlink::check_link(&o, &linker, &out)?;
        printed.push(blob_lines(&o.stdout_str()));
        outs.push(out);
    }
    let want = vec![format!("removing unused section {}:(.data)", BLOBS[1].0)];
    if printed[0] != want {
        return Err(format!("the oracle changed: lld printed {:?}", printed[0]));
    }
    if printed[1] != want {
        return Err(format!(
            "--print-gc-sections: weld printed {:?}, want {want:?}",
            printed[1]
        ));
    }
    let outs = [outs[0].clone(), outs[1].clone()];
    for out in &outs {
        runs_printing(dir, out, &expected_output(&all_blobs()[..1]))?;
    }
    // The collected blob's start and end go with its section; its absolute size stays.
    let lld = binary_symbols(&outs[0])?;
    let weld = binary_symbols(&outs[1])?;
    let size_only = format!("{}_size", BLOBS[1].1);
    if !lld.contains_key(&size_only) || lld.contains_key(&format!("{}_start", BLOBS[1].1)) {
        return Err(format!("the oracle changed: lld's symbols {lld:?}"));
    }
    if lld != weld {
        return Err(format!(
            "_binary_ symbols differ\n  lld:  {lld:?}\n  weld: {weld:?}"
        ));
    }
    Ok(())
}

/// The map lists a blob's section as `PATH:(.data)` and (as lld) none of its symbols.
fn map_file_like_lld(dir: &Path) -> Check {
    write_blobs(dir)?;
    compile_program(dir, &[BLOBS[0].1, BLOBS[1].1])?;
    let mut maps = Vec::new();
    for linker in [Linker::lld()?, Linker::weld()?] {
        let map = format!("map.{}", linker.label);
        link(
            dir,
            &linker,
            &[
                "main.o",
                &format!("-Wl,-Map,{map},-b,binary,blob.txt,sub.d/my-data.v1.bin,-b,default"),
            ],
            &format!("out.{}", linker.label),
        )?;
        let text = String::from_utf8_lossy(&paths::read(&dir.join(&map))?).into_owned();
        // Addresses aside (the two layouts need not agree): size, alignment and the rest.
        let lines: Vec<String> = blob_lines(&text)
            .iter()
            .map(|l| l.split_whitespace().skip(2).collect::<Vec<_>>().join(" "))
            .collect();
        maps.push(lines);
    }
    let want = vec![
        format!("{:x} 8 {}:(.data)", BLOBS[0].2.len(), BLOBS[0].0),
        format!("{:x} 8 {}:(.data)", BLOBS[1].2.len(), BLOBS[1].0),
    ];
    if maps[0] != want {
        return Err(format!("the oracle changed: lld's map lines {:?}", maps[0]));
    }
    if maps[1] != want {
        return Err(format!("map lines: weld {:?}, lld {want:?}", maps[1]));
    }
    Ok(())
}

/// `-r` turns blobs into an object holding `.data` and the symbols, which then links as usual.
fn relocatable_keeps_blob(dir: &Path) -> Check {
    write_blobs(dir)?;
    compile_program(dir, &[BLOBS[0].1, BLOBS[1].1])?;
    let mut partials = Vec::new();
    for (label, linker) in [("lld", tools::lld()?), ("weld", tools::weld()?)] {
        let out = format!("blobs.{label}.o");
        let mut cmd = Command::new(linker);
        cmd.current_dir(dir).args([
            "-r",
            "-b",
            "binary",
            "blob.txt",
            "sub.d/my-data.v1.bin",
            "-m",
            "elf_x86_64",
            "-o",
            &out,
        ]);
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("{label} -r"))?;
        partials.push(dir.join(out));
    }
    let partials = [partials[0].clone(), partials[1].clone()];
    check_symbols(&partials, &all_blobs())?;
    // weld links each partial object; both programs print the blobs.
    let weld = Linker::weld()?;
    for p in &partials {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let exe = link(dir, &weld, &["main.o", &name], &format!("{name}.exe"))?;
        runs_printing(dir, &exe, &expected_output(&all_blobs()))?;
    }
    Ok(())
}

/// lld reads every file after `-b binary` as a blob, archives and `-l` libraries too (named by
/// the path the search found).
fn archive_and_library_are_blobs(dir: &Path) -> Check {
    linkerr::compile(dir, "member.c", "int member(void) { return 1; }\n", &[])?;
    let mut ar = Command::new(tools::find("llvm-ar-22")?);
    ar.current_dir(dir).args(["rcs", "libm1.a", "member.o"]);
    run::run(&mut ar, run::TOOL_TIMEOUT)?.ok("llvm-ar-22")?;
    let archive = paths::read(&dir.join("libm1.a"))?;
    let archive: &'static [u8] = Vec::leak(archive);
    let blobs = [("_binary_libm1_a", archive), ("_binary___libm1_a", archive)];
    compile_program(dir, &[blobs[0].0, blobs[1].0])?;
    let outs = link_pair(
        dir,
        &["main.o", "-Wl,-b,binary,libm1.a,-L.,-lm1,-b,default"],
    )?;
    for out in &outs {
        runs_printing(dir, out, &expected_output(&blobs))?;
    }
    check_symbols(&outs, &blobs)
}

fn missing_blob_fails_like_lld(dir: &Path) -> Check {
    compile_program(dir, &[])?;
    let both = link_both(dir, &["main.o", "-b", "binary", "no/such-blob.bin"])?;
    both.same_first_error("cannot open no/such-blob.bin: No such file or directory")?;
    both.same_stderr()
}

/// The same blob twice: `_start` and `_end` are duplicates, named by section and offset (a
/// blob is no object file to lld); the two absolute `_size`s of equal value are not.
fn duplicate_blob_fails_like_lld(dir: &Path) -> Check {
    write_blobs(dir)?;
    compile_program(dir, &[])?;
    let both = link_both(dir, &["main.o", "-b", "binary", "blob.txt", "blob.txt"])?;
    both.same_first_error("duplicate symbol: _binary_blob_txt_start")?;
    both.same_stderr()
}

/// Blobs say nothing about the target: without an ELF input or `-m` lld stops.
fn only_blobs_fail_like_lld(dir: &Path) -> Check {
    write_blobs(dir)?;
    let both = link_both(dir, &["-b", "binary", "blob.txt"])?;
    both.same_first_error("target emulation unknown: -m or at least one .o file required")?;
    both.same_stderr()
}
