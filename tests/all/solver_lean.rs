//! The lean search of games that cannot repeat (src/solve/alphabeta/lean.rs, Kalah R1-R4):
//! it must be the general search minus dead weight, so on random Kalah positions it gives
//! the naive solver's bounds, margin, best moves and move values (RULES.md V2-V4), and at
//! one thread exactly the same node counts, solutions and move values as the general
//! path (`SolverOptions::lean: false`), also under a path cap short enough to cut nodes
//! (the lean path hands those to the general one).

use giuthi::rules::kalah::{Kalah, KalahState};
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::solve::naive::naive_solve;
use giuthi::{BySide, Position};

use crate::common::{compact_solver, replay_pv, Rng};

/// A random Kalah position on `m` pits a row with `seeds` seeds dealt at random.
fn random_kalah(rng: &mut Rng, rules: &Kalah, m: usize, seeds: u64) -> Position<Kalah> {
    let mut state: KalahState = rules.start(0);
    for _ in 0..seeds {
        state.pits[rng.below(2 * m as u64) as usize] += 1;
    }
    state.turn = rng.side();
    let cap = BySide::new(rng.below(8) as u16, rng.below(8) as u16);
    Position::new(rules.clone(), state, cap)
}

/// A random Kalah position on 2 to 4 pits a row with 2 to 12 seeds, and its naive
/// solution (`None` when its graph is too large for the naive solver).
fn small_kalah_solved(
    rng: &mut Rng,
) -> Option<(
    usize,
    Position<Kalah>,
    giuthi::solve::naive::NaiveSolution<Kalah>,
)> {
    let m = 2 + rng.below(3) as usize;
    let rules = Kalah::new(m).expect("board");
    let seeds = 2 + rng.below(11);
    let pos = random_kalah(rng, &rules, m, seeds);
    let naive = naive_solve(&pos, 20_000).ok()?;
    Some((m, pos, naive))
}

fn solver(rules: &Kalah, lean: bool, max_ply: Option<usize>) -> Solver<Kalah> {
    let mut opts = SolverOptions {
        hash_mb: 4,
        lean,
        ..SolverOptions::default()
    };
    if let Some(p) = max_ply {
        opts.max_ply = p;
    }
    Solver::new(rules.clone(), opts)
}

/// R1-R4, V2-V4: the default (lean) search equals the naive solver on small Kalah boards.
#[test]
fn v3_kalah_lean_equals_naive() {
    let mut rng = Rng(0x1ea_0011);
    let mut done = 0;
    while done < 120 {
        let Some((_, pos, naive)) = small_kalah_solved(&mut rng) else {
            continue;
        };
        let rules = pos.rules.clone();
        let s = solver(&rules, true, None);
        let sol = s.solve_with_bounds(&pos).expect("not interrupted");
        assert_eq!(sol.bounds(), Some(naive.bounds), "{pos}: bounds");
        assert_eq!(sol.margin, naive.margin, "{pos}: margin");
        assert_eq!(sol.best_moves, naive.best_moves(), "{pos}: best moves");
        assert_eq!(replay_pv(&pos, &sol), sol.margin, "{pos}: pv");
        let first = solver(&rules, true, None)
            .solve(&pos)
            .expect("not interrupted");
        assert_eq!(first.margin, naive.margin, "{pos}: margin (result first)");
        assert_eq!(first.best_moves, naive.best_moves(), "{pos}: best moves");
        if done % 3 == 0 {
            assert_eq!(
                s.analyze(&pos).expect("not interrupted"),
                naive.moves,
                "{pos}"
            );
        }
        done += 1;
    }
}

/// The lean path is an optimisation only: one thread searches the same nodes and finds
/// the same solution and move values with it as without it.
#[test]
fn kalah_lean_path_searches_the_same_nodes_as_the_general_path() {
    let mut rng = Rng(0x1ea_0012);
    for _ in 0..24 {
        let rules = Kalah::new(5).expect("board");
        let seeds = 14 + rng.below(13);
        let pos = random_kalah(&mut rng, &rules, 5, seeds);
        let (lean, general) = (solver(&rules, true, None), solver(&rules, false, None));
        let a = lean.solve(&pos).expect("not interrupted");
        let b = general.solve(&pos).expect("not interrupted");
        assert_eq!(
            (a.ranges, a.margin, &a.best_moves, &a.pv, a.nodes),
            (b.ranges, b.margin, &b.best_moves, &b.pv, b.nodes),
            "{pos}"
        );
        assert_eq!(
            lean.analyze(&pos).expect("not interrupted"),
            general.analyze(&pos).expect("not interrupted"),
            "{pos}"
        );
        assert_eq!(lean.nodes(), general.nodes(), "{pos}: nodes");
    }
}

/// A path cap shorter than the game (`max_ply`) cuts nodes: the lean path hands them to
/// the general one, so both stop alike (a path deeper than the cap was needed) or give
/// the naive answer, with the same nodes.
#[test]
fn kalah_lean_path_under_a_short_cap_matches_the_general_path() {
    let mut rng = Rng(0x1ea_0013);
    let (mut exact, mut stopped) = (0, 0);
    for n in 0..200 {
        let m = 2 + rng.below(3) as usize;
        let rules = Kalah::new(m).expect("board");
        let seeds = 2 + rng.below(9);
        let pos = random_kalah(&mut rng, &rules, m, seeds);
        let Ok(naive) = naive_solve(&pos, 20_000) else {
            continue;
        };
        let max_ply = 1 + n % 8;
        let (lean, general) = (
            solver(&rules, true, Some(max_ply)),
            solver(&rules, false, Some(max_ply)),
        );
        match (
            lean.solve_with_bounds(&pos),
            general.solve_with_bounds(&pos),
        ) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.bounds(), Some(naive.bounds), "{pos}: bounds");
                assert_eq!(a.margin, naive.margin, "{pos}: margin");
                assert_eq!(
                    (a.bounds(), a.margin, &a.best_moves, a.nodes),
                    (b.bounds(), b.margin, &b.best_moves, b.nodes),
                    "{pos}"
                );
                exact += 1;
            }
            (Err(a), Err(b)) => {
                assert!(a.too_deep && b.too_deep, "{pos}");
                assert_eq!(lean.nodes(), general.nodes(), "{pos}: nodes");
                stopped += 1;
            }
            (a, b) => panic!("{pos}: lean {:?}, general {:?}", a.err(), b.err()),
        }
    }
    assert!(
        exact >= 20 && stopped >= 20,
        "{exact} exact, {stopped} stopped"
    );
}

/// R1-R4, V2-V4 with an endgame oracle: the lean path peeks at the children the tables
/// cover before searching the others (src/solve/alphabeta/lean.rs). Ordering only, so on
/// random Kalah positions above the tables it gives the naive solver's bounds, margin,
/// best moves and move values, and the same values as the general path; and it searches
/// fewer nodes than the general path in total (the peek's purpose).
#[test]
fn r4_kalah_lean_peek_at_tables_equals_naive_and_the_general_path() {
    use giuthi::tablebase::generate::{generate, GenOptions};
    use giuthi::tablebase::TablebaseSet;
    use std::sync::Arc;
    let rules = Kalah::new(4).expect("board");
    let dir = tempfile::tempdir().expect("temporary folder");
    generate(&rules, dir.path(), 8, &GenOptions::quiet()).expect("generation");
    let set = Arc::new(TablebaseSet::open_all(dir.path(), rules.clone()).expect("tables"));
    let mut rng = Rng(0x1ea_0014);
    let (mut done, mut lean_nodes, mut general_nodes) = (0, 0, 0);
    while done < 60 {
        let seeds = 9 + rng.below(6);
        let pos = random_kalah(&mut rng, &rules, 4, seeds);
        let Ok(naive) = naive_solve(&pos, 200_000) else {
            continue;
        };
        let lean = solver(&rules, true, None).with_oracle(set.clone());
        let general = solver(&rules, false, None).with_oracle(set.clone());
        let a = lean.solve_with_bounds(&pos).expect("not interrupted");
        let b = general.solve_with_bounds(&pos).expect("not interrupted");
        assert_eq!(a.bounds(), Some(naive.bounds), "{pos}: bounds");
        assert_eq!(a.margin, naive.margin, "{pos}: margin");
        assert_eq!(a.best_moves, naive.best_moves(), "{pos}: best moves");
        assert_eq!(replay_pv(&pos, &a), a.margin, "{pos}: pv");
        assert_eq!(
            (b.bounds(), b.margin, &b.best_moves),
            (a.bounds(), a.margin, &a.best_moves),
            "{pos}: general path"
        );
        lean_nodes += a.nodes;
        general_nodes += b.nodes;
        if done % 3 == 0 {
            assert_eq!(
                lean.analyze(&pos).expect("not interrupted"),
                naive.moves,
                "{pos}: move values"
            );
        }
        done += 1;
    }
    assert!(
        lean_nodes < general_nodes,
        "the peek searched {lean_nodes} nodes, the general path {general_nodes}"
    );
}

/// V2-V4: with the compact table the search still gives the naive solver's bounds,
/// margins, best moves and move values on small Kalah boards, and on larger ones the
/// same answers as the wide table.
#[test]
fn v3_kalah_compact_table_equals_naive_and_wide() {
    let mut rng = Rng(0x1ea_0014);
    let mut done = 0;
    let compact: Vec<Solver<Kalah>> = (2..=4)
        .map(|m| compact_solver(&Kalah::new(m).expect("board")))
        .collect();
    while done < 60 {
        let Some((m, pos, naive)) = small_kalah_solved(&mut rng) else {
            continue;
        };
        let s = &compact[m - 2];
        let sol = s.solve_with_bounds(&pos).expect("not interrupted");
        assert_eq!(sol.bounds(), Some(naive.bounds), "{pos}: bounds");
        assert_eq!(sol.best_moves, naive.best_moves(), "{pos}: best moves");
        assert_eq!(replay_pv(&pos, &sol), sol.margin, "{pos}: pv");
        assert_eq!(
            s.analyze(&pos).expect("not interrupted"),
            naive.moves,
            "{pos}"
        );
        done += 1;
    }
    let rules = Kalah::new(5).expect("board");
    let s = compact_solver(&rules);
    for _ in 0..8 {
        let seeds = 14 + rng.below(9);
        let pos = random_kalah(&mut rng, &rules, 5, seeds);
        let wide = solver(&rules, true, None);
        let (a, b) = (
            s.solve(&pos).expect("not interrupted"),
            wide.solve(&pos).expect("not interrupted"),
        );
        assert_eq!(
            (a.ranges, a.margin, &a.best_moves),
            (b.ranges, b.margin, &b.best_moves),
            "{pos}"
        );
        assert_eq!(replay_pv(&pos, &a), a.margin, "{pos}: pv");
    }
}
