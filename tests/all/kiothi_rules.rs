//! Kiothi rule units (RULES.md K1-K12, N3): one test per clause, named after it, each with
//! a hand-checked before/after in notation.

use giuthi::rules::kiothi::{Kiothi, KiothiMove, Phase, Start, Variant};
use giuthi::{AnyPosition, BySide, IllegalMove, Position, Rules, Side};

fn pos(text: &str) -> Position<Kiothi> {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn after(text: &str, mv: &str) -> String {
    pos(text)
        .play_str(mv)
        .unwrap_or_else(|e| panic!("{text} {mv}: {e}"))
        .to_string()
}

fn moves(text: &str) -> Vec<String> {
    pos(text)
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

fn illegal(text: &str, mv: &str) -> String {
    match pos(text).play_str(mv) {
        Ok(p) => panic!("{text} {mv}: expected illegal, got {p}"),
        Err(e) => e.to_string(),
    }
}

const EMPTY_ROW: &str = "0,0,0,0,0,0,0,0,0,0";

#[test]
fn k1_board_has_ten_pits_a_row_and_variants_round_trip() {
    let p = pos("kiothi:start=5x5,dir=cw 0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,1 S 0,0 play");
    assert_eq!(p.rules.pits_per_row(), 10);
    assert_eq!(p.rules.variant().start, Start::FivePits);
    assert_eq!(
        p.to_string(),
        "kiothi:start=5x5,dir=cw 0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,1 S 0,0 play"
    );
    // The key order is canonical whatever the input order.
    let q = pos("kiothi:dir=cw,start=5x5 0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,1 S 0,0 play");
    assert_eq!(q.to_string(), p.to_string());
    let err = "kiothi 0,0,0/0,0,0 S 0,0 play"
        .parse::<AnyPosition>()
        .unwrap_err();
    assert!(err.to_string().starts_with("field board"), "{err}");
}

#[test]
fn k1_dir_cw_sows_clockwise() {
    // South lifts 2 from 12 clockwise: 11, 10 (lands in its own empty leftmost pit).
    assert_eq!(
        after(
            &format!("kiothi:dir=cw {EMPTY_ROW}/0,0,2,0,0,0,0,0,0,0 S 0,0 play"),
            "12x2"
        ),
        format!("kiothi:dir=cw {EMPTY_ROW}/1,1,0,0,0,0,0,0,0,0 N 0,0 play")
    );
}

#[test]
fn k2_start_six_rightmost_pits() {
    let k = Kiothi::new(Variant::default());
    assert_eq!(
        k.start_position().to_string(),
        "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1"
    );
    assert_eq!(k.seeds_on_board(&k.start()), 60);
}

#[test]
fn k2_start_5x5_variant() {
    let k = Kiothi::new("start=5x5".parse().unwrap());
    assert_eq!(
        k.start_position().to_string(),
        "kiothi:start=5x5 0,0,0,0,0,5s,5s,5s,5s,5s/0,0,0,0,0,5s,5s,5s,5s,5s S 0,0 open1"
    );
}

#[test]
fn k3_redistributions_then_play_with_nki_marks() {
    let start = "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1";
    let one = after(start, "r15,14:11=5,10=5");
    assert_eq!(
        one,
        "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/5,5,0,0,0s,0s,5s,5s,5s,5s N 0,0 open2"
    );
    // North places into South's row too (any pits of the board, K3).
    let two = after(&one, "r4,5:0=1,19=9");
    assert_eq!(
        two,
        "kiothi 1n,0,0,0,0s,0s,5ns,5ns,5ns,5ns/5n,5n,0,0,0s,0s,5ns,5ns,5ns,14ns S 0,0 play"
    );
}

#[test]
fn k3_redistribution_may_refill_the_emptied_pits() {
    let start = "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1";
    assert_eq!(
        after(start, "r14,15:14=9,15=1"),
        "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,9s,1s,5s,5s,5s,5s N 0,0 open2"
    );
}

#[test]
fn k3_redistribution_rules_are_checked() {
    let start = "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1";
    assert!(illegal(start, "r4,5:10=10").contains("not South's"));
    assert!(illegal(start, "r10,14:10=5").contains("pit 10 is empty"));
    assert!(illegal(start, "r14,15:10=5").contains("add up to 5"));
    assert!(illegal(start, "r14,15:10=11").contains("add up to 11"));
    assert!(illegal(start, "14x1").contains("redistribution is due"));
    assert!("r14,14:10=10".parse::<KiothiMove>().is_err());
    assert!("r14,15:10=5,10=5".parse::<KiothiMove>().is_err());
    assert!("r14,15:10=0,11=10".parse::<KiothiMove>().is_err());
    let play = format!("kiothi {EMPTY_ROW}/0,0,2,0,0,0,0,0,0,1 S 0,0 play");
    assert!(illegal(&play, "r12,19:0=3").contains("opening is over"));
    // In the opening nothing is listed, and the game is not over.
    let p = pos(start);
    assert!(!p.rules.can_enumerate(&p.state));
    assert!(p.legal_moves().is_empty());
    assert!(!p.is_over());
}

#[test]
fn k4_nki_protects_from_capture() {
    // 12x1 ends in South's empty 13; opposite pit 6 holds 3.
    let b = "kiothi 0,0,0,0,0,0,3,0,0,0/0,0,1,0,0,0,0,0,0,0 S 0,0 play";
    assert_eq!(
        after(b, "12x1"),
        format!("kiothi {EMPTY_ROW}/{EMPTY_ROW} N 4,0 play")
    );
    let nki = "kiothi 0,0,0,0,0,0,3n,0,0,0/0,0,1,0,0,0,0,0,0,0 S 0,0 play";
    assert_eq!(
        after(nki, "12x1"),
        "kiothi 0,0,0,0,0,0,3n,0,0,0/0,0,0,1,0,0,0,0,0,0 N 0,0 play"
    );
}

#[test]
fn k4_nki_mark_leaves_on_a_partial_lift() {
    assert_eq!(
        after(
            &format!("kiothi {EMPTY_ROW}/0,0,3n,0,0,0,0,0,0,0 S 0,0 play"),
            "12x1"
        ),
        format!("kiothi {EMPTY_ROW}/0,0,2,1,0,0,0,0,0,0 N 0,0 play")
    );
}

#[test]
fn k4_nki_mark_leaves_on_a_relay() {
    // 19x1 ends in North's 0 (2 -> 3): relay, lift 3, sow 1, 2, 3.
    assert_eq!(
        after(
            "kiothi 2n,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,1 S 0,0 play",
            "19x1"
        ),
        format!("kiothi 0,1,1,1,0,0,0,0,0,0/{EMPTY_ROW} N 0,0 play")
    );
}

#[test]
fn k12_sowing_into_an_nki_pit_keeps_the_mark() {
    assert_eq!(
        after(
            "kiothi 1n,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,2 S 0,0 play",
            "19x2"
        ),
        format!("kiothi 2n,1,0,0,0,0,0,0,0,0/{EMPTY_ROW} N 0,0 play")
    );
}

#[test]
fn k12_stale_mark_leaves_only_when_sown_into() {
    // 12x2 sows 13 and 14: the empty 14 loses its stale mark; 12 (lifted) and 15 keep
    // theirs.
    assert_eq!(
        after(
            &format!("kiothi {EMPTY_ROW}/0,0,3s,0,0s,0s,0,0,0,0 S 0,0 play"),
            "12x2"
        ),
        format!("kiothi {EMPTY_ROW}/0,0,1s,1,1,0s,0,0,0,0 N 0,0 play")
    );
}

#[test]
fn k5_partial_lifts_are_separate_moves() {
    let b = format!("kiothi {EMPTY_ROW}/0,0,3,0,0,0,0,0,0,0 S 0,0 play");
    assert_eq!(moves(&b), ["12x1", "12x2", "12x3"]);
    assert_eq!(
        after(&b, "12x2"),
        format!("kiothi {EMPTY_ROW}/0,0,1,1,1,0,0,0,0,0 N 0,0 play")
    );
    assert!(illegal(&b, "12x4").contains("K5"));
    assert!(illegal(&b, "13x1").contains("K5"));
    assert!(illegal(&b, "2x1").contains("not South's"));
}

#[test]
fn k6_first_lap_ending_in_own_occupied_pit_is_illegal() {
    let b = format!("kiothi {EMPTY_ROW}/1,1,0,0,0,0,0,0,0,0 S 0,0 play");
    assert!(illegal(&b, "10x1").contains("K6"));
    assert_eq!(moves(&b), ["11x1"]);
}

#[test]
fn k6_first_lap_counts_earlier_drops_of_the_same_lap() {
    // 21 warriors in 10: lifts of 1..19 end in an empty pit; 20 (partial) ends in 10
    // itself (still holding 1); 21 drops twice into 11.
    let b = format!("kiothi {EMPTY_ROW}/21,0,0,0,0,0,0,0,0,0 S 0,0 play");
    let m = moves(&b);
    assert_eq!(m.len(), 19);
    assert!(illegal(&b, "10x20").contains("K6"));
    assert!(illegal(&b, "10x21").contains("K6"));
}

#[test]
fn k6_full_lift_of_twenty_ends_in_its_own_empty_pit_and_captures() {
    let b = format!("kiothi {EMPTY_ROW}/20,0,0,0,0,0,0,0,0,0 S 0,0 play");
    assert_eq!(
        after(&b, "10x20"),
        "kiothi 1,1,1,1,1,1,1,1,1,0/0,1,1,1,1,1,1,1,1,1 N 2,0 play"
    );
}

#[test]
fn k7_relay_on_the_first_lap_only_on_the_opponents_side() {
    // 19x1 ends in North's occupied 0: relay, lift 11, sow 1..11; 11 now holds 2: a later
    // lap may relay in the mover's own row; lift 2, sow 12, 13; 13 is empty, opposite 6
    // holds 1 (sown this move): capture 1 + 1.
    assert_eq!(
        after(
            "kiothi 10,0,0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0,0,1 S 0,0 play",
            "19x1"
        ),
        "kiothi 0,1,1,1,1,1,0,1,1,1/2,0,1,0,0,0,0,0,0,0 N 2,0 play"
    );
}

#[test]
fn k8_no_capture_on_the_opponents_side_or_of_an_empty_pit() {
    // Ends in North's empty 0: nothing captured.
    assert_eq!(
        after(
            "kiothi 0,0,0,0,0,0,0,0,0,5/0,0,0,0,0,0,0,0,0,1 S 0,0 play",
            "19x1"
        ),
        "kiothi 1,0,0,0,0,0,0,0,0,5/0,0,0,0,0,0,0,0,0,0 N 0,0 play"
    );
    // Ends in South's empty 13, opposite 6 empty: nothing captured.
    assert_eq!(
        after(
            "kiothi 0,0,0,0,0,0,0,0,0,5/0,0,1,0,0,0,0,0,0,0 S 0,0 play",
            "12x1"
        ),
        "kiothi 0,0,0,0,0,0,0,0,0,5/0,0,0,1,0,0,0,0,0,0 N 0,0 play"
    );
}

#[test]
fn k9_bonus_is_a_choice_of_two_moves() {
    let b = format!("kiothi {EMPTY_ROW}/20,0,0,0,0,0,0,0,0,0 S 0,0 play");
    let m = moves(&b);
    assert_eq!(&m[m.len() - 2..], ["10x20", "10x20b"]);
    assert_eq!(
        after(&b, "10x20b"),
        "kiothi 1,1,1,1,1,1,0,0,0,0/0,1,1,1,1,1,1,1,1,1 N 5,0 play"
    );
}

#[test]
fn k9_north_bonus_takes_18_17_16() {
    let b = format!("kiothi 20,0,0,0,0,0,0,0,0,0/{EMPTY_ROW} N 0,0 play");
    assert_eq!(
        after(&b, "0x20b"),
        "kiothi 0,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,0,0,0,0 S 0,5 play"
    );
}

#[test]
fn k9_bonus_blocked_by_an_nki_pit() {
    let b = "kiothi 0,0,0,0,0,0,0,1n,0,0/20,0,0,0,0,0,0,0,0,0 S 0,0 play";
    let m = moves(b);
    assert_eq!(m.last().unwrap(), "10x20");
    assert!(illegal(b, "10x20b").contains("K9"));
    assert_eq!(
        after(b, "10x20"),
        "kiothi 1,1,1,1,1,1,1,2n,1,0/0,1,1,1,1,1,1,1,1,1 N 2,0 play"
    );
}

#[test]
fn k9_bonus_blocked_by_a_stale_pit_dir_cw() {
    // Sowing cw, 11x1 ends in South's empty leftmost 10; opposite 9 holds 2: capture 3.
    // The bonus pits 8, 7, 6 are occupied and not nki, but 7 is stale.
    let stale = "kiothi:dir=cw 0,0,0,0,0,0,1,1s,1,2/0,1,0,0,0,0,0,0,0,0 S 0,0 play";
    assert_eq!(moves(stale), ["11x1"]);
    assert_eq!(
        after(stale, "11x1"),
        "kiothi:dir=cw 0,0,0,0,0,0,1,1s,1,0/0,0,0,0,0,0,0,0,0,0 N 3,0 play"
    );
    let fresh = "kiothi:dir=cw 0,0,0,0,0,0,1,1,1,2/0,1,0,0,0,0,0,0,0,0 S 0,0 play";
    assert_eq!(moves(fresh), ["11x1", "11x1b"]);
    assert_eq!(
        after(fresh, "11x1b"),
        format!("kiothi:dir=cw {EMPTY_ROW}/{EMPTY_ROW} N 6,0 play")
    );
}

#[test]
fn k9_bonus_needs_all_three_pits_occupied() {
    let b = "kiothi:dir=cw 0,0,0,0,0,0,0,1,1,2/0,1,0,0,0,0,0,0,0,0 S 0,0 play";
    assert_eq!(moves(b), ["11x1"]);
}

#[test]
fn k10_warriors_left_go_to_the_other_player() {
    // South cannot move; North could: all 3 warriors go to North's prison.
    let p = pos("kiothi 1,0,0,2,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0 S 3,1 play");
    assert!(p.is_over());
    assert_eq!(p.rules.final_value(&p.state), -3);
    assert_eq!(p.final_scores(), BySide::new(3, 4));
    assert_eq!(p.rules.sweep(&p.state), Some(BySide::new(0, 3)));
}

#[test]
fn k10_neither_could_move_each_takes_its_own_row() {
    // Both rows empty: the sweep gives nothing to anyone, the prisons decide.
    let p = pos(&format!("kiothi {EMPTY_ROW}/{EMPTY_ROW} N 3,5 play"));
    assert!(p.is_over());
    assert_eq!(p.rules.final_value(&p.state), 0);
    assert_eq!(p.final_scores(), BySide::new(3, 5));
}

#[test]
fn k10_sweep_is_not_part_of_the_last_move() {
    // South's last warrior captures; the position after the move keeps North's warriors
    // on the board (the sweep belongs to the final score).
    let b = "kiothi 0,0,0,0,0,0,3,0,0,4/0,0,1,0,0,0,0,0,0,0 S 0,0 play";
    let p = pos(b).play_str("12x1").unwrap();
    assert_eq!(
        p.to_string(),
        "kiothi 0,0,0,0,0,0,0,0,0,4/0,0,0,0,0,0,0,0,0,0 N 4,0 play"
    );
    assert!(!p.is_over()); // North still moves
                           // North's 9x1 ends in South's empty 10: South has a warrior again.
    let q = p.play_str("9x1").unwrap();
    assert_eq!(
        q.to_string(),
        "kiothi 0,0,0,0,0,0,0,0,0,3/1,0,0,0,0,0,0,0,0,0 S 4,0 play"
    );
}

#[test]
fn k11_endless_sowing_is_illegal() {
    // RULES.md "Notes for implementers": 14x6 repeats after 12,337,701 laps.
    let p = pos("kiothi 3,2,1,5,1,3,4,1,4,6/2,1,5,2,9,1,7,2,1,0 S 0,0 play");
    match p.play_str("14x6") {
        Err(e) => {
            let e = e.downcast::<IllegalMove>().unwrap();
            assert_eq!(
                *e,
                IllegalMove::Endless {
                    mv: "14x6".to_string(),
                    laps: 12_337_701
                }
            );
        }
        Ok(q) => panic!("14x6 should be endless, got {q}"),
    }
}

#[test]
#[ignore = "about 4 s in release: the 98-million-lap endless sowing"]
fn k11_long_endless_sowing_detected_exactly() {
    let p = pos("kiothi 3,2,1,5,1,3,4,1,4,6/2,1,5,2,9,1,7,2,1,0 S 0,0 play");
    let k = p.rules;
    for (lift, laps) in [(6u32, 12_337_701u64), (8, 98_197_473)] {
        let t = std::time::Instant::now();
        let r = k.sow(&p.state, 14, lift);
        eprintln!("14x{lift}: {r:?} in {:?}", t.elapsed());
        assert_eq!(
            r.unwrap_err(),
            giuthi::rules::kiothi::SowError::Endless { laps }
        );
        assert_eq!(k.return_laps(&p.state, 14, lift, 200_000_000), Some(laps));
    }
}

#[test]
fn k12_first_redistributor_moves_first_in_play() {
    let k = Kiothi::new(Variant::default());
    let mut s = k.start();
    s.turn = Side::North;
    let p = Position::new(k, s, BySide::default());
    let p = p.play_str("r8,9:0=10").unwrap();
    assert_eq!(p.state.phase, Phase::Open2);
    assert_eq!(p.turn(), Side::South);
    let p = p.play_str("r18,19:10=10").unwrap();
    assert_eq!(p.state.phase, Phase::Play);
    assert_eq!(p.turn(), Side::North);
}

#[test]
fn n3_marks_and_fields_are_validated() {
    for (bad, field) in [
        (
            "kiothi 0,0,0,0,0,0,0,0,0,1sn/0,0,0,0,0,0,0,0,0,1 S 0,0 play",
            "field board",
        ),
        (
            "kiothi 0,0,0,0,0,0,0,0,0,0n/0,0,0,0,0,0,0,0,0,1 S 0,0 play",
            "field board",
        ),
        (
            "kiothi 0,0,0,0,0,0,0,0,0,1n/0,0,0,0,0,0,0,0,0,1 S 0,0 open2",
            "field board",
        ),
        (
            "kiothi 0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,1 S 0,0",
            "field position",
        ),
        (
            "kiothi 0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,1 S 0,0 opening",
            "field phase",
        ),
        (
            "kiothi 0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,1 X 0,0 play",
            "field turn",
        ),
        (
            "kiothi 0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,1 S 0 play",
            "field prisons",
        ),
        (
            "kiothi:start=7x5 0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,1 S 0,0 play",
            "field variant",
        ),
    ] {
        let err = bad.parse::<AnyPosition>().unwrap_err().to_string();
        assert!(err.starts_with(field), "{bad}: {err}");
    }
    let any: AnyPosition = "kiothi 0,0,0,0,0,0,0,0,0,1ns/0,0,0,0,0,0,0,0,0,0s S 1,2 play"
        .parse()
        .unwrap();
    assert_eq!(
        any.to_string(),
        "kiothi 0,0,0,0,0,0,0,0,0,1ns/0,0,0,0,0,0,0,0,0,0s S 1,2 play"
    );
    let warriors = giuthi::with_position!(&any, p => p.rules.seeds_on_board(&p.state));
    assert_eq!(warriors, 1);
}

#[test]
fn perft_after_the_opening() {
    // Move counts (the sowing is cross-checked against a naive second sower in
    // tests/kiothi_props.rs before these were frozen).
    for (text, counts) in [
        (
            "kiothi 0,0,0,0,0s,0s,15ns,5ns,5ns,5ns/0,0,0,0,0s,0s,15ns,5ns,5ns,5ns S 0,0 play",
            [24u64, 553, 11047],
        ),
        (
            "kiothi 1n,0,0,0,0s,0s,5ns,5ns,5ns,5ns/5n,5n,0,0,0s,0s,5ns,5ns,5ns,14ns S 0,0 play",
            [29, 447, 9728],
        ),
    ] {
        let p = pos(text);
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(
                giuthi::perft::perft(&p.rules, &p.state, d as u32 + 1),
                n,
                "{text} depth {}",
                d + 1
            );
        }
    }
}
