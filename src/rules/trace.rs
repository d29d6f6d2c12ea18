//! A lap-by-lap trace of one sowing: what a move does, seed by seed, for display (the
//! analysis board of `giuthi serve` animates it).
//!
//! A [`SowTrace`] lists each lap (RULES.md: one relay leg): the pit lifted, the seeds in
//! hand, the direction and the pits sown in order; then how the move ended: the last seed
//! in the opponent's row (G5a), an extra move (G5b), a capture and its chain (G5c, G6), or
//! an endless sowing (G7, which is no legal move: only its first laps are traced). Kalah
//! gets a one-lap trace with its store drops (R1-R3). Kiothi gets its laps too (K5-K9):
//! the partial lift of the first lap, the relays (always in the sowing direction, K7), the
//! K8 capture into the prison and the K9 bonus pits; the marks follow from the laps (a
//! lift clears the nki mark of its pit, a drop clears the stale mark of its pit, K12).
//!
//! The trace is made by its own code, apart from the solver's hot sowing loop; [`SowTrace::
//! replay`] applies a trace to a board, and the tests check that replaying the trace of
//! every legal move gives the board of [`crate::Rules::play`].
//!
//! # Examples
//!
//! ```
//! use giuthi::Position;
//! use giuthi::rules::giuthi::Giuthi;
//! use giuthi::rules::trace::Finish;
//! let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse()?;
//! let t = pos.rules.sow_trace(&pos.state, "5cw".parse()?);
//! assert_eq!(t.laps.len(), 1);
//! assert_eq!(t.laps[0].lift, 5);
//! assert_eq!(t.laps[0].sown, [4, 3, 2]); // into North's row, clockwise
//! assert_eq!(t.finish, Finish::OpponentRow);
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

use super::giuthi::{Chain, Giuthi, GiuthiMove, GiuthiState, Origin};
use super::kalah::{Kalah, KalahMove, KalahState};
use super::kiothi::{Kiothi, KiothiMove, KiothiState, SowError};
use crate::types::{Direction, Side};

/// Laps traced of an endless sowing (G7) before the trace stops.
pub const ENDLESS_LAPS_SHOWN: usize = 24;

/// Seeds dropped in one trace before it is cut short ([`SowTrace::truncated`]); far beyond
/// any sowing of a board of at most 255 seeds that ends (they run to a few thousand).
pub const MAX_TRACED_DROPS: usize = 1 << 20;

/// Where one seed was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drop {
    /// Into a pit (RULES.md numbering).
    Pit(usize),
    /// Into a side's store (Kalah R1).
    Store(Side),
}

/// One lap: a pit lifted and its seeds sown one by one in one direction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lap {
    /// The pit lifted (the move's pit for the first lap, the landing pit of a relay, G4).
    pub lift: usize,
    /// Seeds lifted.
    pub seeds: u32,
    /// Seeds left in the lifted pit: a Kiothi first lap may lift only some (K5); 0 in
    /// every other lap and game.
    pub kept: u32,
    /// The direction of this lap (relays reverse it, G4).
    pub dir: Direction,
    /// The pits sown, in order, one seed each (Giuthi); see [`Lap::drops`] for Kalah.
    pub sown: Vec<usize>,
    /// Every drop in order, store drops included (equal to `sown` for Giuthi).
    pub drops: Vec<Drop>,
}

/// How a sowing ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// The last seed fell into an empty pit of the opponent's row: the turn passes (G5a;
    /// Kiothi K8, nothing captured).
    OpponentRow,
    /// The last seed fell into an empty pit of the mover's row and no seed reached the
    /// opponent's row: the mover moves again (G5b).
    ExtraMove,
    /// The last seed fell into an empty pit of the mover's row after seeds reached the
    /// opponent's row: the opposite pit and the chain are captured (G5c, G6); with an empty
    /// opposite pit nothing is taken and the turn passes. Kiothi: the last warrior fell into
    /// an empty pit of the mover's row and took the occupied, unprotected opposite pit (K8),
    /// perhaps with the K9 bonus.
    Capture,
    /// Kiothi: the last warrior fell into an empty pit of the mover's row, but the opposite
    /// pit is empty or nki: nothing is captured, the turn passes (K8).
    NoCapture,
    /// Kiothi: the first lap ended in an occupied pit of the mover's row, so the sowing is
    /// not allowed (K6); the first lap is traced.
    FirstLapOwnRow,
    /// The sowing never ends (G7): not a legal move; only its first laps are traced.
    Endless,
    /// Kalah: the last seed fell into the mover's store, an extra move (R2).
    Store,
    /// Kalah: the last seed fell anywhere else (R3 captures when it was an empty own pit).
    KalahEnd,
}

/// The trace of one move (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SowTrace {
    /// The side that moved.
    pub mover: Side,
    /// The laps in order (empty for a pass).
    pub laps: Vec<Lap>,
    /// How the sowing ended.
    pub finish: Finish,
    /// Pits emptied by the capture, in order: the pit opposite the landing pit first, then
    /// the chain (G6); for Kalah R3 the opposite pit. Each with the seeds it held.
    pub captured_pits: Vec<(usize, u32)>,
    /// The three pits of a Kiothi K9 bonus taken, each with the warriors it held (empty
    /// otherwise).
    pub bonus_pits: Vec<(usize, u32)>,
    /// The landing pit whose seed is captured with them (G5c; Kalah R3; Kiothi K8), if any.
    pub landing_taken: Option<usize>,
    /// Seeds the mover captured in all (into its store for Kalah).
    pub captured: u32,
    /// Whether the turn passes to the opponent (false for an extra move).
    pub turn_passes: bool,
    /// The trace was cut after [`MAX_TRACED_DROPS`] drops or, for an endless sowing,
    /// [`ENDLESS_LAPS_SHOWN`] laps.
    pub truncated: bool,
}

impl SowTrace {
    /// Applies the trace to `board` (seeds of pits `0..2n`): each lap empties its lift
    /// pit and drops its seeds, then the capture empties its pits. Returns the board after
    /// the move and the seeds dropped into each side's store (Kalah).
    ///
    /// This is the tests' second method for a move: replaying the trace of a legal move
    /// gives the board that [`crate::Rules::play`] gives.
    ///
    /// # Errors
    ///
    /// A message when the trace does not fit the board (a lift of a pit holding a different
    /// count, a pit off the board, a capture of a pit that does not hold what it says).
    pub fn replay(&self, board: &[u32]) -> Result<(Vec<u32>, [u32; 2]), String> {
        let mut b = board.to_vec();
        let mut stores = [0u32; 2];
        for (i, lap) in self.laps.iter().enumerate() {
            let held = *b
                .get(lap.lift)
                .ok_or_else(|| format!("lap {i}: no pit {}", lap.lift))?;
            if held != lap.seeds + lap.kept {
                return Err(format!(
                    "lap {i}: pit {} holds {held}, the trace lifts {} and keeps {}",
                    lap.lift, lap.seeds, lap.kept
                ));
            }
            b[lap.lift] = lap.kept;
            if lap.drops.len() != lap.seeds as usize {
                return Err(format!(
                    "lap {i}: {} drops for {} seeds",
                    lap.drops.len(),
                    lap.seeds
                ));
            }
            for d in &lap.drops {
                match *d {
                    Drop::Pit(p) => *b.get_mut(p).ok_or_else(|| format!("no pit {p}"))? += 1,
                    Drop::Store(s) => stores[s.index()] += 1,
                }
            }
        }
        for &(p, seeds) in self.captured_pits.iter().chain(&self.bonus_pits) {
            match b.get_mut(p) {
                Some(v) if *v == seeds => *v = 0,
                _ => return Err(format!("capture of pit {p}: it does not hold {seeds}")),
            }
        }
        if let Some(p) = self.landing_taken {
            match b.get_mut(p) {
                Some(v) if *v == 1 => *v = 0,
                _ => return Err(format!("landing pit {p} does not hold one seed")),
            }
        }
        Ok((b, stores))
    }
}

impl Giuthi {
    /// The lap-by-lap trace of `mv` in `s` for the side to move (G3-G7); a pass gives an
    /// empty trace. The move is not checked for legality (a pit of fewer than 2 seeds, or
    /// the opponent's, is traced as given); an endless sowing is traced for its first
    /// [`ENDLESS_LAPS_SHOWN`] laps with [`Finish::Endless`].
    ///
    /// # Examples
    ///
    /// A relay: pit 5 sows into 6 and 7 ccw; pit 7 then holds 2 and is lifted, sown cw
    /// (G4) into 6 and 5, the emptied start pit: an extra move (G5b).
    ///
    /// ```
    /// use giuthi::Position;
    /// use giuthi::rules::giuthi::Giuthi;
    /// use giuthi::rules::trace::Finish;
    /// use giuthi::Direction;
    /// let pos: Position<Giuthi> = "giuthi 0,0,0,0/0,2,0,1 S 0,0".parse()?;
    /// let t = pos.rules.sow_trace(&pos.state, "5ccw".parse()?);
    /// assert_eq!(t.laps[0].sown, [6, 7]);
    /// assert_eq!((t.laps[1].lift, t.laps[1].dir), (7, Direction::Cw));
    /// assert_eq!(t.laps[1].sown, [6, 5]);
    /// assert_eq!(t.finish, Finish::ExtraMove);
    /// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
    /// ```
    pub fn sow_trace(&self, s: &GiuthiState, mv: GiuthiMove) -> SowTrace {
        let mover = s.turn;
        let (pit, dir) = match mv {
            GiuthiMove::Pass => {
                return SowTrace {
                    mover,
                    laps: Vec::new(),
                    finish: Finish::OpponentRow,
                    captured_pits: Vec::new(),
                    bonus_pits: Vec::new(),
                    landing_taken: None,
                    captured: 0,
                    turn_passes: true,
                    truncated: false,
                }
            }
            GiuthiMove::Sow { pit, dir } => (pit as usize, dir),
        };
        let endless = self.sow(s, pit, dir).is_err();
        let n = self.pits_per_row_u();
        let n2 = 2 * n;
        let own = self.row(mover);
        let skip = self.variant().origin == Origin::Skip;
        let mut b: Vec<u32> = s.pits[..n2].iter().map(|&x| x as u32).collect();
        let mut laps = Vec::new();
        let mut at = pit;
        let mut d = dir;
        let mut into_opponent = false;
        let mut drops = 0usize;
        let step = |p: usize, d: Direction| match d {
            Direction::Ccw => (p + 1) % n2,
            Direction::Cw => (p + n2 - 1) % n2,
        };
        loop {
            let hand = b[at];
            b[at] = 0;
            let mut sown = Vec::with_capacity(hand as usize);
            let mut p = at;
            let mut h = hand;
            while h > 0 {
                p = step(p, d);
                if skip && p == pit {
                    continue;
                }
                b[p] += 1;
                into_opponent |= !own.contains(&p);
                sown.push(p);
                h -= 1;
            }
            drops += sown.len();
            laps.push(Lap {
                lift: at,
                seeds: hand,
                kept: 0,
                dir: d,
                drops: sown.iter().map(|&p| Drop::Pit(p)).collect(),
                sown,
            });
            let cut = drops > MAX_TRACED_DROPS || (endless && laps.len() >= ENDLESS_LAPS_SHOWN);
            if b[p] > 1 && !cut {
                at = p;
                d = d.reverse();
                continue;
            }
            if endless || b[p] > 1 {
                return SowTrace {
                    mover,
                    laps,
                    finish: Finish::Endless,
                    captured_pits: Vec::new(),
                    bonus_pits: Vec::new(),
                    landing_taken: None,
                    captured: 0,
                    turn_passes: true,
                    truncated: true,
                };
            }
            let mut t = SowTrace {
                mover,
                laps,
                finish: Finish::OpponentRow,
                captured_pits: Vec::new(),
                bonus_pits: Vec::new(),
                landing_taken: None,
                captured: 0,
                turn_passes: true,
                truncated: false,
            };
            if !own.contains(&p) {
                return t; // G5a
            }
            if !into_opponent {
                t.finish = Finish::ExtraMove; // G5b
                t.turn_passes = false;
                return t;
            }
            t.finish = Finish::Capture; // G5c
            let opp = n2 - 1 - p;
            if b[opp] == 0 {
                return t;
            }
            t.captured_pits.push((opp, b[opp]));
            b[opp] = 0;
            let max_chain = match self.variant().chain {
                Chain::Run => usize::MAX,
                Chain::One => 1,
                Chain::None => 0,
            };
            let mut r = p;
            while t.captured_pits.len() - 1 < max_chain {
                r = step(r, d);
                let o = n2 - 1 - r;
                if !own.contains(&r) || b[r] != 0 || b[o] == 0 {
                    break;
                }
                t.captured_pits.push((o, b[o]));
                b[o] = 0;
            }
            t.landing_taken = Some(p);
            t.captured = t.captured_pits.iter().map(|&(_, v)| v).sum::<u32>() + 1;
            return t;
        }
    }

    fn pits_per_row_u(&self) -> usize {
        crate::rules::Rules::pits_per_row(self)
    }
}

impl Kalah {
    /// The one-lap trace of `mv` in `s` (R1-R3): the pits and stores sown counter-clockwise
    /// (the opponent's store skipped), then the R3 capture if any. The move is not checked
    /// for legality.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::Position;
    /// use giuthi::rules::kalah::Kalah;
    /// use giuthi::rules::trace::{Drop, Finish};
    /// use giuthi::Side;
    /// let pos: Position<Kalah> = "kalah 2,2,2/2,2,2 S 0,0".parse()?;
    /// let t = pos.rules.sow_trace(&pos.state, "4".parse()?);
    /// assert_eq!(t.laps[0].drops, [Drop::Pit(5), Drop::Store(Side::South)]);
    /// assert_eq!(t.finish, Finish::Store);
    /// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
    /// ```
    pub fn sow_trace(&self, s: &KalahState, mv: KalahMove) -> SowTrace {
        let m = crate::rules::Rules::pits_per_row(self);
        let n2 = 2 * m;
        let mover = s.turn;
        let own = self.row(mover);
        let last_own = own.end - 1;
        let pit = mv.0 as usize;
        let mut b: Vec<u32> = s.pits[..n2].iter().map(|&x| x as u32).collect();
        let hand = b[pit];
        b[pit] = 0;
        let mut drops = Vec::new();
        let mut sown = Vec::new();
        let mut p = pit;
        let mut in_store = false;
        for _ in 0..hand {
            if in_store {
                in_store = false;
                p = (last_own + 1) % n2;
            } else if p == last_own {
                in_store = true;
                drops.push(Drop::Store(mover));
                continue;
            } else {
                p = (p + 1) % n2;
            }
            b[p] += 1;
            sown.push(p);
            drops.push(Drop::Pit(p));
        }
        let mut t = SowTrace {
            mover,
            laps: vec![Lap {
                lift: pit,
                seeds: hand,
                kept: 0,
                dir: Direction::Ccw,
                sown,
                drops,
            }],
            finish: Finish::KalahEnd,
            captured_pits: Vec::new(),
            bonus_pits: Vec::new(),
            landing_taken: None,
            captured: 0,
            turn_passes: true,
            truncated: false,
        };
        t.captured = t.laps[0]
            .drops
            .iter()
            .filter(|d| matches!(d, Drop::Store(_)))
            .count() as u32;
        if in_store {
            t.finish = Finish::Store; // R2
            t.turn_passes = false;
        } else if own.contains(&p) && b[p] == 1 {
            // R3: the landing seed and the opposite pit, even when it is empty.
            let opp = n2 - 1 - p;
            t.captured_pits.push((opp, b[opp]));
            t.landing_taken = Some(p);
            t.captured += 1 + b[opp];
        }
        t
    }
}

impl Kiothi {
    /// The lap-by-lap trace of a Kiothi sowing `mv` in `s` for the side to move (K5-K9,
    /// K11); `None` for an opening redistribution (K3), which sows nothing.
    ///
    /// The first lap lifts `k` warriors and keeps the rest in the pit ([`Lap::kept`]); a
    /// lap ending in an occupied pit relays it in the same direction (K7); a lap ending in
    /// an empty pit ends the move (K8): in the opponent's row [`Finish::OpponentRow`], in
    /// the mover's row a capture of the opposite pit with the capturing warrior
    /// ([`Finish::Capture`]) unless that pit is empty or nki ([`Finish::NoCapture`]). The
    /// K9 bonus pits are traced when the move takes the bonus and it is available. The move
    /// is not checked otherwise: a first lap ending in an occupied own pit is traced as
    /// [`Finish::FirstLapOwnRow`] (K6), an endless sowing for its first
    /// [`ENDLESS_LAPS_SHOWN`] laps as [`Finish::Endless`] (K11).
    ///
    /// # Examples
    ///
    /// Pit 19 lifts 2 of its 6 warriors: they fall into 0 and 1 (North's row), pit 1 held
    /// 3, now 4, so it is relayed (K7) into 2 to 5; pit 5 was empty and is North's: the turn
    /// passes, nothing captured.
    ///
    /// ```
    /// use giuthi::Position;
    /// use giuthi::rules::kiothi::Kiothi;
    /// use giuthi::rules::trace::Finish;
    /// let pos: Position<Kiothi> = "kiothi 0,3,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,6 S 0,0 play".parse()?;
    /// let t = pos.rules.sow_trace(&pos.state, "19x2".parse()?).unwrap();
    /// assert_eq!((t.laps[0].seeds, t.laps[0].kept), (2, 4));
    /// assert_eq!(t.laps[0].sown, [0, 1]);
    /// assert_eq!((t.laps[1].lift, t.laps[1].seeds), (1, 4));
    /// assert_eq!(t.laps[1].sown, [2, 3, 4, 5]);
    /// assert_eq!(t.finish, Finish::OpponentRow);
    /// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
    /// ```
    pub fn sow_trace(&self, s: &KiothiState, mv: KiothiMove) -> Option<SowTrace> {
        let KiothiMove::Sow { pit, k, bonus } = mv else {
            return None;
        };
        let (pit, k) = (pit as usize, k as u32);
        let n2 = super::kiothi::PITS;
        let mover = s.turn;
        let own = self.row(mover);
        let endless = matches!(self.sow(s, pit, k), Err(SowError::Endless { .. }));
        let bit = |p: usize| 1u32 << p;
        let dir = self.variant().dir;
        let step = |p: usize| match dir {
            Direction::Ccw => (p + 1) % n2,
            Direction::Cw => (p + n2 - 1) % n2,
        };
        let mut b: Vec<u32> = s.pits.iter().map(|&x| x as u32).collect();
        let mut nki = s.nki & !bit(pit);
        let mut stale = s.stale;
        let kept = b[pit].saturating_sub(k);
        b[pit] = kept;
        let mut t = SowTrace {
            mover,
            laps: Vec::new(),
            finish: Finish::OpponentRow,
            captured_pits: Vec::new(),
            bonus_pits: Vec::new(),
            landing_taken: None,
            captured: 0,
            turn_passes: true,
            truncated: false,
        };
        let (mut at, mut hand, mut drops) = (pit, k, 0usize);
        loop {
            let mut sown = Vec::with_capacity(hand as usize);
            let mut p = at;
            for _ in 0..hand {
                p = step(p);
                b[p] += 1;
                stale &= !bit(p);
                sown.push(p);
            }
            drops += sown.len();
            let first = t.laps.is_empty();
            t.laps.push(Lap {
                lift: at,
                seeds: hand,
                kept: if first { kept } else { 0 },
                dir,
                drops: sown.iter().map(|&p| Drop::Pit(p)).collect(),
                sown,
            });
            if b[p] > 1 {
                if first && own.contains(&p) {
                    t.finish = Finish::FirstLapOwnRow; // K6
                    return Some(t);
                }
                if drops > MAX_TRACED_DROPS || (endless && t.laps.len() >= ENDLESS_LAPS_SHOWN) {
                    t.finish = Finish::Endless;
                    t.truncated = true;
                    return Some(t);
                }
                hand = b[p]; // K7: the whole pit, its nki mark gone
                b[p] = 0;
                nki &= !bit(p);
                at = p;
                continue;
            }
            if !own.contains(&p) {
                return Some(t); // K8, the opponent's row
            }
            let o = self.opposite(p);
            if b[o] == 0 || nki & bit(o) != 0 {
                t.finish = Finish::NoCapture;
                return Some(t);
            }
            t.finish = Finish::Capture;
            t.captured_pits.push((o, b[o]));
            t.landing_taken = Some(p);
            t.captured = b[o] + 1;
            b[o] = 0;
            b[p] = 0;
            let three = self.bonus_pits(mover);
            if bonus
                && p == self.leftmost(mover)
                && three
                    .iter()
                    .all(|&q| b[q] > 0 && (nki | stale) & bit(q) == 0)
            {
                for q in three {
                    t.bonus_pits.push((q, b[q]));
                    t.captured += b[q];
                }
            }
            return Some(t);
        }
    }
}
