//! Small endgames solved on the spot inside the heuristic tree: a position with few seeds
//! on the board gets its exact bounds `(lo, hi)` (RULES.md V2) from the retrograde solver
//! ([`crate::solve::retro::solve_graph`]) in place of the evaluation, and every state of
//! the solved graph is cached, so the whole subtree below it is answered from then on.
//!
//! The search goes top-down, so the first small position met on a line is the one solved,
//! and its graph holds every position below it. A graph larger than the state cap is not
//! solved; the seed threshold then drops below that position's seeds for good (so a
//! search does not pay for many failed enumerations).
//!
//! The bounds are exact for the position *without* the game's history or the search path
//! (a return to one of those would end the game as a draw, G10): the search therefore
//! treats them as it treats tablebase values (exact where `lo == hi`, else path-dependent),
//! and never reports them as a proof in a game that can repeat ([`super::search`]).

use crate::rules::Rules;
use crate::solve::retro::solve_graph;
use crate::value::Bounds;
use std::collections::{HashMap, HashSet};

/// A seed threshold for Giuthi-like boards: positions with at most this many seeds on the
/// board are tried (`match`'s engine option `small=SEEDS`; off by default there).
pub const DEFAULT_MAX_SEEDS: u32 = 12;

/// Default cap on the states of one graph (about 1.7 µs a state: about 7 ms).
pub const DEFAULT_MAX_STATES: usize = 4_000;

/// Cached states before the cache is emptied (about 24 bytes an entry).
const MAX_CACHED: usize = 2_000_000;

/// The cache of exact bounds of small endgames, with its limits and counters.
///
/// # Examples
///
/// ```
/// use giuthi::anytime::small::SmallEndgames;
/// use giuthi::rules::giuthi::Giuthi;
/// use giuthi::solve::retro::solve_position;
/// use giuthi::Position;
///
/// let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
/// let mut small = SmallEndgames::new(8, 10_000);
/// let b = small.probe(&pos.rules, &pos.state).expect("a small endgame");
/// // The same exact margin as the retrograde solver's answer at the root (V3).
/// let (sol, _) = solve_position(&pos, 10_000)?;
/// assert_eq!(b.exact_margin(pos.captured_difference()), sol.margin);
/// assert_eq!(small.graphs_solved(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct SmallEndgames {
    max_seeds: u32,
    max_states: usize,
    bounds: HashMap<u64, Bounds>,
    too_large: HashSet<u64>,
    graphs: u64,
    states: u64,
}

impl SmallEndgames {
    /// Tries positions with at most `max_seeds` seeds on the board, solving graphs of at
    /// most `max_states` states.
    pub fn new(max_seeds: u32, max_states: usize) -> SmallEndgames {
        SmallEndgames {
            max_seeds,
            max_states,
            bounds: HashMap::new(),
            too_large: HashSet::new(),
            graphs: 0,
            states: 0,
        }
    }

    /// The seed threshold now in force (it drops when a graph is too large).
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// Graphs solved so far.
    pub fn graphs_solved(&self) -> u64 {
        self.graphs
    }

    /// States enumerated so far: those of the graphs solved, and the cap for each graph
    /// found too large (a measure of the work done).
    pub fn states_solved(&self) -> u64 {
        self.states
    }

    /// The exact bounds of `s` for the side to move (V2), when `s` is small enough: from
    /// the cache, or by solving its reachable graph now. `None` when `s` has more seeds
    /// than the threshold (or than [`Rules::key`] tells apart exactly), or its graph is
    /// larger than the cap or cannot be enumerated (a Kiothi opening, K3).
    pub fn probe<R: Rules>(&mut self, rules: &R, s: &R::State) -> Option<Bounds> {
        let seeds = rules.seeds_on_board(s);
        if seeds > self.max_seeds || seeds > rules.exact_key_limit() {
            return None;
        }
        let key = rules.key(s);
        if let Some(b) = self.bounds.get(&key) {
            return Some(*b);
        }
        if self.too_large.contains(&key) {
            return None;
        }
        match solve_graph(rules, s, self.max_states) {
            Ok(g) => {
                if self.bounds.len() + g.len() > MAX_CACHED {
                    self.bounds.clear();
                }
                self.graphs += 1;
                self.states += g.len() as u64;
                for st in g.states() {
                    if let Some(b) = g.bounds(st) {
                        self.bounds.insert(rules.key(st), b);
                    }
                }
                Some(g.root_bounds())
            }
            Err(_) => {
                self.states += self.max_states as u64;
                self.too_large.insert(key);
                // Positions with as many seeds are likely as large: try fewer from now on.
                self.max_seeds = self.max_seeds.min(seeds.saturating_sub(1));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::giuthi::Giuthi;
    use crate::solve::naive::naive_bounds;
    use crate::Position;

    /// V2: every state of a solved graph is cached with the bounds the naive reference
    /// solver gives it.
    #[test]
    fn v2_cached_bounds_agree_with_the_naive_solver() {
        let pos: Position<Giuthi> = "giuthi 2,0,1,0/0,2,1,1 S 1,0".parse().expect("position");
        let mut small = SmallEndgames::new(10, 100_000);
        assert!(small.probe(&pos.rules, &pos.state).is_some());
        let graph = solve_graph(&pos.rules, &pos.state, 100_000).expect("graph");
        for st in graph.states() {
            let b = small.probe(&pos.rules, st).expect("cached");
            let naive = naive_bounds(&pos.rules, st, 100_000).expect("naive");
            assert_eq!(b, naive);
        }
        assert_eq!(
            small.graphs_solved(),
            1,
            "one graph answers its whole subtree"
        );
    }

    /// A graph over the cap is not solved, and the threshold drops below its seeds.
    #[test]
    fn a_graph_over_the_cap_lowers_the_threshold() {
        let pos: Position<Giuthi> = "giuthi 2,2,2,2/2,2,2,2 S 0,0".parse().expect("position");
        let mut small = SmallEndgames::new(20, 10);
        assert_eq!(small.probe(&pos.rules, &pos.state), None);
        assert_eq!(small.max_seeds(), 15);
        assert_eq!(small.graphs_solved(), 0);
    }
}
