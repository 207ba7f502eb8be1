//! A growable bitset: the mark bits of the walk and the public [`SymbolSet`].
//!
//! Marks are a bitset rather than a `Vec<bool>` because the walk tests a mark for every edge it
//! scans, in random order: 10^5 nodes fit in 12.5 KiB, i.e. in L1 cache.

use crate::ids::SymId;

/// Fixed-width words; `u64` matches the machine word on the targets we care about.
type Word = u64;
const BITS: usize = Word::BITS as usize;

/// A set of small integers stored as bits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BitSet {
    words: Vec<Word>,
}

impl BitSet {
    /// Makes room for indices below `len`; new bits are clear.
    pub(crate) fn grow(&mut self, len: usize) {
        let words = len.div_ceil(BITS);
        if words > self.words.len() {
            self.words.resize(words, 0);
        }
    }

    /// Whether `i` is in the set; indices beyond the grown size are simply absent.
    #[inline]
    pub(crate) fn contains(&self, i: usize) -> bool {
        match self.words.get(i / BITS) {
            Some(w) => w & (1 << (i % BITS)) != 0,
            None => false,
        }
    }

    /// Adds `i` and returns whether it was absent. `i` must be below the grown size (an internal
    /// invariant of the walk, which grows the set whenever the graph grows).
    #[inline]
    pub(crate) fn insert(&mut self, i: usize) -> bool {
        let w = &mut self.words[i / BITS];
        let bit = 1 << (i % BITS);
        let absent = *w & bit == 0;
        *w |= bit;
        absent
    }

    /// Number of elements.
    pub(crate) fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Elements in increasing order; skipping whole zero words keeps sparse sets cheap to scan.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut rest = w;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(wi * BITS + b)
            })
        })
    }
}

/// A set of symbols, as returned by [`crate::Liveness::symbols_referenced_from`].
///
/// A bitset indexed by [`SymId`], so membership tests are O(1) and iteration is in id order
/// (deterministic).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolSet {
    pub(crate) bits: BitSet,
}

impl SymbolSet {
    /// Whether `sym` is in the set.
    pub fn contains(&self, sym: SymId) -> bool {
        self.bits.contains(sym.index())
    }

    /// Number of symbols in the set.
    pub fn len(&self) -> usize {
        self.bits.count()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The symbols in increasing id order.
    pub fn iter(&self) -> impl Iterator<Item = SymId> + '_ {
        self.bits.iter().map(|i| SymId(i as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_contains_iter() {
        let mut b = BitSet::default();
        b.grow(200);
        assert!(b.insert(0));
        assert!(b.insert(63));
        assert!(b.insert(64));
        assert!(b.insert(199));
        assert!(!b.insert(64));
        assert!(b.contains(63) && !b.contains(62) && !b.contains(10_000));
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 63, 64, 199]);
        assert_eq!(b.count(), 4);
    }
}
