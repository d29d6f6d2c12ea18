//! `giuthi bench` (not implemented yet).

/// Arguments of `giuthi bench`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `giuthi bench`; returns the exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    Err(super::usage("giuthi bench is not implemented yet"))
}
