//! Move ordering of the exact search: in which order a node's null-window test tries its
//! moves. Ordering never changes a value, only the work (node counts in
//! docs/performance.md).
//!
//! The table's move always comes first. The rest is ordered by one of two schemes:
//!
//! - [`MoveOrder::ExtraMoves`], after Irving's Kalah solver (girving/kalah, `crunch`):
//!   every move that keeps the turn (an extra move, RULES.md R2, G5b) first, the one that
//!   sows the fewest seeds first (in Kalah: the pit nearest the store), then the other
//!   moves by the seeds they capture at once, larger first; ties go to the later move of
//!   [`Rules::children`]'s order (in Kalah: nearer the store).
//! - [`MoveOrder::Captures`]: captures first, larger first, then extra moves, then the
//!   history heuristic where the rules name their moves ([`Rules::history_slot`]); ties in
//!   [`Rules::children`]'s order.
//!
//! [`MoveOrder::Auto`] lets the game choose ([`Rules::extra_moves_first`]).

use crate::rules::{Child, Rules};

/// A move ordering scheme (see the module documentation).
///
/// # Examples
///
/// ```
/// use giuthi::rules::kalah::Kalah;
/// use giuthi::solve::order::MoveOrder;
/// let kalah = Kalah::new(6)?;
/// assert_eq!(MoveOrder::Auto.resolve(&kalah), MoveOrder::ExtraMoves);
/// assert_eq!("captures".parse::<MoveOrder>()?, MoveOrder::Captures);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MoveOrder {
    /// The game's own choice: [`MoveOrder::ExtraMoves`] where
    /// [`Rules::extra_moves_first`] holds, else [`MoveOrder::Captures`].
    #[default]
    Auto,
    /// Captures (larger first), then extra moves, then the history heuristic.
    Captures,
    /// Extra moves (fewest seeds sown first), then the rest by capture, larger first.
    ExtraMoves,
}

/// A move ordering name that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move order {0:?}: expected auto, captures or extra-moves")]
pub struct ParseMoveOrderError(pub String);

impl std::str::FromStr for MoveOrder {
    type Err = ParseMoveOrderError;
    fn from_str(text: &str) -> Result<MoveOrder, ParseMoveOrderError> {
        match text {
            "auto" => Ok(MoveOrder::Auto),
            "captures" => Ok(MoveOrder::Captures),
            "extra-moves" => Ok(MoveOrder::ExtraMoves),
            _ => Err(ParseMoveOrderError(text.to_string())),
        }
    }
}

impl std::fmt::Display for MoveOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MoveOrder::Auto => "auto",
            MoveOrder::Captures => "captures",
            MoveOrder::ExtraMoves => "extra-moves",
        })
    }
}

impl MoveOrder {
    /// The scheme used for `rules` (never [`MoveOrder::Auto`]).
    pub fn resolve<R: Rules>(self, rules: &R) -> MoveOrder {
        match self {
            MoveOrder::Auto if rules.extra_moves_first() => MoveOrder::ExtraMoves,
            MoveOrder::Auto => MoveOrder::Captures,
            other => other,
        }
    }

    /// Whether the scheme reads the history heuristic (only [`MoveOrder::Captures`]).
    pub fn uses_history(self) -> bool {
        self == MoveOrder::Captures
    }

    /// The sort key of the `i`-th child `c` (larger first) under a resolved scheme;
    /// `history` is the move's history score (ignored by [`MoveOrder::ExtraMoves`]). The
    /// key stays below `2^58`, leaving the bits above for the table's move.
    #[inline]
    pub fn key<R: Rules>(self, c: &Child<R>, i: usize, history: u32) -> i64 {
        match self {
            MoveOrder::ExtraMoves => {
                let tie = i as i64;
                if c.turn_passes {
                    ((c.captured as i64) << 8) + tie
                } else {
                    // Above every capture (at most 2^16 seeds); fewer seeds sown first.
                    (1 << 50) - ((c.sown.min(1 << 24) as i64) << 8) + tie
                }
            }
            _ => {
                let tactical = 4 * c.captured as i64 + if c.turn_passes { 0 } else { 2 };
                (tactical << 32) + history as i64
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::kalah::Kalah;

    /// R2: in the Kalah(6,4) start, the extra move (8, 4 seeds to the store) comes first
    /// under Irving's order, and the rest from the pit nearest the store.
    #[test]
    fn r2_extra_move_first_then_nearest_the_store() {
        let k = Kalah::new(6).expect("board");
        let mut kids = Vec::new();
        k.children(&k.start(4), &mut kids);
        let mut idx: Vec<usize> = (0..kids.len()).collect();
        idx.sort_by_key(|&i| std::cmp::Reverse(MoveOrder::ExtraMoves.key(&kids[i], i, 0)));
        let order: Vec<u8> = idx.iter().map(|&i| kids[i].mv.0).collect();
        assert_eq!(order, [8, 11, 10, 9, 7, 6]);
    }

    /// Every name parses back to its scheme.
    #[test]
    fn names_round_trip() {
        for o in [MoveOrder::Auto, MoveOrder::Captures, MoveOrder::ExtraMoves] {
            assert_eq!(o.to_string().parse::<MoveOrder>(), Ok(o));
        }
        assert!("fast".parse::<MoveOrder>().is_err());
    }
}
