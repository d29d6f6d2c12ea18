//! Checkpoints of a long solve: the driver's proven ranges and the transposition table,
//! written to a file so that an interrupted `giuthi solve` resumes where it stood.
//!
//! Every entry of the table is a proven bound on a positional value (see
//! [`crate::solve::tt`]), and the [`Progress`] of the MTD(f) driver holds proven ranges of
//! `lo` and `hi` (RULES.md V2), so a checkpoint taken at any moment, even while the search
//! threads write into the table, is a set of facts about the position; a search resumed
//! from it ([`Solver::resume_from`](crate::solve::alphabeta::Solver::resume_from),
//! [`Solver::with_table`](crate::solve::alphabeta::Solver::with_table)) loses at most the
//! work done since it was written.
//!
//! # Format
//!
//! All integers little-endian; `P` is the length of the position text.
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | 0..8 | magic | `GIUTHICK` |
//! | 8..10 | version | [`VERSION`] |
//! | 10..12 | reserved | zero |
//! | 12..16 | P | length of the position text in bytes |
//! | 16..16+P | position | the canonical text of the position (RULES.md N1: game, variant, board, turn, captured seeds) |
//! | +0..+8 | ranges | `lo.0`, `lo.1`, `hi.0`, `hi.1` of [`Progress`], `i16` each (`-32767`/`32767` = minus/plus infinity) |
//! | +8..+10 | guess | [`Progress::guess`], `i16` |
//! | +10..+16 | reserved | zero |
//! | +16..+24 | nodes | nodes searched so far, every session added up |
//! | +24..+32 | seconds | wall seconds so far, every session added up, `f64` bits |
//! | +32..+40 | keys | [`key_fingerprint`] of the position (guards against a build whose position keys differ) |
//! | +40..+48 | T | length of the table section in bytes |
//! | +48..+48+T | table | the table as [`Table::write_to`] writes it (`GIUTHITT`, version, slots, slot words, its own checksum) |
//! | last 8 | checksum | [`crate::checksum::checksum`] of every byte before it |
//!
//! A file is written to `FILE.tmp.<pid>` (the writing process's id), synced, then renamed
//! over `FILE`: a crash while writing leaves the previous checkpoint whole, and the next
//! write removes the temporaries of processes no longer running ([`crate::fsutil`]).
//!
//! # Stability
//!
//! Format version 1. A reader refuses other versions, a table of a layout other than
//! [`TABLE_FORMAT_WIDE`](crate::solve::tt::TABLE_FORMAT_WIDE) and
//! [`TABLE_FORMAT_COMPACT`](crate::solve::tt::TABLE_FORMAT_COMPACT) (a table of
//! [`TABLE_FORMAT_COMPACT_V2`](crate::solve::tt::TABLE_FORMAT_COMPACT_V2), written by
//! builds before session 25, is read and converted), and a file whose key
//! fingerprint differs from the one this build computes.
//!
//! # Examples
//!
//! ```
//! use giuthi::Position;
//! use giuthi::rules::giuthi::Giuthi;
//! use giuthi::solve::alphabeta::{Progress, Solver, SolverOptions};
//! use giuthi::solve::checkpoint::Checkpoint;
//! let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
//! let solver = Solver::new(pos.rules.clone(), SolverOptions { hash_mb: 1, ..Default::default() });
//! let sol = solver.solve_with_bounds(&pos)?;
//! let dir = std::env::temp_dir().join(format!("giuthi-ck-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("ck.bin");
//! let ck = Checkpoint::of(&pos, solver.progress().expect("solved"), sol.nodes, 0.0);
//! ck.write(&path, solver.table())?;
//! let (back, table) = Checkpoint::read_for(&path, &pos)?;
//! assert_eq!(back, ck);
//! assert!(back.progress.is_done());
//! let again = Solver::new(pos.rules.clone(), SolverOptions::default())
//!     .with_table(table)
//!     .resume_from(back.progress);
//! let resumed = again.solve_with_bounds(&pos)?;
//! assert_eq!((resumed.ranges, resumed.margin), (sol.ranges, sol.margin));
//! assert_eq!((resumed.best_moves, resumed.pv), (sol.best_moves, sol.pv));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::alphabeta::Progress;
use super::tt::{Table, TableFileError};
use crate::checksum::Checksum;
use crate::index::mix64;
use crate::position::Position;
use crate::rules::Rules;
use crate::value::{fmt_score, Score};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The magic bytes that open a checkpoint file.
pub const MAGIC: [u8; 8] = *b"GIUTHICK";
/// The checkpoint format version this code writes and reads.
pub const VERSION: u16 = 1;
/// The longest position text a checkpoint may hold.
const MAX_POSITION_BYTES: u32 = 4096;
/// States visited from the position for the key fingerprint.
const FINGERPRINT_STATES: usize = 64;

/// Why a checkpoint could not be used. Every variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not a checkpoint file.
    #[error("{}: not a giuthi checkpoint (no GIUTHICK magic)", path.display())]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// A checkpoint of another format version.
    #[error("{}: checkpoint format version {found}, this build reads version {VERSION}", path.display())]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u16,
    },
    /// The file is empty (0 bytes): not a checkpoint, and nothing to resume from.
    #[error("{}: the file is empty (0 bytes), not a giuthi checkpoint", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The file is shorter or longer than its header says.
    #[error("{}: truncated or padded: the header says {expected} bytes, the file has {found}", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Bytes the header implies.
        expected: u64,
        /// Bytes in the file.
        found: u64,
    },
    /// A header field that cannot be right.
    #[error("{}: corrupt header: {what}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The checkpoint of another position (or game, or variant).
    #[error("{}: this is the checkpoint of `{found}`, not of `{expected}` (or a damaged file: \
             its checksum is checked only after the position)", path.display())]
    DifferentPosition {
        /// The file.
        path: PathBuf,
        /// The position in the file.
        found: String,
        /// The position asked for.
        expected: String,
    },
    /// Written by a build that keys positions differently: its table would be wrong here.
    #[error("{}: written by a build whose position keys differ from this one (fingerprint {found:#018x}, expected {expected:#018x}); its table cannot be used", path.display())]
    DifferentKeys {
        /// The file.
        path: PathBuf,
        /// The fingerprint in the file.
        found: u64,
        /// The fingerprint this build computes.
        expected: u64,
    },
    /// The table section failed a check.
    #[error("{}: {source}", path.display())]
    Table {
        /// The file.
        path: PathBuf,
        /// The failed check.
        source: TableFileError,
    },
    /// The bytes do not match the file's checksum.
    #[error("{}: checksum mismatch: the checkpoint is corrupt", path.display())]
    ChecksumMismatch {
        /// The file.
        path: PathBuf,
    },
    /// The read was stopped by its caller ([`Checkpoint::read_for_until`]); the file is
    /// untouched.
    #[error("{}: reading stopped before the end (the file is untouched)", path.display())]
    Stopped {
        /// The file.
        path: PathBuf,
    },
}

/// The payload of the I/O error by which [`Summing`] ends a read that its caller stopped.
#[derive(Debug)]
struct StopRead;

impl std::fmt::Display for StopRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped")
    }
}

impl std::error::Error for StopRead {}

/// Whether `e` is the error by which [`Summing`] ends a stopped read.
fn is_stop(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|x| x.is::<StopRead>())
}

/// The header of a checkpoint: what was being solved and how far it got.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// The canonical text of the position (RULES.md N1).
    pub position: String,
    /// The proven ranges of `lo` and `hi` and the next threshold.
    pub progress: Progress,
    /// Nodes searched so far (every session).
    pub nodes: u64,
    /// Wall seconds so far (every session).
    pub seconds: f64,
    /// [`key_fingerprint`] of the position under the build that wrote it.
    pub fingerprint: u64,
}

/// A fingerprint of how this build keys the states near `s`: the keys of the first
/// [`FINGERPRINT_STATES`] states reached from `s` breadth-first (in the rules' move order),
/// mixed. A table written by a build whose keys, move order or key limit differ would hold
/// bounds under the wrong keys; the fingerprint tells.
pub fn key_fingerprint<R: Rules>(rules: &R, s: &R::State) -> u64 {
    let mut seen: Vec<R::State> = vec![*s];
    let mut h = mix64(0x6769_7574_6869_636b ^ rules.exact_key_limit() as u64);
    let mut i = 0;
    let mut kids = Vec::new();
    while i < seen.len() {
        let st = seen[i];
        h = mix64(h ^ rules.key(&st));
        rules.children(&st, &mut kids);
        for c in &kids {
            if seen.len() < FINGERPRINT_STATES && !seen.contains(&c.state) {
                seen.push(c.state);
            }
        }
        i += 1;
    }
    h
}

/// A reader that checksums what it reads, and fails every read (with a [`StopRead`]
/// error) once `stop` answers `true`.
struct Summing<'a, R> {
    inner: R,
    sum: Checksum,
    stop: &'a dyn Fn() -> bool,
}

impl<R: Read> Read for Summing<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if (self.stop)() {
            return Err(std::io::Error::other(StopRead));
        }
        let n = self.inner.read(buf)?;
        self.sum.update(&buf[..n]);
        Ok(n)
    }
}

/// A writer that checksums what it writes.
struct SummingWriter<W> {
    inner: W,
    sum: Checksum,
}

impl<W: Write> Write for SummingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sum.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The temporary name a checkpoint is written under before it is renamed into place:
/// `FILE.tmp.<pid>`, so that two processes writing the same checkpoint never write into
/// one temporary file (each renames a whole file of its own over `FILE`).
pub fn temp_path(path: &Path) -> PathBuf {
    crate::fsutil::temp_path(path)
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> CheckpointError + '_ {
    move |source| {
        if is_stop(&source) {
            CheckpointError::Stopped {
                path: path.to_path_buf(),
            }
        } else {
            CheckpointError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    }
}

/// What [`Checkpoint::write`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// Bytes of the file.
    pub bytes: u64,
    /// Table slots in use.
    pub used_slots: u64,
}

impl Checkpoint {
    /// The checkpoint of `pos` at `progress`, after `nodes` nodes and `seconds` seconds.
    pub fn of<R: Rules>(
        pos: &Position<R>,
        progress: Progress,
        nodes: u64,
        seconds: f64,
    ) -> Checkpoint {
        Checkpoint {
            position: pos.to_string(),
            progress,
            nodes,
            seconds,
            fingerprint: key_fingerprint(&pos.rules, &pos.state),
        }
    }

    /// The header bytes up to the table section, for a table of `table_bytes` bytes.
    fn header_bytes(&self, table_bytes: u64) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + self.position.len());
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&[0, 0]);
        b.extend_from_slice(&(self.position.len() as u32).to_le_bytes());
        b.extend_from_slice(self.position.as_bytes());
        let p = &self.progress;
        for v in [p.lo.0, p.lo.1, p.hi.0, p.hi.1, p.guess] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&[0; 6]);
        b.extend_from_slice(&self.nodes.to_le_bytes());
        b.extend_from_slice(&self.seconds.to_bits().to_le_bytes());
        b.extend_from_slice(&self.fingerprint.to_le_bytes());
        b.extend_from_slice(&table_bytes.to_le_bytes());
        b
    }

    /// Writes the checkpoint with a snapshot of `table` to `path`: to [`temp_path`] first,
    /// synced, then renamed over `path` (see the module's `# Format`). The table may be
    /// in use by running searches.
    ///
    /// # Errors
    ///
    /// [`CheckpointError::Io`] naming the file; the temporary file is then removed and a
    /// checkpoint already at `path` is left as it was.
    pub fn write(&self, path: &Path, table: &Table) -> Result<Written, CheckpointError> {
        crate::fsutil::remove_stale_temps(path); // left by a killed run (issue 16)
        let tmp = temp_path(path);
        let table_bytes = table.saved_bytes();
        let head = self.header_bytes(table_bytes);
        let write = || -> std::io::Result<Written> {
            let file = File::create(&tmp)?;
            let mut w = SummingWriter {
                inner: BufWriter::with_capacity(1 << 20, file),
                sum: Checksum::new(),
            };
            w.write_all(&head)?;
            let used_slots = table.write_to(&mut w)?;
            let sum = w.sum.finish();
            let mut inner = w.inner;
            inner.write_all(&sum.to_le_bytes())?;
            let file = inner.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            Ok(Written {
                bytes: head.len() as u64 + table_bytes + 8,
                used_slots,
            })
        };
        let written = match write() {
            Ok(w) => w,
            Err(e) => {
                // A partial temporary file (a full disk, say) is not left behind; the
                // previous checkpoint at `path` is untouched.
                let _ = std::fs::remove_file(&tmp);
                return Err(io_err(&tmp)(e));
            }
        };
        if let Err(e) = std::fs::rename(&tmp, path) {
            let _ = std::fs::remove_file(&tmp);
            return Err(io_err(path)(e));
        }
        // Make the rename itself durable (best effort: not every system syncs folders).
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(written)
    }

    /// Reads and checks the checkpoint of `pos` at `path`: the magic, the version, the
    /// header fields, that it is the checkpoint of `pos` (same canonical text: game,
    /// variant, board, turn, captured seeds) under a build with the same position keys,
    /// then the table (its magic, version, slot count and checksum) and the file's
    /// checksum. Nothing is returned unless every check passes.
    ///
    /// # Errors
    ///
    /// A [`CheckpointError`] naming the file and the check that failed.
    pub fn read_for<R: Rules>(
        path: &Path,
        pos: &Position<R>,
    ) -> Result<(Checkpoint, Table), CheckpointError> {
        Checkpoint::read_for_until(path, pos, &|| false)
    }

    /// [`Checkpoint::read_for`] that asks `stop` before every read of the file (at most
    /// 1 MiB apart: a checkpoint of 8 GB takes a minute to read) and gives up with
    /// [`CheckpointError::Stopped`] once it answers `true`.
    ///
    /// # Errors
    ///
    /// As [`Checkpoint::read_for`], and [`CheckpointError::Stopped`].
    pub fn read_for_until<R: Rules>(
        path: &Path,
        pos: &Position<R>,
        stop: &dyn Fn() -> bool,
    ) -> Result<(Checkpoint, Table), CheckpointError> {
        let file = File::open(path).map_err(io_err(path))?;
        let len = file.metadata().map_err(io_err(path))?.len();
        let mut r = Summing {
            inner: BufReader::with_capacity(1 << 20, file),
            sum: Checksum::new(),
            stop,
        };
        let truncated = |expected: u64| CheckpointError::Truncated {
            path: path.to_path_buf(),
            expected,
            found: len,
        };
        let corrupt = |what: String| CheckpointError::Corrupt {
            path: path.to_path_buf(),
            what,
        };
        if len == 0 {
            return Err(CheckpointError::Empty {
                path: path.to_path_buf(),
            });
        }
        let mut head = [0u8; 16];
        if len < 16 {
            if len >= 8 {
                r.read_exact(&mut head[..8]).map_err(io_err(path))?;
                if head[..8] != MAGIC {
                    return Err(CheckpointError::BadMagic {
                        path: path.to_path_buf(),
                    });
                }
            }
            return Err(truncated(16));
        }
        r.read_exact(&mut head).map_err(io_err(path))?;
        if head[..8] != MAGIC {
            return Err(CheckpointError::BadMagic {
                path: path.to_path_buf(),
            });
        }
        let version = u16::from_le_bytes([head[8], head[9]]);
        if version != VERSION {
            return Err(CheckpointError::UnsupportedVersion {
                path: path.to_path_buf(),
                found: version,
            });
        }
        let plen = u32::from_le_bytes(head[12..16].try_into().expect("4 bytes"));
        if plen > MAX_POSITION_BYTES {
            return Err(corrupt(format!("position text of {plen} bytes")));
        }
        let fixed = 16 + plen as u64 + 48;
        if len < fixed + 8 {
            return Err(truncated(fixed + 8));
        }
        let mut text = vec![0u8; plen as usize];
        r.read_exact(&mut text).map_err(io_err(path))?;
        let position = String::from_utf8(text)
            .map_err(|_| corrupt("the position text is not UTF-8".to_string()))?;
        let mut f = [0u8; 48];
        r.read_exact(&mut f).map_err(io_err(path))?;
        let i16_at = |i: usize| i16::from_le_bytes([f[i], f[i + 1]]) as Score;
        let u64_at = |i: usize| u64::from_le_bytes(f[i..i + 8].try_into().expect("8 bytes"));
        let ck = Checkpoint {
            position,
            progress: Progress {
                lo: (i16_at(0), i16_at(2)),
                hi: (i16_at(4), i16_at(6)),
                guess: i16_at(8),
            },
            nodes: u64_at(16),
            seconds: f64::from_bits(u64_at(24)),
            fingerprint: u64_at(32),
        };
        let table_bytes = u64_at(40);
        let expected_len = fixed.saturating_add(table_bytes).saturating_add(8);
        if len != expected_len {
            return Err(truncated(expected_len));
        }
        // Which position, before reading the table.
        let want = pos.to_string();
        if ck.position != want {
            // A text that is not a position as the engine writes one is damage, not
            // another position's checkpoint (the file's checksum would find it too, but
            // only after reading the whole table).
            let game = |t: &str| t.split([' ', ':']).next().unwrap_or("").to_string();
            let damaged = if game(&ck.position) == game(&want) {
                // The same game: the text must read back as itself.
                let written = ck.position.parse::<Position<R>>().map(|p| p.to_string());
                written.as_deref() != Ok(ck.position.as_str())
            } else {
                // Another game's file names its game in lowercase letters.
                let g = game(&ck.position);
                g.is_empty() || !g.bytes().all(|c| c.is_ascii_lowercase())
            };
            if damaged {
                return Err(corrupt(format!(
                    "the position text `{}` is not a position as giuthi writes one",
                    ck.position.escape_debug()
                )));
            }
            return Err(CheckpointError::DifferentPosition {
                path: path.to_path_buf(),
                found: ck.position,
                expected: want,
            });
        }
        let fp = key_fingerprint(&pos.rules, &pos.state);
        if ck.fingerprint != fp {
            return Err(CheckpointError::DifferentKeys {
                path: path.to_path_buf(),
                found: ck.fingerprint,
                expected: fp,
            });
        }
        let seeds = pos.rules.seeds_on_board(&pos.state) as Score;
        if !ck.progress.is_consistent(seeds) {
            return Err(corrupt(format!(
                "inconsistent ranges lo in [{}, {}], hi in [{}, {}] for {seeds} seeds",
                fmt_score(ck.progress.lo.0),
                fmt_score(ck.progress.lo.1),
                fmt_score(ck.progress.hi.0),
                fmt_score(ck.progress.hi.1)
            )));
        }
        if !(ck.seconds.is_finite() && ck.seconds >= 0.0) {
            return Err(corrupt(format!("seconds {}", ck.seconds)));
        }
        let table = Table::read_from(&mut r).map_err(|source| match source {
            TableFileError::Io(e) => io_err(path)(e),
            source => CheckpointError::Table {
                path: path.to_path_buf(),
                source,
            },
        })?;
        if table.saved_bytes() != table_bytes {
            return Err(corrupt(format!(
                "table section of {table_bytes} bytes holds {} slots",
                table.len()
            )));
        }
        let sum = r.sum.finish();
        let mut tail = [0u8; 8];
        r.inner.read_exact(&mut tail).map_err(io_err(path))?;
        if u64::from_le_bytes(tail) != sum {
            return Err(CheckpointError::ChecksumMismatch {
                path: path.to_path_buf(),
            });
        }
        Ok((ck, table))
    }
}
