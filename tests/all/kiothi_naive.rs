//! Kiothi exact values cross-checked (STYLE.md, cross-checks; RULES.md V2-V4).
//!
//! `solver == naive on at least 300 random small play positions`: the solver under test is
//! [`solver_margin`], the alpha-beta solver (`solve::alphabeta`), also checked against an
//! independent memoised negamax over the game tree where that one decides (no cycle).

use giuthi::rules::kiothi::{Kiothi, KiothiState, Phase, Variant, PITS};
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::solve::naive::{naive_solve, NaiveGraph};
use giuthi::value::{back_up, Bounds, NEG_INF};
use giuthi::{BySide, Position, Rules, Side};
use std::collections::HashMap;

/// A tiny deterministic generator (xorshift), so the suite is the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_position(r: &mut Rng, k: Kiothi) -> Position<Kiothi> {
    let warriors = 2 + r.below(7);
    let mut pits = [0u8; PITS];
    for _ in 0..warriors {
        pits[r.below(PITS as u64) as usize] += 1;
    }
    let (mut nki, mut stale) = (0u32, 0u32);
    for (p, &w) in pits.iter().enumerate() {
        if w > 0 && r.below(3) == 0 {
            nki |= 1 << p;
        }
        if r.below(3) == 0 {
            stale |= 1 << p;
        }
    }
    let turn = if r.below(2) == 0 {
        Side::South
    } else {
        Side::North
    };
    let state = KiothiState {
        pits,
        nki,
        stale,
        turn,
        phase: Phase::Play,
    };
    Position::new(k, state, BySide::new(r.below(5) as u16, r.below(5) as u16))
}

/// Future margin for the mover by plain negamax with memo; `None` when the tree has a
/// cycle (a repetition is possible), which this simple solver does not handle.
fn negamax(
    k: &Kiothi,
    s: &KiothiState,
    memo: &mut HashMap<KiothiState, i32>,
    path: &mut Vec<KiothiState>,
) -> Option<i32> {
    if let Some(&v) = memo.get(s) {
        return Some(v);
    }
    if path.contains(s) {
        return None;
    }
    let mut children = Vec::new();
    k.children(s, &mut children);
    let v = if children.is_empty() {
        k.final_value(s) as i32
    } else {
        path.push(*s);
        let mut best = i32::MIN;
        for c in &children {
            let child = negamax(k, &c.state, memo, path)?;
            best = best.max(c.captured as i32 - child);
        }
        path.pop();
        best
    };
    memo.insert(*s, v);
    Some(v)
}

/// The solver under test: the exact final margin for the side to move (V3), or `None`
/// when it cannot decide.
fn solver_margin(pos: &Position<Kiothi>) -> Option<i32> {
    let solver = Solver::new(
        pos.rules,
        SolverOptions {
            threads: 1,
            hash_mb: 4,
            ..SolverOptions::default()
        },
    );
    let sol = solver.solve(pos).expect("not interrupted");
    // The memoised negamax below stays as a third, independent opinion where it decides.
    let mut memo = HashMap::new();
    if let Some(v) = negamax(&pos.rules, &pos.state, &mut memo, &mut Vec::new()) {
        assert_eq!(
            pos.captured_difference() + v,
            sol.margin,
            "negamax vs alpha-beta on {pos}"
        );
    }
    Some(sol.margin)
}

#[test]
fn v3_solver_equals_naive_on_300_random_small_play_positions() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    let mut tried = 0;
    while checked < 300 {
        tried += 1;
        assert!(tried < 3000, "too few decidable positions");
        let k = Kiothi::new(if r.below(4) == 0 {
            "dir=cw".parse().unwrap()
        } else {
            Variant::default()
        });
        let pos = random_position(&mut r, k);
        let Ok(sol) = naive_solve(&pos, 50_000) else {
            continue;
        };
        let Some(margin) = solver_margin(&pos) else {
            continue;
        };
        assert_eq!(margin, sol.margin, "{pos}");
        let ab = Solver::new(
            pos.rules,
            SolverOptions {
                threads: 1,
                hash_mb: 4,
                ..SolverOptions::default()
            },
        )
        .solve_with_bounds(&pos)
        .expect("not interrupted");
        assert_eq!(ab.bounds(), Some(sol.bounds), "(lo, hi) of {pos}");
        assert_eq!(ab.best_moves, sol.best_moves(), "best moves of {pos}");
        // V4: every best move reaches the margin, and a replay of the best line does.
        for (mv, v) in &sol.moves {
            let child = pos.play(*mv).unwrap();
            if let Some(m) = solver_margin(&child) {
                assert_eq!(-m, *v, "{pos} {mv}");
            }
        }
        checked += 1;
    }
    eprintln!("{checked} positions checked of {tried} drawn");
}

/// Recomputes every state's `(lo, hi)` from its children (V3 back-up), on the naive graph of
/// random positions: the naive fixpoint must be a fixpoint of the Kiothi rules.
#[test]
fn v2_naive_bounds_are_consistent_with_the_rules() {
    let mut r = Rng(0x0123_4567_89ab_cdef);
    let mut states = 0;
    for _ in 0..150 {
        let pos = random_position(&mut r, Kiothi::new(Variant::default()));
        let Ok(g) = NaiveGraph::build(&pos.rules, &pos.state, 50_000, None) else {
            continue;
        };
        let mut children = Vec::new();
        for s in g.states() {
            let b = g.bounds(s).unwrap();
            pos.rules.children(s, &mut children);
            let expect = if children.is_empty() {
                Bounds::exact(pos.rules.final_value(s))
            } else {
                let mut lo = NEG_INF;
                let mut hi = NEG_INF;
                for c in &children {
                    let cb = g.bounds(&c.state).unwrap();
                    let k = c.captured as i16;
                    let (clo, chi) = if c.turn_passes {
                        (back_up(cb.hi, k, true), back_up(cb.lo, k, true))
                    } else {
                        (back_up(cb.lo, k, false), back_up(cb.hi, k, false))
                    };
                    lo = lo.max(clo);
                    hi = hi.max(chi);
                }
                Bounds { lo, hi }
            };
            assert_eq!(
                b,
                expect,
                "{}",
                Position::new(pos.rules, *s, BySide::default())
            );
            assert!(b.lo <= b.hi);
            states += 1;
        }
    }
    assert!(states > 1000, "{states}");
}
