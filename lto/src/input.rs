//! One bitcode input file: its symbol table and LTO properties.

use std::fmt;

use crate::ffi;
use crate::records::InputData;

/// Symbol properties from the irsymtab, as a bit set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SymbolFlags(pub u32);

impl SymbolFlags {
    /// Not defined in this file.
    pub const UNDEFINED: u32 = 1 << 0;
    /// Weak definition or weak reference.
    pub const WEAK: u32 = 1 << 1;
    /// A common symbol (`-fcommon` tentative definition).
    pub const COMMON: u32 = 1 << 2;
    /// COFF weak external with a fallback; never set for ELF.
    pub const INDIRECT: u32 = 1 << 3;
    /// Listed in `llvm.used` or `llvm.compiler.used`: kept even if unreferenced.
    pub const USED: u32 = 1 << 4;
    /// Thread-local.
    pub const TLS: u32 = 1 << 5;
    /// Can be omitted from the dynamic symbol table (e.g. an inline function
    /// whose address is not significant: `linkonce_odr` + `unnamed_addr`).
    pub const MAY_OMIT: u32 = 1 << 6;
    /// Global binding (everything in the irsymtab is).
    pub const GLOBAL: u32 = 1 << 7;
    /// Format-specific symbol the linker should not resolve against.
    pub const FORMAT_SPECIFIC: u32 = 1 << 8;
    /// `unnamed_addr`: the address is not significant.
    pub const UNNAMED_ADDR: u32 = 1 << 9;
    /// A function (code), as opposed to data.
    pub const EXECUTABLE: u32 = 1 << 10;
    /// Has an IR name, so it can appear in the module summary.
    pub const HAS_GUID: u32 = 1 << 11;

    fn has(self, bit: u32) -> bool {
        self.0 & bit != 0
    }
    /// Not defined in this file.
    pub fn is_undefined(self) -> bool {
        self.has(Self::UNDEFINED)
    }
    /// Weak definition or weak reference.
    pub fn is_weak(self) -> bool {
        self.has(Self::WEAK)
    }
    /// A common symbol; see [`Symbol::common`] for size and alignment.
    pub fn is_common(self) -> bool {
        self.has(Self::COMMON)
    }
    /// COFF weak external with a fallback (never for ELF).
    pub fn is_indirect(self) -> bool {
        self.has(Self::INDIRECT)
    }
    /// Listed in `llvm.used` or `llvm.compiler.used`.
    pub fn is_used(self) -> bool {
        self.has(Self::USED)
    }
    /// Thread-local (`STT_TLS`).
    pub fn is_tls(self) -> bool {
        self.has(Self::TLS)
    }
    /// May be left out of `.dynsym` when nothing outside needs its address.
    pub fn can_be_omitted_from_dynsym(self) -> bool {
        self.has(Self::MAY_OMIT)
    }
    /// Global binding.
    pub fn is_global(self) -> bool {
        self.has(Self::GLOBAL)
    }
    /// Format-specific symbol.
    pub fn is_format_specific(self) -> bool {
        self.has(Self::FORMAT_SPECIFIC)
    }
    /// `unnamed_addr`.
    pub fn is_unnamed_addr(self) -> bool {
        self.has(Self::UNNAMED_ADDR)
    }
    /// A function (`STT_FUNC` once compiled).
    pub fn is_executable(self) -> bool {
        self.has(Self::EXECUTABLE)
    }
    /// Data (`STT_OBJECT`/`STT_TLS` once compiled): not executable.
    pub fn is_data(self) -> bool {
        !self.is_executable()
    }
}

impl fmt::Debug for SymbolFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NAMES: [&str; 12] = [
            "UNDEFINED",
            "WEAK",
            "COMMON",
            "INDIRECT",
            "USED",
            "TLS",
            "MAY_OMIT",
            "GLOBAL",
            "FORMAT_SPECIFIC",
            "UNNAMED_ADDR",
            "EXECUTABLE",
            "HAS_GUID",
        ];
        let set: Vec<&str> = NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
            .collect();
        write!(f, "SymbolFlags({})", set.join(" | "))
    }
}

/// ELF symbol visibility as recorded in the bitcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    /// `STV_DEFAULT`.
    Default,
    /// `STV_HIDDEN`.
    Hidden,
    /// `STV_PROTECTED`.
    Protected,
}

/// Size and alignment of a common symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommonInfo {
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u32,
}

/// One symbol of a bitcode file, borrowed from its [`BitcodeFile`].
#[derive(Clone, Copy, Debug)]
pub struct Symbol<'a> {
    /// Index in [`BitcodeFile::symbols`] (irsymtab order, the order
    /// [`crate::Lto::add`] expects resolutions in).
    pub index: u32,
    /// The mangled (linker-visible) name. Bytes: names need not be UTF-8.
    pub name: &'a [u8],
    /// The IR name; empty for symbols defined or referenced only by
    /// module-level inline asm.
    pub ir_name: &'a [u8],
    /// Properties.
    pub flags: SymbolFlags,
    /// Visibility.
    pub visibility: Visibility,
    /// Index into [`BitcodeFile::comdats`], if the symbol is in a comdat.
    pub comdat: Option<u32>,
    /// For common symbols, their size and alignment.
    pub common: Option<CommonInfo>,
    /// The explicit section (`__attribute__((section))`), if any.
    pub section: Option<&'a [u8]>,
}

impl Symbol<'_> {
    /// Defined or referenced only by module-level inline asm: it has no IR
    /// name, so no summary node, and the linker must treat it as opaque.
    pub fn is_asm(&self) -> bool {
        self.ir_name.is_empty()
    }

    /// Defined in this file (not undefined). Common symbols count as defined.
    pub fn is_defined(&self) -> bool {
        !self.flags.is_undefined()
    }

    /// The name for messages (lossy if not UTF-8).
    pub fn display_name(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.name)
    }
}

/// How a comdat group chooses among duplicates (`llvm::Comdat::SelectionKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComdatSelection {
    /// Any one (ELF's only kind).
    Any,
    /// All must be byte-identical.
    ExactMatch,
    /// The largest wins.
    Largest,
    /// No deduplication.
    NoDeduplicate,
    /// All must have the same size.
    SameSize,
    /// A kind this crate does not know.
    Other(u32),
}

impl ComdatSelection {
    fn from_raw(v: u32) -> Self {
        match v {
            0 => Self::Any,
            1 => Self::ExactMatch,
            2 => Self::Largest,
            3 => Self::NoDeduplicate,
            4 => Self::SameSize,
            v => Self::Other(v),
        }
    }
}

/// A comdat group of a bitcode file.
#[derive(Clone, Copy, Debug)]
pub struct Comdat<'a> {
    /// The group's name (its signature symbol for ELF).
    pub name: &'a [u8],
    /// The selection kind.
    pub selection: ComdatSelection,
}

/// Iterator over a file's symbols in irsymtab order.
pub struct Symbols<'a> {
    file: &'a BitcodeFile,
    next: usize,
}

impl<'a> Iterator for Symbols<'a> {
    type Item = Symbol<'a>;
    fn next(&mut self) -> Option<Symbol<'a>> {
        let s = self.file.symbol(self.next)?;
        self.next += 1;
        Some(s)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.file.data.symbols.len() - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Symbols<'_> {}

/// The owner of a file's bytes. Boxed so its address (and the slice's) never
/// changes while LLVM holds a pointer to it.
pub(crate) type Bytes = Box<dyn AsRef<[u8]> + Send + Sync>;

/// A bitcode input: raw bitcode or the `0x0B17C0DE` wrapper around it.
///
/// Everything the linker reads (symbols, comdats, triple, ThinLTO or not) is
/// copied out of LLVM at [`open`](Self::open), so it stays valid after the
/// file is handed to [`crate::Lto::add`].
pub struct BitcodeFile {
    // Field order is drop order: LLVM's InputFile points into `bytes`.
    pub(crate) raw: ffi::RawInput,
    pub(crate) data: InputData,
    pub(crate) module_id: String,
    pub(crate) bytes: Bytes,
    /// (archive, member name) for an archive member (DTLTO).
    pub(crate) archive_member: Option<(String, String)>,
    /// The `.llvm.lto` section of a fat object (DTLTO).
    pub(crate) fat_lto_object: bool,
}

impl BitcodeFile {
    /// Reads a bitcode file, copying `buffer`.
    ///
    /// `module_id` names the file in messages and is LTO's module identifier,
    /// so it must be unique within one link (lld uses `archive(member at
    /// offset)` for archive members) and, for distributed ThinLTO later, the
    /// path the backend compiler will be given.
    pub fn open(buffer: &[u8], module_id: &str) -> Result<BitcodeFile, String> {
        Self::open_owned(buffer.to_vec(), module_id)
    }

    /// Like [`open`](Self::open) without the copy: the file keeps `owner`
    /// (e.g. an `Arc` of a memory map, or a `Vec<u8>`) alive, and then [`crate::Lto`]
    /// does, for as long as LLVM may read it. `owner.as_ref()` must return the
    /// same bytes every time (true of `Vec`, `Box<[u8]>`, `Arc<[u8]>`, maps).
    pub fn open_owned<B: AsRef<[u8]> + Send + Sync + 'static>(
        owner: B,
        module_id: &str,
    ) -> Result<BitcodeFile, String> {
        let bytes: Bytes = Box::new(owner);
        let (raw, data) = ffi::open_input((*bytes).as_ref(), module_id)
            .map_err(|e| format!("{module_id}: {e}"))?;
        Ok(BitcodeFile {
            raw,
            data,
            module_id: module_id.to_string(),
            bytes,
            archive_member: None,
            fat_lto_object: false,
        })
    }

    /// Says that this bitcode is member `member` (its name as the archive
    /// stores it) of the archive at `archive`, as lld tells LLVM. Only DTLTO
    /// ([`crate::LtoConfig::dtlto`]) uses it: an archive member has no file
    /// the remote compiler could read, so LLVM writes one (a thin archive's
    /// member is read where it lies).
    pub fn set_archive_member(&mut self, archive: &str, member: &str) {
        self.archive_member = Some((archive.to_string(), member.to_string()));
    }

    /// Says that this bitcode is the `.llvm.lto` section of a fat object
    /// (`--fat-lto-objects`), which DTLTO must likewise write to a file of
    /// its own for the remote compiler.
    pub fn set_fat_lto_object(&mut self) {
        self.fat_lto_object = true;
    }

    /// The module identifier given to [`open`](Self::open).
    pub fn module_id(&self) -> &str {
        &self.module_id
    }

    /// The number of symbols.
    pub fn num_symbols(&self) -> usize {
        self.data.symbols.len()
    }

    /// The symbols in irsymtab order: the order of [`crate::Lto::add`]'s
    /// resolutions and of the indices in [`crate::ModuleRefs`].
    pub fn symbols(&self) -> Symbols<'_> {
        Symbols {
            file: self,
            next: 0,
        }
    }

    /// Symbol number `index`, if there is one.
    pub fn symbol(&self, index: usize) -> Option<Symbol<'_>> {
        let r = self.data.symbols.get(index)?;
        let flags = SymbolFlags(r.flags);
        Some(Symbol {
            index: index as u32,
            name: self.data.str(r.name),
            ir_name: self.data.str(r.ir_name),
            flags,
            visibility: match r.visibility {
                1 => Visibility::Hidden,
                2 => Visibility::Protected,
                _ => Visibility::Default,
            },
            comdat: u32::try_from(r.comdat).ok(),
            common: flags.is_common().then_some(CommonInfo {
                size: r.common_size,
                align: r.common_align,
            }),
            section: (r.section.1 != 0).then(|| self.data.str(r.section)),
        })
    }

    /// The comdat groups; [`Symbol::comdat`] indexes this list.
    pub fn comdats(&self) -> impl ExactSizeIterator<Item = Comdat<'_>> + '_ {
        self.data.comdats.iter().map(|&(name, kind)| Comdat {
            name: self.data.str(name),
            selection: ComdatSelection::from_raw(kind),
        })
    }

    /// Whether LTO will compile this file with ThinLTO (some module in it
    /// carries the ThinLTO flag), as opposed to merging it into the full-LTO
    /// module.
    pub fn is_thin(&self) -> bool {
        self.data.is_thin
    }

    /// Whether every module carries a module summary (clang-22 writes one for
    /// both `-flto` and `-flto=thin`).
    pub fn has_summary(&self) -> bool {
        self.data.has_summary
    }

    /// Number of modules in the file (2 for a split LTO unit).
    pub fn num_modules(&self) -> u32 {
        self.data.num_modules
    }

    /// The target triple, e.g. `x86_64-unknown-linux-gnu`.
    pub fn target_triple(&self) -> &str {
        &self.data.target_triple
    }

    /// The source file name recorded at compile time (used in the GUIDs of
    /// local symbols).
    pub fn source_filename(&self) -> &str {
        &self.data.source_filename
    }

    /// The libraries the module names with `#pragma comment(lib, ...)`, in order: the
    /// linker adds them as it adds an object's `.deplibs`.
    pub fn dependent_libraries(&self) -> &[String] {
        &self.data.dependent_libraries
    }

    /// The file's bytes as given to [`open`](Self::open).
    pub fn bytes(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }

    pub(crate) fn guid(&self, index: usize) -> Option<u64> {
        let r = &self.data.symbols[index];
        (r.flags & SymbolFlags::HAS_GUID != 0).then_some(r.guid)
    }
}

impl fmt::Debug for BitcodeFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BitcodeFile")
            .field("module_id", &self.module_id)
            .field("symbols", &self.data.symbols.len())
            .field("is_thin", &self.data.is_thin)
            .finish()
    }
}
