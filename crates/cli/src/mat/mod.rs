//! Jellyfish `.mat` match files, the text format that GNU Backgammon and
//! most backgammon programs read and write: a backgammon record (one money
//! game or a whole match) written as one.

mod parse;
mod records;

pub(crate) use parse::{Entry, MatGame};
#[cfg(test)]
pub use records::from_mat;
pub(crate) use records::records_of;
pub use records::{MatImport, read_mat};
#[cfg(test)]
use {parse::parse_mat, spelbord_engine::find_game};

use crate::bg_games::{self, BackgammonGames, Turn};
use anyhow::Result;
use spelbord_engine::Record;
use spelbord_engine::tables::TablesAction;
use std::fmt::Write as _;

/// A player's name as `.mat` can hold it (no spaces or colons).
fn mat_name(name: Option<&String>, seat: usize) -> String {
    match name {
        Some(n) if !n.trim().is_empty() => n
            .trim()
            .chars()
            .map(|c| {
                if c.is_whitespace() || c == ':' {
                    '_'
                } else {
                    c
                }
            })
            .collect(),
        _ => format!("Player{}", seat + 1),
    }
}

/// A play in `.mat` notation: the mover's points, 25 the bar, 0 off.
fn mat_play(text: &str) -> String {
    if text == "pass" {
        return String::new();
    }
    text.split_whitespace()
        .map(|step| step.replace("bar", "25").replace("off", "0"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A turn as an entry of its player's column: the roll with its play, or
/// the cube action.
fn mat_cell(turn: &Turn) -> String {
    match turn.action {
        TablesAction::Double => format!(" Doubles => {}", turn.cube * 2),
        TablesAction::Take => " Takes".into(),
        TablesAction::Drop => " Drops".into(),
        _ => format!("{}{}: {}", turn.dice[0], turn.dice[1], mat_play(&turn.text)),
    }
}

/// The record of a backgammon game or match as a `.mat` file.
pub fn to_mat(record: &Record) -> Result<String> {
    let BackgammonGames { games, match_to } = bg_games::read(record, ".mat")?;
    let names = [
        mat_name(record.players.first(), 0),
        mat_name(record.players.get(1), 1),
    ];
    let mut out = String::new();
    let _ = writeln!(out, "; [Player 1 \"{}\"]", names[0]);
    let _ = writeln!(out, "; [Player 2 \"{}\"]", names[1]);
    let _ = writeln!(out, "; [Variation \"Backgammon\"]");
    let _ = writeln!(out, "; [Transcriber \"spelbord\"]");
    let _ = writeln!(out, "\n {match_to} point match\n");
    for (i, g) in games.iter().enumerate() {
        let _ = writeln!(out, " Game {}", i + 1);
        let left = format!("{} : {}", names[0], g.score[0]);
        let _ = writeln!(out, " {left:<30} {} : {}", names[1], g.score[1]);
        let mut lines: Vec<[String; 2]> = Vec::new();
        for turn in &g.turns {
            let text = mat_cell(turn);
            match lines.last_mut() {
                Some(line) if turn.side == 1 && line[1].is_empty() => line[1] = text,
                _ => {
                    let mut line = [String::new(), String::new()];
                    line[turn.side] = text;
                    lines.push(line);
                }
            }
        }
        for (n, [l, r]) in lines.iter().enumerate() {
            // A long first column still leaves a space before the second.
            let l = if r.is_empty() || l.len() < 28 {
                l.clone()
            } else {
                format!("{l} ")
            };
            let _ = writeln!(out, "{:>3}) {l:<28}{r}", n + 1);
        }
        if let Some((winner, points)) = g.won {
            let indent = if winner == 0 { 6 } else { 34 };
            let s = if points == 1 { "" } else { "s" };
            let _ = writeln!(out, "{:indent$}Wins {points} point{s}", "");
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use spelbord_engine::{Turn, Viewer};

    fn gnubg_file(name: &str) -> String {
        let path = format!("{}/testdata/gnubg/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).expect("a testdata file")
    }

    /// A random backgammon match (cube on) as its record.
    fn random_match(seed: u64, to: u32) -> Record {
        let game = find_game("backgammon").unwrap();
        let options = game
            .parse_options(&["cube=on".into(), format!("match={to}")])
            .unwrap();
        let mut state = game.new_state(&options).unwrap();
        let mut record = Record::new("backgammon", options, vec!["ann".into(), "bo b".into()]);
        let mut rng = spelbord_engine::rng::seeded(seed);
        while state.turn() != Turn::Over {
            let info = if state.turn() == Turn::Chance {
                state.sample_chance(&mut rng)
            } else {
                let legal = state.legal_actions();
                legal[rng.random_range(0..legal.len())].clone()
            };
            state.apply_text(&info.text).unwrap();
            record.actions.push(info.text);
        }
        record.finish(&state.returns(), state.outcome());
        record
    }

    #[test]
    fn a_match_written_as_mat_reads_back_with_the_same_actions() {
        for seed in 0..6 {
            let record = random_match(seed, 3);
            assert!(record.actions.iter().any(|a| a == "double"), "seed {seed}");
            let mat = to_mat(&record).unwrap();
            assert!(
                mat.contains(" 3 point match") && mat.contains("Doubles => 2"),
                "{mat}"
            );
            let back = from_mat(&mat).unwrap();
            assert_eq!(back.len(), 1);
            assert_eq!(back[0].actions, record.actions, "seed {seed}\n{mat}");
            assert_eq!(back[0].result, record.result);
            assert_eq!(back[0].players, vec!["ann", "bo_b"]);
        }
    }

    /// The side, dice and cube actions of a file's entries (the plays
    /// themselves may be written by another path to the same position).
    fn skeleton(text: &str) -> Vec<String> {
        let (_, _, games) = parse_mat(text).unwrap();
        games
            .iter()
            .flat_map(|g| &g.entries)
            .map(|(side, e)| match e {
                Entry::Roll(d, _) => format!("{side} {d:?}"),
                other => format!("{side} {other:?}"),
            })
            .collect()
    }

    #[test]
    fn matches_made_by_gnu_backgammon_are_read() {
        for (file, to, games) in [("match3-seed7.mat", 3, 2), ("match5-seed11.mat", 5, 3)] {
            let text = gnubg_file(file);
            let (length, names, parsed) = parse_mat(&text).unwrap();
            assert_eq!((length, parsed.len()), (to, games), "{file}");
            assert_eq!(names, ["gnubg".to_string(), "root".to_string()]);
            let records = from_mat(&text).unwrap();
            assert_eq!(records.len(), 1, "{file}");
            let state = records[0].replay().unwrap();
            let view: serde_json::Value = state.observation_json(Viewer::Spectator);
            assert_eq!(view["match_to"], to, "{file}");
            // Every roll and cube action of the file was played, in order.
            assert_eq!(
                skeleton(&to_mat(&records[0]).unwrap()),
                skeleton(&text),
                "{file}"
            );
        }
    }

    /// A game's entries (side, dice, cube actions) and its `Wins` line.
    type GameEvents = (Vec<String>, Option<(usize, u32)>);

    /// Each game's entries and result.
    fn events(text: &str) -> Vec<GameEvents> {
        let (_, _, games) = parse_mat(text).unwrap();
        games
            .iter()
            .map(|g| {
                let entries = g.entries.iter().map(|(side, e)| match e {
                    Entry::Roll(d, _) => format!("{side} {d:?}"),
                    other => format!("{side} {other:?}"),
                });
                (entries.collect(), g.wins)
            })
            .collect()
    }

    /// GNU Backgammon resigns often in its own matches. Ten 5-point matches
    /// and a 25-point one import completely: every game, a game its moves
    /// do not end resigned as its `Wins` line says, the match won; written
    /// again as `.mat` they give the file's own events and results, game by
    /// game. Between them the resignations fall in first, middle and last
    /// games.
    #[test]
    fn matches_with_resignations_import_completely() {
        let files = [
            "m5-seed1.mat",
            "m5-seed2.mat",
            "m5-seed3.mat",
            "m5-seed5.mat",
            "m5-seed6.mat",
            "m5-seed8.mat",
            "m5-seed13.mat",
            "m5-seed14.mat",
            "m5-seed15.mat",
            "m5-seed16.mat",
            "m25-seed25.mat",
        ];
        let (mut first, mut middle, mut last) = (false, false, false);
        for file in files {
            let text = gnubg_file(file);
            let read = read_mat(&text).unwrap();
            assert!(read.skipped.is_empty(), "{file}: {:?}", read.skipped);
            assert_eq!(read.records.len(), 1, "{file}");
            let record = &read.records[0];
            let state = record.replay().unwrap();
            assert_eq!(state.turn(), Turn::Over, "{file}: the whole match");
            assert_eq!(record.result, Some(state.returns()), "{file}");
            assert_eq!(events(&to_mat(record).unwrap()), events(&text), "{file}");
            let games = events(&text).len();
            let mut game = 0;
            for action in &record.actions {
                if action.starts_with("open ") {
                    game += 1;
                }
                if action.starts_with("resign:") {
                    first |= game == 1;
                    middle |= game > 1 && game < games;
                    last |= game == games;
                }
            }
        }
        assert!(first && middle && last, "{first} {middle} {last}");
    }

    #[test]
    fn a_wins_line_that_disagrees_with_the_moves_is_reported() {
        // match3-seed7.mat: player 1 wins the first game, a dropped double;
        // the changed file gives the point to player 2 (the right column).
        let text = gnubg_file("match3-seed7.mat");
        let line = text.lines().find(|l| l.contains("Wins")).unwrap();
        let moved = format!("{}{}", " ".repeat(34), line.trim());
        let read = read_mat(&text.replacen(line, &moved, 1)).unwrap();
        assert_eq!(read.skipped.len(), 1, "{:?}", read.skipped);
        assert!(
            read.skipped[0].contains("the file says player 2 wins 1 points"),
            "{:?}",
            read.skipped
        );
        assert!(read_mat(&text).unwrap().skipped.is_empty());
    }

    #[test]
    fn malformed_mat_files_are_errors() {
        assert!(from_mat("no match here").is_err());
        assert!(from_mat(" 3 point match\n Game 1\n  1) 52: 24/1\n").is_err());
        assert!(from_mat(" 3 point match\n Game 1\n  1) 5x: 13/8\n").is_err());
        assert!(from_mat(" 3 point match\n Game 1\n  1) é€: 13/8 Doubles\n").is_err());
    }
}
