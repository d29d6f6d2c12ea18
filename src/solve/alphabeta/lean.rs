//! The lean search: the null-window test of [`Worker::test`] for games that cannot repeat
//! ([`Rules::can_repeat`] is `false`: Kalah), without the machinery those games never use.
//!
//! Where no state can come back, `lo == hi` everywhere (RULES.md V2): no path is kept, no
//! repetition can hit the proof, strict mode never applies (a history cannot recur), and
//! the test's answer is the positional value's. So a node here is the futility bounds, the
//! endgame oracle, the table, the children in the move order's sequence and the store,
//! nothing else: the children are ordered by an insertion sort into fixed arrays (no
//! per-depth order vector, no copies of [`Child`]), there is one pass over them (no
//! deferral), and neither the history heuristic nor a helper's perturbation is consulted.
//!
//! The worker sends a node here only where the general search would do exactly the same
//! (`Worker::lean_depth`: a game that cannot repeat, no ETC, no history heuristic, and
//! below the depths where its thread defers or perturbs), so without an endgame oracle the
//! lean path visits the same nodes in the same order, stores the same entries and returns
//! the same fail-soft bounds as [`Worker::test_full`] would: node counts at one thread are
//! unchanged (docs/performance.md, Session 11), and the exactness tests of the solver
//! (naive graph, tablebases, threads) run through it.
//!
//! With an oracle (Kalah's `--tb`), a lean node first *peeks*, as Irving's solver does
//! (girving/kalah, `crunch.cilk`): every child the oracle covers is answered at once from
//! its entry (all their entries prefetched together), and only if none of them proves the
//! test are the other children searched, in the same order. Ordering only: the same
//! children decide, so the values are the same; the nodes are fewer (Kalah(6,5) with the
//! 25-seed tables: 1,294,021,217 -> 1,191,353,551, docs/performance.md, Session 17).
//!
//! The path cap ([`SolverOptions::max_ply`](super::SolverOptions::max_ply)) and the end
//! of the thread's stack are still honoured, since a user may set a short cap.

use super::{child_threshold, futility, to_parent, Res, Worker, NO_REP};
use crate::rules::{Child, Rules};
use crate::solve::tt::work_of;
use crate::solve::EndgameOracle;
use crate::types::Side;
use crate::value::{Score, NEG_INF, POS_INF};
use std::sync::atomic::Ordering;

/// Children whose table buckets the lean search prefetches before searching the first;
/// each later child's is prefetched when the child `LEAN_PREFETCH_AHEAD - 1` places before
/// it is searched. Four here where the general search prefetches two
/// (`PREFETCH_AHEAD`, tuned on Giuthi and on an AMD machine whose prefetches waited for
/// their page walks): on the Intel machine of session 12, Kalah(5,5) `--hash 1024` took
/// 4 to 8% less user CPU with four in three alternated pairs, the same nodes (Kalah(6,4):
/// within the noise; one ahead was 30% slower there; docs/performance.md, Session 12).
const LEAN_PREFETCH_AHEAD: usize = 4;

/// The most children a lean node orders in its fixed arrays (Kalah's rows have at most 16
/// pits); a node with more is handed to [`Worker::test_full`].
const LEAN_MAX_KIDS: usize = 16;

impl<R: Rules> Worker<'_, R> {
    /// [`Worker::test`] of a node already counted, in a game that cannot repeat (see the
    /// module documentation): is the value of `s` (key `key`) for its mover `>= x`, with
    /// a fail-soft bound? `None` when stopped.
    pub(super) fn lean(
        &mut self,
        s: &R::State,
        key: u64,
        x: Score,
        ply: usize,
        bad: Side,
    ) -> Option<Res> {
        let nodes0 = self.nodes;
        let yes = |v: Score| Res::plain(true, v);
        let no = |v: Score| Res::plain(false, v);
        let rules = self.rules;
        let mover_bad = rules.turn(s) == bad;
        let seeds32 = rules.seeds_on_board(s);
        let seeds = seeds32 as Score;
        // The exact futility bounds, as in the general search.
        let x = match futility(x, seeds, mover_bad) {
            Ok(x) => x,
            Err(r) => return r,
        };
        debug_assert_eq!(key, rules.key(s));
        let oracle_max = self.solver.oracle_max;
        if let Some(o) = &self.solver.oracle {
            if oracle_max.map_or(true, |m| seeds32 <= m) {
                if let Some(b) = o.probe(s) {
                    let v = if mover_bad { b.lo } else { b.hi };
                    return if v >= x { yes(v) } else { no(v) };
                }
            }
        }
        let mut tt_move = None;
        if let Some(e) = self.solver.tt.probe(key, mover_bad) {
            if e.lower >= x {
                return yes(e.lower);
            }
            if e.upper < x {
                return no(e.upper);
            }
            tt_move = e.best;
        }
        let depth = ply - self.base;
        if self.kids.len() <= depth {
            self.kids.push(Vec::new());
            self.order.push(Vec::new());
        }
        let mut kids = std::mem::take(&mut self.kids[depth]);
        let stop = &self.solver.stop;
        if rules.children_until(s, &mut kids, &mut || stop.load(Ordering::Relaxed)) > 0 {
            self.kids[depth] = kids;
            return None;
        }
        let n = kids.len();
        if n == 0 {
            self.kids[depth] = kids;
            let v = rules.final_value(s);
            return if v >= x { yes(v) } else { no(v) };
        }
        // Stack used by the search frames so far (a local's address; never dereferenced).
        let used = self.stack_top.abs_diff(std::ptr::addr_of!(x) as usize);
        if n > LEAN_MAX_KIDS || depth >= self.cap || used > self.stack_room {
            // The general search handles these (and cuts the node at the cap); it
            // generates the children again.
            self.kids[depth] = kids;
            return self.test_full_cold(s, key, x, ply, bad);
        }
        // The move order: the table's move, then the scheme's keys, larger first (the
        // keys differ: each carries the child's index), by insertion into fixed arrays.
        let scheme = self.scheme;
        let mut rank = [0i64; LEAN_MAX_KIDS];
        let mut index = [0u8; LEAN_MAX_KIDS];
        for (i, c) in kids.iter().enumerate() {
            let mut r = scheme.key(c, i, 0);
            if Some(i as u8) == tt_move {
                r += 1 << 60;
            }
            let mut j = i;
            while j > 0 && rank[j - 1] < r {
                rank[j] = rank[j - 1];
                index[j] = index[j - 1];
                j -= 1;
            }
            rank[j] = r;
            index[j] = i as u8;
        }
        // A child's key is computed, and its bucket prefetched, LEAN_PREFETCH_AHEAD children
        // before it is searched (a child the oracle covers but did not answer in the peek
        // gets its oracle entry prefetched instead), as in the general search (there two
        // ahead).
        let tt = &self.solver.tt;
        let oracle = self.solver.oracle.as_deref();
        let keyed = |c: &Child<R>| {
            let k = rules.key(&c.state);
            match oracle {
                Some(o) if matches!(oracle_max, Some(m) if rules.seeds_on_board(&c.state) <= m) => {
                    o.prefetch(&c.state);
                }
                _ => tt.prefetch(k, rules.turn(&c.state) == bad),
            }
            k
        };
        let mut ckeys = [0u64; LEAN_MAX_KIDS];
        let mut capped = false;
        let mut ok = false;
        // Fail-low: the largest upper bound of the moves; fail-high: the proving bound.
        let mut v = NEG_INF;
        let mut best = None;
        // The peek: the children the oracle covers are answered first, all of them, before
        // any other child is searched (their entries prefetched together); one that
        // proves the test ends the node, the others leave the search only the rest.
        let mut n = n;
        if let (Some(o), Some(m)) = (oracle, oracle_max) {
            match self.peek(o, m, &kids, &mut index[..n], x, bad) {
                None => {
                    self.kids[depth] = kids;
                    return None;
                }
                Some(Peek::Proved(i, pv)) => {
                    ok = true;
                    best = Some(i);
                    v = pv;
                    n = 0;
                }
                Some(Peek::Rest(rest, pv)) => {
                    v = pv;
                    n = rest;
                }
            }
        }
        for j in 0..n.min(LEAN_PREFETCH_AHEAD) {
            ckeys[j] = keyed(&kids[index[j] as usize]);
        }
        for j in 0..n {
            if j >= 1 && j + LEAN_PREFETCH_AHEAD - 1 < n {
                let j2 = j + LEAN_PREFETCH_AHEAD - 1;
                ckeys[j2] = keyed(&kids[index[j2] as usize]);
            }
            let i = index[j];
            let c = &kids[i as usize];
            let (xc, invert) = child_threshold(x, c);
            let Some(r) = self.test(&c.state, ckeys[j], xc, ply + 1, bad) else {
                self.kids[depth] = kids;
                return None;
            };
            let pv = to_parent(r.v, c);
            if r.ok != invert {
                ok = true;
                capped = r.capped;
                best = Some(i);
                v = pv;
                break;
            }
            v = v.max(pv);
            capped |= r.capped;
        }
        self.kids[depth] = kids;
        // The exact futility bounds tighten the answer.
        if ok && !mover_bad {
            v = v.max(-seeds);
        }
        if !ok && mover_bad {
            v = v.min(seeds);
        }
        // What the table may keep (as in the general search, with no repetition): a proof
        // that met cut nodes holds one way only.
        let keep = !capped || (ok == mover_bad) != self.optimistic;
        if keep {
            let work = work_of(self.nodes - nodes0);
            if ok {
                self.solver.tt.store(key, mover_bad, v, POS_INF, best, work);
            } else {
                self.solver.tt.store(key, mover_bad, NEG_INF, v, None, work);
            }
        }
        Some(Res {
            ok,
            v,
            rep: NO_REP,
            capped,
            hist: false,
        })
    }

    /// The peek of a lean node (threshold `x`): every child of `kids` in `order` that the
    /// oracle covers (`m` seeds or fewer) is counted as a node and answered by the
    /// futility bounds or its entry, as [`Worker::test`] would answer it. A child that
    /// proves the test gives [`Peek::Proved`] at once; otherwise the children left to
    /// search keep their order at the front of `order` ([`Peek::Rest`], with the largest
    /// bound the answered ones gave). `None` when stopped.
    fn peek(
        &mut self,
        o: &dyn EndgameOracle<R>,
        m: u32,
        kids: &[Child<R>],
        order: &mut [u8],
        x: Score,
        bad: Side,
    ) -> Option<Peek> {
        let rules = self.rules;
        let mut covered = 0u32;
        for (j, &i) in order.iter().enumerate() {
            let c = &kids[i as usize];
            if rules.seeds_on_board(&c.state) <= m {
                o.prefetch(&c.state);
                covered |= 1 << j;
            }
        }
        let mut v = NEG_INF;
        if covered == 0 {
            return Some(Peek::Rest(order.len(), v));
        }
        let mut rest = 0;
        for j in 0..order.len() {
            let i = order[j];
            let c = &kids[i as usize];
            if covered & (1 << j) == 0 {
                order[rest] = i;
                rest += 1;
                continue;
            }
            if !self.count_node() {
                return None;
            }
            let (xc, invert) = child_threshold(x, c);
            let cbad = rules.turn(&c.state) == bad;
            let cseeds = rules.seeds_on_board(&c.state) as Score;
            let r = match futility(xc, cseeds, cbad) {
                Err(r) => r,
                Ok(xf) => o.probe(&c.state).map(|b| {
                    let cv = if cbad { b.lo } else { b.hi };
                    Res {
                        ok: cv >= xf,
                        v: cv,
                        rep: NO_REP,
                        capped: false,
                        hist: false,
                    }
                }),
            };
            // An oracle that does not answer after all: the child is searched.
            let Some(r) = r else {
                order[rest] = i;
                rest += 1;
                continue;
            };
            let pv = to_parent(r.v, c);
            if r.ok != invert {
                return Some(Peek::Proved(i, pv));
            }
            v = v.max(pv);
        }
        Some(Peek::Rest(rest, v))
    }
}

/// What a lean node's peek found ([`Worker::peek`]).
enum Peek {
    /// The child of this index proves the test, with this bound for the node.
    Proved(u8, Score),
    /// The first this many children of the order are left to search; the answered ones
    /// bound the node's value by this (minus infinity when none was answered).
    Rest(usize, Score),
}
