//! The engine's move generation against the deliberately naive second sower
//! (`tests/common/naive_sower.rs`): random positions of every variant, RULES.md G2-G9 and
//! R1-R4, and perft at small depth from every historical start (G1).

use crate::common;

use common::naive_sower::{NaiveGiuthi, NaiveKalah, Sowing};
use common::{engine_children, giuthi, giuthi_state, kalah, VARIANTS};
use giuthi::perft::perft;
use proptest::prelude::*;

/// A random board: `n` pits a row, pit sizes skewed small so that relays, empty pits,
/// singletons and captures all happen, with an occasional big pit (laps of 2n or more).
fn board(max_n: usize) -> impl Strategy<Value = (usize, Vec<u32>)> {
    (2..=max_n).prop_flat_map(|n| {
        let pit = prop_oneof![
            4 => 0u32..=3,
            2 => 0u32..=8,
            1 => 0u32..=30,
        ];
        (Just(n), proptest::collection::vec(pit, 2 * n))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// G2-G9, every variant: the engine lists exactly the naive sower's moves, in the same
    /// order, with the same boards, turns and captures.
    #[test]
    fn g2_g9_children_match_naive_sower(
        (n, b) in board(8),
        south in any::<bool>(),
        v in 0usize..VARIANTS.len(),
    ) {
        let variant = VARIANTS[v];
        let rules = giuthi(n, variant);
        let naive = NaiveGiuthi::new(n, variant).children(&b, south);
        let engine = engine_children(&rules, &giuthi_state(&b, south));
        prop_assert_eq!(engine, naive, "{:?} {} variant {:?}", b, south, variant);
    }

    /// R1-R4: the Kalah children match the naive ring-with-stores sower.
    #[test]
    fn r1_r4_kalah_children_match_naive_sower(
        (m, b) in (1usize..=8).prop_flat_map(|m| (Just(m), proptest::collection::vec(0u32..=14, 2 * m))),
        south in any::<bool>(),
    ) {
        let rules = kalah(m);
        let naive = NaiveKalah { m }.children(&b, south);
        let engine = engine_children(&rules, &giuthi_state(&b, south));
        prop_assert_eq!(engine, naive);
    }
}

/// G7 on the smallest boards, where endless sowings exist: every 2x2 board of up to 8 seeds
/// a pit and every 2x3 board of up to 3 a pit, every variant, both sides. (The `--ignored`
/// twin goes further.)
#[test]
fn g7_exhaustive_small_boards_match_naive_sower() {
    exhaustive(8, 3);
}

/// As above, 2x2 up to 12 a pit and 2x3 up to 6 a pit:
/// `cargo test --release --test all naive_sower:: -- --ignored`.
#[test]
#[ignore = "about 20 s: run in release mode with --ignored"]
fn g7_exhaustive_small_boards_match_naive_sower_deeper() {
    exhaustive(12, 6);
}

fn exhaustive(max2: u32, max3: u32) {
    for n in 2..=3usize {
        for variant in VARIANTS {
            let rules = giuthi(n, variant);
            let naive = NaiveGiuthi::new(n, variant);
            let max = if n == 2 { max2 } else { max3 };
            let mut b = vec![0u32; 2 * n];
            loop {
                for south in [true, false] {
                    assert_eq!(
                        engine_children(&rules, &giuthi_state(&b, south)),
                        naive.children(&b, south),
                        "{b:?} south {south} variant {variant:?}"
                    );
                }
                // next board in odometer order
                let mut i = 0;
                while i < b.len() && b[i] == max {
                    b[i] = 0;
                    i += 1;
                }
                if i == b.len() {
                    break;
                }
                b[i] += 1;
            }
        }
    }
}

/// The historical set-ups of G1 (n, seeds) and the depth the naive sower checks.
const SETUPS: [(usize, u32, u32); 7] = [
    (5, 4, 4),
    (6, 4, 4),
    (6, 6, 3),
    (7, 6, 3),
    (8, 4, 3),
    (8, 8, 3),
    (10, 9, 3),
];

/// G1-G9: perft from every historical start, engine == naive sower, default rules and
/// every variant.
#[test]
fn g1_perft_of_historical_starts_matches_naive_sower() {
    for (n, seeds, depth) in SETUPS {
        for variant in VARIANTS {
            let rules = giuthi(n, variant);
            let start = rules.start(seeds as u8);
            let board = vec![seeds; 2 * n];
            let naive = NaiveGiuthi::new(n, variant);
            let d = if variant.is_empty() {
                depth
            } else {
                depth.min(3)
            };
            assert_eq!(
                perft(&rules, &start, d),
                naive.perft(&board, true, d),
                "2x{n}x{seeds} depth {d} variant {variant:?}"
            );
        }
    }
}

/// R1-R4: Kalah(6,4) perft, engine == naive sower.
#[test]
fn r1_r4_kalah_perft_matches_naive_sower() {
    let rules = kalah(6);
    let start = rules.start(4);
    let naive = NaiveKalah { m: 6 };
    for depth in 1..=6 {
        assert_eq!(
            perft(&rules, &start, depth),
            naive.perft(&[4; 12], true, depth),
            "Kalah(6,4) depth {depth}"
        );
    }
}

/// The totals that `benches/movegen.rs` asserts for its suite (141 moves, one of them a
/// pass, and 3,034 seeds sown), recomputed by the naive sower.
#[test]
fn bench_suite_totals_match_naive_sower() {
    const SUITE: [&str; 13] = [
        "4,4,4,4,4/4,4,4,4,4 S",
        "4,4,4,4,4,4/4,4,4,4,4,4 S",
        "6,6,6,6,6,6/6,6,6,6,6,6 S",
        "6,6,6,6,6,6,6/6,6,6,6,6,6,6 S",
        "4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4 S",
        "8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S",
        "9,9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9,9 S",
        "6,6,6,6,6,6,6,6/6,6,6,6,6,6,6,6 N",
        "1,3,10,1,10,0,0,6/11,11,11,11,3,1,8,1 N",
        "1,1,1,0,25,1,11,1/3,3,3,0,0,3,1,4 N",
        "1,12,0,0,1,5,1,3/1,4,0,0,3,1,5,1 N",
        "3,1,1,1,7,1,2,0/1,8,4,0,0,0,0,0 N",
        "6,0,2,2,1,2,0,0/1,1,0,0,0,1,0,0 S",
    ];
    let (mut moves, mut sown) = (0u64, 0u64);
    for text in SUITE {
        let (board, turn) = text.split_once(' ').unwrap();
        let board: Vec<u32> = board
            .split(['/', ','])
            .map(|x| x.parse().unwrap())
            .collect();
        let n = board.len() / 2;
        let south = turn == "S";
        let naive = NaiveGiuthi::new(n, "");
        // Moves include the pass of the last position (South has only singletons).
        moves += naive.children(&board, south).len() as u64;
        for pit in 0..2 * n {
            if (pit >= n) != south || board[pit] < 2 {
                continue;
            }
            for ccw in [false, true] {
                if let Sowing::Ends { sown: s, .. } = naive.sow(&board, south, pit, ccw) {
                    sown += u64::from(s);
                }
            }
        }
    }
    assert_eq!((moves, sown), (141, 3034));
}
