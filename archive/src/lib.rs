//! Zero-copy reader for Unix `ar` archives, as consumed by a linker.
//!
//! The linker memory-maps an archive and hands its bytes to [`Archive::parse`].
//! Everything returned borrows from those bytes: member names, member data and
//! symbol names are slices of the input. Parsing costs one pass over the
//! symbol index and allocates only the symbol vector; members are decoded on
//! demand, either all in order ([`Archive::members`], for `--whole-archive`
//! or archives without an index) or one at a time from a symbol's member
//! offset ([`Archive::member_at`], for lazy symbol resolution).
//!
//! Supported layouts:
//!
//! * **GNU / System V** (`!<arch>\n`): a `/` symbol index (big-endian 32-bit
//!   count and offsets, then NUL-terminated names), its 64-bit variant
//!   `/SYM64/`, and a `//` table holding names longer than 15 bytes, which
//!   members reference as `/123`. Short names are terminated by `/`.
//! * **BSD / Darwin**: `__.SYMDEF`, `__.SYMDEF SORTED`, `__.SYMDEF_64` symbol
//!   indexes (little-endian `ranlib` records plus a string table) and `#1/NN`
//!   long names, whose `NN` bytes sit at the start of the member data.
//! * **Thin archives** (`!<thin>\n`): only headers, the symbol index and the
//!   name table live in the archive; each member is a separate file whose path
//!   (relative to the archive's directory unless absolute) is the member name.
//!   Reading those files is the caller's job; see [`Member::thin_path`].
//!
//! Every malformed input is reported as an [`ArchiveError`]; the reader never
//! panics and never indexes out of bounds, whatever the input.
//!
//! ```
//! let data = b"!<arch>\nhello.txt/      0           0     0     644     6         `\nhello\n";
//! let archive = archive::Archive::parse(data).unwrap();
//! let member = archive.members().next().unwrap().unwrap();
//! assert_eq!(member.name, b"hello.txt");
//! assert_eq!(member.bytes(), Some(&b"hello\n"[..]));
//! assert_eq!(archive::display_name("lib.a", member.name), "lib.a(hello.txt)");
//! ```

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

/// Magic bytes at the start of a regular archive.
pub const MAGIC: &[u8; 8] = b"!<arch>\n";

/// Magic bytes at the start of a thin archive.
pub const THIN_MAGIC: &[u8; 8] = b"!<thin>\n";

/// Size of a member header: name(16) date(12) uid(6) gid(6) mode(8) size(10)
/// terminator(2).
const HEADER_SIZE: usize = 60;

/// Byte range of the name field inside a header.
const NAME_FIELD: std::ops::Range<usize> = 0..16;

/// Byte range of the decimal size field inside a header.
const SIZE_FIELD: std::ops::Range<usize> = 48..58;

/// Byte range of the header terminator, which must be [`HEADER_END`].
const END_FIELD: std::ops::Range<usize> = 58..60;

/// Every member header ends with these two bytes; checking them catches most
/// misaligned or corrupt headers early.
const HEADER_END: &[u8; 2] = b"`\n";

/// Returns true if `data` starts with a regular or thin archive magic.
///
/// Linkers sniff input files by content rather than by extension, so this is
/// what decides whether an input goes to [`Archive::parse`].
pub fn is_archive(data: &[u8]) -> bool {
    data.starts_with(MAGIC) || data.starts_with(THIN_MAGIC)
}

/// Formats an archive member the way lld does in diagnostics:
/// `path/to/lib.a(member.o)`.
///
/// Member names are bytes in the archive; invalid UTF-8 is replaced rather
/// than rejected because this is only for messages.
pub fn display_name(archive_path: impl AsRef<Path>, member_name: &[u8]) -> String {
    // Put together by hand: a link names thousands of members, and `format!` through
    // `Path::display` costs several times as much for the same text.
    let path = archive_path.as_ref().to_string_lossy();
    let member = String::from_utf8_lossy(member_name);
    let mut name = String::with_capacity(path.len() + member.len() + 2);
    name.push_str(&path);
    name.push('(');
    name.push_str(&member);
    name.push(')');
    name
}

/// An error found while reading an archive.
///
/// Errors are plain messages that say what is wrong and where (usually the
/// byte offset of the offending member header), ready to be prefixed with the
/// archive's path by the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveError {
    message: String,
}

impl ArchiveError {
    /// Builds an error from a message; kept private so every error is
    /// produced by this crate's checks.
    fn new(message: impl Into<String>) -> Self {
        ArchiveError {
            message: message.into(),
        }
    }

    /// The human-readable description of the problem.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ArchiveError {}

/// Where a member's contents live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberData<'a> {
    /// The contents, borrowed from the archive (regular archives).
    Bytes(&'a [u8]),
    /// The member is a separate file (thin archives). `path` is the path
    /// stored in the archive: relative to the archive's directory unless
    /// absolute. `size` is the file size recorded when the archive was
    /// written, useful to detect a stale archive.
    Thin {
        /// Stored path of the member file (same bytes as [`Member::name`]).
        path: &'a [u8],
        /// Size of the member file according to the archive header.
        size: u64,
    },
}

/// One regular member of an archive (symbol indexes and name tables are not
/// members).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member<'a> {
    /// The decoded member name: GNU `/` terminators, BSD NUL padding and long
    /// name indirections are already resolved. For thin archives this is the
    /// member file's path. Bytes rather than `str` because archives do not
    /// promise UTF-8 and thin-archive paths must round-trip exactly.
    pub name: &'a [u8],
    /// Offset of the member's header from the start of the archive. It is
    /// stable and unique, and it is what symbol indexes refer to, so it
    /// serves as the member's identity (see [`Archive::member_at`]).
    pub header_offset: u64,
    /// The member's contents or, for thin archives, where to find them.
    pub data: MemberData<'a>,
}

impl<'a> Member<'a> {
    /// The member contents, or `None` for a thin-archive member (whose file
    /// the caller must read itself).
    pub fn bytes(&self) -> Option<&'a [u8]> {
        match self.data {
            MemberData::Bytes(bytes) => Some(bytes),
            MemberData::Thin { .. } => None,
        }
    }

    /// Size of the member contents in bytes.
    pub fn size(&self) -> u64 {
        match self.data {
            // A slice length always fits in u64 on supported targets.
            MemberData::Bytes(bytes) => bytes.len() as u64,
            MemberData::Thin { size, .. } => size,
        }
    }

    /// The member name as text, for diagnostics.
    pub fn name_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.name)
    }

    /// For a thin-archive member, the path of the member file, given the path
    /// the archive itself was opened with: stored relative paths are relative
    /// to the archive's directory (that is how GNU ar and llvm-ar write them),
    /// absolute ones are used as is. `None` for regular members.
    pub fn thin_path(&self, archive_path: &Path) -> Option<PathBuf> {
        let MemberData::Thin { path, .. } = self.data else {
            return None;
        };
        let path = bytes_to_path(path);
        if path.is_absolute() {
            return Some(path);
        }
        let dir = archive_path.parent().unwrap_or_else(|| Path::new(""));
        Some(dir.join(path))
    }
}

/// One entry of the archive's symbol index: a symbol defined by some member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbol<'a> {
    /// The symbol name (bytes, as in ELF symbol tables).
    pub name: &'a [u8],
    /// Header offset of the member defining the symbol; pass it to
    /// [`Archive::member_at`]. Not validated at parse time, so that one bad
    /// entry only matters if the linker actually needs that symbol.
    pub member_offset: u64,
}

/// A parsed archive: its symbol index, plus what is needed to decode members
/// on demand.
///
/// Parsing reads only the leading special members (symbol index, long-name
/// table), which `ar` always writes first. Regular members are decoded when
/// asked for, by [`Archive::members`] or [`Archive::member_at`], so a linker
/// that resolves lazy symbols through the index touches only the headers of
/// the members it actually loads: a large archive in the page cache is not
/// read end to end just to be opened.
#[derive(Debug, Clone)]
pub struct Archive<'a> {
    layout: Layout<'a>,
    has_symbol_table: bool,
    symbols: Vec<Symbol<'a>>,
    /// Offset of the first header after the leading special members.
    first_member: usize,
}

/// What decoding a header needs to know about its archive; `Copy`, so that
/// member iterators do not borrow the [`Archive`].
#[derive(Debug, Clone, Copy)]
struct Layout<'a> {
    data: &'a [u8],
    thin: bool,
    /// Contents of the `//` table, if the archive has one.
    long_names: Option<&'a [u8]>,
}

impl<'a> Archive<'a> {
    /// Parses an archive held in memory.
    ///
    /// Checks the magic, then reads the leading special members: the symbol
    /// index (parsed in full, O(symbols)) and the long-name table. Stops at
    /// the first regular member, whose header is decoded to make sure the
    /// archive is not garbage. Damage further on is reported when the member
    /// concerned is decoded, by [`Archive::members`] or
    /// [`Archive::member_at`]. An archive that is just the magic is valid and
    /// empty (glibc's `libpthread.a` is one).
    ///
    /// Like every `ar` writes them, the symbol index and the long-name table
    /// must come before the regular members to be used; copies found later
    /// are skipped and ignored.
    pub fn parse(data: &'a [u8]) -> Result<Archive<'a>, ArchiveError> {
        let thin = if data.starts_with(MAGIC) {
            false
        } else if data.starts_with(THIN_MAGIC) {
            true
        } else {
            return Err(ArchiveError::new(
                "not an archive: file does not start with \"!<arch>\\n\" or \"!<thin>\\n\"",
            ));
        };

        let mut archive = Archive {
            layout: Layout {
                data,
                thin,
                long_names: None,
            },
            has_symbol_table: false,
            symbols: Vec::new(),
            first_member: MAGIC.len(),
        };
        while archive.first_member < data.len() {
            let offset = archive.first_member;
            let (entry, next) = archive.layout.read_entry(offset)?;
            match entry {
                Entry::Member(_) => break,
                Entry::LongNames(table) => {
                    // A second table would be odd; the first is the one the
                    // members' references were written against.
                    if archive.layout.long_names.is_none() {
                        archive.layout.long_names = Some(table);
                    }
                }
                // Only the first index counts: it is the one `ar` maintains;
                // later ones (e.g. COFF's second `/`) are not meant for us.
                Entry::GnuSymbols { word, body } => {
                    if !archive.has_symbol_table {
                        archive.symbols = parse_gnu_symbols(body, word, offset)?;
                        archive.has_symbol_table = true;
                    }
                }
                Entry::BsdSymbols { name, body } => {
                    if !archive.has_symbol_table {
                        archive.symbols = parse_bsd_symbols(name, body, offset)?;
                        archive.has_symbol_table = true;
                    }
                }
            }
            archive.first_member = next;
        }
        Ok(archive)
    }

    /// True for a thin archive (`!<thin>\n`), whose members are external files.
    pub fn is_thin(&self) -> bool {
        self.layout.thin
    }

    /// True if the archive has a symbol index (it may still be empty). An
    /// archive built without one (`ar S`) needs its members scanned to find
    /// their symbols.
    pub fn has_symbol_table(&self) -> bool {
        self.has_symbol_table
    }

    /// The symbol index, in index order. Duplicate names are kept: the linker
    /// decides which definition wins.
    pub fn symbols(&self) -> &[Symbol<'a>] {
        &self.symbols
    }

    /// Iterates over the regular members in archive order, decoding each
    /// header as it goes (O(members), no allocation). Symbol indexes and
    /// long-name tables are skipped. A malformed member yields one `Err`,
    /// after which the iteration ends, since the next header cannot be
    /// located. Collect into `Result<Vec<_>, _>` to get all or nothing.
    pub fn members(&self) -> Members<'a> {
        Members {
            layout: self.layout,
            offset: self.first_member,
        }
    }

    /// The member whose header is at `header_offset`, typically a
    /// [`Symbol::member_offset`]. Decodes just that header. Fails if the
    /// offset is outside the archive or does not hold a regular member's
    /// header, which happens with a corrupt or stale symbol index.
    pub fn member_at(&self, header_offset: u64) -> Result<Member<'a>, ArchiveError> {
        let size = self.layout.data.len();
        let offset = usize::try_from(header_offset)
            .ok()
            .filter(|&offset| offset < size)
            .ok_or_else(|| {
                ArchiveError::new(format!(
                    "symbol table offset {header_offset} is outside the archive (size {size})"
                ))
            })?;
        let not_a_member = |why: &str| {
            ArchiveError::new(format!(
                "symbol table offset {header_offset} does not point at an archive member header{why}"
            ))
        };
        // Members follow the special members and start at even offsets;
        // anything else cannot be one of the headers `members` walks.
        if offset < self.first_member || offset % 2 == 1 {
            return Err(not_a_member(""));
        }
        match self.layout.read_entry(offset) {
            Ok((Entry::Member(member), _)) => Ok(member),
            Ok(_) => Err(not_a_member(" (it points at a symbol or name table)")),
            Err(error) => Err(not_a_member(&format!(": {error}"))),
        }
    }
}

impl<'a> Layout<'a> {
    /// Decodes the header at `offset` (a valid position in the header chain)
    /// and returns what it holds plus the offset of the next header.
    fn read_entry(&self, offset: usize) -> Result<(Entry<'a>, usize), ArchiveError> {
        let data = self.data;
        let header = read_header(data, offset)?;
        // read_header checked that the whole header is inside `data`.
        let body_start = offset + HEADER_SIZE;
        let name = classify_name(header.name, offset)?;
        // In thin archives only the index and the name table have their
        // contents inline; other members' contents are external files.
        let body = if !self.thin || name.is_gnu_special() {
            inline_body(data, body_start, header.size, offset).map_err(|e| {
                if name.is_gnu_special() {
                    return e;
                }
                // LLVM's wording, which lld prints for this corruption.
                let raw = String::from_utf8_lossy(header.name);
                let short = raw.trim_end().trim_end_matches('/');
                ArchiveError::new(format!(
                    "truncated or malformed archive (offset to next archive member past the end of the archive after member {short})"
                ))
            })?
        } else {
            &[]
        };
        let body_end = body_start + body.len();
        // Members start at even offsets; an odd-sized body is followed by one
        // padding byte (which may be missing at the very end of the file).
        let next = body_end + (body_end & 1);

        let member = |name: &'a [u8], body: &'a [u8]| {
            Entry::Member(Member {
                name,
                header_offset: offset as u64,
                data: if self.thin {
                    MemberData::Thin {
                        path: name,
                        size: header.size,
                    }
                } else {
                    MemberData::Bytes(body)
                },
            })
        };
        let entry = match name {
            RawName::GnuSymbols => Entry::GnuSymbols { word: 4, body },
            RawName::GnuSymbols64 => Entry::GnuSymbols { word: 8, body },
            RawName::GnuLongNames => Entry::LongNames(body),
            RawName::LongRef(index) => {
                let table = self.long_names.ok_or_else(|| {
                    ArchiveError::new(format!(
                        "archive member at offset {offset} refers to long name /{index} \
                         but no long-name table (//) precedes it"
                    ))
                })?;
                member(long_name(table, index, offset)?, body)
            }
            RawName::BsdLong(name_len) => {
                if self.thin {
                    return Err(ArchiveError::new(format!(
                        "archive member at offset {offset} has a BSD long name (#1/{name_len}), \
                         which thin archives cannot store"
                    )));
                }
                let (name, rest) = usize::try_from(name_len)
                    .ok()
                    .and_then(|len| body.split_at_checked(len))
                    .ok_or_else(|| {
                        ArchiveError::new(format!(
                            "archive member at offset {offset}: BSD long name length \
                             {name_len} exceeds member size {}",
                            header.size
                        ))
                    })?;
                // The name is NUL-padded so that the contents after it are aligned.
                let name = trim_end(name, 0);
                if is_bsd_symbol_table(name) {
                    Entry::BsdSymbols { name, body: rest }
                } else {
                    member(name, rest)
                }
            }
            RawName::Short(name) if !self.thin && is_bsd_symbol_table(name) => {
                Entry::BsdSymbols { name, body }
            }
            RawName::Short(name) => member(name, body),
        };
        Ok((entry, next))
    }
}

/// Iterator over an archive's regular members; see [`Archive::members`].
#[derive(Debug, Clone)]
pub struct Members<'a> {
    layout: Layout<'a>,
    /// Next header to decode; past the end once finished or after an error.
    offset: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = Result<Member<'a>, ArchiveError>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.offset < self.layout.data.len() {
            match self.layout.read_entry(self.offset) {
                Ok((Entry::Member(member), next)) => {
                    self.offset = next;
                    return Some(Ok(member));
                }
                // Special members are not listed.
                Ok((_, next)) => self.offset = next,
                Err(error) => {
                    self.offset = usize::MAX;
                    return Some(Err(error));
                }
            }
        }
        None
    }
}

impl std::iter::FusedIterator for Members<'_> {}

/// What a header holds, once its name is decoded.
enum Entry<'a> {
    /// GNU symbol index; `word` is 4 for `/`, 8 for `/SYM64/`.
    GnuSymbols { word: usize, body: &'a [u8] },
    /// BSD symbol index named `name` (`__.SYMDEF`...).
    BsdSymbols { name: &'a [u8], body: &'a [u8] },
    /// GNU long-name table.
    LongNames(&'a [u8]),
    /// A regular member.
    Member(Member<'a>),
}

/// The fields of a member header this reader needs.
struct RawHeader<'a> {
    /// The 16-byte name field, undecoded.
    name: &'a [u8],
    /// The decoded size field.
    size: u64,
}

/// Reads and checks the header at `offset`.
fn read_header(data: &[u8], offset: usize) -> Result<RawHeader<'_>, ArchiveError> {
    let header = offset
        .checked_add(HEADER_SIZE)
        .and_then(|end| data.get(offset..end))
        .ok_or_else(|| {
            ArchiveError::new(format!(
                "truncated archive member header at offset {offset}: {} bytes left, a header needs {HEADER_SIZE}",
                data.len().saturating_sub(offset)
            ))
        })?;
    // `header` is exactly HEADER_SIZE bytes, so these constant ranges are in bounds.
    if &header[END_FIELD] != HEADER_END {
        return Err(ArchiveError::new(format!(
            "invalid archive member header at offset {offset}: missing \"`\\n\" terminator"
        )));
    }
    let size_field = &header[SIZE_FIELD];
    let size = parse_decimal(size_field).ok_or_else(|| {
        ArchiveError::new(format!(
            "invalid archive member size field \"{}\" in header at offset {offset}",
            String::from_utf8_lossy(size_field).escape_debug()
        ))
    })?;
    Ok(RawHeader {
        name: &header[NAME_FIELD],
        size,
    })
}

/// The contents of a member whose data is stored in the archive.
fn inline_body(
    data: &[u8],
    body_start: usize,
    size: u64,
    header_offset: usize,
) -> Result<&[u8], ArchiveError> {
    usize::try_from(size)
        .ok()
        .and_then(|size| body_start.checked_add(size))
        .and_then(|end| data.get(body_start..end))
        .ok_or_else(|| {
            ArchiveError::new(format!(
                "archive member at offset {header_offset} has size {size}, \
                 which extends past the end of the archive (size {})",
                data.len()
            ))
        })
}

/// What a header's name field says, before long names are resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RawName<'a> {
    /// `/`: GNU 32-bit symbol index.
    GnuSymbols,
    /// `/SYM64/`: GNU 64-bit symbol index.
    GnuSymbols64,
    /// `//`: GNU long-name table.
    GnuLongNames,
    /// `/123`: name at this offset in the long-name table.
    LongRef(u64),
    /// `#1/12`: BSD name stored in the first 12 bytes of the contents.
    BsdLong(u64),
    /// A name stored in the field itself (BSD symbol index names included).
    Short(&'a [u8]),
}

impl RawName<'_> {
    /// GNU special members, whose contents are inline even in thin archives.
    fn is_gnu_special(&self) -> bool {
        matches!(
            self,
            RawName::GnuSymbols | RawName::GnuSymbols64 | RawName::GnuLongNames
        )
    }
}

/// Decodes a 16-byte name field.
fn classify_name(field: &[u8], header_offset: usize) -> Result<RawName<'_>, ArchiveError> {
    // Special names, long-name references and BSD `#1/NN` names end at the
    // first space; whatever follows is ignored. This matters: for a thin
    // member whose name is exactly 15 bytes, GNU ar writes "/32" over the
    // short name "fifteen_chars.o/" and leaves its final '/' behind, giving
    // "/32            /".
    let token = match field.iter().position(|&b| b == b' ') {
        Some(end) => &field[..end],
        None => field,
    };
    match token {
        b"/" => return Ok(RawName::GnuSymbols),
        b"/SYM64/" => return Ok(RawName::GnuSymbols64),
        b"//" => return Ok(RawName::GnuLongNames),
        _ => {}
    }
    // Only "#1/" followed by a number is a BSD long name; anything else
    // starting with '#' is an ordinary (GNU or BSD) short name.
    if let Some(len) = token.strip_prefix(b"#1/").and_then(parse_decimal) {
        return Ok(RawName::BsdLong(len));
    }
    if let Some(reference) = token.strip_prefix(b"/") {
        // A GNU short name cannot start with '/', its terminator, so this
        // must be a long-name reference.
        return parse_decimal(reference)
            .map(RawName::LongRef)
            .ok_or_else(|| {
                ArchiveError::new(format!(
                    "invalid archive member name \"{}\" in header at offset {header_offset}",
                    String::from_utf8_lossy(trim_end(field, b' ')).escape_debug()
                ))
            });
    }
    // GNU short names end at '/', which lets them contain spaces; BSD names
    // have no terminator and are space-padded. Neither may contain '/' itself.
    Ok(RawName::Short(
        match field.iter().position(|&b| b == b'/') {
            Some(end) => &field[..end],
            None => trim_end(field, b' '),
        },
    ))
}

/// Resolves a `/index` reference against the `//` table. Entries end with
/// "/\n" (GNU); a bare "\n" or NUL terminator, or the end of the table, is
/// also accepted since nothing is gained by rejecting those.
fn long_name(table: &[u8], index: u64, header_offset: usize) -> Result<&[u8], ArchiveError> {
    let rest = usize::try_from(index)
        .ok()
        .and_then(|index| table.get(index..))
        .filter(|rest| !rest.is_empty())
        .ok_or_else(|| {
            ArchiveError::new(format!(
                "archive member at offset {header_offset} refers to long name /{index}, \
                 outside the long-name table (size {})",
                table.len()
            ))
        })?;
    let end = rest
        .iter()
        .position(|&b| b == b'\n' || b == 0)
        .unwrap_or(rest.len());
    let name = &rest[..end];
    Ok(name.strip_suffix(b"/").unwrap_or(name))
}

/// True for the names BSD and Darwin `ranlib` give their symbol index.
fn is_bsd_symbol_table(name: &[u8]) -> bool {
    matches!(
        name,
        b"__.SYMDEF" | b"__.SYMDEF SORTED" | b"__.SYMDEF_64" | b"__.SYMDEF_64 SORTED"
    )
}

/// Parses a GNU symbol index: a big-endian count, that many big-endian member
/// offsets, then that many NUL-terminated names. `word` is 4 for `/` and 8
/// for `/SYM64/`.
fn parse_gnu_symbols(
    body: &[u8],
    word: usize,
    header_offset: usize,
) -> Result<Vec<Symbol<'_>>, ArchiveError> {
    let truncated = || {
        ArchiveError::new(format!(
            "truncated symbol table at offset {header_offset}: {} bytes cannot hold its entry count and offsets",
            body.len()
        ))
    };
    let count = read_uint(body, 0, word, Endian::Big).ok_or_else(truncated)?;
    // Bounding the count by the bytes present keeps a hostile count from
    // causing a huge allocation.
    let offsets_end = usize::try_from(count)
        .ok()
        .and_then(|count| count.checked_mul(word))
        .and_then(|len| len.checked_add(word))
        .filter(|&end| end <= body.len())
        .ok_or_else(truncated)?;
    let (offsets, names) = body.split_at(offsets_end);
    let offsets = offsets.get(word..).unwrap_or_default();

    let mut symbols = Vec::with_capacity(offsets.len() / word);
    let mut rest = names;
    for offset in offsets.chunks_exact(word) {
        if rest.is_empty() {
            return Err(ArchiveError::new(format!(
                "symbol table at offset {header_offset} lists {count} symbols but has only {} names",
                symbols.len()
            )));
        }
        let (name, after) = split_c_string(rest);
        rest = after;
        symbols.push(Symbol {
            name,
            member_offset: read_uint(offset, 0, word, Endian::Big).unwrap_or_default(),
        });
    }
    Ok(symbols)
}

/// Parses a BSD symbol index: the byte size of an array of `ranlib` records
/// (string offset, member header offset), the array, the byte size of the
/// string table, and the table. All little-endian, as llvm-ar and Apple's
/// tools write them for little-endian targets; 64-bit fields for
/// `__.SYMDEF_64`.
fn parse_bsd_symbols<'a>(
    name: &[u8],
    body: &'a [u8],
    header_offset: usize,
) -> Result<Vec<Symbol<'a>>, ArchiveError> {
    let word = if name.starts_with(b"__.SYMDEF_64") {
        8
    } else {
        4
    };
    let malformed = |what: &str| {
        ArchiveError::new(format!(
            "malformed BSD symbol table at offset {header_offset}: {what}"
        ))
    };
    let ranlibs_size = read_uint(body, 0, word, Endian::Little)
        .and_then(|size| usize::try_from(size).ok())
        .ok_or_else(|| malformed("truncated before the size of its symbol array"))?;
    let record = 2 * word;
    if ranlibs_size % record != 0 {
        return Err(malformed(&format!(
            "symbol array size {ranlibs_size} is not a multiple of {record}"
        )));
    }
    let ranlibs = word
        .checked_add(ranlibs_size)
        .and_then(|end| body.get(word..end))
        .ok_or_else(|| {
            malformed(&format!(
                "symbol array size {ranlibs_size} exceeds the member"
            ))
        })?;
    // `ranlibs` ends here, so this is in bounds and cannot overflow.
    let strings_start = word + ranlibs.len();
    let strings_size = read_uint(body, strings_start, word, Endian::Little)
        .and_then(|size| usize::try_from(size).ok())
        .ok_or_else(|| malformed("truncated before the size of its string table"))?;
    let strings = strings_start
        .checked_add(word)
        .and_then(|start| Some(start..start.checked_add(strings_size)?))
        .and_then(|range| body.get(range))
        .ok_or_else(|| {
            malformed(&format!(
                "string table size {strings_size} exceeds the member"
            ))
        })?;

    let mut symbols = Vec::with_capacity(ranlibs.len() / record);
    for ranlib in ranlibs.chunks_exact(record) {
        let name_offset = read_uint(ranlib, 0, word, Endian::Little).unwrap_or_default();
        let member_offset = read_uint(ranlib, word, word, Endian::Little).unwrap_or_default();
        let rest = usize::try_from(name_offset)
            .ok()
            .and_then(|start| strings.get(start..))
            .filter(|rest| !rest.is_empty())
            .ok_or_else(|| {
                malformed(&format!(
                    "symbol name offset {name_offset} is outside its string table (size {strings_size})"
                ))
            })?;
        symbols.push(Symbol {
            name: split_c_string(rest).0,
            member_offset,
        });
    }
    Ok(symbols)
}

/// Byte order of symbol index fields.
#[derive(Clone, Copy)]
enum Endian {
    Big,
    Little,
}

/// Reads a `width`-byte (4 or 8) unsigned integer at `offset`, or `None` if
/// it does not fit in `data`.
fn read_uint(data: &[u8], offset: usize, width: usize, endian: Endian) -> Option<u64> {
    let bytes = data.get(offset..offset.checked_add(width)?)?;
    let fold = |acc: u64, &b: &u8| (acc << 8) | u64::from(b);
    Some(match endian {
        Endian::Big => bytes.iter().fold(0, fold),
        Endian::Little => bytes.iter().rev().fold(0, fold),
    })
}

/// Splits at the first NUL: (string, rest after the NUL). A string running
/// to the end of `data` without a NUL is accepted.
fn split_c_string(data: &[u8]) -> (&[u8], &[u8]) {
    // memchr: an index holds every defined name of every member (megabytes in a big link).
    match memchr::memchr(0, data) {
        Some(end) => (&data[..end], &data[end + 1..]),
        None => (data, &[]),
    }
}

/// Parses an ASCII decimal header field: at least one digit, then only
/// spaces. `None` if malformed or if the value overflows.
fn parse_decimal(field: &[u8]) -> Option<u64> {
    let digits_end = field.iter().position(|&b| b == b' ').unwrap_or(field.len());
    let (digits, padding) = field.split_at(digits_end);
    if digits.is_empty() || padding.iter().any(|&b| b != b' ') {
        return None;
    }
    digits.iter().try_fold(0u64, |acc, &b| {
        if !b.is_ascii_digit() {
            return None;
        }
        acc.checked_mul(10)?.checked_add(u64::from(b - b'0'))
    })
}

/// `data` without trailing `pad` bytes.
fn trim_end(data: &[u8], pad: u8) -> &[u8] {
    let end = data
        .iter()
        .rposition(|&b| b != pad)
        .map_or(0, |last| last + 1);
    &data[..end]
}

/// Converts a stored path to a `PathBuf` without loss on Unix, where paths
/// are bytes.
fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

#[cfg(test)]
mod tests;
