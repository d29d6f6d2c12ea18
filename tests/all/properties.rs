//! Property tests (proptest): seed conservation, notation and key round trips, the two
//! symmetries of RULES.md G11, `play` agreeing with `children`, and no panic on any string
//! given to the parsers (N4).

use crate::common;

use common::{giuthi, giuthi_state, kalah, VARIANTS};
use giuthi::index::Ranker;
use giuthi::rules::giuthi::{Giuthi, GiuthiMove, Variant};
use giuthi::rules::kalah::{Kalah, KalahMove};
use giuthi::rules::{Child, Rules};
use giuthi::solve::naive::naive_solve;
use giuthi::AnyPosition;
use giuthi::{BySide, Direction, Position, Side};
use proptest::prelude::*;
use std::collections::HashMap;

/// A random board of `min_n..=max_n` pits a row, small pits mostly, sometimes a big one.
fn board(min_n: usize, max_n: usize, big: u32) -> impl Strategy<Value = (usize, Vec<u32>)> {
    (min_n..=max_n)
        .prop_flat_map(move |n| {
            let pit = prop_oneof![
                4 => 0u32..=3,
                2 => 0u32..=8,
                1 => 0u32..=big,
            ];
            (Just(n), proptest::collection::vec(pit, 2 * n))
        })
        .prop_filter("the board holds at most 255 seeds", |(_, b)| {
            b.iter().sum::<u32>() <= 255
        })
}

/// A random Giuthi position of any variant.
fn giuthi_position(max_n: usize) -> impl Strategy<Value = Position<Giuthi>> {
    (
        board(2, max_n, 30),
        any::<bool>(),
        0..VARIANTS.len(),
        0u16..200,
        0u16..200,
    )
        .prop_map(|((n, b), south, v, cs, cn)| {
            Position::new(
                giuthi(n, VARIANTS[v]),
                giuthi_state(&b, south),
                BySide::new(cs, cn),
            )
        })
}

/// A random Giuthi position whose board holds at most `exact_key_limit` seeds, mostly.
fn keyable_position() -> impl Strategy<Value = Position<Giuthi>> {
    (2usize..=16)
        .prop_flat_map(|n| {
            let max_pit = (EXACT_LIMITS[n - 2] as usize * 3 / (4 * n)).max(1) as u32;
            (
                Just(n),
                proptest::collection::vec(0..=max_pit, 2 * n),
                any::<bool>(),
            )
        })
        .prop_map(|(n, b, south)| {
            Position::new(giuthi(n, ""), giuthi_state(&b, south), BySide::default())
        })
}

/// A random Kalah position.
fn kalah_position() -> impl Strategy<Value = Position<Kalah>> {
    (board(1, 8, 20), any::<bool>(), 0u16..100, 0u16..100).prop_map(|((m, b), south, cs, cn)| {
        Position::new(kalah(m), giuthi_state(&b, south), BySide::new(cs, cn))
    })
}

fn conserves<R: Rules>(pos: &Position<R>) -> Result<(), TestCaseError> {
    let before = pos.rules.seeds_on_board(&pos.state)
        + u32::from(pos.captured.south)
        + u32::from(pos.captured.north);
    for c in pos.children() {
        let after = pos.after(&c);
        let total = after.rules.seeds_on_board(&after.state)
            + u32::from(after.captured.south)
            + u32::from(after.captured.north);
        prop_assert_eq!(total, before, "{} {}", pos, c.mv);
        prop_assert_eq!(
            pos.rules.seeds_on_board(&c.state) + u32::from(c.captured),
            pos.rules.seeds_on_board(&pos.state)
        );
    }
    Ok(())
}

/// The image of a child under a symmetry, for comparison.
fn image(
    g: &Giuthi,
    c: &Child<Giuthi>,
    state: impl Fn(&Giuthi, &giuthi::rules::giuthi::GiuthiState) -> giuthi::rules::giuthi::GiuthiState,
    mv: impl Fn(&Giuthi, GiuthiMove) -> GiuthiMove,
) -> (
    GiuthiMove,
    giuthi::rules::giuthi::GiuthiState,
    u16,
    bool,
    u32,
    u32,
) {
    (
        mv(g, c.mv),
        state(g, &c.state),
        c.captured,
        c.turn_passes,
        c.laps,
        c.sown,
    )
}

fn plain(
    c: &Child<Giuthi>,
) -> (
    GiuthiMove,
    giuthi::rules::giuthi::GiuthiState,
    u16,
    bool,
    u32,
    u32,
) {
    (c.mv, c.state, c.captured, c.turn_passes, c.laps, c.sown)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Board seeds + captured seeds are the same before and after every move (G3-G6, R1-R4).
    #[test]
    fn seed_conservation_giuthi(pos in giuthi_position(8)) {
        conserves(&pos)?;
    }

    #[test]
    fn seed_conservation_kalah(pos in kalah_position()) {
        conserves(&pos)?;
    }

    /// N1, N4: print -> parse -> the same position, printed the same; every variant.
    #[test]
    fn n4_notation_round_trip_giuthi(pos in giuthi_position(16)) {
        let text = pos.to_string();
        let back: Position<Giuthi> = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(back.to_string(), text.clone());
        let any: AnyPosition = text.parse().unwrap();
        prop_assert_eq!(any, AnyPosition::Giuthi(pos));
    }

    #[test]
    fn n4_notation_round_trip_kalah(pos in kalah_position()) {
        let text = pos.to_string();
        let back: Position<Kalah> = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&back, &pos);
        let any: AnyPosition = text.parse().unwrap();
        prop_assert_eq!(any.to_string(), text);
    }

    /// N2: every move the engine lists prints and parses back; play() agrees with children()
    /// on every move of the board, listed or not.
    #[test]
    fn n2_play_agrees_with_children(pos in giuthi_position(6)) {
        let children = pos.children();
        let n2 = 2 * pos.rules.pits_per_row();
        let mut candidates: Vec<GiuthiMove> = vec![GiuthiMove::Pass];
        for pit in 0..n2 as u8 {
            for dir in [Direction::Cw, Direction::Ccw] {
                candidates.push(GiuthiMove::Sow { pit, dir });
            }
        }
        for mv in candidates {
            let text = mv.to_string();
            prop_assert_eq!(pos.rules.parse_move(&text).unwrap(), mv);
            let listed = children.iter().find(|c| c.mv == mv);
            match (pos.rules.play(&pos.state, mv), listed) {
                (Ok(c), Some(l)) => prop_assert_eq!(&c, l),
                (Err(_), None) => {}
                (got, want) => prop_assert!(false, "{} {}: play {:?}, listed {:?}", pos, mv, got, want),
            }
        }
    }

    #[test]
    fn r1_play_agrees_with_children_kalah(pos in kalah_position()) {
        let children = pos.children();
        for pit in 0..2 * pos.rules.pits_per_row() as u8 {
            let mv = KalahMove(pit);
            let listed = children.iter().find(|c| c.mv == mv);
            match (pos.rules.play(&pos.state, mv), listed) {
                (Ok(c), Some(l)) => prop_assert_eq!(&c, l),
                (Err(_), None) => {}
                (got, want) => prop_assert!(false, "{} {}: play {:?}, listed {:?}", pos, mv, got, want),
            }
        }
    }

    /// The exact key (below `exact_key_limit`) decodes, through `index::Ranker`, to the
    /// board and turn it was made from.
    #[test]
    fn key_round_trip_through_ranker_unrank(pos in keyable_position()) {
        let g = &pos.rules;
        let n2 = 2 * g.pits_per_row();
        let seeds = g.seeds_on_board(&pos.state);
        prop_assume!(seeds <= g.exact_key_limit());
        let key = g.key(&pos.state);
        let ranker = Ranker::new(n2, 256);
        let turn = if key & 1 == 0 { Side::South } else { Side::North };
        prop_assert_eq!(turn, pos.state.turn);
        let index = key >> 1;
        let layer = (0..=seeds as usize + 1).find(|&s| ranker.cumulative(s + 1) > index).unwrap();
        prop_assert_eq!(layer as u32, seeds);
        let mut back = vec![0u8; n2];
        ranker.unrank(index - ranker.cumulative(layer), layer, &mut back);
        prop_assert_eq!(&back[..], &pos.state.pits[..n2]);
    }

    /// Distinct states of one board get distinct keys below the exact limit.
    #[test]
    fn key_injective_on_random_pairs(a in giuthi_position(10), b_pits in proptest::collection::vec(0u8..=6, 20), b_south in any::<bool>()) {
        let g = &a.rules;
        let n2 = 2 * g.pits_per_row();
        let mut b = a.state;
        b.pits[..n2].copy_from_slice(&b_pits[..n2]);
        b.turn = if b_south { Side::South } else { Side::North };
        let limit = g.exact_key_limit();
        prop_assume!(g.seeds_on_board(&a.state) <= limit && g.seeds_on_board(&b) <= limit);
        prop_assert_eq!(g.key(&a.state) == g.key(&b), a.state == b);
    }

    /// G11 row swap: the children of the swapped position are the swapped children, with
    /// moves mapped, in the same order.
    #[test]
    fn g11_row_swap_commutes_with_children(pos in giuthi_position(8)) {
        let g = &pos.rules;
        let mut mine = Vec::new();
        let mut theirs = Vec::new();
        g.children(&pos.state, &mut mine);
        g.children(&g.swap_rows(&pos.state), &mut theirs);
        let want: Vec<_> = mine.iter().map(|c| image(g, c, Giuthi::swap_rows, Giuthi::swap_move)).collect();
        let got: Vec<_> = theirs.iter().map(plain).collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(g.final_value(&pos.state), g.final_value(&g.swap_rows(&pos.state)));
        prop_assert_eq!(g.swap_rows(&g.swap_rows(&pos.state)), pos.state);
    }

    /// G11 mirror: the children of the mirrored position are the mirrored children (pit
    /// mirrored, cw and ccw swapped).
    #[test]
    fn g11_mirror_commutes_with_children(pos in giuthi_position(8)) {
        let g = &pos.rules;
        let mut mine = Vec::new();
        let mut theirs = Vec::new();
        g.children(&pos.state, &mut mine);
        g.children(&g.mirror(&pos.state), &mut theirs);
        let mut want: Vec<_> = mine.iter().map(|c| image(g, c, Giuthi::mirror, Giuthi::mirror_move)).collect();
        let mut got: Vec<_> = theirs.iter().map(plain).collect();
        want.sort();
        got.sort();
        prop_assert_eq!(got, want);
        prop_assert_eq!(g.mirror(&g.mirror(&pos.state)), pos.state);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// G11 on values: the naive solver gives the swapped and the mirrored position the
    /// same bounds and margin, and each move the value of its image.
    #[test]
    fn g11_symmetric_positions_have_equal_values(
        (n, b) in (2usize..=4).prop_flat_map(|n| (Just(n), proptest::collection::vec(prop_oneof![3 => 0u32..=2, 1 => 0u32..=4], 2 * n))),
        south in any::<bool>(),
        v in 0..VARIANTS.len(),
        cs in 0u16..5,
        cn in 0u16..5,
    ) {
        prop_assume!(b.iter().sum::<u32>() <= 10);
        let g = giuthi(n, VARIANTS[v]);
        let pos = Position::new(g.clone(), giuthi_state(&b, south), BySide::new(cs, cn));
        let Ok(sol) = naive_solve(&pos, 4_000) else { return Ok(()) };
        let swapped = Position::new(g.clone(), g.swap_rows(&pos.state), BySide::new(cn, cs));
        let mirrored = Position::new(g.clone(), g.mirror(&pos.state), pos.captured);
        for (image_pos, map) in [
            (swapped, Giuthi::swap_move as fn(&Giuthi, GiuthiMove) -> GiuthiMove),
            (mirrored, Giuthi::mirror_move),
        ] {
            let other = naive_solve(&image_pos, 4_000).unwrap();
            prop_assert_eq!(other.bounds, sol.bounds);
            prop_assert_eq!(other.margin, sol.margin);
            let want: HashMap<GiuthiMove, i32> = sol.moves.iter().map(|&(m, v)| (map(&g, m), v)).collect();
            let got: HashMap<GiuthiMove, i32> = other.moves.iter().copied().collect();
            prop_assert_eq!(got, want);
        }
    }
}

/// Strings that look like positions, to reach deep into the parsers.
fn position_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "(giuthi|kalah|kiothi|x)(:[a-z=,-]{0,30})?( [0-9,/]{0,40})?( [SNX ]{0,2})?( [0-9,]{0,12})?( .*)?",
        "giuthi(:(chain|origin|end)=(run|one|none|sow|skip|stuck|empty-row)(,(chain|origin|end)=[a-z-]{0,9}){0,3})? [0-9]{1,4}(,[0-9]{1,4}){0,17}/[0-9]{1,4}(,[0-9]{1,4}){0,17} [SN] [0-9]{1,6},[0-9]{1,6}",
        "kalah [0-9]{1,3}(,[0-9]{1,3}){0,17}/[0-9]{1,3}(,[0-9]{1,3}){0,17} [SN]( [0-9]{1,6},[0-9]{1,6})?",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// N4: no string makes a parser panic; every error names a field (or the move).
    #[test]
    fn n4_no_panic_on_any_position_string(text in position_like()) {
        if let Err(e) = text.parse::<AnyPosition>() {
            prop_assert!(e.to_string().starts_with("field "), "{}", e);
        }
        if let Err(e) = text.parse::<Position<Giuthi>>() {
            prop_assert!(e.to_string().starts_with("field "), "{}", e);
        }
        if let Err(e) = text.parse::<Position<Kalah>>() {
            prop_assert!(e.to_string().starts_with("field "), "{}", e);
        }
        if let Ok(p) = text.parse::<AnyPosition>() {
            // Whatever parses, prints and parses back the same.
            let again: AnyPosition = p.to_string().parse().unwrap();
            prop_assert_eq!(again, p);
        }
    }

    #[test]
    fn n4_no_panic_on_any_move_or_variant_string(text in prop_oneof![any::<String>(), "[0-9]{0,4}(cw|ccw|c|w|pass)?", "((chain|origin|end|x)=[a-z-]{0,10},?){0,4}"]) {
        if let Err(e) = text.parse::<GiuthiMove>() {
            prop_assert!(e.to_string().starts_with("move "), "{}", e);
        }
        if let Err(e) = text.parse::<KalahMove>() {
            prop_assert!(e.to_string().starts_with("move "), "{}", e);
        }
        if let Err(e) = text.parse::<Variant>() {
            prop_assert!(e.to_string().starts_with("field variant"), "{}", e);
        }
        if let Ok(v) = text.parse::<Variant>() {
            prop_assert_eq!(v.to_string().parse::<Variant>().unwrap(), v);
        }
        let g = giuthi(5, "");
        let _ = g.parse_move(&text);
        let k = kalah(6);
        let _ = k.parse_move(&text);
    }
}

/// Exhaustive injectivity on a small board: every 2x2 board of at most 12 seeds, both
/// turns, has its own key, and the keys are exactly `0..count` (the key is a dense index).
#[test]
fn key_is_a_dense_bijection_on_small_boards() {
    let g = giuthi(2, "");
    assert!(g.exact_key_limit() >= 12);
    let mut keys = std::collections::HashSet::new();
    let mut count = 0u64;
    for a in 0..=12u32 {
        for b in 0..=12 - a {
            for c in 0..=12 - a - b {
                for d in 0..=12 - a - b - c {
                    for south in [true, false] {
                        let s = giuthi_state(&[a, b, c, d], south);
                        assert!(keys.insert(g.key(&s)), "{a},{b}/{c},{d}");
                        count += 1;
                    }
                }
            }
        }
    }
    assert_eq!(keys.iter().max().copied(), Some(count - 1));
}

/// The exact key limit of every board size, as documented in docs/rules.md.
#[test]
fn key_exact_limit_per_board() {
    let limits: Vec<u32> = (2..=16).map(|n| giuthi(n, "").exact_key_limit()).collect();
    assert_eq!(limits, EXACT_LIMITS);
    for m in 1..=16 {
        // Kalah with 6 pits a row: 183, its ranked keys kept below 2^63, the bit of its
        // packed keys (docs/rules.md, Keys).
        let want = match m {
            1 => 255,
            6 => 183,
            _ => EXACT_LIMITS[m - 2],
        };
        assert_eq!(
            kalah(m).exact_key_limit(),
            want,
            "kalah with {m} pits a row"
        );
    }
}

/// `exact_key_limit()` for n = 2..=16 pits a row (filled in from the engine, checked by
/// `key_exact_limit_per_board` and reproduced in docs/rules.md).
const EXACT_LIMITS: [u32; 15] = [
    255, 255, 255, 255, 194, 129, 95, 76, 63, 54, 48, 43, 39, 36, 34,
];
