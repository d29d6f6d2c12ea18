//! The retrograde solver: an exact solve of a position's whole reachable graph in memory
//! (RULES.md V2-V4), for positions whose graph is small (endgames).
//!
//! It computes what the naive reference solver ([`super::naive`]) computes, the least and
//! the greatest fixpoint of the minimax equations, but in time linear in the edges:
//!
//! 1. **Enumeration.** Every state reachable from the root is numbered (a hash map from
//!    state to `u32`, breadth first, up to a cap); the moves become compact edges in CSR
//!    form (`u32` target, seeds captured). States only lose seeds, by capture, so the graph
//!    falls into *layers* by seeds on the board: an edge stays in its layer exactly when it
//!    captures nothing, and otherwise leaves it for a lower one.
//! 2. **Retrograde fixpoint, layer by layer, fewest seeds first.** Inside a layer every
//!    edge gains 0; the edges that leave it have known values. The least fixpoint of a
//!    layer (a repetition is minus infinity for the maximising side) is the value of the
//!    game "reach an exit, in finitely many moves, worth as much as possible", which a
//!    Dijkstra-like sweep over the values in decreasing order (a bucket queue) settles
//!    exactly: a maximising node is settled by its first settled child, a minimising node
//!    when its last in-layer child is settled; what is never settled is minus infinity. The
//!    greatest fixpoint is the same sweep with the sides' roles exchanged.
//!
//! Values are South-relative as in [`super::naive`]: `a` is the least fixpoint (South must
//! force the game to end), `b` the greatest; for the side to move `(lo, hi)` is `(a, b)` for
//! South and `(-b, -a)` for North.
//!
//! The best moves of V4 count the root as played: returning to it ends the game with a
//! margin of 0. Only the root's own layer can return to the root (the other layers have
//! fewer seeds), so that layer is swept once more with the root made a terminal.
//!
//! The principal variation follows the sweeps' strategies: from a state whose value
//! `clamp(c, a, b)` (`c` the repetition payoff) is above `c` both sides play the strategy of
//! the least fixpoint (which never returns to a state inside the layer, so the line reaches
//! an exit), below `c` that of the greatest, and at `c` any move that keeps the value, until
//! a repetition ends the game at `c`.

use super::alphabeta::Solution;
use crate::position::Position;
use crate::rules::{Child, Rules};
use crate::types::Side;
use crate::value::{Bounds, GameResult, Score, NEG_INF, POS_INF};
use std::hash::{BuildHasherDefault, Hasher};

/// The least default cap on the states of a graph solved by [`solve_position`] in the CLI
/// (`--retro-states`), and the cap of the server's jobs: a million states take about
/// 200 MB and well under a second. The CLI's default is [`default_max_states`] of the
/// memory available, at least this.
pub const DEFAULT_MAX_STATES: usize = 1 << 20;

/// The largest default cap ([`default_max_states`]): 2^27 = 134,217,728 states, about
/// 21 GB at [`BYTES_PER_STATE`] and a few CPU minutes for a graph that fills it; on a
/// 24 GB machine the memory available sets the cap first (about 90 M states;
/// docs/solver.md, Retrograde solve).
pub const MAX_DEFAULT_STATES: usize = 1 << 27;

/// Bytes of memory a state of the pass may take, rounded up from the measured peak
/// resident size: 144 and 147 bytes a state at 19.5 M and 64.2 M states, with the
/// search's 64 MB table (docs/performance.md, Session 23; 179 to 183 bytes before the
/// renumbering freed the old vectors, about 210 before the state table's load went from
/// a half to three quarters).
pub const BYTES_PER_STATE: u64 = 160;

/// The default cap of the CLI's retrograde pass on a machine with `available_bytes` of
/// memory available (`MemAvailable`, less what the search's transposition table will
/// take): the states that three fifths of it holds at [`BYTES_PER_STATE`], between
/// [`DEFAULT_MAX_STATES`] and [`MAX_DEFAULT_STATES`].
///
/// A graph above the cap goes to the search, which can stall on it for minutes or more
/// where the pass takes seconds to a minute or two: a 2x7 endgame of 13 seeds has 19.5 M
/// states (18 s), a 2x8 one of 13 seeds 64.2 M (75 s; docs/performance.md, Session 23).
/// The race ([`race_budget`]) keeps the cost of a larger cap bounded where the search is
/// the faster side: the search gets a node for each state the pass enumerates.
///
/// # Examples
///
/// ```
/// use giuthi::solve::retro::{default_max_states, DEFAULT_MAX_STATES, MAX_DEFAULT_STATES};
/// assert_eq!(default_max_states(24_000_000_000), 90_000_000); // 24 GB
/// assert_eq!(default_max_states(4_000_000_000), 15_000_000); // 3/5 of it at 160 B a state
/// assert_eq!(default_max_states(0), DEFAULT_MAX_STATES);
/// assert_eq!(default_max_states(u64::MAX), MAX_DEFAULT_STATES);
/// ```
pub fn default_max_states(available_bytes: u64) -> usize {
    let states = available_bytes / 5 * 3 / BYTES_PER_STATE;
    (states.min(MAX_DEFAULT_STATES as u64) as usize).max(DEFAULT_MAX_STATES)
}

/// Why the retrograde solver gave up on a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RetroError {
    /// More states are reachable than the cap allows.
    #[error("the retrograde solver stopped: more than {limit} reachable states")]
    TooLarge {
        /// The cap that was passed.
        limit: usize,
    },
    /// The early exit gave the graph up: its size bound ([`board_bound`]) is more than
    /// [`BOUND_FACTOR`] times the cap and [`PROBE_STATES`] states did not exhaust it
    /// (only in [`EARLY_EXIT_GAMES`]).
    #[error(
        "the retrograde solver stopped early: a size bound of {bound} states for a cap of \
         {limit}, and more than {probe} states reachable"
    )]
    TooLargeEarly {
        /// The cap that was passed.
        limit: usize,
        /// The size bound (saturated at `u64::MAX`).
        bound: u64,
        /// States enumerated before giving up ([`PROBE_STATES`]).
        probe: usize,
    },
    /// The caller's stop test said stop (a deadline, Ctrl-C, a job's Stop), checked every
    /// 8 states of the enumeration and every layer of the sweeps.
    #[error("the retrograde solver was stopped")]
    Stopped,
    /// A reachable state's moves are not enumerated (a Kiothi opening redistribution, K3).
    #[error("the retrograde solver needs every reachable state's moves (a Kiothi opening, K3)")]
    NotEnumerable,
    /// The race of [`solve_position_racing`] said the other solver finished first: the
    /// pass was given up at one of its [`RACE_STATES`] checkpoints.
    #[error("the retrograde solver gave way: the search finished first")]
    Raced,
    /// A state has more moves than the compact edges hold (255).
    #[error("a reachable state has {moves} moves; the retrograde solver holds at most 254")]
    TooManyMoves {
        /// Moves of the state.
        moves: usize,
    },
    /// A move broke the layering of the [`Rules`] contract (seeds rose, or a capture left
    /// the seeds on the board unchanged): a bug in the rules.
    #[error("a move broke the seed layering ({from} -> {to} seeds, {captured} captured)")]
    Unlayered {
        /// Seeds on the board before the move.
        from: u32,
        /// Seeds on the board after it.
        to: u32,
        /// Seeds the move captured.
        captured: u16,
    },
}

/// States enumerated before the early exit gives up a graph whose bound
/// ([`board_bound`]) is more than [`BOUND_FACTOR`] times the cap.
///
/// A graph that size bound says is far too large is usually, but not always (the game
/// may end within a few moves), too large indeed: the first states tell (docs/solver.md,
/// The early exit). 4,096 states cost about a millisecond.
pub const PROBE_STATES: usize = 1 << 12;

/// How far above the cap the size bound must be for the early exit. On random Giuthi
/// endgames the reachable graph is 19% to 53% of [`board_bound`] once it has more than
/// [`PROBE_STATES`] states (examples/retro_endgames.rs), so a graph within the cap has a
/// bound below about 5 times the cap; 8 leaves a margin.
pub const BOUND_FACTOR: f64 = 8.0;

/// The first checkpoint of the race ([`solve_graph_racing`]): the pass asks its race
/// whether the search finished each time its states reach `RACE_STATES * RACE_STEP^k`
/// (16,384, 65,536, 262,144, 1,048,576), then twice as many each time (2^21, 2^22, ...
/// below the cap: [`RACE_BALANCED_FROM`]). A graph of at most 16,384 states
/// (about 10 ms) is solved by the pass alone, as before the race.
pub const RACE_STATES: usize = 1 << 14;

/// The factor between two checkpoints of the race ([`RACE_STATES`]) below
/// [`RACE_BALANCED_FROM`] states; above it the checkpoints double (2^21, 2^22, ...), so
/// that a search that wins there waits at most as long again for its next budget.
pub const RACE_STEP: usize = 4;

/// The search's node budget at a checkpoint of the race, per state the pass has
/// enumerated by then, below [`RACE_BALANCED_FROM`] states. A search node costs about as
/// much as two states of the pass (its enumeration and sweeps; docs/solver.md, The race),
/// so on small graphs the race spends at most about as much on the losing side as on the
/// winning one (docs/performance.md, Session 9).
pub const RACE_STATES_PER_NODE: usize = 4;

/// Where the race becomes balanced: past this many states every further state of the
/// pass gives the search one more node, and the checkpoints double instead of
/// quadrupling. A large graph (seconds of pass) is as likely to be the search's as the
/// pass's, and a node of a Giuthi search costs about as much CPU as a state of a large
/// graph (0.7 to 1.4 µs), so the two sides then spend about the same (docs/performance.md,
/// Session 12).
pub const RACE_BALANCED_FROM: usize = 1 << 20;

/// The search's cumulative node budget when the pass has enumerated `states` states:
/// a quarter of a node a state up to [`RACE_BALANCED_FROM`] ([`RACE_STATES_PER_NODE`]),
/// one node a state beyond.
///
/// # Examples
///
/// ```
/// use giuthi::solve::retro::{race_budget, RACE_STATES};
/// assert_eq!(race_budget(RACE_STATES), 4_096);
/// assert_eq!(race_budget(1 << 20), 1 << 18);
/// assert_eq!(race_budget(1 << 22), (1 << 18) + (3 << 20));
/// ```
pub fn race_budget(states: usize) -> u64 {
    let small = states.min(RACE_BALANCED_FROM);
    (small / RACE_STATES_PER_NODE + (states - small)) as u64
}

/// The checkpoint of the race after the one at `states` ([`RACE_STEP`],
/// [`RACE_BALANCED_FROM`]).
fn next_checkpoint(states: usize) -> usize {
    if states < RACE_BALANCED_FROM {
        states.saturating_mul(RACE_STEP)
    } else {
        states.saturating_mul(2)
    }
}

/// [`BOUND_FACTOR`] for Kalah: its graphs are a small and unpredictable part of their
/// bound (0.01% to 6%), and alpha-beta solves them far faster than the pass, so a Kalah
/// graph whose bound is over the cap is given up at once (docs/solver.md, The early exit;
/// `examples/retro_endgames.rs --kalah`).
pub const KALAH_BOUND_FACTOR: f64 = 1.0;

/// The games whose graphs the early exit may give up: those where the fraction of
/// [`board_bound`] that is reachable was measured (Giuthi, every variant; Kalah, with
/// [`KALAH_BOUND_FACTOR`]). Kiothi's graphs can be far smaller than their bound (a 2x10
/// graph of under 20,000 states had a bound of 6.2 M: tests/all/solver_retro.rs).
pub const EARLY_EXIT_GAMES: &[&str] = &["giuthi", "kalah"];

/// How far above the cap the size bound of a graph of `game` (a [`Rules::name`]) must be
/// for the early exit: [`BOUND_FACTOR`] for Giuthi, [`KALAH_BOUND_FACTOR`] for Kalah,
/// `None` for the games outside [`EARLY_EXIT_GAMES`].
pub fn early_exit_factor(game: &str) -> Option<f64> {
    match game {
        "giuthi" => Some(BOUND_FACTOR),
        "kalah" => Some(KALAH_BOUND_FACTOR),
        _ => None,
    }
}

/// An upper bound on the states of `root`'s reachable graph from seeds and pits alone:
/// `2 * C(S + 2n, 2n)`, the boards of at most `S` seeds (the root's) over `2n` pits,
/// either side to move (states only lose seeds). Exact for games whose state is the
/// board and the turn (Giuthi, Kalah); Kiothi's marks make its true bound larger, so
/// the early exit is only rarer there.
///
/// # Examples
///
/// ```
/// use giuthi::Position;
/// use giuthi::rules::giuthi::Giuthi;
/// use giuthi::solve::retro::board_bound;
/// let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
/// // 5 seeds on 8 pits: 2 * C(13, 8) = 2 * 1287.
/// assert_eq!(board_bound(&pos.rules, &pos.state), 2574.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn board_bound<R: Rules>(rules: &R, root: &R::State) -> f64 {
    let seeds = rules.seeds_on_board(root) as f64;
    let pits = 2 * rules.pits_per_row();
    // C(S + p, p) = prod_{k=1..p} (S + k) / k, exact in f64 far beyond any cap.
    (1..=pits).fold(2.0, |c, k| c * (seeds + k as f64) / k as f64)
}

/// A South-relative infinity (as in [`super::naive`]); far beyond any margin.
const INF: i32 = 1 << 20;

/// No edge recorded.
const NO_EDGE: u8 = u8::MAX;

/// A fast hasher for the state map (FxHash with a final mix).
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0;
        (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (h >> 32)
    }
}

type FxBuild = BuildHasherDefault<FxHasher>;

/// Asks the processor to bring `x`'s cache line in (a hint only; also the tablebase
/// generator's).
#[inline]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = std::ptr::from_ref(x).cast::<i8>();
        // SAFETY: a prefetch is a hint that never faults nor changes memory; `p` points
        // to a live value anyway.
        #[allow(unsafe_code)]
        unsafe {
            std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// `n` copies of `x` in memory advised to the kernel as huge pages (2 MB, where
/// transparent huge pages are on `madvise`) when the vector is large: the look-ups of
/// the state table and the sweeps are random, and 4 KB pages would add a TLB miss to
/// almost every one.
fn huge_vec<T: Clone>(n: usize, x: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = n * std::mem::size_of::<T>();
        if bytes >= 2 * HUGE {
            let start = v.as_mut_ptr() as usize;
            let lo = start.next_multiple_of(HUGE);
            let hi = (start + bytes) / HUGE * HUGE;
            if hi > lo {
                // SAFETY: advice on pages of this vector's own (not yet written)
                // allocation; madvise(MADV_HUGEPAGE) never changes its contents.
                #[allow(unsafe_code)]
                unsafe {
                    libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
                }
            }
        }
    }
    v.resize(n, x);
    v
}

/// The number a state's slot holds when it is free.
const FREE: u32 = u32::MAX;

/// One slot of [`StateIndex`]: a state's tag and its number (16 bytes, four a cache line).
#[derive(Clone, Copy)]
struct Slot {
    tag: u64,
    num: u32,
}

/// State numbers, in an open-addressing table (linear probing, at most three quarters
/// full) of `(tag, number)` slots. The tag is the exact [`Rules::key`] when every state of the
/// graph is within [`Rules::exact_key_limit`] (the root is: states only lose seeds), so a
/// tag match is a state match and one cache line answers a look-up; otherwise the tag is
/// a hash of the state and a match is confirmed on the state itself.
struct StateIndex {
    /// Whether tags are exact keys.
    exact: bool,
    slots: Vec<Slot>,
    /// `64 - log2(slots.len())`: the home slot is the tag's top bits after a
    /// multiplicative mix.
    shift: u32,
    len: usize,
}

impl StateIndex {
    fn new(exact: bool) -> StateIndex {
        let bits = 12;
        StateIndex {
            exact,
            slots: huge_vec(1 << bits, Slot { tag: 0, num: FREE }),
            shift: 64 - bits,
            len: 0,
        }
    }

    /// The tag of `s` (its exact key, or a hash of it).
    #[inline]
    fn tag<R: Rules>(&self, rules: &R, s: &R::State) -> u64 {
        if self.exact {
            rules.key(s)
        } else {
            use std::hash::BuildHasher;
            FxBuild::default().hash_one(s)
        }
    }

    #[inline]
    fn home(&self, tag: u64) -> usize {
        (tag.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// Asks the processor for the home slot of `tag` (a hint: the enumeration prefetches
    /// every child's slot before looking any up, so that their misses overlap).
    #[inline]
    /// `s`'s moves into `out` and their tags into `tags`, every tag's slot prefetched first
    /// so that the slots' misses overlap. A long sowing (Kiothi's K11 test) asks `stop` as
    /// it goes: [`RetroError::Stopped`] when it gave up.
    fn children_and_tags<R: Rules>(
        &self,
        rules: &R,
        s: &R::State,
        out: &mut Vec<Child<R>>,
        tags: &mut Vec<u64>,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), RetroError> {
        if rules.children_until(s, out, &mut || stop()) > 0 {
            return Err(RetroError::Stopped);
        }
        tags.clear();
        for c in out.iter() {
            let t = self.tag(rules, &c.state);
            self.prefetch(t);
            tags.push(t);
        }
        Ok(())
    }

    fn prefetch(&self, tag: u64) {
        prefetch(&self.slots[self.home(tag)]);
    }

    /// The number of the state `s` of tag `tag` (`states`: the states by number), or
    /// `next` after recording it when it is new.
    #[inline]
    fn find_or_insert<S: Eq>(&mut self, tag: u64, s: &S, states: &[S], next: u32) -> u32 {
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(tag);
        loop {
            let slot = self.slots[i];
            if slot.num == FREE {
                self.slots[i] = Slot { tag, num: next };
                self.len += 1;
                return next;
            }
            if slot.tag == tag && (self.exact || states[slot.num as usize] == *s) {
                return slot.num;
            }
            i = (i + 1) & mask;
        }
    }

    /// The number of `s` (tag `tag`), if recorded.
    fn find<S: Eq>(&self, tag: u64, s: &S, states: &[S]) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(tag);
        loop {
            let slot = self.slots[i];
            if slot.num == FREE {
                return None;
            }
            if slot.tag == tag && (self.exact || states[slot.num as usize] == *s) {
                return Some(slot.num);
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table (the tags are kept, so nothing is recomputed).
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = huge_vec(2 * old.len(), Slot { tag: 0, num: FREE });
        self.shift -= 1;
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.num != FREE) {
            let mut i = self.home(slot.tag);
            while self.slots[i].num != FREE {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }

    /// Renumbers the states (`new_of[old]`), the next slots' numbers prefetched.
    fn renumber(&mut self, new_of: &[u32]) {
        for k in 0..self.slots.len() {
            if let Some(ahead) = self.slots.get(k + 16) {
                if ahead.num != FREE {
                    prefetch(&new_of[ahead.num as usize]);
                }
            }
            let slot = &mut self.slots[k];
            if slot.num != FREE {
                slot.num = new_of[slot.num as usize];
            }
        }
    }
}

/// The values of one sweep (least fixpoint, in the maximising side's terms) and the edge
/// each state's strategy plays.
#[derive(Clone)]
struct Sweep {
    /// Value for the sweep's maximising side (`-INF` where it cannot force an end).
    val: Vec<i32>,
    /// The strategy's edge (offset among the state's edges; `NO_EDGE`: none).
    choice: Vec<u8>,
}

/// The reachable graph of a state with its exact values (RULES.md V2) at every state.
///
/// # Examples
///
/// The example of RULES.md V4 (`lo = 3`, `hi = +inf`), checked against the naive solver:
///
/// ```
/// use giuthi::Position;
/// use giuthi::rules::giuthi::Giuthi;
/// use giuthi::solve::{naive::naive_bounds, retro::solve_graph};
/// use giuthi::value::POS_INF;
/// let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
/// let g = solve_graph(&pos.rules, &pos.state, 100_000)?;
/// let b = g.root_bounds();
/// assert_eq!((b.lo, b.hi), (3, POS_INF));
/// assert_eq!(b, naive_bounds(&pos.rules, &pos.state, 100_000)?);
/// // Every reachable state has its bounds too.
/// assert!(g.len() > 1);
/// assert!(g.states().iter().all(|s| g.bounds(s).is_some()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct GraphValues<R: Rules> {
    rules: R,
    /// The root's number.
    root: usize,
    /// The states by number: by layer (seeds on the board), fewest seeds first.
    states: Vec<R::State>,
    index: StateIndex,
    /// CSR: the edges of state `i` are `first[i]..first[i + 1]`, in [`Rules::children`]
    /// order.
    first: Vec<u32>,
    to: Vec<u32>,
    /// Seeds captured by the mover with each edge.
    gain: Vec<u16>,
    south: Vec<bool>,
    seeds: Vec<u16>,
    /// South-relative final value of a finished game (`None`: the game goes on).
    terminal: Vec<Option<i32>>,
    /// The states of `l` seeds are numbered `layer_start[l]..layer_start[l + 1]`.
    layer_start: Vec<usize>,
    /// Reverse in-layer edges: for state `j`, `rev[rev_first[j]..rev_first[j + 1]]` are
    /// `(i, e)` with edge `e` of `i` leading to `j` without a capture.
    rev_first: Vec<u32>,
    rev: Vec<(u32, u8)>,
    /// The least fixpoint with South maximising (`a`).
    sweep_a: Sweep,
    /// The least fixpoint with North maximising (`-b`).
    sweep_b: Sweep,
    /// Bound on the absolute value of every finite value (bucket queue size).
    span: i32,
}

/// Builds the graph reachable from `root` (at most `max_states` states) and solves it.
///
/// # Errors
///
/// [`RetroError::TooLarge`] when more than `max_states` states are reachable;
/// [`RetroError::TooLargeEarly`] when the early exit gave the graph up (a game of
/// [`EARLY_EXIT_GAMES`] whose size bound is more than [`BOUND_FACTOR`] times
/// `max_states`, and [`PROBE_STATES`] states did not
/// exhaust it: such a graph is almost always larger than the cap; see
/// [`solve_graph_with`] to switch the early exit off);
/// [`RetroError::NotEnumerable`] when a reachable state's moves are not listed;
/// [`RetroError::Unlayered`] when the rules break the seed layering.
pub fn solve_graph<R: Rules>(
    rules: &R,
    root: &R::State,
    max_states: usize,
) -> Result<GraphValues<R>, RetroError> {
    solve_graph_with(rules, root, max_states, true)
}

/// [`solve_graph`], with the early exit ([`RetroError::TooLargeEarly`]) on or off: off,
/// a graph is given up only once it has more than `max_states` states (the early exit's
/// check in examples/retro_endgames.rs).
///
/// # Errors
///
/// As [`solve_graph`].
pub fn solve_graph_with<R: Rules>(
    rules: &R,
    root: &R::State,
    max_states: usize,
    early_exit: bool,
) -> Result<GraphValues<R>, RetroError> {
    solve_graph_until(rules, root, max_states, early_exit, &|| false)
}

/// [`solve_graph_with`] that gives up when `stop` returns true ([`RetroError::Stopped`]):
/// `stop` is asked every 8 states of the enumeration and after every layer's sweeps, so
/// a graph whose states are costly to expand (a Kiothi sowing of many laps) still answers
/// a deadline or a Stop within milliseconds.
///
/// # Errors
///
/// As [`solve_graph`], and [`RetroError::Stopped`].
pub fn solve_graph_until<R: Rules>(
    rules: &R,
    root: &R::State,
    max_states: usize,
    early_exit: bool,
    stop: &dyn Fn() -> bool,
) -> Result<GraphValues<R>, RetroError> {
    solve_graph_racing(rules, root, max_states, early_exit, stop, &mut |_| false)
}

/// [`solve_graph_until`] that races another solver: at each checkpoint of its
/// enumeration ([`RACE_STATES`] states, then [`RACE_STEP`] times as many, below the cap)
/// it calls `race(states)`, which may run the other solver for a while (a search with a
/// node budget, [`race_budget`]) and returns true when that one finished: the pass then
/// gives up ([`RetroError::Raced`]). So a graph that is large but searched quickly (a few
/// thousand nodes, while the pass would enumerate up to its cap first) costs little more
/// than the search, and a small graph is solved by the pass alone.
///
/// # Errors
///
/// As [`solve_graph_until`], and [`RetroError::Raced`].
pub fn solve_graph_racing<R: Rules>(
    rules: &R,
    root: &R::State,
    max_states: usize,
    early_exit: bool,
    stop: &dyn Fn() -> bool,
    race: &mut dyn FnMut(usize) -> bool,
) -> Result<GraphValues<R>, RetroError> {
    let mut g = GraphValues::enumerate(rules, root, max_states, early_exit, stop, race)?;
    g.sweep_all(stop)?;
    Ok(g)
}

impl<R: Rules> GraphValues<R> {
    fn enumerate(
        rules: &R,
        root: &R::State,
        max_states: usize,
        early_exit: bool,
        stop: &dyn Fn() -> bool,
        race: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Self, RetroError> {
        let mut next_race = RACE_STATES;
        // The early exit: a graph whose size bound is far above the cap is given up once
        // it passes PROBE_STATES states.
        let bound = board_bound(rules, root);
        let give_up_at = if early_exit
            && early_exit_factor(rules.name()).is_some_and(|f| bound > f * max_states as f64)
        {
            PROBE_STATES
        } else {
            usize::MAX
        };
        // Breadth first, numbered in the order found.
        let mut states = vec![*root];
        let mut index = StateIndex::new(rules.seeds_on_board(root) <= rules.exact_key_limit());
        let tag = index.tag(rules, root);
        index.find_or_insert(tag, root, &states, 0);
        let mut first = vec![0u32];
        let mut to: Vec<u32> = Vec::new();
        let mut gain: Vec<u16> = Vec::new();
        let mut seeds = Vec::new();
        let mut children: Vec<Child<R>> = Vec::new();
        let mut tags: Vec<u64> = Vec::new();
        let mut next_children: Vec<Child<R>> = Vec::new();
        let mut next_tags: Vec<u64> = Vec::new();
        let mut have_next = false;
        let mut i = 0;
        while i < states.len() {
            let s = states[i];
            if i % 8 == 0 && stop() {
                return Err(RetroError::Stopped);
            }
            if !rules.can_enumerate(&s) {
                return Err(RetroError::NotEnumerable);
            }
            let here = rules.seeds_on_board(&s);
            seeds.push(here as u16);
            if have_next {
                std::mem::swap(&mut children, &mut next_children);
                std::mem::swap(&mut tags, &mut next_tags);
                have_next = false;
            } else {
                index.children_and_tags(rules, &s, &mut children, &mut tags, stop)?;
            }
            if children.len() >= NO_EDGE as usize {
                return Err(RetroError::TooManyMoves {
                    moves: children.len(),
                });
            }
            // The next state's children and their slots now, so that their misses overlap
            // with this state's look-ups.
            if i + 1 < states.len() && rules.can_enumerate(&states[i + 1]) {
                let next = &states[i + 1];
                index.children_and_tags(rules, next, &mut next_children, &mut next_tags, stop)?;
                have_next = true;
            }
            for (c, &t) in children.iter().zip(&tags) {
                let there = rules.seeds_on_board(&c.state);
                let layered = if c.captured == 0 {
                    there <= here
                } else {
                    there + c.captured as u32 == here
                };
                if !layered {
                    return Err(RetroError::Unlayered {
                        from: here,
                        to: there,
                        captured: c.captured,
                    });
                }
                let next = states.len() as u32;
                let j = index.find_or_insert(t, &c.state, &states, next);
                if j == next {
                    if states.len() >= max_states {
                        return Err(RetroError::TooLarge { limit: max_states });
                    }
                    if states.len() >= give_up_at {
                        return Err(RetroError::TooLargeEarly {
                            limit: max_states,
                            bound: bound as u64,
                            probe: give_up_at,
                        });
                    }
                    states.push(c.state);
                    if states.len() == next_race {
                        next_race = next_checkpoint(next_race);
                        if race(states.len()) {
                            return Err(RetroError::Raced);
                        }
                    }
                }
                to.push(j);
                gain.push(c.captured);
            }
            first.push(to.len() as u32);
            i += 1;
        }
        let n = states.len();
        // Renumber by layer (seeds on the board, fewest first; breadth-first order inside
        // a layer): a layer is then a range of numbers, and an edge stays in its layer
        // exactly when its target is not below the layer's first number.
        let top = seeds.iter().copied().max().unwrap_or(0) as usize;
        let mut layer_start = vec![0usize; top + 2];
        for &s in &seeds {
            layer_start[s as usize + 1] += 1;
        }
        for l in 0..=top {
            layer_start[l + 1] += layer_start[l];
        }
        let mut fill = layer_start.clone();
        let mut new_of = vec![0u32; n];
        for (old, &s) in seeds.iter().enumerate() {
            new_of[old] = fill[s as usize] as u32;
            fill[s as usize] += 1;
        }
        let mut old_of = vec![0u32; n];
        for (old, &new) in new_of.iter().enumerate() {
            old_of[new as usize] = old as u32;
        }
        index.renumber(&new_of);
        // The old vectors are moved into the blocks and freed there (a shadowed vector
        // would live to the end of the function, through the reverse edges' peak).
        let states: Vec<R::State> = {
            let old = states;
            old_of.iter().map(|&o| old[o as usize]).collect()
        };
        let seeds: Vec<u16> = {
            let old = seeds;
            old_of.iter().map(|&o| old[o as usize]).collect()
        };
        let mut first2 = Vec::with_capacity(n + 1);
        first2.push(0u32);
        let mut to2 = Vec::with_capacity(to.len());
        let mut gain2 = Vec::with_capacity(gain.len());
        for &o in &old_of {
            let o = o as usize;
            for e in first[o] as usize..first[o + 1] as usize {
                if let Some(&t) = to.get(e + 16) {
                    prefetch(&new_of[t as usize]);
                }
                to2.push(new_of[to[e] as usize]);
                gain2.push(gain[e]);
            }
            first2.push(to2.len() as u32);
        }
        drop((first, to, gain));
        let (first, to, gain) = (first2, to2, gain2);
        let root = new_of[0] as usize;
        drop((new_of, old_of));
        let south: Vec<bool> = states
            .iter()
            .map(|s| rules.turn(s) == Side::South)
            .collect();
        let terminal: Vec<Option<i32>> = (0..n)
            .map(|i| {
                (first[i] == first[i + 1]).then(|| {
                    let v = rules.final_value(&states[i]) as i32;
                    if south[i] {
                        v
                    } else {
                        -v
                    }
                })
            })
            .collect();
        // Reverse in-layer edges.
        let layer_of = |i: usize| layer_start[seeds[i] as usize];
        let mut rev_first = vec![0u32; n + 1];
        for i in 0..n {
            let lo = layer_of(i) as u32;
            for e in first[i]..first[i + 1] {
                if let Some(&t) = to.get(e as usize + 16) {
                    prefetch(&rev_first[t as usize + 1]);
                }
                let j = to[e as usize];
                if j >= lo {
                    rev_first[j as usize + 1] += 1;
                }
            }
        }
        for j in 0..n {
            rev_first[j + 1] += rev_first[j];
        }
        let mut fill = rev_first.clone();
        let mut rev = vec![(0u32, 0u8); rev_first[n] as usize];
        for i in 0..n {
            let lo = layer_of(i) as u32;
            for e in first[i]..first[i + 1] {
                // Two levels ahead: the target's fill count, then the reverse edge it
                // points at.
                if let Some(&t) = to.get(e as usize + 24) {
                    prefetch(&fill[t as usize]);
                }
                if let Some(&t) = to.get(e as usize + 8) {
                    if let Some(r) = rev.get(fill[t as usize] as usize) {
                        prefetch(r);
                    }
                }
                let j = to[e as usize];
                if j >= lo {
                    rev[fill[j as usize] as usize] = (i as u32, (e - first[i]) as u8);
                    fill[j as usize] += 1;
                }
            }
        }
        drop(fill);
        let span = top as i32 + 1;
        let empty = Sweep {
            val: huge_vec(n, -INF),
            choice: huge_vec(n, NO_EDGE),
        };
        Ok(GraphValues {
            rules: rules.clone(),
            root,
            states,
            index,
            first,
            to,
            gain,
            south,
            seeds,
            terminal,
            layer_start,
            rev_first,
            rev,
            sweep_a: empty.clone(),
            sweep_b: empty,
            span,
        })
    }

    fn sweep_all(&mut self, stop: &dyn Fn() -> bool) -> Result<(), RetroError> {
        let mut a = std::mem::replace(
            &mut self.sweep_a,
            Sweep {
                val: Vec::new(),
                choice: Vec::new(),
            },
        );
        let mut b = std::mem::replace(
            &mut self.sweep_b,
            Sweep {
                val: Vec::new(),
                choice: Vec::new(),
            },
        );
        let mut scratch = Scratch::new(self.span);
        for l in 0..self.layer_start.len() - 1 {
            let (lo, hi) = (self.layer_start[l], self.layer_start[l + 1]);
            if lo == hi {
                continue;
            }
            self.sweep_layer(true, lo..hi, &a.val, None, &mut scratch);
            Self::store(lo..hi, &scratch, &mut a);
            self.sweep_layer(false, lo..hi, &b.val, None, &mut scratch);
            Self::store(lo..hi, &scratch, &mut b);
            if stop() {
                return Err(RetroError::Stopped);
            }
        }
        self.sweep_a = a;
        self.sweep_b = b;
        Ok(())
    }

    /// The least fixpoint of one layer for the maximising side (`South` when `south_max`),
    /// the lower layers' values (for that side) already in `val`. `fixed` makes one state
    /// a terminal with the given South-relative value. The results stay in `sc`'s records
    /// ([`Work::value`], [`Work::choice`]; [`Self::store`] writes them out).
    fn sweep_layer(
        &self,
        south_max: bool,
        range: std::ops::Range<usize>,
        val: &[i32],
        fixed: Option<(u32, i32)>,
        sc: &mut Scratch,
    ) {
        let sign = if south_max { 1 } else { -1 };
        let span = sc.span;
        let layer_lo = range.start as u32;
        let base = range.start;
        // Every record of the range (and the end's reverse edge start) is written below
        // before it is read.
        if sc.work.len() < range.len() + 1 {
            sc.work = huge_vec(range.len() + 1, Work::default());
        }
        sc.work[range.len()].rev = self.rev_first[range.end];
        for i in range.clone() {
            let w = &mut sc.work[i - base];
            w.rev = self.rev_first[i];
            let term = match fixed {
                Some((f, v)) if f as usize == i => Some(v),
                _ => self.terminal[i],
            };
            if let Some(t) = term {
                w.flags = FIXED;
                w.choice = NO_EDGE;
                sc.buckets[(sign * t + span) as usize].push(i as u32);
                continue;
            }
            let south = self.south[i];
            // The mover's gain for the maximising side, per seed captured.
            let g_sign = if south == south_max { 1 } else { -1 };
            let (e0, e1) = (self.first[i] as usize, self.first[i + 1] as usize);
            let mut choice = NO_EDGE;
            if south == south_max {
                w.flags = MAX;
                let mut best = -INF;
                for e in e0..e1 {
                    let j = self.to[e];
                    if j >= layer_lo {
                        continue;
                    }
                    let v = val[j as usize];
                    let c = if v <= -INF {
                        -INF
                    } else {
                        v + g_sign * self.gain[e] as i32
                    };
                    if c > best {
                        best = c;
                        choice = (e - e0) as u8;
                    }
                }
                w.aux = best;
                w.choice = choice;
                if best > -INF {
                    sc.buckets[(best + span) as usize].push(i as u32);
                }
            } else {
                let mut worst = INF;
                let mut pending = 0u8;
                for e in e0..e1 {
                    let j = self.to[e];
                    if j >= layer_lo {
                        pending += 1;
                        continue;
                    }
                    let v = val[j as usize];
                    let c = if v <= -INF {
                        -INF
                    } else {
                        v + g_sign * self.gain[e] as i32
                    };
                    if c < worst {
                        worst = c;
                        choice = (e - e0) as u8;
                    }
                }
                w.aux = worst;
                w.choice = choice;
                w.pending = pending;
                w.flags = 0;
                if worst <= -INF {
                    // An exit the maximising side cannot force to an end: settled at -INF.
                    w.flags = DONE;
                } else if pending == 0 {
                    sc.buckets[(worst + span) as usize].push(i as u32);
                }
            }
        }
        self.settle(base, sc);
    }

    /// Writes the values and strategy moves of the layer `range` that [`Self::sweep_layer`]
    /// left in `sc` into `sw`.
    fn store(range: std::ops::Range<usize>, sc: &Scratch, sw: &mut Sweep) {
        for ((c, v), w) in sw.choice[range.clone()]
            .iter_mut()
            .zip(&mut sw.val[range])
            .zip(&sc.work)
        {
            *c = w.choice;
            *v = w.value();
        }
    }

    /// Settles the bucket queue from the highest value down, a bucket at a time: the
    /// bucket is taken whole and walked with prefetches ahead (the record, then the
    /// reverse edges, then the predecessors' records), so that the misses overlap.
    fn settle(&self, base: usize, sc: &mut Scratch) {
        let span = sc.span;
        let mut batch = std::mem::take(&mut sc.batch);
        let mut cur = 2 * span as usize;
        loop {
            if sc.buckets[cur].is_empty() {
                if cur == 0 {
                    break;
                }
                cur -= 1;
                continue;
            }
            // Every state of the bucket settles at its value, in any order; states added to
            // the current bucket while it is walked (a maximising predecessor, or a
            // minimising one whose last in-layer move this was) are taken in the next round.
            batch.clear();
            std::mem::swap(&mut batch, &mut sc.buckets[cur]);
            let v = cur as i32 - span;
            const D1: usize = 12;
            const D2: usize = 8;
            const D3: usize = 4;
            for t in 0..batch.len() {
                if let Some(&x) = batch.get(t + D1) {
                    prefetch(&sc.work[x as usize - base]);
                }
                if let Some(&x) = batch.get(t + D2) {
                    let k = x as usize - base;
                    let r = sc.work[k].rev as usize;
                    if r < self.rev.len() {
                        prefetch(&self.rev[r]);
                    }
                }
                if let Some(&x) = batch.get(t + D3) {
                    let k = x as usize - base;
                    if sc.work[k].flags & DONE == 0 {
                        let rs = sc.work[k].rev as usize..sc.work[k + 1].rev as usize;
                        for &(p, _) in &self.rev[rs] {
                            prefetch(&sc.work[p as usize - base]);
                        }
                    }
                }
                let i = batch[t];
                let k = i as usize - base;
                let wi = &mut sc.work[k];
                if wi.flags & DONE != 0 {
                    continue;
                }
                wi.flags |= DONE;
                wi.aux = v;
                let rs = wi.rev as usize..sc.work[k + 1].rev as usize;
                for r in rs {
                    let (p, e) = self.rev[r];
                    let w = &mut sc.work[p as usize - base];
                    if w.flags & (DONE | FIXED) != 0 {
                        continue;
                    }
                    if w.flags & MAX != 0 {
                        if v > w.aux {
                            w.aux = v;
                            w.choice = e;
                            sc.buckets[cur].push(p);
                        }
                    } else {
                        w.pending -= 1;
                        if w.pending == 0 {
                            if v <= w.aux {
                                w.choice = e;
                                w.aux = v;
                            }
                            let x = w.aux;
                            sc.buckets[(x + span) as usize].push(p);
                        }
                    }
                }
            }
        }
        batch.clear();
        sc.batch = batch;
    }

    /// Number of reachable states (the root included).
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether the graph is empty (never: the root is in it).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Number of moves (edges) of the graph.
    pub fn edges(&self) -> usize {
        self.to.len()
    }

    /// The reachable states, by layer (seeds on the board), fewest seeds first.
    pub fn states(&self) -> &[R::State] {
        &self.states
    }

    /// `(lo, hi)` of V2 for the side to move in `s`, if `s` is in the graph.
    pub fn bounds(&self, s: &R::State) -> Option<Bounds> {
        if self.index.exact && self.rules.seeds_on_board(s) > self.rules.exact_key_limit() {
            return None;
        }
        let tag = self.index.tag(&self.rules, s);
        let i = self.index.find(tag, s, &self.states)?;
        Some(self.bounds_at(i as usize))
    }

    /// `(lo, hi)` of V2 for the side to move at the root.
    pub fn root_bounds(&self) -> Bounds {
        self.bounds_at(self.root)
    }

    /// South-relative `(a, b)` of state `i`.
    fn south_ab(&self, i: usize) -> (i32, i32) {
        (self.sweep_a.val[i], -self.sweep_b.val[i])
    }

    fn bounds_at(&self, i: usize) -> Bounds {
        let (a, b) = self.south_ab(i);
        let conv = |x: i32| -> Score {
            if x <= -INF {
                NEG_INF
            } else if x >= INF {
                POS_INF
            } else {
                x as Score
            }
        };
        if self.south[i] {
            Bounds {
                lo: conv(a),
                hi: conv(b),
            }
        } else {
            Bounds {
                lo: conv(-b),
                hi: conv(-a),
            }
        }
    }

    /// South-relative `(a, b)` of the root's children (one per edge, in edge order) with
    /// the root made a terminal worth `c_south` (South-relative future value).
    ///
    /// Only the root's layer can return to the root, and only through the root's
    /// in-layer predecessors: without any, the values are those of the graph; otherwise
    /// the root's layer is swept again, and only the children's values are read from the
    /// sweeps' records (nothing else of the graph is copied).
    fn root_children_fixed(&self, c_south: i32) -> Vec<(i32, i32)> {
        let r = self.root;
        let edges = self.first[r] as usize..self.first[r + 1] as usize;
        if self.rev_first[r] == self.rev_first[r + 1] {
            return edges.map(|e| self.south_ab(self.to[e] as usize)).collect();
        }
        let span = self.span.max(c_south.abs() + 1);
        let mut sc = Scratch::new(span);
        let l = self.seeds[r] as usize;
        let range = self.layer_start[l]..self.layer_start[l + 1];
        let fixed = Some((r as u32, c_south));
        // A child's value: from the sweep's record inside the layer, else the graph's.
        let value = |sc: &Scratch, sw: &Sweep, j: usize| {
            if range.contains(&j) {
                sc.work[j - range.start].value()
            } else {
                sw.val[j]
            }
        };
        self.sweep_layer(true, range.clone(), &self.sweep_a.val, fixed, &mut sc);
        let a: Vec<i32> = edges
            .clone()
            .map(|e| value(&sc, &self.sweep_a, self.to[e] as usize))
            .collect();
        self.sweep_layer(false, range.clone(), &self.sweep_b.val, fixed, &mut sc);
        edges
            .zip(a)
            .map(|(e, a)| (a, -value(&sc, &self.sweep_b, self.to[e] as usize)))
            .collect()
    }

    /// The exact final margin of every legal move at the root, for the mover, the root
    /// counted as played (V4); `d` is the root mover's captured difference.
    fn root_move_values(&self, d: i32) -> Vec<i32> {
        let r = self.root;
        let mover_south = self.south[r];
        // Returning to the root ends the game with a margin of 0: a future gain of -d.
        let c_mover = -d;
        let c_south = if mover_south { c_mover } else { -c_mover };
        let ab = self.root_children_fixed(c_south);
        let e0 = self.first[r] as usize;
        ab.into_iter()
            .enumerate()
            .map(|(m, (aj, bj))| {
                let k = self.gain[e0 + m] as i32;
                let (lo, hi) = if mover_south { (aj, bj) } else { (-bj, -aj) };
                let c_child = c_mover - k;
                d + k + c_child.clamp(lo, hi)
            })
            .collect()
    }

    /// A principal variation from the root whose mover's captured difference is `d`,
    /// starting with `first_edge` when given; at most `max_len` moves.
    fn pv_edges(&self, d: i32, first_edge: Option<usize>, max_len: usize) -> Vec<usize> {
        let mut d_south = if self.south[self.root] { d } else { -d };
        let mut seen = vec![false; self.states.len()];
        let mut i = self.root;
        seen[i] = true;
        let mut line = Vec::new();
        while line.len() < max_len && self.terminal[i].is_none() {
            let (e0, e1) = (self.first[i] as usize, self.first[i + 1] as usize);
            let e = match first_edge {
                Some(f) if line.is_empty() => e0 + f,
                _ => self.pv_choice(i, d_south),
            };
            line.push(e - e0);
            let k = self.gain[e] as i32;
            d_south += if self.south[i] { k } else { -k };
            i = self.to[e] as usize;
            debug_assert!(e < e1);
            if seen[i] {
                break;
            }
            seen[i] = true;
        }
        line
    }

    /// True South-relative value of state `i` when a repetition pays the future value `c`.
    fn true_value(&self, i: usize, c: i32) -> i32 {
        let (a, b) = self.south_ab(i);
        c.clamp(a, b)
    }

    /// The edge of the strategy that realises the true value of state `i` (captured
    /// difference `d_south`) when it differs from the repetition payoff: the strategy of
    /// the least fixpoint above it, of the greatest below it (`None` at the payoff).
    fn strategy_edge(&self, i: usize, d_south: i32) -> Option<usize> {
        let c = -d_south;
        let t = self.true_value(i, c);
        let ch = if t > c {
            self.sweep_a.choice[i]
        } else if t < c {
            self.sweep_b.choice[i]
        } else {
            return None;
        };
        (ch != NO_EDGE).then(|| self.first[i] as usize + ch as usize)
    }

    /// The edge a principal variation plays at state `i` (captured difference `d_south`).
    fn pv_choice(&self, i: usize, d_south: i32) -> usize {
        self.strategy_edge(i, d_south)
            .or_else(|| self.keeping_edges(i, d_south).next())
            .unwrap_or(self.first[i] as usize)
    }

    /// The edges of state `i` that keep its true value (repetition paying a margin of 0).
    fn keeping_edges(&self, i: usize, d_south: i32) -> impl Iterator<Item = usize> + '_ {
        let (e0, e1) = (self.first[i] as usize, self.first[i + 1] as usize);
        let c = -d_south;
        let t = self.true_value(i, c);
        (e0..e1).filter(move |&e| {
            let k = self.gain[e] as i32;
            let g = if self.south[i] { k } else { -k };
            g + self.true_value(self.to[e] as usize, c - g) == t
        })
    }
}

/// A state's working record in one layer's sweep (12 bytes, so that a reverse edge costs
/// one cache miss, and settling a state one more for its reverse edges).
#[derive(Clone, Copy, Default)]
struct Work {
    /// Maximising state: the best value so far; minimising: the least exit value; once
    /// settled ([`DONE`]): the value.
    aux: i32,
    /// The first of the state's reverse in-layer edges (its `rev_first`; the next
    /// record's is the end).
    rev: u32,
    /// Minimising state: in-layer moves not settled yet.
    pending: u8,
    /// [`DONE`], [`FIXED`], [`MAX`].
    flags: u8,
    /// The strategy's edge (offset among the state's edges; `NO_EDGE`: none).
    choice: u8,
}

impl Work {
    /// The value a finished sweep gives the state (`-INF`: never settled).
    #[inline]
    fn value(&self) -> i32 {
        if self.flags & DONE != 0 {
            self.aux
        } else {
            -INF
        }
    }
}

/// [`Work::flags`]: the state's value is settled.
const DONE: u8 = 1;
/// [`Work::flags`]: a terminal (or the root made one).
const FIXED: u8 = 2;
/// [`Work::flags`]: the sweep's maximising side moves.
const MAX: u8 = 4;

/// Per-sweep working memory: the bucket queue (one bucket per value) and the records of
/// the layer's states.
struct Scratch {
    span: i32,
    buckets: Vec<Vec<u32>>,
    work: Vec<Work>,
    batch: Vec<u32>,
}

impl Scratch {
    fn new(span: i32) -> Scratch {
        Scratch {
            span,
            buckets: vec![Vec::new(); 2 * span as usize + 1],
            work: Vec::new(),
            batch: Vec::new(),
        }
    }
}

/// The length at which a principal variation is cut (as the alpha-beta solver's).
const PV_MAX_LEN: usize = 1000;

/// Solves a position exactly through its reachable graph: bounds, margin, result, best
/// moves (V4) and a principal variation, as [`super::alphabeta::Solver::solve`] gives them;
/// `nodes` is the number of states of the graph.
///
/// # Errors
///
/// As [`solve_graph`] (a graph larger than `max_states`, ...).
///
/// # Examples
///
/// ```
/// use giuthi::Position;
/// use giuthi::rules::giuthi::Giuthi;
/// use giuthi::solve::retro::solve_position;
/// let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
/// let (sol, moves) = solve_position(&pos, 100_000)?;
/// assert_eq!(sol.margin, 1);
/// let best: Vec<String> = sol.best_moves.iter().map(|m| m.to_string()).collect();
/// assert_eq!(best, ["5cw"]);
/// assert_eq!(sol.pv[0].to_string(), "5cw");
/// assert_eq!(moves.len(), 2); // every legal move with its margin (V4)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::type_complexity)]
pub fn solve_position<R: Rules>(
    pos: &Position<R>,
    max_states: usize,
) -> Result<(Solution<R>, Vec<(R::Move, i32)>), RetroError> {
    solve_position_until(pos, max_states, &|| false)
}

/// [`solve_position`] that gives up when `stop` returns true (see [`solve_graph_until`]).
///
/// # Errors
///
/// As [`solve_position`], and [`RetroError::Stopped`].
#[allow(clippy::type_complexity)]
pub fn solve_position_until<R: Rules>(
    pos: &Position<R>,
    max_states: usize,
    stop: &dyn Fn() -> bool,
) -> Result<(Solution<R>, Vec<(R::Move, i32)>), RetroError> {
    solve_position_racing(pos, max_states, stop, &mut |_| false)
}

/// [`solve_position_until`] racing another solver ([`solve_graph_racing`]): `race` is
/// called at the pass's checkpoints and gives the pass up by returning true.
///
/// # Errors
///
/// As [`solve_position_until`], and [`RetroError::Raced`].
#[allow(clippy::type_complexity)]
pub fn solve_position_racing<R: Rules>(
    pos: &Position<R>,
    max_states: usize,
    stop: &dyn Fn() -> bool,
    race: &mut dyn FnMut(usize) -> bool,
) -> Result<(Solution<R>, Vec<(R::Move, i32)>), RetroError> {
    let g = solve_graph_racing(&pos.rules, &pos.state, max_states, true, stop, race)?;
    let d = pos.captured_difference();
    let bounds = g.root_bounds();
    let margin = bounds.exact_margin(d);
    let mut children = Vec::new();
    pos.rules.children(&pos.state, &mut children);
    let values = g.root_move_values(d);
    debug_assert_eq!(values.len(), children.len());
    let moves: Vec<(R::Move, i32)> = children.iter().map(|c| c.mv).zip(values).collect();
    let best: Vec<usize> = (0..moves.len()).filter(|&m| moves[m].1 == margin).collect();
    // The line starts with the move of the strategy that realises the root's value (a
    // best move: its line never comes back to the root); where the value is the
    // repetition payoff, with a best move that keeps the value without the root counted
    // as played, else the first best move.
    let d_south = if g.south[g.root] { d } else { -d };
    let e0 = g.first[g.root] as usize;
    let strategy = g
        .strategy_edge(g.root, d_south)
        .map(|e| e - e0)
        .filter(|m| best.contains(m));
    let first = strategy.or_else(|| {
        let keeping: Vec<usize> = g.keeping_edges(g.root, d_south).map(|e| e - e0).collect();
        best.iter()
            .copied()
            .find(|m| keeping.contains(m))
            .or(best.first().copied())
    });
    let pv_edges = g.pv_edges(d, first, PV_MAX_LEN);
    // Moves of the line, replayed through the rules (edge offsets are child indices).
    let mut pv = Vec::with_capacity(pv_edges.len());
    let mut s = pos.state;
    for off in pv_edges {
        pos.rules.children(&s, &mut children);
        let c = children[off];
        pv.push(c.mv);
        s = c.state;
    }
    let sol = Solution {
        ranges: crate::value::BoundRanges::exact(bounds),
        margin,
        result: GameResult::from_margin(margin),
        best_moves: best.iter().map(|&m| moves[m].0).collect(),
        pv,
        nodes: g.len() as u64,
    };
    Ok((sol, moves))
}
