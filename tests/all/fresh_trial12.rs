//! The fresh-user trial after session 12: each find with a test that fails without its
//! fix (the built binary, STYLE.md tests: CLI).

use crate::common::run_cli as giuthi;

// ---------------------------------------------- 5. too many captured values

/// Item 5: a captured (stores, prisons) field of three numbers says what is wrong: the
/// field, the 2 numbers expected (N1) and how many were given.
#[test]
fn n1_too_many_captured_values_name_the_field_and_the_count() {
    for (position, field) in [
        ("giuthi 1,0,0,0/1,3,0,0 S 0,2,5", "captured"),
        ("kalah 1,0/1,3 S 0,2,5", "stores"),
        (
            "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0,0,0 open1",
            "prisons",
        ),
    ] {
        let count = position.split(' ').nth(3).unwrap().split(',').count();
        let (code, _, err) = giuthi(&["show", position]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!(
                "field {field}: expected 2 numbers <south>,<north>, found {count}"
            )),
            "{err}"
        );
        assert!(!err.contains("whole number"), "{err}");
    }
}

// --------------------------------------------------------- malformed input

/// Malformed input found in the trial: a path that exists but is no regular file
/// (`/dev/null`) was called "no such file"; an unknown game with an empty variant
/// (`chess:`) was reported as a bad variant instead of an unknown game (N1, N4).
#[test]
fn n4_a_device_and_an_unknown_game_with_a_colon_say_what_is_wrong() {
    let (code, _, err) = giuthi(&["show", "/dev/null"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/dev/null: not a regular file"), "{err}");
    assert!(!err.contains("no such file"), "{err}");
    let (code, _, err) = giuthi(&["show", "chess: 1,1/1,1 S 0,0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("field game: unknown game \"chess\""), "{err}");
    // A known game with an empty variant is still a variant error.
    let (code, _, err) = giuthi(&["show", "giuthi: 1,1/1,1 S 0,0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("field variant"), "{err}");
}
