//! The command line as drivers and build systems use it: `--version` (alone, in the middle of a
//! full link line, through both drivers), `--help` (autoconf looks for `supported targets:`), and
//! the names weld answers to (`ld`, `ld.lld`, `ld.weld`), and `-o` naming something that is not
//! a regular file (a private character device made with mknod, a FIFO, a symlink): written into,
//! never replaced, as ld.lld-22 does.

use libtest_mimic::Arguments;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::build::{self, Compiler};
use weld_tests::run::{self, Output};
use weld_tests::tools::{self, Linker};
use weld_tests::{corpus, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "cli",
        &[
            ("version_alone", version_alone),
            ("version_mid_line", version_mid_line),
            ("version_through_drivers", version_through_drivers),
            ("help_lists_supported_targets", help_lists_supported_targets),
            (
                "symlink_names_behave_the_same",
                symlink_names_behave_the_same,
            ),
            ("output_special_files", output_special_files),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

fn version_line() -> String {
    format!(
        "weld {} (compatible with GNU linkers)",
        env!("CARGO_PKG_VERSION")
    )
}

fn run_weld_as(dir: &Path, program: &Path, args: &[&str]) -> Result<Output, String> {
    let mut cmd = Command::new(program);
    cmd.current_dir(dir).args(args);
    run::run(&mut cmd, run::LINK_TIMEOUT)
}

/// Exit 0, the version line on stdout, nothing that looks like an error.
fn expect_version(out: &Output) -> Check {
    let want = version_line();
    let stdout = out.stdout_str();
    let problems = [
        (!out.success(), "it should exit with 0"),
        (
            !stdout.lines().any(|l| l == want),
            "stdout lacks the version line",
        ),
        (
            out.stderr_str().contains("error"),
            "stderr reports an error",
        ),
    ];
    let failed: Vec<&str> = problems
        .iter()
        .filter(|(bad, _)| *bad)
        .map(|(_, m)| *m)
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} (want `{want}`)\n{}",
            failed.join("; "),
            out.report()
        ))
    }
}

fn version_alone(dir: &Path) -> Check {
    let weld = tools::weld()?;
    let out = run_weld_as(dir, &weld, &["--version"])?;
    expect_version(&out)?;
    if out.stdout_str() != format!("{}\n", version_line()) {
        return Err(format!(
            "`--version` alone should print exactly the version line\n{}",
            out.report()
        ));
    }
    Ok(())
}

/// `--version` in the middle of a full link line prints the version and exits 0 without
/// linking: no error for the missing inputs and no output file.
fn version_mid_line(dir: &Path) -> Check {
    let weld = tools::weld()?;
    let args = [
        "--hash-style=gnu",
        "--build-id",
        "--eh-frame-hdr",
        "-m",
        "elf_x86_64",
        "-pie",
        "-dynamic-linker",
        "/lib64/ld-linux-x86-64.so.2",
        "--version",
        "-o",
        "out",
        "missing-crt1.o",
        "missing.o",
        "-L/nonexistent",
        "-lnonexistent",
        "-z",
        "relro",
    ];
    let out = run_weld_as(dir, &weld, &args)?;
    expect_version(&out)?;
    if dir.join("out").exists() {
        return Err("`--version` mid-line created the output file".to_string());
    }
    Ok(())
}

/// `clang -Wl,--version` and `gcc -B DIR -Wl,--version`: the drivers run a link line that contains
/// `--version`, which must print the version and succeed.
fn version_through_drivers(dir: &Path) -> Check {
    let weld = Linker::weld()?;
    for compiler in [Compiler::Clang, Compiler::Gcc] {
        let mut cmd = Command::new(tools::find(compiler.c_driver())?);
        cmd.current_dir(dir)
            .args(compiler.use_linker_args(&weld)?)
            .arg("-Wl,--version");
        let out = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        expect_version(&out).map_err(|e| format!("through {}: {e}", compiler.name()))?;
    }
    Ok(())
}

fn help_lists_supported_targets(dir: &Path) -> Check {
    let weld = tools::weld()?;
    let out = run_weld_as(dir, &weld, &["--help"])?;
    let text = format!("{}{}", out.stdout_str(), out.stderr_str());
    let line = text.lines().find(|l| l.contains("supported targets:"));
    match line {
        Some(l) if out.success() && l.contains("elf") => Ok(()),
        Some(_) if out.success() => Err(format!(
            "the `supported targets:` line does not name elf\n{}",
            out.report()
        )),
        _ => Err(format!(
            "--help should exit 0 and print a `supported targets: elf...` line\n{}",
            out.report()
        )),
    }
}

/// weld reached through symlinks named `ld`, `ld.lld` and `ld.weld`: `--version` prints the same,
/// and linking the same program through clang with each name gives byte-identical, working
/// outputs; gcc finds the `ld` name through `-B`.
fn symlink_names_behave_the_same(dir: &Path) -> Check {
    let weld = tools::weld()?;
    let bin = dir.join("bin");
    let names = ["ld", "ld.lld", "ld.weld"];
    let mut links: Vec<(String, PathBuf)> = vec![("weld".into(), weld.clone())];
    for n in names {
        let link = bin.join(n);
        tools::symlink_fresh(&weld, &link)?;
        links.push((n.to_string(), link));
    }
    let reference = run_weld_as(dir, &weld, &["--version"])?;
    for (name, path) in &links[1..] {
        let out = run_weld_as(dir, path, &["--version"])?;
        if out.stdout != reference.stdout || out.code != reference.code {
            return Err(format!(
                "`{name} --version` differs from `weld --version`\n{}\n{}",
                out.report(),
                reference.report()
            ));
        }
        expect_version(&out).map_err(|e| format!("as {name}: {e}"))?;
    }

    let case = corpus::load("hello_c")?;
    let mode = build::mode("static")?;
    let objs = build::objects(&case, Compiler::Clang, &mode)?;
    let expected = case
        .expected_stdout("clang", mode.name)?
        .map(|(_, t)| t)
        .ok_or("hello_c has no expected.txt")?;
    let mut first: Option<(String, Vec<u8>)> = None;
    for (name, path) in &links {
        let linker = Linker {
            label: "weld",
            path: path.clone(),
        };
        let out = dir.join(format!("hello.{name}"));
        let mut cmd = build::link_command(&case, &objs, Compiler::Clang, &mode, &linker, &out)?;
        let link = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        if !link.success() || !out.is_file() {
            return Err(format!(
                "linking through the name {name} failed\n{}",
                link.report()
            ));
        }
        check_runs(&out, &expected, name)?;
        let bytes = std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        match &first {
            None => first = Some((name.clone(), bytes)),
            Some((n0, b0)) if *b0 != bytes => {
                return Err(format!(
                    "the output linked as {name} differs from the one linked as {n0}"
                ))
            }
            Some(_) => {}
        }
    }

    // gcc -B DIR looks for DIR/ld.
    let objs = build::objects(&case, Compiler::Gcc, &mode)?;
    let out = dir.join("hello.gcc-B");
    let mut cmd = Command::new(tools::find(tools::GCC)?);
    cmd.current_dir(dir)
        .arg(format!("-B{}/", bin.display()))
        .args(mode.ldflags)
        .args(objs.direct(&case, &mode))
        .arg("-o")
        .arg(&out);
    let link = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    if !link.success() || !out.is_file() {
        return Err(format!(
            "gcc -B with an `ld` symlink failed\n{}",
            link.report()
        ));
    }
    check_runs(&out, &expected, "ld (through gcc -B)")
}

fn check_runs(program: &Path, expected: &str, name: &str) -> Check {
    let ran = build::run_program(program)?;
    if ran.success() && ran.stdout == expected.as_bytes() {
        Ok(())
    } else {
        Err(format!(
            "the program linked as {name} misbehaves\n{}",
            ran.report()
        ))
    }
}

/// `-o` naming a character device, a FIFO or a symlink, for weld and for ld.lld-22: the device
/// and the FIFO stay what they are (the FIFO's reader receives the whole image), a symlink to a
/// regular file is replaced by the output and its target left alone. The device is a private
/// null device made with mknod in the work directory, never the machine's /dev/null.
fn output_special_files(dir: &Path) -> Check {
    use std::os::unix::fs::FileTypeExt;
    let case = corpus::load("hello_c")?;
    let mode = build::mode("static")?;
    let objs = build::objects(&case, Compiler::Clang, &mode)?;
    for linker in [Linker::weld()?, Linker::lld()?] {
        let d = dir.join(linker.label);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        let link = |out: &Path| -> Check {
            let mut cmd = build::link_command(&case, &objs, Compiler::Clang, &mode, &linker, out)?;
            run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!(
                "{} -o {}",
                linker.label,
                out.display()
            ))?;
            Ok(())
        };
        let regular = d.join("regular");
        link(&regular)?;
        let image = std::fs::read(&regular).map_err(|e| e.to_string())?;

        let dev = d.join("null");
        let _ = std::fs::remove_file(&dev);
        run::run(
            Command::new("mknod").arg(&dev).args(["c", "1", "3"]),
            run::TOOL_TIMEOUT,
        )?
        .ok("mknod")?;
        link(&dev)?;
        let t = std::fs::symlink_metadata(&dev)
            .map_err(|e| e.to_string())?
            .file_type();
        if !t.is_char_device() {
            return Err(format!(
                "{}: -o {} replaced the device",
                linker.label,
                dev.display()
            ));
        }

        let fifo = d.join("fifo");
        let _ = std::fs::remove_file(&fifo);
        run::run(Command::new("mkfifo").arg(&fifo), run::TOOL_TIMEOUT)?.ok("mkfifo")?;
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(&fifo).map_err(|e| e.to_string()))
        };
        link(&fifo)?;
        let got = reader
            .join()
            .map_err(|_| "FIFO reader panicked".to_string())??;
        let t = std::fs::symlink_metadata(&fifo)
            .map_err(|e| e.to_string())?
            .file_type();
        if !t.is_fifo() {
            return Err(format!(
                "{}: -o {} replaced the FIFO",
                linker.label,
                fifo.display()
            ));
        }
        if got != image {
            return Err(format!(
                "{}: the FIFO received {} bytes, the regular output has {}",
                linker.label,
                got.len(),
                image.len()
            ));
        }

        let target = d.join("target");
        std::fs::write(&target, b"keep\n").map_err(|e| e.to_string())?;
        let sym = d.join("symlink");
        tools::symlink_fresh(&target, &sym)?;
        link(&sym)?;
        let t = std::fs::symlink_metadata(&sym)
            .map_err(|e| e.to_string())?
            .file_type();
        let kept = std::fs::read(&target).map_err(|e| e.to_string())?;
        if !t.is_file() || kept != b"keep\n" {
            return Err(format!(
                "{}: -o through a symlink should replace the link and leave its target alone",
                linker.label
            ));
        }
    }
    Ok(())
}
