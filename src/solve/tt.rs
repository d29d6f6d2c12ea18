//! The transposition table: a fixed-size, lock-free table of proven bounds.
//!
//! An entry holds bounds `lower <= v <= upper` on the *positional* value `v` of a state
//! (its value when no strict ancestor is in the history, RULES.md V2) for the side to
//! move, in one of the two repetition games: `bad == true` when a repetition counts as
//! minus infinity for the side to move (the mover is the game's "bad side"), `false` when it
//! counts as plus infinity. Bounds do not carry a depth: every stored bound is exact-depth
//! (the search always runs to the end of the game).
//!
//! # Buckets and replacement
//!
//! Slots come in buckets of one 64-byte cache line, the bucket of a key picked by the low
//! bits of its hash `h` ([`crate::index::mix64`] of the key and the game: a bijection). A
//! store merges into the slot of the same key and game, else fills an empty slot, else
//! replaces the slot of least work: entries that were expensive to prove stay.
//!
//! # Two layouts
//!
//! **Wide** (tables below 1 GiB): four slots a bucket, each two `AtomicU64`: `key ^ data`
//! and `data` (the lockless scheme of Hyatt and Mann): a torn write (one word from one
//! store, the other from another) fails the key check and reads as a miss, so no lock is
//! needed and no wrong entry is ever returned for a key. `data`: bits 0..16 `lower` (as
//! `u16` of an `i16` score), 16..32 `upper`, bit 32 `bad`, bits 33..41 the index of the
//! best move found (255 = none), bits 41..47 the *work* (about log2 of the nodes searched
//! to prove the entry), bit 63 set in every entry (so an all-zero slot is empty).
//!
//! **Compact** (tables of 1 GiB and more, that is at least 2^24 buckets): eight slots a
//! bucket, each one `AtomicU64`, so twice the slots in the same memory. The key is not
//! stored: the bucket's index holds the low 24 (or more) bits of `h` and the slot its top
//! 40 bits, so index and slot together still name the whole 64-bit key and its game, as
//! the wide slot does: no two keys the wide layout tells apart are confused. A slot is
//! one word, written and read at once, so it cannot tear. Bits (table format 3):
//!
//! | bits | field |
//! |---|---|
//! | 0 | set in every entry (an all-zero slot is empty) |
//! | 1 | `bad` |
//! | 2..9 | `lower` as a 7-bit two's complement: -63 is minus infinity, +63 plus infinity |
//! | 9..16 | `upper`, the same code |
//! | 16..20 | the best move's index (15: none; an index above 14 is kept as none) |
//! | 20..24 | the work halved, at most 15 |
//! | 24..64 | the top 40 bits of `h` |
//!
//! A finite bound outside -62..=62 is kept as a weaker one that fits (a lower bound
//! above 62 as 62, below -62 as minus infinity; an upper bound below -62 as -62,
//! above 62 as plus infinity): still a true bound, so the search stays exact on any
//! board, and no board of up to 62 seeds loses anything. On larger boards (2x6 with 6
//! seeds a pit has 72) a bound beyond +-62 is kept weaker, which can cost nodes only where
//! the search tests margins that far out (not measured there). Twice the entries in
//! 1 GiB: Kalah(5,5) in 12% fewer nodes (241.7 M to 212.7 M), docs/performance.md,
//! Session 25. Table format 2, the compact layout of earlier builds
//! (tables of 4 GiB and more: bounds in 8 bits, the top 38 bits of `h`), is read and
//! converted slot by slot.
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
//! | 8..10 | version | [`TABLE_FORMAT_WIDE`] (1) or [`TABLE_FORMAT_COMPACT`] (3; 2 is read): the layout |
//! | 10..16 | reserved | zero |
//! | 16..24 | slots | number of slots: a power of two, at least 1024 (wide) or 2^27 (compact; 2^29 in format 2) |
//! | 24.. | slots | the buckets' words in order: per wide slot `key ^ data` then `data` (16 bytes), per compact slot its word (8 bytes) |
//! | end - 8.. | checksum | [`crate::checksum::checksum`] of the slot bytes |
//!
//! # Stability
//!
//! A layout's version changes whenever the meaning of its slots changes (the packing,
//! the bucket of a key, what a stored bound means); a reader refuses other versions.

use crate::checksum::Checksum;
use crate::index::mix64;
use crate::value::{Score, NEG_INF, POS_INF};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};

/// The magic bytes that open a saved table.
pub const TABLE_MAGIC: [u8; 8] = *b"GIUTHITT";
/// The version of a saved table of the wide layout (four 16-byte slots a bucket).
pub const TABLE_FORMAT_WIDE: u16 = 1;
/// The version of a saved table of the compact layout (eight 8-byte slots a bucket).
pub const TABLE_FORMAT_COMPACT: u16 = 3;
/// The version of the compact layout of earlier builds (from 2^26 buckets, bounds in
/// 8 bits, a 38-bit check), read and converted to [`TABLE_FORMAT_COMPACT`].
pub const TABLE_FORMAT_COMPACT_V2: u16 = 2;
/// Bytes of a saved table before the slots.
pub const TABLE_HEADER_BYTES: u64 = 24;
/// The most bytes of slots a saved table may claim (16 GiB, the CLI's largest `--hash`).
pub const MAX_TABLE_BYTES: u64 = 16384 << 20;

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
    #[error(
        "table format version {found}, this build reads versions {TABLE_FORMAT_WIDE}, \
         {TABLE_FORMAT_COMPACT_V2} and {TABLE_FORMAT_COMPACT}"
    )]
    UnsupportedVersion {
        /// The version in the file.
        found: u16,
    },
    /// A slot count that is not a power of two in the layout's range.
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
/// Words (`AtomicU64`) in a bucket: one 64-byte cache line.
const WORDS: usize = 8;
/// Slots a bucket in the wide layout (two words a slot).
const WIDE_WAYS: usize = 4;
/// Slots a bucket in the compact layout (one word a slot).
const COMPACT_WAYS: usize = 8;
/// The compact layout's bits of `h` below the slot's check (the bucket index holds them).
const CHECK_SHIFT: u32 = 24;
/// The compact slot's first bit of `lower` (7 bits; `upper` follows).
const C_LO: u32 = 2;
/// The compact slot's first bit of `upper` (7 bits).
const C_HI: u32 = 9;
/// The compact slot's first bit of the best move's index (4 bits).
const C_BEST: u32 = 16;
/// The compact slot's first bit of the halved work (4 bits).
const C_WORK: u32 = 20;
/// The bits of a compact bound's code.
const C_CODE: u64 = 0x7f;
/// The fewest buckets of a compact table: their index holds the `CHECK_SHIFT` low bits.
const COMPACT_MIN_BUCKETS: usize = 1 << CHECK_SHIFT;
/// The compact slot's bits compared with a key's tag: the check, `bad` and the valid bit.
const TAG_MASK: u64 = !((1 << CHECK_SHIFT) - 1) | 0b11;
/// The compact code of "no move".
const C_NO_MOVE: u64 = 15;
/// The compact code of an infinite bound (`+` or `-`).
const C_INF: i16 = 63;
/// Mixed into the key of the `bad` game before hashing.
const BAD_MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// One cache line of slots.
#[repr(align(64))]
struct Bucket([AtomicU64; WORDS]);

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
/// How often (in buckets) a walk over every entry asks whether to stop.
const STOP_CHECK_BUCKETS: usize = 1 << 16;

fn empty_bucket() -> Bucket {
    Bucket(std::array::from_fn(|_| AtomicU64::new(0)))
}

/// The work figure of a proof that searched `nodes` nodes: `floor(log2(nodes + 1))`.
#[inline]
pub fn work_of(nodes: u64) -> u8 {
    (64 - (nodes + 1).leading_zeros() - 1) as u8
}

/// The inverse of [`mix64`]: `unmix64(mix64(x)) == x` (the compact layout's slots give
/// back the hash, [`Table::absorb`] needs the key).
fn unmix64(mut x: u64) -> u64 {
    /// The inverse of an odd `a` modulo 2^64 (Newton's iteration doubles the correct
    /// bits each step: 3, 6, 12, 24, 48, 96).
    const fn inverse(a: u64) -> u64 {
        let mut x = a;
        let mut i = 0;
        while i < 5 {
            x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
            i += 1;
        }
        x
    }
    x ^= (x >> 31) ^ (x >> 62);
    x = x.wrapping_mul(const { inverse(0x94d0_49bb_1331_11eb) });
    x ^= (x >> 27) ^ (x >> 54);
    x = x.wrapping_mul(const { inverse(0xbf58_476d_1ce4_e5b9) });
    x ^ (x >> 30) ^ (x >> 60)
}

/// The compact code of a lower bound: the largest code not above it.
#[inline]
fn code_lower(v: Score) -> u64 {
    let c = if v == POS_INF {
        C_INF
    } else if v < -(C_INF - 1) {
        -C_INF
    } else {
        v.min(C_INF - 1)
    };
    c as u16 as u64 & C_CODE
}

/// The compact code of an upper bound: the smallest code not below it.
#[inline]
fn code_upper(v: Score) -> u64 {
    let c = if v == NEG_INF {
        -C_INF
    } else if v > C_INF - 1 {
        C_INF
    } else {
        v.max(-(C_INF - 1))
    };
    c as u16 as u64 & C_CODE
}

/// The bound a compact code (7 bits, two's complement) stands for.
#[inline]
fn decode(code: u64) -> Score {
    match (((code & C_CODE) as u8) << 1) as i8 as i16 >> 1 {
        C_INF => POS_INF,
        c if c == -C_INF => NEG_INF,
        c => c,
    }
}

/// The check's first bit of `h` in table format 2 ([`TABLE_FORMAT_COMPACT_V2`]).
const V2_CHECK_SHIFT: u32 = 26;

/// The slot of table format 3 that holds what the slot `w` of a table of format 2 in
/// bucket `bucket` held (format 2: bit 0 valid, 1 `bad`, 2..10 `lower` and 10..18 `upper`
/// as `i8` with +-127 the infinities, 18..22 the best move, 22..26 the work halved,
/// 26..64 the top 38 bits of `h`; its tables have at least 2^26 buckets, so the index
/// holds bits 24 and 25 of `h`). Bounds outside -62..=62 are weakened as
/// [`code_lower`] and [`code_upper`] do; an empty slot stays empty.
fn from_v2(w: u64, bucket: usize) -> u64 {
    if w & 1 == 0 {
        return 0;
    }
    let h = (w & !((1 << V2_CHECK_SHIFT) - 1)) | (bucket as u64 & ((1 << V2_CHECK_SHIFT) - 1));
    let old = |c: u64| match c as u8 as i8 as i16 {
        127 => POS_INF,
        -127 => NEG_INF,
        c => c,
    };
    Table::tag(h, (w >> 1) & 1 == 1)
        | code_lower(old(w >> 2)) << C_LO
        | code_upper(old(w >> 10)) << C_HI
        | ((w >> 18) & 15) << C_BEST
        | ((w >> 22) & 15) << C_WORK
}

/// What the bucket word of a compact slot holds besides its tag.
#[inline]
fn unpack_compact(w: u64) -> (Score, Score, Option<u8>, u8) {
    let best = (w >> C_BEST) & 15;
    (
        decode(w >> C_LO),
        decode(w >> C_HI),
        (best != C_NO_MOVE).then_some(best as u8),
        ((w >> C_WORK) & 15) as u8,
    )
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
    /// The compact layout (one word a slot; see the module's `# Two layouts`).
    compact: bool,
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
        let layout = if self.compact { "compact" } else { "wide" };
        write!(f, "Table({} slots, {layout})", self.len())
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

/// The fields of a wide slot's `data`: `(bad, lower, upper, best, work)`.
#[inline]
fn unpack_wide(data: u64) -> (bool, Score, Score, Option<u8>, u8) {
    let best = ((data >> 33) & 0xff) as u8;
    (
        (data >> 32) & 1 == 1,
        data as u16 as i16,
        (data >> 16) as u16 as i16,
        (best as u64 != NO_MOVE).then_some(best),
        ((data >> WORK_SHIFT) & WORK_MASK) as u8,
    )
}

impl Table {
    /// A table of about `mb` megabytes (a power of two of 64-byte buckets; at least 1024
    /// slots; from 4096 MB on in the compact layout, twice the slots: see the module's
    /// `# Two layouts`).
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
        let n = Table::buckets_for_mb(mb);
        let buckets = Buckets::new(n, huge_pages).ok_or(TableAllocError {
            mb,
            bytes: (n as u64).saturating_mul(std::mem::size_of::<Bucket>() as u64),
        })?;
        Ok(Table::with_buckets(buckets, n, n >= COMPACT_MIN_BUCKETS))
    }

    /// The table over `n` buckets in the given layout, its summary of stored keys empty.
    fn with_buckets(buckets: Buckets, n: usize, compact: bool) -> Table {
        let bits = n * if compact { COMPACT_WAYS } else { WIDE_WAYS };
        let words = if bits <= SEEN_MAX_SLOTS { bits / 64 } else { 1 };
        Table {
            buckets,
            mask: n - 1,
            compact,
            seen: (0..words).map(|_| AtomicU64::new(0)).collect(),
            seen_shift: 64 - (words * 64).trailing_zeros(),
            seen_on: std::sync::atomic::AtomicBool::new(bits <= SEEN_MAX_SLOTS),
            seen_fill: AtomicU64::new(0),
        }
    }

    /// Whether the table has the compact layout (8-byte slots; see the module's
    /// `# Two layouts`): tables of 4 GiB and more.
    pub fn is_compact(&self) -> bool {
        self.compact
    }

    /// Calls `f(key, bad, lower, upper, best, work)` for every entry (a wide slot whose
    /// key does not hash to the bucket it sits in, torn by a concurrent store, is
    /// skipped). Asks `stop` every [`STOP_CHECK_BUCKETS`] buckets and returns `false`
    /// as soon as it answers `true` (the entries not visited yet are left out), else
    /// `true`.
    fn for_each_entry(
        &self,
        stop: &dyn Fn() -> bool,
        mut f: impl FnMut(u64, bool, Score, Score, Option<u8>, u8),
    ) -> bool {
        for (i, b) in self.buckets.iter().enumerate() {
            if i % STOP_CHECK_BUCKETS == 0 && stop() {
                return false;
            }
            if self.compact {
                for s in &b.0 {
                    let w = s.load(Ordering::Relaxed);
                    if w & 1 == 0 {
                        continue;
                    }
                    let bad = (w >> 1) & 1 == 1;
                    let h = (w & !((1 << CHECK_SHIFT) - 1)) | (i as u64 & ((1 << CHECK_SHIFT) - 1));
                    if (h as usize) & self.mask != i {
                        continue;
                    }
                    let key = unmix64(h) ^ (bad as u64).wrapping_mul(BAD_MIX);
                    let (lo, hi, best, work) = unpack_compact(w);
                    f(key, bad, lo, hi, best, work * 2);
                }
            } else {
                for s in b.0.chunks_exact(2) {
                    let kx = s[0].load(Ordering::Relaxed);
                    let data = s[1].load(Ordering::Relaxed);
                    if data & VALID == 0 {
                        continue;
                    }
                    let key = kx ^ data;
                    let (bad, lo, hi, best, work) = unpack_wide(data);
                    if (Table::hash(key, bad) as usize) & self.mask != i {
                        continue;
                    }
                    f(key, bad, lo, hi, best, work);
                }
            }
        }
        true
    }

    /// Stores every entry of `other` into this table, with the merge and replacement
    /// rules of [`Table::store`]: carries a saved table into a table of another size or
    /// layout (into a smaller one, the entries of least work are the ones lost; into a
    /// compact one, bounds it cannot hold are weakened as the module's `# Two layouts`
    /// says). Returns the number of entries offered. A slot of `other` whose key does not
    /// hash to the bucket it sits in (a slot torn by a concurrent store) is skipped.
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
        self.absorb_until(other, &|| false)
            .expect("a move that is never stopped completes")
    }

    /// [`Table::absorb`] that asks `stop` every 65,536 buckets of `other`
    /// (a move into a 4 GiB table takes seconds): `None` once it answers `true`
    /// (this table then holds part of `other`), else the number of entries offered.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::solve::tt::Table;
    /// let small = Table::new(1);
    /// small.store(42, true, 3, 7, Some(2), 5);
    /// let big = Table::new(2);
    /// assert_eq!(big.absorb_until(&small, &|| true), None);
    /// assert_eq!(big.absorb_until(&small, &|| false), Some(1));
    /// ```
    pub fn absorb_until(&self, other: &Table, stop: &dyn Fn() -> bool) -> Option<u64> {
        let mut offered = 0;
        let done = other.for_each_entry(stop, |key, bad, lo, hi, best, work| {
            self.store(key, bad, lo, hi, best, work);
            offered += 1;
        });
        done.then_some(offered)
    }

    /// Bytes of memory the slots take (64 a bucket).
    pub fn size_bytes(&self) -> u64 {
        self.buckets.len() as u64 * 64
    }

    /// Bytes of the saved form ([`Table::write_to`]) of this table.
    pub fn saved_bytes(&self) -> u64 {
        TABLE_HEADER_BYTES + self.size_bytes() + 8
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
    /// assert_eq!(bytes.len() as u64, tt.saved_bytes());
    /// let back = Table::read_from(&mut bytes.as_slice())?;
    /// assert_eq!(back.len(), tt.len());
    /// assert_eq!(back.probe(42, true), tt.probe(42, true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_to(&self, w: &mut impl Write) -> std::io::Result<u64> {
        let mut head = [0u8; TABLE_HEADER_BYTES as usize];
        head[0..8].copy_from_slice(&TABLE_MAGIC);
        let version = if self.compact {
            TABLE_FORMAT_COMPACT
        } else {
            TABLE_FORMAT_WIDE
        };
        head[8..10].copy_from_slice(&version.to_le_bytes());
        head[16..24].copy_from_slice(&(self.len() as u64).to_le_bytes());
        w.write_all(&head)?;
        let mut sum = Checksum::new();
        let mut used = 0;
        let mut buf = Vec::with_capacity(CHUNK_BUCKETS * 64);
        for chunk in self.buckets.chunks(CHUNK_BUCKETS) {
            buf.clear();
            for b in chunk {
                for (i, s) in b.0.iter().enumerate() {
                    // One load a word: in the wide layout a store between a slot's two
                    // loads tears it, which then fails the key check on load (a miss), as
                    // it would here.
                    let word = s.load(Ordering::Relaxed);
                    used += if self.compact {
                        word & 1
                    } else {
                        (i % 2 == 1 && word & VALID != 0) as u64
                    };
                    buf.extend_from_slice(&word.to_le_bytes());
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
        let (compact, ways, min_slots) = match version {
            TABLE_FORMAT_WIDE => (false, WIDE_WAYS as u64, 1024),
            TABLE_FORMAT_COMPACT => (
                true,
                COMPACT_WAYS as u64,
                (COMPACT_MIN_BUCKETS * COMPACT_WAYS) as u64,
            ),
            TABLE_FORMAT_COMPACT_V2 => (
                true,
                COMPACT_WAYS as u64,
                ((1 << V2_CHECK_SHIFT) * COMPACT_WAYS) as u64,
            ),
            found => return Err(TableFileError::UnsupportedVersion { found }),
        };
        let v2 = version == TABLE_FORMAT_COMPACT_V2;
        let slots = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
        let max_slots = MAX_TABLE_BYTES / 64 * ways;
        if !slots.is_power_of_two() || !(min_slots..=max_slots).contains(&slots) {
            return Err(TableFileError::BadSlotCount(slots));
        }
        let n = (slots / ways) as usize;
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
                for (i, word) in buckets[next].0.iter().enumerate() {
                    let mut w = u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8"));
                    if v2 {
                        w = from_v2(w, next);
                    }
                    // The new memory is zero: a zero word need not be written, and a page
                    // of a sparse table that no word touches is never made resident.
                    if w != 0 {
                        word.store(w, Ordering::Relaxed);
                    }
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
        let table = Table::with_buckets(buckets, n, compact);
        if table.seen_on.load(Ordering::Relaxed) {
            table.for_each_entry(&|| false, |key, bad, _, _, _, _| {
                table.mark(Table::hash(key, bad))
            });
        }
        Ok(table)
    }

    /// The buckets of a table of about `mb` megabytes: the largest power of two whose 64
    /// bytes each fit, at least 256.
    fn buckets_for_mb(mb: usize) -> usize {
        let want = (mb.max(1) << 20) / 64;
        let mut n = 1024 / WIDE_WAYS;
        while n * 2 <= want {
            n *= 2;
        }
        n
    }

    /// The bytes of the slots of [`Table::new`]`(mb)`.
    pub fn bytes_for_mb(mb: usize) -> u64 {
        Table::buckets_for_mb(mb) as u64 * 64
    }

    /// The number of slots of [`Table::new`]`(mb)` (twice as many a byte from 4096 MB
    /// on, in the compact layout).
    pub fn slots_for_mb(mb: usize) -> usize {
        let n = Table::buckets_for_mb(mb);
        n * if n >= COMPACT_MIN_BUCKETS {
            COMPACT_WAYS
        } else {
            WIDE_WAYS
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.buckets.len()
            * if self.compact {
                COMPACT_WAYS
            } else {
                WIDE_WAYS
            }
    }

    /// Whether the table has no slot (never).
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.0 {
                s.store(0, Ordering::Relaxed);
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
    /// summary's bit (and, in the compact layout, the slot's check).
    #[inline]
    fn hash(key: u64, bad: bool) -> u64 {
        mix64(key ^ (bad as u64).wrapping_mul(BAD_MIX))
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

    /// The wide slot of the bucket holding `key` in game `bad`, and its data.
    #[inline]
    fn find(b: &Bucket, key: u64, bad: bool) -> Option<(usize, u64)> {
        for (i, s) in b.0.chunks_exact(2).enumerate() {
            let kx = s[0].load(Ordering::Relaxed);
            let data = s[1].load(Ordering::Relaxed);
            if data & VALID != 0 && kx ^ data == key && ((data >> 32) & 1 == 1) == bad {
                return Some((i, data));
            }
        }
        None
    }

    /// The compact slot's tag of the key of hash `h` in game `bad`: its check, `bad` and
    /// the valid bit (the bits of [`TAG_MASK`]).
    #[inline]
    fn tag(h: u64, bad: bool) -> u64 {
        (h & !((1 << CHECK_SHIFT) - 1)) | ((bad as u64) << 1) | 1
    }

    /// The compact slot of the bucket holding the tag `tag`, and its word.
    #[inline]
    fn find_compact(b: &Bucket, tag: u64) -> Option<(usize, u64)> {
        for (i, s) in b.0.iter().enumerate() {
            let w = s.load(Ordering::Relaxed);
            if w & TAG_MASK == tag {
                return Some((i, w));
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
        if self.compact {
            let (_, w) = Self::find_compact(self.bucket_at(h), Table::tag(h, bad))?;
            let (lower, upper, best, _) = unpack_compact(w);
            return Some(Entry { lower, upper, best });
        }
        if !self.may_hold(h) {
            return None;
        }
        let (_, data) = Self::find(self.bucket_at(h), key, bad)?;
        let (_, lower, upper, best, _) = unpack_wide(data);
        Some(Entry { lower, upper, best })
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
        if self.compact {
            self.store_compact(b, Table::tag(h, bad), lower, upper, best, work);
            return;
        }
        let (mut lo, mut hi, mut mv, mut w) = (lower, upper, best, work);
        let slot = if let Some((i, data)) = Self::find(b, key, bad) {
            let (_, elo, ehi, ebest, ework) = unpack_wide(data);
            lo = lo.max(elo);
            hi = hi.min(ehi);
            mv = mv.or(ebest);
            w = w.max(ework);
            if lo > hi {
                // Cannot happen with sound bounds; keep the new ones (hash keys may collide).
                lo = lower;
                hi = upper;
            }
            i
        } else {
            let mut victim = 0;
            let mut least = u64::MAX;
            for (i, s) in b.0.chunks_exact(2).enumerate() {
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
        b.0[2 * slot].store(key ^ data, Ordering::Relaxed);
        b.0[2 * slot + 1].store(data, Ordering::Relaxed);
        self.mark(h);
    }

    /// [`Table::store`] in the compact layout: bounds coded as the module's
    /// `# Two layouts` says, merged with the slot of the same tag.
    #[inline]
    fn store_compact(
        &self,
        b: &Bucket,
        tag: u64,
        lower: Score,
        upper: Score,
        best: Option<u8>,
        work: u8,
    ) {
        let (mut lo, mut hi, mut mv) = (code_lower(lower), code_upper(upper), best);
        let mut w = (work as u64 / 2).min(15);
        let slot = if let Some((i, old)) = Self::find_compact(b, tag) {
            let (nlo, nhi) = (
                decode(lo).max(decode(old >> C_LO)),
                decode(hi).min(decode(old >> C_HI)),
            );
            if nlo <= nhi {
                (lo, hi) = (code_lower(nlo), code_upper(nhi));
            }
            let ebest = (old >> C_BEST) & 15;
            if mv.is_none() && ebest != C_NO_MOVE {
                mv = Some(ebest as u8);
            }
            w = w.max((old >> C_WORK) & 15);
            i
        } else {
            let mut victim = 0;
            let mut least = u64::MAX;
            for (i, s) in b.0.iter().enumerate() {
                let old = s.load(Ordering::Relaxed);
                if old & 1 == 0 {
                    victim = i;
                    break;
                }
                let ew = (old >> C_WORK) & 15;
                if ew < least {
                    least = ew;
                    victim = i;
                }
            }
            victim
        };
        let mv = mv.map_or(C_NO_MOVE, |m| (m as u64).min(C_NO_MOVE));
        b.0[slot].store(
            tag | lo << C_LO | hi << C_HI | mv << C_BEST | w << C_WORK,
            Ordering::Relaxed,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::mix64;
    use crate::value::{NEG_INF, POS_INF};

    /// What the bucket itself holds for `key` in game `bad`, the summary ignored.
    fn in_bucket(t: &Table, key: u64, bad: bool) -> Option<(Score, Score)> {
        Table::find(t.bucket_at(Table::hash(key, bad)), key, bad)
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

    #[test]
    fn unmix64_inverts_mix64() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        for i in 0..10_000u64 {
            for v in [i, u64::MAX - i, x, 1 << (i % 64)] {
                assert_eq!(unmix64(mix64(v)), v, "{v:#x}");
            }
            x = mix64(x.wrapping_add(i));
        }
    }

    /// The smallest compact table (1 GiB on 4 KB pages: only the pages a test touches
    /// are made).
    fn compact() -> Table {
        let t = Table::try_new_paged(1024, false).expect("1 GiB of address space");
        assert!(t.is_compact());
        assert_eq!(t.len(), 1 << 27);
        assert_eq!(t.size_bytes(), 1 << 30);
        assert_eq!(Table::slots_for_mb(4096), 1 << 29);
        assert_eq!(Table::slots_for_mb(1024), 1 << 27);
        assert_eq!(
            Table::slots_for_mb(512),
            1 << 25,
            "below 1 GiB the layout is wide"
        );
        assert!(!Table::try_new_paged(512, false)
            .expect("512 MB")
            .is_compact());
        t
    }

    /// Keys that share a bucket and the top bits of their hash but differ in between.
    #[test]
    fn compact_table_keeps_what_it_is_given() {
        let t = compact();
        let wide = Table::new(64);
        assert!(!wide.is_compact());
        let key = |i: u64| mix64(i) ^ (i << 7);
        for i in 0..20_000u64 {
            let (lo, hi) = (
                (i % 120) as Score - 60,
                (i % 120) as Score - 60 + (i % 3) as Score,
            );
            let best = (i % 17 < 15).then_some((i % 17) as u8);
            for tt in [&t, &wide] {
                tt.store(key(i), i % 3 == 0, lo, hi, best, (i % 40) as u8);
            }
        }
        for i in 0..20_000u64 {
            let (k, bad) = (key(i), i % 3 == 0);
            let e = t.probe(k, bad).expect("stored");
            let (lo, hi) = (
                (i % 120) as Score - 60,
                (i % 120) as Score - 60 + (i % 3) as Score,
            );
            assert_eq!((e.lower, e.upper), (lo, hi), "{i}");
            assert_eq!(e.best, (i % 17 < 15).then_some((i % 17) as u8));
            assert_eq!(t.probe(k, !bad), None);
            assert_eq!(t.probe(k ^ 1, bad), wide.probe(k ^ 1, bad));
        }
        // Merging: the bounds intersect, the move is kept when the new store has none.
        t.store(7, false, NEG_INF, 9, Some(3), 4);
        t.store(7, false, -4, POS_INF, None, 6);
        let e = t.probe(7, false).expect("stored");
        assert_eq!((e.lower, e.upper, e.best), (-4, 9, Some(3)));
        // Infinite bounds are kept as such; a proven infinite value too.
        t.store(8, true, POS_INF, POS_INF, None, 1);
        let e = t.probe(8, true).expect("stored");
        assert_eq!((e.lower, e.upper), (POS_INF, POS_INF));
        t.store(9, true, NEG_INF, NEG_INF, Some(20), 1);
        let e = t.probe(9, true).expect("stored");
        assert_eq!((e.lower, e.upper, e.best), (NEG_INF, NEG_INF, None));
    }

    /// Bounds the compact slot cannot hold are weakened, never strengthened.
    #[test]
    fn compact_table_weakens_bounds_out_of_range() {
        let t = compact();
        for (lo, hi, want) in [
            (200, 250, (62, POS_INF)),
            (-250, -200, (NEG_INF, -62)),
            (-70, 70, (NEG_INF, POS_INF)),
            (62, 62, (62, 62)),
            (-62, -62, (-62, -62)),
            (63, 63, (62, POS_INF)),
            (-63, -63, (NEG_INF, -62)),
            (-1, 1, (-1, 1)),
        ] {
            let key = (1000 + lo as i64) as u64;
            t.store(key, false, lo, hi, None, 3);
            let e = t.probe(key, false).expect("stored");
            assert_eq!((e.lower, e.upper), want, "stored {lo}..={hi}");
            assert!(e.lower <= lo && e.upper >= hi);
        }
    }

    /// A bucket of eight keys takes all eight; a ninth replaces the one of least work.
    #[test]
    fn compact_bucket_replaces_least_work() {
        let t = compact();
        let target = Table::hash(1, false) as usize & t.mask;
        let same: Vec<u64> = (2..u64::MAX)
            .filter(|&k| Table::hash(k, false) as usize & t.mask == target)
            .take(9)
            .chain([1])
            .collect();
        for (i, &k) in same.iter().take(8).enumerate() {
            t.store(
                k,
                false,
                i as Score,
                i as Score,
                None,
                if i == 5 { 2 } else { 30 },
            );
        }
        for (i, &k) in same.iter().take(8).enumerate() {
            assert_eq!(t.probe(k, false).map(|e| e.lower), Some(i as Score));
        }
        t.store(same[8], false, 50, 50, None, 30);
        assert_eq!(t.probe(same[8], false).map(|e| e.lower), Some(50));
        assert_eq!(t.probe(same[5], false), None, "the least work was replaced");
        assert_eq!(t.probe(same[4], false).map(|e| e.lower), Some(4));
    }

    /// A writer and reader of a sparse byte stream: the zero blocks are only counted.
    #[derive(Default)]
    struct Sparse {
        len: usize,
        blocks: std::collections::BTreeMap<usize, Vec<u8>>,
        at: usize,
    }
    const BLOCK: usize = 4096;
    impl Write for Sparse {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            for (i, &byte) in buf.iter().enumerate() {
                let at = self.len + i;
                if byte != 0 {
                    self.blocks
                        .entry(at / BLOCK)
                        .or_insert_with(|| vec![0; BLOCK])[at % BLOCK] = byte;
                }
            }
            self.len += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    impl Read for Sparse {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf
                .len()
                .min(self.len - self.at)
                .min(BLOCK - self.at % BLOCK);
            match self.blocks.get(&(self.at / BLOCK)) {
                Some(b) => buf[..n].copy_from_slice(&b[self.at % BLOCK..self.at % BLOCK + n]),
                None => buf[..n].fill(0),
            }
            self.at += n;
            Ok(n)
        }
    }

    /// A compact table saves and loads (version 3), and moves into a wide table and back.
    #[test]
    fn compact_table_saves_loads_and_moves() {
        let t = compact();
        let key = |i: u64| if i % 7 == 0 { i } else { mix64(i + 5) };
        for i in 0..3000u64 {
            let v = (i % 90) as Score - 45;
            t.store(
                key(i),
                i % 2 == 0,
                v,
                v + 2,
                Some((i % 6) as u8),
                (i % 30) as u8,
            );
        }
        let mut file = Sparse::default();
        assert_eq!(t.write_to(&mut file).expect("in memory"), 3000);
        assert_eq!(file.len as u64, t.saved_bytes());
        assert_eq!(&file.blocks[&0][8..10], &TABLE_FORMAT_COMPACT.to_le_bytes());
        let back = Table::read_from(&mut file).expect("read back");
        assert!(back.is_compact());
        let wide = Table::new(1);
        assert_eq!(wide.absorb(&t), 3000);
        let again = compact();
        assert_eq!(
            again.absorb(&wide),
            wide.write_to(&mut std::io::sink()).expect("sink")
        );
        for i in 0..3000u64 {
            let (k, bad) = (key(i), i % 2 == 0);
            let e = t.probe(k, bad);
            assert!(e.is_some());
            assert_eq!(back.probe(k, bad), e);
            // The wide table of 1 MB holds some of them: those it holds are the same.
            if let Some(w) = wide.probe(k, bad) {
                assert_eq!(Some(w), e);
                assert_eq!(again.probe(k, bad), e);
            }
        }
    }

    /// A compact table of table format 2 (written by earlier builds: from 4 GiB, bounds in
    /// 8 bits, a 38-bit check) is read and converted: every entry probes as it was stored,
    /// bounds outside -62..=62 weakened, the best move and the work kept.
    #[test]
    fn compact_table_of_format_2_is_read() {
        const BUCKETS: usize = 1 << 26;
        // What an earlier build stored for `key` in game `bad`: its bucket and slot word.
        let v2 = |key: u64, bad: bool, lo: i16, hi: i16, best: u64, work: u64| {
            let h = Table::hash(key, bad);
            let code = |v: Score| {
                (if v == POS_INF {
                    127
                } else if v == NEG_INF {
                    -127
                } else {
                    v
                }) as i8 as u8 as u64
            };
            let w = (h & !((1 << 26) - 1))
                | (bad as u64) << 1
                | 1
                | code(lo) << 2
                | code(hi) << 10
                | best << 18
                | work << 22;
            ((h as usize) & (BUCKETS - 1), w)
        };
        let cases: Vec<(u64, bool, Score, Score, u64, u64)> = (0..500u64)
            .map(|i| {
                let lo = [NEG_INF, -100, -62, -5, 0, 3, 62, 90][(i % 8) as usize];
                let hi = if lo == NEG_INF {
                    7
                } else {
                    lo.max(0) + (i % 3) as Score
                };
                (mix64(i + 11), i % 2 == 0, lo, hi, i % 16, i % 16)
            })
            .collect();
        let mut slots = std::collections::BTreeMap::<usize, Vec<u64>>::new();
        for &(k, bad, lo, hi, best, work) in &cases {
            let (b, w) = v2(k, bad, lo, hi, best, work);
            slots.entry(b).or_default().push(w);
        }
        // The file: header, 2^26 buckets of eight words (zero but the slots above), sum.
        let mut file = Sparse::default();
        let mut head = [0u8; TABLE_HEADER_BYTES as usize];
        head[0..8].copy_from_slice(&TABLE_MAGIC);
        head[8..10].copy_from_slice(&TABLE_FORMAT_COMPACT_V2.to_le_bytes());
        head[16..24].copy_from_slice(&((BUCKETS * COMPACT_WAYS) as u64).to_le_bytes());
        file.write_all(&head).expect("in memory");
        let mut sum = Checksum::new();
        let zeros = vec![0u8; CHUNK_BUCKETS * 64];
        for chunk in 0..BUCKETS / CHUNK_BUCKETS {
            let range = chunk * CHUNK_BUCKETS..(chunk + 1) * CHUNK_BUCKETS;
            if slots.range(range.clone()).next().is_none() {
                sum.update(&zeros);
                file.len += zeros.len();
                continue;
            }
            let mut buf = Vec::with_capacity(zeros.len());
            for b in range {
                let words = slots.get(&b).map_or(&[][..], |v| &v[..]);
                assert!(words.len() <= COMPACT_WAYS);
                for i in 0..COMPACT_WAYS {
                    buf.extend_from_slice(&words.get(i).copied().unwrap_or(0).to_le_bytes());
                }
            }
            sum.update(&buf);
            file.write_all(&buf).expect("in memory");
        }
        file.write_all(&sum.finish().to_le_bytes())
            .expect("in memory");
        let t = Table::read_from(&mut file).expect("format 2 reads");
        assert!(t.is_compact());
        assert_eq!(t.len(), BUCKETS * COMPACT_WAYS);
        for &(k, bad, lo, hi, best, _) in &cases {
            let e = t.probe(k, bad).expect("converted");
            let want_lo = if lo > 62 {
                62
            } else if lo < -62 {
                NEG_INF
            } else {
                lo
            };
            let want_hi = if hi > 62 { POS_INF } else { hi };
            assert_eq!((e.lower, e.upper), (want_lo, want_hi), "{lo}..={hi}");
            assert_eq!(e.best, (best != 15).then_some(best as u8));
            assert_eq!(t.probe(k, !bad), None);
        }
        let mut works = Vec::new();
        t.for_each_entry(&|| false, |_, _, _, _, _, w| works.push(w));
        works.sort_unstable();
        let mut want: Vec<u8> = cases.iter().map(|c| (c.5 * 2) as u8).collect();
        want.sort_unstable();
        assert_eq!(works, want, "the work is kept");
    }
}
