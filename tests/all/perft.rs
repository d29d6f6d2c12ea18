//! Frozen perft numbers (`tests/data/perft.txt`) for the historical starts of G1, the
//! variants and Kalah(6,4). Every legal move is one ply (a pass and an extra move too).

use crate::common;

use common::naive_sower::{NaiveGiuthi, NaiveKalah};
use giuthi::perft::{divide, perft};
use giuthi::rules::Rules;
use giuthi::{with_position, AnyPosition};

const PERFT: &str = include_str!("../data/perft.txt");

/// The lines of the data file: position, depth, count.
fn cases() -> Vec<(String, u32, u64)> {
    PERFT
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split(" | ").collect();
            assert_eq!(parts.len(), 3, "bad line {l:?}");
            (
                parts[0].to_string(),
                parts[1].parse().expect("depth"),
                parts[2].parse().expect("count"),
            )
        })
        .collect()
}

fn engine_perft(position: &str, depth: u32) -> u64 {
    let any: AnyPosition = position.parse().expect("position parses");
    assert_eq!(any.to_string(), position, "the data file is canonical (N1)");
    with_position!(&any, p => perft(&p.rules, &p.state, depth))
}

/// The cheap lines (up to 1,000,000 leaves) in the default run.
#[test]
fn g1_r1_frozen_perft_small_depths() {
    let mut checked = 0;
    for (position, depth, count) in cases() {
        if count <= 1_000_000 {
            assert_eq!(
                engine_perft(&position, depth),
                count,
                "{position} depth {depth}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 80, "only {checked} lines checked");
}

/// Every line (about two minutes in release mode):
/// `cargo test --release --test all perft:: -- --ignored`.
#[test]
#[ignore = "deep perft: run in release mode with --ignored"]
fn g1_r1_frozen_perft_all_depths() {
    for (position, depth, count) in cases() {
        assert_eq!(
            engine_perft(&position, depth),
            count,
            "{position} depth {depth}"
        );
    }
}

/// The frozen lines that the naive second sower can reach in reasonable time (up to 400,000
/// leaves) recomputed by it: the numbers were not merely copied from the engine.
#[test]
#[ignore = "naive sower at depth 5-6: run in release mode with --ignored"]
fn g1_r1_frozen_perft_matches_naive_sower() {
    for (position, depth, count) in cases() {
        if count > 400_000 {
            continue;
        }
        let any: AnyPosition = position.parse().expect("position parses");
        let naive = match &any {
            AnyPosition::Giuthi(p) => {
                let n = p.rules.pits_per_row();
                let variant = p.rules.variant().to_string();
                let board: Vec<u32> = p.state.pits[..2 * n].iter().map(|&x| x.into()).collect();
                NaiveGiuthi::new(n, &variant).perft(&board, true, depth)
            }
            AnyPosition::Kalah(p) => {
                let board: Vec<u32> = p.state.pits[..12].iter().map(|&x| x.into()).collect();
                NaiveKalah { m: 6 }.perft(&board, true, depth)
            }
            AnyPosition::Kiothi(_) => panic!("no Kiothi lines in tests/data/perft.txt"),
        };
        assert_eq!(naive, count, "{position} depth {depth}");
    }
}

/// Divide sums to perft, and lists the moves in the stable order of `children`.
#[test]
fn g2_divide_sums_to_perft() {
    let any: AnyPosition = "giuthi 6,6,6,6,6,6/6,6,6,6,6,6 S 0,0".parse().unwrap();
    let AnyPosition::Giuthi(p) = any else {
        unreachable!()
    };
    let split = divide(&p.rules, &p.state, 4);
    let moves: Vec<String> = split.iter().map(|(m, _)| m.to_string()).collect();
    assert_eq!(
        moves,
        [
            "6cw", "6ccw", "7cw", "7ccw", "8cw", "8ccw", "9cw", "9ccw", "10cw", "10ccw", "11cw",
            "11ccw"
        ]
    );
    assert_eq!(split.iter().map(|(_, c)| c).sum::<u64>(), 7944);
}
