//! `giuthi bench`: solves a fixed suite single-threaded and prints a deterministic node
//! count and the speed.

use super::usage;
use giuthi::rules::Rules;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::{with_position, AnyPosition, Position};
use std::time::Instant;

/// The fixed suite: Giuthi compositions from positions/ and small Kalah games.
pub const SUITE: &[&str] = &[
    "kalah 3,3,3,3/3,3,3,3 S 0,0",
    "kalah 2,2,2,2,2/2,2,2,2,2 S 0,0",
    "kalah 2,2,2,2,2,2/2,2,2,2,2,2 S 0,0",
    "giuthi 1,1,3,1,2/1,1,1,1,1 N 5,6",
    "giuthi 0,0,0,1,0,1,0,1/0,0,1,2,0,1,0,0 S 10,6",
    "giuthi 2,2,2,0/0,2,2,2 S 0,0",
];

/// Arguments of `giuthi bench`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi bench                  # the fixed suite, one thread: node counts and nodes/s\n  \
    giuthi bench --long           # also Kalah(5,4)\n  \
    giuthi bench --etc            # compare node counts with the enhanced transposition cutoff\n  \
    giuthi bench --no-history\n\n\
    Node counts are deterministic: a change in them is a change in the search. Build with \
    --release to measure speed.")]
pub struct Args {
    /// Transposition table size in megabytes (small: the suite is small, and clearing a
    /// big table would dominate the time).
    #[arg(long, value_name = "MB", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// Switch on the enhanced transposition cutoff (off by default: it saves nodes but
    /// costs more time than it saves, see docs/solver.md).
    #[arg(long)]
    pub etc: bool,
    /// Switch off the history heuristic (on by default; compare node counts with it).
    #[arg(long)]
    pub no_history: bool,
    /// Also solve Kalah(5,4) (about a second).
    #[arg(long)]
    pub long: bool,
}

fn bench_one<R: Rules>(
    pos: &Position<R>,
    hash_mb: usize,
    etc: bool,
    history: bool,
) -> anyhow::Result<(u64, i32)> {
    let solver = Solver::try_new(
        pos.rules.clone(),
        SolverOptions {
            threads: 1,
            hash_mb,
            etc,
            history,
            ..SolverOptions::default()
        },
    )
    .map_err(|e| usage(format!("--hash {hash_mb}: {e}")))?;
    let s = solver.solve(pos).expect("not interrupted");
    Ok((s.nodes, s.margin))
}

/// Runs `giuthi bench`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let t = Instant::now();
    let mut total = 0;
    let long = ["kalah 4,4,4,4,4/4,4,4,4,4 S 0,0"];
    let extra: &[&str] = if args.long { &long } else { &[] };
    for text in SUITE.iter().chain(extra) {
        let any: AnyPosition = text.parse()?;
        let t1 = Instant::now();
        let (nodes, margin) = with_position!(&any, p => bench_one(p, args.hash as usize, args.etc, !args.no_history))?;
        println!(
            "{text}  margin {margin:+}  nodes {nodes}  {:.3} s",
            t1.elapsed().as_secs_f64()
        );
        total += nodes;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "total nodes {total}  time {secs:.3} s  {:.0} nodes/s",
        total as f64 / secs.max(1e-9)
    );
    Ok(0)
}
