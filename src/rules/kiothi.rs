//! Kiothi, the relay-sowing game of the Meru (RULES.md K1-K12).
//!
//! The rules value [`Kiothi`] holds the [`Variant`]; the state [`KiothiState`] holds the
//! warriors of the 20 pits, the nki and stale marks (bitsets), the turn and the opening
//! phase. The prisons are the `captured` of [`crate::Position`] (RULES.md V2: values never
//! depend on them).
//!
//! ```text
//!   North:   9   8   7   6   5   4   3   2   1   0     (as seen from South's seat)
//!   South:  10  11  12  13  14  15  16  17  18  19
//! ```
//!
//! # Opening positions
//!
//! In the phases [`Phase::Open1`] and [`Phase::Open2`] the move is a redistribution (K3);
//! there are far too many to list, so [`Rules::can_enumerate`] is `false` there and
//! [`Rules::children`] returns nothing. Solvers must refuse such positions (the empty child
//! list does NOT mean the game is over there); [`Rules::play`] validates and applies any
//! redistribution, and [`Kiothi::heuristic_redistribution`] proposes one (not exact).

use super::{Child, IllegalMove, ParseMoveError, Rules};
use crate::notation::{parse_count, parse_pair, parse_turn, ParsePositionError};
use crate::position::Position;
use crate::types::{BySide, Direction, Side};
use crate::value::Score;
use std::fmt;
use std::str::FromStr;

/// Pits in one row (K1).
pub const PITS_PER_ROW: usize = 10;
/// Pits on the board (K1).
pub const PITS: usize = 2 * PITS_PER_ROW;
/// The most warriors the board may hold in all (pits are bytes; no pit can overflow).
pub const MAX_WARRIORS_ON_BOARD: u32 = 255;
/// Warriors in each filled pit of the start position (K2).
pub const START_WARRIORS_PER_PIT: u8 = 5;

/// The start set-up of K2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Start {
    /// The default: 5 warriors in each of the six rightmost pits of each row.
    #[default]
    SixPits,
    /// Variant `start=5x5`: 5 warriors in each of the five rightmost pits.
    FivePits,
}

/// A rule variant of Kiothi (RULES.md K1, K2; notation N3): `start=6x5|5x5`, `dir=ccw|cw`.
///
/// `dir=cw` changes only the sowing direction (every lap runs `-1 (mod 20)`); the K9 bonus
/// keeps its pits (the leftmost pit, and the three pits of K9), as RULES.md writes them.
///
/// # Examples
///
/// ```
/// use giuthi::rules::kiothi::{Start, Variant};
/// let v: Variant = "start=5x5".parse()?;
/// assert_eq!(v.start, Start::FivePits);
/// assert_eq!(v.to_string(), "start=5x5");
/// assert_eq!(Variant::default().to_string(), "");
/// # Ok::<(), giuthi::ParsePositionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The start set-up (K2).
    pub start: Start,
    /// The sowing direction (K1; default ccw).
    pub dir: Direction,
}

impl Default for Variant {
    /// Six filled pits a row, sowing ccw.
    fn default() -> Variant {
        Variant {
            start: Start::SixPits,
            dir: Direction::Ccw,
        }
    }
}

impl FromStr for Variant {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Variant, ParsePositionError> {
        let bad = |reason: String| ParsePositionError::Other {
            field: "variant",
            reason,
        };
        let mut v = Variant::default();
        let mut seen = [false; 2];
        if s.is_empty() {
            return Ok(v);
        }
        for item in s.split(',') {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad(format!("expected key=value, found {item:?}")))?;
            let slot = match key {
                "start" => {
                    v.start = match value {
                        "6x5" => Start::SixPits,
                        "5x5" => Start::FivePits,
                        _ => return Err(bad(format!("start takes 6x5 or 5x5, found {value:?}"))),
                    };
                    0
                }
                "dir" => {
                    v.dir = match value {
                        "ccw" => Direction::Ccw,
                        "cw" => Direction::Cw,
                        _ => return Err(bad(format!("dir takes ccw or cw, found {value:?}"))),
                    };
                    1
                }
                _ => return Err(bad(format!("unknown key {key:?} (keys: start, dir)"))),
            };
            if seen[slot] {
                return Err(bad(format!("key {key} given twice")));
            }
            seen[slot] = true;
        }
        Ok(v)
    }
}

impl fmt::Display for Variant {
    /// The canonical form: defaults omitted, keys in the order start, dir.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<&str> = Vec::new();
        if self.start == Start::FivePits {
            parts.push("start=5x5");
        }
        if self.dir == Direction::Cw {
            parts.push("dir=cw");
        }
        f.write_str(&parts.join(","))
    }
}

/// The phase of a Kiothi game (K3, K12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// The first redistribution is due (`open1`).
    Open1,
    /// The second redistribution is due (`open2`).
    Open2,
    /// Ordinary sowing play (`play`).
    Play,
}

impl Phase {
    /// `open1`, `open2` or `play`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Open1 => "open1",
            Phase::Open2 => "open2",
            Phase::Play => "play",
        }
    }
}

/// A Kiothi move: a sowing (K5, with the K9 bonus taken or declined) or an opening
/// redistribution (K3).
///
/// # Format
///
/// `<pit>x<k>` lifts `k` warriors from `pit`; `<pit>x<k>b` is the same sowing with the K9
/// bonus taken; `r<a>,<b>:<pit>=<count>,...` empties pits `a` and `b` and places their
/// warriors as listed. The canonical form writes `a < b` and the placements sorted by pit.
///
/// # Examples
///
/// ```
/// use giuthi::rules::kiothi::KiothiMove;
/// let m: KiothiMove = "14x3b".parse()?;
/// assert_eq!(m, KiothiMove::Sow { pit: 14, k: 3, bonus: true });
/// let r: KiothiMove = "r15,14:9=4,3=6".parse()?;
/// assert_eq!(r.to_string(), "r14,15:3=6,9=4");
/// # Ok::<(), giuthi::rules::ParseMoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KiothiMove {
    /// Lift `k` warriors from `pit` and sow (K5-K8); `bonus` takes the K9 bonus.
    Sow {
        /// The pit lifted from.
        pit: u8,
        /// Warriors lifted (at least 1).
        k: u8,
        /// Whether the K9 bonus is taken.
        bonus: bool,
    },
    /// Empty pits `from[0] < from[1]` and place `place[p]` warriors in each pit `p` (K3).
    Redistribute {
        /// The two pits emptied, in increasing order.
        from: [u8; 2],
        /// Warriors placed per pit.
        place: [u8; PITS],
    },
}

impl fmt::Display for KiothiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KiothiMove::Sow { pit, k, bonus } => {
                write!(f, "{pit}x{k}{}", if *bonus { "b" } else { "" })
            }
            KiothiMove::Redistribute { from, place } => {
                write!(f, "r{},{}:", from[0], from[1])?;
                let mut first = true;
                for (p, &c) in place.iter().enumerate() {
                    if c > 0 {
                        if !first {
                            f.write_str(",")?;
                        }
                        first = false;
                        write!(f, "{p}={c}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl FromStr for KiothiMove {
    type Err = ParseMoveError;
    fn from_str(text: &str) -> Result<KiothiMove, ParseMoveError> {
        let syntax = |reason: String| ParseMoveError::Syntax {
            text: text.to_string(),
            reason,
        };
        let pit_num = |t: &str, what: &str| -> Result<u8, ParseMoveError> {
            let v = parse_count(t, (PITS - 1) as u64)
                .map_err(|e| syntax(format!("{what}: {e} (pits are 0..19)")))?;
            Ok(v as u8)
        };
        if let Some(rest) = text.strip_prefix('r') {
            let (pits, places) = rest.split_once(':').ok_or_else(|| {
                syntax("expected r<a>,<b>:<pit>=<count>,... (a redistribution, K3)".to_string())
            })?;
            let (a, b) = pits
                .split_once(',')
                .ok_or_else(|| syntax("expected the two pits emptied as r<a>,<b>".to_string()))?;
            let a = pit_num(a, "first pit emptied")?;
            let b = pit_num(b, "second pit emptied")?;
            if a == b {
                return Err(syntax(format!(
                    "the two pits emptied must differ, found {a} twice (N3)"
                )));
            }
            let mut place = [0u8; PITS];
            if places.is_empty() {
                return Err(syntax("no placements after ':'".to_string()));
            }
            for item in places.split(',') {
                let (p, c) = item
                    .split_once('=')
                    .ok_or_else(|| syntax(format!("placement {item:?}: expected <pit>=<count>")))?;
                let p = pit_num(p, "placement pit")?;
                let c =
                    parse_count(c, 255).map_err(|e| syntax(format!("placement {item:?}: {e}")))?;
                if c == 0 {
                    return Err(syntax(format!(
                        "placement {item:?}: each placement is at least 1 (N3)"
                    )));
                }
                if place[p as usize] != 0 {
                    return Err(syntax(format!("pit {p} is placed into twice (N3)")));
                }
                place[p as usize] = c as u8;
            }
            return Ok(KiothiMove::Redistribute {
                from: [a.min(b), a.max(b)],
                place,
            });
        }
        let (pit, rest) = text
            .split_once('x')
            .ok_or_else(|| syntax("expected <pit>x<k>, <pit>x<k>b or r<a>,<b>:...".to_string()))?;
        let pit = pit_num(pit, "pit")?;
        let (k, bonus) = match rest.strip_suffix('b') {
            Some(k) => (k, true),
            None => (rest, false),
        };
        let k = parse_count(k, 255).map_err(|e| syntax(format!("warriors lifted: {e}")))?;
        if k == 0 {
            return Err(syntax("a move lifts at least 1 warrior (K5)".to_string()));
        }
        Ok(KiothiMove::Sow {
            pit,
            k: k as u8,
            bonus,
        })
    }
}

/// The store-independent core of a Kiothi position (RULES.md V2, K12): warriors per pit,
/// the nki and stale marks, the turn and the phase.
///
/// Invariant (checked when parsing): an nki pit is occupied (the mark leaves a pit when
/// warriors are lifted from it, and nki pits are never captured), and no pit is nki before
/// the play phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KiothiState {
    /// Warriors per pit, RULES.md numbering.
    pub pits: [u8; PITS],
    /// Bit `p` set: pit `p` is nki (protected, K4).
    pub nki: u32,
    /// Bit `p` set: pit `p` is stale (filled at the start and not sown into since, K9, K12).
    pub stale: u32,
    /// The side to move.
    pub turn: Side,
    /// The opening phase.
    pub phase: Phase,
}

/// A sowing the rules forbid (K6, K11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SowError {
    /// The first lap ends in an occupied pit of the mover's row (K6).
    FirstLap {
        /// Where the first lap ended.
        pit: usize,
    },
    /// The sowing never ends (K11, as G7); detected after `laps` laps.
    Endless {
        /// Laps sown until the repeat was detected.
        laps: u64,
    },
}

/// What a legal sowing did, before the K9 choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sowing {
    /// The state after the sowing and its K8 capture, bonus declined, turn passed.
    pub state: KiothiState,
    /// Warriors captured by K8 (the opposite pit plus the capturing warrior; 0 if none).
    pub captured: u32,
    /// Warriors the K9 bonus would add, when it is available.
    pub bonus: Option<u32>,
    /// Laps sown.
    pub laps: u64,
    /// Warriors dropped, all laps together.
    pub sown: u64,
    /// The pit the last lap ended in.
    pub last: usize,
}

/// The rules of Kiothi for one variant.
///
/// # Examples
///
/// ```
/// use giuthi::rules::kiothi::{Kiothi, Variant};
/// use giuthi::Position;
/// let k = Kiothi::new(Variant::default());
/// let start = k.start_position();
/// assert_eq!(
///     start.to_string(),
///     "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1"
/// );
/// let next = start.play_str("r14,15:10=5,11=5")?;
/// assert_eq!(next.to_string(),
///     "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/5,5,0,0,0s,0s,5s,5s,5s,5s N 0,0 open2");
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Kiothi {
    variant: Variant,
}

#[inline]
fn bit(p: usize) -> u32 {
    1u32 << p
}

/// Laps between two calls of the stop test of [`Kiothi::sow_within`] (a fraction of a
/// millisecond of sowing).
pub const SOW_STOP_INTERVAL: u64 = 1 << 16;

/// The 20 pits of a board packed one byte a pit into two integers (pits 0-15 in `lo`,
/// 16-19 in `hi`), so that a lap of any length is one addition of a precomputed mask
/// (K5, K7). No byte can carry into the next: a pit holds at most the board's warriors,
/// which are at most [`MAX_WARRIORS_ON_BOARD`] = 255.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PackedBoard {
    lo: u128,
    hi: u32,
}

/// `LAP_MASKS[start][len]`: a 1 in the byte of each of the `len` pits from `start` on,
/// increasing and wrapping at 20.
const LAP_MASKS: [[PackedBoard; PITS]; PITS] = {
    let mut t = [[PackedBoard { lo: 0, hi: 0 }; PITS]; PITS];
    let mut start = 0;
    while start < PITS {
        let mut len = 0;
        while len < PITS {
            let mut m = PackedBoard { lo: 0, hi: 0 };
            let mut i = 0;
            while i < len {
                let p = (start + i) % PITS;
                if p < 16 {
                    m.lo |= 1u128 << (8 * p);
                } else {
                    m.hi |= 1u32 << (8 * (p - 16));
                }
                i += 1;
            }
            t[start][len] = m;
            len += 1;
        }
        start += 1;
    }
    t
};

impl PackedBoard {
    #[inline]
    fn new(b: &[u8; PITS]) -> PackedBoard {
        let mut lo = [0u8; 16];
        lo.copy_from_slice(&b[..16]);
        let mut hi = [0u8; 4];
        hi.copy_from_slice(&b[16..]);
        PackedBoard {
            lo: u128::from_le_bytes(lo),
            hi: u32::from_le_bytes(hi),
        }
    }

    #[inline]
    fn unpack(self) -> [u8; PITS] {
        let mut b = [0u8; PITS];
        b[..16].copy_from_slice(&self.lo.to_le_bytes());
        b[16..].copy_from_slice(&self.hi.to_le_bytes());
        b
    }

    #[inline]
    fn get(self, p: usize) -> u8 {
        if p < 16 {
            (self.lo >> (8 * p)) as u8
        } else {
            (self.hi >> (8 * (p - 16))) as u8
        }
    }

    #[inline]
    fn clear(&mut self, p: usize) {
        if p < 16 {
            self.lo &= !(0xFFu128 << (8 * p));
        } else {
            self.hi &= !(0xFFu32 << (8 * (p - 16)));
        }
    }

    /// One lap of `hand` warriors from the pit after `at` (`ccw`: increasing pits, else
    /// decreasing), clearing the stale marks of the pits sown into (K12); returns the last
    /// pit (`at` itself when `hand` is a multiple of 20).
    #[inline]
    fn lap(&mut self, stale: &mut u32, at: usize, hand: u32, ccw: bool) -> usize {
        let rounds = hand / PITS as u32;
        let rem = (hand % PITS as u32) as usize;
        if rounds > 0 {
            // A 1 in every byte (u128::MAX / 255 = 0x0101...01), times the rounds.
            self.lo = self.lo.wrapping_add((u128::MAX / 255) * rounds as u128);
            self.hi = self.hi.wrapping_add((u32::MAX / 255) * rounds);
            *stale = 0;
        }
        if rem == 0 {
            return at;
        }
        let (start, last) = if ccw {
            let start = if at + 1 == PITS { 0 } else { at + 1 };
            (start, (at + rem) % PITS)
        } else {
            let start = (at + PITS - rem) % PITS;
            (start, start)
        };
        let m = LAP_MASKS[start][rem];
        self.lo = self.lo.wrapping_add(m.lo);
        self.hi = self.hi.wrapping_add(m.hi);
        let bits = ((1u64 << rem) - 1) << start;
        *stale &= !(((bits | (bits >> PITS)) & ((1 << PITS) - 1)) as u32);
        last
    }
}

impl Kiothi {
    /// The rules of the given variant.
    pub fn new(variant: Variant) -> Kiothi {
        Kiothi { variant }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The start position of K2 for this variant: 5 warriors in each of the six (five)
    /// rightmost pits of each row, all of them stale, South to redistribute (`open1`).
    pub fn start(&self) -> KiothiState {
        let filled = match self.variant.start {
            Start::SixPits => 6,
            Start::FivePits => 5,
        };
        let mut pits = [0u8; PITS];
        let mut stale = 0u32;
        for side in Side::BOTH {
            let row = self.row(side);
            pits[row.end - filled..row.end].fill(START_WARRIORS_PER_PIT);
            stale |= (row.end - filled..row.end).fold(0, |m, p| m | bit(p));
        }
        KiothiState {
            pits,
            nki: 0,
            stale,
            turn: Side::South,
            phase: Phase::Open1,
        }
    }

    /// The start position with empty prisons.
    pub fn start_position(&self) -> Position<Kiothi> {
        Position::new(*self, self.start(), BySide::default())
    }

    /// `opposite(p) = 19-p`.
    #[inline]
    pub fn opposite(&self, pit: usize) -> usize {
        PITS - 1 - pit
    }

    /// The side owning `pit`: North `0..10`, South `10..20`.
    #[inline]
    pub fn owner(&self, pit: usize) -> Side {
        if pit < PITS_PER_ROW {
            Side::North
        } else {
            Side::South
        }
    }

    /// The pits of `side`'s row, in index order (leftmost first from its own seat).
    pub fn row(&self, side: Side) -> std::ops::Range<usize> {
        match side {
            Side::North => 0..PITS_PER_ROW,
            Side::South => PITS_PER_ROW..PITS,
        }
    }

    /// `side`'s leftmost pit (K9): North 0, South 10.
    pub fn leftmost(&self, side: Side) -> usize {
        self.row(side).start
    }

    /// The three pits of the K9 bonus for a capture in `side`'s leftmost pit: the pits
    /// beyond the opposite pit (South: 8, 7, 6; North: 18, 17, 16).
    pub fn bonus_pits(&self, side: Side) -> [usize; 3] {
        let o = self.opposite(self.leftmost(side));
        [o - 1, o - 2, o - 3]
    }

    /// Drops one lap of `hand` warriors from the pit after `at` in the sowing direction,
    /// clearing the stale marks of the pits sown into (K12); returns the last pit.
    #[inline]
    fn drop_lap(&self, b: &mut [u8; PITS], stale: &mut u32, at: usize, hand: u32) -> usize {
        let rounds = hand / PITS as u32;
        let rem = (hand % PITS as u32) as usize;
        if rounds > 0 {
            for x in b.iter_mut() {
                *x += rounds as u8;
            }
            *stale = 0;
        }
        let mut p = at;
        match self.variant.dir {
            Direction::Ccw => {
                for _ in 0..rem {
                    p = if p + 1 == PITS { 0 } else { p + 1 };
                    b[p] += 1;
                    *stale &= !bit(p);
                }
            }
            Direction::Cw => {
                for _ in 0..rem {
                    p = if p == 0 { PITS - 1 } else { p - 1 };
                    b[p] += 1;
                    *stale &= !bit(p);
                }
            }
        }
        p
    }

    /// Sows `k` warriors from `pit` for the side to move (K5-K9, K11), without checking that
    /// the pit is the mover's, that it holds `k` warriors or that the phase is `play`.
    ///
    /// The endless test is exact, in constant memory with no allocation, on the relay state
    /// (board, pit in hand, warriors in hand) from the first relay on. Each relay state is
    /// compared with the first one (RULES.md "Notes for implementers": while every lap is
    /// shorter than 20 the lap map is injective, so an endless sowing returns exactly to its
    /// first relay state, and is caught at that lap) and with Brent's saved state (which
    /// catches every cycle, also one entered after a lap of 20 or more). The marks need not
    /// be compared: they only ever leave pits, and the laps do not depend on them.
    ///
    /// An endless sowing may run for millions of laps before it returns (RULES.md K11's
    /// example: 12,337,701); each lap costs a few additions on the board packed into two
    /// integers (one byte a pit, see `PackedBoard`), whatever its length.
    /// [`Kiothi::sow_within`] can give up a long sowing.
    ///
    /// # Errors
    ///
    /// [`SowError::FirstLap`] (K6) or [`SowError::Endless`] (K11).
    pub fn sow(&self, s: &KiothiState, pit: usize, k: u32) -> Result<Sowing, SowError> {
        match self.sow_inner(s, pit, k, &mut || false) {
            Some(r) => r,
            None => unreachable!("a sowing that is never stopped is decided"),
        }
    }

    /// [`Kiothi::sow`], giving up when `stop` returns true: `stop` is asked every
    /// [`SOW_STOP_INTERVAL`] laps (so a sowing shorter than that is always decided), and
    /// `None` means the sowing was given up before it ended or was found endless (K11): it
    /// is then neither known legal nor known illegal. For callers with a clock (the anytime
    /// search), never for an exact value.
    ///
    /// ```
    /// use giuthi::rules::kiothi::Kiothi;
    /// use giuthi::Position;
    /// // RULES.md K11: 14x6 here returns to its first relay state after 12,337,701 laps.
    /// let p: Position<Kiothi> =
    ///     "kiothi 3,2,1,5,1,3,4,1,4,6/2,1,5,2,9,1,7,2,1,0 S 0,0 play".parse()?;
    /// assert_eq!(p.rules.sow_within(&p.state, 14, 6, || true), None);
    /// assert!(p.rules.sow_within(&p.state, 14, 5, || true).is_some_and(|r| r.is_ok()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sow_within(
        &self,
        s: &KiothiState,
        pit: usize,
        k: u32,
        mut stop: impl FnMut() -> bool,
    ) -> Option<Result<Sowing, SowError>> {
        self.sow_inner(s, pit, k, &mut stop)
    }

    #[inline]
    fn sow_inner<F: FnMut() -> bool>(
        &self,
        s: &KiothiState,
        pit: usize,
        k: u32,
        stop: &mut F,
    ) -> Option<Result<Sowing, SowError>> {
        let mover = s.turn;
        let own = self.row(mover);
        let mut pits = s.pits;
        let mut nki = s.nki & !bit(pit); // K4/K12: lifting removes the mark
        let mut stale = s.stale;
        pits[pit] -= k as u8;
        let mut b = PackedBoard::new(&pits);
        let ccw = self.variant.dir == Direction::Ccw;
        let mut at = pit;
        let mut hand = k;
        let mut laps: u64 = 0;
        let mut sown: u64 = 0;
        let mut first = true;
        let mut saved = (b, at, hand);
        let mut origin = saved;
        let mut power: u64 = 1;
        let mut lam: u64 = 0;
        loop {
            laps += 1;
            sown += hand as u64;
            let last = b.lap(&mut stale, at, hand, ccw);
            let in_last = b.get(last);
            if in_last > 1 {
                if first && own.contains(&last) {
                    return Some(Err(SowError::FirstLap { pit: last })); // K6
                }
                // K7 relay: lift the whole pit (its nki mark goes) and sow on.
                hand = in_last as u32;
                b.clear(last);
                nki &= !bit(last);
                at = last;
                if first {
                    first = false;
                    saved = (b, at, hand);
                    origin = saved;
                    continue;
                }
                if (b, at, hand) == saved || (b, at, hand) == origin {
                    return Some(Err(SowError::Endless { laps }));
                }
                lam += 1;
                if lam == power {
                    saved = (b, at, hand);
                    power *= 2;
                    lam = 0;
                }
                if laps % SOW_STOP_INTERVAL == 0 && stop() {
                    return None;
                }
                continue;
            }
            // K8: the lap ended in an empty pit.
            let mut b = b.unpack();
            let mut captured = 0u32;
            let mut bonus = None;
            let o = self.opposite(last);
            if own.contains(&last) && b[o] > 0 && nki & bit(o) == 0 {
                captured = b[o] as u32 + 1;
                b[o] = 0;
                b[last] = 0;
                if last == self.leftmost(mover) {
                    // K9, judged on the board after the K8 capture.
                    let three = self.bonus_pits(mover);
                    if three
                        .iter()
                        .all(|&q| b[q] > 0 && (nki | stale) & bit(q) == 0)
                    {
                        bonus = Some(three.iter().map(|&q| b[q] as u32).sum());
                    }
                }
            }
            return Some(Ok(Sowing {
                state: KiothiState {
                    pits: b,
                    nki,
                    stale,
                    turn: mover.opponent(),
                    phase: Phase::Play,
                },
                captured,
                bonus,
                laps,
                sown,
                last,
            }));
        }
    }

    /// The K9 bonus applied to a sowing's result: the three pits emptied.
    fn take_bonus(&self, mover: Side, st: &KiothiState) -> KiothiState {
        let mut t = *st;
        for q in self.bonus_pits(mover) {
            t.pits[q] = 0;
        }
        t
    }

    fn child(
        &self,
        pit: usize,
        k: u32,
        bonus: bool,
        st: KiothiState,
        captured: u32,
        sw: &Sowing,
    ) -> Child<Kiothi> {
        Child {
            mv: KiothiMove::Sow {
                pit: pit as u8,
                k: k as u8,
                bonus,
            },
            state: st,
            captured: captured as u16,
            turn_passes: true,
            laps: sw.laps.min(u32::MAX as u64) as u32,
            sown: sw.sown.min(u32::MAX as u64) as u32,
        }
    }

    /// [`Rules::children`] with every sowing given up when `stop` returns true (asked every
    /// [`SOW_STOP_INTERVAL`] laps, see [`Kiothi::sow_within`]): `out` gets the legal moves
    /// whose sowing was decided, in the order of `children`; returns how many lifts
    /// `(pit, k)` were given up undecided (0: `out` is exactly what `children` gives).
    pub fn children_within(
        &self,
        s: &KiothiState,
        out: &mut Vec<Child<Kiothi>>,
        stop: impl FnMut() -> bool,
    ) -> usize {
        self.children_within_inner(s, out, stop, false)
    }

    /// [`Kiothi::children_within`] for a mover who must move (the root of a search with a
    /// clock, docs/anytime.md): `stop` is not obeyed while `out` is still empty, so the
    /// lifts are sown in order, each to its end, until one is legal; from then on as in
    /// `children_within`. `out` is empty only when the mover has no legal sowing (K10;
    /// the return is then 0).
    ///
    /// ```
    /// use giuthi::rules::kiothi::Kiothi;
    /// use giuthi::Position;
    /// // RULES.md K11's example: 14x6 and 14x8 are sowings of millions of laps.
    /// let p: Position<Kiothi> =
    ///     "kiothi 3,2,1,5,1,3,4,1,4,6/2,1,5,2,9,1,7,2,1,0 S 0,0 play".parse()?;
    /// let mut kids = Vec::new();
    /// let undecided = p.rules.children_within_one(&p.state, &mut kids, || true);
    /// assert!(!kids.is_empty() && undecided > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn children_within_one(
        &self,
        s: &KiothiState,
        out: &mut Vec<Child<Kiothi>>,
        stop: impl FnMut() -> bool,
    ) -> usize {
        self.children_within_inner(s, out, stop, true)
    }

    fn children_within_inner(
        &self,
        s: &KiothiState,
        out: &mut Vec<Child<Kiothi>>,
        mut stop: impl FnMut() -> bool,
        need_one: bool,
    ) -> usize {
        out.clear();
        if s.phase != Phase::Play {
            return 0;
        }
        let mut undecided = 0;
        for p in self.row(s.turn) {
            for k in 1..=s.pits[p] as u32 {
                let known = !out.is_empty();
                let mut stop_now = || (known || !need_one) && stop();
                match self.sow_inner(s, p, k, &mut stop_now) {
                    Some(Ok(sw)) => {
                        out.push(self.child(p, k, false, sw.state, sw.captured, &sw));
                        if let Some(extra) = sw.bonus {
                            let st = self.take_bonus(s.turn, &sw.state);
                            out.push(self.child(p, k, true, st, sw.captured + extra, &sw));
                        }
                    }
                    Some(Err(_)) => {}
                    None => undecided += 1,
                }
            }
        }
        undecided
    }

    /// Whether `side` has a legal sowing on the board of `s` (K5, K6, K11), the turn and
    /// phase of `s` ignored.
    pub fn has_legal_sowing(&self, s: &KiothiState, side: Side) -> bool {
        let t = KiothiState { turn: side, ..*s };
        self.row(side)
            .any(|p| (1..=t.pits[p] as u32).any(|k| self.sow(&t, p, k).is_ok()))
    }

    /// Validates a redistribution for the side to move (K3, N3) and returns the state after
    /// it: the two pits emptied, the warriors placed, the turn passed, the phase advanced;
    /// after the second redistribution every occupied pit is marked nki (K4). Stale marks
    /// stay (placing is not sowing, K12).
    ///
    /// # Errors
    ///
    /// A message saying which condition fails.
    pub fn redistribute(
        &self,
        s: &KiothiState,
        from: [u8; 2],
        place: &[u8; PITS],
    ) -> Result<KiothiState, String> {
        let next = match s.phase {
            Phase::Open1 => Phase::Open2,
            Phase::Open2 => Phase::Play,
            Phase::Play => {
                return Err("the opening is over: redistributions are only made in the phases open1 and open2 (K3)".to_string())
            }
        };
        let own = self.row(s.turn);
        let [a, b] = [from[0] as usize, from[1] as usize];
        if a == b {
            return Err(format!(
                "the two pits emptied must differ, found {a} twice (K3)"
            ));
        }
        for p in [a, b] {
            if p >= PITS {
                return Err(format!("there is no pit {p} (pits are 0..19)"));
            }
            if !own.contains(&p) {
                return Err(format!(
                    "pit {p} is not {}'s; {} owns pits {}..={} (K3)",
                    s.turn,
                    s.turn,
                    own.start,
                    own.end - 1
                ));
            }
            if s.pits[p] == 0 {
                return Err(format!(
                    "pit {p} is empty; a redistribution empties two occupied pits (K3)"
                ));
            }
        }
        let lifted = s.pits[a] as u32 + s.pits[b] as u32;
        let placed: u32 = place.iter().map(|&c| c as u32).sum();
        if placed != lifted {
            return Err(format!(
                "the placements add up to {placed}, but pits {a} and {b} hold {lifted} (K3)"
            ));
        }
        let mut t = *s;
        t.pits[a] = 0;
        t.pits[b] = 0;
        for (x, &c) in t.pits.iter_mut().zip(place.iter()) {
            *x += c;
        }
        t.turn = s.turn.opponent();
        t.phase = next;
        if next == Phase::Play {
            t.nki = (0..PITS)
                .filter(|&p| t.pits[p] > 0)
                .fold(0, |m, p| m | bit(p));
        }
        Ok(t)
    }

    /// A heuristic redistribution for `bestmove` on an opening position: **not exact**.
    ///
    /// Candidates: every pair `a < b` of the mover's occupied pits, with the lifted warriors
    /// either all placed in one pit (each of the 20 pits) or dealt one per pit as a sowing
    /// from `a` would. Each candidate is scored on the board it leaves by *first-lap
    /// mobility*: the number of (pit, k) lifts of the mover whose first lap does not break
    /// K6, minus the same count for the opponent (relays are not followed, so the score is
    /// cheap and never runs into a long sowing). The highest score wins; ties go to the
    /// first candidate in the order above. `None` outside the opening phases.
    pub fn heuristic_redistribution(&self, s: &KiothiState) -> Option<KiothiMove> {
        if s.phase == Phase::Play {
            return None;
        }
        let own: Vec<usize> = self.row(s.turn).filter(|&p| s.pits[p] > 0).collect();
        let mut best: Option<(i64, KiothiMove)> = None;
        for (i, &a) in own.iter().enumerate() {
            for &b in &own[i + 1..] {
                let lifted = s.pits[a] as u32 + s.pits[b] as u32;
                let mut cands = Vec::new();
                for t in 0..PITS {
                    let mut place = [0u8; PITS];
                    place[t] = lifted as u8;
                    cands.push(place);
                }
                let mut place = [0u8; PITS];
                let mut p = a;
                for _ in 0..lifted {
                    p = self.step(p);
                    place[p] += 1;
                }
                cands.push(place);
                for place in cands {
                    let mv = KiothiMove::Redistribute {
                        from: [a as u8, b as u8],
                        place,
                    };
                    let Ok(t) = self.redistribute(s, [a as u8, b as u8], &place) else {
                        continue;
                    };
                    let score = self.first_lap_mobility(&t.pits, s.turn)
                        - self.first_lap_mobility(&t.pits, s.turn.opponent());
                    if best.as_ref().map_or(true, |(v, _)| score > *v) {
                        best = Some((score, mv));
                    }
                }
            }
        }
        best.map(|(_, m)| m)
    }

    fn step(&self, p: usize) -> usize {
        match self.variant.dir {
            Direction::Ccw => (p + 1) % PITS,
            Direction::Cw => (p + PITS - 1) % PITS,
        }
    }

    /// Lifts `(pit, k)` of `side` whose first lap does not end in an occupied own pit (K6).
    fn first_lap_mobility(&self, b: &[u8; PITS], side: Side) -> i64 {
        let own = self.row(side);
        let mut count = 0;
        for p in own.clone() {
            for k in 1..=b[p] as usize {
                let mut last = p;
                for _ in 0..k % PITS {
                    last = self.step(last);
                }
                // Warriors in `last` before the last one fell: its own count (less the
                // lift if it is the origin) plus the earlier drops of this lap.
                let lifted_here = if last == p { k } else { 0 };
                let earlier_drops = k / PITS - usize::from(k % PITS == 0);
                let before = b[last] as usize - lifted_here + earlier_drops;
                if !(own.contains(&last) && before > 0) {
                    count += 1;
                }
            }
        }
        count
    }

    /// The final value of K10 for the side to move when it has no legal sowing: every
    /// warrior on the board goes to the opponent's prison, unless the opponent has no legal
    /// sowing on this board either ("neither could move"), in which case each side takes
    /// its own row.
    fn sweep_value(&self, s: &KiothiState) -> Score {
        let opp = s.turn.opponent();
        if self.has_legal_sowing(s, opp) {
            -(self.seeds_on_board(s) as Score)
        } else {
            self.row_seeds(s, s.turn) as Score - self.row_seeds(s, opp) as Score
        }
    }

    /// The warriors each side gains from the K10 sweep of a finished game (the final prisons
    /// are the prisons plus these). `None` when the game is not over.
    pub fn sweep(&self, s: &KiothiState) -> Option<BySide<u16>> {
        if s.phase != Phase::Play || self.has_legal_sowing(s, s.turn) {
            return None;
        }
        let opp = s.turn.opponent();
        let mut out = BySide::default();
        if self.has_legal_sowing(s, opp) {
            out[opp] = self.seeds_on_board(s) as u16;
        } else {
            out[s.turn] = self.row_seeds(s, s.turn) as u16;
            out[opp] = self.row_seeds(s, opp) as u16;
        }
        Some(out)
    }

    /// Laps sown (the first lap included) when an endless sowing first returns to its first
    /// relay state (a diagnostic
    /// for the measurements of RULES.md "Notes for implementers"; the lap map of relays is
    /// injective there, so an endless sowing does return to it). `None` when the sowing ends,
    /// breaks K6, or has not returned within `max_laps`.
    pub fn return_laps(&self, s: &KiothiState, pit: usize, k: u32, max_laps: u64) -> Option<u64> {
        let mut b = s.pits;
        let mut stale = s.stale;
        b[pit] -= k as u8;
        let mut hand = k;
        let last = self.drop_lap(&mut b, &mut stale, pit, hand);
        if b[last] <= 1 || self.row(s.turn).contains(&last) {
            return None;
        }
        hand = b[last] as u32;
        b[last] = 0;
        let first = (b, last, hand);
        let mut at = last;
        let mut laps = 1u64;
        while laps < max_laps {
            laps += 1;
            let l = self.drop_lap(&mut b, &mut stale, at, hand);
            if b[l] <= 1 {
                return None;
            }
            hand = b[l] as u32;
            b[l] = 0;
            at = l;
            if (b, at, hand) == first {
                return Some(laps);
            }
        }
        None
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rules for Kiothi {
    type State = KiothiState;
    type Move = KiothiMove;

    fn name(&self) -> &'static str {
        "kiothi"
    }

    fn pits_per_row(&self) -> usize {
        PITS_PER_ROW
    }

    #[inline]
    fn turn(&self, s: &KiothiState) -> Side {
        s.turn
    }

    #[inline]
    fn seeds(&self, s: &KiothiState, pit: usize) -> u32 {
        s.pits[pit] as u32
    }

    #[inline]
    fn seeds_on_board(&self, s: &KiothiState) -> u32 {
        s.pits.iter().map(|&x| x as u32).sum()
    }

    /// In the play phase: every legal sowing, pits of the mover's row in index order, `k`
    /// increasing, the bonus declined (`<pit>x<k>`) before the bonus taken (`<pit>x<k>b`);
    /// empty exactly when the mover has no legal sowing (K10: the game is over; Kiothi has
    /// no pass). In the opening phases: empty, see [`Rules::can_enumerate`].
    fn children(&self, s: &KiothiState, out: &mut Vec<Child<Kiothi>>) {
        let undecided = self.children_within(s, out, || false);
        debug_assert_eq!(undecided, 0);
    }

    /// [`Kiothi::children_within`]: `stop` is asked every [`SOW_STOP_INTERVAL`] laps of a
    /// long sowing (K11).
    fn children_until(
        &self,
        s: &KiothiState,
        out: &mut Vec<Child<Kiothi>>,
        stop: &mut dyn FnMut() -> bool,
    ) -> usize {
        self.children_within(s, out, stop)
    }

    /// [`Kiothi::children_within_one`].
    fn children_until_one(
        &self,
        s: &KiothiState,
        out: &mut Vec<Child<Kiothi>>,
        stop: &mut dyn FnMut() -> bool,
    ) -> usize {
        self.children_within_one(s, out, stop)
    }

    /// `false` in the opening phases (`open1`, `open2`): the redistributions are too many
    /// to list, and [`Rules::children`] is empty there although the game is not over.
    fn can_enumerate(&self, s: &KiothiState) -> bool {
        s.phase == Phase::Play
    }

    /// K10: the mover has no legal move. If the opponent could move on this board, every
    /// warrior left goes to the opponent's prison (`-warriors on board`); if neither could,
    /// each side takes its own row. 0 in the opening phases (not a finished game).
    fn final_value(&self, s: &KiothiState) -> Score {
        if s.phase != Phase::Play {
            return 0;
        }
        self.sweep_value(s)
    }

    fn play(&self, s: &KiothiState, mv: KiothiMove) -> Result<Child<Kiothi>, IllegalMove> {
        let text = mv.to_string();
        let other = |reason: String| IllegalMove::Other {
            mv: text.clone(),
            reason,
        };
        match mv {
            KiothiMove::Redistribute { from, place } => {
                let st = self.redistribute(s, from, &place).map_err(other)?;
                Ok(Child {
                    mv,
                    state: st,
                    captured: 0,
                    turn_passes: true,
                    laps: 0,
                    sown: 0,
                })
            }
            KiothiMove::Sow { pit, k, bonus } => {
                let pit = pit as usize;
                let k = k as u32;
                if pit >= PITS {
                    return Err(IllegalMove::NoSuchPit {
                        mv: text,
                        pit,
                        pits: PITS,
                    });
                }
                if s.phase != Phase::Play {
                    return Err(other(format!(
                        "a redistribution is due ({}): r<a>,<b>:<pit>=<count>,... (K3)",
                        s.phase.as_str()
                    )));
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
                if k == 0 || k > s.pits[pit] as u32 {
                    return Err(IllegalMove::TooFewSeeds {
                        mv: text,
                        pit,
                        seeds: s.pits[pit] as u32,
                        unit: "warrior",
                        reason: "a move lifts 1 to all of the pit's warriors (K5)",
                    });
                }
                match self.sow(s, pit, k) {
                    Err(SowError::FirstLap { pit: q }) => Err(other(format!(
                        "the first lap ends in pit {q}, an occupied pit of the mover's row (K6)"
                    ))),
                    Err(SowError::Endless { laps }) => Err(IllegalMove::Endless { mv: text, laps }),
                    Ok(sw) => match (bonus, sw.bonus) {
                        (false, _) => Ok(self.child(pit, k, false, sw.state, sw.captured, &sw)),
                        (true, Some(extra)) => {
                            let st = self.take_bonus(s.turn, &sw.state);
                            Ok(self.child(pit, k, true, st, sw.captured + extra, &sw))
                        }
                        (true, None) => Err(other(
                            "the leftmost bonus is not available after this sowing (K9)"
                                .to_string(),
                        )),
                    },
                }
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<KiothiMove, ParseMoveError> {
        text.parse()
    }

    /// A 64-bit hash of warriors, marks, turn and phase (not exact:
    /// [`Rules::exact_key_limit`] is 0; with no warriors on the board the key is an exact
    /// packing of the stale marks, turn and phase).
    fn key(&self, s: &KiothiState) -> u64 {
        let tail = s.stale as u64 | (s.turn.index() as u64) << 20 | (s.phase as u64) << 21;
        if s.pits.iter().all(|&x| x == 0) {
            return tail;
        }
        let mut w = [0u8; 24];
        w[..PITS].copy_from_slice(&s.pits);
        let mut h = 0x9e37_79b9_7f4a_7c15u64;
        for c in w.chunks_exact(8) {
            h = mix(h ^ u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        mix(h ^ tail ^ (s.nki as u64) << 32) | 1 << 63
    }

    fn exact_key_limit(&self) -> u32 {
        0
    }

    /// `kiothi[:<variant>] <board> <turn> <prisons> <phase>` (N3, docs/rules.md).
    fn write_position(&self, pos: &Position<Kiothi>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.variant.to_string();
        if v.is_empty() {
            f.write_str("kiothi ")?;
        } else {
            write!(f, "kiothi:{v} ")?;
        }
        for p in 0..PITS {
            if p == PITS_PER_ROW {
                f.write_str("/")?;
            } else if p > 0 {
                f.write_str(",")?;
            }
            f.write_str(&self.pit_label(&pos.state, p))?;
        }
        write!(
            f,
            " {} {},{} {}",
            pos.state.turn.letter(),
            pos.captured.south,
            pos.captured.north,
            pos.state.phase.as_str()
        )
    }

    fn parse_fields(
        variant: &str,
        fields: &[&str],
    ) -> Result<Position<Kiothi>, ParsePositionError> {
        if fields.len() != 4 {
            return Err(ParsePositionError::Fields {
                field: "position",
                reason: format!(
                    "expected `kiothi <board> <turn> <prisons> <phase>`, found {} field(s) after the game name",
                    fields.len()
                ),
            });
        }
        let variant: Variant = variant.parse()?;
        let board = |m: String| ParsePositionError::Board(m);
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 2 {
            return Err(board(format!(
                "expected two rows separated by one '/', found {} row(s)",
                rows.len()
            )));
        }
        let mut state = KiothiState {
            pits: [0; PITS],
            nki: 0,
            stale: 0,
            turn: Side::South,
            phase: Phase::Play,
        };
        let mut p = 0;
        for (r, row) in rows.iter().enumerate() {
            let items: Vec<&str> = row.split(',').collect();
            if items.len() != PITS_PER_ROW {
                return Err(board(format!(
                    "{} row has {} pits; Kiothi has 10 a row (K1)",
                    ["North's", "South's"][r],
                    items.len()
                )));
            }
            for item in items {
                let digits = item.bytes().take_while(u8::is_ascii_digit).count();
                let (num, marks) = item.split_at(digits);
                let v = parse_count(num, MAX_WARRIORS_ON_BOARD as u64)
                    .map_err(|e| board(format!("pit {p}: {e}")))?;
                state.pits[p] = v as u8;
                match marks {
                    "" => {}
                    "n" => state.nki |= bit(p),
                    "s" => state.stale |= bit(p),
                    "ns" => {
                        state.nki |= bit(p);
                        state.stale |= bit(p);
                    }
                    _ => {
                        return Err(board(format!(
                            "pit {p}: marks are n (nki) then s (stale), each at most once; found {marks:?}"
                        )))
                    }
                }
                if state.nki & bit(p) != 0 && v == 0 {
                    return Err(board(format!(
                        "pit {p}: an empty pit cannot be nki (the mark leaves with the warriors, K4)"
                    )));
                }
                p += 1;
            }
        }
        let total: u32 = state.pits.iter().map(|&x| x as u32).sum();
        if total > MAX_WARRIORS_ON_BOARD {
            return Err(board(format!(
                "{total} warriors on the board; the engine takes at most {MAX_WARRIORS_ON_BOARD}"
            )));
        }
        state.turn = parse_turn(fields[1])?;
        let captured = parse_pair("prisons", fields[2])?;
        state.phase = match fields[3] {
            "open1" => Phase::Open1,
            "open2" => Phase::Open2,
            "play" => Phase::Play,
            t => {
                return Err(ParsePositionError::Other {
                    field: "phase",
                    reason: format!("expected open1, open2 or play, found {t:?}"),
                })
            }
        };
        if state.phase != Phase::Play && state.nki != 0 {
            return Err(board(
                "no pit is nki before the opening is over (K4); remove the n marks or use phase play"
                    .to_string(),
            ));
        }
        Ok(Position::new(Kiothi::new(variant), state, captured))
    }

    /// The warrior count followed by `n` (nki) and `s` (stale) where they apply.
    fn pit_label(&self, s: &KiothiState, pit: usize) -> String {
        let mut t = s.pits[pit].to_string();
        if s.nki & bit(pit) != 0 {
            t.push('n');
        }
        if s.stale & bit(pit) != 0 {
            t.push('s');
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sowing of the previous implementation (one pit a step on a byte array), with a
    /// lap cap: `None` when it had not decided after `cap` laps. The reference for the
    /// packed board of [`Kiothi::sow`].
    fn reference_sow(
        k: &Kiothi,
        s: &KiothiState,
        pit: usize,
        n: u32,
        cap: u64,
    ) -> Option<Result<Sowing, SowError>> {
        let mover = s.turn;
        let own = k.row(mover);
        let mut b = s.pits;
        let mut nki = s.nki & !bit(pit);
        let mut stale = s.stale;
        b[pit] -= n as u8;
        let (mut at, mut hand, mut laps, mut sown) = (pit, n, 0u64, 0u64);
        let mut first = true;
        let mut saved = (b, at, hand);
        let mut origin = saved;
        let (mut power, mut lam) = (1u64, 0u64);
        loop {
            laps += 1;
            sown += hand as u64;
            let last = k.drop_lap(&mut b, &mut stale, at, hand);
            if b[last] > 1 {
                if first && own.contains(&last) {
                    return Some(Err(SowError::FirstLap { pit: last }));
                }
                hand = b[last] as u32;
                b[last] = 0;
                nki &= !bit(last);
                at = last;
                if first {
                    first = false;
                    saved = (b, at, hand);
                    origin = saved;
                    continue;
                }
                if (b, at, hand) == saved || (b, at, hand) == origin {
                    return Some(Err(SowError::Endless { laps }));
                }
                lam += 1;
                if lam == power {
                    saved = (b, at, hand);
                    power *= 2;
                    lam = 0;
                }
                if laps == cap {
                    return None;
                }
                continue;
            }
            let mut captured = 0u32;
            let mut bonus = None;
            let o = k.opposite(last);
            if own.contains(&last) && b[o] > 0 && nki & bit(o) == 0 {
                captured = b[o] as u32 + 1;
                b[o] = 0;
                b[last] = 0;
                if last == k.leftmost(mover) {
                    let three = k.bonus_pits(mover);
                    if three
                        .iter()
                        .all(|&q| b[q] > 0 && (nki | stale) & bit(q) == 0)
                    {
                        bonus = Some(three.iter().map(|&q| b[q] as u32).sum());
                    }
                }
            }
            let state = KiothiState {
                pits: b,
                nki,
                stale,
                turn: mover.opponent(),
                phase: Phase::Play,
            };
            return Some(Ok(Sowing {
                state,
                captured,
                bonus,
                laps,
                sown,
                last,
            }));
        }
    }

    /// K5-K9, K11: on random boards (both directions, random marks, sparse and dense, some
    /// with more than 20 warriors in a pit, so laps of a full round and more), every lift sows
    /// to the same result as the reference: legal with the same board, marks, capture,
    /// bonus, laps and warriors sown, or the same K6/K11 error after the same laps; and
    /// `sow_within` gives up exactly where the capped reference does.
    #[test]
    fn k11_packed_sowing_agrees_with_the_reference_on_random_boards() {
        const CALLS: u64 = 4;
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let (mut decided, mut endless, mut given_up, mut long) = (0, 0, 0, 0);
        // Random boards, and the positions of random games from the start (where the
        // endless sowings are: the relays of play fill the board evenly).
        let mut boards = Vec::new();
        for i in 0..2000 {
            let dir = if i % 2 == 0 { "ccw" } else { "cw" };
            let k = Kiothi::new(format!("dir={dir}").parse().expect("variant"));
            let mut pits = [0u8; PITS];
            if i % 3 == 0 {
                // Sparse: 10 to 79 warriors thrown at random.
                for _ in 0..10 + rnd(70) {
                    pits[rnd(PITS as u64) as usize] += 1;
                }
            } else {
                for q in pits.iter_mut() {
                    *q = (rnd(7) as u8).max(1);
                }
            }
            if i % 10 == 0 {
                pits[rnd(PITS as u64) as usize] += 21 + rnd(20) as u8;
            }
            let s = KiothiState {
                pits,
                nki: (rnd(1 << 20) & rnd(1 << 20)) as u32,
                stale: (rnd(1 << 20) & rnd(1 << 20)) as u32,
                turn: if rnd(2) == 0 {
                    Side::South
                } else {
                    Side::North
                },
                phase: Phase::Play,
            };
            boards.push((k, s, CALLS));
        }
        let mut kids = Vec::new();
        for g in 0..60 {
            let dir = if g % 2 == 0 { "ccw" } else { "cw" };
            let k = Kiothi::new(format!("dir={dir}").parse().expect("variant"));
            let mut s = k.start();
            for _ in 0..40 {
                if s.phase != Phase::Play {
                    let Some(mv) = k.heuristic_redistribution(&s) else {
                        break;
                    };
                    s = k.play(&s, mv).expect("a legal redistribution").state;
                    continue;
                }
                boards.push((k, s, CALLS));
                let mut calls = 0;
                k.children_within(&s, &mut kids, || {
                    calls += 1;
                    calls == CALLS
                });
                if kids.is_empty() {
                    break;
                }
                s = kids[rnd(kids.len() as u64) as usize].state;
            }
        }
        // Positions where `bestmove --movetime 0.1` overran (long sowings below them).
        for text in [
            "kiothi 2,3,1,2,2,1,9,7n,2,3/4,4,0,1,3,2,1,6n,4,3 S 0,0 play",
            "kiothi 3,0,2,1,0s,0s,10s,3,7n,6/1,0,2,1,0s,0s,15ns,1s,4,4 S 0,0 play",
            "kiothi 1,0,4,2,3,0,13,1,8n,1/1,0,4,4,0,2,0,4,0,9n S 0,3 play",
            "kiothi 3,2,1,5,1,3,4,1,4,6/2,1,5,2,9,1,7,2,1,0 S 0,0 play",
        ] {
            let p: Position<Kiothi> = text.parse().expect("position");
            let mut kids = Vec::new();
            p.rules.children(&p.state, &mut kids);
            // Up to 13 million laps here: RULES.md K11's 14x6 (12,337,701) is decided.
            boards.push((p.rules, p.state, 200));
            for c in &kids {
                boards.push((p.rules, c.state, 200));
            }
        }
        eprintln!("{} positions", boards.len());
        for (k, s, calls_allowed) in boards {
            let dir = k.variant().dir;
            for p in k.row(s.turn) {
                for n in 1..=s.pits[p] as u32 {
                    let cap = calls_allowed * SOW_STOP_INTERVAL;
                    let want = reference_sow(&k, &s, p, n, cap);
                    let mut calls = 0;
                    let got = k.sow_within(&s, p, n, || {
                        calls += 1;
                        calls == calls_allowed
                    });
                    assert_eq!(got, want, "{s:?} {p}x{n} {dir:?}");
                    match want {
                        Some(Ok(sw)) => {
                            decided += 1;
                            long += usize::from(sw.laps > 20);
                        }
                        Some(Err(SowError::Endless { .. })) => endless += 1,
                        Some(Err(_)) => decided += 1,
                        None => given_up += 1,
                    }
                    if let Some(want) = want {
                        assert_eq!(k.sow(&s, p, n), want);
                    }
                }
            }
        }
        eprintln!(
            "{decided} decided ({long} over 20 laps), {endless} endless, {given_up} given up"
        );
        assert!(
            decided > 10_000 && long > 100 && endless >= 1,
            "the sample covers the cases"
        );
    }
}
