//! Kiothi properties (proptest): warrior conservation (board plus prisons), notation round
//! trips, every listed move playable and every unlisted sowing rejected by `play`.

use giuthi::rules::kiothi::{Kiothi, KiothiMove, KiothiState, Phase, Variant, PITS};
use giuthi::{BySide, Position, Rules, Side};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    (any::<bool>(), any::<bool>()).prop_map(|(five, cw)| {
        let mut v = Variant::default();
        if five {
            v.start = giuthi::rules::kiothi::Start::FivePits;
        }
        if cw {
            v.dir = giuthi::Direction::Cw;
        }
        v
    })
}

/// A play-phase position with at most `max` warriors, random marks (nki only on occupied
/// pits), turn and prisons.
fn play_position(max: u32) -> impl Strategy<Value = Position<Kiothi>> {
    (
        variant(),
        prop::collection::vec(0usize..PITS, 0..=max as usize),
        any::<u32>(),
        any::<u32>(),
        any::<bool>(),
        0u16..40,
        0u16..40,
    )
        .prop_map(|(v, drops, nki, stale, north, ps, pn)| {
            let mut pits = [0u8; PITS];
            for d in drops {
                pits[d] += 1;
            }
            let occupied = (0..PITS)
                .filter(|&p| pits[p] > 0)
                .fold(0u32, |m, p| m | 1 << p);
            let state = KiothiState {
                pits,
                nki: nki & occupied,
                stale: stale & ((1 << PITS) - 1),
                turn: if north { Side::North } else { Side::South },
                phase: Phase::Play,
            };
            Position::new(Kiothi::new(v), state, BySide::new(ps, pn))
        })
}

fn total(p: &Position<Kiothi>) -> u32 {
    p.rules.seeds_on_board(&p.state) + p.captured.south as u32 + p.captured.north as u32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn warriors_are_conserved_board_plus_prisons(p in play_position(24)) {
        let before = total(&p);
        for c in p.children() {
            let q = p.after(&c);
            prop_assert_eq!(total(&q), before, "{} {}", p, c.mv);
            prop_assert_eq!(
                p.rules.seeds_on_board(&p.state),
                p.rules.seeds_on_board(&c.state) + c.captured as u32
            );
            prop_assert!(c.turn_passes);
        }
        if p.is_over() {
            // The K10 sweep hands out exactly the warriors left on the board.
            let s = p.final_scores();
            prop_assert_eq!((s.south + s.north) as u32, before);
        }
    }

    #[test]
    fn notation_round_trip_play(p in play_position(40)) {
        let text = p.to_string();
        let q: Position<Kiothi> = text.parse().unwrap();
        prop_assert_eq!(&q, &p);
        prop_assert_eq!(q.to_string(), text);
    }

    #[test]
    fn notation_round_trip_opening(p in play_position(40), second in any::<bool>()) {
        let mut p = p;
        p.state.nki = 0;
        p.state.phase = if second { Phase::Open2 } else { Phase::Open1 };
        let text = p.to_string();
        let q: Position<Kiothi> = text.parse().unwrap();
        prop_assert_eq!(&q, &p);
    }

    #[test]
    fn every_listed_move_is_playable_and_every_other_sowing_rejected(p in play_position(24)) {
        let children = p.children();
        for c in &children {
            let r = p.rules.play(&p.state, c.mv);
            prop_assert_eq!(r.as_ref().ok(), Some(c), "{} {}", p, c.mv);
            let text = c.mv.to_string();
            prop_assert_eq!(text.parse::<KiothiMove>().unwrap(), c.mv);
        }
        for pit in 0..PITS as u8 {
            for k in 1..=p.state.pits[pit as usize].saturating_add(1) {
                for bonus in [false, true] {
                    let mv = KiothiMove::Sow { pit, k, bonus };
                    if !children.iter().any(|c| c.mv == mv) {
                        prop_assert!(p.rules.play(&p.state, mv).is_err(), "{} {}", p, mv);
                    }
                }
            }
        }
        // A redistribution is never legal in the play phase.
        let mut place = [0u8; PITS];
        place[0] = 2;
        let r = KiothiMove::Redistribute { from: [10, 11], place };
        prop_assert!(p.rules.play(&p.state, r).is_err());
    }

    #[test]
    fn redistribution_round_trip_and_conservation(
        a in 0usize..10, b in 0usize..10, targets in prop::collection::vec(0usize..PITS, 1..12),
        north in any::<bool>(), v in variant()
    ) {
        prop_assume!(a != b);
        let k = Kiothi::new(v);
        let mut s = k.start();
        s.turn = if north { Side::North } else { Side::South };
        let first = k.row(s.turn).start;
        let (a, b) = (first + a, first + b);
        // Lift pits a and b; place their warriors one at a time on the targets, the rest on
        // the last target.
        let lifted = (s.pits[a] + s.pits[b]) as usize;
        let mut place = [0u8; PITS];
        for (i, &t) in targets.iter().enumerate().take(lifted) {
            place[t] += 1;
            if i + 1 == targets.len() {
                place[t] += (lifted - targets.len()) as u8;
            }
        }
        let mv = KiothiMove::Redistribute { from: [a.min(b) as u8, a.max(b) as u8], place };
        let pos = Position::new(k, s, BySide::default());
        let r = pos.play(mv);
        if s.pits[a] == 0 || s.pits[b] == 0 {
            // K3: both pits emptied must be occupied.
            prop_assert!(r.is_err());
        } else {
            let parsed: KiothiMove = mv.to_string().parse().unwrap();
            prop_assert_eq!(parsed, mv);
            let q = r.unwrap();
            prop_assert_eq!(k.seeds_on_board(&q.state), k.seeds_on_board(&s));
            prop_assert_eq!(q.state.phase, Phase::Open2);
            prop_assert_eq!(q.state.stale, s.stale);
            prop_assert!(k.heuristic_redistribution(&q.state).is_some());
        }
    }
}

/// A deliberately naive second sower, written straight from RULES.md K5-K11 without
/// sharing code with `Kiothi::sow`: one warrior at a time, marks as sets, endless
/// detection by remembering every relay state. Returns (move, state after, captured).
fn naive_moves(k: &Kiothi, s: &KiothiState) -> Vec<(String, KiothiState, u32)> {
    use std::collections::HashSet;
    let cw = k.variant().dir == giuthi::Direction::Cw;
    let mine = |p: usize| (p >= 10) == (s.turn == Side::South);
    let next = |p: usize| if cw { (p + 19) % 20 } else { (p + 1) % 20 };
    let mut out = Vec::new();
    for pit in 0..20 {
        if !mine(pit) {
            continue;
        }
        for lift in 1..=s.pits[pit] as u32 {
            let mut b: Vec<u32> = s.pits.iter().map(|&x| x as u32).collect();
            let mut nki: Vec<bool> = (0..20).map(|p| s.nki >> p & 1 == 1).collect();
            let mut stale: Vec<bool> = (0..20).map(|p| s.stale >> p & 1 == 1).collect();
            b[pit] -= lift;
            nki[pit] = false;
            let mut hand = lift;
            let mut at = pit;
            let mut lap = 0;
            let mut seen = HashSet::new();
            let result = loop {
                lap += 1;
                while hand > 0 {
                    at = next(at);
                    b[at] += 1;
                    stale[at] = false;
                    hand -= 1;
                }
                if b[at] >= 2 {
                    if lap == 1 && mine(at) {
                        break None; // K6
                    }
                    hand = b[at];
                    b[at] = 0;
                    nki[at] = false;
                    if !seen.insert((b.clone(), at, hand)) {
                        break None; // endless
                    }
                    continue;
                }
                break Some(at);
            };
            let Some(last) = result else { continue };
            let opp = 19 - last;
            let mut captured = 0;
            let mut bonus = None;
            if mine(last) && b[opp] > 0 && !nki[opp] {
                captured = b[opp] + 1;
                b[opp] = 0;
                b[last] = 0;
                let leftmost = if s.turn == Side::South { 10 } else { 0 };
                if last == leftmost {
                    let three = [opp - 1, opp - 2, opp - 3];
                    if three.iter().all(|&q| b[q] > 0 && !nki[q] && !stale[q]) {
                        bonus = Some(three);
                    }
                }
            }
            let pack = |b: &Vec<u32>, nki: &Vec<bool>, stale: &Vec<bool>| KiothiState {
                pits: std::array::from_fn(|p| b[p] as u8),
                nki: (0..20).filter(|&p| nki[p]).fold(0, |m, p| m | 1 << p),
                stale: (0..20).filter(|&p| stale[p]).fold(0, |m, p| m | 1 << p),
                turn: s.turn.opponent(),
                phase: Phase::Play,
            };
            out.push((format!("{pit}x{lift}"), pack(&b, &nki, &stale), captured));
            if let Some(three) = bonus {
                let extra: u32 = three.iter().map(|&q| b[q]).sum();
                for q in three {
                    b[q] = 0;
                }
                out.push((
                    format!("{pit}x{lift}b"),
                    pack(&b, &nki, &stale),
                    captured + extra,
                ));
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn children_agree_with_a_naive_second_sower(p in play_position(30)) {
        let fast: Vec<(String, KiothiState, u32)> = p
            .children()
            .iter()
            .map(|c| (c.mv.to_string(), c.state, c.captured as u32))
            .collect();
        prop_assert_eq!(fast, naive_moves(&p.rules, &p.state), "{}", p);
    }
}
