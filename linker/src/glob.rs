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

/// lld's complaint about a malformed pattern, with the pattern after it (as
/// `--shuffle-sections=` words it).
pub fn check(pat: &str) -> Result<(), String> {
    pattern_error(pat).map_or(Ok(()), |e| Err(format!("{e}: {pat}")))
}

/// LLVM's `GlobPattern` error for a malformed pattern, in its words: an unclosed `[` (whose
/// first `]` is a member, not the end), a trailing `\`, a backwards range (that message names
/// the pattern). Options add the pattern after it or not, as lld does for each.
pub fn pattern_error(pattern: &str) -> Option<String> {
    let p = pattern.as_bytes();
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            b'[' => {
                let Some(close) = p
                    .get(i + 2..)
                    .and_then(|rest| rest.iter().position(|&c| c == b']'))
                    .map(|k| i + 2 + k)
                else {
                    return Some("invalid glob pattern, unmatched '['".to_string());
                };
                let mut class = &p[i + 1..close];
                if matches!(class.first(), Some(b'^' | b'!')) {
                    class = &class[1..];
                }
                // Ranges are read left to right, each consuming its three characters.
                let mut k = 0;
                while class.len() - k >= 3 {
                    if class[k + 1] != b'-' {
                        k += 1;
                        continue;
                    }
                    if class[k] > class[k + 2] {
                        return Some(format!("invalid glob pattern: {pattern}"));
                    }
                    k += 3;
                }
                i = close + 1;
            }
            b'\\' if i + 1 == p.len() => {
                return Some("invalid glob pattern, stray '\\'".to_string())
            }
            b'\\' => i += 2,
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
            pattern_error("a[").as_deref(),
            Some("invalid glob pattern, unmatched '['")
        );
        assert_eq!(
            pattern_error("a\\").as_deref(),
            Some("invalid glob pattern, stray '\\'")
        );
        assert_eq!(pattern_error(".debug_*"), None);
    }
}
