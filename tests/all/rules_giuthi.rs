//! One test per clause of RULES.md G1-G11 (G11 is in `tests/properties.rs`), with
//! hand-checked before/after positions in notation (N1, N2). Pit numbers follow RULES.md:
//! North owns `0..n`, South `n..2n`, ccw = +1, `opposite(p) = 2n-1-p`. For n = 3 and n = 4:
//!
//! ```text
//!   North:   2   1   0            North:   3   2   1   0
//!   South:   3   4   5            South:   4   5   6   7
//! ```

use crate::common;

use common::naive_sower::{NaiveGiuthi, Sowing};
use giuthi::perft::perft;
use giuthi::rules::giuthi::{Giuthi, GiuthiMove, MAX_SEEDS_ON_BOARD};
use giuthi::rules::Rules;
use giuthi::solve::naive::naive_solve;
use giuthi::value::{NEG_INF, POS_INF};
use giuthi::{BySide, Direction, IllegalMove, Position, Side};

fn pos(text: &str) -> Position<Giuthi> {
    let p: Position<Giuthi> = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    p
}

fn moves(text: &str) -> Vec<String> {
    pos(text)
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// Plays `mv` in `before`; checks the position after it and whether the turn passed.
fn check(before: &str, mv: &str, after: &str, turn_passes: bool) {
    let p = pos(before);
    let m: GiuthiMove = mv.parse().expect("move parses");
    let (next, child) = p
        .play_report(m)
        .unwrap_or_else(|e| panic!("{before} {mv}: {e}"));
    assert_eq!(next.to_string(), after, "{before} {mv}");
    assert_eq!(child.turn_passes, turn_passes, "{before} {mv}: turn passes");
    // The move is also listed with the same result.
    let listed = p
        .children()
        .into_iter()
        .find(|c| c.mv == m)
        .expect("listed");
    assert_eq!(p.after(&listed).to_string(), after);
}

fn illegal(before: &str, mv: &str) -> IllegalMove {
    match pos(before).play(mv.parse().expect("move parses")) {
        Ok(p) => panic!("{before} {mv}: legal, gives {p}"),
        Err(e) => e,
    }
}

#[test]
fn g1_start_positions_of_the_historical_setups() {
    for (n, s) in [(5, 4), (6, 4), (6, 6), (7, 6), (8, 4), (8, 8), (10, 9)] {
        let g = Giuthi::new(n, Default::default()).unwrap();
        let p = Position::new(g.clone(), g.start(s), BySide::default());
        let row = vec![s.to_string(); n].join(",");
        assert_eq!(p.to_string(), format!("giuthi {row}/{row} S 0,0"));
        assert_eq!(p.turn(), Side::South);
        assert_eq!(g.seeds_on_board(&p.state), 2 * n as u32 * s as u32);
        // Every pit holds at least 2: two directions of every South pit (G2).
        assert_eq!(p.legal_moves().len(), 2 * n);
    }
}

#[test]
fn g1_board_sizes_two_to_sixteen_and_at_most_255_seeds() {
    assert!(Giuthi::new(1, Default::default()).is_err());
    assert!(Giuthi::new(17, Default::default()).is_err());
    assert!(Giuthi::new(2, Default::default()).is_ok());
    assert!(Giuthi::new(16, Default::default()).is_ok());
    assert_eq!(MAX_SEEDS_ON_BOARD, 255);
    // 2x16 with 8 a pit (256 seeds) is refused; 255 seeds are accepted.
    let row8 = vec!["8"; 16].join(",");
    let err = format!("giuthi {row8}/{row8} S 0,0")
        .parse::<Position<Giuthi>>()
        .unwrap_err();
    assert!(err.to_string().starts_with("field board"), "{err}");
    let mut row7 = vec!["8"; 16];
    row7[0] = "7";
    let p = pos(&format!("giuthi {}/{row8} S 0,0", row7.join(",")));
    assert_eq!(p.rules.seeds_on_board(&p.state), 255);
    // A pit may hold all of them.
    let mut one = vec!["0"; 16];
    one[15] = "255";
    let zeros = vec!["0"; 16].join(",");
    let p = pos(&format!("giuthi {zeros}/{} S 0,0", one.join(",")));
    assert_eq!(p.legal_moves().len(), 2);
}

#[test]
fn g2_only_own_pits_of_two_or_more_seeds_both_directions() {
    // South: pit 3 holds 1, pit 4 none, pit 5 two: only pit 5, both ways.
    let p = "giuthi 2,2,2/1,0,2 S 0,0";
    assert_eq!(moves(p), ["5cw", "5ccw"]);
    assert!(matches!(
        illegal(p, "3cw"),
        IllegalMove::TooFewSeeds { seeds: 1, .. }
    ));
    assert!(matches!(
        illegal(p, "4ccw"),
        IllegalMove::TooFewSeeds { seeds: 0, .. }
    ));
    assert!(matches!(illegal(p, "0cw"), IllegalMove::NotYourPit { .. }));
    assert!(matches!(illegal(p, "6cw"), IllegalMove::NoSuchPit { .. }));
    // The two directions are two different moves with different results.
    check(p, "5cw", "giuthi 2,2,2/0,2,1 S 0,0", false);
    check(p, "5ccw", "giuthi 4,0,2/1,1,1 N 0,0", true);
}

#[test]
fn g3_lap_starts_at_the_neighbour_in_the_chosen_direction() {
    check(
        "giuthi 0,0,0/0,0,2 S 0,0",
        "5ccw",
        "giuthi 1,1,0/0,0,0 N 0,0",
        true,
    );
    // North's pit 0, cw: pits 5 and 4 (South's row, ending in an empty pit: G5a).
    check(
        "giuthi 2,0,0/0,0,0 N 0,0",
        "0cw",
        "giuthi 0,0,0/0,1,1 S 0,0",
        true,
    );
}

#[test]
fn g3_origin_is_sown_by_a_lap_of_2n_seeds() {
    // 6 seeds from pit 5 on 2x3: pits 0,1,2,3,4 and 5 itself, which was empty: the move
    // ends there (G5), with a capture (G5c, G6): pit 0 (1) and the landing seed.
    check(
        "giuthi 0,0,0/0,0,6 S 0,0",
        "5ccw",
        "giuthi 0,1,1/1,1,0 N 2,0",
        true,
    );
}

#[test]
fn g3_origin_skip_variant_passes_over_the_move_origin_on_every_lap() {
    // Lap 1 (ccw): 0,1,2,3,4, skip 5, 0 -> pit 0 holds 2: relay. Lap 2 (cw) from 0: skip
    // 5, 4, 3 -> relay. Lap 3 (ccw) from 3: 4, skip 5, 0 -> empty: ends in North's row.
    check(
        "giuthi:origin=skip 0,0,0/0,0,6 S 0,0",
        "5ccw",
        "giuthi:origin=skip 1,1,1/0,3,0 N 0,0",
        true,
    );
    // Same board, default rules, one seed more: the last seed of the first lap falls into
    // pit 0, sown by this very lap, so it was occupied before it fell (a relay, G4).
    check(
        "giuthi 0,0,0/0,0,7 S 0,0",
        "5ccw",
        "giuthi 1,1,1/1,0,3 N 0,0",
        true,
    );
}

#[test]
fn g4_relay_lifts_the_pit_and_sows_back_the_other_way() {
    // 3ccw: 4, 5 (occupied: relay, lift 2) then cw: 4, 3 (emptied by the lift): extra move.
    check(
        "giuthi 0,0,0/2,0,1 S 0,0",
        "3ccw",
        "giuthi 0,0,0/1,2,0 S 0,0",
        false,
    );
}

#[test]
fn g4_every_relay_flips_the_direction_again() {
    // 7 seeds from pit 5: ccw lap to pit 0 (relay), cw lap 5, 4 (relay), ccw lap 5, 0.
    check(
        "giuthi 0,0,0/0,0,7 S 0,0",
        "5ccw",
        "giuthi 1,1,1/1,0,3 N 0,0",
        true,
    );
    // 5cw: 4, 3 (relay, 2 seeds) then ccw 4, 5: ends in the emptied origin.
    check(
        "giuthi 2,2,2/1,0,2 S 0,0",
        "5cw",
        "giuthi 2,2,2/0,2,1 S 0,0",
        false,
    );
}

#[test]
fn g5a_ending_in_the_opponents_row_passes_the_turn() {
    let p = pos("giuthi 0,0,0/0,0,2 S 0,0");
    let (next, child) = p.play_report("5ccw".parse().unwrap()).unwrap();
    assert_eq!(next.to_string(), "giuthi 1,1,0/0,0,0 N 0,0");
    assert!(child.turn_passes);
    assert_eq!(child.captured, 0);
}

#[test]
fn g5b_ending_in_own_row_without_touching_the_opponents_row_is_an_extra_move() {
    let p = pos("giuthi 0,0,3/2,0,0 S 0,1");
    let (next, child) = p.play_report("3ccw".parse().unwrap()).unwrap();
    assert_eq!(next.to_string(), "giuthi 0,0,3/0,1,1 S 0,1");
    assert!(!child.turn_passes);
    assert_eq!(child.captured, 0);
    // No capture on an extra move, even with a full opposite pit (2x4: pit 0 across 7).
    check(
        "giuthi 3,0,0,0/0,2,0,0 S 0,0",
        "5ccw",
        "giuthi 3,0,0,0/0,0,1,1 S 0,0",
        false,
    );
}

#[test]
fn g5c_ending_in_own_row_after_touching_the_opponents_row_captures_and_passes() {
    // 5ccw: 0, 1 (relay, 2 seeds) cw: 0, 5 (emptied origin). A seed went into North's row:
    // capture pit 0 (3 seeds) and the landing seed; pit 4 across pit 1 (now empty) stops the chain.
    let p = pos("giuthi 1,1,1/0,0,2 S 0,0");
    let (next, child) = p.play_report("5ccw".parse().unwrap()).unwrap();
    assert_eq!(next.to_string(), "giuthi 0,0,1/0,0,0 N 4,0");
    assert!(child.turn_passes);
    assert_eq!(child.captured, 4);
    assert_eq!(child.laps, 2);
}

#[test]
fn g5c_turn_passes_even_when_nothing_is_captured() {
    // 5ccw ends in pit 4 after touching North's row; pit 1 across it is empty.
    check(
        "giuthi 2,2,2/1,0,2 S 0,0",
        "5ccw",
        "giuthi 4,0,2/1,1,1 N 0,0",
        true,
    );
}

#[test]
fn g6_capture_chain_runs_along_empty_pits_in_the_final_direction() {
    // 2x4. 6ccw: 7, 0 (relay) then cw: 7, 6 (emptied origin). Capture pit 1 (2), then cw:
    // pit 5 empty across pit 2 (3), pit 4 empty across pit 3 (4); pit 3 is North's: stop.
    let p = pos("giuthi 1,2,3,4/0,0,2,0 S 0,0");
    let (next, child) = p.play_report("6ccw".parse().unwrap()).unwrap();
    assert_eq!(next.to_string(), "giuthi 0,0,0,0/0,0,0,2 N 10,0");
    assert_eq!(child.captured, 2 + 3 + 4 + 1);
}

#[test]
fn g6_chain_stops_at_nonempty_pit() {
    check(
        "giuthi 1,2,3,4/0,1,2,0 S 0,0",
        "6ccw",
        "giuthi 0,0,3,4/0,1,0,2 N 3,0",
        true,
    );
}

#[test]
fn g6_chain_stops_at_empty_opposite() {
    check(
        "giuthi 1,2,0,4/0,0,2,0 S 0,0",
        "6ccw",
        "giuthi 0,0,0,4/0,0,0,2 N 3,0",
        true,
    );
}

#[test]
fn g6_empty_opposite_captures_nothing_and_the_landing_seed_stays() {
    // Pit 5 is empty across a full pit 2, but no chain starts without a first capture.
    check(
        "giuthi 1,0,3,4/0,0,2,0 S 0,0",
        "6ccw",
        "giuthi 0,0,3,4/0,0,1,2 N 0,0",
        true,
    );
}

#[test]
fn g6_chain_one_variant_takes_at_most_one_pit_after_the_landing_pit() {
    check(
        "giuthi:chain=one 1,2,3,4/0,0,2,0 S 0,0",
        "6ccw",
        "giuthi:chain=one 0,0,0,4/0,0,0,2 N 6,0",
        true,
    );
}

#[test]
fn g6_chain_none_variant_takes_only_the_opposite_pit() {
    check(
        "giuthi:chain=none 1,2,3,4/0,0,2,0 S 0,0",
        "6ccw",
        "giuthi:chain=none 0,0,3,4/0,0,0,2 N 3,0",
        true,
    );
}

#[test]
fn g6_north_captures_too() {
    // The G6 case seen from the other seat (rows swapped, G11): North sows 2ccw.
    check(
        "giuthi 0,0,2,0/1,2,3,4 N 0,0",
        "2ccw",
        "giuthi 0,0,0,2/0,0,0,0 S 0,10",
        true,
    );
}

#[test]
fn g7_endless_sowing_is_not_a_move() {
    // RULES.md notes: 5ccw returns to its starting state after 10 laps.
    let p = "giuthi 1,6,0/2,0,2 S 0,0";
    let listed = moves(p);
    assert!(!listed.contains(&"5ccw".to_string()), "{listed:?}");
    assert_eq!(listed, ["3cw", "3ccw", "5cw"]);
    assert!(matches!(illegal(p, "5ccw"), IllegalMove::Endless { .. }));
    // The naive sower sees the state before the first lap come back before lap 10.
    let naive = NaiveGiuthi::new(3, "").sow(&[1, 6, 0, 2, 0, 2], true, 5, true);
    assert_eq!(
        naive,
        Sowing::Endless {
            returns_to: 0,
            laps: 10
        }
    );
}

#[test]
fn g7_g8_both_sowings_endless_so_south_must_pass() {
    let p = "giuthi 1,1,3/1,1,4 S 0,0";
    assert_eq!(moves(p), ["pass"]);
    assert!(matches!(illegal(p, "5cw"), IllegalMove::Endless { .. }));
    assert!(matches!(illegal(p, "5ccw"), IllegalMove::Endless { .. }));
    check(p, "pass", "giuthi 1,1,3/1,1,4 N 0,0", true);
    // North's 3 seeds are not endless: play goes on.
    assert!(!moves("giuthi 1,1,3/1,1,4 N 0,0").is_empty());
    // A pass is a ply.
    let q = pos(p);
    assert_eq!(perft(&q.rules, &q.state, 1), 1);
}

#[test]
fn g8_pass_when_every_own_pit_holds_zero_or_one() {
    let p = "giuthi 2,0,0/1,1,0 S 3,4";
    assert_eq!(moves(p), ["pass"]);
    check(p, "pass", "giuthi 2,0,0/1,1,0 N 3,4", true);
    // A pass is not allowed while a sowing is.
    assert!(matches!(
        illegal("giuthi 2,0,0/1,1,0 N 0,0", "pass"),
        IllegalMove::PassNotAllowed { .. }
    ));
}

#[test]
fn g8_after_an_extra_move_the_same_rule_applies() {
    // South's extra move leaves it singletons only: South moves again, and must pass.
    let p = pos("giuthi 0,0,3/2,0,0 S 0,0");
    let next = p.play_str("3ccw").unwrap();
    assert_eq!(next.to_string(), "giuthi 0,0,3/0,1,1 S 0,0");
    assert_eq!(next.legal_moves(), [GiuthiMove::Pass]);
}

#[test]
fn g9_game_over_when_neither_side_can_move() {
    // South's 7 is endless both ways, North has singletons: the game is over.
    let p = pos("giuthi 1,1/1,7 S 0,0");
    assert!(p.is_over());
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.final_scores(), BySide::new(8, 2));
    assert_eq!(p.rules.final_value(&p.state), 6);
    assert!(matches!(
        illegal("giuthi 1,1/1,7 S 0,0", "3cw"),
        IllegalMove::GameOver { .. }
    ));
    assert!(matches!(
        illegal("giuthi 1,1/1,7 S 0,0", "pass"),
        IllegalMove::GameOver { .. }
    ));
    // Captured seeds count in the score.
    assert_eq!(
        pos("giuthi 1,1/1,7 N 3,1").final_scores(),
        BySide::new(11, 3)
    );
    assert_eq!(
        pos("giuthi 0,0,1/0,0,0 N 4,0").final_scores(),
        BySide::new(4, 1)
    );
}

#[test]
fn g9_end_empty_row_variant_ends_when_the_mover_has_an_empty_row() {
    let p = pos("giuthi:end=empty-row 2,0,0/0,0,0 S 0,0");
    assert!(p.is_over());
    assert_eq!(p.final_scores(), BySide::new(0, 2));
    assert!(matches!(
        illegal("giuthi:end=empty-row 2,0,0/0,0,0 S 0,0", "pass"),
        IllegalMove::GameOver { .. }
    ));
    // Default rules: South passes and North plays on.
    assert_eq!(moves("giuthi 2,0,0/0,0,0 S 0,0"), ["pass"]);
    // Only the mover's row counts: North to move with South's row empty plays on.
    assert_eq!(
        moves("giuthi:end=empty-row 2,0,0/0,0,0 N 0,0"),
        ["0cw", "0ccw"]
    );
}

#[test]
fn g10_repetition_is_a_draw_the_rules_layer_keeps_no_history() {
    // The rules layer is history-free: a position reached again plays the same. G10 is
    // applied by the solvers (V2-V4). RULES.md V4: in `giuthi 1,0,0,0/1,3,0,0 S 0,2` South
    // can force a repetition (hi = +inf), and 5ccw reaches the exact value only through
    // the root again, which G10 makes a draw.
    let p = pos("giuthi 1,0,0,0/1,3,0,0 S 0,2");
    let sol = naive_solve(&p, 100_000).unwrap();
    assert_eq!((sol.bounds.lo, sol.bounds.hi), (3, POS_INF));
    assert_eq!(sol.margin, 1);
    let five_ccw = sol
        .moves
        .iter()
        .find(|(m, _)| m.to_string() == "5ccw")
        .unwrap();
    assert!(five_ccw.1 < 1, "{five_ccw:?}");
    // A position no repetition touches has lo == hi.
    let q = pos("giuthi 1,1,1/0,0,2 S 0,0");
    let b = naive_solve(&q, 100_000).unwrap().bounds;
    assert_eq!(b.lo, b.hi);
    assert!(b.lo != NEG_INF);
}

#[test]
fn n2_moves_parse_and_print() {
    for text in ["0cw", "7ccw", "31cw", "pass"] {
        let m: GiuthiMove = text.parse().unwrap();
        assert_eq!(m.to_string(), text);
    }
    assert_eq!(
        "12ccw".parse::<GiuthiMove>().unwrap(),
        GiuthiMove::Sow {
            pit: 12,
            dir: Direction::Ccw
        }
    );
    for bad in [
        "", "7", "cw", "07cw", "32cw", "7 cw", "7CW", "-1cw", "Pass", "7ccww",
    ] {
        let e = bad.parse::<GiuthiMove>().unwrap_err();
        assert!(e.to_string().starts_with("move "), "{bad}: {e}");
    }
}

/// The source text says that on 2x10 with 9 seeds a pit "the opening player can
/// immediately capture ten seeds". Under RULES.md the opening captures are these (pinned
/// here; docs/rules.md discusses the claim).
#[test]
fn g1_g6_opening_captures_on_2x10x9() {
    let row = ["9"; 10].join(",");
    let p = pos(&format!("giuthi {row}/{row} S 0,0"));
    let got: Vec<(String, u16, bool)> = p
        .children()
        .iter()
        .map(|c| (c.mv.to_string(), c.captured, c.turn_passes))
        .collect();
    let capturing: Vec<&(String, u16, bool)> = got.iter().filter(|g| g.1 > 0).collect();
    assert_eq!(
        capturing,
        [
            &("10ccw".to_string(), 10, true),
            &("19cw".to_string(), 10, true)
        ]
    );
    // 10ccw: 11..19 (relay at 19, 10 seeds), cw 18..10 and 9 (relay at 9, 10 seeds), ccw
    // 10..19: the last seed falls into the emptied pit 19 after touching North's row;
    // pit 0 across it (9) and the landing seed are taken; pit 0's neighbour ccw is North's.
    check(
        &format!("giuthi {row}/{row} S 0,0"),
        "10ccw",
        "giuthi 0,9,9,9,9,9,9,9,9,0/2,12,12,12,12,12,12,12,12,0 N 10,0",
        true,
    );
    check(
        &format!("giuthi {row}/{row} S 0,0"),
        "19cw",
        "giuthi 0,9,9,9,9,9,9,9,9,0/0,12,12,12,12,12,12,12,12,2 N 10,0",
        true,
    );
    assert_eq!(got.len(), 20);
}

#[test]
fn n1_variants_canonical_form() {
    assert_eq!(
        pos("giuthi:end=stuck,chain=run,origin=sow 4,4/4,4 S").to_string(),
        "giuthi 4,4/4,4 S 0,0"
    );
    assert_eq!(
        pos("giuthi:end=empty-row,origin=skip,chain=one 1,6,0/2,0,2 N 0,0").to_string(),
        "giuthi:chain=one,origin=skip,end=empty-row 1,6,0/2,0,2 N 0,0"
    );
    for bad in [
        "giuthi:chain=one,chain=none 4,4/4,4 S 0,0",
        "giuthi:chain=two 4,4/4,4 S 0,0",
        "giuthi:colour=red 4,4/4,4 S 0,0",
        "giuthi: 4,4/4,4 S 0,0",
        "giuthi:chain=one, 4,4/4,4 S 0,0",
    ] {
        let e = bad.parse::<Position<Giuthi>>().unwrap_err();
        assert!(e.to_string().starts_with("field variant"), "{bad}: {e}");
    }
    for (bad, field) in [
        ("giuthi 4,4/4,4 W 0,0", "field turn"),
        ("giuthi 4,4/4,x S 0,0", "field board"),
        ("giuthi 4,4/4,4 S 0", "field captured"),
        ("giuthi 04,4/4,4 S 0,0", "field board"),
        ("chess 4,4/4,4 S 0,0", "field game"),
    ] {
        let e = bad.parse::<Position<Giuthi>>().unwrap_err();
        assert!(e.to_string().starts_with(field), "{bad}: {e}");
    }
}
