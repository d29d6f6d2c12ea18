//! The fresh-user trial after session 12: each find with a test that fails without its
//! fix (the built binary, STYLE.md tests: CLI).

use crate::common::run_cli as giuthi;
use serde_json::Value;

/// A tiny endgame whose best move 5cw the exact solver proves at once (margin +1, V3).
const TINY: &str = "giuthi 1,0,0,0/1,3,0,0 S 0,2";

/// The Kiothi start (K2), South to redistribute (K3).
const KIOTHI_START: &str = "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1";

// ------------------------------------------------------- 1. bench's time and rate

/// The number after `word ` in `line` (`cpu 0.004 s` -> 0.004), with its text.
fn number_after<'a>(line: &'a str, word: &str) -> (&'a str, f64) {
    let text = line
        .split(&format!("{word} "))
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no {word:?} in {line:?}"));
    (text, text.parse().unwrap_or_else(|e| panic!("{e}: {line}")))
}

/// Item 1: `bench` prints the CPU time it measured (to the millisecond, not floored at
/// 0.01 s) and a rate computed from it, `nodes / cpu`, or `too short to rate` when the
/// time shows as under a millisecond; never a rate from a floor under the measurement.
#[test]
fn bench_prints_the_measured_time_and_an_honest_rate() {
    // The suite's cheapest case (276 nodes) and the whole quick suite.
    for args in [&["bench", "--only", "composition 2x8 S"][..], &["bench"]] {
        let (code, out, err) = giuthi(args);
        assert_eq!(code, 0, "{err}");
        for line in out.lines() {
            let (cpu_text, cpu) = number_after(line, "cpu");
            assert_eq!(
                cpu_text.split('.').nth(1).map(str::len),
                Some(3),
                "milliseconds: {line}"
            );
            let (_, nodes) = number_after(line, "nodes");
            if cpu >= 0.001 {
                let rate: f64 = line
                    .split("  ")
                    .last()
                    .and_then(|r| r.strip_suffix(" nodes/cpu-s"))
                    .unwrap_or_else(|| panic!("a rate: {line}"))
                    .parse()
                    .unwrap();
                // The printed time is rounded to 0.5 ms either way.
                let (lo, hi) = (nodes / (cpu + 0.0005), nodes / (cpu - 0.0005).max(1e-9));
                assert!(
                    lo - 1.0 <= rate && rate <= hi + 1.0,
                    "{rate} not in [{lo}, {hi}]: {line}"
                );
            } else {
                assert!(line.ends_with("too short to rate"), "{line}");
            }
        }
    }
    // JSON gives the measured seconds, not a floor.
    let (code, out, err) = giuthi(&["bench", "--only", "composition 2x8 S", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    let cpu = v["cases"][0]["cpu_seconds"].as_f64().unwrap();
    assert!(cpu > 0.0 && cpu != 0.01, "{v}");
}

// ---------------------------------------------- 2. bestmove's label on stdout

/// Item 2: `bestmove` prints on stdout, with and without `--quiet`, one line carrying the
/// move and whether it is proven: `bestmove MOVE exact: ...` for a proven best move (V4),
/// `bestmove MOVE heuristic (not proven): ...` for a guess; a script reading stdout can
/// tell them apart. `--quiet` leaves stderr empty.
#[test]
fn v4_bestmove_stdout_says_exact_or_heuristic_with_and_without_quiet() {
    let exact = "bestmove 5cw exact: margin +1 (win), pv 5cw pass 4cw\n";
    let (code, out, err) = giuthi(&["bestmove", TINY, "--threads", "1", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, exact);
    assert!(err.is_empty(), "{err}");
    let (code, out, err) = giuthi(&["bestmove", TINY, "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, exact);
    // A board no proof is in reach of: the move is labelled heuristic on stdout.
    let start = "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0";
    for quiet in [true, false] {
        let mut args = vec!["bestmove", start, "--movetime", "0.2", "--threads", "1"];
        if quiet {
            args.push("--quiet");
        }
        let (code, out, err) = giuthi(&args);
        assert_eq!(code, 0, "{err}");
        let words: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(out.lines().count(), 1, "{out}");
        assert_eq!(words[0], "bestmove", "{out}");
        assert_eq!(words[2], "heuristic", "{out}");
        assert!(out.contains("heuristic (not proven): eval "), "{out}");
        assert!(!out.contains("exact"), "{out}");
        assert_eq!(quiet, err.is_empty(), "{err}");
    }
    // No move: the game is over (G9), its margin exact.
    let (code, out, _) = giuthi(&["bestmove", "giuthi 1,1/1,7 S 0,0", "--quiet"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "bestmove none exact: the game is over, margin +6 (win)\n"
    );
    // A Kiothi opening (K3): the heuristic choice, labelled so.
    let (code, out, _) = giuthi(&["bestmove", KIOTHI_START, "--quiet"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("bestmove r") && out.contains(" heuristic (not proven): "),
        "{out}"
    );
}

// -------------------------------------------------------- 3. analyze on Kiothi's opening

/// Item 3: `analyze` on the Kiothi start cannot list its moves (K3: hundreds of millions of
/// redistributions, with or without `--movetime`): exit 2 with a message that says why and
/// gives the commands to go on, `bestmove` for a heuristic opening and `analyze` of the
/// play-phase position after the heuristic redistributions of both sides, which works.
#[test]
fn k3_analyze_on_the_kiothi_opening_says_why_and_how_to_go_on() {
    for args in [
        &["analyze", KIOTHI_START][..],
        &["analyze", KIOTHI_START, "--movetime", "1"],
        &["analyze", "positions/kiothi-start.txt", "--json"],
    ] {
        let (code, out, err) = giuthi(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("too many to analyse"), "{err}");
        assert!(err.contains("with or without --movetime"), "{err}");
        assert!(
            err.contains(&format!("giuthi bestmove \"{KIOTHI_START}\"")),
            "{err}"
        );
        let play = err
            .split("giuthi analyze \"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_else(|| panic!("a play-phase position: {err}"));
        assert!(play.ends_with(" play"), "{play}");
        let (code, out, err) = giuthi(&["analyze", play, "--movetime", "0.2", "--quiet"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with(&format!("position {play}\n")), "{out}");
    }
}

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
