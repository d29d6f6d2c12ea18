//! Cross-check: the retrograde solver (`solve::retro`) == the naive solver == alpha-beta
//! (RULES.md V2-V4) on random small positions of every Giuthi variant, both turns and
//! captured counts that change the result, on Kalah and on Kiothi; the bounds of every
//! state of the graph, every move's margin (V4), the best moves, and the principal
//! variation replays to the margin. Also: the slow endgame of the README solves through
//! a graph of a counted size.

use giuthi::rules::giuthi::{Chain, End, Giuthi, GiuthiState, Origin, Variant};
use giuthi::rules::kalah::Kalah;
use giuthi::rules::kiothi::{self, Kiothi};
use giuthi::rules::Rules;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::solve::naive::{naive_solve, NaiveGraph};
use giuthi::solve::retro::{
    board_bound, solve_graph, solve_graph_with, solve_position, RetroError, BOUND_FACTOR,
    DEFAULT_MAX_STATES, PROBE_STATES,
};
use giuthi::{BySide, Position};

use crate::common::{kiothi_play_state, replay_pv, Rng};

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

fn random_giuthi(rng: &mut Rng, rules: &Giuthi, max_seeds: u64) -> Position<Giuthi> {
    let n = rules.pits_per_row();
    let seeds = 2 + rng.below(max_seeds - 1);
    let mut pits = [0u8; 32];
    for _ in 0..seeds {
        pits[rng.below(2 * n as u64) as usize] += 1;
    }
    let turn = rng.side();
    let cap = BySide::new(rng.below(8) as u16, rng.below(8) as u16);
    Position::new(rules.clone(), GiuthiState { pits, turn }, cap)
}

/// Checks retro against naive on `pos` (`None` when the naive graph is too large);
/// returns whether `lo != hi` there.
fn check_against_naive<R: Rules>(pos: &Position<R>, limit: usize) -> Option<bool> {
    let naive = naive_solve(pos, limit).ok()?;
    let (sol, moves) = solve_position(pos, limit).expect("the graph is small");
    assert_eq!(sol.bounds().expect("exact"), naive.bounds, "{pos}: bounds");
    assert_eq!(sol.margin, naive.margin, "{pos}: margin");
    assert_eq!(moves, naive.moves, "{pos}: move values (V4)");
    assert_eq!(sol.best_moves, naive.best_moves(), "{pos}: best moves");
    assert_eq!(replay_pv(pos, &sol), sol.margin, "{pos}: pv {:?}", sol.pv);
    if let Some(first) = sol.pv.first() {
        assert!(
            sol.best_moves.contains(first),
            "{pos}: pv starts with {first}"
        );
    }
    // Every state of the graph: the same bounds as the naive graph's.
    let g = solve_graph(&pos.rules, &pos.state, limit).expect("small");
    let ng = NaiveGraph::build(&pos.rules, &pos.state, limit, None).expect("small");
    assert_eq!(g.len(), ng.len(), "{pos}: graph size");
    for s in ng.states() {
        assert_eq!(g.bounds(s), ng.bounds(s), "{pos}: state {s:?}");
    }
    Some(naive.bounds.lo != naive.bounds.hi)
}

#[test]
fn v3_retro_equals_naive_on_random_giuthi_positions() {
    let mut rng = Rng(0x7e7_0001);
    let vars = variants();
    let (mut checked, mut split, mut decided_by_captures) = (0, 0, 0);
    // Positions that play can return to (the root's second sweep for V4) and that it
    // cannot (that sweep skipped): both kinds must be among the checked ones.
    let (mut returns, mut no_return) = (0, 0);
    while checked < 400 {
        let n = 3 + rng.below(4) as usize;
        let vi = rng.below(vars.len() as u64) as usize;
        let rules = Giuthi::new(n, vars[vi]).expect("board");
        let pos = random_giuthi(&mut rng, &rules, 11);
        if let Some(is_split) = check_against_naive(&pos, 10_000) {
            checked += 1;
            split += is_split as usize;
            let mut zero = pos.clone();
            zero.captured = BySide::new(0, 0);
            let b = solve_position(&zero, 20_000)
                .expect("same graph")
                .0
                .bounds()
                .expect("exact");
            if b.result(0) != b.result(pos.captured_difference()) {
                decided_by_captures += 1;
            }
            let mut children = Vec::new();
            pos.rules.children(&pos.state, &mut children);
            let back = children.iter().any(|c| {
                solve_graph(&pos.rules, &c.state, 20_000)
                    .expect("smaller graph")
                    .bounds(&pos.state)
                    .is_some()
            });
            if back {
                returns += 1;
            } else {
                no_return += 1;
            }
        }
    }
    assert!(
        returns >= 20,
        "only {returns} positions that play can return to"
    );
    assert!(
        no_return >= 20,
        "only {no_return} positions that play cannot return to"
    );
    assert!(split >= 20, "only {split} positions with lo != hi");
    assert!(decided_by_captures >= 50, "only {decided_by_captures}");
}

#[test]
fn v3_retro_equals_naive_on_random_kalah_positions() {
    let mut rng = Rng(0x7e7_0002);
    let mut checked = 0;
    while checked < 200 {
        let m = 2 + rng.below(4) as usize;
        let seeds = 1 + rng.below(10);
        let mut pits = vec![0u8; 2 * m];
        for _ in 0..seeds {
            pits[rng.below(2 * m as u64) as usize] += 1;
        }
        let row = |r: &[u8]| {
            r.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let turn = if rng.below(2) == 0 { "S" } else { "N" };
        let text = format!(
            "kalah {}/{} {turn} {},{}",
            row(&pits[..m]),
            row(&pits[m..]),
            rng.below(6),
            rng.below(6)
        );
        let pos: Position<Kalah> = text.parse().expect("position");
        if check_against_naive(&pos, 20_000).is_some() {
            checked += 1;
        }
    }
}

#[test]
fn v3_retro_equals_naive_on_random_kiothi_positions() {
    let mut rng = Rng(0x7e7_0003);
    let mut checked = 0;
    let mut tries = 0;
    while checked < 150 && tries < 5_000 {
        tries += 1;
        let warriors = 2 + rng.below(7);
        let state = kiothi_play_state(&mut rng, warriors);
        let cap = BySide::new(rng.below(5) as u16, rng.below(5) as u16);
        let pos = Position::new(Kiothi::new(kiothi::Variant::default()), state, cap);
        if check_against_naive(&pos, 20_000).is_some() {
            checked += 1;
        }
    }
    assert!(
        checked >= 150,
        "only {checked} Kiothi positions small enough"
    );
}

#[test]
fn v3_retro_equals_alphabeta_on_larger_giuthi_positions() {
    // Graphs beyond the naive solver's comfort (up to 10 seeds on 2x5 .. 2x7).
    let mut rng = Rng(0x7e7_0004);
    let vars = variants();
    let mut checked = 0;
    while checked < 40 {
        let n = 5 + rng.below(3) as usize;
        let vi = rng.below(vars.len() as u64) as usize;
        let rules = Giuthi::new(n, vars[vi]).expect("board");
        let pos = random_giuthi(&mut rng, &rules, 10);
        let Ok((sol, _)) = solve_position(&pos, 100_000) else {
            continue;
        };
        let solver = Solver::new(
            rules,
            SolverOptions {
                hash_mb: 4,
                ..SolverOptions::default()
            },
        );
        let ab = solver.solve_with_bounds(&pos).expect("not interrupted");
        assert_eq!(sol.bounds(), ab.bounds(), "{pos}: bounds");
        assert_eq!(sol.margin, ab.margin, "{pos}: margin");
        assert_eq!(sol.best_moves, ab.best_moves, "{pos}: best moves");
        assert_eq!(replay_pv(&pos, &sol), sol.margin, "{pos}: pv {:?}", sol.pv);
        checked += 1;
    }
}

#[test]
fn retro_stops_at_the_state_cap() {
    let pos: Position<Giuthi> = "giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0".parse().expect("start");
    assert!(matches!(
        solve_graph(&pos.rules, &pos.state, 1000),
        Err(RetroError::TooLarge { limit: 1000 })
    ));
}

/// The early exit: the 2x5x2 start (a size bound of 2 * C(30, 10) = 60 M states, more
/// than 8 times the default cap) is given up after PROBE_STATES states, with the early
/// exit off only at the cap; the README's slow endgame (bound 2 * C(24, 16) = 1.47 M,
/// graph 411,572 states) is below the early exit's reach; a Giuthi graph of more than
/// Kiothi never gives up early.
#[test]
fn early_exit_gives_up_giuthi_graphs_with_a_bound_far_above_the_cap() {
    let start: Position<Giuthi> = "giuthi 2,2,2,2,2/2,2,2,2,2 S 0,0".parse().expect("start");
    assert_eq!(board_bound(&start.rules, &start.state), 2.0 * 30_045_015.0);
    assert!(matches!(
        solve_graph(&start.rules, &start.state, DEFAULT_MAX_STATES),
        Err(RetroError::TooLargeEarly {
            limit: DEFAULT_MAX_STATES,
            bound: 60_090_030,
            probe: PROBE_STATES,
        })
    ));
    // Without the early exit, the same small cap stops it at the cap.
    assert!(matches!(
        solve_graph_with(&start.rules, &start.state, 2 * PROBE_STATES, false),
        Err(RetroError::TooLarge { .. })
    ));
    let slow: Position<Giuthi> = "giuthi 0,0,0,1,0,0,1,0/1,0,0,2,1,0,1,1 S 1,4"
        .parse()
        .expect("position");
    let b = board_bound(&slow.rules, &slow.state);
    assert_eq!(b, 2.0 * 735_471.0);
    assert!(b < BOUND_FACTOR * DEFAULT_MAX_STATES as f64);
    // Kiothi is never given up early: this graph passes PROBE_STATES and a bound of more
    // than 8 times the cap, and is given up only at the cap.
    let k: Position<Kiothi> = "kiothi 2,0,0,1,0,0,1,0,2,0/0,1,0,1,0,2,0,1,0,1 S 0,0 play"
        .parse()
        .expect("kiothi");
    assert!(board_bound(&k.rules, &k.state) > BOUND_FACTOR * 20_000.0);
    assert!(matches!(
        solve_graph(&k.rules, &k.state, 20_000),
        Err(RetroError::TooLarge { limit: 20_000 })
    ));
}

/// The early exit on Kalah (R1-R4; `retro::KALAH_BOUND_FACTOR`): the Kalah(6,3) start is
/// given up after PROBE_STATES states; a graph whose bound is within the cap is solved;
/// one of 169,476 states whose bound (3.2 M) is over the cap is given up, and the search
/// that answers instead agrees with the whole graph's value (enumerated without the exit).
#[test]
fn r4_early_exit_gives_kalah_graphs_with_a_bound_over_the_cap_to_the_search() {
    let start: Position<Kalah> = "kalah 3,3,3,3,3,3/3,3,3,3,3,3 S 0,0"
        .parse()
        .expect("start");
    assert!(matches!(
        solve_graph(&start.rules, &start.state, DEFAULT_MAX_STATES),
        Err(RetroError::TooLargeEarly {
            probe: PROBE_STATES,
            ..
        })
    ));
    let small: Position<Kalah> = "kalah 5,1,6/7,3,1 S 0,0".parse().expect("small");
    assert!(board_bound(&small.rules, &small.state) <= DEFAULT_MAX_STATES as f64);
    let g = solve_graph(&small.rules, &small.state, DEFAULT_MAX_STATES).expect("within the cap");
    assert_eq!(g.len(), 39_147);
    let mid: Position<Kalah> = "kalah 5,4,7/4,5,4 N 0,0".parse().expect("mid");
    assert!(board_bound(&mid.rules, &mid.state) > DEFAULT_MAX_STATES as f64);
    assert!(matches!(
        solve_graph(&mid.rules, &mid.state, DEFAULT_MAX_STATES),
        Err(RetroError::TooLargeEarly { .. })
    ));
    let g = solve_graph_with(&mid.rules, &mid.state, DEFAULT_MAX_STATES, false).expect("fits");
    assert_eq!(g.len(), 169_476);
    let ab = Solver::new(mid.rules.clone(), SolverOptions::default())
        .solve(&mid)
        .expect("solved");
    assert_eq!(ab.bounds().expect("exact"), g.root_bounds());
    assert_eq!(
        ab.margin,
        g.root_bounds().exact_margin(mid.captured_difference())
    );
}

/// The README's slow endgame (alpha-beta alone: minutes) solves through its graph; the
/// graph's size is pinned (states, not time), and the value agrees with the 2x8 tables'
/// figure recorded in tests/cli_tb.rs (North wins).
#[test]
fn g10_slow_endgame_of_the_readme_solves_through_its_graph() {
    let pos: Position<Giuthi> = "giuthi 0,0,0,1,0,0,1,0/1,0,0,2,1,0,1,1 S 1,4"
        .parse()
        .expect("position");
    let g = solve_graph(&pos.rules, &pos.state, 1_000_000).expect("small graph");
    assert_eq!(g.len(), SLOW_ENDGAME_STATES);
    let (sol, _) = solve_position(&pos, 1_000_000).expect("small graph");
    assert_eq!(replay_pv(&pos, &sol), sol.margin, "pv {:?}", sol.pv);
}

const SLOW_ENDGAME_STATES: usize = 411_572;

/// The caller's stop ends the pass with `Stopped` (the serve job's Stop, `--movetime`,
/// Ctrl-C), and a stop that never fires changes nothing: the same values as without it.
#[test]
fn v2_a_stopped_retrograde_pass_says_stopped() {
    let pos: Position<Giuthi> = "giuthi 0,0,0,1,0,0,1,0/1,0,0,2,1,0,1,1 S 1,4"
        .parse()
        .unwrap();
    let calls = std::cell::Cell::new(0u32);
    let stop_soon = || {
        calls.set(calls.get() + 1);
        calls.get() > 3
    };
    let r = giuthi::solve::retro::solve_position_until(&pos, 1 << 20, &stop_soon);
    assert!(
        matches!(r, Err(giuthi::solve::retro::RetroError::Stopped)),
        "{r:?}"
    );
    assert_eq!(calls.get(), 4, "asked until it said stop");
    let (free, free_moves) =
        giuthi::solve::retro::solve_position_until(&pos, 1 << 20, &|| false).unwrap();
    let (plain, plain_moves) = giuthi::solve::retro::solve_position(&pos, 1 << 20).unwrap();
    assert_eq!(free.margin, plain.margin);
    assert_eq!(free_moves, plain_moves);
}

/// Alpha-beta with the driver's MTD(f) tests cut at once (a node budget of 1: every test
/// past its first 4,096 nodes is cut, another threshold tried, then the guess run to the
/// end; `Solver::settle`, `# Method`) against the retrograde solver, on random 2x6 and
/// 2x7 endgames of every variant with graphs of up to 200,000 states (too large for the
/// naive solver, large enough for tests of thousands of nodes): both drivers give the
/// retrograde margin, best moves and (with bounds) `lo` and `hi`.
///
/// Positions that the search with the default driver does not solve within 2 M nodes
/// are left out (a few tiny boards stall the search whatever the driver does, e.g.
/// `giuthi:origin=skip 1,0,1,2,1,0,0/1,0,0,1,0,0,0 N 3,6`, 6 seeds, over 20 s: the
/// CLI's retrograde pass answers them, docs/solver.md); the cut driver must then solve
/// every position kept within 50 M nodes.
#[test]
fn v3_driver_with_cut_tests_equals_retro() {
    let mut rng = Rng(0x5eed_0021);
    let vars = variants();
    let solver = |rules: &Giuthi, driver_budget_min: u64, nodes: u64| {
        Solver::new(
            rules.clone(),
            SolverOptions {
                hash_mb: 4,
                driver_budget_min,
                ..SolverOptions::default()
            },
        )
        .with_stop(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
            false,
        )))
        .stop_after_nodes(nodes)
    };
    let (mut checked, mut skipped, mut split, mut cuts) = (0, 0, 0, 0);
    while checked < 40 || cuts < 12 {
        assert!(
            checked < 400,
            "only {cuts} cut tests in {checked} positions"
        );
        let n = 6 + rng.below(2) as usize;
        let rules = Giuthi::new(n, vars[rng.below(vars.len() as u64) as usize]).expect("board");
        let pos = random_giuthi(&mut rng, &rules, 18);
        let Ok((want, _)) = solve_position(&pos, 200_000) else {
            continue;
        };
        let plain = solver(
            &rules,
            SolverOptions::default().driver_budget_min,
            2_000_000,
        );
        if plain.solve(&pos).is_err() || plain.solve_with_bounds(&pos).is_err() {
            skipped += 1;
            continue;
        }
        let cut = solver(&rules, 1, 50_000_000);
        let first = cut.solve(&pos).expect("within 50 M nodes");
        let bounds = want.bounds().expect("exact");
        assert!(first.ranges.contains(bounds), "{pos}: {}", first.ranges);
        assert_eq!(first.margin, want.margin, "{pos}: margin (result first)");
        assert_eq!(first.best_moves, want.best_moves, "{pos}: best moves");
        let sol = cut.solve_with_bounds(&pos).expect("within 50 M nodes");
        assert_eq!(sol.bounds(), Some(bounds), "{pos}: bounds");
        assert_eq!(sol.best_moves, want.best_moves, "{pos}: best moves");
        assert_eq!(replay_pv(&pos, &sol), sol.margin, "{pos}: pv {:?}", sol.pv);
        checked += 1;
        split += (bounds.lo != bounds.hi) as usize;
        cuts += cut.driver_cuts();
    }
    assert!(skipped * 4 <= checked, "{skipped} positions left out");
    assert!(split >= 5, "only {split} positions with lo != hi");
}
