//! Jellyfish `.mat` match files, the text format that GNU Backgammon and
//! most backgammon programs read and write: a backgammon record (one money
//! game or a whole match) written as one.

use crate::bg_games::{self, BackgammonGames, Turn, concrete};
use anyhow::{Context, Result, bail};
use spelbord_engine::tables::{BAR, OFF, Phase, TablesAction};
use spelbord_engine::{DynState, Record, Resignation, find_game};
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

/// One entry read from a `.mat` game.
#[derive(Debug, PartialEq)]
pub(crate) enum Entry {
    /// A roll (higher die first) and its play in `.mat` notation.
    Roll([u8; 2], String),
    /// The player doubles.
    Double,
    /// The player takes a double.
    Take,
    /// The player drops a double.
    Drop,
}

/// A game of a `.mat` file: its entries with the side that made each, and
/// who won how many points (the `Wins` line).
#[derive(Debug, Default)]
pub(crate) struct MatGame {
    /// The entries in order, each with its player (0 or 1).
    pub entries: Vec<(usize, Entry)>,
    /// The winner and the points, as the file gives them.
    pub wins: Option<(usize, u32)>,
}

/// The side and points of a `Wins N point(s)` line: the left column is
/// player 1's, the right one (from about the 30th character) player 2's.
fn wins(line: &str) -> Result<Option<(usize, u32)>> {
    let Some(at) = line.find("Wins ") else {
        return Ok(None);
    };
    let points = line[at + 5..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("cannot read `{}`", line.trim()))?;
    Ok(Some((usize::from(at >= 25), points)))
}

/// Reads one column of a move line.
fn entry(text: &str) -> Result<Option<Entry>> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("doubles") {
        return Ok(Some(Entry::Double));
    }
    if lower.starts_with("takes") || lower.starts_with("accepts") {
        return Ok(Some(Entry::Take));
    }
    if lower.starts_with("drops") || lower.starts_with("passes") || lower.starts_with("rejects") {
        return Ok(Some(Entry::Drop));
    }
    let Some((dice, play)) = t.split_once(':') else {
        bail!("cannot read `{t}`");
    };
    let d: Vec<u8> = dice
        .trim()
        .chars()
        .map(|c| c.to_digit(10).map(|d| d as u8))
        .collect::<Option<_>>()
        .filter(|d: &Vec<u8>| d.len() == 2 && d.iter().all(|x| (1..=6).contains(x)))
        .with_context(|| format!("`{dice}` is not a roll"))?;
    Ok(Some(Entry::Roll(
        [d[0].max(d[1]), d[0].min(d[1])],
        play.trim().to_string(),
    )))
}

/// Where an entry starts in a move line: a roll (`52:`) or a cube action.
fn entry_starts(body: &str) -> Vec<usize> {
    let bytes = body.as_bytes();
    let lower = body.to_ascii_lowercase();
    let mut starts = Vec::new();
    for i in 0..bytes.len() {
        let boundary = i == 0 || bytes[i - 1] == b' ';
        let roll = i + 2 < bytes.len()
            && bytes[i].is_ascii_digit()
            && bytes[i + 1].is_ascii_digit()
            && bytes[i + 2] == b':';
        let cube = ["doubles", "takes", "drops", "accepts", "passes", "rejects"]
            .iter()
            .any(|k| lower.as_bytes()[i..].starts_with(k.as_bytes()));
        if boundary && (roll || cube) {
            starts.push(i);
        }
    }
    starts
}

/// The two columns of a move line (player 1's from the start, player 2's
/// from the 29th character, or after player 1's when it runs longer).
fn columns(body: &str) -> Result<Vec<(usize, &str)>> {
    let starts = entry_starts(body);
    let first = starts.first().copied().unwrap_or(body.len());
    if !body[..first].trim().is_empty() {
        bail!("cannot read the move line `{}`", body.trim());
    }
    Ok(match starts[..] {
        [a, b, ..] => vec![(0, &body[a..b]), (1, &body[b..])],
        [a] if a < 20 => vec![(0, &body[a..])],
        [a] => vec![(1, &body[a..])],
        [] => Vec::new(),
    })
}

/// The match length, the players' names and the games of a `.mat` file.
fn parse_mat(text: &str) -> Result<(u32, [String; 2], Vec<MatGame>)> {
    let mut match_to = None;
    let mut names = [String::new(), String::new()];
    let mut games: Vec<MatGame> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with(';') || t.is_empty() {
            continue;
        }
        if let Some(won) = wins(line)? {
            games
                .last_mut()
                .context("a result before the first game")?
                .wins = Some(won);
            if t.starts_with("Wins") {
                continue;
            }
        }
        if let Some(n) = t.strip_suffix("point match") {
            match_to = Some(n.trim().parse::<u32>().context("the match length")?);
        } else if t.starts_with("Game ") {
            games.push(MatGame::default());
        } else if let Some((number, rest)) = line.split_once(')')
            && number.trim().parse::<u32>().is_ok()
        {
            let game = games.last_mut().context("a move before the first game")?;
            let body = rest.strip_prefix(' ').unwrap_or(rest);
            for (side, col) in columns(body)? {
                if let Some(e) = entry(col)? {
                    game.entries.push((side, e));
                }
            }
        } else if t.contains(" : ") && games.last().is_some_and(|g| g.entries.is_empty()) {
            // The score line: "name1 : s1    name2 : s2".
            let parts: Vec<&str> = t.split(" : ").collect();
            if parts.len() == 3 {
                names[0] = parts[0].trim().to_string();
                names[1] = parts[1]
                    .split_whitespace()
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join(" ");
            }
        }
    }
    let match_to = match_to.context("no `N point match` line")?;
    Ok((match_to, names, games))
}

/// The play in spelbord's notation.
fn spelbord_play(mat: &str) -> String {
    if mat.trim().is_empty() {
        return "pass".into();
    }
    mat.split_whitespace()
        .map(|step| {
            step.split('/')
                .map(|p| match p.trim_end_matches('*') {
                    "25" | "bar" => p.replacen("25", "bar", 1),
                    "0" | "off" => p.replacen('0', "off", 1),
                    _ => p.to_string(),
                })
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Applies `text` to `state` (as a record would hold it) and notes it. A
/// play written by another path to the same end (GNU Backgammon's `.sgf`
/// files mark no hits and may pass other points) is the one legal play
/// that moves the mover's checkers the same way, if there is one.
fn push(state: &mut Box<dyn DynState>, record: &mut Record, text: &str) -> Result<()> {
    let info = match state.apply_recorded(text) {
        Ok(info) => info,
        Err(error) => match same_play(state.as_ref(), text) {
            Some(json) => state.apply_json(&json)?,
            None => {
                return Err(error)
                    .with_context(|| format!("`{text}` at action {}", record.actions.len()));
            }
        },
    };
    record.actions.push(info.text);
    Ok(())
}

/// The one legal play with the same net change of the mover's checkers as
/// the play `text`, as JSON.
fn same_play(state: &dyn DynState, text: &str) -> Option<serde_json::Value> {
    let wanted = written_change(text)?;
    let mut same = state
        .legal_actions()
        .into_iter()
        .filter(|a| net_change(&a.json).as_ref() == Some(&wanted));
    match (same.next(), same.next()) {
        (Some(one), None) => Some(one.json),
        _ => None,
    }
}

/// The net change of a play written as steps (`13/11 11/5*`, `8/5(2)`,
/// `bar/22`, `6/off`), hit marks set aside.
fn written_change(text: &str) -> Option<std::collections::BTreeMap<u8, i32>> {
    let mut change = std::collections::BTreeMap::new();
    for token in text.split_whitespace() {
        let token = token.replace('*', "");
        let (path, times) = match token.split_once('(') {
            Some((path, n)) => (path.to_string(), n.trim_end_matches(')').parse().ok()?),
            None => (token, 1),
        };
        let points: Vec<u8> = path
            .split('/')
            .map(|p| match p {
                "bar" => Some(BAR),
                "off" => Some(OFF),
                n => n.parse().ok(),
            })
            .collect::<Option<_>>()?;
        let (from, to) = (*points.first()?, *points.last()?);
        *change.entry(from).or_insert(0) -= times;
        *change.entry(to).or_insert(0) += times;
    }
    change.retain(|_, n| *n != 0);
    Some(change)
}

/// How many of the mover's checkers a play takes from (-) and brings to (+)
/// each point.
fn net_change(json: &serde_json::Value) -> Option<std::collections::BTreeMap<u8, i32>> {
    let TablesAction::Play(play) = serde_json::from_value(json.clone()).ok()? else {
        return None;
    };
    let mut change = std::collections::BTreeMap::new();
    for step in play.steps() {
        *change.entry(step.from).or_insert(0) -= 1;
        *change.entry(step.to).or_insert(0) += 1;
    }
    change.retain(|_, n| *n != 0);
    Some(change)
}

/// The loser of a game its moves did not end resigns what `wins` says the
/// winner got.
fn resign(
    state: &mut Box<dyn DynState>,
    record: &mut Record,
    wins: Option<(usize, u32)>,
) -> Result<()> {
    let (winner, points) = wins.context("it ends neither by its moves nor with a `Wins` line")?;
    let cube = concrete(state.as_ref()).cube_value();
    let kind = match (points % cube, points / cube) {
        (0, 1) => Resignation::Single,
        (0, 2) => Resignation::Gammon,
        (0, 3) => Resignation::Backgammon,
        _ => bail!(
            "player {} wins {points} points with the cube at {cube}",
            winner + 1
        ),
    };
    let info = state.resign(1 - winner, kind)?;
    record.actions.push(info.text);
    Ok(())
}

/// The records read from a `.mat` file, and what could not be read.
pub struct MatImport {
    /// A match as one record, a money session as one record per game.
    pub records: Vec<Record>,
    /// What was left out or did not agree, in words.
    pub skipped: Vec<String>,
}

/// The games of a `.mat` file as records: a match as one record, a money
/// session (`0 point match`) as one record per game. The cube is on in a
/// match and in a money session where anyone doubled.
#[cfg(test)]
pub fn from_mat(text: &str) -> Result<Vec<Record>> {
    Ok(read_mat(text)?.records)
}

/// The games of a `.mat` file as records (a match as one record, a money
/// session as one record per game). A game whose moves do not end it was
/// resigned: the loser resigns what its `Wins` line gives (a single game,
/// gammon or backgammon at the cube's value) and the match goes on. A
/// `Wins` line that disagrees with the moves is named in `skipped`.
pub fn read_mat(text: &str) -> Result<MatImport> {
    let (match_to, names, games) = parse_mat(text)?;
    records_of(match_to, names, &games)
}

/// The records of a match (`match_to` points, 0 for a money session)
/// between `names`, from its games as the `.mat` and `.sgf` readers read
/// them; see [`read_mat`].
pub(crate) fn records_of(
    match_to: u32,
    names: [String; 2],
    games: &[MatGame],
) -> Result<MatImport> {
    let game = find_game("backgammon")?;
    // The cube is on in a match, and in money play when anyone doubled.
    let doubled = games
        .iter()
        .any(|g| g.entries.iter().any(|(_, e)| *e == Entry::Double));
    let cube = if match_to > 0 || doubled { "on" } else { "off" };
    let options = game.parse_options(&[format!("cube={cube}"), format!("match={match_to}")])?;
    let players = vec![names[0].clone(), names[1].clone()];
    let mut records = Vec::new();
    let mut skipped = Vec::new();
    let mut state = game.new_state(&options)?;
    let mut record = Record::new("backgammon", options.clone(), players.clone());
    for (g, mat_game) in games.iter().enumerate() {
        if match_to == 0 && g > 0 {
            state = game.new_state(&options)?;
            record = Record::new("backgammon", options.clone(), players.clone());
        }
        let mut opened = false;
        for (side, e) in &mat_game.entries {
            let context = || format!("game {}: player {}'s {e:?}", g + 1, side + 1);
            match e {
                Entry::Roll([hi, lo], play) => {
                    if !opened {
                        let dice = if *side == 0 { [hi, lo] } else { [lo, hi] };
                        push(
                            &mut state,
                            &mut record,
                            &format!("open {}-{}", dice[0], dice[1]),
                        )
                        .with_context(context)?;
                        opened = true;
                    } else {
                        if matches!(concrete(state.as_ref()).phase(), Phase::CubeDecision) {
                            push(&mut state, &mut record, "roll").with_context(context)?;
                        }
                        push(&mut state, &mut record, &format!("{hi}-{lo}"))
                            .with_context(context)?;
                    }
                    push(&mut state, &mut record, &spelbord_play(play)).with_context(context)?;
                }
                Entry::Double => push(&mut state, &mut record, "double").with_context(context)?,
                Entry::Take => push(&mut state, &mut record, "take").with_context(context)?,
                Entry::Drop => push(&mut state, &mut record, "drop").with_context(context)?,
            }
        }
        let ended = state.turn() == spelbord_engine::Turn::Over
            || (g > 0 || !mat_game.entries.is_empty())
                && matches!(concrete(state.as_ref()).phase(), Phase::Opening);
        if !ended {
            resign(&mut state, &mut record, mat_game.wins)
                .with_context(|| format!("game {}", g + 1))?;
        } else if let Some(told) = mat_game.wins
            && Some(told) != bg_games::last_won(concrete(state.as_ref()))
        {
            skipped.push(format!(
                "game {}: the file says player {} wins {} points, the moves give {:?}",
                g + 1,
                told.0 + 1,
                told.1,
                bg_games::last_won(concrete(state.as_ref()))
            ));
        }
        if match_to == 0 || g + 1 == games.len() {
            if state.turn() == spelbord_engine::Turn::Over {
                record.finish(&state.returns(), state.outcome());
            }
            records.push(record.clone());
        }
    }
    Ok(MatImport { records, skipped })
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
