//! Things the LTO tests build or fetch once and keep under `target/weld-tests/`: the sources of
//! a crates.io crate (fetched with cargo itself), and a weld built without LLVM.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use weld_tests::{paths, run};

/// The cargo running the tests (`$CARGO`), else `cargo` on `PATH`.
pub fn cargo() -> Result<PathBuf, String> {
    match std::env::var_os("CARGO") {
        Some(c) if !c.is_empty() => Ok(PathBuf::from(c)),
        _ => weld_tests::tools::find("cargo"),
    }
}

/// The unpacked sources of crates.io's `name` at exactly `version`, copied to
/// `target/weld-tests/.crates/<name>-<version>/` on first use and reused afterwards.
///
/// Fetched the way cargo fetches any dependency: a throwaway package depending on the crate,
/// `cargo fetch`, and `cargo metadata` to find where cargo unpacked it.
pub fn crate_sources(name: &str, version: &str) -> Result<PathBuf, String> {
    static LOCK: Mutex<()> = Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let root = paths::work_root().join(".crates");
    let dest = root.join(format!("{name}-{version}"));
    if dest.join(".complete").exists() {
        return Ok(dest);
    }
    let fetch = root.join(format!("fetch-{name}-{version}"));
    paths::fresh_dir(&fetch)?;
    paths::write(
        &fetch.join("Cargo.toml"),
        format!(
            "[package]\nname = \"fetch-sources\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[dependencies]\n{name} = \"={version}\"\n\n\
             # Not a member of the weld workspace that contains the target directory.\n\
             [workspace]\n"
        ),
    )?;
    paths::write(&fetch.join("src").join("lib.rs"), "")?;
    let manifest = fetch.join("Cargo.toml");
    let mut cmd = Command::new(cargo()?);
    cmd.current_dir(&fetch)
        .arg("fetch")
        .arg("--manifest-path")
        .arg(&manifest);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("cargo fetch of {name} {version}"))?;
    let mut cmd = Command::new(cargo()?);
    cmd.current_dir(&fetch)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(&manifest);
    let meta = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("cargo metadata")?;
    let src = manifest_dir_of(&meta.stdout_str(), name, version)?;
    let tmp = root.join(format!(".tmp-{name}-{version}-{}", std::process::id()));
    paths::fresh_dir(&tmp)?;
    copy_tree(&src, &tmp)?;
    paths::write(&tmp.join(".complete"), src.display().to_string())?;
    if dest.exists() {
        std::fs::remove_dir_all(&dest)
            .map_err(|e| format!("cannot remove {}: {e}", dest.display()))?;
    }
    std::fs::rename(&tmp, &dest)
        .map_err(|e| format!("cannot rename to {}: {e}", dest.display()))?;
    let _ = std::fs::remove_dir_all(&fetch);
    Ok(dest)
}

/// The directory of the `<name>-<version>/Cargo.toml` that `cargo metadata` names.
fn manifest_dir_of(metadata: &str, name: &str, version: &str) -> Result<PathBuf, String> {
    let key = "\"manifest_path\":\"";
    let want = format!("/{name}-{version}/Cargo.toml");
    let mut rest = metadata;
    while let Some(i) = rest.find(key) {
        rest = &rest[i + key.len()..];
        let end = rest.find('"').ok_or("unterminated manifest_path")?;
        let path = &rest[..end];
        if path.ends_with(&want) {
            let dir = Path::new(path)
                .parent()
                .ok_or("manifest without a directory")?;
            return Ok(dir.to_path_buf());
        }
    }
    Err(format!(
        "cargo metadata names no {name}-{version}/Cargo.toml:\n{}",
        &metadata[..metadata.len().min(2000)]
    ))
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for e in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let e = e.map_err(|e| format!("{}: {e}", from.display()))?;
        let ty = e
            .file_type()
            .map_err(|e| format!("{}: {e}", from.display()))?;
        let target = to.join(e.file_name());
        if ty.is_dir() {
            copy_tree(&e.path(), &target)?;
        } else if ty.is_file() {
            std::fs::copy(e.path(), &target)
                .map_err(|err| format!("cannot copy {}: {err}", e.path().display()))?;
        }
    }
    Ok(())
}

/// weld built with `cargo build -p weld --no-default-features` (no LLVM), into a target directory
/// of its own under `target/weld-tests/` so that it never replaces the weld under test. Built
/// once per process; `$WELD_NO_LLVM` names a prebuilt one instead.
pub fn weld_without_llvm() -> Result<PathBuf, String> {
    static BIN: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(p) = std::env::var_os("WELD_NO_LLVM").filter(|p| !p.is_empty()) {
            let p = PathBuf::from(p);
            return if p.is_file() {
                Ok(p)
            } else {
                Err(format!("WELD_NO_LLVM={} does not exist", p.display()))
            };
        }
        let target = paths::work_root().join(".weld-no-llvm");
        let mut cmd = Command::new(cargo()?);
        cmd.current_dir(paths::workspace_root())
            .args([
                "build",
                "-p",
                "weld",
                "--no-default-features",
                "--manifest-path",
            ])
            .arg(paths::workspace_root().join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", &target)
            // Only the binary matters: no debug info, no incremental state (faster, smaller).
            .env("CARGO_PROFILE_DEV_DEBUG", "0")
            .env("CARGO_INCREMENTAL", "0");
        run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("cargo build -p weld --no-default-features")?;
        let bin = target.join("debug").join("weld");
        if bin.is_file() {
            Ok(bin)
        } else {
            Err(format!("the build wrote no {}", bin.display()))
        }
    })
    .clone()
}
