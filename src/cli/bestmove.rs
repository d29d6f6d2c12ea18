//! `giuthi bestmove`: the first best move of a position (V4), or `none` when it is over.

use super::common::read_position;
use super::solve::{default_threads, make_solver, with_progress, Common};
use giuthi::rules::Rules;
use giuthi::{with_position, Position};
use std::io::IsTerminal;

/// Arguments of `giuthi bestmove`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A position (or a file whose first position line is used).
    pub position: String,
    /// Search threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
}

fn bestmove<R: Rules>(pos: &Position<R>, c: &Common) -> i32 {
    let solver = make_solver(&pos.rules, c);
    match with_progress(&solver, c.progress, || solver.solve(pos)) {
        Ok(s) => {
            match s.best_moves.first() {
                Some(m) => println!("{m}"),
                None => println!("none"),
            }
            0
        }
        Err(e) => {
            eprintln!("{pos}: {e}");
            130
        }
    }
}

/// Runs `giuthi bestmove`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let c = Common {
        threads: args.threads.unwrap_or_else(default_threads).max(1),
        hash_mb: args.hash.max(1),
        progress: !args.quiet && std::io::stderr().is_terminal(),
    };
    let any = read_position(&args.position)?;
    Ok(with_position!(&any, p => bestmove(p, &c)))
}
