//! The JSON API of `giuthi serve` without a browser (tower's `oneshot` on the router):
//! malformed input is a 4xx naming the field, never a crash; play answers the position of
//! `Position::play` and a trace that replays to it; background solves give the values of
//! the naive solver (RULES.md V2-V4), stop on request, and stay within their limits.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use giuthi::rules::giuthi::Giuthi;
use giuthi::server::jobs::Jobs;
use giuthi::server::{router, JobLimits};
use giuthi::solve::naive::naive_solve;
use giuthi::AnyPosition;
use giuthi::Position;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

async fn send(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 24)
        .await
        .unwrap();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, v)
}

fn post(app: &axum::Router, uri: &str, body: Value) -> (StatusCode, Value) {
    rt().block_on(send(app, "POST", uri, Some(&body.to_string())))
}

fn get(app: &axum::Router, uri: &str) -> (StatusCode, Value) {
    rt().block_on(send(app, "GET", uri, None))
}

/// N1-N4: a position the parser refuses is a 400 carrying the parser's message and the
/// field it names; every bad request field is named.
#[test]
fn n1_malformed_positions_are_400_with_the_parsers_message() {
    let app = router(JobLimits::default());
    for bad in [
        "giuthi 4,4,4,4,4/4,4,4,4 S",
        "giuthi 4,4,4,4,4/4,4,4,4,4 X 0,0",
        "giuthi 4,4,4,4,4/4,4,4,4,4 S 0",
        "chess 1/1 S",
        "",
        "giuthi:chain=two 1,1/1,1 S",
        "kalah 1,1/1,x S 0,0",
        "kiothi 1,2/3,4 S 0,0 play",
        "giuthi 200,200/0,0 S",
    ] {
        let expected = bad.parse::<AnyPosition>().unwrap_err().to_string();
        let (st, v) = post(&app, "/api/position", json!({ "position": bad }));
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(v["error"], expected, "{bad}");
        let field = expected
            .strip_prefix("field ")
            .unwrap()
            .split(':')
            .next()
            .unwrap();
        assert_eq!(v["field"], field, "{bad}");
        let (st, v) = post(&app, "/api/play", json!({ "position": bad, "move": "5cw" }));
        assert_eq!(
            (st, v["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(&*expected))
        );
    }
    let long = "giuthi ".to_string() + &"1,".repeat(3000);
    let (st, v) = post(&app, "/api/position", json!({ "position": long }));
    assert_eq!(
        (st, v["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("position"))
    );
    // The query form.
    let (st, v) = get(&app, "/api/position?position=giuthi%201,1/1%20S");
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(v["field"], "board");
    let (st, v) = get(&app, "/api/position");
    assert_eq!(
        (st, v["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("position"))
    );
}

/// Bad bodies and fields: not JSON, not an object, a field missing or of the wrong type,
/// a bad client id, an unknown or malformed job: 4xx naming the field, never a crash.
#[test]
fn malformed_requests_are_4xx_naming_the_field() {
    let app = router(JobLimits::default());
    let ok = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    let cases: Vec<(&str, Option<String>, &str)> = vec![
        ("/api/position", Some("not json".into()), "body"),
        ("/api/position", Some("[1,2]".into()), "body"),
        ("/api/position", Some("{}".into()), "position"),
        (
            "/api/position",
            Some(r#"{"position": 5}"#.into()),
            "position",
        ),
        (
            "/api/play",
            Some(json!({ "position": ok }).to_string()),
            "move",
        ),
        (
            "/api/play",
            Some(json!({ "position": ok, "move": "5xx" }).to_string()),
            "move",
        ),
        (
            "/api/play",
            Some(json!({ "position": ok, "move": "4cw" }).to_string()),
            "move",
        ),
        (
            "/api/play",
            Some(json!({ "position": ok, "move": "pass" }).to_string()),
            "move",
        ),
        (
            "/api/play",
            Some(json!({ "position": ok, "move": "x".repeat(500) }).to_string()),
            "move",
        ),
        (
            "/api/solve",
            Some(json!({ "position": ok }).to_string()),
            "client",
        ),
        (
            "/api/solve",
            Some(json!({ "position": ok, "client": "a b" }).to_string()),
            "client",
        ),
        (
            "/api/solve",
            Some(json!({ "position": ok, "client": "" }).to_string()),
            "client",
        ),
        ("/api/solve/abc/stop", None, "job"),
    ];
    for (uri, body, field) in cases {
        let (st, v) = rt().block_on(send(&app, "POST", uri, body.as_deref()));
        assert_eq!(st, StatusCode::BAD_REQUEST, "{uri} {body:?}: {v}");
        assert_eq!(v["field"], field, "{uri} {body:?}: {v}");
        assert!(v["error"].as_str().unwrap().contains(field), "{v}");
    }
    // The engine's own message for an illegal move.
    let (_, v) = post(&app, "/api/play", json!({ "position": ok, "move": "4cw" }));
    let pos: Position<Giuthi> = ok.parse().unwrap();
    let expected = pos.play_str("4cw").unwrap_err().to_string();
    assert_eq!(v["error"], expected);
    let (st, v) = get(&app, "/api/solve/987654");
    assert_eq!(
        (st, v["field"].as_str()),
        (StatusCode::NOT_FOUND, Some("job")),
        "{v}"
    );
    assert!(v["error"].as_str().unwrap().contains("987654"), "{v}");
    // A known address asked with the wrong method: 405 with the JSON error body.
    for (method, uri) in [
        ("GET", "/api/play"),
        ("GET", "/api/solve"),
        ("DELETE", "/api/position"),
    ] {
        let (st, v) = rt().block_on(send(&app, method, uri, None));
        assert_eq!(st, StatusCode::METHOD_NOT_ALLOWED, "{method} {uri}: {v}");
        let e = v["error"].as_str().unwrap_or_default();
        assert!(e.contains(method) && e.contains(uri), "{method} {uri}: {v}");
    }
    let (st, v) = get(&app, "/api/solve/-1");
    assert_eq!(
        (st, v["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("job"))
    );
    let (st, _) = get(&app, "/no/such/page");
    assert_eq!(st, StatusCode::NOT_FOUND);
    // Kiothi's opening cannot be solved (K3): a 400 naming the position.
    let k = "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1";
    let (st, v) = post(&app, "/api/solve", json!({ "position": k, "client": "c1" }));
    assert_eq!(
        (st, v["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("position"))
    );
}

/// The page and its modules are served with their types.
#[test]
fn page_files_are_served() {
    let app = router(JobLimits::default());
    for (path, ty) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/api.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let resp = rt().block_on(async {
            app.clone()
                .oneshot(Request::get(path).body(Body::empty()).unwrap())
                .await
                .unwrap()
        });
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        let t = resp.headers()["content-type"].to_str().unwrap().to_string();
        assert!(t.starts_with(ty), "{path}: {t}");
    }
}

/// G3-G7: play answers the engine's position and a trace that replays to it; the view
/// lists the legal moves of `Position::legal_moves` and the endless sowings apart (G7).
#[test]
fn g4_play_answers_the_engines_position_and_trace() {
    let app = router(JobLimits::default());
    let text = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    let pos: Position<Giuthi> = text.parse().unwrap();
    let (st, v) = post(&app, "/api/position", json!({ "position": text }));
    assert_eq!(st, StatusCode::OK);
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, legal);
    for mv in &legal {
        let (st, r) = post(&app, "/api/play", json!({ "position": text, "move": mv }));
        assert_eq!(st, StatusCode::OK);
        let after = pos.play_str(mv).unwrap();
        assert_eq!(r["position"]["position"], after.to_string());
        let t = pos.rules.sow_trace(&pos.state, mv.parse().unwrap());
        assert_eq!(r["trace"]["laps"].as_array().unwrap().len(), t.laps.len());
        let (board, _) = t
            .replay(
                &pos.state.pits[..8]
                    .iter()
                    .map(|&x| x as u32)
                    .collect::<Vec<_>>(),
            )
            .unwrap();
        let pits: Vec<u32> = r["position"]["pits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(pits, board);
    }
    // An endless sowing (G7) is listed apart, not as a move: 2x2 with 2 seeds in every pit.
    let text = "giuthi 2,2/2,2 S 0,0";
    let (_, v) = post(&app, "/api/position", json!({ "position": text }));
    let p: Position<Giuthi> = text.parse().unwrap();
    let n_legal = p.legal_moves().len();
    let excluded = v["excluded"].as_array().unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), n_legal);
    assert_eq!(n_legal + excluded.len(), 4, "{v}");
    for x in excluded {
        let err = p
            .play_str(x["move"].as_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("endless"), "{err}");
    }
    // Kiothi plays through the API, Kalah too.
    let k = "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/0,0,0,0,5s,5s,5s,5s,5s,5s S 0,0 open1";
    let (st, r) = post(
        &app,
        "/api/play",
        json!({ "position": k, "move": "r14,15:10=5,11=5" }),
    );
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(
        r["position"]["position"],
        "kiothi 0,0,0,0,5s,5s,5s,5s,5s,5s/5,5,0,0,0s,0s,5s,5s,5s,5s N 0,0 open2"
    );
    let (st, r) = post(
        &app,
        "/api/play",
        json!({ "position": "kalah 2,2,2/2,2,2 S 0,0", "move": "4" }),
    );
    assert_eq!(st, StatusCode::OK);
    assert_eq!(r["trace"]["finish"], "store");
}

/// The JSON of `giuthi solve --json ARGS` (the built binary).
fn solve_json(args: &[&str]) -> Value {
    let (code, out, err) = crate::common::run_cli(&[&["solve", "--json"], args].concat());
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// Issue 12 part 1 shapes: a job's `lo`/`hi` (exact) and `lo_range`/`hi_range` are
/// written as `solve --json` writes them (numbers, `"+inf"`/`"-inf"` only for infinities),
/// and a job the retrograde pass solved reports its work: the graph's states, as
/// `nodes` and `answer.retro_states` (it reported 0 nodes).
#[test]
fn v2_job_values_have_the_shapes_of_solve_json() {
    let app = router(JobLimits::default());
    // hi = +inf: the side to move would rather repeat (G10), so the infinity shows too.
    for (text, retro) in [
        ("giuthi 1,0,0,0/1,3,0,0 S 0,2", true),
        ("giuthi 0,1,2/1,0,2 N 1,0", true),
        ("kalah 2,2,2/2,2,2 S 0,0", true),
    ] {
        let (_, v) = post(
            &app,
            "/api/solve",
            json!({ "position": text, "client": "s" }),
        );
        let v = wait_done(&app, v["job"].as_str().unwrap());
        let a = &v["answer"];
        let cli = solve_json(&[text, "--bounds"]);
        for key in ["lo", "hi", "lo_range", "hi_range", "margin", "pv"] {
            assert_eq!(a[key], cli[key], "{text}: {key}: job {v}, solve {cli}");
        }
        assert_eq!(a["best"], cli["best_moves"], "{text}");
        if retro {
            let states = a["retro_states"].as_u64().expect("retro_states");
            assert!(states > 0, "{v}");
            assert_eq!(v["nodes"], json!(states), "{v}");
            // `solve --json` counts the graph's states as its nodes too.
            assert_eq!(cli["nodes"], json!(states), "{cli}");
        }
    }
    // A job that searched (no retrograde pass): its nodes, no retro_states.
    let app = router(JobLimits {
        retro_states: 0,
        ..JobLimits::default()
    });
    let text = "giuthi 0,1,2/1,0,2 N 1,0";
    let (_, v) = post(
        &app,
        "/api/solve",
        json!({ "position": text, "client": "s" }),
    );
    let v = wait_done(&app, v["job"].as_str().unwrap());
    assert!(v["answer"]["retro_states"].is_null(), "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 0, "{v}");
    let cli = solve_json(&[text, "--bounds", "--retro-states", "0"]);
    for key in ["lo", "hi", "lo_range", "hi_range", "margin"] {
        assert_eq!(v["answer"][key], cli[key], "{key}: {v} {cli}");
    }
}

/// V2-V4, the race (docs/solver.md): a job on a graph of over a million states that the
/// search settles in a few thousand nodes is answered by the search, not the pass (no
/// `retro_states`, its nodes), with the values `solve --bounds --analyze` gives.
#[test]
fn v4_a_job_races_the_pass_against_the_search() {
    let app = router(JobLimits::default());
    let text = "giuthi 1,1,3,1,2/1,1,1,1,1 N 5,6";
    let (_, v) = post(
        &app,
        "/api/solve",
        json!({ "position": text, "client": "s" }),
    );
    let v = wait_done(&app, v["job"].as_str().unwrap());
    assert_eq!(v["state"], "done", "{v}");
    let a = &v["answer"];
    assert!(a["retro_states"].is_null(), "the search answered: {v}");
    assert!(v["nodes"].as_u64().unwrap() < 100_000, "{v}");
    let cli = solve_json(&[text, "--bounds", "--analyze"]);
    for key in ["lo", "hi", "lo_range", "hi_range", "margin", "pv"] {
        assert_eq!(a[key], cli[key], "{key}: job {v}, solve {cli}");
    }
    assert_eq!(a["best"], cli["best_moves"], "{v}");
    let margins = |moves: &Value| -> Vec<(String, i64)> {
        moves
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().into(),
                    m["margin"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(margins(&a["moves"]), margins(&cli["moves"]), "{v} {cli}");
}

fn wait_done(app: &axum::Router, job: &str) -> Value {
    let start = Instant::now();
    loop {
        let (st, v) = get(app, &format!("/api/solve/{job}"));
        assert_eq!(st, StatusCode::OK);
        if v["state"] != "running" {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "solve did not end: {v}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// V2-V4: a background solve's bounds, margin, best moves and every move's margin equal
/// the naive solver's, on positions where repetition decides (lo != hi) and elsewhere.
#[test]
fn v4_solve_job_values_match_the_naive_solver() {
    let app = router(JobLimits::default());
    for text in [
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "giuthi 0,1,2/1,0,2 N 1,0",
        "giuthi:chain=one 2,0,1/1,1,2 S 0,0",
        "kalah 2,2,2/2,2,2 S 0,0",
    ] {
        let (st, v) = post(
            &app,
            "/api/solve",
            json!({ "position": text, "client": "t1" }),
        );
        assert_eq!(st, StatusCode::OK, "{v}");
        let v = wait_done(&app, v["job"].as_str().unwrap());
        assert_eq!(v["state"], "done", "{v}");
        let a = &v["answer"];
        let any: AnyPosition = text.parse().unwrap();
        let (margin, moves, lo, hi) = giuthi::with_position!(&any, p => {
            let n = naive_solve(p, 100_000).unwrap();
            (n.margin, n.moves.iter().map(|(m, v)| (m.to_string(), *v)).collect::<Vec<_>>(),
             giuthi::value::score_json(n.bounds.lo), giuthi::value::score_json(n.bounds.hi))
        });
        assert_eq!(a["margin"], margin, "{text}");
        assert_eq!((&a["lo"], &a["hi"]), (&lo, &hi), "{text}");
        assert_eq!(
            (&a["lo_range"], &a["hi_range"]),
            (&json!([lo, lo]), &json!([hi, hi])),
            "{text}"
        );
        let got: Vec<(String, i32)> = a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["margin"].as_i64().unwrap() as i32,
                )
            })
            .collect();
        assert_eq!(got, moves, "{text}");
        let best: Vec<String> = moves
            .iter()
            .filter(|m| m.1 == margin)
            .map(|m| m.0.clone())
            .collect();
        let got_best: Vec<String> = a["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert_eq!(got_best, best, "{text}");
        assert!(a["repetition"].as_str().unwrap().len() > 20);
    }
}

/// A solve stops on request with the ranges proven so far (never shown as exact); a
/// client's new solve stops its old one; a second client beyond the limit is refused; the
/// reaper stops a solve nobody polls.
#[test]
fn solves_are_bounded_and_stop() {
    let limits = JobLimits {
        max_running: 1,
        ..JobLimits::default()
    };
    let app = router(limits);
    // The 2x6x3 start takes minutes without tables.
    let big = "giuthi 3,3,3,3,3,3/3,3,3,3,3,3 S 0,0";
    let (_, a) = post(
        &app,
        "/api/solve",
        json!({ "position": big, "client": "a" }),
    );
    assert_eq!(a["state"], "running");
    let (st, v) = post(
        &app,
        "/api/solve",
        json!({ "position": big, "client": "b" }),
    );
    assert_eq!(st, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    // The same client again: the old solve is stopped, the new one runs.
    let (st, a2) = post(
        &app,
        "/api/solve",
        json!({ "position": big, "client": "a" }),
    );
    assert_eq!(st, StatusCode::OK, "{a2}");
    let old = wait_done(&app, a["job"].as_str().unwrap());
    assert_eq!(old["state"], "stopped");
    assert!(old["stopped_by"].as_str().unwrap().contains("newer"));
    assert!(old["answer"]["margin"].is_null());
    let (st, _) = post(
        &app,
        &format!("/api/solve/{}/stop", a2["job"].as_str().unwrap()),
        json!({}),
    );
    assert_eq!(st, StatusCode::OK);
    let v = wait_done(&app, a2["job"].as_str().unwrap());
    assert_eq!(v["state"], "stopped");
    assert!(v["answer"]["lo_range"].is_array(), "{v}");
    // The reaper: no poll within `idle` stops the solve; the time limit stops it too.
    let jobs = Arc::new(Jobs::new(JobLimits {
        idle: Duration::from_millis(50),
        ..JobLimits::default()
    }));
    let pos: Position<Giuthi> = big.parse().unwrap();
    let job = jobs.start(&pos, "c").unwrap();
    std::thread::sleep(Duration::from_millis(120));
    jobs.reap();
    let id: u64 = job.to_json()["job"].as_str().unwrap().parse().unwrap();
    let start = Instant::now();
    while jobs.poll(id).unwrap().to_json()["state"] == "running" {
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(job.to_json()["stopped_by"]
        .as_str()
        .unwrap()
        .contains("reaper"));
    let jobs = Arc::new(Jobs::new(JobLimits {
        time_limit: Duration::from_millis(50),
        ..JobLimits::default()
    }));
    let job = jobs.start(&pos, "c").unwrap();
    std::thread::sleep(Duration::from_millis(120));
    jobs.reap();
    let start = Instant::now();
    while job.to_json()["state"] == "running" {
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(job.to_json()["stopped_by"]
        .as_str()
        .unwrap()
        .contains("time limit"));
}

/// `giuthi serve`: bad options are usage errors (exit 2) naming the option; a good start
/// prints the address to open, on the loopback by default, and answers there.
#[test]
fn serve_command_options_and_address() {
    let bin = env!("CARGO_BIN_EXE_giuthi");
    let out = std::process::Command::new(bin)
        .args(["serve", "--tb", "/no/such/folder/for/giuthi"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--tb /no/such/folder/for/giuthi: no such folder"));
    for bad in [
        ["--port", "70000"],
        ["--host", "localhost:1"],
        ["--threads", "0"],
        ["--hash", "0"],
        ["--time-limit", "0"],
        ["--time-limit", "-1"],
        ["--time-limit", "1e9"],
    ] {
        let out = std::process::Command::new(bin)
            .arg("serve")
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(bad[0]),
            "{bad:?}"
        );
    }
    let mut child = std::process::Command::new(bin)
        .args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let addr = crate::common::served_address(&mut child);
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    // One request on the printed address: the page.
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    s.write_all(b"GET / HTTP/1.0\r\nHost: x\r\n\r\n").unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        resp.starts_with("HTTP/1.0 200") || resp.starts_with("HTTP/1.1 200"),
        "{resp}"
    );
    assert!(resp.contains("analysis board"));
}

/// Every snapshot of a job, polled until it ends.
fn snapshots(app: &axum::Router, job: &str) -> Vec<Value> {
    let start = Instant::now();
    let mut out = Vec::new();
    loop {
        let (st, v) = get(app, &format!("/api/solve/{job}"));
        assert_eq!(st, StatusCode::OK);
        let running = v["state"] == "running";
        out.push(v);
        if !running {
            return out;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "job {job} ran on"
        );
        std::thread::sleep(Duration::from_millis(3));
    }
}

/// Checks the marks of a heuristic snapshot: a move marked exact has a margin and no eval
/// (and must equal `exact`'s value for it), one not marked has an eval and no margin.
fn check_heuristic(h: &Value, exact: &[(String, i32)]) -> (usize, usize) {
    assert_eq!(h["label"], "heuristic, not proven", "{h}");
    assert!(h["depth"].as_u64().unwrap() >= 1, "{h}");
    let (mut proven, mut not) = (0, 0);
    for m in h["moves"].as_array().unwrap() {
        let name = m["move"].as_str().unwrap();
        if m["exact"] == true {
            let want = exact.iter().find(|e| e.0 == name).unwrap().1;
            assert_eq!(m["margin"], want, "{name} labelled exact in {h}");
            assert!(m.get("eval").is_none());
            proven += 1;
        } else {
            assert_eq!(m["exact"], false, "{h}");
            assert!(m["eval"].is_f64() || m["eval"].is_i64(), "{h}");
            assert!(
                m.get("margin").is_none(),
                "{name} has a margin but is not exact: {h}"
            );
            not += 1;
        }
    }
    (proven, not)
}

/// Every move's exact margin (V4) by the alpha-beta solver.
fn alpha_beta_values<R: giuthi::Rules>(p: &Position<R>) -> Vec<(String, i32)> {
    let s = giuthi::solve::alphabeta::Solver::new(p.rules.clone(), Default::default());
    let values = s.analyze(p).unwrap();
    values.iter().map(|(m, v)| (m.to_string(), *v)).collect()
}

/// Anytime values (docs/serve.md): a job forced through the anytime driver (no retrograde
/// pass, no first look) shows the heuristic values of every move while the solver works,
/// and labels a value exact only when it is proven: every move ever marked exact, in a
/// snapshot or at the end, has the margin of the alpha-beta solver (V4), which the naive
/// solver confirms where it can.
#[test]
fn v4_anytime_job_labels_exact_only_what_is_proven() {
    let app = router(JobLimits {
        retro_states: 0,
        first_look: Duration::ZERO,
        ..JobLimits::default()
    });
    let (mut snaps_with_values, mut proven_seen, mut heuristic_seen) = (0, 0, 0);
    for text in [
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "giuthi 2,2,2,2/2,2,2,2 S 0,0",
        "giuthi 3,3,3,3/3,3,3,3 S 0,0",
        "kalah 3,3,3/3,3,3 S 0,0",
        "kalah 4,4,4/4,4,4 S 0,0",
        "kiothi 0,0,0,0,0,0,0,2s,1,3/0,0,0,0,0,1,0,0,2,11 S 0,0 play",
    ] {
        let any: AnyPosition = text.parse().unwrap();
        let exact = giuthi::with_position!(&any, p => alpha_beta_values(p));
        if let Ok(n) = giuthi::with_position!(&any, p => naive_solve(p, 200_000)
            .map(|n| n.moves.iter().map(|(m, v)| (m.to_string(), *v)).collect::<Vec<_>>()))
        {
            assert_eq!(n, exact, "{text}: naive and alpha-beta disagree");
        }
        let (st, v) = post(
            &app,
            "/api/solve",
            json!({ "position": text, "client": "h" }),
        );
        assert_eq!(st, StatusCode::OK, "{v}");
        let snaps = snapshots(&app, v["job"].as_str().unwrap());
        for s in &snaps {
            let a = &s["answer"];
            if !a["heuristic"].is_null() {
                snaps_with_values += 1;
                let (p, h) = check_heuristic(&a["heuristic"], &exact);
                proven_seen += p;
                heuristic_seen += h;
            }
            if !a["moves"].is_null() {
                let got: Vec<(String, i32)> = a["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| {
                        (
                            m["move"].as_str().unwrap().to_string(),
                            m["margin"].as_i64().unwrap() as i32,
                        )
                    })
                    .collect();
                assert_eq!(got, exact, "{text}");
            }
        }
        let last = snaps.last().unwrap();
        assert_eq!(last["state"], "done", "{last}");
        let best = exact.iter().map(|e| e.1).max().unwrap();
        assert_eq!(last["answer"]["margin"], best, "{text}");
    }
    // The sample must show heuristic values, or the test proves little.
    eprintln!(
        "{snaps_with_values} snapshots with values: {proven_seen} proven, {heuristic_seen} heuristic"
    );
    assert!(
        snaps_with_values > 0 && heuristic_seen > 0,
        "{snaps_with_values} snapshots, {proven_seen} proven and {heuristic_seen} heuristic values"
    );
}

/// On a board too big to solve within the page's bounds (the 2x8x8 start), the job
/// publishes the anytime engine's values of every legal move, marked not proven (an
/// eval in seeds, the depth, no margin); stopped, it keeps them so marked and claims no
/// exact value.
#[test]
fn big_board_job_shows_heuristic_values_marked_not_proven() {
    let app = router(JobLimits::default());
    let big = "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0";
    let (_, view) = post(&app, "/api/position", json!({ "position": big }));
    let legal = view["moves"].as_array().unwrap().len();
    let (st, v) = post(
        &app,
        "/api/solve",
        json!({ "position": big, "client": "big" }),
    );
    assert_eq!(st, StatusCode::OK, "{v}");
    let job = v["job"].as_str().unwrap().to_string();
    // The first job of a server is job 1.
    assert_eq!(job, "1");
    let start = Instant::now();
    let h = loop {
        let (_, v) = get(&app, &format!("/api/solve/{job}"));
        assert_eq!(v["state"], "running", "{v}");
        // A running job always says what is proven, even before the exact search reports.
        assert!(
            v["progress"]["lo"].is_array() && v["progress"]["hi"].is_array(),
            "{v}"
        );
        if !v["answer"]["heuristic"].is_null() {
            break v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no heuristic values: {v}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let a = &h["answer"];
    if h["progress"]["lo"] == json!(["-inf", "+inf"]) {
        assert_eq!(h["progress"]["depth"], a["heuristic"]["depth"], "{h}");
    }
    assert!(a["margin"].is_null() && a["moves"].is_null(), "{h}");
    assert_eq!(a["heuristic"]["moves"].as_array().unwrap().len(), legal);
    let (proven, not) = check_heuristic(&a["heuristic"], &[]);
    assert_eq!((proven, not), (0, legal));
    let (st, _) = post(&app, &format!("/api/solve/{job}/stop"), json!({}));
    assert_eq!(st, StatusCode::OK);
    let v = wait_done(&app, &job);
    assert_eq!(v["state"], "stopped", "{v}");
    assert!(
        v["answer"]["margin"].is_null() && v["answer"]["moves"].is_null(),
        "{v}"
    );
    check_heuristic(&v["answer"]["heuristic"], &[]);
}

/// A solve on a board whose `--tb` tables are corrupt is a 500 naming the file and the
/// checksum (a fault of the server's tables, not a busy server: it was a 503, the code of
/// "at the limit of running solves"; the session-15 trial).
#[test]
fn a_corrupt_table_is_a_500_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = crate::common::run_cli(&[
        "tb",
        "gen",
        "--pits",
        "3",
        "--max-seeds",
        "6",
        "--out",
        dir.path().to_str().unwrap(),
        "--quiet",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let layer = dir.path().join("giuthi-n3-s006.tb");
    let mut bytes = std::fs::read(&layer).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&layer, bytes).unwrap();
    let app = router(JobLimits {
        tb: Some(dir.path().to_path_buf()),
        ..JobLimits::default()
    });
    let (st, v) = post(
        &app,
        "/api/solve",
        json!({ "position": "giuthi 2,1,0/1,1,1 S 0,0", "client": "a" }),
    );
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    let msg = v.to_string();
    assert!(
        msg.contains("giuthi-n3-s006.tb") && msg.contains("checksum"),
        "{v}"
    );
}
