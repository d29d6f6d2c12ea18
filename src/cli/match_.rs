//! `giuthi match`: games between two players (engine settings or the baselines `random`
//! and `greedy`) from a fixed, seeded set of openings, each with both colours, in the
//! manner of cutechess-cli; prints wins, draws, losses and the Elo difference with its
//! 95% error bar (docs/anytime.md).

use super::common::{read_position, usage};
use super::solve::stop_flag;
use anyhow::Context;
use giuthi::anytime::elo::elo_of_score;
use giuthi::anytime::eval::Evaluate;
use giuthi::anytime::matchplay::{openings, parse_seconds, play_game, End, MatchResult, Player};
use giuthi::{with_position, BySide, Position, Side};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Arguments of `giuthi match`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi match --start \"$(giuthi start)\" --a engine --b greedy --openings 10 --movetime 0.1\n  \
    giuthi match --a engine:nodes=8000,exact=0 --b greedy --openings 20 --games games.tsv\n  \
    giuthi match --start \"$(giuthi start --pits 6 --seeds 4)\" \\\n      \
    --a engine:depth=4,exact=0,weights=60/50/20/10/0 --b engine:depth=4,exact=0 --openings 20\n\n\
    Players: random; greedy (the move that captures the most now, ties at random); engine \
    or engine:key=value,... with movetime=SECONDS, depth=PLIES, nodes=N (heuristic limits), \
    weights=W/W/W/W/W (row/capture/mobility/reach/special), contempt=SEEDS (a draw by \
    repetition scored this much below 0 for the engine), exact=SHARE (the exact \
    solver's share of the time, 0 to skip it; default 0.3), small=SEEDS (small endgames \
    up to SEEDS seeds on the board solved exactly inside the heuristic tree; default 0, \
    off), ghi=1 (scores that depend on a repetition of the path kept in the heuristic \
    table; default 0), ext=1 (extra moves cost no search depth; default 0). An engine \
    without movetime, \
    depth or nodes thinks --movetime a move.\n\n\
    Each opening (the start plus --random-plies random moves, seeded by --seed) is played \
    twice, the players swapping sides. A game ends when neither side can move (final \
    scores), on a repeated position (a draw, G10), or at --max-plies (adjudicated a draw, \
    counted apart). The result is A's: `Score of A vs B: W - L - D [score] N`, then the \
    Elo difference and its 95% error bar (the logistic formula of cutechess-cli).")]
pub struct Args {
    /// The start position (default: the 2x8 board with 8 seeds a pit, `giuthi start`).
    #[arg(long, value_name = "POSITION")]
    pub start: Option<String>,
    /// The first player.
    #[arg(long, value_name = "PLAYER", default_value = "engine")]
    pub a: Player,
    /// The second player.
    #[arg(long, value_name = "PLAYER", default_value = "greedy")]
    pub b: Player,
    /// Openings to play (each twice, once a side), 1 to 10000.
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub openings: u32,
    /// Random plies from the start that make an opening, 0 to 1000.
    #[arg(long, value_name = "PLIES", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub random_plies: u32,
    /// Seed of the openings and of the baselines' random choices.
    #[arg(long, default_value_t = 1, value_parser = super::common::whole::<u64>(0, u64::MAX))]
    pub seed: u64,
    /// Time a move of an engine that has no movetime, depth or nodes of its own
    /// (seconds, fractions allowed).
    #[arg(long, value_name = "SECONDS", default_value = "0.1", value_parser = parse_seconds,
          allow_negative_numbers = true)]
    pub movetime: Duration,
    /// Plies after the opening before a game is adjudicated a draw, 1 to 1000000.
    #[arg(long, value_name = "PLIES", default_value_t = 2000,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_plies: u32,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No line per game on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Print each game's moves on stderr as well (after its line).
    #[arg(long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Write every game to FILE, one line a game (the format is in docs/anytime.md:
    /// game, opening, A's side, A's margin, end, plies, opening position, moves, tab
    /// separated). The file is rewritten whole after each game (temporary, then renamed),
    /// so an interrupted match keeps the games it finished.
    #[arg(long, value_name = "FILE")]
    pub games: Option<PathBuf>,
}

/// The header line of a `--games` file.
const GAMES_HEADER: &str =
    "# giuthi match games: game\topening\ta_side\ta_margin\tend\tplies\topening_position\tmoves";

/// `--games` names a file in an existing folder: a usage error naming the option otherwise.
fn check_games_path(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        return Err(usage(format!(
            "--games {}: is a folder; give the games file's path",
            path.display()
        )));
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        return Err(usage(format!(
            "--games {}: the folder {} does not exist",
            path.display(),
            parent.display()
        )));
    }
    Ok(())
}

fn play<R: Evaluate>(start: &Position<R>, args: &Args) -> anyhow::Result<i32> {
    let ops = openings(
        start,
        args.openings as usize,
        args.random_plies as usize,
        args.seed,
    );
    if ops.is_empty() {
        return Err(usage(format!(
            "--start {start}: no opening of {} random plies leaves a game to play",
            args.random_plies
        )));
    }
    if let Some(path) = &args.games {
        check_games_path(path)?;
    }
    let stop = stop_flag();
    let t0 = Instant::now();
    let mut result = MatchResult::default();
    let mut n = 0;
    let mut records = format!(
        "{GAMES_HEADER}\n# a {} b {} seed {}\n",
        args.a, args.b, args.seed
    );
    'outer: for (i, op) in ops.iter().enumerate() {
        for a_side in [Side::South, Side::North] {
            if stop.load(Ordering::Relaxed) {
                break 'outer;
            }
            let players = match a_side {
                Side::South => BySide::new(&args.a, &args.b),
                Side::North => BySide::new(&args.b, &args.a),
            };
            let seed = args.seed ^ ((i as u64) << 20) ^ (a_side.index() as u64);
            let g = play_game(
                op,
                players,
                args.movetime,
                args.max_plies as usize,
                seed,
                &stop,
            );
            if stop.load(Ordering::Relaxed) {
                break 'outer;
            }
            result.add(a_side, &g);
            n += 1;
            let end = match g.end {
                End::Over => "game over",
                End::Repetition => "repetition",
                End::PlyLimit => "ply limit",
                End::Stopped => "stopped",
            };
            let a_margin = if a_side == Side::South {
                g.south_margin
            } else {
                -g.south_margin
            };
            if let Some(path) = &args.games {
                records.push_str(&format!(
                    "{n}\t{}\t{}\t{a_margin:+}\t{}\t{}\t{op}\t{}\n",
                    i + 1,
                    if a_side == Side::South { "S" } else { "N" },
                    end.replace(' ', "-"),
                    g.plies,
                    g.moves.join(" ")
                ));
                giuthi::fsutil::write_atomic(path, records.as_bytes()).with_context(|| {
                    format!("--games {}: cannot write the games", path.display())
                })?;
            }
            if !args.quiet {
                eprintln!(
                    "game {n}: opening {} ({op}), A plays {}: A {a_margin:+} ({end}, {} plies); \
                     score {} - {} - {}",
                    i + 1,
                    a_side.name(),
                    g.plies,
                    result.tally.wins,
                    result.tally.losses,
                    result.tally.draws
                );
                if args.verbose {
                    eprintln!("  moves {}", g.moves.join(" "));
                }
            }
        }
    }
    let t = result.tally;
    let secs = t0.elapsed().as_secs_f64();
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "a": args.a.to_string(), "b": args.b.to_string(), "start": start.to_string(),
                "openings": ops.len(), "random_plies": args.random_plies, "seed": args.seed,
                "games": t.games(), "wins": t.wins, "draws": t.draws, "losses": t.losses,
                "score": t.score(), "elo": elo_json(t.elo()),
                "elo_error": elo_json(t.error_margin()),
                "elo_interval": t.score_interval().map(|(lo, hi)| {
                    [elo_json(Some(elo_of_score(lo))), elo_json(Some(elo_of_score(hi)))]
                }),
                "as_south": [result.as_south.wins, result.as_south.draws, result.as_south.losses],
                "as_north": [result.as_north.wins, result.as_north.draws, result.as_north.losses],
                "repetitions": result.repetitions, "ply_limit": result.ply_limit,
                "stopped": stop.load(Ordering::Relaxed), "seconds": secs,
            })
        );
    } else {
        println!(
            "start {start}, {} openings of {} random plies, seed {}",
            ops.len(),
            args.random_plies,
            args.seed
        );
        println!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            args.a,
            args.b,
            t.wins,
            t.losses,
            t.draws,
            t.score().unwrap_or(0.0),
            t.games()
        );
        println!(
            "...      {} playing South: {} - {} - {}",
            args.a, result.as_south.wins, result.as_south.losses, result.as_south.draws
        );
        println!(
            "...      {} playing North: {} - {} - {}",
            args.a, result.as_north.wins, result.as_north.losses, result.as_north.draws
        );
        println!("{}", t.elo_line());
        println!(
            "draws: {} by repetition, {} adjudicated at the ply limit (--max-plies {}); {secs:.1} s",
            result.repetitions, result.ply_limit, args.max_plies
        );
        if stop.load(Ordering::Relaxed) {
            println!(
                "stopped (Ctrl-C) after {} of {} games: the score is of the games played",
                t.games(),
                2 * ops.len()
            );
        }
    }
    Ok(if stop.load(Ordering::Relaxed) { 130 } else { 0 })
}

/// Runs `giuthi match`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let text = args
        .start
        .clone()
        .unwrap_or_else(|| "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0".to_string());
    let any = read_position(&text).map_err(|e| usage(format!("--start: {e:#}")))?;
    with_position!(&any, p => play(p, &args))
}

/// An Elo figure for `--json`: a number, `"+inf"`/`"-inf"` for a sweep (an infinity is
/// never `null`), and `null` only where there is none (no game played; an open error bar).
fn elo_json(e: Option<f64>) -> serde_json::Value {
    match e {
        Some(x) if x == f64::INFINITY => "+inf".into(),
        Some(x) if x == f64::NEG_INFINITY => "-inf".into(),
        Some(x) if x.is_finite() => x.into(),
        _ => serde_json::Value::Null,
    }
}
