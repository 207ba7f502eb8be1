//! The command line: response files, `-flavor`, then one walk over the arguments that hands each
//! option to its handler in `options::OPTIONS` and each file to the input list with the positional
//! state in force. What every option means lives in that table, not here.
//!
//! Order of work, as lld: syntax errors (unknown option, missing value) first; then `--help` and
//! `--version`, which print and stop without looking at anything else; then every handler in
//! command-line order; then the checks that need the whole line (`-r` with `-shared`, ...).

use std::path::{Path, PathBuf};

use crate::cli::options::{self, Match, Status};
use crate::cli::parse_state::ParseState;
use crate::config::{Compression, Config, InputKind, OutputKind, DEFAULT_PAGE_SIZE};
use crate::error::{Error, Result};
use crate::input::library_search::apply_sysroot;
use crate::{bail, err};

/// What `--version` and `-v` print.
pub const VERSION_LINE: &str = concat!(
    "weld ",
    env!("CARGO_PKG_VERSION"),
    " (compatible with GNU linkers)"
);

/// The outcome of parsing a command line.
#[derive(Debug)]
pub struct ParsedArgs {
    /// Text for stdout, printed first (`--help`, `--version`, `-v`); ends with a newline.
    pub print: Option<String>,
    /// The link to run; `None` means: print, then exit 0 without linking.
    pub config: Option<Config>,
    /// Warnings found while parsing (e.g. `unknown -z value: foo`), to be reported as
    /// `weld: warning: ...` (or as errors under `--fatal-warnings`).
    pub warnings: Vec<String>,
}

/// One command-line item after matching.
enum Item {
    /// An option, with the command-line arguments it took (for `--reproduce`).
    Opt(Match, Vec<String>),
    Input(String),
}

/// Parses a full command line. `argv[0]` is the program name and is ignored: weld behaves the same
/// under any name (`weld`, `ld.weld`, `ld`, `ld.lld`).
pub fn parse_args(argv: &[String]) -> Result<ParsedArgs> {
    parse_args_all(argv).map_err(|mut errors| errors.swap_remove(0))
}

/// What `parse_args` has read before the whole-command-line checks.
enum Parsed {
    /// `--help`, `--version` and the like: nothing left to check.
    Done(ParsedArgs),
    /// The options and inputs read, and whether any input file was named.
    Read(ParseState, bool),
}

/// `parse_args` with every error of the options that conflict with one another, in lld's
/// order (lld reports them all before giving up); other errors come one at a time.
pub fn parse_args_all(argv: &[String]) -> std::result::Result<ParsedArgs, Vec<Error>> {
    let (st, any_file) = match read_args(argv).map_err(|e| vec![e])? {
        Parsed::Done(p) => return Ok(p),
        Parsed::Read(st, any_file) => (st, any_file),
    };
    // lld checks the combinations last, after what `finish` checks (no input files, bad
    // values), which therefore comes first.
    let conflicts = option_conflicts(&st);
    let parsed = finish(st, any_file).map_err(|e| vec![e])?;
    // `-v` alone only prints the version: nothing is linked, nothing conflicts.
    if conflicts.is_empty() || parsed.config.is_none() {
        Ok(parsed)
    } else {
        Err(conflicts)
    }
}

/// The options that may not be used together, as lld checks them.
fn option_conflicts(st: &ParseState) -> Vec<Error> {
    let c = &st.config;
    let mut errors = Vec::new();
    if st.shared && c.pie {
        errors.push(err!("-shared and -pie may not be used together"));
    }
    if st.relocatable {
        if st.shared {
            errors.push(err!("-r and -shared may not be used together"));
        }
        if c.gdb_index {
            errors.push(err!("-r and --gdb-index may not be used together"));
        }
        if c.icf != crate::config::IcfLevel::None {
            errors.push(err!("-r and --icf may not be used together"));
        }
        if c.pie {
            errors.push(err!("-r and -pie may not be used together"));
        }
        // lld: `-shared` exports dynamic symbols whatever `--no-export-dynamic` says.
        if c.export_dynamic || st.shared {
            errors.push(err!("-r and --export-dynamic may not be used together"));
        }
        if c.debug_names {
            errors.push(err!("-r and --debug-names may not be used together"));
        }
        if !c.z.section_header {
            errors.push(err!("-r and -z nosectionheader may not be used together"));
        }
    }
    errors
}

/// Reads the command line's options and inputs (see `parse_args`).
fn read_args(argv: &[String]) -> Result<Parsed> {
    let mut args: &[String] = argv.get(1..).unwrap_or(&[]);
    // rustc (linker-flavor ld.lld) passes `-flavor gnu` first, as lld's multiplexer expects.
    if args.first().map(String::as_str) == Some("-flavor") {
        let flavor = args
            .get(1)
            .ok_or_else(|| err!("-flavor: missing argument"))?;
        check_flavor(flavor)?;
        args = &args[2..];
    }
    let args = expand_response_files(args)?;

    let mut items = Vec::with_capacity(args.len());
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a.len() > 1 && a.starts_with('-') {
            let m = options::match_option(&args, i)?;
            let tokens = args[i..i + m.consumed].to_vec();
            i += m.consumed;
            items.push(Item::Opt(m, tokens));
        } else {
            items.push(Item::Input(a.clone()));
            i += 1;
        }
    }

    let has = |f: fn(&options::OptionDef) -> bool| {
        items
            .iter()
            .any(|it| matches!(it, Item::Opt(m, _) if f(m.def)))
    };
    if has(options::OptionDef::is_help) {
        return Ok(Parsed::Done(print_only(print_help())));
    }
    if has(options::OptionDef::is_version) {
        return Ok(Parsed::Done(print_only(format!("{VERSION_LINE}\n"))));
    }

    let mut st = ParseState::new();
    let mut any_file = false;
    for item in items {
        match item {
            Item::Opt(m, tokens) => {
                if m.def.status == Status::NotYet {
                    return Err(options::not_yet(&m.spelling));
                }
                st.config
                    .reproduce_args
                    .extend(reproduce_option(&m, &tokens));
                st.spelling = m.spelling;
                st.arg_text = m.text;
                (m.def.handler)(&mut st, m.value.as_deref())?;
            }
            Item::Input(path) => {
                // An `@file` left here is a response file that could not be read: lld keeps it
                // as an input name and fails to open it.
                if path.starts_with('@') && !Path::new(&path).exists() {
                    bail!("cannot open {path}: No such file or directory");
                }
                any_file = true;
                st.config
                    .reproduce_args
                    .push(reproduce_path(Path::new(&path)));
                st.add_input(InputKind::Path(PathBuf::from(path)));
            }
        }
    }
    Ok(Parsed::Read(st, any_file))
}

fn print_only(text: String) -> ParsedArgs {
    ParsedArgs {
        print: Some(text),
        config: None,
        warnings: Vec::new(),
    }
}

fn check_flavor(flavor: &str) -> Result<()> {
    match flavor {
        "gnu" | "ld" | "ld.lld" => Ok(()),
        "wasm" | "wasm-ld" | "link" | "lld-link" | "darwin" | "ld64" | "ld64.lld" => {
            bail!("flavor '{flavor}' is not supported: weld is an ELF linker")
        }
        _ => bail!("Unknown flavor: {flavor}"),
    }
}

/// What `--save-temps=` accepts (lld's list): LLVM's stages, and `prelink` for the native
/// objects LTO produced.
const SAVE_TEMPS_STAGES: &[&str] = &[
    "resolution",
    "preopt",
    "promote",
    "internalize",
    "import",
    "opt",
    "precodegen",
    "prelink",
    "combinedindex",
];

/// The checks and derivations that need the whole command line.
/// lld's reading of the distributed ThinLTO options: `OLD;NEW` values split at the first `;`
/// (the prefix's third part, the native object prefix, is everything after the second), and
/// the combinations it refuses, in its words and order.
fn thinlto_index_options(
    t: &mut crate::config::ThinLtoIndexOptions,
    prefix_replace: Option<&(String, String)>,
    object_suffix_replace: Option<&(String, String)>,
) -> Result<()> {
    // `--thinlto-index-only` implies writing the index files.
    t.emit_index_files |= t.index_only;
    let split = |(spelling, v): &(String, String)| -> Result<(String, String)> {
        match v.split_once(';') {
            Some((old, new)) => Ok((old.to_string(), new.to_string())),
            None => bail!("{spelling} expects 'old;new' format, but got {v}"),
        }
    };
    if let Some(arg) = object_suffix_replace {
        t.object_suffix_replace = Some(split(arg)?);
    }
    if let Some(arg) = prefix_replace {
        let (old, rest) = split(arg)?;
        let (new, native) = rest.split_once(';').unwrap_or((&rest, ""));
        t.prefix_old = old;
        t.prefix_new = new.to_string();
        t.prefix_native = native.to_string();
    }
    if t.emit_index_files && !t.index_only {
        if object_suffix_replace.is_some() {
            bail!(
                "--thinlto-object-suffix-replace is not supported with --thinlto-emit-index-files"
            );
        }
        if prefix_replace.is_some() {
            bail!("--thinlto-prefix-replace is not supported with --thinlto-emit-index-files");
        }
    }
    if !t.prefix_native.is_empty() && t.index_only_file.is_empty() {
        bail!(
            "--thinlto-prefix-replace=old_dir;new_dir;obj_dir must be used with \
             --thinlto-index-only="
        );
    }
    Ok(())
}

fn finish(mut st: ParseState, any_file: bool) -> Result<ParsedArgs> {
    thinlto_index_options(
        &mut st.config.lto.thin_index,
        st.thinlto_prefix_replace.as_deref(),
        st.thinlto_object_suffix_replace.as_deref(),
    )?;
    let c = &mut st.config;
    if c.split_stack_adjust_size < 0 {
        bail!("--split-stack-adjust-size: size must be >= 0");
    }
    // lld: without section headers there is no symbol table either.
    if !c.z.section_header {
        c.strip = crate::config::Strip::All;
    }
    // lld: the relocations would name symbols of a table that is not written.
    if c.emit_relocs && c.strip == crate::config::Strip::All {
        bail!("--strip-all and --emit-relocs may not be used together");
    }
    if st.relocatable {
        // lld: a relocatable output never links against shared objects, whatever -Bdynamic says.
        c.is_static = true;
        for input in &mut c.inputs {
            input.state.link_static = true;
        }
    }
    c.output_kind = if st.relocatable {
        OutputKind::Relocatable
    } else if st.shared {
        OutputKind::SharedObject
    } else {
        OutputKind::Executable
    };
    // `-L=DIR` and `-L$SYSROOT/DIR` are relative to --sysroot wherever --sysroot appears.
    let sysroot = c.sysroot.clone();
    for dir in &mut c.search_paths {
        *dir = apply_sysroot(dir, sysroot.as_deref());
    }
    if c.paging_disabled() {
        // lld: without pages there is nothing for RELRO to protect, and page sizes other than
        // the default are worth a warning.
        c.z.relro = false;
        for (name, v) in [
            ("max-page-size", c.z.max_page_size),
            ("common-page-size", c.z.common_page_size),
        ] {
            if v.is_some_and(|v| v != DEFAULT_PAGE_SIZE) {
                st.warnings.push(format!(
                    "-z {name} set, but paging disabled by omagic or nmagic"
                ));
            }
        }
    }
    if let (Some(base), Some(text)) = (c.image_base, &st.image_base_text) {
        if base % c.max_page_size() != 0 {
            st.warnings.push(format!(
                "--image-base: address isn't multiple of page size: {text}"
            ));
        }
    }
    // lld's checks of the balanced-partitioning options, in its order.
    if c.call_graph_ordering_file.is_some() {
        if c.bp.function_compression || c.bp.data_compression {
            bail!("--bp-compression-sort is incompatible with --call-graph-ordering-file");
        }
        if c.bp.startup_functions {
            bail!("--bp-startup-sort=function is incompatible with --call-graph-ordering-file");
        }
    }
    if c.irpgo_profile.is_none() {
        if c.bp.startup_functions {
            bail!("--bp-startup-sort=function must be used with --irpgo-profile");
        }
        if c.bp.compression_sort_startup_functions {
            bail!("--bp-compression-sort-startup-functions must be used with --irpgo-profile");
        }
    }
    if st.ifunc_noplt {
        if c.z.text {
            bail!("-z text and -z ifunc-noplt may not be used together");
        }
        c.z.ifunc_noplt = true;
    }
    // lld's target is either the retpoline one or the IBT one, never both.
    if c.z.retpolineplt && c.z.force_ibt {
        bail!("-z force-ibt may not be used with -z retpolineplt");
    }
    // `--oformat`: lld knows `binary` and takes any name starting with `elf` for ELF.
    match st.oformat.as_deref() {
        None => {}
        Some("binary") => c.oformat_binary = true,
        Some(f) if f.starts_with("elf") => c.oformat_binary = false,
        Some(other) => bail!("unknown --oformat value: {other}"),
    }
    if let Some(v) = &st.compress_debug_sections {
        // GNU ld's name for the gABI format, which is what zlib means to lld (a weld extension:
        // lld rejects it; mold's tests use it).
        let v = if v == "zlib-gabi" { "zlib" } else { v.as_str() };
        // mold's `zlib:LEVEL`/`zstd:LEVEL` (lld knows no level here: a weld extension).
        let (kind, level) = match v.split_once(':') {
            Some((kind @ ("zlib" | "zstd"), level)) if level.parse::<i64>().is_ok() => {
                let (lo, hi) = if kind == "zlib" { (0, 9) } else { (1, 22) };
                let n = crate::cli::option_values::parse_int(level)
                    .filter(|n| (lo..=hi).contains(n))
                    .ok_or_else(|| {
                        err!(
                            "--compress-debug-sections: {kind} level must be between {lo} and {hi}"
                        )
                    })?;
                (kind, n as u32)
            }
            _ => (v, 0),
        };
        c.compress_debug_sections = Compression::from_name(kind)
            .ok_or_else(|| err!("unknown --compress-debug-sections value: {v}"))?;
        c.compress_debug_level = level;
    }
    if !c.lto.save_temps && !st.save_temps_stages.is_empty() {
        for v in &st.save_temps_stages {
            if !SAVE_TEMPS_STAGES.contains(&v.as_str()) {
                bail!("unknown --save-temps value: {v}");
            }
            if !c.lto.save_temps_stages.contains(v) {
                c.lto.save_temps_stages.push(v.clone());
            }
        }
        c.lto.save_temps = true;
    }
    // lld reports undefined symbols as warnings under --noinhibit-exec.
    if c.noinhibit_exec {
        c.warn_unresolved_symbols = true;
    }
    // lld lets `-z pack-relative-relocs` win over `--pack-dyn-relocs=none`, wherever it is.
    if c.relr_glibc {
        c.pack_dyn_relocs_relr = true;
    }
    // lld says it once, naming the stack option when both are given.
    if !st.memtag_mode && (st.memtag_heap || st.memtag_stack) {
        let name = if st.memtag_stack { "stack" } else { "heap" };
        st.warnings.push(format!(
            "--android-memtag-mode is unspecified, leaving --android-memtag-{name} a no-op"
        ));
    }
    let print = st.print_version.then(|| format!("{VERSION_LINE}\n"));
    // As lld (and GNU ld): `-v` without input files only prints the version.
    if st.print_version && !any_file {
        return Ok(ParsedArgs {
            print,
            config: None,
            warnings: st.warnings,
        });
    }
    if st.config.inputs.is_empty() {
        bail!("no input files");
    }
    Ok(ParsedArgs {
        print,
        config: Some(st.config),
        warnings: st.warnings,
    })
}

/// The `--help` text: a usage line, every option with its help, and the `supported targets:` line
/// that libtool's configure checks look for.
pub fn print_help() -> String {
    format!(
        "OVERVIEW: weld, an ELF linker for x86-64 Linux (command-line compatible with ld.lld)\n\n\
         USAGE: weld [options] file...\n\n\
         OPTIONS:\n{}\n\
         weld: supported targets: elf64-x86-64 elf\n",
        crate::cli::option_docs::render_help_options()
    )
}

/// Replaces every `@file` argument by the arguments in `file`, recursively. An `@file` naming no
/// readable file stays as it is (lld's behaviour; it then fails as an input file name).
pub fn expand_response_files(args: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::with_capacity(args.len());
    let mut chain = Vec::new();
    expand_into(args, &mut out, &mut chain)?;
    Ok(out)
}

fn expand_into(args: &[String], out: &mut Vec<String>, chain: &mut Vec<PathBuf>) -> Result<()> {
    for a in args {
        let Some(file) = a.strip_prefix('@') else {
            out.push(a.clone());
            continue;
        };
        let path = Path::new(file);
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(_) => {
                out.push(a.clone());
                continue;
            }
        };
        let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| abs.clone());
        if chain.contains(&key) {
            bail!("recursive expansion of: '{}'", abs.display());
        }
        let text = decode_response_file(&bytes).map_err(|e| err!("{file}: {e}"))?;
        let tokens = tokenize_gnu(&text);
        chain.push(key);
        expand_into(&tokens, out, chain)?;
        chain.pop();
    }
    Ok(())
}

/// Response file bytes to text: UTF-8 (a BOM is dropped) or UTF-16 with a BOM, as LLVM accepts.
fn decode_response_file(bytes: &[u8]) -> std::result::Result<String, String> {
    let utf16 = |be: bool| {
        let units: Vec<u16> = bytes[2..]
            .chunks_exact(2)
            .map(|c| {
                if be {
                    u16::from_be_bytes([c[0], c[1]])
                } else {
                    u16::from_le_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16(&units).map_err(|_| "invalid UTF-16 in response file".to_string())
    };
    match bytes {
        [0xFF, 0xFE, ..] => utf16(false),
        [0xFE, 0xFF, ..] => utf16(true),
        _ => {
            let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            String::from_utf8(b.to_vec())
                .map_err(|_| "response file is not valid UTF-8".to_string())
        }
    }
}

/// Splits response-file text as GNU tools do (libiberty's `buildargv`, LLVM's
/// `TokenizeGNUCommandLine`): whitespace separates arguments, a backslash escapes the next
/// character anywhere (also inside quotes), single and double quotes group, and empty arguments
/// are dropped. This reads both gcc's one-per-line files and clang's `"arg" "arg"` files.
pub fn tokenize_gnu(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut tok = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n) => tok.push(n),
                None => tok.push('\\'),
            },
            '"' | '\'' => {
                while let Some(q) = chars.next() {
                    if q == c {
                        break;
                    }
                    if q == '\\' {
                        match chars.next() {
                            Some(n) => tok.push(n),
                            None => tok.push('\\'),
                        }
                    } else {
                        tok.push(q);
                    }
                }
            }
            // The ASCII blanks only, as LLVM and libiberty: other Unicode spaces are name bytes.
            ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' => {
                if !tok.is_empty() {
                    out.push(std::mem::take(&mut tok));
                }
            }
            c => tok.push(c),
        }
    }
    if !tok.is_empty() {
        out.push(tok);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The command line `--reproduce` replays

/// Options whose value names a file or directory: `--reproduce` rewrites it to the copy in the
/// archive.
const PATH_OPTIONS: &[&str] = &[
    "-L",
    "--version-script",
    "--dynamic-list",
    "--export-dynamic-symbol-list",
    "--retain-symbols-file",
    "--script",
    "-T",
    "--just-symbols",
    "--symbol-ordering-file",
    "--call-graph-ordering-file",
];

/// A path as `--reproduce` stores it: absolute, without `.` and `..`, and without the leading
/// `/` (the archive's root stands for `/`).
pub fn reproduce_path(path: &Path) -> String {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut parts: Vec<String> = Vec::new();
    for c in abs.components() {
        match c {
            std::path::Component::Normal(n) => parts.push(n.to_string_lossy().into_owned()),
            std::path::Component::ParentDir => {
                parts.pop();
            }
            _ => {}
        }
    }
    parts.join("/")
}

/// The response-file line(s) of one option for `--reproduce`: path values rewritten, the
/// option itself dropped, everything else as given.
fn reproduce_option(m: &Match, tokens: &[String]) -> Vec<String> {
    let name = m.def.name();
    if name == "--reproduce" {
        return Vec::new();
    }
    match &m.value {
        // The output goes next to the response file when replayed.
        Some(v) if m.def.names.contains(&"-o") => {
            let file = Path::new(v)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned());
            vec![format!("-o {}", quote(&file.unwrap_or_else(|| v.clone())))]
        }
        // lld stores the sample profile in the archive too, under its canonical spelling.
        Some(v)
            if !v.is_empty()
                && (name == "--lto-sample-profile=" || name == "--plugin-opt=sample-profile=") =>
        {
            vec![format!(
                "--lto-sample-profile={}",
                quote(&reproduce_path(Path::new(v)))
            )]
        }
        Some(v) if m.def.names.iter().any(|n| PATH_OPTIONS.contains(n)) => {
            vec![format!(
                "{} {}",
                m.spelling,
                quote(&reproduce_path(Path::new(v)))
            )]
        }
        _ => vec![tokens
            .iter()
            .map(|t| quote(t))
            .collect::<Vec<_>>()
            .join(" ")],
    }
}

/// Quotes an argument for a response file when it has spaces or quotes.
fn quote(s: &str) -> String {
    if s.contains([' ', '"', '\\'][..].as_ref()) {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::options::OPTIONS;
    use crate::config::{BuildId, Discard, HashStyle, Strip};

    fn words(s: &str) -> Vec<String> {
        std::iter::once("weld".to_string())
            .chain(s.split_whitespace().map(str::to_string))
            .collect()
    }

    fn parse(s: &str) -> Result<ParsedArgs> {
        parse_args(&words(s))
    }

    fn config(s: &str) -> Config {
        match parse(s) {
            Ok(p) => p.config.expect("a link"),
            Err(e) => panic!("{s}: {e}"),
        }
    }

    fn error(s: &str) -> String {
        match parse(s) {
            Ok(_) => panic!("{s}: expected an error"),
            Err(e) => e.0,
        }
    }

    const GCC: &str = "/usr/lib/gcc/x86_64-linux-gnu/12";
    const GCC_L: &str = "-L/usr/lib/gcc/x86_64-linux-gnu/12 \
        -L/usr/lib/gcc/x86_64-linux-gnu/12/../../../x86_64-linux-gnu \
        -L/usr/lib/gcc/x86_64-linux-gnu/12/../../../../lib -L/lib/x86_64-linux-gnu -L/lib/../lib \
        -L/usr/lib/x86_64-linux-gnu -L/usr/lib/../lib -L/usr/lib/gcc/x86_64-linux-gnu/12/../../..";
    const CLANG_L: &str = "-L/usr/lib/gcc/x86_64-linux-gnu/12 \
        -L/usr/lib/gcc/x86_64-linux-gnu/12/../../../../lib64 -L/lib/x86_64-linux-gnu \
        -L/lib/../lib64 -L/usr/lib/x86_64-linux-gnu -L/usr/lib64 -L/lib -L/usr/lib";

    fn gcc_plugin(libs: &str) -> String {
        let pass: String = libs
            .split_whitespace()
            .map(|l| format!("-plugin-opt=-pass-through={l} "))
            .collect();
        format!(
            "-plugin {GCC}/liblto_plugin.so -plugin-opt={GCC}/lto-wrapper \
             -plugin-opt=-fresolution=/tmp/ccf7s4QZ.res {pass}"
        )
    }

    /// The inputs as (what, as_needed, link_static, whole_archive, group) for compact checks.
    fn inputs(c: &Config) -> Vec<(String, bool, bool, bool, Option<u32>)> {
        c.inputs
            .iter()
            .map(|i| {
                let what = match &i.kind {
                    InputKind::Path(p) => p.display().to_string(),
                    InputKind::Library(l) => format!("-l{l}"),
                    InputKind::JustSymbols(p) => format!("--just-symbols={}", p.display()),
                    InputKind::Script(p) => format!("-T {}", p.display()),
                };
                (
                    what,
                    i.state.as_needed,
                    i.state.link_static,
                    i.state.whole_archive,
                    i.group,
                )
            })
            .collect()
    }

    fn names(c: &Config) -> Vec<String> {
        inputs(c).into_iter().map(|i| i.0).collect()
    }

    fn lib_state(c: &Config, lib: &str) -> Vec<(bool, bool, bool, Option<u32>)> {
        inputs(c)
            .into_iter()
            .filter(|i| i.0 == lib)
            .map(|i| (i.1, i.2, i.3, i.4))
            .collect()
    }

    #[test]
    fn gcc_default_pie() {
        let line = format!(
            "{}--build-id --eh-frame-hdr -m elf_x86_64 --hash-style=gnu --as-needed \
             -dynamic-linker /lib64/ld-linux-x86-64.so.2 -pie -o out \
             {GCC}/../../../x86_64-linux-gnu/Scrt1.o {GCC}/../../../x86_64-linux-gnu/crti.o \
             {GCC}/crtbeginS.o {GCC_L} a.o -lgcc --push-state --as-needed -lgcc_s --pop-state -lc \
             -lgcc --push-state --as-needed -lgcc_s --pop-state {GCC}/crtendS.o \
             {GCC}/../../../x86_64-linux-gnu/crtn.o",
            gcc_plugin("-lgcc -lgcc_s -lc -lgcc -lgcc_s")
        );
        let c = config(&line);
        assert_eq!(c.output, PathBuf::from("out"));
        assert_eq!(c.output_kind, OutputKind::Executable);
        assert!(c.pie && !c.is_static && c.eh_frame_hdr);
        assert_eq!(c.build_id, BuildId::Sha1);
        assert_eq!(c.hash_style, HashStyle::Gnu);
        assert_eq!(
            c.dynamic_linker.as_deref(),
            Some("/lib64/ld-linux-x86-64.so.2")
        );
        assert_eq!(c.search_paths.len(), 8);
        assert_eq!(c.search_paths[0], PathBuf::from(GCC));
        assert!(c.lto.llvm_args.is_empty(), "gcc plugin options are ignored");
        assert_eq!(
            names(&c),
            [
                &format!("{GCC}/../../../x86_64-linux-gnu/Scrt1.o"),
                &format!("{GCC}/../../../x86_64-linux-gnu/crti.o"),
                &format!("{GCC}/crtbeginS.o"),
                "a.o",
                "-lgcc",
                "-lgcc_s",
                "-lc",
                "-lgcc",
                "-lgcc_s",
                &format!("{GCC}/crtendS.o"),
                &format!("{GCC}/../../../x86_64-linux-gnu/crtn.o"),
            ]
        );
        // gcc passes --as-needed globally: everything after it is as-needed, and the
        // push/pop pairs restore it.
        assert!(c.inputs.iter().all(|i| i.state.as_needed));
        assert!(c
            .inputs
            .iter()
            .all(|i| !i.state.link_static && i.group.is_none()));
    }

    #[test]
    fn format_is_positional_and_outside_push_state() {
        let c = config(
            "a.o -b binary b.bin --format=binary c.bin --push-state -b default --pop-state d.o \
             --format binary --push-state --pop-state e.bin -b elf f.o",
        );
        let binary: Vec<(String, bool, u32)> = c
            .inputs
            .iter()
            .map(|i| match &i.kind {
                InputKind::Path(p) => (
                    p.display().to_string(),
                    i.state.format_binary,
                    i.state.format_options,
                ),
                other => panic!("{other:?}"),
            })
            .collect();
        let want = [
            ("a.o", false, 0),
            ("b.bin", true, 1),
            ("c.bin", true, 2),
            // lld's --pop-state leaves --format as it is.
            ("d.o", false, 3),
            ("e.bin", true, 4),
            ("f.o", false, 5),
        ];
        assert_eq!(binary, want.map(|(p, b, n)| (p.to_string(), b, n)).to_vec());
        assert_eq!(
            error("a.o -b coff b.o"),
            "unknown --format value: coff (supported formats: elf, default, binary)"
        );
    }

    #[test]
    fn gcc_variants() {
        let tail = format!("{GCC_L} a.o -lgcc --push-state --as-needed -lgcc_s --pop-state -lc");
        let plug = gcc_plugin("-lgcc -lgcc_s -lc");
        let common = "--build-id --eh-frame-hdr -m elf_x86_64 --hash-style=gnu --as-needed";

        let c = config(&format!(
            "{plug}{common} -dynamic-linker /lib64/ld-linux-x86-64.so.2 -o out crt1.o {tail}"
        ));
        assert!(!c.pie && c.output_kind == OutputKind::Executable);

        let c = config(&format!(
            "{plug}--build-id -m elf_x86_64 --hash-style=gnu --as-needed -static -o out crt1.o \
             crti.o crtbeginT.o {GCC_L} a.o --start-group -lgcc -lgcc_eh -lc --end-group \
             crtend.o crtn.o"
        ));
        assert!(c.is_static && !c.pie && !c.eh_frame_hdr && c.dynamic_linker.is_none());
        assert_eq!(lib_state(&c, "-lgcc_eh"), [(true, true, false, Some(0))]);
        assert_eq!(lib_state(&c, "crtend.o"), [(true, true, false, None)]);
        assert_eq!(lib_state(&c, "a.o"), [(true, true, false, None)]);

        let c = config(&format!(
            "{plug}{common} -static -pie --no-dynamic-linker -z text -pie -o out rcrt1.o crti.o \
             crtbeginS.o {GCC_L} a.o --start-group -lgcc -lgcc_eh -lc --end-group crtendS.o crtn.o"
        ));
        assert!(c.is_static && c.pie && c.no_dynamic_linker && c.z.text);
        assert!(c.is_pic() && c.image_base() == 0);

        let c = config(&format!(
            "{plug}{common} -shared -o out crti.o crtbeginS.o {tail} crtendS.o crtn.o"
        ));
        assert_eq!(c.output_kind, OutputKind::SharedObject);
        assert!(!c.pie && c.is_pic());

        let c = config(&format!(
            "{plug}--eh-frame-hdr -m elf_x86_64 --hash-style=gnu --as-needed \
             -dynamic-linker /lib64/ld-linux-x86-64.so.2 -o out -r {GCC_L} a.o"
        ));
        assert_eq!(c.output_kind, OutputKind::Relocatable);
        assert_eq!(names(&c), ["a.o"]);

        // g++: the C++ libraries.
        let c = config(&format!(
            "{plug}{common} -dynamic-linker /lib64/ld-linux-x86-64.so.2 -pie -o out Scrt1.o \
             {GCC_L} a.o -lstdc++ -lm -lgcc_s -lgcc -lc -lgcc_s -lgcc crtendS.o crtn.o"
        ));
        assert_eq!(
            names(&c)[2..9],
            ["-lstdc++", "-lm", "-lgcc_s", "-lgcc", "-lc", "-lgcc_s", "-lgcc"]
        );
    }

    #[test]
    fn clang_lines() {
        let pre = "--hash-style=gnu --build-id --eh-frame-hdr -m elf_x86_64";
        let libs = "-lgcc --as-needed -lgcc_s --no-as-needed -lc -lgcc --as-needed -lgcc_s \
                    --no-as-needed";
        let c = config(&format!(
            "{pre} -pie -dynamic-linker /lib64/ld-linux-x86-64.so.2 -o out \
             /lib/x86_64-linux-gnu/Scrt1.o /lib/x86_64-linux-gnu/crti.o {GCC}/crtbeginS.o \
             {CLANG_L} a.o {libs} {GCC}/crtendS.o /lib/x86_64-linux-gnu/crtn.o"
        ));
        assert!(c.pie && c.eh_frame_hdr && c.build_id == BuildId::Sha1);
        assert_eq!(lib_state(&c, "-lgcc_s"), [(true, false, false, None); 2]);
        assert_eq!(lib_state(&c, "-lc"), [(false, false, false, None)]);
        assert_eq!(c.search_paths.len(), 8);

        // clang -static-pie: `-z text` as two arguments.
        let c = config(&format!(
            "{pre} -static -pie --no-dynamic-linker -z text -o out rcrt1.o {CLANG_L} a.o \
             --start-group -lgcc -lgcc_eh -lc --end-group crtendS.o"
        ));
        assert!(c.is_static && c.pie && c.no_dynamic_linker);
        assert_eq!(lib_state(&c, "-lc"), [(false, true, false, Some(0))]);

        // clang -r sends --build-id and puts -r after -L.
        let c = config(&format!("{pre} -o out {CLANG_L} -r a.o"));
        assert_eq!(c.output_kind, OutputKind::Relocatable);

        // clang -flto=thin with -fuse-ld=lld, then with another linker name (LLVMgold plugin).
        let lto = "-plugin-opt=mcpu=x86-64 -plugin-opt=O2 -plugin-opt=thinlto -plugin-opt=jobs=3";
        let c = config(&format!("{pre} -pie -o out {CLANG_L} {lto} a.o {libs}"));
        assert_eq!(c.lto.mcpu.as_deref(), Some("x86-64"));
        assert_eq!((c.lto.opt_level, c.lto.jobs), (2, Some(3)));
        let c = config(&format!(
            "{pre} -pie -o out {CLANG_L} -plugin /usr/lib/llvm-22/bin/../lib/LLVMgold.so {lto} \
             --thinlto-jobs=2 a.o {libs}"
        ));
        assert_eq!(c.lto.jobs, Some(2));
    }

    #[test]
    fn clang_asan() {
        let rt = "/usr/lib/llvm-22/lib/clang/22/lib/linux";
        let c = config(&format!(
            "--hash-style=gnu --build-id --eh-frame-hdr -m elf_x86_64 -pie \
             -dynamic-linker /lib64/ld-linux-x86-64.so.2 -o out Scrt1.o {CLANG_L} \
             --whole-archive {rt}/libclang_rt.asan_static-x86_64.a --no-whole-archive \
             --whole-archive {rt}/libclang_rt.asan-x86_64.a --no-whole-archive \
             --dynamic-list={rt}/libclang_rt.asan-x86_64.a.syms a.o --no-as-needed -lpthread \
             -lrt -lm -ldl -lresolv -lgcc --as-needed -lgcc_s --no-as-needed -lc"
        ));
        let wa: Vec<_> = inputs(&c)
            .into_iter()
            .filter(|i| i.3)
            .map(|i| i.0)
            .collect();
        assert_eq!(
            wa,
            [
                format!("{rt}/libclang_rt.asan_static-x86_64.a"),
                format!("{rt}/libclang_rt.asan-x86_64.a")
            ]
        );
        assert_eq!(
            c.dynamic_lists,
            [PathBuf::from(format!(
                "{rt}/libclang_rt.asan-x86_64.a.syms"
            ))]
        );
        assert_eq!(lib_state(&c, "-lresolv"), [(false, false, false, None)]);
    }

    #[test]
    fn rustc_lines() {
        let rl = "/root/.rustup/toolchains/stable/lib/rustlib/x86_64-unknown-linux-gnu/lib";
        let body = format!(
            "symbols.o r.rcgu.o --as-needed -Bstatic {rl}/libstd-1.rlib {rl}/libcore-2.rlib \
             -Bdynamic -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc --eh-frame-hdr -z noexecstack \
             -L {rl} -o out --gc-sections -pie -z relro -z now"
        );
        // rustc with linker-flavor ld.lld: `-flavor gnu` first.
        let c = config(&format!("-flavor gnu {body}"));
        assert!(c.gc_sections && c.pie && c.z.relro && c.z.now && !c.z.execstack);
        assert_eq!(c.search_paths, [PathBuf::from(rl)]);
        assert_eq!(
            lib_state(&c, &format!("{rl}/libstd-1.rlib")),
            [(true, true, false, None)]
        );
        assert_eq!(lib_state(&c, "-lpthread"), [(true, false, false, None)]);
        // Release: -O1 --strip-debug. cdylib: -shared --version-script --no-undefined-version.
        let c = config(&format!("{body} -O1 --strip-debug"));
        assert_eq!(c.strip, Strip::Debug);
        let cdylib = body.replace("-pie", "");
        let c = config(&format!(
            "-shared --version-script=/tmp/rustc/list --no-undefined-version {cdylib}"
        ));
        assert_eq!(c.output_kind, OutputKind::SharedObject);
        assert_eq!(c.version_scripts, [PathBuf::from("/tmp/rustc/list")]);
        assert!(c.no_undefined_version);
        // The same line through clang's driver has no -flavor and the gcc/clang prefix.
        let c = config(&format!(
            "--hash-style=gnu --build-id --eh-frame-hdr -m elf_x86_64 -pie \
             -dynamic-linker /lib64/ld-linux-x86-64.so.2 {body}"
        ));
        assert!(c.pie && c.gc_sections);
    }

    #[test]
    fn flavor_only_first() {
        assert_eq!(config("-flavor ld.lld a.o").output, PathBuf::from("a.out"));
        assert_eq!(error("-flavor foo a.o"), "Unknown flavor: foo");
        assert_eq!(error("a.o -flavor gnu"), "unknown argument '-flavor'");
        assert_eq!(error("-flavor"), "-flavor: missing argument");
    }

    #[test]
    fn version_and_help() {
        let p = parse("--hash-style=gnu a.o --version -lc").unwrap();
        assert_eq!(p.print.as_deref(), Some(&*format!("{VERSION_LINE}\n")));
        assert!(p.config.is_none());
        assert_eq!(VERSION_LINE, "weld 0.1.0 (compatible with GNU linkers)");
        // A NotYet option does not stop --version; an unknown one does (as lld).
        assert!(parse("-T x.ld --version").unwrap().config.is_none());
        assert_eq!(error("--version --foo"), "unknown argument '--foo'");

        let p = parse("--help").unwrap();
        let help = p.print.unwrap();
        assert!(help.contains("USAGE: weld [options] file..."));
        assert!(help.contains("--gc-sections"));
        assert!(help.contains("-z max-page-size=<value>"));
        assert!(help
            .lines()
            .any(|l| l.contains(": supported targets:") && l.contains(" elf")));
        assert!(p.config.is_none());

        // -v prints and links; without inputs it only prints.
        let p = parse("-v a.o").unwrap();
        assert!(p.print.is_some() && p.config.is_some());
        let p = parse("-v").unwrap();
        assert!(p.print.is_some() && p.config.is_none());
        let p = parse("-V -lfoo").unwrap();
        assert!(p.print.is_some() && p.config.is_none());
        assert_eq!(error(""), "no input files");
        assert_eq!(error("-o x --verbose"), "no input files");
    }

    #[test]
    fn push_pop_state() {
        let c = config(
            "--as-needed -Bstatic --whole-archive --push-state --no-as-needed -Bdynamic \
             --no-whole-archive a.o --pop-state b.o --push-state --push-state -static c.o \
             --pop-state d.o --pop-state e.o",
        );
        assert_eq!(
            inputs(&c),
            [
                ("a.o".into(), false, false, false, None),
                ("b.o".into(), true, true, true, None),
                ("c.o".into(), true, true, true, None),
                ("d.o".into(), true, true, true, None),
                ("e.o".into(), true, true, true, None),
            ]
        );
        assert!(
            !c.is_static,
            "--pop-state restores the static output state, as lld"
        );
        assert_eq!(
            error("a.o --pop-state"),
            "unbalanced --push-state/--pop-state"
        );
        // Unclosed --push-state is fine, as lld.
        config("--push-state a.o");
    }

    #[test]
    fn static_aliases() {
        for s in ["-Bstatic", "-dn", "-non_shared", "--Bstatic", "-static"] {
            let c = config(&format!("{s} -lfoo -Bdynamic -lbar"));
            assert_eq!(lib_state(&c, "-lfoo"), [(false, true, false, None)], "{s}");
            assert_eq!(lib_state(&c, "-lbar"), [(false, false, false, None)], "{s}");
            assert_eq!(c.is_static, s == "-static");
        }
        for s in ["-dy", "-call_shared", "--Bdynamic"] {
            let c = config(&format!("-Bstatic {s} -lfoo"));
            assert_eq!(lib_state(&c, "-lfoo"), [(false, false, false, None)], "{s}");
        }
    }

    #[test]
    fn groups() {
        let c = config("a.o --start-group -la -lb --end-group -( x.a -) c.o");
        assert_eq!(
            inputs(&c)
                .into_iter()
                .map(|i| (i.0, i.4))
                .collect::<Vec<_>>(),
            [
                ("a.o".into(), None),
                ("-la".into(), Some(0)),
                ("-lb".into(), Some(0)),
                ("x.a".into(), Some(1)),
                ("c.o".into(), None)
            ]
        );
        assert_eq!(error("a.o --end-group"), "stray --end-group");
        assert_eq!(error("--start-group a.o -("), "nested --start-group");
        assert_eq!(error("-( a.o -) -)"), "stray --end-group");
        config("--start-group a.o"); // unclosed is fine, as lld
    }

    #[test]
    fn output_kind_and_pie() {
        assert!(!config("-pie -no-pie a.o").pie);
        assert!(config("-no-pie -pie a.o").pie);
        assert!(config("--pie a.o").pie && config("-pic-executable a.o").pie);
        assert!(!config("a.o").pie, "lld's default is no PIE");
        assert_eq!(
            config("-Bshareable a.o").output_kind,
            OutputKind::SharedObject
        );
        assert_eq!(
            config("--relocatable a.o").output_kind,
            OutputKind::Relocatable
        );
        assert_eq!(
            error("-r -shared a.o"),
            "-r and -shared may not be used together"
        );
        assert_eq!(error("-r -pie a.o"), "-r and -pie may not be used together");
        assert_eq!(
            error("-shared -pie a.o"),
            "-shared and -pie may not be used together"
        );
        // lld reports every conflict, `-shared` implying `--export-dynamic`.
        let all = |s: &str| -> Vec<String> {
            match parse_args_all(&words(s)) {
                Ok(_) => panic!("{s}: expected errors"),
                Err(e) => e.into_iter().map(|e| e.0).collect(),
            }
        };
        assert_eq!(
            all("-r -pie -shared a.o"),
            [
                "-shared and -pie may not be used together",
                "-r and -shared may not be used together",
                "-r and -pie may not be used together",
                "-r and --export-dynamic may not be used together"
            ]
        );
        assert_eq!(
            error("-r -E a.o"),
            "-r and --export-dynamic may not be used together"
        );
        // gcc -r still sends these: accepted.
        config("-r --eh-frame-hdr -dynamic-linker /x --as-needed --build-id a.o");
    }

    #[test]
    fn values_and_forms() {
        let c = config(
            "-e start --undefined=u1 -u u2 -uu3 --require-defined=r --defsym=a=0x10 \
             --defsym b=a+1 --wrap=malloc --wrap free --threads=4 --sysroot=/sr -L=/lib \
             -L$SYSROOT/usr/lib -Lplain -s -S -x --build-id=0xdeadbeef --image-base=0x400000 \
             -z max-page-size=0x200000 -zcommon-page-size=4096 --allow-multiple-definition \
             -soname libx.so -rpath /r1 -R /r2 --rpath=/r3 -rpath-link /rl -Map=m.map \
             --why-live=foo* --why-extract=w.txt --print-gc-sections --gc-archive-members \
             --export-dynamic-symbol=sym* -E --unresolved-symbols=ignore-all \
             --allow-shlib-undefined --hash-style=both --pack-dyn-relocs=relr --no-relax \
             --disable-new-dtags -Bsymbolic-functions a.o",
        );
        assert_eq!(c.entry.as_deref(), Some("start"));
        assert_eq!(c.undefined, ["u1", "u2", "u3"]);
        assert_eq!(c.require_defined, ["r"]);
        assert_eq!(c.defsyms.len(), 2);
        assert_eq!(c.wrap, ["malloc", "free"]);
        assert_eq!(c.threads, Some(4));
        assert_eq!(
            c.search_paths,
            [
                PathBuf::from("/sr/lib"),
                PathBuf::from("/sr/usr/lib"),
                PathBuf::from("plain")
            ]
        );
        assert_eq!((c.strip, c.discard), (Strip::All, Discard::All));
        assert_eq!(c.build_id, BuildId::Hex(vec![0xde, 0xad, 0xbe, 0xef]));
        assert_eq!(c.image_base, Some(0x400000));
        assert_eq!(c.max_page_size(), 0x200000);
        assert_eq!(c.common_page_size(), 4096);
        assert!(c.allow_multiple_definition);
        assert_eq!(c.soname.as_deref(), Some("libx.so"));
        assert_eq!(c.rpath, ["/r1", "/r2", "/r3"]);
        assert_eq!(c.rpath_link, ["/rl"]);
        assert_eq!(c.map_file, Some(PathBuf::from("m.map")));
        assert_eq!(c.why_live, ["foo*"]);
        assert_eq!(c.why_extract, Some(PathBuf::from("w.txt")));
        assert!(c.print_gc_sections && c.gc_archive_members && c.export_dynamic);
        assert_eq!(c.export_dynamic_symbols, ["sym*"]);
        assert_eq!(
            c.unresolved_symbols,
            crate::config::UnresolvedPolicy::IgnoreAll
        );
        assert_eq!(c.allow_shlib_undefined, Some(true));
        assert_eq!(c.hash_style, HashStyle::Both);
        assert!(c.pack_dyn_relocs_relr && !c.relax && !c.enable_new_dtags);
        assert!(c.bsymbolic_functions && !c.bsymbolic);

        // -s wins over a later -S; --build-id alone is sha1 (lld 22).
        assert_eq!(config("-s -S a.o").strip, Strip::All);
        assert_eq!(config("--build-id a.o").build_id, BuildId::Sha1);
        assert_eq!(config("--build-id=tree a.o").build_id, BuildId::Sha1);
        assert_eq!(config("--build-id=fast a.o").build_id, BuildId::Fast);
        assert_eq!(
            config("--build-id --build-id=none a.o").build_id,
            BuildId::None
        );
        // --no-dynamic-linker and --dynamic-linker: the last wins.
        let c = config("--no-dynamic-linker --dynamic-linker=/ld a.o");
        assert_eq!(
            (c.dynamic_linker.as_deref(), c.no_dynamic_linker),
            (Some("/ld"), false)
        );
        let c = config("-I/ld --no-dynamic-linker a.o");
        assert_eq!((c.dynamic_linker, c.no_dynamic_linker), (None, true));
        // -z keywords, in both spellings, last wins.
        let c = config("-z now -zlazy -z norelro -z execstack -znotext -z defs -z nodelete a.o");
        assert!(!c.z.now && !c.z.relro && c.z.execstack && !c.z.text && c.z.defs && c.z.nodelete);
        assert!(config("-z muldefs a.o").allow_multiple_definition);
        assert!(config("--no-undefined a.o").z.defs);
        assert!(!config("-z nostart-stop-gc a.o").z.start_stop_gc);
    }

    #[test]
    fn value_errors_in_lld_wording() {
        let cases = [
            ("--hash-style=bogus", "unknown --hash-style: bogus"),
            ("--build-id=bogus", "unknown --build-id style: bogus"),
            ("--build-id=0xzz", "not a hexadecimal value: zz"),
            ("-m bogus", "unknown emulation: bogus"),
            ("-mllvmfoo", "unknown emulation: llvmfoo"),
            (
                "--threads=0",
                "--threads: expected a positive integer, but got '0'",
            ),
            (
                "--threads=all",
                "--threads: expected a positive integer, but got 'all'",
            ),
            ("-z max-page-size=x", "invalid max-page-size: x"),
            (
                "-z max-page-size=3000",
                "max-page-size: value isn't a power of 2",
            ),
            ("-z common-page-size=x", "invalid common-page-size: x"),
            (
                "--unresolved-symbols=x",
                "unknown --unresolved-symbols value: x",
            ),
            (
                "--image-base=zz",
                "--image-base: number expected, but got zz",
            ),
            (
                "--pack-dyn-relocs=foo",
                "unknown --pack-dyn-relocs format: foo",
            ),
            ("--lto-O9", "invalid optimization level for LTO: 9"),
            ("-plugin-opt=O9", "invalid optimization level for LTO: 9"),
            (
                "-plugin-opt=Ox",
                "-plugin-opt=Ox: number expected, but got 'x'",
            ),
            ("--lto-Ox", "--lto-Ox: number expected, but got 'x'"),
            ("--lto-O", "--lto-O: number expected, but got ''"),
            ("--lto-CGOx", "--lto-CGOx: number expected, but got 'x'"),
            (
                "--lto-partitions=0",
                "--lto-partitions: number of threads must be > 0",
            ),
            ("--thinlto-jobs=x", "--thinlto-jobs: invalid job count: x"),
            ("-plugin-opt=jobs=x", "--thinlto-jobs: invalid job count: x"),
            ("-Ox", "-Ox: number expected, but got 'x'"),
            (
                "--color-diagnostics=foo",
                "unknown option: --color-diagnostics=foo",
            ),
            ("--rsp-quoting=foo", "invalid response file quoting: foo"),
            ("--oformat=foo", "unknown --oformat value: foo"),
            (
                "--compress-debug-sections=foo",
                "unknown --compress-debug-sections value: foo",
            ),
            (
                "--error-limit=x",
                "--error-limit=x: number expected, but got 'x'",
            ),
            (
                "-plugin-opt=bogus",
                "-plugin-opt=: unknown plugin option 'bogus'",
            ),
            (
                "--plugin-opt=cache-di=/x",
                "--plugin-opt=: unknown plugin option 'cache-di=/x'",
            ),
            (
                "-plugin-opt=/usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so",
                "-plugin-opt=: unknown plugin option \
                 '/usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so'",
            ),
        ];
        for (arg, want) in cases {
            assert_eq!(error(&format!("{arg} a.o")), want, "{arg}");
        }
        // Numbers in LLVM's radix-0 syntax; the page-size warning about --image-base.
        let p = parse("--image-base=010 a.o").unwrap();
        assert_eq!(
            p.warnings,
            ["--image-base: address isn't multiple of page size: 010"]
        );
        assert_eq!(config("-z max-page-size=010000 a.o").max_page_size(), 4096);
    }

    #[test]
    fn lto_options() {
        let c = config(
            "--lto-O3 --lto-CGO1 --lto-partitions=4 --lto-obj-path=/o --lto-emit-asm --save-temps \
             -mllvm -enable-foo --mllvm=-bar -plugin-opt=-baz=1 --thinlto-jobs=all \
             --thinlto-cache-dir=/c --thinlto-cache-policy=prune_after=1h --fat-lto-objects \
             -plugin-opt=save-temps -plugin-opt=thinlto a.o",
        );
        let l = &c.lto;
        assert_eq!((l.opt_level, l.cg_opt_level, l.partitions), (3, Some(1), 4));
        assert_eq!(l.obj_path, Some(PathBuf::from("/o")));
        assert!(l.emit_asm && l.save_temps && l.fat_lto_objects);
        assert_eq!(l.llvm_args, ["-enable-foo", "-bar", "-baz=1"]);
        assert_eq!(l.jobs, None);
        assert_eq!(l.cache_dir, Some(PathBuf::from("/c")));
        assert_eq!(l.cache_policy.as_deref(), Some("prune_after=1h"));
        let c = config("-plugin-opt O3 --plugin-opt mcpu=znver4 -plugin-opt -x=1 a.o");
        assert_eq!(
            (c.lto.opt_level, c.lto.mcpu.as_deref()),
            (3, Some("znver4"))
        );
        assert_eq!(c.lto.llvm_args, ["-x=1"]);
        assert_eq!(
            error("-plugin-opt bogus a.o"),
            "-plugin-opt=: unknown plugin option 'bogus'"
        );
        let t = config("-plugin-opt thinlto-index-only=l.txt a.o")
            .lto
            .thin_index;
        assert!(t.index_only && t.emit_index_files);
        assert_eq!(t.index_only_file, "l.txt");
        let c = config("-plugin-opt=cache-dir=/c2 --plugin-opt=jobs=0 --plugin foo a.o");
        assert_eq!(c.lto.cache_dir, Some(PathBuf::from("/c2")));
        assert_eq!(c.lto.jobs, None);
        config("--plugin=foo -plugin-opt=-pass-through=-lgcc a.o");
    }

    #[test]
    fn oformat_as_lld_reads_it() {
        assert!(!config("a.o").oformat_binary);
        assert!(config("--oformat=binary a.o").oformat_binary);
        assert!(config("--oformat binary a.o").oformat_binary);
        // Any name starting with `elf` is ELF; only the last --oformat counts, even after a
        // bad one.
        assert!(!config("--oformat=binary --oformat=elf64-x86-64 a.o").oformat_binary);
        assert!(config("--oformat=bogus --oformat=binary a.o").oformat_binary);
        assert_eq!(
            error("--oformat=binary --oformat=bogus a.o"),
            "unknown --oformat value: bogus"
        );
    }

    #[test]
    fn compression_options_as_lld_reads_them() {
        use crate::config::Compression;
        // Only the last --compress-debug-sections counts, even after a bad one.
        assert_eq!(
            config("--compress-debug-sections=bogus --compress-debug-sections=zstd a.o")
                .compress_debug_sections,
            Compression::Zstd
        );
        assert_eq!(
            config("--compress-debug-sections=zlib-gabi a.o").compress_debug_sections,
            Compression::Zlib
        );
        assert_eq!(
            error("--compress-debug-sections=zlib-gnu a.o"),
            "unknown --compress-debug-sections value: zlib-gnu"
        );
        assert_eq!(
            error("--compress-debug-sections=zlib --compress-debug-sections=zlib:x a.o"),
            "unknown --compress-debug-sections value: zlib:x"
        );
        // Levels as LLVM's to_integer reads them: any radix prefix, no sign.
        let c = config(
            "--compress-sections=.debug_*=zlib:0x5 --compress-sections=x=zstd:010 \
             --compress-sections=y=none a.o",
        );
        assert_eq!(
            c.compress_sections,
            [
                (".debug_*".to_string(), Compression::Zlib, 5),
                ("x".to_string(), Compression::Zstd, 8),
                ("y".to_string(), Compression::None, 0),
            ]
        );
        assert_eq!(
            error("--compress-sections=x=zlib:09 a.o"),
            "--compress-sections: expected a non-negative integer compression level, but got '09'"
        );
        assert_eq!(
            error("--compress-sections=x=zlib:+3 a.o"),
            "--compress-sections: expected a non-negative integer compression level, but got '+3'"
        );
        assert_eq!(
            error("--compress-sections=a\\=zlib a.o"),
            "--compress-sections: invalid glob pattern, stray '\\'"
        );
    }

    #[test]
    fn lto_settings_as_lld_reads_them() {
        // --lto=: the last one counts; lld's message for anything else.
        assert_eq!(
            config("--lto=thin --lto=full a.o").lto.kind,
            lto::LtoKind::UnifiedRegular
        );
        assert_eq!(config("--lto=thin a.o").lto.kind, lto::LtoKind::UnifiedThin);
        assert_eq!(
            config("--lto=full --lto=default a.o").lto.kind,
            lto::LtoKind::Default
        );
        assert_eq!(error("--lto=fat a.o"), "unknown LTO mode: fat");
        // --save-temps=: known stages kept once, in order; any --save-temps saves everything
        // and makes lld ignore the others, unknown ones included.
        let l = config("--save-temps=opt --save-temps=prelink --save-temps=opt a.o").lto;
        assert!(l.save_temps);
        assert_eq!(l.save_temps_stages, ["opt", "prelink"]);
        let l = config("--save-temps=bogus -plugin-opt=save-temps a.o").lto;
        assert!(l.save_temps && l.save_temps_stages.is_empty());
        assert_eq!(
            error("--save-temps=opt --save-temps=bogus a.o"),
            "unknown --save-temps value: bogus"
        );
        assert!(!config("a.o").lto.save_temps);
        // Hotness thresholds: an integer (negative: none) or `auto`.
        let threshold = |v: &str| config(&format!("{v} a.o")).lto.remarks_hotness_threshold;
        assert_eq!(threshold("--opt-remarks-hotness-threshold=100"), Some(100));
        assert_eq!(threshold("--opt-remarks-hotness-threshold -5"), Some(0));
        assert_eq!(
            threshold("-plugin-opt=opt-remarks-hotness-threshold=auto"),
            None
        );
        assert_eq!(threshold("--lto-O2"), Some(0));
        for bad in ["+5", "", "x", "1.5", "99999999999999999999"] {
            assert_eq!(
                error(&format!(
                    "-plugin-opt=opt-remarks-hotness-threshold={bad} a.o"
                )),
                format!(
                    "--opt-remarks-hotness-threshold: invalid argument '{bad}', only integer or \
                     'auto' is supported"
                )
            );
        }
        // The negative forms cancel the positive ones: the last one counts.
        let l = config(
            "--lto-whole-program-visibility --no-lto-whole-program-visibility \
             --lto-basic-block-address-map --lto-unique-basic-block-section-names \
             --no-lto-unique-basic-block-section-names --no-lto-pgo-warn-mismatch \
             --lto-validate-all-vtables-have-type-infos --lto-known-safe-vtables=_ZTV1A \
             --lto-known-safe-vtables _ZTV1B a.o",
        )
        .lto;
        assert!(!l.whole_program_visibility && l.basic_block_address_map);
        assert!(!l.unique_basic_block_section_names && !l.pgo_warn_mismatch);
        assert!(l.validate_all_vtables_have_type_infos);
        assert_eq!(l.known_safe_vtables, ["_ZTV1A", "_ZTV1B"]);
        // Both spellings land in the same place.
        let l = config(
            "-plugin-opt=emit-llvm -plugin-opt=debug-pass-manager -plugin-opt=dwo_dir=d \
             -plugin-opt=cs-profile-generate -plugin-opt=cs-profile-path=p \
             -plugin-opt=sample-profile=s -plugin-opt=stats-file=st \
             -plugin-opt=opt-remarks-filename=r -plugin-opt=opt-remarks-passes=inline \
             -plugin-opt=opt-remarks-format=yaml -plugin-opt=opt-remarks-with-hotness a.o",
        )
        .lto;
        assert!(l.emit_llvm && l.debug_pass_manager && l.cs_profile_generate);
        assert!(l.remarks_with_hotness);
        assert_eq!(
            [&l.dwo_dir, &l.cs_profile_file, &l.stats_file],
            ["d", "p", "st"]
        );
        assert_eq!(l.sample_profile, Some(PathBuf::from("s")));
        assert_eq!(
            [&l.remarks_filename, &l.remarks_passes, &l.remarks_format],
            ["r", "inline", "yaml"]
        );
        // An empty --lto-sample-profile= unsets it, as lld's last-value rule does.
        let unset = config("--lto-sample-profile=a -plugin-opt=sample-profile= a.o").lto;
        assert_eq!(unset.sample_profile, None);
        let l = config(
            "--lto-emit-llvm --lto-newpm-passes=globaldce --lto-aa-pipeline=basic-aa \
             --load-pass-plugin=/p.so --load-pass-plugin /q.so --lto-basic-block-sections=all \
             --opt-remarks-filename r --opt-remarks-passes . --opt-remarks-format bitstream a.o",
        )
        .lto;
        assert_eq!([&l.newpm_passes, &l.aa_pipeline], ["globaldce", "basic-aa"]);
        assert_eq!(
            l.pass_plugins,
            [PathBuf::from("/p.so"), PathBuf::from("/q.so")]
        );
        assert_eq!(l.basic_block_sections, "all");
        assert_eq!(
            [&l.remarks_filename, &l.remarks_passes, &l.remarks_format],
            ["r", ".", "bitstream"]
        );
        // The --opt-remarks-* options other than the threshold take their value separately
        // only, as in lld.
        assert_eq!(
            error("--opt-remarks-format=yaml a.o"),
            "unknown argument '--opt-remarks-format=yaml'"
        );
    }

    #[test]
    fn cet_and_plt_options() {
        use crate::config::CetReport;
        let c = config("-z force-ibt -z cet-report=warning a.o");
        assert!(c.z.force_ibt && !c.z.retpolineplt && c.z.cet_report == CetReport::Warning);
        assert!(config("-z retpolineplt a.o").z.retpolineplt);
        // The last -z cet-report= wins; lld's messages for bad values, an empty one included.
        let c = config("-z cet-report=error -zcet-report=none a.o");
        assert_eq!(c.z.cet_report, CetReport::None);
        assert_eq!(
            error("-z cet-report=bogus a.o"),
            "unknown -z cet-report= value: bogus"
        );
        assert_eq!(error("-z cet-report a.o"), "unknown -z cet-report= value: ");
        assert_eq!(
            error("-z retpolineplt -z force-ibt a.o"),
            "-z force-ibt may not be used with -z retpolineplt"
        );
        assert_eq!(
            error("-z ifunc-noplt a.o"),
            "-z text and -z ifunc-noplt may not be used together"
        );
        assert!(config("-z ifunc-noplt -z notext a.o").z.ifunc_noplt);
    }

    #[test]
    fn distributed_thinlto_options() {
        let t = config(
            "--thinlto-index-only=a --thinlto-index-only=b --thinlto-emit-imports-files \
             --thinlto-prefix-replace=x --thinlto-prefix-replace=o/;n/;j/;k \
             --thinlto-object-suffix-replace=.min.o;.o --thinlto-single-module=m a.o",
        )
        .lto
        .thin_index;
        assert!(t.index_only && t.emit_index_files && t.emit_imports_files);
        assert_eq!(t.index_only_file, "b");
        assert_eq!(
            (
                t.prefix_old.as_str(),
                t.prefix_new.as_str(),
                t.prefix_native.as_str()
            ),
            ("o/", "n/", "j/;k")
        );
        assert_eq!(
            t.object_suffix_replace,
            Some((".min.o".to_string(), ".o".to_string()))
        );
        assert_eq!(t.single_modules, ["m"]);
        assert_eq!(t.replace_object_suffix("d/x.min.o"), "d/x.o");
        assert_eq!(t.replace_object_suffix("d/x.o"), "d/x.o");
        let t =
            config("--plugin-opt=thinlto-emit-imports-files -plugin-opt=thinlto-index-only a.o")
                .lto
                .thin_index;
        assert!(t.index_only && t.emit_imports_files && t.index_only_file.is_empty());
        // lld's wording, quoting the spelling used.
        for (args, want) in [
            (
                "--thinlto-prefix-replace=x a.o",
                "--thinlto-prefix-replace= expects 'old;new' format, but got x",
            ),
            (
                "-plugin-opt=thinlto-prefix-replace=x a.o",
                "-plugin-opt=thinlto-prefix-replace= expects 'old;new' format, but got x",
            ),
            (
                "--plugin-opt=thinlto-object-suffix-replace=x a.o",
                "--plugin-opt=thinlto-object-suffix-replace= expects 'old;new' format, but got x",
            ),
            (
                "--thinlto-emit-index-files --thinlto-prefix-replace=a;b a.o",
                "--thinlto-prefix-replace is not supported with --thinlto-emit-index-files",
            ),
            (
                "--thinlto-emit-index-files --thinlto-prefix-replace=a;b \
                 --thinlto-object-suffix-replace=a;b a.o",
                "--thinlto-object-suffix-replace is not supported with --thinlto-emit-index-files",
            ),
            (
                "--thinlto-index-only --thinlto-prefix-replace=a;b;c a.o",
                "--thinlto-prefix-replace=old_dir;new_dir;obj_dir must be used with \
                 --thinlto-index-only=",
            ),
        ] {
            assert_eq!(error(args), want, "{args}");
        }
    }

    #[test]
    fn dtlto_options() {
        let c = config(
            "--thinlto-distributor=/usr/bin/d --thinlto-distributor-arg=x \
             --thinlto-distributor-arg=-y --thinlto-remote-compiler=/usr/bin/cc \
             --thinlto-remote-compiler-prepend-arg=p --thinlto-remote-compiler-arg=a1 \
             --thinlto-remote-compiler-arg=a2 a.o",
        );
        let d = &c.lto.dtlto;
        assert!(d.enabled());
        assert_eq!(d.distributor, "/usr/bin/d");
        assert_eq!(d.distributor_args, ["x", "-y"]);
        assert_eq!(d.remote_compiler, "/usr/bin/cc");
        assert_eq!(d.remote_compiler_prepend_args, ["p"]);
        assert_eq!(d.remote_compiler_args, ["a1", "a2"]);
        // lld leaves the compiler empty when it is not given.
        let c = config("--thinlto-distributor=d a.o");
        assert!(c.lto.dtlto.remote_compiler.is_empty());
        assert!(!config("a.o").lto.dtlto.enabled());
    }

    #[test]
    fn not_yet_and_unknown() {
        assert_eq!(
            error("--emit-relocs -s a.o"),
            "--strip-all and --emit-relocs may not be used together"
        );
        assert_eq!(
            error("-r --gdb-index a.o"),
            "-r and --gdb-index may not be used together"
        );
        assert_eq!(
            error("-m elf_i386 a.o"),
            "option -m elf_i386 is not implemented yet"
        );
        assert_eq!(error("a.o --foo"), "unknown argument '--foo'");
        assert_eq!(
            error("a.o --gc-section"),
            "unknown argument '--gc-section', did you mean '--gc-sections'"
        );
        // Accepted and ignored.
        config("--icf=none -O2 --no-copy-dt-needed-entries --color-diagnostics -g a.o");
        // Unknown -z keywords warn, as lld.
        let p = parse("-z foo -zbar a.o").unwrap();
        assert_eq!(
            p.warnings,
            ["unknown -z value: foo", "unknown -z value: bar"]
        );
    }

    #[test]
    fn every_option_in_every_shape_never_panics() {
        for def in OPTIONS {
            for name in def.names {
                let name = name.replace("-z ", "-z");
                for shape in [
                    vec![name.clone()],
                    vec![name.clone(), "a.o".into()],
                    vec![format!("{name}=1"), "a.o".into()],
                    vec![format!("{name}x"), "a.o".into()],
                    vec!["a.o".into(), name.clone(), "".into()],
                ] {
                    let argv: Vec<String> =
                        std::iter::once("weld".to_string()).chain(shape).collect();
                    let _ = parse_args(&argv);
                }
            }
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("weld-args-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn tokenizer() {
        assert_eq!(
            tokenize_gnu("a  b\n\"c d\" 'e f' g\\ h \"i\\\"j\" 'k\\'l' \"\" m#n\r\n"),
            ["a", "b", "c d", "e f", "g h", "i\"j", "k'l", "m#n"]
        );
        assert_eq!(tokenize_gnu("x\"y z\"w"), ["xy zw"]);
        assert_eq!(tokenize_gnu("a\u{a0}b c"), ["a\u{a0}b", "c"]);
        assert_eq!(tokenize_gnu("  "), Vec::<String>::new());
        assert_eq!(tokenize_gnu("trailing\\"), ["trailing\\"]);
        assert_eq!(tokenize_gnu("\"unterminated q"), ["unterminated q"]);
    }

    #[test]
    fn response_files() {
        let d = temp_dir("rsp");
        // gcc style (libiberty writeargv): one argument per line, backslash escapes.
        let gcc = d.join("ccXXXX");
        std::fs::write(
            &gcc,
            "-plugin\n/usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so\n--build-id\n-pie\n-o\n\
             out\\ file\na.o\n-lc\n",
        )
        .unwrap();
        // clang style: one line, every argument quoted, nested @file.
        let clang = d.join("response.txt");
        std::fs::write(
            &clang,
            format!(
                "\"--gc-sections\" \"-o\" \"dir with space/out\" \"b.o\" \"@{}\"",
                gcc.display()
            ),
        )
        .unwrap();
        let c = parse_args(&["weld".into(), format!("@{}", clang.display())])
            .unwrap()
            .config
            .unwrap();
        assert!(c.gc_sections && c.pie);
        assert_eq!(c.output, PathBuf::from("out file"), "later -o wins");
        assert_eq!(names(&c), ["b.o", "a.o", "-lc"]);
        // Recursion is an error naming the file.
        let rec = d.join("rec");
        std::fs::write(&rec, format!("a.o @{}", rec.display())).unwrap();
        let e = parse_args(&["weld".into(), format!("@{}", rec.display())]).unwrap_err();
        assert_eq!(e.0, format!("recursive expansion of: '{}'", rec.display()));
        // A missing response file: lld's message.
        assert_eq!(
            error("a.o @/nonexistent/rsp"),
            "cannot open @/nonexistent/rsp: No such file or directory"
        );
        // ...but a missing one in a value position stays literal (`-o @out`).
        assert_eq!(
            config("-o @nonexistent-out a.o").output,
            PathBuf::from("@nonexistent-out")
        );
        // UTF-8 BOM and UTF-16.
        let bom = d.join("bom");
        std::fs::write(&bom, b"\xEF\xBB\xBFa.o -lm").unwrap();
        let c = parse_args(&["weld".into(), format!("@{}", bom.display())])
            .unwrap()
            .config
            .unwrap();
        assert_eq!(names(&c), ["a.o", "-lm"]);
        let u16 = d.join("u16");
        let mut bytes = vec![0xFF, 0xFE];
        for u in "x.o -lz".encode_utf16() {
            bytes.extend(u.to_le_bytes());
        }
        std::fs::write(&u16, bytes).unwrap();
        let c = parse_args(&["weld".into(), format!("@{}", u16.display())])
            .unwrap()
            .config
            .unwrap();
        assert_eq!(names(&c), ["x.o", "-lz"]);
        let _ = std::fs::remove_dir_all(&d);
    }
}
