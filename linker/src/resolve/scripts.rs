//! What the link's linker scripts say beyond the files they name. lld applies a script's
//! commands while it reads the script, before symbols are resolved; weld reads scripts while
//! it resolves (a script may be found through `-l`, or named by another), so the commands
//! that set up the link are applied right after resolution, to a new `Config` that the rest
//! of the link reads:
//!
//! - `ENTRY(sym)`: the entry point unless `-e` gave one (the first `ENTRY` wins, as in lld);
//! - `VERSION { ... }`: a version script, after the `--version-script` files;
//! - symbol assignments outside `SECTIONS` (`PROVIDE`, `PROVIDE_HIDDEN`, `HIDDEN`
//!   included): definitions, as `--defsym` makes them (lld implements `--defsym` as one);
//!   those that read or move the location counter are commands of layout's list instead,
//!   where they stand in the script;
//! - `ASSERT(cond, message)` outside `SECTIONS`: checked on the final layout;
//! - `SECTIONS`, `OVERWRITE_SECTIONS`, `MEMORY`, `REGION_ALIAS`, `PHDRS`, `NOCROSSREFS`: kept for
//!   layout, which makes its command list of them; the symbols the descriptions assign are
//!   definitions whose values the walk over the commands gives (lld's warning for a second
//!   `OVERWRITE_SECTIONS` description of a name is given here);
//! - `OUTPUT(file)`: the output file when `-o` names none;
//! - `OUTPUT_FORMAT(binary)`: a flat image, as `--oformat=binary` (only the link's first
//!   `OUTPUT_FORMAT` counts, as in lld; the ELF names are checked when the script is read);
//! - `OUTPUT_ARCH` is ignored, as by lld; `TARGET` is checked.
//!
//! (`INPUT`, `GROUP`, `AS_NEEDED`, `SEARCH_DIR` and `EXTERN` act during resolution.) What
//! weld does not implement yet is an error naming the command and where it was written, never
//! silently skipped.

use crate::config::{Config, Defsym, DefsymValue, OutputKind};
use crate::error::{Error, Result};
use crate::input::linker_script::ScriptFile;
use crate::script::ast::{
    AssignOp, Assignment, Command, OutputSection, OutputSectionCommand, Sections, SectionsCommand,
};
use crate::script::expr::{self, BinOp, Expr};

/// The `Config` the link continues with once the scripts in `scripts` are applied, or `None`
/// when they change nothing. Warnings lld gives while reading scripts are reported here.
pub fn apply(config: &Config, scripts: &[ScriptFile]) -> Result<Option<Config>> {
    // A -r link has no addresses to evaluate an expression on.
    if config.output_kind == OutputKind::Relocatable {
        if let Some(d) = config
            .defsyms
            .iter()
            .find(|d| matches!(d.value, DefsymValue::Expr(_)))
        {
            return Err(Error(format!(
                "--defsym: expression for {} not supported yet with -r",
                d.name
            )));
        }
    }
    // Most scripts only name inputs (glibc's `libc.so`): the `Config` is copied only when a
    // command changes it.
    let mut amended: Option<Config> = None;
    let mut format_seen = false;
    // The output sections `OVERWRITE_SECTIONS` commands describe so far.
    let mut overwritten = std::collections::HashSet::new();
    for file in scripts {
        for w in &file.script.warnings {
            config.warn(w)?;
        }
        let path = file.path.display();
        let unsupported = |what: &str, at: String| {
            Err(Error(format!(
                "{at}: linker script command not supported yet: {what}"
            )))
        };
        for c in &file.script.commands {
            match c {
                Command::Input(..)
                | Command::Group(..)
                | Command::SearchDir(..)
                | Command::Extern(..)
                | Command::OutputArch(..)
                // `TARGET` says how the files after it are read, which reading the inputs did.
                | Command::Target(..) => {}
                Command::OutputFormat { default, .. } => {
                    if !std::mem::replace(&mut format_seen, true) && default == "binary" {
                        amended.get_or_insert_with(|| config.clone()).oformat_binary = true;
                    }
                }
                Command::Entry(name, _) => {
                    let out = amended.get_or_insert_with(|| config.clone());
                    if out.entry.is_none() {
                        out.entry = Some(name.clone());
                    }
                }
                Command::Version { text, loc } => {
                    let padded = "\n".repeat(loc.line.saturating_sub(1) as usize) + text;
                    amended
                        .get_or_insert_with(|| config.clone())
                        .script_versions
                        .push((padded, loc.file.to_path_buf()));
                }
                // lld keeps assignments outside `SECTIONS` in its command list, in script
                // order: one that reads or moves the location counter takes effect where it
                // stands (after every section when no `SECTIONS` lays them out).
                Command::Assignment(a)
                    if (a.name == "." || a.expr.reads_dot())
                        && config.output_kind != OutputKind::Relocatable =>
                {
                    let out = amended.get_or_insert_with(|| config.clone());
                    if a.name != "." {
                        out.defsyms.retain(|d| d.name != a.name);
                        out.defsyms.push(placed(a));
                    }
                    out.script_layout.push(c.clone());
                }
                Command::Assignment(a) => {
                    let relocatable = config.output_kind == OutputKind::Relocatable;
                    let out = amended.get_or_insert_with(|| config.clone());
                    let d = match a.op.bin_op() {
                        None => definition(a, relocatable)?,
                        // `sym += e` after an earlier `sym = ...`: the earlier value, then `+ e`.
                        Some(op) => compound(a, op, out, relocatable)?,
                    };
                    out.defsyms.push(d);
                }
                Command::Sections(s) => {
                    if config.output_kind == OutputKind::Relocatable {
                        relocatable_sections_supported(s)?;
                    }
                    let out = amended.get_or_insert_with(|| config.clone());
                    out.defsyms.extend(placed_definitions(s));
                    out.script_layout.push(c.clone());
                }
                // Under -r, lld reads them (`ORIGIN`/`LENGTH` evaluate) but places nothing by
                // them: the -r writer ignores regions and program headers.
                Command::Memory(_) | Command::RegionAlias { .. } | Command::Phdrs(_) => amended
                    .get_or_insert_with(|| config.clone())
                    .script_layout
                    .push(c.clone()),

                // `OUTPUT(file)`: the output's name when `-o` gave none; the first one wins.
                Command::Output(file) => {
                    let out = amended.get_or_insert_with(|| config.clone());
                    if !out.output_given {
                        out.output = std::path::PathBuf::from(file);
                        out.output_given = true;
                    }
                }
                Command::Assert(a) => amended
                    .get_or_insert_with(|| config.clone())
                    .script_asserts
                    .push(a.clone()),
                Command::NoCrossRefs { .. } => amended
                    .get_or_insert_with(|| config.clone())
                    .script_layout
                    .push(c.clone()),
                Command::OverwriteSections(v) => {
                    if config.output_kind == OutputKind::Relocatable {
                        return unsupported("OVERWRITE_SECTIONS with -r", path.to_string());
                    }
                    let out = amended.get_or_insert_with(|| config.clone());
                    for o in v {
                        if o.constraint.is_some() {
                            return unsupported(
                                &format!("ONLY_IF_RO/ONLY_IF_RW in OVERWRITE_SECTIONS ({})", o.name),
                                o.loc.to_string(),
                            );
                        }
                        // lld's warning, as it takes the descriptions' inputs: the first
                        // description of a name is the one that overwrites.
                        if o.name != "/DISCARD/"
                            && !overwritten.insert(o.name.clone())
                        {
                            config.warn(&format!(
                                "OVERWRITE_SECTIONS specifies duplicate {}",
                                o.name
                            ))?;
                        }
                        out_extend(&mut |a| {
                            if a.name != "." {
                                out.defsyms.push(placed(a));
                            }
                        }, o);
                    }
                    out.script_layout.push(c.clone());
                }
            }
        }
    }
    Ok(amended)
}

/// Refuses what a `SECTIONS` command may say that weld's `-r` writer
/// (`write::relocatable_script`) does not do yet: `INSERT`. The other constructs lld accepts
/// under -r are done there (types, `SUBALIGN`, constraints, `OVERLAY`) or, as by lld, ignored
/// (load addresses, memory regions, program headers: a -r output has neither addresses nor
/// segments).
fn relocatable_sections_supported(s: &Sections) -> Result<()> {
    if let Some(ins) = &s.insert {
        return Err(Error(format!(
            "{}: linker script command not supported yet: INSERT with -r",
            ins.loc
        )));
    }
    Ok(())
}

/// A symbol assignment outside `SECTIONS` as a definition of the link: a value the script
/// alone decides (`sym = 0x1000;`, `sym = 4K * 2;`), another symbol plus or minus a constant
/// (`bar = foo;`, an alias with its target's type, as `--defsym` makes it), or any other
/// expression, evaluated on the final layout (`end = ADDR(.data) + SIZEOF(.data);`).
fn definition(a: &Assignment, relocatable: bool) -> Result<Defsym> {
    let not_yet = || {
        Error(format!(
            "{}: symbol assignment not supported yet: {}",
            a.loc, a.text
        ))
    };
    if a.name == "." || a.op != AssignOp::Set {
        return Err(not_yet());
    }
    let value = match expr::eval_constant(&a.expr) {
        Some(v) => DefsymValue::Absolute(v?),
        None => {
            match symbol_plus_constant(&a.expr) {
                Some((target, addend)) => DefsymValue::Symbol(target, addend),
                // Anything else reads the layout: evaluated once addresses are known (a -r
                // link has none).
                None if relocatable => return Err(not_yet()),
                None => DefsymValue::Expr(a.expr.clone()),
            }
        }
    };
    Ok(Defsym {
        name: a.name.clone(),
        value,
        provide: a.provide,
        hidden: a.hidden,
    })
}

/// The symbols `SECTIONS` assigns (outside output sections and inside them): the walk over
/// the commands gives their values.
fn placed_definitions(s: &Sections) -> Vec<Defsym> {
    let mut out = Vec::new();
    let mut add = |a: &Assignment| {
        if a.name != "." {
            out.push(placed(a));
        }
    };
    for c in &s.commands {
        match c {
            SectionsCommand::Assignment(a) => add(a),
            SectionsCommand::Output(o) => out_extend(&mut add, o),
            SectionsCommand::Overlay(ov) => {
                for o in &ov.sections {
                    out_extend(&mut add, o);
                }
            }
            SectionsCommand::Assert(_) => {}
        }
    }
    out
}

fn out_extend(add: &mut dyn FnMut(&Assignment), o: &OutputSection) {
    for c in &o.commands {
        if let OutputSectionCommand::Assignment(a) = c {
            add(a);
        }
    }
}

/// A definition the walk over the commands gives its value.
fn placed(a: &Assignment) -> Defsym {
    Defsym {
        name: a.name.clone(),
        value: DefsymValue::Placed(a.expr.clone()),
        provide: a.provide,
        hidden: a.hidden,
    }
}

/// A compound assignment outside `SECTIONS` (`foo += 4;`) as one definition: the expression of
/// the earlier assignment of the same symbol combined with the right-hand side, replacing it.
///
/// With no earlier assignment (a symbol an object defines, or nothing does), lld reads the
/// value its own declaration of the symbol starts with, 0, and repeats the assignment until
/// the value settles: `|=`, `&=`, `*=`, `/=`, `<<=`, `>>=` settle after one step; `+=`, `-=`
/// and `^=` only when the right-hand side is 0, else lld's error.
fn compound(a: &Assignment, op: BinOp, config: &mut Config, relocatable: bool) -> Result<Defsym> {
    let not_yet = || {
        Error(format!(
            "{}: symbol assignment not supported yet: {}",
            a.loc, a.text
        ))
    };
    let earlier = match config.defsyms.iter().rposition(|d| d.name == a.name) {
        Some(at) => Some(config.defsyms.remove(at)),
        None => None,
    };
    let before = match earlier.as_ref().map(|d| &d.value) {
        None => Expr::Number(0),
        Some(DefsymValue::Absolute(v)) => Expr::Number(*v),
        Some(DefsymValue::Symbol(target, addend)) => Expr::Binary(
            BinOp::Add,
            Box::new(Expr::Symbol(target.clone(), a.loc.clone())),
            Box::new(Expr::Number(*addend as u64)),
            a.loc.clone(),
        ),
        Some(DefsymValue::Expr(e) | DefsymValue::Placed(e)) => e.clone(),
    };
    // As lld: `+=` and `-=` keep a section-relative value in its section; the other operators
    // give an absolute one. Either way the result is a plain value (no alias, no type).
    let mut expr = Expr::Binary(
        op,
        Box::new(before),
        Box::new(a.expr.clone()),
        a.loc.clone(),
    );
    if !matches!(op, BinOp::Add | BinOp::Sub) {
        expr = Expr::Absolute(Box::new(expr));
    }
    // Repeating `0 op e` changes the value again only for these, unless `e` is 0.
    let settles_only_at_zero =
        earlier.is_none() && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Xor);
    let does_not_converge = || Error(format!("assignment to symbol {} does not converge", a.name));
    let value = match expr::eval_constant(&expr) {
        Some(v) => {
            let v = v?;
            if settles_only_at_zero && v != 0 {
                return Err(does_not_converge());
            }
            DefsymValue::Absolute(v)
        }
        None if relocatable => return Err(not_yet()),
        None => {
            if settles_only_at_zero {
                // The right-hand side reads the layout: lld's error if it is not 0 there.
                config.script_asserts.push(crate::script::ast::Assert {
                    cond: Expr::Binary(
                        BinOp::Eq,
                        Box::new(a.expr.clone()),
                        Box::new(Expr::Number(0)),
                        a.loc.clone(),
                    ),
                    message: does_not_converge().0,
                    loc: a.loc.clone(),
                });
            }
            DefsymValue::Expr(expr)
        }
    };
    Ok(Defsym {
        name: a.name.clone(),
        value,
        provide: earlier.as_ref().is_none_or(|d| d.provide) && a.provide,
        hidden: earlier.as_ref().is_some_and(|d| d.hidden) || a.hidden,
    })
}

/// `sym`, `sym + C`, `sym - C`, `C + sym` with constant `C`: the symbol and the addend.
fn symbol_plus_constant(e: &Expr) -> Option<(String, i64)> {
    match e {
        Expr::Symbol(name, _) => Some((name.clone(), 0)),
        Expr::Binary(op @ (BinOp::Add | BinOp::Sub), l, r, _) => {
            let constant = |e: &Expr| expr::eval_constant(e).and_then(|v| v.ok());
            if let (Some((name, a)), Some(c)) = (symbol_plus_constant(l), constant(r)) {
                let c = c.cast_signed();
                return Some((name, if *op == BinOp::Add { a + c } else { a - c }));
            }
            if *op == BinOp::Add {
                if let (Some(c), Some((name, a))) = (constant(l), symbol_plus_constant(r)) {
                    return Some((name, a + c.cast_signed()));
                }
            }
            None
        }
        _ => None,
    }
}

/// lld defines the symbols `OVERWRITE_SECTIONS` descriptions assign only once it lays the
/// output out (they are not declared with those of `SECTIONS`), so in a dynamically linked
/// output it has taken them as undefined: exported and preemptible. weld does not do that yet:
/// such an assignment is an error naming it when the output is dynamically linked (`dynamic`).
pub fn check_overwrite_symbols(scripts: &[ScriptFile], dynamic: bool) -> Result<()> {
    if !dynamic {
        return Ok(());
    }
    let descriptions = scripts
        .iter()
        .flat_map(|f| &f.script.commands)
        .flat_map(|c| match c {
            Command::OverwriteSections(v) => v.as_slice(),
            _ => &[],
        });
    for o in descriptions {
        for c in &o.commands {
            if let OutputSectionCommand::Assignment(a) = c {
                if a.name != "." {
                    return Err(Error(format!(
                        "{}: linker script command not supported yet: OVERWRITE_SECTIONS \
                         assigning {} in a dynamically linked output",
                        a.loc, a.name
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Whether the link defines `d`: every definition does, but a `PROVIDE` only a symbol something
/// references and nothing defines (lld's rule).
pub fn link_defines(d: &Defsym, res: &super::Resolved) -> bool {
    !d.provide
        || res.symtab.lookup(d.name.as_bytes()).is_some_and(|id| {
            let s = res.symtab.get(id);
            s.referenced && !s.is_defined()
        })
}

/// The entry point the scripts name: the first `ENTRY` (`-e` wins over it).
pub fn entry(scripts: &[ScriptFile]) -> Option<String> {
    scripts.iter().find_map(|f| {
        f.script.commands.iter().find_map(|c| match c {
            Command::Entry(name, _) => Some(name.clone()),
            _ => None,
        })
    })
}

/// The symbols the scripts' assignments read: like lld's
/// `referencedSymbols`, each may load an archive member during resolution.
pub fn referenced_symbols(scripts: &[ScriptFile]) -> Vec<String> {
    scripts
        .iter()
        .flat_map(|f| &f.script.commands)
        .flat_map(|c| match c {
            Command::Assignment(a) => a.expr.symbols(),
            Command::Sections(s) => placed_definitions(s)
                .iter()
                .flat_map(Defsym::referenced_symbols)
                .collect(),
            Command::OverwriteSections(v) => {
                let mut out = Vec::new();
                for o in v {
                    out_extend(
                        &mut |a| {
                            if a.name != "." {
                                out.extend(placed(a).referenced_symbols());
                            }
                        },
                        o,
                    );
                }
                out
            }
            _ => Vec::new(),
        })
        .collect()
}
