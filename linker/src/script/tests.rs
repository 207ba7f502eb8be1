//! Whole scripts: GNU ld's default x86-64 script (read from `ld --verbose` at test time), a
//! freestanding kernel-style script using the rest of the language, expressions checked
//! against ld.lld-22's values, and error cases checked against lld's exact text (here, and by
//! running ld.lld-22 on the same script).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use super::ast::*;
use super::expr::{eval, EvalContext, SectionInfo, Value};
use super::{parse, parse_with_includes, Included};
use crate::error::Result;

fn ok(text: &str) -> Script {
    parse(text, Path::new("t.lds")).unwrap_or_else(|e| panic!("{e}\n--- script:\n{text}"))
}

fn err(text: &str) -> String {
    match parse(text, Path::new("t.lds")) {
        Ok(s) => panic!("expected an error for {text:?}, got {s:?}"),
        Err(e) => e.0,
    }
}

fn sections(s: &Script) -> Vec<&SectionsCommand> {
    s.commands
        .iter()
        .filter_map(|c| match c {
            Command::Sections(s) => Some(s.commands.iter()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn output_sections(s: &Script) -> Vec<&OutputSection> {
    sections(s)
        .into_iter()
        .filter_map(|c| match c {
            SectionsCommand::Output(o) => Some(&**o),
            _ => None,
        })
        .collect()
}

fn find<'a>(s: &'a Script, name: &str) -> &'a OutputSection {
    output_sections(s)
        .into_iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no output section {name}"))
}

fn inputs(o: &OutputSection) -> Vec<&InputSectionDesc> {
    o.commands
        .iter()
        .filter_map(|c| match c {
            OutputSectionCommand::Input(d) => Some(d),
            _ => None,
        })
        .collect()
}

fn texts(p: &[Pattern]) -> Vec<&str> {
    p.iter().map(|p| p.text.as_str()).collect()
}

/// The evaluation context of the tests: `.` is 0x1000 (absolute), sections and symbols as
/// listed.
struct Cx {
    dot: u64,
    symbols: HashMap<String, Value>,
}

impl EvalContext for Cx {
    fn dot(&self) -> Result<Value> {
        Ok(Value::absolute(self.dot))
    }
    fn symbol(&self, name: &str) -> Option<Value> {
        self.symbols.get(name).cloned()
    }
    fn section(&self, name: &str) -> Option<SectionInfo> {
        (name == ".text").then_some(SectionInfo {
            addr: 0x40_1000,
            lma: 0x40_1000,
            size: 0x20,
            alignment: 16,
        })
    }
    fn size_of_headers(&self) -> u64 {
        0x40 + 56 * 4
    }
    fn max_page_size(&self) -> u64 {
        4096
    }
    fn common_page_size(&self) -> u64 {
        4096
    }
    fn memory_region(&self, name: &str) -> Option<(u64, u64)> {
        match name {
            "rom" => Some((0x0800_0000, 512 * 1024)),
            "ram" => Some((0x2000_0000, 128 * 1024)),
            _ => None,
        }
    }
    fn is_defined(&self, name: &str, _order: u32) -> bool {
        self.symbols.contains_key(name)
    }
}

fn cx() -> Cx {
    Cx {
        dot: 0x1000,
        symbols: [
            ("a".to_string(), Value::absolute(5)),
            ("b".to_string(), Value::absolute(7)),
        ]
        .into(),
    }
}

/// The top-level assignments' values, by name.
fn assigned_values(s: &Script) -> Vec<(String, u64)> {
    s.commands
        .iter()
        .filter_map(|c| match c {
            Command::Assignment(a) => Some(a),
            _ => None,
        })
        .map(|a| {
            let v = eval(&a.expr, &cx()).unwrap_or_else(|e| panic!("{}: {e}", a.name));
            (a.name.clone(), v.value())
        })
        .collect()
}

// ---- GNU ld's default script ----

/// The script `ld --verbose` prints, or `None` when GNU ld is not installed.
fn gnu_default_script() -> Option<String> {
    let out = Process::new("ld").arg("--verbose").output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let mut parts = text.split("==================================================");
    parts.next()?;
    let script = parts.next()?;
    Some(script.to_string())
}

#[test]
fn gnu_ld_default_script() {
    let Some(text) = gnu_default_script() else {
        eprintln!("GNU ld not installed; skipped");
        return;
    };
    let s = ok(&text);
    assert!(s.commands.iter().any(|c| matches!(c,
        Command::OutputFormat { default, big: Some(b), little: Some(l), .. }
            if default == "elf64-x86-64" && b == "elf64-x86-64" && l == "elf64-x86-64")));
    assert!(s
        .commands
        .iter()
        .any(|c| matches!(c, Command::Entry(e, _) if e == "_start")));
    assert!(s
        .commands
        .iter()
        .any(|c| matches!(c, Command::OutputArch(a) if a == &["i386:x86-64"])));
    let dirs = s
        .commands
        .iter()
        .filter(|c| matches!(c, Command::SearchDir(d, _) if d.starts_with("=/")))
        .count();
    assert!(dirs >= 5, "{dirs} SEARCH_DIRs");

    // The first command: PROVIDE (__executable_start = SEGMENT_START(...)).
    let first = sections(&s)[0];
    match first {
        SectionsCommand::Assignment(a) => {
            assert_eq!(a.name, "__executable_start");
            assert!(a.provide && !a.hidden);
            assert!(matches!(&a.expr, Expr::SegmentStart(seg, d)
                if seg == "text-segment" && **d == Expr::Number(0x400000)));
            assert!(
                a.text
                    .starts_with("PROVIDE (__executable_start = SEGMENT_START("),
                "{}",
                a.text
            );
        }
        other => panic!("{other:?}"),
    }

    let names: Vec<&str> = output_sections(&s)
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    for want in [
        ".interp",
        ".rela.dyn",
        ".init",
        ".text",
        ".rodata",
        ".eh_frame",
        ".tdata",
        ".ctors",
        ".got.plt",
        ".data",
        ".bss",
        ".comment",
        ".debug_info",
        "/DISCARD/",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    assert_eq!(names.last(), Some(&"/DISCARD/"));

    // KEEP (*(SORT_NONE(.init)))
    let init = inputs(find(&s, ".init"));
    assert!(init[0].keep);
    assert_eq!(init[0].text, "KEEP (*(SORT_NONE(.init)))");
    assert_eq!(init[0].file.text, "*");
    assert_eq!(init[0].patterns[0].sort_outer, SortKind::None);
    assert_eq!(texts(&init[0].patterns[0].sections), [".init"]);

    // .rela.plt holds PROVIDE_HIDDEN assignments between its inputs.
    let rela_plt = find(&s, ".rela.plt");
    assert!(rela_plt.commands.iter().any(|c| matches!(c,
        OutputSectionCommand::Assignment(a)
            if a.name == "__rela_iplt_start" && a.provide && a.hidden
                && matches!(a.expr, Expr::Dot(_)))));

    // .ctors: KEEP (*crtbegin.o(.ctors)), KEEP (*(EXCLUDE_FILE (*crtend.o ...) .ctors)),
    // KEEP (*(SORT(.ctors.*))).
    let ctors = inputs(find(&s, ".ctors"));
    assert!(ctors.iter().all(|d| d.keep));
    assert!(ctors.iter().any(|d| d.file.text == "*crtbegin.o"));
    assert!(ctors
        .iter()
        .any(|d| d
            .patterns
            .iter()
            .any(|p| texts(&p.exclude_files).contains(&"*crtend.o")
                && texts(&p.sections) == [".ctors"])));
    assert!(ctors
        .iter()
        .any(|d| d.patterns.iter().any(|p| p.sort_outer == SortKind::Name)));

    // .init_array: SORT_BY_INIT_PRIORITY.
    let init_array = inputs(find(&s, ".init_array"));
    assert!(init_array.iter().any(|d| d
        .patterns
        .iter()
        .any(|p| p.sort_outer == SortKind::InitPriority)));

    // DATA_SEGMENT_ALIGN / DATA_SEGMENT_RELRO_END / DATA_SEGMENT_END all appear.
    let dot_exprs: Vec<&Expr> = sections(&s)
        .into_iter()
        .filter_map(|c| match c {
            SectionsCommand::Assignment(a) if a.name == "." => Some(&a.expr),
            _ => None,
        })
        .collect();
    let has = |f: &dyn Fn(&Expr) -> bool| dot_exprs.iter().any(|e| f(e));
    assert!(has(&|e| matches!(e, Expr::DataSegmentAlign(..))));
    assert!(has(&|e| matches!(e, Expr::DataSegmentRelroEnd(..))));
    assert!(has(&|e| matches!(e, Expr::DataSegmentEnd)));

    // `.bss` ends with `. = ALIGN(. != 0 ? 64 / 8 : 1);`, which evaluates with a context.
    let bss = find(&s, ".bss");
    let align = bss.commands.iter().find_map(|c| match c {
        OutputSectionCommand::Assignment(a) if a.name == "." => Some(&a.expr),
        _ => None,
    });
    if let Some(e) = align {
        let v = eval(e, &cx()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.value(), 0x1000);
    }

    // Every output section and input description knows its line.
    for o in output_sections(&s) {
        assert!(o.loc.line > 10, "{} at {}", o.name, o.loc);
        assert_eq!(o.loc.file.to_str(), Some("t.lds"));
    }
}

// ---- a freestanding kernel-style script ----

const KERNEL: &str = r#"/* A kernel image: loaded at 1 MiB, linked high. */
OUTPUT_FORMAT("elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
ENTRY(_start)
TARGET(elf64-x86-64)
SEARCH_DIR(/opt/lib)
INPUT(boot.o "quoted name.o" -lfoo AS_NEEDED(-lbar libbaz.so))
GROUP(libc.a, libgcc.a)
EXTERN(isr_table _init)
NOCROSSREFS(.text .data)
NOCROSSREFS_TO(.text .init)
KERNEL_VMA = 0xffffffff80000000;
HIDDEN(hidden_sym = 4K);

MEMORY
{
  rom (rx)  : ORIGIN = 0x08000000, LENGTH = 512K
  ram (!rx) : org = 0x20000000, len = 128K
  ccm (wa!r) : o = ORIGIN(ram) + LENGTH(ram), l = 64K
}
REGION_ALIAS("REGION_TEXT", rom);

PHDRS
{
  headers PT_PHDR PHDRS;
  text PT_LOAD FILEHDR PHDRS AT(0x100000) FLAGS(5);
  data PT_LOAD FLAGS(0x6);
  note PT_NOTE;
  tls 7;
  stack PT_GNU_STACK FLAGS(6);
}

SECTIONS
{
  . = 1M;
  .boot : AT(ADDR(.boot)) { KEEP(*(.multiboot)) *boot.o(.text .text.*) } :text
  . += KERNEL_VMA;
  .text ALIGN(4K) : AT(ADDR(.text) - KERNEL_VMA) ALIGN(16) SUBALIGN(8)
  {
    __text_start = .;
    *(EXCLUDE_FILE(*crt*.o boot.o) .text .text.*)
    *(EXCLUDE_FILE(*skip.o) .text.cold)
    INPUT_SECTION_FLAGS(SHF_EXECINSTR & !SHF_WRITE) *(.text.flagged)
    KEEP(INPUT_SECTION_FLAGS(SHF_ALLOC) *(.text.kept))
    *(SORT_BY_NAME(SORT_BY_ALIGNMENT(.text.sorted.*)))
    *(SORT_BY_ALIGNMENT(.a) SORT_NONE(.b) .c)
    libc.a:memcpy.o(.text)
    *libc.a:(.text.libc)
    "quoted*.o"(".text.q*")
    crti.o
    FILL(0x90909090)
    BYTE(1) SHORT(2) LONG(3) QUAD(4) SQUAD(-5)
    SORT(CONSTRUCTORS)
    CONSTRUCTORS
    ASSERT(. < 0xffffffff81000000, "text too big");
    __text_end = .;
  } >REGION_TEXT :text =0xcc,
  .rodata (READONLY_BASE) : { *(.rodata*) } > rom AT > rom : text
  .data : ONLY_IF_RW { *(.data) } >ram AT>rom :data
  .data.ro : ONLY_IF_RO { *(.data.ro) }
  .bss (NOLOAD) : { *(.bss) *(COMMON) } >ram
  .note 0x100 (TYPE = SHT_NOTE) : { *(.note*) } :note
  .info (INFO) : { *(.info) }
  .copy (COPY) : { *(.copy) }
  .ovl (OVERLAY) : { *(.ovl) }
  .ty (TYPE = 0x70000001) : { *(.ty) }
  .aligned : ALIGN_WITH_INPUT { *(.aligned) }
  OVERLAY 0x4000 : AT(0x8000)
  {
    .ov1 { *(.ov1) } :data
    .ov2 { INPUT_SECTION_FLAGS(SHF_ALLOC) *(.ov2) KEEP(*(.ov2.keep)) }
  }
  OVERLAY : { .ov3 { *(.ov3) } }
  PROVIDE(end = .);
  PROVIDE_HIDDEN(__hidden_end = .);
  _sym  *=  2;
  x1 /= 2; x2 += 1; x3 -= 1; x4 <<= 1; x5 >>= 1; x6 &= 1; x7 |= 1; x8 ^= 1;
  ASSERT(DEFINED(_start), "no _start")
  /DISCARD/ : { *(.comment) *(.eh_frame) }
}
VERSION { V1 { global: kmain; local: *; }; }
ASSERT(SIZEOF(.text) > 0, "empty text");
"#;

#[test]
fn kernel_script_top_level() {
    let s = ok(KERNEL);
    let c = &s.commands;
    assert!(
        matches!(&c[0], Command::OutputFormat { default, big: None, little: None, .. }
        if default == "elf64-x86-64")
    );
    assert!(matches!(&c[1], Command::OutputArch(a) if a == &["i386:x86-64"]));
    assert!(matches!(&c[2], Command::Entry(e, loc) if e == "_start" && loc.line == 4));
    assert!(matches!(&c[3], Command::Target(t) if t == "elf64-x86-64"));
    assert!(matches!(&c[4], Command::SearchDir(d, _) if d == "/opt/lib"));
    let Command::Input(files, _) = &c[5] else {
        panic!("{:?}", c[5])
    };
    assert_eq!(
        files,
        &[
            InputFile::File {
                path: "boot.o".into(),
                as_needed: false
            },
            InputFile::File {
                path: "quoted name.o".into(),
                as_needed: false
            },
            InputFile::Library {
                name: "foo".into(),
                as_needed: false
            },
            InputFile::Library {
                name: "bar".into(),
                as_needed: true
            },
            InputFile::File {
                path: "libbaz.so".into(),
                as_needed: true
            },
        ]
    );
    assert!(matches!(&c[6], Command::Group(f, _) if f.len() == 2));
    assert!(matches!(&c[7], Command::Extern(v) if v == &["isr_table", "_init"]));
    assert!(
        matches!(&c[8], Command::NoCrossRefs { sections, to: false, .. }
        if sections == &[".text", ".data"])
    );
    assert!(matches!(&c[9], Command::NoCrossRefs { to: true, .. }));
    assert!(matches!(&c[10], Command::Assignment(a)
        if a.name == "KERNEL_VMA" && a.expr == Expr::Number(0xffffffff80000000)
            && a.text == "KERNEL_VMA = 0xffffffff80000000" && a.loc.line == 12));
    assert!(matches!(&c[11], Command::Assignment(a)
        if a.name == "hidden_sym" && a.hidden && !a.provide && a.expr == Expr::Number(4096)));

    let Command::Memory(regions) = &c[12] else {
        panic!("{:?}", c[12])
    };
    assert_eq!(regions.len(), 3);
    assert_eq!(regions[0].name, "rom");
    // r: not writable; x: executable.
    assert_eq!(
        regions[0].attrs,
        MemoryAttrs {
            flags: 4,
            inv_flags: 1,
            neg_flags: 0,
            neg_inv_flags: 0
        }
    );
    assert_eq!(regions[0].origin, Expr::Number(0x0800_0000));
    assert_eq!(regions[0].length, Expr::Number(512 * 1024));
    assert_eq!(regions[0].loc.line, 17);
    // !rx: everything after `!` is negated.
    assert_eq!(
        regions[1].attrs,
        MemoryAttrs {
            flags: 0,
            inv_flags: 0,
            neg_flags: 4,
            neg_inv_flags: 1
        }
    );
    // wa!r
    assert_eq!(
        regions[2].attrs,
        MemoryAttrs {
            flags: 3,
            inv_flags: 0,
            neg_flags: 0,
            neg_inv_flags: 1
        }
    );
    let ccm = eval(&regions[2].origin, &cx()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ccm.value(), 0x2000_0000 + 128 * 1024);

    assert!(matches!(&c[13], Command::RegionAlias { alias, region, .. }
        if alias == "REGION_TEXT" && region == "rom"));

    let Command::Phdrs(phdrs) = &c[14] else {
        panic!("{:?}", c[14])
    };
    let summary: Vec<(&str, u32, bool, bool)> = phdrs
        .iter()
        .map(|p| (p.name.as_str(), p.phdr_type, p.filehdr, p.phdrs))
        .collect();
    assert_eq!(
        summary,
        [
            ("headers", 6, false, true),
            ("text", 1, true, true),
            ("data", 1, false, false),
            ("note", 4, false, false),
            ("tls", 7, false, false),
            ("stack", 0x6474_e551, false, false),
        ]
    );
    assert_eq!(phdrs[1].lma, Some(Expr::Number(0x100000)));
    assert_eq!(phdrs[1].flags, Some(Expr::Number(5)));
    assert_eq!(phdrs[2].flags, Some(Expr::Number(6)));

    let n = c.len();
    assert!(matches!(&c[n - 2], Command::Version { text, loc }
        if text == " V1 { global: kmain; local: *; }; " && loc.line == line_of("VERSION {")));
    assert!(matches!(&c[n - 1], Command::Assert(a)
        if a.message == "empty text" && matches!(a.cond, Expr::Binary(..))));
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

#[test]
fn kernel_script_sections() {
    let s = ok(KERNEL);
    let all = sections(&s);
    assert!(matches!(all[0], SectionsCommand::Assignment(a)
        if a.name == "." && a.expr == Expr::Number(1 << 20)));

    let boot = find(&s, ".boot");
    assert!(matches!(&boot.lma, Some(Expr::Addr(n, _)) if n == ".boot"));
    assert_eq!(boot.phdrs, ["text"]);
    let bi = inputs(boot);
    assert!(bi[0].keep && texts(&bi[0].patterns[0].sections) == [".multiboot"]);
    assert_eq!(bi[1].file.text, "*boot.o");
    assert_eq!(texts(&bi[1].patterns[0].sections), [".text", ".text.*"]);

    assert!(matches!(all[2], SectionsCommand::Assignment(a)
        if a.name == "." && a.op == AssignOp::Add));

    let text = find(&s, ".text");
    assert!(matches!(&text.addr, Some(Expr::Align(a, _)) if **a == Expr::Number(4096)));
    assert!(matches!(
        &text.lma,
        Some(Expr::Binary(super::expr::BinOp::Sub, ..))
    ));
    assert_eq!(text.align, Some(Expr::Number(16)));
    assert_eq!(text.subalign, Some(Expr::Number(8)));
    assert_eq!(text.region.as_deref(), Some("REGION_TEXT"));
    assert_eq!(text.lma_region, None);
    assert_eq!(text.phdrs, ["text"]);
    assert_eq!(text.fill, Some(Expr::Number(0xcc)));
    let ti = inputs(text);
    // *(EXCLUDE_FILE(*crt*.o boot.o) .text .text.*)
    assert_eq!(
        texts(&ti[0].patterns[0].exclude_files),
        ["*crt*.o", "boot.o"]
    );
    assert_eq!(texts(&ti[0].patterns[0].sections), [".text", ".text.*"]);
    // *(EXCLUDE_FILE(*skip.o) .text.cold)
    assert_eq!(texts(&ti[1].patterns[0].exclude_files), ["*skip.o"]);
    assert_eq!(ti[1].text, "*(EXCLUDE_FILE(*skip.o) .text.cold)");
    assert_eq!(ti[9].text, "crti.o");
    assert_eq!(inputs(find(&s, ".boot"))[0].text, "KEEP(*(.multiboot))");
    assert_eq!(ti[1].file.text, "*");
    assert_eq!(texts(&ti[1].patterns[0].sections), [".text.cold"]);
    // INPUT_SECTION_FLAGS(SHF_EXECINSTR & !SHF_WRITE)
    assert_eq!((ti[2].with_flags, ti[2].without_flags), (4, 1));
    assert!(!ti[2].keep);
    assert!(ti[3].keep);
    assert_eq!((ti[3].with_flags, ti[3].without_flags), (2, 0));
    // Two levels of sort.
    let p = &ti[4].patterns[0];
    assert_eq!(
        (p.sort_outer, p.sort_inner),
        (SortKind::Name, SortKind::Alignment)
    );
    // Several sorts in one list: each group keeps its own.
    let sorts: Vec<(SortKind, Vec<&str>)> = ti[5]
        .patterns
        .iter()
        .map(|p| (p.sort_outer, texts(&p.sections)))
        .collect();
    assert_eq!(
        sorts,
        [
            (SortKind::Alignment, vec![".a"]),
            (SortKind::None, vec![".b"]),
            (SortKind::Default, vec![".c"]),
        ]
    );
    assert_eq!(ti[6].file.text, "libc.a:memcpy.o");
    assert_eq!(ti[7].file.text, "*libc.a:");
    assert!(ti[8].file.quoted && ti[8].file.text == "quoted*.o");
    assert!(ti[8].patterns[0].sections[0].quoted);
    // A file name alone takes all its sections.
    assert_eq!(ti[9].file.text, "crti.o");
    assert_eq!(texts(&ti[9].patterns[0].sections), ["*"]);
    let data: Vec<(u8, &str)> = text
        .commands
        .iter()
        .filter_map(|c| match c {
            OutputSectionCommand::Data { size, text, .. } => Some((*size, text.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        data,
        [
            (1, "BYTE(1)"),
            (2, "SHORT(2)"),
            (4, "LONG(3)"),
            (8, "QUAD(4)"),
            (8, "SQUAD(-5)")
        ]
    );
    assert!(text
        .commands
        .iter()
        .any(|c| matches!(c, OutputSectionCommand::Fill(Expr::Number(0x9090_9090), _))));
    assert_eq!(
        text.commands
            .iter()
            .filter(|c| matches!(c, OutputSectionCommand::Constructors))
            .count(),
        2
    );
    assert!(text.commands.iter().any(|c| matches!(c,
        OutputSectionCommand::Assert(a) if a.message == "text too big")));
    // Lines: `.text` is declared on line 43 of the script, `__text_end` assigned on line 64.
    assert_eq!(text.loc.line, line_of(".text ALIGN(4K)"));
    assert!(text.commands.iter().any(|c| matches!(c,
        OutputSectionCommand::Assignment(a)
            if a.name == "__text_end" && a.loc.line == line_of("__text_end = .;"))));
    assert_eq!(ti[1].loc.line, line_of("*(EXCLUDE_FILE(*skip.o)"));

    let rodata = find(&s, ".rodata");
    assert!(matches!(&rodata.addr, Some(Expr::Symbol(n, _)) if n == "READONLY_BASE"));
    assert_eq!(rodata.region.as_deref(), Some("rom"));
    assert_eq!(rodata.lma_region.as_deref(), Some("rom"));
    assert_eq!(rodata.phdrs, ["text"]);

    let data = find(&s, ".data");
    assert_eq!(data.constraint, Some(Constraint::ReadWrite));
    assert_eq!(
        (data.region.as_deref(), data.lma_region.as_deref()),
        (Some("ram"), Some("rom"))
    );
    assert_eq!(data.phdrs, ["data"]);
    assert_eq!(find(&s, ".data.ro").constraint, Some(Constraint::ReadOnly));
    assert_eq!(find(&s, ".bss").section_type, Some(SectionType::NoLoad));
    let note = find(&s, ".note");
    assert_eq!(note.addr, Some(Expr::Number(0x100)));
    assert_eq!(note.section_type, Some(SectionType::Type(Expr::Number(7))));
    assert_eq!(find(&s, ".info").section_type, Some(SectionType::Info));
    assert_eq!(find(&s, ".copy").section_type, Some(SectionType::Copy));
    assert_eq!(find(&s, ".ovl").section_type, Some(SectionType::Overlay));
    assert_eq!(
        find(&s, ".ty").section_type,
        Some(SectionType::Type(Expr::Number(0x7000_0001)))
    );
    assert!(find(&s, ".aligned").align_with_input);

    let overlays: Vec<&Overlay> = all
        .iter()
        .filter_map(|c| match c {
            SectionsCommand::Overlay(o) => Some(o),
            _ => None,
        })
        .collect();
    assert_eq!(overlays.len(), 2);
    assert_eq!(overlays[0].addr, Some(Expr::Number(0x4000)));
    assert_eq!(overlays[0].lma, Some(Expr::Number(0x8000)));
    let ov: Vec<&str> = overlays[0]
        .sections
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    assert_eq!(ov, [".ov1", ".ov2"]);
    assert!(overlays[0].sections.iter().all(|o| o.in_overlay));
    assert_eq!(overlays[0].sections[0].phdrs, ["data"]);
    let ov2 = inputs(&overlays[0].sections[1]);
    assert_eq!(ov2[0].with_flags, 2);
    assert_eq!(ov2[0].text, "INPUT_SECTION_FLAGS(SHF_ALLOC) *(.ov2)");
    assert!(ov2[1].keep);
    assert_eq!(
        (overlays[1].addr.as_ref(), overlays[1].lma.as_ref()),
        (None, None)
    );

    let assigns: Vec<(&str, AssignOp, bool, bool)> = all
        .iter()
        .filter_map(|c| match c {
            SectionsCommand::Assignment(a) if a.name != "." => {
                Some((a.name.as_str(), a.op, a.provide, a.hidden))
            }
            _ => None,
        })
        .collect();
    use AssignOp::*;
    assert_eq!(
        assigns,
        [
            ("end", Set, true, false),
            ("__hidden_end", Set, true, true),
            ("_sym", Mul, false, false),
            ("x1", Div, false, false),
            ("x2", Add, false, false),
            ("x3", Sub, false, false),
            ("x4", Shl, false, false),
            ("x5", Shr, false, false),
            ("x6", And, false, false),
            ("x7", Or, false, false),
            ("x8", Xor, false, false),
        ]
    );
    assert!(all.iter().any(|c| matches!(c, SectionsCommand::Assert(a)
        if a.message == "no _start" && matches!(&a.cond, Expr::Defined { name, .. } if name == "_start"))));
    assert_eq!(
        output_sections(&s).last().map(|o| o.name.as_str()),
        Some("/DISCARD/")
    );
}

fn line_of(needle: &str) -> u32 {
    KERNEL
        .lines()
        .position(|l| l.contains(needle))
        .map_or(0, |i| i as u32 + 1)
}

#[test]
fn insert_after_and_before() {
    let s = ok("SECTIONS { .foo : { *(.foo) } } INSERT AFTER .data;\n\
                SECTIONS { .bar : { *(.bar) } } INSERT BEFORE .text");
    let ins: Vec<(bool, &str)> = s
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Sections(s) => s.insert.as_ref().map(|i| (i.after, i.section.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(ins, [(true, ".data"), (false, ".text")]);
}

#[test]
fn overwrite_sections() {
    let s = ok("OVERWRITE_SECTIONS { .text : { *(.text) } .data : { *(.data) } }");
    assert!(matches!(&s.commands[0], Command::OverwriteSections(v) if v.len() == 2));
}

#[test]
fn nocrossrefs_with_one_section_warns() {
    let s = ok("NOCROSSREFS(.a)\n");
    assert!(s.commands.is_empty());
    assert_eq!(
        s.warnings,
        ["t.lds:1: ignored with fewer than 2 output sections"]
    );
}

#[test]
fn defined_and_assignment_order() {
    let s = ok("a = 1; SECTIONS { b = DEFINED(a) ? 1 : 2; } c = 3;");
    let mut orders = Vec::new();
    for c in &s.commands {
        match c {
            Command::Assignment(a) => orders.push((a.name.clone(), a.order)),
            Command::Sections(sec) => {
                if let SectionsCommand::Assignment(a) = &sec.commands[0] {
                    let Expr::Ternary(cond, ..) = &a.expr else {
                        panic!("{:?}", a.expr)
                    };
                    let Expr::Defined { order, .. } = **cond else {
                        panic!("{cond:?}")
                    };
                    orders.push(("DEFINED".into(), order));
                    orders.push((a.name.clone(), a.order));
                }
            }
            _ => {}
        }
    }
    let o: Vec<u32> = orders.iter().map(|(_, o)| *o).collect();
    // a, then DEFINED (read before b's assignment is made), then b, then c.
    assert!(o.windows(2).all(|w| w[0] < w[1]), "{orders:?}");
}

// ---- expressions: precedence, numbers, functions, against ld.lld-22's values ----

/// Constant expressions with their values in C semantics (64-bit unsigned wrap-around).
const EXPRS: &[(&str, u64)] = &[
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("10 - 4 - 3", 3),
    ("100 / 10 / 5", 2),
    ("17 % 5 * 2", 4),
    ("1 << 4 + 1", 32),
    ("256 >> 2 >> 1", 32),
    ("1 + 2 < 4", 1),
    ("3 <= 2", 0),
    ("3 > 2 == 1", 1),
    ("2 >= 3 != 1", 1),
    ("6 & 3 == 3", 0),
    ("(6 & 3) == 2", 1),
    ("6 ^ 3 | 8", 13),
    ("1 | 2 ^ 3", 1),
    ("12 & 10 | 1", 9),
    ("1 && 0 || 1", 1),
    // One case per pair of adjacent precedence levels whose value changes if the two levels
    // were swapped or merged.
    ("1 < 1 << 1", 1),
    ("2 == 2 < 3", 0),
    ("2 & 2 == 2", 0),
    ("2 ^ 3 & 1", 3),
    ("0 && 0 | 1", 0),
    ("1 || 0 && 0", 1),
    ("0 ? 2 : 3 + 4", 7),
    ("2 * 3 % 4", 2),
    ("7 - 2 + 1", 6),
    ("0 || 0 && 1", 0),
    ("1 ? 2 : 3", 2),
    ("0 ? 2 : 1 ? 4 : 5", 4),
    ("1 + 1 ? 10 + 1 : 20", 11),
    ("-1", u64::MAX),
    ("~0 >> 60", 15),
    ("!0 + !5", 1),
    ("+5", 5),
    ("- - 3", 3),
    ("-(2 + 3)", 0u64.wrapping_sub(5)),
    ("a+b", 12),
    ("0x10 + 0X10 + 10h + 010", 16 + 16 + 16 + 10),
    ("4K + 1M + 2k + 1m", 4096 + (1 << 20) + 2048 + (1 << 20)),
    ("1Fh", 31),
    ("MAX(3, 5) + MIN(3, 5)", 8),
    ("LOG2CEIL(0) + LOG2CEIL(1) + LOG2CEIL(5)", 3),
    ("ALIGN(0x1001, 0x100)", 0x1100),
    ("ABSOLUTE(42)", 42),
    ("CONSTANT(MAXPAGESIZE)", 4096),
    ("CONSTANT (COMMONPAGESIZE)", 4096),
    ("SEGMENT_START(\"text-segment\", 0x400000)", 0x400000),
    ("1 << 65", 2),
    ("DEFINED(nosuch)", 0),
];

#[test]
fn expressions_evaluate_as_c_does() {
    let text: String = EXPRS
        .iter()
        .enumerate()
        .map(|(i, (e, _))| format!("x{i} = {e};\n"))
        .collect();
    let s = ok(&format!("a = 0; b = 0;\n{text}"));
    let got = assigned_values(&s);
    for (i, (e, want)) in EXPRS.iter().enumerate() {
        let name = format!("x{i}");
        let v = got.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        assert_eq!(v, Some(*want), "{e}");
    }
}

#[test]
fn expressions_with_layout() {
    let s = ok("MEMORY { rom : ORIGIN = 0x08000000, LENGTH = 512K ram : ORIGIN = 0x20000000, LENGTH = 128K }\n\
                y0 = ADDR(.text) + SIZEOF(.text);\n\
                y1 = LOADADDR(.text);\n\
                y2 = ALIGNOF(.text);\n\
                y3 = SIZEOF_HEADERS;\n\
                y4 = ALIGN(0x100) + .;\n\
                y5 = ORIGIN(ram) + LENGTH(rom);\n\
                y6 = DATA_SEGMENT_ALIGN(CONSTANT(MAXPAGESIZE), CONSTANT(COMMONPAGESIZE));\n\
                y7 = DATA_SEGMENT_RELRO_END(0, 24);\n\
                y8 = DATA_SEGMENT_END(.);\n\
                y9 = DEFINED(a) ? a : 0;\n\
                y10 = ASSERT(1, \"never\");\n\
                y11 = \"a\" * 2;\n");
    let got = assigned_values(&s);
    let want: Vec<(String, u64)> = [
        0x40_1020u64,
        0x40_1000,
        16,
        0x120,
        0x2000,
        0x2008_0000,
        0x1000,
        0x1000,
        0x1000,
        5,
        0x1000,
        10,
    ]
    .iter()
    .enumerate()
    .map(|(i, v)| (format!("y{i}"), *v))
    .collect();
    assert_eq!(got, want);
}

/// Links a tiny object with ld.lld-22 and `script`; returns stderr, and the values of `x*`
/// symbols when the link succeeded. `None` when ld.lld-22 or clang-22 cannot be run.
fn run_lld(script: &str) -> Option<(String, HashMap<String, u64>)> {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir: PathBuf = std::env::temp_dir().join(format!("weld-script-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let obj = dir.join("x.o");
    std::fs::write(dir.join("x.s"), ".globl _start\n_start: ret\n").ok()?;
    let cc = Process::new("clang-22")
        .args(["-c", "x.s", "-o", "x.o"])
        .current_dir(&dir)
        .status()
        .ok()?;
    if !cc.success() || !obj.exists() {
        return None;
    }
    std::fs::write(dir.join("t.lds"), script).ok()?;
    let out = Process::new("ld.lld-22")
        .args(["-T", "t.lds", "x.o", "-o", "out"])
        .current_dir(&dir)
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut values = HashMap::new();
    if out.status.success() {
        let nm = Process::new("llvm-nm-22")
            .arg("out")
            .current_dir(&dir)
            .output()
            .ok()?;
        for line in String::from_utf8_lossy(&nm.stdout).lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if let [v, _, name] = f[..] {
                if let Ok(v) = u64::from_str_radix(v, 16) {
                    values.insert(name.to_string(), v);
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Some((stderr, values))
}

#[test]
fn expressions_match_ld_lld() {
    // `a+b` needs symbols; the rest are constant.
    let text: String = EXPRS
        .iter()
        .enumerate()
        .filter(|(_, (e, _))| !e.contains("a+b"))
        .map(|(i, (e, _))| format!("x{i} = {e};\n"))
        .collect();
    let script = format!("SECTIONS {{ .text : {{ *(.text) }} }}\n{text}");
    assert!(script.contains("x0 = 1 + 2 * 3;"));
    // ld.lld-22 is part of the test environment: its absence is a failure, not a skip.
    let Some((stderr, values)) = run_lld(&script) else {
        panic!("ld.lld-22 or clang-22 cannot be run");
    };
    assert!(values.len() > 10, "lld failed: {stderr}");
    let ours = assigned_values(&ok(&format!("a = 0; b = 0;\n{script}")));
    for (name, v) in ours {
        if let Some(lld) = values.get(&name) {
            assert_eq!(v, *lld, "{name}");
        } else if name.starts_with('x') {
            panic!("ld.lld-22 did not define {name}: {stderr}");
        }
    }
}

// ---- scripts both parsers accept ----

/// A script in the syntax lld accepts, using most of the language (no GNU-only forms).
const ACCEPTED: &str = r#"MEMORY
{
  rom (rx)  : ORIGIN = 0x100000, LENGTH = 1M
  ram (!rx) : org = 0x200000, len = 1M
}
REGION_ALIAS("TEXT", rom);
PHDRS
{
  text PT_LOAD;
  data PT_LOAD FLAGS(6);
  stack PT_GNU_STACK;
}
ENTRY(_start)
OUTPUT_FORMAT("elf64-x86-64", "elf64-x86-64", "elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
EXTERN(_start)
SECTIONS
{
  .text : ALIGN(16) SUBALIGN(4)
  {
    KEEP(*(.text.boot))
    *(SORT_BY_NAME(SORT_BY_ALIGNMENT(.text.*)))
    *(EXCLUDE_FILE(nothing.o) .text)
    INPUT_SECTION_FLAGS(SHF_ALLOC & !SHF_WRITE) *(.rodata*)
    BYTE(1) SHORT(2) LONG(3) QUAD(4)
    FILL(0x90909090)
    . = ALIGN(8);
    PROVIDE(etext = .);
  } >TEXT :text =0xcc
  .data : { *(.data) x1 = . - ADDR(.data); } >ram AT>rom :data
  .bss (NOLOAD) : { *(.bss) *(COMMON) } >ram :data
  OVERLAY 0x180000 : AT(0x180000) { .ov1 { *(.ov1) } .ov2 { *(.ov2) } :data }
  .note (TYPE = SHT_NOTE) : { *(.note.*) } :data
  x2 = LOADADDR(.data) + SIZEOF(.text) + ALIGNOF(.text);
  x3 = DEFINED(etext) ? ORIGIN(ram) + LENGTH(ram) : 0;
  x4 = MAX(LOG2CEIL(100), MIN(3, 9)) + CONSTANT(MAXPAGESIZE) % 7;
  PROVIDE_HIDDEN(x5 = ABSOLUTE(.));
  HIDDEN(x6 = SEGMENT_START("text-segment", 0x1000));
  ASSERT(x4 > 0, "x4 is zero")
  /DISCARD/ : { *(.comment) *(.eh_frame) }
}
NOCROSSREFS(.text .data)
VERSION { V1 { global: _start; local: *; }; }
ASSERT(SIZEOF(.text) > 0, "empty text");
"#;

#[test]
fn lld_syntax_script_parses_here_and_in_ld_lld() {
    let s = ok(ACCEPTED);
    assert_eq!(output_sections(&s).len(), 5);
    assert_eq!(
        sections(&s)
            .iter()
            .filter(|c| matches!(c, SectionsCommand::Overlay(o) if o.sections.len() == 2))
            .count(),
        1
    );
    let Some((stderr, _)) = run_lld(ACCEPTED) else {
        panic!("ld.lld-22 or clang-22 cannot be run");
    };
    // lld may fail to lay this out (the regions are small), but it must not find a syntax
    // error: those come with a caret line, or are about the end of input.
    for bad in [">>>", "unexpected EOF", "unclosed", "expected", "unknown"] {
        assert!(
            !stderr.contains(bad),
            "ld.lld-22 rejected the syntax: {stderr}"
        );
    }
}

// ---- errors ----

/// Scripts with a syntax error, and lld's message (after `ld.lld-22: error: `).
const ERRORS: &[(&str, &str)] = &[
    ("FOO\n", "t.lds:1: unknown directive: FOO\n>>> FOO\n>>> ^"),
    (
        "SECTIONS {\n .text : { *(.text) }\n FOO\n}\n",
        "t.lds:4: malformed number: }\n>>> }\n>>> ^",
    ),
    ("SECTIONS { .text : { *(.text) }", "t.lds:1: unexpected EOF"),
    ("SECTIONS {\n .text : {\n *(.text)\n", "t.lds:3: unexpected EOF"),
    ("ENTRY(", "t.lds:1: unexpected EOF"),
    ("x=1;", "t.lds:1: unknown directive: x=1\n>>> x=1;\n>>> ^"),
    (
        "SECTIONS { .=ALIGN(8); .text : { *(.text) } }",
        "t.lds:1: : expected, but got ;\n>>> SECTIONS { .=ALIGN(8); .text : { *(.text) } }\n>>>                      ^",
    ),
    (
        "SECTIONS { x = 1 + ; }",
        "t.lds:1: malformed number: ;\n>>> SECTIONS { x = 1 + ; }\n>>>                    ^",
    ),
    (
        "SECTIONS\n{\n  .text : { *(.text) }\n  . = 1 + 2 +\n}\n",
        "t.lds:5: malformed number: }\n>>> }\n>>> ^",
    ),
    ("x = \"abc;\n", "t.lds:1: unclosed quote"),
    (
        "ENTRY(x) /* y",
        "t.lds:1: unclosed comment in a linker script\n>>> ENTRY(x) /* y\n>>>        ^",
    ),
    ("/* foo", "t.lds:1: unclosed comment in a linker script"),
    (
        "SECTIONS { .text : { *(.text } }",
        "t.lds:1: section pattern is expected\n>>> SECTIONS { .text : { *(.text } }\n>>>                              ^",
    ),
    (
        "MEMORY { ram (rwx!q) : ORIGIN = 0, LENGTH = 1 }",
        "t.lds:1: invalid memory region attribute\n>>> MEMORY { ram (rwx!q) : ORIGIN = 0, LENGTH = 1 }\n>>>               ^",
    ),
    (
        "x = ORIGIN(foo);",
        "t.lds:1: memory region not defined: foo\n>>> x = ORIGIN(foo);\n>>>               ^",
    ),
    (
        "x = CONSTANT(FOO);",
        "t.lds:1: unknown constant: FOO\n>>> x = CONSTANT(FOO);\n>>>                 ^",
    ),
    (
        "PHDRS { a PT_FOO; }",
        "t.lds:1: invalid program header type: PT_FOO\n>>> PHDRS { a PT_FOO; }\n>>>           ^",
    ),
    (
        "SECTIONS { .a (TYPE=SHT_FOO) : {} }",
        "t.lds:1: unknown section type SHT_FOO\n>>> SECTIONS { .a (TYPE=SHT_FOO) : {} }\n>>>                    ^",
    ),
    (
        "SECTIONS { .a 0x10 (BAR) : {} }",
        "t.lds:1: unknown section directive: BAR\n>>> SECTIONS { .a 0x10 (BAR) : {} }\n>>>                    ^",
    ),
    (
        "SECTIONS { .text : { *(.text) } =0x100000000 }",
        "t.lds:1: filler expression result does not fit 32-bit: 0x100000000\n>>> SECTIONS { .text : { *(.text) } =0x100000000 }\n>>>                                  ^",
    ),
    (
        "SECTIONS { .text : { *(.text) } } INSERT FOO .text",
        "t.lds:1: expected AFTER/BEFORE, but got 'FOO'\n>>> SECTIONS { .text : { *(.text) } } INSERT FOO .text\n>>>                                          ^",
    ),
    (
        "MEMORY { ram : ORIGIN=0, LENGTH=1K }",
        "t.lds:1: expected one of: ORIGIN, org, or o\n>>> MEMORY { ram : ORIGIN=0, LENGTH=1K }\n>>>              ^",
    ),
    (
        "x = 101b;",
        "t.lds:1: malformed number: 101b\n>>> x = 101b;\n>>>     ^",
    ),
    (
        "x = 1G;",
        "t.lds:1: malformed number: 1G\n>>> x = 1G;\n>>>     ^",
    ),
    (
        "SECTIONS { .text : { *(SORT(SORT(SORT(.text)))) } }",
        "t.lds:1: ) expected, but got SORT\n>>> SECTIONS { .text : { *(SORT(SORT(SORT(.text)))) } }\n>>>                                  ^",
    ),
    (
        "OUTPUT_FORMAT(elf64-foo)",
        "t.lds:1: unknown output format name: elf64-foo\n>>> OUTPUT_FORMAT(elf64-foo)\n>>>                        ^",
    ),
    (
        "TARGET(coff)",
        "t.lds:1: unknown target: coff\n>>> TARGET(coff)\n>>>            ^",
    ),
    (
        "REGION_ALIAS(a, b)",
        "t.lds:1: memory region 'b' is not defined\n>>> REGION_ALIAS(a, b)\n>>>                  ^",
    ),
    (
        "MEMORY { a : o = 0, l = 1\n a : o = 0, l = 1 }",
        "t.lds:2: region 'a' already defined\n>>>  a : o = 0, l = 1 }\n>>>                 ^",
    ),
    (
        "SECTIONS { .a : { INPUT_SECTION_FLAGS(SHF_FOO) *(.a) } }",
        "t.lds:1: unrecognised flag: SHF_FOO\n>>> SECTIONS { .a : { INPUT_SECTION_FLAGS(SHF_FOO) *(.a) } }\n>>>                                       ^",
    ),
    (
        "SECTIONS { .a : { INPUT_SECTION_FLAGS(SHF_ALLOC SHF_WRITE) *(.a) } }",
        "t.lds:1: expected & or )\n>>> SECTIONS { .a : { INPUT_SECTION_FLAGS(SHF_ALLOC SHF_WRITE) *(.a) } }\n>>>                                                 ^",
    ),
    (
        "SECTIONS { .a : { FILL 0x90 } }",
        "t.lds:1: ( expected, but got 0x90\n>>> SECTIONS { .a : { FILL 0x90 } }\n>>>                   ^",
    ),
    (
        "PROVIDE(x += 1);",
        "t.lds:1: = expected, but got +=\n>>> PROVIDE(x += 1);\n>>>           ^",
    ),
    (
        "INCLUDE foo.lds",
        "t.lds:1: cannot find linker script foo.lds\n>>> INCLUDE foo.lds\n>>>         ^",
    ),
    (
        "SECTIONS { .a : { ( } }",
        "t.lds:1: expected filename pattern\n>>> SECTIONS { .a : { ( } }\n>>>                   ^",
    ),
    (
        "PHDRS { text PT_LOAD FOO; }",
        "t.lds:1: unexpected header attribute: FOO\n>>> PHDRS { text PT_LOAD FOO; }\n>>>                      ^",
    ),
    (
        "x = 1 ? 2 3;",
        "t.lds:1: : expected, but got 3\n>>> x = 1 ? 2 3;\n>>>           ^",
    ),
    (
        "SECTIONS { .a : { *(EXCLUDE_FILE(a.o)) } }",
        "t.lds:1: section pattern is expected\n>>> SECTIONS { .a : { *(EXCLUDE_FILE(a.o)) } }\n>>>                                     ^",
    ),
    (
        "x = DATA_SEGMENT_END(1);",
        "t.lds:1: . expected, but got 1\n>>> x = DATA_SEGMENT_END(1);\n>>>                      ^",
    ),
    ("VERSION { V1 { global: foo;\n", "t.lds:1: unexpected EOF"),
    (
        "SECTIONS { .a : AT(0x10) { } AT>ram }",
        "section can't have both LMA and a load region",
    ),
    (
        "x = (1 + 2;",
        "t.lds:1: ) expected, but got ;\n>>> x = (1 + 2;\n>>>           ^",
    ),
];

#[test]
fn errors_are_lld_s() {
    for (script, want) in ERRORS {
        assert_eq!(&err(script), want, "script: {script:?}");
    }
}

#[test]
fn errors_where_lld_crashes_or_says_nothing() {
    // ld.lld-22 crashes on `==` where an assignment operator is expected.
    assert_eq!(
        err("x == 1;"),
        "t.lds:1: = expected, but got ==\n>>> x == 1;\n>>>   ^"
    );
    assert_eq!(
        err("SECTIONS { x == 1; }"),
        "t.lds:1: = expected, but got ==\n>>> SECTIONS { x == 1; }\n>>>              ^"
    );
    // ld.lld-22 loops forever on an input section list cut by the end of the file.
    assert_eq!(
        err("SECTIONS { .text : { *(.text"),
        "t.lds:1: unexpected EOF"
    );
    assert_eq!(
        err("SECTIONS { .text : { *(SORT(.text"),
        "t.lds:1: unexpected EOF"
    );
    // lld reads an empty name at the end of input; here it is the end of input.
    assert_eq!(
        err("SECTIONS { .a : { *(.a) } } INSERT AFTER"),
        "t.lds:1: unexpected EOF"
    );
}

#[test]
fn errors_match_ld_lld() {
    for (script, want) in ERRORS {
        let Some((stderr, _)) = run_lld(script) else {
            panic!("ld.lld-22 or clang-22 cannot be run");
        };
        let line = format!("error: {want}");
        assert!(
            stderr.contains(&line),
            "script {script:?}\nours: {want}\nlld:  {stderr}"
        );
    }
}

#[test]
fn evaluation_errors_name_the_line() {
    let s =
        ok("SECTIONS {\n . = 0x1000;\n}\nx = 1 +\n\n (2 / 0);\ny = ADDR(.nope);\nz = nosuch;\n");
    let errs: Vec<String> = s
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Assignment(a) => eval(&a.expr, &cx()).err().map(|e| e.0),
            _ => None,
        })
        .collect();
    assert_eq!(
        errs,
        [
            "t.lds:6: division by zero",
            "t.lds:7: undefined section .nope",
            "t.lds:8: symbol not found: nosuch",
        ]
    );
}

// ---- INCLUDE ----

#[test]
fn includes_are_spliced_where_they_stand() {
    let files: HashMap<&str, &str> = [
        ("top.lds", "ENTRY(start)\n"),
        ("mem.lds", "rom : ORIGIN = 0, LENGTH = 4K\n"),
        ("secs.lds", "\n.data : { *(.data) }\n"),
        ("body.lds", "*(.extra)\n"),
        ("loop.lds", "INCLUDE loop.lds\n"),
        ("self", "INCLUDE self"),
    ]
    .into();
    let mut find = |name: &str| -> Result<Option<Included>> {
        Ok(files.get(name).map(|t| Included {
            path: PathBuf::from(format!("inc/{name}")),
            text: t.to_string(),
        }))
    };
    let text = "INCLUDE top.lds\nMEMORY { INCLUDE mem.lds }\n\
                SECTIONS {\n .text : { *(.text) INCLUDE body.lds }\n INCLUDE secs.lds\n .bss : { *(.bss) }\n}\n";
    let s = parse_with_includes(text, Path::new("main.lds"), &mut find)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(&s.commands[0], Command::Entry(e, loc)
        if e == "start" && loc.to_string() == "inc/top.lds:1"));
    assert!(matches!(&s.commands[1], Command::Memory(r)
        if r[0].name == "rom" && r[0].loc.to_string() == "inc/mem.lds:1"));
    let names: Vec<String> = output_sections(&s)
        .iter()
        .map(|o| format!("{} {}", o.name, o.loc))
        .collect();
    assert_eq!(
        names,
        [
            ".text main.lds:4",
            ".data inc/secs.lds:2",
            ".bss main.lds:6"
        ]
    );
    assert_eq!(inputs(find_in(&s, ".text")).len(), 2);

    let e = parse_with_includes("INCLUDE loop.lds", Path::new("main.lds"), &mut find);
    assert_eq!(
        e.map_err(|e| e.0),
        Err("inc/loop.lds:1: there is a cycle in linker script INCLUDEs\n>>> INCLUDE loop.lds\n>>>         ^".to_string())
    );
    let e = parse_with_includes("INCLUDE self", Path::new("self"), &mut find);
    assert!(e.is_err_and(|e| e.0.contains("there is a cycle in linker script INCLUDEs")));
    let mut failing = |_: &str| -> Result<Option<Included>> {
        Err("cannot open x.lds: Permission denied".into())
    };
    let e = parse_with_includes("INCLUDE x.lds", Path::new("m.lds"), &mut failing);
    assert_eq!(
        e.map_err(|e| e.0),
        Err("cannot open x.lds: Permission denied".to_string())
    );
}

fn find_in<'a>(s: &'a Script, name: &str) -> &'a OutputSection {
    find(s, name)
}

// ---- robustness ----

#[test]
fn truncated_and_mutated_scripts_never_panic() {
    let mut corpus = vec![KERNEL.to_string()];
    if let Some(gnu) = gnu_default_script() {
        corpus.push(gnu);
    }
    corpus.extend(ERRORS.iter().map(|(s, _)| s.to_string()));
    for text in &corpus {
        // Every prefix (on character boundaries).
        for (i, _) in text.char_indices() {
            let _ = parse(&text[..i], Path::new("t.lds"));
        }
    }
    // Random byte mutations, from a fixed seed.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const ALPHABET: &[u8] = b"(){}[];:=,.*?!~-+<>&|^/\"#\n ax0K";
    for round in 0..3000 {
        let base = corpus[round % corpus.len()].as_bytes();
        let mut bytes = base.to_vec();
        for _ in 0..(1 + rand() % 8) {
            if bytes.is_empty() {
                break;
            }
            let at = (rand() as usize) % bytes.len();
            let c = ALPHABET[(rand() as usize) % ALPHABET.len()];
            match rand() % 3 {
                0 => bytes[at] = c,
                1 => bytes.insert(at, c),
                _ => {
                    bytes.remove(at);
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse(&text, Path::new("t.lds"));
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for open in ["(", "-", "~", "!", "+"] {
        let text = format!("x = {}1;", open.repeat(100_000));
        let e = err(&text);
        assert!(e.contains("expression nested too deeply"), "{open}: {e}");
    }
    let text = format!("x = 1{};", " + (1".repeat(100_000));
    assert!(err(&text).contains("expression nested too deeply"));
    let text = format!("x = {}1;", "1 ? ".repeat(100_000));
    assert!(err(&text).contains("expression nested too deeply"));
    // Ordinary nesting is fine.
    ok(&format!("x = {}1{};", "(".repeat(50), ")".repeat(50)));
}

/// lld reads GNU ld's `EXCLUDE_FILE(files) file(rules)` as two descriptions: files named
/// `EXCLUDE_FILE` with the rules `(files)`, then `file(rules)`, which excludes nothing.
#[test]
fn exclude_file_before_the_file_is_a_file_pattern() {
    let s = ok("SECTIONS { .ta : { EXCLUDE_FILE(*b.o) *(.text.*) } .tb : { EXCLUDE_FILE(*c.o) } }");
    let ta = inputs(find(&s, ".ta"));
    assert_eq!(ta.len(), 2);
    assert_eq!(ta[0].file.text, "EXCLUDE_FILE");
    assert_eq!(texts(&ta[0].patterns[0].sections), ["*b.o"]);
    assert_eq!(ta[1].file.text, "*");
    assert!(ta[1].exclude_files.is_empty() && ta[1].patterns[0].exclude_files.is_empty());
    assert_eq!(inputs(find(&s, ".tb"))[0].file.text, "EXCLUDE_FILE");
}
