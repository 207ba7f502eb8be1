//! What an input section's name and type say, read once when the file is parsed: which output
//! section it goes to and the order of output sections (lld's `getOutputSectionName` and
//! `getSectionRank`), whether `--gc-sections` may collect it (lld's `isReserved`), and whether
//! it is only a split-stack marker.

use crate::config::ZOptions;
use object::elf;

/// Prefixes whose `.prefix.anything` input sections are merged into `.prefix`, as lld does
/// without `-z keep-text-section-prefix`. Those with a dot inside are tried first, whole
/// (`.data.rel.ro.x` goes to `.data.rel.ro`, not `.data`).
const MERGED_DOTTED_PREFIXES: &[&str] =
    &[".data.rel.ro", ".bss.rel.ro", ".ARM.exidx", ".ARM.extab"];
const MERGED_PREFIXES: &[&str] = &[
    ".text",
    ".rodata",
    ".data",
    ".bss",
    ".ldata",
    ".lrodata",
    ".lbss",
    ".gcc_except_table",
    ".init_array",
    ".fini_array",
    ".tbss",
    ".tdata",
    ".ctors",
    ".dtors",
    ".sbss",
    ".sdata",
    ".srodata",
];

/// The output section an input section goes to when that is a prefix of the section's name
/// (`.text.foo` -> `.text`; lld's `getOutputSectionName`; `InputSection::output_name` falls
/// back on the whole name), as one byte: 0 for a name kept whole, else the prefix's place in
/// the two tables plus one. Every input section keeps it (half a million on a big link), and
/// an `Option<&str>` took sixteen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergedName(u8);

impl MergedName {
    /// A name kept whole.
    pub const WHOLE: MergedName = MergedName(0);

    /// Runs once per input section while objects are parsed, so it compares the part before
    /// the second dot with the prefixes instead of trying every prefix on the whole name, and
    /// compares bytes, as lld does.
    pub fn of(name: &[u8]) -> MergedName {
        let Some(rest) = name.strip_prefix(b".") else {
            return MergedName::WHOLE;
        };
        for (i, p) in MERGED_DOTTED_PREFIXES.iter().enumerate() {
            if let Some(r) = name.strip_prefix(p.as_bytes()) {
                if r.is_empty() || r[0] == b'.' {
                    return MergedName(i as u8 + 1);
                }
            }
        }
        let head = &name[..rest
            .iter()
            .position(|&c| c == b'.')
            .map_or(name.len(), |i| i + 1)];
        MERGED_PREFIXES
            .iter()
            .position(|&p| p.as_bytes() == head)
            .map_or(MergedName::WHOLE, |j| {
                MergedName((MERGED_DOTTED_PREFIXES.len() + j) as u8 + 1)
            })
    }

    /// The output section's name, `None` for a name kept whole.
    pub fn get(self) -> Option<&'static str> {
        let i = usize::from(self.0).checked_sub(1)?;
        MERGED_DOTTED_PREFIXES.get(i).copied().or_else(|| {
            MERGED_PREFIXES
                .get(i - MERGED_DOTTED_PREFIXES.len())
                .copied()
        })
    }
}

/// `-z keep-text-section-prefix`: a `.text.hot.*`, `.text.unknown.*`, `.text.unlikely.*`,
/// `.text.startup.*`, `.text.exit.*` or `.text.split.*` input goes to an output section of that
/// name instead of `.text` (lld's list).
pub fn text_prefix_section(name: &str) -> &'static str {
    const KEPT: &[&str] = &[
        ".text.hot",
        ".text.unknown",
        ".text.unlikely",
        ".text.startup",
        ".text.exit",
        ".text.split",
    ];
    KEPT.iter()
        .find(|&&p| {
            name.strip_prefix(p)
                .is_some_and(|r| r.is_empty() || r.starts_with('.'))
        })
        .copied()
        .unwrap_or(".text")
}

/// The section a `__start_SEC` or `__stop_SEC` symbol bounds, and whether it is the start.
pub fn start_stop_section(name: &[u8]) -> Option<(&[u8], bool)> {
    name.strip_prefix(b"__start_")
        .map(|sec| (sec, true))
        .or_else(|| name.strip_prefix(b"__stop_").map(|sec| (sec, false)))
}

/// `SHF_X86_64_LARGE` (medium/large code model data), not named by the `object` crate.
pub const SHF_X86_64_LARGE: u64 = 0x1000_0000;

/// Rank flags: lower ranks come first. Mirrors lld's ordering R, RX, RW(TLS), RW(RELRO), RW, BSS.
const RF_NOT_ALLOC: u32 = 1 << 26;
const RF_LARGE_ALT: u32 = 1 << 15;
const RF_WRITE: u32 = 1 << 14;
const RF_EXEC_WRITE: u32 = 1 << 13;
const RF_EXEC: u32 = 1 << 12;
const RF_RODATA: u32 = 1 << 11;
const RF_LARGE: u32 = 1 << 10;
const RF_NOT_RELRO: u32 = 1 << 9;
const RF_NOT_TLS: u32 = 1 << 8;
const RF_BSS: u32 = 1 << 7;
const RF_ALLOC: u32 = 1 << 6;

/// Whether an output section belongs to PT_GNU_RELRO (lld's `isRelroSection`): nothing does
/// under `-z norelro`, and `.got.plt` only with `-z now` (lazy binding writes it at run time).
pub fn is_relro(z: &ZOptions, name: &str, sh_type: u32, flags: u64) -> bool {
    if !z.relro {
        return false;
    }
    if flags & u64::from(elf::SHF_WRITE) == 0 || flags & u64::from(elf::SHF_ALLOC) == 0 {
        return false;
    }
    if name == ".got.plt" {
        return z.now;
    }
    if flags & u64::from(elf::SHF_TLS) != 0 {
        return true;
    }
    if matches!(
        sh_type,
        elf::SHT_INIT_ARRAY | elf::SHT_FINI_ARRAY | elf::SHT_PREINIT_ARRAY
    ) {
        return true;
    }
    matches!(
        name,
        ".got"
            | ".dynamic"
            | ".data.rel.ro"
            | ".bss.rel.ro"
            | ".ctors"
            | ".dtors"
            | ".jcr"
            | ".eh_frame"
            | ".fini_array"
            | ".init_array"
            | ".preinit_array"
            | ".relro_padding"
    )
}

/// lld's section rank. Ties keep creation order (the caller sorts stably).
pub fn section_rank(z: &ZOptions, name: &str, sh_type: u32, flags: u64) -> u32 {
    if flags & u64::from(elf::SHF_ALLOC) == 0 {
        return RF_NOT_ALLOC;
    }
    let exec = flags & u64::from(elf::SHF_EXECINSTR) != 0;
    let write = flags & u64::from(elf::SHF_WRITE) != 0;
    let large = flags & SHF_X86_64_LARGE != 0;
    // Every allocated section ranks above the non-allocated ones.
    let mut rank = RF_ALLOC;
    if !write && !exec {
        // lld's order of read-only sections: `.interp` (the loader wants it on the first
        // page), notes (likely in a truncated core file), other non-PROGBITS sections
        // (`.dynsym`, `.rela.dyn`, ...), then PROGBITS ones closer to `.text`. An orphan note
        // goes next to the other notes for these bits.
        rank |= if name == ".interp" {
            2
        } else if sh_type == elf::SHT_NOTE {
            3
        } else if sh_type != elf::SHT_PROGBITS {
            4
        } else {
            RF_RODATA
        };
        // lld 22: `.lrodata` goes before the other read-only sections (away from `.text`), or
        // under `-z lrodata-after-bss` after every writable section but `.ldata`.
        rank |= match (large, z.lrodata_after_bss) {
            (true, true) => RF_LARGE_ALT,
            (true, false) | (false, true) => 0,
            (false, false) => RF_LARGE,
        };
    } else if exec {
        rank |= if write { RF_EXEC_WRITE } else { RF_EXEC };
    } else {
        rank |= RF_WRITE;
        if flags & u64::from(elf::SHF_TLS) == 0 {
            rank |= RF_NOT_TLS;
        }
        if !is_relro(z, name, sh_type, flags) {
            rank |= RF_NOT_RELRO;
        }
        // `.ldata`/`.lbss` after `.bss`; under `-z lrodata-after-bss`, `.lbss` right after
        // `.bss` and `.ldata` after `.lrodata`.
        if large {
            rank |= match (z.lrodata_after_bss, sh_type == elf::SHT_NOBITS) {
                (false, _) => RF_LARGE,
                (true, true) => 1,
                (true, false) => RF_LARGE_ALT,
            };
        }
    }
    if sh_type == elf::SHT_NOBITS {
        rank |= RF_BSS;
    }
    // .relro_padding closes the RELRO region.
    if name == ".relro_padding" {
        rank |= RF_BSS | 1;
    }
    rank
}

/// Priority of an `.init_array.N`/`.fini_array.N`/`.ctors.N` input section for sorting; sections
/// without a number come last (lld's `getPriority`).
pub fn init_priority(name: &str) -> u32 {
    let Some(pos) = name.rfind('.') else {
        return 65536;
    };
    let Ok(n) = name[pos + 1..].parse::<u32>() else {
        return 65536;
    };
    if name.starts_with(".ctors.") || name.starts_with(".dtors.") {
        return 65535u32.saturating_sub(n);
    }
    n
}

/// Sections lld never collects (its `isReserved`): init/fini arrays, notes, `.ctors`/`.dtors`,
/// `.init`/`.fini`, `.jcr`. Recorded per section as [`crate::input::input_files::InputSection::reserved`].
pub fn is_reserved(name: &[u8], sh_type: u32) -> bool {
    matches!(
        sh_type,
        elf::SHT_INIT_ARRAY | elf::SHT_FINI_ARRAY | elf::SHT_PREINIT_ARRAY | elf::SHT_NOTE
    ) || name.starts_with(b".ctors")
        || name.starts_with(b".dtors")
        || name.starts_with(b".init")
        || name.starts_with(b".fini")
        || name.starts_with(b".jcr")
}

/// Names of the sections a split-stack object carries as markers: lld reads and discards them.
pub fn is_split_stack_marker(name: &[u8]) -> bool {
    name == b".note.GNU-split-stack" || name == b".note.GNU-no-split-stack"
}

/// The output section an input section goes to (its `output_name`, read with the file, as lld's
/// `getOutputSectionName`), with `-z keep-text-section-prefix`'s `.text.hot` and the like kept.
/// `name` is asked only then: reading a name as UTF-8 for every input section costs.
pub fn output_name_of<'a>(
    z: &ZOptions,
    name: impl FnOnce() -> &'a str,
    output_name: &'static str,
) -> &'static str {
    if z.keep_text_section_prefix && output_name == ".text" {
        text_prefix_section(name())
    } else {
        output_name
    }
}

/// `v` rounded up to a multiple of `a` (alignments of 0 and 1 leave it as is).
pub fn align_to(v: u64, a: u64) -> u64 {
    if a <= 1 {
        v
    } else {
        v.div_ceil(a) * a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole rule, as `InputSection::output_name` applies it.
    fn output_section_name(name: &[u8]) -> &str {
        MergedName::of(name)
            .get()
            .unwrap_or_else(|| std::str::from_utf8(name).unwrap_or("<non-utf8>"))
    }

    #[test]
    fn names() {
        assert_eq!(output_section_name(b".text.main"), ".text");
        assert_eq!(output_section_name(b".text"), ".text");
        assert_eq!(output_section_name(b".textual"), ".textual");
        assert_eq!(output_section_name(b".data.rel.ro.local"), ".data.rel.ro");
        assert_eq!(output_section_name(b".data.foo"), ".data");
        assert_eq!(output_section_name(b".init_array.00101"), ".init_array");
        assert_eq!(output_section_name(b"my_section"), "my_section");
        assert_eq!(output_section_name(b".data.rel.ro"), ".data.rel.ro");
        assert_eq!(output_section_name(b".srodata.foo"), ".srodata");
        assert_eq!(output_section_name(b".sbss.x"), ".sbss");
        assert_eq!(output_section_name(b".ARM.extab.foo"), ".ARM.extab");
        assert_eq!(output_section_name(b".data.rel.rox"), ".data");
        assert_eq!(output_section_name(b".bss.rel.ro.x"), ".bss.rel.ro");
        assert_eq!(output_section_name(b".tbss.x.y"), ".tbss");
        assert_eq!(output_section_name(b".rodata.str1.1"), ".rodata");
        assert_eq!(
            output_section_name(b".gcc_except_table._Z1fv"),
            ".gcc_except_table"
        );
        assert_eq!(output_section_name(b".text."), ".text");
        assert_eq!(output_section_name(b"."), ".");
        assert_eq!(output_section_name(b".foo.text"), ".foo.text");
        // Names are compared as bytes: only a name kept whole must be UTF-8.
        assert_eq!(output_section_name(b".text.\xff"), ".text");
        assert_eq!(output_section_name(b".data.rel.ro.\xff"), ".data.rel.ro");
        assert_eq!(output_section_name(b".x\xff"), "<non-utf8>");
    }

    #[test]
    fn every_prefix_survives_its_one_byte_form() {
        for p in MERGED_DOTTED_PREFIXES.iter().chain(MERGED_PREFIXES) {
            assert_eq!(MergedName::of(p.as_bytes()).get(), Some(*p));
            let longer = format!("{p}.x");
            assert_eq!(MergedName::of(longer.as_bytes()).get(), Some(*p));
        }
        assert_eq!(MergedName::of(b"my_section"), MergedName::WHOLE);
        assert_eq!(MergedName::WHOLE.get(), None);
    }

    #[test]
    fn priorities() {
        assert_eq!(init_priority(".init_array.101"), 101);
        assert_eq!(init_priority(".init_array"), 65536);
        assert_eq!(init_priority(".ctors.65435"), 100);
    }
}
