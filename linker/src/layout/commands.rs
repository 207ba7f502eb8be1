//! The ordered list of output-section commands layout builds the output from (lld's
//! `sectionCommands`). Each command names an output section and the input sections it takes;
//! an input section no command takes is an *orphan* and gets the output section of its name
//! (`section_rules::output_name_of`).
//!
//! The built-in list has no commands: every output section is an orphan, and output sections
//! are ordered by lld's ranks (`section_rules::section_rank`), as lld orders them without a
//! `SECTIONS` command. A linker script is a second producer of the same list: its sections come
//! in the script's order and orphans are placed next to the most similar of them (lld's
//! `findOrphanPos`). Layout itself has one path for both.

use crate::glob;

/// Which input sections an input-section description takes: those of files matching `file`
/// whose names match one of `sections` (glob patterns).
#[derive(Clone, Debug)]
pub struct InputDesc {
    pub file: String,
    pub sections: Vec<String>,
}

impl InputDesc {
    /// Whether this description takes input section `name` of the file named `file`.
    pub fn takes(&self, file: &str, name: &str) -> bool {
        glob::matches(self.file.as_bytes(), file.as_bytes())
            && self
                .sections
                .iter()
                .any(|p| glob::matches(p.as_bytes(), name.as_bytes()))
    }
}

/// An output-section description: the output section `name` and, in order, the input-section
/// descriptions that fill it.
#[derive(Clone, Debug)]
pub struct OutputDesc {
    pub name: String,
    pub inputs: Vec<InputDesc>,
}

/// One command of the list.
#[derive(Clone, Debug)]
pub enum SectionCommand {
    Output(OutputDesc),
}

/// The command list.
#[derive(Clone, Debug, Default)]
pub struct SectionCommands {
    pub commands: Vec<SectionCommand>,
}

impl SectionCommands {
    /// The built-in list: no `SECTIONS` command, every output section an orphan.
    pub fn built_in() -> Self {
        SectionCommands::default()
    }

    /// Whether the list comes from a `SECTIONS` command (the built-in one has none).
    pub fn has_sections(&self) -> bool {
        !self.commands.is_empty()
    }

    fn outputs(&self) -> impl Iterator<Item = &OutputDesc> {
        self.commands.iter().map(|c| match c {
            SectionCommand::Output(o) => o,
        })
    }

    /// The output section a command assigns input section `name` of the file named `file` to:
    /// the first description, in command order, that takes it (lld's rule). `None`: an orphan.
    pub fn output_for(&self, file: &str, name: &str) -> Option<&str> {
        self.description_of(file, name).map(|(o, _)| o)
    }

    /// The output section and the index, among its input-section descriptions, of the
    /// description that takes input section `name` of the file named `file`: an output
    /// section holds its inputs description by description, as lld places them.
    pub fn description_of(&self, file: &str, name: &str) -> Option<(&str, usize)> {
        self.outputs().find_map(|o| {
            let d = o.inputs.iter().position(|d| d.takes(file, name))?;
            Some((o.name.as_str(), d))
        })
    }

    /// The index of the command describing output section `name`, if one does.
    pub fn position_of(&self, name: &str) -> Option<usize> {
        self.outputs().position(|o| o.name == name)
    }
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

/// The order of `sections` (indices into it) under `commands`. Without a `SECTIONS` command:
/// sections with a `--section-start` address first, by address, then by rank, ties in creation
/// order (lld's `sortSections`). With one: the sections the commands describe in command order,
/// and each orphan, taken by rank, placed after the most similar of them (`orphan_position`).
pub fn order(commands: &SectionCommands, sections: &[Placed]) -> Vec<u32> {
    let mut by_rank: Vec<u32> = (0..sections.len() as u32).collect();
    if !commands.has_sections() {
        by_rank.sort_by_key(|&i| {
            let s = &sections[i as usize];
            (s.start.is_none(), s.start.unwrap_or(0), s.rank)
        });
        return by_rank;
    }
    let mut scripted: Vec<(usize, u32)> = Vec::new();
    let mut orphans: Vec<u32> = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        match commands.position_of(s.name) {
            Some(p) => scripted.push((p, i as u32)),
            None => orphans.push(i as u32),
        }
    }
    scripted.sort_by_key(|&(p, _)| p);
    let mut out: Vec<u32> = scripted.into_iter().map(|(_, i)| i).collect();
    orphans.sort_by_key(|&i| sections[i as usize].rank);
    for o in orphans {
        let at = orphan_position(sections, &out, &sections[o as usize]);
        out.insert(at, o);
    }
    out
}

/// How alike two ranks are: the number of leading rank bits they share, each bit being one of
/// lld's rank criteria (lld's `getRankProximity`); `None` for a section that cannot anchor an
/// orphan (it has no inputs).
fn proximity(orphan: &Placed, other: &Placed) -> Option<u32> {
    other
        .has_inputs
        .then(|| (orphan.rank ^ other.rank).leading_zeros())
}

/// Where in `placed` (indices into `sections`) orphan `sec` goes (lld's `findOrphanPos`):
/// non-allocated orphans at the end; others after the most similar section with inputs (the
/// last of equally similar ones when the orphan's rank is not smaller, else before the first),
/// and at the very end when no section with inputs follows.
fn orphan_position(sections: &[Placed], placed: &[u32], sec: &Placed) -> usize {
    let end = placed.len();
    if !sec.alloc {
        return end;
    }
    let at = |j: usize| &sections[placed[j] as usize];
    let mut best = 0u32;
    let mut anchor = None;
    for j in 0..end {
        let Some(p) = proximity(sec, at(j)) else {
            continue;
        };
        if p > best || (p == best && at(j).rank <= sec.rank) {
            best = p;
            anchor = Some(j);
        }
    }
    let Some(mut i) = anchor else {
        return end;
    };
    if at(i).rank <= sec.rank {
        i += 1;
        let mut j = i;
        while j < end {
            if at(j).has_inputs {
                if proximity(sec, at(j)) != Some(best) {
                    break;
                }
                i = j + 1;
            }
            j += 1;
        }
    } else {
        while i > 0 && !at(i - 1).has_inputs {
            i -= 1;
        }
    }
    if !(i..end).any(|j| at(j).has_inputs) {
        return end;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(name: &str, rank: u32) -> Placed<'_> {
        Placed {
            name,
            rank,
            alloc: true,
            has_inputs: true,
            start: None,
        }
    }

    fn script(names: &[&str]) -> SectionCommands {
        SectionCommands {
            commands: names
                .iter()
                .map(|n| {
                    SectionCommand::Output(OutputDesc {
                        name: n.to_string(),
                        inputs: vec![InputDesc {
                            file: "*".into(),
                            sections: vec![format!("{n}*")],
                        }],
                    })
                })
                .collect(),
        }
    }

    fn names<'a>(sections: &[Placed<'a>], order: &[u32]) -> Vec<&'a str> {
        order.iter().map(|&i| sections[i as usize].name).collect()
    }

    #[test]
    fn built_in_list_orders_by_start_then_rank_keeping_creation_order() {
        let mut s = vec![placed(".data", 20), placed(".text", 10), placed(".bss", 30)];
        s.push(placed(".text.hot", 10));
        s[2].start = Some(0x1000);
        let o = order(&SectionCommands::built_in(), &s);
        assert_eq!(names(&s, &o), [".bss", ".text", ".text.hot", ".data"]);
    }

    #[test]
    fn first_matching_description_takes_a_section() {
        let cmds = script(&[".text", ".text.hot"]);
        assert_eq!(cmds.output_for("a.o", ".text.hot"), Some(".text"));
        assert_eq!(cmds.output_for("a.o", ".rodata"), None);
        let mut two = script(&[".data"]);
        let SectionCommand::Output(o) = &mut two.commands[0];
        o.inputs.insert(
            0,
            InputDesc {
                file: "b.o".into(),
                sections: vec![".data*".into()],
            },
        );
        assert_eq!(two.description_of("a.o", ".data.x"), Some((".data", 1)));
        assert_eq!(two.description_of("b.o", ".data.x"), Some((".data", 0)));
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
        let o = order(&script(&[".data", ".text"]), &s);
        assert_eq!(names(&s, &o), [".data", ".text", ".rodata"]);
    }

    #[test]
    fn non_allocated_orphans_go_last() {
        let mut s = vec![placed(".text", 1), placed(".comment", 0)];
        s[1].alloc = false;
        let o = order(&script(&[".text"]), &s);
        assert_eq!(names(&s, &o), [".text", ".comment"]);
    }

    #[test]
    fn an_orphan_ranked_before_its_anchor_goes_before_it() {
        let s = vec![
            placed(".data", 0b0011),
            placed(".text", 0b1000),
            placed(".x", 0b0010),
        ];
        let o = order(&script(&[".text", ".data"]), &s);
        assert_eq!(names(&s, &o), [".text", ".x", ".data"]);
    }
}
