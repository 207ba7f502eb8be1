//! Mutated ThinLTO bitcode never kills weld (issue #18): whatever a corrupt bitcode file makes
//! LLVM do (read out of bounds, stop in `report_fatal_error`, ask for an absurd allocation, throw),
//! weld either links it or refuses it with one `weld: error:` diagnostic that names the file, exit
//! code 1 and no output file. No death by a signal, no hang.
//!
//! * `random::<source>`: mutants made at test time from the bitcode `clang-22 -flto=thin` makes of
//!   small C programs from testdata, with a fixed seed (one bit flipped, or one to four bytes
//!   overwritten, at random offsets), each linked alone with `-shared`, every other one with
//!   `--gc-sections`. `scripts/mutate-bitcode` runs the same kind of campaign, larger.
//! * `recorded::<source>`: every mutant that killed weld before LLVM's failures were contained
//!   (SIGSEGV, SIGABRT from "Broken module found", allocation failures and C++ exceptions
//!   escaping LLVM, SIGKILL from an allocation the system granted), minimised by
//!   `scripts/mutate-bitcode --minimise` to the fewest bytes that still did, and kept as
//!   recipes: (offset, byte) pairs applied to the clean bitcode here.
//!
//! The sources are compiled from a copy in the work directory under their bare names, so the
//! bitcode does not depend on where the checkout is and the recorded offsets stay meaningful for
//! a given clang-22. Work directories stay under `target/weld-tests/bitcode_mutants/`.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use weld_tests::{paths, run, tools};

/// (name in the work directory, source in the workspace): the script's list, in its order.
const SOURCES: [(&str, &str); 5] = [
    ("mixed_bc_a.c", "testdata/lto/mixed/bc_a.c"),
    ("tls_tls_vars.c", "testdata/lto/tls/tls_vars.c"),
    (
        "qsort_callbacks_compare.c",
        "testdata/corpus/qsort_callbacks/compare.c",
    ),
    (
        "qsort_callbacks_main.c",
        "testdata/corpus/qsort_callbacks/main.c",
    ),
    ("hello_c_main.c", "testdata/corpus/hello_c/main.c"),
];

/// Random mutants per source: about 1000 links in all, well under a minute.
const RANDOM_PER_SOURCE: u64 = 200;
const SEED: u64 = 18;

/// A recorded mutant: the source, whether it was linked with `--gc-sections`, and the bytes
/// written over the clean bitcode as (offset, byte).
type Recipe = (&'static str, bool, &'static [(usize, u8)]);

/// The mutants that killed weld before (source, with --gc-sections, bytes to write), with the
/// signal they died of. From `scripts/mutate-bitcode --count 1500 --seed 18 --minimise` run with
/// the weld of commit db64c22.
#[rustfmt::skip]
const RECORDED: &[Recipe] = &[
    // An attribute group for parameter 2281701374: LLVM's reader asked for some 17 GB, which the
    // system granted, and the kernel killed weld (SIGKILL) once it was used. Found by
    // `random::qsort_callbacks_main` (mutant 92), minimised by hand.
    ("qsort_callbacks_main.c", false, &[(880, 40)]), // SIGKILL
    ("hello_c_main.c", false, &[(2840, 81)]), // SIGABRT
    ("hello_c_main.c", false, &[(2982, 16)]), // SIGSEGV
    ("hello_c_main.c", false, &[(2989, 132)]), // SIGSEGV
    ("hello_c_main.c", false, &[(3058, 39)]), // SIGSEGV
    ("hello_c_main.c", false, &[(850, 14)]), // SIGSEGV
    ("hello_c_main.c", true, &[(1989, 17), (2935, 51)]), // SIGSEGV
    ("hello_c_main.c", true, &[(2934, 138)]), // SIGSEGV
    ("hello_c_main.c", true, &[(2934, 201)]), // SIGSEGV
    ("hello_c_main.c", true, &[(2967, 128)]), // SIGSEGV
    ("hello_c_main.c", true, &[(2989, 218)]), // SIGSEGV
    ("hello_c_main.c", true, &[(3011, 44)]), // SIGSEGV
    ("hello_c_main.c", true, &[(476, 156)]), // SIGABRT
    ("hello_c_main.c", true, &[(694, 142), (2984, 213)]), // SIGSEGV
    ("hello_c_main.c", true, &[(808, 57)]), // SIGABRT
    ("mixed_bc_a.c", false, &[(1310, 31)]), // SIGSEGV
    ("mixed_bc_a.c", false, &[(1454, 128)]), // SIGABRT
    ("mixed_bc_a.c", false, &[(3077, 40)]), // SIGABRT
    ("mixed_bc_a.c", false, &[(3162, 237)]), // SIGABRT
    ("mixed_bc_a.c", false, &[(3221, 161)]), // SIGSEGV
    ("mixed_bc_a.c", false, &[(3517, 118)]), // SIGSEGV
    ("mixed_bc_a.c", false, &[(3526, 123)]), // SIGSEGV
    ("mixed_bc_a.c", false, &[(3595, 91)]), // SIGSEGV
    ("mixed_bc_a.c", false, &[(3604, 132)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(289, 72)]), // SIGABRT
    ("mixed_bc_a.c", true, &[(3204, 203)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(3340, 5)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(3354, 158)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(3355, 4)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(3375, 6)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(3402, 1)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(3404, 32)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(3422, 140)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(3423, 155)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(3450, 126)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(616, 130), (3442, 122)]), // SIGSEGV
    ("mixed_bc_a.c", true, &[(999, 22)]), // SIGABRT
    ("qsort_callbacks_compare.c", false, &[(1149, 44)]), // SIGABRT
    ("qsort_callbacks_compare.c", false, &[(1232, 94), (3764, 93)]), // SIGSEGV
    ("qsort_callbacks_compare.c", false, &[(2709, 81)]), // SIGABRT
    ("qsort_callbacks_compare.c", false, &[(2709, 82)]), // SIGABRT
    ("qsort_callbacks_compare.c", false, &[(3165, 40)]), // SIGABRT
    ("qsort_callbacks_compare.c", false, &[(3450, 189)]), // SIGSEGV
    ("qsort_callbacks_compare.c", false, &[(3566, 16)]), // SIGSEGV
    ("qsort_callbacks_compare.c", false, &[(3575, 166)]), // SIGSEGV
    ("qsort_callbacks_compare.c", false, &[(3607, 4)]), // SIGSEGV
    ("qsort_callbacks_compare.c", false, &[(3638, 4)]), // SIGSEGV
    ("qsort_callbacks_compare.c", false, &[(3662, 110)]), // SIGSEGV
    ("qsort_callbacks_compare.c", false, &[(3678, 203)]), // SIGSEGV
    ("qsort_callbacks_compare.c", false, &[(3722, 75)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(1232, 216), (3572, 41)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(1237, 223)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(1459, 240), (3682, 22)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(3233, 24)]), // SIGABRT
    ("qsort_callbacks_compare.c", true, &[(3272, 6)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(3427, 105)]), // SIGABRT
    ("qsort_callbacks_compare.c", true, &[(3448, 172)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(3453, 85)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(3636, 76)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(3651, 217)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(3750, 136)]), // SIGSEGV
    ("qsort_callbacks_compare.c", true, &[(476, 172)]), // SIGABRT
    ("qsort_callbacks_compare.c", true, &[(766, 61)]), // SIGABRT
    ("qsort_callbacks_main.c", false, &[(1395, 111)]), // SIGABRT
    ("qsort_callbacks_main.c", false, &[(1609, 220)]), // SIGSEGV
    ("qsort_callbacks_main.c", false, &[(1854, 13)]), // SIGSEGV
    ("qsort_callbacks_main.c", false, &[(236, 99)]), // SIGABRT
    ("qsort_callbacks_main.c", false, &[(2444, 82)]), // SIGABRT
    ("qsort_callbacks_main.c", false, &[(5938, 3)]), // SIGABRT
    ("qsort_callbacks_main.c", false, &[(6116, 143)]), // SIGSEGV
    ("qsort_callbacks_main.c", false, &[(6306, 81), (8437, 147)]), // SIGABRT
    ("qsort_callbacks_main.c", false, &[(6637, 50)]), // SIGSEGV
    ("qsort_callbacks_main.c", false, &[(6873, 242)]), // SIGSEGV
    ("qsort_callbacks_main.c", false, &[(6901, 175)]), // SIGSEGV
    ("qsort_callbacks_main.c", false, &[(7166, 32)]), // SIGSEGV
    ("qsort_callbacks_main.c", false, &[(7191, 249)]), // SIGSEGV
    ("qsort_callbacks_main.c", true, &[(2428, 16)]), // SIGABRT
    ("qsort_callbacks_main.c", true, &[(257, 161)]), // SIGABRT
    ("qsort_callbacks_main.c", true, &[(6411, 143)]), // SIGSEGV
    ("qsort_callbacks_main.c", true, &[(6831, 231)]), // SIGSEGV
    ("qsort_callbacks_main.c", true, &[(6995, 1)]), // SIGSEGV
    ("qsort_callbacks_main.c", true, &[(7011, 185)]), // SIGSEGV
    ("qsort_callbacks_main.c", true, &[(7034, 166)]), // SIGSEGV
    ("qsort_callbacks_main.c", true, &[(7157, 21)]), // SIGSEGV
    ("qsort_callbacks_main.c", true, &[(7163, 128)]), // SIGSEGV
    ("qsort_callbacks_main.c", true, &[(7163, 166)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(1521, 37)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(3167, 104), (3639, 110)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(3444, 161)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(3714, 186)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(3714, 91)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(3735, 4)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(3795, 71)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(3846, 166)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(3895, 175)]), // SIGSEGV
    ("tls_tls_vars.c", false, &[(885, 247)]), // SIGABRT
    ("tls_tls_vars.c", false, &[(980, 136), (3656, 79)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(1454, 33)]), // SIGABRT
    ("tls_tls_vars.c", true, &[(1494, 0)]), // SIGABRT
    ("tls_tls_vars.c", true, &[(2926, 120), (3902, 25)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(3274, 147), (3871, 66)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(3494, 69)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(3522, 23)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(3542, 75)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(3656, 254)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(3660, 129)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(3735, 248)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(3831, 202)]), // SIGSEGV
    ("tls_tls_vars.c", true, &[(40, 136)]), // SIGSEGV
];

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for (i, (name, _)) in SOURCES.iter().enumerate() {
        let stem = name.trim_end_matches(".c");
        trials.push(trial(format!("random::{stem}"), move |dir| {
            random_mutants(dir, i)
        }));
        trials.push(trial(format!("recorded::{stem}"), move |dir| {
            recorded_mutants(dir, name)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

fn trial(name: String, f: impl FnOnce(&Path) -> Result<(), String> + Send + 'static) -> Trial {
    let dir = paths::work_root()
        .join("bitcode_mutants")
        .join(name.replace("::", "/"));
    Trial::test(name, move || {
        paths::fresh_dir(&dir)?;
        f(&dir).map_err(|e| Failed::from(format!("{e}\nwork directory: {}", dir.display())))
    })
}

/// The clean bitcode of each source, compiled once per run.
fn bitcode() -> Result<&'static [Vec<u8>], String> {
    static BITCODE: OnceLock<Result<Vec<Vec<u8>>, String>> = OnceLock::new();
    BITCODE
        .get_or_init(|| {
            let dir = paths::work_root().join("bitcode_mutants").join("sources");
            paths::fresh_dir(&dir)?;
            let clang = tools::find(tools::CLANG)?;
            SOURCES
                .iter()
                .map(|(name, src)| {
                    let text = paths::read(&paths::workspace_root().join(src))?;
                    paths::write(&dir.join(name), text)?;
                    let obj = name.replace(".c", ".bc.o");
                    let mut cmd = Command::new(&clang);
                    cmd.args(["-flto=thin", "-O2", "-fPIC", "-c", name, "-o", &obj])
                        .current_dir(&dir);
                    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("clang-22")?;
                    paths::read(&dir.join(obj))
                })
                .collect()
        })
        .as_deref()
        .map_err(Clone::clone)
}

/// splitmix64: a fixed sequence from a seed, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Mutant `index` of `clean`: one bit flipped, or one to four bytes overwritten.
fn mutate(clean: &[u8], source: usize, index: u64) -> Vec<(usize, u8)> {
    let mut rng = Rng(SEED ^ ((source as u64) << 32) ^ index);
    let len = clean.len() as u64;
    if rng.below(2) == 0 {
        let at = rng.below(len) as usize;
        vec![(at, clean[at] ^ (1 << rng.below(8)))]
    } else {
        (0..1 + rng.below(4))
            .map(|_| (rng.below(len) as usize, rng.below(256) as u8))
            .collect()
    }
}

fn random_mutants(dir: &Path, source: usize) -> Result<(), String> {
    let clean = &bitcode()?[source];
    let mut failures = Vec::new();
    for index in 0..RANDOM_PER_SOURCE {
        let recipe = mutate(clean, source, index);
        if let Err(e) = link_mutant(dir, clean, &recipe, index % 2 == 1, index) {
            failures.push(format!("mutant {index} {recipe:?}: {e}"));
        }
    }
    verdict(failures)
}

fn recorded_mutants(dir: &Path, name: &str) -> Result<(), String> {
    let source = SOURCES
        .iter()
        .position(|(n, _)| *n == name)
        .expect("a listed source");
    let clean = &bitcode()?[source];
    let mut failures = Vec::new();
    for (index, (_, gc, recipe)) in RECORDED.iter().filter(|(n, ..)| *n == name).enumerate() {
        if let Some((at, _)) = recipe.iter().find(|(at, _)| *at >= clean.len()) {
            // A clang-22 that makes other bitcode: the recipe no longer says anything.
            failures.push(format!(
                "recipe {recipe:?}: offset {at} is past the {} bytes clang-22 made; \
                 record the recipes again with scripts/mutate-bitcode --minimise",
                clean.len()
            ));
            continue;
        }
        if let Err(e) = link_mutant(dir, clean, recipe, *gc, index as u64) {
            failures.push(format!("recipe {recipe:?} (gc-sections: {gc}): {e}"));
        }
    }
    verdict(failures)
}

fn verdict(failures: Vec<String>) -> Result<(), String> {
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} mutants failed:\n{}",
            failures.len(),
            failures.join("\n")
        ))
    }
}

/// Writes the mutant and links it alone with `-shared`: weld links it, or refuses it with one
/// diagnostic naming it, exit code 1 and nothing left behind.
fn link_mutant(
    dir: &Path,
    clean: &[u8],
    recipe: &[(usize, u8)],
    gc: bool,
    index: u64,
) -> Result<(), String> {
    let mut bytes = clean.to_vec();
    for &(at, b) in recipe {
        bytes[at] = b;
    }
    let name = format!("m{index:05}.o");
    let input = dir.join(&name);
    let output: PathBuf = dir.join(format!("{name}.so"));
    paths::write(&input, &bytes)?;
    let mut cmd = Command::new(tools::weld()?);
    cmd.arg("-shared");
    if gc {
        cmd.arg("--gc-sections");
    }
    cmd.arg(&input).arg("-o").arg(&output);
    let out = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    let stderr = out.stderr_str();
    let result = check_outcome(&out, &stderr, &name, &output);
    // Nothing else may be left in the directory: no output, no temporary output.
    let _ = std::fs::remove_file(&output);
    std::fs::remove_file(&input).map_err(|e| format!("cannot remove {name}: {e}"))?;
    let left: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    result?;
    if !left.is_empty() {
        return Err(format!("the link left {left:?} behind"));
    }
    Ok(())
}

fn check_outcome(out: &run::Output, stderr: &str, name: &str, output: &Path) -> Result<(), String> {
    if out.timed_out {
        return Err("the link did not end".to_string());
    }
    if let Some(sig) = out.signal {
        return Err(format!("weld was killed by signal {sig}:\n{stderr}"));
    }
    match out.code {
        Some(0) => Ok(()),
        Some(1) => {
            let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error:")).collect();
            // One diagnostic, naming the input: at its start for a bad input, or in its lines
            // for a link error about a symbol of the input's LTO object (`OUT.lto.m00001.o:(f)`).
            if errors.len() != 1
                || !errors[0].starts_with("weld: error: ")
                || !stderr.contains(name)
            {
                return Err(format!("not one diagnostic naming {name}:\n{stderr}"));
            }
            if output.exists() {
                return Err(format!("the failed link left {} behind", output.display()));
            }
            Ok(())
        }
        code => Err(format!("exit code {code:?}:\n{stderr}")),
    }
}
