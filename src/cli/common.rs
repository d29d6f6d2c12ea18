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

/// The last position [`read_position`] read from a file: its canonical text and
/// `FILE:LINE`.
static SOURCE: std::sync::Mutex<Option<(String, String)>> = std::sync::Mutex::new(None);

/// An error message about a position read from a file (it starts with the position's
/// text, as every message about a position the command cannot take does) with the file
/// and line in front: `positions/kiothi-start.txt:4: kiothi ...: an opening
/// redistribution is due (K3) ...`. Other messages are returned as they are.
pub fn locate(msg: String) -> String {
    match SOURCE.lock().ok().and_then(|s| s.clone()) {
        Some((pos, at)) if msg.starts_with(&pos) => format!("{at}: {msg}"),
        _ => msg,
    }
}

/// Reads a POSITION argument: a position string, or the path of a file whose first
/// non-comment, non-empty line is one (anything after ` | ` on that line, such as a
/// recorded solution, is ignored).
///
/// The string is tried as a position first, so a file may have any name (even one that
/// starts with a game's name, `giuthi-2x8.txt`).
///
/// # Errors
///
/// A usage error naming the field and the reason (and the file, when read from one); an
/// I/O error when the file exists but cannot be read.
pub fn read_position(arg: &str) -> anyhow::Result<AnyPosition> {
    let err = match arg.parse::<AnyPosition>() {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let path = Path::new(arg);
    if !arg.is_empty() && path.is_file() {
        let text = read_text(path, "position file")?;
        let (no, line) = text
            .lines()
            .map(str::trim)
            .enumerate()
            .find(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .ok_or_else(|| usage(format!("{}: no position in the file", path.display())))?;
        // A positions/ line may carry a recorded solution after " | ".
        let line = line.split(" | ").next().unwrap_or(line).trim();
        let any: AnyPosition = line
            .parse()
            .map_err(|e| usage(format!("{}:{}: {e}", path.display(), no + 1)))?;
        if let Ok(mut s) = SOURCE.lock() {
            *s = Some((any.to_string(), format!("{}:{}", path.display(), no + 1)));
        }
        return Ok(any);
    }
    let looks_like_path = !arg.is_empty() && !arg.contains(' ') && !arg.contains(',');
    // A path-like word (a folder separator or a file extension) is a file the user meant.
    let surely_path = looks_like_path && (arg.contains('/') || arg.contains('.'));
    if looks_like_path && path.is_dir() {
        Err(usage(format!(
            "{arg}: a directory, not a position file (and not a position either: {err})"
        )))
    } else if looks_like_path && path.exists() {
        // A device, pipe or socket (`/dev/null`): it exists, so "no such file" would be wrong.
        Err(usage(format!(
            "{arg}: not a regular file (a device, pipe or socket); give a position or a \
             position file (and it is not a position either: {err})"
        )))
    } else if surely_path {
        Err(usage(format!(
            "{arg}: no such file: no file named {arg:?} exists (and it is not a position \
             either: {err})"
        )))
    } else if looks_like_path {
        Err(usage(format!("{err} (and no file named {arg:?} exists)")))
    } else {
        Err(usage(err))
    }
}

/// Reads a text file the user named (a FILE argument).
///
/// # Errors
///
/// A usage error (exit 2) naming `what` and the path when nothing is there, or a folder
/// is; an I/O error (exit 1) when the file exists but cannot be read.
pub fn read_named_file(what: &str, path: &Path) -> anyhow::Result<String> {
    if path.is_dir() {
        return Err(usage(format!(
            "{what} {}: a folder, not a file",
            path.display()
        )));
    }
    if !path.exists() {
        return Err(usage(format!("{what} {}: no such file", path.display())));
    }
    read_text(path, what)
}

/// The text of the file at `path`, without a leading byte-order mark ([`without_bom`]).
///
/// # Errors
///
/// An I/O error (exit 1) when the file cannot be read, naming it after `context` (what
/// the file is, for the message: `"FILE"`, `"positions file"`); a
/// usage error (exit 2) naming the file and the line when its bytes are not UTF-8 text
/// (a binary file given as positions, say).
pub fn read_text(path: &Path, context: &str) -> anyhow::Result<String> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("{context} {}: cannot read it", path.display()))?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(without_bom(text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
            Err(usage(format!(
                "{}:{line}: not UTF-8 text (positions and records are plain text files)",
                path.display()
            )))
        }
    }
}

/// The text of a file without a leading UTF-8 byte-order mark (U+FEFF, as Windows
/// Notepad writes it): a positions file saved that way reads like any other.
pub fn without_bom(text: String) -> String {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// Says on stderr when `--hash MB` cannot be used as asked: the transposition table holds
/// a power of two of buckets, so a size that is not a power of two of megabytes gets the
/// largest such table below it (issue 16: `--hash 127` silently gave 64 MB).
pub fn note_hash_rounding(hash_mb: Option<u32>) {
    if let Some(mb) = hash_mb {
        let bytes = giuthi::solve::tt::Table::bytes_for_mb(mb as usize) as usize;
        if bytes != (mb as usize) << 20 {
            eprintln!(
                "note: --hash {mb}: the table uses {} MB (its size is a power of two of \
                 megabytes, the largest not above the size asked)",
                bytes >> 20
            );
        }
    }
}

/// `n` and the noun, singular or plural: `1 mismatch`, `2 mismatches`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// An error message cut to a readable length: a line longer than 400 characters keeps
/// its start and end, with the number of characters left out (a malformed 2 MB line is
/// not echoed in full).
pub fn clip(text: &str) -> String {
    const MAX: usize = 400;
    text.lines()
        .map(|line| {
            let chars: Vec<char> = line.chars().collect();
            if chars.len() <= MAX {
                return line.to_string();
            }
            let head: String = chars[..240].iter().collect();
            let tail: String = chars[chars.len() - 120..].iter().collect();
            format!(
                "{head} [... {} characters left out ...] {tail}",
                chars.len() - 360
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a game calls the seeds a side has taken: Giuthi's leave the board ("captured"),
/// Kalah's go to a store, Kiothi's to a prison.
pub fn taken_word(game: &str) -> &'static str {
    match game {
        "kalah" => "store",
        "kiothi" => "prison",
        _ => "captured",
    }
}

/// Whether the game has a store (or prison) at each end of the board, drawn by `show`.
pub fn has_stores(game: &str) -> bool {
    matches!(game, "kalah" | "kiothi")
}

/// Whether the game ends in a draw when a position repeats (Giuthi G10, Kiothi K11).
/// Kalah (R1-R4) has no such clause, and needs none: a move that puts no seed in a store
/// moves the mover's seeds strictly towards its store and leaves the other row alone, so
/// no Kalah position can recur.
pub fn has_repetition_rule(game: &str) -> bool {
    game != "kalah"
}

/// The final scores of a finished game in words, e.g. `South 8, North 2: South wins by 6`.
pub fn scores_line(scores: giuthi::BySide<i32>) -> String {
    let (s, n) = (scores.south, scores.north);
    let verdict = match s.cmp(&n) {
        std::cmp::Ordering::Greater => format!("South wins by {}", s - n),
        std::cmp::Ordering::Less => format!("North wins by {}", n - s),
        std::cmp::Ordering::Equal => "a draw".to_string(),
    };
    format!("South {s}, North {n}: {verdict}")
}

/// Writes `text` to standard output. A closed pipe (`giuthi moves ... | head -1`) is not
/// an error: the reader has all it wanted, so the rest is dropped quietly instead of the
/// panic of `print!`.
///
/// # Errors
///
/// Any other I/O error on standard output.
pub fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("writing to standard output"))
        }
        _ => Ok(()),
    }
}

/// A value parser for a whole-number option from `lo` to `hi` (`u64::MAX`: no upper
/// bound) whose error says what was wrong in words: `-1 is out of range: expected 1 or
/// more`, not Rust's `invalid digit found in string`.
pub fn whole<T: TryFrom<u64>>(
    lo: u64,
    hi: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        let expected = if hi == u64::MAX {
            format!("expected {lo} or more")
        } else {
            format!("expected {lo} to {hi}")
        };
        let n: i128 = text
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a whole number ({expected})"))?;
        if n < i128::from(lo) || n > i128::from(hi) {
            return Err(format!("{n} is out of range ({expected})"));
        }
        T::try_from(n as u64).map_err(|_| format!("{n} is too large for this machine"))
    }
}
