//! Reading bitcode: symbols, flags, the wrapper header, errors, and the
//! reference graph from module summaries. All bitcode is built by clang-22 at
//! test time.

#![cfg(feature = "llvm")]

mod common;

use common::*;
use lto::{BitcodeFile, ComdatSelection, RefSource, Visibility};

const FLAGS_SRC: &str = r#"
int global_data = 1;
int common_var;
__thread int tls_var;
extern int undef_var;
__attribute__((weak)) int weak_fn(void) { return 1; }
__attribute__((visibility("hidden"))) int hidden_fn(void) { return 2; }
__attribute__((visibility("protected"))) int protected_var = 3;
__attribute__((section("my_section"))) int in_section = 4;
__attribute__((aligned(64))) int aligned_common;
extern __attribute__((weak)) int weak_undef(void);
int use_them(void) { return undef_var + weak_fn() + (weak_undef ? weak_undef() : 0); }
"#;

#[test]
fn symbols_and_flags() {
    let dir = tempfile::tempdir().unwrap();
    for lto_flag in ["-flto=thin", "-flto"] {
        let bc = compile(
            dir.path(),
            "flags.c",
            FLAGS_SRC,
            &[lto_flag, "-fcommon", "-O1"],
        );
        let f = open(&bc, "flags.o");
        assert_eq!(f.is_thin(), lto_flag == "-flto=thin");
        assert!(
            f.has_summary(),
            "clang-22 {lto_flag} writes a module summary"
        );
        assert!(
            f.target_triple().starts_with("x86_64"),
            "{}",
            f.target_triple()
        );
        assert!(
            f.source_filename().ends_with("flags.c"),
            "{}",
            f.source_filename()
        );
        assert_eq!(f.num_modules(), 1);

        let get = |n: &str| f.symbol(sym(&f, n) as usize).unwrap();
        let s = get("global_data");
        assert!(s.is_defined() && s.flags.is_data() && !s.flags.is_weak() && !s.flags.is_common());
        assert_eq!(s.visibility, Visibility::Default);

        let s = get("common_var");
        assert!(s.flags.is_common() && s.is_defined());
        assert_eq!(s.common.unwrap().size, 4);
        let s = get("aligned_common");
        assert_eq!(s.common.unwrap().align, 64);

        assert!(get("tls_var").flags.is_tls());
        assert!(!get("global_data").flags.is_tls());

        let s = get("undef_var");
        assert!(s.flags.is_undefined() && !s.is_defined());

        let s = get("weak_fn");
        assert!(s.flags.is_weak() && s.flags.is_executable() && s.is_defined());
        let s = get("weak_undef");
        assert!(s.flags.is_weak() && s.flags.is_undefined());

        let s = get("hidden_fn");
        assert_eq!(s.visibility, Visibility::Hidden);
        assert!(s.flags.is_executable());
        assert_eq!(get("protected_var").visibility, Visibility::Protected);

        assert_eq!(get("in_section").section, Some(&b"my_section"[..]));
        assert_eq!(get("global_data").section, None);
        assert!(get("use_them").flags.is_executable());
        assert!(get("use_them").comdat.is_none());

        // Statics never reach the irsymtab; everything in it is global.
        assert!(f.symbols().all(|s| s.flags.is_global()));
        let resolutions_needed = f.symbols().count();
        assert_eq!(resolutions_needed, f.num_symbols());
    }
}

#[test]
fn comdat_from_inline_cxx_function() {
    let dir = tempfile::tempdir().unwrap();
    let src = "inline int twice(int x) { return 2 * x; }\nint use(int x) { return twice(x); }\n";
    let bc = compile(dir.path(), "inl.cpp", src, &["-flto=thin", "-O0"]);
    let f = open(&bc, "inl.o");
    let s = f.symbol(sym(&f, "_Z5twicei") as usize).unwrap();
    let c = s.comdat.expect("inline function is in a comdat");
    let comdats: Vec<_> = f.comdats().collect();
    assert_eq!(comdats[c as usize].name, b"_Z5twicei");
    assert_eq!(comdats[c as usize].selection, ComdatSelection::Any);
    assert!(s.flags.is_weak(), "linkonce_odr is weak for the linker");
    assert!(f
        .symbol(sym(&f, "_Z3usei") as usize)
        .unwrap()
        .comdat
        .is_none());
}

/// main -> foo -> static helper -> bar; static chains and a static SCC;
/// an alias; a pointer initializer.
const REFS_SRC: &str = r#"
extern int puts(const char *);
int bar = 1;
int baz = 2;
int qux = 3;
int unused_global = 4;
static int helper(void) { return bar; }
static int h2(void) { return baz; }
static int h1(void) { return h2(); }
static int ping(int n);
static int pong(int n) { return n ? ping(n - 1) : qux; }
static int ping(int n) { return n ? pong(n - 1) : 0; }
int foo(void) { return helper(); }
int chain(void) { return h1(); }
int cycle(void) { return ping(3); }
int alias_fn(void) __attribute__((alias("foo")));
int *ptr = &bar;
int main(void) { puts("hi"); return foo(); }
"#;

fn check_refs(f: &BitcodeFile) {
    let refs = f.references().unwrap_or_else(|e| panic!("{e}"));
    let r = |n: &str| names(f, &refs.refs(sym(f, n)));
    assert_eq!(r("main"), ["foo", "puts"]);
    assert_eq!(r("foo"), ["bar"], "through the static helper");
    assert_eq!(r("chain"), ["baz"], "through two statics");
    assert_eq!(r("cycle"), ["qux"], "through mutually recursive statics");
    assert_eq!(r("alias_fn"), ["foo"], "alias -> aliasee");
    assert_eq!(r("ptr"), ["bar"]);
    assert!(r("bar").is_empty());
    assert!(r("unused_global").is_empty());
    assert!(r("puts").is_empty(), "undefined symbols have no edges");
    assert!(refs.live().is_empty());
    // Direct edges keep the static in between as an internal node.
    let foo_edges = refs.edges(sym(f, "foo"));
    assert_eq!(foo_edges.len(), 1);
    assert!(!refs.is_symbol(foo_edges[0]) && refs.internal_guid(foo_edges[0]).is_some());
    assert_eq!(names(f, refs.edges(foo_edges[0])), ["bar"]);
    assert!(refs.num_nodes() > refs.num_symbols());
    assert!(refs.asm_symbols().is_empty());
    assert_eq!(refs.num_symbols(), f.num_symbols());
}

#[test]
fn references_from_embedded_summary() {
    let dir = tempfile::tempdir().unwrap();
    for lto_flag in ["-flto=thin", "-flto"] {
        let bc = compile(dir.path(), "refs.c", REFS_SRC, &[lto_flag, "-O0"]);
        let f = open(&bc, "refs.o");
        check_refs(&f);
        assert_eq!(f.references().unwrap().source(), RefSource::EmbeddedSummary);
    }
}

#[test]
fn references_computed_without_summary() {
    let dir = tempfile::tempdir().unwrap();
    // Plain -emit-llvm writes no summary.
    let bc = compile(dir.path(), "refs.c", REFS_SRC, &["-emit-llvm", "-O0"]);
    let f = open(&bc, "refs.bc");
    assert!(!f.has_summary());
    check_refs(&f);
    assert_eq!(f.references().unwrap().source(), RefSource::ComputedSummary);

    // Seed 003's fallback: every defined symbol references every other one.
    let c = f.conservative_references();
    assert_eq!(c.source(), RefSource::Conservative);
    let main = sym(&f, "main");
    assert_eq!(c.refs(main).len(), f.num_symbols() - 1);
    assert!(c.refs(sym(&f, "puts")).is_empty());
}

#[test]
fn live_roots_from_used_and_ctors() {
    let dir = tempfile::tempdir().unwrap();
    let src = r#"
__attribute__((used)) int kept_var = 1;
__attribute__((used, retain)) int retained_var = 2;
void ctor_target(void) {}
void dtor_target(void) {}
int not_live = 3;
__attribute__((constructor)) static void init(void) { ctor_target(); }
__attribute__((destructor)) static void fini(void) { dtor_target(); }
"#;
    for lto_flag in ["-flto=thin", "-flto"] {
        let bc = compile(dir.path(), "live.c", src, &[lto_flag]);
        let f = open(&bc, "live.o");
        let refs = f.references().unwrap();
        assert_eq!(
            names(&f, &refs.live_symbols()),
            ["ctor_target", "dtor_target", "kept_var", "retained_var"]
        );
        // The ctor/dtor arrays are internal nodes: a walk starts there.
        assert!(refs.live().iter().any(|&n| !refs.is_symbol(n)));
        // Both llvm.used and llvm.compiler.used set the irsymtab flag.
        assert!(f
            .symbol(sym(&f, "retained_var") as usize)
            .unwrap()
            .flags
            .is_used());
        assert!(f
            .symbol(sym(&f, "kept_var") as usize)
            .unwrap()
            .flags
            .is_used());
        assert!(!f
            .symbol(sym(&f, "not_live") as usize)
            .unwrap()
            .flags
            .is_used());
        assert_eq!(refs.roots(), refs.live_symbols());
    }
}

#[test]
fn module_asm_symbols_are_opaque_roots() {
    let dir = tempfile::tempdir().unwrap();
    let src = r#"
asm(".globl asm_sym\nasm_sym:\n call asm_callee\n ret");
int c_fn(void) { return 1; }
"#;
    let bc = compile(dir.path(), "asm.c", src, &["-flto=thin"]);
    let f = open(&bc, "asm.o");
    let asm: Vec<_> = f.symbols().filter(|s| s.is_asm()).collect();
    assert!(
        asm.iter().any(|s| s.name == b"asm_sym" && s.is_defined()),
        "{asm:?}"
    );
    assert!(
        asm.iter()
            .any(|s| s.name == b"asm_callee" && s.flags.is_undefined()),
        "{asm:?}"
    );
    let refs = f.references().unwrap();
    assert_eq!(names(&f, refs.asm_symbols()), ["asm_callee", "asm_sym"]);
    assert_eq!(names(&f, &refs.roots()), ["asm_callee", "asm_sym"]);
    assert!(refs.refs(sym(&f, "c_fn")).is_empty());
}

#[test]
fn wrapper_header() {
    let dir = tempfile::tempdir().unwrap();
    let bc = compile(dir.path(), "refs.c", REFS_SRC, &["-flto=thin", "-O0"]);
    let wrapped = wrap(&bc);
    assert_eq!(&wrapped[..4], &[0xDE, 0xC0, 0x17, 0x0B]);
    let f = open(&wrapped, "wrapped.o");
    let plain = open(&bc, "plain.o");
    let a: Vec<_> = f.symbols().map(|s| s.name.to_vec()).collect();
    let b: Vec<_> = plain.symbols().map(|s| s.name.to_vec()).collect();
    assert_eq!(a, b);
    assert!(f.is_thin());
    check_refs(&f);
}

#[test]
fn bad_bitcode_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bc = compile(dir.path(), "refs.c", REFS_SRC, &["-flto=thin"]);

    let mut garbage = b"BC\xC0\xDE".to_vec();
    garbage.extend((0..200u32).map(|i| (i * 37 % 251) as u8));
    let truncated = &bc[..bc.len() / 2];
    let mut bad_wrapper = wrap(&bc);
    bad_wrapper[12..16].copy_from_slice(&u32::MAX.to_le_bytes()); // size past the end
    let mut flipped = bc.clone();
    for b in flipped.iter_mut().skip(64).step_by(7) {
        *b ^= 0x5A;
    }
    let cases: [(&str, &[u8]); 6] = [
        ("garbage.o", &garbage),
        ("truncated.o", truncated),
        ("wrapper.o", &bad_wrapper),
        ("flipped.o", &flipped),
        ("empty.o", b""),
        ("text.o", b"this is not bitcode at all"),
    ];
    for (id, bytes) in cases {
        match BitcodeFile::open(bytes, id) {
            Err(e) => {
                eprintln!("{e}");
                assert!(e.starts_with(&format!("{id}: ")), "{e}")
            }
            // Random corruption can leave the symbol table readable; then the
            // summary read must fail cleanly or succeed, never crash.
            Ok(f) => {
                let _ = f.references();
            }
        }
    }
    let e = BitcodeFile::open(&garbage, "garbage.o").unwrap_err();
    assert!(e.contains("bitcode"), "{e}");
}

/// Encodes `s` as a run of 6-bit "char6" fields, the way the bitcode
/// IDENTIFICATION block stores the producer string.
fn char6_bits(s: &str) -> Vec<bool> {
    let code = |c: u8| match c {
        b'a'..=b'z' => c - b'a',
        b'A'..=b'Z' => c - b'A' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'.' => 62,
        b'_' => 63,
        _ => panic!("not a char6 character: {c}"),
    };
    // Bitstream fields are little-endian: bit j of a field is the j-th bit read.
    s.bytes()
        .flat_map(|c| (0..6).map(move |j| (code(c) >> j) & 1 == 1))
        .collect()
}

#[test]
fn bitcode_from_a_newer_llvm_names_the_producer() {
    // Rewrite the producer of real clang-22 bitcode to a future LLVM, then
    // damage the module so the reader fails, as it does on records from a
    // newer LLVM ("Unknown attribute kind", "Invalid record").
    let dir = tempfile::tempdir().unwrap();
    let bc = compile(dir.path(), "refs.c", REFS_SRC, &["-flto=thin"]);
    let ours = char6_bits(&format!("LLVM{}", lto::llvm_version().unwrap()));
    let future = char6_bits("LLVM99.9.9");
    assert_eq!(
        ours.len(),
        future.len(),
        "same length keeps the bitstream intact"
    );
    let bit = |b: &[u8], i: usize| (b[i / 8] >> (i % 8)) & 1 == 1;
    let pos = (0..bc.len() * 8 - ours.len())
        .find(|&p| ours.iter().enumerate().all(|(j, &v)| bit(&bc, p + j) == v))
        .expect("clang-22 bitcode carries its producer string");
    let mut newer = bc.clone();
    for (j, &v) in future.iter().enumerate() {
        let i = pos + j;
        if v {
            newer[i / 8] |= 1 << (i % 8);
        } else {
            newer[i / 8] &= !(1 << (i % 8));
        }
    }
    // The rewritten file still reads: only the producer changed.
    open(&newer, "newer-intact.o");
    let e = BitcodeFile::open(&newer[..newer.len() * 3 / 4 / 4 * 4], "future.o").unwrap_err();
    eprintln!("{e}");
    assert!(e.starts_with("future.o: cannot read LLVM bitcode: "), "{e}");
    assert!(
        e.contains("produced by LLVM 99.9.9, which is newer than weld's LLVM 22"),
        "{e}"
    );
}

#[test]
fn handles_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    fn assert_send<T: Send>() {}
    assert_send_sync::<BitcodeFile>();
    assert_send::<lto::Lto>();
}

#[test]
fn open_owned_does_not_copy() {
    let dir = tempfile::tempdir().unwrap();
    let bc = compile(dir.path(), "refs.c", REFS_SRC, &["-flto=thin"]);
    let shared: std::sync::Arc<[u8]> = bc.into();
    let f = BitcodeFile::open_owned(shared.clone(), "shared.o").unwrap();
    assert_eq!(f.bytes().as_ptr(), shared.as_ptr());
    // Reading in parallel from several threads.
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| check_refs(&f));
        }
    });
}

#[test]
fn runtime_libcalls() {
    let v = lto::runtime_libcall_symbols("x86_64-unknown-linux-gnu").unwrap();
    for name in ["memcpy", "memset", "__udivti3"] {
        assert!(
            v.iter().any(|s| s == name),
            "{name} missing from {} libcalls",
            v.len()
        );
    }
}
