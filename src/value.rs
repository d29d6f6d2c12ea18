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

/// Proven ranges of `lo` and `hi` (RULES.md V2) for the side to move: `lo` lies in
/// `lo.0..=lo.1` and `hi` in `hi.0..=hi.1` (closed ranges; an end may be an infinity).
///
/// The result-first driver ([`Solver::solve`](crate::solve::alphabeta::Solver::solve))
/// narrows them only as far as the exact margin needs (V3), so they need not be single
/// values; [`BoundRanges::margin`] says whether they decide the margin.
///
/// # Examples
///
/// `lo <= -1` and `hi >= 0` with nothing captured prove a draw, whatever `lo` and `hi`
/// are exactly:
///
/// ```
/// use giuthi::value::{BoundRanges, NEG_INF, POS_INF};
/// let r = BoundRanges { lo: (NEG_INF, -1), hi: (0, POS_INF) };
/// assert_eq!(r.margin(0), Some(0));
/// assert_eq!(r.bounds(), None);
/// assert_eq!(r.to_string(), "lo <= -1  hi >= +0");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoundRanges {
    /// `lo` lies in this closed range.
    pub lo: (Score, Score),
    /// `hi` lies in this closed range.
    pub hi: (Score, Score),
}

impl BoundRanges {
    /// The ranges of known bounds (single values).
    pub fn exact(b: Bounds) -> BoundRanges {
        BoundRanges {
            lo: (b.lo, b.lo),
            hi: (b.hi, b.hi),
        }
    }

    /// `(lo, hi)` when both ranges are single values.
    pub fn bounds(&self) -> Option<Bounds> {
        (self.lo.0 == self.lo.1 && self.hi.0 == self.hi.1).then_some(Bounds {
            lo: self.lo.0,
            hi: self.hi.0,
        })
    }

    /// Whether `b` lies in the ranges.
    pub fn contains(&self, b: Bounds) -> bool {
        (self.lo.0..=self.lo.1).contains(&b.lo) && (self.hi.0..=self.hi.1).contains(&b.hi)
    }

    /// The exact margin (V3) for captured difference `d` when the ranges decide it, else
    /// `None`.
    ///
    /// `f(lo, hi) = clamp(-d, lo, hi) = max(lo, min(-d, hi))` (for `lo <= hi`) never
    /// decreases when `lo` or `hi` grows, so over the ranges it runs from its value at
    /// `(lo.0, hi.0)` to its value at `(lo.1, hi.1)`: the margin `d + f` is decided
    /// exactly when those two agree. (They are then finite: `-d` is.)
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::value::{BoundRanges, NEG_INF, POS_INF};
    /// // lo >= 3 decides nothing while lo is unknown, for d = 0 ...
    /// let r = BoundRanges { lo: (3, 9), hi: (3, POS_INF) };
    /// assert_eq!(r.margin(0), None);
    /// // ... but lo < 5 <= hi does for d = -5: the margin is 0.
    /// let r = BoundRanges { lo: (NEG_INF, 4), hi: (5, POS_INF) };
    /// assert_eq!(r.margin(-5), Some(0));
    /// ```
    pub fn margin(&self, d: i32) -> Option<i32> {
        let t = -d;
        let f = |lo: Score, hi: Score| (lo as i32).max(t.min(hi as i32));
        let (a, b) = (f(self.lo.0, self.hi.0), f(self.lo.1, self.hi.1));
        (a == b).then_some(d + a)
    }

    /// The proven range of the final margin (V3) for captured difference `d`:
    /// `d + clamp(-d, lo, hi)` never decreases when `lo` or `hi` grows
    /// ([`BoundRanges::margin`]), so it runs from its value at `(lo.0, hi.0)` to its value
    /// at `(lo.1, hi.1)`; an end is an infinity only where `hi.0` is minus infinity or
    /// `lo.1` plus infinity.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::value::{BoundRanges, NEG_INF, POS_INF};
    /// let r = BoundRanges { lo: (NEG_INF, -2), hi: (0, POS_INF) };
    /// assert_eq!(r.margin_range(0), (0, 0)); // a draw
    /// let open = BoundRanges { lo: (NEG_INF, 72), hi: (-72, POS_INF) };
    /// assert_eq!(open.margin_range(0), (-72, 72));
    /// ```
    pub fn margin_range(&self, d: i32) -> (Score, Score) {
        let t = -d;
        let f = |lo: Score, hi: Score| {
            let v = (lo as i32).max(t.min(hi as i32));
            match v {
                v if v <= NEG_INF as i32 => NEG_INF,
                v if v >= POS_INF as i32 => POS_INF,
                v => (d + v).clamp(NEG_INF as i32 + 1, POS_INF as i32 - 1) as Score,
            }
        };
        (f(self.lo.0, self.hi.0), f(self.lo.1, self.hi.1))
    }
}

/// A proven range in words: `lo +3` (a single value), `lo <= -1` (from minus infinity),
/// `hi >= +0` (to plus infinity), else `lo in [-2, +3]`.
///
/// # Examples
///
/// ```
/// use giuthi::value::{fmt_range, NEG_INF, POS_INF};
/// assert_eq!(fmt_range("lo", (NEG_INF, -10)), "lo <= -10");
/// assert_eq!(fmt_range("hi", (0, POS_INF)), "hi >= +0");
/// assert_eq!(fmt_range("hi", (POS_INF, POS_INF)), "hi +inf");
/// assert_eq!(fmt_range("lo", (-2, 3)), "lo in [-2, +3]");
/// ```
pub fn fmt_range(name: &str, r: (Score, Score)) -> String {
    if r.0 == r.1 {
        format!("{name} {}", fmt_score(r.0))
    } else if r.0 == NEG_INF {
        format!("{name} <= {}", fmt_score(r.1))
    } else if r.1 == POS_INF {
        format!("{name} >= {}", fmt_score(r.0))
    } else {
        format!("{name} in [{}, {}]", fmt_score(r.0), fmt_score(r.1))
    }
}

impl fmt::Display for BoundRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}  {}",
            fmt_range("lo", self.lo),
            fmt_range("hi", self.hi)
        )
    }
}

/// A score as JSON: a number, or the string `"-inf"` / `"+inf"` for an infinity (never
/// `null`).
///
/// # Examples
///
/// ```
/// use giuthi::value::{score_json, NEG_INF};
/// assert_eq!(score_json(NEG_INF).to_string(), "\"-inf\"");
/// assert_eq!(score_json(-3).to_string(), "-3");
/// ```
pub fn score_json(v: Score) -> serde_json::Value {
    match v {
        NEG_INF => serde_json::Value::from("-inf"),
        POS_INF => serde_json::Value::from("+inf"),
        v => serde_json::Value::from(v),
    }
}

/// A proven range as JSON: `[a, b]`, infinities as `"-inf"` / `"+inf"`.
///
/// # Examples
///
/// ```
/// use giuthi::value::{range_json, POS_INF};
/// assert_eq!(range_json((0, POS_INF)).to_string(), "[0,\"+inf\"]");
/// ```
pub fn range_json(r: (Score, Score)) -> serde_json::Value {
    serde_json::Value::Array(vec![score_json(r.0), score_json(r.1)])
}
