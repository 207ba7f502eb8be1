//! The order of input sections inside output sections when the command line changes it, as
//! lld decides it: the symbol ordering file (`--symbol-ordering-file`, with lld's warnings), the
//! call graph profile (`--call-graph-ordering-file` or the objects' `.llvm.call-graph-profile`
//! sections, sorted by [`crate::order::call_graph_sort`]; `--print-symbol-order`),
//! `--shuffle-sections=GLOB=SEED` (lld's permutation: the same `std::mt19937` stream and the
//! same swaps, so a seed gives lld's order) and the random gaps of
//! `--randomize-section-padding=SEED` (lld's draws too).

use crate::config::Config;
use crate::icf::Folding;
use crate::input::input_files::{FileId, SectionKind};
use crate::resolve::Resolved;
use hashbrown::HashMap;
use object::read::elf::Sym;

/// `std::mt19937`, the 32-bit Mersenne Twister C++ specifies (lld seeds one per shuffle).
pub struct Mt19937 {
    state: [u32; 624],
    next: usize,
}

impl Mt19937 {
    pub fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, next: 624 }
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.next >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
                let mut v = self.state[(i + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.state[i] = v;
            }
            self.next = 0;
        }
        let mut y = self.state[self.next];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

/// `llvm::shuffle`: for each position, swap with one `rng() % remaining` places further.
fn shuffle<T>(v: &mut [T], rng: &mut Mt19937) {
    let mut first = 0;
    let mut size = v.len();
    while size > 1 {
        let offset = rng.next_u32() as usize % size;
        if offset != 0 {
            v.swap(first, first + offset);
        }
        first += 1;
        size -= 1;
    }
}

/// A seed from the operating system, for a seed of 0 (lld: `std::random_device`).
fn random_seed() -> u32 {
    let mut b = [0u8; 4];
    if let Ok(mut f) = std::fs::File::open("/dev/urandom") {
        use std::io::Read;
        let _ = f.read_exact(&mut b);
    }
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    u32::from_le_bytes(b) ^ t
}

/// `--shuffle-sections`: every input section after the shuffles, in their new order (`None`
/// without the option). As in lld, the list shuffled is every input section the link read (dead
/// ones too, so that the permutation does not depend on `--gc-sections`), in file and section
/// order; each `GLOB=SEED` permutes the sections whose name matches among their own positions:
/// seed -1 reverses them, 0 takes a random seed.
fn shuffled_list(config: &Config, res: &Resolved) -> Option<Vec<(FileId, u32)>> {
    if config.shuffle_sections.is_empty() {
        return None;
    }
    let strip_debug = config.strip != crate::config::Strip::None;
    let mut list: Vec<(FileId, u32, &[u8])> = Vec::new();
    for (fi, f) in res.files.iter().enumerate() {
        for (si, s) in f.sections.iter().enumerate() {
            let kept = matches!(
                s.kind,
                SectionKind::Regular
                    | SectionKind::Merge
                    | SectionKind::Comment
                    | SectionKind::Garbage
                    | SectionKind::Folded
            );
            // lld drops debug sections at input under --strip-debug.
            let stripped = strip_debug
                && !s.is_alloc()
                && (s.name.starts_with(b".debug") || s.name.starts_with(b".zdebug"));
            if kept && !stripped {
                list.push((fi as FileId, si as u32, s.name));
            }
        }
    }
    for (glob, seed) in &config.shuffle_sections {
        let positions: Vec<usize> = (0..list.len())
            .filter(|&i| crate::glob::matches(glob.as_bytes(), list[i].2))
            .collect();
        let mut matched: Vec<_> = positions.iter().map(|&i| list[i]).collect();
        if *seed == u32::MAX {
            matched.reverse();
        } else {
            let seed = if *seed == 0 { random_seed() } else { *seed };
            shuffle(&mut matched, &mut Mt19937::new(seed));
        }
        for (&i, m) in positions.iter().zip(matched) {
            list[i] = m;
        }
    }
    Some(list.iter().map(|&(f, s, _)| (f, s)).collect())
}

/// lld's list of the output sections `--randomize-section-padding` pads.
fn can_pad(name: &str) -> bool {
    matches!(
        name,
        ".bss" | ".data" | ".data.rel.ro" | ".lbss" | ".ldata" | ".lrodata" | ".ltext" | ".rodata"
    ) || name.starts_with(".text")
}

/// `--randomize-section-padding=SEED`: bytes of padding before each member of each output
/// section, drawn as lld draws them (one `std::mt19937` stream over the output sections in
/// order): the first padded section of each PT_LOAD starts with up to a page of padding, and
/// each member is preceded, one time in 16, by padding as large as its alignment. `sections`
/// gives each allocated output section's name, PT_LOAD number and member alignments, in output
/// order; the result has one padding list per entry.
pub fn random_padding(
    seed: u64,
    page_size: u64,
    sections: &[(&str, u32, Vec<u64>)],
) -> Vec<Vec<u64>> {
    let mut rng = Mt19937::new(seed as u32);
    let mut current_load = None;
    sections
        .iter()
        .map(|(name, load, aligns)| {
            let mut pads = vec![0u64; aligns.len()];
            if !can_pad(name) {
                return pads;
            }
            let mut leading = 0;
            if current_load != Some(*load) {
                leading = u64::from(rng.next_u32()) % page_size;
                current_load = Some(*load);
            }
            for (pad, &align) in pads.iter_mut().zip(aligns) {
                if rng.next_u32().is_multiple_of(16) {
                    *pad = align;
                }
            }
            if let Some(first) = pads.first_mut() {
                *first += leading;
            }
            pads
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Symbol ordering file and call graph profile

/// A section of an input object.
type SecKey = (FileId, u32);

/// The order the command line gives input sections inside their output sections: a priority
/// per section (lower first; sections without one follow the listed ones in input order), and
/// the same for the `COMMON` section lld gives each common symbol the symbol ordering file
/// names. Empty when nothing is ordered.
#[derive(Debug, Default)]
pub struct SectionOrder {
    pub sections: HashMap<(FileId, u32), i64>,
    pub commons: HashMap<crate::resolve::symbol_table::SymbolId, i64>,
}

/// Something the ordering phase reports once the relocations are scanned, where lld's writer
/// sorts the sections.
enum Later {
    /// A diagnostic: its kind (`warning` or `error`) and text.
    Message(&'static str, String),
    /// `--print-symbol-order`'s file and its contents.
    Write(std::path::PathBuf, String),
}

/// Diagnostics of the ordering options, printed as they come so that they interleave as lld's
/// do (or kept for later, see [`Deferred`]); warnings are errors under `--fatal-warnings`.
/// The errors are already printed when a function here fails, so the caller gets an empty error
/// list.
struct Diag<'a> {
    config: &'a Config,
    failed: bool,
    later: Option<Vec<Later>>,
}

impl<'a> Diag<'a> {
    fn new(config: &'a Config) -> Diag<'a> {
        Diag {
            config,
            failed: false,
            later: None,
        }
    }

    fn warn(&mut self, msg: &str) {
        if self.config.fatal_warnings {
            self.error(msg);
        } else if !self.config.no_warnings {
            self.print("warning", msg);
        }
    }

    fn error(&mut self, msg: &str) {
        self.print("error", msg);
    }

    fn print(&mut self, kind: &'static str, msg: &str) {
        match &mut self.later {
            Some(l) => l.push(Later::Message(kind, msg.to_string())),
            None => {
                crate::error::print_diagnostic(kind, msg);
                if kind == "error" {
                    self.failed = true;
                }
            }
        }
    }

    /// Writes `text` to `path` (now, or later with the other deferred reports).
    fn write(&mut self, path: &std::path::Path, text: String) {
        match &mut self.later {
            Some(l) => l.push(Later::Write(path.to_path_buf(), text)),
            None => {
                if let Err(e) = std::fs::write(path, text) {
                    self.error(&format!(
                        "cannot open {}: {}",
                        path.display(),
                        crate::input::input_files::io_reason(&e)
                    ));
                }
            }
        }
    }

    fn finish(self) -> Result<(), Vec<crate::error::Error>> {
        if self.failed {
            Err(Vec::new())
        } else {
            Ok(())
        }
    }
}

/// What [`build`] reports only once the relocations are scanned: lld sorts the sections (and
/// warns about the symbol ordering file, and prints `--print-symbol-order`) after its
/// relocation scan, whose errors stop the link first.
pub struct Deferred(Vec<Later>);

impl Deferred {
    /// Prints the diagnostics and writes the file; fails if any of it was an error.
    pub fn emit(self, config: &Config) -> Result<(), Vec<crate::error::Error>> {
        let mut diag = Diag::new(config);
        for l in self.0 {
            match l {
                Later::Message(kind, msg) => diag.print(kind, &msg),
                Later::Write(path, text) => diag.write(&path, text),
            }
        }
        diag.finish()
    }
}

/// lld's `args::getLines`: lines without surrounding blanks, empty lines and `#` comments.
fn lines(text: &str) -> Vec<&str> {
    text.split('\n')
        .map(|l| l.trim_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Reads a file named on the command line, with lld's message when it cannot.
fn read_option_file(path: &std::path::Path, diag: &mut Diag) -> Option<String> {
    match std::fs::read(path) {
        Ok(b) => Some(String::from_utf8_lossy(&b).into_owned()),
        Err(e) => {
            diag.error(&format!(
                "cannot open {}: {}",
                path.display(),
                crate::input::input_files::io_reason(&e)
            ));
            None
        }
    }
}

/// The symbol ordering file, read when lld reads it (with the other options): its distinct
/// names in order, after the complaint about `--call-graph-ordering-file` given too and a
/// warning for each repeated name.
pub fn read_symbol_ordering_file(config: &Config) -> Result<Vec<String>, Vec<crate::error::Error>> {
    let mut diag = Diag::new(config);
    let mut names: Vec<String> = Vec::new();
    if let Some(path) = &config.symbol_ordering_file {
        if config.call_graph_ordering_file.is_some() {
            diag.error(
                "--symbol-ordering-file and --call-graph-order-file may not be used together",
            );
        }
        if let Some(text) = read_option_file(path, &mut diag) {
            let mut seen = hashbrown::HashSet::new();
            for l in lines(&text) {
                if seen.insert(l.to_string()) {
                    names.push(l.to_string());
                } else if config.warn_symbol_ordering {
                    diag.warn(&format!(
                        "{}: duplicate ordered symbol: {l}",
                        path.display()
                    ));
                }
            }
        }
    }
    diag.finish()?;
    Ok(names)
}

/// What a symbol is, as far as ordering is concerned.
struct SymView {
    /// The file lld names in warnings about the symbol.
    file: String,
    /// The input section defining it (the section kept in its place if `--icf` folded it).
    section: Option<SecKey>,
    /// Why the symbol cannot be ordered (lld's `maybeWarnUnorderableSymbol`), if it cannot.
    problem: Option<&'static str>,
}

/// A section as a symbol defined in it sees it: folded sections stand for the section kept in
/// their place; a section not in the output is "discarded".
fn defining_section(res: &Resolved, folding: &Folding, file: FileId, sec: u32) -> (SecKey, bool) {
    let f = &res.files[file as usize];
    match f.sections.get(sec as usize).map(|s| s.kind) {
        Some(SectionKind::Folded) => {
            let kept = folding
                .repl
                .get(&(file, sec))
                .copied()
                .unwrap_or((file, sec));
            (kept, true)
        }
        Some(
            SectionKind::Garbage
            | SectionKind::Discarded
            | SectionKind::Ignored
            | SectionKind::Unloaded,
        )
        | None => ((file, sec), false),
        Some(_) => ((file, sec), true),
    }
}

/// A symbol of an object's symbol table defined there (locals, and globals' own definitions).
fn defined_in_object(res: &Resolved, folding: &Folding, file: FileId, index: usize) -> SymView {
    let f = &res.files[file as usize];
    let name = f.name.clone();
    let Some(sym) = f.symbols.get(index) else {
        return SymView {
            file: name,
            section: None,
            problem: None,
        };
    };
    let shndx = sym.st_shndx(object::LittleEndian);
    match shndx {
        object::elf::SHN_ABS => SymView {
            file: name,
            section: None,
            problem: Some("absolute"),
        },
        object::elf::SHN_UNDEF => SymView {
            file: name,
            section: None,
            problem: Some("undefined"),
        },
        object::elf::SHN_COMMON => SymView {
            file: name,
            section: None,
            problem: None,
        },
        _ => {
            // An out-of-range index names no section weld can order.
            let Some(idx) = f.sym_section(index).filter(|&i| i < f.sections.len()) else {
                return SymView {
                    file: name,
                    section: None,
                    problem: None,
                };
            };
            let (sec, live) = defining_section(res, folding, file, idx as u32);
            SymView {
                file: name,
                section: Some(sec),
                problem: (!live).then_some("discarded"),
            }
        }
    }
}

/// A global symbol as lld's symbol table has it after resolution; `None` for a name lld would
/// not have in its table (made by a lookup, never referred to).
fn global_view(
    res: &Resolved,
    folding: &Folding,
    id: crate::resolve::symbol_table::SymbolId,
) -> Option<SymView> {
    use crate::resolve::symbol_table::SymbolDef;
    let s = &res.symtab.symbols[id as usize];
    // lld's undefined symbols name their first referrer, except those whose bitcode
    // definition LTO did not emit, which have no file.
    let referrer = || match s.first_referrer {
        _ if s.bitcode_omittable || s.bitcode_not_omittable => "<internal>".to_string(),
        Some(f) if f & crate::resolve::BITCODE_REFERRER != 0 => "<internal>".to_string(),
        Some(f) => res
            .files
            .get(f as usize)
            .map_or("<internal>".to_string(), |f| f.name.clone()),
        None => "<internal>".to_string(),
    };
    Some(match s.def {
        SymbolDef::Defined { file, index } => defined_in_object(res, folding, file, index as usize),
        SymbolDef::Undefined => {
            let had_bitcode = s.bitcode_omittable || s.bitcode_not_omittable;
            if !s.referenced && s.first_referrer.is_none() && !had_bitcode {
                return None;
            }
            SymView {
                file: referrer(),
                section: None,
                problem: Some("undefined"),
            }
        }
        SymbolDef::Shared { file, .. } => SymView {
            file: res.shared[file as usize].name.clone(),
            section: None,
            problem: Some("shared"),
        },
        SymbolDef::Absolute(_) => SymView {
            file: "<internal>".to_string(),
            section: None,
            problem: Some("absolute"),
        },
        // lld defines these relative to an output section, except `_DYNAMIC`, which points
        // into its linker-made `.dynamic` input section.
        SymbolDef::Synthetic => SymView {
            file: "<internal>".to_string(),
            section: None,
            problem: (s.name != b"_DYNAMIC").then_some("synthetic"),
        },
        // A common symbol whose `COMMON` section was collected is an undefined one to lld.
        SymbolDef::Common { file, .. } if res.collected_commons.contains(&id) => SymView {
            file: res
                .files
                .get(file as usize)
                .map_or("<internal>".to_string(), |f| f.name.clone()),
            section: None,
            problem: Some("undefined"),
        },
        // lld turns the symbols of archive members it did not load into undefined ones of
        // its internal file.
        SymbolDef::Lazy { .. } => SymView {
            file: "<internal>".to_string(),
            section: None,
            problem: Some("undefined"),
        },
        SymbolDef::Common { .. } | SymbolDef::Bitcode { .. } => SymView {
            file: String::new(),
            section: None,
            problem: None,
        },
    })
}

/// The `name@version` entries lld's symbol table has for the versioned definitions of each
/// shared library, keyed by the symbol after which lld created them: lld enters a library's
/// symbols in dynamic symbol table order, and so does weld, so an entry follows the latest
/// symbol entered for that library so far. Entries weld has too (a reference named the
/// version) are left out: the symbol table walk meets them.
fn versioned_shared_aliases(
    res: &Resolved,
) -> HashMap<crate::resolve::symbol_table::SymbolId, Vec<(&'static [u8], u32)>> {
    let mut out: HashMap<_, Vec<_>> = HashMap::new();
    for (li, lib) in res.shared.iter().enumerate() {
        let mut anchor = None;
        for i in 1..lib.dynsyms.len() {
            let s = &lib.dynsyms[i];
            let bind = s.st_bind();
            if bind != object::elf::STB_GLOBAL
                && bind != object::elf::STB_WEAK
                && bind != object::elf::STB_GNU_UNIQUE
            {
                continue;
            }
            let name = lib.sym_name(i);
            if let Some(id) = res.symtab.lookup(name) {
                anchor = anchor.max(Some(id));
            }
            if s.st_shndx(object::LittleEndian) == object::elf::SHN_UNDEF {
                continue;
            }
            let (ver, _) = lib.version(i);
            let Some(vname) = (ver >= 2).then(|| lib.version_name(ver)).flatten() else {
                continue;
            };
            if res.symtab.lookup(&[name, b"@", vname].concat()).is_some() {
                continue;
            }
            if let Some(a) = anchor {
                out.entry(a).or_default().push((name, li as u32));
            }
        }
    }
    out
}

/// Warns about a symbol that cannot be ordered, as lld's `maybeWarnUnorderableSymbol`.
fn warn_unorderable(config: &Config, diag: &mut Diag, v: &SymView, name: &[u8]) {
    if !config.warn_symbol_ordering {
        return;
    }
    let Some(problem) = v.problem else {
        return;
    };
    // Undefined symbols are not worth a warning when they are not reported either.
    if problem == "undefined" && !config.reports_undefined_in_objects() {
        return;
    }
    diag.warn(&format!(
        "{}: unable to order {problem} symbol: {}",
        v.file,
        String::from_utf8_lossy(name)
    ));
}

/// Every symbol of every object, in lld's `readCallGraph` lookup order: file by file, each
/// symbol table in index order (locals, then the globals as resolved); the last of a name wins.
fn symbols_by_name(res: &Resolved, folding: &Folding) -> HashMap<&'static [u8], SymView> {
    let mut map = HashMap::new();
    for (fi, f) in res.files.iter().enumerate() {
        for i in 1..f.symbols.len() {
            let name = f.sym_name(i);
            if i < f.first_global {
                map.insert(name, defined_in_object(res, folding, fi as FileId, i));
            } else if let Some(id) = res.global_of(fi as FileId, i) {
                if let Some(v) = global_view(res, folding, id) {
                    map.insert(res.symtab.symbols[id as usize].name, v);
                }
            }
        }
    }
    map
}

/// The call graph profile: (caller section, callee section) -> weight, in first-seen order.
#[derive(Default)]
struct Profile {
    edges: Vec<(SecKey, SecKey, u64)>,
    index: HashMap<(SecKey, SecKey), usize>,
}

impl Profile {
    fn add(&mut self, from: SecKey, to: SecKey, weight: u64) {
        match self.index.get(&(from, to)) {
            Some(&i) => self.edges[i].2 = self.edges[i].2.wrapping_add(weight),
            None => {
                self.index.insert((from, to), self.edges.len());
                self.edges.push((from, to, weight));
            }
        }
    }
}

/// `--call-graph-ordering-file`: `FROM TO COUNT` lines naming symbols.
fn read_call_graph_file(
    config: &Config,
    res: &Resolved,
    folding: &Folding,
    path: &std::path::Path,
    diag: &mut Diag,
    profile: &mut Profile,
) {
    let Some(text) = read_option_file(path, diag) else {
        return;
    };
    let map = symbols_by_name(res, folding);
    let find = |name: &str, diag: &mut Diag| -> Option<SecKey> {
        let Some(v) = map.get(name.as_bytes()) else {
            if config.warn_symbol_ordering {
                diag.warn(&format!("{}: no such symbol: {name}", path.display()));
            }
            return None;
        };
        warn_unorderable(config, diag, v, name.as_bytes());
        v.section
    };
    for line in lines(&text) {
        let fields: Vec<&str> = line.split(' ').collect();
        let count = if fields.len() == 3 {
            crate::cli::option_values::parse_int(fields[2])
        } else {
            None
        };
        let Some(count) = count else {
            diag.error(&format!("{}: parse error", path.display()));
            return;
        };
        if let Some(from) = find(fields[0], diag) {
            if let Some(to) = find(fields[1], diag) {
                profile.add(from, to, count);
            }
        }
    }
}

/// `SHT_LLVM_CALL_GRAPH_PROFILE`.
const SHT_LLVM_CALL_GRAPH_PROFILE: u32 = 0x6fff_4c09;

/// The `.llvm.call-graph-profile` sections of the objects: 8-byte weights, each pair of
/// relocations (of any type, `R_X86_64_NONE` in practice) naming the caller and the callee.
fn read_object_call_graphs(
    res: &Resolved,
    folding: &Folding,
    diag: &mut Diag,
    profile: &mut Profile,
) {
    use object::read::elf::SectionHeader;
    let le = object::LittleEndian;
    for (fi, f) in res.files.iter().enumerate() {
        if !f.markers.call_graph_profile {
            continue;
        }
        let Ok((_, table)) = crate::input::input_files::x86_64_section_table(&f.name, f.data)
        else {
            continue;
        };
        let headers = table.iter().as_slice();
        // lld remembers the last such section of a file.
        let Some(cg) = headers
            .iter()
            .rposition(|h| h.sh_type(le) == SHT_LLVM_CALL_GRAPH_PROFILE)
        else {
            continue;
        };
        // lld reads the weights as an array of 8-byte records and gives up on another shape.
        let (entsize, size) = (headers[cg].sh_entsize(le), headers[cg].sh_size(le));
        if entsize != 8 {
            diag.error(&format!(
                "section [index {cg}] has invalid sh_entsize: expected 8, but got {entsize}"
            ));
            return;
        }
        if size % 8 != 0 {
            diag.error(&format!(
                "section [index {cg}] has an invalid sh_size ({size}) which is not a multiple of \
                 its sh_entsize ({entsize})"
            ));
            return;
        }
        let weights: Vec<u64> = headers[cg]
            .data(le, f.data)
            .unwrap_or_default()
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect();
        let mut syms: Vec<u32> = Vec::new();
        for h in headers {
            if h.sh_info(le) as usize != cg {
                continue;
            }
            match h.sh_type(le) {
                object::elf::SHT_REL => {
                    let d = h.data(le, f.data).unwrap_or_default();
                    syms.extend(d.chunks_exact(16).map(|r| {
                        (u64::from_le_bytes(r[8..16].try_into().unwrap_or_default()) >> 32) as u32
                    }));
                    break;
                }
                object::elf::SHT_RELA => {
                    let d = h.data(le, f.data).unwrap_or_default();
                    syms.extend(d.chunks_exact(24).map(|r| {
                        (u64::from_le_bytes(r[8..16].try_into().unwrap_or_default()) >> 32) as u32
                    }));
                    break;
                }
                object::elf::SHT_CREL => {
                    if let Ok(rels) = crate::input::input_files::decode_crel(h, f.data) {
                        syms.extend(rels.iter().map(|r| r.r_sym(le, false)));
                    }
                    break;
                }
                _ => {}
            }
        }
        if syms.is_empty() {
            diag.warn("SHT_LLVM_CALL_GRAPH_PROFILE exists, but relocation section doesn't");
            continue;
        }
        if syms.len() != weights.len() * 2 {
            diag.error("number of relocations doesn't match Weights");
            return;
        }
        let section_of = |index: u32| -> Option<SecKey> {
            let index = index as usize;
            let v = if index < f.first_global {
                (index < f.symbols.len())
                    .then(|| defined_in_object(res, folding, fi as FileId, index))?
            } else {
                global_view(res, folding, res.global_of(fi as FileId, index)?)?
            };
            // Only defined symbols count: absolute ones have no section, the others no
            // definition here.
            match v.problem {
                Some("undefined" | "shared" | "absolute" | "synthetic") => None,
                _ => v.section,
            }
        };
        for (i, &w) in weights.iter().enumerate() {
            if let (Some(from), Some(to)) = (section_of(syms[2 * i]), section_of(syms[2 * i + 1])) {
                profile.add(from, to, w);
            }
        }
    }
}

/// The output section a section goes to, as far as the call graph cares: sections that are not
/// in the output share lld's "no output section".
fn output_of(config: &Config, res: &Resolved, (f, s): SecKey) -> Option<&'static str> {
    let sec = &res.files[f as usize].sections[s as usize];
    match sec.kind {
        SectionKind::Regular | SectionKind::Merge => {
            Some(crate::input::section_rules::output_name_of(
                &config.z,
                || sec.name_str(),
                sec.output_name(),
            ))
        }
        _ => None,
    }
}

/// The sections of the profile in the order hfsort or cdsort puts them (priorities 1, 2, ...),
/// and for `--print-symbol-order` (hfsort only, as in lld) the symbols of each section.
fn call_graph_order(
    config: &Config,
    res: &Resolved,
    folding: &Folding,
    profile: &Profile,
    diag: &mut Diag,
) -> HashMap<SecKey, i64> {
    use crate::order::call_graph_sort::Edge;
    let mut nodes: Vec<SecKey> = Vec::new();
    let mut node_of: HashMap<SecKey, usize> = HashMap::new();
    let mut sizes: Vec<u64> = Vec::new();
    let mut edges: Vec<Edge> = Vec::new();
    let mut node = |k: SecKey, nodes: &mut Vec<SecKey>, sizes: &mut Vec<u64>| -> usize {
        *node_of.entry(k).or_insert_with(|| {
            nodes.push(k);
            sizes.push(res.files[k.0 as usize].sections[k.1 as usize].size());
            nodes.len() - 1
        })
    };
    let cdsort = config.call_graph_profile_sort == crate::config::CallGraphSort::Cdsort;
    let mut counts: Vec<u64> = Vec::new();
    let mut offsets: Vec<u64> = Vec::new();
    for &(from, to, weight) in &profile.edges {
        // Edges between output sections cannot bring anything closer.
        if output_of(config, res, from) != output_of(config, res, to) {
            continue;
        }
        if cdsort && weight == 0 {
            continue;
        }
        let a = node(from, &mut nodes, &mut sizes);
        let b = node(to, &mut nodes, &mut sizes);
        counts.resize(nodes.len(), 0);
        if cdsort {
            if a == b {
                continue;
            }
            // The profile does not say where the call is: assume the middle of the caller.
            offsets.push(sizes[a].div_ceil(2));
            counts[b] += weight;
        }
        edges.push(Edge {
            from: a,
            to: b,
            weight,
        });
    }
    let order = if cdsort {
        crate::order::call_graph_sort::cdsort(&sizes, &counts, &edges, &offsets)
    } else {
        crate::order::call_graph_sort::hfsort(&sizes, &edges)
    };
    if !cdsort {
        if let Some(path) = &config.print_symbol_order {
            print_symbol_order(res, folding, path, &order, &nodes, diag);
        }
    }
    order
        .iter()
        .enumerate()
        .map(|(rank, &n)| (nodes[n], rank as i64 + 1))
        .collect()
}

/// `--print-symbol-order=FILE`: the names defined in each section, sections in their new order,
/// each file's symbols in symbol table order.
fn print_symbol_order(
    res: &Resolved,
    folding: &Folding,
    path: &std::path::Path,
    order: &[usize],
    nodes: &[SecKey],
    diag: &mut Diag,
) {
    let mut text = String::new();
    for &n in order {
        let (f, s) = nodes[n];
        let file = &res.files[f as usize];
        for i in 1..file.symbols.len() {
            let sym = &file.symbols[i];
            let v = if i < file.first_global {
                if sym.st_type() == object::elf::STT_SECTION {
                    continue;
                }
                defined_in_object(res, folding, f, i)
            } else {
                match res
                    .global_of(f, i)
                    .and_then(|id| global_view(res, folding, id))
                {
                    Some(v) => v,
                    None => continue,
                }
            };
            if v.section == Some((f, s)) && !matches!(v.problem, Some("undefined" | "shared")) {
                let name = if i < file.first_global {
                    file.sym_name(i)
                } else {
                    res.global_of(f, i)
                        .map_or(&[][..], |id| res.symtab.symbols[id as usize].name)
                };
                text.push_str(&String::from_utf8_lossy(name));
                text.push('\n');
            }
        }
    }
    diag.write(path, text);
}

/// `llvm::hash_value(StringRef)` as LLVM 22 computes it (the hash an `llvm::DenseMap` of names
/// uses): a CityHash variant with LLVM's fixed seed.
fn llvm_string_hash(s: &[u8]) -> u64 {
    const K0: u64 = 0xc3a5_c85c_97cb_3127;
    const K1: u64 = 0xb492_b66f_be98_f273;
    const K2: u64 = 0x9ae1_6a3b_2f90_404f;
    const K3: u64 = 0xc949_d7c7_509e_6557;
    const SEED: u64 = 0xff51_afd7_ed55_8ccd;
    let f64_at = |i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or_default());
    let f32_at = |i: usize| {
        u64::from(u32::from_le_bytes(
            s[i..i + 4].try_into().unwrap_or_default(),
        ))
    };
    let rot = |v: u64, n: u32| v.rotate_right(n);
    let shift_mix = |v: u64| v ^ (v >> 47);
    let h16 = |low: u64, high: u64| {
        const MUL: u64 = 0x9ddf_ea08_eb38_2d69;
        let mut a = (low ^ high).wrapping_mul(MUL);
        a ^= a >> 47;
        let mut b = (high ^ a).wrapping_mul(MUL);
        b ^= b >> 47;
        b.wrapping_mul(MUL)
    };
    let len = s.len();
    let l = len as u64;
    let seed = SEED;
    match len {
        0 => K2 ^ seed,
        1..=3 => {
            let (a, b, c) = (
                u32::from(s[0]),
                u32::from(s[len >> 1]),
                u32::from(s[len - 1]),
            );
            let y = a.wrapping_add(b << 8);
            let z = (len as u32).wrapping_add(c << 2);
            shift_mix(u64::from(y).wrapping_mul(K2) ^ u64::from(z).wrapping_mul(K3) ^ seed)
                .wrapping_mul(K2)
        }
        4..=8 => h16(l.wrapping_add(f32_at(0) << 3), seed ^ f32_at(len - 4)),
        9..=16 => {
            let (a, b) = (f64_at(0), f64_at(len - 8));
            h16(seed ^ a, rot(b.wrapping_add(l), len as u32)) ^ b
        }
        17..=32 => {
            let a = f64_at(0).wrapping_mul(K1);
            let b = f64_at(8);
            let c = f64_at(len - 8).wrapping_mul(K2);
            let d = f64_at(len - 16).wrapping_mul(K0);
            h16(
                rot(a.wrapping_sub(b), 43)
                    .wrapping_add(rot(c ^ seed, 30))
                    .wrapping_add(d),
                a.wrapping_add(rot(b ^ K3, 20))
                    .wrapping_sub(c)
                    .wrapping_add(l)
                    .wrapping_add(seed),
            )
        }
        33..=64 => {
            let mut z = f64_at(24);
            let mut a = f64_at(0).wrapping_add(l.wrapping_add(f64_at(len - 16)).wrapping_mul(K0));
            let mut b = rot(a.wrapping_add(z), 52);
            let mut c = rot(a, 37);
            a = a.wrapping_add(f64_at(8));
            c = c.wrapping_add(rot(a, 7));
            a = a.wrapping_add(f64_at(16));
            let vf = a.wrapping_add(z);
            let vs = b.wrapping_add(rot(a, 31)).wrapping_add(c);
            a = f64_at(16).wrapping_add(f64_at(len - 32));
            z = f64_at(len - 8);
            b = rot(a.wrapping_add(z), 52);
            c = rot(a, 37);
            a = a.wrapping_add(f64_at(len - 24));
            c = c.wrapping_add(rot(a, 7));
            a = a.wrapping_add(f64_at(len - 16));
            let wf = a.wrapping_add(z);
            let ws = b.wrapping_add(rot(a, 31)).wrapping_add(c);
            let r = shift_mix(
                vf.wrapping_add(ws)
                    .wrapping_mul(K2)
                    .wrapping_add(wf.wrapping_add(vs).wrapping_mul(K0)),
            );
            shift_mix((seed ^ r.wrapping_mul(K0)).wrapping_add(vs)).wrapping_mul(K2)
        }
        _ => {
            // The 56-byte state, created from the first 64 bytes and mixed with each further
            // 64-byte block (the last one overlapping the previous when the length is not a
            // multiple of 64).
            let mut h = [
                0,
                seed,
                h16(seed, K1),
                rot(seed ^ K1, 49),
                seed.wrapping_mul(K1),
                shift_mix(seed),
                0,
            ];
            h[6] = h16(h[4], h[5]);
            let mix32 = |p: usize, a: &mut u64, b: &mut u64| {
                *a = a.wrapping_add(f64_at(p));
                let c = f64_at(p + 24);
                *b = rot(b.wrapping_add(*a).wrapping_add(c), 21);
                let d = *a;
                *a = a.wrapping_add(f64_at(p + 8).wrapping_add(f64_at(p + 16)));
                *b = b.wrapping_add(rot(*a, 44)).wrapping_add(d);
                *a = a.wrapping_add(c);
            };
            let mix = |h: &mut [u64; 7], p: usize| {
                h[0] = rot(
                    h[0].wrapping_add(h[1])
                        .wrapping_add(h[3])
                        .wrapping_add(f64_at(p + 8)),
                    37,
                )
                .wrapping_mul(K1);
                h[1] =
                    rot(h[1].wrapping_add(h[4]).wrapping_add(f64_at(p + 48)), 42).wrapping_mul(K1);
                h[0] ^= h[6];
                h[1] = h[1].wrapping_add(h[3]).wrapping_add(f64_at(p + 40));
                h[2] = rot(h[2].wrapping_add(h[5]), 33).wrapping_mul(K1);
                h[3] = h[4].wrapping_mul(K1);
                h[4] = h[0].wrapping_add(h[5]);
                let (mut a, mut b) = (h[3], h[4]);
                mix32(p, &mut a, &mut b);
                h[3] = a;
                h[4] = b;
                h[5] = h[2].wrapping_add(h[6]);
                h[6] = h[1].wrapping_add(f64_at(p + 16));
                let (mut a, mut b) = (h[5], h[6]);
                mix32(p + 32, &mut a, &mut b);
                h[5] = a;
                h[6] = b;
                h.swap(2, 0);
            };
            mix(&mut h, 0);
            let aligned_end = len & !63;
            let mut p = 64;
            while p != aligned_end {
                mix(&mut h, p);
                p += 64;
            }
            if len & 63 != 0 {
                mix(&mut h, len - 64);
            }
            h16(
                h16(h[3], h[5])
                    .wrapping_add(shift_mix(h[1]).wrapping_mul(K1))
                    .wrapping_add(h[2]),
                h16(h[4], h[6])
                    .wrapping_add(shift_mix(l).wrapping_mul(K1))
                    .wrapping_add(h[0]),
            )
        }
    }
}

/// The iteration order of an `llvm::DenseMap` into which keys with these 32-bit hashes were
/// inserted in order (none twice): at least 64 buckets, doubled when three quarters full, each
/// key in the first free bucket of its quadratic probe sequence; rehashing walks the old
/// buckets in order.
fn dense_map_order(hashes: &[u32]) -> Vec<usize> {
    let mut buckets: Vec<Option<usize>> = Vec::new();
    let place = |buckets: &mut Vec<Option<usize>>, key: usize| {
        let mask = buckets.len() - 1;
        let mut b = hashes[key] as usize & mask;
        let mut probe = 1;
        while buckets[b].is_some() {
            b = (b + probe) & mask;
            probe += 1;
        }
        buckets[b] = Some(key);
    };
    for key in 0..hashes.len() {
        let entries = key + 1;
        if entries * 4 >= buckets.len() * 3 {
            let size = (buckets.len() * 2).max(64).next_power_of_two();
            let old = std::mem::replace(&mut buckets, vec![None; size]);
            for k in old.into_iter().flatten() {
                place(&mut buckets, k);
            }
        }
        place(&mut buckets, key);
    }
    buckets.into_iter().flatten().collect()
}

/// Decides the order of input sections inside their output sections, as lld's
/// `buildSectionOrder` and `maybeShuffle`: the call graph profile (the ordering file, else the
/// objects' `.llvm.call-graph-profile` sections) sorted by hfsort or cdsort gives priorities
/// 1, 2, ...; the symbol ordering file's names give their sections lower (negative) priorities
/// in file order; `--shuffle-sections` numbers the remaining sections from 0. Warnings and
/// `--print-symbol-order` come out here. Runs once liveness and folding are settled.
pub fn build(
    config: &Config,
    res: &Resolved,
    folding: &Folding,
    ordering_names: &[String],
) -> Result<(SectionOrder, Deferred), Vec<crate::error::Error>> {
    let mut diag = Diag::new(config);
    let mut profile = Profile::default();
    if config.call_graph_profile_sort != crate::config::CallGraphSort::None {
        match &config.call_graph_ordering_file {
            Some(path) => read_call_graph_file(config, res, folding, path, &mut diag, &mut profile),
            None => read_object_call_graphs(res, folding, &mut diag, &mut profile),
        }
    }
    if diag.failed {
        return diag
            .finish()
            .map(|()| (SectionOrder::default(), Deferred(Vec::new())));
    }
    // lld reads the call graph with the inputs, and sorts once relocations are scanned.
    diag.later = Some(Vec::new());
    let mut order: HashMap<SecKey, i64> = HashMap::new();
    if config.bp.enabled() {
        // lld: balanced partitioning takes the call graph profile's place.
        order = crate::order::bp_section_order::order(config, res, folding).map_err(|e| vec![e])?;
    } else if !profile.edges.is_empty() {
        order = call_graph_order(config, res, folding, &profile, &mut diag);
    }

    let mut common_order: HashMap<crate::resolve::symbol_table::SymbolId, i64> = HashMap::new();
    if !ordering_names.is_empty() {
        let first = -(order.len() as i64) - ordering_names.len() as i64;
        let mut wanted: HashMap<&[u8], (i64, bool)> = ordering_names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_bytes(), (first + i as i64, false)))
            .collect();
        let mut add = |name: &[u8], v: &SymView, diag: &mut Diag, order: &mut HashMap<_, _>| {
            let entry = wanted.get_mut(name)?;
            entry.1 = true;
            warn_unorderable(config, diag, v, name);
            if let (Some(sec), None | Some("discarded")) = (v.section, v.problem) {
                let p = order.entry(sec).or_insert(0);
                *p = (*p).min(entry.0);
            }
            Some(entry.0)
        };

        // Globals in symbol table order, then each object's locals. lld's table also holds
        // each shared library's versioned definitions as `name@version`, named `name` by then.
        let aliases = versioned_shared_aliases(res);
        for id in 0..res.symtab.symbols.len() as u32 {
            if let Some(v) = global_view(res, folding, id) {
                let name = res.symtab.symbols[id as usize].name;
                let stem = name.split(|&c| c == b'@').next().unwrap_or(name);
                let prio = add(stem, &v, &mut diag, &mut order);
                // lld gives each common symbol a `COMMON` section of its own to order.
                if let (Some(p), crate::resolve::symbol_table::SymbolDef::Common { .. }) =
                    (prio, res.symtab.symbols[id as usize].def)
                {
                    let e = common_order.entry(id).or_insert(0);
                    *e = (*e).min(p);
                }
            }
            for &(stem, lib) in aliases.get(&id).map_or(&[][..], |v| v.as_slice()) {
                let v = SymView {
                    file: res.shared[lib as usize].name.clone(),
                    section: None,
                    problem: Some("shared"),
                };
                add(stem, &v, &mut diag, &mut order);
            }
        }
        for (fi, f) in res.files.iter().enumerate() {
            for i in 1..f.first_global.min(f.symbols.len()) {
                let v = defined_in_object(res, folding, fi as FileId, i);
                add(f.sym_name(i), &v, &mut diag, &mut order);
            }
        }
        if config.warn_symbol_ordering {
            // lld walks its hash map of the names: its order is the hashes' order.
            let hashes: Vec<u32> = ordering_names
                .iter()
                .map(|n| llvm_string_hash(n.as_bytes()) as u32)
                .collect();
            for i in dense_map_order(&hashes) {
                let name = &ordering_names[i];
                if !wanted[name.as_bytes()].1 {
                    diag.warn(&format!("symbol ordering file: no such symbol: {name}"));
                }
            }
        }
    }

    if let Some(list) = shuffled_list(config, res) {
        let mut prio = 0;
        for k in list {
            if let hashbrown::hash_map::Entry::Vacant(e) = order.entry(k) {
                e.insert(prio);
                prio += 1;
            }
        }
    }
    let order = SectionOrder {
        sections: order,
        commons: common_order,
    };
    Ok((order, Deferred(diag.later.unwrap_or_default())))
}

#[cfg(test)]
mod ordering_tests {
    /// The order ld.lld 22 reports `name0`..`name29` missing from a symbol ordering file in.
    #[test]
    fn missing_names_come_in_lld_hash_order() {
        let names: Vec<String> = (0..30).map(|i| format!("name{i}")).collect();
        let h: Vec<u32> = names
            .iter()
            .map(|n| super::llvm_string_hash(n.as_bytes()) as u32)
            .collect();
        let o: Vec<&str> = super::dense_map_order(&h)
            .into_iter()
            .map(|i| names[i].as_str())
            .collect();
        assert_eq!(
            o.join(" "),
            "name23 name5 name13 name21 name16 name17 name4 name6 name19 name24 name28 name29 \
             name3 name0 name14 name11 name10 name25 name12 name7 name9 name2 name18 name27 \
             name1 name22 name15 name20 name8 name26"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C++ standard's check value: the 10000th output of a default-seeded mt19937.
    #[test]
    fn mt19937_matches_the_standard() {
        let mut g = Mt19937::new(5489);
        let mut v = 0;
        for _ in 0..10000 {
            v = g.next_u32();
        }
        assert_eq!(v, 4_123_659_995);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..50).collect();
        shuffle(&mut v, &mut Mt19937::new(7));
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
