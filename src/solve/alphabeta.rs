//! The exact solver: null-window alpha-beta (negamax) with a lock-free transposition table,
//! exact repetition handling (RULES.md G10, V2-V4) and Lazy SMP threads.
//!
//! # Method
//!
//! `(lo, hi)` of V2 are the values of two games played on the tree where the first
//! repetition ends the game: in game "L" a repetition scores minus infinity for the root
//! mover (the game's *bad side*) and plus infinity for the other side; game "H" exchanges
//! the sides. At a node whose mover is the bad side the value lies in
//! `{-inf} ∪ [-S, S]`, otherwise in `[-S, S] ∪ {+inf}`, where `S` is the number of seeds on
//! the board (exact futility bounds: the mover can neither win nor lose more than `S`).
//!
//! The search answers one question at a time: "is the value of this node `>= x`?" (a
//! null-window test). Negamax negates only when the turn passes; captures are added on
//! the way up (values are store-independent, V2). The driver finds `lo` by bisection over
//! the possible scores, then `hi >= lo` (often one test proves `hi == lo`), and the exact
//! margin is `D + clamp(-D, lo, hi)` (V3).
//!
//! # Repetition and the transposition table
//!
//! A cycle stays inside one seed layer (captures lower the seeds for good), so the path is
//! scanned back only while the seed count is unchanged. Each test returns the shallowest
//! ply of the path that a repetition in its proof hit. A result is stored as a bound on the
//! positional value only when no repetition hit a strict ancestor (graph-history
//! interaction); otherwise only the one-sided bound that extra repetitions cannot have
//! helped is stored (a success of the bad side, a failure of the other side: extra
//! repetition terminals only ever hurt the bad side).
//!
//! A search with a history (the tests of a root move, V4, and the principal variation:
//! the played positions count as repetitions) runs in *strict* mode: a positional bound
//! from the table or the oracle is used only in the direction where it also bounds the
//! value with that history (a lower bound where the mover is not the bad side, an upper
//! bound where it is). Without this, a move that can only reach the value through the root
//! again would be reported best (the cross-check against the naive solver found one).

mod lean;

use super::busy::BusyTable;
use super::order::MoveOrder;
use super::tt::{work_of, Table};
use super::EndgameOracle;
use crate::position::Position;
use crate::rules::{Child, Rules, HISTORY_SLOTS};
use crate::types::Side;
use crate::value::{is_infinite, BoundRanges, Bounds, GameResult, Score, NEG_INF, POS_INF};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Stack of a search thread: 8 GB of address space (only the pages touched are
/// committed), enough for the deepest `--max-ply`. Where it cannot be reserved, 1 GB, then
/// 64 MB. Whatever the size, a worker never recurses past the stack it has: a node whose
/// frame would come within [`STACK_SPARE`] of the end is cut like a node at the path cap.
const STACK_BYTES: usize = 1 << 33;

/// Stack kept free below the deepest search frame (for move generation and sowing).
const STACK_SPARE: usize = 256 << 10;

/// Stack assumed for a search run on the calling thread (when no thread could be spawned).
const CALLER_STACK_BYTES: usize = 1 << 20;

/// No repetition in the proof.
const NO_REP: u32 = u32::MAX;

/// The history game's table ([`Solver::history_table`]) is this fraction of the main one.
const HIST_TABLE_DIVISOR: u64 = 16;

/// The largest history game's table, in MB.
const HIST_TABLE_MAX_MB: u64 = 256;

/// The sort key of a child deferred by the first pass of the children loop
/// ([`Worker::skip_now`]).
const DEFERRED: i64 = i64::MIN;

/// The result of one null-window test.
#[derive(Debug, Clone, Copy)]
struct Res {
    ok: bool,
    /// Fail-soft bound: the value is `>= v` when `ok` (then `v >= x`), `<= v` otherwise
    /// (then `v < x`).
    v: Score,
    /// Shallowest ply of the path hit by a repetition in the proof (`NO_REP`: none).
    rep: u32,
    /// The proof met a path cut at the ply cap (see [`SolverOptions::max_ply`]): the
    /// answer holds in the capped game only, so it is a fact in one direction only.
    capped: bool,
    /// The proof met a state of the history (a played state, strict mode): the answer
    /// holds in the game with that history only (its table, [`Solver::history_table`]),
    /// and positionally in one direction only. Such a hit is not counted in `rep`.
    hist: bool,
}

impl Res {
    /// A plain answer: `ok` with the fail-soft bound `v`, no repetition, no cut path.
    #[inline(always)]
    fn plain(ok: bool, v: Score) -> Option<Res> {
        Some(Res {
            ok,
            v,
            rep: NO_REP,
            capped: false,
            hist: false,
        })
    }
}

/// The exact futility bounds of a test `value >= x` at a node with `seeds` seeds on the
/// board: the value lies in `{-inf}` and `[-S, S]` when the mover is the repetition
/// game's bad side, in `[-S, S]` and `{+inf}` otherwise (V2, V3). `Err` is the answer at
/// once; `Ok` the threshold to search with (clamped into the range, the same answers).
#[inline(always)]
fn futility(x: Score, seeds: Score, mover_bad: bool) -> Result<Score, Option<Res>> {
    if mover_bad {
        if x == NEG_INF {
            return Err(Res::plain(true, NEG_INF));
        }
        if x > seeds {
            return Err(Res::plain(false, seeds));
        }
        Ok(x.max(-seeds))
    } else if x <= -seeds {
        Err(Res::plain(true, -seeds))
    } else if x > seeds {
        Ok(POS_INF)
    } else {
        Ok(x)
    }
}

/// Search options.
#[derive(Debug, Clone)]
pub struct SolverOptions {
    /// Threads (Lazy SMP over the shared table); 1 is deterministic.
    pub threads: usize,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Enhanced transposition cutoff: probe every child before searching any (off by
    /// default: fewer nodes, more time; measured in docs/solver.md).
    pub etc: bool,
    /// History heuristic: order the moves that are neither the table's move nor tactical
    /// by how much search their earlier cutoffs saved (on by default; measured in
    /// docs/solver.md).
    pub history: bool,
    /// Move ordering scheme (default [`MoveOrder::Auto`]: the game's choice; measured in
    /// docs/performance.md).
    pub order: MoveOrder,
    /// The deepest path, in plies below the root of a null-window test, that the search
    /// follows (default 2^21). A Giuthi path inside one seed layer can run for millions of
    /// plies without repeating, so in games that can repeat each test cuts paths at a
    /// *cap*: a node at the cap counts as lost for one side (the worst outcome for the
    /// repetition game's bad side in one pass, the best in a second pass), which makes the
    /// test's answer a fact in one direction; a test that neither pass settles is run
    /// again with a cap twice as deep, up to `max_ply`. Past it the search stops
    /// ([`Solver::too_deep`]) with the bounds proven so far. Values never depend on the
    /// cap, only the work does (and it is much less: docs/solver.md, Path cap).
    pub max_ply: usize,
    /// The first cap of each test (plies; see `max_ply`), in games that can repeat.
    /// Default 4.
    pub first_cap: usize,
    /// Stack of each search thread in bytes (default 8 GB of address space, of which only
    /// the pages touched are committed). A search never overflows it: a node that would
    /// leave less than 256 KB free is cut like a node at the path cap.
    pub stack_bytes: usize,
    /// With more than one thread: nodes fewer than this many plies below a null-window
    /// test's root search the children another thread is searching last (simplified
    /// ABDADA, src/solve/busy.rs; order only, values never change). `None` (the default):
    /// 16 plies; with Irving's extra-moves order (Kalah) a node expected to fail defers
    /// even its first child, and below these plies the lean path searches (as measured
    /// in docs/performance.md, Sessions 8, 10 and 13: threads). Ignored with one thread.
    pub defer_depth: Option<usize>,
    /// Put the transposition table on huge pages (default true; see
    /// [`Table::try_new_paged`]): false for searches with a deadline, which touch only a
    /// small part of a large table.
    pub huge_pages: bool,
    /// In games that cannot repeat ([`Rules::can_repeat`]), search with the lean path
    /// (src/solve/alphabeta/lean.rs: no repetition bookkeeping; the same nodes, values
    /// and table entries, at a lower cost per node) wherever the general search would
    /// do the same: one thread, or below the depths where threads defer; not with the
    /// ETC or the history heuristic. On by default; off only to compare the two paths
    /// (docs/performance.md, Session 11).
    pub lean: bool,
    /// In games that can repeat, the least node budget of an MTD(f) test of the driver
    /// ([`Solver::bounds`], [`Solver::settle`]; default 2^20): a test gets this many
    /// nodes, or 16 times what the driver has searched so far if more, before it is cut
    /// and another threshold is tried (see [`Solver::settle`], `# Method`). Values never
    /// change; tests set it low to exercise the cut.
    pub driver_budget_min: u64,
    /// In games that can repeat, keep what the strict searches with a history prove in a
    /// table of that history's game ([`Solver::history_table`]; on by default). Values
    /// never change; off only to compare (docs/performance.md, Session 22).
    pub history_table: bool,
    /// Prove one move of each pair of twins at a root that is its own image under the
    /// game's symmetry, with a history of such positions (Giuthi's left-right mirror,
    /// RULES.md G11; [`Rules::is_symmetric`]): the start positions are, and their
    /// opening moves pair up. On by default; values never change; off only to compare
    /// (docs/performance.md, Session 26).
    pub symmetry: bool,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            threads: 1,
            hash_mb: 64,
            etc: false,
            history: true,
            order: MoveOrder::Auto,
            max_ply: DEFAULT_MAX_PLY,
            first_cap: DEFAULT_FIRST_CAP,
            stack_bytes: STACK_BYTES,
            defer_depth: None,
            huge_pages: true,
            lean: true,
            driver_budget_min: DRIVER_BUDGET_MIN,
            history_table: true,
            symmetry: true,
        }
    }
}

/// The index of a move before `children[j]` that is its twin under the game's symmetry
/// ([`Rules::twin_move`]; a move that is its own image, a pass, has none). Only meaningful
/// where the state of `children` is symmetric ([`Rules::is_symmetric`]).
fn earlier_twin<R: Rules>(rules: &R, children: &[Child<R>], j: usize) -> Option<usize> {
    let t = rules.twin_move(&children[j].mv);
    if t == children[j].mv {
        return None;
    }
    children[..j].iter().position(|e| e.mv == t)
}

/// Default of [`SolverOptions::max_ply`]: 2^21 plies (about 2 GB of path and stack).
pub const DEFAULT_MAX_PLY: usize = 1 << 21;

/// Plies below a null-window test's root within which helper threads perturb the order
/// of the ordinary moves (Lazy SMP). Deeper, every thread keeps the main order: measured
/// in docs/performance.md (Session 8: threads).
const PERTURB_DEPTH: usize = 8;

/// The default of [`SolverOptions::defer_depth`]: 16 plies for every move order. Deeper,
/// the threads search alone: no busy table, and in games that cannot repeat (Kalah) the
/// lean path. Against every depth for Irving's order (Kalah(6,4): the same nodes, 15% less
/// CPU) and 4 plies for captures first (a 2x5 32-seed start: 130 M nodes at two threads
/// against 208 M); docs/performance.md, Session 13: threads.
const DEFER_DEPTH: usize = 16;

/// Default of [`SolverOptions::first_cap`].
pub const DEFAULT_FIRST_CAP: usize = 4;

/// The search was stopped before it finished (Ctrl-C, or a path deeper than
/// [`SolverOptions::max_ply`]); the bounds proven so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}: lo in [{}, {}], hi in [{}, {}]",
    if *too_deep { "stopped, a path deeper than --max-ply was needed" } else { "interrupted" },
    crate::value::fmt_score(lo.0), crate::value::fmt_score(lo.1),
    crate::value::fmt_score(hi.0), crate::value::fmt_score(hi.1))]
pub struct Interrupted {
    /// `lo` is proven to lie in this closed range.
    pub lo: (Score, Score),
    /// `hi` is proven to lie in this closed range.
    pub hi: (Score, Score),
    /// Stopped because a path would have been deeper than [`SolverOptions::max_ply`]
    /// (else by the stop flag).
    pub too_deep: bool,
}

/// Where the MTD(f) driver of [`Solver::bounds`] stands: the proven ranges of `lo` and
/// `hi` (RULES.md V2) for the side to move, and the threshold of the next test.
///
/// Read it while a search runs with [`Solver::progress`] (for a checkpoint); start a
/// search from it with [`Solver::resume_from`]. The driver finds `lo` first (game L, while
/// `lo.0 < lo.1`), then `hi` (game H); `lo.0 == lo.1 && hi.0 == hi.1` means the bounds are
/// done (the best moves and the principal variation may still be under way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// `lo` is proven to lie in this closed range.
    pub lo: (Score, Score),
    /// `hi` is proven to lie in this closed range.
    pub hi: (Score, Score),
    /// The threshold the driver tests next in the unfinished game (any value works: it
    /// is clamped into the range; resuming with the same one repeats the interrupted test,
    /// whose subtrees the table already holds).
    pub guess: Score,
}

impl Progress {
    /// Nothing proven yet, for a state with `seeds` on the board: `lo` in `[-inf, S]`,
    /// `hi` in `[-S, +inf]`, first guess 0.
    pub fn start(seeds: Score) -> Progress {
        Progress {
            lo: (NEG_INF, seeds),
            hi: (-seeds, POS_INF),
            guess: 0,
        }
    }

    /// Whether the bounds are done (both ranges are single values).
    pub fn is_done(&self) -> bool {
        self.lo.0 == self.lo.1 && self.hi.0 == self.hi.1
    }

    /// Whether the ranges are consistent for a state with `seeds` on the board: each
    /// range ordered, `lo` in `{-inf} ∪ [-S, S]`, `hi` in `[-S, S] ∪ {+inf}`, and `hi`'s
    /// range not below a proven `lo`. (A consistent range is not a proven one: only the
    /// search that wrote it proves it.)
    pub fn is_consistent(&self, seeds: Score) -> bool {
        let lo_ok = |v: Score| v == NEG_INF || (-seeds..=seeds).contains(&v);
        let hi_ok = |v: Score| v == POS_INF || (-seeds..=seeds).contains(&v);
        self.lo.0 <= self.lo.1
            && self.hi.0 <= self.hi.1
            && lo_ok(self.lo.0)
            && lo_ok(self.lo.1)
            && hi_ok(self.hi.0)
            && hi_ok(self.hi.1)
            && self.hi.1 >= self.lo.0
            && (self.lo.0 < self.lo.1 || self.hi.0 >= self.lo.0.max(-seeds))
    }
}

/// The exact solution of a position (RULES.md V1-V4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution<R: Rules> {
    /// Proven ranges of `(lo, hi)` for the side to move (V2): single values after
    /// [`Solver::solve_with_bounds`]; after [`Solver::solve`] only as narrow as the margin
    /// needs (see [`Solution::bounds`]).
    pub ranges: BoundRanges,
    /// Exact final margin for the side to move, captured seeds included (V3).
    pub margin: i32,
    /// Win, draw or loss for the side to move.
    pub result: GameResult,
    /// Every move reaching the margin with the root counted as played (V4), in move order.
    pub best_moves: Vec<R::Move>,
    /// A principal variation: best moves until the game ends or repeats.
    pub pv: Vec<R::Move>,
    /// Nodes searched for this solution.
    pub nodes: u64,
}

impl<R: Rules> Solution<R> {
    /// `(lo, hi)` when both are known exactly (always after
    /// [`Solver::solve_with_bounds`]).
    pub fn bounds(&self) -> Option<Bounds> {
        self.ranges.bounds()
    }
}

/// The exact solver for one game, generic over the rules.
///
/// # Examples
///
/// The example of RULES.md V4:
///
/// ```
/// use giuthi::Position;
/// use giuthi::rules::giuthi::Giuthi;
/// use giuthi::solve::alphabeta::{Solver, SolverOptions};
/// use giuthi::value::POS_INF;
/// let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
/// let solver = Solver::new(pos.rules.clone(), SolverOptions::default());
/// let sol = solver.solve_with_bounds(&pos)?;
/// let b = sol.bounds().expect("exact");
/// assert_eq!((b.lo, b.hi), (3, POS_INF));
/// assert_eq!(sol.margin, 1);
/// let best: Vec<String> = sol.best_moves.iter().map(|m| m.to_string()).collect();
/// assert_eq!(best, ["5cw"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Solver<R: Rules> {
    rules: R,
    tt: Table,
    oracle: Option<Arc<dyn EndgameOracle<R>>>,
    /// The oracle's [`EndgameOracle::covers_up_to`]: states with more seeds are not probed.
    oracle_max: Option<u32>,
    opts: SolverOptions,
    stop: Arc<AtomicBool>,
    nodes: AtomicU64,
    status: Mutex<String>,
    /// The history heuristic's table, carried from one null-window test to the next.
    history: Mutex<History>,
    /// The driver's proven ranges and the state they are of (`None` before the first
    /// [`Solver::bounds`]).
    progress: Mutex<Option<(R::State, Progress)>>,
    /// Where the next [`Solver::bounds`] starts (taken by it).
    resume: Mutex<Option<Progress>>,
    /// Driver tests left before the stop flag is raised (0: no such limit).
    stop_after_tests: AtomicU64,
    /// A node count (of [`Solver::nodes`]) at which the search under way gives up, for the
    /// budgeted tests of the best-move phase (`u64::MAX`: none).
    node_limit: AtomicU64,
    /// MTD(f) tests of the driver cut by their budget ([`Solver::driver_cuts`]).
    driver_cuts: AtomicU64,
    /// The search under way gave up at `node_limit`.
    limit_hit: AtomicBool,
    /// A node count at which the stop flag is raised ([`Solver::stop_after_nodes`]).
    stop_at_nodes: AtomicU64,
    /// A node count at which the searches of [`Solver::within_budget`] give up
    /// (`u64::MAX`: none).
    budget_at: AtomicU64,
    /// The search under way gave up at `budget_at`.
    budget_hit: AtomicBool,
    /// The path cap of the test under way.
    cap_now: AtomicUsize,
    /// A test needed a path deeper than [`SolverOptions::max_ply`].
    too_deep: AtomicBool,
    /// Null-window tests run again with a deeper cap (statistics).
    deepened: AtomicU64,
    /// The nodes some thread is searching (threads > 1 only; busy.rs).
    busy: BusyTable,
    /// Children deferred by the threads' first passes (statistics, [`Solver::deferrals`]).
    deferrals: AtomicU64,
    /// The history game's table and its history ([`Solver::history_table`]).
    hist_tt: Mutex<Option<HistoryTable<R>>>,
}

/// The played states of a history and the table of their game
/// ([`Solver::history_table`]).
type HistoryTable<R> = (Vec<<R as Rules>::State>, Arc<Table>);

/// History heuristic scores by side and [`Rules::history_slot`]: how much search the
/// move's cutoffs saved so far (move ordering only).
type History = [[[u32; HISTORY_SLOTS]; 2]; 2];

impl<R: Rules> Solver<R> {
    /// A solver with an empty table.
    ///
    /// # Panics
    ///
    /// When the table cannot be allocated ([`Solver::try_new`] reports it instead).
    pub fn new(rules: R, opts: SolverOptions) -> Solver<R> {
        let tt =
            Table::try_new_paged(opts.hash_mb, opts.huge_pages).unwrap_or_else(|e| panic!("{e}"));
        Solver::with_parts(rules, opts, tt)
    }

    fn with_parts(rules: R, opts: SolverOptions, tt: Table) -> Solver<R> {
        Solver {
            rules,
            tt,
            oracle: None,
            oracle_max: None,
            stop: Arc::new(AtomicBool::new(false)),
            nodes: AtomicU64::new(0),
            status: Mutex::new(String::new()),
            history: Mutex::new([[[0; HISTORY_SLOTS]; 2]; 2]),
            progress: Mutex::new(None),
            resume: Mutex::new(None),
            stop_after_tests: AtomicU64::new(0),
            node_limit: AtomicU64::new(u64::MAX),
            driver_cuts: AtomicU64::new(0),
            limit_hit: AtomicBool::new(false),
            stop_at_nodes: AtomicU64::new(u64::MAX),
            budget_at: AtomicU64::new(u64::MAX),
            budget_hit: AtomicBool::new(false),
            cap_now: AtomicUsize::new(0),
            too_deep: AtomicBool::new(false),
            deepened: AtomicU64::new(0),
            busy: BusyTable::new(),
            deferrals: AtomicU64::new(0),
            hist_tt: Mutex::new(None),
            opts,
        }
    }

    /// A solver with an empty table, as [`Solver::new`], but reporting a table that
    /// cannot be allocated instead of panicking.
    ///
    /// # Errors
    ///
    /// [`TableAllocError`](super::tt::TableAllocError) when the memory for the table
    /// cannot be had.
    pub fn try_new(rules: R, opts: SolverOptions) -> Result<Solver<R>, super::tt::TableAllocError> {
        let tt = Table::try_new_paged(opts.hash_mb, opts.huge_pages)?;
        Ok(Solver::with_parts(rules, opts, tt))
    }

    /// Raises the stop flag once `n` more null-window tests of the MTD(f) driver
    /// ([`Solver::bounds`]) have been answered (0: never), as Ctrl-C would: the next test
    /// is then interrupted. With one thread the point of interruption is reproducible,
    /// which is what tests of [`Solver::resume_from`] need.
    pub fn stop_after_tests(self, n: u64) -> Solver<R> {
        self.stop_after_tests.store(n, Ordering::Relaxed);
        self
    }

    /// Raises the stop flag, as Ctrl-C would, once the solver has searched `n` nodes in
    /// all (checked every 4,096 nodes of a thread, so reproducible with one thread): a
    /// node budget for tests of what a solve costs, which fail instead of hanging.
    pub fn stop_after_nodes(self, n: u64) -> Solver<R> {
        self.stop_at_nodes.store(n, Ordering::Relaxed);
        self
    }

    /// Runs `f` (searches of this solver: [`Solver::solve`], [`Solver::analyze`], ...) with
    /// every search given up once the solver has searched `budget` more nodes (checked
    /// every 4,096 nodes of a thread). The stop flag is not touched, so a budget is not a
    /// Ctrl-C and a Ctrl-C still stops `f`.
    ///
    /// Returns `Ok(Some(t))` when `f` answered within the budget, `Ok(None)` when the
    /// budget ran out first (the table keeps only what finished subtrees proved, so the
    /// work is not lost for the next search).
    ///
    /// # Errors
    ///
    /// `f`'s [`Interrupted`] when it was stopped otherwise (the stop flag, a path deeper
    /// than [`SolverOptions::max_ply`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::solve::alphabeta::{Solver, SolverOptions};
    /// use giuthi::Position;
    /// let pos: Position<giuthi::rules::kalah::Kalah> = "kalah 3,3,3,3/3,3,3,3 S 0,0".parse()?;
    /// let solver = Solver::new(pos.rules.clone(), SolverOptions::default());
    /// // Ten nodes do not solve the start; the table keeps what they proved.
    /// assert!(solver.within_budget(10, |s| s.solve(&pos))?.is_none());
    /// let sol = solver.within_budget(u64::MAX, |s| s.solve(&pos))?.expect("solved");
    /// assert_eq!(sol.margin, solver.solve(&pos)?.margin);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn within_budget<T>(
        &self,
        budget: u64,
        f: impl FnOnce(&Self) -> Result<T, Interrupted>,
    ) -> Result<Option<T>, Interrupted> {
        self.budget_hit.store(false, Ordering::Relaxed);
        self.budget_at
            .store(self.nodes().saturating_add(budget), Ordering::Relaxed);
        let r = f(self);
        self.budget_at.store(u64::MAX, Ordering::Relaxed);
        let hit = self.budget_hit.swap(false, Ordering::Relaxed);
        match r {
            Ok(t) => Ok(Some(t)),
            Err(e) if hit && !e.too_deep && !self.stop.load(Ordering::Relaxed) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// How many MTD(f) tests of the driver were cut by their node budget so far (each
    /// followed by a test at another threshold; see [`Solver::settle`], `# Method`).
    pub fn driver_cuts(&self) -> u64 {
        self.driver_cuts.load(Ordering::Relaxed)
    }

    /// Counts one answered driver test for [`Solver::stop_after_tests`].
    fn count_test(&self) {
        let left = self.stop_after_tests.load(Ordering::Relaxed);
        if left > 0 {
            self.stop_after_tests.store(left - 1, Ordering::Relaxed);
            if left == 1 {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Uses `tt` as the transposition table (a table read back by
    /// [`Table::read_from`]: its entries must have been proven under the same rules).
    pub fn with_table(mut self, tt: Table) -> Solver<R> {
        self.tt = tt;
        self
    }

    /// The transposition table (to save it: [`Table::write_to`] works while a search
    /// runs).
    pub fn table(&self) -> &Table {
        &self.tt
    }

    /// Starts the next [`Solver::bounds`] (and so [`Solver::solve`]) from `p` instead of
    /// from nothing.
    ///
    /// `p` must hold *proven* ranges for the state solved next (as read from
    /// [`Solver::progress`] of a search of the same state under the same rules): the
    /// driver does not re-prove them, so a range that is not a fact gives a wrong answer.
    /// A range that is not even consistent ([`Progress::is_consistent`]) is ignored.
    pub fn resume_from(self, p: Progress) -> Solver<R> {
        if let Ok(mut g) = self.resume.lock() {
            *g = Some(p);
        }
        self
    }

    /// The proven ranges of the running (or last) [`Solver::bounds`]; safe to call from
    /// another thread while it runs. Ranges proven for the same state by an earlier run
    /// of the driver are kept: a later run that needs less (the result-first
    /// [`Solver::settle`] of [`Solver::analyze`] after [`Solver::solve_with_bounds`])
    /// never widens them.
    pub fn progress(&self) -> Option<Progress> {
        self.progress.lock().ok().and_then(|g| g.map(|(_, p)| p))
    }

    /// The proven ranges of `s` so far, if the driver's last state was `s`.
    fn progress_of(&self, s: &R::State) -> Option<Progress> {
        self.progress
            .lock()
            .ok()
            .and_then(|g| g.filter(|(st, _)| st == s).map(|(_, p)| p))
    }

    /// Records `p` as proven for `s`, intersected with what was proven for `s` before.
    fn set_progress(&self, s: &R::State, p: Progress) {
        if let Ok(mut g) = self.progress.lock() {
            let p = match *g {
                Some((st, old)) if st == *s => Progress {
                    lo: (p.lo.0.max(old.lo.0), p.lo.1.min(old.lo.1)),
                    hi: (p.hi.0.max(old.hi.0), p.hi.1.min(old.hi.1)),
                    guess: p.guess,
                },
                _ => p,
            };
            *g = Some((*s, p));
        }
    }

    /// Consults `oracle` (exact `(lo, hi)` of the states it covers) during the search.
    pub fn with_oracle(mut self, oracle: Arc<dyn EndgameOracle<R>>) -> Solver<R> {
        self.oracle_max = oracle.covers_up_to();
        self.oracle = Some(oracle);
        self
    }

    /// Shares `stop` as the flag that stops the search (set it from a Ctrl-C handler).
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Solver<R> {
        self.stop = stop;
        self
    }

    /// The flag that stops the search (set it from a Ctrl-C handler).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Nodes searched so far (all threads, all solves of this solver).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// A one-line description of the bound being tested (for a progress display).
    pub fn status(&self) -> String {
        self.status.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Empties the transposition table (and drops the history game's table).
    pub fn clear(&self) {
        self.tt.clear();
        if let Ok(mut h) = self.hist_tt.lock() {
            *h = None;
        }
    }

    /// The table of the game whose played states are `history` (the tests of root moves,
    /// V4, and of the principal variation's moves), shared by the strict searches with
    /// that history: its entries are bounds on values in that game (a played state ends
    /// it as a repetition), so unlike positional entries they answer both ways there
    /// (docs/solver.md, Best moves). Emptied when the history changes; a fresh table when
    /// another search still holds the old one. [`HIST_TABLE_DIVISOR`] of the main table,
    /// between 1 and [`HIST_TABLE_MAX_MB`] MB, on 4 KB pages. `None` when it cannot be
    /// allocated (strict mode then uses positional bounds one way only, as before).
    fn history_table(&self, history: &[R::State]) -> Option<Arc<Table>> {
        let mut slot = self.hist_tt.lock().ok()?;
        if let Some((h, t)) = slot.as_ref() {
            if h.as_slice() == history {
                return Some(Arc::clone(t));
            }
        }
        let reuse = slot
            .take()
            .map(|(_, t)| t)
            .filter(|t| Arc::strong_count(t) == 1);
        let t = match reuse {
            Some(t) => {
                t.clear();
                t
            }
            None => {
                let mb = ((self.tt.size_bytes() / HIST_TABLE_DIVISOR) >> 20)
                    .clamp(1, HIST_TABLE_MAX_MB) as usize;
                Arc::new(Table::try_new_paged(mb, false).ok()?)
            }
        };
        *slot = Some((history.to_vec(), Arc::clone(&t)));
        Some(t)
    }

    fn set_status(&self, s: String) {
        if let Ok(mut g) = self.status.lock() {
            *g = s;
        }
    }

    /// Runs one null-window test on every thread with path cap `cap` (cut nodes scored
    /// for the bad side as the worst outcome, or the best when `optimistic`); the first
    /// thread to finish answers `(ok, v, fact)`, `fact` saying whether the answer holds in
    /// the uncapped game.
    ///
    /// `history` are the states already played before `s` (their repetition ends the game);
    /// `target` is either the node `s` itself with threshold `x`, or (`via`) a child of the
    /// last history state reached by a move capturing `k`, tested in the parent's frame.
    fn run_once(
        &self,
        history: &[R::State],
        job: &Job<R>,
        bad: Side,
        cap: usize,
        optimistic: bool,
    ) -> Option<(bool, Score, bool)> {
        // A spent budget of `within_budget` holds for every test after the one that spent
        // it (a test shorter than a flush would otherwise run to its end).
        if self.budget_hit.load(Ordering::Relaxed) {
            return None;
        }
        let threads = self.opts.threads.max(1);
        let hist_tt = if self.opts.history_table && !history.is_empty() && self.rules.can_repeat() {
            self.history_table(history)
        } else {
            None
        };
        let hist_tt = hist_tt.as_deref();
        let done = AtomicBool::new(false);
        let answer: Mutex<Option<(bool, Score, bool)>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for id in 0..threads {
                let (done, answer) = (&done, &answer);
                let work = move |stack_bytes: usize| {
                    let mut w = Worker::new(self, id, history, hist_tt, done);
                    w.cap = cap;
                    w.optimistic = optimistic;
                    w.stack_room = stack_bytes.saturating_sub(STACK_SPARE);
                    let r = w.job(job, bad);
                    w.flush();
                    if id == 0 {
                        if let Ok(mut h) = self.history.lock() {
                            *h = w.history;
                        }
                    }
                    if let Some(r) = r {
                        if let Ok(mut a) = answer.lock() {
                            if a.is_none() {
                                *a = Some(r);
                            }
                        }
                        done.store(true, Ordering::Relaxed);
                    }
                };
                // A path can be as long as a seed layer has states: a deep stack (only the
                // pages touched are committed). Where the address space is limited (ulimit
                // -v), a smaller stack; a helper that cannot start is left out, and the
                // main search runs on this thread if no thread can start at all.
                let stack = self.opts.stack_bytes;
                let spawned = [stack, stack >> 3, stack >> 7].iter().any(|&bytes| {
                    std::thread::Builder::new()
                        .stack_size(bytes)
                        .spawn_scoped(scope, move || work(bytes))
                        .is_ok()
                });
                if !spawned && id == 0 {
                    work(CALLER_STACK_BYTES);
                }
            }
        });
        answer.into_inner().ok().flatten()
    }

    /// Runs one null-window test to a fact: first with the cut nodes at the path cap
    /// scored against the bad side, then for it; when neither settles the test, again
    /// with a cap twice as deep ([`SolverOptions::max_ply`]). `None` when stopped or
    /// when a path would have to be deeper than `max_ply` ([`Solver::too_deep`]).
    fn run(&self, history: &[R::State], job: Job<R>, bad: Side) -> Option<(bool, Score)> {
        let max = self.opts.max_ply.max(1);
        // Games that cannot repeat have paths no longer than the game: no cap (a cap only
        // cost nodes on Kalah, docs/solver.md).
        let mut cap = if self.rules.can_repeat() {
            self.opts.first_cap.clamp(1, max)
        } else {
            max
        };
        loop {
            self.cap_now.store(cap, Ordering::Relaxed);
            let (ok, v, fact) = self.run_once(history, &job, bad, cap, false)?;
            if fact {
                return Some((ok, v));
            }
            let (ok, v, fact) = self.run_once(history, &job, bad, cap, true)?;
            if fact {
                return Some((ok, v));
            }
            self.deepened.fetch_add(1, Ordering::Relaxed);
            if cap >= max {
                self.too_deep.store(true, Ordering::Relaxed);
                return None;
            }
            cap = cap.saturating_mul(2).min(max);
        }
    }

    /// Whether a search stopped because a path had to be deeper than
    /// [`SolverOptions::max_ply`] (the bounds proven so far are still facts).
    pub fn too_deep(&self) -> bool {
        self.too_deep.load(Ordering::Relaxed)
    }

    /// The path cap of the null-window test under way (plies; for a progress display);
    /// `None` before the first test and in games that cannot repeat (not capped).
    pub fn current_cap(&self) -> Option<usize> {
        match self.cap_now.load(Ordering::Relaxed) {
            0 => None,
            _ if !self.rules.can_repeat() => None,
            c => Some(c),
        }
    }

    /// How many children the threads' first passes deferred so far because another
    /// thread was searching them ([`SolverOptions::defer_depth`]; statistics, 0 with one
    /// thread).
    pub fn deferrals(&self) -> u64 {
        self.deferrals.load(Ordering::Relaxed)
    }

    /// How many null-window tests were run again with a deeper cap so far.
    pub fn deepened(&self) -> u64 {
        self.deepened.load(Ordering::Relaxed)
    }

    /// Whether the positional value of `s` for its mover is `>= x` in the game whose bad
    /// side is `bad`, with a fail-soft bound; `None` when stopped.
    fn test_node(
        &self,
        history: &[R::State],
        s: &R::State,
        x: Score,
        bad: Side,
    ) -> Option<(bool, Score)> {
        self.run(history, Job::Node(*s, x), bad)
    }

    /// `(lo, hi)` of a state for the side to move (V2), both exact, by MTD(f) in the two
    /// repetition games: `lo` first (guess 0), then `hi >= lo` (guess `lo`: one failing
    /// test usually proves `hi == lo`). Starts from the ranges given to
    /// [`Solver::resume_from`], if any; [`Solver::progress`] follows the ranges as they
    /// narrow.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the stop flag was raised or a path deeper than
    /// [`SolverOptions::max_ply`] was needed, with the bounds proven so far.
    pub fn bounds(&self, s: &R::State) -> Result<Bounds, Interrupted> {
        let r = self.drive(s, None)?;
        Ok(r.bounds().expect("the full driver ends with exact bounds"))
    }

    /// The result first: ranges of `lo` and `hi` (V2) just narrow enough to decide the
    /// exact margin `d + clamp(-d, lo, hi)` (V3) of a state whose mover has captured `d`
    /// seeds more than the opponent ([`BoundRanges::margin`] is then `Some`).
    ///
    /// # Method
    ///
    /// Write `t = -d` (what a repetition pays, as a future margin). Since `lo <= hi`:
    ///
    /// - if `lo >= t`, then `clamp(t, lo, hi) = lo` and the margin is `d + lo`: `lo` is
    ///   needed exactly, `hi` not at all;
    /// - if `lo < t <= hi`, then `clamp(t, lo, hi) = t` and the margin is `d + t = 0` (a
    ///   draw): neither is needed beyond these two facts;
    /// - if `hi < t`, then `clamp(t, lo, hi) = hi` and the margin is `d + hi`: `hi` is
    ///   needed exactly, `lo` only as `lo <= hi`.
    ///
    /// So the driver first runs the null-window test "`lo >= t`?" in game L; on success it
    /// finishes `lo` by MTD(f) in `[t, S]`. On failure it runs "`hi >= t`?" in game H; on
    /// success the margin is 0; on failure it finishes `hi` by MTD(f) below `t`. Each step
    /// is chosen from the proven ranges alone, so a search resumed from
    /// [`Solver::resume_from`] goes on where it stopped. In games that cannot repeat
    /// (`lo == hi`) the value is needed exactly anyway: only game L is searched, as by
    /// [`Solver::bounds`].
    ///
    /// In a game that can repeat, a test's cost can depend on its threshold by orders of
    /// magnitude. So each MTD(f) test (not the tests at `t`, whose threshold is the
    /// question) runs under a node budget, [`SolverOptions::driver_budget_min`] or 16
    /// times the driver's nodes so far; if it is cut, a test at another threshold (the
    /// middle of the range, or an end) gets the same budget, and if that is cut too, the
    /// guess runs unbudgeted. Any answer is a proven bound and narrows the range; the
    /// finished subtrees of a cut test stay in the table (docs/performance.md,
    /// Session 21).
    ///
    /// For the 2x6x4 start (a draw, `lo <= 0 <= hi`) this skips the search that took `lo`
    /// from 0 down to -10.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the stop flag was raised or a path deeper than
    /// [`SolverOptions::max_ply`] was needed, with the ranges proven so far.
    pub fn settle(&self, s: &R::State, d: i32) -> Result<BoundRanges, Interrupted> {
        let seeds = self.rules.seeds_on_board(s) as i32;
        // Outside [-S, S] a threshold is equivalent to -S - 1 or S + 1 (the finite values
        // lie in [-S, S]); the clamp keeps it far from the infinities.
        let t = (-d).clamp(-seeds - 1, seeds + 1) as Score;
        self.drive(s, Some(t))
    }

    /// The driver behind [`Solver::bounds`] (`t` = `None`: both bounds exact) and
    /// [`Solver::settle`] (`t` = the repetition's pay-off `-d`: only what decides the
    /// margin). One null-window test per step; the step is a function of the proven
    /// ranges (and the last guess).
    fn drive(&self, s: &R::State, t: Option<Score>) -> Result<BoundRanges, Interrupted> {
        let mover = self.rules.turn(s);
        let seeds = self.rules.seeds_on_board(s) as Score;
        let repeat = self.rules.can_repeat();
        let fmt = crate::value::fmt_score;
        let resume = self
            .resume
            .lock()
            .ok()
            .and_then(|mut g| g.take())
            .filter(|p| p.is_consistent(seeds));
        // Without a resume, what an earlier run proved for this state (if it was the last).
        let p0 = resume
            .or_else(|| self.progress_of(s))
            .unwrap_or(Progress::start(seeds));
        let (mut lo, mut hi) = (p0.lo, p0.hi);
        if !repeat && lo.0 == lo.1 {
            hi = lo;
        }
        let mut g = p0.guess;
        // The game of the last test (L: true): a new game starts from its own guess.
        let mut last_l = lo.0 < lo.1;
        // With no repetition lo == hi: game L to the exact value.
        let t = if repeat { t } else { None };
        // The smallest possible value above `a`; bounds moved onto possible values.
        let next = |a: Score| match a {
            NEG_INF => -seeds,
            _ if a >= seeds => POS_INF,
            _ => a + 1,
        };
        let up = |l: Score| if l > seeds { POS_INF } else { l };
        let down = |u: Score| {
            if u < -seeds {
                NEG_INF
            } else if u > seeds && u < POS_INF {
                seeds
            } else {
                u
            }
        };
        // The threshold `t` splits the range (the test at `t` decides which side).
        let splits = |r: (Score, Score), t: Score| r.0 < t && t <= r.1;
        // Where an MTD(f) step stands (see below): 0, the guess under a node budget;
        // 1, cut: another threshold under the same budget; 2, cut again: the guess
        // without a budget.
        let mut phase = 0u8;
        let n_start = self.nodes();
        loop {
            let lo_done = lo.0 == lo.1;
            let hi_done = hi.0 == hi.1;
            // (game L?, threshold to test, or None for the MTD(f) guess)
            let step: Option<(bool, Option<Score>)> = match t {
                None if !lo_done => Some((true, None)),
                None if repeat && !hi_done => Some((false, None)),
                None => None,
                Some(t) if splits(lo, t) => Some((true, Some(t))),
                // lo >= t: the margin is d + lo.
                Some(t) if lo.0 >= t => (!lo_done).then_some((true, None)),
                // lo < t from here on.
                Some(t) if splits(hi, t) => Some((false, Some(t))),
                // lo < t <= hi: a draw.
                Some(t) if hi.0 >= t => None,
                // hi < t: the margin is d + hi.
                Some(_) => (!hi_done).then_some((false, None)),
            };
            let Some((is_l, at)) = step else { break };
            if is_l != last_l && !is_l {
                // Game H after game L: hi >= lo, and most often hi == lo.
                g = lo.0.max(-seeds);
            }
            last_l = is_l;
            let (lower, upper) = if is_l { lo } else { hi };
            let guess_x = at.unwrap_or(g).clamp(next(lower), upper);
            // In a game that can repeat, a test's cost can depend on its threshold by
            // orders of magnitude (one Giuthi endgame: `hi >= -5` 59 M nodes, `hi >= -6`
            // 452 K). So an MTD(f) step runs under a node budget; when it is cut, a test
            // at the middle of the range (at an end, if the middle is the guess) gets the
            // same budget, and when that is cut too, the guess runs to the end. Every
            // answer is a proven bound, whichever threshold it came from; the finished
            // subtrees of a cut test stay in the table.
            let mid_x = (at.is_none() && repeat)
                .then(|| {
                    // The middle, or an end when the middle is the guess.
                    let (a, b) = (next(lower).max(-seeds), upper.min(seeds));
                    let m = a + (b - a + 1) / 2;
                    let other = if m != guess_x {
                        m
                    } else if a != guess_x {
                        a
                    } else {
                        b
                    };
                    (a < b && other != guess_x).then_some(other)
                })
                .flatten();
            let x = match mid_x {
                Some(m) if phase == 1 => m,
                _ => guess_x,
            };
            self.set_progress(s, Progress { lo, hi, guess: x });
            self.set_status(if is_l {
                format!("lo in [{}, {}], testing {}", fmt(lo.0), fmt(lo.1), fmt(x))
            } else {
                format!(
                    "{}, hi in [{}, {}], testing {}",
                    crate::value::fmt_range("lo", lo),
                    fmt(hi.0),
                    fmt(hi.1),
                    fmt(x)
                )
            });
            let bad = if is_l { mover } else { mover.opponent() };
            let budget = self.opts.driver_budget_min.max(
                self.nodes()
                    .saturating_sub(n_start)
                    .saturating_mul(DRIVER_BUDGET_FACTOR),
            );
            let answer = if mid_x.is_some() && phase < 2 {
                match self.within(budget, || self.test_node(&[], s, x, bad)) {
                    Some(Some(r)) => Some(r),
                    Some(None) => {
                        self.driver_cuts.fetch_add(1, Ordering::Relaxed);
                        phase += 1;
                        continue;
                    }
                    None => None,
                }
            } else {
                self.test_node(&[], s, x, bad)
            };
            phase = 0;
            let (lower, upper) = match answer {
                Some((true, v)) => {
                    let l = up(v.clamp(x, upper));
                    g = l;
                    (l, upper)
                }
                Some((false, v)) => {
                    let u = down(v.clamp(lower, x - 1));
                    g = u;
                    (lower, u)
                }
                None => return Err(self.stopped_with(lo, hi)),
            };
            self.count_test();
            if is_l {
                lo = (lower, upper);
                // hi >= lo; with no repetition hi == lo.
                hi = if repeat { (hi.0.max(lower), hi.1) } else { lo };
            } else {
                hi = (lower, upper);
                // lo <= hi.
                lo = (lo.0, lo.1.min(upper));
            }
        }
        self.set_progress(s, Progress { lo, hi, guess: g });
        Ok(BoundRanges { lo, hi })
    }

    /// Whether a move reaches a final margin `>= target` for the mover of the last state
    /// of `history` (whose captured difference is `d`), every state of `history` counted
    /// as already played (V4).
    fn move_reaches(
        &self,
        history: &[R::State],
        child: &Child<R>,
        d: i32,
        target: i32,
    ) -> Option<bool> {
        self.move_bound(history, child, d, target).map(|r| r.0)
    }

    /// [`Solver::move_reaches`] with the bound the test proves, as a final margin: on
    /// success the move reaches at least the bound (`>= target`), on failure at most it
    /// (`< target`). The fail-soft bound of the move's test, in the game it was run in
    /// (docs/solver.md, Analyze), where that test decided; `target` itself otherwise.
    fn move_bound(
        &self,
        history: &[R::State],
        child: &Child<R>,
        d: i32,
        target: i32,
    ) -> Option<(bool, i32)> {
        let root = history.last().expect("a root");
        let mover = self.rules.turn(root);
        // Future gain y needed after the move (k captured by it): y = target - d - k; a
        // repetition pays c = -d - k (margin 0), and clamp(c, lo, hi) >= y iff hi >= y
        // and (c >= y or lo >= y): the game is chosen by whether c >= y, target <= 0.
        let bad = self.reach_game(history, target);
        // The move's test counts the capture `k` itself. Futility keeps |x| far below the
        // infinities; the clamp only guards the cast.
        let x = (target - d).clamp(-4096, 4096) as Score;
        let mover_bad = mover == bad;
        let repeats = self.rules.can_repeat();
        let bound =
            |(ok, v): (bool, Score)| (ok, margin_bound(d, target, repeats, mover_bad, ok, v));
        if !self.rules.can_repeat() {
            return self.run(history, Job::Move(*child, x), bad).map(bound);
        }
        // The test without the history first: it shares the table with every other
        // positional test, where strict mode can use it one way only. Played states are
        // extra repetition terminals, against the bad side: a success of the other side
        // and a failure of the bad side hold with them too (and so do their fail-soft
        // bounds: the extra terminals move the value away from the bad side only).
        let free = self.run(&[], Job::Move(*child, x), bad)?;
        if free.0 != mover_bad {
            return Some(bound(free));
        }
        let free = free.0;
        // Otherwise the answer stands when a return to any played state that can recur
        // (same seeds: no capture on the way, so the gain still needed there is `x`) is
        // on the same side of `x` when play goes on from it as when it ends the game
        // there: its positional value for the mover bounds any continuation from it the
        // right way (docs/solver.md, Best moves).
        let seeds = self.rules.seeds_on_board(&child.state);
        let mut same = true;
        for h in history
            .iter()
            .filter(|h| self.rules.seeds_on_board(h) == seeds)
        {
            // "Value of h for its mover >= t" must come out `want`.
            let (t, want) = if self.rules.turn(h) == mover {
                (x, !mover_bad)
            } else {
                (1 - x, mover_bad)
            };
            if self.run(&[], Job::Node(*h, t), bad)?.0 != want {
                same = false;
                break;
            }
        }
        if same {
            // The argument holds at `x` only: no bound beyond the target.
            return Some((free, if free { target } else { target - 1 }));
        }
        self.run(history, Job::Move(*child, x), bad).map(bound)
    }

    /// The exact final margin a move reaches for the mover (V4: `history`, the root last,
    /// counted as played), for a move known to reach at most `most` (a margin): the
    /// bisection runs below `most + 1` only.
    fn move_value_at_most(
        &self,
        history: &[R::State],
        child: &Child<R>,
        d: i32,
        most: i32,
    ) -> Option<i32> {
        let seeds = self.rules.seeds_on_board(&child.state) as i32;
        let k = child.captured as i32;
        let c = -d - k;
        // The future gain after the move lies in [-seeds, seeds] or is c.
        let (mut a, mut b) = (c.min(-seeds), c.max(seeds) + 1); // reaches a, not b
        b = b
            .min(most.saturating_sub(d + k).saturating_add(1))
            .max(a + 1);
        while b - a > 1 {
            let mid = a + (b - a) / 2;
            if self.move_reaches(history, child, d, d + k + mid)? {
                a = mid;
            } else {
                b = mid;
            }
        }
        Some(d + k + a)
    }

    /// Runs `f` (a search of this solver) with a budget of `budget` more nodes.
    /// `Some(Some(t))`: answered; `Some(None)`: the budget ran out (nothing unproven was
    /// kept: the table holds only what finished subtrees proved); `None`: stopped (Ctrl-C,
    /// `--max-ply`).
    fn within<T>(&self, budget: u64, f: impl FnOnce() -> Option<T>) -> Option<Option<T>> {
        self.limit_hit.store(false, Ordering::Relaxed);
        self.node_limit
            .store(self.nodes().saturating_add(budget), Ordering::Relaxed);
        let r = f();
        self.node_limit.store(u64::MAX, Ordering::Relaxed);
        let hit = self.limit_hit.swap(false, Ordering::Relaxed);
        match r {
            Some(t) => Some(Some(t)),
            // A search over the budget of `within_budget` is stopped, not over this one.
            None if hit
                && !self.stop.load(Ordering::Relaxed)
                && !self.too_deep()
                && !self.budget_hit.load(Ordering::Relaxed) =>
            {
                Some(None)
            }
            None => None,
        }
    }

    /// Which moves of the last state of `history` reach `margin` (its exact margin, V4),
    /// in the order of `children`; with `first_only`, stops at the first one found (the
    /// others come back `false` unless proven).
    ///
    /// In a game that cannot repeat ([`Rules::can_repeat`]), when every move is needed
    /// (not `first_only`), each move gets its one test at `margin`, unbudgeted: a value
    /// does not depend on the path there, so any proof that the move fails below `margin`
    /// also proves that it fails at `margin` (the smallest proof at `margin` is never the
    /// larger one), and the rounds would only repeat work (Kalah(5,5): the best moves took 105 M nodes in rounds, 67 M by
    /// single tests; docs/performance.md, Session 10).
    ///
    /// Several proofs settle a move, and their costs differ by orders of magnitude: the
    /// test "reaches `margin`?" ([`Solver::move_reaches`]), or, for a move that falls
    /// short, the move's exact value found from below (as [`Solver::analyze`] does: a
    /// failure just above the move's value can be far cheaper to prove than one at
    /// `margin`). They run round-robin over the unsettled moves with a node budget that
    /// doubles each round, so no move's hard proof holds up the others and each move costs
    /// at most about four times its cheapest proof (plus the rounds before it). Work cut
    /// by a budget is not lost: what its finished subtrees proved stays in the table.
    fn moves_reaching(
        &self,
        history: &[R::State],
        children: &[Child<R>],
        d: i32,
        margin: i32,
        first_only: bool,
    ) -> Option<Vec<bool>> {
        if !first_only && !self.rules.can_repeat() {
            return children
                .iter()
                .map(|c| self.move_reaches(history, c, d, margin))
                .collect();
        }
        if first_only {
            return self.first_reaching(history, children, d, margin);
        }
        // G11: a move with an earlier twin is answered by it ([`Solver::twins`]).
        let twins = self.twins(history, children);
        let mut known: Vec<Option<bool>> = vec![None; children.len()];
        let mut budget: u64 = BUDGET_START;
        loop {
            let mut open = false;
            for (i, c) in children.iter().enumerate() {
                if known[i].is_some() || twins[i].is_some() {
                    continue;
                }
                known[i] = self.within(budget, || self.move_reaches(history, c, d, margin))?;
                if known[i].is_none() {
                    known[i] = self
                        .within(budget, || self.move_value_at_most(history, c, d, margin))?
                        .map(|v| v >= margin);
                }
                open |= known[i].is_none();
            }
            if !open {
                return Some(
                    (0..children.len())
                        .map(|j| known[twins[j].unwrap_or(j)] == Some(true))
                        .collect(),
                );
            }
            budget = budget.saturating_mul(2);
        }
    }

    /// [`Solver::moves_reaching`] with `first_only`: the index of the first move of
    /// `children` found to reach `margin` (`None` inside: no move does, which a margin
    /// that is the position's exact one rules out), `None` when stopped.
    ///
    /// Only a success settles the question, so each round (budgets doubling from
    /// [`BUDGET_START`]) first runs the test "reaches `margin`?" of every open move, and
    /// only when none succeeded the proofs that a move falls short (its value from below,
    /// which drops the move from the later rounds). The caller puts the likeliest move
    /// first ([`Solver::likely_first`]); it gets [`FIRST_WEIGHT`] times the budget, so a
    /// right guess costs little more than its own proof, and a wrong one (a hard proof)
    /// holds up the others by at most that factor (docs/performance.md, Session 11).
    fn first_reaching(
        &self,
        history: &[R::State],
        children: &[Child<R>],
        d: i32,
        margin: i32,
    ) -> Option<Vec<bool>> {
        let found = |i: usize| Some((0..children.len()).map(|j| j == i).collect());
        // G11: a move with an earlier twin reaches `margin` exactly when the twin does
        // ([`Solver::twins`]): only the first of the two is tested.
        let mut falls_short: Vec<bool> = self
            .twins(history, children)
            .iter()
            .map(Option::is_some)
            .collect();
        let mut budget: u64 = BUDGET_START;
        loop {
            for (i, c) in children.iter().enumerate() {
                if falls_short[i] {
                    continue;
                }
                let b = if i == 0 {
                    budget.saturating_mul(FIRST_WEIGHT)
                } else {
                    budget
                };
                match self.within(b, || self.move_reaches(history, c, d, margin))? {
                    Some(true) => return found(i),
                    Some(false) => falls_short[i] = true,
                    None => {}
                }
            }
            for (i, c) in children.iter().enumerate() {
                if falls_short[i] {
                    continue;
                }
                match self.within(budget, || self.move_value_at_most(history, c, d, margin))? {
                    Some(v) if v >= margin => return found(i),
                    Some(_) => falls_short[i] = true,
                    None => {}
                }
            }
            if falls_short.iter().all(|f| *f) {
                return Some(vec![false; children.len()]);
            }
            budget = budget.saturating_mul(2);
        }
    }

    /// The indices of `children` (the moves of `s`, whose mover has captured `d` seeds
    /// more than the opponent) with the likeliest to reach a final margin `target` first:
    /// the move the table keeps as the one that proved the last lower bound of `s` in the
    /// game the tests of these moves use ([`Solver::reach_game`]), then the moves whose
    /// own entries prove positionally that they reach it, then the rest, each group in
    /// move order. Order only: every move is still proven with its history.
    fn likely_first(
        &self,
        history: &[R::State],
        s: &R::State,
        d: i32,
        target: i32,
        children: &[Child<R>],
    ) -> Vec<usize> {
        let bad = self.reach_game(history, target);
        let hint = self
            .tt
            .probe(self.rules.key(s), self.rules.turn(s) == bad)
            .and_then(|e| e.best)
            .map(usize::from)
            .filter(|&i| i < children.len());
        let x = (target - d).clamp(-4096, 4096) as Score;
        let proven = |c: &Child<R>| {
            let (xc, invert) = child_threshold(x, c);
            let cbad = self.rules.turn(&c.state) == bad;
            self.tt
                .probe(self.rules.key(&c.state), cbad)
                .is_some_and(|e| if invert { e.upper < xc } else { e.lower >= xc })
        };
        let mut order: Vec<usize> = hint.into_iter().collect();
        order.extend((0..children.len()).filter(|&i| Some(i) != hint && proven(&children[i])));
        let rest: Vec<usize> = (0..children.len()).filter(|i| !order.contains(i)).collect();
        order.extend(rest);
        order
    }

    /// The bad side of the repetition game in which [`Solver::move_reaches`] tests the
    /// moves of the last state of `history` against a final margin `target`: the
    /// opponent's when a repetition (margin 0) would reach `target`, the mover's
    /// otherwise; in a game that cannot repeat, the first state's mover (sharing the
    /// entries of [`Solver::bounds`], game L).
    fn reach_game(&self, history: &[R::State], target: i32) -> Side {
        let mover = self.rules.turn(history.last().expect("a root"));
        if !self.rules.can_repeat() {
            self.rules.turn(&history[0])
        } else if target <= 0 {
            mover.opponent()
        } else {
            mover
        }
    }

    /// Solves a position, the result first (V3): the margin and win/draw/loss from the
    /// ranges of `lo` and `hi` that decide it ([`Solver::settle`]), then the best moves
    /// (V4) and a principal variation. `lo` and `hi` are exact only where the margin
    /// needed them ([`Solution::bounds`]; [`Solver::solve_with_bounds`] finds both).
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the stop flag was raised or a path deeper than
    /// [`SolverOptions::max_ply`] was needed.
    pub fn solve(&self, pos: &Position<R>) -> Result<Solution<R>, Interrupted> {
        let start_nodes = self.nodes();
        let ranges = self.settle(&pos.state, pos.captured_difference())?;
        self.finish(pos, ranges, start_nodes, true)
    }

    /// Solves a position as [`Solver::solve`], but proves only one best move: the
    /// returned [`Solution::best_moves`] holds the first move proven to reach the margin
    /// (V4; the table's move tried first, [`Solver::likely_first`]), not every one, and
    /// the principal variation starts with it. For `giuthi bestmove`, which prints one
    /// move: the other moves' proofs are the work it skips (docs/performance.md, Session
    /// 11).
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the stop flag was raised or a path deeper than
    /// [`SolverOptions::max_ply`] was needed.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::Position;
    /// use giuthi::rules::giuthi::Giuthi;
    /// use giuthi::solve::alphabeta::{Solver, SolverOptions};
    /// let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
    /// let solver = Solver::new(pos.rules.clone(), SolverOptions::default());
    /// let one = solver.solve_one_best(&pos)?;
    /// assert_eq!(one.margin, 1);
    /// assert_eq!(one.best_moves.len(), 1);
    /// assert!(solver.solve(&pos)?.best_moves.contains(&one.best_moves[0]));
    /// assert_eq!(one.pv.first(), one.best_moves.first());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve_one_best(&self, pos: &Position<R>) -> Result<Solution<R>, Interrupted> {
        let start_nodes = self.nodes();
        let ranges = self.settle(&pos.state, pos.captured_difference())?;
        self.finish(pos, ranges, start_nodes, false)
    }

    /// Solves a position with `lo` and `hi` both exact ([`Solver::bounds`]), then the
    /// margin, best moves and principal variation as [`Solver::solve`].
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the stop flag was raised or a path deeper than
    /// [`SolverOptions::max_ply`] was needed.
    pub fn solve_with_bounds(&self, pos: &Position<R>) -> Result<Solution<R>, Interrupted> {
        let start_nodes = self.nodes();
        let bounds = self.bounds(&pos.state)?;
        self.finish(pos, BoundRanges::exact(bounds), start_nodes, true)
    }

    /// The [`Interrupted`] of a stop with `lo` and `hi` proven to lie in these ranges.
    fn stopped_with(&self, lo: (Score, Score), hi: (Score, Score)) -> Interrupted {
        Interrupted {
            lo,
            hi,
            too_deep: self.too_deep(),
        }
    }

    /// Every move of `s` into `out`, or `false` when the stop flag came first (a Kiothi
    /// sowing of millions of laps asks it as it goes, K11): an exact answer needs all of
    /// them, and a deadline (`--movetime`'s exact share) or Ctrl-C must not wait for one.
    fn children_or_stop(&self, s: &R::State, out: &mut Vec<Child<R>>) -> bool {
        let stop = &self.stop;
        self.rules
            .children_until(s, out, &mut || stop.load(Ordering::Relaxed))
            == 0
    }

    /// For each of `children` (moves of the last state of `history`), the index of an
    /// earlier move of the list that is its twin under the game's symmetry (G11,
    /// [`Rules::is_symmetric`]) when every state of `history` is its own image: the two
    /// lead to mirror images with the mirrored (so the same) history, and have the same
    /// value, so a proof for the first settles both. `None` everywhere else.
    fn twins(&self, history: &[R::State], children: &[Child<R>]) -> Vec<Option<usize>> {
        let symmetric = self.opts.symmetry
            && !history.is_empty()
            && history.iter().all(|s| self.rules.is_symmetric(s));
        (0..children.len())
            .map(|j| {
                symmetric
                    .then(|| earlier_twin(&self.rules, children, j))
                    .flatten()
            })
            .collect()
    }

    /// The best moves (every one with `all_best`, else the first proven) and the
    /// principal variation of a position whose ranges decide the margin.
    fn finish(
        &self,
        pos: &Position<R>,
        ranges: BoundRanges,
        start_nodes: u64,
        all_best: bool,
    ) -> Result<Solution<R>, Interrupted> {
        let d = pos.captured_difference();
        let margin = ranges
            .margin(d)
            .expect("the driver ends with ranges that decide the margin");
        let interrupted = || self.stopped_with(ranges.lo, ranges.hi);
        self.set_status(format!("{ranges}, margin {margin:+}: best moves"));
        let mut children = Vec::new();
        if !self.children_or_stop(&pos.state, &mut children) {
            return Err(interrupted());
        }
        if !all_best {
            let order = self.likely_first(&[pos.state], &pos.state, d, margin, &children);
            children = order.iter().map(|&i| children[i]).collect();
        }
        let best = self
            .moves_reaching(&[pos.state], &children, d, margin, !all_best)
            .ok_or_else(interrupted)?;
        let best_moves: Vec<R::Move> = children
            .iter()
            .zip(&best)
            .filter(|(_, b)| **b)
            .map(|(c, _)| c.mv)
            .collect();
        self.set_status(format!("{ranges}, margin {margin:+}: principal variation"));
        let pv = self.pv(pos, margin, &best_moves).ok_or_else(interrupted)?;
        Ok(Solution {
            ranges,
            margin,
            result: GameResult::from_margin(margin),
            best_moves,
            pv,
            nodes: self.nodes() - start_nodes,
        })
    }

    /// The exact margin of every legal move (V4, the root counted as played), in move order.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the stop flag was raised or a path deeper than
    /// [`SolverOptions::max_ply`] was needed.
    pub fn analyze(&self, pos: &Position<R>) -> Result<Vec<(R::Move, i32)>, Interrupted> {
        self.analyze_with(pos, &mut |_, _| {})
    }

    /// [`Solver::analyze`], calling `settled(move, margin)` as each move's exact margin is
    /// proven (in the order they are settled, not move order; for progress).
    ///
    /// # Method
    ///
    /// The root's margin `M` first, by the result-first driver ([`Solver::settle`], as
    /// `solve`): no move reaches more, so each move's range starts at `[L, M]` (`L` the
    /// least margin it can have). Each move's first test is "reaches the top of its
    /// range?" (a best move is settled by it; the others fail, usually cheaply, and the
    /// fail-soft bound of the failure often lands near the value), then tests narrow the
    /// range by bisection, each moving its end to the test's fail-soft bound
    /// ([`Solver::move_bound`]). In a game that can repeat, the moves' tests run
    /// round-robin with a node budget that doubles each round (as the best moves of
    /// [`Solver::solve`]), so a move whose proof is hard does not hold up the others;
    /// a move whose test was cut by its budget switches between bisection and tests at
    /// the top of its range for the next round (a test's cost depends on its threshold
    /// by orders of magnitude, docs/solver.md, Analyze), and what the cut test's finished
    /// subtrees proved stays in the table. In a game that cannot repeat a value does not
    /// depend on the path: each move is settled in turn, unbudgeted.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the stop flag was raised or a path deeper than
    /// [`SolverOptions::max_ply`] was needed.
    pub fn analyze_with(
        &self,
        pos: &Position<R>,
        settled: &mut dyn FnMut(R::Move, i32),
    ) -> Result<Vec<(R::Move, i32)>, Interrupted> {
        let d = pos.captured_difference();
        let mut children = Vec::new();
        if !self.children_or_stop(&pos.state, &mut children) {
            return Err(self.stopped_with((NEG_INF, POS_INF), (NEG_INF, POS_INF)));
        }
        if children.is_empty() {
            return Ok(Vec::new());
        }
        let ranges = self.settle(&pos.state, d)?;
        let margin = ranges
            .margin(d)
            .expect("the driver ends with ranges that decide the margin");
        let interrupted = || self.stopped_with(ranges.lo, ranges.hi);
        let history = [pos.state];
        let mut known: Vec<MoveRange> = children
            .iter()
            .map(|c| MoveRange::start(&self.rules, c, d, margin))
            .collect();
        let status = |c: &Child<R>, r: &MoveRange| {
            self.set_status(format!(
                "{ranges}, margin {margin:+}: move {} in [{:+}, {:+}]",
                c.mv, r.lo, r.hi
            ))
        };
        // G11: a move with an earlier twin takes the twin's value ([`Solver::twins`]).
        let twins = self.twins(&history, &children);
        let mut settled = |i: usize, v: i32| {
            for (j, c) in children.iter().enumerate() {
                if j == i || twins[j] == Some(i) {
                    settled(c.mv, v);
                }
            }
        };
        if !self.rules.can_repeat() {
            // No path dependence: a budget would only repeat work (as `moves_reaching`).
            for (i, (c, r)) in children.iter().zip(known.iter_mut()).enumerate() {
                if twins[i].is_some() {
                    continue;
                }
                status(c, r);
                self.narrow_move(&history, c, d, r)
                    .ok_or_else(interrupted)?;
                settled(i, r.lo);
            }
        } else {
            // Moves whose range is one value from the start (a single legal move, say).
            for (i, r) in known.iter().enumerate() {
                if r.lo == r.hi && twins[i].is_none() {
                    settled(i, r.lo);
                }
            }
            let mut budget: u64 = BUDGET_START;
            loop {
                let mut open = false;
                for (i, (c, r)) in children.iter().zip(known.iter_mut()).enumerate() {
                    if r.lo == r.hi || twins[i].is_some() {
                        continue;
                    }
                    status(c, r);
                    match self.within(budget, || self.narrow_move(&history, c, d, r)) {
                        None => return Err(interrupted()),
                        Some(Some(())) => settled(i, r.lo),
                        Some(None) => {
                            open = true;
                            // The next round tries the other kind of test.
                            r.at_top = !r.at_top;
                        }
                    }
                }
                if !open {
                    break;
                }
                budget = budget.saturating_mul(2);
            }
        }
        Ok(children
            .iter()
            .enumerate()
            .map(|(j, c)| (c.mv, known[twins[j].unwrap_or(j)].lo))
            .collect())
    }

    /// Narrows `r`, the range of a root move's exact margin (V4), until it is one value:
    /// the first test at its top, then bisection (or tests at the top, after a budget cut
    /// a bisection test: [`MoveRange::at_top`]), each end moved to the test's fail-soft
    /// bound. `r` keeps what each finished test proved when a budget or the stop flag cuts
    /// the work short (`None`).
    fn narrow_move(
        &self,
        history: &[R::State],
        child: &Child<R>,
        d: i32,
        r: &mut MoveRange,
    ) -> Option<()> {
        while r.lo < r.hi {
            let t = if !r.top_tested || r.at_top {
                r.hi
            } else {
                // Upper middle: a success moves `lo` up to it, a failure `hi` below it.
                r.lo + (r.hi - r.lo + 1) / 2
            };
            let (ok, b) = self.move_bound(history, child, d, t)?;
            r.top_tested = true;
            if ok {
                r.lo = b.clamp(t, r.hi);
            } else {
                r.hi = b.clamp(r.lo, t - 1);
            }
        }
        Some(())
    }

    /// Follows best moves from `pos` (whose exact margin is `margin` and whose best moves
    /// are `best`), with the path played so far as history, until the game ends or a
    /// position repeats. Each step takes the first move proven to reach the target with
    /// that history (V4, G10) by the budgeted rounds of [`Solver::first_reaching`], the
    /// moves tried in the order of [`Solver::likely_first`]: the table's move first (the
    /// value tests usually proved it), so a step mostly costs the one test that verifies
    /// it.
    fn pv(&self, pos: &Position<R>, margin: i32, best: &[R::Move]) -> Option<Vec<R::Move>> {
        let root_mover = pos.turn();
        let mut history = vec![pos.state];
        let mut p = pos.clone();
        let mut line = Vec::new();
        let mut children = Vec::new();
        while line.len() < 1000 {
            if !self.children_or_stop(&p.state, &mut children) {
                return None;
            }
            if children.is_empty() {
                break;
            }
            let target = if p.turn() == root_mover {
                margin
            } else {
                -margin
            };
            let d = p.captured_difference();
            let chosen = match best.first() {
                // The root's best moves are known.
                Some(m) if line.is_empty() => children.iter().position(|c| c.mv == *m),
                _ => {
                    let order = self.likely_first(&history, &p.state, d, target, &children);
                    let ordered: Vec<Child<R>> = order.iter().map(|&i| children[i]).collect();
                    self.moves_reaching(&history, &ordered, d, target, true)?
                        .iter()
                        .position(|b| *b)
                        .map(|j| order[j])
                }
            };
            // A best move always exists; fall back to the first move if not (never seen).
            let c = children[chosen.unwrap_or(0)];
            line.push(c.mv);
            p = p.after(&c);
            if history.contains(&p.state) {
                break;
            }
            history.push(p.state);
        }
        Some(line)
    }
}

/// The default of [`SolverOptions::driver_budget_min`].
const DRIVER_BUDGET_MIN: u64 = 1 << 20;

/// The budget of an MTD(f) test of the driver, as a multiple of the nodes the driver
/// has searched so far (at least [`DRIVER_BUDGET_MIN`]).
const DRIVER_BUDGET_FACTOR: u64 = 16;

/// The first node budget of [`Solver::moves_reaching`] (doubled each round). Below the
/// 4,096 nodes between two looks at the limit it would mean nothing.
const BUDGET_START: u64 = 1 << 14;

/// How many times the round's budget the likeliest move gets in
/// [`Solver::first_reaching`] (docs/performance.md, Session 11).
const FIRST_WEIGHT: u64 = 16;

/// What one worker searches.
#[derive(Clone, Copy)]
enum Job<R: Rules> {
    /// Is the node's value `>= x`?
    Node(R::State, Score),
    /// Does the move (a child of the last history state) score `>= x` for its mover
    /// (future gain, its own capture included; repetition scored by the game)?
    Move(Child<R>, Score),
}

/// One thread's search state.
struct Worker<'a, R: Rules> {
    solver: &'a Solver<R>,
    rules: &'a R,
    id: usize,
    /// The states of the path: `(key, seeds on the board, state, previous entry of the
    /// same hash slot)`.
    path: Vec<(u64, u32, R::State, u32)>,
    /// For each slot of a hash of the keys, the newest path entry in that slot
    /// (`NO_ENTRY`: none): a repetition check follows this chain instead of scanning the
    /// whole path (which is what it cost in long seed-conserving stretches of Giuthi).
    /// `2^slot_bits` slots, grown with the path so that chains stay about 4 entries long
    /// (Giuthi paths inside one seed layer reach millions of states).
    last_in_slot: Vec<u32>,
    slot_bits: u32,
    base: usize,
    kids: Vec<Vec<Child<R>>>,
    /// Per depth: the children's sort keys, table keys and indices.
    order: Vec<Vec<(i64, u64, u8)>>,
    history: History,
    nodes: u64,
    unflushed: u64,
    /// Use a positional bound only where it also bounds the value with this history.
    strict: bool,
    /// Seeds on the board in the last history state (the fewest of the history).
    history_seeds: u32,
    /// Strict mode: the table of the game with this history ([`Solver::history_table`]).
    hist_tt: Option<&'a Table>,
    /// Path cap: a node this many plies below the test's root is cut.
    cap: usize,
    /// Address of a local of [`Worker::job`]: where this worker's search frames start.
    stack_top: usize,
    /// Stack the search frames may use below `stack_top`; a node past it is cut.
    stack_room: usize,
    /// Cut nodes score as the best outcome for the bad side (else the worst).
    optimistic: bool,
    /// The move ordering scheme, resolved for the game.
    scheme: MoveOrder,
    /// Whether the game can repeat ([`Rules::can_repeat`]); if not, no path is kept.
    repeats: bool,
    /// Children deferred so far (flushed into [`Solver::deferrals`]).
    deferrals: u64,
    /// Nodes fewer than this many plies below the test's root defer children that
    /// another thread is searching (0: never; always 0 with one thread).
    defer_depth: usize,
    /// Plies below the test's root within which a helper thread perturbs the order.
    perturb_depth: usize,
    /// Threads: a node expected to fail (every child searched) may defer its first child
    /// too ([`Worker::expects_fail`]; Irving's order, where the first child is the
    /// whole work of a node that succeeds).
    defer_first: bool,
    /// Per depth below the test's root: whether the node there is expected to fail
    /// (Knuth and Moore's node types; kept only with `defer_first`).
    expect_fail: Vec<bool>,
    /// Nodes this many plies below the test's root or deeper are searched by the lean
    /// path ([`lean`]); `usize::MAX`: never (games that repeat, the ETC, the history
    /// heuristic, and the depths where threads defer or perturb).
    lean_depth: usize,
    /// Whether every played state (the path below `base`) is its own image under the
    /// game's symmetry ([`Rules::is_symmetric`]): then a symmetric test root searches one
    /// move of each pair of twins.
    sym_history: bool,
    done: &'a AtomicBool,
}

impl<'a, R: Rules> Worker<'a, R> {
    fn new(
        solver: &'a Solver<R>,
        id: usize,
        history: &[R::State],
        hist_tt: Option<&'a Table>,
        done: &'a AtomicBool,
    ) -> Self {
        let rules = &solver.rules;
        let base = history.len();
        let mut w = Worker {
            solver,
            rules,
            id,
            path: Vec::with_capacity(history.len()),
            last_in_slot: vec![NO_ENTRY; 1 << MIN_SLOT_BITS],
            slot_bits: MIN_SLOT_BITS,
            base,
            kids: Vec::new(),
            order: Vec::new(),
            history: solver
                .history
                .lock()
                .map(|h| *h)
                .unwrap_or([[[0; HISTORY_SLOTS]; 2]; 2]),
            nodes: 0,
            unflushed: 0,
            // Without repetitions a history cannot come back: positional values are exact.
            strict: !history.is_empty() && rules.can_repeat(),
            history_seeds: history.last().map_or(0, |s| rules.seeds_on_board(s)),
            hist_tt,
            cap: usize::MAX,
            stack_top: 0,
            stack_room: usize::MAX,
            optimistic: false,
            scheme: solver.opts.order.resolve(rules),
            repeats: rules.can_repeat(),
            defer_depth: if solver.opts.threads > 1 {
                solver.opts.defer_depth.unwrap_or(DEFER_DEPTH)
            } else {
                0
            },
            deferrals: 0,
            perturb_depth: 0,
            defer_first: false,
            expect_fail: Vec::new(),
            lean_depth: usize::MAX,
            sym_history: solver.opts.symmetry && history.iter().all(|s| rules.is_symmetric(s)),
            done,
        };
        // Without deferral the helpers diverge only by their perturbed order, at every
        // depth: within PERTURB_DEPTH plies only, two threads searched 153 M nodes of
        // Kalah(6,4) on a quiet machine against 124.5 M (docs/performance.md, Session 8).
        // Irving's order (Kalah) with deferral: no perturbation, and nodes expected to
        // fail defer their first child too (Session 10: 95.7 M nodes against 134 M).
        let extra_first = w.scheme == MoveOrder::ExtraMoves;
        w.perturb_depth = match (w.defer_depth, extra_first) {
            (0, _) => usize::MAX,
            (_, true) => 0,
            (_, false) => PERTURB_DEPTH,
        };
        w.defer_first = w.defer_depth > 0 && extra_first;
        let uses_history = solver.opts.history && w.scheme.uses_history();
        if solver.opts.lean && !w.repeats && !solver.opts.etc && !uses_history {
            // Below the depths where this thread defers or perturbs its order.
            let perturb = if id > 0 { w.perturb_depth } else { 0 };
            w.lean_depth = w.defer_depth.max(perturb);
        }
        for s in history {
            w.push_path(rules.key(s), rules.seeds_on_board(s), s);
        }
        w
    }

    /// Shortens the path to `len` states, keeping the slot chains in step.
    #[inline]
    fn truncate_path(&mut self, len: usize) {
        while self.path.len() > len {
            if let Some((k, _, _, prev)) = self.path.pop() {
                self.last_in_slot[path_slot(k, self.slot_bits)] = prev;
            }
        }
    }

    /// Appends a state to the path.
    #[inline]
    fn push_path(&mut self, key: u64, seeds: u32, s: &R::State) {
        if self.path.len() >= 4 << self.slot_bits {
            self.grow_slots();
        }
        let slot = path_slot(key, self.slot_bits);
        self.path.push((key, seeds, *s, self.last_in_slot[slot]));
        self.last_in_slot[slot] = (self.path.len() - 1) as u32;
    }

    /// The index of `s` (with key `key` and `seeds` seeds on the board) on the path, if
    /// it is there: only the chain of the key's slot is visited, newest first, down to
    /// the first entry with more seeds (no older entry can equal `s`).
    #[inline]
    fn on_path(&self, key: u64, seeds: u32, s: &R::State) -> Option<u32> {
        let mut p = self.last_in_slot[path_slot(key, self.slot_bits)];
        while p != NO_ENTRY {
            let (k2, s2, st2, prev) = &self.path[p as usize];
            if *s2 != seeds {
                return None;
            }
            if *k2 == key && st2 == s {
                return Some(p);
            }
            p = *prev;
        }
        None
    }

    /// Four times the slots, and every chain rebuilt (amortised over the pushes that
    /// filled them).
    #[cold]
    fn grow_slots(&mut self) {
        self.slot_bits += 2;
        self.last_in_slot.clear();
        self.last_in_slot.resize(1 << self.slot_bits, NO_ENTRY);
        for (i, e) in self.path.iter_mut().enumerate() {
            let slot = path_slot(e.0, self.slot_bits);
            e.3 = self.last_in_slot[slot];
            self.last_in_slot[slot] = i as u32;
        }
    }

    /// Whether the child at `j` of a node's move order is skipped in `pass` of the
    /// children loop (simplified ABDADA, busy.rs): in pass 0 a child other than the first
    /// that another thread is searching is deferred (its sort key `mark` set to
    /// [`DEFERRED`]); pass 1 searches only the deferred ones. Only the order changes. (At
    /// a node expected to fail the caller counts from 1, so its first child may be
    /// deferred too: [`Worker::expects_fail`].)
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn skip_now(
        &mut self,
        pass: usize,
        j: usize,
        mark: &mut i64,
        ckey: u64,
        c: &Child<R>,
        bad: Side,
    ) -> bool {
        if pass == 1 {
            return *mark != DEFERRED;
        }
        if j > 0
            && self
                .solver
                .busy
                .is_busy(BusyTable::tag(ckey, self.rules.turn(&c.state) == bad))
        {
            *mark = DEFERRED;
            self.deferrals += 1;
            return true;
        }
        false
    }

    /// Whether the node `depth` plies below the test's root is expected to fail (every
    /// child searched: an ALL node of Knuth and Moore) as its parent set it with
    /// [`Worker::expect_child`]; the test's root is expected to fail (the most expensive
    /// test of a driver's sequence is most often the failing one that ends it:
    /// docs/performance.md, Session 10). A guess that steers the deferral only.
    #[inline]
    fn expects_fail(&mut self, depth: usize) -> bool {
        if self.expect_fail.len() <= depth + 1 {
            self.expect_fail.resize(depth + 2, true);
        }
        depth == 0 || self.expect_fail[depth]
    }

    /// Sets the expected type of the child searched `j`-th at a node `depth` plies below
    /// the test's root: the first child of a node expected to succeed is expected to
    /// prove it, every other child to fail for the parent's mover (`invert`: the turn
    /// passes, so the child's own test answers the other way).
    #[inline]
    fn expect_child(&mut self, depth: usize, parent_fails: bool, j: usize, invert: bool) {
        self.expect_fail[depth + 1] = if !parent_fails && j == 0 {
            invert
        } else {
            !invert
        };
    }

    /// [`Worker::test`] of a child, marked in the busy table while it runs.
    fn test_marked(
        &mut self,
        c: &Child<R>,
        ckey: u64,
        xc: Score,
        ply: usize,
        bad: Side,
    ) -> Option<Res> {
        let tag = BusyTable::tag(ckey, self.rules.turn(&c.state) == bad);
        let marked = self.solver.busy.enter(tag);
        let r = self.test(&c.state, ckey, xc, ply, bad);
        if marked {
            self.solver.busy.leave(tag);
        }
        r
    }

    fn flush(&mut self) {
        if self.deferrals > 0 {
            self.solver
                .deferrals
                .fetch_add(self.deferrals, Ordering::Relaxed);
            self.deferrals = 0;
        }
        let total = self
            .solver
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed)
            + self.unflushed;
        self.unflushed = 0;
        // A budgeted test past its node limit stops like a stopped search (every thread of
        // the test sees `done`); nothing unproven was stored.
        if total >= self.solver.stop_at_nodes.load(Ordering::Relaxed) {
            self.solver.stop.store(true, Ordering::Relaxed);
        }
        if total >= self.solver.node_limit.load(Ordering::Relaxed) {
            self.solver.limit_hit.store(true, Ordering::Relaxed);
            self.done.store(true, Ordering::Relaxed);
        }
        if total >= self.solver.budget_at.load(Ordering::Relaxed) {
            self.solver.budget_hit.store(true, Ordering::Relaxed);
            self.done.store(true, Ordering::Relaxed);
        }
    }

    /// Runs the job: `(ok, v, fact)` in the job's frame, `fact` saying whether the answer
    /// holds in the uncapped game. With cut nodes scored against the bad side, only a
    /// success of the bad side and a failure of the other side are facts; scored for it,
    /// the other two.
    fn job(&mut self, job: &Job<R>, bad: Side) -> Option<(bool, Score, bool)> {
        let top = 0u8;
        self.stack_top = std::ptr::addr_of!(top) as usize;
        let (root, r, invert, c) = match *job {
            Job::Node(s, x) => {
                let key = self.rules.key(&s);
                (s, self.test(&s, key, x, self.base, bad)?, false, None)
            }
            Job::Move(c, y) => {
                let (xc, invert) = child_threshold(y, &c);
                let key = self.rules.key(&c.state);
                (
                    c.state,
                    self.test(&c.state, key, xc, self.base, bad)?,
                    invert,
                    Some(c),
                )
            }
        };
        let root_bad = self.rules.turn(&root) == bad;
        let fact = !r.capped || (self.optimistic != (r.ok == root_bad));
        let v = match c {
            Some(c) => to_parent(r.v, &c),
            None => r.v,
        };
        Some((r.ok != invert, v, fact))
    }

    /// Fail-soft null-window test: is the value of `s` for its mover `>= x`, with
    /// `path[..ply]` as history, in the game whose bad side is `bad`? The answer carries a
    /// bound `v` (a lower bound `>= x` on success, an upper bound `< x` on failure), which
    /// lets the MTD(f) driver move by more than one step per test. Returns `None` when
    /// stopped.
    ///
    /// Contract: `ok` and `v` are exact for the game with this history; they are also exact
    /// for the positional value when `rep >= ply`.
    ///
    /// Nodes at least [`Worker::lean_depth`] plies below the test's root go to the lean
    /// search ([`lean`]: games that cannot repeat), the others to [`Worker::test_full`].
    fn test(&mut self, s: &R::State, key: u64, x: Score, ply: usize, bad: Side) -> Option<Res> {
        if !self.count_node() {
            return None;
        }
        if ply - self.base >= self.lean_depth {
            self.lean(s, key, x, ply, bad)
        } else {
            self.test_full(s, key, x, ply, bad)
        }
    }

    /// Counts a node; every 4,096 nodes flushes the count and answers `false` when the
    /// search must stop.
    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 4096 {
            self.flush();
            if self.solver.stop.load(Ordering::Relaxed) || self.done.load(Ordering::Relaxed) {
                return false;
            }
        }
        true
    }

    /// [`Worker::test_full`] out of line, for the lean path's rare hand-overs (a node at
    /// the path cap or with too many children), so that the general body is inlined
    /// into [`Worker::test`] only.
    #[cold]
    #[inline(never)]
    fn test_full_cold(
        &mut self,
        s: &R::State,
        key: u64,
        x: Score,
        ply: usize,
        bad: Side,
    ) -> Option<Res> {
        self.test_full(s, key, x, ply, bad)
    }

    /// [`Worker::test`] of a node already counted, with everything the general search
    /// knows: repetitions of the path, strict mode, the path cap, threads' deferral and
    /// perturbation, the history heuristic, the ETC. Inlined into [`Worker::test`] (a
    /// call of its own cost Giuthi 2% more instructions a node).
    #[inline(always)]
    fn test_full(
        &mut self,
        s: &R::State,
        key: u64,
        x: Score,
        ply: usize,
        bad: Side,
    ) -> Option<Res> {
        let nodes0 = self.nodes;
        let yes = |v: Score| Res::plain(true, v);
        let no = |v: Score| Res::plain(false, v);
        let rules = self.rules;
        let mover = rules.turn(s);
        let mover_bad = mover == bad;
        let seeds32 = rules.seeds_on_board(s);
        let seeds = seeds32 as Score;
        let x = match futility(x, seeds, mover_bad) {
            Ok(x) => x,
            Err(r) => return r,
        };
        debug_assert_eq!(key, rules.key(s));
        // G10: a repetition of a state on the path ends the game. `path[ply..]` are stale
        // entries of earlier siblings: drop them first (keeping the chains exact). Only the
        // entries of the key's hash slot are visited, newest first.
        // Games that cannot repeat keep no path (Rules::can_repeat).
        let repeated = if self.repeats {
            self.truncate_path(ply);
            self.on_path(key, seeds32, s)
        } else {
            None
        };
        if let Some(p) = repeated {
            let v = if mover_bad { NEG_INF } else { POS_INF };
            // A played state is a terminal of the history game: `hist`, not `rep`.
            let hist = (p as usize) < self.base;
            return Some(Res {
                ok: v >= x,
                v,
                rep: if hist { NO_REP } else { p },
                capped: false,
                hist,
            });
        }
        // Seeds never increase: a history state with more seeds than this node cannot come
        // back, so positional bounds are exact here for this history.
        let strict = self.strict && seeds32 >= self.history_seeds;
        let oracle = match &self.solver.oracle {
            // Above the oracle's layers a probe cannot answer: skip it.
            Some(o) if self.solver.oracle_max.map_or(true, |m| seeds32 <= m) => Some(o),
            _ => None,
        };
        if let Some(o) = oracle {
            if let Some(b) = o.probe(s) {
                let v = if mover_bad { b.lo } else { b.hi };
                // Strict mode: a positional value bounds the history game one way only.
                if v >= x && (!strict || !mover_bad) {
                    return yes(v);
                }
                if v < x && (!strict || mover_bad) {
                    return no(v);
                }
            }
        }
        let mut tt_move = None;
        if let Some(e) = self.solver.tt.probe(key, mover_bad) {
            if e.lower >= x && (!strict || !mover_bad) {
                return yes(e.lower);
            }
            if e.upper < x && (!strict || mover_bad) {
                return no(e.upper);
            }
            tt_move = e.best;
        }
        // Strict mode: the table of this history's game answers both ways.
        let hist_tt = if strict { self.hist_tt } else { None };
        if let Some(e) = hist_tt.and_then(|t| t.probe(key, mover_bad)) {
            if e.lower >= x {
                return yes(e.lower);
            }
            if e.upper < x {
                return no(e.upper);
            }
            tt_move = e.best.or(tt_move);
        }
        let depth = ply - self.base;
        if self.kids.len() <= depth {
            self.kids.push(Vec::new());
            self.order.push(Vec::new());
        }
        let mut kids = std::mem::take(&mut self.kids[depth]);
        let mut order = std::mem::take(&mut self.order[depth]);
        // A long sowing (Kiothi's endless-sowing test, K11, can take a second) asks the
        // stop flag as it goes: a deadline or Ctrl-C stops the search here, with nothing
        // stored for this node (as at the flush above).
        let stop = &self.solver.stop;
        if rules.children_until(s, &mut kids, &mut || stop.load(Ordering::Relaxed)) > 0 {
            self.kids[depth] = kids;
            self.order[depth] = order;
            return None;
        }
        if kids.is_empty() {
            self.kids[depth] = kids;
            self.order[depth] = order;
            let v = rules.final_value(s);
            return if v >= x { yes(v) } else { no(v) };
        }
        // Stack used by the search frames so far (a local's address; never dereferenced).
        let used = self.stack_top.abs_diff(std::ptr::addr_of!(x) as usize);
        if depth >= self.cap || used > self.stack_room {
            // The path cap (or the end of this thread's stack): this node is cut, scored
            // as the worst outcome for the bad side (or the best, when optimistic), and
            // the answer marked as capped.
            self.kids[depth] = kids;
            self.order[depth] = order;
            let v = match (self.optimistic, mover_bad) {
                (false, true) => NEG_INF,
                (false, false) => POS_INF,
                (true, true) => seeds,
                (true, false) => -seeds,
            };
            return Some(Res {
                ok: v >= x,
                v,
                rep: NO_REP,
                capped: true,
                hist: false,
            });
        }
        // Move ordering: the table's move, then the scheme's order (`order.rs`). Every
        // child's table bucket is then prefetched, in the order of the search (the first
        // child searched gets the most time), so that the misses of the children's probes
        // (here for the ETC, or in the children's own tests) overlap.
        order.clear();
        let scheme = self.scheme;
        let history = self.solver.opts.history && scheme.uses_history();
        let side = mover.index();
        // G11 at the test's root: when it and every played state are their own mirror
        // images, a move whose twin comes earlier leads to the mirror image of the twin's
        // child, with the mirrored history: the same value, the same repetitions (at the
        // same path places) and the same cuts. It is left out of the order (so never
        // searched); the indices of the others are unchanged.
        let twins = depth == 0 && self.sym_history && rules.is_symmetric(s);
        for (i, c) in kids.iter().enumerate() {
            if twins && earlier_twin(rules, &kids, i).is_some() {
                continue;
            }
            let h = match rules.history_slot(&c.mv) {
                Some(slot) if history => self.history[mover_bad as usize][side][slot],
                _ => 0,
            };
            let mut score = scheme.key(c, i, h);
            if Some(i as u8) == tt_move {
                score += 1 << 60;
            }
            if self.id > 0 && depth < self.perturb_depth {
                // Lazy SMP: near the test's root, helpers perturb the order of the
                // ordinary moves.
                let h = crate::index::mix64(key ^ ((self.id as u64) << 40) ^ i as u64);
                score += (h & 3) as i64;
            }
            order.push((score, 0, i as u8));
        }
        order.sort_by_key(|e| std::cmp::Reverse(e.0));
        // A child the oracle covers is answered by its probe (in Kalah always), so its
        // oracle entry is prefetched instead of its table bucket.
        let covered = self.solver.oracle_max;
        let oracle = self.solver.oracle.as_deref();
        let prefetch = |c: &Child<R>, ckey: u64| match oracle {
            Some(o) if matches!(covered, Some(m) if rules.seeds_on_board(&c.state) <= m) => {
                o.prefetch(&c.state);
            }
            _ => self.solver.tt.prefetch(ckey, rules.turn(&c.state) == bad),
        };
        // The first PREFETCH_AHEAD children are prefetched now, each later one when the
        // child PREFETCH_AHEAD - 1 places before it is searched (every child for the ETC,
        // which probes them all now).
        let ahead = if self.solver.opts.etc {
            usize::MAX
        } else {
            PREFETCH_AHEAD
        };
        // A child's exact key is computed when its bucket is prefetched (most nodes cut at
        // the first child: the others are never keyed).
        for (_, ckey, i) in order.iter_mut().take(ahead) {
            let c = &kids[*i as usize];
            *ckey = rules.key(&c.state);
            prefetch(c, *ckey);
        }
        // Enhanced transposition cutoff: a child whose table bounds already prove the
        // test ends it; one whose bounds prove it cannot goes last.
        let mut etc_hit = None;
        if self.solver.opts.etc {
            for (score, ckey, i) in order.iter_mut() {
                let c = &kids[*i as usize];
                let (xc, invert) = child_threshold(x, c);
                let cbad = rules.turn(&c.state) == bad;
                if let Some(e) = self.solver.tt.probe(*ckey, cbad) {
                    let lower_ok = !strict || !cbad;
                    let upper_ok = !strict || cbad;
                    if !invert && e.lower >= xc && lower_ok {
                        etc_hit = Some((*i as usize, to_parent(e.lower, c)));
                        break;
                    } else if invert && e.upper < xc && upper_ok {
                        etc_hit = Some((*i as usize, to_parent(e.upper, c)));
                        break;
                    } else if (invert && e.lower >= xc) || (!invert && e.upper < xc) {
                        *score -= 1 << 59; // proven not to succeed: last
                    }
                }
            }
        }
        if let Some((i, v)) = etc_hit {
            self.kids[depth] = kids;
            self.order[depth] = order;
            self.solver
                .tt
                .store(key, mover_bad, v, POS_INF, Some(i as u8), 0);
            return yes(v);
        }
        if self.solver.opts.etc {
            // The ETC moves children proven not to succeed last.
            order.sort_by_key(|e| std::cmp::Reverse(e.0));
        }
        if self.repeats {
            self.truncate_path(ply);
            self.push_path(key, seeds32, s);
        }
        let mut rep = NO_REP;
        let mut capped = false;
        let mut hist = false;
        let mut ok = false;
        // Fail-low: the largest upper bound of the moves; fail-high: the proving bound.
        let mut v = NEG_INF;
        let mut best = None;
        let mut aborted = false;
        // Threads: the first pass may defer children another thread is searching, the
        // second searches them (`Worker::skip_now`; order only: the same children decide).
        let defer = depth < self.defer_depth;
        let mut any_deferred = false;
        // A node expected to fail may defer its first child too (`Worker::expects_fail`).
        let expect_fail = defer && self.defer_first && self.expects_fail(depth);
        let first = usize::from(!expect_fail);
        'passes: for pass in 0..2 {
            if pass == 1 && !any_deferred {
                break;
            }
            for j in 0..order.len() {
                // Pass 0 keys and prefetches the child `ahead - 1` places on, so every
                // child is keyed before it is reached (`order[j].1` is its key after this).
                if pass == 0 && j >= 1 && ahead < usize::MAX {
                    if let Some((_, k2, i2)) = order.get_mut(j + ahead - 1) {
                        let c2 = &kids[*i2 as usize];
                        *k2 = rules.key(&c2.state);
                        prefetch(c2, *k2);
                    }
                }
                let (ckey, i) = (order[j].1, order[j].2);
                let c = kids[i as usize];
                if defer && self.skip_now(pass, j + 1 - first, &mut order[j].0, ckey, &c, bad) {
                    any_deferred = true;
                    continue;
                }
                let (xc, invert) = child_threshold(x, &c);
                if defer && self.defer_first {
                    self.expect_child(depth, expect_fail, j, invert);
                }
                let r = if defer {
                    self.test_marked(&c, ckey, xc, ply + 1, bad)
                } else {
                    self.test(&c.state, ckey, xc, ply + 1, bad)
                };
                let Some(r) = r else {
                    aborted = true;
                    break 'passes;
                };
                let pv = to_parent(r.v, &c);
                if r.ok != invert {
                    ok = true;
                    rep = r.rep;
                    capped = r.capped;
                    hist = r.hist;
                    best = Some(i);
                    v = pv;
                    if let (true, Some(slot)) = (
                        history && r.rep as usize > ply && !r.hist,
                        rules.history_slot(&c.mv),
                    ) {
                        // Weighted by the square of the work (log2 of the nodes) of the cutoff;
                        // not for cutoffs by a repetition of the path (they say nothing about
                        // the move elsewhere).
                        let w = work_of(self.nodes - nodes0) as u32 + 1;
                        let w = w * w;
                        let h = &mut self.history[mover_bad as usize][side][slot];
                        *h = h.saturating_add(w);
                        if *h >= 1 << 30 {
                            self.history
                                .iter_mut()
                                .flatten()
                                .flatten()
                                .for_each(|x| *x /= 2);
                        }
                    }
                    break 'passes;
                }
                v = v.max(pv);
                rep = rep.min(r.rep);
                capped |= r.capped;
                hist |= r.hist;
            }
        }
        self.kids[depth] = kids;
        self.order[depth] = order;
        if aborted {
            return None;
        }
        // Tighten by the exact futility bounds (the value lies in [-S, S] or is infinite
        // for one side only).
        if ok && !mover_bad {
            v = v.max(-seeds);
        }
        if !ok && mover_bad {
            v = v.min(seeds);
        }
        // What the table may keep: a bound on the positional value. Repetitions of the
        // path above this node and cut nodes scored against the bad side are extra
        // terminals against it: a success of the bad side and a failure of the other side
        // still hold without them. Cut nodes scored for the bad side allow the other two.
        // Played states met by the proof (`hist`) are such terminals for the positional
        // value too; in the history game's own table they are the game's terminals.
        let for_bad = capped && self.optimistic;
        let keep = |against: bool| match (against, for_bad) {
            (false, false) => true,
            (true, false) => ok == mover_bad,
            (false, true) => ok != mover_bad,
            (true, true) => false,
        };
        let against_here = rep < ply as u32 || (capped && !self.optimistic);
        let nodes = self.nodes;
        let store = |t: &Table| {
            let work = work_of(nodes - nodes0);
            if ok {
                t.store(key, mover_bad, v, POS_INF, best, work);
            } else {
                t.store(key, mover_bad, NEG_INF, v, None, work);
            }
        };
        if keep(against_here || hist) {
            store(&self.solver.tt);
        }
        if let (Some(t), true) = (hist_tt, keep(against_here)) {
            store(t);
        }
        Some(Res {
            ok,
            v,
            rep,
            capped,
            hist,
        })
    }
}

/// What is proven of one root move's exact margin (V4) while [`Solver::analyze`] settles
/// it: the margin lies in `[lo, hi]`.
#[derive(Debug, Clone, Copy)]
struct MoveRange {
    lo: i32,
    hi: i32,
    /// Whether the test at the top of the range has run (the first test of a move).
    top_tested: bool,
    /// Whether the next tests are at the top of the range instead of its middle (flipped
    /// each time a budget cuts one: the other kind of test may be far cheaper).
    at_top: bool,
}

impl MoveRange {
    /// The range of a move `c` of a root whose mover has captured `d` seeds more and whose
    /// exact margin is `margin`: the move's future gain lies in `[-S, S]` (`S` the seeds
    /// left) or is a repetition's `-d - k`, so its margin in `[min(0, d + k - S), max(0, d
    /// + k + S)]` (V3, V4), and no move reaches more than the root's margin.
    fn start<R: Rules>(rules: &R, c: &Child<R>, d: i32, margin: i32) -> MoveRange {
        let seeds = rules.seeds_on_board(&c.state) as i32;
        let k = c.captured as i32;
        let lo = (d + k - seeds).min(0);
        let hi = (d + k + seeds).max(0).min(margin).max(lo);
        MoveRange {
            lo,
            hi,
            top_tested: false,
            at_top: false,
        }
    }
}

/// The final margin a move's test proves (see [`Solver::move_bound`]), for a root whose
/// mover has captured `d` seeds more: the test asked whether the move reaches `target`,
/// in the game whose bad side is the root's mover (`mover_bad`: game L, a repetition
/// the worst for it) or its opponent (game H), and answered `ok` with the fail-soft bound
/// `v` of the move's future gain `f` in that game (`f >= v` on success, `f <= v` on
/// failure). The margin is `d + clamp(-d, f_L, f_H)` with `f_L <= f_H` (V3, V4), so:
/// game L success: `>= d + v`; game L failure: `<= max(d + v, 0)`; game H success: `>=
/// min(d + v, 0)`; game H failure: `<= d + v`. In a game that cannot repeat (`repeats`
/// false) `f_L == f_H` and the margin is `d + f`. Clamped to the answer's side of
/// `target`.
fn margin_bound(d: i32, target: i32, repeats: bool, mover_bad: bool, ok: bool, v: Score) -> i32 {
    // Infinities (a repetition forced, V2) as far values: the clamps below remove them.
    let v = match v {
        NEG_INF => -(1 << 20),
        POS_INF => 1 << 20,
        v => i32::from(v),
    };
    let m = d + v;
    if !repeats {
        return if ok { m.max(target) } else { m.min(target - 1) };
    }
    match (mover_bad, ok) {
        (true, true) => m.max(target),
        (true, false) => m.max(0).min(target - 1),
        (false, true) => m.min(0).max(target),
        (false, false) => m.min(target - 1),
    }
}

/// A bound `vc` on a child's value (for the child's mover) as a bound on the value of the
/// move for the parent's mover: `k - vc` when the turn passes (the bound flips side),
/// `k + vc` otherwise; infinities stay infinite.
#[inline]
fn to_parent<R: Rules>(vc: Score, c: &Child<R>) -> Score {
    let k = c.captured as Score;
    if c.turn_passes {
        match vc {
            NEG_INF => POS_INF,
            POS_INF => NEG_INF,
            _ => k - vc,
        }
    } else if is_infinite(vc) {
        vc
    } else {
        k + vc
    }
}

/// The threshold of a child's test for "the move scores `>= x` for the parent's mover",
/// and whether the child's answer must be inverted (the turn passes).
///
/// A move capturing `k` scores `k - c` when the turn passes (`c` the child's value) and
/// `k + c` otherwise; infinities stay infinite (negated when the turn passes).
#[inline]
fn child_threshold<R: Rules>(x: Score, c: &Child<R>) -> (Score, bool) {
    let k = c.captured as Score;
    if c.turn_passes {
        // k - c >= x  iff  not (c >= k - x + 1); +inf needs c == -inf: not (c > -inf).
        let xc = if x == POS_INF { NEG_INF + 1 } else { k - x + 1 };
        (xc, true)
    } else {
        let xc = if is_infinite(x) { x } else { x - k };
        (xc, false)
    }
}

/// Children whose table buckets are prefetched before the first is searched; each later
/// child's bucket is prefetched when the child `PREFETCH_AHEAD - 1` places before it is
/// searched. A prefetch is not free on this machine (it waits for its page walk), so one
/// for a child never searched (most nodes cut at the first child) is a loss; measured in
/// docs/performance.md, Session 8.
const PREFETCH_AHEAD: usize = 2;

/// The path's repetition chains start with `2^12` slots (16 KB, in L1 cache).
const MIN_SLOT_BITS: u32 = 12;

/// No path entry.
const NO_ENTRY: u32 = u32::MAX;

/// The slot of a state key among `2^bits` (the top bits of a multiplicative hash).
#[inline]
fn path_slot(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
}

/// Formats moves as a space-free list for printing.
pub fn moves_to_strings<M: std::fmt::Display>(moves: &[M]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::kalah::{Kalah, KalahState};

    /// The path's repetition chains find every state on the path and none other, across
    /// several growths of the slot array and truncations (G10).
    #[test]
    fn g10_path_chains_survive_growth_and_truncation() {
        let rules = Kalah::new(6).expect("board");
        let solver = Solver::new(rules.clone(), SolverOptions::default());
        let done = AtomicBool::new(false);
        let mut w = Worker::new(&solver, 0, &[], None, &done);
        // 50,000 distinct boards of one seed layer (20 seeds on 2x6), in rank order.
        let ranker = crate::index::Ranker::new(12, 20);
        let mut pushed = Vec::new();
        for r in 0..50_000u64 {
            let mut st = rules.start(0);
            ranker.unrank(r, 20, &mut st.pits[..12]);
            w.push_path(rules.key(&st), 20, &st);
            pushed.push((st, 20));
        }
        assert!(
            w.slot_bits > MIN_SLOT_BITS,
            "the test must make the slots grow"
        );
        let check = |w: &Worker<Kalah>, pushed: &[(KalahState, u32)]| {
            for (i, (s, n)) in pushed.iter().enumerate() {
                assert_eq!(w.on_path(rules.key(s), *n, s), Some(i as u32));
            }
        };
        check(&w, &pushed);
        let half = pushed.len() / 2;
        w.truncate_path(half);
        check(&w, &pushed[..half]);
        for (s, n) in &pushed[half..] {
            assert_eq!(w.on_path(rules.key(s), *n, s), None);
        }
    }

    /// The bound a move's test proves (`margin_bound`) holds for every pair of game
    /// values `f_L <= f_H` (infinities included), every captured difference, target and
    /// fail-soft bound the test may return, in both repetition games and without
    /// repetition (V3, V4): the margin `d + clamp(-d, f_L, f_H)` lies on the bound's
    /// side, and the answer of the game chosen by the target's sign is "reaches it?".
    #[test]
    fn v4_move_test_bounds_hold_for_every_pair_of_game_values() {
        let vals: Vec<Score> = [NEG_INF]
            .into_iter()
            .chain(-7..=7)
            .chain([POS_INF])
            .collect();
        // An infinite game value (a repetition forced, V2) as `margin_bound` reads it.
        let wide = |v: Score| match v {
            NEG_INF => -(1 << 20),
            POS_INF => 1 << 20,
            v => i32::from(v),
        };
        for d in -5..=5 {
            for (i, &fl) in vals.iter().enumerate() {
                for &fh in &vals[i..] {
                    let margin = d + (-d).clamp(wide(fl), wide(fh));
                    for target in -14..=14 {
                        let x = (target - d) as Score;
                        for repeats in [true, false] {
                            if !repeats && fl != fh {
                                continue;
                            }
                            // Game L (the mover bad) above a repetition's margin 0.
                            let mover_bad = !repeats || target > 0;
                            let f = if mover_bad { fl } else { fh };
                            let ok = f >= x;
                            assert_eq!(ok, margin >= target, "d {d} f {fl} {fh} t {target}");
                            // Every fail-soft bound the test may give.
                            let bounds: Vec<Score> = if ok {
                                vals.iter().copied().filter(|&v| v >= x && v <= f).collect()
                            } else {
                                vals.iter().copied().filter(|&v| v < x && v >= f).collect()
                            };
                            for v in bounds {
                                let b = margin_bound(d, target, repeats, mover_bad, ok, v);
                                if ok {
                                    assert!(
                                        b >= target && margin >= b,
                                        "{d} {fl} {fh} {target} {v}"
                                    );
                                } else {
                                    assert!(
                                        b < target && margin <= b,
                                        "{d} {fl} {fh} {target} {v}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
