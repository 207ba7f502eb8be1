//! Distributed ThinLTO on a real Dask cluster: `weld-dtlto` (dtlto/, installed into `.venv/` by
//! scripts/setup) as the linker's `--thinlto-distributor`, with a `dask scheduler` and two
//! `dask worker` processes on 127.0.0.1 that this test starts, bounds in time and kills (process
//! group, in `Drop`, also when a trial fails).
//!
//! Every case runs once per linker in `linkers()`: ld.lld-22 always, and weld as soon as
//! `weld --help` lists `--thinlto-distributor` without marking it "not implemented yet"
//! (adding a linker is one line there). The linkers
//! that ran are printed; lld must be among them.
//!
//! * `cxx_shared_fs`: a multi-module C++ program (clang++-22 -flto=thin, one module in an
//!   archive) linked through the cluster; it must print what the in-process ThinLTO build prints.
//!   With weld, also (`same_code`): weld through the cluster made its in-process link's code
//!   (the same `--stats` "LTO functions", not 0; the same defined functions, T/t/W; the same
//!   `.text` size, both printed), and (`fewer_functions`) with `dead.o` (a native `dead_fn`
//!   calling the bitcode `dead_only`) and `--gc-sections`, linked by lld and by weld through
//!   the cluster and a recording distributor (`record-dtlto`, keeping the job file and the jobs'
//!   native objects in `kept_<linker>/`), weld's jobs define fewer functions (T/t) than lld's:
//!   `dead_only` is among lld's only. Both counts are printed.
//! * `cxx_no_shared_fs`: the same with `--no-shared-fs`, linked from a directory that names the
//!   objects as `../obj/...`; the compiler (a wrapper) refuses to run in the link's directory
//!   tree, so the jobs really ran in scratch folders.
//! * `rust`: a Rust program built by rustc with `-C linker-plugin-lto`, rustc linking through
//!   clang-22 and the linker, through the cluster; same output as the in-process build. With
//!   weld, the same checks as `cxx_shared_fs`'s (`dead.o`'s dead function calls the
//!   `#[no_mangle]` `rust_dead_only`; rustc links with `--gc-sections`).
//! * `worker_killed`: on a cluster of its own, one job is slow (a wrapper compiler sleeps); the
//!   worker running it is SIGKILLed mid-job; the job reruns on the other worker and the link
//!   succeeds.
//! * `all_workers_gone`: the only worker of a cluster of its own dies mid-job: the link fails
//!   with a clear message within a bound instead of waiting for workers forever.
//! * `scheduler_down`: an unreachable address and a stale scheduler file: a clear message within
//!   the connect timeout's bound, the link fails, no output file.
//! * `compiler_fails`: the compiler fails on one module: the error shows that job's command line
//!   and the compiler's stderr, the link fails, no output file.
//! * `version_mismatch`: the workers' compiler reports another version than the link's: a clear
//!   error, the link fails.
//!
//! A missing `.venv/bin/dask` is a setup bug: every trial fails saying "run scripts/setup".
//! Work directories stay under `target/weld-tests/dask_dtlto/` (cluster logs in `_cluster/`).

use libtest_mimic::{Arguments, Trial};
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use weld_tests::run::{self, Output};
use weld_tests::tools::{self, Linker};
use weld_tests::{paths, text_diff, Check};

const GROUP: &str = "dask_dtlto";
/// Bound for a scheduler to write its file and for workers to register.
const CLUSTER_START: Duration = Duration::from_secs(60);
/// Bound for one link through the cluster (the slow job in `worker_killed` sleeps 5 s).
const DTLTO_LINK: Duration = Duration::from_secs(120);
/// The distributor's connect timeout in `scheduler_down`, and how long the failing link may take.
const CONNECT_TIMEOUT_S: u64 = 3;
const SCHEDULER_DOWN_BOUND: Duration = Duration::from_secs(25);

/// The linkers every case runs with. ld.lld-22 implements DTLTO; weld joins once its `--help`
/// lists `--thinlto-distributor`. Returns the linkers and a note on the ones left out.
fn linkers() -> Result<(Vec<Linker>, Vec<String>), String> {
    let mut out = vec![Linker::lld()?];
    let mut notes = Vec::new();
    match Linker::weld() {
        Ok(weld) => {
            let help = run::run_in(
                Path::new("."),
                &weld.path,
                ["--help"],
                Duration::from_secs(20),
            )?;
            let text = format!("{}{}", help.stdout_str(), help.stderr_str());
            // weld's --help lists every lld option, marking the ones it lacks.
            match text.lines().find(|l| l.contains("--thinlto-distributor=")) {
                Some(line) if !line.contains("not implemented") => out.push(weld),
                Some(_) => notes.push(format!(
                    "weld ({}) left out: its --help marks --thinlto-distributor \
                     \"not implemented yet\"",
                    weld.path.display()
                )),
                None => notes.push(format!(
                    "weld ({}) left out: its --help does not list --thinlto-distributor",
                    weld.path.display()
                )),
            }
        }
        Err(e) => notes.push(format!("weld left out: {e}")),
    }
    Ok((out, notes))
}

type Case = fn(&Path, &Linker, &Shared) -> Check;

fn main() {
    let args = Arguments::from_args();
    let (linkers, notes) = match linkers() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("dask_dtlto: {e}");
            std::process::exit(1);
        }
    };
    assert_eq!(
        linkers[0].label, "lld",
        "ld.lld-22 must always run the DTLTO cases"
    );
    if !args.list {
        let names: Vec<String> = linkers
            .iter()
            .map(|l| format!("{} ({})", l.label, l.path.display()))
            .collect();
        eprintln!(
            "dask_dtlto: linking through Dask with: {}",
            names.join(", ")
        );
        for n in &notes {
            eprintln!("dask_dtlto: {n}");
        }
    }
    let shared = Arc::new(Shared::default());
    let cases: &[(&str, Case)] = &[
        ("cxx_shared_fs", cxx_shared_fs),
        ("cxx_no_shared_fs", cxx_no_shared_fs),
        ("rust", rust),
        ("worker_killed", worker_killed),
        ("all_workers_gone", all_workers_gone),
        ("scheduler_down", scheduler_down),
        ("compiler_fails", compiler_fails),
        ("version_mismatch", version_mismatch),
    ];
    let mut trials = Vec::new();
    for &(name, case) in cases {
        for linker in &linkers {
            let (linker, shared) = (linker.clone(), shared.clone());
            trials.push(Trial::test(
                format!("{name}::{}", linker.label),
                move || {
                    let dir = paths::work_root().join(GROUP).join(name).join(linker.label);
                    paths::fresh_dir(&dir)?;
                    case(&dir, &linker, &shared)
                        .map_err(|e| format!("{e}\nwork directory: {}", dir.display()).into())
                },
            ));
        }
    }
    let conclusion = libtest_mimic::run(&args, trials);
    // The shared cluster goes before the process exits (exit() skips destructors).
    drop(shared);
    conclusion.exit();
}

/// What the trials share: the cluster most of them use and the C++ objects, each made once.
#[derive(Default)]
struct Shared {
    cluster: OnceLock<Result<Cluster, String>>,
    cxx_objects: OnceLock<Result<PathBuf, String>>,
}

impl Shared {
    fn cluster(&self) -> Result<&Cluster, String> {
        self.cluster
            .get_or_init(|| Cluster::start(&paths::work_root().join(GROUP).join("_cluster"), 2))
            .as_ref()
            .map_err(|e| e.clone())
    }
}

// ---------------------------------------------------------------------------------------------
// The venv and the cluster

fn venv_tool(name: &str) -> Result<PathBuf, String> {
    let p = paths::workspace_root().join(".venv").join("bin").join(name);
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!(
            "{} is missing: run scripts/setup (it makes the .venv with weld-dtlto and dask)",
            p.display()
        ))
    }
}

/// A process started in a process group of its own, killed with its whole group on drop.
struct Proc {
    what: String,
    pgid: u32,
    child: Mutex<Child>,
}

impl Proc {
    fn spawn(what: &str, cmd: &mut Command, log: &Path) -> Result<Proc, String> {
        let f = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let f2 = f.try_clone().map_err(|e| e.to_string())?;
        cmd.stdin(Stdio::null())
            .stdout(f)
            .stderr(f2)
            .process_group(0);
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {what} ({}): {e}", run::cmdline(cmd)))?;
        Ok(Proc {
            what: what.to_string(),
            pgid: child.id(),
            child: Mutex::new(child),
        })
    }

    fn kill(&self) {
        run::kill_group(self.pgid);
        if let Ok(mut c) = self.child.lock() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    fn exited(&self) -> Option<String> {
        let mut c = self.child.lock().ok()?;
        match c.try_wait() {
            Ok(Some(st)) => Some(format!("{} exited early ({st})", self.what)),
            _ => None,
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A `dask scheduler` and `n` `dask worker`s (one process, one thread each) on 127.0.0.1.
struct Cluster {
    dir: PathBuf,
    scheduler_file: PathBuf,
    // Workers first: they go before the scheduler when the cluster is dropped.
    workers: Vec<Proc>,
    scheduler: Proc,
}

impl Cluster {
    fn start(dir: &Path, n: usize) -> Result<Cluster, String> {
        let dask = venv_tool("dask")?;
        paths::fresh_dir(dir)?;
        let scheduler_file = dir.join("scheduler.json");
        let scheduler = Proc::spawn(
            "dask scheduler",
            Command::new(&dask).current_dir(dir).args([
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                &scheduler_file.to_string_lossy(),
            ]),
            &dir.join("scheduler.log"),
        )?;
        let start = Instant::now();
        while !std::fs::read_to_string(&scheduler_file)
            .map(|s| s.contains("\"address\"") && s.trim_end().ends_with('}'))
            .unwrap_or(false)
        {
            if let Some(e) = scheduler.exited() {
                return Err(format!("{e}; see {}", dir.join("scheduler.log").display()));
            }
            if start.elapsed() > CLUSTER_START {
                return Err(format!(
                    "dask scheduler wrote no {} within {CLUSTER_START:?}; see {}",
                    scheduler_file.display(),
                    dir.join("scheduler.log").display()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut workers = Vec::new();
        for i in 0..n {
            workers.push(Proc::spawn(
                &format!("dask worker {i}"),
                Command::new(&dask).current_dir(dir).args([
                    "worker",
                    "--scheduler-file",
                    &scheduler_file.to_string_lossy(),
                    "--host",
                    "127.0.0.1",
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    // A worker whose scheduler is gone for this long exits by itself.
                    "--death-timeout",
                    "120",
                ]),
                &dir.join(format!("worker{i}.log")),
            )?);
        }
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            scheduler_file,
            workers,
            scheduler,
        };
        if n > 0 {
            cluster.wait_for_workers(n)?;
        }
        Ok(cluster)
    }

    fn wait_for_workers(&self, n: usize) -> Check {
        let script = format!(
            "from distributed import Client\n\
             c = Client(scheduler_file={:?}, timeout='{}s')\n\
             c.wait_for_workers({n}, timeout={})\n\
             print(len(c.scheduler_info()['workers']))\n\
             c.close()\n",
            self.scheduler_file.to_string_lossy(),
            CLUSTER_START.as_secs(),
            CLUSTER_START.as_secs()
        );
        let o = run::run_in(
            &self.dir,
            venv_tool("python")?,
            ["-c", &script],
            CLUSTER_START + Duration::from_secs(30),
        )?;
        if o.success() {
            Ok(())
        } else {
            let early: Vec<String> = std::iter::once(&self.scheduler)
                .chain(&self.workers)
                .filter_map(|p| p.exited())
                .collect();
            Err(format!(
                "{n} dask workers did not register with the scheduler ({}); logs in {}\n{}",
                early.join("; "),
                self.dir.display(),
                o.report()
            ))
        }
    }

    fn scheduler_arg(&self) -> String {
        format!("--scheduler-file={}", self.scheduler_file.display())
    }
}

// ---------------------------------------------------------------------------------------------
// Linking through the distributor

/// The driver arguments that make `linker` send its ThinLTO backends to weld-dtlto, which gets
/// `dist_args`, with `compiler` as the remote compiler.
fn dtlto_args(
    linker: &Linker,
    compiler: &Path,
    dist_args: &[String],
) -> Result<Vec<String>, String> {
    dtlto_args_via(linker, &venv_tool("weld-dtlto")?, compiler, dist_args)
}

/// `dtlto_args` with `distributor` in place of weld-dtlto.
fn dtlto_args_via(
    linker: &Linker,
    distributor: &Path,
    compiler: &Path,
    dist_args: &[String],
) -> Result<Vec<String>, String> {
    let mut v = vec![
        "-fuse-ld=lld".to_string(),
        format!("--ld-path={}", linker.path.display()),
        format!("-Wl,--thinlto-distributor={}", distributor.display()),
        format!("-Wl,--thinlto-remote-compiler={}", compiler.display()),
    ];
    for a in dist_args {
        v.push(format!("-Wl,--thinlto-distributor-arg={a}"));
    }
    Ok(v)
}

fn clang22() -> Result<PathBuf, String> {
    tools::find(tools::CLANG)
}

/// A shell script `dir/name` (executable) standing in for the remote compiler.
fn wrapper(dir: &Path, name: &str, body: &str) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    paths::write(&p, format!("#!/bin/sh\n{body}"))?;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("chmod {}: {e}", p.display()))?;
    Ok(p)
}

fn run_program(dir: &Path, exe: &Path) -> Result<Output, String> {
    let mut cmd = Command::new(exe);
    cmd.current_dir(dir);
    run::run(&mut cmd, run::RUN_TIMEOUT)
}

/// Runs both programs; they must exit 0 and print the same (and `expected`).
fn same_run(dir: &Path, reference: &Path, dtlto: &Path, expected: &str) -> Check {
    let r = run_program(dir, reference)?.ok("the in-process ThinLTO program")?;
    let d = run_program(dir, dtlto)?.ok("the DTLTO program")?;
    let problems = run::run_differences("in-process", &r, "dtlto", &d);
    if !problems.is_empty() {
        return Err(format!("the programs differ:\n{}", problems.join("\n")));
    }
    if d.stdout_str() != expected {
        return Err(format!(
            "unexpected output: {}",
            text_diff("expected", expected, "dtlto", &d.stdout_str())
        ));
    }
    Ok(())
}

fn link_ok(o: Output, what: &str) -> Result<Output, String> {
    o.ok(what)
}

/// A link that must fail cleanly: non-zero exit (not a crash or timeout), no output file, and
/// each of `needles` in its stderr.
fn failed_cleanly(o: &Output, out: &Path, needles: &[&str]) -> Check {
    if o.success() || o.code.is_none() {
        return Err(format!(
            "the link should fail with an exit status\n{}",
            o.report()
        ));
    }
    if out.exists() {
        return Err(format!(
            "the failed link left {} behind\n{}",
            out.display(),
            o.report()
        ));
    }
    let err = o.stderr_str();
    for n in needles {
        if !err.contains(n) {
            return Err(format!("stderr lacks {n:?}\n{}", o.report()));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The C++ program

const CXX_SOURCES: &[(&str, &str)] = &[
    (
        "main.cpp",
        r#"#include <cstdio>
#include <memory>
#include <string>
#include <vector>
#include "shapes.h"
std::string describe(const Shape &s);
int checksum(const std::vector<int> &v);
int main() {
  std::vector<std::unique_ptr<Shape>> shapes;
  for (int i = 1; i <= 4; i++) {
    shapes.push_back(make_square(i));
    shapes.push_back(make_circle(i));
  }
  std::vector<int> areas;
  for (auto &s : shapes) {
    std::printf("%s\n", describe(*s).c_str());
    areas.push_back(s->area());
  }
  std::printf("checksum=%d\n", checksum(areas));
  return 0;
}
"#,
    ),
    (
        "shapes.h",
        r#"#pragma once
#include <memory>
struct Shape {
  virtual ~Shape() = default;
  virtual int area() const = 0;
  virtual const char *name() const = 0;
};
std::unique_ptr<Shape> make_square(int side);
std::unique_ptr<Shape> make_circle(int radius);
"#,
    ),
    (
        "square.cpp",
        r#"#include "shapes.h"
namespace {
struct Square : Shape {
  int side;
  explicit Square(int s) : side(s) {}
  int area() const override { return side * side; }
  const char *name() const override { return "square"; }
};
}
std::unique_ptr<Shape> make_square(int side) { return std::make_unique<Square>(side); }
"#,
    ),
    (
        "circle.cpp",
        r#"#include "shapes.h"
namespace {
struct Circle : Shape {
  int r;
  explicit Circle(int r) : r(r) {}
  int area() const override { return 314 * r * r / 100; }
  const char *name() const override { return "circle"; }
};
}
std::unique_ptr<Shape> make_circle(int radius) { return std::make_unique<Circle>(radius); }
"#,
    ),
    (
        "describe.cpp",
        r#"#include <string>
#include "shapes.h"
std::string describe(const Shape &s) {
  return std::string(s.name()) + " area " + std::to_string(s.area());
}
// Only dead native code (dead.o in `cxx_shared_fs`) calls it.
extern "C" int dead_only(int x) { return x * 7 + 1; }
"#,
    ),
    // The archive member.
    (
        "checksum.cpp",
        r#"#include <numeric>
#include <vector>
template <typename T> static T mix(T a, T b) { return a * 31 + b; }
int checksum(const std::vector<int> &v) {
  return std::accumulate(v.begin(), v.end(), 7, mix<int>);
}
"#,
    ),
];
const CXX_OBJECTS: &[&str] = &["main.o", "square.o", "circle.o", "describe.o"];
const CXX_ARCHIVE: &str = "libchecksum.a";

fn cxx_expected() -> String {
    let mut s = String::new();
    let mut areas = Vec::new();
    for i in 1..=4i32 {
        for (name, area) in [("square", i * i), ("circle", 314 * i * i / 100)] {
            s.push_str(&format!("{name} area {area}\n"));
            areas.push(area);
        }
    }
    let sum = areas
        .iter()
        .fold(7i32, |a, &b| a.wrapping_mul(31).wrapping_add(b));
    s.push_str(&format!("checksum={sum}\n"));
    s
}

/// The C++ program's ThinLTO objects and archive, compiled once into `dask_dtlto/_cxx`.
fn cxx_objects(shared: &Shared) -> Result<PathBuf, String> {
    shared
        .cxx_objects
        .get_or_init(|| {
            let dir = paths::work_root().join(GROUP).join("_cxx");
            paths::fresh_dir(&dir)?;
            for (name, text) in CXX_SOURCES {
                paths::write(&dir.join(name), text)?;
            }
            for (name, _) in CXX_SOURCES.iter().filter(|(n, _)| n.ends_with(".cpp")) {
                let obj = name.replace(".cpp", ".o");
                run::run_in(
                    &dir,
                    tools::find(tools::CLANGXX)?,
                    ["-c", "-O2", "-flto=thin", name, "-o", &obj],
                    run::TOOL_TIMEOUT,
                )?
                .ok(&format!("compiling {name}"))?;
            }
            run::run_in(
                &dir,
                tools::find("llvm-ar-22")?,
                ["rcs", CXX_ARCHIVE, "checksum.o"],
                run::TOOL_TIMEOUT,
            )?
            .ok("llvm-ar-22")?;
            Ok(dir)
        })
        .clone()
}

/// Copies the C++ objects and archive into `to`.
fn copy_cxx(shared: &Shared, to: &Path) -> Check {
    let from = cxx_objects(shared)?;
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for f in CXX_OBJECTS.iter().chain([&CXX_ARCHIVE]) {
        std::fs::copy(from.join(f), to.join(f))
            .map_err(|e| format!("copy {f} to {}: {e}", to.display()))?;
    }
    Ok(())
}

/// clang++-22 linking the C++ objects in `dir` (named with `prefix`) into `out`, plus `extra`.
fn cxx_link(
    dir: &Path,
    prefix: &str,
    out: &str,
    extra: &[String],
    limit: Duration,
) -> Result<Output, String> {
    let mut cmd = Command::new(tools::find(tools::CLANGXX)?);
    cmd.current_dir(dir).args(["-flto=thin", "-O2"]);
    for o in CXX_OBJECTS.iter().chain([&CXX_ARCHIVE]) {
        cmd.arg(format!("{prefix}{o}"));
    }
    cmd.args(extra).arg("-o").arg(out);
    run::run(&mut cmd, limit)
}

/// The in-process ThinLTO reference, linked by lld.
fn cxx_reference(dir: &Path, prefix: &str) -> Result<PathBuf, String> {
    let lld = Linker::lld()?;
    let extra = vec![
        "-fuse-ld=lld".to_string(),
        format!("--ld-path={}", lld.path.display()),
    ];
    link_ok(
        cxx_link(dir, prefix, "reference", &extra, run::LINK_TIMEOUT)?,
        "the in-process ThinLTO link",
    )?;
    Ok(dir.join("reference"))
}

fn cxx_shared_fs(dir: &Path, linker: &Linker, shared: &Shared) -> Check {
    copy_cxx(shared, dir)?;
    let reference = cxx_reference(dir, "")?;
    let cluster = shared.cluster()?;
    let mut args = dtlto_args(linker, &clang22()?, &[cluster.scheduler_arg()])?;
    let weld = linker.label == "weld";
    if weld {
        args.push("-Wl,--stats".to_string());
    }
    let o = link_ok(
        cxx_link(dir, "", "prog", &args, DTLTO_LINK)?,
        "the link through the Dask cluster",
    )?;
    same_run(dir, &reference, &dir.join("prog"), &cxx_expected())?;
    if !weld {
        return Ok(());
    }
    // weld's in-process ThinLTO link of the same inputs.
    let in_process = link_ok(
        cxx_link(
            dir,
            "",
            "in_process",
            &in_process_args(linker),
            run::LINK_TIMEOUT,
        )?,
        "weld's in-process ThinLTO link",
    )?;
    same_run(dir, &reference, &dir.join("in_process"), &cxx_expected())?;
    same_code(
        "C++",
        (&dir.join("in_process"), &in_process),
        (&dir.join("prog"), &o),
    )?;
    // The precise graph: `dead.o`'s `dead_fn` (dead under --gc-sections) is all that calls
    // `dead_only` (describe.cpp).
    compile_dead_c(dir, CXX_DEAD_C)?;
    let extra = ["dead.o".to_string(), "-Wl,--gc-sections".to_string()];
    let mut counts = Vec::new();
    for l in [Linker::lld()?, linker.clone()] {
        let keep = dir.join(format!("kept_{}", l.label));
        let out = format!("gc_{}", l.label);
        let mut args = recorded_args(dir, &l, &keep, cluster)?;
        args.extend(extra.iter().cloned());
        link_ok(
            cxx_link(dir, "", &out, &args, DTLTO_LINK)?,
            &format!("{}'s --gc-sections link through the cluster", l.label),
        )?;
        same_run(dir, &reference, &dir.join(&out), &cxx_expected())?;
        counts.push(kept_functions(&keep)?);
    }
    fewer_functions(
        "C++ with dead.o, --gc-sections",
        "dead_only",
        &counts[0],
        &counts[1],
    )
}

/// A native object whose only function is dead under --gc-sections and calls the bitcode
/// function `dead_only` (describe.cpp), which nothing else calls.
const CXX_DEAD_C: &str = "int dead_only(int);\nint dead_fn(int x) { return dead_only(x); }\n";

fn cxx_no_shared_fs(dir: &Path, linker: &Linker, shared: &Shared) -> Check {
    let obj = dir.join("obj");
    let link_dir = dir.join("link");
    copy_cxx(shared, &obj)?;
    std::fs::create_dir_all(&link_dir).map_err(|e| e.to_string())?;
    let reference = cxx_reference(&link_dir, "../obj/")?;
    // The compiler refuses to run anywhere in this test's directory: with --no-shared-fs the
    // jobs run in scratch folders holding copies of their inputs.
    let cc = wrapper(
        dir,
        "scratch-only-cc",
        &format!(
            "case \"$(pwd)/\" in {}/*) [ \"$1\" = --version ] || {{ echo \"scratch-only-cc: ran in $(pwd)\" >&2; exit 1; }};; esac\nexec {} \"$@\"\n",
            dir.display(),
            clang22()?.display()
        ),
    )?;
    let cluster = shared.cluster()?;
    let args = dtlto_args(
        linker,
        &cc,
        &[cluster.scheduler_arg(), "--no-shared-fs".to_string()],
    )?;
    link_ok(
        cxx_link(&link_dir, "../obj/", "prog", &args, DTLTO_LINK)?,
        "the --no-shared-fs link through the Dask cluster",
    )?;
    same_run(
        &link_dir,
        &reference,
        &link_dir.join("prog"),
        &cxx_expected(),
    )
}

// ---------------------------------------------------------------------------------------------
// Rust

const RUST_MAIN: &str = r#"mod shapes {
    pub trait Area { fn area(&self) -> u64; }
    pub struct Rect(pub u64, pub u64);
    impl Area for Rect { fn area(&self) -> u64 { self.0 * self.1 } }
    #[inline(never)]
    pub fn total(v: &[Box<dyn Area>]) -> u64 { v.iter().map(|s| s.area()).sum() }
}
mod words {
    use std::collections::BTreeMap;
    #[inline(never)]
    pub fn counts(text: &str) -> BTreeMap<&str, usize> {
        let mut m = BTreeMap::new();
        for w in text.split_whitespace() { *m.entry(w).or_insert(0) += 1; }
        m
    }
}
/// Only dead native code (dead.o in `rust`) calls it.
#[no_mangle]
pub extern "C" fn rust_dead_only(x: u64) -> u64 { x * 7 + 1 }
fn main() {
    let v: Vec<Box<dyn shapes::Area>> = (1..5).map(|i| Box::new(shapes::Rect(i, i + 1)) as Box<dyn shapes::Area>).collect();
    println!("total area {}", shapes::total(&v));
    for (w, n) in words::counts("to be or not to be") { println!("{w} {n}"); }
}
"#;
const RUST_EXPECTED: &str = "total area 40\nbe 2\nnot 1\nor 1\nto 2\n";

/// rustc with `-C linker-plugin-lto`, linking through clang-22 with `link_args`.
fn rustc(dir: &Path, out: &str, link_args: &[String], limit: Duration) -> Result<Output, String> {
    let mut cmd = Command::new(tools::find("rustc")?);
    cmd.current_dir(dir).args([
        "-C",
        "linker-plugin-lto",
        "-C",
        "opt-level=2",
        "-C",
        "codegen-units=4",
        // The linker's stderr (weld's --stats) as a warning.
        "-W",
        "linker-messages",
        "-C",
        &format!("linker={}", clang22()?.display()),
    ]);
    for a in link_args {
        cmd.arg("-C").arg(format!("link-arg={a}"));
    }
    cmd.args(["main.rs", "-o", out]);
    run::run(&mut cmd, limit)
}

fn rust(dir: &Path, linker: &Linker, shared: &Shared) -> Check {
    paths::write(&dir.join("main.rs"), RUST_MAIN)?;
    let lld = Linker::lld()?;
    let reference = vec![
        "-fuse-ld=lld".to_string(),
        format!("--ld-path={}", lld.path.display()),
    ];
    link_ok(
        rustc(dir, "reference", &reference, run::TOOL_TIMEOUT)?,
        "rustc with in-process ThinLTO",
    )?;
    let cluster = shared.cluster()?;
    let mut args = dtlto_args(linker, &clang22()?, &[cluster.scheduler_arg()])?;
    let weld = linker.label == "weld";
    if weld {
        args.push("-Wl,--stats".to_string());
    }
    let o = link_ok(
        rustc(dir, "prog", &args, DTLTO_LINK)?,
        "rustc linking through the Dask cluster",
    )?;
    same_run(
        dir,
        &dir.join("reference"),
        &dir.join("prog"),
        RUST_EXPECTED,
    )?;
    if !weld {
        return Ok(());
    }
    let in_process = link_ok(
        rustc(
            dir,
            "in_process",
            &in_process_args(linker),
            run::TOOL_TIMEOUT,
        )?,
        "rustc with weld's in-process ThinLTO",
    )?;
    same_run(
        dir,
        &dir.join("reference"),
        &dir.join("in_process"),
        RUST_EXPECTED,
    )?;
    same_code(
        "Rust",
        (&dir.join("in_process"), &in_process),
        (&dir.join("prog"), &o),
    )?;
    // The precise graph: rustc links with --gc-sections; `dead.o`'s `dead_fn` is dead and is
    // all that calls `rust_dead_only`.
    compile_dead_c(dir, RUST_DEAD_C)?;
    let mut counts = Vec::new();
    for l in [lld, linker.clone()] {
        let keep = dir.join(format!("kept_{}", l.label));
        let out = format!("gc_{}", l.label);
        let mut args = recorded_args(dir, &l, &keep, cluster)?;
        args.push("dead.o".to_string());
        link_ok(
            rustc(dir, &out, &args, DTLTO_LINK)?,
            &format!("rustc linking through {} and the cluster", l.label),
        )?;
        same_run(dir, &dir.join("reference"), &dir.join(&out), RUST_EXPECTED)?;
        counts.push(kept_functions(&keep)?);
    }
    fewer_functions("Rust with dead.o", "rust_dead_only", &counts[0], &counts[1])
}

/// A native object whose only function is dead (rustc links with --gc-sections) and calls
/// `rust_dead_only` (main.rs), which nothing else calls.
const RUST_DEAD_C: &str =
    "unsigned long rust_dead_only(unsigned long);\nunsigned long dead_fn(unsigned long x) { return rust_dead_only(x); }\n";

// ---------------------------------------------------------------------------------------------
// weld's code through the cluster, against its in-process link and against lld's

/// The driver arguments of weld's in-process ThinLTO link, with `--stats`.
fn in_process_args(weld: &Linker) -> Vec<String> {
    vec![
        "-fuse-ld=lld".to_string(),
        format!("--ld-path={}", weld.path.display()),
        "-Wl,--stats".to_string(),
    ]
}

/// The distributor `dir/record-dtlto`: runs weld-dtlto with its arguments but the first (a
/// directory), then keeps the job file (`job.json`) and every job's native objects
/// (`<job>-<name>`) in that directory.
const RECORDER: &str = r#"import json, os, shutil, subprocess, sys
keep = sys.argv[1]
job_file = sys.argv[-1]
os.makedirs(keep, exist_ok=True)
shutil.copyfile(job_file, os.path.join(keep, "job.json"))
status = subprocess.run([DTLTO] + sys.argv[2:]).returncode
if status == 0:
    with open(job_file) as f:
        jobs = json.load(f)["jobs"]
    for i, job in enumerate(jobs):
        for out in job["outputs"]:
            shutil.copyfile(out, os.path.join(keep, "%d-%s" % (i, os.path.basename(out))))
sys.exit(status)
"#;

/// The driver arguments that link with `linker` through the cluster and the recording
/// distributor, keeping the jobs' objects in `keep` (made fresh).
fn recorded_args(
    dir: &Path,
    linker: &Linker,
    keep: &Path,
    cluster: &Cluster,
) -> Result<Vec<String>, String> {
    paths::fresh_dir(keep)?;
    let body = RECORDER.replace(
        "DTLTO",
        &format!("{:?}", venv_tool("weld-dtlto")?.to_string_lossy()),
    );
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("record-dtlto");
    paths::write(
        &script,
        format!("#!{}\n{body}", venv_tool("python")?.display()),
    )?;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("chmod {}: {e}", script.display()))?;
    dtlto_args_via(
        linker,
        &script,
        &clang22()?,
        &[keep.display().to_string(), cluster.scheduler_arg()],
    )
}

/// `llvm-nm-22 --defined-only file`: the (type, name) of each defined symbol.
fn defined(file: &Path) -> Result<Vec<(char, String)>, String> {
    let o = run::run_in(
        Path::new("."),
        tools::find("llvm-nm-22")?,
        [OsStr::new("--defined-only"), file.as_os_str()],
        run::TOOL_TIMEOUT,
    )?
    .ok(&format!("llvm-nm-22 --defined-only {}", file.display()))?;
    Ok(o.stdout_str()
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace().rev();
            let name = f.next()?;
            let ty = f.next()?.chars().next()?;
            Some((ty, name.to_string()))
        })
        .collect())
}

/// The defined function symbols of a program (types T, t and W).
fn program_functions(exe: &Path) -> Result<BTreeSet<String>, String> {
    Ok(defined(exe)?
        .into_iter()
        .filter(|(t, _)| matches!(t, 'T' | 't' | 'W'))
        .map(|(_, n)| n)
        .collect())
}

/// The size of a program's `.text` (`llvm-size-22 -A`).
fn text_size(exe: &Path) -> Result<u64, String> {
    let o = run::run_in(
        Path::new("."),
        tools::find("llvm-size-22")?,
        [OsStr::new("-A"), exe.as_os_str()],
        run::TOOL_TIMEOUT,
    )?
    .ok("llvm-size-22 -A")?;
    o.stdout_str()
        .lines()
        .find_map(|l| {
            let mut f = l.split_whitespace();
            (f.next()? == ".text").then(|| f.next()?.parse().ok())?
        })
        .ok_or_else(|| format!("no .text in {}\n{}", exe.display(), o.report()))
}

/// weld's `--stats` line "LTO functions: N" (rustc shows the linker's stderr as a warning).
fn lto_functions(o: &Output) -> Result<usize, String> {
    o.stderr_str()
        .lines()
        .find_map(|l| {
            let rest = l.split_once("LTO functions:")?.1;
            rest.split_whitespace().next()?.parse().ok()
        })
        .ok_or_else(|| format!("no `LTO functions:` line from weld --stats\n{}", o.report()))
}

/// Writes `dead.c` (native code, dead under `--gc-sections`, that alone calls a bitcode
/// function) and compiles it to `dead.o`.
fn compile_dead_c(dir: &Path, source: &str) -> Check {
    paths::write(&dir.join("dead.c"), source)?;
    run::run_in(
        dir,
        clang22()?,
        ["-c", "-O2", "-ffunction-sections", "dead.c", "-o", "dead.o"],
        run::TOOL_TIMEOUT,
    )?
    .ok("compiling dead.c")?;
    Ok(())
}

/// weld through the cluster made the code of its in-process link: the same "LTO functions"
/// (not 0) and the same defined functions; the `.text` sizes are printed and must be equal.
fn same_code(what: &str, in_process: (&Path, &Output), dtlto: (&Path, &Output)) -> Check {
    let (a, b) = (lto_functions(in_process.1)?, lto_functions(dtlto.1)?);
    eprintln!("dask_dtlto: {what}: weld's LTO functions: {a} in process, {b} through the cluster");
    if a == 0 || a != b {
        return Err(format!(
            "{what}: LTO functions: {a} in process, {b} through the cluster (must be equal, not 0)"
        ));
    }
    let (fa, fb) = (
        program_functions(in_process.0)?,
        program_functions(dtlto.0)?,
    );
    if fa != fb {
        let only = |x: &BTreeSet<String>, y: &BTreeSet<String>| {
            x.difference(y).cloned().collect::<Vec<_>>().join(" ")
        };
        return Err(format!(
            "{what}: the programs define different functions\nonly in process: {}\nonly \
             through the cluster: {}",
            only(&fa, &fb),
            only(&fb, &fa)
        ));
    }
    let (ta, tb) = (text_size(in_process.0)?, text_size(dtlto.0)?);
    eprintln!(
        "dask_dtlto: {what}: {} functions; .text {ta} bytes in process, {tb} through the cluster",
        fa.len()
    );
    // The backends get the same modules, indexes and options in both modes (the jobs' command
    // lines carry what the in-process backends are given): the code is the same.
    if ta != tb {
        return Err(format!(
            "{what}: .text is {ta} bytes in process, {tb} through the cluster"
        ));
    }
    Ok(())
}

/// The functions (types T and t) the jobs whose objects `keep` holds compiled.
fn kept_functions(keep: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut objects = 0;
    for e in std::fs::read_dir(keep).map_err(|e| format!("{}: {e}", keep.display()))? {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.file_name().is_some_and(|n| n == "job.json") {
            continue;
        }
        objects += 1;
        out.extend(
            defined(&p)?
                .into_iter()
                .filter(|(t, _)| matches!(t, 'T' | 't'))
                .map(|(_, n)| n),
        );
    }
    if objects == 0 || !keep.join("job.json").is_file() {
        return Err(format!(
            "the recording distributor kept no job file or objects in {}",
            keep.display()
        ));
    }
    Ok(out)
}

/// weld's backends compiled fewer functions than lld's, `dead_only` among lld's only.
fn fewer_functions(what: &str, dead_only: &str, lld: &[String], weld: &[String]) -> Check {
    eprintln!(
        "dask_dtlto: {what}: functions compiled through the cluster: weld {}, lld {}",
        weld.len(),
        lld.len()
    );
    let has = |v: &[String]| v.iter().any(|n| n == dead_only);
    if weld.len() >= lld.len() || !has(lld) || has(weld) {
        return Err(format!(
            "{what}: weld's jobs compiled {} functions ({dead_only}: {}), lld's {} ({dead_only}: \
             {}): weld's precise graph should leave out what only dead native code calls",
            weld.len(),
            has(weld),
            lld.len(),
            has(lld)
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Faults

/// A wrapper compiler that, the first time it compiles describe.o, records its pid in
/// `dir/slow.pid` and sleeps `secs` seconds.
fn slow_wrapper(dir: &Path, secs: u32) -> Result<PathBuf, String> {
    let marker = dir.join("slow.pid");
    wrapper(
        dir,
        "slow-cc",
        &format!(
            "case \" $* \" in *\" describe.o \"*)\n  if mkdir {dir}/slow.once 2>/dev/null; then echo $$ > {marker}.tmp; mv {marker}.tmp {marker}; sleep {secs}; fi;;\nesac\nexec {cc} \"$@\"\n",
            dir = dir.display(),
            marker = marker.display(),
            cc = clang22()?.display()
        ),
    )
}

/// Links the C++ program in `dir` on another thread while the slow job runs, and kills (SIGKILL,
/// whole process group) the worker of `cluster` running it. Returns the link's output and the
/// killed worker's name.
fn link_and_kill_the_slow_worker(
    dir: &Path,
    cluster: &Cluster,
    args: Vec<String>,
) -> Result<(Output, String), String> {
    let marker = dir.join("slow.pid");
    let link_dir = dir.to_path_buf();
    let link = std::thread::spawn(move || cxx_link(&link_dir, "", "prog", &args, DTLTO_LINK));
    let start = Instant::now();
    let pid = loop {
        if let Ok(s) = std::fs::read_to_string(&marker) {
            break s.trim().to_string();
        }
        if start.elapsed() > Duration::from_secs(60) || link.is_finished() {
            let o = link.join().map_err(|_| "the link thread panicked")??;
            return Err(format!(
                "the slow job never started (no {})\n{}",
                marker.display(),
                o.report()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("the slow job's process {pid}: {e}"))?;
    // pid (comm) state ppid pgrp ...: the group is the third field after the command.
    let pgid: u32 = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(2))
        .and_then(|f| f.parse().ok())
        .ok_or_else(|| format!("cannot parse /proc/{pid}/stat: {stat}"))?;
    let victim = cluster
        .workers
        .iter()
        .find(|w| w.pgid == pgid)
        .ok_or_else(|| {
            format!("the slow job (pid {pid}, group {pgid}) runs in no worker of this cluster")
        })?;
    victim.kill();
    let o = link.join().map_err(|_| "the link thread panicked")??;
    Ok((
        o,
        format!("{} (killed after {:?})", victim.what, start.elapsed()),
    ))
}

/// One worker dies (SIGKILL to its process group) while it runs a job; the job reruns on the
/// other worker and the link succeeds.
fn worker_killed(dir: &Path, linker: &Linker, shared: &Shared) -> Check {
    copy_cxx(shared, dir)?;
    let reference = cxx_reference(dir, "")?;
    let cluster = Cluster::start(&dir.join("cluster"), 2)?;
    let cc = slow_wrapper(dir, 5)?;
    let args = dtlto_args(linker, &cc, &[cluster.scheduler_arg()])?;
    let (o, victim) = link_and_kill_the_slow_worker(dir, &cluster, args)?;
    let o = link_ok(o, &format!("the link after {victim} was killed"))?;
    same_run(dir, &reference, &dir.join("prog"), &cxx_expected())
        .map_err(|e| format!("{e}\n({victim})\n{}", o.report()))
}

/// The only worker dies mid-job: the link fails within a bound, saying why.
fn all_workers_gone(dir: &Path, linker: &Linker, shared: &Shared) -> Check {
    copy_cxx(shared, dir)?;
    let cluster = Cluster::start(&dir.join("cluster"), 1)?;
    let cc = slow_wrapper(dir, 60)?;
    let args = dtlto_args(
        linker,
        &cc,
        &[
            cluster.scheduler_arg(),
            format!("--connect-timeout={CONNECT_TIMEOUT_S}"),
        ],
    )?;
    let (o, victim) = link_and_kill_the_slow_worker(dir, &cluster, args)?;
    failed_cleanly(
        &o,
        &dir.join("prog"),
        &[&format!(
            "the cluster has had no workers (or lost its scheduler) for {CONNECT_TIMEOUT_S}s"
        )],
    )
    .map_err(|e| format!("{e}\n({victim})"))?;
    if o.elapsed > SCHEDULER_DOWN_BOUND {
        return Err(format!(
            "with no workers left the link took {:?}, more than {SCHEDULER_DOWN_BOUND:?}\n{}",
            o.elapsed,
            o.report()
        ));
    }
    Ok(())
}

fn scheduler_down(dir: &Path, linker: &Linker, shared: &Shared) -> Check {
    copy_cxx(shared, dir)?;
    let timeout = format!("--connect-timeout={CONNECT_TIMEOUT_S}");
    // Nothing listens on this port.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        l.local_addr().map_err(|e| e.to_string())?.port()
    };
    let address = format!("tcp://127.0.0.1:{port}");
    // A scheduler file left by a scheduler that has stopped.
    let stale = {
        let cluster = Cluster::start(&dir.join("stopped"), 0)?;
        let f = dir.join("stale-scheduler.json");
        std::fs::copy(&cluster.scheduler_file, &f).map_err(|e| e.to_string())?;
        f
    };
    for (label, target, needle) in [
        (
            "address",
            format!("--scheduler={address}"),
            format!("cannot reach the Dask scheduler at {address} within {CONNECT_TIMEOUT_S}s"),
        ),
        (
            "stale file",
            format!("--scheduler-file={}", stale.display()),
            format!("cannot reach the scheduler in {}", stale.display()),
        ),
    ] {
        let args = dtlto_args(linker, &clang22()?, &[target, timeout.clone()])?;
        let o = cxx_link(dir, "", "prog", &args, DTLTO_LINK)?;
        failed_cleanly(&o, &dir.join("prog"), &[&needle])
            .map_err(|e| format!("scheduler down ({label}): {e}"))?;
        if o.elapsed > SCHEDULER_DOWN_BOUND {
            return Err(format!(
                "scheduler down ({label}): the link took {:?}, more than {SCHEDULER_DOWN_BOUND:?}\n{}",
                o.elapsed,
                o.report()
            ));
        }
    }
    Ok(())
}

fn compiler_fails(dir: &Path, linker: &Linker, shared: &Shared) -> Check {
    copy_cxx(shared, dir)?;
    let cc = wrapper(
        dir,
        "failing-cc",
        &format!(
            "case \" $* \" in *\" square.o \"*) echo \"failing-cc: injected failure on square.o\" >&2; exit 3;; esac\nexec {} \"$@\"\n",
            clang22()?.display()
        ),
    )?;
    let cluster = shared.cluster()?;
    let args = dtlto_args(
        linker,
        &cc,
        &[cluster.scheduler_arg(), "--retries=1".into()],
    )?;
    let o = cxx_link(dir, "", "prog", &args, DTLTO_LINK)?;
    let cmd_start = format!("{} -c --target=", cc.display());
    failed_cleanly(
        &o,
        &dir.join("prog"),
        &[
            "the job for square.o failed on every try (2 in all)",
            "the compiler exited with status 3 compiling square.o",
            &cmd_start,
            " square.o -fthinlto-index=square.",
            "failing-cc: injected failure on square.o",
        ],
    )
}

fn version_mismatch(dir: &Path, linker: &Linker, shared: &Shared) -> Check {
    copy_cxx(shared, dir)?;
    // Where the link runs, the wrapper reports clang-22's version; on the workers (started
    // without WELD_DTLTO_TEST_LINK_SIDE) another one.
    let cc = wrapper(
        dir,
        "other-version-cc",
        &format!(
            "if [ \"$1\" = --version ] && [ -z \"$WELD_DTLTO_TEST_LINK_SIDE\" ]; then echo 'clang version 21.0.0 (not the one)'; exit 0; fi\nexec {} \"$@\"\n",
            clang22()?.display()
        ),
    )?;
    let cluster = shared.cluster()?;
    let args = dtlto_args(linker, &cc, &[cluster.scheduler_arg()])?;
    let mut cmd = Command::new(tools::find(tools::CLANGXX)?);
    cmd.current_dir(dir)
        .env("WELD_DTLTO_TEST_LINK_SIDE", "1")
        .args(["-flto=thin", "-O2"])
        .args(CXX_OBJECTS)
        .arg(CXX_ARCHIVE)
        .args(&args)
        .args(["-o", "prog"]);
    let o = run::run(&mut cmd, DTLTO_LINK)?;
    failed_cleanly(
        &o,
        &dir.join("prog"),
        &[
            "compiler version mismatch",
            "clang version 21.0.0 (not the one)",
            "clang version 22",
        ],
    )
}
