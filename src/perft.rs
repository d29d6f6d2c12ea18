//! Perft: counting move sequences, to pin move generation (STYLE.md, tests).
//!
//! `perft(d)` counts the sequences of exactly `d` plies from a position, where every legal
//! move (a pass and an extra move included) is one ply. A finished game contributes 0 at
//! any depth above 0 and 1 at depth 0.

use crate::rules::{Child, Rules};

/// Counts the move sequences of `depth` plies from `s`.
///
/// # Examples
///
/// ```
/// use giuthi::perft::perft;
/// use giuthi::rules::giuthi::{Giuthi, Variant};
/// let g = Giuthi::new(5, Variant::default())?;
/// assert_eq!(perft(&g, &g.start(4), 1), 10);
/// # Ok::<(), giuthi::rules::giuthi::BoardError>(())
/// ```
pub fn perft<R: Rules>(rules: &R, s: &R::State, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Child<R>>> = (0..=depth).map(|_| Vec::new()).collect();
    perft_rec(rules, s, depth, &mut buffers)
}

/// [`perft`] that gives up when `stop()` returns true: `None` then. `stop` is asked at
/// every position at least 2 plies above the leaves, and inside a long Kiothi sowing
/// ([`Rules::children_until`], K11), so a stop is obeyed within one position's moves (a
/// cheap `stop`, such as an atomic flag's load, costs little beside them; asked every
/// 4,096 positions, a stop took up to 45 s on a Kiothi board with long laps).
///
/// # Examples
///
/// ```
/// use giuthi::perft::{perft, perft_until};
/// use giuthi::rules::giuthi::{Giuthi, Variant};
/// let g = Giuthi::new(5, Variant::default())?;
/// assert_eq!(perft_until(&g, &g.start(4), 3, &mut || false), Some(perft(&g, &g.start(4), 3)));
/// assert_eq!(perft_until(&g, &g.start(4), 6, &mut || true), None);
/// # Ok::<(), giuthi::rules::giuthi::BoardError>(())
/// ```
pub fn perft_until<R: Rules>(
    rules: &R,
    s: &R::State,
    depth: u32,
    stop: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    let mut buffers: Vec<Vec<Child<R>>> = (0..=depth).map(|_| Vec::new()).collect();
    perft_stoppable(rules, s, depth, &mut buffers, stop)
}

fn perft_stoppable<R: Rules>(
    rules: &R,
    s: &R::State,
    depth: u32,
    buf: &mut [Vec<Child<R>>],
    stop: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if depth >= 2 && stop() {
        return None;
    }
    let (head, rest) = buf.split_first_mut().expect("one buffer a ply");
    // A Kiothi sowing of millions of laps (K11) is given up too when `stop` says so.
    if rules.children_until(s, head, stop) > 0 {
        return None;
    }
    if depth == 1 {
        return Some(head.len() as u64);
    }
    let mut total = 0;
    for c in head.iter() {
        total += perft_stoppable(rules, &c.state, depth - 1, rest, stop)?;
    }
    Some(total)
}

fn perft_rec<R: Rules>(rules: &R, s: &R::State, depth: u32, buf: &mut [Vec<Child<R>>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (head, rest) = buf.split_first_mut().expect("one buffer a ply");
    rules.children(s, head);
    if depth == 1 {
        return head.len() as u64;
    }
    let mut total = 0;
    for c in head.iter() {
        total += perft_rec(rules, &c.state, depth - 1, rest);
    }
    total
}

/// Perft split by first move: each legal move with the count below it (`depth - 1` plies).
///
/// # Panics
///
/// If `depth == 0`.
pub fn divide<R: Rules>(rules: &R, s: &R::State, depth: u32) -> Vec<(R::Move, u64)> {
    assert!(depth > 0, "divide needs depth >= 1");
    let mut children = Vec::new();
    rules.children(s, &mut children);
    children
        .iter()
        .map(|c| (c.mv, perft(rules, &c.state, depth - 1)))
        .collect()
}
