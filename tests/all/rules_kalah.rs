//! One test per clause of RULES.md R1-R4 (Kalah), hand-checked in notation:
//! `kalah <board> <turn> <stores>`, moves written as the pit number. For m = 6:
//!
//! ```text
//!         North:  5  4  3  2  1  0
//!   store N                          store S
//!         South:  6  7  8  9 10 11
//! ```
//!
//! South sows ccw from 6 towards 11 and then into its store; North from 0 to 5 and its store.

use giuthi::rules::kalah::{Kalah, KalahMove};
use giuthi::rules::Rules;
use giuthi::{BySide, IllegalMove, Position};

fn pos(text: &str) -> Position<Kalah> {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn check(before: &str, mv: &str, after: &str, turn_passes: bool) {
    let p = pos(before);
    let (next, child) = p
        .play_report(mv.parse().expect("move parses"))
        .unwrap_or_else(|e| panic!("{before} {mv}: {e}"));
    assert_eq!(next.to_string(), after, "{before} {mv}");
    assert_eq!(child.turn_passes, turn_passes, "{before} {mv}");
}

const START: &str = "kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0";

#[test]
fn r1_start_and_moves() {
    let p = pos(START);
    let g = Kalah::new(6).unwrap();
    assert_eq!(Position::new(g.clone(), g.start(4), BySide::default()), p);
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["6", "7", "8", "9", "10", "11"]);
}

#[test]
fn r1_sowing_passes_the_own_store() {
    // 9: pits 10, 11, South's store, North's pit 0.
    check(START, "9", "kalah 5,4,4,4,4,4/4,4,4,0,5,5 N 1,0", true);
    // North's 2: pits 3, 4, 5, North's store.
    check(
        "kalah 4,4,4,4,4,4/4,4,4,0,5,5 N 1,0",
        "2",
        "kalah 4,4,0,5,5,5/4,4,4,0,5,5 N 1,1",
        false,
    );
}

#[test]
fn r1_sowing_skips_the_opponents_store() {
    // 11 with 8: South's store, North's 0..5, (North's store skipped), South's 6.
    check(
        "kalah 0,0,1,0,0,0/1,0,0,0,0,8 S 0,0",
        "11",
        "kalah 1,1,2,1,1,1/2,0,0,0,0,0 N 1,0",
        true,
    );
    // North's 5 with 8: North's store, South's 6..11, (South's store skipped), North's 0.
    check(
        "kalah 1,0,0,0,0,8/0,0,1,0,0,0 N 0,0",
        "5",
        "kalah 2,0,0,0,0,0/1,1,2,1,1,1 S 0,1",
        true,
    );
}

#[test]
fn r1_origin_is_not_skipped() {
    // 13 seeds from 6: 7..11, store, 0..5, and 6 itself, now empty: a capture (R3) of the
    // landing seed and pit 5 (1 seed).
    check(
        "kalah 0,0,1,0,0,0/13,0,0,0,0,0 S 0,0",
        "6",
        "kalah 1,1,2,1,1,0/0,1,1,1,1,1 N 3,0",
        true,
    );
}

#[test]
fn r2_last_seed_in_own_store_is_an_extra_move() {
    check(START, "8", "kalah 4,4,4,4,4,4/4,4,0,5,5,5 S 1,0", false);
    let p = pos(START);
    let (_, child) = p.play_report(KalahMove(8)).unwrap();
    assert_eq!(child.captured, 1);
}

#[test]
fn r3_last_seed_in_an_empty_own_pit_captures_it_and_the_opposite_pit() {
    // 6 -> 7, empty: takes pit 7 (1) and pit 4 across it (5).
    check(
        "kalah 1,1,1,1,5,1/1,0,0,0,0,1 S 0,0",
        "6",
        "kalah 1,1,1,1,0,1/0,0,0,0,0,1 N 6,0",
        true,
    );
}

#[test]
fn r3_capture_even_when_the_opposite_pit_is_empty() {
    check(
        "kalah 1,1,1,1,0,1/1,0,0,0,0,1 S 0,0",
        "6",
        "kalah 1,1,1,1,0,1/0,0,0,0,0,1 N 1,0",
        true,
    );
}

#[test]
fn r3_no_capture_in_the_opponents_row_or_an_occupied_pit() {
    // Last seed in North's empty pit 0: nothing.
    check(
        "kalah 0,1,1,1,1,1/1,0,0,0,0,2 S 0,0",
        "11",
        "kalah 1,1,1,1,1,1/1,0,0,0,0,0 N 1,0",
        true,
    );
    // Last seed in South's occupied pit 7: nothing.
    check(
        "kalah 1,1,1,1,1,1/1,1,0,0,0,0 S 0,0",
        "6",
        "kalah 1,1,1,1,1,1/0,2,0,0,0,0 N 0,0",
        true,
    );
}

#[test]
fn r4_game_ends_when_a_row_is_empty_after_a_move() {
    // 6 -> 7 captures 1 + 1 and leaves South's row empty: each side takes its own row.
    let p = pos("kalah 1,1,0,1,1,1/1,0,0,0,0,0 S 0,0");
    let next = p.play_str("6").unwrap();
    assert_eq!(next.to_string(), "kalah 1,1,0,1,0,1/0,0,0,0,0,0 N 2,0");
    assert!(next.is_over());
    assert_eq!(next.final_scores(), BySide::new(2, 4));
    assert_eq!(next.rules.final_value(&next.state), 4);
    // The mover's own row emptied by sowing into the store ends the game too.
    let p = pos("kalah 0,0,0,0,0,1/0,0,0,0,0,2 S 3,4");
    let next = p.play_str("11").unwrap();
    assert_eq!(next.to_string(), "kalah 1,0,0,0,0,1/0,0,0,0,0,0 N 4,4");
    assert!(next.is_over());
    assert_eq!(next.final_scores(), BySide::new(4, 6));
    assert!(matches!(
        next.play_str("0")
            .unwrap_err()
            .downcast_ref::<IllegalMove>(),
        Some(IllegalMove::GameOver { .. })
    ));
}

#[test]
fn r4_a_position_with_an_empty_row_is_over() {
    let p = pos("kalah 0,0,0,0,0,0/1,2,0,0,0,0 S 5,5");
    assert!(p.is_over());
    assert_eq!(p.final_scores(), BySide::new(8, 5));
}

#[test]
fn r1_illegal_moves_name_the_reason() {
    let p = pos("kalah 4,4,4,4,4,4/0,4,4,4,4,4 S 0,0");
    let e = p.play(KalahMove(6)).unwrap_err();
    assert!(
        matches!(e, IllegalMove::TooFewSeeds { seeds: 0, .. }),
        "{e}"
    );
    let e = p.play(KalahMove(0)).unwrap_err();
    assert!(matches!(e, IllegalMove::NotYourPit { .. }), "{e}");
    let e = p.play(KalahMove(12)).unwrap_err();
    assert!(matches!(e, IllegalMove::NoSuchPit { .. }), "{e}");
}

#[test]
fn n3_kalah_notation_and_moves() {
    assert_eq!(pos("kalah 4,4,4,4,4,4/4,4,4,4,4,4 S").to_string(), START);
    assert_eq!("9".parse::<KalahMove>().unwrap(), KalahMove(9));
    assert_eq!("9ccw".parse::<KalahMove>().unwrap(), KalahMove(9));
    for bad in ["", "09", "9cw", "x", "32", "-1", "ccw"] {
        assert!(bad.parse::<KalahMove>().is_err(), "{bad}");
    }
    assert!("kalah:chain=one 4,4/4,4 S 0,0"
        .parse::<Position<Kalah>>()
        .is_err());
    let e = "kalah 4,4/4,4 X 0,0"
        .parse::<Position<Kalah>>()
        .unwrap_err();
    assert!(e.to_string().starts_with("field turn"), "{e}");
}
