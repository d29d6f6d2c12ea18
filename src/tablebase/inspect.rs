//! Inspecting tablebase folders: which games are in them, per-layer statistics, and
//! verification by re-deriving entries from their successors.

use super::format::{GameId, Header, LayerFile, HEADER_LEN};
use super::{TablebaseSet, TbError, TbGame};
use crate::index::{mix64, Ranker};
use crate::position::Position;
use crate::rules::giuthi::Giuthi;
use crate::rules::kalah::Kalah;
use crate::rules::Child;
use crate::solve::EndgameOracle;
use crate::types::Side;
use crate::value::{back_up, Bounds, NEG_INF};
use serde::Serialize;
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The file name a layer with header `h` has (`giuthi-n5-s020.tb`).
fn expected_name(h: &Header) -> Result<String, TbError> {
    let stem = match h.game {
        GameId::Giuthi => Giuthi::from_header(h.variant, h.n)?.file_stem(),
        GameId::Kalah => Kalah::from_header(h.variant, h.n)?.file_stem(),
    };
    Ok(format!("{stem}-s{:03}.tb", h.seeds))
}

/// The (game code, variant code, n) of every tablebase file (`*.tb`) in `dir`, with the
/// files whose header could not be read.
///
/// # Errors
///
/// [`TbError::Io`] when the folder cannot be listed.
#[allow(clippy::type_complexity)]
pub fn scan_dir(dir: &Path) -> Result<(BTreeSet<(u8, u8, u8)>, Vec<TbError>), TbError> {
    let io = |e| TbError::Io {
        path: dir.to_path_buf(),
        source: e,
    };
    let mut found = BTreeSet::new();
    let mut bad = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tb"))
        .collect();
    paths.sort();
    for p in paths {
        if !std::fs::metadata(&p).is_ok_and(|m| m.is_file()) {
            bad.push(super::format::not_a_file(&p));
            continue;
        }
        let mut buf = [0u8; HEADER_LEN];
        let read = std::fs::File::open(&p).and_then(|mut f| {
            let mut got = 0;
            while got < HEADER_LEN {
                let k = f.read(&mut buf[got..])?;
                if k == 0 {
                    break;
                }
                got += k;
            }
            Ok(got)
        });
        match read {
            Err(e) => bad.push(TbError::Io { path: p, source: e }),
            Ok(got) => match Header::parse(&buf[..got], &p) {
                // A file whose name is not the one its header implies (a layer of another
                // set, renamed or copied in) is reported as what it is, instead of as a
                // missing layer of a set the folder does not hold.
                Ok(h) => match expected_name(&h) {
                    Ok(name) if p.file_name().is_some_and(|f| f == name.as_str()) => {
                        found.insert((h.game.code(), h.variant, h.n));
                    }
                    Ok(name) => bad.push(TbError::ParamsMismatch {
                        path: p,
                        what: format!(
                            "by its header it is layer {} of another table set, whose file \
                             is named {name}; rename or remove it",
                            h.seeds
                        ),
                    }),
                    Err(e) => bad.push(e),
                },
                Err(e) => bad.push(e),
            },
        }
    }
    Ok((found, bad))
}

/// Statistics of one layer (the side to move's view, South to move; a repetition is
/// scored as a draw with no seeds captured, so a position's result is the sign of
/// `clamp(0, lo, hi)`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LayerStats {
    /// The layer.
    pub seeds: u32,
    /// Positions stored.
    pub positions: u64,
    /// Wins for the side to move (with nothing captured yet).
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Positions whose value depends on how a repetition is scored (`lo != hi`).
    pub lo_ne_hi: u64,
    /// File size in bytes.
    pub bytes: u64,
    /// Generation time in seconds (from the header).
    pub seconds: f64,
    /// Fixpoint sweeps (from the header).
    pub sweeps: u32,
}

/// Counts the results of one layer file.
pub fn layer_stats(lf: &LayerFile) -> LayerStats {
    let mut st = LayerStats {
        seeds: lf.header.seeds as u32,
        positions: lf.header.count,
        wins: 0,
        draws: 0,
        losses: 0,
        lo_ne_hi: 0,
        bytes: HEADER_LEN as u64 + lf.entry_bytes().len() as u64,
        seconds: lf.header.gen_millis as f64 / 1000.0,
        sweeps: lf.header.sweeps,
    };
    for e in lf.entry_bytes().chunks_exact(2) {
        let b = super::format::decode(u16::from_le_bytes([e[0], e[1]]));
        if b.lo != b.hi {
            st.lo_ne_hi += 1;
        }
        match b.exact_margin(0).signum() {
            1 => st.wins += 1,
            0 => st.draws += 1,
            _ => st.losses += 1,
        }
    }
    st
}

/// `(lo, hi)` of `s` re-derived from its successors' stored values (RULES.md V3): the
/// maximum over moves of `(k - hi', k - lo')` when the turn passes, `(k + lo', k + hi')`
/// for an extra move; `final_value` for a finished game. `None` when a successor is not
/// covered.
pub fn derive<R: TbGame>(
    set: &TablebaseSet<R>,
    s: &R::State,
    children: &mut Vec<Child<R>>,
) -> Option<Bounds> {
    let rules = set.rules();
    rules.children(s, children);
    if children.is_empty() {
        return Some(Bounds::exact(rules.final_value(s)));
    }
    let (mut lo, mut hi) = (NEG_INF, NEG_INF);
    for c in children.iter() {
        let b = set.probe(&c.state)?;
        let k = c.captured as i16;
        let (lo_m, hi_m) = if c.turn_passes {
            (back_up(b.hi, k, true), back_up(b.lo, k, true))
        } else {
            (back_up(b.lo, k, false), back_up(b.hi, k, false))
        };
        lo = lo.max(lo_m);
        hi = hi.max(hi_m);
    }
    Some(Bounds { lo, hi })
}

/// The outcome of verifying one layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// The layer.
    pub seeds: u32,
    /// Entries re-derived.
    pub checked: u64,
    /// Entries whose stored value differs from the re-derived one (at most 10 listed).
    pub mismatches: u64,
    /// The first mismatching ranks, with stored and derived values.
    pub examples: Vec<String>,
}

/// Bounds in words for a report line: `lo -inf hi +3` (RULES.md V2), or `no entry`.
fn describe(b: Option<Bounds>) -> String {
    b.map_or_else(|| "no entry".to_string(), |b| b.to_string())
}

/// Re-derives `samples` entries of layer `seeds` (all of them when `samples` is `None`
/// or not smaller than the layer), chosen by a generator seeded with `rng_seed`, and
/// compares them with the stored values. The fixpoint equations hold at every stored
/// entry of a correct table.
pub fn verify_layer<R: TbGame>(
    set: &TablebaseSet<R>,
    seeds: u32,
    samples: Option<u64>,
    rng_seed: u64,
) -> VerifyReport {
    let rules = set.rules();
    let p = 2 * rules.pits_per_row();
    let ranker = Ranker::new(p, seeds as usize);
    let size = ranker.layer_size(seeds as usize);
    let all = samples.map_or(true, |k| k >= size);
    let count = if all { size } else { samples.unwrap_or(0) };
    let mut rep = VerifyReport {
        seeds,
        checked: 0,
        mismatches: 0,
        examples: Vec::new(),
    };
    let mut children = Vec::new();
    let mut b = vec![0u8; p];
    let mut x = rng_seed ^ (seeds as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for i in 0..count {
        let r = if all {
            i
        } else {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            mix64(x) % size
        };
        ranker.unrank(r, seeds as usize, &mut b);
        let s = rules.make_state(&b, Side::South);
        let stored = set.probe(&s);
        let derived = derive(set, &s, &mut children);
        rep.checked += 1;
        if stored != derived || stored.is_none() {
            rep.mismatches += 1;
            if rep.examples.len() < 10 {
                let pos = Position::new(rules.clone(), s, Default::default());
                rep.examples.push(format!(
                    "rank {r} ({pos}): stored {}, derived {}",
                    describe(stored),
                    describe(derived)
                ));
            }
        }
    }
    rep
}
