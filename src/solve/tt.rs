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
//!
//! # The summary of stored keys
//!
//! A table of at most 128 MB also keeps one bit a slot, set by every store at an index
//! taken from the key's hash (its top bits; the bucket takes the low ones). A probe whose
//! bit is clear answers "no entry" without reading the bucket: most probes are of
//! positions never stored, and the summary (512 KB for 64 MB) stays in a core's L2 cache
//! where the bucket would miss it (Kalah(6,3) at 64 MB: a fifth less user time, the same
//! nodes; docs/performance.md, Session 14). Bits are cleared only with the whole table,
//! so a clear bit is a proof and the answers are the table's own. The summary turns
//! itself off once half its bits are set (it would save too few misses), and a larger
//! table keeps none (its summary would miss the cache as the table does). It is not
//! saved: [`Table::read_from`] rebuilds it from the slots.
//!
//! # Saving and loading ([`Table::write_to`], [`Table::read_from`])
//!
//! Every entry is a proven bound on a positional value of the rules it was searched under,
//! so a snapshot taken at any moment, even while threads store into the table, is a set of
//! valid facts for the same rules (a slot torn by a concurrent store fails the key check
//! and reads as a miss, in the snapshot as in the live table). The saved form, all
//! integers little-endian:
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | 0..8 | magic | `GIUTHITT` |
//! | 8..10 | version | [`TABLE_FORMAT_VERSION`] (the slot layout of `# Format` above) |
//! | 10..16 | reserved | zero |
//! | 16..24 | slots | number of slots: a power of two, at least 1024 |
//! | 24.. | slots | per slot, the word `key ^ data` then the word `data` (16 bytes) |
//! | end - 8.. | checksum | [`crate::checksum::checksum`] of the slot bytes |
//!
//! # Stability
//!
//! [`TABLE_FORMAT_VERSION`] changes whenever the meaning of a slot changes (the packing of
//! `data`, the bucket of a key, what a stored bound means); a reader refuses other
//! versions.

use crate::checksum::Checksum;
use crate::index::mix64;
use crate::value::Score;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};

/// The magic bytes that open a saved table.
pub const TABLE_MAGIC: [u8; 8] = *b"GIUTHITT";
/// The version of the saved table (and of the slot layout) this code writes and reads.
pub const TABLE_FORMAT_VERSION: u16 = 1;
/// Bytes of a saved table before the slots.
pub const TABLE_HEADER_BYTES: u64 = 24;
/// The most slots a saved table may claim (16 GiB, the CLI's largest `--hash`).
pub const MAX_SLOTS: u64 = (16384 << 20) / 16;

/// Why a saved table could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableFileError {
    /// Reading failed (a truncated table reads as an unexpected end of file).
    #[error("reading the table: {0}")]
    Io(#[from] std::io::Error),
    /// The table does not start with `GIUTHITT`.
    #[error("the table does not start with the magic GIUTHITT")]
    BadMagic,
    /// A table layout this build does not read.
    #[error("table format version {found}, this build reads version {expected}")]
    UnsupportedVersion {
        /// The version in the file.
        found: u16,
        /// [`TABLE_FORMAT_VERSION`].
        expected: u16,
    },
    /// A slot count that is not a power of two in `1024..=MAX_SLOTS`.
    #[error("impossible slot count {0}")]
    BadSlotCount(u64),
    /// The memory for the table could not be reserved.
    #[error("cannot allocate a table of {0} slots")]
    Alloc(u64),
    /// The slots do not match their checksum.
    #[error("table checksum mismatch: the table is corrupt")]
    ChecksumMismatch,
}

/// The memory for a new transposition table could not be reserved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mb} MB transposition table ({bytes} bytes: out of memory)")]
pub struct TableAllocError {
    /// The size asked for, in megabytes.
    pub mb: usize,
    /// The bytes the table needs.
    pub bytes: u64,
}

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
/// The largest table with a summary of its stored keys (`Table::seen`): 8 M slots
/// (128 MB), a summary of 1 MB, which stays in a core's L2 cache. The summary of a larger
/// table shares the last-level cache with the table's own lines and misses as they do:
/// with an 8 MB summary, Kalah(6,4) in a 1 GB table took 12% to 35% more time.
const SEEN_MAX_SLOTS: usize = 8 << 20;
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
    /// `n` empty buckets, or `None` when the memory cannot be had.
    fn new(n: usize, huge: bool) -> Option<Buckets> {
        let bytes = n.checked_mul(std::mem::size_of::<Bucket>())?;
        match memmap2::MmapOptions::new().len(bytes).map_anon() {
            Ok(mut map) => {
                // Advice only: a kernel without transparent huge pages keeps 4 KB pages.
                #[cfg(target_os = "linux")]
                if huge {
                    let _ = map.advise(memmap2::Advice::HugePage);
                }
                #[cfg(not(target_os = "linux"))]
                let _ = huge;
                let ptr = map.as_mut_ptr().cast::<Bucket>().cast_const();
                Some(Buckets::Map { _map: map, ptr, n })
            }
            Err(_) => {
                let mut v: Vec<Bucket> = Vec::new();
                v.try_reserve_exact(n).ok()?;
                v.extend((0..n).map(|_| empty_bucket()));
                Some(Buckets::Vec(v))
            }
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

/// Buckets a save or load handles at once (64 KiB).
const CHUNK_BUCKETS: usize = 1024;

fn empty_bucket() -> Bucket {
    Bucket(std::array::from_fn(|_| {
        [AtomicU64::new(0), AtomicU64::new(0)]
    }))
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
    /// One bit a slot, set by every store at an index taken from the key's hash (other
    /// bits of it than the bucket's): a clear bit proves that no entry of that key was
    /// ever stored, so [`Table::probe`] answers without reading the bucket. The
    /// summary fits the caches where the table does not (a 64 MB table has a 512 KB
    /// summary), so the probes of positions never stored, most of them, cost no miss.
    seen: Box<[AtomicU64]>,
    /// `64 - log2(bits of seen)`: the hash's top bits index `seen`.
    seen_shift: u32,
    /// Whether probes consult `seen`: in tables of at most [`SEEN_MAX_SLOTS`] slots, until
    /// half of its bits are set (a denser summary saves too few misses to pay for its own
    /// loads), then not until [`Table::clear`]; never in larger tables.
    seen_on: std::sync::atomic::AtomicBool,
    /// The bits set in `seen`, counted by sampling: one in 256 new bits (by the hash's
    /// low byte) adds one.
    seen_fill: AtomicU64,
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
    ///
    /// # Panics
    ///
    /// When the memory cannot be had; [`Table::try_new`] reports that as an error
    /// instead.
    pub fn new(mb: usize) -> Table {
        match Table::try_new(mb) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mb` megabytes, as [`Table::new`].
    ///
    /// # Errors
    ///
    /// [`TableAllocError`] when the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Table, TableAllocError> {
        Table::try_new_paged(mb, true)
    }

    /// A table of about `mb` megabytes, as [`Table::try_new`], on huge pages (2 MB, the
    /// default: fewer TLB misses once the table fills) or, with `huge_pages` false, on
    /// 4 KB pages. The kernel clears a page when the search first touches it, so a short
    /// search in a large table on huge pages pays for clearing 2 MB at nearly every
    /// probe (`bestmove --movetime 0.5 --hash 4096` answered after 2.3 s with 1.8 s of
    /// system time): searches with a deadline use 4 KB pages.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::solve::tt::Table;
    /// let t = Table::try_new_paged(4, false)?;
    /// t.store(12345, false, 3, 7, Some(2), 10);
    /// let e = t.probe(12345, false).expect("stored");
    /// assert_eq!((e.lower, e.upper, e.best), (3, 7, Some(2)));
    /// assert!(t.probe(12345, true).is_none()); // the other side's game is another key
    /// # Ok::<(), giuthi::solve::tt::TableAllocError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TableAllocError`] when the memory cannot be had.
    pub fn try_new_paged(mb: usize, huge_pages: bool) -> Result<Table, TableAllocError> {
        let n = Table::slots_for_mb(mb) / WAYS;
        let buckets = Buckets::new(n, huge_pages).ok_or(TableAllocError {
            mb,
            bytes: (n as u64).saturating_mul(std::mem::size_of::<Bucket>() as u64),
        })?;
        Ok(Table::with_buckets(buckets, n))
    }

    /// The table over `n` buckets, its summary of stored keys empty.
    fn with_buckets(buckets: Buckets, n: usize) -> Table {
        let bits = n * WAYS;
        let words = if bits <= SEEN_MAX_SLOTS { bits / 64 } else { 1 };
        Table {
            buckets,
            mask: n - 1,
            seen: (0..words).map(|_| AtomicU64::new(0)).collect(),
            seen_shift: 64 - (words * 64).trailing_zeros(),
            seen_on: std::sync::atomic::AtomicBool::new(bits <= SEEN_MAX_SLOTS),
            seen_fill: AtomicU64::new(0),
        }
    }

    /// Stores every entry of `other` into this table, with the merge and replacement
    /// rules of [`Table::store`]: carries a saved table into a table of another size
    /// (into a smaller one, the entries of least work are the ones lost). Returns the
    /// number of entries offered. A slot of `other` whose key does not hash to the bucket
    /// it sits in (a slot torn by a concurrent store) is skipped.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::solve::tt::Table;
    /// let small = Table::new(1);
    /// small.store(42, true, 3, 7, Some(2), 5);
    /// let big = Table::new(2);
    /// assert_eq!(big.absorb(&small), 1);
    /// assert_eq!(big.probe(42, true), small.probe(42, true));
    /// ```
    pub fn absorb(&self, other: &Table) -> u64 {
        let mut offered = 0;
        for (i, b) in other.buckets.iter().enumerate() {
            for s in &b.0 {
                let kx = s[0].load(Ordering::Relaxed);
                let data = s[1].load(Ordering::Relaxed);
                if data & VALID == 0 {
                    continue;
                }
                let key = kx ^ data;
                let bad = (data >> 32) & 1 == 1;
                if !std::ptr::eq(other.bucket(key, bad), &other.buckets[i]) {
                    continue;
                }
                let best = ((data >> 33) & 0xff) as u8;
                self.store(
                    key,
                    bad,
                    data as u16 as i16,
                    (data >> 16) as u16 as i16,
                    (best as u64 != NO_MOVE).then_some(best),
                    ((data >> WORK_SHIFT) & WORK_MASK) as u8,
                );
                offered += 1;
            }
        }
        offered
    }

    /// Bytes of memory the slots take (16 a slot).
    pub fn size_bytes(&self) -> u64 {
        self.len() as u64 * 16
    }

    /// Bytes of the saved form ([`Table::write_to`]) of a table of `slots` slots.
    pub fn saved_bytes(slots: u64) -> u64 {
        TABLE_HEADER_BYTES + 16 * slots + 8
    }

    /// Writes the table (a snapshot, see the module's `# Saving and loading`); returns
    /// the number of slots in use.
    ///
    /// # Errors
    ///
    /// Any error of `w`.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::solve::tt::Table;
    /// let tt = Table::new(1);
    /// tt.store(42, true, 3, 7, Some(2), 5);
    /// let mut bytes = Vec::new();
    /// assert_eq!(tt.write_to(&mut bytes)?, 1);
    /// assert_eq!(&bytes[..10], b"GIUTHITT\x01\x00");
    /// assert_eq!(bytes.len() as u64, Table::saved_bytes(tt.len() as u64));
    /// let back = Table::read_from(&mut bytes.as_slice())?;
    /// assert_eq!(back.len(), tt.len());
    /// assert_eq!(back.probe(42, true), tt.probe(42, true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_to(&self, w: &mut impl Write) -> std::io::Result<u64> {
        let mut head = [0u8; TABLE_HEADER_BYTES as usize];
        head[0..8].copy_from_slice(&TABLE_MAGIC);
        head[8..10].copy_from_slice(&TABLE_FORMAT_VERSION.to_le_bytes());
        head[16..24].copy_from_slice(&(self.len() as u64).to_le_bytes());
        w.write_all(&head)?;
        let mut sum = Checksum::new();
        let mut used = 0;
        let mut buf = Vec::with_capacity(CHUNK_BUCKETS * 64);
        for chunk in self.buckets.chunks(CHUNK_BUCKETS) {
            buf.clear();
            for b in chunk {
                for s in &b.0 {
                    // Two separate loads: a store between them tears the slot, which then
                    // fails the key check on load (a miss), as it would here.
                    let kx = s[0].load(Ordering::Relaxed);
                    let data = s[1].load(Ordering::Relaxed);
                    used += (data & VALID != 0) as u64;
                    buf.extend_from_slice(&kx.to_le_bytes());
                    buf.extend_from_slice(&data.to_le_bytes());
                }
            }
            sum.update(&buf);
            w.write_all(&buf)?;
        }
        w.write_all(&sum.finish().to_le_bytes())?;
        Ok(used)
    }

    /// Reads a table written by [`Table::write_to`], checking the magic, the version, the
    /// slot count and the checksum (only a table that passes every check is returned).
    ///
    /// # Errors
    ///
    /// [`TableFileError`] naming the check that failed.
    pub fn read_from(r: &mut impl Read) -> Result<Table, TableFileError> {
        let mut head = [0u8; TABLE_HEADER_BYTES as usize];
        r.read_exact(&mut head)?;
        if head[0..8] != TABLE_MAGIC {
            return Err(TableFileError::BadMagic);
        }
        let version = u16::from_le_bytes([head[8], head[9]]);
        if version != TABLE_FORMAT_VERSION {
            return Err(TableFileError::UnsupportedVersion {
                found: version,
                expected: TABLE_FORMAT_VERSION,
            });
        }
        let slots = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
        if !slots.is_power_of_two() || !(1024..=MAX_SLOTS).contains(&slots) {
            return Err(TableFileError::BadSlotCount(slots));
        }
        let n = (slots / WAYS as u64) as usize;
        let buckets = Buckets::new(n, true).ok_or(TableFileError::Alloc(slots))?;
        let mut next = 0;
        let mut sum = Checksum::new();
        let mut buf = vec![0u8; CHUNK_BUCKETS * 64];
        let mut left = n;
        while left > 0 {
            let take = left.min(CHUNK_BUCKETS);
            let bytes = &mut buf[..take * 64];
            r.read_exact(bytes)?;
            sum.update(bytes);
            for b in bytes.chunks_exact(64) {
                let word =
                    |i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8"));
                for (s, slot) in buckets[next].0.iter().enumerate() {
                    slot[0].store(word(2 * s), Ordering::Relaxed);
                    slot[1].store(word(2 * s + 1), Ordering::Relaxed);
                }
                next += 1;
            }
            left -= take;
        }
        let mut tail = [0u8; 8];
        r.read_exact(&mut tail)?;
        if u64::from_le_bytes(tail) != sum.finish() {
            return Err(TableFileError::ChecksumMismatch);
        }
        let table = Table::with_buckets(buckets, n);
        for b in table.buckets.iter() {
            for slot in &b.0 {
                let data = slot[1].load(Ordering::Relaxed);
                if data & VALID != 0 {
                    let key = slot[0].load(Ordering::Relaxed) ^ data;
                    table.mark(Table::hash(key, (data >> 32) & 1 == 1));
                }
            }
        }
        Ok(table)
    }

    /// The number of slots of [`Table::new`]`(mb)`.
    pub fn slots_for_mb(mb: usize) -> usize {
        let want = (mb.max(1) << 20) / (16 * WAYS);
        let mut n = 1024 / WAYS;
        while n * 2 <= want {
            n *= 2;
        }
        n * WAYS
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
        for w in self.seen.iter() {
            w.store(0, Ordering::Relaxed);
        }
        self.seen_fill.store(0, Ordering::Relaxed);
        self.seen_on
            .store(self.len() <= SEEN_MAX_SLOTS, Ordering::Relaxed);
    }

    /// The hash of `key` in game `bad`: its low bits pick the bucket, its top bits the
    /// summary's bit.
    #[inline]
    fn hash(key: u64, bad: bool) -> u64 {
        mix64(key ^ (bad as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    #[inline]
    fn bucket(&self, key: u64, bad: bool) -> &Bucket {
        self.bucket_at(Table::hash(key, bad))
    }

    #[inline]
    fn bucket_at(&self, h: u64) -> &Bucket {
        &self.buckets[(h as usize) & self.mask]
    }

    /// The summary's word and bit for hash `h`.
    #[inline]
    fn seen_bit(&self, h: u64) -> (&AtomicU64, u64) {
        let i = (h >> self.seen_shift) as usize;
        (&self.seen[i >> 6], 1 << (i & 63))
    }

    /// Whether an entry of the key of hash `h` may be in the table (`false`: none was
    /// ever stored since the last [`Table::clear`]).
    #[inline]
    fn may_hold(&self, h: u64) -> bool {
        if !self.seen_on.load(Ordering::Relaxed) {
            return true;
        }
        let (w, bit) = self.seen_bit(h);
        w.load(Ordering::Relaxed) & bit != 0
    }

    /// Records in the summary that an entry of the key of hash `h` was stored (nothing
    /// once the summary is off).
    #[inline]
    fn mark(&self, h: u64) {
        if !self.seen_on.load(Ordering::Relaxed) {
            return;
        }
        let (w, bit) = self.seen_bit(h);
        if w.load(Ordering::Relaxed) & bit == 0 {
            w.fetch_or(bit, Ordering::Relaxed);
            // The fill is counted on a 1/256 sample of the hashes (the low byte zero),
            // so the shared counter is touched rarely; the summary turns off (for good,
            // until `clear`) once about half its bits are set and it answers few probes.
            // Turning it off is always exact: `may_hold` then says "maybe" to every key.
            if h as u8 == 0 {
                let fill = self.seen_fill.fetch_add(1, Ordering::Relaxed) + 1;
                if fill * 256 * 2 > self.seen.len() as u64 * 64 {
                    self.seen_on.store(false, Ordering::Relaxed);
                }
            }
        }
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

    /// Asks the processor to bring the bucket of `key` in game `bad` into the cache (a
    /// hint only: the search prefetches every child's bucket before searching the first,
    /// so that their misses overlap instead of coming one at a time).
    #[inline]
    pub fn prefetch(&self, key: u64, bad: bool) {
        #[cfg(target_arch = "x86_64")]
        {
            let h = Table::hash(key, bad);
            let p = std::ptr::from_ref(self.bucket_at(h)).cast::<i8>();
            let q = std::ptr::from_ref(self.seen_bit(h).0).cast::<i8>();
            // SAFETY: a prefetch is a hint that never faults nor changes memory; `p` and
            // `q` point into the table and its summary anyway.
            #[allow(unsafe_code)]
            unsafe {
                std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0);
                if self.seen_on.load(Ordering::Relaxed) {
                    std::arch::x86_64::_mm_prefetch(q, std::arch::x86_64::_MM_HINT_T0);
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (key, bad);
    }

    /// The bounds stored for `key` in the game `bad`, if any.
    #[inline]
    pub fn probe(&self, key: u64, bad: bool) -> Option<Entry> {
        let h = Table::hash(key, bad);
        if !self.may_hold(h) {
            return None;
        }
        let (_, data) = Self::find(self.bucket_at(h), key, bad)?;
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
        let h = Table::hash(key, bad);
        let b = self.bucket_at(h);
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
        self.mark(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::mix64;

    /// What the bucket itself holds for `key` in game `bad`, the summary ignored.
    fn in_bucket(t: &Table, key: u64, bad: bool) -> Option<(Score, Score)> {
        Table::find(t.bucket(key, bad), key, bad)
            .map(|(_, d)| (d as u16 as i16, (d >> 16) as u16 as i16))
    }

    /// The summary of stored keys never hides an entry: after every batch of stores, past
    /// the fill at which the summary turns itself off, each key probes as its bucket
    /// holds it; and a table reloaded from its saved form finds the same entries.
    #[test]
    fn summary_never_hides_a_stored_entry() {
        let t = Table::new(1);
        let slots = t.len() as u64;
        assert!(t.seen_on.load(Ordering::Relaxed));
        let key = |i: u64| mix64(i + 1) >> 1;
        let mut stored = 0;
        for round in 0..8 {
            for i in stored..stored + slots / 4 {
                let v = (i % 50) as Score;
                t.store(key(i), i % 3 == 0, v, v + 1, None, (i % 7) as u8);
            }
            stored += slots / 4;
            for i in 0..stored + 1000 {
                let (k, bad) = (key(i), i % 3 == 0);
                let probed = t.probe(k, bad).map(|e| (e.lower, e.upper));
                assert_eq!(probed, in_bucket(&t, k, bad), "round {round} key {i}");
                if i >= stored {
                    assert_eq!(probed, None);
                }
            }
        }
        assert!(!t.seen_on.load(Ordering::Relaxed), "turned off when dense");
        let mut bytes = Vec::new();
        t.write_to(&mut bytes).expect("in memory");
        let back = Table::read_from(&mut bytes.as_slice()).expect("read back");
        for i in 0..stored {
            let (k, bad) = (key(i), i % 3 == 0);
            assert_eq!(
                back.probe(k, bad).map(|e| (e.lower, e.upper)),
                in_bucket(&t, k, bad)
            );
        }
        t.clear();
        assert!(t.seen_on.load(Ordering::Relaxed), "on again once cleared");
        assert_eq!(t.probe(key(0), true), None);
        t.store(key(0), true, -3, 4, Some(1), 2);
        let e = t.probe(key(0), true).expect("stored");
        assert_eq!((e.lower, e.upper, e.best), (-3, 4, Some(1)));
    }

    /// A table larger than `SEEN_MAX_SLOTS` keeps no summary and still finds its entries.
    #[test]
    fn large_table_has_no_summary() {
        let t = Table::new(256);
        assert!(t.len() > SEEN_MAX_SLOTS);
        assert!(!t.seen_on.load(Ordering::Relaxed));
        t.store(77, false, 1, 2, None, 3);
        let e = t.probe(77, false).expect("stored");
        assert_eq!((e.lower, e.upper), (1, 2));
        assert_eq!(t.probe(78, false), None);
    }
}
