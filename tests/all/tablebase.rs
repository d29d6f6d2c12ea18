//! Tablebases: symmetries (G11) proven by the naive solver, every entry of small layers
//! equal to the naive solver (V2), the file format's typed errors, rerun behaviour.

use giuthi::index::Ranker;
use giuthi::rules::giuthi::{Giuthi, Variant};
use giuthi::rules::kalah::Kalah;
use giuthi::solve::naive::naive_solve;
use giuthi::solve::naive::NaiveGraph;
use giuthi::solve::EndgameOracle;
use giuthi::tablebase::generate::{generate, GenOptions};
use giuthi::tablebase::inspect::verify_layer;
use giuthi::tablebase::probe::{solve_position, solve_position_v3};
use giuthi::tablebase::{layer_path, partial_path, TablebaseSet, TbError, TbGame};
use giuthi::{Bounds, Side};
use std::collections::HashMap;
use std::path::Path;

/// Flips `mask` in the last byte of the file at `path` (a corrupt entry).
fn flip_last_byte(path: &Path, mask: u8) {
    let mut bytes = std::fs::read(path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= mask;
    std::fs::write(path, &bytes).unwrap();
}

/// Every state (both turns) of layer `seeds`.
fn layer_states<R: TbGame>(rules: &R, seeds: u32) -> Vec<R::State> {
    let p = 2 * rules.pits_per_row();
    let ranker = Ranker::new(p, seeds as usize);
    let mut out = Vec::new();
    let mut b = vec![0u8; p];
    for r in 0..ranker.layer_size(seeds as usize) {
        ranker.unrank(r, seeds as usize, &mut b);
        for side in Side::BOTH {
            out.push(rules.make_state(&b, side));
        }
    }
    out
}

/// Naive bounds of every state of layers `0..=max`, sharing reachable graphs.
fn naive_table<R: TbGame>(rules: &R, max: u32) -> HashMap<R::State, Bounds> {
    let mut known: HashMap<R::State, Bounds> = HashMap::new();
    for s in 0..=max {
        for st in layer_states(rules, s) {
            if known.contains_key(&st) {
                continue;
            }
            let g = NaiveGraph::build(rules, &st, 10_000_000, None).expect("small graph");
            for x in g.states() {
                known
                    .entry(*x)
                    .or_insert_with(|| g.bounds(x).expect("in graph"));
            }
        }
    }
    known
}

fn swap<R: TbGame>(rules: &R, s: &R::State) -> R::State {
    let n = rules.pits_per_row();
    let b = rules.board(s);
    let mut out = vec![0u8; 2 * n];
    for i in 0..2 * n {
        out[(i + n) % (2 * n)] = b[i];
    }
    rules.make_state(&out, rules.turn(s).opponent())
}

fn check_row_swap<R: TbGame>(rules: &R, max: u32) {
    let t = naive_table(rules, max);
    let mut checked = 0;
    for s in 0..=max {
        for st in layer_states(rules, s) {
            assert_eq!(t[&st], t[&swap(rules, &st)], "{st:?}");
            checked += 1;
        }
    }
    assert!(checked > 100);
}

#[test]
fn g11_row_swap_giuthi_n3_by_naive() {
    check_row_swap(&Giuthi::new(3, Variant::default()).unwrap(), 8);
}

#[test]
fn g11_row_swap_giuthi_n4_variants_by_naive() {
    for v in ["", "chain=one,origin=skip", "chain=none,end=empty-row"] {
        check_row_swap(&Giuthi::new(4, v.parse().unwrap()).unwrap(), 5);
    }
}

#[test]
fn r1_row_swap_kalah_by_naive() {
    check_row_swap(&Kalah::new(2).unwrap(), 10);
    check_row_swap(&Kalah::new(3).unwrap(), 7);
}

#[test]
fn g11_mirror_giuthi_by_naive() {
    for (n, max, v) in [(3, 8, ""), (4, 5, ""), (4, 5, "chain=one,origin=skip")] {
        let g = Giuthi::new(n, v.parse().unwrap()).unwrap();
        let t = naive_table(&g, max);
        for s in 0..=max {
            for st in layer_states(&g, s) {
                assert_eq!(t[&st], t[&g.mirror(&st)], "{st:?}");
            }
        }
    }
}

/// Generates into a fresh temporary folder.
fn gen<R: TbGame>(rules: &R, max: u32, threads: usize, mirror: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let opts = GenOptions {
        threads: Some(threads),
        mirror,
        ..GenOptions::quiet()
    };
    generate(rules, dir.path(), max, &opts).unwrap();
    dir
}

fn check_against_naive<R: TbGame>(rules: &R, max: u32, threads: usize, mirror: bool) {
    let dir = gen(rules, max, threads, mirror);
    let set = TablebaseSet::open(dir.path(), rules.clone(), max).unwrap();
    let t = naive_table(rules, max);
    let mut checked = 0u64;
    for s in 0..=max {
        for st in layer_states(rules, s) {
            assert_eq!(set.probe(&st), Some(t[&st]), "{st:?}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn v2_every_entry_equals_naive_giuthi_n3_s8() {
    check_against_naive(&Giuthi::new(3, Variant::default()).unwrap(), 8, 2, true);
}

#[test]
#[ignore = "slow: about 2 minutes; run with --ignored"]
fn v2_every_entry_equals_naive_giuthi_n3_s10() {
    check_against_naive(&Giuthi::new(3, Variant::default()).unwrap(), 10, 2, true);
}

#[test]
fn v2_every_entry_equals_naive_giuthi_n3_no_mirror_one_thread() {
    check_against_naive(&Giuthi::new(3, Variant::default()).unwrap(), 8, 1, false);
}

#[test]
fn v2_every_entry_equals_naive_giuthi_n4_s6() {
    check_against_naive(&Giuthi::new(4, Variant::default()).unwrap(), 6, 2, true);
}

#[test]
fn v2_every_entry_equals_naive_giuthi_n4_variants_s5() {
    for v in ["chain=one,origin=skip", "chain=none,end=empty-row"] {
        check_against_naive(&Giuthi::new(4, v.parse().unwrap()).unwrap(), 5, 2, true);
    }
}

#[test]
fn v2_every_entry_equals_naive_giuthi_n2_endless_moves() {
    // 2x2 and 2x3 boards have endless sowings (G7): they must be skipped, not looped.
    check_against_naive(&Giuthi::new(2, Variant::default()).unwrap(), 12, 2, true);
}

#[test]
fn r_every_entry_equals_naive_kalah() {
    check_against_naive(&Kalah::new(2).unwrap(), 12, 2, false);
    check_against_naive(&Kalah::new(3).unwrap(), 8, 2, false);
}

#[test]
#[ignore = "slow: a few minutes; run with --ignored"]
fn v2_every_entry_equals_naive_giuthi_n4_s8() {
    check_against_naive(&Giuthi::new(4, Variant::default()).unwrap(), 8, 2, true);
}

#[test]
#[ignore = "very slow (over 25 minutes on a shared machine); run with --ignored"]
fn v2_every_entry_equals_naive_giuthi_n4_s10() {
    check_against_naive(&Giuthi::new(4, Variant::default()).unwrap(), 10, 2, true);
}

#[test]
#[ignore = "slow; run with --ignored"]
fn v2_every_entry_equals_naive_giuthi_n3_variants_s10() {
    for v in ["chain=one", "chain=none", "origin=skip", "end=empty-row"] {
        check_against_naive(&Giuthi::new(3, v.parse().unwrap()).unwrap(), 10, 2, true);
    }
}

#[test]
fn threads_and_mirror_do_not_change_the_bytes() {
    let g = Giuthi::new(4, Variant::default()).unwrap();
    let a = gen(&g, 7, 1, false);
    let b = gen(&g, 7, 2, true);
    for s in 0..=7 {
        let fa = std::fs::read(layer_path(&g, a.path(), s)).unwrap();
        let fb = std::fs::read(layer_path(&g, b.path(), s)).unwrap();
        // The header differs in the informative fields (time, sweeps) only.
        assert_eq!(fa[..32], fb[..32], "layer {s}");
        assert_eq!(fa[64..], fb[64..], "layer {s}");
    }
}

// ---- files: typed errors, reruns ----

fn g3() -> Giuthi {
    Giuthi::new(3, Variant::default()).unwrap()
}

fn open3(dir: &Path, max: u32) -> Result<TablebaseSet<Giuthi>, TbError> {
    TablebaseSet::open(dir, g3(), max)
}

#[test]
fn corrupt_value_byte_is_checksum_mismatch_naming_the_path() {
    let dir = gen(&g3(), 5, 1, true);
    let path = layer_path(&g3(), dir.path(), 4);
    flip_last_byte(&path, 0x01);
    match open3(dir.path(), 5) {
        Err(e @ TbError::ChecksumMismatch { .. }) => {
            assert!(e.to_string().contains(&path.display().to_string()));
        }
        other => panic!("expected ChecksumMismatch, got {other:?}"),
    }
}

#[test]
fn truncated_file_is_truncated_error() {
    let dir = gen(&g3(), 3, 1, true);
    let path = layer_path(&g3(), dir.path(), 3);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 2]).unwrap();
    assert!(matches!(open3(dir.path(), 3), Err(TbError::Truncated { path: p, .. }) if p == path));
    std::fs::write(&path, &bytes[..10]).unwrap();
    assert!(matches!(
        open3(dir.path(), 3),
        Err(TbError::Truncated { .. })
    ));
    std::fs::write(&path, b"").unwrap();
    assert!(matches!(
        open3(dir.path(), 3),
        Err(TbError::Truncated { .. })
    ));
}

#[test]
fn wrong_magic_is_bad_magic() {
    let dir = gen(&g3(), 3, 1, true);
    let path = layer_path(&g3(), dir.path(), 2);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[0] = b'X';
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(open3(dir.path(), 3), Err(TbError::BadMagic { path: p }) if p == path));
}

#[test]
fn wrong_version_is_unsupported_version() {
    let dir = gen(&g3(), 2, 1, true);
    let path = layer_path(&g3(), dir.path(), 1);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8] = 9;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        open3(dir.path(), 2),
        Err(TbError::UnsupportedVersion { version: 9, .. })
    ));
}

#[test]
fn foreign_params_are_params_mismatch() {
    // A chain=one file renamed to the default variant's name.
    let one = Giuthi::new(3, "chain=one".parse().unwrap()).unwrap();
    let dir = gen(&one, 3, 1, true);
    let dflt = gen(&g3(), 3, 1, true);
    std::fs::copy(
        layer_path(&one, dir.path(), 3),
        layer_path(&g3(), dflt.path(), 3),
    )
    .unwrap();
    assert!(matches!(
        open3(dflt.path(), 3),
        Err(TbError::ParamsMismatch { .. })
    ));
    // Layer 2's file under layer 3's name.
    let dflt = gen(&g3(), 3, 1, true);
    std::fs::copy(
        layer_path(&g3(), dflt.path(), 2),
        layer_path(&g3(), dflt.path(), 3),
    )
    .unwrap();
    let e = open3(dflt.path(), 3).unwrap_err();
    assert!(matches!(e, TbError::ParamsMismatch { .. }), "{e}");
    // A Kalah file for a Giuthi board of the same size.
    let k = Kalah::new(3).unwrap();
    let kd = gen(&k, 3, 1, false);
    let dflt = gen(&g3(), 3, 1, true);
    std::fs::copy(
        layer_path(&k, kd.path(), 3),
        layer_path(&g3(), dflt.path(), 3),
    )
    .unwrap();
    let e = open3(dflt.path(), 3).unwrap_err();
    assert!(e.to_string().contains("game kalah"), "{e}");
}

#[test]
fn missing_layer_is_missing_layer() {
    let dir = gen(&g3(), 3, 1, true);
    std::fs::remove_file(layer_path(&g3(), dir.path(), 2)).unwrap();
    assert!(matches!(
        open3(dir.path(), 3),
        Err(TbError::MissingLayer { seeds: 2, .. })
    ));
    assert!(matches!(
        open3(dir.path(), 5),
        Err(TbError::MissingLayer { seeds: 2, .. })
    ));
}

#[test]
fn rerun_skips_finished_layers_and_restarts_interrupted_ones() {
    let g = g3();
    let dir = tempfile::tempdir().unwrap();
    let opts = GenOptions::quiet();
    let first = generate(&g, dir.path(), 4, &opts).unwrap();
    assert!(first.iter().all(|r| !r.skipped));
    // An interrupted layer 5: a stale temporary file with garbage.
    let p5 = layer_path(&g, dir.path(), 5);
    let tmp = giuthi::tablebase::format::temp_path(&p5);
    std::fs::write(&tmp, b"half a layer").unwrap();
    let second = generate(&g, dir.path(), 6, &opts).unwrap();
    assert!(second[..5].iter().all(|r| r.skipped));
    assert!(second[5..].iter().all(|r| !r.skipped));
    assert!(!tmp.exists());
    let fresh = gen(&g, 6, 1, false);
    for s in 0..=6 {
        let a = std::fs::read(layer_path(&g, dir.path(), s)).unwrap();
        let b = std::fs::read(layer_path(&g, fresh.path(), s)).unwrap();
        assert_eq!(a[64..], b[64..]);
    }
    // A corrupt finished layer stops the rerun with its path instead of being trusted.
    let p2 = layer_path(&g, dir.path(), 2);
    flip_last_byte(&p2, 0x10);
    assert!(matches!(
        generate(&g, dir.path(), 6, &opts),
        Err(TbError::ChecksumMismatch { path }) if path == p2
    ));
}

#[test]
fn memory_budget_is_refused_up_front_with_the_figure() {
    let g = Giuthi::new(5, Variant::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let opts = GenOptions {
        memory_mb: 1,
        ..GenOptions::quiet()
    };
    let e = generate(&g, dir.path(), 12, &opts).unwrap_err();
    assert!(matches!(e, TbError::MemoryBudget { needed_mb, budget_mb: 1, .. } if needed_mb > 1));
    // Nothing was written.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn layers_beyond_the_encoding_are_refused() {
    let g = Giuthi::new(2, Variant::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        generate(&g, dir.path(), 127, &GenOptions::quiet()),
        Err(TbError::RangeTooLarge { seeds: 127 })
    ));
}

#[test]
fn probe_north_to_move_and_absent_layers() {
    let g = g3();
    let dir = gen(&g, 5, 1, true);
    let set = TablebaseSet::open_all(dir.path(), g.clone()).unwrap();
    assert_eq!(set.max_seeds(), 5);
    let s: giuthi::Position<Giuthi> = "giuthi 0,2,0/0,0,1 N 0,0".parse().unwrap();
    let b = set.probe(&s.state).unwrap();
    let naive = giuthi::solve::naive::naive_bounds(&g, &s.state, 100_000).unwrap();
    assert_eq!(b, naive);
    let big: giuthi::Position<Giuthi> = "giuthi 3,0,0/0,0,3 N 0,0".parse().unwrap();
    assert_eq!(set.probe(&big.state), None);
}

// ---- probing a concrete position: V3 margin, V4 move values, verification ----

#[test]
fn v4_example_of_the_rule_book() {
    let g = Giuthi::new(4, Variant::default()).unwrap();
    let dir = gen(&g, 5, 2, true);
    let set = TablebaseSet::open(dir.path(), g, 5).unwrap();
    let pos: giuthi::Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse().unwrap();
    let sol = solve_position(&set, &pos, 1_000_000).unwrap().unwrap();
    assert_eq!((sol.bounds.lo, sol.bounds.hi), (3, giuthi::value::POS_INF));
    assert_eq!(sol.margin, 1);
    let best: Vec<String> = sol.best_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["5cw"]);
    assert_eq!(sol.pv[0].to_string(), "5cw");
}

/// V4: a limit of 0 allows no local states, so the check fails instead of being skipped;
/// the V3 valuation (root an ordinary position) is its own function.
#[test]
fn v4_limit_zero_never_skips_the_check() {
    let g = Giuthi::new(4, Variant::default()).unwrap();
    let dir = gen(&g, 5, 2, true);
    let set = TablebaseSet::open(dir.path(), g, 5).unwrap();
    let pos: giuthi::Position<Giuthi> = "giuthi 1,0,0,0/1,3,0,0 S 0,2".parse().unwrap();
    let err = solve_position(&set, &pos, 0).unwrap_err();
    assert_eq!((err.mv.as_str(), err.limit), ("5cw", 0));
    let v3 = solve_position_v3(&set, &pos).unwrap();
    let best: Vec<String> = v3.best_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["5cw", "5ccw"]);
    let v4 = solve_position(&set, &pos, 1_000_000).unwrap().unwrap();
    let best: Vec<String> = v4.best_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["5cw"]);
}

fn check_moves_against_naive_solve<R: TbGame>(rules: &R, max: u32) {
    let dir = gen(rules, max, 2, true);
    let set = TablebaseSet::open(dir.path(), rules.clone(), max).unwrap();
    let mut checked = 0;
    for s in 0..=max {
        for st in layer_states(rules, s) {
            for (south, north) in [(0u16, 0u16), (2, 0), (0, 3), (1, 2)] {
                let pos =
                    giuthi::Position::new(rules.clone(), st, giuthi::BySide::new(south, north));
                let naive = naive_solve(&pos, 1_000_000).unwrap();
                let tb = solve_position(&set, &pos, 1_000_000).unwrap().unwrap();
                assert_eq!(tb.bounds, naive.bounds, "{pos}");
                assert_eq!(tb.margin, naive.margin, "{pos}");
                assert_eq!(tb.moves, naive.moves, "{pos}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}

#[test]
fn v4_move_values_equal_naive_solve_giuthi_n3() {
    check_moves_against_naive_solve(&Giuthi::new(3, Variant::default()).unwrap(), 6);
}

#[test]
fn v4_move_values_equal_naive_solve_giuthi_n4() {
    check_moves_against_naive_solve(&Giuthi::new(4, Variant::default()).unwrap(), 4);
}

#[test]
fn v4_move_values_equal_naive_solve_kalah() {
    check_moves_against_naive_solve(&Kalah::new(2).unwrap(), 8);
}

#[test]
fn verify_rederives_every_entry_and_catches_a_consistent_corruption() {
    let g = Giuthi::new(4, Variant::default()).unwrap();
    let dir = gen(&g, 6, 2, true);
    {
        let set = TablebaseSet::open(dir.path(), g.clone(), 6).unwrap();
        for s in 0..=6 {
            let r = verify_layer(&set, s, None, 1);
            assert_eq!(r.mismatches, 0, "{r:?}");
            assert_eq!(r.checked, Ranker::new(8, 6).layer_size(s as usize));
        }
    }
    // Change one value and fix the checksum: only re-derivation can catch it.
    let path = layer_path(&g, dir.path(), 6);
    let mut bytes = std::fs::read(&path).unwrap();
    let set = TablebaseSet::open(dir.path(), g.clone(), 6).unwrap();
    let target = (0..Ranker::new(8, 6).layer_size(6))
        .find(|&r| {
            let b = set.layers()[6].get(r);
            b.lo == b.hi && b.lo < 5
        })
        .unwrap();
    drop(set);
    let i = 64 + 2 * target as usize;
    bytes[i] = bytes[i].wrapping_add(1);
    bytes[i + 1] = bytes[i + 1].wrapping_add(1);
    let sum = giuthi::tablebase::format::checksum(&bytes[64..]);
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let set = TablebaseSet::open(dir.path(), g, 6).unwrap();
    let r = verify_layer(&set, 6, None, 1);
    assert!(r.mismatches >= 1, "{r:?}");
}

#[test]
#[ignore = "slow; run with --ignored"]
fn v2_random_entries_of_larger_layers_equal_naive_giuthi_n5() {
    let g = Giuthi::new(5, Variant::default()).unwrap();
    let max = 12;
    let dir = gen(&g, max, 2, true);
    let set = TablebaseSet::open(dir.path(), g.clone(), max).unwrap();
    let ranker = Ranker::new(10, max as usize);
    let mut x = 12345u64;
    let mut checked = 0;
    for s in [9u32, 10, 11, 12] {
        for _ in 0..60 {
            x = giuthi::index::mix64(x.wrapping_add(1));
            let r = x % ranker.layer_size(s as usize);
            let mut b = [0u8; 10];
            ranker.unrank(r, s as usize, &mut b);
            let side = if x & (1 << 40) != 0 {
                Side::North
            } else {
                Side::South
            };
            let st = g.make_state(&b, side);
            if let Ok(nb) = giuthi::solve::naive::naive_bounds(&g, &st, 200_000) {
                assert_eq!(set.probe(&st), Some(nb), "{st:?}");
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 40,
        "only {checked} positions small enough for naive"
    );
}

/// The entry bytes of a layer file (after its 64-byte header).
fn entries_of(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()[64..].to_vec()
}

/// A layer stopped after any number of sweeps (0: in its scan) and resumed, once or twice,
/// ends with exactly the entries of an uninterrupted run, and its `.partial` file is
/// gone; Giuthi with and without the mirror, and Kalah (by the fixpoint sweeps). With one thread the sweeps are
/// deterministic and the stops are checked exactly; with two (the in-place sweeps then
/// vary in number from run to run) the entries are.
#[test]
fn interrupted_layers_resume_to_the_same_entries() {
    fn check<R: TbGame>(rules: &R, seeds: u32, mirror: bool, threads: usize) {
        let straight = tempfile::tempdir().unwrap();
        // Kalah's layers take the sweeps here (its one pass has none to stop between:
        // `kalah_one_pass_stopped_restarts_to_the_same_entries`).
        let base = GenOptions {
            mirror,
            threads: Some(threads),
            one_pass: false,
            ..GenOptions::quiet()
        };
        let exact = threads == 1;
        let reports = generate(rules, straight.path(), seeds, &base).unwrap();
        let sweeps = reports.last().unwrap().sweeps;
        assert!(sweeps >= 3, "a layer with several sweeps: {sweeps}");
        let want = entries_of(&layer_path(rules, straight.path(), seeds));
        for k in 0..sweeps + 1 {
            let dir = tempfile::tempdir().unwrap();
            for s in 0..seeds {
                let (from, to) = (straight.path(), dir.path());
                std::fs::copy(layer_path(rules, from, s), layer_path(rules, to, s)).unwrap();
            }
            let stopping = |k| GenOptions {
                stop_after_sweeps: Some(k),
                ..base.clone()
            };
            let partial = partial_path(rules, dir.path(), seeds);
            match generate(rules, dir.path(), seeds, &stopping(k)) {
                Err(TbError::Interrupted {
                    seeds: s,
                    sweeps: done,
                    saved,
                    during_scan,
                }) => {
                    assert_eq!(s, seeds);
                    assert_eq!(during_scan, k == 0);
                    assert_eq!(done, k);
                    assert_eq!(saved.is_some(), k > 0);
                    assert_eq!(partial.exists(), k > 0);
                    assert!(!exact || k < sweeps, "stopped after the last sweep ({k})");
                }
                Ok(_) => assert!(
                    !exact || k == sweeps,
                    "not stopped after {k} of {sweeps} sweeps"
                ),
                Err(e) => panic!("{e}"),
            }
            // A second stop, one sweep later, then the end.
            let _ = generate(rules, dir.path(), seeds, &stopping(1));
            let reports = generate(rules, dir.path(), seeds, &base).unwrap();
            // One thread: the resumed sweeps continue the interrupted ones exactly (a
            // restart from scratch would count more).
            let total = reports.last().unwrap().sweeps;
            assert!(
                !exact || total == sweeps,
                "{total} sweeps, {sweeps} without stops"
            );
            let got = entries_of(&layer_path(rules, dir.path(), seeds));
            assert!(
                got == want,
                "layer {seeds} stopped after {k} sweeps differs"
            );
            assert!(!partial.exists());
        }
    }
    for threads in [1, 2] {
        check(
            &Giuthi::new(4, Variant::default()).unwrap(),
            12,
            true,
            threads,
        );
        check(
            &Giuthi::new(4, Variant::default()).unwrap(),
            10,
            false,
            threads,
        );
        check(&Kalah::new(4).unwrap(), 12, true, threads);
    }
}

/// A stop in the scan of a layer with saved progress keeps that progress and says so.
#[test]
fn a_stop_in_the_scan_keeps_the_saved_progress() {
    let g = Giuthi::new(4, Variant::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let stop = |k| GenOptions {
        stop_after_sweeps: Some(k),
        threads: Some(1),
        ..GenOptions::quiet()
    };
    assert!(generate(&g, dir.path(), 12, &stop(2)).is_err());
    let partial = partial_path(&g, dir.path(), 3);
    let before = std::fs::read(&partial).unwrap();
    let e = generate(&g, dir.path(), 12, &stop(0)).unwrap_err();
    assert!(
        matches!(&e, TbError::Interrupted { seeds: 3, sweeps: 2, saved: Some(p), during_scan: true } if *p == partial),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(
        text.contains("during its scan; the progress of an earlier run (2 sweeps)"),
        "{text}"
    );
    assert_eq!(std::fs::read(&partial).unwrap(), before);
}

/// A corrupt `.partial` file is reported with its path, never resumed from.
#[test]
fn a_corrupt_partial_file_is_refused() {
    let g = Giuthi::new(4, Variant::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let stop = GenOptions {
        stop_after_sweeps: Some(2),
        ..GenOptions::quiet()
    };
    assert!(matches!(
        generate(&g, dir.path(), 12, &stop),
        Err(TbError::Interrupted { .. })
    ));
    let partial = partial_path(&g, dir.path(), 3);
    flip_last_byte(&partial, 0x55);
    assert!(matches!(
        generate(&g, dir.path(), 12, &GenOptions::quiet()),
        Err(TbError::ChecksumMismatch { path }) if path == partial
    ));
}

/// A layer stopped with the mirror on and resumed with it off, or the other way round,
/// ends with the entries of an uninterrupted run: the saved entries hold the mirror
/// images too (a fresh-user find: they used to hold starting values there, and a run
/// without the mirror resumed from them into wrong entries with a valid checksum).
#[test]
fn g11_a_partial_layer_resumes_with_or_without_the_mirror() {
    let g = Giuthi::new(4, Variant::default()).unwrap();
    let seeds = 12;
    let straight = tempfile::tempdir().unwrap();
    let opts = |mirror, stop| GenOptions {
        mirror,
        threads: Some(1),
        stop_after_sweeps: stop,
        ..GenOptions::quiet()
    };
    let reports = generate(&g, straight.path(), seeds, &opts(true, None)).unwrap();
    let sweeps = reports.last().unwrap().sweeps;
    let want = entries_of(&layer_path(&g, straight.path(), seeds));
    for (first, then) in [(true, false), (false, true)] {
        for k in 1..sweeps {
            let dir = tempfile::tempdir().unwrap();
            for s in 0..seeds {
                let (from, to) = (straight.path(), dir.path());
                std::fs::copy(layer_path(&g, from, s), layer_path(&g, to, s)).unwrap();
            }
            let stopped = generate(&g, dir.path(), seeds, &opts(first, Some(k)));
            assert!(
                matches!(stopped, Err(TbError::Interrupted { .. })),
                "k = {k}"
            );
            generate(&g, dir.path(), seeds, &opts(then, None)).unwrap();
            let got = entries_of(&layer_path(&g, dir.path(), seeds));
            assert!(
                got == want,
                "mirror {first} then {then}, stopped after {k} sweeps"
            );
        }
    }
}

/// The entries of every layer of a Kalah table, Kalah's one pass against the fixpoint
/// sweeps of Giuthi's generator (two methods), on 2x4 to 14 seeds and 2x5 to 12, with
/// one and two threads: byte for byte. The one pass takes 1 "sweep", the fixpoint more.
#[test]
fn kalah_one_pass_equals_the_fixpoint_sweeps_entry_by_entry() {
    for (m, max) in [(4, 14), (5, 12)] {
        let k = Kalah::new(m).unwrap();
        let run = |one_pass: bool, threads: usize| {
            let dir = tempfile::tempdir().unwrap();
            let opts = GenOptions {
                threads: Some(threads),
                one_pass,
                ..GenOptions::quiet()
            };
            let reports = generate(&k, dir.path(), max, &opts).unwrap();
            (dir, reports)
        };
        let (sweeps, by_sweeps) = run(false, 1);
        assert!(by_sweeps.last().unwrap().sweeps > 2);
        for threads in [1, 2] {
            let (pass, by_pass) = run(true, threads);
            for s in 0..=max {
                let (a, b) = (&by_pass[s as usize], &by_sweeps[s as usize]);
                assert_eq!(a.sweeps, 1);
                assert_eq!((a.positions, a.scanned), (b.positions, b.scanned));
                if threads == 1 {
                    assert_eq!(a.edges, b.edges, "layer {s}: in-layer edges");
                }
                let want = entries_of(&layer_path(&k, sweeps.path(), s));
                let got = entries_of(&layer_path(&k, pass.path(), s));
                assert!(
                    got == want,
                    "2x{m} layer {s}, {threads} threads: entries differ"
                );
            }
        }
    }
}

/// Kalah's own `south_moves` (short sowings done on the child's South view) lists the
/// same children, seeds, captures and turns as the default through `Rules::children`,
/// on every board of 2x1 to 2x6 up to 8 seeds.
#[test]
fn r1_r4_kalah_south_moves_equal_children() {
    type Moves = Vec<([u8; 32], u32, u16, bool)>;
    let mut compared = 0u64;
    for m in 1..=6 {
        let k = Kalah::new(m).unwrap();
        let p = 2 * m;
        let ranker = Ranker::new(p, 9);
        let mut board = vec![0u8; p];
        let mut kids = Vec::new();
        for seeds in 0..=8 {
            for r in 0..ranker.layer_size(seeds) {
                ranker.unrank(r, seeds, &mut board);
                let (mut a, mut b): (Moves, Moves) = (Vec::new(), Vec::new());
                let any_a = k.south_moves(&board, &mut kids, |c, s, x, t| a.push((*c, s, x, t)));
                let any_b = giuthi::tablebase::south_moves_by_children(&k, &board, |c, s, x, t| {
                    b.push((*c, s, x, t))
                });
                assert_eq!((any_a, &a), (any_b, &b), "2x{m} board {board:?}");
                compared += a.len() as u64;
            }
        }
    }
    assert!(compared > 100_000, "{compared} moves compared");
}

/// A Kalah layer stopped in its one pass is reported as stopped in its scan, with nothing
/// saved; the same command then makes it, with the entries of an uninterrupted run.
#[test]
fn kalah_one_pass_stopped_restarts_to_the_same_entries() {
    let k = Kalah::new(4).unwrap();
    let straight = tempfile::tempdir().unwrap();
    generate(&k, straight.path(), 12, &GenOptions::quiet()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for s in 0..12 {
        std::fs::copy(
            layer_path(&k, straight.path(), s),
            layer_path(&k, dir.path(), s),
        )
        .unwrap();
    }
    let stop = GenOptions {
        stop_after_sweeps: Some(0),
        ..GenOptions::quiet()
    };
    match generate(&k, dir.path(), 12, &stop) {
        Err(TbError::Interrupted {
            seeds: 12,
            sweeps: 0,
            saved: None,
            during_scan: true,
        }) => {}
        other => panic!("{other:?}"),
    }
    assert!(!partial_path(&k, dir.path(), 12).exists());
    generate(&k, dir.path(), 12, &GenOptions::quiet()).unwrap();
    let want = entries_of(&layer_path(&k, straight.path(), 12));
    assert!(entries_of(&layer_path(&k, dir.path(), 12)) == want);
}

/// V2: tables copied into memory (`Load::Memory`, the default of a long `--tb` search)
/// answer every probe as the mapped ones do, and a copy of a corrupt layer is refused by
/// its checksum as the mapping is.
#[test]
fn v2_tables_copied_into_memory_equal_mapped_tables() {
    use giuthi::tablebase::Load;
    // Kalah (no repetition, V2: lo == hi everywhere): every layer narrow, one byte a
    // position.
    let k = Kalah::new(3).unwrap();
    let dir = gen(&k, 9, 2, false);
    let mapped = TablebaseSet::open_complete_loaded(dir.path(), k.clone(), Load::Map).unwrap();
    let copied = TablebaseSet::open_complete_loaded(dir.path(), k.clone(), Load::Memory).unwrap();
    assert_eq!(copied.max_seeds(), 9);
    assert!(copied.layers().iter().all(|l| l.is_narrow()));
    assert!(!mapped.layers().iter().any(|l| l.is_narrow()));
    let t = naive_table(&k, 9);
    for s in 0..=9 {
        for st in layer_states(&k, s) {
            assert_eq!(copied.probe(&st), Some(t[&st]), "{st:?}");
            assert_eq!(copied.probe(&st), mapped.probe(&st), "{st:?}");
        }
    }
    // A corrupt entry that is still exact (both bytes changed alike) is caught by the
    // narrow copy's checksum; one that is not (one byte) by the whole copy's.
    let path = layer_path(&k, dir.path(), 9);
    let good = std::fs::read(&path).unwrap();
    for corrupt in [[1u8, 1], [0, 1]] {
        let mut bytes = good.clone();
        let last = bytes.len() - 2;
        bytes[last] ^= corrupt[0];
        bytes[last + 1] ^= corrupt[1];
        std::fs::write(&path, &bytes).unwrap();
        for load in [Load::Map, Load::Memory] {
            let e = TablebaseSet::open_complete_loaded(dir.path(), k.clone(), load).unwrap_err();
            assert!(
                matches!(e, TbError::ChecksumMismatch { .. }),
                "{corrupt:?} {load:?}: {e}"
            );
        }
    }
    // Giuthi (repetitions: lo < hi somewhere, G10): such layers are copied whole, the
    // others narrow, and every entry is the naive table's and the mapped one.
    let g = Giuthi::new(3, Variant::default()).unwrap();
    let dir = gen(&g, 8, 2, true);
    let mapped = TablebaseSet::open_complete_loaded(dir.path(), g.clone(), Load::Map).unwrap();
    let copied = TablebaseSet::open_complete_loaded(dir.path(), g.clone(), Load::Memory).unwrap();
    let narrow: Vec<bool> = copied.layers().iter().map(|l| l.is_narrow()).collect();
    assert!(
        narrow.contains(&true) && narrow.contains(&false),
        "{narrow:?}"
    );
    let t = naive_table(&g, 8);
    for s in 0..=8 {
        for st in layer_states(&g, s) {
            assert_eq!(copied.probe(&st), Some(t[&st]), "{st:?}");
            assert_eq!(copied.probe(&st), mapped.probe(&st), "{st:?}");
        }
    }
}
