//! The heuristic search: iterative-deepening alpha-beta over any [`Rules`], with the
//! evaluation of [`super::eval`] at the depth limit, its own transposition table
//! ([`super::table`]) and a flag on every score saying whether it is *complete* (no
//! evaluated leaf below it).
//!
//! # Scores
//!
//! A score is a future margin for the side to move in hundredths of a seed (RULES.md V2:
//! the seeds it will still gain over the opponent; captured seeds are added on the way
//! up). Negamax negates only when the turn passes: an extra move (G5b, R2) and a
//! position after it have the same mover. Leaves score:
//!
//! - a finished game: its final value ([`Rules::final_value`]), complete;
//! - a position that repeats one of the path or of the game's history (G10, K11): a draw,
//!   final margin 0, so the future margin is minus the mover's captured difference there
//!   (V3); such a score depends on the path, so no node above it is stored in the table;
//! - a position an endgame oracle covers (the tablebases, `--tb`), or a small endgame
//!   solved on the spot ([`super::small`], [`HeuristicSearch::set_small_endgames`]): its
//!   exact value `clamp(-D, lo, hi)` (V3); path-dependent as a repetition when `lo != hi`;
//! - the depth limit: the evaluation, never complete.
//!
//! # Exact and heuristic
//!
//! A complete score is exact only where no position can repeat ([`Rules::can_repeat`]
//! false, Kalah): there a complete root value is the game's minimax value and
//! [`Iteration::proven`] is set. In games that can repeat, the table may hand a score to a
//! position reached by another path, where other repetitions were open (graph-history
//! interaction), so complete scores there are reported as heuristic: proofs in those games
//! come only from the exact solver ([`crate::solve::alphabeta`]).
//!
//! # Bound contract
//!
//! `search(s, alpha, beta)` is fail-soft: if the value `v` (of the depth-limited game) is
//! `<= alpha` it returns `u` with `v <= u <= alpha`; if `v >= beta`, `l` with
//! `beta <= l <= v`; otherwise `v`.

use super::eval::{Evaluate, Weights};
use super::small::SmallEndgames;
use super::table::{Bound, Entry, HeuristicTable};
use crate::rules::{root_moves, Child, Rules};
use crate::solve::EndgameOracle;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A score beyond every real one.
pub const INF: i32 = 1 << 24;

/// The deepest iteration (plies).
pub const MAX_DEPTH: u32 = 128;

/// When to stop searching.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// The deepest iteration in plies (default [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked every 256 nodes).
    pub nodes: Option<u64>,
    /// Stop at once at this instant (checked every 256 nodes).
    pub deadline: Option<Instant>,
    /// Start no new iteration after this instant.
    pub soft_deadline: Option<Instant>,
}

/// The result of one finished iteration (or the best of an unfinished one).
#[derive(Debug, Clone)]
pub struct Iteration<R: Rules> {
    /// Depth searched, in plies.
    pub depth: u32,
    /// The best move found.
    pub best: R::Move,
    /// Its score: future margin for the side to move, hundredths of a seed.
    pub score: i32,
    /// Whether `score` is the exact value (see the module docs): never in games that can
    /// repeat.
    pub proven: bool,
    /// Whether no evaluated leaf lies below the root (a deeper search changes nothing).
    pub complete: bool,
    /// Principal variation, starting with `best`.
    pub pv: Vec<R::Move>,
    /// Every root move's score (only with [`HeuristicSearch::set_all_moves`]; else empty),
    /// in move order: `(move, score, proven)`.
    pub moves: Vec<(R::Move, i32, bool)>,
    /// Root lifts left out because their sowing was still running at the deadline
    /// (Kiothi, K11: legal or endless, not known which); 0 when every legal move is in.
    pub undecided: usize,
    /// Nodes searched so far by this search (all iterations).
    pub nodes: u64,
    /// Seconds since the search started.
    pub seconds: f64,
}

/// What a node's search returns.
#[derive(Debug, Clone, Copy)]
struct Val {
    score: i32,
    /// No evaluated leaf below.
    complete: bool,
    /// A repetition or a `lo != hi` oracle value below: the score depends on the path.
    path_dependent: bool,
}

/// Iterative-deepening alpha-beta with a heuristic evaluation.
///
/// # Examples
///
/// ```
/// use giuthi::anytime::search::{HeuristicSearch, Limits};
/// use giuthi::anytime::eval::Evaluate;
/// use giuthi::solve::alphabeta::{Solver, SolverOptions};
/// use giuthi::Position;
/// use giuthi::rules::kalah::Kalah;
///
/// let pos: Position<Kalah> = "kalah 1,2,0/0,2,1 S 0,0".parse()?;
/// let mut s = HeuristicSearch::new(pos.rules.clone(), pos.rules.default_weights(), 1);
/// let limits = Limits { depth: Some(30), ..Limits::default() };
/// let it = s.run(&pos, &[], &limits, |_| {}).expect("a move");
/// // Kalah cannot repeat, so a complete search is a proof, and it agrees with the solver.
/// assert!(it.proven);
/// let exact = Solver::new(pos.rules.clone(), SolverOptions::default()).solve(&pos)?;
/// assert_eq!(pos.captured_difference() * 100 + it.score, exact.margin * 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct HeuristicSearch<R: Evaluate> {
    rules: R,
    weights: Weights,
    tt: HeuristicTable,
    oracle: Option<Arc<dyn EndgameOracle<R>>>,
    small: Option<SmallEndgames>,
    stop: Option<Arc<AtomicBool>>,
    all_moves: bool,
    store_repetitions: bool,
    extend_extra_moves: bool,
    /// The depth of the running iteration.
    iteration_depth: u32,
    contempt: i32,
    /// The root's side to move (for the contempt).
    root_side: Option<crate::types::Side>,
    nodes: u64,
    /// Root lifts left undecided by the last run (see [`HeuristicSearch::root_undecided`]).
    root_undecided: usize,
    /// The root moves of the last run.
    root_kids: Vec<Child<R>>,
    limits: Limits,
    aborted: bool,
    /// `(key, seeds on the board)` of the game's history, the root and the path.
    path: Vec<(u64, u32)>,
    kids: Vec<Vec<Child<R>>>,
    pv: Vec<Vec<R::Move>>,
}

impl<R: Evaluate> HeuristicSearch<R> {
    /// A search for `rules` with `weights` and a table of about `hash_mb` megabytes.
    pub fn new(rules: R, weights: Weights, hash_mb: usize) -> HeuristicSearch<R> {
        HeuristicSearch {
            rules,
            weights,
            tt: HeuristicTable::new(hash_mb),
            oracle: None,
            small: None,
            stop: None,
            all_moves: false,
            store_repetitions: false,
            extend_extra_moves: false,
            iteration_depth: 0,
            contempt: 0,
            root_side: None,
            nodes: 0,
            root_undecided: 0,
            root_kids: Vec::new(),
            limits: Limits::default(),
            aborted: false,
            path: Vec::new(),
            kids: Vec::new(),
            pv: Vec::new(),
        }
    }

    /// Uses the exact values of `oracle` (the tablebases) in place of evaluations.
    pub fn with_oracle(mut self, oracle: Arc<dyn EndgameOracle<R>>) -> HeuristicSearch<R> {
        self.oracle = Some(oracle);
        self
    }

    /// Solves small endgames on the spot inside the tree ([`super::small`]): `Some` turns
    /// it on with the given limits (the cache is kept from search to search), `None` off.
    pub fn set_small_endgames(&mut self, small: Option<SmallEndgames>) {
        self.small = small;
    }

    /// The small-endgame cache, when on (its counters).
    pub fn small_endgames(&self) -> Option<&SmallEndgames> {
        self.small.as_ref()
    }

    /// Stops the search when `stop` is raised (Ctrl-C).
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> HeuristicSearch<R> {
        self.stop = Some(stop);
        self
    }

    /// Searches every root move with a full window, so that [`Iteration::moves`] holds
    /// each move's score (for `analyze`; slower).
    pub fn set_all_moves(&mut self, all: bool) {
        self.all_moves = all;
    }

    /// Scores a draw by repetition `contempt` hundredths of a seed worse than a final
    /// margin of 0 for the side to move at the root (and as much better for the other
    /// side): a positive contempt avoids draws against a weaker opponent. 0 (the default)
    /// scores a draw as the rules do (V3).
    pub fn set_contempt(&mut self, contempt: i32) {
        self.contempt = contempt;
    }

    /// Stores scores with a repetition of the path below them in the table too (as chess
    /// engines do: faster, at the price of graph-history interaction: a score read on
    /// another path may miss or invent a repetition). Never in a proof: only games that
    /// cannot repeat have proofs here.
    pub fn set_store_repetitions(&mut self, on: bool) {
        self.store_repetitions = on;
    }

    /// Extra moves (the turn kept, G5b, R2) cost no depth, up to a line twice the
    /// iteration's depth (off by default).
    pub fn set_extend_extra_moves(&mut self, on: bool) {
        self.extend_extra_moves = on;
    }

    /// The weights in use.
    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// The evaluation of `s` for the side to move, in hundredths of a seed. Its moves are
    /// generated with every sowing of [`SOW_STOP_INTERVAL`] laps or more left out
    /// (Kiothi, K11: such a sowing may be endless, and a guess need not wait for it), so
    /// the evaluation takes a bounded time and is the same on every run.
    ///
    /// [`SOW_STOP_INTERVAL`]: crate::rules::kiothi::SOW_STOP_INTERVAL
    pub fn evaluate(&self, s: &R::State) -> i32 {
        let mut kids = Vec::new();
        self.rules.children_until(s, &mut kids, &mut || true);
        self.weights.score(&self.rules.features(s, &kids))
    }

    /// How many root lifts the last [`HeuristicSearch::run`] left undecided: sowings
    /// still running at its deadline or stop (Kiothi, K11), each either legal or
    /// endless, so neither searched nor answered (0: every legal root move was known).
    pub fn root_undecided(&self) -> usize {
        self.root_undecided
    }

    /// The root moves of the last [`HeuristicSearch::run`]: every one legal and fully sown
    /// (those whose sowing was decided in time, see [`HeuristicSearch::root_undecided`]).
    pub fn root_children(&self) -> &[Child<R>] {
        &self.root_kids
    }

    /// Searches `pos` by iterative deepening within `limits`, calling `on_iteration` after
    /// each finished depth. `history` are the positions played before `pos` in the game
    /// (oldest first; a return to one is a draw, G10). Returns the last result, or `None`
    /// when `pos` has no move to search (the game is over, or its moves are not listed:
    /// [`Rules::can_enumerate`]).
    pub fn run(
        &mut self,
        pos: &crate::Position<R>,
        history: &[R::State],
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration<R>),
    ) -> Option<Iteration<R>> {
        let t0 = Instant::now();
        self.limits = limits.clone();
        self.aborted = false;
        self.nodes = 0;
        // At the deadline a root move whose sowing is still undecided (K11) is left out:
        // every move kept is legal and fully sown, and the search is then never complete.
        // With no move known legal yet, the lifts are sown on until one is
        // (docs/anytime.md, "The root's moves and the clock").
        let deadline = limits.deadline;
        let stop = self.stop.clone();
        let (root_kids, undecided) = root_moves(&self.rules, &pos.state, &mut || {
            stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
                || deadline.is_some_and(|t| Instant::now() >= t)
        });
        self.root_undecided = undecided;
        self.root_kids.clone_from(&root_kids);
        if root_kids.is_empty() {
            return None;
        }
        self.path.clear();
        let seeds = |s: &R::State| self.rules.seeds_on_board(s);
        let hist: Vec<(u64, u32)> = history
            .iter()
            .map(|h| (self.rules.key(h), seeds(h)))
            .collect();
        self.path.extend(hist);
        self.path
            .push((self.rules.key(&pos.state), seeds(&pos.state)));
        let d = pos.captured_difference();
        self.root_side = Some(pos.turn());
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut order: Vec<usize> = (0..root_kids.len()).collect();
        // First iteration: captures first.
        order.sort_by_key(|&i| std::cmp::Reverse(root_kids[i].captured));
        let mut last: Option<Iteration<R>> = None;
        for depth in 1..=max_depth {
            if depth > 1 && limits.soft_deadline.is_some_and(|t| Instant::now() >= t) {
                break;
            }
            self.iteration_depth = depth;
            let mut alpha = -INF;
            let mut best: Option<(usize, Val)> = None;
            let mut scores: Vec<Option<Val>> = vec![None; root_kids.len()];
            let mut best_pv = Vec::new();
            let mut all_complete = true;
            for &i in &order {
                let c = root_kids[i];
                self.pv.resize_with(2, Vec::new);
                self.pv[1].clear();
                let a = if self.all_moves { -INF } else { alpha };
                let v = self.child_value(&c, depth, a, INF, 1, d);
                if self.aborted {
                    break;
                }
                scores[i] = Some(v);
                all_complete &= v.complete;
                if best.map_or(true, |(_, b)| v.score > b.score) {
                    best = Some((i, v));
                    best_pv = std::iter::once(c.mv)
                        .chain(self.pv[1].iter().copied())
                        .collect();
                    alpha = alpha.max(v.score);
                }
            }
            let Some((bi, bv)) = best else { break };
            if self.aborted {
                // An unfinished iteration: its best counts only if it beats, fully
                // searched, the previous best move searched first in this iteration.
                let prev_first = scores[order[0]];
                match (&last, prev_first) {
                    (Some(_), Some(pf)) if bi != order[0] && bv.score > pf.score => {}
                    (None, _) => {}
                    _ => break,
                }
            }
            let can_repeat = self.rules.can_repeat();
            let all_complete = all_complete && undecided == 0;
            let it = Iteration {
                depth,
                best: root_kids[bi].mv,
                score: bv.score,
                proven: all_complete && !self.aborted && !can_repeat,
                complete: all_complete && !self.aborted,
                pv: best_pv,
                moves: if self.all_moves && !self.aborted {
                    root_kids
                        .iter()
                        .zip(&scores)
                        .filter_map(|(c, v)| v.map(|v| (c.mv, v.score, v.complete && !can_repeat)))
                        .collect()
                } else {
                    last.as_ref().map(|l| l.moves.clone()).unwrap_or_default()
                },
                undecided,
                nodes: self.nodes,
                seconds: t0.elapsed().as_secs_f64(),
            };
            let aborted = self.aborted;
            if !aborted {
                on_iteration(&it);
            }
            // Next iteration: the best move first, the others by this iteration's scores.
            order.sort_by_key(|&i| {
                std::cmp::Reverse(if i == bi {
                    INF
                } else {
                    scores[i].map_or(-INF, |v| v.score)
                })
            });
            let done = it.complete;
            last = Some(it);
            if aborted || done {
                break;
            }
        }
        if last.is_none() {
            // Not even depth 1 finished: the move that captures most, by its evaluation.
            let c = order[0];
            let c = root_kids[c];
            let eval = self
                .weights
                .score(&self.rules.features(&pos.state, &root_kids));
            last = Some(Iteration {
                depth: 0,
                best: c.mv,
                score: eval,
                proven: false,
                complete: false,
                pv: vec![c.mv],
                moves: Vec::new(),
                undecided,
                nodes: self.nodes,
                seconds: t0.elapsed().as_secs_f64(),
            });
        }
        last
    }

    /// The value of move `c` for its mover (whose captured difference is `d`), searched
    /// to `depth - 1` below it with the window `(alpha, beta)` in the mover's frame.
    fn child_value(
        &mut self,
        c: &Child<R>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        d: i32,
    ) -> Val {
        let k = c.captured as i32;
        let gain = k * 100;
        if c.turn_passes {
            let v = self.search(
                &c.state,
                depth - 1,
                gain - beta,
                gain - alpha,
                ply,
                -(d + k),
            );
            Val {
                score: gain - v.score,
                ..v
            }
        } else {
            // An extra move (G5b, R2) keeps the turn: with the extension on it costs no
            // depth while the line is shorter than twice the iteration's depth, so a chain
            // of extra moves cannot push a turn-over past the horizon.
            let next = if self.extend_extra_moves && (ply as u32) < 2 * self.iteration_depth {
                depth
            } else {
                depth - 1
            };
            let v = self.search(&c.state, next, alpha - gain, beta - gain, ply, d + k);
            Val {
                score: gain + v.score,
                ..v
            }
        }
    }

    /// The moves of `s` into `kids`, given up at the deadline or the stop flag (never at a
    /// node budget, which stays deterministic); the number of moves left undecided.
    fn children_on_time(&self, s: &R::State, kids: &mut Vec<Child<R>>) -> usize {
        let deadline = self.limits.deadline;
        let stop = self.stop.clone();
        self.rules.children_until(s, kids, &mut || {
            stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
                || deadline.is_some_and(|t| Instant::now() >= t)
        })
    }

    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 255 == 0 {
            let stop = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
                || self.limits.nodes.is_some_and(|n| self.nodes >= n)
                || self.limits.deadline.is_some_and(|t| Instant::now() >= t);
            self.aborted = stop;
        }
        self.aborted
    }

    /// The value of `s` for its mover (captured difference `d`) at `depth`, `ply` plies
    /// below the root; fail-soft (see the module's bound contract).
    fn search(
        &mut self,
        s: &R::State,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        d: i32,
    ) -> Val {
        self.nodes += 1;
        if self.out_of_time() {
            return Val {
                score: 0,
                complete: false,
                path_dependent: true,
            };
        }
        if self.pv.len() <= ply + 1 {
            self.pv.resize_with(ply + 2, Vec::new);
        }
        self.pv[ply].clear();
        let key = self.rules.key(s);
        let seeds = self.rules.seeds_on_board(s);
        if self.rules.can_repeat() {
            // A repetition stays within one seed layer (captures lower the seeds for good).
            for &(k2, s2) in self.path.iter().rev() {
                if s2 != seeds {
                    break;
                }
                if k2 == key {
                    let contempt = if Some(self.rules.turn(s)) == self.root_side {
                        -self.contempt
                    } else {
                        self.contempt
                    };
                    return Val {
                        score: -d * 100 + contempt,
                        complete: true,
                        path_dependent: true,
                    };
                }
            }
        }
        if self.kids.len() <= ply {
            self.kids.resize_with(ply + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut self.kids[ply]);
        if self.children_on_time(s, &mut kids) > 0 {
            // A move generation given up at the deadline (a Kiothi sowing of millions of
            // laps, K11): the node's moves are not all known, so the iteration is over.
            self.aborted = true;
            self.kids[ply] = kids;
            return Val {
                score: 0,
                complete: false,
                path_dependent: true,
            };
        }
        let result = self.search_kids(s, &kids, key, seeds, depth, alpha, beta, ply, d);
        self.kids[ply] = kids;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn search_kids(
        &mut self,
        s: &R::State,
        kids: &[Child<R>],
        key: u64,
        seeds: u32,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        d: i32,
    ) -> Val {
        if kids.is_empty() {
            if self.rules.can_enumerate(s) {
                return Val {
                    score: self.rules.final_value(s) as i32 * 100,
                    complete: true,
                    path_dependent: false,
                };
            }
            return Val {
                score: self.weights.score(&self.rules.features(s, kids)),
                complete: false,
                path_dependent: false,
            };
        }
        let exact = match self.oracle.as_ref().and_then(|o| o.probe(s)) {
            Some(b) => Some(b),
            None => match self.small.as_mut() {
                Some(small) => {
                    // A state of a solved graph costs less than a node: counted as one, so
                    // a node budget stays a fair limit of work.
                    let before = small.states_solved();
                    let b = small.probe(&self.rules, s);
                    self.nodes += small.states_solved() - before;
                    b
                }
                None => None,
            },
        };
        if let Some(b) = exact {
            let v = (-d).clamp(b.lo as i32, b.hi as i32);
            return Val {
                score: v * 100,
                complete: true,
                // Depends on `d` when `lo != hi`, which the table's key holds.
                path_dependent: false,
            };
        }
        if depth == 0 {
            return Val {
                score: self.weights.score(&self.rules.features(s, kids)),
                complete: false,
                path_dependent: false,
            };
        }
        // The table's key holds the captured difference: a score at a node depends on it
        // where a repetition or an oracle's `lo != hi` is below (the draw's payoff, V3).
        let tt_key = key ^ (d as i64 as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let entry = self.tt.probe(tt_key);
        if let Some(e) = entry {
            if e.depth as u32 >= depth || e.complete {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if cut {
                    return Val {
                        score: e.score,
                        complete: e.complete,
                        path_dependent: false,
                    };
                }
            }
        }
        // Move order: the table's move, then the largest captures, then extra moves.
        let tt_move = entry.and_then(|e| e.best).map(usize::from);
        let mut order: Vec<(i32, usize)> = kids
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let key = if Some(i) == tt_move {
                    INF
                } else {
                    c.captured as i32 * 4 + i32::from(!c.turn_passes) * 2
                };
                (key, i)
            })
            .collect();
        order.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        self.path.push((key, seeds));
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_i = 0;
        let mut complete = true;
        let mut path_dependent = false;
        for &(_, i) in &order {
            let c = kids[i];
            let v = self.child_value(&c, depth, alpha, beta, ply + 1, d);
            if self.aborted {
                self.path.pop();
                return v;
            }
            complete &= v.complete;
            path_dependent |= v.path_dependent;
            if v.score > best {
                best = v.score;
                best_i = i;
                let tail = std::mem::take(&mut self.pv[ply + 1]);
                self.pv[ply].clear();
                self.pv[ply].push(c.mv);
                self.pv[ply].extend_from_slice(&tail);
                self.pv[ply + 1] = tail;
                if best > alpha {
                    alpha = best;
                }
                if best >= beta {
                    break;
                }
            }
        }
        self.path.pop();
        if !path_dependent || self.store_repetitions {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt.store(Entry {
                key: tt_key,
                score: best,
                depth: depth.min(u16::MAX as u32) as u16,
                bound,
                best: u8::try_from(best_i).ok(),
                complete,
            });
        }
        Val {
            score: best,
            complete,
            path_dependent,
        }
    }
}
