//! Running commands with a time limit and capturing everything they print.

use std::ffi::OsStr;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Time limit for compiling, archiving and inspecting.
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(300);
/// Time limit for one link (lld links the largest corpus program in well under a second).
pub const LINK_TIMEOUT: Duration = Duration::from_secs(60);
/// Time limit for running a linked test program.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(20);

/// After this many timeouts in one test process, every later command gets at most
/// `SHORT_TIMEOUT`: a linker that hangs on every input must not keep the suite running for hours.
pub const TIMEOUTS_BEFORE_SHORT_LIMIT: usize = 3;
pub const SHORT_TIMEOUT: Duration = Duration::from_secs(10);
static TIMEOUTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn effective_limit(limit: Duration) -> Duration {
    if TIMEOUTS.load(std::sync::atomic::Ordering::Relaxed) >= TIMEOUTS_BEFORE_SHORT_LIMIT {
        limit.min(SHORT_TIMEOUT)
    } else {
        limit
    }
}

/// What a finished (or killed) command did.
#[derive(Debug, Clone)]
pub struct Output {
    /// The command line, shell-quoted, for failure reports.
    pub cmdline: String,
    /// Exit code, `None` if killed by a signal or timed out.
    pub code: Option<i32>,
    /// Terminating signal, if any.
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
}

impl Output {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    pub fn stderr_str(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
    /// "exit code 3", "killed by signal 11", "timed out after 20s".
    pub fn status_text(&self) -> String {
        if self.timed_out {
            format!("timed out after {:.0?}", self.elapsed)
        } else if let Some(c) = self.code {
            format!("exit code {c}")
        } else if let Some(s) = self.signal {
            format!("killed by signal {s}")
        } else {
            "unknown status".to_string()
        }
    }
    /// A full report: command, status, stdout and stderr.
    pub fn report(&self) -> String {
        let mut s = format!(
            "command: {}\nstatus: {}\n",
            self.cmdline,
            self.status_text()
        );
        let out = self.stdout_str();
        let err = self.stderr_str();
        if !out.is_empty() {
            s.push_str(&format!("--- stdout\n{}", clip(&out)));
            if !out.ends_with('\n') {
                s.push('\n');
            }
        }
        if !err.is_empty() {
            s.push_str(&format!("--- stderr\n{}", clip(&err)));
            if !err.ends_with('\n') {
                s.push('\n');
            }
        }
        s
    }
    /// Ok if the command exited 0, else the full report.
    pub fn ok(self, what: &str) -> Result<Output, String> {
        if self.success() {
            Ok(self)
        } else {
            Err(format!("{what} failed\n{}", self.report()))
        }
    }
}

fn clip(s: &str) -> String {
    const MAX: usize = 8000;
    if s.len() <= MAX {
        s.to_string()
    } else {
        let mut cut = MAX;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}\n... ({} more bytes)\n", &s[..cut], s.len() - cut)
    }
}

/// Quotes one argument for a copy-pasteable shell command line.
pub fn shell_quote(arg: &OsStr) -> String {
    let s = arg.to_string_lossy();
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=+,:@%".contains(c))
    {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The command as a shell line: `cd DIR && PROG ARGS...`.
pub fn cmdline(cmd: &Command) -> String {
    let mut s = String::new();
    if let Some(dir) = cmd.get_current_dir() {
        s.push_str(&format!("cd {} && ", shell_quote(dir.as_os_str())));
    }
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            s.push_str(&format!("{}={} ", k.to_string_lossy(), shell_quote(v)));
        }
    }
    s.push_str(&shell_quote(cmd.get_program()));
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&shell_quote(a));
    }
    s
}

/// Runs `cmd` with no stdin, capturing stdout and stderr; kills it after `limit` (or after
/// `SHORT_TIMEOUT` once several commands have timed out). Failing to start the program at all is
/// an `Err`.
pub fn run(cmd: &mut Command, limit: Duration) -> Result<Output, String> {
    let limit = effective_limit(limit);
    let line = cmdline(cmd);
    // A process group of its own, so that a timeout kills the linker a driver started (or the
    // threads a program forked), not only the direct child: grandchildren would otherwise keep
    // the output pipes open and the reads below would never end.
    use std::os::unix::process::CommandExt;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start `{line}`: {e}"))?;
    let mut out_pipe = child.stdout.take().expect("piped stdout");
    let mut err_pipe = child.stderr.take().expect("piped stderr");
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) => {
                if start.elapsed() >= limit {
                    timed_out = true;
                    TIMEOUTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    kill_group(child.id());
                    let _ = child.kill();
                    break child
                        .wait()
                        .map_err(|e| format!("wait for `{line}`: {e}"))?;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(format!("wait for `{line}`: {e}")),
        }
    };
    let elapsed = start.elapsed();
    // Anything the command left running in its group (a daemonised grandchild) goes too.
    kill_group(child.id());
    let stdout = out_t.join().unwrap_or_default();
    let stderr = err_t.join().unwrap_or_default();
    use std::os::unix::process::ExitStatusExt;
    Ok(Output {
        cmdline: line,
        code: if timed_out { None } else { status.code() },
        signal: status.signal(),
        timed_out,
        stdout,
        stderr,
        elapsed,
    })
}

/// Sends SIGKILL to the process group `pgid` (the group made for one command by `run`, or one
/// a test started itself).
pub fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Convenience: `run(Command::new(prog).args(args).current_dir(dir))`.
pub fn run_in<I, S>(
    dir: &Path,
    prog: impl AsRef<OsStr>,
    args: I,
    limit: Duration,
) -> Result<Output, String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(prog);
    cmd.args(args).current_dir(dir);
    run(&mut cmd, limit)
}

/// What differs between two runs of a program: status, stdout, stderr, one message each (empty
/// when they behave the same). `a_name` and `b_name` label the runs in the messages.
pub fn run_differences(a_name: &str, a: &Output, b_name: &str, b: &Output) -> Vec<String> {
    let mut problems = Vec::new();
    if a.status_text() != b.status_text() {
        problems.push(format!(
            "status differs: {a_name}: {}, {b_name}: {}",
            a.status_text(),
            b.status_text()
        ));
    }
    if a.stdout != b.stdout {
        problems.push(format!(
            "stdout differs: {}",
            crate::text_diff(a_name, &a.stdout_str(), b_name, &b.stdout_str())
        ));
    }
    if a.stderr != b.stderr {
        problems.push(format!(
            "stderr differs: {}",
            crate::text_diff(a_name, &a.stderr_str(), b_name, &b.stderr_str())
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_status() {
        let mut c = Command::new("sh");
        c.args(["-c", "echo out; echo err >&2; exit 3"]);
        let o = run(&mut c, Duration::from_secs(10)).unwrap();
        assert_eq!(o.code, Some(3));
        assert_eq!(o.stdout_str(), "out\n");
        assert_eq!(o.stderr_str(), "err\n");
        assert!(!o.success());
    }

    #[test]
    fn kills_after_timeout() {
        let mut c = Command::new("sleep");
        c.arg("30");
        let o = run(&mut c, Duration::from_millis(200)).unwrap();
        assert!(o.timed_out);
        assert_eq!(o.code, None);
        assert!(o.status_text().starts_with("timed out"));
    }

    #[test]
    fn timeout_kills_grandchildren_holding_the_pipes() {
        let mut c = Command::new("sh");
        c.args(["-c", "sleep 30 & sleep 30; echo never"]);
        let start = Instant::now();
        let o = run(&mut c, Duration::from_millis(300)).unwrap();
        assert!(o.timed_out);
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(o.stdout_str(), "");
    }

    #[test]
    fn missing_program_is_an_error() {
        let mut c = Command::new("/nonexistent/program");
        assert!(run(&mut c, Duration::from_secs(1)).is_err());
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote(OsStr::new("-O1")), "-O1");
        assert_eq!(shell_quote(OsStr::new("a b")), "'a b'");
        assert_eq!(shell_quote(OsStr::new("it's")), "'it'\\''s'");
    }
}
