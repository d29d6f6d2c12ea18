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

/// [`perft`] that gives up when `stop()` returns true: `None` then. `stop` is asked about
/// every 4,096 positions with children generated (a few microseconds apart).
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
    let mut calls = 0u32;
    perft_stoppable(rules, s, depth, &mut buffers, &mut calls, stop)
}

fn perft_stoppable<R: Rules>(
    rules: &R,
    s: &R::State,
    depth: u32,
    buf: &mut [Vec<Child<R>>],
    calls: &mut u32,
    stop: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    if depth <= 2 {
        return Some(perft_rec(rules, s, depth, buf));
    }
    *calls = calls.wrapping_add(1);
    if *calls % 4096 == 1 && stop() {
        return None;
    }
    let (head, rest) = buf.split_first_mut().expect("one buffer a ply");
    rules.children(s, head);
    let mut total = 0;
    for c in head.iter() {
        total += perft_stoppable(rules, &c.state, depth - 1, rest, calls, stop)?;
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
