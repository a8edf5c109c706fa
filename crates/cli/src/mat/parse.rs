//! Reading the text of a `.mat` file: the match length, the players, and
//! each game's entries (rolls with plays, cube actions) and `Wins` line.

use anyhow::{Context, Result, bail};

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
pub(super) fn parse_mat(text: &str) -> Result<(u32, [String; 2], Vec<MatGame>)> {
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
