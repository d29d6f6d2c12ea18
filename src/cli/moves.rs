//! `giuthi moves` (not implemented yet).

/// Arguments of `giuthi moves`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `giuthi moves`; returns the exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    Err(super::usage("giuthi moves is not implemented yet"))
}
