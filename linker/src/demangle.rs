//! Symbol names as lld prints them: demangled with LLVM's own demangler when weld has LLVM (so
//! every spelling matches lld's), otherwise with cpp_demangle moved towards LLVM's spelling;
//! and the process-wide `--demangle`/`--no-demangle` setting diagnostics follow.

/// `--demangle` (lld's default) or `--no-demangle`: how diagnostics print symbol names. One
/// setting for the whole process, decided by the command line before anything is printed, so
/// the many places that name a symbol need no configuration passed down.
static DEMANGLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Sets `--demangle`/`--no-demangle` for every later diagnostic.
pub fn set_demangle(on: bool) {
    DEMANGLE.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// A symbol name as lld prints it in diagnostics: C++ names demangled (unless
/// `--no-demangle`), anything else as is.
pub fn display_name(name: &[u8]) -> String {
    let on = DEMANGLE.load(std::sync::atomic::Ordering::Relaxed);
    on.then(|| demangle(name))
        .flatten()
        .unwrap_or_else(|| String::from_utf8_lossy(name).into_owned())
}

/// Demangles a symbol name as lld does, for diagnostics and `extern "C++"` patterns: with
/// LLVM's own demangler when weld has LLVM (so every spelling matches lld's), otherwise with
/// cpp_demangle adjusted towards LLVM's spelling. `None` for names that are not mangled.
pub fn demangle(name: &[u8]) -> Option<String> {
    // Every mangling LLVM knows starts with `_` (Itanium, Rust, D) or `?` (Microsoft): other
    // names, most of them, skip the call into LLVM.
    if !matches!(name.first(), Some(b'_' | b'?')) {
        return None;
    }
    if lto::AVAILABLE {
        return lto::demangle(name);
    }
    fallback_demangle(name)
}

/// cpp_demangle's spelling, moved towards LLVM's for the common differences.
fn fallback_demangle(name: &[u8]) -> Option<String> {
    let sym = cpp_demangle::Symbol::new(name).ok()?;
    let d = sym
        .demangle(&cpp_demangle::DemangleOptions::default())
        .ok()?;
    Some(llvm_style(&abbreviations(name, &d)))
}

/// The standard abbreviations `Si`, `So`, `Sd` and `Ss` as LLVM's demangler prints them:
/// `std::istream`, `std::ostream`, `std::iostream`, `std::string`, except as the class of a
/// constructor or destructor, where the full template is spelled out. cpp_demangle expands
/// some and abbreviates others, so both ways are normalized here. A name that spells the
/// template out in its mangling (`St13basic_istream...`) keeps the long form.
fn abbreviations(mangled: &[u8], d: &str) -> String {
    const IOS: [(&str, &str, &str); 4] = [
        (
            "istream",
            "std::basic_istream<char, std::char_traits<char> >",
            "std::istream",
        ),
        (
            "ostream",
            "std::basic_ostream<char, std::char_traits<char> >",
            "std::ostream",
        ),
        (
            "iostream",
            "std::basic_iostream<char, std::char_traits<char> >",
            "std::iostream",
        ),
        (
            "string",
            "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
            "std::string",
        ),
    ];
    let spelled = |base: &str| {
        let long = format!("basic_{base}");
        mangled.windows(long.len()).any(|w| w == long.as_bytes())
    };
    let mut out = d.to_string();
    for (base, long, short) in IOS {
        // Constructors and destructors name the class in full.
        for tilde in ["", "~"] {
            out = out.replace(
                &format!("{short}::{tilde}{base}("),
                &format!("{long}::{tilde}basic_{base}("),
            );
        }
        if spelled(base) {
            continue;
        }
        let mut rest = out.as_str();
        let mut fixed = String::with_capacity(out.len());
        while let Some(at) = rest.find(long) {
            fixed.push_str(&rest[..at]);
            let after = &rest[at + long.len()..];
            if after.starts_with(&format!("::basic_{base}("))
                || after.starts_with(&format!("::~basic_{base}("))
            {
                fixed.push_str(long);
            } else {
                fixed.push_str(short);
            }
            rest = after;
        }
        fixed.push_str(rest);
        out = fixed;
    }
    out
}

/// Rewrites cpp_demangle's spelling of special names into LLVM's (what lld prints and what
/// people write in version scripts): `{vtable(X)}` -> `vtable for X`, `> >` -> `>>`.
fn llvm_style(d: &str) -> String {
    let specials = [
        ("{vtable(", "vtable for "),
        ("{typeinfo(", "typeinfo for "),
        ("{typeinfo name(", "typeinfo name for "),
        ("{vtt(", "VTT for "),
        ("{guard variable(", "guard variable for "),
    ];
    let mut out = d.to_string();
    for (from, to) in specials {
        if let Some(rest) = out.strip_prefix(from).and_then(|r| r.strip_suffix(")}")) {
            out = format!("{to}{rest}");
            break;
        }
    }
    while out.contains("> >") {
        out = out.replace("> >", ">>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{demangle, fallback_demangle};

    /// Names whose LLVM spelling (llvm-cxxfilt-22, which lld uses) differs from a plain
    /// expansion of the standard abbreviations.
    #[test]
    fn standard_abbreviations_as_llvm_prints_them() {
        let cases = [
            ("_ZNSi7getlineEPclc", "std::istream::getline(char*, long, char)"),
            ("_ZNSiC1Ev", "std::basic_istream<char, std::char_traits<char>>::basic_istream()"),
            ("_ZNSoC1Ev", "std::basic_ostream<char, std::char_traits<char>>::basic_ostream()"),
            (
                "_ZNSsC1Ev",
                "std::basic_string<char, std::char_traits<char>, std::allocator<char>>::basic_string()",
            ),
            ("_ZNSdD0Ev", "std::basic_iostream<char, std::char_traits<char>>::~basic_iostream()"),
            (
                "_ZNSt13basic_istreamIcSt11char_traitsIcEE7getlineEPcl",
                "std::basic_istream<char, std::char_traits<char>>::getline(char*, long)",
            ),
            ("_ZNSo5flushEv", "std::ostream::flush()"),
            ("_ZNKSs4sizeEv", "std::string::size() const"),
            ("_ZN3fooERSi", "foo(std::istream&)"),
            ("_ZTVSi", "vtable for std::istream"),
        ];
        for (mangled, want) in cases {
            assert_eq!(
                demangle(mangled.as_bytes()).as_deref(),
                Some(want),
                "{mangled}"
            );
            assert_eq!(
                fallback_demangle(mangled.as_bytes()).as_deref(),
                Some(want),
                "{mangled}"
            );
        }
        assert_eq!(demangle(b"main"), None);
    }
}
