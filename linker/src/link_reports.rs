//! Files a link writes about itself, in lld's formats: `--why-extract` (which archive members
//! were loaded, for which symbol), `--print-archive-stats` (members and extractions per
//! archive) and `--dependency-file` (a Makefile rule naming every input the link read).

use std::path::Path;

use crate::config::Config;
use crate::err;
use crate::error::Error;
use crate::resolve::{LazySource, Resolved};

/// Writes `text` to `path`, or to standard output for `-`.
fn write_report(path: &Path, text: &str) -> Result<(), Error> {
    if path.as_os_str() == "-" {
        print!("{text}");
        return Ok(());
    }
    std::fs::write(path, text).map_err(|e| {
        err!(
            "cannot open {}: {}",
            path.display(),
            crate::input_files::io_reason(&e)
        )
    })
}

/// `--why-extract=FILE`: lld's tab-separated format.
pub fn write_why_extract(path: &Path, res: &Resolved) -> Result<(), Error> {
    let mut s = String::from("reference\textracted\tsymbol\n");
    for e in &res.extractions {
        s.push_str(&format!("{}\t{}\t{}\n", e.reference, e.extracted, e.symbol));
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
    let lists = config
        .dynamic_lists
        .iter()
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
    std::fs::write(path, s).map_err(|e| {
        err!(
            "cannot open {}: {}",
            path.display(),
            crate::input_files::io_reason(&e)
        )
    })
}
