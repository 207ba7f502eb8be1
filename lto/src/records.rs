//! The plain values that cross the C ABI: what is copied out of LLVM when a
//! bitcode file is opened ([`InputData`]) or its summary read
//! ([`SummaryGraph`]), what the linker hands to LTO ([`Resolution`]) and how
//! LLVM grades its diagnostics ([`Severity`]).
//!
//! They sit below `ffi` (which fills them in) and below the modules that give
//! them meaning (`input`, `summary`, `run`), so that the FFI layer depends on
//! nothing above it.

use std::ops::Range;

/// Where a string lives in [`InputData::strings`]: `(offset, len)`.
pub(crate) type StrRange = (u32, u32);

/// One irsymtab symbol as copied out of LLVM. Names are ranges into one shared
/// byte buffer so that reading a file costs no allocation per symbol.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SymbolRecord {
    pub name: StrRange,
    pub ir_name: StrRange,
    pub section: StrRange,
    pub flags: u32,
    pub visibility: u8,
    pub comdat: i32,
    pub common_size: u64,
    pub common_align: u32,
    /// The summary GUID of the IR name; meaningful if [`crate::SymbolFlags::HAS_GUID`].
    pub guid: u64,
}

/// Everything about a file that is copied out of LLVM when it is opened, so it
/// stays readable after [`crate::Lto::add`] consumes LLVM's `InputFile`.
#[derive(Debug, Default)]
pub(crate) struct InputData {
    pub strings: Vec<u8>,
    pub symbols: Vec<SymbolRecord>,
    pub comdats: Vec<(StrRange, u32)>,
    pub target_triple: String,
    pub source_filename: String,
    pub num_modules: u32,
    pub is_thin: bool,
    pub has_summary: bool,
    /// `#pragma comment(lib, ...)` specifiers (`llvm.dependent-libraries`).
    pub dependent_libraries: Vec<String>,
}

impl InputData {
    /// Appends `bytes` to the string buffer and returns where they went.
    #[cfg_attr(not(feature = "llvm"), allow(dead_code))]
    pub(crate) fn intern(&mut self, bytes: &[u8]) -> StrRange {
        let off = self.strings.len() as u32;
        self.strings.extend_from_slice(bytes);
        (off, bytes.len() as u32)
    }

    pub(crate) fn str(&self, r: StrRange) -> &[u8] {
        &self.strings[r.0 as usize..(r.0 + r.1) as usize]
    }
}

/// The linker's verdict on one bitcode symbol, in the order of
/// [`crate::BitcodeFile::symbols`]. Mirrors `lto::SymbolResolution`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resolution {
    /// This file's definition is the one the linker chose. Never set for
    /// undefined symbols.
    pub prevailing: bool,
    /// Something outside LTO (a live native section, a root, the dynamic
    /// symbol table) needs the symbol, so LTO must not internalize or drop it.
    pub visible_to_regular_obj: bool,
    /// The definition cannot be preempted at run time and is in this output
    /// (executables, or non-default visibility), so LTO may use direct access.
    pub final_definition_in_linkage_unit: bool,
    /// The symbol is exported dynamically. LTO does not treat this alone as
    /// a reason to keep the symbol: set `visible_to_regular_obj` too.
    pub export_dynamic: bool,
    /// The linker redefines the symbol (`--wrap`, `--defsym`): LTO must not
    /// inline or otherwise assume its body.
    pub linker_redefined: bool,
}

/// How bad a diagnostic is (LLVM's `DiagnosticSeverity`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The link must fail.
    Error,
    /// Print and continue.
    Warning,
    /// An optimization remark.
    Remark,
    /// Extra information attached to another diagnostic.
    Note,
}

impl Severity {
    #[cfg_attr(not(feature = "llvm"), allow(dead_code))]
    pub(crate) fn from_llvm(v: u32) -> Severity {
        match v {
            0 => Severity::Error,
            1 => Severity::Warning,
            2 => Severity::Remark,
            _ => Severity::Note,
        }
    }
}

/// One summary entry (a file has several per GUID only when it holds several
/// modules, as a split LTO unit does).
#[derive(Clone, Debug)]
pub(crate) struct SummaryNode {
    pub guid: u64,
    /// Flagged live by the compiler: `llvm.used`, `llvm.compiler.used`,
    /// `llvm.global_ctors`/`dtors`, ifunc resolvers.
    pub live: bool,
    /// Edge targets (GUIDs) in [`SummaryGraph::edges`].
    pub edges: Range<u32>,
    /// The value's IR name (a static's plain name), empty when unknown.
    pub name: String,
}

/// The summary of all modules of a file, as a flat GUID graph.
#[derive(Clone, Debug, Default)]
pub(crate) struct SummaryGraph {
    pub nodes: Vec<SummaryNode>,
    pub edges: Vec<u64>,
    /// Modules whose summary had to be computed from IR.
    pub built_modules: u32,
}
