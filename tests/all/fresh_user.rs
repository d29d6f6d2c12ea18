//! Issue 16, "nothing lost, nothing ambiguous": what a fresh user tripped over, each find
//! with a test that fails without its fix (the built binary, STYLE.md tests: CLI).

use std::path::Path;
use std::process::{Command, Output};

/// Runs the binary in the current folder.
fn giuthi(args: &[&str]) -> Output {
    giuthi_in(Path::new("."), args)
}

/// Runs the binary in `dir`.
fn giuthi_in(dir: &Path, args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_giuthi"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("panicked"),
        "giuthi {args:?} panicked: {o:?}"
    );
    o
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const STARTS: &str =
    "giuthi 2,2,2,2,2/2,2,2,2,2 S 0,0 | lo=+20 hi=+inf margin=+20 result=win best=7cw,7ccw\n";

/// A process id no process has (beyond any Linux `pid_max`).
const DEAD_PID: u32 = 0x7fff_fff0;

// ---------------------------------------------------------------- 1. plot

/// Item 1: `plot` without `--out` used to overwrite `docs/margins.svg` of the folder it
/// ran in; it now prints the SVG and touches no file.
#[test]
fn plot_without_out_writes_stdout_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    let tracked = dir.path().join("docs/margins.svg");
    std::fs::write(&tracked, "the user's file").unwrap();
    std::fs::write(dir.path().join("starts.txt"), STARTS).unwrap();
    let o = giuthi_in(dir.path(), &["plot", "starts.txt"]);
    assert!(o.status.success(), "{o:?}");
    assert!(stdout(&o).starts_with("<svg"), "{o:?}");
    assert!(stdout(&o).contains("Giuthi 2x5"));
    assert_eq!(
        std::fs::read_to_string(&tracked).unwrap(),
        "the user's file"
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["docs", "starts.txt"]);
}

/// Item 12: a plot that cannot be written names `--out` and the file.
#[test]
fn plot_to_an_unwritable_place_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("starts.txt");
    std::fs::write(&input, STARTS).unwrap();
    let o = giuthi(&[
        "plot",
        input.to_str().unwrap(),
        "--out",
        "/proc/giuthi-m.svg",
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        stderr(&o).contains("--out /proc/giuthi-m.svg"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------- 2. stale temporaries

/// Item 2: a plot removes the temporaries of its file left by dead processes, and keeps
/// those of running ones.
#[test]
fn plot_removes_the_stale_temporaries_of_dead_writers() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("starts.txt");
    std::fs::write(&input, STARTS).unwrap();
    let out = dir.path().join("m.svg");
    let stale = dir.path().join(format!("m.svg.tmp.{DEAD_PID}"));
    let live = dir.path().join(format!("m.svg.tmp.{}", std::process::id()));
    std::fs::write(&stale, "half").unwrap();
    std::fs::write(&live, "being written").unwrap();
    let o = giuthi(&[
        "plot",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    assert!(!stale.exists());
    assert!(live.exists(), "a running process's temporary is kept");
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("<svg"));
}

/// Item 2: a checkpoint write removes the temporaries a killed solve left (they were
/// 177-196 MB each with `--hash 256`).
#[test]
fn checkpoint_removes_the_stale_temporaries_of_dead_writers() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.bin");
    let stale = dir.path().join(format!("ck.bin.tmp.{DEAD_PID}"));
    let other = dir.path().join(format!("other.bin.tmp.{DEAD_PID}"));
    std::fs::write(&stale, "half a checkpoint").unwrap();
    std::fs::write(&other, "not ours").unwrap();
    let o = giuthi(&[
        "solve",
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "--hash",
        "1",
        "--checkpoint",
        ck.to_str().unwrap(),
        // The search writes a checkpoint; the retrograde pass would solve it outright.
        "--retro-states",
        "0",
    ]);
    assert!(o.status.success(), "{o:?}");
    assert!(ck.exists());
    assert!(!stale.exists());
    assert!(other.exists(), "another file's temporary is not touched");
}

/// Item 2: `tb gen` removes the temporaries of layers and partial files of dead
/// generations in its folder (and the pid-less `.tb.tmp` of older builds).
#[test]
fn tb_gen_removes_the_stale_temporaries_of_dead_writers() {
    let dir = tempfile::tempdir().unwrap();
    let stale = [
        format!("giuthi-n4-s009.tb.tmp.{DEAD_PID}"),
        format!("giuthi-n4-s003.partial.tmp.{DEAD_PID}"),
        "giuthi-n4-s008.tb.tmp".to_string(),
    ];
    for s in &stale {
        std::fs::write(dir.path().join(s), "half a layer").unwrap();
    }
    let o = gen(dir.path());
    assert!(o.status.success(), "{o:?}");
    for s in &stale {
        assert!(!dir.path().join(s).exists(), "{s}");
    }
}

fn gen(dir: &Path) -> Output {
    giuthi(&[
        "tb",
        "gen",
        "--pits",
        "4",
        "--max-seeds",
        "6",
        "--out",
        dir.to_str().unwrap(),
        "--threads",
        "1",
        "--quiet",
    ])
}

// ---------------------------------------------------------------- 3. the folder's lock

/// Item 3: a second `tb gen` into a folder where one runs is refused at once, saying so
/// (it used to die on a layer the first had renamed away).
#[test]
fn tb_gen_into_a_folder_being_generated_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Hold the folder's lock as a running generation would.
    let lock = giuthi::fsutil::DirLock::try_new(dir.path()).unwrap();
    let o = gen(dir.path());
    assert_eq!(o.status.code(), Some(2), "a usage error: {o:?}");
    let err = stderr(&o);
    assert!(err.contains("another `giuthi tb gen` is running"), "{err}");
    assert!(err.contains("--out "), "names the option: {err}");
    assert!(err.contains(&dir.path().display().to_string()), "{err}");
    assert!(
        !dir.path().join("giuthi-n4-s000.tb").exists(),
        "nothing written"
    );
    drop(lock);
    assert!(gen(dir.path()).status.success());
}

/// A small 2x4 table folder (layers 0..6), generated once per test.
fn tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let o = gen(dir.path());
    assert!(o.status.success(), "{o:?}");
    dir
}

fn json_of(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{o:?}");
    serde_json::from_str(stdout(o).trim()).unwrap_or_else(|e| panic!("{e}: {o:?}"))
}

// ---------------------------------------------------------------- 4. JSON infinities

/// Item 4: `tb probe --json` writes an infinite bound as "+inf" / "-inf" (it was `null`,
/// which also meant "unknown").
#[test]
fn v2_tb_probe_json_writes_infinities_as_strings() {
    let dir = tables();
    let d = dir.path().to_str().unwrap();
    let v = json_of(&giuthi(&[
        "tb",
        "probe",
        d,
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "--json",
    ]));
    assert_eq!(v["lo"], 3, "{v}");
    assert_eq!(v["hi"], "+inf", "{v}");
    assert_eq!(v["margin"], 1);
    assert_eq!(v["pv"][0], "5cw", "the pv stays a plain move list");
    assert_eq!(v["moves"][0]["move"], "5cw", "{v}");
}

// ---------------------------------------------------------------- 5. probe as solve --tb

/// Item 5: where the tables' own V4 check passes its limit, `tb probe` takes every
/// move's V4 value from alpha-beta on the same tables (it used to fail), and the answer
/// is the one of `solve --tb --analyze` and of the tables' check (RULES.md V4).
#[test]
fn v4_tb_probe_past_its_limit_answers_as_solve_with_tables() {
    let dir = tables();
    let d = dir.path().to_str().unwrap();
    for pos in [
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "giuthi 0,1,0,2/1,0,2,0 N 1,1",
        "giuthi 2,0,0,1/0,1,1,1 S 0,0",
    ] {
        let full = json_of(&giuthi(&["tb", "probe", d, pos, "--json"]));
        let o = giuthi(&["tb", "probe", d, pos, "--json", "--v4-limit", "1"]);
        let capped = json_of(&o);
        let solved = json_of(&giuthi(&[
            "solve",
            pos,
            "--tb",
            d,
            "--analyze",
            "--json",
            "--threads",
            "1",
        ]));
        for key in ["margin", "best_moves"] {
            assert_eq!(capped[key], full[key], "{pos} {key}");
            assert_eq!(capped[key], solved[key], "{pos} {key}");
        }
        let values = |v: &serde_json::Value| -> Vec<(String, i64)> {
            v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["move"].as_str().unwrap().to_string(),
                        m["margin"].as_i64().unwrap(),
                    )
                })
                .collect()
        };
        assert_eq!(values(&capped), values(&solved), "{pos}");
        let text = stdout(&giuthi(&["tb", "probe", d, pos, "--v4-limit", "1"]));
        assert!(
            text.contains("alpha-beta on the tables") || !text.contains("<="),
            "{text}"
        );
    }
}

// ---------------------------------------------------------------- 6. --hash

/// Item 6: `--hash 127` says the table it gets (64 MB) instead of silently shrinking.
#[test]
fn hash_not_a_power_of_two_says_the_size_used() {
    let o = giuthi(&[
        "solve",
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "--hash",
        "127",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{o:?}");
    let err = stderr(&o);
    assert!(err.contains("--hash 127") && err.contains("64 MB"), "{err}");
    let o = giuthi(&[
        "solve",
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "--hash",
        "128",
        "--threads",
        "1",
    ]);
    assert!(!stderr(&o).contains("--hash"), "{o:?}");
}

// ---------------------------------------------------------------- 7, 11. missing files

/// Items 7 and 11: a FILE that does not exist is named as such (not "unknown game"), and
/// a missing file or folder is a usage error (exit 2) for every command.
#[test]
fn a_missing_file_or_folder_is_exit_2_everywhere_and_says_so() {
    let missing = "/nonexistent/file.txt";
    for args in [
        vec!["solve", missing],
        vec!["show", missing],
        vec!["moves", missing],
        vec!["analyze", missing],
        vec!["plot", missing],
        vec![
            "tb",
            "probe",
            "/nonexistent",
            "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        ],
        vec!["tb", "stats", "/nonexistent"],
        vec!["tb", "verify", "/nonexistent"],
        vec![
            "solve",
            "giuthi 1,0,0,0/1,3,0,0 S 0,2",
            "--tb",
            "/nonexistent",
        ],
    ] {
        let o = giuthi(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        let err = stderr(&o);
        assert!(err.contains("no such"), "{args:?}: {err}");
        assert!(!err.starts_with("error: field game"), "{args:?}: {err}");
    }
}

/// Item 11: `moves` on a Kiothi opening exits the same with and without `--json` (it
/// was 0 in text and 2 in JSON): a usage error that explains (K3).
#[test]
fn k3_moves_on_an_opening_exits_alike_in_text_and_json() {
    let start = stdout(&giuthi(&["start", "--game", "kiothi"]));
    let start = start.trim();
    let text = giuthi(&["moves", start]);
    let json = giuthi(&["moves", "--json", start]);
    assert_eq!(text.status.code(), Some(2), "{text:?}");
    assert_eq!(json.status.code(), text.status.code());
    assert!(stderr(&text).contains("redistribution"));
    assert_eq!(stderr(&text), stderr(&json));
}

// ---------------------------------------------------------------- 8. tb verify

/// Item 8: a folder holding another set's layers under default names is reported as
/// that, not as a missing layer of a set the folder does not hold.
#[test]
fn tb_verify_names_a_foreign_layer_before_any_missing_layer() {
    let other = tempfile::tempdir().unwrap();
    let o = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "4",
        "--max-seeds",
        "2",
        "--out",
        other.path().to_str().unwrap(),
        "--variant",
        "chain=one",
        "--quiet",
    ]);
    assert!(o.status.success(), "{o:?}");
    let dir = tempfile::tempdir().unwrap();
    for s in 0..=2 {
        std::fs::copy(
            other.path().join(format!("giuthi-chain=one-n4-s00{s}.tb")),
            dir.path().join(format!("giuthi-n4-s00{s}.tb")),
        )
        .unwrap();
    }
    let o = giuthi(&["tb", "verify", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let out = stdout(&o);
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("FAIL"), "{out}");
    assert!(first.contains("giuthi-chain=one-n4-s000.tb"), "{out}");
    assert!(!out.contains("missing layer"), "{out}");
}

/// Item 8: a mismatch line shows the position in notation and the bounds in words
/// (`+inf`), not Rust debug text with 32767; item 12: `1 mismatch`, not `1 mismatches`.
#[test]
fn tb_verify_mismatch_line_reads_as_notation() {
    use giuthi::tablebase::format::{write_layer, LayerFile, HEADER_LEN};
    let dir = tables();
    let path = dir.path().join("giuthi-n4-s002.tb");
    let lf = LayerFile::open(&path, true).unwrap();
    let header = lf.header;
    drop(lf);
    let bytes = std::fs::read(&path).unwrap();
    let mut entries = bytes[HEADER_LEN..].to_vec();
    // Rank 0's low byte changed, the checksum made anew: a wrong entry of a sound file.
    entries[0] = entries[0].wrapping_add(3);
    write_layer(&path, &header, &entries).unwrap();
    let o = giuthi(&["tb", "verify", dir.path().to_str().unwrap(), "--all"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let out = stdout(&o);
    assert!(out.contains("1 mismatch\n"), "{out}");
    let line = out.lines().find(|l| l.contains("rank 0")).unwrap();
    assert!(line.contains("(giuthi "), "{line}");
    assert!(
        line.contains("stored lo ") && line.contains("derived lo "),
        "{line}"
    );
    assert!(!line.contains("32767") && !line.contains("Some("), "{line}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&giuthi(&[
        "tb",
        "verify",
        dir.path().to_str().unwrap(),
        "--all",
        "--json",
    ])))
    .unwrap();
    assert_eq!(v["ok"], false);
    assert!(
        v["tables"][0]["layers"][2]["mismatches"].as_u64() > Some(0),
        "{v}"
    );
}

// ---------------------------------------------------------------- 9. principal variations

/// Item 9: a principal variation in text numbers its plies, names the mover, marks
/// captures (`x4`) and ends with how the game ends; JSON keeps the plain move list.
#[test]
fn pv_text_is_numbered_marked_and_ends_with_the_reason() {
    let pos = "giuthi 1,0,0,0/1,3,0,0 S 0,2";
    let out = stdout(&giuthi(&["solve", pos, "--threads", "1"]));
    let pv = out.lines().find(|l| l.starts_with("pv ")).unwrap();
    assert_eq!(
        pv,
        "pv 1. S 5cw  2. N pass  3. S 4cw x4 [game over: South 4, North 3: South wins by 1]"
    );
    let dir = tables();
    let out = stdout(&giuthi(&["tb", "probe", dir.path().to_str().unwrap(), pos]));
    assert!(
        out.contains("pv       1. S 5cw  2. N pass  3. S 4cw x4 [game over"),
        "{out}"
    );
    // A line that ends in a repetition says so (G10).
    let line = giuthi::line::Line::replay(
        &pos.parse::<giuthi::Position<giuthi::rules::giuthi::Giuthi>>()
            .unwrap(),
        &[],
    );
    assert_eq!(line.to_string(), "[the line stops here; the game goes on]");
}

/// Item 9: a repetition and an extra move are marked (`+`; G5b, G10).
#[test]
fn g10_a_line_into_a_repetition_says_so() {
    use giuthi::line::{Line, LineEnd};
    use giuthi::rules::giuthi::Giuthi;
    use giuthi::{Position, Rules};
    // RULES.md V4 example: 5ccw, North passes, 7cw (an extra move) returns to the root.
    let pos: Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse().unwrap();
    let moves: Vec<_> = ["5ccw", "pass", "7cw"]
        .iter()
        .map(|m| pos.rules.parse_move(m).unwrap())
        .collect();
    let line = Line::replay(&pos, &moves);
    let text = line.to_string();
    assert!(matches!(line.end, LineEnd::Repetition { .. }), "{text}");
    assert!(text.contains("draw by repetition"), "{text}");
    assert_eq!(
        line.plies.iter().filter(|p| p.extra_move).count(),
        text.matches('+').count(),
        "{text}"
    );
}

// ---------------------------------------------------------------- 10. --json everywhere

/// Item 10: `perft`, `show`, `play`, `tb gen` and `tb verify` print JSON with `--json`.
#[test]
fn every_result_command_has_json() {
    let start = "giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0";
    let v = json_of(&giuthi(&[
        "perft", start, "--depth", "2", "--json", "--divide",
    ]));
    assert_eq!(v["nodes"], 76, "{v}");
    let sum: u64 = v["divide"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 76);
    let text = stdout(&giuthi(&["perft", start, "--depth", "2"]));
    assert!(text.contains("perft 2: 76"), "{text}");
    let v = json_of(&giuthi(&["show", start, "--json"]));
    assert_eq!(v["position"], start);
    assert_eq!(v["pits"].as_array().unwrap().len(), 10);
    assert_eq!(v["turn"], "S");
    assert_eq!(v["legal_moves"], 10);
    let v = json_of(&giuthi(&[
        "play",
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "5cw",
        "pass",
        "4cw",
        "--json",
    ]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 3);
    assert_eq!(v["moves"][2]["captured"], 4);
    assert_eq!(v["position"], "giuthi 1,0,0,0/0,0,0,0 N 4,2");
    assert!(
        v["end"].as_str().unwrap().contains("South wins by 1"),
        "{v}"
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let args = [
        "tb",
        "gen",
        "--pits",
        "3",
        "--max-seeds",
        "3",
        "--out",
        d,
        "--json",
    ];
    let v = json_of(&giuthi(&args));
    assert_eq!(v["layers"].as_array().unwrap().len(), 4, "{v}");
    assert_eq!(v["stopped"], serde_json::Value::Null);
    assert_eq!(json_of(&giuthi(&args))["layers"][3]["kept"], true);
    let v = json_of(&giuthi(&["tb", "verify", d, "--json"]));
    assert_eq!(v["ok"], true, "{v}");
}

// ---------------------------------------------------------------- 12. small things

/// Item 12: `tb gen --pits 1` names `--pits`, not the notation's `field board`.
#[test]
fn tb_gen_bad_pits_names_the_option() {
    let o = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "1",
        "--max-seeds",
        "2",
        "--out",
        "/tmp/never-made",
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = stderr(&o);
    assert!(err.contains("--pits 1"), "{err}");
    assert!(!err.contains("field board"), "{err}");
}

/// Item 12: Kiothi speaks of warriors (K5), and one is singular.
#[test]
fn k5_kiothi_messages_say_warriors() {
    let pos = "kiothi 0,0,0,0,0,0,3,0,0,0/0,0,1,0,0,0,0,0,0,0 S 0,0 play";
    let o = giuthi(&["play", pos, "11x1"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = stderr(&o);
    assert!(err.contains("holds 0 warriors"), "{err}");
    assert!(!err.contains("seed"), "{err}");
    let o = giuthi(&["play", "giuthi 1,0,0,0/1,3,0,0 S 0,2", "4cw"]);
    assert!(stderr(&o).contains("holds 1 seed;"), "{o:?}");
}

/// Item 12: an empty checkpoint says it is empty (not "the header says 16 bytes").
#[test]
fn an_empty_checkpoint_says_it_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck.bin");
    std::fs::write(&ck, b"").unwrap();
    let o = giuthi(&[
        "solve",
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "--checkpoint",
        ck.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = stderr(&o);
    assert!(err.contains("the file is empty"), "{err}");
    assert!(!err.contains("16 bytes"), "{err}");
}

/// Item 12: a 2 MB malformed line is not echoed in full.
#[test]
fn a_huge_malformed_position_is_not_echoed_in_full() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("huge.txt");
    let line = format!("giuthi 1,1/1,{} S 0,0\n", "x".repeat(2 << 20));
    std::fs::write(&f, &line).unwrap();
    let o = giuthi(&["solve", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = stderr(&o);
    assert!(err.len() < 2000, "{} bytes of error", err.len());
    assert!(err.contains("characters left out"), "{err}");
}

/// Item 12: the top-level `--help` explains the notation; `-h` stays short.
#[test]
fn n1_top_level_help_has_the_notation_paragraph() {
    let long = stdout(&giuthi(&["--help"]));
    assert!(long.contains("RULES.md N1"), "{long}");
    assert!(long.contains("giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0"), "{long}");
}

/// Item 12: `bestmove --help` and `analyze --help` do not talk about `solve FILE`.
#[test]
fn analyze_and_bestmove_help_speak_of_their_own_input() {
    for cmd in ["analyze", "bestmove"] {
        let help = stdout(&giuthi(&[cmd, "--help"]));
        assert!(!help.contains("solve FILE"), "{cmd}: {help}");
    }
}

// ------------------------------------------------ session 6: the trial's leftovers

/// A negative number for a numeric option is refused by that option's parser, which names
/// it, not reported as an unexpected argument `-5` (clap's default).
#[test]
fn a_negative_option_value_names_the_option() {
    for (args, option) in [
        (
            &["solve", "giuthi 1,1/1,1 S 0,0", "--hash", "-5"][..],
            "--hash",
        ),
        (
            &[
                "bestmove",
                "giuthi 1,1/1,1 S 0,0",
                "--movetime",
                "1",
                "--exact-share",
                "-0.1",
            ][..],
            "--exact-share",
        ),
        (
            &["perft", "giuthi 1,1/1,1 S 0,0", "-d", "-1"][..],
            "--depth",
        ),
    ] {
        let o = giuthi(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        let err = stderr(&o);
        assert!(err.contains(option), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

/// N2: a pit number no board has says so and does not suggest that pit 31 exists on the
/// board at hand; a pit this board lacks names the board's pits.
#[test]
fn n2_a_pit_out_of_range_names_the_pits() {
    let o = giuthi(&["play", "giuthi 1,1,1,1/1,1,1,1 S 0,0", "99cw"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(stderr(&o).contains("no board has pit 99"), "{o:?}");
    let o = giuthi(&["play", "giuthi 1,1,1,1/1,1,1,1 S 0,0", "9cw"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(stderr(&o).contains("pits 0 to 7"), "{o:?}");
}

/// `tb gen --out a/b/c` with `a/b` missing is refused (a typo is not silently created);
/// the last folder alone is made.
#[test]
fn tb_gen_makes_only_the_last_folder() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("typo/tb3");
    let args = [
        "tb",
        "gen",
        "--pits",
        "3",
        "--max-seeds",
        "2",
        "--quiet",
        "--out",
    ];
    let o = giuthi(&[&args[..], &[deep.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(stderr(&o).contains("--out"), "{o:?}");
    assert!(!dir.path().join("typo").exists());
    let o = giuthi(&[&args[..], &[dir.path().join("tb3").to_str().unwrap()]].concat());
    assert!(o.status.success(), "{o:?}");
}

/// A position with more seeds than the tables hold is a usage error (exit 2), as a
/// position of another board is.
#[test]
fn tb_probe_past_the_tables_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tb3");
    let o = giuthi(&[
        "tb",
        "gen",
        "--pits",
        "3",
        "--max-seeds",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let o = giuthi(&[
        "tb",
        "probe",
        out.to_str().unwrap(),
        "giuthi 2,2,2/2,2,2 S 0,0",
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(stderr(&o).contains("holds layers 0 to 2 only"), "{o:?}");
}

/// `match`'s engine spec writes weights with '/', and its error quotes them so.
#[test]
fn match_weights_error_quotes_the_spec_as_written() {
    let o = giuthi(&[
        "match",
        "--start",
        "giuthi 1,1/1,1 S 0,0",
        "--a",
        "engine:weights=1/2",
        "--b",
        "greedy",
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = stderr(&o);
    assert!(
        err.contains("weights \"1/2\"") && err.contains("separated by '/'"),
        "{err}"
    );
}
