//! The fresh-user trial after session 7 (a clean clone, README in hand): each find with a
//! test that fails without its fix (the built binary, STYLE.md tests: CLI).

use crate::common::run_cli as giuthi;
use giuthi::fsutil::FileLock;
use std::path::Path;

/// A tiny endgame (2x3, 5 seeds on the board): its graph of 120 states is solved by the
/// retrograde pass, with `lo` and `hi` both exact (V2); the search alone proves `hi >= +3`.
const TINY: &str = "giuthi 1,0,0/1,3,0 S 0,2";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The value lines of `solve`'s text output (everything but the nodes and time line).
fn value_lines(out: &str) -> String {
    out.lines()
        .filter(|l| !l.starts_with("nodes "))
        .collect::<Vec<_>>()
        .join("\n")
}

// ------------------------------------------------------------ 1. the checkpoint's lock

/// Item 1: a second `solve --checkpoint` on a file another run holds is refused at once
/// (exit 2), naming the file; once the first run is gone the file is free again.
#[test]
fn a_second_solve_on_a_checkpoint_in_use_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.bin");
    // Another process (this test) holds the checkpoint, as a running solve does.
    let held = FileLock::try_new(&ck).unwrap();
    let (code, out, err) = giuthi(&["solve", TINY, "--checkpoint", s(&ck), "--hash", "1"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "nothing solved: {out}");
    assert!(
        err.contains("another `giuthi solve` is using this checkpoint"),
        "{err}"
    );
    assert!(err.contains(s(&ck)), "names the file: {err}");
    assert!(!ck.exists(), "nothing written");
    drop(held);
    let (code, _, err) = giuthi(&["solve", TINY, "--checkpoint", s(&ck), "--hash", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !dir.path().join("ck.bin.lock").exists(),
        "the lock file is removed"
    );
}

/// Item 1: the lock file a killed run leaves behind (unlocked) does not block the next run,
/// which removes it when done.
#[test]
fn a_dead_runs_checkpoint_lock_blocks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.bin");
    std::fs::write(dir.path().join("ck.bin.lock"), b"").unwrap();
    let (code, _, err) = giuthi(&[
        "solve",
        TINY,
        "--checkpoint",
        s(&ck),
        "--hash",
        "1",
        "--retro-states",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(ck.exists(), "{err}");
    assert!(!dir.path().join("ck.bin.lock").exists());
}

// ------------------------------------------------- 2. --checkpoint as exact as without

/// Item 2: with `--checkpoint`, a graph small enough for the retrograde pass is solved by
/// it as without (`lo` and `hi` exact, V2), and no checkpoint is written (no search).
#[test]
fn v2_checkpoint_shows_the_retrograde_pass_exact_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.bin");
    let (code, plain, _) = giuthi(&["solve", TINY, "--hash", "1"]);
    assert_eq!(code, 0);
    assert!(plain.contains("lo +3 hi +3"), "{plain}");
    let (code, with, err) = giuthi(&["solve", TINY, "--checkpoint", s(&ck), "--hash", "1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(value_lines(&with), value_lines(&plain));
    assert!(
        err.contains("not written: the retrograde pass solved"),
        "{err}"
    );
    assert!(!ck.exists());
    // JSON too: the same fields and values but the time.
    let json = |args: &[&str]| -> serde_json::Value {
        let (code, out, err) = giuthi(args);
        assert_eq!(code, 0, "{err}");
        let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    assert_eq!(
        json(&["solve", TINY, "--json", "--hash", "1"]),
        json(&[
            "solve",
            TINY,
            "--json",
            "--hash",
            "1",
            "--checkpoint",
            s(&ck)
        ])
    );
}

/// Item 2: a checkpoint whose search is finished is not rewritten by a run that resumes
/// it (nothing new to save); one that asks for more (`--bounds`) is.
#[test]
fn v3_a_finished_checkpoint_is_not_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.bin");
    let args = |extra: &[&'static str]| {
        let mut a = vec!["solve", TINY, "--hash", "1", "--retro-states", "0"];
        a.extend_from_slice(extra);
        a
    };
    let mut first = args(&["--checkpoint"]);
    first.push(s(&ck));
    let (code, out1, err) = giuthi(&first);
    assert_eq!(code, 0, "{err}");
    assert!(out1.contains("margin +1"), "{out1}");
    let bytes = std::fs::read(&ck).unwrap();
    let (code, out2, err) = giuthi(&first);
    assert_eq!(code, 0, "{err}");
    assert_eq!(value_lines(&out2), value_lines(&out1));
    assert!(
        err.contains("not rewritten: its search was finished"),
        "{err}"
    );
    assert_eq!(std::fs::read(&ck).unwrap(), bytes, "the file is unchanged");
    // --bounds needs hi exact too: the search goes on and saves it.
    let mut more = first.clone();
    more.push("--bounds");
    let (code, out3, err) = giuthi(&more);
    assert_eq!(code, 0, "{err}");
    assert!(out3.contains("lo +3 hi +3"), "{out3}");
    assert_ne!(std::fs::read(&ck).unwrap(), bytes, "{err}");
}

// ------------------------------------------------------ 3. nothing left by tb gen

/// Item 3: `tb gen` leaves nothing in its folder but the layers (no `giuthi.lock`).
#[test]
fn tb_gen_leaves_only_its_layers() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "3",
        "--max-seeds",
        "4",
        "--out",
        s(dir.path()),
        "--quiet",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let want: Vec<String> = (0..=4).map(|s| format!("giuthi-n3-s{s:03}.tb")).collect();
    assert_eq!(names, want);
}

// ------------------------------------------------------------- 4. exit codes

/// Item 4: a memory budget too small for a layer is a usage error naming `--memory`.
#[test]
fn tb_gen_memory_refusal_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "3",
        "--max-seeds",
        "4",
        "--out",
        s(&dir.path().join("t")),
        "--memory",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--memory 1:"), "{err}");
    assert!(err.contains("budget of 1 MB"), "{err}");
}

// --------------------------------------------------------- 5. negative weights

/// Item 5: `--weights` takes a list starting with a negative weight after a space (clap
/// read `-100` as an option).
#[test]
fn weights_take_a_negative_first_value_after_a_space() {
    let (code, out, err) = giuthi(&[
        "bestmove",
        TINY,
        "--movetime",
        "0.1",
        "--weights",
        "-100,50,20,10,0",
        "--exact-share",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.split_whitespace().nth(1), Some("4cw"), "{out}");
    // A malformed list still names the option.
    let (code, _, err) = giuthi(&["bestmove", TINY, "--movetime", "0.1", "--weights", "-1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--weights"), "{err}");
}

// ------------------------------------------------- 6. the file and line of an error

/// Item 6: a position of a positions file that the solver refuses is reported with the
/// file and line, before anything is solved.
#[test]
fn k3_solve_file_names_the_file_and_line_of_an_opening() {
    let (code, out, err) = giuthi(&["solve", "positions/kiothi-start.txt"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.starts_with("error: positions/kiothi-start.txt:4: kiothi "),
        "{err}"
    );
    assert!(err.contains("redistribution is due (K3)"), "{err}");
    // A later line too: the earlier ones are not solved first.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.txt");
    std::fs::write(
        &f,
        format!("{TINY}\n# a comment\nkiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1\n"),
    )
    .unwrap();
    let (code, out, err) = giuthi(&["solve", s(&f)]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains(&format!("{}:3: kiothi", f.display())), "{err}");
}

// ------------------------------------------------------ 7. --json where it was missing

fn json_of(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = giuthi(args);
    assert_eq!(code, 0, "giuthi {args:?}: {err}");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Item 7: `start --json` gives the position string (as `start` prints it) and its
/// fields (G1, R1, K1-K2).
#[test]
fn g1_start_json_gives_the_position_and_its_fields() {
    for (args, game, variant, n, s) in [
        (vec!["--pits", "5", "--seeds", "3"], "giuthi", "", 5, 3),
        (
            vec!["--pits", "5", "--seeds", "2", "--variant", "chain=one"],
            "giuthi",
            "chain=one",
            5,
            2,
        ),
        (vec!["--game", "kalah"], "kalah", "", 6, 4),
        (vec!["--game", "kiothi"], "kiothi", "", 10, 5),
    ] {
        let (code, text, _) = giuthi(&[&["start"], &args[..]].concat());
        assert_eq!(code, 0);
        let v = json_of(&[&["start", "--json"], &args[..]].concat());
        assert_eq!(v["position"], text.trim(), "{args:?}");
        assert_eq!(v["game"], game);
        assert_eq!(v["variant"], variant);
        assert_eq!(v["pits_per_row"], n);
        assert_eq!(v["seeds_per_pit"], s);
        assert_eq!(v["turn"], "S");
        let pits: Vec<u64> = v["pits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        assert_eq!(pits.len(), 2 * n);
        assert_eq!(v["seeds_on_board"], pits.iter().sum::<u64>());
        if game != "kiothi" {
            assert!(pits.iter().all(|&p| p == s as u64), "{v}");
        } else {
            assert_eq!(v["labels"][4], "5s", "{v}");
        }
        // The fields agree with `show --json` of the same position.
        let shown = json_of(&["show", "--json", text.trim()]);
        assert_eq!(shown["pits"], v["pits"]);
        assert_eq!(shown["labels"], v["labels"]);
    }
}

/// Item 7: `bench --json` gives every case's nodes (the same deterministic count as the
/// text), value and CPU seconds.
#[test]
fn v3_bench_json_gives_each_cases_nodes_and_value() {
    let (code, text, err) = giuthi(&["bench", "--only", "kalah(4,3)"]);
    assert_eq!(code, 0, "{err}");
    let v = json_of(&["bench", "--only", "kalah(4,3)", "--json"]);
    assert_eq!(v["suite"], "quick");
    let cases = v["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 1, "{v}");
    let c = &cases[0];
    assert_eq!(c["name"], "kalah(4,3)");
    assert_eq!(c["margin"], 8);
    assert_eq!(c["lo_range"], serde_json::json!([8, 8]));
    assert_eq!(c["verdict"], "ok");
    let nodes = c["nodes"].as_u64().unwrap();
    assert!(text.contains(&format!("nodes {nodes} ")), "{text} vs {v}");
    assert_eq!(v["nodes"], nodes);
    assert!(c["cpu_seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(v["wrong"], 0);
}

/// Item 7: `plot --json` says what it wrote and the points it drew; it needs `--out`
/// (the SVG would share stdout).
#[test]
fn plot_json_gives_the_file_and_the_points() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.txt");
    std::fs::write(
        &f,
        "giuthi 2,2,2,2,2/2,2,2,2,2 S 0,0 | lo=+20 hi=+inf margin=+20 result=win best=7cw,7ccw\n\
         giuthi 1,1,1,1,1/1,1,1,1,1 S 0,0 | lo=+0 hi=+inf margin=+0 result=draw best=5cw\n",
    )
    .unwrap();
    let svg = dir.path().join("m.svg");
    let v = json_of(&["plot", s(&f), "--out", s(&svg), "--json"]);
    assert_eq!(v["out"], s(&svg));
    assert_eq!(
        v["bytes"].as_u64().unwrap(),
        std::fs::metadata(&svg).unwrap().len()
    );
    assert_eq!(
        v["series"],
        serde_json::json!([{"board": "Giuthi 2x5", "points": [
            {"seeds_per_pit": 1, "margin": 0}, {"seeds_per_pit": 2, "margin": 20}]}])
    );
    let (code, _, err) = giuthi(&["plot", s(&f), "--json"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--out"), "{err}");
}

/// Item 6, every command: a POSITION read from a file that the command cannot take is
/// reported with the file and line too.
#[test]
fn k3_a_position_file_the_command_refuses_is_named_with_its_line() {
    for args in [
        vec!["analyze", "positions/kiothi-start.txt"],
        vec!["perft", "positions/kiothi-start.txt", "--depth", "1"],
        vec!["moves", "positions/kiothi-start.txt"],
    ] {
        let (code, _, err) = giuthi(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.starts_with("error: positions/kiothi-start.txt:4: kiothi "),
            "{args:?}: {err}"
        );
    }
    // Given as a string, the position has no file to name.
    let text = "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1";
    let (code, _, err) = giuthi(&["analyze", text]);
    assert_eq!(code, 2);
    assert!(err.starts_with(&format!("error: {text}: ")), "{err}");
}

/// Item 2: a corrupt or foreign checkpoint is reported even for a position the
/// retrograde pass solves (the user named the file: it is checked first).
#[test]
fn a_foreign_checkpoint_is_refused_before_the_retrograde_pass() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.bin");
    std::fs::write(&ck, "not a checkpoint\n").unwrap();
    let (code, out, err) = giuthi(&["solve", TINY, "--checkpoint", s(&ck)]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("not a giuthi checkpoint"), "{err}");
    assert_eq!(std::fs::read(&ck).unwrap(), b"not a checkpoint\n");
}

/// Session 9's trial: "1 pits a row" in the messages that refuse a row of one pit (N1,
/// G1); two or more keep the plural.
#[test]
fn n1_one_pit_a_row_is_singular() {
    for (args, want) in [
        (vec!["solve", "giuthi 1/1 S"], "1 pit a row;"),
        (vec!["start", "--pits", "1"], "1 pit a row;"),
        (vec!["start", "--pits", "17"], "17 pits a row;"),
    ] {
        let (code, _, err) = giuthi(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
