//! Error handling: bad links must fail the way ld.lld-22 fails.
//!
//! Each trial builds its inputs in `target/weld-tests/errors/<name>/`, runs ld.lld-22 and weld on
//! them directly (the same arguments, relative paths), and asserts for weld: exit code 1, the
//! exact first error line (lld's, with `ld.lld-22: ` replaced by weld's program name), for symbol
//! errors the whole diagnostic text, no output file and no stray temporary file left behind, and
//! no panic text. Where lld has no message (GCC LTO objects), weld's own message is asserted.

use libtest_mimic::Arguments;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::run::{self, Output};
use weld_tests::{paths, tools, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "errors",
        &[
            ("undefined_symbol", undefined_symbol),
            (
                "undefined_symbol_with_debug_info",
                undefined_symbol_with_debug_info,
            ),
            ("duplicate_symbol", duplicate_symbol),
            ("missing_input_file", missing_input_file),
            ("unknown_option", unknown_option),
            ("truncated_object_header", truncated_object_header),
            ("truncated_object_sections", truncated_object_sections),
            ("garbage_file", garbage_file),
            ("corrupt_archive", corrupt_archive),
            ("gcc_lto_object", gcc_lto_object),
            ("relocation_out_of_range", relocation_out_of_range),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

// ---------------------------------------------------------------------------------------------
// Inputs

const UNDEFINED_C: &str = "extern int foo(void);\nextern int bar;\nint helper(void) { return foo() + 1; }\nint main(void) { return foo() + bar; }\n";
const DEF1_C: &str = "int foo(void) { return 1; }\nint main(void) { return foo(); }\n";
const DEF2_C: &str = "int foo(void) { return 2; }\n";

/// Compiles `name.c` (written from `src`) to `name.o` in `dir` with clang-22.
fn compile(dir: &Path, name: &str, src: &str, flags: &[&str]) -> Result<PathBuf, String> {
    paths::write(&dir.join(format!("{name}.c")), src)?;
    let mut cmd = Command::new(tools::find(tools::CLANG)?);
    cmd.current_dir(dir)
        .args(["-c", "-O1", "-fno-pie"])
        .args(flags)
        .arg(format!("{name}.c"))
        .arg("-o")
        .arg(format!("{name}.o"));
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("compiling {name}.c"))?;
    Ok(dir.join(format!("{name}.o")))
}

// ---------------------------------------------------------------------------------------------
// Running both linkers

struct Both {
    lld: Output,
    weld: Output,
    /// lld's stderr with its program name replaced by weld's.
    lld_as_weld: String,
    weld_name: String,
}

/// Runs lld and weld with `args` + `-o OUT` in `dir`, and checks what every failed link must
/// satisfy: exit code 1, no output file, no new files at all, no panic.
fn link_both(dir: &Path, args: &[&str]) -> Result<Both, String> {
    let lld_path = tools::lld()?;
    let weld_path = tools::weld()?;
    let lld = run_linker(dir, &lld_path, args, "out.lld")?;
    let before = listing(dir)?;
    let weld = run_linker(dir, &weld_path, args, "out.weld")?;
    let after = listing(dir)?;

    let mut problems = Vec::new();
    if weld.code != Some(1) {
        problems.push(format!(
            "weld should exit with 1, but: {}",
            weld.status_text()
        ));
    }
    let err = weld.stderr_str();
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        problems.push("weld's stderr contains panic text".to_string());
    }
    if dir.join("out.weld").exists() {
        problems.push("weld left an output file behind".to_string());
    }
    let new: Vec<&String> = after.difference(&before).collect();
    if !new.is_empty() {
        problems.push(format!("weld left files behind: {new:?}"));
    }
    if !problems.is_empty() {
        return Err(format!("{}\n{}", problems.join("\n"), weld.report()));
    }
    let lld_name = lld_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let weld_name = tools::diag_name(&weld_path);
    let lld_as_weld = rename_program(&lld.stderr_str(), &lld_name, &weld_name);
    Ok(Both {
        lld,
        weld,
        lld_as_weld,
        weld_name,
    })
}

fn run_linker(dir: &Path, linker: &Path, args: &[&str], out: &str) -> Result<Output, String> {
    let _ = std::fs::remove_file(dir.join(out));
    let mut cmd = Command::new(linker);
    cmd.current_dir(dir).args(args).arg("-o").arg(out);
    run::run(&mut cmd, run::LINK_TIMEOUT)
}

fn listing(dir: &Path) -> Result<BTreeSet<String>, String> {
    Ok(std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect())
}

/// Replaces `FROM: ` at the start of every line with `TO: `.
fn rename_program(text: &str, from: &str, to: &str) -> String {
    let prefix = format!("{from}: ");
    text.lines()
        .map(|l| match l.strip_prefix(&prefix) {
            Some(rest) => format!("{to}: {rest}\n"),
            None => format!("{l}\n"),
        })
        .collect()
}

fn first_error_line(text: &str) -> Option<&str> {
    text.lines().find(|l| l.contains(": error: "))
}

impl Both {
    /// lld must have failed with exactly `expected` (after `error: `) as its first error line; then
    /// weld's first error line must equal lld's (with the program name replaced).
    fn same_first_error(&self, expected: &str) -> Check {
        let lld_first = first_error_line(&self.lld_as_weld);
        let want = format!("{}: error: {expected}", self.weld_name);
        if self.lld.code != Some(1) || lld_first != Some(want.as_str()) {
            return Err(format!(
                "the oracle changed: expected ld.lld-22 to fail with `{expected}`\n{}",
                self.lld.report()
            ));
        }
        let weld_first = first_error_line_bytes(&self.weld.stderr);
        if weld_first.as_deref() == Some(want.as_str()) {
            Ok(())
        } else {
            Err(format!(
                "first error line differs\n  weld: {}\n  want: {want}\n{}",
                weld_first.as_deref().unwrap_or("<no error line>"),
                self.weld.report()
            ))
        }
    }

    /// The whole stderr must equal lld's (with the program name replaced).
    fn same_stderr(&self) -> Check {
        let weld = self.weld.stderr_str();
        if weld == self.lld_as_weld {
            Ok(())
        } else {
            Err(format!(
                "diagnostics differ from ld.lld-22's: {}",
                weld_tests::text_diff("weld", &weld, "lld", &self.lld_as_weld)
            ))
        }
    }
}

fn first_error_line_bytes(bytes: &[u8]) -> Option<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .find(|l| l.contains(": error: "))
        .map(String::from)
}

// ---------------------------------------------------------------------------------------------
// The trials

fn undefined_symbol(dir: &Path) -> Check {
    compile(dir, "undef", UNDEFINED_C, &["-g0"])?;
    let both = link_both(dir, &["undef.o"])?;
    both.same_first_error("undefined symbol: foo")?;
    both.same_stderr()?;
    let err = both.weld.stderr_str();
    for line in [
        ">>> referenced by undef.c",
        ">>>               undef.o:(helper)",
        ">>>               undef.o:(main)",
    ] {
        if !err.lines().any(|l| l == line) {
            return Err(format!("weld's diagnostics lack the line `{line}`\n{err}"));
        }
    }
    Ok(())
}

fn undefined_symbol_with_debug_info(dir: &Path) -> Check {
    compile(dir, "undef", UNDEFINED_C, &["-g"])?;
    let both = link_both(dir, &["undef.o"])?;
    both.same_first_error("undefined symbol: foo")?;
    both.same_stderr()?;
    let src = dir.join("undef.c");
    let line = format!(">>> referenced by undef.c:3 ({}:3)", src.display());
    if !both.weld.stderr_str().lines().any(|l| l == line) {
        return Err(format!(
            "weld's diagnostics lack `{line}` (source line from DWARF)"
        ));
    }
    Ok(())
}

fn duplicate_symbol(dir: &Path) -> Check {
    compile(dir, "def1", DEF1_C, &["-g0"])?;
    compile(dir, "def2", DEF2_C, &["-g0"])?;
    let both = link_both(dir, &["def1.o", "def2.o"])?;
    both.same_first_error("duplicate symbol: foo")?;
    both.same_stderr()
}

fn missing_input_file(dir: &Path) -> Check {
    compile(dir, "def1", DEF1_C, &["-g0"])?;
    let both = link_both(dir, &["def1.o", "nofile.o"])?;
    both.same_first_error("cannot open nofile.o: No such file or directory")?;
    both.same_stderr()
}

fn unknown_option(dir: &Path) -> Check {
    compile(dir, "def1", DEF1_C, &["-g0"])?;
    let both = link_both(dir, &["--frobnicate", "def1.o"])?;
    both.same_first_error("unknown argument '--frobnicate'")
}

/// `main` reads `far` with a 32-bit PC-relative load, but 3 GiB of `.bss` lie between them.
const NEAR_C: &str = "extern int far;\nint main(void) { return far; }\n";
const FAR_C: &str = "char pad[3u << 30];\nint far;\n";

fn relocation_out_of_range(dir: &Path) -> Check {
    // -fno-pic: a plain R_X86_64_PC32 (no GOT indirection that a linker could keep instead).
    compile(dir, "near", NEAR_C, &["-g0", "-fno-pic"])?;
    compile(dir, "far", FAR_C, &["-g0", "-fno-pic", "-fno-common"])?;
    let both = link_both(dir, &["-e", "main", "near.o", "far.o"])?;
    both.same_first_error(
        "near.o:(function main: .text+0x2): relocation R_X86_64_PC32 out of range: 3221229578 is not \
         in [-2147483648, 2147483647]; references 'far'",
    )?;
    both.same_stderr()
}

/// A copy of the first `len` bytes of a real object.
fn truncated(dir: &Path, len: usize) -> Check {
    let obj = compile(dir, "def1", DEF1_C, &["-g0"])?;
    let bytes = std::fs::read(&obj).map_err(|e| format!("{}: {e}", obj.display()))?;
    if bytes.len() <= len {
        return Err(format!("{} is only {} bytes", obj.display(), bytes.len()));
    }
    paths::write(&dir.join("trunc.o"), &bytes[..len])
}

fn truncated_object_header(dir: &Path) -> Check {
    truncated(dir, 100)?;
    let both = link_both(dir, &["trunc.o"])?;
    let expected = first_error_line(&both.lld_as_weld)
        .unwrap_or_default()
        .split_once(": error: ")
        .map(|(_, m)| m.to_string())
        .unwrap_or_default();
    if !expected.starts_with("trunc.o: section header table goes past the end of the file") {
        return Err(format!("the oracle changed:\n{}", both.lld.report()));
    }
    both.same_first_error(&expected)
}

fn truncated_object_sections(dir: &Path) -> Check {
    truncated(dir, 1000)?;
    let both = link_both(dir, &["trunc.o"])?;
    both.same_first_error("trunc.o: section table goes past the end of file")
}

fn garbage_file(dir: &Path) -> Check {
    paths::write(&dir.join("garbage.o"), "hello world garbage\n")?;
    let both = link_both(dir, &["garbage.o"])?;
    both.same_first_error("garbage.o:1: unknown directive: hello")?;
    both.same_stderr()
}

fn corrupt_archive(dir: &Path) -> Check {
    compile(dir, "def1", DEF1_C, &["-g0"])?;
    // A member header claiming 9999 bytes, followed by three.
    paths::write(
        &dir.join("corrupt.a"),
        "!<arch>\nfoo.o/          0           0     0     644     9999      `\nabc",
    )?;
    let both = link_both(dir, &["def1.o", "corrupt.a"])?;
    both.same_first_error(
        "corrupt.a: Archive::children failed: truncated or malformed archive (offset to next \
         archive member past the end of the archive after member foo.o)",
    )
}

/// gcc -flto objects hold GIMPLE in `.gnu.lto_*` sections and no machine code. lld links them
/// silently into a broken program; weld must refuse them.
fn gcc_lto_object(dir: &Path) -> Check {
    paths::write(&dir.join("lto.c"), DEF1_C)?;
    let mut cmd = Command::new(tools::find(tools::GCC)?);
    cmd.current_dir(dir)
        .args(["-c", "-O1", "-flto", "lto.c", "-o", "lto.o"]);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("gcc -flto -c")?;
    let sections = weld_tests::elf::section_names(&dir.join("lto.o"))?;
    if !sections.iter().any(|s| s.starts_with(".gnu.lto_")) {
        return Err(format!(
            "gcc -flto made no .gnu.lto_ sections: {sections:?}"
        ));
    }
    let both = link_both(dir, &["lto.o"])?;
    let want = format!(
        "{}: error: lto.o: GCC LTO objects are not supported; compile with clang -flto or -fno-lto",
        both.weld_name
    );
    let got = first_error_line_bytes(&both.weld.stderr);
    if got.as_deref() == Some(want.as_str()) {
        Ok(())
    } else {
        Err(format!(
            "first error line\n  weld: {}\n  want: {want}\n{}",
            got.as_deref().unwrap_or("<no error line>"),
            both.weld.report()
        ))
    }
}
