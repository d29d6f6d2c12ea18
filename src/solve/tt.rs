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
//! bits 33..41 the index of the best move found (255 = none), bits 41..47 the *work* (about
//! log2 of the nodes searched to prove the entry), bit 63 set in every entry (so an
//! all-zero slot is empty).
//!
//! # Buckets and replacement
//!
//! Slots come in buckets of four (one 64-byte cache line). A store merges into the slot of
//! the same key and game, else fills an empty slot, else replaces the slot of least work:
//! entries that were expensive to prove stay.

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
const WORK_SHIFT: u32 = 41;
const WORK_MASK: u64 = 63;
/// Slots per bucket.
const WAYS: usize = 4;

/// One cache line of slots.
#[repr(align(64))]
struct Bucket([[AtomicU64; 2]; WAYS]);

/// The table's memory: an anonymous memory map advised to use huge pages (2 MB on x86-64
/// Linux), so that the random probes of a large table do not also miss the TLB on every
/// access; an ordinary vector where the map cannot be made.
enum Buckets {
    Map {
        /// Keeps the mapping alive; accessed only through `ptr`.
        _map: memmap2::MmapMut,
        /// The start of the mapping, taken once from `&mut` (so writes through the atomics
        /// do not go through a shared `&[u8]`).
        ptr: *const Bucket,
        n: usize,
    },
    Vec(Vec<Bucket>),
}

impl Buckets {
    fn new(n: usize) -> Buckets {
        let bytes = n * std::mem::size_of::<Bucket>();
        match memmap2::MmapOptions::new().len(bytes).map_anon() {
            Ok(mut map) => {
                // Advice only: a kernel without transparent huge pages keeps 4 KB pages.
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                let ptr = map.as_mut_ptr().cast::<Bucket>().cast_const();
                Buckets::Map { _map: map, ptr, n }
            }
            Err(_) => Buckets::Vec(
                (0..n)
                    .map(|_| {
                        Bucket(std::array::from_fn(|_| {
                            [AtomicU64::new(0), AtomicU64::new(0)]
                        }))
                    })
                    .collect(),
            ),
        }
    }
}

// SAFETY: `ptr` points into the mapping owned by the same value; the memory is only
// accessed as atomics, which are `Send` and `Sync`.
#[allow(unsafe_code)]
unsafe impl Send for Buckets {}
// SAFETY: as above.
#[allow(unsafe_code)]
unsafe impl Sync for Buckets {}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    #[allow(unsafe_code)]
    fn deref(&self) -> &[Bucket] {
        match self {
            // SAFETY: the map is `n * size_of::<Bucket>()` bytes, page-aligned (so aligned
            // for `Bucket`'s 64 bytes), zero-filled by the kernel (all-zero `AtomicU64`s
            // are valid empty slots), lives as long as `self`, and is only ever accessed
            // through this shared slice of atomics (never through `&mut [u8]`).
            Buckets::Map { ptr, n, .. } => unsafe { std::slice::from_raw_parts(*ptr, *n) },
            Buckets::Vec(v) => v,
        }
    }
}

/// The work figure of a proof that searched `nodes` nodes: `floor(log2(nodes + 1))`.
#[inline]
pub fn work_of(nodes: u64) -> u8 {
    (64 - (nodes + 1).leading_zeros() - 1) as u8
}

/// The fixed-size lock-free transposition table.
///
/// # Examples
///
/// ```
/// use giuthi::solve::tt::Table;
/// let tt = Table::new(1);
/// tt.store(42, true, 3, 7, Some(2), 5);
/// let e = tt.probe(42, true).expect("stored");
/// assert_eq!((e.lower, e.upper, e.best), (3, 7, Some(2)));
/// assert!(tt.probe(42, false).is_none());
/// ```
pub struct Table {
    buckets: Buckets,
    mask: usize,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} slots)", self.len())
    }
}

fn pack(bad: bool, lower: Score, upper: Score, best: Option<u8>, work: u8) -> u64 {
    VALID
        | ((work as u64).min(WORK_MASK) << WORK_SHIFT)
        | (lower as u16 as u64)
        | ((upper as u16 as u64) << 16)
        | ((bad as u64) << 32)
        | (best.map_or(NO_MOVE, |b| b as u64) << 33)
}

impl Table {
    /// A table of about `mb` megabytes (a power of two of 64-byte buckets of four 16-byte
    /// slots; at least 1024 slots).
    pub fn new(mb: usize) -> Table {
        let want = (mb.max(1) << 20) / (16 * WAYS);
        let mut n = 1024 / WAYS;
        while n * 2 <= want {
            n *= 2;
        }
        let buckets = Buckets::new(n);
        Table {
            buckets,
            mask: n - 1,
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// Whether the table has no slot (never).
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.0 {
                s[0].store(0, Ordering::Relaxed);
                s[1].store(0, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    fn bucket(&self, key: u64, bad: bool) -> &Bucket {
        let h = mix64(key ^ (bad as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        &self.buckets[(h as usize) & self.mask]
    }

    /// The slot of the bucket holding `key` in game `bad`, and its data.
    #[inline]
    fn find(b: &Bucket, key: u64, bad: bool) -> Option<(usize, u64)> {
        for (i, s) in b.0.iter().enumerate() {
            let kx = s[0].load(Ordering::Relaxed);
            let data = s[1].load(Ordering::Relaxed);
            if data & VALID != 0 && kx ^ data == key && ((data >> 32) & 1 == 1) == bad {
                return Some((i, data));
            }
        }
        None
    }

    /// The bounds stored for `key` in the game `bad`, if any.
    #[inline]
    pub fn probe(&self, key: u64, bad: bool) -> Option<Entry> {
        let (_, data) = Self::find(self.bucket(key, bad), key, bad)?;
        let best = ((data >> 33) & 0xff) as u8;
        Some(Entry {
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (best as u64 != NO_MOVE).then_some(best),
        })
    }

    /// Stores bounds for `key` in game `bad` proven with `work` (see [`work_of`]),
    /// intersected with what the table already proves for the same key and game; otherwise
    /// into an empty slot of the bucket or over the one of least work.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        bad: bool,
        lower: Score,
        upper: Score,
        best: Option<u8>,
        work: u8,
    ) {
        let b = self.bucket(key, bad);
        let (mut lo, mut hi, mut mv, mut w) = (lower, upper, best, work);
        let slot = if let Some((i, data)) = Self::find(b, key, bad) {
            let (elo, ehi) = (data as u16 as i16, (data >> 16) as u16 as i16);
            let ebest = ((data >> 33) & 0xff) as u8;
            lo = lo.max(elo);
            hi = hi.min(ehi);
            if mv.is_none() && ebest as u64 != NO_MOVE {
                mv = Some(ebest);
            }
            w = w.max(((data >> WORK_SHIFT) & WORK_MASK) as u8);
            if lo > hi {
                // Cannot happen with sound bounds; keep the new ones (hash keys may collide).
                lo = lower;
                hi = upper;
            }
            i
        } else {
            let mut victim = 0;
            let mut least = u64::MAX;
            for (i, s) in b.0.iter().enumerate() {
                let data = s[1].load(Ordering::Relaxed);
                if data & VALID == 0 {
                    victim = i;
                    break;
                }
                let ew = (data >> WORK_SHIFT) & WORK_MASK;
                if ew < least {
                    least = ew;
                    victim = i;
                }
            }
            victim
        };
        let data = pack(bad, lo, hi, mv, w);
        let s = &b.0[slot];
        s[0].store(key ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
}
