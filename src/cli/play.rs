//! `giuthi play` (not implemented yet).

/// Arguments of `giuthi play`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `giuthi play`; returns the exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    Err(super::usage("giuthi play is not implemented yet"))
}
