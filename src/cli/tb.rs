//! `giuthi tb ...` (not implemented yet).

/// The tablebase subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Generate tablebases (not implemented yet).
    Gen,
}

/// Runs a `giuthi tb` subcommand; returns the exit code.
pub fn run(_cmd: Command) -> anyhow::Result<i32> {
    Err(super::usage("giuthi tb is not implemented yet"))
}
