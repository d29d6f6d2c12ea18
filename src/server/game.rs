//! What the server needs of each game beyond [`Rules`]: the pit a move starts from, the
//! sowing trace, the sowings excluded as endless (G7), game-specific fields (Kiothi's
//! marks, prisons and phase) and the tablebases of `--tb`; and the JSON view of a position.

use crate::any::AnyPosition;
use crate::position::Position;
use crate::rules::giuthi::{Giuthi, GiuthiMove};
use crate::rules::kalah::Kalah;
use crate::rules::kiothi::{Kiothi, KiothiMove};
use crate::rules::trace::{Drop, Finish, SowTrace};
use crate::rules::Rules;
use crate::solve::EndgameOracle;
use crate::tablebase::TablebaseSet;
use crate::types::Direction;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;

/// A game the server shows and solves.
pub trait ServedGame: crate::anytime::eval::Evaluate {
    /// The pit a move lifts from (`None` for a pass or a Kiothi redistribution).
    fn move_pit(&self, mv: &Self::Move) -> Option<usize>;
    /// The direction of a move's first lap, where the game has a choice (Giuthi).
    fn move_dir(&self, _mv: &Self::Move) -> Option<Direction> {
        None
    }
    /// The lap-by-lap trace of a legal move (`None` where the move sows nothing: a
    /// Kiothi redistribution).
    fn trace(&self, s: &Self::State, mv: Self::Move) -> Option<SowTrace>;
    /// Sowings that would be legal but never end (G7), as `(move, reason)`.
    fn excluded(&self, _s: &Self::State) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Fields of the position view that only this game has.
    fn extra(&self, _pos: &Position<Self>) -> Value {
        json!({})
    }
    /// The clause that makes the side to move pass, for the page's pass button.
    const PASS_CLAUSE: &'static str = "";
    /// The tablebases of `dir` for these rules, if `dir` has any (a folder without tables
    /// for this board gives `None`; a corrupt table set is an error).
    ///
    /// # Errors
    ///
    /// The table set's message.
    fn open_tables(&self, _dir: &Path) -> Result<Option<Arc<dyn EndgameOracle<Self>>>, String> {
        Ok(None)
    }
}

fn open_set<R: crate::tablebase::TbGame>(
    rules: &R,
    dir: &Path,
) -> Result<Option<Arc<dyn EndgameOracle<R>>>, String> {
    if !crate::tablebase::layer_path(rules, dir, 0).exists() {
        return Ok(None);
    }
    match TablebaseSet::open_complete(dir, rules.clone()) {
        Ok(set) => Ok(Some(Arc::new(set))),
        Err(e) => Err(format!("--tb {}: {e}", dir.display())),
    }
}

impl ServedGame for Giuthi {
    const PASS_CLAUSE: &'static str = "G8";
    fn move_pit(&self, mv: &GiuthiMove) -> Option<usize> {
        match *mv {
            GiuthiMove::Sow { pit, .. } => Some(pit as usize),
            GiuthiMove::Pass => None,
        }
    }
    fn move_dir(&self, mv: &GiuthiMove) -> Option<Direction> {
        match *mv {
            GiuthiMove::Sow { dir, .. } => Some(dir),
            GiuthiMove::Pass => None,
        }
    }
    fn trace(&self, s: &Self::State, mv: GiuthiMove) -> Option<SowTrace> {
        Some(self.sow_trace(s, mv))
    }
    fn excluded(&self, s: &Self::State) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.is_over(s) {
            return out;
        }
        for p in self.row(s.turn) {
            if s.pits[p] >= 2 {
                for dir in [Direction::Cw, Direction::Ccw] {
                    if let Err(laps) = self.sow(s, p, dir) {
                        let mv = GiuthiMove::Sow { pit: p as u8, dir };
                        out.push((
                            mv.to_string(),
                            format!(
                                "endless sowing: a relay state repeats after {laps} laps, so \
                                 the move is not allowed (G7)"
                            ),
                        ));
                    }
                }
            }
        }
        out
    }
    fn open_tables(&self, dir: &Path) -> Result<Option<Arc<dyn EndgameOracle<Self>>>, String> {
        open_set(self, dir)
    }
}

impl ServedGame for Kalah {
    fn move_pit(&self, mv: &Self::Move) -> Option<usize> {
        Some(mv.0 as usize)
    }
    fn trace(&self, s: &Self::State, mv: Self::Move) -> Option<SowTrace> {
        Some(self.sow_trace(s, mv))
    }
    fn open_tables(&self, dir: &Path) -> Result<Option<Arc<dyn EndgameOracle<Self>>>, String> {
        open_set(self, dir)
    }
}

impl ServedGame for Kiothi {
    fn move_pit(&self, mv: &KiothiMove) -> Option<usize> {
        match *mv {
            KiothiMove::Sow { pit, .. } => Some(pit as usize),
            KiothiMove::Redistribute { .. } => None,
        }
    }
    fn trace(&self, s: &Self::State, mv: KiothiMove) -> Option<SowTrace> {
        self.sow_trace(s, mv)
    }
    fn extra(&self, pos: &Position<Kiothi>) -> Value {
        let s = &pos.state;
        let marks: Vec<String> = (0..20)
            .map(|p| {
                let l = self.pit_label(s, p);
                l.trim_start_matches(|c: char| c.is_ascii_digit())
                    .to_string()
            })
            .collect();
        json!({
            "phase": s.phase.as_str(),
            "marks": marks,
            "can_enumerate": self.can_enumerate(s),
        })
    }
}

/// The JSON of a trace: `{"mover", "laps": [{"lift", "seeds", "kept", "dir", "drops"}],
/// "finish", "captured_pits": [[pit, seeds]], "bonus_pits": [[pit, seeds]],
/// "landing_taken", "captured", "turn_passes", "truncated"}`; a drop is a pit number or
/// `"store"` (Kalah).
pub fn trace_json(t: &SowTrace) -> Value {
    let laps: Vec<Value> = t
        .laps
        .iter()
        .map(|l| {
            let drops: Vec<Value> = l
                .drops
                .iter()
                .map(|d| match d {
                    Drop::Pit(p) => json!(p),
                    Drop::Store(_) => json!("store"),
                })
                .collect();
            json!({"lift": l.lift, "seeds": l.seeds, "kept": l.kept, "dir": l.dir.as_str(),
                "drops": drops})
        })
        .collect();
    let finish = match t.finish {
        Finish::OpponentRow => "opponent-row",
        Finish::ExtraMove => "extra-move",
        Finish::Capture => "capture",
        Finish::Endless => "endless",
        Finish::Store => "store",
        Finish::KalahEnd => "end",
        Finish::NoCapture => "no-capture",
        Finish::FirstLapOwnRow => "first-lap-own-row",
    };
    json!({
        "mover": t.mover.letter().to_string(),
        "laps": laps,
        "finish": finish,
        "captured_pits": t.captured_pits,
        "bonus_pits": t.bonus_pits,
        "landing_taken": t.landing_taken,
        "captured": t.captured,
        "turn_passes": t.turn_passes,
        "truncated": t.truncated,
    })
}

/// The JSON view of a position: `{"position", "game", "variant", "n", "turn", "pits",
/// "labels", "captured": {"south", "north"}, "key", "over", "scores", "moves": [{"move",
/// "pit", "dir", "after", "after_pits", "captured", "extra"}], "excluded": [{"move",
/// "reason"}], "must_pass", "pass_clause", "repetition_rule", "can_solve", ...}`.
pub fn view<R: ServedGame>(pos: &Position<R>) -> Value {
    let r = &pos.rules;
    let n = r.pits_per_row();
    let s = &pos.state;
    let pits: Vec<u32> = (0..2 * n).map(|p| r.seeds(s, p)).collect();
    let labels: Vec<String> = (0..2 * n).map(|p| r.pit_label(s, p)).collect();
    let children = pos.children();
    let moves: Vec<Value> = children
        .iter()
        .map(|c| {
            let after = pos.after(c);
            json!({
                "move": c.mv.to_string(),
                "pit": r.move_pit(&c.mv),
                "dir": r.move_dir(&c.mv).map(|d| d.as_str()),
                "after": after.to_string(),
                "after_pits": (0..2 * n).map(|p| r.seeds(&c.state, p)).collect::<Vec<_>>(),
                "captured": c.captured,
                "extra": !c.turn_passes,
                "laps": c.laps,
            })
        })
        .collect();
    let must_pass = children.len() == 1
        && r.move_pit(&children[0].mv).is_none()
        && children[0].mv.to_string() == "pass";
    let excluded: Vec<Value> = r
        .excluded(s)
        .into_iter()
        .map(|(m, why)| json!({"move": m, "reason": why}))
        .collect();
    let over = pos.is_over();
    let scores = over.then(|| {
        let sc = pos.final_scores();
        json!({"south": sc.south, "north": sc.north})
    });
    let text = pos.to_string();
    let head = text.split(' ').next().unwrap_or("");
    let variant = head.split_once(':').map_or("", |(_, v)| v);
    json!({
        "position": text,
        "game": r.name(),
        "variant": variant,
        "n": n,
        "turn": pos.turn().letter().to_string(),
        "pits": pits,
        "labels": labels,
        "captured": {"south": pos.captured.south, "north": pos.captured.north},
        "key": Position::new(r.clone(), *s, Default::default()).to_string(),
        "seeds_on_board": r.seeds_on_board(s),
        "over": over,
        "scores": scores,
        "moves": moves,
        "excluded": excluded,
        "must_pass": must_pass,
        "pass_clause": R::PASS_CLAUSE,
        "repetition_rule": r.name() != "kalah",
        "can_solve": r.can_enumerate(s),
        "extra": r.extra(pos),
    })
}

/// [`view`] of any game.
pub fn view_any(any: &AnyPosition) -> Value {
    crate::with_position!(any, p => view(p))
}
