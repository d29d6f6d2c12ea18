//! `giuthi bench`: solves a fixed suite single-threaded and prints deterministic node
//! counts, CPU seconds and the speed, checking every value against the known one.

use super::usage;
use giuthi::rules::Rules;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::solve::order::MoveOrder;
use giuthi::value::{fmt_score, range_json, BoundRanges, Bounds, Score, NEG_INF, POS_INF};
use giuthi::{with_position, AnyPosition, Position};
use std::time::Instant;

/// One bench case: a name, a position and its known solution `(lo, hi, margin)`.
pub struct Case {
    /// A short name (`--only` matches it).
    pub name: &'static str,
    /// The position (RULES.md N1, N3).
    pub position: &'static str,
    /// The known `(lo, hi, margin)` (V2, V3), or `None` where only the margin is known.
    pub bounds: Option<(Score, Score)>,
    /// The known exact margin (V3), or `None` where the value is not known yet (the case
    /// is then timed but its value not checked: printed `unchecked`).
    pub margin: Option<i32>,
}

const fn case(
    name: &'static str,
    position: &'static str,
    lo: Score,
    hi: Score,
    margin: i32,
) -> Case {
    Case {
        name,
        position,
        bounds: Some((lo, hi)),
        margin: Some(margin),
    }
}

/// The quick suite (the default): small Kalah games and Giuthi compositions from
/// positions/, a fraction of a second in all.
pub const QUICK: &[Case] = &[
    case("kalah(4,3)", "kalah 3,3,3,3/3,3,3,3 S 0,0", 8, 8, 8),
    case("kalah(5,2)", "kalah 2,2,2,2,2/2,2,2,2,2 S 0,0", 0, 0, 0),
    case(
        "kalah(6,2)",
        "kalah 2,2,2,2,2,2/2,2,2,2,2,2 S 0,0",
        10,
        10,
        10,
    ),
    case(
        "composition 2x5 N",
        "giuthi 1,1,3,1,2/1,1,1,1,1 N 5,6",
        13,
        POS_INF,
        14,
    ),
    case(
        "composition 2x8 S",
        "giuthi 0,0,0,1,0,1,0,1/0,0,1,2,0,1,0,0 S 10,6",
        3,
        POS_INF,
        7,
    ),
    Case {
        name: "2x4 12 seeds",
        position: "giuthi 2,2,2,0/0,2,2,2 S 0,0",
        bounds: None,
        margin: Some(12),
    },
];

/// `--suite kalah`: the Kalah starts of the comparison with Irving's solver, with
/// the published first-player margins of Irving, Donkers and Uiterwijk (2000) for (5,4),
/// (6,3) and (6,4) (tests/all/kalah.rs), and (5,5) = +2, found by the search alone and
/// confirmed with the 5-pit tables up to 20 seeds (docs/performance.md).
pub const KALAH: &[Case] = &[
    case("kalah(5,4)", "kalah 4,4,4,4,4/4,4,4,4,4 S 0,0", 12, 12, 12),
    case("kalah(6,3)", "kalah 3,3,3,3,3,3/3,3,3,3,3,3 S 0,0", 2, 2, 2),
    case(
        "kalah(6,4)",
        "kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0,0",
        10,
        10,
        10,
    ),
    case("kalah(5,5)", "kalah 5,5,5,5,5/5,5,5,5,5 S 0,0", 2, 2, 2),
];

/// `--suite giuthi`: Giuthi endgames (positions/compositions.txt and the 20-seed 2x5
/// endgame of the README) and the cheap solved starts (positions/solved-starts*.txt);
/// with `--long` also the 2x5x3 start (minutes).
pub const GIUTHI: &[Case] = &[
    case(
        "2x5x2 start",
        "giuthi 2,2,2,2,2/2,2,2,2,2 S 0,0",
        20,
        POS_INF,
        20,
    ),
    case(
        "composition 2x5 N",
        "giuthi 1,1,3,1,2/1,1,1,1,1 N 5,6",
        13,
        POS_INF,
        14,
    ),
    case(
        "composition 2x6 S draw",
        "giuthi 1,1,0,2,0,1/1,1,2,0,1,1 S 8,6",
        NEG_INF,
        POS_INF,
        0,
    ),
    case(
        "composition 2x8 N loss",
        "giuthi 0,1,0,0,0,1,1,1/1,2,1,1,0,0,2,2 N 5,8",
        NEG_INF,
        -13,
        -10,
    ),
    case(
        "composition 2x6 S loss",
        "giuthi 2,1,3,0,1,2/0,0,1,0,0,2 S 7,8",
        NEG_INF,
        -2,
        -3,
    ),
    case(
        "20-seed 2x5 endgame",
        "giuthi 3,0,2,1,4/0,2,5,1,2 N 3,1",
        6,
        POS_INF,
        4,
    ),
    // One threshold of the driver costs 130 times another (docs/performance.md,
    // Session 21): 59.8 M nodes before the budgeted MTD(f) tests.
    case(
        "2x8 threshold endgame",
        "giuthi 2,2,1,3,0,2,1,1/1,1,0,0,0,2,1,0 S 2,1",
        NEG_INF,
        -7,
        -6,
    ),
];

/// The heavy cases `--long` adds to `--suite giuthi`.
pub const GIUTHI_LONG: &[Case] = &[case(
    "2x5x3 start",
    "giuthi 3,3,3,3,3/3,3,3,3,3 S 0,0",
    -4,
    10,
    0,
)];

/// Which suite `giuthi bench` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    /// Small Kalah games and Giuthi compositions (a fraction of a second).
    Quick,
    /// Kalah(5,4), (6,3), (6,4), (5,5) without tables (minutes).
    Kalah,
    /// Giuthi endgames and starts (seconds; `--long` adds the 2x5x3 start, minutes).
    Giuthi,
}

/// Arguments of `giuthi bench`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi bench                  # the quick suite, one thread: node counts and nodes/s\n  \
    giuthi bench --long           # also Kalah(5,4)\n  \
    giuthi bench --suite kalah --only 'kalah(6,3)'   # one case of the Kalah suite\n  \
    giuthi bench --suite kalah --hash 1024           # Kalah(5,4), (6,3), (6,4), (5,5)\n  \
    giuthi bench --suite giuthi   # Giuthi endgames and starts\n  \
    giuthi bench --order captures # compare move orders by their node counts\n  \
    giuthi bench --etc            # compare node counts with the enhanced transposition cutoff\n  \
    giuthi bench --no-history\n  \
    giuthi bench --suite kalah --only 'kalah(6,3)' --no-lean   # the general search path on Kalah\n\n\
    Node counts are deterministic: a change in them is a change in the search. Every value \
    is checked against the known one (exit 1 on a mismatch). CPU seconds are the process's \
    (its CPU-time clock, all threads; wall seconds where there is none) during each case's \
    solve, after its table is allocated and cleared (the totals add the cases up), printed \
    to the millisecond; a case under 1 ms of CPU says `too short to rate` instead of a speed. \
    Build with --release to measure speed.")]
pub struct Args {
    /// The suite to run.
    #[arg(long, value_enum, default_value_t = Suite::Quick)]
    pub suite: Suite,
    /// Run only the cases whose name contains this text (`kalah(6,3)`).
    #[arg(long, value_name = "TEXT")]
    pub only: Option<String>,
    /// Transposition table size in megabytes (default: 4 for the quick suite, whose
    /// clearing a big table would dominate; 1024 for kalah; 256 for giuthi).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: Option<u32>,
    /// Switch on the enhanced transposition cutoff (off by default: it saves nodes but
    /// costs more time than it saves, see docs/solver.md).
    #[arg(long)]
    pub etc: bool,
    /// Switch off the history heuristic (on by default; compare node counts with it).
    #[arg(long)]
    pub no_history: bool,
    /// Switch off the lean search path of games that cannot repeat (Kalah): the general
    /// path searches the same nodes at a higher cost per node (docs/performance.md,
    /// Session 11).
    #[arg(long)]
    pub no_lean: bool,
    /// The quick suite: also solve Kalah(5,4) (about a second); the giuthi suite: also
    /// the 2x5x3 start (minutes).
    #[arg(long)]
    pub long: bool,
    /// Move ordering: auto (the game's choice), captures, extra-moves
    /// (docs/performance.md).
    #[arg(long, value_name = "ORDER", default_value = "auto")]
    pub order: MoveOrder,
    /// Print one JSON object at the end: {"suite", "hash_mb", "cases": [{"name",
    /// "position", "lo_range", "hi_range", "margin", "verdict", "nodes", "cpu_seconds",
    /// "seconds"}], "nodes", "cpu_seconds", "seconds", "wrong"} (docs/cli.md).
    #[arg(long)]
    pub json: bool,
}

/// One case of `bench --json`.
#[derive(Debug, serde::Serialize)]
struct CaseJson {
    /// The case's name.
    name: &'static str,
    /// Its position (RULES.md N1).
    position: &'static str,
    /// The proven range of `lo` (V2): `[a, b]`, infinities as `"-inf"`/`"+inf"`.
    lo_range: serde_json::Value,
    /// The proven range of `hi`.
    hi_range: serde_json::Value,
    /// The exact margin (V3).
    margin: i32,
    /// `ok`, `unchecked` (no known value) or `WRONG`.
    verdict: &'static str,
    /// Nodes searched (deterministic: one thread).
    nodes: u64,
    /// CPU seconds of the solve.
    cpu_seconds: f64,
    /// Wall seconds of the solve.
    seconds: f64,
}

/// The whole of `bench --json`.
#[derive(Debug, serde::Serialize)]
struct BenchJson {
    /// `quick`, `kalah` or `giuthi`.
    suite: String,
    /// The table size in MB.
    hash_mb: usize,
    /// Every case, in order.
    cases: Vec<CaseJson>,
    /// Nodes of all cases.
    nodes: u64,
    /// CPU seconds of the whole run.
    cpu_seconds: f64,
    /// Wall seconds of the whole run.
    seconds: f64,
    /// Cases whose value differs from the known one.
    wrong: u32,
}

/// What one solve of the bench gave.
struct Outcome {
    nodes: u64,
    /// What the result-first solve proved of `lo` and `hi` (only as much as the margin
    /// needs).
    ranges: BoundRanges,
    margin: i32,
}

/// Solves `pos` once; returns the outcome with the wall and CPU seconds of the solve
/// alone: the table is allocated and cleared (its pages touched) before the clocks
/// start, so a large `--hash` does not count the kernel's clearing of fresh pages (it
/// was most of Kalah(6,3)'s figure with the kalah suite's 1 GB: the session-15 trial).
fn bench_one<R: Rules>(
    pos: &Position<R>,
    args: &Args,
    hash_mb: usize,
) -> anyhow::Result<(Outcome, f64, Option<f64>)> {
    let solver = Solver::try_new(
        pos.rules.clone(),
        SolverOptions {
            threads: 1,
            hash_mb,
            etc: args.etc,
            history: !args.no_history,
            order: args.order,
            lean: !args.no_lean,
            ..SolverOptions::default()
        },
    )
    .map_err(|e| usage(format!("--hash {hash_mb}: {e}")))?;
    solver.clear();
    let (t1, c1) = (Instant::now(), cpu_seconds());
    let s = solver
        .solve(pos)
        .map_err(|e| anyhow::anyhow!("{}: {e}", pos))?;
    let wall = t1.elapsed().as_secs_f64();
    let cpu = c1.zip(cpu_seconds()).map(|(a, b)| b - a);
    let out = Outcome {
        nodes: s.nodes,
        ranges: s.ranges,
        margin: s.margin,
    };
    Ok((out, wall, cpu))
}

/// CPU seconds used by this process so far (all threads, user + system), from the
/// process's CPU-time clock (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`, nanoseconds);
/// `None` where that cannot be read (the caller then uses wall seconds).
#[cfg(unix)]
#[allow(unsafe_code)]
fn cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one `timespec` through the pointer, which points to
    // the local `t`, valid and writable for the call; it touches no other memory.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    (r == 0).then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// Where there is no process CPU-time clock: `None` (wall seconds are used).
#[cfg(not(unix))]
fn cpu_seconds() -> Option<f64> {
    None
}

/// The least CPU time a rate is given for: the text prints times in milliseconds, and a
/// time that shows as `0.000 s` has no honest rate.
const MIN_RATED_SECONDS: f64 = 0.001;

/// `12345 nodes/cpu-s`, or `too short to rate` under [`MIN_RATED_SECONDS`] (the rate is
/// never computed from a floor put under the measured time).
fn rate(nodes: u64, cpu: f64) -> String {
    // Decided on the time as printed (to the millisecond): a printed `0.001` gets a rate.
    if cpu >= MIN_RATED_SECONDS - 0.0005 {
        format!("{:.0} nodes/cpu-s", nodes as f64 / cpu)
    } else {
        "too short to rate".to_string()
    }
}

/// Runs `giuthi bench`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let long_kalah = [case(
        "kalah(5,4)",
        "kalah 4,4,4,4,4/4,4,4,4,4 S 0,0",
        12,
        12,
        12,
    )];
    let (cases, extra, hash): (&[Case], &[Case], u32) = match args.suite {
        Suite::Quick => (QUICK, if args.long { &long_kalah } else { &[] }, 4),
        Suite::Kalah => (KALAH, &[], 1024),
        Suite::Giuthi => (GIUTHI, if args.long { GIUTHI_LONG } else { &[] }, 256),
    };
    let hash = args.hash.unwrap_or(hash) as usize;
    let selected: Vec<&Case> = cases
        .iter()
        .chain(extra)
        .filter(|c| {
            args.only
                .as_ref()
                .map_or(true, |t| c.name.contains(t.as_str()))
        })
        .collect();
    if selected.is_empty() {
        return Err(usage(format!(
            "--only {:?}: no case of the {:?} suite has that in its name",
            args.only.as_deref().unwrap_or(""),
            args.suite
        )));
    }
    // The totals add up the cases' solves (the tables' set-up is not counted).
    let (mut wall_sum, mut cpu_sum) = (0.0, 0.0);
    let mut total = 0;
    let mut wrong = 0;
    let mut rows = Vec::new();
    for case in selected {
        let any: AnyPosition = case.position.parse()?;
        let (out, wall, cpu) = with_position!(&any, p => bench_one(p, &args, hash))?;
        let cpu = cpu.unwrap_or(wall);
        let ok = case.margin.map_or(true, |m| m == out.margin)
            && case
                .bounds
                .map_or(true, |(lo, hi)| out.ranges.contains(Bounds { lo, hi }));
        let verdict = match (ok, case.margin) {
            (false, _) => "WRONG",
            (true, None) => "unchecked",
            (true, Some(_)) => "ok",
        };
        if args.json {
            rows.push(CaseJson {
                name: case.name,
                position: case.position,
                lo_range: range_json(out.ranges.lo),
                hi_range: range_json(out.ranges.hi),
                margin: out.margin,
                verdict,
                nodes: out.nodes,
                cpu_seconds: cpu,
                seconds: wall,
            });
        } else {
            println!(
                "{:<24} {} margin {:+}  {}  nodes {}  cpu {:.3} s  wall {:.3} s  {}",
                case.name,
                out.ranges,
                out.margin,
                verdict,
                out.nodes,
                cpu,
                wall,
                rate(out.nodes, cpu)
            );
        }
        if !ok {
            let known = match case.bounds {
                Some((lo, hi)) => format!("lo {} hi {} ", fmt_score(lo), fmt_score(hi)),
                None => String::new(),
            };
            eprintln!(
                "error: {}: {}: known {known}margin {:+}",
                case.name,
                case.position,
                case.margin.unwrap_or_default()
            );
            wrong += 1;
        }
        total += out.nodes;
        wall_sum += wall;
        cpu_sum += cpu;
    }
    let (wall, cpu) = (wall_sum, cpu_sum);
    if args.json {
        let out = BenchJson {
            suite: format!("{:?}", args.suite).to_lowercase(),
            hash_mb: hash,
            cases: rows,
            nodes: total,
            cpu_seconds: cpu,
            seconds: wall,
            wrong,
        };
        println!("{}", serde_json::to_string(&out)?);
    } else {
        println!(
            "total nodes {total}  cpu {cpu:.3} s  wall {wall:.3} s  {}",
            rate(total, cpu)
        );
    }
    Ok(if wrong > 0 { 1 } else { 0 })
}
