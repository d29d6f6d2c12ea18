//! Tablebases and alpha-beta against each other (issue 4 item 7, issue 3 `--tb`):
//! random entries of generated layers equal alpha-beta without tablebases, and alpha-beta
//! with the tablebases as its endgame oracle equals alpha-beta without them (RULES.md V2-V4).

use giuthi::index::Ranker;
use giuthi::rules::giuthi::{Giuthi, Variant};
use giuthi::rules::kalah::Kalah;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::tablebase::generate::{generate, GenOptions};
use giuthi::tablebase::{TablebaseSet, TbGame};
use giuthi::{BySide, Position, Side};
use std::sync::Arc;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn solver<R: TbGame>(rules: &R) -> Solver<R> {
    Solver::new(
        rules.clone(),
        SolverOptions {
            threads: 1,
            hash_mb: 16,
            ..SolverOptions::default()
        },
    )
}

/// Random boards of `seeds` seeds on `2n` pits, both sides to move, captured counts that
/// move the result around.
fn random_positions<R: TbGame>(
    rules: &R,
    n: usize,
    seeds: u32,
    count: usize,
    seed: u64,
) -> Vec<Position<R>> {
    let ranker = Ranker::new(2 * n, seeds as usize);
    let size = ranker.layer_size(seeds as usize);
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let mut board = vec![0u8; 2 * n];
    for _ in 0..count {
        ranker.unrank(rng.next() % size, seeds as usize, &mut board);
        let turn = if rng.next() % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let state = rules.make_state(&board, turn);
        let captured = BySide::new((rng.next() % 6) as u16, (rng.next() % 6) as u16);
        out.push(Position::new(rules.clone(), state, captured));
    }
    out
}

fn check_game<R: TbGame>(
    rules: R,
    n: usize,
    tb_max: u32,
    probe_layers: &[u32],
    root_layers: &[u32],
    count: usize,
) {
    let dir = tempfile::tempdir().unwrap();
    generate(&rules, dir.path(), tb_max, &GenOptions::quiet()).unwrap();
    let set = Arc::new(TablebaseSet::open_all(dir.path(), rules.clone()).unwrap());
    // Random entries of the top layers equal alpha-beta without tablebases.
    let plain = solver(&rules);
    for &s in probe_layers {
        for pos in random_positions(&rules, n, s, 2 * count, 0x5eed + s as u64) {
            let want = plain.bounds(&pos.state).expect("not interrupted");
            let got = giuthi::solve::EndgameOracle::probe(set.as_ref(), &pos.state)
                .expect("layer present");
            assert_eq!(got, want, "tablebase entry of {pos}");
        }
    }
    // The promise the search relies on to skip probes (EndgameOracle::covers_up_to):
    // every state up to the top layer answers, none above it.
    use giuthi::solve::EndgameOracle;
    assert_eq!(set.covers_up_to(), Some(tb_max));
    for s in [tb_max, tb_max + 1] {
        for pos in random_positions(&rules, n, s, count, 0xc0 + s as u64) {
            assert_eq!(set.probe(&pos.state).is_some(), s <= tb_max, "{pos}");
        }
    }
    // Alpha-beta with the tablebases as oracle equals alpha-beta without, above them.
    let with_tb = solver(&rules).with_oracle(set.clone());
    for &s in root_layers {
        for pos in random_positions(&rules, n, s, count, 0xbeef + s as u64) {
            let a = plain.solve_with_bounds(&pos).expect("not interrupted");
            let b = with_tb.solve_with_bounds(&pos).expect("not interrupted");
            assert_eq!(
                (a.bounds(), a.margin, &a.best_moves),
                (b.bounds(), b.margin, &b.best_moves),
                "{pos}"
            );
            let c = with_tb.solve(&pos).expect("not interrupted");
            assert_eq!(
                (c.margin, &c.best_moves),
                (a.margin, &a.best_moves),
                "{pos}"
            );
        }
    }
}

#[test]
fn v3_giuthi_2x4_tablebase_entries_and_oracle_equal_alpha_beta() {
    check_game(
        Giuthi::new(4, Variant::default()).unwrap(),
        4,
        8,
        &[7, 8],
        &[9, 10],
        20,
    );
}

#[test]
fn v3_giuthi_variant_2x4_tablebase_and_oracle_equal_alpha_beta() {
    let v: Variant = "chain=one,origin=skip".parse().unwrap();
    check_game(Giuthi::new(4, v).unwrap(), 4, 6, &[5, 6], &[7], 10);
}

#[test]
fn r4_kalah_2x3_tablebase_entries_and_oracle_equal_alpha_beta() {
    check_game(Kalah::new(3).unwrap(), 3, 10, &[9, 10], &[11, 12], 20);
}

/// The start of Giuthi 2x5 with 2 seeds a pit: +20 for South, best 7cw and 7ccw, found
/// both by alpha-beta alone and by the tablebases of 2x5 up to 20 seeds (docs/results.md).
#[test]
#[ignore = "the 20-seed 2x5 tablebases (about a minute in release): run with --release --ignored"]
fn results_2x5x2_start_alpha_beta_equals_tablebase() {
    let rules = Giuthi::new(5, Variant::default()).unwrap();
    let pos = Position::new(rules.clone(), rules.start(2), BySide::default());
    let sol = solver(&rules).solve_with_bounds(&pos).unwrap();
    assert_eq!(sol.margin, 20);
    let dir = tempfile::tempdir().unwrap();
    generate(&rules, dir.path(), 20, &GenOptions::quiet()).unwrap();
    let set = TablebaseSet::open_all(dir.path(), rules.clone()).unwrap();
    let b = giuthi::solve::EndgameOracle::probe(&set, &pos.state).unwrap();
    assert_eq!(Some(b), sol.bounds());
}
