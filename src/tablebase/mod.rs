//! Endgame tablebases: exact `(lo, hi)` (RULES.md V2) of every position with up to `K`
//! seeds on the board, generated layer by layer by retrograde fixpoint, stored one file
//! per layer, probed through memory maps.
//!
//! - [`format`]: the file format (header, encoding, checksum, atomic writes, mmap).
//! - [`index`]: the dense index (stars and bars, row swap, mirror).
//! - [`generate`]: the layer generator.
//! - [`cluster`]: the processes generating a layer together (one, or MPI ranks).
//! - [`edges`]: the in-layer edge stream (a scratch file) of the layer being generated.
//! - [`probe`]: solving a concrete position from the tables (V3, V4).
//! - [`inspect`]: statistics and verification.
//! - [`TablebaseSet`]: the loaded layers of one game; it implements
//!   [`crate::solve::EndgameOracle`].
//!
//! # Examples
//!
//! Generate Giuthi 2x3 up to 4 seeds in a temporary folder and probe a position:
//!
//! ```
//! use giuthi::rules::giuthi::{Giuthi, Variant};
//! use giuthi::tablebase::{generate::{generate, GenOptions}, TablebaseSet};
//! use giuthi::solve::EndgameOracle;
//! use giuthi::Position;
//! let dir = std::env::temp_dir().join(format!("giuthi-doc-tb-{}", std::process::id()));
//! let g = Giuthi::new(3, Variant::default())?;
//! generate(&g, &dir, 4, &GenOptions::quiet())?;
//! let set = TablebaseSet::open(&dir, g.clone(), 4)?;
//! let pos: Position<Giuthi> = "giuthi 0,0,1/3,0,0 S 0,0".parse()?;
//! let b = set.probe(&pos.state).expect("layer 4 is present");
//! assert!(b.lo <= b.hi);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod cluster;
pub mod edges;
pub mod format;
pub mod generate;
pub mod index;
pub mod inspect;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod probe;

use crate::index::Ranker;
use crate::rules::giuthi::{Chain, End, Giuthi, Origin, Variant};
use crate::rules::kalah::Kalah;
use crate::rules::Rules;
use crate::solve::EndgameOracle;
use crate::types::Side;
use crate::value::Bounds;
pub use format::Load;
use format::{GameId, LayerFile};
use std::path::{Path, PathBuf};

/// A tablebase error; every variant about a file names its path.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TbError {
    /// An I/O error on a file or folder.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file does not start with the tablebase magic: not a tablebase file.
    #[error("{}: not a giuthi tablebase file (bad magic)", path.display())]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// A format version this build does not read.
    #[error("{}: format version {version}, this build reads version {}", path.display(), format::VERSION)]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version found.
        version: u16,
    },
    /// The header describes another game, variant, board or layer than expected.
    #[error("{}: parameters do not match: {what}", path.display())]
    ParamsMismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        what: String,
    },
    /// The file's size does not match its header (or the file is shorter than a header).
    #[error("{}: truncated or padded: {found} bytes, expected {}", path.display(), expected_size(*expected, *found))]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Bytes expected from the header ([`format::HEADER_LEN`] where not even a header
        /// was there).
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The entries do not match the header's checksum.
    #[error("{}: checksum mismatch: the values are corrupt; delete the file and regenerate it", path.display())]
    ChecksumMismatch {
        /// The file.
        path: PathBuf,
    },
    /// A layer needed is not in the folder.
    #[error("missing layer: no tablebase file for {seeds} seeds ({})", path.display())]
    MissingLayer {
        /// The layer.
        seeds: u32,
        /// The file name expected.
        path: PathBuf,
    },
    /// A layer is missing below layers that are present: those could not be used.
    #[error("layer {seeds} is missing ({}), so {} cannot be used (make it with giuthi tb gen)", path.display(), layer_span(seeds + 1, *top))]
    LayerGap {
        /// The missing layer.
        seeds: u32,
        /// The largest layer present.
        top: u32,
        /// The file name expected.
        path: PathBuf,
    },
    /// The layer's values do not fit the entry encoding.
    #[error(
        "layer {seeds}: more than {} seeds cannot be encoded in 2 bytes per position",
        format::MAX_ENCODABLE_SEEDS
    )]
    RangeTooLarge {
        /// The layer.
        seeds: u32,
    },
    /// The layer has too many positions for this machine's address space (2 bytes each).
    #[error("layer {seeds}: {positions} positions exceed what this machine can address")]
    LayerTooLarge {
        /// The layer.
        seeds: u32,
        /// Its positions.
        positions: u64,
    },
    /// The memory budget is too small for a layer.
    #[error("layer {seeds} needs up to {needed_mb} MB, more than the budget of {budget_mb} MB (raise --memory or lower --max-seeds)")]
    MemoryBudget {
        /// The layer.
        seeds: u32,
        /// Megabytes needed.
        needed_mb: u64,
        /// The budget.
        budget_mb: u64,
    },
    /// A game or board the tablebases do not support.
    #[error("{0}")]
    Unsupported(String),
    /// Generation was stopped (Ctrl-C, or [`generate::GenOptions::stop_after_sweeps`])
    /// while layer `seeds` was being made; the layers before it are finished. When the
    /// stop came during the fixpoint sweeps, their progress is saved in `saved` (the
    /// layer's `.partial` file) and the next run resumes from it.
    #[error("layer {seeds} interrupted {}", match (saved, during_scan) {
        (Some(p), false) => format!("after {sweeps} sweeps; its progress is saved in {} and the same command resumes it", p.display()),
        (Some(p), true) => format!("during its scan; the progress of an earlier run ({sweeps} sweeps) stays in {} and the same command resumes it", p.display()),
        (None, _) => "during its scan; the same command restarts it".to_string(),
    })]
    Interrupted {
        /// The layer.
        seeds: u32,
        /// Sweeps done in all runs of this layer so far.
        sweeps: u32,
        /// The partial file holding them, if any.
        saved: Option<PathBuf>,
        /// Whether the stop came during the scan (nothing new was saved).
        during_scan: bool,
    },
    /// Another generation holds the folder's lock (see [`lock_for_generation`]).
    #[error("{}: another `giuthi tb gen` is running in this folder (it holds the folder's lock); wait for it to finish, or give another folder", dir.display())]
    Busy {
        /// The folder.
        dir: PathBuf,
        /// What is locked (the folder itself).
        lock: PathBuf,
    },
}

/// A game the tablebases can index: boards of `2n` pits (bytes) and a turn.
///
/// Implemented for [`Giuthi`] and [`Kalah`].
pub trait TbGame: Rules {
    /// The game id of the file header.
    const GAME: GameId;
    /// The variant byte of the file header.
    fn variant_code(&self) -> u8;
    /// The board: seeds of pits `0..2n`.
    fn board<'a>(&self, s: &'a Self::State) -> &'a [u8];
    /// The state with `board` (length `2n`) and `turn` to move.
    fn make_state(&self, board: &[u8], turn: Side) -> Self::State;
    /// Whether the left-right mirror (G11) is a symmetry of the game.
    fn has_mirror(&self) -> bool;
    /// The most moves a position can have.
    fn max_moves(&self) -> usize;
    /// Builds the rules from a header's game, variant and `n`.
    ///
    /// # Errors
    ///
    /// [`TbError::Unsupported`] for a code this game does not know.
    fn from_header(variant: u8, n: u8) -> Result<Self, TbError>;
    /// The name used in file names: game, variant, n (`giuthi-n5`, `giuthi-chain=one-n5`).
    fn file_stem(&self) -> String;
    /// The moves of the South-to-move `board` (`2n` pits) for the generator: calls
    /// `f(child, seeds, captured, turn_passes)` for each in the order of
    /// [`Rules::children`], `child[..2n]` the child's board seen with its mover as South
    /// (the row swap when the turn passes, [`index::south_view`]) and `seeds` the seeds
    /// on it. Returns `false`, calling nothing, when the game is over there. `kids` is
    /// scratch. The default goes through [`Rules::children`]; a game may do it faster
    /// (Kalah's short sowings, tested against the default in `tests/all/tablebase.rs`).
    #[inline]
    fn south_moves(
        &self,
        board: &[u8],
        kids: &mut Vec<crate::rules::Child<Self>>,
        f: impl FnMut(&[u8; 32], u32, u16, bool),
    ) -> bool {
        south_moves_into(self, board, kids, f)
    }
}

/// [`TbGame::south_moves`] through [`Rules::children`], into the caller's `kids`.
fn south_moves_into<R: TbGame>(
    rules: &R,
    board: &[u8],
    kids: &mut Vec<crate::rules::Child<R>>,
    mut f: impl FnMut(&[u8; 32], u32, u16, bool),
) -> bool {
    let state = rules.make_state(board, Side::South);
    rules.children(&state, kids);
    let mut child = [0u8; 32];
    for ch in kids.iter() {
        let seeds = index::south_view(rules, &ch.state, &mut child);
        f(&child, seeds, ch.captured, ch.turn_passes);
    }
    !kids.is_empty()
}

/// The moves of a South-to-move Kalah board through [`Rules::children`] (the default of
/// [`TbGame::south_moves`], for the test that compares Kalah's own with it).
#[doc(hidden)]
pub fn south_moves_by_children<R: TbGame>(
    rules: &R,
    board: &[u8],
    f: impl FnMut(&[u8; 32], u32, u16, bool),
) -> bool {
    south_moves_into(rules, board, &mut Vec::new(), f)
}

/// The `2n` pits of a Giuthi or Kalah state (they share the state type).
#[inline]
fn pits_board(s: &crate::rules::giuthi::GiuthiState, n: usize) -> &[u8] {
    &s.pits[..2 * n]
}

/// A Giuthi or Kalah state from its pits and the side to move.
#[inline]
fn pits_state(board: &[u8], turn: Side) -> crate::rules::giuthi::GiuthiState {
    let mut st = crate::rules::giuthi::GiuthiState {
        pits: [0; 32],
        turn,
    };
    st.pits[..board.len()].copy_from_slice(board);
    st
}

impl TbGame for Giuthi {
    const GAME: GameId = GameId::Giuthi;
    fn variant_code(&self) -> u8 {
        let v = self.variant();
        let chain = match v.chain {
            Chain::Run => 0,
            Chain::One => 1,
            Chain::None => 2,
        };
        let origin = match v.origin {
            Origin::Sow => 0,
            Origin::Skip => 1,
        };
        let end = match v.end {
            End::Stuck => 0,
            End::EmptyRow => 1,
        };
        chain + 4 * origin + 8 * end
    }
    #[inline]
    fn board<'a>(&self, s: &'a Self::State) -> &'a [u8] {
        pits_board(s, self.pits_per_row())
    }
    #[inline]
    fn make_state(&self, board: &[u8], turn: Side) -> Self::State {
        pits_state(board, turn)
    }
    fn has_mirror(&self) -> bool {
        true
    }
    fn max_moves(&self) -> usize {
        2 * self.pits_per_row()
    }
    fn from_header(variant: u8, n: u8) -> Result<Self, TbError> {
        let chain = match variant & 3 {
            0 => Chain::Run,
            1 => Chain::One,
            2 => Chain::None,
            _ => return Err(TbError::Unsupported(format!("variant code {variant}"))),
        };
        if variant >= 16 {
            return Err(TbError::Unsupported(format!("variant code {variant}")));
        }
        let v = Variant {
            chain,
            origin: if variant & 4 != 0 {
                Origin::Skip
            } else {
                Origin::Sow
            },
            end: if variant & 8 != 0 {
                End::EmptyRow
            } else {
                End::Stuck
            },
        };
        Giuthi::new(n as usize, v).map_err(|e| TbError::Unsupported(e.to_string()))
    }
    fn file_stem(&self) -> String {
        let v = self.variant().to_string();
        if v.is_empty() {
            format!("giuthi-n{}", self.pits_per_row())
        } else {
            format!("giuthi-{v}-n{}", self.pits_per_row())
        }
    }
}

impl TbGame for Kalah {
    const GAME: GameId = GameId::Kalah;
    fn variant_code(&self) -> u8 {
        0
    }
    #[inline]
    fn board<'a>(&self, s: &'a Self::State) -> &'a [u8] {
        pits_board(s, self.pits_per_row())
    }
    #[inline]
    fn make_state(&self, board: &[u8], turn: Side) -> Self::State {
        pits_state(board, turn)
    }
    fn has_mirror(&self) -> bool {
        false
    }
    fn max_moves(&self) -> usize {
        self.pits_per_row()
    }
    fn from_header(variant: u8, n: u8) -> Result<Self, TbError> {
        if variant != 0 {
            return Err(TbError::Unsupported(format!(
                "kalah has no variant code {variant}"
            )));
        }
        Kalah::new(n as usize).map_err(|e| TbError::Unsupported(e.to_string()))
    }
    fn file_stem(&self) -> String {
        format!("kalah-n{}", self.pits_per_row())
    }
    /// A sowing that goes round the board no further than North's row (all but the long
    /// ones) is done here on the child's South view directly (R1, then R2 or R3); the
    /// others go through [`Kalah::sow`]. R4: nothing when either row is empty.
    #[inline]
    fn south_moves(
        &self,
        board: &[u8],
        _kids: &mut Vec<crate::rules::Child<Self>>,
        mut f: impl FnMut(&[u8; 32], u32, u16, bool),
    ) -> bool {
        let n = self.pits_per_row();
        let p = 2 * n;
        if board[..n].iter().all(|&x| x == 0) {
            return false; // R4: North's row is empty
        }
        let seeds: u32 = board[..p].iter().map(|&x| x as u32).sum();
        let mut any = false;
        for q in n..p {
            let h = board[q] as usize;
            if h == 0 {
                continue;
            }
            any = true;
            let mut c = [0u8; 32];
            if h < p - q {
                // The child with North to move, rows swapped: South's sown row first.
                c[..n].copy_from_slice(&board[n..p]);
                c[n..p].copy_from_slice(&board[..n]);
                let from = q - n;
                c[from] = 0;
                for x in &mut c[from + 1..=from + h] {
                    *x += 1;
                }
                let last = from + h;
                let mut k = 0u32;
                if c[last] == 1 {
                    // R3: the landing seed and the opposite pit (North's pit n-1-last,
                    // now at p-1-last), even when that is empty.
                    let opp = p - 1 - last;
                    k = 1 + c[opp] as u32;
                    c[last] = 0;
                    c[opp] = 0;
                }
                f(&c, seeds - k, k as u16, true);
            } else if h == p - q {
                // R2: the last seed in the store, an extra move (no row swap).
                c[..p].copy_from_slice(&board[..p]);
                c[q] = 0;
                for x in &mut c[q + 1..p] {
                    *x += 1;
                }
                f(&c, seeds - 1, 1, false);
            } else if h <= p - q + n {
                // Past the store into North's row (no capture there): rows swapped.
                let north = h - (p - q); // North's pits 0..north get a seed
                c[..n].copy_from_slice(&board[n..p]);
                c[n..p].copy_from_slice(&board[..n]);
                let from = q - n;
                c[from] = 0;
                for x in &mut c[from + 1..n] {
                    *x += 1;
                }
                for x in &mut c[n..n + north] {
                    *x += 1;
                }
                f(&c, seeds - 1, 1, true);
            } else {
                let ch = self.sow(&self.make_state(board, Side::South), q);
                let s = index::south_view(self, &ch.state, &mut c);
                f(&c, s, ch.captured, ch.turn_passes);
            }
        }
        any
    }
}

/// The file of layer `seeds` of `rules` in `dir`.
pub fn layer_path<R: TbGame>(rules: &R, dir: &Path, seeds: u32) -> PathBuf {
    dir.join(format!("{}-s{seeds:03}.tb", rules.file_stem()))
}

/// Takes the generation lock of the tablebase folder `dir` ([`crate::fsutil::DirLock`]:
/// a lock on the folder itself, which leaves no file behind), then removes the temporaries of layer and partial files left by
/// generations that died while writing (nobody else may write them while the lock is
/// held). Two generations into one folder would write the same layers; the second is
/// refused at once instead.
///
/// # Errors
///
/// [`TbError::Busy`] when another process holds the lock; [`TbError::Io`] when the folder
/// cannot be opened or locked.
pub fn lock_for_generation(dir: &Path) -> Result<crate::fsutil::DirLock, TbError> {
    use crate::fsutil::{remove_stale_temps_in, DirLock, LockError};
    let lock = DirLock::try_new(dir).map_err(|e| match e {
        LockError::Busy { path } => TbError::Busy {
            dir: dir.to_path_buf(),
            lock: path,
        },
        LockError::Io { path, source } => TbError::Io { path, source },
        LockError::Foreign { path } => TbError::Io {
            source: std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "not a lock file of giuthi",
            ),
            path,
        },
    })?;
    remove_stale_temps_in(dir, |name| {
        name.ends_with(".tb") || name.ends_with(".partial")
    });
    // Builds before the lock wrote `NAME.tb.tmp` without a process id; under the lock no
    // one is writing one.
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.filter_map(Result::ok) {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".tb.tmp") || name.ends_with(".partial.tmp") {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    Ok(lock)
}

/// The scratch file of layer `seeds`' in-layer edges while it is generated by this
/// process: `.giuthi-n5-s036.edges.<pid>` (see [`edges`]; unlinked as soon as it is
/// opened, so it is never seen after the layer, nor after a crash).
pub fn scratch_path<R: TbGame>(rules: &R, dir: &Path, seeds: u32) -> PathBuf {
    dir.join(format!(
        ".{}-s{seeds:03}.edges.{}",
        rules.file_stem(),
        std::process::id()
    ))
}

/// The path of an interrupted layer's saved progress: `giuthi-n5-s036.partial` (the same
/// format as a layer file: the entries after the last finished sweep; the header's
/// `sweeps` counts them). Deleted when the layer is finished.
pub fn partial_path<R: TbGame>(rules: &R, dir: &Path, seeds: u32) -> PathBuf {
    dir.join(format!("{}-s{seeds:03}.partial", rules.file_stem()))
}

/// The loaded layers `0..=max_seeds` of one game in a folder; probes exact `(lo, hi)`.
#[derive(Debug)]
pub struct TablebaseSet<R: TbGame> {
    rules: R,
    ranker: Ranker,
    layers: Vec<LayerFile>,
}

/// Checks that a header belongs to `rules` and layer `seeds`.
pub(crate) fn check_params<R: TbGame>(
    rules: &R,
    lf: &LayerFile,
    seeds: u32,
    ranker: &Ranker,
) -> Result<(), TbError> {
    let h = &lf.header;
    let n = rules.pits_per_row();
    let mismatch = |what: String| TbError::ParamsMismatch {
        path: lf.path.clone(),
        what,
    };
    if h.game != R::GAME {
        return Err(mismatch(format!(
            "game {} where {} was expected",
            h.game.name(),
            R::GAME.name()
        )));
    }
    if h.variant != rules.variant_code() {
        return Err(mismatch(format!(
            "variant code {} where {} was expected",
            h.variant,
            rules.variant_code()
        )));
    }
    if h.n as usize != n {
        return Err(mismatch(format!("n = {} where {n} was expected", h.n)));
    }
    if h.seeds as u32 != seeds {
        return Err(mismatch(format!(
            "layer {} where {seeds} was expected",
            h.seeds
        )));
    }
    let size = ranker.layer_size(seeds as usize);
    if h.count != size {
        return Err(mismatch(format!(
            "{} entries where the layer has {size}",
            h.count
        )));
    }
    Ok(())
}

impl<R: TbGame> TablebaseSet<R> {
    /// Opens layers `0..=max_seeds` of `rules` in `dir`, checking each header and checksum.
    ///
    /// # Errors
    ///
    /// [`TbError::MissingLayer`] for the first absent layer, and every file error of
    /// [`LayerFile::open`] (bad magic, version, parameters, size, checksum).
    pub fn open(dir: &Path, rules: R, max_seeds: u32) -> Result<TablebaseSet<R>, TbError> {
        Self::open_with(dir, rules, max_seeds, true)
    }

    /// As [`TablebaseSet::open`], checksums checked only when `verify` is set.
    ///
    /// # Errors
    ///
    /// As [`TablebaseSet::open`].
    pub fn open_with(
        dir: &Path,
        rules: R,
        max_seeds: u32,
        verify: bool,
    ) -> Result<TablebaseSet<R>, TbError> {
        Self::open_loaded(dir, rules, max_seeds, verify, Load::Map)
    }

    /// As [`TablebaseSet::open_with`], each layer's entries held as `load` says.
    ///
    /// # Errors
    ///
    /// As [`LayerFile::open_loaded`].
    pub fn open_loaded(
        dir: &Path,
        rules: R,
        max_seeds: u32,
        verify: bool,
        load: Load,
    ) -> Result<TablebaseSet<R>, TbError> {
        let ranker = Ranker::new(2 * rules.pits_per_row(), max_seeds as usize + 1);
        let mut layers = Vec::new();
        for s in 0..=max_seeds {
            let path = layer_path(&rules, dir, s);
            if !path.exists() {
                return Err(TbError::MissingLayer { seeds: s, path });
            }
            let lf = LayerFile::open_loaded(&path, verify, load)?;
            check_params(&rules, &lf, s, &ranker)?;
            layers.push(lf);
        }
        Ok(TablebaseSet {
            rules,
            ranker,
            layers,
        })
    }

    /// Opens every consecutive layer `0, 1, 2, ...` of `rules` present in `dir`.
    ///
    /// # Errors
    ///
    /// [`TbError::MissingLayer`] when not even layer 0 is there; file errors as
    /// [`TablebaseSet::open`].
    pub fn open_all(dir: &Path, rules: R) -> Result<TablebaseSet<R>, TbError> {
        Self::open_all_loaded(dir, rules, Load::Map)
    }

    /// As [`TablebaseSet::open_all`], each layer's entries held as `load` says.
    ///
    /// # Errors
    ///
    /// As [`TablebaseSet::open_all`].
    pub fn open_all_loaded(dir: &Path, rules: R, load: Load) -> Result<TablebaseSet<R>, TbError> {
        let mut top = None;
        let mut s = 0u32;
        while layer_path(&rules, dir, s).exists() {
            top = Some(s);
            s += 1;
        }
        match top {
            Some(t) => Self::open_loaded(dir, rules, t, true, load),
            None => Err(TbError::MissingLayer {
                seeds: 0,
                path: layer_path(&rules, dir, 0),
            }),
        }
    }

    /// As [`TablebaseSet::open_all`], refusing a folder where a layer is missing below
    /// layers that are present (they would be ignored without a word).
    ///
    /// # Errors
    ///
    /// As [`TablebaseSet::open_all`], and [`TbError::LayerGap`].
    pub fn open_complete(dir: &Path, rules: R) -> Result<TablebaseSet<R>, TbError> {
        Self::open_complete_loaded(dir, rules, Load::Map)
    }

    /// As [`TablebaseSet::open_complete`], each layer's entries held as `load` says
    /// ([`Load::Memory`] for a long search: docs/performance.md, Session 17).
    ///
    /// # Errors
    ///
    /// As [`TablebaseSet::open_complete`].
    pub fn open_complete_loaded(
        dir: &Path,
        rules: R,
        load: Load,
    ) -> Result<TablebaseSet<R>, TbError> {
        // Layer 0 missing where later layers are present is a gap like any other, not
        // "no tables" (a fresh-user find, session 19).
        let set = match Self::open_all_loaded(dir, rules.clone(), load) {
            Err(TbError::MissingLayer { seeds: 0, path }) => {
                return Err(match present_layers(&rules, dir, 1).last().copied() {
                    Some(top) => TbError::LayerGap {
                        seeds: 0,
                        top,
                        path,
                    },
                    None => TbError::MissingLayer { seeds: 0, path },
                });
            }
            r => r?,
        };
        match set.stranded_layers(dir).last() {
            Some(&top) => Err(TbError::LayerGap {
                seeds: set.max_seeds() + 1,
                top,
                path: layer_path(&set.rules, dir, set.max_seeds() + 1),
            }),
            None => Ok(set),
        }
    }

    /// The layers of these rules present in `dir` above a missing one (not loaded).
    pub fn stranded_layers(&self, dir: &Path) -> Vec<u32> {
        present_layers(&self.rules, dir, self.max_seeds() + 1)
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The largest layer loaded.
    pub fn max_seeds(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// The loaded layer files, layer 0 first.
    pub fn layers(&self) -> &[LayerFile] {
        &self.layers
    }

    /// The stored entry of the South-to-move board `b` (length `2n`) with `seeds` seeds,
    /// if that layer is loaded.
    #[inline]
    pub fn probe_board(&self, b: &[u8], seeds: u32) -> Option<Bounds> {
        let layer = self.layers.get(seeds as usize)?;
        Some(layer.get(self.ranker.rank(b)))
    }
}

impl<R: TbGame> EndgameOracle<R> for TablebaseSet<R> {
    /// `(lo, hi)` for the side to move (North to move included, through the row swap).
    #[inline]
    fn probe(&self, s: &R::State) -> Option<Bounds> {
        let mut b = [0u8; 32];
        let seeds = index::south_view(&self.rules, s, &mut b);
        self.probe_board(&b[..2 * self.rules.pits_per_row()], seeds)
    }

    /// Prefetches the entry of `s` (its layer's file, at its rank).
    #[inline]
    fn prefetch(&self, s: &R::State) {
        let mut b = [0u8; 32];
        let seeds = index::south_view(&self.rules, s, &mut b);
        if let Some(layer) = self.layers.get(seeds as usize) {
            layer.prefetch(self.ranker.rank(&b[..2 * self.rules.pits_per_row()]));
        }
    }

    /// Every layer `0..=max_seeds` is loaded.
    fn covers_up_to(&self) -> Option<u32> {
        Some(self.max_seeds())
    }
}

/// The layers of `rules` from `from` up whose files are present in `dir`, in order.
fn present_layers<R: TbGame>(rules: &R, dir: &Path, from: u32) -> Vec<u32> {
    (from..=format::MAX_ENCODABLE_SEEDS)
        .filter(|&s| layer_path(rules, dir, s).exists())
        .collect()
}

/// The size a [`TbError::Truncated`] expected, in words: a file shorter than the header
/// was expected to hold at least the header.
fn expected_size(expected: u64, found: u64) -> String {
    let header = format::HEADER_LEN as u64;
    if expected == header && found < header {
        format!("at least {expected} (the header)")
    } else {
        expected.to_string()
    }
}

/// Layers `first` to `last` in words, for messages (a missing layer's
/// [`TbError::LayerGap`], `tb stats`, `tb verify`).
///
/// # Examples
///
/// ```
/// use giuthi::tablebase::layer_span;
/// assert_eq!(layer_span(12, 12), "layer 12");
/// assert_eq!(layer_span(4, 6), "layers 4 to 6");
/// ```
pub fn layer_span(first: u32, last: u32) -> String {
    if first == last {
        format!("layer {first}")
    } else {
        format!("layers {first} to {last}")
    }
}
