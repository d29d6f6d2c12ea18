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
