//! Which game a position string belongs to: [`AnyPosition`], chosen by the first word of
//! its notation (RULES.md N1), and the [`with_position!`](crate::with_position) macro that
//! runs generic code on it.
//!
//! This dispatch sits above the rules (it names every game); the shared field parsers it
//! and the games use live below them, in [`crate::notation`].
//!
//! # Examples
//!
//! ```
//! use giuthi::AnyPosition;
//! let p: AnyPosition = "kalah 4,4,4/4,4,4 S 0,0".parse()?;
//! assert!(matches!(p, AnyPosition::Kalah(_)));
//! assert_eq!(p.to_string(), "kalah 4,4,4/4,4,4 S 0,0");
//! # Ok::<(), giuthi::ParsePositionError>(())
//! ```

use crate::notation::{split_head, ParsePositionError};
use crate::position::Position;
use crate::rules::giuthi::Giuthi;
use crate::rules::kalah::Kalah;
use crate::rules::kiothi::Kiothi;
use crate::rules::Rules;
use std::fmt;
use std::str::FromStr;

/// A position of any game the engine knows, chosen by the first word of its notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyPosition {
    /// A Giuthi position.
    Giuthi(Position<Giuthi>),
    /// A Kalah position.
    Kalah(Position<Kalah>),
    /// A Kiothi position (RULES.md K1-K12).
    Kiothi(Position<Kiothi>),
}

impl FromStr for AnyPosition {
    type Err = ParsePositionError;
    fn from_str(text: &str) -> Result<Self, ParsePositionError> {
        let (game, variant, fields) = split_head(text)?;
        match game {
            "giuthi" => Ok(AnyPosition::Giuthi(Giuthi::parse_fields(variant, &fields)?)),
            "kalah" => Ok(AnyPosition::Kalah(Kalah::parse_fields(variant, &fields)?)),
            "kiothi" => Ok(AnyPosition::Kiothi(Kiothi::parse_fields(variant, &fields)?)),
            _ => Err(ParsePositionError::UnknownGame(game.to_string())),
        }
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyPosition::Giuthi(p) => p.fmt(f),
            AnyPosition::Kalah(p) => p.fmt(f),
            AnyPosition::Kiothi(p) => p.fmt(f),
        }
    }
}

/// Runs generic code on the position inside an [`AnyPosition`]:
/// `with_position!(any, p => expr)` binds `p: &Position<R>` for the right `R`.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Giuthi($p) => $body,
            $crate::AnyPosition::Kalah($p) => $body,
            $crate::AnyPosition::Kiothi($p) => $body,
        }
    };
}
