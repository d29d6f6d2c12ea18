//! Shared helpers of the subcommands: reading positions, usage errors.

use anyhow::Context;
use giuthi::AnyPosition;
use std::path::Path;

/// A usage error (bad argument, malformed position or move, illegal move): exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

/// Wraps a message as a usage error.
pub fn usage(msg: impl std::fmt::Display) -> anyhow::Error {
    anyhow::Error::new(Usage(msg.to_string()))
}

/// Reads a POSITION argument: a position string, or the path of a file whose first
/// non-comment, non-empty line is one.
#[allow(dead_code)] // used by the subcommands as they land
pub fn read_position(arg: &str) -> anyhow::Result<AnyPosition> {
    let looks_like_position = arg.split(' ').count() >= 3
        || arg.starts_with("giuthi")
        || arg.starts_with("kalah")
        || arg.starts_with("kiothi");
    let path = Path::new(arg);
    if !looks_like_position && path.is_file() {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading position file {}", path.display()))?;
        let line = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .ok_or_else(|| usage(format!("{}: no position in the file", path.display())))?;
        // A positions/ line may carry a recorded solution after " | ".
        let line = line.split(" | ").next().unwrap_or(line).trim();
        return line
            .parse()
            .map_err(|e| usage(format!("{}: {e}", path.display())));
    }
    arg.parse().map_err(|e| {
        if !looks_like_position && !path.exists() && !arg.contains(',') {
            usage(format!("{e} (and no file named {arg:?} exists)"))
        } else {
            usage(e)
        }
    })
}
