//! A deliberately naive second sower for Giuthi (RULES.md G2-G9) and Kalah (R1-R4).
//!
//! It shares no code with `src/rules`: the board is a `Vec<u32>`, seeds are dropped one
//! by one, every relay state of a move goes into a `HashSet` (G7: a move is endless
//! exactly when a relay state comes back), and Kalah is sown on an explicit ring of
//! `2m + 2` cells with the two stores in it. Moves are written as strings in the notation
//! of RULES.md N2 (`7ccw`, `pass`; Kalah: the pit number) so that the comparison with the
//! engine goes through the notation only.
//!
//! It is slow on purpose; use it at small depth and on small boards.

#![allow(dead_code)]

use std::collections::HashMap;

/// One result of a move: what the engine calls a `Child`, in plain data.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct NaiveChild {
    /// The move in notation.
    pub mv: String,
    /// The board after the move, pits `0..2n` in RULES.md order.
    pub board: Vec<u32>,
    /// `true` when South moves next.
    pub south_next: bool,
    /// Seeds the mover captured (Kalah: put into its store).
    pub captured: u32,
}

/// A Giuthi board and its variant, in the naive sower's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NaiveGiuthi {
    /// Pits a row.
    pub n: usize,
    /// Most pits taken after the first opposite pit: `usize::MAX` (run), 1 (one), 0 (none).
    pub chain_limit: usize,
    /// Variant `origin=skip`.
    pub skip_origin: bool,
    /// Variant `end=empty-row`.
    pub end_on_empty_row: bool,
}

/// What one sowing does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sowing {
    /// G7: a relay state came back: the state before lap `returns_to` (0 = the first lap)
    /// is the state before lap `laps` (laps counted from 0).
    Endless {
        /// The lap whose state came back.
        returns_to: usize,
        /// The lap at which it came back.
        laps: usize,
    },
    /// The move ended (G5): board after it, seeds captured, whether the turn passes.
    Ends {
        /// Board after the move.
        board: Vec<u32>,
        /// Seeds captured (G6).
        captured: u32,
        /// `false` for an extra move (G5b).
        turn_passes: bool,
        /// Seeds dropped, all laps together.
        sown: u32,
    },
}

impl NaiveGiuthi {
    /// Parses the variant string of N1 (`chain=one,origin=skip`), by hand.
    pub fn new(n: usize, variant: &str) -> NaiveGiuthi {
        let mut g = NaiveGiuthi {
            n,
            chain_limit: usize::MAX,
            skip_origin: false,
            end_on_empty_row: false,
        };
        for item in variant.split(',').filter(|s| !s.is_empty()) {
            match item {
                "chain=run" => g.chain_limit = usize::MAX,
                "chain=one" => g.chain_limit = 1,
                "chain=none" => g.chain_limit = 0,
                "origin=sow" => g.skip_origin = false,
                "origin=skip" => g.skip_origin = true,
                "end=stuck" => g.end_on_empty_row = false,
                "end=empty-row" => g.end_on_empty_row = true,
                other => panic!("naive sower: unknown variant {other}"),
            }
        }
        g
    }

    fn is_souths(&self, pit: usize) -> bool {
        pit >= self.n
    }

    fn owned_by(&self, pit: usize, south: bool) -> bool {
        self.is_souths(pit) == south
    }

    fn next(&self, pit: usize, ccw: bool) -> usize {
        let ring = 2 * self.n;
        if ccw {
            (pit + 1) % ring
        } else {
            (pit + ring - 1) % ring
        }
    }

    fn across(&self, pit: usize) -> usize {
        2 * self.n - 1 - pit
    }

    /// Sows `pit` in the given direction for South (`south == true`) or North.
    pub fn sow(&self, board: &[u32], south: bool, pit: usize, ccw: bool) -> Sowing {
        let mut b = board.to_vec();
        let mut seen: HashMap<(Vec<u32>, usize, u32, bool), usize> = HashMap::new();
        let mut from = pit;
        let mut hand = b[pit];
        b[pit] = 0;
        let mut ccw = ccw;
        let mut dropped_in_opponent_row = false;
        let mut sown = 0;
        loop {
            let laps = seen.len();
            if let Some(&returns_to) = seen.get(&(b.clone(), from, hand, ccw)) {
                return Sowing::Endless { returns_to, laps };
            }
            seen.insert((b.clone(), from, hand, ccw), laps);
            let mut here = from;
            for _ in 0..hand {
                here = self.next(here, ccw);
                if self.skip_origin && here == pit {
                    here = self.next(here, ccw);
                }
                b[here] += 1;
                sown += 1;
                if !self.owned_by(here, south) {
                    dropped_in_opponent_row = true;
                }
            }
            let was_occupied = b[here] >= 2;
            if was_occupied {
                // G4: relay, the other way round.
                hand = b[here];
                b[here] = 0;
                from = here;
                ccw = !ccw;
                continue;
            }
            // G5.
            if !self.owned_by(here, south) {
                return Sowing::Ends {
                    board: b,
                    captured: 0,
                    turn_passes: true,
                    sown,
                };
            }
            if !dropped_in_opponent_row {
                return Sowing::Ends {
                    board: b,
                    captured: 0,
                    turn_passes: false,
                    sown,
                };
            }
            // G6.
            let mut captured = 0;
            if b[self.across(here)] > 0 {
                captured += b[self.across(here)];
                b[self.across(here)] = 0;
                let mut r = here;
                let mut extra_pits = 0;
                loop {
                    if extra_pits >= self.chain_limit {
                        break;
                    }
                    r = self.next(r, ccw);
                    if !self.owned_by(r, south) || b[r] != 0 || b[self.across(r)] == 0 {
                        break;
                    }
                    captured += b[self.across(r)];
                    b[self.across(r)] = 0;
                    extra_pits += 1;
                }
                captured += b[here];
                b[here] = 0;
            }
            return Sowing::Ends {
                board: b,
                captured,
                turn_passes: true,
                sown,
            };
        }
    }

    fn row_is_empty(&self, board: &[u32], south: bool) -> bool {
        (0..2 * self.n)
            .filter(|&p| self.owned_by(p, south))
            .all(|p| board[p] == 0)
    }

    /// Every legal sowing of `south`'s side, pits in index order, cw before ccw.
    fn sowings(&self, board: &[u32], south: bool) -> Vec<NaiveChild> {
        let mut out = Vec::new();
        for pit in 0..2 * self.n {
            if !self.owned_by(pit, south) || board[pit] < 2 {
                continue;
            }
            for (ccw, name) in [(false, "cw"), (true, "ccw")] {
                if let Sowing::Ends {
                    board: after,
                    captured,
                    turn_passes,
                    ..
                } = self.sow(board, south, pit, ccw)
                {
                    out.push(NaiveChild {
                        mv: format!("{pit}{name}"),
                        board: after,
                        south_next: south != turn_passes,
                        captured,
                    });
                }
            }
        }
        out
    }

    /// The legal moves with their results (G2, G8, G9): sowings, or a lone pass, or
    /// nothing when the game is over.
    pub fn children(&self, board: &[u32], south: bool) -> Vec<NaiveChild> {
        if self.end_on_empty_row && self.row_is_empty(board, south) {
            return Vec::new();
        }
        let mine = self.sowings(board, south);
        if !mine.is_empty() {
            return mine;
        }
        if self.sowings(board, !south).is_empty() {
            return Vec::new();
        }
        vec![NaiveChild {
            mv: "pass".to_string(),
            board: board.to_vec(),
            south_next: !south,
            captured: 0,
        }]
    }

    /// Perft by the naive sower: sequences of `depth` plies (a pass is a ply).
    pub fn perft(&self, board: &[u32], south: bool, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let children = self.children(board, south);
        if depth == 1 {
            return children.len() as u64;
        }
        children
            .iter()
            .map(|c| self.perft(&c.board, c.south_next, depth - 1))
            .sum()
    }
}

/// Kalah with `m` pits a row on an explicit ring: cells `0..m` are North's pits, cell `m`
/// North's store, cells `m+1..2m+1` South's pits, cell `2m+1` South's store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NaiveKalah {
    /// Pits a row.
    pub m: usize,
}

impl NaiveKalah {
    fn cell_of_pit(&self, pit: usize) -> usize {
        if pit < self.m {
            pit
        } else {
            pit + 1
        }
    }

    fn pit_of_cell(&self, cell: usize) -> Option<usize> {
        let m = self.m;
        if cell < m {
            Some(cell)
        } else if cell == m || cell == 2 * m + 1 {
            None
        } else {
            Some(cell - 1)
        }
    }

    /// Legal moves of the side to move (R1-R4), each with its result.
    pub fn children(&self, board: &[u32], south: bool) -> Vec<NaiveChild> {
        let m = self.m;
        let north_empty = board[..m].iter().all(|&x| x == 0);
        let south_empty = board[m..].iter().all(|&x| x == 0);
        if north_empty || south_empty {
            return Vec::new(); // R4
        }
        let cells = 2 * m + 2;
        let my_store = if south { 2 * m + 1 } else { m };
        let their_store = if south { m } else { 2 * m + 1 };
        let mut out = Vec::new();
        let own_pits: Vec<usize> = if south {
            (m..2 * m).collect()
        } else {
            (0..m).collect()
        };
        for &pit in &own_pits {
            if board[pit] == 0 {
                continue;
            }
            let mut ring = vec![0u32; cells];
            for (p, &x) in board.iter().enumerate() {
                ring[self.cell_of_pit(p)] = x;
            }
            let mut cell = self.cell_of_pit(pit);
            let mut hand = ring[cell];
            ring[cell] = 0;
            while hand > 0 {
                cell = (cell + 1) % cells;
                if cell == their_store {
                    continue;
                }
                ring[cell] += 1;
                hand -= 1;
            }
            let mut extra = false;
            if cell == my_store {
                extra = true; // R2
            } else if let Some(p) = self.pit_of_cell(cell) {
                if own_pits.contains(&p) && ring[cell] == 1 {
                    // R3, even when the opposite pit is empty.
                    let opposite_cell = self.cell_of_pit(2 * m - 1 - p);
                    ring[my_store] += ring[cell] + ring[opposite_cell];
                    ring[cell] = 0;
                    ring[opposite_cell] = 0;
                }
            }
            let after: Vec<u32> = (0..2 * m).map(|p| ring[self.cell_of_pit(p)]).collect();
            out.push(NaiveChild {
                mv: pit.to_string(),
                board: after,
                south_next: south == extra,
                captured: ring[my_store],
            });
        }
        out
    }

    /// Perft by the naive Kalah sower.
    pub fn perft(&self, board: &[u32], south: bool, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let children = self.children(board, south);
        if depth == 1 {
            return children.len() as u64;
        }
        children
            .iter()
            .map(|c| self.perft(&c.board, c.south_next, depth - 1))
            .sum()
    }
}
