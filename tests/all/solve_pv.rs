//! The principal variation and the best moves of `Solver::solve` against a brute-force
//! search over paths (RULES.md V3, V4, G10): at every step of the PV, with the line played
//! so far as history (a return to any of its positions ends the game with final margin 0,
//! G10), the move played reaches the root's exact margin and no move of that position
//! does better for its mover; the best moves equal those of `Solver::analyze`, and
//! `Solver::solve_one_best` gives one of them. The PV is built from the table's move
//! hints (docs/solver.md, Best moves and the principal variation), so this checks
//! that a hint is only ever an order, never a shortcut.

use giuthi::rules::giuthi::{Chain, End, Giuthi, GiuthiState, Origin, Variant};
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::{BySide, Position, Rules, Side};

use crate::common::Rng;

/// The exact final margin for `root` (a side) of play from `p`, both sides playing
/// perfectly, when reaching any state of `path` (the positions played so far, `p`'s state
/// last) ends the game with margin 0 (G10); `None` when more than `*left` nodes would be
/// needed. A plain minimax over paths: exponential, for tiny positions only.
fn value(
    p: &Position<Giuthi>,
    path: &mut Vec<GiuthiState>,
    root: Side,
    left: &mut u64,
) -> Option<i32> {
    if *left == 0 {
        return None;
    }
    *left -= 1;
    let kids = p.children();
    if kids.is_empty() {
        let s = p.final_scores();
        return Some(s[root] - s[root.opponent()]);
    }
    let mut best: Option<i32> = None;
    for c in &kids {
        let v = if path.contains(&c.state) {
            0
        } else {
            let q = p.after(c);
            path.push(q.state);
            let v = value(&q, path, root, left);
            path.pop();
            v?
        };
        best = Some(match best {
            None => v,
            Some(b) if p.turn() == root => b.max(v),
            Some(b) => b.min(v),
        });
    }
    best
}

/// Each move of `p` (the last position of `path`) with the margin it reaches for `root`.
fn move_values(
    p: &Position<Giuthi>,
    path: &mut Vec<GiuthiState>,
    root: Side,
    left: &mut u64,
) -> Option<Vec<(giuthi::rules::giuthi::GiuthiMove, i32)>> {
    let mut out = Vec::new();
    for c in p.children() {
        let v = if path.contains(&c.state) {
            0
        } else {
            let q = p.after(&c);
            path.push(q.state);
            let v = value(&q, path, root, left);
            path.pop();
            v?
        };
        out.push((c.mv, v));
    }
    Some(out)
}

fn random_position(rng: &mut Rng, rules: &Giuthi) -> Position<Giuthi> {
    let n = rules.pits_per_row();
    let seeds = 2 + rng.below(7) as usize; // 2..=8
    let mut pits = [0u8; 32];
    for _ in 0..seeds {
        pits[rng.below(2 * n as u64) as usize] += 1;
    }
    let turn = rng.side();
    let cap = BySide::new(rng.below(6) as u16, rng.below(6) as u16);
    Position::new(rules.clone(), GiuthiState { pits, turn }, cap)
}

#[test]
fn v4_g10_every_pv_step_keeps_the_margin_with_the_line_as_history() {
    let mut rng = Rng(0x009e_3779_b911);
    let variants = [
        Variant::default(),
        Variant {
            chain: Chain::None,
            origin: Origin::Skip,
            end: End::EmptyRow,
        },
        Variant {
            chain: Chain::One,
            origin: Origin::Sow,
            end: End::Stuck,
        },
    ];
    let (mut checked, mut long_lines, mut steps, mut tries) = (0, 0, 0, 0);
    while checked < 80 {
        tries += 1;
        assert!(tries < 5_000, "too few positions small enough: {checked}");
        let n = 3 + rng.below(2) as usize;
        let rules = Giuthi::new(n, variants[rng.below(3) as usize]).expect("board");
        let pos = random_position(&mut rng, &rules);
        if pos.children().is_empty() {
            continue;
        }
        let root = pos.turn();
        // The brute force first: positions it cannot afford are skipped before solving.
        let mut left = 100_000u64;
        let Some(root_values) = move_values(&pos, &mut vec![pos.state], root, &mut left) else {
            continue;
        };
        // Solvers with a small table (entries overwritten: hints that may be stale).
        let solver = Solver::new(
            rules.clone(),
            SolverOptions {
                hash_mb: 1,
                ..SolverOptions::default()
            },
        );
        let sol = solver.solve(&pos).expect("not interrupted");
        let best = root_values.iter().map(|(_, v)| *v).max().expect("a move");
        assert_eq!(sol.margin, best, "{pos}: margin");
        let want: Vec<_> = root_values
            .iter()
            .filter(|(_, v)| *v == best)
            .map(|(m, _)| *m)
            .collect();
        assert_eq!(sol.best_moves, want, "{pos}: best moves");
        let analyzed: Vec<_> = solver
            .analyze(&pos)
            .expect("not interrupted")
            .into_iter()
            .filter(|(_, v)| *v == sol.margin)
            .map(|(m, _)| m)
            .collect();
        assert_eq!(
            sol.best_moves, analyzed,
            "{pos}: best moves against analyze"
        );
        // `bestmove`'s solve: one of the best moves, the same margin, a PV starting with it.
        let one = solver.solve_one_best(&pos).expect("not interrupted");
        assert_eq!(one.margin, sol.margin, "{pos}: solve_one_best margin");
        assert_eq!(one.best_moves.len(), 1, "{pos}: {:?}", one.best_moves);
        assert!(
            want.contains(&one.best_moves[0]),
            "{pos}: {:?}",
            one.best_moves
        );
        assert_eq!(one.pv.first(), one.best_moves.first(), "{pos}");
        assert_eq!(crate::common::replay_pv(&pos, &one), one.margin, "{pos}");
        // Every step of the PV, with the line so far as history.
        let mut p = pos.clone();
        let mut path = vec![pos.state];
        for (i, mv) in sol.pv.iter().enumerate() {
            let mut left = 100_000u64;
            let Some(values) = move_values(&p, &mut path, root, &mut left) else {
                break;
            };
            let here = if p.turn() == root {
                values.iter().map(|(_, v)| *v).max()
            } else {
                values.iter().map(|(_, v)| *v).min()
            };
            assert_eq!(
                here,
                Some(sol.margin),
                "{pos}: pv step {i}: the value of {p}"
            );
            let played = values.iter().find(|(m, _)| m == mv).map(|(_, v)| *v);
            assert_eq!(
                played,
                Some(sol.margin),
                "{pos}: pv step {i}: {mv} in {p} (pv {:?})",
                sol.pv
            );
            steps += 1;
            let c = p
                .children()
                .into_iter()
                .find(|c| c.mv == *mv)
                .expect("a legal move");
            p = p.after(&c);
            if path.contains(&p.state) {
                assert_eq!(i + 1, sol.pv.len(), "{pos}: pv goes on after a repetition");
                break;
            }
            path.push(p.state);
        }
        long_lines += usize::from(sol.pv.len() >= 6);
        checked += 1;
    }
    assert!(long_lines >= 10, "only {long_lines} PVs of 6 plies or more");
    assert!(steps >= 200, "only {steps} PV steps checked");
}
