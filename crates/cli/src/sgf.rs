//! GNU Backgammon's `.sgf` files (Smart Game Format, game 6): a backgammon
//! record (one money game or a whole match) written as one, a game tree per
//! game. Seat 0 is White (GNU Backgammon's player 0), seat 1 Black. A move
//! node holds the dice and each checker step as two letters: `a`..`x` the
//! points (White's 1..24 from White's side; Black's from his 24 down to his
//! 1), `y` the bar, `z` off; `double`, `take` and `drop` are the cube.

use anyhow::{Context, Result, bail};
use spelbord_engine::backgammon::Backgammon;
use spelbord_engine::dynamic::StateOf;
use spelbord_engine::tables::{BAR, OFF, Phase, Step, TablesAction};
use spelbord_engine::{DynState, GameState, Record, Viewer, find_game};
use std::fmt::Write as _;

fn concrete(state: &dyn DynState) -> &<Backgammon as spelbord_engine::Game>::State {
    &state
        .as_any()
        .downcast_ref::<StateOf<Backgammon>>()
        .expect("a backgammon state")
        .0
}

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

/// One game: its root properties and move nodes.
struct SgfGame {
    score: [u8; 2],
    nodes: Vec<String>,
    result: Option<String>,
}

/// The record of a backgammon game or match as a GNU Backgammon `.sgf` file.
pub fn to_sgf(record: &Record) -> Result<String> {
    if record.game != "backgammon" {
        bail!(
            "only backgammon records can be written as .sgf (this is {})",
            record.game
        );
    }
    record.replay().context("the record does not replay")?;
    let game = find_game(&record.game)?;
    let options = spelbord_engine::Options::from_map(
        &record.game,
        game.option_specs(),
        record
            .options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string())),
    )?;
    let mut state = game.new_state(&options)?;
    let mut games: Vec<SgfGame> = Vec::new();
    let mut dice = [0u8; 2];
    for text in &record.actions {
        let before = *concrete(state.as_ref());
        let view = before.observation(Viewer::Spectator);
        if matches!(before.phase(), Phase::Opening) {
            games.push(SgfGame {
                score: view.score,
                nodes: Vec::new(),
                result: None,
            });
        }
        let info = state.apply_recorded(text)?;
        let action: TablesAction = serde_json::from_value(info.json)?;
        let Some(current) = games.last_mut() else {
            bail!("the record does not start with an opening roll");
        };
        let side = before.mover();
        let colour = ["W", "B"];
        match action {
            TablesAction::Opening([a, b]) | TablesAction::Dice([a, b]) => {
                dice = [a.max(b), a.min(b)];
            }
            TablesAction::Play(play) => current.nodes.push(format!(
                ";{}[{}{}{}]",
                colour[side],
                dice[0],
                dice[1],
                sgf_steps(side, play.steps())
            )),
            TablesAction::Double => current.nodes.push(format!(";{}[double]", colour[side])),
            // The answer to a double is the other player's.
            TablesAction::Take => current.nodes.push(format!(";{}[take]", colour[1 - side])),
            TablesAction::Drop => current.nodes.push(format!(";{}[drop]", colour[1 - side])),
            TablesAction::Roll => {}
        }
        let after = concrete(state.as_ref());
        if matches!(after.phase(), Phase::Opening | Phase::Over)
            && !matches!(action, TablesAction::Opening(_))
        {
            let returns = after.returns();
            let won = match after.observation(Viewer::Spectator).last_game {
                Some((Some(winner), points)) => Some((winner, u32::from(points))),
                _ => (0..2)
                    .find(|&p| returns.get(p) > 0.0)
                    .map(|p| (p, returns.get(p) as u32)),
            };
            current.result = won.map(|(w, points)| format!("{}+{points}", colour[w]));
        }
    }
    let name = |seat: usize| {
        record
            .players
            .get(seat)
            .filter(|n| !n.trim().is_empty())
            .map_or_else(|| format!("Player {}", seat + 1), |n| n.trim().to_string())
    };
    let view = concrete(state.as_ref()).observation(Viewer::Spectator);
    let match_to = view.match_to;
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
        if let Some(result) = &g.result {
            let _ = write!(out, "RE[{result}]");
        }
        out.push('\n');
        for node in &g.nodes {
            out.push_str(node);
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
