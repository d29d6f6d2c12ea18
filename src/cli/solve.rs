//! `giuthi solve` (not implemented yet).

/// Arguments of `giuthi solve`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `giuthi solve`; returns the exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    Err(super::usage("giuthi solve is not implemented yet"))
}
