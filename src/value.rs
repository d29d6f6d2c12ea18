//! The value model shared by the solver and the tablebases (RULES.md V1-V4).
//!
//! Every position has a store-independent core (board, marks, turn). Its value is a pair
//! [`Bounds`] `(lo, hi)` of *future margins* for the side to move: the seeds the mover will
//! still gain over the opponent from here on, when a repetition (G10) counts as the worst
//! outcome for the mover (`lo`) or as the best (`hi`). `lo` may be [`NEG_INF`] and `hi`
//! [`POS_INF`]. The exact result of a concrete position with captured-seed difference `D`
//! is `D + clamp(-D, lo, hi)` (V3), see [`Bounds::exact_margin`].

use serde::Serialize;
use std::fmt;

/// A future margin for the side to move, in seeds, or one of the infinities.
///
/// Finite scores lie in `-S..=S` where `S` is the number of seeds on the board.
pub type Score = i16;

/// "Minus infinity": the mover can be held in a repetition forever (only in `lo`).
pub const NEG_INF: Score = -i16::MAX;
/// "Plus infinity": the mover can force a repetition (only in `hi`).
pub const POS_INF: Score = i16::MAX;

/// Whether a score is one of the two infinities.
#[inline]
pub fn is_infinite(v: Score) -> bool {
    v == NEG_INF || v == POS_INF
}

/// `v + k` where an infinite `v` stays infinite (a capture does not change a repetition).
///
/// # Examples
///
/// ```
/// use giuthi::value::{add_captured, NEG_INF};
/// assert_eq!(add_captured(3, 2), 5);
/// assert_eq!(add_captured(NEG_INF, 7), NEG_INF);
/// ```
#[inline]
pub fn add_captured(v: Score, k: i16) -> Score {
    if is_infinite(v) {
        v
    } else {
        v + k
    }
}

/// The value of a move as seen by its mover, from the child's value (RULES.md V3).
///
/// A move capturing `k` seeds that passes the turn scores `k - child`; an extra move (or
/// any move that keeps the turn) scores `k + child`. Infinities stay infinite (negated
/// when the turn passes).
#[inline]
pub fn back_up(child: Score, k: i16, turn_passes: bool) -> Score {
    let v = if turn_passes { -child } else { child };
    add_captured(v, k)
}

/// Win, draw or loss for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// The side to move ends with more seeds.
    Win,
    /// Equal scores, or a draw by repetition (G10).
    Draw,
    /// The side to move ends with fewer seeds.
    Loss,
}

impl GameResult {
    /// The result of a final margin for the side to move: its sign.
    pub fn from_margin(margin: i32) -> GameResult {
        match margin.signum() {
            1 => GameResult::Win,
            0 => GameResult::Draw,
            _ => GameResult::Loss,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Draw => "draw",
            GameResult::Loss => "loss",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The pair `(lo, hi)` of RULES.md V2: future margins for the side to move when a
/// repetition counts as the worst (`lo`) or the best (`hi`) outcome for the mover.
///
/// Invariant: `lo <= hi`; `lo` is finite or [`NEG_INF`], `hi` finite or [`POS_INF`].
///
/// # Examples
///
/// The example of RULES.md V4: `lo = 3`, `hi = +inf`, South has captured 0 and North 2,
/// so `D = -2` and the exact margin is `-2 + clamp(2, 3, inf) = +1`.
///
/// ```
/// use giuthi::value::{Bounds, GameResult, POS_INF};
/// let b = Bounds { lo: 3, hi: POS_INF };
/// assert_eq!(b.exact_margin(-2), 1);
/// assert_eq!(b.result(-2), GameResult::Win);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// Future margin when a repetition is the worst outcome for the mover.
    pub lo: Score,
    /// Future margin when a repetition is the best outcome for the mover.
    pub hi: Score,
}

impl Bounds {
    /// A value with `lo == hi == v`.
    pub fn exact(v: Score) -> Bounds {
        Bounds { lo: v, hi: v }
    }

    /// The bounds seen from the other side (for a move that passes the turn).
    pub fn negate(self) -> Bounds {
        Bounds {
            lo: -self.hi,
            hi: -self.lo,
        }
    }

    /// The exact final margin for the side to move (RULES.md V3), given
    /// `d` = the mover's captured seeds minus the opponent's: `d + clamp(-d, lo, hi)`.
    pub fn exact_margin(self, d: i32) -> i32 {
        let lo = self.lo as i32;
        let hi = self.hi as i32;
        d + (-d).clamp(lo, hi)
    }

    /// Win, draw or loss for the side to move given the captured difference `d`.
    pub fn result(self, d: i32) -> GameResult {
        GameResult::from_margin(self.exact_margin(d))
    }

    /// `lo` as JSON wants it: `None` when it is minus infinity.
    pub fn lo_finite(self) -> Option<i16> {
        (!is_infinite(self.lo)).then_some(self.lo)
    }

    /// `hi` as JSON wants it: `None` when it is plus infinity.
    pub fn hi_finite(self) -> Option<i16> {
        (!is_infinite(self.hi)).then_some(self.hi)
    }
}

/// Formats a score, writing the infinities as `-inf` and `+inf`.
pub fn fmt_score(v: Score) -> String {
    match v {
        NEG_INF => "-inf".to_string(),
        POS_INF => "+inf".to_string(),
        v => format!("{v:+}"),
    }
}

impl fmt::Display for Bounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lo {} hi {}", fmt_score(self.lo), fmt_score(self.hi))
    }
}
