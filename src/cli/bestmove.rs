//! `giuthi bestmove`: the first best move of a position (V4), or `none` when it is over.

use super::common::read_position;
use super::solve::{default_threads, make_solver, with_progress, Common, OracleFor};
use giuthi::{with_position, AnyPosition, Position, Rules};
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
    /// Probe the endgame tablebases in DIR inside the search (see `giuthi solve --tb`).
    #[arg(long, value_name = "DIR")]
    pub tb: Option<std::path::PathBuf>,
}

fn bestmove<R: OracleFor>(pos: &Position<R>, c: &Common) -> i32 {
    let solver = match make_solver(pos, c) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e:#}");
            return if e.chain().any(|c| c.is::<super::Usage>()) {
                2
            } else {
                1
            };
        }
    };
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
        tb: args.tb.clone(),
    };
    let any = read_position(&args.position)?;
    if let AnyPosition::Kiothi(p) = &any {
        if !p.rules.can_enumerate(&p.state) {
            // K3 redistributions are too many to search: a documented heuristic, not exact.
            return match p.rules.heuristic_redistribution(&p.state) {
                Some(m) => {
                    println!("{m}");
                    eprintln!(
                        "note: {p} is an opening redistribution (K3); this move is a \
                         heuristic choice (docs/kiothi.md), not an exact solution"
                    );
                    Ok(0)
                }
                None => {
                    println!("none");
                    Ok(0)
                }
            };
        }
    }
    Ok(with_position!(&any, p => bestmove(p, &c)))
}
