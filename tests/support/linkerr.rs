//! Failed links compared with ld.lld-22's: both linkers are run directly (not through a driver)
//! on the same arguments in the same directory, and weld must exit with 1, leave no output or
//! other new file behind, print no panic, and print lld's diagnostics (with `ld.lld-22: `
//! replaced by weld's program name).
//!
//! The same checks as `tests/errors.rs`, as a library for the newer error tests.

use crate::run::{self, Output};
use crate::tools;
use crate::{paths, text_diff, Check};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Both linkers' runs on one failing link.
pub struct Both {
    pub lld: Output,
    pub weld: Output,
    /// lld's stderr with its program name replaced by weld's.
    pub lld_as_weld: String,
    pub weld_name: String,
}

/// Compiles `dir/FILE` (written from `src`) to `dir/STEM.o` with clang-22 and `flags`.
pub fn compile(dir: &Path, file: &str, src: &str, flags: &[&str]) -> Result<PathBuf, String> {
    paths::write(&dir.join(file), src)?;
    let stem = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let obj = format!("{stem}.o");
    let mut cmd = Command::new(tools::find(tools::CLANG)?);
    cmd.current_dir(dir)
        .args(["-c", "-O1", "-g0"])
        .args(flags)
        .arg(file)
        .arg("-o")
        .arg(&obj);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("compiling {file}"))?;
    Ok(dir.join(obj))
}

/// Runs lld and then weld with `args -o OUT` in `dir` and checks what every failed link must
/// satisfy: exit code 1, no output file, no new files at all, no panic.
pub fn link_both(dir: &Path, args: &[&str]) -> Result<Both, String> {
    let lld_path = tools::lld()?;
    let weld_path = tools::weld()?;
    let lld = run_linker(dir, &lld_path, args, "out.lld")?;
    let before = listing(dir)?;
    let weld = run_linker(dir, &weld_path, args, "out.weld")?;
    let after = listing(dir)?;

    let mut problems = Vec::new();
    if weld.code != Some(1) {
        problems.push(format!(
            "weld should exit with 1, but: {}",
            weld.status_text()
        ));
    }
    let err = weld.stderr_str();
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        problems.push("weld's stderr contains panic text".to_string());
    }
    if dir.join("out.weld").exists() {
        problems.push("weld left an output file behind".to_string());
    }
    let new: Vec<&String> = after.difference(&before).collect();
    if !new.is_empty() {
        problems.push(format!("weld left files behind: {new:?}"));
    }
    let lld_name = lld_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let weld_name = tools::diag_name(&weld_path);
    let lld_as_weld = rename_program(&lld.stderr_str(), &lld_name, &weld_name);
    if !problems.is_empty() {
        return Err(format!(
            "{}\n{}--- ld.lld-22's diagnostics (what weld should print)\n{lld_as_weld}",
            problems.join("\n"),
            weld.report()
        ));
    }
    Ok(Both {
        lld,
        weld,
        lld_as_weld,
        weld_name,
    })
}

fn run_linker(dir: &Path, linker: &Path, args: &[&str], out: &str) -> Result<Output, String> {
    let _ = std::fs::remove_file(dir.join(out));
    let mut cmd = Command::new(linker);
    cmd.current_dir(dir).args(args).arg("-o").arg(out);
    run::run(&mut cmd, run::LINK_TIMEOUT)
}

fn listing(dir: &Path) -> Result<BTreeSet<String>, String> {
    Ok(std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect())
}

/// Replaces `FROM: ` at the start of every line with `TO: `.
pub fn rename_program(text: &str, from: &str, to: &str) -> String {
    let prefix = format!("{from}: ");
    text.lines()
        .map(|l| match l.strip_prefix(&prefix) {
            Some(rest) => format!("{to}: {rest}\n"),
            None => format!("{l}\n"),
        })
        .collect()
}

/// Every line of `text` that carries an error diagnostic.
pub fn error_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.contains("error:"))
        .map(String::from)
        .collect()
}

pub fn first_error_line(text: &str) -> Option<String> {
    text.lines()
        .find(|l| l.contains(": error: "))
        .map(String::from)
}

impl Both {
    /// lld must have failed with exactly `expected` (after `error: `) as its first error line;
    /// then weld's first error line must equal lld's (with the program name replaced).
    pub fn same_first_error(&self, expected: &str) -> Check {
        let lld_first = first_error_line(&self.lld_as_weld);
        let want = format!("{}: error: {expected}", self.weld_name);
        if self.lld.code != Some(1) || lld_first.as_deref() != Some(want.as_str()) {
            return Err(format!(
                "the oracle changed: expected ld.lld-22 to fail with `{expected}`\n{}",
                self.lld.report()
            ));
        }
        let weld_first = first_error_line(&self.weld.stderr_str());
        if weld_first.as_deref() == Some(want.as_str()) {
            Ok(())
        } else {
            Err(format!(
                "first error line differs\n  weld: {}\n  want: {want}\n{}",
                weld_first.as_deref().unwrap_or("<no error line>"),
                self.weld.report()
            ))
        }
    }

    /// The whole stderr must equal lld's (with the program name replaced).
    pub fn same_stderr(&self) -> Check {
        let weld = self.weld.stderr_str();
        if weld == self.lld_as_weld {
            Ok(())
        } else {
            Err(format!(
                "diagnostics differ from ld.lld-22's: {}\n--- weld\n{weld}--- ld.lld-22 (renamed)\n{}",
                text_diff("weld", &weld, "lld", &self.lld_as_weld),
                self.lld_as_weld
            ))
        }
    }
}
