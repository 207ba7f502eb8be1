//! TEMPORARY stub.
use crate::error::Result;
use std::path::{Path, PathBuf};
pub fn find_library(
    name: &str,
    dirs: &[PathBuf],
    link_static: bool,
    _sysroot: Option<&Path>,
) -> Result<PathBuf> {
    for d in dirs {
        if let Some(f) = name.strip_prefix(':') {
            let p = d.join(f);
            if p.exists() {
                return Ok(p);
            }
            continue;
        }
        if !link_static {
            let p = d.join(format!("lib{name}.so"));
            if p.exists() {
                return Ok(p);
            }
        }
        let p = d.join(format!("lib{name}.a"));
        if p.exists() {
            return Ok(p);
        }
    }
    Err(crate::err!("unable to find library -l{name}"))
}
