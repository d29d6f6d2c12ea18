//! `giuthi bestmove`: a move for any position: the first exact best move (V4) when the
//! exact solver settles the position, else the heuristic search's move, marked as such
//! (`--movetime`: within a time budget; docs/anytime.md).

use super::anytime::{run_think, seeds, AnytimeArgs};
use super::common::read_position;
use super::solve::{report_stop, OracleFor, SearchArgs};
use giuthi::anytime::eval::Evaluate;
use giuthi::anytime::search::HeuristicSearch;
use giuthi::solve::alphabeta::moves_to_strings;
use giuthi::{with_position, Position, Rules};
use std::time::Instant;

/// Arguments of `giuthi bestmove`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi bestmove \"giuthi 1,0,0,0/1,3,0,0 S 0,2\"      # bestmove 5cw exact: ...\n  \
    giuthi bestmove \"$(giuthi start)\" --movetime 0.5    # within half a second\n  \
    giuthi bestmove \"$(giuthi start)\" --movetime 2 --json\n  \
    giuthi bestmove \"$(giuthi start --game kiothi)\"     # heuristic opening (not exact)\n\n\
    Prints one line on stdout, with or without --quiet: `bestmove MOVE exact: margin +1 \
    (win), pv ...` for a proven move, `bestmove MOVE heuristic (not proven): eval +3.20 at \
    depth 7, pv ...` for a guess (`bestmove none exact: the game is over, ...` when there \
    is no move); the move is the second word, `exact:` or `heuristic` the third. Info \
    lines go to stderr while thinking (`info depth 7 score eval +3.20 nodes ... pv ...`; a \
    proven value is `score exact +4`; not with --quiet). A move is exact \
    only when the exact solver proved it (then it is a best move, the first one the engine \
    proved, its transposition table's move tried first; all of them: giuthi solve); a heuristic move comes with its evaluation, \
    the estimated final margin for the side to move in seeds. --json prints one object: \
    {\"position\",\"move\",\"exact\",\"margin\" (when exact),\"eval\" (when not),\"depth\" \
    (heuristic depth, null when exact),\"pv\",\"nodes\",\"seconds\"}, and \"undecided\": N when \
    the time ran out with N Kiothi lifts still being sown (K11: each legal or endless; the \
    move answered is always a fully sown legal one, docs/anytime.md).\n\n\
    Exit codes: 0 answered; 1 a failure (such as a corrupt --tb table); 2 a usage error; 3 \
    stopped because a path deeper than --max-ply was needed; 130 stopped by Ctrl-C (the best \
    move found so far is still printed).")]
pub struct Args {
    /// A position (or a file whose first position line is used).
    pub position: String,
    /// Print the answer as JSON (and the info lines as JSON lines on stderr).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub anytime: AnytimeArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

fn bestmove<R: OracleFor + Evaluate>(pos: &Position<R>, args: &Args) -> anyhow::Result<i32> {
    let c = args.search.common(args.json)?;
    let t = Instant::now();
    if pos.is_over() {
        print_none(pos, args.json, t);
        return Ok(0);
    }
    if !pos.rules.can_enumerate(&pos.state) {
        return Ok(unlisted(pos, args, t));
    }
    let (a, stopped) = run_think(pos, &c, &args.anytime, false, args.json, args.search.quiet)?;
    let Some(best) = a.best else {
        print_none(pos, args.json, t);
        return Ok(0);
    };
    if args.json {
        let mut v = serde_json::json!({
            "position": pos.to_string(),
            "move": best.to_string(),
            "exact": a.exact,
            "depth": a.depth,
            "pv": moves_to_strings(&a.pv),
            "nodes": a.nodes,
            "seconds": a.seconds,
        });
        if let Some(m) = a.margin.filter(|_| a.exact) {
            v["margin"] = m.into();
        }
        if let Some(e) = a.eval.filter(|_| !a.exact) {
            v["eval"] = e.into();
        }
        if a.undecided > 0 {
            v["undecided"] = a.undecided.into();
        }
        if let Some(why) = super::analyze::stop_reason(stopped, a.interrupted.as_ref()) {
            v["stopped"] = why.into();
        }
        println!("{v}");
    } else {
        if a.undecided > 0 && !args.search.quiet {
            eprintln!("{}", super::analyze::undecided_note(a.undecided));
        }
        // One line on stdout, with or without --quiet: the move and whether it is proven,
        // so a script reading stdout never takes a guess for a proof.
        if a.exact {
            println!(
                "bestmove {best} exact: margin {:+} ({}), pv {}",
                a.margin.unwrap_or(0),
                giuthi::GameResult::from_margin(a.margin.unwrap_or(0)),
                moves_to_strings(&a.pv).join(" ")
            );
        } else {
            println!(
                "bestmove {best} heuristic (not proven): eval {} at depth {}, pv {}",
                seeds(a.eval.unwrap_or(0.0)),
                a.depth.unwrap_or(0),
                moves_to_strings(&a.pv).join(" ")
            );
        }
    }
    if let Some(e) = &a.interrupted {
        return Ok(report_stop(pos, e, false));
    }
    Ok(if stopped { 130 } else { 0 })
}

fn print_none<R: Rules>(pos: &Position<R>, json: bool, t: Instant) {
    if json {
        println!(
            "{}",
            serde_json::json!({"position": pos.to_string(), "move": null, "exact": true,
                "margin": pos.final_scores()[pos.turn()] - pos.final_scores()[pos.turn().opponent()],
                "depth": null, "pv": [], "nodes": 0, "seconds": t.elapsed().as_secs_f64()})
        );
    } else {
        let margin = pos.final_scores()[pos.turn()] - pos.final_scores()[pos.turn().opponent()];
        println!(
            "bestmove none exact: the game is over, margin {margin:+} ({})",
            giuthi::GameResult::from_margin(margin)
        );
    }
}

/// A Kiothi opening redistribution (K3): too many to search; a documented heuristic choice.
fn unlisted<R: Evaluate>(pos: &Position<R>, args: &Args, t: Instant) -> i32 {
    let Some(m) = pos.rules.unlisted_move(&pos.state) else {
        print_none(pos, args.json, t);
        return 0;
    };
    let weights = args
        .anytime
        .weights
        .unwrap_or_else(|| pos.rules.default_weights());
    let h = HeuristicSearch::new(pos.rules.clone(), weights, 1);
    // The estimate of the final margin for the mover, from the position after the move.
    let eval = pos.play(m).ok().map(|after| {
        let e = after.captured_difference() as f64 + h.evaluate(&after.state) as f64 / 100.0;
        if after.turn() == pos.turn() {
            e
        } else {
            -e
        }
    });
    if args.json {
        println!(
            "{}",
            serde_json::json!({"position": pos.to_string(), "move": m.to_string(),
                "exact": false, "eval": eval, "depth": 0, "pv": [m.to_string()], "nodes": 0,
                "seconds": t.elapsed().as_secs_f64()})
        );
    } else {
        println!(
            "bestmove {m} heuristic (not proven): an opening redistribution (K3){}, pv {m}",
            eval.map_or(String::new(), |e| format!(", eval {}", seeds(e)))
        );
        eprintln!(
            "note: {pos} is an opening redistribution (K3); this move is a heuristic choice \
             (docs/kiothi.md), not an exact solution"
        );
    }
    0
}

/// Runs `giuthi bestmove`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let any = read_position(&args.position)?;
    with_position!(&any, p => bestmove(p, &args))
}
