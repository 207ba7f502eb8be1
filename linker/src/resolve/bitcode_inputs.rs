//! LLVM bitcode inputs in resolution: a module's symbol table takes part like an object's, its
//! COMDATs compete with native ones, and `--fat-lto-objects` picks an object's embedded bitcode.

use super::{BitcodeInput, Resolver, Site, SymbolInput, BITCODE_COMDAT_OWNER, BITCODE_REFERRER};
use crate::error::Result;
use crate::input::input_files::ObjectFile;
use crate::resolve::symbol_table::{GlobalNames, SymbolDef};
use crate::{bail, err};
use object::elf;

impl Resolver<'_> {
    /// With `--fat-lto-objects`, an object carrying `.llvm.lto` bitcode is linked from that
    /// bitcode instead of its native code (lld's behaviour); otherwise the native code is used.
    /// `names`: its global names, if worked out already; `member`: which archive member the
    /// object is, if one.
    pub(super) fn add_object_or_fat_bitcode(
        &mut self,
        file: ObjectFile,
        names: Option<GlobalNames>,
        member: Option<super::thin_index::MemberOrigin<'_>>,
    ) -> Result<()> {
        if self.config.lto.fat_lto_objects {
            if let Some(sec) = file.sections.iter().find(|s| s.name == b".llvm.lto") {
                let data = sec.data;
                return self.add_bitcode_from(file.name, data, member, true);
            }
        }
        self.add_object_named(file, names)
    }

    /// Adds an LLVM bitcode module: its symbols take part in resolution like any others.
    /// `member` says which archive member it is, for its module id.
    pub(super) fn add_bitcode(
        &mut self,
        name: String,
        data: &'static [u8],
        member: Option<super::thin_index::MemberOrigin<'_>>,
    ) -> Result<()> {
        self.add_bitcode_from(name, data, member, false)
    }

    /// [`add_bitcode`](Self::add_bitcode) of bitcode that is a fat object's `.llvm.lto`
    /// section (`fat`) or a file's contents.
    fn add_bitcode_from(
        &mut self,
        name: String,
        data: &'static [u8],
        member: Option<super::thin_index::MemberOrigin<'_>>,
        fat: bool,
    ) -> Result<()> {
        self.trace(&name);
        let index = self.out.bitcode.len() as u32;
        // LTO needs distinct module ids; the same member can appear in two archives.
        let id = super::thin_index::module_id(self.config, &name, member);
        let mut module_id = id.clone();
        let mut n = 1;
        while self.out.bitcode.iter().any(|b| b.module_id == module_id) {
            module_id = format!("{id}.{n}");
            n += 1;
        }
        let mut bc = lto::BitcodeFile::open_owned(data, &module_id).map_err(|e| {
            // The bridge names the module already; say it once, as lld does.
            let e = e
                .strip_prefix(&format!("{module_id}: "))
                .unwrap_or(&e)
                .to_string();
            let e = e
                .strip_prefix("cannot read LLVM bitcode: ")
                .unwrap_or(&e)
                .to_string();
            err!("{name}: {e}")
        })?;
        // What DTLTO needs to give the remote compiler a file it can read (lld tells LLVM the
        // same of every bitcode input).
        if let Some(m) = member {
            bc.set_archive_member(
                &m.archive.display().to_string(),
                &String::from_utf8_lossy(m.name),
            );
        }
        if fat {
            bc.set_fat_lto_object();
        }
        // lld rejects a module for another machine before doing anything with it.
        let triple = bc.target_triple();
        if !triple.is_empty() && !triple.starts_with("x86_64") {
            let first = self
                .out
                .files
                .first()
                .map(|f| f.name.clone())
                .or_else(|| self.out.bitcode.first().map(|b| b.name.clone()));
            match first {
                Some(first) => bail!("{name} is incompatible with {first}"),
                None => bail!("{name} is incompatible with elf_x86_64"),
            }
        }
        // `#pragma comment(lib, ...)` in bitcode, as `.deplibs` in an object.
        if self.config.dependent_libraries {
            for spec in bc.dependent_libraries() {
                self.dependent_libraries.push((spec.clone(), name.clone()));
            }
        }
        // COMDATs are shared with native objects: the first copy anywhere wins.
        let lost: Vec<bool> = bc
            .comdats()
            .map(|c| {
                let key: &'static [u8] = Box::leak(c.name.to_vec().into_boxed_slice());
                let hash = self.out.symtab.hasher().hash(key);
                !self.out.comdats.claim(key, hash, BITCODE_COMDAT_OWNER)
            })
            .collect();
        let mut syms = Vec::with_capacity(bc.num_symbols());
        let mut discarded = Vec::with_capacity(bc.num_symbols());
        let mut fetches = Vec::new();
        for s in bc.symbols() {
            let sym_name: &'static [u8] = Box::leak(s.name.to_vec().into_boxed_slice());
            let sid = self.out.symtab.intern(sym_name);
            syms.push(sid);
            let flags = s.flags;
            let in_lost_comdat = s
                .comdat
                .is_some_and(|c| lost.get(c as usize).copied().unwrap_or(false));
            discarded.push(in_lost_comdat);
            let vis = match s.visibility {
                lto::Visibility::Hidden => elf::STV_HIDDEN,
                lto::Visibility::Protected => elf::STV_PROTECTED,
                _ => elf::STV_DEFAULT,
            };
            let weak = flags.is_weak();
            let def = SymbolDef::Bitcode {
                file: index,
                index: s.index,
            };
            let input = if flags.is_undefined() || in_lost_comdat {
                let sym_type = if flags.is_tls() {
                    elf::STT_TLS
                } else {
                    elf::STT_NOTYPE
                };
                SymbolInput::Undefined { weak, sym_type }
            } else if s.common.is_some() {
                // A bitcode tentative definition yields to any real definition and LTO emits
                // it as a common if it prevails; resolving it as a weak definition does that.
                SymbolInput::Defined {
                    weak: true,
                    def,
                    sym_type: elf::STT_OBJECT,
                }
            } else {
                let sym_type = if flags.is_tls() {
                    elf::STT_TLS
                } else if flags.is_executable() {
                    elf::STT_FUNC
                } else if flags.is_data() {
                    elf::STT_OBJECT
                } else {
                    elf::STT_NOTYPE
                };
                SymbolInput::Defined {
                    weak,
                    def,
                    sym_type,
                }
            };
            if matches!(input, SymbolInput::Defined { .. }) {
                let sym = self.out.symtab.get_mut(sid);
                if flags.can_be_omitted_from_dynsym() {
                    sym.bitcode_omittable = true;
                } else {
                    sym.bitcode_not_omittable = true;
                }
            }
            if let Some(f) = self.add_global(
                sid,
                input,
                vis,
                BITCODE_REFERRER | index,
                Site::Bitcode(&name),
            ) {
                fetches.push(f);
            }
        }
        self.out.bitcode.push(BitcodeInput {
            name,
            module_id,
            file: Some(bc),
            syms,
            discarded,
            member: self.loading_member,
            left_out: false,
            refs: None,
            asm_names: None,
        });
        self.fetch_all(fetches, BITCODE_REFERRER | index)
    }
}
