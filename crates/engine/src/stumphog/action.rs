//! Actions and their notation: "3 stones 5 steps from Bortom 4",
//! "bat in 5", "bat in 6 from opponent", "bat out 8", "pass"; chance as
//! "open 5-3" and "4-2".

use super::board::{Destination, Row, destination};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize, Serializer};

/// One action of Stumphög: a decision or a chance outcome. As JSON a move
/// also says where it lands (`to`, a [`Destination`]; ignored when read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StumphogAction {
    /// Chance (STU-4): one die each, player 0's then player 1's, never equal.
    Opening([u8; 2]),
    /// Chance (STU-8): the turn's two dice, higher first.
    Roll([u8; 2]),
    /// STU-8: `stones` stones `steps` steps from one board pile, named from
    /// the mover's side.
    #[serde(serialize_with = "move_json")]
    Move {
        /// How many stones (one die).
        stones: u8,
        /// How many steps (the other die).
        steps: u8,
        /// The row of the pile they leave.
        row: Row,
        /// Its column, 1..=7 (7 next to Stumpen).
        col: u8,
    },
    /// STU-12: bat in as many stones as the die beside the six says.
    BatIn(u8),
    /// STU-12: double six, bat in six stones taken from the opponent.
    BatInFromOpponent,
    /// STU-14: doubles, bat out the sum of the dice.
    BatOut(u8),
    /// STU-15: no legal action.
    Pass,
}

/// A move as written to JSON: with where it lands (`to`).
#[derive(Serialize)]
struct MoveJson {
    stones: u8,
    steps: u8,
    row: Row,
    col: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<Destination>,
}

/// Writes a move's fields with where it lands (see [`StumphogAction::Move`]).
fn move_json<S: Serializer>(
    stones: &u8,
    steps: &u8,
    row: &Row,
    col: &u8,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    MoveJson {
        stones: *stones,
        steps: *steps,
        row: *row,
        col: *col,
        to: destination(*row, *col, *steps),
    }
    .serialize(s)
}

/// Writes an action in notation.
pub fn format(action: StumphogAction) -> String {
    match action {
        StumphogAction::Opening([a, b]) => format!("open {a}-{b}"),
        StumphogAction::Roll([a, b]) => format!("{a}-{b}"),
        StumphogAction::Move {
            stones,
            steps,
            row,
            col,
        } => format!(
            "{stones} stone{} {steps} step{} from {} {col}",
            if stones == 1 { "" } else { "s" },
            if steps == 1 { "" } else { "s" },
            row.name()
        ),
        StumphogAction::BatIn(n) => format!("bat in {n}"),
        StumphogAction::BatInFromOpponent => "bat in 6 from opponent".into(),
        StumphogAction::BatOut(n) => format!("bat out {n}"),
        StumphogAction::Pass => "pass".into(),
    }
}

/// Splits text into words and numbers: "3x5 b4" gives 3, x, 5, b, 4.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut cur_digit = false;
    for ch in text.chars().flat_map(char::to_lowercase) {
        if ch.is_alphanumeric() {
            let digit = ch.is_ascii_digit();
            if !cur.is_empty() && digit != cur_digit {
                out.push(std::mem::take(&mut cur));
            }
            cur_digit = digit;
            cur.push(ch);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A number written in digits or as a Swedish die word ("tre", "fem").
fn number(word: &str) -> Option<u8> {
    let n = match word {
        "ett" | "en" | "etta" => 1,
        "två" | "tva" | "tvåa" => 2,
        "tre" | "trea" => 3,
        "fyra" | "fyran" => 4,
        "fem" | "femma" => 5,
        "sex" | "sexa" => 6,
        _ => return word.parse().ok().filter(|&n: &u8| n <= 99),
    };
    Some(n)
}

fn dice(words: &[&str]) -> Option<[u8; 2]> {
    match words {
        [a, b] => {
            let (a, b) = (number(a)?, number(b)?);
            ((1..=6).contains(&a) && (1..=6).contains(&b)).then_some([a, b])
        }
        _ => None,
    }
}

/// Reads an action in notation (no legality check).
pub fn parse(text: &str) -> Result<StumphogAction> {
    let bad = |reason: &str| Error::BadNotation {
        text: text.into(),
        reason: reason.into(),
    };
    let all = tokens(text);
    const FILLER: [&str; 14] = [
        "stones", "stone", "sten", "stenar", "steps", "step", "steg", "from", "från", "fran", "x",
        "roll", "slå", "sla",
    ];
    // "3 stones 5 steps" is a move, even without its pile: never dice.
    let says_move = all
        .iter()
        .any(|w| w.starts_with("ste") || w.starts_with("sto"));
    let words: Vec<&str> = all
        .iter()
        .map(String::as_str)
        .filter(|w| !FILLER.contains(w))
        .collect();
    match words.as_slice() {
        [] => Err(bad(
            "empty; try `3 stones 5 steps from Bortom 4`, `bat in 5` or `pass`",
        )),
        ["pass"] => Ok(StumphogAction::Pass),
        ["open" | "opening", rest @ ..] => dice(rest)
            .filter(|d| d[0] != d[1])
            .map(StumphogAction::Opening)
            .ok_or_else(|| bad("an opening roll is written `open 5-3` (two different dice)")),
        ["bat" | "in", ..] | ["out" | "ut", ..] => parse_bat(&words).ok_or_else(|| {
            bad("write `bat in 5`, `bat in 6 from opponent` or `bat out 8` (the number of stones)")
        }),
        _ => {
            if let Some([a, b]) = dice(&words).filter(|_| !says_move) {
                return Ok(StumphogAction::Roll([a.max(b), a.min(b)]));
            }
            parse_move(&words).ok_or_else(|| {
                bad("a move is written `3 stones 5 steps from Bortom 4` (or `3x5 b4`)")
            })
        }
    }
}

fn parse_bat(words: &[&str]) -> Option<StumphogAction> {
    let words = match words {
        ["bat", rest @ ..] => rest,
        rest => rest,
    };
    match words {
        ["in", n] => {
            let n = number(n)?;
            (1..=6).contains(&n).then_some(StumphogAction::BatIn(n))
        }
        ["in", "6" | "sex", "opponent" | "opp" | "motståndaren"] | ["in", "double", "six"] => {
            Some(StumphogAction::BatInFromOpponent)
        }
        ["out" | "ut", n] => {
            let n = number(n)?;
            (1..=12).contains(&n).then_some(StumphogAction::BatOut(n))
        }
        _ => None,
    }
}

fn parse_move(words: &[&str]) -> Option<StumphogAction> {
    let [k, s, row, col] = words else {
        return None;
    };
    let stones = number(k)?;
    let steps = number(s)?;
    let row = match *row {
        "hitom" | "h" => Row::Hitom,
        "bortom" | "b" => Row::Bortom,
        _ => return None,
    };
    let col = number(col)?;
    ((1..=6).contains(&stones) && (1..=6).contains(&steps) && (1..=7).contains(&col)).then_some(
        StumphogAction::Move {
            stones,
            steps,
            row,
            col,
        },
    )
}
