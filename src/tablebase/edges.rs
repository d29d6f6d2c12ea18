//! The in-layer edge stream of the layer being generated: for each chunk of positions, the
//! records of its open positions (exit value and in-layer edges), kept in a scratch file
//! on disk and read back chunk by chunk at every fixpoint sweep, so the layer's memory
//! holds only its 2-byte entries and its change marks.
//!
//! # Format
//!
//! A chunk's bytes are a sequence of records, one per scanned position with at least one
//! in-layer edge, in rank order:
//!
//! | bytes | field |
//! |---|---|
//! | 2 | the position's offset in its chunk (`u16` little-endian; chunks hold at most 2^16) |
//! | 2 | its exit value: `enc8(lo)`, `enc8(hi)` of the moves leaving the layer |
//! | 1 | its number `c` of in-layer edges |
//! | `c * w` | the edges: child rank, the top bit set when the turn passes, little-endian |
//!
//! `w` is 4 bytes when the layer has at most 2^31 positions, 8 above (see [`edge_width`]).
//! A sweep rewrites a chunk without the records of positions that became final (their
//! entries never change again), so the stream shrinks as the fixpoint nears.
//!
//! # Stability
//!
//! Scratch only: the file is unlinked as soon as it is created (on Linux, an open file
//! without a name), so nothing is left on disk after the layer, a crash or a `kill -9`.

use super::TbError;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Bytes of a record's fixed part: offset, exit value, edge count.
pub const RECORD_HEAD: usize = 5;

/// The bytes of one edge in a layer of `size` positions: 4 up to 2^31 positions, else 8.
pub fn edge_width(size: u64) -> usize {
    if size <= 1 << 31 {
        4
    } else {
        8
    }
}

/// Appends an edge to `child` (`passes`: the turn passes) in `width` bytes.
#[inline]
pub fn put_edge(out: &mut Vec<u8>, child: u64, passes: bool, width: usize) {
    if width == 4 {
        let w = child as u32 | if passes { 1 << 31 } else { 0 };
        out.extend_from_slice(&w.to_le_bytes());
    } else {
        let w = child | if passes { 1 << 63 } else { 0 };
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// The edge at the start of `e`, of `W` bytes (4 or 8): (child rank, the turn passes).
#[inline(always)]
pub fn get_edge<const W: usize>(e: &[u8]) -> (usize, bool) {
    if W == 4 {
        let w = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
        ((w & !(1 << 31)) as usize, w >> 31 != 0)
    } else {
        let w = u64::from_le_bytes(e[..8].try_into().expect("8 bytes"));
        ((w & !(1 << 63)) as usize, w >> 63 != 0)
    }
}

/// Where one chunk's records are in the scratch file.
#[derive(Debug)]
struct Slot {
    offset: u64,
    len: AtomicU32,
}

/// The scratch file of one layer's edge records, chunk by chunk.
#[derive(Debug)]
pub struct EdgeStream {
    file: File,
    path: PathBuf,
    width: usize,
    end: AtomicU64,
    slots: Vec<Slot>,
    peak_len: AtomicU32,
}

impl EdgeStream {
    /// Creates the scratch file `path` (a stale one of a crashed process that had the same
    /// id is replaced), unlinks it at once, and
    /// prepares `chunks` empty chunks with edges of `width` bytes.
    ///
    /// # Errors
    ///
    /// [`TbError::Io`] naming the path.
    pub fn create(path: &Path, chunks: usize, width: usize) -> Result<EdgeStream, TbError> {
        let io = |e| TbError::Io {
            path: path.to_path_buf(),
            source: e,
        };
        if path.exists() {
            std::fs::remove_file(path).map_err(io)?;
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(io)?;
        std::fs::remove_file(path).map_err(io)?;
        Ok(EdgeStream {
            file,
            path: path.to_path_buf(),
            width,
            end: AtomicU64::new(0),
            slots: (0..chunks)
                .map(|_| Slot {
                    offset: 0,
                    len: AtomicU32::new(0),
                })
                .collect(),
            peak_len: AtomicU32::new(0),
        })
    }

    /// The bytes of an edge.
    pub fn width(&self) -> usize {
        self.width
    }

    fn io(&self, e: std::io::Error) -> TbError {
        TbError::Io {
            path: self.path.clone(),
            source: e,
        }
    }

    /// Appends the records of one chunk; returns where they went (offset, length), to be
    /// given to [`EdgeStream::place`].
    ///
    /// # Errors
    ///
    /// [`TbError::Io`] (a full disk, say) naming the scratch file.
    pub fn append(&self, records: &[u8]) -> Result<(u64, u32), TbError> {
        let len = u32::try_from(records.len()).expect("a chunk's records fit in 4 GB");
        self.peak_len.fetch_max(len, Ordering::Relaxed);
        let offset = self.end.fetch_add(len as u64, Ordering::Relaxed);
        self.file
            .write_all_at(records, offset)
            .map_err(|e| self.io(e))?;
        Ok((offset, len))
    }

    /// Records that chunk `c`'s records are at `(offset, len)`.
    pub fn place(&mut self, c: usize, (offset, len): (u64, u32)) {
        self.slots[c] = Slot {
            offset,
            len: AtomicU32::new(len),
        };
    }

    /// Reads chunk `c`'s records into `buf` (resized to them).
    ///
    /// # Errors
    ///
    /// [`TbError::Io`] naming the scratch file.
    pub fn read(&self, c: usize, buf: &mut Vec<u8>) -> Result<(), TbError> {
        let s = &self.slots[c];
        buf.resize(s.len.load(Ordering::Relaxed) as usize, 0);
        self.file
            .read_exact_at(buf, s.offset)
            .map_err(|e| self.io(e))
    }

    /// Replaces chunk `c`'s records by `records`, which must be no longer than before
    /// (the chunk keeps its place in the file).
    ///
    /// # Errors
    ///
    /// [`TbError::Io`] naming the scratch file.
    pub fn shrink(&self, c: usize, records: &[u8]) -> Result<(), TbError> {
        let s = &self.slots[c];
        assert!(records.len() <= s.len.load(Ordering::Relaxed) as usize);
        self.file
            .write_all_at(records, s.offset)
            .map_err(|e| self.io(e))?;
        s.len.store(records.len() as u32, Ordering::Relaxed);
        Ok(())
    }

    /// Bytes of records written by the scan (the file's size).
    pub fn scan_bytes(&self) -> u64 {
        self.end.load(Ordering::Relaxed)
    }

    /// Bytes of records still in the stream.
    pub fn live_bytes(&self) -> u64 {
        self.slots
            .iter()
            .map(|s| s.len.load(Ordering::Relaxed) as u64)
            .sum()
    }

    /// The longest chunk of records (the buffer a worker thread holds).
    pub fn peak_chunk_bytes(&self) -> u64 {
        self.peak_len.load(Ordering::Relaxed) as u64
    }
}
