//! Shared helpers for the integration tests.
//!
//! The test binaries (`differential`, `errors`, `determinism`, `cli`) are thin: everything that
//! finds tools, runs commands, reads the corpus, compiles, links and inspects ELF files lives here,
//! written once.
//!
//! The linker under test is `$WELD` if set, else `<target>/release/weld`. A missing binary or tool
//! is reported as a test failure, never as a skip.

#[path = "support/build.rs"]
pub mod build;
#[path = "support/checks.rs"]
pub mod checks;
#[path = "support/corpus.rs"]
pub mod corpus;
#[path = "support/dynelf.rs"]
pub mod dynelf;
#[path = "support/dynlink.rs"]
pub mod dynlink;
#[path = "support/elf.rs"]
pub mod elf;
#[path = "support/gc.rs"]
pub mod gc;
#[path = "support/json.rs"]
pub mod json;
#[path = "support/linkerr.rs"]
pub mod linkerr;
#[path = "support/paths.rs"]
pub mod paths;
#[path = "support/run.rs"]
pub mod run;
#[path = "support/structure.rs"]
pub mod structure;
#[path = "support/tools.rs"]
pub mod tools;

/// Outcome of one check: `Err` carries the full, human-readable failure report.
pub type Check = Result<(), String>;

/// A test that works in a fresh directory of its own.
pub type DirTest = fn(&std::path::Path) -> Check;

/// libtest-mimic trials named `name`, each run in a fresh `target/weld-tests/<group>/<name>/`
/// that is kept afterwards and named in failure reports.
pub fn dir_trials(
    group: &'static str,
    tests: &[(&'static str, DirTest)],
) -> Vec<libtest_mimic::Trial> {
    tests
        .iter()
        .map(|&(name, f)| {
            libtest_mimic::Trial::test(name, move || {
                let dir = paths::work_root().join(group).join(name);
                paths::fresh_dir(&dir)?;
                f(&dir).map_err(|e| format!("{e}\nwork directory: {}", dir.display()).into())
            })
        })
        .collect()
}

/// Adds context to an error string.
pub fn ctx<T>(r: Result<T, String>, what: impl FnOnce() -> String) -> Result<T, String> {
    r.map_err(|e| format!("{}:\n{e}", what()))
}

/// Describes the first difference between two texts, with a few lines of both around it.
pub fn text_diff(left_name: &str, left: &str, right_name: &str, right: &str) -> String {
    let l: Vec<&str> = left.lines().collect();
    let r: Vec<&str> = right.lines().collect();
    let first = l
        .iter()
        .zip(r.iter())
        .position(|(a, b)| a != b)
        .unwrap_or(l.len().min(r.len()));
    let from = first.saturating_sub(2);
    let mut out = format!(
        "first difference at line {} ({left_name}: {} lines, {right_name}: {} lines)\n",
        first + 1,
        l.len(),
        r.len()
    );
    for (name, lines) in [(left_name, &l), (right_name, &r)] {
        out.push_str(&format!("--- {name}\n"));
        for (i, line) in lines.iter().enumerate().skip(from).take(6) {
            let mark = if i == first { ">" } else { " " };
            out.push_str(&format!("{mark}{:4} | {line}\n", i + 1));
        }
        if lines.len() <= first {
            out.push_str(&format!(">{:4} | <end of output>\n", first + 1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_points_at_first_changed_line() {
        let d = text_diff("a", "x\ny\nz\n", "b", "x\nY\nz\n");
        assert!(d.contains("first difference at line 2"), "{d}");
        assert!(d.contains(">   2 | y"), "{d}");
        assert!(d.contains(">   2 | Y"), "{d}");
    }

    #[test]
    fn diff_reports_missing_tail() {
        let d = text_diff("a", "x\ny\n", "b", "x\n");
        assert!(d.contains("first difference at line 2"), "{d}");
        assert!(d.contains("<end of output>"), "{d}");
    }
}
