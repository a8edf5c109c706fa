//! A quick evaluation: fewer cards than the others and stronger cards
//! (high trumps best) are better.

use super::cards::{Card, Cards, Kind, Trumps};
use super::{Phase, StortokState};
use crate::game::{Heuristic, Player, terminal_value};

/// How strong a card is for beating and for not being beaten, 0..1: plain
/// cards 0..0.5 by rank, low trumps 0.5..0.75, high trumps 0.75..1.
pub fn card_strength(card: Card, trumps: Option<Trumps>) -> f64 {
    let r = (card.rank() as f64 - 2.0) / 12.0;
    match trumps.map(|t| t.kind(card)) {
        Some(Kind::HighTrump) => 0.75 + 0.25 * r,
        Some(Kind::LowTrump) => 0.5 + 0.25 * r,
        _ => 0.5 * r,
    }
}

impl Heuristic for StortokState {
    fn heuristic(&self, player: Player) -> f64 {
        if let Some(value) = terminal_value(self, player) {
            return value;
        }
        let n = self.n as usize;
        let mine = self.hands[player].count_ones() as f64;
        if mine == 0.0 && self.phase != Phase::Deal && self.stock_len() == 0 {
            // Out: safe, only the game's end is pending.
            return 0.9;
        }
        let others: Vec<f64> = (0..n)
            .filter(|&q| q != player && self.hands[q] != 0)
            .map(|q| self.hands[q].count_ones() as f64)
            .collect();
        let avg = if others.is_empty() {
            0.0
        } else {
            others.iter().sum::<f64>() / others.len() as f64
        };
        let count = (avg - mine) / (avg + mine + 1.0);
        let trumps = self.trumps();
        let strength = if mine > 0.0 {
            Cards(self.hands[player])
                .map(|c| card_strength(c, trumps) - 0.5)
                .sum::<f64>()
                / mine
        } else {
            0.0
        };
        (0.75 * count + 0.4 * strength).clamp(-0.95, 0.95)
    }
}
