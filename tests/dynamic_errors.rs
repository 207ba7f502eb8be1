//! Errors only dynamic links have, compared with ld.lld-22's (`support/linkerr.rs`): for each,
//! weld must exit with 1, leave no output or temporary file, not panic, and print lld's
//! diagnostics (first error line and, where lld's text is stable, all of stderr). The expected
//! first lines were taken from ld.lld-22 and are re-checked against it on every run.
//!
//! Work directories: `target/weld-tests/dynamic_errors/<trial>/`.

use libtest_mimic::Arguments;
use std::path::Path;
use weld_tests::linkerr::{compile, link_both};
use weld_tests::{paths, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "dynamic_errors",
        &[
            ("z_defs_undefined_in_shared", z_defs_undefined_in_shared),
            ("no_undefined_in_shared", no_undefined_in_shared),
            ("no_undefined_version", no_undefined_version),
            (
                "undefined_version_is_an_error_by_default",
                undefined_version_by_default,
            ),
            ("version_script_syntax_error", version_script_syntax_error),
            ("version_script_unexpected_eof", version_script_eof),
            ("r_x86_64_32_in_shared", r_x86_64_32_in_shared),
            (
                "pc32_to_preemptible_in_shared",
                pc32_to_preemptible_in_shared,
            ),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

const UNDEF_C: &str = "int missing_fn(void);\nextern int missing_data;\n\
int f(void) { return missing_fn() + 1; }\nint g(void) { return missing_data; }\n";

const LIB_C: &str = "int hook(void) { return 1; }\nint other(void) { return hook() + 1; }\n";

fn z_defs_undefined_in_shared(dir: &Path) -> Check {
    compile(dir, "u.c", UNDEF_C, &["-fPIC"])?;
    let both = link_both(dir, &["-shared", "-z", "defs", "u.o"])?;
    both.same_first_error("undefined symbol: missing_fn")?;
    both.same_stderr()
}

fn no_undefined_in_shared(dir: &Path) -> Check {
    compile(dir, "u.c", UNDEF_C, &["-fPIC"])?;
    let both = link_both(dir, &["-shared", "--no-undefined", "u.o"])?;
    both.same_first_error("undefined symbol: missing_fn")?;
    both.same_stderr()
}

fn no_undefined_version(dir: &Path) -> Check {
    compile(dir, "lib.c", LIB_C, &["-fPIC"])?;
    paths::write(
        &dir.join("bad.map"),
        "V1 {\n  global:\n    hook;\n    nothere;\n  local:\n    *;\n};\n",
    )?;
    let both = link_both(
        dir,
        &[
            "-shared",
            "--version-script=bad.map",
            "--no-undefined-version",
            "lib.o",
        ],
    )?;
    both.same_first_error(
        "version script assignment of 'V1' to symbol 'nothere' failed: symbol not defined",
    )?;
    both.same_stderr()
}

/// lld 22 treats a version script naming an undefined symbol as an error even without
/// `--no-undefined-version` (it is the default).
fn undefined_version_by_default(dir: &Path) -> Check {
    compile(dir, "lib.c", LIB_C, &["-fPIC"])?;
    paths::write(
        &dir.join("bad.map"),
        "V1 { global: hook; nothere; local: *; };\n",
    )?;
    let both = link_both(dir, &["-shared", "--version-script=bad.map", "lib.o"])?;
    both.same_first_error(
        "version script assignment of 'V1' to symbol 'nothere' failed: symbol not defined",
    )?;
    both.same_stderr()
}

fn version_script_syntax_error(dir: &Path) -> Check {
    compile(dir, "lib.c", LIB_C, &["-fPIC"])?;
    // A missing `;` after `hook` on line 3.
    paths::write(
        &dir.join("syn.map"),
        "V1 {\n  global:\n    hook\n  local: *;\n};\n",
    )?;
    let both = link_both(dir, &["-shared", "--version-script=syn.map", "lib.o"])?;
    both.same_first_error("syn.map:4: ; expected, but got local")?;
    both.same_stderr()
}

fn version_script_eof(dir: &Path) -> Check {
    compile(dir, "lib.c", LIB_C, &["-fPIC"])?;
    // The closing `};` is missing.
    paths::write(
        &dir.join("eof.map"),
        "V1 {\n  global:\n    hook;\n  local:\n    *;\n",
    )?;
    let both = link_both(dir, &["-shared", "--version-script=eof.map", "lib.o"])?;
    both.same_first_error("eof.map:5: unexpected EOF")?;
    both.same_stderr()
}

fn r_x86_64_32_in_shared(dir: &Path) -> Check {
    compile(
        dir,
        "abs.s",
        "\t.text\n\t.globl f\nf:\n\tmovl $x, %eax\n\tret\n\t.data\n\t.globl x\nx:\t.long 1\n",
        &[],
    )?;
    let both = link_both(dir, &["-shared", "abs.o"])?;
    both.same_first_error(
        "relocation R_X86_64_32 cannot be used against symbol 'x'; recompile with -fPIC",
    )?;
    both.same_stderr()
}

fn pc32_to_preemptible_in_shared(dir: &Path) -> Check {
    compile(
        dir,
        "pc.s",
        "\t.text\n\t.globl g\ng:\n\tmovl y(%rip), %eax\n\tret\n\t.data\n\t.globl y\ny:\t.long 1\n",
        &[],
    )?;
    let both = link_both(dir, &["-shared", "pc.o"])?;
    both.same_first_error(
        "relocation R_X86_64_PC32 cannot be used against symbol 'y'; recompile with -fPIC",
    )?;
    both.same_stderr()
}
