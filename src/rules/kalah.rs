//! Kalah, the reference game for validation (RULES.md R1-R4).
//!
//! Pits are numbered as in Giuthi (North `0..m`, South `m..2m`, ccw = +1). South's store
//! stands after pit `2m-1`, North's after pit `m-1`; each side sows ccw into its own store
//! and skips the opponent's. The stores are the captured seeds of [`crate::Position`]
//! (written as the last field, `kalah <board> <turn> <stores>`).

use super::giuthi::{parse_pit_fields, GiuthiState, MAX_PITS_PER_ROW, MAX_SEEDS_ON_BOARD};
use super::{Child, IllegalMove, ParseMoveError, Rules};
use crate::index::BoardKeys;
use crate::notation::{write_rows, ParsePositionError};
use crate::position::Position;
use crate::types::Side;
use crate::value::Score;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The state of a Kalah position: pits and turn (stores excluded, RULES.md V2).
pub type KalahState = GiuthiState;

/// A Kalah move: the pit lifted (always sown ccw). Written as the pit number, `9`.
///
/// # Examples
///
/// ```
/// use giuthi::rules::kalah::KalahMove;
/// let m: KalahMove = "9".parse()?;
/// assert_eq!(m, KalahMove(9));
/// assert_eq!(m.to_string(), "9");
/// # Ok::<(), giuthi::rules::ParseMoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KalahMove(pub u8);

impl fmt::Display for KalahMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for KalahMove {
    type Err = ParseMoveError;
    fn from_str(text: &str) -> Result<KalahMove, ParseMoveError> {
        let num = text.strip_suffix("ccw").unwrap_or(text);
        let ok = !num.is_empty()
            && num.bytes().all(|b| b.is_ascii_digit())
            && !(num.len() > 1 && num.starts_with('0'));
        match num.parse::<u8>() {
            Ok(p) if ok && (p as usize) < 2 * MAX_PITS_PER_ROW => Ok(KalahMove(p)),
            _ => Err(ParseMoveError::Syntax {
                text: text.to_string(),
                reason: "expected a pit number such as 9 (Kalah sows ccw only)".to_string(),
            }),
        }
    }
}

/// The rules of Kalah with `m` pits a row (R1-R4).
///
/// # Examples
///
/// ```
/// use giuthi::rules::kalah::Kalah;
/// use giuthi::rules::Rules;
/// let k = Kalah::new(6)?;
/// let start = k.start(4);
/// let mut children = Vec::new();
/// k.children(&start, &mut children);
/// // 8 sows 4 seeds: 9, 10, 11 and the store: an extra move (R2).
/// let extra = children.iter().find(|c| c.mv.0 == 8).unwrap();
/// assert!(!extra.turn_passes);
/// assert_eq!(extra.captured, 1);
/// # Ok::<(), giuthi::ParsePositionError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Kalah {
    m: u8,
    keys: Arc<BoardKeys>,
}

impl PartialEq for Kalah {
    fn eq(&self, other: &Kalah) -> bool {
        self.m == other.m
    }
}
impl Eq for Kalah {}

impl Kalah {
    /// Kalah with `m` pits a row, `1 <= m <= 16`.
    ///
    /// # Errors
    ///
    /// [`ParsePositionError::Board`] when `m` is out of range.
    pub fn new(m: usize) -> Result<Kalah, ParsePositionError> {
        if !(1..=MAX_PITS_PER_ROW).contains(&m) {
            return Err(ParsePositionError::Board(format!(
                "{m} pits a row; Kalah takes 1 to {MAX_PITS_PER_ROW}"
            )));
        }
        Ok(Kalah {
            m: m as u8,
            keys: Arc::new(BoardKeys::new(2 * m, MAX_SEEDS_ON_BOARD)),
        })
    }

    /// The start position Kalah(m, seeds): every pit holds `seeds`, South to move.
    ///
    /// # Panics
    ///
    /// If the board would hold more than 255 seeds.
    pub fn start(&self, seeds: u8) -> KalahState {
        let n2 = 2 * self.m as usize;
        assert!(n2 as u32 * seeds as u32 <= MAX_SEEDS_ON_BOARD);
        let mut pits = [0u8; 2 * MAX_PITS_PER_ROW];
        pits[..n2].iter_mut().for_each(|p| *p = seeds);
        KalahState {
            pits,
            turn: Side::South,
        }
    }

    /// The pits of `side`'s row: North `0..m`, South `m..2m`.
    pub fn row(&self, side: Side) -> std::ops::Range<usize> {
        let m = self.m as usize;
        match side {
            Side::North => 0..m,
            Side::South => m..2 * m,
        }
    }

    fn is_over(&self, s: &KalahState) -> bool {
        Side::BOTH
            .iter()
            .any(|&side| self.row(side).all(|p| s.pits[p] == 0))
    }

    /// Sows `pit` for the side to move (R1-R3); the pit must be the mover's and non-empty.
    pub fn sow(&self, s: &KalahState, pit: usize) -> Child<Kalah> {
        let n2 = 2 * self.m as usize;
        let mover = s.turn;
        let own = self.row(mover);
        let last_own = own.end - 1;
        let mut b = s.pits;
        let mut h = b[pit] as u32;
        b[pit] = 0;
        let sown = h;
        let mut p = pit;
        let mut in_store = false;
        let mut captured = 0u32;
        // The pit after `q` on the ring (no division: this loop is the search's sowing).
        let next = |q: usize| if q + 1 == n2 { 0 } else { q + 1 };
        while h > 0 {
            if in_store {
                in_store = false;
                p = next(last_own);
                b[p] += 1;
            } else if p == last_own {
                in_store = true;
                captured += 1;
            } else {
                p = next(p);
                b[p] += 1;
            }
            h -= 1;
        }
        let turn_passes = if in_store {
            false // R2
        } else {
            if own.contains(&p) && b[p] == 1 {
                // R3: capture the landing seed and the opposite pit, even when it is empty.
                let opp = n2 - 1 - p;
                captured += 1 + b[opp] as u32;
                b[p] = 0;
                b[opp] = 0;
            }
            true
        };
        Child {
            mv: KalahMove(pit as u8),
            state: KalahState {
                pits: b,
                turn: if turn_passes { mover.opponent() } else { mover },
            },
            captured: captured as u16,
            turn_passes,
            laps: 1,
            sown,
        }
    }
}

impl Rules for Kalah {
    type State = KalahState;
    type Move = KalahMove;

    /// The pit number.
    #[inline]
    fn history_slot(&self, mv: &KalahMove) -> Option<usize> {
        Some(mv.0 as usize % super::HISTORY_SLOTS)
    }

    fn name(&self) -> &'static str {
        "kalah"
    }

    /// Irving's order: extra moves first, nearest the store first (docs/performance.md).
    fn extra_moves_first(&self) -> bool {
        true
    }

    /// Kalah never repeats: a move either puts a seed into a store or captures (R1, R3),
    /// lowering the seeds on the board, or stays in the mover's row and moves every sown
    /// seed nearer the mover's store, raising the sum over the board of each seed's
    /// distance from the start of its row; the pair (seeds, -sum) strictly decreases.
    fn can_repeat(&self) -> bool {
        false
    }

    fn pits_per_row(&self) -> usize {
        self.m as usize
    }

    #[inline]
    fn turn(&self, s: &KalahState) -> Side {
        s.turn
    }

    #[inline]
    fn seeds(&self, s: &KalahState, pit: usize) -> u32 {
        s.pits[pit] as u32
    }

    /// The mover's non-empty pits in index order; nothing once either row is empty (R4).
    fn children(&self, s: &KalahState, out: &mut Vec<Child<Kalah>>) {
        out.clear();
        if self.is_over(s) {
            return;
        }
        for p in self.row(s.turn) {
            if s.pits[p] > 0 {
                out.push(self.sow(s, p));
            }
        }
    }

    /// R4: each side adds its own row to its store.
    fn final_value(&self, s: &KalahState) -> Score {
        self.row_seeds(s, s.turn) as Score - self.row_seeds(s, s.turn.opponent()) as Score
    }

    fn play(&self, s: &KalahState, mv: KalahMove) -> Result<Child<Kalah>, IllegalMove> {
        let text = mv.to_string();
        let pit = mv.0 as usize;
        let n2 = 2 * self.m as usize;
        if pit >= n2 {
            return Err(IllegalMove::NoSuchPit {
                mv: text,
                pit,
                pits: n2,
            });
        }
        if self.is_over(s) {
            return Err(IllegalMove::GameOver { mv: text });
        }
        let own = self.row(s.turn);
        if !own.contains(&pit) {
            return Err(IllegalMove::NotYourPit {
                mv: text,
                pit,
                side: s.turn,
                first: own.start,
                last: own.end - 1,
            });
        }
        if s.pits[pit] == 0 {
            return Err(IllegalMove::TooFewSeeds {
                mv: text,
                pit,
                seeds: 0,
                unit: "seed",
                reason: "an empty pit cannot be sown (R1)",
            });
        }
        Ok(self.sow(s, pit))
    }

    fn parse_move(&self, text: &str) -> Result<KalahMove, ParseMoveError> {
        text.parse()
    }

    fn key(&self, s: &KalahState) -> u64 {
        self.keys.key(&s.pits[..2 * self.m as usize], s.turn)
    }

    fn exact_key_limit(&self) -> u32 {
        self.keys.exact_limit()
    }

    /// `kalah <board> <turn> <stores>` (N3; the stores are `<south>,<north>`).
    fn write_position(&self, pos: &Position<Kalah>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("kalah ")?;
        let m = self.m as usize;
        write_rows(f, pos.state.pits[..2 * m].iter().map(|&x| x as u32), m)?;
        write!(
            f,
            " {} {},{}",
            pos.state.turn.letter(),
            pos.captured.south,
            pos.captured.north
        )
    }

    fn parse_fields(variant: &str, fields: &[&str]) -> Result<Position<Kalah>, ParsePositionError> {
        if !variant.is_empty() {
            return Err(ParsePositionError::Other {
                field: "variant",
                reason: format!("Kalah has no variants, found {variant:?}"),
            });
        }
        let f = parse_pit_fields(fields, 1, "kalah <board> <turn> [<stores>]", "stores")?;
        Ok(Position::new(Kalah::new(f.n)?, f.state, f.pair))
    }
}
