//! Threads (issue 12 part 6; STYLE.md: the value never depends on the thread count): on
//! random positions of Giuthi, Kiothi and Kalah, two threads give the same bounds, margin,
//! best moves and move values (RULES.md V2-V4) as one thread, both with the busy table
//! deferring children at every depth (`defer_depth: Some(64)`, src/solve/busy.rs) and with
//! the default, and their principal variations replay to the margin. The deferral must
//! actually happen (asserted), so the test exercises the second pass of the children loop;
//! on Kalah the default defers within 16 plies, nodes expected to fail even their first
//! child (docs/performance.md, Sessions 10 and 13), with the lean path below, and is
//! asserted to defer on its own.

use giuthi::rules::giuthi::{Giuthi, GiuthiState, Variant};
use giuthi::rules::kalah::{Kalah, KalahState};
use giuthi::rules::kiothi::Kiothi;
use giuthi::rules::Rules;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::{BySide, Position};

use crate::common::{kiothi_play_state, replay_pv, Rng};

fn solver<R: Rules>(rules: &R, threads: usize, defer_depth: Option<usize>) -> Solver<R> {
    Solver::new(
        rules.clone(),
        SolverOptions {
            threads,
            hash_mb: 16,
            defer_depth,
            ..SolverOptions::default()
        },
    )
}

/// Solves every position with one thread and with two (deferring at every depth, and at
/// the default depth); asserts equal answers and returns the children each two-thread
/// solver deferred (`[every depth, default]`).
fn one_equals_two<R: Rules>(rules: &R, positions: &[Position<R>]) -> [u64; 2] {
    let one = solver(rules, 1, None);
    let twos = [solver(rules, 2, Some(64)), solver(rules, 2, None)];
    for (n, pos) in positions.iter().enumerate() {
        let a = one.solve_with_bounds(pos).expect("not interrupted");
        let r = one.solve(pos).expect("not interrupted");
        for two in &twos {
            let b = two.solve_with_bounds(pos).expect("not interrupted");
            assert_eq!(
                (a.bounds(), a.margin, a.result, &a.best_moves),
                (b.bounds(), b.margin, b.result, &b.best_moves),
                "{pos}"
            );
            assert_eq!(replay_pv(pos, &b), b.margin, "{pos}");
            let c = two.solve(pos).expect("not interrupted");
            assert_eq!(
                (c.margin, &c.best_moves, c.ranges),
                (r.margin, &r.best_moves, r.ranges),
                "{pos}"
            );
            if n % 4 == 0 {
                assert_eq!(
                    two.analyze(pos).expect("not interrupted"),
                    one.analyze(pos).expect("not interrupted"),
                    "{pos}"
                );
            }
        }
    }
    [twos[0].deferrals(), twos[1].deferrals()]
}

#[test]
fn v3_giuthi_two_threads_equal_one_thread() {
    let mut rng = Rng(0x5eed_0012);
    let rules = Giuthi::new(5, Variant::default()).expect("board");
    let positions: Vec<_> = (0..16)
        .map(|_| {
            let mut pits = [0u8; 32];
            for _ in 0..12 + rng.below(9) {
                pits[rng.below(10) as usize] += 1;
            }
            let state = GiuthiState {
                pits,
                turn: rng.side(),
            };
            let cap = BySide::new(rng.below(6) as u16, rng.below(6) as u16);
            Position::new(rules.clone(), state, cap)
        })
        .collect();
    assert!(
        one_equals_two(&rules, &positions).iter().sum::<u64>() > 0,
        "no child was deferred"
    );
}

#[test]
fn v3_kalah_two_threads_equal_one_thread() {
    let mut rng = Rng(0x5eed_0013);
    let rules = Kalah::new(5).expect("board");
    let positions: Vec<_> = (0..16)
        .map(|_| {
            let mut state: KalahState = rules.start(0);
            for _ in 0..14 + rng.below(13) {
                state.pits[rng.below(10) as usize] += 1;
            }
            state.turn = rng.side();
            let cap = BySide::new(rng.below(8) as u16, rng.below(8) as u16);
            Position::new(rules.clone(), state, cap)
        })
        .collect();
    let [every, default] = one_equals_two(&rules, &positions);
    assert!(every > 0, "no child was deferred at every depth");
    assert!(default > 0, "Kalah's default deferral never happened");
}

#[test]
fn v3_kiothi_two_threads_equal_one_thread() {
    let mut rng = Rng(0x5eed_0014);
    let rules = Kiothi::new(Default::default());
    let positions: Vec<_> = (0..16)
        .map(|_| {
            let warriors = 3 + rng.below(6);
            let state = kiothi_play_state(&mut rng, warriors);
            let cap = BySide::new(rng.below(5) as u16, rng.below(5) as u16);
            Position::new(rules, state, cap)
        })
        .collect();
    // Kiothi positions of a few warriors are small trees: the deferral is asserted on the
    // two larger games above.
    one_equals_two(&rules, &positions);
}
