//! Rust programs linked by weld and by ld.lld-22 through cargo and rustc, the way Rust users
//! select a linker:
//!
//! ```text
//! RUSTFLAGS="-C linker=clang-22 -C link-arg=-fuse-ld=lld -C link-arg=--ld-path=<linker>"
//! ```
//!
//! rustc's link line exercises `--gc-sections`, `-z relro -z now`, `--as-needed`,
//! `-Bstatic`/`-Bdynamic` around the Rust rlibs, `-nodefaultlibs`, and, for a cdylib, a version
//! script exporting only the `#[no_mangle]` items.
//!
//! * `bin`: `testdata/rust/bin` (threads, std collections, panics), built once per linker with
//!   `cargo build --release` into `target/weld-tests/rust/bin/target-<linker>/`; both programs
//!   run and must print the same (and `expected.txt`).
//! * `cdylib::direct` / `cdylib::dlopen`: `testdata/rust/cdylib`, a C API in Rust, built once
//!   per linker, then used from C linked directly against it or loading it with `dlopen`; the C
//!   programs are linked by both linkers and all four combinations run.
//!
//! The crates have no dependencies (`cargo --offline`); they are copied into the work directory
//! so that nothing is written into the source tree.

use libtest_mimic::{Arguments, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};
use weld_tests::build::Compiler;
use weld_tests::dynlink::{
    self, all, arg, args_of, four_way, libs, link, linkers, objects, read_text, run_exe, rust_dir,
    same, same_set, trial, two_way,
};
use weld_tests::tools::Linker;
use weld_tests::{dynelf, elf, paths, run, Check};

const GROUP: &str = "rust";

fn main() {
    let args = Arguments::from_args();
    let cdylibs: Arc<OnceLock<Result<Cdylibs, String>>> = Arc::default();
    let (c1, c2) = (cdylibs.clone(), cdylibs);
    let trials: Vec<Trial> = vec![
        trial(GROUP, "bin_threads_collections".into(), rust_bin),
        trial(GROUP, "cdylib::direct_link".into(), move |d| {
            cdylib_from_c(d, &c1, false)
        }),
        trial(GROUP, "cdylib::dlopen".into(), move |d| {
            cdylib_from_c(d, &c2, true)
        }),
    ];
    libtest_mimic::run(&args, trials).exit();
}

/// `cargo build --release --offline` of the crate copied to `crate_dir`, into `target_dir`, with
/// rustc linking through clang-22 and `linker`.
fn cargo_build(crate_dir: &Path, target_dir: &Path, linker: &Linker) -> Check {
    let mut cmd = Command::new(dynlink::cargo()?);
    cmd.current_dir(crate_dir)
        .args(["build", "--release", "--offline", "--quiet"])
        .env("CARGO_TARGET_DIR", target_dir)
        .env("RUSTFLAGS", dynlink::rustflags(linker)?);
    dynlink::clean_cargo_env(&mut cmd);
    let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?;
    if o.success() {
        Ok(())
    } else {
        Err(format!(
            "cargo build with {} as the linker failed\n{}",
            linker.label,
            o.report()
        ))
    }
}

fn rust_bin(dir: &Path) -> Check {
    let src = rust_dir().join("bin");
    let expected = read_text(&src, "expected.txt")?;
    let tw = two_way(
        dir,
        &|l, d| {
            let crate_dir = d.join("crate");
            dynlink::copy_tree(&src, &crate_dir)?;
            let target = d.join(format!("target-{}", l.label));
            cargo_build(&crate_dir, &target, l)?;
            let exe = target.join("release").join("weld-rust-bin");
            dynlink::check_linked_by(l, &exe)?;
            Ok(exe)
        },
        &|exe, d| run_exe(exe, &["a".into(), "b c".into()], None, d),
        Some(&expected),
    )?;
    let mut checks = vec![tw.result()];
    if let Some(w) = &tw.exe_weld {
        let tags = ["NEEDED", "FLAGS", "FLAGS_1"];
        checks.push(same(
            "DT_NEEDED (in order), DT_FLAGS, DT_FLAGS_1",
            &dynelf::dynamic_summary(w, &tags)?,
            &dynelf::dynamic_summary(&tw.exe_lld, &tags)?,
        ));
        checks.push(same(
            "program headers (type -> flags)",
            &elf::segments(w)?,
            &elf::segments(&tw.exe_lld)?,
        ));
    }
    all(checks)
}

/// The cdylib built once per linker (shared by both cdylib trials).
struct Cdylibs {
    lld: PathBuf,
    /// Err: weld's cargo build failed.
    weld: Result<PathBuf, String>,
}

fn build_cdylibs() -> Result<Cdylibs, String> {
    let src = rust_dir().join("cdylib");
    let dir = paths::work_root().join(GROUP).join("cdylib-build");
    paths::fresh_dir(&dir)?;
    let crate_dir = dir.join("crate");
    dynlink::copy_tree(&src, &crate_dir)?;
    let [lld, weld] = linkers()?;
    let build = |l: &Linker| -> Result<PathBuf, String> {
        let target = dir.join(format!("target-{}", l.label));
        cargo_build(&crate_dir, &target, l)?;
        let so = target.join("release").join("libweldrs.so");
        dynlink::check_linked_by(l, &so)?;
        Ok(so)
    };
    let lld_so = weld_tests::ctx(build(&lld), || {
        "the reference cargo build with ld.lld-22 failed".to_string()
    })?;
    Ok(Cdylibs {
        lld: lld_so,
        weld: build(&weld),
    })
}

fn cdylib_from_c(dir: &Path, cdylibs: &OnceLock<Result<Cdylibs, String>>, dlopen: bool) -> Check {
    let built = cdylibs.get_or_init(build_cdylibs).as_ref()?;
    let src = rust_dir().join("cdylib").join("c");
    let c = Compiler::Clang;
    let main = if dlopen {
        "main_dlopen.c"
    } else {
        "main_direct.c"
    };
    let exe_o = objects(&src, &[main], c, &["-fPIE", "-pthread"])?;
    let mut expected = read_text(&rust_dir().join("cdylib"), "expected.txt")?;
    if dlopen {
        expected.push_str("internal Rust symbols hidden: yes\n");
    }
    let fw = four_way(
        dir,
        &|l, d| {
            let so = match l.label {
                "lld" => built.lld.clone(),
                _ => built.weld.clone()?,
            };
            let to = d.join("libweldrs.so");
            std::fs::copy(&so, &to)
                .map(|_| ())
                .map_err(|e| format!("cannot copy {} to {}: {e}", so.display(), to.display()))
        },
        &|l, d, out| {
            let mut a = vec!["-pie".to_string(), "-pthread".to_string()];
            a.extend(args_of(&exe_o));
            if !dlopen {
                a.extend(libs(d, &["weldrs"]));
            }
            link(c, false, l, &a, out)
        },
        &|d| {
            if dlopen {
                vec![arg(&d.join("libweldrs.so"))]
            } else {
                Vec::new()
            }
        },
        Some(&expected),
    )?;
    let mut checks = vec![fw.result()];
    let lld_so = fw.lib_lld.join("libweldrs.so");
    let want: std::collections::BTreeSet<String> = [
        "RS_VERSION",
        "rs_add",
        "rs_checked_div",
        "rs_describe",
        "rs_free",
        "rs_init",
        "rs_parallel_sum",
        "rs_register",
        "rs_sum",
        "rs_thread_calls",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let lld_exports = dynelf::exported(&lld_so)?;
    if lld_exports != want {
        return Err(format!(
            "the oracle changed: lld's cdylib exports {lld_exports:?}, expected {want:?}"
        ));
    }
    if let Some(w) = &fw.lib_weld {
        let w = w.join("libweldrs.so");
        checks.push(same_set(
            "the cdylib's exported symbols",
            &dynelf::exported(&w)?,
            &lld_exports,
        ));
        let tags = ["NEEDED", "SONAME", "FLAGS", "FLAGS_1"];
        checks.push(same(
            "the cdylib's DT_NEEDED, DT_SONAME, DT_FLAGS, DT_FLAGS_1",
            &dynelf::dynamic_summary(&w, &tags)?,
            &dynelf::dynamic_summary(&lld_so, &tags)?,
        ));
    }
    all(checks)
}
