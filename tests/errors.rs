//! Error handling: bad links must fail the way ld.lld-22 fails.
//!
//! Each trial builds its inputs in `target/weld-tests/errors/<name>/`, runs ld.lld-22 and weld on
//! them directly (the same arguments, relative paths), and asserts for weld: exit code 1, the
//! exact first error line (lld's, with `ld.lld-22: ` replaced by weld's program name), for symbol
//! errors the whole diagnostic text, no output file and no stray temporary file left behind, and
//! no panic text. Where lld has no message (GCC LTO objects), weld's own message is asserted.

use libtest_mimic::Arguments;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::linkerr::{self, first_error_line, link_both};
use weld_tests::{paths, run, tools, Check};

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
            ("error_limit_default", error_limit_default),
            ("error_limit_3", error_limit_3),
            ("error_limit_0", error_limit_0),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

// ---------------------------------------------------------------------------------------------
// Inputs

const UNDEFINED_C: &str = "extern int foo(void);\nextern int bar;\nint helper(void) { return foo() + 1; }\nint main(void) { return foo() + bar; }\n";
const DEF1_C: &str = "int foo(void) { return 1; }\nint main(void) { return foo(); }\n";
const DEF2_C: &str = "int foo(void) { return 2; }\n";

/// Compiles `name.c` (written from `src`) to `name.o` in `dir` with clang-22, not as PIE.
fn compile(dir: &Path, name: &str, src: &str, flags: &[&str]) -> Result<PathBuf, String> {
    let mut all = vec!["-fno-pie"];
    all.extend_from_slice(flags);
    linkerr::compile(dir, &format!("{name}.c"), src, &all)
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
    let got = first_error_line(&both.weld.stderr_str());
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

/// `main` calls 25 undefined functions: 25 errors, more than lld's default limit of 20.
fn many_undefined_c() -> String {
    let mut src = String::new();
    for i in 0..25 {
        src.push_str(&format!("extern int u{i}(void);\n"));
    }
    src.push_str("int main(void) {\n  int s = 0;\n");
    for i in 0..25 {
        src.push_str(&format!("  s += u{i}();\n"));
    }
    src.push_str("  return s;\n}\n");
    src
}

/// Links the 25-error program with `extra` options; the whole stderr must be lld's, and it must
/// hold `errors` error lines and the notice iff `capped`.
fn error_limit(dir: &Path, extra: &[&str], errors: usize, capped: bool) -> Check {
    compile(dir, "many", &many_undefined_c(), &["-g0"])?;
    let mut args = extra.to_vec();
    args.push("many.o");
    let both = link_both(dir, &args)?;
    both.same_first_error("undefined symbol: u0")?;
    both.same_stderr()?;
    let err = both.weld.stderr_str();
    let undefined = err.matches(": error: undefined symbol: ").count();
    let notice = err.contains("error: too many errors emitted, stopping now");
    if undefined != errors || notice != capped {
        return Err(format!(
            "expected {errors} undefined-symbol errors and {} notice, got {undefined} and {}\n{err}",
            if capped { "the" } else { "no" },
            if notice { "the notice" } else { "none" }
        ));
    }
    Ok(())
}

fn error_limit_default(dir: &Path) -> Check {
    error_limit(dir, &[], 20, true)
}

fn error_limit_3(dir: &Path) -> Check {
    error_limit(dir, &["--error-limit=3"], 3, true)
}

fn error_limit_0(dir: &Path) -> Check {
    error_limit(dir, &["--error-limit", "0"], 25, false)
}
