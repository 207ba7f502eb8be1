//! Addresses under a `SECTIONS` command, as lld gives them: the location counter walks the
//! commands (`LinkerScript::assignAddresses`/`assignOffsets`), output sections get the address
//! their description says (or their memory region's next one) or the counter aligned, symbol
//! assignments take the counter's value where they stand, `AT` and `AT>` move load addresses;
//! then `script_segments` makes the program headers and file offsets.
//!
//! Expressions may read what comes later (`ADDR(.bss)` before `.bss`): the walk is repeated
//! until nothing it computes changes, as lld repeats it.

use super::addresses::assign_addresses;
use super::commands::{SectionCommand, SectionCommands};
use super::flat_image;
use super::script_segments::{place_segments, plan_listed, plan_loads};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::input::section_rules::align_to;
use crate::output::layout::Layout;
use crate::output::script_layout::{AssignmentSpans, BodyItem, Placement, ScriptLayout};
use crate::output::sections::{OutputSection, Synthetic, EHDR_SIZE, PHDR_SIZE};
use crate::resolve::symbol_table::{SymbolDef, SymbolId};
use crate::resolve::Resolved;
use crate::script::ast::{Assert, Assignment, OutputSectionCommand};
use crate::script::expr::{self, EvalContext, SectionBase, SectionInfo, Value};
use hashbrown::HashMap;
use object::elf;

/// How many walks may run before addresses must have settled (lld gives up after as many).
const MAX_PASSES: usize = 30;

/// A symbol a script assignment gives a value: relative to an output section (index in
/// `Layout::sections`) or absolute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Assigned {
    section: Option<usize>,
    value: u64,
    /// Relative to the location counter before any output section (lld's "aether"): the
    /// value is absolute but the symbol belongs to the first output section, as lld writes it.
    aether: bool,
}

/// Under `INSERT` only, the built-in layout has placed every section (the inserted ones where
/// the script says): the script's symbol assignments take their values where they stand — the
/// location counter is the end of what comes before them — and its `ASSERT`s are checked. An
/// assignment to the location counter would move sections the built-in layout placed: that is
/// not supported yet.
pub(super) fn assign_in_place(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
    lay: &mut Layout,
) -> Result<()> {
    with_script(lay, |lay, script| {
        assign_in_place_with(config, res, commands, lay, script)
    })
}

fn assign_in_place_with(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
    lay: &mut Layout,
    script: &ScriptLayout,
) -> Result<Walked> {
    let n = lay.sections.len();
    let headers = lay.header_size();
    let mut walk = Walk::new(
        config,
        res,
        commands,
        script,
        headers,
        vec![None; n],
        vec![None; n],
    );
    let sections_end = script
        .sequence
        .iter()
        .rposition(|p| matches!(p, Placement::Section(_)))
        .map_or(0, |k| k + 1);
    // Expressions may read symbols assigned later: evaluate until the values settle.
    for _ in 0..MAX_PASSES {
        let before = walk.symbols.clone();
        walk.asserts.clear();
        walk.errors.clear();
        walk.spans.clear();
        let mut dot = 0u64;
        let mut cur: Option<usize> = None;
        let mut moved = false;
        for (k, step) in script.sequence.iter().enumerate() {
            if k == sections_end && n > 0 {
                // Past every section lld has also placed its own tables (`.strtab` last): the
                // assignments after them are relative to the last one.
                cur = Some(n - 1);
            }
            match *step {
                Placement::Command(c) => match &commands.commands[c as usize] {
                    SectionCommand::Assign(a) => {
                        // After every section (as in lld): moving the counter moves nothing
                        // but what later assignments read.
                        let before = dot;
                        dot = walk.assign_symbol(a, lay, dot, cur, false)?;
                        if walk.defines(&a.name) {
                            walk.spans.insert((None, c), (before, 0, a.text.clone()));
                        }
                    }
                    SectionCommand::Assert(a) => walk.asserts.push(a.clone()),
                    SectionCommand::Output(_) => {}
                },
                Placement::Section(i) => {
                    let i = i as usize;
                    let addr = lay.sections[i].addr;
                    // lld: a section outside the address space (not allocated) leaves the
                    // counter where the last allocated one ended, yet becomes the section the
                    // assignments after it are relative to.
                    let resume = dot;
                    cur = Some(i);
                    dot = addr;
                    let desc = script.bodies[i]
                        .as_ref()
                        .and_then(|b| commands.output(b.command).map(|d| (b, d)));
                    if let Some((body, desc)) = desc {
                        // A description that moves the counter spaces its chunks out: they
                        // are placed again from the counter, and the section ends where the
                        // counter does (lld's `assignOffsets`).
                        let moves_dot = desc.commands.iter().any(
                            |c| matches!(c, OutputSectionCommand::Assignment(a) if a.name == "."),
                        );
                        let mut placed = 0usize;
                        for item in &body.items {
                            match *item {
                                BodyItem::Chunks(start, end) if moves_dot => {
                                    for ci in start as usize..end as usize {
                                        dot =
                                            place_chunk(&mut lay.sections[i], ci, dot, &mut moved);
                                    }
                                    placed = end as usize;
                                }
                                BodyItem::Chunks(start, end) => {
                                    if let Some(c) =
                                        lay.sections[i].chunks[start as usize..end as usize].last()
                                    {
                                        dot = addr + c.offset + c.size;
                                    }
                                }
                                BodyItem::Command(k) => match desc.commands.get(k as usize) {
                                    Some(OutputSectionCommand::Assignment(a)) => {
                                        let before = dot;
                                        dot = walk.assign_symbol(a, lay, dot, cur, true)?;
                                        if walk.defines(&a.name) {
                                            walk.spans.insert(
                                                (Some(i as u32), k),
                                                (before, 0, a.text.clone()),
                                            );
                                        }
                                    }
                                    Some(OutputSectionCommand::Assert(a)) => {
                                        walk.asserts.push(a.clone())
                                    }
                                    _ => {}
                                },
                            }
                        }
                        if moves_dot {
                            // Chunks no pattern took (orphans of the section's name) follow.
                            for ci in placed..lay.sections[i].chunks.len() {
                                dot = place_chunk(&mut lay.sections[i], ci, dot, &mut moved);
                            }
                            let size = dot.wrapping_sub(addr);
                            if lay.sections[i].size != size {
                                lay.sections[i].size = size;
                                moved = true;
                            }
                        }
                    }
                    let size = lay.sections[i].size;
                    dot = if lay.sections[i].is_alloc() {
                        addr + size
                    } else {
                        resume
                    };
                }
            }
        }
        walk.store_symbols(lay);
        if let Some(e) = walk.errors.first() {
            return Err(Error(e.clone()));
        }
        if moved {
            // Sections grew or their contents moved: the built-in layout places them again.
            assign_addresses(config, lay)?;
            lay.fill_addresses(res);
        } else if before == walk.symbols {
            break;
        }
    }
    for a in &walk.asserts {
        check_assert(a, &walk.context(lay, 0, None))?;
    }
    walk.finish(lay, Vec::new())
}

/// Puts chunk `ci` of `os` at the location counter `dot` (aligned), noting in `moved` when its
/// offset changes; the counter after it.
fn place_chunk(os: &mut OutputSection, ci: usize, dot: u64, moved: &mut bool) -> u64 {
    let c = &mut os.chunks[ci];
    let offset = align_to(dot.wrapping_sub(os.addr), c.align.max(1));
    if c.offset != offset {
        c.offset = offset;
        *moved = true;
    }
    os.addr + offset + c.size
}

/// Runs `f` on the layout and its script layout (taken out meanwhile, so that both can be
/// borrowed), then stores what the walk found in the script layout.
fn with_script(
    lay: &mut Layout,
    f: impl FnOnce(&mut Layout, &ScriptLayout) -> Result<Walked>,
) -> Result<()> {
    let Some(script) = lay.script.take() else {
        return Err(Error("internal error: no script layout".into()));
    };
    let result = f(lay, &script);
    lay.script = Some(script);
    let walked = result?;
    if let Some(s) = lay.script.as_mut() {
        s.data_values = walked.data_values;
        s.symbols = walked.symbols;
        s.regions = walked.regions;
        s.assignments = walked.spans;
    }
    Ok(())
}

/// What the walk leaves for the layout (see `ScriptLayout`).
struct Walked {
    data_values: Vec<u64>,
    symbols: Vec<SymbolId>,
    regions: Vec<(String, u64, u64)>,
    spans: AssignmentSpans,
}

/// See the module documentation.
pub(super) fn assign(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
    lay: &mut Layout,
) -> Result<()> {
    with_script(lay, |lay, script| {
        assign_with(config, res, commands, lay, script)
    })
}

fn assign_with(
    config: &Config,
    res: &Resolved,
    commands: &SectionCommands,
    lay: &mut Layout,
    script: &ScriptLayout,
) -> Result<Walked> {
    let (mem_region, lma_region) = find_regions(config, commands, script, lay)?;
    // With PHDRS the script lists the program headers; without, lld makes them from flags.
    // A flat image (`--oformat=binary`) has none, and no room for them (`flat_image`).
    let mut listed = if lay.flat_image {
        None
    } else {
        plan_listed(config, commands, script, lay)?
    };
    let (loads, nphdr) = match &listed {
        _ if lay.flat_image => (Vec::new(), 0),
        Some(l) => (l.loads(), l.entries.len() + config.spare_program_headers),
        None => {
            let (loads, others) =
                plan_loads(config, commands, script, lay, &mem_region, &lma_region);
            let n = loads.len() + others + config.spare_program_headers;
            (loads, n)
        }
    };
    let headers = if lay.flat_image {
        0
    } else {
        EHDR_SIZE + PHDR_SIZE * nphdr as u64
    };

    let mut walk = Walk::new(
        config, res, commands, script, headers, mem_region, lma_region,
    );
    let mut settled = false;
    for _ in 0..MAX_PASSES {
        let before: Vec<(u64, u64)> = lay.sections.iter().map(|s| (s.addr, s.size)).collect();
        let symbols_before = walk.symbols.clone();
        walk.pass(lay)?;
        lay.fill_addresses(res);
        walk.store_symbols(lay);
        let after: Vec<(u64, u64)> = lay.sections.iter().map(|s| (s.addr, s.size)).collect();
        if before == after && symbols_before == walk.symbols {
            settled = true;
            break;
        }
    }
    if let Some(e) = walk.errors.first() {
        return Err(Error(e.clone()));
    }
    if !settled {
        return Err(Error(match &walk.first_changed {
            // The sections settled; a symbol whose assignment reads itself did not (lld's words).
            Some(name) => format!("assignment to symbol {name} does not converge"),
            None => "address assignment did not converge".to_string(),
        }));
    }
    check_regions(commands, lay, &walk)?;
    for a in &walk.asserts {
        check_assert(a, &walk.context(lay, 0, None))?;
    }
    if let Some(l) = listed.as_mut() {
        for (e, cmd) in l.entries.iter_mut().zip(&commands.phdrs) {
            if let Some(at) = &cmd.lma {
                e.paddr = Some(expr::eval(at, &walk.context(lay, 0, None))?.value());
            }
        }
    }
    if lay.flat_image {
        // `flat_image::assign_file_offsets` places the sections; there are no segments.
        lay.segments.clear();
        flat_image::set_tls_bounds(lay);
    } else {
        place_segments(config, lay, &loads, headers, listed.as_ref())?;
    }
    // As lld lists them: each region, then each alias again under the region's name.
    let regions = (0..commands.regions.len())
        .chain(commands.aliases.iter().map(|&(_, r)| r))
        .map(|r| {
            let (origin, length) = walk.regions.bounds[r];
            let used = walk.regions.cur[r].wrapping_sub(origin);
            (commands.regions[r].name.clone(), used, length)
        })
        .collect();
    walk.finish(lay, regions)
}

fn check_assert(a: &Assert, cx: &dyn EvalContext) -> Result<()> {
    if expr::eval(&a.cond, cx)?.value() == 0 {
        return Err(Error(a.message.clone()));
    }
    Ok(())
}

/// Where each memory region stands during a walk.
#[derive(Default)]
struct Regions {
    /// Origin and length.
    bounds: Vec<(u64, u64)>,
    /// The next free address.
    cur: Vec<u64>,
    /// The current section's memory and load regions.
    mem: Option<usize>,
    lma: Option<usize>,
}

/// The walk's state across passes.
struct Walk<'a> {
    config: &'a Config,
    res: &'a Resolved,
    commands: &'a SectionCommands,
    script: &'a ScriptLayout,
    headers: u64,
    /// Values of the symbols script assignments define, by name.
    symbols: HashMap<String, Assigned>,
    asserts: Vec<Assert>,
    /// Errors a walk found, reported if the last walk finds them too.
    errors: Vec<String>,
    /// The first symbol the walk gave another value than the walk before (lld names it when
    /// the values do not settle).
    first_changed: Option<String>,
    /// Where the assignments were evaluated (`-Map`).
    spans: AssignmentSpans,
    /// By output section: its memory region and load region (indices in the command list's
    /// regions).
    mem_region: Vec<Option<usize>>,
    lma_region: Vec<Option<usize>>,
    regions: Regions,
}

impl<'a> Walk<'a> {
    fn new(
        config: &'a Config,
        res: &'a Resolved,
        commands: &'a SectionCommands,
        script: &'a ScriptLayout,
        headers: u64,
        mem_region: Vec<Option<usize>>,
        lma_region: Vec<Option<usize>>,
    ) -> Self {
        Walk {
            config,
            res,
            commands,
            script,
            headers,
            symbols: HashMap::new(),
            asserts: Vec::new(),
            errors: Vec::new(),
            first_changed: None,
            spans: AssignmentSpans::default(),
            mem_region,
            lma_region,
            regions: Regions::default(),
        }
    }

    /// What the walk leaves for the layout: the data commands' values on the final layout,
    /// the symbols it defined, `regions` for `--print-memory-usage`, the assignments for `-Map`.
    fn finish(self, lay: &Layout, regions: Vec<(String, u64, u64)>) -> Result<Walked> {
        let mut data_values = vec![0; self.script.data.len()];
        for (value, d) in data_values.iter_mut().zip(&self.script.data) {
            let o = self.commands.output(d.command);
            if let Some(OutputSectionCommand::Data { expr, .. }) =
                o.and_then(|o| o.commands.get(d.item as usize))
            {
                *value = expr::eval(expr, &self.context(lay, 0, None))?.value();
            }
        }
        let symbols = self
            .symbols
            .keys()
            .filter_map(|n| self.res.symtab.lookup(n.as_bytes()))
            .collect();
        Ok(Walked {
            data_values,
            symbols,
            regions,
            spans: self.spans,
        })
    }

    fn context<'b>(&'b self, lay: &'b Layout, dot: u64, sec: Option<usize>) -> PassContext<'b> {
        PassContext {
            walk: self,
            lay,
            dot,
            sec,
            dot_read: std::cell::Cell::new(false),
        }
    }

    /// One walk over the commands: addresses, sizes, chunk offsets and symbol values.
    fn pass(&mut self, lay: &mut Layout) -> Result<()> {
        self.asserts.clear();
        self.errors.clear();
        self.first_changed = None;
        self.spans.clear();
        // Each region starts at its origin.
        let mut bounds = Vec::with_capacity(self.commands.regions.len());
        for r in &self.commands.regions {
            let cx = self.context(lay, 0, None);
            let origin = expr::eval(&r.origin, &cx)?.value();
            let length = expr::eval(&r.length, &cx)?.value();
            bounds.push((origin, length));
        }
        self.regions = Regions {
            cur: bounds.iter().map(|b| b.0).collect(),
            bounds,
            mem: None,
            lma: None,
        };
        let mut dot = self.config.image_base.unwrap_or(0);
        // The section the location counter is relative to: the last one walked (lld keeps it
        // after the section ends, so `_etext = .;` after `.text` belongs to `.text`).
        let mut cur: Option<usize> = None;
        let mut tbss_addr = 0u64;
        let mut lma_offset = 0u64;
        for step in &self.script.sequence {
            match *step {
                Placement::Command(c) => match &self.commands.commands[c as usize] {
                    SectionCommand::Assign(a) => {
                        let before = dot;
                        dot = self.assign_symbol(a, lay, dot, cur, false)?;
                        // lld's map leaves out a PROVIDE nothing needed.
                        if a.name == "." || self.defines(&a.name) {
                            self.spans.insert(
                                (None, c),
                                (before, dot.wrapping_sub(before), a.text.clone()),
                            );
                        }
                    }
                    SectionCommand::Assert(a) => self.asserts.push(a.clone()),
                    SectionCommand::Output(_) => {}
                },
                Placement::Section(i) => {
                    let i = i as usize;
                    let desc = self.script.bodies[i]
                        .as_ref()
                        .and_then(|b| self.commands.output(b.command));
                    let (alloc, tbss) = {
                        let os = &lay.sections[i];
                        let tbss = os.is_nobits() && os.flags & u64::from(elf::SHF_TLS) != 0;
                        (os.is_alloc(), tbss)
                    };
                    let saved = dot;
                    // `--section-start`/`-Ttext` win over the script's address (lld).
                    let start = self.config.section_start(&lay.sections[i].name);
                    let explicit = desc.and_then(|d| d.addr.as_ref());
                    let (mem, lma_region) = (self.mem_region[i], self.lma_region[i]);
                    let same_mem = self.regions.mem == mem;
                    let prev_lma_default = self.regions.lma.is_none();
                    self.regions.mem = mem;
                    self.regions.lma = lma_region;
                    if !alloc {
                        dot = 0;
                    } else if tbss {
                        if tbss_addr == 0 {
                            tbss_addr = dot;
                        } else {
                            dot = tbss_addr;
                        }
                    } else {
                        // An explicit address wins over the region's position.
                        if let (Some(r), None, None) = (mem, explicit, start) {
                            dot = self.regions.cur[r];
                        }
                        if let Some(a) = start {
                            dot = a;
                        } else if let Some(e) = explicit {
                            dot = expr::eval(e, &self.context(lay, dot, cur))?.value();
                        }
                        // Moved past the region's position: the gap is the region's too.
                        if let Some(r) = mem {
                            if self.regions.cur[r] < dot {
                                self.regions.cur[r] = dot;
                            }
                        }
                    }
                    let mut align = lay.sections[i].align.max(1);
                    if let Some(e) = desc.and_then(|d| d.align.as_ref()) {
                        let a = expr::eval(e, &self.context(lay, dot, cur))?.value();
                        if !a.is_power_of_two() {
                            return Err(Error(format!(
                                "{}: alignment must be power of 2",
                                desc.map_or(String::new(), |d| d.loc.to_string())
                            )));
                        }
                        align = align.max(a);
                    }
                    lay.sections[i].align = align;
                    // As lld: an explicit address is taken as written, unaligned.
                    if explicit.is_none() && start.is_none() {
                        let before = dot;
                        dot = align_to(dot, align);
                        self.expand(dot - before);
                    }
                    lay.sections[i].addr = dot;
                    cur = Some(i);
                    // The load address: `AT(...)`, else `AT> region`'s position, else the
                    // previous section's offset while the regions stay the same (GNU ld's
                    // heuristics, as lld follows them).
                    if let Some(e) = desc.and_then(|d| d.lma.as_ref()) {
                        let lma = expr::eval(e, &self.context(lay, dot, cur))?.value();
                        lma_offset = lma.wrapping_sub(dot);
                    } else if let Some(r) = lma_region {
                        let start = align_to(self.regions.cur[r], align);
                        self.regions.cur[r] = start;
                        lma_offset = start.wrapping_sub(dot);
                    } else if !same_mem || !prev_lma_default {
                        lma_offset = 0;
                    }
                    lay.sections[i].lma_offset = if alloc { lma_offset } else { 0 };
                    dot = self.walk_body(lay, i, dot)?;
                    if !alloc {
                        dot = saved;
                    } else if tbss {
                        tbss_addr = dot;
                        dot = saved;
                    }
                }
            }
        }
        Ok(())
    }

    /// Places the chunks of section `i` and evaluates the assignments between them, from
    /// `dot` (the section's address); returns the location counter after it.
    fn walk_body(&mut self, lay: &mut Layout, i: usize, mut dot: u64) -> Result<u64> {
        let addr = lay.sections[i].addr;
        let whole = [BodyItem::Chunks(0, lay.sections[i].chunks.len() as u32)];
        let items: &[BodyItem] = match &self.script.bodies[i] {
            Some(b) => &b.items,
            None => &whole,
        };
        let desc = self.script.bodies[i]
            .as_ref()
            .and_then(|b| self.commands.output(b.command));
        lay.sections[i].size = 0;
        let padding = lay
            .synthetic_index
            .get(&Synthetic::RelroPadding)
            .copied()
            .filter(|&(os, _)| os as usize == i);
        if let Some((_, c)) = padding {
            lay.sections[i].chunks[c as usize].size = 0;
        }
        for item in items {
            match *item {
                BodyItem::Chunks(start, end) => {
                    let before = dot;
                    for c in &mut lay.sections[i].chunks[start as usize..end as usize] {
                        dot = align_to(dot, c.align.max(1));
                        c.offset = dot - addr;
                        dot += c.size;
                    }
                    self.expand(dot - before);
                }
                BodyItem::Command(n) => match desc.and_then(|d| d.commands.get(n as usize)) {
                    Some(OutputSectionCommand::Assignment(a)) => {
                        let before = dot;
                        dot = self.assign_symbol(a, lay, dot, Some(i), true)?;
                        self.expand(dot.wrapping_sub(before));
                        if a.name == "." || self.defines(&a.name) {
                            self.spans.insert(
                                (Some(i as u32), n),
                                (before, dot.wrapping_sub(before), a.text.clone()),
                            );
                        }
                    }
                    Some(OutputSectionCommand::Assert(a)) => self.asserts.push(a.clone()),
                    _ => {}
                },
            }
            lay.sections[i].size = dot.wrapping_sub(addr);
        }
        // `.relro_padding` fills its section up to a common-page boundary, without moving the
        // location counter (lld: `DATA_SEGMENT_RELRO_END` right after it does).
        if let Some((_, c)) = padding {
            let end = align_to(dot, self.config.common_page_size());
            lay.sections[i].chunks[c as usize].size = end - dot;
            self.expand(end - dot);
            lay.sections[i].size = end - addr;
        }
        Ok(dot)
    }

    /// Evaluates assignment `a` with the location counter at `dot` (inside section `cur`):
    /// moves the counter or records the symbol's value. Returns the counter after it.
    fn assign_symbol(
        &mut self,
        a: &Assignment,
        lay: &mut Layout,
        dot: u64,
        cur: Option<usize>,
        in_section: bool,
    ) -> Result<u64> {
        if a.name != "." && !self.defines(&a.name) {
            // A `PROVIDE` nothing needed.
            return Ok(dot);
        }
        let cx = self.context(lay, dot, cur);
        let v = expr::eval_assignment(&a.name, a.op, &a.expr, &a.loc, &cx)?;
        let read_dot = cx.dot_read.get();
        let value = v.value();
        if a.name == "." {
            if in_section && value < dot {
                // lld records this and reports it if the last walk still sees it: a later
                // walk may move the section.
                let name = cur.map_or("", |i| lay.sections[i].name.as_str());
                self.errors.push(format!(
                    "{}: unable to move location counter (0x{dot:x}) backward to 0x{value:x} for section '{name}'",
                    a.loc
                ));
            }
            return Ok(value);
        }
        let section = v
            .section
            .as_ref()
            .filter(|_| !v.force_absolute)
            .and_then(|base| lay.sections.iter().position(|s| s.name == base.name));
        let assigned = match section {
            Some(s) => Assigned {
                section: Some(s),
                value: value.wrapping_sub(lay.sections[s].addr),
                aether: false,
            },
            None => Assigned {
                section: None,
                value,
                aether: cur.is_none() && read_dot && !v.force_absolute,
            },
        };
        let old = self.symbols.insert(a.name.clone(), assigned);
        if old != Some(assigned) && self.first_changed.is_none() {
            self.first_changed = Some(a.name.clone());
        }
        Ok(dot)
    }

    /// Whether the link defines `name` by a script assignment (a `PROVIDE` only when
    /// something referenced the name and nothing else defined it).
    fn defines(&self, name: &str) -> bool {
        self.res
            .symtab
            .lookup(name.as_bytes())
            .is_some_and(|id| self.res.symtab.get(id).def == SymbolDef::Synthetic)
    }

    fn value_of(&self, lay: &Layout, a: Assigned) -> u64 {
        match a.section {
            Some(s) => lay.sections[s].addr.wrapping_add(a.value),
            None => a.value,
        }
    }

    /// The location counter moved `d` bytes inside the current section: its memory region
    /// grows, and its load region when it has another one (lld's `expandMemoryRegions`).
    fn expand(&mut self, d: u64) {
        if let Some(r) = self.regions.mem {
            self.regions.cur[r] = self.regions.cur[r].wrapping_add(d);
        }
        if let Some(r) = self.regions.lma.filter(|&l| Some(l) != self.regions.mem) {
            self.regions.cur[r] = self.regions.cur[r].wrapping_add(d);
        }
    }

    /// Gives the script's symbols their values in the layout, each in its section.
    fn store_symbols(&self, lay: &mut Layout) {
        for (name, &a) in &self.symbols {
            let Some(id) = self.res.symtab.lookup(name.as_bytes()) else {
                continue;
            };
            let v = self.value_of(lay, a);
            lay.global_value[id as usize] = v;
            let shndx = match (a.section, a.aether) {
                (Some(s), _) => lay.sections[s].shndx as u16,
                (None, true) => lay
                    .sections
                    .first()
                    .map_or(elf::SHN_ABS, |s| s.shndx as u16),
                (None, false) => elf::SHN_ABS,
            };
            lay.synthetic_section.insert(id as SymbolId, shndx);
        }
    }
}

/// What an expression reads during the walk.
struct PassContext<'b> {
    walk: &'b Walk<'b>,
    lay: &'b Layout,
    dot: u64,
    sec: Option<usize>,
    /// The expression read the location counter.
    dot_read: std::cell::Cell<bool>,
}

impl EvalContext for PassContext<'_> {
    fn dot(&self) -> Result<Value> {
        self.dot_read.set(true);
        Ok(match self.sec {
            Some(i) => {
                let s = &self.lay.sections[i];
                Value {
                    section: Some(SectionBase {
                        name: s.name.clone(),
                        addr: s.addr,
                    }),
                    offset: self.dot.wrapping_sub(s.addr),
                    ..Value::absolute(0)
                }
            }
            None => Value::absolute(self.dot),
        })
    }

    fn symbol(&self, name: &str) -> Option<Value> {
        if let Some(&a) = self.walk.symbols.get(name) {
            return Some(match a.section {
                Some(s) => {
                    let o = &self.lay.sections[s];
                    Value {
                        section: Some(SectionBase {
                            name: o.name.clone(),
                            addr: o.addr,
                        }),
                        offset: a.value,
                        ..Value::absolute(0)
                    }
                }
                None => Value::absolute(a.value),
            });
        }
        super::script_values::LayoutValues {
            config: self.walk.config,
            res: self.walk.res,
            lay: self.lay,
        }
        .symbol(name)
    }

    fn section(&self, name: &str) -> Option<SectionInfo> {
        let Some(s) = self.lay.sections.iter().find(|s| s.name == name) else {
            // A description that made no section (nothing went to it) still exists for lld:
            // empty, 1-aligned (`ALIGNOF`, `SIZEOF`; `ADDR` keeps the section).
            return self.walk.commands.position_of(name).map(|_| SectionInfo {
                addr: 0,
                lma: 0,
                size: 0,
                alignment: 1,
            });
        };
        Some(SectionInfo {
            addr: s.addr,
            lma: s.addr.wrapping_add(s.lma_offset),
            size: s.size,
            alignment: s.align,
        })
    }

    fn size_of_headers(&self) -> u64 {
        self.walk.headers
    }

    fn max_page_size(&self) -> u64 {
        self.walk.config.max_page_size()
    }

    fn common_page_size(&self) -> u64 {
        self.walk.config.common_page_size()
    }

    fn memory_region(&self, name: &str) -> Option<(u64, u64)> {
        let r = self.walk.commands.region(name)?;
        self.walk.regions.bounds.get(r).copied()
    }

    fn is_defined(&self, name: &str, _order: u32) -> bool {
        self.walk.symbols.contains_key(name)
            || self
                .walk
                .res
                .symtab
                .lookup(name.as_bytes())
                .is_some_and(|id| {
                    let s = self.walk.res.symtab.get(id);
                    s.is_defined() && s.def != SymbolDef::Synthetic
                })
    }
}

/// Each output section's memory region and load region (lld's `findMemoryRegion`): the one
/// its description names; for an orphan, the region of the section before it; else the first
/// region whose attributes suit its flags. With regions, an allocated section without one is
/// an error.
#[allow(clippy::type_complexity)]
fn find_regions(
    config: &Config,
    commands: &SectionCommands,
    script: &ScriptLayout,
    lay: &Layout,
) -> Result<(Vec<Option<usize>>, Vec<Option<usize>>)> {
    let n = lay.sections.len();
    let (mut mem, mut lma) = (vec![None; n], vec![None; n]);
    if commands.regions.is_empty() {
        return Ok((mem, lma));
    }
    let mut hint: Option<usize> = None;
    for step in &script.sequence {
        let Placement::Section(i) = *step else {
            continue;
        };
        let i = i as usize;
        let os = &lay.sections[i];
        let desc = script.bodies[i]
            .as_ref()
            .and_then(|b| commands.output(b.command));
        if let Some(name) = desc.and_then(|d| d.lma_region.as_ref()) {
            lma[i] = Some(
                commands
                    .region(name)
                    .ok_or_else(|| Error(format!("memory region '{name}' not declared")))?,
            );
        }
        if !os.is_alloc() {
            if desc.and_then(|d| d.region.as_ref()).is_some() && !os.chunks.is_empty() {
                config.warn(&format!(
                    "ignoring memory region assignment for non-allocatable section '{}'",
                    os.name
                ))?;
            }
            continue;
        }
        if let Some(name) = desc.and_then(|d| d.region.as_ref()) {
            let r = commands
                .region(name)
                .ok_or_else(|| Error(format!("memory region '{name}' not declared")))?;
            mem[i] = Some(r);
            hint = Some(r);
            continue;
        }
        // An orphan continues the region of the section before it.
        if desc.is_none() {
            if let Some(h) = hint {
                mem[i] = Some(h);
                continue;
            }
        }
        let flags = os.flags as u32;
        let found = commands.regions.iter().position(|r| {
            let a = r.attrs;
            if flags & a.neg_flags != 0 || !flags & a.neg_inv_flags != 0 {
                return false;
            }
            flags & a.flags != 0 || !flags & a.inv_flags != 0
        });
        match found {
            Some(r) => {
                mem[i] = Some(r);
                hint = None;
            }
            None => {
                return Err(Error(format!(
                    "no memory region specified for section '{}'",
                    os.name
                )))
            }
        }
    }
    Ok((mem, lma))
}

/// lld's region overflow check: each section must end inside its memory region, and its load
/// address range inside its load region.
fn check_regions(commands: &SectionCommands, lay: &Layout, walk: &Walk) -> Result<()> {
    let check = |r: usize, os: &OutputSection, addr: u64| -> Result<()> {
        let (origin, length) = walk.regions.bounds[r];
        let end = addr.wrapping_add(os.size);
        let region_end = origin.wrapping_add(length);
        if end > region_end {
            return Err(Error(format!(
                "section '{}' will not fit in region '{}': overflowed by {} bytes",
                os.name,
                commands.regions[r].name,
                end - region_end
            )));
        }
        Ok(())
    };
    for (i, os) in lay.sections.iter().enumerate() {
        if let Some(r) = walk.mem_region[i] {
            check(r, os, os.addr)?;
        }
        if let Some(r) = walk.lma_region[i] {
            check(r, os, os.addr.wrapping_add(os.lma_offset))?;
        }
    }
    Ok(())
}
