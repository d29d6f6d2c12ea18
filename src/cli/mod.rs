//! Command-line front end (clap + anyhow only; all logic lives in the library).
//!
//! Each subcommand is one file with an `Args` struct and a `run` function. Exit codes:
//! 0 success, 1 failure (a check that found a mismatch, an I/O error, a corrupt file),
//! 2 usage error (bad arguments, a malformed position or move, an illegal move).

mod analyze;
mod anytime;
mod bench;
mod bestmove;
mod common;
mod match_;
mod moves;
mod perft;
mod play;
mod plot;
mod progress;
mod serve;
mod show;
mod signals;
mod solve;
mod start;
mod tb;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
pub use common::{usage, Usage};

/// giuthi: exact solver for Giuthi, Kiothi and Kalah positions.
///
/// Positions are written in the notation of RULES.md N1, for example
/// `giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0` (North's row, '/', South's row, side to move,
/// captured seeds south,north). Wherever a POSITION is asked for, a path to a file whose
/// first non-comment line is a position works too.
#[derive(Debug, Parser)]
#[command(name = "giuthi", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a start position.
    Start(start::Args),
    /// Draw a position as a player sees it.
    Show(show::Args),
    /// List the legal moves of a position and what each does.
    Moves(moves::Args),
    /// Apply moves to a position and print the result.
    Play(play::Args),
    /// Count move sequences to a depth (move-generator check).
    Perft(perft::Args),
    /// Solve positions exactly: value, result, best moves, principal variation.
    Solve(solve::Args),
    /// The value of every legal move of a position (exact when proven; --movetime).
    Analyze(analyze::Args),
    /// The best move of a position (exact when proven, else heuristic; --movetime).
    Bestmove(bestmove::Args),
    /// Play matches between engine settings and baselines; wins, draws, losses and Elo.
    Match(match_::Args),
    /// Solve a fixed suite single-threaded and print a deterministic node count and speed.
    Bench(bench::Args),
    /// Plot the solved start positions of a positions file (margin by board and seeds).
    Plot(plot::Args),
    /// Serve the analysis board in the browser (HTTP on 127.0.0.1, docs/serve.md).
    Serve(serve::Args),
    /// Endgame tablebases: generate, probe, inspect, verify.
    #[command(subcommand)]
    Tb(tb::Command),
}

/// Runs the command line and returns the process exit code.
pub fn run() -> i32 {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with code 0, usage errors with code 2.
            let _ = e.print();
            return e.exit_code();
        }
    };
    let result = match cli.command {
        Command::Start(a) => start::run(a),
        Command::Show(a) => show::run(a),
        Command::Moves(a) => moves::run(a),
        Command::Play(a) => play::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Bestmove(a) => bestmove::run(a),
        Command::Match(a) => match_::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Plot(a) => plot::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Tb(c) => tb::run(c),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", common::clip(&common::locate(error_text(&e))));
            if e.chain().any(|c| c.is::<Usage>()) {
                2
            } else {
                1
            }
        }
    }
}

/// Parses the command line. Every command takes a negative number as an option's value,
/// so `--hash -5` is refused by the option's own parser, which names the option, rather
/// than reported as an unexpected argument `-5`.
fn parse() -> Result<Cli, clap::Error> {
    fn negatives(cmd: clap::Command) -> clap::Command {
        cmd.allow_negative_numbers(true).mut_subcommands(negatives)
    }
    let mut matches = negatives(Cli::command()).try_get_matches()?;
    Cli::from_arg_matches_mut(&mut matches)
}

/// An error and its causes joined by `: `, leaving out a cause whose text the message
/// already holds (an I/O error embedded in its file's error would print twice).
fn error_text(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !text.contains(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text
}
