//! Background solves: one job per request, run on its own thread, polled by the page for
//! its progress (the proven ranges of `lo` and `hi`), stopped on request, and bounded.
//!
//! Bounds: a time limit per solve, the transposition table size of `--hash`, one running
//! solve per client (a new one stops the old), at most [`JobLimits::max_running`] running
//! at once, and a reaper that stops a solve whose client has not polled it for
//! [`JobLimits::idle`] (the page closed or went away) and forgets finished jobs.

use super::game::ServedGame;
use crate::position::Position;
use crate::solve::alphabeta::{Interrupted, Solver, SolverOptions};
use crate::value::{fmt_score, Bounds, GameResult, Score};
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
    pub fn to_json(&self) -> Value {
        let mut v = (self.progress)();
        let inner = self.inner.lock().expect("job lock");
        let end = inner.finished.unwrap_or_else(Instant::now);
        if v.get("nodes").is_none() {
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

fn range(r: (Score, Score)) -> Value {
    json!([fmt_score(r.0), fmt_score(r.1)])
}

impl Jobs {
    /// No jobs yet.
    pub fn new(limits: JobLimits) -> Jobs {
        Jobs {
            limits,
            jobs: Mutex::new(HashMap::new()),
            next_id: Mutex::new(1),
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
                    self.limits.time_limit.as_secs()
                ));
            } else if running && idle > self.limits.idle {
                job.stop("the reaper: the page stopped asking for it");
            }
            running || idle < self.limits.keep
        });
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
        let stop = Arc::new(AtomicBool::new(false));
        let mut solver = Solver::try_new(
            pos.rules.clone(),
            SolverOptions {
                threads: self.limits.threads,
                hash_mb: self.limits.hash_mb,
                ..SolverOptions::default()
            },
        )
        .map_err(|e| StartError::Resources(format!("--hash {}: {e}", self.limits.hash_mb)))?
        .with_stop(stop.clone());
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
        std::thread::Builder::new()
            .name(format!("solve-{id}"))
            .spawn(move || run(&j, &solver, &pos))
            .map_err(|e| StartError::Resources(format!("cannot start a thread: {e}")))?;
        Ok(job)
    }
}

fn finish(job: &Job, state: JobState, f: impl FnOnce(&mut Value)) {
    let last = (job.progress)();
    let mut inner = job.inner.lock().expect("job lock");
    f(&mut inner.answer);
    if state != JobState::Running {
        inner.answer["nodes"] = last["nodes"].clone();
    }
    if state != JobState::Running {
        inner.state = state;
        inner.finished = Some(Instant::now());
    }
}

fn stopped(e: &Interrupted, a: &mut Value) {
    a["lo_range"] = range(e.lo);
    a["hi_range"] = range(e.hi);
    if e.too_deep {
        a["error"] = json!("stopped: a path deeper than the search allows was needed");
    }
}

/// The largest reachable graph a job solves by the retrograde pass before it searches
/// (as `giuthi solve --retro-states`' default: about 70 MB and a second or two of CPU).
const RETRO_STATES: usize = 1 << 20;

/// The job's thread: the solution (bounds, margin, best moves, PV), then every move's
/// exact margin (V4).
fn run<R: ServedGame>(job: &Job, solver: &Solver<R>, pos: &Position<R>) {
    let game = pos.rules.name();
    // The page shows lo and hi exactly (and the sentence on repetitions needs them), so
    // the job asks for them, not only for the result (docs/solver.md, The result first).
    // A small endgame is solved through its whole reachable graph first, as `giuthi solve`
    // does (docs/solver.md, Retrograde solve of small graphs): exact lo, hi and every
    // move's margin at once.
    let retro = if pos.rules.can_enumerate(&pos.state) {
        crate::solve::retro::solve_position(pos, RETRO_STATES).ok()
    } else {
        None
    };
    let (solved, retro_moves) = match retro {
        Some((s, moves)) => (Ok(s), Some(moves)),
        None => (solver.solve_with_bounds(pos), None),
    };
    let solved = solved.map(|s| (s.bounds().expect("exact bounds"), s));
    let (bounds, sol) = match solved {
        Ok(s) => s,
        Err(e) => {
            let state = if e.too_deep {
                JobState::Failed
            } else {
                JobState::Stopped
            };
            return finish(job, state, |a| stopped(&e, a));
        }
    };
    let d = pos.captured_difference();
    let strs = |ms: &[R::Move]| ms.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    finish(job, JobState::Running, |a| {
        a["lo"] = json!(fmt_score(bounds.lo));
        a["hi"] = json!(fmt_score(bounds.hi));
        a["margin"] = json!(sol.margin);
        a["result"] = json!(sol.result.as_str());
        a["best"] = json!(strs(&sol.best_moves));
        a["pv"] = json!(strs(&sol.pv));
        a["repetition"] = json!(repetition_note(game, bounds, d));
    });
    let analyzed = match retro_moves {
        Some(values) => Ok(values),
        None => solver.analyze(pos),
    };
    match analyzed {
        Ok(values) => finish(job, JobState::Done, |a| {
            let moves: Vec<Value> = values
                .iter()
                .map(|(m, v)| {
                    json!({
                        "move": m.to_string(),
                        "margin": v,
                        "result": GameResult::from_margin(*v).as_str(),
                        "best": *v == sol.margin,
                    })
                })
                .collect();
            a["moves"] = json!(moves);
        }),
        Err(e) => {
            let state = if e.too_deep {
                JobState::Failed
            } else {
                JobState::Stopped
            };
            finish(job, state, |a| {
                if e.too_deep {
                    a["error"] = json!("stopped: a path deeper than the search allows was needed");
                }
            })
        }
    }
}
