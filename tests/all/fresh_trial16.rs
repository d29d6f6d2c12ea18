//! The fresh-user trial of session 16: each find with a test that fails without its fix
//! (the built binary, STYLE.md tests: CLI).

use crate::common::run_cli as giuthi;
use std::time::{Duration, Instant};

/// `perft` on a Kiothi board whose sowings run long laps (K11) obeys Ctrl-C within a
/// position's moves: it asked its stop flag every 4,096 positions and never inside a
/// sowing, and took 12 to 45 s to stop here.
#[test]
fn k11_perft_stops_inside_a_long_kiothi_sowing() {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_giuthi"))
        .args([
            "perft",
            "kiothi 0,0,0,0,0s,0s,15ns,5ns,5ns,5ns/0,0,0,0,0s,0s,15ns,5ns,5ns,5ns S 0,0 play",
            "--depth",
            "12",
            "--quiet",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("giuthi runs");
    assert!(crate::common::wait_for_handler(child.id(), libc::SIGINT));
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: a plain kill(2) of the child we spawned, which has not been waited for.
    #[allow(unsafe_code)]
    let r = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(r, 0);
    let asked = Instant::now();
    let out = child.wait_with_output().expect("giuthi ends");
    let took = asked.elapsed();
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("not the total"),
        "{out:?}"
    );
    // A bound far above the ~0.01 s it takes and far below the 12 s it took.
    assert!(took < Duration::from_secs(5), "stopped after {took:?}");
}

/// `solve MISSING --check` says the file is missing (it said only that --check needs a
/// file), and a folder is named as a folder.
#[test]
fn check_of_a_missing_file_or_a_folder_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("nonexistent.txt");
    let missing = missing.to_str().expect("UTF-8");
    let (code, _, err) = giuthi(&["solve", missing, "--check"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("{missing}: no such file")), "{err}");
    let folder = dir.path().to_str().expect("UTF-8");
    let (code, _, err) = giuthi(&["solve", folder, "--check"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a folder, not a file"), "{err}");
}

/// `--check` skips a Kiothi opening position without a record, as it skips every line
/// without one (it refused the file: the solver cannot take an opening, K3).
#[test]
fn k3_check_skips_an_opening_without_a_record() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/kiothi-start.txt");
    let (code, out, err) = giuthi(&["solve", file, "--check", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("the summary");
    assert_eq!(
        (&v["skipped"], &v["checked"]),
        (&2.into(), &0.into()),
        "{out}"
    );
    // Without --check the opening is still refused: it would be solved.
    let (code, _, err) = giuthi(&["solve", file]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("opening redistribution is due"), "{err}");
}

/// A check stopped in a solve (here by `--max-ply`, exit 3) still ends with its summary,
/// which says where it stopped (it ended with the solve's stopped object alone).
#[test]
fn a_stopped_check_ends_with_its_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("records.txt");
    std::fs::write(
        &file,
        "giuthi 1,0,0,0/1,3,0,0 S 0,2 | lo=+3 hi=+inf margin=+1 result=win best=5cw\n\
         giuthi 1,0,0,0/1,3,0,0 S 0,2 | margin=+1 result=win best=5cw\n",
    )
    .expect("write");
    let f = file.to_str().expect("UTF-8");
    let args = [
        "solve",
        f,
        "--check",
        "--max-ply",
        "2",
        "--threads",
        "1",
        "--retro-states",
        "0",
    ];
    let mut json = args.to_vec();
    json.push("--json");
    let (code, out, err) = giuthi(&json);
    assert_eq!(code, 3, "{out}{err}");
    let last: serde_json::Value =
        serde_json::from_str(out.lines().last().expect("a line")).expect("JSON");
    assert_eq!(last["stopped_at_line"], 1, "{out}");
    assert_eq!(last["checked"], 0, "{out}");
    let (code, out, err) = giuthi(&args);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("(stopped at line 1: the lines after it not checked)"),
        "{out}"
    );
}

/// `--retro-states` past the memory names the memory it would need, not a u64 overflow
/// capped at 18,446,744,073.7 GB.
#[test]
fn retro_states_past_the_memory_names_what_it_needs() {
    let (code, _, err) = giuthi(&[
        "solve",
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "--retro-states",
        "18446744073709551615",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--retro-states 18446744073709551615"), "{err}");
    let gb = u64::MAX as f64 * giuthi::solve::retro::BYTES_PER_STATE as f64 / 1e9;
    assert!(err.contains(&format!("{gb:.1} GB")), "{err}");
}
