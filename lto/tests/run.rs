//! Whole LTO runs: clang-22 bitcode in, native objects out, linked by
//! ld.lld-22 into programs that must run and print the right thing.

#![cfg(feature = "llvm")]

mod common;

use common::*;
use lto::{BitcodeFile, Lto, LtoConfig, LtoOutput, RelocModel, Resolution};

const MAIN_SRC: &str = r#"
#include <stdio.h>
extern int foo(void);
int main(void) { printf("result %d\n", foo()); return 0; }
"#;

const FOO_SRC: &str = r#"
static int helper(int x) { return x * 2; }
int unused_in_lto(void) { return 7; }
int foo(void) { return helper(21); }
"#;

/// Compiles main.c and foo.c with the given flags (one set per file).
fn two_modules(
    dir: &std::path::Path,
    main_flags: &[&str],
    foo_flags: &[&str],
) -> (BitcodeFile, BitcodeFile) {
    let a = compile(dir, "main.c", MAIN_SRC, main_flags);
    let b = compile(dir, "foo.c", FOO_SRC, foo_flags);
    (open(&a, "main.o"), open(&b, "foo.o"))
}

fn lto_run(config: LtoConfig, files: Vec<BitcodeFile>, native_refs: &[&str]) -> LtoOutput {
    let refs: Vec<&BitcodeFile> = files.iter().collect();
    let res = resolve(&refs, native_refs);
    let mut lto = Lto::new(config).unwrap();
    for (f, r) in files.into_iter().zip(res) {
        lto.add(f, &r).unwrap_or_else(|e| panic!("{e}"));
    }
    lto.run().unwrap_or_else(|e| panic!("{e}"))
}

fn exe_config() -> LtoConfig {
    LtoConfig {
        reloc_model: RelocModel::Pic,
        thin_jobs: 2,
        ..LtoConfig::default()
    }
}

#[test]
fn thin_lto_two_modules_link_and_run() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_modules(dir.path(), &["-flto=thin", "-O2"], &["-flto=thin", "-O2"]);
    assert!(a.is_thin() && b.is_thin());
    let out = lto_run(exe_config(), vec![a, b], &["main"]);
    assert_eq!(out.stats.modules, 2);
    assert_eq!(out.stats.thin_modules, 2);
    assert_eq!(out.objects.len(), 2, "one object per ThinLTO module");
    let tasks: Vec<u32> = out.objects.iter().map(|o| o.task).collect();
    assert!(
        tasks.windows(2).all(|w| w[0] < w[1]),
        "task order: {tasks:?}"
    );
    assert_eq!(out.objects[0].module_name, "main.o");
    assert_eq!(out.objects[1].module_name, "foo.o");
    for o in &out.objects {
        assert_eq!(
            &o.data[..4],
            b"\x7fELF",
            "{} is an ELF object",
            o.module_name
        );
        assert!(!o.from_cache);
    }
    assert!(out.stats.functions_compiled >= 2, "{:?}", out.stats);
    assert_eq!(out.stats.cache_hits, 0);
    let objs: Vec<Vec<u8>> = out.objects.into_iter().map(|o| o.data).collect();
    assert_eq!(link_and_run(dir.path(), &objs), "result 42\n");
}

#[test]
fn full_lto_two_modules_link_and_run() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_modules(dir.path(), &["-flto", "-O2"], &["-flto", "-O2"]);
    assert!(!a.is_thin() && !b.is_thin());
    let out = lto_run(exe_config(), vec![a, b], &["main"]);
    assert_eq!(out.stats.regular_modules, 2);
    assert_eq!(out.objects.len(), 1, "full LTO merges into one module");
    assert_eq!(out.objects[0].task, 0);
    assert_eq!(out.objects[0].module_name, "ld-temp.o");
    // Not visible to regular objects and unreferenced: internalized and gone.
    let syms = symbol_names(&out.objects[0].data);
    assert!(syms.iter().any(|s| s == "main"), "{syms:?}");
    assert!(!syms.iter().any(|s| s == "unused_in_lto"), "{syms:?}");
    let objs: Vec<Vec<u8>> = out.objects.into_iter().map(|o| o.data).collect();
    assert_eq!(link_and_run(dir.path(), &objs), "result 42\n");
}

#[test]
fn mixed_thin_and_full_with_partitions() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_modules(dir.path(), &["-flto", "-O1"], &["-flto=thin", "-O1"]);
    let config = LtoConfig {
        partitions: 2,
        reloc_model: RelocModel::Static,
        ..exe_config()
    };
    let out = lto_run(config, vec![a, b], &["main"]);
    assert_eq!((out.stats.regular_modules, out.stats.thin_modules), (1, 1));
    assert_eq!(out.stats.tasks, 3, "2 partitions + 1 ThinLTO module");
    assert!(
        out.objects.iter().all(|o| !o.data.is_empty()),
        "empty tasks are left out"
    );
    let objs: Vec<Vec<u8>> = out.objects.into_iter().map(|o| o.data).collect();
    assert_eq!(link_and_run_static(dir.path(), &objs), "result 42\n");
}

/// A non-PIE link for Static relocation model code.
fn link_and_run_static(dir: &std::path::Path, objects: &[Vec<u8>]) -> String {
    use std::process::Command;
    let mut cmd = Command::new(tool("clang-22"));
    cmd.arg("-fuse-ld=lld")
        .arg(format!("--ld-path={}", tool("ld.lld-22").display()))
        .arg("-no-pie");
    for (i, o) in objects.iter().enumerate() {
        let p = dir.join(format!("static{i}.o"));
        std::fs::write(&p, o).unwrap();
        cmd.arg(p);
    }
    let exe = dir.join("prog-static");
    cmd.arg("-o").arg(&exe);
    run(&mut cmd);
    run(&mut Command::new(&exe))
}

fn symbol_names(obj: &[u8]) -> Vec<String> {
    use object::{Object as _, ObjectSymbol as _};
    let f = object::read::elf::ElfFile64::<object::Endianness>::parse(obj).unwrap();
    f.symbols()
        .filter_map(|s| s.name().ok().map(str::to_string))
        .collect()
}

#[test]
fn constructors_go_to_init_array() {
    let dir = tempfile::tempdir().unwrap();
    let src = r#"
#include <stdio.h>
/* Output from the constructor: a constant store would be folded away. */
__attribute__((constructor)) static void init(void) { puts("ctor ran"); }
int main(void) { puts("main"); return 0; }
"#;
    for flag in ["-flto=thin", "-flto"] {
        let bc = compile(dir.path(), "ctor.c", src, &[flag, "-O2"]);
        let out = lto_run(exe_config(), vec![open(&bc, "ctor.o")], &["main"]);
        let sections = section_names(&out.objects[0].data);
        assert!(
            sections.iter().any(|s| s.starts_with(".init_array")),
            "{flag}: {sections:?}"
        );
        assert!(
            !sections.iter().any(|s| s.starts_with(".ctors")),
            "{flag}: {sections:?}"
        );
        // Function sections are on, as in lld.
        assert!(
            sections.iter().any(|s| s == ".text.main"),
            "{flag}: {sections:?}"
        );
        let objs: Vec<Vec<u8>> = out.objects.into_iter().map(|o| o.data).collect();
        assert_eq!(link_and_run(dir.path(), &objs), "ctor ran\nmain\n");
    }
}

#[test]
fn thin_lto_cache_hits_on_second_run() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let config = LtoConfig {
        cache_dir: Some(cache.clone()),
        ..exe_config()
    };
    let build = || two_modules(dir.path(), &["-flto=thin", "-O2"], &["-flto=thin", "-O2"]);

    let (a, b) = build();
    let first = lto_run(config.clone(), vec![a, b], &["main"]);
    assert_eq!(first.stats.cache_hits, 0);
    assert!(first.objects.iter().all(|o| !o.from_cache));
    assert!(
        std::fs::read_dir(&cache).unwrap().count() >= 2,
        "cache entries written"
    );

    let (a, b) = build();
    let second = lto_run(config, vec![a, b], &["main"]);
    assert_eq!(second.stats.cache_hits, 2, "{:?}", second.stats);
    assert!(second.objects.iter().all(|o| o.from_cache));
    assert_eq!(
        second.stats.functions_compiled, 0,
        "nothing compiled on a full hit"
    );
    // The same bytes whether compiled or cached.
    let bytes = |o: &LtoOutput| o.objects.iter().map(|o| o.data.clone()).collect::<Vec<_>>();
    assert_eq!(bytes(&first), bytes(&second));
    assert_eq!(link_and_run(dir.path(), &bytes(&second)), "result 42\n");
}

#[test]
fn output_does_not_depend_on_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for jobs in [1, 4] {
        let (a, b) = two_modules(dir.path(), &["-flto=thin", "-O2"], &["-flto=thin", "-O2"]);
        let out = lto_run(
            LtoConfig {
                thin_jobs: jobs,
                ..exe_config()
            },
            vec![a, b],
            &["main"],
        );
        outputs.push(
            out.objects
                .into_iter()
                .map(|o| (o.task, o.data))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn emit_asm_and_obj_path() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_modules(dir.path(), &["-flto=thin"], &["-flto=thin"]);
    let obj_path = dir.path().join("out.lto.o");
    let out = lto_run(
        LtoConfig {
            emit_asm: true,
            obj_path: Some(obj_path.clone()),
            ..exe_config()
        },
        vec![a, b],
        &["main"],
    );
    let main = out
        .objects
        .iter()
        .find(|o| o.module_name == "main.o")
        .unwrap();
    let text = String::from_utf8(main.data.clone()).unwrap();
    assert!(text.contains("main:"), "{text}");
    // Task 0 is the (always emitted, here empty) full-LTO object; then one per module.
    assert!(obj_path.exists());
    assert!(dir.path().join("out.lto.o1").exists());
    assert!(dir.path().join("out.lto.o2").exists());
    assert_eq!(out.stats.functions_compiled, 0, "assembly is not counted");
}

#[test]
fn save_temps_writes_intermediate_bitcode() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_modules(dir.path(), &["-flto"], &["-flto"]);
    let prefix = format!("{}/prog.", dir.path().display());
    lto_run(
        LtoConfig {
            save_temps: Some(prefix),
            ..exe_config()
        },
        vec![a, b],
        &["main"],
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("prog.") && n.ends_with(".bc")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n == "prog.resolution.txt"),
        "{names:?}"
    );
}

#[test]
fn bad_configuration_and_resolutions_are_errors() {
    let e = Lto::new(LtoConfig {
        opt_level: 4,
        ..LtoConfig::default()
    })
    .unwrap_err();
    assert!(e.contains("optimization level"), "{e}");
    let e = Lto::new(LtoConfig {
        partitions: 0,
        ..LtoConfig::default()
    })
    .unwrap_err();
    assert!(e.contains("partitions"), "{e}");
    let e = Lto::new(LtoConfig {
        llvm_args: vec!["-no-such-llvm-option-weld".into()],
        ..LtoConfig::default()
    })
    .unwrap_err();
    assert!(e.contains("no-such-llvm-option-weld"), "{e}");
    let e = Lto::new(LtoConfig {
        cache_dir: Some("/tmp".into()),
        cache_policy: Some("prune_interval=bogus".into()),
        ..LtoConfig::default()
    })
    .unwrap_err();
    assert!(e.contains("cache policy"), "{e}");

    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_modules(dir.path(), &["-flto=thin"], &["-flto=thin"]);
    let mut lto = Lto::new(exe_config()).unwrap();
    let e = lto.add(a, &[]).unwrap_err();
    assert!(
        e.starts_with("main.o: 0 symbol resolutions given for"),
        "{e}"
    );
    let undefined = b.symbols().position(|s| s.flags.is_undefined());
    assert!(undefined.is_none(), "foo.c has no undefined symbols");
    let n = b.num_symbols();
    let (a2, _) = two_modules(dir.path(), &["-flto=thin"], &["-flto=thin"]);
    let printf = a2.symbols().position(|s| s.name == b"printf").unwrap();
    let mut res = vec![Resolution::default(); a2.num_symbols()];
    res[printf].prevailing = true;
    let e = lto.add(a2, &res).unwrap_err();
    assert!(e.contains("cannot be prevailing"), "{e}");
    lto.add(
        b,
        &vec![
            Resolution {
                prevailing: true,
                ..Resolution::default()
            };
            n
        ],
    )
    .unwrap();
    let (_, b2) = two_modules(dir.path(), &["-flto=thin"], &["-flto=thin"]);
    let e = lto.add(b2, &vec![Resolution::default(); n]).unwrap_err();
    assert!(e.contains("added twice"), "{e}");
}

#[test]
fn set_llvm_options_reports_bad_options() {
    let e = lto::set_llvm_options(&["-weld-bogus-option".to_string()]).unwrap_err();
    assert!(e.contains("weld-bogus-option"), "{e}");
    lto::set_llvm_options(&[]).unwrap();
}

#[test]
fn llvm_options_are_accepted_repeatedly() {
    // -mllvm options go to LLVM's global registry; two links in one process
    // (as in these tests) must both accept them.
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..2 {
        let (a, b) = two_modules(dir.path(), &["-flto=thin", "-O2"], &["-flto=thin", "-O2"]);
        let config = LtoConfig {
            llvm_args: vec!["-import-instr-limit=50".into()],
            ..exe_config()
        };
        let out = lto_run(config, vec![a, b], &["main"]);
        assert_eq!(out.objects.len(), 2);
    }
}

#[test]
fn empty_run_produces_nothing() {
    let out = Lto::new(LtoConfig::default()).unwrap().run().unwrap();
    assert!(out.objects.is_empty());
    assert_eq!(out.stats.modules, 0);
}

#[test]
fn warnings_are_collected_and_errors_fail_the_run() {
    let dir = tempfile::tempdir().unwrap();
    // -Wframe-larger-than becomes a function attribute that codegen checks,
    // so the warning is emitted during LTO.
    let src = r#"
#include <stdio.h>
int main(int argc, char **argv) { volatile char big[4096]; big[argc] = 1; printf("%d\n", big[1]); return 0; }
"#;
    let bc = compile(
        dir.path(),
        "big.c",
        src,
        &["-flto=thin", "-O1", "-Wframe-larger-than=64"],
    );
    let out = lto_run(exe_config(), vec![open(&bc, "big.o")], &["main"]);
    assert!(
        out.diagnostics
            .iter()
            .any(|d| d.severity == lto::Severity::Warning && d.message.contains("stack frame size")),
        "{:?}",
        out.diagnostics
    );

    // Bad inline asm is only assembled at LTO time: an error diagnostic, which
    // must come back as an Err naming the module, not end the process.
    let src = "void f(void) { __asm__(\"not_an_instruction %eax\"); }\nint main(void) { f(); return 0; }\n";
    for flag in ["-flto=thin", "-flto"] {
        let bc = compile(dir.path(), "badasm.c", src, &[flag]);
        let f = open(&bc, "badasm.o");
        let res = resolve(&[&f], &["main"]);
        let mut lto = Lto::new(exe_config()).unwrap();
        lto.add(f, &res[0]).unwrap();
        let e = lto.run().unwrap_err().to_string();
        eprintln!("{e}");
        assert!(
            e.contains("not_an_instruction") || e.contains("invalid instruction"),
            "{e}"
        );
        assert!(e.contains("badasm.o") || flag == "-flto", "{e}");
    }
}

#[test]
fn thin_index_only_writes_indexes_and_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let a = compile(dir.path(), "main.c", MAIN_SRC, &["-flto=thin", "-O2"]);
    let b = compile(dir.path(), "foo.c", FOO_SRC, &["-flto=thin", "-O2"]);
    // Module ids name the files written: absolute, so they land in the temporary directory.
    let id = |n: &str| dir.path().join(n).display().to_string();
    let files = vec![open(&a, &id("main.o")), open(&b, &id("foo.o"))];
    let list = dir.path().join("list.txt");
    let out = lto_run(
        LtoConfig {
            thin_index_files: Some(lto::ThinIndexFiles {
                index_only: true,
                emit_imports_files: true,
                linked_objects_file: Some(list.clone()),
                ..Default::default()
            }),
            ..exe_config()
        },
        files,
        &["main"],
    );
    assert!(
        out.objects.is_empty(),
        "index-only compiles no ThinLTO module"
    );
    assert_eq!(
        std::fs::read_to_string(&list).unwrap(),
        format!("{}\n{}\n", id("main.o"), id("foo.o")),
        "the native objects, in the order the modules were added"
    );
    for m in ["main.o", "foo.o"] {
        let index = std::fs::read(id(&format!("{m}.thinlto.bc"))).unwrap();
        assert!(index.starts_with(b"BC\xc0\xde"), "{m}'s index is bitcode");
    }
    let imports = std::fs::read_to_string(id("main.o.imports")).unwrap();
    assert!(imports.lines().any(|l| l == id("foo.o")), "{imports:?}");

    // What lld writes for bitcode that did not join the link.
    let skipped = dir.path().join("lazy.o.thinlto.bc");
    lto::write_empty_thin_index(&skipped).unwrap();
    assert!(std::fs::read(&skipped).unwrap().starts_with(b"BC\xc0\xde"));
    assert!(
        lto::write_empty_thin_index(&dir.path().join("no/such/dir/x.thinlto.bc"))
            .unwrap_err()
            .starts_with("cannot open ")
    );
}

/// A distributor for LLVM's DTLTO job file, as a `python3 -c` program: runs each job's command
/// line (`common.args` + the job's `args`) and exits with the first failure's status.
const RUN_JOBS: &str = r#"
import json, subprocess, sys
d = json.load(open(sys.argv[-1]))
for j in d["jobs"]:
    r = subprocess.run(d["common"]["args"] + j["args"])
    if r.returncode:
        sys.exit(r.returncode)
"#;

/// The two modules written to `dir` under absolute module ids (the remote compiler reads them
/// by their ids), and a DTLTO configuration running `distributor args...`.
fn dtlto_setup(
    dir: &std::path::Path,
    distributor: &str,
    args: &[&str],
) -> (Vec<BitcodeFile>, LtoConfig) {
    let mut files = Vec::new();
    for (name, src) in [("main", MAIN_SRC), ("foo", FOO_SRC)] {
        let bytes = compile(dir, &format!("{name}.c"), src, &["-flto=thin", "-O2"]);
        let path = dir.join(format!("{name}.o"));
        std::fs::write(&path, &bytes).unwrap();
        files.push(open(&bytes, &path.display().to_string()));
    }
    let config = LtoConfig {
        dtlto: Some(lto::Dtlto {
            distributor: distributor.to_string(),
            distributor_args: args.iter().map(|a| a.to_string()).collect(),
            remote_compiler: tool("clang-22").display().to_string(),
            linker_output: dir.join("prog").display().to_string(),
            ..Default::default()
        }),
        ..exe_config()
    };
    (files, config)
}

#[test]
fn dtlto_compiles_through_the_distributor() {
    let dir = tempfile::tempdir().unwrap();
    let python = tool("python3").display().to_string();
    let (files, config) = dtlto_setup(dir.path(), &python, &["-c", RUN_JOBS]);
    let out = lto_run(config, files, &["main"]);
    assert_eq!(out.objects.len(), 2, "one object per ThinLTO module");
    assert!(out.stats.functions_compiled >= 2, "{:?}", out.stats);
    let objs: Vec<Vec<u8>> = out.objects.into_iter().map(|o| o.data).collect();
    assert_eq!(link_and_run(dir.path(), &objs), "result 42\n");
    // LLVM's temporary files (indexes, job file, objects) are gone.
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".native.o") || n.ends_with(".json"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

#[test]
fn dtlto_distributor_failure_is_llvms_error() {
    let dir = tempfile::tempdir().unwrap();
    let fail = tool("false").display().to_string();
    let (files, config) = dtlto_setup(dir.path(), &fail, &[]);
    let refs: Vec<&BitcodeFile> = files.iter().collect();
    let res = resolve(&refs, &["main"]);
    let mut lto = Lto::new(config).unwrap();
    for (f, r) in files.into_iter().zip(res) {
        lto.add(f, &r).unwrap();
    }
    let err = lto.run().unwrap_err();
    assert_eq!(
        err.messages,
        ["DTLTO backend compilation: distributor execution failed."]
    );
}
