//! `--oformat=binary`: the output is a flat image, as ld.lld writes it — the bytes of the loaded
//! sections, each at its load address less the lowest load address of a section with bytes, the
//! gaps zero, and nothing else: no ELF header, no program headers, no non-allocated sections, no
//! section header table. Firmware, boot loaders and ROMs are made this way.
//!
//! lld makes no program headers for such an output ("binary and relocatable output does not
//! have PHDRS"), and that shapes the layout too:
//! - without a linker script's `SECTIONS` there are no segments to start on new pages: the
//!   sections follow each other from the image base at their own alignment, and the headers
//!   take no room (`SIZEOF_HEADERS` is 0);
//! - under `SECTIONS` the script places everything as usual; only `SIZEOF_HEADERS` changes
//!   (to 0), and `PHDRS` has nothing to describe.
//!
//! - a section's load address is its address: lld keeps load addresses on the `PT_LOAD`s
//!   (`OutputSection::getLMA` is the address plus its `PT_LOAD`'s LMA offset, or the address
//!   alone outside any), so a script's `AT(...)`/`AT>` does not move a section in the image. A
//!   `.data` linked at RAM addresses with `AT` in ROM thus lands at its RAM address less the
//!   lowest address, padding the image up to there, exactly as with ld.lld 22.
//!
//! The map file and the other reports are those of the ELF link: lld still makes `.symtab`,
//! `.comment` and the rest, and lists them; they are just not written.

use crate::config::Config;
use crate::error::Result;
use crate::input::section_rules::align_to;
use crate::output::layout::Layout;
use crate::output::sections::{OutputSection, Synthetic};
use object::elf;

/// Whether a section's bytes are in the image: allocated, with contents, not empty (lld's
/// `needsOffset` for binary output).
pub fn in_image(os: &OutputSection) -> bool {
    os.is_alloc() && !os.is_nobits() && os.size > 0
}

/// Addresses of the built-in layout (no `SECTIONS`) for a flat image: lld's address assignment
/// with no program headers. From the image base, each allocated section at its alignment (a
/// `--section-start`/`-Ttext` address as given); `.tbss` takes no room; `.relro_padding` is sized
/// up to the next common page boundary without moving the next section, as lld leaves it (the
/// padding is NOBITS, so the image does not grow; a writable section after it overlaps it,
/// which `section_checks` reports as lld does).
pub(super) fn assign_addresses(config: &Config, lay: &mut Layout) -> Result<()> {
    let common_page = config.common_page_size();
    let relro_padding = lay
        .synthetic_index
        .get(&Synthetic::RelroPadding)
        .map(|&(os, _)| os as usize);
    let mut dot = config.image_base();
    // Where the next `.tbss` goes: consecutive ones follow each other, apart from the rest.
    let mut tbss_next: Option<u64> = None;
    for i in 0..lay.sections.len() {
        let os = &mut lay.sections[i];
        if !os.is_alloc() {
            continue;
        }
        let tbss = os.is_nobits() && os.flags & u64::from(elf::SHF_TLS) != 0;
        let saved = dot;
        if tbss {
            dot = *tbss_next.get_or_insert(dot);
        }
        dot = match config.section_start(&os.name) {
            Some(start) => start,
            None => align_to(dot, os.align.max(1)),
        };
        os.addr = dot;
        os.offset = 0;
        if Some(i) == relro_padding {
            os.set_synthetic_size(align_to(dot, common_page) - dot);
            continue;
        }
        let end = dot.wrapping_add(os.size);
        if tbss {
            tbss_next = Some(end);
            dot = saved;
        } else {
            dot = end;
        }
    }
    set_tls_bounds(lay);
    lay.segments.clear();
    Ok(())
}

/// The TLS block relocations resolve against, from the TLS sections themselves (there is no
/// `PT_TLS` to take it from): from the first one's address to the last one's end, aligned to
/// the most aligned one.
pub(super) fn set_tls_bounds(lay: &mut Layout) {
    let mut tls = lay
        .sections
        .iter()
        .filter(|s| s.is_alloc() && s.flags & u64::from(elf::SHF_TLS) != 0);
    let Some(first) = tls.next() else {
        return;
    };
    let (mut end, mut align) = (first.addr.wrapping_add(first.size), first.align.max(1));
    for s in tls {
        end = s.addr.wrapping_add(s.size);
        align = align.max(s.align);
    }
    lay.tls_start = first.addr;
    lay.tls_align = align;
    lay.tls_end_aligned = align_to(end, align);
}

/// File offsets of a flat image (lld's `assignFileOffsetsBinary`): each section with bytes at
/// its load address (its address: see the module documentation) less the lowest one; the file
/// ends at the end of the last. Other sections get offset 0 and are not written.
pub(super) fn assign_file_offsets(lay: &mut Layout) {
    for os in lay.sections.iter_mut() {
        // No PT_LOAD carries an LMA offset: the load-address overlap check then sees the
        // addresses, as lld's does.
        os.lma_offset = 0;
    }
    let base = lay
        .sections
        .iter()
        .filter(|s| in_image(s))
        .map(|s| s.addr)
        .min()
        .unwrap_or(0);
    let mut file_size = 0u64;
    for os in lay.sections.iter_mut() {
        if in_image(os) {
            os.offset = os.addr - base;
            file_size = file_size.max(os.offset.saturating_add(os.size));
        } else {
            os.offset = 0;
        }
    }
    lay.segments.clear();
    lay.non_alloc_start = 0;
    lay.shoff = 0;
    lay.file_size = file_size;
}
