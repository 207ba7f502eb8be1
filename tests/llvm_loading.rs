//! libLLVM only when there is bitcode (issue #17): the weld binary does not link LLVM; the
//! shim (`libweld_llvm.so`, and libLLVM with it) is opened on the first bitcode input. Checked
//! with the dynamic loader's own trace (`LD_DEBUG=files`): a native link never maps libLLVM, a
//! ThinLTO link does and runs; and when the shim cannot be loaded, a bitcode input is one clear
//! error naming what is missing, while native links still work.

use libtest_mimic::Arguments;
use std::path::Path;
use std::process::Command;
use weld_tests::linkerr;
use weld_tests::{paths, run, tools, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "llvm_loading",
        &[
            ("native_link_never_maps_llvm", native_link_never_maps_llvm),
            ("bitcode_link_loads_llvm", bitcode_link_loads_llvm),
            (
                "missing_shim_is_a_clear_error",
                missing_shim_is_a_clear_error,
            ),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

const MAIN_C: &str = "void _start(void) {\n\
      __asm__ volatile(\"syscall\" : : \"a\"(60L), \"D\"(0L));\n\
      __builtin_unreachable();\n\
    }\n";

/// Links `input` with `weld` under `LD_DEBUG=files`; returns the run and whether the loader
/// mapped libLLVM.
fn traced_link(dir: &Path, weld: &Path, input: &str) -> Result<(run::Output, bool), String> {
    let mut cmd = Command::new(weld);
    cmd.current_dir(dir)
        .env("LD_DEBUG", "files")
        .args([input, "-o", "out"]);
    let out = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    let mapped = out
        .stderr_str()
        .lines()
        .any(|l| l.contains("file=libLLVM") || l.contains("libLLVM.so"));
    Ok((out, mapped))
}

fn native_link_never_maps_llvm(dir: &Path) -> Check {
    linkerr::compile(dir, "main.c", MAIN_C, &[])?;
    let (out, mapped) = traced_link(dir, &tools::weld()?, "main.o")?;
    let out = out.ok("the native link")?;
    if mapped {
        return Err(format!("a native link mapped libLLVM:\n{}", out.report()));
    }
    if !out.stderr_str().contains("file=") {
        return Err("LD_DEBUG=files printed nothing: the check cannot see the loader".into());
    }
    Ok(())
}

fn bitcode_link_loads_llvm(dir: &Path) -> Check {
    linkerr::compile(dir, "main.c", MAIN_C, &["-flto=thin"])?;
    let (out, mapped) = traced_link(dir, &tools::weld()?, "main.o")?;
    let out = out.ok("the ThinLTO link")?;
    if !mapped {
        return Err(format!(
            "the ThinLTO link never loaded libLLVM:\n{}",
            out.report()
        ));
    }
    let ran = run::run(&mut Command::new(dir.join("out")), run::TOOL_TIMEOUT)?;
    ran.ok("the ThinLTO-linked program").map(|_| ())
}

fn missing_shim_is_a_clear_error(dir: &Path) -> Check {
    // A copy of weld with a broken `libweld_llvm.so` beside it: the one it loads first.
    let weld = dir.join("weld");
    std::fs::copy(tools::weld()?, &weld).map_err(|e| format!("copying weld: {e}"))?;
    paths::write(&dir.join("libweld_llvm.so"), "not a library\n")?;
    linkerr::compile(dir, "native.c", MAIN_C, &[])?;
    linkerr::compile(dir, "bitcode.c", MAIN_C, &["-flto=thin"])?;
    let (native, _) = traced_link(dir, &weld, "native.o")?;
    native.ok("a native link without the shim")?;
    let mut cmd = Command::new(&weld);
    cmd.current_dir(dir).args(["bitcode.o", "-o", "out2"]);
    let out = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    let errors = linkerr::error_lines(&out.stderr_str());
    let clear = errors.len() == 1
        && errors[0].contains("bitcode.o")
        && errors[0].contains("cannot load LLVM")
        && errors[0].contains("libweld_llvm.so");
    if out.code != Some(1) || !clear || dir.join("out2").exists() {
        return Err(format!(
            "expected one error naming bitcode.o and the missing library, exit 1, no output:\n{}",
            out.report()
        ));
    }
    Ok(())
}
