//! `giuthi show` (not implemented yet).

/// Arguments of `giuthi show`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `giuthi show`; returns the exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    Err(super::usage("giuthi show is not implemented yet"))
}
