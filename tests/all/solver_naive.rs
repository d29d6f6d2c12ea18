//! Cross-check: alpha-beta == naive (RULES.md V2-V4) on random small Giuthi positions of
//! every variant, both turns and captured counts that change the result; the principal
//! variation replays to the claimed margin; 1 thread == 2 threads.

use giuthi::rules::giuthi::{Chain, End, Giuthi, GiuthiState, Origin, Variant};
use giuthi::rules::Rules;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::solve::naive::naive_solve;
use giuthi::value::NEG_INF;
use giuthi::{BySide, Position};
use std::collections::HashMap;

use crate::common::{compact_solver, replay_pv, Rng};

fn variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for chain in [Chain::Run, Chain::One, Chain::None] {
        for origin in [Origin::Sow, Origin::Skip] {
            for end in [End::Stuck, End::EmptyRow] {
                v.push(Variant { chain, origin, end });
            }
        }
    }
    v
}

fn random_position(rng: &mut Rng, rules: &Giuthi) -> Position<Giuthi> {
    let n = rules.pits_per_row();
    let seeds = 2 + rng.below(11) as usize; // 2..=12
    let mut pits = [0u8; 32];
    for _ in 0..seeds {
        pits[rng.below(2 * n as u64) as usize] += 1;
    }
    let turn = rng.side();
    let cap = BySide::new(rng.below(8) as u16, rng.below(8) as u16);
    Position::new(rules.clone(), GiuthiState { pits, turn }, cap)
}

/// What one position of the cross-check showed.
struct Checked {
    /// lo != hi (repetition decides).
    split: bool,
    /// The result-first driver left lo or hi inexact (it skipped work the margin does not
    /// need).
    ranges_only: bool,
}

/// Both drivers against the naive solver: the result-first `solve` gives the naive
/// margin, result and best moves, with ranges that hold the naive bounds and decide the
/// margin; `solve_with_bounds` gives the naive bounds exactly as well. Both PVs replay to
/// the margin.
fn check(solver: &Solver<Giuthi>, pos: &Position<Giuthi>) -> Option<Checked> {
    let naive = naive_solve(pos, 5_000).ok()?;
    let d = pos.captured_difference();
    let first = solver.solve(pos).expect("not interrupted");
    assert!(
        first.ranges.contains(naive.bounds),
        "{pos}: ranges {} vs {}",
        first.ranges,
        naive.bounds
    );
    assert_eq!(first.ranges.margin(d), Some(naive.margin), "{pos}: ranges");
    assert_eq!(first.margin, naive.margin, "{pos}: margin (result first)");
    assert_eq!(first.result, naive.bounds.result(d), "{pos}: result");
    assert_eq!(first.best_moves, naive.best_moves(), "{pos}: best moves");
    assert_eq!(
        replay_pv(pos, &first),
        first.margin,
        "{pos}: pv {:?}",
        first.pv
    );
    let sol = solver.solve_with_bounds(pos).expect("not interrupted");
    assert_eq!(sol.bounds(), Some(naive.bounds), "{pos}: bounds");
    assert_eq!(sol.margin, naive.margin, "{pos}: margin");
    assert_eq!(sol.best_moves, naive.best_moves(), "{pos}: best moves");
    assert_eq!(replay_pv(pos, &sol), sol.margin, "{pos}: pv {:?}", sol.pv);
    Some(Checked {
        split: naive.bounds.lo != naive.bounds.hi,
        ranges_only: first.bounds().is_none(),
    })
}

#[test]
fn v3_alphabeta_equals_naive_on_random_positions() {
    let mut rng = Rng(0x5eed_1234);
    let mut solvers: HashMap<(usize, usize), Solver<Giuthi>> = HashMap::new();
    let vars = variants();
    let (mut checked, mut split, mut decided_by_captures, mut ranges_only) = (0, 0, 0, 0);
    while checked < 1000 {
        let n = 3 + rng.below(3) as usize;
        let vi = rng.below(vars.len() as u64) as usize;
        let solver = solvers.entry((n, vi)).or_insert_with(|| {
            let rules = Giuthi::new(n, vars[vi]).expect("board");
            Solver::new(
                rules,
                SolverOptions {
                    hash_mb: 1,
                    // Half of the solvers use the enhanced transposition cutoff.
                    etc: vi % 2 == 0,
                    // A third of them order without the history heuristic.
                    history: vi % 3 != 0,
                    ..SolverOptions::default()
                },
            )
        });
        let rules = Giuthi::new(n, vars[vi]).expect("board");
        let pos = random_position(&mut rng, &rules);
        if let Some(c) = check(solver, &pos) {
            checked += 1;
            split += c.split as usize;
            ranges_only += c.ranges_only as usize;
            // The captured seeds change the result when it differs from the one at 0,0.
            let mut zero = pos.clone();
            zero.captured = BySide::new(0, 0);
            let b = naive_solve(&zero, 5_000).expect("same graph").bounds;
            if b.result(0) != b.result(pos.captured_difference()) {
                decided_by_captures += 1;
            }
        }
    }
    assert!(split >= 20, "only {split} positions with lo != hi");
    // The result first: a good share of the solves decided the margin without finding
    // both bounds exactly.
    assert!(
        ranges_only >= 20,
        "only {ranges_only} solves left a bound inexact"
    );
    assert!(decided_by_captures >= 100, "only {decided_by_captures}");
}

/// The same cross-check with the compact transposition table (1 GiB: 8-byte slots,
/// src/solve/tt.rs), on 4 KB pages so that only the pages touched are made: repetitions
/// (lo != hi) and infinite bounds pass through its coded bounds exactly.
#[test]
fn v3_alphabeta_with_the_compact_table_equals_naive() {
    let mut rng = Rng(0x5eed_4096);
    let vars = [variants()[0], variants()[11]];
    let mut solvers: HashMap<(usize, usize), Solver<Giuthi>> = HashMap::new();
    let (mut checked, mut split) = (0, 0);
    while checked < 150 {
        let n = 3 + rng.below(3) as usize;
        let vi = rng.below(2) as usize;
        let solver = solvers
            .entry((n, vi))
            .or_insert_with(|| compact_solver(&Giuthi::new(n, vars[vi]).expect("board")));
        let rules = Giuthi::new(n, vars[vi]).expect("board");
        let pos = random_position(&mut rng, &rules);
        if let Some(c) = check(solver, &pos) {
            checked += 1;
            split += c.split as usize;
        }
    }
    assert!(split >= 3, "only {split} positions with lo != hi");
}

#[test]
fn v3_analyze_equals_naive_move_values() {
    let mut rng = Rng(77);
    let rules = Giuthi::new(4, Variant::default()).expect("board");
    let solver = Solver::new(rules.clone(), SolverOptions::default());
    let mut done = 0;
    while done < 150 {
        let pos = random_position(&mut rng, &rules);
        let Ok(naive) = naive_solve(&pos, 5_000) else {
            continue;
        };
        let values = solver.analyze(&pos).expect("not interrupted");
        assert_eq!(values, naive.moves, "{pos}");
        done += 1;
    }
}

/// V4: `analyze` gives the naive move values on random 2x4 and 2x5 positions of every
/// variant, on a fresh table and after `solve` on the same table (as `solve --analyze`),
/// and `analyze_with` reports each move once, with that value, as it is settled.
#[test]
fn v4_analyze_fresh_and_after_solve_equal_naive_move_values() {
    let mut rng = Rng(2026);
    let all = variants();
    let mut done = 0;
    while done < 120 {
        let variant = all[rng.below(all.len() as u64) as usize];
        let rules = Giuthi::new(4 + rng.below(2) as usize, variant).expect("board");
        let pos = random_position(&mut rng, &rules);
        let Ok(naive) = naive_solve(&pos, 5_000) else {
            continue;
        };
        let fresh = Solver::new(rules.clone(), SolverOptions::default());
        let mut seen = Vec::new();
        let values = fresh
            .analyze_with(&pos, &mut |m, v| seen.push((m, v)))
            .expect("not interrupted");
        assert_eq!(values, naive.moves, "{pos} ({variant:?})");
        assert_eq!(seen.len(), values.len(), "{pos}");
        for mv in &values {
            assert!(seen.contains(mv), "{pos}: {mv:?} not reported");
        }
        let solver = Solver::new(rules.clone(), SolverOptions::default());
        solver.solve(&pos).expect("not interrupted");
        let values = solver.analyze(&pos).expect("not interrupted");
        assert_eq!(values, naive.moves, "{pos} ({variant:?}), after solve");
        done += 1;
    }
}

/// V4 with the history game's table and without it (`SolverOptions::history_table`):
/// the best moves, the PV and every move's value equal the naive solver's on random 2x4
/// and 2x5 positions of every variant, and the table saves nodes overall (one thread:
/// the counts are deterministic).
#[test]
fn v4_history_table_on_and_off_equal_naive() {
    let mut rng = Rng(0x22_2212);
    let all = variants();
    let (mut done, mut with, mut without, mut fewer) = (0, 0u64, 0u64, 0);
    while done < 100 {
        let variant = all[rng.below(all.len() as u64) as usize];
        let rules = Giuthi::new(4 + rng.below(2) as usize, variant).expect("board");
        let pos = random_position(&mut rng, &rules);
        let Ok(naive) = naive_solve(&pos, 5_000) else {
            continue;
        };
        let mut nodes = [0u64; 2];
        for (i, on) in [true, false].into_iter().enumerate() {
            let solver = Solver::new(
                rules.clone(),
                SolverOptions {
                    history_table: on,
                    ..SolverOptions::default()
                },
            );
            let sol = solver.solve(&pos).expect("not interrupted");
            assert_eq!(
                sol.best_moves,
                naive.best_moves(),
                "{pos} ({on}): best moves"
            );
            assert_eq!(replay_pv(&pos, &sol), sol.margin, "{pos} ({on}): pv");
            let values = solver.analyze(&pos).expect("not interrupted");
            assert_eq!(values, naive.moves, "{pos} ({on}): move values");
            nodes[i] = solver.nodes();
        }
        with += nodes[0];
        without += nodes[1];
        fewer += usize::from(nodes[0] < nodes[1]);
        done += 1;
    }
    eprintln!("history table: {with} nodes, without: {without}; fewer in {fewer} of {done}");
    assert!(
        with < without,
        "{with} nodes with the table, {without} without"
    );
}

/// A random position that is its own left-right mirror image (G11): pit `p` and its
/// image hold the same seeds.
fn random_symmetric_position(rng: &mut Rng, rules: &Giuthi) -> Position<Giuthi> {
    let n = rules.pits_per_row();
    let mut pits = [0u8; 32];
    // Each row gets a pit of two seeds or more (and its image), so that most roots have
    // moves (G2), and perhaps one more seed and its image.
    for (row, extra) in [(0, 0), (n, 0), (0, 1), (n, 1)] {
        if extra == 1 && rng.below(2) == 0 {
            continue;
        }
        let p = row + rng.below(n as u64) as usize;
        let k = if extra == 0 { 2 } else { 1 };
        pits[p] += k;
        let m = rules.mirror_pit(p);
        if m != p {
            pits[m] += k;
        }
    }
    let turn = rng.side();
    let cap = BySide::new(rng.below(6) as u16, rng.below(6) as u16);
    Position::new(rules.clone(), GiuthiState { pits, turn }, cap)
}

/// G11 in the search: at a root that is its own mirror image the solver proves one move
/// of each pair of twins (`SolverOptions::symmetry`). With it and without it, on one and
/// two threads, the ranges, bounds, margin, best moves, PV and every move's value equal
/// the naive solver's on random symmetric positions of every variant (each move reported
/// once by `analyze_with`), and with it the one-thread searches take fewer nodes.
#[test]
fn g11_symmetric_roots_twins_on_and_off_equal_naive() {
    let mut rng = Rng(0x611_2026);
    let all = variants();
    let (mut done, mut on_nodes, mut off_nodes, mut twinned) = (0, 0u64, 0u64, 0);
    while done < 120 {
        let variant = all[rng.below(all.len() as u64) as usize];
        let rules = Giuthi::new(3 + rng.below(3) as usize, variant).expect("board");
        let pos = random_symmetric_position(&mut rng, &rules);
        assert!(rules.is_symmetric(&pos.state), "{pos}");
        let Ok(naive) = naive_solve(&pos, 5_000) else {
            continue;
        };
        let mut kids = Vec::new();
        rules.children(&pos.state, &mut kids);
        if kids.iter().any(|c| rules.twin_move(&c.mv) != c.mv) {
            twinned += 1;
        }
        for (symmetry, threads) in [(true, 1), (false, 1), (true, 2)] {
            let solver = Solver::new(
                rules.clone(),
                SolverOptions {
                    symmetry,
                    threads,
                    hash_mb: 4,
                    ..SolverOptions::default()
                },
            );
            check(&solver, &pos);
            let mut seen = Vec::new();
            let values = solver
                .analyze_with(&pos, &mut |m, v| seen.push((m, v)))
                .expect("not interrupted");
            assert_eq!(values, naive.moves, "{pos} ({symmetry}, {threads})");
            assert_eq!(seen.len(), values.len(), "{pos}: {seen:?}");
            for mv in &values {
                assert!(seen.contains(mv), "{pos}: {mv:?} not reported");
            }
            match (symmetry, threads) {
                (true, 1) => on_nodes += solver.nodes(),
                (false, 1) => off_nodes += solver.nodes(),
                _ => {}
            }
        }
        done += 1;
    }
    eprintln!("twins: {on_nodes} nodes, without: {off_nodes}; {twinned} of {done} with twins");
    assert!(twinned >= done / 2, "only {twinned} roots with twin moves");
    assert!(
        on_nodes < off_nodes,
        "{on_nodes} nodes with the twins, {off_nodes} without"
    );
}

#[test]
fn v3_two_threads_equal_one_thread() {
    let mut rng = Rng(99);
    for n in [4usize, 5] {
        let rules = Giuthi::new(n, Variant::default()).expect("board");
        let one = Solver::new(rules.clone(), SolverOptions::default());
        let two = Solver::new(
            rules.clone(),
            SolverOptions {
                threads: 2,
                etc: true,
                ..SolverOptions::default()
            },
        );
        for _ in 0..40 {
            let mut pos = random_position(&mut rng, &rules);
            // Bigger positions than the naive check: up to 20 seeds.
            for _ in 0..rng.below(3) {
                pos.state.pits[rng.below(2 * n as u64) as usize] += 1;
            }
            let a = one.solve_with_bounds(&pos).expect("not interrupted");
            let b = two.solve_with_bounds(&pos).expect("not interrupted");
            assert_eq!(
                (a.bounds(), a.margin, &a.best_moves),
                (b.bounds(), b.margin, &b.best_moves),
                "{pos}"
            );
            let c = two.solve(&pos).expect("not interrupted");
            assert_eq!(
                (c.margin, &c.best_moves),
                (a.margin, &a.best_moves),
                "{pos}"
            );
            assert_eq!(replay_pv(&pos, &b), b.margin, "{pos}");
        }
    }
}

/// A fake endgame oracle: the naive solver's bounds of every state with few seeds.
struct NaiveOracle {
    rules: Giuthi,
    max_seeds: u32,
}

impl giuthi::solve::EndgameOracle<Giuthi> for NaiveOracle {
    fn probe(&self, s: &GiuthiState) -> Option<giuthi::Bounds> {
        if self.rules.seeds_on_board(s) > self.max_seeds {
            return None;
        }
        giuthi::solve::naive::naive_bounds(&self.rules, s, 100_000).ok()
    }
}

#[test]
fn v3_search_with_an_oracle_equals_naive() {
    let mut rng = Rng(4242);
    let rules = Giuthi::new(4, Variant::default()).expect("board");
    let oracle = std::sync::Arc::new(NaiveOracle {
        rules: rules.clone(),
        max_seeds: 5,
    });
    let solver = Solver::new(rules.clone(), SolverOptions::default()).with_oracle(oracle);
    let mut done = 0;
    while done < 100 {
        let pos = random_position(&mut rng, &rules);
        if check(&solver, &pos).is_some() {
            done += 1;
        }
    }
}

#[test]
fn stop_flag_interrupts_the_search() {
    let rules = giuthi::rules::kalah::Kalah::new(4).expect("board");
    let pos = Position::new(rules.clone(), rules.start(3), BySide::default());
    let solver = Solver::new(rules, SolverOptions::default());
    solver
        .stop_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(solver.solve(&pos).is_err());
}

/// The path cap (SolverOptions::max_ply) changes the work, never a value: with caps of
/// one to a few plies nearly every test is cut, run against and for the bad side and
/// deepened (the default first cap is 4), and the answers must still equal the naive solver's (G10, V2-V4), lo != hi
/// included.
#[test]
fn g10_path_cap_never_changes_a_value() {
    let mut rng = Rng(0xcafe);
    let vars = variants();
    let (mut checked, mut split, mut capped_runs) = (0, 0, 0);
    while checked < 300 {
        let n = 3 + rng.below(3) as usize;
        let vi = rng.below(vars.len() as u64) as usize;
        let rules = Giuthi::new(n, vars[vi]).expect("board");
        let first_cap = 1 + rng.below(4) as usize;
        let solver = Solver::new(
            rules.clone(),
            SolverOptions {
                hash_mb: 1,
                first_cap,
                etc: vi % 2 == 0,
                threads: 1 + (checked % 5 == 0) as usize,
                ..SolverOptions::default()
            },
        );
        let pos = random_position(&mut rng, &rules);
        if let Some(c) = check(&solver, &pos) {
            checked += 1;
            split += c.split as usize;
            capped_runs += (solver.deepened() > 0) as usize;
        }
    }
    assert!(split >= 5, "only {split} positions with lo != hi");
    assert!(
        capped_runs >= 100,
        "the cap was deepened in only {capped_runs} solves"
    );
}

/// A one-thread solver with the given first path cap and `max_ply`.
fn capped(rules: &Giuthi, first_cap: usize, max_ply: usize) -> Solver<Giuthi> {
    Solver::new(
        rules.clone(),
        SolverOptions {
            first_cap,
            max_ply,
            ..SolverOptions::default()
        },
    )
}

/// `analyze` under a tiny first cap gives the naive move values (V4).
#[test]
fn g10_path_cap_analyze_equals_naive() {
    let mut rng = Rng(0xbeef);
    let rules = Giuthi::new(4, Variant::default()).expect("board");
    let mut done = 0;
    while done < 60 {
        let pos = random_position(&mut rng, &rules);
        let Ok(naive) = naive_solve(&pos, 5_000) else {
            continue;
        };
        let solver = capped(&rules, 2, SolverOptions::default().max_ply);
        assert_eq!(
            solver.analyze(&pos).expect("deepened"),
            naive.moves,
            "{pos}"
        );
        done += 1;
    }
}

/// A search that needs paths deeper than `max_ply` stops with `too_deep` and with ranges
/// that hold the true bounds (they are facts, not guesses).
#[test]
fn g10_max_ply_stops_with_true_ranges() {
    let mut rng = Rng(0xd00d);
    let rules = Giuthi::new(5, Variant::default()).expect("board");
    let mut stopped = 0;
    let mut tried = 0;
    while stopped < 20 && tried < 2000 {
        tried += 1;
        let pos = random_position(&mut rng, &rules);
        let Ok(naive) = naive_solve(&pos, 5_000) else {
            continue;
        };
        let solver = capped(&rules, 1, 2);
        match solver.bounds(&pos.state) {
            Ok(b) => assert_eq!(b, naive.bounds, "{pos}"),
            Err(e) => {
                assert!(e.too_deep && solver.too_deep(), "{pos}: {e}");
                let (lo, hi) = (naive.bounds.lo, naive.bounds.hi);
                assert!(e.lo.0 <= lo && lo <= e.lo.1, "{pos}: lo {lo} outside {e}");
                assert!(e.hi.0 <= hi && hi <= e.hi.1, "{pos}: hi {hi} outside {e}");
                stopped += 1;
            }
        }
    }
    assert_eq!(stopped, 20, "only {stopped} searches stopped at max_ply 2");
}

/// A search never overflows its thread's stack, however deep `max_ply` lets it go: with a
/// 512 KB stack and no path cap (the first cap is `max_ply`), the 20-seed endgame, whose
/// uncapped paths run past 16,000 plies, stops cleanly (`too_deep`) with ranges that hold
/// its value; with the default caps it is solved exactly on the same small stack.
#[test]
fn g10_small_stack_is_never_overflowed() {
    let pos: Position<Giuthi> = "giuthi 3,0,2,1,4/0,2,5,1,2 N 3,1"
        .parse()
        .expect("position");
    let small = |first_cap: usize| {
        Solver::new(
            pos.rules.clone(),
            SolverOptions {
                stack_bytes: 512 << 10,
                first_cap,
                hash_mb: 16,
                ..SolverOptions::default()
            },
        )
    };
    let max = SolverOptions::default().max_ply;
    match small(max).bounds(&pos.state) {
        Err(e) => {
            assert!(e.too_deep, "{e}");
            assert!(e.lo.0 <= 6 && 6 <= e.lo.1, "{e}");
            assert_eq!(e.hi.1, giuthi::value::POS_INF, "{e}");
        }
        Ok(b) => assert_eq!((b.lo, b.hi), (6, giuthi::value::POS_INF)),
    }
    let sol = small(SolverOptions::default().first_cap)
        .solve(&pos)
        .expect("solved with the default caps");
    assert_eq!((sol.ranges.lo, sol.margin), ((6, 6), 4));
    assert_eq!(replay_pv(&pos, &sol), sol.margin);
}

/// Two endgames whose driver stalled on one threshold (the session-20 fresh-user trial
/// and this session's sample of 48 random 2x6 to 2x8 endgames): the result-first solve
/// of the first spent 59.4 M of its 59.8 M nodes on the test `hi >= -5` (`hi >= -6`, as
/// good, costs 0.45 M), and `solve_with_bounds` of the second took 740 M nodes.
/// With the budgeted MTD(f) tests (`Solver::settle`, `# Method`) they take 7.6 M and
/// 2.0 M nodes; each must finish within 20 M, with the values of the other driver and
/// of the retrograde pass (`giuthi solve --bounds`, by default).
#[test]
fn v3_driver_does_not_stall_on_one_threshold() {
    let budget = 20_000_000;
    let solver = |pos: &Position<Giuthi>| {
        Solver::new(pos.rules.clone(), SolverOptions::default())
            .with_stop(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
                false,
            )))
            .stop_after_nodes(budget)
    };
    let first: Position<Giuthi> = "giuthi 2,2,1,3,0,2,1,1/1,1,0,0,0,2,1,0 S 2,1"
        .parse()
        .expect("position");
    let sol = solver(&first)
        .solve(&first)
        .expect("solved within the node budget");
    assert_eq!(sol.margin, -6);
    assert_eq!(sol.ranges.hi, (-7, -7));
    assert_eq!(replay_pv(&first, &sol), -6);
    let second: Position<Giuthi> = "giuthi 0,1,0,1,0,0,2,1/2,1,0,0,3,0,0,1 N 5,6"
        .parse()
        .expect("position");
    let sol = solver(&second)
        .solve_with_bounds(&second)
        .expect("solved within the node budget");
    assert_eq!(
        sol.bounds(),
        Some(giuthi::Bounds {
            lo: NEG_INF,
            hi: -12
        })
    );
    assert_eq!(sol.margin, -11);
    assert_eq!(replay_pv(&second, &sol), -11);
    // The other driver agrees on both.
    assert_eq!(
        solver(&first)
            .solve_with_bounds(&first)
            .expect("solved")
            .margin,
        -6
    );
    assert_eq!(solver(&second).solve(&second).expect("solved").margin, -11);
}

/// Issue 12, part 2: the best-move phase never stalls where the value is proven. In this
/// 2x7 endgame the old driver proved +11 at once, then tested the principal variation's
/// moves in move order at the target margin: at ply 124 the failing test of a move worth
/// +5 at the target +9 ran for minutes (over 10^8 nodes), while `analyze`, proving each
/// move's value from below, took 0.1 s. Within a budget of 5 M nodes (it takes about
/// 0.6 M; the stalled position alone 1.5 M) the solve must finish, best moves and
/// principal variation included, and so must `analyze` with the same move values.
#[test]
fn v4_best_moves_and_pv_finish_within_a_node_budget() {
    let pos: Position<Giuthi> = "giuthi 1,1,0,0,2,0,1/1,0,0,2,0,2,1 S 0,0"
        .parse()
        .expect("position");
    let budget = 5_000_000;
    let solver = |_: ()| {
        Solver::new(pos.rules.clone(), SolverOptions::default())
            .with_stop(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
                false,
            )))
            .stop_after_nodes(budget)
    };
    let sol = solver(())
        .solve(&pos)
        .expect("solved within the node budget");
    assert_eq!(sol.margin, 11);
    let best: Vec<String> = sol.best_moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["10ccw"]);
    assert_eq!(replay_pv(&pos, &sol), 11);
    let values = solver(())
        .analyze(&pos)
        .expect("analyzed within the node budget");
    let values: Vec<String> = values.iter().map(|(m, v)| format!("{m} {v:+}")).collect();
    assert_eq!(values, ["10cw -7", "10ccw +11", "12cw -11", "12ccw -7"]);
    // The position of the stall, on its own: best move 8ccw (+9), while 8cw is worth +5.
    let stall: Position<Giuthi> = "giuthi 0,0,1,1,0,0,0/1,3,0,3,0,0,0 S 0,0"
        .parse()
        .expect("position");
    let sol = Solver::new(stall.rules.clone(), SolverOptions::default())
        .with_stop(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
            false,
        )))
        .stop_after_nodes(budget)
        .solve(&stall)
        .expect("solved within the node budget");
    assert_eq!(sol.margin, 9);
    let best: Vec<String> = sol.best_moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["8ccw"]);
}
