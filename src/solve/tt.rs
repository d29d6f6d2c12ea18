//! The transposition table: a fixed-size, lock-free table of proven bounds.
//!
//! Each slot is two `AtomicU64`: `key ^ data` and `data` (the lockless scheme of Hyatt and
//! Mann): a torn write (one word from one store, the other from another) fails the key
//! check and reads as a miss, so no lock is needed and no wrong entry is ever returned for
//! an exact key.
//!
//! An entry holds bounds `lower <= v <= upper` on the *positional* value `v` of a state
//! (its value when no strict ancestor is in the history, RULES.md V2) for the side to
//! move, in one of the two repetition games: `bad == true` when a repetition counts as
//! minus infinity for the side to move (the mover is the game's "bad side"), `false` when it
//! counts as plus infinity. Bounds do not carry a depth: every stored bound is exact-depth
//! (the search always runs to the end of the game).
//!
//! # Format
//!
//! `data`: bits 0..16 `lower` (as `u16` of an `i16` score), 16..32 `upper`, bit 32 `bad`,
//! bits 33..41 the index of the best move found (255 = none), bit 63 set in every entry
//! (so an all-zero slot is empty).

use crate::index::mix64;
use crate::value::Score;
use std::sync::atomic::{AtomicU64, Ordering};

/// One probe result: proven bounds on the positional value and a move hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// A lower bound on the value.
    pub lower: Score,
    /// An upper bound on the value.
    pub upper: Score,
    /// Index of the move that proved the last lower bound (in the rules' child order).
    pub best: Option<u8>,
}

const VALID: u64 = 1 << 63;
const NO_MOVE: u64 = 255;

/// The fixed-size lock-free transposition table.
///
/// # Examples
///
/// ```
/// use giuthi::solve::tt::Table;
/// let tt = Table::new(1);
/// tt.store(42, true, 3, 7, Some(2));
/// let e = tt.probe(42, true).expect("stored");
/// assert_eq!((e.lower, e.upper, e.best), (3, 7, Some(2)));
/// assert!(tt.probe(42, false).is_none());
/// ```
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} slots)", self.slots.len())
    }
}

fn pack(bad: bool, lower: Score, upper: Score, best: Option<u8>) -> u64 {
    VALID
        | (lower as u16 as u64)
        | ((upper as u16 as u64) << 16)
        | ((bad as u64) << 32)
        | (best.map_or(NO_MOVE, |b| b as u64) << 33)
}

impl Table {
    /// A table of about `mb` megabytes (a power of two of 16-byte slots; at least 1024).
    pub fn new(mb: usize) -> Table {
        let want = (mb.max(1) << 20) / 16;
        let mut n = 1024;
        while n * 2 <= want {
            n *= 2;
        }
        let slots = (0..n)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        Table { slots, mask: n - 1 }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no slot (never).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    #[inline]
    fn slot(&self, key: u64, bad: bool) -> &[AtomicU64; 2] {
        let h = mix64(key ^ (bad as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        &self.slots[(h as usize) & self.mask]
    }

    /// The bounds stored for `key` in the game `bad`, if any.
    #[inline]
    pub fn probe(&self, key: u64, bad: bool) -> Option<Entry> {
        let s = self.slot(key, bad);
        let kx = s[0].load(Ordering::Relaxed);
        let data = s[1].load(Ordering::Relaxed);
        if data & VALID == 0 || kx ^ data != key || ((data >> 32) & 1 == 1) != bad {
            return None;
        }
        let best = ((data >> 33) & 0xff) as u8;
        Some(Entry {
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (best as u64 != NO_MOVE).then_some(best),
        })
    }

    /// Stores bounds for `key` in game `bad`, intersected with what the slot already proves
    /// for the same key and game (the slot is replaced otherwise).
    #[inline]
    pub fn store(&self, key: u64, bad: bool, lower: Score, upper: Score, best: Option<u8>) {
        let (mut lo, mut hi, mut mv) = (lower, upper, best);
        if let Some(e) = self.probe(key, bad) {
            lo = lo.max(e.lower);
            hi = hi.min(e.upper);
            if mv.is_none() {
                mv = e.best;
            }
            if lo > hi {
                // Cannot happen with sound bounds; keep the new ones (hash keys may collide).
                lo = lower;
                hi = upper;
            }
        }
        let data = pack(bad, lo, hi, mv);
        let s = self.slot(key, bad);
        s[0].store(key ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
}
