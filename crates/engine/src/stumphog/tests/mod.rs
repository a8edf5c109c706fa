//! Tests: one per rule (rules.rs), one per worked example of the seed
//! (examples.rs), notation and drawing (notation.rs), random games and
//! properties (props.rs), and how random games end (stats.rs).

mod examples;
mod heuristic;
mod notation;
mod position;
mod props;
mod rules;
mod stats;

use super::*;
use crate::game::{GameState, Notation};

/// The board right after the set-up, player 0 having laid Stumpen (STU-4).
pub fn set_up_board() -> Board {
    let mut b = Board {
        rows: [[1; COLUMNS]; 2],
        stumpen: 0,
        hog: [27, 27],
        ute: [0, 0],
    };
    b.set_up(0);
    b
}

/// A state with `side` to act on `dice`, default rules.
pub fn acting(board: Board, side: usize, dice: [u8; 2]) -> StumphogState {
    StumphogState::with_position(Rules::default(), board, side, Some(dice))
}

/// The legal actions in notation.
pub fn texts(s: &StumphogState) -> Vec<String> {
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    out.into_iter().map(|a| s.format_action(a)).collect()
}

/// Applies an action written in notation, checking legality.
pub fn play(s: &mut StumphogState, text: &str) {
    let a = s
        .parse_action(text)
        .unwrap_or_else(|e| panic!("`{text}`: {e}"));
    s.try_apply(a).unwrap_or_else(|e| panic!("`{text}`: {e}"));
}

/// Whether an action written in notation is legal here.
pub fn legal(s: &StumphogState, text: &str) -> bool {
    s.parse_action(text).is_ok_and(|a| s.is_legal(a))
}
