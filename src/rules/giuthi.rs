//! Giuthi, the relay-sowing game of the Kikuyu and Embu (RULES.md G1-G11).
//!
//! The rules value [`Giuthi`] holds the row length `n` and the [`Variant`]; the state
//! [`GiuthiState`] holds the pits and the turn. Captured seeds leave the board and live in
//! [`crate::Position`].
//!
//! ```text
//!   North:   4   3   2   1   0        (n = 5, as seen from South's seat)
//!   South:   5   6   7   8   9
//! ```

use super::{Child, IllegalMove, ParseMoveError, Rules};
use crate::index::BoardKeys;
pub use crate::notation::ParseVariantError;
use crate::notation::{parse_pair, parse_rows, parse_turn, write_rows, ParsePositionError};
use crate::position::Position;
use crate::types::BySide;
use crate::types::{Direction, Side};
use crate::value::Score;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The most pits a row may have for analysis (G1).
pub const MAX_PITS_PER_ROW: usize = 16;
/// The fewest pits a row may have for analysis (G1).
pub const MIN_PITS_PER_ROW: usize = 2;
/// The most seeds the board may hold in all: pits are stored as bytes, and no pit can
/// overflow when the whole board holds at most this many (2x10 with 9 a pit is 180).
pub const MAX_SEEDS_ON_BOARD: u32 = 255;

/// The fields of a pit-board position (`<board> <turn> [<pair>]`, Giuthi and Kalah),
/// parsed and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PitFields {
    /// The state: pits in index order (North's row first), the rest 0, and the turn.
    pub state: GiuthiState,
    /// Pits a row.
    pub n: usize,
    /// The captured seeds (or stores) per side; `0,0` when the field is absent.
    pub pair: BySide<u16>,
}

/// Parses `<board> <turn> [<pair>]` for a game whose rows take `min_n..=16` pits and whose
/// board holds at most 255 seeds; `syntax` is the whole form, for the error message
/// (`giuthi <board> <turn> [<captured>]`), `pair_field` the name of the last field.
///
/// # Errors
///
/// [`ParsePositionError`] naming the missing or malformed field.
pub fn parse_pit_fields(
    fields: &[&str],
    min_n: usize,
    syntax: &str,
    pair_field: &'static str,
) -> Result<PitFields, ParsePositionError> {
    match fields.len() {
        0 => {
            return Err(ParsePositionError::Missing {
                field: "board",
                expected: "the pits after the game name, North's row / South's row",
            })
        }
        1 => {
            return Err(ParsePositionError::Missing {
                field: "turn",
                expected: "S or N after the board",
            })
        }
        2 | 3 => {}
        k => {
            return Err(ParsePositionError::Fields {
                field: "position",
                reason: format!("expected `{syntax}`, found {k} field(s) after the game name"),
            })
        }
    }
    let (pits, n) = parse_rows(
        fields[0],
        min_n,
        MAX_PITS_PER_ROW,
        MAX_SEEDS_ON_BOARD as u64,
    )?;
    let total: u64 = pits.iter().sum();
    if total > MAX_SEEDS_ON_BOARD as u64 {
        return Err(ParsePositionError::Board(format!(
            "{total} seeds on the board; the engine takes at most {MAX_SEEDS_ON_BOARD}"
        )));
    }
    let turn = parse_turn(fields[1])?;
    let pair = match fields.get(2) {
        Some(t) => parse_pair(pair_field, t)?,
        None => BySide::default(),
    };
    let mut state = GiuthiState {
        pits: [0; 2 * MAX_PITS_PER_ROW],
        turn,
    };
    for (i, &v) in pits.iter().enumerate() {
        state.pits[i] = v as u8;
    }
    Ok(PitFields { state, n, pair })
}

/// How far a capture chain runs (G6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Chain {
    /// The default: every following empty pit of the mover's row with a non-empty opposite.
    #[default]
    Run,
    /// Variant `chain=one`: at most one pit after the landing pit.
    One,
    /// Variant `chain=none`: only the pit opposite the landing pit.
    None,
}

/// Whether a lap sows into the pit the move started from (G3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Origin {
    /// The default: the origin is not skipped.
    #[default]
    Sow,
    /// Variant `origin=skip`: every lap of the move passes over the pit the move started from.
    Skip,
}

/// When the game ends (G9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum End {
    /// The default: when neither player has a legal move.
    #[default]
    Stuck,
    /// Variant `end=empty-row`: also as soon as the player to move has an empty row.
    EmptyRow,
}

/// A rule variant of Giuthi (RULES.md G3, G6, G9; notation N1).
///
/// # Examples
///
/// ```
/// use giuthi::rules::giuthi::{Chain, Variant};
/// let v: Variant = "chain=one,origin=skip".parse()?;
/// assert_eq!(v.chain, Chain::One);
/// assert_eq!(v.to_string(), "chain=one,origin=skip");
/// assert_eq!(Variant::default().to_string(), "");
/// # Ok::<(), giuthi::rules::giuthi::ParseVariantError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Variant {
    /// Capture chain (G6).
    pub chain: Chain,
    /// Origin pit rule (G3).
    pub origin: Origin,
    /// End of game (G9).
    pub end: End,
}

impl FromStr for Variant {
    type Err = ParseVariantError;
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        let mut v = Variant::default();
        let mut seen = [false; 3];
        if s.is_empty() {
            return Ok(v);
        }
        for item in s.split(',') {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| ParseVariantError::Syntax(item.to_string()))?;
            let bad = |key: &'static str, expected: &'static str| ParseVariantError::UnknownValue {
                key,
                expected,
                found: value.to_string(),
            };
            let slot = match key {
                "chain" => {
                    v.chain = match value {
                        "run" => Chain::Run,
                        "one" => Chain::One,
                        "none" => Chain::None,
                        _ => return Err(bad("chain", "run, one or none")),
                    };
                    0
                }
                "origin" => {
                    v.origin = match value {
                        "sow" => Origin::Sow,
                        "skip" => Origin::Skip,
                        _ => return Err(bad("origin", "sow or skip")),
                    };
                    1
                }
                "end" => {
                    v.end = match value {
                        "stuck" => End::Stuck,
                        "empty-row" => End::EmptyRow,
                        _ => return Err(bad("end", "stuck or empty-row")),
                    };
                    2
                }
                _ => return Err(ParseVariantError::UnknownKey(key.to_string())),
            };
            if seen[slot] {
                return Err(ParseVariantError::Repeated(
                    ["chain", "origin", "end"][slot],
                ));
            }
            seen[slot] = true;
        }
        Ok(v)
    }
}

impl fmt::Display for Variant {
    /// The canonical form of N1: defaults omitted, keys in the order chain, origin, end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<&str> = Vec::new();
        match self.chain {
            Chain::Run => {}
            Chain::One => parts.push("chain=one"),
            Chain::None => parts.push("chain=none"),
        }
        if self.origin == Origin::Skip {
            parts.push("origin=skip");
        }
        if self.end == End::EmptyRow {
            parts.push("end=empty-row");
        }
        f.write_str(&parts.join(","))
    }
}

/// A Giuthi move (RULES.md N2): a pit and a direction, or `pass`.
///
/// # Examples
///
/// ```
/// use giuthi::rules::giuthi::GiuthiMove;
/// use giuthi::Direction;
/// let m: GiuthiMove = "7ccw".parse()?;
/// assert_eq!(m, GiuthiMove::Sow { pit: 7, dir: Direction::Ccw });
/// assert_eq!(m.to_string(), "7ccw");
/// assert_eq!("pass".parse::<GiuthiMove>()?, GiuthiMove::Pass);
/// # Ok::<(), giuthi::rules::ParseMoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GiuthiMove {
    /// Lift pit `pit` and sow in direction `dir` (G2, G3).
    Sow {
        /// The pit lifted (RULES.md numbering).
        pit: u8,
        /// The direction of the first lap.
        dir: Direction,
    },
    /// No legal move: the turn passes (G8).
    Pass,
}

impl fmt::Display for GiuthiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GiuthiMove::Sow { pit, dir } => write!(f, "{pit}{dir}"),
            GiuthiMove::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for GiuthiMove {
    type Err = ParseMoveError;
    fn from_str(text: &str) -> Result<GiuthiMove, ParseMoveError> {
        let syntax = |reason: &str| ParseMoveError::Syntax {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        if text == "pass" {
            return Ok(GiuthiMove::Pass);
        }
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(syntax(
                "expected <pit><dir> such as 7ccw or 12cw (N2), or pass",
            ));
        }
        let (num, dir) = text.split_at(digits);
        let dir = match dir {
            "cw" => Direction::Cw,
            "ccw" => Direction::Ccw,
            "" => return Err(syntax("missing direction: add cw or ccw (N2)")),
            _ => return Err(syntax("direction must be cw or ccw (N2)")),
        };
        if num.len() > 1 && num.starts_with('0') {
            return Err(syntax("pit number with a leading zero"));
        }
        // Any pit a board might have parses; whether this board has it is `play`'s
        // question, whose error names the board's pits (`NoSuchPit`).
        let pit: u8 = num
            .parse()
            .ok()
            .filter(|&p: &u8| (p as usize) < 2 * MAX_PITS_PER_ROW)
            .ok_or_else(|| {
                syntax(&format!(
                    "no board has pit {num}: the largest (2x{MAX_PITS_PER_ROW}) has pits 0 to {}",
                    2 * MAX_PITS_PER_ROW - 1
                ))
            })?;
        Ok(GiuthiMove::Sow { pit, dir })
    }
}

/// The store-independent core of a Giuthi position: pits and turn (RULES.md V2).
///
/// Pits `2n..32` are always 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GiuthiState {
    /// Seeds per pit, RULES.md numbering; only `0..2n` are used.
    pub pits: [u8; 2 * MAX_PITS_PER_ROW],
    /// The side to move.
    pub turn: Side,
}

/// The rules of Giuthi for one board size and variant.
///
/// # Examples
///
/// ```
/// use giuthi::rules::giuthi::{Giuthi, Variant};
/// use giuthi::rules::Rules;
/// let g = Giuthi::new(5, Variant::default())?;
/// let start = g.start(4);
/// let mut children = Vec::new();
/// g.children(&start, &mut children);
/// assert_eq!(children.len(), 10); // five pits, two directions each
/// # Ok::<(), giuthi::rules::giuthi::BoardError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Giuthi {
    n: u8,
    variant: Variant,
    keys: Arc<BoardKeys>,
}

/// A board size the engine does not accept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// Row length out of `2..=16` (G1).
    #[error("field board: {0} {word} a row; Giuthi takes 2 to 16 for analysis (G1)", word = pits_word(.0))]
    PitsPerRow(usize),
}

/// "pit" or "pits" for a count of pits.
fn pits_word(n: &usize) -> &'static str {
    if *n == 1 {
        "pit"
    } else {
        "pits"
    }
}

impl PartialEq for Giuthi {
    fn eq(&self, other: &Giuthi) -> bool {
        self.n == other.n && self.variant == other.variant
    }
}
impl Eq for Giuthi {}

impl Giuthi {
    /// The rules for `n` pits a row and the given variant.
    ///
    /// # Errors
    ///
    /// [`BoardError::PitsPerRow`] when `n` is outside `2..=16`.
    pub fn new(n: usize, variant: Variant) -> Result<Giuthi, BoardError> {
        if !(MIN_PITS_PER_ROW..=MAX_PITS_PER_ROW).contains(&n) {
            return Err(BoardError::PitsPerRow(n));
        }
        Ok(Giuthi {
            n: n as u8,
            variant,
            keys: Arc::new(BoardKeys::new(2 * n, MAX_SEEDS_ON_BOARD)),
        })
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The start position: every pit holds `seeds`, South to move (G1).
    ///
    /// # Panics
    ///
    /// If the board would hold more than [`MAX_SEEDS_ON_BOARD`] seeds.
    pub fn start(&self, seeds: u8) -> GiuthiState {
        let n2 = 2 * self.n as usize;
        assert!(n2 as u32 * seeds as u32 <= MAX_SEEDS_ON_BOARD);
        let mut pits = [0u8; 2 * MAX_PITS_PER_ROW];
        pits[..n2].iter_mut().for_each(|p| *p = seeds);
        GiuthiState {
            pits,
            turn: Side::South,
        }
    }

    /// `opposite(p) = 2n-1-p` (RULES.md geometry).
    #[inline]
    pub fn opposite(&self, pit: usize) -> usize {
        2 * self.n as usize - 1 - pit
    }

    /// The side owning `pit`: North `0..n`, South `n..2n`.
    #[inline]
    pub fn owner(&self, pit: usize) -> Side {
        if pit < self.n as usize {
            Side::North
        } else {
            Side::South
        }
    }

    /// The pits of `side`'s row, in index order (leftmost first from its own seat).
    pub fn row(&self, side: Side) -> std::ops::Range<usize> {
        let n = self.n as usize;
        match side {
            Side::North => 0..n,
            Side::South => n..2 * n,
        }
    }

    /// The row-swap symmetry of G11: rotate the ring by `n` and flip the turn.
    pub fn swap_rows(&self, s: &GiuthiState) -> GiuthiState {
        let n = self.n as usize;
        let mut pits = [0u8; 2 * MAX_PITS_PER_ROW];
        for p in 0..2 * n {
            pits[(p + n) % (2 * n)] = s.pits[p];
        }
        GiuthiState {
            pits,
            turn: s.turn.opponent(),
        }
    }

    /// The left-right mirror of G11 (as seen from South's seat): pit `p` of North goes to
    /// `n-1-p`, pit `n+i` of South to `2n-1-i`; cw and ccw swap. The turn stays.
    pub fn mirror(&self, s: &GiuthiState) -> GiuthiState {
        let mut pits = [0u8; 2 * MAX_PITS_PER_ROW];
        for p in 0..2 * self.n as usize {
            pits[self.mirror_pit(p)] = s.pits[p];
        }
        GiuthiState { pits, turn: s.turn }
    }

    /// Where the mirror of G11 sends `pit`.
    pub fn mirror_pit(&self, pit: usize) -> usize {
        let n = self.n as usize;
        if pit < n {
            n - 1 - pit
        } else {
            3 * n - 1 - pit
        }
    }

    /// The image of a move under the mirror (pit mirrored, direction reversed).
    pub fn mirror_move(&self, mv: GiuthiMove) -> GiuthiMove {
        match mv {
            GiuthiMove::Sow { pit, dir } => GiuthiMove::Sow {
                pit: self.mirror_pit(pit as usize) as u8,
                dir: dir.reverse(),
            },
            GiuthiMove::Pass => GiuthiMove::Pass,
        }
    }

    /// The image of a move under the row swap (pit rotated by `n`).
    pub fn swap_move(&self, mv: GiuthiMove) -> GiuthiMove {
        let n = self.n as usize;
        match mv {
            GiuthiMove::Sow { pit, dir } => GiuthiMove::Sow {
                pit: ((pit as usize + n) % (2 * n)) as u8,
                dir,
            },
            GiuthiMove::Pass => GiuthiMove::Pass,
        }
    }

    /// Sows `pit` in direction `dir` for the side to move (G3-G7), without checking that
    /// the pit is the mover's or holds 2 seeds.
    ///
    /// Returns the child, or `Err(laps)` when the sowing is endless (G7); the endless test
    /// is exact (Brent's cycle detection on the relay state: board, pit in hand, seeds in
    /// hand, direction), in constant memory, with no allocation.
    #[inline]
    pub fn sow(&self, s: &GiuthiState, pit: usize, dir: Direction) -> Result<Child<Giuthi>, u64> {
        let n = self.n as usize;
        let n2 = 2 * n;
        let mover = s.turn;
        let own = self.row(mover);
        let skip = self.variant.origin == Origin::Skip;
        let mut b = s.pits;
        let mut at = pit;
        let mut d = dir;
        let mut hand = b[at] as u32;
        b[at] = 0;
        let mut into_opponent = false;
        let mut laps: u64 = 0;
        let mut sown: u32 = 0;
        // Brent: the saved relay state and the step counters.
        let mut saved = (b, at, hand, d);
        let mut power: u64 = 1;
        let mut lam: u64 = 0;
        loop {
            laps += 1;
            sown += hand;
            let mut p = at;
            let mut h = hand;
            if !skip {
                // The common case, one loop per direction; `p - own.start >= n` (wrapping)
                // means the pit is in the opponent's row. (Sowing whole runs of pits as
                // slices executes fewer instructions but measured slower: the laps are short
                // and its branches mispredict; see docs/performance.md.)
                match d {
                    Direction::Ccw => {
                        while h > 0 {
                            p = if p + 1 == n2 { 0 } else { p + 1 };
                            b[p] += 1;
                            into_opponent |= p.wrapping_sub(own.start) >= n;
                            h -= 1;
                        }
                    }
                    Direction::Cw => {
                        while h > 0 {
                            p = if p == 0 { n2 - 1 } else { p - 1 };
                            b[p] += 1;
                            into_opponent |= p.wrapping_sub(own.start) >= n;
                            h -= 1;
                        }
                    }
                }
            }
            while h > 0 {
                // Variant origin=skip: every lap passes over the pit the move started from.
                p = match d {
                    Direction::Ccw => {
                        if p + 1 == n2 {
                            0
                        } else {
                            p + 1
                        }
                    }
                    Direction::Cw => {
                        if p == 0 {
                            n2 - 1
                        } else {
                            p - 1
                        }
                    }
                };
                if p == pit {
                    continue;
                }
                b[p] += 1;
                into_opponent |= !own.contains(&p);
                h -= 1;
            }
            if b[p] > 1 {
                // G4 relay: lift the whole pit and sow on in the opposite direction.
                hand = b[p] as u32;
                b[p] = 0;
                at = p;
                d = d.reverse();
                // Cheap fields first: the board rarely needs comparing.
                if at == saved.1 && hand == saved.2 && d == saved.3 && b == saved.0 {
                    return Err(laps);
                }
                lam += 1;
                if lam == power {
                    saved = (b, at, hand, d);
                    power *= 2;
                    lam = 0;
                }
                continue;
            }
            // G5: the last seed fell into an empty pit.
            let mut captured = 0u32;
            let turn_passes;
            if !own.contains(&p) {
                turn_passes = true; // G5a
            } else if !into_opponent {
                turn_passes = false; // G5b extra move
            } else {
                turn_passes = true; // G5c capture (G6)
                let opp = n2 - 1 - p;
                if b[opp] > 0 {
                    captured += b[opp] as u32;
                    b[opp] = 0;
                    let max_chain = match self.variant.chain {
                        Chain::Run => usize::MAX,
                        Chain::One => 1,
                        Chain::None => 0,
                    };
                    let mut r = p;
                    let mut taken = 0;
                    while taken < max_chain {
                        r = match d {
                            Direction::Ccw => (r + 1) % n2,
                            Direction::Cw => (r + n2 - 1) % n2,
                        };
                        let o = n2 - 1 - r;
                        if !own.contains(&r) || b[r] != 0 || b[o] == 0 {
                            break;
                        }
                        captured += b[o] as u32;
                        b[o] = 0;
                        taken += 1;
                    }
                    captured += 1; // the landing seed
                    b[p] = 0;
                }
            }
            let turn = if turn_passes { mover.opponent() } else { mover };
            return Ok(Child {
                mv: GiuthiMove::Sow {
                    pit: pit as u8,
                    dir,
                },
                state: GiuthiState { pits: b, turn },
                captured: captured as u16,
                turn_passes,
                laps: laps as u32,
                sown,
            });
        }
    }

    /// Whether `side` has a legal sowing in `s` (a pit of 2 or more whose sowing in some
    /// direction is not endless). The turn in `s` is ignored.
    pub fn has_legal_sowing(&self, s: &GiuthiState, side: Side) -> bool {
        let t = GiuthiState {
            pits: s.pits,
            turn: side,
        };
        self.row(side).any(|p| {
            t.pits[p] >= 2
                && (self.sow(&t, p, Direction::Cw).is_ok()
                    || self.sow(&t, p, Direction::Ccw).is_ok())
        })
    }

    fn row_is_empty(&self, s: &GiuthiState, side: Side) -> bool {
        self.row(side).all(|p| s.pits[p] == 0)
    }

    /// Whether the game is over in `s` (G9, and the `end=empty-row` variant).
    pub fn is_over(&self, s: &GiuthiState) -> bool {
        if self.variant.end == End::EmptyRow && self.row_is_empty(s, s.turn) {
            return true;
        }
        !self.has_legal_sowing(s, s.turn) && !self.has_legal_sowing(s, s.turn.opponent())
    }

    fn pass_child(&self, s: &GiuthiState) -> Child<Giuthi> {
        Child {
            mv: GiuthiMove::Pass,
            state: GiuthiState {
                pits: s.pits,
                turn: s.turn.opponent(),
            },
            captured: 0,
            turn_passes: true,
            laps: 0,
            sown: 0,
        }
    }
}

impl Rules for Giuthi {
    type State = GiuthiState;
    type Move = GiuthiMove;

    fn name(&self) -> &'static str {
        "giuthi"
    }

    fn pits_per_row(&self) -> usize {
        self.n as usize
    }

    #[inline]
    fn turn(&self, s: &GiuthiState) -> Side {
        s.turn
    }

    #[inline]
    fn seeds(&self, s: &GiuthiState, pit: usize) -> u32 {
        s.pits[pit] as u32
    }

    #[inline]
    fn seeds_on_board(&self, s: &GiuthiState) -> u32 {
        s.pits.iter().map(|&x| x as u32).sum()
    }

    /// Moves in the order: pits of the mover's row in index order, `cw` before `ccw`;
    /// `pass` alone when the mover has no legal sowing but the opponent has (G8); nothing
    /// when the game is over (G9).
    fn children(&self, s: &GiuthiState, out: &mut Vec<Child<Giuthi>>) {
        out.clear();
        if self.variant.end == End::EmptyRow && self.row_is_empty(s, s.turn) {
            return;
        }
        for p in self.row(s.turn) {
            if s.pits[p] >= 2 {
                for dir in [Direction::Cw, Direction::Ccw] {
                    if let Ok(c) = self.sow(s, p, dir) {
                        out.push(c);
                    }
                }
            }
        }
        if out.is_empty() && self.has_legal_sowing(s, s.turn.opponent()) {
            out.push(self.pass_child(s));
        }
    }

    /// G9: the seeds left in the mover's row minus those in the opponent's row.
    fn final_value(&self, s: &GiuthiState) -> Score {
        self.row_seeds(s, s.turn) as Score - self.row_seeds(s, s.turn.opponent()) as Score
    }

    fn play(&self, s: &GiuthiState, mv: GiuthiMove) -> Result<Child<Giuthi>, IllegalMove> {
        let text = mv.to_string();
        let over = self.is_over(s);
        match mv {
            GiuthiMove::Pass => {
                if over {
                    return Err(IllegalMove::GameOver { mv: text });
                }
                let mut children = Vec::new();
                self.children(s, &mut children);
                match children.as_slice() {
                    [c] if c.mv == GiuthiMove::Pass => Ok(*c),
                    _ => Err(IllegalMove::PassNotAllowed {
                        side: s.turn,
                        moves: children.len(),
                    }),
                }
            }
            GiuthiMove::Sow { pit, dir } => {
                let pit = pit as usize;
                let n2 = 2 * self.n as usize;
                if pit >= n2 {
                    return Err(IllegalMove::NoSuchPit {
                        mv: text,
                        pit,
                        pits: n2,
                    });
                }
                if over {
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
                if self.variant.end == End::EmptyRow && self.row_is_empty(s, s.turn) {
                    return Err(IllegalMove::GameOver { mv: text });
                }
                if s.pits[pit] < 2 {
                    return Err(IllegalMove::TooFewSeeds {
                        mv: text,
                        pit,
                        seeds: s.pits[pit] as u32,
                        unit: "seed",
                        reason: "a move lifts a pit of at least 2 seeds (G2)",
                    });
                }
                self.sow(s, pit, dir)
                    .map_err(|laps| IllegalMove::Endless { mv: text, laps })
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<GiuthiMove, ParseMoveError> {
        text.parse()
    }

    /// `2 * (C(S + 2n - 1, 2n) + rank) + turn` (see [`crate::index::BoardKeys`]) when the
    /// board holds at most [`Rules::exact_key_limit`] seeds, otherwise a 64-bit hash.
    #[inline]
    fn key(&self, s: &GiuthiState) -> u64 {
        self.keys.key(&s.pits[..2 * self.n as usize], s.turn)
    }

    fn exact_key_limit(&self) -> u32 {
        self.keys.exact_limit()
    }

    /// `giuthi[:<variant>] <board> <turn> <captured>` (RULES.md N1).
    fn write_position(&self, pos: &Position<Giuthi>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.variant.to_string();
        if v.is_empty() {
            f.write_str("giuthi ")?;
        } else {
            write!(f, "giuthi:{v} ")?;
        }
        let n = self.n as usize;
        write_rows(f, pos.state.pits[..2 * n].iter().map(|&x| x as u32), n)?;
        write!(
            f,
            " {} {},{}",
            pos.state.turn.letter(),
            pos.captured.south,
            pos.captured.north
        )
    }

    fn parse_fields(
        variant: &str,
        fields: &[&str],
    ) -> Result<Position<Giuthi>, ParsePositionError> {
        let variant: Variant = if variant.is_empty() {
            Variant::default()
        } else {
            variant.parse()?
        };
        let f = parse_pit_fields(
            fields,
            MIN_PITS_PER_ROW,
            "giuthi <board> <turn> [<captured>]",
            "captured",
        )?;
        let rules =
            Giuthi::new(f.n, variant).map_err(|e| ParsePositionError::Board(e.to_string()))?;
        Ok(Position::new(rules, f.state, f.pair))
    }

    /// G11: the left-right mirror (the same for every variant: none of them depends on
    /// the direction of sowing).
    fn is_symmetric(&self, s: &GiuthiState) -> bool {
        self.mirror(s) == *s
    }

    fn twin_move(&self, mv: &GiuthiMove) -> GiuthiMove {
        self.mirror_move(*mv)
    }
}
