//! Tests for Läger: one or more per rule (LAG-1..LAG-11), perft counts,
//! the generator against a brute-force check of every conceivable action,
//! and property tests.

mod perft;
mod position;
mod props;
mod rules;

use super::*;
use crate::game::{GameState, Notation};

/// A position on the default board from a diagram (see
/// [`LagerState::from_diagram`]).
pub(super) fn pos(diagram: &str, side: usize) -> LagerState {
    LagerState::from_diagram(LagerConfig::default(), diagram, side, &[])
        .unwrap_or_else(|e| panic!("bad diagram: {e}"))
}

/// The default configuration with the variant opening `opening=any`, where
/// the first turns may also place the blockade (LAG-4).
pub(super) fn opening_any() -> LagerConfig {
    LagerConfig {
        stone_first: false,
        ..LagerConfig::default()
    }
}

/// The legal actions in notation, sorted.
pub(super) fn actions(s: &LagerState) -> Vec<String> {
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    let mut v: Vec<String> = out.iter().map(|&a| s.format_action(a)).collect();
    v.sort();
    v
}

/// The legal moves (not placements) in notation, sorted.
pub(super) fn moves(s: &LagerState) -> Vec<String> {
    actions(s)
        .into_iter()
        .filter(|a| !a.contains('@'))
        .collect()
}

/// Applies actions written in notation, checking each is legal.
pub(super) fn play(s: &mut LagerState, list: &[&str]) {
    for text in list {
        let a = s
            .parse_action(text)
            .unwrap_or_else(|e| panic!("`{text}`: {e}"));
        s.try_apply(a).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    }
}

/// Every action that could be written on this board, legal or not.
pub(super) fn conceivable(s: &LagerState) -> Vec<LagerAction> {
    let g = s.geometry();
    let mut out = Vec::new();
    for row in 0..g.rows {
        for col in 0..g.columns {
            let from = Square::new(col, row);
            out.push(LagerAction::Blockade { to: from });
            for stone in Stone::ALL {
                out.push(LagerAction::Place { stone, to: from });
            }
            for dr in -2i8..=2 {
                for dc in -2i8..=2 {
                    let (c, r) = (col as i8 + dc, row as i8 + dr);
                    if (dc, dr) != (0, 0) && c >= 0 && r >= 0 {
                        let to = Square::new(c as u8, r as u8);
                        out.push(LagerAction::Move { from, to });
                    }
                }
            }
        }
    }
    out
}

/// Checks the generator against the direct rule check of every
/// conceivable action.
pub(super) fn check_generator(s: &LagerState) {
    let mut listed = Vec::new();
    s.legal_actions(&mut listed);
    listed.sort();
    let mut brute: Vec<LagerAction> = conceivable(s)
        .into_iter()
        .filter(|&a| s.is_legal(a))
        .collect();
    brute.sort();
    assert_eq!(listed, brute, "generator and rule check differ in {s:?}");
}
