//! The PLT: `.plt` (or, when the output claims IBT, `.plt.sec` for the entries calls go to and
//! a `.plt` of lazy halves), and `.iplt` for IFUNCs; the entries' form is the link's
//! `arch::PltStyle`.

use crate::arch::x86_64 as arch;
use crate::config::Config;
use crate::error::Result;
use crate::output::layout::Layout;
use crate::output::sections::{Synthetic, SyntheticChunk, ALLOC, EXEC};
use crate::relocations::scan::ScanResult;
use object::elf;

/// `.plt` (`.plt.sec` with IBT), at `addr`: the header, then one entry per PLT symbol.
pub fn write_plt(lay: &Layout, buf: &mut [u8], addr: u64) -> Result<()> {
    let style = lay.plt_style;
    style.write_header(buf, addr, lay.gotplt_addr)?;
    for i in 0..lay.scan.plt.len() as u32 {
        let entry = lay.plt_entry_address(i);
        let o = (entry - addr) as usize;
        let slot = lay.gotplt_slot(i);
        style.write_entry(&mut buf[o..], entry, slot, addr, i)?;
    }
    Ok(())
}

/// The IBT scheme's `.plt`, at `addr`: the lazy halves of the entries.
pub fn write_ibt_plt(lay: &Layout, buf: &mut [u8], addr: u64) -> Result<()> {
    // Under -z retpolineplt lld makes this section for IBT inputs all the same, but
    // its retpoline target has nothing to write there: it stays zero-filled.
    buf.fill(0);
    if lay.plt_style == arch::PltStyle::Ibt {
        arch::write_ibt_lazy_plt(buf, addr, lay.gotplt_addr, lay.scan.plt.len())?;
    }
    Ok(())
}

/// `.iplt`, at `addr`: one entry per IFUNC called through the PLT.
pub fn write_iplt(lay: &Layout, buf: &mut [u8], addr: u64) -> Result<()> {
    // lld writes `.iplt` entries with the PLT's entry code: their lazy parts (never
    // taken, IRELATIVE fills the slots first) jump to the PLT's header, or to address 0
    // when there is no PLT.
    for i in 0..lay.scan.iplt.len() as u32 {
        let entry = lay.iplt_entry_address(i);
        let o = (entry - addr) as usize;
        let slot = lay.igotplt_slot(i);
        lay.plt_style
            .write_entry(&mut buf[o..], entry, slot, lay.plt_addr, i)?;
    }
    Ok(())
}

/// lld's PLT layout for this link: retpolines when asked for, else IBT when the output claims it.
pub fn style(config: &Config, and_features: u32) -> arch::PltStyle {
    arch::PltStyle::choose(
        config.z.retpolineplt,
        config.z.now,
        and_features & elf::GNU_PROPERTY_X86_FEATURE_1_IBT != 0,
    )
}

/// Whether the output claims IBT, which splits the PLT in two.
fn ibt_sections(and_features: u32) -> bool {
    and_features & elf::GNU_PROPERTY_X86_FEATURE_1_IBT != 0
}

/// With IBT claimed, lld splits the PLT in two: the lazy halves in a `.plt` of their own,
/// made first, and the entries calls go to in `.plt.sec`. lld does so even under
/// `-z retpolineplt`, whose PLT then goes to `.plt.sec` and leaves `.plt` zero-filled.
pub fn ibt_plt_chunk(
    scan: &ScanResult,
    style: arch::PltStyle,
    and_features: u32,
) -> Option<SyntheticChunk> {
    (ibt_sections(and_features) && !scan.plt.is_empty()).then_some(SyntheticChunk {
        kind: Synthetic::IbtPlt,
        osec: ".plt",
        sh_type: elf::SHT_PROGBITS,
        flags: ALLOC | EXEC,
        size: 16 + scan.plt.len() as u64 * style.entry_size(),
        align: 16,
    })
}

/// The PLT calls go to (`.plt`, or `.plt.sec` with IBT). The retpoline `.iplt` entries jump
/// into the PLT's header, so it exists for them alone.
pub fn plt_chunk(
    config: &Config,
    scan: &ScanResult,
    style: arch::PltStyle,
    and_features: u32,
) -> Option<SyntheticChunk> {
    let needed = !scan.plt.is_empty() || (config.z.retpolineplt && !scan.iplt.is_empty());
    needed.then_some(SyntheticChunk {
        kind: Synthetic::Plt,
        osec: if ibt_sections(and_features) {
            ".plt.sec"
        } else {
            ".plt"
        },
        sh_type: elf::SHT_PROGBITS,
        flags: ALLOC | EXEC,
        size: style.header_size() + scan.plt.len() as u64 * style.entry_size(),
        align: 16,
    })
}

/// `.iplt`'s chunk, when IFUNCs are called through it.
pub fn iplt_chunk(scan: &ScanResult, style: arch::PltStyle) -> Option<SyntheticChunk> {
    (!scan.iplt.is_empty()).then_some(SyntheticChunk {
        kind: Synthetic::Iplt,
        osec: ".iplt",
        sh_type: elf::SHT_PROGBITS,
        flags: ALLOC | EXEC,
        size: scan.iplt.len() as u64 * style.entry_size(),
        align: 16,
    })
}
