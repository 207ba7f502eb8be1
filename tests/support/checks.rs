//! The small vocabulary of the differential trials: a failure of lld's side means the scenario
//! is broken, problems found are collected and reported together, line lists compared with a
//! diff.

use crate::{text_diff, Check};

/// lld's side failing means the scenario (or the harness) is broken.
pub fn reference<T>(r: Result<T, String>) -> Result<T, String> {
    r.map_err(|e| format!("ld.lld-22's side failed: the scenario or the harness is broken\n{e}"))
}

/// A property lld's output must have for the trial to test anything.
pub fn expect_lld(ok: bool, what: impl FnOnce() -> String) -> Check {
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} (the scenario or the harness is broken)",
            what()
        ))
    }
}

/// The differences found in a trial.
#[derive(Default)]
pub struct Problems(pub Vec<String>);

impl Problems {
    pub fn check(&mut self, c: Check) {
        if let Err(e) = c {
            self.0.push(e);
        }
    }
    pub fn done(self) -> Check {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self.0.join("\n\n"))
        }
    }
}

/// Two lists of lines must be equal.
pub fn same_lines(what: &str, weld: &[String], lld: &[String]) -> Check {
    if weld == lld {
        Ok(())
    } else {
        Err(format!(
            "{what} differs: {}--- weld (all)\n{}\n--- lld (all)\n{}",
            text_diff("weld", &weld.join("\n"), "lld", &lld.join("\n")),
            weld.join("\n"),
            lld.join("\n")
        ))
    }
}

/// Owned copies of string literals (command-line arguments).
pub fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}
