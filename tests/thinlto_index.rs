//! Distributed ThinLTO's index-only mode (`--thinlto-index-only` and the options that shape its
//! files), compared with ld.lld-22 on a real multi-module C program: ThinLTO modules, one of
//! them an archive member (another member nothing extracts), and a full-LTO module.
//!
//! Each linker links through clang-22 in a directory of its own holding copies of the inputs;
//! then the two directories must hold the same file names (recursively: prefix replacement
//! writes into other directories), the same list of native objects, and no program. Then the
//! distributed build is done from weld's files: each module listed is compiled by
//! `clang-22 -x ir M -fthinlto-index=M.thinlto.bc`, the native objects are linked by weld, and
//! the program must print what the in-process ThinLTO build of the same inputs prints.
//!
//! The index files' bytes are not compared: weld tells LTO what its precise graph says is
//! visible to regular objects, which may differ from lld's (`gc_sections` shows where); only
//! the names and the list are lld's contract with a distributed build system.
//!
//! * `index_only`: `--thinlto-index-only=FILE`, `--thinlto-emit-imports-files`, an archive
//!   member, a member nothing extracts, a full-LTO module (`--lto-obj-path`).
//! * `prefix_replace_native`: `--thinlto-prefix-replace=OLD;NEW;NATIVE`.
//! * `object_suffix_replace`: `--thinlto-object-suffix-replace=` on minimized bitcode.
//! * `emit_index_files`: `--thinlto-emit-index-files` writes the files and links.
//! * `plugin_opt_spellings`: the `-plugin-opt=` forms.
//! * `gc_sections`: the index files follow weld's graph, not lld's rule.
//! * `rlib_member`: a Rust rlib's bitcode member; `fat_lto_member`: a fat LTO object's.
//! * `no_bitcode`, `single_module` (`--thinlto-single-module=`), `errors` (lld's messages).
//!
//! Work directories stay under `target/weld-tests/thinlto_index/` for inspection.

#[allow(dead_code)]
#[path = "support/lto.rs"]
mod lto;

use libtest_mimic::{Arguments, Trial};
use lto::Lto;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::run::{self, Output};
use weld_tests::tools::{self, Linker};
use weld_tests::{dir_trials, paths, text_diff, Check};

fn main() {
    let args = Arguments::from_args();
    let trials: Vec<Trial> = dir_trials(
        "thinlto_index",
        &[
            ("index_only", index_only),
            ("prefix_replace_native", prefix_replace_native),
            ("object_suffix_replace", object_suffix_replace),
            ("emit_index_files", emit_index_files),
            ("plugin_opt_spellings", plugin_opt_spellings),
            ("gc_sections", gc_sections),
            ("rlib_member", rlib_member),
            ("fat_lto_member", fat_lto_member),
            ("no_bitcode", no_bitcode),
            ("single_module", single_module),
            ("errors", errors),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

// ---------------------------------------------------------------------------------------------
// The program

const MAIN_C: &str = r#"#include <stdio.h>
int f(int);
int g(int);
int h(int);
static int counter;
int bump(void) { return ++counter; }
int main(void) {
  int s = 0;
  for (int i = 0; i < 5; i++)
    s += f(i) + g(i) + h(i);
  printf("sum=%d counter=%d\n", s, counter);
  return 0;
}
"#;
/// Calls back into main.c: the import lists go both ways. `helper` is called only from dead
/// native code (`DEAD_C`).
const B_C: &str = r#"int bump(void);
static int sq(int x) { return x * x; }
int f(int x) { bump(); return sq(x) + 1; }
int helper(int x) { return x * 7; }
"#;
/// A native object whose only function nothing calls: under `--gc-sections` it is dead, and
/// weld's graph does not count its reference to `helper`; lld's rule does.
const DEAD_C: &str = "int helper(int);\nint dead_fn(int x) { return helper(x); }\n";
/// The archive member the program needs.
const G_C: &str = "int bump(void);\nint g(int x) { bump(); return 3 * x; }\n";
/// The archive member nothing extracts: lld writes an empty index file for it.
const U_C: &str = "int unused(int x) { return x - 1; }\n";
/// Compiled with full LTO: no ThinLTO index of its own (an empty file), its object comes from
/// `--lto-obj-path`.
const FULL_C: &str = "int h(int x) { return x + 100; }\n";

const EXPECTED: &str = "sum=575 counter=10\n";

/// The program's bitcode in `dir/sub`: `main.o`, `b.o`, `full.o` and `lib.a` (`g.o`, `u.o`);
/// `b.min.o` is `b.o`'s minimized bitcode (`-fthin-link-bitcode=`), for the suffix test.
fn build_inputs(dir: &Path, sub: &str) -> Check {
    let d = dir.join(sub);
    std::fs::create_dir_all(&d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    for (name, text) in [
        ("main.c", MAIN_C),
        ("b.c", B_C),
        ("g.c", G_C),
        ("u.c", U_C),
        ("full.c", FULL_C),
        ("dead.c", DEAD_C),
    ] {
        paths::write(&d.join(name), text)?;
    }
    for s in ["main", "g", "u"] {
        lto::compile(
            &d,
            &d.join(format!("{s}.c")),
            &format!("{s}.o"),
            Lto::Thin,
            &[],
        )?;
    }
    lto::compile(
        &d,
        &d.join("b.c"),
        "b.o",
        Lto::Thin,
        &["-Xclang", "-fthin-link-bitcode=b.min.o"],
    )?;
    lto::compile(&d, &d.join("full.c"), "full.o", Lto::Full, &[])?;
    lto::compile(
        &d,
        &d.join("dead.c"),
        "dead.o",
        Lto::Native,
        &["-ffunction-sections"],
    )?;
    lto::archive(&d, lto::LLVM_AR, "lib.a", &["g.o", "u.o"])?;
    Ok(())
}

/// Copies the tree `from` into `to` (created).
fn copy_tree(from: &Path, to: &Path) -> Check {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for e in std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))? {
        let e = e.map_err(|e| e.to_string())?;
        let dest = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &dest)?;
        } else {
            std::fs::copy(e.path(), &dest)
                .map_err(|err| format!("cannot copy {}: {err}", e.path().display()))?;
        }
    }
    Ok(())
}

/// Every file and directory under `dir`, as paths relative to it.
fn tree(dir: &Path) -> Result<BTreeSet<String>, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) -> Check {
        for e in
            std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        {
            let p = e.map_err(|e| e.to_string())?.path();
            let rel = p.strip_prefix(root).map_err(|e| e.to_string())?;
            out.insert(rel.to_string_lossy().into_owned());
            if p.is_dir() {
                walk(root, &p, out)?;
            }
        }
        Ok(())
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out)?;
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Links

/// One linker's link in `dir/<label>/`, a copy of `dir/inputs/`, through clang-22: `args`, then
/// `-o prog`.
struct Linked {
    dir: PathBuf,
    out: Output,
}

fn link_in(dir: &Path, linker: &Linker, args: &[&str]) -> Result<Linked, String> {
    let own = dir.join(linker.label);
    paths::fresh_dir(&own)?;
    copy_tree(&dir.join("inputs"), &own)?;
    let mut cmd = Command::new(tools::find(tools::CLANG)?);
    cmd.current_dir(&own)
        .args(lto::use_linker(linker))
        .args(args)
        .args(["-o", "prog"]);
    let out = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    Ok(Linked { dir: own, out })
}

/// The link must have succeeded (lld's failing means the test is broken, weld's is the failure
/// under test).
fn succeeded(l: &Linked, label: &str) -> Check {
    let err = l.out.stderr_str();
    if err.contains("panicked") {
        return Err(format!("{label} panicked\n{}", l.out.report()));
    }
    if !l.out.success() {
        return Err(format!("{label}'s link failed\n{}", l.out.report()));
    }
    Ok(())
}

/// Links with ld.lld-22, then weld, in directories of their own; both must succeed.
fn link_both(dir: &Path, args: &[&str]) -> Result<(Linked, Linked), String> {
    let l = link_in(dir, &Linker::lld()?, args)?;
    succeeded(&l, "the reference ld.lld-22")?;
    let w = link_in(dir, &Linker::weld()?, args)?;
    succeeded(&w, "weld")?;
    Ok((l, w))
}

/// Both directories hold the same names, recursively, and neither holds a program unless
/// `linked` (the output of a link that also writes index files).
fn same_files(l: &Linked, w: &Linked, linked: bool) -> Check {
    let (lt, wt) = (tree(&l.dir)?, tree(&w.dir)?);
    if lt != wt {
        let only_l: Vec<&String> = lt.difference(&wt).collect();
        let only_w: Vec<&String> = wt.difference(&lt).collect();
        return Err(format!(
            "the files written differ from lld's\n  only lld's: {only_l:?}\n  only weld's: {only_w:?}"
        ));
    }
    for x in [l, w] {
        if x.dir.join("prog").exists() != linked {
            return Err(format!(
                "{}: a program was {}written",
                x.dir.display(),
                if linked { "not " } else { "" }
            ));
        }
    }
    Ok(())
}

/// The list of native objects (`--thinlto-index-only=FILE`) must be lld's, line for line; its
/// lines.
fn same_list(l: &Linked, w: &Linked, file: &str) -> Result<Vec<String>, String> {
    let read = |d: &Path| {
        String::from_utf8(paths::read(&d.join(file))?).map_err(|e| format!("{file}: {e}"))
    };
    let (lt, wt) = (read(&l.dir)?, read(&w.dir)?);
    if lt != wt {
        return Err(format!(
            "{file} differs from lld's\n{}",
            text_diff("weld", &wt, "lld", &lt)
        ));
    }
    Ok(wt.lines().map(String::from).collect())
}

/// Each of `files` (relative to `dir`) must exist and be empty or not, as `empty` says.
fn check_sizes(dir: &Path, files: &[&str], empty: bool) -> Check {
    for f in files {
        let len = std::fs::metadata(dir.join(f))
            .map_err(|e| format!("{}: {e}", dir.join(f).display()))?
            .len();
        if (len == 0) != empty {
            return Err(format!(
                "{f} should {}be empty (it has {len} bytes)",
                if empty { "" } else { "not " }
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The distributed build

/// Extracts archive member `member` of `archive` (in `dir`) as the file a module id names:
/// `lib.a(g.o at 90)`, which is where a distributed backend looks for the module's bitcode.
fn extract_member(dir: &Path, archive: &str, member: &str, as_name: &str) -> Check {
    let mut cmd = Command::new(tools::find(lto::LLVM_AR)?);
    cmd.current_dir(dir).args(["p", archive, member]);
    let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-ar-22 p")?;
    paths::write(&dir.join(as_name), &o.stdout)
}

/// Compiles module `module` (its bitcode file, relative to `dir`) from its index file
/// `index` into `native`, as a distributed backend does.
fn backend(dir: &Path, module: &str, index: &str, native: &str) -> Check {
    if let Some(parent) = Path::new(native).parent() {
        std::fs::create_dir_all(dir.join(parent)).map_err(|e| e.to_string())?;
    }
    let mut cmd = Command::new(tools::find(tools::CLANG)?);
    cmd.current_dir(dir)
        .args(["-c", "-O2", "-x", "ir", module])
        .arg(format!("-fthinlto-index={index}"))
        .args(["-o", native]);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("the ThinLTO backend of {module}"))?;
    // clang writes an empty object, and succeeds, when the index tells it to skip the module
    // or a module it imports from cannot be read: that is a broken distributed build here.
    let obj = paths::read(&dir.join(native))?;
    if !obj.starts_with(b"\x7fELF") {
        return Err(format!(
            "the ThinLTO backend of {module} wrote no object ({} bytes in {native})",
            obj.len()
        ));
    }
    Ok(())
}

/// Each module of `modules` compiled from its `MODULE.thinlto.bc` into `MODULE.native.o` (the
/// distributed backends, run locally); the native objects in the same order.
fn backends(dir: &Path, modules: &[impl AsRef<str>]) -> Result<Vec<String>, String> {
    let mut natives = Vec::new();
    for m in modules {
        let m = m.as_ref();
        let native = format!("{m}.native.o");
        backend(dir, m, &format!("{m}.thinlto.bc"), &native)?;
        natives.push(native);
    }
    Ok(natives)
}

/// Links `objects` (native, relative to `dir`) with weld into `dir/final`, runs it and compares
/// its output with the in-process ThinLTO build's.
fn final_link_and_run(dir: &Path, objects: &[String]) -> Check {
    final_link_and_run_expecting(dir, objects, EXPECTED)
}

/// [`final_link_and_run`] for a program that must print `expected`.
fn final_link_and_run_expecting(dir: &Path, objects: &[String], expected: &str) -> Check {
    let weld = Linker::weld()?;
    let mut cmd = Command::new(tools::find(tools::CLANG)?);
    cmd.current_dir(dir)
        .args(lto::use_linker(&weld))
        .args(objects)
        .args(["-o", "final"]);
    let link = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    if !link.success() {
        return Err(format!(
            "weld's link of the distributed build's objects failed\n{}",
            link.report()
        ));
    }
    let ran = lto::run_program(dir, &dir.join("final"), &[])?;
    if !ran.success() || ran.stdout_str() != expected {
        return Err(format!(
            "the distributed build's program does not do what the in-process build does \
             (expected {expected:?})\n{}",
            ran.report()
        ));
    }
    Ok(())
}

/// The in-process ThinLTO build of the same inputs, with weld, must print `EXPECTED` (so the
/// distributed build is compared with something that works).
fn in_process_reference(dir: &Path, inputs: &[&str]) -> Check {
    let l = link_in(dir, &Linker::weld()?, &[&["-flto=thin"], inputs].concat())?;
    succeeded(&l, "weld (in-process ThinLTO)")?;
    let ran = lto::run_program(&l.dir, &l.dir.join("prog"), &[])?;
    if !ran.success() || ran.stdout_str() != EXPECTED {
        return Err(format!(
            "the in-process ThinLTO build prints the wrong thing (expected {EXPECTED:?})\n{}",
            ran.report()
        ));
    }
    std::fs::rename(&l.dir, dir.join("in-process")).map_err(|e| e.to_string())
}

/// The offset of `lib.a`'s member `g.o` as lld names it, read from lld's list.
fn member_module(list: &[String]) -> Result<String, String> {
    list.iter()
        .find(|m| m.contains("lib.a(g.o at "))
        .cloned()
        .ok_or_else(|| format!("no lib.a(g.o at N) module in the list: {list:?}"))
}

// ---------------------------------------------------------------------------------------------
// The tests

const INPUTS: &[&str] = &["main.o", "b.o", "full.o", "lib.a"];

/// `--thinlto-index-only=list.txt --thinlto-emit-imports-files`, with the full-LTO module's
/// object written by `--lto-obj-path`; then the distributed build from weld's files.
fn index_only(dir: &Path) -> Check {
    build_inputs(dir, "inputs")?;
    in_process_reference(dir, INPUTS)?;
    let args = [
        &["-flto=thin"],
        INPUTS,
        &[
            "-Wl,--thinlto-index-only=list.txt",
            "-Wl,--thinlto-emit-imports-files",
            "-Wl,--lto-obj-path=full.native.o",
        ],
    ]
    .concat();
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, false)?;
    let list = same_list(&l, &w, "list.txt")?;
    let member = member_module(&list)?;
    let want = vec!["main.o".to_string(), "b.o".to_string(), member.clone()];
    if list != want {
        return Err(format!("list.txt is {list:?}, expected {want:?}"));
    }
    // The full-LTO module has no ThinLTO index: empty files; the member nothing extracted has
    // an index that tells the backend to skip it.
    check_sizes(&w.dir, &["full.o.thinlto.bc", "full.o.imports"], true)?;
    check_sizes(
        &w.dir,
        &[
            "main.o.thinlto.bc",
            "b.o.thinlto.bc",
            &format!("{member}.thinlto.bc"),
        ],
        false,
    )?;
    let skipped: Vec<String> = tree(&w.dir)?
        .into_iter()
        .filter(|f| f.starts_with("lib.a(u.o at ") && f.ends_with(").thinlto.bc"))
        .collect();
    if skipped.len() != 1 {
        return Err(format!(
            "expected one index file for the member nothing extracts, found {skipped:?}"
        ));
    }
    check_sizes(&w.dir, &[&skipped[0]], false)?;
    // main.o imports f from b.o and b.o imports bump from main.o.
    for (m, from) in [("main.o", "b.o"), ("b.o", "main.o")] {
        let imports = String::from_utf8_lossy(&paths::read(&w.dir.join(format!("{m}.imports")))?)
            .into_owned();
        if !imports.lines().any(|l| l == from) {
            return Err(format!("{m}.imports should list {from}: {imports:?}"));
        }
    }
    // The distributed build, from weld's files.
    extract_member(&w.dir, "lib.a", "g.o", &member)?;
    let mut natives = backends(&w.dir, &list)?;
    natives.push("full.native.o".to_string());
    final_link_and_run(&w.dir, &natives)
}

/// `--thinlto-prefix-replace=src/;idx/;nat/` with the inputs under `src/`: the index and
/// imports files go to `idx/`, the list names the native objects under `nat/` (whose directory
/// is created, empty); the backends compile into those very paths and the final link takes
/// the list as it is.
fn prefix_replace_native(dir: &Path) -> Check {
    build_inputs(dir, "inputs/src")?;
    let inputs: Vec<String> = INPUTS.iter().map(|i| format!("src/{i}")).collect();
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let args = [
        &["-flto=thin"],
        &inputs[..],
        &[
            "-Wl,--thinlto-index-only=list.txt",
            "-Wl,--thinlto-prefix-replace=src/;idx/;nat/",
            "-Wl,--thinlto-emit-imports-files",
            "-Wl,--lto-obj-path=full.native.o",
        ],
    ]
    .concat();
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, false)?;
    let list = same_list(&l, &w, "list.txt")?;
    if !list.iter().all(|m| m.starts_with("nat/")) || list.len() != 3 {
        return Err(format!(
            "list.txt should name three objects under nat/: {list:?}"
        ));
    }
    let files = tree(&w.dir)?;
    for want in [
        "idx/main.o.thinlto.bc",
        "idx/b.o.imports",
        "idx/full.o.thinlto.bc",
        "nat",
    ] {
        if !files.contains(want) {
            return Err(format!("{want} was not written: {files:?}"));
        }
    }
    if files
        .iter()
        .any(|f| f.starts_with("src/") && f.contains(".thinlto.bc"))
    {
        return Err(format!("index files were written under src/: {files:?}"));
    }
    let member = member_module(&list)?;
    let member_path = member.replacen("nat/", "src/", 1);
    extract_member(&w.dir, "src/lib.a", "g.o", &member_path)?;
    for native in &list {
        let module = native.replacen("nat/", "src/", 1);
        let index = format!("{}.thinlto.bc", native.replacen("nat/", "idx/", 1));
        backend(&w.dir, &module, &index, native)?;
    }
    let mut objects = list.clone();
    objects.push("full.native.o".to_string());
    final_link_and_run(&w.dir, &objects)
}

/// `--thinlto-object-suffix-replace=.min.o;.o`: the thin link reads `b.min.o` (minimized
/// bitcode) but the module, its index file and its line in the list are `b.o`'s, whose full
/// bitcode the backend compiles.
fn object_suffix_replace(dir: &Path) -> Check {
    build_inputs(dir, "inputs")?;
    let args = [
        "-flto=thin",
        "main.o",
        "b.min.o",
        "full.o",
        "lib.a",
        "-Wl,--thinlto-index-only=list.txt",
        "-Wl,--thinlto-object-suffix-replace=.min.o;.o",
        "-Wl,--lto-obj-path=full.native.o",
    ];
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, false)?;
    let list = same_list(&l, &w, "list.txt")?;
    if list.first().map(String::as_str) != Some("main.o")
        || list.get(1).map(String::as_str) != Some("b.o")
    {
        return Err(format!("list.txt should start with main.o, b.o: {list:?}"));
    }
    let files = tree(&w.dir)?;
    if !files.contains("b.o.thinlto.bc") || files.contains("b.min.o.thinlto.bc") {
        return Err(format!(
            "b.min.o's index should be b.o.thinlto.bc: {files:?}"
        ));
    }
    let member = member_module(&list)?;
    extract_member(&w.dir, "lib.a", "g.o", &member)?;
    let mut natives = backends(&w.dir, &list)?;
    natives.push("full.native.o".to_string());
    final_link_and_run(&w.dir, &natives)
}

/// `--thinlto-emit-index-files`: the same index (and imports) files, and the program is linked
/// in the same run.
fn emit_index_files(dir: &Path) -> Check {
    build_inputs(dir, "inputs")?;
    let args = [
        &["-flto=thin"],
        INPUTS,
        &[
            "-Wl,--thinlto-emit-index-files",
            "-Wl,--thinlto-emit-imports-files",
        ],
    ]
    .concat();
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, true)?;
    let files = tree(&w.dir)?;
    for want in ["main.o.thinlto.bc", "b.o.imports", "full.o.thinlto.bc"] {
        if !files.contains(want) {
            return Err(format!("{want} was not written: {files:?}"));
        }
    }
    check_sizes(&w.dir, &["main.o.thinlto.bc"], false)?;
    let ran = lto::run_program(&w.dir, &w.dir.join("prog"), &[])?;
    if !ran.success() || ran.stdout_str() != EXPECTED {
        return Err(format!(
            "the program linked with --thinlto-emit-index-files prints the wrong thing\n{}",
            ran.report()
        ));
    }
    // From these index files, the distributed build works too. Every module a backend imports
    // from must be readable first: the member too.
    let member = files
        .iter()
        .find(|f| f.starts_with("lib.a(g.o at ") && f.ends_with(").thinlto.bc"))
        .map(|f| f.trim_end_matches(".thinlto.bc").to_string())
        .ok_or_else(|| format!("no index file for lib.a's g.o: {files:?}"))?;
    extract_member(&w.dir, "lib.a", "g.o", &member)?;
    let list = ["main.o", "b.o"];
    let mut natives = backends(&w.dir, &list)?;
    let native = format!("{member}.native.o");
    backend(&w.dir, &member, &format!("{member}.thinlto.bc"), &native)?;
    natives.push(native);
    // The full-LTO module is compiled natively on its own.
    let mut cmd = Command::new(tools::find(tools::CLANG)?);
    cmd.current_dir(&w.dir)
        .args(["-c", "-O2", "full.c", "-o", "full.native.o"]);
    paths::write(&w.dir.join("full.c"), FULL_C)?;
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("compiling full.c")?;
    natives.push("full.native.o".to_string());
    final_link_and_run(&w.dir, &natives)
}

/// The `-plugin-opt=` spellings (gold's, which clang passes through `-Wl,`) do what the options
/// do; lld ignores `-plugin-opt=thinlto-emit-index-files` (its `-plugin-opt=thinlto` prefix
/// option swallows it), and so does weld.
fn plugin_opt_spellings(dir: &Path) -> Check {
    build_inputs(dir, "inputs/src")?;
    let args = [
        "-flto=thin",
        "src/main.o",
        "src/b.min.o",
        "src/full.o",
        "src/lib.a",
        "-Wl,-plugin-opt=thinlto-index-only=list.txt",
        "-Wl,--plugin-opt=thinlto-emit-imports-files",
        "-Wl,-plugin-opt=thinlto-prefix-replace=src/;idx/",
        "-Wl,-plugin-opt=thinlto-object-suffix-replace=.min.o;.o",
        "-Wl,-plugin-opt=thinlto-emit-index-files",
    ];
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, false)?;
    let list = same_list(&l, &w, "list.txt")?;
    if list.get(1).map(String::as_str) != Some("idx/b.o") {
        return Err(format!(
            "list.txt's second line should be idx/b.o: {list:?}"
        ));
    }
    let files = tree(&w.dir)?;
    for want in ["idx/b.o.thinlto.bc", "idx/b.o.imports"] {
        if !files.contains(want) {
            return Err(format!("{want} was not written: {files:?}"));
        }
    }
    // The plain `-plugin-opt=thinlto-index-only` flag, without a list.
    let (l, w) = link_both(
        dir,
        &[
            "-flto=thin",
            "src/main.o",
            "src/b.o",
            "src/lib.a",
            "-Wl,-plugin-opt=thinlto-index-only",
        ],
    )?;
    same_files(&l, &w, false)?;
    if !tree(&w.dir)?.contains("src/b.o.thinlto.bc") {
        return Err("-plugin-opt=thinlto-index-only wrote no src/b.o.thinlto.bc".to_string());
    }
    Ok(())
}

/// Under `--gc-sections` weld's graph decides what LTO is told, in index-only mode as in
/// process: `helper` (b.o), which only dead native code (`dead.o`) calls, is visible to regular
/// objects for lld but not for weld. The files written are still lld's; b.o's index differs,
/// and the object the distributed backend makes from it has no `helper` (internalized, then
/// dropped), where lld's has one. The distributed build from weld's files links (the dead
/// reference goes with its section) and runs.
fn gc_sections(dir: &Path) -> Check {
    build_inputs(dir, "inputs")?;
    let args = [
        &["-flto=thin"],
        INPUTS,
        &[
            "dead.o",
            "-Wl,--gc-sections",
            "-Wl,--thinlto-index-only=list.txt",
            "-Wl,--lto-obj-path=full.native.o",
        ],
    ]
    .concat();
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, false)?;
    let list = same_list(&l, &w, "list.txt")?;
    let member = member_module(&list)?;
    for d in [&l.dir, &w.dir] {
        extract_member(d, "lib.a", "g.o", &member)?;
    }
    let mut natives = backends(&w.dir, &list)?;
    backend(&l.dir, "b.o", "b.o.thinlto.bc", "b.o.native.o")?;
    let helper = |d: &Path| -> Result<bool, String> {
        Ok(lto::defined_symbols(&d.join("b.o.native.o"))?.contains_key("helper"))
    };
    if !helper(&l.dir)? {
        return Err(
            "lld's index should keep helper, which dead native code calls: \
                    the test no longer shows the difference"
                .to_string(),
        );
    }
    if helper(&w.dir)? {
        return Err(
            "weld's index kept helper, which only dead native code calls: the index files \
             do not follow weld's graph"
                .to_string(),
        );
    }
    natives.push("full.native.o".to_string());
    natives.push("dead.o".to_string());
    natives.push("-Wl,--gc-sections".to_string());
    final_link_and_run(&w.dir, &natives)
}

/// A Rust rlib built for cross-language LTO (`-C linker-plugin-lto`): its bitcode member is
/// named as lld names it (`librs.rlib(librs.rs.HASH-cgu.0.rcgu.o at OFFSET)`), `lib.rmeta` is
/// not a module, and the distributed build compiles the Rust module with clang-22 (rustc's
/// LLVM is 22 too).
fn rlib_member(dir: &Path) -> Check {
    let d = dir.join("inputs");
    lto::rlib_and_c_main(&d)?;
    let args = [
        "-flto=thin",
        "m.o",
        "librs.rlib",
        "-Wl,--thinlto-index-only=list.txt",
    ];
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, false)?;
    let list = same_list(&l, &w, "list.txt")?;
    let member = list
        .iter()
        .find(|m| m.starts_with("librs.rlib(librs.rs.") && m.ends_with(")"))
        .cloned()
        .ok_or_else(|| format!("no rlib member module in the list: {list:?}"))?;
    let name = member["librs.rlib(".len()..member.find(" at ").ok_or("no offset")?].to_string();
    extract_member(&w.dir, "librs.rlib", &name, &member)?;
    let natives = backends(&w.dir, &list)?;
    final_link_and_run_expecting(&w.dir, &natives, "42\n")
}

/// With `--fat-lto-objects`, an archive member's `.llvm.lto` bitcode is the module: it is
/// named as the member is (`libg.a(gfat.o at OFFSET)`), as lld names it, and a fat member
/// nothing extracts gets an index file as a bitcode member would.
fn fat_lto_member(dir: &Path) -> Check {
    build_inputs(dir, "inputs")?;
    let d = dir.join("inputs");
    lto::compile(
        &d,
        &d.join("g.c"),
        "gfat.o",
        Lto::Thin,
        &["-ffat-lto-objects"],
    )?;
    lto::compile(
        &d,
        &d.join("u.c"),
        "ufat.o",
        Lto::Thin,
        &["-ffat-lto-objects"],
    )?;
    lto::archive(&d, lto::LLVM_AR, "libg.a", &["gfat.o", "ufat.o"])?;
    let args = [
        "-flto=thin",
        "main.o",
        "b.o",
        "full.o",
        "libg.a",
        "-Wl,--fat-lto-objects",
        "-Wl,--thinlto-index-only=list.txt",
    ];
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, false)?;
    let list = same_list(&l, &w, "list.txt")?;
    if !list.iter().any(|m| m.starts_with("libg.a(gfat.o at ")) {
        return Err(format!(
            "no libg.a(gfat.o at N) module in the list: {list:?}"
        ));
    }
    // The fat member nothing extracts gets the index that tells the backend to skip it.
    let files = tree(&w.dir)?;
    if !files
        .iter()
        .any(|f| f.starts_with("libg.a(ufat.o at ") && f.ends_with(").thinlto.bc"))
    {
        return Err(format!("no index file for libg.a's ufat.o: {files:?}"));
    }
    Ok(())
}

/// No bitcode joins the link (only an archive of bitcode nothing extracts): LLVM never runs,
/// yet lld writes the (empty) list and an index file per member, and no program.
fn no_bitcode(dir: &Path) -> Check {
    build_inputs(dir, "inputs")?;
    let native = dir.join("inputs").join("native.c");
    paths::write(&native, "int main(void) { return 0; }\n")?;
    lto::compile(&dir.join("inputs"), &native, "native.o", Lto::Native, &[])?;
    let args = [
        "native.o",
        "lib.a",
        "-Wl,--thinlto-index-only=list.txt",
        "-Wl,--thinlto-emit-imports-files",
    ];
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, false)?;
    let list = same_list(&l, &w, "list.txt")?;
    if !list.is_empty() {
        return Err(format!("list.txt should be empty: {list:?}"));
    }
    let members: Vec<String> = tree(&w.dir)?
        .into_iter()
        .filter(|f| f.starts_with("lib.a(") && f.ends_with(".thinlto.bc"))
        .collect();
    if members.len() != 2 {
        return Err(format!("expected two members' index files: {members:?}"));
    }
    for m in &members {
        check_sizes(&w.dir, &[m], false)?;
    }
    Ok(())
}

/// `--thinlto-single-module=b.o`: LTO compiles only that module and nothing is linked (lld's
/// debugging aid); with `--save-temps` its object is kept as lld keeps it.
fn single_module(dir: &Path) -> Check {
    build_inputs(dir, "inputs")?;
    let args = [
        "-flto=thin",
        "main.o",
        "b.o",
        "lib.a",
        "-Wl,--thinlto-single-module=b.o",
        "-Wl,--save-temps=prelink",
    ];
    let (l, w) = link_both(dir, &args)?;
    same_files(&l, &w, false)?;
    if !tree(&w.dir)?.contains("prog.lto.b.o") {
        return Err("no prog.lto.b.o written".to_string());
    }
    Ok(())
}

/// Bad values fail as lld fails, with its message.
fn errors(dir: &Path) -> Check {
    build_inputs(dir, "inputs")?;
    let cases: &[(&[&str], &str)] = &[
        (
            &["-Wl,--thinlto-prefix-replace=x"],
            "--thinlto-prefix-replace= expects 'old;new' format, but got x",
        ),
        (
            &["-Wl,-plugin-opt=thinlto-object-suffix-replace=x"],
            "-plugin-opt=thinlto-object-suffix-replace= expects 'old;new' format, but got x",
        ),
        (
            &[
                "-Wl,--thinlto-emit-index-files",
                "-Wl,--thinlto-prefix-replace=a;b",
            ],
            "--thinlto-prefix-replace is not supported with --thinlto-emit-index-files",
        ),
        (
            &[
                "-Wl,--thinlto-emit-index-files",
                "-Wl,--thinlto-object-suffix-replace=a;b",
            ],
            "--thinlto-object-suffix-replace is not supported with --thinlto-emit-index-files",
        ),
        (
            &[
                "-Wl,--thinlto-index-only",
                "-Wl,--thinlto-prefix-replace=a;b;c",
            ],
            "--thinlto-prefix-replace=old_dir;new_dir;obj_dir must be used with \
             --thinlto-index-only=",
        ),
        (
            &["-Wl,--thinlto-index-only=no/such/dir/list.txt"],
            "cannot open no/such/dir/list.txt: No such file or directory",
        ),
    ];
    for (extra, want) in cases {
        let args = [&["-flto=thin", "main.o", "b.o", "lib.a"], *extra].concat();
        for linker in [Linker::lld()?, Linker::weld()?] {
            let l = link_in(dir, &linker, &args)?;
            let err = l.out.stderr_str();
            let first = err
                .lines()
                .find(|l| l.contains("error: "))
                .map(|l| l[l.find("error: ").unwrap_or(0) + 7..].to_string());
            if l.out.success() || first.as_deref() != Some(*want) {
                return Err(format!(
                    "{} with {extra:?}: expected the error {want:?}\n{}",
                    linker.label,
                    l.out.report()
                ));
            }
            if l.dir.join("prog").exists() {
                return Err(format!("{} wrote a program with {extra:?}", linker.label));
            }
        }
    }
    Ok(())
}
