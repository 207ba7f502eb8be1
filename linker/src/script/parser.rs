//! The recursive descent parser: lld's `ScriptParser` grammar, building [`ast`] values instead
//! of configuring the link, with lld's diagnostics (`FILE:LINE: message`, then the line and a
//! caret under the last token read). Only the first error is reported, as lld reports only the
//! first syntax error.
//!
//! Whatever the input, parsing ends: every loop consumes a token or stops at the end of input,
//! expressions nest at most [`MAX_DEPTH`] deep, and nothing indexes past a token's end.
//!
//! [`ast`]: super::ast

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::ast::*;
use super::expr::{eval_constant, parse_number, BinOp, Constant, UnOp};
use super::lexer::{LexState, Lexer, Token};
use crate::error::{Error, Result};

/// How deep expressions may nest (parentheses, unary operators, operator precedence levels).
pub const MAX_DEPTH: u32 = 200;

/// A script `INCLUDE` names, as the caller found it.
#[derive(Clone, Debug)]
pub struct Included {
    /// The path messages name the file by.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// Parses a linker script. `INCLUDE` fails with lld's `cannot find linker script NAME`; use
/// [`parse_with_includes`] to let the caller find included files.
pub fn parse(text: &str, path: &Path) -> Result<Script> {
    parse_with_includes(text, path, &mut |_| Ok(None))
}

/// Parses a linker script, asking `include` for each `INCLUDE NAME`: it returns the file's
/// path (for messages) and text, `None` if there is no such script (lld's `cannot find linker
/// script NAME`), or an error to report as it is. The included text is spliced where the
/// `INCLUDE` stands, in any context lld allows one (top level, `SECTIONS`, an output section,
/// `MEMORY`).
pub fn parse_with_includes(
    text: &str,
    path: &Path,
    include: &mut dyn FnMut(&str) -> Result<Option<Included>>,
) -> Result<Script> {
    let mut p = Parser {
        lx: Lexer::new(text, path),
        include,
        regions: HashSet::new(),
        order: 1,
        depth: 0,
        script: Script::default(),
    };
    p.read_script()?;
    if let Some(e) = p.lx.take_pending() {
        return Err(e);
    }
    Ok(p.script)
}

struct Parser<'a> {
    lx: Lexer,
    include: &'a mut dyn FnMut(&str) -> Result<Option<Included>>,
    /// Memory regions defined so far: `ORIGIN`/`LENGTH`/`REGION_ALIAS` must name one (lld
    /// checks at parse time).
    regions: HashSet<String>,
    /// lld's `scriptSymOrderCounter`.
    order: u32,
    depth: u32,
    script: Script,
}

fn unquote(s: &str) -> &str {
    match s.strip_prefix('"') {
        Some(rest) => rest.strip_suffix('"').unwrap_or(rest),
        None => s,
    }
}

fn pattern(tok: &str) -> Pattern {
    Pattern {
        text: unquote(tok).to_string(),
        quoted: tok.starts_with('"'),
    }
}

/// lld's `isValidSymbolName`.
fn is_valid_symbol_name(s: &str) -> bool {
    let valid = |c: char| c.is_ascii_alphanumeric() || matches!(c, '$' | '.' | '_');
    !s.is_empty() && !s.starts_with(|c: char| c.is_ascii_digit()) && s.chars().all(valid)
}

/// Replaces runs of blanks with one space, as lld shows commands in `-Map`.
fn squeeze_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            if !prev_space {
                out.push(' ');
            }
            prev_space = true;
        } else {
            out.push(c);
            prev_space = false;
        }
    }
    out
}

/// `SHF_*` names `INPUT_SECTION_FLAGS` accepts (lld's list), or a number.
fn parse_flag(tok: &str) -> Option<u64> {
    if let Some(n) = parse_number(tok) {
        return Some(n);
    }
    Some(match tok {
        "SHF_WRITE" => 0x1,
        "SHF_ALLOC" => 0x2,
        "SHF_EXECINSTR" => 0x4,
        "SHF_MERGE" => 0x10,
        "SHF_STRINGS" => 0x20,
        "SHF_INFO_LINK" => 0x40,
        "SHF_LINK_ORDER" => 0x80,
        "SHF_OS_NONCONFORMING" => 0x100,
        "SHF_GROUP" => 0x200,
        "SHF_TLS" => 0x400,
        "SHF_COMPRESSED" => 0x800,
        "SHF_EXCLUDE" => 0x8000_0000,
        "SHF_ARM_PURECODE" => 0x2000_0000,
        _ => return None,
    })
}

/// `PT_*` names `PHDRS` accepts (lld's list).
fn phdr_type(tok: &str) -> Option<u32> {
    Some(match tok {
        "PT_NULL" => 0,
        "PT_LOAD" => 1,
        "PT_DYNAMIC" => 2,
        "PT_INTERP" => 3,
        "PT_NOTE" => 4,
        "PT_SHLIB" => 5,
        "PT_PHDR" => 6,
        "PT_TLS" => 7,
        "PT_GNU_EH_FRAME" => 0x6474_e550,
        "PT_GNU_STACK" => 0x6474_e551,
        "PT_GNU_RELRO" => 0x6474_e552,
        "PT_OPENBSD_MUTABLE" => 0x65a3_dbe5,
        "PT_OPENBSD_RANDOMIZE" => 0x65a3_dbe6,
        "PT_OPENBSD_WXNEEDED" => 0x65a3_dbe7,
        "PT_OPENBSD_SYSCALLS" => 0x65a3_dbe9,
        "PT_OPENBSD_BOOTDATA" => 0x65a4_1be6,
        _ => return None,
    })
}

/// `TYPE = SHT_*` names lld accepts.
fn section_type(tok: &str) -> Option<u64> {
    Some(match tok {
        "SHT_PROGBITS" => 1,
        "SHT_NOTE" => 7,
        "SHT_NOBITS" => 8,
        "SHT_INIT_ARRAY" => 14,
        "SHT_FINI_ARRAY" => 15,
        "SHT_PREINIT_ARRAY" => 16,
        _ => return None,
    })
}

/// BFD names lld knows for `OUTPUT_FORMAT` (after a `-freebsd` suffix is dropped).
const BFD_NAMES: &[&str] = &[
    "elf32-i386",
    "elf32-avr",
    "elf32-iamcu",
    "elf32-littlearm",
    "elf32-bigarm",
    "elf32-x86-64",
    "elf64-aarch64",
    "elf64-littleaarch64",
    "elf64-bigaarch64",
    "elf32-powerpc",
    "elf32-powerpcle",
    "elf64-powerpc",
    "elf64-powerpcle",
    "elf64-x86-64",
    "elf32-tradbigmips",
    "elf32-bigmips",
    "elf32-ntradbigmips",
    "elf32-tradlittlemips",
    "elf32-ntradlittlemips",
    "elf64-tradbigmips",
    "elf64-tradlittlemips",
    "elf32-littleriscv",
    "elf64-littleriscv",
    "elf64-sparc",
    "elf32-msp430",
    "elf32-loongarch",
    "elf64-loongarch",
    "elf64-s390",
    "elf32-hexagon",
    "elf32-littlehexagon",
];

impl Parser<'_> {
    // ---- tokens ----

    /// An error at the last token read; a pending lexer error (unclosed comment or quote)
    /// came first and wins.
    fn fail(&mut self, msg: &str) -> Error {
        match self.lx.take_pending() {
            Some(e) => e,
            None => self.lx.error(msg),
        }
    }

    fn peek(&mut self) -> String {
        self.lx.peek().text
    }

    fn next(&mut self) -> String {
        self.lx.next_token().text
    }

    fn consume(&mut self, tok: &str) -> bool {
        self.lx.consume(tok)
    }

    /// lld's `expect`.
    fn expect(&mut self, want: &str) -> Result<()> {
        let tok = self.lx.next_token();
        if tok.text == want {
            return Ok(());
        }
        if tok.is_eof() {
            return Err(self.fail("unexpected EOF"));
        }
        Err(self.fail(&format!("{want} expected, but got {}", tok.text)))
    }

    /// lld's `till`: the next token, or `None` once `end` is read; the end of input is an
    /// error.
    fn till(&mut self, end: &str) -> Result<Option<String>> {
        let tok = self.lx.next_token();
        if tok.text == end {
            return Ok(None);
        }
        if !tok.is_eof() {
            return Ok(Some(tok.text));
        }
        self.lx.clear_prev();
        Err(self.fail("unexpected EOF"))
    }

    /// A name, unquoted; the end of input is an error (lld would read an empty name).
    fn read_name(&mut self) -> Result<String> {
        let tok = self.lx.next_token();
        if tok.is_eof() {
            return Err(self.fail("unexpected EOF"));
        }
        Ok(unquote(&tok.text).to_string())
    }

    fn with_state<T>(&mut self, state: LexState, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.lx.state, state);
        let r = f(self);
        self.lx.state = saved;
        r
    }

    fn next_order(&mut self) -> u32 {
        let o = self.order;
        self.order = self.order.saturating_add(1);
        o
    }

    // ---- top level ----

    fn read_script(&mut self) -> Result<()> {
        loop {
            let tok = self.lx.next_token();
            if tok.is_eof() {
                return Ok(());
            }
            let t = tok.text.as_str();
            let cmd = match t {
                ";" => continue,
                "ENTRY" => {
                    self.expect("(")?;
                    let name = self.read_name()?;
                    let loc = self.lx.loc();
                    self.expect(")")?;
                    Command::Entry(name, loc)
                }
                "EXTERN" => {
                    self.expect("(")?;
                    Command::Extern(self.read_names_till_paren()?)
                }
                "GROUP" | "INPUT" => {
                    let loc = self.lx.loc();
                    let files = self.read_input_files()?;
                    if t == "GROUP" {
                        Command::Group(files, loc)
                    } else {
                        Command::Input(files, loc)
                    }
                }
                "INCLUDE" => {
                    self.read_include()?;
                    continue;
                }
                "MEMORY" => Command::Memory(self.read_memory()?),
                "OUTPUT" => {
                    self.expect("(")?;
                    let name = self.read_name()?;
                    self.expect(")")?;
                    Command::Output(name)
                }
                "OUTPUT_ARCH" => {
                    self.expect("(")?;
                    Command::OutputArch(self.read_names_till_paren()?)
                }
                "OUTPUT_FORMAT" => self.read_output_format()?,
                "OVERWRITE_SECTIONS" => {
                    self.expect("{")?;
                    let mut v = Vec::new();
                    while let Some(tok) = self.till("}")? {
                        v.push(self.read_output_section(&tok, false)?);
                    }
                    Command::OverwriteSections(v)
                }
                "PHDRS" => Command::Phdrs(self.read_phdrs()?),
                "REGION_ALIAS" => self.read_region_alias()?,
                "SEARCH_DIR" => {
                    self.expect("(")?;
                    let name = self.read_name()?;
                    let loc = self.lx.loc();
                    self.expect(")")?;
                    Command::SearchDir(name, loc)
                }
                "SECTIONS" => Command::Sections(self.read_sections()?),
                "TARGET" => {
                    self.expect("(")?;
                    let name = self.read_name()?;
                    self.expect(")")?;
                    if !name.starts_with("elf") && name != "binary" {
                        return Err(self.fail(&format!("unknown target: {name}")));
                    }
                    Command::Target(name)
                }
                "VERSION" => self.read_version()?,
                "NOCROSSREFS" | "NOCROSSREFS_TO" => {
                    self.expect("(")?;
                    let mut sections = Vec::new();
                    while let Some(tok) = self.till(")")? {
                        sections.push(unquote(&tok).to_string());
                    }
                    let loc = self.lx.loc();
                    if sections.len() < 2 {
                        self.script
                            .warnings
                            .push(format!("{loc}: ignored with fewer than 2 output sections"));
                        continue;
                    }
                    Command::NoCrossRefs {
                        sections,
                        to: t == "NOCROSSREFS_TO",
                        loc,
                    }
                }
                _ => match self.read_assignment(&tok)? {
                    Some(Stmt::Assign(a)) => Command::Assignment(a),
                    Some(Stmt::Assert(a)) => Command::Assert(a),
                    None => return Err(self.fail(&format!("unknown directive: {t}"))),
                },
            };
            self.script.commands.push(cmd);
        }
    }

    /// Names up to `)`, unquoted; commas between them are skipped (GNU ld allows them).
    fn read_names_till_paren(&mut self) -> Result<Vec<String>> {
        let mut v = Vec::new();
        while let Some(tok) = self.till(")")? {
            if tok != "," {
                v.push(unquote(&tok).to_string());
            }
        }
        Ok(v)
    }

    /// `INPUT(...)` / `GROUP(...)` after the keyword.
    fn read_input_files(&mut self) -> Result<Vec<InputFile>> {
        self.expect("(")?;
        let mut files = Vec::new();
        while let Some(tok) = self.till(")")? {
            if tok == "AS_NEEDED" {
                self.expect("(")?;
                while let Some(tok) = self.till(")")? {
                    push_input_file(&mut files, &tok, true);
                }
            } else {
                push_input_file(&mut files, &tok, false);
            }
        }
        Ok(files)
    }

    fn read_include(&mut self) -> Result<()> {
        let name = self.read_name()?;
        if self.lx.is_active(&name) {
            return Err(self.fail("there is a cycle in linker script INCLUDEs"));
        }
        match (self.include)(&name)? {
            Some(inc) => self.lx.push_include(&name, &inc.path, inc.text),
            None => Err(self.fail(&format!("cannot find linker script {name}"))),
        }
    }

    fn read_output_format(&mut self) -> Result<Command> {
        self.expect("(")?;
        let loc = self.lx.loc();
        let default = self.read_name()?;
        let (mut big, mut little) = (None, None);
        if !self.consume(")") {
            self.expect(",")?;
            big = Some(self.read_name()?);
            self.expect(",")?;
            little = Some(self.read_name()?);
            self.consume(")");
        }
        let known = |s: &str| {
            let s = s.strip_suffix("-freebsd").unwrap_or(s);
            s == "binary" || BFD_NAMES.contains(&s)
        };
        // lld checks the name it will use; without -EB/-EL that is the default.
        if !known(&default) {
            return Err(self.fail(&format!("unknown output format name: {default}")));
        }
        Ok(Command::OutputFormat {
            default,
            big,
            little,
            loc,
        })
    }

    fn read_region_alias(&mut self) -> Result<Command> {
        self.expect("(")?;
        let alias = self.read_name()?;
        self.expect(",")?;
        let region = self.read_name()?;
        self.expect(")")?;
        let loc = self.lx.loc();
        if self.regions.contains(&alias) {
            return Err(self.fail(&format!("redefinition of memory region '{alias}'")));
        }
        if !self.regions.contains(&region) {
            return Err(self.fail(&format!("memory region '{region}' is not defined")));
        }
        self.regions.insert(alias.clone());
        Ok(Command::RegionAlias { alias, region, loc })
    }

    /// `VERSION { ... }`: the text between the braces, kept for the version script parser.
    fn read_version(&mut self) -> Result<Command> {
        self.expect("{")?;
        let loc = self.lx.loc();
        let start = self.lx.after_prev();
        let mut depth = 0u32;
        loop {
            let tok: Token = self.lx.peek();
            if tok.is_eof() {
                self.lx.next_token();
                return Err(self.fail("unexpected EOF"));
            }
            match tok.text.as_str() {
                "{" => depth += 1,
                "}" if depth == 0 => {
                    let text = start
                        .as_ref()
                        .map_or_else(String::new, |s| self.lx.text_between(s, &tok));
                    self.lx.next_token();
                    return Ok(Command::Version { text, loc });
                }
                "}" => depth -= 1,
                _ => {}
            }
            self.lx.next_token();
        }
    }

    // ---- MEMORY and PHDRS ----

    fn read_memory(&mut self) -> Result<Vec<MemoryRegion>> {
        self.expect("{")?;
        let mut v = Vec::new();
        while let Some(name) = self.till("}")? {
            if name == "INCLUDE" {
                self.read_include()?;
                continue;
            }
            let loc = self.lx.loc();
            let mut attrs = MemoryAttrs::default();
            if self.consume("(") {
                attrs = self.read_memory_attributes()?;
                self.expect(")")?;
            }
            self.expect(":")?;
            let origin = self.read_memory_assignment(["ORIGIN", "org", "o"])?;
            self.expect(",")?;
            let length = self.read_memory_assignment(["LENGTH", "len", "l"])?;
            if !self.regions.insert(name.clone()) {
                return Err(self.fail(&format!("region '{name}' already defined")));
            }
            v.push(MemoryRegion {
                name,
                attrs,
                origin,
                length,
                loc,
            });
        }
        Ok(v)
    }

    /// lld's `readMemoryAttributes`: `!` swaps which set the following letters go to.
    fn read_memory_attributes(&mut self) -> Result<MemoryAttrs> {
        const SHF_WRITE: u32 = 1;
        const SHF_ALLOC: u32 = 2;
        const SHF_EXECINSTR: u32 = 4;
        let tok = self.next();
        let (mut flags, mut inv, mut neg, mut neg_inv) = (0u32, 0u32, 0u32, 0u32);
        let mut invert = false;
        for c in tok.to_ascii_lowercase().chars() {
            match c {
                '!' => {
                    invert = !invert;
                    std::mem::swap(&mut flags, &mut neg);
                    std::mem::swap(&mut inv, &mut neg_inv);
                }
                'w' => flags |= SHF_WRITE,
                'x' => flags |= SHF_EXECINSTR,
                'a' => flags |= SHF_ALLOC,
                'r' => inv |= SHF_WRITE,
                _ => return Err(self.fail("invalid memory region attribute")),
            }
        }
        if invert {
            std::mem::swap(&mut flags, &mut neg);
            std::mem::swap(&mut inv, &mut neg_inv);
        }
        Ok(MemoryAttrs {
            flags,
            inv_flags: inv,
            neg_flags: neg,
            neg_inv_flags: neg_inv,
        })
    }

    fn read_memory_assignment(&mut self, names: [&str; 3]) -> Result<Expr> {
        if !names.iter().any(|n| self.consume(n)) {
            return Err(self.fail(&format!(
                "expected one of: {}, {}, or {}",
                names[0], names[1], names[2]
            )));
        }
        self.expect("=")?;
        self.read_expr()
    }

    fn read_phdrs(&mut self) -> Result<Vec<Phdr>> {
        self.expect("{")?;
        let mut v = Vec::new();
        while let Some(name) = self.till("}")? {
            let loc = self.lx.loc();
            let tok = self.next();
            let phdr_type = match parse_number(&tok) {
                Some(n) => n as u32,
                None => match phdr_type(&tok) {
                    Some(t) => t,
                    None => return Err(self.fail(&format!("invalid program header type: {tok}"))),
                },
            };
            let mut phdr = Phdr {
                name,
                phdr_type,
                filehdr: false,
                phdrs: false,
                lma: None,
                flags: None,
                loc,
            };
            while !self.consume(";") {
                if self.consume("FILEHDR") {
                    phdr.filehdr = true;
                } else if self.consume("PHDRS") {
                    phdr.phdrs = true;
                } else if self.consume("AT") {
                    phdr.lma = Some(self.read_paren_expr()?);
                } else if self.consume("FLAGS") {
                    phdr.flags = Some(self.read_paren_expr()?);
                } else {
                    let tok = self.next();
                    return Err(self.fail(&format!("unexpected header attribute: {tok}")));
                }
            }
            v.push(phdr);
        }
        Ok(v)
    }

    // ---- SECTIONS ----

    fn read_sections(&mut self) -> Result<Sections> {
        let loc = self.lx.loc();
        self.expect("{")?;
        let mut commands = Vec::new();
        while let Some(tok) = self.till("}")? {
            match tok.as_str() {
                "OVERLAY" => commands.push(SectionsCommand::Overlay(self.read_overlay()?)),
                "INCLUDE" => self.read_include()?,
                _ => {
                    let tok = self.lx_prev_token(tok);
                    match self.read_assignment(&tok)? {
                        Some(Stmt::Assign(a)) => commands.push(SectionsCommand::Assignment(a)),
                        Some(Stmt::Assert(a)) => commands.push(SectionsCommand::Assert(a)),
                        None => commands.push(SectionsCommand::Output(Box::new(
                            self.read_output_section(&tok.text, false)?,
                        ))),
                    }
                }
            }
        }
        let mut insert = None;
        if self.consume("INSERT") {
            let after = if self.consume("AFTER") {
                true
            } else if self.consume("BEFORE") {
                false
            } else {
                let got = self.next();
                return Err(self.fail(&format!("expected AFTER/BEFORE, but got '{got}'")));
            };
            let section = self.read_name()?;
            insert = Some(Insert {
                after,
                section,
                loc: self.lx.loc(),
            });
        }
        Ok(Sections {
            commands,
            insert,
            loc,
        })
    }

    /// The token just read by `till`, with its position (for an assignment's text).
    fn lx_prev_token(&self, text: String) -> Token {
        let mut t = self.lx.last().unwrap_or_else(Token::dummy);
        t.text = text;
        t
    }

    fn read_overlay(&mut self) -> Result<Overlay> {
        let loc = self.lx.loc();
        let addr = if self.consume(":") {
            None
        } else {
            let e = self.read_expr()?;
            self.expect(":")?;
            Some(e)
        };
        let lma = if self.consume("AT") {
            Some(self.read_paren_expr()?)
        } else {
            None
        };
        self.expect("{")?;
        let mut sections = Vec::new();
        while !self.consume("}") {
            let name = self.read_name()?;
            let loc = self.lx.loc();
            self.expect("{")?;
            let mut commands = Vec::new();
            while let Some(text) = self.till("}")? {
                let tok = self.lx_prev_token(text);
                let desc = self.read_input_section_desc(&tok)?;
                commands.push(OutputSectionCommand::Input(desc));
            }
            let phdrs = self.read_phdr_list()?;
            sections.push(OutputSection {
                commands,
                phdrs,
                ..OutputSection::named(name, true, loc)
            });
        }
        Ok(Overlay {
            addr,
            lma,
            sections,
            loc,
        })
    }

    /// `(NOLOAD)`, `(COPY)`, `(INFO)`, `(OVERLAY)`, `(TYPE = ...)` after the `(`; `None` if
    /// `tok` is none of them.
    fn read_section_directive(&mut self, tok: &str) -> Result<Option<SectionType>> {
        let t = match tok {
            "NOLOAD" => {
                self.next();
                SectionType::NoLoad
            }
            "COPY" | "INFO" | "OVERLAY" => {
                self.next();
                match tok {
                    "COPY" => SectionType::Copy,
                    "INFO" => SectionType::Info,
                    _ => SectionType::Overlay,
                }
            }
            "TYPE" => {
                self.next();
                self.expect("=")?;
                let value = self.peek();
                if let Some(n) = section_type(&value) {
                    self.next();
                    SectionType::Type(Expr::Number(n))
                } else if value.starts_with("SHT_") {
                    return Err(self.fail(&format!("unknown section type {value}")));
                } else {
                    SectionType::Type(self.read_expr()?)
                }
            }
            _ => return Ok(None),
        };
        self.expect(")")?;
        Ok(Some(t))
    }

    fn read_output_section(&mut self, name: &str, in_overlay: bool) -> Result<OutputSection> {
        let loc = self.lx.loc();
        let mut os = OutputSection::named(unquote(name).to_string(), in_overlay, loc);
        if self.peek() != ":" {
            self.read_section_address_type(&mut os)?;
        }
        self.expect(":")?;
        if self.consume("AT") {
            os.lma = Some(self.read_paren_expr()?);
        }
        if self.consume("ALIGN") {
            os.align = Some(self.read_paren_expr()?);
        }
        if self.consume("ALIGN_WITH_INPUT") {
            os.align_with_input = true;
        }
        if self.consume("SUBALIGN") {
            os.subalign = Some(self.read_paren_expr()?);
        }
        if self.consume("ONLY_IF_RO") {
            os.constraint = Some(Constraint::ReadOnly);
        }
        if self.consume("ONLY_IF_RW") {
            os.constraint = Some(Constraint::ReadWrite);
        }
        self.expect("{")?;
        while let Some(text) = self.till("}")? {
            let tok = self.lx_prev_token(text);
            let t = tok.text.as_str();
            if t == ";" {
                continue;
            }
            if let Some(s) = self.read_assignment(&tok)? {
                os.commands.push(match s {
                    Stmt::Assign(a) => OutputSectionCommand::Assignment(a),
                    Stmt::Assert(a) => OutputSectionCommand::Assert(a),
                });
                continue;
            }
            let size = match t {
                "BYTE" => 1,
                "SHORT" => 2,
                "LONG" => 4,
                "QUAD" | "SQUAD" => 8,
                _ => 0,
            };
            if size != 0 {
                let loc = self.lx.loc();
                let expr = self.read_paren_expr()?;
                let text = self
                    .lx
                    .after_prev()
                    .map_or_else(String::new, |end| self.lx.text_between(&tok, &end));
                os.commands.push(OutputSectionCommand::Data {
                    size,
                    expr,
                    text: squeeze_spaces(&text),
                    loc,
                });
                continue;
            }
            match t {
                "CONSTRUCTORS" => os.commands.push(OutputSectionCommand::Constructors),
                "FILL" => {
                    let p = self.peek();
                    if p != "(" {
                        return Err(self.fail(&format!("( expected, but got {p}")));
                    }
                    let loc = self.lx.loc();
                    let e = self.read_fill()?;
                    os.commands.push(OutputSectionCommand::Fill(e.clone(), loc));
                    os.fill = Some(e);
                }
                "SORT" => {
                    self.expect("(")?;
                    self.expect("CONSTRUCTORS")?;
                    self.expect(")")?;
                    os.commands.push(OutputSectionCommand::Constructors);
                }
                "INCLUDE" => self.read_include()?,
                "(" | ")" => return Err(self.fail("expected filename pattern")),
                _ => {
                    if self.peek() == "(" {
                        let d = self.read_input_section_desc(&tok)?;
                        os.commands.push(OutputSectionCommand::Input(d));
                    } else {
                        // A file name alone takes all its sections.
                        os.commands
                            .push(OutputSectionCommand::Input(InputSectionDesc {
                                file: pattern(t),
                                exclude_files: Vec::new(),
                                patterns: vec![SectionPattern {
                                    exclude_files: Vec::new(),
                                    sections: vec![Pattern {
                                        text: "*".into(),
                                        quoted: false,
                                    }],
                                    sort_outer: SortKind::Default,
                                    sort_inner: SortKind::Default,
                                }],
                                keep: false,
                                with_flags: 0,
                                without_flags: 0,
                                text: t.to_string(),
                                loc: self.lx.loc(),
                            }));
                    }
                }
            }
        }
        if self.consume(">") {
            os.region = Some(self.read_name()?);
        }
        if self.consume("AT") {
            self.expect(">")?;
            os.lma_region = Some(self.read_name()?);
        }
        if os.lma.is_some() && os.lma_region.is_some() {
            // lld reports this one without a location.
            return Err(Error(
                "section can't have both LMA and a load region".to_string(),
            ));
        }
        os.phdrs = self.read_phdr_list()?;
        let p = self.peek();
        if p.starts_with('=') {
            let fill = self.with_state(LexState::Expr, |p| {
                p.consume("=");
                p.read_fill()
            })?;
            os.fill = Some(fill);
        }
        self.consume(",");
        Ok(os)
    }

    /// `:phdr` names after an output section.
    fn read_phdr_list(&mut self) -> Result<Vec<String>> {
        let mut v = Vec::new();
        while self.peek().starts_with(':') {
            let tok = self.next();
            if tok == ":" {
                v.push(self.read_name()?);
            } else {
                v.push(tok[1..].to_string());
            }
        }
        Ok(v)
    }

    /// The address and type between an output section's name and its colon. `(` may open a
    /// type or a parenthesized address.
    fn read_section_address_type(&mut self, os: &mut OutputSection) -> Result<()> {
        if self.consume("(") {
            let done = self.with_state(LexState::Expr, |p| -> Result<bool> {
                let tok = p.peek();
                if let Some(t) = p.read_section_directive(&tok)? {
                    os.section_type = Some(t);
                    return Ok(true);
                }
                os.addr = Some(p.read_expr()?);
                p.expect(")")?;
                Ok(false)
            })?;
            if done {
                return Ok(());
            }
        } else {
            os.addr = Some(self.read_expr()?);
        }
        if self.consume("(") {
            self.with_state(LexState::Expr, |p| -> Result<()> {
                let tok = p.peek();
                match p.read_section_directive(&tok)? {
                    Some(t) => {
                        os.section_type = Some(t);
                        Ok(())
                    }
                    None => Err(p.fail(&format!("unknown section directive: {tok}"))),
                }
            })?;
        }
        Ok(())
    }

    /// `=fill` and `FILL(...)`: a primary expression (lld requires operators to be in
    /// parentheses here, so that `=0x90 /DISCARD/ : {...}` is not a division). A constant
    /// must fit 32 bits.
    fn read_fill(&mut self) -> Result<Expr> {
        let e = self.with_state(LexState::Expr, |p| p.read_primary())?;
        if let Some(Ok(v)) = eval_constant(&e) {
            if v > u64::from(u32::MAX) {
                return Err(self.fail(&format!(
                    "filler expression result does not fit 32-bit: 0x{v:X}"
                )));
            }
        }
        Ok(e)
    }

    // ---- input section descriptions ----

    /// An input section description starting with `start` (already read): `KEEP(...)`,
    /// `INPUT_SECTION_FLAGS(...)`, `EXCLUDE_FILE(...) file(...)`, or `file(...)`.
    fn read_input_section_desc(&mut self, start: &Token) -> Result<InputSectionDesc> {
        let mut d = self.read_input_section_desc_inner(&start.text)?;
        if let Some(end) = self.lx.after_prev() {
            d.text = squeeze_spaces(&self.lx.text_between(start, &end));
        }
        Ok(d)
    }

    fn read_input_section_desc_inner(&mut self, tok: &str) -> Result<InputSectionDesc> {
        let loc = self.lx.loc();
        let (mut with_flags, mut without_flags) = (0, 0);
        if tok == "KEEP" {
            self.expect("(")?;
            if self.consume("INPUT_SECTION_FLAGS") {
                (with_flags, without_flags) = self.read_input_section_flags()?;
            }
            let tok = self.read_file_token()?;
            let mut d = self.read_file_and_rules(&tok, with_flags, without_flags, loc)?;
            self.expect(")")?;
            d.keep = true;
            return Ok(d);
        }
        let mut tok = tok.to_string();
        if tok == "INPUT_SECTION_FLAGS" {
            (with_flags, without_flags) = self.read_input_section_flags()?;
            tok = self.read_file_token()?;
        }
        self.read_file_and_rules(&tok, with_flags, without_flags, loc)
    }

    fn read_file_token(&mut self) -> Result<String> {
        let tok = self.lx.next_token();
        if tok.is_eof() {
            return Err(self.fail("unexpected EOF"));
        }
        Ok(tok.text)
    }

    /// `file(rules)`. As lld reads it, `EXCLUDE_FILE` here (GNU ld's
    /// `EXCLUDE_FILE(files) file(rules)`) is a file pattern like any other, its parenthesis the
    /// rules: it excludes nothing, and the description after it takes every file.
    fn read_file_and_rules(
        &mut self,
        tok: &str,
        with_flags: u64,
        without_flags: u64,
        loc: Loc,
    ) -> Result<InputSectionDesc> {
        let patterns = self.read_input_section_rules()?;
        Ok(InputSectionDesc {
            file: pattern(tok),
            exclude_files: Vec::new(),
            patterns,
            keep: false,
            with_flags,
            without_flags,
            text: String::new(),
            loc,
        })
    }

    /// Patterns up to `)` (the `(` is read).
    fn read_file_patterns(&mut self) -> Result<Vec<Pattern>> {
        let mut v = Vec::new();
        while let Some(tok) = self.till(")")? {
            v.push(pattern(&tok));
        }
        Ok(v)
    }

    fn read_sort_kind(&mut self) -> SortKind {
        match SortKind::from_token(&self.peek()) {
            Some(k) => {
                self.next();
                k
            }
            None => SortKind::Default,
        }
    }

    /// `( [SORT(...)] patterns ... )` after a file pattern, with lld's two levels of sort.
    fn read_input_section_rules(&mut self) -> Result<Vec<SectionPattern>> {
        self.expect("(")?;
        let mut out = Vec::new();
        loop {
            let p = self.lx.peek();
            if p.text == ")" {
                break;
            }
            if p.is_eof() {
                // lld loops forever on `*(.text` at the end of input; this stops.
                self.lx.next_token();
                return Err(self.fail("unexpected EOF"));
            }
            let outer = self.read_sort_kind();
            let mut inner = SortKind::Default;
            let mut v;
            if outer != SortKind::Default {
                self.expect("(")?;
                inner = self.read_sort_kind();
                if inner != SortKind::Default {
                    self.expect("(")?;
                    v = self.read_input_sections_list()?;
                    self.expect(")")?;
                } else {
                    v = self.read_input_sections_list()?;
                }
                self.expect(")")?;
            } else {
                v = self.read_input_sections_list()?;
            }
            for pat in &mut v {
                pat.sort_outer = outer;
                pat.sort_inner = inner;
            }
            out.extend(v);
        }
        self.expect(")")?;
        Ok(out)
    }

    /// Section patterns, each group with its `EXCLUDE_FILE`, up to `)` or a sort keyword.
    fn read_input_sections_list(&mut self) -> Result<Vec<SectionPattern>> {
        let mut ret = Vec::new();
        while self.peek() != ")" {
            let mut exclude_files = Vec::new();
            if self.consume("EXCLUDE_FILE") {
                self.expect("(")?;
                exclude_files = self.read_file_patterns()?;
            }
            let mut sections = Vec::new();
            loop {
                let tok = self.lx.peek();
                let s = tok.text.as_str();
                if SortKind::from_token(s).is_some() || s == ")" || s == "EXCLUDE_FILE" {
                    break;
                }
                if tok.is_eof() {
                    self.lx.next_token();
                    return Err(self.fail("unexpected EOF"));
                }
                if s.starts_with(['(', ')', '{', '}']) {
                    self.next();
                    return Err(self.fail("section pattern is expected"));
                }
                let t = self.next();
                sections.push(pattern(&t));
            }
            if !sections.is_empty() {
                ret.push(SectionPattern {
                    exclude_files,
                    sections,
                    sort_outer: SortKind::Default,
                    sort_inner: SortKind::Default,
                });
            } else if exclude_files.is_empty() {
                break;
            } else {
                return Err(self.fail("section pattern is expected"));
            }
        }
        Ok(ret)
    }

    /// `INPUT_SECTION_FLAGS(FLAG & !FLAG ...)` after the keyword.
    fn read_input_section_flags(&mut self) -> Result<(u64, u64)> {
        self.expect("(")?;
        let (mut with, mut without) = (0u64, 0u64);
        loop {
            let tok = self.read_name()?;
            let (neg, name) = match tok.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, tok.as_str()),
            };
            match parse_flag(name) {
                Some(f) if neg => without |= f,
                Some(f) => with |= f,
                None => return Err(self.fail(&format!("unrecognised flag: {name}"))),
            }
            if self.consume(")") {
                return Ok((with, without));
            }
            if !self.consume("&") {
                self.next();
                return Err(self.fail("expected & or )"));
            }
        }
    }

    // ---- assignments ----

    /// An assignment or `ASSERT` starting with `tok` (already read), or `None` if `tok` does
    /// not start one.
    fn read_assignment(&mut self, tok: &Token) -> Result<Option<Stmt>> {
        let t = tok.text.as_str();
        if t == "ASSERT" {
            // No `;` needed after it, as in lld.
            return Ok(Some(Stmt::Assert(self.read_assert()?)));
        }
        let op = self.peek();
        let is_op = op.starts_with('=')
            || (op.len() == 2 && op.ends_with('=') && "+-*/&^|".contains(&op[..1]))
            || op == "<<="
            || op == ">>=";
        let provide = matches!(t, "PROVIDE" | "HIDDEN" | "PROVIDE_HIDDEN");
        if !is_op && !provide {
            return Ok(None);
        }
        let mut a = self.with_state(LexState::Expr, |p| {
            if is_op {
                p.read_symbol_assignment(unquote(t))
            } else {
                p.read_provide_hidden(t != "HIDDEN", t != "PROVIDE")
            }
        })?;
        let end = self.lx.peek();
        a.text = squeeze_spaces(&self.lx.text_between(tok, &end));
        self.expect(";")?;
        Ok(Some(Stmt::Assign(a)))
    }

    fn read_provide_hidden(&mut self, provide: bool, hidden: bool) -> Result<Assignment> {
        self.expect("(")?;
        let name = self.read_name()?;
        if self.peek() != "=" {
            let got = self.next();
            return Err(self.fail(&format!("= expected, but got {got}")));
        }
        let mut a = self.read_symbol_assignment(&name)?;
        a.provide = provide;
        a.hidden = hidden;
        self.expect(")")?;
        Ok(a)
    }

    fn read_symbol_assignment(&mut self, name: &str) -> Result<Assignment> {
        let op_tok = self.next();
        // `x == 1;` reaches here (`==` starts with `=`); lld crashes on it, this is an error.
        let Some(op) = AssignOp::from_token(&op_tok) else {
            return Err(self.fail(&format!("= expected, but got {op_tok}")));
        };
        let expr = self.read_expr()?;
        Ok(Assignment {
            name: name.to_string(),
            op,
            expr,
            provide: false,
            hidden: false,
            order: self.next_order(),
            text: String::new(),
            loc: self.lx.loc(),
        })
    }

    fn read_assert(&mut self) -> Result<Assert> {
        let loc = self.lx.loc();
        self.expect("(")?;
        let cond = self.read_expr()?;
        self.expect(",")?;
        let message = self.read_name()?;
        self.expect(")")?;
        Ok(Assert { cond, message, loc })
    }

    // ---- expressions ----

    /// An expression, read with expression tokenization.
    pub(super) fn read_expr(&mut self) -> Result<Expr> {
        self.with_state(LexState::Expr, |p| {
            let lhs = p.read_primary()?;
            p.read_expr1(lhs, 0)
        })
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.fail("expression nested too deeply"));
        }
        Ok(())
    }

    /// Operator precedence climbing, as lld's `readExpr1`.
    fn read_expr1(&mut self, lhs: Expr, min_prec: u8) -> Result<Expr> {
        self.enter()?;
        let r = self.read_expr1_inner(lhs, min_prec);
        self.depth -= 1;
        r
    }

    fn precedence(tok: &str) -> Option<u8> {
        if tok == "?" {
            return Some(1);
        }
        BinOp::from_token(tok).map(|(_, p)| p)
    }

    fn read_expr1_inner(&mut self, mut lhs: Expr, min_prec: u8) -> Result<Expr> {
        loop {
            let op1 = self.peek();
            let Some(p1) = Self::precedence(&op1) else {
                return Ok(lhs);
            };
            if p1 < min_prec {
                return Ok(lhs);
            }
            self.next();
            if op1 == "?" {
                let t = self.read_expr()?;
                self.expect(":")?;
                let f = self.read_expr()?;
                return Ok(Expr::Ternary(Box::new(lhs), Box::new(t), Box::new(f)));
            }
            let mut rhs = self.read_primary()?;
            loop {
                let op2 = self.peek();
                match Self::precedence(&op2) {
                    Some(p2) if p2 > p1 => rhs = self.read_expr1(rhs, p2)?,
                    _ => break,
                }
            }
            let Some((op, _)) = BinOp::from_token(&op1) else {
                return Ok(lhs);
            };
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), self.lx.loc());
        }
    }

    fn read_paren_expr(&mut self) -> Result<Expr> {
        self.expect("(")?;
        let e = self.read_expr()?;
        self.expect(")")?;
        Ok(e)
    }

    /// `( name )` with script tokenization, for section and region names.
    fn read_paren_name(&mut self) -> Result<String> {
        self.expect("(")?;
        let name = self.with_state(LexState::Script, |p| p.read_name())?;
        self.expect(")")?;
        Ok(name)
    }

    fn read_primary(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.read_primary_inner();
        self.depth -= 1;
        r
    }

    fn read_primary_inner(&mut self) -> Result<Expr> {
        if self.peek() == "(" {
            return self.read_paren_expr();
        }
        for (tok, op) in [("~", UnOp::Not), ("!", UnOp::LogNot), ("-", UnOp::Neg)] {
            if self.consume(tok) {
                return Ok(Expr::Unary(op, Box::new(self.read_primary()?)));
            }
        }
        if self.consume("+") {
            return self.read_primary();
        }
        let tok = self.lx.next_token();
        if tok.is_eof() {
            return Err(self.fail("unexpected EOF"));
        }
        let loc = self.lx.loc();
        let bx = Box::new;
        let e = match tok.text.as_str() {
            "ABSOLUTE" => Expr::Absolute(bx(self.read_paren_expr()?)),
            "ADDR" => Expr::Addr(self.read_paren_name()?, loc),
            "ALIGN" => {
                self.expect("(")?;
                let e = self.read_expr()?;
                if self.consume(")") {
                    Expr::Align(bx(e), loc)
                } else {
                    self.expect(",")?;
                    let a = self.read_expr()?;
                    self.expect(")")?;
                    Expr::AlignTo(bx(e), bx(a), loc)
                }
            }
            "ALIGNOF" => Expr::AlignOf(self.read_paren_name()?, loc),
            "ASSERT" => {
                let a = self.read_assert()?;
                Expr::Assert(bx(a.cond), a.message, a.loc)
            }
            "CONSTANT" => {
                let name = self.read_paren_name()?;
                match name.as_str() {
                    "COMMONPAGESIZE" => Expr::Constant(Constant::CommonPageSize, loc),
                    "MAXPAGESIZE" => Expr::Constant(Constant::MaxPageSize, loc),
                    _ => return Err(self.fail(&format!("unknown constant: {name}"))),
                }
            }
            "DATA_SEGMENT_ALIGN" => {
                let (a, b) = self.read_two_args()?;
                Expr::DataSegmentAlign(bx(a), bx(b))
            }
            "DATA_SEGMENT_END" => {
                self.expect("(")?;
                self.expect(".")?;
                self.expect(")")?;
                Expr::DataSegmentEnd
            }
            "DATA_SEGMENT_RELRO_END" => {
                let (a, b) = self.read_two_args()?;
                Expr::DataSegmentRelroEnd(bx(a), bx(b))
            }
            "DEFINED" => {
                let name = self.read_paren_name()?;
                Expr::Defined {
                    name,
                    order: self.next_order(),
                }
            }
            "LENGTH" | "ORIGIN" => {
                let name = self.read_paren_name()?;
                if !self.regions.contains(&name) {
                    return Err(self.fail(&format!("memory region not defined: {name}")));
                }
                if tok.text == "LENGTH" {
                    Expr::Length(name, loc)
                } else {
                    Expr::Origin(name, loc)
                }
            }
            "LOADADDR" => Expr::LoadAddr(self.read_paren_name()?, loc),
            "LOG2CEIL" => Expr::Log2Ceil(bx(self.read_paren_expr()?)),
            "MAX" | "MIN" => {
                let (a, b) = self.read_two_args()?;
                if tok.text == "MAX" {
                    Expr::Max(bx(a), bx(b))
                } else {
                    Expr::Min(bx(a), bx(b))
                }
            }
            "SEGMENT_START" => {
                self.expect("(")?;
                let segment = unquote(&self.next()).to_string();
                self.expect(",")?;
                let e = self.read_expr()?;
                self.expect(")")?;
                Expr::SegmentStart(segment, bx(e))
            }
            "SIZEOF" => Expr::SizeOf(self.read_paren_name()?),
            "SIZEOF_HEADERS" => Expr::SizeOfHeaders,
            "." => Expr::Dot(loc),
            t => {
                if let Some(n) = parse_number(t) {
                    Expr::Number(n)
                } else if t.starts_with('"') {
                    Expr::Symbol(unquote(t).to_string(), loc)
                } else if is_valid_symbol_name(t) {
                    Expr::Symbol(t.to_string(), loc)
                } else {
                    return Err(self.fail(&format!("malformed number: {t}")));
                }
            }
        };
        Ok(e)
    }

    fn read_two_args(&mut self) -> Result<(Expr, Expr)> {
        self.expect("(")?;
        let a = self.read_expr()?;
        self.expect(",")?;
        let b = self.read_expr()?;
        self.expect(")")?;
        Ok((a, b))
    }
}

/// What `read_assignment` found.
enum Stmt {
    Assign(Assignment),
    Assert(Assert),
}

fn push_input_file(files: &mut Vec<InputFile>, tok: &str, as_needed: bool) {
    if tok == "," {
        return;
    }
    let name = unquote(tok);
    files.push(match name.strip_prefix("-l") {
        Some(lib) => InputFile::Library {
            name: lib.to_string(),
            as_needed,
        },
        None => InputFile::File {
            path: name.to_string(),
            as_needed,
        },
    });
}
