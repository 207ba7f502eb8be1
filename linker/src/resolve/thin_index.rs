//! Distributed ThinLTO's names and the files lld writes for bitcode that does not join the
//! link (`--thinlto-index-only`, `--thinlto-emit-index-files`). The index files themselves are
//! LLVM's to write (`lto::ThinIndexFiles`); what is decided here is what a distributed build
//! sees of the inputs: each module's id, which names its files (`lib.a(m.o at 90).thinlto.bc`),
//! and the empty index file of each bitcode input that nothing extracted.

use std::collections::HashSet;
use std::path::Path;

use crate::config::{Config, ThinLtoIndexOptions};
use crate::error::{Error, Result};
use crate::resolve::{LazySource, Resolved};

/// Where an archive member's bitcode came from, for its module id.
#[derive(Clone, Copy)]
pub struct MemberOrigin<'a> {
    pub archive: &'a Path,
    pub name: &'a [u8],
    pub header_offset: u64,
}

/// LTO's id for a bitcode module weld shows as `display`. weld names a module as it names the
/// file (`lib.a(m.o)`), but when index files are written the id names them, and a distributed
/// build looks for lld's names: a member is `ARCHIVE(FILE at OFFSET)` (the header's offset
/// keeps two members of the same name apart), and in index-only mode
/// `--thinlto-object-suffix-replace` rewrites the file's own name first. DTLTO takes lld's
/// names too: LLVM names the file it writes for a member after the id, and the job file the
/// distributor receives should be lld's.
pub fn module_id(config: &Config, display: &str, member: Option<MemberOrigin<'_>>) -> String {
    let t = &config.lto.thin_index;
    if !t.emit_index_files && !config.lto.dtlto.enabled() {
        return display.to_string();
    }
    match member {
        None => t.replace_object_suffix(display),
        Some(m) => {
            let name = t.replace_object_suffix(&String::from_utf8_lossy(m.name));
            let file = Path::new(&name)
                .file_name()
                .map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned());
            format!("{}({file} at {})", m.archive.display(), m.header_offset)
        }
    }
}

/// Distributed ThinLTO's index files as the options ask LTO for them (`None`: none).
pub fn lto_index_files(config: &Config) -> Option<lto::ThinIndexFiles> {
    let t = &config.lto.thin_index;
    t.emit_index_files.then(|| lto::ThinIndexFiles {
        index_only: t.index_only,
        emit_imports_files: t.emit_imports_files,
        prefix_old: t.prefix_old.clone(),
        prefix_new: t.prefix_new.clone(),
        native_prefix: t.prefix_native.clone(),
        linked_objects_file: (!t.index_only_file.is_empty())
            .then(|| std::path::PathBuf::from(&t.index_only_file)),
    })
}

/// lld's `getThinLTOOutputFile`: `path` with a leading `old` replaced by `new`, and the
/// directory the result names created (lld only warns when it cannot be).
fn output_path(t: &ThinLtoIndexOptions, path: &str) -> String {
    if t.prefix_old.is_empty() && t.prefix_new.is_empty() {
        return path.to_string();
    }
    let out = match path.strip_prefix(t.prefix_old.as_str()) {
        Some(rest) => format!("{}{rest}", t.prefix_new),
        None => path.to_string(),
    };
    if let Some(dir) = Path::new(&out)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        if let Err(e) = std::fs::create_dir_all(dir) {
            crate::error::print_diagnostic(
                "warning",
                &format!(
                    "could not create directory '{}': {}",
                    dir.display(),
                    crate::input::input_files::io_reason(&e)
                ),
            );
        }
    }
    out
}

/// The module ids of the bitcode inputs that did not join the link: archive members and
/// `--start-lib` objects nothing extracted, and members `--gc-archive-members` left out
/// (`linked` holds the ids of the modules LTO was given).
pub fn unlinked_bitcode(config: &Config, res: &Resolved, linked: &HashSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for a in &res.archives {
        match &a.source {
            LazySource::Object(data) => {
                let id = module_id(config, &a.path.display().to_string(), None);
                if is_bitcode(config, data) && !linked.contains(&id) {
                    out.push(id);
                }
            }
            LazySource::Archive(archive) => {
                for m in archive.members().flatten() {
                    // A thin member's bytes live in a file of its own (one that cannot be read
                    // never joined the link either: nothing to say about it).
                    let data = match m.bytes() {
                        Some(b) => Some(b),
                        None => m
                            .thin_path(&a.path)
                            .and_then(|p| crate::input::input_files::map_file(&p).ok()),
                    };
                    if !data.is_some_and(|d| is_bitcode(config, d)) {
                        continue;
                    }
                    let origin = MemberOrigin {
                        archive: &a.path,
                        name: m.name,
                        header_offset: m.header_offset,
                    };
                    let display = archive::display_name(&a.path, m.name);
                    let id = module_id(config, &display, Some(origin));
                    if !linked.contains(&id) {
                        out.push(id);
                    }
                }
            }
        }
    }
    out
}

/// Whether an input would take part in LTO if it joined the link: bitcode, or with
/// `--fat-lto-objects` an object carrying `.llvm.lto` bitcode (lld makes a lazy bitcode file
/// of it).
fn is_bitcode(config: &Config, data: &'static [u8]) -> bool {
    use crate::input::input_files::{classify, FileKind, ObjectFile};
    match classify(data) {
        FileKind::Bitcode => true,
        FileKind::ElfRelocatable if config.lto.fat_lto_objects => {
            ObjectFile::parse_for_resolution(String::new(), None, data)
                .is_ok_and(|f| f.sections.iter().any(|s| s.name == b".llvm.lto"))
        }
        _ => false,
    }
}

/// What lld writes for each bitcode input that did not join the link, so a distributed build
/// finds a file for every input: an index that tells the backend to skip the module, and with
/// `--thinlto-emit-imports-files` an empty imports file.
pub fn write_unlinked_index_files(config: &Config, ids: &[String]) -> Result<()> {
    let t = &config.lto.thin_index;
    for id in ids {
        // lld applies the suffix replacement to the output path too.
        let path = t.replace_object_suffix(&output_path(t, id));
        let index = format!("{path}.thinlto.bc");
        lto::write_empty_thin_index(Path::new(&index)).map_err(Error)?;
        if t.emit_imports_files {
            create_empty(&format!("{path}.imports"))?;
        }
    }
    Ok(())
}

/// `--thinlto-index-only=FILE`: the list is created (empty) as LTO is set up, bitcode or not,
/// as lld does; LLVM's index writer then fills it. Creating it here reports a bad path in lld's
/// words, before any work is done.
pub fn create_linked_objects_file(config: &Config) -> Result<()> {
    let t = &config.lto.thin_index;
    if t.index_only && !t.index_only_file.is_empty() {
        create_empty(&t.index_only_file)?;
    }
    Ok(())
}

fn create_empty(path: &str) -> Result<()> {
    std::fs::File::create(path).map(|_| ()).map_err(|e| {
        crate::err!(
            "cannot open {path}: {}",
            crate::input::input_files::io_reason(&e)
        )
    })
}
