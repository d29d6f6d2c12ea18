//! Background solves: one job per request, run on its own thread, polled by the page for
//! its progress (the proven ranges of `lo` and `hi`), stopped on request, and bounded.
//!
//! A small endgame is solved at once by the retrograde pass. Any other position goes
//! through the anytime driver ([`crate::anytime::think::think`], as `giuthi analyze`): a
//! short exact try, then the heuristic search for [`JobLimits::first_look`], whose values
//! of every move the job publishes as they deepen, marked `"exact": false` (not proven),
//! then the exact solver until it finishes or is stopped; exact values replace the
//! heuristic ones as they are proven.
//!
//! Bounds: a time limit per solve, the transposition table size of `--hash`, one running
//! solve per client (a new one stops the old), at most [`JobLimits::max_running`] running
//! at once, and a reaper that stops a solve whose client has not polled it for
//! [`JobLimits::idle`] (the page closed or went away) and forgets finished jobs.

use super::game::ServedGame;
use crate::anytime::search::{HeuristicSearch, Iteration};
use crate::anytime::think::{think, Info, ThinkOptions};
use crate::position::Position;
use crate::rules::Rules;
use crate::solve::alphabeta::{Interrupted, Solver, SolverOptions};
use crate::solve::race::{race, Winner};
use crate::value::{fmt_score, score_json, Bounds, GameResult, Score};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The limits every solve runs under.
#[derive(Debug, Clone)]
pub struct JobLimits {
    /// Search threads of one solve.
    pub threads: usize,
    /// Transposition table of one solve, in megabytes.
    pub hash_mb: usize,
    /// Wall time after which a solve is stopped.
    pub time_limit: Duration,
    /// Solves running at once (over all clients).
    pub max_running: usize,
    /// A running solve not polled for this long is stopped (its client went away).
    pub idle: Duration,
    /// A finished job not polled for this long is forgotten.
    pub keep: Duration,
    /// The tablebase folder of `--tb` (the only path the server reads tables from).
    pub tb: Option<PathBuf>,
    /// How long the heuristic search looks at a position that the exact solver did not
    /// settle in half that time (the anytime driver's first look).
    pub first_look: Duration,
    /// The largest reachable graph solved by the retrograde pass before any search (0:
    /// never).
    pub retro_states: usize,
}

impl Default for JobLimits {
    fn default() -> Self {
        JobLimits {
            threads: 1,
            hash_mb: 64,
            time_limit: Duration::from_secs(120),
            max_running: 2,
            idle: Duration::from_secs(15),
            keep: Duration::from_secs(300),
            tb: None,
            first_look: Duration::from_secs(1),
            retro_states: RETRO_STATES,
        }
    }
}

/// Why a solve cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// Too many solves run already.
    #[error("{0} solves are running, the most this server allows; try again when one ends")]
    Busy(usize),
    /// The position cannot be solved (a Kiothi opening redistribution, K3).
    #[error("{0}")]
    Unsolvable(String),
    /// The table or the tablebases could not be had.
    #[error("{0}")]
    Resources(String),
}

/// What a job is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobState {
    /// Searching.
    Running,
    /// Solved: the answer is complete and exact.
    Done,
    /// Stopped (by the client, the time limit or the reaper) with what was proven.
    Stopped,
    /// Failed (a path deeper than the search allows).
    Failed,
}

impl JobState {
    fn as_str(self) -> &'static str {
        match self {
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Stopped => "stopped",
            JobState::Failed => "failed",
        }
    }
}

struct Inner {
    state: JobState,
    /// The solution part once proven (bounds, margin, best, pv), then the move values.
    answer: Value,
    why_stopped: Option<String>,
    last_poll: Instant,
    finished: Option<Instant>,
}

/// One background solve.
pub struct Job {
    id: u64,
    client: String,
    position: String,
    started: Instant,
    stop: Arc<AtomicBool>,
    progress: Box<dyn Fn() -> Value + Send + Sync>,
    inner: Mutex<Inner>,
}

impl Job {
    /// The job as the API answers it: `{"job", "state", "position", "seconds", "nodes",
    /// "progress": {"lo": [a, b], "hi": [a, b]}, "answer": {...}, "stopped_by"}`.
    /// A running job always has `progress`: before the exact search reports any bound
    /// (while the heuristic search gives the first look) the ranges are `-inf` to `+inf`
    /// and `progress.depth` is the heuristic search's depth.
    pub fn to_json(&self) -> Value {
        let mut v = (self.progress)();
        let inner = self.inner.lock().expect("job lock");
        if inner.state == JobState::Running && v.get("progress").is_none() {
            let all = range((crate::value::NEG_INF, crate::value::POS_INF));
            v["progress"] = json!({"lo": all.clone(), "hi": all});
            if let Some(d) = inner.answer.get("heuristic").and_then(|h| h.get("depth")) {
                v["progress"]["depth"] = d.clone();
            }
        }
        let end = inner.finished.unwrap_or_else(Instant::now);
        // A finished job's work is in its answer (the search's nodes, or the states of
        // the retrograde pass's graph: the solver's own count is 0 then).
        if v.get("nodes").is_none() || inner.state != JobState::Running {
            v["nodes"] = inner.answer["nodes"].clone();
        }
        v["job"] = json!(self.id.to_string());
        v["state"] = json!(inner.state.as_str());
        v["position"] = json!(self.position);
        v["seconds"] = json!((end - self.started).as_secs_f64());
        v["answer"] = inner.answer.clone();
        v["stopped_by"] = json!(inner.why_stopped);
        v
    }

    fn stop(&self, why: &str) {
        let mut inner = self.inner.lock().expect("job lock");
        if inner.state == JobState::Running && inner.why_stopped.is_none() {
            inner.why_stopped = Some(why.to_string());
        }
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The server's jobs.
pub struct Jobs {
    limits: JobLimits,
    jobs: Mutex<HashMap<u64, Arc<Job>>>,
    next_id: Mutex<u64>,
    tables: Mutex<HashMap<String, Arc<dyn std::any::Any + Send + Sync>>>,
}

/// One plain sentence on what the repetition rule does here (RULES.md V3: the margin is
/// `D + clamp(-D, lo, hi)`, a draw by repetition being worth `-D` of future margin).
///
/// # Examples
///
/// ```
/// use giuthi::server::jobs::repetition_note;
/// use giuthi::value::{Bounds, POS_INF};
/// let note = repetition_note("giuthi", Bounds { lo: 3, hi: POS_INF }, -2);
/// assert!(note.contains("margin is +1"));
/// ```
pub fn repetition_note(game: &str, b: Bounds, d: i32) -> String {
    if game == "kalah" {
        return "Kalah has no repetition rule, and no Kalah position can recur.".to_string();
    }
    let clause = if game == "kiothi" { "K11" } else { "G10" };
    let m = b.exact_margin(d);
    let (lo, hi) = (fmt_score(b.lo), fmt_score(b.hi));
    if b.lo == b.hi {
        format!(
            "Repetitions ({clause}) change nothing here: the future margin is {lo} whether they \
             count for or against the side to move, so with {d:+} captured so far the margin \
             is {m:+}."
        )
    } else if -d < b.lo as i32 {
        format!(
            "A repetition would end the game as a draw ({clause}), but the side to move does \
             better without one: it gains at least lo = {lo} on the {d:+} captured so far, so \
             the margin is {m:+}."
        )
    } else if -d > b.hi as i32 {
        format!(
            "A repetition would end the game as a draw ({clause}), but the opponent avoids it: \
             the side to move gains at most hi = {hi} on the {d:+} captured so far, so the \
             margin is {m:+}."
        )
    } else {
        format!(
            "The game ends in a draw by repetition ({clause}): the side that would lose \
             forces a repeated position (lo = {lo}, hi = {hi}, and a draw is worth {:+} \
             after the {d:+} captured so far), so the margin is 0.",
            -d
        )
    }
}

/// A proven range as `solve --json` writes it: `[a, b]`, numbers for finite values and
/// `"-inf"`/`"+inf"` for the infinities ([`crate::value::range_json`]).
fn range(r: (Score, Score)) -> Value {
    crate::value::range_json(r)
}

impl Jobs {
    /// No jobs yet.
    pub fn new(limits: JobLimits) -> Jobs {
        Jobs {
            limits,
            jobs: Mutex::new(HashMap::new()),
            next_id: Mutex::new(0),
            tables: Mutex::new(HashMap::new()),
        }
    }

    /// The limits.
    pub fn limits(&self) -> &JobLimits {
        &self.limits
    }

    /// A job by id, marked as polled now.
    pub fn poll(&self, id: u64) -> Option<Arc<Job>> {
        let job = self.jobs.lock().expect("jobs lock").get(&id).cloned()?;
        job.inner.lock().expect("job lock").last_poll = Instant::now();
        Some(job)
    }

    /// Stops a job (no effect on a finished one).
    pub fn stop(&self, id: u64) -> Option<Arc<Job>> {
        let job = self.jobs.lock().expect("jobs lock").get(&id).cloned()?;
        job.stop("the client (Stop)");
        Some(job)
    }

    /// Stops what has run too long or lost its client, forgets old finished jobs.
    pub fn reap(&self) {
        let now = Instant::now();
        let mut jobs = self.jobs.lock().expect("jobs lock");
        jobs.retain(|_, job| {
            let inner = job.inner.lock().expect("job lock");
            let running = inner.state == JobState::Running;
            let idle = now - inner.last_poll;
            drop(inner);
            if running && now - job.started > self.limits.time_limit {
                job.stop(&format!(
                    "the time limit ({} s)",
                    self.limits.time_limit.as_secs_f64()
                ));
            } else if running && idle > self.limits.idle {
                job.stop("the reaper: the page stopped asking for it");
            }
            running || idle < self.limits.keep
        });
    }

    /// Stops every job still running, saying `why` (the server is shutting down).
    pub fn stop_all(&self, why: &str) {
        for job in self.jobs.lock().expect("jobs lock").values() {
            job.stop(why);
        }
    }

    /// Running jobs.
    pub fn running(&self) -> usize {
        self.jobs
            .lock()
            .expect("jobs lock")
            .values()
            .filter(|j| j.inner.lock().expect("job lock").state == JobState::Running)
            .count()
    }

    fn tables_for<R: ServedGame>(
        &self,
        rules: &R,
    ) -> Result<Option<Arc<dyn crate::solve::EndgameOracle<R>>>, String> {
        type Oracle<R> = Option<Arc<dyn crate::solve::EndgameOracle<R>>>;
        let Some(dir) = &self.limits.tb else {
            return Ok(None);
        };
        let key = format!("{}-{}-{:?}", rules.name(), rules.pits_per_row(), rules);
        let mut cache = self.tables.lock().expect("tables lock");
        if let Some(t) = cache.get(&key) {
            return Ok(t.downcast_ref::<Oracle<R>>().cloned().flatten());
        }
        let t: Oracle<R> = rules.open_tables(dir)?;
        cache.insert(key, Arc::new(t.clone()));
        Ok(t)
    }

    /// Starts solving `pos` for `client`, stopping that client's running solve first.
    ///
    /// # Errors
    ///
    /// [`StartError`] when the server is at its limit, the position cannot be solved or
    /// the table cannot be allocated.
    pub fn start<R: ServedGame>(
        self: &Arc<Self>,
        pos: &Position<R>,
        client: &str,
    ) -> Result<Arc<Job>, StartError> {
        if !pos.rules.can_enumerate(&pos.state) {
            return Err(StartError::Unsolvable(
                "position: an opening redistribution is due (K3); exact analysis starts in the \
                 play phase"
                    .to_string(),
            ));
        }
        // One running solve per client: the new one replaces the old.
        let mine: Vec<Arc<Job>> = self
            .jobs
            .lock()
            .expect("jobs lock")
            .values()
            .filter(|j| j.client == client)
            .cloned()
            .collect();
        for j in &mine {
            j.stop("a newer solve of the same client");
        }
        let others = self
            .jobs
            .lock()
            .expect("jobs lock")
            .values()
            .filter(|j| {
                j.client != client && j.inner.lock().expect("job lock").state == JobState::Running
            })
            .count();
        if others >= self.limits.max_running {
            return Err(StartError::Busy(others));
        }
        let oracle = self.tables_for(&pos.rules).map_err(StartError::Resources)?;
        // The client's stop (Stop, a newer solve, the time limit, the reaper); the solver
        // has its own flag, raised by the anytime driver or by `watch` when this one is.
        let stop = Arc::new(AtomicBool::new(false));
        let mut heuristic = HeuristicSearch::new(
            pos.rules.clone(),
            pos.rules.default_weights(),
            HEURISTIC_HASH_MB,
        )
        .with_stop(stop.clone());
        if let Some(o) = &oracle {
            heuristic = heuristic.with_oracle(o.clone());
        }
        let mut solver = Solver::try_new(
            pos.rules.clone(),
            SolverOptions {
                threads: self.limits.threads,
                hash_mb: self.limits.hash_mb,
                ..SolverOptions::default()
            },
        )
        .map_err(|e| StartError::Resources(format!("--hash {}: {e}", self.limits.hash_mb)))?
        .with_stop(Arc::new(AtomicBool::new(false)));
        let with_tables = oracle.is_some();
        if let Some(o) = oracle {
            solver = solver.with_oracle(o);
        }
        let solver = Arc::new(solver);
        let id = {
            let mut n = self.next_id.lock().expect("id lock");
            *n += 1;
            *n
        };
        // The progress reader holds the solver weakly: its table is freed when the job's
        // thread ends, even while the finished job is kept for polling.
        let s2 = Arc::downgrade(&solver);
        let job = Arc::new(Job {
            id,
            client: client.to_string(),
            position: pos.to_string(),
            started: Instant::now(),
            stop,
            progress: Box::new(move || {
                let Some(s2) = s2.upgrade() else {
                    return json!({});
                };
                let mut v = json!({"nodes": s2.nodes(), "status": s2.status()});
                if let Some(p) = s2.progress() {
                    v["progress"] = json!({"lo": range(p.lo), "hi": range(p.hi)});
                }
                v
            }),
            inner: Mutex::new(Inner {
                state: JobState::Running,
                answer: json!({"tables": with_tables}),
                why_stopped: None,
                last_poll: Instant::now(),
                finished: None,
            }),
        });
        self.jobs.lock().expect("jobs lock").insert(id, job.clone());
        let j = job.clone();
        let pos = pos.clone();
        let limits = self.limits.clone();
        std::thread::Builder::new()
            .name(format!("solve-{id}"))
            .spawn(move || run(&j, &solver, &mut heuristic, &pos, &limits))
            .map_err(|e| StartError::Resources(format!("cannot start a thread: {e}")))?;
        Ok(job)
    }
}

fn finish(job: &Job, state: JobState, f: impl FnOnce(&mut Value)) {
    let last = (job.progress)();
    let mut inner = job.inner.lock().expect("job lock");
    f(&mut inner.answer);
    // A job solved by the retrograde pass counts its graph's states (set by `f`).
    if state != JobState::Running && inner.answer.get("retro_states").is_none() {
        inner.answer["nodes"] = last["nodes"].clone();
    }
    if state != JobState::Running {
        inner.state = state;
        inner.finished = Some(Instant::now());
    }
}

/// What a stopped solve proved: the ranges of lo and hi, the margin's range, and the
/// margin and result when the ranges decide them (V3; as `giuthi solve --json` stopped).
/// `d`: the position's captured difference.
fn stopped(e: &Interrupted, d: i32, a: &mut Value) {
    a["lo_range"] = range(e.lo);
    a["hi_range"] = range(e.hi);
    let ranges = crate::value::BoundRanges { lo: e.lo, hi: e.hi };
    a["margin_range"] = range(ranges.margin_range(d));
    if let Some(m) = ranges.margin(d) {
        a["margin"] = json!(m);
        a["result"] = json!(crate::value::GameResult::from_margin(m).as_str());
    }
    if e.too_deep {
        a["error"] = json!("stopped: a path deeper than the search allows was needed");
    }
}

/// The largest reachable graph a job solves by the retrograde pass before it searches
/// (`giuthi solve --retro-states`' least default, which follows the memory available:
/// about 150 MB and a second or two of CPU).
pub const RETRO_STATES: usize = 1 << 20;

/// The heuristic search's table, MB (as `giuthi analyze`).
const HEURISTIC_HASH_MB: usize = 16;

/// The label of every value that is not proven.
pub const NOT_PROVEN: &str = "heuristic, not proven";

/// Runs `f` while a watcher raises the solver's stop flag as soon as the job's is raised.
fn watch<T>(user: &AtomicBool, solver_flag: &AtomicBool, f: impl FnOnce() -> T) -> T {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if user.load(Ordering::Relaxed) {
                    solver_flag.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let r = f();
        done.store(true, Ordering::Relaxed);
        r
    })
}

/// The JSON of one heuristic iteration: `{"label", "depth", "nodes", "seconds", "best",
/// "eval", "pv", "moves": [{"move", "exact", "eval"} or {"move", "exact": true,
/// "margin"}], "undecided" (when some root lifts were still being sown, K11)}`, in final margins for the side to move (captured seeds included, `d`),
/// evals in seeds; a move is exact only where the search proved it (as the anytime
/// driver labels it).
fn heuristic_json<R: Rules>(it: &Iteration<R>, d: i32) -> Value {
    let value = |score: i32, proven: bool| {
        if proven {
            json!({"exact": true, "margin": d + score / 100})
        } else {
            json!({"exact": false, "eval": crate::anytime::think::eval_seeds(d, score)})
        }
    };
    let moves: Vec<Value> = it
        .moves
        .iter()
        .map(|&(mv, score, proven)| {
            let mut v = value(score, proven);
            v["move"] = json!(mv.to_string());
            v
        })
        .collect();
    let mut best = value(it.score, it.proven);
    best["label"] = json!(NOT_PROVEN);
    best["depth"] = json!(it.depth);
    best["nodes"] = json!(it.nodes);
    best["seconds"] = json!(it.seconds);
    best["best"] = json!(it.best.to_string());
    best["pv"] = json!(it.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>());
    best["moves"] = json!(moves);
    if it.undecided > 0 {
        // Root lifts still being sown at the heuristic look's deadline (K11): not listed.
        best["undecided"] = json!(it.undecided);
    }
    best
}

fn failed_or_stopped(e: &Interrupted) -> JobState {
    if e.too_deep {
        JobState::Failed
    } else {
        JobState::Stopped
    }
}

/// The job's thread: a small graph by the retrograde pass (exact lo, hi and every move's
/// margin at once); anything else through the anytime driver (heuristic values of every
/// move first, marked not proven, then every move's exact margin, V4), then the solution
/// (bounds, margin, best moves, PV) with the table the analysis filled.
fn run<R: ServedGame>(
    job: &Job,
    solver: &Solver<R>,
    heuristic: &mut HeuristicSearch<R>,
    pos: &Position<R>,
    limits: &JobLimits,
) {
    let game = pos.rules.name();
    let d = pos.captured_difference();
    let strs = |ms: &[R::Move]| ms.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    let move_values = |values: &[(R::Move, i32)], margin: i32| -> Value {
        let moves: Vec<Value> = values
            .iter()
            .map(|(m, v)| {
                json!({
                    "move": m.to_string(),
                    "margin": v,
                    "result": GameResult::from_margin(*v).as_str(),
                    "best": *v == margin,
                })
            })
            .collect();
        json!(moves)
    };
    let solution = |a: &mut Value, bounds: Bounds, sol: &crate::solve::alphabeta::Solution<R>| {
        // As `solve --json`: numbers, the infinities as strings; exact, so the ranges
        // are single values.
        a["lo"] = score_json(bounds.lo);
        a["hi"] = score_json(bounds.hi);
        a["lo_range"] = range((bounds.lo, bounds.lo));
        a["hi_range"] = range((bounds.hi, bounds.hi));
        a["margin"] = json!(sol.margin);
        a["result"] = json!(sol.result.as_str());
        a["best"] = json!(strs(&sol.best_moves));
        a["pv"] = json!(strs(&sol.pv));
        a["repetition"] = json!(repetition_note(game, bounds, d));
    };
    // A small endgame is solved through its whole reachable graph first, raced against the
    // search, as `giuthi solve` does (docs/solver.md, Retrograde solve of small graphs;
    // The race). The job's stop (Stop, the time limit, the reaper) ends the pass too, also
    // where every state is costly to expand (a Kiothi sowing of many laps), and the search.
    let job_stopped = || job.stop.load(Ordering::Relaxed);
    let won = watch(&job.stop, &solver.stop_flag(), || {
        race(pos, limits.retro_states, solver, &job_stopped, &mut |s| {
            // The page shows lo and hi exactly: the search finds both.
            let sol = s.solve_with_bounds(pos)?;
            let values = s.analyze(pos)?;
            Ok((sol, values))
        })
    });
    match won {
        Some(Winner::Pass(sol, values)) => {
            let bounds = sol.bounds().expect("exact bounds");
            return finish(job, JobState::Done, |a| {
                // The pass's work: the states of its graph (the search did nothing).
                a["retro_states"] = json!(sol.nodes);
                a["nodes"] = json!(sol.nodes);
                solution(a, bounds, &sol);
                a["moves"] = move_values(&values, sol.margin);
            });
        }
        Some(Winner::Search((sol, values))) => {
            let bounds = sol.bounds().expect("exact bounds");
            // The search's nodes (`finish` reads them).
            return finish(job, JobState::Done, |a| {
                solution(a, bounds, &sol);
                a["moves"] = move_values(&values, sol.margin);
            });
        }
        None => {}
    }
    let opts = ThinkOptions {
        movetime: None,
        all_moves: true,
        first_look: limits.first_look,
        ..ThinkOptions::default()
    };
    let info = |i: Info<'_, R>| {
        if let Info::Iteration(it) = i {
            let h = heuristic_json(it, d);
            finish(job, JobState::Running, |a| a["heuristic"] = h);
        }
    };
    let answer = think(pos, &[], Some(solver), heuristic, &job.stop, &opts, &info);
    let exact_moves: Option<Vec<(R::Move, i32)>> = (answer.exact
        && !answer.moves.is_empty()
        && answer.moves.iter().all(|m| m.exact && m.margin.is_some()))
    .then(|| {
        answer
            .moves
            .iter()
            .map(|m| (m.mv, m.margin.expect("exact margin")))
            .collect()
    });
    let Some(values) = exact_moves else {
        // Stopped before the values were proven: the heuristic ones stay, marked.
        let e = answer.interrupted.unwrap_or(Interrupted {
            lo: (crate::value::NEG_INF, crate::value::POS_INF),
            hi: (crate::value::NEG_INF, crate::value::POS_INF),
            too_deep: false,
        });
        return finish(job, failed_or_stopped(&e), |a| {
            stopped(&e, pos.captured_difference(), a)
        });
    };
    let margin = values.iter().map(|v| v.1).max().expect("a move");
    finish(job, JobState::Running, |a| {
        a["moves"] = move_values(&values, margin);
    });
    // The page shows lo and hi exactly (and the sentence on repetitions needs them), so
    // the job asks for them, not only for the result (docs/solver.md, The result first).
    match watch(&job.stop, &solver.stop_flag(), || {
        solver.solve_with_bounds(pos)
    }) {
        Ok(sol) => {
            let bounds = sol.bounds().expect("exact bounds");
            finish(job, JobState::Done, |a| solution(a, bounds, &sol))
        }
        Err(e) => finish(job, failed_or_stopped(&e), |a| {
            stopped(&e, pos.captured_difference(), a)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{NEG_INF, POS_INF};

    /// V3: a job stopped with ranges that decide the margin reports it and its result
    /// (the session-15 trial: a 2x5x3 job stopped at `lo <= -2`, `hi >= 0` had none);
    /// ranges that do not decide it give only the margin's range.
    #[test]
    fn v3_a_stopped_job_reports_a_margin_its_ranges_prove() {
        let mut a = json!({});
        let e = Interrupted {
            lo: (NEG_INF, -2),
            hi: (0, POS_INF),
            too_deep: false,
        };
        stopped(&e, 0, &mut a);
        assert_eq!(a["margin"], 0, "{a}");
        assert_eq!(a["result"], "draw", "{a}");
        assert_eq!(a["margin_range"], json!([0, 0]), "{a}");
        // Three seeds behind (d = -3), the margin d + clamp(3, lo, hi) over lo <= -2,
        // hi >= 0 runs from -3 + 0 to -3 + 3: not decided.
        let mut b = json!({});
        stopped(&e, -3, &mut b);
        assert!(b.get("margin").is_none(), "{b}");
        assert_eq!(b["margin_range"], json!([-3, 0]), "{b}");
    }
}
