//! `giuthi analyze` (not implemented yet).

/// Arguments of `giuthi analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `giuthi analyze`; returns the exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    Err(super::usage("giuthi analyze is not implemented yet"))
}
