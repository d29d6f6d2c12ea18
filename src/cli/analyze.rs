//! `giuthi analyze`: the value of every legal move: exact margins (V4, the root counted as
//! played) when the exact solver settles them, else heuristic evaluations, each marked
//! (`--movetime`: within a time budget; docs/anytime.md).

use super::anytime::{run_think, seeds, AnytimeArgs};
use super::common::read_position;
use super::solve::{report_stop, OracleFor, SearchArgs};
use giuthi::anytime::eval::Evaluate;
use giuthi::{with_position, Position};

/// Arguments of `giuthi analyze`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi analyze \"giuthi 1,0,0,0/1,3,0,0 S 0,2\"\n  \
    giuthi analyze --json \"kalah 2,2,2/2,2,2 S 0,0\"\n  \
    giuthi analyze \"$(giuthi start)\" --movetime 2\n\n\
    Each legal move with the exact final margin it reaches for the side to move (captured \
    seeds included), the position counted as already played (RULES.md V4), when the exact \
    solver settles them (all moves or none); otherwise (--movetime spent, or Ctrl-C) each \
    move's heuristic evaluation, the estimated final margin in seeds, marked `eval` \
    (JSON: \"exact\": false, and \"eval\" instead of \"margin\" in each move). A Kiothi lift \
    still being sown when the time ran out (K11: legal or endless, not known which) is not \
    listed; a note says how many (JSON: \"undecided\": N, and \"exact\": false).\n\n\
    Exit codes: 0 analysed; 1 a failure (such as a corrupt --tb table); 2 a usage error; 3 \
    stopped because a path deeper than --max-ply was needed; 130 stopped by Ctrl-C (the \
    values found so far are still printed).")]
pub struct Args {
    /// A position (or a file whose first position line is used).
    pub position: String,
    /// Print JSON: `{"position": ..., "exact": true, "moves": [{"move": "7ccw", "margin":
    /// 2}, ...], "nodes", "seconds", "depth"}`; heuristic values (`"exact": false`) have
    /// `"eval"` (estimated final margin in seeds) instead of `"margin"`.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub anytime: AnytimeArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

fn analyze<R: OracleFor + Evaluate>(pos: &Position<R>, args: &Args) -> anyhow::Result<i32> {
    let c = args.search.common(args.json)?;
    if !pos.rules.can_enumerate(&pos.state) {
        return Err(super::usage(opening_refusal(pos)));
    }
    let (a, stopped) = run_think(pos, &c, &args.anytime, true, args.json, args.search.quiet)?;
    if args.json {
        let moves: Vec<_> = a
            .moves
            .iter()
            .map(|m| {
                // As `solve --analyze` for exact values; `eval` marks a heuristic one.
                if m.exact {
                    serde_json::json!({"move": m.mv.to_string(), "margin": m.margin})
                } else {
                    serde_json::json!({"move": m.mv.to_string(), "eval": m.eval})
                }
            })
            .collect();
        let mut v = serde_json::json!({"position": pos.to_string(),
            "exact": a.undecided == 0 && a.moves.iter().all(|m| m.exact), "moves": moves,
            "nodes": a.nodes, "seconds": a.seconds, "depth": a.depth});
        if a.undecided > 0 {
            v["undecided"] = a.undecided.into();
        }
        if let Some(why) = stop_reason(stopped, a.interrupted.as_ref()) {
            v["stopped"] = why.into();
        }
        println!("{v}");
    } else {
        println!("position {pos}");
        if a.moves.is_empty() && pos.is_over() {
            println!("no legal move: the game is over");
        }
        for m in &a.moves {
            match (m.exact, m.margin, m.eval) {
                (true, Some(v), _) => println!(
                    "{:>6} {v:+} {}",
                    m.mv.to_string(),
                    giuthi::GameResult::from_margin(v).as_str()
                ),
                (_, _, Some(e)) => println!(
                    "{:>6} eval {} (heuristic, depth {})",
                    m.mv.to_string(),
                    seeds(e),
                    a.depth.unwrap_or(0)
                ),
                _ => {}
            }
        }
        if a.undecided > 0 {
            println!("{}", undecided_note(a.undecided));
        }
    }
    if let Some(e) = &a.interrupted {
        return Ok(report_stop(pos, e, false));
    }
    Ok(if stopped { 130 } else { 0 })
}

/// Why `analyze` cannot take a Kiothi opening (K3) and what to do instead: the heuristic
/// redistribution of `bestmove`, and the play-phase position the heuristic choices of both
/// sides lead to, ready to analyse.
fn opening_refusal<R: Evaluate>(pos: &Position<R>) -> String {
    let mut text = format!(
        "{pos}: an opening redistribution is due (K3): every way of emptying two of {}'s \
         occupied pits and placing their warriors anywhere on the board is a move (hundreds \
         of millions at the start, K2), too many to analyse, with or without --movetime; \
         analysis starts in the play phase, after both redistributions",
        pos.turn()
    );
    // Play the heuristic redistributions until the play phase (at most two, K3).
    let mut line = Vec::new();
    let mut p = pos.clone();
    while !p.rules.can_enumerate(&p.state) && line.len() < 2 {
        let Some(m) = p.rules.unlisted_move(&p.state) else {
            break;
        };
        let Ok(next) = p.play(m) else {
            break;
        };
        line.push(m.to_string());
        p = next;
    }
    if let Some(first) = line.first() {
        text.push_str(&format!(
            "\n  a heuristic opening choice (not exact): giuthi bestmove \"{pos}\"   # {first}"
        ));
    }
    if p.rules.can_enumerate(&p.state) && !line.is_empty() {
        text.push_str(&format!(
            "\n  the play phase after the heuristic choices ({}): giuthi analyze \"{p}\" \
             --movetime 2",
            line.join(" then ")
        ));
    }
    text
}

/// The line saying that `n` root lifts were still being sown when the time ran out
/// (Kiothi, K11; docs/anytime.md, "The root's moves and the clock").
pub(super) fn undecided_note(n: usize) -> String {
    format!(
        "note: {n} lift{} still being sown when the time ran out (K11: legal or endless, \
         not known which): not examined",
        if n == 1 { " was" } else { "s were" }
    )
}

/// The JSON `stopped` field of `analyze` and `bestmove`, as `solve`'s: `"interrupted"`
/// when Ctrl-C (or SIGTERM) ended the thinking before its answer was proven or its time
/// was up, `"max_ply"` when the exact search needed a deeper path; `None` otherwise.
pub(super) fn stop_reason(
    stopped: bool,
    interrupted: Option<&giuthi::solve::alphabeta::Interrupted>,
) -> Option<&'static str> {
    match interrupted {
        Some(e) if e.too_deep => Some("max_ply"),
        Some(_) => Some("interrupted"),
        None if stopped => Some("interrupted"),
        None => None,
    }
}

/// Runs `giuthi analyze`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let any = read_position(&args.position)?;
    with_position!(&any, p => analyze(p, &args))
}
