//! The distribution of the retrograde solver's cost on random Giuthi endgames
//! (docs/solver.md, Retrograde solve).
//!
//! A seeded, deterministic generator draws endgames on boards 2x4 to 2x10, every variant,
//! 6 to 14 seeds on the board (spread at random over the pits), either side to move; each
//! is solved through its reachable graph (`solve::retro::solve_position`: bounds, margin,
//! every move's value, best moves, principal variation) with a cap of `CAP` states, and
//! the thread's CPU time is measured. Prints one line per position with `--verbose`, and a
//! table of the CPU time by graph size.
//!
//! A graph given up by the early exit (`RetroError::TooLargeEarly`: a size bound far above
//! the cap) is counted with the CPU time of giving up; with `--check-early` each such
//! graph is enumerated again without the early exit, up to the cap, and the example
//! fails if one of them fits in it (the early exit's guarantee, docs/solver.md).
//!
//!     cargo run --release --example retro_endgames -- [COUNT] [SEED] [CAP] [--verbose] [--check-early]

use giuthi::rules::giuthi::{Chain, End, Giuthi, GiuthiState, Origin, Variant};
use giuthi::solve::retro::{solve_graph_with, solve_position, RetroError};
use giuthi::{BySide, Position, Side};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51afd7ed558ccd);
        x ^ (x >> 29)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// CPU seconds of this thread (the first field of /proc/thread-self/schedstat, in ns).
fn cpu_seconds() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
    let ns: u64 = text
        .split_whitespace()
        .next()
        .and_then(|f| f.parse().ok())
        .expect("a number");
    ns as f64 * 1e-9
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "--verbose");
    let check_early = args.iter().any(|a| a == "--check-early");
    let nums: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let count = nums.first().copied().unwrap_or(300) as usize;
    let seed = nums.get(1).copied().unwrap_or(1);
    let cap = nums.get(2).copied().unwrap_or(4_000_000) as usize;
    let mut variants = Vec::new();
    for chain in [Chain::Run, Chain::One, Chain::None] {
        for origin in [Origin::Sow, Origin::Skip] {
            for end in [End::Stuck, End::EmptyRow] {
                variants.push(Variant { chain, origin, end });
            }
        }
    }
    let mut rng = Rng(seed);
    // (graph size bucket upper bound, label)
    let buckets: [(usize, &str); 8] = [
        (1_000, "<= 1k"),
        (10_000, "1k-10k"),
        (100_000, "10k-100k"),
        (1 << 20, "100k-1M"),
        (2_000_000, "1M-2M"),
        (4_000_000, "2M-4M"),
        (1 << 23, "4M-8M"),
        (usize::MAX, "> 8M"),
    ];
    // (CPU seconds, states) of every solved graph, by bucket.
    let mut times: Vec<Vec<(f64, usize)>> = vec![Vec::new(); buckets.len()];
    let mut too_large = 0;
    let mut early: Vec<f64> = Vec::new();
    let mut early_checked = 0;
    for k in 0..count {
        let n = 4 + rng.below(7) as usize;
        let v = variants[rng.below(variants.len() as u64) as usize];
        let seeds = 6 + rng.below(9) as usize;
        let rules = Giuthi::new(n, v).expect("board");
        let mut pits = [0u8; 32];
        for _ in 0..seeds {
            pits[rng.below(2 * n as u64) as usize] += 1;
        }
        let turn = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        let pos = Position::new(rules, GiuthiState { pits, turn }, BySide::new(0, 0));
        let t0 = cpu_seconds();
        match solve_position(&pos, cap) {
            Ok((sol, _)) => {
                let secs = cpu_seconds() - t0;
                let states = sol.nodes as usize;
                let b = buckets
                    .iter()
                    .position(|(u, _)| states <= *u)
                    .expect("bucket");
                times[b].push((secs, states));
                if verbose {
                    println!(
                        "{k:4} {pos}  states {states:>9}  cpu {secs:.3} s  margin {:+}",
                        sol.margin
                    );
                }
            }
            Err(RetroError::TooLarge { .. }) => {
                too_large += 1;
                if verbose {
                    println!("{k:4} {pos}  more than {cap} states");
                }
            }
            Err(RetroError::TooLargeEarly { bound, .. }) => {
                early.push(cpu_seconds() - t0);
                if verbose {
                    println!("{k:4} {pos}  given up early (bound {bound})");
                }
                if check_early {
                    match solve_graph_with(&pos.rules, &pos.state, cap, false) {
                        Err(RetroError::TooLarge { .. }) => early_checked += 1,
                        Ok(g) => panic!("{pos}: given up early but has {} states", g.len()),
                        Err(e) => panic!("{pos}: {e}"),
                    }
                }
            }
            Err(e) => panic!("{pos}: {e}"),
        }
    }
    println!("{count} random endgames (seed {seed}), boards 2x4..2x10, every variant, 6..14 seeds");
    println!("| graph states | positions | median CPU s | 90% | max CPU s | µs a state |");
    println!("|---|---|---|---|---|---|");
    for (b, (_, label)) in buckets.iter().enumerate() {
        let t = &mut times[b];
        if t.is_empty() {
            continue;
        }
        t.sort_by(|a, b| a.0.total_cmp(&b.0));
        let q = |f: f64| t[((t.len() - 1) as f64 * f).round() as usize].0;
        let secs: f64 = t.iter().map(|x| x.0).sum();
        let states: usize = t.iter().map(|x| x.1).sum();
        println!(
            "| {label} | {} | {:.3} | {:.3} | {:.3} | {:.2} |",
            t.len(),
            q(0.5),
            q(0.9),
            t[t.len() - 1].0,
            secs / states as f64 * 1e6
        );
    }
    println!("| more than {cap} (not solved here) | {too_large} | | | |");
    if !early.is_empty() {
        early.sort_by(|a, b| a.total_cmp(b));
        println!(
            "| given up early (bound > 8 x cap) | {} | {:.4} | | {:.4} |",
            early.len(),
            early[early.len() / 2],
            early[early.len() - 1]
        );
    }
    if check_early {
        println!(
            "--check-early: {early_checked} of {} graphs given up early have more than {cap} states",
            early.len()
        );
    }
}
