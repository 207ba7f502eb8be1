//! The structure of a linked output, normalised so that weld's and lld's can be compared, as
//! lld's own tests check it: what `llvm-readelf-22 -S -l -s -d -r --dyn-syms -V` shows, without
//! addresses and file offsets. Addresses may differ between the two linkers; contents and counts
//! may not, except for the short list of [`INTENDED`] differences below.
//!
//! Two llvm-readelf calls per output: `--elf-output-style=JSON -S -l -s -d -r --dyn-syms` (parsed
//! by `support/json.rs`, so names with odd characters and 64-bit values are read exactly), and
//! GNU-style `-l -V --wide` for the section-to-segment mapping (which only GNU style prints) and
//! the version sections (llvm-readelf-22's JSON for version definitions is not JSON: it prints
//! `Predecessors: [...]` as bare text inside an object).
//!
//! # What is compared
//!
//! Each view is a list of fact lines (saved as `structure.<linker>.txt` in a trial's work
//! directory), compared in order or as a sorted multiset:
//!
//! - `sections (allocated, in order)`: name, type, flags, alignment, entry size, `sh_link` and
//!   `sh_info` by section name (or count), size. Sizes are compared for every section: on x86-64
//!   no relaxation changes a section's size, and padding between input sections depends only on
//!   their alignments, so equal inputs give equal sizes.
//! - `sections (not allocated)`: the same, as a set (their order in the file is not structure).
//!   For `.symtab` and `.dynsym`, `sh_info` is checked against the table itself (`first-global`
//!   when it is the number of leading locals plus one and no local follows a global), since the
//!   symbol views already compare every binding.
//! - `segments`: every program header in order: type, flags, alignment, and the sections it holds
//!   (from the section-to-segment mapping), then the sections in no segment.
//! - `dynamic`: every entry in order; tags whose value is an address (`ADDRESS_TAGS`) by name
//!   only, string tags by their string, flags by their names, every other tag (sizes, counts,
//!   `RELACOUNT`, `VERNEEDNUM`, ...) by its value.
//! - `relocations`: a multiset per relocation section of `type symbol+addend`; relocations
//!   without a symbol (`RELATIVE`, `IRELATIVE`, ...) by type only, since their addend is an
//!   address, so their count is compared.
//! - `symtab`, `dynsym`: multisets of `name type binding visibility size section` (the section by
//!   name, or `UND`, `ABS`, `COM`); `.dynsym` names carry their version (`puts@GLIBC_2.2.5`).
//!   `.dynsym` is compared as a multiset because lld orders it by `.gnu.hash` bucket.
//! - `versions`: version definitions and needs in order (file, version names, flags).
//!
//! # Intended differences
//!
//! [`INTENDED`] (applied to both outputs in every trial):
//!
//! 1. `.comment`'s size: the section names the linker that wrote the file (`Linker: LLD 22...`
//!    versus weld's own line); its type, flags and entry size are still compared.
//! 2. `.relro_padding`'s size: it fills from the end of RELRO to the next page boundary, so its
//!    size is a function of addresses.
//! 3. The index of each version need (`vna_other`): it is a private key between `.gnu.version`
//!    and `.gnu.version_r`, any consistent numbering is equivalent, and the version of every
//!    dynamic symbol is compared by name in `dynsym`.
//!
//! # Known weld bugs
//!
//! [`KNOWN_WELD_BUGS`] tolerates, in the trials it names, differences that are weld bugs still to
//! be fixed; each entry says what must change. An entry is checked to still be needed: the
//! differential binary fails a full run in which some entry tolerated nothing (see
//! [`unneeded_known_bugs`]), so a fixed bug cannot linger in the list.

use crate::json::Json;
use crate::run;
use crate::tools;
use crate::Check;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

pub const SECTIONS_ALLOC: &str = "sections (allocated, in order)";
pub const SECTIONS_OTHER: &str = "sections (not allocated)";
pub const SEGMENTS: &str = "segments";
pub const DYNAMIC: &str = "dynamic";
pub const RELOCATIONS: &str = "relocations";
pub const SYMTAB: &str = "symtab";
pub const DYNSYM: &str = "dynsym";
pub const VERSIONS: &str = "versions";

/// One view of an output: a list of fact lines, compared in order or as a multiset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub name: &'static str,
    /// In order (sections, segments, dynamic tags, versions) or as a sorted multiset (symbols,
    /// relocations, non-allocated sections).
    pub ordered: bool,
    pub lines: Vec<String>,
}

/// Every view of one output.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Facts {
    pub views: Vec<View>,
}

impl Facts {
    fn push(&mut self, name: &'static str, ordered: bool, mut lines: Vec<String>) {
        if !ordered {
            lines.sort();
        }
        self.views.push(View {
            name,
            ordered,
            lines,
        });
    }

    pub fn view(&self, name: &str) -> Option<&View> {
        self.views.iter().find(|v| v.name == name)
    }

    /// The lines of a view (none if there is no such view).
    pub fn lines(&self, name: &str) -> &[String] {
        self.view(name).map(|v| v.lines.as_slice()).unwrap_or(&[])
    }

    /// Replaces the lines of `view` for which `f` returns `Some(Some(new))`, drops those for
    /// which it returns `Some(None)` and keeps the others (`None`); a multiset view is sorted
    /// again if anything changed. Rules run this over thousands of symbols several times per
    /// trial, so unchanged lines are not copied.
    pub fn rewrite(&mut self, view: &str, mut f: impl FnMut(&str) -> Option<Option<String>>) {
        let Some(v) = self.views.iter_mut().find(|v| v.name == view) else {
            return;
        };
        let mut changed = false;
        v.lines.retain_mut(|l| match f(l) {
            None => true,
            Some(Some(new)) => {
                changed |= *l != new;
                *l = new;
                true
            }
            Some(None) => {
                changed = true;
                false
            }
        });
        if changed && !v.ordered {
            v.lines.sort();
        }
    }

    /// All views as text, one `[view]` header and its lines each: what is saved in work
    /// directories for inspection.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for v in &self.views {
            s.push_str(&format!("[{}]\n", v.name));
            for l in &v.lines {
                s.push_str(l);
                s.push('\n');
            }
        }
        s
    }
}

fn readelf(args: &[&str], file: &Path) -> Result<String, String> {
    let mut cmd = Command::new(tools::find(tools::READELF)?);
    cmd.args(args).arg(file);
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-readelf-22")?;
    Ok(out.stdout_str())
}

pub const JSON_ARGS: &[&str] = &[
    "--elf-output-style=JSON",
    "-S",
    "-l",
    "-s",
    "-d",
    "-r",
    "--dyn-syms",
];
pub const GNU_ARGS: &[&str] = &["-l", "-V", "--wide"];

/// The normalised structure of a linked file.
pub fn facts(file: &Path) -> Result<Facts, String> {
    let json = readelf(JSON_ARGS, file)?;
    let gnu = readelf(GNU_ARGS, file)?;
    normalise(&json, &gnu).map_err(|e| {
        format!(
            "normalising `llvm-readelf-22 {}` and `{}` of {}: {e}",
            JSON_ARGS.join(" "),
            GNU_ARGS.join(" "),
            file.display()
        )
    })
}

/// Section header flags as GNU readelf's letters (`WAX`, `AMS`, `WAT`); bits without a letter
/// are kept as a hex remainder so that nothing is lost.
pub fn flag_letters(flags: u64) -> String {
    const LETTERS: &[(u64, char)] = &[
        (0x1, 'W'),
        (0x2, 'A'),
        (0x4, 'X'),
        (0x10, 'M'),
        (0x20, 'S'),
        (0x40, 'I'),
        (0x80, 'L'),
        (0x100, 'O'),
        (0x200, 'G'),
        (0x400, 'T'),
        (0x800, 'C'),
        (0x20_0000, 'R'),
        (0x1000_0000, 'l'),
        (0x8000_0000, 'E'),
    ];
    let mut s = String::new();
    let mut rest = flags;
    for &(bit, c) in LETTERS {
        if flags & bit != 0 {
            s.push(c);
            rest &= !bit;
        }
    }
    if rest != 0 {
        s.push_str(&format!("+{rest:#x}"));
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// `SHT_PROGBITS` -> `PROGBITS`; an unnamed type by its number.
fn type_name(j: &Json, prefix: &str) -> Result<String, String> {
    let name = j.at("Name")?.as_str()?;
    Ok(if name.is_empty() {
        format!("{:#x}", j.at("Value")?.as_u64()?)
    } else {
        name.strip_prefix(prefix).unwrap_or(name).to_string()
    })
}

/// A section header as read from the JSON.
struct Section {
    name: String,
    kind: String,
    flags: u64,
    size: u64,
    link: u64,
    info: u64,
    align: u64,
    entsize: u64,
}

const SHF_ALLOC: u64 = 0x2;
const SHF_INFO_LINK: u64 = 0x40;

fn sections(file: &Json) -> Result<Vec<Section>, String> {
    let mut v = Vec::new();
    for s in file.at("Sections")?.as_arr()? {
        let s = s.at("Section")?;
        v.push(Section {
            name: s.path(&["Name", "Name"])?.as_str()?.to_string(),
            kind: type_name(s.at("Type")?, "SHT_")?,
            flags: s.path(&["Flags", "Value"])?.as_u64()?,
            size: s.at("Size")?.as_u64()?,
            link: s.at("Link")?.as_u64()?,
            info: s.at("Info")?.as_u64()?,
            align: s.at("AddressAlignment")?.as_u64()?,
            entsize: s.at("EntrySize")?.as_u64()?,
        });
    }
    Ok(v)
}

/// Normalises `llvm-readelf-22 JSON_ARGS` (`json`) and `llvm-readelf-22 GNU_ARGS` (`gnu`) output
/// of one file.
pub fn normalise(json: &str, gnu: &str) -> Result<Facts, String> {
    let top = Json::parse(json)?;
    let file = top
        .as_arr()?
        .first()
        .ok_or("llvm-readelf printed no file")?;
    let secs = sections(file)?;
    let sec_name = |i: u64| -> String {
        match secs.get(i as usize) {
            Some(s) if i != 0 => s.name.clone(),
            _ => i.to_string(),
        }
    };
    let symtab = symbols(file, "Symbols")?;
    let dynsym = symbols(file, "DynamicSymbols")?;
    let mut facts = Facts::default();

    // Sections.
    let (mut alloc, mut other) = (Vec::new(), Vec::new());
    for s in secs.iter().skip(1) {
        let mut l = format!(
            "{} {} {} align={} entsize={}",
            s.name,
            s.kind,
            flag_letters(s.flags),
            s.align,
            s.entsize
        );
        if s.link != 0 {
            l.push_str(&format!(" link={}", sec_name(s.link)));
        }
        let table = match s.kind.as_str() {
            "SYMTAB" => Some(&symtab),
            "DYNSYM" => Some(&dynsym),
            _ => None,
        };
        if let Some(table) = table {
            l.push_str(&format!(" info={}", symtab_info(s.info, table)));
        } else if s.flags & SHF_INFO_LINK != 0 {
            l.push_str(&format!(" info={}", sec_name(s.info)));
        } else if s.info != 0 {
            l.push_str(&format!(" info={}", s.info));
        }
        l.push_str(&format!(" size={}", s.size));
        if s.flags & SHF_ALLOC != 0 {
            alloc.push(l);
        } else {
            other.push(l);
        }
    }
    facts.push(SECTIONS_ALLOC, true, alloc);
    facts.push(SECTIONS_OTHER, false, other);

    // Segments, with the sections each holds.
    let mapping = parse_mapping(gnu)?;
    let phdrs = file.at("ProgramHeaders")?.as_arr()?;
    if phdrs.len() != mapping.segments.len() {
        return Err(format!(
            "{} program headers but {} lines in the section-to-segment mapping",
            phdrs.len(),
            mapping.segments.len()
        ));
    }
    let mut segs = Vec::new();
    for (p, secs) in phdrs.iter().zip(&mapping.segments) {
        let p = p.at("ProgramHeader")?;
        let flags = p.path(&["Flags", "Value"])?.as_u64()?;
        let letters: String = [(4, 'R'), (2, 'W'), (1, 'E')]
            .iter()
            .filter(|(b, _)| flags & b != 0)
            .map(|(_, c)| *c)
            .collect();
        let mut l = format!(
            "{} {} align={}:",
            type_name(p.at("Type")?, "PT_")?,
            if letters.is_empty() { "-" } else { &letters },
            p.at("Alignment")?.as_u64()?
        );
        for s in secs {
            l.push(' ');
            l.push_str(s);
        }
        segs.push(l);
    }
    segs.push(format!("in no segment: {}", mapping.none.join(" ")));
    facts.push(SEGMENTS, true, segs);

    let mut dynamic = Vec::new();
    if let Some(d) = file.get("DynamicSection") {
        for e in d.as_arr()? {
            dynamic.push(dynamic_fact(e)?);
        }
    }
    facts.push(DYNAMIC, true, dynamic);

    let mut relocs = Vec::new();
    for r in file.at("Relocations")?.as_arr()? {
        let sec = sec_name(r.at("SectionIndex")?.as_u64()?);
        for x in r.at("Relocs")?.as_arr()? {
            let x = x.at("Relocation")?;
            let kind = x.path(&["Type", "Name"])?.as_str()?;
            let sym = x.path(&["Symbol", "Name"])?.as_str()?;
            let mut l = format!("{sec} {kind}");
            if sym != "-" && !sym.is_empty() {
                let addend = x
                    .get("Addend")
                    .map(|a| a.as_i64())
                    .transpose()?
                    .unwrap_or(0);
                l.push_str(&format!(" {sym}{addend:+}"));
            }
            relocs.push(l);
        }
    }
    facts.push(RELOCATIONS, false, relocs);

    facts.push(
        SYMTAB,
        false,
        symtab.iter().map(|s| s.line.clone()).collect(),
    );
    facts.push(
        DYNSYM,
        false,
        dynsym.iter().map(|s| s.line.clone()).collect(),
    );

    let v = crate::dynelf::parse_versions(gnu);
    let mut versions: Vec<String> = v.defs.iter().map(|l| format!("def {l}")).collect();
    versions.extend(v.needs.iter().map(|l| format!("need {l}")));
    facts.push(VERSIONS, true, versions);
    Ok(facts)
}

/// `sh_info` of a symbol table checked against the table: `first-global` when it is the number
/// of leading locals plus one (the null symbol) and no local follows a global, as the ELF
/// specification requires, else what it is and what it should be.
fn symtab_info(info: u64, table: &[Sym]) -> String {
    let leading = table.iter().take_while(|s| s.local).count() as u64;
    let stray = table.iter().skip(leading as usize).any(|s| s.local);
    if info == leading + 1 && !stray {
        "first-global".to_string()
    } else {
        format!(
            "{info} (leading locals + 1 = {}{})",
            leading + 1,
            if stray {
                ", and a local follows a global"
            } else {
                ""
            }
        )
    }
}

/// Dynamic tags whose value is an address: only their presence (and place) is compared.
pub const ADDRESS_TAGS: &[&str] = &[
    "HASH",
    "GNU_HASH",
    "SYMTAB",
    "STRTAB",
    "VERSYM",
    "VERDEF",
    "VERNEED",
    "INIT",
    "FINI",
    "INIT_ARRAY",
    "FINI_ARRAY",
    "PREINIT_ARRAY",
    "RELA",
    "REL",
    "JMPREL",
    "PLTGOT",
    "RELR",
];

/// `NEEDED libc.so.6`, `FLAGS_1 NOW PIE`, `RELACOUNT 12`, `SYMTAB`.
fn dynamic_fact(e: &Json) -> Result<String, String> {
    let kind = e.at("Type")?.as_str()?;
    if ADDRESS_TAGS.contains(&kind) {
        return Ok(kind.to_string());
    }
    // What llvm-readelf decodes beyond the raw value (`Library`, `Name`, `Path`, `Flags`)
    // replaces it: the raw value of a string tag is a .dynstr offset.
    let Json::Obj(members) = e else {
        return Err("a dynamic entry is not an object".to_string());
    };
    let mut decoded = Vec::new();
    let mut any = false;
    for (k, v) in members {
        if matches!(k.as_ref(), "Tag" | "Type" | "Value") {
            continue;
        }
        any = true;
        match v {
            Json::Str(s) => decoded.push(s.to_string()),
            Json::Arr(a) => {
                for x in a {
                    decoded.push(x.as_str()?.to_string());
                }
            }
            other => return Err(format!("dynamic entry {kind}: unexpected {k}: {other:?}")),
        }
    }
    if any {
        Ok(format!("{kind} {}", decoded.join(" "))
            .trim_end()
            .to_string())
    } else {
        Ok(format!("{kind} {}", e.at("Value")?.as_u64()?))
    }
}

/// One symbol's fact line, and whether it is local (for the `sh_info` check).
struct Sym {
    line: String,
    local: bool,
}

/// `name TYPE BIND VIS size=N SECTION` for each symbol of `key` (`Symbols` or `DynamicSymbols`)
/// but the null one; SECTION is `UND`, `ABS`, `COM` or the defining section's name.
fn symbols(file: &Json, key: &str) -> Result<Vec<Sym>, String> {
    let mut v = Vec::new();
    let Some(list) = file.get(key) else {
        return Ok(v);
    };
    for (i, s) in list.as_arr()?.iter().enumerate() {
        if i == 0 {
            continue;
        }
        let s = s.at("Symbol")?;
        let vis = match s.path(&["Other", "Value"])?.as_u64()? & 3 {
            0 => "DEFAULT",
            1 => "INTERNAL",
            2 => "HIDDEN",
            _ => "PROTECTED",
        };
        let sec = s.at("Section")?;
        let where_ = match sec.at("Value")?.as_u64()? {
            0 => "UND".to_string(),
            0xfff1 => "ABS".to_string(),
            0xfff2 => "COM".to_string(),
            _ => sec.at("Name")?.as_str()?.to_string(),
        };
        let bind = s.path(&["Binding", "Name"])?.as_str()?;
        v.push(Sym {
            line: format!(
                "{} {} {bind} {vis} size={} {where_}",
                s.path(&["Name", "Name"])?.as_str()?,
                s.path(&["Type", "Name"])?.as_str()?,
                s.at("Size")?.as_u64()?,
            ),
            local: bind == "Local",
        });
    }
    Ok(v)
}

/// The section-to-segment mapping of `llvm-readelf -l` (GNU style): the sections of each program
/// header in order, and those in none.
#[derive(Debug, Default, PartialEq)]
pub struct Mapping {
    pub segments: Vec<Vec<String>>,
    pub none: Vec<String>,
}

pub fn parse_mapping(gnu: &str) -> Result<Mapping, String> {
    let mut m = Mapping::default();
    let mut lines = gnu
        .lines()
        .skip_while(|l| !l.contains("Section to Segment mapping:"));
    if lines.next().is_none() {
        return Err("no section-to-segment mapping in llvm-readelf -l output".to_string());
    }
    for line in lines {
        let mut toks = line.split_whitespace();
        let Some(first) = toks.next() else { break };
        if first == "Segment" {
            continue;
        }
        let secs: Vec<String> = toks.map(String::from).collect();
        if first == "None" {
            // The last line of the mapping (llvm-readelf prints the next table right after it).
            m.none = secs;
            break;
        } else if first.parse::<usize>() == Ok(m.segments.len()) {
            m.segments.push(secs);
        } else {
            return Err(format!(
                "unexpected section-to-segment mapping line `{line}`"
            ));
        }
    }
    Ok(m)
}

// =============================================================================================
// Rewriting fact lines

/// A symbol fact line split into its fields (the name may contain spaces: the fields are taken
/// from the right).
struct SymLine<'a> {
    name: &'a str,
    kind: &'a str,
    bind: &'a str,
    vis: &'a str,
    size: &'a str,
    section: &'a str,
}

impl<'a> SymLine<'a> {
    fn parse(line: &'a str) -> Option<SymLine<'a>> {
        let mut it = line.rsplitn(6, ' ');
        let section = it.next()?;
        let size = it.next()?;
        let vis = it.next()?;
        let bind = it.next()?;
        let kind = it.next()?;
        let name = it.next()?;
        Some(SymLine {
            name,
            kind,
            bind,
            vis,
            size,
            section,
        })
    }
    fn text(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.name, self.kind, self.bind, self.vis, self.size, self.section
        )
    }
}

/// Rewrites the symbol lines of `view` for which `f` returns true (having changed them).
fn rewrite_syms(facts: &mut Facts, view: &str, f: impl Fn(&mut SymLine) -> bool) {
    facts.rewrite(view, |l| {
        let mut s = SymLine::parse(l)?;
        f(&mut s).then(|| Some(s.text()))
    });
}

/// Replaces the value of `key=` in a section line.
fn set_field(line: &str, key: &str, value: &str) -> String {
    line.split(' ')
        .map(
            |t| match t.strip_prefix(key).and_then(|r| r.strip_prefix('=')) {
                Some(_) => format!("{key}={value}"),
                None => t.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rewrites `key=` of the section lines (allocated or not) whose name is in `names`.
fn blank_section_field(facts: &mut Facts, names: &[&str], key: &str) {
    for view in [SECTIONS_ALLOC, SECTIONS_OTHER] {
        facts.rewrite(view, |l| {
            let name = l.split(' ').next().unwrap_or("");
            names.contains(&name).then(|| Some(set_field(l, key, "?")))
        });
    }
}

// =============================================================================================
// Intended differences and known weld bugs

/// A rewrite of both outputs' facts before they are compared.
pub struct Rule {
    pub name: &'static str,
    /// The trials it applies to, `case::compiler::mode` patterns where `*` matches anything.
    pub trials: &'static [&'static str],
    /// Why the difference is intended, or (known bugs) what differs and what must be fixed.
    pub why: &'static str,
    pub apply: fn(&mut Facts),
}

impl Rule {
    pub fn applies_to(&self, trial: &str) -> bool {
        self.trials.iter().any(|p| glob(p, trial))
    }
}

/// `*` matches any run of characters; everything else matches itself.
pub fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, rest)) => {
            let Some(tail) = text.strip_prefix(head) else {
                return false;
            };
            (0..=tail.len())
                .filter(|&i| tail.is_char_boundary(i))
                .any(|i| glob(rest, &tail[i..]))
        }
    }
}

/// The intended differences (see the module documentation).
pub const INTENDED: &[Rule] = &[
    Rule {
        name: "linker identification",
        trials: &["*"],
        why: ".comment names the linker that wrote the file (`Linker: LLD 22...` versus weld's \
              line), so its size differs; its type, flags and entry size are compared",
        apply: |f| blank_section_field(f, &[".comment"], "size"),
    },
    Rule {
        name: "relro padding",
        trials: &["*"],
        why: ".relro_padding fills from the end of RELRO to the next page boundary: its size is \
              a function of addresses",
        apply: |f| blank_section_field(f, &[".relro_padding"], "size"),
    },
    Rule {
        name: "version need indexes",
        trials: &["*"],
        why: "the index of a version need (vna_other) is a private key between .gnu.version and \
              .gnu.version_r; any consistent numbering is equivalent, and every dynamic symbol's \
              version is compared by name in [dynsym]",
        apply: |f| {
            f.rewrite(VERSIONS, |l| {
                l.strip_prefix("need Name: ")?;
                Some(Some(l[..l.rfind(" Version: ")?].to_string()))
            })
        },
    },
];

/// Differences that are weld bugs, tolerated until fixed (each is also written up in the
/// linker's findings). Keep this list short and honest: one entry per bug, narrow rewrites, and
/// remove an entry as soon as it tolerates nothing (a full differential run fails otherwise).
pub const KNOWN_WELD_BUGS: &[Rule] = &[];

/// The rules of `rules` that apply to `trial`, applied to a copy of `facts`.
fn applied(facts: &Facts, rules: &[&Rule]) -> Facts {
    let mut f = facts.clone();
    for r in rules {
        (r.apply)(&mut f);
    }
    f
}

/// Compares weld's facts with lld's for `trial` after the intended differences and the known
/// bugs that apply. Ok carries the names of the known bugs that were needed (the comparison
/// fails without each of them).
pub fn compare_with(
    trial: &str,
    weld: &Facts,
    lld: &Facts,
    intended: &[Rule],
    known: &[Rule],
) -> Result<Vec<&'static str>, String> {
    let intended: Vec<&Rule> = intended.iter().filter(|r| r.applies_to(trial)).collect();
    let (w0, l0) = (applied(weld, &intended), applied(lld, &intended));
    if w0 == l0 {
        return Ok(Vec::new());
    }
    // Only the known bugs whose rewrites change something here can matter.
    let active: Vec<&Rule> = known
        .iter()
        .filter(|r| r.applies_to(trial))
        .filter(|r| applied(&w0, &[r]) != w0 || applied(&l0, &[r]) != l0)
        .collect();
    let problems = differences(&applied(&w0, &active), &applied(&l0, &active));
    if !problems.is_empty() {
        let mut m = format!(
            "the structure of weld's output differs from lld's (normalised llvm-readelf-22 \
             views, saved as structure.weld.txt and structure.lld.txt; intended differences and \
             known weld bugs are in tests/support/structure.rs):\n{}",
            problems.join("\n")
        );
        // A difference a known bug was meant to tolerate may show up in a form its rewrite does
        // not match: name the ones that were at work.
        if !active.is_empty() {
            m.push_str(&format!(
                "\n(known weld bugs tolerated in this trial: {})",
                active.iter().map(|r| r.name).collect::<Vec<_>>().join("; ")
            ));
        }
        return Err(m);
    }
    // A known bug is needed when the comparison fails without it.
    let mut needed = Vec::new();
    for (i, r) in active.iter().enumerate() {
        let others: Vec<&Rule> = active
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, r)| *r)
            .collect();
        if applied(&w0, &others) != applied(&l0, &others) {
            needed.push(r.name);
        }
    }
    Ok(needed)
}

/// [`compare_with`] the [`INTENDED`] differences and [`KNOWN_WELD_BUGS`]; the known bugs that
/// were needed are recorded for [`unneeded_known_bugs`].
pub fn compare(trial: &str, weld: &Facts, lld: &Facts) -> Check {
    let needed = compare_with(trial, weld, lld, INTENDED, KNOWN_WELD_BUGS)?;
    let mut seen = NEEDED.lock().unwrap_or_else(|e| e.into_inner());
    seen.extend(needed);
    Ok(())
}

static NEEDED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// The known bugs that [`compare`] has found needed so far in this process.
pub fn needed_known_bugs() -> BTreeSet<&'static str> {
    NEEDED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The [`KNOWN_WELD_BUGS`] that no comparison in this process needed: after a full run, each is
/// fixed (or its rewrite no longer matches) and must be removed.
pub fn unneeded_known_bugs() -> Vec<&'static str> {
    let needed = needed_known_bugs();
    KNOWN_WELD_BUGS
        .iter()
        .map(|r| r.name)
        .filter(|n| !needed.contains(n))
        .collect()
}

/// How weld's facts differ from lld's: one message per differing view, empty when they agree.
pub fn differences(weld: &Facts, lld: &Facts) -> Vec<String> {
    let mut out = Vec::new();
    for lv in &lld.views {
        let wl = weld.lines(lv.name);
        if wl == lv.lines.as_slice() {
            continue;
        }
        if lv.ordered {
            out.push(format!(
                "[{}] {}",
                lv.name,
                crate::text_diff("weld", &wl.join("\n"), "lld", &lv.lines.join("\n")).trim_end()
            ));
        } else {
            let (only_w, only_l) = multiset_difference(wl, &lv.lines);
            let mut m = format!("[{}] differs:\n", lv.name);
            for (label, lines) in [("only in weld", &only_w), ("only in lld", &only_l)] {
                if lines.is_empty() {
                    continue;
                }
                m.push_str(&format!("  {label} ({}):\n", lines.len()));
                for l in lines.iter().take(12) {
                    m.push_str(&format!("    {l}\n"));
                }
                if lines.len() > 12 {
                    m.push_str(&format!("    ... and {} more\n", lines.len() - 12));
                }
            }
            out.push(m.trim_end().to_string());
        }
    }
    for wv in &weld.views {
        if lld.view(wv.name).is_none() {
            out.push(format!("[{}] exists only in weld's facts", wv.name));
        }
    }
    out
}

/// The lines of `a` not matched in `b` and of `b` not matched in `a` (both sorted).
pub fn multiset_difference(a: &[String], b: &[String]) -> (Vec<String>, Vec<String>) {
    let (mut i, mut j) = (0, 0);
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    loop {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                only_a.push(x.clone());
                i += 1;
            }
            (Some(_), Some(y)) => {
                only_b.push(y.clone());
                j += 1;
            }
            (Some(x), None) => {
                only_a.push(x.clone());
                i += 1;
            }
            (None, Some(y)) => {
                only_b.push(y.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    (only_a, only_b)
}

// =============================================================================================
// Self-test on canned llvm-readelf-22 output

/// `llvm-readelf-22 --elf-output-style=JSON -S -l -s -d -r --dyn-syms` of a small PIE, cut down
/// by hand (and `.symtab`'s `sh_info` set to 2, the right value).
const CANNED_JSON: &str = r#"[{"FileSummary":{"File":"prog","Format":"elf64-x86-64","Arch":"x86_64","AddressSize":"64bit","LoadName":"<Not found>"},
"Sections":[
{"Section":{"Index":0,"Name":{"Name":"","Value":0},"Type":{"Name":"SHT_NULL","Value":0},"Flags":{"Value":0,"Flags":[]},"Address":0,"Offset":0,"Size":0,"Link":0,"Info":0,"AddressAlignment":0,"EntrySize":0}},
{"Section":{"Index":1,"Name":{"Name":".interp","Value":1},"Type":{"Name":"SHT_PROGBITS","Value":1},"Flags":{"Value":2,"Flags":[{"Name":"SHF_ALLOC","Value":2}]},"Address":680,"Offset":680,"Size":28,"Link":0,"Info":0,"AddressAlignment":1,"EntrySize":0}},
{"Section":{"Index":2,"Name":{"Name":".dynsym","Value":42},"Type":{"Name":"SHT_DYNSYM","Value":11},"Flags":{"Value":2,"Flags":[{"Name":"SHF_ALLOC","Value":2}]},"Address":776,"Offset":776,"Size":48,"Link":3,"Info":1,"AddressAlignment":8,"EntrySize":24}},
{"Section":{"Index":3,"Name":{"Name":".dynstr","Value":50},"Type":{"Name":"SHT_STRTAB","Value":3},"Flags":{"Value":2,"Flags":[{"Name":"SHF_ALLOC","Value":2}]},"Address":824,"Offset":824,"Size":30,"Link":0,"Info":0,"AddressAlignment":1,"EntrySize":0}},
{"Section":{"Index":4,"Name":{"Name":".rela.plt","Value":60},"Type":{"Name":"SHT_RELA","Value":4},"Flags":{"Value":66,"Flags":[{"Name":"SHF_ALLOC","Value":2},{"Name":"SHF_INFO_LINK","Value":64}]},"Address":856,"Offset":856,"Size":24,"Link":2,"Info":7,"AddressAlignment":8,"EntrySize":24}},
{"Section":{"Index":5,"Name":{"Name":".text","Value":70},"Type":{"Name":"SHT_PROGBITS","Value":1},"Flags":{"Value":6,"Flags":[{"Name":"SHF_ALLOC","Value":2},{"Name":"SHF_EXECINSTR","Value":4}]},"Address":5744,"Offset":1648,"Size":298,"Link":0,"Info":0,"AddressAlignment":16,"EntrySize":0}},
{"Section":{"Index":6,"Name":{"Name":".tbss","Value":76},"Type":{"Name":"SHT_NOBITS","Value":8},"Flags":{"Value":1027,"Flags":[{"Name":"SHF_ALLOC","Value":2},{"Name":"SHF_TLS","Value":1024},{"Name":"SHF_WRITE","Value":1}]},"Address":10240,"Offset":2048,"Size":4,"Link":0,"Info":0,"AddressAlignment":4,"EntrySize":0}},
{"Section":{"Index":7,"Name":{"Name":".got.plt","Value":82},"Type":{"Name":"SHT_PROGBITS","Value":1},"Flags":{"Value":3,"Flags":[{"Name":"SHF_ALLOC","Value":2},{"Name":"SHF_WRITE","Value":1}]},"Address":14824,"Offset":2536,"Size":32,"Link":0,"Info":0,"AddressAlignment":8,"EntrySize":0}},
{"Section":{"Index":8,"Name":{"Name":".comment","Value":91},"Type":{"Name":"SHT_PROGBITS","Value":1},"Flags":{"Value":48,"Flags":[{"Name":"SHF_MERGE","Value":16},{"Name":"SHF_STRINGS","Value":32}]},"Address":0,"Offset":2568,"Size":106,"Link":0,"Info":0,"AddressAlignment":1,"EntrySize":1}},
{"Section":{"Index":9,"Name":{"Name":".symtab","Value":100},"Type":{"Name":"SHT_SYMTAB","Value":2},"Flags":{"Value":0,"Flags":[]},"Address":0,"Offset":2680,"Size":120,"Link":10,"Info":2,"AddressAlignment":8,"EntrySize":24}},
{"Section":{"Index":10,"Name":{"Name":".strtab","Value":108},"Type":{"Name":"SHT_STRTAB","Value":3},"Flags":{"Value":0,"Flags":[]},"Address":0,"Offset":2800,"Size":20,"Link":0,"Info":0,"AddressAlignment":1,"EntrySize":0}}],
"ProgramHeaders":[
{"ProgramHeader":{"Type":{"Name":"PT_PHDR","Value":6},"Offset":64,"VirtualAddress":64,"PhysicalAddress":64,"FileSize":616,"MemSize":616,"Flags":{"Value":4,"Flags":[{"Name":"PF_R","Value":4}]},"Alignment":8}},
{"ProgramHeader":{"Type":{"Name":"PT_LOAD","Value":1},"Offset":1648,"VirtualAddress":5744,"PhysicalAddress":5744,"FileSize":400,"MemSize":400,"Flags":{"Value":5,"Flags":[{"Name":"PF_R","Value":4},{"Name":"PF_X","Value":1}]},"Alignment":4096}},
{"ProgramHeader":{"Type":{"Name":"PT_TLS","Value":7},"Offset":2048,"VirtualAddress":10240,"PhysicalAddress":10240,"FileSize":0,"MemSize":4,"Flags":{"Value":4,"Flags":[{"Name":"PF_R","Value":4}]},"Alignment":4}},
{"ProgramHeader":{"Type":{"Name":"PT_GNU_STACK","Value":1685382481},"Offset":0,"VirtualAddress":0,"PhysicalAddress":0,"FileSize":0,"MemSize":0,"Flags":{"Value":6,"Flags":[{"Name":"PF_R","Value":4},{"Name":"PF_W","Value":2}]},"Alignment":0}}],
"DynamicSection":[
{"Tag":1,"Type":"NEEDED","Value":115,"Library":"libc.so.6"},
{"Tag":29,"Type":"RUNPATH","Value":125,"Path":"$ORIGIN/lib"},
{"Tag":1879048187,"Type":"FLAGS_1","Value":134217729,"Flags":["NOW","PIE"]},
{"Tag":23,"Type":"JMPREL","Value":856},
{"Tag":2,"Type":"PLTRELSZ","Value":24},
{"Tag":1879048191,"Type":"VERNEEDNUM","Value":1},
{"Tag":0,"Type":"NULL","Value":0}],
"Relocations":[{"SectionIndex":4,"Relocs":[
{"Relocation":{"Offset":14848,"Type":{"Name":"R_X86_64_JUMP_SLOT","Value":7},"Symbol":{"Name":"puts@GLIBC_2.2.5","Value":1},"Addend":0}},
{"Relocation":{"Offset":14856,"Type":{"Name":"R_X86_64_RELATIVE","Value":8},"Symbol":{"Name":"-","Value":0},"Addend":5904}},
{"Relocation":{"Offset":14864,"Type":{"Name":"R_X86_64_64","Value":1},"Symbol":{"Name":"puts@GLIBC_2.2.5","Value":1},"Addend":-4}}]}],
"Symbols":[
{"Symbol":{"Name":{"Name":"","Value":0},"Value":0,"Size":0,"Binding":{"Name":"Local","Value":0},"Type":{"Name":"None","Value":0},"Other":{"Value":0,"Flags":[]},"Section":{"Name":"Undefined","Value":0}}},
{"Symbol":{"Name":{"Name":"helper","Value":1},"Value":5744,"Size":11,"Binding":{"Name":"Local","Value":0},"Type":{"Name":"Function","Value":2},"Other":{"Value":2,"Flags":["STV_HIDDEN"]},"Section":{"Name":".text","Value":5}}},
{"Symbol":{"Name":{"Name":"tls var","Value":8},"Value":0,"Size":4,"Binding":{"Name":"Unique","Value":10},"Type":{"Name":"TLS","Value":6},"Other":{"Value":0,"Flags":[]},"Section":{"Name":".tbss","Value":6}}},
{"Symbol":{"Name":{"Name":"puts","Value":16},"Value":0,"Size":0,"Binding":{"Name":"Global","Value":1},"Type":{"Name":"Function","Value":2},"Other":{"Value":0,"Flags":[]},"Section":{"Name":"Undefined","Value":0}}},
{"Symbol":{"Name":{"Name":"abs","Value":21},"Value":4096,"Size":0,"Binding":{"Name":"Weak","Value":2},"Type":{"Name":"None","Value":0},"Other":{"Value":3,"Flags":["STV_PROTECTED"]},"Section":{"Name":"Absolute","Value":65521}}}],
"DynamicSymbols":[
{"Symbol":{"Name":{"Name":"","Value":0},"Value":0,"Size":0,"Binding":{"Name":"Local","Value":0},"Type":{"Name":"None","Value":0},"Other":{"Value":0,"Flags":[]},"Section":{"Name":"Undefined","Value":0}}},
{"Symbol":{"Name":{"Name":"puts@GLIBC_2.2.5","Value":1},"Value":0,"Size":0,"Binding":{"Name":"Global","Value":1},"Type":{"Name":"Function","Value":2},"Other":{"Value":0,"Flags":[]},"Section":{"Name":"Undefined","Value":0}}}]}]"#;

/// `llvm-readelf-22 -l -V --wide` of the same file, cut down the same way.
const CANNED_GNU: &str = "
Elf file type is DYN (Shared object file)
Entry point 0x1670
There are 4 program headers, starting at offset 64

Program Headers:
  Type           Offset   VirtAddr           PhysAddr           FileSiz  MemSiz   Flg Align
  PHDR           0x000040 0x0000000000000040 0x0000000000000040 0x000268 0x000268 R   0x8
  LOAD           0x000670 0x0000000000001670 0x0000000000001670 0x000190 0x000190 R E 0x1000
  TLS            0x000800 0x0000000000002800 0x0000000000002800 0x000000 0x000004 R   0x4
  GNU_STACK      0x000000 0x0000000000000000 0x0000000000000000 0x000000 0x000000 RW  0x0

 Section to Segment mapping:
  Segment Sections...
   00     
   01     .interp .dynsym .dynstr .rela.plt .text 
   02     .tbss 
   03     
   None   .comment .symtab .strtab 
Version symbols section '.gnu.version' contains 2 entries:
 Addr: 00000000000003c8  Offset: 0x0003c8  Link: 2 (.dynsym)
  000:   0 (*local*)       2 (GLIBC_2.2.5)

Version needs section '.gnu.version_r' contains 1 entries:
 Addr: 00000000000003d8  Offset: 0x0003d8  Link: 3 (.dynstr)
  0x0000: Version: 1  File: libc.so.6  Cnt: 1
  0x0010:   Name: GLIBC_2.2.5  Flags: none  Version: 2
";

/// What [`normalise`] makes of the canned output.
const CANNED_FACTS: &str = "\
[sections (allocated, in order)]
.interp PROGBITS A align=1 entsize=0 size=28
.dynsym DYNSYM A align=8 entsize=24 link=.dynstr info=first-global size=48
.dynstr STRTAB A align=1 entsize=0 size=30
.rela.plt RELA AI align=8 entsize=24 link=.dynsym info=.got.plt size=24
.text PROGBITS AX align=16 entsize=0 size=298
.tbss NOBITS WAT align=4 entsize=0 size=4
.got.plt PROGBITS WA align=8 entsize=0 size=32
[sections (not allocated)]
.comment PROGBITS MS align=1 entsize=1 size=106
.strtab STRTAB - align=1 entsize=0 size=20
.symtab SYMTAB - align=8 entsize=24 link=.strtab info=first-global size=120
[segments]
PHDR R align=8:
LOAD RE align=4096: .interp .dynsym .dynstr .rela.plt .text
TLS R align=4: .tbss
GNU_STACK RW align=0:
in no segment: .comment .symtab .strtab
[dynamic]
NEEDED libc.so.6
RUNPATH $ORIGIN/lib
FLAGS_1 NOW PIE
JMPREL
PLTRELSZ 24
VERNEEDNUM 1
NULL 0
[relocations]
.rela.plt R_X86_64_64 puts@GLIBC_2.2.5-4
.rela.plt R_X86_64_JUMP_SLOT puts@GLIBC_2.2.5+0
.rela.plt R_X86_64_RELATIVE
[symtab]
abs None Weak PROTECTED size=0 ABS
helper Function Local HIDDEN size=11 .text
puts Function Global DEFAULT size=0 UND
tls var TLS Unique DEFAULT size=4 .tbss
[dynsym]
puts@GLIBC_2.2.5 Function Global DEFAULT size=0 UND
[versions]
need Version: 1 File: libc.so.6 Cnt: 1
need Name: GLIBC_2.2.5 Flags: none Version: 2
";

/// The normaliser and the comparison on canned llvm-readelf-22 output: run as the
/// `structure::normaliser` trial of the differential suite and as a unit test.
pub fn self_test() -> Check {
    let mut failed = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failed.push(what);
        }
    };
    let facts = normalise(CANNED_JSON, CANNED_GNU)?;
    check(
        facts.text() == CANNED_FACTS,
        format!(
            "normalised canned output: {}",
            crate::text_diff("got", &facts.text(), "expected", CANNED_FACTS)
        ),
    );

    // sh_info of .symtab must be the leading locals + 1.
    let bad_info = CANNED_JSON.replacen(r#""Link":10,"Info":2"#, r#""Link":10,"Info":3"#, 1);
    let f = normalise(&bad_info, CANNED_GNU)?;
    check(
        f.lines(SECTIONS_OTHER)
            .iter()
            .any(|l| l.contains("info=3 (leading locals + 1 = 2)")),
        format!(
            "a wrong .symtab sh_info is shown: {:?}",
            f.lines(SECTIONS_OTHER)
        ),
    );

    // Errors, not silence, on what cannot be read.
    let one_segment_less = CANNED_GNU.replace("   03     \n", "");
    check(
        normalise(CANNED_JSON, &one_segment_less)
            .is_err_and(|e| e.contains("4 program headers but 3 lines")),
        "a mapping line missing".to_string(),
    );
    check(
        normalise(CANNED_JSON, "Program Headers:\n").is_err(),
        "no mapping at all".to_string(),
    );
    check(
        normalise(
            &CANNED_JSON.replace(r#""Relocations""#, r#""Relocs""#),
            CANNED_GNU,
        )
        .is_err_and(|e| e.contains("no member `Relocations`")),
        "a view missing from the JSON".to_string(),
    );
    check(
        flag_letters(0x2 | 0x400 | 0x1 | 0x8_0000) == "WAT+0x80000",
        format!(
            "flag letters: {}",
            flag_letters(0x2 | 0x400 | 0x1 | 0x8_0000)
        ),
    );
    check(
        glob(
            "func_pointers::*::static-pie",
            "func_pointers::gcc::static-pie",
        ) && !glob("func_pointers::*::static-pie", "func_pointers::gcc::static")
            && glob("*::clang::*", "a::clang::b")
            && !glob("*::clang::*", "a::gcc::b"),
        "trial patterns".to_string(),
    );

    // Comparison: identical facts agree; a changed fact is reported; an intended rule hides
    // only what it names; a known bug is reported as needed only when it tolerates something.
    check(
        compare_with("t::c::m", &facts, &facts, INTENDED, &[]) == Ok(vec![]),
        "equal facts".to_string(),
    );
    let mut weld = facts.clone();
    weld.rewrite(SECTIONS_OTHER, |l| {
        l.starts_with(".comment ")
            .then(|| Some(l.replace("size=106", "size=58")))
    });
    check(
        compare_with("t::c::m", &weld, &facts, INTENDED, &[]).is_ok(),
        ".comment's size is an intended difference".to_string(),
    );
    check(
        compare_with("t::c::m", &weld, &facts, &[], &[]).is_err_and(|e| {
            e.contains("only in weld (1):\n    .comment PROGBITS MS align=1 entsize=1 size=58")
        }),
        ".comment's size differs without the intended rules".to_string(),
    );
    let mut weld = facts.clone();
    rewrite_syms(&mut weld, SYMTAB, |s| {
        let hit = s.bind == "Unique";
        if hit {
            s.bind = "Global";
        }
        hit
    });
    // A known bug of the kind the list holds (weld's STB_GNU_UNIQUE bug, since fixed).
    let unique: &[Rule] = &[Rule {
        name: "STB_GNU_UNIQUE lost in .symtab",
        trials: &["*"],
        why: "a self-test rule: unique bindings read as global",
        apply: |f| {
            rewrite_syms(f, SYMTAB, |s| {
                let hit = s.bind == "Unique";
                if hit {
                    s.bind = "Global";
                }
                hit
            })
        },
    }];
    let e = compare_with("t::c::m", &weld, &facts, INTENDED, &[]);
    check(
        e.as_ref().is_err_and(|e| {
            e.contains("[symtab] differs")
                && e.contains("only in weld (1):\n    tls var TLS Global DEFAULT size=4 .tbss")
                && e.contains("only in lld (1):\n    tls var TLS Unique DEFAULT size=4 .tbss")
        }),
        format!("a binding difference: {e:?}"),
    );
    check(
        compare_with("t::c::m", &weld, &facts, INTENDED, unique)
            == Ok(vec!["STB_GNU_UNIQUE lost in .symtab"]),
        "a known bug that tolerates a difference is needed".to_string(),
    );
    check(
        compare_with("t::c::m", &facts, &facts, INTENDED, unique) == Ok(vec![]),
        "a known bug that tolerates nothing is not needed".to_string(),
    );
    let mut weld = facts.clone();
    weld.rewrite(DYNAMIC, |l| (l == "RUNPATH $ORIGIN/lib").then_some(None));
    let e = compare_with("t::c::m", &weld, &facts, INTENDED, unique);
    check(
        e.as_ref().is_err_and(|e| {
            e.contains("[dynamic] first difference at line 2")
                && e.contains(">   2 | RUNPATH $ORIGIN/lib")
        }),
        format!("a missing dynamic tag: {e:?}"),
    );
    let mut weld = facts.clone();
    weld.rewrite(VERSIONS, |l| {
        Some(Some(l.replace("Version: 2", "Version: 3")))
    });
    check(
        compare_with("t::c::m", &weld, &facts, INTENDED, &[]).is_ok(),
        "version need indexes are an intended difference".to_string(),
    );
    weld.rewrite(VERSIONS, |l| {
        Some(Some(l.replace("GLIBC_2.2.5", "GLIBC_2.34")))
    });
    check(
        compare_with("t::c::m", &weld, &facts, INTENDED, &[]).is_err(),
        "version need names are compared".to_string(),
    );
    let (a, b) = multiset_difference(
        &["a".to_string(), "b".to_string(), "b".to_string()],
        &["b".to_string(), "c".to_string()],
    );
    check(
        a == ["a", "b"] && b == ["c"],
        format!("multiset difference: {a:?} {b:?}"),
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "structure self-test failed:\n{}",
            failed.join("\n")
        ))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn self_test() {
        super::self_test().unwrap();
    }
}
