//! The tablebase file: one file per (game, variant, n, layer), a fixed header and the raw
//! value array; checksums, atomic writing and memory-mapped reading.
//!
//! # Format
//!
//! A file is a 64-byte header followed by `count` entries of 2 bytes. All integers are
//! little-endian.
//!
//! | bytes  | field        | meaning                                                      |
//! |--------|--------------|--------------------------------------------------------------|
//! | 0..8   | magic        | `GIUTHITB`                                                   |
//! | 8..10  | version      | format version, `1`                                          |
//! | 10     | game         | `0` Giuthi, `1` Kalah                                        |
//! | 11     | variant      | Giuthi: chain (0 run, 1 one, 2 none) + 4 x origin (0 sow, 1 skip) + 8 x end (0 stuck, 1 empty-row); Kalah: 0 |
//! | 12     | n            | pits a row                                                   |
//! | 13     | encoding     | `1`: entry = lo byte, hi byte (see below)                    |
//! | 14..16 | seeds        | the layer: seeds on the board                                |
//! | 16..24 | count        | entries: `C(seeds + 2n - 1, 2n - 1)`                         |
//! | 24..32 | checksum     | [`checksum`] of the entry bytes                              |
//! | 32..40 | gen_millis   | generation time in milliseconds (informative, not checked)   |
//! | 40..44 | sweeps       | fixpoint sweeps the layer took (informative)                 |
//! | 44..64 | reserved     | zero                                                         |
//!
//! Entry `r` is the value of the board of rank `r` (see [`crate::index::Ranker`]) with
//! **South to move**; a North-to-move position is probed through the row swap (G11).
//! Encoding 1: byte 0 is `lo` as an `i8` with `-128` = minus infinity, byte 1 is `hi` as an
//! `i8` with `127` = plus infinity; both relative to the side to move (RULES.md V2). A layer
//! of more than 126 seeds cannot be encoded and is refused.
//!
//! # Stability
//!
//! Format version 1. The rank order, the header layout and the checksum never change
//! without a new version; a reader refuses other versions.
//!
//! # Examples
//!
//! The header of the 1-seed layer of Giuthi 2x3 (6 boards):
//!
//! ```
//! use giuthi::tablebase::format::{Header, Encoding, GameId};
//! let h = Header {
//!     game: GameId::Giuthi, variant: 0, n: 3, seeds: 1, count: 6,
//!     checksum: 0x0123_4567_89ab_cdef, gen_millis: 0, sweeps: 0,
//!     encoding: Encoding::LoHiI8,
//! };
//! let b = h.to_bytes();
//! assert_eq!(&b[..16], b"GIUTHITB\x01\x00\x00\x00\x03\x01\x01\x00");
//! assert_eq!(&b[16..32], &[6, 0, 0, 0, 0, 0, 0, 0, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01]);
//! assert!(b[32..].iter().all(|&x| x == 0));
//! assert_eq!(Header::parse(&b, std::path::Path::new("x"))?, h);
//! # Ok::<(), giuthi::tablebase::TbError>(())
//! ```

use super::TbError;
use crate::value::{Bounds, NEG_INF, POS_INF};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The magic bytes that open every tablebase file.
pub const MAGIC: [u8; 8] = *b"GIUTHITB";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 64;
/// Bytes per entry.
pub const ENTRY_BYTES: usize = 2;
/// The largest layer encoding 1 can hold (finite values in `-126..=126`).
pub const MAX_ENCODABLE_SEEDS: u32 = 126;

/// Which game a file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameId {
    /// Giuthi.
    Giuthi,
    /// Kalah.
    Kalah,
}

impl GameId {
    /// The header byte.
    pub fn code(self) -> u8 {
        match self {
            GameId::Giuthi => 0,
            GameId::Kalah => 1,
        }
    }

    /// The game name in notation.
    pub fn name(self) -> &'static str {
        match self {
            GameId::Giuthi => "giuthi",
            GameId::Kalah => "kalah",
        }
    }
}

/// How entries are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Encoding 1: `lo` then `hi`, one `i8` each, with reserved infinities.
    LoHiI8,
}

/// The header of a tablebase file (see the module's `# Format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The game.
    pub game: GameId,
    /// The variant byte.
    pub variant: u8,
    /// Pits a row.
    pub n: u8,
    /// The layer: seeds on the board.
    pub seeds: u16,
    /// Entries in the file.
    pub count: u64,
    /// [`checksum`] of the entry bytes.
    pub checksum: u64,
    /// Generation time in milliseconds.
    pub gen_millis: u64,
    /// Fixpoint sweeps the layer took.
    pub sweeps: u32,
    /// The entry encoding.
    pub encoding: Encoding,
}

impl Header {
    /// The 64 header bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&VERSION.to_le_bytes());
        b[10] = self.game.code();
        b[11] = self.variant;
        b[12] = self.n;
        b[13] = match self.encoding {
            Encoding::LoHiI8 => 1,
        };
        b[14..16].copy_from_slice(&self.seeds.to_le_bytes());
        b[16..24].copy_from_slice(&self.count.to_le_bytes());
        b[24..32].copy_from_slice(&self.checksum.to_le_bytes());
        b[32..40].copy_from_slice(&self.gen_millis.to_le_bytes());
        b[40..44].copy_from_slice(&self.sweeps.to_le_bytes());
        b
    }

    /// Parses a header; `path` names the file in errors.
    ///
    /// # Errors
    ///
    /// [`TbError::Truncated`] when fewer than 64 bytes are given, [`TbError::BadMagic`],
    /// [`TbError::UnsupportedVersion`], [`TbError::ParamsMismatch`] for an unknown game or
    /// encoding code.
    pub fn parse(b: &[u8], path: &Path) -> Result<Header, TbError> {
        if b.len() < HEADER_LEN {
            return Err(TbError::Truncated {
                path: path.to_path_buf(),
                expected: HEADER_LEN as u64,
                found: b.len() as u64,
            });
        }
        if b[0..8] != MAGIC {
            return Err(TbError::BadMagic {
                path: path.to_path_buf(),
            });
        }
        let version = u16::from_le_bytes([b[8], b[9]]);
        if version != VERSION {
            return Err(TbError::UnsupportedVersion {
                path: path.to_path_buf(),
                version,
            });
        }
        let mismatch = |what: String| TbError::ParamsMismatch {
            path: path.to_path_buf(),
            what,
        };
        let game = match b[10] {
            0 => GameId::Giuthi,
            1 => GameId::Kalah,
            g => return Err(mismatch(format!("unknown game code {g}"))),
        };
        let encoding = match b[13] {
            1 => Encoding::LoHiI8,
            e => return Err(mismatch(format!("unknown entry encoding {e}"))),
        };
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        Ok(Header {
            game,
            variant: b[11],
            n: b[12],
            seeds: u16::from_le_bytes([b[14], b[15]]),
            count: u64_at(16),
            checksum: u64_at(24),
            gen_millis: u64_at(32),
            sweeps: u32::from_le_bytes(b[40..44].try_into().expect("4 bytes")),
            encoding,
        })
    }
}

/// Encodes `(lo, hi)` as an entry (encoding 1).
///
/// # Examples
///
/// ```
/// use giuthi::tablebase::format::{encode, decode};
/// use giuthi::value::{Bounds, NEG_INF, POS_INF};
/// let b = Bounds { lo: NEG_INF, hi: 3 };
/// assert_eq!(encode(b).to_le_bytes(), [0x80, 3]);
/// assert_eq!(decode(encode(b)), b);
/// assert_eq!(encode(Bounds { lo: -2, hi: POS_INF }).to_le_bytes(), [0xfe, 0x7f]);
/// ```
#[inline]
pub fn encode(b: Bounds) -> u16 {
    u16::from_le_bytes([enc8(b.lo), enc8(b.hi)])
}

/// Decodes an entry (encoding 1).
#[inline]
pub fn decode(e: u16) -> Bounds {
    let [lo, hi] = e.to_le_bytes();
    Bounds {
        lo: dec8(lo),
        hi: dec8(hi),
    }
}

/// One score as a byte: `-128` for minus infinity, `127` for plus infinity, else the
/// value as an `i8` (finite values lie in `-126..=126`).
#[inline]
pub fn enc8(v: crate::value::Score) -> u8 {
    let x: i8 = match v {
        NEG_INF => -128,
        POS_INF => 127,
        v => v as i8,
    };
    x as u8
}

/// The inverse of [`enc8`].
#[inline]
pub fn dec8(b: u8) -> crate::value::Score {
    match b as i8 {
        -128 => NEG_INF,
        127 => POS_INF,
        v => v as i16,
    }
}

/// The checksum of the entry bytes: a 64-bit multiply-xor hash over little-endian words
/// (the tail zero-padded), finished with the length ([`crate::checksum`], shared with the
/// solver's checkpoints).
///
/// # Examples
///
/// ```
/// use giuthi::tablebase::format::checksum;
/// assert_eq!(checksum(&[]), checksum(&[]));
/// assert_ne!(checksum(&[1, 0]), checksum(&[0, 1]));
/// ```
pub use crate::checksum::checksum;

fn io_err(path: &Path, source: std::io::Error) -> TbError {
    TbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The error for a folder (or a device) where a layer file belongs: it says so, where
/// the mapping or a read would say "No such device" or "Is a directory".
pub(crate) fn not_a_file(path: &Path) -> TbError {
    let e = std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        "not a tablebase file (a folder or another kind of file, not a regular file)",
    );
    io_err(path, e)
}

/// The temporary name a layer is written under before it is renamed into place:
/// `FILE.tmp.<pid>` ([`crate::fsutil::temp_path`]).
pub fn temp_path(path: &Path) -> PathBuf {
    crate::fsutil::temp_path(path)
}

/// Writes `header` and `entries` to `path` atomically: first to [`temp_path`], synced, then
/// renamed. The header's count and checksum are filled in here.
///
/// # Errors
///
/// [`TbError::Io`] naming the path.
pub fn write_layer(path: &Path, header: &Header, entries: &[u8]) -> Result<Header, TbError> {
    let count = (entries.len() / ENTRY_BYTES) as u64;
    write_layer_with(path, header, count, |first, out| {
        let at = first as usize * ENTRY_BYTES;
        out.copy_from_slice(&entries[at..at + out.len()]);
    })
}

/// Entries per block of [`write_layer_with`] (2 MB of bytes).
const WRITE_BLOCK: u64 = 1 << 20;

/// As [`write_layer`], with the `count` entries produced block by block: `fill(first,
/// out)` writes the little-endian bytes of entries `first..first + out.len() / 2` into
/// `out`. The entries are never held in one piece (a layer being generated keeps them as
/// atomics; a copy would cost 2 more bytes a position).
///
/// # Errors
///
/// [`TbError::Io`] naming the path.
pub fn write_layer_with(
    path: &Path,
    header: &Header,
    count: u64,
    mut fill: impl FnMut(u64, &mut [u8]),
) -> Result<Header, TbError> {
    let mut h = *header;
    h.count = count;
    let tmp = temp_path(path);
    let mut write = || -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom};
        let mut f = File::create(&tmp)?;
        // The header is written again once the checksum is known.
        f.write_all(&h.to_bytes())?;
        let mut sum = crate::checksum::Checksum::new();
        let mut buf = vec![0u8; (WRITE_BLOCK.min(count) as usize) * ENTRY_BYTES];
        let mut first = 0u64;
        while first < count {
            let len = WRITE_BLOCK.min(count - first) as usize * ENTRY_BYTES;
            fill(first, &mut buf[..len]);
            sum.update(&buf[..len]);
            f.write_all(&buf[..len])?;
            first += WRITE_BLOCK;
        }
        h.checksum = sum.finish();
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&h.to_bytes())?;
        f.sync_all()?;
        Ok(())
    };
    // A failed write (a full disk) leaves no temporary file behind.
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_err(&tmp, e)
    })?;
    std::fs::rename(&tmp, path).map_err(|e| io_err(path, e))?;
    Ok(h)
}

/// How an opened layer holds its entries while it is probed.
///
/// A long search probes the tables at random places, once or more a node: mapped on the
/// page cache's 4 KB pages, almost every probe (and its prefetch) first waits for a page
/// walk. A copy on 2 MB pages needs 512 times fewer translations (docs/performance.md,
/// Session 17: Kalah(6,5) with 3.7 GB of tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Load {
    /// Mapped from the file: nothing read at open beyond what a checksum reads, and the
    /// memory is the page cache's, shared with every other run.
    #[default]
    Map,
    /// Copied into anonymous memory advised onto transparent huge pages: one read of the
    /// file at open, and the file's size in memory of this process, or half of it where
    /// every entry of the layer is exact and finite (`lo == hi`: every layer of a game
    /// that cannot repeat, such as Kalah), which keeps one byte a position (the *narrow*
    /// copy: half the memory to reach, half the translations).
    Memory,
}

/// A layer file opened for probing: its header and its bytes (memory-mapped or copied,
/// [`Load`]).
#[derive(Debug)]
pub struct LayerFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its header.
    pub header: Header,
    /// The file mapped, or ([`Load::Memory`] with some entry not exact) its copy.
    map: memmap2::Mmap,
    /// [`Load::Memory`] where every entry is exact and finite: entry `r`'s value as the
    /// `i8` at `r` (see [`Load::Memory`]); `map` is then the file mapped, for
    /// [`LayerFile::entry_bytes`].
    narrow: Option<memmap2::Mmap>,
}

impl LayerFile {
    /// Opens and checks a layer file: header, size and (when `verify` is set) checksum.
    ///
    /// # Errors
    ///
    /// [`TbError::Io`], [`TbError::BadMagic`], [`TbError::UnsupportedVersion`],
    /// [`TbError::ParamsMismatch`], [`TbError::Truncated`] (the size does not match the
    /// header's count), [`TbError::ChecksumMismatch`]; every one names the path.
    pub fn open(path: &Path, verify: bool) -> Result<LayerFile, TbError> {
        Self::open_loaded(path, verify, Load::Map)
    }

    /// As [`LayerFile::open`], the entries held as `load` says.
    ///
    /// # Errors
    ///
    /// As [`LayerFile::open`]; with [`Load::Memory`], [`TbError::Io`] also when the
    /// memory for the copy cannot be had.
    pub fn open_loaded(path: &Path, verify: bool, load: Load) -> Result<LayerFile, TbError> {
        let file = File::open(path).map_err(|e| io_err(path, e))?;
        let meta = file.metadata().map_err(|e| io_err(path, e))?;
        if !meta.is_file() {
            return Err(not_a_file(path));
        }
        let len = meta.len();
        let map = map_file(&file, len, Load::Map).map_err(|e| io_err(path, e))?;
        let header = Header::parse(&map, path)?;
        let expected = (HEADER_LEN as u64).saturating_add(header.count.saturating_mul(2));
        if len != expected {
            return Err(TbError::Truncated {
                path: path.to_path_buf(),
                expected,
                found: len,
            });
        }
        let mut lf = LayerFile {
            path: path.to_path_buf(),
            header,
            map,
            narrow: None,
        };
        let mut verified = false;
        if load == Load::Memory {
            // The narrow copy, checksummed as it is made; a layer with an entry that is
            // not exact is copied whole instead.
            match narrow_copy(lf.entry_bytes()).map_err(|e| io_err(path, e))? {
                Some((narrow, sum)) => {
                    if verify && sum != header.checksum {
                        return Err(TbError::ChecksumMismatch {
                            path: path.to_path_buf(),
                        });
                    }
                    verified = true;
                    lf.narrow = Some(narrow);
                }
                None => lf.map = map_file(&file, len, load).map_err(|e| io_err(path, e))?,
            }
        }
        if verify && !verified && checksum(lf.entry_bytes()) != header.checksum {
            return Err(TbError::ChecksumMismatch {
                path: path.to_path_buf(),
            });
        }
        Ok(lf)
    }

    /// Whether the entries are held one byte a position ([`Load::Memory`] of a layer whose
    /// every entry is exact and finite).
    pub fn is_narrow(&self) -> bool {
        self.narrow.is_some()
    }

    /// The raw entry bytes.
    pub fn entry_bytes(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// Asks the processor to bring entry `r` into the cache (a hint: nothing happens off
    /// x86-64 or past the entries), so that a [`LayerFile::get`] of it soon after does not
    /// wait for memory.
    #[inline]
    pub fn prefetch(&self, r: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let (bytes, i) = match &self.narrow {
                Some(n) => (n, r as usize),
                None => (&self.map, HEADER_LEN + 2 * r as usize),
            };
            if i < bytes.len() {
                // SAFETY: a prefetch is a hint that never faults nor changes memory; the
                // address is inside the mapping anyway.
                #[allow(unsafe_code)]
                unsafe {
                    std::arch::x86_64::_mm_prefetch(
                        bytes.as_ptr().add(i).cast::<i8>(),
                        std::arch::x86_64::_MM_HINT_T0,
                    );
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = r;
    }

    /// Entry `r`, decoded.
    ///
    /// # Panics
    ///
    /// If `r >= count`.
    #[inline]
    pub fn get(&self, r: u64) -> Bounds {
        if let Some(n) = &self.narrow {
            let v = crate::value::Score::from(n[r as usize] as i8);
            return Bounds { lo: v, hi: v };
        }
        let i = HEADER_LEN + 2 * r as usize;
        decode(u16::from_le_bytes([self.map[i], self.map[i + 1]]))
    }

    /// Whether the stored checksum matches the entries.
    pub fn checksum_ok(&self) -> bool {
        checksum(self.entry_bytes()) == self.header.checksum
    }
}

/// Anonymous memory of `len` bytes (at least one), advised onto transparent huge pages
/// where the kernel has them (the advice is only a hint: refused, the memory is on 4 KB
/// pages).
fn huge_anon(len: usize) -> std::io::Result<memmap2::MmapMut> {
    let anon = memmap2::MmapOptions::new().len(len.max(1)).map_anon()?;
    #[cfg(target_os = "linux")]
    let _ = anon.advise(memmap2::Advice::HugePage);
    Ok(anon)
}

/// The narrow copy of a layer's entry bytes (two a position, encoding 1): one `i8` a
/// position, the value, with the checksum of the bytes read; `None` (at the first such
/// entry) when some entry is not exact (`lo != hi`) or not finite.
///
/// # Errors
///
/// When the memory cannot be had.
fn narrow_copy(entries: &[u8]) -> std::io::Result<Option<(memmap2::Mmap, u64)>> {
    let mut narrow = huge_anon(entries.len() / 2)?;
    let mut sum = crate::checksum::Checksum::new();
    // In pieces of 1 MB: each is read once for the checksum and once for the copy while
    // it is still in the cache.
    const PIECE: usize = 1 << 20;
    for (k, piece) in entries.chunks(PIECE).enumerate() {
        sum.update(piece);
        let out = &mut narrow[k * PIECE / 2..][..piece.len() / 2];
        for (o, e) in out.iter_mut().zip(piece.chunks_exact(2)) {
            let (lo, hi) = (e[0], e[1]);
            // -128 and 127 encode the infinities (enc8).
            if lo != hi || lo == 0x80 || lo == 0x7f {
                return Ok(None);
            }
            *o = lo;
        }
    }
    Ok(Some((narrow.make_read_only()?, sum.finish())))
}

/// Maps a whole file read-only, or copies it into memory ([`Load`]).
#[allow(unsafe_code)]
fn map_file(file: &File, len: u64, load: Load) -> std::io::Result<memmap2::Mmap> {
    if len == 0 {
        // An empty mapping is an error on some systems; map nothing and let the header
        // check report the truncation.
        return memmap2::MmapOptions::new().len(0).map_anon().map(|m| {
            m.make_read_only()
                .expect("an anonymous mapping can be made read-only")
        });
    }
    // SAFETY: `Mmap::map` is unsafe because another process could change or truncate the
    // file while it is mapped. Tablebase files are never modified in place: they are
    // written under a temporary name and renamed (`write_layer`), and a regeneration
    // replaces the directory entry, leaving this mapping on the old inode. Every read of
    // the mapping is bounds-checked (slices), so the only residual risk is a foreign
    // process truncating the file under us, which the tool documents as unsupported.
    if load == Load::Memory {
        // A copy in anonymous memory, advised onto transparent huge pages where the
        // kernel has them (the advice is only a hint: refused, the copy is on 4 KB pages).
        let mut anon = huge_anon(len as usize)?;
        let mut f = file;
        std::io::Read::read_exact(&mut f, &mut anon[..])?;
        return anon.make_read_only();
    }
    unsafe { memmap2::Mmap::map(file) }
}
