//! The fresh-user trial of session 13: each find with a test that fails without its fix
//! (the built binary, STYLE.md tests: CLI).

use crate::common::run_cli as giuthi;

/// D1 (N1, V3): a captured count the engine's 16-bit totals cannot carry (32,768 and up
/// gave `margin +32768` with "no legal move" on a board with moves, and lost seeds in
/// `play`) is refused with the field, the side and the limit, exit 2, in every game; the
/// largest count taken still gives exact totals.
#[test]
fn n1_captured_counts_past_the_limit_are_refused_and_the_limit_is_exact() {
    for pos in [
        "giuthi 2,2,0,0/2,2,0,0 S 65535,0",
        "giuthi 2,2,0,0/2,2,0,0 S 0,40000",
        "giuthi 2,2,0,0/2,2,0,0 S 10001,0",
        "kalah 1,1,1,1/1,1,1,1 S 65535,0",
    ] {
        let (code, _, err) = giuthi(&["solve", pos]);
        assert_eq!(code, 2, "{pos}: {err}");
        assert!(
            err.contains("larger than 10000")
                && (err.contains("captured") || err.contains("stores")),
            "{pos}: {err}"
        );
    }
    // At the limit: South's lead ends the game level on a repetition or counts in full.
    let (code, out, err) = giuthi(&[
        "play",
        "giuthi 1,0,0,0/1,3,0,0 S 10000,0",
        "5cw",
        "pass",
        "4cw",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "giuthi 1,0,0,0/0,0,0,0 N 10004,0", "{out}");
    assert!(
        err.contains("South 10004, North 1: South wins by 10003"),
        "{err}"
    );
    let (code, out, err) = giuthi(&["solve", "giuthi 2,2,0,0/2,2,0,0 S 10000,0", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let small = giuthi(&["solve", "giuthi 2,2,0,0/2,2,0,0 S 100,0", "--json"]).1;
    let w: serde_json::Value = serde_json::from_str(&small).unwrap();
    // A lead of 100 or of 10,000 decides the same way (a repetition keeps the lead, G10).
    assert_eq!(v["result"], w["result"], "{out} / {small}");
    assert_eq!(v["best_moves"], w["best_moves"], "{out} / {small}");
    assert!(!v["best_moves"].as_array().unwrap().is_empty(), "{out}");
}

/// D2: `solve --checkpoint F` locks on `F.lock` and removes it when done; a file of the
/// user's of that name (not empty, or a folder) is never taken or removed: exit 2,
/// naming it, and the file is as it was.
#[test]
fn checkpoint_never_removes_a_users_file_named_like_its_lock() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck6");
    let lock = dir.path().join("ck6.lock");
    std::fs::write(&lock, b"my notes\n").unwrap();
    let (code, _, err) = giuthi(&[
        "solve",
        "giuthi 3,0,2,1,4/0,2,5,1,2 N 3,1",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--retro-states",
        "0",
        "--quiet",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("ck6.lock") && err.contains("not a giuthi lock file"),
        "{err}"
    );
    assert_eq!(std::fs::read(&lock).unwrap(), b"my notes\n");
    assert!(!ck.exists());
    // An empty one (a crashed run's) is taken and removed as before.
    std::fs::write(&lock, b"").unwrap();
    let (code, _, err) = giuthi(&[
        "solve",
        "giuthi 1,0,0,0/1,3,0,0 S 0,2",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!lock.exists());
}
