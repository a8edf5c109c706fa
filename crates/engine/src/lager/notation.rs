//! Läger's notation: `B@a1` places the blue stone on a1, `R@c4` places the
//! blockade, `c1-c3` moves a stone, `b2xc3` knocks out the piece on c3.
//! Stone letters: B blue, Y yellow, K black, W white; R the red blockade.

use super::geometry::{Square, Stone};
use super::render::render_state;
use super::state::{End, LagerAction, LagerState, Piece};
use super::view::PLAYER_NAMES;
use crate::error::{Error, Result};
use crate::game::{GameEvent, Notation, Viewer};
use serde_json::json;

fn bad(text: &str, reason: impl Into<String>) -> Error {
    Error::BadNotation {
        text: text.into(),
        reason: reason.into(),
    }
}

/// What a word names: a stone or the blockade.
fn piece_word(word: &str) -> Option<Piece> {
    match word.to_ascii_lowercase().as_str() {
        "r" | "red" | "x" | "block" | "blockade" | "blockad" => Some(Piece::Blockade),
        w => Stone::from_word(w).map(Piece::Stone),
    }
}

/// Reads a square at the start of `text`; returns it and the rest.
fn leading_square(text: &str) -> Option<(Square, &str)> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || !bytes[0].is_ascii_alphabetic() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let sq = text[..1 + digits].parse().ok()?;
    Some((sq, &text[1 + digits..]))
}

fn describe(piece: Piece) -> &'static str {
    match piece {
        Piece::Stone(s) => s.name(),
        Piece::Blockade => "blockade",
    }
}

impl Notation for LagerState {
    fn format_action(&self, action: LagerAction) -> String {
        match action {
            LagerAction::Place { stone, to } => format!("{}@{to}", stone.letter()),
            LagerAction::Blockade { to } => format!("R@{to}"),
            LagerAction::Move { from, to } => {
                let sep = if self.piece_at(to).is_some() {
                    'x'
                } else {
                    '-'
                };
                format!("{from}{sep}{to}")
            }
        }
    }

    fn parse_action(&self, text: &str) -> Result<LagerAction> {
        let t = text.trim();
        if t.is_empty() {
            return Err(bad(text, "empty; write e.g. B@a1, R@c4, c1-c3 or b2xc3"));
        }
        // A placement: `B@a1`, `blue a1`, `R@c4`, `block c4`.
        let placement = t
            .split_once('@')
            .or_else(|| t.split_once(char::is_whitespace));
        if let Some((word, sq)) = placement {
            if let Some(piece) = piece_word(word.trim()) {
                let to: Square = sq.trim().parse().map_err(|e: String| bad(text, e))?;
                return Ok(match piece {
                    Piece::Stone(stone) => LagerAction::Place { stone, to },
                    Piece::Blockade => LagerAction::Blockade { to },
                });
            }
            if t.contains('@') {
                return Err(bad(
                    text,
                    format!(
                        "`{}` is not a piece: B blue, Y yellow, K black, W white, R blockade",
                        word.trim()
                    ),
                ));
            }
        }
        // A move: `c1-c3`, `b2xc3`, `b2:c3`, `b2 c3`, `b2c3`.
        let (from, rest) = leading_square(t).ok_or_else(|| {
            bad(
                text,
                "write e.g. B@a1 (place), R@c4 (blockade), c1-c3 (move)",
            )
        })?;
        let rest = rest.trim_start_matches(|c: char| c.is_whitespace() || "-x:".contains(c));
        let (to, tail) = leading_square(rest)
            .ok_or_else(|| bad(text, "a move is written from-to, e.g. c1-c3"))?;
        if !tail.trim().is_empty() {
            return Err(bad(
                text,
                format!("unexpected `{}` after the move", tail.trim()),
            ));
        }
        Ok(LagerAction::Move { from, to })
    }

    fn explain_illegal(&self, action: LagerAction) -> String {
        self.illegal_reason(action)
            .unwrap_or_else(|| "not among the legal actions".into())
    }

    fn render(&self, viewer: Viewer, color: bool) -> String {
        render_state(self, viewer, color)
    }

    fn game_events(&self) -> Vec<GameEvent> {
        let mut out = Vec::new();
        if let Some(k) = self.last_knockout() {
            out.push(GameEvent::new(
                "knockout",
                json!({ "by": k.by, "owner": k.owner, "piece": describe(k.piece), "at": k.at.to_string() }),
                format!(
                    "{} knocks out {}'s {} on {}",
                    PLAYER_NAMES[k.by],
                    PLAYER_NAMES[k.owner],
                    describe(k.piece),
                    k.at
                ),
            ));
        }
        if let Some(end) = self.end() {
            let (kind, fields) = match end {
                End::Camp { winner } => ("end_camp", json!({ "winner": winner })),
                End::NoAction { winner } => ("end_no_action", json!({ "winner": winner })),
                End::Repetition => ("end_repetition", json!({})),
                End::PlyCap => ("end_ply_cap", json!({})),
                End::Resigned { winner } => ("end_resigned", json!({ "winner": winner })),
            };
            out.push(GameEvent::new(kind, fields, end_text(end)));
        }
        out
    }
}

/// A sentence on how the game ended.
pub fn end_text(end: End) -> String {
    match end {
        End::Camp { winner } => format!(
            "{} wins: two stones in {}'s camp",
            PLAYER_NAMES[winner],
            PLAYER_NAMES[1 - winner]
        ),
        End::NoAction { winner } => format!(
            "{} wins: {} has no action",
            PLAYER_NAMES[winner],
            PLAYER_NAMES[1 - winner]
        ),
        End::Repetition => "draw: the same position for the third time".into(),
        End::PlyCap => "draw: the ply cap is reached".into(),
        End::Resigned { winner } => format!(
            "{} wins: {} resigned",
            PLAYER_NAMES[winner],
            PLAYER_NAMES[1 - winner]
        ),
    }
}
