//! Compiling a case's sources (once per compiler and object flavour), packing its archives, and
//! linking through the real compiler drivers.

use crate::corpus::{is_cxx_source, Case};
use crate::paths;
use crate::run::{self, Output};
use crate::tools::{self, Linker};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

/// Flags every compile starts with.
pub const BASE_CFLAGS: &[&str] = &["-O1", "-g0"];

/// The compilers every case is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compiler {
    Clang,
    Gcc,
}

pub const COMPILERS: &[Compiler] = &[Compiler::Clang, Compiler::Gcc];

impl Compiler {
    pub fn name(self) -> &'static str {
        match self {
            Compiler::Clang => "clang",
            Compiler::Gcc => "gcc",
        }
    }
    pub fn c_driver(self) -> &'static str {
        match self {
            Compiler::Clang => tools::CLANG,
            Compiler::Gcc => tools::GCC,
        }
    }
    pub fn cxx_driver(self) -> &'static str {
        match self {
            Compiler::Clang => tools::CLANGXX,
            Compiler::Gcc => tools::GXX,
        }
    }
    pub fn driver(self, cxx: bool) -> &'static str {
        if cxx {
            self.cxx_driver()
        } else {
            self.c_driver()
        }
    }
    /// Driver arguments that make it link with `linker`.
    pub fn use_linker_args(self, linker: &Linker) -> Result<Vec<String>, String> {
        Ok(match self {
            Compiler::Clang => vec![
                "-fuse-ld=lld".to_string(),
                format!("--ld-path={}", linker.path.display()),
            ],
            Compiler::Gcc => vec![format!("-B{}/", linker.gcc_bin_dir()?.display())],
        })
    }
}

/// How a program is built and linked. Objects are shared by all modes with the same `objects`
/// flavour (same compile flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    pub name: &'static str,
    /// Name of the object flavour: modes with equal flavours share compiled objects.
    pub objects: &'static str,
    /// Position-independent code (drops `nopie_only` sources; `relocs.nopie` not required).
    pub pic: bool,
    pub cflags: &'static [&'static str],
    pub ldflags: &'static [&'static str],
}

/// Every mode the harness knows.
pub const ALL_MODES: &[Mode] = &[
    Mode {
        name: "static",
        objects: "nopie",
        pic: false,
        cflags: &["-fno-pie"],
        ldflags: &["-static"],
    },
    Mode {
        name: "static-pie",
        objects: "pie",
        pic: true,
        cflags: &["-fPIE"],
        ldflags: &["-static-pie"],
    },
    Mode {
        name: "dynamic-pie",
        objects: "pie",
        pic: true,
        cflags: &["-fPIE"],
        ldflags: &["-pie"],
    },
    Mode {
        name: "dynamic-nopie",
        objects: "nopie",
        pic: false,
        cflags: &["-fno-pie"],
        ldflags: &["-no-pie"],
    },
    Mode {
        name: "gc-sections",
        objects: "pie-sections",
        pic: true,
        cflags: &["-fPIE", "-ffunction-sections", "-fdata-sections"],
        ldflags: &["-pie", "-Wl,--gc-sections"],
    },
];

/// The modes the differential test runs. Adding a mode from `ALL_MODES` is a one-line change
/// here; `WELD_TEST_MODES=a,b` overrides the list for one run.
pub const ENABLED_MODES: &[&str] = &[
    "static",
    "static-pie",
    "dynamic-pie",
    "dynamic-nopie",
    "gc-sections",
];

pub fn mode(name: &str) -> Result<Mode, String> {
    ALL_MODES
        .iter()
        .copied()
        .find(|m| m.name == name)
        .ok_or_else(|| format!("unknown mode `{name}`"))
}

/// The enabled modes (or `$WELD_TEST_MODES`).
pub fn enabled_modes() -> Result<Vec<Mode>, String> {
    match std::env::var("WELD_TEST_MODES") {
        Ok(list) if !list.trim().is_empty() => list.split(',').map(|m| mode(m.trim())).collect(),
        _ => ENABLED_MODES.iter().map(|m| mode(m)).collect(),
    }
}

/// Compiled objects of one case for one compiler and object flavour.
#[derive(Debug)]
pub struct Objects {
    pub dir: PathBuf,
    /// (source, object) for every source, in source order (archived ones included).
    pub all: Vec<(String, PathBuf)>,
    /// (library name, `lib<name>.a`) in link order.
    pub archives: Vec<(String, PathBuf)>,
}

impl Objects {
    /// Objects linked directly in a mode: not archived, and not non-PIE-only in a PIE mode.
    pub fn direct(&self, case: &Case, mode: &Mode) -> Vec<PathBuf> {
        let srcs = case.sources_for(mode.pic);
        self.all
            .iter()
            .filter(|(s, _)| srcs.contains(&s.as_str()) && case.archive_of(s).is_none())
            .map(|(_, o)| o.clone())
            .collect()
    }
    /// Every object that takes part in a mode's link (directly or through an archive).
    pub fn used(&self, case: &Case, mode: &Mode) -> Vec<PathBuf> {
        let srcs = case.sources_for(mode.pic);
        self.all
            .iter()
            .filter(|(s, _)| srcs.contains(&s.as_str()))
            .map(|(_, o)| o.clone())
            .collect()
    }
}

type Slot = Arc<OnceLock<Result<Arc<Objects>, String>>>;

/// Compiles a case for a compiler and mode, once per process (later calls for the same object
/// flavour wait for and share the first result), and once across processes and runs as long as
/// the sources and flags are unchanged (the object directory is named by a hash of both).
pub fn objects(case: &Case, compiler: Compiler, mode: &Mode) -> Result<Arc<Objects>, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();
    let key = format!("{}/{}/{}", case.name, compiler.name(), mode.objects);
    let slot = {
        let mut map = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        map.entry(key).or_default().clone()
    };
    slot.get_or_init(|| compile_case(case, compiler, mode).map(Arc::new))
        .clone()
}

/// The compile flags for one source, in order.
pub fn compile_flags(case: &Case, compiler: Compiler, mode: &Mode, src: &str) -> Vec<String> {
    let mut f: Vec<String> = BASE_CFLAGS.iter().map(|s| s.to_string()).collect();
    f.extend(mode.cflags.iter().map(|s| s.to_string()));
    f.extend(case.config.cflags.iter().cloned());
    if let Some(extra) = case.config.compiler_cflags.get(compiler.name()) {
        f.extend(extra.iter().cloned());
    }
    if let Some(extra) = case.config.file_flags.get(src) {
        f.extend(extra.iter().cloned());
    }
    f
}

fn object_name(src: &str) -> String {
    let stem = Path::new(src)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| src.to_string());
    format!("{stem}.o")
}

/// A hash of everything that determines the objects: every file in the case directory, the flags,
/// and the identity of the compiler binaries.
fn build_key(case: &Case, compiler: Compiler, mode: &Mode) -> Result<String, String> {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    crate::paths::hash_dir_files(&case.dir, &mut h)?;
    for src in &case.config.sources {
        compile_flags(case, compiler, mode, src).hash(&mut h);
    }
    for d in [compiler.c_driver(), compiler.cxx_driver(), tools::AR] {
        tools::hash_tool_identity(tools::find(d)?, &mut h);
    }
    Ok(format!("{:016x}", h.finish()))
}

fn compile_case(case: &Case, compiler: Compiler, mode: &Mode) -> Result<Objects, String> {
    let key = build_key(case, compiler, mode)?;
    let case_dir = paths::work_root().join(&case.name);
    let prefix = format!("obj-{}-{}-", compiler.name(), mode.objects);
    let dir = case_dir.join(format!("{prefix}{key}"));
    let stamp = dir.join("complete");
    if !stamp.exists() {
        let tmp = case_dir.join(format!(".tmp-{prefix}{}", std::process::id()));
        paths::fresh_dir(&tmp)?;
        compile_into(case, compiler, mode, &tmp)?;
        paths::write(&tmp.join("complete"), &key)?;
        if std::fs::rename(&tmp, &dir).is_err() {
            // Another process finished the same build first: use its objects.
            let _ = std::fs::remove_dir_all(&tmp);
            if !stamp.exists() {
                return Err(format!(
                    "cannot move {} to {}",
                    tmp.display(),
                    dir.display()
                ));
            }
        }
        // Drop object directories built from older sources or flags.
        if let Ok(entries) = std::fs::read_dir(&case_dir) {
            for e in entries.flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                // Exactly `<prefix><16 hex digits>`: `obj-gcc-pie-` must not match
                // `obj-gcc-pie-sections-...`.
                let stale = n
                    .strip_prefix(&prefix)
                    .is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()));
                if stale && e.path() != dir {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
    }
    let mut all = Vec::new();
    for src in &case.config.sources {
        all.push((src.clone(), dir.join(object_name(src))));
    }
    let archives = case
        .config
        .archives
        .iter()
        .map(|(name, _)| (name.clone(), dir.join(format!("lib{name}.a"))))
        .collect();
    Ok(Objects { dir, all, archives })
}

fn compile_into(case: &Case, compiler: Compiler, mode: &Mode, dir: &Path) -> Result<(), String> {
    let mut seen = std::collections::BTreeSet::new();
    for src in &case.config.sources {
        let obj = object_name(src);
        if !seen.insert(obj.clone()) {
            return Err(format!("case {}: two sources compile to {obj}", case.name));
        }
        let driver = tools::find(compiler.driver(is_cxx_source(src)))?;
        let mut cmd = Command::new(driver);
        cmd.current_dir(dir)
            .arg("-c")
            .arg(case.dir.join(src))
            .arg("-o")
            .arg(&obj)
            .args(compile_flags(case, compiler, mode, src));
        run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("compiling {src}"))?;
    }
    for (name, srcs) in &case.config.archives {
        let ar = tools::find(tools::AR)?;
        let mut cmd = Command::new(ar);
        cmd.current_dir(dir)
            .arg("rcs")
            .arg(format!("lib{name}.a"))
            .args(srcs.iter().map(|s| object_name(s)));
        run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("archiving lib{name}.a"))?;
    }
    Ok(())
}

/// The driver command that links a case's objects into `out` with `linker`.
pub fn link_command(
    case: &Case,
    objs: &Objects,
    compiler: Compiler,
    mode: &Mode,
    linker: &Linker,
    out: &Path,
) -> Result<Command, String> {
    let driver = tools::find(compiler.driver(case.is_cxx()))?;
    let mut cmd = Command::new(driver);
    if let Some(dir) = out.parent() {
        cmd.current_dir(dir);
    }
    cmd.args(compiler.use_linker_args(linker)?)
        .args(mode.ldflags)
        .args(objs.direct(case, mode));
    if !objs.archives.is_empty() {
        cmd.arg(format!("-L{}", objs.dir.display()));
        for (name, _) in &objs.archives {
            cmd.arg(format!("-l{name}"));
        }
    }
    cmd.args(&case.config.ldflags).arg("-o").arg(out);
    Ok(cmd)
}

/// Links and returns what the driver printed; Err only if the driver could not be started.
pub fn link(
    case: &Case,
    objs: &Objects,
    compiler: Compiler,
    mode: &Mode,
    linker: &Linker,
    out: &Path,
) -> Result<Output, String> {
    let _ = std::fs::remove_file(out);
    let mut cmd = link_command(case, objs, compiler, mode, linker, out)?;
    run::run(&mut cmd, run::LINK_TIMEOUT)
}

/// Runs a linked program in its directory with the run time limit.
pub fn run_program(program: &Path) -> Result<Output, String> {
    let mut cmd = Command::new(program);
    if let Some(dir) = program.parent() {
        cmd.current_dir(dir);
    }
    run::run(&mut cmd, run::RUN_TIMEOUT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enabled_modes_exist_and_are_distinct() {
        let mut names: Vec<&str> = ENABLED_MODES.to_vec();
        for n in &names {
            mode(n).unwrap();
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ENABLED_MODES.len());
    }

    #[test]
    fn modes_sharing_objects_share_compile_flags() {
        for a in ALL_MODES {
            for b in ALL_MODES {
                if a.objects == b.objects {
                    assert_eq!(a.cflags, b.cflags, "{} vs {}", a.name, b.name);
                    assert_eq!(a.pic, b.pic, "{} vs {}", a.name, b.name);
                }
            }
        }
    }

    #[test]
    fn flags_order_is_base_mode_case_compiler_file() {
        let case = Case {
            name: "x".into(),
            dir: PathBuf::from("/nonexistent"),
            config: crate::corpus::Config::parse(
                "sources = main.c\ncflags = -DCASE\ncflags.gcc = -DGCC\nflags.main.c = -DFILE",
            )
            .unwrap(),
        };
        let f = compile_flags(&case, Compiler::Gcc, &mode("static").unwrap(), "main.c");
        assert_eq!(f, ["-O1", "-g0", "-fno-pie", "-DCASE", "-DGCC", "-DFILE"]);
        let f = compile_flags(
            &case,
            Compiler::Clang,
            &mode("static-pie").unwrap(),
            "main.c",
        );
        assert_eq!(f, ["-O1", "-g0", "-fPIE", "-DCASE", "-DFILE"]);
    }
}
