//! The order of input sections inside output sections when the command line changes it:
//! `--shuffle-sections=GLOB=SEED` (lld's permutation: the same `std::mt19937` stream and the
//! same swaps, so a seed gives lld's order) and the random gaps of
//! `--randomize-section-padding=SEED` (lld's draws too).

use crate::config::Config;
use crate::input_files::{FileId, SectionKind};
use crate::resolve::Resolved;
use hashbrown::HashMap;

/// `std::mt19937`, the 32-bit Mersenne Twister C++ specifies (lld seeds one per shuffle).
pub struct Mt19937 {
    state: [u32; 624],
    next: usize,
}

impl Mt19937 {
    pub fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, next: 624 }
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.next >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
                let mut v = self.state[(i + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.state[i] = v;
            }
            self.next = 0;
        }
        let mut y = self.state[self.next];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

/// `llvm::shuffle`: for each position, swap with one `rng() % remaining` places further.
fn shuffle<T>(v: &mut [T], rng: &mut Mt19937) {
    let mut first = 0;
    let mut size = v.len();
    while size > 1 {
        let offset = rng.next_u32() as usize % size;
        if offset != 0 {
            v.swap(first, first + offset);
        }
        first += 1;
        size -= 1;
    }
}

/// A seed from the operating system, for a seed of 0 (lld: `std::random_device`).
fn random_seed() -> u32 {
    let mut b = [0u8; 4];
    if let Ok(mut f) = std::fs::File::open("/dev/urandom") {
        use std::io::Read;
        let _ = f.read_exact(&mut b);
    }
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    u32::from_le_bytes(b) ^ t
}

/// `--shuffle-sections`: the rank of every input section after the shuffles, for ordering the
/// members of each output section (`None` without the option). As in lld, the list shuffled is
/// every input section the link read (dead ones too, so that the permutation does not depend
/// on `--gc-sections`), in file and section order; each `GLOB=SEED` permutes the sections whose
/// name matches among their own positions: seed -1 reverses them, 0 takes a random seed.
pub fn shuffled_ranks(config: &Config, res: &Resolved) -> Option<HashMap<(FileId, u32), u32>> {
    if config.shuffle_sections.is_empty() {
        return None;
    }
    let strip_debug = config.strip != crate::config::Strip::None;
    let mut list: Vec<(FileId, u32, &[u8])> = Vec::new();
    for (fi, f) in res.files.iter().enumerate() {
        for (si, s) in f.sections.iter().enumerate() {
            let kept = matches!(
                s.kind,
                SectionKind::Regular
                    | SectionKind::Merge
                    | SectionKind::Comment
                    | SectionKind::Garbage
                    | SectionKind::Folded
            );
            // lld drops debug sections at input under --strip-debug.
            let stripped = strip_debug
                && !s.is_alloc()
                && (s.name.starts_with(b".debug") || s.name.starts_with(b".zdebug"));
            if kept && !stripped {
                list.push((fi as FileId, si as u32, s.name));
            }
        }
    }
    for (glob, seed) in &config.shuffle_sections {
        let positions: Vec<usize> = (0..list.len())
            .filter(|&i| crate::glob::matches(glob.as_bytes(), list[i].2))
            .collect();
        let mut matched: Vec<_> = positions.iter().map(|&i| list[i]).collect();
        if *seed == u32::MAX {
            matched.reverse();
        } else {
            let seed = if *seed == 0 { random_seed() } else { *seed };
            shuffle(&mut matched, &mut Mt19937::new(seed));
        }
        for (&i, m) in positions.iter().zip(matched) {
            list[i] = m;
        }
    }
    Some(
        list.iter()
            .enumerate()
            .map(|(rank, &(f, s, _))| ((f, s), rank as u32))
            .collect(),
    )
}

/// lld's list of the output sections `--randomize-section-padding` pads.
fn can_pad(name: &str) -> bool {
    matches!(
        name,
        ".bss" | ".data" | ".data.rel.ro" | ".lbss" | ".ldata" | ".lrodata" | ".ltext" | ".rodata"
    ) || name.starts_with(".text")
}

/// `--randomize-section-padding=SEED`: bytes of padding before each member of each output
/// section, drawn as lld draws them (one `std::mt19937` stream over the output sections in
/// order): the first padded section of each PT_LOAD starts with up to a page of padding, and
/// each member is preceded, one time in 16, by padding as large as its alignment. `sections`
/// gives each allocated output section's name, PT_LOAD number and member alignments, in output
/// order; the result has one padding list per entry.
pub fn random_padding(
    seed: u64,
    page_size: u64,
    sections: &[(&str, u32, Vec<u64>)],
) -> Vec<Vec<u64>> {
    let mut rng = Mt19937::new(seed as u32);
    let mut current_load = None;
    sections
        .iter()
        .map(|(name, load, aligns)| {
            let mut pads = vec![0u64; aligns.len()];
            if !can_pad(name) {
                return pads;
            }
            let mut leading = 0;
            if current_load != Some(*load) {
                leading = u64::from(rng.next_u32()) % page_size;
                current_load = Some(*load);
            }
            for (pad, &align) in pads.iter_mut().zip(aligns) {
                if rng.next_u32().is_multiple_of(16) {
                    *pad = align;
                }
            }
            if let Some(first) = pads.first_mut() {
                *first += leading;
            }
            pads
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C++ standard's check value: the 10000th output of a default-seeded mt19937.
    #[test]
    fn mt19937_matches_the_standard() {
        let mut g = Mt19937::new(5489);
        let mut v = 0;
        for _ in 0..10000 {
            v = g.next_u32();
        }
        assert_eq!(v, 4_123_659_995);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..50).collect();
        shuffle(&mut v, &mut Mt19937::new(7));
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
