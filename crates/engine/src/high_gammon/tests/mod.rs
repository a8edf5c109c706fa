//! Tests of High-O Gammon and Tric-Trac: every rule by its ID, the worked
//! examples, perft tables from the start, a naive reference generator, and
//! property tests.

use super::geometry::{field, seats};
use super::*;
use crate::game::{GameState, Notation};
use std::collections::BTreeSet;

mod cube;
mod hg_rules;
mod misc;
mod perft;
mod position;
mod props;
mod reference;
mod tt_rules;

/// Rules for tests.
pub(super) fn rules(players: u8, tric: bool, doubles: Doubles, scoring: Scoring) -> HgRules {
    HgRules {
        tric,
        players,
        doubles,
        scoring,
    }
}

pub(super) fn hg(players: u8) -> HgRules {
    rules(players, false, Doubles::Reroll, Scoring::Points)
}

pub(super) fn tt(players: u8) -> HgRules {
    rules(players, true, Doubles::Reroll, Scoring::Points)
}

/// Puts `count` of player p's stones at distance d along p's own track.
pub(super) fn put(b: &mut Board, r: HgRules, p: usize, d: usize, count: u8) {
    let seat = seats(r.players as usize)[p];
    b.cnt[field(seat, d)][p] = count;
}

/// A board from per-player lists of (distance, count); other stones of a
/// player are borne off (High-O Gammon) or waiting (Tric-Trac), so that
/// every colour has 9.
pub(super) fn board(r: HgRules, stones: &[&[(usize, u8)]]) -> Board {
    let mut b = Board::EMPTY;
    for (p, list) in stones.iter().enumerate() {
        for &(d, c) in list.iter() {
            put(&mut b, r, p, d, c);
        }
    }
    fill_up(&mut b, r);
    b
}

/// Tops every colour up to 9 stones: off in High-O Gammon, waiting in Tric-Trac.
pub(super) fn fill_up(b: &mut Board, r: HgRules) {
    for p in 0..r.players as usize {
        let missing = STONES - b.stones(p);
        if r.tric {
            b.pool[p] += missing;
        } else {
            b.off[p] += missing;
        }
    }
}

/// The legal plays of player p with `dice` on board `b`, as text.
pub(super) fn plays(r: HgRules, b: Board, p: usize, dice: [u8; 2]) -> BTreeSet<String> {
    let s = HgState::with_position(r, b, p, dice);
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    out.iter().map(|&a| s.format_action(a)).collect()
}

/// The plays as lists of dice used.
pub(super) fn dice_used(r: HgRules, b: Board, p: usize, dice: [u8; 2]) -> BTreeSet<Vec<u8>> {
    let s = HgState::with_position(r, b, p, dice);
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    out.iter()
        .map(|a| match a {
            HgAction::Play(play) => play.steps().iter().map(|st| st.die).collect(),
            other => panic!("not a play: {other:?}"),
        })
        .collect()
}

/// Plays `text` for player p with `dice` and returns the state after it.
pub(super) fn after(r: HgRules, b: Board, p: usize, dice: [u8; 2], text: &str) -> HgState {
    let mut s = HgState::with_position(r, b, p, dice);
    let a = s.parse_action(text).unwrap();
    s.try_apply(a).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    s
}

pub(super) fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}
