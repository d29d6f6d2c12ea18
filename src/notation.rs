//! Position notation (RULES.md N1, N3, N4): the shared field parsers and printers.
//!
//! This module sits below the rules: every game's parser (`Rules::parse_fields`) uses
//! these pieces, and nothing here names a game's types. Which game a string belongs to is
//! decided above the rules, in [`crate::any`] ([`AnyPosition`](crate::AnyPosition)).
//!
//! # Format
//!
//! `<game>[:<variant>] <board> <turn> [<captured>]`, fields separated by single spaces.
//! `<board>` lists the seeds of pits `0..2n` in index order, comma separated, with `/`
//! between North's row (pits `0..n`) and South's row; `<turn>` is `S` or `N`;
//! `<captured>` is `<south>,<north>` (default `0,0`). The canonical form always prints the
//! captured field, omits default variants and writes numbers without leading zeros.
//!
//! # Stability
//!
//! The canonical form is a contract (scripts and `positions/` files depend on it).
//!
//! # Examples
//!
//! ```
//! use giuthi::AnyPosition;
//! let p: AnyPosition = "giuthi:chain=one 4,4,4,4,4/4,4,4,4,4 S".parse()?;
//! assert_eq!(p.to_string(), "giuthi:chain=one 4,4,4,4,4/4,4,4,4,4 S 0,0");
//! let err = "giuthi 4,4,4,4,4/4,4,4,4 S".parse::<AnyPosition>().unwrap_err();
//! assert!(err.to_string().starts_with("field board"));
//! # Ok::<(), giuthi::ParsePositionError>(())
//! ```

use crate::types::{BySide, Side};
use std::fmt;

/// A position string that does not parse; the message names the field and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// Nothing to parse.
    #[error(
        "field game: the position is empty (expected e.g. \"giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0\")"
    )]
    Empty,
    /// The first word is not a known game.
    #[error("field game: unknown game {0:?} (expected giuthi, kalah or kiothi)")]
    UnknownGame(String),
    /// Too few or too many space-separated fields.
    #[error("field {field}: {reason}")]
    Fields {
        /// The field concerned.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A bad variant.
    #[error(transparent)]
    Variant(#[from] ParseVariantError),
    /// The board field is malformed.
    #[error("field board: {0}")]
    Board(String),
    /// A required field is absent.
    #[error("field {field}: missing ({expected})")]
    Missing {
        /// The field that is absent.
        field: &'static str,
        /// What belongs there.
        expected: &'static str,
    },
    /// The turn field is not `S` or `N`.
    #[error("field turn: expected S or N, found {0:?}")]
    Turn(String),
    /// The captured field is malformed.
    #[error("field {field}: {reason}")]
    Captured {
        /// `captured`, `stores` or `prisons`.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// Any other field-specific error.
    #[error("field {field}: {reason}")]
    Other {
        /// The field concerned.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// A variant string that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseVariantError {
    /// Not of the form `key=value`.
    #[error("field variant: expected key=value, found {0:?}")]
    Syntax(String),
    /// An unknown key.
    #[error("field variant: unknown key {0:?} (keys: chain, origin, end)")]
    UnknownKey(String),
    /// A value the key does not take.
    #[error("field variant: {key} takes {expected}, found {found:?}")]
    UnknownValue {
        /// The key.
        key: &'static str,
        /// The values it takes.
        expected: &'static str,
        /// The value given.
        found: String,
    },
    /// A key given twice.
    #[error("field variant: key {0} given twice")]
    Repeated(&'static str),
}

/// Parses one number without sign or leading zeros.
///
/// # Errors
///
/// A message saying why `text` is not a plain non-negative number up to `max`.
pub fn parse_count(text: &str, max: u64) -> Result<u64, String> {
    if text.is_empty() {
        return Err("empty number".to_string());
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{text:?} is not a non-negative whole number"));
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(format!("{text:?} has a leading zero"));
    }
    match text.parse::<u64>() {
        Ok(v) if v <= max => Ok(v),
        _ => Err(format!("{text:?} is larger than {max}")),
    }
}

/// Parses the `<board>` field: two rows of equal length, `/` between them.
/// Returns the pits in index order (North's row first) and the row length.
///
/// # Errors
///
/// [`ParsePositionError::Board`] naming the pit and the reason.
pub fn parse_rows(
    text: &str,
    min_n: usize,
    max_n: usize,
    max_pit: u64,
) -> Result<(Vec<u64>, usize), ParsePositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 2 {
        return Err(ParsePositionError::Board(format!(
            "expected two rows separated by one '/', found {} row(s) in {text:?}",
            rows.len()
        )));
    }
    let north: Vec<&str> = rows[0].split(',').collect();
    let south: Vec<&str> = rows[1].split(',').collect();
    if north.len() != south.len() {
        return Err(ParsePositionError::Board(format!(
            "the rows differ in length: North has {} pits, South {}",
            north.len(),
            south.len()
        )));
    }
    let n = north.len();
    if n < min_n || n > max_n {
        return Err(ParsePositionError::Board(format!(
            "{n} {} a row; this game takes {min_n} to {max_n}",
            if n == 1 { "pit" } else { "pits" }
        )));
    }
    let mut pits = Vec::with_capacity(2 * n);
    for (i, t) in north.iter().chain(south.iter()).enumerate() {
        let v = parse_count(t, max_pit)
            .map_err(|e| ParsePositionError::Board(format!("pit {i}: {e}")))?;
        pits.push(v);
    }
    Ok((pits, n))
}

/// Parses the `<turn>` field.
///
/// # Errors
///
/// [`ParsePositionError::Turn`].
pub fn parse_turn(text: &str) -> Result<Side, ParsePositionError> {
    match text {
        "S" => Ok(Side::South),
        "N" => Ok(Side::North),
        _ => Err(ParsePositionError::Turn(text.to_string())),
    }
}

/// The most seeds one side may have captured (or hold in its store or prison) in a
/// position given to the engine: with at most 255 seeds on the board
/// (`rules::giuthi::MAX_SEEDS_ON_BOARD`) every total and margin the engine forms stays
/// within its 16-bit counts (a count of 32,768 or more gave wrong margins; docs/rules.md).
pub const MAX_CAPTURED: u16 = 10_000;

/// Parses a `<south>,<north>` pair of counts (captured seeds, stores, prisons), each at
/// most [`MAX_CAPTURED`].
///
/// # Errors
///
/// [`ParsePositionError::Captured`] naming `field`, the side and the reason.
pub fn parse_pair(field: &'static str, text: &str) -> Result<BySide<u16>, ParsePositionError> {
    let bad = |reason: String| ParsePositionError::Captured { field, reason };
    let (s, n) = text
        .split_once(',')
        .ok_or_else(|| bad(format!("expected <south>,<north>, found {text:?}")))?;
    if n.contains(',') {
        // Say what is wrong (N1: two numbers, South's first), not that `2,5` is no number.
        let count = text.split(',').count();
        return Err(bad(format!(
            "expected 2 numbers <south>,<north>, found {count}: {text:?}"
        )));
    }
    let max = MAX_CAPTURED as u64;
    let s = parse_count(s, max).map_err(|e| bad(format!("south: {e}")))?;
    let n = parse_count(n, max).map_err(|e| bad(format!("north: {e}")))?;
    Ok(BySide::new(s as u16, n as u16))
}

/// Writes `n`-pit rows `0..n / n..2n`, comma separated.
pub fn write_rows(
    f: &mut fmt::Formatter<'_>,
    pits: impl Iterator<Item = u32>,
    n: usize,
) -> fmt::Result {
    for (i, v) in pits.enumerate() {
        if i == n {
            f.write_str("/")?;
        } else if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{v}")?;
    }
    Ok(())
}

/// Splits `game[:variant]` and the remaining fields.
pub fn split_head(text: &str) -> Result<(&str, &str, Vec<&str>), ParsePositionError> {
    if text.trim().is_empty() {
        return Err(ParsePositionError::Empty);
    }
    if text != text.trim() || text.contains("  ") || text.contains('\t') {
        return Err(ParsePositionError::Fields {
            field: "position",
            reason: "fields are separated by single spaces, with no leading or trailing space"
                .to_string(),
        });
    }
    let mut fields: Vec<&str> = text.split(' ').collect();
    let head = fields.remove(0);
    let (game, variant) = head.split_once(':').unwrap_or((head, ""));
    if head.ends_with(':') && KNOWN_GAMES.contains(&game) {
        // `giuthi:` names a variant and gives none (N1, N4).
        return Err(ParseVariantError::Syntax(String::new()).into());
    }
    Ok((game, variant, fields))
}

/// The game names the notation knows.
pub const KNOWN_GAMES: &[&str] = &["giuthi", "kalah", "kiothi"];
