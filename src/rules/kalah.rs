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
        match num.parse::<u64>() {
            Ok(p) if ok && p < (2 * MAX_PITS_PER_ROW) as u64 => Ok(KalahMove(p as u8)),
            // A number past every board: say so, not that it is no number (a fresh-user
            // find, session 24).
            Ok(p) if ok => Err(ParseMoveError::Syntax {
                text: text.to_string(),
                reason: format!(
                    "there is no pit {p}: a Kalah board has at most {} pits (0 to {})",
                    2 * MAX_PITS_PER_ROW,
                    2 * MAX_PITS_PER_ROW - 1
                ),
            }),
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
    /// [`Rules::exact_key_limit`]: the seeds up to which the ranked keys are exact and
    /// below `2^63` (so never equal to a packed key; see [`Rules::key`] for Kalah).
    exact_limit: u32,
    /// On rows of at most [`PACKED_MAX_PITS_PER_ROW`] pits: the mask of the board's bytes
    /// among the first 16 pit bytes (the packed keys); `None` on longer rows.
    packed_mask: Option<u128>,
}

/// A 1 in each 16-, 32- and 64-bit lane of a `u128` (multiplied by a lane's pattern).
const LANE16: u128 = u128::MAX / 0xffff;
const LANE32: u128 = u128::MAX / 0xffff_ffff;
const LANE64: u128 = u128::MAX / u64::MAX as u128;

/// Rows of at most this many pits get packed keys (12 pits of 5 bits and the turn: 61
/// bits).
const PACKED_MAX_PITS_PER_ROW: usize = 6;

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
        let keys = BoardKeys::new(2 * m, MAX_SEEDS_ON_BOARD);
        let mut exact_limit = keys.exact_limit();
        if m <= PACKED_MAX_PITS_PER_ROW {
            // A ranked key of at most S seeds is below 2 * cumulative(S + 1): keep it
            // below 2^63, the packed keys' bit.
            let ranker = crate::index::Ranker::new(2 * m, MAX_SEEDS_ON_BOARD as usize + 1);
            exact_limit = (0..=exact_limit)
                .take_while(|&s| ranker.cumulative(s as usize + 1) <= 1 << 62)
                .last()
                .unwrap_or(0);
        }
        Ok(Kalah {
            m: m as u8,
            keys: Arc::new(keys),
            exact_limit,
            packed_mask: (m <= PACKED_MAX_PITS_PER_ROW).then(|| (1u128 << (16 * m)) - 1),
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

    /// The ranked key of [`BoardKeys`] ([`Rules::key`] on long rows or with a pit over 31
    /// seeds), out of line so that the packed key's few word operations inline into the
    /// search.
    #[cold]
    #[inline(never)]
    fn ranked_key(&self, s: &KalahState) -> u64 {
        self.keys.key(&s.pits[..2 * self.m as usize], s.turn)
    }

    /// Sows `pit` for the side to move (R1-R3); the pit must be the mover's and non-empty.
    #[inline(always)]
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
        if h as usize <= last_own - pit {
            // The common short sowing: the next `h` pits of the mover's own row, no store.
            for q in &mut b[pit + 1..=pit + h as usize] {
                *q += 1;
            }
            p = pit + h as usize;
            h = 0;
        }
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

    /// On rows of at most 6 pits, the bytes of the board summed as one `u128` (pairs into
    /// 16-bit lanes, then the lanes by a multiplication; no lane can overflow); else
    /// pit by pit. The search asks it at every node.
    #[inline]
    fn seeds_on_board(&self, s: &KalahState) -> u32 {
        match self.packed_mask {
            Some(mask) => {
                let mut bytes = [0u8; 16];
                bytes.copy_from_slice(&s.pits[..16]);
                let w = u128::from_le_bytes(bytes) & mask;
                // Eight 16-bit lanes of at most 510; four of them sum to at most 2,040.
                let x = (w & (LANE16 * 0xff)) + ((w >> 8) & (LANE16 * 0xff));
                let ones = LANE16 as u64;
                ((x as u64).wrapping_mul(ones) >> 48) as u32
                    + (((x >> 64) as u64).wrapping_mul(ones) >> 48) as u32
            }
            None => s.pits[..2 * self.m as usize]
                .iter()
                .map(|&x| x as u32)
                .sum(),
        }
    }

    /// The mover's non-empty pits in index order; nothing once either row is empty (R4).
    fn children(&self, s: &KalahState, out: &mut Vec<Child<Kalah>>) {
        out.clear();
        // R4: over when either row is empty; an empty own row lists nothing below anyway.
        if self.row(s.turn.opponent()).all(|p| s.pits[p] == 0) {
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

    /// On rows of at most 6 pits with every pit at most 31 seeds (every position of
    /// Kalah(6,4) but a few), the packed key `2^63 | board << 1 | turn`, the board 5 bits
    /// a pit (pit `i` at bits `5i..5i+5`): a few word operations where the ranked key
    /// costs a table load a pit
    /// (the search keys every node; docs/performance.md, session 9). Otherwise the ranked
    /// key of [`BoardKeys`], below `2^63` up to [`Rules::exact_key_limit`] seeds, so the
    /// two kinds never meet.
    #[inline]
    fn key(&self, s: &KalahState) -> u64 {
        if let Some(mask) = self.packed_mask {
            // The first 16 pit bytes, those off the board masked out; each at most 31:
            // the 5-bit fields are gathered pairwise (bytes to 10 bits, to 20, to 40).
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(&s.pits[..16]);
            let w = u128::from_le_bytes(bytes) & mask;
            if w & (u128::MAX / 255 * 0xe0) == 0 {
                let x = (w & (LANE16 * 0xff)) | ((w & (LANE16 * 0xff00)) >> 3);
                let x = (x & (LANE32 * 0xffff)) | ((x & (LANE32 * 0xffff_0000)) >> 6);
                let x =
                    (x & (LANE64 * 0xffff_ffff)) | ((x & (LANE64 * 0xffff_ffff_0000_0000)) >> 12);
                // Lane 0 holds pits 0..8 (40 bits), lane 1 pits 8..12 (20 bits).
                let packed = x as u64 | ((x >> 64) as u64) << 40;
                return 1 << 63 | packed << 1 | s.turn.index() as u64;
            }
        }
        self.ranked_key(s)
    }

    fn exact_key_limit(&self) -> u32 {
        self.exact_limit
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Ranker;
    use std::collections::HashSet;

    /// The keys of every board of 2x2 Kalah with up to 40 seeds (pits of 32 seeds and
    /// more get ranked keys, the rest packed ones), both turns, are distinct: the packed
    /// and the ranked keys never meet.
    #[test]
    fn keys_are_exact_across_packed_and_ranked_boards() {
        let k = Kalah::new(2).expect("board");
        assert!(k.exact_key_limit() >= 40);
        let r = Ranker::new(4, 40);
        let mut seen = HashSet::new();
        let (mut packed, mut ranked) = (0, 0);
        let mut st = k.start(0);
        for seeds in 0..=40 {
            for i in 0..r.layer_size(seeds) {
                r.unrank(i, seeds, &mut st.pits[..4]);
                for turn in Side::BOTH {
                    st.turn = turn;
                    let key = k.key(&st);
                    if key >> 63 == 1 {
                        packed += 1;
                    } else {
                        ranked += 1;
                    }
                    assert!(seen.insert(key), "key {key:#x} twice ({st:?})");
                }
            }
        }
        assert!(packed > 0 && ranked > 0);
    }

    /// A move past every Kalah board is named as such, not as a malformed number; a
    /// malformed one still gets the syntax hint (R1).
    #[test]
    fn r1_a_pit_past_every_board_is_named() {
        let err = "99".parse::<KalahMove>().unwrap_err().to_string();
        assert!(err.contains("there is no pit 99"), "{err}");
        let err = "99999999999999999999"
            .parse::<KalahMove>()
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected a pit number"), "{err}");
        let err = "9cw".parse::<KalahMove>().unwrap_err().to_string();
        assert!(err.contains("expected a pit number"), "{err}");
        assert_eq!("31".parse::<KalahMove>().map(|m| m.0), Ok(31));
    }

    /// `seeds_on_board` equals the sum of the pits on every 2x1 to 2x7 board tried,
    /// pits of 255 included and a pit off the board ignored.
    #[test]
    fn seeds_on_board_sums_the_pits() {
        let mut rng = 0x0bad_5eed_u64;
        for m in 1..=7 {
            let k = Kalah::new(m).expect("board");
            for round in 0..500 {
                let mut st = k.start(0);
                for p in 0..2 * m {
                    rng = crate::index::mix64(rng);
                    st.pits[p] = if round % 7 == 0 {
                        255
                    } else {
                        (rng % 40) as u8
                    };
                }
                st.pits[2 * m] = 9;
                let want: u32 = st.pits[..2 * m].iter().map(|&x| x as u32).sum();
                assert_eq!(k.seeds_on_board(&st), want, "m {m} {st:?}");
            }
        }
    }

    /// The packed key of a 2x6 board is the board 5 bits a pit (pit `i` at bits
    /// `5i..5i+5`) above the turn, with bit 63 set.
    #[test]
    fn packed_key_layout() {
        let k = Kalah::new(6).expect("board");
        let mut st = k.start(0);
        for (i, x) in [31u8, 0, 7, 1, 30, 2, 3, 17, 0, 9, 31, 5]
            .into_iter()
            .enumerate()
        {
            st.pits[i] = x;
        }
        st.turn = Side::North;
        let want = st.pits[..12]
            .iter()
            .enumerate()
            .fold(0u64, |a, (i, &x)| a | (x as u64) << (5 * i));
        assert_eq!(k.key(&st), 1 << 63 | want << 1 | 1);
        // A pit off the board does not count.
        st.pits[12] = 4;
        assert_eq!(k.key(&st), 1 << 63 | want << 1 | 1);
    }

    /// The exact limit of the 2x6 board covers every Kalah(6, s) start up to 15 seeds a
    /// pit, and the 2x7 board keeps the ranked keys (no packed key past 6 pits a row).
    #[test]
    fn exact_limits() {
        let k6 = Kalah::new(6).expect("board");
        assert!(k6.exact_key_limit() >= 180);
        assert_eq!(k6.key(&k6.start(4)) >> 63, 1);
        let k7 = Kalah::new(7).expect("board");
        assert_eq!(
            k7.key(&k7.start(4)),
            BoardKeys::new(14, MAX_SEEDS_ON_BOARD).key(&k7.start(4).pits[..14], Side::South)
        );
    }
}
