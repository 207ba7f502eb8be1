//! GNU linker scripts given as input files: the subset that names more inputs. glibc's `libc.so`
//! and `libm.so`, gcc's `libgcc_s.so` and ncurses' `libcurses.so` are such scripts:
//!
//! ```text
//! GROUP ( /lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libc_nonshared.a
//!         AS_NEEDED ( /lib64/ld-linux-x86-64.so.2 ) )
//! GROUP ( libgcc_s.so.1 -lgcc )
//! ```
//!
//! Every script (an input file that is text, `-T`, `--default-script`) is read with lld's
//! parser (`crate::script`). Here its input commands become files to link — `GROUP(...)`,
//! `INPUT(...)`, `AS_NEEDED(...)`, `-lNAME`, `SEARCH_DIR(...)`, and `TARGET(...)`, which says
//! how the files after it are read — and `OUTPUT_FORMAT` is checked
//! to be x86-64 ELF; the rest of the tree is kept in [`ScriptFile`] for `resolve::scripts`,
//! which applies it once resolution is done.
//!
//! [`resolve_script_path`] and [`resolve_script`] turn names into paths the way lld does.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::input::library_search::{apply_sysroot, find_in_search_paths, find_library};

/// One thing an input script asks for, in script order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptEntry {
    /// A file name as written (quotes removed).
    File {
        /// The name as written; see [`resolve_script_path`].
        path: PathBuf,
        /// Inside `AS_NEEDED(...)`. When false the command line's `--as-needed` state applies.
        as_needed: bool,
        /// Index of the `GROUP(...)` within this script; `None` inside `INPUT(...)`.
        group: Option<u32>,
        /// 1-based line, for "unable to find" messages.
        line: u32,
    },
    /// `-lNAME` (`name` = `NAME`, or `:FILE` for `-l:FILE`).
    Library {
        /// What follows `-l`.
        name: String,
        /// Inside `AS_NEEDED(...)`.
        as_needed: bool,
        /// Index of the enclosing `GROUP(...)`.
        group: Option<u32>,
        /// 1-based line.
        line: u32,
    },
    /// `SEARCH_DIR(path)`: appended to the library search path (unless `-nostdlib`).
    SearchDir {
        /// The directory as written (`=DIR` is under the sysroot).
        path: PathBuf,
        /// 1-based line.
        line: u32,
    },
    /// `TARGET(binary)` or `TARGET(elf...)`: lld's `--format` for the files named after it,
    /// here and (lld keeps one format state) on the command line until the next `--format`.
    Target {
        /// `TARGET(binary)`.
        binary: bool,
    },
}

/// A linker script read as an input file or by `-T`: the files it names (in order) and the
/// whole tree, whose other commands (`ENTRY`, `VERSION`, symbol assignments, `SECTIONS`, ...)
/// the link applies after resolution.
#[derive(Clone, Debug)]
pub struct ScriptFile {
    /// The script's path as the link names it.
    pub path: PathBuf,
    /// `INPUT`, `GROUP`, `SEARCH_DIR` and `TARGET`, in script order.
    pub entries: Vec<ScriptEntry>,
    /// Everything the script says.
    pub script: crate::script::Script,
}

/// Reads a linker script with lld's parser (`crate::script`). `INCLUDE NAME` is looked up as
/// lld does: as written, then in each library search directory. The output format must be
/// x86-64 ELF, the only one weld writes.
pub fn read_script(text: &str, script_path: &Path, search_paths: &[PathBuf]) -> Result<ScriptFile> {
    let mut include = |name: &str| -> Result<Option<crate::script::Included>> {
        let found = std::iter::once(PathBuf::from(name))
            .chain(search_paths.iter().map(|d| d.join(name)))
            .find(|p| p.is_file());
        let Some(path) = found else {
            return Ok(None);
        };
        let text = crate::input::input_files::read_text(&path)?;
        Ok(Some(crate::script::Included { path, text }))
    };
    let script = crate::script::parse_with_includes(text, script_path, &mut include)?;
    let mut entries = Vec::new();
    let mut groups = 0u32;
    for c in &script.commands {
        use crate::script::ast::{Command, InputFile};
        let (files, loc, group) = match c {
            Command::Input(files, loc) => (files, loc, None),
            Command::Group(files, loc) => {
                groups += 1;
                (files, loc, Some(groups - 1))
            }
            Command::SearchDir(dir, loc) => {
                entries.push(ScriptEntry::SearchDir {
                    path: PathBuf::from(dir),
                    line: loc.line,
                });
                continue;
            }
            Command::OutputFormat { default, loc, .. } => {
                check_output_format(default, loc)?;
                continue;
            }
            // The parser accepts `binary` and names starting with `elf` only, as lld.
            Command::Target(name) => {
                entries.push(ScriptEntry::Target {
                    binary: name == "binary",
                });
                continue;
            }
            _ => continue,
        };
        for f in files {
            entries.push(match f {
                InputFile::File { path, as_needed } => ScriptEntry::File {
                    path: PathBuf::from(path),
                    as_needed: *as_needed,
                    group,
                    line: loc.line,
                },
                InputFile::Library { name, as_needed } => ScriptEntry::Library {
                    name: name.clone(),
                    as_needed: *as_needed,
                    group,
                    line: loc.line,
                },
            });
        }
    }
    Ok(ScriptFile {
        path: script_path.to_path_buf(),
        entries,
        script,
    })
}

/// Parses a script's input commands only (tests and tools).
pub fn parse_input_script(text: &str, script_path: &Path) -> Result<Vec<ScriptEntry>> {
    Ok(read_script(text, script_path, &[])?.entries)
}

/// `OUTPUT_FORMAT(name)` or `OUTPUT_FORMAT(default, big, little)`: weld writes x86-64 ELF or a
/// flat image (`binary`, applied by `crate::resolve::scripts`), and x86-64 is little-endian, so
/// the default name is the one that must fit. (The parser has already rejected names lld does
/// not know.)
fn check_output_format(name: &str, loc: &crate::script::lexer::Loc) -> Result<()> {
    if matches!(
        name,
        "elf64-x86-64" | "elf64-x86-64-freebsd" | "elf64-little" | "binary"
    ) {
        return Ok(());
    }
    Err(Error(format!(
        "{loc}: output format not supported yet: {name} (weld writes elf64-x86-64)"
    )))
}

/// Resolves a file name from a script as lld does:
/// 1. an absolute name in a script that lives under `--sysroot` is looked up under the sysroot
///    (error `cannot find NAME inside SYSROOT`);
/// 2. another absolute name is used as is;
/// 3. `=NAME` is relative to the sysroot;
/// 4. a relative name is tried in the script's directory, then in the current directory, then in
///    each library search directory (that is how `GROUP ( libgcc_s.so.1 -lgcc )` finds
///    `libgcc_s.so.1`); error `SCRIPT:LINE: unable to find NAME`.
pub fn resolve_script_path(
    name: &Path,
    line: u32,
    script_path: &Path,
    sysroot: Option<&Path>,
    search_paths: &[PathBuf],
    exists: &dyn Fn(&Path) -> bool,
) -> Result<PathBuf> {
    if name.is_absolute() {
        if let Some(root) = sysroot.filter(|r| is_under(script_path, r)) {
            let mut p = OsString::from(root.as_os_str());
            p.push(name.as_os_str());
            let p = PathBuf::from(p);
            if exists(&p) {
                return Ok(p);
            }
            return Err(Error(format!(
                "{}:{line}: cannot find {} inside {}",
                script_path.display(),
                name.display(),
                root.display()
            )));
        }
        return Ok(name.to_path_buf());
    }
    if let Some(s) = name.to_str().filter(|s| s.starts_with('=')) {
        return Ok(apply_sysroot(Path::new(s), sysroot));
    }
    if let Some(dir) = script_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let p = dir.join(name);
        if exists(&p) {
            return Ok(p);
        }
    }
    if exists(name) {
        return Ok(name.to_path_buf());
    }
    if let Some(p) = name
        .to_str()
        .and_then(|s| find_in_search_paths(s, search_paths, exists))
    {
        return Ok(p);
    }
    Err(Error(format!(
        "{}:{line}: unable to find {}",
        script_path.display(),
        name.display()
    )))
}

/// Whether `path` lies inside `root`: lexically, or once both are canonical (lld compares file
/// identities of the script's parent directories with the sysroot).
fn is_under(path: &Path, root: &Path) -> bool {
    if path.starts_with(root) {
        return true;
    }
    match (std::fs::canonicalize(path), std::fs::canonicalize(root)) {
        (Ok(p), Ok(r)) => p.starts_with(r),
        _ => false,
    }
}

/// An input a script resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptInput {
    /// The file to load.
    pub path: PathBuf,
    /// `AS_NEEDED(...)` in the script (OR it with the command line's `--as-needed`).
    pub as_needed: bool,
    /// Index of the `GROUP(...)` within the script.
    pub group: Option<u32>,
}

/// One step of reading a script's inputs, in script order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptStep {
    /// Load a file.
    Load(ScriptInput),
    /// `TARGET(...)`: set lld's `--format` state (`binary` or not) from here on.
    Format {
        /// `TARGET(binary)`.
        binary: bool,
    },
}

impl ScriptStep {
    /// The file to load, if this step loads one.
    pub fn into_input(self) -> Option<ScriptInput> {
        match self {
            ScriptStep::Load(i) => Some(i),
            ScriptStep::Format { .. } => None,
        }
    }
}

/// Where and how names in a script are looked up.
pub struct ScriptContext<'a> {
    /// The script's own path (its directory is searched first; named in errors).
    pub script_path: &'a Path,
    /// `--sysroot`.
    pub sysroot: Option<&'a Path>,
    /// The library search path; `SEARCH_DIR` appends to it (for the rest of the link, as lld).
    pub search_paths: &'a mut Vec<PathBuf>,
    /// `-Bstatic` in force where the script appeared (for `-l` inside it).
    pub link_static: bool,
    /// `-nostdlib`: `SEARCH_DIR` is ignored.
    pub nostdlib: bool,
}

/// Resolves every entry of a parsed script, in order.
pub fn resolve_script(
    entries: &[ScriptEntry],
    ctx: &mut ScriptContext<'_>,
    exists: &dyn Fn(&Path) -> bool,
) -> Result<Vec<ScriptStep>> {
    let mut out = Vec::new();
    for e in entries {
        match e {
            ScriptEntry::File {
                path,
                as_needed,
                group,
                line,
            } => out.push(ScriptStep::Load(ScriptInput {
                path: resolve_script_path(
                    path,
                    *line,
                    ctx.script_path,
                    ctx.sysroot,
                    ctx.search_paths,
                    exists,
                )?,
                as_needed: *as_needed,
                group: *group,
            })),
            ScriptEntry::Library {
                name,
                as_needed,
                group,
                ..
            } => out.push(ScriptStep::Load(ScriptInput {
                path: find_library(name, ctx.search_paths, ctx.link_static, exists)?,
                as_needed: *as_needed,
                group: *group,
            })),
            ScriptEntry::Target { binary } => out.push(ScriptStep::Format { binary: *binary }),
            ScriptEntry::SearchDir { path, .. } => {
                if !ctx.nostdlib {
                    ctx.search_paths.push(apply_sysroot(path, ctx.sysroot));
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn parse(text: &str) -> Result<Vec<ScriptEntry>> {
        parse_input_script(text, Path::new("s/t.so"))
    }

    fn file(path: &str, as_needed: bool, group: Option<u32>, line: u32) -> ScriptEntry {
        ScriptEntry::File {
            path: PathBuf::from(path),
            as_needed,
            group,
            line,
        }
    }

    fn lib(name: &str, as_needed: bool, group: Option<u32>, line: u32) -> ScriptEntry {
        ScriptEntry::Library {
            name: name.into(),
            as_needed,
            group,
            line,
        }
    }

    fn fake(files: &[&str]) -> impl Fn(&Path) -> bool {
        let set: HashSet<PathBuf> = files.iter().map(PathBuf::from).collect();
        move |p: &Path| set.contains(p)
    }

    const LIBC_SO: &str = "/* GNU ld script\n   Use the shared library, but some functions are only in\n   the static library, so try that secondarily.  */\nOUTPUT_FORMAT(elf64-x86-64)\nGROUP ( /lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libc_nonshared.a  AS_NEEDED ( /lib64/ld-linux-x86-64.so.2 ) )\n";

    #[test]
    fn glibc_libc_so() {
        let want = [
            file("/lib/x86_64-linux-gnu/libc.so.6", false, Some(0), 5),
            file(
                "/usr/lib/x86_64-linux-gnu/libc_nonshared.a",
                false,
                Some(0),
                5,
            ),
            file("/lib64/ld-linux-x86-64.so.2", true, Some(0), 5),
        ];
        assert_eq!(parse(LIBC_SO).unwrap(), want);
        // The real file on this machine, when present.
        let real = Path::new("/usr/lib/x86_64-linux-gnu/libc.so");
        if let Ok(text) = std::fs::read_to_string(real) {
            assert!(crate::input::input_files::looks_like_linker_script(
                text.as_bytes()
            ));
            let got = parse_input_script(&text, real).unwrap();
            assert_eq!(got.len(), 3);
            assert!(
                matches!(&got[2], ScriptEntry::File { as_needed: true, path, .. }
                if path.ends_with("ld-linux-x86-64.so.2"))
            );
        }
    }

    #[test]
    fn glibc_libm_so() {
        let text = "/* GNU ld script\n*/\nOUTPUT_FORMAT(elf64-x86-64)\nGROUP ( /lib/x86_64-linux-gnu/libm.so.6  AS_NEEDED ( /lib/x86_64-linux-gnu/libmvec.so.1 ) )\n";
        assert_eq!(
            parse(text).unwrap(),
            [
                file("/lib/x86_64-linux-gnu/libm.so.6", false, Some(0), 4),
                file("/lib/x86_64-linux-gnu/libmvec.so.1", true, Some(0), 4),
            ]
        );
        let real = Path::new("/usr/lib/x86_64-linux-gnu/libm.so");
        if let Ok(text) = std::fs::read_to_string(real) {
            let got = parse_input_script(&text, real).unwrap();
            assert!(matches!(
                &got[0],
                ScriptEntry::File {
                    as_needed: false,
                    group: Some(0),
                    ..
                }
            ));
        }
    }

    #[test]
    fn libgcc_s_so() {
        let text = "/* GNU ld script\n   Use the shared library, but some functions are only in\n   the static library.  */\nGROUP ( libgcc_s.so.1 -lgcc )\n";
        assert_eq!(
            parse(text).unwrap(),
            [
                file("libgcc_s.so.1", false, Some(0), 4),
                lib("gcc", false, Some(0), 4)
            ]
        );
        let real = Path::new("/usr/lib/gcc/x86_64-linux-gnu/12/libgcc_s.so");
        if let Ok(text) = std::fs::read_to_string(real) {
            let got = parse_input_script(&text, real).unwrap();
            assert_eq!(got.len(), 2);
            // Resolved as lld: not in the script's directory, not in cwd: the -L path.
            let search = vec![
                PathBuf::from("/usr/lib/gcc/x86_64-linux-gnu/12"),
                PathBuf::from("/lib/x86_64-linux-gnu"),
            ];
            let mut ctx = ScriptContext {
                script_path: real,
                sysroot: None,
                search_paths: &mut search.clone(),
                link_static: false,
                nostdlib: false,
            };
            let got: Vec<ScriptInput> = resolve_script(&got, &mut ctx, &|p: &Path| p.exists())
                .unwrap()
                .into_iter()
                .filter_map(ScriptStep::into_input)
                .collect();
            assert_eq!(
                got[0].path,
                PathBuf::from("/lib/x86_64-linux-gnu/libgcc_s.so.1")
            );
            assert!(got[1].path.ends_with("libgcc.a"));
        }
    }

    #[test]
    fn other_debian_scripts() {
        // libcurses.so, libbsd.so, libtermcap.so.
        assert_eq!(
            parse("INPUT(libncurses.so.6 -ltinfo)").unwrap(),
            [
                file("libncurses.so.6", false, None, 1),
                lib("tinfo", false, None, 1)
            ]
        );
        assert_eq!(
            parse("OUTPUT_FORMAT(elf64-x86-64)\nGROUP(/usr/lib/x86_64-linux-gnu/libbsd.so.0.11.7 AS_NEEDED(-lmd))").unwrap(),
            [
                file("/usr/lib/x86_64-linux-gnu/libbsd.so.0.11.7", false, Some(0), 2),
                lib("md", true, Some(0), 2)
            ]
        );
        assert_eq!(
            parse("GROUP( libtinfo.so )").unwrap(),
            [file("libtinfo.so", false, Some(0), 1)]
        );
    }

    #[test]
    fn separators_comments_quotes_and_more() {
        let text = "# hash comment\nSEARCH_DIR(\"/opt/lib\") OUTPUT_ARCH(i386:x86-64);\n\
                    INPUT(a.o, \"b c.o\",-l:x.a) ; GROUP(d.o) GROUP(\"AS_NEEDED\")\n\
                    OUTPUT_FORMAT(\"elf64-x86-64\", \"elf64-x86-64\", \"elf64-x86-64\")";
        assert_eq!(
            parse(text).unwrap(),
            [
                ScriptEntry::SearchDir {
                    path: "/opt/lib".into(),
                    line: 2
                },
                file("a.o", false, None, 3),
                file("b c.o", false, None, 3),
                lib(":x.a", false, None, 3),
                file("d.o", false, Some(0), 3),
                file("AS_NEEDED", false, Some(1), 3),
            ]
        );
        assert_eq!(
            parse("INPUT(caf\u{e9}.o /* \u{e9} */ \u{e9}t\u{e9}/x.a)").unwrap(),
            [
                file("caf\u{e9}.o", false, None, 1),
                file("\u{e9}t\u{e9}/x.a", false, None, 1)
            ]
        );
        assert_eq!(parse("").unwrap(), []);
        assert_eq!(parse("INPUT()").unwrap(), []);
    }

    #[test]
    fn errors_in_lld_format() {
        let e = |t: &str| parse(t).unwrap_err().0;
        assert_eq!(
            e("/* x */\nFOO(bar)\n"),
            "s/t.so:2: unknown directive: FOO\n>>> FOO(bar)\n>>> ^"
        );
        assert_eq!(
            e("OUTPUT_FORMAT(bogus)"),
            "s/t.so:1: unknown output format name: bogus\n>>> OUTPUT_FORMAT(bogus)\n>>>                    ^"
        );
        assert!(e("OUTPUT_FORMAT(elf32-i386)")
            .starts_with("s/t.so:1: output format not supported yet: elf32-i386"));
        // Commands beyond the inputs parse here; the link applies (or refuses) them later.
        for ok in [
            "SECTIONS { .text : { *(.text) } }",
            "\nENTRY(main)",
            "foo = 1;",
        ] {
            assert!(parse(ok).is_ok(), "{ok}");
        }
        assert!(e("INPUT(\"a b\n").starts_with("s/t.so:1: unclosed quote"));
        assert!(e("INPUT(a /* b\n").starts_with("s/t.so:1: unclosed comment in a linker script"));
        assert!(e("GROUP ( a.o").starts_with("s/t.so:1: unexpected EOF"));
        assert!(e("GROUP a.o )").starts_with("s/t.so:1: ( expected, but got a.o"));
        assert!(e("INPUT(GROUP(x))").starts_with("s/t.so:1: unknown directive: )"));
        assert!(e("AS_NEEDED(x)").starts_with("s/t.so:1: unknown directive: AS_NEEDED"));
    }

    #[test]
    fn resolution_order() {
        let none: &[PathBuf] = &[];
        let search = [PathBuf::from("/L1"), PathBuf::from("/L2")];
        let script = Path::new("/usr/lib/libx.so");
        // Script directory first, then cwd, then search paths.
        let fs = fake(&["/usr/lib/a.so.1", "a.so.1", "/L2/a.so.1"]);
        assert_eq!(
            resolve_script_path(Path::new("a.so.1"), 1, script, None, &search, &fs).unwrap(),
            PathBuf::from("/usr/lib/a.so.1")
        );
        let fs = fake(&["a.so.1", "/L2/a.so.1"]);
        assert_eq!(
            resolve_script_path(Path::new("a.so.1"), 1, script, None, &search, &fs).unwrap(),
            PathBuf::from("a.so.1")
        );
        let fs = fake(&["/L2/a.so.1"]);
        assert_eq!(
            resolve_script_path(Path::new("a.so.1"), 1, script, None, &search, &fs).unwrap(),
            PathBuf::from("/L2/a.so.1")
        );
        assert_eq!(
            resolve_script_path(Path::new("a.so.1"), 7, script, None, none, &fs)
                .unwrap_err()
                .0,
            "/usr/lib/libx.so:7: unable to find a.so.1"
        );
        // Absolute names: as is, unless the script is inside the sysroot.
        let fs = fake(&["/sr/lib/libc.so.6"]);
        assert_eq!(
            resolve_script_path(
                Path::new("/lib/libc.so.6"),
                1,
                script,
                Some(Path::new("/sr")),
                none,
                &fs
            )
            .unwrap(),
            PathBuf::from("/lib/libc.so.6")
        );
        let inside = Path::new("/sr/usr/lib/libc.so");
        assert_eq!(
            resolve_script_path(
                Path::new("/lib/libc.so.6"),
                1,
                inside,
                Some(Path::new("/sr")),
                none,
                &fs
            )
            .unwrap(),
            PathBuf::from("/sr/lib/libc.so.6")
        );
        assert_eq!(
            resolve_script_path(
                Path::new("/lib/nosuch"),
                3,
                inside,
                Some(Path::new("/sr")),
                none,
                &fs
            )
            .unwrap_err()
            .0,
            "/sr/usr/lib/libc.so:3: cannot find /lib/nosuch inside /sr"
        );
        // `=` is relative to the sysroot.
        assert_eq!(
            resolve_script_path(
                Path::new("=/lib/x.o"),
                1,
                script,
                Some(Path::new("/sr")),
                none,
                &fs
            )
            .unwrap(),
            PathBuf::from("/sr/lib/x.o")
        );
    }

    #[test]
    fn resolve_whole_script() {
        let entries = parse("SEARCH_DIR(=/extra) GROUP(libfoo.so.1 AS_NEEDED(-lbar))").unwrap();
        let fs = fake(&[
            "/sr/extra/libbar.a",
            "/L/libfoo.so.1",
            "/sr/extra/libbar.so",
        ]);
        let mut search = vec![PathBuf::from("/L")];
        let mut ctx = ScriptContext {
            script_path: Path::new("/x/libfoo.so"),
            sysroot: Some(Path::new("/sr")),
            search_paths: &mut search,
            link_static: true,
            nostdlib: false,
        };
        let got = resolve_script(&entries, &mut ctx, &fs).unwrap();
        assert_eq!(
            got,
            [
                ScriptStep::Load(ScriptInput {
                    path: "/L/libfoo.so.1".into(),
                    as_needed: false,
                    group: Some(0)
                }),
                ScriptStep::Load(ScriptInput {
                    path: "/sr/extra/libbar.a".into(),
                    as_needed: true,
                    group: Some(0)
                }),
            ]
        );
        assert_eq!(search, [PathBuf::from("/L"), PathBuf::from("/sr/extra")]);
        // -nostdlib ignores SEARCH_DIR.
        let mut search = vec![PathBuf::from("/L")];
        let mut ctx = ScriptContext {
            script_path: Path::new("/x/libfoo.so"),
            sysroot: None,
            search_paths: &mut search,
            link_static: false,
            nostdlib: true,
        };
        assert_eq!(
            resolve_script(&entries, &mut ctx, &fs).unwrap_err().0,
            "unable to find library -lbar"
        );
    }

    #[test]
    fn target_switches_format_between_inputs() {
        let entries = parse("TARGET(binary) INPUT(a) TARGET(elf64-x86-64) INPUT(b)").unwrap();
        let mut search = Vec::new();
        let mut ctx = ScriptContext {
            script_path: Path::new("t.lds"),
            sysroot: None,
            search_paths: &mut search,
            link_static: false,
            nostdlib: false,
        };
        let load = |p: &str| {
            ScriptStep::Load(ScriptInput {
                path: p.into(),
                as_needed: false,
                group: None,
            })
        };
        assert_eq!(
            resolve_script(&entries, &mut ctx, &fake(&["a", "b"])).unwrap(),
            [
                ScriptStep::Format { binary: true },
                load("a"),
                ScriptStep::Format { binary: false },
                load("b"),
            ]
        );
    }

    #[test]
    fn truncated_scripts_never_panic() {
        let texts = [
            LIBC_SO,
            "SEARCH_DIR(\"/a\") INPUT(a, -lb) OUTPUT_FORMAT(elf64-x86-64, x, y) # c\n GROUP(\u{e9})",
        ];
        for text in texts {
            for (i, _) in text.char_indices() {
                let _ = parse(&text[..i]);
                let _ = parse(&text[i..]);
            }
        }
    }
}
