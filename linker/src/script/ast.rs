//! What a linker script says, as the parser reads it, before anything is evaluated. Every node
//! a later phase may have to complain about (assignments, `ASSERT`s, output sections, input
//! section descriptions, memory regions, program headers) carries its [`Loc`], so that layout
//! can say `FILE:LINE: message` and `--why-live` can name the rule that kept a section.

pub use super::expr::{AssignOp, Expr};
pub use super::lexer::Loc;

/// A parsed script, `INCLUDE`s spliced in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    /// Top-level commands in script order.
    pub commands: Vec<Command>,
    /// Warnings lld prints while reading the script (`FILE:LINE: message`).
    pub warnings: Vec<String>,
}

/// A top-level command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `SECTIONS { ... }`, possibly followed by `INSERT AFTER|BEFORE name`.
    Sections(Sections),
    /// `MEMORY { ... }`.
    Memory(Vec<MemoryRegion>),
    /// `REGION_ALIAS(alias, region)`.
    RegionAlias {
        /// The new name.
        alias: String,
        /// The region it names.
        region: String,
        /// Where it was written.
        loc: Loc,
    },
    /// `PHDRS { ... }`.
    Phdrs(Vec<Phdr>),
    /// `ENTRY(symbol)`.
    Entry(String, Loc),
    /// `OUTPUT_FORMAT(name)` or `OUTPUT_FORMAT(default, big, little)`.
    OutputFormat {
        /// The format used without `-EB`/`-EL`.
        default: String,
        /// With `-EB`.
        big: Option<String>,
        /// With `-EL`.
        little: Option<String>,
        /// Where it was written.
        loc: Loc,
    },
    /// `OUTPUT_ARCH(...)`: its words, which lld ignores.
    OutputArch(Vec<String>),
    /// `OUTPUT(file)`.
    Output(String),
    /// `SEARCH_DIR(dir)`.
    SearchDir(String, Loc),
    /// `INPUT(...)`.
    Input(Vec<InputFile>, Loc),
    /// `GROUP(...)`.
    Group(Vec<InputFile>, Loc),
    /// `ASSERT(cond, message)`.
    Assert(Assert),
    /// `NOCROSSREFS(sections)` (`to` false) or `NOCROSSREFS_TO(target, sections)`.
    NoCrossRefs {
        /// The output sections; for `NOCROSSREFS_TO` the first is the target.
        sections: Vec<String>,
        /// `NOCROSSREFS_TO`.
        to: bool,
        /// Where it was written.
        loc: Loc,
    },
    /// `EXTERN(symbols)`.
    Extern(Vec<String>),
    /// `TARGET(format)`: `elf*` or `binary`.
    Target(String),
    /// `VERSION { ... }`: the text between the braces, for the version script parser
    /// (`input::version_script::parse`), and where that text starts. Parsing
    /// `"\n".repeat(loc.line - 1) + text` with `loc.file` as the path makes that parser's
    /// messages name the script's own lines.
    Version {
        /// The version script text.
        text: String,
        /// Line of the text's first character in `loc.file`.
        loc: Loc,
    },
    /// A symbol assignment outside `SECTIONS` (`PROVIDE`, `HIDDEN` included).
    Assignment(Assignment),
    /// `OVERWRITE_SECTIONS { ... }`: output section descriptions that replace orphans' placement.
    OverwriteSections(Vec<OutputSection>),
}

/// `SECTIONS { ... } [INSERT AFTER|BEFORE name]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sections {
    /// The commands in order.
    pub commands: Vec<SectionsCommand>,
    /// `INSERT`: the commands go after or before an output section of the default layout.
    pub insert: Option<Insert>,
    /// Where `SECTIONS` was written.
    pub loc: Loc,
}

/// `INSERT AFTER name` / `INSERT BEFORE name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insert {
    /// `AFTER` (else `BEFORE`).
    pub after: bool,
    /// The output section the commands go next to.
    pub section: String,
    /// Where it was written.
    pub loc: Loc,
}

/// A command inside `SECTIONS`.
#[derive(Clone, Debug, PartialEq)]
pub enum SectionsCommand {
    /// `sym = expr;`, `. = expr;`, `PROVIDE(...)`, ...
    Assignment(Assignment),
    /// `ASSERT(cond, message);`
    Assert(Assert),
    /// An output section description.
    Output(Box<OutputSection>),
    /// `OVERLAY ... { ... }`.
    Overlay(Overlay),
}

/// A symbol assignment. `name` is `.` for the location counter. Its value is
/// [`super::expr::eval_assignment`]'s.
#[derive(Clone, Debug, PartialEq)]
pub struct Assignment {
    /// The symbol (unquoted), or `.`.
    pub name: String,
    /// `=`, `+=`, ...; a compound operator reads the symbol's previous value (lld's
    /// `getSymbolValue`, which fails with `symbol not found`).
    pub op: AssignOp,
    /// The right-hand side.
    pub expr: Expr,
    /// `PROVIDE` or `PROVIDE_HIDDEN`: defined only if referenced and not defined elsewhere.
    pub provide: bool,
    /// `HIDDEN` or `PROVIDE_HIDDEN`: `STV_HIDDEN`.
    pub hidden: bool,
    /// Position among the script's assignments and `DEFINED`s (see [`Expr::Defined`]).
    pub order: u32,
    /// The assignment's text with runs of blanks squeezed to one space, as `-Map` prints it.
    pub text: String,
    /// Where it was written (the line of its end, as lld records it).
    pub loc: Loc,
}

/// `ASSERT(cond, message)`: an error with `message` if `cond` is 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Assert {
    /// The condition.
    pub cond: Expr,
    /// The message, unquoted.
    pub message: String,
    /// Where it was written.
    pub loc: Loc,
}

/// An output section's type, from `(NOLOAD)`, `(COPY)`, `(INFO)`, `(OVERLAY)`, `(TYPE = ...)`.
#[derive(Clone, Debug, PartialEq)]
pub enum SectionType {
    /// `NOLOAD`: `SHT_NOBITS`.
    NoLoad,
    /// `COPY`: not allocated.
    Copy,
    /// `INFO`: not allocated.
    Info,
    /// `OVERLAY`: not allocated.
    Overlay,
    /// `TYPE = SHT_PROGBITS|SHT_NOTE|SHT_NOBITS|SHT_INIT_ARRAY|SHT_FINI_ARRAY|SHT_PREINIT_ARRAY`
    /// (as its number) or `TYPE = expr`.
    Type(Expr),
}

/// `ONLY_IF_RO` / `ONLY_IF_RW`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// The section exists only if all its inputs are read-only.
    ReadOnly,
    /// The section exists only if one input is writable.
    ReadWrite,
}

/// An output section description.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputSection {
    /// The name (unquoted); `/DISCARD/` is just a name here.
    pub name: String,
    /// `name ADDR : ...`
    pub addr: Option<Expr>,
    /// `name (TYPE) : ...`
    pub section_type: Option<SectionType>,
    /// `AT(lma)`.
    pub lma: Option<Expr>,
    /// `ALIGN(expr)` after the colon.
    pub align: Option<Expr>,
    /// `ALIGN_WITH_INPUT` (GNU ld; lld rejects it).
    pub align_with_input: bool,
    /// `SUBALIGN(expr)`.
    pub subalign: Option<Expr>,
    /// `ONLY_IF_RO` / `ONLY_IF_RW`.
    pub constraint: Option<Constraint>,
    /// The body in order.
    pub commands: Vec<OutputSectionCommand>,
    /// `> region`.
    pub region: Option<String>,
    /// `AT > region`.
    pub lma_region: Option<String>,
    /// `:phdr` list.
    pub phdrs: Vec<String>,
    /// `= fill` after the body, or the last `FILL(expr)` in it.
    pub fill: Option<Expr>,
    /// Inside an `OVERLAY`.
    pub in_overlay: bool,
    /// Where the name was written.
    pub loc: Loc,
}

impl OutputSection {
    /// An output section description with nothing but its name and place: no address, type,
    /// load address, alignment, region or commands yet.
    pub fn named(name: String, in_overlay: bool, loc: Loc) -> OutputSection {
        OutputSection {
            name,
            addr: None,
            section_type: None,
            lma: None,
            align: None,
            align_with_input: false,
            subalign: None,
            constraint: None,
            commands: Vec::new(),
            region: None,
            lma_region: None,
            phdrs: Vec::new(),
            fill: None,
            in_overlay,
            loc,
        }
    }
}

/// A command in an output section's body.
#[derive(Clone, Debug, PartialEq)]
pub enum OutputSectionCommand {
    /// `sym = expr;` and friends.
    Assignment(Assignment),
    /// `ASSERT(cond, message);`
    Assert(Assert),
    /// An input section description.
    Input(InputSectionDesc),
    /// `BYTE(e)`, `SHORT(e)`, `LONG(e)`, `QUAD(e)`, `SQUAD(e)`.
    Data {
        /// 1, 2, 4 or 8 bytes.
        size: u8,
        /// The value.
        expr: Expr,
        /// The command's text with blanks squeezed, for `-Map`.
        text: String,
        /// Where it was written.
        loc: Loc,
    },
    /// `FILL(expr)`: lld treats it as the section's `=fill` (see [`OutputSection::fill`]);
    /// kept here so that the order is visible too.
    Fill(Expr, Loc),
    /// `CONSTRUCTORS` or `SORT(CONSTRUCTORS)`: nothing for ELF.
    Constructors,
}

/// How input sections matched by a pattern are sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SortKind {
    /// No sort keyword: `--sort-section` applies.
    #[default]
    Default,
    /// `SORT` / `SORT_BY_NAME`.
    Name,
    /// `SORT_BY_ALIGNMENT`.
    Alignment,
    /// `SORT_BY_INIT_PRIORITY`.
    InitPriority,
    /// `SORT_NONE`.
    None,
    /// `REVERSE` (lld).
    Reverse,
}

impl SortKind {
    /// The sort a keyword names.
    pub fn from_token(tok: &str) -> Option<SortKind> {
        Some(match tok {
            "SORT" | "SORT_BY_NAME" => SortKind::Name,
            "SORT_BY_ALIGNMENT" => SortKind::Alignment,
            "SORT_BY_INIT_PRIORITY" => SortKind::InitPriority,
            "SORT_NONE" => SortKind::None,
            "REVERSE" => SortKind::Reverse,
            _ => return None,
        })
    }
}

/// A file or section name pattern. A quoted pattern is literal; an unquoted one is a glob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The text, unquoted.
    pub text: String,
    /// It was quoted: `*` and `?` in it are not wildcards.
    pub quoted: bool,
}

/// Section patterns sharing an `EXCLUDE_FILE` and a sort:
/// `SORT(EXCLUDE_FILE(a.o) .text .text.*)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionPattern {
    /// Files whose sections these patterns do not take.
    pub exclude_files: Vec<Pattern>,
    /// Section name patterns.
    pub sections: Vec<Pattern>,
    /// The outer sort keyword.
    pub sort_outer: SortKind,
    /// The inner sort keyword (`SORT_BY_NAME(SORT_BY_ALIGNMENT(...))`).
    pub sort_inner: SortKind,
}

/// An input section description: `[KEEP(] [INPUT_SECTION_FLAGS(...)] file(patterns) [)]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputSectionDesc {
    /// The file pattern: `*`, `*crtbegin.o`, `libc.a:memcpy.o`, `*libc.a:`, ...
    pub file: Pattern,
    /// `EXCLUDE_FILE(...)` written before the file pattern (GNU ld's form): files this
    /// description does not take.
    pub exclude_files: Vec<Pattern>,
    /// The section patterns, in order.
    pub patterns: Vec<SectionPattern>,
    /// Inside `KEEP(...)`: a root for `--gc-sections`.
    pub keep: bool,
    /// `INPUT_SECTION_FLAGS`: flags an input section must have.
    pub with_flags: u64,
    /// `INPUT_SECTION_FLAGS` `!FLAG`s: flags it must not have.
    pub without_flags: u64,
    /// The description as written, blanks squeezed (`KEEP (*(SORT_NONE(.init)))`), for
    /// `--why-live` and `-Map` to name the rule.
    pub text: String,
    /// Where the file pattern was written.
    pub loc: Loc,
}

/// `OVERLAY [addr] : [AT(lma)] { sections }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlay {
    /// The shared virtual address; `None` for the location counter.
    pub addr: Option<Expr>,
    /// The first section's load address; `None` for its virtual address. Each next section
    /// loads after the previous one.
    pub lma: Option<Expr>,
    /// The sections (name, input descriptions, `:phdr`s).
    pub sections: Vec<OutputSection>,
    /// Where `OVERLAY` was written.
    pub loc: Loc,
}

/// Memory region attributes as lld keeps them: section flags that select (`flags`, and
/// `inv_flags` for flags that must be absent: `r` means not writable) and their `!` negations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryAttrs {
    /// `w`, `x`, `a`: `SHF_WRITE`, `SHF_EXECINSTR`, `SHF_ALLOC`.
    pub flags: u32,
    /// `r`: `SHF_WRITE` must be clear.
    pub inv_flags: u32,
    /// Attributes after `!`.
    pub neg_flags: u32,
    /// `r` after `!`.
    pub neg_inv_flags: u32,
}

/// A `MEMORY` region: `name [(attrs)] : ORIGIN = e, LENGTH = e`.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryRegion {
    /// The region's name.
    pub name: String,
    /// Attributes.
    pub attrs: MemoryAttrs,
    /// `ORIGIN` / `org` / `o`.
    pub origin: Expr,
    /// `LENGTH` / `len` / `l`.
    pub length: Expr,
    /// Where it was written.
    pub loc: Loc,
}

/// A `PHDRS` entry: `name TYPE [FILEHDR] [PHDRS] [AT(e)] [FLAGS(e)] ;`.
#[derive(Clone, Debug, PartialEq)]
pub struct Phdr {
    /// The name output sections refer to with `:name`.
    pub name: String,
    /// `PT_*` as its number, or the number written.
    pub phdr_type: u32,
    /// `FILEHDR`.
    pub filehdr: bool,
    /// `PHDRS`.
    pub phdrs: bool,
    /// `AT(e)`.
    pub lma: Option<Expr>,
    /// `FLAGS(e)`.
    pub flags: Option<Expr>,
    /// Where it was written.
    pub loc: Loc,
}

/// A file named by `INPUT`, `GROUP` or `AS_NEEDED`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputFile {
    /// A path as written, unquoted.
    File {
        /// The path.
        path: String,
        /// Inside `AS_NEEDED(...)`.
        as_needed: bool,
    },
    /// `-lNAME`.
    Library {
        /// `NAME` (or `:FILE`).
        name: String,
        /// Inside `AS_NEEDED(...)`.
        as_needed: bool,
    },
}
