//! The retrograde pass raced against the search (docs/solver.md, The race).
//!
//! A small endgame is solved outright by the retrograde pass over its reachable graph
//! ([`retro`]), a large one by the search ([`Solver`]); the graph's size is not known
//! until it has been enumerated, and some graphs near the pass's cap are searched in a few
//! thousand nodes. So the two race: at each checkpoint of the pass's enumeration
//! ([`retro::RACE_STATES`] states, then [`retro::RACE_STEP`] times as many, below the
//! cap) the search runs until it has spent [`retro::race_budget`] nodes in all, and
//! whichever finishes first answers. The search's work stays in its table, so the search
//! that follows a lost race (a graph over the cap) starts from it.
//!
//! `giuthi solve`, `analyze`, `bestmove` and the server's jobs all start this way.

use super::alphabeta::{Interrupted, Solution, Solver};
use super::retro;
use crate::{Position, Rules};

/// Which side of the [`race`] answered.
#[derive(Debug)]
pub enum Winner<R: Rules, T> {
    /// The retrograde pass: the exact solution (its `nodes` are the graph's states, its
    /// `lo` and `hi` exact) and every legal move's exact margin (V4), in move order.
    Pass(Solution<R>, Vec<(R::Move, i32)>),
    /// The search, within its budget: what the `search` closure returned.
    Search(T),
}

/// Races the retrograde pass over `pos`'s reachable graph (at most `max_states` states)
/// against `search` run on `solver` with growing node budgets ([`Solver::within_budget`]).
///
/// `stop` ends the pass (Ctrl-C, a deadline); the solver's own stop flag ends the search
/// and the pass with it. A search that needs a path deeper than
/// [`SolverOptions::max_ply`](super::alphabeta::SolverOptions::max_ply) leaves the race
/// and the pass goes on alone (it needs no deep path). Returns `None` when neither
/// answered: `max_states` is 0, the position cannot be enumerated (an opening
/// redistribution is due, K3), the graph has more than `max_states` states (or the early
/// exit gave it up), or the search was stopped. The caller then searches on, from the
/// table the race filled.
///
/// # Examples
///
/// ```
/// use giuthi::solve::alphabeta::{Solver, SolverOptions};
/// use giuthi::solve::race::{race, Winner};
/// use giuthi::Position;
/// let pos: Position<giuthi::rules::giuthi::Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
/// let solver = Solver::new(pos.rules.clone(), SolverOptions::default());
/// let won = race(&pos, 1 << 20, &solver, &|| false, &mut |s| s.solve(&pos));
/// let margin = match won.expect("a small graph") {
///     Winner::Pass(sol, _moves) => sol.margin,
///     Winner::Search(sol) => sol.margin,
/// };
/// assert_eq!(margin, solver.solve(&pos)?.margin);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn race<R: Rules, T>(
    pos: &Position<R>,
    max_states: usize,
    solver: &Solver<R>,
    stop: &dyn Fn() -> bool,
    search: &mut dyn FnMut(&Solver<R>) -> Result<T, Interrupted>,
) -> Option<Winner<R, T>> {
    race_why(pos, max_states, solver, stop, search).ok()
}

/// [`race`], and when neither side answered, why the pass did not: `Err(None)` when it
/// was not tried (`max_states` 0, or a position that cannot be enumerated), else
/// `Err(Some(e))` with the pass's error ([`retro::RetroError::TooLarge`] or
/// [`retro::RetroError::TooLargeEarly`] for a graph over the cap, which the CLI notes).
///
/// # Errors
///
/// As above: the pass's error, if it ran, when neither side answered.
pub fn race_why<R: Rules, T>(
    pos: &Position<R>,
    max_states: usize,
    solver: &Solver<R>,
    stop: &dyn Fn() -> bool,
    search: &mut dyn FnMut(&Solver<R>) -> Result<T, Interrupted>,
) -> Result<Winner<R, T>, Option<retro::RetroError>> {
    if max_states == 0 || !pos.rules.can_enumerate(&pos.state) {
        return Err(None);
    }
    let n0 = solver.nodes();
    let mut searched: Option<T> = None;
    let mut stopped = false;
    let mut too_deep = false;
    let mut checkpoint = |states: usize| -> bool {
        if stopped {
            return true;
        }
        if too_deep {
            return false;
        }
        let spent = solver.nodes() - n0;
        let budget = retro::race_budget(states).saturating_sub(spent);
        match solver.within_budget(budget, |s| search(s)) {
            Ok(Some(t)) => searched = Some(t),
            Ok(None) => {}
            // A path deeper than the search allows: the pass alone goes on.
            Err(e) if e.too_deep => too_deep = true,
            // Stopped (the solver's flag): the pass gives up too.
            Err(_) => stopped = true,
        }
        searched.is_some() || stopped
    };
    let passed = retro::solve_position_racing(pos, max_states, stop, &mut checkpoint);
    match (passed, searched) {
        (Ok((sol, moves)), _) => Ok(Winner::Pass(sol, moves)),
        (Err(_), Some(t)) => Ok(Winner::Search(t)),
        (Err(e), None) => Err(Some(e)),
    }
}
