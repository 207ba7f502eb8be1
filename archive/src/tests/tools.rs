//! Archives written by the real tools (GNU ar from binutils, llvm-ar-22),
//! checked against what `ar t` and `nm --print-armap` report. A missing tool
//! is a failure, not a skip: these tests are the evidence that the reader
//! understands what the tools actually write.

use super::*;
use std::collections::HashMap;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh directory under the system temp dir, removed on drop.
struct TestDir(PathBuf);

impl TestDir {
    fn new(tag: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "weld-archive-test-{}-{tag}-{n}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TestDir(path)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `program args...` in `dir` and returns its stdout; panics with the
/// tool's stderr on failure, or if the tool is not installed.
fn run(dir: &Path, env: &[(&str, &str)], program: &str, args: &[&str]) -> String {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} (is it installed?): {e}"));
    assert!(
        output.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Tiny C sources; the file names exercise short, exactly-15-character,
/// long and space-containing member names.
const SOURCES: &[(&str, &str)] = &[
    ("a.c", "int foo(void) { return 1; }\nint bar_var = 3;\n"),
    (
        "a_very_long_member_name.c",
        "int a_very_long_member_name_function(void) { return 2; }\n",
    ),
    (
        "fifteen_chars.c",
        "int fifteen(void) { return 15; }\nint shared_name;\n",
    ),
    (
        "with space.c",
        "static int hidden(void) { return 0; }\nint (*spaced)(void) = hidden;\n",
    ),
    ("nosyms.c", "static int unused;\n"),
];

/// Writes the sources, compiles them, and writes a non-ELF `lib.rmeta` (odd
/// size, to exercise padding). Returns the member file names in order.
fn make_inputs(dir: &Path) -> Vec<String> {
    let mut inputs = Vec::new();
    for (source, text) in SOURCES {
        std::fs::write(dir.join(source), text).unwrap();
        let object = source.replace(".c", ".o");
        run(
            dir,
            &[],
            "cc",
            &["-c", "-fno-common", source, "-o", &object],
        );
        inputs.push(object);
    }
    assert_eq!(inputs[2].len(), 15, "name meant to fill a GNU name field");
    std::fs::write(dir.join("lib.rmeta"), b"rust metadata\n\x00\xff!").unwrap();
    inputs.push("lib.rmeta".to_string());
    inputs
}

/// `(symbol, member)` pairs from the "Archive index:" (GNU nm) or
/// "Archive map" (llvm-nm) section of `nm --print-armap`.
fn armap(dir: &Path, nm: &str, archive: &str) -> Vec<(String, String)> {
    let output = run(dir, &[], nm, &["--print-armap", archive]);
    let mut lines = output.lines();
    let mut pairs = Vec::new();
    if lines.any(|line| line == "Archive index:" || line == "Archive map") {
        for line in lines.take_while(|line| !line.is_empty()) {
            let (symbol, member) = line
                .split_once(" in ")
                .unwrap_or_else(|| panic!("unexpected {nm} line {line:?}"));
            pairs.push((symbol.to_string(), member.to_string()));
        }
    }
    pairs
}

/// How a tool's output relates to the input files.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Member contents equal the input files.
    Exact,
    /// Darwin: contents are the file followed by `\n` padding to 8 bytes.
    PaddedTo8,
    /// Thin: member names are paths to the input files.
    Thin,
}

/// Builds `lib.a` with `ar_tool ar_args lib.a inputs...` and checks the
/// parse against the inputs, `lister t` and `nm --print-armap`.
/// Returns the archive bytes for further checks.
fn check_tool(
    tag: &str,
    env: &[(&str, &str)],
    ar_tool: &str,
    ar_args: &[&str],
    lister: &str,
    nm: &str,
    layout: Layout,
) -> Vec<u8> {
    let dir = TestDir::new(tag);
    let inputs = make_inputs(&dir.0);
    let mut args = ar_args.to_vec();
    args.push("lib.a");
    args.extend(inputs.iter().map(String::as_str));
    run(&dir.0, env, ar_tool, &args);

    let data = std::fs::read(dir.path("lib.a")).unwrap();
    let archive = Archive::parse(&data).unwrap_or_else(|e| panic!("{tag}: {e}"));
    assert_eq!(archive.is_thin(), layout == Layout::Thin, "{tag}");

    // Names and order agree with the tool's own listing and with the inputs.
    let listed = run(&dir.0, &[], lister, &["t", "lib.a"]);
    let names: Vec<String> = all_members(&archive)
        .iter()
        .map(|m| m.name_lossy().into_owned())
        .collect();
    assert_eq!(names, listed.lines().collect::<Vec<_>>(), "{tag}");
    assert_eq!(names, inputs, "{tag}");

    // Contents.
    let archive_path = dir.path("lib.a");
    for member in all_members(&archive) {
        let name = member.name_lossy();
        let expected = std::fs::read(dir.path(&name)).unwrap();
        match layout {
            Layout::Exact => assert_eq!(member.bytes(), Some(&expected[..]), "{tag} {name}"),
            Layout::PaddedTo8 => {
                let bytes = member.bytes().unwrap();
                let (file, padding) = bytes.split_at(expected.len());
                assert_eq!(file, expected, "{tag} {name}");
                assert!(padding.len() < 8 && padding.iter().all(|&b| b == b'\n'));
            }
            Layout::Thin => {
                assert_eq!(member.bytes(), None);
                assert_eq!(member.size(), expected.len() as u64, "{tag} {name}");
                let path = member.thin_path(&archive_path).unwrap();
                assert_eq!(std::fs::read(path).unwrap(), expected, "{tag} {name}");
            }
        }
    }

    // The symbol index maps each name to the member nm says.
    let expected_index = armap(&dir.0, nm, "lib.a");
    let index: Vec<(String, String)> = archive
        .symbols()
        .iter()
        .map(|symbol| {
            let member = archive.member_at(symbol.member_offset).unwrap();
            (
                String::from_utf8(symbol.name.to_vec()).unwrap(),
                member.name_lossy().into_owned(),
            )
        })
        .collect();
    assert_eq!(index, expected_index, "{tag}");
    if !expected_index.is_empty() {
        // Independently of nm: the definitions are where the sources put them.
        let by_name: HashMap<&str, &str> = index
            .iter()
            .map(|(s, m)| (s.as_str(), m.as_str()))
            .collect();
        assert_eq!(by_name["foo"], "a.o", "{tag}");
        assert_eq!(by_name["bar_var"], "a.o", "{tag}");
        assert_eq!(
            by_name["a_very_long_member_name_function"], "a_very_long_member_name.o",
            "{tag}"
        );
        assert_eq!(by_name["shared_name"], "fifteen_chars.o", "{tag}");
        assert_eq!(by_name["spaced"], "with space.o", "{tag}");
        assert!(!by_name.contains_key("hidden"), "{tag}");
    }
    data
}

/// The first bytes of the first member's name field: which symbol index
/// layout the tool chose.
fn first_name_field(data: &[u8]) -> &[u8] {
    &data[8..24]
}

#[test]
fn gnu_ar() {
    let data = check_tool("gnu", &[], "ar", &["rcs"], "ar", "nm", Layout::Exact);
    assert_eq!(first_name_field(&data), b"/               ");
}

#[test]
fn gnu_ar_without_index() {
    let data = check_tool(
        "gnu-noindex",
        &[],
        "ar",
        &["rcS"],
        "ar",
        "nm",
        Layout::Exact,
    );
    let archive = Archive::parse(&data).unwrap();
    assert!(!archive.has_symbol_table());
    assert!(archive.symbols().is_empty());
}

#[test]
fn gnu_ar_thin() {
    check_tool("gnu-thin", &[], "ar", &["rcsT"], "ar", "nm", Layout::Thin);
}

#[test]
fn llvm_ar_default() {
    let data = check_tool(
        "llvm",
        &[],
        "llvm-ar-22",
        &["rcs"],
        "llvm-ar-22",
        "llvm-nm-22",
        Layout::Exact,
    );
    assert_eq!(first_name_field(&data), b"/               ");
}

#[test]
fn llvm_ar_gnu() {
    check_tool(
        "llvm-gnu",
        &[],
        "llvm-ar-22",
        &["--format=gnu", "rcs"],
        "llvm-ar-22",
        "llvm-nm-22",
        Layout::Exact,
    );
}

#[test]
fn llvm_ar_gnu_sym64() {
    // SYM64_THRESHOLD is llvm-ar's testing hook to force /SYM64/ without
    // writing a 4 GiB archive.
    let data = check_tool(
        "llvm-gnu64",
        &[("SYM64_THRESHOLD", "0")],
        "llvm-ar-22",
        &["--format=gnu", "rcs"],
        "llvm-ar-22",
        "llvm-nm-22",
        Layout::Exact,
    );
    assert_eq!(first_name_field(&data), b"/SYM64/         ");
}

#[test]
fn llvm_ar_bsd() {
    let data = check_tool(
        "llvm-bsd",
        &[],
        "llvm-ar-22",
        &["--format=bsd", "rcs"],
        "llvm-ar-22",
        "llvm-nm-22",
        Layout::Exact,
    );
    // The index and every member use `#1/NN` names.
    assert!(first_name_field(&data).starts_with(b"#1/"));
    assert_eq!(&data[68..77], b"__.SYMDEF");
}

#[test]
fn llvm_ar_darwin() {
    check_tool(
        "llvm-darwin",
        &[],
        "llvm-ar-22",
        &["--format=darwin", "rcs"],
        "llvm-ar-22",
        "llvm-nm-22",
        Layout::PaddedTo8,
    );
}

#[test]
fn llvm_ar_darwin_sym64() {
    let data = check_tool(
        "llvm-darwin64",
        &[("SYM64_THRESHOLD", "0")],
        "llvm-ar-22",
        &["--format=darwin", "rcs"],
        "llvm-ar-22",
        "llvm-nm-22",
        Layout::PaddedTo8,
    );
    assert_eq!(&data[68..80], b"__.SYMDEF_64");
}

#[test]
fn llvm_ar_thin() {
    check_tool(
        "llvm-thin",
        &[],
        "llvm-ar-22",
        &["--thin", "rcs"],
        "llvm-ar-22",
        "llvm-nm-22",
        Layout::Thin,
    );
}

#[test]
fn empty_archives_from_tools() {
    let dir = TestDir::new("empty");
    run(&dir.0, &[], "ar", &["rcs", "gnu.a"]);
    run(&dir.0, &[], "llvm-ar-22", &["rcs", "llvm.a"]);
    for name in ["gnu.a", "llvm.a"] {
        let data = std::fs::read(dir.path(name)).unwrap();
        let archive = Archive::parse(&data).unwrap();
        assert!(all_members(&archive).is_empty(), "{name}");
        assert!(archive.symbols().is_empty(), "{name}");
    }
}

/// Thin archives store member paths relative to the archive's directory (or
/// absolute); `thin_path` must find the files from wherever the archive is.
#[test]
fn thin_archive_paths_relative_to_archive() {
    let dir = TestDir::new("thin-paths");
    let inputs = make_inputs(&dir.0);
    std::fs::create_dir_all(dir.path("sub")).unwrap();
    std::fs::create_dir_all(dir.path("out")).unwrap();
    std::fs::copy(dir.path("a.o"), dir.path("sub/x.o")).unwrap();
    let absolute = dir.path(&inputs[1]);
    let absolute = absolute.to_str().unwrap();

    run(
        &dir.0,
        &[],
        "ar",
        &["rcsT", "out/gnu.a", "sub/x.o", "lib.rmeta"],
    );
    run(
        &dir.0,
        &[],
        "llvm-ar-22",
        &["rcs", "--thin", "out/llvm.a", "sub/x.o", absolute],
    );

    let expectations: [(&str, [&str; 2], [&str; 2]); 2] = [
        (
            "out/gnu.a",
            ["../sub/x.o", "../lib.rmeta"],
            ["sub/x.o", "lib.rmeta"],
        ),
        (
            "out/llvm.a",
            ["../sub/x.o", absolute],
            ["sub/x.o", &inputs[1]],
        ),
    ];
    for (archive_name, stored, files) in expectations {
        let archive_path = dir.path(archive_name);
        let data = std::fs::read(&archive_path).unwrap();
        let archive = Archive::parse(&data).unwrap();
        let names: Vec<&[u8]> = all_members(&archive).iter().map(|m| m.name).collect();
        let stored: Vec<&[u8]> = stored.iter().map(|s| s.as_bytes()).collect();
        assert_eq!(names, stored, "{archive_name}");
        for (member, file) in all_members(&archive).iter().zip(files) {
            let path = member.thin_path(&archive_path).unwrap();
            let expected = std::fs::read(dir.path(file)).unwrap();
            assert_eq!(
                std::fs::read(&path).unwrap(),
                expected,
                "{}",
                path.display()
            );
        }
        // The symbols of sub/x.o (a copy of a.o) point at it.
        let foo = archive.symbols().iter().find(|s| s.name == b"foo").unwrap();
        assert_eq!(
            archive.member_at(foo.member_offset).unwrap().name,
            b"../sub/x.o"
        );
    }
}

/// Rust rlibs are archives of objects plus a non-ELF `lib.rmeta`; the reader
/// must not care what members contain.
#[test]
fn rlib_like_archive() {
    let dir = TestDir::new("rlib");
    let inputs = make_inputs(&dir.0);
    run(
        &dir.0,
        &[],
        "ar",
        &["rcs", "lib.rlib", "lib.rmeta", &inputs[0]],
    );
    let data = std::fs::read(dir.path("lib.rlib")).unwrap();
    let archive = Archive::parse(&data).unwrap();
    let rmeta = all_members(&archive)[0];
    assert_eq!(rmeta.name, b"lib.rmeta");
    assert_eq!(
        rmeta.bytes(),
        Some(&std::fs::read(dir.path("lib.rmeta")).unwrap()[..])
    );
    assert_eq!(
        display_name("x/lib.rlib", rmeta.name),
        "x/lib.rlib(lib.rmeta)"
    );
}
