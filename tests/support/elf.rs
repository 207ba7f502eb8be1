//! Reading ELF files through llvm-readelf-22 and llvm-dwarfdump-22.

use crate::run;
use crate::tools;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

fn readelf(args: &[&str], file: &Path) -> Result<String, String> {
    let mut cmd = Command::new(tools::find(tools::READELF)?);
    cmd.args(args).arg(file);
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-readelf-22")?;
    Ok(out.stdout_str())
}

/// Program header types mapped to the flags of each header of that type, sorted
/// (`LOAD -> ["R", "R E", "RW", "RW"]`): equal maps mean the same types, the same count per type
/// and the same flags.
pub type Segments = BTreeMap<String, Vec<String>>;

/// Parses `llvm-readelf -lW` output.
pub fn parse_segments(text: &str) -> Result<Segments, String> {
    let mut map = Segments::new();
    let mut in_table = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Program Headers:") {
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        if t.is_empty() || t.starts_with("Section to Segment") {
            break;
        }
        if t.starts_with("Type ") || t.starts_with('[') {
            continue;
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        // Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg... Align
        if toks.len() < 8 || !toks[1].starts_with("0x") {
            return Err(format!("unexpected program header line: `{line}`"));
        }
        let flags = toks[6..toks.len() - 1].join(" ");
        map.entry(toks[0].to_string()).or_default().push(flags);
    }
    if !in_table {
        return Err(format!("no program headers in readelf output:\n{text}"));
    }
    for v in map.values_mut() {
        v.sort();
    }
    Ok(map)
}

pub fn segments(file: &Path) -> Result<Segments, String> {
    parse_segments(&readelf(&["-lW"], file)?)
}

/// Parses `llvm-readelf -n` output into `OWNER TYPE` strings.
pub fn parse_notes(text: &str) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for line in text.lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.len() >= 3 && toks[1].starts_with("0x") && toks[0] != "Owner" {
            set.insert(format!("{} {}", toks[0], toks[2]));
        }
    }
    set
}

pub fn notes(file: &Path) -> Result<BTreeSet<String>, String> {
    Ok(parse_notes(&readelf(&["-n"], file)?))
}

/// Relocation type names (`R_X86_64_PC32`, ...) present in a relocatable object.
pub fn parse_reloc_types(text: &str) -> BTreeSet<String> {
    text.split_whitespace()
        .filter(|t| t.starts_with("R_X86_64_"))
        .map(String::from)
        .collect()
}

pub fn reloc_types(file: &Path) -> Result<BTreeSet<String>, String> {
    Ok(parse_reloc_types(&readelf(&["-rW"], file)?))
}

/// Section names, in section header order.
pub fn parse_section_names(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l.strip_prefix('[')?;
            let (idx, rest) = rest.split_once(']')?;
            if idx.trim().parse::<u32>().ok()? == 0 {
                return None; // the null section has no name
            }
            rest.split_whitespace().next().map(String::from)
        })
        .filter(|n| !n.is_empty())
        .collect()
}

pub fn section_names(file: &Path) -> Result<Vec<String>, String> {
    Ok(parse_section_names(&readelf(&["-SW"], file)?))
}

/// Strings in a section (`llvm-readelf -p`).
pub fn section_strings(file: &Path, section: &str) -> Result<String, String> {
    readelf(&["-p", section], file)
}

/// Result of `llvm-dwarfdump-22 --verify`: the number of `error:` lines and the full text.
pub fn dwarf_verify(file: &Path) -> Result<(usize, String), String> {
    let mut cmd = Command::new(tools::find(tools::DWARFDUMP)?);
    cmd.arg("--verify").arg(file);
    let out = run::run(&mut cmd, run::TOOL_TIMEOUT)?;
    let text = format!("{}{}", out.stdout_str(), out.stderr_str());
    let errors = text
        .lines()
        .filter(|l| l.trim_start().starts_with("error:"))
        .count();
    if errors == 0 && !out.success() {
        return Err(format!(
            "llvm-dwarfdump --verify failed without errors\n{}",
            out.report()
        ));
    }
    Ok((errors, text))
}

/// How two outputs' program headers (type and flags of each) and note types differ: one message
/// per difference, empty when they agree.
pub fn header_differences(weld: &Path, lld: &Path) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    let (ws, ls) = (segments(weld)?, segments(lld)?);
    if ws != ls {
        problems.push(format!(
            "program headers differ (type -> flags of each header):\n  weld: {ws:?}\n  lld:  {ls:?}"
        ));
    }
    let (wn, ln) = (notes(weld)?, notes(lld)?);
    if wn != ln {
        problems.push(format!(
            "note types differ:\n  weld: {wn:?}\n  lld:  {ln:?}"
        ));
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHDRS: &str = "\
Elf file type is EXEC (Executable file)
Entry point 0x228600
There are 9 program headers, starting at offset 64

Program Headers:
  Type           Offset   VirtAddr           PhysAddr           FileSiz  MemSiz   Flg Align
  PHDR           0x000040 0x0000000000200040 0x0000000000200040 0x0001f8 0x0001f8 R   0x8
  INTERP         0x000238 0x0000000000200238 0x0000000000200238 0x00001c 0x00001c R   0x1
      [Requesting program interpreter: /lib64/ld-linux-x86-64.so.2]
  LOAD           0x000000 0x0000000000200000 0x0000000000200000 0x0275d0 0x0275d0 R   0x1000
  LOAD           0x027600 0x0000000000228600 0x0000000000228600 0x077d80 0x077d80 R E 0x1000
  LOAD           0x09f380 0x00000000002a1380 0x00000000002a1380 0x003970 0x003c80 RW  0x1000
  TLS            0x09f380 0x00000000002a1380 0x00000000002a1380 0x000018 0x000060 R   0x8
  GNU_STACK      0x000000 0x0000000000000000 0x0000000000000000 0x000000 0x000000 RW  0x0

 Section to Segment mapping:
  Segment Sections...
   00     
";

    #[test]
    fn segments_by_type_with_flags() {
        let s = parse_segments(PHDRS).unwrap();
        assert_eq!(s["LOAD"], ["R", "R E", "RW"]);
        assert_eq!(s["TLS"], ["R"]);
        assert_eq!(s["INTERP"], ["R"]);
        assert_eq!(s["GNU_STACK"], ["RW"]);
        assert_eq!(s.len(), 5);
    }

    #[test]
    fn segments_need_a_table() {
        assert!(parse_segments("There are no program headers in this file.\n").is_err());
    }

    #[test]
    fn notes_by_owner_and_type() {
        let text = "Displaying notes found in: .note.ABI-tag\n  Owner                Data size \tDescription\n  GNU                  0x00000010\tNT_GNU_ABI_TAG (ABI version tag)\n    OS: Linux, ABI: 3.2.0\n  GNU                  0x00000014\tNT_GNU_BUILD_ID (unique build ID bitstring)\n";
        let n = parse_notes(text);
        assert_eq!(
            n.into_iter().collect::<Vec<_>>(),
            ["GNU NT_GNU_ABI_TAG", "GNU NT_GNU_BUILD_ID"]
        );
    }

    #[test]
    fn relocation_and_section_names() {
        let r =
            "0000000000000004  0000000400000022 R_X86_64_GOTPC32_TLSDESC 0000000000000000 v - 4\n";
        assert!(parse_reloc_types(r).contains("R_X86_64_GOTPC32_TLSDESC"));
        let s = "  [Nr] Name Type\n  [ 0]                   NULL\n  [ 1] .text PROGBITS 0\n  [12] my_sec PROGBITS\n";
        assert_eq!(parse_section_names(s), [".text", "my_sec"]);
    }
}
