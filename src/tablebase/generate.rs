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
//!    edge (child index + whether the turn passes).
//! 2. **Fixpoint** (parallel sweeps): start from `lo = exit lo` (at least minus infinity)
//!    and `hi = +inf` for positions with edges; each sweep sets `lo = max(exit lo, edge
//!    contributions)`, `hi = max(exit hi, ...)`. `lo` only rises and `hi` only falls and
//!    both stay between the least and the greatest fixpoint, so when a whole sweep changes
//!    nothing, `lo` is the least fixpoint (repetition worst for the mover) and `hi` the
//!    greatest: exactly the `(lo, hi)` of the naive reference solver. Entries are atomics
//!    read and written in place by all threads (chaotic iteration of a monotone operator:
//!    the order of updates does not change the limit). A position with `lo == hi` is final.
//! 3. With the mirror (Giuthi, G11), only the canonical member of each mirror pair (the
//!    smaller rank) is scanned and iterated; edges point to canonical children; the other
//!    member is copied at the end. This halves the sowing work and the edge memory.
//!
//! The layer is then written atomically (see [`super::format`]).

use super::format::{self, dec8, decode, enc8, encode, Encoding, Header, LayerFile};
use super::index::{canonical_rank, mirror_board, south_view};
use super::{check_params, layer_path, partial_path, TbError, TbGame};
use crate::index::Ranker;
use crate::rules::Child;
use crate::types::Side;
use crate::value::{back_up, Bounds, Score, NEG_INF, POS_INF};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Positions per work unit of the parallel sweeps.
const CHUNK: usize = 1 << 14;
/// The flag bit of an edge: the turn passes.
const PASSES: u32 = 1 << 31;

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
    /// In-layer edges stored.
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
    /// Whether the layer was already on disk (checked and kept).
    pub skipped: bool,
}

/// Upper bound of the memory a layer allocates while it is generated, in bytes: per
/// position 2 bytes of entry, 2 of exit value and 1 edge count, up to `max_moves` edges of
/// 4 bytes per scanned position (about half the layer under the mirror: the canonical
/// members and at most `C(S + q, q)` mirror-symmetric boards, `q = 2 ceil(n/2)`), and 2
/// bits of dirty marks per position (the entry bytes written out at the end reuse the
/// edges' memory, freed by then).
///
/// The finished lower layers are not counted: they are memory-mapped read-only, so their
/// pages are file cache that the kernel drops and rereads as memory runs short (slower,
/// never wrong). Measured, a layer peaks at about 18 bytes per position (docs/tablebases.md).
pub fn memory_needed<R: TbGame>(rules: &R, ranker: &Ranker, seeds: u32, mirror: bool) -> u64 {
    let size = ranker.layer_size(seeds as usize);
    let n = rules.pits_per_row();
    let scanned = if mirror && rules.has_mirror() {
        let q = 2 * n.div_ceil(2);
        let sym = Ranker::new(q + 1, seeds as usize).layer_size(seeds as usize);
        (size / 2).saturating_add(sym).min(size)
    } else {
        size
    };
    size.saturating_mul(5)
        .saturating_add(size / 4)
        .saturating_add(scanned.saturating_mul(4 * rules.max_moves() as u64))
}

/// Generates layers `0..=max_seeds` of `rules` into `dir` (created if needed). Finished
/// layers already there are checked (header and checksum) and kept; a stale temporary
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
    mut on_layer: impl FnMut(&LayerReport),
) -> Result<Vec<LayerReport>, TbError> {
    if max_seeds > format::MAX_ENCODABLE_SEEDS {
        return Err(TbError::RangeTooLarge { seeds: max_seeds });
    }
    let n = rules.pits_per_row();
    let ranker = Ranker::new(2 * n, max_seeds as usize + 1);
    for s in 0..=max_seeds {
        let size = ranker.layer_size(s as usize);
        if size >= PASSES as u64 {
            return Err(TbError::LayerTooLarge {
                seeds: s,
                positions: size,
            });
        }
        let needed = memory_needed(rules, &ranker, s, opts.mirror);
        let needed_mb = needed.div_ceil(1 << 20);
        if needed_mb > opts.memory_mb {
            return Err(TbError::MemoryBudget {
                seeds: s,
                needed_mb,
                budget_mb: opts.memory_mb,
            });
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| TbError::Io {
        path: dir.to_path_buf(),
        source: e,
    })?;
    let _lock = super::lock_for_generation(dir)?;
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = opts.threads {
        builder = builder.num_threads(t);
    }
    let pool = builder
        .build()
        .map_err(|e| TbError::Unsupported(format!("cannot start the thread pool: {e}")))?;
    let mirror = opts.mirror && rules.has_mirror();
    let mut lower: Vec<LayerFile> = Vec::new();
    let mut reports = Vec::new();
    for s in 0..=max_seeds {
        let path = layer_path(rules, dir, s);
        let report = if path.exists() {
            let lf = LayerFile::open(&path, true)?;
            check_params(rules, &lf, s, &ranker)?;
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
                skipped: true,
            };
            lower.push(lf);
            r
        } else {
            let t0 = Instant::now();
            let cpu0 = process_cpu_millis();
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
            let outcome = pool.install(|| {
                solve_layer(
                    rules,
                    &ranker,
                    &lower,
                    s,
                    mirror,
                    opts.progress,
                    resume.as_ref(),
                    &stop,
                )
            });
            let millis = t0.elapsed().as_millis() as u64;
            let header = |sweeps: u32| Header {
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
            let (entries, stats) = match outcome {
                LayerOutcome::Done(entries, stats) => (entries, stats),
                LayerOutcome::Stopped {
                    entries: Some(entries),
                    sweeps,
                } => {
                    drop(resume);
                    format::write_layer(&partial, &header(sweeps), &entries)?;
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
            let h = format::write_layer(&path, &header(stats.sweeps), &entries)?;
            drop(entries);
            if partial.exists() {
                std::fs::remove_file(&partial).map_err(|e| TbError::Io {
                    path: partial.clone(),
                    source: e,
                })?;
            }
            let lf = LayerFile::open(&path, false)?;
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
                skipped: false,
            }
        };
        on_layer(&report);
        reports.push(report);
    }
    Ok(reports)
}

struct Chunk {
    start: u64,
    counts: Vec<u8>,
    exits: Vec<u16>,
    edges: Vec<u32>,
}

/// How [`solve_layer`] ended.
enum LayerOutcome {
    /// The layer's entry bytes (little-endian, rank order) and figures.
    Done(Vec<u8>, SolveStats),
    /// Stopped: the entries after the sweeps done so far (`None` when stopped in the
    /// scan), and the sweeps done in all runs.
    Stopped {
        entries: Option<Vec<u8>>,
        sweeps: u32,
    },
}

struct SolveStats {
    scan_millis: u64,
    scanned: u64,
    edges: u64,
    sweeps: u32,
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

/// Solves one layer, starting the sweeps from `resume` (an earlier run's saved iterate)
/// if given. `stop(sweeps done in this run)` is asked at every chunk of work; when it says
/// yes, the layer stops and returns its current entries (any state of an in-place sweep
/// lies between the starting values and the fixpoint, so it is a valid start).
#[allow(clippy::too_many_arguments)]
fn solve_layer<R: TbGame>(
    rules: &R,
    ranker: &Ranker,
    lower: &[LayerFile],
    seeds: u32,
    mirror: bool,
    progress: bool,
    resume: Option<&LayerFile>,
    stop: &(dyn Fn(u32) -> bool + Sync),
) -> LayerOutcome {
    let n = rules.pits_per_row();
    let p = 2 * n;
    let size = ranker.layer_size(seeds as usize);
    let entries: Vec<AtomicU16> = (0..size).map(|_| AtomicU16::new(0)).collect();
    let pb = progress_bar(progress, size, seeds);
    let scanned = AtomicU64::new(0);
    let starts: Vec<u64> = (0..size).step_by(CHUNK).collect();
    let t0 = Instant::now();
    let stopped = AtomicBool::new(false);
    let base_sweeps = resume.map_or(0, |lf| lf.header.sweeps);
    if resume.is_some() {
        pb.set_message(format!("resuming after sweep {base_sweeps}"));
    }

    // 1. Scan.
    let chunks: Vec<Chunk> = starts
        .par_iter()
        .map_init(Vec::new, |children: &mut Vec<Child<R>>, &start| {
            let len = (size - start).min(CHUNK as u64) as usize;
            if stopped.load(Ordering::Relaxed) || stop(0) {
                stopped.store(true, Ordering::Relaxed);
                return Chunk {
                    start,
                    counts: Vec::new(),
                    exits: Vec::new(),
                    edges: Vec::new(),
                };
            }
            let mut chunk = Chunk {
                start,
                counts: vec![0; len],
                exits: vec![0; len],
                edges: Vec::new(),
            };
            let mut board = [0u8; 32];
            let mut cb = [0u8; 32];
            let mut mb = [0u8; 32];
            let mut done = 0u64;
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
                let mut count = 0u8;
                for c in children.iter() {
                    let k = c.captured;
                    let cs = south_view(rules, &c.state, &mut cb);
                    if k > 0 {
                        let lf = &lower[cs as usize];
                        let b = lf.get(ranker.rank(&cb[..p]));
                        let (lo_m, hi_m) = contribution(b, k as i16, c.turn_passes);
                        elo = max_score(elo, lo_m);
                        ehi = max_score(ehi, hi_m);
                    } else {
                        debug_assert_eq!(cs, seeds);
                        let ci = canonical_rank(ranker, n, &cb, mirror) as u32;
                        chunk
                            .edges
                            .push(ci | if c.turn_passes { PASSES } else { 0 });
                        count += 1;
                    }
                }
                chunk.counts[i] = count;
                chunk.exits[i] = u16::from_le_bytes([enc8(elo), enc8(ehi)]);
                let init = if count > 0 {
                    Bounds {
                        lo: elo,
                        hi: POS_INF,
                    }
                } else {
                    Bounds { lo: elo, hi: ehi }
                };
                entries[r as usize].store(encode(init), Ordering::Relaxed);
            }
            scanned.fetch_add(done, Ordering::Relaxed);
            pb.inc(len as u64);
            chunk
        })
        .collect();
    if stopped.load(Ordering::Relaxed) {
        pb.abandon_with_message("stopped in the scan");
        return LayerOutcome::Stopped {
            entries: None,
            sweeps: base_sweeps,
        };
    }
    let edges: u64 = chunks.iter().map(|c| c.edges.len() as u64).sum();
    let scan_millis = t0.elapsed().as_millis() as u64;
    // A resumed layer starts from the saved iterate: its lo are at least, and its hi at
    // most, the starting values just computed, and both are still on the fixpoint's side.
    if let Some(lf) = resume {
        let saved = lf.entry_bytes();
        entries.par_iter().enumerate().for_each(|(r, e)| {
            e.store(
                u16::from_le_bytes([saved[2 * r], saved[2 * r + 1]]),
                Ordering::Relaxed,
            );
        });
    }

    // 2. Fixpoint sweeps. One bit per position marks an entry changed in the previous
    // sweep (`prev`) or in this one (`cur`); a position is evaluated only when one of its
    // edges points to a changed entry (all positions in the first sweep). A position
    // skipped has had no input change since it was last evaluated, so a sweep without a
    // change is still a fixpoint of every equation. (Testing the child's own bit, rather
    // than its block of 64 as before, evaluates fewer positions: a 2x5 layer 22 takes 25%
    // less CPU, with identical entries.)
    // The entries of the non-canonical boards from their canonical mirror images.
    let copy_mirror_images = || {
        if !mirror {
            return;
        }
        starts.par_iter().for_each(|&start| {
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
        });
    };
    let words = (size as usize).div_ceil(64);
    let mut prev: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let mut cur: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let dirty =
        |set: &[AtomicU64], r: usize| set[r / 64].load(Ordering::Relaxed) & (1u64 << (r % 64)) != 0;
    let mut sweeps = 0u32;
    loop {
        sweeps += 1;
        pb.set_message(format!("sweep {}", base_sweeps + sweeps));
        let first = sweeps == 1;
        let changed = AtomicBool::new(false);
        chunks.par_iter().for_each(|c| {
            if stopped.load(Ordering::Relaxed) || stop(sweeps - 1) {
                stopped.store(true, Ordering::Relaxed);
                return;
            }
            let mut off = 0usize;
            let mut any = false;
            for (i, &cnt) in c.counts.iter().enumerate() {
                if cnt == 0 {
                    continue;
                }
                let es = &c.edges[off..off + cnt as usize];
                off += cnt as usize;
                let r = c.start as usize + i;
                let now = entries[r].load(Ordering::Relaxed);
                let cb = decode(now);
                if cb.lo == cb.hi {
                    continue;
                }
                if !first
                    && !es.iter().any(|&e| {
                        let c = (e & !PASSES) as usize;
                        dirty(&prev, c) || dirty(&cur, c)
                    })
                {
                    continue;
                }
                let [elo, ehi] = c.exits[i].to_le_bytes();
                let (mut lo, mut hi) = (dec8(elo), dec8(ehi));
                for &e in es {
                    let ch = decode(entries[(e & !PASSES) as usize].load(Ordering::Relaxed));
                    let (lo_m, hi_m) = contribution(ch, 0, e & PASSES != 0);
                    lo = lo.max(lo_m);
                    hi = hi.max(hi_m);
                }
                let new = encode(Bounds { lo, hi });
                if new != now {
                    entries[r].store(new, Ordering::Relaxed);
                    cur[r / 64].fetch_or(1u64 << (r % 64), Ordering::Relaxed);
                    any = true;
                }
            }
            if any {
                changed.store(true, Ordering::Relaxed);
            }
        });
        if stopped.load(Ordering::Relaxed) {
            pb.abandon_with_message(format!("stopped in sweep {}", base_sweeps + sweeps));
            // The saved entries are complete: a run with or without the mirror resumes
            // from them (each image is as far along as its canonical member, by G11).
            copy_mirror_images();
            return LayerOutcome::Stopped {
                entries: Some(entry_bytes(&entries)),
                sweeps: base_sweeps + sweeps - 1,
            };
        }
        if !changed.load(Ordering::Relaxed) {
            break;
        }
        std::mem::swap(&mut prev, &mut cur);
        cur.par_iter().for_each(|w| w.store(0, Ordering::Relaxed));
    }
    drop(chunks);

    // 3. Copy the mirror images.
    copy_mirror_images();
    pb.finish_with_message(format!("{} sweeps", base_sweeps + sweeps));

    LayerOutcome::Done(
        entry_bytes(&entries),
        SolveStats {
            scan_millis,
            scanned: scanned.load(Ordering::Relaxed),
            edges,
            sweeps: base_sweeps + sweeps,
        },
    )
}

/// The entries as file bytes (little-endian, rank order).
fn entry_bytes(entries: &[AtomicU16]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(2 * entries.len());
    for e in entries {
        bytes.extend_from_slice(&e.load(Ordering::Relaxed).to_le_bytes());
    }
    bytes
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
