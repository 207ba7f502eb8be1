//! Version scripts (`--version-script`) and dynamic lists (`--dynamic-list`): parsing, and
//! deciding each symbol's version and whether it is exported, with lld's precedence (an exact
//! name beats a glob; `extern "C++"` patterns match demangled names; later versions win ties).

use crate::error::Result;
use crate::{bail, err};
use std::path::{Path, PathBuf};

/// One pattern of a version node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub text: String,
    /// Contains glob characters (and was not quoted).
    pub glob: bool,
    /// Inside `extern "C++" { ... }`: matched against the demangled name.
    pub cxx: bool,
}

/// A `NAME { global: ...; local: ...; } PARENT;` node (the name is empty for an anonymous
/// script).
#[derive(Clone, Debug, Default)]
pub struct VersionNode {
    pub name: String,
    pub globals: Vec<Pattern>,
    pub locals: Vec<Pattern>,
    pub parent: Option<String>,
}

/// A parsed version script.
#[derive(Clone, Debug, Default)]
pub struct VersionScript {
    pub nodes: Vec<VersionNode>,
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    path: &'a Path,
}

impl<'a> Lexer<'a> {
    fn line(&self) -> usize {
        self.text[..self.pos.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    fn error(&self, msg: &str) -> crate::error::Error {
        let line_no = self.line();
        let start = self.text[..self.pos.min(self.text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        let line = &self.text[start..end];
        let col = self.pos.saturating_sub(start).min(line.len());
        // lld points at the start of the offending token.
        let caret_col = line[..col].len();
        err!(
            "{}:{}: {}\n>>> {}\n>>> {}^",
            self.path.display(),
            line_no,
            msg,
            line,
            " ".repeat(caret_col)
        )
    }

    /// lld's message for a script that ends too early names the last line with text.
    fn eof_error(&self) -> crate::error::Error {
        let trimmed = self.text.trim_end();
        let line = trimmed.matches('\n').count() + 1;
        err!("{}:{}: unexpected EOF", self.path.display(), line)
    }

    fn skip_space(&mut self) {
        loop {
            let rest = &self.text[self.pos..];
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if trimmed.starts_with("/*") {
                self.pos += trimmed.find("*/").map_or(trimmed.len(), |i| i + 2);
            } else if trimmed.starts_with('#') {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return;
            }
        }
    }

    /// The next token: a punctuation character, a quoted string (with quotes), or a word.
    fn peek(&mut self) -> Option<&'a str> {
        self.skip_space();
        let rest = &self.text[self.pos..];
        let c = rest.chars().next()?;
        if "{};:".contains(c) {
            return Some(&rest[..1]);
        }
        if c == '"' {
            let end = rest[1..].find('"').map_or(rest.len(), |i| i + 2);
            return Some(&rest[..end]);
        }
        // A word ends at white space or punctuation; `::` (C++ scopes) stays inside it.
        let bytes = rest.as_bytes();
        let mut end = 0;
        while end < bytes.len() {
            let c = bytes[end];
            if c == b':' && bytes.get(end + 1) == Some(&b':') {
                end += 2;
                continue;
            }
            if c.is_ascii_whitespace() || b"{};:\"".contains(&c) {
                break;
            }
            end += 1;
        }
        Some(&rest[..end])
    }

    fn next(&mut self) -> Option<&'a str> {
        let t = self.peek()?;
        self.pos += t.len();
        Some(t)
    }

    fn expect(&mut self, want: &str) -> Result<()> {
        match self.peek() {
            Some(t) if t == want => {
                self.pos += t.len();
                Ok(())
            }
            Some(t) => Err(self.error(&format!("{want} expected, but got {t}"))),
            None => Err(self.error(&format!("{want} expected, but got EOF"))),
        }
    }
}

fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Parses a version script.
pub fn parse(text: &str, path: &Path) -> Result<VersionScript> {
    let mut lx = Lexer { text, pos: 0, path };
    let mut script = VersionScript::default();
    // An anonymous script is a bare `{ ... };`.
    if lx.peek() == Some("{") {
        let mut node = VersionNode::default();
        parse_body(&mut lx, &mut node)?;
        lx.expect(";")?;
        script.nodes.push(node);
        if lx.peek().is_some() {
            return Err(lx.error("EOF expected, but got more"));
        }
        return Ok(script);
    }
    while let Some(name) = lx.next() {
        if "{};:".contains(name) {
            return Err(lx.error(&format!("unexpected {name}")));
        }
        let mut node = VersionNode {
            name: name.to_string(),
            ..Default::default()
        };
        parse_body(&mut lx, &mut node)?;
        if lx.peek() != Some(";") {
            let parent = lx
                .next()
                .ok_or_else(|| lx.error("; expected, but got EOF"))?;
            node.parent = Some(parent.to_string());
        }
        lx.expect(";")?;
        script.nodes.push(node);
    }
    Ok(script)
}

fn parse_body(lx: &mut Lexer<'_>, node: &mut VersionNode) -> Result<()> {
    lx.expect("{")?;
    let mut local = false;
    loop {
        let Some(tok) = lx.peek() else {
            return Err(lx.eof_error());
        };
        match tok {
            "}" => {
                lx.next();
                return Ok(());
            }
            "global" | "local" => {
                let save = lx.pos;
                lx.next();
                if lx.peek() == Some(":") {
                    lx.next();
                    local = tok == "local";
                    continue;
                }
                lx.pos = save;
            }
            "extern" => {
                lx.next();
                let lang = lx.next().unwrap_or("");
                let cxx = lang == "\"C++\"";
                if !cxx && lang != "\"C\"" {
                    return Err(lx.error(&format!("unknown language: {lang}")));
                }
                lx.expect("{")?;
                loop {
                    match lx.peek() {
                        Some("}") => {
                            lx.next();
                            break;
                        }
                        Some(t) => {
                            lx.next();
                            let pat = pattern(t, cxx);
                            if lx.peek() != Some("}") {
                                lx.expect(";")?;
                            }
                            if local {
                                node.locals.push(pat);
                            } else {
                                node.globals.push(pat);
                            }
                        }
                        None => return Err(lx.error("} expected, but got EOF")),
                    }
                }
                lx.expect(";")?;
                continue;
            }
            _ => {}
        }
        if tok == ";" || tok == "{" || tok == ":" {
            return Err(lx.error(&format!("unexpected {tok}")));
        }
        lx.next();
        let pat = pattern(tok, false);
        lx.expect(";")?;
        if local {
            node.locals.push(pat);
        } else {
            node.globals.push(pat);
        }
    }
}

fn pattern(tok: &str, cxx: bool) -> Pattern {
    if let Some(q) = tok.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        return Pattern {
            text: q.to_string(),
            glob: false,
            cxx,
        };
    }
    Pattern {
        text: tok.to_string(),
        glob: is_glob(tok),
        cxx,
    }
}

/// Parses a `--dynamic-list` file: `{ sym; pattern*; extern "C++" { ... }; };`.
pub fn parse_dynamic_list(text: &str, path: &Path) -> Result<Vec<Pattern>> {
    let mut lx = Lexer { text, pos: 0, path };
    let mut node = VersionNode::default();
    parse_body(&mut lx, &mut node)?;
    lx.expect(";")?;
    Ok(node.globals)
}

/// Reads and parses a version script file.
pub fn read(path: &Path) -> Result<VersionScript> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        err!(
            "cannot open version script {}: {}",
            path.display(),
            crate::input::input_files::io_reason(&e)
        )
    })?;
    parse(&text, path)
}

/// Reads and parses a dynamic list file.
pub fn read_dynamic_list(path: &Path) -> Result<Vec<Pattern>> {
    let text = crate::input::input_files::read_text(path)?;
    parse_dynamic_list(&text, path)
}

/// What the version scripts say about one symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assignment {
    /// Not mentioned: exported with the default (global) version unless a `local: *` applies.
    Unassigned,
    /// `local:` — not exported.
    Local,
    /// Exported with version index `n` (2.. for named versions, 1 for the anonymous script).
    Version(u16),
}

/// All version scripts of a link, compiled for matching.
#[derive(Default, Debug)]
pub struct Versions {
    /// Named versions in definition order; the version index of `names[i]` is `i + 2`.
    pub names: Vec<String>,
    nodes: Vec<(u16, VersionNode)>,
    /// `--default-symver`: the version unversioned exported definitions take.
    pub default_index: Option<u16>,
}

impl Versions {
    /// Loads every `--version-script`.
    /// Loads every `--version-script`, each found as lld finds scripts: as given, or in the
    /// library search directories.
    pub fn load(paths: &[std::path::PathBuf], search_paths: &[PathBuf]) -> Result<Versions> {
        let mut v = Versions::default();
        for p in paths {
            let found = crate::input::library_search::find_script(p, search_paths)
                .ok_or_else(|| err!("cannot find version script {}", p.display()))?;
            v.add(read(&found)?, p)?;
        }
        Ok(v)
    }

    /// Adds the version script `text` (a linker script's `VERSION` block) after those loaded.
    pub fn add_text(&mut self, text: &str, path: &Path) -> Result<()> {
        self.add(parse(text, path)?, path)
    }

    fn add(&mut self, script: VersionScript, path: &Path) -> Result<()> {
        for node in script.nodes {
            let index = if node.name.is_empty() {
                1
            } else {
                if self.names.contains(&node.name) {
                    bail!(
                        "{}: duplicate version definition: {}",
                        path.display(),
                        node.name
                    );
                }
                self.names.push(node.name.clone());
                self.names.len() as u16 + 1
            };
            self.nodes.push((index, node));
        }
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// GNU ld's `--default-symver`: one more named version (the shared object's soname) that
    /// unversioned exported definitions take; its index.
    pub fn add_default_version(&mut self, name: &str) {
        let index = match self.index_of(name.as_bytes()) {
            Some(i) => i,
            None => {
                self.names.push(name.to_string());
                self.names.len() as u16 + 1
            }
        };
        self.default_index = Some(index);
    }

    /// `--retain-symbols-file=FILE`, which lld reads as one more anonymous version script:
    /// the names the file lists (one per line, `#` starting a comment) are global, every
    /// other symbol is local.
    pub fn add_retain_symbols_file(&mut self, path: &Path) -> Result<()> {
        let text = crate::input::input_files::read_text(path)?;
        let globals = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .map(|name| Pattern {
                text: name.to_string(),
                glob: false,
                cxx: false,
            })
            .collect();
        let locals = vec![Pattern {
            text: "*".to_string(),
            glob: true,
            cxx: false,
        }];
        self.nodes.push((
            1,
            VersionNode {
                name: String::new(),
                globals,
                locals,
                parent: None,
            },
        ));
        Ok(())
    }

    /// The version index of a named version, for `.symver` definitions.
    pub fn index_of(&self, name: &[u8]) -> Option<u16> {
        self.names
            .iter()
            .position(|n| n.as_bytes() == name)
            .map(|i| i as u16 + 2)
    }

    /// Decides a symbol's assignment: exact names first (the last version naming it wins, as
    /// lld), then globs (more specific: non-`*` globs before `*`), with globals before locals
    /// within the same precedence.
    pub fn assign(&self, name: &[u8], demangled: Option<&str>) -> Assignment {
        if self.nodes.is_empty() {
            return self.asterisk();
        }
        let name_str = String::from_utf8_lossy(name);
        let matches = |p: &Pattern, exact: bool| -> bool {
            // lld matches `extern "C++"` patterns against demangled names, a name that is
            // not mangled standing for itself.
            let subject: &str = if p.cxx {
                demangled.unwrap_or(&name_str)
            } else {
                &name_str
            };
            if exact {
                !p.glob && p.text == subject
            } else {
                p.glob
                    && p.text != "*"
                    && crate::glob::matches(p.text.as_bytes(), subject.as_bytes())
            }
        };
        for exact in [true, false] {
            let mut found = None;
            for (index, node) in &self.nodes {
                if node.globals.iter().any(|p| matches(p, exact)) {
                    found = Some(Assignment::Version(*index));
                }
            }
            if let Some(f) = found {
                return f;
            }
            for (_, node) in &self.nodes {
                if node.locals.iter().any(|p| matches(p, exact)) {
                    return Assignment::Local;
                }
            }
        }
        self.asterisk()
    }

    /// The assignment of a `.symver` definition with a non-default version (`foo@V`), as lld
    /// decides it: an exact `foo` in version node `V` applies (`global:` keeps the version,
    /// `local:` hides it); otherwise only `global: *` or `local: *` does (lld matches other
    /// globs against unversioned names only).
    pub fn assign_versioned(&self, name: &[u8], version: &[u8]) -> Assignment {
        let exact = |p: &Pattern| !p.glob && !p.cxx && p.text.as_bytes() == name;
        for (index, node) in &self.nodes {
            if node.name.as_bytes() != version {
                continue;
            }
            if node.globals.iter().any(exact) {
                return Assignment::Version(*index);
            }
            if node.locals.iter().any(exact) {
                return Assignment::Local;
            }
        }
        self.asterisk()
    }

    /// What a `global: *` or `local: *` says (matched after every other pattern).
    fn asterisk(&self) -> Assignment {
        for (index, node) in self.nodes.iter().rev() {
            if node.globals.iter().any(|p| p.text == "*" && p.glob) {
                return Assignment::Version(*index);
            }
        }
        if self
            .nodes
            .iter()
            .any(|(_, n)| n.locals.iter().any(|p| p.text == "*" && p.glob))
        {
            return Assignment::Local;
        }
        Assignment::Unassigned
    }

    /// Exact (non-glob, non-C++) global names and their versions, for `--no-undefined-version`.
    pub fn exact_globals(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.nodes.iter().flat_map(|(_, n)| {
            n.globals
                .iter()
                .filter(|p| !p.glob && !p.cxx)
                .map(move |p| (n.name.as_str(), p.text.as_str()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_named_and_anonymous() {
        let s = parse("V1 { global: foo; bar*; extern \"C++\" { ns::*; \"f(int)\"; }; local: *; };\nV2 { global: baz; } V1;", Path::new("x")).unwrap();
        assert_eq!(s.nodes.len(), 2);
        assert_eq!(s.nodes[0].globals.len(), 4);
        assert!(s.nodes[0].globals[2].cxx && s.nodes[0].globals[2].glob);
        assert_eq!(s.nodes[1].parent.as_deref(), Some("V1"));
        let a = parse("{ global: a; local: *; };", Path::new("x")).unwrap();
        assert_eq!(a.nodes[0].name, "");
    }

    #[test]
    fn syntax_error_names_line() {
        let e = parse("V1 { global: foo \n local: *; };\n", Path::new("bad.map")).unwrap_err();
        assert_eq!(
            e.0,
            "bad.map:2: ; expected, but got local\n>>>  local: *; };\n>>>  ^"
        );
    }
}
