//! Solving positions exactly (RULES.md V1-V4).
//!
//! [`alphabeta`] is the solver; [`order`] orders the moves of the search; [`retro`] solves
//! small reachable graphs outright (the endgames); [`race`] runs the two side by side
//! and takes the first answer; [`naive`] is the reference method used by the tests;
//! [`tt`] is the transposition table; [`busy`] marks the nodes the threads are searching;
//! [`checkpoint`] saves and resumes a long solve.

pub mod alphabeta;
pub mod busy;
pub mod checkpoint;
pub mod naive;
pub mod order;
pub mod race;
pub mod retro;
pub mod tt;

use crate::rules::Rules;
use crate::value::Bounds;

/// An endgame oracle the search may consult (the tablebases implement it): exact
/// `(lo, hi)` for the states it covers, `None` for the others.
pub trait EndgameOracle<R: Rules>: Send + Sync {
    /// The bounds of `s` for the side to move, if the oracle covers it.
    fn probe(&self, s: &R::State) -> Option<Bounds>;

    /// A seed count up to which the oracle covers every state (its [`probe`] answers
    /// `Some` for every state with at most that many seeds on the board, and `None` for
    /// every state with more), or `None` when it makes no such promise (the default).
    /// The search then skips the probe of the states above it.
    ///
    /// [`probe`]: EndgameOracle::probe
    fn covers_up_to(&self) -> Option<u32> {
        None
    }

    /// A hint that `s` will soon be probed: an oracle held in memory may start bringing
    /// its entry into the cache (the search calls it for the children it will search
    /// first, as it prefetches the transposition table's buckets). The default does
    /// nothing.
    fn prefetch(&self, s: &R::State) {
        let _ = s;
    }
}
