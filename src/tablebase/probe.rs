//! Solving a concrete position from the tablebases: exact margin (V3), the value of every
//! move with the root counted as already played (V4), best moves and a principal
//! variation.
//!
//! # How V4 is decided
//!
//! A move capturing `k > 0` seeds lands in a lower layer, from which the root (which has
//! more seeds) can never come back: its value is `d + k + clamp(-d - k, child bounds)`
//! straight from the table. A move with `k = 0` stays in the root's layer, where a line
//! may return to the root, which then ends the game as a draw (G10). For those moves the
//! part of the layer reachable from the child by non-capturing moves is solved locally
//! (the same monotone fixpoint as the generator), with the root as a finished game worth
//! a final margin of 0 and every capturing move valued from the table. This is exactly
//! the rule of `naive_solve` (tested against it), at the cost of exploring that part of
//! the layer; past `limit` states [`solve_position`] reports [`V4Limit`].
//!
//! The local solve is skipped where it cannot change the answer. Every value is a
//! monotone max/min expression of the root's payoff `x`, hence of the form
//! `clamp(x, a, b)`; changing `x` from the exact margin `M` to 0 (a draw) leaves a move
//! whose ordinary value `v` is not in the range between 0 (excluded) and `M` (included)
//! unchanged. So only non-capturing moves with `0 < v <= M` or `M <= v < 0` are solved
//! locally, and none when `M = 0`. The tests check the result against `naive_solve`.

use super::{TablebaseSet, TbGame};
use crate::position::Position;
use crate::rules::Child;
use crate::solve::EndgameOracle;
use crate::value::{back_up, Bounds, GameResult, Score, NEG_INF, POS_INF};
use std::collections::HashMap;

/// The exploration of a move's layer passed the limit given to [`solve_position`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the root's layer reachable after move {mv} has more than {limit} state{} (V4 check)", if *limit == 1 { "" } else { "s" })]
pub struct V4Limit {
    /// The move.
    pub mv: String,
    /// The limit.
    pub limit: usize,
}

/// A position solved from the tablebases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TbSolution<R: TbGame> {
    /// `(lo, hi)` for the side to move (V2).
    pub bounds: Bounds,
    /// The exact final margin for the side to move (V3).
    pub margin: i32,
    /// Each legal move with the exact final margin it reaches, the root counted as
    /// already played (V4).
    pub moves: Vec<(R::Move, i32)>,
    /// Moves whose value in `moves` is only an upper bound: the local V4 solve passed the
    /// limit, and the move cannot be best anyway (its ordinary value is below the margin
    /// of a winning root).
    pub upper_bounds: Vec<R::Move>,
    /// A principal variation (best moves, stopping at the end of the game, at a
    /// repetition, or after 200 plies).
    pub pv: Vec<R::Move>,
    /// Tablebase probes and local states visited.
    pub nodes: u64,
}

impl<R: TbGame> TbSolution<R> {
    /// The moves that reach the exact margin (V4), in move order.
    pub fn best_moves(&self) -> Vec<R::Move> {
        self.moves
            .iter()
            .filter(|(_, v)| *v == self.margin)
            .map(|(m, _)| *m)
            .collect()
    }

    /// Win, draw or loss for the side to move.
    pub fn result(&self) -> GameResult {
        GameResult::from_margin(self.margin)
    }
}

/// Solves `pos` from the tables; `None` when the root's layer (or a layer below it) is
/// not in `set`. Each move is valued with the root counted as played (V4); a
/// non-capturing move that needs a local solve may explore at most `limit` states (so
/// with `limit == 0` no local solve can succeed: the check is never skipped). To value
/// moves with the root as an ordinary position (V3), use [`solve_position_v3`].
///
/// # Errors
///
/// [`V4Limit`] when a non-capturing move's part of the layer has more than `limit`
/// states.
pub fn solve_position<R: TbGame>(
    set: &TablebaseSet<R>,
    pos: &Position<R>,
    limit: usize,
) -> Result<Option<TbSolution<R>>, V4Limit> {
    solve_with(set, pos, Some(limit))
}

/// Solves `pos` from the tables like [`solve_position`], but values each move with the
/// root as an ordinary position (V3), skipping the V4 local solves: the best moves may
/// then include a move that reaches the margin only by repeating the root.
pub fn solve_position_v3<R: TbGame>(
    set: &TablebaseSet<R>,
    pos: &Position<R>,
) -> Option<TbSolution<R>> {
    match solve_with(set, pos, None) {
        Ok(sol) => sol,
        Err(_) => unreachable!("no local solve runs without a limit"),
    }
}

/// [`solve_position`] with `None`: no V4 local solves (V3 move values).
fn solve_with<R: TbGame>(
    set: &TablebaseSet<R>,
    pos: &Position<R>,
    limit: Option<usize>,
) -> Result<Option<TbSolution<R>>, V4Limit> {
    let rules = set.rules();
    let root = pos.state;
    let Some(bounds) = set.probe(&root) else {
        return Ok(None);
    };
    let mut nodes = 1u64;
    let d = pos.captured_difference();
    let margin = bounds.exact_margin(d);
    let mut children = Vec::new();
    rules.children(&root, &mut children);
    let mut moves = Vec::new();
    let mut upper_bounds = Vec::new();
    for c in &children {
        let k = c.captured as i32;
        // Repetition payoff for the root's mover as a future margin from the child.
        let c_mover = -d - k;
        let value_of = |b_child: Bounds| {
            let b_mover = if c.turn_passes {
                b_child.negate()
            } else {
                b_child
            };
            d + k + c_mover.clamp(b_mover.lo as i32, b_mover.hi as i32)
        };
        nodes += 1;
        let Some(b_table) = set.probe(&c.state) else {
            return Ok(None);
        };
        // The move's value with the root an ordinary position (V3).
        let v3 = value_of(b_table);
        // With the root counted as played, a return to it pays a final margin of 0
        // instead of `margin`. Only a non-capturing move can return. A move's value is a
        // monotone max/min expression of the root's payoff x, i.e. clamp(x, a, b): moving
        // x from `margin` to 0 cannot change a value that is not strictly between them
        // (or equal to `margin`); in particular nothing changes when `margin == 0`.
        let needs_local = k == 0
            && ((margin > 0 && v3 > 0 && v3 <= margin) || (margin < 0 && v3 < 0 && v3 >= margin));
        let v = if let (true, Some(limit)) = (needs_local, limit) {
            match local_bounds(set, &root, -d, &c.state, limit, &mut nodes) {
                Some(b) => value_of(b),
                // A winning root's move below the margin cannot become best (its value
                // only drops): keep the upper bound `v3` and say so.
                None if margin > 0 && v3 < margin => {
                    upper_bounds.push(c.mv);
                    v3
                }
                None => {
                    return Err(V4Limit {
                        mv: c.mv.to_string(),
                        limit,
                    })
                }
            }
        } else {
            v3
        };
        moves.push((c.mv, v));
    }
    let mut sol = TbSolution {
        bounds,
        margin,
        moves,
        upper_bounds,
        pv: Vec::new(),
        nodes,
    };
    let mut n = sol.nodes;
    sol.pv = principal_variation(set, pos, &sol, &mut n);
    sol.nodes = n;
    Ok(Some(sol))
}

/// Bounds of `start` (for its mover) in the game where reaching `root` ends it with a
/// future margin of `root_value` for the root's mover; `None` past `limit` states.
fn local_bounds<R: TbGame>(
    set: &TablebaseSet<R>,
    root: &R::State,
    root_value: i32,
    start: &R::State,
    limit: usize,
    nodes: &mut u64,
) -> Option<Bounds> {
    if limit == 0 {
        // Not even `start` may be explored.
        return None;
    }
    let rules = set.rules();
    let root_turn = rules.turn(root);
    let rv = root_value.clamp(-(POS_INF as i32 - 1), POS_INF as i32 - 1) as Score;
    // Node: exit (lo, hi) from terminal/captures/root, edges to local nodes.
    let mut states = vec![*start];
    let mut index: HashMap<R::State, usize> = HashMap::from([(*start, 0)]);
    let mut exits: Vec<(Score, Score)> = Vec::new();
    let mut edges: Vec<Vec<(usize, bool)>> = Vec::new();
    let mut children: Vec<Child<R>> = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let s = states[i];
        *nodes += 1;
        let mut out = Vec::new();
        if s == *root {
            let v = if rules.turn(&s) == root_turn { rv } else { -rv };
            exits.push((v, v));
        } else {
            rules.children(&s, &mut children);
            if children.is_empty() {
                let v = rules.final_value(&s);
                exits.push((v, v));
            } else {
                let (mut lo, mut hi) = (NEG_INF, NEG_INF);
                for c in &children {
                    if c.captured > 0 {
                        *nodes += 1;
                        let b = set.probe(&c.state)?;
                        let k = c.captured as i16;
                        let (l, h) = if c.turn_passes {
                            (back_up(b.hi, k, true), back_up(b.lo, k, true))
                        } else {
                            (back_up(b.lo, k, false), back_up(b.hi, k, false))
                        };
                        lo = lo.max(l);
                        hi = hi.max(h);
                    } else {
                        let t = match index.get(&c.state) {
                            Some(&t) => t,
                            None => {
                                if states.len() >= limit {
                                    return None;
                                }
                                states.push(c.state);
                                index.insert(c.state, states.len() - 1);
                                states.len() - 1
                            }
                        };
                        out.push((t, c.turn_passes));
                    }
                }
                exits.push((lo, hi));
            }
        }
        edges.push(out);
        i += 1;
    }
    let mut val: Vec<Bounds> = (0..states.len())
        .map(|i| Bounds {
            lo: exits[i].0,
            hi: if edges[i].is_empty() {
                exits[i].1
            } else {
                POS_INF
            },
        })
        .collect();
    loop {
        let mut changed = false;
        for i in 0..states.len() {
            if edges[i].is_empty() || val[i].lo == val[i].hi {
                continue;
            }
            let (mut lo, mut hi) = exits[i];
            for &(t, passes) in &edges[i] {
                let b = val[t];
                let (l, h) = if passes { (-b.hi, -b.lo) } else { (b.lo, b.hi) };
                lo = lo.max(l);
                hi = hi.max(h);
            }
            let nb = Bounds { lo, hi };
            if nb != val[i] {
                val[i] = nb;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Some(val[0])
}

/// Follows best moves by the tablebase values (V3 of each child), preferring a move
/// that leaves the layer; stops at the end of the game, at a repetition or after 200
/// plies. The first move is the first V4 best move of `sol`.
fn principal_variation<R: TbGame>(
    set: &TablebaseSet<R>,
    pos: &Position<R>,
    sol: &TbSolution<R>,
    nodes: &mut u64,
) -> Vec<R::Move> {
    let mut pv = Vec::new();
    let Some(&first) = sol.best_moves().first() else {
        return pv;
    };
    let mut seen = std::collections::HashSet::from([pos.state]);
    let Ok(mut cur) = pos.play(first) else {
        return pv;
    };
    pv.push(first);
    while pv.len() < 200 && seen.insert(cur.state) {
        let Some(b) = set.probe(&cur.state) else {
            break;
        };
        let d = cur.captured_difference();
        let target = b.exact_margin(d);
        let mut best: Option<(bool, Child<R>)> = None;
        for c in cur.children() {
            *nodes += 1;
            let Some(cb) = set.probe(&c.state) else {
                continue;
            };
            let k = c.captured as i32;
            let cm = if c.turn_passes { cb.negate() } else { cb };
            let v = d + k + (-d - k).clamp(cm.lo as i32, cm.hi as i32);
            if v == target {
                let leaves = c.captured > 0;
                if best.as_ref().map_or(true, |(l, _)| !*l && leaves) {
                    best = Some((leaves, c));
                }
            }
        }
        match best {
            Some((_, c)) => {
                pv.push(c.mv);
                cur = cur.after(&c);
            }
            None => break,
        }
    }
    pv
}
