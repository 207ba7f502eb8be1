//! Errors are values: every failure becomes one `Error` carrying lld-style text (without the
//! `weld: error: ` prefix, which the driver adds), so bad input never panics.

use std::fmt;

/// A link error. The message is complete: it names the file, member, section or symbol involved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<String> for Error {
    fn from(s: String) -> Self {
        Error(s)
    }
}

/// A phase that reports several errors at once (`Result<T, Vec<Error>>`) can still pass one
/// on with `?`.
impl From<Error> for Vec<Error> {
    fn from(e: Error) -> Self {
        vec![e]
    }
}

impl From<&str> for Error {
    fn from(s: &str) -> Self {
        Error(s.to_string())
    }
}

/// Whether the last diagnostic printed ran over several lines.
static LAST_WAS_MULTILINE: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Prints one diagnostic as lld does: `weld: KIND: MESSAGE`, after a blank line when the
/// previous diagnostic (warning or error) ran over several lines.
pub fn print_diagnostic(kind: &str, msg: &str) {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    let stderr = std::io::stderr();
    let mut out = stderr.lock();
    if LAST_WAS_MULTILINE.swap(msg.contains('\n'), Ordering::Relaxed) {
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "weld: {kind}: {msg}");
}

/// Builds an `Error` from a format string.
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => { $crate::error::Error(format!($($arg)*)) };
}

/// Returns early with an `Error` built from a format string.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => { return Err($crate::error::Error(format!($($arg)*))) };
}

/// Adds context (usually a file name) in front of an error's message.
pub trait Context<T> {
    fn context(self, what: impl fmt::Display) -> Result<T>;
}

impl<T, E: fmt::Display> Context<T> for std::result::Result<T, E> {
    fn context(self, what: impl fmt::Display) -> Result<T> {
        self.map_err(|e| Error(format!("{what}: {e}")))
    }
}

/// `--error-handling-script=SCRIPT`: lld runs it as `SCRIPT TAG ARG` (`missing-lib NAME`,
/// `undefined-symbol NAME`) when it reports such an error, so that a build system can say
/// more; its output goes where it goes. What lld adds when the script cannot run or fails.
pub fn run_error_handling_script(script: &std::path::Path, tag: &str, arg: &str) -> Option<Error> {
    match std::process::Command::new(script)
        .arg(tag)
        .arg(arg)
        .status()
    {
        Err(_) => Some(Error(format!(
            "error handling script '{}' failed to execute",
            script.display()
        ))),
        Ok(st) if !st.success() => Some(Error(format!(
            "error handling script '{}' exited with code {}",
            script.display(),
            st.code().unwrap_or(-1)
        ))),
        Ok(_) => None,
    }
}
