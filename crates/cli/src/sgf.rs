//! GNU Backgammon's `.sgf` files (Smart Game Format, game 6): a backgammon
//! record (one money game or a whole match) written as one, a game tree per
//! game. Seat 0 is White (GNU Backgammon's player 0), seat 1 Black. A move
//! node holds the dice and each checker step as two letters: `a`..`x` the
//! points (White's 1..24 from White's side; Black's from his 24 down to his
//! 1), `y` the bar, `z` off; `double`, `take` and `drop` are the cube.

use crate::bg_games::{self, BackgammonGames, Turn};
use crate::mat::{Entry, MatGame, MatImport, records_of};
use anyhow::{Context, Result, bail};
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
            let resigned = if g.resigned { "R" } else { "" };
            let _ = write!(out, "RE[{}+{points}{resigned}]", ["W", "B"][winner]);
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

/// The properties of one SGF node, in order: identifier and values.
type Node = Vec<(String, Vec<String>)>;

/// The game trees of an SGF file, each a list of nodes (variations are not
/// read: GNU Backgammon writes none).
fn game_trees(text: &str) -> Result<Vec<Vec<Node>>> {
    let mut trees: Vec<Vec<Node>> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut ident = String::new();
    while let Some(c) = chars.next() {
        match c {
            '(' => trees.push(Vec::new()),
            ';' => trees
                .last_mut()
                .context("a node outside a game tree")?
                .push(Vec::new()),
            '[' => {
                let mut value = String::new();
                loop {
                    match chars.next().context("a property value is not closed")? {
                        '\\' => value.extend(chars.next()),
                        ']' => break,
                        c => value.push(c),
                    }
                }
                let node = trees
                    .last_mut()
                    .and_then(|t| t.last_mut())
                    .context("a property outside a node")?;
                if ident.is_empty() {
                    node.last_mut()
                        .context("a value without a property")?
                        .1
                        .push(value);
                } else {
                    node.push((std::mem::take(&mut ident), vec![value]));
                }
            }
            c if c.is_ascii_uppercase() => ident.push(c),
            _ => {}
        }
    }
    Ok(trees)
}

/// A point of `side`'s own numbering from its SGF letter (25 the bar, 0 off).
fn point(side: usize, letter: char) -> Result<u8> {
    Ok(match letter {
        'y' => BAR,
        'z' => OFF,
        'a'..='x' if side == 0 => letter as u8 - b'a' + 1,
        'a'..='x' => 24 - (letter as u8 - b'a'),
        _ => bail!("`{letter}` is no point"),
    })
}

/// A move node's value as a `.mat` entry: `52hegb` (a roll and its steps),
/// `double`, `take` or `drop`.
fn entry(side: usize, value: &str) -> Result<Entry> {
    match value {
        "double" => return Ok(Entry::Double),
        "take" => return Ok(Entry::Take),
        "drop" => return Ok(Entry::Drop),
        _ => {}
    }
    let digits: Vec<u8> = value
        .bytes()
        .take(2)
        .map(|b| b.wrapping_sub(b'0'))
        .collect();
    if digits.len() != 2 || !digits.iter().all(|d| (1..=6).contains(d)) {
        bail!("`{value}` is no move");
    }
    let letters: Vec<char> = value.chars().skip(2).collect();
    if letters.len() % 2 == 1 {
        bail!("`{value}`: a step without its end");
    }
    let steps = letters
        .chunks(2)
        .map(|p| Ok(format!("{}/{}", point(side, p[0])?, point(side, p[1])?)))
        .collect::<Result<Vec<_>>>()?;
    let dice = [digits[0].max(digits[1]), digits[0].min(digits[1])];
    Ok(Entry::Roll(dice, steps.join(" ")))
}

/// A game tree's match length, names and game (its moves and `RE` result:
/// `W+2`, `B+1R` for a resignation).
fn sgf_game(tree: &[Node]) -> Result<(u32, [String; 2], MatGame)> {
    let mut match_to = 0;
    let mut names = [String::new(), String::new()];
    let mut game = MatGame::default();
    for (id, values) in tree.iter().flatten() {
        let value = values.first().map(String::as_str).unwrap_or_default();
        match id.as_str() {
            "GM" if value != "6" => bail!("GM[{value}] is not backgammon (GM[6])"),
            "MI" => {
                if let Some(length) = values.iter().find_map(|v| v.strip_prefix("length:")) {
                    match_to = length.parse().context("MI[length:N]")?;
                }
            }
            "PW" => names[0] = value.to_string(),
            "PB" => names[1] = value.to_string(),
            "RE" => {
                let (colour, rest) = value.split_at(value.len().min(2));
                let side = match colour {
                    "W+" => 0,
                    "B+" => 1,
                    _ => bail!("cannot read RE[{value}]"),
                };
                let points = rest.trim_end_matches(['R', 'r']).parse()?;
                game.wins = Some((side, points));
            }
            "W" | "B" => {
                let side = usize::from(id == "B");
                game.entries.push((side, entry(side, value)?));
            }
            _ => {}
        }
    }
    Ok((match_to, names, game))
}

/// The games of a GNU Backgammon `.sgf` file as records, as
/// [`crate::mat::read_mat`] reads a `.mat` file (a resigned game included).
pub fn read_sgf(text: &str) -> Result<MatImport> {
    let mut games = Vec::new();
    let mut header = None;
    for tree in game_trees(text)? {
        let (match_to, names, game) = sgf_game(&tree)?;
        header.get_or_insert((match_to, names));
        games.push(game);
    }
    let (match_to, names) = header.context("no game in the file")?;
    records_of(match_to, names, &games)
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

    /// The `RE` property of each game: `W+1`, `B+2R` (a resignation).
    fn results(sgf: &str) -> Vec<String> {
        game_trees(sgf)
            .unwrap()
            .iter()
            .map(|tree| {
                let re = tree.iter().flatten().find(|(id, _)| id == "RE");
                re.map(|(_, v)| v[0].clone()).unwrap_or_default()
            })
            .collect()
    }

    #[test]
    fn gnu_backgammon_sgf_files_import_as_their_mat_files_do() {
        // GNU Backgammon's own `save match` of four `.mat` files (see the
        // README there): resignations in first, middle and last games, and
        // a 25-point match. Its `.sgf` marks no hits and may pass other
        // points than the `.mat` file (13/11 11/5 for 13/7 7/5*).
        for name in ["m5-seed2", "m5-seed13", "m5-seed16", "m25-seed25"] {
            let theirs = testdata(&format!("{name}.sgf"));
            let from_sgf = read_sgf(&theirs).unwrap();
            let from_mat = crate::mat::read_mat(&testdata(&format!("{name}.mat"))).unwrap();
            assert!(
                from_sgf.skipped.is_empty(),
                "{name}: {:?}",
                from_sgf.skipped
            );
            assert_eq!(from_sgf.records.len(), 1, "{name}");
            let (a, b) = (&from_sgf.records[0], &from_mat.records[0]);
            assert_eq!((&a.actions, &a.result), (&b.actions, &b.result), "{name}");
            assert!(a.actions.iter().any(|t| t.starts_with("resign:")), "{name}");
            // Written again: the same moves and results, resignations marked.
            let ours = to_sgf(a).unwrap();
            assert_eq!(moves(&ours), moves(&theirs), "{name}");
            assert_eq!(results(&ours), results(&theirs), "{name}");
        }
    }

    #[test]
    fn malformed_sgf_files_are_errors() {
        assert!(read_sgf("").is_err());
        assert!(read_sgf("(;GM[1];W[52hegb])").is_err());
        assert!(read_sgf("(;GM[6]MI[length:3];W[5xhegb])").is_err());
        assert!(read_sgf("(;GM[6]MI[length:3];W[52heg])").is_err());
        assert!(read_sgf("(;GM[6]MI[length:3];W[52he").is_err());
        assert!(read_sgf("(;GM[6]MI[length:3]RE[X+1];W[double])").is_err());
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
