//! Files a link writes about itself, in lld's formats: `--why-extract` (which archive members
//! were loaded, for which symbol), `--print-archive-stats` (members and extractions per
//! archive), `--cref` (which files define and use each global symbol), `--dependency-file` (a Makefile rule naming every input the link read) and
//! `--time-trace` (the phases as a Chrome trace, which chrome://tracing and Perfetto read) and
//! `--reproduce` (a tar of the inputs and a response file that replays the link, for weld and
//! for ld.lld alike: `cd NAME && ld.lld @response.txt`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::err;
use crate::error::Error;
use crate::resolve::{LazySource, Resolved};

/// One timed phase of the link.
pub struct Phase {
    pub name: &'static str,
    /// When it started, since the link did.
    pub start: Duration,
    /// How long it took.
    pub wall: Duration,
    /// The CPU time (user and system) all of the process's threads spent in it: against
    /// `wall`, how well the phase used the threads (mold's `--perf` shows the same).
    pub cpu: Duration,
}

/// Wall and CPU time of each phase, for `--time` and `--time-trace`.
pub struct Timings {
    /// When the link started.
    pub origin: Instant,
    pub phases: Vec<Phase>,
}

impl Default for Timings {
    fn default() -> Self {
        Timings {
            origin: Instant::now(),
            phases: Vec::new(),
        }
    }
}

impl Timings {
    /// Runs one phase of the link, timing it.
    pub fn run<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let (start, cpu) = (Instant::now(), process_cpu_time());
        let r = f();
        self.phases.push(Phase {
            name,
            start: start.duration_since(self.origin),
            wall: start.elapsed(),
            cpu: process_cpu_time().saturating_sub(cpu),
        });
        r
    }
}

/// User and system CPU time of every thread of the process so far (zero if the kernel will
/// not say).
pub fn process_cpu_time() -> Duration {
    // SAFETY: `getrusage` writes the structure it is given and nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// Writes `text` to `path`, or to standard output for `-`.
fn write_report(path: &Path, text: &str) -> Result<(), Error> {
    if path.as_os_str() == "-" {
        print!("{text}");
        return Ok(());
    }
    crate::input::input_files::write_file(path, text.as_bytes())
}

/// `--why-extract=FILE`: lld's tab-separated format.
pub fn write_why_extract(path: &Path, res: &Resolved) -> Result<(), Error> {
    let mut s = String::from("reference\textracted\tsymbol\n");
    for e in &res.extractions {
        let symbol = res.symtab.get(e.symbol).display_name();
        s.push_str(&format!("{}\t{}\t{}\n", e.reference, e.extracted, symbol));
    }
    write_report(path, &s)
}

/// `--print-archive-stats=FILE`: for each archive in command-line order (an archive given
/// twice is listed twice), its number of members and how many the link loaded.
pub fn write_archive_stats(path: &Path, res: &Resolved) -> Result<(), Error> {
    let mut s = String::from("members\textracted\tarchive\n");
    for a in &res.archives {
        let LazySource::Archive(archive) = &a.source else {
            continue;
        };
        let members = archive.members().filter(|m| m.is_ok()).count();
        s.push_str(&format!(
            "{members}\t{}\t{}\n",
            a.loaded.len(),
            a.path.display()
        ));
    }
    write_report(path, &s)
}

/// `--dependency-file=FILE`: `OUTPUT: INPUTS...` with a phony rule per input, as lld writes it
/// (the version scripts and symbol lists first, as lld reads them while parsing options;
/// then every file opened as input, once, in the order opened).
pub fn write_dependency_file(path: &Path, config: &Config, res: &Resolved) -> Result<(), Error> {
    let mut deps: Vec<String> = Vec::new();
    let lists = reproduced_sample_profile(config)
        .into_iter()
        .chain(&config.dynamic_lists)
        .chain(&config.export_dynamic_symbol_lists)
        .chain(&config.version_scripts);
    for p in lists.chain(&res.opened_files) {
        let p = p.display().to_string();
        if !deps.contains(&p) {
            deps.push(p);
        }
    }
    let escape = |name: &str| -> String {
        let mut out = String::with_capacity(name.len());
        for c in name.chars() {
            match c {
                ' ' | '#' => out.push('\\'),
                '$' => out.push('$'),
                _ => {}
            }
            out.push(c);
        }
        out
    };
    let mut s = format!("{}:", escape(&config.output.display().to_string()));
    for d in &deps {
        s.push_str(&format!(" \\\n {}", escape(d)));
    }
    s.push('\n');
    for d in &deps {
        s.push_str(&format!("\n{}:\n", escape(d)));
    }
    crate::input::input_files::write_file(path, s.as_bytes())
}

/// `--time-trace[=FILE]`: the link's phases as complete ("X") events of the Chrome trace event
/// format, as LLVM's time profiler writes them for lld (`OUTPUT.time-trace` by default), with
/// a `Total` event; phases shorter than `--time-trace-granularity` microseconds are left out.
pub fn write_time_trace(path: &Path, config: &Config, t: &Timings) -> Result<(), Error> {
    let path = if path.as_os_str().is_empty() {
        let mut p = config.output.clone().into_os_string();
        p.push(".time-trace");
        std::path::PathBuf::from(p)
    } else {
        path.to_path_buf()
    };
    let pid = std::process::id();
    let mut events = Vec::new();
    let mut total = std::time::Duration::ZERO;
    for phase in &t.phases {
        total = total.max(phase.start + phase.wall);
        if phase.wall.as_micros() < u128::from(config.time_trace_granularity) {
            continue;
        }
        events.push(format!(
            r#"{{"pid":{pid},"tid":{pid},"ph":"X","ts":{},"dur":{},"name":"{}","args":{{"cpu us":{}}}}}"#,
            phase.start.as_micros(),
            phase.wall.as_micros(),
            phase.name.replace('"', "'"),
            phase.cpu.as_micros()
        ));
    }
    events.push(format!(
        r#"{{"pid":{pid},"tid":{pid},"ph":"X","ts":0,"dur":{},"name":"Total ExecuteLinker","args":{{"count":1,"avg ms":{}}}}}"#,
        total.as_micros(),
        total.as_millis()
    ));
    events.push(format!(
        r#"{{"cat":"","pid":{pid},"tid":0,"ts":0,"ph":"M","name":"process_name","args":{{"name":"weld"}}}}"#
    ));
    let since_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .saturating_sub(t.origin.elapsed());
    let text = format!(
        "{{\"traceEvents\":[{}],\"beginningOfTime\":{}}}\n",
        events.join(","),
        since_epoch.as_micros()
    );
    crate::input::input_files::write_file(&path, text.as_bytes())
}

/// `--reproduce=FILE.tar`: `NAME/response.txt` (`--chroot .` and the command line),
/// `NAME/version.txt`, and every file the link read, at `NAME/<its absolute path>`.
/// The `--lto-sample-profile=` file when `--reproduce` is given: lld reads it first thing to
/// put it in the archive, which also makes it the first dependency of `--dependency-file`.
pub fn reproduced_sample_profile(config: &Config) -> Option<&PathBuf> {
    config
        .lto
        .sample_profile
        .as_ref()
        .filter(|_| config.reproduce.is_some())
}

pub fn write_reproduce(path: &Path, config: &Config, res: &Resolved) -> Result<(), Error> {
    let root = path
        .file_name()
        .map(|n| n.to_string_lossy().trim_end_matches(".tar").to_string())
        .unwrap_or_else(|| "repro".to_string());
    let mut tar = Vec::new();
    let mut response = String::from("--chroot .\n");
    for a in &config.reproduce_args {
        response.push_str(a);
        response.push('\n');
    }
    tar_entry(
        &mut tar,
        &format!("{root}/response.txt"),
        response.as_bytes(),
    );
    tar_entry(
        &mut tar,
        &format!("{root}/version.txt"),
        format!("{}\n", crate::cli::args::VERSION_LINE).as_bytes(),
    );
    let lists = reproduced_sample_profile(config)
        .into_iter()
        .chain(&config.dynamic_lists)
        .chain(&config.export_dynamic_symbol_lists)
        .chain(&config.version_scripts)
        .chain(&config.retain_symbols_file);
    let mut seen = std::collections::HashSet::new();
    for p in lists.chain(&res.opened_files) {
        let name = crate::cli::args::reproduce_path(p);
        if !seen.insert(name.clone()) {
            continue;
        }
        let data = crate::input::input_files::read_bytes(p)?;
        tar_entry(&mut tar, &format!("{root}/{name}"), &data);
    }
    tar.extend_from_slice(&[0u8; 1024]);
    std::fs::write(path, tar).map_err(|e| {
        err!(
            "--reproduce: failed to open {}: {}",
            path.display(),
            crate::input::input_files::io_reason(&e)
        )
    })
}

/// Appends one regular file to a ustar archive; names longer than ustar allows get a PAX
/// `path` record first.
fn tar_entry(tar: &mut Vec<u8>, name: &str, data: &[u8]) {
    if name.len() > 100 {
        let mut rec = format!(" path={name}\n");
        // The record starts with its own length in decimal, that length included.
        let mut len = rec.len();
        while format!("{len}{rec}").len() != len {
            len = format!("{len}{rec}").len();
        }
        rec = format!("{len}{rec}");
        tar_header(tar, "pax_header", rec.len() as u64, b'x');
        tar.extend_from_slice(rec.as_bytes());
        pad512(tar);
    }
    let short: String = name.chars().take(100).collect();
    tar_header(tar, &short, data.len() as u64, b'0');
    tar.extend_from_slice(data);
    pad512(tar);
}

fn tar_header(tar: &mut Vec<u8>, name: &str, size: u64, kind: u8) {
    let mut h = [0u8; 512];
    let put = |h: &mut [u8; 512], off: usize, s: &[u8]| h[off..off + s.len()].copy_from_slice(s);
    put(&mut h, 0, &name.as_bytes()[..name.len().min(100)]);
    put(&mut h, 100, b"0000644\0");
    put(&mut h, 108, b"0000000\0");
    put(&mut h, 116, b"0000000\0");
    put(&mut h, 124, format!("{size:011o}\0").as_bytes());
    put(&mut h, 136, b"00000000000\0");
    put(&mut h, 148, b"        ");
    h[156] = kind;
    put(&mut h, 257, b"ustar\0");
    put(&mut h, 263, b"00");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    put(&mut h, 148, format!("{sum:06o}\0 ").as_bytes());
    tar.extend_from_slice(&h);
}

fn pad512(tar: &mut Vec<u8>) {
    let rem = tar.len() % 512;
    if rem != 0 {
        tar.resize(tar.len() + 512 - rem, 0);
    }
}

/// `--cref`: lld's cross-reference table (GNU ld's layout). For each global symbol defined in
/// this output (in a live section) or by a shared library, in the order the object files meet
/// it: the file that defines it, then the other object files that name it.
pub fn cross_reference_table(res: &Resolved) -> String {
    use crate::resolve::symbol_table::{SymbolDef, SymbolId};
    let mut order: Vec<SymbolId> = Vec::new();
    let mut files_of: std::collections::HashMap<SymbolId, Vec<usize>> =
        std::collections::HashMap::new();
    for (fi, ids) in res.file_syms.iter().enumerate() {
        for &id in ids {
            let listed = match res.symtab.get(id).def {
                SymbolDef::Shared { .. } | SymbolDef::Common { .. } => true,
                SymbolDef::Defined { file, index } => {
                    let f = &res.files[file as usize];
                    let shndx = usize::from(object::read::elf::Sym::st_shndx(
                        &f.symbols[index as usize],
                        object::LittleEndian,
                    ));
                    f.sections.get(shndx).is_none_or(|s| {
                        !matches!(s.kind, crate::input::input_files::SectionKind::Discarded)
                    })
                }
                _ => false,
            };
            if !listed {
                continue;
            }
            let files = files_of.entry(id).or_insert_with(|| {
                order.push(id);
                Vec::new()
            });
            if !files.contains(&fi) {
                files.push(fi);
            }
        }
    }
    let line = |a: &str, b: &str| format!("{a:<49} {b}\n");
    let mut out = String::from("\nCross Reference Table\n\n");
    out.push_str(&line("Symbol", "File"));
    for id in order {
        let s = res.symtab.get(id);
        let (definer, def_file) = match s.def {
            SymbolDef::Defined { file, .. } | SymbolDef::Common { file, .. } => {
                (res.files[file as usize].name.clone(), Some(file as usize))
            }
            SymbolDef::Shared { file, .. } => (res.shared[file as usize].name.clone(), None),
            _ => continue,
        };
        out.push_str(&line(&s.display_name(), &definer));
        for &fi in &files_of[&id] {
            if Some(fi) != def_file {
                out.push_str(&line("", &res.files[fi].name));
            }
        }
    }
    out
}
