//! The linker script language as lld reads it: the lexer ([`lexer`]), the tree ([`ast`]),
//! expressions and their evaluation ([`expr`]), and the parser ([`parser`]). This layer only
//! reads text: it imports nothing of the link but `crate::error` and `crate::glob` (input
//! section patterns are lld's globs, [`matching`]); layout gives the tree its meaning,
//! implementing [`expr::EvalContext`] to evaluate expressions.
//!
//! ```text
//! let script = script::parse(&text, path)?;                // INCLUDE is an error
//! let script = script::parse_with_includes(&text, path, &mut find)?;  // caller finds files
//! ```

#![warn(missing_docs)]

pub mod ast;
pub mod expr;
pub mod lexer;
pub mod matching;
pub mod parser;

#[cfg(test)]
mod tests;

pub use ast::Script;
pub use parser::{parse, parse_with_includes, Included};
