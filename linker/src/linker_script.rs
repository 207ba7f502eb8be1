//! TEMPORARY stub.
use crate::error::Result;
use std::path::{Path, PathBuf};
pub enum ScriptEntry {
    File { path: PathBuf, as_needed: bool },
    Library { name: String, as_needed: bool },
    SearchDir(PathBuf),
}
pub fn looks_like_linker_script(data: &[u8]) -> bool {
    std::str::from_utf8(data).is_ok()
}
pub fn parse_input_script(text: &str, _p: &Path) -> Result<Vec<ScriptEntry>> {
    let mut v = Vec::new();
    let mut text = text.to_string();
    while let Some(a) = text.find("/*") {
        let b = text[a..]
            .find("*/")
            .map(|x| a + x + 2)
            .unwrap_or(text.len());
        text.replace_range(a..b, " ");
    }
    let t = text.replace(['(', ')', ','], " ");
    let mut an = false;
    for w in t.split_whitespace() {
        match w {
            "GROUP" | "INPUT" | "OUTPUT_FORMAT" => {}
            "AS_NEEDED" => an = true,
            _ if w.starts_with("-l") => v.push(ScriptEntry::Library {
                name: w[2..].into(),
                as_needed: an,
            }),
            _ if w.starts_with('/') => v.push(ScriptEntry::File {
                path: w.into(),
                as_needed: an,
            }),
            _ => {}
        }
    }
    Ok(v)
}
pub fn resolve_script_path(
    p: &Path,
    _script: &Path,
    _dirs: &[PathBuf],
    _s: Option<&Path>,
) -> Result<PathBuf> {
    Ok(p.to_path_buf())
}
