//! An endgame oracle built on demand from retrograde solves (like endgame databases
//! looked up inside the search, but made as the search meets them).
//!
//! [`RetroOracle`] answers [`EndgameOracle::probe`] for states with at most `max_seeds`
//! seeds on the board: the first probe of such a state solves its whole reachable graph
//! ([`super::retro::solve_graph`], at most `max_states` states) and keeps the exact
//! `(lo, hi)` of every state of it, so the probes of its successors are answered from
//! memory. A state whose graph is larger than `max_states` is remembered as not covered.
//! The cache is bounded: past `max_cached` entries it is emptied.

use super::retro::solve_graph;
use super::EndgameOracle;
use crate::rules::Rules;
use crate::value::Bounds;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// An [`EndgameOracle`] backed by on-demand retrograde solves of small graphs, exact like
/// the search itself (RULES.md V2).
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use giuthi::Position;
/// use giuthi::rules::giuthi::Giuthi;
/// use giuthi::solve::alphabeta::{Solver, SolverOptions};
/// use giuthi::solve::retro_oracle::RetroOracle;
/// use giuthi::solve::EndgameOracle;
/// let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
/// let oracle = Arc::new(RetroOracle::new(pos.rules.clone(), 6, 100_000, 1_000_000));
/// let b = oracle.probe(&pos.state).expect("6 seeds or fewer");
/// assert_eq!(b.lo, 3);
/// let solver = Solver::new(pos.rules.clone(), SolverOptions::default()).with_oracle(oracle);
/// assert_eq!(solver.solve(&pos)?.margin, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RetroOracle<R: Rules> {
    rules: R,
    max_seeds: u32,
    max_states: usize,
    max_cached: usize,
    /// Exact bounds by state (`None`: the state's graph is larger than `max_states`).
    cache: Mutex<HashMap<R::State, Option<Bounds>>>,
    solves: AtomicU64,
    solved_states: AtomicU64,
}

impl<R: Rules> RetroOracle<R> {
    /// An oracle for states of at most `max_seeds` seeds whose graphs have at most
    /// `max_states` states, keeping at most about `max_cached` states' bounds.
    pub fn new(rules: R, max_seeds: u32, max_states: usize, max_cached: usize) -> RetroOracle<R> {
        RetroOracle {
            rules,
            max_seeds,
            max_states,
            max_cached,
            cache: Mutex::new(HashMap::new()),
            solves: AtomicU64::new(0),
            solved_states: AtomicU64::new(0),
        }
    }

    /// `(graphs solved, states in them)` so far.
    pub fn stats(&self) -> (u64, u64) {
        (
            self.solves.load(Ordering::Relaxed),
            self.solved_states.load(Ordering::Relaxed),
        )
    }
}

/// Cache entries made by one solve.
type Entries<R> = Vec<(<R as Rules>::State, Option<Bounds>)>;

impl<R: Rules> EndgameOracle<R> for RetroOracle<R> {
    fn probe(&self, s: &R::State) -> Option<Bounds> {
        if self.rules.seeds_on_board(s) > self.max_seeds {
            return None;
        }
        if let Some(b) = self.cache.lock().ok()?.get(s) {
            return *b;
        }
        let (entries, found): (Entries<R>, Option<Bounds>) =
            match solve_graph(&self.rules, s, self.max_states) {
                Ok(g) => {
                    self.solves.fetch_add(1, Ordering::Relaxed);
                    self.solved_states
                        .fetch_add(g.len() as u64, Ordering::Relaxed);
                    let all = g.states().iter().map(|t| (*t, g.bounds(t))).collect();
                    (all, Some(g.root_bounds()))
                }
                Err(_) => (vec![(*s, None)], None),
            };
        let mut cache = self.cache.lock().ok()?;
        if cache.len() + entries.len() > self.max_cached {
            cache.clear();
        }
        cache.extend(entries);
        found
    }
}
