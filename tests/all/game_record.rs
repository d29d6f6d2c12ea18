//! Replays the recorded 2x8x6 game of `../shared/data` line by line (RULES.md G1-G9).

use giuthi::rules::giuthi::Giuthi;
use giuthi::Position;

/// The record, copied from `../shared/data/giuthi-2x8x6-game.txt` into `tests/data/`.
const RECORD: &str = include_str!("../data/giuthi-2x8x6-game.txt");

#[test]
fn g1_g9_recorded_2x8x6_game_replays_exactly() {
    let mut lines = 0;
    let mut last: Option<Position<Giuthi>> = None;
    for (no, line) in RECORD.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "line {}: {line}", no + 1);
        let before: Position<Giuthi> = parts[0].parse().expect("before parses");
        assert_eq!(
            before.to_string(),
            parts[0],
            "line {}: canonical form",
            no + 1
        );
        if let Some(prev) = &last {
            assert_eq!(
                prev,
                &before,
                "line {}: continues the previous line",
                no + 1
            );
        }
        let after = before
            .play_str(parts[1])
            .unwrap_or_else(|e| panic!("line {}: {} is illegal: {e}", no + 1, parts[1]));
        assert_eq!(
            after.to_string(),
            parts[2],
            "line {}: move {}",
            no + 1,
            parts[1]
        );
        last = Some(after);
        lines += 1;
    }
    assert_eq!(lines, 63);
    let end = last.expect("a game");
    assert!(
        end.is_over(),
        "G9: the recorded game ends when neither side can move"
    );
}
