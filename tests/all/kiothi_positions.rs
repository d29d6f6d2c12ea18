//! The Kiothi position files (positions/kiothi-*.txt): every recorded solution is re-solved
//! by the naive solver (margin, result and the set of best moves, V1-V4), and the start
//! positions parse, print back identically and take the heuristic redistribution.

use giuthi::rules::kiothi::{Kiothi, Phase};
use giuthi::solve::naive::naive_solve;
use giuthi::value::fmt_score;
use giuthi::{GameResult, Position, Rules};

fn lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn endgame_compositions_match_the_naive_solver() {
    let all = lines("positions/kiothi-endgames.txt");
    assert!(all.len() >= 10, "{} compositions", all.len());
    for line in all {
        let (text, solution) = line.split_once(" | ").expect("position | solution");
        let pos: Position<Kiothi> = text.parse().unwrap();
        assert_eq!(pos.to_string(), text, "canonical form");
        let sol = naive_solve(&pos, 1_000_000).unwrap();
        let best: Vec<String> = sol.best_moves().iter().map(|m| m.to_string()).collect();
        let expect = format!(
            "lo={} hi={} margin={:+} result={} best={}",
            fmt_score(sol.bounds.lo),
            fmt_score(sol.bounds.hi),
            sol.margin,
            GameResult::from_margin(sol.margin),
            best.join(",")
        );
        assert_eq!(solution, expect, "{text}");
    }
}

#[test]
fn start_positions_parse_and_take_the_heuristic_redistribution() {
    let all = lines("positions/kiothi-start.txt");
    assert_eq!(all.len(), 2);
    for text in all {
        let pos: Position<Kiothi> = text.parse().unwrap();
        assert_eq!(pos.to_string(), text);
        assert_eq!(pos.to_string(), pos.rules.start_position().to_string());
        assert!(!pos.rules.can_enumerate(&pos.state));
        let first = pos.rules.heuristic_redistribution(&pos.state).unwrap();
        let pos = pos.play(first).unwrap();
        let second = pos.rules.heuristic_redistribution(&pos.state).unwrap();
        let pos = pos.play(second).unwrap();
        assert_eq!(pos.state.phase, Phase::Play);
        assert_eq!(
            pos.rules.seeds_on_board(&pos.state),
            pos.rules.seeds_on_board(&pos.rules.start())
        );
        assert!(pos.rules.heuristic_redistribution(&pos.state).is_none());
        eprintln!("{text}: {first} then {second} -> {pos}");
    }
}
