//! Self-hosting: weld links weld.
//!
//! `cargo build --release -p weld` is run with rustc linking through clang-22 and the weld under
//! test ("stage 1", `tools::weld()`), into `target/weld-tests/.selfhost-target/`. Every build
//! script, proc-macro and the final binary of that build are linked by stage 1. The result
//! ("stage 2") must then:
//!
//! * say it was linked by weld, run, print the same `--version` as stage 1 and need the same
//!   shared libraries (rustc links with `--as-needed`);
//! * link a few corpus programs byte for byte like stage 1 (`same_output_as_stage1`);
//! * pass the whole test suite again as the linker under test: every other integration test
//!   binary built with this one (differential in all its modes, dynamic, versions, errors, GC,
//!   LTO, the graph, Rust, ...) is run as a child process with `WELD=<stage 2>` (and its own work
//!   directories under the self-host target directory, where compiled objects are cached across
//!   runs). The unit tests do not run a linker, and `bench_smoke` and this file are left out.
//!
//! The stage 2 build is cached: RUSTFLAGS carry a `--cfg` naming a hash of the stage 1 binary,
//! so cargo rebuilds (and relinks) everything exactly when stage 1 changed. A full rebuild takes
//! one to two minutes on two cores; an unchanged stage 1 costs a second.
//!
//! LLVM: stage 2 needs libLLVM-22 at run time exactly like stage 1 (LTO runs in process);
//! `needs_same_libraries` checks that its DT_NEEDED matches and running stage 2 checks that the
//! library is found.

use libtest_mimic::{Arguments, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use weld_tests::build::{self, COMPILERS};
use weld_tests::dynlink::{self, same, trial};
use weld_tests::tools::{self, Linker};
use weld_tests::{corpus, dynelf, paths, run, Check};

const GROUP: &str = "selfhost";
/// The mode the corpus runs in with stage 2.
/// The link mode of the byte-for-byte comparison of stage 1 and stage 2.
const CORPUS_MODE: &str = "dynamic-pie";
/// The integration test binaries run again with stage 2 as the linker under test.
const SUITES: &[&str] = &[
    "differential",
    "dynamic",
    "dynamic_errors",
    "versions",
    "errors",
    "cli",
    "determinism",
    "gc",
    "graph",
    "lto",
    "rust",
];
/// The corpus programs linked by stage 1 and stage 2 and compared byte for byte.
const SAME_OUTPUT_CASES: &[&str] = &["hello_cxx", "cxx_exceptions", "tls_models", "ifunc"];

fn main() {
    let args = Arguments::from_args();
    let trials: Vec<Trial> = vec![
        trial(GROUP, "stage2_runs_and_is_linked_by_weld".into(), |_| {
            stage2_runs()
        }),
        trial(GROUP, "needs_same_libraries".into(), |_| {
            needs_same_libraries()
        }),
        trial(GROUP, "same_output_as_stage1".into(), same_output_as_stage1),
    ]
    .into_iter()
    .chain(SUITES.iter().map(|&suite| {
        trial(GROUP, format!("suite_with_stage2::{suite}"), move |d| {
            suite_with_stage2(d, suite)
        })
    }))
    .collect();
    libtest_mimic::run(&args, trials).exit();
}

fn selfhost_target() -> PathBuf {
    paths::work_root().join(".selfhost-target")
}

/// Builds stage 2 once per process (the trials share it).
fn stage2() -> Result<PathBuf, String> {
    static STAGE2: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    STAGE2.get_or_init(build_stage2).clone()
}

fn build_stage2() -> Result<PathBuf, String> {
    let stage1 = Linker::weld()?;
    let hash = dynlink::file_hash(&stage1.path)?;
    let cfg = format!("weld_selfhost_linker_{hash}");
    let rustflags = format!(
        "{} --cfg {cfg} --check-cfg=cfg({cfg})",
        dynlink::rustflags(&stage1)?
    );
    let target = selfhost_target();
    // A new stage 1 rebuilds everything (the --cfg changes every fingerprint): drop the old
    // build first so that the directory does not grow with every version of weld. The object
    // cache of the differential run (`weld-tests/`) stays.
    let stamp = target.join("stage1.hash");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(hash.as_str()) {
        let release = target.join("release");
        if release.exists() {
            std::fs::remove_dir_all(&release)
                .map_err(|e| format!("cannot remove {}: {e}", release.display()))?;
        }
    }
    let mut cmd = Command::new(dynlink::cargo()?);
    cmd.current_dir(paths::workspace_root())
        .args(["build", "--release", "-p", "weld", "--offline", "--locked"])
        .env("CARGO_TARGET_DIR", &target)
        .env("RUSTFLAGS", rustflags);
    dynlink::clean_cargo_env(&mut cmd);
    let o = run::run(&mut cmd, std::time::Duration::from_secs(900))?;
    if !o.success() {
        return Err(format!(
            "building weld with weld (stage 1: {}) failed\n{}",
            stage1.path.display(),
            o.report()
        ));
    }
    let exe = target.join("release").join("weld");
    if !exe.is_file() {
        return Err(format!("cargo succeeded but {} is missing", exe.display()));
    }
    paths::write(&stamp, &hash)?;
    Ok(exe)
}

fn stage2_runs() -> Check {
    let stage2 = stage2()?;
    let stage1 = tools::weld()?;
    dynlink::check_linked_by(
        &Linker {
            label: "weld",
            path: stage1.clone(),
        },
        &stage2,
    )?;
    let version = |p: &Path| -> Result<String, String> {
        let mut cmd = Command::new(p);
        cmd.arg("--version");
        Ok(run::run(&mut cmd, run::TOOL_TIMEOUT)?
            .ok(&format!("{} --version", p.display()))?
            .stdout_str())
    };
    same(
        "`--version` of stage 2 (weld built by weld) and stage 1",
        &version(&stage2)?,
        &version(&stage1)?,
    )
}

fn needs_same_libraries() -> Check {
    let stage2 = stage2()?;
    let stage1 = tools::weld()?;
    same(
        "DT_NEEDED of stage 2 and of stage 1",
        &dynelf::needed(&stage2)?,
        &dynelf::needed(&stage1)?,
    )
}

/// Stage 1 and stage 2 are the same program, so they must write the same bytes.
fn same_output_as_stage1(dir: &Path) -> Check {
    let stage2 = Linker {
        label: "weld",
        path: stage2()?,
    };
    let stage1 = Linker::weld()?;
    let mode = build::mode(CORPUS_MODE)?;
    let mut problems = Vec::new();
    for name in SAME_OUTPUT_CASES {
        let case = corpus::load(name)?;
        for &c in COMPILERS {
            let objs = build::objects(&case, c, &mode)?;
            let mut outs = Vec::new();
            for (stage, l) in [("stage1", &stage1), ("stage2", &stage2)] {
                let out = dir.join(format!("{name}-{}.{stage}", c.name()));
                let o = build::link(&case, &objs, c, &mode, l, &out)?;
                if !o.success() || !out.is_file() {
                    return Err(format!("{stage} failed to link {name}\n{}", o.report()));
                }
                outs.push(out);
            }
            let (a, b) = (read(&outs[0])?, read(&outs[1])?);
            if a != b {
                problems.push(format!(
                    "{name} ({}): stage 1 and stage 2 outputs differ ({} vs {} bytes): {} {}",
                    c.name(),
                    a.len(),
                    b.len(),
                    outs[0].display(),
                    outs[1].display()
                ));
            }
            let ran = build::run_program(&outs[1])?;
            if ran.code != Some(case.config.exit) {
                problems.push(format!(
                    "{name} ({}) linked by stage 2 should exit with {}\n{}",
                    c.name(),
                    case.config.exit,
                    ran.report()
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

fn read(p: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
}

/// The test binary of integration test `suite` built alongside this one (cargo builds every
/// test target before running any). The newest if there are several.
fn test_binary(suite: &str) -> Result<PathBuf, String> {
    let prefix = format!("{suite}-");
    let me = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let dir = me
        .parent()
        .ok_or_else(|| format!("{} has no directory", me.display()))?;
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix(prefix.as_str()))
                .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
        })
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    // A workspace crate may share the name (the `lto` crate's unit tests are `lto-<hash>` too).
    found.retain(|(_, p)| is_integration_binary(p));
    found.sort();
    found.pop().map(|(_, p)| p).ok_or_else(|| {
        format!(
            "no `{suite}` test binary next to {}: build the test binaries first \
             (`cargo test --release -p weld-tests --no-run`)",
            me.display()
        )
    })
}

/// Whether `p` is one of this package's integration test binaries: those are built from
/// `tests/` and link the `weld_tests` support library, whose symbol names they carry; a
/// workspace crate's unit test binary of the same name does not.
fn is_integration_binary(p: &Path) -> bool {
    std::fs::read(p)
        .map(|bytes| {
            bytes
                .windows(b"weld_tests".len())
                .any(|w| w == b"weld_tests")
        })
        .unwrap_or(false)
}

/// Runs integration test binary `suite` with stage 2 as the linker under test; it must pass
/// and run at least one trial.
fn suite_with_stage2(dir: &Path, suite: &str) -> Check {
    let stage2 = stage2()?;
    let harness = test_binary(suite)?;
    let mut cmd = Command::new(&harness);
    cmd.current_dir(dir)
        .env("WELD", &stage2)
        // Its own work directories (and object cache), not the main suite's.
        .env("CARGO_TARGET_DIR", selfhost_target());
    let o = run::run(&mut cmd, std::time::Duration::from_secs(1200))?;
    let report = dir.join(format!("{suite}.txt"));
    paths::write(&report, o.report())?;
    let out = o.stdout_str();
    let passed = out
        .lines()
        .find_map(|l| l.strip_prefix("test result: ok. "))
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok());
    match passed {
        Some(n) if o.success() && n > 0 => Ok(()),
        _ => {
            let failures: Vec<&str> = out
                .lines()
                .filter(|l| l.starts_with("test ") && l.ends_with("FAILED"))
                .collect();
            Err(format!(
                "the `{suite}` tests with stage 2 as the linker under test did not pass: {}\n\
                 failed trials:\n  {}\nfull output: {}",
                o.status_text(),
                failures.join("\n  "),
                report.display()
            ))
        }
    }
}
