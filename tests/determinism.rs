//! Determinism: the same inputs linked with `--threads=1`, 2 and 8, and with 8 a second time,
//! give byte-identical outputs, for C++ corpus programs (many sections, COMDAT groups, exceptions,
//! debug info), with both compilers, in every enabled mode. The outputs must also run.

use libtest_mimic::{Arguments, Failed, Trial};
use weld_tests::build::{self, Compiler, Mode, COMPILERS};
use weld_tests::corpus::{self, Case};
use weld_tests::tools::Linker;
use weld_tests::{paths, run, Check};

/// C++ programs with the most sections and relocations in the corpus.
const CASES: &[&str] = &["cxx_exceptions", "cxx_containers", "debug_info"];
/// Thread counts, in link order: the last is a second run of the one before.
const THREADS: &[u32] = &[1, 2, 8, 8];

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let modes = match build::enabled_modes() {
        Ok(m) => m,
        Err(e) => {
            trials.push(Trial::test("modes::parse", move || Err(e.into())));
            Vec::new()
        }
    };
    for &name in CASES {
        for &compiler in COMPILERS {
            for mode in &modes {
                let mode = *mode;
                trials.push(Trial::test(
                    format!("{name}::{}::{}", compiler.name(), mode.name),
                    move || {
                        let case = corpus::load(name)?;
                        threads_do_not_matter(&case, compiler, &mode).map_err(Failed::from)
                    },
                ));
            }
        }
    }
    libtest_mimic::run(&args, trials).exit();
}

fn threads_do_not_matter(case: &Case, compiler: Compiler, mode: &Mode) -> Check {
    let weld = Linker::weld()?;
    let objs = build::objects(case, compiler, mode)?;
    let dir = paths::work_root().join("determinism").join(format!(
        "{}-{}-{}",
        case.name,
        compiler.name(),
        mode.name
    ));
    paths::fresh_dir(&dir)?;
    let mut outputs = Vec::new();
    for (run, &n) in THREADS.iter().enumerate() {
        let out = dir.join(format!("prog.{run}.threads{n}"));
        let mut cmd = build::link_command(case, &objs, compiler, mode, &weld, &out)?;
        cmd.arg(format!("-Wl,--threads={n}"));
        let link = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        if !link.success() || !out.is_file() {
            return Err(format!(
                "weld's link with --threads={n} failed\n{}",
                link.report()
            ));
        }
        let ran = build::run_program(&out)?;
        if ran.code != Some(case.config.exit) {
            return Err(format!(
                "the program linked with --threads={n} should exit with {}\n{}",
                case.config.exit,
                ran.report()
            ));
        }
        let bytes = std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        outputs.push((n, out, bytes));
    }
    let (n0, p0, b0) = &outputs[0];
    for (n, p, b) in &outputs[1..] {
        if b != b0 {
            let first = b0.iter().zip(b.iter()).position(|(x, y)| x != y);
            return Err(format!(
                "outputs differ: --threads={n0} gave {} bytes, --threads={n} gave {} bytes, first \
                 differing byte at {}\n  {}\n  {}\n(compare with `cmp -l` or `llvm-readelf-22 -a`)",
                b0.len(),
                b.len(),
                first.map_or("the end of the shorter file".to_string(), |o| format!(
                    "offset {o:#x}"
                )),
                p0.display(),
                p.display()
            ));
        }
    }
    Ok(())
}
