//! Where things are: the workspace, its target directory, the corpus, the work directories.

use std::path::{Path, PathBuf};

/// The workspace root (the parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests crate has a parent directory")
        .to_path_buf()
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` if set, else `<workspace>/target`.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) if !d.is_empty() => {
            let d = PathBuf::from(d);
            if d.is_absolute() {
                d
            } else {
                workspace_root().join(d)
            }
        }
        _ => workspace_root().join("target"),
    }
}

/// Root of all work directories kept for inspection: `<target>/weld-tests`.
pub fn work_root() -> PathBuf {
    target_dir().join("weld-tests")
}

/// `testdata/corpus` in the workspace.
pub fn corpus_dir() -> PathBuf {
    workspace_root().join("testdata").join("corpus")
}

/// Creates `dir` afresh (removing whatever a previous run left there).
pub fn fresh_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)
            .map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

/// Writes a file, creating parent directories.
/// A file's bytes, or a message naming it.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(|e| format!("cannot create {}: {e}", p.display()))?;
    }
    std::fs::write(path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Feeds the name and contents of every file directly in `dir` (sorted by name) to `h`: the part
/// of a build cache key that changes when a test case's sources do.
pub fn hash_dir_files(dir: &Path, h: &mut impl std::hash::Hasher) -> Result<(), String> {
    use std::hash::Hash;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    for f in files {
        f.file_name().hash(h);
        std::fs::read(&f)
            .map_err(|e| format!("cannot read {}: {e}", f.display()))?
            .hash(h);
    }
    Ok(())
}
