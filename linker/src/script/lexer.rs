//! The linker script lexer, with lld's `ScriptLexer` rules: a token is cut differently in
//! script context (file names and globs such as `*crtbegin?.o`, `lib/x-1.0.a:mem.o` are one
//! token) and in expression context (operators split tokens: `a+b`, `x>>=2`). The parser says
//! which context it is in; a token peeked in one context is lexed again in the other, so the
//! lexer is a cursor over the text rather than a token list.
//!
//! `INCLUDE`d files are spliced here, at the token level, as lld splices them: the parser asks
//! the caller for the text and pushes it; its tokens come next, then the including file's.

use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, Result};

/// Which tokenization rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexState {
    /// Outside expressions: names may contain `.`, `/`, `*`, `?`, `[`, `]`, `-`, `~`, `:`,
    /// `=`, `+`, `!`, `^`, `\` and `$`.
    Script,
    /// Inside expressions: names are `[A-Za-z0-9_.$]+`, operators are their own tokens.
    Expr,
}

/// A place in a script: the file (as named to the parser) and its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    /// The script's path, as given to [`super::parser::parse`] or returned by the includer.
    pub file: Arc<Path>,
    /// 1-based line.
    pub line: u32,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.line)
    }
}

/// One source text: the main script or an included file.
struct Source {
    path: Arc<Path>,
    text: String,
    /// The name it was included as (for cycle detection); the path for the main script.
    name: String,
}

/// Where lexing stands in one source.
#[derive(Clone, Copy)]
struct Cursor {
    source: usize,
    pos: usize,
    line: u32,
}

/// A token: its text (quotes kept, so that a quoted glob stays literal) and where it starts.
#[derive(Clone, Debug)]
pub struct Token {
    /// The token's text; empty at the end of input.
    pub text: String,
    /// 1-based line.
    pub line: u32,
    source: usize,
    offset: usize,
}

impl Token {
    /// A token standing for nothing (start of the main script).
    pub fn dummy() -> Token {
        Token {
            text: String::new(),
            line: 1,
            source: 0,
            offset: 0,
        }
    }

    /// True at the end of input.
    pub fn is_eof(&self) -> bool {
        self.text.is_empty()
    }
}

/// How many files may be open through nested `INCLUDE`s at once; deeper is an error, not a
/// stack overflow.
const MAX_INCLUDE_DEPTH: usize = 64;

/// The lexer: a cursor over a stack of sources.
pub struct Lexer {
    sources: Vec<Source>,
    /// The current cursor is the last; the ones before are the including files.
    stack: Vec<Cursor>,
    /// The rules the next token is cut with.
    pub state: LexState,
    /// The last token consumed, which errors point at.
    prev: Option<Token>,
    /// The line of the last non-EOF token consumed (lld keeps it for EOF errors).
    prev_line: u32,
    prev_source: usize,
    /// The first error the lexer met (unclosed comment or quote); it wins over later ones.
    pending: Option<Error>,
}

impl Lexer {
    /// A lexer over `text`, named `path` in messages.
    pub fn new(text: &str, path: &Path) -> Lexer {
        Lexer {
            sources: vec![Source {
                path: Arc::from(path),
                text: text.to_string(),
                // lld counts the main script among the active files of INCLUDE cycles.
                name: path.to_string_lossy().into_owned(),
            }],
            stack: vec![Cursor {
                source: 0,
                pos: 0,
                line: 1,
            }],
            state: LexState::Script,
            prev: None,
            prev_line: 1,
            prev_source: 0,
            pending: None,
        }
    }

    /// The first lexing error, if any.
    pub fn take_pending(&mut self) -> Option<Error> {
        self.pending.take()
    }

    /// True once a lexing error happened: the parser then treats the input as ended.
    pub fn has_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// The location of the last token consumed (lld's `getCurrentLocation`).
    pub fn loc(&self) -> Loc {
        Loc {
            file: self.path_of(self.prev_source),
            line: self.prev_line,
        }
    }

    fn path_of(&self, source: usize) -> Arc<Path> {
        self.sources
            .get(source)
            .map_or_else(|| Arc::from(Path::new("")), |s| s.path.clone())
    }

    /// An error in lld's form: `FILE:LINE: MSG`, then the line and a caret under the last
    /// token consumed (no caret when none was, or at the end of input).
    pub fn error(&self, msg: &str) -> Error {
        let mut s = format!("{}: {msg}", self.loc());
        if let Some(tok) = self.prev.as_ref().filter(|t| !t.is_eof()) {
            if let Some(src) = self.sources.get(tok.source) {
                let text = &src.text;
                let offset = tok.offset.min(text.len());
                let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
                let end = text[start..]
                    .find(['\r', '\n'])
                    .map_or(text.len(), |i| start + i);
                let col = offset - start;
                s.push_str(&format!(
                    "\n>>> {}\n>>> {}^",
                    &text[start..end],
                    " ".repeat(col)
                ));
            }
        }
        Error(s)
    }

    /// Forgets the last token, so that the next error has no caret (lld's `till` at EOF).
    pub fn clear_prev(&mut self) {
        self.prev = None;
    }

    /// True if a file included as `name` (or the main script, by its path) is being read:
    /// including it again would never end.
    pub fn is_active(&self, name: &str) -> bool {
        self.stack
            .iter()
            .any(|c| self.sources.get(c.source).is_some_and(|s| s.name == name))
    }

    /// The last token consumed.
    pub fn last(&self) -> Option<Token> {
        self.prev.clone()
    }

    /// Splices an included file: its tokens come next. `name` is the name as written, used to
    /// find cycles as lld does.
    pub fn push_include(&mut self, name: &str, path: &Path, text: String) -> Result<()> {
        if self.is_active(name) {
            return Err(self.error("there is a cycle in linker script INCLUDEs"));
        }
        if self.stack.len() >= MAX_INCLUDE_DEPTH {
            return Err(self.error("too many nested INCLUDEs"));
        }
        self.sources.push(Source {
            path: Arc::from(path),
            text,
            name: name.to_string(),
        });
        self.stack.push(Cursor {
            source: self.sources.len() - 1,
            pos: 0,
            line: 1,
        });
        Ok(())
    }

    /// Skips blanks and comments, leaving finished included files.
    fn skip_space(&mut self) {
        loop {
            let Some(cur) = self.stack.last().copied() else {
                return;
            };
            let Some(src) = self.sources.get(cur.source) else {
                return;
            };
            let rest = src.text.get(cur.pos..).unwrap_or("");
            let (advance, lines, ended) = if let Some(body) = rest.strip_prefix("/*") {
                match body.find("*/") {
                    Some(e) => (e + 4, body[..e].matches('\n').count(), false),
                    None => {
                        if self.pending.is_none() {
                            self.pending = Some(self.error("unclosed comment in a linker script"));
                        }
                        (rest.len(), 0, true)
                    }
                }
            } else if rest.starts_with('#') {
                match rest.find('\n') {
                    Some(e) => (e + 1, 1, false),
                    None => (rest.len(), 0, false),
                }
            } else {
                let trimmed = rest.trim_start();
                let n = rest.len() - trimmed.len();
                (n, rest[..n].matches('\n').count(), false)
            };
            if let Some(c) = self.stack.last_mut() {
                c.pos += advance;
                c.line += lines as u32;
            }
            if ended {
                return;
            }
            if advance == 0 {
                if rest.is_empty() && self.stack.len() > 1 {
                    // The end of an included file: back to the file that included it.
                    self.stack.pop();
                    continue;
                }
                return;
            }
        }
    }

    /// Cuts the token at the cursor without consuming it. The end of input (or a lexing
    /// error) is an empty token.
    fn lex(&mut self) -> (Token, usize) {
        self.skip_space();
        let cur = self.stack.last().copied().unwrap_or(Cursor {
            source: 0,
            pos: 0,
            line: 1,
        });
        let eof = Token {
            text: String::new(),
            line: cur.line,
            source: cur.source,
            offset: cur.pos,
        };
        if self.pending.is_some() {
            return (eof, 0);
        }
        let Some(src) = self.sources.get(cur.source) else {
            return (eof, 0);
        };
        let s = src.text.get(cur.pos..).unwrap_or("");
        if s.is_empty() {
            return (eof, 0);
        }
        let b = s.as_bytes();
        let len = if b[0] == b'"' {
            match s[1..].find('"') {
                Some(e) => e + 2,
                None => {
                    self.pending = Some(Error(format!(
                        "{}:{}: unclosed quote",
                        src.path.display(),
                        cur.line
                    )));
                    return (eof, 0);
                }
            }
        } else if s.starts_with("<<=") || s.starts_with(">>=") {
            3
        } else if b.len() > 1 && b[1] == b'=' && b"+-*/!&^|".contains(&b[0]) {
            2
        } else {
            // Non-ASCII bytes belong to words: lld cuts `café.o` into pieces, GNU ld and weld
            // read UTF-8 file and symbol names whole.
            let word =
                |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$') || c >= 0x80;
            let mut n = match self.state {
                LexState::Script => b
                    .iter()
                    .position(|&c| !(word(c) || b"/\\~=+[]*?-!^:".contains(&c)))
                    .unwrap_or(b.len()),
                LexState::Expr => {
                    let n = b.iter().position(|&c| !word(c)).unwrap_or(b.len());
                    let two = s.get(..2).unwrap_or("");
                    if n == 0
                        && b.len() >= 2
                        && ((b[0] == b[1] && b"<>&|".contains(&b[0]))
                            || ["==", "!=", "<=", ">=", "<<", ">>"].contains(&two))
                    {
                        2
                    } else {
                        n
                    }
                }
            };
            if n == 0 {
                // One character (not one byte: a multi-byte character stays whole).
                n = s.chars().next().map_or(1, char::len_utf8);
            }
            n
        };
        let text = s.get(..len).unwrap_or(s).to_string();
        (
            Token {
                text,
                line: cur.line,
                source: cur.source,
                offset: cur.pos,
            },
            len,
        )
    }

    /// The next token, not consumed.
    pub fn peek(&mut self) -> Token {
        self.lex().0
    }

    /// Consumes and returns the next token.
    pub fn next_token(&mut self) -> Token {
        let (tok, len) = self.lex();
        if let Some(c) = self.stack.last_mut() {
            c.pos += len;
        }
        if !tok.is_eof() {
            self.prev_line = tok.line;
            self.prev_source = tok.source;
        }
        self.prev = Some(tok.clone());
        tok
    }

    /// Consumes the next token if it is `text`.
    pub fn consume(&mut self, text: &str) -> bool {
        if self.peek().text == text {
            self.next_token();
            true
        } else {
            false
        }
    }

    /// The raw text from `from` (a token's start) up to the cursor, in the same source; used
    /// to keep a `VERSION` block's text and an assignment's text for `-Map`.
    pub fn text_between(&self, from: &Token, to: &Token) -> String {
        if from.source != to.source {
            return String::new();
        }
        self.sources
            .get(from.source)
            .and_then(|s| s.text.get(from.offset..to.offset.max(from.offset)))
            .unwrap_or("")
            .to_string()
    }

    /// The path of the source a token came from.
    pub fn path_of_token(&self, tok: &Token) -> Arc<Path> {
        self.path_of(tok.source)
    }

    /// The offset just past the last token consumed, as a zero-length marker token.
    pub fn after_prev(&self) -> Option<Token> {
        self.prev.as_ref().map(|t| Token {
            text: String::new(),
            line: t.line,
            source: t.source,
            offset: t.offset + t.text.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str, state: LexState) -> Vec<String> {
        let mut lx = Lexer::new(text, Path::new("t.lds"));
        lx.state = state;
        let mut out = Vec::new();
        loop {
            let t = lx.next_token();
            if t.is_eof() {
                return out;
            }
            out.push(t.text);
        }
    }

    #[test]
    fn script_state_keeps_file_names_whole() {
        assert_eq!(
            tokens(
                "*crtbegin?.o(.ctors) lib/libx-1.0.a:m.o ~x [ab]* \"a b\"",
                LexState::Script
            ),
            [
                "*crtbegin?.o",
                "(",
                ".ctors",
                ")",
                "lib/libx-1.0.a:m.o",
                "~x",
                "[ab]*",
                "\"a b\""
            ]
        );
        // `=`, `+`, `-` are name characters here, as in lld: `x=1` is one token.
        assert_eq!(tokens("x=1;", LexState::Script), ["x=1", ";"]);
    }

    #[test]
    fn expr_state_splits_operators() {
        assert_eq!(tokens("a+b", LexState::Expr), ["a", "+", "b"]);
        assert_eq!(tokens("x>>=2", LexState::Expr), ["x", ">>=", "2"]);
        assert_eq!(
            tokens("a<<b>=c&&d||e!=f==g<=h", LexState::Expr),
            ["a", "<<", "b", ">=", "c", "&&", "d", "||", "e", "!=", "f", "==", "g", "<=", "h"]
        );
        assert_eq!(
            tokens(".=ALIGN(8)", LexState::Expr),
            [".", "=", "ALIGN", "(", "8", ")"]
        );
        assert_eq!(tokens("a-=1", LexState::Expr), ["a", "-=", "1"]);
    }

    #[test]
    fn comments_and_lines() {
        let mut lx = Lexer::new("/* a\nb */ x # c\n\ny", Path::new("t.lds"));
        let x = lx.next_token();
        assert_eq!((x.text.as_str(), x.line), ("x", 2));
        let y = lx.next_token();
        assert_eq!((y.text.as_str(), y.line), ("y", 4));
        assert!(lx.next_token().is_eof());
    }

    #[test]
    fn unclosed_comment_and_quote() {
        let mut lx = Lexer::new("x /* y", Path::new("t.lds"));
        lx.next_token();
        assert!(lx.next_token().is_eof());
        let e = lx.take_pending().map(|e| e.0);
        assert_eq!(
            e.as_deref(),
            Some("t.lds:1: unclosed comment in a linker script\n>>> x /* y\n>>> ^")
        );
        let mut lx = Lexer::new("\n\"abc", Path::new("t.lds"));
        assert!(lx.next_token().is_eof());
        assert_eq!(
            lx.take_pending().map(|e| e.0).as_deref(),
            Some("t.lds:2: unclosed quote")
        );
    }

    #[test]
    fn multibyte_characters_stay_in_words() {
        assert_eq!(tokens("é(", LexState::Expr), ["é", "("]);
        assert_eq!(tokens("aé b", LexState::Script), ["aé", "b"]);
        assert_eq!(
            tokens("caf\u{e9}.o)", LexState::Script),
            ["caf\u{e9}.o", ")"]
        );
    }

    #[test]
    fn includes_splice_and_cycles_fail() {
        let mut lx = Lexer::new("a b", Path::new("t.lds"));
        assert_eq!(lx.next_token().text, "a");
        lx.push_include("inc", Path::new("inc.lds"), "c\nd".into())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(lx.next_token().text, "c");
        let d = lx.next_token();
        assert_eq!((d.text.as_str(), d.line), ("d", 2));
        assert_eq!(lx.loc().to_string(), "inc.lds:2");
        assert_eq!(lx.next_token().text, "b");
        lx.push_include("inc", Path::new("inc.lds"), "inc2".into())
            .unwrap_or_else(|e| panic!("{e}"));
        let e = lx.push_include("inc", Path::new("inc.lds"), String::new());
        assert!(e.is_err_and(|e| e.0.contains("there is a cycle in linker script INCLUDEs")));
    }
}
