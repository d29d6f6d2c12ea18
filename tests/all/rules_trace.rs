//! The sowing trace (src/rules/trace.rs) against the engine's own sowing: replaying the
//! trace of every legal move gives the position `play` gives (G3-G7, R1-R3), and an
//! endless sowing (G7) is traced as endless exactly when the engine refuses it.

use giuthi::rules::giuthi::{Giuthi, GiuthiMove, GiuthiState, Variant};
use giuthi::rules::kalah::{Kalah, KalahMove};
use giuthi::rules::trace::{Finish, SowTrace};
use giuthi::rules::{IllegalMove, Rules};
use giuthi::{Direction, Side};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, k: u64) -> u64 {
        self.next() % k
    }
}

fn board_of(pits: &[u8]) -> Vec<u32> {
    pits.iter().map(|&x| x as u32).collect()
}

fn check_giuthi(g: &Giuthi, s: &GiuthiState, mv: GiuthiMove) -> (bool, bool) {
    let n2 = 2 * g.pits_per_row();
    let trace: SowTrace = g.sow_trace(s, mv);
    match g.play(s, mv) {
        Ok(child) => {
            let (after, _) = trace.replay(&board_of(&s.pits[..n2])).expect("replays");
            assert_eq!(after, board_of(&child.state.pits[..n2]), "{mv} in {s:?}");
            assert_eq!(trace.captured, child.captured as u32, "{mv} in {s:?}");
            assert_eq!(trace.turn_passes, child.turn_passes, "{mv} in {s:?}");
            assert_eq!(trace.laps.len() as u32, child.laps, "{mv} in {s:?}");
            let sown: u32 = trace.laps.iter().map(|l| l.seeds).sum();
            assert_eq!(sown, child.sown, "{mv} in {s:?}");
            assert!(!trace.truncated);
            assert_ne!(trace.finish, Finish::Endless);
            (true, trace.laps.len() > 1)
        }
        Err(IllegalMove::Endless { .. }) => {
            assert_eq!(trace.finish, Finish::Endless, "{mv} in {s:?}");
            assert!(trace.truncated);
            (false, true)
        }
        Err(_) => (false, false),
    }
}

/// G3-G7 (every variant): the trace of each legal move replays to the engine's board,
/// captures, turn, laps and seeds sown; endless sowings (G7) are traced as endless.
#[test]
fn g4_g7_trace_replays_to_play_on_random_positions() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let variants = [
        "",
        "chain=one",
        "chain=none",
        "origin=skip",
        "end=empty-row",
    ];
    let (mut moves, mut relays, mut endless) = (0, 0, 0);
    for round in 0..3000 {
        let n = 2 + rng.below(7) as usize;
        let v: Variant = variants[round % variants.len()].parse().unwrap();
        let g = Giuthi::new(n, v).unwrap();
        let mut pits = [0u8; 32];
        let max = 1 + rng.below(6);
        for p in pits.iter_mut().take(2 * n) {
            *p = rng.below(max + 1) as u8;
        }
        let turn = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        let s = GiuthiState { pits, turn };
        for pit in g.row(turn) {
            for dir in [Direction::Cw, Direction::Ccw] {
                let (legal, many) = check_giuthi(
                    &g,
                    &s,
                    GiuthiMove::Sow {
                        pit: pit as u8,
                        dir,
                    },
                );
                moves += legal as u32;
                relays += (legal && many) as u32;
                endless += (!legal && many) as u32;
            }
        }
    }
    // The sample must exercise relays and endless sowings, or the test proves little.
    assert!(
        moves > 5000 && relays > 1000 && endless > 10,
        "{moves} {relays} {endless}"
    );
}

/// G4, G5a, G5b: hand-checked traces on a 2x4 board (North 0..4, South 4..8).
#[test]
fn g4_g5_traces_hand_checked() {
    let pos: giuthi::Position<Giuthi> = "giuthi 0,0,3,2/0,0,2,0 S 0,0".parse().unwrap();
    // 6ccw: into 7 and 0; pit 0 was empty and is North's: the turn passes (G5a).
    let t = pos.rules.sow_trace(&pos.state, "6ccw".parse().unwrap());
    assert_eq!(t.laps[0].sown, [7, 0]);
    assert_eq!(t.finish, Finish::OpponentRow);
    // 6cw: into 5 and 4, both South's and empty: no seed reached North, extra move (G5b).
    let t = pos.rules.sow_trace(&pos.state, "6cw".parse().unwrap());
    assert_eq!(t.laps[0].sown, [5, 4]);
    assert_eq!(t.finish, Finish::ExtraMove);
    assert!(!t.turn_passes);
    let pos: giuthi::Position<Giuthi> = "giuthi 0,1,0,4/0,2,0,0 S 0,0".parse().unwrap();
    // 5cw: into 4 and 3; pit 3 held 4, now 5: relay (G4), lifted and sown ccw into
    // 4, 5, 6, 7, 0; pit 0 was empty: G5a.
    let t = pos.rules.sow_trace(&pos.state, "5cw".parse().unwrap());
    assert_eq!(t.laps.len(), 2);
    assert_eq!((t.laps[1].lift, t.laps[1].seeds), (3, 5));
    assert_eq!(t.laps[1].dir, Direction::Ccw);
    assert_eq!(t.laps[1].sown, [4, 5, 6, 7, 0]);
    assert_eq!(t.finish, Finish::OpponentRow);
    let after = pos.play_str("5cw").unwrap();
    let (b, _) = t.replay(&board_of(&pos.state.pits[..8])).unwrap();
    assert_eq!(b, board_of(&after.state.pits[..8]));
}

/// G5c, G6: a capture on a 2x2 board (North pits 1, 0 from South's seat; South 2, 3).
#[test]
fn g6_capture_traced() {
    // 2ccw sows 3, 0, 1, 2 (the origin is sown, G3); the last seed lands in pit 2, empty
    // since the lift, after seeds reached North: pit 1 (2 seeds) is captured with the
    // landing seed; the chain stops at pit 3, which is not empty.
    let pos: giuthi::Position<Giuthi> = "giuthi 0,1/4,0 S 0,0".parse().unwrap();
    let t = pos.rules.sow_trace(&pos.state, "2ccw".parse().unwrap());
    assert_eq!(t.laps[0].sown, [3, 0, 1, 2]);
    assert_eq!(t.finish, Finish::Capture);
    assert_eq!(t.captured_pits, [(1, 2)]);
    assert_eq!(t.landing_taken, Some(2));
    assert_eq!(t.captured, 3);
    let child = pos.rules.play(&pos.state, "2ccw".parse().unwrap()).unwrap();
    assert_eq!(child.captured, 3);
}

/// R1-R3: the Kalah trace replays to `play` (stores included) on random positions.
#[test]
fn r1_r3_kalah_trace_replays_to_play() {
    let mut rng = Rng(7);
    for _ in 0..2000 {
        let m = 2 + rng.below(5) as usize;
        let k = Kalah::new(m).unwrap();
        let text = {
            let row = |rng: &mut Rng| {
                (0..m)
                    .map(|_| rng.below(6).to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let (a, b) = (row(&mut rng), row(&mut rng));
            format!("kalah {a}/{b} {} 0,0", ["S", "N"][rng.below(2) as usize])
        };
        let pos: giuthi::Position<Kalah> = text.parse().unwrap();
        for mv in pos.legal_moves() {
            let mv: KalahMove = mv;
            let t = k.sow_trace(&pos.state, mv);
            let child = k.play(&pos.state, mv).unwrap();
            let (b, stores) = t.replay(&board_of(&pos.state.pits[..2 * m])).unwrap();
            assert_eq!(b, board_of(&child.state.pits[..2 * m]), "{mv} in {text}");
            let mover = pos.turn().index();
            assert_eq!(stores[1 - mover], 0, "{mv} in {text}");
            assert_eq!(t.captured, child.captured as u32, "{mv} in {text}");
            assert_eq!(t.turn_passes, child.turn_passes, "{mv} in {text}");
        }
    }
}
