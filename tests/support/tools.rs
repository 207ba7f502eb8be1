//! The external programs the tests drive, and the two linkers compared.

use crate::paths;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub const CLANG: &str = "clang-22";
pub const CLANGXX: &str = "clang++-22";
pub const GCC: &str = "gcc";
pub const GXX: &str = "g++";
pub const LLD: &str = "ld.lld-22";
pub const READELF: &str = "llvm-readelf-22";
pub const OBJDUMP: &str = "llvm-objdump-22";
pub const DWARFDUMP: &str = "llvm-dwarfdump-22";
pub const AR: &str = "ar";

/// Finds `name` on `$PATH`; a missing tool is an error naming `scripts/setup`.
pub fn find(name: &str) -> Result<PathBuf, String> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return if is_executable(&p) {
            Ok(p)
        } else {
            Err(format!("{name} is missing or not executable"))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let p = dir.join(name);
        if is_executable(&p) {
            return Ok(p);
        }
    }
    Err(format!(
        "required tool `{name}` not found on PATH; run scripts/setup (a missing tool is a failure, not a skip)"
    ))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The binary under test: `$WELD` if set (absolute, relative to the workspace root, or a name on
/// `$PATH`), else `<target>/release/weld`.
pub fn weld() -> Result<PathBuf, String> {
    static WELD: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    WELD.get_or_init(|| match std::env::var_os("WELD") {
        Some(w) if !w.is_empty() => {
            let w = PathBuf::from(w);
            let p = if w.is_absolute() {
                w.clone()
            } else if w.components().count() > 1 {
                paths::workspace_root().join(&w)
            } else {
                find(&w.to_string_lossy()).map_err(|e| format!("WELD={}: {e}", w.display()))?
            };
            if is_executable(&p) {
                Ok(p)
            } else {
                Err(format!(
                    "WELD={} but {} does not exist or is not executable",
                    w.display(),
                    p.display()
                ))
            }
        }
        _ => {
            let p = paths::target_dir().join("release").join("weld");
            if is_executable(&p) {
                Ok(p)
            } else {
                Err(format!(
                    "the weld binary {} does not exist: run `cargo build --release -p weld` \
                     (or set WELD=/path/to/linker)",
                    p.display()
                ))
            }
        }
    })
    .clone()
}

/// The reference linker, ld.lld-22.
pub fn lld() -> Result<PathBuf, String> {
    find(LLD)
}

/// The name a linker prints before `error:` in its diagnostics. weld always prints `weld`; when
/// an lld stands in for weld (`WELD=/usr/bin/ld.lld-22` while developing the harness), lld prints
/// the file name it was invoked by.
pub fn diag_name(linker: &Path) -> String {
    let name = linker
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.starts_with("ld.lld") {
        name
    } else {
        "weld".to_string()
    }
}

/// One of the two linkers compared by the tests.
#[derive(Debug, Clone)]
pub struct Linker {
    /// `weld` or `lld`: used in work-directory and output file names.
    pub label: &'static str,
    pub path: PathBuf,
}

impl Linker {
    pub fn weld() -> Result<Linker, String> {
        Ok(Linker {
            label: "weld",
            path: weld()?,
        })
    }
    pub fn lld() -> Result<Linker, String> {
        Ok(Linker {
            label: "lld",
            path: lld()?,
        })
    }

    /// A directory holding only `ld` -> this linker, for `gcc -B DIR`. Made once per process.
    pub fn gcc_bin_dir(&self) -> Result<PathBuf, String> {
        static DIRS: OnceLock<std::sync::Mutex<Vec<(PathBuf, PathBuf)>>> = OnceLock::new();
        let dirs = DIRS.get_or_init(Default::default);
        let mut dirs = dirs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, d)) = dirs.iter().find(|(p, _)| *p == self.path) {
            return Ok(d.clone());
        }
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(&self.path, &mut h);
        let dir = paths::work_root().join(".bin").join(format!(
            "{}-{:016x}",
            self.label,
            std::hash::Hasher::finish(&h)
        ));
        // Made under a private name and renamed into place, so concurrent test processes
        // never see a missing or half-made link.
        let tmp = dir.join(format!("ld.tmp-{}", std::process::id()));
        symlink_fresh(&self.path, &tmp)?;
        std::fs::rename(&tmp, dir.join("ld"))
            .map_err(|e| format!("cannot rename {}: {e}", tmp.display()))?;
        dirs.push((self.path.clone(), dir.clone()));
        Ok(dir)
    }
}

/// Creates (or replaces) the symlink `link` -> `target`.
pub fn symlink_fresh(target: &Path, link: &Path) -> Result<(), String> {
    if let Some(p) = link.parent() {
        std::fs::create_dir_all(p).map_err(|e| format!("cannot create {}: {e}", p.display()))?;
    }
    let _ = std::fs::remove_file(link);
    std::os::unix::fs::symlink(target, link).map_err(|e| {
        format!(
            "cannot symlink {} -> {}: {e}",
            link.display(),
            target.display()
        )
    })
}

/// Feeds the identity of tool `path` (canonical path, size, modification time) to `h`, so that
/// build caches notice a changed compiler.
pub fn hash_tool_identity(path: PathBuf, h: &mut impl std::hash::Hasher) {
    use std::hash::Hash;
    let p = std::fs::canonicalize(&path).unwrap_or(path);
    p.hash(h);
    if let Ok(m) = std::fs::metadata(&p) {
        m.len().hash(h);
        m.modified().ok().hash(h);
    }
}
