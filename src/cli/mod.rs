//! Command-line front end (clap + anyhow only; all logic lives in the library).

/// Runs the command line and returns the process exit code.
pub fn run() -> i32 {
    0
}
