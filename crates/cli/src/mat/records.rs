//! A `.mat` file's games as records: each play replayed on the engine (a
//! play written by another path matched by its net change), resigned games
//! ended as their `Wins` line says.

use super::parse::{Entry, MatGame, parse_mat};
use crate::bg_games::{self, concrete};
use anyhow::{Context, Result, bail};
use spelbord_engine::tables::{BAR, OFF, Phase, TablesAction};
use spelbord_engine::{DynState, Record, Resignation, find_game};

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
