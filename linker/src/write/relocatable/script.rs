//! `-r` with a linker script's `SECTIONS`, as ld.lld does it:
//!
//! - the script's output sections come first, in script order; each takes the input sections
//!   its input section descriptions take (the first description that matches, in command
//!   order, as in a normal link: `SectionCommands::description_of`), each description's
//!   sections in input order or sorted as its pattern says; `/DISCARD/` drops what it takes;
//! - an input section no description takes is an orphan: it joins the script's output section
//!   of its own name (after the section's commands), else it gets an output section of its own
//!   name after the script's, as without a script (`.text.foo` stays `.text.foo`);
//! - relocation sections are orphans too: `.rela` plus their output section's name, made where
//!   the first input relocation section for it comes in input order;
//! - the commands are walked with addresses, as lld assigns them, so that `. = ALIGN(n)`,
//!   `BYTE`..`QUAD`, `FILL` and symbol assignments give lld's offsets and values; then every
//!   section's address is 0 again and symbols keep their offset in their output section (an
//!   assignment outside output sections is relative to the last one before it, or, before any,
//!   to the first output section).
//!
//! - a description's type applies as lld applies it under -r: `NOLOAD` and `TYPE=SHT_NOBITS`
//!   make `SHT_NOBITS`, `COPY`/`INFO`/`OVERLAY` drop `SHF_ALLOC`, `TYPE=t` sets the type
//!   (an input of another type is lld's "section type mismatch"); `SUBALIGN` sets the
//!   alignment of the description's inputs; `ONLY_IF_RO`/`ONLY_IF_RW` drop descriptions as in
//!   a normal link; `OVERLAY`'s sections are descriptions (only the first is made empty);
//! - a -r output has no addresses or segments: `AT`, `AT>`, `>region` and `:phdr` are
//!   ignored, as by lld (`ORIGIN`/`LENGTH` still read `MEMORY`);
//! - a member of a section group makes its output section `SHF_GROUP` and the group names that
//!   section (each output section once), as lld writes it.
//!
//! What lld does that this does not (yet) is an error naming the construct and where the script
//! says it: placing `.eh_frame`, `SHF_LINK_ORDER` sections or
//! `.tbss` by a description, mixing mergeable and other inputs in one output section, and
//! expressions that read symbols of the input objects, `DEFINED` or `SIZEOF_HEADERS`.

use super::{merge_into, OutSection, Slot};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::input::input_files::{FileId, SectionKind};
use crate::layout::commands::{self, SectionCommand, SectionCommands, Taken, DISCARD};
use crate::layout::script_sections::sort_by_keyword;
use crate::resolve::symbol_table::SymbolDef;
use crate::resolve::Resolved;
use crate::script::ast::{
    Assignment, Loc, OutputSection, OutputSectionCommand, SectionType, SortKind,
};
use crate::script::expr::{self, EvalContext, SectionInfo, Value};
use hashbrown::{HashMap, HashSet};
use object::elf;
use object::read::elf::SectionHeader;
use object::LittleEndian as LE;
use std::cell::RefCell;

/// What a symbol assignment of `SECTIONS` gave a symbol.
#[derive(Clone, Copy, Debug)]
pub(super) enum ScriptValue {
    /// An absolute value.
    Absolute(u64),
    /// An offset in an output section (by index into the output sections).
    InSection(u32, u64),
    /// Relative to no output section (assigned before the first): lld writes it in the first
    /// section of the output.
    BeforeSections(u64),
}

/// What the script does with an input section.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Not the script's business: the orphan loop places it (or it is not copied).
    Orphan,
    /// `/DISCARD/` took it.
    Discard,
    /// A description took it.
    Scripted(Taken),
    /// An orphan named like the script's output section of command `0`: it goes there.
    Joined(u32),
}

/// The scripted part of a `-r` layout, and what the orphan loop tells it about the order.
pub(super) struct Scripted {
    class: Vec<Vec<Class>>,
    /// How many output sections the script made (they come first).
    script_sections: u32,
    /// Relocation sections, each with the number of output sections that existed when the
    /// first input relocation section for it was met.
    relas: Vec<(u32, u32)>,
    rela_seen: HashSet<u32>,
    symbols: HashMap<String, ScriptValue>,
}

impl Scripted {
    /// Called by the orphan loop for every input section in input order, before it places one:
    /// whether the script placed (or discarded) it. Relocation sections are noted here for the
    /// order of the output's relocation sections.
    pub(super) fn visit(
        &mut self,
        res: &Resolved,
        placed: &[Vec<Option<(u32, u64)>>],
        sections: &[OutSection],
        fi: usize,
        si: usize,
    ) -> bool {
        let s = &res.files[fi].sections[si];
        if matches!(s.sh_type(), elf::SHT_RELA | elf::SHT_REL) {
            let target = s.shdr.sh_info(LE) as usize;
            if let Some(&Some((out, _))) = placed[fi].get(target) {
                if self.rela_seen.insert(out) {
                    self.relas.push((sections.len() as u32, out));
                }
            }
        }
        self.class[fi][si] != Class::Orphan
    }

    /// The output's section order and the symbols' values, once every section exists.
    pub(super) fn finish(
        self,
        sections: &[OutSection],
    ) -> (Vec<Slot>, HashMap<String, ScriptValue>) {
        let mut order = Vec::with_capacity(sections.len() * 2);
        let mut relas = self.relas.iter().peekable();
        for i in 0..sections.len() as u32 {
            // A relocation section met while `i` sections existed comes before section `i`,
            // but never before the script's sections.
            while let Some(&&(at, out)) = relas.peek() {
                if at > i || i < self.script_sections {
                    break;
                }
                order.push(Slot::Rela(out));
                relas.next();
            }
            order.push(Slot::Section(i));
        }
        order.extend(relas.map(|&(_, out)| Slot::Rela(out)));
        // Relocations of a section no input relocation section named (none in practice)
        // follow their section.
        for i in 0..sections.len() as u32 {
            if !self.rela_seen.contains(&i) {
                let at = order
                    .iter()
                    .position(|s| *s == Slot::Section(i))
                    .map_or(order.len(), |p| p + 1);
                order.insert(at, Slot::Rela(i));
            }
        }
        (order, self.symbols)
    }
}

fn not_yet(loc: &Loc, what: &str) -> Error {
    Error(format!(
        "{loc}: linker script command not supported yet: {what} with -r"
    ))
}

/// One thing an output section's body puts in it, in order.
#[derive(Clone, Copy)]
enum Item {
    /// An input section, and the alignment it is placed at (its own, or the description's
    /// `SUBALIGN`).
    Input(usize, usize, u64),
    /// A command of the description's body (assignment, data, `ASSERT`).
    Command(usize),
}

/// Classifies every input section, makes the script's output sections and lays them out by
/// walking the commands (see the module documentation).
#[allow(clippy::too_many_arguments)]
pub(super) fn place(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
    grouped: &[Vec<bool>],
    sections: &mut Vec<OutSection>,
    placed: &mut [Vec<Option<(u32, u64)>>],
    merged: &mut HashMap<u32, crate::output::merge::MergedSection>,
    merged_input: &mut HashMap<(FileId, u32), (u32, u32)>,
) -> Result<Scripted> {
    let mut names = HashSet::new();
    for (_, o) in commands.outputs() {
        if o.name != DISCARD && !names.insert(o.name.as_str()) {
            return Err(not_yet(
                &o.loc,
                &format!("a second description of {}", o.name),
            ));
        }
    }
    let class = classify(res, commands)?;

    // The script's output sections, in command order, with what goes in each.
    let mut out_of: HashMap<usize, u32> = HashMap::new();
    let mut bodies: Vec<(usize, Vec<Item>)> = Vec::new();
    let mut last_flags = 0u64;
    for (ci, o) in commands.outputs() {
        if o.name == DISCARD {
            continue;
        }
        let mut inputs: Vec<(u32, u32, usize, usize)> = Vec::new();
        let mut joined: Vec<(usize, usize)> = Vec::new();
        for (fi, per) in class.iter().enumerate() {
            for (si, c) in per.iter().enumerate() {
                match *c {
                    Class::Scripted(t) if t.command as usize == ci => {
                        inputs.push((t.body, t.pattern, fi, si))
                    }
                    Class::Joined(c) if c as usize == ci => joined.push((fi, si)),
                    _ => {}
                }
            }
        }
        if inputs.is_empty() && joined.is_empty() && !kept_when_empty(commands, ci, o) {
            continue;
        }
        inputs.sort_by_key(|&(b, p, _, _)| (b, p));
        sort_patterns(config, res, commands, ci, &mut inputs);
        let all: Vec<(usize, usize)> = inputs
            .iter()
            .map(|&(_, _, fi, si)| (fi, si))
            .chain(joined.iter().copied())
            .collect();
        // `SUBALIGN(n)`: the description's own inputs are placed at `n` (orphans joining the
        // section keep their alignment), as lld sets their alignment to it.
        let subalign = match &o.subalign {
            Some(e) => {
                let a = expr::eval_constant(e).ok_or_else(|| {
                    not_yet(&o.loc, &format!("a computed SUBALIGN of {}", o.name))
                })??;
                if !a.max(1).is_power_of_two() {
                    return Err(Error(format!("{}: alignment must be power of 2", o.loc)));
                }
                Some(a.max(1))
            }
            None => None,
        };
        let align_of = |fi: usize, si: usize, scripted: bool| match subalign {
            Some(a) if scripted => a,
            _ => res.files[fi].sections[si].align(),
        };
        let aligns: Vec<u64> = inputs
            .iter()
            .map(|&(_, _, fi, si)| align_of(fi, si, true))
            .chain(joined.iter().map(|&(fi, si)| align_of(fi, si, false)))
            .collect();
        let mut os = output_section(res, o, &all, &aligns)?;
        // A member of a section group makes the section a member (`SHF_GROUP`): the group then
        // names the whole output section, as lld writes it. The relocation section is one
        // only when a member's relocations are in it (lld ORs the input sections' flags).
        let members = || all.iter().filter(|&&(fi, si)| grouped[fi][si]);
        if members().next().is_some() {
            os.flags |= u64::from(elf::SHF_GROUP);
        }
        os.in_group = members().any(|&(fi, si)| !res.files[fi].sections[si].relocs.is_empty());
        if all.is_empty() {
            // As in a normal link, an empty section takes the flags of the one before it.
            os.flags = last_flags & u64::from(elf::SHF_ALLOC | elf::SHF_WRITE);
        }
        last_flags = os.flags;
        if o.section_type.is_some() {
            apply_type(res, o, &all, &mut os)?;
        }
        if let Some(e) = &o.align {
            let a = expr::eval_constant(e)
                .ok_or_else(|| not_yet(&o.loc, &format!("a computed ALIGN of {}", o.name)))??;
            if !a.max(1).is_power_of_two() {
                return Err(Error(format!("{}: alignment must be power of 2", o.loc)));
            }
            os.align = os.align.max(a);
        }
        if let Some(e) = &o.fill {
            let v = expr::eval_constant(e)
                .ok_or_else(|| not_yet(&o.loc, &format!("a computed FILL of {}", o.name)))??;
            os.fill = Some((v as u32).to_be_bytes());
        }
        let out = sections.len() as u32;
        let mergeable = all.first().is_some_and(|&(fi, si)| is_merge(res, fi, si));
        if mergeable && (subalign.is_some() || os.sh_type == elf::SHT_NOBITS) {
            return Err(not_yet(
                &o.loc,
                &format!("SUBALIGN or NOLOAD of mergeable sections in {}", o.name),
            ));
        }
        if mergeable {
            let list: Vec<(FileId, u32)> = all
                .iter()
                .map(|&(fi, si)| (fi as FileId, si as u32))
                .collect();
            sections.push(os);
            merge_into(res, &list, out, sections, merged, merged_input)?;
            for &(fi, si) in &all {
                placed[fi][si] = Some((out, 0));
            }
        } else {
            sections.push(os);
        }
        out_of.insert(ci, out);
        // The body's items: each description's inputs where the description is.
        let mut items = Vec::new();
        let mut next = 0usize;
        for (bi, c) in o.commands.iter().enumerate() {
            match c {
                OutputSectionCommand::Input(_) => {
                    while next < inputs.len() && inputs[next].0 as usize == bi {
                        let (fi, si) = (inputs[next].2, inputs[next].3);
                        items.push(Item::Input(fi, si, align_of(fi, si, true)));
                        next += 1;
                    }
                }
                _ => items.push(Item::Command(bi)),
            }
        }
        items.extend(
            joined
                .iter()
                .map(|&(fi, si)| Item::Input(fi, si, align_of(fi, si, false))),
        );
        if mergeable {
            items.retain(|i| matches!(i, Item::Command(_)));
        }
        bodies.push((ci, items));
    }
    let script_sections = sections.len() as u32;

    let mut walk = Walk {
        config,
        res,
        commands,
        dot: 0,
        current: None,
        values: RefCell::new(HashMap::new()),
        infos: HashMap::new(),
        // Only sections that exist: `SIZEOF` of a dropped empty one is 0, as in lld.
        later: commands
            .outputs()
            .filter(|(ci, _)| out_of.contains_key(ci))
            .map(|(_, o)| o.name.clone())
            .collect(),
        problem: RefCell::new(None),
    };
    let mut body_of: HashMap<usize, Vec<Item>> = bodies.into_iter().collect();
    for (ci, c) in commands.commands.iter().enumerate() {
        match c {
            SectionCommand::Assign(a) => walk.assign(a, None, sections)?,
            SectionCommand::Assert(a) => walk.check(&a.cond, &a.message, &a.loc)?,
            SectionCommand::Output(o) => {
                let (Some(&out), Some(items)) = (out_of.get(&ci), body_of.remove(&ci)) else {
                    continue;
                };
                walk.lay_out(o, out, &items, sections, placed)?;
            }
        }
    }
    // Symbols relative to a section: by the output section of that name.
    let index_of: HashMap<&str, u32> = commands
        .outputs()
        .filter_map(|(ci, o)| Some((o.name.as_str(), *out_of.get(&ci)?)))
        .collect();
    let mut symbols = HashMap::new();
    for (name, v) in walk.values.into_inner() {
        let value = match &v.section {
            _ if v.is_absolute() => ScriptValue::Absolute(v.value()),
            Some(sec) => match index_of.get(sec.name.as_str()) {
                Some(&o) => ScriptValue::InSection(o, v.section_offset()),
                None => ScriptValue::BeforeSections(v.section_offset()),
            },
            None => ScriptValue::Absolute(v.value()),
        };
        symbols.insert(name, value);
    }
    Ok(Scripted {
        class,
        script_sections,
        relas: Vec::new(),
        rela_seen: HashSet::new(),
        symbols,
    })
}

/// Whether description `o` (command `ci`) makes its section with no input in it. Under -r, of
/// an `OVERLAY`'s sections lld keeps only the first one empty (the others are placed by its
/// address); otherwise as in a normal link.
fn kept_when_empty(commands: &SectionCommands, ci: usize, o: &OutputSection) -> bool {
    if !o.in_overlay {
        return commands::kept_when_empty(o);
    }
    let first =
        ci == 0 || !matches!(&commands.commands[ci - 1], SectionCommand::Output(p) if p.in_overlay);
    first
        || commands::kept_when_empty(&OutputSection {
            in_overlay: false,
            ..o.clone()
        })
}

/// Whether input section `si` of file `fi` is merged (deduplicated) as `SHF_MERGE`.
fn is_merge(res: &Resolved, fi: usize, si: usize) -> bool {
    let s = &res.files[fi].sections[si];
    // `.comment` is merged as any mergeable string section (as without a script).
    matches!(s.kind, SectionKind::Merge | SectionKind::Comment)
        && crate::output::merge::check_merge_section(s.flags(), s.size(), s.shdr.sh_entsize(LE))
            .unwrap_or(false)
}

/// What the script does with each input section; constructs not supported yet are errors.
fn classify(res: &Resolved, commands: &SectionCommands) -> Result<Vec<Vec<Class>>> {
    let mut class = Vec::with_capacity(res.files.len());
    for (fi, f) in res.files.iter().enumerate() {
        let n = f.script_name();
        let full = n.for_script();
        let mut per = vec![Class::Orphan; f.sections.len()];
        for (si, s) in f.sections.iter().enumerate() {
            if !super::taken_by_script(res, fi, si) {
                continue;
            }
            let (c, loc) = match commands.description_of(&n, &full, s.name_str(), s.flags()) {
                Some(t) => {
                    let o = commands.output(t.command);
                    let loc = o
                        .and_then(|o| match o.commands.get(t.body as usize) {
                            Some(OutputSectionCommand::Input(d)) => Some(d.loc.clone()),
                            _ => None,
                        })
                        .or_else(|| o.map(|o| o.loc.clone()));
                    if commands.output_name(t) == DISCARD {
                        (Class::Discard, loc)
                    } else {
                        (Class::Scripted(t), loc)
                    }
                }
                None => match commands.position_of(s.name_str()) {
                    Some(ci) => (
                        Class::Joined(ci as u32),
                        commands.output(ci as u32).map(|o| o.loc.clone()),
                    ),
                    None => continue,
                },
            };
            let Some(loc) = loc else { continue };
            let what = if c == Class::Discard {
                None
            } else if s.kind == SectionKind::EhFrame {
                Some(".eh_frame")
            } else if s.flags() & u64::from(elf::SHF_LINK_ORDER) != 0 {
                Some("an SHF_LINK_ORDER section")
            } else if s.flags() & u64::from(elf::SHF_TLS) != 0 && s.sh_type() == elf::SHT_NOBITS {
                Some(".tbss")
            } else {
                None
            };
            if let Some(what) = what {
                return Err(not_yet(
                    &loc,
                    &format!(
                        "{what} ({}:({})) in an output section",
                        f.name,
                        s.name_str()
                    ),
                ));
            }
            per[si] = c;
        }
        class.push(per);
    }
    Ok(class)
}

/// Sorts each section pattern's run of `inputs` (sorted by description and pattern) as the
/// pattern says, `--sort-section` for a pattern without a sort.
fn sort_patterns(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
    ci: usize,
    inputs: &mut [(u32, u32, usize, usize)],
) {
    let Some(o) = commands.output(ci as u32) else {
        return;
    };
    let mut start = 0;
    while start < inputs.len() {
        let key = (inputs[start].0, inputs[start].1);
        let mut end = start + 1;
        while end < inputs.len() && (inputs[end].0, inputs[end].1) == key {
            end += 1;
        }
        let pattern = match o.commands.get(key.0 as usize) {
            Some(OutputSectionCommand::Input(d)) => d.patterns.get(key.1 as usize),
            _ => None,
        };
        if let Some(p) = pattern {
            let run: Vec<(u32, u32, usize, usize)> = inputs[start..end].to_vec();
            let section = |i: usize| &res.files[run[i].2].sections[run[i].3];
            let name_of = |i: usize| section(i).name_str().to_string();
            let align_of = |i: usize| section(i).align();
            let mut idx: Vec<usize> = (0..run.len()).collect();
            let outer = match (p.sort_outer, config.sort_section) {
                (SortKind::Default, Some(crate::config::SortSection::Name)) => SortKind::Name,
                (SortKind::Default, Some(crate::config::SortSection::Alignment)) => {
                    SortKind::Alignment
                }
                (k, _) => k,
            };
            sort_by_keyword(&mut idx, p.sort_inner, &name_of, &align_of);
            sort_by_keyword(&mut idx, outer, &name_of, &align_of);
            for (k, &i) in idx.iter().enumerate() {
                inputs[start + k] = run[i];
            }
        }
        start = end;
    }
}

/// The output section description `o` makes of input sections `all`: its type, flags,
/// element size and alignment. Inputs of kinds lld would mix in ways not matched here are
/// errors.
fn output_section(
    res: &Resolved,
    o: &OutputSection,
    all: &[(usize, usize)],
    aligns: &[u64],
) -> Result<OutSection> {
    let section = |&(fi, si): &(usize, usize)| &res.files[fi].sections[si];
    let types: HashSet<u32> = all.iter().map(|x| section(x).sh_type()).collect();
    let sh_type = if types.is_empty()
        || o.section_type.is_some()
        || types
            .iter()
            .all(|&t| matches!(t, elf::SHT_PROGBITS | elf::SHT_NOBITS))
    {
        if types.iter().all(|&t| t == elf::SHT_NOBITS) && !types.is_empty() {
            elf::SHT_NOBITS
        } else {
            elf::SHT_PROGBITS
        }
    } else if types.len() == 1 {
        types.iter().copied().next().unwrap_or(elf::SHT_PROGBITS)
    } else {
        return Err(not_yet(
            &o.loc,
            &format!("inputs of different types in {}", o.name),
        ));
    };
    let merges = all
        .iter()
        .filter(|&&(fi, si)| is_merge(res, fi, si))
        .count();
    if merges > 0 {
        let key = |x: &(usize, usize)| {
            let s = section(x);
            (
                s.flags() & u64::from(elf::SHF_STRINGS),
                s.shdr.sh_entsize(LE),
                s.align(),
            )
        };
        let same = all.iter().all(|x| key(x) == key(&all[0]));
        let only_inputs = o
            .commands
            .iter()
            .all(|c| matches!(c, OutputSectionCommand::Input(_)));
        if merges != all.len() || !same || !only_inputs {
            return Err(not_yet(
                &o.loc,
                &format!("mergeable sections with other contents in {}", o.name),
            ));
        }
    }
    let mut flags = 0u64;
    for x in all {
        flags |= section(x).flags();
    }
    flags &= !u64::from(elf::SHF_GROUP | elf::SHF_COMPRESSED);
    let entsizes: HashSet<u64> = all.iter().map(|x| section(x).shdr.sh_entsize(LE)).collect();
    let entsize = match entsizes.len() {
        1 => entsizes.into_iter().next().unwrap_or(0),
        _ => 0,
    };
    let mut os = OutSection::new(o.name.as_bytes(), sh_type, flags, entsize);
    os.align = aligns.iter().copied().fold(1, u64::max);
    Ok(os)
}

/// Applies the type a description gives its section, as lld does under -r: `NOLOAD` makes it
/// `SHT_NOBITS` (whatever its inputs), `COPY`/`INFO`/`OVERLAY` take `SHF_ALLOC` away, and
/// `TYPE=t` sets the type, inputs of another type being an error unless `t` is `SHT_NOBITS`.
fn apply_type(
    res: &Resolved,
    o: &OutputSection,
    all: &[(usize, usize)],
    os: &mut OutSection,
) -> Result<()> {
    match &o.section_type {
        None => {}
        Some(SectionType::NoLoad) => os.sh_type = elf::SHT_NOBITS,
        Some(SectionType::Copy | SectionType::Info | SectionType::Overlay) => {
            os.flags &= !u64::from(elf::SHF_ALLOC);
            os.sh_type = output_type_of(res, o, all)?;
        }
        Some(SectionType::Type(e)) => {
            let t = expr::eval_constant(e)
                .ok_or_else(|| Error(format!("{}: section type must be a constant", o.loc)))??
                as u32;
            if t != elf::SHT_NOBITS {
                for &(fi, si) in all {
                    let f = &res.files[fi];
                    let s = &f.sections[si];
                    if s.sh_type() != t {
                        return Err(Error(format!(
                            "section type mismatch for {name}\n>>> {}:({name}): {}\n>>> output section {}: {}",
                            f.name,
                            type_name(s.sh_type()),
                            o.name,
                            type_name(t),
                            name = s.name_str(),
                        )));
                    }
                }
            }
            os.sh_type = t;
        }
    }
    Ok(())
}

/// The type an untyped description would give its section (see [`output_section`]).
fn output_type_of(res: &Resolved, o: &OutputSection, all: &[(usize, usize)]) -> Result<u32> {
    let mut untyped = o.clone();
    untyped.section_type = None;
    let aligns = vec![1; all.len()];
    Ok(output_section(res, &untyped, all, &aligns)?.sh_type)
}

/// A section type as lld names it in messages.
fn type_name(t: u32) -> String {
    match t {
        elf::SHT_PROGBITS => "SHT_PROGBITS".into(),
        elf::SHT_NOBITS => "SHT_NOBITS".into(),
        elf::SHT_NOTE => "SHT_NOTE".into(),
        elf::SHT_INIT_ARRAY => "SHT_INIT_ARRAY".into(),
        elf::SHT_FINI_ARRAY => "SHT_FINI_ARRAY".into(),
        elf::SHT_PREINIT_ARRAY => "SHT_PREINIT_ARRAY".into(),
        _ => format!("0x{t:x}"),
    }
}

/// The walk over the commands with addresses (lld's `assignAddresses`).
struct Walk<'a> {
    config: &'a Config,
    res: &'a Resolved,
    commands: &'a SectionCommands,
    /// The location counter, an address.
    dot: u64,
    /// The last output section laid out: its name and address. `.` outside output sections is
    /// relative to it (before any, to none).
    current: Option<(String, u64)>,
    /// The values symbol assignments gave, so far.
    values: RefCell<HashMap<String, Value>>,
    /// The output sections laid out so far.
    infos: HashMap<String, SectionInfo>,
    /// Every output section the script describes.
    later: HashSet<String>,
    /// What an expression asked for that the walk cannot answer as lld would.
    problem: RefCell<Option<String>>,
}

/// The name a value relative to no section is kept under (lld's "aether").
const NO_SECTION: &str = "";

impl EvalContext for Walk<'_> {
    fn dot(&self) -> Result<Value> {
        Ok(match &self.current {
            Some((name, addr)) => Value::in_section(name, *addr, self.dot.wrapping_sub(*addr)),
            None => Value::in_section(NO_SECTION, 0, self.dot),
        })
    }
    fn symbol(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.values.borrow().get(name) {
            return Some(v.clone());
        }
        let defined = self.res.symtab.lookup(name.as_bytes()).is_some_and(|id| {
            let s = self.res.symtab.get(id);
            s.is_defined() && !matches!(s.def, SymbolDef::Synthetic)
        });
        if defined {
            *self.problem.borrow_mut() = Some(format!("reading symbol {name}"));
        }
        None
    }
    fn section(&self, name: &str) -> Option<SectionInfo> {
        let info = self.infos.get(name).copied();
        if info.is_none() && self.later.contains(name) {
            *self.problem.borrow_mut() =
                Some(format!("reading section {name} before it is laid out"));
        }
        info
    }
    fn size_of_headers(&self) -> u64 {
        *self.problem.borrow_mut() = Some("SIZEOF_HEADERS".into());
        0
    }
    fn max_page_size(&self) -> u64 {
        self.config.max_page_size()
    }
    fn common_page_size(&self) -> u64 {
        self.config.common_page_size()
    }
    /// `ORIGIN`/`LENGTH` read the region as written; under -r nothing is placed in one.
    fn memory_region(&self, name: &str) -> Option<(u64, u64)> {
        let r = &self.commands.regions[self.commands.region(name)?];
        let origin = expr::eval(&r.origin, self).ok()?.value();
        let length = expr::eval(&r.length, self).ok()?.value();
        Some((origin, length))
    }
    fn is_defined(&self, _: &str, _: u32) -> bool {
        *self.problem.borrow_mut() = Some("DEFINED".into());
        false
    }
}

impl Walk<'_> {
    /// `r`, or the error saying what weld does not evaluate yet if the expression asked for it.
    fn settle<T>(&self, r: Result<T>, loc: &Loc) -> Result<T> {
        match self.problem.borrow_mut().take() {
            Some(what) => Err(not_yet(loc, &format!("an expression {what}"))),
            None => r,
        }
    }

    fn eval(&self, e: &expr::Expr, loc: &Loc) -> Result<Value> {
        let r = expr::eval(e, self);
        self.settle(r, loc)
    }

    fn check(&self, cond: &expr::Expr, message: &str, loc: &Loc) -> Result<()> {
        if self.eval(cond, loc)?.value() == 0 {
            return Err(Error(message.to_string()));
        }
        Ok(())
    }

    /// A symbol assignment; inside output section `inside` (its index and address) `.` moves
    /// within it.
    fn assign(
        &mut self,
        a: &Assignment,
        inside: Option<(u32, u64)>,
        sections: &mut [OutSection],
    ) -> Result<()> {
        if a.provide && a.name != "." {
            // A PROVIDE nothing wanted defines nothing (and is not evaluated, as in lld).
            let wanted = self
                .res
                .symtab
                .lookup(a.name.as_bytes())
                .is_some_and(|id| matches!(self.res.symtab.get(id).def, SymbolDef::Synthetic));
            if !wanted {
                return Ok(());
            }
        }
        let r = expr::eval_assignment(&a.name, a.op, &a.expr, &a.loc, self);
        let v = self.settle(r, &a.loc)?;
        if a.name != "." {
            self.values.borrow_mut().insert(a.name.clone(), v);
            return Ok(());
        }
        let to = v.value();
        if let Some((out, addr)) = inside {
            if to < self.dot {
                return Err(Error(format!(
                    "{}: unable to move location counter (0x{:x}) backward to 0x{to:x} for section '{}'",
                    a.loc,
                    self.dot,
                    String::from_utf8_lossy(&sections[out as usize].name)
                )));
            }
            sections[out as usize].pad_to(to - addr);
        }
        self.dot = to;
        Ok(())
    }

    /// Lays out output section `out`, described by `o`, with `items` in order.
    fn lay_out(
        &mut self,
        o: &OutputSection,
        out: u32,
        items: &[Item],
        sections: &mut [OutSection],
        placed: &mut [Vec<Option<(u32, u64)>>],
    ) -> Result<()> {
        let alloc = sections[out as usize].flags & u64::from(elf::SHF_ALLOC) != 0;
        let saved = self.dot;
        if !alloc {
            // lld lays non-allocated sections out from 0.
            self.dot = 0;
        }
        if let Some(e) = &o.addr {
            self.dot = self.eval(e, &o.loc)?.value();
        } else {
            let a = sections[out as usize].align.max(1);
            self.dot = self.dot.div_ceil(a).wrapping_mul(a);
        }
        let addr = self.dot;
        self.current = Some((o.name.clone(), addr));
        for item in items {
            match *item {
                Item::Input(fi, si, align) => {
                    let s = &self.res.files[fi].sections[si];
                    let os = &mut sections[out as usize];
                    let zeros;
                    let bytes: &[u8] =
                        if s.sh_type() == elf::SHT_NOBITS && os.sh_type != elf::SHT_NOBITS {
                            zeros = vec![0u8; s.size() as usize];
                            &zeros
                        } else {
                            s.data
                        };
                    let off = os.append(bytes, s.size(), align);
                    placed[fi][si] = Some((out, off));
                }
                Item::Command(bi) => match &o.commands[bi] {
                    OutputSectionCommand::Assignment(a) => {
                        self.assign(a, Some((out, addr)), sections)?
                    }
                    OutputSectionCommand::Assert(a) => self.check(&a.cond, &a.message, &a.loc)?,
                    OutputSectionCommand::Data {
                        size, expr, loc, ..
                    } => {
                        let v = self.eval(expr, loc)?.value();
                        let bytes = v.to_le_bytes();
                        let n = u64::from(*size);
                        sections[out as usize].append(&bytes[..*size as usize], n, 1);
                    }
                    OutputSectionCommand::Fill(..)
                    | OutputSectionCommand::Constructors
                    | OutputSectionCommand::Input(_) => {}
                },
            }
            self.dot = addr + sections[out as usize].size;
        }
        let os = &sections[out as usize];
        self.dot = addr + os.size;
        self.infos.insert(
            o.name.clone(),
            SectionInfo {
                addr,
                lma: addr,
                size: os.size,
                alignment: os.align,
            },
        );
        if !alloc {
            self.dot = saved;
        }
        Ok(())
    }
}
