//! Value syntax shared by several options and by files the options name: integers as LLVM and
//! lld read them, and the `--defsym` expression with its linker-script numbers.

use crate::bail;
use crate::config::{Defsym, DefsymValue};
use crate::error::Result;

/// An integer as LLVM's `getAsInteger` with radix 0 reads it: `0x`/`0X` hex, `0b` binary, `0o` or
/// a leading `0` octal, else decimal.
pub fn parse_int(s: &str) -> Option<u64> {
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (b, 2)
    } else if let Some(o) = s.strip_prefix("0o") {
        (o, 8)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() || digits.starts_with('+') {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// A signed decimal integer as lld's `args::getInteger` reads it (LLVM's `to_integer` in base
/// 10): an optional `-`, then digits only; no `+`, no `0x`.
pub fn parse_decimal(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `--defsym=SYM=EXPR`. A number or a symbol plus or minus constants (what drivers and build
/// systems pass) is read here; any other expression is read by the linker-script parser, as lld
/// reads every `--defsym`, and evaluated on the final layout.
pub fn parse_defsym(text: &str) -> Result<Defsym> {
    let Some((name, expr)) = text.split_once('=') else {
        bail!("--defsym:1: unexpected EOF");
    };
    let name = name.trim();
    if name.is_empty() {
        bail!("--defsym:1: = expected, but got {}", expr.trim());
    }
    let unsupported = || full_expression(name, expr);
    let mut symbol: Option<String> = None;
    let mut sum: i64 = 0;
    let mut rest = expr.trim_start();
    let mut negative = false;
    if let Some(r) = rest.strip_prefix('-') {
        negative = true;
        rest = r.trim_start();
    }
    loop {
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '+' || c == '-')
            .unwrap_or(rest.len());
        let (term, after) = rest.split_at(end);
        if term.starts_with(|c: char| c.is_ascii_digit()) || term.is_empty() {
            let Some(n) = parse_script_number(term) else {
                return unsupported();
            };
            sum = if negative {
                sum.wrapping_sub(n as i64)
            } else {
                sum.wrapping_add(n as i64)
            };
        } else if term
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.$@".contains(c))
            && symbol.is_none()
            && !negative
        {
            symbol = Some(term.to_string());
        } else {
            return unsupported();
        }
        rest = after.trim_start();
        if rest.is_empty() {
            break;
        }
        negative = match rest.as_bytes()[0] {
            b'+' => false,
            b'-' => true,
            _ => return unsupported(),
        };
        rest = rest[1..].trim_start();
    }
    let value = match symbol {
        Some(sym) => DefsymValue::Symbol(sym, sum),
        None => DefsymValue::Absolute(sum as u64),
    };
    Ok(Defsym {
        name: name.to_string(),
        value,
        provide: false,
        hidden: false,
    })
}

/// `--defsym=NAME=EXPR` with an expression beyond a symbol plus constants: the script parser
/// reads `NAME = EXPR;` (messages name `--defsym:1`, as lld's do).
fn full_expression(name: &str, expr: &str) -> Result<Defsym> {
    use crate::script::ast::Command;
    // The `;` a script needs is not the user's: running into it is lld's end of input.
    let script = crate::script::parse(
        &format!("{name} = {expr};"),
        std::path::Path::new("--defsym"),
    )
    .map_err(|e| {
        crate::error::Error(e.0.replacen("malformed number: ;", "malformed number: ", 1))
    })?;
    match script.commands.as_slice() {
        [Command::Assignment(a)] if a.name == name => Ok(Defsym {
            name: name.to_string(),
            value: match crate::script::expr::eval_constant(&a.expr) {
                Some(v) => DefsymValue::Absolute(v?),
                None => DefsymValue::Expr(a.expr.clone()),
            },
            provide: false,
            hidden: false,
        }),
        _ => bail!("--defsym:1: malformed number: {}", expr.trim()),
    }
}

/// A number as linker scripts write it: `0x10`, `10h`, `4K`, `1M`, decimal.
fn parse_script_number(t: &str) -> Option<u64> {
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).ok();
    }
    if let Some(h) = t.strip_suffix(['h', 'H']) {
        return u64::from_str_radix(h, 16).ok();
    }
    let (digits, mul) = if let Some(d) = t.strip_suffix(['k', 'K']) {
        (d, 1024)
    } else if let Some(d) = t.strip_suffix(['m', 'M']) {
        (d, 1024 * 1024)
    } else {
        (t, 1)
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(mul)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_as_llvm_reads_them() {
        assert_eq!(parse_int("4096"), Some(4096));
        assert_eq!(parse_int("0x1000"), Some(4096));
        assert_eq!(parse_int("010000"), Some(4096));
        assert_eq!(parse_int("0"), Some(0));
        assert_eq!(parse_int("0b101"), Some(5));
        for bad in ["", "x", "-1", "+1", "0x", "12a"] {
            assert_eq!(parse_int(bad), None, "{bad}");
        }
    }

    #[test]
    fn defsym_forms() {
        let d = parse_defsym("foo=0x10").unwrap();
        assert_eq!(
            (d.name.as_str(), d.value),
            ("foo", DefsymValue::Absolute(16))
        );
        let d = parse_defsym("foo=main").unwrap();
        assert_eq!(d.value, DefsymValue::Symbol("main".into(), 0));
        let d = parse_defsym("foo = main - 0x10 + 4").unwrap();
        assert_eq!(d.value, DefsymValue::Symbol("main".into(), -12));
        assert_eq!(
            parse_defsym("x=1+2").unwrap().value,
            DefsymValue::Absolute(3)
        );
        assert_eq!(
            parse_defsym("x=10K").unwrap().value,
            DefsymValue::Absolute(10240)
        );
        assert_eq!(
            parse_defsym("x=10h").unwrap().value,
            DefsymValue::Absolute(16)
        );
        assert_eq!(
            parse_defsym("x").unwrap_err().0,
            "--defsym:1: unexpected EOF"
        );
        // lld's first lines (then its `>>>` context lines).
        for (e, first) in [
            ("x=", "--defsym:1: malformed number: "),
            ("x=foo+", "--defsym:1: malformed number: "),
            ("x=1z", "--defsym:1: malformed number: 1z"),
        ] {
            let msg = parse_defsym(e).unwrap_err().0;
            assert_eq!(msg.lines().next(), Some(first), "{e}");
        }
        // Other expressions are the script parser's, evaluated on the layout.
        for e in ["a*2", "a+b", "ADDR(.text) + 4", "DEFINED(a) ? a : b"] {
            let d = parse_defsym(&format!("x={e}")).unwrap();
            assert!(matches!(d.value, DefsymValue::Expr(_)), "{e}");
        }
        assert_eq!(
            parse_defsym("x=2*3").unwrap().value,
            DefsymValue::Absolute(6)
        );
        assert!(parse_defsym("x=a*")
            .unwrap_err()
            .0
            .starts_with("--defsym:1: "));
    }
}
