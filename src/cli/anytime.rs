//! What `bestmove` and `analyze` share for anytime analysis: the `--movetime` options,
//! the info lines printed while thinking, and running the driver
//! ([`giuthi::anytime::think`]) with the exact solver of `solve`.

use super::solve::{make_solver, oracle, stop_flag, Common, OracleFor};
use giuthi::anytime::eval::{Evaluate, Weights};
use giuthi::anytime::matchplay::parse_seconds;
use giuthi::anytime::search::{HeuristicSearch, Iteration};
use giuthi::anytime::table::Entry;
use giuthi::anytime::think::{
    eval_seeds, table_mb_for, think, Answer, Info, MoveValue, ThinkOptions, DEFAULT_EXACT_SHARE,
    EXACT_NODES_PER_SECOND, HEURISTIC_NODES_PER_SECOND,
};
use giuthi::solve::alphabeta::{moves_to_strings, Solver};
use giuthi::solve::race::{race, Winner};
use giuthi::{Position, Rules};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The options of anytime analysis.
#[derive(Debug, clap::Args)]
pub struct AnytimeArgs {
    /// Answer within SECONDS (fractions allowed: 0.1; at most 86400). The exact solver
    /// gets the first --exact-share of the time; if it settles the position the answer is
    /// exact, else the heuristic search's answer is given, marked heuristic. Without it,
    /// the search goes on until the answer is exact (Ctrl-C: the best move so far).
    #[arg(long, value_name = "SECONDS", value_parser = movetime, allow_negative_numbers = true)]
    pub movetime: Option<Duration>,
    /// The share of --movetime given to the exact solver first, 0 to 1 (default 0.3; only
    /// with --movetime, which it shares out).
    #[arg(long, value_name = "SHARE", value_parser = share)]
    pub exact_share: Option<f64>,
    /// Evaluation weights in hundredths of a seed: row,capture,mobility,reach,special
    /// (default: the game's tuned weights; docs/anytime.md).
    #[arg(long, value_name = "W,W,W,W,W", allow_hyphen_values = true)]
    pub weights: Option<Weights>,
}

impl AnytimeArgs {
    /// The exact solver's share of --movetime (the default when not given).
    fn share(&self) -> f64 {
        self.exact_share.unwrap_or(DEFAULT_EXACT_SHARE)
    }

    /// `--exact-share` without `--movetime` as a usage error naming both.
    fn check(&self) -> anyhow::Result<()> {
        match (self.exact_share, self.movetime) {
            (Some(x), None) => Err(super::common::usage(format!(
                "--exact-share {x}: it shares out --movetime, which was not given (add \
                 --movetime SECONDS, or drop --exact-share: without --movetime the search \
                 goes on until the answer is exact)"
            ))),
            _ => Ok(()),
        }
    }
}

fn movetime(text: &str) -> Result<Duration, String> {
    parse_seconds(text)
}

fn share(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|x| (0.0..=1.0).contains(x))
        .ok_or_else(|| format!("{text:?}: expected a number from 0 to 1"))
}

/// Heuristic table size (MB), the most with --movetime.
const HEURISTIC_HASH_MB: usize = 16;

/// A signed number of seeds with two decimals.
pub(super) fn seeds(v: f64) -> String {
    format!("{v:+.2}")
}

/// One info line (text or JSON) for stderr.
fn info_line<R: Rules>(info: &Info<'_, R>, d: i32, json: bool) -> String {
    match info {
        Info::Iteration(it) => iteration_line(it, d, json),
        Info::Exact {
            status,
            nodes,
            seconds,
        } => {
            let nps = *nodes as f64 / seconds.max(1e-9);
            if json {
                serde_json::json!({"info": "exact", "status": status, "nodes": nodes,
                    "nps": nps.round(), "seconds": seconds})
                .to_string()
            } else {
                format!(
                    "info exact searching ({status}) nodes {nodes} nps {nps:.0} time {seconds:.3}"
                )
            }
        }
        Info::Move {
            mv,
            margin,
            nodes,
            seconds,
        } => {
            if json {
                serde_json::json!({"info": "move", "move": mv.to_string(),
                    "score": {"exact": margin}, "nodes": nodes, "seconds": seconds})
                .to_string()
            } else {
                format!("info move {mv} score exact {margin:+} nodes {nodes} time {seconds:.3}")
            }
        }
        Info::Proven {
            margin,
            nodes,
            seconds,
        } => {
            if json {
                serde_json::json!({"info": "exact", "score": {"exact": margin},
                    "nodes": nodes, "seconds": seconds})
                .to_string()
            } else {
                format!("info score exact {margin:+} nodes {nodes} time {seconds:.3}")
            }
        }
    }
}

fn iteration_line<R: Rules>(it: &Iteration<R>, d: i32, json: bool) -> String {
    let nps = it.nodes as f64 / it.seconds.max(1e-9);
    let pv = moves_to_strings(&it.pv);
    let (kind, value) = if it.proven {
        ("exact", format!("{:+}", d + it.score / 100))
    } else {
        ("eval", seeds(eval_seeds(d, it.score)))
    };
    if json {
        let score = if it.proven {
            serde_json::json!({"exact": d + it.score / 100})
        } else {
            serde_json::json!({"eval": eval_seeds(d, it.score)})
        };
        serde_json::json!({"info": "depth", "depth": it.depth, "score": score,
            "nodes": it.nodes, "nps": nps.round(), "seconds": it.seconds, "pv": pv})
        .to_string()
    } else {
        format!(
            "info depth {} score {kind} {value} nodes {} nps {} time {:.3} pv {}",
            it.depth,
            it.nodes,
            human(nps),
            it.seconds,
            pv.join(" ")
        )
    }
}

/// 1234567 as `1.2M`.
fn human(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.1}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// Thinks about `pos` with the exact solver of `c` and the heuristic search; info lines
/// go to stderr unless `quiet`. Returns the answer and whether the user stopped it.
///
/// # Errors
///
/// A tablebase folder that cannot be used, or a table that cannot be allocated.
pub(super) fn run_think<R: OracleFor + Evaluate>(
    pos: &Position<R>,
    c: &Common,
    a: &AnytimeArgs,
    all_moves: bool,
    json: bool,
    quiet: bool,
) -> anyhow::Result<(Answer<R>, bool)> {
    // --movetime counts from here: the tables' set-up and a retrograde attempt are
    // part of the time the user gave.
    let t_start = Instant::now();
    a.check()?;
    let user_stop = stop_flag();
    // With --movetime, the tables are sized to what the time can fill (a --hash given is
    // the most the exact solver's table takes): the kernel clears a fresh table's pages as
    // the search first touches them, and on a loaded machine that cost (for the default
    // 64 MB) ate the exact share and left the heuristic search one depth (issue 13, the
    // fresh user's 2x8 endgame).
    let mut c = c.clone();
    let mut heuristic_mb = HEURISTIC_HASH_MB;
    if let Some(t) = a.movetime {
        // A search with a deadline touches a small part of a large table: 4 KB pages,
        // each cleared as it is first touched, not 2 MB ones.
        c.huge_pages = false;
        // Likewise the --tb tables stay mapped (--tb-memory is ignored, with a note): a
        // copy would spend the user's time reading tables the search touches little of.
        if c.tb_memory {
            eprintln!(
                "note: --tb-memory is ignored with --movetime: the tables stay mapped (a \
                 copy would spend the time given reading tables the search touches little of)"
            );
        }
        c.tb_memory = false;
        // A --hash given is cut too: a table larger than the share fills only costs its
        // page clearing (one 4 KB page at nearly every probe), which on a loaded machine
        // left the heuristic search one depth (the session-11 fresh-user trial).
        let share = t.as_secs_f64() * a.share();
        let fits = table_mb_for(share, EXACT_NODES_PER_SECOND, 16, usize::MAX);
        if !c.hash_given {
            c.hash_mb = c.hash_mb.min(fits);
        } else if c.hash_mb > fits {
            eprintln!(
                "note: --hash {}: the exact solver uses {fits} MB, what its share of \
                 --movetime ({share:.3} s) can fill; a larger table only costs the clearing \
                 of its pages",
                c.hash_mb
            );
            c.hash_mb = fits;
        }
        heuristic_mb = table_mb_for(
            t.as_secs_f64(),
            HEURISTIC_NODES_PER_SECOND,
            std::mem::size_of::<Option<Entry>>(),
            HEURISTIC_HASH_MB,
        );
    }
    let c = &c;
    // The solver gets its own stop flag: its share of the time ends it, not the process.
    let solver = make_solver(pos, c)?.with_stop(Default::default());
    if let (Some(t), Some(dir)) = (a.movetime, &c.tb) {
        if let Some(note) = tables_setup_note(dir, t_start.elapsed(), t) {
            eprintln!("{note}");
        }
    }
    if let Some(answer) = retro_answer(pos, c, a, all_moves, &solver) {
        return Ok((answer, false));
    }
    let weights = a.weights.unwrap_or_else(|| pos.rules.default_weights());
    let mut heuristic =
        HeuristicSearch::new(pos.rules.clone(), weights, heuristic_mb).with_stop(user_stop.clone());
    if let Some(o) = oracle(&pos.rules, c)? {
        heuristic = heuristic.with_oracle(o);
    }
    let opts = ThinkOptions {
        movetime: a.movetime.map(|t| t.saturating_sub(t_start.elapsed())),
        exact_share: a.share(),
        all_moves,
        ..ThinkOptions::default()
    };
    let d = pos.captured_difference();
    let info = |i: Info<'_, R>| {
        if !quiet {
            eprintln!("{}", info_line(&i, d, json));
        }
    };
    let answer = think(
        pos,
        &[],
        Some(&solver),
        &mut heuristic,
        &user_stop,
        &opts,
        &info,
    );
    Ok((answer, user_stop.load(Ordering::Relaxed)))
}

/// The note for a `--movetime` of which opening the `--tb` tables in `dir` took `setup`
/// (every table's checksum is read at open: seconds for gigabytes), when that is more
/// than half of it: the search then has little or no time left, and a shallow answer
/// should not be a mystery (the session-18 fresh-user trial: 1.5 s for Kalah's 3.7 GB
/// against `--movetime 0.5`). `None` otherwise.
fn tables_setup_note(dir: &std::path::Path, setup: Duration, movetime: Duration) -> Option<String> {
    (setup * 2 > movetime).then(|| {
        format!(
            "note: --tb {}: opening the tables took {:.2} s of --movetime {:.2} s (each \
             table's checksum is read at open), leaving the search {:.2} s; give more time, \
             or a folder with fewer layers",
            dir.display(),
            setup.as_secs_f64(),
            movetime.as_secs_f64(),
            movetime.saturating_sub(setup).as_secs_f64()
        )
    })
}

/// States a second the retrograde solver is given credit for when a `--movetime` caps it
/// (about 1.7 µs a state measured on the project machine, so this leaves room).
const RETRO_STATES_PER_SECOND: f64 = 250_000.0;

/// The exact answer through the retrograde solver of small graphs (docs/solver.md), when
/// the position's reachable graph is within `--retro-states` and, with `--movetime`,
/// small enough to be solved within the exact share of the time; raced against `solver`
/// (docs/solver.md, The race), which answers first where the graph is large but the
/// search short.
fn retro_answer<R: Rules>(
    pos: &Position<R>,
    c: &Common,
    a: &AnytimeArgs,
    all_moves: bool,
    solver: &Solver<R>,
) -> Option<Answer<R>> {
    let t0 = std::time::Instant::now();
    let mut capped = c.clone();
    let mut deadline = None;
    if let Some(t) = a.movetime {
        let budget = (t.as_secs_f64() * a.share() * RETRO_STATES_PER_SECOND) as usize;
        capped.retro_states = capped.retro_states.min(budget);
        // States can cost far more than the rate above (a Kiothi sowing of many laps):
        // the exact share of the time ends the pass whatever its size.
        deadline = Some(t0 + t.mul_f64(a.share()));
    }
    let user_stop = stop_flag();
    let stop = || {
        user_stop.load(Ordering::Relaxed)
            || deadline.is_some_and(|d| std::time::Instant::now() >= d)
    };
    // The solver's own flag ends its budgeted searches when the user stops.
    let flag = solver.stop_flag();
    let watcher = || {
        if user_stop.load(Ordering::Relaxed) {
            flag.store(true, Ordering::Relaxed);
        }
    };
    let won = race(pos, capped.retro_states, solver, &stop, &mut |s| {
        watcher();
        // One best move is all the answer keeps (Solver::solve_one_best).
        let sol = s.solve_one_best(pos)?;
        let moves = if all_moves {
            s.analyze(pos)?
        } else {
            Vec::new()
        };
        Ok((sol, moves))
    })?;
    let (sol, moves) = match won {
        Winner::Pass(sol, moves) => (sol, moves),
        Winner::Search((mut sol, moves)) => {
            sol.nodes = solver.nodes();
            (sol, moves)
        }
    };
    let moves = if all_moves {
        moves
            .into_iter()
            .map(|(mv, v)| MoveValue {
                mv,
                exact: true,
                margin: Some(v),
                eval: None,
            })
            .collect()
    } else {
        Vec::new()
    };
    // The answer is the move the principal variation starts with (a best move), so that
    // the PV printed with it is its line (the pass's PV may follow another best move
    // than the first in move order: the session-11 fresh-user trial, on Kiothi).
    let best = sol
        .pv
        .first()
        .copied()
        .filter(|m| sol.best_moves.contains(m))
        .or_else(|| sol.best_moves.first().copied());
    Some(Answer {
        best,
        exact: true,
        margin: Some(sol.margin),
        eval: None,
        depth: None,
        pv: sol.pv,
        nodes: sol.nodes,
        seconds: t0.elapsed().as_secs_f64(),
        moves,
        interrupted: None,
        undecided: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_setup_over_half_the_movetime_gets_a_note() {
        let dir = std::path::Path::new("tbk6");
        let ms = Duration::from_millis;
        let n = tables_setup_note(dir, ms(1500), ms(500)).expect("past the whole movetime");
        assert!(
            n.contains("--tb tbk6")
                && n.contains("1.50 s of --movetime 0.50 s")
                && n.contains("leaving the search 0.00 s"),
            "{n}"
        );
        assert!(tables_setup_note(dir, ms(300), ms(500)).is_some());
        assert!(tables_setup_note(dir, ms(200), ms(500)).is_none());
    }
}
