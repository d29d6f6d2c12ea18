//! `giuthi start`: print the start position of a game (RULES.md G1, R1; notation N1).

use super::usage;
use giuthi::rules::giuthi::{Giuthi, Variant, MAX_PITS_PER_ROW, MAX_SEEDS_ON_BOARD};
use giuthi::rules::kalah::Kalah;
use giuthi::rules::kiothi::{Kiothi, Variant as KiothiVariant};
use giuthi::{BySide, Position, Rules};

/// The games `start` can set up. To add a game (Kiothi), add a variant here, its default
/// size in [`Game::default_size`] and its set-up in [`run`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Game {
    /// Giuthi (RULES.md G1): 2 x N pits, S seeds in every pit, no stores.
    Giuthi,
    /// Kalah (RULES.md R1): 2 x N pits and two stores, S seeds in every pit.
    Kalah,
    /// Kiothi (RULES.md K1, K2): 2 x 10 pits and two prisons; the board is fixed, so
    /// --pits and --seeds do not apply. Variants: start=6x5|5x5, dir=ccw|cw.
    Kiothi,
}

impl Game {
    /// The default pits a row and seeds a pit: Giuthi 2x8 with 8 (the standard set-up,
    /// G1), Kalah 2x6 with 4 (the published Kalah(6,4)).
    fn default_size(self) -> (u64, u64) {
        match self {
            Game::Giuthi => (8, 8),
            Game::Kalah => (6, 4),
            Game::Kiothi => (10, 5),
        }
    }
}

/// Arguments of `giuthi start`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  giuthi start                        \
    # giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 S 0,0\n  \
    giuthi start --pits 10 --seeds 9    # the 2x10 board with 9 a pit\n  \
    giuthi start --variant chain=one,origin=skip --pits 5 --seeds 4\n  \
    giuthi start --game kalah            # Kalah(6,4)\n  \
    giuthi start --game kiothi --variant start=5x5\n  \
    giuthi start --pits 5 --seeds 3 --json   # the position string and its fields")]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "giuthi")]
    pub game: Game,
    /// Pits in each row [default: 8 for Giuthi, 6 for Kalah]. Giuthi takes 2 to 16
    /// (5 to 10 in play, G1), Kalah 1 to 16.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = super::common::whole::<u64>(0, u64::MAX))]
    pub pits: Option<u64>,
    /// Seeds in every pit at the start [default: 8 for Giuthi, 4 for Kalah]. At least 1;
    /// the whole board holds at most 255 seeds.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = super::common::whole::<u64>(0, u64::MAX))]
    pub seeds: Option<u64>,
    /// A rule variant, comma separated (RULES.md N1, N3). Giuthi: chain=run|one|none,
    /// origin=sow|skip, end=stuck|empty-row. Kiothi: start=6x5|5x5, dir=ccw|cw.
    #[arg(long, value_name = "KEY=VALUE,...")]
    pub variant: Option<String>,
    /// Print one JSON object: {"position", "game", "variant", "pits_per_row",
    /// "seeds_per_pit", "seeds_on_board", "pits", "labels", "turn"} (docs/cli.md).
    #[arg(long)]
    pub json: bool,
}

/// What `start --json` prints: the position string and its fields.
#[derive(Debug, serde::Serialize)]
struct StartJson {
    /// The position (RULES.md N1).
    position: String,
    /// `giuthi`, `kalah` or `kiothi`.
    game: &'static str,
    /// The variant as the position string writes it after `game:` (`""`: the default rules).
    variant: String,
    /// Pits in each row.
    pits_per_row: usize,
    /// Seeds (Kiothi: warriors) in every filled pit at the start.
    seeds_per_pit: u64,
    /// Seeds on the whole board.
    seeds_on_board: u64,
    /// The seeds of every pit in index order (North's row `0..n`, then South's).
    pits: Vec<u32>,
    /// The pits as `show` labels them (Kiothi: `5s`, a warrior's mark).
    labels: Vec<String>,
    /// The side to move: `S`.
    turn: String,
}

/// Prints `text` (a start position) as text or, with `json`, as [`StartJson`].
fn emit_start(text: &str, seeds_per_pit: u64, json: bool) -> anyhow::Result<()> {
    if !json {
        return super::common::emit(&format!("{text}\n"));
    }
    let any: giuthi::AnyPosition = text.parse()?;
    let first = text.split(' ').next().unwrap_or("");
    let variant = first.split_once(':').map_or("", |(_, v)| v).to_string();
    let out = giuthi::with_position!(&any, p => {
        let r = &p.rules;
        let n = r.pits_per_row();
        let pits: Vec<u32> = (0..2 * n).map(|i| r.seeds(&p.state, i)).collect();
        StartJson {
            position: text.to_string(),
            game: r.name(),
            variant,
            pits_per_row: n,
            seeds_per_pit,
            seeds_on_board: pits.iter().map(|&x| u64::from(x)).sum(),
            labels: (0..2 * n).map(|i| r.pit_label(&p.state, i)).collect(),
            pits,
            turn: p.turn().letter().to_string(),
        }
    });
    super::common::emit(&format!("{}\n", serde_json::to_string(&out)?))
}

/// Runs `giuthi start`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.game == Game::Kiothi {
        if args.pits.is_some() || args.seeds.is_some() {
            return Err(usage(
                "--pits/--seeds: the Kiothi board is fixed (2 x 10 pits, 5 warriors in each \
                 of the six or five rightmost pits, K1-K2); use --variant start=5x5",
            ));
        }
        let variant: KiothiVariant = match &args.variant {
            Some(v) => v.parse().map_err(|e| usage(format!("--variant: {e}")))?,
            None => KiothiVariant::default(),
        };
        let text = Kiothi::new(variant).start_position().to_string();
        emit_start(&text, Game::Kiothi.default_size().1, args.json)?;
        return Ok(0);
    }
    let (default_pits, default_seeds) = args.game.default_size();
    let pits = args.pits.unwrap_or(default_pits);
    let seeds = args.seeds.unwrap_or(default_seeds);
    let (min_pits, game_name) = match args.game {
        Game::Giuthi => (2, "Giuthi"),
        Game::Kalah => (1, "Kalah"),
        Game::Kiothi => unreachable!("handled above"),
    };
    if pits < min_pits || pits > MAX_PITS_PER_ROW as u64 {
        return Err(usage(format!(
            "--pits: {}; {game_name} takes {min_pits} to {MAX_PITS_PER_ROW}",
            super::common::count(pits, "pit a row", "pits a row")
        )));
    }
    if seeds == 0 {
        return Err(usage(
            "--seeds: 0 seeds a pit; a start position needs at least 1 in every pit",
        ));
    }
    let total = 2 * pits * seeds;
    if total > MAX_SEEDS_ON_BOARD as u64 {
        return Err(usage(format!(
            "--seeds: 2 x {pits} pits x {seeds} seeds = {total} seeds; \
             the engine takes at most {MAX_SEEDS_ON_BOARD} on the board"
        )));
    }
    let (pits, seeds) = (pits as usize, seeds as u8);
    let text = match args.game {
        Game::Giuthi => {
            let variant: Variant = match &args.variant {
                Some(v) => v.parse().map_err(|e| usage(format!("--variant: {e}")))?,
                None => Variant::default(),
            };
            let rules = Giuthi::new(pits, variant).map_err(|e| usage(format!("--pits: {e}")))?;
            let state = rules.start(seeds);
            Position::new(rules, state, BySide::default()).to_string()
        }
        Game::Kalah => {
            if let Some(v) = &args.variant {
                return Err(usage(format!(
                    "--variant: Kalah has no variants, found {v:?}"
                )));
            }
            let rules = Kalah::new(pits).map_err(|e| usage(format!("--pits: {e}")))?;
            let state = rules.start(seeds);
            Position::new(rules, state, BySide::default()).to_string()
        }
        Game::Kiothi => unreachable!("handled above"),
    };
    emit_start(&text, seeds as u64, args.json)?;
    Ok(0)
}
