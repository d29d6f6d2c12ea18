//! `giuthi solve`: exact value, result, best moves and principal variation (V1-V4).

use super::common::{read_position, usage};
use anyhow::Context;
use giuthi::fsutil::{FileLock, LockError};
use giuthi::rules::giuthi::Giuthi;
use giuthi::rules::kalah::Kalah;
use giuthi::rules::kiothi::Kiothi;
use giuthi::rules::Rules;
use giuthi::solve::alphabeta::{
    moves_to_strings, Interrupted, Progress, Solution, Solver, SolverOptions, DEFAULT_FIRST_CAP,
    DEFAULT_MAX_PLY,
};
use giuthi::solve::checkpoint::{temp_path, Checkpoint, CheckpointError};
use giuthi::solve::race::{race_why, Winner};
use giuthi::solve::retro;
use giuthi::solve::tt::Table;
use giuthi::solve::EndgameOracle;
use giuthi::tablebase::{Load, TablebaseSet, TbError, TbGame};
use giuthi::value::{fmt_score, range_json, score_json, BoundRanges, Score, NEG_INF, POS_INF};
use giuthi::{with_position, AnyPosition, Position};
use std::any::Any;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Arguments of `giuthi solve`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi solve \"giuthi 1,0,0,0/1,3,0,0 S 0,2\"          # one position\n  \
    giuthi solve positions/compositions.txt               # every line of a file\n  \
    giuthi solve --check positions/compositions.txt       # exit 1 on a mismatch\n  \
    giuthi solve --json --threads 1 \"kalah 2,2,2/2,2,2 S 0,0\"\n  \
    giuthi solve --tb tb5 \"giuthi 3,0,2,1,4/0,2,5,1,2 N 3,1\"  # with tablebases\n  \
    giuthi solve \"giuthi 3,3,3,3,3/3,3,3,3,3 S 0,0\" --checkpoint ck.bin  # resumable: \
    after Ctrl-C or a crash, run the same command again\n\n\
    lo/hi: RULES.md V2 for the side to move (future margin when a repetition is the worst / \
    best outcome for the mover); margin: the exact final margin for the side to move, \
    captured seeds included (V3); best: every move reaching it, the position counted as \
    already played (V4). File format: docs/positions.md. With a file and --tb, the lines of \
    a game or board DIR has no tables for are solved without them.\n\n\
    A FILE's lines that carry a recorded solution (`POSITION | margin=... result=... \
    best=...`) are checked against the solve with or without --check: a mismatch is \
    reported on stderr (MISMATCH) and the exit code is 1. --check only changes what is \
    solved and printed: lines without a record are skipped, and a matching line prints \
    `ok` instead of its whole solution (--json: one object a checked line, {\"line\", \
    \"position\", \"check\": \"ok\" or \"mismatch\", \"recorded\", \"solved\"}, then \
    {\"solved\", \"checked\", \"mismatches\", \"skipped\", \"seconds\"}, with \
    \"stopped_at_line\" when a solve was stopped: the lines after it are not checked).\n\n\
    Stopped: on stdout `interrupted, not exact:` (`stopped at --max-ply, not exact:` at the \
    path cap) with the proven ranges of lo, hi and the \
    margin and the results still possible (--json: a line with stopped, lo_range, \
    hi_range, margin_range, and margin only when proven). Stopped by --analyze's move \
    values: the solution as when finished (margin, best moves, pv) with `moves (not \
    finished)`, the moves settled so far (--json: \"moves_finished\": false and \
    \"stopped\").\n\n\
    Exit codes: 0 solved (and every recorded solution in a FILE matched); 1 a failure, or \
    a recorded solution the solve contradicts (with or without --check); 2 a usage error; 3 stopped because a path deeper than --max-ply was \
    needed; 130 stopped by Ctrl-C, SIGTERM or SIGHUP (a SIGHUP only where it is not ignored: under `nohup` the run goes on after the terminal closes; the bounds proven so far are printed, see Stopped above; \
    with --checkpoint the search is saved first).")]
pub struct Args {
    /// A position, or a file of positions (one a line, `#` comments; see docs/positions.md).
    pub input: String,
    /// Print one JSON object per position.
    #[arg(long)]
    pub json: bool,
    /// Check a FILE's recorded solutions only: skip the lines without one and print `ok`
    /// for a match instead of the solution. A mismatch exits 1 with or without --check.
    #[arg(long)]
    pub check: bool,
    /// Save the search to FILE every --checkpoint-every seconds, on Ctrl-C and at the end;
    /// if FILE exists, check it and resume from it (one POSITION only, not a file of
    /// positions; docs/solver.md, Checkpoints). A resumed search keeps the size of the
    /// file's table unless --hash is given.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// After the solution, the exact margin of every legal move as well (V4, as `giuthi
    /// analyze`; with --checkpoint the saved table serves it too). JSON: a "moves" field,
    /// `[{"move": "7ccw", "margin": 2}, ...]`.
    #[arg(long)]
    pub analyze: bool,
    /// Find lo and hi (RULES.md V2) exactly, even where the margin does not need them
    /// (without it they are narrowed only until the margin is decided, and printed as
    /// proven ranges: docs/solver.md, The result first).
    #[arg(long)]
    pub bounds: bool,
    /// Seconds between two checkpoints (with --checkpoint).
    #[arg(long, value_name = "SECONDS", default_value_t = 600, requires = "checkpoint",
          value_parser = super::common::whole::<u64>(1, u64::MAX))]
    pub checkpoint_every: u64,
    /// Tests only: stop as Ctrl-C would once this many null-window tests of the bounds
    /// have been answered in this run (reproducible with --threads 1).
    #[arg(long, hide = true, value_name = "TESTS")]
    pub stop_after_tests: Option<u64>,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The search options shared by solve, analyze and bestmove.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// Search threads, 1 to 256 (default: all cores; 1 is deterministic).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Transposition table size in megabytes, 1 to 16384 (default 64): 16 bytes an entry,
    /// from 1024 on 8 (twice the entries; docs/solver.md); a size that is not a power of two
    /// is rounded down to one (1000 is 512). Analyze and bestmove with
    /// --movetime size it to the time, and cut a larger size given to what the time can
    /// fill, with a note (docs/anytime.md).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: Option<u32>,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
    /// Probe the endgame tablebases in DIR inside the search (made by `giuthi tb gen` for
    /// the same game, variant and board; every layer present is used).
    #[arg(long, value_name = "DIR")]
    pub tb: Option<PathBuf>,
    /// Copy the --tb tables into memory on huge pages before the search, instead of
    /// probing them where their files are mapped: for long searches. It costs their size
    /// in memory (half for Kalah, whose copy keeps one byte a position) and seconds at the
    /// start (Kalah's 3.7 GB of tables: 2 s on an idle machine, up to 9 s where memory is
    /// short), and it saved 8% of the time of a 6-minute solve, and 1 to 6% more with the
    /// one-byte copy (Kalah(6,5), docs/performance.md, Sessions 17 and 18). Refused
    /// with a note (the tables stay mapped) when they and the transposition table do not
    /// fit in three quarters of the memory available; analyze and bestmove ignore it with
    /// --movetime, with a note. Huge pages where the kernel grants them (madvise).
    #[arg(long, requires = "tb")]
    pub tb_memory: bool,
    /// The deepest path the search follows, in plies, 1 to 2^26 (default 2^21, about
    /// 2 GB): paths are cut at a cap that deepens up to this, and a search that needs more
    /// stops with the bounds proven so far (docs/solver.md, Path cap).
    #[arg(long, value_name = "PLIES",
          value_parser = super::common::whole::<u64>(1, 1 << 26))]
    pub max_ply: Option<u64>,
    /// Solve outright, by a retrograde pass over the reachable graph, a position whose
    /// graph has at most this many states (default: what three fifths of the memory
    /// available, less --hash, hold at 160 bytes a state, between 2^20 and 2^27; about 90
    /// M states on a 24 GB machine; 0: never): exact like the search, and seconds to a
    /// minute or two where a search can stall for longer (docs/solver.md, Retrograde
    /// solve). The search races it; larger graphs go to the search, with a note on stderr.
    #[arg(long, value_name = "STATES", value_parser = super::common::whole::<usize>(0, u64::MAX))]
    pub retro_states: Option<usize>,
    /// Tests only: the first path cap of each test in plies (default 4).
    #[arg(long, hide = true, value_name = "PLIES",
          value_parser = super::common::whole::<u64>(1, 1 << 26))]
    pub first_cap: Option<u64>,
    /// Benchmarks only: stop as Ctrl-C would once the search has visited this many nodes
    /// (checked every 4,096 nodes of a thread; reproducible with --threads 1), so a fixed
    /// stretch of a long solve can be timed (docs/performance.md).
    #[arg(long, hide = true, value_name = "NODES",
          value_parser = super::common::whole::<u64>(1, u64::MAX))]
    pub stop_after_nodes: Option<u64>,
}

impl SearchArgs {
    /// The transposition table's size in MB: `--hash`, or the default.
    fn hash_mb(&self) -> usize {
        self.hash.map_or(DEFAULT_HASH_MB, |h| h as usize)
    }

    /// The options as the solver helpers take them; no progress display with `json`, with
    /// `--quiet` or when stderr is not a terminal.
    ///
    /// # Errors
    ///
    /// A usage error for a `--retro-states` whose states would need more memory than is
    /// available (at [`retro::BYTES_PER_STATE`] a state): the pass would die allocating.
    pub(super) fn common(&self, json: bool) -> anyhow::Result<Common> {
        if let (Some(n), Some(avail)) = (self.retro_states, available_memory()) {
            // In floating point: the product of a huge count overflows u64.
            let need = n as f64 * retro::BYTES_PER_STATE as f64;
            let table = Table::bytes_for_mb(self.hash_mb()) as f64;
            if need + table > avail as f64 {
                return Err(usage(format!(
                    "--retro-states {n}: that many states need about {:.1} GB at {} bytes a \
                     state, more than the {:.1} GB of memory available less the {:.1} GB of \
                     --hash (the default takes three fifths of what --hash leaves: {})",
                    need / 1e9,
                    retro::BYTES_PER_STATE,
                    avail as f64 / 1e9,
                    table / 1e9,
                    default_retro_states(self.hash_mb())
                )));
            }
        }
        super::common::note_hash_rounding(self.hash);
        if let (Some(mb), Some(avail)) = (self.hash, available_memory()) {
            // The table's pages are committed as the search fills them: a table larger
            // than the memory available is allowed, but said.
            let bytes = Table::bytes_for_mb(mb as usize);
            if bytes > avail {
                eprintln!(
                    "note: --hash {mb}: the table ({} MB) is larger than the memory available \
                     now ({} MB); the system may stop the search once the table fills it \
                     (a smaller --hash is safe)",
                    bytes >> 20,
                    avail >> 20
                );
            }
        }
        Ok(Common {
            threads: self.threads.map_or_else(default_threads, usize::from),
            hash_mb: self.hash_mb(),
            quiet: self.quiet,
            hash_given: self.hash.is_some(),
            progress: !self.quiet && !json && std::io::stderr().is_terminal(),
            tb: self.tb.clone(),
            tb_memory: self.tb_memory,
            table_mb: None,
            max_ply: self.max_ply.map_or(DEFAULT_MAX_PLY, |p| p as usize),
            first_cap: self.first_cap.map_or(DEFAULT_FIRST_CAP, |p| p as usize),
            retro_states: self
                .retro_states
                .unwrap_or_else(|| default_retro_states(self.hash_mb())),
            analyze: false,
            bounds: false,
            tb_where_present: false,
            tb_cache: TbCache::default(),
            huge_pages: true,
            stop_after_nodes: self.stop_after_nodes,
        })
    }
}

/// `--hash` when not given.
const DEFAULT_HASH_MB: usize = 64;

/// Options shared by solve, analyze and bestmove.
#[derive(Clone)]
pub(super) struct Common {
    pub threads: usize,
    pub hash_mb: usize,
    /// Whether `--hash` was given.
    pub hash_given: bool,
    pub progress: bool,
    /// Tablebase folder to probe (`--tb`).
    pub tb: Option<PathBuf>,
    /// `--tb-memory`: copy the tables into memory on huge pages where they fit.
    pub tb_memory: bool,
    /// The transposition table's megabytes when it is not `hash_mb`'s (a checkpoint's
    /// table resumed), for the `--tb-memory` check.
    pub table_mb: Option<usize>,
    /// `--max-ply`.
    pub max_ply: usize,
    /// `--first-cap`.
    pub first_cap: usize,
    /// `--retro-states`: the largest graph solved by the retrograde solver (0: none).
    pub retro_states: usize,
    /// `--quiet`: also keeps the note of a graph over `--retro-states` off stderr.
    pub quiet: bool,
    /// A file of positions: `--tb` is used for the positions whose game, variant and board
    /// it has tables for; the others are solved without, with a note on stderr.
    pub tb_where_present: bool,
    /// The `--tb` tables opened so far, by game, variant and board (a file of positions
    /// opens and checks each set once).
    pub tb_cache: TbCache,
    /// `solve --analyze`: every move's margin after the solution.
    pub analyze: bool,
    /// `solve --bounds` (or a `--check` line that records lo and hi): lo and hi exact.
    pub bounds: bool,
    /// The transposition table on huge pages: false with `--movetime`
    /// ([`giuthi::solve::tt::Table::try_new_paged`]).
    pub huge_pages: bool,
    /// `--stop-after-nodes` (benchmarks).
    pub stop_after_nodes: Option<u64>,
}

/// Opened `--tb` oracles by [`OracleFor::tables_key`]: `Some(Arc<dyn EndgameOracle<R>>)`
/// (boxed as `Any`), or `None` when the folder has no tables for those rules.
pub(super) type TbCache = Arc<Mutex<HashMap<String, Option<Arc<dyn Any + Send + Sync>>>>>;

/// Games whose solver can take an endgame oracle from a tablebase folder.
pub(super) trait OracleFor: Rules {
    /// Whether `giuthi tb gen` makes tables for this game.
    const HAS_TABLES: bool = true;
    /// Opens the tablebases of `dir` for these rules, held as `load` says.
    fn open_oracle(&self, dir: &Path, load: Load) -> anyhow::Result<Arc<dyn EndgameOracle<Self>>>;
    /// What tells the tables of two rules apart: game, variant and board.
    fn tables_key(&self) -> String;
    /// The bytes a copy ([`Load::Memory`]) of the consecutive layers `0, 1, 2, ...` of
    /// these rules in `dir` takes: at most their files' size (0 where there are none).
    fn tables_bytes(&self, dir: &Path) -> u64;
}

/// How `--tb-memory` holds tables of `bytes` beside a `hash_mb` transposition table,
/// with `avail` bytes of memory available: copied onto huge pages when both fit in three
/// quarters of it (a long search's probes then skip most page walks: docs/performance.md,
/// Session 17), else mapped from their files (also where the memory is unknown).
fn tb_load(bytes: u64, hash_mb: usize, avail: Option<u64>) -> Load {
    match avail {
        Some(a) if bytes.saturating_add((hash_mb as u64) << 20) <= a / 4 * 3 => Load::Memory,
        _ => Load::Map,
    }
}

/// The bytes of the layers `0, 1, 2, ...` of `rules` present in `dir`, up to the first
/// missing one.
fn layer_bytes<R: TbGame>(rules: &R, dir: &Path) -> u64 {
    (0..=giuthi::tablebase::format::MAX_ENCODABLE_SEEDS)
        .map_while(|s| std::fs::metadata(giuthi::tablebase::layer_path(rules, dir, s)).ok())
        .map(|m| m.len())
        .sum()
}

/// `--tb DIR` must name a folder: a usage error otherwise.
fn tb_dir(dir: &Path) -> anyhow::Result<&Path> {
    if dir.is_dir() {
        Ok(dir)
    } else if dir.exists() {
        Err(usage(format!("--tb {}: not a folder", dir.display())))
    } else {
        Err(usage(format!("--tb {}: no such folder", dir.display())))
    }
}

impl OracleFor for Giuthi {
    fn open_oracle(
        &self,
        dir: &Path,
        load: Load,
    ) -> anyhow::Result<Arc<dyn EndgameOracle<Giuthi>>> {
        let set = TablebaseSet::open_complete_loaded(tb_dir(dir)?, self.clone(), load)
            .with_context(|| format!("--tb {}", dir.display()))?;
        Ok(Arc::new(set))
    }
    fn tables_bytes(&self, dir: &Path) -> u64 {
        layer_bytes(self, dir)
    }
    fn tables_key(&self) -> String {
        self.file_stem()
    }
}

impl OracleFor for Kalah {
    fn open_oracle(&self, dir: &Path, load: Load) -> anyhow::Result<Arc<dyn EndgameOracle<Kalah>>> {
        let set = TablebaseSet::open_complete_loaded(tb_dir(dir)?, self.clone(), load)
            .with_context(|| format!("--tb {}", dir.display()))?;
        Ok(Arc::new(set))
    }
    /// Half the files: Kalah cannot repeat, so every entry is exact (V2) and the copy is
    /// narrow, one byte a position ([`Load::Memory`]).
    fn tables_bytes(&self, dir: &Path) -> u64 {
        layer_bytes(self, dir) / 2
    }
    fn tables_key(&self) -> String {
        self.file_stem()
    }
}

impl OracleFor for Kiothi {
    const HAS_TABLES: bool = false;
    fn tables_key(&self) -> String {
        "kiothi".to_string()
    }
    fn tables_bytes(&self, _dir: &Path) -> u64 {
        0
    }
    fn open_oracle(
        &self,
        _dir: &Path,
        _load: Load,
    ) -> anyhow::Result<Arc<dyn EndgameOracle<Kiothi>>> {
        Err(usage(
            "--tb: tablebases exist for Giuthi and Kalah only, not for Kiothi",
        ))
    }
}

pub(super) use super::signals::stop_flag;

/// Says on stderr that the reachable graph had more than `limit` states, so the search
/// goes on alone, and how to give the pass more (`--retro-states`; the default follows
/// the memory available less the `hash_mb` table). Not called for a graph the early exit
/// gave up: its size bound is far above the cap, and a larger cap seldom helps.
fn note_over_the_cap(limit: usize, hash_mb: usize) {
    eprintln!(
        "note: the reachable graph has more than {limit} states (--retro-states), so the \
         search goes on alone, which can take long; the default is three fifths of the \
         memory available less --hash {hash_mb} MB, at {} bytes a state: free memory, a \
         smaller --hash or a larger --retro-states lets the retrograde pass solve larger \
         graphs (docs/solver.md, Retrograde solve)",
        retro::BYTES_PER_STATE
    );
}

/// The default `--retro-states`: [`retro::default_max_states`] of the memory available
/// (`MemAvailable` of `/proc/meminfo`) less the `hash_mb` table's bytes; the least default
/// where that cannot be read.
pub(super) fn default_retro_states(hash_mb: usize) -> usize {
    available_memory().map_or(retro::DEFAULT_MAX_STATES, |avail| {
        retro::default_max_states(avail.saturating_sub(Table::bytes_for_mb(hash_mb)))
    })
}

/// The memory available for new allocations, in bytes: `MemAvailable` of
/// `/proc/meminfo`, or the process's address-space limit (`ulimit -v`) if smaller; `None`
/// where neither can be read.
fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
        let line = t.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb = line.split_whitespace().nth(1)?.parse::<u64>().ok()?;
        Some(kb.saturating_mul(1024))
    });
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit(2) writes into the struct we own.
    #[allow(unsafe_code)]
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } == 0;
    let limit = (ok && lim.rlim_cur != libc::RLIM_INFINITY).then_some(lim.rlim_cur);
    match (meminfo, limit) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

pub(super) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A usage error for a position the exact solver cannot take: a Kiothi opening
/// redistribution is due (K3).
fn refuse_opening<R: Rules>(pos: &Position<R>) -> anyhow::Result<()> {
    if !pos.rules.can_enumerate(&pos.state) {
        return Err(usage(format!(
            "{pos}: an opening redistribution is due (K3); exact analysis starts in the play \
             phase (`giuthi bestmove` gives a heuristic opening choice)"
        )));
    }
    Ok(())
}

/// A solver for the rules of `pos` with the shared stop flag and the `--tb` oracle.
///
/// # Errors
///
/// [`refuse_opening`]'s usage error, a usage error for a `--hash` table that cannot be
/// allocated, and [`oracle`]'s errors.
pub(super) fn make_solver<R: OracleFor>(
    pos: &Position<R>,
    c: &Common,
) -> anyhow::Result<Solver<R>> {
    refuse_opening(pos)?;
    let mut solver = Solver::try_new(
        pos.rules.clone(),
        SolverOptions {
            threads: c.threads,
            hash_mb: c.hash_mb,
            max_ply: c.max_ply,
            first_cap: c.first_cap,
            huge_pages: c.huge_pages,
            ..SolverOptions::default()
        },
    )
    .map_err(|e| usage(format!("--hash {}: {e}", c.hash_mb)))?
    .with_stop(stop_flag());
    if let Some(n) = c.stop_after_nodes {
        solver = solver.stop_after_nodes(n);
    }
    // No tables for these rules: a line of a file (`run` noted it once).
    if let Some(o) = oracle(&pos.rules, c)? {
        solver = solver.with_oracle(o);
    }
    Ok(solver)
}

/// The `--tb` oracle for `rules`, opened (and its checksums checked) once per game,
/// variant and board; `None` without `--tb`, or in a file of positions when the folder
/// has no tables for these rules.
///
/// # Errors
///
/// A bad folder, a corrupt or incomplete set of tables, or (for one position) a folder
/// without tables for its rules.
pub(super) fn oracle<R: OracleFor>(
    rules: &R,
    c: &Common,
) -> anyhow::Result<Option<Arc<dyn EndgameOracle<R>>>> {
    let Some(dir) = &c.tb else {
        return Ok(None);
    };
    let key = rules.tables_key();
    let mut cache = c.tb_cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(entry) = cache.get(&key) {
        return Ok(entry
            .as_ref()
            .and_then(|a| a.downcast_ref::<Arc<dyn EndgameOracle<R>>>().cloned()));
    }
    let load = if c.tb_memory {
        let bytes = rules.tables_bytes(dir);
        let avail = available_memory();
        let table_mb = c.table_mb.unwrap_or(c.hash_mb);
        let load = tb_load(bytes, table_mb, avail);
        if load == Load::Map {
            let mb = |b: u64| format!("{:.1} MB", b as f64 / (1u64 << 20) as f64);
            eprintln!(
                "note: --tb-memory: the tables ({}) and the {table_mb} MB transposition table \
                 do not fit in three quarters of the memory available ({}); the tables stay \
                 mapped",
                mb(bytes),
                avail.map_or("unknown".to_string(), mb)
            );
        }
        load
    } else {
        Load::Map
    };
    let opened = match rules.open_oracle(dir, load) {
        Ok(o) => Some(o),
        Err(e) if c.tb_where_present && (!R::HAS_TABLES || no_layer_zero(&e)) => None,
        Err(e) if no_layer_zero(&e) => {
            return Err(usage(format!(
                "--tb {}: no tables for the position's game, variant and board (no {}); \
                 make them with `giuthi tb gen`",
                dir.display(),
                dir.join(format!("{key}-s000.tb")).display()
            )))
        }
        Err(e) => return Err(e),
    };
    cache.insert(
        key,
        opened
            .clone()
            .map(|o| Arc::new(o) as Arc<dyn Any + Send + Sync>),
    );
    Ok(opened)
}

/// Whether `e` says the folder has no tables at all for the position's game, variant and
/// board (no layer 0), rather than a bad folder or a bad file.
fn no_layer_zero(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(
            c.downcast_ref::<TbError>(),
            Some(TbError::MissingLayer { seeds: 0, .. })
        )
    })
}

/// Runs `f` with a progress spinner on stderr (after one second) when `show` is set.
pub(super) fn with_progress<R: Rules, T>(
    solver: &Solver<R>,
    show: bool,
    f: impl FnOnce() -> T,
) -> T {
    let message = |t: f64| {
        let nodes = solver.nodes();
        let cap = solver
            .current_cap()
            .map_or(String::new(), |c| format!(", path cap {c} plies"));
        format!(
            "{nodes} nodes, {:.0} nodes/s, {}{cap}",
            nodes as f64 / t,
            solver.status()
        )
    };
    super::progress::with_spinner(show, message, f)
}

/// The recorded or computed solution of one position, as written in positions/ files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Record {
    /// `lo` (`fmt_score`), when known exactly (recorded, or solved with lo and hi exact).
    pub lo: Option<String>,
    /// `hi`, likewise.
    pub hi: Option<String>,
    pub margin: i32,
    pub result: String,
    pub best: Vec<String>,
}

impl Record {
    fn of<R: Rules>(s: &Solution<R>) -> Record {
        Record {
            lo: s.bounds().map(|b| fmt_score(b.lo)),
            hi: s.bounds().map(|b| fmt_score(b.hi)),
            margin: s.margin,
            result: s.result.to_string(),
            best: moves_to_strings(&s.best_moves),
        }
    }

    /// `lo=<lo> hi=<hi> margin=<m> result=<r> best=<m1>,<m2>` (docs/positions.md); `lo`
    /// and `hi` only when known.
    pub fn to_line(&self) -> String {
        let mut out = String::new();
        if let (Some(lo), Some(hi)) = (&self.lo, &self.hi) {
            out = format!("lo={lo} hi={hi} ");
        }
        out + &format!(
            "margin={:+} result={} best={}",
            self.margin,
            self.result,
            self.best.join(",")
        )
    }

    /// Whether the record has lo and hi (then `--check` needs them exactly).
    pub fn has_bounds(&self) -> bool {
        self.lo.is_some() && self.hi.is_some()
    }

    /// Whether a solved record agrees with this recorded one: margin, result and best
    /// moves, and lo and hi when recorded.
    pub fn matches(&self, solved: &Record) -> bool {
        (self.margin, &self.result, &self.best) == (solved.margin, &solved.result, &solved.best)
            && (!self.has_bounds() || (&self.lo, &self.hi) == (&solved.lo, &solved.hi))
    }

    /// Parses the text after ` | `.
    pub fn parse(text: &str) -> Result<Record, String> {
        let mut r = Record {
            lo: None,
            hi: None,
            margin: 0,
            result: String::new(),
            best: Vec::new(),
        };
        let mut seen = 0;
        for tok in text.split_whitespace() {
            let (k, v) = tok
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, found {tok:?}"))?;
            match k {
                "lo" | "hi" => {
                    let x = match v {
                        "-inf" if k == "lo" => NEG_INF,
                        "+inf" if k == "hi" => POS_INF,
                        _ => v.parse::<i16>().map_err(|_| {
                            format!(
                                "{k}: expected a whole number or {}, found {v:?}",
                                if k == "lo" { "-inf" } else { "+inf" }
                            )
                        })?,
                    };
                    // Normalise (`3` and `+3` are the same value).
                    if k == "lo" {
                        r.lo = Some(fmt_score(x));
                    } else {
                        r.hi = Some(fmt_score(x));
                    }
                }
                "margin" => {
                    r.margin = v
                        .parse()
                        .map_err(|_| format!("margin: not a number: {v:?}"))?
                }
                "result" => {
                    if !["win", "draw", "loss"].contains(&v) {
                        return Err(format!("result: expected win, draw or loss, found {v:?}"));
                    }
                    r.result = v.to_string()
                }
                "best" => {
                    r.best = v
                        .split(',')
                        .filter(|m| !m.is_empty())
                        .map(str::to_string)
                        .collect()
                }
                _ => return Err(format!("unknown key {k:?}")),
            }
            seen += 1;
        }
        // lo and hi together or not at all; margin, result and best always.
        let want = if r.has_bounds() { 5 } else { 3 };
        if seen != want || r.lo.is_some() != r.hi.is_some() || r.result.is_empty() {
            return Err(
                "expected margin, result and best once each, and lo and hi both or neither"
                    .to_string(),
            );
        }
        Ok(r)
    }
}

/// The solution and every move's margin through the retrograde solver when the reachable
/// graph of `pos` has at most `--retro-states` states (`None`: larger, or switched off;
/// the search answers then). The solution's `nodes` are the graph's states.
/// `stop` (Ctrl-C, SIGTERM, a deadline) gives the pass up within milliseconds, also where
/// every state is costly to expand.
pub(super) fn try_retro<R: Rules>(
    pos: &Position<R>,
    c: &Common,
    stop: &dyn Fn() -> bool,
) -> Option<Solved<R>> {
    if c.retro_states == 0 || !pos.rules.can_enumerate(&pos.state) {
        return None;
    }
    let (sol, moves) = retro::solve_position_until(pos, c.retro_states, stop).ok()?;
    Some((sol, Some(moves)))
}

fn solve_generic<R: OracleFor>(pos: &Position<R>, c: &Common) -> anyhow::Result<SolveOutcome<R>> {
    // The solver first: its options are checked (and its table had) as before.
    let solver = make_solver(pos, c)?;
    let t = Instant::now();
    let user_stop = stop_flag();
    let partial = Mutex::new(None);
    // The retrograde pass raced against the search (docs/solver.md, The race).
    let raced = race_why(
        pos,
        c.retro_states,
        &solver,
        &|| user_stop.load(Ordering::Relaxed),
        &mut |s| {
            let (mut sol, moves) = solve_maybe_analyze(s, pos, c, &partial)?;
            // The search's nodes from the first budget on.
            sol.nodes = s.nodes();
            Ok((sol, moves))
        },
    );
    match raced {
        Ok(Winner::Pass(sol, moves)) => {
            let moves = Some(moves).filter(|_| c.analyze);
            return Ok(Ok(((sol, moves), t.elapsed().as_secs_f64())));
        }
        Ok(Winner::Search(solved)) => return Ok(Ok((solved, t.elapsed().as_secs_f64()))),
        Err(Some(retro::RetroError::TooLarge { limit })) if !c.quiet => {
            note_over_the_cap(limit, c.hash_mb)
        }
        Err(_) => {}
    }
    // The time includes a retrograde attempt that found the graph too large, and the
    // nodes the budgeted searches of the race (kept in the table) spent.
    let r = with_progress(&solver, c.progress, || {
        solve_maybe_analyze(&solver, pos, c, &partial)
    });
    Ok(match r {
        Ok((mut sol, moves)) => {
            sol.nodes = solver.nodes();
            Ok(((sol, moves), t.elapsed().as_secs_f64()))
        }
        Err(e) => Err((
            e,
            take_partial(&partial, solver.nodes(), t.elapsed().as_secs_f64()),
        )),
    })
}

/// What a `solve --analyze` stopped while finding the move values had proven: the
/// solution (margin, best moves, principal variation), the moves settled so far, and the
/// seconds the run took.
pub(super) type Partial<R> = Option<Unfinished<R>>;

/// The solution, the moves settled and the seconds of a [`Partial`].
pub(super) type Unfinished<R> = (Solution<R>, Vec<(<R as Rules>::Move, i32)>, f64);

/// A solve and its seconds, or the stop and what it had proven.
type SolveOutcome<R> = Result<(Solved<R>, f64), (Interrupted, Partial<R>)>;

/// The partial result left in `cell`, with the run's `nodes` and `secs`.
fn take_partial<R: Rules>(cell: &Mutex<Partial<R>>, nodes: u64, secs: f64) -> Partial<R> {
    let mut p = cell.lock().ok()?.take()?;
    p.0.nodes = nodes;
    p.2 = secs;
    Some(p)
}

/// A solution and, with `solve --analyze`, every move's margin (V4).
pub(super) type Solved<R> = (Solution<R>, Option<Vec<(<R as Rules>::Move, i32)>>);

/// Solves `pos`, then, with `solve --analyze`, analyzes it on the same table. When the
/// analysis is stopped, the solution and the moves settled so far go into `partial`
/// (the error alone would lose the proven best moves).
fn solve_maybe_analyze<R: Rules>(
    solver: &Solver<R>,
    pos: &Position<R>,
    c: &Common,
    partial: &Mutex<Partial<R>>,
) -> Result<Solved<R>, Interrupted> {
    let n0 = solver.nodes();
    let mut sol = if c.bounds {
        solver.solve_with_bounds(pos)?
    } else {
        solver.solve(pos)?
    };
    let moves = if c.analyze {
        let mut settled = Vec::new();
        match solver.analyze_with(pos, &mut |m, v| settled.push((m, v))) {
            Ok(moves) => Some(moves),
            Err(e) => {
                // Stopped while analyzing: the solution is still proven.
                sol.nodes = solver.nodes() - n0;
                if let Ok(mut p) = partial.lock() {
                    *p = Some((sol.clone(), settled, 0.0));
                }
                return Err(Interrupted {
                    lo: sol.ranges.lo,
                    hi: sol.ranges.hi,
                    ..e
                });
            }
        }
    } else {
        None
    };
    // The nodes of both.
    sol.nodes = solver.nodes() - n0;
    Ok((sol, moves))
}

fn print_solution<R: Rules>(pos: &Position<R>, solved: &Solved<R>, secs: f64, json: bool) {
    print_solution_as(pos, solved, secs, json, None);
}

/// [`print_solution`]; with `stopped` (`"interrupted"` or `"max_ply"`) the move values
/// are those settled before a stop (text: `moves (not finished)`; JSON:
/// `"moves_finished": false` and `"stopped"`).
fn print_solution_as<R: Rules>(
    pos: &Position<R>,
    solved: &Solved<R>,
    secs: f64,
    json: bool,
    stopped: Option<&str>,
) {
    let (s, moves) = solved;
    if json {
        let mut v = serde_json::json!({
            "position": pos.to_string(),
            "lo_range": range_json(s.ranges.lo),
            "hi_range": range_json(s.ranges.hi),
            "margin": s.margin,
            "result": s.result.as_str(),
            "best_moves": moves_to_strings(&s.best_moves),
            "pv": moves_to_strings(&s.pv),
            "nodes": s.nodes,
            "seconds": secs,
        });
        // lo and hi each when exact (its range a single value); an infinity is
        // "-inf" / "+inf", never null.
        if s.ranges.lo.0 == s.ranges.lo.1 {
            v["lo"] = score_json(s.ranges.lo.0);
        }
        if s.ranges.hi.0 == s.ranges.hi.1 {
            v["hi"] = score_json(s.ranges.hi.0);
        }
        if let Some(moves) = moves {
            v["moves"] = moves
                .iter()
                .map(|(m, x)| serde_json::json!({"move": m.to_string(), "margin": x}))
                .collect();
            if let Some(why) = stopped {
                v["moves_finished"] = false.into();
                v["stopped"] = why.into();
            }
        }
        println!("{v}");
    } else {
        println!("position {pos}");
        // Exact bounds as `lo +3 hi +inf`; proven ranges as `lo <= -1  hi >= +0`.
        let bounds = match s.bounds() {
            Some(b) => b.to_string(),
            None => s.ranges.to_string(),
        };
        println!("{bounds}  margin {:+}  {}", s.margin, s.result);
        if s.best_moves.is_empty() {
            println!("best (none: no legal move, the game is over)");
        } else {
            println!("best {}", moves_to_strings(&s.best_moves).join(" "));
        }
        println!("pv {}", giuthi::line::Line::replay(pos, &s.pv));
        if let Some(moves) = moves {
            let each: Vec<String> = moves.iter().map(|(m, x)| format!("{m} {x:+}")).collect();
            match stopped {
                None => println!("moves {}", each.join(", ")),
                Some(_) => println!("moves (not finished) {}", each.join(", ")),
            }
        }
        println!(
            "nodes {} in {:.3} s ({:.0} nodes/s)",
            s.nodes,
            secs,
            s.nodes as f64 / secs.max(1e-9)
        );
    }
}

/// The results a proven margin range leaves open, and those it rules out, in words:
/// `win or draw (loss ruled out)`, `win (proven)`, `open (win, draw and loss possible)`.
pub(super) fn results_in_words(m: (Score, Score)) -> String {
    let possible: Vec<&str> = [
        ("win", m.1 > 0),
        ("draw", m.0 <= 0 && m.1 >= 0),
        ("loss", m.0 < 0),
    ]
    .iter()
    .filter(|x| x.1)
    .map(|x| x.0)
    .collect();
    let out: Vec<&str> = ["win", "draw", "loss"]
        .into_iter()
        .filter(|r| !possible.contains(r))
        .collect();
    match (possible.len(), out.len()) {
        (1, _) => format!("{} (proven)", possible[0]),
        (_, 0) => "open (win, draw and loss possible)".to_string(),
        _ => format!(
            "{} ({} ruled out)",
            possible.join(" or "),
            out.join(" and ")
        ),
    }
}

/// [`report_stop`] for `solve`: in text mode the proven part is printed on stdout too
/// (`position ...`, then `interrupted, not exact: lo ...  hi ...  margin ...  result ...`,
/// or `stopped at --max-ply, not exact: ...` when the path cap stopped it),
/// so that a script reading stdout sees what a stopped solve proved.
///
/// With `partial` (a `solve --analyze` stopped while finding the move values), the
/// solution is printed as a finished one is, its `moves` being those settled so far
/// (JSON: `"moves_finished": false`), and the exit code is still that of a stop.
pub(super) fn report_solve_stop<R: Rules>(
    pos: &Position<R>,
    e: &Interrupted,
    partial: Option<&Unfinished<R>>,
    json: bool,
) -> i32 {
    if let Some((sol, settled, secs)) = partial {
        let n = sol.nodes;
        let solved: Solved<R> = (sol.clone(), Some(settled.clone()));
        let why = if e.too_deep { "max_ply" } else { "interrupted" };
        print_solution_as(pos, &solved, *secs, json, Some(why));
        eprintln!("{pos}: {e}");
        eprintln!(
            "{pos}: the margin ({:+}) and the best moves are proven; the move values were \
             not finished ({} of the moves settled, {n} nodes)",
            sol.margin,
            settled.len()
        );
        return if e.too_deep { 3 } else { 130 };
    }
    if !json {
        let ranges = BoundRanges { lo: e.lo, hi: e.hi };
        let m = ranges.margin_range(pos.captured_difference());
        // A stop at the path cap is no interruption (a fresh-user find, session 24).
        let why = if e.too_deep {
            "stopped at --max-ply"
        } else {
            "interrupted"
        };
        println!("position {pos}");
        println!(
            "{why}, not exact: {ranges}  {}  result {}",
            giuthi::value::fmt_range("margin", m),
            results_in_words(m)
        );
    }
    report_stop(pos, e, json)
}

/// Reports a stopped solve on stderr (with the exact margin when both bounds were proven)
/// and returns its exit code: 3 when a path deeper than --max-ply was needed, else 130.
pub(super) fn report_stop<R: Rules>(pos: &Position<R>, e: &Interrupted, json: bool) -> i32 {
    eprintln!("{pos}: {e}");
    let ranges = BoundRanges { lo: e.lo, hi: e.hi };
    let proven = ranges.margin(pos.captured_difference());
    if let Some(margin) = proven {
        eprintln!(
            "{pos}: the margin is proven: {margin:+} ({}); the best moves or move values \
             were not finished",
            giuthi::value::GameResult::from_margin(margin)
        );
    }
    if json {
        // For scripts: what is proven; an infinity is "-inf" / "+inf" (never null), and
        // "margin" is there only when proven.
        let mut v = serde_json::json!({
            "position": pos.to_string(),
            "stopped": if e.too_deep { "max_ply" } else { "interrupted" },
            "lo_range": range_json(e.lo),
            "hi_range": range_json(e.hi),
            "margin_range": range_json(ranges.margin_range(pos.captured_difference())),
        });
        if let Some(m) = proven {
            v["margin"] = m.into();
        }
        println!("{v}");
    }
    if e.too_deep {
        eprintln!("{pos}: raise --max-ply to go on (docs/solver.md, Path cap)");
        3
    } else {
        130
    }
}

/// Solves one position and prints it; returns its record, or the exit code when stopped.
fn solve_any(
    any: &AnyPosition,
    c: &Common,
    json: bool,
    print: bool,
) -> anyhow::Result<Result<Record, i32>> {
    with_position!(any, p => {
        match solve_generic(p, c)? {
            Ok((s, secs)) => {
                if print {
                    print_solution(p, &s, secs, json);
                }
                Ok(Ok(Record::of(&s.0)))
            }
            Err((e, partial)) => Ok(Err(report_solve_stop(p, &e, partial.as_ref(), json))),
        }
    })
}

/// Runs `giuthi solve`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut c = args.search.common(args.json)?;
    c.analyze = args.analyze;
    c.bounds = args.bounds;
    let path = std::path::Path::new(&args.input);
    let is_file = args.input.split(' ').count() < 3 && path.is_file();
    if !is_file {
        if args.check {
            // Name what is wrong with a path-like argument (a missing file, a folder)
            // before saying what --check needs.
            let why = if args.input.split(' ').count() >= 3 {
                String::new()
            } else if path.is_dir() {
                format!("{}: a folder, not a file; ", args.input)
            } else {
                format!("{}: no such file; ", args.input)
            };
            return Err(usage(format!(
                "{why}--check needs a FILE of positions with recorded solutions"
            )));
        }
        let any = read_position(&args.input)?;
        if let Some(file) = &args.checkpoint {
            let ck = CheckpointArgs {
                path: file,
                every: Duration::from_secs(args.checkpoint_every),
                stop_after_tests: args.stop_after_tests,
            };
            return with_position!(&any, p => solve_checkpointed(p, &c, &ck, args.json));
        }
        return Ok(match solve_any(&any, &c, args.json, true)? {
            Ok(_) => 0,
            Err(code) => code,
        });
    }
    if args.checkpoint.is_some() {
        return Err(usage(format!(
            "--checkpoint saves the search of one POSITION; {} is a file of positions",
            path.display()
        )));
    }
    let text = super::common::read_text(path, "positions file")?;
    if text
        .lines()
        .map(str::trim)
        .all(|l| l.is_empty() || l.starts_with('#'))
    {
        return Err(usage(format!(
            "{}: no position in the file",
            path.display()
        )));
    }
    // Every line is read before anything is solved: a malformed line is reported at once.
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (pos_text, recorded) = match line.split_once(" | ") {
            Some((p, r)) => (p.trim(), Some(r.trim())),
            None => (line, None),
        };
        let any: AnyPosition = pos_text
            .parse()
            .map_err(|e| usage(format!("{}:{}: {e}", path.display(), i + 1)))?;
        let recorded = match recorded {
            Some(r) => Some(
                Record::parse(r)
                    .map_err(|e| usage(format!("{}:{}: {e}", path.display(), i + 1)))?,
            ),
            None => None,
        };
        // A recorded best move must be a legal move of the position (else the record is
        // malformed, not a mismatch).
        for m in recorded.iter().flat_map(|r| r.best.iter()) {
            let legal = with_position!(&any, p => p
                .rules
                .parse_move(m)
                .is_ok_and(|mv| p.legal_moves().contains(&mv)));
            if !legal {
                return Err(usage(format!(
                    "{}:{}: best={m}: not a legal move of the position",
                    path.display(),
                    i + 1
                )));
            }
        }
        // A position the solver cannot take (a Kiothi opening) is reported at once too,
        // unless `--check` skips it (no record).
        if !args.check || recorded.is_some() {
            let at = |e: anyhow::Error| e.context(format!("{}:{}", path.display(), i + 1));
            with_position!(&any, p => refuse_opening(p)).map_err(at)?;
        }
        lines.push((i, any, recorded));
    }
    c.tb_where_present = true;
    // Every table set the file needs is opened and checked before the first solve; a
    // game, variant and board the folder has no tables for is noted once, at its first
    // line that will be solved.
    let mut noted = std::collections::HashSet::new();
    for (i, any, recorded) in &lines {
        let missing = with_position!(any, p => oracle(&p.rules, &c)
            .map(|o| o.is_none().then(|| p.rules.tables_key())))
        .with_context(|| format!("{}:{}", path.display(), i + 1))?;
        let solved = !args.check || recorded.is_some();
        if let (Some(key), Some(dir), true) = (missing, &c.tb, solved) {
            if noted.insert(key) {
                eprintln!(
                    "note: --tb {} has no tables for {any}; solved without them, as every \
                     position of its game, variant and board (noted once)",
                    dir.display()
                );
            }
        }
    }
    let (mut solved, mut checked, mut mismatches, mut skipped) = (0, 0, 0, 0);
    // The exit code of a solve that was stopped (Ctrl-C, --max-ply), and its line.
    let mut stopped: Option<(i32, usize)> = None;
    let t = Instant::now();
    for (i, any, recorded) in lines {
        if args.check && recorded.is_none() {
            skipped += 1;
            continue;
        }
        // A line that records lo and hi is checked on them too: solved with both exact.
        let mut c = c.clone();
        c.bounds |= recorded.as_ref().is_some_and(Record::has_bounds);
        let rec = match solve_any(&any, &c, args.json, !args.check)
            .with_context(|| format!("{}:{}", path.display(), i + 1))?
        {
            Ok(r) => r,
            Err(code) if args.check => {
                stopped = Some((code, i + 1));
                break;
            }
            Err(code) => return Ok(code),
        };
        solved += 1;
        if let Some(want) = recorded {
            checked += 1;
            if !want.matches(&rec) {
                mismatches += 1;
                eprintln!(
                    "{}:{}: MISMATCH {any}\n  recorded {}\n  solved   {}",
                    path.display(),
                    i + 1,
                    want.to_line(),
                    rec.to_line()
                );
            } else if args.check && !args.json {
                println!("ok {any} | {}", rec.to_line());
            }
            if args.check && args.json {
                let v = serde_json::json!({
                    "line": i + 1,
                    "position": any.to_string(),
                    "check": if want.matches(&rec) { "ok" } else { "mismatch" },
                    "recorded": want.to_line(),
                    "solved": rec.to_line(),
                });
                println!("{v}");
            }
        }
    }
    if args.json && args.check {
        let mut v = serde_json::json!({
            "solved": solved,
            "checked": checked,
            "mismatches": mismatches,
            "skipped": skipped,
            "seconds": t.elapsed().as_secs_f64(),
        });
        if let Some((_, line)) = stopped {
            v["stopped_at_line"] = line.into();
        }
        println!("{v}");
    } else if !args.json {
        let at = match stopped {
            Some((_, line)) => format!(" (stopped at line {line}: the lines after it not checked)"),
            None => String::new(),
        };
        println!(
            "{solved} solved, {checked} checked against the file, {}, \
             {skipped} without a recorded solution skipped, {:.3} s{at}",
            super::common::count(mismatches, "mismatch", "mismatches"),
            t.elapsed().as_secs_f64()
        );
    }
    Ok(match stopped {
        Some((code, _)) => code,
        None if mismatches > 0 => 1,
        None => 0,
    })
}

/// A resumed run of a settled checkpoint that answers within this many nodes, or within
/// 1% of the file's nodes, does not rewrite the file (a rerun of a finished solve: what it
/// proved was in the file).
const RERUN_NODES: u64 = 4096;

/// The `--checkpoint` options.
struct CheckpointArgs<'a> {
    path: &'a Path,
    every: Duration,
    stop_after_tests: Option<u64>,
}

/// A proven range in words: one value, or `in [a, b]`.
fn range(r: (Score, Score)) -> String {
    if r.0 == r.1 {
        fmt_score(r.0)
    } else {
        format!("in [{}, {}]", fmt_score(r.0), fmt_score(r.1))
    }
}

/// The proven ranges in words.
fn ranges(p: &Progress) -> String {
    format!("lo {}, hi {}", range(p.lo), range(p.hi))
}

/// Checks that `path` can be a checkpoint: its folder exists and it is not a folder.
fn check_place(path: &Path) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(usage(format!(
            "--checkpoint {}: no such folder {}",
            path.display(),
            dir.display()
        )));
    }
    if path.is_dir() {
        return Err(usage(format!(
            "--checkpoint {}: is a folder, not a file",
            path.display()
        )));
    }
    Ok(())
}

/// Checks that a checkpoint can be written at `path` before a long search starts: a file
/// can be created beside it.
fn check_writable(path: &Path) -> anyhow::Result<()> {
    let tmp = temp_path(path);
    std::fs::File::create(&tmp)
        .with_context(|| format!("--checkpoint: cannot write {}", tmp.display()))?;
    let _ = std::fs::remove_file(&tmp);
    Ok(())
}

/// Reports a run stopped (Ctrl-C, SIGTERM) while it read its checkpoint or moved the
/// file's table into a table of another size, before any search: what the file proves
/// (`prior`, when it was read; else what holds of any position) as [`report_solve_stop`]
/// gives it, and that the file is untouched. Returns the exit code, 130.
fn stopped_on_resume<R: Rules>(
    pos: &Position<R>,
    path: &Path,
    prior: Option<Progress>,
    json: bool,
) -> i32 {
    // Nothing read: what holds of any position (a search stopped at once says the same).
    let p = prior.unwrap_or(Progress::start(
        pos.rules.seeds_on_board(&pos.state) as Score
    ));
    let e = Interrupted {
        lo: p.lo,
        hi: p.hi,
        too_deep: false,
    };
    let code = report_solve_stop(pos, &e, None, json);
    eprintln!(
        "checkpoint {}: stopped while resuming, before any search; the file is untouched: \
         run the same command again to resume",
        path.display()
    );
    code
}

/// Solves one position with checkpoints: resumes from the file if it exists (after every
/// check of [`Checkpoint::read_for`]), writes it every `every`, on Ctrl-C and at the end.
/// Messages about the checkpoint go to stderr; stdout is as without `--checkpoint`, with
/// the nodes and seconds of every run added up. Returns the exit code.
fn solve_checkpointed<R: OracleFor>(
    pos: &Position<R>,
    c: &Common,
    ck: &CheckpointArgs,
    json: bool,
) -> anyhow::Result<i32> {
    let path = ck.path;
    check_place(path)?;
    // Ctrl-C from here on stops the run cleanly (the lock removed), also while the file
    // is read or its table moved (a minute for a file of 8 GB).
    let user_stop = stop_flag();
    let stopped = || user_stop.load(Ordering::Relaxed);
    // One run a checkpoint: a second one would overwrite the first's saves with its own.
    let _lock = FileLock::try_new(path).map_err(|e| match e {
        LockError::Busy { path: lock } => usage(format!(
            "--checkpoint {}: another `giuthi solve` is using this checkpoint (it holds the \
             lock {}); wait for it to finish, or name another file",
            path.display(),
            lock.display()
        )),
        LockError::Foreign { path: lock } => usage(format!(
            "--checkpoint {}: {} exists and is not a giuthi lock file (the run would lock \
             and then remove it); move it away, or name another checkpoint file",
            path.display(),
            lock.display()
        )),
        e => anyhow::Error::new(e).context("--checkpoint: cannot lock the checkpoint"),
    })?;
    let mut c = c.clone();
    let mut resumed = None;
    // The ranges of a checkpoint whose search already settled what is asked (the margin;
    // with --bounds, lo and hi): nothing new to save unless the ranges narrow.
    let mut finished: Option<Progress> = None;
    if path.exists() {
        let (prior, table) = match Checkpoint::read_for_until(path, pos, &stopped) {
            Ok(x) => x,
            Err(CheckpointError::Stopped { .. }) => {
                return Ok(stopped_on_resume(pos, path, None, json));
            }
            // Could not read it (permissions...): a failure, not a bad argument.
            Err(e @ CheckpointError::Io { .. }) => {
                return Err(anyhow::Error::new(e).context("--checkpoint"))
            }
            Err(e) => {
                return Err(usage(format!(
                    "--checkpoint: {e}; nothing was resumed (move or delete the file to \
                     start afresh)"
                )))
            }
        };
        let mb = table.size_bytes() as f64 / (1u64 << 20) as f64;
        eprintln!(
            "checkpoint {}: resuming {}: {}; {} nodes in {:.1} s so far; table {mb:.0} MB \
             from the file",
            path.display(),
            prior.position,
            ranges(&prior.progress),
            prior.nodes,
            prior.seconds
        );
        let resize = c.hash_given && Table::slots_for_mb(c.hash_mb) != table.len();
        // The table's layout as stderr names it (src/solve/tt.rs, "Two layouts").
        let layout = |t: &Table| if t.is_compact() { "compact" } else { "wide" };
        let table = if resize {
            // An explicit --hash of another size: carry the entries over.
            let t = Instant::now();
            let resized = Table::try_new(c.hash_mb)
                .map_err(|e| usage(format!("--hash {}: {e}", c.hash_mb)))?;
            let Some(n) = resized.absorb_until(&table, &stopped) else {
                return Ok(stopped_on_resume(pos, path, Some(prior.progress), json));
            };
            eprintln!(
                "checkpoint {}: --hash {}: the {n} entries of the file's table ({}, {} slots) \
                 stored into a {:.0} MB table ({}, {} slots) in {:.2} s",
                path.display(),
                c.hash_mb,
                layout(&table),
                table.len(),
                resized.size_bytes() as f64 / (1u64 << 20) as f64,
                layout(&resized),
                resized.len(),
                t.elapsed().as_secs_f64()
            );
            resized
        } else {
            table
        };
        // The file's table replaces the one make_solver allocates: keep that one small
        // (and let --tb-memory count the file's table, not that one).
        c.table_mb = Some((table.size_bytes() >> 20) as usize);
        c.hash_mb = 1;
        let p = prior.progress;
        let ranges = BoundRanges { lo: p.lo, hi: p.hi };
        let settled = if c.bounds {
            p.is_done()
        } else {
            ranges.margin(pos.captured_difference()).is_some()
        };
        // (A table moved into a table of another size is new: it is saved.)
        if settled && !resize {
            finished = Some(p);
        }
        resumed = Some((prior, table));
    } else {
        check_writable(path)?;
    }
    // A graph small enough for the retrograde pass is solved by it, exactly as without
    // --checkpoint (`lo` and `hi` exact): there is no search to save. (A file already
    // there was checked above: a corrupt or foreign one is reported all the same.)
    let t = Instant::now();
    if let Some((sol, moves)) = try_retro(pos, &c, &stopped) {
        let moves = moves.filter(|_| c.analyze);
        let states = sol.nodes;
        print_solution(pos, &(sol, moves), t.elapsed().as_secs_f64(), json);
        let kept = if path.exists() {
            " (the file is left as it was)"
        } else {
            ""
        };
        eprintln!(
            "checkpoint {}: not written: the retrograde pass solved the position outright \
             over its {states} states (--retro-states {}); there is no search to resume{kept}",
            path.display(),
            c.retro_states
        );
        return Ok(0);
    }
    let mut solver = make_solver(pos, &c)?;
    let (base_nodes, base_secs) = match resumed {
        Some((prior, table)) => {
            solver = solver.with_table(table).resume_from(prior.progress);
            (prior.nodes, prior.seconds)
        }
        None => (0, 0.0),
    };
    if let Some(n) = ck.stop_after_tests {
        solver = solver.stop_after_tests(n);
    }
    let t0 = Instant::now();
    let write = |progress: Progress| -> anyhow::Result<()> {
        let t = Instant::now();
        let ckpt = Checkpoint::of(
            pos,
            progress,
            base_nodes + solver.nodes(),
            base_secs + t0.elapsed().as_secs_f64(),
        );
        let w = ckpt.write(path, solver.table())?;
        // Over the spinner's line, if one is drawn (it redraws itself below).
        let clear = if c.progress { "\r\x1b[2K" } else { "" };
        eprintln!(
            "{clear}checkpoint {}: written: {}; {} bytes, {} of {} table slots used, {:.2} s to write",
            path.display(),
            ranges(&progress),
            w.bytes,
            w.used_slots,
            solver.table().len(),
            t.elapsed().as_secs_f64()
        );
        Ok(())
    };
    let done = AtomicBool::new(false);
    let partial = Mutex::new(None);
    let result = with_progress(&solver, c.progress, || {
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut last = Instant::now();
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(20));
                    if last.elapsed() >= ck.every {
                        if let Some(p) = solver.progress() {
                            // A failed periodic write is reported; the search goes on.
                            if let Err(e) = write(p) {
                                eprintln!("checkpoint {}: not written: {e:#}", path.display());
                            }
                        }
                        last = Instant::now();
                    }
                }
            });
            let r = solve_maybe_analyze(&solver, pos, &c, &partial);
            done.store(true, Ordering::Relaxed);
            r
        })
    });
    let session_secs = t0.elapsed().as_secs_f64();
    let session_nodes = solver.nodes();
    // A rerun of a finished search (the file's margin settled, this run answered at once)
    // does not rewrite it: nothing new to save. Every other run saves its table, also
    // when the ranges did not move: the best moves (and --analyze) are found after the
    // margin is settled, and their work is in the table (the session-14 trial: a run
    // stopped there lost it).
    let rerun = finished.is_some()
        && result.is_ok()
        && (session_nodes < RERUN_NODES || session_nodes.saturating_mul(100) < base_nodes)
        && solver
            .progress()
            .zip(finished)
            .is_some_and(|(p, f)| (p.lo, p.hi) == (f.lo, f.hi));
    // The last checkpoint; a failure is reported after the solution is printed.
    let written = if rerun {
        Ok(())
    } else {
        solver.progress().map_or(Ok(()), write)
    };
    if rerun {
        eprintln!(
            "checkpoint {}: not rewritten: its search was finished ({}), nothing new to save",
            path.display(),
            ranges(&finished.expect("finished"))
        );
    }
    eprintln!(
        "checkpoint {}: this run {session_nodes} nodes in {session_secs:.3} s; all runs \
         {} nodes in {:.3} s",
        path.display(),
        base_nodes + session_nodes,
        base_secs + session_secs
    );
    let code = match result {
        Ok(mut sol) => {
            sol.0.nodes += base_nodes;
            print_solution(pos, &sol, base_secs + session_secs, json);
            0
        }
        Err(e) => {
            let partial = take_partial(
                &partial,
                base_nodes + session_nodes,
                base_secs + session_secs,
            );
            let code = report_solve_stop(pos, &e, partial.as_ref(), json);
            if written.is_ok() {
                let more = if e.too_deep {
                    " with a larger --max-ply"
                } else {
                    ""
                };
                eprintln!(
                    "checkpoint {}: run the same command again{more} to resume",
                    path.display()
                );
            }
            code
        }
    };
    written.map(|()| code)
}

#[cfg(test)]
mod tests {
    use super::{results_in_words, tb_load};
    use giuthi::tablebase::Load;
    use giuthi::value::{BoundRanges, NEG_INF, POS_INF};

    /// `--tb-memory` copies the tables into memory only when they and the transposition
    /// table fit in three quarters of the memory available, and maps them where that is
    /// unknown.
    #[test]
    fn tables_are_copied_into_memory_only_when_they_fit() {
        const GB: u64 = 1 << 30;
        assert_eq!(tb_load(37 * GB / 10, 4096, Some(23 * GB)), Load::Memory);
        assert_eq!(tb_load(17 * GB, 4096, Some(23 * GB)), Load::Map);
        // 20 GB of tables and a 4 GB table fit in three quarters of 32 GB; a byte more not.
        assert_eq!(tb_load(20 * GB, 4096, Some(32 * GB)), Load::Memory);
        assert_eq!(tb_load(20 * GB + 1, 4096, Some(32 * GB)), Load::Map);
        assert_eq!(tb_load(GB, 64, None), Load::Map);
        assert_eq!(tb_load(u64::MAX, 64, Some(u64::MAX)), Load::Map);
    }

    /// V3 over proven ranges: the margin's range, and what it rules out.
    #[test]
    fn v3_margin_range_of_proven_ranges() {
        // Nothing proven: lo and hi anywhere; with d = 0 the margin is clamp(0, lo, hi).
        let open = BoundRanges {
            lo: (NEG_INF, POS_INF),
            hi: (NEG_INF, POS_INF),
        };
        assert_eq!(open.margin_range(0), (NEG_INF, POS_INF));
        assert_eq!(
            results_in_words(open.margin_range(0)),
            "open (win, draw and loss possible)"
        );
        // lo <= -1 and hi >= 0 with d = 0: a draw, proven (the README's example).
        let draw = BoundRanges {
            lo: (NEG_INF, -1),
            hi: (0, POS_INF),
        };
        assert_eq!(draw.margin_range(0), (0, 0));
        assert_eq!(results_in_words((0, 0)), "draw (proven)");
        // lo >= 3 with d = -2 (V4's example, lo not yet exact): the margin is at least +1.
        let win = BoundRanges {
            lo: (3, 9),
            hi: (3, POS_INF),
        };
        assert_eq!(win.margin_range(-2), (1, 7));
        assert_eq!(results_in_words((1, 7)), "win (proven)");
        // hi <= 0 with d = 0: no win; loss or draw.
        let r = BoundRanges {
            lo: (NEG_INF, 0),
            hi: (-5, 0),
        };
        assert_eq!(r.margin_range(0), (-5, 0));
        assert_eq!(results_in_words((-5, 0)), "draw or loss (win ruled out)");
        assert_eq!(results_in_words((0, 4)), "win or draw (loss ruled out)");
        assert_eq!(
            results_in_words((-3, 4)),
            "open (win, draw and loss possible)"
        );
    }
}
