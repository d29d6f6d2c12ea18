//! `Kalah::can_repeat() == false` (the solver then skips the repetition game H and the
//! strict mode): checked on every move of every position reachable from small starts
//! (RULES.md R1-R4): a move lowers the seeds on the board or moves seeds nearer the
//! mover's store.

use giuthi::rules::kalah::Kalah;
use giuthi::rules::Rules;
use giuthi::solve::naive::NaiveGraph;

/// Sum over the board of each seed's distance from the start of its row.
fn progress(rules: &Kalah, s: &<Kalah as Rules>::State) -> u32 {
    let n = rules.pits_per_row();
    (0..2 * n).map(|p| rules.seeds(s, p) * (p % n) as u32).sum()
}

#[test]
fn r1_r3_kalah_never_repeats() {
    let mut edges = 0;
    for (m, seeds) in [(3, 2), (3, 3), (4, 2), (2, 4)] {
        let rules = Kalah::new(m).expect("rules");
        let root = rules.start(seeds);
        assert!(!rules.can_repeat());
        let g = NaiveGraph::build(&rules, &root, 2_000_000, None).expect("small");
        let mut kids = Vec::new();
        for s in g.states() {
            rules.children(s, &mut kids);
            for c in &kids {
                let (a, b) = (rules.seeds_on_board(s), rules.seeds_on_board(&c.state));
                assert!(b <= a, "{s:?} -> {:?}: seeds grew", c.state);
                if a == b {
                    assert!(
                        progress(&rules, &c.state) > progress(&rules, s),
                        "{s:?} -> {:?}: no progress",
                        c.state
                    );
                }
                edges += 1;
            }
        }
    }
    assert!(edges > 1000, "{edges} edges checked");
}
