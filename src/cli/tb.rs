//! `giuthi tb gen|probe|stats|verify`: endgame tablebases.

use super::common::{count, read_position};
use super::progress::{self, with_status, Status};
use super::usage;
use giuthi::line::Line;
use giuthi::rules::giuthi::{Giuthi, Variant};
use giuthi::rules::kalah::Kalah;
use giuthi::solve::alphabeta::{Solver, SolverOptions};
use giuthi::tablebase::cluster::{Cluster, Solo};
use giuthi::tablebase::format::GameId;
use giuthi::tablebase::format::MAX_ENCODABLE_SEEDS;
use giuthi::tablebase::generate::{generate_on, GenOptions, LayerReport};
use giuthi::tablebase::inspect::{layer_stats, scan_dir, verify_layer};
use giuthi::tablebase::probe::{solve_position, solve_position_v3};
use giuthi::tablebase::{TablebaseSet, TbError, TbGame};
use giuthi::{AnyPosition, Position};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The tablebase subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Generate tablebases layer by layer (0..=max-seeds seeds on the board).
    Gen(GenArgs),
    /// The exact value, best moves and a principal variation of a position.
    Probe(ProbeArgs),
    /// Per layer: positions, wins, draws, losses, positions with lo != hi, bytes, time.
    Stats(StatsArgs),
    /// Check every file's header and checksum and re-derive a sample of entries.
    Verify(VerifyArgs),
}

/// Arguments of `giuthi tb gen`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi tb gen --pits 5 --max-seeds 20 --out tb5            # Giuthi 2x5, layers 0..=20\n  \
    giuthi tb gen --pits 4 --max-seeds 12 --out tb4 --variant chain=one,origin=skip\n  \
    giuthi tb gen --game kalah --pits 4 --max-seeds 16 --out tbk4 --threads 2\n\n\
    Layers already in the folder are checked (header and checksum) and kept, so running \
    the command again (after Ctrl-C, or with a larger --max-seeds) makes only the missing \
    layers; a corrupt layer is an error (delete the file). Ctrl-C, SIGTERM or SIGHUP \
    (not under `nohup`, which keeps the run going) during a layer's fixpoint sweeps saves them in the layer's .partial file, and the \
    same command resumes the layer from there (only its scan is redone). Exit codes: 0 \
    done; 1 a failure (I/O, a corrupt file); 2 a usage error; 130 stopped.")]
pub struct GenArgs {
    /// The game: giuthi or kalah.
    #[arg(long, default_value = "giuthi")]
    game: String,
    /// Pits a row (n).
    #[arg(long, value_parser = super::common::whole::<usize>(1, u64::MAX))]
    pits: usize,
    /// The largest layer (seeds on the board) to generate, 0 to 126.
    #[arg(long, value_parser = clap::value_parser!(u32).range(..=MAX_ENCODABLE_SEEDS as i64))]
    max_seeds: u32,
    /// The output folder (created if missing; its parent folder must exist).
    #[arg(long)]
    out: PathBuf,
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Giuthi variant, as in notation: `chain=one,origin=skip` (default: the default rules).
    #[arg(long, default_value = "")]
    variant: String,
    /// Memory budget in MB: a layer that may allocate more is refused before anything
    /// runs (default: three quarters of this machine's memory, or 8192 if it cannot be
    /// read).
    #[arg(long, value_name = "MB", value_parser = super::common::whole::<u64>(1, u64::MAX))]
    memory: Option<u64>,
    /// Do not use the mirror symmetry to skip work (Giuthi).
    #[arg(long)]
    no_mirror: bool,
    /// Solve the layers of a game that cannot repeat (Kalah) by the fixpoint sweeps, as
    /// Giuthi's, not in one pass: the second method, for checks (the files are the same
    /// past the header).
    #[arg(long)]
    fixpoint: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print one JSON object at the end: {"dir", "layers": [{"seeds", "positions",
    /// "kept", "scanned", "edges", "sweeps", "changed", "max_changed_in_sweep", "seconds",
    /// "cpu_seconds", "bytes", "resumed_after_sweep" (null unless resumed from a .partial
    /// file)}],
    /// "positions", "bytes", "seconds", "stopped"} (docs/cli.md); no progress bar.
    #[arg(long)]
    json: bool,
    /// Tests only: stop as Ctrl-C would once a layer has done this many sweeps in this
    /// run (0: during its scan).
    #[arg(long, hide = true, value_name = "SWEEPS")]
    stop_after_sweeps: Option<u32>,
    /// Save the layer being made to its .partial file after a sweep once this many
    /// seconds have passed since the last save (0: every sweep), so a crash or kill -9
    /// loses at most that much (default: only on Ctrl-C; 600 with --mpi).
    #[arg(long, value_name = "SECONDS", value_parser = super::common::whole::<u64>(0, u64::MAX))]
    checkpoint_every: Option<u64>,
    /// Run as one rank of an MPI job (`mpirun -np P giuthi tb gen --mpi ...`; builds with
    /// `--features mpi`): the ranks share every layer's work; rank 0 writes the files, the
    /// same as one process makes, into --out, which every rank must see (a shared folder).
    #[arg(long)]
    mpi: bool,
    /// With --mpi: the most changed entries one rank sends in one round of a sweep's
    /// exchange (default 2^26 / ranks; a test knob: the files are the same whatever it is).
    #[arg(long, hide = true, value_name = "ENTRIES", requires = "mpi",
          value_parser = super::common::whole::<usize>(1, u32::MAX as u64))]
    mpi_batch: Option<usize>,
}

/// Arguments of `giuthi tb probe`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi tb probe tb4 \"giuthi 1,0,0,0/1,3,0,0 S 0,2\"          # value, best moves, pv\n  \
    giuthi tb probe tb4 \"giuthi 1,0,0,0/1,3,0,0 S 0,2\" --json\n  \
    giuthi tb probe tb4 \"giuthi 1,0,0,0/1,3,0,0 S 0,2\" --v3-moves  # skip the V4 check")]
pub struct ProbeArgs {
    /// The tablebase folder.
    dir: PathBuf,
    /// The position (notation) or a file holding one.
    position: String,
    /// Print JSON (the fields of `solve --json`).
    #[arg(long)]
    json: bool,
    /// Most states the tables' own V4 check explores for one move (the part of the
    /// root's layer a non-capturing move can reach). Past it, a move of a winning root
    /// that falls short of the margin anyway is shown as an upper bound (`<= v`: it
    /// cannot be best); for any other move every move's V4 value comes from alpha-beta
    /// on the same tables, as `solve --tb --analyze` (which can take minutes).
    #[arg(long, default_value_t = 100_000, value_parser = positive_states)]
    v4_limit: u64,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
    /// Value moves with the root as an ordinary position (V3), skipping the V4 check
    /// (a best move may then reach the margin only by repeating the root).
    #[arg(long)]
    v3_moves: bool,
}

/// Arguments of `giuthi tb stats`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi tb stats tb5          # one table per game, variant and board in the folder\n  \
    giuthi tb stats tb5 --json")]
pub struct StatsArgs {
    /// The tablebase folder.
    dir: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `giuthi tb verify`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi tb verify tb5                      # checksums, 10000 entries re-derived a layer\n  \
    giuthi tb verify tb5 --all                # re-derive every entry\n  \
    giuthi tb verify tb5 --samples 100000 --seed 7\n\n\
    Exit 1 when a file is corrupt, a layer is missing below another, or an entry differs.")]
pub struct VerifyArgs {
    /// The tablebase folder.
    dir: PathBuf,
    /// Entries re-derived per layer (0: the checksums only).
    #[arg(long, default_value_t = 10_000, value_parser = super::common::whole::<u64>(0, u64::MAX))]
    samples: u64,
    /// Re-derive every entry.
    #[arg(long)]
    all: bool,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1, value_parser = super::common::whole::<u64>(0, u64::MAX))]
    seed: u64,
    /// Print one JSON object: {"dir", "ok", "failures", "tables": [{"tables", "layers":
    /// [{"seeds", "checked", "mismatches", "examples"}]}]} (docs/cli.md).
    #[arg(long)]
    json: bool,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
}

/// Runs a `giuthi tb` subcommand; returns the exit code.
pub fn run(cmd: Command) -> anyhow::Result<i32> {
    match cmd {
        Command::Gen(a) => run_gen(a),
        Command::Probe(a) => run_probe(a),
        Command::Stats(a) => run_stats(a),
        Command::Verify(a) => run_verify(a),
    }
}

fn print_layer(r: &LayerReport) {
    if r.skipped {
        println!(
            "layer {:>3}: {:>12} positions  kept (checksum ok)  {} bytes",
            r.seeds, r.positions, r.bytes
        );
    } else {
        let secs = r.millis as f64 / 1000.0;
        // Under a millisecond the clock cannot rate the layer (as `bench` says).
        let rate = if secs > 0.0 {
            format!("{:>11.0} pos/s", r.scanned as f64 / secs)
        } else {
            "(too short to rate)".to_string()
        };
        println!(
            "layer {:>3}: {:>12} positions  {:>12} scanned  {:>13} edges  {:>3} sweeps  {:>9.3} s (scan {:.3} s, cpu {:.2} s)  {}  {} bytes  (edge stream {} bytes)",
            r.seeds,
            r.positions,
            r.scanned,
            r.edges,
            r.sweeps,
            secs,
            r.scan_millis as f64 / 1000.0,
            r.cpu_millis as f64 / 1000.0,
            rate,
            r.bytes,
            r.scratch_bytes
        );
        if let Some(k) = r.resumed_after_sweep {
            println!(
                "           resumed from the layer's .partial file saved after sweep {k} \
                 (the sweeps above count from the start; the times are this run's)"
            );
        }
    }
}

/// Three quarters of the machine's memory in MB (`MemTotal` of `/proc/meminfo`), or 8192
/// where that cannot be read.
fn default_memory_mb() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            let line = t.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kb / 1024 * 3 / 4)
        })
        .filter(|&mb| mb > 0)
        .unwrap_or(8192)
}

/// A board the rules refuse, as a usage error naming `--pits` (the rules' message names
/// the notation's `field board`).
fn pits_error(pits: usize, e: impl std::fmt::Display) -> anyhow::Error {
    let e = e.to_string();
    let reason = e.strip_prefix("field board: ").unwrap_or(&e);
    usage(format!("--pits {pits}: {reason}"))
}

/// A generation error as the user sees it: a refusal caused by an option (the memory
/// budget, the layer range, a folder another generation holds) is a usage error (exit 2)
/// naming the option; anything else (I/O, a corrupt layer) a failure (exit 1).
fn gen_error(e: TbError, a: &GenArgs) -> anyhow::Error {
    match e {
        TbError::MemoryBudget { budget_mb, .. } => usage(format!("--memory {budget_mb}: {e}")),
        TbError::RangeTooLarge { .. } | TbError::LayerTooLarge { .. } => {
            usage(format!("--max-seeds {}: {e}", a.max_seeds))
        }
        TbError::Busy { .. } => usage(format!("--out {}: {e}", a.out.display())),
        // The folder itself (or its lock) cannot be made: say which option named it.
        TbError::Io { ref path, .. } if path == &a.out || path.parent() == Some(&*a.out) => {
            anyhow::anyhow!("--out: {e}")
        }
        e => e.into(),
    }
}

fn run_gen(a: GenArgs) -> anyhow::Result<i32> {
    if !a.out.exists() {
        // Only the last folder is made: a typo in a parent is not silently created.
        let parent = a.out.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(parent) = parent.filter(|p| !p.is_dir()) {
            return Err(usage(format!(
                "--out {}: the parent folder {} does not exist (only the last folder is created)",
                a.out.display(),
                parent.display()
            )));
        }
    }
    if a.out.exists() && !a.out.is_dir() {
        return Err(usage(format!(
            "--out {}: not a folder (tablebase files go into a folder)",
            a.out.display()
        )));
    }
    let cluster = cluster(a.mpi, a.mpi_batch)?;
    let root = cluster.rank() == 0;
    let opts = GenOptions {
        threads: a.threads.map(usize::from),
        memory_mb: a.memory.unwrap_or_else(default_memory_mb),
        mirror: !a.no_mirror,
        progress: !a.quiet && !a.json,
        stop: Some(super::solve::stop_flag()),
        stop_after_sweeps: a.stop_after_sweeps,
        checkpoint_secs: a.checkpoint_every.or(if a.mpi { Some(600) } else { None }),
        one_pass: !a.fixpoint,
    };
    let t0 = Instant::now();
    let mut done: Vec<serde_json::Value> = Vec::new();
    // Rank 0 reports for the job.
    let mut on_layer = |r: &LayerReport| {
        if !root {
            return;
        }
        if a.json {
            done.push(layer_json(r));
        } else {
            print_layer(r);
        }
    };
    let reports =
        match a.game.as_str() {
            "giuthi" => {
                if a.fixpoint {
                    return Err(usage(
                        "--fixpoint: Giuthi's layers are always solved by the fixpoint sweeps \
                         (the option is Kalah's second method)",
                    ));
                }
                let v: Variant = a
                    .variant
                    .parse()
                    .map_err(|e| usage(format!("--variant {:?}: {e}", a.variant)))?;
                let g = Giuthi::new(a.pits, v).map_err(|e| pits_error(a.pits, e))?;
                generate_on(&g, &a.out, a.max_seeds, &opts, &*cluster, &mut on_layer)
            }
            "kalah" => {
                if !a.variant.is_empty() {
                    return Err(usage("--variant: kalah has no variants"));
                }
                if a.no_mirror {
                    return Err(usage(
                        "--no-mirror: kalah has no mirror symmetry to skip work by (the option \
                         is Giuthi's)",
                    ));
                }
                let k = Kalah::new(a.pits).map_err(|e| pits_error(a.pits, e))?;
                generate_on(&k, &a.out, a.max_seeds, &opts, &*cluster, &mut on_layer)
            }
            "kiothi" => return Err(usage(
                "--game kiothi: there are no Kiothi tablebases (tables exist for giuthi and kalah)",
            )),
            other => {
                return Err(usage(format!(
                    "--game: unknown game {other:?} (tables exist for giuthi and kalah)"
                )))
            }
        };
    if let Err(e) = &reports {
        if !matches!(e, TbError::Interrupted { .. }) && cluster.size() > 1 {
            eprintln!("error: rank {}: {e}", cluster.rank());
            cluster.abort(1);
        }
    }
    if !root {
        // Rank 0 reports for the job.
        return Ok(match reports {
            Ok(_) => 0,
            Err(TbError::Interrupted { .. }) => 130,
            Err(e) => return Err(gen_error(e, &a)),
        });
    }
    let secs = t0.elapsed().as_secs_f64();
    let summary = |stopped: Option<String>| {
        let positions: u64 = done.iter().filter_map(|l| l["positions"].as_u64()).sum();
        let bytes: u64 = done.iter().filter_map(|l| l["bytes"].as_u64()).sum();
        json!({
            "dir": a.out.display().to_string(),
            "layers": done,
            "positions": positions,
            "bytes": bytes,
            "seconds": secs,
            "stopped": stopped,
        })
    };
    let reports = match reports {
        Ok(r) => r,
        Err(e @ TbError::Interrupted { .. }) => {
            eprintln!("stopped: {e}");
            if a.json {
                println!("{}", summary(Some(e.to_string())));
            }
            return Ok(130);
        }
        Err(e) => return Err(gen_error(e, &a)),
    };
    if a.json {
        println!("{}", summary(None));
        return Ok(0);
    }
    let positions: u64 = reports.iter().map(|r| r.positions).sum();
    let bytes: u64 = reports.iter().map(|r| r.bytes).sum();
    println!("total: {positions} positions, {bytes} bytes, {secs:.3} s");
    Ok(0)
}

/// One layer of `tb gen --json`.
fn layer_json(r: &LayerReport) -> serde_json::Value {
    json!({
        "seeds": r.seeds,
        "positions": r.positions,
        "kept": r.skipped,
        "scanned": r.scanned,
        "edges": r.edges,
        "sweeps": r.sweeps,
        "seconds": r.millis as f64 / 1000.0,
        "cpu_seconds": r.cpu_millis as f64 / 1000.0,
        "bytes": r.bytes,
        "changed": r.changed,
        "max_changed_in_sweep": r.max_changed_in_sweep,
        "resumed_after_sweep": r.resumed_after_sweep,
    })
}

/// The processes of this run: MPI ranks with `--mpi`, else this process alone.
fn cluster(mpi: bool, batch: Option<usize>) -> anyhow::Result<Box<dyn Cluster>> {
    if !mpi {
        return Ok(Box::new(Solo));
    }
    #[cfg(feature = "mpi")]
    {
        let mut c = giuthi::tablebase::mpi::MpiCluster::init()
            .map_err(|e| anyhow::anyhow!("--mpi: {e}"))?;
        if let Some(b) = batch {
            c = c.with_batch(b);
        }
        Ok(Box::new(c))
    }
    #[cfg(not(feature = "mpi"))]
    let _ = batch;
    #[cfg(not(feature = "mpi"))]
    Err(usage(
        "--mpi: this build has no MPI support (build with: cargo build --release --features mpi)",
    ))
}

fn run_probe(a: ProbeArgs) -> anyhow::Result<i32> {
    existing_dir(&a.dir)?;
    let any = read_position(&a.position)?;
    match &any {
        AnyPosition::Giuthi(p) => probe_generic(&a, p),
        AnyPosition::Kalah(p) => probe_generic(&a, p),
        AnyPosition::Kiothi(_) => Err(super::usage(
            "tb probe: tablebases exist for Giuthi and Kalah only, not for Kiothi",
        )),
    }
}

fn probe_generic<R: TbGame + 'static>(a: &ProbeArgs, pos: &Position<R>) -> anyhow::Result<i32> {
    let t0 = Instant::now();
    let set = match TablebaseSet::open_complete(&a.dir, pos.rules.clone()) {
        Ok(set) => Arc::new(set),
        // No layer 0: no tables for this game, variant and board (as `solve --tb`).
        Err(TbError::MissingLayer { seeds: 0, path }) => {
            return Err(usage(format!(
                "{}: no tables for the position's game, variant and board (no {}); make \
                 them with `giuthi tb gen`",
                a.dir.display(),
                path.display()
            )))
        }
        Err(e) => return Err(e.into()),
    };
    let seeds = pos.rules.seeds_on_board(&pos.state);
    // A position the tables do not reach is a usage error (exit 2), as one for another
    // board is above.
    let no_layer = || {
        usage(format!(
            "the position has {seeds} seeds on the board; {} holds {} only",
            a.dir.display(),
            giuthi::tablebase::layer_span(0, set.max_seeds())
        ))
    };
    let status = Status::default();
    let show = progress::wanted(a.quiet, a.json);
    // The solver with these tables as its endgame oracle, as `solve --tb` runs it.
    let solver = Solver::try_new(
        pos.rules.clone(),
        SolverOptions {
            threads: 1,
            hash_mb: 64,
            ..SolverOptions::default()
        },
    )?
    .with_stop(super::solve::stop_flag())
    .with_oracle(set.clone());
    let mut method = "tables";
    let mut sol = if a.v3_moves {
        solve_position_v3(&set, pos).ok_or_else(no_layer)?
    } else {
        let limit = usize::try_from(a.v4_limit).unwrap_or(usize::MAX);
        status.set("V4 check of the moves that keep the seeds on the board");
        match with_status(show, &status, || solve_position(&set, pos, limit)) {
            Ok(sol) => sol.ok_or_else(no_layer)?,
            // Past the limit, every move's V4 value comes from the solver on these tables
            // (as `solve --tb --analyze`): it searches only what the answer needs.
            Err(_) => {
                let mut sol = solve_position_v3(&set, pos).ok_or_else(no_layer)?;
                status.set("V4 values by alpha-beta on the tables");
                let values = match with_status(show, &status, || solver.analyze(pos)) {
                    Ok(v) => v,
                    Err(_) => {
                        eprintln!("stopped: no V4 values yet");
                        return Ok(130);
                    }
                };
                let best = values.iter().map(|&(_, v)| v).max();
                if best.is_some_and(|b| b != sol.margin) {
                    anyhow::bail!(
                        "internal error: the solver on these tables finds margin {:+}, the tables {:+}",
                        best.unwrap_or_default(),
                        sol.margin
                    );
                }
                sol.moves = values;
                sol.upper_bounds.clear();
                method = "alpha-beta on the tables";
                sol
            }
        }
    };
    // The principal variation: the table values alone can lead round a cycle of
    // positions of equal value (a repetition ends the game in a draw, G10), so the line
    // is the solver's, which plays the moves with the path as history; its solve runs on
    // these tables, and must agree with them.
    status.set("principal variation by alpha-beta on the tables");
    match with_status(show, &status, || solver.solve(pos)) {
        Ok(s) if s.margin == sol.margin => {
            sol.pv = s.pv;
            sol.nodes += s.nodes;
        }
        Ok(s) => anyhow::bail!(
            "internal error: the solver on these tables finds margin {:+}, the tables {:+}",
            s.margin,
            sol.margin
        ),
        Err(_) => {
            eprintln!("note: stopped; the pv shown follows the table values and may repeat");
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let best: Vec<String> = sol.best_moves().iter().map(|m| m.to_string()).collect();
    let pv: Vec<String> = sol.pv.iter().map(|m| m.to_string()).collect();
    let line = Line::replay(pos, &sol.pv);
    if a.json {
        let moves: Vec<serde_json::Value> = sol
            .moves
            .iter()
            .map(|(m, v)| {
                json!({
                    "move": m.to_string(),
                    "margin": v,
                    "upper_bound": sol.upper_bounds.contains(m),
                })
            })
            .collect();
        let v = json!({
            "position": pos.to_string(),
            "lo": json_score(sol.bounds.lo),
            "hi": json_score(sol.bounds.hi),
            // Exact from the tables: each range is one value (as `solve --json` writes them).
            "lo_range": [json_score(sol.bounds.lo), json_score(sol.bounds.lo)],
            "hi_range": [json_score(sol.bounds.hi), json_score(sol.bounds.hi)],
            "margin": sol.margin,
            "result": sol.result().as_str(),
            "best_moves": best,
            "moves": moves,
            "pv": pv,
            "nodes": sol.nodes,
            "seconds": secs,
        });
        println!("{v}");
    } else {
        println!("position {pos}");
        println!("value    {}", sol.bounds);
        println!("margin   {:+} ({})", sol.margin, sol.result());
        if best.is_empty() {
            println!("best     (none: no legal move, the game is over)");
        } else if a.v3_moves {
            println!(
                "best     {} (V3: root not counted as played)",
                best.join(" ")
            );
        } else {
            println!("best     {}", best.join(" "));
        }
        for (m, v) in &sol.moves {
            if sol.upper_bounds.contains(m) {
                println!("  move {m:<6} <= {v:+} (V4 local solve over --v4-limit)");
            } else {
                println!("  move {m:<6} {v:+}");
            }
        }
        if method != "tables" {
            println!("  (V4 values by {method}: the tables' own check passed --v4-limit)");
        }
        println!("pv       {}", line.to_string().replace("\n", "\n      "));
        println!("nodes    {}  seconds {secs:.3}", sol.nodes);
    }
    Ok(0)
}

/// A score in JSON: a number, or the strings `"-inf"` / `"+inf"` for the infinities
/// (docs/cli.md, JSON output).
pub(super) fn json_score(v: giuthi::Score) -> serde_json::Value {
    match v {
        giuthi::value::NEG_INF => json!("-inf"),
        giuthi::value::POS_INF => json!("+inf"),
        v => json!(v),
    }
}

/// The rules of one group of files, and the generic work on it.
fn for_group(
    dir: &Path,
    (game, variant, n): (u8, u8, u8),
    f: &mut dyn FnMut(Group) -> anyhow::Result<bool>,
) -> anyhow::Result<bool> {
    if game == GameId::Giuthi.code() {
        let g = Giuthi::from_header(variant, n)?;
        let label = g.file_stem();
        f(Group::Giuthi(TablebaseSet::open_all(dir, g), label))
    } else {
        let k = Kalah::from_header(variant, n)?;
        let label = k.file_stem();
        f(Group::Kalah(TablebaseSet::open_all(dir, k), label))
    }
}

enum Group {
    Giuthi(
        Result<TablebaseSet<Giuthi>, giuthi::tablebase::TbError>,
        String,
    ),
    Kalah(
        Result<TablebaseSet<Kalah>, giuthi::tablebase::TbError>,
        String,
    ),
}

/// Layers are used from 0 up to the first missing one: files above a gap would be
/// ignored, so `tb stats` and `tb verify` report a gap as a failure: its message.
fn gap_message<R: TbGame>(set: &TablebaseSet<R>, dir: &Path, label: &str) -> Option<String> {
    let stranded = set.stranded_layers(dir);
    let (first, last) = (stranded.first()?, stranded.last()?);
    Some(format!(
        "{label}: layer {} is missing, so {} cannot be used",
        set.max_seeds() + 1,
        giuthi::tablebase::layer_span(*first, *last),
    ))
}

/// `--v4-limit`: a count of states, at least 1 (clap's range would print u64's maximum).
fn positive_states(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1 (0 would skip the check)".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("{e} (a count of states, at least 1)")),
    }
}

/// A tablebase folder given to `tb probe`, `tb stats` or `tb verify`: a usage error (exit 2) when it
/// is not a folder, as for `--tb`.
fn existing_dir(dir: &Path) -> anyhow::Result<()> {
    if dir.is_dir() {
        Ok(())
    } else if dir.exists() {
        Err(usage(format!("{}: not a folder", dir.display())))
    } else {
        Err(usage(format!("{}: no such folder", dir.display())))
    }
}

fn run_stats(a: StatsArgs) -> anyhow::Result<i32> {
    existing_dir(&a.dir)?;
    let (groups, bad) = scan_dir(&a.dir)?;
    let mut ok = bad.is_empty();
    // A bad file makes its group fail to open with the same error: print it once.
    let bad: Vec<String> = bad.iter().map(ToString::to_string).collect();
    for e in &bad {
        eprintln!("error: {e}");
    }
    if groups.is_empty() && bad.is_empty() {
        return Err(usage(format!("{}: no tablebase files", a.dir.display())));
    }
    let mut all = Vec::new();
    for key in groups {
        ok &= for_group(&a.dir, key, &mut |g| {
            macro_rules! stats {
                ($set:expr, $label:expr) => {{
                    let set = match $set {
                        Ok(s) => s,
                        Err(e) => {
                            if !bad.contains(&e.to_string()) {
                                eprintln!("error: {e}");
                            }
                            return Ok(false);
                        }
                    };
                    let rows: Vec<_> = set.layers().iter().map(layer_stats).collect();
                    if !a.json {
                        println!("{}:", $label);
                        println!(
                            "{:>5} {:>12} {:>12} {:>12} {:>12} {:>12} {:>13} {:>10} {:>6}",
                            "layer", "positions", "wins", "draws", "losses", "lo!=hi", "bytes", "seconds", "sweeps"
                        );
                        for r in &rows {
                            println!(
                                "{:>5} {:>12} {:>12} {:>12} {:>12} {:>12} {:>13} {:>10.3} {:>6}",
                                r.seeds, r.positions, r.wins, r.draws, r.losses, r.lo_ne_hi, r.bytes, r.seconds, r.sweeps
                            );
                        }
                    }
                    all.push(json!({ "tables": $label, "layers": rows }));
                    match gap_message(&set, &a.dir, &$label) {
                        Some(m) => {
                            eprintln!("error: {m}");
                            Ok(false)
                        }
                        None => Ok(true),
                    }
                }};
            }
            match g {
                Group::Giuthi(set, label) => stats!(set, label),
                Group::Kalah(set, label) => stats!(set, label),
            }
        })?;
    }
    if a.json {
        println!("{}", serde_json::Value::Array(all));
    }
    Ok(if ok { 0 } else { 1 })
}

fn run_verify(a: VerifyArgs) -> anyhow::Result<i32> {
    existing_dir(&a.dir)?;
    let (groups, bad) = scan_dir(&a.dir)?;
    let mut ok = bad.is_empty();
    // Text lines go out as they come; with --json everything is one object at the end.
    let say = |line: String| {
        if !a.json {
            println!("{line}");
        }
    };
    // A bad file makes its group fail to open with the same error: print it once.
    let bad: Vec<String> = bad.iter().map(ToString::to_string).collect();
    let mut failures: Vec<String> = bad.clone();
    for e in &bad {
        say(format!("FAIL {e}"));
    }
    if groups.is_empty() && bad.is_empty() {
        return Err(usage(format!("{}: no tablebase files", a.dir.display())));
    }
    let samples = if a.all { None } else { Some(a.samples) };
    let status = Status::default();
    let show = progress::wanted(a.quiet, a.json);
    let mut tables: Vec<serde_json::Value> = Vec::new();
    for key in groups {
        ok &= for_group(&a.dir, key, &mut |g| {
            macro_rules! verify {
                ($set:expr, $label:expr) => {{
                    let set = match $set {
                        Ok(s) => s,
                        Err(e) => {
                            if !bad.contains(&e.to_string()) {
                                say(format!("FAIL {}: {e}", $label));
                                failures.push(format!("{}: {e}", $label));
                            }
                            return Ok(false);
                        }
                    };
                    let gap = gap_message(&set, &a.dir, &$label);
                    if let Some(m) = &gap {
                        say(format!("FAIL {m}"));
                        failures.push(m.clone());
                    }
                    let mut good = gap.is_none();
                    let mut layers = Vec::new();
                    for s in 0..=set.max_seeds() {
                        status.set(format!("verifying {} layer {s} of {}", $label, set.max_seeds()));
                        let r = with_status(show, &status, || verify_layer(&set, s, samples, a.seed));
                        say(format!(
                            "{} layer {:>3}: checksum ok, {} re-derived, {}",
                            $label, s, count(r.checked, "entry", "entries"), count(r.mismatches, "mismatch", "mismatches")
                        ));
                        for ex in &r.examples {
                            say(format!("  {ex}"));
                        }
                        good &= r.mismatches == 0;
                        layers.push(json!({
                            "seeds": s,
                            "checked": r.checked,
                            "mismatches": r.mismatches,
                            "examples": r.examples,
                        }));
                    }
                    tables.push(json!({"tables": $label, "layers": layers}));
                    Ok(good)
                }};
            }
            match g {
                Group::Giuthi(set, label) => verify!(set, label),
                Group::Kalah(set, label) => verify!(set, label),
            }
        })?;
    }
    if a.json {
        let v = json!({
            "dir": a.dir.display().to_string(),
            "ok": ok,
            "failures": failures,
            "tables": tables,
        });
        println!("{v}");
    } else {
        println!("{}", if ok { "verify: ok" } else { "verify: FAILED" });
    }
    Ok(if ok { 0 } else { 1 })
}
