//! The built `giuthi` binary run on real input (STYLE.md, tests: CLI): `start`, `show`,
//! `moves` (and its JSON contract), `play`, `perft`, and bad input (exit code 2, an error
//! naming the field, never a panic).

use giuthi::rules::giuthi::Giuthi;
use giuthi::Position;
use serde_json::Value;
use std::process::Command;

// Runs the binary (`common::run_cli`): (exit code, stdout, stderr).
use crate::common::run_cli as giuthi;

/// Runs the binary and expects success; returns stdout.
fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = giuthi(args);
    assert_eq!(code, 0, "giuthi {args:?} failed: {stderr}");
    stdout
}

/// Runs the binary and expects a usage error (exit 2); returns stderr.
fn usage_error(args: &[&str]) -> String {
    let (code, stdout, stderr) = giuthi(args);
    assert_eq!(
        code, 2,
        "giuthi {args:?}: expected exit 2, stdout {stdout:?}, stderr {stderr:?}"
    );
    assert!(!stderr.trim().is_empty(), "giuthi {args:?}: no message");
    stderr
}

/// `moves --json` parsed.
fn moves_json(position: &str) -> Vec<Value> {
    let text = ok(&["moves", "--json", position]);
    match serde_json::from_str(&text).expect("moves --json prints JSON") {
        Value::Array(items) => items,
        other => panic!("expected an array, found {other}"),
    }
}

const START_2X5X4: &str = "giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0";

// ---------------------------------------------------------------- start

#[test]
fn g1_start_default_is_2x8x8_south_to_move() {
    assert_eq!(
        ok(&["start"]),
        "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0\n"
    );
}

#[test]
fn g1_start_historical_setups() {
    for (pits, seeds) in [(5, 4), (6, 4), (6, 6), (7, 6), (8, 4), (8, 8), (10, 9)] {
        let text = ok(&[
            "start",
            "--pits",
            &pits.to_string(),
            "--seeds",
            &seeds.to_string(),
        ]);
        let row = vec![seeds.to_string(); pits].join(",");
        assert_eq!(text, format!("giuthi {row}/{row} S 0,0\n"));
    }
}

#[test]
fn r1_start_kalah_6_4() {
    let expected = "kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0\n";
    assert_eq!(
        ok(&["start", "--game", "kalah", "--pits", "6", "--seeds", "4"]),
        expected
    );
    // Kalah's defaults are Kalah(6,4).
    assert_eq!(ok(&["start", "--game", "kalah"]), expected);
    assert_eq!(
        ok(&["start", "--game", "kalah", "--pits", "4", "--seeds", "3"]),
        "kalah 3,3,3,3/3,3,3,3 S 0,0\n"
    );
}

#[test]
fn n1_start_variant_is_printed_canonically() {
    assert_eq!(
        ok(&[
            "start",
            "--pits",
            "5",
            "--seeds",
            "4",
            "--variant",
            "origin=skip,chain=one"
        ]),
        "giuthi:chain=one,origin=skip 4,4,4,4,4/4,4,4,4,4 S 0,0\n"
    );
    // Defaults are omitted.
    assert_eq!(
        ok(&[
            "start",
            "--pits",
            "5",
            "--seeds",
            "4",
            "--variant",
            "chain=run,end=stuck"
        ]),
        format!("{START_2X5X4}\n")
    );
}

#[test]
fn start_bad_options_exit_2_naming_the_option() {
    let cases: &[(&[&str], &str)] = &[
        (&["start", "--pits", "1"], "--pits"),
        (&["start", "--pits", "17"], "--pits"),
        (&["start", "--game", "kalah", "--pits", "0"], "--pits"),
        (&["start", "--pits", "-3"], "--pits"),
        (&["start", "--pits", "x"], "--pits"),
        (&["start", "--seeds", "0"], "--seeds"),
        (&["start", "--pits", "16", "--seeds", "8"], "--seeds"),
        (&["start", "--seeds", "300"], "--seeds"),
        (&["start", "--variant", "chain=two"], "variant"),
        (&["start", "--variant", "colour=red"], "variant"),
        (&["start", "--variant", "chain"], "variant"),
        (&["start", "--variant", "chain=one,chain=run"], "variant"),
        (
            &["start", "--game", "kalah", "--variant", "chain=one"],
            "--variant",
        ),
        (&["start", "--game", "chess"], "--game"),
    ];
    for (args, field) in cases {
        let err = usage_error(args);
        assert!(
            err.contains(field),
            "giuthi {args:?}: {err:?} does not name {field}"
        );
    }
}

// ---------------------------------------------------------------- show

#[test]
fn show_draws_north_reversed_on_top_with_indices() {
    let text = ok(&["show", "giuthi 1,2,3,4,5/6,7,8,9,10 N 3,4"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "giuthi 1,2,3,4,5/6,7,8,9,10 N 3,4");
    let north = lines
        .iter()
        .find(|l| l.trim_start().starts_with("North"))
        .unwrap();
    let south = lines
        .iter()
        .find(|l| l.trim_start().starts_with("South |"))
        .unwrap();
    let cells = |l: &str| -> Vec<u32> {
        l.split('|')
            .skip(1)
            .filter_map(|c| c.trim().parse().ok())
            .collect()
    };
    // North's row right to left (pit 0 at the right), South's left to right.
    assert_eq!(cells(north), [5, 4, 3, 2, 1]);
    assert_eq!(cells(south), [6, 7, 8, 9, 10]);
    assert!(north.contains("captured 4") && north.contains("to move"));
    assert!(south.contains("captured 3") && !south.contains("to move"));
    let indices: Vec<Vec<u32>> = lines
        .iter()
        .filter(|l| l.trim_end().ends_with("pit"))
        .map(|l| {
            l.split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect()
        })
        .collect();
    assert_eq!(indices, [vec![4, 3, 2, 1, 0], vec![5, 6, 7, 8, 9]]);
    assert!(text.contains("North to move"));
}

#[test]
fn g9_show_finished_game_gives_final_scores() {
    let text = ok(&["show", "giuthi 1,1/1,7 S 0,0"]);
    assert!(text.contains("game is over"), "{text}");
    assert!(text.contains("South 8, North 2: South wins by 6"), "{text}");
}

#[test]
fn g8_show_says_when_the_mover_must_pass() {
    let text = ok(&["show", "giuthi 1,1,3/1,1,4 S 0,0"]);
    assert!(text.contains("must pass"), "{text}");
}

#[test]
fn r1_show_kalah_stores_at_the_ends() {
    let text = ok(&["show", "kalah 1,2,3/4,5,6 S 17,23"]);
    let store_line = text.lines().find(|l| l.contains("stores")).unwrap();
    // North's store on the left, South's on the right (as South sees the board).
    let numbers: Vec<u32> = store_line
        .split(['|', '+', ' '])
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(&numbers[..2], [23, 17], "{store_line}");
    assert!(store_line.contains("North 23 (left), South 17 (right)"));
}

#[test]
fn show_reads_a_position_file() {
    // The name starts with a game's name: it is still read as a file.
    let path = std::env::temp_dir().join(format!("giuthi-cli-test-{}.txt", std::process::id()));
    std::fs::write(
        &path,
        "# a comment\n\ngiuthi 1,1/1,7 S 0,0 | recorded solution here\n",
    )
    .unwrap();
    let text = ok(&["show", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(text.starts_with("giuthi 1,1/1,7 S 0,0\n"), "{text}");
}

// ---------------------------------------------------------------- moves

#[test]
fn moves_json_contract_on_the_2x5x4_start() {
    let items = moves_json(START_2X5X4);
    let pos: Position<Giuthi> = START_2X5X4.parse().unwrap();
    let children = pos.children();
    assert_eq!(items.len(), 10);
    assert_eq!(items.len(), children.len());
    let expected_order = [
        "5cw", "5ccw", "6cw", "6ccw", "7cw", "7ccw", "8cw", "8ccw", "9cw", "9ccw",
    ];
    for ((item, child), name) in items.iter().zip(&children).zip(expected_order) {
        let obj = item.as_object().expect("an object per move");
        let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["captured", "extra_move", "move", "position"]);
        assert_eq!(obj["move"], name);
        assert_eq!(obj["position"], pos.after(child).to_string());
        assert_eq!(obj["captured"], child.captured);
        assert_eq!(obj["extra_move"], !child.turn_passes);
        // The position field is canonical and is what `play` prints.
        assert_eq!(
            ok(&["play", START_2X5X4, name]).trim_end(),
            obj["position"].as_str().unwrap()
        );
    }
    // Hand-checked (G3-G6): 5ccw sows 6..9, relays at 9 back cw to 4, relays at 4 ccw to
    // the empty 9 (a seed went into North's row): captures pit 0's 4 and the landing seed.
    assert_eq!(items[1]["position"], "giuthi 0,4,4,4,0/2,7,7,7,0 N 5,0");
    assert_eq!(items[1]["captured"], 5);
    assert_eq!(items[0]["captured"], 0);
}

#[test]
fn moves_json_keys_in_contract_order() {
    let text = ok(&["moves", "--json", START_2X5X4]);
    let first = &text[..text.find('}').unwrap()];
    let at = |k: &str| first.find(&format!("\"{k}\"")).unwrap();
    assert!(at("move") < at("position"));
    assert!(at("position") < at("captured"));
    assert!(at("captured") < at("extra_move"));
}

#[test]
fn g8_moves_json_pass_when_both_sowings_are_endless() {
    let items = moves_json("giuthi 1,1,3/1,1,4 S 0,0");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["move"], "pass");
    assert_eq!(items[0]["position"], "giuthi 1,1,3/1,1,4 N 0,0");
    assert_eq!(items[0]["captured"], 0);
    assert_eq!(items[0]["extra_move"], false);
}

#[test]
fn g9_moves_json_finished_game_is_empty() {
    assert!(moves_json("giuthi 1,1/1,7 S 0,0").is_empty());
    assert_eq!(
        ok(&["moves", "--json", "giuthi 1,1/1,7 S 0,0"]).trim(),
        "[]"
    );
    let text = ok(&["moves", "giuthi 1,1/1,7 S 0,0"]);
    assert!(text.contains("game is over"), "{text}");
}

#[test]
fn g7_moves_json_does_not_list_the_endless_5ccw() {
    let items = moves_json("giuthi 1,6,0/2,0,2 S 0,0");
    let names: Vec<&str> = items.iter().map(|i| i["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["3cw", "3ccw", "5cw"]);
}

#[test]
fn r2_moves_json_kalah_extra_move() {
    let items = moves_json("kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0");
    let names: Vec<&str> = items.iter().map(|i| i["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["6", "7", "8", "9", "10", "11"]);
    // 8 sows 9, 10, 11 and the store: an extra move.
    assert_eq!(items[2]["extra_move"], true);
    assert_eq!(items[2]["captured"], 1);
    assert_eq!(items[2]["position"], "kalah 4,4,4,4,4,4/4,4,0,5,5,5 S 1,0");
    assert_eq!(items[0]["extra_move"], false);
}

#[test]
fn moves_table_says_what_each_move_does() {
    let text = ok(&["moves", START_2X5X4]);
    let line = text.lines().find(|l| l.starts_with("5ccw ")).unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    // move, laps, sown, captured, extra, position
    assert_eq!(words[..5], ["5ccw", "3", "14", "5", "no"]);
    assert_eq!(words[5..].join(" "), "giuthi 0,4,4,4,0/2,7,7,7,0 N 5,0");
}

/// The "also report" of issue 2: on 2x10 with 9 a pit, exactly two opening moves capture,
/// and each takes ten seeds (nine from the opposite pit plus the capturing seed, G6).
#[test]
fn g6_opening_2x10x9_captures_ten_with_10ccw_and_19cw() {
    let start = ok(&["start", "--pits", "10", "--seeds", "9"]);
    let items = moves_json(start.trim_end());
    assert_eq!(items.len(), 20);
    let capturing: Vec<(&str, u64)> = items
        .iter()
        .filter(|i| i["captured"].as_u64().unwrap() > 0)
        .map(|i| (i["move"].as_str().unwrap(), i["captured"].as_u64().unwrap()))
        .collect();
    assert_eq!(capturing, [("10ccw", 10), ("19cw", 10)]);
}

// ---------------------------------------------------------------- play

#[test]
fn play_a_good_line_prints_the_canonical_result() {
    let out = ok(&["play", START_2X5X4, "5ccw", "1cw"]);
    let pos: Position<Giuthi> = START_2X5X4.parse().unwrap();
    let expected = pos.play_str("5ccw").unwrap().play_str("1cw").unwrap();
    assert_eq!(out, format!("{expected}\n"));
    // --verbose prints one line per move, then the position.
    let out = ok(&["play", "--verbose", START_2X5X4, "5ccw", "1cw"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("1. 5ccw: laps 3, sown 14, captured 5, turn passes -> "));
    assert!(lines[1].starts_with("2. 1cw: "));
    assert_eq!(lines[2], expected.to_string());
}

#[test]
fn g8_play_a_pass_when_it_is_forced() {
    assert_eq!(
        ok(&["play", "giuthi 1,1,3/1,1,4 S 0,0", "pass"]),
        "giuthi 1,1,3/1,1,4 N 0,0\n"
    );
}

#[test]
fn play_illegal_moves_exit_2_naming_move_index_and_reason() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        // (position, moves, words the message must contain)
        (
            START_2X5X4,
            &["5ccw", "0cw"],
            &["move 2 of 2", "0cw", "2 seeds", "G2"],
        ),
        (
            START_2X5X4,
            &["0cw"],
            &["move 1 of 1", "0cw", "not South's"],
        ),
        (
            START_2X5X4,
            &["5ccw", "5cw"],
            &["move 2 of 2", "5cw", "not North's"],
        ),
        (
            START_2X5X4,
            &["12cw"],
            &[
                "move 1 of 1",
                "12cw",
                "no pit 12 on a board of 10 pits (pits 0 to 9)",
            ],
        ),
        (
            START_2X5X4,
            &["pass"],
            &["move 1 of 1", "pass", "cannot pass", "G8"],
        ),
        (
            START_2X5X4,
            &["5ccw", "7up"],
            &["move 2 of 2", "7up", "cw or ccw"],
        ),
        (START_2X5X4, &["ccw"], &["move 1 of 1", "ccw", "N2"]),
        (
            START_2X5X4,
            &["07cw"],
            &["move 1 of 1", "07cw", "leading zero"],
        ),
        (
            "giuthi 1,6,0/2,0,2 S 0,0",
            &["5ccw"],
            &["move 1 of 1", "5ccw", "endless", "G7"],
        ),
        (
            "giuthi 1,1,3/1,1,4 S 0,0",
            &["5cw"],
            &["move 1 of 1", "5cw", "must pass", "G8"],
        ),
        (
            "giuthi 1,1,3/1,1,4 S 0,0",
            &["3cw"],
            &["3cw", "must pass", "G2"],
        ),
        (
            "giuthi 1,1/1,7 S 0,0",
            &["3cw"],
            &["move 1 of 1", "3cw", "game is over"],
        ),
        ("giuthi 1,1/1,7 S 0,0", &["pass"], &["pass", "game is over"]),
        (
            "kalah 4,4,4,4,4,4/0,4,4,4,4,4 S 0,0",
            &["6"],
            &["6", "empty", "R1"],
        ),
        (
            "kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0",
            &["7cw"],
            &["7cw", "pit number"],
        ),
    ];
    for (position, moves, words) in cases {
        let mut args = vec!["play", position];
        args.extend_from_slice(moves);
        let err = usage_error(&args);
        for w in *words {
            assert!(err.contains(w), "giuthi {args:?}: {err:?} lacks {w:?}");
        }
    }
}

#[test]
fn g10_play_tracks_repetition_and_refuses_later_moves() {
    // From RULES.md V4: 5ccw, North passes, 7cw (an extra move) returns to the root.
    let root = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    let (code, out, err) = giuthi(&["play", root, "5ccw", "pass", "7cw"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{root}\n"));
    assert!(err.contains("draw by repetition (G10)"), "{err}");
    assert!(err.contains("move 3 repeats the given position"), "{err}");
    let err = usage_error(&["play", root, "5ccw", "pass", "7cw", "5ccw"]);
    assert!(err.contains("move 4 of 4, 5ccw"), "{err}");
    assert!(err.contains("draw by repetition (G10)"), "{err}");
    // A repeat of a position reached during the line counts too.
    let after_one = ok(&["play", root, "5ccw"]);
    let (code, _, err) = giuthi(&["play", after_one.trim_end(), "pass", "7cw", "5ccw"]);
    assert_eq!(code, 0);
    assert!(err.contains("move 3 repeats the given position"), "{err}");
    // The same moves without a repeat give no note.
    let (_, _, err) = giuthi(&["play", root, "5ccw", "pass"]);
    assert!(!err.contains("repetition"), "{err}");
}

/// N1, G9: `play` with no move prints the position as it is, canonical, so an empty
/// principal variation (a finished game: `solve --json` gives `"pv": []`) replays too; a
/// finished game gets its final scores on stderr, as after a line that ends it.
#[test]
fn g9_play_without_moves_prints_the_position_as_it_is() {
    assert_eq!(ok(&["play", START_2X5X4]), format!("{START_2X5X4}\n"));
    // The captured field left out (N1) comes back canonical.
    assert_eq!(ok(&["play", "giuthi 1,1/1,7 S"]), "giuthi 1,1/1,7 S 0,0\n");
    let over = "giuthi 1,1/1,7 S 0,0";
    let solved: Value =
        serde_json::from_str(&ok(&["solve", over, "--json", "--threads", "1"])).unwrap();
    let pv: Vec<&str> = solved["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(pv.is_empty(), "{solved}");
    let mut args = vec!["play", over];
    args.extend(&pv);
    let (code, out, err) = giuthi(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{over}\n"));
    assert!(
        err.contains("the game is over; final scores: South 8, North 2"),
        "{err}"
    );
    let v: Value = serde_json::from_str(&ok(&["play", over, "--json"])).unwrap();
    assert_eq!(v["moves"], serde_json::json!([]));
    assert_eq!(v["position"], over);
    assert_eq!(v["start"], over);
    assert_eq!(v["end"], "game over: South 8, North 2: South wins by 6");
}

// ---------------------------------------------------------------- perft

fn perft_count(out: &str, depth: u32) -> u64 {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix(&format!("perft {depth}: ")))
        .unwrap_or_else(|| panic!("no perft line in {out:?}"));
    line.parse().unwrap()
}

#[test]
fn perft_agrees_with_the_library_and_divide_sums_up() {
    let pos: Position<Giuthi> = START_2X5X4.parse().unwrap();
    for depth in 0..=3 {
        let out = ok(&["perft", START_2X5X4, "--depth", &depth.to_string()]);
        assert_eq!(
            perft_count(&out, depth),
            giuthi::perft::perft(&pos.rules, &pos.state, depth)
        );
        assert!(out.contains("nodes/s") || out.contains("too fast"), "{out}");
    }
    let out = ok(&["perft", START_2X5X4, "--depth", "3", "--divide"]);
    let total = perft_count(&out, 3);
    let parts: Vec<(String, u64)> = out
        .lines()
        .filter(|l| !l.starts_with("perft") && !l.starts_with("time"))
        .map(|l| {
            let (mv, n) = l.split_once(' ').unwrap();
            (mv.to_string(), n.parse().unwrap())
        })
        .collect();
    let names: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(parts.iter().map(|p| p.0.clone()).collect::<Vec<_>>(), names);
    assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), total);
}

#[test]
fn perft_of_a_finished_game_and_of_kalah() {
    assert_eq!(
        perft_count(&ok(&["perft", "giuthi 1,1/1,7 S 0,0", "-d", "2"]), 2),
        0
    );
    assert_eq!(
        perft_count(
            &ok(&["perft", "kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0", "-d", "1"]),
            1
        ),
        6
    );
}

#[test]
fn perft_bad_options_exit_2() {
    for args in [
        &["perft", START_2X5X4][..],
        &["perft", START_2X5X4, "--depth", "-1"],
        &["perft", START_2X5X4, "--depth", "x"],
        &["perft", START_2X5X4, "--depth", "1000"],
        &["perft", START_2X5X4, "--depth", "0", "--divide"],
    ] {
        let err = usage_error(args);
        assert!(err.contains("depth"), "giuthi {args:?}: {err:?}");
    }
    // The range named is perft's own (0 to 64), not the integer type's.
    let err = usage_error(&["perft", START_2X5X4, "--depth", "1000"]);
    assert!(err.contains("0 to 64"), "{err}");
}

// ---------------------------------------------------------------- bad positions

/// Every malformed field, given to every command that reads a position: exit 2 and a
/// message naming the field, never a panic.
#[test]
fn n4_bad_positions_exit_2_naming_the_field() {
    let cases: &[(&str, &str)] = &[
        ("", "field game"),
        ("chess 1,1/1,7 S 0,0", "field game"),
        ("giuthi", "field board"),
        ("giuthi 1,1/1,7", "field turn"),
        ("giuthi 1,1/1,7 S 0,0 extra", "field position"),
        (" giuthi 1,1/1,7 S 0,0", "field position"),
        ("giuthi 1,1/1,7  S 0,0", "field position"),
        ("giuthi 1,1/1,7 S 0,0 ", "field position"),
        ("giuthi:chain=two 1,1/1,7 S 0,0", "field variant"),
        ("giuthi:colour=red 1,1/1,7 S 0,0", "field variant"),
        ("giuthi:chain 1,1/1,7 S 0,0", "field variant"),
        ("giuthi:chain=one,chain=run 1,1/1,7 S 0,0", "field variant"),
        ("kalah:chain=one 1,1/1,7 S 0,0", "field variant"),
        ("giuthi 1,1,1/1,7 S 0,0", "field board"),
        ("giuthi 1,1 S 0,0", "field board"),
        ("giuthi 1,1//1,7 S 0,0", "field board"),
        ("giuthi 1,x/1,7 S 0,0", "field board"),
        ("giuthi 1,-1/1,7 S 0,0", "field board"),
        ("giuthi 01,1/1,7 S 0,0", "field board"),
        ("giuthi 1,,1/1,1,1 S 0,0", "field board"),
        ("giuthi 1/7 S 0,0", "field board"),
        ("giuthi 256,0/0,0 S 0,0", "field board"),
        ("giuthi 200,200/1,1 S 0,0", "field board"),
        (
            "giuthi 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 S 0,0",
            "field board",
        ),
        ("kalah 1,1/1 S 0,0", "field board"),
        ("giuthi 1,1/1,7 X 0,0", "field turn"),
        ("giuthi 1,1/1,7 s 0,0", "field turn"),
        ("giuthi 1,1/1,7 S 0", "field captured"),
        ("giuthi 1,1/1,7 S a,0", "field captured"),
        ("giuthi 1,1/1,7 S 0,70000", "field captured"),
        ("giuthi 1,1/1,7 S 0,0,0", "field captured"),
        ("kalah 1,1/1,7 S 0;0", "field stores"),
    ];
    for (position, field) in cases {
        for command in [
            &["show", position][..],
            &["moves", position],
            &["moves", "--json", position],
            &["play", position, "pass"],
            &["perft", position, "--depth", "1"],
        ] {
            let err = usage_error(command);
            assert!(
                err.contains(field),
                "giuthi {command:?}: {err:?} does not name {field:?}"
            );
        }
    }
}

#[test]
fn bad_position_file_exit_2_naming_file_and_field() {
    let path = std::env::temp_dir().join(format!("giuthi-cli-bad-{}.txt", std::process::id()));
    std::fs::write(&path, "# only a comment\ngiuthi 1,1/1,7 Q\n").unwrap();
    let err = usage_error(&["show", path.to_str().unwrap()]);
    std::fs::write(&path, "# nothing but comments\n").unwrap();
    let empty = usage_error(&["moves", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(err.contains("field turn"), "{err}");
    assert!(err.contains(path.to_str().unwrap()), "{err}");
    assert!(empty.contains("no position"), "{empty}");
    let missing = usage_error(&["show", "no-such-file.txt"]);
    let dir = usage_error(&["show", std::env::temp_dir().to_str().unwrap()]);
    assert!(dir.contains("directory"), "{dir}");
    assert!(missing.contains("no file named"), "{missing}");
}

#[test]
fn a_file_named_like_a_game_is_read_as_a_file() {
    let dir = std::env::temp_dir().join(format!("giuthi-cli-dir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("giuthi-end.txt"), "giuthi 1,1/1,7 S 0,0\n").unwrap();
    std::fs::write(dir.join("kalah"), "kalah 4,4/4,4 S 0,0\n").unwrap();
    let run = |arg: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_giuthi"))
            .args(["moves", "--json", arg])
            .current_dir(&dir)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, end) = run("giuthi-end.txt");
    let (code2, kalah) = run("kalah");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!((code, end.trim()), (Some(0), "[]"));
    assert_eq!(code2, Some(0));
    assert!(kalah.contains("\"move\": \"2\""), "{kalah}");
}

#[test]
fn k2_start_kiothi_both_variants() {
    assert_eq!(
        ok(&["start", "--game", "kiothi"]).trim(),
        "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1"
    );
    assert_eq!(
        ok(&["start", "--game", "kiothi", "--variant", "start=5x5"]).trim(),
        "kiothi:start=5x5 0,0,0,0,0,5s,5s,5s,5s,5s/0,0,0,0,0,5s,5s,5s,5s,5s S 0,0 open1"
    );
    assert!(usage_error(&["start", "--game", "kiothi", "--pits", "8"]).contains("--pits"));
    assert!(
        usage_error(&["start", "--game", "kiothi", "--variant", "start=4x4"]).contains("variant")
    );
}

#[test]
fn k3_moves_on_an_opening_explains_instead_of_listing() {
    let start = ok(&["start", "--game", "kiothi"]);
    let start = start.trim();
    // Too many moves to list: a usage error that explains, in text as in JSON (issue 16,
    // item 11: the text form used to exit 0).
    let text = usage_error(&["moves", start]);
    assert!(text.contains("redistribution"), "{text}");
    assert!(!text.contains("game is over"), "{text}");
    // JSON has no list to give: `[]` would claim the game is over.
    assert!(usage_error(&["moves", "--json", start]).contains("redistribution"));
    let shown = ok(&["show", start]);
    assert!(!shown.contains("game is over"), "{shown}");
    assert!(usage_error(&["perft", start, "--depth", "2"]).contains("opening"));
    let after = ok(&["play", start, "r14,15:16=10"]);
    assert!(after.trim().ends_with("N 0,0 open2"), "{after}");
}

#[test]
fn plot_writes_an_svg_of_solved_starts() {
    let dir = std::env::temp_dir().join(format!("giuthi-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join("starts.txt");
    std::fs::write(
        &input,
        "# solved starts\n\
         giuthi 2,2,2,2,2/2,2,2,2,2 S 0,0 | lo=+20 hi=+inf margin=+20 result=win best=7cw,7ccw\n\
         giuthi 1,1,1,1,1/1,1,1,1,1 S 0,0 | lo=+0 hi=+0 margin=+0 result=draw best=\n\
         giuthi 1,0,0,0/1,3,0,0 S 0,2 | lo=+3 hi=+inf margin=+1 result=win best=5cw\n",
    )
    .expect("write");
    let out = dir.join("m.svg");
    ok(&[
        "plot",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&out).expect("svg written");
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("Giuthi 2x5"));
    assert!(
        !svg.contains("Giuthi 2x4"),
        "a non-start position is not plotted"
    );
    assert!(svg.contains("+20"));
    // A start recorded in two files is drawn once (a fresh-user find: the README's
    // command drew 2x5x3 and 2x5x4 twice).
    let twice = dir.join("twice.svg");
    let i = input.to_str().unwrap();
    ok(&["plot", i, i, "--out", twice.to_str().unwrap()]);
    let twice = std::fs::read_to_string(&twice).expect("svg written");
    assert_eq!(
        twice.matches("<circle").count(),
        svg.matches("<circle").count()
    );
    assert!(svg.matches("<circle").count() >= 2, "{svg}");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "giuthi 2,2/2,2 S 0,0\n").expect("write");
    assert!(usage_error(&[
        "plot",
        empty.to_str().unwrap(),
        "--out",
        out.to_str().unwrap()
    ])
    .contains("no solved start positions"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A transposition table that cannot be allocated is a usage error naming `--hash`, not
/// a panic (the address space is capped at 1 GB, the table asked for is 4 GB).
#[cfg(unix)]
#[test]
fn solve_hash_too_large_for_memory_is_a_usage_error() {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_giuthi"))
        .args(["solve", "giuthi 2,2,2,0/0,2,2,2 S 0,0", "--hash", "4096"])
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error: --hash 4096: cannot allocate a 4096 MB transposition table"),
        "{err}"
    );
}

/// With the address space limited (no room for the 1 GB stacks of the search threads), a
/// table that fits still solves: smaller stacks, or the calling thread.
#[test]
fn solve_with_a_limited_address_space_still_answers() {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_giuthi"))
        .args([
            "solve",
            "giuthi 2,2,2,0/0,2,2,2 S 0,0",
            "--hash",
            "16",
            "--threads",
            "2",
            "--json",
        ])
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["margin"], 12);
}

#[test]
fn bench_hash_has_the_range_of_solve() {
    let err = usage_error(&["bench", "--hash", "100000"]);
    assert!(err.contains("1..=16384"), "{err}");
    let err = usage_error(&["bench", "--hash", "0"]);
    assert!(err.contains("--hash"), "{err}");
}

/// A reader that closes the pipe early (`giuthi solve FILE | head -1`) ends the process
/// quietly, without the panic of `println!` on a broken pipe.
#[test]
fn solve_into_a_closed_pipe_does_not_panic() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.txt");
    std::fs::write(&file, "kalah 1,1/1,1 S 0,0\n".repeat(2000)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_giuthi"))
        .args([
            "solve",
            file.to_str().unwrap(),
            "--threads",
            "1",
            "--hash",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty());
    // The reader is dropped here: the pipe is closed.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
}

/// A file without a position is a usage error for `solve` and `solve --check`, as for
/// `analyze`.
#[test]
fn solve_a_file_without_positions_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("empty.txt", ""),
        ("comments.txt", "# nothing\n\n  # here\n"),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let f = file.to_str().unwrap();
        for extra in [&[][..], &["--check"][..]] {
            let mut args = vec!["solve", f];
            args.extend_from_slice(extra);
            let err = usage_error(&args);
            assert!(
                err.contains(&format!("{f}: no position in the file")),
                "{err}"
            );
        }
        let err = usage_error(&["analyze", f]);
        assert!(err.contains("no position in the file"), "{err}");
    }
}

/// `analyze` and `bestmove` have no `--checkpoint`: their help does not mention it; the
/// note about a resumed table lives on `solve --checkpoint`.
#[test]
fn hash_help_mentions_checkpoint_only_where_there_is_one() {
    for cmd in ["analyze", "bestmove"] {
        let help = ok(&[cmd, "--help"]);
        assert!(help.contains("--hash"), "{help}");
        assert!(!help.contains("checkpoint"), "{cmd}: {help}");
    }
    let help = ok(&["solve", "--help"]);
    assert!(
        help.contains("keeps the size of the file's table"),
        "{help}"
    );
}

/// `plot` warns about each line it cannot read, naming FILE:LINE and the reason, and
/// goes on with the others; unsolved positions are skipped quietly.
#[test]
fn plot_warns_about_unreadable_lines_and_keeps_going() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("starts.txt");
    std::fs::write(
        &input,
        "# solved starts\n\
         giuthi 2,2,2,2,2/2,2,2,2,2 S 0,0 | lo=+20 hi=+inf margin=+20 result=win best=7cw\n\
         hello world\n\
         giuthi 1,1,1,1,1/1,1,1,1,1 S 0,0|margin=+0\n\
         giuthi 1,1,1/1,1,1 S 0,0 | lo=+0 hi=+0 result=draw\n\
         giuthi 3,3,3/3,3,3 S 0,0 | margin=big\n\
         giuthi 9,9/9 S 0,0 | margin=+1\n\
         giuthi 4,4,4/4,4,4 S 0,0\n",
    )
    .unwrap();
    let out = dir.path().join("m.svg");
    let f = input.to_str().unwrap();
    let (code, _, err) = giuthi(&["plot", f, "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("Giuthi 2x5"));
    for line in [3, 4, 5, 6, 7] {
        assert!(
            err.contains(&format!("warning: {f}:{line}: ")),
            "{line}: {err}"
        );
    }
    assert!(err.contains("no margin="), "{err}");
    assert!(err.contains("margin=big is not a number"), "{err}");
    assert!(
        !err.contains(&format!("{f}:8:")),
        "an unsolved position: {err}"
    );
    assert_eq!(err.matches("warning:").count(), 5, "{err}");
}

/// Every command that does real work shows examples in its `--help`.
#[test]
fn help_of_tb_and_bench_has_examples() {
    for args in [
        &["tb", "gen", "--help"][..],
        &["tb", "probe", "--help"],
        &["tb", "stats", "--help"],
        &["tb", "verify", "--help"],
        &["bench", "--help"],
    ] {
        let help = ok(args);
        assert!(help.contains("Examples:"), "{args:?}: {help}");
        let cmd = format!("giuthi {}", args[..args.len() - 1].join(" "));
        assert!(help.contains(&cmd), "{args:?}: {help}");
    }
}

/// `solve --analyze` adds every move's margin (V4) to the solution: the same values as
/// `giuthi analyze`, and the best moves are exactly those with the solution's margin.
#[test]
fn v4_solve_analyze_gives_every_move_value() {
    let pos = "giuthi 1,1,3,1,2/1,1,1,1,1 N 5,6";
    let solved: Value =
        serde_json::from_str(ok(&["solve", pos, "--analyze", "--json", "--threads", "1"]).trim())
            .expect("JSON");
    let analyzed: Value =
        serde_json::from_str(ok(&["analyze", pos, "--json", "--threads", "1"]).trim())
            .expect("JSON");
    let moves = solved["moves"].as_array().expect("a moves array");
    assert_eq!(&solved["moves"], &analyzed["moves"]);
    assert!(moves.len() >= 2, "{solved}");
    let margin = solved["margin"].as_i64().expect("margin");
    let best: Vec<&Value> = moves
        .iter()
        .filter(|m| m["margin"].as_i64() == Some(margin))
        .map(|m| &m["move"])
        .collect();
    let recorded: Vec<&Value> = solved["best_moves"]
        .as_array()
        .expect("best")
        .iter()
        .collect();
    assert_eq!(best, recorded, "{solved}");
    // The text form lists them too.
    let text = ok(&["solve", pos, "--analyze", "--threads", "1"]);
    assert!(text.lines().any(|l| l.starts_with("moves ")), "{text}");
}

/// A solve that needs a deeper path than `--max-ply` stops cleanly: exit code 3, a message
/// that says so with the ranges proven, no output on stdout but the JSON of `--json`.
#[test]
fn g10_max_ply_stops_with_exit_code_3() {
    const POS: &str = "giuthi 3,0,2,1,4/0,2,5,1,2 N 3,1";
    // The search alone (`--retro-states 0`): since session 23 the default cap holds this
    // graph (34 M states), and the pass, which needs no deep path, would answer.
    let shallow = |last: &'static str| {
        [
            "solve",
            POS,
            "--max-ply",
            "2",
            "--threads",
            "1",
            "--retro-states",
            "0",
            last,
        ]
    };
    let (code, stdout, stderr) = giuthi(&shallow("--quiet"));
    assert_eq!(code, 3, "{stdout}{stderr}");
    // Only what is proven on stdout (session 9's fresh-user find: it was empty), no
    // solution: the position and the `stopped at --max-ply, not exact` line (not
    // "interrupted": nothing interrupted it, session 24's fresh-user find).
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0], format!("position {POS}"));
    assert!(
        lines[1].starts_with("stopped at --max-ply, not exact: lo <= +20  hi >= -20  margin in ["),
        "{stdout}"
    );
    assert!(stderr.contains("deeper than --max-ply"), "{stderr}");
    assert!(stderr.contains("lo in ["), "{stderr}");
    // With --json, scripts get what is proven on stdout (a fresh-user find).
    let (code, stdout, _) = giuthi(&shallow("--json"));
    assert_eq!(code, 3);
    let v: Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    assert_eq!(v["stopped"], "max_ply");
    assert_eq!(v["position"], POS);
    assert_eq!(v["lo_range"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["hi_range"].as_array().map(Vec::len), Some(2));
    // Issue 16, item 4: an infinity is a string, never null (nothing is proven of hi's
    // upper end yet: plus infinity); a margin not proven is left out.
    assert_eq!(v["hi_range"][1], "+inf", "{stdout}");
    assert!(!stdout.contains("null"), "{stdout}");
    usage_error(&["solve", POS, "--max-ply", "0"]);
}

/// `solve --check`: a recorded best move that is not a legal move of its position makes
/// the line malformed (exit 2, naming the line), not a mismatch (a fresh-user find).
#[test]
fn check_record_with_an_illegal_best_move_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    for bad in ["zzz", "9cw", "5cw,4ccw"] {
        let file = dir.path().join("bad.txt");
        std::fs::write(
            &file,
            format!(
                "giuthi 1,0,0,0/1,3,0,0 S 0,2 | lo=+3 hi=+inf margin=+1 result=win best=5cw\n\
                 giuthi 1,0,0,0/1,3,0,0 S 0,2 | lo=+3 hi=+inf margin=+1 result=win best={bad}\n"
            ),
        )
        .expect("write");
        let f = file.to_str().unwrap();
        let err = usage_error(&["solve", "--check", f, "--threads", "1"]);
        assert!(err.contains(&format!("{f}:2: best=")), "{err}");
        assert!(err.contains("not a legal move of the position"), "{err}");
    }
}

/// A position file given to `analyze` or `bestmove` with a malformed first position: the
/// error names the file and the line, as `solve FILE` does.
#[test]
fn position_file_errors_name_the_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("bad.txt");
    std::fs::write(&file, "# a comment\n\ngiuthi 1,0,0,0/1,3,0,0 X 0,2\n").expect("write");
    let f = file.to_str().unwrap();
    for cmd in ["analyze", "bestmove"] {
        let err = usage_error(&[cmd, f]);
        assert!(err.contains(&format!("{f}:3: field turn")), "{err}");
    }
}

/// A negative number for a whole-number option is a usage error (exit 2) that names the
/// option and its range in words, never Rust's "invalid digit found in string".
#[test]
fn negative_whole_numbers_name_the_option_and_range() {
    let p = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    let gen: Vec<&str> = "tb gen --pits 3 --max-seeds 2 --out /tmp/none"
        .split(' ')
        .collect();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["solve", p, "--checkpoint", "/tmp/x.ck"],
            "--checkpoint-every",
        ),
        (vec!["solve", p], "--max-ply"),
        (vec!["solve", p], "--retro-states"),
        (vec!["analyze", p], "--retro-states"),
        (vec!["bestmove", p], "--max-ply"),
        (vec!["start"], "--pits"),
        (vec!["start"], "--seeds"),
        (vec!["match"], "--seed"),
        (vec!["perft", p], "--depth"),
        (vec!["serve"], "--time-limit"),
        (gen[..2].to_vec(), "--pits"),
        (gen.to_vec(), "--memory"),
        (gen.to_vec(), "--checkpoint-every"),
        (vec!["tb", "verify", "/tmp"], "--samples"),
        (vec!["tb", "verify", "/tmp"], "--seed"),
    ];
    for (mut args, option) in cases {
        args.extend([option, "-1"]);
        let err = usage_error(&args);
        assert!(err.contains(option), "{args:?}: {err}");
        assert!(err.contains("-1"), "{args:?}: {err}");
        assert!(!err.contains("invalid digit"), "{args:?}: {err}");
    }
}

/// A file that is not UTF-8 text, given as a position or a file of positions (or to
/// `plot`), is bad input: exit 2, naming the file and the line of the first bad byte.
#[test]
fn a_binary_positions_file_is_a_usage_error_naming_its_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = dir.path().join("bin.txt");
    std::fs::write(&first, b"\xff\xfe").expect("written");
    let second = dir.path().join("second.txt");
    std::fs::write(&second, b"giuthi 1,0,0,0/1,3,0,0 S 0,2\n\xff\n").expect("written");
    let svg = dir.path().join("out.svg");
    for (args, at) in [
        (
            vec!["solve", first.to_str().unwrap()],
            format!("{}:1:", first.display()),
        ),
        (
            vec!["solve", second.to_str().unwrap()],
            format!("{}:2:", second.display()),
        ),
        (
            vec![
                "plot",
                first.to_str().unwrap(),
                "--out",
                svg.to_str().unwrap(),
            ],
            format!("{}:1:", first.display()),
        ),
    ] {
        let (code, _, err) = giuthi(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(&at) && err.contains("not UTF-8"), "{err}");
    }
    assert!(!svg.exists());
}

/// `solve --analyze` stopped (Ctrl-C) while finding the move values keeps what was
/// proven: the margin, the best moves and the PV are printed as for a finished solve,
/// with the moves settled so far (`"moves_finished": false`), and the exit code is a
/// stop's (130). The search alone takes minutes over this position's move 11ccw
/// (issue 12), and its best moves a few thousand nodes.
#[test]
fn v4_solve_analyze_stopped_in_the_move_values_keeps_the_best_moves() {
    let pos = "giuthi:chain=none,origin=skip 1,0,0,2,2,1,0/0,1,0,0,3,1,0 S 3,5";
    let args = [
        "solve",
        pos,
        "--analyze",
        "--retro-states",
        "0",
        "--threads",
        "1",
        "--json",
    ];
    let out = crate::common::run_cli_signalled(
        &args,
        libc::SIGINT,
        std::time::Duration::from_millis(1500),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["margin"], 0, "{v}");
    assert_eq!(v["best_moves"], serde_json::json!(["11cw"]), "{v}");
    assert_eq!(v["moves_finished"], false, "{v}");
    assert_eq!(v["stopped"], "interrupted", "{v}");
    let settled = v["moves"].as_array().expect("moves");
    assert!(settled.len() < 2, "{v}");
    for m in settled {
        assert!(m["move"] == "11cw" && m["margin"] == 0, "{v}");
    }
    assert!(
        stderr.contains("the best moves are proven; the move values were not finished"),
        "{stderr}"
    );
}
