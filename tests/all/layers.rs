//! The library's layers run one way (STYLE.md, Layout): notation's shared parsers below the
//! rules, the rules below the solvers, the solvers below the tablebases, and the "which
//! game is this string" dispatch ([`giuthi::AnyPosition`], `src/any.rs`) above the rules.
//! Read from the source: a `crate::` path in code (not in a comment) into a higher layer
//! fails the test.

use std::path::Path;

/// The `crate::` modules named by code lines of the files under `path` (a file or a
/// folder), with the file and line.
fn crate_paths(path: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let files: Vec<std::path::PathBuf> = if path.is_dir() {
        std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .collect()
    } else {
        vec![path.to_path_buf()]
    };
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(i) = rest.find("crate::") {
                let name: String = rest[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                out.push((name, format!("{}: {}", f.display(), line.trim())));
                rest = &rest[i + 7..];
            }
        }
    }
    out
}

fn assert_no_imports(path: &str, higher: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = crate_paths(&root.join(path));
    assert!(
        !found.is_empty() || path.ends_with("notation.rs"),
        "{path}: nothing read"
    );
    for (name, at) in found {
        assert!(
            !higher.contains(&name.as_str()),
            "{path} uses crate::{name}, a higher layer: {at}"
        );
    }
}

/// Issue 16, item 14: `src/notation.rs` names no game; the games use its parsers.
#[test]
fn n1_notation_is_below_the_rules() {
    assert_no_imports(
        "src/notation.rs",
        &["rules", "position", "any", "solve", "tablebase", "perft"],
    );
}

#[test]
fn rules_are_below_the_dispatch_and_the_solvers() {
    assert_no_imports("src/rules", &["any", "solve", "tablebase", "perft"]);
}

#[test]
fn solvers_are_below_the_tablebases() {
    assert_no_imports("src/solve", &["tablebase", "any"]);
}

/// The dispatch keeps its public names: `giuthi::AnyPosition` parses every game.
#[test]
fn n1_any_position_dispatches_every_game() {
    for (text, game) in [
        ("giuthi 4,4,4,4,4/4,4,4,4,4 S 0,0", "giuthi"),
        ("kalah 4,4,4/4,4,4 S 0,0", "kalah"),
    ] {
        let p: giuthi::AnyPosition = text.parse().unwrap();
        assert_eq!(p.to_string(), text);
        assert!(p.to_string().starts_with(game));
    }
    let e = "mancala 1,1/1,1 S"
        .parse::<giuthi::AnyPosition>()
        .unwrap_err();
    assert!(e.to_string().contains("unknown game"), "{e}");
}
