//! Unit tests on hand-built archives (exact layouts, error messages, and a
//! mutation fuzzer). Archives written by real `ar` tools are tested in
//! `tools.rs`.

use super::*;

mod tools;

/// Formats one 60-byte member header.
fn header(name_field: &str, size: usize) -> Vec<u8> {
    let header = format!(
        "{name_field:<16}{:<12}{:<6}{:<6}{:<8}{size:<10}`\n",
        0, 0, 0, 644
    );
    assert_eq!(
        header.len(),
        HEADER_SIZE,
        "bad test header for {name_field:?}"
    );
    header.into_bytes()
}

/// Builds archives member by member, padding like `ar` does.
struct Builder {
    data: Vec<u8>,
}

impl Builder {
    fn new(magic: &[u8; 8]) -> Self {
        Builder {
            data: magic.to_vec(),
        }
    }

    /// Appends a member with inline contents; returns its header offset.
    fn member(&mut self, name_field: &str, body: &[u8]) -> u64 {
        let offset = self.data.len() as u64;
        self.data.extend(header(name_field, body.len()));
        self.data.extend(body);
        if self.data.len() % 2 == 1 {
            self.data.push(b'\n');
        }
        offset
    }

    /// Appends a thin-archive member header (no contents); returns its offset.
    fn thin_member(&mut self, name_field: &str, size: usize) -> u64 {
        let offset = self.data.len() as u64;
        self.data.extend(header(name_field, size));
        offset
    }
}

/// Body of a GNU symbol index (`word` 4 for `/`, 8 for `/SYM64/`).
fn gnu_symbols_body(word: usize, symbols: &[(&str, u64)]) -> Vec<u8> {
    let mut body = (symbols.len() as u64).to_be_bytes()[8 - word..].to_vec();
    for (_, offset) in symbols {
        body.extend(&offset.to_be_bytes()[8 - word..]);
    }
    for (name, _) in symbols {
        body.extend(name.as_bytes());
        body.push(0);
    }
    body
}

/// Body of a BSD symbol index (little-endian; `word` 4 or 8).
fn bsd_symbols_body(word: usize, symbols: &[(&str, u64)]) -> Vec<u8> {
    let mut strings: Vec<u8> = Vec::new();
    let mut ranlibs: Vec<u8> = Vec::new();
    for (name, offset) in symbols {
        ranlibs.extend(&(strings.len() as u64).to_le_bytes()[..word]);
        ranlibs.extend(&offset.to_le_bytes()[..word]);
        strings.extend(name.as_bytes());
        strings.push(0);
    }
    let mut body = (ranlibs.len() as u64).to_le_bytes()[..word].to_vec();
    body.extend(ranlibs);
    body.extend(&(strings.len() as u64).to_le_bytes()[..word]);
    body.extend(strings);
    body
}

/// A GNU archive with a symbol index (`/` or `/SYM64/`), a long-name table
/// and members `(name field, contents)`; `symbols` name a member by index.
/// Built twice: the first pass only finds the member offsets.
fn gnu_archive(
    word: usize,
    long_names: &[u8],
    members: &[(&str, &[u8])],
    symbols: &[(&str, usize)],
) -> Vec<u8> {
    let mut offsets = vec![0; members.len()];
    let mut data = Vec::new();
    for _ in 0..2 {
        let index: Vec<(&str, u64)> = symbols.iter().map(|&(s, m)| (s, offsets[m])).collect();
        let mut builder = Builder::new(MAGIC);
        let index_name = if word == 4 { "/" } else { "/SYM64/" };
        builder.member(index_name, &gnu_symbols_body(word, &index));
        if !long_names.is_empty() {
            builder.member("//", long_names);
        }
        for (i, (name, body)) in members.iter().enumerate() {
            offsets[i] = builder.member(name, body);
        }
        data = builder.data;
    }
    data
}

/// Like [`gnu_archive`] but BSD: the index is named `index_name` (written
/// as a `#1/` long name if it does not fit), members are `(name, contents)`
/// and are written with `#1/` names padded with NULs to a multiple of 4.
fn bsd_archive(index_name: &str, members: &[(&str, &[u8])], symbols: &[(&str, usize)]) -> Vec<u8> {
    let word = if index_name.starts_with("__.SYMDEF_64") {
        8
    } else {
        4
    };
    let long_body = |name: &str, body: &[u8]| {
        let mut out = name.as_bytes().to_vec();
        out.resize(name.len().div_ceil(4) * 4 + 4, 0);
        let name_len = out.len();
        out.extend(body);
        (format!("#1/{name_len}"), out)
    };
    let mut offsets = vec![0; members.len()];
    let mut data = Vec::new();
    for _ in 0..2 {
        let index: Vec<(&str, u64)> = symbols.iter().map(|&(s, m)| (s, offsets[m])).collect();
        let mut builder = Builder::new(MAGIC);
        let index_body = bsd_symbols_body(word, &index);
        if index_name.len() <= 16 {
            builder.member(index_name, &index_body);
        } else {
            let (field, body) = long_body(index_name, &index_body);
            builder.member(&field, &body);
        }
        for (i, (name, body)) in members.iter().enumerate() {
            let (field, body) = long_body(name, body);
            offsets[i] = builder.member(&field, &body);
        }
        data = builder.data;
    }
    data
}

/// `(symbol, member name)` pairs, resolving each index entry.
fn resolved_symbols<'a>(archive: &Archive<'a>) -> Vec<(&'a [u8], &'a [u8])> {
    archive
        .symbols()
        .iter()
        .map(|s| (s.name, archive.member_at(s.member_offset).unwrap().name))
        .collect()
}

/// All members, failing the test on any error.
fn all_members<'a>(archive: &Archive<'a>) -> Vec<Member<'a>> {
    archive
        .members()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The first error from parsing `data` or from walking its members.
fn parse_err(data: &[u8]) -> String {
    let result =
        Archive::parse(data).and_then(|archive| archive.members().try_for_each(|m| m.map(drop)));
    result.unwrap_err().to_string()
}

#[test]
fn magic_detection() {
    assert!(is_archive(b"!<arch>\n"));
    assert!(is_archive(b"!<thin>\nxyz"));
    assert!(!is_archive(b"!<arch>"));
    assert!(!is_archive(b"\x7fELF\x02\x01\x01"));
    assert!(parse_err(b"\x7fELF").starts_with("not an archive"));
    assert!(parse_err(b"").starts_with("not an archive"));
}

#[test]
fn empty_archives() {
    for magic in [MAGIC, THIN_MAGIC] {
        let archive = Archive::parse(magic).unwrap();
        assert!(all_members(&archive).is_empty());
        assert!(archive.symbols().is_empty());
        assert!(!archive.has_symbol_table());
        assert_eq!(archive.is_thin(), magic == THIN_MAGIC);
    }
}

#[test]
fn gnu_names_padding_and_index() {
    let long_names = b"a_very_long_member_name.o/\nanother_long_name_here.o/\n";
    let members: [(&str, &[u8]); 5] = [
        ("a.o/", b"odd"),                      // odd size: padded
        ("/0", b"long one"),                   // first long name
        ("fifteen_chars.o/", b"x"),            // 15 chars + '/' fills the field
        ("/27", b"second long"),               // second long name
        ("with space.o/", b"last, odd size!"), // GNU names may contain spaces
    ];
    let symbols = [("foo", 0), ("bar", 1), ("baz", 3), ("foo", 4)];
    for word in [4, 8] {
        let mut data = gnu_archive(word, long_names, &members, &symbols);
        let archive = Archive::parse(&data).unwrap();
        assert!(!archive.is_thin());
        assert!(archive.has_symbol_table());
        let names: Vec<&[u8]> = all_members(&archive).iter().map(|m| m.name).collect();
        assert_eq!(
            names,
            [
                &b"a.o"[..],
                b"a_very_long_member_name.o",
                b"fifteen_chars.o",
                b"another_long_name_here.o",
                b"with space.o",
            ]
        );
        for (member, (_, body)) in all_members(&archive).iter().zip(members) {
            assert_eq!(member.bytes(), Some(body));
            assert_eq!(member.size(), body.len() as u64);
            assert_eq!(member.thin_path(Path::new("x/lib.a")), None);
            // The offset really is the member's header.
            let offset = member.header_offset as usize;
            assert_eq!(&data[offset + 58..offset + 60], b"`\n");
        }
        assert_eq!(
            resolved_symbols(&archive),
            [
                (&b"foo"[..], &b"a.o"[..]),
                (b"bar", b"a_very_long_member_name.o"),
                (b"baz", b"another_long_name_here.o"),
                (b"foo", b"with space.o"),
            ]
        );

        // Some writers omit the padding byte after an odd-sized last member.
        assert_eq!(data.pop(), Some(b'\n'));
        let archive = Archive::parse(&data).unwrap();
        assert_eq!(
            all_members(&archive)[4].bytes(),
            Some(&b"last, odd size!"[..])
        );
    }
}

#[test]
fn gnu_without_index_and_short_name_edge_cases() {
    let mut builder = Builder::new(MAGIC);
    builder.member("#1/", b"gnu name #1"); // not a BSD long name
    builder.member("plain", b"bsd-style short name");
    // Indexes and name tables after the first member are skipped, not used:
    // every `ar` writes them first, and the reader only looks there.
    builder.member("__.SYMDEF", &bsd_symbols_body(4, &[("sym", 8)]));
    builder.member("/", &gnu_symbols_body(4, &[("sym", 8)]));
    let trailing_table = builder.member("//", b"long_name_here.o/\n");
    let trailing_index = builder.member("last.o/", b"");
    let archive = Archive::parse(&builder.data).unwrap();
    let names: Vec<&[u8]> = all_members(&archive).iter().map(|m| m.name).collect();
    assert_eq!(names, [&b"#1"[..], b"plain", b"last.o"]);
    assert!(!archive.has_symbol_table());
    assert!(archive.symbols().is_empty());
    assert_eq!(archive.member_at(8).unwrap().name, b"#1");
    assert_eq!(archive.member_at(trailing_index).unwrap().name, b"last.o");
    assert_eq!(
        archive.member_at(trailing_table).unwrap_err().message(),
        format!(
            "symbol table offset {trailing_table} does not point at an archive member header \
             (it points at a symbol or name table)"
        )
    );

    let mut builder = Builder::new(MAGIC);
    builder.member("a.o/", b"");
    let archive = Archive::parse(&builder.data).unwrap();
    assert!(!archive.has_symbol_table());
    assert_eq!(all_members(&archive)[0].bytes(), Some(&b""[..]));
}

#[test]
fn bsd_indexes_and_long_names() {
    let members: [(&str, &[u8]); 3] = [
        ("a.o", b"first"),
        ("a_very_long_member_name.o", b"second!"),
        ("lib.rmeta", b"not an object"),
    ];
    let symbols = [("zeta", 2), ("alpha", 0), ("mid", 1)];
    for index_name in [
        "__.SYMDEF",
        "__.SYMDEF SORTED",
        "__.SYMDEF_64",
        "__.SYMDEF_64 SORTED",
    ] {
        let data = bsd_archive(index_name, &members, &symbols);
        let archive = Archive::parse(&data).unwrap();
        assert!(archive.has_symbol_table(), "{index_name}");
        assert_eq!(all_members(&archive).len(), 3);
        for (member, (name, body)) in all_members(&archive).iter().zip(members) {
            assert_eq!(member.name, name.as_bytes());
            assert_eq!(member.bytes(), Some(body));
        }
        assert_eq!(
            resolved_symbols(&archive),
            [
                (&b"zeta"[..], &b"lib.rmeta"[..]),
                (b"alpha", b"a.o"),
                (b"mid", b"a_very_long_member_name.o"),
            ],
            "{index_name}"
        );
    }
}

#[test]
fn thin_archive() {
    let mut builder = Builder::new(THIN_MAGIC);
    // magic (8) + index header (60) + index (12) + table header (60) + table (28)
    builder.member("/", &gnu_symbols_body(4, &[("foo", 168)]));
    builder.member("//", b"a.o/\n../sub/b.o/\n/abs/c.o/\n");
    let first = builder.thin_member("/0", 1234);
    assert_eq!(first, 168);
    builder.thin_member("/5", 7);
    builder.thin_member("/17", 0);
    builder.thin_member("short.o/", 3);
    // GNU ar's leftover '/' after a reference to a 15-byte name.
    builder.thin_member("/0            /", 5);
    let archive = Archive::parse(&builder.data).unwrap();
    assert!(archive.is_thin());
    let members = all_members(&archive);
    assert_eq!(members.len(), 5);
    assert_eq!(members[4].name, b"a.o");
    assert_eq!(
        members[0].data,
        MemberData::Thin {
            path: b"a.o",
            size: 1234
        }
    );
    assert_eq!(members[0].bytes(), None);
    assert_eq!(members[0].size(), 1234);
    assert_eq!(members[1].name, b"../sub/b.o");
    let lib = Path::new("out/lib.a");
    assert_eq!(members[0].thin_path(lib), Some(PathBuf::from("out/a.o")));
    assert_eq!(
        members[1].thin_path(lib),
        Some(PathBuf::from("out/../sub/b.o"))
    );
    assert_eq!(members[2].thin_path(lib), Some(PathBuf::from("/abs/c.o")));
    assert_eq!(
        members[3].thin_path(Path::new("lib.a")),
        Some(PathBuf::from("short.o"))
    );
    assert_eq!(resolved_symbols(&archive), [(&b"foo"[..], &b"a.o"[..])]);
}

#[test]
fn display_names() {
    assert_eq!(display_name("libfoo.a", b"bar.o"), "libfoo.a(bar.o)");
    assert_eq!(
        display_name(Path::new("/usr/lib/libc.a"), b"printf.o"),
        "/usr/lib/libc.a(printf.o)"
    );
    assert_eq!(display_name("l.a", b"bad\xff.o"), "l.a(bad\u{fffd}.o)");
    let data = gnu_archive(4, b"", &[("x.o/", b"")], &[]);
    let archive = Archive::parse(&data).unwrap();
    assert_eq!(all_members(&archive)[0].name_lossy(), "x.o");
}

#[test]
fn error_messages() {
    // Truncated header right after the magic.
    let mut data = MAGIC.to_vec();
    data.extend(b"a.o/      ");
    assert_eq!(
        parse_err(&data),
        "truncated archive member header at offset 8: 10 bytes left, a header needs 60"
    );

    // Truncated second header.
    let mut builder = Builder::new(MAGIC);
    builder.member("a.o/", b"12345678");
    builder.data.extend(b"b.o/");
    assert!(parse_err(&builder.data).starts_with("truncated archive member header at offset 76"));

    // Bad size field.
    let mut data = MAGIC.to_vec();
    data.extend(header("a.o/", 0));
    data[8 + 48..8 + 58].copy_from_slice(b"12x4      ");
    assert_eq!(
        parse_err(&data),
        "invalid archive member size field \"12x4      \" in header at offset 8"
    );
    data[8 + 48..8 + 58].copy_from_slice(b"          ");
    assert!(parse_err(&data).starts_with("invalid archive member size field"));
    data[8 + 48..8 + 58].copy_from_slice(b"-1        ");
    assert!(parse_err(&data).starts_with("invalid archive member size field"));

    // Bad terminator.
    let mut data = MAGIC.to_vec();
    data.extend(header("a.o/", 0));
    data[8 + 59] = b'x';
    assert_eq!(
        parse_err(&data),
        "invalid archive member header at offset 8: missing \"`\\n\" terminator"
    );

    // Size running past the end.
    let mut data = MAGIC.to_vec();
    data.extend(header("a.o/", 100));
    data.extend(b"short");
    assert_eq!(
        parse_err(&data),
        // LLVM's wording, which lld prints.
        "truncated or malformed archive (offset to next archive member past the end of the archive after member a.o)"
    );
    let mut data = MAGIC.to_vec();
    data.extend(header("a.o/", 0));
    data[8 + 48..8 + 58].copy_from_slice(b"9999999999");
    assert!(parse_err(&data).contains("past the end of the archive"));

    // Long-name reference without a table, and outside the table.
    let mut builder = Builder::new(MAGIC);
    builder.member("/0", b"");
    assert_eq!(
        parse_err(&builder.data),
        "archive member at offset 8 refers to long name /0 but no long-name table (//) precedes it"
    );
    let mut builder = Builder::new(MAGIC);
    builder.member("//", b"abc/\n");
    builder.member("/5", b"");
    assert_eq!(
        parse_err(&builder.data),
        "archive member at offset 74 refers to long name /5, outside the long-name table (size 5)"
    );
    let mut builder = Builder::new(MAGIC);
    builder.member("/abc", b"");
    assert_eq!(
        parse_err(&builder.data),
        "invalid archive member name \"/abc\" in header at offset 8"
    );

    // BSD long name longer than the member.
    let mut builder = Builder::new(MAGIC);
    builder.member("#1/20", b"short");
    assert_eq!(
        parse_err(&builder.data),
        "archive member at offset 8: BSD long name length 20 exceeds member size 5"
    );
    let mut builder = Builder::new(THIN_MAGIC);
    builder.member("#1/4", b"a.o\0");
    assert!(parse_err(&builder.data).contains("which thin archives cannot store"));

    // GNU symbol index: truncated, count too large, too few names.
    let mut builder = Builder::new(MAGIC);
    builder.member("/", b"\0\0");
    assert_eq!(
        parse_err(&builder.data),
        "truncated symbol table at offset 8: 2 bytes cannot hold its entry count and offsets"
    );
    let mut builder = Builder::new(MAGIC);
    builder.member("/", b"\xff\xff\xff\xff\0\0\0\0");
    assert!(parse_err(&builder.data).starts_with("truncated symbol table at offset 8"));
    let mut builder = Builder::new(MAGIC);
    builder.member("/", b"\0\0\0\x02\0\0\0\x08\0\0\0\x08one\0");
    assert_eq!(
        parse_err(&builder.data),
        "symbol table at offset 8 lists 2 symbols but has only 1 names"
    );

    // BSD symbol index: bad array size, string offset out of range.
    let mut builder = Builder::new(MAGIC);
    builder.member("__.SYMDEF", b"\x07\0\0\0");
    assert_eq!(
        parse_err(&builder.data),
        "malformed BSD symbol table at offset 8: symbol array size 7 is not a multiple of 8"
    );
    let mut builder = Builder::new(MAGIC);
    builder.member("__.SYMDEF", b"\x08\0\0\0\x09\0\0\0\0\0\0\0\x02\0\0\0a\0");
    assert_eq!(
        parse_err(&builder.data),
        "malformed BSD symbol table at offset 8: symbol name offset 9 is outside its string table (size 2)"
    );
    let mut builder = Builder::new(MAGIC);
    builder.member("__.SYMDEF", b"\x08\0\0\0\0\0\0\0\0\0\0\0\xff\0\0\0a\0");
    assert!(parse_err(&builder.data).contains("string table size 255 exceeds the member"));
}

#[test]
fn member_at_rejects_bad_offsets() {
    let data = gnu_archive(4, b"", &[("a.o/", b"abcd")], &[("f", 0)]);
    let archive = Archive::parse(&data).unwrap();
    let member = all_members(&archive)[0];
    assert_eq!(archive.member_at(member.header_offset), Ok(member));
    assert_eq!(
        archive.member_at(1234).unwrap_err().message(),
        format!(
            "symbol table offset 1234 is outside the archive (size {})",
            data.len()
        )
    );
    assert_eq!(
        archive.member_at(8).unwrap_err().to_string(),
        "symbol table offset 8 does not point at an archive member header"
    );
    assert!(archive.member_at(u64::MAX).is_err());
}

/// Small deterministic PRNG so the fuzz test is reproducible without crates.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Parses `data` and, if it parses, uses every accessor; any panic fails the
/// test. Also checks that all borrowed slices lie inside `data`. Returns
/// whether `data` parsed.
fn exercise(data: &[u8]) -> bool {
    let Ok(archive) = Archive::parse(data) else {
        return false;
    };
    let range = data.as_ptr_range();
    let inside = |s: &[u8]| {
        let r = s.as_ptr_range();
        s.is_empty() || (range.start <= r.start && r.end <= range.end)
    };
    // Damage past the first member surfaces here, as an Err item.
    for member in archive.members().map_while(Result::ok) {
        assert!(inside(member.name));
        if let Some(bytes) = member.bytes() {
            assert!(inside(bytes));
        }
        let _ = member.size();
        let _ = member.thin_path(Path::new("dir/lib.a"));
        let _ = display_name("lib.a", member.name);
        assert_eq!(archive.member_at(member.header_offset), Ok(member));
    }
    for symbol in archive.symbols() {
        assert!(inside(symbol.name));
        let _ = archive.member_at(symbol.member_offset);
    }
    true
}

#[test]
fn fuzz_truncated_mutated_and_garbage_archives() {
    let mut thin = Builder::new(THIN_MAGIC);
    thin.member("/", &gnu_symbols_body(4, &[("foo", 0x62), ("bar", 0x9e)]));
    thin.member("//", b"a.o/\n../sub/b.o/\n");
    thin.thin_member("/0", 10);
    thin.thin_member("/5", 20);
    let long_names = b"a_very_long_member_name.o/\n";
    let gnu_members: [(&str, &[u8]); 3] = [
        ("a.o/", b"\x7fELF first"),
        ("/0", b"second member"),
        ("lib.rmeta/", b"odd"),
    ];
    let gnu_symbols = [("foo", 0), ("bar", 1), ("baz", 2)];
    let bsd_members: [(&str, &[u8]); 2] = [("a.o", b"one"), ("long_bsd_name.o", b"two")];
    let seeds = [
        gnu_archive(4, long_names, &gnu_members, &gnu_symbols),
        gnu_archive(8, long_names, &gnu_members, &gnu_symbols),
        bsd_archive("__.SYMDEF", &bsd_members, &[("x", 0), ("y", 1)]),
        bsd_archive("__.SYMDEF_64", &bsd_members, &[("x", 1)]),
        thin.data,
    ];
    // Bytes that are meaningful in headers and indexes, to reach deeper code.
    let interesting = b"0123456789 /#`\n\0\xff\x7f";
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut parsed = 0;
    let mut rejected = 0;
    let mut count = |ok: bool| {
        if ok {
            parsed += 1;
        } else {
            rejected += 1;
        }
    };

    for seed in &seeds {
        assert!(exercise(seed));
        // Every truncation.
        for len in 0..seed.len() {
            count(exercise(&seed[..len]));
        }
        // Random mutations: a few bytes overwritten, sometimes cut short.
        for _ in 0..3000 {
            let mut data = seed.clone();
            for _ in 0..1 + rng.below(6) {
                let at = 8 + rng.below(data.len() - 8);
                data[at] = if rng.below(2) == 0 {
                    interesting[rng.below(interesting.len())]
                } else {
                    rng.next() as u8
                };
            }
            if rng.below(4) == 0 {
                data.truncate(8 + rng.below(data.len() - 7));
            }
            count(exercise(&data));
        }
    }

    // Pure garbage after a valid magic.
    for _ in 0..3000 {
        let mut data = if rng.below(2) == 0 {
            MAGIC.to_vec()
        } else {
            THIN_MAGIC.to_vec()
        };
        for _ in 0..rng.below(300) {
            data.push(if rng.below(3) == 0 {
                interesting[rng.below(interesting.len())]
            } else {
                rng.next() as u8
            });
        }
        count(exercise(&data));
    }
    // Both outcomes must be common, or the mutations are not reaching the
    // interesting code.
    println!("fuzz: {parsed} parsed, {rejected} rejected");
    assert!(
        parsed > 1000 && rejected > 1000,
        "{parsed} parsed, {rejected} rejected"
    );
}
