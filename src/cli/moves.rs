//! `giuthi moves`: the legal moves of a position and what each does.
//!
//! # Format
//!
//! With `--json`, an array with one object per legal move in the rules' stable order
//! (Giuthi: the mover's pits in index order, `cw` before `ccw`), each with exactly the
//! keys `move` (N2), `position` (the canonical N1 string after the move), `captured`
//! (seeds the mover captured with this move) and `extra_move` (whether the same side moves
//! again, G5b / R2). A player who must pass (G8) gets one object with `"move": "pass"`; a
//! finished game gets `[]`. A Kiothi opening redistribution (K3) has too many moves to
//! list: a usage error (exit 2) with or without `--json`.
//!
//! # Stability
//!
//! The JSON keys and their order are a contract (issue 2): scripts depend on them.

use super::common::{read_position, scores_line, taken_word};
use super::usage;
use giuthi::{with_position, AnyPosition, Position, Rules};
use serde::Serialize;

/// Arguments of `giuthi moves`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  giuthi moves 'giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0'\n  \
    giuthi moves --json 'giuthi 1,1,3/1,1,4 S 0,0'   # [{\"move\": \"pass\", ...}]"
)]
pub struct Args {
    /// The position: a position string (RULES.md N1) or a file whose first non-comment
    /// line is one.
    #[arg(value_name = "POSITION")]
    pub position: String,
    /// Print a JSON array of {"move", "position", "captured", "extra_move"} objects.
    #[arg(long)]
    pub json: bool,
}

/// One legal move in the JSON contract of `moves --json` (exactly these four keys).
#[derive(Debug, Serialize)]
pub struct MoveJson {
    /// The move in notation (N2), `pass` for a pass.
    #[serde(rename = "move")]
    pub mv: String,
    /// The canonical position after the move (N1).
    pub position: String,
    /// Seeds the mover captured with this move.
    pub captured: u16,
    /// Whether the same side moves again.
    pub extra_move: bool,
}

/// Runs `giuthi moves`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let any = read_position(&args.position)?;
    if let AnyPosition::Kiothi(p) = &any {
        if !p.rules.can_enumerate(&p.state) {
            let msg = format!(
                "{p}: an opening redistribution (K3) is due; its moves are too many to list. \
                 Enter one with `giuthi play`, as r<a>,<b>:<pit>=<count>,... (empty two of \
                 your occupied pits a and b and place their warriors), for example the \
                 engine's heuristic choice: {}",
                p.rules
                    .heuristic_redistribution(&p.state)
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| "none".to_string())
            );
            // No list to give, in text or JSON (`[]` would claim the game is over): the
            // same usage error either way, as `perft` on an opening.
            return Err(usage(msg));
        }
    }
    let text = if args.json {
        let list = with_position!(&any, p => json_list(p));
        let mut s = serde_json::to_string_pretty(&list)?;
        s.push('\n');
        s
    } else {
        with_position!(&any, p => table(p))
    };
    super::common::emit(&text)?;
    Ok(0)
}

/// The legal moves of `pos` in the JSON contract's shape.
pub fn json_list<R: Rules>(pos: &Position<R>) -> Vec<MoveJson> {
    pos.children()
        .iter()
        .map(|c| MoveJson {
            mv: c.mv.to_string(),
            position: pos.after(c).to_string(),
            captured: c.captured,
            extra_move: !c.turn_passes,
        })
        .collect()
}

/// The legal moves of `pos` as a table: laps, seeds sown, captured, extra move, result.
pub fn table<R: Rules>(pos: &Position<R>) -> String {
    let children = pos.children();
    let mover = pos.turn();
    if children.is_empty() {
        return format!(
            "No legal moves: the game is over. Final scores: {}.\n",
            scores_line(pos.final_scores())
        );
    }
    let taken = taken_word(pos.rules.name());
    let rows: Vec<[String; 6]> = children
        .iter()
        .map(|c| {
            [
                c.mv.to_string(),
                c.laps.to_string(),
                c.sown.to_string(),
                c.captured.to_string(),
                if c.turn_passes { "no" } else { "yes" }.to_string(),
                pos.after(c).to_string(),
            ]
        })
        .collect();
    let head = ["move", "laps", "sown", taken, "extra", "position after"];
    let widths: Vec<usize> = (0..5)
        .map(|i| {
            rows.iter()
                .map(|r| r[i].len())
                .chain([head[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: [&str; 6]| -> String {
        format!(
            "{:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}  {:<w4$}  {}\n",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            cells[5],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4],
        )
    };
    let mut out = String::new();
    if children.len() == 1 && rows[0][0] == "pass" {
        out.push_str(&format!(
            "{mover} has no legal sowing and must pass (G8).\n"
        ));
    } else {
        out.push_str(&format!(
            "{mover} to move: {} legal move{}.\n",
            children.len(),
            if children.len() == 1 { "" } else { "s" }
        ));
    }
    out.push_str(&line(head));
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5]]));
    }
    out
}
