//! `giuthi show`: draw a position as a player sees it (RULES.md board geometry).
//!
//! North's row is on top, read right to left (pit 0 at the top right), South's row below,
//! left to right (pit n at the bottom left), with the pit indices above and below. Kalah's
//! stores stand at the ends: North's on the left, South's on the right (R1).

use super::common::{has_stores, read_position, scores_line, taken_word};
use giuthi::{with_position, Position, Rules, Side};
use std::fmt::Write;

/// Arguments of `giuthi show`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  giuthi show 'giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0'\n  \
    giuthi show --json 'kalah 4,4,4/4,4,4 S 0,0'"
)]
pub struct Args {
    /// The position: a position string (RULES.md N1) or a file whose first non-comment
    /// line is one.
    #[arg(value_name = "POSITION")]
    pub position: String,
    /// Print one JSON object: {"position", "game", "pits_per_row", "pits", "labels",
    /// "turn", "captured", "legal_moves", "over", "final_scores"} (docs/cli.md).
    #[arg(long)]
    pub json: bool,
}

/// Runs `giuthi show`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let any = read_position(&args.position)?;
    let text = if args.json {
        format!("{}\n", with_position!(&any, p => json(p)))
    } else {
        with_position!(&any, p => draw(p))
    };
    super::common::emit(&text)?;
    Ok(0)
}

/// `pos` as the JSON object of `show --json`: the pits in index order (RULES.md N1:
/// North's row `0..n`, then South's), their labels as `show` draws them (Kiothi marks),
/// the turn (`S` or `N`), the captured seeds (stores, prisons) by side, the number of
/// legal moves (`null` while a Kiothi opening redistribution is due: too many to count),
/// whether the game is over, and then the final scores (else `null`).
pub fn json<R: Rules>(pos: &Position<R>) -> serde_json::Value {
    let rules = &pos.rules;
    let n = rules.pits_per_row();
    let over = pos.is_over();
    let enumerable = rules.can_enumerate(&pos.state);
    serde_json::json!({
        "position": pos.to_string(),
        "game": rules.name(),
        "pits_per_row": n,
        "pits": (0..2 * n).map(|p| rules.seeds(&pos.state, p)).collect::<Vec<_>>(),
        "labels": (0..2 * n).map(|p| rules.pit_label(&pos.state, p)).collect::<Vec<_>>(),
        "turn": pos.turn().letter().to_string(),
        "captured": {"south": pos.captured.south, "north": pos.captured.north},
        "legal_moves": enumerable.then(|| pos.children().len()),
        "over": over,
        "final_scores": over.then(|| {
            let s = pos.final_scores();
            serde_json::json!({"south": s.south, "north": s.north})
        }),
    })
}

/// The drawing of `pos`: the canonical string, the board, the captured seeds, the side to
/// move, and the final scores once the game is over.
pub fn draw<R: Rules>(pos: &Position<R>) -> String {
    let rules = &pos.rules;
    let game = rules.name();
    let n = rules.pits_per_row();
    let north: Vec<usize> = (0..n).rev().collect();
    let south: Vec<usize> = (n..2 * n).collect();
    let stores = has_stores(game);
    let labels: Vec<String> = (0..2 * n).map(|p| rules.pit_label(&pos.state, p)).collect();
    let taken = [
        pos.captured.south.to_string(),
        pos.captured.north.to_string(),
    ];
    let w = labels
        .iter()
        .map(String::len)
        .chain([(2 * n - 1).to_string().len()])
        .chain(if stores {
            taken.iter().map(String::len).collect::<Vec<_>>()
        } else {
            Vec::new()
        })
        .max()
        .unwrap_or(1)
        .max(2);
    let segment = format!("{}+", "-".repeat(w + 2));
    let blank = format!("{}|", " ".repeat(w + 2));
    let cells = |row: &[usize]| -> String {
        row.iter()
            .map(|&p| format!(" {:>w$} |", labels[p]))
            .collect()
    };
    let indices =
        |row: &[usize]| -> String { row.iter().map(|&p| format!(" {p:>w$}  ")).collect() };
    let inner_border = segment.repeat(n);
    let margin = "        ";
    let mark = |side: Side| {
        if pos.turn() == side {
            "   <- to move"
        } else {
            ""
        }
    };
    let mut out = String::new();
    let _ = writeln!(out, "{pos}");
    let _ = writeln!(out);
    if stores {
        let word = taken_word(game);
        let pad = " ".repeat(w + 3);
        let _ = writeln!(out, "{margin} {pad}{}   pit", indices(&north));
        let _ = writeln!(out, "{margin}+{}", segment.repeat(n + 2));
        let _ = writeln!(
            out,
            "{margin}|{blank}{}{blank}   North{}",
            cells(&north),
            mark(Side::North)
        );
        let _ = writeln!(
            out,
            "{margin}| {:>w$} +{inner_border} {:>w$} |   {word}s: North {} (left), South {} (right)",
            taken[1], taken[0], taken[1], taken[0]
        );
        let _ = writeln!(
            out,
            "{margin}|{blank}{}{blank}   South{}",
            cells(&south),
            mark(Side::South)
        );
        let _ = writeln!(out, "{margin}+{}", segment.repeat(n + 2));
        let _ = writeln!(out, "{margin} {pad}{}   pit", indices(&south));
    } else {
        let _ = writeln!(out, "{margin} {}   pit", indices(&north));
        let _ = writeln!(out, "{margin}+{inner_border}");
        let _ = writeln!(
            out,
            "  North |{}   captured {}{}",
            cells(&north),
            taken[1],
            mark(Side::North)
        );
        let _ = writeln!(out, "{margin}+{inner_border}");
        let _ = writeln!(
            out,
            "  South |{}   captured {}{}",
            cells(&south),
            taken[0],
            mark(Side::South)
        );
        let _ = writeln!(out, "{margin}+{inner_border}");
        let _ = writeln!(out, "{margin} {}   pit", indices(&south));
    }
    let _ = writeln!(out);
    let children = pos.children();
    let mover = pos.turn();
    if !pos.rules.can_enumerate(&pos.state) {
        let _ = writeln!(
            out,
            "{mover} to move: an opening redistribution is due (K3); enter it with \
             `giuthi play` as r<a>,<b>:<pit>=<count>,..."
        );
    } else if children.is_empty() {
        let _ = writeln!(out, "{mover} to move, but the game is over: no legal move.");
        let _ = writeln!(out, "Final scores: {}.", scores_line(pos.final_scores()));
    } else if children.len() == 1 && children[0].mv.to_string() == "pass" {
        let _ = writeln!(
            out,
            "{mover} to move, and must pass (no legal sowing, G8); then {} moves.",
            mover.opponent()
        );
    } else {
        let _ = writeln!(
            out,
            "{mover} to move ({} legal move{}).",
            children.len(),
            if children.len() == 1 { "" } else { "s" }
        );
    }
    out
}
