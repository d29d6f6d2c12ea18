//! The built binary: `giuthi tb gen|probe|stats|verify` on a small board.

use std::path::Path;
use std::process::{Command, Output};

fn giuthi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_giuthi"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn gen(dir: &Path, extra: &[&str]) -> Output {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "tb",
        "gen",
        "--pits",
        "4",
        "--max-seeds",
        "6",
        "--out",
        d,
        "--threads",
        "2",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    giuthi(&args)
}

#[test]
fn tb_gen_then_rerun_keeps_layers() {
    let dir = tempfile::tempdir().unwrap();
    let o = gen(dir.path(), &[]);
    assert!(o.status.success(), "{o:?}");
    let out = stdout(&o);
    assert_eq!(out.lines().filter(|l| l.starts_with("layer")).count(), 7);
    assert!(out.contains("layer   6:         1716 positions"), "{out}");
    let o = gen(dir.path(), &[]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).matches("kept (checksum ok)").count(), 7);
}

#[test]
fn tb_probe_json_has_the_fields_of_solve_json() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let o = giuthi(&[
        "tb",
        "probe",
        dir.path().to_str().unwrap(),
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "--json",
    ]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "best_moves",
            "hi",
            "hi_range",
            "lo",
            "lo_range",
            "margin",
            "moves",
            "nodes",
            "position",
            "pv",
            "result",
            "seconds"
        ]
    );
    assert_eq!(v["position"], "giuthi 1,0,0,0/1,3,0,0 S 0,2");
    assert_eq!(v["lo"], 3);
    assert_eq!(v["lo_range"], serde_json::json!([3, 3]));
    assert_eq!(v["hi_range"], serde_json::json!(["+inf", "+inf"]));
    // Issue 16, item 4: an infinity is "+inf", no longer null (which also meant unknown).
    assert_eq!(v["hi"], "+inf");
    assert_eq!(v["margin"], 1);
    assert_eq!(v["result"], "win");
    assert_eq!(v["best_moves"], serde_json::json!(["5cw"]));
    assert_eq!(v["pv"][0], "5cw");
}

#[test]
fn tb_probe_text_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let d = dir.path().to_str().unwrap();
    let o = giuthi(&["tb", "probe", d, "giuthi 0,0,2,0/0,1,0,0 N 0,0"]);
    assert!(o.status.success(), "{o:?}");
    assert!(stdout(&o).contains("margin"));
    // A layer beyond the tables: a usage error (exit 2, as a position of another board
    // below), naming the folder and the layers it holds.
    let o = giuthi(&["tb", "probe", d, "giuthi 4,0,0,0/0,0,0,4 S 0,0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds layers 0 to 6 only"));
    // Another board size: no tables at all for it, a usage error as with `solve --tb`
    // and `tb stats` on a folder without tables (exit 2), naming the file looked for.
    let o = giuthi(&["tb", "probe", d, "giuthi 0,1,0/0,1,0 S 0,0"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no tables for the position's game, variant and board"));
    assert!(err.contains("giuthi-n3-s000.tb"), "{err}");
    // A malformed position: usage error.
    let o = giuthi(&["tb", "probe", d, "giuthi 1,2/3 S"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn tb_stats_counts_every_position() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let o = giuthi(&["tb", "stats", dir.path().to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let layers = v[0]["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 7);
    for l in layers {
        let n = l["positions"].as_u64().unwrap();
        let sum = l["wins"].as_u64().unwrap()
            + l["draws"].as_u64().unwrap()
            + l["losses"].as_u64().unwrap();
        assert_eq!(n, sum);
        assert_eq!(l["bytes"].as_u64().unwrap(), 64 + 2 * n);
    }
    assert_eq!(layers[6]["positions"], 1716);
    let o = giuthi(&["tb", "stats", dir.path().to_str().unwrap()]);
    assert!(stdout(&o).contains("giuthi-n4:"));
}

#[test]
fn tb_verify_passes_then_fails_on_a_corrupt_file() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let d = dir.path().to_str().unwrap();
    let o = giuthi(&["tb", "verify", d, "--all"]);
    assert!(o.status.success(), "{o:?}");
    assert!(stdout(&o).contains("verify: ok"));
    let path = dir.path().join("giuthi-n4-s005.tb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let o = giuthi(&["tb", "verify", d]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("checksum mismatch"), "{out}");
    assert!(out.contains("giuthi-n4-s005.tb"), "{out}");
}

/// Options that do nothing for the game asked for are refused, naming the option, before
/// any file is made: `--no-mirror` for Kalah (no mirror symmetry), `--fixpoint` for Giuthi
/// (always the fixpoint sweeps).
#[test]
fn tb_gen_refuses_options_the_game_ignores() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let d = out.to_str().unwrap();
    for (game, flag) in [("kalah", "--no-mirror"), ("giuthi", "--fixpoint")] {
        let o = giuthi(&[
            "tb",
            "gen",
            "--game",
            game,
            "--pits",
            "3",
            "--max-seeds",
            "3",
            "--out",
            d,
            flag,
        ]);
        assert_eq!(o.status.code(), Some(2), "{game} {flag}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("error: {flag}:")), "{err}");
        assert!(!out.exists(), "{game} {flag}: {d} was made");
    }
}

#[test]
fn tb_gen_usage_errors_and_memory_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let o = giuthi(&[
        "tb",
        "gen",
        "--game",
        "chess",
        "--pits",
        "4",
        "--max-seeds",
        "3",
        "--out",
        d,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "4",
        "--max-seeds",
        "3",
        "--out",
        d,
        "--variant",
        "chain=some",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "6",
        "--max-seeds",
        "30",
        "--out",
        d,
        "--memory",
        "100",
    ]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--memory 100:")
            && err.contains("needs up to")
            && err.contains("budget of 100 MB"),
        "{err}"
    );
}

/// Makes the Kalah tables of `pits` pits a row up to `max_seeds` in `dir`.
fn gen_kalah(dir: &str, pits: &str, max_seeds: &str) {
    let o = giuthi(&[
        "tb",
        "gen",
        "--game",
        "kalah",
        "--pits",
        pits,
        "--max-seeds",
        max_seeds,
        "--out",
        dir,
        "--quiet",
    ]);
    assert!(o.status.success(), "{o:?}");
}

#[test]
fn tb_kalah_gen_and_probe() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    gen_kalah(d, "3", "6");
    let o = giuthi(&["tb", "probe", d, "kalah 1,1,1/1,1,1 S 0,0", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(v["margin"].is_i64());
}

/// A missing middle layer strands the layers above it: `verify` says so and fails.
#[test]
fn a_missing_middle_layer_is_refused_not_skipped() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    std::fs::remove_file(dir.path().join("giuthi-n4-s003.tb")).unwrap();
    let d = dir.path().to_str().unwrap();
    let out = giuthi(&["tb", "verify", d]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("layer 3 is missing, so layers 4 to 6 cannot be used"),
        "{}",
        stdout(&out)
    );
    // `tb stats`, `tb probe` and `solve --tb` refuse the gap too, rather than use layers
    // 0..=2 without a word (a fresh-user find).
    let out = giuthi(&["tb", "stats", d]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stderr(&out).contains("layer 3 is missing, so layers 4 to 6 cannot be used"));
    for err in probe_and_solve_errors(d) {
        assert!(err.contains("layer 3 is missing"), "{err}");
        assert!(err.contains("layers 4 to 6 cannot be used"), "{err}");
        assert!(err.contains("giuthi-n4-s003.tb"), "{err}");
    }
}

/// The messages of `tb probe` and `solve --tb` on the tables in `d`, each of which must
/// fail with exit code 1.
fn probe_and_solve_errors(d: &str) -> Vec<String> {
    let pos = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    [
        &["tb", "probe", d, pos][..],
        &["solve", pos, "--tb", d, "--threads", "1"][..],
    ]
    .iter()
    .map(|args| {
        let out = giuthi(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        stderr(&out)
    })
    .collect()
}

/// A folder where a layer file belongs is named as such (it used to give "No such
/// device (os error 19)" from the mapping: a fresh-user find, sessions 16 and 18).
#[test]
fn a_folder_in_place_of_a_layer_is_named() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let layer = dir.path().join("giuthi-n4-s006.tb");
    std::fs::remove_file(&layer).unwrap();
    std::fs::create_dir(&layer).unwrap();
    let d = dir.path().to_str().unwrap();
    let mut errs = probe_and_solve_errors(d);
    // `tb stats` and `tb verify` say the same, once (they read the folder's headers
    // themselves: "Is a directory (os error 21)" and a second message before).
    for cmd in ["stats", "verify"] {
        let out = giuthi(&["tb", cmd, d]);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {out:?}");
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(all.matches("giuthi-n4-s006.tb").count(), 1, "{cmd}: {all}");
        errs.push(all);
    }
    for err in errs {
        assert!(err.contains("giuthi-n4-s006.tb"), "{err}");
        assert!(err.contains("not a regular file"), "{err}");
        assert!(!err.contains("os error"), "{err}");
    }
}

/// A layer file cut inside its header says it expected at least the header, not "expected
/// 64" as if the whole file were that size (a fresh-user find, session 19).
#[test]
fn a_layer_cut_inside_its_header_names_the_header() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let layer = dir.path().join("giuthi-n4-s005.tb");
    let bytes = std::fs::read(&layer).unwrap();
    std::fs::write(&layer, &bytes[..10]).unwrap();
    for err in probe_and_solve_errors(dir.path().to_str().unwrap()) {
        assert!(err.contains("giuthi-n4-s005.tb"), "{err}");
        assert!(
            err.contains("10 bytes, expected at least 64 (the header)"),
            "{err}"
        );
    }
}

/// Layer 0 missing where later layers are present is a gap like a missing middle layer
/// (exit 1, the layers it strands named), not "no tables" (a usage error): a fresh-user
/// find, session 19.
#[test]
fn a_missing_layer_zero_is_a_gap() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    std::fs::remove_file(dir.path().join("giuthi-n4-s000.tb")).unwrap();
    for err in probe_and_solve_errors(dir.path().to_str().unwrap()) {
        assert!(err.contains("layer 0 is missing"), "{err}");
        assert!(err.contains("layers 1 to 6 cannot be used"), "{err}");
        assert!(!err.contains("no tables"), "{err}");
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A usage error: exit 2, a message, no panic; returns stderr.
fn usage_error(args: &[&str]) -> String {
    let o = giuthi(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "giuthi {args:?}: {o:?}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.trim().is_empty());
    err
}

/// V4: `--v4-limit 0` used to skip the check and list `5ccw` (a return to the root) as
/// best; 0 is now a usage error, and the default limit gives `5cw` only.
#[test]
fn v4_probe_limit_zero_is_a_usage_error_and_never_skips_the_check() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let d = dir.path().to_str().unwrap();
    let pos = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    let err = usage_error(&["tb", "probe", d, pos, "--v4-limit", "0"]);
    assert!(err.contains("--v4-limit"), "{err}");
    for limit in ["1", "5000000"] {
        let o = giuthi(&["tb", "probe", d, pos, "--v4-limit", limit]);
        let out = stdout(&o);
        if o.status.success() {
            assert!(out.contains("best     5cw\n"), "{out}");
            let line = out.lines().find(|l| l.contains("move 5ccw")).unwrap();
            assert!(line.ends_with(" +0"), "{out}");
        } else {
            // Too small a limit is an error naming the option, never a skipped check.
            assert_eq!(o.status.code(), Some(1), "{o:?}");
            assert!(stderr(&o).contains("raise --v4-limit"), "{o:?}");
        }
    }
    let o = giuthi(&["tb", "probe", d, pos]);
    assert!(stdout(&o).contains("best     5cw\n"), "{o:?}");
}

#[test]
fn tb_gen_threads_has_the_range_of_solve() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for t in ["0", "257", "100000"] {
        let err = usage_error(&[
            "tb",
            "gen",
            "--pits",
            "4",
            "--max-seeds",
            "2",
            "--out",
            d,
            "--threads",
            t,
        ]);
        assert!(
            err.contains("--threads") && err.contains("1..=256"),
            "{err}"
        );
    }
}

/// `tb stats` and `tb verify` on an empty, missing or non-folder DIR, and `tb probe` on a
/// missing or non-folder DIR: usage errors, as `--tb` gives.
#[test]
fn tb_stats_and_verify_without_tables_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain.txt");
    std::fs::write(&file, "not a folder").unwrap();
    let f = file.to_str().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    for cmd in ["stats", "verify"] {
        let err = usage_error(&["tb", cmd, empty.to_str().unwrap()]);
        assert!(err.contains("no tablebase files"), "{err}");
        let err = usage_error(&["tb", cmd, "/nonexistent/giuthi-tb"]);
        assert!(
            err.contains("/nonexistent/giuthi-tb: no such folder"),
            "{err}"
        );
        let err = usage_error(&["tb", cmd, f]);
        assert!(err.contains(&format!("{f}: not a folder")), "{err}");
    }
    // `tb probe` names a missing or non-folder DIR the same way, before the position.
    let pos = "giuthi 1,0,0,0,0/1,3,0,0,0 S 0,2";
    let err = usage_error(&["tb", "probe", "/nonexistent/giuthi-tb", pos]);
    assert!(
        err.contains("/nonexistent/giuthi-tb: no such folder"),
        "{err}"
    );
    let err = usage_error(&["tb", "probe", f, pos]);
    assert!(err.contains(&format!("{f}: not a folder")), "{err}");
    // `tb gen --out` on a file.
    let err = usage_error(&["tb", "gen", "--pits", "3", "--max-seeds", "2", "--out", f]);
    assert!(err.contains(&format!("--out {f}: not a folder")), "{err}");
}

/// A layer beyond what the entries encode is refused before any work, naming the
/// option and the largest accepted value.
#[test]
fn tb_gen_max_seeds_too_large_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let err = usage_error(&[
        "tb",
        "gen",
        "--pits",
        "4",
        "--max-seeds",
        "127",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("--max-seeds") && err.contains("126"), "{err}");
    assert!(!out.exists(), "nothing is made");
}

/// OS errors are printed once, and a bad file of a group once (not again for its group).
#[test]
fn tb_errors_are_printed_once() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let d = dir.path().to_str().unwrap();
    let path = dir.path().join("giuthi-n4-s002.tb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[..4].copy_from_slice(b"XXXX");
    std::fs::write(&path, &bytes).unwrap();
    let o = giuthi(&["tb", "stats", d]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert_eq!(stderr(&o).matches("bad magic").count(), 1, "{o:?}");
    let o = giuthi(&["tb", "verify", d]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert_eq!(stdout(&o).matches("bad magic").count(), 1, "{o:?}");

    let file = dir.path().join("plain.txt");
    std::fs::write(&file, "x").unwrap();
    let f = file.to_str().unwrap();
    let o = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "3",
        "--max-seeds",
        "2",
        "--out",
        f,
        "--quiet",
    ]);
    // A usage error now (it used to be the I/O error of creating the folder), printed once.
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = stderr(&o);
    assert_eq!(err.matches("not a folder").count(), 1, "{err}");

    let o = giuthi(&["solve", "giuthi 1,0,0,0/1,3,0,0 S 0,2", "--checkpoint", d]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is a folder, not a file"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    // --tb on a file: "not a folder", on nothing: "no such folder".
    let err = usage_error(&["solve", "giuthi 1,0,0,0/1,3,0,0 S 0,2", "--tb", f]);
    assert!(err.contains(&format!("--tb {f}: not a folder")), "{err}");
    let err = usage_error(&[
        "solve",
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "--tb",
        "/nonexistent/x",
    ]);
    assert!(err.contains("--tb /nonexistent/x: no such folder"), "{err}");
}

/// A file of positions with `--tb`: the tables serve the positions of their board, the
/// others (another board, another game) are solved without them, with a note; every
/// value matches the solve without `--tb`.
#[test]
fn solve_file_with_tb_uses_tables_where_they_exist() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let file = dir.path().join("mixed.txt");
    std::fs::write(
        &file,
        "# 2x4 (tables), 2x5 twice and Kalah 2x4 (none: one note each, not each line)\n\
         giuthi 1,0,0,0/1,3,0,0 S 0,2\n\
         giuthi 0,2,0,0,1/1,0,3,0,0 S 1,1\n\
         kalah 1,0,2,0/0,1,1,0 S 0,0\n\
         giuthi 0,1,0,0,1/1,0,2,0,0 S 1,1\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let d = dir.path().to_str().unwrap();
    let with = giuthi(&["solve", f, "--tb", d, "--threads", "1", "--json"]);
    assert!(with.status.success(), "{with:?}");
    let err = String::from_utf8_lossy(&with.stderr);
    assert_eq!(err.matches("has no tables for").count(), 2, "{err}");
    assert!(err.contains("has no tables for giuthi 0,2,0,0,1/1,0,3,0,0 S 1,1"));
    assert!(err.contains("has no tables for kalah 1,0,2,0/0,1,1,0 S 0,0"));
    let without = giuthi(&["solve", f, "--threads", "1", "--json"]);
    assert!(without.status.success(), "{without:?}");
    let fields = |o: &Output| -> Vec<(String, String, String)> {
        stdout(o)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["lo"].to_string(),
                    v["hi"].to_string(),
                    v["best_moves"].to_string(),
                )
            })
            .collect()
    };
    assert_eq!(fields(&with).len(), 4);
    assert_eq!(fields(&with), fields(&without));
    // A broken table folder is still an error, not a reason to go without.
    let o = giuthi(&["solve", f, "--tb", "/nonexistent/giuthi-tb"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

/// A malformed line anywhere in a file is reported, with its line number, before any
/// position is solved.
#[test]
fn solve_file_reports_a_malformed_line_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.txt");
    std::fs::write(
        &file,
        "giuthi 1,0,0,0/1,3,0,0 S 0,2\ngiuthi 1,1,x/1,1,1 S 0,0\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let o = giuthi(&["solve", f, "--threads", "1"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(stderr(&o).contains(&format!("{f}:2: ")), "{o:?}");
    assert!(stdout(&o).is_empty(), "nothing solved first: {o:?}");
}

/// `tb gen` stopped in a layer's sweeps (as Ctrl-C would) exits 130, names the saved
/// `.partial` file and the command that resumes; the same command then finishes, with
/// the entries of an uninterrupted run.
#[test]
fn tb_gen_stopped_saves_the_layer_and_the_same_command_resumes() {
    let straight = tempfile::tempdir().unwrap();
    assert!(gen(straight.path(), &[]).status.success());
    let dir = tempfile::tempdir().unwrap();
    let o = gen(dir.path(), &["--stop-after-sweeps", "1"]);
    assert_eq!(o.status.code(), Some(130), "{o:?}");
    let err = stderr(&o);
    let partial = dir.path().join("giuthi-n4-s002.partial");
    assert!(
        err.contains(&format!(
            "layer 2 interrupted after 1 sweeps; its progress is saved in {}",
            partial.display()
        )),
        "{err}"
    );
    assert!(err.contains("the same command resumes it"), "{err}");
    assert!(partial.exists());
    // A second interrupted run resumes from the file and says so (text).
    let copy = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(dir.path()).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), copy.path().join(e.file_name())).unwrap();
    }
    let o = gen(dir.path(), &[]);
    assert!(o.status.success(), "{o:?}");
    assert!(!partial.exists());
    let out = stdout(&o);
    let resumed: Vec<&str> = out.lines().filter(|l| l.contains("resumed")).collect();
    assert_eq!(resumed.len(), 1, "{out}");
    assert!(
        resumed[0].contains(".partial file saved after sweep 1"),
        "{out}"
    );
    // ... and in JSON: only layer 2 resumed, after sweep 1.
    let o = gen(copy.path(), &["--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let layers = v["layers"].as_array().expect("layers");
    for l in layers {
        let want = if l["seeds"] == 2 {
            serde_json::json!(1)
        } else {
            serde_json::Value::Null
        };
        assert_eq!(l["resumed_after_sweep"], want, "{l}");
    }
    for s in 0..=6 {
        let name = format!("giuthi-n4-s{s:03}.tb");
        let a = std::fs::read(straight.path().join(&name)).unwrap();
        let b = std::fs::read(dir.path().join(&name)).unwrap();
        assert_eq!(a[64..], b[64..], "{name}");
    }
}

/// The principal variation of `tb probe` replays to the margin it reports: following
/// table values alone led this position round a cycle into a draw by repetition (G10)
/// while the margin is +4 for North (found by a fresh-user test); the line is now the
/// solver's, played with the path as history.
#[test]
fn g10_tb_probe_pv_replays_to_the_margin() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let o = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "5",
        "--max-seeds",
        "7",
        "--out",
        d,
        "--quiet",
    ]);
    assert!(o.status.success(), "{o:?}");
    let pos = "giuthi 1,0,1,2,1/0,1,0,0,1 N 1,0";
    let o = giuthi(&["tb", "probe", d, pos, "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["margin"], 4);
    let pv: Vec<String> = v["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let mut args = vec!["play", pos];
    args.extend(pv.iter().map(String::as_str));
    let o = giuthi(&args);
    assert!(o.status.success(), "{o:?}");
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(all.contains("North wins by 4"), "pv {pv:?}: {all}");
    assert!(!all.contains("repetition"), "{all}");
}

/// `solve FILE --tb`: every table set the file needs is opened and checked before the
/// first line is solved, so a corrupt table of a later line's board stops the run at
/// once (a fresh-user find: the first line used to be solved first).
#[test]
fn solve_file_with_tb_checks_every_table_set_first() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    assert!(gen(dir.path(), &["--game", "kalah"]).status.success());
    let bad = dir.path().join("kalah-n4-s005.tb");
    let mut bytes = std::fs::read(&bad).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&bad, &bytes).unwrap();
    let file = dir.path().join("two.txt");
    std::fs::write(
        &file,
        "giuthi 1,0,0,0/1,3,0,0 S 0,2\nkalah 1,0,2,0/0,1,1,0 S 0,0\n",
    )
    .unwrap();
    let d = dir.path().to_str().unwrap();
    let o = giuthi(&["solve", file.to_str().unwrap(), "--tb", d, "--threads", "1"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        stderr(&o).contains("kalah-n4-s005.tb: checksum mismatch"),
        "{o:?}"
    );
    assert!(stdout(&o).is_empty(), "nothing solved first: {o:?}");
}

/// One position with `--tb` naming a folder without tables for its board: a usage error
/// that names the file looked for.
#[test]
fn solve_one_position_with_tables_of_another_board_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let d = dir.path().to_str().unwrap();
    let err = usage_error(&["solve", "giuthi 0,0,1,2,0/1,0,1,0,1 N 5,5", "--tb", d]);
    assert!(
        err.contains("no tables for the position's game, variant and board"),
        "{err}"
    );
    assert!(err.contains("giuthi-n5-s000.tb"), "{err}");
}

/// A run killed between writing a layer and deleting its `.partial` (the window that
/// `tests/mpi_gen.rs`'s killed-rank test once hit) leaves the saved progress of a finished
/// layer; the next run keeps the layer and removes the stale `.partial`, so nothing
/// is left in the folder that one uninterrupted run would not have written.
#[test]
fn rerun_removes_the_partial_of_a_finished_layer() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let gen = [
        "tb",
        "gen",
        "--pits",
        "3",
        "--max-seeds",
        "6",
        "--threads",
        "1",
        "--quiet",
        "--out",
        d,
    ];
    assert!(giuthi(&gen).status.success());
    let layer = dir.path().join("giuthi-n3-s005.tb");
    let before = std::fs::read(&layer).unwrap();
    let partial = dir.path().join("giuthi-n3-s005.partial");
    std::fs::copy(&layer, &partial).unwrap();
    let o = giuthi(&gen);
    assert!(o.status.success(), "{o:?}");
    assert!(!partial.exists(), "the finished layer's .partial is left");
    assert_eq!(
        std::fs::read(&layer).unwrap(),
        before,
        "the layer is kept as it was"
    );
}

/// `tb gen` names the option of a game it has no tables for, and of a variant on a game
/// without variants (the fresh-user trial of session 10), before any file is made.
#[test]
fn tb_gen_unknown_game_and_kalah_variant_name_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let base = ["tb", "gen", "--pits", "4", "--max-seeds", "4", "--out", out];
    let err = usage_error(&[&base[..], &["--game", "chess"]].concat());
    assert!(
        err.contains("--game") && err.contains("\"chess\"") && err.contains("kalah"),
        "{err}"
    );
    let err = usage_error(&[&base[..], &["--game", "kalah", "--variant", "x=1"]].concat());
    assert!(err.contains("--variant") && err.contains("kalah"), "{err}");
    assert!(!dir.path().join("out").exists());
}

/// Starts `giuthi tb gen` on 2x5 up to `max_seeds` seeds into `dir` (SIGHUP ignored, as
/// `nohup` leaves it, when `nohup`; else SIGHUP's default), sends SIGHUP once the first layer is written (the
/// handlers are installed by then), and returns the exit status.
#[allow(unsafe_code)]
fn gen_and_hang_up(dir: &Path, max_seeds: &str, nohup: bool) -> std::process::ExitStatus {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_giuthi"));
    cmd.args(["tb", "gen", "--pits", "5", "--max-seeds", max_seeds])
        .args(["--out", dir.to_str().unwrap(), "--threads", "1", "--quiet"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // Set either way: the test itself may run under `nohup` (SIGHUP inherited ignored).
    let disposition = if nohup { libc::SIG_IGN } else { libc::SIG_DFL };
    // SAFETY: between fork and exec only `signal`, which is async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGHUP, disposition);
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("the binary runs");
    let first = dir.join("giuthi-n5-s000.tb");
    let t = std::time::Instant::now();
    while !first.exists() && child.try_wait().unwrap().is_none() {
        assert!(t.elapsed().as_secs() < 60, "no layer written in 60 s");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: kill(2) on our own child's pid, not yet waited for.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGHUP);
    }
    child.wait().unwrap()
}

/// A generation started under `nohup` (SIGHUP ignored) goes on when its terminal hangs up
/// and finishes every layer; without `nohup`, SIGHUP stops it like Ctrl-C (exit 130, the
/// layer in progress saved). Before session 14 the Ctrl-C handler took SIGHUP over even
/// under `nohup`, so a background run stopped when the shell that started it exited.
#[test]
fn tb_gen_under_nohup_survives_a_hang_up_and_stops_on_one_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let status = gen_and_hang_up(dir.path(), "16", true);
    assert_eq!(status.code(), Some(0), "{status:?}");
    for s in 0..=16 {
        let f = dir.path().join(format!("giuthi-n5-s{s:03}.tb"));
        assert!(f.exists(), "{} missing", f.display());
    }
    let dir = tempfile::tempdir().unwrap();
    let status = gen_and_hang_up(dir.path(), "16", false);
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert!(!dir.path().join("giuthi-n5-s016.tb").exists());
}

/// `solve --tb DIR --tb-memory` (the tables copied onto huge pages, then the peek at the
/// children they cover) gives the solution of the mapped tables and of no tables at all
/// (RULES.md V3, R1-R4), for a Kalah position above the tables; `--tb-memory` without
/// `--tb` is a usage error that names it.
#[test]
fn r4_solve_with_tables_in_memory_equals_mapped_and_no_tables() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    gen_kalah(d, "4", "8");
    let pos = "kalah 2,3,1,2/3,0,2,1 S 3,4";
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", pos, "--json", "--threads", "1", "--analyze"];
        args.extend_from_slice(extra);
        let o = giuthi(&args);
        assert!(o.status.success(), "{o:?}");
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        (
            v["margin"].clone(),
            v["best_moves"].clone(),
            v["moves"].clone(),
        )
    };
    let plain = solve(&["--retro-states", "0"]);
    assert!(plain.0.is_i64(), "{plain:?}");
    let memory = solve(&["--tb", d, "--tb-memory", "--retro-states", "0"]);
    let mapped = solve(&["--tb", d, "--retro-states", "0"]);
    assert_eq!(memory, plain);
    assert_eq!(mapped, plain);
    let err = usage_error(&["solve", pos, "--tb-memory"]);
    assert!(err.contains("--tb-memory") && err.contains("--tb"), "{err}");
}

/// `--tb-memory` with `--movetime` (analyze, bestmove): the tables stay mapped, and a note
/// says so (it used to be dropped without a word: left alone in session 18).
#[test]
fn tb_memory_with_movetime_is_ignored_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    assert!(gen(dir.path(), &[]).status.success());
    let d = dir.path().to_str().unwrap();
    let pos = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    for cmd in ["bestmove", "analyze"] {
        let args = [cmd, pos, "--tb", d, "--threads", "1", "--quiet"];
        let mut timed = args.to_vec();
        timed.extend_from_slice(&["--movetime", "0.5", "--tb-memory"]);
        let out = giuthi(&timed);
        assert!(out.status.success(), "{out:?}");
        let err = stderr(&out);
        assert!(
            err.contains("--tb-memory is ignored with --movetime"),
            "{cmd}: {err}"
        );
        let mut untimed = args.to_vec();
        untimed.push("--tb-memory");
        let out = giuthi(&untimed);
        assert!(out.status.success(), "{out:?}");
        assert!(!stderr(&out).contains("ignored"), "{cmd}: {}", stderr(&out));
    }
}
