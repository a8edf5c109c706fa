//! GNU Backgammon's `.sgf` files (Smart Game Format, game 6): a backgammon
//! record (one money game or a whole match) written as one, a game tree per
//! game. Seat 0 is White (GNU Backgammon's player 0), seat 1 Black. A move
//! node holds the dice and each checker step as two letters: `a`..`x` the
//! points (White's 1..24 from White's side; Black's from his 24 down to his
//! 1), `y` the bar, `z` off; `double`, `take` and `drop` are the cube.

use crate::bg_games::{self, BackgammonGames, Turn};
use anyhow::Result;
use spelbord_engine::Record;
use spelbord_engine::tables::{BAR, OFF, Step, TablesAction};
use std::fmt::Write as _;

/// A point of `side`'s own numbering (25 the bar, 0 off) as an SGF letter.
fn letter(side: usize, point: u8) -> char {
    match point {
        BAR => 'y',
        OFF => 'z',
        p if side == 0 => char::from(b'a' + (p - 1)),
        p => char::from(b'a' + (24 - p)),
    }
}

/// A play's steps as SGF letters, in GNU Backgammon's order (the highest
/// starting point first).
fn sgf_steps(side: usize, steps: &[Step]) -> String {
    let mut steps = steps.to_vec();
    steps.sort_by_key(|s| std::cmp::Reverse((s.from, s.to)));
    steps
        .iter()
        .flat_map(|s| [letter(side, s.from), letter(side, s.to)])
        .collect()
}

/// Text as an SGF property value (`]` and `\` escaped).
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// A turn as an SGF move node.
fn sgf_node(turn: &Turn) -> String {
    let colour = ["W", "B"][turn.side];
    match turn.action {
        TablesAction::Play(play) => format!(
            ";{colour}[{}{}{}]",
            turn.dice[0],
            turn.dice[1],
            sgf_steps(turn.side, play.steps())
        ),
        TablesAction::Double => format!(";{colour}[double]"),
        TablesAction::Take => format!(";{colour}[take]"),
        _ => format!(";{colour}[drop]"),
    }
}

/// The record of a backgammon game or match as a GNU Backgammon `.sgf` file.
pub fn to_sgf(record: &Record) -> Result<String> {
    let BackgammonGames { games, match_to } = bg_games::read(record, ".sgf")?;
    let name = |seat: usize| {
        record
            .players
            .get(seat)
            .filter(|n| !n.trim().is_empty())
            .map_or_else(|| format!("Player {}", seat + 1), |n| n.trim().to_string())
    };
    let mut out = String::new();
    for (i, g) in games.iter().enumerate() {
        let _ = write!(
            out,
            "(;FF[4]GM[6]CA[UTF-8]AP[spelbord]MI[length:{match_to}][game:{i}][ws:{}][bs:{}]PW[{}]PB[{}]",
            g.score[0],
            g.score[1],
            escape(&name(0)),
            escape(&name(1)),
        );
        if match_to > 0 {
            out.push_str("RU[Crawford]");
        }
        if let Some((winner, points)) = g.won {
            let _ = write!(out, "RE[{}+{points}]", ["W", "B"][winner]);
        }
        out.push('\n');
        for turn in &g.turns {
            out.push_str(&sgf_node(turn));
            out.push('\n');
        }
        out.push_str(")\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn testdata(name: &str) -> String {
        let path = format!("{}/testdata/gnubg/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// A move node with its checker steps as the net change per point
    /// (each start -1, each end +1): one checker's path through an
    /// intermediate point is the same play whichever point it passes.
    fn net(node: &str) -> String {
        let Some(steps) = node
            .get(5..node.len() - 1)
            .filter(|_| node.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        else {
            return node.to_string();
        };
        let mut change = std::collections::BTreeMap::new();
        for (i, c) in steps.chars().enumerate() {
            *change.entry(c).or_insert(0) += if i % 2 == 0 { -1 } else { 1 };
        }
        change.retain(|_, n| *n != 0);
        format!("{} {change:?}", &node[..5])
    }

    /// The move nodes of an `.sgf` file, game by game.
    fn moves(sgf: &str) -> Vec<Vec<String>> {
        sgf.split("(;")
            .skip(1)
            .map(|game| {
                game.lines()
                    .map(|l| l.trim().trim_end_matches(')').to_string())
                    .filter(|l| l.starts_with(";W[") || l.starts_with(";B["))
                    .map(|l| net(&l))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_match_is_written_with_the_same_moves_as_gnu_backgammon_writes_it() {
        // match3-seed7.sgf is GNU Backgammon's own `save match` of
        // match3-seed7.mat (see the README there).
        for name in ["match3-seed7", "match5-seed11"] {
            let records = crate::mat::from_mat(&testdata(&format!("{name}.mat"))).unwrap();
            let ours = to_sgf(&records[0]).unwrap();
            let theirs = testdata(&format!("{name}.sgf"));
            assert_eq!(moves(&ours), moves(&theirs), "{name}:\n{ours}");
            // Most nodes are the very same text.
            let same = ours
                .lines()
                .filter(|l| theirs.lines().any(|t| t == *l))
                .count();
            assert!(same * 10 > ours.lines().count() * 8, "{same}\n{ours}");
            assert!(ours.starts_with("(;FF[4]GM[6]"), "{ours}");
        }
    }

    #[test]
    fn points_bar_and_off_are_lettered_from_each_side() {
        assert_eq!((letter(0, 1), letter(0, 24)), ('a', 'x'));
        assert_eq!((letter(1, 24), letter(1, 1)), ('a', 'x'));
        assert_eq!((letter(1, BAR), letter(0, OFF)), ('y', 'z'));
        // Black's opening 2-1, 13/11 24/23, as GNU Backgammon writes it.
        let steps = [
            Step {
                from: 13,
                to: 11,
                die: 2,
            },
            Step {
                from: 24,
                to: 23,
                die: 1,
            },
        ];
        assert_eq!(sgf_steps(1, &steps), "abln");
        assert_eq!(escape("a]b\\"), "a\\]b\\\\");
    }

    #[test]
    fn only_backgammon_is_written() {
        let record = Record::new(
            "tawla",
            spelbord_engine::Options::default(),
            vec!["a".into(), "b".into()],
        );
        assert!(to_sgf(&record).is_err());
    }
}
