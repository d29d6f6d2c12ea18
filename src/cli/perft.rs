//! `giuthi perft` (not implemented yet).

/// Arguments of `giuthi perft`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `giuthi perft`; returns the exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    Err(super::usage("giuthi perft is not implemented yet"))
}
