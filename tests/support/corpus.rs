//! The corpus: one directory per program under `testdata/corpus/`, each with sources, an optional
//! `expected.txt` (stdout) and an optional `case.conf`.
//!
//! `case.conf` is a flat `key = value` file (`#` starts a comment; lists are comma-separated):
//!
//! | key | meaning |
//! |---|---|
//! | `sources` | sources to build (default: every `.c .cc .cpp .s .S` file in the directory) |
//! | `archive` | sources packed into `libcase.a` with `ar rcs`, linked as `-L. -lcase` after the objects |
//! | `archive.NAME` | sources packed into `libNAME.a`; archives are linked in the order listed |
//! | `modes` | only these modes (default: all enabled modes) |
//! | `compilers` | only these compilers (`clang`, `gcc`; default both) |
//! | `cflags`, `cflags.clang`, `cflags.gcc` | extra compile flags (after `-O1 -g0` and the mode's) |
//! | `flags.FILE` | extra compile flags for one source file |
//! | `ldflags` | extra driver flags at link time (after objects and archives) |
//! | `nopie_only` | sources compiled and linked only in non-PIE modes |
//! | `exit` | expected exit status (default 0) |
//! | `relocs` | relocation types that must appear in the case's objects in every mode |
//! | `relocs.nopie` | relocation types additionally required in non-PIE modes |
//! | `dwarf_verify` | `true`: `llvm-dwarfdump --verify` must not report more errors for weld's output |
//! | `sections` | output sections that must exist in both outputs |
//!
//! Expected stdout: the first of `expected.<compiler>.<mode>.txt`, `expected.<compiler>.txt`,
//! `expected.<mode>.txt` and `expected.txt` that exists (none: only weld == lld is checked).

use crate::paths;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const SOURCE_EXTS: &[&str] = &["c", "cc", "cpp", "s", "S"];

/// One corpus program.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub dir: PathBuf,
    pub config: Config,
}

/// Parsed `case.conf`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    pub sources: Vec<String>,
    /// (library name, sources) in link order.
    pub archives: Vec<(String, Vec<String>)>,
    pub modes: Option<Vec<String>>,
    pub compilers: Option<Vec<String>>,
    pub cflags: Vec<String>,
    pub compiler_cflags: BTreeMap<String, Vec<String>>,
    pub file_flags: BTreeMap<String, Vec<String>>,
    pub ldflags: Vec<String>,
    pub nopie_only: Vec<String>,
    pub exit: i32,
    pub relocs: Vec<String>,
    pub relocs_nopie: Vec<String>,
    pub dwarf_verify: bool,
    pub sections: Vec<String>,
}

fn list(v: &str) -> Vec<String> {
    v.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

fn words(v: &str) -> Vec<String> {
    v.split_whitespace().map(String::from).collect()
}

impl Config {
    /// Parses `case.conf` text. Unknown keys and malformed lines are errors.
    pub fn parse(text: &str) -> Result<Config, String> {
        let mut c = Config::default();
        let mut seen = std::collections::BTreeSet::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (k, v) = line
                .split_once('=')
                .ok_or_else(|| format!("line {}: expected `key = value`, got `{raw}`", n + 1))?;
            let (k, v) = (k.trim(), v.trim());
            if !seen.insert(k.to_string()) {
                return Err(format!("line {}: key `{k}` given twice", n + 1));
            }
            match k {
                "sources" => c.sources = list(v),
                "archive" => c.archives.push(("case".into(), list(v))),
                "modes" => c.modes = Some(list(v)),
                "compilers" => c.compilers = Some(list(v)),
                "cflags" => c.cflags = words(v),
                "ldflags" => c.ldflags = words(v),
                "nopie_only" => c.nopie_only = list(v),
                "exit" => {
                    c.exit = v
                        .parse()
                        .map_err(|_| format!("line {}: exit must be a number", n + 1))?
                }
                "relocs" => c.relocs = list(v),
                "relocs.nopie" => c.relocs_nopie = list(v),
                "dwarf_verify" => {
                    c.dwarf_verify = match v {
                        "true" => true,
                        "false" => false,
                        _ => return Err(format!("line {}: dwarf_verify is true or false", n + 1)),
                    }
                }
                "sections" => c.sections = list(v),
                _ => {
                    if let Some(name) = k.strip_prefix("archive.") {
                        c.archives.push((name.to_string(), list(v)));
                    } else if let Some(cc) = k.strip_prefix("cflags.") {
                        if cc != "clang" && cc != "gcc" {
                            return Err(format!("line {}: unknown compiler `{cc}`", n + 1));
                        }
                        c.compiler_cflags.insert(cc.to_string(), words(v));
                    } else if let Some(f) = k.strip_prefix("flags.") {
                        c.file_flags.insert(f.to_string(), words(v));
                    } else {
                        return Err(format!("line {}: unknown key `{k}`", n + 1));
                    }
                }
            }
        }
        Ok(c)
    }
}

impl Case {
    /// Loads one case directory: reads `case.conf`, lists sources, and checks that every file
    /// named in the configuration exists.
    pub fn load(dir: &Path) -> Result<Case, String> {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| format!("bad case directory {}", dir.display()))?;
        let conf = dir.join("case.conf");
        let mut config = if conf.exists() {
            let text = std::fs::read_to_string(&conf)
                .map_err(|e| format!("cannot read {}: {e}", conf.display()))?;
            Config::parse(&text).map_err(|e| format!("{}: {e}", conf.display()))?
        } else {
            Config::default()
        };
        if config.sources.is_empty() {
            let mut found = Vec::new();
            for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
                let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
                let file = entry.file_name().to_string_lossy().into_owned();
                let ext = Path::new(&file)
                    .extension()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if SOURCE_EXTS.contains(&ext.as_str()) {
                    found.push(file);
                }
            }
            found.sort();
            config.sources = found;
        }
        let case = Case {
            name,
            dir: dir.to_path_buf(),
            config,
        };
        case.validate()?;
        Ok(case)
    }

    fn validate(&self) -> Result<(), String> {
        let c = &self.config;
        if c.sources.is_empty() {
            return Err(format!("case {}: no sources", self.name));
        }
        if !c
            .sources
            .iter()
            .any(|s| s.starts_with("main.") && !c.nopie_only.contains(s))
        {
            return Err(format!("case {}: needs a main.c or main.cpp", self.name));
        }
        let mut named: Vec<&String> = c.nopie_only.iter().collect();
        named.extend(c.file_flags.keys());
        for (_, srcs) in &c.archives {
            named.extend(srcs);
        }
        for f in named {
            if !c.sources.contains(f) {
                return Err(format!(
                    "case {}: case.conf names `{f}`, which is not among the sources {:?}",
                    self.name, c.sources
                ));
            }
        }
        for f in &c.sources {
            if !self.dir.join(f).is_file() {
                return Err(format!("case {}: source {f} does not exist", self.name));
            }
        }
        Ok(())
    }

    /// True if any source is C++ (the link then goes through the C++ driver).
    pub fn is_cxx(&self) -> bool {
        self.config.sources.iter().any(|s| is_cxx_source(s))
    }

    /// The archive a source belongs to, if any.
    pub fn archive_of(&self, src: &str) -> Option<&str> {
        self.config
            .archives
            .iter()
            .find(|(_, srcs)| srcs.iter().any(|s| s == src))
            .map(|(n, _)| n.as_str())
    }

    /// Sources used in a mode (non-PIE-only sources drop out of PIE modes).
    pub fn sources_for(&self, pic: bool) -> Vec<&str> {
        self.config
            .sources
            .iter()
            .filter(|s| !pic || !self.config.nopie_only.contains(s))
            .map(String::as_str)
            .collect()
    }

    /// Whether this case runs with the given compiler and mode.
    pub fn runs_in(&self, compiler: &str, mode: &str) -> bool {
        let c = &self.config;
        c.compilers
            .as_ref()
            .is_none_or(|l| l.iter().any(|x| x == compiler))
            && c.modes.as_ref().is_none_or(|l| l.iter().any(|x| x == mode))
    }

    /// The expected stdout for a compiler and mode, if the case has one: the first of
    /// `expected.<compiler>.<mode>.txt`, `expected.<compiler>.txt`, `expected.<mode>.txt` and
    /// `expected.txt` that exists.
    pub fn expected_stdout(
        &self,
        compiler: &str,
        mode: &str,
    ) -> Result<Option<(PathBuf, String)>, String> {
        for name in [
            format!("expected.{compiler}.{mode}.txt"),
            format!("expected.{compiler}.txt"),
            format!("expected.{mode}.txt"),
            "expected.txt".to_string(),
        ] {
            let p = self.dir.join(&name);
            if p.exists() {
                let t = std::fs::read_to_string(&p)
                    .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
                return Ok(Some((p, t)));
            }
        }
        Ok(None)
    }
}

pub fn is_cxx_source(name: &str) -> bool {
    name.ends_with(".cpp") || name.ends_with(".cc")
}

/// Every case in `testdata/corpus`, sorted by name. Any broken case is an error.
pub fn load_all() -> Result<Vec<Case>, String> {
    let dir = paths::corpus_dir();
    let mut cases = Vec::new();
    let entries = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read corpus {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        if entry.path().is_dir() {
            cases.push(Case::load(&entry.path())?);
        }
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(cases)
}

/// One case by directory name.
pub fn load(name: &str) -> Result<Case, String> {
    Case::load(&paths::corpus_dir().join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_key() {
        let c = Config::parse(
            "# comment\n\
             sources = main.c, a.c , b.c,abs.s\n\
             archive = a.c\n\
             archive.extra = b.c   # trailing comment\n\
             modes = static\n\
             compilers = gcc\n\
             cflags = -fcommon -DX=1\n\
             cflags.clang = -Wno-foo\n\
             flags.a.c = -O0\n\
             ldflags = -lm\n\
             nopie_only = abs.s\n\
             exit = 42\n\
             relocs = R_X86_64_PC32, R_X86_64_PLT32\n\
             relocs.nopie = R_X86_64_32\n\
             dwarf_verify = true\n\
             sections = mydata\n",
        )
        .unwrap();
        assert_eq!(c.sources, ["main.c", "a.c", "b.c", "abs.s"]);
        assert_eq!(
            c.archives,
            [
                ("case".to_string(), vec!["a.c".to_string()]),
                ("extra".to_string(), vec!["b.c".to_string()])
            ]
        );
        assert_eq!(c.modes, Some(vec!["static".to_string()]));
        assert_eq!(c.compilers, Some(vec!["gcc".to_string()]));
        assert_eq!(c.cflags, ["-fcommon", "-DX=1"]);
        assert_eq!(c.compiler_cflags["clang"], ["-Wno-foo"]);
        assert_eq!(c.file_flags["a.c"], ["-O0"]);
        assert_eq!(c.ldflags, ["-lm"]);
        assert_eq!(c.nopie_only, ["abs.s"]);
        assert_eq!(c.exit, 42);
        assert_eq!(c.relocs, ["R_X86_64_PC32", "R_X86_64_PLT32"]);
        assert_eq!(c.relocs_nopie, ["R_X86_64_32"]);
        assert!(c.dwarf_verify);
        assert_eq!(c.sections, ["mydata"]);
    }

    #[test]
    fn rejects_unknown_keys_duplicates_and_junk() {
        assert!(Config::parse("colour = red").is_err());
        assert!(Config::parse("exit = 1\nexit = 2").is_err());
        assert!(Config::parse("just words").is_err());
        assert!(Config::parse("exit = lots").is_err());
        assert!(Config::parse("cflags.icc = -O3").is_err());
        assert!(Config::parse("dwarf_verify = yes").is_err());
        assert_eq!(Config::parse("").unwrap(), Config::default());
    }

    #[test]
    fn the_corpus_loads_and_is_big_enough() {
        let cases = load_all().unwrap();
        assert!(cases.len() >= 28, "only {} corpus cases", cases.len());
    }
}
