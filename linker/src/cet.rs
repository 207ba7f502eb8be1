//! Intel CET (control-flow enforcement) properties of the inputs: the x86 feature bits every
//! input object's `.note.gnu.property` carries are ANDed into the output's, as lld's
//! `readSecurityNotes` does, and `-z cet-report=` / `-z force-ibt` report the objects that lack
//! them. The result decides the output's `.note.gnu.property` and whether the PLT is the IBT one
//! (`.plt` + `.plt.sec`, see `arch::x86_64::PltStyle`).

use crate::config::{CetReport, Config};
use crate::error::Error;
use crate::input::input_files::{ObjectFile, SectionKind};
use crate::resolve::Resolved;
use object::elf;

/// The feature bits the output gets (lld's `andFeatures`): the AND over every object file in the
/// link, an object's missing IBT bit counting as present under `-z force-ibt`, plus `-z shstk`'s
/// bit. Warnings are printed (in lld's order: per file, the `-z cet-report` lines for IBT then
/// SHSTK, then `-z force-ibt`'s); `-z cet-report=error` findings come back as errors, which do
/// not stop the link before lld would stop it (after the relocation scan).
pub fn read_security_notes(config: &Config, res: &Resolved) -> (u32, Vec<Error>) {
    let mut errors = Vec::new();
    // lld starts from all bits set, so a link without object files claims everything.
    let mut and = u32::MAX;
    for f in res.files.iter().filter(|f| f.in_link()) {
        let mut features = feature_1_and(f);
        for (bit, name) in [
            (elf::GNU_PROPERTY_X86_FEATURE_1_IBT, "IBT"),
            (elf::GNU_PROPERTY_X86_FEATURE_1_SHSTK, "SHSTK"),
        ] {
            // Most links report nothing: the message is made only to be said.
            if features & bit != 0 || config.z.cet_report == CetReport::None {
                continue;
            }
            let msg = format!(
                "{}: -z cet-report: file does not have GNU_PROPERTY_X86_FEATURE_1_{name} property",
                f.name
            );
            match config.z.cet_report {
                CetReport::None => {}
                CetReport::Warning => {
                    if let Err(e) = config.warn(&msg) {
                        errors.push(e);
                    }
                }
                CetReport::Error => errors.push(Error(msg)),
            }
        }
        if (config.z.force_ibt || config.z.ibt)
            && features & elf::GNU_PROPERTY_X86_FEATURE_1_IBT == 0
        {
            // -z cet-report has already said so, if it says anything; GNU's -z ibt is silent.
            if config.z.force_ibt && config.z.cet_report == CetReport::None {
                let msg = format!(
                    "{}: -z force-ibt: file does not have GNU_PROPERTY_X86_FEATURE_1_IBT property",
                    f.name
                );
                if let Err(e) = config.warn(&msg) {
                    errors.push(e);
                }
            }
            features |= elf::GNU_PROPERTY_X86_FEATURE_1_IBT;
        }
        and &= features;
    }
    if config.z.shstk {
        and |= elf::GNU_PROPERTY_X86_FEATURE_1_SHSTK;
    }
    (and, errors)
}

/// The `GNU_PROPERTY_X86_FEATURE_1_AND` bits of one object (0 without a note).
fn feature_1_and(f: &ObjectFile) -> u32 {
    property(f, elf::GNU_PROPERTY_X86_FEATURE_1_AND)
}

/// A 4-byte x86 property of an object's `.note.gnu.property` sections (0 when absent).
fn property(f: &ObjectFile, ty: u32) -> u32 {
    // Only where parse saw the notes: every object of a CET-enabled build has one, and the
    // sections of a big link are half a million.
    let Some((first, last)) = f.markers.gnu_property else {
        return 0;
    };
    f.sections
        .get(first as usize..=last as usize)
        .unwrap_or_default()
        .iter()
        .filter(|s| s.kind == SectionKind::GnuProperty)
        .fold(0, |acc, s| acc | read_property(s.data, ty))
}

/// The ISA levels the output says it needs: none, as in lld, unless GNU ld's `-z x86-64-vN`
/// asks for one; then, as GNU ld, also every level an input needs.
pub fn isa_needed(config: &Config, res: &Resolved) -> u32 {
    if config.z.isa_level_needed == 0 {
        return 0;
    }
    res.files
        .iter()
        .filter(|f| f.in_link())
        .fold(config.z.isa_level_needed, |acc, f| {
            acc | property(f, GNU_PROPERTY_X86_ISA_1_NEEDED)
        })
}

/// The `GNU_PROPERTY_X86_FEATURE_1_AND` value in the notes of one `.note.gnu.property` section.
#[cfg(test)]
fn read_feature_1_and(data: &[u8]) -> u32 {
    read_property(data, elf::GNU_PROPERTY_X86_FEATURE_1_AND)
}

/// The OR of the values of property `want` in the notes of one `.note.gnu.property` section.
fn read_property(data: &[u8], want: u32) -> u32 {
    let rd = |d: &[u8], o: usize| {
        d.get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut off = 0usize;
    let mut out = 0;
    while let (Some(namesz), Some(descsz), Some(ty)) =
        (rd(data, off), rd(data, off + 4), rd(data, off + 8))
    {
        let name_start = off + 12;
        let desc_start =
            name_start + crate::input::section_rules::align_to(u64::from(namesz), 4) as usize;
        let desc_end = desc_start + descsz as usize;
        if desc_end > data.len() {
            break;
        }
        if ty == elf::NT_GNU_PROPERTY_TYPE_0 {
            let mut p = desc_start;
            while p + 8 <= desc_end {
                let (Some(pt), Some(psz)) = (rd(data, p), rd(data, p + 4)) else {
                    break;
                };
                if pt == want && psz >= 4 {
                    out |= rd(data, p + 8).unwrap_or(0);
                }
                p += 8 + crate::input::section_rules::align_to(u64::from(psz), 8) as usize;
            }
        }
        off = crate::input::section_rules::align_to(desc_end as u64, 8) as usize;
    }
    out
}

/// `GNU_PROPERTY_X86_ISA_1_NEEDED`: the x86-64 ISA levels the program needs.
const GNU_PROPERTY_X86_ISA_1_NEEDED: u32 = 0xc000_8002;

/// The output's `.note.gnu.property`: a `GNU_PROPERTY_X86_FEATURE_1_AND` property holding
/// `and` (the features every input has) and, for GNU ld's `-z x86-64-vN`, a
/// `GNU_PROPERTY_X86_ISA_1_NEEDED` one; nothing when neither has a bit set.
pub fn gnu_property_note(and: u32, isa_needed: u32) -> Vec<u8> {
    let props: Vec<(u32, u32)> = [
        (elf::GNU_PROPERTY_X86_FEATURE_1_AND, and),
        (GNU_PROPERTY_X86_ISA_1_NEEDED, isa_needed),
    ]
    .into_iter()
    .filter(|&(_, v)| v != 0)
    .collect();
    if props.is_empty() {
        return Vec::new();
    }
    let mut v = Vec::new();
    v.extend_from_slice(&4u32.to_le_bytes());
    v.extend_from_slice(&(16 * props.len() as u32).to_le_bytes());
    v.extend_from_slice(&elf::NT_GNU_PROPERTY_TYPE_0.to_le_bytes());
    v.extend_from_slice(b"GNU\0");
    // Each property: type, size, the 4-byte value, padding to 8.
    for (ty, value) in props {
        v.extend_from_slice(&ty.to_le_bytes());
        v.extend_from_slice(&4u32.to_le_bytes());
        v.extend_from_slice(&value.to_le_bytes());
        v.extend_from_slice(&0u32.to_le_bytes());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::read_feature_1_and;

    /// A note as clang writes it for `-fcf-protection=full`.
    fn note(features: u32) -> Vec<u8> {
        let mut v = Vec::new();
        for w in [4u32, 16, 5] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(b"GNU\0");
        for w in [0xc000_0002u32, 4, features, 0] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v
    }

    #[test]
    fn reads_the_feature_bits() {
        assert_eq!(read_feature_1_and(&note(3)), 3);
        assert_eq!(read_feature_1_and(&note(1)), 1);
        assert_eq!(read_feature_1_and(&[]), 0);
        // Truncated: nothing read, no panic.
        assert_eq!(read_feature_1_and(&note(3)[..20]), 0);
    }
}
