//! Linker script expressions: the tree the parser builds, lld's number syntax, and a pure
//! evaluator. Layout evaluates an expression as many times as it needs (addresses move while
//! sections are placed), so evaluation asks an [`EvalContext`] for everything that is not in
//! the expression itself and changes nothing.
//!
//! Values follow lld's `ExprValue`: a value is either absolute or an offset from an output
//! section's start, so that `foo = .;` inside `.data` defines a section-relative symbol even
//! when `.data` moves.

use crate::bail;
use crate::error::Result;

use super::lexer::Loc;

/// A binary operator, with C precedence as lld gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    And,
    /// `^`
    Xor,
    /// `|`
    Or,
    /// `&&`
    LogAnd,
    /// `||`
    LogOr,
}

impl BinOp {
    /// The operator a token names, with its precedence (higher binds tighter); `?` is 1 and
    /// handled by the parser.
    pub fn from_token(tok: &str) -> Option<(BinOp, u8)> {
        Some(match tok {
            "*" => (BinOp::Mul, 11),
            "/" => (BinOp::Div, 11),
            "%" => (BinOp::Mod, 11),
            "+" => (BinOp::Add, 10),
            "-" => (BinOp::Sub, 10),
            "<<" => (BinOp::Shl, 9),
            ">>" => (BinOp::Shr, 9),
            "<" => (BinOp::Lt, 8),
            "<=" => (BinOp::Le, 8),
            ">" => (BinOp::Gt, 8),
            ">=" => (BinOp::Ge, 8),
            "==" => (BinOp::Eq, 7),
            "!=" => (BinOp::Ne, 7),
            "&" => (BinOp::And, 6),
            "^" => (BinOp::Xor, 5),
            "|" => (BinOp::Or, 4),
            "&&" => (BinOp::LogAnd, 3),
            "||" => (BinOp::LogOr, 2),
            _ => return None,
        })
    }
}

/// The operator of an assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`
    Add,
    /// `-=`
    Sub,
    /// `*=`
    Mul,
    /// `/=`
    Div,
    /// `<<=`
    Shl,
    /// `>>=`
    Shr,
    /// `&=`
    And,
    /// `^=`
    Xor,
    /// `|=`
    Or,
}

impl AssignOp {
    /// The binary operator a compound assignment applies (`+=` is `+`); `None` for `=`.
    pub fn bin_op(self) -> Option<BinOp> {
        Some(match self {
            AssignOp::Set => return None,
            AssignOp::Add => BinOp::Add,
            AssignOp::Sub => BinOp::Sub,
            AssignOp::Mul => BinOp::Mul,
            AssignOp::Div => BinOp::Div,
            AssignOp::Shl => BinOp::Shl,
            AssignOp::Shr => BinOp::Shr,
            AssignOp::And => BinOp::And,
            AssignOp::Xor => BinOp::Xor,
            AssignOp::Or => BinOp::Or,
        })
    }

    /// The operator a token names.
    pub fn from_token(tok: &str) -> Option<AssignOp> {
        Some(match tok {
            "=" => AssignOp::Set,
            "+=" => AssignOp::Add,
            "-=" => AssignOp::Sub,
            "*=" => AssignOp::Mul,
            "/=" => AssignOp::Div,
            "<<=" => AssignOp::Shl,
            ">>=" => AssignOp::Shr,
            "&=" => AssignOp::And,
            "^=" => AssignOp::Xor,
            "|=" => AssignOp::Or,
            _ => return None,
        })
    }
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `~x`
    Not,
    /// `!x`
    LogNot,
}

/// `CONSTANT(...)`'s argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constant {
    /// `MAXPAGESIZE`
    MaxPageSize,
    /// `COMMONPAGESIZE`
    CommonPageSize,
}

/// An expression. Nodes whose evaluation can fail carry the location lld names in the message.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A literal.
    Number(u64),
    /// The location counter `.`.
    Dot(Loc),
    /// A symbol's value (`"quoted"` names are unquoted).
    Symbol(String, Loc),
    /// `-e`, `~e`, `!e` (unary `+` is dropped by the parser).
    Unary(UnOp, Box<Expr>),
    /// `l OP r`.
    Binary(BinOp, Box<Expr>, Box<Expr>, Loc),
    /// `c ? t : f`.
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `ABSOLUTE(e)`.
    Absolute(Box<Expr>),
    /// `ADDR(section)`.
    Addr(String, Loc),
    /// `LOADADDR(section)`.
    LoadAddr(String, Loc),
    /// `SIZEOF(section)`: 0 for a section that does not exist, as in lld.
    SizeOf(String),
    /// `ALIGNOF(section)`.
    AlignOf(String, Loc),
    /// `SIZEOF_HEADERS`.
    SizeOfHeaders,
    /// `ALIGN(align)`: the location counter aligned up.
    Align(Box<Expr>, Loc),
    /// `ALIGN(e, align)`: `e` aligned up.
    AlignTo(Box<Expr>, Box<Expr>, Loc),
    /// `DATA_SEGMENT_ALIGN(maxpagesize, commonpagesize)`; lld uses only the first.
    DataSegmentAlign(Box<Expr>, Box<Expr>),
    /// `DATA_SEGMENT_END(.)`.
    DataSegmentEnd,
    /// `DATA_SEGMENT_RELRO_END(offset, e)`; lld aligns `.` to the max page size.
    DataSegmentRelroEnd(Box<Expr>, Box<Expr>),
    /// `DEFINED(sym)`. `order` counts script assignments and `DEFINED`s in script order: a
    /// symbol the script defines counts only if its assignment comes first (lld's rule).
    Defined {
        /// The symbol.
        name: String,
        /// Position among script symbol assignments.
        order: u32,
    },
    /// `CONSTANT(MAXPAGESIZE|COMMONPAGESIZE)`.
    Constant(Constant, Loc),
    /// `SEGMENT_START(segment, default)`: the default, as in lld.
    SegmentStart(String, Box<Expr>),
    /// `ORIGIN(region)`.
    Origin(String, Loc),
    /// `LENGTH(region)`.
    Length(String, Loc),
    /// `MAX(a, b)`.
    Max(Box<Expr>, Box<Expr>),
    /// `MIN(a, b)`.
    Min(Box<Expr>, Box<Expr>),
    /// `LOG2CEIL(e)`.
    Log2Ceil(Box<Expr>),
    /// `ASSERT(cond, message)` as an expression: fails with `message` when `cond` is 0,
    /// otherwise is the location counter.
    Assert(Box<Expr>, String, Loc),
}

impl Expr {
    /// Calls `f` on the expression and every expression inside it, outermost first.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        fn walk(e: &Expr, f: &mut dyn FnMut(&Expr), depth: u32) {
            if depth > MAX_EVAL_DEPTH {
                return;
            }
            f(e);
            match e {
                Expr::Unary(_, a)
                | Expr::Absolute(a)
                | Expr::Align(a, _)
                | Expr::Log2Ceil(a)
                | Expr::SegmentStart(_, a)
                | Expr::Assert(a, _, _) => walk(a, f, depth + 1),
                Expr::Binary(_, a, b, _)
                | Expr::AlignTo(a, b, _)
                | Expr::DataSegmentAlign(a, b)
                | Expr::DataSegmentRelroEnd(a, b)
                | Expr::Max(a, b)
                | Expr::Min(a, b) => {
                    walk(a, f, depth + 1);
                    walk(b, f, depth + 1);
                }
                Expr::Ternary(a, b, c) => {
                    walk(a, f, depth + 1);
                    walk(b, f, depth + 1);
                    walk(c, f, depth + 1);
                }
                _ => {}
            }
        }
        walk(self, f, 0);
    }

    /// Whether the expression reads the location counter.
    pub fn reads_dot(&self) -> bool {
        let mut dot = false;
        self.visit(&mut |e| dot |= matches!(e, Expr::Dot(_)));
        dot
    }

    /// The symbols the expression reads, in order (lld's `referencedSymbols`: each is kept by
    /// the link and may load an archive member).
    pub fn symbols(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Symbol(name, _) = e {
                out.push(name.clone());
            }
        });
        out
    }
}

/// lld's number syntax: `0x`/`0X` prefix (hex), `h`/`H` suffix (hex), `k`/`K` (KiB) and
/// `m`/`M` (MiB) suffixes on decimals, otherwise decimal (a leading `0` is not octal). GNU ld's
/// `o`, `b`, `d` and `x` radix suffixes are not numbers to lld (`malformed number`), nor here.
pub fn parse_number(tok: &str) -> Option<u64> {
    fn digits(s: &str, radix: u32) -> Option<u64> {
        if s.is_empty() || !s.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        u64::from_str_radix(s, radix).ok()
    }
    let lower = tok.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        return digits(hex, 16);
    }
    if let Some(hex) = lower.strip_suffix('h') {
        return digits(hex, 16);
    }
    if let Some(k) = lower.strip_suffix('k') {
        return digits(k, 10)?.checked_mul(1024);
    }
    if let Some(m) = lower.strip_suffix('m') {
        return digits(m, 10)?.checked_mul(1024 * 1024);
    }
    digits(&lower, 10)
}

/// A value: absolute, or an offset from an output section (lld's `ExprValue`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// The section the value is relative to, with that section's address.
    pub section: Option<SectionBase>,
    /// The offset from the section's start (or the absolute value).
    pub offset: u64,
    /// Set by `ABSOLUTE(...)`: the value is absolute even though it was computed from a
    /// section-relative one.
    pub force_absolute: bool,
    /// Set by two-argument `ALIGN(e, a)`: the value is aligned to this when read.
    pub alignment: u64,
}

/// An output section a value is relative to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionBase {
    /// The output section's name.
    pub name: String,
    /// Its address.
    pub addr: u64,
}

fn align_up(v: u64, align: u64) -> u64 {
    if align <= 1 {
        return v;
    }
    // `align` is any nonzero number here, as in lld's `alignTo`.
    v.div_ceil(align).wrapping_mul(align)
}

impl Value {
    /// An absolute value.
    pub fn absolute(v: u64) -> Value {
        Value {
            section: None,
            offset: v,
            force_absolute: false,
            alignment: 1,
        }
    }

    /// A value `offset` bytes into section `name` at `addr`.
    pub fn in_section(name: &str, addr: u64, offset: u64) -> Value {
        Value {
            section: Some(SectionBase {
                name: name.to_string(),
                addr,
            }),
            offset,
            force_absolute: false,
            alignment: 1,
        }
    }

    /// True if the value does not move with a section.
    pub fn is_absolute(&self) -> bool {
        self.force_absolute || self.section.is_none()
    }

    /// The value as an address (lld's `getValue`).
    pub fn value(&self) -> u64 {
        match &self.section {
            Some(s) => align_up(s.addr.wrapping_add(self.offset), self.alignment),
            None => align_up(self.offset, self.alignment),
        }
    }

    fn section_addr(&self) -> u64 {
        self.section.as_ref().map_or(0, |s| s.addr)
    }

    /// The value minus its section's address.
    pub fn section_offset(&self) -> u64 {
        self.value().wrapping_sub(self.section_addr())
    }
}

/// What an output section looks like to an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionInfo {
    /// Virtual address.
    pub addr: u64,
    /// Load address.
    pub lma: u64,
    /// Size in bytes.
    pub size: u64,
    /// Alignment.
    pub alignment: u64,
}

/// What evaluation asks of the layout.
pub trait EvalContext {
    /// The location counter: section-relative inside an output section, absolute outside.
    fn dot(&self) -> Result<Value>;
    /// A symbol's value, or `None` if there is no such symbol (`symbol not found: NAME`).
    fn symbol(&self, name: &str) -> Option<Value>;
    /// An output section the script or the inputs make, or `None` if there is none.
    fn section(&self, name: &str) -> Option<SectionInfo>;
    /// The size of the ELF header and program headers.
    fn size_of_headers(&self) -> u64;
    /// `-z max-page-size`.
    fn max_page_size(&self) -> u64;
    /// `-z common-page-size`.
    fn common_page_size(&self) -> u64;
    /// A memory region's origin and length, or `None` if no region has this name.
    fn memory_region(&self, name: &str) -> Option<(u64, u64)>;
    /// `DEFINED(name)`: whether the symbol is defined; `order` is the `DEFINED`'s position
    /// among script assignments (see [`Expr::Defined`]).
    fn is_defined(&self, name: &str, order: u32) -> bool;
}

/// How deep an expression tree may be evaluated; the parser caps nesting lower.
const MAX_EVAL_DEPTH: u32 = 1000;

/// Evaluates an expression. Errors are lld's: `FILE:LINE: division by zero`,
/// `FILE:LINE: undefined section NAME`, `FILE:LINE: symbol not found: NAME`, ...; a failed
/// `ASSERT` is its message alone, as lld prints it.
pub fn eval(e: &Expr, cx: &dyn EvalContext) -> Result<Value> {
    eval_at(e, cx, 0)
}

fn check_alignment(v: u64, loc: &Loc) -> Result<u64> {
    let a = v.max(1);
    if !a.is_power_of_two() {
        bail!("{loc}: alignment must be power of 2");
    }
    Ok(a)
}

fn eval_at(e: &Expr, cx: &dyn EvalContext, depth: u32) -> Result<Value> {
    if depth > MAX_EVAL_DEPTH {
        bail!("expression nested too deeply");
    }
    let sub = |x: &Expr| eval_at(x, cx, depth + 1);
    let num = |x: &Expr| sub(x).map(|v| v.value());
    let abs = |v: u64| Ok(Value::absolute(v));
    match e {
        Expr::Number(n) => abs(*n),
        Expr::Dot(_) => cx.dot(),
        Expr::Symbol(name, loc) => match cx.symbol(name) {
            Some(v) => Ok(v),
            None => bail!("{loc}: symbol not found: {name}"),
        },
        Expr::Unary(op, x) => {
            let v = num(x)?;
            abs(match op {
                UnOp::Neg => v.wrapping_neg(),
                UnOp::Not => !v,
                UnOp::LogNot => (v == 0) as u64,
            })
        }
        Expr::Binary(op, l, r, loc) => binary(*op, sub(l)?, sub(r)?, loc),
        Expr::Ternary(c, t, f) => {
            if num(c)? != 0 {
                sub(t)
            } else {
                sub(f)
            }
        }
        Expr::Absolute(x) => {
            let mut v = sub(x)?;
            v.force_absolute = true;
            Ok(v)
        }
        Expr::Addr(name, loc) => match cx.section(name) {
            Some(s) => Ok(Value::in_section(name, s.addr, 0)),
            None => bail!("{loc}: undefined section {name}"),
        },
        Expr::LoadAddr(name, loc) => match cx.section(name) {
            Some(s) => abs(s.lma),
            None => bail!("{loc}: undefined section {name}"),
        },
        Expr::SizeOf(name) => abs(cx.section(name).map_or(0, |s| s.size)),
        Expr::AlignOf(name, loc) => match cx.section(name) {
            Some(s) => abs(s.alignment),
            None => bail!("{loc}: undefined section {name}"),
        },
        Expr::SizeOfHeaders => abs(cx.size_of_headers()),
        Expr::Align(a, loc) => {
            let a = check_alignment(num(a)?, loc)?;
            // lld aligns the dot's address, and the result is absolute.
            abs(align_up(cx.dot()?.value(), a))
        }
        Expr::AlignTo(x, a, loc) => {
            let mut v = sub(x)?;
            v.alignment = check_alignment(num(a)?, loc)?;
            Ok(v)
        }
        Expr::DataSegmentAlign(max, _) => {
            let a = num(max)?.max(1);
            let dot = cx.dot()?.value();
            abs(dot.wrapping_add(a - 1) & a.wrapping_neg())
        }
        Expr::DataSegmentEnd => abs(cx.dot()?.value()),
        Expr::DataSegmentRelroEnd(..) => abs(align_up(cx.dot()?.value(), cx.max_page_size())),
        Expr::Defined { name, order } => abs(cx.is_defined(name, *order) as u64),
        Expr::Constant(Constant::MaxPageSize, _) => abs(cx.max_page_size()),
        Expr::Constant(Constant::CommonPageSize, _) => abs(cx.common_page_size()),
        Expr::SegmentStart(_, d) => sub(d),
        Expr::Origin(name, loc) | Expr::Length(name, loc) => match cx.memory_region(name) {
            Some((origin, length)) => abs(if matches!(e, Expr::Origin(..)) {
                origin
            } else {
                length
            }),
            None => bail!("{loc}: memory region not defined: {name}"),
        },
        Expr::Max(a, b) => abs(num(a)?.max(num(b)?)),
        Expr::Min(a, b) => abs(num(a)?.min(num(b)?)),
        Expr::Log2Ceil(x) => {
            let v = num(x)?.max(1);
            abs(64 - u64::from((v - 1).leading_zeros()))
        }
        Expr::Assert(c, msg, _) => {
            if num(c)? == 0 {
                bail!("{msg}");
            }
            cx.dot()
        }
    }
}

/// The value an assignment gives its symbol (lld's `readSymbolAssignment`): `rhs` for `=`;
/// for a compound operator, the symbol's current value (`.` for the location counter; a
/// missing symbol is `symbol not found: NAME`) combined with `rhs`. `+=` and `-=` keep a
/// section-relative operand's section, as `+` and `-` do; the others give absolute values.
pub fn eval_assignment(
    name: &str,
    op: AssignOp,
    rhs: &Expr,
    loc: &Loc,
    cx: &dyn EvalContext,
) -> Result<Value> {
    if op == AssignOp::Set {
        return eval(rhs, cx);
    }
    let lhs = if name == "." {
        cx.dot()?
    } else {
        match cx.symbol(name) {
            Some(v) => v,
            None => bail!("{loc}: symbol not found: {name}"),
        }
    };
    let r = eval(rhs, cx)?;
    let (x, y) = (lhs.value(), r.value());
    Ok(Value::absolute(match op {
        AssignOp::Add => return binary(BinOp::Add, lhs, r, loc),
        AssignOp::Sub => return binary(BinOp::Sub, lhs, r, loc),
        AssignOp::Mul => x.wrapping_mul(y),
        AssignOp::Div => {
            if y == 0 {
                bail!("{loc}: division by zero");
            }
            x / y
        }
        AssignOp::Shl => x << (y % 64),
        AssignOp::Shr => x >> (y % 64),
        AssignOp::And => x & y,
        AssignOp::Xor => x ^ y,
        AssignOp::Or => x | y,
        AssignOp::Set => y,
    }))
}

/// lld's `moveAbsRight`: of two operands, at most one may be section-relative; it goes left.
fn move_abs_right(a: Value, b: Value, loc: &Loc) -> Result<(Value, Value)> {
    let (a, b) = if a.section.is_none() || (a.force_absolute && !b.is_absolute()) {
        (b, a)
    } else {
        (a, b)
    };
    if !b.is_absolute() {
        bail!("{loc}: at least one side of the expression must be absolute");
    }
    Ok((a, b))
}

/// Applies `op`. `+`, `-`, `&`, `^`, `|` keep a section-relative operand's section (so that
/// `. + 4` inside a section stays inside it); the difference of two section-relative values
/// is absolute; every other operator gives an absolute value.
pub fn binary(op: BinOp, l: Value, r: Value, loc: &Loc) -> Result<Value> {
    let keep = |a: Value, v: u64| -> Result<Value> {
        let base = a.section_addr();
        Ok(Value {
            offset: v.wrapping_sub(base),
            alignment: 1,
            ..a
        })
    };
    let abs = |v: u64| Ok(Value::absolute(v));
    match op {
        BinOp::Add => {
            let (a, b) = move_abs_right(l, r, loc)?;
            let v = a.section_offset().wrapping_add(b.value());
            Ok(Value {
                offset: v,
                alignment: 1,
                ..a
            })
        }
        BinOp::Sub => {
            if !l.is_absolute() && !r.is_absolute() {
                return abs(l.value().wrapping_sub(r.value()));
            }
            let v = l.section_offset().wrapping_sub(r.value());
            Ok(Value {
                offset: v,
                force_absolute: false,
                alignment: 1,
                ..l
            })
        }
        BinOp::And | BinOp::Xor | BinOp::Or => {
            let (a, b) = move_abs_right(l, r, loc)?;
            let (x, y) = (a.value(), b.value());
            let v = match op {
                BinOp::And => x & y,
                BinOp::Xor => x ^ y,
                _ => x | y,
            };
            keep(a, v)
        }
        _ => {
            let (x, y) = (l.value(), r.value());
            abs(match op {
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div => {
                    if y == 0 {
                        bail!("{loc}: division by zero");
                    }
                    x / y
                }
                BinOp::Mod => {
                    if y == 0 {
                        bail!("{loc}: modulo by zero");
                    }
                    x % y
                }
                BinOp::Shl => x << (y % 64),
                BinOp::Shr => x >> (y % 64),
                BinOp::Lt => (x < y) as u64,
                BinOp::Le => (x <= y) as u64,
                BinOp::Gt => (x > y) as u64,
                BinOp::Ge => (x >= y) as u64,
                BinOp::Eq => (x == y) as u64,
                BinOp::Ne => (x != y) as u64,
                BinOp::LogAnd => (x != 0 && y != 0) as u64,
                BinOp::LogOr => (x != 0 || y != 0) as u64,
                BinOp::Add | BinOp::Sub | BinOp::And | BinOp::Xor | BinOp::Or => 0,
            })
        }
    }
}

/// Evaluates an expression that names nothing of the layout (no `.`, symbol, section,
/// region or page size); `None` for any other. The parser uses it where lld evaluates at parse
/// time (a `=fill` value, `PHDRS` `FLAGS`, `TYPE =`).
pub fn eval_constant(e: &Expr) -> Option<Result<u64>> {
    struct NoLayout;
    impl EvalContext for NoLayout {
        fn dot(&self) -> Result<Value> {
            Err("".into())
        }
        fn symbol(&self, _: &str) -> Option<Value> {
            None
        }
        fn section(&self, _: &str) -> Option<SectionInfo> {
            None
        }
        fn size_of_headers(&self) -> u64 {
            0
        }
        fn max_page_size(&self) -> u64 {
            0
        }
        fn common_page_size(&self) -> u64 {
            0
        }
        fn memory_region(&self, _: &str) -> Option<(u64, u64)> {
            None
        }
        fn is_defined(&self, _: &str, _: u32) -> bool {
            false
        }
    }
    if !is_constant(e, 0) {
        return None;
    }
    Some(eval(e, &NoLayout).map(|v| v.value()))
}

fn is_constant(e: &Expr, depth: u32) -> bool {
    if depth > MAX_EVAL_DEPTH {
        return false;
    }
    let c = |x: &Expr| is_constant(x, depth + 1);
    match e {
        Expr::Number(_) => true,
        Expr::Unary(_, x) | Expr::Absolute(x) | Expr::Log2Ceil(x) | Expr::SegmentStart(_, x) => {
            c(x)
        }
        Expr::Binary(_, a, b, _) | Expr::Max(a, b) | Expr::Min(a, b) | Expr::AlignTo(a, b, _) => {
            c(a) && c(b)
        }
        Expr::Ternary(a, b, d) => c(a) && c(b) && c(d),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::path::Path;
    use std::sync::Arc;

    fn loc() -> Loc {
        Loc {
            file: Arc::from(Path::new("t.lds")),
            line: 3,
        }
    }

    #[test]
    fn numbers_follow_lld() {
        let cases: &[(&str, Option<u64>)] = &[
            ("0x10", Some(16)),
            ("0X1f", Some(31)),
            ("1Ah", Some(26)),
            ("1ah", Some(26)),
            ("010", Some(10)),
            ("08", Some(8)),
            ("4K", Some(4096)),
            ("1k", Some(1024)),
            ("2M", Some(2 << 20)),
            ("1m", Some(1 << 20)),
            ("18446744073709551615", Some(u64::MAX)),
            ("99999999999999999999", None),
            ("0x", None),
            ("0x10K", None),
            ("101b", None),
            ("17o", None),
            ("10d", None),
            ("1G", None),
            ("1_000", None),
            ("H", None),
            ("+1", None),
        ];
        for (tok, want) in cases {
            assert_eq!(parse_number(tok), *want, "{tok}");
        }
    }

    struct Cx {
        dot: Value,
        symbols: HashMap<&'static str, Value>,
        sections: HashMap<&'static str, SectionInfo>,
    }

    impl EvalContext for Cx {
        fn dot(&self) -> Result<Value> {
            Ok(self.dot.clone())
        }
        fn symbol(&self, name: &str) -> Option<Value> {
            self.symbols.get(name).cloned()
        }
        fn section(&self, name: &str) -> Option<SectionInfo> {
            self.sections.get(name).copied()
        }
        fn size_of_headers(&self) -> u64 {
            0x40 + 56 * 4
        }
        fn max_page_size(&self) -> u64 {
            0x1000
        }
        fn common_page_size(&self) -> u64 {
            0x1000
        }
        fn memory_region(&self, name: &str) -> Option<(u64, u64)> {
            (name == "ram").then_some((0x2000_0000, 0x1_0000))
        }
        fn is_defined(&self, name: &str, order: u32) -> bool {
            name == "a" && order > 0
        }
    }

    fn cx() -> Cx {
        let text = SectionInfo {
            addr: 0x1000,
            lma: 0x8000,
            size: 0x123,
            alignment: 16,
        };
        Cx {
            dot: Value::in_section(".text", 0x1000, 0x10),
            symbols: [
                ("a", Value::absolute(5)),
                ("t", Value::in_section(".text", 0x1000, 0x20)),
                ("d", Value::in_section(".data", 0x3000, 0x8)),
            ]
            .into(),
            sections: [(".text", text)].into(),
        }
    }

    fn b(op: BinOp, l: Expr, r: Expr) -> Expr {
        Expr::Binary(op, Box::new(l), Box::new(r), loc())
    }
    fn n(v: u64) -> Expr {
        Expr::Number(v)
    }
    fn sym(s: &str) -> Expr {
        Expr::Symbol(s.into(), loc())
    }
    fn val(e: &Expr) -> u64 {
        eval(e, &cx())
            .map(|v| v.value())
            .unwrap_or_else(|e| panic!("{e}"))
    }
    fn err(e: &Expr) -> String {
        match eval(e, &cx()) {
            Ok(v) => panic!("expected an error, got {v:?}"),
            Err(e) => e.0,
        }
    }

    #[test]
    fn operators() {
        use BinOp::*;
        let cases = [
            (b(Mul, n(6), n(7)), 42),
            (b(Div, n(7), n(2)), 3),
            (b(Mod, n(7), n(4)), 3),
            (b(Add, n(1), n(2)), 3),
            (b(Sub, n(1), n(2)), u64::MAX),
            (b(Shl, n(1), n(65)), 2),
            (b(Shr, n(8), n(2)), 2),
            (b(Lt, n(1), n(2)), 1),
            (b(Le, n(2), n(2)), 1),
            (b(Gt, n(1), n(2)), 0),
            (b(Ge, n(1), n(2)), 0),
            (b(Eq, n(2), n(2)), 1),
            (b(Ne, n(2), n(2)), 0),
            (b(And, n(6), n(3)), 2),
            (b(Xor, n(6), n(3)), 5),
            (b(Or, n(6), n(3)), 7),
            (b(LogAnd, n(6), n(0)), 0),
            (b(LogOr, n(0), n(3)), 1),
            (Expr::Unary(UnOp::Neg, Box::new(n(1))), u64::MAX),
            (Expr::Unary(UnOp::Not, Box::new(n(0))), u64::MAX),
            (Expr::Unary(UnOp::LogNot, Box::new(n(0))), 1),
            (
                Expr::Ternary(Box::new(n(0)), Box::new(n(1)), Box::new(n(2))),
                2,
            ),
        ];
        for (e, want) in cases {
            assert_eq!(val(&e), want, "{e:?}");
        }
    }

    #[test]
    fn functions() {
        let bx = Box::new;
        let cases = [
            (Expr::Addr(".text".into(), loc()), 0x1000),
            (Expr::LoadAddr(".text".into(), loc()), 0x8000),
            (Expr::SizeOf(".text".into()), 0x123),
            (Expr::SizeOf(".nope".into()), 0),
            (Expr::AlignOf(".text".into(), loc()), 16),
            (Expr::SizeOfHeaders, 0x120),
            (Expr::Align(bx(n(0x100)), loc()), 0x1100),
            (Expr::AlignTo(bx(n(0x1001)), bx(n(0x10)), loc()), 0x1010),
            (
                Expr::DataSegmentAlign(bx(n(0x200000)), bx(n(0x1000))),
                0x200000,
            ),
            (Expr::DataSegmentEnd, 0x1010),
            (Expr::DataSegmentRelroEnd(bx(n(0)), bx(n(0))), 0x2000),
            (
                Expr::Defined {
                    name: "a".into(),
                    order: 1,
                },
                1,
            ),
            (
                Expr::Defined {
                    name: "a".into(),
                    order: 0,
                },
                0,
            ),
            (Expr::Constant(Constant::MaxPageSize, loc()), 0x1000),
            (Expr::Constant(Constant::CommonPageSize, loc()), 0x1000),
            (
                Expr::SegmentStart("text-segment".into(), bx(n(0x400000))),
                0x400000,
            ),
            (Expr::Origin("ram".into(), loc()), 0x2000_0000),
            (Expr::Length("ram".into(), loc()), 0x1_0000),
            (Expr::Max(bx(n(1)), bx(n(2))), 2),
            (Expr::Min(bx(n(1)), bx(n(2))), 1),
            (Expr::Log2Ceil(bx(n(0))), 0),
            (Expr::Log2Ceil(bx(n(1))), 0),
            (Expr::Log2Ceil(bx(n(5))), 3),
            (Expr::Log2Ceil(bx(n(8))), 3),
            (Expr::Log2Ceil(bx(n(u64::MAX))), 64),
            (Expr::Assert(bx(n(1)), "m".into(), loc()), 0x1010),
            (Expr::Dot(loc()), 0x1010),
        ];
        for (e, want) in cases {
            assert_eq!(val(&e), want, "{e:?}");
        }
    }

    #[test]
    fn section_relative_values() {
        // `t + 4` stays in .text; `t - 4` too; `t - t2` of two sections is absolute.
        let plus = eval(&b(BinOp::Add, n(4), sym("t")), &cx()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(plus, Value::in_section(".text", 0x1000, 0x24));
        let minus = eval(&b(BinOp::Sub, sym("t"), n(4)), &cx()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(minus, Value::in_section(".text", 0x1000, 0x1c));
        let dist =
            eval(&b(BinOp::Sub, sym("d"), sym("t")), &cx()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(dist, Value::absolute(0x3008 - 0x1020));
        // `&` keeps the section: (0x1020 & ~0xff) is 0x1000, offset 0.
        let and = eval(&b(BinOp::And, sym("t"), n(!0xff)), &cx()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(and, Value::in_section(".text", 0x1000, 0));
        // `*` does not.
        let mul = eval(&b(BinOp::Mul, sym("t"), n(1)), &cx()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mul, Value::absolute(0x1020));
        // ABSOLUTE marks the value; + with an absolute-forced value keeps the other section.
        let a = Expr::Absolute(Box::new(sym("t")));
        let v = eval(&a, &cx()).unwrap_or_else(|e| panic!("{e}"));
        assert!(v.is_absolute());
        assert_eq!(v.value(), 0x1020);
        let mixed = eval(&b(BinOp::Add, a, sym("d")), &cx()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mixed, Value::in_section(".data", 0x3000, 0x8 + 0x1020));
        // ALIGN(e, a) of a section-relative value aligns the address.
        let al = Expr::AlignTo(Box::new(sym("t")), Box::new(n(0x40)), loc());
        assert_eq!(val(&al), 0x1040);
    }

    #[test]
    fn errors_in_lld_wording() {
        assert_eq!(err(&b(BinOp::Div, n(1), n(0))), "t.lds:3: division by zero");
        assert_eq!(err(&b(BinOp::Mod, n(1), n(0))), "t.lds:3: modulo by zero");
        assert_eq!(err(&sym("nope")), "t.lds:3: symbol not found: nope");
        assert_eq!(
            err(&Expr::Addr(".foo".into(), loc())),
            "t.lds:3: undefined section .foo"
        );
        assert_eq!(
            err(&Expr::LoadAddr(".foo".into(), loc())),
            "t.lds:3: undefined section .foo"
        );
        assert_eq!(
            err(&Expr::AlignOf(".foo".into(), loc())),
            "t.lds:3: undefined section .foo"
        );
        assert_eq!(
            err(&Expr::Align(Box::new(n(3)), loc())),
            "t.lds:3: alignment must be power of 2"
        );
        assert_eq!(
            err(&b(BinOp::Add, sym("t"), sym("d"))),
            "t.lds:3: at least one side of the expression must be absolute"
        );
        assert_eq!(
            err(&Expr::Origin("rom".into(), loc())),
            "t.lds:3: memory region not defined: rom"
        );
        assert_eq!(
            err(&Expr::Assert(Box::new(n(0)), "too big".into(), loc())),
            "too big"
        );
    }

    #[test]
    fn compound_assignments() {
        let one = n(1);
        let run =
            |name: &str, op: AssignOp, rhs: &Expr| eval_assignment(name, op, rhs, &loc(), &cx());
        let v = |r: Result<Value>| r.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v(run("a", AssignOp::Set, &n(9))), Value::absolute(9));
        assert_eq!(v(run("a", AssignOp::Add, &one)), Value::absolute(6));
        assert_eq!(v(run("a", AssignOp::Sub, &one)), Value::absolute(4));
        assert_eq!(v(run("a", AssignOp::Mul, &n(3))), Value::absolute(15));
        assert_eq!(v(run("a", AssignOp::Div, &n(2))), Value::absolute(2));
        assert_eq!(v(run("a", AssignOp::Shl, &n(65))), Value::absolute(10));
        assert_eq!(v(run("a", AssignOp::Shr, &one)), Value::absolute(2));
        assert_eq!(v(run("a", AssignOp::And, &n(4))), Value::absolute(4));
        assert_eq!(v(run("a", AssignOp::Xor, &n(4))), Value::absolute(1));
        assert_eq!(v(run("a", AssignOp::Or, &n(2))), Value::absolute(7));
        // `. += 4` inside a section stays in it; `t &= ...` does not (lld).
        assert_eq!(
            v(run(".", AssignOp::Add, &n(4))),
            Value::in_section(".text", 0x1000, 0x14)
        );
        assert_eq!(v(run("t", AssignOp::And, &n(!0))), Value::absolute(0x1020));
        assert_eq!(
            run("nope", AssignOp::Add, &one).map_err(|e| e.0),
            Err("t.lds:3: symbol not found: nope".to_string())
        );
        assert_eq!(
            run("a", AssignOp::Div, &n(0)).map_err(|e| e.0),
            Err("t.lds:3: division by zero".to_string())
        );
    }

    #[test]
    fn deep_trees_do_not_overflow() {
        let mut e = n(1);
        for _ in 0..5000 {
            e = Expr::Unary(UnOp::Neg, Box::new(e));
        }
        assert!(eval(&e, &cx()).is_err());
        assert_eq!(eval_constant(&e), None);
        // Dropping a 5000-deep Box chain is fine for the test thread's stack.
    }

    #[test]
    fn constant_folding() {
        assert_eq!(
            eval_constant(&b(BinOp::Add, n(1), n(2))).map(|r| r.ok()),
            Some(Some(3))
        );
        assert_eq!(eval_constant(&sym("x")), None);
        assert!(matches!(
            eval_constant(&b(BinOp::Div, n(1), n(0))),
            Some(Err(_))
        ));
    }
}
