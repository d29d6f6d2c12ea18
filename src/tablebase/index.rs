//! The dense index of a tablebase layer: South-to-move boards ranked by stars and bars,
//! North-to-move positions reached through the row swap (G11), and the Giuthi mirror.
//!
//! A layer of `S` seeds on `2n` pits has `C(S + 2n - 1, 2n - 1)` boards; each is stored
//! once, with South to move. A position with North to move is the row swap of a
//! South-to-move position with the same value for the side to move (proved for Giuthi and
//! Kalah by `tests/all/tablebase.rs::g11_row_swap_*`).

use super::TbGame;
use crate::index::Ranker;
use crate::types::Side;

/// Fills `out[..2n]` with the board of `s` seen with the mover as South (the row swap
/// when North is to move) and returns the seeds on the board.
#[inline]
pub fn south_view<R: TbGame>(rules: &R, s: &R::State, out: &mut [u8; 32]) -> u32 {
    let board = rules.board(s);
    let n = rules.pits_per_row();
    let p = 2 * n;
    let mut seeds = 0u32;
    match rules.turn(s) {
        Side::South => {
            for i in 0..p {
                out[i] = board[i];
                seeds += board[i] as u32;
            }
        }
        Side::North => {
            for i in 0..p {
                let x = board[i];
                out[(i + n) % p] = x;
                seeds += x as u32;
            }
        }
    }
    seeds
}

/// The left-right mirror (G11) of a board of `2n` pits: `i -> n-1-i` on North's row,
/// `n+i -> 2n-1-i` on South's.
#[inline]
pub fn mirror_board(n: usize, b: &[u8], out: &mut [u8]) {
    for i in 0..n {
        out[n - 1 - i] = b[i];
        out[2 * n - 1 - i] = b[n + i];
    }
}

/// The rank of a South-to-move board, or the smaller of its rank and its mirror's when
/// `mirror` is set (the canonical member of the mirror pair).
#[inline]
pub fn canonical_rank(ranker: &Ranker, n: usize, b: &[u8], mirror: bool) -> u64 {
    let r = ranker.rank(&b[..2 * n]);
    if mirror {
        let mut m = [0u8; 32];
        mirror_board(n, b, &mut m);
        r.min(ranker.rank(&m[..2 * n]))
    } else {
        r
    }
}
