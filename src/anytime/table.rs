//! The heuristic search's own transposition table: depth-limited scores with their bound
//! type. It is separate from the exact solver's table ([`crate::solve::tt`]) by design: a
//! heuristic score must never be read back as a proven bound.
//!
//! Single-threaded, fixed size, one entry a slot, always replaced. Entries carry the full
//! 64-bit key ([`crate::Rules::key`]), so a slot holding another position is ignored.

/// What a stored score says about the position's value at that depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The value is exactly the score (it fell inside the window).
    Exact,
    /// The value is at least the score (a cutoff).
    Lower,
    /// The value is at most the score (every move failed low).
    Upper,
}

/// One stored search result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The position's key.
    pub key: u64,
    /// Score in hundredths of a seed (future margin for the side to move).
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: u16,
    /// What the score bounds.
    pub bound: Bound,
    /// Index of the best move in the position's move list, if any.
    pub best: Option<u8>,
    /// Whether no evaluated leaf lies below the score (every leaf a finished game, a
    /// repetition or a tablebase value): such a score holds at any depth. It is exact
    /// only in games without repetition (see [`super::search`]).
    pub complete: bool,
}

/// A fixed-size table of [`Entry`].
///
/// # Examples
///
/// ```
/// use giuthi::anytime::table::{Bound, Entry, HeuristicTable};
/// let mut t = HeuristicTable::new(1);
/// let e = Entry { key: 7, score: 150, depth: 3, bound: Bound::Exact, best: Some(1), complete: false };
/// t.store(e);
/// assert_eq!(t.probe(7), Some(e));
/// assert_eq!(t.probe(8), None);
/// ```
#[derive(Debug, Clone)]
pub struct HeuristicTable {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl HeuristicTable {
    /// A table of about `mb` megabytes (at least 1024 slots, a power of two).
    pub fn new(mb: usize) -> HeuristicTable {
        let want = (mb.max(1) << 20) / std::mem::size_of::<Option<Entry>>();
        let n = want.next_power_of_two().max(1024) / 2;
        let n = n.max(1024);
        HeuristicTable {
            slots: vec![None; n],
            mask: n - 1,
        }
    }

    fn slot(&self, key: u64) -> usize {
        // Fibonacci hashing: exact keys of small boards are not spread in their low bits.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    /// The entry of `key`, if its slot holds it.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores `e` (replacing whatever its slot held).
    pub fn store(&mut self, e: Entry) {
        let i = self.slot(e.key);
        self.slots[i] = Some(e);
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }
}
