//! `giuthi start` (not implemented yet).

/// Arguments of `giuthi start`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `giuthi start`; returns the exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    Err(super::usage("giuthi start is not implemented yet"))
}
