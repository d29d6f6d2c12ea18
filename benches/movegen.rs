//! Move generation and play (RULES.md G2-G8, R1-R3) over a fixed suite of positions: the
//! historical starts of G1 and midgame positions of the recorded 2x8x6 game.
//!
//! Run: `cargo bench --bench movegen`. Each bench asserts the answer it computes (move
//! counts, seeds sown, perft numbers), so it cannot silently time the wrong work.

use criterion::{black_box, criterion_main, BenchmarkId, Criterion, Throughput};
use giuthi::perft::perft;
use giuthi::rules::giuthi::Giuthi;
use giuthi::rules::kalah::Kalah;
use giuthi::rules::{Child, Rules};
use giuthi::Position;
use std::time::Duration;

/// The suite: the seven historical starts and six positions of the recorded 2x8x6 game
/// (`tests/data/giuthi-2x8x6-game.txt`, moves 1, 5, 10, 20, 30 and 40).
const SUITE: [&str; 13] = [
    "giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0",
    "giuthi 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0",
    "giuthi 6,6,6,6,6,6/6,6,6,6,6,6 S 0,0",
    "giuthi 6,6,6,6,6,6,6/6,6,6,6,6,6,6 S 0,0",
    "giuthi 4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4 S 0,0",
    "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0",
    "giuthi 9,9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9,9 S 0,0",
    "giuthi 6,6,6,6,6,6,6,6/6,6,6,6,6,6,6,6 N 0,0",
    "giuthi 1,3,10,1,10,0,0,6/11,11,11,11,3,1,8,1 N 0,8",
    "giuthi 1,1,1,0,25,1,11,1/3,3,3,0,0,3,1,4 N 2,36",
    "giuthi 1,12,0,0,1,5,1,3/1,4,0,0,3,1,5,1 N 4,54",
    "giuthi 3,1,1,1,7,1,2,0/1,8,4,0,0,0,0,0 N 4,63",
    "giuthi 6,0,2,2,1,2,0,0/1,1,0,0,0,1,0,0 S 4,76",
];

/// Legal moves over the whole suite, and the seeds they sow.
const SUITE_MOVES: u64 = 141;
const SUITE_SOWN: u64 = 3034;

fn suite() -> Vec<Position<Giuthi>> {
    SUITE
        .iter()
        .map(|s| s.parse().expect("suite position"))
        .collect()
}

/// Generates every legal move of every suite position (each move fully sown: relays,
/// endless test, capture); returns (moves, seeds sown).
fn generate(suite: &[Position<Giuthi>], buf: &mut Vec<Child<Giuthi>>) -> (u64, u64) {
    let mut moves = 0;
    let mut sown = 0;
    for p in suite {
        p.rules.children(&p.state, buf);
        moves += buf.len() as u64;
        sown += buf.iter().map(|c| u64::from(c.sown)).sum::<u64>();
    }
    (moves, sown)
}

fn bench_children(c: &mut Criterion) {
    let suite = suite();
    let mut buf = Vec::with_capacity(64);
    let (moves, sown) = generate(&suite, &mut buf);
    assert_eq!((moves, sown), (SUITE_MOVES, SUITE_SOWN));
    let mut group = c.benchmark_group("children");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(moves));
    group.bench_function("suite/moves", |b| {
        b.iter(|| {
            let r = generate(black_box(&suite), &mut buf);
            assert_eq!(r.0, SUITE_MOVES);
        })
    });
    group.throughput(Throughput::Elements(sown));
    group.bench_function("suite/seeds_sown", |b| {
        b.iter(|| {
            let r = generate(black_box(&suite), &mut buf);
            assert_eq!(r.1, SUITE_SOWN);
        })
    });
    group.finish();
}

/// Perft from the starts: (position, depth, count from tests/data/perft.txt).
const PERFT: [(&str, u32, u64); 4] = [
    ("giuthi 6,6,6,6,6,6/6,6,6,6,6,6 S 0,0", 4, 7944),
    ("giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0", 4, 32016),
    (
        "giuthi 9,9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9,9 S 0,0",
        4,
        84420,
    ),
    ("kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0", 7, 113959),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    for (text, depth, count) in PERFT {
        group.throughput(Throughput::Elements(count));
        let id = BenchmarkId::new(text.split(' ').nth(1).expect("board"), depth);
        if text.starts_with("kalah") {
            let p: Position<Kalah> = text.parse().expect("position");
            group.bench_with_input(id, &depth, |b, &d| {
                b.iter(|| assert_eq!(perft(&p.rules, black_box(&p.state), d), count))
            });
        } else {
            let p: Position<Giuthi> = text.parse().expect("position");
            group.bench_with_input(id, &depth, |b, &d| {
                b.iter(|| assert_eq!(perft(&p.rules, black_box(&p.state), d), count))
            });
        }
    }
    group.finish();
}

// The macros generate undocumented public functions.
#[allow(missing_docs)]
mod entry {
    use super::{bench_children, bench_perft};
    criterion::criterion_group!(benches, bench_children, bench_perft);
}
criterion_main!(entry::benches);
