//! Differential tests: every corpus program is compiled by clang-22 and gcc, linked through the
//! real compiler driver by weld and by ld.lld-22 in every enabled mode, and both programs are run
//! and compared, and so is the structure of both outputs (normalised `llvm-readelf-22` views:
//! sections, segments, symbols, dynamic tags, relocations, versions; see `support/structure.rs`
//! for what is compared and the intended differences).
//!
//! One trial per `<case>::<compiler>::<mode>`; work directories are kept under
//! `target/weld-tests/<case>/<compiler>-<mode>/` for inspection. Objects are compiled once per
//! case, compiler and object flavour (see `build::objects`).
//!
//! Environment: `WELD` (linker under test), `WELD_TEST_MODES` (comma-separated mode list).

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::Path;
use weld_tests::build::{self, Compiler, Mode, Objects, COMPILERS};
use weld_tests::corpus::{self, Case};
use weld_tests::run::Output;
use weld_tests::tools::{self, Linker};
use weld_tests::{elf, paths, structure, text_diff, Check};

fn main() {
    let args = Arguments::from_args();
    let conclusion = libtest_mimic::run(&args, trials());
    if let Err(e) = check_known_bugs_needed(&args, &conclusion) {
        eprintln!("\n{e}");
        std::process::exit(101);
    }
    conclusion.exit();
}

/// After a full, passing run with weld, every entry of `structure::KNOWN_WELD_BUGS` must have
/// tolerated a difference in some trial: an entry that tolerated nothing is a fixed bug (or a
/// stale rewrite) and must go. A filtered run, a run of other modes, a run with failures (whose
/// trials may not have reached the comparison) and a run with lld standing in for weld
/// (`WELD=ld.lld-22`, while working on the harness) cannot tell, and say so.
fn check_known_bugs_needed(
    args: &Arguments,
    conclusion: &libtest_mimic::Conclusion,
) -> Result<(), String> {
    let full = args.filter.is_none()
        && args.skip.is_empty()
        && !args.list
        && !args.ignored
        && std::env::var("WELD_TEST_MODES").map_or(true, |m| m.trim().is_empty());
    let weld_is_lld = tools::weld().is_ok_and(|w| tools::diag_name(&w) != "weld");
    if !full || conclusion.has_failed() || weld_is_lld {
        if !args.list {
            eprintln!(
                "note: not a full passing run of weld, so unneeded KNOWN_WELD_BUGS entries \
                 were not looked for"
            );
        }
        return Ok(());
    }
    let unneeded = structure::unneeded_known_bugs();
    if unneeded.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "these KNOWN_WELD_BUGS entries (tests/support/structure.rs) tolerated no difference \
             in any trial: the bugs are fixed, remove the entries: {unneeded:?}"
        ))
    }
}

fn trials() -> Vec<Trial> {
    let mut trials = Vec::new();
    let cases = match corpus::load_all() {
        Ok(c) => c,
        Err(e) => return vec![Trial::test("corpus::load", move || Err(e.into()))],
    };
    let count = cases.len();
    trials.push(Trial::test("corpus::at_least_28_cases", move || {
        if count >= 28 {
            Ok(())
        } else {
            Err(format!("the corpus has {count} cases, expected at least 28").into())
        }
    }));
    trials.push(Trial::test("structure::normaliser", || {
        structure::self_test().map_err(Into::into)
    }));
    let modes = match build::enabled_modes() {
        Ok(m) => m,
        Err(e) => return vec![Trial::test("modes::parse", move || Err(e.into()))],
    };
    for case in cases {
        for &compiler in COMPILERS {
            for mode in &modes {
                if !case.runs_in(compiler.name(), mode.name) {
                    continue;
                }
                let name = format!("{}::{}::{}", case.name, compiler.name(), mode.name);
                let (case, mode) = (case.clone(), *mode);
                trials.push(Trial::test(name, move || {
                    differential(&case, compiler, &mode).map_err(Failed::from)
                }));
            }
        }
    }
    trials
}

fn differential(case: &Case, compiler: Compiler, mode: &Mode) -> Check {
    let weld = Linker::weld()?;
    let lld = Linker::lld()?;
    let objs = build::objects(case, compiler, mode)?;
    check_relocations(case, &objs, mode)?;

    let dir =
        paths::work_root()
            .join(&case.name)
            .join(format!("{}-{}", compiler.name(), mode.name));
    paths::fresh_dir(&dir)?;
    let lld_out = dir.join("prog.lld");
    let weld_out = dir.join("prog.weld");
    let where_ = format!("work directory: {}", dir.display());

    // Reference link and run: these check the case itself, before weld is looked at.
    let lld_link = build::link(case, &objs, compiler, mode, &lld, &lld_out)?;
    paths::write(&dir.join("link.lld.txt"), lld_link.report())?;
    if !lld_link.success() || !lld_out.exists() {
        return Err(format!(
            "the reference link with ld.lld-22 failed: the case or the harness is broken\n{}{where_}",
            lld_link.report()
        ));
    }
    check_linked_by_lld(&lld_out)?;
    let lld_run = build::run_program(&lld_out)?;
    save_run(&dir, "lld", &lld_run)?;
    check_reference_run(case, compiler, mode, &lld_run).map_err(|e| format!("{e}{where_}"))?;

    // weld.
    let weld_link = build::link(case, &objs, compiler, mode, &weld, &weld_out)?;
    paths::write(&dir.join("link.weld.txt"), weld_link.report())?;
    if !weld_link.success() {
        return Err(format!(
            "weld's link failed\n{}{where_}",
            weld_link.report()
        ));
    }
    let weld_stderr = weld_link.stderr_str();
    if weld_stderr.contains("panicked") || weld_stderr.contains("RUST_BACKTRACE") {
        return Err(format!("weld panicked\n{}{where_}", weld_link.report()));
    }
    if !weld_out.is_file() {
        return Err(format!(
            "weld's link exited 0 but wrote no {}\n{}{where_}",
            weld_out.display(),
            weld_link.report()
        ));
    }
    let weld_run = build::run_program(&weld_out)?;
    save_run(&dir, "weld", &weld_run)?;

    let mut problems = weld_tests::run::run_differences("weld", &weld_run, "lld", &lld_run);
    if let Err(e) = compare_elf(case, &weld_out, &lld_out) {
        problems.push(e);
    }
    let trial = format!("{}::{}::{}", case.name, compiler.name(), mode.name);
    if let Err(e) = compare_structure(&trial, &dir, &weld_out, &lld_out) {
        problems.push(e);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\nweld's link: {}\n{where_}",
            problems.join("\n"),
            weld_link.cmdline
        ))
    }
}

/// Every relocation type the case's configuration names must appear in its objects: otherwise the
/// test would not test what it claims to.
fn check_relocations(case: &Case, objs: &Objects, mode: &Mode) -> Check {
    let mut required: Vec<&String> = case.config.relocs.iter().collect();
    if !mode.pic {
        required.extend(case.config.relocs_nopie.iter());
    }
    if required.is_empty() {
        return Ok(());
    }
    let mut found = std::collections::BTreeSet::new();
    for o in objs.used(case, mode) {
        found.extend(elf::reloc_types(&o)?);
    }
    let missing: Vec<&&String> = required.iter().filter(|r| !found.contains(**r)).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "relocation types required by case.conf are missing from the objects in {}: {missing:?}\nfound: {found:?}",
            objs.dir.display()
        ))
    }
}

/// The reference output must really come from lld (gcc's `-B` and clang's `--ld-path` routing).
fn check_linked_by_lld(out: &Path) -> Check {
    let comment = elf::section_strings(out, ".comment")?;
    if comment.contains("Linker: ") && comment.contains("LLD") {
        Ok(())
    } else {
        Err(format!(
            "{} was not linked by lld: its .comment is\n{comment}",
            out.display()
        ))
    }
}

/// The program linked by lld must do what the case says: its exit status and expected stdout.
fn check_reference_run(case: &Case, compiler: Compiler, mode: &Mode, run: &Output) -> Check {
    if run.code != Some(case.config.exit) {
        return Err(format!(
            "the reference program (linked by ld.lld-22) should exit with {} but: {}\n{}",
            case.config.exit,
            run.status_text(),
            run.report()
        ));
    }
    if let Some((path, expected)) = case.expected_stdout(compiler.name(), mode.name)? {
        if run.stdout != expected.as_bytes() {
            return Err(format!(
                "the reference program's stdout differs from {}: {}",
                path.display(),
                text_diff("lld", &run.stdout_str(), "expected", &expected)
            ));
        }
    }
    Ok(())
}

fn save_run(dir: &Path, label: &str, run: &Output) -> Check {
    paths::write(&dir.join(format!("run.{label}.stdout")), &run.stdout)?;
    paths::write(&dir.join(format!("run.{label}.stderr")), &run.stderr)?;
    paths::write(&dir.join(format!("run.{label}.status")), run.status_text())
}

/// The normalised `llvm-readelf-22` views of both outputs (saved as `structure.<linker>.txt` in
/// the work directory) must agree, but for the intended differences and known weld bugs listed
/// in `support/structure.rs`.
fn compare_structure(trial: &str, dir: &Path, weld: &Path, lld: &Path) -> Check {
    let (wf, lf) = (structure::facts(weld)?, structure::facts(lld)?);
    paths::write(&dir.join("structure.weld.txt"), wf.text())?;
    paths::write(&dir.join("structure.lld.txt"), lf.text())?;
    structure::compare(trial, &wf, &lf)
}

/// Note types, debug info, required sections. (Program headers are compared, in order and with
/// their sections, by `compare_structure`.)
fn compare_elf(case: &Case, weld: &Path, lld: &Path) -> Check {
    let mut problems = Vec::new();
    let (wn, ln) = (elf::notes(weld)?, elf::notes(lld)?);
    if wn != ln {
        problems.push(format!(
            "note types differ:\n  weld: {wn:?}\n  lld:  {ln:?}"
        ));
    }
    if !case.config.sections.is_empty() || case.config.dwarf_verify {
        let (wsec, lsec) = (elf::section_names(weld)?, elf::section_names(lld)?);
        let mut required = case.config.sections.clone();
        if case.config.dwarf_verify {
            required.extend([".debug_info".to_string(), ".debug_line".to_string()]);
        }
        for s in &required {
            if !lsec.contains(s) {
                problems.push(format!(
                    "section {s} is missing from lld's output: fix the case"
                ));
            }
            if !wsec.contains(s) {
                problems.push(format!("section {s} is missing from weld's output"));
            }
        }
    }
    if case.config.dwarf_verify {
        let (we, wtext) = elf::dwarf_verify(weld)?;
        let (le, _) = elf::dwarf_verify(lld)?;
        if we > le {
            problems.push(format!(
                "llvm-dwarfdump-22 --verify: {we} errors in weld's output, {le} in lld's\n{wtext}"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}
