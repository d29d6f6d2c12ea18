//! Anytime analysis: a move for every position within a time budget, on boards far too
//! big to solve, with exact and heuristic values kept apart (docs/anytime.md).
//!
//! - [`eval`]: the evaluation function of each game (features and weights);
//! - [`table`]: the heuristic search's own transposition table;
//! - [`search`]: iterative-deepening alpha-beta with that evaluation;
//! - [`small`]: small endgames solved on the spot inside the search (exact bounds);
//! - [`think`]: the driver that tries the exact solver first and labels every answer;
//! - [`matchplay`]: games between engine settings and baselines, openings;
//! - [`elo`]: the Elo difference of a match result and its error bar.
//!
//! This layer sits above [`crate::solve`] (it drives the exact solver) and is generic over
//! [`crate::Rules`].

pub mod elo;
pub mod eval;
pub mod matchplay;
pub mod search;
pub mod small;
pub mod table;
pub mod think;
