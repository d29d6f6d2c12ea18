//! The fresh-user trial before session 9 (a clean clone, README in hand): each find with a
//! test that fails without its fix (the built binary, STYLE.md tests: CLI).

use crate::common::run_cli as giuthi;
use giuthi::rules::giuthi::Giuthi;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::solve::retro::{
    race_budget, solve_position, solve_position_racing, RetroError, RACE_STATES,
};
use giuthi::value::Score;
use giuthi::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

// ------------------------------------------------- 1. the race of the retrograde pass

/// The trial's position: its graph has more than a million states (a bound of 3.9 M), the
/// search needs 6,699 nodes.
const MEDIUM: &str = "giuthi 1,1,3,1,2/1,1,1,1,1 N 5,6";

fn one_thread() -> SolverOptions {
    SolverOptions {
        threads: 1,
        hash_mb: 16,
        ..SolverOptions::default()
    }
}

/// Item 1 (issue 12 part 3): the pass raced against a budgeted search gives way at its
/// first checkpoint (16,384 states, not the million of the cap) on a graph the search
/// settles in a few thousand nodes, and the search's answer is the unbudgeted search's.
#[test]
fn v3_the_pass_gives_way_to_a_quick_search_at_a_checkpoint() {
    let pos: Position<Giuthi> = MEDIUM.parse().unwrap();
    let mut checkpoints = Vec::new();
    let mut slot = Some(Solver::new(pos.rules.clone(), one_thread()));
    let mut won = None;
    let mut race = |states: usize| {
        checkpoints.push(states);
        let s = slot
            .take()
            .unwrap()
            .with_stop(Arc::new(AtomicBool::new(false)))
            .stop_after_nodes(race_budget(states));
        won = s.solve(&pos).ok();
        slot = Some(s);
        won.is_some()
    };
    let r = solve_position_racing(&pos, 1 << 20, &|| false, &mut race);
    assert!(matches!(r, Err(RetroError::Raced)), "{:?}", r.err());
    // The budget is checked every 4,096 nodes: 6,699 nodes fit the first checkpoint's.
    assert_eq!(checkpoints, [RACE_STATES]);
    let won = won.expect("the search finished");
    let plain = Solver::new(pos.rules.clone(), one_thread())
        .solve(&pos)
        .unwrap();
    assert_eq!(
        (won.margin, &won.best_moves),
        (plain.margin, &plain.best_moves)
    );
    assert_eq!(won.margin, 14);
    // A race that never says "finished" leaves the pass to the cap, as before.
    let r = solve_position_racing(&pos, 1 << 16, &|| false, &mut |_| false);
    let too_large = matches!(
        r,
        Err(RetroError::TooLarge { .. } | RetroError::TooLargeEarly { .. })
    );
    assert!(too_large, "{:?}", r.err());
}

/// The `(lo, hi)` of a `solve --json` answer as proven ranges (`[min, max]`).
fn json_ranges(v: &serde_json::Value) -> [(Score, Score); 2] {
    let score = |x: &serde_json::Value| match x.as_str() {
        Some("-inf") => giuthi::value::NEG_INF,
        Some("+inf") => giuthi::value::POS_INF,
        _ => x.as_i64().expect("a number") as Score,
    };
    let r = |k: &str| (score(&v[k][0]), score(&v[k][1]));
    [r("lo_range"), r("hi_range")]
}

/// Item 1: graphs of 16k to 1M states that the search settles within the race's budget
/// (random endgames of examples/retro_endgames.rs) are answered by the search now: the
/// same margin, result and best moves as the retrograde pass alone (no race), and proven
/// ranges of lo and hi that hold the pass's exact ones.
#[test]
fn v2_v4_the_race_answers_as_the_pass_alone() {
    for text in [
        "giuthi:chain=one,origin=skip 2,0,1,0,1/0,2,1,1,1 N 0,0",
        "giuthi:chain=one,end=empty-row 0,0,2,1,1/2,1,2,0,0 N 0,0",
        "giuthi:chain=one 2,0,1,2/0,2,4,0 N 0,0",
        "giuthi 1,3,3,2/1,0,0,2 S 0,0",
    ] {
        let pos: Position<Giuthi> = text.parse().unwrap();
        let (pass, _) = solve_position(&pos, 1 << 20).unwrap();
        assert!(pass.nodes > RACE_STATES as u64, "{text}: a small graph");
        let (code, out, err) = giuthi(&["solve", text, "--threads", "1", "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["margin"], pass.margin, "{text}: {out}");
        assert_eq!(v["result"], pass.result.to_string(), "{text}: {out}");
        let mut best: Vec<String> = v["best_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let mut want: Vec<String> = pass.best_moves.iter().map(|m| m.to_string()).collect();
        best.sort();
        want.sort();
        assert_eq!(best, want, "{text}");
        // The search answered (its nodes, far fewer than the graph's states).
        assert!(v["nodes"].as_u64().unwrap() < pass.nodes, "{text}: {out}");
        let exact = pass.bounds().unwrap();
        let [lo, hi] = json_ranges(&v);
        assert!(lo.0 <= exact.lo && exact.lo <= lo.1, "{text}: {out}");
        assert!(hi.0 <= exact.hi && exact.hi <= hi.1, "{text}: {out}");
    }
}

// ----------------------------------------------------- 2. solve FILE exits 1 on a mismatch

/// Item 2: a recorded solution that the solve contradicts exits 1 with or without
/// `--check` (a MISMATCH line on stderr); a matching one exits 0 both ways; `--check`
/// prints `ok` instead of the solution.
#[test]
fn a_recorded_mismatch_exits_1_with_or_without_check() {
    let dir = tempfile::tempdir().unwrap();
    let right = dir.path().join("right.txt");
    let wrong = dir.path().join("wrong.txt");
    let pos = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    std::fs::write(&right, format!("{pos} | margin=+1 result=win best=5cw\n")).unwrap();
    std::fs::write(
        &wrong,
        format!("# one wrong record\n{pos} | margin=+99 result=win best=5cw\n"),
    )
    .unwrap();
    for check in [false, true] {
        let run = |f: &std::path::Path| {
            let mut args = vec!["solve", f.to_str().unwrap(), "--threads", "1", "--quiet"];
            if check {
                args.push("--check");
            }
            giuthi(&args)
        };
        let (code, out, err) = run(&right);
        assert_eq!(code, 0, "--check {check}: {out}{err}");
        assert!(out.contains(" 0 mismatches"), "{out}");
        assert_eq!(out.contains(&format!("ok {pos}")), check, "{out}");
        assert_eq!(out.contains("position giuthi"), !check, "{out}");
        let (code, out, err) = run(&wrong);
        assert_eq!(code, 1, "--check {check}: {out}{err}");
        assert!(err.contains("wrong.txt:2: MISMATCH"), "{err}");
        assert!(out.contains("1 mismatch,"), "{out}");
    }
    // --help says so for both forms.
    let (_, help, _) = giuthi(&["solve", "--help"]);
    assert!(help.contains("with or without --check"), "{help}");
}

// ------------------------------------------- 3. an interrupted solve's proven part on stdout

/// A `[min, max]` JSON range as scores (infinities as strings, never null).
fn score_pair(v: &serde_json::Value) -> (Score, Score) {
    let a = v.as_array().expect("an array");
    assert_eq!(a.len(), 2, "{v}");
    let score = |x: &serde_json::Value| match x.as_str() {
        Some("-inf") => giuthi::value::NEG_INF,
        Some("+inf") => giuthi::value::POS_INF,
        Some(other) => panic!("not an infinity: {other}"),
        None => x.as_i64().expect("a number, never null") as Score,
    };
    (score(&a[0]), score(&a[1]))
}

/// Item 3: a solve stopped by the path cap (exit 3) or as by Ctrl-C (a `--checkpoint` run
/// stopped after a set number of tests, exit 130) prints its proven part on stdout in
/// text mode, marked `interrupted, not exact` (`stopped at --max-ply, not exact` at the
/// cap, since session 24), with the margin's proven range and the
/// results it leaves open; `--json` has `margin_range` (and `margin` only when exact),
/// the same range as the text.
#[test]
fn v3_an_interrupted_solve_prints_its_proven_ranges_on_stdout() {
    let pos = "giuthi 3,0,2,1,4/0,2,5,1,2 N 3,1";
    // The search alone (`--retro-states 0`): since session 23 the default cap holds this
    // graph (34 M states), and the pass, which needs no deep path, would answer.
    let base = [
        "solve",
        pos,
        "--max-ply",
        "2",
        "--threads",
        "1",
        "--quiet",
        "--retro-states",
        "0",
    ];
    let (code, out, err) = giuthi(&base);
    assert_eq!(code, 3, "{err}");
    assert!(out.starts_with(&format!("position {pos}\n")), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("stopped at --max-ply, not exact: lo "))
        .unwrap_or_else(|| panic!("no stopped line: {out}"));
    assert!(
        line.contains("  margin ") && line.contains("  result "),
        "{line}"
    );
    let mut args = base.to_vec();
    args.push("--json");
    let (code, out, _) = giuthi(&args);
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let m = score_pair(&v["margin_range"]);
    assert!(m.0 <= m.1, "{out}");
    assert_eq!(v.get("margin").is_some(), m.0 == m.1, "{out}");
    // The text gives the same range.
    let words = giuthi::value::fmt_range("margin", m);
    assert!(line.contains(&words), "{line} / {words}");
    // The true margin (the solve without the cap) lies in it.
    let (_, full, _) = giuthi(&[
        "solve",
        pos,
        "--threads",
        "1",
        "--json",
        "--retro-states",
        "0",
    ]);
    let full: serde_json::Value = serde_json::from_str(full.trim()).unwrap();
    let margin = full["margin"].as_i64().unwrap() as Score;
    assert!(m.0 <= margin && margin <= m.1, "{margin} not in {m:?}");

    // Stopped as by Ctrl-C: a checkpointed run after one answered test.
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.bin");
    let start = "giuthi 3,3,3,3/3,3,3,3 S 0,0";
    let (code, out, err) = giuthi(&[
        "solve",
        start,
        "--threads",
        "1",
        "--hash",
        "8",
        "--retro-states",
        "0",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--stop-after-tests",
        "1",
    ]);
    assert_eq!(code, 130, "{out}{err}");
    assert!(out.contains("interrupted, not exact: lo "), "{out}{err}");
    assert!(!out.contains("\nbest "), "{out}");
}

// ------------------------------------------- 4. serve stops on SIGTERM and SIGINT

/// Starts `giuthi serve --port 0` (`ignore_sigint`: with SIGINT ignored, as a script's
/// background job inherits it), starts a long solve on it, sends `sig`, and returns the
/// exit code and stderr (the test fails if the server is still up after 20 s).
#[allow(unsafe_code)]
fn serve_and_signal(sig: libc::c_int, ignore_sigint: bool) -> (Option<i32>, String) {
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_giuthi"));
    cmd.args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if ignore_sigint {
        // SAFETY: between fork and exec only `signal`, which is async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_IGN);
                Ok(())
            });
        }
    }
    let mut child = cmd.spawn().unwrap();
    let addr = crate::common::served_address(&mut child);
    // A solve that runs for minutes (the 2x6x4 start).
    let body = r#"{"position":"giuthi 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0","client":"t"}"#;
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        s,
        "POST /api/solve HTTP/1.0\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    assert!(resp.contains("200"), "{resp}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(child.id() as libc::pid_t, sig);
    }
    let t = std::time::Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if t.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("giuthi serve still running 20 s after signal {sig}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code(), err)
}

/// Item 4: SIGTERM and SIGINT (even inherited ignored) stop `giuthi serve` with one line
/// on stderr and exit 0, the running solve stopped.
#[test]
fn serve_stops_on_sigterm_and_sigint_with_a_message() {
    let (code, err) = serve_and_signal(libc::SIGTERM, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("giuthi serve: stopped (SIGTERM)"), "{err}");
    let (code, err) = serve_and_signal(libc::SIGINT, true);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("giuthi serve: stopped (SIGINT)"), "{err}");
}

/// The trial of session 9: a positions file saved with a UTF-8 byte-order mark (as
/// Windows Notepad writes it) reads like the same file without it, as a file of positions
/// and as the POSITION argument (N1 notation after the mark).
#[test]
fn n1_a_positions_file_with_a_byte_order_mark_reads_like_one_without() {
    let dir = tempfile::tempdir().unwrap();
    let bom = dir.path().join("bom.txt");
    let plain = dir.path().join("plain.txt");
    let line = "giuthi 1,0,0,0/1,3,0,0 S 0,2\n";
    std::fs::write(&bom, format!("\u{feff}{line}")).unwrap();
    std::fs::write(&plain, line).unwrap();
    for args in [vec!["solve", "--threads", "1"], vec!["show"]] {
        let run = |f: &std::path::Path| {
            let mut a = args.clone();
            a.insert(1, f.to_str().unwrap());
            giuthi(&a)
        };
        let (code, out, err) = run(&bom);
        assert_eq!(code, 0, "{args:?} with a BOM: {err}");
        let (code2, out2, _) = run(&plain);
        assert_eq!(code2, 0);
        let strip = |s: &str| {
            s.replace(bom.to_str().unwrap(), "F")
                .replace(plain.to_str().unwrap(), "F")
        };
        let no_time = |s: &str| {
            s.lines()
                .filter(|l| !l.contains(" s") && !l.contains("time"))
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(no_time(&strip(&out)), no_time(&strip(&out2)), "{args:?}");
    }
}

/// The trial of session 9: `plot FILE --out FILE` would have replaced the positions file
/// with the SVG. It is refused (exit 2, naming --out) and the file is left as it was.
#[test]
fn plot_refuses_to_write_over_one_of_its_input_files() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("ss.txt");
    let text = std::fs::read_to_string("positions/solved-starts.txt").unwrap();
    std::fs::write(&f, &text).unwrap();
    let p = f.to_str().unwrap();
    let (code, _, err) = giuthi(&["plot", p, "--out", p]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--out"), "{err}");
    assert_eq!(std::fs::read_to_string(&f).unwrap(), text);
    // Another path still works.
    let svg = dir.path().join("m.svg");
    let (code, _, err) = giuthi(&["plot", p, "--out", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
}
