//! Lazy symbols and the archive members behind them. An archive contributes its index (or, without
//! one, each member's defined names) and a `--start-lib` object its defined names as lazy symbols;
//! a non-weak reference that meets one loads the member, which `--why-extract` records.
//! Archives, command-line objects and the members about to be loaded are read ahead of need on
//! the thread pool (`work_ahead`).

use super::work_ahead::Ahead;
use super::{ArchiveInput, Extraction, LazySource, Resolver, BITCODE_REFERRER};
use crate::config::Input;
use crate::error::Result;
use crate::input::input_files;
use crate::input::input_files::{classify, FileId, FileKind, ObjectFile};
use crate::resolve::symbol_table::{GlobalNames, NameHasher, SymbolDef, SymbolId};
use crate::{bail, err};
use hashbrown::HashSet;
use object::elf;
use object::read::elf::Sym;
use object::LittleEndian as LE;
use std::path::{Path, PathBuf};

/// An archive member: the archive's index in `Resolved::archives` and the member's header
/// offset.
pub(super) type MemberKey = (u32, u64);

/// What parsing a member needs: its display name, its archive's path and its bytes.
pub(super) struct MemberJob {
    pub display: String,
    pub archive_path: Option<String>,
    pub data: &'static [u8],
}

/// A member parsed for resolution, with its global names hashed as the symbol table hashes
/// them.
pub(super) type ParsedMember = Result<(ObjectFile, GlobalNames)>;

/// Archive members parsed ahead of need: when an archive is read, the members its index says
/// the references made so far will load, and when an object is added, the members its non-weak
/// references are about to load ([`Resolver::parse_ahead`]).
pub(super) type MembersAhead = Ahead<MemberKey, MemberJob, ParsedMember>;

pub(super) fn members_ahead(hasher: &NameHasher) -> MembersAhead {
    let hasher = hasher.clone();
    Ahead::new(move |job: MemberJob| {
        let file = ObjectFile::parse_for_resolution(job.display, job.archive_path, job.data)?;
        let names = GlobalNames::of(&file, &hasher);
        Ok((file, names))
    })
}

/// An input file mapped and, if it is an archive or an object, read as resolution reads it.
pub(super) type InputRead = Result<(&'static [u8], Option<ReadAhead>)>;

/// What reading an input ahead made of it.
pub(super) enum ReadAhead {
    Archive(ArchiveRead),
    Object(ParsedMember),
}

/// The command line's inputs mapped, and their archives and objects read, ahead of
/// resolution, which requests them all when it starts ([`Resolver::read_inputs_ahead`]) and
/// takes each when it gets to it.
pub(super) type InputsAhead = Ahead<PathBuf, PathBuf, InputRead>;

pub(super) fn inputs_ahead(hasher: &NameHasher) -> InputsAhead {
    let hasher = hasher.clone();
    Ahead::new(move |path: PathBuf| {
        let data = input_files::map_file(&path)?;
        let read = match classify(data) {
            FileKind::Archive => Some(ReadAhead::Archive(read_archive(&path, data, &hasher))),
            FileKind::ElfRelocatable => {
                let name = path.display().to_string();
                Some(ReadAhead::Object(
                    ObjectFile::parse_for_resolution(name, None, data).map(|file| {
                        let names = GlobalNames::of(&file, &hasher);
                        (file, names)
                    }),
                ))
            }
            _ => None,
        };
        Ok((data, read))
    })
}

/// An archive as resolution reads it when it meets it: lld's warnings for members that can never
/// join the link, in member order, then the index, or the error that stops the link.
pub(super) struct ArchiveRead {
    warnings: Vec<String>,
    index: Result<ArchiveIndex>,
}

/// What an archive offers resolution.
struct ArchiveIndex {
    archive: archive::Archive<'static>,
    /// The index: each name with the header offset of the member defining it, and the name's
    /// hash for the symbol table.
    symbols: Vec<(&'static [u8], u64)>,
    hashes: Vec<u64>,
    has_symbol_table: bool,
    /// Every member's header offset.
    offsets: Vec<u64>,
}

/// Reads archive `path` (`data`): its members' headers (walked once, as lld does when it opens
/// an archive, so corruption is reported up front and not only if a damaged member happens to
/// be needed) and its index. Independent of the symbol table, so it may run ahead.
pub(super) fn read_archive(path: &Path, data: &'static [u8], hasher: &NameHasher) -> ArchiveRead {
    let mut warnings = Vec::new();
    let index = index_archive(path, data, hasher, &mut warnings);
    ArchiveRead { warnings, index }
}

fn index_archive(
    path: &Path,
    data: &'static [u8],
    hasher: &NameHasher,
    warnings: &mut Vec<String>,
) -> Result<ArchiveIndex> {
    let archive = archive::Archive::parse(data).map_err(|e| {
        // lld reports member-chain corruption through LLVM's Archive::children.
        let what = if e.message().starts_with("truncated or malformed") {
            "Archive::children failed: "
        } else {
            ""
        };
        err!("{}: {what}{e}", path.display())
    })?;
    for m in archive.members() {
        let m = match m {
            Ok(m) => m,
            Err(e) => bail!("{}: Archive::children failed: {e}", path.display()),
        };
        // lld's warning for a member that can never join the link (a nested archive, a text
        // file, a shared object). Thin members are read only when needed.
        if member_can_join(path, &m) == Some(false) {
            warnings.push(format!(
                "{}: archive member '{}' is neither ET_REL nor LLVM bitcode",
                path.display(),
                String::from_utf8_lossy(m.name)
            ));
        }
    }
    let symbols: Vec<(&'static [u8], u64)> = archive
        .symbols()
        .iter()
        .map(|s| (s.name, s.member_offset))
        .collect();
    let hashes = symbols.iter().map(|&(name, _)| hasher.hash(name)).collect();
    let has_symbol_table = archive.has_symbol_table();
    let offsets: Vec<u64> = archive
        .members()
        .map(|m| m.map(|m| m.header_offset))
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| err!("{}: {e}", path.display()))?;
    Ok(ArchiveIndex {
        archive,
        symbols,
        hashes,
        has_symbol_table,
        offsets,
    })
}

impl Resolver<'_> {
    /// lld's `handleLibcall`: with bitcode in the link, an archive member whose *bitcode*
    /// defines a runtime library function is loaded before LTO, since LTO's output may call it
    /// and bitcode cannot join the link after LTO. Native definitions are loaded after LTO,
    /// when a call appears.
    pub(super) fn load_libcall_members(&mut self) -> Result<()> {
        if self.out.bitcode.is_empty() {
            return Ok(());
        }
        let names =
            crate::resolve::libcalls::runtime_libcalls(self.out.bitcode_triple().as_deref());
        let mut ids: Vec<SymbolId> = names
            .iter()
            .filter_map(|n| self.out.symtab.lookup(n))
            .collect();
        ids.sort_unstable();
        for id in ids {
            let SymbolDef::Lazy { archive, member } = self.out.symtab.get(id).def else {
                continue;
            };
            let is_bitcode = self
                .lazy_member(archive, member)?
                .is_some_and(|(_, data)| classify(data) == FileKind::Bitcode);
            if is_bitcode {
                self.load_member(archive, member, Some(id), None, false)?;
            }
        }
        Ok(())
    }

    /// Adds archive `path`: its index becomes lazy symbols (`read`: the archive read ahead, if
    /// it was).
    pub(super) fn add_archive(
        &mut self,
        path: &Path,
        data: &'static [u8],
        input: &Input,
        read: Option<ArchiveRead>,
    ) -> Result<()> {
        let read = read.unwrap_or_else(|| read_archive(path, data, self.out.symtab.hasher()));
        for msg in &read.warnings {
            if let Err(e) = self.config.warn(msg) {
                self.errors.push(e);
            }
        }
        let ArchiveIndex {
            archive: parsed,
            symbols,
            hashes,
            has_symbol_table,
            offsets,
        } = read.index?;
        let index = self.out.archives.len() as u32;
        self.out.archives.push(ArchiveInput {
            path: path.to_path_buf(),
            source: LazySource::Archive(parsed),
            loaded: HashSet::new(),
        });
        if input.state.whole_archive {
            for off in offsets {
                self.load_member(index, off, None, None, true)?;
            }
            return Ok(());
        }
        if !has_symbol_table {
            self.index_archive_without_symtab(index, &offsets)?;
            return Ok(());
        }
        // Each index name is hashed once (in `read_archive`), for the look-ahead below and for
        // the table.
        if self.ahead.enabled() {
            // The members the references made so far load as the index is read.
            let symtab = &self.out.symtab;
            let wanted: Vec<(u32, u64)> = symbols
                .iter()
                .zip(&hashes)
                .enumerate()
                .filter(|&(i, (&(name, _), &hash))| {
                    symtab.prefetch_ahead(&hashes, i);
                    symtab.lookup_hashed(name, hash).is_some_and(|id| {
                        let s = symtab.get(id);
                        s.def == SymbolDef::Undefined
                            && ((s.referenced && !s.weak) || s.dso_needs_definition)
                    })
                })
                .map(|(_, (&(_, member), _))| (index, member))
                .collect();
            self.parse_ahead(&wanted);
        }
        for (i, (&(name, member), &hash)) in symbols.iter().zip(&hashes).enumerate() {
            self.out.symtab.prefetch_ahead(&hashes, i);
            self.add_lazy_hashed(name, hash, index, member)?;
        }
        Ok(())
    }

    /// An object between `--start-lib` and `--end-lib`: its defined symbols become lazy, as an
    /// archive member's would (lld's `LazyObject`).
    pub(super) fn add_lazy_object(
        &mut self,
        path: &Path,
        data: &'static [u8],
        kind: FileKind,
    ) -> Result<()> {
        let index = self.out.archives.len() as u32;
        self.out.archives.push(ArchiveInput {
            path: path.to_path_buf(),
            source: LazySource::Object(data),
            loaded: HashSet::new(),
        });
        for name in defined_names(path.display().to_string(), data, kind)? {
            self.add_lazy(name, index, 0)?;
        }
        Ok(())
    }

    /// lld accepts archives without a symbol index by reading each member's symbols.
    fn index_archive_without_symtab(&mut self, index: u32, offsets: &[u64]) -> Result<()> {
        for &off in offsets {
            let Some((name, data)) = self.lazy_member(index, off)? else {
                continue;
            };
            let kind = classify(data);
            if kind != FileKind::ElfRelocatable {
                continue;
            }
            self.out.members_parsed += 1;
            for sym in defined_names(name, data, kind)? {
                self.add_lazy(sym, index, off)?;
            }
        }
        Ok(())
    }

    /// The display name (`lib.a(member.o)`, or the path of a lazy object) and the bytes of
    /// lazy member `offset` of `index` (`None`: nothing to load).
    fn lazy_member(&self, index: u32, offset: u64) -> Result<Option<(String, &'static [u8])>> {
        let a = &self.out.archives[index as usize];
        let m = match &a.source {
            LazySource::Object(data) => return Ok(Some((a.path.display().to_string(), data))),
            LazySource::Archive(archive) => archive
                .member_at(offset)
                .map_err(|e| err!("{}: {e}", a.path.display()))?,
        };
        let display = archive::display_name(&a.path, m.name);
        let data = match m.data {
            archive::MemberData::Bytes(b) => b,
            archive::MemberData::Thin { .. } => {
                let p = m.thin_path(&a.path).ok_or_else(|| {
                    err!("{}: invalid thin archive member name", a.path.display())
                })?;
                input_files::map_file(&p)?
            }
        };
        Ok(Some((display, data)))
    }

    /// lld's `isNonCommonDef`: lazy member `member` of `archive` defines `name` as a global
    /// symbol that is not common (bitcode members are not looked into).
    pub(super) fn defines_non_common(
        &self,
        archive: u32,
        member: u64,
        name: &[u8],
    ) -> Result<bool> {
        let Some((display, data)) = self.lazy_member(archive, member)? else {
            return Ok(false);
        };
        if classify(data) != FileKind::ElfRelocatable {
            return Ok(false);
        }
        let obj = ObjectFile::parse_for_resolution(display, None, data)?;
        Ok((obj.first_global..obj.symbols.len())
            .find(|&i| obj.sym_name(i) == name)
            .is_some_and(|i| {
                let s = &obj.symbols[i];
                let shndx = s.st_shndx(LE);
                shndx != elf::SHN_UNDEF
                    && shndx != elf::SHN_COMMON
                    && s.st_bind() == elf::STB_GLOBAL
            }))
    }

    fn add_lazy(&mut self, name: &'static [u8], archive: u32, member: u64) -> Result<()> {
        let hash = self.out.symtab.hasher().hash(name);
        self.add_lazy_hashed(name, hash, archive, member)
    }

    /// [`add_lazy`](Self::add_lazy) with the name's hash already computed.
    fn add_lazy_hashed(
        &mut self,
        name: &'static [u8],
        hash: u64,
        archive: u32,
        member: u64,
    ) -> Result<()> {
        let id = self.out.symtab.intern_hashed(name, hash);
        let sym = self.out.symtab.get(id).clone();
        // lld: an undefined reference with non-default visibility must be satisfied in this
        // output, so a shared library's definition does not do and the member is loaded.
        if matches!(sym.def, SymbolDef::Shared { .. }) && sym.visibility != elf::STV_DEFAULT {
            return self.fetch(archive, member, id);
        }
        // --fortran-common: a member with a real definition of a common symbol is loaded.
        if matches!(sym.def, SymbolDef::Common { .. })
            && self.config.fortran_common
            && self.defines_non_common(archive, member, name)?
        {
            // Not an extraction lld reports in --why-extract.
            return self.load_member(archive, member, None, None, false);
        }
        // Only an undefined name becomes lazy: the first archive that defines a name wins.
        if sym.def == SymbolDef::Undefined {
            if (sym.referenced && !sym.weak) || sym.dso_needs_definition {
                self.fetch(archive, member, id)?;
            } else {
                self.out.symtab.get_mut(id).def = SymbolDef::Lazy { archive, member };
                if self.is_traced(id) {
                    let file = self
                        .lazy_member(archive, member)?
                        .map(|(n, _)| n)
                        .unwrap_or_default();
                    self.trace_symbol(id, &file, "lazy definition of");
                }
            }
        }
        Ok(())
    }

    fn fetch(&mut self, archive: u32, member: u64, for_symbol: SymbolId) -> Result<()> {
        let referrer = self.out.symtab.get(for_symbol).first_referrer;
        self.load_member(archive, member, Some(for_symbol), referrer, false)
    }

    pub(super) fn load_member(
        &mut self,
        archive: u32,
        offset: u64,
        for_symbol: Option<SymbolId>,
        referrer: Option<FileId>,
        whole: bool,
    ) -> Result<()> {
        if !self.out.archives[archive as usize].loaded.insert(offset) {
            return Ok(());
        }
        let Some((display, data)) = self.lazy_member(archive, offset)? else {
            return Ok(());
        };
        self.out.members_parsed += 1;
        let bitcode = match classify(data) {
            FileKind::ElfRelocatable => false,
            FileKind::Bitcode => true,
            _ if whole => {
                // rlibs carry `lib.rmeta`; lld skips members that are not objects.
                return Ok(());
            }
            _ => bail!("{display}: not an ELF relocatable object"),
        };
        // lld records an extraction once the member and everything it pulled in are loaded.
        let record = for_symbol.map(|symbol| Extraction {
            reference: self.referrer_name(referrer),
            extracted: display.clone(),
            symbol,
        });
        // Which member it is, for the module id of its bitcode (or its `.llvm.lto` section's).
        let a = &self.out.archives[archive as usize];
        let member_name = match &a.source {
            LazySource::Archive(ar) => Some(
                ar.member_at(offset)
                    .map_err(|e| err!("{}: {e}", a.path.display()))?
                    .name,
            ),
            LazySource::Object(_) => None,
        };
        let path = a.path.clone();
        let origin = member_name.map(|name| super::thin_index::MemberOrigin {
            archive: &path,
            name,
            header_offset: offset,
        });
        if bitcode {
            self.loading_member = true;
            let r = self.add_bitcode(display, data, origin);
            self.loading_member = false;
            r?;
        } else {
            // A lazy object is no archive member (`--exclude-libs` does not apply to it).
            let (file, names) = match self.ahead.take(&(archive, offset)) {
                Some(parsed) => {
                    let (file, names) = parsed?;
                    (file, Some(names))
                }
                None => {
                    let archive_path = member_name.is_some().then(|| path.display().to_string());
                    (
                        ObjectFile::parse_for_resolution(display, archive_path, data)?,
                        None,
                    )
                }
            };
            self.add_object_or_fat_bitcode(file, names, origin)?;
        }
        self.out.extractions.extend(record);
        Ok(())
    }

    /// Hands the ELF members behind `members` (lazy symbols a new object's non-weak references
    /// are about to meet, in order) to the pool to parse ahead (`parse_ahead`).
    pub(super) fn parse_ahead(&self, members: &[(u32, u64)]) {
        let mut jobs = Vec::new();
        // The first member is loaded (and so parsed) right away: the pool starts at the
        // second, while resolution parses and adds the first.
        for &(archive, offset) in members.iter().skip(1) {
            let key = (archive, offset);
            if self.out.archives[archive as usize].loaded.contains(&offset)
                || self.ahead.requested(&key)
            {
                continue;
            }
            // Errors are left for the load to report, where they would come without the pool.
            let Ok(Some((display, data))) = self.lazy_member(archive, offset) else {
                continue;
            };
            if classify(data) != FileKind::ElfRelocatable {
                continue;
            }
            let a = &self.out.archives[archive as usize];
            let archive_path = matches!(a.source, LazySource::Archive(_))
                .then(|| a.path.to_string_lossy().into_owned());
            let job = MemberJob {
                display,
                archive_path,
                data,
            };
            jobs.push((key, job));
        }
        self.ahead.request(jobs);
    }

    /// Loads the members that non-weak references met as lazy symbols. `referrer` is the
    /// file whose reference triggered the loads (what `--why-extract` names, as lld).
    pub(super) fn fetch_all(
        &mut self,
        lazy_fetches: Vec<(u32, u64, SymbolId)>,
        referrer: u32,
    ) -> Result<()> {
        for (archive, member, sid) in lazy_fetches {
            // Re-check: an earlier fetch may already have defined the symbol.
            let sym = self.out.symtab.get(sid);
            if matches!(sym.def, SymbolDef::Lazy { .. }) {
                // A member loaded for --fortran-common (a common met it, nothing referred to
                // it) is not an extraction lld reports.
                let for_symbol = sym.referenced.then_some(sid);
                self.load_member(archive, member, for_symbol, Some(referrer), false)?;
            }
        }
        Ok(())
    }

    /// The name `--why-extract` prints for what referred to a symbol.
    pub(super) fn referrer_name(&self, referrer: Option<u32>) -> String {
        match referrer {
            Some(r) if r & BITCODE_REFERRER != 0 => self.out.bitcode
                [(r & !BITCODE_REFERRER) as usize]
                .name
                .clone(),
            Some(f) => self.out.files[f as usize].name.clone(),
            // lld attributes -u and the entry symbol to its internal file.
            None => "<internal>".to_string(),
        }
    }
}

/// The names a lazy object (archive member or `--start-lib` object) defines: its symbols that
/// can satisfy an undefined reference.
fn defined_names(name: String, data: &'static [u8], kind: FileKind) -> Result<Vec<&'static [u8]>> {
    if kind == FileKind::Bitcode {
        let bc = lto::BitcodeFile::open_owned(data, &name).map_err(|e| err!("{e}"))?;
        return Ok(bc
            .symbols()
            .filter(|s| !s.flags.is_undefined())
            .map(|s| &*Box::leak(s.name.to_vec().into_boxed_slice()))
            .collect());
    }
    let obj = ObjectFile::parse_for_resolution(name, None, data)?;
    Ok((obj.first_global..obj.symbols.len())
        .filter(|&i| obj.symbols[i].st_shndx(LE) != elf::SHN_UNDEF)
        .map(|i| obj.sym_name(i))
        .collect())
}

/// Whether archive member `m` of the archive at `path` is a relocatable object or bitcode, the
/// only kinds that can join a link; `None` when a thin member's file cannot be read (loading it
/// reports that, if it is ever needed). A thin member's first bytes are read from its file.
pub fn member_can_join(path: &Path, m: &archive::Member<'_>) -> Option<bool> {
    let joinable = |b: &[u8]| matches!(classify(b), FileKind::ElfRelocatable | FileKind::Bitcode);
    match m.bytes() {
        Some(bytes) => Some(joinable(bytes)),
        None => {
            use std::io::Read;
            let mut head = [0u8; 64];
            let mut f = std::fs::File::open(m.thin_path(path)?).ok()?;
            let n = f.read(&mut head).ok()?;
            Some(joinable(&head[..n]))
        }
    }
}
