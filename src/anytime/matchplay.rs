//! Matches in the manner of cutechess-cli: two players (engine settings or the baselines
//! `random` and `greedy`) play a fixed, seeded set of openings, each opening once with
//! each colour; the result is wins, draws and losses of the first player
//! ([`super::elo::Tally`]).
//!
//! A game ends as the rules end it: no legal move for either side (the final scores of
//! [`Position::final_scores`]), or a repeated position (a draw, RULES.md G10, K11); a
//! game longer than the ply limit is adjudicated a draw and counted apart. Positions whose
//! moves are not listed (the Kiothi opening redistributions, K3) are played by every
//! player with [`Evaluate::unlisted_move`].

use super::elo::Tally;
use super::eval::{Evaluate, Weights};
use super::search::HeuristicSearch;
use super::small::SmallEndgames;
use super::think::{think, ThinkOptions};
use crate::position::Position;
use crate::solve::alphabeta::{Solver, SolverOptions};
use crate::types::{BySide, Side};
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A small seeded generator (SplitMix64): openings and tie-breaks are reproducible.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The settings of an engine player.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineSettings {
    /// Time a move (`None`: the match's `--movetime`).
    pub movetime: Option<Duration>,
    /// Fixed heuristic depth (plies), instead of or besides time.
    pub depth: Option<u32>,
    /// Heuristic node budget a move.
    pub nodes: Option<u64>,
    /// Evaluation weights (`None`: the game's defaults).
    pub weights: Option<Weights>,
    /// Share of the time for the exact solver first (0: heuristic only).
    pub exact_share: f64,
    /// Contempt in seeds: a draw by repetition scored this much below 0 for the engine
    /// in its heuristic search ([`HeuristicSearch::set_contempt`]).
    pub contempt: f64,
    /// Small endgames solved on the spot inside the heuristic tree: positions with at most
    /// this many seeds on the board ([`super::small`]; 0, the default: off, as the
    /// self-play matches of docs/anytime.md did not support it).
    pub small_seeds: u32,
    /// Scores that depend on a repetition of the path are stored in the heuristic table
    /// too ([`HeuristicSearch::set_store_repetitions`]).
    pub store_repetitions: bool,
    /// Extra moves cost no depth ([`HeuristicSearch::set_extend_extra_moves`]).
    pub extend_extra_moves: bool,
}

/// A player of a match.
#[derive(Debug, Clone, PartialEq)]
pub enum Player {
    /// A uniformly random legal move.
    Random,
    /// The move that captures the most now (ties broken at random).
    Greedy,
    /// The anytime engine ([`think`]).
    Engine(EngineSettings),
}

/// A player spec that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("player {text:?}: {reason}")]
pub struct ParsePlayerError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// `random`, `greedy`, `engine`, or `engine:key=value,...` with the keys `movetime`
    /// (seconds), `depth`, `nodes`, `weights` (five integers joined by `/`), `exact`
    /// (the exact solver's share of the time, 0 to 1), `contempt` (seeds) and `small`
    /// (small endgames solved inside the tree up to this many seeds on the board; 0 off),
    /// `ghi` (1: repetition-dependent scores stored in the heuristic table), `ext` (1: extra
    /// moves cost no depth).
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::anytime::matchplay::Player;
    /// let p: Player = "engine:depth=4,exact=0,weights=60/50/20/10/0".parse()?;
    /// assert!(matches!(p, Player::Engine(ref e) if e.depth == Some(4) && e.exact_share == 0.0));
    /// assert!("engine:depth=x".parse::<Player>().is_err());
    /// # Ok::<(), giuthi::anytime::matchplay::ParsePlayerError>(())
    /// ```
    fn from_str(text: &str) -> Result<Player, ParsePlayerError> {
        let err = |reason: String| ParsePlayerError {
            text: text.to_string(),
            reason,
        };
        let (name, opts) = text.split_once(':').unwrap_or((text, ""));
        match name {
            "random" | "greedy" if !opts.is_empty() => Err(err(format!("{name} takes no options"))),
            "random" => Ok(Player::Random),
            "greedy" => Ok(Player::Greedy),
            "engine" => {
                let mut e = EngineSettings {
                    movetime: None,
                    depth: None,
                    nodes: None,
                    weights: None,
                    exact_share: super::think::DEFAULT_EXACT_SHARE,
                    contempt: 0.0,
                    small_seeds: 0,
                    store_repetitions: false,
                    extend_extra_moves: false,
                };
                for kv in opts.split(',').filter(|s| !s.is_empty()) {
                    let (k, v) = kv
                        .split_once('=')
                        .ok_or_else(|| err(format!("{kv:?}: expected key=value")))?;
                    match k {
                        "movetime" => {
                            e.movetime =
                                Some(parse_seconds(v).map_err(|r| err(format!("movetime: {r}")))?)
                        }
                        "depth" => {
                            e.depth = Some(
                                v.parse()
                                    .ok()
                                    .filter(|d| (1..=128).contains(d))
                                    .ok_or_else(|| {
                                        err(format!("depth {v:?}: expected 1 to 128"))
                                    })?,
                            )
                        }
                        "nodes" => {
                            e.nodes =
                                Some(v.parse().ok().filter(|&n: &u64| n > 0).ok_or_else(|| {
                                    err(format!("nodes {v:?}: expected a positive integer"))
                                })?)
                        }
                        "weights" => {
                            // The spec writes weights with '/' (',' separates keys);
                            // an error quotes them as the user wrote them.
                            e.weights = Some(v.replace('/', ",").parse().map_err(
                                |_: crate::anytime::eval::ParseWeightsError| {
                                    err(format!(
                                        "weights {v:?}: expected 5 integers separated by '/' \
                                         (row/capture/mobility/reach/special), each -10000..=10000"
                                    ))
                                },
                            )?)
                        }
                        "contempt" => {
                            e.contempt = v
                                .parse()
                                .ok()
                                .filter(|x: &f64| x.is_finite() && x.abs() <= 100.0)
                                .ok_or_else(|| {
                                    err(format!("contempt {v:?}: expected -100 to 100 seeds"))
                                })?
                        }
                        "ext" => {
                            e.extend_extra_moves = match v {
                                "0" => false,
                                "1" => true,
                                _ => return Err(err(format!("ext {v:?}: expected 0 or 1"))),
                            }
                        }
                        "ghi" => {
                            e.store_repetitions = match v {
                                "0" => false,
                                "1" => true,
                                _ => return Err(err(format!("ghi {v:?}: expected 0 or 1"))),
                            }
                        }
                        "small" => {
                            e.small_seeds = v.parse().ok().filter(|&n: &u32| n <= 64).ok_or_else(
                                || err(format!("small {v:?}: expected 0 to 64 seeds")),
                            )?
                        }
                        "exact" => {
                            e.exact_share = v
                                .parse()
                                .ok()
                                .filter(|x: &f64| (0.0..=1.0).contains(x))
                                .ok_or_else(|| err(format!("exact {v:?}: expected 0 to 1")))?
                        }
                        _ => {
                            return Err(err(format!(
                            "unknown key {k:?} (movetime, depth, nodes, weights, exact, contempt, small, ghi, ext)"
                        )))
                        }
                    }
                }
                Ok(Player::Engine(e))
            }
            _ => Err(err(
                "expected random, greedy or engine[:key=value,...]".to_string()
            )),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Random => f.write_str("random"),
            Player::Greedy => f.write_str("greedy"),
            Player::Engine(e) => {
                let mut parts = Vec::new();
                if let Some(t) = e.movetime {
                    parts.push(format!("movetime={}", t.as_secs_f64()));
                }
                if let Some(d) = e.depth {
                    parts.push(format!("depth={d}"));
                }
                if let Some(n) = e.nodes {
                    parts.push(format!("nodes={n}"));
                }
                if let Some(w) = e.weights {
                    parts.push(format!("weights={}", w.to_string().replace(',', "/")));
                }
                if e.exact_share != super::think::DEFAULT_EXACT_SHARE {
                    parts.push(format!("exact={}", e.exact_share));
                }
                if e.contempt != 0.0 {
                    parts.push(format!("contempt={}", e.contempt));
                }
                if e.small_seeds != 0 {
                    parts.push(format!("small={}", e.small_seeds));
                }
                if e.store_repetitions {
                    parts.push("ghi=1".to_string());
                }
                if e.extend_extra_moves {
                    parts.push("ext=1".to_string());
                }
                if parts.is_empty() {
                    f.write_str("engine")
                } else {
                    write!(f, "engine:{}", parts.join(","))
                }
            }
        }
    }
}

/// Parses a time in seconds: a finite number above 0 and at most one day.
///
/// # Errors
///
/// The reason, in words.
///
/// # Examples
///
/// ```
/// use giuthi::anytime::matchplay::parse_seconds;
/// assert_eq!(parse_seconds("0.25").unwrap().as_millis(), 250);
/// for bad in ["0", "-1", "NaN", "inf", "1e9", "abc", ""] {
///     assert!(parse_seconds(bad).is_err(), "{bad}");
/// }
/// ```
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !v.is_finite() {
        return Err(format!("{text:?} is not a finite number of seconds"));
    }
    if v <= 0.0 {
        return Err(format!("{text:?}: must be more than 0 seconds"));
    }
    if v > 86_400.0 {
        return Err(format!("{text:?}: at most 86400 seconds (one day)"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Neither side could move: the final scores decided.
    Over,
    /// A position repeated: a draw (G10, K11).
    Repetition,
    /// The ply limit was reached: adjudicated a draw.
    PlyLimit,
    /// The stop flag was raised (Ctrl-C): the game ended unfinished, at once; not a
    /// result (`south_margin` 0), so a match discards it.
    Stopped,
}

/// One finished game.
#[derive(Debug, Clone)]
pub struct Game {
    /// The final margin for South (0 for a repetition or a ply-limit draw).
    pub south_margin: i32,
    /// How it ended.
    pub end: End,
    /// Plies played after the opening.
    pub plies: usize,
    /// The moves played after the opening, in notation.
    pub moves: Vec<String>,
}

/// An engine's state for one game: its heuristic table and its exact solver.
struct EngineState<R: Evaluate> {
    settings: EngineSettings,
    heuristic: HeuristicSearch<R>,
    solver: Option<Solver<R>>,
}

/// Picks moves for one side.
enum Mover<R: Evaluate> {
    Random,
    Greedy,
    Engine(Box<EngineState<R>>),
}

impl<R: Evaluate> Mover<R> {
    fn new(p: &Player, rules: &R, default_movetime: Duration) -> Mover<R> {
        match p {
            Player::Random => Mover::Random,
            Player::Greedy => Mover::Greedy,
            Player::Engine(e) => {
                let mut settings = e.clone();
                if settings.movetime.is_none()
                    && settings.depth.is_none()
                    && settings.nodes.is_none()
                {
                    settings.movetime = Some(default_movetime);
                }
                let weights = e.weights.unwrap_or_else(|| rules.default_weights());
                let solver =
                    (settings.exact_share > 0.0 && settings.movetime.is_some()).then(|| {
                        Solver::new(
                            rules.clone(),
                            SolverOptions {
                                threads: 1,
                                hash_mb: 16,
                                ..SolverOptions::default()
                            },
                        )
                    });
                let mut heuristic = HeuristicSearch::new(rules.clone(), weights, 8);
                heuristic.set_contempt((settings.contempt * 100.0).round() as i32);
                heuristic.set_store_repetitions(settings.store_repetitions);
                heuristic.set_extend_extra_moves(settings.extend_extra_moves);
                if settings.small_seeds > 0 {
                    heuristic.set_small_endgames(Some(SmallEndgames::new(
                        settings.small_seeds,
                        super::small::DEFAULT_MAX_STATES,
                    )));
                }
                Mover::Engine(Box::new(EngineState {
                    settings,
                    heuristic,
                    solver,
                }))
            }
        }
    }

    fn choose(
        &mut self,
        pos: &Position<R>,
        history: &[R::State],
        rng: &mut SplitMix,
        stop: &AtomicBool,
    ) -> Option<R::Move> {
        let kids = pos.children();
        if kids.is_empty() {
            return pos.rules.unlisted_move(&pos.state);
        }
        match self {
            Mover::Random => Some(kids[rng.below(kids.len())].mv),
            Mover::Greedy => {
                let most = kids.iter().map(|c| c.captured).max()?;
                let best: Vec<_> = kids.iter().filter(|c| c.captured == most).collect();
                Some(best[rng.below(best.len())].mv)
            }
            Mover::Engine(e) => {
                let opts = ThinkOptions {
                    movetime: e.settings.movetime,
                    exact_share: if e.solver.is_some() {
                        e.settings.exact_share
                    } else {
                        0.0
                    },
                    depth: e.settings.depth,
                    nodes: e.settings.nodes,
                    ..ThinkOptions::default()
                };
                let a = think(
                    pos,
                    history,
                    e.solver.as_ref(),
                    &mut e.heuristic,
                    stop,
                    &opts,
                    &|_| {},
                );
                a.best
            }
        }
    }
}

/// The openings of a match: `count` positions reached from `start` by `plies` random
/// legal moves each (seeded by `seed`; a line that ends the game is drawn again).
pub fn openings<R: Evaluate>(
    start: &Position<R>,
    count: usize,
    plies: usize,
    seed: u64,
) -> Vec<Position<R>> {
    let mut rng = SplitMix::new(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 20 + 20 {
        tries += 1;
        let mut p = start.clone();
        let mut ok = true;
        for _ in 0..plies {
            let kids = p.children();
            let mv = if kids.is_empty() {
                p.rules.unlisted_move(&p.state)
            } else {
                Some(kids[rng.below(kids.len())].mv)
            };
            match mv.and_then(|m| p.play(m).ok()) {
                Some(next) => p = next,
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && !p.is_over() {
            out.push(p);
        }
    }
    out
}

/// Plays one game from `opening`, `south` and `north` choosing the moves, at most
/// `max_plies` plies; `seed` drives the baselines' random choices.
pub fn play_game<R: Evaluate>(
    opening: &Position<R>,
    players: BySide<&Player>,
    default_movetime: Duration,
    max_plies: usize,
    seed: u64,
    stop: &AtomicBool,
) -> Game {
    let rules = &opening.rules;
    let mut movers = BySide::new(
        Mover::new(players.south, rules, default_movetime),
        Mover::new(players.north, rules, default_movetime),
    );
    let mut rng = SplitMix::new(seed);
    let mut pos = opening.clone();
    let mut seen: HashSet<R::State> = HashSet::new();
    let mut history: Vec<R::State> = Vec::new();
    let mut moves = Vec::new();
    seen.insert(pos.state);
    for ply in 0..max_plies {
        // Ctrl-C ends the game at once: the players would answer at once too, but each
        // move still costs its set-up (seconds over a long game, the session-10 trial).
        if stop.load(Ordering::Relaxed) {
            return Game {
                south_margin: 0,
                end: End::Stopped,
                plies: ply,
                moves,
            };
        }
        if pos.is_over() {
            let s = pos.final_scores();
            return Game {
                south_margin: s.south - s.north,
                end: End::Over,
                plies: ply,
                moves,
            };
        }
        let side = pos.turn();
        let mv = movers[side].choose(&pos, &history, &mut rng, stop);
        let next = match mv.and_then(|m| pos.play(m).ok()) {
            Some(n) => n,
            // Never seen: a player without a legal move forfeits the game's remaining
            // seeds as a loss by the board's total.
            None => {
                let total = pos.rules.seeds_on_board(&pos.state) as i32 + 1;
                return Game {
                    south_margin: if side == Side::South { -total } else { total },
                    end: End::Over,
                    plies: ply,
                    moves,
                };
            }
        };
        history.push(pos.state);
        moves.extend(mv.map(|m| m.to_string()));
        pos = next;
        if pos.rules.can_repeat() && !seen.insert(pos.state) {
            return Game {
                south_margin: 0,
                end: End::Repetition,
                plies: ply + 1,
                moves,
            };
        }
    }
    Game {
        south_margin: 0,
        end: End::PlyLimit,
        plies: max_plies,
        moves,
    }
}

/// The result of a match for the first player.
#[derive(Debug, Clone, Default)]
pub struct MatchResult {
    /// Wins, draws and losses of the first player.
    pub tally: Tally,
    /// The same, with the first player as South only.
    pub as_south: Tally,
    /// The same, with the first player as North only.
    pub as_north: Tally,
    /// Games adjudicated a draw at the ply limit.
    pub ply_limit: u32,
    /// Games drawn by repetition.
    pub repetitions: u32,
}

impl MatchResult {
    /// Adds one game in which the first player was `side`.
    pub fn add(&mut self, side: Side, g: &Game) {
        let margin = match side {
            Side::South => g.south_margin,
            Side::North => -g.south_margin,
        };
        let by_side = match side {
            Side::South => &mut self.as_south,
            Side::North => &mut self.as_north,
        };
        for t in [&mut self.tally, by_side] {
            match margin.signum() {
                1 => t.wins += 1,
                0 => t.draws += 1,
                _ => t.losses += 1,
            }
        }
        match g.end {
            End::PlyLimit => self.ply_limit += 1,
            End::Repetition => self.repetitions += 1,
            End::Over | End::Stopped => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::giuthi::Giuthi;

    #[test]
    fn player_specs_round_trip() {
        for text in [
            "random",
            "greedy",
            "engine",
            "engine:movetime=0.5,depth=3,nodes=100,weights=1/2/3/4/5,exact=0,contempt=1.5,small=8,ghi=1,ext=1",
        ] {
            let p: Player = text.parse().expect(text);
            assert_eq!(p.to_string(), text);
        }
        for bad in [
            "randomx",
            "greedy:depth=1",
            "engine:foo=1",
            "engine:movetime=0",
            "engine:exact=2",
        ] {
            assert!(bad.parse::<Player>().is_err(), "{bad}");
        }
    }

    #[test]
    fn openings_are_reproducible_and_playable() {
        let start: Position<Giuthi> = "giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0".parse().expect("start");
        let a = openings(&start, 5, 3, 7);
        let b = openings(&start, 5, 3, 7);
        assert_eq!(a.len(), 5);
        assert_eq!(
            a.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            b.iter().map(|p| p.to_string()).collect::<Vec<_>>()
        );
        assert!(a.iter().all(|p| !p.is_over()));
    }

    /// G9, G10: a game between the baselines ends by the rules, and the result is booked
    /// to the right side.
    #[test]
    fn g9_baseline_games_finish_and_are_booked() {
        let start: Position<Giuthi> = "giuthi 2,2,2,2/2,2,2,2 S 0,0".parse().expect("start");
        let play = |stop: &AtomicBool| {
            play_game(
                &start,
                BySide::new(&Player::Greedy, &Player::Random),
                Duration::from_millis(10),
                500,
                3,
                stop,
            )
        };
        // A raised stop flag ends the game before its first move.
        let stopped = play(&AtomicBool::new(true));
        assert_eq!((stopped.end, stopped.plies), (End::Stopped, 0));
        let g = play(&AtomicBool::new(false));
        assert!(g.end != End::PlyLimit);
        let mut r = MatchResult::default();
        r.add(Side::South, &g);
        r.add(Side::North, &g);
        assert_eq!(r.tally.games(), 2);
        // The same game booked from both sides: a win for one is a loss for the other.
        assert_eq!(r.tally.wins, r.tally.losses);
    }
}
