//! Version scripts, symbol versioning and dynamic lists, linked by weld and by ld.lld-22 and
//! compared: the dynamic symbols with their `@`/`@@` versions (`llvm-readelf-22 --dyn-syms`), the
//! version definitions and needs (`llvm-readelf-22 -V`, without addresses), and the programs'
//! behaviour in all four combinations of program and library linkers (`support/dynlink.rs`).
//!
//! lld's behaviour is the specification: these tests are written against it whether or not weld
//! implements the feature yet. Sources are in `testdata/dynamic/<case>/`; work directories are
//! kept in `target/weld-tests/versions/<trial>/`.

use libtest_mimic::{Arguments, Trial};
use std::path::{Path, PathBuf};
use weld_tests::build::{Compiler, COMPILERS};
use weld_tests::dynelf;
use weld_tests::dynlink::{
    all, arg, args_of, dynamic_dir, four_way, libs, link, link_command, objects, read_text,
    same_set, same_text, trial, two_way, FourWay, Prog,
};
use weld_tests::tools::{self, Linker};
use weld_tests::{run, Check};

const GROUP: &str = "versions";

fn main() {
    let args = Arguments::from_args();
    libtest_mimic::run(&args, trials()).exit();
}

fn trials() -> Vec<Trial> {
    let c = Compiler::Clang;
    let mut t = vec![
        trial(GROUP, "version_script_two_versions".into(), move |d| {
            version_script(d, c)
        }),
        trial(GROUP, "symver_old_and_new_programs".into(), move |d| {
            symver(d, c)
        }),
        trial(GROUP, "extern_cxx_patterns".into(), move |d| {
            version_cxx(d, c)
        }),
        trial(GROUP, "globs".into(), move |d| version_globs(d, c)),
        trial(GROUP, "local_star_hides".into(), move |d| {
            version_local(d, c)
        }),
        trial(GROUP, "dynamic_list::executable".into(), move |d| {
            dynamic_list_exe(d, c)
        }),
        trial(GROUP, "dynamic_list::shared".into(), move |d| {
            dynamic_list_shared(d, c)
        }),
    ];
    for &c in COMPILERS {
        t.push(trial(
            GROUP,
            format!("glibc_version_needs::{}", c.name()),
            move |d| glibc_versions(d, c),
        ));
    }
    t
}

fn case(name: &str) -> PathBuf {
    dynamic_dir().join(name)
}

/// `-shared OBJS -Wl,--version-script=SCRIPT EXTRA` into `out`.
fn versioned_lib(
    c: Compiler,
    cxx: bool,
    l: &Linker,
    objs: &[PathBuf],
    script: &Path,
    extra: &[&str],
    out: &Path,
) -> Check {
    let mut a = vec!["-shared".to_string()];
    a.extend(args_of(objs));
    a.push(format!("-Wl,--version-script={}", script.display()));
    a.extend(extra.iter().map(|s| s.to_string()));
    link(c, cxx, l, &a, out).map(|_| ())
}

/// The dynamic symbols (names with versions, type, binding, visibility, size, defined or not) of
/// weld's and lld's outputs must be the same set.
fn same_dyn_syms(what: &str, weld: &Path, lld: &Path) -> Check {
    let text = |p: &Path| -> Result<String, String> {
        Ok(dynelf::dyn_sym_set(p)?
            .into_iter()
            .map(|l| format!("{l}\n"))
            .collect())
    };
    same_text(
        &format!("{what}: dynamic symbols (llvm-readelf-22 --dyn-syms, sorted)"),
        &text(weld)?,
        &text(lld)?,
    )
}

/// Version definitions and needs (`llvm-readelf-22 -V` without addresses) must be the same.
fn same_versions(what: &str, weld: &Path, lld: &Path) -> Check {
    let (w, l) = (dynelf::versions(weld)?, dynelf::versions(lld)?);
    all(vec![
        same_text(
            &format!("{what}: version definitions (.gnu.version_d)"),
            &w.defs_text(),
            &l.defs_text(),
        ),
        same_text(
            &format!("{what}: version needs (.gnu.version_r)"),
            &w.needs_text(),
            &l.needs_text(),
        ),
    ])
}

/// Symbol and version comparisons of one library (`name` in both library directories) and of the
/// program, for every output weld produced.
fn compare_outputs(fw: &FourWay, lib_names: &[&str]) -> Vec<Check> {
    let mut checks = Vec::new();
    if let Some(w) = &fw.lib_weld {
        for name in lib_names {
            let (wl, ll) = (w.join(name), fw.lib_lld.join(name));
            checks.push(same_dyn_syms(name, &wl, &ll));
            checks.push(same_versions(name, &wl, &ll));
        }
    }
    if let Some(w) = &fw.exe_weld {
        checks.push(same_dyn_syms("the program", w, &fw.exe_lld));
        checks.push(same_versions("the program", w, &fw.exe_lld));
    }
    checks
}

/// lld's output must export exactly `want` among the defined symbols whose base name is in
/// `universe` (the oracle check that keeps the test honest).
fn lld_exports(lib: &Path, universe: &[&str], want: &[&str]) -> Check {
    let got: Vec<String> = dynelf::dyn_syms(lib)?
        .into_iter()
        .filter(|s| s.is_defined() && universe.contains(&s.base_name()))
        .map(|s| s.name)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    want.sort();
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "the oracle changed: lld's {} exports {got:?}, expected {want:?}",
            lib.display()
        ))
    }
}

// ---------------------------------------------------------------------------------------------

fn version_script(dir: &Path, c: Compiler) -> Check {
    let src = case("version_script");
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let script = src.join("lib.map");
    let expected = read_text(&src, "expected.txt")?;
    let fw = four_way(
        dir,
        &|l, d| {
            versioned_lib(
                c,
                false,
                l,
                &lib_o,
                &script,
                &["-Wl,-soname,libvs.so"],
                &d.join("libvs.so"),
            )
        },
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &["-pie"],
            }
            .link(l, d, &["vs"], out)
        },
        &|d| vec![arg(&d.join("libvs.so"))],
        Some(&expected),
    )?;
    lld_exports(
        &fw.lib_lld.join("libvs.so"),
        &["foo", "bar", "baz", "baz_data"],
        &["foo@@V1", "bar@@V2"],
    )?;
    let mut checks = vec![fw.result()];
    checks.extend(compare_outputs(&fw, &["libvs.so"]));
    all(checks)
}

fn symver(dir: &Path, c: Compiler) -> Check {
    let src = case("symver");
    let v1_o = objects(&src, &["lib_v1.c"], c, &["-fPIC"])?;
    let v2_o = objects(&src, &["lib_v2.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let (map1, map2) = (src.join("lib_v1.map"), src.join("lib_v2.map"));
    // Version 1 in LIBDIR/v1 (to link old programs against), version 2 in LIBDIR (what every
    // program runs with).
    let libs = |l: &Linker, d: &Path| -> Check {
        let soname = ["-Wl,-soname,libsv.so.1"];
        versioned_lib(c, false, l, &v1_o, &map1, &soname, &d.join("v1/libsv.so.1"))?;
        tools::symlink_fresh(Path::new("libsv.so.1"), &d.join("v1/libsv.so"))?;
        versioned_lib(c, false, l, &v2_o, &map2, &soname, &d.join("libsv.so.1"))?;
        tools::symlink_fresh(Path::new("libsv.so.1"), &d.join("libsv.so"))
    };
    let mut checks = Vec::new();
    for (which, want) in [("old", "foo()=1\n"), ("new", "foo()=2\n")] {
        let sub = dir.join(which);
        weld_tests::paths::fresh_dir(&sub)?;
        let fw = four_way(
            &sub,
            &libs,
            &|l, d, out| {
                let libdir = if which == "old" {
                    d.join("v1")
                } else {
                    d.to_path_buf()
                };
                Prog {
                    compiler: c,
                    cxx: false,
                    objs: &exe_o,
                    flags: &["-pie"],
                }
                .link(l, &libdir, &["sv"], out)
            },
            &|_| Vec::new(),
            Some(want),
        )?;
        let ver = if which == "old" { "foo@V1" } else { "foo@V2" };
        let lld_syms = dynelf::dyn_syms(&fw.exe_lld)?;
        if !lld_syms.iter().any(|s| s.name == ver && !s.is_defined()) {
            return Err(format!(
                "the oracle changed: lld's {which} program does not import {ver}"
            ));
        }
        if which == "new" {
            lld_exports(
                &fw.lib_lld.join("libsv.so.1"),
                &["foo", "foo_v1", "foo_v2", "sv_new_api"],
                &["foo@V1", "foo@@V2", "sv_new_api@@V2"],
            )?;
            checks.extend(compare_outputs(&fw, &["libsv.so.1", "v1/libsv.so.1"]));
        } else if let Some(w) = &fw.exe_weld {
            checks.push(same_dyn_syms("the old program", w, &fw.exe_lld));
            checks.push(same_versions("the old program", w, &fw.exe_lld));
        }
        checks.push(fw.result().map_err(|e| format!("{which} program: {e}")));
    }
    all(checks)
}

fn version_cxx(dir: &Path, c: Compiler) -> Check {
    let src = case("version_cxx");
    let lib_o = objects(&src, &["lib.cpp"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.cpp"], c, &["-fPIE"])?;
    let script = src.join("lib.map");
    let expected = read_text(&src, "expected.txt")?;
    let fw = four_way(
        dir,
        &|l, d| {
            let soname = ["-Wl,-soname,libvcxx.so"];
            versioned_lib(c, true, l, &lib_o, &script, &soname, &d.join("libvcxx.so"))
        },
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: true,
                objs: &exe_o,
                flags: &["-pie"],
            }
            .link(l, d, &["vcxx"], out)
        },
        &|d| vec![arg(&d.join("libvcxx.so"))],
        Some(&expected),
    )?;
    lld_exports(
        &fw.lib_lld.join("libvcxx.so"),
        &[
            "_ZN3api6WidgetC1Ei",
            "_ZN3api6WidgetC2Ei",
            "_ZN3api6WidgetD1Ev",
            "_ZN3api6WidgetD2Ev",
            "_ZNK3api6Widget5valueEv",
            "_ZN3api11make_widgetEi",
            "_ZN3api10make_totalEv",
            "_ZN3api6Widget5countEv",
            "_ZN3api6detail6helperEi",
            "_Z17unlisted_functioni",
            "c_entry",
        ],
        &[
            "_ZN3api6WidgetC1Ei@@APIV1",
            "_ZN3api6WidgetC2Ei@@APIV1",
            "_ZN3api6WidgetD1Ev@@APIV1",
            "_ZN3api6WidgetD2Ev@@APIV1",
            "_ZNK3api6Widget5valueEv@@APIV1",
            "_ZN3api11make_widgetEi@@APIV1",
            "_ZN3api10make_totalEv@@APIV1",
            "c_entry@@APIV1",
        ],
    )?;
    let mut checks = vec![fw.result()];
    checks.extend(compare_outputs(&fw, &["libvcxx.so"]));
    all(checks)
}

fn version_globs(dir: &Path, c: Compiler) -> Check {
    let src = case("version_globs");
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let script = src.join("lib.map");
    let expected = read_text(&src, "expected.txt")?;
    let fw = four_way(
        dir,
        &|l, d| versioned_lib(c, false, l, &lib_o, &script, &[], &d.join("libglob.so")),
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &["-pie"],
            }
            .link(l, d, &["glob"], out)
        },
        &|d| vec![arg(&d.join("libglob.so"))],
        Some(&expected),
    )?;
    let mut checks = vec![fw.result()];
    checks.extend(compare_outputs(&fw, &["libglob.so"]));
    all(checks)
}

fn version_local(dir: &Path, c: Compiler) -> Check {
    let src = case("version_local");
    // Calls through the PLT (clang would otherwise bind them locally by itself).
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC", "-fsemantic-interposition"])?;
    let exe_o = objects(&src, &["main.c"], c, &["-fPIE"])?;
    let bad_o = objects(&src, &["bad.c"], c, &["-fPIE"])?;
    let script = src.join("lib.map");
    let expected = read_text(&src, "expected.txt")?;
    let fw = four_way(
        dir,
        &|l, d| versioned_lib(c, false, l, &lib_o, &script, &[], &d.join("liblocal.so")),
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &["-pie"],
            }
            .link(l, d, &["local"], out)
        },
        &|_| Vec::new(),
        Some(&expected),
    )?;
    let mut checks = vec![fw.result()];
    checks.extend(compare_outputs(&fw, &["liblocal.so"]));
    // A program referencing a hidden symbol does not link, with lld's diagnostic.
    let [lld, weld] = weld_tests::dynlink::linkers()?;
    let lib_weld = fw.lib_weld.clone().unwrap_or_else(|| fw.lib_lld.clone());
    let mut errs = Vec::new();
    for (l, libdir) in [(&lld, &fw.lib_lld), (&weld, &lib_weld)] {
        let out = dir.join(format!("bad.{}", l.label));
        let mut a = vec!["-pie".to_string()];
        a.extend(args_of(&bad_o));
        a.extend(libs(libdir, &["local"]));
        let mut cmd = link_command(c, false, l, &a, &out)?;
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        let name = tools::diag_name(&l.path);
        let first = o
            .stderr_str()
            .lines()
            .find(|line| line.contains(": error: "))
            .map(|line| line.replacen(&format!("{name}: "), "LINKER: ", 1));
        errs.push((o.success() || out.exists(), first, o));
    }
    let want = "LINKER: error: undefined symbol: internal_fn";
    if errs[0].0 || errs[0].1.as_deref() != Some(want) {
        return Err(format!(
            "the oracle changed: lld should fail with `{want}`\n{}",
            errs[0].2.report()
        ));
    }
    if errs[1].0 || errs[1].1 != errs[0].1 {
        checks.push(Err(format!(
            "linking a program that references the hidden internal_fn should fail like lld \
             (`{want}`, no output)\n{}",
            errs[1].2.report()
        )));
    }
    all(checks)
}

fn dynamic_list_exe(dir: &Path, c: Compiler) -> Check {
    let src = case("dynamic_list");
    let exe_o = objects(&src, &["exe_main.c"], c, &["-fPIE"])?;
    let list = src.join("exe.list");
    let expected = read_text(&src, "expected.exe.txt")?;
    let tw = two_way(
        dir,
        &|l, d| {
            let mut a = vec!["-pie".to_string()];
            a.extend(args_of(&exe_o));
            a.push(format!("-Wl,--dynamic-list={}", list.display()));
            link(c, false, l, &a, &d.join("prog"))
        },
        &|exe, d| weld_tests::dynlink::run_exe(exe, &[], None, d),
        Some(&expected),
    )?;
    let mut checks = vec![tw.result()];
    if let Some(w) = &tw.exe_weld {
        checks.push(same_set(
            "exported symbols",
            &dynelf::exported(w)?,
            &dynelf::exported(&tw.exe_lld)?,
        ));
    }
    all(checks)
}

fn dynamic_list_shared(dir: &Path, c: Compiler) -> Check {
    let src = case("dynamic_list");
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC", "-fsemantic-interposition"])?;
    let exe_o = objects(&src, &["lib_main.c"], c, &["-fPIE"])?;
    let list = src.join("lib.list");
    let expected = read_text(&src, "expected.lib.txt")?;
    let fw = four_way(
        dir,
        &|l, d| {
            let mut a = vec!["-shared".to_string()];
            a.extend(args_of(&lib_o));
            a.push(format!("-Wl,--dynamic-list={}", list.display()));
            link(c, false, l, &a, &d.join("libdl.so")).map(|_| ())
        },
        &|l, d, out| {
            Prog {
                compiler: c,
                cxx: false,
                objs: &exe_o,
                flags: &["-pie"],
            }
            .link(l, d, &["dl"], out)
        },
        &|_| Vec::new(),
        Some(&expected),
    )?;
    let mut checks = vec![fw.result()];
    checks.extend(compare_outputs(&fw, &["libdl.so"]));
    all(checks)
}

fn glibc_versions(dir: &Path, c: Compiler) -> Check {
    let src = case("glibc_versions");
    let lib_o = objects(&src, &["lib.c"], c, &["-fPIC"])?;
    let exe_o = objects(&src, &["main.c", "cxx.cpp"], c, &["-fPIE", "-pthread"])?;
    let expected = read_text(&src, "expected.txt")?;
    let tw = two_way(
        dir,
        &|l, d| {
            let mut a = vec!["-shared".to_string()];
            a.extend(args_of(&lib_o));
            link(c, false, l, &a, &d.join("libgv.so"))?;
            let flags = ["-pie", "-pthread"];
            let prog = Prog {
                compiler: c,
                cxx: true,
                objs: &exe_o,
                flags: &flags,
            };
            prog.link(l, d, &["gv", "m"], &d.join("prog"))
        },
        &|exe, d| weld_tests::dynlink::run_exe(exe, &[], Some(d), d),
        Some(&expected),
    )?;
    let needs = dynelf::versions(&tw.exe_lld)?.needs_text();
    for v in ["GLIBC_2.34", "GLIBCXX_3.4", "CXXABI_1.3"] {
        if !needs.contains(v) {
            return Err(format!(
                "the oracle changed: lld's program needs no {v}:\n{needs}"
            ));
        }
    }
    let mut checks = vec![tw.result()];
    if let Some(w) = &tw.exe_weld {
        checks.push(same_versions("the program", w, &tw.exe_lld));
        checks.push(same_dyn_syms("the program", w, &tw.exe_lld));
        let (wl, ll) = (tw.dir_weld.join("libgv.so"), tw.dir_lld.join("libgv.so"));
        checks.push(same_versions("the library", &wl, &ll));
        checks.push(same_dyn_syms("the library", &wl, &ll));
    }
    all(checks)
}
