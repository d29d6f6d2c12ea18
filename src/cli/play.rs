//! `giuthi play`: apply moves to a position and print the result (RULES.md N1, N2, G10).
//!
//! The moves are played in order, each checked (none at all: the position is printed as
//! it is, canonical); the first malformed or illegal one stops the command with an error
//! naming the move, its place in the list and the reason (exit code 2). Repetition is
//! tracked along the moves played, the given position included: when a position (board,
//! marks and turn) occurs a second time, the game ends at once in a draw (G10, K11) and
//! any later move is refused.

use super::common::{emit, has_repetition_rule, read_position, scores_line, usage};
use giuthi::{with_position, Position, Rules};
use std::collections::HashMap;

/// Arguments of `giuthi play`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  giuthi play 'giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0' 5ccw 1cw\n  \
    giuthi play --verbose \"$(giuthi start)\" 15cw\n  \
    giuthi play 'giuthi 1,1/1,7 S 0,0'      # no moves: the position as it is (game over)"
)]
pub struct Args {
    /// The position: a position string (RULES.md N1) or a file whose first non-comment
    /// line is one.
    #[arg(value_name = "POSITION")]
    pub position: String,
    /// The moves to play in order (N2: `7ccw`, `12cw`, `pass`; Kalah: the pit number).
    /// None at all prints the position as it is (canonical), so an empty principal
    /// variation (a finished game) replays too.
    #[arg(value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Print each move with what it did (laps, seeds sown, captured, extra move) and the
    /// position after it.
    #[arg(long, short)]
    pub verbose: bool,
    /// Print one JSON object: {"start", "moves": [{"ply", "side", "move", "laps", "sown",
    /// "captured", "extra_move", "position"}, ...], "position", "end"} (docs/cli.md).
    #[arg(long, conflicts_with = "verbose")]
    pub json: bool,
}

/// Runs `giuthi play`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let any = read_position(&args.position)?;
    with_position!(&any, p => play_line(p, &args.moves, args.verbose, args.json))
}

/// Plays `moves` from `start`, printing the steps when `verbose`, then the final position.
fn play_line<R: Rules>(
    start: &Position<R>,
    moves: &[String],
    verbose: bool,
    json: bool,
) -> anyhow::Result<i32> {
    let mut steps: Vec<serde_json::Value> = Vec::new();
    let total = moves.len();
    let repetition = has_repetition_rule(start.rules.name());
    // Every position seen so far (board, marks, turn), with the ply it occurred at.
    let mut seen: HashMap<R::State, usize> = HashMap::new();
    seen.insert(start.state, 0);
    let mut pos = start.clone();
    let mut drawn: Option<(usize, usize)> = None;
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let label = format!("move {ply} of {total}");
        if let Some((at, first)) = drawn {
            return Err(usage(format!(
                "{label}, {text}: the game already ended in a draw by repetition (G10): \
                 move {at} repeated {}",
                if first == 0 {
                    "the given position".to_string()
                } else {
                    format!("the position after move {first}")
                }
            )));
        }
        let mv = pos
            .rules
            .parse_move(text)
            .map_err(|e| usage(format!("{label}, {}", strip_move(&e.to_string()))))?;
        let (next, child) = match pos.play_report(mv) {
            Ok(x) => x,
            Err(e) => {
                let children = pos.children();
                let reason = strip_move(&e.to_string());
                let must_pass = children.len() == 1 && children[0].mv.to_string() == "pass";
                if must_pass && text != "pass" {
                    return Err(usage(format!(
                        "{label}, {text}: {} has no legal sowing and must pass (G8); {}",
                        pos.turn(),
                        reason.strip_prefix(&format!("{mv}: ")).unwrap_or(&reason)
                    )));
                }
                return Err(usage(format!("{label}, {reason}")));
            }
        };
        if json {
            steps.push(serde_json::json!({
                "ply": ply,
                "side": pos.turn().letter().to_string(),
                "move": child.mv.to_string(),
                "laps": child.laps,
                "sown": child.sown,
                "captured": child.captured,
                "extra_move": !child.turn_passes,
                "position": next.to_string(),
            }));
        }
        if verbose {
            emit(&format!(
                "{ply}. {}: laps {}, sown {}, captured {}, {} -> {next}\n",
                child.mv,
                child.laps,
                child.sown,
                child.captured,
                if child.turn_passes {
                    "turn passes"
                } else {
                    "extra move"
                }
            ))?;
        }
        pos = next;
        if repetition {
            if let Some(&first) = seen.get(&pos.state) {
                drawn = Some((ply, first));
            } else {
                seen.insert(pos.state, ply);
            }
        }
    }
    if json {
        let end = match drawn {
            Some((at, first)) => Some(format!(
                "draw by repetition: move {at} repeats {} (G10)",
                if first == 0 {
                    "the given position".to_string()
                } else {
                    format!("the position after move {first}")
                }
            )),
            None if pos.is_over() => {
                Some(format!("game over: {}", scores_line(pos.final_scores())))
            }
            None => None,
        };
        let v = serde_json::json!({
            "start": start.to_string(),
            "moves": steps,
            "position": pos.to_string(),
            "end": end,
        });
        emit(&format!("{v}\n"))?;
        return Ok(0);
    }
    emit(&format!("{pos}\n"))?;
    if let Some((at, first)) = drawn {
        let when = if first == 0 {
            "the given position".to_string()
        } else {
            format!("the position after move {first}")
        };
        eprintln!(
            "note: move {at} repeats {when}: the game ends at once in a draw by repetition (G10)"
        );
    } else if pos.is_over() {
        eprintln!(
            "note: the game is over; final scores: {}",
            scores_line(pos.final_scores())
        );
    }
    Ok(0)
}

/// `move 7ccw: reason` -> `7ccw: reason` (the library's messages start with `move `).
fn strip_move(msg: &str) -> String {
    msg.strip_prefix("move ").unwrap_or(msg).to_string()
}
