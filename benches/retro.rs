//! Criterion bench of the retrograde solver of small graphs (src/solve/retro.rs): the
//! README's slow endgame solved through its whole reachable graph (bounds, every move's
//! value, best moves, principal variation). Each iteration asserts the graph's size and
//! the value, so it cannot silently time other work.
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{criterion_group, criterion_main, Criterion};
use giuthi::rules::giuthi::Giuthi;
use giuthi::solve::retro::{solve_position, DEFAULT_MAX_STATES};
use giuthi::Position;

fn bench_retro(c: &mut Criterion) {
    let mut g = c.benchmark_group("retro");
    g.sample_size(10);
    // 411,572 states; minutes for alpha-beta alone (docs/solver.md, Retrograde solve).
    let slow: Position<Giuthi> = "giuthi 0,0,0,1,0,0,1,0/1,0,0,2,1,0,1,1 S 1,4"
        .parse()
        .expect("position");
    g.bench_function("readme_slow_endgame_411572_states", |b| {
        b.iter(|| {
            let (sol, _) = solve_position(&slow, DEFAULT_MAX_STATES).expect("solved");
            assert_eq!(sol.nodes, 411_572);
            assert_eq!(sol.margin, 3);
        })
    });
    g.finish();
}

criterion_group!(benches, bench_retro);
criterion_main!(benches);
