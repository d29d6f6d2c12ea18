//! A line of play (a principal variation) replayed from its position for people to read:
//! each ply numbered with its mover, captures and extra moves marked, and how the line
//! ends (the game over, a draw by repetition, or the line stopping while the game goes
//! on).
//!
//! # Format
//!
//! Plies are numbered from 1 and written `<ply>. <side> <move><marks>`, two spaces apart,
//! eight to a line (continuation lines are indented); `<side>` is `S` or `N`, `<marks>`
//! is ` x<k>` when the move captured `k` seeds (Kalah: put `k` in the store) and `+` when
//! the mover moves again (G5b, R2). The last line says how the line ends, in brackets.
//!
//! ```text
//! 1. S 5cw+  2. S pass ...
//! ```
//!
//! # Examples
//!
//! ```
//! use giuthi::line::{Line, LineEnd};
//! use giuthi::{Position, Rules};
//! use giuthi::rules::giuthi::Giuthi;
//! let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
//! let pv = ["5cw", "pass", "4cw"].map(|m| pos.rules.parse_move(m).unwrap());
//! let line = Line::replay(&pos, &pv);
//! assert!(matches!(line.end, LineEnd::GameOver { .. }));
//! assert_eq!(
//!     line.to_string(),
//!     "1. S 5cw  2. N pass  3. S 4cw x4 [game over: South 4, North 3: South wins by 1]"
//! );
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

use crate::position::Position;
use crate::rules::Rules;
use crate::types::{BySide, Side};
use std::collections::HashMap;
use std::fmt;

/// Plies written on one text line by [`Line`]'s `Display`.
const PLIES_PER_LINE: usize = 8;

/// One ply of a replayed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    /// The ply's number, from 1.
    pub number: usize,
    /// The side that moved.
    pub side: Side,
    /// The move in notation (N2).
    pub mv: String,
    /// Seeds the move captured (Kalah: put in the store).
    pub captured: u16,
    /// Whether the mover moves again.
    pub extra_move: bool,
}

/// How a replayed line ends.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineEnd {
    /// Neither side can move: the game is over, with these final scores (seeds each side
    /// keeps or has taken).
    GameOver {
        /// Final scores.
        scores: BySide<i32>,
    },
    /// Ply `ply` repeats the position after ply `first` (0: the starting position): the
    /// game ends in a draw (G10, K11).
    Repetition {
        /// The repeating ply.
        ply: usize,
        /// The ply whose position it repeats (0: the start).
        first: usize,
    },
    /// The line stops while the game goes on.
    Open,
    /// Move `ply` of the line is not legal where it stands (a bug of whoever made it).
    Illegal {
        /// The ply.
        ply: usize,
        /// The move.
        mv: String,
    },
}

/// A line replayed: its plies and its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The plies played.
    pub plies: Vec<Ply>,
    /// How the line ends.
    pub end: LineEnd,
}

impl Line {
    /// Replays `moves` from `pos`, noting each ply's mover, captures and extra move, and
    /// stops at the end of the game, at the first repeated position (board and turn) or
    /// at an illegal move.
    pub fn replay<R: Rules>(pos: &Position<R>, moves: &[R::Move]) -> Line {
        let mut seen: HashMap<R::State, usize> = HashMap::from([(pos.state, 0)]);
        let mut cur = pos.clone();
        let mut plies = Vec::with_capacity(moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            let number = i + 1;
            let side = cur.turn();
            let (next, child) = match cur.play_report(mv) {
                Ok(x) => x,
                Err(_) => {
                    return Line {
                        plies,
                        end: LineEnd::Illegal {
                            ply: number,
                            mv: mv.to_string(),
                        },
                    }
                }
            };
            plies.push(Ply {
                number,
                side,
                mv: child.mv.to_string(),
                captured: child.captured,
                extra_move: !child.turn_passes,
            });
            cur = next;
            if let Some(&first) = seen.get(&cur.state) {
                return Line {
                    plies,
                    end: LineEnd::Repetition { ply: number, first },
                };
            }
            seen.insert(cur.state, number);
        }
        let end = if cur.is_over() {
            LineEnd::GameOver {
                scores: cur.final_scores(),
            }
        } else {
            LineEnd::Open
        };
        Line { plies, end }
    }
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}. {} {}", self.number, self.side.letter(), self.mv)?;
        if self.captured > 0 {
            write!(f, " x{}", self.captured)?;
        }
        if self.extra_move {
            f.write_str("+")?;
        }
        Ok(())
    }
}

impl fmt::Display for LineEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineEnd::GameOver { scores } => {
                let (s, n) = (scores.south, scores.north);
                let verdict = match s.cmp(&n) {
                    std::cmp::Ordering::Greater => format!("South wins by {}", s - n),
                    std::cmp::Ordering::Less => format!("North wins by {}", n - s),
                    std::cmp::Ordering::Equal => "a draw".to_string(),
                };
                write!(f, "game over: South {s}, North {n}: {verdict}")
            }
            LineEnd::Repetition { ply, first } => {
                let what = if *first == 0 {
                    "the starting position".to_string()
                } else {
                    format!("the position after ply {first}")
                };
                write!(f, "draw by repetition: ply {ply} repeats {what} (G10)")
            }
            LineEnd::Open => f.write_str("the line stops here; the game goes on"),
            LineEnd::Illegal { ply, mv } => write!(f, "ply {ply}, {mv}, is not legal there"),
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.plies.iter().enumerate() {
            if i > 0 {
                f.write_str(if i % PLIES_PER_LINE == 0 {
                    "\n   "
                } else {
                    "  "
                })?;
            }
            write!(f, "{p}")?;
        }
        if !self.plies.is_empty() {
            f.write_str(" ")?;
        }
        write!(f, "[{}]", self.end)
    }
}
