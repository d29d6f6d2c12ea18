//! Layer-by-layer generation: every position of layer `S` (seeds on the board) from the
//! finished layers below it, by an exact monotone fixpoint inside the layer.
//!
//! For each South-to-move board of the layer (North to move is its row swap, G11):
//!
//! 1. **Scan** (parallel): list the moves. A finished game takes `final_value` for both
//!    bounds. A move capturing `k > 0` seeds lands in layer `S - k`, already on disk: its
//!    contribution `(lo_m, hi_m)` is `(k - hi', k - lo')` when the turn passes and
//!    `(k + lo', k + hi')` for an extra move (RULES.md V3); their maximum is the position's
//!    *exit value*. A move with `k = 0` (a pass included) stays in the layer: it becomes an
//!    edge (child index + whether the turn passes). Exit values and edges are written, chunk
//!    by chunk, to a scratch file on disk (see [`super::edges`]), not kept in memory: the
//!    layer holds only its 2-byte entries and 2 bits of change marks per position.
//! 2. **Fixpoint** (parallel sweeps): start from `lo = exit lo` (at least minus infinity)
//!    and `hi = +inf` for positions with edges; each sweep sets `lo = max(exit lo, edge
//!    contributions)`, `hi = max(exit hi, ...)`. `lo` only rises and `hi` only falls and
//!    both stay between the least and the greatest fixpoint, so when a whole sweep changes
//!    nothing, `lo` is the least fixpoint (repetition worst for the mover) and `hi` the
//!    greatest: exactly the `(lo, hi)` of the naive reference solver. Entries are atomics
//!    read and written in place by all threads (chaotic iteration of a monotone operator:
//!    the order of updates does not change the limit). A position with `lo == hi` is final;
//!    its record leaves the edge stream. Each sweep reads the stream back chunk by chunk.
//! 3. With the mirror (Giuthi, G11), only the canonical member of each mirror pair (the
//!    smaller rank) is scanned and iterated; edges point to canonical children; the other
//!    member is copied at the end. This halves the sowing work and the edge stream.
//!
//! The layer is then written atomically (see [`super::format`]).

use super::cluster::{Cluster, Solo};
use super::edges::{edge_width, get_edge, put_edge, EdgeStream, RECORD_HEAD};
use super::format::{self, dec8, decode, enc8, encode, Encoding, Header, LayerFile};
use super::index::{canonical_rank, mirror_board, south_view};
use super::{check_params, layer_path, partial_path, scratch_path, TbError, TbGame};
use crate::index::Ranker;
use crate::rules::Child;
use crate::solve::retro::prefetch;
use crate::types::Side;
use crate::value::{back_up, Bounds, Score, NEG_INF, POS_INF};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Positions per work unit of the parallel sweeps (at most 2^16: a record names its
/// position by a `u16` offset in its chunk, see [`super::edges`]).
const CHUNK: usize = 1 << 14;

/// Options of [`generate`].
#[derive(Debug, Clone)]
pub struct GenOptions {
    /// Worker threads (`None`: rayon's default, one per core).
    pub threads: Option<usize>,
    /// Memory budget in megabytes; a layer that may need more is refused up front.
    pub memory_mb: u64,
    /// Use the mirror symmetry to skip work (Giuthi only; ignored for other games).
    pub mirror: bool,
    /// Draw a progress bar per layer on stderr.
    pub progress: bool,
    /// Stops the generation when raised (the CLI's Ctrl-C flag): the layer being made
    /// saves its progress (see [`TbError::Interrupted`]).
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop, as `stop` would, once this many fixpoint sweeps of a layer are done in this
    /// run (0: during the scan). For tests of the resumption.
    pub stop_after_sweeps: Option<u32>,
    /// Save the layer's iterate to its `.partial` file after a sweep when this many
    /// seconds have passed since the last save (0: after every sweep; `None`: only when
    /// stopped). A crash or a `kill -9` then loses at most that much work.
    pub checkpoint_secs: Option<u64>,
    /// Solve each layer of a game that cannot repeat ([`crate::rules::Rules::can_repeat`] false:
    /// Kalah) in one pass, children before parents, without the edge stream and the
    /// sweeps (see the module docs). Off, such a layer takes the fixpoint sweeps as
    /// Giuthi's do: the second method that the tests compare it with, entry by entry.
    /// Ignored for a game that can repeat, on a cluster of more than one process, and for
    /// a layer resumed from a `.partial` file (all three take the sweeps).
    pub one_pass: bool,
}

impl GenOptions {
    /// Defaults without a progress bar (for tests and library use): all cores, 8 GB,
    /// mirror on.
    pub fn quiet() -> GenOptions {
        GenOptions {
            threads: None,
            memory_mb: 8192,
            mirror: true,
            progress: false,
            stop: None,
            stop_after_sweeps: None,
            checkpoint_secs: None,
            one_pass: true,
        }
    }
}

/// What happened to one layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerReport {
    /// The layer.
    pub seeds: u32,
    /// Positions stored (South to move).
    pub positions: u64,
    /// Positions whose moves were generated (the canonical ones under the mirror).
    pub scanned: u64,
    /// In-layer edges found by the scan (streamed through the scratch file).
    pub edges: u64,
    /// Fixpoint sweeps.
    pub sweeps: u32,
    /// Wall-clock milliseconds (0 when skipped).
    pub millis: u64,
    /// Wall-clock milliseconds of the scan (move generation) phase.
    pub scan_millis: u64,
    /// CPU milliseconds of the whole process during the layer, all threads (Linux
    /// `/proc/self/stat`; 0 where unavailable).
    pub cpu_millis: u64,
    /// File size in bytes.
    pub bytes: u64,
    /// Bytes of in-layer edge records the scan wrote to the scratch file (see
    /// [`super::edges`]; bounded by [`scratch_needed`]).
    pub scratch_bytes: u64,
    /// Bytes of the worker threads' record buffers at their largest (part of
    /// [`memory_needed`]).
    pub buffer_bytes: u64,
    /// Entry changes over the fixpoint sweeps of this run: the sum over sweeps of the
    /// entries that changed in that sweep. An MPI job's all-gather sends each of them,
    /// 8 bytes, to every other rank (`docs/tablebases.md`, "On a cluster").
    pub changed: u64,
    /// The most entries changed in one sweep (the largest all-gather of the layer).
    pub max_changed_in_sweep: u64,
    /// Whether the layer was already on disk (checked and kept).
    pub skipped: bool,
    /// The sweeps an earlier, interrupted run had saved in the layer's `.partial` file,
    /// when this run resumed from it (`None`: the layer started afresh).
    pub resumed_after_sweep: Option<u32>,
}

/// Upper bound of the memory a layer allocates while it is generated with `threads`
/// worker threads, in bytes: per position 2 bytes of entry and 2 bits of change marks;
/// per chunk of 2^14 positions 16 bytes of its place in the edge stream; per thread one
/// chunk of edge records (at most `2^14 (5 + w m)` bytes: `m` moves of `w` = 4 bytes, 8
/// for layers above 2^31 positions); 2 MB of write buffer.
///
/// The in-layer edges are not counted: they are streamed from a scratch file on disk
/// (see [`scratch_needed`]). Nor are the finished lower layers: they are memory-mapped
/// read-only. The pages of both are file cache, which the kernel drops and rereads as
/// memory runs short (slower, never wrong).
///
/// # Examples
///
/// ```
/// use giuthi::index::Ranker;
/// use giuthi::rules::giuthi::{Giuthi, Variant};
/// use giuthi::tablebase::generate::memory_needed;
/// let g = Giuthi::new(5, Variant::default())?;
/// let ranker = Ranker::new(10, 41);
/// let size = ranker.layer_size(40); // 2,054,455,634 positions
/// let bound = memory_needed(&g, &ranker, 40, true, 2);
/// assert!(bound < size * 9 / 4 + (8 << 20)); // 2.25 bytes a position
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn memory_needed<R: TbGame>(
    rules: &R,
    ranker: &Ranker,
    seeds: u32,
    mirror: bool,
    threads: usize,
) -> u64 {
    let _ = mirror; // the stream, not the memory, depends on it
    let size = ranker.layer_size(seeds as usize);
    let marks = size.div_ceil(64).saturating_mul(16);
    let slots = size.div_ceil(CHUNK as u64).saturating_mul(16);
    let record = (RECORD_HEAD + edge_width(size) * rules.max_moves()) as u64;
    let buffers = (threads as u64).saturating_mul(CHUNK as u64 * record);
    size.saturating_mul(2)
        .saturating_add(marks)
        .saturating_add(slots)
        .saturating_add(buffers)
        .saturating_add(2 << 20)
}

/// Upper bound of the scratch disk space of a layer's edge stream, in bytes: per scanned
/// position (about half the layer under the mirror: the canonical members and at most
/// `C(S + q, q)` mirror-symmetric boards, `q = 2 ceil(n/2)`) a 5-byte record head and
/// `m` edges of `w` bytes (see [`memory_needed`]). Measured, the stream is 4 to 5 times
/// smaller (about 2 in-layer edges a scanned position; docs/tablebases.md).
pub fn scratch_needed<R: TbGame>(rules: &R, ranker: &Ranker, seeds: u32, mirror: bool) -> u64 {
    let size = ranker.layer_size(seeds as usize);
    let n = rules.pits_per_row();
    let scanned = if mirror && rules.has_mirror() {
        let q = 2 * n.div_ceil(2);
        let sym = Ranker::new(q + 1, seeds as usize).layer_size(seeds as usize);
        (size / 2).saturating_add(sym).min(size)
    } else {
        size
    };
    let record = (RECORD_HEAD + edge_width(size) * rules.max_moves()) as u64;
    scanned.saturating_mul(record)
}

/// Generates layers `0..=max_seeds` of `rules` into `dir` (created if missing; its parent
/// must exist, else [`TbError::Io`]). Finished layers already there are checked (header and checksum) and kept; a stale temporary
/// file of an interrupted run is overwritten.
///
/// # Errors
///
/// [`TbError::RangeTooLarge`], [`TbError::LayerTooLarge`] or [`TbError::MemoryBudget`]
/// up front, before anything is generated; [`TbError::Io`] and the file errors of
/// [`LayerFile::open`] for a corrupt finished layer.
pub fn generate<R: TbGame>(
    rules: &R,
    dir: &Path,
    max_seeds: u32,
    opts: &GenOptions,
) -> Result<Vec<LayerReport>, TbError> {
    generate_with(rules, dir, max_seeds, opts, |_| {})
}

/// As [`generate`], calling `on_layer` after each layer.
///
/// # Errors
///
/// As [`generate`].
pub fn generate_with<R: TbGame>(
    rules: &R,
    dir: &Path,
    max_seeds: u32,
    opts: &GenOptions,
    on_layer: impl FnMut(&LayerReport),
) -> Result<Vec<LayerReport>, TbError> {
    generate_on(rules, dir, max_seeds, opts, &Solo, on_layer)
}

/// As [`generate_with`], by the processes of `cluster` together (see [`super::cluster`]):
/// each scans and sweeps its own chunks; rank 0 writes the layer files (and the
/// checkpoints), which every rank then reads back from the shared folder `dir` as a
/// finished lower layer. The files are those of a single process, byte for byte past
/// the header (whose time and sweep count may differ).
///
/// # Errors
///
/// As [`generate`].
pub fn generate_on<R: TbGame>(
    rules: &R,
    dir: &Path,
    max_seeds: u32,
    opts: &GenOptions,
    cluster: &dyn Cluster,
    mut on_layer: impl FnMut(&LayerReport),
) -> Result<Vec<LayerReport>, TbError> {
    let root = cluster.rank() == 0;
    if max_seeds > format::MAX_ENCODABLE_SEEDS {
        return Err(TbError::RangeTooLarge { seeds: max_seeds });
    }
    let n = rules.pits_per_row();
    let ranker = Ranker::new(2 * n, max_seeds as usize + 1);
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = opts.threads {
        builder = builder.num_threads(t);
    }
    // The one pass recurses up to `S (n - 1)` in-layer moves deep (1,890 at 126 seeds on
    // 2x16 pits, a few hundred bytes a level): room to spare.
    builder = builder.stack_size(16 << 20);
    let pool = builder
        .build()
        .map_err(|e| TbError::Unsupported(format!("cannot start the thread pool: {e}")))?;
    for s in 0..=max_seeds {
        let size = ranker.layer_size(s as usize);
        // Entries are indexed in memory (2 bytes each); past the address space, refuse.
        if size > (isize::MAX as u64) / 4 {
            return Err(TbError::LayerTooLarge {
                seeds: s,
                positions: size,
            });
        }
        let needed = memory_needed(rules, &ranker, s, opts.mirror, pool.current_num_threads());
        let needed_mb = needed.div_ceil(1 << 20);
        if needed_mb > opts.memory_mb {
            return Err(TbError::MemoryBudget {
                seeds: s,
                needed_mb,
                budget_mb: opts.memory_mb,
            });
        }
    }
    let _lock = if root {
        // Only the folder named is made: a missing parent is an error, not created.
        match std::fs::create_dir(dir) {
            Err(e) if !(e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir()) => {
                return Err(TbError::Io {
                    path: dir.to_path_buf(),
                    source: e,
                })
            }
            _ => {}
        }
        // One generation a folder: rank 0 takes the lock for the whole job.
        Some(super::lock_for_generation(dir)?)
    } else {
        None
    };
    cluster.barrier();
    let mirror = opts.mirror && rules.has_mirror();
    let mut lower: Vec<LayerFile> = Vec::new();
    let mut reports = Vec::new();
    for s in 0..=max_seeds {
        let path = layer_path(rules, dir, s);
        let report = if path.exists() {
            let lf = LayerFile::open(&path, true)?;
            check_params(rules, &lf, s, &ranker)?;
            // A run killed after writing the layer and before deleting its `.partial`
            // left the progress of a finished layer: nothing will resume from it.
            let partial = partial_path(rules, dir, s);
            if root && partial.exists() {
                std::fs::remove_file(&partial).map_err(|e| TbError::Io {
                    path: partial.clone(),
                    source: e,
                })?;
            }
            let r = LayerReport {
                seeds: s,
                positions: lf.header.count,
                scanned: 0,
                edges: 0,
                sweeps: lf.header.sweeps,
                millis: 0,
                scan_millis: 0,
                cpu_millis: 0,
                bytes: (format::HEADER_LEN as u64) + 2 * lf.header.count,
                scratch_bytes: 0,
                buffer_bytes: 0,
                changed: 0,
                max_changed_in_sweep: 0,
                skipped: true,
                resumed_after_sweep: None,
            };
            lower.push(lf);
            r
        } else {
            let t0 = Instant::now();
            let cpu0 = process_cpu_millis();
            let size = ranker.layer_size(s as usize);
            // The saved progress of an interrupted run of this layer, checked like a layer.
            let partial = partial_path(rules, dir, s);
            let resume = if partial.exists() {
                let lf = LayerFile::open(&partial, true)?;
                check_params(rules, &lf, s, &ranker)?;
                Some(lf)
            } else {
                None
            };
            let stop = |sweeps: u32| {
                opts.stop
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
                    || opts.stop_after_sweeps.is_some_and(|k| sweeps >= k)
            };
            let scratch = scratch_path(rules, dir, s);
            let header = |sweeps: u32, millis: u64| Header {
                game: R::GAME,
                variant: rules.variant_code(),
                n: n as u8,
                seeds: s as u16,
                count: 0,
                checksum: 0,
                gen_millis: millis,
                sweeps,
                encoding: Encoding::LoHiI8,
            };
            // Rank 0 saves the iterate every `checkpoint_secs` (a crash loses at most
            // that much; the same command resumes from the `.partial` file).
            let mut checkpoint = |entries: &[AtomicU16], sweeps: u32| {
                let h = header(sweeps, t0.elapsed().as_millis() as u64);
                format::write_layer_with(&partial, &h, size, |f, out| fill_entries(entries, f, out))
                    .map(|_| ())
            };
            let ctx = LayerCtx {
                rules,
                ranker: &ranker,
                lower: &lower,
                seeds: s,
                mirror,
                progress: opts.progress && root,
                resume: resume.as_ref(),
                scratch: &scratch,
                stop: &stop,
                pool: &pool,
                cluster,
                checkpoint_secs: opts.checkpoint_secs,
            };
            let resumed_after_sweep = resume.as_ref().map(|lf| lf.header.sweeps);
            // The one pass ranks children as they are, so never under the mirror
            // (Kalah has none; an acyclic game with one would need canonical ranks).
            let outcome = if opts.one_pass
                && !rules.can_repeat()
                && !rules.has_mirror()
                && cluster.size() == 1
                && resume.is_none()
            {
                solve_layer_one_pass(&ctx)?
            } else {
                solve_layer(&ctx, &mut checkpoint)?
            };
            let millis = t0.elapsed().as_millis() as u64;
            let (entries, stats) = match outcome {
                LayerOutcome::Done(entries, stats) => (entries, stats),
                LayerOutcome::Stopped {
                    entries: Some(entries),
                    sweeps,
                } => {
                    drop(resume);
                    if root {
                        format::write_layer_with(
                            &partial,
                            &header(sweeps, millis),
                            size,
                            |f, out| fill_entries(&entries, f, out),
                        )?;
                    }
                    cluster.barrier();
                    return Err(TbError::Interrupted {
                        seeds: s,
                        sweeps,
                        saved: Some(partial),
                        during_scan: false,
                    });
                }
                LayerOutcome::Stopped {
                    entries: None,
                    sweeps,
                } => {
                    return Err(TbError::Interrupted {
                        seeds: s,
                        sweeps,
                        saved: resume.map(|lf| lf.path),
                        during_scan: true,
                    })
                }
            };
            drop(resume);
            if root {
                format::write_layer_with(&path, &header(stats.sweeps, millis), size, |f, out| {
                    fill_entries(&entries, f, out)
                })?;
            }
            drop(entries);
            if root && partial.exists() {
                std::fs::remove_file(&partial).map_err(|e| TbError::Io {
                    path: partial.clone(),
                    source: e,
                })?;
            }
            cluster.barrier();
            let lf = LayerFile::open(&path, false)?;
            let h = lf.header;
            lower.push(lf);
            LayerReport {
                seeds: s,
                positions: h.count,
                scanned: stats.scanned,
                edges: stats.edges,
                sweeps: stats.sweeps,
                millis,
                scan_millis: stats.scan_millis,
                cpu_millis: process_cpu_millis().saturating_sub(cpu0),
                bytes: (format::HEADER_LEN as u64) + 2 * h.count,
                scratch_bytes: stats.scratch_bytes,
                buffer_bytes: stats.buffer_bytes,
                changed: stats.changed,
                max_changed_in_sweep: stats.max_changed_in_sweep,
                skipped: false,
                resumed_after_sweep,
            }
        };
        on_layer(&report);
        reports.push(report);
    }
    Ok(reports)
}

/// Saves a layer's entries after the given count of sweeps (its `.partial` file).
type Checkpoint<'a> = dyn FnMut(&[AtomicU16], u32) -> Result<(), TbError> + 'a;

/// What [`solve_layer`] works on.
#[derive(Clone, Copy)]
struct LayerCtx<'a, R: TbGame> {
    rules: &'a R,
    ranker: &'a Ranker,
    lower: &'a [LayerFile],
    seeds: u32,
    mirror: bool,
    progress: bool,
    resume: Option<&'a LayerFile>,
    scratch: &'a Path,
    stop: &'a (dyn Fn(u32) -> bool + Sync),
    pool: &'a rayon::ThreadPool,
    cluster: &'a dyn Cluster,
    checkpoint_secs: Option<u64>,
}

/// How [`solve_layer`] ended.
enum LayerOutcome {
    /// The layer's entries (rank order) and figures.
    Done(Vec<AtomicU16>, SolveStats),
    /// Stopped: the entries after the sweeps done so far (`None` when stopped in the
    /// scan), and the sweeps done in all runs.
    Stopped {
        entries: Option<Vec<AtomicU16>>,
        sweeps: u32,
    },
}

struct SolveStats {
    scan_millis: u64,
    scanned: u64,
    edges: u64,
    sweeps: u32,
    scratch_bytes: u64,
    buffer_bytes: u64,
    changed: u64,
    max_changed_in_sweep: u64,
}

#[inline]
fn max_score(a: Score, b: Score) -> Score {
    a.max(b)
}

/// The contribution `(lo_m, hi_m)` of a move capturing `k` to a child with bounds `c`.
#[inline]
fn contribution(c: Bounds, k: i16, passes: bool) -> (Score, Score) {
    if passes {
        (back_up(c.hi, k, true), back_up(c.lo, k, true))
    } else {
        (back_up(c.lo, k, false), back_up(c.hi, k, false))
    }
}

fn progress_bar(show: bool, len: u64, seeds: u32) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::with_draw_target(
        Some(len),
        indicatif::ProgressDrawTarget::stderr(),
    );
    let style = indicatif::ProgressStyle::with_template(
        "layer {prefix:>3} [{elapsed_precise}] {bar:30} {pos}/{len} {per_sec} eta {eta} {msg}",
    )
    .expect("a valid template");
    pb.set_style(style);
    pb.set_prefix(seeds.to_string());
    pb
}

/// The first I/O failure of the parallel phases (the others stop at their next chunk).
struct Failure(Mutex<Option<TbError>>, AtomicBool);

impl Failure {
    fn new() -> Failure {
        Failure(Mutex::new(None), AtomicBool::new(false))
    }
    fn set(&self, e: TbError) {
        let mut f = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if f.is_none() {
            *f = Some(e);
        }
        self.1.store(true, Ordering::Relaxed);
    }
    fn failed(&self) -> bool {
        self.1.load(Ordering::Relaxed)
    }
    fn take_if_failed(&self) -> Option<TbError> {
        if !self.failed() {
            return None;
        }
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// One record buffer per worker thread (see [`memory_needed`]).
fn with_buffer<T>(bufs: &[Mutex<Vec<u8>>], f: impl FnOnce(&mut Vec<u8>) -> T) -> T {
    let i = rayon::current_thread_index().unwrap_or(0) % bufs.len();
    let mut b = bufs[i].lock().unwrap_or_else(|p| p.into_inner());
    f(&mut b)
}

/// Solves one layer, starting the sweeps from `resume` (an earlier run's saved iterate)
/// if given. `stop(sweeps done in this run)` is asked at every chunk of work; when it says
/// yes, the layer stops and returns its current entries (any state of an in-place sweep
/// lies between the starting values and the fixpoint, so it is a valid start). The
/// in-layer edges go to the scratch file `scratch` (see [`super::edges`]).
fn solve_layer<R: TbGame>(
    ctx: &LayerCtx<'_, R>,
    checkpoint: &mut Checkpoint<'_>,
) -> Result<LayerOutcome, TbError> {
    let LayerCtx {
        rules,
        ranker,
        lower,
        seeds,
        mirror,
        progress,
        resume,
        scratch,
        stop,
        pool,
        cluster,
        checkpoint_secs,
    } = *ctx;
    let n = rules.pits_per_row();
    let p = 2 * n;
    let size = ranker.layer_size(seeds as usize);
    let entries: Vec<AtomicU16> = (0..size).map(|_| AtomicU16::new(0)).collect();
    let pb = progress_bar(progress, size, seeds);
    let scanned = AtomicU64::new(0);
    let edges = AtomicU64::new(0);
    let nchunks = size.div_ceil(CHUNK as u64) as usize;
    let width = edge_width(size);
    let mut stream = EdgeStream::create(scratch, nchunks, width)?;
    let bufs: Vec<Mutex<Vec<u8>>> = (0..pool.current_num_threads())
        .map(|_| Mutex::new(Vec::new()))
        .collect();
    let t0 = Instant::now();
    let stopped = AtomicBool::new(false);
    let failure = Failure::new();
    let base_sweeps = resume.map_or(0, |lf| lf.header.sweeps);
    if resume.is_some() {
        pb.set_message(format!("resuming after sweep {base_sweeps}"));
    }

    // 1. Scan: entries of positions without in-layer edges, records of the others.
    let owned: Vec<bool> = (0..nchunks).map(|c| cluster.owns(c)).collect();
    let placed: Vec<Option<(u64, u32)>> = pool.install(|| {
        (0..nchunks)
            .into_par_iter()
            .map_init(Vec::new, |children: &mut Vec<Child<R>>, c| {
                let start = (c * CHUNK) as u64;
                let len = (size - start).min(CHUNK as u64) as usize;
                if !owned[c] {
                    return Some((0, 0)); // another rank's
                }
                if failure.failed() || stopped.load(Ordering::Relaxed) || stop(0) {
                    stopped.store(true, Ordering::Relaxed);
                    return None;
                }
                let mut board = [0u8; 32];
                let mut cb = [0u8; 32];
                let mut mb = [0u8; 32];
                let mut done = 0u64;
                let mut chunk_edges = 0u64;
                let result = with_buffer(&bufs, |records| {
                    records.clear();
                    for i in 0..len {
                        let r = start + i as u64;
                        ranker.unrank(r, seeds as usize, &mut board[..p]);
                        if mirror {
                            mirror_board(n, &board, &mut mb);
                            if ranker.rank(&mb[..p]) < r {
                                continue; // copied from its mirror at the end
                            }
                        }
                        done += 1;
                        let state = rules.make_state(&board[..p], Side::South);
                        rules.children(&state, children);
                        if children.is_empty() {
                            let v = rules.final_value(&state);
                            entries[r as usize].store(encode(Bounds::exact(v)), Ordering::Relaxed);
                            continue;
                        }
                        let (mut elo, mut ehi) = (NEG_INF, NEG_INF);
                        let head = records.len();
                        records.extend_from_slice(&[0; RECORD_HEAD]);
                        let mut count = 0u8;
                        for ch in children.iter() {
                            let k = ch.captured;
                            let cs = south_view(rules, &ch.state, &mut cb);
                            if k > 0 {
                                let lf = &lower[cs as usize];
                                let b = lf.get(ranker.rank(&cb[..p]));
                                let (lo_m, hi_m) = contribution(b, k as i16, ch.turn_passes);
                                elo = max_score(elo, lo_m);
                                ehi = max_score(ehi, hi_m);
                            } else {
                                debug_assert_eq!(cs, seeds);
                                let ci = canonical_rank(ranker, n, &cb, mirror);
                                put_edge(records, ci, ch.turn_passes, width);
                                count += 1;
                            }
                        }
                        let init = if count > 0 {
                            let off = (i as u16).to_le_bytes();
                            records[head..head + RECORD_HEAD].copy_from_slice(&[
                                off[0],
                                off[1],
                                enc8(elo),
                                enc8(ehi),
                                count,
                            ]);
                            chunk_edges += count as u64;
                            Bounds {
                                lo: elo,
                                hi: POS_INF,
                            }
                        } else {
                            records.truncate(head);
                            Bounds { lo: elo, hi: ehi }
                        };
                        entries[r as usize].store(encode(init), Ordering::Relaxed);
                    }
                    stream.append(records)
                });
                scanned.fetch_add(done, Ordering::Relaxed);
                edges.fetch_add(chunk_edges, Ordering::Relaxed);
                pb.inc(len as u64);
                match result {
                    Ok(at) => Some(at),
                    Err(e) => {
                        failure.set(e);
                        None
                    }
                }
            })
            .collect()
    });
    if let Some(e) = failure.take_if_failed() {
        pb.abandon_with_message("failed in the scan");
        return Err(e);
    }
    if cluster.any(stopped.load(Ordering::Relaxed)) {
        pb.abandon_with_message("stopped in the scan");
        return Ok(LayerOutcome::Stopped {
            entries: None,
            sweeps: base_sweeps,
        });
    }
    for (c, at) in placed.into_iter().enumerate() {
        stream.place(c, at.expect("every chunk scanned"));
    }
    let scratch_bytes = stream.scan_bytes();
    // Every rank gets the starting entries of the others' chunks (an entry is non-zero
    // on its owner only, so OR is the union).
    if cluster.size() > 1 {
        let mut block = vec![0u16; 1 << 20];
        for first in (0..entries.len()).step_by(block.len()) {
            let part = &entries[first..(first + block.len()).min(entries.len())];
            let b = &mut block[..part.len()];
            for (x, e) in b.iter_mut().zip(part) {
                *x = e.load(Ordering::Relaxed);
            }
            cluster.or_all(b);
            for (x, e) in b.iter().zip(part) {
                e.store(*x, Ordering::Relaxed);
            }
        }
    }
    let scan_millis = t0.elapsed().as_millis() as u64;
    // A resumed layer starts from the saved iterate: its lo are at least, and its hi at
    // most, the starting values just computed, and both are still on the fixpoint's side.
    if let Some(lf) = resume {
        let saved = lf.entry_bytes();
        pool.install(|| {
            entries.par_iter().enumerate().for_each(|(r, e)| {
                e.store(
                    u16::from_le_bytes([saved[2 * r], saved[2 * r + 1]]),
                    Ordering::Relaxed,
                );
            })
        });
    }

    // 2. Fixpoint sweeps. One bit per position marks an entry changed in the previous
    // sweep (`prev`) or in this one (`cur`); a position is evaluated only when one of its
    // edges points to a changed entry (all positions in the first sweep). A position
    // skipped has had no input change since it was last evaluated, so a sweep without a
    // change is still a fixpoint of every equation. A chunk's records are read from the
    // scratch file; those of positions now final are dropped, and the chunk is written
    // back shorter when that saves a quarter of it.
    // The entries of the non-canonical boards from their canonical mirror images.
    let copy_mirror_images = || {
        if !mirror {
            return;
        }
        pool.install(|| {
            (0..nchunks).into_par_iter().for_each(|c| {
                let start = (c * CHUNK) as u64;
                let len = (size - start).min(CHUNK as u64);
                let mut board = [0u8; 32];
                let mut mb = [0u8; 32];
                for r in start..start + len {
                    ranker.unrank(r, seeds as usize, &mut board[..p]);
                    mirror_board(n, &board, &mut mb);
                    let m = ranker.rank(&mb[..p]);
                    if m < r {
                        let v = entries[m as usize].load(Ordering::Relaxed);
                        entries[r as usize].store(v, Ordering::Relaxed);
                    }
                }
            })
        });
    };
    let words = size.div_ceil(64) as usize;
    let mut prev: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let mut cur: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let mut sweeps = 0u32;
    let (mut changed_total, mut changed_max) = (0u64, 0u64);
    let mut saved_at = Instant::now();
    loop {
        sweeps += 1;
        pb.set_message(format!("sweep {}", base_sweeps + sweeps));
        let first = sweeps == 1;
        let changed = AtomicBool::new(false);
        pool.install(|| {
            (0..nchunks).into_par_iter().for_each(|c| {
                if !owned[c] {
                    return;
                }
                if failure.failed() || stopped.load(Ordering::Relaxed) || stop(sweeps - 1) {
                    stopped.store(true, Ordering::Relaxed);
                    return;
                }
                let start = c * CHUNK;
                let result = with_buffer(&bufs, |buf| -> Result<bool, TbError> {
                    stream.read(c, buf)?;
                    let sets = [&prev[..], &cur[..]];
                    let (any, wr) = if width == 4 {
                        sweep_records::<4>(buf, start, &entries, sets, first)
                    } else {
                        sweep_records::<8>(buf, start, &entries, sets, first)
                    };
                    if 4 * (buf.len() - wr) >= buf.len() && wr < buf.len() {
                        stream.shrink(c, &buf[..wr])?;
                    }
                    Ok(any)
                });
                match result {
                    Ok(true) => changed.store(true, Ordering::Relaxed),
                    Ok(false) => {}
                    Err(e) => failure.set(e),
                }
            })
        });
        if let Some(e) = failure.take_if_failed() {
            pb.abandon_with_message(format!("failed in sweep {}", base_sweeps + sweeps));
            return Err(e);
        }
        let mut changed = changed.load(Ordering::Relaxed);
        if cluster.size() > 1 {
            // Share this sweep's changes: (rank << 16 | entry) of every entry this rank
            // changed; the others' are stored here and marked as changed in this sweep.
            let mine: Vec<u64> = (0..nchunks)
                .filter(|&c| owned[c])
                .flat_map(|c| {
                    let (a, b) = (c * CHUNK, ((c + 1) * CHUNK).min(size as usize));
                    let cur = &cur;
                    let entries = &entries;
                    (a..b).filter(move |&r| marked(cur, r)).map(move |r| {
                        ((r as u64) << 16) | entries[r].load(Ordering::Relaxed) as u64
                    })
                })
                .collect();
            cluster.gather_all(&mine, &mut |batch| {
                for &x in batch {
                    let r = (x >> 16) as usize;
                    if !owned[r / CHUNK] {
                        entries[r].store(x as u16, Ordering::Relaxed);
                        cur[r / 64].fetch_or(1u64 << (r % 64), Ordering::Relaxed);
                    }
                }
            });
            changed = cluster.any(changed);
        }
        // The entries changed in this sweep, on every rank (after the exchange each has
        // them all marked): what an all-gather sends.
        let n: u64 = pool.install(|| {
            cur.par_iter()
                .map(|w| w.load(Ordering::Relaxed).count_ones() as u64)
                .sum()
        });
        changed_total += n;
        changed_max = changed_max.max(n);
        if cluster.any(stopped.load(Ordering::Relaxed)) {
            pb.abandon_with_message(format!("stopped in sweep {}", base_sweeps + sweeps));
            // The saved entries are complete: a run with or without the mirror resumes
            // from them (each image is as far along as its canonical member, by G11).
            copy_mirror_images();
            return Ok(LayerOutcome::Stopped {
                entries: Some(entries),
                sweeps: base_sweeps + sweeps - 1,
            });
        }
        if !changed {
            break;
        }
        if cluster.rank() == 0
            && checkpoint_secs.is_some_and(|secs| saved_at.elapsed().as_secs() >= secs)
        {
            copy_mirror_images();
            checkpoint(&entries, base_sweeps + sweeps)?;
            saved_at = Instant::now();
        }
        std::mem::swap(&mut prev, &mut cur);
        pool.install(|| cur.par_iter().for_each(|w| w.store(0, Ordering::Relaxed)));
    }
    let buffer_bytes = stream.peak_chunk_bytes() * bufs.len() as u64;
    drop(stream);
    drop((prev, cur));

    // 3. Copy the mirror images.
    copy_mirror_images();
    pb.finish_with_message(format!("{} sweeps", base_sweeps + sweeps));

    Ok(LayerOutcome::Done(
        entries,
        SolveStats {
            scan_millis,
            scanned: scanned.load(Ordering::Relaxed),
            edges: edges.load(Ordering::Relaxed),
            sweeps: base_sweeps + sweeps,
            scratch_bytes,
            buffer_bytes,
            changed: changed_total,
            max_changed_in_sweep: changed_max,
        },
    ))
}

/// The entry of a position not yet solved by [`solve_layer_one_pass`]: `lo = +inf`, which
/// no stored entry has (`lo` is finite or minus infinity).
const UNSOLVED: u16 = u16::from_le_bytes([0x7f, 0x7f]);

/// Solves one layer of a game that cannot repeat ([`crate::rules::Rules::can_repeat`] false) in one
/// pass: positions are taken in rank order, and one not yet solved is evaluated from its
/// children, an in-layer child not yet solved first (depth first, the children before
/// the parent). Each position is evaluated once (twice at most when two threads reach it
/// together: the same exact value), reading its children's entries directly: no edge
/// stream, no sweeps.
///
/// Why it terminates and is exact: a move that stays in the layer drops no seed into a
/// store and captures nothing, so (Kalah R1, R3) it sows within the mover's own row,
/// moving every sown seed nearer the end of that row. `Φ`, the sum over both rows of each
/// seed's distance from the start of its row, rises strictly with every in-layer move, and
/// the row swap of the South view keeps it. So the in-layer moves form an acyclic graph of
/// depth at most `S (n - 1)`, and the value of a position is the maximum over its moves
/// of their contributions, its children's values being known when it is evaluated: the
/// unique fixpoint of the sweeps, `lo = hi` everywhere (the tests compare the two methods
/// entry by entry). A depth past `S (n - 1)` would mean `can_repeat` is wrong: it panics.
fn solve_layer_one_pass<R: TbGame>(ctx: &LayerCtx<'_, R>) -> Result<LayerOutcome, TbError> {
    let LayerCtx {
        rules,
        ranker,
        lower,
        seeds,
        progress,
        stop,
        pool,
        ..
    } = *ctx;
    let n = rules.pits_per_row();
    let p = 2 * n;
    let size = ranker.layer_size(seeds as usize);
    let entries: Vec<AtomicU16> = (0..size).map(|_| AtomicU16::new(UNSOLVED)).collect();
    let pb = progress_bar(progress, size, seeds);
    pb.set_message("one pass");
    let nchunks = size.div_ceil(CHUNK as u64) as usize;
    let t0 = Instant::now();
    let edges = AtomicU64::new(0);
    let stopped = AtomicBool::new(false);
    let pass = OnePass {
        rules,
        ranker,
        lower,
        entries: &entries,
        max_depth: seeds as usize * n.saturating_sub(1),
    };
    pool.install(|| {
        (0..nchunks).into_par_iter().for_each_init(
            Scratch::default,
            |scratch: &mut Scratch<R>, c| {
                if stopped.load(Ordering::Relaxed) || stop(0) {
                    stopped.store(true, Ordering::Relaxed);
                    return;
                }
                let start = (c * CHUNK) as u64;
                let end = (start + CHUNK as u64).min(size);
                let mut board = [0u8; 32];
                ranker.unrank(start, seeds as usize, &mut board[..p]);
                let mut chunk_edges = 0u64;
                if scratch.batch.len() < BATCH {
                    scratch.batch.resize_with(BATCH, Vec::new);
                }
                // Batches of positions: first every unsolved one's moves, their entries
                // prefetched, then the values, by which time most entries are in cache.
                for first in (start..end).step_by(BATCH) {
                    let last = (first + BATCH as u64).min(end);
                    let mut open = [false; BATCH];
                    for r in first..last {
                        if r > start {
                            ranker.step(&mut board[..p]);
                        }
                        if entries[r as usize].load(Ordering::Relaxed) != UNSOLVED {
                            continue;
                        }
                        let i = (r - first) as usize;
                        let mut moves = std::mem::take(&mut scratch.batch[i]);
                        match pass.expand(&board, &mut scratch.kids, &mut moves) {
                            Some(v) => entries[r as usize].store(v, Ordering::Relaxed),
                            None => open[i] = true,
                        }
                        scratch.batch[i] = moves;
                    }
                    for r in first..last {
                        let i = (r - first) as usize;
                        if open[i] && entries[r as usize].load(Ordering::Relaxed) == UNSOLVED {
                            let moves = std::mem::take(&mut scratch.batch[i]);
                            let v = pass.resolve(&moves, 0, scratch, &mut chunk_edges);
                            entries[r as usize].store(v, Ordering::Relaxed);
                            scratch.batch[i] = moves;
                        }
                    }
                }
                edges.fetch_add(chunk_edges, Ordering::Relaxed);
                pb.inc(end - start);
            },
        )
    });
    if stopped.load(Ordering::Relaxed) {
        pb.abandon_with_message("stopped in the pass");
        return Ok(LayerOutcome::Stopped {
            entries: None,
            sweeps: 0,
        });
    }
    pb.finish_with_message("one pass");
    Ok(LayerOutcome::Done(
        entries,
        SolveStats {
            scan_millis: t0.elapsed().as_millis() as u64,
            scanned: size,
            edges: edges.load(Ordering::Relaxed),
            sweeps: 1,
            scratch_bytes: 0,
            buffer_bytes: 0,
            changed: 0,
            max_changed_in_sweep: 0,
        },
    ))
}

/// Positions whose moves [`solve_layer_one_pass`] lists (and whose children's entries it
/// prefetches) before it evaluates the first of them.
const BATCH: usize = 16;

/// A move of a position being evaluated: its child, seen with the mover as South.
#[derive(Clone, Copy)]
struct OneMove {
    /// The child's board (read when the child is in the layer and not yet solved).
    board: [u8; 32],
    /// The child's rank in its layer.
    rank: u64,
    /// The child's layer: the seeds on its board.
    seeds: u32,
    /// The seeds the move captured (into the store included); 0: an in-layer move.
    captured: i16,
    /// Whether the turn passes.
    passes: bool,
}

/// A worker thread's buffers for [`solve_layer_one_pass`].
struct Scratch<R: TbGame> {
    /// The children of the position being expanded.
    kids: Vec<Child<R>>,
    /// The moves of the positions of the current batch.
    batch: Vec<Vec<OneMove>>,
    /// The moves of the position at each depth of the recursion (from depth 1).
    levels: Vec<Vec<OneMove>>,
}

impl<R: TbGame> Default for Scratch<R> {
    fn default() -> Self {
        Scratch {
            kids: Vec::new(),
            batch: Vec::new(),
            levels: Vec::new(),
        }
    }
}

/// What the depth-first evaluation of [`solve_layer_one_pass`] reads and writes.
struct OnePass<'a, R: TbGame> {
    rules: &'a R,
    ranker: &'a Ranker,
    lower: &'a [LayerFile],
    entries: &'a [AtomicU16],
    /// `S (n - 1)`: the longest chain of in-layer moves.
    max_depth: usize,
}

impl<R: TbGame> OnePass<'_, R> {
    /// The entry of the South-to-move `board` when the game is over there; else `None`,
    /// its moves in `moves`, their children's entries prefetched.
    fn expand(
        &self,
        board: &[u8; 32],
        kids: &mut Vec<Child<R>>,
        moves: &mut Vec<OneMove>,
    ) -> Option<u16> {
        let p = 2 * self.rules.pits_per_row();
        moves.clear();
        let any = self
            .rules
            .south_moves(&board[..p], kids, |child, seeds, captured, passes| {
                let rank = self.ranker.rank(&child[..p]);
                if captured > 0 {
                    let bytes = self.lower[seeds as usize].entry_bytes();
                    prefetch(&bytes[2 * rank as usize]);
                } else {
                    prefetch(&self.entries[rank as usize]);
                }
                moves.push(OneMove {
                    board: *child,
                    rank,
                    seeds,
                    captured: captured as i16,
                    passes,
                });
            });
        if !any {
            let state = self.rules.make_state(&board[..p], Side::South);
            return Some(encode(Bounds::exact(self.rules.final_value(&state))));
        }
        None
    }

    /// The entry of a position from its `moves` (from [`OnePass::expand`]), a child in
    /// the layer not yet solved evaluated first, at `depth + 1`.
    fn resolve(
        &self,
        moves: &[OneMove],
        depth: usize,
        scratch: &mut Scratch<R>,
        edges: &mut u64,
    ) -> u16 {
        let (mut lo, mut hi) = (NEG_INF, NEG_INF);
        for m in moves {
            let b = if m.captured > 0 {
                self.lower[m.seeds as usize].get(m.rank)
            } else {
                *edges += 1;
                let mut e = self.entries[m.rank as usize].load(Ordering::Relaxed);
                if e == UNSOLVED {
                    e = self.eval(&m.board, m.rank, depth + 1, scratch, edges);
                }
                decode(e)
            };
            let (lo_m, hi_m) = contribution(b, m.captured, m.passes);
            lo = lo.max(lo_m);
            hi = hi.max(hi_m);
        }
        encode(Bounds { lo, hi })
    }

    /// Evaluates the South-to-move `board` of rank `r` (not yet solved) at `depth`, its
    /// unsolved in-layer children first, stores its entry and returns it.
    fn eval(
        &self,
        board: &[u8; 32],
        r: u64,
        depth: usize,
        scratch: &mut Scratch<R>,
        edges: &mut u64,
    ) -> u16 {
        assert!(
            depth <= self.max_depth,
            "an in-layer path longer than S (n - 1) moves: the game can repeat"
        );
        if scratch.levels.len() <= depth {
            scratch.levels.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut scratch.levels[depth]);
        let v = match self.expand(board, &mut scratch.kids, &mut moves) {
            Some(v) => v,
            None => self.resolve(&moves, depth, scratch, edges),
        };
        scratch.levels[depth] = moves;
        self.entries[r as usize].store(v, Ordering::Relaxed);
        v
    }
}

/// Whether bit `r` of `set` is set.
#[inline]
fn marked(set: &[AtomicU64], r: usize) -> bool {
    set[r / 64].load(Ordering::Relaxed) & (1u64 << (r % 64)) != 0
}

/// One sweep over the records of the chunk starting at position `start` (edges of `W`
/// bytes): each open position with a changed child (`[prev, cur]` marks; every one in
/// the `first` sweep) is evaluated, its entry stored and marked in `cur` when it changes.
/// The records of positions now final are dropped: the kept ones are moved to the front
/// of `buf`. Returns (whether an entry changed, the bytes kept).
fn sweep_records<const W: usize>(
    buf: &mut [u8],
    start: usize,
    entries: &[AtomicU16],
    [prev, cur]: [&[AtomicU64]; 2],
    first: bool,
) -> (bool, usize) {
    let (mut rd, mut wr) = (0usize, 0usize);
    let mut any = false;
    while rd < buf.len() {
        let head: [u8; RECORD_HEAD] = buf[rd..rd + RECORD_HEAD].try_into().expect("a head");
        let rec = RECORD_HEAD + head[4] as usize * W;
        let r = start + u16::from_le_bytes([head[0], head[1]]) as usize;
        let now = entries[r].load(Ordering::Relaxed);
        let cb = decode(now);
        let mut keep = cb.lo != cb.hi;
        if keep {
            let es = &buf[rd + RECORD_HEAD..rd + rec];
            if first
                || es.chunks_exact(W).any(|e| {
                    let ch = get_edge::<W>(e).0;
                    marked(prev, ch) || marked(cur, ch)
                })
            {
                let (mut lo, mut hi) = (dec8(head[2]), dec8(head[3]));
                for e in es.chunks_exact(W) {
                    let (ch, passes) = get_edge::<W>(e);
                    let b = decode(entries[ch].load(Ordering::Relaxed));
                    let (lo_m, hi_m) = contribution(b, 0, passes);
                    lo = lo.max(lo_m);
                    hi = hi.max(hi_m);
                }
                let new = encode(Bounds { lo, hi });
                if new != now {
                    entries[r].store(new, Ordering::Relaxed);
                    cur[r / 64].fetch_or(1u64 << (r % 64), Ordering::Relaxed);
                    any = true;
                    let nb = decode(new);
                    keep = nb.lo != nb.hi;
                }
            }
        }
        if keep {
            if wr != rd {
                buf.copy_within(rd..rd + rec, wr);
            }
            wr += rec;
        }
        rd += rec;
    }
    (any, wr)
}

/// Fills `out` with the little-endian bytes of entries `first..` (for
/// [`format::write_layer_with`]).
fn fill_entries(entries: &[AtomicU16], first: u64, out: &mut [u8]) {
    let first = first as usize;
    for (i, o) in out.chunks_exact_mut(2).enumerate() {
        o.copy_from_slice(&entries[first + i].load(Ordering::Relaxed).to_le_bytes());
    }
}

/// CPU time of this process so far (user + system, all threads) in milliseconds, from
/// `/proc/self/stat` (Linux; 0 elsewhere). Informative only.
pub fn process_cpu_millis() -> u64 {
    let Ok(text) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // Fields after the command name (which ends with ')'): utime and stime are the
    // 12th and 13th (fields 14 and 15 of proc(5)), in clock ticks of 1/100 s.
    let Some(rest) = text.rsplit_once(')').map(|(_, r)| r) else {
        return 0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    (tick(11) + tick(12)) * 10
}
