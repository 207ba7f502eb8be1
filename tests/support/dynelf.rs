//! Reading the dynamic parts of ELF files through llvm-readelf-22, normalised so that weld's and
//! lld's outputs can be compared: no addresses, offsets or section indexes, only what the dynamic
//! loader sees (tags and their values, symbol names with versions, version definitions and needs,
//! dynamic relocation types and symbols).

use crate::run;
use crate::tools;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// `llvm-readelf-22 ARGS FILE`, stdout.
pub fn readelf(args: &[&str], file: &Path) -> Result<String, String> {
    let mut cmd = Command::new(tools::find(tools::READELF)?);
    cmd.args(args).arg(file);
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-readelf-22")?;
    Ok(out.stdout_str())
}

/// The rows of `.symtab` as `llvm-readelf -sW` prints them, split into their columns
/// (`Num: Value Size Type Bind Vis Ndx Name`).
pub fn symtab_rows(file: &Path) -> Result<Vec<Vec<String>>, String> {
    let text = readelf(&["-sW"], file)?;
    let mut rows = Vec::new();
    let mut in_symtab = false;
    for line in text.lines() {
        if line.starts_with("Symbol table '.symtab'") {
            in_symtab = true;
            continue;
        }
        if line.starts_with("Symbol table") {
            in_symtab = false;
        }
        let t: Vec<&str> = line.split_whitespace().collect();
        if !in_symtab || t.len() < 8 || !t[0].ends_with(':') || t[0] == "Num:" {
            continue;
        }
        rows.push(t.into_iter().map(str::to_string).collect());
    }
    Ok(rows)
}

/// One entry of the dynamic section: `(NEEDED, "Shared library: [libc.so.6]")`.
pub type DynEntry = (String, String);

/// Parses `llvm-readelf -d` output: every entry's type name and value text, in order.
pub fn parse_dynamic(text: &str) -> Vec<DynEntry> {
    let mut v = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if !t.starts_with("0x") {
            continue;
        }
        let Some(open) = t.find('(') else { continue };
        let Some(close) = t[open..].find(')') else {
            continue;
        };
        let tag = t[open + 1..open + close].to_string();
        let value = t[open + close + 1..].trim().to_string();
        v.push((tag, value));
    }
    v
}

pub fn dynamic(file: &Path) -> Result<Vec<DynEntry>, String> {
    Ok(parse_dynamic(&readelf(&["-d"], file)?))
}

/// Tags whose value is an address or a size that depends on layout: only their presence counts.
const PRESENCE_ONLY: &[&str] = &[
    "HASH",
    "GNU_HASH",
    "SYMTAB",
    "STRTAB",
    "VERSYM",
    "VERDEF",
    "VERNEED",
    "DEBUG",
    "TEXTREL",
    "INIT",
    "FINI",
    "INIT_ARRAY",
    "FINI_ARRAY",
    "PREINIT_ARRAY",
    "RELA",
    "JMPREL",
    "PLTGOT",
    "RELR",
];

/// The dynamic entries whose tag is in `tags`, in file order, as `TAG value` (or `TAG` alone for
/// tags whose value is an address). The strings of `NEEDED`, `SONAME`, `RUNPATH` and `RPATH` are
/// bare (`NEEDED libc.so.6`).
pub fn dynamic_summary(file: &Path, tags: &[&str]) -> Result<Vec<String>, String> {
    Ok(summarise(&dynamic(file)?, tags))
}

pub fn summarise(entries: &[DynEntry], tags: &[&str]) -> Vec<String> {
    entries
        .iter()
        .filter(|(t, _)| tags.contains(&t.as_str()))
        .map(|(t, v)| {
            if PRESENCE_ONLY.contains(&t.as_str()) {
                t.clone()
            } else {
                let bare = match (v.find('['), v.rfind(']')) {
                    (Some(a), Some(b)) if b > a => &v[a + 1..b],
                    _ => v.as_str(),
                };
                format!("{t} {}", bare.trim())
            }
        })
        .collect()
}

/// The `NEEDED` libraries, in order.
pub fn needed(file: &Path) -> Result<Vec<String>, String> {
    Ok(dynamic_summary(file, &["NEEDED"])?
        .into_iter()
        .map(|s| s.trim_start_matches("NEEDED ").to_string())
        .collect())
}

/// One dynamic symbol without its value and section index: `name@ver TYPE BIND VIS SIZE DEF`
/// where DEF is `UND`, `ABS` or `DEF`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct DynSym {
    /// With the version suffix llvm-readelf prints (`foo@@V2`, `foo@V1`, `memcpy@GLIBC_2.14`).
    pub name: String,
    pub kind: String,
    pub bind: String,
    pub vis: String,
    pub size: u64,
    pub ndx: String,
}

impl std::fmt::Display for DynSym {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} {} {} size={} {}",
            self.name, self.kind, self.bind, self.vis, self.size, self.ndx
        )
    }
}

impl DynSym {
    /// The name without a version suffix.
    pub fn base_name(&self) -> &str {
        self.name.split('@').next().unwrap_or(&self.name)
    }
    pub fn is_defined(&self) -> bool {
        self.ndx != "UND"
    }
}

/// Parses `llvm-readelf --dyn-syms` output (entry 0 is skipped).
pub fn parse_dyn_syms(text: &str) -> Result<Vec<DynSym>, String> {
    let mut v = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Symbol table '.dynsym'") {
            in_table = true;
            continue;
        }
        if !in_table || t.starts_with("Num:") {
            continue;
        }
        if t.is_empty() || t.starts_with("Version") {
            in_table = false;
            continue;
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        // Num: Value Size Type Bind Vis Ndx [Name]
        if toks.len() < 7 || !toks[0].ends_with(':') {
            return Err(format!("unexpected --dyn-syms line: `{line}`"));
        }
        if toks[0] == "0:" {
            continue;
        }
        let ndx = match toks[6] {
            "UND" => "UND",
            "ABS" => "ABS",
            _ => "DEF",
        };
        v.push(DynSym {
            name: toks.get(7..).map(|n| n.join(" ")).unwrap_or_default(),
            kind: toks[3].to_string(),
            bind: toks[4].to_string(),
            vis: toks[5].to_string(),
            size: toks[2]
                .parse()
                .or_else(|_| u64::from_str_radix(toks[2].trim_start_matches("0x"), 16))
                .map_err(|_| format!("bad size in `{line}`"))?,
            ndx: ndx.to_string(),
        });
    }
    Ok(v)
}

pub fn dyn_syms(file: &Path) -> Result<Vec<DynSym>, String> {
    parse_dyn_syms(&readelf(&["--dyn-syms", "-W"], file)?)
}

/// The dynamic symbols as a sorted set of display lines.
pub fn dyn_sym_set(file: &Path) -> Result<BTreeSet<String>, String> {
    Ok(dyn_syms(file)?.iter().map(|s| s.to_string()).collect())
}

/// The defined dynamic symbols' names with versions, sorted.
pub fn exported(file: &Path) -> Result<BTreeSet<String>, String> {
    Ok(dyn_syms(file)?
        .into_iter()
        .filter(|s| s.is_defined())
        .map(|s| s.name)
        .collect())
}

/// The version definitions and needs of `llvm-readelf -V`, without addresses, offsets and
/// section links: `Rev: 1 Flags: BASE Index: 1 Cnt: 1 Name: libfoo.so`, `Parent 1: V1`,
/// `Version: 1 File: libc.so.6 Cnt: 2`, `Name: GLIBC_2.2.5 Flags: none Version: 3`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Versions {
    pub defs: Vec<String>,
    pub needs: Vec<String>,
}

impl Versions {
    pub fn defs_text(&self) -> String {
        self.defs.iter().map(|l| format!("{l}\n")).collect()
    }
    pub fn needs_text(&self) -> String {
        self.needs.iter().map(|l| format!("{l}\n")).collect()
    }
    /// The version names defined (the base, the file name, included).
    pub fn def_names(&self) -> Vec<String> {
        self.defs
            .iter()
            .filter_map(|l| l.split("Name: ").nth(1).map(String::from))
            .collect()
    }
}

pub fn parse_versions(text: &str) -> Versions {
    #[derive(PartialEq)]
    enum In {
        Nothing,
        Defs,
        Needs,
    }
    let mut at = In::Nothing;
    let mut v = Versions::default();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Version definition section") {
            at = In::Defs;
            continue;
        }
        if t.starts_with("Version needs section") {
            at = In::Needs;
            continue;
        }
        if t.starts_with("Version symbols section") || t.starts_with("Symbol table") {
            at = In::Nothing;
            continue;
        }
        if at == In::Nothing || t.is_empty() || t.starts_with("Addr:") {
            continue;
        }
        // Strip the `0x001c:` offset.
        let body = match t.split_once(": ") {
            Some((off, rest)) if off.starts_with("0x") => rest,
            _ => t,
        };
        let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
        match at {
            In::Defs => v.defs.push(body),
            In::Needs => v.needs.push(body),
            In::Nothing => {}
        }
    }
    v
}

pub fn versions(file: &Path) -> Result<Versions, String> {
    Ok(parse_versions(&readelf(&["-V"], file)?))
}

/// Dynamic relocations as `TYPE symbol` (symbol without version; empty for relative ones), in
/// file order.
pub fn parse_dyn_relocs(text: &str) -> Vec<String> {
    let mut v = Vec::new();
    for line in text.lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let Some(i) = toks.iter().position(|t| t.starts_with("R_X86_64_")) else {
            continue;
        };
        // Offset Info Type [SymValue Name + Addend | Addend]
        let sym = if toks.len() >= i + 3 && toks.get(i + 3) == Some(&"+")
            || toks.len() >= i + 3 && toks.get(i + 3) == Some(&"-")
        {
            toks[i + 2].split('@').next().unwrap_or("").to_string()
        } else {
            String::new()
        };
        v.push(format!("{} {sym}", toks[i]).trim_end().to_string());
    }
    v
}

pub fn dyn_relocs(file: &Path) -> Result<Vec<String>, String> {
    Ok(parse_dyn_relocs(&readelf(&["-rW"], file)?))
}

/// The sections `PT_GNU_RELRO` covers (made read-only after relocation), in address order, from
/// the section-to-segment mapping of `llvm-readelf -l`; empty without the segment.
pub fn parse_relro_sections(text: &str) -> Vec<String> {
    // Program headers are listed in order; the mapping numbers them the same way.
    let headers: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("Type"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| !l.trim_start().starts_with('['))
        .collect();
    let Some(index) = headers
        .iter()
        .position(|l| l.split_whitespace().next() == Some("GNU_RELRO"))
    else {
        return Vec::new();
    };
    let wanted = format!("{index:02}");
    text.lines()
        .skip_while(|l| !l.contains("Section to Segment mapping"))
        .find(|l| l.split_whitespace().next() == Some(wanted.as_str()))
        .map(|l| l.split_whitespace().skip(1).map(String::from).collect())
        .unwrap_or_default()
}

/// [`parse_relro_sections`] of a file.
pub fn relro_sections(file: &Path) -> Result<Vec<String>, String> {
    Ok(parse_relro_sections(&readelf(&["-lW"], file)?))
}

/// The section header rows of `readelf -SW`: each section's index and the fields after it
/// (name, type, address, offset, size, entry size, flags, link, info, alignment; the flags
/// field is missing when a section has none).
pub fn section_header_rows(file: &Path) -> Result<Vec<(String, Vec<String>)>, String> {
    Ok(parse_section_header_rows(&readelf(&["-SW"], file)?))
}

/// [`section_header_rows`] of the text of GNU's or LLVM's `readelf -S -W`.
pub fn parse_section_header_rows(text: &str) -> Vec<(String, Vec<String>)> {
    text.lines()
        .filter_map(|l| {
            let (idx, rest) = l.trim().strip_prefix('[')?.split_once(']')?;
            let fields: Vec<String> = rest.split_whitespace().map(String::from).collect();
            (idx.trim() != "Nr").then(|| (idx.trim().to_string(), fields))
        })
        .collect()
}

/// Section names of a file (from `support/elf.rs`), as a set.
pub fn section_set(file: &Path) -> Result<BTreeSet<String>, String> {
    Ok(crate::elf::section_names(file)?.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relro_sections_from_the_mapping() {
        let text = "Program Headers:
  Type           Offset   VirtAddr           PhysAddr           FileSiz  MemSiz   Flg Align
  PHDR           0x000040 0x0000000000000040 0x0000000000000040 0x0002a0 0x0002a0 R   0x8
  INTERP         0x0002e0 0x00000000000002e0 0x00000000000002e0 0x00001c 0x00001c R   0x1
      [Requesting program interpreter: /lib64/ld-linux-x86-64.so.2]
  LOAD           0x000000 0x0000000000000000 0x0000000000000000 0x000718 0x000718 R   0x1000
  GNU_RELRO      0x000790 0x0000000000002790 0x0000000000002790 0x000210 0x000870 R   0x1

 Section to Segment mapping:
  Segment Sections...
   00     
   01     .interp 
   02     .interp .dynsym 
   03     .init_array .dynamic .got .got.plt .relro_padding 
   None   .comment .symtab
";
        assert_eq!(
            parse_relro_sections(text),
            [
                ".init_array",
                ".dynamic",
                ".got",
                ".got.plt",
                ".relro_padding"
            ]
        );
        assert!(parse_relro_sections("Program Headers:\n  Type Offset\n").is_empty());
    }

    #[test]
    fn dynamic_entries_and_summary() {
        let text = "Dynamic section at offset 0x718 contains 5 entries:
  Tag                Type           Name/Value
  0x0000000000000001 (NEEDED)       Shared library: [libc.so.6]
  0x000000000000000e (SONAME)       Library soname: [libl.so.1]
  0x000000000000001d (RUNPATH)      Library runpath: [$ORIGIN/../lib]
  0x000000006ffffef5 (GNU_HASH)     0x3c8
  0x000000006ffffffb (FLAGS_1)      NOW PIE 
  0x0000000000000000 (NULL)         0x0
";
        let e = parse_dynamic(text);
        assert_eq!(e.len(), 6);
        assert_eq!(
            e[0],
            ("NEEDED".into(), "Shared library: [libc.so.6]".into())
        );
        assert_eq!(
            summarise(&e, &["NEEDED", "SONAME", "RUNPATH", "GNU_HASH", "FLAGS_1"]),
            [
                "NEEDED libc.so.6",
                "SONAME libl.so.1",
                "RUNPATH $ORIGIN/../lib",
                "GNU_HASH",
                "FLAGS_1 NOW PIE"
            ]
        );
    }

    #[test]
    fn dyn_syms_with_versions() {
        let text = "
Symbol table '.dynsym' contains 3 entries:
   Num:    Value          Size Type    Bind   Vis       Ndx Name
     0: 0000000000000000     0 NOTYPE  LOCAL  DEFAULT   UND 
     1: 0000000000000000     0 FUNC    WEAK   DEFAULT   UND __cxa_finalize@GLIBC_2.2.5
     2: 0000000000001680    11 FUNC    GLOBAL DEFAULT    12 hook@@V1
";
        let s = parse_dyn_syms(text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            s[0].to_string(),
            "__cxa_finalize@GLIBC_2.2.5 FUNC WEAK DEFAULT size=0 UND"
        );
        assert_eq!(s[1].to_string(), "hook@@V1 FUNC GLOBAL DEFAULT size=11 DEF");
        assert_eq!(s[1].base_name(), "hook");
    }

    #[test]
    fn version_sections() {
        let text = "Version symbols section '.gnu.version' contains 6 entries:
 Addr: 0000000000000360  Offset: 0x000360  Link: 2 (.dynsym)
  000:   0 (*local*)       0 (*local*)       0 (*local*)       0 (*local*)    

Version definition section '.gnu.version_d' contains 2 entries:
 Addr: 000000000000036c  Offset: 0x00036c  Link: 7 (.dynstr)
  0x0000: Rev: 1  Flags: BASE  Index: 1  Cnt: 1  Name: libl.so.1
  0x001c: Rev: 1  Flags: none  Index: 2  Cnt: 1  Name: V1
  0x0038: Parent 1: V1

Version needs section '.gnu.version_r' contains 1 entries:
 Addr: 00000000000003a4  Offset: 0x0003a4  Link: 7 (.dynstr)
  0x0000: Version: 1  File: libc.so.6  Cnt: 1
  0x0010:   Name: GLIBC_2.2.5  Flags: none  Version: 3
";
        let v = parse_versions(text);
        assert_eq!(
            v.defs,
            [
                "Rev: 1 Flags: BASE Index: 1 Cnt: 1 Name: libl.so.1",
                "Rev: 1 Flags: none Index: 2 Cnt: 1 Name: V1",
                "Parent 1: V1"
            ]
        );
        assert_eq!(
            v.needs,
            [
                "Version: 1 File: libc.so.6 Cnt: 1",
                "Name: GLIBC_2.2.5 Flags: none Version: 3"
            ]
        );
        assert_eq!(v.def_names(), ["libl.so.1", "V1"]);
    }

    #[test]
    fn dynamic_relocations() {
        let text = "
Relocation section '.rela.dyn' at offset 0x4f8 contains 3 entries:
    Offset             Info             Type               Symbol's Value  Symbol's Name + Addend
0000000000002890  0000000000000008 R_X86_64_RELATIVE                 1780
0000000000004020  0000000300000005 R_X86_64_COPY          0000000000004020 lib_array@V1 + 0
0000000000002a58  0000000200000006 R_X86_64_GLOB_DAT      0000000000000000 __gmon_start__ + 0
";
        assert_eq!(
            parse_dyn_relocs(text),
            [
                "R_X86_64_RELATIVE",
                "R_X86_64_COPY lib_array",
                "R_X86_64_GLOB_DAT __gmon_start__"
            ]
        );
    }
}
