//! The vocabulary of the board: sides, per-side pairs and sowing directions.
//!
//! Geometry follows RULES.md ("Board geometry"): player 0 is [`Side::South`] (the bottom
//! row, pits `n..2n`), player 1 is [`Side::North`] (the top row, pits `0..n`), and pits
//! are numbered counter-clockwise around the ring.

use std::fmt;
use std::ops::{Index, IndexMut};

/// One of the two players.
///
/// South is player 0 and moves first in every start position (RULES.md, geometry).
///
/// # Examples
///
/// ```
/// use giuthi::Side;
/// assert_eq!(Side::South.opponent(), Side::North);
/// assert_eq!(Side::North.index(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Player 0, the bottom row (pits `n..2n`).
    South,
    /// Player 1, the top row (pits `0..n`).
    North,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter notation of RULES.md N1: `S` or `N`.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// The full lowercase name, `south` or `north`.
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// A value for each side, indexed by [`Side`].
///
/// # Examples
///
/// ```
/// use giuthi::{BySide, Side};
/// let mut captured = BySide::new(4u16, 72);
/// captured[Side::South] += 1;
/// assert_eq!(captured.south, 5);
/// assert_eq!(captured[Side::North], 72);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BySide<T> {
    /// South's value.
    pub south: T,
    /// North's value.
    pub north: T,
}

impl<T> BySide<T> {
    /// Builds the pair from South's and North's values.
    pub const fn new(south: T, north: T) -> Self {
        BySide { south, north }
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    #[inline]
    fn index(&self, side: Side) -> &T {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::South => &mut self.south,
            Side::North => &mut self.north,
        }
    }
}

/// A sowing direction around the ring.
///
/// Counter-clockwise is `+1 (mod 2n)`, clockwise is `-1 (mod 2n)` (RULES.md geometry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Clockwise: pit index `-1 (mod 2n)`.
    Cw,
    /// Counter-clockwise: pit index `+1 (mod 2n)`.
    Ccw,
}

impl Direction {
    /// The other direction (a relay flips it, RULES.md G4).
    #[inline]
    pub fn reverse(self) -> Direction {
        match self {
            Direction::Cw => Direction::Ccw,
            Direction::Ccw => Direction::Cw,
        }
    }

    /// The notation of RULES.md N2: `cw` or `ccw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Cw => "cw",
            Direction::Ccw => "ccw",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
