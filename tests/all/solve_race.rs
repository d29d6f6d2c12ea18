//! The race of the retrograde pass and the search in the solve layer (src/solve/race.rs,
//! docs/solver.md, The race), and `Solver::within_budget` under it; `analyze` and
//! `bestmove` start with the race as `solve` does (issue 12 part 3).

use crate::common::run_cli as giuthi;
use giuthi::rules::giuthi::Giuthi;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::solve::race::{race, Winner};
use giuthi::solve::retro::{solve_position, RACE_STATES};
use giuthi::Position;
use std::sync::atomic::Ordering;

/// A graph of more than a million states (a bound of 3.9 M) that the search settles in
/// 6,699 nodes (the session-8 trial's position).
const MEDIUM: &str = "giuthi 1,1,3,1,2/1,1,1,1,1 N 5,6";

/// Graphs of 16k to 1M states that the search settles within the race's budget (random
/// endgames of examples/retro_endgames.rs).
const RACED: [&str; 4] = [
    "giuthi:chain=one,origin=skip 2,0,1,0,1/0,2,1,1,1 N 0,0",
    "giuthi:chain=one,end=empty-row 0,0,2,1,1/2,1,2,0,0 N 0,0",
    "giuthi:chain=one 2,0,1,2/0,2,4,0 N 0,0",
    "giuthi 1,3,3,2/1,0,0,2 S 0,0",
];

fn solver(pos: &Position<Giuthi>) -> Solver<Giuthi> {
    let opts = SolverOptions {
        threads: 1,
        hash_mb: 16,
        ..SolverOptions::default()
    };
    Solver::new(pos.rules.clone(), opts)
}

/// V3: a budget too small answers `None` and keeps the solver usable; growing budgets end
/// with the unbudgeted answer; a raised stop flag is an error, not a spent budget.
#[test]
fn v3_within_budget_answers_within_it_or_not_at_all() {
    let pos: Position<Giuthi> = MEDIUM.parse().unwrap();
    let plain = solver(&pos).solve(&pos).unwrap();
    let s = solver(&pos);
    assert!(s.within_budget(100, |s| s.solve(&pos)).unwrap().is_none());
    let mut budget = 100;
    let sol = loop {
        if let Some(sol) = s.within_budget(budget, |s| s.solve(&pos)).unwrap() {
            break sol;
        }
        budget *= 2;
    };
    assert_eq!(
        (sol.margin, &sol.best_moves),
        (plain.margin, &plain.best_moves)
    );
    assert_eq!(sol.margin, 14);
    // After the budgets, no budget is left behind: a plain solve runs to its end.
    assert_eq!(s.solve(&pos).unwrap().margin, 14);
    let stopped = solver(&pos);
    stopped.stop_flag().store(true, Ordering::Relaxed);
    assert!(stopped.within_budget(100, |s| s.solve(&pos)).is_err());
}

/// V2-V4: the race answers as the retrograde pass alone: the pass itself on a small graph
/// (exact lo and hi, every move's margin); on larger graphs whichever side wins, with the
/// same margin, result, best moves and move values, the search on the graph it settles in
/// a few thousand nodes; nothing when switched off (0 states) or stopped.
#[test]
fn v2_v4_the_race_answers_as_the_pass_alone() {
    let small: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse().unwrap();
    let (pass, values) = solve_position(&small, 1 << 20).unwrap();
    let won = race(&small, 1 << 20, &solver(&small), &|| false, &mut |s| {
        s.solve(&small)
    });
    match won {
        Some(Winner::Pass(sol, v)) => {
            assert_eq!(sol.bounds(), pass.bounds());
            assert_eq!(v, values);
        }
        other => panic!(
            "the pass answers a graph of {} states: {other:?}",
            pass.nodes
        ),
    }
    for text in RACED.iter().chain([&MEDIUM]) {
        let pos: Position<Giuthi> = text.parse().unwrap();
        let (pass, values) = solve_position(&pos, 1 << 22).unwrap();
        assert!(pass.nodes > RACE_STATES as u64, "{text}: a small graph");
        let s = solver(&pos);
        let won = race(&pos, 1 << 20, &s, &|| false, &mut |s| {
            Ok((s.solve(&pos)?, s.analyze(&pos)?))
        });
        let (sol, moves) = match won {
            Some(Winner::Search(answer)) => {
                assert!(s.nodes() < pass.nodes, "{text}: {} nodes", s.nodes());
                answer
            }
            // Solve and analyze together can need more than the budgets.
            Some(Winner::Pass(sol, moves)) if *text != MEDIUM => (sol, moves),
            other => panic!("{text}: the search answers first: {other:?}"),
        };
        assert_eq!(sol.margin, pass.margin, "{text}");
        assert_eq!(sol.result, pass.result, "{text}");
        let mut best = sol.best_moves.clone();
        let mut want = pass.best_moves.clone();
        best.sort_by_key(|m| m.to_string());
        want.sort_by_key(|m| m.to_string());
        assert_eq!(best, want, "{text}");
        assert_eq!(moves, values, "{text}: every move's margin (V4)");
        // Switched off, or stopped: no answer.
        assert!(race(&pos, 0, &s, &|| false, &mut |s| s.solve(&pos)).is_none());
        let stopped = solver(&pos);
        stopped.stop_flag().store(true, Ordering::Relaxed);
        assert!(race(&pos, 1 << 20, &stopped, &|| true, &mut |s| s.solve(&pos)).is_none());
    }
}

/// V4: `analyze` and `bestmove` start with the race: exactly, with the pass's move values
/// and a best move of the pass's; on the graph the search settles in a few thousand nodes,
/// from the search (its nodes, far fewer than the graph's states).
#[test]
fn v4_analyze_and_bestmove_race_the_pass() {
    for text in RACED.iter().chain([&MEDIUM]) {
        let pos: Position<Giuthi> = text.parse().unwrap();
        let (pass, values) = solve_position(&pos, 1 << 22).unwrap();
        let (code, out, err) = giuthi(&["analyze", text, "--threads", "1", "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["exact"], true, "{out}");
        let got: Vec<(String, i64)> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let mv = m["move"].as_str().unwrap().to_string();
                (mv, m["margin"].as_i64().unwrap())
            })
            .collect();
        let want: Vec<(String, i64)> = values
            .iter()
            .map(|(m, x)| (m.to_string(), i64::from(*x)))
            .collect();
        assert_eq!(got, want, "{text}");
        if *text == MEDIUM {
            assert!(v["nodes"].as_u64().unwrap() < pass.nodes, "{text}: {out}");
        }
        let (code, out, err) = giuthi(&["bestmove", text, "--threads", "1", "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["exact"], true, "{out}");
        assert_eq!(v["margin"], pass.margin, "{text}: {out}");
        let best = v["move"].as_str().unwrap();
        assert!(
            pass.best_moves.iter().any(|m| m.to_string() == best),
            "{text}: {best} is not a best move of the pass's {:?}",
            pass.best_moves
        );
        if *text == MEDIUM {
            assert!(v["nodes"].as_u64().unwrap() < pass.nodes, "{text}: {out}");
        }
    }
}

/// V3, the session-10 trial: with a `--max-ply` too small for the search, the race leaves
/// the graph to the pass (which needs no deep path): `solve`, `analyze` and `bestmove`
/// answer exactly, with the pass's margin, instead of stopping on the search's cap.
#[test]
fn v3_a_search_too_deep_leaves_the_race_to_the_pass() {
    // The README's slow endgame: a graph of 411,572 states.
    for text in ["giuthi 0,0,0,1,0,0,1,0/1,0,0,2,1,0,1,1 S 1,4"] {
        let pos: Position<Giuthi> = text.parse().unwrap();
        let (pass, _) = solve_position(&pos, 1 << 20).unwrap();
        for cmd in ["solve", "analyze", "bestmove"] {
            let args = [cmd, text, "--max-ply", "3", "--threads", "1", "--json"];
            let (code, out, err) = giuthi(&args);
            assert_eq!(code, 0, "{args:?}: {out}{err}");
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            match cmd {
                "analyze" => {
                    let best = v["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m["margin"].as_i64().unwrap())
                        .max();
                    assert_eq!(best, Some(i64::from(pass.margin)), "{text}: {out}");
                }
                _ => assert_eq!(v["margin"], pass.margin, "{args:?}: {out}"),
            }
        }
    }
}
