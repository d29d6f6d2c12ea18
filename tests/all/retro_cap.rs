//! The retrograde pass past a million states (session 12, issue 12 part 3): a graph just
//! above the old fixed cap of 2^20 states, which the search took minutes on, is solved by
//! the pass, and the race's checkpoints go on doubling above 2^20
//! (`retro::RACE_BALANCED_FROM`), each with a node budget of one node a state beyond it.

use giuthi::rules::giuthi::Giuthi;
use giuthi::rules::Rules;
use giuthi::solve::retro::{
    default_max_states, race_budget, solve_position_racing, DEFAULT_MAX_STATES, MAX_DEFAULT_STATES,
    RACE_BALANCED_FROM,
};
use giuthi::tablebase::generate::{generate, GenOptions};
use giuthi::tablebase::{probe, TablebaseSet};
use giuthi::Position;

/// The last session's stall: 10 seeds on 2x7 (origin=skip), 4,765,826 states; alpha-beta
/// alone proved only `margin in [+9, +11]` in 579 s of CPU.
const STALL: &str = "giuthi:origin=skip 0,0,1,1,0,0,3/0,1,0,2,1,1,1 S 0,0";

/// V2-V4, G10: the pass over the 4.8 M-state graph gives the tablebases' `lo`, `hi`,
/// margin and best moves (a second method: the retrograde generator over every board of
/// at most 10 seeds on 2x7), and the race asked the search at every checkpoint, the
/// ones above 2^20 doubling.
#[test]
fn v3_a_graph_past_the_old_cap_equals_the_tablebases_and_races_at_doubling_checkpoints() {
    let pos: Position<Giuthi> = STALL.parse().unwrap();
    let mut checkpoints = Vec::new();
    let (sol, moves) = solve_position_racing(&pos, 1 << 23, &|| false, &mut |states| {
        checkpoints.push(states);
        false
    })
    .expect("within a cap of 2^23 states");
    assert_eq!(sol.nodes, 4_765_826, "the graph's states");
    assert_eq!(
        checkpoints,
        [16_384, 65_536, 262_144, 1 << 20, 1 << 21, 1 << 22],
        "x4 up to 2^20, then x2"
    );
    let tb = tablebase_solution(&pos);
    assert_eq!(sol.bounds(), Some(tb.bounds), "lo and hi");
    assert_eq!(sol.margin, tb.margin);
    assert_eq!(sol.margin, 11);
    assert!(tb.upper_bounds.is_empty(), "every V4 move value exact");
    let key = |v: &[(giuthi::rules::giuthi::GiuthiMove, i32)]| {
        let mut v: Vec<_> = v.iter().map(|(m, x)| (m.to_string(), *x)).collect();
        v.sort();
        v
    };
    assert_eq!(key(&moves), key(&tb.moves), "every move's value (V4)");
    let best: Vec<_> = tb
        .moves
        .iter()
        .filter(|(_, x)| *x == tb.margin)
        .map(|(m, _)| *m)
        .collect();
    let mut a = sol.best_moves.clone();
    let mut b = best;
    a.sort_by_key(|m| m.to_string());
    b.sort_by_key(|m| m.to_string());
    assert_eq!(a, b, "best moves (V4)");
}

/// Session 23's stall: 13 seeds on 2x7, 19,494,216 states, over the default cap of
/// sessions 12 to 22 (2^24); alpha-beta alone proved only `lo in [+11, +13]` in 300 s.
const STALL_19M: &str = "giuthi 2,1,1,0,1,1,2/0,1,0,0,2,0,2 S 5,5";

/// V2-V4, G10: the pass over a 19.5 M-state graph (about 20 s and 3.5 GB; the default cap
/// on a machine with 24 GB is about 90 M states) gives the tablebases' `lo`, `hi`, margin
/// and every move's value (the 2x7 tables up to 13 seeds, about 11 s to make).
#[test]
#[ignore = "heavy: about 35 s and 3.5 GB; run with --ignored"]
fn v3_a_19_m_state_graph_under_the_new_default_cap_equals_the_tablebases() {
    let pos: Position<Giuthi> = STALL_19M.parse().unwrap();
    let cap = default_max_states(24_000_000_000);
    let (sol, moves) = solve_position_racing(&pos, cap, &|| false, &mut |_| false)
        .expect("within the default cap of a 24 GB machine");
    assert_eq!(sol.nodes, 19_494_216, "the graph's states");
    assert!(
        sol.nodes as usize > MAX_DEFAULT_STATES_BEFORE,
        "over the old cap"
    );
    let tb = tablebase_solution(&pos);
    assert_eq!(sol.bounds(), Some(tb.bounds), "lo and hi");
    assert_eq!((sol.margin, tb.margin), (11, 11));
    let key = |v: &[(giuthi::rules::giuthi::GiuthiMove, i32)]| {
        let mut v: Vec<_> = v.iter().map(|(m, x)| (m.to_string(), *x)).collect();
        v.sort();
        v
    };
    assert_eq!(key(&moves), key(&tb.moves), "every move's value (V4)");
    assert_eq!(
        sol.best_moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>(),
        ["11ccw"]
    );
}

/// The largest default cap of sessions 12 to 22.
const MAX_DEFAULT_STATES_BEFORE: usize = 1 << 24;

/// The budget of the race: a quarter of a node a state up to 2^20 states, then one a
/// state; and the default cap follows the memory available (three fifths of it at 160
/// bytes a state).
#[test]
fn v3_race_budget_and_default_cap() {
    assert_eq!(
        race_budget(RACE_BALANCED_FROM),
        (RACE_BALANCED_FROM / 4) as u64
    );
    assert_eq!(
        race_budget(4 * RACE_BALANCED_FROM) - race_budget(2 * RACE_BALANCED_FROM),
        2 * RACE_BALANCED_FROM as u64
    );
    assert_eq!(default_max_states(1 << 28), DEFAULT_MAX_STATES);
    assert_eq!(default_max_states(8_000_000_000), 30_000_000);
    assert_eq!(default_max_states(u64::MAX), MAX_DEFAULT_STATES);
}

/// `pos` solved by the tablebases (a second method): the layers up to its seeds made in a
/// temporary folder, then probed with every move's V4 value.
fn tablebase_solution(pos: &Position<Giuthi>) -> giuthi::tablebase::probe::TbSolution<Giuthi> {
    let dir = tempfile::tempdir().unwrap();
    let seeds = pos.rules.seeds_on_board(&pos.state);
    generate(&pos.rules, dir.path(), seeds, &GenOptions::quiet()).unwrap();
    let set = TablebaseSet::open_all(dir.path(), pos.rules.clone()).unwrap();
    probe::solve_position(&set, pos, 10_000_000)
        .expect("within the V4 limit")
        .expect("the layer is present")
}
