//! The fresh-user trial of session 14: each find with a test that fails without its fix
//! (the built binary, STYLE.md tests: CLI).

use crate::common::run_cli as giuthi;

/// `solve FILE --json --check` says which lines were checked and how each came out (it
/// printed the bare solutions, with no mark of the check and no count), then one summary
/// object; a mismatch is `"check": "mismatch"` and exit 1.
#[test]
fn v3_solve_file_json_check_gives_each_lines_check_and_a_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("records.txt");
    std::fs::write(
        &file,
        "# two records and a bare position\n\
         giuthi 0,1,2,2,0/0,0,0,0,1 S 8,4 | lo=-inf hi=-6 margin=-2 result=loss best=pass\n\
         giuthi 1,0,0,0/1,3,0,0 S 0,2\n\
         giuthi 1,0,0,0/1,3,0,0 S 0,2 | margin=+99 result=win best=5cw\n",
    )
    .expect("write");
    let f = file.to_str().expect("UTF-8");
    let (code, out, err) = giuthi(&["solve", f, "--check", "--json", "--threads", "1"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON lines"))
        .collect();
    assert_eq!(v.len(), 3, "two checked lines and the summary: {out}");
    assert_eq!(v[0]["line"], 2);
    assert_eq!(v[0]["check"], "ok");
    assert_eq!(v[0]["position"], "giuthi 0,1,2,2,0/0,0,0,0,1 S 8,4");
    assert_eq!(v[0]["solved"], v[0]["recorded"]);
    assert_eq!(v[1]["line"], 4);
    assert_eq!(v[1]["check"], "mismatch");
    assert_eq!(v[1]["recorded"], "margin=+99 result=win best=5cw");
    assert_eq!(
        v[1]["solved"], "lo=+3 hi=+inf margin=+1 result=win best=5cw",
        "{out}"
    );
    assert_eq!(
        (
            &v[2]["solved"],
            &v[2]["checked"],
            &v[2]["mismatches"],
            &v[2]["skipped"]
        ),
        (&2.into(), &2.into(), &1.into(), &1.into()),
        "{out}"
    );
    assert!(err.contains(":4: MISMATCH"), "{err}");
}

/// `perft` stopped by SIGTERM (or Ctrl-C) says so and what it counted, exit 130 (it died
/// with the signal and printed nothing).
#[test]
fn perft_stopped_by_a_signal_says_what_it_counted() {
    for json in [false, true] {
        let mut args = vec![
            "perft",
            "giuthi 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0",
            "--depth",
            "30",
            "--quiet",
        ];
        if json {
            args.push("--json");
        }
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_giuthi"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("giuthi runs");
        assert!(crate::common::wait_for_handler(child.id(), libc::SIGTERM));
        std::thread::sleep(std::time::Duration::from_millis(300));
        // SAFETY: a plain kill(2) of the child we spawned, which has not been waited for.
        #[allow(unsafe_code)]
        let r = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        assert_eq!(r, 0);
        let out = child.wait_with_output().expect("giuthi ends");
        assert_eq!(out.status.code(), Some(130), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        if json {
            let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("JSON");
            assert_eq!(v["stopped"], "interrupted", "{v}");
            assert_eq!(v["root_moves"], 12, "{v}");
            assert!(v["divide"].as_array().expect("divide").len() < 12, "{v}");
        } else {
            assert!(
                stdout.contains("perft 30: interrupted after ")
                    && stdout.contains("of 12 root moves")
                    && stdout.contains("not the total"),
                "{stdout}"
            );
        }
    }
}

/// `tb gen --out` naming a folder that cannot be made names the option (it said only
/// `/sys/...: Operation not permitted`).
#[test]
fn tb_gen_an_unmakeable_out_folder_names_the_option() {
    let (code, _, err) = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "3",
        "--max-seeds",
        "2",
        "--out",
        "/sys/giuthi-test-out",
        "--quiet",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--out: /sys/giuthi-test-out: "), "{err}");
}

/// A checkpointed solve stopped after its margin is settled (in the best-move phase)
/// still saves its work: every stopped run's "all runs" node count is what the next run
/// resumes from (the session-15 trial: a run stopped there said "not rewritten: its
/// search was finished" and the next resumed from the run before, its work lost).
#[test]
fn v4_a_run_stopped_in_the_best_move_phase_saves_its_work() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ck = dir.path().join("ck.bin");
    let ck = ck.to_str().expect("UTF-8");
    let args = [
        "solve",
        "giuthi 3,3,3,3/3,3,3,3 S 0,0",
        "--threads",
        "1",
        "--hash",
        "8",
        "--retro-states",
        "0",
        "--checkpoint",
        ck,
        "--stop-after-tests",
        "1",
    ];
    let all_runs = |err: &str| -> u64 {
        let tail = err.split("all runs ").nth(1).expect("an all-runs line");
        tail.split(' ').next().unwrap().parse().expect("a count")
    };
    let (mut saved, mut settled_stops) = (0u64, 0);
    for run in 0..200 {
        let (code, out, err) = giuthi(&args);
        if run > 0 {
            let resumed = err
                .split("so far")
                .next()
                .and_then(|h| h.rsplit("; ").next())
                .and_then(|h| h.split(' ').next())
                .and_then(|n| n.parse::<u64>().ok())
                .expect("a resuming line");
            assert_eq!(
                resumed, saved,
                "run {run} resumed from the last save: {err}"
            );
        }
        assert!(!err.contains("not rewritten"), "run {run}: {err}");
        if code == 0 {
            assert!(settled_stops >= 1, "the best-move phase was stopped: {err}");
            assert!(out.contains("margin +2"), "{out}");
            // A rerun of the finished solve answers from the table and leaves the file.
            let bytes = std::fs::read(ck).expect("the checkpoint");
            let (code, again, err) = giuthi(&args[..args.len() - 2]);
            assert_eq!(code, 0, "{err}");
            assert!(
                err.contains("not rewritten: its search was finished"),
                "{err}"
            );
            let values = |o: &str| -> Vec<String> {
                o.lines()
                    .filter(|l| !l.starts_with("nodes"))
                    .map(str::to_string)
                    .collect()
            };
            assert_eq!(values(&again), values(&out));
            assert_eq!(std::fs::read(ck).expect("the checkpoint"), bytes);
            return;
        }
        assert_eq!(code, 130, "{err}");
        settled_stops += usize::from(out.contains("(proven)"));
        saved = all_runs(&err);
    }
    panic!("not solved in 200 runs");
}

/// A `--retro-states` whose states could never fit in memory is a usage error naming the
/// option, in solve, analyze and bestmove (the retrograde pass died allocating, exit 134).
#[test]
fn retro_states_past_the_memory_is_a_usage_error() {
    for cmd in ["solve", "analyze", "bestmove"] {
        let (code, _, err) = giuthi(&[
            cmd,
            "giuthi 3,3,3,3,3/3,3,3,3,3 S 0,0",
            "--threads",
            "1",
            "--retro-states",
            "1000000000000000",
        ]);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(
            err.contains("--retro-states 1000000000000000: ") && err.contains("memory"),
            "{cmd}: {err}"
        );
    }
}
