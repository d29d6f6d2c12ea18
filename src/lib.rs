//! `giuthi`: an exact solver for the relay-sowing mancala games of Mount Kenya,
//! Giuthi (Kikuyu and Embu) and Kiothi (Meru), with Kalah as a reference game.
//!
//! The rules are those of the project's rule book (`RULES.md`, clause IDs G*, K*, R*, V*,
//! N*); the project's own reading of it is `docs/rules.md`.
//!
//! # Examples
//!
//! Parse the 2x5 start position, list the moves, play one:
//!
//! ```
//! use giuthi::{Position, Side};
//! use giuthi::rules::giuthi::Giuthi;
//!
//! let start: Position<Giuthi> = "giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0".parse()?;
//! let moves: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves[0], "5cw");
//! assert_eq!(moves.len(), 10);
//! let after = start.play_str("5cw")?;
//! assert_eq!(after.turn(), Side::North);
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

#![warn(missing_docs)]

pub mod any;
pub mod anytime;
pub mod checksum;
pub mod fsutil;
pub mod index;
pub mod line;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod server;
pub mod solve;
pub mod tablebase;
pub mod types;
pub mod value;

pub use any::AnyPosition;
pub use notation::ParsePositionError;
pub use position::Position;
pub use rules::{Child, IllegalMove, ParseMoveError, Rules};
pub use types::{BySide, Direction, Side};
pub use value::{Bounds, GameResult, Score};
