//! Kalah validation (RULES.md R1-R4): the published first-player margins of Irving,
//! Donkers and Uiterwijk (2000), empty-capture rule R3, by alpha-beta alone and by
//! alpha-beta with Kalah endgame tablebases (as in the 2000 solve).

use giuthi::rules::kalah::Kalah;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::tablebase::generate::{generate, GenOptions};
use giuthi::tablebase::TablebaseSet;
use giuthi::Position;
use std::sync::Arc;

fn solver(m: usize, threads: usize) -> Solver<Kalah> {
    Solver::new(
        Kalah::new(m).expect("board"),
        SolverOptions {
            threads,
            hash_mb: 256,
            ..SolverOptions::default()
        },
    )
}

fn start(m: usize, seeds: u8) -> Position<Kalah> {
    let rules = Kalah::new(m).expect("board");
    Position::new(rules.clone(), rules.start(seeds), Default::default())
}

fn margin(m: usize, seeds: u8, threads: usize) -> i32 {
    let s = solver(m, threads);
    s.solve(&start(m, seeds)).expect("not interrupted").margin
}

/// The margin with the Kalah tablebases of every layer up to `tb_max` seeds generated
/// first (in a temporary folder) and probed inside the search.
fn margin_with_tb(m: usize, seeds: u8, tb_max: u32, threads: usize) -> i32 {
    let rules = Kalah::new(m).expect("board");
    let dir = tempfile::tempdir().expect("temporary folder");
    generate(&rules, dir.path(), tb_max, &GenOptions::quiet()).expect("generation");
    let set = Arc::new(TablebaseSet::open_all(dir.path(), rules).expect("tables"));
    let s = solver(m, threads).with_oracle(set);
    s.solve(&start(m, seeds)).expect("not interrupted").margin
}

#[test]
fn r_kalah_small_published_margins() {
    for (m, s, want) in [
        (4, 1, 2),
        (4, 2, 6),
        (4, 3, 8),
        (5, 1, 0),
        (5, 2, 0),
        (5, 3, 8),
        (6, 1, 2),
        (6, 2, 10),
    ] {
        assert_eq!(margin(m, s, 1), want, "Kalah({m},{s})");
    }
}

#[test]
fn r_kalah_6_3_published_margin() {
    // About 6 M nodes since the history heuristic (docs/solver.md).
    assert_eq!(margin(6, 3, 1), 2, "Kalah(6,3)");
}

#[test]
fn r_kalah_6_3_published_margin_with_tablebases() {
    // The 12-seed tables (2.3 M positions) take about a second.
    assert_eq!(margin_with_tb(6, 3, 12, 2), 2, "Kalah(6,3) with tablebases");
}

#[test]
#[ignore = "minutes without tables (session 1: 520 s on 2 threads before the history heuristic); cargo test --release --test all kalah:: -- --ignored"]
fn r_kalah_6_4_published_margin() {
    assert_eq!(margin(6, 4, 2), 10, "Kalah(6,4)");
}

#[test]
#[ignore = "about a minute in release (20-seed tables, then the search): cargo test --release --test all kalah:: -- --ignored"]
fn r_kalah_6_4_published_margin_with_tablebases() {
    assert_eq!(
        margin_with_tb(6, 4, 20, 2),
        10,
        "Kalah(6,4) with tablebases"
    );
}

#[test]
#[ignore = "about an hour: the 22-seed tables (10 min) and 2.7e9 nodes to prove lo = hi = +12 (docs/solver.md); cargo test --release --test all kalah:: -- --ignored"]
fn r_kalah_6_5_published_margin_with_tablebases() {
    // The published result is the margin (the value), so this checks `bounds` only: the
    // best moves (V4) of (6,5) cost several times the value itself (docs/solver.md).
    let rules = Kalah::new(6).expect("board");
    let dir = tempfile::tempdir().expect("temporary folder");
    generate(&rules, dir.path(), 22, &GenOptions::quiet()).expect("generation");
    let set = Arc::new(TablebaseSet::open_all(dir.path(), rules).expect("tables"));
    let s = solver(6, 2).with_oracle(set);
    let b = s.bounds(&start(6, 5).state).expect("not interrupted");
    assert_eq!((b.lo, b.hi), (12, 12), "Kalah(6,5) with tablebases");
    assert_eq!(b.exact_margin(0), 12);
}
