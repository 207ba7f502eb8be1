//! Linker scripts (issue #14), differential against ld.lld-22: the same script and inputs are
//! linked by both, and what the script decides is compared — symbol values (absolute ones
//! exactly, aliases relative to their targets since the two layouts differ), types, bindings
//! and visibilities, the entry point, version definitions, which archive members joined — and
//! programs run. Bad scripts must fail like lld, with the same `file:line: message`.

use libtest_mimic::Arguments;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use weld_tests::linkerr::{self, link_both};
use weld_tests::{paths, run, tools, Check};

fn main() {
    let args = Arguments::from_args();
    let trials = weld_tests::dir_trials(
        "scripts",
        &[
            ("dash_t_group_links_and_runs", dash_t_group_links_and_runs),
            ("assignments_entry_version", assignments_entry_version),
            (
                "referenced_symbols_load_members",
                referenced_symbols_load_members,
            ),
            ("expressions_read_the_layout", expressions_read_the_layout),
            ("failed_assert_like_lld", failed_assert_like_lld),
            ("defsym_expression", defsym_expression),
            ("syntax_error_like_lld", syntax_error_like_lld),
            ("include_cycle_like_lld", include_cycle_like_lld),
        ],
    );
    libtest_mimic::run(&args, trials).exit();
}

/// A freestanding `_start` that exits with `value()`'s result.
const START_C: &str = "extern int value(void);\n\
    void _start(void) {\n\
      long code = value();\n\
      __asm__ volatile(\"syscall\" : : \"a\"(60L), \"D\"(code));\n\
      __builtin_unreachable();\n\
    }\n";
const VALUE_C: &str = "int foo(void) { return 7; }\nint value(void) { return foo() * 6; }\n";

fn compile(dir: &Path, name: &str, src: &str) -> Check {
    linkerr::compile(dir, &format!("{name}.c"), src, &["-fPIC"]).map(|_| ())
}

/// Both linkers on `args -o out.{lld,weld}` in `dir`; both must succeed.
fn link_ok(dir: &Path, args: &[&str]) -> Result<(), String> {
    for (linker, out) in [(tools::lld()?, "out.lld"), (tools::weld()?, "out.weld")] {
        let mut cmd = Command::new(&linker);
        cmd.current_dir(dir).args(args).args(["-o", out]);
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok(&format!("linking {out}"))?;
    }
    Ok(())
}

/// A `.symtab` row: value, type, bind, visibility, section index.
type Row = (u64, String, String, String, String);

/// `readelf -sW`'s `.symtab` rows by name.
fn symbols(file: &Path) -> Result<BTreeMap<String, Row>, String> {
    let mut out = BTreeMap::new();
    for t in weld_tests::dynelf::symtab_rows(file)? {
        let value = u64::from_str_radix(&t[1], 16).map_err(|_| format!("bad value: {t:?}"))?;
        out.insert(
            t[7].clone(),
            (
                value,
                t[3].clone(),
                t[4].clone(),
                t[5].clone(),
                t[6].clone(),
            ),
        );
    }
    Ok(out)
}

fn entry_point(file: &Path) -> Result<u64, String> {
    let text = weld_tests::dynelf::readelf(&["-hW"], file)?;
    text.lines()
        .find_map(|l| l.trim().strip_prefix("Entry point address:"))
        .and_then(|v| u64::from_str_radix(v.trim().trim_start_matches("0x"), 16).ok())
        .ok_or_else(|| format!("no entry point in {}", file.display()))
}

fn runs_with(program: &Path, code: i32) -> Check {
    let out = run::run(&mut Command::new(program), run::TOOL_TIMEOUT)?;
    if out.code != Some(code) {
        return Err(format!(
            "{} should exit with {code}:\n{}",
            program.display(),
            out.report()
        ));
    }
    Ok(())
}

fn dash_t_group_links_and_runs(dir: &Path) -> Check {
    compile(dir, "start", START_C)?;
    compile(dir, "value", VALUE_C)?;
    paths::write(
        &dir.join("group.lds"),
        "/* inputs only */\nGROUP ( start.o value.o )\n",
    )?;
    link_ok(dir, &["-T", "group.lds"])?;
    runs_with(&dir.join("out.lld"), 42)?;
    runs_with(&dir.join("out.weld"), 42)
}

fn assignments_entry_version(dir: &Path) -> Check {
    compile(dir, "value", VALUE_C)?;
    compile(
        dir,
        "user",
        "extern char prov[];\nextern char hid[];\nvoid *use(void) { return prov + (long)hid; }\nvoid mystart(void) {}\n",
    )?;
    paths::write(
        &dir.join("defs.lds"),
        "bar = foo;\n\
         PROVIDE(prov = 0x1234);\n\
         PROVIDE(unused_prov = 1);\n\
         HIDDEN(hid = foo + 4);\n\
         abs_sym = 4K * 2 + 0x10;\n\
         ENTRY(mystart)\n\
         VERSION { V1 { global: foo; bar; value; use; }; V2 { global: mystart; }; }\n",
    )?;
    link_ok(dir, &["-shared", "value.o", "user.o", "defs.lds"])?;
    let mut facts = Vec::new();
    for out in ["out.lld", "out.weld"] {
        let path = dir.join(out);
        let syms = symbols(&path)?;
        let get = |n: &str| {
            syms.get(n)
                .cloned()
                .ok_or_else(|| format!("{out}: no symbol {n}"))
        };
        let target = get("foo")?;
        let bar = get("bar")?;
        let hid = get("hid")?;
        let mystart = get("mystart")?;
        let versions = weld_tests::dynelf::versions(&path)?;
        facts.push(format!(
            "bar-foo={} bar=({} {} {}) prov={:?} unused_prov={} hid-foo={} hid=({} {}) \
             abs_sym={:?} entry-mystart={} versions={:?}",
            bar.0.wrapping_sub(target.0),
            bar.1,
            bar.2,
            bar.3,
            get("prov").map(|p| (p.0, p.4)),
            syms.contains_key("unused_prov"),
            hid.0.wrapping_sub(target.0),
            hid.2,
            hid.3,
            get("abs_sym").map(|a| (a.0, a.4)),
            entry_point(&path)?.wrapping_sub(mystart.0),
            versions
                .defs
                .iter()
                .map(|d| d.replace(out, "OUT"))
                .collect::<Vec<_>>(),
        ));
    }
    if facts[0] != facts[1] {
        return Err(format!(
            "the script's definitions differ:\n  lld:  {}\n  weld: {}",
            facts[0], facts[1]
        ));
    }
    Ok(())
}

/// Symbols a script reads (an assignment's, `EXTERN`'s, `ENTRY`'s) and `--defsym`'s target
/// load the archive members that define them, as lld's script-referenced symbols do.
fn referenced_symbols_load_members(dir: &Path) -> Check {
    compile(dir, "start", START_C)?;
    compile(dir, "value", VALUE_C)?;
    for (name, sym) in [
        ("m_alias", "alias_target"),
        ("m_extern", "extern_only"),
        ("m_entry", "entry_here"),
        ("m_defsym", "defsym_target"),
    ] {
        compile(dir, name, &format!("int {sym}(void) {{ return 1; }}\n"))?;
    }
    let mut ar = Command::new(tools::find("llvm-ar-22")?);
    ar.current_dir(dir).args([
        "rcs",
        "lib.a",
        "m_alias.o",
        "m_extern.o",
        "m_entry.o",
        "m_defsym.o",
    ]);
    run::run(&mut ar, run::TOOL_TIMEOUT)?.ok("llvm-ar-22")?;
    paths::write(
        &dir.join("refs.lds"),
        "my_alias = alias_target;\nEXTERN(extern_only)\nENTRY(entry_here)\n",
    )?;
    link_ok(
        dir,
        &[
            "start.o",
            "value.o",
            "refs.lds",
            "lib.a",
            "--defsym=d=defsym_target",
        ],
    )?;
    let lld = symbols(&dir.join("out.lld"))?;
    let weld = symbols(&dir.join("out.weld"))?;
    for name in [
        "alias_target",
        "extern_only",
        "entry_here",
        "defsym_target",
        "my_alias",
    ] {
        match (lld.contains_key(name), weld.contains_key(name)) {
            (true, true) => {}
            (false, _) => return Err(format!("the oracle changed: lld has no {name}")),
            (true, false) => return Err(format!("weld did not load the member defining {name}")),
        }
    }
    Ok(())
}

fn syntax_error_like_lld(dir: &Path) -> Check {
    compile(dir, "start", START_C)?;
    paths::write(&dir.join("bad.lds"), "GROUP(start.o)\nfoo = ;\n")?;
    let both = link_both(dir, &["-T", "bad.lds"])?;
    both.same_first_error("bad.lds:2: malformed number: ;")?;
    both.same_stderr()
}

fn include_cycle_like_lld(dir: &Path) -> Check {
    compile(dir, "start", START_C)?;
    paths::write(&dir.join("a.lds"), "INCLUDE b.lds\n")?;
    paths::write(&dir.join("b.lds"), "INCLUDE a.lds\n")?;
    let both = link_both(dir, &["start.o", "-T", "a.lds"])?;
    both.same_first_error("b.lds:1: there is a cycle in linker script INCLUDEs")
}

/// `readelf -SW`: (address, size, index) of output section `name`.
fn section(file: &Path, name: &str) -> Result<(u64, u64, String), String> {
    let text = weld_tests::dynelf::readelf(&["-SW"], file)?;
    for line in text.lines() {
        let Some((idx, rest)) = line
            .trim()
            .strip_prefix('[')
            .and_then(|l| l.split_once(']'))
        else {
            continue;
        };
        let t: Vec<&str> = rest.split_whitespace().collect();
        if t.first() == Some(&name) && t.len() > 4 {
            let hex = |v: &str| u64::from_str_radix(v, 16).map_err(|_| format!("bad: {line}"));
            return Ok((hex(t[2])?, hex(t[4])?, idx.trim().to_string()));
        }
    }
    Err(format!("{}: no section {name}", file.display()))
}

/// Assignments outside `SECTIONS` that read the layout (`ADDR`, `SIZEOF`, a symbol in a
/// section): their values follow each linker's own layout, exactly as lld computes them,
/// relative to the section lld makes them relative to.
fn expressions_read_the_layout(dir: &Path) -> Check {
    compile(dir, "value", VALUE_C)?;
    compile(dir, "data", "int counter = 5;\n")?;
    paths::write(
        &dir.join("expr.lds"),
        "text_end = ADDR(.text) + SIZEOF(.text);\n\
         mid = foo + (ADDR(.data) - ADDR(.text)) / 2;\n\
         aligned = ALIGN(ADDR(.data), 0x100) + MAX(1, 2);\n\
         ASSERT(SIZEOF(.text) > 0 && DEFINED(foo), \"no text\");\n",
    )?;
    link_ok(dir, &["-shared", "value.o", "data.o", "expr.lds"])?;
    for out in ["out.lld", "out.weld"] {
        let path = dir.join(out);
        let syms = symbols(&path)?;
        let (text, text_size, text_idx) = section(&path, ".text")?;
        let (data, _, data_idx) = section(&path, ".data")?;
        let get = |n: &str| syms.get(n).cloned().ok_or_else(|| format!("{out}: no {n}"));
        let target = get("foo")?;
        let want = [
            ("text_end", text + text_size, text_idx.clone()),
            ("mid", target.0 + (data - text) / 2, text_idx.clone()),
            // lld keeps an aligned section address relative to its section.
            (
                "aligned",
                data.div_ceil(0x100) * 0x100 + 2,
                data_idx.clone(),
            ),
        ];
        for (name, value, ndx) in want {
            let got = get(name)?;
            if (got.0, got.4.as_str()) != (value, ndx.as_str()) {
                return Err(format!(
                    "{out}: {name} is {:#x} in section {}, expected {value:#x} in {ndx}",
                    got.0, got.4
                ));
            }
        }
    }
    Ok(())
}

fn failed_assert_like_lld(dir: &Path) -> Check {
    compile(dir, "value", VALUE_C)?;
    paths::write(
        &dir.join("assert.lds"),
        "ASSERT(SIZEOF(.text) > 0x100000, \"text too small\");\n",
    )?;
    let both = link_both(dir, &["-shared", "value.o", "assert.lds"])?;
    both.same_first_error("text too small")?;
    both.same_stderr()
}

/// `--defsym` takes any script expression, as lld's does: its value follows each linker's own
/// layout, in the section lld puts it in.
fn defsym_expression(dir: &Path) -> Check {
    compile(dir, "start", START_C)?;
    compile(dir, "value", VALUE_C)?;
    link_ok(
        dir,
        &[
            "start.o",
            "value.o",
            "--defsym=x=foo*2+ADDR(.text)",
            "--defsym=y=DEFINED(nope) ? 1 : 2",
        ],
    )?;
    for out in ["out.lld", "out.weld"] {
        let path = dir.join(out);
        let syms = symbols(&path)?;
        let (text, _, text_idx) = section(&path, ".text")?;
        let get = |n: &str| syms.get(n).cloned().ok_or_else(|| format!("{out}: no {n}"));
        let target = get("foo")?;
        let (x, y) = (get("x")?, get("y")?);
        if (x.0, x.4.as_str()) != (target.0 * 2 + text, text_idx.as_str()) {
            return Err(format!(
                "{out}: x is {:#x} in {}, expected foo*2+ADDR(.text)",
                x.0, x.4
            ));
        }
        if (y.0, y.4.as_str()) != (2, "ABS") {
            return Err(format!(
                "{out}: y is {:#x} in {}, expected 2 (absolute)",
                y.0, y.4
            ));
        }
    }
    Ok(())
}
