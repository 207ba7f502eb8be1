//! Sorting, parsing and reports for textkit's line, CSV and word-table entry points.
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};

unsafe fn bytes<'a>(p: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, len)
    }
}

/// One piece of a line for natural ("version") ordering: digits compare as numbers.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Piece<'a> {
    Number(u128, usize),
    Text(&'a [u8]),
}

fn pieces(s: &[u8]) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let start = i;
        let digit = s[i].is_ascii_digit();
        while i < s.len() && s[i].is_ascii_digit() == digit {
            i += 1;
        }
        let part = &s[start..i];
        out.push(
            match std::str::from_utf8(part).ok().and_then(|t| t.parse().ok()) {
                Some(n) if digit => Piece::Number(n, part.len()),
                _ => Piece::Text(part),
            },
        );
    }
    out
}

fn natural(a: &[u8], b: &[u8]) -> Ordering {
    pieces(a).cmp(&pieces(b)).then_with(|| a.cmp(b))
}

/// `void host_sort_lines(const char **lines, size_t *lens, size_t count)`: natural order,
/// stable.
#[no_mangle]
pub unsafe extern "C" fn host_sort_lines(lines: *mut *const u8, lens: *mut usize, count: usize) {
    if count == 0 {
        return;
    }
    let lines = std::slice::from_raw_parts_mut(lines, count);
    let lens = std::slice::from_raw_parts_mut(lens, count);
    let mut v: Vec<(&[u8], *const u8, usize)> = lines
        .iter()
        .zip(lens.iter())
        .map(|(&p, &n)| (bytes(p, n), p, n))
        .collect();
    v.sort_by(|x, y| natural(x.0, y.0));
    for (i, (_, p, n)) in v.into_iter().enumerate() {
        lines[i] = p;
        lens[i] = n;
    }
}

/// `int host_parse_number(const char *text, size_t len, double *out)`: decimal, hexadecimal
/// (`0x`) or a percentage; 1 if it parsed.
#[no_mangle]
pub unsafe extern "C" fn host_parse_number(text: *const u8, len: usize, out: *mut f64) -> i32 {
    let Ok(s) = std::str::from_utf8(bytes(text, len)) else {
        return 0;
    };
    let s = s.trim().trim_matches('"');
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok().map(|n| n as f64)
    } else if let Some(p) = s.strip_suffix('%') {
        p.trim().parse::<f64>().ok().map(|n| n / 100.0)
    } else {
        s.parse::<f64>().ok()
    };
    match v {
        Some(v) if v.is_finite() => {
            *out = v;
            1
        }
        _ => 0,
    }
}

/// `void host_histogram_report(const uint64_t *buckets, size_t count, double low,
/// double width)`: one bar per bucket, scaled to 50 columns, with percentages.
#[no_mangle]
pub unsafe extern "C" fn host_histogram_report(
    buckets: *const u64,
    count: usize,
    low: f64,
    width: f64,
) {
    let b = std::slice::from_raw_parts(buckets, count);
    let total: u64 = b.iter().sum();
    let max = b.iter().copied().max().unwrap_or(0).max(1);
    let labels: Vec<String> = (0..count)
        .map(|i| {
            format!(
                "[{:.3}, {:.3})",
                low + i as f64 * width,
                low + (i + 1) as f64 * width
            )
        })
        .collect();
    let w = labels.iter().map(String::len).max().unwrap_or(0);
    let mut s = String::new();
    for (label, &n) in labels.iter().zip(b) {
        let bar = "#".repeat((n * 50 / max) as usize);
        let pct = if total > 0 {
            n as f64 * 100.0 / total as f64
        } else {
            0.0
        };
        let _ = writeln!(s, "{label:>w$} {n:>8} {pct:>6.2}% {bar}");
    }
    super::io::host_emit(s.as_ptr(), s.len());
}

/// `uint64_t host_hash(const char *text, size_t len)`: SipHash (std's DefaultHasher) of the
/// ASCII-lowercased word.
#[no_mangle]
pub unsafe extern "C" fn host_hash(text: *const u8, len: usize) -> u64 {
    let mut h = DefaultHasher::new();
    for c in bytes(text, len) {
        c.to_ascii_lowercase().hash(&mut h);
    }
    h.finish()
}

/// `void host_table_report(const char *const *keys, const size_t *key_lens,
/// const uint64_t *counts, size_t count)`: the 20 most frequent words, the spread of word
/// lengths, and counts per initial letter.
#[no_mangle]
pub unsafe extern "C" fn host_table_report(
    keys: *const *const u8,
    key_lens: *const usize,
    counts: *const u64,
    count: usize,
) {
    let keys = std::slice::from_raw_parts(keys, count);
    let lens = std::slice::from_raw_parts(key_lens, count);
    let counts = std::slice::from_raw_parts(counts, count);
    let mut words: Vec<(String, u64)> = keys
        .iter()
        .zip(lens)
        .zip(counts)
        .map(|((&k, &n), &c)| (String::from_utf8_lossy(bytes(k, n)).into_owned(), c))
        .collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut by_len: BTreeMap<usize, (u64, Vec<&str>)> = BTreeMap::new();
    let mut by_initial: HashMap<char, u64> = HashMap::new();
    for (w, c) in &words {
        let e = by_len.entry(w.chars().count()).or_default();
        e.0 += c;
        if e.1.len() < 3 {
            e.1.push(w);
        }
        if let Some(first) = w.chars().next() {
            *by_initial.entry(first.to_ascii_lowercase()).or_default() += c;
        }
    }
    let mut s = String::new();
    for (w, c) in words.iter().take(20) {
        let _ = writeln!(s, "{c:>8}  {w}");
    }
    for (len, (c, examples)) in &by_len {
        let _ = writeln!(s, "length {len:>3}: {c:>8} ({})", examples.join(", "));
    }
    let mut initials: Vec<_> = by_initial.into_iter().collect();
    initials.sort_unstable();
    let line: Vec<String> = initials.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(s, "initials: {}", line.join(" "));
    super::io::host_emit(s.as_ptr(), s.len());
}
