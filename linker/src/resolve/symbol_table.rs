//! The global symbol table: one entry per distinct global name, resolved with lld's rules
//! (strong beats weak, defined beats common beats undefined, the largest common wins, lazy archive
//! symbols are fetched when a non-weak undefined reference meets them).

use crate::input::input_files::FileId;
use crate::prefetch::prefetch;
use hashbrown::HashTable;

/// Index of a global symbol in `SymbolTable::symbols`.
pub type SymbolId = u32;

/// What currently defines a global symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolDef {
    /// Referenced but not (yet) defined.
    Undefined,
    /// Defined by symbol `index` of object `file`.
    Defined { file: FileId, index: u32 },
    /// A common symbol (`-fcommon`) from `file`; the largest size and alignment win.
    Common {
        file: FileId,
        index: u32,
        size: u64,
        align: u64,
    },
    /// Defined by a member of archive `archive` (index in `Resolved::archives`) that is not loaded.
    Lazy { archive: u32, member: u64 },
    /// Defined by the linker (`__bss_start`, `__start_SEC`, ...); the value is computed in layout.
    Synthetic,
    /// `--defsym=NAME=NUMBER`.
    Absolute(u64),
    /// Defined by dynamic symbol `index` of shared library `file` (index in `Resolved::shared`).
    Shared { file: u32, index: u32 },
    /// Defined by symbol `index` of bitcode file `file` (index in `Resolved::bitcode`); LTO's
    /// output replaces it with a native definition.
    Bitcode { file: u32, index: u32 },
}

/// A global symbol.
#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: &'static [u8],
    pub def: SymbolDef,
    /// The binding of the current definition (or of the references, while undefined) is weak.
    pub weak: bool,
    /// The most constraining `STV_*` visibility seen among all references and definitions.
    pub visibility: u8,
    /// Some object refers to the symbol (an undefined entry in its symbol table).
    pub referenced: bool,
    /// `STT_*` of the current definition.
    pub sym_type: u8,
    /// The first file that referred to the symbol (for `--why-extract`).
    pub first_referrer: Option<FileId>,
    /// Some shared library refers to the symbol (so an executable must export its definition).
    pub referenced_by_dso: bool,
    /// Some shared library has a non-weak undefined reference to the symbol: as in lld, that
    /// loads the archive member defining it (and the executable then exports it).
    pub dso_needs_definition: bool,
    /// Some shared library defines the symbol (default version): lld's `dsoDefined`, which
    /// satisfies other libraries' references whatever this output does with the name.
    pub dso_defined: bool,
    /// A native (non-bitcode) object refers to or defines the symbol: lld's `isUsedInRegularObj`,
    /// which makes a bitcode definition visible to regular objects.
    pub used_in_regular_obj: bool,
    /// Every definition seen so far is bitcode that LLVM says may be left out of the symbol
    /// table (`linkonce_odr` with `unnamed_addr`: C++ inline functions, vtables): lld does not
    /// export such a symbol unless a native object or a shared library names it.
    pub bitcode_omittable: bool,
    /// Some bitcode definition of the symbol may not be left out of the symbol table.
    pub bitcode_not_omittable: bool,
    /// The symbol goes to `.dynsym` (imported or exported); computed after resolution.
    pub in_dynsym: bool,
    /// References may bind to another module's definition at run time; computed after resolution.
    pub preemptible: bool,
    /// Output version index (`.gnu.version`): 1 = global, 2.. = version-script versions.
    pub version: u16,
    /// A `.symver name@VERSION` definition (non-default version, hidden in `.gnu.version`).
    pub version_hidden: bool,
    /// The version named by a `.symver` definition (`foo@V1`, `foo@@V2`), if any.
    pub symver: Option<&'static [u8]>,
    /// A version script says `local:` for this symbol: not exported, local in `.symtab`.
    pub version_local: bool,
}

impl Symbol {
    /// A new entry: an undefined name nothing refers to yet.
    fn undefined(name: &'static [u8]) -> Symbol {
        Symbol {
            name,
            def: SymbolDef::Undefined,
            weak: false,
            visibility: object::elf::STV_DEFAULT,
            referenced: false,
            sym_type: object::elf::STT_NOTYPE,
            first_referrer: None,
            referenced_by_dso: false,
            dso_needs_definition: false,
            dso_defined: false,
            bitcode_omittable: false,
            bitcode_not_omittable: false,
            used_in_regular_obj: false,
            in_dynsym: false,
            preemptible: false,
            version: 1,
            version_hidden: false,
            symver: None,
            version_local: false,
        }
    }

    pub fn is_defined(&self) -> bool {
        matches!(
            self.def,
            SymbolDef::Defined { .. }
                | SymbolDef::Common { .. }
                | SymbolDef::Synthetic
                | SymbolDef::Absolute(_)
                | SymbolDef::Bitcode { .. }
        )
    }

    /// Defined by a shared library.
    pub fn is_shared(&self) -> bool {
        matches!(self.def, SymbolDef::Shared { .. })
    }

    /// The name `.dynsym` gives the symbol: without a `.symver` suffix (`foo@V1` -> `foo`).
    pub fn dynamic_name(&self) -> &'static [u8] {
        // Only a `.symver` name carries an `@`; asked for every symbol, so search no other.
        if self.symver.is_none() {
            return self.name;
        }
        match self.name.iter().position(|&c| c == b'@') {
            Some(at) => &self.name[..at],
            None => self.name,
        }
    }

    /// The name as diagnostics print it (C++ names demangled, as lld does).
    pub fn display_name(&self) -> String {
        crate::demangle::display_name(self.name)
    }

    pub fn name_str(&self) -> String {
        String::from_utf8_lossy(self.name).into_owned()
    }
}

/// All global symbols, interned by name.
#[derive(Default)]
pub struct SymbolTable {
    pub symbols: Vec<Symbol>,
    /// The symbols' ids by the hash of their names.
    index: NameIndex,
    hasher: NameHasher,
}

/// How many names ahead [`SymbolTable::prefetch_ahead`] asks the memory for the table's slot
/// of a name; the symbol found there is asked for half as far ahead, and its name a quarter.
const PREFETCH_DISTANCE: usize = 16;

/// An open-addressing table of symbol ids keyed by the hash of their names (linear probing,
/// at most half full). A lookup in a table of a hundred thousand names misses the cache
/// three times over (the slot, the symbol it holds, that symbol's name in its input's string
/// table), and resolution's thread does a million of them on a big link; this table knows
/// where a hash's slot is before it is looked at, so [`SymbolTable::prefetch_ahead`] can ask
/// for the three ahead of time, which `hashbrown` gives no way to do.
#[derive(Default)]
struct NameIndex {
    /// `(tag, id)`: the hash's upper 32 bits and the symbol; `id == EMPTY` for a free slot.
    slots: Vec<(u32, SymbolId)>,
    /// The hash of each symbol's name, by id, so growing rehashes nothing.
    hashes: Vec<u64>,
}

const EMPTY: SymbolId = SymbolId::MAX;

impl NameIndex {
    fn tag(hash: u64) -> u32 {
        (hash >> 32) as u32
    }

    /// Where the probe for `hash` starts (the table is not empty).
    fn home(&self, hash: u64) -> usize {
        hash as usize & (self.slots.len() - 1)
    }

    /// The id of the name with `hash` that `is_name` accepts, or the slot where it would go.
    fn probe(&self, hash: u64, is_name: impl Fn(SymbolId) -> bool) -> Result<SymbolId, usize> {
        if self.slots.is_empty() {
            return Err(usize::MAX);
        }
        let mask = self.slots.len() - 1;
        let tag = Self::tag(hash);
        let mut at = self.home(hash);
        loop {
            let (t, id) = self.slots[at];
            if id == EMPTY {
                return Err(at);
            }
            if t == tag && is_name(id) {
                return Ok(id);
            }
            at = (at + 1) & mask;
        }
    }

    /// Records `id` (the next id, `hashes.len()`) under `hash` at free slot `at` from
    /// [`probe`](Self::probe), growing the table when it would be more than half full.
    fn insert(&mut self, hash: u64, id: SymbolId, at: usize) {
        debug_assert_eq!(id as usize, self.hashes.len());
        self.hashes.push(hash);
        if self.hashes.len() * 2 > self.slots.len() {
            self.grow();
        } else {
            self.slots[at] = (Self::tag(hash), id);
        }
    }

    /// Doubles the slots (at least 1024) and puts every id back, the newest included.
    fn grow(&mut self) {
        let len = (self.slots.len() * 2).max(1024);
        self.slots.clear();
        self.slots.resize(len, (0, EMPTY));
        let mask = len - 1;
        for (id, &hash) in self.hashes.iter().enumerate() {
            let mut at = hash as usize & mask;
            while self.slots[at].1 != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = (Self::tag(hash), id as SymbolId);
        }
    }

    /// The first slot `hash` may be in, if there is a table.
    fn home_slot(&self, hash: u64) -> Option<&(u32, SymbolId)> {
        (!self.slots.is_empty()).then(|| &self.slots[self.home(hash)])
    }
}

impl std::fmt::Debug for SymbolTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SymbolTable")
            .field("symbols", &self.symbols)
            .finish_non_exhaustive()
    }
}

/// A `.symver` version of a definition: the version's name, and whether it is hidden (`foo@V`,
/// not the default `foo@@V`).
pub type Symver = (&'static [u8], bool);

/// Hashes symbol names as the table does. Cloned into the threads that parse archive members
/// ahead of resolution, which hash the names there (`GlobalNames`).
#[derive(Clone, Default)]
pub struct NameHasher(hashbrown::DefaultHashBuilder);

impl NameHasher {
    pub fn hash(&self, name: &[u8]) -> u64 {
        use std::hash::BuildHasher;
        self.0.hash_one(name)
    }
}

/// The global symbols of an object as they enter the table, worked out from the object alone
/// (so on any thread): per non-local ELF symbol, in order, the name it is interned under with
/// its `.symver` version (`split_symver`; undefined names are not split), and that name's hash.
pub struct GlobalNames {
    pub split: Vec<(&'static [u8], Option<Symver>)>,
    pub hashes: Vec<u64>,
    /// The hash of each COMDAT group's signature (`ObjectFile::comdats` order), for
    /// [`ComdatTable`].
    pub comdat_hashes: Vec<u64>,
}

impl GlobalNames {
    pub fn of(file: &crate::input::input_files::ObjectFile, hasher: &NameHasher) -> GlobalNames {
        use object::read::elf::Sym;
        let globals = file.first_global..file.symbols.len();
        let split: Vec<_> = globals
            .map(|i| {
                let name = file.sym_name(i);
                if file.symbols[i].st_shndx(object::LittleEndian) == object::elf::SHN_UNDEF {
                    (name, None)
                } else {
                    split_symver(name)
                }
            })
            .collect();
        let hashes = split.iter().map(|&(name, _)| hasher.hash(name)).collect();
        let comdat_hashes = file
            .comdats
            .iter()
            .map(|g| hasher.hash(g.signature))
            .collect();
        GlobalNames {
            split,
            hashes,
            comdat_hashes,
        }
    }
}

/// The winning file of each COMDAT signature: the first group with a signature anywhere in
/// the link wins, later copies are discarded. Signatures are hashed where their file is
/// parsed (`GlobalNames::comdat_hashes`, on the pool for most files) and the hash is kept, so
/// neither a lookup nor the table's growth hashes a signature on resolution's thread (a C++
/// link has one group per inline function and template instance: hundreds of thousands).
#[derive(Default)]
pub struct ComdatTable {
    map: HashTable<(u64, &'static [u8], FileId)>,
}

impl ComdatTable {
    /// Records `owner` as the winner of `signature` unless a group of that signature came
    /// first; says whether `owner` won.
    pub fn claim(&mut self, signature: &'static [u8], hash: u64, owner: FileId) -> bool {
        match self.map.entry(
            hash,
            |&(h, s, _)| h == hash && s == signature,
            |&(h, _, _)| h,
        ) {
            hashbrown::hash_table::Entry::Occupied(_) => false,
            hashbrown::hash_table::Entry::Vacant(e) => {
                e.insert((hash, signature, owner));
                true
            }
        }
    }

    /// Forgets the signatures whose winner `keep` rejects.
    pub fn retain(&mut self, mut keep: impl FnMut(FileId) -> bool) {
        self.map.retain(|&mut (_, _, f)| keep(f));
    }
}

impl std::fmt::Debug for ComdatTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComdatTable")
            .field("signatures", &self.map.len())
            .finish()
    }
}

impl SymbolTable {
    /// The hasher names are interned with (`intern_hashed`).
    pub fn hasher(&self) -> &NameHasher {
        &self.hasher
    }

    /// Returns the id for `name`, creating an undefined, unreferenced entry if it is new.
    pub fn intern(&mut self, name: &'static [u8]) -> SymbolId {
        let hash = self.hasher.hash(name);
        self.intern_hashed(name, hash)
    }

    /// `intern` with the name's hash already computed by `hasher()`.
    pub fn intern_hashed(&mut self, name: &'static [u8], hash: u64) -> SymbolId {
        let symbols = &self.symbols;
        match self
            .index
            .probe(hash, |id| symbols[id as usize].name == name)
        {
            Ok(id) => id,
            Err(at) => {
                let id = self.symbols.len() as SymbolId;
                self.symbols.push(Symbol::undefined(name));
                self.index.insert(hash, id, at);
                id
            }
        }
    }

    /// [`intern_hashed`](Self::intern_hashed) for each name in turn, with `hashes[i]` the hash
    /// of `name(i)`: the same ids in the same order, found sooner ([`prefetch_ahead`]).
    ///
    /// [`prefetch_ahead`]: Self::prefetch_ahead
    pub fn intern_all(
        &mut self,
        hashes: &[u64],
        name: impl Fn(usize) -> &'static [u8],
    ) -> Vec<SymbolId> {
        let mut ids = Vec::with_capacity(hashes.len());
        for (i, &hash) in hashes.iter().enumerate() {
            self.prefetch_ahead(hashes, i);
            ids.push(self.intern_hashed(name(i), hash));
        }
        ids
    }

    /// For a loop that looks up or interns the names hashed in `hashes` in order and is at
    /// name `i`: asks the memory for what later names' lookups will read (each name's slot
    /// [`PREFETCH_DISTANCE`] names ahead, the symbol in it half as far ahead, and that
    /// symbol's name a quarter as far), so that their cache misses overlap this one's work.
    /// A hint: it changes no result, and a guess spoilt by a name interned meanwhile only
    /// costs the miss.
    #[inline]
    pub fn prefetch_ahead(&self, hashes: &[u64], i: usize) {
        let (far, mid, near) = (
            PREFETCH_DISTANCE,
            PREFETCH_DISTANCE / 2,
            PREFETCH_DISTANCE / 4,
        );
        if let Some(slot) = hashes.get(i + far).and_then(|&h| self.index.home_slot(h)) {
            prefetch(slot);
        }
        if let Some(sym) = hashes.get(i + mid).and_then(|&h| self.guess(h)) {
            prefetch(sym);
        }
        if let Some(sym) = hashes.get(i + near).and_then(|&h| self.guess(h)) {
            prefetch(sym.name);
        }
    }

    /// The symbol in the first slot a name with `hash` may be in, if its hash could be that
    /// one's: the likeliest answer of a lookup, for prefetching.
    fn guess(&self, hash: u64) -> Option<&Symbol> {
        let &(tag, id) = self.index.home_slot(hash)?;
        if tag != NameIndex::tag(hash) {
            return None;
        }
        self.symbols.get(id as usize)
    }

    pub fn lookup(&self, name: &[u8]) -> Option<SymbolId> {
        self.lookup_hashed(name, self.hasher.hash(name))
    }

    /// `lookup` with the name's hash already computed by `hasher()`.
    pub fn lookup_hashed(&self, name: &[u8], hash: u64) -> Option<SymbolId> {
        self.index
            .probe(hash, |id| self.symbols[id as usize].name == name)
            .ok()
    }

    pub fn get(&self, id: SymbolId) -> &Symbol {
        &self.symbols[id as usize]
    }

    pub fn get_mut(&mut self, id: SymbolId) -> &mut Symbol {
        &mut self.symbols[id as usize]
    }

    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }
}

/// Splits a `.symver` definition name: `foo@@V2` -> (`foo`, V2, default), `foo@V1` -> (`foo@V1`,
/// V1, non-default: it stays a separate symbol, as lld keeps it). Other names are unchanged.
pub fn split_symver(name: &'static [u8]) -> (&'static [u8], Option<Symver>) {
    let Some(at) = memchr::memchr(b'@', name) else {
        return (name, None);
    };
    if name.get(at + 1) == Some(&b'@') {
        (&name[..at], Some((&name[at + 2..], false)))
    } else {
        (name, Some((&name[at + 1..], true)))
    }
}

/// Combines two `STV_*` values: the most constraining one wins (hidden/internal over protected
/// over default), as the gABI requires.
pub fn merge_visibility(a: u8, b: u8) -> u8 {
    use object::elf::{STV_DEFAULT, STV_HIDDEN, STV_INTERNAL, STV_PROTECTED};
    let rank = |v: u8| match v {
        STV_DEFAULT => 0,
        STV_PROTECTED => 1,
        STV_HIDDEN => 2,
        STV_INTERNAL => 3,
        _ => 0,
    };
    if rank(b) > rank(a) {
        if b == STV_INTERNAL {
            STV_HIDDEN
        } else {
            b
        }
    } else {
        a
    }
}

/// A symbol as a key for per-symbol linker-created entries (GOT slots, IPLT entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymKey {
    Global(SymbolId),
    Local(crate::input::input_files::FileId, u32),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_intern_once_in_first_seen_order_across_growth() {
        let names: Vec<&'static [u8]> = (0..5000)
            .map(|i| &*Vec::leak(format!("sym{i}").into_bytes()))
            .collect();
        let mut one = SymbolTable::default();
        let ids: Vec<SymbolId> = names.iter().map(|n| one.intern(n)).collect();
        assert_eq!(ids, (0..5000).collect::<Vec<_>>());
        // Again, and in a batch with repeats: the same ids, no new symbols.
        let mut batch: Vec<&'static [u8]> = names.iter().rev().copied().collect();
        batch.push(b"fresh");
        batch.push(names[7]);
        let hashes: Vec<u64> = batch.iter().map(|n| one.hasher().hash(n)).collect();
        let got = one.intern_all(&hashes, |k| batch[k]);
        let mut want: Vec<SymbolId> = (0..5000).rev().collect();
        want.extend([5000, 7]);
        assert_eq!(got, want);
        assert_eq!(one.len(), 5001);
        assert_eq!(one.lookup(b"sym4999"), Some(4999));
        assert_eq!(one.lookup(b"fresh"), Some(5000));
        assert_eq!(one.lookup(b"sym5000"), None);
        assert_eq!(SymbolTable::default().lookup(b"x"), None);
    }

    #[test]
    fn symver_names_split_at_the_first_at_sign() {
        assert_eq!(split_symver(b"foo"), (&b"foo"[..], None));
        assert_eq!(
            split_symver(b"foo@@V2"),
            (&b"foo"[..], Some((&b"V2"[..], false)))
        );
        assert_eq!(
            split_symver(b"foo@V1"),
            (&b"foo@V1"[..], Some((&b"V1"[..], true)))
        );
        assert_eq!(split_symver(b"@@"), (&b""[..], Some((&b""[..], false))));
    }
}
