//! `giuthi perft`: count the move sequences of a given length (a move-generator check).
//!
//! Every legal move is one ply, a pass and an extra move included; a finished game counts
//! 0 below depth 0 (see [`giuthi::perft`]).

use super::common::{emit, read_position, usage};
use super::progress::{self, with_status, Status};
use giuthi::perft::{perft, perft_until};
use giuthi::{with_position, Position, Rules};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The deepest perft the command accepts (a guard against typing an hour-long run).
const MAX_DEPTH: u32 = 64;

/// Arguments of `giuthi perft`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  giuthi perft \"$(giuthi start --pits 5 --seeds 4)\" --depth 4\n  \
    giuthi perft 'giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0' --depth 3 --divide"
)]
pub struct Args {
    /// The position: a position string (RULES.md N1) or a file whose first non-comment
    /// line is one.
    #[arg(value_name = "POSITION")]
    pub position: String,
    /// Plies to count, 0 to 64 (0 counts the position itself).
    #[arg(long, short, value_name = "D", allow_negative_numbers = true,
          value_parser = super::common::whole::<u32>(0, MAX_DEPTH as u64))]
    pub depth: u32,
    /// Also print each legal move with the count below it (depth D-1).
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object: {"position", "depth", "nodes", "seconds"} and, with
    /// --divide, "divide": [{"move", "nodes"}, ...]. Stopped (Ctrl-C; exit 130): also
    /// "stopped": "interrupted", "root_moves" and the "divide" of the root moves counted;
    /// "nodes" is then their sum, not the total.
    #[arg(long)]
    pub json: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `giuthi perft`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.depth > MAX_DEPTH {
        return Err(usage(format!(
            "--depth: {} plies; perft takes at most {MAX_DEPTH}",
            args.depth
        )));
    }
    if args.divide && args.depth == 0 {
        return Err(usage("--depth: --divide needs a depth of at least 1"));
    }
    let any = read_position(&args.position)?;
    with_position!(&any, p => report(p, &args))
}

/// Runs and prints perft (or divide) of `pos`: the count, the time and nodes a second
/// (or, with `json`, one JSON object). The count is made move by move (the sum of the
/// divide), so a progress line can say which root move is being counted. Ctrl-C, SIGTERM
/// or SIGHUP stop it: the root moves counted by then are printed (with `--divide`), with
/// a line saying the count is partial, and the exit code is 130.
fn report<R: Rules>(pos: &Position<R>, args: &Args) -> anyhow::Result<i32> {
    let (depth, split) = (args.depth, args.divide);
    if !pos.rules.can_enumerate(&pos.state) {
        return Err(usage(format!(
            "{pos}: an opening redistribution is due (K3); its moves are not enumerated, \
             so perft starts after the opening (play the two redistributions first)"
        )));
    }
    let started = Instant::now();
    let status = Status::default();
    let show = progress::wanted(args.quiet, args.json);
    let user_stop = super::signals::stop_flag();
    let mut stop = || user_stop.load(Ordering::Relaxed);
    let children = pos.children();
    let total = children.len();
    let mut parts: Vec<(String, u64)> = Vec::new();
    if depth > 0 {
        with_status(show, &status, || {
            for (i, c) in children.iter().enumerate() {
                status.set(format!(
                    "perft {depth}: root move {} of {total} ({})",
                    i + 1,
                    c.mv
                ));
                match perft_until(&pos.rules, &c.state, depth - 1, &mut stop) {
                    Some(n) => parts.push((c.mv.to_string(), n)),
                    None => break,
                }
            }
        });
    }
    let stopped = depth > 0 && parts.len() < total;
    let nodes: u64 = if depth == 0 {
        perft(&pos.rules, &pos.state, 0)
    } else {
        parts.iter().map(|(_, c)| c).sum()
    };
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        let mut v = serde_json::json!({
            "position": pos.to_string(),
            "depth": depth,
            "nodes": nodes,
            "seconds": secs,
        });
        if split || stopped {
            v["divide"] = parts
                .iter()
                .map(|(m, c)| serde_json::json!({"move": m, "nodes": c}))
                .collect();
        }
        if stopped {
            // "nodes" is then the sum of the root moves counted, not the perft.
            v["stopped"] = "interrupted".into();
            v["root_moves"] = total.into();
        }
        emit(&format!("{v}\n"))?;
        return Ok(if stopped { 130 } else { 0 });
    }
    if split || stopped {
        for (mv, count) in &parts {
            emit(&format!("{mv} {count}\n"))?;
        }
    }
    if stopped {
        emit(&format!(
            "perft {depth}: interrupted after {} of {total} root moves ({nodes} counted \
             below them, {secs:.3} s); not the total\n",
            parts.len()
        ))?;
        return Ok(130);
    }
    emit(&format!("perft {depth}: {nodes}\n"))?;
    let rate = if secs > 0.0 {
        format!("{:.0} nodes/s", nodes as f64 / secs)
    } else {
        "too fast to time".to_string()
    };
    emit(&format!("time {secs:.3} s, {rate}\n"))?;
    Ok(0)
}
