//! Which input sections an input section description takes, by lld's rules. A file is named
//! for scripts as lld's `getNameForScript` names it: its path as given, or `ARCHIVE:MEMBER`
//! for an archive member ([`ScriptFileName`]). A file pattern ending in `:` (`*libc.a:`)
//! takes every member of the archives it names; one starting with `:` (`:crt1.o`) takes only
//! files outside archives; any other is matched against the whole name. `EXCLUDE_FILE`
//! patterns also exclude a member by its own name.

use super::ast::{
    Command, InputSectionDesc, OutputSectionCommand, Pattern, SectionPattern, SectionsCommand,
};

/// The names of an input file a script pattern may be matched against.
#[derive(Clone, Copy, Debug)]
pub struct ScriptFileName<'a> {
    /// The archive's path, for a member.
    pub archive: Option<&'a str>,
    /// The member's name, or the file's path.
    pub name: &'a str,
}

impl ScriptFileName<'_> {
    /// `ARCHIVE:MEMBER` or the path: what a file pattern is matched against.
    pub fn for_script(&self) -> String {
        match self.archive {
            Some(a) => format!("{a}:{}", self.name),
            None => self.name.to_string(),
        }
    }
}

impl Pattern {
    /// Whether `s` matches: a quoted pattern is literal, an unquoted one a glob.
    pub fn matches(&self, s: &str) -> bool {
        if self.quoted {
            self.text == s
        } else {
            crate::glob::matches(self.text.as_bytes(), s.as_bytes())
        }
    }

    /// Whether the pattern matches every name (`*`): lld skips the file test for it.
    fn matches_all(&self) -> bool {
        !self.quoted && self.text == "*"
    }
}

/// Whether one of `patterns` excludes `file` (lld's `excludesFile`).
fn excludes(patterns: &[Pattern], file: &ScriptFileName, full: &str) -> bool {
    patterns
        .iter()
        .any(|p| p.matches(full) || file.archive.is_some() && p.matches(file.name))
}

impl InputSectionDesc {
    /// Whether the description's file pattern takes `file` (lld's `matchesFile`).
    pub fn matches_file(&self, file: &ScriptFileName, full: &str) -> bool {
        let pat = &self.file;
        if pat.matches_all() {
            return !excludes(&self.exclude_files, file, full);
        }
        let hit = if let Some(archive) = pat.text.strip_suffix(':').filter(|_| !pat.quoted) {
            file.archive
                .is_some_and(|a| crate::glob::matches(archive.as_bytes(), a.as_bytes()))
        } else if let Some(plain) = pat.text.strip_prefix(':').filter(|_| !pat.quoted) {
            file.archive.is_none() && crate::glob::matches(plain.as_bytes(), full.as_bytes())
        } else {
            pat.matches(full)
        };
        hit && !excludes(&self.exclude_files, file, full)
    }

    /// The index of the section pattern that takes input section `name` (with section flags
    /// `flags`) of `file`, or `None`. `full` is `file.for_script()`, computed once per file.
    pub fn pattern_for(
        &self,
        file: &ScriptFileName,
        full: &str,
        name: &str,
        flags: u64,
    ) -> Option<usize> {
        if flags & self.with_flags != self.with_flags || flags & self.without_flags != 0 {
            return None;
        }
        if !self.matches_file(file, full) {
            return None;
        }
        self.patterns
            .iter()
            .position(|p| takes_name(p, file, full, name))
    }
}

/// The `KEEP(...)` input section descriptions of `SECTIONS` and `OVERWRITE_SECTIONS` commands
/// in `commands`: the input sections they take, whichever description places them, are roots
/// for `--gc-sections` (lld's `shouldKeep`: lld collects them as it reads the script, so a
/// description another one replaces keeps its sections all the same).
pub fn keep_descriptions(commands: &[Command]) -> Vec<&InputSectionDesc> {
    let sections = commands
        .iter()
        .filter_map(|c| match c {
            Command::Sections(s) => Some(&s.commands),
            _ => None,
        })
        .flatten()
        .filter_map(|c| match c {
            SectionsCommand::Output(o) => Some(&o.commands),
            _ => None,
        });
    let overwrites = commands
        .iter()
        .filter_map(|c| match c {
            Command::OverwriteSections(v) => Some(v),
            _ => None,
        })
        .flatten()
        .map(|o| &o.commands);
    sections
        .chain(overwrites)
        .flatten()
        .filter_map(|c| match c {
            OutputSectionCommand::Input(d) if d.keep => Some(d),
            _ => None,
        })
        .collect()
}

fn takes_name(p: &SectionPattern, file: &ScriptFileName, full: &str, name: &str) -> bool {
    p.sections.iter().any(|s| s.matches(name)) && !excludes(&p.exclude_files, file, full)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::ast::SortKind;

    fn pat(t: &str) -> Pattern {
        Pattern {
            text: t.into(),
            quoted: false,
        }
    }

    fn desc(file: &str, exclude: &[&str], sections: &[&str]) -> InputSectionDesc {
        InputSectionDesc {
            file: pat(file),
            exclude_files: exclude.iter().map(|e| pat(e)).collect(),
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
            loc: crate::script::ast::Loc {
                file: std::sync::Arc::from(std::path::Path::new("t")),
                line: 1,
            },
        }
    }

    fn takes(d: &InputSectionDesc, archive: Option<&str>, name: &str, sec: &str) -> bool {
        let f = ScriptFileName { archive, name };
        d.pattern_for(&f, &f.for_script(), sec, 0).is_some()
    }

    #[test]
    fn archive_member_patterns() {
        let member = desc("*libc.a:memcpy.o", &[], &[".text"]);
        assert!(takes(&member, Some("/x/libc.a"), "memcpy.o", ".text"));
        assert!(!takes(&member, Some("/x/libc.a"), "strlen.o", ".text"));
        let whole = desc("*libc.a:", &[], &[".text"]);
        assert!(takes(&whole, Some("/x/libc.a"), "strlen.o", ".text"));
        assert!(!takes(&whole, None, "/x/libc.a", ".text"));
        let outside = desc(":*crt1.o", &[], &[".text"]);
        assert!(takes(&outside, None, "/x/crt1.o", ".text"));
        assert!(!takes(&outside, Some("/x/libc.a"), "crt1.o", ".text"));
    }

    #[test]
    fn exclude_file_names_a_member_alone_too() {
        let d = desc("*", &["memcpy.o"], &[".text*"]);
        assert!(!takes(&d, Some("/x/libc.a"), "memcpy.o", ".text"));
        assert!(takes(&d, Some("/x/libc.a"), "strlen.o", ".text.x"));
        assert!(!takes(&d, None, "memcpy.o", ".text"));
    }
}
