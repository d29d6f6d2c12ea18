//! `giuthi bestmove`: the first best move of a position (V4), or `none` when it is over.

use super::common::read_position;
use super::solve::{make_solver, with_progress, Common, OracleFor, SearchArgs};
use giuthi::{with_position, AnyPosition, Position, Rules};

/// Arguments of `giuthi bestmove`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi bestmove \"giuthi 1,0,0,0/1,3,0,0 S 0,2\"      # 5cw\n  \
    giuthi bestmove \"$(giuthi start --game kiothi)\"     # heuristic opening (not exact)\n\n\
    Prints the first best move in the engine's move order (all of them: giuthi solve), \
    or `none` when the game is over.")]
pub struct Args {
    /// A position (or a file whose first position line is used).
    pub position: String,
    #[command(flatten)]
    pub search: SearchArgs,
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
    let solved = match super::solve::try_retro(pos, c) {
        Some((s, _)) => Ok(s),
        None => with_progress(&solver, c.progress, || solver.solve(pos)),
    };
    match solved {
        Ok(s) => {
            match s.best_moves.first() {
                Some(m) => println!("{m}"),
                None => println!("none"),
            }
            0
        }
        Err(e) => super::solve::report_stop(pos, &e, false),
    }
}

/// Runs `giuthi bestmove`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let c = args.search.common(false);
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
