//! The [`Rules`] trait: what the solver and the tablebases need to know about a game.
//!
//! A game is described by a rules value (board size and variant) and a small `Copy`
//! [`Rules::State`]: the store-independent core of a position (RULES.md V2: board, marks,
//! turn; never the captured seeds). Captured seeds live in [`crate::Position`].
//!
//! The search is generic over `R: Rules`, so every game is monomorphised.

pub mod giuthi;
pub mod kalah;
pub mod kiothi;
pub mod trace;

use crate::notation::ParsePositionError;
use crate::position::Position;
use crate::types::Side;
use crate::value::Score;
use std::fmt::{self, Debug, Display};
use std::hash::Hash;

/// One legal move together with what it does (the `SowReport` of STYLE.md).
#[derive(Debug, PartialEq, Eq)]
pub struct Child<R: Rules> {
    /// The move.
    pub mv: R::Move,
    /// The position after the move (turn already updated).
    pub state: R::State,
    /// Seeds the mover captured with this move (into its store or out of play).
    pub captured: u16,
    /// `true` when the opponent moves next (a normal move, a capture, a pass);
    /// `false` for an extra move (RULES.md G5b, Kalah R2).
    pub turn_passes: bool,
    /// Laps sown by the move (one per relay leg; 0 for a pass).
    pub laps: u32,
    /// Seeds dropped by the move, all laps together.
    pub sown: u32,
}

impl<R: Rules> Clone for Child<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Rules> Copy for Child<R> {}

/// Why a move cannot be played in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IllegalMove {
    /// Neither side can move any more (RULES.md G9): nothing can be played, not even a pass.
    #[error("move {mv}: the game is over")]
    GameOver {
        /// The move as written.
        mv: String,
    },
    /// The pit index is off the board.
    #[error("move {mv}: there is no pit {pit} on a board of {pits} pits (pits 0 to {})", pits.saturating_sub(1))]
    NoSuchPit {
        /// The move as written.
        mv: String,
        /// The pit named.
        pit: usize,
        /// Pits on the board (2n).
        pits: usize,
    },
    /// The pit belongs to the opponent.
    #[error("move {mv}: pit {pit} is not {side}'s; {side} owns pits {first}..={last}")]
    NotYourPit {
        /// The move as written.
        mv: String,
        /// The pit named.
        pit: usize,
        /// The side to move.
        side: Side,
        /// The mover's first pit.
        first: usize,
        /// The mover's last pit.
        last: usize,
    },
    /// The pit holds fewer seeds than the move needs (a singleton is never sown, G2).
    #[error("move {mv}: pit {pit} holds {seeds} {}; {reason}", if *seeds == 1 { unit.to_string() } else { format!("{unit}s") })]
    TooFewSeeds {
        /// The move as written.
        mv: String,
        /// The pit named.
        pit: usize,
        /// Seeds in the pit.
        seeds: u32,
        /// What the game calls a seed, singular: `seed` (Giuthi, Kalah) or `warrior`
        /// (Kiothi).
        unit: &'static str,
        /// The clause that forbids it.
        reason: &'static str,
    },
    /// The sowing never ends (RULES.md G7): it returns to a state it has been in.
    #[error(
        "move {mv}: the sowing is endless: a relay state repeats, detected after {laps} laps (G7)"
    )]
    Endless {
        /// The move as written.
        mv: String,
        /// Laps sown until the repeat was detected.
        laps: u64,
    },
    /// `pass` while a sowing is legal (G8).
    #[error("move pass: {side} has {moves} legal move(s), so cannot pass (G8)")]
    PassNotAllowed {
        /// The side to move.
        side: Side,
        /// How many legal moves it has.
        moves: usize,
    },
    /// A sowing while the mover must pass.
    #[error("move {mv}: {side} has no legal sowing and must pass (G8)")]
    MustPass {
        /// The move as written.
        mv: String,
        /// The side to move.
        side: Side,
    },
    /// Any other game-specific reason.
    #[error("move {mv}: {reason}")]
    Other {
        /// The move as written.
        mv: String,
        /// Why it is illegal.
        reason: String,
    },
}

/// A move string that does not parse (RULES.md N2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The text is not a move of this game's notation.
    #[error("move {text:?}: {reason}")]
    Syntax {
        /// The text given.
        text: String,
        /// What was expected.
        reason: String,
    },
}

/// The number of move slots of [`Rules::history_slot`].
pub const HISTORY_SLOTS: usize = 64;

/// A game: its moves, its sowing and its end, over a `Copy` store-independent state.
///
/// Contract used by the solver and the tablebases:
/// - [`Rules::children`] lists every legal move with its result, a pass included when the
///   rules make the mover pass; it is empty exactly when the game is over, and then
///   [`Rules::final_value`] is the future margin for the side to move.
/// - A move that keeps the turn has `turn_passes == false` (extra move).
/// - Seeds on the board never increase; a move with `captured > 0` lowers them by exactly
///   `captured` (so cycles of play keep the seed count: tablebase layers are closed).
pub trait Rules: Clone + Debug + Send + Sync + 'static {
    /// The store-independent core of a position (board, marks, turn).
    type State: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// A move.
    type Move: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;

    /// The game's name in notation (`giuthi`, `kalah`, ...).
    fn name(&self) -> &'static str;

    /// Pits in one row (`n`).
    fn pits_per_row(&self) -> usize;

    /// The side to move.
    fn turn(&self, s: &Self::State) -> Side;

    /// Seeds in pit `pit` (0..2n, RULES.md numbering).
    fn seeds(&self, s: &Self::State, pit: usize) -> u32;

    /// Seeds on the whole board (stores excluded).
    fn seeds_on_board(&self, s: &Self::State) -> u32 {
        (0..2 * self.pits_per_row()).map(|p| self.seeds(s, p)).sum()
    }

    /// Seeds in `side`'s row.
    fn row_seeds(&self, s: &Self::State, side: Side) -> u32 {
        let n = self.pits_per_row();
        let first = match side {
            Side::North => 0,
            Side::South => n,
        };
        (first..first + n).map(|p| self.seeds(s, p)).sum()
    }

    /// Every legal move with its result, in a stable order; `out` is cleared first.
    /// Empty exactly when the game is over, in every position where
    /// [`Rules::can_enumerate`] holds (elsewhere always empty).
    fn children(&self, s: &Self::State, out: &mut Vec<Child<Self>>);

    /// [`Rules::children`], giving up when `stop` returns true where generating the moves
    /// can take long (Kiothi: a sowing of millions of laps before it is found endless,
    /// K11; `stop` is asked every [`kiothi::SOW_STOP_INTERVAL`] laps). Returns how many
    /// moves were left undecided: 0 when `out` is complete; else `out` holds only moves
    /// known legal. The default generates all moves and returns 0. The searches use it so
    /// that a deadline or Ctrl-C is not held up by one long sowing.
    #[inline]
    fn children_until(
        &self,
        s: &Self::State,
        out: &mut Vec<Child<Self>>,
        _stop: &mut dyn FnMut() -> bool,
    ) -> usize {
        self.children(s, out);
        0
    }

    /// [`Rules::children_until`] for a mover who must move (the root of a search with a
    /// clock, docs/anytime.md "The root's moves and the clock"): `stop` is obeyed only
    /// once `out` holds a legal move, so `out` is empty only when the game is over (and
    /// the return is then 0). The default is `children_until`, which is complete in every
    /// game but Kiothi.
    #[inline]
    fn children_until_one(
        &self,
        s: &Self::State,
        out: &mut Vec<Child<Self>>,
        stop: &mut dyn FnMut() -> bool,
    ) -> usize {
        self.children_until(s, out, stop)
    }

    /// Whether [`Rules::children`] lists the moves of `s`. `false` where the moves are too
    /// many to list (the Kiothi opening redistributions, K3): `children` is then empty
    /// although the game is not over, and solvers must refuse the position; [`Rules::play`]
    /// still validates and applies any move there.
    fn can_enumerate(&self, _s: &Self::State) -> bool {
        true
    }

    /// Whether a position can ever come back in play (RULES.md G10). `false` promises that
    /// no sequence of moves leads from a state to itself, so `lo == hi` everywhere (V2) and
    /// a solver may skip the repetition bookkeeping. The default `true` is always safe.
    fn can_repeat(&self) -> bool {
        true
    }

    /// The future margin for the side to move of a finished game (called when
    /// [`Rules::children`] is empty).
    fn final_value(&self, s: &Self::State) -> Score;

    /// Plays one move after checking it; the error names the move and the reason.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] when the move is not legal in `s`.
    fn play(&self, s: &Self::State, mv: Self::Move) -> Result<Child<Self>, IllegalMove>;

    /// Parses a move in this game's notation.
    ///
    /// # Errors
    ///
    /// [`ParseMoveError`] naming the text and what was expected.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// A 64-bit key of the state (board, marks and turn). Exact (collision-free among
    /// states with at most [`Rules::exact_key_limit`] seeds on the board), otherwise a hash.
    fn key(&self, s: &Self::State) -> u64;

    /// The largest number of seeds on the board for which [`Rules::key`] is exact.
    fn exact_key_limit(&self) -> u32;

    /// Writes `pos` in this game's canonical notation (RULES.md N1, N3).
    fn write_position(&self, pos: &Position<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// Parses the fields after the game name: `variant` is the text after `game:` (empty
    /// when absent), `fields` the space-separated fields that follow.
    ///
    /// # Errors
    ///
    /// [`ParsePositionError`] naming the field and the reason.
    fn parse_fields(variant: &str, fields: &[&str]) -> Result<Position<Self>, ParsePositionError>;

    /// A small number (below [`HISTORY_SLOTS`]) naming a move independently of the
    /// position, for the search's history heuristic (move ordering only: any value is
    /// sound), or `None` (the default) where the rules are better ordered without it.
    /// Kalah names its pits; Giuthi does not, because a relay sowing's effect depends on
    /// the whole board and the history heuristic cost nodes there (docs/solver.md).
    fn history_slot(&self, _mv: &Self::Move) -> Option<usize> {
        None
    }

    /// Whether the search should try extra moves (RULES.md R2, G5b) before captures
    /// (move ordering only: either answer is sound; `solve::order` in the solver). The
    /// default `false` keeps captures first; Kalah says `true` (Irving's order: measured
    /// in docs/performance.md).
    fn extra_moves_first(&self) -> bool {
        false
    }

    /// Whether `s` is its own image under a symmetry of the game that maps moves to moves
    /// ([`Rules::twin_move`]) and keeps values: Giuthi's left-right mirror (RULES.md G11;
    /// checked by the tests `g11_mirror_commutes_with_children` and
    /// `g11_mirror_giuthi_by_naive`). Then two twin moves of `s` lead to mirror images, of
    /// equal value, and a search may prove one for both. The default `false` (no symmetry
    /// used) is always safe.
    fn is_symmetric(&self, _s: &Self::State) -> bool {
        false
    }

    /// The image of `mv` under the symmetry of [`Rules::is_symmetric`] (only asked of the
    /// moves of a state where it holds); the default is `mv` itself.
    fn twin_move(&self, mv: &Self::Move) -> Self::Move {
        *mv
    }

    /// How `show` writes the contents of one pit (the seed count; Kiothi adds its marks).
    fn pit_label(&self, s: &Self::State, pit: usize) -> String {
        self.seeds(s, pit).to_string()
    }
}

/// The root's moves for a search with a clock (docs/anytime.md, "The root's moves and the
/// clock"): every legal move whose sowing is decided before `stop` returns true
/// ([`Rules::children_until`]), and the number of lifts left undecided (Kiothi, K11: a
/// sowing of millions of laps may be endless, hence not a move at all). When `stop`
/// came before any move was known legal, the lifts are sown on, each to its end, until
/// one is ([`Rules::children_until_one`]): a player must move, and only a fully sown
/// sowing is a legal move. So the moves are empty only when the game is over (or its
/// moves are not listed, [`Rules::can_enumerate`]).
///
/// ```
/// use giuthi::rules::root_moves;
/// use giuthi::rules::kiothi::Kiothi;
/// use giuthi::Position;
/// // RULES.md K11's example: 14x6 (12 million laps, endless) and 14x8 are left out.
/// let p: Position<Kiothi> =
///     "kiothi 3,2,1,5,1,3,4,1,4,6/2,1,5,2,9,1,7,2,1,0 S 0,0 play".parse()?;
/// let (kids, undecided) = root_moves(&p.rules, &p.state, &mut || true);
/// assert!(!kids.is_empty() && undecided >= 2);
/// assert!(kids.iter().all(|c| p.play(c.mv).is_ok()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn root_moves<R: Rules>(
    rules: &R,
    s: &R::State,
    stop: &mut dyn FnMut() -> bool,
) -> (Vec<Child<R>>, usize) {
    let mut kids = Vec::new();
    let mut undecided = rules.children_until(s, &mut kids, stop);
    if kids.is_empty() && undecided > 0 {
        // Every lift still undecided is a long one (a sowing shorter than
        // SOW_STOP_INTERVAL laps is always decided): sown again, in order, until one ends.
        undecided = rules.children_until_one(s, &mut kids, &mut || true);
    }
    (kids, undecided)
}
