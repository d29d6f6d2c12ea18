//! Finds Giuthi endgame compositions for positions/ (random boards that solve quickly),
//! and prints them with their solutions in the docs/positions.md format.
//!
//! `cargo run --release --example compose -- <count> <seed>`
use giuthi::rules::giuthi::{Giuthi, GiuthiState, Variant};
use giuthi::solve::alphabeta::{moves_to_strings, Solver, SolverOptions};
use giuthi::value::fmt_score;
use giuthi::{BySide, Position, Side};
use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("number"))
        .collect();
    let (count, mut x) = (args[0] as usize, args[1]);
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) ^ (x >> 17)
    };
    let (mut found, mut split, mut by_captures) = (0, 0, 0);
    while found < count {
        let n = 5 + (next() % 4) as usize;
        let seeds = 6 + (next() % 9) as usize;
        let rules = Giuthi::new(n, Variant::default()).expect("board");
        let mut pits = [0u8; 32];
        for _ in 0..seeds {
            pits[(next() % (2 * n as u64)) as usize] += 1;
        }
        let turn = if next() % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let cap = BySide::new((next() % 12) as u16, (next() % 12) as u16);
        let pos = Position::new(rules.clone(), GiuthiState { pits, turn }, cap);
        let solver = Solver::new(
            rules,
            SolverOptions {
                hash_mb: 16,
                ..Default::default()
            },
        );
        let stop = solver.stop_flag();
        let t = Instant::now();
        let h = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(400));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let r = solver.solve_with_bounds(&pos);
        let secs = t.elapsed().as_secs_f64();
        let _ = h.join();
        let Ok(s) = r else { continue };
        let Some(b) = s.bounds() else { continue };
        if secs > 0.3 || s.pv.len() < 4 {
            continue;
        }
        let is_split = b.lo != b.hi;
        let zero = b.result(0) != s.result;
        if !is_split && !zero && next() % 3 != 0 {
            continue;
        }
        found += 1;
        split += is_split as usize;
        by_captures += zero as usize;
        println!(
            "{pos} | lo={} hi={} margin={:+} result={} best={}",
            fmt_score(b.lo),
            fmt_score(b.hi),
            s.margin,
            s.result,
            moves_to_strings(&s.best_moves).join(",")
        );
    }
    eprintln!("{found} found, {split} with lo != hi, {by_captures} decided by the captured seeds");
}
