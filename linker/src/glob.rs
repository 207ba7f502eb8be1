//! lld's glob patterns (`*`, `?`, `[...]` with ranges and `!`/`^` negation, `\c` for `c`), as
//! options use them: `--why-live`, `--remap-inputs`, `--shuffle-sections`, version scripts,
//! dynamic lists, `-z dead-reloc-in-nonalloc`.

/// Whether `s` matches the glob `pat`.
pub fn matches(pat: &[u8], s: &[u8]) -> bool {
    let (mut p, mut i) = (0usize, 0usize);
    let (mut star_p, mut star_i) = (usize::MAX, 0usize);
    while i < s.len() {
        if p < pat.len() && pat[p] == b'*' {
            star_p = p;
            star_i = i;
            p += 1;
            continue;
        }
        if p < pat.len() {
            if pat[p] == b'[' {
                if let Some(end) = pat[p + 1..].iter().position(|&c| c == b']') {
                    let class = &pat[p + 1..p + 1 + end];
                    let (neg, class) = match class.first() {
                        Some(b'!') | Some(b'^') => (true, &class[1..]),
                        _ => (false, class),
                    };
                    let mut hit = false;
                    let mut k = 0;
                    while k < class.len() {
                        if k + 2 < class.len() && class[k + 1] == b'-' {
                            hit |= class[k] <= s[i] && s[i] <= class[k + 2];
                            k += 3;
                        } else {
                            hit |= class[k] == s[i];
                            k += 1;
                        }
                    }
                    if hit != neg {
                        p += end + 2;
                        i += 1;
                        continue;
                    }
                }
            } else if pat[p] == b'\\' && p + 1 < pat.len() {
                // `\c` stands for `c` itself (`foo\?` matches only `foo?`), as in lld's globs.
                if pat[p + 1] == s[i] {
                    p += 2;
                    i += 1;
                    continue;
                }
            } else if pat[p] == b'?' || pat[p] == s[i] {
                p += 1;
                i += 1;
                continue;
            }
        }
        if star_p != usize::MAX {
            p = star_p + 1;
            star_i += 1;
            i = star_i;
            continue;
        }
        return false;
    }
    pat[p..].iter().all(|&c| c == b'*')
}

/// lld's complaint about a malformed pattern (`--shuffle-sections=`, ...), if any.
pub fn check(pat: &str) -> Result<(), String> {
    pattern_error(pat).map_or(Ok(()), |e| Err(format!("{e}: {pat}")))
}

/// LLVM's `GlobPattern` error for a malformed pattern, without the pattern (some options quote
/// it after the message, `--compress-sections` does not).
pub fn pattern_error(pat: &str) -> Option<&'static str> {
    let b = pat.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 == b.len() => return Some("invalid glob pattern, stray '\\'"),
            b'\\' => i += 2,
            b'[' => match b[i + 1..].iter().skip(1).position(|&c| c == b']') {
                // The first character of a class may be `]` itself.
                Some(end) => i += end + 3,
                None => return Some("invalid glob pattern, unmatched '['"),
            },
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_checks() {
        assert!(matches(b".text.*", b".text.foo"));
        assert!(!matches(b".text.*", b".text"));
        assert!(matches(b"[a-c]x", b"bx"));
        assert!(check("[").is_err());
        assert!(check("a[bc]").is_ok());
        assert!(check("[]]").is_ok());
        assert_eq!(
            pattern_error("a["),
            Some("invalid glob pattern, unmatched '['")
        );
        assert_eq!(
            pattern_error("a\\"),
            Some("invalid glob pattern, stray '\\'")
        );
        assert_eq!(pattern_error(".debug_*"), None);
    }
}
