//! Perft for every game: the number of action sequences (chance outcomes
//! included) of each length from a position, pinned in `perft/<game>.txt`.
//! A line reads `options | path | depth | count`: the game's options
//! (`-` for the defaults), the position (the actions in notation that lead
//! from the start to it, separated by `;`, `-` for the start itself, or
//! `@` and the position in the game's position notation), the depth and
//! the count. Leaves are counted at exactly that depth; a game that
//! ends earlier contributes none.

use spelbord_engine::{Game, GameState, GameVisitor, Notation, Options, Turn, games, visit_game};
use std::path::PathBuf;

/// One pinned count.
struct Line {
    options: Vec<String>,
    path: Vec<String>,
    depth: u32,
    count: u64,
}

fn read_lines(text: &str) -> Vec<Line> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let fields: Vec<&str> = l.split('|').map(str::trim).collect();
            let [options, path, depth, count] = fields[..] else {
                panic!("`{l}` is not `options | path | depth | count`");
            };
            let list = |text: &str, sep: char| -> Vec<String> {
                match text {
                    "-" => Vec::new(),
                    t if t.starts_with('@') => vec![t.to_string()],
                    _ => text.split(sep).map(|s| s.trim().to_string()).collect(),
                }
            };
            Line {
                options: list(options, ' '),
                path: list(path, ';'),
                depth: depth.parse().expect("depth"),
                count: count.parse().expect("count"),
            }
        })
        .collect()
}

/// Leaves at exactly `depth` below `s`.
fn perft<S: GameState>(s: &S, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions: Vec<S::Action> = match s.turn() {
        Turn::Over => return 0,
        Turn::Chance => {
            let mut outcomes = Vec::new();
            s.chance_outcomes(&mut outcomes);
            outcomes
                .into_iter()
                .filter(|o| o.1 > 0.0)
                .map(|o| o.0)
                .collect()
        }
        Turn::Player(_) => {
            let mut actions = Vec::new();
            s.legal_actions(&mut actions);
            actions
        }
    };
    actions
        .into_iter()
        .map(|a| {
            let mut t = s.clone();
            t.apply(a);
            perft(&t, depth - 1)
        })
        .sum()
}

/// Counts every line of one game's file; returns the lines that differ.
struct Check<'a>(&'a [Line]);

impl GameVisitor for Check<'_> {
    type Output = Vec<String>;
    fn visit<G: Game>(self) -> Vec<String> {
        let mut wrong = Vec::new();
        for line in self.0 {
            let options = Options::parse(G::ID, G::option_specs(), &line.options)
                .unwrap_or_else(|e| panic!("{}: {e}", G::ID));
            let mut s = G::from_options(&options).unwrap().initial_state();
            if let Some(position) = line.path.first().and_then(|p| p.strip_prefix('@')) {
                s = position
                    .parse()
                    .unwrap_or_else(|e| panic!("{}: {e}", G::ID));
            }
            for a in line.path.iter().filter(|a| !a.starts_with('@')) {
                let action = s
                    .parse_action(a)
                    .unwrap_or_else(|e| panic!("{}: `{a}`: {e}", G::ID));
                s.try_apply(action)
                    .unwrap_or_else(|e| panic!("{}: `{a}`: {e}", G::ID));
            }
            let got = perft(&s, line.depth);
            if got != line.count {
                let or_dash = |list: &[String], sep: &str| match list {
                    [] => "-".to_string(),
                    _ => list.join(sep),
                };
                wrong.push(format!(
                    "{}.txt: {} | {} | {} | {got}  (pinned: {})",
                    G::ID,
                    or_dash(&line.options, " "),
                    or_dash(&line.path, "; "),
                    line.depth,
                    line.count
                ));
            }
        }
        wrong
    }
}

#[test]
fn every_game_matches_its_pinned_perft_counts() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("perft");
    let mut wrong = Vec::new();
    for game in games() {
        let path = dir.join(format!("{}.txt", game.id()));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lines = read_lines(&text);
        assert!(!lines.is_empty(), "{} pins nothing", path.display());
        wrong.extend(visit_game(game.id(), Check(&lines)).unwrap());
    }
    assert!(wrong.is_empty(), "counts differ:\n{}", wrong.join("\n"));
}
