//! The naive reference solver: enumerate the reachable graph, then value iteration.
//!
//! Deliberately simple and independent of the search (no transposition table, no bounds,
//! no ordering): it exists to check the alpha-beta solver and the tablebases (STYLE.md,
//! cross-checks). Memory and time grow with the number of reachable states.
//!
//! Method (RULES.md V2, V3): values are computed from South's point of view on the
//! reachable graph. `a` is the least fixpoint of the minimax equations starting from minus
//! infinity (a repetition is worst for South: South must force the game to end), `b` the
//! greatest starting from plus infinity (a repetition is best for South). For the side to
//! move, `(lo, hi)` is `(a, b)` for South and `(-b, -a)` for North. With a repetition paying
//! the constant `c`, the value is `clamp(c, lo, hi)` (V3).

use crate::position::Position;
use crate::rules::Rules;
use crate::types::Side;
use crate::value::{Bounds, Score, NEG_INF, POS_INF};
use std::collections::HashMap;

/// The reachable graph was larger than the limit given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the naive solver stopped: more than {limit} reachable states")]
pub struct TooLarge {
    /// The limit that was passed.
    pub limit: usize,
}

struct Edge {
    to: usize,
    /// Seeds gained by South with this move (negative when North captures).
    gain: i32,
}

/// The reachable graph from one state, with South-relative fixpoint values.
pub struct NaiveGraph<R: Rules> {
    states: Vec<R::State>,
    index: HashMap<R::State, usize>,
    edges: Vec<Vec<Edge>>,
    south_to_move: Vec<bool>,
    /// South-relative final value of a finished game (or of the forced terminal).
    terminal: Vec<Option<i32>>,
    a: Vec<i32>,
    b: Vec<i32>,
}

const INF: i32 = 1 << 20;

impl<R: Rules> NaiveGraph<R> {
    /// Builds the graph reachable from `root` and solves it. When `stop_at` is given, that
    /// state is treated as a finished game worth `stop_at.1` to South (used for V4: the
    /// root already occurred, so returning to it ends the game).
    ///
    /// # Errors
    ///
    /// [`TooLarge`] when more than `limit` states are reachable.
    pub fn build(
        rules: &R,
        root: &R::State,
        limit: usize,
        stop_at: Option<(R::State, i32)>,
    ) -> Result<NaiveGraph<R>, TooLarge> {
        let mut g = NaiveGraph {
            states: vec![*root],
            index: HashMap::from([(*root, 0)]),
            edges: Vec::new(),
            south_to_move: Vec::new(),
            terminal: Vec::new(),
            a: Vec::new(),
            b: Vec::new(),
        };
        let mut children = Vec::new();
        let mut i = 0;
        while i < g.states.len() {
            let s = g.states[i];
            let south = rules.turn(&s) == Side::South;
            g.south_to_move.push(south);
            let mut out = Vec::new();
            match &stop_at {
                Some((stop, v)) if *stop == s && i > 0 => {
                    g.terminal.push(Some(*v));
                }
                _ => {
                    rules.children(&s, &mut children);
                    if children.is_empty() {
                        let v = rules.final_value(&s) as i32;
                        g.terminal.push(Some(if south { v } else { -v }));
                    } else {
                        g.terminal.push(None);
                        for c in &children {
                            let to = match g.index.get(&c.state) {
                                Some(&t) => t,
                                None => {
                                    if g.states.len() >= limit {
                                        return Err(TooLarge { limit });
                                    }
                                    g.states.push(c.state);
                                    g.index.insert(c.state, g.states.len() - 1);
                                    g.states.len() - 1
                                }
                            };
                            let k = c.captured as i32;
                            out.push(Edge {
                                to,
                                gain: if south { k } else { -k },
                            });
                        }
                    }
                }
            }
            g.edges.push(out);
            i += 1;
        }
        g.solve();
        Ok(g)
    }

    fn iterate(&self, v: &mut [i32]) {
        loop {
            let mut changed = false;
            for i in 0..self.states.len() {
                let new = match self.terminal[i] {
                    Some(t) => t,
                    None => {
                        let vals = self.edges[i].iter().map(|e| {
                            let c = v[e.to];
                            if c.abs() >= INF {
                                c
                            } else {
                                c + e.gain
                            }
                        });
                        if self.south_to_move[i] {
                            vals.max().expect("a move")
                        } else {
                            vals.min().expect("a move")
                        }
                    }
                };
                if new != v[i] {
                    v[i] = new;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.states.len();
        let mut a = vec![-INF; n];
        self.iterate(&mut a);
        let mut b = vec![INF; n];
        self.iterate(&mut b);
        self.a = a;
        self.b = b;
    }

    /// Number of reachable states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether the graph is empty (never: the root is in it).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The reachable states, the root first.
    pub fn states(&self) -> &[R::State] {
        &self.states
    }

    /// `(lo, hi)` for the side to move in `s`, if `s` is in the graph.
    pub fn bounds(&self, s: &R::State) -> Option<Bounds> {
        let &i = self.index.get(s)?;
        Some(self.bounds_at(i))
    }

    fn bounds_at(&self, i: usize) -> Bounds {
        let conv = |x: i32| -> Score {
            if x <= -INF {
                NEG_INF
            } else if x >= INF {
                POS_INF
            } else {
                x as Score
            }
        };
        let (a, b) = (conv(self.a[i]), conv(self.b[i]));
        if self.south_to_move[i] {
            Bounds { lo: a, hi: b }
        } else {
            Bounds { lo: -b, hi: -a }
        }
    }
}

/// `(lo, hi)` of a state by the naive method.
///
/// # Errors
///
/// [`TooLarge`] when more than `limit` states are reachable.
pub fn naive_bounds<R: Rules>(rules: &R, s: &R::State, limit: usize) -> Result<Bounds, TooLarge> {
    Ok(NaiveGraph::build(rules, s, limit, None)?.bounds_at(0))
}

/// The naive solution of a position: bounds, exact margin and the value of every move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NaiveSolution<R: Rules> {
    /// `(lo, hi)` for the side to move (V2).
    pub bounds: Bounds,
    /// Exact final margin for the side to move (V3).
    pub margin: i32,
    /// Each legal move with the exact final margin it reaches for the mover, the root
    /// counted as already played (V4).
    pub moves: Vec<(R::Move, i32)>,
}

impl<R: Rules> NaiveSolution<R> {
    /// The moves that reach the exact margin (V4), in move order.
    pub fn best_moves(&self) -> Vec<R::Move> {
        self.moves
            .iter()
            .filter(|(_, v)| *v == self.margin)
            .map(|(m, _)| *m)
            .collect()
    }
}

/// Solves a position by the naive method (V1-V4).
///
/// # Errors
///
/// [`TooLarge`] when more than `limit` states are reachable from the root.
///
/// # Examples
///
/// The example of RULES.md V4:
///
/// ```
/// use giuthi::Position;
/// use giuthi::rules::giuthi::Giuthi;
/// use giuthi::solve::naive::naive_solve;
/// use giuthi::value::POS_INF;
/// let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
/// let sol = naive_solve(&pos, 100_000)?;
/// assert_eq!((sol.bounds.lo, sol.bounds.hi), (3, POS_INF));
/// assert_eq!(sol.margin, 1);
/// let best: Vec<String> = sol.best_moves().iter().map(|m| m.to_string()).collect();
/// assert_eq!(best, ["5cw"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn naive_solve<R: Rules>(
    pos: &Position<R>,
    limit: usize,
) -> Result<NaiveSolution<R>, TooLarge> {
    let rules = &pos.rules;
    let root = pos.state;
    let bounds = naive_bounds(rules, &root, limit)?;
    let d = pos.captured_difference();
    let margin = bounds.exact_margin(d);
    let mover = rules.turn(&root);
    // Repetition pays a final margin of 0: a future gain of -d for the mover.
    let c_mover = -d;
    let mut children = Vec::new();
    rules.children(&root, &mut children);
    let mut moves = Vec::new();
    for ch in &children {
        // Frame of the child: the mover has gained k; the root is a finished game whose
        // South-relative future value (from the child) is the repetition payoff.
        let k = ch.captured as i32;
        let c_child_mover = c_mover - k; // repetition payoff for the root mover, from the child
        let c_child_south = if mover == Side::South {
            c_child_mover
        } else {
            -c_child_mover
        };
        let g = NaiveGraph::build(rules, &ch.state, limit, Some((root, c_child_south)))?;
        let b = g.bounds_at(0);
        // Bounds of the child for the root mover.
        let b_mover = if rules.turn(&ch.state) == mover {
            b
        } else {
            b.negate()
        };
        let v = (c_child_mover).clamp(b_mover.lo as i32, b_mover.hi as i32);
        moves.push((ch.mv, d + k + v));
    }
    Ok(NaiveSolution {
        bounds,
        margin,
        moves,
    })
}
