//! Helpers shared by the integration tests.

#![allow(dead_code)]

pub mod naive_sower;

use giuthi::rules::giuthi::{Giuthi, GiuthiState, Variant, MAX_PITS_PER_ROW};
use giuthi::rules::kalah::Kalah;
use giuthi::rules::Rules;
use giuthi::Side;
use naive_sower::NaiveChild;

/// Every named variant of N1, as written in notation (the default first).
pub const VARIANTS: [&str; 8] = [
    "",
    "origin=skip",
    "chain=one",
    "chain=none",
    "end=empty-row",
    "chain=one,origin=skip",
    "chain=none,end=empty-row",
    "chain=one,origin=skip,end=empty-row",
];

/// A Giuthi state from a board in RULES.md order.
pub fn giuthi_state(board: &[u32], south: bool) -> GiuthiState {
    let mut pits = [0u8; 2 * MAX_PITS_PER_ROW];
    for (p, &x) in board.iter().enumerate() {
        pits[p] = u8::try_from(x).expect("a pit holds at most 255 seeds");
    }
    GiuthiState {
        pits,
        turn: if south { Side::South } else { Side::North },
    }
}

/// The engine's children in the naive sower's terms.
pub fn engine_children<R: Rules>(rules: &R, s: &R::State) -> Vec<NaiveChild> {
    let mut out = Vec::new();
    rules.children(s, &mut out);
    let pits = 2 * rules.pits_per_row();
    out.iter()
        .map(|c| NaiveChild {
            mv: c.mv.to_string(),
            board: (0..pits).map(|p| rules.seeds(&c.state, p)).collect(),
            south_next: rules.turn(&c.state) == Side::South,
            captured: u32::from(c.captured),
        })
        .collect()
}

/// The Giuthi rules for `n` pits and a variant string.
pub fn giuthi(n: usize, variant: &str) -> Giuthi {
    let v: Variant = variant.parse().expect("variant parses");
    Giuthi::new(n, v).expect("board size")
}

/// The Kalah rules for `m` pits.
pub fn kalah(m: usize) -> Kalah {
    Kalah::new(m).expect("board size")
}

/// A small seeded generator (a 64-bit LCG with a mixing output) for the random-position
/// tests: the same seed gives the same positions on every machine.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51afd7ed558ccd);
        x ^ (x >> 29)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// South or North, evenly.
    pub fn side(&mut self) -> giuthi::Side {
        if self.below(2) == 0 {
            giuthi::Side::South
        } else {
            giuthi::Side::North
        }
    }
}

/// A random Kiothi play-phase state (K4-K12) of `warriors` warriors dealt over the 20
/// pits: each occupied pit is a nki (K8) with probability 1/3, each pit stale with 1/3,
/// either side to move. The random-position tests of Kiothi share it.
pub fn kiothi_play_state(rng: &mut Rng, warriors: u64) -> giuthi::rules::kiothi::KiothiState {
    use giuthi::rules::kiothi::{KiothiState, Phase, PITS};
    let mut pits = [0u8; PITS];
    for _ in 0..warriors {
        pits[rng.below(PITS as u64) as usize] += 1;
    }
    let (mut nki, mut stale) = (0u32, 0u32);
    for (p, &w) in pits.iter().enumerate() {
        if w > 0 && rng.below(3) == 0 {
            nki |= 1 << p;
        }
        if rng.below(3) == 0 {
            stale |= 1 << p;
        }
    }
    KiothiState {
        pits,
        nki,
        stale,
        turn: rng.side(),
        phase: Phase::Play,
    }
}

/// Replays the principal variation of `sol` from `pos` and returns the final margin for
/// the root mover (0 when it ends in a repetition, G10); panics where a move is illegal,
/// the line goes on after a repetition, or stops before the game ends.
pub fn replay_pv<R: giuthi::Rules>(
    pos: &giuthi::Position<R>,
    sol: &giuthi::solve::alphabeta::Solution<R>,
) -> i32 {
    let mover = pos.turn();
    let mut p = pos.clone();
    let mut seen = vec![p.state];
    for (i, mv) in sol.pv.iter().enumerate() {
        p = p
            .play(*mv)
            .unwrap_or_else(|e| panic!("{pos}: pv move {i} {mv}: {e}"));
        if seen.contains(&p.state) {
            assert_eq!(i + 1, sol.pv.len(), "{pos}: pv goes on after a repetition");
            return 0;
        }
        seen.push(p.state);
    }
    assert!(p.is_over(), "{pos}: pv stops before the end: {p}");
    let s = p.final_scores();
    s[mover] - s[mover.opponent()]
}

/// Runs the built `giuthi` binary with `args`; returns (exit code, stdout, stderr).
/// Panics when it is killed by a signal, writes non-UTF-8, or panics itself.
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_giuthi"))
        .args(args)
        .output()
        .expect("the binary runs");
    let code = out.status.code().expect("exited normally, not by a signal");
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert!(
        !stderr.contains("panicked"),
        "giuthi {args:?} panicked: {stderr}"
    );
    (code, stdout, stderr)
}

/// The `HOST:PORT` that `giuthi serve` prints on the first line of its stdout (`serving on
/// http://HOST:PORT/`), read from the child's piped stdout (taken from the child).
pub fn served_address(child: &mut std::process::Child) -> String {
    use std::io::BufRead;
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout piped"))
        .read_line(&mut line)
        .expect("serve prints its address");
    line.split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_default()
        .to_string()
}

/// Waits up to 60 s until process `pid` catches signal `sig` (its bit in `SigCgt` of
/// `/proc/PID/status`: the handler is installed); false if it never does or the process
/// is gone. A test that signals a child it just spawned waits for this first: on a loaded
/// machine the child may not have reached its handler yet, and the signal would kill it.
pub fn wait_for_handler(pid: u32, sig: i32) -> bool {
    let bit = 1u64 << (sig - 1);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            return false;
        };
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|h| u64::from_str_radix(h.trim(), 16).ok())
            .unwrap_or(0);
        if caught & bit != 0 {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    false
}

/// Runs the binary with `args`, sends it `sig` once its handler is in (a loaded machine
/// may start the child late: [`wait_for_handler`]) and `delay` has passed, and returns
/// its output.
pub fn run_cli_signalled(
    args: &[&str],
    sig: i32,
    delay: std::time::Duration,
) -> std::process::Output {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_giuthi"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("giuthi runs");
    assert!(
        wait_for_handler(child.id(), sig),
        "{args:?}: no handler of signal {sig} within 60 s"
    );
    std::thread::sleep(delay);
    // SAFETY: a plain kill(2) of the child we spawned, which has not been waited for.
    #[allow(unsafe_code)]
    let r = unsafe { libc::kill(child.id() as libc::pid_t, sig) };
    assert_eq!(r, 0);
    child.wait_with_output().expect("giuthi ends")
}

/// A solver with the smallest compact transposition table (1 GiB: 8-byte slots,
/// src/solve/tt.rs) on 4 KB pages, so a test makes only the pages it touches.
pub fn compact_solver<R: Rules>(rules: &R) -> giuthi::solve::alphabeta::Solver<R> {
    let s = giuthi::solve::alphabeta::Solver::new(
        rules.clone(),
        giuthi::solve::alphabeta::SolverOptions {
            hash_mb: 1024,
            huge_pages: false,
            ..Default::default()
        },
    );
    assert!(s.table().is_compact());
    s
}
