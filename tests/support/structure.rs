//! The structure of a linked output, normalised so that weld's and lld's can be compared: what
//! `llvm-readelf-22 -S -l -s -d -r --dyn-syms -V` shows, without addresses and offsets.
//!
//! (draft: the documentation of what is compared and of the intended differences follows once
//! the comparison is settled)

use crate::json::Json;
use crate::run;
use crate::tools;
use std::path::Path;
use std::process::Command;

/// One view of an output: a list of fact lines, compared in order or as a multiset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub name: &'static str,
    /// In order (sections, segments, dynamic tags) or as a sorted multiset (symbols,
    /// relocations).
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

/// The JSON views. `-V` is read in GNU style because llvm-readelf-22's JSON for version
/// definitions is not JSON (it prints `Predecessors: [...]` as bare text inside an object);
/// the section-to-segment mapping exists only in GNU style.
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
    normalise(&json, &gnu).map_err(|e| format!("{}: {e}", file.display()))
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
        if s.flags & 0x40 != 0 {
            l.push_str(&format!(" info={}", sec_name(s.info)));
        } else if s.info != 0 {
            l.push_str(&format!(" info={}", s.info));
        }
        l.push_str(&format!(" size={}", s.size));
        if s.flags & 0x2 != 0 {
            alloc.push(l);
        } else {
            other.push(l);
        }
    }
    facts.push("sections (allocated, in order)", true, alloc);
    facts.push("sections (not allocated)", false, other);

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
    facts.push("segments", true, segs);

    // Dynamic section.
    let mut dynamic = Vec::new();
    if let Some(d) = file.get("DynamicSection") {
        for e in d.as_arr()? {
            dynamic.push(dynamic_fact(e)?);
        }
    }
    facts.push("dynamic", true, dynamic);

    // Relocations.
    let mut relocs = Vec::new();
    for r in file.at("Relocations")?.as_arr()? {
        let sec = sec_name(r.at("SectionIndex")?.as_u64()?);
        for x in r.at("Relocs")?.as_arr()? {
            let x = x.at("Relocation")?;
            let kind = x.path(&["Type", "Name"])?.as_str()?;
            let sym = x.path(&["Symbol", "Name"])?.as_str()?;
            let mut l = format!("{sec} {kind}");
            if sym != "-" && !sym.is_empty() {
                let addend = x.get("Addend").map(|a| a.as_i64()).transpose()?.unwrap_or(0);
                l.push_str(&format!(" {sym}{addend:+}"));
            }
            relocs.push(l);
        }
    }
    facts.push("relocations", false, relocs);

    facts.push("symtab", false, symbols(file, "Symbols")?);
    facts.push("dynsym", false, symbols(file, "DynamicSymbols")?);

    let v = crate::dynelf::parse_versions(gnu);
    let mut versions: Vec<String> = v.defs.iter().map(|l| format!("def {l}")).collect();
    versions.extend(v.needs.iter().map(|l| format!("need {l}")));
    facts.push("versions", true, versions);
    Ok(facts)
}

/// Dynamic tags whose value is an address: only their presence (and place) is compared.
const ADDRESS_TAGS: &[&str] = &[
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
    // Whatever llvm-readelf decodes beyond the raw value (`Library`, `Flags`, `Name`, `Path`)
    // replaces it: the raw value of a string tag is a .dynstr offset.
    let Json::Obj(members) = e else {
        return Err("a dynamic entry is not an object".to_string());
    };
    let mut decoded = Vec::new();
    for (k, v) in members {
        if matches!(k.as_str(), "Tag" | "Type" | "Value") {
            continue;
        }
        match v {
            Json::Str(s) => decoded.push(s.clone()),
            Json::Arr(a) => {
                for x in a {
                    decoded.push(x.as_str()?.to_string());
                }
            }
            other => decoded.push(format!("{other:?}")),
        }
    }
    if decoded.is_empty() && !members.iter().any(|(k, _)| k == "Flags") {
        Ok(format!("{kind} {}", e.at("Value")?.as_u64()?))
    } else {
        Ok(format!("{kind} {}", decoded.join(" ")).trim_end().to_string())
    }
}

/// `name TYPE BIND VIS size=N SECTION` for each symbol but the null one; SECTION is `UND`,
/// `ABS`, `COM` or the defining section's name.
fn symbols(file: &Json, key: &str) -> Result<Vec<String>, String> {
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
        v.push(format!(
            "{} {} {} {vis} size={} {where_}",
            s.path(&["Name", "Name"])?.as_str()?,
            s.path(&["Type", "Name"])?.as_str()?,
            s.path(&["Binding", "Name"])?.as_str()?,
            s.at("Size")?.as_u64()?,
        ));
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
    let mut lines = gnu.lines().skip_while(|l| !l.contains("Section to Segment mapping:"));
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
            m.none = secs;
        } else if first.parse::<usize>() == Ok(m.segments.len()) {
            m.segments.push(secs);
        } else {
            break;
        }
    }
    Ok(m)
}

/// How weld's facts differ from lld's: one message per differing view, empty when they agree.
pub fn differences(weld: &Facts, lld: &Facts) -> Vec<String> {
    let mut out = Vec::new();
    for lv in &lld.views {
        let empty = View {
            name: lv.name,
            ordered: lv.ordered,
            lines: Vec::new(),
        };
        let wv = weld.view(lv.name).unwrap_or(&empty);
        if wv.lines == lv.lines {
            continue;
        }
        if lv.ordered {
            out.push(format!(
                "structure differs in [{}]: {}",
                lv.name,
                crate::text_diff("weld", &wv.lines.join("\n"), "lld", &lv.lines.join("\n"))
            ));
        } else {
            let (only_w, only_l) = multiset_difference(&wv.lines, &lv.lines);
            let mut m = format!("structure differs in [{}]:\n", lv.name);
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
    out
}

/// The lines of `a` not matched in `b` and of `b` not matched in `a` (both sorted).
pub fn multiset_difference(a: &[String], b: &[String]) -> (Vec<String>, Vec<String>) {
    let (mut i, mut j) = (0, 0);
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    while i < a.len() || j < b.len() {
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
