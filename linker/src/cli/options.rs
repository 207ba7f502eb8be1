//! The table of every command-line option weld knows, and the matcher that finds an argument's
//! entry. All option behaviour lives in the handlers of [`OPTIONS`]; `args` only walks the command
//! line, so adding or changing an option touches exactly one entry here (and `docs/options.md`,
//! which a test in `option_docs` regenerates from this table). Value syntax several options share
//! (`parse_int`, `--defsym`) is in `option_values`.
//!
//! Spelling rules follow GNU ld and lld:
//! - a long name written `--name` also matches `-name`, except names starting with `o` (GNU ld
//!   reads `-omagic` as `-o magic`, and lld does the same);
//! - a long option with a value takes `--name=VALUE` or `--name VALUE`;
//! - a one-letter option with a value takes `-xVALUE` or `-x VALUE` (`-L`, `-l`, `-o`, `-z`, ...);
//! - when several entries match, the longest name wins (`-export-dynamic` is not `-e xport-dynamic`).

use std::path::PathBuf;

use crate::cli::option_values::{parse_decimal, parse_defsym, parse_int};
use crate::cli::parse_state::ParseState;
use crate::config::{
    BuildId, CallGraphSort, CetReport, Compression, Discard, HashStyle, IcfLevel, InputKind,
    OrphanHandling, PositionalState, SortSection, Strip, UnresolvedPolicy,
};
use crate::error::{Error, Result};
use crate::{bail, err};

/// What an option does with the argument value it was given (`None` for flags and for an
/// `OptionalValue` given without `=`).
pub type Handler = fn(&mut ParseState, Option<&str>) -> Result<()>;

/// How an option takes its argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgForm {
    /// No argument: `--gc-sections`.
    Flag,
    /// A required value. Long names: `--name=V` or `--name V`; one-letter names: `-xV` or `-x V`.
    Value,
    /// A value only in the next argument: `-dT FILE`.
    Separate,
    /// The name is a prefix and the rest of the argument is the value, possibly empty:
    /// `--lto-O2`, `-plugin-opt=mcpu=x86-64`, `--why-extract=FILE`.
    Joined,
    /// `--name` alone or `--name=V`: `--build-id`, `--color-diagnostics`.
    OptionalValue,
    /// A keyword of `-z`: `-z now` or `-znow`. A name ending in `=` takes a value
    /// (`-z max-page-size=4096`).
    ZKeyword,
}

/// What weld does with an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Parsed into `Config`; the link honours it.
    Implemented,
    /// Accepted and ignored because it cannot change the output file (an lld tuning knob, a
    /// diagnostic-only switch, the default restated, or an option for another architecture's
    /// behaviour that x86-64 never exhibits).
    IgnoredTuningOnly,
    /// Known, but weld cannot do it yet: using it is an error, never a silent no-op.
    NotYet,
}

/// One entry of the option table.
pub struct OptionDef {
    /// The names, as written on a command line: `--output`, `-o`, `-z now`.
    pub names: &'static [&'static str],
    /// How every name takes its argument.
    pub arg: ArgForm,
    /// What weld does with it.
    pub status: Status,
    /// One line for `--help`: what weld does.
    pub help: &'static str,
    /// What the option means to lld, when that says more than `help` (empty: same as `help`).
    pub lld: &'static str,
    /// Applies the option to the parse state; never called for `NotYet` options.
    pub handler: Handler,
}

impl OptionDef {
    /// The primary name, for messages and documentation.
    pub fn name(&self) -> &'static str {
        self.names[0]
    }

    /// lld's meaning of the option.
    pub fn lld_meaning(&self) -> &'static str {
        if self.lld.is_empty() {
            self.help
        } else {
            self.lld
        }
    }

    /// `--help` (answered before any other option is acted on).
    pub fn is_help(&self) -> bool {
        self.names[0] == "--help"
    }

    /// `--version` (answered before any other option is acted on).
    pub fn is_version(&self) -> bool {
        self.names[0] == "--version"
    }
}

/// An argument matched against the table.
#[derive(Debug)]
pub struct Match {
    /// The table entry.
    pub def: &'static OptionDef,
    /// The option as the user spelled it, without its value (`-soname`, `--threads`,
    /// `-plugin-opt=`): messages quote it back the way lld does.
    pub spelling: String,
    /// The whole first argument as typed (`-O1`, `--error-limit=x`, or just `-O` when the value
    /// came separately): lld quotes this in "number expected" messages.
    pub text: String,
    /// The option's value, if its form takes one.
    pub value: Option<String>,
    /// How many command-line arguments the option used (2 for `-o FILE`).
    pub consumed: usize,
}

impl std::fmt::Debug for OptionDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Matches `args[i]`, which starts with `-` and is not just `-`, against the table, taking the
/// next argument as its value when the option's form needs it.
pub fn match_option(args: &[String], i: usize) -> Result<Match> {
    let Some(arg) = args.get(i).map(String::as_str) else {
        bail!("no argument at position {i}");
    };
    let mut best: Option<(usize, Match)> = None;
    for def in OPTIONS.iter().filter(|d| d.arg != ArgForm::ZKeyword) {
        for name in def.names {
            let Some((len, m)) = match_name(def, name, args, i)? else {
                continue;
            };
            if best.as_ref().is_none_or(|(best_len, _)| len > *best_len) {
                best = Some((len, m));
            }
        }
    }
    match best {
        Some((_, m)) => Ok(m),
        None => Err(unknown_argument(arg)),
    }
}

/// Tries one name of one entry. Returns the matched name length (for longest-match) and the match;
/// `Err` only for a known option missing its value.
fn match_name(
    def: &'static OptionDef,
    name: &str,
    args: &[String],
    i: usize,
) -> Result<Option<(usize, Match)>> {
    let arg = args.get(i).map_or("", String::as_str);
    let Some((long, body)) = split_name(name) else {
        return Ok(None);
    };
    // `rest` is the argument after its dashes, if those dashes may introduce this name.
    let rest = if long {
        match arg.strip_prefix("--") {
            Some(r) => r,
            None => match arg.strip_prefix('-') {
                Some(r) if !body.starts_with('o') => r,
                _ => return Ok(None),
            },
        }
    } else {
        match arg.strip_prefix('-') {
            Some(r) if !r.starts_with('-') => r,
            _ => return Ok(None),
        }
    };
    if !rest.starts_with(body) {
        return Ok(None);
    }
    let dashes = &arg[..arg.len() - rest.len()];
    let after = &rest[body.len()..];
    let spelling = format!("{dashes}{body}");
    let found = |value: Option<String>, consumed: usize| {
        Ok(Some((
            body.len(),
            Match {
                def,
                spelling: spelling.clone(),
                text: arg.to_string(),
                value,
                consumed,
            },
        )))
    };
    let next = || match args.get(i + 1) {
        Some(v) => found(Some(v.clone()), 2),
        None => Err(err!("{spelling}: missing argument")),
    };
    match def.arg {
        ArgForm::Flag if after.is_empty() => found(None, 1),
        ArgForm::Value | ArgForm::Separate if after.is_empty() => next(),
        ArgForm::Value if !long => found(Some(after.to_string()), 1),
        ArgForm::Value | ArgForm::OptionalValue if after.starts_with('=') => {
            found(Some(after[1..].to_string()), 1)
        }
        ArgForm::OptionalValue if after.is_empty() => found(None, 1),
        ArgForm::Joined => found(Some(after.to_string()), 1),
        _ => Ok(None),
    }
}

/// Splits a table name into (is it a long `--` name, the name without dashes).
fn split_name(name: &str) -> Option<(bool, &str)> {
    if let Some(body) = name.strip_prefix("--") {
        Some((true, body))
    } else {
        name.strip_prefix('-').map(|body| (false, body))
    }
}

/// lld's "unknown argument" error, with its "did you mean" suggestion when one name is within one
/// edit (as LLVM's `OptTable::findNearest`: names shorter than 4 letters are never suggested, and a
/// candidate that needs a value it was not given counts one edit further).
fn unknown_argument(arg: &str) -> Error {
    match nearest_option(arg) {
        Some(s) => err!("unknown argument '{arg}', did you mean '{s}'"),
        None => err!("unknown argument '{arg}'"),
    }
}

fn nearest_option(arg: &str) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    for def in OPTIONS.iter().filter(|d| d.arg != ArgForm::ZKeyword) {
        for name in def.names {
            let Some((long, body)) = split_name(name) else {
                continue;
            };
            let mut prefixes = vec![if long { "--" } else { "-" }];
            if long && !body.starts_with('o') {
                prefixes.push("-");
            }
            let mut candidates: Vec<String> = Vec::new();
            for p in prefixes {
                match def.arg {
                    ArgForm::Value | ArgForm::OptionalValue if long => {
                        candidates.push(format!("{p}{body}"));
                        candidates.push(format!("{p}{body}="));
                    }
                    _ => candidates.push(format!("{p}{body}")),
                }
            }
            for cand in candidates {
                // LLVM skips names shorter than 4 characters (counting a trailing `=`).
                if cand.trim_start_matches('-').len() < 4 {
                    continue;
                }
                let (normalized, rhs, delim) = match cand.chars().last() {
                    Some(d @ ('=' | ':')) => match arg.split_once(d) {
                        Some((lhs, rhs)) => (format!("{lhs}{d}"), rhs, true),
                        None => (arg.to_string(), "", true),
                    },
                    _ => (arg.to_string(), "", false),
                };
                let Some(mut dist) = edit_distance_within_one(&cand, &normalized) else {
                    continue;
                };
                if delim && rhs.is_empty() {
                    dist += 1;
                }
                if best.as_ref().is_none_or(|(d, _)| dist < *d) {
                    best = Some((dist, format!("{cand}{rhs}")));
                }
            }
        }
    }
    best.filter(|(d, _)| *d <= 1).map(|(_, s)| s)
}

/// The edit distance (insertions, deletions, replacements) between `a` and `b` when it is 0 or 1,
/// else `None`: only those distances ever produce a suggestion.
fn edit_distance_within_one(a: &str, b: &str) -> Option<usize> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return None;
    }
    let prefix = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    if prefix == long.len() {
        return Some(0);
    }
    // Skip the first difference in `long` (insertion) or in both (replacement).
    let rest_matches = |skip_short: usize| short[prefix + skip_short..] == long[prefix + 1..];
    let one = if short.len() == long.len() {
        rest_matches(1)
    } else {
        rest_matches(0)
    };
    one.then_some(1)
}

/// The error for a known option weld cannot honour yet.
pub fn not_yet(what: &str) -> Error {
    err!("option {what} is not implemented yet")
}

/// Acts on one `-z` keyword through its `ZKeyword` entry; unknown keywords are a warning, as lld.
fn dispatch_z(s: &mut ParseState, keyword: &str) -> Result<()> {
    let mut best: Option<(&'static OptionDef, usize, Option<&str>)> = None;
    for def in OPTIONS.iter().filter(|d| d.arg == ArgForm::ZKeyword) {
        for name in def.names {
            let body = name.strip_prefix("-z ").unwrap_or(name);
            let hit = if body.ends_with('=') {
                keyword.strip_prefix(body).map(Some)
            } else if keyword == body {
                Some(None)
            } else {
                None
            };
            if let Some(value) = hit {
                if best.is_none_or(|(_, len, _)| body.len() > len) {
                    best = Some((def, body.len(), value));
                }
            }
        }
    }
    let Some((def, _, value)) = best else {
        s.warn(format!("unknown -z value: {keyword}"));
        return Ok(());
    };
    if def.status == Status::NotYet {
        return Err(not_yet(&format!("-z {keyword}")));
    }
    (def.handler)(s, value)
}

fn value(v: Option<&str>) -> &str {
    v.unwrap_or("")
}

fn accept(_: &mut ParseState, _: Option<&str>) -> Result<()> {
    Ok(())
}

/// A `-z NAME=none|warning|error` report for another architecture: lld checks the value, then
/// accepts `none` and refuses the others on x86-64 with `refusal`.
fn other_target_report(v: Option<&str>, name: &str, refusal: &str) -> Result<()> {
    match value(v) {
        "none" => Ok(()),
        "warning" | "error" => bail!("{refusal}"),
        o => bail!("unknown -z {name}= value: {o}"),
    }
}

/// A `-z NAME=MODE` property for another architecture: an unknown mode is lld's error, the
/// `neutral` ones (the default, `implicit`) are accepted, the others refused with `refusal`.
fn other_target_mode(
    v: Option<&str>,
    name: &str,
    refused: &[&str],
    neutral: &[&str],
    refusal: &str,
) -> Result<()> {
    let v = value(v);
    if neutral.contains(&v) {
        Ok(())
    } else if refused.contains(&v) {
        bail!("{refusal}")
    } else {
        bail!("unknown -z {name}= value: {v}")
    }
}

/// `--lto-O`, `-plugin-opt=O`: an optimization level 0..=3.
fn lto_opt_level(s: &ParseState, v: &str, what: &str) -> Result<u8> {
    let n = parse_int(v).ok_or_else(|| err!("{}: number expected, but got '{v}'", s.arg_text))?;
    if n > 3 {
        bail!("invalid {what}optimization level for LTO: {n}");
    }
    Ok(n as u8)
}

/// `--thinlto-index-only[=FILE]` and its `-plugin-opt=` spellings: the last value given names
/// the list of native objects (lld's `getLastArgValue`).
fn thinlto_index_only(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let t = &mut s.config.lto.thin_index;
    t.index_only = true;
    if let Some(file) = v {
        t.index_only_file = file.to_string();
    }
    Ok(())
}

/// `--thinlto-jobs=`, `-plugin-opt=jobs=`: a count, `0` or `all` meaning every hardware thread.
fn thinlto_jobs(s: &mut ParseState, v: &str) -> Result<()> {
    s.config.lto.jobs = match v {
        "all" => None,
        _ => match parse_int(v) {
            Some(0) => None,
            Some(n) => Some(n as usize),
            None => bail!("--thinlto-jobs: invalid job count: {v}"),
        },
    };
    Ok(())
}

fn lto_partitions(s: &mut ParseState, v: &str) -> Result<()> {
    match parse_int(v) {
        Some(0) => bail!("--lto-partitions: number of threads must be > 0"),
        Some(n) => s.config.lto.partitions = n as usize,
        None => bail!("--lto-partitions: number expected, but got '{v}'"),
    }
    Ok(())
}

/// `--lto=`: which backend compiles the modules.
fn lto_kind(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    s.config.lto.kind = match value(v) {
        "full" => lto::LtoKind::UnifiedRegular,
        "thin" => lto::LtoKind::UnifiedThin,
        "default" => lto::LtoKind::Default,
        other => bail!("unknown LTO mode: {other}"),
    };
    Ok(())
}

/// `--lto-sample-profile=`: the last one counts; an empty one unsets it.
fn sample_profile(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let v = value(v);
    s.config.lto.sample_profile = (!v.is_empty()).then(|| PathBuf::from(v));
    Ok(())
}

/// `--opt-remarks-hotness-threshold`: `auto`, or a decimal integer (a negative one means no
/// threshold), as LLVM's `parseHotnessThresholdOption` reads it.
fn remarks_hotness_threshold(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let v = value(v);
    s.config.lto.remarks_hotness_threshold = if v == "auto" {
        None
    } else {
        // LLVM's getAsInteger takes an optional `-`, never a `+`.
        match v.parse::<i64>().ok().filter(|_| !v.starts_with('+')) {
            Some(n) => Some(n.max(0) as u64),
            None => bail!(
                "--opt-remarks-hotness-threshold: invalid argument '{v}', only integer or 'auto' is supported"
            ),
        }
    };
    Ok(())
}

/// `-m EMULATION`: weld produces x86-64 ELF only.
fn emulation(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    s.config.emulation_given = true;
    let v = value(v);
    let base = v
        .strip_suffix("_fbsd")
        .or_else(|| v.strip_suffix("_freebsd"))
        .unwrap_or(v);
    const OTHER: &[&str] = &[
        "aarch64elf",
        "aarch64linux",
        "aarch64elfb",
        "aarch64linuxb",
        "armelf",
        "armelf_linux_eabi",
        "armelfb",
        "armelfb_linux_eabi",
        "elf32_x86_64",
        "elf32btsmip",
        "elf32ltsmip",
        "elf32btsmipn32",
        "elf32ltsmipn32",
        "elf32lriscv",
        "elf32briscv",
        "elf32ppc",
        "elf32ppclinux",
        "elf32lppc",
        "elf32lppclinux",
        "elf32loongarch",
        "elf64btsmip",
        "elf64ltsmip",
        "elf64lriscv",
        "elf64briscv",
        "elf64ppc",
        "elf64lppc",
        "elf64loongarch",
        "elf_i386",
        "elf_iamcu",
        "elf64_sparc",
        "msp430elf",
        "elf64_amdgpu",
        "elf64lhexagon",
        "elf32lhexagon",
        "elf64_s390",
    ];
    if (base == "elf_x86_64" || base == "elf_amd64") && base == v {
        Ok(())
    } else if base == "elf_x86_64" || base == "elf_amd64" || OTHER.contains(&base) {
        Err(not_yet(&format!("-m {v}")))
    } else {
        bail!("unknown emulation: {v}")
    }
}

fn build_id(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    // lld 22: `--build-id` alone means sha1.
    let v = v.unwrap_or("sha1");
    s.config.build_id = match v {
        "fast" => BuildId::Fast,
        "md5" => BuildId::Md5,
        "sha1" | "tree" => BuildId::Sha1,
        "uuid" => BuildId::Uuid,
        "none" => BuildId::None,
        _ => match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
            Some(hex) => BuildId::Hex(parse_hex(hex)?),
            None => bail!("unknown --build-id style: {v}"),
        },
    };
    Ok(())
}

fn parse_hex(hex: &str) -> Result<Vec<u8>> {
    let bad = || err!("not a hexadecimal value: {hex}");
    let pairs = hex.as_bytes().chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return Err(bad());
    }
    pairs
        .map(|p| {
            std::str::from_utf8(p)
                .ok()
                .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|d| u8::from_str_radix(d, 16).ok())
                .ok_or_else(bad)
        })
        .collect()
}

fn orphan_handling(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    s.config.orphan_handling = match value(v) {
        "place" => OrphanHandling::Place,
        "warn" => OrphanHandling::Warn,
        "error" => OrphanHandling::Error,
        other => bail!("unknown --orphan-handling mode: {other}"),
    };
    Ok(())
}

fn sort_section(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    s.config.sort_section = match value(v) {
        "name" => Some(SortSection::Name),
        "alignment" => Some(SortSection::Alignment),
        other => bail!("unknown --sort-section rule: {other}"),
    };
    Ok(())
}

fn hash_style(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    s.config.hash_style = match value(v) {
        "sysv" => HashStyle::Sysv,
        "gnu" => HashStyle::Gnu,
        "both" => HashStyle::Both,
        "none" => HashStyle::None,
        other => bail!("unknown --hash-style: {other}"),
    };
    Ok(())
}

fn unresolved_symbols(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let (policy, objects, shlibs) = match value(v) {
        "report-all" => (UnresolvedPolicy::ReportAll, true, true),
        "ignore-all" => (UnresolvedPolicy::IgnoreAll, false, false),
        "ignore-in-object-files" => (UnresolvedPolicy::IgnoreInObjectFiles, false, true),
        "ignore-in-shared-libs" => (UnresolvedPolicy::IgnoreInSharedLibs, true, false),
        other => bail!("unknown --unresolved-symbols value: {other}"),
    };
    s.config.unresolved_symbols = policy;
    s.config.report_undefined_in_objects = Some(objects);
    s.config.report_undefined_in_shlibs = Some(shlibs);
    Ok(())
}

fn pack_dyn_relocs(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let (android, relr) = match value(v) {
        "none" => (false, false),
        "relr" => (false, true),
        "android" => (true, false),
        "android+relr" => (true, true),
        other => bail!("unknown --pack-dyn-relocs format: {other}"),
    };
    s.config.pack_dyn_relocs_android = android;
    s.config.pack_dyn_relocs_relr = relr;
    Ok(())
}

/// The `-Bsymbolic` family: the last one given wins.
enum Bsymbolic {
    None,
    All,
    Functions,
    NonWeak,
    NonWeakFunctions,
}

fn bsymbolic(s: &mut ParseState, kind: Bsymbolic) {
    let c = &mut s.config;
    c.bsymbolic = matches!(kind, Bsymbolic::All);
    c.bsymbolic_functions = matches!(kind, Bsymbolic::Functions);
    c.bsymbolic_non_weak = matches!(kind, Bsymbolic::NonWeak);
    c.bsymbolic_non_weak_functions = matches!(kind, Bsymbolic::NonWeakFunctions);
}

fn threads(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let v = value(v);
    match parse_int(v) {
        Some(n) if n > 0 => s.config.threads = Some(n as usize),
        _ => bail!("--threads: expected a positive integer, but got '{v}'"),
    }
    Ok(())
}

/// `--remap-inputs-file=FILE`: one `from-glob=to-file` per line; `#` starts a comment.
fn remap_inputs_file(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let path = value(v);
    let text = crate::input::input_files::read_text(std::path::Path::new(path))?;
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (from, to) = line
            .split_once('=')
            .ok_or_else(|| err!("{path}:{}: parse error, not 'from-glob=to-file'", n + 1))?;
        s.config
            .remap_inputs
            .push((from.trim().to_string(), PathBuf::from(to.trim())));
    }
    Ok(())
}

/// `--shuffle-sections=GLOB=SEED`: the seed is a signed integer so that -1 (reverse) is
/// allowed, kept as its low 32 bits as lld does.
fn shuffle_sections(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let text = value(v);
    let prefix = "--shuffle-sections=: ";
    let (glob, seed) = text
        .split_once('=')
        .filter(|(g, v)| !g.is_empty() && !v.is_empty())
        .ok_or_else(|| err!("{prefix}expected <section_glob>=<seed>, but got '{text}'"))?;
    let parsed = match seed.strip_prefix('-') {
        Some(digits) => parse_int(digits).map(|v| (v as i64).wrapping_neg()),
        None => parse_int(seed).map(|v| v as i64),
    };
    let seed = parsed.ok_or_else(|| err!("{prefix}expected an integer, but got '{seed}'"))?;
    crate::glob::check(glob).map_err(|e| err!("{prefix}{e}"))?;
    s.config
        .shuffle_sections
        .push((glob.to_string(), seed as u32));
    Ok(())
}

/// `--compress-sections=GLOB=TYPE[:LEVEL]`, with lld's checks in lld's order.
fn compress_sections(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let text = value(v);
    let prefix = "--compress-sections";
    let fields: Vec<&str> = text.split('=').collect();
    let [glob, rhs] = fields[..] else {
        bail!("{prefix}: parse error, not 'section-glob=[none|zlib|zstd]'");
    };
    if rhs.is_empty() {
        bail!("{prefix}: parse error, not 'section-glob=[none|zlib|zstd]'");
    }
    let (kind, level) = match rhs.split_once(':') {
        Some((k, l)) => (k, Some(l)),
        None => (rhs, None),
    };
    let kind =
        Compression::from_name(kind).ok_or_else(|| err!("unknown {prefix} value: {kind}"))?;
    // LLVM's `to_integer` into an unsigned: any radix prefix, no sign.
    let level = match level {
        None => 0,
        Some(l) => parse_int(l)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| {
                err!("{prefix}: expected a non-negative integer compression level, but got '{l}'")
            })?,
    };
    if let Some(e) = crate::glob::pattern_error(glob) {
        bail!("{prefix}: {e}");
    }
    s.config
        .compress_sections
        .push((glob.to_string(), kind, level));
    Ok(())
}

/// `--package-metadata=TEXT`: `%XX` stands for the byte XX, as in lld.
fn package_metadata(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let text = value(v).as_bytes();
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'%' {
            let hex = text
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok());
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(b) => {
                    out.push(b);
                    i += 3;
                    continue;
                }
                None => bail!(
                    "--package-metadata=: invalid % escape at byte {i}; supports only %[0-9a-fA-F][0-9a-fA-F]"
                ),
            }
        }
        out.push(text[i]);
        i += 1;
    }
    s.config.package_metadata = Some(String::from_utf8_lossy(&out).into_owned());
    Ok(())
}

/// `--in-implib=FILE`: lld reads the file before refusing the option on x86-64.
fn in_implib(_: &mut ParseState, v: Option<&str>) -> Result<()> {
    let path = value(v);
    if let Err(e) = std::fs::metadata(path) {
        bail!(
            "cannot open {path}: {}",
            crate::input::input_files::io_reason(&e)
        );
    }
    bail!("--in-implib is only supported on ARM targets")
}

fn android_memtag_mode(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    match value(v) {
        "async" | "sync" | "none" => {
            s.memtag_mode = true;
            Ok(())
        }
        o => bail!(
            "unknown --android-memtag-mode value: \"{o}\", should be one of {{async, sync, none}}"
        ),
    }
}

/// `--section-start=NAME=ADDRESS`: the address is hexadecimal, with or without `0x`, as in lld.
fn section_start(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let v = value(v);
    let (name, addr) = v.split_once('=').ok_or_else(|| invalid_argument(s, v))?;
    let addr = parse_section_address(addr).ok_or_else(|| invalid_argument(s, v))?;
    s.config
        .section_starts
        .push((name.to_string(), addr, false));
    Ok(())
}

/// `-Ttext`/`-Tdata`/`-Tbss ADDRESS`: these win over `--section-start` for their section.
fn section_start_of(s: &mut ParseState, name: &str, v: Option<&str>) -> Result<()> {
    let v = value(v);
    let addr = parse_section_address(v).ok_or_else(|| invalid_argument(s, v))?;
    s.config.section_starts.push((name.to_string(), addr, true));
    Ok(())
}

fn parse_section_address(v: &str) -> Option<u64> {
    let digits = v.strip_prefix("0x").unwrap_or(v);
    if digits.is_empty() || digits.starts_with('+') {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

/// lld's `invalid argument: OPTION` with the option as written (`-Ttext=zz`, `-Ttext zz`).
fn invalid_argument(s: &ParseState, v: &str) -> Error {
    if s.arg_text.ends_with(v) && s.arg_text.len() > s.spelling.len() {
        err!("invalid argument: {}", s.arg_text)
    } else {
        err!("invalid argument: {} {v}", s.spelling)
    }
}

fn image_base(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let v = value(v);
    let n = parse_int(v).ok_or_else(|| err!("--image-base: number expected, but got {v}"))?;
    s.config.image_base = Some(n);
    s.image_base_text = Some(v.to_string());
    Ok(())
}

fn page_size(v: Option<&str>, what: &str) -> Result<u64> {
    let v = value(v);
    let n = parse_int(v).ok_or_else(|| err!("invalid {what}: {v}"))?;
    if !n.is_power_of_two() {
        bail!("{what}: value isn't a power of 2");
    }
    Ok(n)
}

fn color_diagnostics(_: &mut ParseState, v: Option<&str>) -> Result<()> {
    match v {
        None | Some("auto" | "always" | "never") => Ok(()),
        Some(other) => bail!("unknown option: --color-diagnostics={other}"),
    }
}

/// `--format`/`-b`: positional, for the input files after it (and those scripts name).
fn format(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    s.pos.format_binary = match value(v) {
        "default" | "elf" => false,
        "binary" => true,
        other => bail!("unknown --format value: {other} (supported formats: elf, default, binary)"),
    };
    s.pos.format_options += 1;
    Ok(())
}

/// `-plugin-opt VALUE` is read as `-plugin-opt=VALUE`, whichever entry that matches (as lld).
fn plugin_opt_separate(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let joined = format!("{}={}", s.spelling, value(v));
    let m = match_option(std::slice::from_ref(&joined), 0)?;
    if m.def.status == Status::NotYet {
        return Err(not_yet(&m.spelling));
    }
    s.spelling = m.spelling;
    s.arg_text = m.text;
    (m.def.handler)(s, m.value.as_deref())
}

fn plugin_opt_catch_all(s: &mut ParseState, v: Option<&str>) -> Result<()> {
    let v = value(v);
    // gcc names its LTO wrapper on every link; lld ignores exactly that.
    if v.ends_with("lto-wrapper") {
        return Ok(());
    }
    bail!("{}: unknown plugin option '{v}'", s.spelling)
}

/// Defines one table entry. Brace-delimited so that rustfmt leaves the table's layout alone.
macro_rules! opt {
    ([$($name:literal),+ $(,)?], $arg:ident, $status:ident, $help:literal, $lld:literal, $handler:expr $(,)?) => {
        OptionDef {
            names: &[$($name),+],
            arg: ArgForm::$arg,
            status: Status::$status,
            help: $help,
            lld: $lld,
            handler: $handler,
        }
    };
}

/// Every option weld knows, grouped by topic. `docs/options.md` is rendered from this table.
pub static OPTIONS: &[OptionDef] = &[
    // ---- Driver ----
    opt! {["--help"], Flag, Implemented, "Print option help and exit", "", accept},
    opt! {["--version"], Flag, Implemented, "Display the version number and exit (anywhere on the line)", "", accept},
    opt! {["-v", "-V"], Flag, Implemented, "Display the version number and continue; with no input files, exit", "", |s, _| { s.print_version = true; Ok(()) }},
    opt! {["--verbose"], Flag, Implemented, "Verbose mode", "", |s, _| { s.config.verbose = true; Ok(()) }},
    opt! {["--rsp-quoting"], Value, Implemented, "Quoting style for response files (posix only)", "Quoting style for response files", |_, v| match value(v) {
        "posix" => Ok(()),
        "windows" => Err(not_yet("--rsp-quoting=windows")),
        other => bail!("invalid response file quoting: {other}"),
    }},
    opt! {["--threads"], Value, Implemented, "Number of threads. '1' disables multi-threading", "", threads},
    opt! {["--thread-count"], Value, Implemented, "Number of threads (gold's spelling of --threads)", "", threads},
    opt! {["--no-threads"], Flag, Implemented, "One thread (gold's; --threads=1)", "", |s, _| { s.config.threads = Some(1); Ok(()) }},
    opt! {["--fatal-warnings"], Flag, Implemented, "Treat warnings as errors", "", |s, _| { s.config.fatal_warnings = true; Ok(()) }},
    opt! {["--no-fatal-warnings"], Flag, Implemented, "Do not treat warnings as errors (default)", "", |s, _| { s.config.fatal_warnings = false; Ok(()) }},
    opt! {["--no-warnings", "-w"], Flag, Implemented, "Suppress warnings and cancel --fatal-warnings", "", |s, _| { s.config.no_warnings = true; Ok(()) }},
    opt! {["--color-diagnostics"], OptionalValue, IgnoredTuningOnly, "Use colors in diagnostics (auto, always, never); weld never colors", "Use colors in diagnostics (default: auto)", color_diagnostics},
    opt! {["--no-color-diagnostics"], Flag, IgnoredTuningOnly, "Alias for --color-diagnostics=never", "", accept},
    opt! {["--error-limit"], Value, Implemented, "Maximum number of errors to emit before stopping (0 = no limit)", "Maximum number of errors to emit before stopping (0 = no limit)", |s, v| {
        let v = value(v);
        let n = parse_int(v).ok_or_else(|| err!("{}: number expected, but got '{v}'", s.arg_text))?;
        s.config.error_limit = usize::try_from(n).unwrap_or(usize::MAX);
        Ok(())
    }},
    opt! {["--vs-diagnostics"], Flag, IgnoredTuningOnly, "Format diagnostics for Visual Studio compatibility (diagnostics only)", "", accept},
    opt! {["--time"], Flag, Implemented, "Print the time spent in each phase (weld extension)", "(not an lld option)", |s, _| { s.config.time = true; Ok(()) }},
    opt! {["--stats"], Flag, Implemented, "Print statistics about the link (lld ignores this option)", "Ignored for compatibility with GNU linkers", |s, _| { s.config.stats = true; Ok(()) }},
    opt! {["--time-trace"], OptionalValue, Implemented, "Record time trace to <file> (or next to the output)", "", |s, v| { s.config.time_trace = Some(PathBuf::from(v.unwrap_or(""))); Ok(()) }},
    opt! {["--time-trace-granularity"], Value, Implemented, "Minimum time granularity (in microseconds) traced by time profiler", "", |s, v| {
        let v = value(v);
        s.config.time_trace_granularity = parse_int(v).ok_or_else(|| err!("{}: number expected, but got '{v}'", s.arg_text))?;
        Ok(())
    }},
    opt! {["--reproduce"], Value, Implemented, "Write tar file containing inputs and command to reproduce link", "", |s, v| { s.config.reproduce = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--dependency-file"], Value, Implemented, "Write a dependency file", "", |s, v| { s.config.dependency_file = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--error-handling-script"], Value, Implemented, "Specify an error handling script", "", |s, v| { s.config.error_handling_script = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--chroot"], Separate, Implemented, "Prefix of absolute input paths (internal to lld --reproduce)", "Prefix of absolute paths (internal to lld --reproduce)", |s, v| { s.config.chroot = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--mmap-output-file"], Flag, IgnoredTuningOnly, "Mmap the output file for writing (default)", "", accept},
    opt! {["--no-mmap-output-file"], Flag, IgnoredTuningOnly, "Do not mmap the output file for writing", "", accept},
    opt! {["--demangle"], Flag, Implemented, "Demangle symbol names in diagnostics (default)", "Demangle symbol names (default)", |s, _| { s.config.demangle = true; Ok(()) }},
    opt! {["--no-demangle"], Flag, Implemented, "Do not demangle symbol names in diagnostics", "Do not demangle symbol names", |s, _| { s.config.demangle = false; Ok(()) }},
    // ---- Output ----
    opt! {["-o", "--output"], Value, Implemented, "Path to file to write output", "", |s, v| { s.config.output = PathBuf::from(value(v)); s.config.output_given = true; Ok(()) }},
    opt! {["-m"], Value, Implemented, "Set target emulation (elf_x86_64 only)", "Set target emulation", emulation},
    opt! {["--oformat"], Value, Implemented, "Specify the binary format for the output object file: elf* (ELF), binary (a flat image: the loaded sections' bytes at their addresses less the lowest one, no headers)", "Specify the binary format for the output object file", |s, v| {
        // Only the last one counts (lld reads only that one): checked once the line is read.
        s.oformat = Some(value(v).to_string());
        Ok(())
    }},
    opt! {["--shared", "--Bshareable"], Flag, Implemented, "Build a shared object", "", |s, _| { s.shared = true; Ok(()) }},
    opt! {["--relocatable", "-r"], Flag, Implemented, "Create relocatable object file", "", |s, _| { s.relocatable = true; Ok(()) }},
    opt! {["--pie", "--pic-executable"], Flag, Implemented, "Create a position independent executable", "", |s, _| { s.config.pie = true; Ok(()) }},
    opt! {["--no-pie"], Flag, Implemented, "Do not create a position independent executable (default)", "", |s, _| { s.config.pie = false; Ok(()) }},
    opt! {["--entry", "-e"], Value, Implemented, "Name of entry point symbol", "", |s, v| { s.config.entry = Some(value(v).to_string()); Ok(()) }},
    opt! {["--image-base"], Value, Implemented, "Set the base address", "", image_base},
    opt! {["--build-id"], OptionalValue, Implemented, "Generate build ID note: fast, md5, sha1, tree, uuid, 0x<hex>, none (alone: sha1)", "Generate build ID note", build_id},
    opt! {["--eh-frame-hdr"], Flag, Implemented, "Request creation of .eh_frame_hdr section and PT_GNU_EH_FRAME segment header", "", |s, _| { s.config.eh_frame_hdr = true; Ok(()) }},
    opt! {["--no-eh-frame-hdr"], Flag, Implemented, "Do not create .eh_frame_hdr section", "", |s, _| { s.config.eh_frame_hdr = false; Ok(()) }},
    opt! {["--strip-all", "-s"], Flag, Implemented, "Strip all symbols. Implies --strip-debug", "", |s, _| { s.config.strip = Strip::All; Ok(()) }},
    opt! {["--strip-debug", "-S"], Flag, Implemented, "Strip debugging information", "", |s, _| {
        // -s wins over -S whatever their order, as in lld.
        if s.config.strip != Strip::All { s.config.strip = Strip::Debug; }
        Ok(())
    }},
    opt! {["--discard-all", "-x"], Flag, Implemented, "Delete all local symbols", "", |s, _| { s.config.discard = Discard::All; Ok(()) }},
    opt! {["--discard-locals", "-X"], Flag, Implemented, "Delete temporary local symbols", "", |s, _| { s.config.discard = Discard::Locals; Ok(()) }},
    opt! {["--discard-none"], Flag, Implemented, "Keep all symbols in the symbol table", "", |s, _| { s.config.discard = Discard::None; Ok(()) }},
    opt! {["--relax"], Flag, Implemented, "Enable target-specific relaxations if supported (default)", "", |s, _| { s.config.relax = true; Ok(()) }},
    opt! {["--no-relax"], Flag, Implemented, "Disable target-specific relaxations", "", |s, _| { s.config.relax = false; Ok(()) }},
    opt! {["-O"], Value, Implemented, "Optimize output file size (2 and above turn --branch-to-branch on; lld's -O2 also tail-merges strings, weld's output is equivalent)", "Optimize output file size", |s, v| {
        let v = value(v);
        let n = parse_decimal(v).ok_or_else(|| err!("{}: number expected, but got '{v}'", s.arg_text))?;
        // lld keeps any integer; only "2 and above" matters, so negative levels count as 0.
        s.config.optimize = n.clamp(0, i64::from(u8::MAX)) as u8;
        Ok(())
    }},
    opt! {["--compress-debug-sections"], Value, Implemented, "Compress DWARF debug sections: none, zlib, zstd (and GNU ld's zlib-gabi for zlib, mold's zlib:LEVEL and zstd:LEVEL: weld extensions)", "Compress DWARF debug sections", |s, v| {
        // Only the last one counts (lld reads only that one, even an earlier bad value is
        // never looked at): checked once the whole line is read.
        s.compress_debug_sections = Some(value(v).to_string());
        Ok(())
    }},
    opt! {["--compress-sections"], Value, Implemented, "Compress output sections that match the glob and do not have the SHF_ALLOC flag. The sections remain uncompressed if compressed content would be larger. The compression level is <level> (if specified) or a default speed-focused level", "", compress_sections},
    opt! {["--icf=none"], Flag, Implemented, "Disable identical code folding (default)", "", |s, _| { s.config.icf = IcfLevel::None; Ok(()) }},
    opt! {["--icf=all"], Flag, Implemented, "Enable identical code folding", "", |s, _| { s.config.icf = IcfLevel::All; Ok(()) }},
    opt! {["--icf=safe"], Flag, Implemented, "Enable safe identical code folding", "", |s, _| { s.config.icf = IcfLevel::Safe; Ok(()) }},
    opt! {["--keep-unique"], Value, Implemented, "Do not fold this symbol during ICF", "", |s, v| { s.config.keep_unique.push(value(v).to_string()); Ok(()) }},
    opt! {["--ignore-data-address-equality"], Flag, Implemented, "lld can break the address equality of data", "", |s, _| { s.config.ignore_data_address_equality = true; Ok(()) }},
    opt! {["--ignore-function-address-equality"], Flag, IgnoredTuningOnly, "lld can break the address equality of functions (ICF only)", "lld can break the address equality of functions", accept},
    opt! {["--print-icf-sections"], Flag, Implemented, "List identical folded sections", "", |s, _| { s.config.print_icf_sections = true; Ok(()) }},
    opt! {["--no-print-icf-sections"], Flag, Implemented, "Do not list identical folded sections (default)", "", |s, _| { s.config.print_icf_sections = false; Ok(()) }},
    opt! {["--emit-relocs", "-q"], Flag, Implemented, "Generate relocations in output", "", |s, _| { s.config.emit_relocs = true; Ok(()) }},
    opt! {["--omagic", "-N"], Flag, Implemented, "Set the text and data sections to be readable and writable, do not page align sections, link against static libraries", "", |s, _| {
        s.config.omagic = true;
        s.pos.link_static = true;
        Ok(())
    }},
    opt! {["--no-omagic"], Flag, Implemented, "Do not set the text data sections to be writable, page align sections (default)", "", |s, _| { s.config.omagic = false; Ok(()) }},
    opt! {["--nmagic", "-n"], Flag, Implemented, "Do not page align sections, link against static libraries", "", |s, _| {
        s.config.nmagic = true;
        s.pos.link_static = true;
        Ok(())
    }},
    opt! {["--no-nmagic"], Flag, Implemented, "Page align sections (default)", "", |s, _| { s.config.nmagic = false; Ok(()) }},
    opt! {["--rosegment"], Flag, Implemented, "Put read-only non-executable sections in their own segment (default)", "", |s, _| { s.config.rosegment = true; Ok(()) }},
    opt! {["--no-rosegment"], Flag, Implemented, "Do not put read-only non-executable sections in their own segment", "", |s, _| { s.config.rosegment = false; Ok(()) }},
    opt! {["--xosegment"], Flag, Implemented, "Put execute-only sections in their own segment (x86-64 has none: no effect, as in lld)", "Put execute-only sections in their own segment", accept},
    opt! {["--no-xosegment"], Flag, Implemented, "Do not put execute-only sections in their own segment (default)", "", accept},
    opt! {["--execute-only"], Flag, Implemented, "Refused on x86-64, as lld refuses it (AArch64 and ARM only)", "Mark executable sections unreadable", |_, _| bail!("--execute-only is only supported on AArch64 targets")},
    opt! {["--no-execute-only"], Flag, IgnoredTuningOnly, "Mark executable sections readable (default)", "", accept},
    opt! {["--check-sections"], Flag, IgnoredTuningOnly, "Check section addresses for overlaps (default; weld's layout never overlaps)", "Check section addresses for overlaps (default)", accept},
    opt! {["--no-check-sections"], Flag, IgnoredTuningOnly, "Do not check section addresses for overlaps", "", accept},
    opt! {["--gdb-index"], Flag, Implemented, "Generate .gdb_index section", "", |s, _| { s.config.gdb_index = true; Ok(()) }},
    opt! {["--no-gdb-index"], Flag, Implemented, "Do not generate .gdb_index section (default)", "", |s, _| { s.config.gdb_index = false; Ok(()) }},
    opt! {["--debug-names"], Flag, Implemented, "Generate a merged .debug_names section", "", |s, _| { s.config.debug_names = true; Ok(()) }},
    opt! {["--no-debug-names"], Flag, Implemented, "Do not generate a merged .debug_names section (default)", "", |s, _| { s.config.debug_names = false; Ok(()) }},
    opt! {["--gnu-unique"], Flag, IgnoredTuningOnly, "Enable STB_GNU_UNIQUE symbol binding (default)", "", accept},
    opt! {["--no-gnu-unique"], Flag, Implemented, "Disable STB_GNU_UNIQUE symbol binding", "", |s, _| { s.config.no_gnu_unique = true; Ok(()) }},
    opt! {["--package-metadata="], Joined, Implemented, "Emit a percent-encoded string to the .note.package section", "", package_metadata},
    opt! {["--noinhibit-exec"], Flag, Implemented, "Retain the executable output file whenever it is still usable (undefined and duplicate symbols are warnings)", "Retain the executable output file whenever it is still usable", |s, _| { s.config.noinhibit_exec = true; Ok(()) }},
    opt! {["--apply-dynamic-relocs"], Flag, Implemented, "Apply link-time values for dynamic relocations", "", |s, _| { s.config.apply_dynamic_relocs = true; Ok(()) }},
    opt! {["--no-apply-dynamic-relocs"], Flag, Implemented, "Do not apply link-time values for dynamic relocations (default)", "", |s, _| { s.config.apply_dynamic_relocs = false; Ok(()) }},
    opt! {["--branch-to-branch"], Flag, Implemented, "Enable branch-to-branch optimization (default at -O2)", "", |s, _| { s.config.branch_to_branch_flag = Some(true); Ok(()) }},
    opt! {["--no-branch-to-branch"], Flag, Implemented, "Disable branch-to-branch optimization (default at -O0 and -O1)", "", |s, _| { s.config.branch_to_branch_flag = Some(false); Ok(()) }},
    opt! {["--optimize-bb-jumps"], Flag, Implemented, "Remove direct jumps at the end to the next basic block", "", |s, _| { s.config.optimize_bb_jumps = true; Ok(()) }},
    opt! {["--no-optimize-bb-jumps"], Flag, Implemented, "Do not remove any direct jumps at the end to the next basic block (default)", "", |s, _| { s.config.optimize_bb_jumps = false; Ok(()) }},
    opt! {["--randomize-section-padding="], Joined, Implemented, "Randomly insert padding between input sections using given seed", "", |s, v| {
        let v = value(v);
        let seed = parse_int(v).ok_or_else(|| err!("{}: number expected, but got '{v}'", s.arg_text))?;
        s.config.randomize_section_padding = Some(seed);
        Ok(())
    }},
    opt! {["--shuffle-sections"], Value, Implemented, "Shuffle matched sections using the given seed before mapping them to the output sections", "", shuffle_sections},
    opt! {["--symbol-ordering-file"], Value, Implemented, "Layout sections to place symbols in the order specified by symbol ordering file", "", |s, v| { s.config.symbol_ordering_file = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--call-graph-ordering-file"], Value, Implemented, "Layout sections to optimize the given callgraph", "", |s, v| { s.config.call_graph_ordering_file = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--call-graph-profile-sort="], Joined, Implemented, "Reorder input sections with call graph profile using the specified algorithm (default: cdsort)", "", |s, v| {
        s.config.call_graph_profile_sort = match value(v) {
            "none" => CallGraphSort::None,
            "hfsort" => CallGraphSort::Hfsort,
            "cdsort" => CallGraphSort::Cdsort,
            other => bail!("unknown --call-graph-profile-sort= value: {other}"),
        };
        Ok(())
    }},
    opt! {["--no-call-graph-profile-sort"], Flag, Implemented, "Alias for --call-graph-profile-sort=none", "", |s, _| { s.config.call_graph_profile_sort = CallGraphSort::None; Ok(()) }},
    opt! {["--print-symbol-order"], Value, Implemented, "Print a symbol order specified by --call-graph-ordering-file into the specified file", "", |s, v| { s.config.print_symbol_order = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--bp-compression-sort="], Joined, Implemented, "Improve Lempel-Ziv compression by grouping similar sections together", "", |s, v| {
        let (function, data) = match value(v) {
            "none" => (false, false),
            "function" => (true, false),
            "data" => (false, true),
            "both" => (true, true),
            _ => bail!("--bp-compression-sort=: expected [none|function|data|both]"),
        };
        s.config.bp.function_compression = function;
        s.config.bp.data_compression = data;
        Ok(())
    }},
    opt! {["--bp-startup-sort="], Joined, Implemented, "Utilize a temporal profile file to reduce page faults during program startup", "", |s, v| {
        s.config.bp.startup_functions = match value(v) {
            "none" => false,
            "function" => true,
            _ => bail!("--bp-startup-sort=: expected [none|function]"),
        };
        Ok(())
    }},
    opt! {["--bp-compression-sort-startup-functions"], Flag, Implemented, "Prioritize function similarity for compression in addition to startup time", "", |s, _| { s.config.bp.compression_sort_startup_functions = true; Ok(()) }},
    opt! {["--no-bp-compression-sort-startup-functions"], Flag, Implemented, "Default of --bp-compression-sort-startup-functions", "", |s, _| { s.config.bp.compression_sort_startup_functions = false; Ok(()) }},
    opt! {["--irpgo-profile"], Value, Implemented, "Read a temporary profile file for use with --bp-startup-sort=", "", |s, v| { s.config.irpgo_profile = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--verbose-bp-section-orderer"], Flag, Implemented, "Print information on balanced partitioning", "", |s, _| { s.config.bp.verbose = true; Ok(()) }},
    opt! {["--format"], Value, Implemented, "Change the input format of the inputs following this option", "Change the input format of the inputs following this option", format},
    opt! {["-b"], Separate, Implemented, "Alias for --format", "", format},
    opt! {["--section-start"], Value, Implemented, "Set address of section (SECTION=ADDRESS, hexadecimal)", "Set address of section", section_start},
    opt! {["--Ttext"], Value, Implemented, "Same as --section-start with .text as the sectionname", "", |s, v| section_start_of(s, ".text", v)},
    opt! {["--Tdata"], Value, Implemented, "Same as --section-start with .data as the sectionname", "", |s, v| section_start_of(s, ".data", v)},
    opt! {["--Tbss"], Value, Implemented, "Same as --section-start with .bss as the sectionname", "", |s, v| section_start_of(s, ".bss", v)},
    opt! {["--Ttext-segment"], Value, Implemented, "Rejected, as lld does: use --image-base", "Set the address of the text segment", |_, _| bail!("-Ttext-segment is not supported. Use --image-base if you intend to set the base address")},
    opt! {["--unique"], Flag, Implemented, "Creates a separate output section for every orphan input section", "", |s, _| { s.config.unique = true; Ok(()) }},
    opt! {["--force-group-allocation"], Flag, Implemented, "Only meaningful for -r. Section groups are discarded", "", |s, _| { s.config.force_group_allocation = true; Ok(()) }},
    opt! {["--relocatable-merge-sections"], Flag, Implemented, "With -r, merge input sections into the output sections a final link would make (.text.foo into .text; mold's; not in lld)", "", |s, _| { s.config.relocatable_merge_sections = true; Ok(()) }},
    opt! {["--spare-program-headers"], Value, Implemented, "Reserve N extra PT_NULL program headers (mold's; not in lld)", "", |s, v| {
        let v = value(v);
        s.config.spare_program_headers = parse_int(v).ok_or_else(|| err!("--spare-program-headers: expected a non-negative integer, but got '{v}'"))? as usize;
        Ok(())
    }},
    opt! {["--section-align"], Value, Implemented, "Align output section NAME to at least ALIGN: NAME=ALIGN (mold's; not in lld)", "", |s, v| {
        let v = value(v);
        let (name, align) = v.split_once('=').ok_or_else(|| err!("--section-align: expected <section>=<alignment>, but got '{v}'"))?;
        let n = parse_int(align).ok_or_else(|| err!("--section-align: expected an integer, but got '{align}'"))?;
        if !n.is_power_of_two() {
            bail!("--section-align: {align}: alignment must be a power of 2");
        }
        s.config.section_align.push((name.to_string(), n));
        Ok(())
    }},
    opt! {["--default-symver"], Flag, Implemented, "Give unversioned exported definitions of a shared object the version named by its soname (GNU ld's; not in lld)", "", |s, _| { s.config.default_symver = true; Ok(()) }},
    opt! {["--reverse-sections"], Flag, Implemented, "Reverse the input sections of every output section (mold's; lld's --shuffle-sections='*=-1')", "", |s, _| { s.config.shuffle_sections.push(("*".to_string(), u32::MAX)); Ok(()) }},
    opt! {["--no-quick-exit", "--quick-exit"], Flag, IgnoredTuningOnly, "How the linker process ends (mold's; no effect)", "", accept},
    opt! {["--retain-symbols-file"], Value, Implemented, "Retain only the symbols listed in the file (as lld: an anonymous version script making the others local)", "Retain only the symbols listed in the file", |s, v| { s.config.retain_symbols_file = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--init"], Value, Implemented, "Specify an initializer function", "", |s, v| { s.config.init = value(v).to_string(); Ok(()) }},
    opt! {["--fini"], Value, Implemented, "Specify a finalizer function", "", |s, v| { s.config.fini = value(v).to_string(); Ok(()) }},
    // ---- Linker scripts ----
    opt! {["--script", "-T"], Value, Implemented, "Read linker script", "", |s, v| { s.add_input(InputKind::Script(PathBuf::from(value(v)))); Ok(()) }},
    opt! {["--default-script"], Value, Implemented, "In the absence of --script, read this default linker script", "", |s, v| { s.config.default_script = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["-dT"], Separate, Implemented, "Alias for --default-script", "", |s, v| { s.config.default_script = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--orphan-handling"], Value, Implemented, "Control how orphan sections are handled when linker script used", "", orphan_handling},
    opt! {["--sort-section"], Value, Implemented, "Specifies sections sorting rule when linkerscript is used", "", sort_section},
    opt! {["--enable-non-contiguous-regions"], Flag, NotYet, "Spill input sections to later matching output sections to avoid memory region overflow", "", accept},
    opt! {["--print-memory-usage"], Flag, Implemented, "Report target memory usage", "", |s, _| { s.config.print_memory_usage = true; Ok(()) }},
    opt! {["--EB"], Flag, IgnoredTuningOnly, "Accepted and ignored, as lld does (it only selects OUTPUT_FORMAT's big-endian name)", "Select the big-endian format in OUTPUT_FORMAT", accept},
    opt! {["--EL"], Flag, IgnoredTuningOnly, "Select the little-endian format in OUTPUT_FORMAT (x86-64 is little-endian)", "Select the little-endian format in OUTPUT_FORMAT", accept},
    // ---- Inputs and positional state ----
    opt! {["-l", "--library"], Value, Implemented, "Search for library <libname> (-l:FILE searches for FILE)", "Search for library <libname>", |s, v| { s.add_input(InputKind::Library(value(v).to_string())); Ok(()) }},
    opt! {["-L", "--library-path"], Value, Implemented, "Add <dir> to the library search path (=DIR and $SYSROOT/DIR are under --sysroot)", "Add <dir> to the library search path", |s, v| { s.config.search_paths.push(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--sysroot"], Value, Implemented, "Set the system root", "", |s, v| { s.config.sysroot = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--nostdlib"], Flag, Implemented, "Only search directories specified on the command line (ignore SEARCH_DIR in scripts)", "Only search directories specified on the command line", |s, _| { s.config.nostdlib = true; Ok(()) }},
    opt! {["--as-needed"], Flag, Implemented, "Only set DT_NEEDED for shared libraries if used", "", |s, _| { s.pos.as_needed = true; Ok(()) }},
    opt! {["--no-as-needed"], Flag, Implemented, "Always set DT_NEEDED for shared libraries (default)", "", |s, _| { s.pos.as_needed = false; Ok(()) }},
    opt! {["--Bstatic", "--dn", "--non_shared"], Flag, Implemented, "Do not link against shared libraries (for the -l options that follow)", "Do not link against shared libraries", |s, _| { s.pos.link_static = true; Ok(()) }},
    opt! {["--static"], Flag, Implemented, "Do not link against shared libraries; the output uses no dynamic linking", "Alias for --Bstatic", |s, _| {
        s.pos.link_static = true;
        s.config.is_static = true;
        Ok(())
    }},
    opt! {["--Bdynamic", "--dy", "--call_shared"], Flag, Implemented, "Link against shared libraries (default)", "", |s, _| { s.pos.link_static = false; Ok(()) }},
    opt! {["--whole-archive"], Flag, Implemented, "Force load of all members in a static library", "", |s, _| { s.pos.whole_archive = true; Ok(()) }},
    opt! {["--no-whole-archive"], Flag, Implemented, "Do not force load of all members in a static library (default)", "", |s, _| { s.pos.whole_archive = false; Ok(()) }},
    opt! {["--push-state"], Flag, Implemented, "Save the current state of --as-needed, -static and --whole-archive", "", |s, _| { s.stack.push((s.pos, s.config.is_static)); Ok(()) }},
    opt! {["--pop-state"], Flag, Implemented, "Restore the states saved by --push-state", "", |s, _| {
        let (saved, is_static) = s.stack.pop().ok_or_else(|| err!("unbalanced --push-state/--pop-state"))?;
        // lld's saved state leaves out --format.
        s.pos = PositionalState { format_binary: s.pos.format_binary, format_options: s.pos.format_options, ..saved };
        s.config.is_static = is_static;
        Ok(())
    }},
    opt! {["--start-group", "-("], Flag, Implemented, "Start a group of archives searched repeatedly", "Ignored for compatibility with GNU unless you pass --warn-backrefs", |s, _| {
        if s.group.is_some() || s.in_lib { bail!("nested --start-group"); }
        s.group = Some(s.next_group);
        s.next_group += 1;
        Ok(())
    }},
    opt! {["--end-group", "-)"], Flag, Implemented, "End a group of archives", "Ignored for compatibility with GNU unless you pass --warn-backrefs", |s, _| {
        if s.group.take().is_none() { bail!("stray --end-group"); }
        Ok(())
    }},
    opt! {["--start-lib"], Flag, Implemented, "Start a grouping of objects that should be treated as if they were together in an archive", "", |s, _| {
        if s.in_lib { bail!("nested --start-lib"); }
        if s.group.is_some() { bail!("may not nest --start-lib in --start-group"); }
        s.in_lib = true;
        Ok(())
    }},
    opt! {["--end-lib"], Flag, Implemented, "End a grouping of objects that should be treated as if they were together in an archive", "", |s, _| { if !s.in_lib { bail!("stray --end-lib"); } s.in_lib = false; Ok(()) }},
    opt! {["--just-symbols"], Value, Implemented, "Just link symbols", "", |s, v| { s.add_input(InputKind::JustSymbols(PathBuf::from(value(v)))); Ok(()) }},
    opt! {["--remap-inputs"], Value, Implemented, "Remap input files matching <from-glob> to <to-file>", "", |s, v| {
        let (from, to) = value(v).split_once('=').ok_or_else(|| err!("--remap-inputs: parse error, not 'from-glob=to-file'"))?;
        s.config.remap_inputs.push((from.to_string(), PathBuf::from(to)));
        Ok(())
    }},
    opt! {["--remap-inputs-file="], Joined, Implemented, "Each line contains 'from-glob=to-file'", "", remap_inputs_file},
    opt! {["--dependent-libraries"], Flag, Implemented, "Process dependent library specifiers from input files (default)", "", |s, _| { s.config.dependent_libraries = true; Ok(()) }},
    opt! {["--no-dependent-libraries"], Flag, Implemented, "Ignore dependent library specifiers from input files", "", |s, _| { s.config.dependent_libraries = false; Ok(()) }},
    opt! {["--fortran-common"], Flag, Implemented, "Search archive members for definitions to override COMMON symbols", "", |s, _| { s.config.fortran_common = true; Ok(()) }},
    opt! {["--no-fortran-common"], Flag, Implemented, "Do not search archive members for definitions to override COMMON symbols (default)", "", |s, _| { s.config.fortran_common = false; Ok(()) }},
    opt! {["--trace", "-t"], Flag, Implemented, "Print the names of the input files", "", |s, _| { s.config.trace = true; Ok(()) }},
    opt! {["--trace-symbol", "-y"], Value, Implemented, "Trace references to symbols", "", |s, v| { s.config.trace_symbols.push(value(v).to_string()); Ok(()) }},
    opt! {["--print-archive-stats="], Joined, Implemented, "Write archive usage statistics to the specified file", "", |s, v| { s.config.print_archive_stats = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--why-extract="], Joined, Implemented, "Print to a file about why archive members are extracted", "", |s, v| { s.config.why_extract = Some(PathBuf::from(value(v))); Ok(()) }},
    // ---- Symbols ----
    opt! {["--undefined", "-u"], Value, Implemented, "Force undefined symbol during linking", "", |s, v| { s.config.undefined.push(value(v).to_string()); Ok(()) }},
    opt! {["--undefined-glob"], Value, Implemented, "Force undefined symbol during linking", "", |s, v| { s.config.undefined_globs.push(value(v).to_string()); Ok(()) }},
    opt! {["--require-defined"], Value, Implemented, "Force symbol to be added to symbol table as undefined one and require it to be defined", "", |s, v| { s.config.require_defined.push(value(v).to_string()); Ok(()) }},
    opt! {["--defsym"], Value, Implemented, "Define a symbol alias: SYM=EXPR, any linker-script expression", "Define a symbol alias", |s, v| { let d = parse_defsym(value(v))?; s.config.defsyms.push(d); Ok(()) }},
    opt! {["--wrap"], Value, Implemented, "Redirect symbol references to __wrap_symbol and __real_symbol references to symbol", "", |s, v| { s.config.wrap.push(value(v).to_string()); Ok(()) }},
    opt! {["--allow-multiple-definition"], Flag, Implemented, "Allow multiple definitions", "", |s, _| { s.config.allow_multiple_definition = true; Ok(()) }},
    opt! {["--no-allow-multiple-definition"], Flag, Implemented, "Do not allow multiple definitions (default)", "", |s, _| { s.config.allow_multiple_definition = false; Ok(()) }},
    opt! {["--no-undefined"], Flag, Implemented, "Report unresolved symbols even if the linker is creating a shared library (= -z defs)", "Report unresolved symbols even if the linker is creating a shared library", |s, _| { s.config.z.defs = true; s.config.report_undefined_in_objects = Some(true); Ok(()) }},
    opt! {["--unresolved-symbols"], Value, Implemented, "Determine how to handle unresolved symbols", "", unresolved_symbols},
    opt! {["--error-unresolved-symbols"], Flag, Implemented, "Report unresolved symbols as errors (default)", "Report unresolved symbols as errors", |s, _| { s.config.warn_unresolved_symbols = false; Ok(()) }},
    opt! {["--warn-unresolved-symbols"], Flag, Implemented, "Report unresolved symbols as warnings", "", |s, _| { s.config.warn_unresolved_symbols = true; Ok(()) }},
    opt! {["--allow-shlib-undefined"], Flag, Implemented, "Allow unresolved references in shared libraries", "Allow unresolved references in shared libraries (default when linking a shared library)", |s, _| { s.config.allow_shlib_undefined = Some(true); s.config.report_undefined_in_shlibs = Some(false); Ok(()) }},
    opt! {["--no-allow-shlib-undefined"], Flag, Implemented, "Do not allow unresolved references in shared libraries", "Do not allow unresolved references in shared libraries (default when linking an executable)", |s, _| { s.config.allow_shlib_undefined = Some(false); s.config.report_undefined_in_shlibs = Some(true); Ok(()) }},
    opt! {["--warn-common"], Flag, Implemented, "Warn about duplicate common symbols", "", |s, _| { s.config.warn_common = true; Ok(()) }},
    opt! {["--no-warn-common"], Flag, Implemented, "Do not warn about duplicate common symbols (default)", "", |s, _| { s.config.warn_common = false; Ok(()) }},
    opt! {["--warn-backrefs"], Flag, IgnoredTuningOnly, "Warn about backward symbol references to extract archive members (diagnostics only)", "Warn about backward symbol references to extract archive members", accept},
    opt! {["--no-warn-backrefs"], Flag, IgnoredTuningOnly, "Do not warn about backward symbol references to extract archive members (default)", "", accept},
    opt! {["--warn-backrefs-exclude"], Value, IgnoredTuningOnly, "Glob describing an archive which should be ignored for --warn-backrefs (diagnostics only)", "Glob describing an archive which should be ignored for --warn-backrefs", accept},
    opt! {["--warn-ifunc-textrel"], Flag, IgnoredTuningOnly, "Warn about using ifunc symbols with text relocations (diagnostics only)", "Warn about using ifunc symbols with text relocations", accept},
    opt! {["--no-warn-ifunc-textrel"], Flag, IgnoredTuningOnly, "Do not warn about using ifunc symbols with text relocations (default)", "", accept},
    opt! {["--warn-symbol-ordering"], Flag, Implemented, "Warn about problems with the symbol ordering file (default)", "", |s, _| { s.config.warn_symbol_ordering = true; Ok(()) }},
    opt! {["--no-warn-symbol-ordering"], Flag, Implemented, "Do not warn about problems with the symbol ordering file", "", |s, _| { s.config.warn_symbol_ordering = false; Ok(()) }},
    opt! {["--no-warn-mismatch"], Flag, IgnoredTuningOnly, "Suppress errors for certain unknown section types", "", accept},
    // ---- Dynamic linking ----
    opt! {["--dynamic-linker", "-I"], Value, Implemented, "Which dynamic linker to use (-I is GNU ld's spelling)", "Which dynamic linker to use", |s, v| {
        s.config.dynamic_linker = Some(value(v).to_string());
        s.config.no_dynamic_linker = false;
        Ok(())
    }},
    opt! {["--no-dynamic-linker"], Flag, Implemented, "Inhibit output of .interp section", "", |s, _| {
        s.config.dynamic_linker = None;
        s.config.no_dynamic_linker = true;
        Ok(())
    }},
    opt! {["--soname", "-h"], Value, Implemented, "Set DT_SONAME", "", |s, v| { s.config.soname = Some(value(v).to_string()); Ok(()) }},
    opt! {["--rpath", "-R"], Value, Implemented, "Add a DT_RUNPATH to the output", "", |s, v| { s.config.rpath.push(value(v).to_string()); Ok(()) }},
    opt! {["--rpath-link"], Value, Implemented, "Directories to find shared libraries' dependencies (recorded; lld ignores it)", "Ignored for compatibility with GNU linkers", |s, v| { s.config.rpath_link.push(value(v).to_string()); Ok(()) }},
    opt! {["--enable-new-dtags"], Flag, Implemented, "Enable new dynamic tags (default)", "", |s, _| { s.config.enable_new_dtags = true; Ok(()) }},
    opt! {["--disable-new-dtags"], Flag, Implemented, "Disable new dynamic tags", "", |s, _| { s.config.enable_new_dtags = false; Ok(()) }},
    opt! {["--export-dynamic", "-E"], Flag, Implemented, "Put symbols in the dynamic symbol table", "", |s, _| { s.config.export_dynamic = true; Ok(()) }},
    opt! {["--no-export-dynamic"], Flag, Implemented, "Do not put symbols in the dynamic symbol table (default)", "", |s, _| { s.config.export_dynamic = false; Ok(()) }},
    opt! {["--export-dynamic-symbol"], Value, Implemented, "Put matched symbols in the dynamic symbol table", "(executable) Put matched symbols in the dynamic symbol table. (shared object) References to matched non-local STV_DEFAULT symbols shouldn't be bound to definitions within the shared object", |s, v| { s.config.export_dynamic_symbols.push(value(v).to_string()); Ok(()) }},
    opt! {["--export-dynamic-symbol-list"], Value, Implemented, "Read a list of dynamic symbol patterns", "Read a list of dynamic symbol patterns. Apply --export-dynamic-symbol on each pattern", |s, v| { s.config.export_dynamic_symbol_lists.push(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--dynamic-list"], Value, Implemented, "Read a list of dynamic symbols", "Similar to --export-dynamic-symbol-list. When creating a shared object, this additionally implies -Bsymbolic but does not set DF_SYMBOLIC", |s, v| { s.config.dynamic_lists.push(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--version-script"], Value, Implemented, "Read a version script", "", |s, v| { s.config.version_scripts.push(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--no-undefined-version"], Flag, Implemented, "Report version scripts that refer undefined symbols (default)", "Report version scripts that refer undefined symbols", |s, _| { s.config.no_undefined_version = true; Ok(()) }},
    opt! {["--undefined-version"], Flag, Implemented, "Allow unused version in version script", "Allow unused version in version script (disabled by default)", |s, _| { s.config.no_undefined_version = false; Ok(()) }},
    opt! {["--Bsymbolic"], Flag, Implemented, "Bind default visibility defined symbols locally for -shared", "", |s, _| { bsymbolic(s, Bsymbolic::All); Ok(()) }},
    opt! {["--Bsymbolic-functions"], Flag, Implemented, "Bind default visibility defined function symbols locally for -shared", "", |s, _| { bsymbolic(s, Bsymbolic::Functions); Ok(()) }},
    opt! {["--Bno-symbolic"], Flag, Implemented, "Don't bind default visibility defined symbols locally for -shared (default)", "", |s, _| { bsymbolic(s, Bsymbolic::None); Ok(()) }},
    opt! {["--Bsymbolic-non-weak"], Flag, Implemented, "Bind default visibility defined STB_GLOBAL symbols locally for -shared", "", |s, _| { bsymbolic(s, Bsymbolic::NonWeak); Ok(()) }},
    opt! {["--Bsymbolic-non-weak-functions"], Flag, Implemented, "Bind default visibility defined STB_GLOBAL function symbols locally for -shared", "", |s, _| { bsymbolic(s, Bsymbolic::NonWeakFunctions); Ok(()) }},
    opt! {["--hash-style"], Value, Implemented, "Specify hash style (sysv, gnu, both, or mold's none)", "Specify hash style (sysv, gnu or both)", hash_style},
    opt! {["--pack-dyn-relocs"], Value, Implemented, "Pack dynamic relocations in the given format (none, android, relr, android+relr)", "Pack dynamic relocations in the given format", pack_dyn_relocs},
    opt! {["--use-android-relr-tags"], Flag, Implemented, "Use SHT_ANDROID_RELR / DT_ANDROID_RELR* tags instead of SHT_RELR / DT_RELR*", "", |s, _| { s.config.use_android_relr_tags = true; Ok(()) }},
    opt! {["--no-use-android-relr-tags"], Flag, Implemented, "Use SHT_RELR / DT_RELR* tags (default)", "", |s, _| { s.config.use_android_relr_tags = false; Ok(()) }},
    opt! {["--audit"], Value, Implemented, "Add an audit library to DT_AUDIT (GNU ld's; not in lld)", "", |s, v| { s.config.audit.push(value(v).to_string()); Ok(()) }},
    opt! {["--depaudit", "-P"], Value, Implemented, "Add a dependency audit library to DT_DEPAUDIT (GNU ld's; not in lld)", "", |s, v| { s.config.depaudit.push(value(v).to_string()); Ok(()) }},
    opt! {["--dynamic-list-data"], Flag, Implemented, "Put every global data symbol in the dynamic symbol table (GNU ld's; not in lld)", "", |s, _| { s.config.dynamic_list_data = true; Ok(()) }},
    opt! {["--auxiliary"], Value, Implemented, "Set DT_AUXILIARY field to the specified name", "", |s, v| { s.config.auxiliaries.push(value(v).to_string()); Ok(()) }},
    opt! {["-f"], Separate, Implemented, "Alias for --auxiliary", "", |s, v| { s.config.auxiliaries.push(value(v).to_string()); Ok(()) }},
    opt! {["--filter"], Value, Implemented, "Set DT_FILTER field to the specified name", "", |s, v| { s.config.filters.push(value(v).to_string()); Ok(()) }},
    opt! {["-F"], Separate, Implemented, "Alias for --filter", "", |s, v| { s.config.filters.push(value(v).to_string()); Ok(()) }},
    opt! {["--exclude-libs"], Value, Implemented, "Exclude static libraries from automatic export", "", |s, v| {
        s.config.exclude_libs.extend(value(v).split([',', ':']).filter(|l| !l.is_empty()).map(str::to_string));
        Ok(())
    }},
    // ---- Garbage collection and reports ----
    opt! {["--gc-sections"], Flag, Implemented, "Enable garbage collection of unused sections", "", |s, _| { s.config.gc_sections = true; Ok(()) }},
    opt! {["--no-gc-sections"], Flag, Implemented, "Disable garbage collection of unused sections (default)", "", |s, _| { s.config.gc_sections = false; Ok(()) }},
    opt! {["--print-gc-sections"], OptionalValue, Implemented, "List removed unused sections (to stdout; =<file> not yet)", "List removed unused sections (to <file> if given)", |s, v| match v {
        None => { s.config.print_gc_sections = true; Ok(()) }
        Some(f) => Err(not_yet(&format!("--print-gc-sections={f}"))),
    }},
    opt! {["--no-print-gc-sections"], Flag, Implemented, "Do not list removed unused sections (default)", "", |s, _| { s.config.print_gc_sections = false; Ok(()) }},
    opt! {["--verify-precise-graph"], Flag, Implemented, "After LTO, check that no bitcode symbol hidden from regular objects is referenced by live native code (weld extension)", "(not an lld option)", |s, _| { s.config.verify_precise_graph = true; Ok(()) }},
    opt! {["--gc-archive-members"], Flag, Implemented, "Load archive members only when reached from live sections (weld extension)", "(not an lld option)", |s, _| { s.config.gc_archive_members = true; Ok(()) }},
    opt! {["--no-gc-archive-members"], Flag, Implemented, "Load archive members as GNU ld and lld do (default; weld extension)", "(not an lld option)", |s, _| { s.config.gc_archive_members = false; Ok(()) }},
    opt! {["--why-live"], Value, Implemented, "Report a chain of references preventing garbage collection for each symbol matching <glob>", "", |s, v| { s.config.why_live.push(value(v).to_string()); Ok(()) }},
    opt! {["--Map"], Value, Implemented, "Print a link map to the specified file", "", |s, v| { s.config.map_file = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--print-map", "-M"], Flag, Implemented, "Print a link map to the standard output", "", |s, _| { s.config.print_map = true; Ok(()) }},
    opt! {["--cref"], Flag, Implemented, "Output cross reference table. If -Map is specified, print to the map file", "", |s, _| { s.config.cref = true; Ok(()) }},
    // ---- LTO ----
    opt! {["--plugin"], Value, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers (LTO runs in-process)", "Ignored for compatibility with GNU linkers", accept},
    opt! {["--plugin-opt=O"], Joined, Implemented, "Alias for --lto-O", "", |s, v| { s.config.lto.opt_level = lto_opt_level(s, value(v), "")?; Ok(()) }},
    opt! {["--plugin-opt=mcpu="], Joined, Implemented, "CPU to generate code for in LTO", "", |s, v| { s.config.lto.mcpu = Some(value(v).to_string()); Ok(()) }},
    opt! {["--plugin-opt=jobs="], Joined, Implemented, "Alias for --thinlto-jobs=", "", |s, v| thinlto_jobs(s, value(v))},
    opt! {["--plugin-opt=lto-partitions="], Joined, Implemented, "Alias for --lto-partitions", "", |s, v| lto_partitions(s, value(v))},
    opt! {["--plugin-opt=obj-path="], Joined, Implemented, "Alias for --lto-obj-path=", "", |s, v| { s.config.lto.obj_path = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--plugin-opt=save-temps"], Flag, Implemented, "Alias for --save-temps", "", |s, _| { s.config.lto.save_temps = true; Ok(()) }},
    opt! {["--plugin-opt=emit-asm"], Flag, Implemented, "Alias for --lto-emit-asm", "", |s, _| { s.config.lto.emit_asm = true; Ok(()) }},
    opt! {["--plugin-opt=emit-llvm"], Flag, Implemented, "Alias for --lto-emit-llvm", "", |s, _| { s.config.lto.emit_llvm = true; Ok(()) }},
    opt! {["--plugin-opt=cache-dir="], Joined, Implemented, "LLVMgold's spelling of --thinlto-cache-dir= (weld extension)", "(LLVMgold.so option; lld rejects it)", |s, v| { s.config.lto.cache_dir = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--plugin-opt=cache-policy="], Joined, Implemented, "LLVMgold's spelling of --thinlto-cache-policy (weld extension)", "(LLVMgold.so option; lld rejects it)", |s, v| { s.config.lto.cache_policy = Some(value(v).to_string()); Ok(()) }},
    opt! {["--plugin-opt=thinlto"], Joined, IgnoredTuningOnly, "Ignored: each module's summary decides ThinLTO or regular LTO", "Ignored for compatibility with LLVMgold.so", accept},
    opt! {["--plugin-opt=thinlto-index-only"], Flag, Implemented, "Alias for --thinlto-index-only", "", thinlto_index_only},
    opt! {["--plugin-opt=thinlto-index-only="], Joined, Implemented, "Alias for --thinlto-index-only=", "", thinlto_index_only},
    opt! {["--plugin-opt=thinlto-emit-imports-files"], Flag, Implemented, "Alias for --thinlto-emit-imports-files", "", |s, _| { s.config.lto.thin_index.emit_imports_files = true; Ok(()) }},
    opt! {["--plugin-opt=thinlto-prefix-replace="], Joined, Implemented, "Alias for --thinlto-prefix-replace=", "", |s, v| { s.thinlto_prefix_replace = Some(Box::new((s.spelling.clone(), value(v).to_string()))); Ok(()) }},
    opt! {["--plugin-opt=thinlto-object-suffix-replace="], Joined, Implemented, "Alias for --thinlto-object-suffix-replace=", "", |s, v| { s.thinlto_object_suffix_replace = Some(Box::new((s.spelling.clone(), value(v).to_string()))); Ok(()) }},
    opt! {["--plugin-opt=debug-pass-manager"], Flag, Implemented, "Alias for --lto-debug-pass-manager", "", |s, _| { s.config.lto.debug_pass_manager = true; Ok(()) }},
    opt! {["--plugin-opt=disable-verify"], Flag, IgnoredTuningOnly, "Alias for --disable-verify", "", accept},
    opt! {["--plugin-opt=dwo_dir="], Joined, Implemented, "Directory to store .dwo files when LTO and debug fission are used", "", |s, v| { s.config.lto.dwo_dir = value(v).to_string(); Ok(()) }},
    opt! {["--plugin-opt=cs-profile-generate"], Flag, Implemented, "Alias for --lto-cs-profile-generate", "", |s, _| { s.config.lto.cs_profile_generate = true; Ok(()) }},
    opt! {["--plugin-opt=cs-profile-path="], Joined, Implemented, "Alias for --lto-cs-profile-file", "", |s, v| { s.config.lto.cs_profile_file = value(v).to_string(); Ok(()) }},
    opt! {["--plugin-opt=sample-profile="], Joined, Implemented, "Alias for --lto-sample-profile", "", sample_profile},
    opt! {["--plugin-opt=stats-file="], Joined, Implemented, "Filename to write LTO statistics to", "", |s, v| { s.config.lto.stats_file = value(v).to_string(); Ok(()) }},
    opt! {["--plugin-opt=time-trace="], Joined, Implemented, "Alias for --time-trace=", "", |s, v| { s.config.time_trace = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--plugin-opt=opt-remarks-filename="], Joined, Implemented, "Alias for --opt-remarks-filename", "", |s, v| { s.config.lto.remarks_filename = value(v).to_string(); Ok(()) }},
    opt! {["--plugin-opt=opt-remarks-passes="], Joined, Implemented, "Alias for --opt-remarks-passes", "", |s, v| { s.config.lto.remarks_passes = value(v).to_string(); Ok(()) }},
    opt! {["--plugin-opt=opt-remarks-format="], Joined, Implemented, "Alias for --opt-remarks-format", "", |s, v| { s.config.lto.remarks_format = value(v).to_string(); Ok(()) }},
    opt! {["--plugin-opt=opt-remarks-with-hotness"], Flag, Implemented, "Alias for --opt-remarks-with-hotness", "", |s, _| { s.config.lto.remarks_with_hotness = true; Ok(()) }},
    opt! {["--plugin-opt=opt-remarks-hotness-threshold="], Joined, Implemented, "Alias for --opt-remarks-hotness-threshold", "", remarks_hotness_threshold},
    opt! {["--plugin-opt=-fresolution="], Joined, IgnoredTuningOnly, "GCC LTO plugin option, sent by gcc on every link: ignored", "Ignored (GCC collect2 LTO plugin option)", accept},
    opt! {["--plugin-opt=-pass-through="], Joined, IgnoredTuningOnly, "GCC LTO plugin option, sent by gcc on every link: ignored", "Ignored (GCC collect2 LTO plugin option)", accept},
    opt! {["--plugin-opt=-"], Joined, Implemented, "Specify an LLVM option for compatibility with LLVMgold.so", "", |s, v| { s.config.lto.llvm_args.push(format!("-{}", value(v))); Ok(()) }},
    opt! {["--plugin-opt"], Separate, Implemented, "-plugin-opt VALUE: the same as -plugin-opt=VALUE", "", plugin_opt_separate},
    opt! {["--plugin-opt="], Joined, Implemented, "Any other plugin option: gcc's <path>/lto-wrapper is ignored, anything else is an error", "Unhandled LLVMgold.so option, or GCC's -plugin-opt=<path>/lto-wrapper (ignored)", plugin_opt_catch_all},
    opt! {["--lto-O"], Joined, Implemented, "Optimization level for LTO", "", |s, v| { s.config.lto.opt_level = lto_opt_level(s, value(v), "")?; Ok(()) }},
    opt! {["--lto-CGO"], Joined, Implemented, "Codegen optimization level for LTO", "", |s, v| { s.config.lto.cg_opt_level = Some(lto_opt_level(s, value(v), "codegen ")?); Ok(()) }},
    opt! {["--lto-partitions="], Joined, Implemented, "Number of LTO codegen partitions", "", |s, v| lto_partitions(s, value(v))},
    opt! {["--lto-obj-path="], Joined, Implemented, "Write LTO-compiled objects to this path", "", |s, v| { s.config.lto.obj_path = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--lto-emit-asm"], Flag, Implemented, "Emit assembly code", "", |s, _| { s.config.lto.emit_asm = true; Ok(()) }},
    opt! {["--save-temps"], Flag, Implemented, "Save intermediate LTO compilation results", "", |s, _| { s.config.lto.save_temps = true; Ok(()) }},
    opt! {["--save-temps="], Joined, Implemented, "Save select intermediate LTO compilation results (resolution, preopt, promote, internalize, import, opt, precodegen, prelink, combinedindex)", "Save select intermediate LTO compilation results", |s, v| { s.save_temps_stages.push(value(v).to_string()); Ok(()) }},
    opt! {["--mllvm"], Value, Implemented, "Additional arguments to forward to LLVM's option processing", "", |s, v| { s.config.lto.llvm_args.push(value(v).to_string()); Ok(()) }},
    opt! {["--thinlto-jobs="], Joined, Implemented, "Number of ThinLTO jobs (all, 0 = all hardware threads)", "Number of ThinLTO jobs. Default to --threads=", |s, v| thinlto_jobs(s, value(v))},
    opt! {["--thinlto-cache-dir="], Joined, Implemented, "Path to ThinLTO cached object file directory", "", |s, v| { s.config.lto.cache_dir = Some(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--thinlto-cache-policy"], Value, Implemented, "Pruning policy for the ThinLTO cache", "", |s, v| { s.config.lto.cache_policy = Some(value(v).to_string()); Ok(()) }},
    opt! {["--fat-lto-objects"], Flag, Implemented, "Use the .llvm.lto section, which contains LLVM bitcode, in fat LTO object files to perform LTO", "", |s, _| { s.config.lto.fat_lto_objects = true; Ok(()) }},
    opt! {["--no-fat-lto-objects"], Flag, Implemented, "Ignore the .llvm.lto section in relocatable object files (default)", "", |s, _| { s.config.lto.fat_lto_objects = false; Ok(()) }},
    opt! {["--disable-verify"], Flag, IgnoredTuningOnly, "Do not verify LLVM modules (the output is the same)", "Do not verify LLVM modules", accept},
    opt! {["--lto="], Joined, Implemented, "Set LTO backend: full, thin (for -funified-lto bitcode) or default", "Set LTO backend ([full,thin])", lto_kind},
    opt! {["--lto-emit-llvm"], Flag, Implemented, "Emit LLVM-IR bitcode", "", |s, _| { s.config.lto.emit_llvm = true; Ok(()) }},
    opt! {["--lto-debug-pass-manager"], Flag, Implemented, "Debug new pass manager", "", |s, _| { s.config.lto.debug_pass_manager = true; Ok(()) }},
    opt! {["--lto-newpm-passes="], Joined, Implemented, "Passes to run during LTO", "", |s, v| { s.config.lto.newpm_passes = value(v).to_string(); Ok(()) }},
    opt! {["--lto-aa-pipeline="], Joined, Implemented, "AA pipeline to run during LTO. Used in conjunction with -lto-newpm-passes", "", |s, v| { s.config.lto.aa_pipeline = value(v).to_string(); Ok(()) }},
    opt! {["--lto-whole-program-visibility"], Flag, Implemented, "Asserts that the LTO link has whole program visibility", "", |s, _| { s.config.lto.whole_program_visibility = true; Ok(()) }},
    opt! {["--no-lto-whole-program-visibility"], Flag, Implemented, "Asserts that the LTO link does not have whole program visibility (default)", "Asserts that the LTO link does not have whole program visibility", |s, _| { s.config.lto.whole_program_visibility = false; Ok(()) }},
    opt! {["--lto-sample-profile="], Joined, Implemented, "Sample profile file path", "", sample_profile},
    opt! {["--lto-cs-profile-generate"], Flag, Implemented, "Perform context sensitive PGO instrumentation", "", |s, _| { s.config.lto.cs_profile_generate = true; Ok(()) }},
    opt! {["--lto-cs-profile-file="], Joined, Implemented, "Context sensitive profile file path", "", |s, v| { s.config.lto.cs_profile_file = value(v).to_string(); Ok(()) }},
    opt! {["--lto-pgo-warn-mismatch"], Flag, Implemented, "turn on warnings about profile cfg mismatch (default)", "", |s, _| { s.config.lto.pgo_warn_mismatch = true; Ok(()) }},
    opt! {["--no-lto-pgo-warn-mismatch"], Flag, Implemented, "turn off warnings about profile cfg mismatch", "", |s, _| { s.config.lto.pgo_warn_mismatch = false; Ok(()) }},
    opt! {["--lto-basic-block-sections="], Joined, Implemented, "Enable basic block sections for LTO (all, none, labels, or a file listing functions and blocks)", "Enable basic block sections for LTO", |s, v| { s.config.lto.basic_block_sections = value(v).to_string(); Ok(()) }},
    opt! {["--lto-basic-block-address-map"], Flag, Implemented, "Emit basic block address map for LTO", "", |s, _| { s.config.lto.basic_block_address_map = true; Ok(()) }},
    opt! {["--no-lto-basic-block-address-map"], Flag, Implemented, "Do not emit basic block address map for LTO (default)", "", |s, _| { s.config.lto.basic_block_address_map = false; Ok(()) }},
    opt! {["--lto-unique-basic-block-section-names"], Flag, Implemented, "Give unique names to every basic block section for LTO", "", |s, _| { s.config.lto.unique_basic_block_section_names = true; Ok(()) }},
    opt! {["--no-lto-unique-basic-block-section-names"], Flag, Implemented, "Do not give unique names to every basic block section for LTO (default)", "", |s, _| { s.config.lto.unique_basic_block_section_names = false; Ok(()) }},
    opt! {["--lto-known-safe-vtables"], Value, Implemented, "When --lto-validate-all-vtables-have-type-infos is enabled, skip validation on these vtables (_ZTV symbols)", "", |s, v| { s.config.lto.known_safe_vtables.push(value(v).to_string()); Ok(()) }},
    opt! {["--lto-validate-all-vtables-have-type-infos"], Flag, Implemented, "Validate that all vtables have type infos for LTO link", "", |s, _| { s.config.lto.validate_all_vtables_have_type_infos = true; Ok(()) }},
    opt! {["--no-lto-validate-all-vtables-have-type-infos"], Flag, Implemented, "Do not validate that all vtables have type infos for LTO link (default)", "Do not validate that all vtables have type infos for LTO link", |s, _| { s.config.lto.validate_all_vtables_have_type_infos = false; Ok(()) }},
    opt! {["--load-pass-plugin"], Value, Implemented, "Load passes from plugin library", "", |s, v| { s.config.lto.pass_plugins.push(PathBuf::from(value(v))); Ok(()) }},
    opt! {["--opt-remarks-filename"], Separate, Implemented, "YAML output file for optimization remarks", "", |s, v| { s.config.lto.remarks_filename = value(v).to_string(); Ok(()) }},
    opt! {["--opt-remarks-passes"], Separate, Implemented, "Regex for the passes that need to be serialized to the output file", "", |s, v| { s.config.lto.remarks_passes = value(v).to_string(); Ok(()) }},
    opt! {["--opt-remarks-format"], Separate, Implemented, "The format used for serializing remarks (default: YAML)", "", |s, v| { s.config.lto.remarks_format = value(v).to_string(); Ok(()) }},
    opt! {["--opt-remarks-with-hotness"], Flag, Implemented, "Include hotness information in the optimization remarks file", "", |s, _| { s.config.lto.remarks_with_hotness = true; Ok(()) }},
    opt! {["--opt-remarks-hotness-threshold"], Value, Implemented, "Minimum profile count required for an optimization remark to be output. Use 'auto' to apply the threshold from profile summary", "", remarks_hotness_threshold},
    opt! {["--thinlto-index-only"], Flag, Implemented, "Write per-module ThinLTO index files and stop (distributed ThinLTO)", "", thinlto_index_only},
    opt! {["--thinlto-index-only="], Joined, Implemented, "As --thinlto-index-only, and list the native object files in <file>", "", thinlto_index_only},
    opt! {["--thinlto-emit-imports-files"], Flag, Implemented, "Write a .imports file per module (distributed ThinLTO)", "", |s, _| { s.config.lto.thin_index.emit_imports_files = true; Ok(()) }},
    opt! {["--thinlto-emit-index-files"], Flag, Implemented, "Write per-module ThinLTO index files and continue linking", "", |s, _| { s.config.lto.thin_index.emit_index_files = true; Ok(()) }},
    opt! {["--thinlto-prefix-replace="], Joined, Implemented, "Replace a prefix of ThinLTO output paths: old;new[;native object prefix]", "", |s, v| { s.thinlto_prefix_replace = Some(Box::new((s.spelling.clone(), value(v).to_string()))); Ok(()) }},
    opt! {["--thinlto-object-suffix-replace="], Joined, Implemented, "Replace a suffix of ThinLTO object paths: old;new", "", |s, v| { s.thinlto_object_suffix_replace = Some(Box::new((s.spelling.clone(), value(v).to_string()))); Ok(()) }},
    opt! {["--thinlto-single-module="], Joined, Implemented, "Specify a single module to compile in ThinLTO mode, for debugging only", "", |s, v| { s.config.lto.thin_index.single_modules.push(value(v).to_string()); Ok(()) }},
    opt! {["--thinlto-distributor="], Joined, Implemented, "Distributor to use for ThinLTO backend compilations. If specified, ThinLTO backend compilations will be distributed", "", |s, v| { s.config.lto.dtlto.distributor = value(v).to_string(); Ok(()) }},
    opt! {["--thinlto-distributor-arg="], Joined, Implemented, "Arguments to pass to the ThinLTO distributor", "", |s, v| { s.config.lto.dtlto.distributor_args.push(value(v).to_string()); Ok(()) }},
    opt! {["--thinlto-remote-compiler="], Joined, Implemented, "Compiler for the ThinLTO distributor to invoke for ThinLTO backend compilations", "", |s, v| { s.config.lto.dtlto.remote_compiler = value(v).to_string(); Ok(()) }},
    opt! {["--thinlto-remote-compiler-arg="], Joined, Implemented, "Compiler arguments for the ThinLTO distributor to pass for ThinLTO backend compilations", "", |s, v| { s.config.lto.dtlto.remote_compiler_args.push(value(v).to_string()); Ok(()) }},
    opt! {["--thinlto-remote-compiler-prepend-arg="], Joined, Implemented, "Compiler prepend arguments for the ThinLTO distributor to pass for ThinLTO backend compilations", "", |s, v| { s.config.lto.dtlto.remote_compiler_prepend_args.push(value(v).to_string()); Ok(()) }},
    // ---- Accepted and ignored by lld for compatibility with GNU ld ----
    opt! {["-d", "--define-common", "-dc", "-dp"], Flag, Implemented, "Assign space to common symbols in a relocatable output (-r), as GNU ld does; without -r they always get space", "Ignored for compatibility with GNU linkers", |s, _| { s.config.define_common = true; Ok(()) }},
    opt! {["-g"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["-G"], Value, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["--long-plt"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["--no-add-needed"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["--no-copy-dt-needed-entries"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers (lld never copies DT_NEEDED)", "Ignored for compatibility with GNU linkers", accept},
    opt! {["--no-ctors-in-init-array"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["--no-keep-memory"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["--secure-plt"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["--sort-common"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["--warn-execstack"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["--warn-once"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    opt! {["--warn-shared-textrel"], Flag, IgnoredTuningOnly, "Ignored for compatibility with GNU linkers", "", accept},
    // ---- Other architectures (lld accepts them; x86-64 links cannot use them) ----
    opt! {["--be8"], Flag, Implemented, "Refused on x86-64, as lld refuses it (ARM only)", "write a Big Endian ELF file using BE8 format (AArch32 only)", |_, _| bail!("--be8 is only supported on ARM targets")},
    opt! {["--fix-cortex-a53-843419"], Flag, Implemented, "Refused on x86-64, as lld refuses it (AArch64 only)", "Apply fixes for AArch64 Cortex-A53 erratum 843419", |_, _| bail!("--fix-cortex-a53-843419 is only supported on AArch64")},
    opt! {["--fix-cortex-a8"], Flag, Implemented, "Refused on x86-64, as lld refuses it (ARM only)", "Apply fixes for ARM Cortex-A8 erratum 657417", |_, _| bail!("--fix-cortex-a8 is only supported on ARM targets")},
    opt! {["--merge-exidx-entries"], Flag, IgnoredTuningOnly, "Enable merging .ARM.exidx entries (ARM only; default)", "Enable merging .ARM.exidx entries (default)", accept},
    opt! {["--no-merge-exidx-entries"], Flag, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (ARM exception index tables)", "Disable merging .ARM.exidx entries", accept},
    opt! {["--pic-veneer"], Flag, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (ARM thunks)", "Always generate position independent thunks (veneers)", accept},
    opt! {["--target1-abs"], Flag, IgnoredTuningOnly, "Interpret R_ARM_TARGET1 as R_ARM_ABS32 (ARM only; default)", "Interpret R_ARM_TARGET1 as R_ARM_ABS32 (default)", accept},
    opt! {["--target1-rel"], Flag, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (an ARM relocation)", "Interpret R_ARM_TARGET1 as R_ARM_REL32", accept},
    opt! {["--target2"], Value, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (an ARM relocation); the value is checked", "Interpret R_ARM_TARGET2 as <type>, where <type> is one of rel, abs, or got-rel", |_, v| match value(v) { "rel" | "abs" | "got-rel" => Ok(()), o => bail!("unknown --target2 option: {o}") }},
    opt! {["--cmse-implib"], Flag, Implemented, "Refused on x86-64, as lld refuses it (ARM only)", "Make the output library to be a CMSE secure code import library", |_, _| bail!("--cmse-implib is only supported on ARM targets")},
    opt! {["--in-implib"], Value, Implemented, "Refused on x86-64, as lld refuses it (ARM only; a missing file is reported first)", "Read an existing CMSE secure code import library", in_implib},
    opt! {["--out-implib"], Value, Implemented, "Refused on x86-64, as lld refuses it (ARM only)", "Output the CMSE secure code import library to <file>", |_, _| bail!("--out-implib is only supported on ARM targets")},
    opt! {["--relax-gp"], Flag, Implemented, "Refused on x86-64, as lld refuses it (RISC-V only)", "Enable global pointer relaxation", |_, _| bail!("--relax-gp is only supported on RISC-V targets")},
    opt! {["--no-relax-gp"], Flag, IgnoredTuningOnly, "Disable global pointer relaxation (RISC-V only; default)", "Disable global pointer relaxation (default)", accept},
    opt! {["--toc-optimize"], Flag, IgnoredTuningOnly, "(PowerPC64) Enable TOC related optimizations (default)", "", accept},
    opt! {["--no-toc-optimize"], Flag, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (PowerPC64)", "(PowerPC64) Disable TOC related optimizations", accept},
    opt! {["--pcrel-optimize"], Flag, IgnoredTuningOnly, "(PowerPC64) Enable PC-relative optimizations (default)", "", accept},
    opt! {["--no-pcrel-optimize"], Flag, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (PowerPC64)", "(PowerPC64) Disable PC-relative optimizations", accept},
    opt! {["--power10-stubs"], OptionalValue, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (PowerPC64)", "Whether to use Power10 instructions in call stubs", accept},
    opt! {["--no-power10-stubs"], Flag, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (PowerPC64)", "Alias for --power10-stubs=no", accept},
    opt! {["--mips-got-size"], Value, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (MIPS); the value is checked", "Max size of a single MIPS GOT", |s, v| { parse_int(value(v)).map(|_| ()).ok_or_else(|| err!("{}: number expected, but got '{}'", s.arg_text, value(v))) }},
    opt! {["--split-stack-adjust-size"], Value, Implemented, "Specify adjustment to stack size when a split-stack function calls a non-split-stack function (checked and kept; as in lld 22, x86-64 prologues are always adjusted by 16384)", "Specify adjustment to stack size when a split-stack function calls a non-split-stack function", |s, v| {
        let v = value(v);
        // Checked for >= 0 once the command line is read (`args::finish`): the last one wins.
        s.config.split_stack_adjust_size = parse_decimal(v).ok_or_else(|| err!("{}: number expected, but got '{v}'", s.arg_text))?;
        Ok(())
    }},
    opt! {["--android-memtag-heap"], Flag, IgnoredTuningOnly, "Accepted, as lld does on x86-64 (memory tagging is AArch64 only); without --android-memtag-mode it warns as lld does", "Instruct the dynamic loader to enable MTE protection for the heap", |s, _| { s.memtag_heap = true; Ok(()) }},
    opt! {["--android-memtag-stack"], Flag, IgnoredTuningOnly, "Accepted, as lld does on x86-64 (memory tagging is AArch64 only); without --android-memtag-mode it warns as lld does", "Instruct the dynamic loader to prepare for MTE stack instrumentation", |s, _| { s.memtag_stack = true; Ok(()) }},
    opt! {["--android-memtag-mode"], Value, IgnoredTuningOnly, "Accepted and ignored, as lld does on x86-64 (AArch64 only); the value is checked", "Instruct the dynamic loader to start under MTE mode {async, sync, none}", android_memtag_mode},
    // ---- -z keywords ----
    opt! {["-z"], Value, Implemented, "Linker option extensions (the -z keywords below; unknown ones are a warning)", "Linker option extensions", |s, v| dispatch_z(s, value(v))},
    opt! {["-z relro"], ZKeyword, Implemented, "Create a PT_GNU_RELRO segment (default)", "", |s, _| { s.config.z.relro = true; Ok(()) }},
    opt! {["-z norelro"], ZKeyword, Implemented, "Do not create a PT_GNU_RELRO segment", "", |s, _| { s.config.z.relro = false; Ok(()) }},
    opt! {["-z now"], ZKeyword, Implemented, "Resolve all symbols at load time (DF_BIND_NOW)", "", |s, _| { s.config.z.now = true; Ok(()) }},
    opt! {["-z lazy"], ZKeyword, Implemented, "Lazy function binding (default)", "", |s, _| { s.config.z.now = false; Ok(()) }},
    opt! {["-z execstack-if-needed"], ZKeyword, Implemented, "Make the main stack executable if an input's .note.GNU-stack is (mold's; lld warns)", "", |s, _| { s.config.z.execstack_if_needed = true; Ok(()) }},
    opt! {["-z execstack"], ZKeyword, Implemented, "Make the main stack executable (PT_GNU_STACK RWX)", "", |s, _| { s.config.z.execstack = true; Ok(()) }},
    opt! {["-z noexecstack"], ZKeyword, Implemented, "Make the main stack non-executable (default)", "", |s, _| { s.config.z.execstack = false; Ok(()) }},
    opt! {["-z nognustack"], ZKeyword, Implemented, "Do not emit PT_GNU_STACK", "", |s, _| { s.config.z.nognustack = true; Ok(()) }},
    opt! {["-z separate-code"], ZKeyword, Implemented, "Put executable code in pages of its own", "", |s, _| { s.config.z.separate_code = true; s.config.z.separate_loadable = false; Ok(()) }},
    opt! {["-z noseparate-code"], ZKeyword, Implemented, "Let code share pages with other data (default)", "", |s, _| { s.config.z.separate_code = false; s.config.z.separate_loadable = false; Ok(()) }},
    opt! {["-z separate-loadable-segments"], ZKeyword, Implemented, "Put every loadable segment in pages of its own", "", |s, _| { s.config.z.separate_code = true; s.config.z.separate_loadable = true; Ok(()) }},
    opt! {["-z max-page-size="], ZKeyword, Implemented, "Maximum page size segments are aligned to", "", |s, v| { s.config.z.max_page_size = Some(page_size(v, "max-page-size")?); Ok(()) }},
    opt! {["-z common-page-size="], ZKeyword, Implemented, "Common page size (RELRO end alignment)", "", |s, v| { s.config.z.common_page_size = Some(page_size(v, "common-page-size")?); Ok(()) }},
    opt! {["-z text"], ZKeyword, Implemented, "Do not allow relocations against read-only segments (default)", "", |s, _| { s.config.z.text = true; Ok(()) }},
    opt! {["-z notext"], ZKeyword, Implemented, "Allow relocations against read-only segments (DT_TEXTREL)", "", |s, _| { s.config.z.text = false; Ok(()) }},
    opt! {["-z defs"], ZKeyword, Implemented, "Report unresolved symbols in shared objects too (= --no-undefined)", "", |s, _| { s.config.z.defs = true; s.config.report_undefined_in_objects = Some(true); Ok(()) }},
    opt! {["-z undefs"], ZKeyword, Implemented, "Allow unresolved symbols in shared objects (default for -shared)", "", |s, _| { s.config.z.defs = false; s.config.report_undefined_in_objects = Some(false); Ok(()) }},
    opt! {["-z muldefs"], ZKeyword, Implemented, "Allow multiple definitions (= --allow-multiple-definition)", "", |s, _| { s.config.allow_multiple_definition = true; Ok(()) }},
    opt! {["-z nodelete"], ZKeyword, Implemented, "Mark the shared object not unloadable (DF_1_NODELETE)", "", |s, _| { s.config.z.nodelete = true; Ok(()) }},
    opt! {["-z nodlopen"], ZKeyword, Implemented, "Mark the shared object not dlopen-able (DF_1_NOOPEN)", "", |s, _| { s.config.z.nodlopen = true; Ok(()) }},
    opt! {["-z nodump"], ZKeyword, Implemented, "Mark the object not dumpable by dldump (DF_1_NODUMP; GNU ld's, lld warns)", "", |s, _| { s.config.z.nodump = true; Ok(()) }},
    opt! {["-z origin"], ZKeyword, Implemented, "Mark the object as needing $ORIGIN processing (DF_ORIGIN)", "", |s, _| { s.config.z.origin = true; Ok(()) }},
    opt! {["-z start-stop-gc"], ZKeyword, Implemented, "__start_/__stop_ references do not retain sections under --gc-sections (default)", "", |s, _| { s.config.z.start_stop_gc = true; Ok(()) }},
    opt! {["-z nostart-stop-gc"], ZKeyword, Implemented, "__start_/__stop_ references retain all sections of that name", "", |s, _| { s.config.z.start_stop_gc = false; Ok(()) }},
    opt! {["-z pack-relative-relocs"], ZKeyword, Implemented, "Pack relative relocations in DT_RELR (= --pack-dyn-relocs=relr)", "", |s, _| { s.config.pack_dyn_relocs_relr = true; s.config.relr_glibc = true; Ok(()) }},
    opt! {["-z nopack-relative-relocs"], ZKeyword, Implemented, "Do not pack relative relocations (default)", "", |s, _| { s.config.pack_dyn_relocs_relr = false; s.config.relr_glibc = false; Ok(()) }},
    opt! {["-z combreloc"], ZKeyword, IgnoredTuningOnly, "Sort dynamic relocations (default; order only)", "", accept},
    opt! {["-z nocombreloc"], ZKeyword, IgnoredTuningOnly, "Do not sort dynamic relocations (order only)", "", accept},
    opt! {["-z copyreloc"], ZKeyword, Implemented, "Allow copy relocations (default)", "", |s, _| { s.config.z.copyreloc = true; Ok(()) }},
    opt! {["-z nocopyreloc"], ZKeyword, Implemented, "Disallow copy relocations", "", |s, _| { s.config.z.copyreloc = false; Ok(()) }},
    opt! {["-z rela"], ZKeyword, Implemented, "Use RELA dynamic relocations (default on x86-64)", "Use RELA dynamic relocations", |s, _| { s.config.z.rel = false; Ok(()) }},
    opt! {["-z rel"], ZKeyword, Implemented, "Use REL dynamic relocations", "", |s, _| { s.config.z.rel = true; Ok(()) }},
    opt! {["-z keep-text-section-prefix"], ZKeyword, Implemented, "Keep .text.hot/.text.unlikely/... as separate output sections", "", |s, _| { s.config.z.keep_text_section_prefix = true; Ok(()) }},
    opt! {["-z nokeep-text-section-prefix"], ZKeyword, Implemented, "Merge .text.* into .text (default)", "", |s, _| { s.config.z.keep_text_section_prefix = false; Ok(()) }},
    opt! {["-z hazardplt"], ZKeyword, IgnoredTuningOnly, "Use hazard-barrier PLT entries (MIPS only)", "", accept},
    opt! {["-z global"], ZKeyword, Implemented, "Make symbols available for subsequently loaded objects (DF_1_GLOBAL)", "", |s, _| { s.config.z.global = true; Ok(()) }},
    opt! {["-z initfirst"], ZKeyword, Implemented, "Run this object's initializers first (DF_1_INITFIRST)", "", |s, _| { s.config.z.initfirst = true; Ok(()) }},
    opt! {["-z interpose"], ZKeyword, Implemented, "Mark the object as interposer (DF_1_INTERPOSE)", "", |s, _| { s.config.z.interpose = true; Ok(()) }},
    opt! {["-z nodefaultlib"], ZKeyword, Implemented, "Ignore default library search paths at run time (DF_1_NODEFLIB)", "", |s, _| { s.config.z.nodefaultlib = true; Ok(()) }},
    opt! {["-z ifunc-noplt"], ZKeyword, Implemented, "Do not emit PLT entries for ifunc symbols. Instead, emit text relocations referencing the resolver (must be combined with -z notext)", "", |s, _| { s.ifunc_noplt = true; Ok(()) }},
    opt! {["-z retpolineplt"], ZKeyword, Implemented, "Emit retpoline format PLT entries as a mitigation for CVE-2017-5715", "", |s, _| { s.config.z.retpolineplt = true; Ok(()) }},
    opt! {["-z dynamic-undefined-weak"], ZKeyword, Implemented, "Import weak undefined symbols through the dynamic symbol table (default)", "", |s, _| { s.config.z.nodynamic_undefined_weak = false; Ok(()) }},
    opt! {["-z nodynamic-undefined-weak"], ZKeyword, Implemented, "Resolve weak undefined symbols to 0 instead of importing them", "", |s, _| { s.config.z.nodynamic_undefined_weak = true; Ok(()) }},
    opt! {["-z rodynamic"], ZKeyword, Implemented, "Make the .dynamic section read-only", "", |s, _| { s.config.z.rodynamic = true; Ok(()) }},
    opt! {["-z wxneeded"], ZKeyword, Implemented, "Set PT_OPENBSD_WXNEEDED", "", |s, _| { s.config.z.wxneeded = true; Ok(()) }},
    opt! {["-z shstk"], ZKeyword, Implemented, "Force the SHSTK (shadow stack) GNU property", "", |s, _| { s.config.z.shstk = true; Ok(()) }},
    opt! {["-z x86-64-baseline"], ZKeyword, Implemented, "Mark the output as needing the x86-64 baseline ISA (GNU_PROPERTY_X86_ISA_1_NEEDED; GNU ld's, lld warns)", "", |s, _| { s.config.z.isa_level_needed = 1; Ok(()) }},
    opt! {["-z x86-64-v2"], ZKeyword, Implemented, "Mark the output as needing x86-64-v2 (GNU ld's, lld warns)", "", |s, _| { s.config.z.isa_level_needed = 2; Ok(()) }},
    opt! {["-z x86-64-v3"], ZKeyword, Implemented, "Mark the output as needing x86-64-v3 (GNU ld's, lld warns)", "", |s, _| { s.config.z.isa_level_needed = 4; Ok(()) }},
    opt! {["-z x86-64-v4"], ZKeyword, Implemented, "Mark the output as needing x86-64-v4 (GNU ld's, lld warns)", "", |s, _| { s.config.z.isa_level_needed = 8; Ok(()) }},
    opt! {["-z ibt"], ZKeyword, Implemented, "Mark the output IBT-compatible and use the IBT PLT, whatever the inputs say (GNU ld's; lld warns)", "", |s, _| { s.config.z.ibt = true; Ok(()) }},
    opt! {["-z force-ibt"], ZKeyword, Implemented, "Force enable Intel Indirect Branch Tracking in PLT, warn if an input ELF file does not have GNU_PROPERTY_X86_FEATURE_1_IBT property", "", |s, _| { s.config.z.force_ibt = true; Ok(()) }},
    // lld splits the keyword at `=`, so a bare `-z cet-report` is an empty, unknown value.
    opt! {["-z cet-report=", "-z cet-report"], ZKeyword, Implemented, "Specify how to report the missing GNU_PROPERTY_X86_FEATURE_1_IBT or GNU_PROPERTY_X86_FEATURE_1_SHSTK properties (none, the default, warning or error)", "", |s, v| {
        s.config.z.cet_report = match value(v) {
            "none" => CetReport::None,
            "warning" => CetReport::Warning,
            "error" => CetReport::Error,
            o => bail!("unknown -z cet-report= value: {o}"),
        };
        Ok(())
    }},
    opt! {["-z force-bti"], ZKeyword, Implemented, "Refused on x86-64, as lld refuses it (AArch64 only)", "Force the BTI property (AArch64 only)", |_, _| bail!("-z force-bti only supported on AArch64")},
    opt! {["-z pac-plt"], ZKeyword, Implemented, "Refused on x86-64, as lld refuses it (AArch64 only)", "Use PAC PLT entries (AArch64 only)", |_, _| bail!("-z pac-plt only supported on AArch64")},
    opt! {["-z bti-report="], ZKeyword, Implemented, "Refused on x86-64 unless none, as lld refuses it (AArch64 only)", "Report objects without BTI (AArch64 only)", |_, v| other_target_report(v, "bti-report", "-z bti-report only supported on AArch64")},
    opt! {["-z gcs="], ZKeyword, Implemented, "Refused on x86-64 unless implicit, as lld refuses it (AArch64 only)", "Set the GCS property: always, never or implicit (AArch64 only)", |_, v| other_target_mode(v, "gcs", &["always", "never"], &["implicit"], "-z gcs only supported on AArch64")},
    opt! {["-z gcs-report="], ZKeyword, Implemented, "Refused on x86-64 unless none, as lld refuses it (AArch64 only)", "Report objects without GCS (AArch64 only)", |_, v| other_target_report(v, "gcs-report", "-z gcs-report only supported on AArch64")},
    opt! {["-z gcs-report-dynamic="], ZKeyword, Implemented, "Refused on x86-64 unless none, as lld refuses it (AArch64 only)", "Report shared libraries without GCS (AArch64 only)", |_, v| other_target_report(v, "gcs-report-dynamic", "-z gcs-report-dynamic only supported on AArch64")},
    opt! {["-z execute-only-report="], ZKeyword, Implemented, "Refused on x86-64 unless none, as lld refuses it (AArch64 and ARM only)", "Report executable sections without SHF_AARCH64_PURECODE/SHF_ARM_PURECODE", |_, v| other_target_report(v, "execute-only-report", "-z execute-only-report only supported on AArch64 and ARM")},
    opt! {["-z zicfilp="], ZKeyword, Implemented, "Refused on x86-64 unless implicit, as lld refuses it (RISC-V only)", "Set the Zicfilp property: unlabeled, func-sig, never or implicit (RISC-V only)", |_, v| other_target_mode(v, "zicfilp", &["unlabeled", "func-sig", "never"], &["implicit"], "-z zicfilp is only supported on RISC-V targets")},
    opt! {["-z zicfiss="], ZKeyword, Implemented, "Refused on x86-64 unless implicit, as lld refuses it (RISC-V only)", "Set the Zicfiss property: always, never or implicit (RISC-V only)", |_, v| other_target_mode(v, "zicfiss", &["always", "never"], &["implicit"], "-z zicfiss is only supported on RISC-V targets")},
    // lld's message names the extension "zicfilip" in these two.
    opt! {["-z zicfilp-unlabeled-report="], ZKeyword, Implemented, "Refused on x86-64 unless none, as lld refuses it (RISC-V only)", "Report objects without the unlabeled Zicfilp property (RISC-V only)", |_, v| other_target_report(v, "zicfilp-unlabeled-report", "-z zicfilip-unlabeled-report is only supported on RISC-V targets")},
    opt! {["-z zicfilp-func-sig-report="], ZKeyword, Implemented, "Refused on x86-64 unless none, as lld refuses it (RISC-V only)", "Report objects without the func-sig Zicfilp property (RISC-V only)", |_, v| other_target_report(v, "zicfilp-func-sig-report", "-z zicfilip-func-sig-report is only supported on RISC-V targets")},
    opt! {["-z zicfiss-report="], ZKeyword, Implemented, "Refused on x86-64 unless none, as lld refuses it (RISC-V only)", "Report objects without the Zicfiss property (RISC-V only)", |_, v| other_target_report(v, "zicfiss-report", "-z zicfiss-report is only supported on RISC-V targets")},
    opt! {["-z nobtcfi"], ZKeyword, IgnoredTuningOnly, "Mark the output as not using branch target CFI (OpenBSD; no effect on Linux x86-64, as in lld)", "", accept},
    opt! {["-z lrodata-after-bss"], ZKeyword, Implemented, "Place .lrodata after .lbss, before .ldata (the layout for non-PIC code)", "", |s, _| { s.config.z.lrodata_after_bss = true; Ok(()) }},
    opt! {["-z nolrodata-after-bss"], ZKeyword, Implemented, "Place .lrodata before .rodata (default)", "", |s, _| { s.config.z.lrodata_after_bss = false; Ok(()) }},
    opt! {["-z keep-data-section-prefix"], ZKeyword, Implemented, "Treat .data.rel.ro.hot and .data.rel.ro.unlikely as RELRO (the default layout is unchanged, as in lld)", "", |s, _| { s.config.z.keep_data_section_prefix = true; Ok(()) }},
    opt! {["-z nokeep-data-section-prefix"], ZKeyword, Implemented, "Do not keep data section prefixes (default)", "", |s, _| { s.config.z.keep_data_section_prefix = false; Ok(()) }},
    opt! {["-z sectionheader"], ZKeyword, Implemented, "Write the section header table (default)", "", |s, _| { s.config.z.section_header = true; Ok(()) }},
    opt! {["-z nosectionheader"], ZKeyword, Implemented, "Write no section header table (implies --strip-all; non-allocated sections are left out)", "", |s, _| { s.config.z.section_header = false; Ok(()) }},
    opt! {["-z oe-aware"], ZKeyword, Implemented, "Warned about as an unknown -z value, as ld.lld-22 does on x86-64", "Mark the output OE-aware", |s, _| { s.warn("unknown -z value: oe-aware"); Ok(()) }},
    opt! {["-z dead-reloc-in-nonalloc="], ZKeyword, Implemented, "Value for relocations in non-SHF_ALLOC sections that refer to discarded sections", "", |s, v| {
        let (glob, val) = value(v).split_once('=').ok_or_else(|| err!("-z dead-reloc-in-nonalloc=: expected <section_glob>=<value>"))?;
        let n = parse_int(val).ok_or_else(|| err!("-z dead-reloc-in-nonalloc=: expected a non-negative integer, but got '{val}'"))?;
        s.config.dead_reloc_in_nonalloc.push((glob.to_string(), n));
        Ok(())
    }},
    opt! {["-z stack-size="], ZKeyword, Implemented, "Size of the main stack (PT_GNU_STACK p_memsz)", "", |s, v| {
        s.config.z.stack_size = parse_int(value(v)).ok_or_else(|| err!("invalid stack-size: {}", value(v)))?;
        Ok(())
    }},
    opt! {["-z start-stop-visibility="], ZKeyword, Implemented, "Visibility of __start_/__stop_ symbols", "", |s, v| {
        s.config.z.start_stop_visibility = match value(v) {
            "default" => object::elf::STV_DEFAULT,
            "internal" => object::elf::STV_INTERNAL,
            "hidden" => object::elf::STV_HIDDEN,
            "protected" => object::elf::STV_PROTECTED,
            o => bail!("unknown -z start-stop-visibility= value: {o}"),
        };
        Ok(())
    }},
];

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    fn m(s: &[&str]) -> Result<Match> {
        match_option(&argv(s), 0)
    }

    #[test]
    fn names_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for def in OPTIONS {
            assert!(!def.names.is_empty());
            assert!(!def.help.is_empty(), "{}", def.name());
            for n in def.names {
                assert!(n.starts_with('-'), "{n}");
                assert!(seen.insert(*n), "duplicate option name {n}");
                if def.arg == ArgForm::ZKeyword {
                    assert!(n.starts_with("-z "), "{n}");
                }
            }
        }
    }

    #[test]
    fn one_and_two_dash_spellings() {
        for a in ["--gc-sections", "-gc-sections"] {
            assert_eq!(m(&[a]).unwrap().def.name(), "--gc-sections");
        }
        let x = m(&["-soname", "libx.so"]).unwrap();
        assert_eq!(
            (x.def.name(), x.value.as_deref(), x.consumed),
            ("--soname", Some("libx.so"), 2)
        );
        assert_eq!(x.spelling, "-soname");
        let x = m(&["--soname=libx.so"]).unwrap();
        assert_eq!((x.value.as_deref(), x.consumed), (Some("libx.so"), 1));
        let x = m(&["-hlibx.so"]).unwrap();
        assert_eq!(
            (x.def.name(), x.value.as_deref()),
            ("--soname", Some("libx.so"))
        );
    }

    #[test]
    fn names_starting_with_o_need_two_dashes() {
        let x = m(&["-output", "x"]).unwrap();
        assert_eq!(
            (x.def.name(), x.value.as_deref(), x.consumed),
            ("-o", Some("utput"), 1)
        );
        let x = m(&["--output", "x"]).unwrap();
        assert_eq!((x.def.name(), x.value.as_deref()), ("-o", Some("x")));
        let x = m(&["-ofile"]).unwrap();
        assert_eq!(x.value.as_deref(), Some("file"));
    }

    #[test]
    fn longest_match_wins() {
        assert_eq!(
            m(&["-export-dynamic"]).unwrap().def.name(),
            "--export-dynamic"
        );
        let x = m(&["-export-dynamicx"]).unwrap();
        assert_eq!(
            (x.def.name(), x.value.as_deref()),
            ("--entry", Some("xport-dynamicx"))
        );
        assert_eq!(m(&["-mllvm", "-x"]).unwrap().def.name(), "--mllvm");
        let x = m(&["-melf_x86_64"]).unwrap();
        assert_eq!(
            (x.def.name(), x.value.as_deref()),
            ("-m", Some("elf_x86_64"))
        );
        let x = m(&["-plugin-opt=O2"]).unwrap();
        assert_eq!(
            (x.def.name(), x.value.as_deref()),
            ("--plugin-opt=O", Some("2"))
        );
        let x = m(&["-plugin-opt=thinlto-index-only"]).unwrap();
        assert_eq!(x.def.name(), "--plugin-opt=thinlto-index-only");
        let x = m(&["-plugin-opt=thinlto-foo"]).unwrap();
        assert_eq!(x.def.name(), "--plugin-opt=thinlto");
        let x = m(&["-plugin-opt=-fresolution=/tmp/x.res"]).unwrap();
        assert_eq!(x.def.name(), "--plugin-opt=-fresolution=");
        let x = m(&["-plugin-opt", "O2"]).unwrap();
        assert_eq!((x.def.name(), x.consumed), ("--plugin-opt", 2));
        let x = m(&["-plugin-opt=-mattr=+avx"]).unwrap();
        assert_eq!(
            (x.def.name(), x.value.as_deref()),
            ("--plugin-opt=-", Some("mattr=+avx"))
        );
        assert_eq!(m(&["-rpath", "/x"]).unwrap().def.name(), "--rpath");
        assert_eq!(m(&["-r"]).unwrap().def.name(), "--relocatable");
    }

    #[test]
    fn short_joined_or_separate() {
        for (args, val) in [(&["-L", "/d"][..], "/d"), (&["-L/d"][..], "/d")] {
            let x = m(args).unwrap();
            assert_eq!((x.def.name(), x.value.as_deref()), ("-L", Some(val)));
        }
        let x = m(&["-l:libc.a"]).unwrap();
        assert_eq!(x.value.as_deref(), Some(":libc.a"));
        let x = m(&["-znow"]).unwrap();
        assert_eq!((x.def.name(), x.value.as_deref()), ("-z", Some("now")));
        let x = m(&["-O1"]).unwrap();
        assert_eq!((x.def.name(), x.value.as_deref()), ("-O", Some("1")));
    }

    #[test]
    fn separate_only_short_options_do_not_join() {
        // lld: `-f` takes a separate value only, so `-flavor` is unknown (not `-f lavor`).
        assert_eq!(m(&["-flavor"]).unwrap_err().0, "unknown argument '-flavor'");
    }

    #[test]
    fn unknown_arguments_and_suggestions() {
        assert_eq!(m(&["--foo"]).unwrap_err().0, "unknown argument '--foo'");
        assert_eq!(m(&["--O1"]).unwrap_err().0, "unknown argument '--O1'");
        let cases = [
            ("--gc-section", "--gc-sections"),
            ("-gc-section", "-gc-sections"),
            ("--whole-archiv", "--whole-archive"),
            ("--build-idd", "--build-id"),
            ("--thread=4", "--threads=4"),
            ("--Mapp=x", "--Map=x"),
            ("--hash-styl=gnu", "--hash-style=gnu"),
            ("--lto-0", "--lto-O"),
            ("--icf=alll", "--icf=all"),
            ("--no-pi", "--no-pie"),
            ("--versio", "--version"),
            ("-plugin-op=x", "-plugin-opt=x"),
        ];
        for (arg, want) in cases {
            assert_eq!(
                m(&[arg]).unwrap_err().0,
                format!("unknown argument '{arg}', did you mean '{want}'")
            );
        }
        for arg in ["--pie2", "-pi", "--vers", "--zz"] {
            assert_eq!(
                m(&[arg]).unwrap_err().0,
                format!("unknown argument '{arg}'")
            );
        }
    }

    #[test]
    fn missing_argument() {
        assert_eq!(m(&["-o"]).unwrap_err().0, "-o: missing argument");
        assert_eq!(m(&["-Map"]).unwrap_err().0, "-Map: missing argument");
        assert_eq!(m(&["-z"]).unwrap_err().0, "-z: missing argument");
        assert_eq!(m(&["--wrap"]).unwrap_err().0, "--wrap: missing argument");
        assert_eq!(
            m(&["-plugin-opt"]).unwrap_err().0,
            "-plugin-opt: missing argument"
        );
    }

    #[test]
    fn edit_distance() {
        let d = edit_distance_within_one;
        assert_eq!(d("abc", "abc"), Some(0));
        assert_eq!(d("abc", "abd"), Some(1));
        assert_eq!(d("abc", "ab"), Some(1));
        assert_eq!(d("ab", "abc"), Some(1));
        assert_eq!(d("abc", "xabc"), Some(1));
        assert_eq!(d("abc", "acb"), None);
        assert_eq!(d("abc", "a"), None);
        assert_eq!(d("", "a"), Some(1));
    }
}
