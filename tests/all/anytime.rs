//! Anytime analysis (issue 13, docs/anytime.md): `bestmove`/`analyze --movetime` answer
//! with a legal move on every game and board, label a move exact only when the exact
//! solver proved it (checked against the solver), reject bad `--movetime` values (exit 2),
//! and `match` prints its result in the cutechess format. The heuristic search's proofs
//! (Kalah, no repetition) are cross-checked against alpha-beta; its repetition scoring
//! (G10) is checked on a played history. No test depends on timing (only legality,
//! labels and fields) but the two K11 tests of the root's moves against the clock, which
//! bound the process's wall time at 20 times the budget besides their deterministic
//! checks.

use giuthi::anytime::eval::Evaluate;
use giuthi::anytime::search::{HeuristicSearch, Limits};
use giuthi::anytime::small::SmallEndgames;
use giuthi::rules::giuthi::Giuthi;
use giuthi::rules::kalah::Kalah;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::{with_position, AnyPosition, Position, Rules};
use serde_json::Value;

// Runs the binary (`common::run_cli`): (exit code, stdout, stderr).
use crate::common::run_cli as giuthi;

fn json_ok(args: &[&str]) -> Value {
    let (code, stdout, stderr) = giuthi(args);
    assert_eq!(code, 0, "giuthi {args:?}: {stderr}");
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout:?}"))
}

/// Whether `mv` is a legal move of `position` (parsed by the library, not the binary).
fn is_legal(position: &str, mv: &str) -> bool {
    let any: AnyPosition = position.parse().expect("position");
    with_position!(&any, p => {
        let kids = p.children();
        if kids.is_empty() {
            // An unlisted move (Kiothi K3): legal when the rules accept it.
            p.play_str(mv).is_ok()
        } else {
            p.rules
                .parse_move(mv)
                .is_ok_and(|m| kids.iter().any(|c| c.mv == m))
        }
    })
}

/// The JSON fields of a bestmove answer, with `exact` deciding margin or eval.
fn check_fields(v: &Value, position: &str) {
    assert_eq!(v["position"], position);
    let mv = v["move"].as_str().expect("a move");
    assert!(is_legal(position, mv), "{mv} is not legal in {position}");
    let exact = v["exact"].as_bool().expect("exact is a bool");
    if exact {
        assert!(v["margin"].is_i64(), "{v}");
        assert!(v.get("eval").is_none(), "{v}");
    } else {
        assert!(v["eval"].is_number(), "{v}");
        assert!(v.get("margin").is_none(), "{v}");
    }
    assert!(
        v["pv"].is_array() && v["nodes"].is_u64() && v["seconds"].is_f64(),
        "{v}"
    );
    assert!(v.get("depth").is_some(), "{v}");
}

/// G1, R1, K1-K3: a legal move with every field on the boards people play, Kalah and
/// Kiothi (the opening redistribution and a play-phase position), at 0.2 s.
#[test]
fn bestmove_movetime_answers_legally_on_every_game() {
    let positions = [
        "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0",
        "giuthi 10,1,15,15,2,4,14,0/6,3,1,15,1,20,20,1 S 0,0",
        "giuthi 9,9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9,9 S 0,0",
        "giuthi:chain=one 6,6,6,6,6,6,6/6,6,6,6,6,6,6 N 0,0",
        "kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0",
        "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1",
    ];
    for p in positions {
        let v = json_ok(&[
            "bestmove",
            p,
            "--movetime",
            "0.2",
            "--json",
            "--threads",
            "1",
        ]);
        check_fields(&v, p);
    }
    // A Kiothi play-phase position, reached by the heuristic openings of both sides.
    let start = "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1";
    let mut p: Position<giuthi::rules::kiothi::Kiothi> = start.parse().expect("kiothi");
    while !p.rules.can_enumerate(&p.state) {
        let m = p.rules.unlisted_move(&p.state).expect("a redistribution");
        p = p.play(m).expect("legal");
    }
    let text = p.to_string();
    let v = json_ok(&[
        "bestmove",
        &text,
        "--movetime",
        "0.2",
        "--json",
        "--threads",
        "1",
    ]);
    check_fields(&v, &text);
}

/// The exact margin and best moves of alpha-beta.
fn solved<R: Rules>(pos: &Position<R>) -> (i32, Vec<String>) {
    let s = Solver::new(pos.rules.clone(), SolverOptions::default())
        .solve(pos)
        .expect("solved");
    (
        s.margin,
        s.best_moves.iter().map(|m| m.to_string()).collect(),
    )
}

/// V3, V4: on a small endgame the exact solver settles at once, the answer is exact, and
/// its move and margin are the solver's.
#[test]
fn bestmove_movetime_is_exact_on_a_small_endgame() {
    for p in [
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "giuthi 0,1,0,1,1/0,1,0,1,2 S 9,9",
        "kalah 1,2,0/0,2,1 S 0,0",
    ] {
        // A generous budget: the answer comes as soon as the solver finishes (milliseconds),
        // so the test does not depend on the machine's speed.
        let v = json_ok(&[
            "bestmove",
            p,
            "--movetime",
            "30",
            "--json",
            "--threads",
            "1",
        ]);
        check_fields(&v, p);
        assert_eq!(v["exact"], true, "{v}");
        let any: AnyPosition = p.parse().expect("position");
        let (margin, best) = with_position!(&any, pos => solved(pos));
        assert_eq!(v["margin"], margin, "{p}");
        assert!(
            best.contains(&v["move"].as_str().unwrap().to_string()),
            "{p}: {v}"
        );
    }
}

/// A big board at a tiny budget cannot be proven: the answer says heuristic, with an
/// evaluation and no margin (never labelled exact without proof).
#[test]
fn heuristic_answers_are_never_marked_exact() {
    for p in [
        "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0",
        "giuthi 9,9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9,9 N 0,0",
    ] {
        let v = json_ok(&[
            "bestmove",
            p,
            "--movetime",
            "0.05",
            "--json",
            "--threads",
            "1",
        ]);
        check_fields(&v, p);
        assert_eq!(v["exact"], false, "{v}");
        let v = json_ok(&[
            "analyze",
            p,
            "--movetime",
            "0.1",
            "--json",
            "--threads",
            "1",
        ]);
        let moves = v["moves"].as_array().expect("moves");
        assert!(!moves.is_empty(), "{v}");
        assert_eq!(v["exact"], false, "{v}");
        for m in moves {
            assert!(m["eval"].is_number() && m.get("margin").is_none(), "{m}");
        }
    }
}

/// `analyze --movetime` on a small endgame: every move exact, as `analyze` without it.
#[test]
fn analyze_movetime_exact_values_match_the_solver() {
    let p = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    let v = json_ok(&["analyze", p, "--movetime", "30", "--json", "--threads", "1"]);
    let pos: Position<Giuthi> = p.parse().expect("position");
    let want = Solver::new(pos.rules.clone(), SolverOptions::default())
        .analyze(&pos)
        .expect("solved");
    let moves = v["moves"].as_array().expect("moves");
    assert_eq!(v["exact"], true, "{v}");
    assert_eq!(moves.len(), want.len());
    for (m, (mv, margin)) in moves.iter().zip(&want) {
        assert_eq!(m["move"], mv.to_string());
        assert!(m.get("eval").is_none(), "{m}");
        assert_eq!(m["margin"], *margin);
    }
}

/// Bad `--movetime`: malformed, zero, negative, NaN, infinite, more than a day: exit 2
/// with a message naming the option.
#[test]
fn bad_movetime_is_a_usage_error_naming_the_option() {
    for cmd in ["bestmove", "analyze"] {
        for bad in ["abc", "0", "-1", "NaN", "inf", "86401", "1e9", ""] {
            let (code, _, stderr) =
                giuthi(&[cmd, "giuthi 1,0,0,0/1,3,0,0 S 0,2", "--movetime", bad]);
            assert_eq!(code, 2, "{cmd} --movetime {bad:?}: {stderr}");
            assert!(stderr.contains("--movetime"), "{stderr}");
        }
    }
    let (code, _, stderr) = giuthi(&["match", "--movetime", "-0.5"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--movetime"), "{stderr}");
    let (code, _, stderr) = giuthi(&["match", "--a", "engine:depth=0"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--a") && stderr.contains("depth"),
        "{stderr}"
    );
}

/// `--exact-share` shares out `--movetime`: without it, a usage error naming both.
#[test]
fn exact_share_without_movetime_is_a_usage_error() {
    for cmd in ["bestmove", "analyze"] {
        let (code, _, stderr) =
            giuthi(&[cmd, "giuthi 1,0,0,0/1,3,0,0 S 0,2", "--exact-share", "0.5"]);
        assert_eq!(code, 2, "{cmd}: {stderr}");
        assert!(
            stderr.contains("error: --exact-share 0.5:") && stderr.contains("--movetime"),
            "{stderr}"
        );
    }
}

/// `match`: the cutechess-style summary, both colours of every opening, and JSON.
#[test]
fn match_prints_wins_draws_losses_and_elo() {
    let start = "giuthi 3,3,3,3,3/3,3,3,3,3 S 0,0";
    let (code, stdout, stderr) = giuthi(&[
        "match",
        "--start",
        start,
        "--a",
        "greedy",
        "--b",
        "random",
        "--openings",
        "3",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let score = stdout
        .lines()
        .find(|l| l.starts_with("Score of greedy vs random: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    // `W - L - D  [score] N`
    let nums: Vec<f64> = score
        .trim_start_matches("Score of greedy vs random: ")
        .split(|c: char| c == '-' || c == '[' || c == ']' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("number"))
        .collect();
    assert_eq!(nums.len(), 5, "{score}");
    assert_eq!(nums[0] + nums[1] + nums[2], 6.0, "{score}");
    assert_eq!(nums[4], 6.0);
    assert!(
        (nums[3] - (nums[0] + nums[2] / 2.0) / 6.0).abs() < 0.001,
        "{score}"
    );
    assert!(stdout.contains("Elo difference: "), "{stdout}");
    assert!(stdout.contains("playing South") && stdout.contains("playing North"));
    let v = json_ok(&[
        "match",
        "--start",
        start,
        "--a",
        "engine:depth=2,exact=0",
        "--b",
        "greedy",
        "--openings",
        "2",
        "--json",
        "--quiet",
    ]);
    assert_eq!(v["games"], 4);
    let w =
        v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(w, 4);
    assert_eq!(v["a"], "engine:depth=2,exact=0");
    // The 95% interval is in the JSON as in the text line: two ends around `elo`, each a
    // number or an infinity as a string (never null once a game is played).
    let iv = v["elo_interval"].as_array().expect("elo_interval");
    assert_eq!(iv.len(), 2, "{v}");
    let end = |x: &serde_json::Value| match x {
        serde_json::Value::String(s) if s == "+inf" => f64::INFINITY,
        serde_json::Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        x => x.as_f64().unwrap_or_else(|| panic!("{v}")),
    };
    let (lo, hi) = (end(&iv[0]), end(&iv[1]));
    let elo = end(&v["elo"]);
    assert!(lo <= elo && elo <= hi && lo < hi, "{v}");
    if let Some(m) = v["elo_error"].as_f64() {
        assert!(((hi - lo) / 2.0 - m).abs() < 1e-6, "{v}");
    }
}

/// `match --games FILE`: one line a game, and every line replays by the rules (G9, G10) to
/// the result it records: a finished game to A's final margin, a repetition to a position
/// seen before in the game (a draw, 0).
#[test]
fn g10_match_games_file_replays_to_the_recorded_results() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("games.tsv");
    let file_s = file.to_str().expect("UTF-8 path");
    let (code, _, stderr) = giuthi(&[
        "match",
        "--start",
        "giuthi 3,3,3,3,3/3,3,3,3,3 S 0,0",
        "--a",
        "engine:depth=2,exact=0",
        "--b",
        "greedy",
        "--openings",
        "4",
        "--quiet",
        "--games",
        file_s,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&file).expect("games file");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 8, "{text}");
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 8, "{line}");
        let mut p: Position<Giuthi> = f[6].parse().expect("opening position");
        let mut seen = vec![p.state];
        let moves: Vec<&str> = f[7].split_whitespace().collect();
        assert_eq!(moves.len(), f[5].parse::<usize>().expect("plies"), "{line}");
        for m in moves {
            let mv = p.rules.parse_move(m).expect("move");
            p = p.play(mv).expect("legal move");
            seen.push(p.state);
        }
        let a_margin: i32 = f[3].parse().expect("margin");
        match f[4] {
            "game-over" => {
                assert!(p.is_over(), "{line}");
                let s = p.final_scores();
                let south = s.south - s.north;
                let want = if f[2] == "S" { south } else { -south };
                assert_eq!(a_margin, want, "{line}");
            }
            "repetition" => {
                assert_eq!(a_margin, 0, "{line}");
                let last = seen.pop().expect("a position");
                assert!(seen.contains(&last), "{line}");
            }
            other => panic!("end {other:?}: {line}"),
        }
    }
    // A folder that does not exist is a usage error naming the option.
    let (code, _, stderr) = giuthi(&["match", "--games", "/nonexistent-dir/g.tsv"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--games"), "{stderr}");
}

/// The heuristic search's proofs: in Kalah (no repetition, R1-R4) a complete search is
/// exact, and it equals alpha-beta's margin on every position tried; in Giuthi (G10) it
/// never claims a proof.
#[test]
fn heuristic_proofs_agree_with_alpha_beta() {
    let mut proven = 0;
    for p in [
        "kalah 1,2,0/0,2,1 S 0,0",
        "kalah 2,2,2/2,2,2 S 0,0",
        "kalah 0,3,1/2,0,2 N 1,3",
        "kalah 3,3,3/3,3,3 S 0,0",
        "kalah 1,0,2,1/2,1,0,1 S 2,2",
    ] {
        let pos: Position<Kalah> = p.parse().expect("position");
        let s = Solver::new(pos.rules.clone(), SolverOptions::default())
            .solve(&pos)
            .expect("solved");
        // Without and with small endgames solved inside the tree (their exact values
        // replace evaluations; the proof must not change).
        for small in [None, Some(SmallEndgames::new(6, 100_000))] {
            let mut h = HeuristicSearch::new(pos.rules.clone(), pos.rules.default_weights(), 4);
            let with_small = small.is_some();
            h.set_small_endgames(small);
            let limits = Limits {
                depth: Some(60),
                ..Limits::default()
            };
            let it = h.run(&pos, &[], &limits, |_| {}).expect("a move");
            if it.proven {
                proven += 1;
                assert_eq!(
                    pos.captured_difference() * 100 + it.score,
                    s.margin * 100,
                    "{p}, small endgames {with_small}"
                );
                assert!(
                    s.best_moves.contains(&it.best),
                    "{p}, small endgames {with_small}"
                );
            }
        }
    }
    assert!(proven >= 8, "only {proven} proofs");
    let g: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse().expect("position");
    let mut h = HeuristicSearch::new(g.rules.clone(), g.rules.default_weights(), 1);
    let it = h
        .run(
            &g,
            &[],
            &Limits {
                depth: Some(40),
                ..Limits::default()
            },
            |_| {},
        )
        .expect("a move");
    assert!(!it.proven);
}

/// G10, V3: a move back to a position of the game's history is a draw: its value is a
/// final margin of exactly 0, whatever the evaluation.
#[test]
fn g10_a_move_into_the_history_scores_a_draw() {
    let pos: Position<Giuthi> = "giuthi 2,0,3,1,0/0,2,1,0,2 S 3,1"
        .parse()
        .expect("position");
    let kids = pos.children();
    let c = kids
        .iter()
        .find(|c| c.captured == 0)
        .expect("a move without capture");
    let mut h = HeuristicSearch::new(pos.rules.clone(), pos.rules.default_weights(), 1);
    h.set_all_moves(true);
    let it = h
        .run(
            &pos,
            &[c.state],
            &Limits {
                depth: Some(3),
                ..Limits::default()
            },
            |_| {},
        )
        .expect("a move");
    let (_, score, _) = it
        .moves
        .iter()
        .find(|m| m.0 == c.mv)
        .copied()
        .expect("the move");
    assert_eq!(pos.captured_difference() * 100 + score, 0);
}

/// Reads the lines of a positions/ file that carry a recorded best-move list.
fn recorded_best(file: &str) -> Vec<(String, Vec<String>)> {
    let path = format!("{}/positions/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("positions file");
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_once(" | "))
        .filter_map(|(p, rec)| {
            let best = rec
                .split_whitespace()
                .find_map(|f| f.strip_prefix("best="))?;
            let best: Vec<String> = best
                .split(',')
                .filter(|m| !m.is_empty())
                .map(String::from)
                .collect();
            (!best.is_empty()).then(|| (p.trim().to_string(), best))
        })
        .collect()
}

/// The move `think` gives at `movetime` seconds, one thread, as `bestmove --movetime`.
fn think_move<R: Evaluate>(pos: &Position<R>, movetime: f64) -> (String, bool) {
    use giuthi::anytime::think::{think, ThinkOptions};
    let solver = Solver::new(pos.rules.clone(), SolverOptions::default());
    let mut h = HeuristicSearch::new(pos.rules.clone(), pos.rules.default_weights(), 16);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let opts = ThinkOptions {
        movetime: Some(std::time::Duration::from_secs_f64(movetime)),
        ..ThinkOptions::default()
    };
    let a = think(pos, &[], Some(&solver), &mut h, &stop, &opts, &|_| {});
    (a.best.expect("a move").to_string(), a.exact)
}

/// Issue 13's target: on solved positions (the recorded best moves of positions/ and
/// small random endgames solved by alpha-beta without a time limit) the 0.1 s move is an
/// exact best move in at least 95% of them. Timing-dependent on a loaded machine, so
/// `--ignored`; prints the counts (docs/anytime.md).
#[test]
#[ignore]
fn solved_positions_get_a_best_move_at_a_tenth_of_a_second() {
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for f in [
        "compositions.txt",
        "solved-starts.txt",
        "kiothi-endgames.txt",
    ] {
        cases.extend(recorded_best(f));
    }
    let recorded = cases.len();
    // Small endgames: random Giuthi boards of 2x4..2x6 with 4..9 seeds, both sides to move,
    // solved by alpha-beta (skipped if not solved within 20 s).
    let mut rng = giuthi::anytime::matchplay::SplitMix::new(2026);
    while cases.len() < recorded + 60 {
        let n = 4 + rng.below(3);
        let seeds = 4 + rng.below(6);
        let mut pits = vec![0u32; 2 * n];
        for _ in 0..seeds {
            pits[rng.below(2 * n)] += 1;
        }
        let row = |r: &[u32]| {
            r.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let turn = if rng.below(2) == 0 { "S" } else { "N" };
        let text = format!(
            "giuthi {}/{} {turn} {},{}",
            row(&pits[..n]),
            row(&pits[n..]),
            rng.below(5),
            rng.below(5)
        );
        let pos: Position<Giuthi> = text.parse().expect("position");
        if pos.is_over() {
            continue;
        }
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let solver =
            Solver::new(pos.rules.clone(), SolverOptions::default()).with_stop(stop.clone());
        let s2 = stop.clone();
        let timer = std::thread::spawn(move || {
            for _ in 0..200 {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if s2.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
            }
            s2.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let solved = solver.solve(&pos);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        timer.join().expect("timer");
        if let Ok(s) = solved {
            cases.push((text, s.best_moves.iter().map(|m| m.to_string()).collect()));
        }
    }
    let (mut good, mut exact) = (0, 0);
    for (p, best) in &cases {
        let any: AnyPosition = p.parse().expect("position");
        let (mv, is_exact) = with_position!(&any, pos => think_move(pos, 0.1));
        if best.contains(&mv) {
            good += 1;
        } else {
            eprintln!("not best at 0.1 s: {p}: {mv} (best {best:?}, exact {is_exact})");
        }
        exact += usize::from(is_exact);
    }
    eprintln!(
        "{good} of {} positions ({recorded} recorded, {} random endgames) got a best move at 0.1 s; {exact} answers exact",
        cases.len(),
        cases.len() - recorded
    );
    assert!(good * 100 >= cases.len() * 95, "{good} of {}", cases.len());
}

/// `analyze` and `bestmove` stopped by Ctrl-C (SIGINT) before the exact solver proved the
/// answer exit 130 and say so in their JSON, `"stopped": "interrupted"` (as `solve`
/// does), with the heuristic values marked `eval`, never `margin` (the session-11
/// fresh-user trial: the JSON had no mark of the stop).
#[test]
fn analyze_and_bestmove_stopped_by_sigint_say_so_in_json() {
    // The opening of 2x6 with 6 seeds a pit: nothing of it was proven in 1,040 M nodes
    // (docs/results.md, Not solved yet). A 2x7 endgame used here before became a 0.5 s
    // `bestmove` when the search got faster (CI of session 14).
    let pos = "giuthi 6,6,6,6,6,6/6,6,6,6,6,6 S 0,0";
    for cmd in ["analyze", "bestmove"] {
        // Ctrl-C once the heuristic search has had time for its first depths.
        let out = crate::common::run_cli_signalled(
            &[cmd, pos, "--threads", "1", "--json", "--quiet"],
            libc::SIGINT,
            std::time::Duration::from_millis(1500),
        );
        assert_eq!(out.status.code(), Some(130), "{cmd}: {out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let v: Value = serde_json::from_str(stdout.lines().last().expect("a line"))
            .unwrap_or_else(|e| panic!("{cmd}: {e}: {stdout}"));
        assert_eq!(v["stopped"], "interrupted", "{cmd}: {v}");
        assert_eq!(v["exact"], false, "{cmd}: {v}");
        if cmd == "analyze" {
            for m in v["moves"].as_array().expect("moves") {
                assert!(m.get("margin").is_none() && m["eval"].is_number(), "{m}");
            }
        } else {
            assert!(v.get("margin").is_none() && v["eval"].is_number(), "{v}");
        }
    }
}

/// `bestmove` answered by the retrograde pass prints a principal variation that starts
/// with the move it answers (V4: the PV is the answer's line). On these Kiothi endgames
/// the pass's PV followed another best move (the session-11 fresh-user trial).
#[test]
fn bestmove_answered_by_the_pass_prints_its_own_line() {
    for pos in [
        "kiothi 1,0,2,0,0,0,0,0,0,0/0,1,0,1,0,1n,0,0,0,0 S 3,4 play",
        "kiothi 1n,0,1n,0,0,1,2,0,1,0/0,1,0,0,0,1,0,1,0,0 S 3,4 play",
        "kiothi 2,1,1,0,0,1,0,0,0,0/1,0,0,0,0,0,0,0,1,0 S 5,1 play",
    ] {
        let v = json_ok(&["bestmove", pos, "--threads", "1", "--json", "--quiet"]);
        assert_eq!(v["exact"], true, "{pos}: {v}");
        assert_eq!(v["pv"][0], v["move"], "{pos}: {v}");
        let s = json_ok(&["solve", pos, "--threads", "1", "--json", "--quiet"]);
        assert_eq!(v["margin"], s["margin"], "{pos}");
        let best = s["best_moves"].as_array().expect("best_moves");
        assert!(best.contains(&v["move"]), "{pos}: {v} not in {best:?}");
    }
}

/// RULES.md K11's example: 14x6 and 14x8 are endless, found so only after 12,337,701 and
/// 98,197,473 laps (about 0.1 s and 1 s); every other lift ends within a few laps.
const K11: &str = "kiothi 3,2,1,5,1,3,4,1,4,6/2,1,5,2,9,1,7,2,1,0 S 0,0 play";

/// The moves of `position` with their laps (every lift sown to its end, as `giuthi moves`).
fn legal_moves(position: &str) -> Vec<(String, u32)> {
    let any: AnyPosition = position.parse().expect("position");
    with_position!(&any, p => p.children().iter().map(|c| (c.mv.to_string(), c.laps)).collect())
}

/// K11, G7: the root's moves under a stop raised from the start (`root_moves`, the
/// anytime root's generation) are exactly the legal moves of the sowings shorter than
/// `SOW_STOP_INTERVAL` laps, in the order of `children`, and the two long lifts (14x6,
/// 14x8: endless, so no move at all) are counted undecided, not listed. `is_over` finds a
/// move without sowing them.
#[test]
fn k11_root_moves_under_a_raised_stop_are_the_fully_sown_short_ones() {
    use giuthi::rules::kiothi::{Kiothi, SowError, SOW_STOP_INTERVAL};
    let p: Position<Kiothi> = K11.parse().expect("position");
    let (kids, undecided) = giuthi::rules::root_moves(&p.rules, &p.state, &mut || true);
    let all = p.children();
    let short: Vec<_> = all
        .iter()
        .filter(|c| u64::from(c.laps) <= SOW_STOP_INTERVAL)
        .map(|c| c.mv)
        .collect();
    assert_eq!(kids.iter().map(|c| c.mv).collect::<Vec<_>>(), short);
    assert_eq!(short.len(), all.len(), "every legal move here is short");
    // The lifts whose sowing outlasts the first stop test, each sown to its end here.
    let mut long = Vec::new();
    for pit in 10..20 {
        for k in 1..=p.state.pits[pit] as u32 {
            let laps = match p.rules.sow(&p.state, pit, k) {
                Ok(sw) => sw.laps,
                Err(SowError::Endless { laps }) => laps,
                Err(SowError::FirstLap { .. }) => 0,
            };
            if laps > SOW_STOP_INTERVAL {
                long.push(format!("{pit}x{k}"));
            }
        }
    }
    assert_eq!(long, ["14x6", "14x8"]);
    assert_eq!(undecided, long.len());
    assert!(!p.is_over());
}

/// K11, G7: a heuristic search whose stop is raised before it starts still answers a legal,
/// fully sown move (never the unfinished 14x6 or 14x8), says the two lifts were left
/// undecided, and never calls its result complete. Deterministic: the stop is a flag.
#[test]
fn k11_heuristic_search_stopped_at_once_answers_a_fully_sown_move() {
    use giuthi::rules::kiothi::Kiothi;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let p: Position<Kiothi> = K11.parse().expect("position");
    let mut s = HeuristicSearch::new(p.rules, p.rules.default_weights(), 1)
        .with_stop(Arc::new(AtomicBool::new(true)));
    let it = s.run(&p, &[], &Limits::default(), |_| {}).expect("a move");
    let legal: Vec<_> = p.legal_moves();
    assert!(legal.contains(&it.best), "{} is not a legal move", it.best);
    assert_eq!(it.undecided, 2);
    assert_eq!(s.root_undecided(), 2);
    assert!(!it.complete && !it.proven);
    assert_eq!(s.root_children().len(), legal.len());
}

/// What the two K11 tests of the clock share: `CMD K11 --movetime 0.1 --threads 1 --json
/// --quiet` run once, with the legal moves of K11 (sown to their end by the library), the
/// answer, its `"undecided"` count (checked to be 1 or 2: lifts still being sown at the
/// deadline) and the process's wall time (checked to be under 2 s, 20 times the budget,
/// for a loaded CI machine).
struct K11Answer {
    legal: Vec<(String, u32)>,
    v: Value,
    undecided: usize,
}

fn k11_movetime_json(cmd: &str) -> K11Answer {
    let legal = legal_moves(K11);
    let t = std::time::Instant::now();
    let v = json_ok(&[
        cmd,
        K11,
        "--movetime",
        "0.1",
        "--threads",
        "1",
        "--json",
        "--quiet",
    ]);
    let wall = t.elapsed().as_secs_f64();
    assert!(wall < 2.0, "{cmd} --movetime 0.1 took {wall:.2} s: {v}");
    assert_eq!(v["exact"], false, "{v}");
    let undecided = v["undecided"].as_u64().expect("undecided lifts") as usize;
    assert!((1..=2).contains(&undecided), "{v}");
    K11Answer {
        legal,
        v,
        undecided,
    }
}

/// K11, G7: `bestmove --movetime 0.1` on the rule book's example cuts the root's move
/// generation short (`"undecided"`: lifts still being sown at the deadline) and answers a
/// legal, fully sown move, heuristic. The process's wall time is bounded (in
/// `k11_movetime_json`): the build before this check sowed every lift to its end twice
/// before thinking (`is_over` in `bestmove` and in the driver: 2.6 to 2.8 s wall on the
/// project machine, unloaded); the deterministic checks are the `undecided` count and the
/// move's legality.
#[test]
fn k11_bestmove_movetime_cuts_the_root_short_and_answers_a_sown_move() {
    let K11Answer { legal, v, .. } = k11_movetime_json("bestmove");
    check_fields(&v, K11);
    let mv = v["move"].as_str().expect("a move");
    assert!(legal.iter().any(|(m, _)| m == mv), "{mv}: {v}");
    assert!(!["14x6", "14x8"].contains(&mv), "{v}");
    assert!(v.get("stopped").is_none(), "{v}");
    // The text answer: the move labelled heuristic on stdout, the note on stderr.
    let (code, out, err) = giuthi(&["bestmove", K11, "--movetime", "0.1", "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    let words: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{out}");
    assert!(legal.iter().any(|(m, _)| m == words[1]), "{out}");
    assert!(out.contains("heuristic (not proven)"), "{out}");
    assert!(
        err.contains("still being sown when the time ran out"),
        "{err}"
    );
}

/// K11, G7: `analyze --movetime` on the example lists only fully sown legal moves, each
/// heuristic, says how many lifts it did not examine (`"undecided"`, and a note in text),
/// and is not `exact`; every legal move not listed is one of the undecided lifts.
#[test]
fn k11_analyze_movetime_counts_the_lifts_it_did_not_examine() {
    let K11Answer {
        legal,
        v,
        undecided,
    } = k11_movetime_json("analyze");
    let moves = v["moves"].as_array().expect("moves");
    assert!(!moves.is_empty(), "{v}");
    for m in moves {
        let mv = m["move"].as_str().expect("move");
        assert!(legal.iter().any(|(l, _)| l == mv), "{mv} is not legal: {v}");
        assert!(m["eval"].is_number() && m.get("margin").is_none(), "{m}");
    }
    assert!(legal.len() <= moves.len() + undecided, "{v}");
    let (code, out, err) = giuthi(&["analyze", K11, "--movetime", "0.1", "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("still being sown when the time ran out"),
        "{out}"
    );
}
