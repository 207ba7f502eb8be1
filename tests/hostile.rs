//! Hostile conditions around the files a link maps and writes (issue #18): a relocation type
//! no linker knows, an input truncated while weld links, a full disk, an output folder that does not exist, an unreadable input, two
//! links writing the same output at once, and a link killed midway.
//!
//! Where lld has a message (missing folder, unreadable input) weld must print the same; where
//! lld dies by SIGBUS (it does on a truncated input and on a full disk), weld's own message is
//! asserted. Every failed link must exit 1 and leave no output and no temporary file behind.
//!
//! Interference is real, not simulated: a small preload library (compiled here with clang-22)
//! truncates a chosen input from inside weld right after weld maps it, or right when weld maps
//! its temporary output, or stops weld there so the test can kill it; the full disk is a 64 KiB
//! tmpfs mounted in a private mount namespace (the tests run as root).

use libtest_mimic::Arguments;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::linkerr::{self, link_both};
use weld_tests::{paths, run, tools, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "hostile",
        &[
            ("input_truncated_when_mapped", input_truncated_when_mapped),
            (
                "input_truncated_while_writing",
                input_truncated_while_writing,
            ),
            ("disk_full", disk_full),
            ("output_in_missing_folder", output_in_missing_folder),
            ("unreadable_input", unreadable_input),
            ("two_links_one_output", two_links_one_output),
            ("killed_link_keeps_old_output", killed_link_keeps_old_output),
            ("unknown_relocation_type", unknown_relocation_type),
            ("script_input_cycle", script_input_cycle),
            ("script_chain_too_deep", script_chain_too_deep),
            ("symlink_loop", symlink_loop),
            ("huge_alignment", huge_alignment),
            ("archive_inside_thin_archive", archive_inside_thin_archive),
            ("crel_count_bomb", crel_count_bomb),
            ("alignment_not_power_of_two", alignment_not_power_of_two),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

/// A freestanding program (no C library: the links stay small and exact): `_start` exits with
/// 0 when `victim` returns 42.
const MAIN_C: &str = "extern int victim(void);\n\
    void _start(void) {\n\
      long code = victim() == 42 ? 0 : 1;\n\
      __asm__ volatile(\"syscall\" : : \"a\"(60L), \"D\"(code));\n\
      __builtin_unreachable();\n\
    }\n";
/// 200 KB of data, so the output outgrows the small disk.
const VICTIM_C: &str = "char pad[200000] = {1};\nint victim(void) { return pad[0] + 41; }\n";

/// The preload library: `mmap` as usual, then act when the mapped file's name ends with
/// `$WELD_TEST_WHEN` — truncate `$WELD_TEST_TRUNCATE` to nothing, or, with
/// `WELD_TEST_STOP=1`, stop the process (SIGSTOP) for the test to kill.
const PRELOAD_C: &str = r#"
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void *(*real_mmap)(void *, size_t, int, int, int, off_t);

static int matches(int fd) {
  const char *when = getenv("WELD_TEST_WHEN");
  char link[64], path[4096];
  if (!when || fd < 0) return 0;
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = 0;
  return strstr(path, when) != NULL;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  if (!real_mmap) real_mmap = dlsym(RTLD_NEXT, "mmap");
  void *p = real_mmap(addr, len, prot, flags, fd, off);
  if (p != MAP_FAILED && matches(fd)) {
    const char *victim = getenv("WELD_TEST_TRUNCATE");
    if (victim) truncate(victim, 0);
    if (getenv("WELD_TEST_STOP")) raise(SIGSTOP);
  }
  return p;
}
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
    __attribute__((alias("mmap")));
"#;

fn compile(dir: &Path, name: &str, src: &str) -> Result<PathBuf, String> {
    linkerr::compile(dir, &format!("{name}.c"), src, &["-fno-pie"])
}

fn preload(dir: &Path) -> Result<PathBuf, String> {
    paths::write(&dir.join("preload.c"), PRELOAD_C)?;
    let mut cmd = Command::new(tools::find(tools::CLANG)?);
    cmd.current_dir(dir).args([
        "-shared",
        "-fPIC",
        "-O1",
        "preload.c",
        "-o",
        "preload.so",
        "-ldl",
    ]);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("compiling the preload library")?;
    Ok(dir.join("preload.so"))
}

fn listing(dir: &Path) -> Result<BTreeSet<String>, String> {
    Ok(std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect())
}

/// The inputs of the program every trial links: `main.o`, `victim.o` (200 KB of data).
fn program(dir: &Path) -> Result<(), String> {
    compile(dir, "main", MAIN_C)?;
    compile(dir, "victim", VICTIM_C)?;
    Ok(())
}

/// weld's link of `main.o victim.o -o OUT` in `dir`, with `env` set.
fn weld_link(dir: &Path, out: &str, env: &[(&str, &Path)]) -> Result<run::Output, String> {
    let mut cmd = Command::new(tools::weld()?);
    cmd.current_dir(dir).args(["main.o", "victim.o", "-o", out]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    run::run(&mut cmd, run::LINK_TIMEOUT)
}

/// A failed link as every failure must be: exit 1, exactly `message` as the one diagnostic,
/// no output, no file left besides those in `before`.
fn clean_failure(dir: &Path, out: &run::Output, message: &str, before: &BTreeSet<String>) -> Check {
    let want = format!("{}: error: {message}", tools::diag_name(&tools::weld()?));
    if out.code != Some(1) || linkerr::error_lines(&out.stderr_str()) != [want.clone()] {
        return Err(format!(
            "expected exit 1 and the one error `{want}`, got:\n{}",
            out.report()
        ));
    }
    let after = listing(dir)?;
    let new: Vec<&String> = after.difference(before).collect();
    if !new.is_empty() {
        return Err(format!("weld left files behind: {new:?}"));
    }
    Ok(())
}

/// Links the program with `victim.o` truncated to nothing when weld maps a file whose path
/// contains `when`; the link must fail cleanly, naming the input.
fn truncated_input(dir: &Path, when: &str) -> Check {
    program(dir)?;
    let so = preload(dir)?;
    let before = listing(dir)?;
    let victim = dir.join("victim.o");
    let out = weld_link(
        dir,
        "out",
        &[
            ("LD_PRELOAD", &so),
            ("WELD_TEST_WHEN", Path::new(when)),
            ("WELD_TEST_TRUNCATE", &victim),
        ],
    )?;
    clean_failure(
        dir,
        &out,
        "victim.o: file was truncated or changed while linking",
        &before,
    )
}

fn input_truncated_when_mapped(dir: &Path) -> Check {
    truncated_input(dir, "/victim.o")
}

/// The input is cut when weld maps its temporary output, after reading every header: the fault
/// comes while section contents are copied, and the temporary file must go.
fn input_truncated_while_writing(dir: &Path) -> Check {
    truncated_input(dir, ".weld-tmp-")
}

fn disk_full(dir: &Path) -> Check {
    program(dir)?;
    std::fs::create_dir_all(dir.join("small")).map_err(|e| e.to_string())?;
    let weld = tools::weld()?;
    // A private mount namespace: the 64 KiB file system exists only for this link.
    let script = format!(
        "mount -t tmpfs -o size=64k tmpfs small && {} -e main main.o victim.o -o small/out; \
         code=$?; ls -A small; exit $code",
        run::shell_quote(weld.as_os_str())
    );
    let mut cmd = Command::new("unshare");
    cmd.current_dir(dir).args(["--mount", "sh", "-c", &script]);
    let out = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    let want = format!(
        "{}: error: failed to write output 'small/out': No space left on device",
        tools::diag_name(&weld)
    );
    if out.code != Some(1) || linkerr::error_lines(&out.stderr_str()) != [want.clone()] {
        return Err(format!(
            "expected exit 1 and the one error `{want}`, got:\n{}",
            out.report()
        ));
    }
    // `ls -A small` printed what the link left on the full file system: nothing.
    let left = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !left.is_empty() {
        return Err(format!("weld left files on the full disk: {left}"));
    }
    Ok(())
}

fn output_in_missing_folder(dir: &Path) -> Check {
    program(dir)?;
    let before = listing(dir)?;
    let mut outputs = Vec::new();
    for linker in [tools::lld()?, tools::weld()?] {
        let mut cmd = Command::new(&linker);
        cmd.current_dir(dir)
            .args(["main.o", "victim.o", "-o", "nodir/out"]);
        outputs.push((linker, run::run(&mut cmd, run::LINK_TIMEOUT)?));
    }
    same_first_error(
        &outputs,
        "cannot open output file nodir/out: No such file or directory",
    )?;
    let after = listing(dir)?;
    if after != before {
        return Err(format!("files appeared: {:?}", after.difference(&before)));
    }
    Ok(())
}

fn unreadable_input(dir: &Path) -> Check {
    program(dir)?;
    use std::os::unix::fs::PermissionsExt;
    let perm = |p: &Path, mode| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode))
            .map_err(|e| format!("{}: {e}", p.display()))
    };
    // root reads anything: both linkers run as `nobody`, in a folder it may write.
    perm(dir, 0o777)?;
    perm(&dir.join("victim.o"), 0o000)?;
    let mut outputs = Vec::new();
    for (name, linker) in [("lld", tools::lld()?), ("weld", tools::weld()?)] {
        let mut cmd = Command::new("setpriv");
        cmd.current_dir(dir)
            .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
            .arg(&linker)
            .args(["main.o", "victim.o", "-o"])
            .arg(format!("out.{name}"));
        outputs.push((linker, run::run(&mut cmd, run::LINK_TIMEOUT)?));
    }
    same_first_error(&outputs, "cannot open victim.o: Permission denied")?;
    if dir.join("out.weld").exists() {
        return Err("weld left its output behind".into());
    }
    Ok(())
}

/// `outputs` are lld's run, then weld's: lld must have failed with `expected` as its first
/// error, and weld with the same first error and exit code 1.
fn same_first_error(outputs: &[(PathBuf, run::Output)], expected: &str) -> Check {
    let first = |(linker, out): &(PathBuf, run::Output)| {
        let name = linker
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = if name.starts_with("ld.lld") {
            name
        } else {
            tools::diag_name(linker)
        };
        let text = linkerr::rename_program(&out.stderr_str(), &name, "LINKER");
        linkerr::first_error_line(&text)
    };
    let (lld, weld) = (first(&outputs[0]), first(&outputs[1]));
    if lld.as_deref() != Some(format!("LINKER: error: {expected}").as_str()) {
        return Err(format!("the oracle changed:\n{}", outputs[0].1.report()));
    }
    if weld != lld || outputs[1].1.code != Some(1) {
        return Err(format!("weld differs from lld:\n{}", outputs[1].1.report()));
    }
    Ok(())
}

fn runs_and_exits_0(program: &Path) -> Check {
    let out = run::run(&mut Command::new(program), run::TOOL_TIMEOUT)?;
    if !out.success() {
        return Err(format!(
            "{} does not run:\n{}",
            program.display(),
            out.report()
        ));
    }
    Ok(())
}

fn two_links_one_output(dir: &Path) -> Check {
    program(dir)?;
    let before = listing(dir)?;
    let weld = tools::weld()?;
    let spawn = || {
        Command::new(&weld)
            .current_dir(dir)
            .args(["main.o", "victim.o", "-o", "out"])
            .spawn()
            .map_err(|e| e.to_string())
    };
    let mut a = spawn()?;
    let mut b = spawn()?;
    for child in [&mut a, &mut b] {
        let status = child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("a concurrent link failed: {status}"));
        }
    }
    runs_and_exits_0(&dir.join("out"))?;
    let after = listing(dir)?;
    let new: Vec<&String> = after.difference(&before).collect();
    if new != [&"out".to_string()] {
        return Err(format!("expected only `out` to appear, got {new:?}"));
    }
    Ok(())
}

fn killed_link_keeps_old_output(dir: &Path) -> Check {
    program(dir)?;
    let so = preload(dir)?;
    let first = weld_link(dir, "out", &[])?;
    first.ok("the first link")?;
    let old = paths::read(&dir.join("out"))?;
    let before = listing(dir)?;
    // The second link stops itself when it maps its temporary output; then it is killed.
    let mut child = Command::new(tools::weld()?)
        .current_dir(dir)
        .args(["main.o", "victim.o", "-o", "out"])
        .env("LD_PRELOAD", &so)
        .env("WELD_TEST_WHEN", ".weld-tmp-")
        .env("WELD_TEST_STOP", "1")
        .spawn()
        .map_err(|e| e.to_string())?;
    let pid = child.id().to_string();
    // Wait (bounded) for the stop, read from /proc: state `T`.
    let stat = format!("/proc/{pid}/stat");
    let deadline = std::time::Instant::now() + run::LINK_TIMEOUT;
    loop {
        let s = std::fs::read_to_string(&stat).unwrap_or_default();
        if s.rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('T'))
        {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            return Err("the second link never reached its output".into());
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().map_err(|e| e.to_string())?;
    let _ = child.wait();
    if paths::read(&dir.join("out"))? != old {
        return Err("the killed link changed the previous output".into());
    }
    runs_and_exits_0(&dir.join("out"))?;
    let after = listing(dir)?;
    let new: Vec<&String> = after.difference(&before).collect();
    // The one file being written when the link died may stay; nothing else.
    if new.len() > 1 || new.iter().any(|n| !n.starts_with(".out.weld-tmp-")) {
        return Err(format!("stray files after the killed link: {new:?}"));
    }
    Ok(())
}

/// One section header of an ELF object: where it is in the file, and what the tests patch.
struct SectionHeader {
    /// The header's own offset in the file.
    at: usize,
    name: Vec<u8>,
    sh_type: u32,
    offset: usize,
    size: usize,
}

/// The section headers of the ELF object `bytes` (64-bit little-endian, as clang-22 writes).
fn section_headers(bytes: &[u8]) -> Result<Vec<SectionHeader>, String> {
    let bad = || "not the ELF object expected".to_string();
    let le = |o: usize, n: usize| -> Result<u64, String> {
        let b = bytes.get(o..o + n).ok_or_else(bad)?;
        Ok(b.iter().rev().fold(0u64, |v, &x| v << 8 | u64::from(x)))
    };
    let shoff = le(0x28, 8)? as usize;
    let shnum = le(0x3c, 2)? as usize;
    let strtab = le(shoff + le(0x3e, 2)? as usize * 64 + 24, 8)? as usize;
    (0..shnum)
        .map(|i| {
            let at = shoff + i * 64;
            let name_at = strtab + le(at, 4)? as usize;
            let name = bytes
                .get(name_at..)
                .and_then(|b| b.split(|&c| c == 0).next())
                .ok_or_else(bad)?;
            Ok(SectionHeader {
                at,
                name: name.to_vec(),
                sh_type: le(at + 4, 4)? as u32,
                offset: le(at + 24, 8)? as usize,
                size: le(at + 32, 8)? as usize,
            })
        })
        .collect()
}

/// The first section of `bytes` that `pick` chooses.
fn find_section(
    bytes: &[u8],
    what: &str,
    pick: impl Fn(&SectionHeader) -> bool,
) -> Result<SectionHeader, String> {
    section_headers(bytes)?
        .into_iter()
        .find(pick)
        .ok_or_else(|| format!("no section {what}"))
}

/// Sets the type of the first relocation of the first `SHT_RELA` section of the ELF object
/// `bytes` to `r_type`.
fn set_first_relocation_type(bytes: &mut [u8], r_type: u32) -> Result<(), String> {
    let rela = find_section(bytes, "SHT_RELA", |s| s.sh_type == 4)?.offset;
    let info = bytes
        .get(rela + 8..rela + 16)
        .and_then(|b| b.try_into().ok())
        .map(u64::from_le_bytes)
        .ok_or("SHT_RELA section past the end")?;
    let patched = (info & !0xffff_ffff) | u64::from(r_type);
    bytes[rela + 8..rela + 16].copy_from_slice(&patched.to_le_bytes());
    Ok(())
}

fn unknown_relocation_type(dir: &Path) -> Check {
    program(dir)?;
    let mut main = paths::read(&dir.join("main.o"))?;
    set_first_relocation_type(&mut main, 200)?;
    paths::write(&dir.join("bad.o"), &main)?;
    let both = link_both(dir, &["bad.o", "victim.o"])?;
    both.same_first_error(
        "bad.o:(function _start: .text+0x2): unknown relocation (200) against symbol victim",
    )?;
    both.same_stderr()
}

/// An input script that names itself (lld recurses until its stack overflows).
fn script_input_cycle(dir: &Path) -> Check {
    program(dir)?;
    paths::write(&dir.join("a.lds"), "INPUT(b.lds)\n")?;
    paths::write(&dir.join("b.lds"), "INPUT(victim.o a.lds)\n")?;
    let before = listing(dir)?;
    let out = weld_link_args(dir, &["main.o", "a.lds", "-o", "out"])?;
    clean_failure(
        dir,
        &out,
        "a.lds: there is a cycle in linker script INPUTs",
        &before,
    )
}

/// A chain of 300 distinct scripts, each naming the next.
fn script_chain_too_deep(dir: &Path) -> Check {
    program(dir)?;
    for i in 0..300 {
        paths::write(
            &dir.join(format!("s{i}.lds")),
            format!("INPUT(s{}.lds)\n", i + 1),
        )?;
    }
    paths::write(&dir.join("s300.lds"), "INPUT(victim.o)\n")?;
    let before = listing(dir)?;
    let out = weld_link_args(dir, &["main.o", "s0.lds", "-o", "out"])?;
    clean_failure(
        dir,
        &out,
        "s256.lds: linker scripts nested too deeply (more than 256 levels of INPUT or GROUP)",
        &before,
    )
}

fn symlink_loop(dir: &Path) -> Check {
    program(dir)?;
    for (link, target) in [("loop1.o", "loop2.o"), ("loop2.o", "loop1.o")] {
        std::os::unix::fs::symlink(target, dir.join(link)).map_err(|e| e.to_string())?;
    }
    let both = link_both(dir, &["main.o", "loop1.o"])?;
    both.same_first_error("cannot open loop1.o: Too many levels of symbolic links")?;
    both.same_stderr()
}

fn weld_link_args(dir: &Path, args: &[&str]) -> Result<run::Output, String> {
    let mut cmd = Command::new(tools::weld()?);
    cmd.current_dir(dir).args(args);
    run::run(&mut cmd, run::LINK_TIMEOUT)
}

/// Sets `sh_addralign` of the section named `section` in the ELF object `bytes`.
fn set_alignment(bytes: &mut [u8], section: &str, align: u64) -> Result<(), String> {
    let at = find_section(bytes, section, |s| s.name == section.as_bytes())?.at;
    bytes[at + 48..at + 56].copy_from_slice(&align.to_le_bytes());
    Ok(())
}

/// An alignment of 2^40 would make a terabyte output: lld's limit and message.
fn huge_alignment(dir: &Path) -> Check {
    program(dir)?;
    let mut victim = paths::read(&dir.join("victim.o"))?;
    set_alignment(&mut victim, ".text", 1 << 40)?;
    paths::write(&dir.join("aligned.o"), &victim)?;
    let both = link_both(dir, &["main.o", "aligned.o"])?;
    both.same_first_error("aligned.o: section sh_addralign is too large")
}

/// A thin archive whose member is itself an archive: nothing in it can join the link. lld
/// warns about the member, then finds no object to tell the target by.
fn archive_inside_thin_archive(dir: &Path) -> Check {
    program(dir)?;
    let ar = tools::find("llvm-ar-22")?;
    for args in [
        &["rcs", "inner.a", "main.o", "victim.o"][..],
        &["rcT", "outer.a", "inner.a"][..],
    ] {
        let mut cmd = Command::new(&ar);
        cmd.current_dir(dir).args(args);
        run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-ar-22")?;
    }
    let both = link_both(dir, &["outer.a", "-u", "_start"])?;
    both.same_first_error("target emulation unknown: -m or at least one .o file required")?;
    both.same_stderr()
}

/// A CREL section whose header claims 2^60 relocations (a fuzzer finding: the count was
/// trusted for an allocation, and Rust's allocator panicked). Now an error naming the file.
fn crel_count_bomb(dir: &Path) -> Check {
    linkerr::compile(
        dir,
        "calls.c",
        "extern int f1(void), f2(void), f3(void), f4(void), f5(void), f6(void);\n\
         int g(void) { return f1() + f2() + f3() + f4() + f5() + f6(); }\n",
        &["-Wa,--crel,--allow-experimental-crel", "-fno-pic"],
    )?;
    let mut obj = paths::read(&dir.join("calls.o"))?;
    let crel = find_section(&obj, "SHT_CREL", |s| s.sh_type == 0x4000_0014)?;
    let (off, size) = (crel.offset, crel.size);
    // ULEB128 of (2^60 << 3) | the original flags: nine bytes over the first entries.
    let flags = u64::from(obj[off] & 7);
    let mut v = (1u64 << 60) << 3 | flags;
    let mut uleb = Vec::new();
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        uleb.push(if v == 0 { byte } else { byte | 0x80 });
        if v == 0 {
            break;
        }
    }
    if uleb.len() > size {
        return Err(format!("the CREL section has only {size} bytes"));
    }
    obj[off..off + uleb.len()].copy_from_slice(&uleb);
    paths::write(&dir.join("bomb.o"), &obj)?;
    let before = listing(dir)?;
    let out = weld_link_args(dir, &["-shared", "bomb.o", "-o", "out"])?;
    let stderr = out.stderr_str();
    let errors = linkerr::error_lines(&stderr);
    if out.code != Some(1)
        || errors.len() != 1
        || !errors[0].contains("bomb.o: invalid CREL relocation section")
        || stderr.contains("panicked")
    {
        return Err(format!("expected one clean CREL error:\n{}", out.report()));
    }
    let after = listing(dir)?;
    if after != before {
        return Err(format!("files appeared: {:?}", after.difference(&before)));
    }
    Ok(())
}

/// lld's check, which comes before anything that would use the alignment.
fn alignment_not_power_of_two(dir: &Path) -> Check {
    program(dir)?;
    let mut victim = paths::read(&dir.join("victim.o"))?;
    set_alignment(&mut victim, ".text", 24)?;
    paths::write(&dir.join("odd.o"), &victim)?;
    let both = link_both(dir, &["main.o", "odd.o"])?;
    both.same_first_error("odd.o:(.text): sh_addralign is not a power of 2")
}
