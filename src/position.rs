//! A full position: the rules, the store-independent state and the captured seeds.

use crate::notation::{split_head, ParsePositionError, KNOWN_GAMES};
use crate::rules::{Child, IllegalMove, Rules};
use crate::types::{BySide, Side};
use std::fmt;
use std::str::FromStr;

/// A position of game `R`: rules (board size, variant), state (board, turn) and the seeds
/// each side has captured (in Kalah and Kiothi: the stores or prisons).
///
/// Printing and parsing follow RULES.md N1 (see [`crate::notation`]).
///
/// # Examples
///
/// ```
/// use giuthi::{Position, Side};
/// use giuthi::rules::giuthi::Giuthi;
/// let pos: Position<Giuthi> = "giuthi 4,4,4,4,4/4,4,4,4,4 S".parse()?;
/// assert_eq!(pos.to_string(), "giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0");
/// let next = pos.play_str("9ccw")?;
/// assert_eq!(next.turn(), Side::North);
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position<R: Rules> {
    /// The rules of the game.
    pub rules: R,
    /// Board and turn.
    pub state: R::State,
    /// Seeds captured so far (out of play, or in the stores), per side.
    pub captured: BySide<u16>,
}

impl<R: Rules> Position<R> {
    /// Builds a position.
    pub fn new(rules: R, state: R::State, captured: BySide<u16>) -> Position<R> {
        Position {
            rules,
            state,
            captured,
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.rules.turn(&self.state)
    }

    /// The mover's captured seeds minus the opponent's (the `D` of RULES.md V3).
    pub fn captured_difference(&self) -> i32 {
        let t = self.turn();
        self.captured[t] as i32 - self.captured[t.opponent()] as i32
    }

    /// Every legal move with its result, in the rules' stable order (a lone pass when the
    /// mover must pass; empty when the game is over).
    pub fn children(&self) -> Vec<Child<R>> {
        let mut out = Vec::new();
        self.rules.children(&self.state, &mut out);
        out
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<R::Move> {
        self.children().into_iter().map(|c| c.mv).collect()
    }

    /// Whether the game is over (no legal move, not even a pass). Never in a position whose
    /// moves cannot be listed ([`Rules::can_enumerate`], the Kiothi opening).
    ///
    /// A legal move of a short sowing answers at once: a Kiothi sowing of millions of laps
    /// (K11) is sown to its end only when no shorter one is legal ([`crate::rules::root_moves`]).
    pub fn is_over(&self) -> bool {
        self.rules.can_enumerate(&self.state)
            && crate::rules::root_moves(&self.rules, &self.state, &mut || true)
                .0
                .is_empty()
    }

    /// The position after a child of this position (captured seeds credited to the mover).
    pub fn after(&self, child: &Child<R>) -> Position<R> {
        let mut captured = self.captured;
        let mover = self.turn();
        captured[mover] = captured[mover].saturating_add(child.captured);
        Position {
            rules: self.rules.clone(),
            state: child.state,
            captured,
        }
    }

    /// Plays `mv`, or says why it is illegal.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] naming the move and the reason.
    pub fn play(&self, mv: R::Move) -> Result<Position<R>, IllegalMove> {
        let child = self.rules.play(&self.state, mv)?;
        Ok(self.after(&child))
    }

    /// Plays `mv` and also returns what the move did (laps, captures, extra move).
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] naming the move and the reason.
    pub fn play_report(&self, mv: R::Move) -> Result<(Position<R>, Child<R>), IllegalMove> {
        let child = self.rules.play(&self.state, mv)?;
        Ok((self.after(&child), child))
    }

    /// Parses a move in this game's notation and plays it.
    ///
    /// # Errors
    ///
    /// [`crate::rules::ParseMoveError`] or [`IllegalMove`], boxed.
    pub fn play_str(
        &self,
        mv: &str,
    ) -> Result<Position<R>, Box<dyn std::error::Error + Send + Sync>> {
        let mv = self.rules.parse_move(mv)?;
        Ok(self.play(mv)?)
    }

    /// The final scores of a finished game, per side: captured seeds plus the seeds of the
    /// game's end-of-game rule (G9: each side's own row).
    pub fn final_scores(&self) -> BySide<i32> {
        let t = self.turn();
        let v = self.rules.final_value(&self.state) as i32;
        // final_value is (mover's share - opponent's share) of the board seeds.
        let board = self.rules.seeds_on_board(&self.state) as i32;
        let mover_share = (board + v) / 2;
        let mut s = BySide::new(self.captured.south as i32, self.captured.north as i32);
        s[t] += mover_share;
        s[t.opponent()] += board - mover_share;
        s
    }
}

impl<R: Rules> FromStr for Position<R> {
    type Err = ParsePositionError;
    fn from_str(text: &str) -> Result<Self, ParsePositionError> {
        let (game, variant, fields) = split_head(text)?;
        let pos = R::parse_fields(variant, &fields);
        match pos {
            Ok(p) if p.rules.name() == game => Ok(p),
            _ if !KNOWN_GAMES.contains(&game) => {
                Err(ParsePositionError::UnknownGame(game.to_string()))
            }
            Ok(p) => Err(ParsePositionError::Other {
                field: "game",
                reason: format!("expected {}, found {game}", p.rules.name()),
            }),
            Err(e) => Err(e),
        }
    }
}

impl<R: Rules> fmt::Display for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.rules.write_position(self, f)
    }
}
