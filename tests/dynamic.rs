//! Shared libraries and dynamic executables, each linked by weld and by ld.lld-22 and compared.
//!
//! "Four-way" trials link the libraries with each linker and the program with each linker, then
//! run all four combinations (a weld-built program with lld-built libraries and the other way
//! round included); each must behave exactly like the all-lld build, which must print the
//! case's expected output. "Two-way" trials link everything with one linker and compare the
//! runs and the dynamic section, symbol table or section list with lld's.
//!
//! Sources are in `testdata/dynamic/<case>/`; work directories are kept in
//! `target/weld-tests/dynamic/<trial>/` (`lib.lld/`, `lib.weld/`, `exe.*`, `run.*`).

use libtest_mimic::{Arguments, Trial};
use std::path::{Path, PathBuf};
use weld_tests::build::{Compiler, COMPILERS};
use weld_tests::dynelf;
use weld_tests::dynlink::{
    all, arg, args_of, dynamic_dir, four_way, link, object, objects, read_text, run_exe, same,
    same_set, trial, two_way, FourWay, Prog,
};
use weld_tests::tools::Linker;
use weld_tests::{elf, Check};

const GROUP: &str = "dynamic";

fn main() {
    let args = Arguments::from_args();
    libtest_mimic::run(&args, trials()).exit();
}

fn trials() -> Vec<Trial> {
    let mut t = Vec::new();
    for &c in COMPILERS {
        let n = c.name();
        t.push(trial(GROUP, format!("cxx_hierarchy::{n}"), move |d| {
            cxx_hierarchy(d, c)
        }));
        t.push(trial(GROUP, format!("dlopen_plugin::{n}"), move |d| {
            dlopen_plugin(d, c)
        }));
        t.push(trial(GROUP, format!("cxx_exceptions::{n}"), move |d| {
            cxx_exceptions(d, c)
        }));
        t.push(trial(GROUP, format!("tls_shared::{n}"), move |d| {
            tls_shared(d, c)
        }));
        for &(variant, flags) in INTERPOSITION_VARIANTS {
            t.push(trial(
                GROUP,
                format!("interposition::{variant}::{n}"),
                move |d| interposition(d, c, variant, flags),
            ));
        }
        t.push(trial(GROUP, format!("copy_relocation::{n}"), move |d| {
            copy_relocation(d, c)
        }));
        t.push(trial(GROUP, format!("as_needed::{n}"), move |d| {
            as_needed(d, c)
        }));
    }
    let c = Compiler::Clang;
    for &(variant, flags, tag) in RPATH_VARIANTS {
        t.push(trial(GROUP, format!("rpath_origin::{variant}"), move |d| {
            rpath_origin(d, c, flags, tag)
        }));
    }
    for &(variant, flags) in EXPORT_VARIANTS {
        t.push(trial(
            GROUP,
            format!("export_dynamic::{variant}"),
            move |d| export_dynamic(d, c, variant, flags),
        ));
    }
    t.push(trial(GROUP, "z_now".into(), move |d| z_now(d, c, true)));
    t.push(trial(GROUP, "z_lazy".into(), move |d| z_now(d, c, false)));
    for &style in &["sysv", "gnu", "both"] {
        t.push(trial(GROUP, format!("hash_style::{style}"), move |d| {
            hash_style(d, c, style)
        }));
    }
    t.push(trial(GROUP, "soname".into(), move |d| soname(d, c)));
    for &c in COMPILERS {
        for pie in ["-pie", "-no-pie"] {
            t.push(trial(
                GROUP,
                format!("got_out_of_reach::{}::{}", c.name(), &pie[1..]),
                move |d| got_out_of_reach(d, c, pie),
            ));
        }
    }
    t
}

fn case(name: &str) -> PathBuf {
    dynamic_dir().join(name)
}

/// `-shared OBJS EXTRA` into `libdir/FILE`.
fn shared(
    c: Compiler,
    cxx: bool,
    l: &Linker,
    objs: &[PathBuf],
    extra: &[&str],
    out: &Path,
) -> Check {
    let mut a = vec!["-shared".to_string()];
    a.extend(args_of(objs));
    a.extend(extra.iter().map(|s| s.to_string()));
    link(c, cxx, l, &a, out).map(|_| ())
}

fn no_args(_: &Path) -> Vec<String> {
    Vec::new()
}

/// Every relocation type in `want` must be in the object (the test must test what it says).
fn require_relocs(obj: &Path, want: &[&str]) -> Check {
    let found = elf::reloc_types(obj)?;
    let missing: Vec<&&str> = want.iter().filter(|r| !found.contains(**r)).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} lacks relocation types {missing:?} (found {found:?}): the test data no longer \
             tests what it claims",
            obj.display()
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Four-way trials

fn cxx_hierarchy(dir: &Path, c: Compiler) -> Check {
    let src = case("cxx_hierarchy");
    let lib_o = objects(&src, &["shapes.cpp"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.cpp"], c, &["-fPIE"])?;
    let expected = read_text(&src, "expected.txt")?;
    let fw = four_way(
        dir,
        &|l, d| shared(c, true, l, &lib_o, &[], &d.join("libshapes.so")),
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: true,
                objs: &exe_o,
                flags: &["-pie"],
            }
            .link(l, d, &["shapes"], out)
        },
        &no_args,
        Some(&expected),
    )?;
    let mut checks = vec![fw.result()];
    checks.extend(compare_exports(&fw, &["libshapes.so"])?);
    all(checks)
}

fn dlopen_plugin(dir: &Path, c: Compiler) -> Check {
    let src = case("dlopen_plugin");
    let plugin_o = objects(&src, &["plugin.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let expected = read_text(&src, "expected.txt")?;
    let fw = four_way(
        dir,
        &|l, d| shared(c, false, l, &plugin_o, &[], &d.join("plugin.so")),
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &["-pie", "-rdynamic"],
            }
            .link(l, d, &[], out)
        },
        &|d| vec![arg(&d.join("plugin.so"))],
        Some(&expected),
    )?;
    let mut checks = vec![fw.result()];
    checks.extend(compare_exports(&fw, &["plugin.so"])?);
    all(checks)
}

fn cxx_exceptions(dir: &Path, c: Compiler) -> Check {
    let src = case("cxx_exceptions");
    let lib_o = objects(&src, &["liberr.cpp"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.cpp"], c, &["-fPIE"])?;
    let expected = read_text(&src, "expected.txt")?;
    let fw = four_way(
        dir,
        &|l, d| shared(c, true, l, &lib_o, &[], &d.join("liberr.so")),
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: true,
                objs: &exe_o,
                flags: &["-pie"],
            }
            .link(l, d, &["err"], out)
        },
        &no_args,
        Some(&expected),
    )?;
    let mut checks = vec![fw.result()];
    checks.extend(compare_exports(&fw, &["liberr.so"])?);
    all(checks)
}

fn tls_shared(dir: &Path, c: Compiler) -> Check {
    let src = case("tls_shared");
    let lib_o = objects(&src, &["tls_lib.c", "tls_lib_cxx.cpp"], c, &["-fPIC"])?;
    let plugin_o = objects(&src, &["tls_plugin.c"], c, &["-fPIC"])?;
    let main_o = object(&src, "main.cpp", c, &["-fPIE", "-pthread"])?;
    let gd_o = object(&src, "gd.c", c, &["-fPIC"])?;
    let desc_o = object(&src, "desc.c", c, &["-fPIC", "-mtls-dialect=gnu2"])?;
    require_relocs(&main_o, &["R_X86_64_GOTTPOFF"])?;
    require_relocs(&gd_o, &["R_X86_64_TLSGD"])?;
    require_relocs(
        &desc_o,
        &["R_X86_64_GOTPC32_TLSDESC", "R_X86_64_TLSDESC_CALL"],
    )?;
    require_relocs(&lib_o[0], &["R_X86_64_TLSGD", "R_X86_64_TLSLD"])?;
    let exe_o = vec![main_o, gd_o, desc_o];
    let expected = read_text(&src, "expected.txt")?;
    let fw = four_way(
        dir,
        &|l, d| {
            shared(c, true, l, &lib_o, &[], &d.join("libtlsdemo.so"))?;
            let dep = format!("-L{}", d.display());
            shared(
                c,
                false,
                l,
                &plugin_o,
                &[&dep, "-ltlsdemo"],
                &d.join("tls_plugin.so"),
            )
        },
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: true,
                objs: &exe_o,
                flags: &["-pie", "-pthread"],
            }
            .link(l, d, &["tlsdemo"], out)
        },
        &|d| vec![arg(&d.join("tls_plugin.so"))],
        Some(&expected),
    )?;
    let mut checks = vec![fw.result()];
    checks.extend(compare_exports(&fw, &["libtlsdemo.so", "tls_plugin.so"])?);
    all(checks)
}

/// (variant, the library's extra link flags); the expected output is
/// `expected.<variant>.txt`.
const INTERPOSITION_VARIANTS: &[(&str, &[&str])] = &[
    ("default", &[]),
    ("symbolic", &["-Wl,-Bsymbolic"]),
    ("symbolic-functions", &["-Wl,-Bsymbolic-functions"]),
];

fn interposition(dir: &Path, c: Compiler, variant: &str, lib_flags: &'static [&str]) -> Check {
    let src = case("interposition");
    // clang defaults to -fno-semantic-interposition and would inline hook() into its caller.
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC", "-fsemantic-interposition"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let expected = read_text(&src, &format!("expected.{variant}.txt"))?;
    let fw = four_way(
        dir,
        &|l, d| shared(c, false, l, &lib_o, lib_flags, &d.join("libinterpose.so")),
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &["-pie"],
            }
            .link(l, d, &["interpose"], out)
        },
        &no_args,
        Some(&expected),
    )?;
    let mut checks = vec![fw.result()];
    // The program's definitions must be exported for the library's references to reach them.
    checks.extend(compare_exports(&fw, &["libinterpose.so"])?);
    if let Some(w) = &fw.lib_weld {
        let (ws, ls) = (
            dynelf::dynamic_summary(&w.join("libinterpose.so"), &["FLAGS", "SYMBOLIC"])?,
            dynelf::dynamic_summary(&fw.lib_lld.join("libinterpose.so"), &["FLAGS", "SYMBOLIC"])?,
        );
        checks.push(same("the library's DT_FLAGS/DT_SYMBOLIC", &ws, &ls));
    }
    all(checks)
}

/// The exported (defined dynamic) symbols of weld's program (linked against lld's libraries) and
/// of weld's libraries must be lld's.
fn compare_exports(fw: &FourWay, libs: &[&str]) -> Result<Vec<Check>, String> {
    let mut v = Vec::new();
    if let Some(w) = &fw.exe_weld {
        v.push(same_set(
            "the program's exported symbols",
            &dynelf::exported(w)?,
            &dynelf::exported(&fw.exe_lld)?,
        ));
    }
    if let Some(w) = &fw.lib_weld {
        for l in libs {
            v.push(same_set(
                &format!("{l}'s exported symbols"),
                &dynelf::exported(&w.join(l))?,
                &dynelf::exported(&fw.lib_lld.join(l))?,
            ));
        }
    }
    Ok(v)
}

fn copy_relocation(dir: &Path, c: Compiler) -> Check {
    let src = case("copy_relocation");
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fno-pie"])?;
    let expected = read_text(&src, "expected.txt")?;
    let fw = four_way(
        dir,
        &|l, d| shared(c, false, l, &lib_o, &[], &d.join("libcopy.so")),
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &["-no-pie"],
            }
            .link(l, d, &["copy"], out)
        },
        &no_args,
        Some(&expected),
    )?;
    let copies = |p: &Path| -> Result<Vec<String>, String> {
        let mut v: Vec<String> = dynelf::dyn_relocs(p)?
            .into_iter()
            .filter(|r| r.starts_with("R_X86_64_COPY"))
            .collect();
        v.sort();
        Ok(v)
    };
    let lld_copies = copies(&fw.exe_lld)?;
    for sym in ["lib_array", "lib_point", "lib_message"] {
        if !lld_copies.contains(&format!("R_X86_64_COPY {sym}")) {
            return Err(format!(
                "lld made no copy relocation for {sym} ({lld_copies:?}): the test no longer tests \
                 copy relocations"
            ));
        }
    }
    let mut checks = vec![fw.result()];
    checks.extend(compare_exports(&fw, &["libcopy.so"])?);
    if let Some(w) = &fw.exe_weld {
        checks.push(same(
            "the program's copy relocations",
            &copies(w)?,
            &lld_copies,
        ));
        // The copied read-only data: lld puts it in .bss.rel.ro (RELRO), not in writable .bss.
        let (ws, ls) = (dynelf::section_set(w)?, dynelf::section_set(&fw.exe_lld)?);
        checks.push(same(
            "whether the program has a .bss.rel.ro section (read-only copy relocations)",
            &ws.contains(".bss.rel.ro"),
            &ls.contains(".bss.rel.ro"),
        ));
    }
    all(checks)
}

// ---------------------------------------------------------------------------------------------
// Two-way trials

fn as_needed(dir: &Path, c: Compiler) -> Check {
    let src = case("as_needed");
    let lib = |name: &str| objects(&src, &[&format!("{name}.c")], c, &["-fPIC"]);
    let libs_o = [
        ("used", lib("used")?),
        ("unused", lib("unused")?),
        ("weakref", lib("weakref")?),
        ("always", lib("always")?),
    ];
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let expected = read_text(&src, "expected.txt")?;
    let tw = two_way(
        dir,
        &|l, d| {
            for (name, o) in &libs_o {
                shared(c, false, l, o, &[], &d.join(format!("lib{name}.so")))?;
            }
            let mut a = vec!["-pie".to_string()];
            a.extend(args_of(&exe_o));
            a.push(format!("-L{}", d.display()));
            a.extend(
                [
                    "-Wl,--as-needed",
                    "-lused",
                    "-lunused",
                    "-lweakref",
                    "-lm",
                    "-Wl,--no-as-needed",
                    "-lalways",
                ]
                .map(String::from),
            );
            link(c, false, l, &a, &d.join("prog"))
        },
        &|exe, d| run_exe(exe, &[], Some(d), d),
        Some(&expected),
    )?;
    let lld_needed = dynelf::needed(&tw.exe_lld)?;
    for (lib, want) in [
        ("libused.so", true),
        ("libalways.so", true),
        ("libunused.so", false),
        ("libweakref.so", false),
        ("libm.so.6", false),
    ] {
        if lld_needed.contains(&lib.to_string()) != want {
            return Err(format!(
                "the oracle changed: lld's NEEDED {lld_needed:?} should {}contain {lib}",
                if want { "" } else { "not " }
            ));
        }
    }
    let mut checks = vec![tw.result()];
    if let Some(w) = &tw.exe_weld {
        checks.push(same(
            "DT_NEEDED (llvm-readelf-22 -d)",
            &dynelf::needed(w)?,
            &lld_needed,
        ));
    }
    all(checks)
}

/// (variant, extra link flags, the tag that must hold the run path).
const RPATH_VARIANTS: &[(&str, &[&str], &str)] = &[
    ("runpath", &[], "RUNPATH"),
    ("rpath", &["-Wl,--disable-new-dtags"], "RPATH"),
];

fn rpath_origin(dir: &Path, c: Compiler, flags: &'static [&str], tag: &str) -> Check {
    let src = case("rpath_origin");
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let tw = two_way(
        dir,
        &|l, d| {
            shared(c, false, l, &lib_o, &[], &d.join("libs/librp.so"))?;
            let mut a = vec!["-pie".to_string()];
            a.extend(args_of(&exe_o));
            a.push(format!("-L{}", d.join("libs").display()));
            a.push("-lrp".into());
            a.push("-Wl,-rpath,$ORIGIN/../libs".into());
            a.push("-Wl,-rpath,/nonexistent/weld-test-dir".into());
            a.extend(flags.iter().map(|s| s.to_string()));
            link(c, false, l, &a, &d.join("bin/app"))
        },
        // No LD_LIBRARY_PATH, and run from another directory: only $ORIGIN finds the library.
        &|exe, d| run_exe(exe, &[], None, d.parent().unwrap_or(d)),
        Some("found through the run path\n"),
    )?;
    // NEEDED in order (it is the search order); the other entries as a set.
    let tags = ["RUNPATH", "RPATH", "NEEDED", "FLAGS", "FLAGS_1"];
    let summary = |p: &Path| -> Result<(Vec<String>, Vec<String>), String> {
        let mut rest = dynelf::dynamic_summary(p, &["RUNPATH", "RPATH", "FLAGS", "FLAGS_1"])?;
        rest.sort();
        Ok((dynelf::needed(p)?, rest))
    };
    let lld = dynelf::dynamic_summary(&tw.exe_lld, &tags)?;
    let want = format!("{tag} $ORIGIN/../libs:/nonexistent/weld-test-dir");
    if !lld.contains(&want) {
        return Err(format!(
            "the oracle changed: lld's entries {lld:?} lack `{want}`"
        ));
    }
    let mut checks = vec![tw.result()];
    if let Some(w) = &tw.exe_weld {
        checks.push(same(
            "dynamic entries (NEEDED in order, RUNPATH/RPATH/FLAGS/FLAGS_1)",
            &summary(w)?,
            &summary(&tw.exe_lld)?,
        ));
    }
    all(checks)
}

/// (variant, extra link flags); the expected output is `expected.<variant>.txt`.
const EXPORT_VARIANTS: &[(&str, &[&str])] = &[
    ("none", &[]),
    ("export_dynamic", &["-Wl,--export-dynamic"]),
    (
        "export_dynamic_symbol",
        &[
            "-Wl,--export-dynamic-symbol=exe_answer",
            "-Wl,--export-dynamic-symbol=exe_d*",
        ],
    ),
];

fn export_dynamic(dir: &Path, c: Compiler, variant: &str, flags: &'static [&str]) -> Check {
    let src = case("export_dynamic");
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let expected = read_text(&src, &format!("expected.{variant}.txt"))?;
    let tw = two_way(
        dir,
        &|l, d| {
            let mut a = vec!["-pie".to_string()];
            a.extend(args_of(&exe_o));
            a.extend(flags.iter().map(|s| s.to_string()));
            link(c, false, l, &a, &d.join("prog"))
        },
        &|exe, d| run_exe(exe, &[], None, d),
        Some(&expected),
    )?;
    let mut checks = vec![tw.result()];
    if let Some(w) = &tw.exe_weld {
        checks.push(same_set(
            "exported symbols (defined in .dynsym)",
            &dynelf::exported(w)?,
            &dynelf::exported(&tw.exe_lld)?,
        ));
    }
    all(checks)
}

fn z_now(dir: &Path, c: Compiler, now: bool) -> Check {
    let src = case("z_now");
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let flags: &[&str] = if now {
        &["-Wl,-z,now"]
    } else {
        &["-Wl,-z,lazy"]
    };
    let fw = four_way(
        dir,
        &|l, d| shared(c, false, l, &lib_o, flags, &d.join("libznow.so")),
        &|l, d, out| {
            let flags = [&["-pie"][..], flags].concat();
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &flags,
            }
            .link(l, d, &["znow"], out)
        },
        &no_args,
        Some("lib_fn(21)=42\n"),
    )?;
    let tags = ["FLAGS", "FLAGS_1", "BIND_NOW"];
    let lld_exe = dynelf::dynamic_summary(&fw.exe_lld, &tags)?;
    let lld_lib = dynelf::dynamic_summary(&fw.lib_lld.join("libznow.so"), &tags)?;
    let has_now = |v: &[String]| {
        v.iter().any(|e| e == "FLAGS BIND_NOW")
            && v.iter()
                .any(|e| e.starts_with("FLAGS_1") && e.contains("NOW"))
    };
    if has_now(&lld_exe) != now || has_now(&lld_lib) != now {
        return Err(format!(
            "the oracle changed: lld's flags {lld_exe:?} / {lld_lib:?} with now={now}"
        ));
    }
    // Without lazy binding nothing writes .got.plt after relocation: lld makes it read-only
    // with the rest of RELRO (full RELRO); with lazy binding it must stay writable.
    let lld_relro = dynelf::relro_sections(&fw.exe_lld)?;
    if lld_relro.iter().any(|s| s == ".got.plt") != now {
        return Err(format!(
            "the oracle changed: lld's PT_GNU_RELRO holds {lld_relro:?} with now={now}"
        ));
    }
    let mut checks = vec![fw.result()];
    if let Some(w) = &fw.exe_weld {
        checks.push(same(
            "the program's PT_GNU_RELRO sections",
            &dynelf::relro_sections(w)?,
            &lld_relro,
        ));
    }
    if let Some(w) = &fw.lib_weld {
        checks.push(same(
            "the library's PT_GNU_RELRO sections",
            &dynelf::relro_sections(&w.join("libznow.so"))?,
            &dynelf::relro_sections(&fw.lib_lld.join("libznow.so"))?,
        ));
    }
    if let Some(w) = &fw.exe_weld {
        checks.push(same(
            "the program's DT_FLAGS/DT_FLAGS_1",
            &dynelf::dynamic_summary(w, &tags)?,
            &lld_exe,
        ));
    }
    if let Some(w) = &fw.lib_weld {
        checks.push(same(
            "the library's DT_FLAGS/DT_FLAGS_1",
            &dynelf::dynamic_summary(&w.join("libznow.so"), &tags)?,
            &lld_lib,
        ));
    }
    all(checks)
}

fn hash_style(dir: &Path, c: Compiler, style: &str) -> Check {
    let src = case("hash_style");
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let flag = format!("-Wl,--hash-style={style}");
    let flags: &[&str] = &[&flag];
    let fw = four_way(
        dir,
        &|l, d| shared(c, false, l, &lib_o, flags, &d.join("libhs.so")),
        &|l, d, out| {
            let flags = [&["-pie"][..], flags].concat();
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &flags,
            }
            .link(l, d, &["hs"], out)
        },
        &|d| vec![arg(&d.join("libhs.so"))],
        Some(
            "hs_sum()=1725 hs_fn_37()=37 hs_data_15=45\ndlsym: 70 found, 70 right, 0 false hits\n",
        ),
    )?;
    let want_sysv = style != "gnu";
    let want_gnu = style != "sysv";
    let describe = |p: &Path| -> Result<Vec<String>, String> {
        let s = dynelf::section_set(p)?;
        let mut v = Vec::new();
        for sec in [".hash", ".gnu.hash"] {
            if s.contains(sec) {
                v.push(sec.to_string());
            }
        }
        v.extend(dynelf::dynamic_summary(p, &["HASH", "GNU_HASH"])?);
        Ok(v)
    };
    let mut want = Vec::new();
    if want_sysv {
        want.push(".hash".to_string());
    }
    if want_gnu {
        want.push(".gnu.hash".to_string());
    }
    let lib_lld = fw.lib_lld.join("libhs.so");
    for p in [&fw.exe_lld, &lib_lld] {
        let d = describe(p)?;
        if d[..d.len().min(want.len())] != want[..] || d.len() != 2 * want.len() {
            return Err(format!(
                "the oracle changed: lld's {} has {d:?} for --hash-style={style}",
                p.display()
            ));
        }
    }
    let mut checks = vec![fw.result()];
    if let Some(w) = &fw.exe_weld {
        checks.push(same(
            "the program's hash sections and DT_HASH/DT_GNU_HASH",
            &describe(w)?,
            &describe(&fw.exe_lld)?,
        ));
    }
    if let Some(w) = &fw.lib_weld {
        checks.push(same(
            "the library's hash sections and DT_HASH/DT_GNU_HASH",
            &describe(&w.join("libhs.so"))?,
            &describe(&lib_lld)?,
        ));
    }
    all(checks)
}

fn soname(dir: &Path, c: Compiler) -> Check {
    let src = case("soname");
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC"])?;
    let plain_o = objects(&src, &["plain.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let fw = four_way(
        dir,
        &|l, d| {
            shared(
                c,
                false,
                l,
                &lib_o,
                &["-Wl,-soname,libsn.so.1"],
                &d.join("libsn.so.1.0"),
            )?;
            weld_tests::tools::symlink_fresh(Path::new("libsn.so.1.0"), &d.join("libsn.so.1"))?;
            weld_tests::tools::symlink_fresh(Path::new("libsn.so.1.0"), &d.join("libsn.so"))?;
            shared(c, false, l, &plain_o, &[], &d.join("libplain.so"))
        },
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &["-pie"],
            }
            .link(l, d, &["sn", "plain"], out)
        },
        &no_args,
        Some("libsn libplain\n"),
    )?;
    let lld_needed = dynelf::needed(&fw.exe_lld)?;
    if lld_needed[..2] != ["libsn.so.1".to_string(), "libplain.so".to_string()] {
        return Err(format!("the oracle changed: lld's NEEDED {lld_needed:?}"));
    }
    let sn = |d: &Path| -> Result<Vec<String>, String> {
        let mut v = dynelf::dynamic_summary(&d.join("libsn.so.1.0"), &["SONAME"])?;
        v.extend(dynelf::dynamic_summary(
            &d.join("libplain.so"),
            &["SONAME"],
        )?);
        Ok(v)
    };
    let mut checks = vec![fw.result()];
    if let Some(w) = &fw.exe_weld {
        checks.push(same(
            "the program's DT_NEEDED",
            &dynelf::needed(w)?,
            &lld_needed,
        ));
    }
    if let Some(w) = &fw.lib_weld {
        checks.push(same("the libraries' DT_SONAME", &sn(w)?, &sn(&fw.lib_lld)?));
    }
    all(checks)
}

/// GOTPCRELX relaxation that would not reach its target keeps the GOT slot (lld's relaxOnce):
/// the program links and runs like lld's instead of failing with a relocation overflow.
fn got_out_of_reach(dir: &Path, c: Compiler, pie: &'static str) -> Check {
    let src = case("got_out_of_reach");
    let pic = if pie == "-pie" { "-fPIE" } else { "-fno-pic" };
    // -fPIC: gcc -fPIE would assume `big` and `after` are in the executable and use PC32.
    let main_o = objects(&src, &["main.c"], c, &["-fPIC", "-O1"])?;
    let big_o = objects(&src, &["big.c"], c, &[pic, "-fno-common"])?;
    require_relocs(&main_o[0], &["R_X86_64_REX_GOTPCRELX"])?;
    let expected = read_text(&src, "expected.txt")?;
    let tw = two_way(
        dir,
        &|l, d| {
            let mut a = vec![pie.to_string()];
            a.extend(args_of(&main_o));
            a.extend(args_of(&big_o));
            link(c, false, l, &a, &d.join("prog"))
        },
        &|exe, d| run_exe(exe, &[], None, d),
        Some(&expected),
    )?;
    tw.result()
}
