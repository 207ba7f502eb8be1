//! The precise graph must never be less correct than lld (issue 19). weld tells LTO that a bitcode
//! symbol is visible to regular objects only when live native code (or a root) references it, and
//! with `--gc-archive-members` it loads only the archive members its walk before LTO reaches: both
//! are sound only if the walk sees every edge by which code can become live. Each group below is
//! one such edge (one case of the issue, letters A to P), a small program from
//! `testdata/soundness/<group>/` (see its README.md) built and linked through the driver
//! (`clang-22 -fuse-ld=lld --ld-path=<linker>`, clang++-22 for C++) once with ld.lld-22 and once
//! with weld. lld's behaviour is the specification: weld must link when lld links and fail when it
//! fails (with the same `error:` lines), and the two programs must exit the same way and print the
//! same stdout and stderr. Shared libraries (and the program of `shlib_needs_archive`)
//! additionally have the same dynamic symbols (names with versions, type, binding, visibility,
//! defined or not; no addresses or sizes).
//!
//! Trials are named `<group>::<flavour>::<gc>`:
//!
//! * flavour `thin` / `full`: the sources marked as bitcode are compiled with `-flto=thin` /
//!   `-flto`, the others natively; `native`: everything native (groups without bitcode, and the
//!   all-native twin of `section_group_profile`, `shlib_needs_archive` and `symver_local`). Every
//!   C object is compiled `-O1 -ffunction-sections -fdata-sections` (plus what the case needs).
//! * gc `no_gc`: the link as is; `gc_sections`: with `-Wl,--gc-sections`; `gc_archive_members`
//!   (groups with an archive): weld links with `-Wl,--gc-sections,--gc-archive-members`, lld with
//!   the same command without the weld-only flag (its behaviour is still the expected one).
//!
//! Groups (issue case in parentheses):
//!
//! * `inline_asm` (A): bitcode `main` calls a native function from inline asm; the native
//!   function calls back into bitcode.
//! * `libcall_native` (B1): a 128-bit division in bitcode becomes a call to a native
//!   `__udivti3` that calls back into bitcode (`-static`).
//! * `instrument_functions` (B2): `-finstrument-functions-after-inlining` bitcode calls native
//!   `__cyg_profile_func_enter`, which calls back into bitcode (`-static`).
//! * `cie_personality` (C): an assembly function whose CIE names a personality routine defined
//!   in bitcode (`-no-pie`).
//! * `nonalloc_ref` (D): a non-allocated metadata section of an assembly file references a
//!   bitcode function.
//! * `defsym_bitcode` (E): `--defsym=alias=bc_impl` with `bc_impl` in bitcode, `alias` called
//!   from native code (PIE).
//! * `wrap_bitcode_caller` (F1), `wrap_native_caller` (F2): `--wrap=foo` with `foo`,
//!   `__wrap_foo` and `__real_foo` in bitcode, called from bitcode and from native code.
//! * `start_stop_bitcode` (G): native code walks `__start_myset`..`__stop_myset` over bitcode
//!   variables (lld's link fails under `--gc-sections`; weld's must too).
//! * `libc_start_stop` (H, native): a `__libc_hooks` section reached only through
//!   `__start_`/`__stop_` under `-z start-stop-gc`.
//! * `section_group_profile` (I): `-fprofile-instr-generate` (`__llvm_prf_*` sections in
//!   non-COMDAT groups), native and with bitcode `main.c`.
//! * `weak_start_stop` (J, native): weak `__start_gone`/`__stop_gone` of a dead section.
//! * `absolute_defsym` (K): `--defsym=abs_sym=0x1234` read by bitcode in a PIE.
//! * `libcall_archive_member` (L): bitcode `__udivti3` in an archive member, needed only by the
//!   division LTO lowers (`-static`).
//! * `shlib_needs_archive` (M): an archive member needed only by a shared library's undefined
//!   reference (the library is built by ld.lld-22 for both links).
//! * `gcam_folded_call` (N): a call into an archive member that LTO folds away; lld loads the
//!   member, whose constructor runs. Both `--why-extract` files must list the member.
//! * `symver_local` (O): `.symver foo_v1, foo@VERS_1` under a version script with `local: *`
//!   (shared library; a program linked against it is run).
//! * `cxx_shared_linkonce` (P): a C++ shared library of bitcode with inline virtual functions
//!   (vtable, typeinfo), used by a native program found through `-rpath`.
//!
//! * `safety_net::{thin,full}`: `--verify-precise-graph` itself. The `inline_asm` case is linked
//!   by weld alone with `WELD_FAULT_IGNORE_INLINE_ASM=1`, which hides every inline-asm edge from
//!   the walk: unchecked, the link fails with `undefined symbol: bc_cb`; checked, it fails with
//!   the check's report (the hidden symbol, the live section, the chain to the entry point).
//!
//! lld's program must print the output written in this file (and its link must succeed), or its
//! link must fail with the expected error, or the trial fails as broken: a trial never passes
//! because nothing happened. With `WELD=/usr/bin/ld.lld-22` (checking the harness), the
//! weld-only `--gc-archive-members` is left out and every trial must pass.
//!
//! Each trial works in `target/weld-tests/soundness/<group>/<flavour>/<gc>/`: objects in the
//! directory itself, each linker's outputs, link reports and program run in `lld/` and `weld/`.

#[allow(dead_code)]
#[path = "support/lto.rs"]
mod lto;

use libtest_mimic::{Arguments, Failed, Trial};
use lto::Lto;
use std::path::{Path, PathBuf};
use std::process::Command;
use weld_tests::run::{self, Output};
use weld_tests::tools::{self, Linker};
use weld_tests::{dynelf, dynlink, gc, paths, text_diff, Check};

fn main() {
    let args = Arguments::from_args();
    libtest_mimic::run(&args, trials()).exit();
}

// =============================================================================================
// The cases

/// How a source is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Bitcode of the trial's flavour (a native object in the `native` flavour).
    Bitcode,
    /// Always a native object.
    Native,
}

/// One step of building a case's inputs, in the trial's directory.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// `clang-22 -c -O1 [LTO flag] FLAGS SRC -o OUT` (clang++-22 for C++; `.s` files assembled).
    Compile {
        src: &'static str,
        out: &'static str,
        kind: Kind,
        flags: &'static [&'static str],
    },
    /// `llvm-ar-22 rcs LIB MEMBERS`.
    Archive {
        lib: &'static str,
        members: &'static [&'static str],
    },
    /// A shared library built natively with ld.lld-22, the same file for both links.
    HelperLib {
        src: &'static str,
        out: &'static str,
    },
}

/// One link through the driver, made with each linker into its own sub-directory.
#[derive(Debug, Clone, Copy)]
struct LinkStep {
    /// The output's name in the linker's sub-directory.
    out: &'static str,
    cxx: bool,
    /// Driver arguments (`-o` is added). `{out}` is the linker's sub-directory, `{dir}` the
    /// trial's directory, `{src}` the case's source directory (all absolute).
    args: &'static [&'static str],
    /// Whether the variant's gc flags are added.
    gc: bool,
    /// Whether both linkers' outputs must have the same dynamic symbols.
    dyn_syms: bool,
}

/// What lld does with a case (checked before weld's link is looked at).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Every link succeeds and the program (the last link's output) exits 0 printing this.
    Runs(&'static str),
    /// A link fails with an `error:` line containing this.
    LinkFails(&'static str),
}

struct Case {
    /// The directory under `testdata/soundness/` and the first part of the trial names.
    name: &'static str,
    flavours: &'static [Lto],
    steps: &'static [Step],
    /// The last one's output is the program that is run.
    links: &'static [LinkStep],
    expect: fn(Lto, Gc) -> Expect,
    /// Names (with versions) lld's outputs of the `dyn_syms` links must define.
    lld_exports: &'static [&'static str],
    /// An archive member (`lib.a(member.o)`) the `--why-extract` of both linkers' program links
    /// must list.
    extracted: Option<&'static str>,
}

impl Case {
    fn has_archive(&self) -> bool {
        self.steps.iter().any(|s| matches!(s, Step::Archive { .. }))
    }
}

const SECTIONS: &[&str] = &["-ffunction-sections", "-fdata-sections"];
const THIN_FULL: &[Lto] = &[Lto::Thin, Lto::Full];
const NATIVE: &[Lto] = &[Lto::Native];
const ALL: &[Lto] = &[Lto::Native, Lto::Thin, Lto::Full];

const fn bc(src: &'static str, out: &'static str) -> Step {
    Step::Compile {
        src,
        out,
        kind: Kind::Bitcode,
        flags: SECTIONS,
    }
}

const fn nat(src: &'static str, out: &'static str) -> Step {
    Step::Compile {
        src,
        out,
        kind: Kind::Native,
        flags: SECTIONS,
    }
}

const fn asm(src: &'static str, out: &'static str) -> Step {
    Step::Compile {
        src,
        out,
        kind: Kind::Native,
        flags: &[],
    }
}

/// The one link of a C program, with the variant's gc flags.
const fn program(args: &'static [&'static str]) -> LinkStep {
    LinkStep {
        out: "a.out",
        cxx: false,
        args,
        gc: true,
        dyn_syms: false,
    }
}

const fn case(
    name: &'static str,
    flavours: &'static [Lto],
    steps: &'static [Step],
    links: &'static [LinkStep],
    expect: fn(Lto, Gc) -> Expect,
) -> Case {
    Case {
        name,
        flavours,
        steps,
        links,
        expect,
        lld_exports: &[],
        extracted: None,
    }
}

static CASES: &[Case] = &[
    // A
    case(
        "inline_asm",
        THIN_FULL,
        &[bc("bc.c", "bc.o"), nat("nat.c", "nat.o")],
        &[program(&["-no-pie", "bc.o", "nat.o"])],
        |_, _| Expect::Runs("result=42\n"),
    ),
    // A, with a weak reference from the native code to the bitcode callback
    case(
        "inline_asm_weak",
        THIN_FULL,
        &[bc("bc.c", "bc.o"), nat("nat.c", "nat.o")],
        &[program(&["-no-pie", "bc.o", "nat.o"])],
        |_, _| Expect::Runs("result=42\n"),
    ),
    // B1
    case(
        "libcall_native",
        THIN_FULL,
        &[bc("main.c", "main.o"), nat("rt.c", "rt.o")],
        &[program(&["-static", "main.o", "rt.o"])],
        |_, _| Expect::Runs("q=142857142857142857 hooks=1\n"),
    ),
    // B2
    case(
        "instrument_functions",
        THIN_FULL,
        &[
            Step::Compile {
                src: "main.c",
                out: "main.o",
                kind: Kind::Bitcode,
                flags: &[
                    "-ffunction-sections",
                    "-fdata-sections",
                    "-finstrument-functions-after-inlining",
                ],
            },
            nat("prof.c", "prof.o"),
        ],
        &[program(&["-static", "main.o", "prof.o"])],
        |_, _| Expect::Runs("r=5 notes=2 enters=2 exits=1\n"),
    ),
    // C
    case(
        "cie_personality",
        THIN_FULL,
        &[bc("main.c", "main.o"), asm("eh.s", "eh.o")],
        &[program(&["-no-pie", "main.o", "eh.o"])],
        |_, _| Expect::Runs("asm_fn=5\n"),
    ),
    // D
    case(
        "nonalloc_ref",
        THIN_FULL,
        &[bc("main.c", "main.o"), asm("meta.s", "meta.o")],
        &[program(&["main.o", "meta.o"])],
        |_, _| Expect::Runs("ok\n"),
    ),
    // E
    case(
        "defsym_bitcode",
        THIN_FULL,
        &[bc("main.c", "main.o"), nat("use.c", "use.o")],
        &[program(&["main.o", "use.o", "-Wl,--defsym=alias=bc_impl"])],
        |_, _| Expect::Runs("alias=15\n"),
    ),
    // F1
    case(
        "wrap_bitcode_caller",
        THIN_FULL,
        &[bc("main.c", "main.o")],
        &[program(&["main.o", "-Wl,--wrap=foo"])],
        |_, _| Expect::Runs("wrapped\nr=20\n"),
    ),
    // F2
    case(
        "wrap_native_caller",
        THIN_FULL,
        &[bc("lib.c", "lib.o"), nat("main.c", "main.o")],
        &[program(&["main.o", "lib.o", "-Wl,--wrap=foo"])],
        |_, _| Expect::Runs("wrapped\nr=20\n"),
    ),
    // F, lld's rule: references from the file that defines `foo` are wrapped too
    case(
        "wrap_same_file",
        ALL,
        &[bc("main.c", "main.o")],
        &[program(&["main.o", "-Wl,--wrap=foo"])],
        |_, _| Expect::Runs("wrapped\nwrapped\nr=20 p=40\n"),
    ),
    // G
    case(
        "start_stop_bitcode",
        THIN_FULL,
        &[bc("bc.c", "bc.o"), nat("main.c", "main.o")],
        &[program(&["main.o", "bc.o"])],
        |_, gc| match gc {
            Gc::None => Expect::Runs("sum=6 n=3\n"),
            _ => Expect::LinkFails("undefined symbol: __start_myset"),
        },
    ),
    // H
    case(
        "libc_start_stop",
        NATIVE,
        &[nat("main.c", "main.o")],
        &[program(&["main.o", "-Wl,-z,start-stop-gc"])],
        |_, _| Expect::Runs("hello from __libc_hooks\n"),
    ),
    // I
    case(
        "section_group_profile",
        ALL,
        &[Step::Compile {
            src: "main.c",
            out: "main.o",
            kind: Kind::Bitcode,
            flags: &[
                "-ffunction-sections",
                "-fdata-sections",
                "-fprofile-instr-generate",
            ],
        }],
        &[program(&["-fprofile-instr-generate", "main.o"])],
        |_, _| Expect::Runs("2\n"),
    ),
    // J
    case(
        "weak_start_stop",
        NATIVE,
        &[nat("main.c", "main.o")],
        &[program(&["main.o"])],
        |_, gc| match gc {
            Gc::None => Expect::Runs("start=1 stop=1\n"),
            _ => Expect::Runs("start=0 stop=0\n"),
        },
    ),
    // K
    case(
        "absolute_defsym",
        THIN_FULL,
        &[bc("main.c", "main.o")],
        &[program(&[
            "-pie",
            "-fPIE",
            "main.o",
            "-Wl,--defsym=abs_sym=0x1234",
        ])],
        |_, _| Expect::Runs("1234\n"),
    ),
    // L
    Case {
        extracted: Some("librt.a(rt.o)"),
        ..case(
            "libcall_archive_member",
            THIN_FULL,
            &[
                bc("main.c", "main.o"),
                bc("rt.c", "rt.o"),
                Step::Archive {
                    lib: "librt.a",
                    members: &["rt.o"],
                },
            ],
            &[program(&["-static", "main.o", "librt.a"])],
            |_, _| Expect::Runs("own udivti3\nq=142857142857142857\n"),
        )
    },
    // M
    Case {
        lld_exports: &["cb_from_archive"],
        extracted: Some("libcb.a(cb.o)"),
        ..case(
            "shlib_needs_archive",
            ALL,
            &[
                Step::HelperLib {
                    src: "plug.c",
                    out: "libplug.so",
                },
                bc("main.c", "main.o"),
                bc("cb.c", "cb.o"),
                Step::Archive {
                    lib: "libcb.a",
                    members: &["cb.o"],
                },
            ],
            &[LinkStep {
                dyn_syms: true,
                ..program(&["main.o", "-L.", "-lplug", "libcb.a", "-Wl,-rpath,{dir}"])
            }],
            |_, _| Expect::Runs("plug=42\n"),
        )
    },
    // N
    Case {
        extracted: Some("libm1.a(m.o)"),
        ..case(
            "gcam_folded_call",
            THIN_FULL,
            &[
                bc("main.c", "main.o"),
                bc("check.c", "check.o"),
                nat("m.c", "m.o"),
                Step::Archive {
                    lib: "libm1.a",
                    members: &["m.o"],
                },
            ],
            &[program(&["main.o", "check.o", "libm1.a"])],
            |_, _| Expect::Runs("member init\nmain\n"),
        )
    },
    // O
    Case {
        lld_exports: &["bar@@VERS_1"],
        ..case(
            "symver_local",
            ALL,
            &[
                Step::Compile {
                    src: "lib.c",
                    out: "lib.o",
                    kind: Kind::Bitcode,
                    flags: &["-ffunction-sections", "-fdata-sections", "-fPIC"],
                },
                nat("main.c", "main.o"),
            ],
            &[
                LinkStep {
                    out: "libo.so",
                    cxx: false,
                    args: &["-shared", "lib.o", "-Wl,--version-script={src}/v.map"],
                    gc: true,
                    dyn_syms: true,
                },
                LinkStep {
                    out: "a.out",
                    cxx: false,
                    args: &["main.o", "-L{out}", "-lo", "-Wl,-rpath,{out}"],
                    gc: false,
                    dyn_syms: false,
                },
            ],
            |_, _| Expect::Runs("main bar=2\n"),
        )
    },
    // P
    Case {
        lld_exports: &["_Z11make_widgetv", "_Z10use_widgetP6Widget"],
        ..case(
            "cxx_shared_linkonce",
            THIN_FULL,
            &[
                Step::Compile {
                    src: "widget.cpp",
                    out: "widget.o",
                    kind: Kind::Bitcode,
                    flags: &["-fPIC"],
                },
                Step::Compile {
                    src: "main.cpp",
                    out: "main.o",
                    kind: Kind::Native,
                    flags: &[],
                },
            ],
            &[
                LinkStep {
                    out: "libw.so",
                    cxx: true,
                    args: &["-shared", "widget.o"],
                    gc: true,
                    dyn_syms: true,
                },
                LinkStep {
                    out: "a.out",
                    cxx: true,
                    args: &["main.o", "-L{out}", "-lw", "-Wl,-rpath,{out}"],
                    gc: false,
                    dyn_syms: false,
                },
            ],
            |_, _| Expect::Runs("7\n"),
        )
    },
];

// =============================================================================================
// Variants and trials

/// The garbage-collection variant of a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gc {
    None,
    Sections,
    ArchiveMembers,
}

impl Gc {
    fn name(self) -> &'static str {
        match self {
            Gc::None => "no_gc",
            Gc::Sections => "gc_sections",
            Gc::ArchiveMembers => "gc_archive_members",
        }
    }

    /// The driver arguments of the variant for `linker`: `--gc-archive-members` only for weld
    /// (and not when an lld stands in for it).
    fn args(self, linker: &Linker) -> Vec<String> {
        match self {
            Gc::None => vec![],
            Gc::Sections => vec!["-Wl,--gc-sections".into()],
            Gc::ArchiveMembers if linker.label == "weld" && is_weld(linker) => {
                vec!["-Wl,--gc-sections,--gc-archive-members".into()]
            }
            Gc::ArchiveMembers => vec!["-Wl,--gc-sections".into()],
        }
    }
}

/// False when an lld stands in for weld (`WELD=/usr/bin/ld.lld-22`).
fn is_weld(linker: &Linker) -> bool {
    tools::diag_name(&linker.path) == "weld"
}

fn trials() -> Vec<Trial> {
    let mut t = Vec::new();
    for case in CASES {
        let mut gcs = vec![Gc::None, Gc::Sections];
        if case.has_archive() {
            gcs.push(Gc::ArchiveMembers);
        }
        for &lto in case.flavours {
            for &gc in &gcs {
                let name = format!("{}::{}::{}", case.name, lto.name(), gc.name());
                let dir = paths::work_root()
                    .join("soundness")
                    .join(case.name)
                    .join(lto.name())
                    .join(gc.name());
                t.push(Trial::test(name, move || {
                    paths::fresh_dir(&dir)?;
                    run_case(&dir, case, lto, gc).map_err(|e| {
                        Failed::from(format!("{e}\nwork directory: {}", dir.display()))
                    })
                }));
            }
        }
    }
    for lto in [Lto::Thin, Lto::Full] {
        let dir = paths::work_root()
            .join("soundness")
            .join("safety_net")
            .join(lto.name());
        t.push(Trial::test(
            format!("safety_net::{}", lto.name()),
            move || {
                paths::fresh_dir(&dir)?;
                safety_net(&dir, lto)
                    .map_err(|e| Failed::from(format!("{e}\nwork directory: {}", dir.display())))
            },
        ));
    }
    t.push(Trial::test("support::helpers", || {
        self_test().map_err(Failed::from)
    }));
    t
}

// =============================================================================================
// The safety net

/// `--verify-precise-graph` catches an edge the walk missed: the `inline_asm` case linked by
/// weld with `--gc-sections` while `WELD_FAULT_IGNORE_INLINE_ASM=1` hides every inline-asm edge
/// from the walk. Without the check the link fails with a puzzling `undefined symbol: bc_cb`;
/// with it, the link fails (exit code 1, no output) naming the hidden symbol, the live section
/// that refers to it and the chain that made the section live, through LTO's `main`.
fn safety_net(dir: &Path, lto: Lto) -> Check {
    let case = CASES
        .iter()
        .find(|c| c.name == "inline_asm")
        .ok_or("no inline_asm case")?;
    build(dir, case, lto)?;
    let weld = Linker::weld()?;
    let link = |extra: &[&str], out: &str| -> Result<Output, String> {
        let mut args = strings(&["-no-pie", "bc.o", "nat.o", "-Wl,--gc-sections"]);
        args.extend(strings(extra));
        let mut cmd = lto::driver_command(dir, &weld, false, &args, &dir.join(out))?;
        cmd.env("WELD_FAULT_IGNORE_INLINE_ASM", "1")
            .env_remove("WELD_VERIFY_PRECISE_GRAPH");
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        paths::write(&dir.join(format!("{out}.link.txt")), o.report())?;
        Ok(o)
    };
    // The fault really hides the edge: without the check, weld's link fails.
    let unchecked = link(&[], "unchecked.out")?;
    if unchecked.success() || !unchecked.stderr_str().contains("undefined symbol: bc_cb") {
        return Err(format!(
            "with WELD_FAULT_IGNORE_INLINE_ASM=1 and no check, weld should fail with \
             `undefined symbol: bc_cb` (the fault injection does nothing?)\n{}",
            unchecked.report()
        ));
    }
    let checked = link(&["-Wl,--verify-precise-graph"], "checked.out")?;
    let stderr = checked.stderr_str();
    let want = [
        "error: --verify-precise-graph: bitcode symbol bc_cb was hidden from regular objects \
         before LTO, but live section nat.o:(.text.native_helper) refers to it",
        ">>> contained live symbol: nat.o:(native_helper)",
        ".lto.", // the chain goes through LTO's output ...
        "(main)",
        "(_start) (entry point)", // ... down to the entry point
    ];
    let missing: Vec<&str> = want
        .iter()
        .copied()
        .filter(|w| !stderr.contains(w))
        .collect();
    let mut problems = Vec::new();
    if checked.code != Some(1) {
        problems.push(format!("exit {}, not 1", checked.status_text()));
    }
    if !missing.is_empty() {
        problems.push(format!("the report lacks {missing:?}"));
    }
    if stderr.contains("undefined symbol") {
        problems.push("the check should stop the link before `undefined symbol`".to_string());
    }
    if dir.join("checked.out").exists() {
        problems.push("an output file was left behind".to_string());
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "--verify-precise-graph did not catch the missed edge as it should: {}\n{}",
            problems.join("; "),
            checked.report()
        ))
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// =============================================================================================
// One trial

fn src_dir(case: &Case) -> PathBuf {
    paths::workspace_root()
        .join("testdata")
        .join("soundness")
        .join(case.name)
}

/// Compiles, archives and builds the helper libraries of `case` in `dir`.
fn build(dir: &Path, case: &Case, lto: Lto) -> Check {
    let src_dir = src_dir(case);
    let src = |name: &str| -> Result<PathBuf, String> {
        let p = src_dir.join(name);
        if p.is_file() {
            Ok(p)
        } else {
            Err(format!("missing test source {}", p.display()))
        }
    };
    for step in case.steps {
        match *step {
            Step::Compile {
                src: s,
                out,
                kind,
                flags,
            } => {
                let flavour = match kind {
                    Kind::Bitcode => lto,
                    Kind::Native => Lto::Native,
                };
                lto::compile(dir, &src(s)?, out, flavour, flags)?;
            }
            Step::Archive { lib, members } => {
                lto::archive(dir, lto::LLVM_AR, lib, members)?;
            }
            Step::HelperLib { src: s, out } => {
                let mut cmd = Command::new(tools::find(tools::CLANG)?);
                cmd.current_dir(dir)
                    .args(["-O1", "-fPIC", "-shared"])
                    .args(lto::use_linker(&Linker::lld()?))
                    .arg(src(s)?)
                    .arg("-o")
                    .arg(out);
                run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("building {out}"))?;
            }
        }
    }
    Ok(())
}

/// `{out}`, `{dir}` and `{src}` in a link argument.
fn expand(arg: &str, out: &Path, dir: &Path, src: &Path) -> String {
    arg.replace("{out}", &out.display().to_string())
        .replace("{dir}", &dir.display().to_string())
        .replace("{src}", &src.display().to_string())
}

/// The `--why-extract` file of a linker's program link.
const WHY_EXTRACT: &str = "why-extract.txt";

/// What one linker did with a case: the links it made (the last one failed if it stopped early).
struct Side {
    linker: Linker,
    /// `<dir>/<label>/`, where its outputs are.
    out_dir: PathBuf,
    links: Vec<Output>,
}

impl Side {
    /// Whether every link of the case succeeded.
    fn linked(&self, case: &Case) -> bool {
        self.links.len() == case.links.len() && self.links.iter().all(Output::success)
    }
    fn output(&self, step: &LinkStep) -> PathBuf {
        self.out_dir.join(step.out)
    }
    fn commands(&self) -> String {
        self.links
            .iter()
            .map(|l| format!("{}: {}\n", self.linker.label, l.cmdline))
            .collect()
    }
}

/// Makes the links of `case` with `linker`, in order, stopping at the first that fails.
fn link_all(dir: &Path, case: &Case, gc: Gc, linker: Linker) -> Result<Side, String> {
    let out_dir = dir.join(linker.label);
    paths::fresh_dir(&out_dir)?;
    let src = src_dir(case);
    let mut links = Vec::new();
    for (i, step) in case.links.iter().enumerate() {
        let mut args: Vec<String> = step
            .args
            .iter()
            .map(|a| expand(a, &out_dir, dir, &src))
            .collect();
        if step.gc {
            args.extend(gc.args(&linker));
        }
        if case.extracted.is_some() && i + 1 == case.links.len() {
            args.push(format!(
                "-Wl,--why-extract={}",
                out_dir.join(WHY_EXTRACT).display()
            ));
        }
        let out = out_dir.join(step.out);
        let mut cmd = lto::driver_command(dir, &linker, step.cxx, &args, &out)?;
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        paths::write(&out_dir.join(format!("{}.link.txt", step.out)), o.report())?;
        let ok = o.success();
        links.push(o);
        if !ok {
            break;
        }
    }
    Ok(Side {
        linker,
        out_dir,
        links,
    })
}

/// The linker's `error:` lines in `stderr`, its name (as `tools::diag_name` knows it) replaced
/// by `LD`, so that lld's and weld's can be compared.
fn error_lines(stderr: &str, linker: &Path) -> Vec<String> {
    let prefix = format!("{}: error: ", tools::diag_name(linker));
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|rest| format!("LD: error: {rest}"))
        .collect()
}

/// The dynamic symbols of `file` as sorted lines `name@version TYPE BIND VIS UND|DEF|ABS`.
fn dyn_sym_lines(file: &Path) -> Result<Vec<String>, String> {
    let mut v: Vec<String> = dynelf::dyn_syms(file)?
        .into_iter()
        .map(|s| format!("{} {} {} {} {}", s.name, s.kind, s.bind, s.vis, s.ndx))
        .collect();
    v.sort();
    Ok(v)
}

/// Runs the program (the last link's output) in the linker's sub-directory and saves what it did.
fn run_program(side: &Side, case: &Case) -> Result<Output, String> {
    let prog = side.output(case.links.last().expect("a case has a link"));
    let mut cmd = Command::new(&prog);
    cmd.current_dir(&side.out_dir);
    let o = run::run(&mut cmd, run::RUN_TIMEOUT)?;
    paths::write(&side.out_dir.join("run.txt"), o.report())?;
    Ok(o)
}

/// lld's side must do what the case says: link and run printing the expected output, or fail
/// with the expected error. Otherwise the scenario (or the harness) is broken.
fn check_reference(lld: &Side, case: &Case, expect: Expect) -> Result<Option<Output>, String> {
    let broken = |what: String| {
        Err(format!(
            "{what} (the scenario or the harness is broken)\n{}",
            lld.commands()
        ))
    };
    match expect {
        Expect::Runs(stdout) => {
            if !lld.linked(case) {
                let last = lld.links.last().map(Output::report).unwrap_or_default();
                return broken(format!("the reference link with ld.lld-22 failed\n{last}"));
            }
            for step in case.links {
                dynlink::check_linked_by(&lld.linker, &lld.output(step))?;
            }
            let r = run_program(lld, case)?;
            if !r.success() || r.stdout != stdout.as_bytes() {
                return broken(format!(
                    "the program linked by ld.lld-22 should exit 0 printing {stdout:?}\n{}",
                    r.report()
                ));
            }
            for step in case.links.iter().filter(|s| s.dyn_syms) {
                let syms = dyn_sym_lines(&lld.output(step))?;
                for want in case.lld_exports {
                    let prefix = format!("{want} ");
                    if !syms
                        .iter()
                        .any(|s| s.starts_with(&prefix) && s.ends_with(" DEF"))
                    {
                        return broken(format!(
                            "ld.lld-22's {} does not export {want}:\n{}",
                            step.out,
                            syms.join("\n")
                        ));
                    }
                }
            }
            if let Some(member) = case.extracted {
                if let Err(e) = lists_member(lld, member) {
                    return broken(e);
                }
            }
            Ok(Some(r))
        }
        Expect::LinkFails(error) => {
            let failed = lld.links.last().filter(|o| !o.success());
            let Some(o) = failed else {
                return broken(format!(
                    "ld.lld-22 should fail with `{error}`, but every link succeeded"
                ));
            };
            let errors = error_lines(&o.stderr_str(), &lld.linker.path);
            if !errors.iter().any(|l| l.contains(error)) {
                return broken(format!(
                    "ld.lld-22 should fail with `{error}`\n{}",
                    o.report()
                ));
            }
            Ok(None)
        }
    }
}

/// The `--why-extract` file of `side` lists `member`.
fn lists_member(side: &Side, member: &str) -> Check {
    let path = side.out_dir.join(WHY_EXTRACT);
    let lines = gc::read_why_extract(&path)?;
    if lines.iter().any(|e| e.extracted == member) {
        Ok(())
    } else {
        Err(format!(
            "{}'s --why-extract ({}) does not list {member}:\n{}",
            side.linker.label,
            path.display(),
            lines.iter().map(|e| format!("{e}\n")).collect::<String>()
        ))
    }
}

fn run_case(dir: &Path, case: &Case, lto: Lto, gc: Gc) -> Check {
    build(dir, case, lto)?;
    let lld = link_all(dir, case, gc, Linker::lld()?)?;
    let lld_run = check_reference(&lld, case, (case.expect)(lto, gc))?;
    let weld = link_all(dir, case, gc, Linker::weld()?)?;
    let mut p = Vec::new();
    for o in &weld.links {
        let err = o.stderr_str();
        if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
            p.push(format!("weld panicked\n{}", o.report()));
        }
    }
    match lld_run {
        Some(lr) => {
            if !weld.linked(case) {
                let last = weld.links.last().map(Output::report).unwrap_or_default();
                let step = case.links[weld.links.len() - 1].out;
                p.push(format!(
                    "ld.lld-22 links, weld's link of {step} fails\n{last}"
                ));
            } else {
                compare_linked(case, &lld, &lr, &weld, &mut p)?;
            }
        }
        None => {
            let (ln, wn) = (lld.links.len(), weld.links.len());
            let lo = &lld.links[ln - 1];
            let wo = &weld.links[wn - 1];
            if wn != ln || wo.success() {
                p.push(format!(
                    "ld.lld-22's link of {} fails, weld's {}\n--- ld.lld-22\n{}--- weld\n{}",
                    case.links[ln - 1].out,
                    if wo.success() && wn == case.links.len() {
                        "links succeed".to_string()
                    } else if wo.success() {
                        format!("link of {} succeeds", case.links[ln - 1].out)
                    } else {
                        format!("link of {} fails first", case.links[wn - 1].out)
                    },
                    lo.report(),
                    wo.report()
                ));
            } else {
                let le = error_lines(&lo.stderr_str(), &lld.linker.path);
                let we = error_lines(&wo.stderr_str(), &weld.linker.path);
                if le != we {
                    p.push(format!(
                        "both links fail, with different errors: {}\n--- weld\n{}",
                        text_diff("weld", &we.join("\n"), "lld", &le.join("\n")),
                        wo.report()
                    ));
                }
            }
        }
    }
    if p.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\n{}{}",
            p.join("\n"),
            weld.commands(),
            lld.commands()
        ))
    }
}

/// Both linkers linked everything: same dynamic symbols where the case compares them, same
/// program behaviour, and the member `--why-extract` must list.
fn compare_linked(
    case: &Case,
    lld: &Side,
    lld_run: &Output,
    weld: &Side,
    p: &mut Vec<String>,
) -> Check {
    for step in case.links {
        if let Err(e) = dynlink::check_linked_by(&weld.linker, &weld.output(step)) {
            p.push(e);
        }
    }
    for step in case.links.iter().filter(|s| s.dyn_syms) {
        let l = dyn_sym_lines(&lld.output(step))?;
        let w = dyn_sym_lines(&weld.output(step))?;
        if l != w {
            let only_lld: Vec<&String> = l.iter().filter(|s| !w.contains(s)).collect();
            let only_weld: Vec<&String> = w.iter().filter(|s| !l.contains(s)).collect();
            p.push(format!(
                "the dynamic symbols of {} differ from lld's:\n  only lld's: {only_lld:?}\n  \
                 only weld's: {only_weld:?}",
                step.out
            ));
        }
    }
    let wr = run_program(weld, case)?;
    let diffs = run::run_differences("weld", &wr, "lld", lld_run);
    if !diffs.is_empty() {
        p.push(format!(
            "the programs differ:\n{}\n--- weld's program\n{}",
            diffs.join("\n"),
            wr.report()
        ));
    }
    if let Some(member) = case.extracted {
        if let Err(e) = lists_member(weld, member) {
            p.push(e);
        }
    }
    Ok(())
}

// =============================================================================================
// Checks of the helpers that need no tools

fn self_test() -> Check {
    let stderr = "ld.lld-22: error: undefined symbol: x\n>>> referenced by a.o\n\
                  ld.lld-22: warning: w\nclang-22: error: linker command failed\n";
    let got = error_lines(stderr, Path::new("/usr/bin/ld.lld-22"));
    if got != ["LD: error: undefined symbol: x"] {
        return Err(format!("error_lines (lld): {got:?}"));
    }
    let got = error_lines(
        "weld: error: undefined symbol: x\n",
        Path::new("/x/target/release/weld"),
    );
    if got != ["LD: error: undefined symbol: x"] {
        return Err(format!("error_lines (weld): {got:?}"));
    }
    let e = expand(
        "-Wl,-rpath,{out}:{dir}/{src}",
        Path::new("/o"),
        Path::new("/d"),
        Path::new("/s"),
    );
    if e != "-Wl,-rpath,/o:/d//s" {
        return Err(format!("expand: {e}"));
    }
    let lld = Linker {
        label: "weld",
        path: PathBuf::from("/usr/bin/ld.lld-22"),
    };
    let weld = Linker {
        label: "weld",
        path: PathBuf::from("/x/weld"),
    };
    let reference = Linker {
        label: "lld",
        path: PathBuf::from("/usr/bin/ld.lld-22"),
    };
    if Gc::ArchiveMembers.args(&weld) != ["-Wl,--gc-sections,--gc-archive-members"]
        || Gc::ArchiveMembers.args(&lld) != ["-Wl,--gc-sections"]
        || Gc::ArchiveMembers.args(&reference) != ["-Wl,--gc-sections"]
        || !Gc::None.args(&weld).is_empty()
    {
        return Err("Gc::args".into());
    }
    for case in CASES {
        let dir = src_dir(case);
        for step in case.steps {
            let src = match *step {
                Step::Compile { src, .. } | Step::HelperLib { src, .. } => src,
                Step::Archive { .. } => continue,
            };
            if !dir.join(src).is_file() {
                return Err(format!("missing {}", dir.join(src).display()));
            }
        }
        if case.links.is_empty() || case.flavours.is_empty() {
            return Err(format!("case {} has no link or no flavour", case.name));
        }
    }
    Ok(())
}
