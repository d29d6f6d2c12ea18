//! The anytime driver: a move for any position within a time budget, exact when the
//! exact solver proves it in time, heuristic otherwise, and always labelled which.
//!
//! With a budget `T` ([`ThinkOptions::movetime`]): the exact solver
//! ([`crate::solve::alphabeta::Solver`]) runs first for `T * exact_share`; if it settles
//! the position (value, best moves and principal variation), the answer is exact. Else the
//! heuristic search ([`super::search`]) runs until `T` is spent and its move is the
//! answer, marked heuristic (unless it is a proof itself: a complete search in a game that
//! cannot repeat, Kalah).
//!
//! Without a budget: the exact solver runs for half of [`ThinkOptions::first_look`] (small
//! positions are solved there), then the heuristic search for `first_look` (so a move
//! exists), then the exact solver until it finishes (its table kept from the first try);
//! when the user stops it (Ctrl-C) the heuristic move is the answer, with the solver's
//! [`Interrupted`] bounds.

use super::eval::{Evaluate, Weights};
use super::search::{HeuristicSearch, Iteration, Limits};
use crate::position::Position;
use crate::rules::{root_moves, Rules};
use crate::solve::alphabeta::{Interrupted, Solver};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Nodes a second of the exact solver a table for a time budget is sized for (measured:
/// about 2 to 3.3 million on one thread; twice the table it can fill in the time is
/// allowed for). With [`table_mb_for`], `giuthi bestmove|analyze --movetime` sizes the
/// exact solver's table to its share of the time when `--hash` is not given.
pub const EXACT_NODES_PER_SECOND: f64 = 4_000_000.0;

/// Nodes a second of the heuristic search a table for a time budget is sized for (the
/// info lines show 1 to 2 million on one thread).
pub const HEURISTIC_NODES_PER_SECOND: f64 = 2_000_000.0;

/// Megabytes of a table for `seconds` of search at `per_second` nodes of `bytes` each
/// (one entry a node at most), a power of two from 1 to `cap`: a fresh table's pages are
/// cleared by the kernel as the search first touches them, so a table larger than the
/// time can fill costs time and fills nothing (issue 13: the default 64 MB ate the exact
/// share of `--movetime 0.1`).
///
/// # Examples
///
/// ```
/// use giuthi::anytime::think::{table_mb_for, EXACT_NODES_PER_SECOND};
/// // The exact share of --movetime 0.1 (0.03 s) with 16-byte entries: 2 MB.
/// assert_eq!(table_mb_for(0.03, EXACT_NODES_PER_SECOND, 16, 64), 2);
/// assert_eq!(table_mb_for(3.0, EXACT_NODES_PER_SECOND, 16, 64), 64);
/// ```
pub fn table_mb_for(seconds: f64, per_second: f64, bytes: usize, cap: usize) -> usize {
    let mb = (seconds * per_second * bytes as f64 / (1u64 << 20) as f64).ceil();
    let mb = if mb.is_finite() && mb >= 1.0 {
        (mb.min(1e9) as usize).next_power_of_two()
    } else {
        1
    };
    mb.min(cap.max(1))
}

/// How to think.
#[derive(Debug, Clone)]
pub struct ThinkOptions {
    /// The time budget (`None`: search until exact).
    pub movetime: Option<Duration>,
    /// The share of `movetime` given to the exact solver first (0 to 1; 0 skips it).
    pub exact_share: f64,
    /// Every move's value instead of the best move only (`analyze`).
    pub all_moves: bool,
    /// Without `movetime`: how long the heuristic search runs before the exact solver.
    pub first_look: Duration,
    /// Heuristic search limits besides time (depth, nodes: for matches and tuning).
    pub depth: Option<u32>,
    /// Heuristic node budget.
    pub nodes: Option<u64>,
}

impl Default for ThinkOptions {
    fn default() -> Self {
        ThinkOptions {
            movetime: None,
            exact_share: DEFAULT_EXACT_SHARE,
            all_moves: false,
            first_look: Duration::from_secs(1),
            depth: None,
            nodes: None,
        }
    }
}

/// Default [`ThinkOptions::exact_share`].
pub const DEFAULT_EXACT_SHARE: f64 = 0.3;

/// Time kept back from the budget for answering (printing, freeing tables).
const RESERVE: Duration = Duration::from_millis(15);

/// What the driver reports while it thinks.
#[derive(Debug)]
pub enum Info<'a, R: Rules> {
    /// The heuristic search finished a depth.
    Iteration(&'a Iteration<R>),
    /// The exact solver is working (every few seconds): its status line and nodes so far.
    Exact {
        /// The solver's status (the bound under test).
        status: String,
        /// Exact-solver nodes so far.
        nodes: u64,
        /// Seconds since thinking started.
        seconds: f64,
    },
    /// The exact solver settled one move's exact margin (V4; `analyze`, in the order
    /// the moves are settled).
    Move {
        /// The move.
        mv: R::Move,
        /// Its exact final margin for the side to move.
        margin: i32,
        /// Exact-solver nodes so far.
        nodes: u64,
        /// Seconds since thinking started.
        seconds: f64,
    },
    /// The exact solver settled the position: its exact margin.
    Proven {
        /// Final margin for the side to move (V3).
        margin: i32,
        /// Exact-solver nodes.
        nodes: u64,
        /// Seconds since thinking started.
        seconds: f64,
    },
}

/// One root move's value.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveValue<R: Rules> {
    /// The move.
    pub mv: R::Move,
    /// Whether `margin` is proven.
    pub exact: bool,
    /// The exact final margin it reaches for the mover (V4), when `exact`.
    pub margin: Option<i32>,
    /// The heuristic estimate of the final margin for the mover, in seeds, when not exact.
    pub eval: Option<f64>,
}

/// The answer.
#[derive(Debug, Clone)]
pub struct Answer<R: Rules> {
    /// The chosen move (`None` when the game is over).
    pub best: Option<R::Move>,
    /// Whether `best` is a proven best move and `margin` the proven value.
    pub exact: bool,
    /// The exact final margin for the side to move (V3), when `exact`.
    pub margin: Option<i32>,
    /// The heuristic estimate of the final margin for the side to move (captured seeds
    /// included), in seeds, when not `exact`.
    pub eval: Option<f64>,
    /// Depth of the heuristic search behind a heuristic answer (plies).
    pub depth: Option<u32>,
    /// Principal variation (a proven line when `exact`).
    pub pv: Vec<R::Move>,
    /// Nodes, both searches.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
    /// Every move's value (with [`ThinkOptions::all_moves`]).
    pub moves: Vec<MoveValue<R>>,
    /// The exact solver was stopped by the user (no budget given): what it had proven.
    pub interrupted: Option<Interrupted>,
    /// Root lifts whose sowing was still running when the time was up (Kiothi, K11: each
    /// is a legal move or an endless sowing, not known which), so neither searched nor
    /// listed in [`Answer::moves`]; 0 when every legal move was known. Never with
    /// `exact` (docs/anytime.md, "The root's moves and the clock").
    pub undecided: usize,
}

/// Thinks about `pos` (whose game so far is `history`, oldest first) and answers.
///
/// `solver` is the exact solver to try (its stop flag is raised here when its share of the
/// time is over; `None` skips the exact phase); `heuristic` the heuristic search;
/// `user_stop` the Ctrl-C flag; `info` receives progress. A position with no listed move
/// ([`Rules::can_enumerate`] false) or a finished game gives no move.
pub fn think<R: Evaluate>(
    pos: &Position<R>,
    history: &[R::State],
    solver: Option<&Solver<R>>,
    heuristic: &mut HeuristicSearch<R>,
    user_stop: &AtomicBool,
    opts: &ThinkOptions,
    info: &(dyn Fn(Info<'_, R>) + Sync),
) -> Answer<R> {
    let t0 = Instant::now();
    let d = pos.captured_difference();
    heuristic.set_all_moves(opts.all_moves);
    let mut answer = Answer {
        best: None,
        exact: false,
        margin: None,
        eval: None,
        depth: None,
        pv: Vec::new(),
        nodes: 0,
        seconds: 0.0,
        moves: Vec::new(),
        interrupted: None,
        undecided: 0,
    };
    if pos.is_over() || !pos.rules.can_enumerate(&pos.state) {
        answer.seconds = t0.elapsed().as_secs_f64();
        return answer;
    }
    let mut exact_nodes = 0;
    let n0 = solver.map_or(0, |s| s.nodes());
    // One best move is all the answer shows, unless a played position may rule out the
    // first one (`avoid_history` then needs them all).
    let one_best = history.is_empty() || !pos.rules.can_repeat();
    let mut heuristic_result: Option<Iteration<R>> = None;
    // The moves whose exact values were reported (`Info::Move`).
    let mut reported = Vec::new();
    let run_heuristic =
        |heuristic: &mut HeuristicSearch<R>, deadline: Option<Instant>, soft: Option<Instant>| {
            let limits = Limits {
                depth: opts.depth,
                nodes: opts.nodes,
                deadline,
                soft_deadline: soft,
            };
            heuristic.run(pos, history, &limits, |it| info(Info::Iteration(it)))
        };
    match opts.movetime {
        Some(t) => {
            let end = t0 + t.saturating_sub(RESERVE);
            if let Some(solver) = solver.filter(|_| opts.exact_share > 0.0) {
                let share = t.mul_f64(opts.exact_share.min(1.0));
                let r = exact(
                    solver,
                    pos,
                    one_best,
                    Some(t0 + share),
                    user_stop,
                    opts,
                    t0,
                    info,
                    &mut reported,
                );
                exact_nodes = solver.nodes() - n0;
                if let Ok(done) = r {
                    if let Some(done) = avoid_history(pos, history, done) {
                        return finish_exact(answer, done, exact_nodes, t0, info);
                    }
                }
            }
            if opts.exact_share < 1.0 {
                let now = Instant::now();
                let soft = now + end.saturating_duration_since(now).mul_f64(0.5);
                heuristic_result = run_heuristic(heuristic, Some(end), Some(soft));
            }
        }
        None => {
            // A short exact try first (small positions end here), then a heuristic look
            // (a move exists from then on), then the exact solver until it finishes.
            if let Some(solver) = solver {
                let quick = t0 + opts.first_look / 2;
                if let Ok(done) = exact(
                    solver,
                    pos,
                    one_best,
                    Some(quick),
                    user_stop,
                    opts,
                    t0,
                    info,
                    &mut reported,
                ) {
                    return finish_exact(answer, done, solver.nodes() - n0, t0, info);
                }
            }
            let look = Instant::now() + opts.first_look;
            heuristic_result = run_heuristic(heuristic, Some(look), Some(look));
            let proven = heuristic_result
                .as_ref()
                .is_some_and(|it| it.proven && (!opts.all_moves || it.moves.iter().all(|m| m.2)));
            if let (Some(solver), false) = (solver, proven) {
                let r = exact(
                    solver,
                    pos,
                    one_best,
                    None,
                    user_stop,
                    opts,
                    t0,
                    info,
                    &mut reported,
                );
                exact_nodes = solver.nodes() - n0;
                match r {
                    Ok(done) => return finish_exact(answer, done, exact_nodes, t0, info),
                    Err(e) => answer.interrupted = Some(e),
                }
            }
        }
    }
    answer.nodes = exact_nodes + heuristic_result.as_ref().map_or(0, |it| it.nodes);
    let heuristic_ran = heuristic_result.is_some();
    if let Some(it) = heuristic_result {
        answer.undecided = heuristic.root_undecided();
        answer.best = Some(it.best);
        answer.depth = Some(it.depth);
        answer.pv = it.pv.clone();
        if it.proven {
            answer.exact = true;
            answer.margin = Some(d + it.score / 100);
        } else {
            answer.eval = Some(eval_seeds(d, it.score));
        }
        answer.moves = it
            .moves
            .iter()
            .map(|&(mv, score, proven)| MoveValue {
                mv,
                exact: proven,
                margin: proven.then_some(d + score / 100),
                eval: (!proven).then_some(eval_seeds(d, score)),
            })
            .collect();
    } else {
        // Not even the heuristic search ran (a budget spent by the exact share of 1): the
        // moves of the short sowings, or the first long one sown to its end.
        let (kids, undecided) = root_moves(&pos.rules, &pos.state, &mut || true);
        answer.undecided = undecided;
        answer.best = kids.first().map(|c| c.mv);
        answer.pv = answer.best.into_iter().collect();
        answer.eval = Some(eval_seeds(
            d,
            heuristic
                .weights()
                .score(&pos.rules.features(&pos.state, &kids)),
        ));
        answer.depth = Some(0);
    }
    if opts.all_moves && answer.moves.is_empty() {
        // Not even one depth finished: each move by the evaluation of its position (the
        // moves known, as above; `undecided` counts the others).
        let kids = if heuristic_ran {
            heuristic.root_children().to_vec()
        } else {
            let (kids, undecided) = root_moves(&pos.rules, &pos.state, &mut || true);
            answer.undecided = undecided;
            kids
        };
        for c in kids {
            let e = heuristic.evaluate(&c.state);
            let e = 100 * c.captured as i32 + if c.turn_passes { -e } else { e };
            answer.moves.push(MoveValue {
                mv: c.mv,
                exact: false,
                margin: None,
                eval: Some(eval_seeds(d, e)),
            });
        }
    }
    answer.seconds = t0.elapsed().as_secs_f64();
    answer
}

/// The solver knows nothing of the game before `pos`: a best move straight back into a
/// position of `history` would draw at once (G10). Puts a best move that does not first,
/// or gives up the exact answer (`None`) when every best move does.
fn avoid_history<R: Rules>(
    pos: &Position<R>,
    history: &[R::State],
    done: Exact<R>,
) -> Option<Exact<R>> {
    let Exact::Best(mut s) = done else {
        return Some(done);
    };
    if history.is_empty() || !pos.rules.can_repeat() {
        return Some(Exact::Best(s));
    }
    let kids = pos.children();
    let fresh = |m: &R::Move| {
        kids.iter()
            .find(|c| c.mv == *m)
            .is_some_and(|c| !history.contains(&c.state))
    };
    let i = s.best_moves.iter().position(fresh)?;
    if i > 0 {
        let m = s.best_moves.remove(i);
        s.best_moves.insert(0, m);
        s.pv = vec![m];
    }
    Some(Exact::Best(s))
}

/// What the exact phase settled.
enum Exact<R: Rules> {
    /// `solve`: margin, best moves, principal variation.
    Best(crate::solve::alphabeta::Solution<R>),
    /// `analyze`: every move's exact margin.
    All(Vec<(R::Move, i32)>, Option<i32>),
}

fn finish_exact<R: Rules>(
    mut answer: Answer<R>,
    done: Exact<R>,
    nodes: u64,
    t0: Instant,
    info: &(dyn Fn(Info<'_, R>) + Sync),
) -> Answer<R> {
    answer.exact = true;
    answer.nodes = nodes;
    answer.seconds = t0.elapsed().as_secs_f64();
    match done {
        Exact::Best(s) => {
            answer.best = s.best_moves.first().copied();
            answer.margin = Some(s.margin);
            answer.pv = s.pv;
        }
        Exact::All(values, best) => {
            answer.margin = best;
            answer.best = values
                .iter()
                .find(|(_, v)| Some(*v) == best)
                .map(|(m, _)| *m);
            answer.pv = answer.best.into_iter().collect();
            answer.moves = values
                .into_iter()
                .map(|(mv, v)| MoveValue {
                    mv,
                    exact: true,
                    margin: Some(v),
                    eval: None,
                })
                .collect();
        }
    }
    if let Some(margin) = answer.margin {
        info(Info::Proven {
            margin,
            nodes,
            seconds: answer.seconds,
        });
    }
    answer
}

/// Runs the exact solver until it finishes, `deadline` passes or `user_stop` is raised.
/// With `one_best` it proves one best move only ([`Solver::solve_one_best`]: enough
/// when nothing was played before `pos`, see [`avoid_history`]).
#[allow(clippy::too_many_arguments)]
fn exact<R: Rules>(
    solver: &Solver<R>,
    pos: &Position<R>,
    one_best: bool,
    deadline: Option<Instant>,
    user_stop: &AtomicBool,
    opts: &ThinkOptions,
    t0: Instant,
    info: &(dyn Fn(Info<'_, R>) + Sync),
    reported: &mut Vec<R::Move>,
) -> Result<Exact<R>, Interrupted> {
    let flag: Arc<AtomicBool> = solver.stop_flag();
    flag.store(user_stop.load(Ordering::Relaxed), Ordering::Relaxed);
    let done = AtomicBool::new(false);
    let nodes0 = solver.nodes();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut last_info = Instant::now();
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
                if user_stop.load(Ordering::Relaxed)
                    || deadline.is_some_and(|t| Instant::now() >= t)
                {
                    flag.store(true, Ordering::Relaxed);
                }
                if deadline.is_none() && last_info.elapsed() >= Duration::from_secs(5) {
                    last_info = Instant::now();
                    info(Info::Exact {
                        status: solver.status(),
                        nodes: solver.nodes() - nodes0,
                        seconds: t0.elapsed().as_secs_f64(),
                    });
                }
            }
        });
        let r = if opts.all_moves {
            let mut settled = |mv, margin| {
                // A move settled by an earlier try (cut by its deadline) is not reported again.
                if reported.contains(&mv) {
                    return;
                }
                reported.push(mv);
                info(Info::Move {
                    mv,
                    margin,
                    nodes: solver.nodes() - nodes0,
                    seconds: t0.elapsed().as_secs_f64(),
                })
            };
            solver.analyze_with(pos, &mut settled).map(|values| {
                let best = values.iter().map(|(_, v)| *v).max();
                Exact::All(values, best)
            })
        } else if one_best {
            solver.solve_one_best(pos).map(Exact::Best)
        } else {
            solver.solve(pos).map(Exact::Best)
        };
        done.store(true, Ordering::Relaxed);
        r
    })
}

/// The weights of `rules` unless `given`.
pub fn weights_for<R: Evaluate>(rules: &R, given: Option<Weights>) -> Weights {
    given.unwrap_or_else(|| rules.default_weights())
}

/// The estimated final margin in seeds of a heuristic `score` (hundredths of a seed, the
/// future margin for the mover) with captured difference `d`: `d + score / 100`, computed
/// in hundredths and divided once, so JSON says `-3.4`, not `-3.4000000000000004`.
///
/// ```
/// assert_eq!(giuthi::anytime::think::eval_seeds(-3, -40).to_string(), "-3.4");
/// ```
pub fn eval_seeds(d: i32, score: i32) -> f64 {
    (100 * i64::from(d) + i64::from(score)) as f64 / 100.0
}

#[cfg(test)]
mod table_size_tests {
    use super::table_mb_for;

    #[test]
    fn tables_are_sized_to_the_time() {
        assert_eq!(table_mb_for(0.03, 4e6, 16, 64), 2);
        assert_eq!(table_mb_for(0.0, 4e6, 16, 64), 1);
        assert_eq!(table_mb_for(3.0, 4e6, 16, 64), 64);
        assert_eq!(table_mb_for(86_400.0, 4e6, 16, 64), 64);
        assert_eq!(table_mb_for(0.1, 2e6, 24, 16), 8);
        assert_eq!(table_mb_for(1.0, 4e6, 16, 0), 1);
        assert_eq!(table_mb_for(f64::NAN, 4e6, 16, 64), 1);
    }
}
