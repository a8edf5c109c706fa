//! A quick evaluation: stones in and towards the opponent's camp, material,
//! and what the player to move can knock out or win at once.

use super::geometry::Stone;
use super::state::{Captured, LagerState};
use super::zobrist::{OUT, UNPLAYED};
use crate::game::{Heuristic, Player, terminal_value};

/// Weight of a stone in the opponent's camp (two win).
const IN_CAMP: f64 = 1.0;
/// Weight of a stone's progress across the board (0 at home, 1 next to the camp).
const ADVANCE: f64 = 0.45;
/// Weight of each stone still in the game (not knocked out).
const MATERIAL: f64 = 0.3;
/// Weight of a stone on the board (tempo).
const DEPLOYED: f64 = 0.05;
/// Weight of a blockade still in hand.
const BLOCKADE: f64 = 0.05;

impl LagerState {
    /// How far `player`'s stone on `loc` has come: 0 in his own camp, 1 in
    /// the opponent's.
    fn progress(&self, player: Player, loc: u8) -> f64 {
        let g = self.geometry();
        let row = loc / g.columns;
        let steps = if player == 0 { row } else { g.rows - 1 - row };
        steps as f64 / (g.rows - 1) as f64
    }

    /// The static worth of `player`'s pieces.
    fn worth(&self, player: Player) -> f64 {
        let mut v = 0.0;
        let in_camp = self.stones_in_camp(player, 1 - player);
        v += IN_CAMP * in_camp as f64;
        for &loc in &self.stones[player] {
            match loc {
                OUT => {}
                UNPLAYED => v += MATERIAL,
                l => {
                    let pr = self.progress(player, l);
                    v += MATERIAL + DEPLOYED;
                    if pr < 1.0 {
                        v += ADVANCE * pr * pr;
                    }
                }
            }
        }
        if self.blockades[player] == UNPLAYED {
            v += BLOCKADE;
        }
        v
    }

    /// Whether `player` (to move) can bring a second stone into the
    /// opponent's camp with one action.
    fn wins_next(&self, player: Player) -> bool {
        if self.stones_in_camp(player, 1 - player) != 1 {
            return false;
        }
        let camp = self.masks().camp[1 - player];
        let free = !self.occupied & self.masks().board;
        let targets = self.threatened(player) & self.capturable(player) & camp;
        for (k, &loc) in self.stones[player].iter().enumerate() {
            if loc >= UNPLAYED || camp >> loc & 1 == 1 {
                continue;
            }
            let (stone, b) = (Stone::ALL[k], 1u128 << loc);
            let reach = self.masks().destinations(stone, b, player, free)
                | (self.masks().threats(stone, b, player) & targets);
            if reach & camp != 0 {
                return true;
            }
        }
        false
    }

    /// The best stone the player to move can knock out now, by its worth to
    /// its owner.
    fn best_capture(&self, player: Player) -> f64 {
        let targets = self.threatened(player) & self.capturable(player);
        if targets == 0 {
            return 0.0;
        }
        let opp = 1 - player;
        let material = match self.config.captured {
            Captured::Out => MATERIAL,
            Captured::Return => 0.0,
        };
        let mut best: f64 = 0.02; // a blockade
        for &loc in &self.stones[opp] {
            if loc < UNPLAYED && targets >> loc & 1 == 1 {
                best = best.max(material + DEPLOYED + ADVANCE * self.progress(opp, loc).powi(2));
            }
        }
        best
    }
}

impl Heuristic for LagerState {
    fn heuristic(&self, player: Player) -> f64 {
        if let Some(value) = terminal_value(self, player) {
            return value;
        }
        let mover = self.side as Player;
        if self.wins_next(mover) {
            return if mover == player { 0.95 } else { -0.95 };
        }
        let mut v = self.worth(player) - self.worth(1 - player);
        let gain = 0.8 * self.best_capture(mover);
        v += if mover == player { gain } else { -gain };
        (0.9 * v.tanh()).clamp(-0.9, 0.9)
    }
}
