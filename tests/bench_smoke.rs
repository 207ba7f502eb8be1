//! `scripts/bench --smoke`, the CI smoke run of the benchmark: it captures the tiny `smoke`
//! workload (testdata/corpus/hello_c, compiled on the fly and linked once with
//! `ld.lld-22 --reproduce`), links it once with weld, ld.lld-22 and mold (and ld.bfd), runs
//! every output, and prints the results table. This test only checks that the script keeps
//! working: exit 0, a table naming all three linkers, and the report files. It asserts nothing
//! about timings.

use libtest_mimic::Arguments;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use weld_tests::run;
use weld_tests::{paths, tools, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials("bench_smoke", &[("smoke_run", smoke_run)]);
    libtest_mimic::run(&args, trials).exit();
}

fn smoke_run(dir: &Path) -> Check {
    let weld = tools::weld()?;
    let script = paths::workspace_root().join("scripts").join("bench");
    let bench_dir = dir.join("bench");
    let mut cmd = Command::new(&script);
    cmd.arg("--smoke")
        .arg("--tmpdir")
        .arg(dir.join("out"))
        .env("WELD", &weld)
        .env("WELD_BENCH_DIR", &bench_dir);
    let out = run::run(&mut cmd, Duration::from_secs(300))?;
    if !out.success() {
        return Err(format!("scripts/bench --smoke failed\n{}", out.report()));
    }
    let stdout = out.stdout_str();
    let mut problems = Vec::new();
    if !stdout.contains("| workload | inputs | linker |") {
        problems.push("stdout has no results table".to_string());
    }
    for linker in ["weld", "ld.lld-22", "mold"] {
        let row = stdout
            .lines()
            .find(|l| l.starts_with('|') && l.split('|').nth(3).map(str::trim) == Some(linker));
        match row {
            None => problems.push(format!("the table has no row for {linker}")),
            Some(r) if r.contains("FAILED") || r.contains("n/a") => {
                problems.push(format!("the row for {linker} reports a failure: {r}"))
            }
            Some(_) => {}
        }
    }
    if !stdout.contains("wall weld/lld") {
        problems.push("stdout has no ratio table".to_string());
    }
    // The mark phase comparison: lld's `markLive` was found in its --time-trace (weld does not
    // walk here: the smoke link has no --gc-sections).
    let mark_row = stdout
        .lines()
        .find(|l| l.starts_with("| `smoke` | no walk |"));
    if !stdout.contains("| workload | weld | lld | weld/lld |") || mark_row.is_none() {
        problems.push("stdout has no mark phase table with a row for `smoke`".to_string());
    }
    for file in ["results.md", "results.json", "ratios.svg"] {
        let p = bench_dir.join("smoke").join(file);
        match std::fs::read_to_string(&p) {
            Ok(s) if file == "ratios.svg" && !s.starts_with("<svg") => {
                problems.push(format!("{} is not an SVG", p.display()))
            }
            Ok(_) => {}
            Err(e) => problems.push(format!("{}: {e}", p.display())),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{}", problems.join("\n"), out.report()))
    }
}
