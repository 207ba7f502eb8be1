//! The ordered list of output-section commands layout builds the output from (lld's
//! `sectionCommands`): output section descriptions, and between them the symbol assignments
//! and `ASSERT`s of `SECTIONS`. Each description names an output section and, in its body, the
//! input sections it takes; an input section no description takes is an *orphan* and gets the
//! output section of its name (`section_rules::output_name_of`).
//!
//! The built-in list has no commands: every output section is an orphan, and output sections
//! are ordered by lld's ranks (`section_rules::section_rank`), as lld orders them without a
//! `SECTIONS` command. A linker script's `SECTIONS` is a second producer of the same list
//! ([`SectionCommands::from_script`]): its sections come in the script's order and orphans are
//! placed next to the most similar of them (lld's `findOrphanPos`). Layout itself has one path
//! for both; addresses have two (`addresses` without `SECTIONS`, `script_addresses` with it).

use crate::error::{Error, Result};
use crate::input::input_files::SectionKind;
use crate::resolve::Resolved;
use crate::script::ast::{
    self, Assert, Assignment, Command, Constraint, OutputSection, OutputSectionCommand,
    SectionsCommand,
};
use crate::script::expr::Expr;
use crate::script::matching::ScriptFileName;
use object::elf;

/// The name of the output section whose inputs are discarded.
pub const DISCARD: &str = "/DISCARD/";

/// The file name synthetic sections are matched as (lld's internal file).
pub const INTERNAL_FILE: &str = "<internal>";

/// One command of the list.
#[derive(Clone, Debug)]
pub enum SectionCommand {
    /// An output section description.
    Output(Box<OutputSection>),
    /// A symbol assignment between output sections (`.` included).
    Assign(Assignment),
    /// `ASSERT` between output sections.
    Assert(Assert),
}

/// Where a description put an input section: the description's command, the position of the
/// input section description in its body, and which of that description's section patterns
/// matched (lld sorts each pattern's sections on their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Taken {
    pub command: u32,
    pub body: u32,
    pub pattern: u32,
}

/// The command list.
#[derive(Clone, Debug, Default)]
pub struct SectionCommands {
    pub commands: Vec<SectionCommand>,
    /// By command: an `ONLY_IF_RO`/`ONLY_IF_RW` description whose inputs do not meet its
    /// constraint, handled as if it were not there ([`SectionCommands::settle_constraints`]).
    disabled: Vec<bool>,
    /// `MEMORY` regions, in script order.
    pub regions: Vec<ast::MemoryRegion>,
    /// `REGION_ALIAS(alias, region)`: the alias and the region's index.
    pub aliases: Vec<(String, usize)>,
    /// `PHDRS`: the program headers, as the script lists them.
    pub phdrs: Vec<ast::Phdr>,
    /// `NOCROSSREFS(sections)` (false) and `NOCROSSREFS_TO(target, sections)` (true).
    pub no_cross_refs: Vec<(Vec<String>, bool)>,
    /// The output sections an expression names with `ADDR` or `LOADADDR`: lld keeps those
    /// even when nothing goes to them (its `usedInExpression`).
    pub addressed: hashbrown::HashSet<String>,
    /// `SECTIONS { ... } INSERT AFTER|BEFORE name`: the commands each one added.
    pub inserts: Vec<Inserted>,
    /// A `SECTIONS` without `INSERT` (lld's `hasSectionsCommand`): the script lays the output
    /// out; else the built-in layout does, with inserted commands where they say.
    sections_command: bool,
    /// The commands `OVERWRITE_SECTIONS` gave, in script order: they take input sections
    /// before every other description (lld processes them first).
    overwrites: Vec<usize>,
    /// Those of them no `SECTIONS` description of the same name had: appended to the list and
    /// placed as orphans are ([`order`]).
    orphan_placed: Vec<usize>,
    /// A second `OVERWRITE_SECTIONS` description of a name (lld warns and makes a second
    /// output section of that name for what it takes; weld does not:
    /// [`SectionCommands::check_overwrite_duplicates`]).
    duplicates: Vec<OutputSection>,
}

/// The commands `first..end` of the list came from a `SECTIONS` that ends in `INSERT`: they go
/// after (or before) output section `target` of the built-in layout.
#[derive(Clone, Debug)]
pub struct Inserted {
    pub first: usize,
    pub end: usize,
    pub after: bool,
    pub target: String,
}

impl SectionCommands {
    /// The built-in list: no `SECTIONS` command, every output section an orphan.
    pub fn built_in() -> Self {
        SectionCommands::default()
    }

    /// The list a script's `SECTIONS` commands make, in script order (lld concatenates
    /// several), with its `MEMORY` regions and `REGION_ALIAS`es. What layout does not
    /// implement yet is an error naming it and where it was written.
    pub fn from_script(script: &[Command]) -> Result<Self> {
        let not_yet = |what: &str, loc: &ast::Loc| {
            Err(Error(format!(
                "{loc}: linker script command not supported yet: {what}"
            )))
        };
        let mut out = SectionCommands::default();
        let mut has_sections = false;
        for c in script {
            match c {
                Command::Memory(regions) => {
                    for r in regions {
                        if out.region(&r.name).is_some() {
                            return Err(Error(format!(
                                "{}: region '{}' already defined",
                                r.loc, r.name
                            )));
                        }
                        out.regions.push(r.clone());
                    }
                }
                Command::RegionAlias { alias, region, loc } => {
                    if out.region(alias).is_some() {
                        return Err(Error(format!(
                            "{loc}: redefinition of memory region '{alias}'"
                        )));
                    }
                    let Some(i) = out.region(region) else {
                        return Err(Error(format!(
                            "{loc}: memory region '{region}' is not defined"
                        )));
                    };
                    out.aliases.push((alias.clone(), i));
                }
                // An assignment outside `SECTIONS` that reads the location counter (see
                // `resolve::scripts`): a command where it stands.
                Command::Assignment(a) => out.commands.push(SectionCommand::Assign(a.clone())),
                Command::Phdrs(p) => out.phdrs.extend(p.iter().cloned()),
                Command::NoCrossRefs { sections, to, .. } => {
                    out.no_cross_refs.push((sections.clone(), *to));
                }
                Command::Sections(s) => {
                    let first = out.commands.len();
                    match &s.insert {
                        Some(insert) => out.inserts.push(Inserted {
                            first,
                            end: first,
                            after: insert.after,
                            target: insert.section.clone(),
                        }),
                        None => has_sections = true,
                    }
                    for c in &s.commands {
                        out.commands.push(match c {
                            SectionsCommand::Assignment(a) => SectionCommand::Assign(a.clone()),
                            SectionsCommand::Assert(a) => SectionCommand::Assert(a.clone()),
                            SectionsCommand::Overlay(o) => {
                                out.commands.extend(overlay(o));
                                continue;
                            }
                            SectionsCommand::Output(o) => {
                                if o.align_with_input {
                                    // lld's own message.
                                    return Err(Error(format!(
                                        "{}: ALIGN_WITH_INPUT is not supported",
                                        o.loc
                                    )));
                                }
                                SectionCommand::Output(o.clone())
                            }
                        });
                    }
                    if s.insert.is_some() {
                        if let Some(ins) = out.inserts.last_mut() {
                            ins.end = out.commands.len();
                        }
                    }
                }
                _ => {}
            }
        }
        out.sections_command = has_sections;
        out.overwrite(script);
        let mut exprs: Vec<&Expr> = Vec::new();
        for c in &out.commands {
            match c {
                SectionCommand::Assign(a) => exprs.push(&a.expr),
                SectionCommand::Assert(a) => exprs.push(&a.cond),
                SectionCommand::Output(o) => {
                    exprs.extend(
                        o.addr
                            .iter()
                            .chain(&o.lma)
                            .chain(&o.align)
                            .chain(&o.subalign),
                    );
                    for c in &o.commands {
                        match c {
                            OutputSectionCommand::Assignment(a) => exprs.push(&a.expr),
                            OutputSectionCommand::Assert(a) => exprs.push(&a.cond),
                            OutputSectionCommand::Data { expr, .. } => exprs.push(expr),
                            _ => {}
                        }
                    }
                }
            }
        }
        let addressed = addressed_sections(exprs.into_iter());
        out.addressed = addressed;
        if !has_sections && !out.regions.is_empty() {
            if let Some(r) = out.regions.first() {
                return not_yet("MEMORY without SECTIONS", &r.loc);
            }
        }
        if !has_sections && !out.phdrs.is_empty() {
            if let Some(p) = out.phdrs.first() {
                return not_yet("PHDRS without SECTIONS", &p.loc);
            }
        }
        Ok(out)
    }

    /// lld's handling of `OVERWRITE_SECTIONS` (in `processSectionCommands`): each description
    /// replaces the `SECTIONS` descriptions of its name where they stand, or, when none has
    /// it, goes at the end of the list to be placed as an orphan; the first description of a
    /// name is the one that counts.
    fn overwrite(&mut self, script: &[Command]) {
        let descriptions = script.iter().flat_map(|c| match c {
            Command::OverwriteSections(v) => v.as_slice(),
            _ => &[],
        });
        let mut names: Vec<&str> = Vec::new();
        for o in descriptions {
            // lld's map of names leaves `/DISCARD/` out: every one of them discards.
            if o.name != DISCARD && names.contains(&o.name.as_str()) {
                self.duplicates.push(o.clone());
                continue;
            }
            names.push(&o.name);
            let mut first = None;
            for (i, c) in self.commands.iter_mut().enumerate() {
                if matches!(c, SectionCommand::Output(m) if m.name == o.name) {
                    *c = SectionCommand::Output(Box::new(o.clone()));
                    first.get_or_insert(i);
                }
            }
            let at = first.unwrap_or_else(|| {
                self.commands
                    .push(SectionCommand::Output(Box::new(o.clone())));
                self.orphan_placed.push(self.commands.len() - 1);
                self.commands.len() - 1
            });
            self.overwrites.push(at);
        }
    }

    /// lld makes a second output section of a name for what a second `OVERWRITE_SECTIONS`
    /// description of it takes (input sections the first does not); weld has one output
    /// section by name, so that is an error naming the description. A duplicate that takes
    /// nothing changes nothing (lld drops the empty section), as with the same patterns.
    pub fn check_overwrite_duplicates(&self, res: &Resolved) -> Result<()> {
        if self.duplicates.is_empty() {
            return Ok(());
        }
        for f in &res.files {
            let n = f.script_name();
            let full = n.for_script();
            for s in &f.sections {
                if !(s.kind.is_copied() || s.kind == SectionKind::Comment) {
                    continue;
                }
                let (name, flags) = (s.name_str(), s.flags());
                let taken = self.description_of(&n, &full, name, flags);
                if taken.is_some_and(|t| self.overwrites.contains(&(t.command as usize))) {
                    continue;
                }
                let again = self.duplicates.iter().find(|o| {
                    o.commands.iter().any(|c| {
                        matches!(c, OutputSectionCommand::Input(d)
                            if d.pattern_for(&n, &full, name, flags).is_some())
                    })
                });
                if let Some(o) = again {
                    return Err(Error(format!(
                        "{}: linker script command not supported yet: OVERWRITE_SECTIONS \
                         describing {} a second time, for {}:({name})",
                        o.loc, o.name, f.name
                    )));
                }
            }
        }
        Ok(())
    }

    /// The index of memory region `name` (or of the region an alias names).
    pub fn region(&self, name: &str) -> Option<usize> {
        self.regions
            .iter()
            .position(|r| r.name == name)
            .or_else(|| {
                self.aliases
                    .iter()
                    .find(|(a, _)| a == name)
                    .map(|&(_, i)| i)
            })
    }

    /// Decides the `ONLY_IF_RO`/`ONLY_IF_RW` descriptions as lld does once the set of live
    /// input sections is known: in command order, a description whose input sections (those
    /// no earlier description took) are not all read-only, or not one of them writable, is
    /// dropped, and what it would have taken goes to later descriptions or becomes an orphan.
    pub fn settle_constraints(&mut self, res: &Resolved) {
        let has_eh_frame = res
            .files
            .iter()
            .any(|f| f.sections.iter().any(|s| s.kind == SectionKind::EhFrame));
        self.settle_constraints_by(
            res,
            &|fi, si| {
                let k = res.files[fi].sections[si].kind;
                k.is_copied() || k == SectionKind::Comment
            },
            has_eh_frame,
        );
    }

    /// [`SectionCommands::settle_constraints`] for a -r link: the input sections that count
    /// are those `counts(file, section)` says the output copies (lld reads `.eh_frame` as
    /// an ordinary section under -r, so there is no linker-made one).
    pub fn settle_constraints_relocatable(
        &mut self,
        res: &Resolved,
        counts: &dyn Fn(usize, usize) -> bool,
    ) {
        self.settle_constraints_by(res, counts, false);
    }

    fn settle_constraints_by(
        &mut self,
        res: &Resolved,
        counts: &dyn Fn(usize, usize) -> bool,
        internal_eh_frame: bool,
    ) {
        let constrained: Vec<(usize, Constraint)> = self
            .outputs()
            .filter_map(|(i, o)| Some((i, o.constraint?)))
            .collect();
        if constrained.is_empty() {
            return;
        }
        self.disabled = vec![false; self.commands.len()];
        for (ci, constraint) in constrained {
            let mut writable = false;
            let mut check = |t: Option<Taken>, flags: u64| {
                if t.is_some_and(|t| t.command as usize == ci) {
                    writable |= flags & u64::from(object::elf::SHF_WRITE) != 0;
                }
            };
            for (fi, f) in res.files.iter().enumerate() {
                let n = f.script_name();
                let full = n.for_script();
                for (si, s) in f.sections.iter().enumerate() {
                    if counts(fi, si) {
                        check(
                            self.description_of(&n, &full, s.name_str(), s.flags()),
                            s.flags(),
                        );
                    }
                }
            }
            // lld's `.eh_frame` is a linker-made input section, read-only on x86-64.
            if internal_eh_frame {
                let internal = ScriptFileName {
                    archive: None,
                    name: INTERNAL_FILE,
                };
                let flags = u64::from(object::elf::SHF_ALLOC);
                check(
                    self.description_of(&internal, INTERNAL_FILE, ".eh_frame", flags),
                    flags,
                );
            }
            let met = match constraint {
                Constraint::ReadOnly => !writable,
                Constraint::ReadWrite => writable,
            };
            self.disabled[ci] = !met;
        }
    }

    /// Whether a `SECTIONS` command without `INSERT` lays the output out (the built-in list
    /// has none).
    pub fn has_sections(&self) -> bool {
        self.sections_command
    }

    /// Whether a script's descriptions decide where some input sections go (`SECTIONS`, with
    /// or without `INSERT`).
    pub fn has_descriptions(&self) -> bool {
        !self.commands.is_empty()
    }

    /// The output section descriptions with their command index.
    pub fn outputs(&self) -> impl Iterator<Item = (usize, &OutputSection)> {
        self.commands
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match c {
                SectionCommand::Output(o) if !self.is_disabled(i) => Some((i, &**o)),
                _ => None,
            })
    }

    fn is_disabled(&self, i: usize) -> bool {
        self.disabled.get(i).copied().unwrap_or(false)
    }

    /// The output section description of command `i`.
    pub fn output(&self, i: u32) -> Option<&OutputSection> {
        match self.commands.get(i as usize)? {
            SectionCommand::Output(o) if !self.is_disabled(i as usize) => Some(&**o),
            _ => None,
        }
    }

    /// Where the commands put input section `name` (flags `flags`) of `file`: the first
    /// input section description, in command order, that takes it (lld's rule). `full` is
    /// `file.for_script()`. `None`: an orphan.
    pub fn description_of(
        &self,
        file: &ScriptFileName,
        full: &str,
        name: &str,
        flags: u64,
    ) -> Option<Taken> {
        // `OVERWRITE_SECTIONS` descriptions take first, in their order.
        let overwrites = self
            .overwrites
            .iter()
            .filter_map(|&ci| Some((ci, self.output(ci as u32)?)));
        let others = self
            .outputs()
            .filter(|(ci, _)| !self.overwrites.contains(ci));
        overwrites.chain(others).find_map(|(ci, o)| {
            o.commands.iter().enumerate().find_map(|(bi, c)| match c {
                OutputSectionCommand::Input(d) => {
                    let p = d.pattern_for(file, full, name, flags)?;
                    Some(Taken {
                        command: ci as u32,
                        body: bi as u32,
                        pattern: p as u32,
                    })
                }
                _ => None,
            })
        })
    }

    /// The output section name of command `t.command`.
    pub fn output_name(&self, t: Taken) -> &str {
        self.output(t.command).map_or("", |o| o.name.as_str())
    }

    /// Whether an assignment uses `DATA_SEGMENT_RELRO_END`: only then does lld make
    /// `.relro_padding` under `SECTIONS` (it goes right before that assignment).
    pub fn relro_end(&self) -> Option<usize> {
        self.commands.iter().position(|c| match c {
            SectionCommand::Assign(a) => {
                let mut found = false;
                a.expr.visit(&mut |e| {
                    found |= matches!(e, crate::script::expr::Expr::DataSegmentRelroEnd(..))
                });
                found
            }
            _ => false,
        })
    }

    /// The index of the command describing output section `name`, if one does.
    pub fn position_of(&self, name: &str) -> Option<usize> {
        self.outputs().find(|(_, o)| o.name == name).map(|(i, _)| i)
    }

    /// For output section `name`: its place among the `OVERWRITE_SECTIONS` descriptions
    /// placed as orphans, if one of them describes it. lld appends those to its list after the
    /// `SECTIONS` descriptions and before the orphans it makes (without `SECTIONS`, after
    /// them), and sorts the orphans stably by rank: among equal ranks this order decides.
    /// Whether command `ci` is an `OVERWRITE_SECTIONS` description placed as an orphan.
    pub fn is_orphan_placed(&self, ci: usize) -> bool {
        self.orphan_placed.contains(&ci)
    }

    fn orphan_placed_rank(&self, name: &str) -> Option<usize> {
        self.orphan_placed
            .iter()
            .position(|&ci| self.output(ci as u32).is_some_and(|o| o.name == name))
    }
}

/// An `OVERLAY` as lld reads it: its sections share one address (the overlay's, else the
/// location counter for the first, the first's for the others) and load one after the other
/// (from `AT(...)`, else where the first loads); then the location counter moves past the
/// largest. Written as the descriptions and the assignment that say so
/// (`ADDR(first)`, `LOADADDR(prev) + SIZEOF(prev)`), followed by [`overlay_end`].
fn overlay(ov: &ast::Overlay) -> Vec<SectionCommand> {
    use crate::script::expr::{BinOp, Expr};
    let mut out = Vec::new();
    let Some(first) = ov.sections.first() else {
        return vec![SectionCommand::Assign(dot_assignment(
            Expr::Dot(ov.loc.clone()),
            ov,
        ))];
    };
    let mut prev: Option<&OutputSection> = None;
    for sec in &ov.sections {
        let mut o = sec.clone();
        o.in_overlay = true;
        match prev {
            None => {
                o.addr = ov.addr.clone();
                o.lma = ov.lma.clone();
            }
            Some(p) => {
                o.addr = Some(Expr::Addr(first.name.clone(), ov.loc.clone()));
                o.lma = Some(Expr::Binary(
                    BinOp::Add,
                    Box::new(Expr::LoadAddr(p.name.clone(), ov.loc.clone())),
                    Box::new(Expr::SizeOf(p.name.clone())),
                    ov.loc.clone(),
                ));
            }
        }
        out.push(SectionCommand::Output(Box::new(o)));
        prev = Some(sec);
    }
    out.push(overlay_end(ov));
    out
}

/// The assignment that ends an `OVERLAY`: `. = ADDR(first) + MAX(SIZEOF(a), SIZEOF(b), ...)`.
fn overlay_end(ov: &ast::Overlay) -> SectionCommand {
    use crate::script::expr::{BinOp, Expr};
    let Some(first) = ov.sections.first() else {
        return SectionCommand::Assign(dot_assignment(Expr::Dot(ov.loc.clone()), ov));
    };
    let largest = ov
        .sections
        .iter()
        .map(|s| Expr::SizeOf(s.name.clone()))
        .reduce(|a, b| Expr::Max(Box::new(a), Box::new(b)))
        .unwrap_or(Expr::Number(0));
    let end = Expr::Binary(
        BinOp::Add,
        Box::new(Expr::Addr(first.name.clone(), ov.loc.clone())),
        Box::new(largest),
        ov.loc.clone(),
    );
    SectionCommand::Assign(dot_assignment(end, ov))
}

fn dot_assignment(expr: crate::script::expr::Expr, ov: &ast::Overlay) -> Assignment {
    Assignment {
        name: ".".into(),
        op: ast::AssignOp::Set,
        expr,
        provide: false,
        hidden: false,
        order: u32::MAX,
        text: ". = <end of OVERLAY>".into(),
        loc: ov.loc.clone(),
    }
}

/// The output sections `exprs` name with `ADDR` or `LOADADDR`.
pub fn addressed_sections<'e>(exprs: impl Iterator<Item = &'e Expr>) -> hashbrown::HashSet<String> {
    let mut out = hashbrown::HashSet::new();
    for e in exprs {
        e.visit(&mut |e| {
            if let Expr::Addr(name, _) | Expr::LoadAddr(name, _) = e {
                out.insert(name.clone());
            }
        });
    }
    out
}

/// Whether lld keeps output section description `o` when no input section went to it (lld's
/// `isDiscardable` negated): it moves the location counter, holds data, asserts or assigns a
/// symbol. (lld also keeps one an expression names with `ADDR`/`LOADADDR`: see
/// [`SectionCommands::addressed`].)
pub fn kept_when_empty(o: &OutputSection) -> bool {
    if o.name == DISCARD {
        return false;
    }
    // An overlay's sections are named by the expressions that place the others.
    o.in_overlay
        || o.commands.iter().any(|c| match c {
            OutputSectionCommand::Input(_) | OutputSectionCommand::Constructors => false,
            // lld keeps it for an assignment whose symbol gets defined; a `PROVIDE` often does
            // not, and is taken as not keeping it.
            OutputSectionCommand::Assignment(a) => a.name == "." || !a.provide,
            _ => true,
        })
}

/// What ordering needs to know of an output section.
#[derive(Clone, Copy, Debug)]
pub struct Placed<'a> {
    pub name: &'a str,
    /// lld's rank (`section_rules::section_rank`).
    pub rank: u32,
    pub alloc: bool,
    /// An input or linker-made chunk went to it (lld's `hasInputSections`).
    pub has_inputs: bool,
    /// `--section-start` gave it an address (only without `SECTIONS`).
    pub start: Option<u64>,
}

pub use crate::output::script_layout::Placement;

/// The order of `sections` under `commands`, with the commands between sections in their
/// place. Without a `SECTIONS` command: sections with a `--section-start` address first, by
/// address, then by rank, ties in creation order (lld's `sortSections`). With one: the
/// sections the commands describe and the other commands in command order, and each orphan,
/// taken by rank, placed after the most similar of them (`orphan_position`).
pub fn order(commands: &SectionCommands, sections: &[Placed]) -> Result<Vec<Placement>> {
    if !commands.has_sections() {
        let mut by_rank: Vec<u32> = (0..sections.len() as u32).collect();
        by_rank.sort_by_key(|&i| {
            let s = &sections[i as usize];
            // lld's orphans come first in its list, `OVERWRITE_SECTIONS`' sections after them.
            let overwrite = commands.orphan_placed_rank(s.name).map_or(0, |k| k + 1);
            (s.start.is_none(), s.start.unwrap_or(0), s.rank, overwrite)
        });
        let mut out: Vec<Placement> = by_rank.into_iter().map(Placement::Section).collect();
        for ins in &commands.inserts {
            insert(commands, sections, ins, &mut out)?;
        }
        // lld puts the orphans (here: every section) before the script's commands, and
        // `INSERT` moves only output sections: the other commands (symbol assignments, `.`
        // moves, `ASSERT`s, in `INSERT`ed `SECTIONS` or outside any) come after every
        // section, in script order.
        out.extend(
            (0..commands.commands.len() as u32)
                .filter(|&c| !matches!(commands.commands[c as usize], SectionCommand::Output(_)))
                .map(Placement::Command),
        );
        return Ok(out);
    }
    let mut scripted: Vec<(usize, Placement)> = Vec::new();
    let mut orphans: Vec<u32> = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        match commands.position_of(s.name) {
            Some(p) if commands.orphan_placed_rank(s.name).is_none() => {
                scripted.push((p, Placement::Section(i as u32)))
            }
            _ => orphans.push(i as u32),
        }
    }
    for (i, c) in commands.commands.iter().enumerate() {
        if !matches!(c, SectionCommand::Output(_)) {
            scripted.push((i, Placement::Command(i as u32)));
        }
    }
    scripted.sort_by_key(|&(p, _)| p);
    let mut out: Vec<Placement> = scripted.into_iter().map(|(_, p)| p).collect();
    // As lld: a first `. = ...` before any section sets the start address, and every orphan
    // goes after it.
    let is_symbol_assignment = |p: &Placement| match p {
        Placement::Command(c) => matches!(
            &commands.commands[*c as usize],
            SectionCommand::Assign(a) if a.name != "."
        ),
        Placement::Section(_) => false,
    };
    let mut first = out
        .iter()
        .position(|p| !is_symbol_assignment(p))
        .unwrap_or(out.len());
    if matches!(out.get(first), Some(Placement::Command(_))) {
        first += 1;
    }
    // `OVERWRITE_SECTIONS`' orphans come before the others in lld's list.
    orphans.sort_by_key(|&i| {
        let s = &sections[i as usize];
        (
            s.rank,
            commands.orphan_placed_rank(s.name).unwrap_or(usize::MAX),
        )
    });
    let relro_end = commands.relro_end();
    // lld places the orphans of one rank together, where the first of them goes: an
    // `OVERWRITE_SECTIONS` section without inputs (one that only assigns a symbol) leads the
    // orphans of its rank, which follow it rather than their own anchor.
    let mut batch: Option<(u32, usize)> = None;
    for o in orphans {
        let rank = sections[o as usize].rank;
        if let Some((_, at)) = batch.as_mut().filter(|(r, _)| *r == rank) {
            out.insert(*at, Placement::Section(o));
            *at += 1;
            continue;
        }
        if sections[o as usize].name == ".relro_padding" {
            let at =
                relro_end.and_then(|c| out.iter().position(|p| *p == Placement::Command(c as u32)));
            if let Some(at) = at {
                out.insert(at, Placement::Section(o));
                continue;
            }
        }
        let at = first
            + orphan_position(
                sections,
                &out[first..],
                &sections[o as usize],
                &is_symbol_assignment,
                !commands.regions.is_empty() || !commands.phdrs.is_empty(),
            );
        out.insert(at, Placement::Section(o));
        batch = Some((rank, at + 1));
    }
    Ok(out)
}

/// The output sections lld makes whether or not anything goes to them (its synthetic `.bss`,
/// `.got`, `.plt`, ...), with their types and flags: lld can `INSERT` next to them while they
/// exist, before empty ones are dropped.
const ALWAYS_MADE_BY_LLD: [(&str, u32, u32); 8] = [
    (".bss", elf::SHT_NOBITS, elf::SHF_ALLOC | elf::SHF_WRITE),
    (
        ".bss.rel.ro",
        elf::SHT_NOBITS,
        elf::SHF_ALLOC | elf::SHF_WRITE,
    ),
    (".got", elf::SHT_PROGBITS, elf::SHF_ALLOC | elf::SHF_WRITE),
    (
        ".got.plt",
        elf::SHT_PROGBITS,
        elf::SHF_ALLOC | elf::SHF_WRITE,
    ),
    (
        ".plt",
        elf::SHT_PROGBITS,
        elf::SHF_ALLOC | elf::SHF_EXECINSTR,
    ),
    (
        ".iplt",
        elf::SHT_PROGBITS,
        elf::SHF_ALLOC | elf::SHF_EXECINSTR,
    ),
    (".rela.dyn", elf::SHT_RELA, elf::SHF_ALLOC),
    (".rela.plt", elf::SHT_RELA, elf::SHF_ALLOC),
];

/// Empty stand-ins for the sections of [`ALWAYS_MADE_BY_LLD`] an `INSERT` names but this link
/// does not make, ranked by `rank(name, type, flags)`: ordered with the others, they mark where
/// lld's would be. The caller drops them from the order.
pub fn insert_anchors(
    commands: &SectionCommands,
    placed: &[Placed],
    rank: impl Fn(&str, u32, u64) -> u32,
) -> Vec<Placed<'static>> {
    let mut out: Vec<Placed<'static>> = Vec::new();
    for ins in &commands.inserts {
        let Some(&(name, sh_type, flags)) =
            ALWAYS_MADE_BY_LLD.iter().find(|(n, _, _)| *n == ins.target)
        else {
            continue;
        };
        if placed.iter().chain(&out).any(|p| p.name == name) {
            continue;
        }
        out.push(Placed {
            name,
            rank: rank(name, sh_type, u64::from(flags)),
            alloc: true,
            has_inputs: false,
            start: None,
        });
    }
    out
}

/// lld's `processInsertCommands`: an `INSERT`ed `SECTIONS`'s output sections, in their order,
/// go right after (or before) output section `target`; its other commands stay where they are.
fn insert(
    commands: &SectionCommands,
    sections: &[Placed],
    ins: &Inserted,
    out: &mut Vec<Placement>,
) -> Result<()> {
    let group: Vec<Placement> = (ins.first..ins.end)
        .filter_map(|c| match &commands.commands[c] {
            SectionCommand::Output(o) => sections
                .iter()
                .position(|s| s.name == o.name)
                .map(|i| Placement::Section(i as u32)),
            _ => None,
        })
        .collect();
    out.retain(|p| !group.contains(p));
    let target = out.iter().position(
        |p| matches!(p, Placement::Section(i) if sections[*i as usize].name == ins.target),
    );
    let Some(t) = target else {
        let name = (ins.first..ins.end)
            .find_map(|c| match &commands.commands[c] {
                SectionCommand::Output(o) => Some(o.name.as_str()),
                _ => None,
            })
            .unwrap_or("");
        let how = if ins.after { "after" } else { "before" };
        return Err(Error(format!(
            "unable to insert {name} {how} {}",
            ins.target
        )));
    };
    let at = if ins.after { t + 1 } else { t };
    out.splice(at..at, group);
    Ok(())
}

/// How alike two ranks are: the number of leading rank bits they share, each bit being one of
/// lld's rank criteria (lld's `getRankProximity`); `None` for a section that cannot anchor an
/// orphan (it has no inputs).
fn proximity(orphan: &Placed, other: &Placed) -> Option<u32> {
    other
        .has_inputs
        .then(|| (orphan.rank ^ other.rank).leading_zeros())
}

/// Where in `placed` orphan `sec` goes (lld's `findOrphanPos`): non-allocated orphans at the
/// end; others after the most similar section with inputs (the last of equally similar ones
/// when the orphan's rank is not smaller, else before the first), at the very end when no
/// section with inputs follows, and never between a section and the symbol assignments right
/// after it (`_edata = .;` stays with `.data`).
fn orphan_position(
    sections: &[Placed],
    placed: &[Placement],
    sec: &Placed,
    is_symbol_assignment: &dyn Fn(&Placement) -> bool,
    must_after: bool,
) -> usize {
    let end = placed.len();
    if !sec.alloc {
        return end;
    }
    let at = |j: usize| match placed[j] {
        Placement::Section(i) => Some(&sections[i as usize]),
        Placement::Command(_) => None,
    };
    let with_inputs = |j: usize| at(j).is_some_and(|p| p.has_inputs);
    let mut best = 0u32;
    let mut anchor = None;
    for j in 0..end {
        let Some(s) = at(j) else {
            continue;
        };
        let Some(p) = proximity(sec, s) else {
            continue;
        };
        if p > best || (p == best && s.rank <= sec.rank) {
            best = p;
            anchor = Some(j);
        }
    }
    let Some(mut i) = anchor else {
        return end;
    };
    // With memory regions (or program headers), lld never places an orphan before its anchor:
    // it continues the anchor's region.
    if must_after || at(i).is_some_and(|s| s.rank <= sec.rank) {
        i += 1;
        let mut j = i;
        while j < end {
            if with_inputs(j) {
                if at(j).and_then(|s| proximity(sec, s)) != Some(best) {
                    break;
                }
                i = j + 1;
            }
            j += 1;
        }
    } else {
        while i > 0 && !with_inputs(i - 1) {
            i -= 1;
        }
    }
    if !(i..end).any(with_inputs) {
        return end;
    }
    while i < end && is_symbol_assignment(&placed[i]) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::ast::{InputSectionDesc, Loc, Pattern, SectionPattern, SortKind};

    fn loc() -> Loc {
        Loc {
            file: std::sync::Arc::from(std::path::Path::new("t.lds")),
            line: 1,
        }
    }

    fn placed(name: &str, rank: u32) -> Placed<'_> {
        Placed {
            name,
            rank,
            alloc: true,
            has_inputs: true,
            start: None,
        }
    }

    fn pat(t: &str) -> Pattern {
        Pattern {
            text: t.into(),
            quoted: false,
        }
    }

    fn input(file: &str, sections: &[&str]) -> OutputSectionCommand {
        OutputSectionCommand::Input(InputSectionDesc {
            file: pat(file),
            exclude_files: Vec::new(),
            patterns: vec![SectionPattern {
                exclude_files: Vec::new(),
                sections: sections.iter().map(|s| pat(s)).collect(),
                sort_outer: SortKind::Default,
                sort_inner: SortKind::Default,
            }],
            keep: false,
            with_flags: 0,
            without_flags: 0,
            text: String::new(),
            loc: loc(),
        })
    }

    fn script(names: &[&str]) -> SectionCommands {
        SectionCommands {
            disabled: Vec::new(),
            regions: Vec::new(),
            aliases: Vec::new(),
            phdrs: Vec::new(),
            no_cross_refs: Vec::new(),
            addressed: Default::default(),
            inserts: Vec::new(),
            sections_command: true,
            overwrites: Vec::new(),
            orphan_placed: Vec::new(),
            duplicates: Vec::new(),
            commands: names
                .iter()
                .map(|n| {
                    if let Some(sym) = n.strip_prefix('=') {
                        return SectionCommand::Assign(assign(sym));
                    }
                    let mut o = OutputSection::named(n.to_string(), false, loc());
                    o.commands.push(input("*", &[&format!("{n}*")]));
                    SectionCommand::Output(Box::new(o))
                })
                .collect(),
        }
    }

    fn assign(name: &str) -> Assignment {
        Assignment {
            name: name.into(),
            op: ast::AssignOp::Set,
            expr: ast::Expr::Dot(loc()),
            provide: false,
            hidden: false,
            order: 0,
            text: String::new(),
            loc: loc(),
        }
    }

    fn names<'a>(
        commands: &SectionCommands,
        sections: &[Placed<'a>],
        order: &[Placement],
    ) -> Vec<String> {
        order
            .iter()
            .map(|p| match p {
                Placement::Section(i) => sections[*i as usize].name.to_string(),
                Placement::Command(c) => match &commands.commands[*c as usize] {
                    SectionCommand::Assign(a) => format!("={}", a.name),
                    _ => "?".into(),
                },
            })
            .collect()
    }

    fn file(name: &str) -> (ScriptFileName<'_>, String) {
        let f = ScriptFileName {
            archive: None,
            name,
        };
        let full = f.for_script();
        (f, full)
    }

    #[test]
    fn built_in_list_orders_by_start_then_rank_keeping_creation_order() {
        let mut s = vec![placed(".data", 20), placed(".text", 10), placed(".bss", 30)];
        s.push(placed(".text.hot", 10));
        s[2].start = Some(0x1000);
        let cmds = SectionCommands::built_in();
        let o = order(&cmds, &s).unwrap();
        assert_eq!(
            names(&cmds, &s, &o),
            [".bss", ".text", ".text.hot", ".data"]
        );
    }

    #[test]
    fn first_matching_description_takes_a_section() {
        let cmds = script(&[".text", ".text.hot"]);
        let (f, full) = file("a.o");
        let t = cmds.description_of(&f, &full, ".text.hot", 0).unwrap();
        assert_eq!(cmds.output_name(t), ".text");
        assert_eq!(cmds.description_of(&f, &full, ".rodata", 0), None);
        let mut two = script(&[".data"]);
        let SectionCommand::Output(o) = &mut two.commands[0] else {
            unreachable!()
        };
        o.commands.insert(0, input("b.o", &[".data*"]));
        let t = two.description_of(&f, &full, ".data.x", 0).unwrap();
        assert_eq!((t.command, t.body), (0, 1));
        let (g, gfull) = file("b.o");
        let t = two.description_of(&g, &gfull, ".data.x", 0).unwrap();
        assert_eq!((t.command, t.body), (0, 0));
    }

    #[test]
    fn script_order_wins_over_rank_and_orphans_follow_their_likes() {
        // The script puts .data before .text; the orphan .rodata (rank between) goes after the
        // section it shares the most rank bits with.
        let s = vec![
            placed(".text", 0b0100_0000),
            placed(".data", 0b0001_0000),
            placed(".rodata", 0b0101_0000),
        ];
        let cmds = script(&[".data", ".text"]);
        let o = order(&cmds, &s).unwrap();
        assert_eq!(names(&cmds, &s, &o), [".data", ".text", ".rodata"]);
    }

    #[test]
    fn non_allocated_orphans_go_last() {
        let mut s = vec![placed(".text", 1), placed(".comment", 0)];
        s[1].alloc = false;
        let cmds = script(&[".text"]);
        let o = order(&cmds, &s).unwrap();
        assert_eq!(names(&cmds, &s, &o), [".text", ".comment"]);
    }

    #[test]
    fn an_orphan_ranked_before_its_anchor_goes_before_it() {
        let s = vec![
            placed(".data", 0b0011),
            placed(".text", 0b1000),
            placed(".x", 0b0010),
        ];
        let cmds = script(&[".text", ".data"]);
        let o = order(&cmds, &s).unwrap();
        assert_eq!(names(&cmds, &s, &o), [".text", ".x", ".data"]);
    }

    #[test]
    fn orphans_keep_symbol_assignments_with_their_section() {
        let s = vec![
            placed(".text", 0b0100),
            placed(".data", 0b1000),
            placed(".data.x", 0b1000),
        ];
        let cmds = script(&["=.", ".text", ".data", "=_edata", ".bss"]);
        let o = order(&cmds, &s).unwrap();
        assert_eq!(
            names(&cmds, &s, &o),
            ["=.", ".text", ".data", "=_edata", ".data.x"]
        );
    }
}
