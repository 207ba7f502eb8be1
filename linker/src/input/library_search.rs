//! `-lNAME` lookup, as lld does it: each search directory in command-line order, and within one
//! directory `libNAME.so` (unless `-Bstatic` is in force) before `libNAME.a`, before moving to the
//! next directory. There are no built-in directories: compiler drivers pass every `-L`.
//! `-l:FILE` looks for exactly `FILE`.
//!
//! The lookups take an `exists` predicate so they can be tested without a file system; the
//! `*_fs` wrappers use the real one.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::bail;
use crate::error::Result;

/// Resolves a `-l` argument (`"foo"` or `":libfoo.a"`) against `search_paths`.
/// Error as lld: `unable to find library -lfoo`.
pub fn find_library(
    name: &str,
    search_paths: &[PathBuf],
    link_static: bool,
    exists: &dyn Fn(&Path) -> bool,
) -> Result<PathBuf> {
    if let Some(file) = name.strip_prefix(':') {
        if let Some(p) = find_in_search_paths(file, search_paths, exists) {
            return Ok(p);
        }
    } else {
        for dir in search_paths {
            if !link_static {
                let so = dir.join(format!("lib{name}.so"));
                if exists(&so) {
                    return Ok(so);
                }
            }
            let a = dir.join(format!("lib{name}.a"));
            if exists(&a) {
                return Ok(a);
            }
        }
    }
    bail!("unable to find library -l{name}")
}

/// [`find_library`] on the real file system.
pub fn find_library_fs(name: &str, search_paths: &[PathBuf], link_static: bool) -> Result<PathBuf> {
    find_library(name, search_paths, link_static, &|p: &Path| p.exists())
}

/// The first `DIR/file` that exists, over the search directories in order (used by `-l:FILE` and
/// by bare file names in linker scripts).
pub fn find_in_search_paths(
    file: &str,
    search_paths: &[PathBuf],
    exists: &dyn Fn(&Path) -> bool,
) -> Option<PathBuf> {
    search_paths
        .iter()
        .map(|dir| dir.join(file))
        .find(|p| exists(p))
}

/// lld's `searchScript`, for `--version-script` and linker scripts: the path as given if it
/// exists, otherwise the first search directory that has it.
pub fn find_script(path: &Path, search_paths: &[PathBuf]) -> Option<PathBuf> {
    if path.exists() {
        return Some(path.to_path_buf());
    }
    let name = path.to_str()?;
    find_in_search_paths(name, search_paths, &|p: &Path| p.exists())
}

/// A search directory with its sysroot prefix applied: `=DIR` and `$SYSROOT/DIR` (GNU ld's two
/// spellings) mean `DIR` under `--sysroot`, or plain `DIR` when there is no sysroot. Other
/// directories are returned unchanged.
pub fn apply_sysroot(dir: &Path, sysroot: Option<&Path>) -> PathBuf {
    let Some(s) = dir.to_str() else {
        return dir.to_path_buf();
    };
    let rest = if let Some(r) = s.strip_prefix('=') {
        r
    } else if let Some(r) = s.strip_prefix("$SYSROOT") {
        if !(r.is_empty() || r.starts_with('/')) {
            return dir.to_path_buf();
        }
        r
    } else {
        return dir.to_path_buf();
    };
    match sysroot {
        // String concatenation, not `join`: `join` would drop the sysroot for an absolute `rest`.
        Some(root) => {
            let mut p = OsString::from(root.as_os_str());
            if !rest.is_empty() && !rest.starts_with('/') {
                p.push("/");
            }
            p.push(rest);
            PathBuf::from(p)
        }
        None => PathBuf::from(rest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn fake(files: &[&str]) -> impl Fn(&Path) -> bool {
        let set: HashSet<PathBuf> = files.iter().map(PathBuf::from).collect();
        move |p: &Path| set.contains(p)
    }

    fn dirs(d: &[&str]) -> Vec<PathBuf> {
        d.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn so_before_a_in_the_same_dir_then_next_dir() {
        let fs = fake(&["/a/libfoo.a", "/b/libfoo.so", "/a/libbar.so", "/a/libbar.a"]);
        let paths = dirs(&["/a", "/b"]);
        assert_eq!(
            find_library("foo", &paths, false, &fs).unwrap(),
            PathBuf::from("/a/libfoo.a")
        );
        assert_eq!(
            find_library("bar", &paths, false, &fs).unwrap(),
            PathBuf::from("/a/libbar.so")
        );
        assert_eq!(
            find_library("bar", &paths, true, &fs).unwrap(),
            PathBuf::from("/a/libbar.a")
        );
        // -Bstatic never picks a .so.
        let fs = fake(&["/b/libonlyso.so"]);
        assert_eq!(
            find_library("onlyso", &paths, true, &fs).unwrap_err().0,
            "unable to find library -lonlyso"
        );
    }

    #[test]
    fn empty_archives_without_so_are_found_under_bdynamic() {
        // libpthread.a and friends have no .so: -Bdynamic -lpthread must fall back to the .a.
        let fs = fake(&["/usr/lib/x86_64-linux-gnu/libpthread.a"]);
        let paths = dirs(&["/usr/lib/x86_64-linux-gnu"]);
        assert_eq!(
            find_library("pthread", &paths, false, &fs).unwrap(),
            PathBuf::from("/usr/lib/x86_64-linux-gnu/libpthread.a")
        );
    }

    #[test]
    fn colon_form_looks_for_the_exact_name() {
        let fs = fake(&["/b/libc.so.6", "/a/crt1.o"]);
        let paths = dirs(&["/a", "/b"]);
        assert_eq!(
            find_library(":libc.so.6", &paths, true, &fs).unwrap(),
            PathBuf::from("/b/libc.so.6")
        );
        assert_eq!(
            find_library(":crt1.o", &paths, false, &fs).unwrap(),
            PathBuf::from("/a/crt1.o")
        );
        assert_eq!(
            find_library(":nosuch.a", &paths, false, &fs).unwrap_err().0,
            "unable to find library -l:nosuch.a"
        );
    }

    #[test]
    fn no_builtin_directories() {
        let fs = fake(&["/usr/lib/libc.so"]);
        assert_eq!(
            find_library("c", &[], false, &fs).unwrap_err().0,
            "unable to find library -lc"
        );
    }

    #[test]
    fn sysroot_prefixes() {
        let sr = Some(Path::new("/sr"));
        assert_eq!(
            apply_sysroot(Path::new("=/usr/lib"), sr),
            PathBuf::from("/sr/usr/lib")
        );
        assert_eq!(
            apply_sysroot(Path::new("$SYSROOT/lib"), sr),
            PathBuf::from("/sr/lib")
        );
        assert_eq!(
            apply_sysroot(Path::new("=lib"), sr),
            PathBuf::from("/sr/lib")
        );
        assert_eq!(apply_sysroot(Path::new("="), sr), PathBuf::from("/sr"));
        assert_eq!(
            apply_sysroot(Path::new("/usr/lib"), sr),
            PathBuf::from("/usr/lib")
        );
        assert_eq!(
            apply_sysroot(Path::new("$SYSROOTX"), sr),
            PathBuf::from("$SYSROOTX")
        );
        assert_eq!(
            apply_sysroot(Path::new("=/usr/lib"), None),
            PathBuf::from("/usr/lib")
        );
    }

    #[test]
    fn real_file_system() {
        let d = std::env::temp_dir().join(format!("weld-libsearch-{}", std::process::id()));
        let (a, b) = (d.join("a"), d.join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(b.join("libx.so"), b"").unwrap();
        std::fs::write(b.join("libx.a"), b"!<arch>\n").unwrap();
        let paths = vec![a.clone(), b.clone()];
        assert_eq!(
            find_library_fs("x", &paths, false).unwrap(),
            b.join("libx.so")
        );
        assert_eq!(
            find_library_fs("x", &paths, true).unwrap(),
            b.join("libx.a")
        );
        assert!(find_library_fs("y", &paths, false).is_err());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn this_machine_libc() {
        // The gcc line's search path finds glibc's libc.so (a linker script) and libpthread.a.
        let paths = dirs(&[
            "/usr/lib/gcc/x86_64-linux-gnu/12",
            "/usr/lib/x86_64-linux-gnu",
        ]);
        if Path::new("/usr/lib/x86_64-linux-gnu/libc.so").exists() {
            assert_eq!(
                find_library_fs("c", &paths, false).unwrap(),
                PathBuf::from("/usr/lib/x86_64-linux-gnu/libc.so")
            );
            assert_eq!(
                find_library_fs("c", &paths, true).unwrap(),
                PathBuf::from("/usr/lib/x86_64-linux-gnu/libc.a")
            );
        }
    }
}
