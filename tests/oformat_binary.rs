//! `--oformat=binary`, differential against ld.lld-22: the same inputs and options linked by
//! both must give the same flat image byte for byte (no ELF header, the loaded sections at their
//! addresses less the lowest one), or the same errors. Each image is also checked against the
//! layout of the ELF link of the same inputs, so that two linkers agreeing on a wrong image
//! (an ELF file, an empty file) still fail the test.

use libtest_mimic::Arguments;
use std::path::Path;
use std::process::Command;
use weld_tests::linkerr::{self, link_both};
use weld_tests::{paths, run, tools, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "oformat_binary",
        &[
            ("firmware_script_with_at", firmware_script_with_at),
            ("no_script_static", no_script_static),
            ("no_script_options", no_script_options),
            ("elf_oformat_unchanged", elf_oformat_unchanged),
            ("relocatable_like_lld", relocatable_like_lld),
            ("shared_like_lld", shared_like_lld),
            ("errors_like_lld", errors_like_lld),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

/// Freestanding firmware: copies `.data` from its load address, clears `.bss`, spins.
const FIRMWARE_C: &str = r#"
extern char _sidata[], _sdata[], _edata[], _sbss[], _ebss[];
int counter = 42;
const char banner[] = "weld firmware";
static int zeroed[16];
long table[4] = {1, 2, 3, 4};
void _start(void) {
  char *s = _sidata, *d = _sdata;
  while (d < _edata) *d++ = *s++;
  for (char *b = _sbss; b < _ebss; b++) *b = 0;
  zeroed[counter & 15] = banner[3] + (int)table[2];
  for (;;) {}
}
"#;

/// `.text` at 0x100000 (ROM), `.data` linked at 0x200000 (RAM) and loaded after `.rodata`.
const FIRMWARE_LD: &str = r#"
ENTRY(_start)
SECTIONS {
  . = 0x100000;
  .text : { *(.text*) }
  .rodata : { *(.rodata*) }
  _sidata = .;
  .data 0x200000 : AT(_sidata) { _sdata = .; *(.data*) _edata = .; }
  .bss : { _sbss = .; *(.bss*) *(COMMON) _ebss = .; }
  /DISCARD/ : { *(.comment) *(.note*) *(.eh_frame) }
}
"#;

/// A program with code, read-only data, data, bss and unwind tables, for the built-in layout.
const PROGRAM_C: &str = r#"
const char greeting[] = "hello";
int answer = 42;
long zeros[8];
int f(int x) { return x * answer + greeting[1]; }
void _start(void) { zeros[f(2) & 7] = 1; for (;;) {} }
"#;

fn compile(dir: &Path, name: &str, src: &str, flags: &[&str]) -> Check {
    let mut all = vec!["-ffreestanding"];
    all.extend_from_slice(flags);
    linkerr::compile(dir, &format!("{name}.c"), src, &all).map(|_| ())
}

/// Links `args -o out` in `dir` with `linker`; the link must succeed.
fn link(dir: &Path, linker: &Path, args: &[&str], out: &str) -> Check {
    let mut cmd = Command::new(linker);
    cmd.current_dir(dir).args(args).args(["-o", out]);
    run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
    Ok(())
}

/// Both linkers on `args`; returns (ld.lld-22's output, weld's output).
fn link_both_ok(dir: &Path, args: &[&str], stem: &str) -> Result<(Vec<u8>, Vec<u8>), String> {
    let (lld_out, weld_out) = (format!("{stem}.lld"), format!("{stem}.weld"));
    link(dir, &tools::lld()?, args, &lld_out)?;
    link(dir, &tools::weld()?, args, &weld_out)?;
    Ok((
        paths::read(&dir.join(lld_out))?,
        paths::read(&dir.join(weld_out))?,
    ))
}

/// The two images are the same bytes; on a difference, where it starts.
fn same_bytes(what: &str, lld: &[u8], weld: &[u8]) -> Check {
    if lld == weld {
        return Ok(());
    }
    let first = lld.iter().zip(weld).position(|(a, b)| a != b);
    Err(format!(
        "{what}: weld's image ({} bytes) differs from ld.lld-22's ({} bytes){}",
        weld.len(),
        lld.len(),
        first.map_or(String::new(), |i| format!(", first at offset 0x{i:x}"))
    ))
}

/// An allocated section of an ELF file: (name, type, address, size).
type AllocSection = (String, String, u64, u64);

/// The allocated sections of the ELF file `file`, as `readelf -SW` lists them.
fn alloc_sections(file: &Path) -> Result<Vec<AllocSection>, String> {
    let mut out = Vec::new();
    for (_, t) in weld_tests::dynelf::section_header_rows(file)? {
        // Name Type Address Off Size ES Flg Lk Inf Al (Flg may be empty).
        if t.len() < 10 || !t[6].contains('A') {
            continue;
        }
        let hex = |s: &str| u64::from_str_radix(s, 16).map_err(|e| format!("{}: {e}", t[0]));
        out.push((t[0].clone(), t[1].clone(), hex(&t[2])?, hex(&t[4])?));
    }
    Ok(out)
}

/// What the flat image of the ELF link `elf` must be (lld 22's rule): the sections with bytes
/// at their address less the lowest such address, zeros between. Checked against `image`
/// using the ELF file's own section contents.
fn image_follows_elf(elf: &Path, image: &[u8]) -> Check {
    if image.starts_with(b"\x7fELF") {
        return Err("the flat image starts with an ELF header".into());
    }
    let loaded: Vec<AllocSection> = alloc_sections(elf)?
        .into_iter()
        .filter(|s| s.1 != "NOBITS" && s.3 > 0)
        .collect();
    let Some(base) = loaded.iter().map(|s| s.2).min() else {
        return Err(format!("{}: no loaded section", elf.display()));
    };
    let end = loaded.iter().map(|s| s.2 - base + s.3).max().unwrap_or(0);
    if image.len() as u64 != end {
        return Err(format!(
            "the image is {} bytes; the ELF link's sections span 0x{end:x}",
            image.len()
        ));
    }
    let bytes = paths::read(elf)?;
    let text = weld_tests::dynelf::readelf(&["-SW"], elf)?;
    for (name, _, addr, size) in &loaded {
        // The section's file offset in the ELF file, from the same listing.
        let offset = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix('[').and_then(|l| l.split_once(']')))
            .map(|(_, rest)| rest.split_whitespace().collect::<Vec<_>>())
            .find(|t| t.first() == Some(&name.as_str()))
            .and_then(|t| u64::from_str_radix(t[3], 16).ok())
            .ok_or_else(|| format!("{name}: no offset"))?;
        let want = bytes
            .get(offset as usize..(offset + size) as usize)
            .ok_or_else(|| format!("{name}: past the end of the ELF file"))?;
        let at = (addr - base) as usize;
        if image.get(at..at + *size as usize) != Some(want) {
            return Err(format!(
                "{name}: the image at 0x{at:x} does not hold the section's bytes"
            ));
        }
    }
    Ok(())
}

/// A linker script's image: `.text` at 0x100000 and `.data` with `AT(...)`. lld 22 keeps load
/// addresses on the program headers, which a flat image has none of, so `.data` lands at its
/// address (0x200000) less 0x100000: a 1 MiB image, identical from both linkers.
fn firmware_script_with_at(dir: &Path) -> Check {
    compile(
        dir,
        "fw",
        FIRMWARE_C,
        &["-fno-pic", "-fno-asynchronous-unwind-tables"],
    )?;
    paths::write(&dir.join("fw.ld"), FIRMWARE_LD)?;
    for (i, oformat) in [&["--oformat=binary"][..], &["--oformat", "binary"]]
        .iter()
        .enumerate()
    {
        let mut args = vec!["-T", "fw.ld", "fw.o"];
        args.extend_from_slice(oformat);
        let (lld, weld) = link_both_ok(dir, &args, &format!("fw{i}"))?;
        same_bytes(&args.join(" "), &lld, &weld)?;
    }
    link(dir, &tools::weld()?, &["-T", "fw.ld", "fw.o"], "fw.elf")?;
    image_follows_elf(&dir.join("fw.elf"), &paths::read(&dir.join("fw0.weld"))?)?;
    let image = paths::read(&dir.join("fw0.weld"))?;
    if image.len() != 0x100030 {
        return Err(format!(
            "expected `.data` (0x30 bytes) at 0x100000 in the image, but it is 0x{:x} bytes",
            image.len()
        ));
    }
    // The script can ask for the flat image itself; only the first OUTPUT_FORMAT counts.
    paths::write(
        &dir.join("fwb.ld"),
        format!("OUTPUT_FORMAT(binary)\n{FIRMWARE_LD}"),
    )?;
    let (lld, weld) = link_both_ok(dir, &["-T", "fwb.ld", "fw.o"], "fwb")?;
    same_bytes("OUTPUT_FORMAT(binary)", &lld, &weld)?;
    same_bytes(
        "OUTPUT_FORMAT(binary) against --oformat=binary",
        &image,
        &weld,
    )?;
    paths::write(
        &dir.join("fwe.ld"),
        format!("OUTPUT_FORMAT(elf64-x86-64)\nOUTPUT_FORMAT(binary)\n{FIRMWARE_LD}"),
    )?;
    link(dir, &tools::weld()?, &["-T", "fwe.ld", "fw.o"], "fwe.weld")?;
    if !paths::read(&dir.join("fwe.weld"))?.starts_with(b"\x7fELF") {
        return Err("a second OUTPUT_FORMAT(binary) made the output flat".into());
    }
    Ok(())
}

/// No script: `-static -nostdlib -e _start`. Without program headers lld starts no segment on a
/// new page: the sections (`.eh_frame` included) follow each other from the image base.
fn no_script_static(dir: &Path) -> Check {
    compile(dir, "prog", PROGRAM_C, &["-fno-pic"])?;
    let args = [
        "-static",
        "-nostdlib",
        "--oformat",
        "binary",
        "-e",
        "_start",
        "prog.o",
    ];
    let (lld, weld) = link_both_ok(dir, &args, "prog")?;
    same_bytes("-static --oformat binary", &lld, &weld)?;
    // Only the last --oformat is read: a bad one before it is never looked at.
    let mut later = vec!["--oformat=bogus"];
    later.extend_from_slice(&args);
    let (lld_later, weld_later) = link_both_ok(dir, &later, "later")?;
    same_bytes(
        "--oformat=bogus ... --oformat binary",
        &lld_later,
        &weld_later,
    )?;
    same_bytes("a bad --oformat before the last one", &weld, &weld_later)?;
    // The ELF link of the same inputs has the same sections, placed on pages of their own: the
    // image cannot be checked against its addresses, only against its contents.
    link(
        dir,
        &tools::weld()?,
        &["-static", "-nostdlib", "-e", "_start", "prog.o"],
        "prog.elf",
    )?;
    let sections = alloc_sections(&dir.join("prog.elf"))?;
    let total: u64 = sections
        .iter()
        .filter(|s| s.1 != "NOBITS")
        .map(|s| s.3)
        .sum();
    if (weld.len() as u64) < total || weld.len() as u64 >= total + 0x100 {
        return Err(format!(
            "the image is {} bytes, but its sections hold {total} bytes (packed, not paged)",
            weld.len()
        ));
    }
    Ok(())
}

/// The built-in layout under options that move sections: `-Ttext`, `--image-base`,
/// `-z separate-code` (no pages to separate without program headers), `-N`.
fn no_script_options(dir: &Path) -> Check {
    compile(dir, "prog", PROGRAM_C, &["-fno-pic"])?;
    let cases: [&[&str]; 4] = [
        &["-Ttext=0x300000", "--image-base=0x100000"],
        &["--image-base=0x400000"],
        &["-z", "separate-code"],
        &["-N"],
    ];
    for (i, extra) in cases.iter().enumerate() {
        let mut args = vec!["-static", "-e", "_start", "--oformat=binary", "prog.o"];
        args.extend_from_slice(extra);
        let (lld, weld) = link_both_ok(dir, &args, &format!("opt{i}"))?;
        same_bytes(&extra.join(" "), &lld, &weld)?;
        if weld.is_empty() || weld.starts_with(b"\x7fELF") {
            return Err(format!("{}: not a flat image", extra.join(" ")));
        }
    }
    Ok(())
}

/// `--oformat=elf64-x86-64` (any `elf*` name) is the ELF output as without the option, and a
/// later `--oformat` wins over an earlier `binary`.
fn elf_oformat_unchanged(dir: &Path) -> Check {
    compile(dir, "prog", PROGRAM_C, &["-fno-pic"])?;
    let weld = tools::weld()?;
    let base = ["-static", "-e", "_start", "prog.o"];
    link(dir, &weld, &base, "plain")?;
    let plain = paths::read(&dir.join("plain"))?;
    if !plain.starts_with(b"\x7fELF") {
        return Err("the output without --oformat is not ELF".into());
    }
    let variants: [&[&str]; 3] = [
        &["--oformat=elf64-x86-64"],
        &["--oformat", "elf"],
        &["--oformat=binary", "--oformat=elf64-x86-64"],
    ];
    for (i, extra) in variants.iter().enumerate() {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let out = format!("elf{i}");
        link(dir, &weld, &args, &out)?;
        same_bytes(&extra.join(" "), &plain, &paths::read(&dir.join(&out))?)?;
    }
    // And ld.lld-22 lays the same ELF output out: same allocated sections.
    link(dir, &tools::lld()?, &base, "plain.lld")?;
    let (a, b) = (
        alloc_sections(&dir.join("plain.lld"))?,
        alloc_sections(&dir.join("plain"))?,
    );
    if a != b {
        return Err(format!(
            "ELF layouts differ:\nld.lld-22: {a:?}\nweld: {b:?}"
        ));
    }
    Ok(())
}

/// `-r --oformat=binary`: lld accepts it; nothing has an address, so one allocated section is the
/// whole image, and two collide at offset 0.
fn relocatable_like_lld(dir: &Path) -> Check {
    compile(
        dir,
        "one",
        "int f(int a) { return a * 3 + 1; }\n",
        &["-fPIC", "-fno-asynchronous-unwind-tables"],
    )?;
    let (lld, weld) = link_both_ok(dir, &["-r", "--oformat=binary", "one.o"], "one")?;
    same_bytes("-r --oformat=binary", &lld, &weld)?;
    if weld.is_empty() || weld.starts_with(b"\x7fELF") {
        return Err("-r --oformat=binary: not the bytes of `.text`".into());
    }
    compile(
        dir,
        "two",
        "int x = 5;\nint g(void) { return x; }\n",
        &["-fPIC", "-fno-asynchronous-unwind-tables"],
    )?;
    let both = link_both(dir, &["-r", "--oformat=binary", "two.o"])?;
    both.same_first_error("section .text file range overlaps with .data")?;
    both.same_stderr()
}

/// `-shared --oformat=binary`: accepted, the dynamic sections in the image as lld puts them.
fn shared_like_lld(dir: &Path) -> Check {
    compile(
        dir,
        "lib",
        "int f(int a) { return a * 3 + 1; }\n",
        &["-fPIC", "-fno-asynchronous-unwind-tables"],
    )?;
    let (lld, weld) = link_both_ok(dir, &["-shared", "--oformat=binary", "lib.o"], "lib")?;
    same_bytes("-shared --oformat=binary", &lld, &weld)
}

/// Failures: exit 1, lld's words, no output left behind.
fn errors_like_lld(dir: &Path) -> Check {
    compile(dir, "prog", PROGRAM_C, &["-fno-pic"])?;
    let both = link_both(dir, &["--oformat=foo", "-e", "_start", "prog.o"])?;
    both.same_first_error("unknown --oformat value: foo")?;
    both.same_stderr()?;
    // RELRO data followed by writable data: `.relro_padding` rounds up to a page without moving
    // the next section (there is no segment to start), which lld reports as overlaps.
    compile(
        dir,
        "relro",
        "int g;\nint *p = &g;\nvoid _start(void) { *p = 1; for (;;) {} }\n",
        &["-fPIC"],
    )?;
    let both = link_both(dir, &["-pie", "--oformat=binary", "relro.o"])?;
    both.same_first_error("section .relro_padding virtual address range overlaps with .data")?;
    both.same_stderr()
}
