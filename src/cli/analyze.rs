//! `giuthi analyze`: the exact margin of every legal move (V4, the root counted as played).

use super::common::read_position;
use super::solve::{make_solver, with_progress, Common, OracleFor, SearchArgs};
use giuthi::{with_position, Position, Rules};

/// Arguments of `giuthi analyze`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi analyze \"giuthi 1,0,0,0/1,3,0,0 S 0,2\"\n  \
    giuthi analyze --json \"kalah 2,2,2/2,2,2 S 0,0\"\n\n\
    Each legal move with the exact final margin it reaches for the side to move (captured \
    seeds included), the position counted as already played (RULES.md V4).")]
pub struct Args {
    /// A position (or a file whose first position line is used).
    pub position: String,
    /// Print JSON: `{"position": ..., "moves": [{"move": "7ccw", "margin": 2}, ...]}`.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}

fn analyze<R: OracleFor>(pos: &Position<R>, c: &Common, json: bool) -> i32 {
    let values = match search(pos, c, json) {
        Ok(v) => v,
        Err(code) => return code,
    };
    print(pos, &values, json);
    0
}

/// Every move's margin, through the retrograde solver when the graph is small, else by
/// the search; the exit code when it fails or is stopped.
fn search<R: OracleFor>(
    pos: &Position<R>,
    c: &Common,
    json: bool,
) -> Result<Vec<(R::Move, i32)>, i32> {
    let solver = match make_solver(pos, c) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Err(if e.chain().any(|c| c.is::<super::Usage>()) {
                2
            } else {
                1
            });
        }
    };
    if let Some((_, Some(moves))) = super::solve::try_retro(pos, c) {
        return Ok(moves);
    }
    with_progress(&solver, c.progress, || solver.analyze(pos))
        .map_err(|e| super::solve::report_stop(pos, &e, json))
}

fn print<R: Rules>(pos: &Position<R>, values: &[(R::Move, i32)], json: bool) {
    if json {
        let moves: Vec<_> = values
            .iter()
            .map(|(m, v)| serde_json::json!({"move": m.to_string(), "margin": v}))
            .collect();
        println!(
            "{}",
            serde_json::json!({"position": pos.to_string(), "moves": moves})
        );
    } else {
        println!("position {pos}");
        if values.is_empty() {
            println!("no legal move: the game is over");
        }
        for (m, v) in values {
            println!(
                "{m:>6} {v:+} {}",
                giuthi::GameResult::from_margin(*v).as_str()
            );
        }
    }
}

/// Runs `giuthi analyze`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let c = args.search.common(args.json);
    let any = read_position(&args.position)?;
    Ok(with_position!(&any, p => analyze(p, &c, args.json)))
}
