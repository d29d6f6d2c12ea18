//! The distribution of the retrograde solver's cost on random Giuthi endgames
//! (docs/solver.md, Retrograde solve).
//!
//! A seeded, deterministic generator draws endgames on boards 2x4 to 2x10, every variant,
//! 6 to 14 seeds on the board (spread at random over the pits), either side to move; each
//! is solved through its reachable graph (`solve::retro::solve_position`: bounds, margin,
//! every move's value, best moves, principal variation) with a cap of `CAP` states, and
//! the thread's CPU time is measured. Prints one line per position with `--verbose`, and a
//! table of the CPU time by graph size.
//!
//! A graph given up by the early exit (`RetroError::TooLargeEarly`: a size bound far above
//! the cap) is counted with the CPU time of giving up; with `--check-early` each such
//! graph is enumerated again without the early exit, up to the cap, and the example
//! fails if one of them fits in it (the early exit's guarantee, docs/solver.md).
//!
//!     cargo run --release --example retro_endgames -- [COUNT] [SEED] [CAP] [--verbose] [--check-early]
//!
//! With `--whole` it measures what `giuthi solve POSITION --threads 1` does instead (docs/
//! performance.md, Session 9), two ways on each endgame: `old`, the retrograde pass up to
//! the cap and then the search (alpha-beta, 64 MB table) from nothing; `race`, the pass
//! raced against the search with node budgets (`retro::solve_position_racing`,
//! `retro::race_budget`, as src/cli/solve.rs does) and then the search from the race's
//! table. It prints the distribution of the CPU time a position (median, 90th and 99th
//! percentile, max) for each, checks that both give the same margin, and counts apart
//! the positions whose search needs more than `SEARCH_NODES` nodes (stopped there, the
//! same for both ways).
//!
//!     cargo run --release --example retro_endgames -- --whole [COUNT] [SEED] [CAP]
//!
//! With `--caps` it compares two caps of the race, `CAP` and `CAP_B` (default 2^24),
//! each as `giuthi solve POSITION --threads 1` does it (the race, then the search from
//! the race's table) with the search stopped at `LIMIT` nodes in all (default 30,000,000):
//! per cap the distribution of the CPU time of the positions it solved, how many it left
//! unsolved at the limit, and each position where one cap solved and the other did not
//! (docs/performance.md, Session 12). Margins solved by both must agree.
//!
//!     cargo run --release --example retro_endgames -- --caps [COUNT] [SEED] [CAP] [CAP_B] [LIMIT]
//!
//! With `--kalah` it measures Kalah instead (the evidence for Kalah's place in
//! `retro::EARLY_EXIT_GAMES`): random Kalah positions, 3 to 8 pits a row, 6 to 40 seeds,
//! each graph enumerated without the early exit up to `CAP` states; it prints the
//! reachable fraction of `retro::board_bound` (least, median) over the graphs of more than
//! `retro::PROBE_STATES` states, the CPU time of the retrograde pass and of the search
//! (alpha-beta) on each, and fails if the search takes longer than the pass on the graphs
//! within the cap that the early exit gives up (`retro::KALAH_BOUND_FACTOR`).

use giuthi::rules::giuthi::{Chain, End, Giuthi, GiuthiState, Origin, Variant};
use giuthi::rules::kalah::Kalah;
use giuthi::rules::Rules;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::solve::retro::{
    board_bound, race_budget, solve_graph_with, solve_position, solve_position_racing, RetroError,
    PROBE_STATES,
};
use giuthi::{BySide, Position, Side};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51afd7ed558ccd);
        x ^ (x >> 29)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// CPU seconds of this thread (the first field of /proc/thread-self/schedstat, in ns).
fn cpu_seconds() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
    let ns: u64 = text
        .split_whitespace()
        .next()
        .and_then(|f| f.parse().ok())
        .expect("a number");
    ns as f64 * 1e-9
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "--verbose");
    let check_early = args.iter().any(|a| a == "--check-early");
    let nums: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let count = nums.first().copied().unwrap_or(300) as usize;
    let seed = nums.get(1).copied().unwrap_or(1);
    let cap = nums.get(2).copied().unwrap_or(4_000_000) as usize;
    if args.iter().any(|a| a == "--kalah") {
        kalah(count, seed, cap, verbose);
        return;
    }
    let mut variants = Vec::new();
    for chain in [Chain::Run, Chain::One, Chain::None] {
        for origin in [Origin::Sow, Origin::Skip] {
            for end in [End::Stuck, End::EmptyRow] {
                variants.push(Variant { chain, origin, end });
            }
        }
    }
    if args.iter().any(|a| a == "--whole") {
        whole(count, seed, cap, &variants, verbose);
        return;
    }
    if args.iter().any(|a| a == "--caps") {
        let cap_b = nums.get(3).copied().unwrap_or(1 << 24) as usize;
        let limit = nums.get(4).copied().unwrap_or(30_000_000);
        caps(count, seed, [cap, cap_b], limit, &variants, verbose);
        return;
    }
    let mut rng = Rng(seed);
    // (graph size bucket upper bound, label)
    let buckets: [(usize, &str); 8] = [
        (1_000, "<= 1k"),
        (10_000, "1k-10k"),
        (100_000, "10k-100k"),
        (1 << 20, "100k-1M"),
        (2_000_000, "1M-2M"),
        (4_000_000, "2M-4M"),
        (1 << 23, "4M-8M"),
        (usize::MAX, "> 8M"),
    ];
    // (CPU seconds, states) of every solved graph, by bucket.
    let mut times: Vec<Vec<(f64, usize)>> = vec![Vec::new(); buckets.len()];
    let mut too_large = 0;
    let mut early: Vec<f64> = Vec::new();
    let mut early_checked = 0;
    for k in 0..count {
        let pos = random_endgame(&mut rng, &variants);
        let t0 = cpu_seconds();
        match solve_position(&pos, cap) {
            Ok((sol, _)) => {
                let secs = cpu_seconds() - t0;
                let states = sol.nodes as usize;
                let b = buckets
                    .iter()
                    .position(|(u, _)| states <= *u)
                    .expect("bucket");
                times[b].push((secs, states));
                if verbose {
                    println!(
                        "{k:4} {pos}  states {states:>9}  cpu {secs:.3} s  margin {:+}",
                        sol.margin
                    );
                }
            }
            Err(RetroError::TooLarge { .. }) => {
                too_large += 1;
                if verbose {
                    println!("{k:4} {pos}  more than {cap} states");
                }
            }
            Err(RetroError::TooLargeEarly { bound, .. }) => {
                early.push(cpu_seconds() - t0);
                if verbose {
                    println!("{k:4} {pos}  given up early (bound {bound})");
                }
                if check_early {
                    match solve_graph_with(&pos.rules, &pos.state, cap, false) {
                        Err(RetroError::TooLarge { .. }) => early_checked += 1,
                        Ok(g) => panic!("{pos}: given up early but has {} states", g.len()),
                        Err(e) => panic!("{pos}: {e}"),
                    }
                }
            }
            Err(e) => panic!("{pos}: {e}"),
        }
    }
    println!("{count} random endgames (seed {seed}), boards 2x4..2x10, every variant, 6..14 seeds");
    println!("| graph states | positions | median CPU s | 90% | max CPU s | µs a state |");
    println!("|---|---|---|---|---|---|");
    for (b, (_, label)) in buckets.iter().enumerate() {
        let t = &mut times[b];
        if t.is_empty() {
            continue;
        }
        t.sort_by(|a, b| a.0.total_cmp(&b.0));
        let q = |f: f64| t[((t.len() - 1) as f64 * f).round() as usize].0;
        let secs: f64 = t.iter().map(|x| x.0).sum();
        let states: usize = t.iter().map(|x| x.1).sum();
        println!(
            "| {label} | {} | {:.3} | {:.3} | {:.3} | {:.2} |",
            t.len(),
            q(0.5),
            q(0.9),
            t[t.len() - 1].0,
            secs / states as f64 * 1e6
        );
    }
    println!("| more than {cap} (not solved here) | {too_large} | | | |");
    if !early.is_empty() {
        early.sort_by(|a, b| a.total_cmp(b));
        println!(
            "| given up early (bound > 8 x cap) | {} | {:.4} | | {:.4} |",
            early.len(),
            early[early.len() / 2],
            early[early.len() - 1]
        );
    }
    if check_early {
        println!(
            "--check-early: {early_checked} of {} graphs given up early have more than {cap} states",
            early.len()
        );
    }
}

/// One Kalah graph: fraction of the bound, states, position, retrograde CPU s, search
/// CPU s, given up by the early exit.
type Graph = (f64, usize, String, f64, f64, bool);

/// The `--kalah` measurement: the reachable fraction of the size bound, and what the
/// early exit's give-ups cost (the search instead of the retrograde pass).
fn kalah(count: usize, seed: u64, cap: usize, verbose: bool) {
    let factor = giuthi::solve::retro::early_exit_factor("kalah").unwrap_or(f64::INFINITY);
    let mut rng = Rng(seed);
    let mut graphs: Vec<Graph> = Vec::new();
    let (mut small, mut too_large) = (0, 0);
    let mut search_nodes = 0;
    for k in 0..count {
        let m = 3 + rng.below(6) as usize;
        let seeds = 6 + rng.below(35) as usize;
        let rules = Kalah::new(m).expect("board");
        let mut pits = [0u8; 32];
        for _ in 0..seeds {
            pits[rng.below(2 * m as u64) as usize] += 1;
        }
        let turn = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        let pos = Position::new(rules, GiuthiState { pits, turn }, BySide::new(0, 0));
        let bound = board_bound(&pos.rules, &pos.state);
        let t0 = cpu_seconds();
        let graph = solve_graph_with(&pos.rules, &pos.state, cap, false);
        let retro = cpu_seconds() - t0;
        match graph {
            Ok(g) => {
                let states = g.len();
                if verbose {
                    println!("{k:4} {pos}  states {states:>9}  bound {bound:.3e}");
                }
                if states <= PROBE_STATES {
                    small += 1;
                    continue;
                }
                let opts = SolverOptions {
                    hash_mb: 16,
                    ..SolverOptions::default()
                };
                let t1 = cpu_seconds();
                let ab = Solver::new(pos.rules.clone(), opts)
                    .solve(&pos)
                    .expect("not stopped");
                let search = cpu_seconds() - t1;
                search_nodes = search_nodes.max(ab.nodes);
                let margin = g.root_bounds().exact_margin(pos.captured_difference());
                assert_eq!(margin, ab.margin, "{pos}: retrograde and search differ");
                let given_up = bound > factor * cap as f64;
                graphs.push((
                    states as f64 / bound,
                    states,
                    pos.to_string(),
                    retro,
                    search,
                    given_up,
                ));
            }
            Err(RetroError::TooLarge { .. }) => {
                too_large += 1;
                if verbose {
                    println!("{k:4} {pos}  more than {cap} states  bound {bound:.3e}");
                }
            }
            Err(e) => panic!("{pos}: {e}"),
        }
    }
    graphs.sort_by(|a, b| a.0.total_cmp(&b.0));
    println!(
        "{count} random Kalah positions (seed {seed}), 3..8 pits a row, 6..40 seeds, cap {cap}"
    );
    println!(
        "{small} graphs of at most {PROBE_STATES} states, {} larger within the cap, {too_large} over it",
        graphs.len()
    );
    if graphs.is_empty() {
        return;
    }
    let q = |f: f64| graphs[((graphs.len() - 1) as f64 * f).round() as usize].0;
    println!(
        "reachable fraction of the bound, graphs of {PROBE_STATES}..{cap} states: least {:.4}, 10% {:.4}, median {:.4}, most {:.4}",
        q(0.0),
        q(0.1),
        q(0.5),
        q(1.0)
    );
    let sum = |up: bool, f: fn(&Graph) -> f64| -> f64 {
        graphs.iter().filter(|g| g.5 == up).map(f).sum()
    };
    let max = |f: fn(&Graph) -> f64| -> f64 { graphs.iter().map(f).fold(0.0, f64::max) };
    println!(
        "all {} graphs: retrograde pass (graph and values) {:.2} s CPU (at most {:.3} s), the search (alpha-beta, 16 MB table) {:.2} s (at most {:.3} s, at most {search_nodes} nodes)",
        graphs.len(),
        sum(true, |g| g.3) + sum(false, |g| g.3),
        max(|g| g.3),
        sum(true, |g| g.4) + sum(false, |g| g.4),
        max(|g| g.4)
    );
    let up = graphs.iter().filter(|g| g.5).count();
    println!(
        "given up by the early exit (bound over {factor} x the cap) although within the cap: {up}, retrograde {:.2} s, search {:.2} s",
        sum(true, |g| g.3),
        sum(true, |g| g.4)
    );
    for g in graphs.iter().filter(|g| g.5) {
        if verbose {
            println!(
                "  {} ({} states, fraction {:.4}): retrograde {:.3} s, search {:.3} s",
                g.2, g.1, g.0, g.3, g.4
            );
        }
    }
    // The early exit must not cost: the search does what the give-ups leave it faster
    // than the pass would have.
    assert!(
        sum(true, |g| g.4) <= sum(true, |g| g.3),
        "the search is slower than the retrograde pass on the graphs given up"
    );
}

/// CPU seconds of the whole process (the search runs on a thread of its own).
#[allow(unsafe_code)]
fn process_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(r, 0, "clock_gettime");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The search's node limit in `--whole` (a position over it is counted apart).
const SEARCH_NODES: u64 = 3_000_000;

/// One endgame of the generator of `main` (board, variant, seeds, side to move).
fn random_endgame(rng: &mut Rng, variants: &[Variant]) -> Position<Giuthi> {
    let n = 4 + rng.below(7) as usize;
    let v = variants[rng.below(variants.len() as u64) as usize];
    let seeds = 6 + rng.below(9) as usize;
    let rules = Giuthi::new(n, v).expect("board");
    let mut pits = [0u8; 32];
    for _ in 0..seeds {
        pits[rng.below(2 * n as u64) as usize] += 1;
    }
    let turn = if rng.below(2) == 0 {
        Side::South
    } else {
        Side::North
    };
    Position::new(rules, GiuthiState { pits, turn }, BySide::new(0, 0))
}

/// What `giuthi solve POSITION --threads 1` does, `race` or not: the margin, how it was
/// found (`pass`, `race`: the search won the race, `search`: after the pass gave up,
/// `limit`: the search stopped at [`SEARCH_NODES`]) and the search's nodes.
fn solve_whole<R: Rules>(pos: &Position<R>, cap: usize, race: bool) -> (i32, &'static str, u64) {
    solve_whole_limit(pos, cap, race, SEARCH_NODES)
}

/// [`solve_whole`] with the search stopped at `limit` nodes in all.
fn solve_whole_limit<R: Rules>(
    pos: &Position<R>,
    cap: usize,
    race: bool,
    limit: u64,
) -> (i32, &'static str, u64) {
    let opts = SolverOptions {
        threads: 1,
        hash_mb: 64,
        ..SolverOptions::default()
    };
    let mut slot = Some(Solver::new(pos.rules.clone(), opts));
    let mut searched = None;
    let mut racer = |states: usize| -> bool {
        if !race {
            return false;
        }
        let s = slot
            .take()
            .expect("a solver")
            .with_stop(Arc::new(AtomicBool::new(false)))
            .stop_after_nodes(race_budget(states));
        searched = s.solve(pos).ok().map(|sol| sol.margin);
        slot = Some(
            s.with_stop(Arc::new(AtomicBool::new(false)))
                .stop_after_nodes(u64::MAX),
        );
        searched.is_some()
    };
    let passed = solve_position_racing(pos, cap, &|| false, &mut racer);
    let solver = slot.expect("a solver");
    match passed {
        Ok((sol, _)) => (sol.margin, "pass", 0),
        Err(RetroError::Raced) => (searched.expect("raced"), "race", solver.nodes()),
        Err(_) => {
            let solver = solver.stop_after_nodes(limit);
            match solver.solve(pos) {
                Ok(sol) => (sol.margin, "search", solver.nodes()),
                Err(_) => (i32::MIN, "limit", solver.nodes()),
            }
        }
    }
}

/// The `--whole` measurement (see the module's documentation).
fn whole(count: usize, seed: u64, cap: usize, variants: &[Variant], verbose: bool) {
    let mut rng = Rng(seed);
    // CPU seconds a position, old and race, and the positions over the search limit.
    let (mut old_t, mut race_t) = (Vec::new(), Vec::new());
    let mut limit = 0;
    let mut how_race = std::collections::BTreeMap::new();
    for k in 0..count {
        let pos = random_endgame(&mut rng, variants);
        let t0 = process_cpu_seconds();
        let (m_old, how_o, n_old) = solve_whole(&pos, cap, false);
        let t1 = process_cpu_seconds();
        let (m_race, how_r, n_race) = solve_whole(&pos, cap, true);
        let t2 = process_cpu_seconds();
        if verbose {
            println!(
                "{k:4} {pos}  old {:.3} s ({how_o}, {n_old} nodes)  race {:.3} s ({how_r}, {n_race} nodes)",
                t1 - t0,
                t2 - t1
            );
        }
        if how_o == "limit" || how_r == "limit" {
            limit += 1;
            continue;
        }
        assert_eq!(m_old, m_race, "{pos}: the two ways differ");
        *how_race.entry(how_r).or_insert(0) += 1;
        old_t.push(t1 - t0);
        race_t.push(t2 - t1);
    }
    println!(
        "{count} random endgames (seed {seed}), boards 2x4..2x10, every variant, 6..14 seeds, \
         cap {cap} states, one thread"
    );
    println!("| way | positions | median CPU s | 90% | 99% | max | total |");
    println!("|---|---|---|---|---|---|---|");
    for (name, t) in [("old", &mut old_t), ("race", &mut race_t)] {
        t.sort_by(|a, b| a.total_cmp(b));
        let q = |f: f64| t[((t.len() - 1) as f64 * f).round() as usize];
        println!(
            "| {name} | {} | {:.4} | {:.4} | {:.4} | {:.4} | {:.2} |",
            t.len(),
            q(0.5),
            q(0.9),
            q(0.99),
            t[t.len() - 1],
            t.iter().sum::<f64>()
        );
    }
    println!("race answered by: {how_race:?}");
    println!("over {SEARCH_NODES} search nodes (left out, the same search for both): {limit}");
}

/// The `--caps` measurement (see the module's documentation).
fn caps(
    count: usize,
    seed: u64,
    caps: [usize; 2],
    limit: u64,
    variants: &[Variant],
    verbose: bool,
) {
    let mut rng = Rng(seed);
    let mut t: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut unsolved = [0usize; 2];
    let mut how: [std::collections::BTreeMap<&str, usize>; 2] = Default::default();
    let mut differ = Vec::new();
    for k in 0..count {
        let pos = random_endgame(&mut rng, variants);
        let mut got = [(0, "", 0u64, 0.0); 2];
        for (w, &cap) in caps.iter().enumerate() {
            let t0 = process_cpu_seconds();
            let (m, h, n) = solve_whole_limit(&pos, cap, true, limit);
            got[w] = (m, h, n, process_cpu_seconds() - t0);
            *how[w].entry(h).or_insert(0) += 1;
            if h == "limit" {
                unsolved[w] += 1;
            } else {
                t[w].push(got[w].3);
            }
        }
        if verbose {
            println!(
                "{k:4} {pos}  cap {}: {:.3} s ({}, {} nodes)  cap {}: {:.3} s ({}, {} nodes)",
                caps[0], got[0].3, got[0].1, got[0].2, caps[1], got[1].3, got[1].1, got[1].2
            );
        }
        match (got[0].1 == "limit", got[1].1 == "limit") {
            (false, false) => assert_eq!(got[0].0, got[1].0, "{pos}: the two caps differ"),
            (true, true) => {}
            _ => differ.push(format!(
                "{pos}: cap {} {:.3} s ({}), cap {} {:.3} s ({})",
                caps[0], got[0].3, got[0].1, caps[1], got[1].3, got[1].1
            )),
        }
    }
    println!(
        "{count} random endgames (seed {seed}), boards 2x4..2x10, every variant, 6..14 seeds, \
         the race then the search to {limit} nodes in all, one thread"
    );
    println!("| cap | solved | median CPU s | 90% | 99% | max | total | unsolved at the limit |");
    println!("|---|---|---|---|---|---|---|---|");
    for w in 0..2 {
        let v = &mut t[w];
        v.sort_by(|a, b| a.total_cmp(b));
        let q = |f: f64| v[((v.len() - 1) as f64 * f).round() as usize];
        println!(
            "| {} | {} | {:.4} | {:.4} | {:.4} | {:.4} | {:.2} | {} |",
            caps[w],
            v.len(),
            q(0.5),
            q(0.9),
            q(0.99),
            v[v.len() - 1],
            v.iter().sum::<f64>(),
            unsolved[w]
        );
    }
    for w in 0..2 {
        println!("cap {} answered by: {:?}", caps[w], how[w]);
    }
    for d in &differ {
        println!("solved by one cap only: {d}");
    }
}
