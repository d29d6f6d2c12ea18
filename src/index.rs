//! Stars-and-bars ranking of seed distributions: the dense index of a layer.
//!
//! A layer is the set of boards with exactly `S` seeds on `P` pits; it has
//! `C(S + P - 1, P - 1)` boards. [`Ranker::rank`] maps a board of the layer to
//! `0..layer_size(S)` bijectively (the colex rank of the bar positions, the combinatorial
//! number system), and [`Ranker::unrank`] inverts it. [`Ranker::cumulative`] counts the
//! boards of all smaller layers, so `cumulative(S) + rank` numbers every board with at most
//! `S` seeds; the solver's exact keys are built from it.
//!
//! # Format
//!
//! For pits `x_0..x_{P-1}` with prefix sums `s_j = x_0 + ... + x_j`, bar `j` (for
//! `j = 0..P-2`) stands at slot `b_j = s_j + j`, and `rank = sum_j C(b_j, j + 1)`.
//!
//! # Stability
//!
//! Tablebase files store values in rank order, so this order is part of their format
//! (format version 1). It never changes without a new format version.
//!
//! # Examples
//!
//! ```
//! use giuthi::index::Ranker;
//! let r = Ranker::new(3, 4);
//! assert_eq!(r.layer_size(2), 6); // C(4, 2)
//! let mut seen = vec![];
//! for b in [[0, 0, 2], [0, 1, 1], [1, 0, 1], [0, 2, 0], [1, 1, 0], [2, 0, 0]] {
//!     seen.push(r.rank(&b));
//! }
//! assert_eq!(seen, vec![0, 1, 2, 3, 4, 5]);
//! let mut back = [0u8; 3];
//! r.unrank(2, 2, &mut back);
//! assert_eq!(back, [1, 0, 1]);
//! ```

/// Binomial tables for ranking boards of `pits` pits with up to `max_seeds` seeds.
#[derive(Debug, Clone)]
pub struct Ranker {
    pits: usize,
    max_seeds: usize,
    /// `binom[a * (pits + 1) + b] = C(a, b)` for `a <= max_seeds + pits`, `b <= pits`,
    /// saturating at `u64::MAX`.
    binom: Vec<u64>,
}

impl Ranker {
    /// Tables for boards of `pits` pits (at least 1) holding at most `max_seeds` seeds.
    ///
    /// # Panics
    ///
    /// If `pits == 0`.
    pub fn new(pits: usize, max_seeds: usize) -> Ranker {
        assert!(pits > 0, "a board has at least one pit");
        let rows = max_seeds + pits + 1;
        let cols = pits + 1;
        let mut binom = vec![0u64; rows * cols];
        for a in 0..rows {
            binom[a * cols] = 1;
            for b in 1..cols.min(a + 1) {
                let x = binom[(a - 1) * cols + b - 1];
                let y = binom[(a - 1) * cols + b];
                binom[a * cols + b] = x.saturating_add(y);
            }
            if a < cols {
                binom[a * cols + a] = 1;
            }
        }
        Ranker {
            pits,
            max_seeds,
            binom,
        }
    }

    /// Pits per board.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// The largest seed count the tables cover.
    pub fn max_seeds(&self) -> usize {
        self.max_seeds
    }

    /// `C(a, b)`, saturating at `u64::MAX` (0 when `b > a`).
    ///
    /// # Panics
    ///
    /// If `a > max_seeds + pits` or `b > pits`.
    #[inline]
    pub fn binomial(&self, a: usize, b: usize) -> u64 {
        if b > a {
            return 0;
        }
        self.binom[a * (self.pits + 1) + b]
    }

    /// Boards with exactly `seeds` seeds: `C(seeds + P - 1, P - 1)` (saturating).
    pub fn layer_size(&self, seeds: usize) -> u64 {
        self.binomial(seeds + self.pits - 1, self.pits - 1)
    }

    /// Boards with fewer than `seeds` seeds: `C(seeds + P - 1, P)` (saturating).
    pub fn cumulative(&self, seeds: usize) -> u64 {
        if seeds == 0 {
            0
        } else {
            self.binomial(seeds + self.pits - 1, self.pits)
        }
    }

    /// The rank of `board` within its layer, in `0..layer_size(sum)`.
    ///
    /// # Panics
    ///
    /// If `board.len() != pits` or the seeds exceed `max_seeds` (may panic on index).
    #[inline]
    pub fn rank(&self, board: &[u8]) -> u64 {
        debug_assert_eq!(board.len(), self.pits);
        let cols = self.pits + 1;
        let mut rank = 0u64;
        // Bar j stands at slot s_j + j: the index of C(s_j + j, j + 1) is
        // (s_j + j) * cols + j + 1, advanced pit by pit (no multiplication by j).
        let mut idx = 1usize;
        for &x in &board[..self.pits - 1] {
            idx += x as usize * cols;
            rank = rank.wrapping_add(self.binom[idx]);
            idx += cols + 1;
        }
        rank
    }

    /// Writes into `board` (length `pits`) the board of `seeds` seeds with rank `rank`.
    ///
    /// # Panics
    ///
    /// If `rank >= layer_size(seeds)`, `seeds > max_seeds` or `board.len() != pits`.
    pub fn unrank(&self, mut rank: u64, seeds: usize, board: &mut [u8]) {
        assert_eq!(board.len(), self.pits);
        assert!(rank < self.layer_size(seeds), "rank out of range");
        let p = self.pits;
        // Bars j = P-2 down to 0; bar j at slot b_j, the largest b with C(b, j+1) <= rank.
        let mut upper = seeds + p - 1; // bars stand below this slot
        let mut prev_slot = seeds + p - 1; // virtual bar after the last pit
        for j in (0..p - 1).rev() {
            let mut b = upper - 1;
            while self.binomial(b, j + 1) > rank {
                b -= 1;
            }
            rank -= self.binomial(b, j + 1);
            // pit j+1 holds the slots strictly between bar j and bar j+1
            board[j + 1] = (prev_slot - b - 1) as u8;
            prev_slot = b;
            upper = b;
        }
        board[0] = prev_slot as u8;
    }

    /// Steps `board` (length `pits`) to the board of the next rank in its layer, so that
    /// `rank` rises by one; returns `false`, leaving `board` as it was, when it holds the
    /// layer's last board (all its seeds in pit 0). A few byte operations where
    /// [`Ranker::unrank`] searches the binomial tables: a walk through a layer in rank
    /// order unranks its first board only.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::index::Ranker;
    /// let r = Ranker::new(3, 4);
    /// let mut b = [0, 0, 2]; // rank 0
    /// assert!(r.step(&mut b));
    /// assert_eq!((b, r.rank(&b)), ([0, 1, 1], 1));
    /// let mut last = [2, 0, 0];
    /// assert!(!r.step(&mut last));
    /// ```
    #[inline]
    pub fn step(&self, board: &mut [u8]) -> bool {
        // The colex successor of the bars: the first bar `j` with a free slot above it
        // (pit `j + 1` not empty) moves up one slot, and the bars below it go down to the
        // bottom: pit `j + 1` gives a seed, pit `j` takes it and the seeds of pits `0..j`.
        let mut below = 0u32; // the seeds of pits 0..=j
        for j in 0..self.pits - 1 {
            below += board[j] as u32;
            if board[j + 1] > 0 {
                board[j + 1] -= 1;
                board[..j].fill(0);
                board[j] = (below + 1) as u8;
                return true;
            }
        }
        false
    }
}

/// Exact 64-bit keys of (board, turn) pairs: `2 * (cumulative(S) + rank) + turn`, exact
/// for boards of at most [`BoardKeys::exact_limit`] seeds, a 64-bit hash above that.
///
/// # Examples
///
/// ```
/// use giuthi::index::BoardKeys;
/// use giuthi::Side;
/// let keys = BoardKeys::new(4, 255);
/// assert_eq!(keys.key(&[0, 0, 0, 0], Side::South), 0);
/// assert_eq!(keys.key(&[0, 0, 0, 0], Side::North), 1);
/// assert_eq!(keys.key(&[0, 0, 0, 1], Side::South), 2);
/// assert_eq!(keys.exact_limit(), 255);
/// ```
#[derive(Debug, Clone)]
pub struct BoardKeys {
    ranker: Ranker,
    exact_limit: u32,
    /// `cumulative[s]` = [`Ranker::cumulative`]`(s)` for `s <= exact_limit`.
    cumulative: Vec<u64>,
}

impl BoardKeys {
    /// Keys for boards of `pits` pits holding at most `max_seeds` seeds.
    pub fn new(pits: usize, max_seeds: u32) -> BoardKeys {
        let ranker = Ranker::new(pits, max_seeds as usize + 1);
        let mut exact_limit = 0;
        for s in 0..=max_seeds {
            let c = ranker.cumulative(s as usize + 1);
            if c > u64::MAX / 2 - 1 {
                break;
            }
            exact_limit = s;
        }
        let cumulative = (0..=exact_limit as usize)
            .map(|s| ranker.cumulative(s))
            .collect();
        BoardKeys {
            ranker,
            exact_limit,
            cumulative,
        }
    }

    /// The largest seed count for which keys are exact (collision-free).
    pub fn exact_limit(&self) -> u32 {
        self.exact_limit
    }

    /// The key of `board` (one byte a pit) with `turn` to move.
    #[inline]
    pub fn key(&self, board: &[u8], turn: crate::types::Side) -> u64 {
        let t = turn.index() as u64;
        // One pass: the seeds and the rank together (Ranker::rank's loop, its index
        // advanced pit by pit); a board past the binomial tables or the exact limit is
        // hashed. The search keys every node it visits (docs/performance.md, session 9).
        if let Some((&last, head)) = board.split_last() {
            let cols = self.ranker.pits + 1;
            let binom = &self.ranker.binom;
            let mut idx = 1usize;
            let mut seeds = 0usize;
            let mut rank = 0u64;
            let mut covered = true;
            for &x in head {
                seeds += x as usize;
                idx += x as usize * cols;
                match binom.get(idx) {
                    Some(&c) => rank = rank.wrapping_add(c),
                    None => {
                        covered = false;
                        break;
                    }
                }
                idx += cols + 1;
            }
            if covered {
                if let Some(&below) = self.cumulative.get(seeds + last as usize) {
                    return 2 * (below + rank) + t;
                }
            }
        }
        let mut h = t ^ 0x9e37_79b9_7f4a_7c15;
        for chunk in board.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            h = mix64(h ^ u64::from_le_bytes(w));
        }
        h
    }
}

/// A 64-bit finaliser (splitmix64).
#[inline]
pub fn mix64(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_unrank_bijection_small_layers() {
        for pits in 1..=6 {
            let r = Ranker::new(pits, 8);
            for seeds in 0..=8 {
                let size = r.layer_size(seeds);
                let mut b = vec![0u8; pits];
                for k in 0..size {
                    r.unrank(k, seeds, &mut b);
                    assert_eq!(b.iter().map(|&x| x as usize).sum::<usize>(), seeds);
                    assert_eq!(r.rank(&b), k, "pits {pits} seeds {seeds} board {b:?}");
                }
            }
        }
    }

    /// The one-pass key equals `2 * (cumulative(S) + rank) + turn` (its definition) on
    /// every board of up to 6 seeds on 5 pits, and past the exact limit is a hash of the
    /// board and the turn (no panic).
    #[test]
    fn board_keys_match_the_rank_definition() {
        use crate::types::Side;
        let keys = BoardKeys::new(5, 40);
        let r = Ranker::new(5, 41);
        let mut b = [0u8; 5];
        for seeds in 0..=6 {
            for k in 0..r.layer_size(seeds) {
                r.unrank(k, seeds, &mut b);
                for (t, side) in [(0, Side::South), (1, Side::North)] {
                    let want = 2 * (r.cumulative(seeds) + r.rank(&b)) + t;
                    assert_eq!(keys.key(&b, side), want, "board {b:?}");
                }
            }
        }
        // 12 pits of 255 seeds: past the exact limit, hashed (no panic).
        let big = BoardKeys::new(12, 255);
        assert!(big.exact_limit() < 255);
        let full = [255u8; 12];
        assert_eq!(big.key(&full, Side::South), big.key(&full, Side::South));
        assert_ne!(big.key(&full, Side::South), big.key(&full, Side::North));
    }

    /// Stepping through a layer from rank 0 visits every board in rank order and stops at
    /// the last.
    #[test]
    fn step_walks_the_layer_in_rank_order() {
        for pits in 1..=6 {
            let r = Ranker::new(pits, 8);
            for seeds in 0..=8 {
                let size = r.layer_size(seeds);
                let mut b = vec![0u8; pits];
                let mut want = vec![0u8; pits];
                r.unrank(0, seeds, &mut b);
                for k in 1..size {
                    assert!(r.step(&mut b), "pits {pits} seeds {seeds} rank {k}");
                    r.unrank(k, seeds, &mut want);
                    assert_eq!(b, want, "pits {pits} seeds {seeds} rank {k}");
                }
                let last = b.clone();
                assert!(!r.step(&mut b));
                assert_eq!(b, last);
            }
        }
    }

    #[test]
    fn cumulative_is_sum_of_layers() {
        let r = Ranker::new(10, 40);
        let mut total = 0;
        for s in 0..=40 {
            assert_eq!(r.cumulative(s), total);
            total += r.layer_size(s);
        }
    }
}
