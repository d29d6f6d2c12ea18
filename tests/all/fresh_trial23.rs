//! The fresh-user trial of session 23: each find with a test that fails without its fix
//! (the built binary, STYLE.md tests: CLI).

use crate::common::run_cli as giuthi;

/// A graph over `--retro-states` leaves the solve to the search: stderr says so and how
/// to give the pass more (it said nothing, and the same command could take 30 s or stall
/// with the free memory); `--quiet` keeps stderr empty; the answer is the same (V3).
#[test]
fn v3_a_graph_over_the_retrograde_cap_is_noted_unless_quiet() {
    let pos = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    let (code, out, err) = giuthi(&["solve", pos, "--retro-states", "2", "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("margin +1"), "{out}");
    assert!(
        err.contains("note: the reachable graph has more than 2 states (--retro-states)"),
        "{err}"
    );
    assert!(err.contains("less --hash 64 MB"), "{err}");
    let (code, out, err) = giuthi(&[
        "solve",
        pos,
        "--retro-states",
        "2",
        "--threads",
        "1",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("margin +1"), "{out}");
    assert!(err.is_empty(), "{err}");
    // Within the cap: no note.
    let (code, _, err) = giuthi(&["solve", pos, "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("note:"), "{err}");
}

/// An explicit `--retro-states` is checked against the memory less the `--hash` table
/// (it was checked against all of it, so the pass and the table together could pass the
/// check and not fit): a cap that alone fits in half the memory available is refused
/// beside a 16 GB table, and the error names both options.
#[test]
fn retro_states_and_hash_together_past_the_memory_are_a_usage_error() {
    let Some(avail) = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .map(|kb| kb * 1024)
    }) else {
        eprintln!("skipped: no MemAvailable in /proc/meminfo");
        return;
    };
    let table = giuthi::solve::tt::Table::bytes_for_mb(16384);
    if avail / 2 + table <= avail {
        eprintln!("skipped: {avail} bytes available hold half of them and a 16 GB table");
        return;
    }
    let states = (avail / 2 / giuthi::solve::retro::BYTES_PER_STATE).to_string();
    let pos = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    let (code, _, err) = giuthi(&["solve", pos, "--retro-states", &states, "--hash", "16384"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("--retro-states {states}")), "{err}");
    assert!(err.contains("GB of --hash"), "{err}");
}
