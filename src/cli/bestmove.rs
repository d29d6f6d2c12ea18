//! `giuthi bestmove` (not implemented yet).

/// Arguments of `giuthi bestmove`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `giuthi bestmove`; returns the exit code.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    Err(super::usage("giuthi bestmove is not implemented yet"))
}
