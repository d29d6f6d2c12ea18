//! Criterion benches: solving fixed positions (each asserts the value it computes).
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{criterion_group, criterion_main, Criterion};
use giuthi::rules::giuthi::Giuthi;
use giuthi::rules::kalah::Kalah;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::Position;

fn opts() -> SolverOptions {
    SolverOptions {
        threads: 1,
        hash_mb: 4,
        ..SolverOptions::default()
    }
}

fn bench_solve(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    let kalah: Position<Kalah> = "kalah 3,3,3,3/3,3,3,3 S 0,0".parse().expect("position");
    g.bench_function("kalah_4x3", |b| {
        b.iter(|| {
            let s = Solver::new(kalah.rules.clone(), opts());
            assert_eq!(s.solve(&kalah).expect("solved").margin, 8);
        })
    });
    let comp: Position<Giuthi> = "giuthi 1,1,3,1,2/1,1,1,1,1 N 5,6"
        .parse()
        .expect("position");
    g.bench_function("giuthi_composition_5", |b| {
        b.iter(|| {
            let s = Solver::new(comp.rules.clone(), opts());
            assert_eq!(s.solve(&comp).expect("solved").margin, 14);
        })
    });
    g.finish();
}

criterion_group!(benches, bench_solve);
criterion_main!(benches);
